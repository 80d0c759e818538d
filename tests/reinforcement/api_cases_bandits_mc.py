"""Bad-input cases of the reinforcement family's bandits_mc part (``_bandits.py``,
``_monte_carlo.py``; see ``tests/api_fuzz.py``)."""

from __future__ import annotations

import numpy as np

from algorithms.reinforcement import GaussianBandit, sample_trajectory
from tests.api_fuzz import Case
from tests.reinforcement.api_cases_mdp import small_mdp

_NOT_STOCHASTIC = [np.full((4, 2), 0.7), -np.full((4, 2), 0.5)]


def _bandit(rng: np.random.Generator):
    return GaussianBandit(rng.normal(size=3), sigma=1.0)


def _path(rng: np.random.Generator):
    """A model, a positive policy and one of its trajectories (positive probability)."""
    mdp = small_mdp(rng)
    b = rng.dirichlet(np.ones(2), size=4)
    tr = sample_trajectory(mdp, b, 4, random_state=int(rng.integers(100)), start=0)
    return mdp, b, tr


def _trajectory_probability(rng):
    mdp, b, tr = _path(rng)
    return (mdp, b, tr.states, tr.actions), {}


def _importance_ratio(rng):
    _, b, tr = _path(rng)
    return (rng.dirichlet(np.ones(2), size=4), b, tr.states, tr.actions), {}


CASES: dict[str, Case] = {
    # 003 §14.2
    "BernoulliBandit": Case(
        call=lambda rng: ((rng.uniform(size=3),), {}),
        invalid={"means": [np.array([0.5, 1.5]), np.array([-0.1]), np.zeros((2, 2))]},
    ),
    "GaussianBandit": Case(
        call=lambda rng: ((rng.normal(size=3),), {"sigma": 0.5}),
        invalid={"sigma": [-1.0], "means": [np.zeros((2, 2))]},
    ),
    "incremental_mean": Case(
        call=lambda rng: ((float(rng.normal()), 3, float(rng.normal())), {}),
        invalid={"n": [0]},
    ),
    "running_means": Case(
        call=lambda rng: ((rng.normal(size=10),), {"alpha": 0.3, "initial": 0.0}),
        invalid={"alpha": [0.0, -0.5, 1.5], "values": [np.zeros((3, 2))]},
    ),
    "softmax_probabilities": Case(
        call=lambda rng: ((rng.normal(size=4), 0.5), {}),
        invalid={"tau": [0.0, -1.0], "Q": [np.zeros((2, 2, 2))]},
        accept=frozenset({"Q-extra-axis"}),  # rows of Q: one distribution per row
    ),
    "EpsilonGreedyBandit": Case(
        call=lambda rng: ((_bandit(rng),), {}),
        init=lambda: {"epsilon": 0.2, "n_steps": 200, "random_state": 0},
        invalid={"epsilon": [-0.1, 1.5, "bogus"], "n_steps": [0],
                 "bandit": [np.zeros(3), "bandit"]},
    ),
    "SoftmaxBandit": Case(
        call=lambda rng: ((_bandit(rng),), {}),
        init=lambda: {"tau": 0.5, "n_steps": 200, "random_state": 0},
        invalid={"tau": [0.0, -1.0], "n_steps": [0], "bandit": [np.zeros(3)]},
    ),
    # 003 §14.4.1
    "Trajectory": Case(skip="a result dataclass filled by sample_trajectory"),
    "sample_trajectory": Case(
        call=lambda rng: ((small_mdp(rng), rng.dirichlet(np.ones(2), size=4), 5),
                          {"random_state": 0, "start": 1}),
        invalid={"policy": _NOT_STOCHASTIC + [np.array([0, 2, 1, 0])], "horizon": [0],
                 "start": [4], "env": [object()]},
    ),
    "trajectory_probability": Case(
        call=_trajectory_probability,
        invalid={"policy": _NOT_STOCHASTIC, "states": [np.array([0, 1, 9, 0, 0]),
                                                      np.array([0, 1])],
                 "actions": [np.array([0, 2, 1, 0])], "mdp": [np.eye(2)]},
    ),
    "importance_ratio": Case(
        call=_importance_ratio,
        invalid={"behaviour": _NOT_STOCHASTIC + [np.tile([1.0, 0.0], (4, 1))],
                 "target": _NOT_STOCHASTIC, "states": [np.array([0, 1, 9, 0, 0])],
                 "actions": [np.array([0, 2, 1, 0])]},
    ),
    "trajectory_returns": Case(
        call=lambda rng: ((rng.normal(size=6),), {"ratios": rng.uniform(0, 2, size=6)}),
        invalid={"ratios": [-np.ones(6), np.ones(5)], "rewards": [np.zeros((2, 2, 2))]},
    ),
    "OnPolicyMonteCarlo": Case(
        call=lambda rng: ((small_mdp(rng),), {"policy": rng.dirichlet(np.ones(2), size=4)}),
        init=lambda: {"horizon": 4, "n_episodes": 20, "random_state": 0},
        invalid={"horizon": [0], "epsilon": [-0.1, 1.5], "n_episodes": [0],
                 "policy": _NOT_STOCHASTIC, "env": [object()], "start": [4]},
    ),
    "OffPolicyMonteCarlo": Case(
        call=lambda rng: ((small_mdp(rng),), {"policy": np.array([0, 1, 1, 0])}),
        init=lambda: {"horizon": 4, "n_episodes": 20, "epsilon": 0.3, "random_state": 0},
        invalid={"horizon": [0], "epsilon": [0.0, -0.1, 1.5], "n_episodes": [0],
                 "policy": [np.array([0, 2, 1, 0]), np.array([0, 1])],
                 "weighting": ["bogus"], "env": [object()]},
    ),
}

