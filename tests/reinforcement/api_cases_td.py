"""Bad-input cases of the reinforcement family's td part (``_td.py``, ``_approximation.py``).

The learners take an environment as the first argument of ``fit``, so the harness's
``predict(X)`` calls (X = the environment) do not apply to Sarsa, QLearning, LinearTD and
LinearSarsa: ``methods=()``. LinearValueRegression's ``fit(features, values)`` is
data-first and its ``predict(features)`` is fuzzed.
"""

from __future__ import annotations

import numpy as np

from tests.api_fuzz import Case
from tests.reinforcement.api_cases_mdp import small_mdp


def _policy(rng: np.random.Generator) -> np.ndarray:
    return rng.dirichlet(np.ones(2), size=4)


def _features(rng: np.random.Generator, S: int = 4, d: int = 3) -> np.ndarray:
    return rng.normal(size=(S, d))


_CONTROL_INIT = {"gamma": 0.9, "alpha": 0.2, "epsilon": 0.1, "n_steps": 2000,
                 "alpha_power": 0.0, "epsilon_power": 0.0, "max_episode_length": 50,
                 "start": 1, "random_state": 0}
_CONTROL_INVALID = {"gamma": [1.0, -0.1], "alpha": [0.0, -1.0], "epsilon": [-0.1, 1.5],
                    "alpha_power": [-0.5, 2.0], "epsilon_power": [-0.5, 2.0],
                    "n_steps": [0], "max_episode_length": [0], "start": [4],
                    "env": [object(), np.zeros(3)]}

CASES: dict[str, Case] = {
    "Sarsa": Case(call=lambda rng: ((small_mdp(rng),), {}), init=lambda: dict(_CONTROL_INIT),
                  invalid=_CONTROL_INVALID, methods=()),
    "QLearning": Case(call=lambda rng: ((small_mdp(rng),), {}),
                      init=lambda: dict(_CONTROL_INIT), invalid=_CONTROL_INVALID, methods=()),
    "LinearSarsa": Case(
        call=lambda rng: ((small_mdp(rng), _features(rng)), {}),
        init=lambda: {**_CONTROL_INIT, "n_steps": 300},
        invalid={**_CONTROL_INVALID, "features": [np.zeros((4, 3)), np.ones((3, 3))]},
        methods=()),
    "LinearTD": Case(
        call=lambda rng: ((small_mdp(rng), _policy(rng), _features(rng)), {}),
        init=lambda: {"gamma": 0.9, "alpha": 0.05, "alpha_power": 0.5, "n_steps": 2000,
                      "max_episode_length": 50, "start": 0, "random_state": 0,
                      "history_every": 100},
        invalid={"gamma": [1.0], "alpha": [0.0], "alpha_power": [1.5], "n_steps": [0],
                 "policy": [np.full((4, 2), 0.7), np.array([0, 1, 2, 0])],
                 "features": [np.zeros((4, 3)), np.ones((5, 3))], "env": [object()]},
        methods=()),
    "LinearValueRegression": Case(
        call=lambda rng: ((_features(rng, 6), rng.normal(size=6), rng.dirichlet(np.ones(6))),
                          {}),
        init=lambda: {"alpha": 0.1, "alpha_power": 0.6, "n_steps": 2000, "random_state": 0,
                      "history_every": 100},
        invalid={"alpha": [0.0], "alpha_power": [-1.0], "n_steps": [0],
                 "sample_weight": [-np.ones(6), np.zeros(6)], "features": [np.zeros((6, 3))]}),
    "lstd": Case(
        call=lambda rng: ((small_mdp(rng), _policy(rng), _features(rng, d=2), 0.9),
                          {"weighting": rng.dirichlet(np.ones(4))}),
        invalid={"gamma": [1.0, -0.5], "policy": [np.full((4, 2), 0.7)],
                 "weighting": [-np.ones(4), np.zeros(4)], "features": [np.zeros((4, 2))],
                 "mdp": [object()]}),
    "on_policy_distribution": Case(
        call=lambda rng: ((small_mdp(rng), _policy(rng)), {"kind": "discounted",
                                                           "gamma": 0.5}),
        invalid={"kind": [3], "gamma": [1.0], "policy": [np.full((4, 2), 0.7)],
                 "mdp": [object()]}),
    "LSTDResult": Case(skip="a result dataclass"),
}
