"""Bad-input cases of the reinforcement family's planning part
(``algorithms/reinforcement/_planning.py``)."""

from __future__ import annotations

import numpy as np

from tests.api_fuzz import Case
from tests.reinforcement.api_cases_mdp import small_mdp

_RESULT = "a frozen result dataclass (returned, not called with data)"
_BAD_MDP = [object(), np.zeros((2, 4, 4))]


def _policy(rng):
    return rng.dirichlet(np.ones(2), size=4)


CASES: dict[str, Case] = {
    "EvaluationResult": Case(skip=_RESULT),
    "PolicyIterationResult": Case(skip=_RESULT),
    "ValueIterationResult": Case(skip=_RESULT),
    "policy_evaluation": Case(
        call=lambda rng: ((small_mdp(rng), _policy(rng)),
                          {"gamma": 0.9, "theta": 1e-8, "max_iter": 1000,
                           "method": "iterative", "record_history": False}),
        invalid={"mdp": _BAD_MDP, "gamma": [1.0, -0.1, 1.5],
                 "theta": [0.0, -1.0], "max_iter": [0],
                 "policy": [np.full((4, 2), 0.7), np.array([0, 1, 2, 0]), np.array([0, 1])]},
    ),
    "q_from_v": Case(
        call=lambda rng: ((small_mdp(rng), rng.normal(size=4)),
                          {"horizon": 3, "V_prev": rng.normal(size=4)}),
        invalid={"mdp": _BAD_MDP, "horizon": [0], "V": [np.zeros(3)],
                 "V_prev": [np.zeros(5)]},
    ),
    "policy_improvement": Case(
        call=lambda rng: ((small_mdp(rng), rng.normal(size=(4, 2))),
                          {"current": np.array([0, 1, 0, 1]), "atol": 0.0}),
        invalid={"mdp": _BAD_MDP, "atol": [-1.0], "Q": [np.zeros((4, 3))],
                 "current": [np.array([0, 2, 0, 1]), np.full((4, 2), 0.5)]},
    ),
    "policy_iteration": Case(
        call=lambda rng: ((small_mdp(rng),),
                          {"gamma": 0.9, "theta": 1e-8, "max_iter": 100,
                           "evaluation": "exact", "initial_policy": _policy(rng)}),
        invalid={"mdp": _BAD_MDP, "gamma": [1.0, -0.5], "theta": [0.0], "max_iter": [0],
                 "initial_policy": [np.array([0, 5, 0, 1]), np.full((4, 2), 0.2)]},
    ),
    "value_iteration": Case(
        call=lambda rng: ((small_mdp(rng),),
                          {"gamma": 0.9, "theta": 1e-8, "max_iter": 1000,
                           "in_place": False, "record_history": False}),
        invalid={"mdp": _BAD_MDP, "gamma": [1.0, -0.5], "theta": [0.0, -1.0],
                 "max_iter": [0]},
    ),
    "optimal_values_lp": Case(
        call=lambda rng: ((small_mdp(rng), 0.9), {}),
        invalid={"mdp": _BAD_MDP, "gamma": [1.0, -0.5]},
    ),
}
