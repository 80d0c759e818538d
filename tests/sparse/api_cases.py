"""Bad-input cases of the sparse family's public API (see ``tests/api_fuzz.py``),
merged from its parts."""

from __future__ import annotations

from tests.api_fuzz import Case
from tests.sparse.api_cases_dictionary import CASES as _DICTIONARY
from tests.sparse.api_cases_pgd_cs import CASES as _PGD_CS
from tests.sparse.api_cases_selection import CASES as _SELECTION

CASES: dict[str, Case] = {**_SELECTION, **_PGD_CS, **_DICTIONARY}
