"""Bad-input cases of the reinforcement family's imitation part (``_imitation.py``; see
``tests/api_fuzz.py``)."""

from __future__ import annotations

import numpy as np

from algorithms.reinforcement import expert_trajectories
from tests.api_fuzz import Case
from tests.reinforcement.api_cases_mdp import small_mdp
from tests.trees.api_cases import LEAF_SENTINELS

_NOT_STOCHASTIC = [np.full((4, 2), 0.7), -np.full((4, 2), 0.5)]


def _demos(rng: np.random.Generator, n: int = 3):
    mdp = small_mdp(rng)
    return mdp, expert_trajectories(mdp, np.array([0, 1, 1, 0]), n, 5,
                                    random_state=int(rng.integers(100)))


def _features(rng: np.random.Generator) -> np.ndarray:
    return rng.uniform(-1.0, 1.0, size=(4, 2))


def _feature_expectations(rng):
    return (small_mdp(rng), rng.dirichlet(np.ones(2), size=4), _features(rng), 0.9), {}


def _empirical(rng):
    _, demos = _demos(rng)
    return (demos, _features(rng), 0.9), {}


def _inverse_rl(rng):
    mdp, demos = _demos(rng)
    return (mdp, demos), {}


CASES: dict[str, Case] = {
    # 003 §14.6.1
    "BehaviourCloning": Case(
        call=lambda rng: ((rng.normal(size=(30, 3)), rng.integers(0, 3, size=30)), {}),
        invalid={"estimator": [object(), "tree"]}, nan_ok=LEAF_SENTINELS,
    ),
    "state_action_pairs": Case(
        call=lambda rng: ((_demos(rng)[1],), {}),
        invalid={"trajectories": [[], np.zeros((2, 3)), [np.array([0, 1])], "demos"]},
    ),
    # 003 §14.6.2
    "expert_trajectories": Case(
        call=lambda rng: ((small_mdp(rng), rng.dirichlet(np.ones(2), size=4), 3, 5),
                          {"random_state": 0, "start": 1}),
        invalid={"policy": _NOT_STOCHASTIC + [np.array([0, 2, 1, 0])],
                 "n_trajectories": [0, 10**9], "horizon": [0], "start": [4],
                 "env": [object()]},
        finite_output=False,
    ),
    "feature_expectations": Case(
        call=_feature_expectations,
        invalid={"gamma": [1.0, -0.1, 1.5], "policy": _NOT_STOCHASTIC,
                 "features": [np.zeros((3, 2)), np.zeros(4)], "mdp": [np.eye(4), object()]},
    ),
    "empirical_feature_expectations": Case(
        call=_empirical,
        invalid={"gamma": [1.0, -0.1], "trajectories": [[], [np.array([0, 9])], "x",
                                                         np.zeros((2, 3)), [np.zeros((2, 2))]],
                 "features": [np.zeros(4)]},
    ),
    "max_margin_weights": Case(
        call=lambda rng: ((rng.normal(size=3), rng.normal(size=(4, 3))), {}),
        invalid={"policy_mus": [np.zeros((4, 2)), np.zeros(3)], "expert_mu": [np.zeros((3, 1))]},
    ),
    "mixture_closest": Case(
        call=lambda rng: ((rng.normal(size=3), rng.normal(size=(4, 3))), {}),
        invalid={"policy_mus": [np.zeros((4, 2)), np.zeros(3)], "expert_mu": [np.zeros((3, 1))]},
    ),
    "InverseRL": Case(
        call=_inverse_rl,
        init=lambda: {"features": np.random.default_rng(0).uniform(-1, 1, size=(4, 2)),
                      "gamma": 0.8, "max_iter": 5, "tol": 1e-6, "random_state": 0},
        invalid={"gamma": [1.0, -0.5], "max_iter": [0], "tol": [-1.0],
                 "n_rollouts": [0], "horizon": [0], "features": [np.zeros((3, 2))],
                 "mdp": [object(), np.eye(4)],
                 "expert": [np.zeros(5), [], "demos", np.zeros((2, 2))]},
    ),
}
