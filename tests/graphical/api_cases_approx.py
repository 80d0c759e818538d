"""Bad-input cases of part approx of the graphical family (merged in api_cases.py)."""

from __future__ import annotations

from tests.api_fuzz import Case

CASES: dict[str, Case] = {}
