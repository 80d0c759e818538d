"""Bad-input cases of the dimred family's public API (see ``tests/api_fuzz.py``),
merged from its parts."""

from __future__ import annotations

from tests.api_fuzz import Case
from tests.dimred.api_cases_linear import CASES as _LINEAR
from tests.dimred.api_cases_manifold import CASES as _MANIFOLD

CASES: dict[str, Case] = {**_LINEAR, **_MANIFOLD}
