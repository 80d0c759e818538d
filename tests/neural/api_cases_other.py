"""Bad-input cases (part of tests/neural/api_cases.py)."""

from tests.api_fuzz import Case

CASES: dict[str, Case] = {}
