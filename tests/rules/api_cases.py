"""Bad-input cases of the rules family's public API (see ``tests/api_fuzz.py``)."""

from __future__ import annotations

from tests.api_fuzz import Case

CASES: dict[str, Case] = {}
