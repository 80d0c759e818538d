"""Bad-input cases of part pgd_cs of the sparse family (merged in api_cases.py)."""

from __future__ import annotations

from tests.api_fuzz import Case

CASES: dict[str, Case] = {}
