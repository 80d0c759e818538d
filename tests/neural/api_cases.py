"""Bad-input cases of the neural family's public API (see ``tests/api_fuzz.py``).

Two tables, one per part of the chapter: the supervised networks of §3.1-§3.5.1
(``api_cases_supervised``) and the other networks of §3.5.2-§3.5.6
(``api_cases_other``).
"""

from __future__ import annotations

from tests.api_fuzz import Case
from tests.neural.api_cases_other import CASES as _OTHER
from tests.neural.api_cases_supervised import CASES as _SUPERVISED

CASES: dict[str, Case] = {**_SUPERVISED, **_OTHER}
