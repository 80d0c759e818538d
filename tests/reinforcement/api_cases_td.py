"""Bad-input cases of the reinforcement family's td part (filled in by that part)."""

from __future__ import annotations

from tests.api_fuzz import Case

CASES: dict[str, Case] = {}
