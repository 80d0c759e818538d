"""Bad-input cases of the MDP core (``algorithms/reinforcement/_mdp.py``)."""

from __future__ import annotations

import numpy as np

from algorithms.reinforcement import TabularMDP, random_mdp
from tests.api_fuzz import Case


def _model(rng: np.random.Generator, S: int = 4, A: int = 2) -> tuple[np.ndarray, np.ndarray]:
    P = rng.dirichlet(np.ones(S), size=(A, S))
    return P, rng.normal(size=(A, S, S))


def small_mdp(rng: np.random.Generator) -> TabularMDP:
    """A valid 4-state, 2-action MDP for the cases of every part of the family."""
    return random_mdp(4, 2, random_state=int(rng.integers(2**31)))


_NOT_STOCHASTIC = [np.full((2, 4, 4), 0.3), -np.full((2, 4, 4), 0.25), np.ones((2, 4, 3)) / 3]

CASES: dict[str, Case] = {
    "TabularMDP": Case(
        call=lambda rng: (_model(rng), {"terminal": None, "initial": None}),
        invalid={"P": _NOT_STOCHASTIC, "R": [np.zeros((3, 4, 4)), np.zeros((2, 4))[:, :3]],
                 "terminal": [[7], [0]], "initial": [np.full(4, 0.3), 9, [0.5, 0.5]]},
        finite_output=False,
    ),
    "random_mdp": Case(
        call=lambda rng: ((5, 3), {"branching": 2, "n_terminal": 1,
                                   "random_state": int(rng.integers(100))}),
        invalid={"n_states": [0], "n_actions": [0], "branching": [0, 9], "n_terminal": [5],
                 "reward_scale": [-1.0]},
        finite_output=False,
    ),
    "as_policy_matrix": Case(
        call=lambda rng: ((rng.dirichlet(np.ones(3), size=4), 4, 3), {}),
        invalid={"policy": [np.full((4, 3), 0.5), np.array([0, 1, 5, 0]), np.array([0, 1]),
                            np.zeros((4, 3, 1))]},
    ),
    "greedy_policy": Case(
        call=lambda rng: ((rng.normal(size=(5, 3)),), {"atol": 0.0, "prefer": None}),
        invalid={"atol": [-1.0], "prefer": [np.array([0, 1, 3, 0, 0]), np.array([0, 1])]},
    ),
    "epsilon_greedy_policy": Case(
        call=lambda rng: ((np.array([0, 2, 1]), 0.1, 3), {}),
        invalid={"epsilon": [-0.1, 1.5], "policy": [np.array([0, 3, 1])], "n_actions": [0]},
    ),
    "from_gymnasium": Case(
        call=lambda rng: ((_frozen_lake(),), {}),
        invalid={"env": [object(), np.zeros(3)]},
        finite_output=False,
    ),
    "make_simulator": Case(
        call=lambda rng: ((small_mdp(rng),), {"random_state": 0, "start": 1}),
        invalid={"env": [object(), "FrozenLake-v1"], "start": [7, -1]},
        finite_output=False,
    ),
}


def _frozen_lake():
    import gymnasium

    return gymnasium.make("FrozenLake-v1")
