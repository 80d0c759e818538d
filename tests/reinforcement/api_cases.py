"""Bad-input cases of the reinforcement family's public API (see ``tests/api_fuzz.py``),
merged from its parts."""

from __future__ import annotations

from tests.api_fuzz import Case
from tests.reinforcement.api_cases_bandits_mc import CASES as _BANDITS_MC
from tests.reinforcement.api_cases_imitation import CASES as _IMITATION
from tests.reinforcement.api_cases_mdp import CASES as _MDP
from tests.reinforcement.api_cases_planning import CASES as _PLANNING
from tests.reinforcement.api_cases_td import CASES as _TD

CASES: dict[str, Case] = {**_MDP, **_PLANNING, **_BANDITS_MC, **_TD, **_IMITATION}
