"""Bad-input cases of the graphical family's public API (see ``tests/api_fuzz.py``),
merged from its parts."""

from __future__ import annotations

from tests.api_fuzz import Case
from tests.graphical.api_cases_approx import CASES as _APPROX
from tests.graphical.api_cases_exact import CASES as _EXACT

CASES: dict[str, Case] = {**_EXACT, **_APPROX}
