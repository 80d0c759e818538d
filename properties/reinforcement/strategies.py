"""Hypothesis strategies of the reinforcement-learning family.

Small MDPs are drawn entry by entry (so that Hypothesis shrinks a counterexample towards
few states, few actions, 0/1 probabilities and small integer rewards); larger ones come
from :func:`algorithms.reinforcement.random_mdp` with a drawn seed.
"""

from __future__ import annotations

import numpy as np
from hypothesis import strategies as st

from algorithms.reinforcement import TabularMDP, random_mdp

__all__ = ["mdps", "policies", "deterministic_policies", "seeded_mdps"]


@st.composite
def mdps(draw, min_states: int = 1, max_states: int = 4, min_actions: int = 1,
         max_actions: int = 3, integer_rewards: bool = False, max_terminal: int = 0
         ) -> TabularMDP:
    """A small dense MDP: unnormalised weights in {0, ..., 4} per transition (at least one
    positive per row), rewards in [-1, 1] (or integers in [-3, 3]); up to
    ``max_terminal`` terminal states among the last ones."""
    S = draw(st.integers(min_states, max_states))
    A = draw(st.integers(min_actions, max_actions))
    weights = np.array(draw(st.lists(st.integers(0, 4), min_size=A * S * S,
                                     max_size=A * S * S)), dtype=float).reshape(A, S, S)
    # an all-zero row becomes a self-loop (keeps the row stochastic, shrinks to "stay")
    empty = weights.sum(axis=2) == 0
    a_idx, x_idx = np.nonzero(empty)
    weights[a_idx, x_idx, x_idx] = 1.0
    P = weights / weights.sum(axis=2, keepdims=True)
    if integer_rewards:
        vals = st.integers(-3, 3).map(float)
    else:
        vals = st.floats(-1.0, 1.0, allow_nan=False, allow_infinity=False, width=32).map(float)
    R = np.array(draw(st.lists(vals, min_size=A * S * S, max_size=A * S * S))
                 ).reshape(A, S, S)
    n_terminal = draw(st.integers(0, min(max_terminal, S - 1)))
    terminal = np.arange(S - n_terminal, S)
    for x in terminal:
        P[:, x, :] = 0.0
        P[:, x, x] = 1.0
        R[:, x, :] = 0.0
    return TabularMDP(P, R, terminal=terminal if n_terminal else None)


@st.composite
def policies(draw, n_states: int, n_actions: int) -> np.ndarray:
    """A stochastic policy: rows of integer weights in {0, ..., 3}, normalised."""
    w = np.array(draw(st.lists(st.integers(0, 3), min_size=n_states * n_actions,
                               max_size=n_states * n_actions)), dtype=float
                 ).reshape(n_states, n_actions)
    w[w.sum(axis=1) == 0, 0] = 1.0
    return w / w.sum(axis=1, keepdims=True)


def deterministic_policies(n_states: int, n_actions: int) -> st.SearchStrategy:
    """A deterministic policy: one action per state."""
    return st.lists(st.integers(0, n_actions - 1), min_size=n_states,
                    max_size=n_states).map(lambda a: np.array(a, dtype=np.intp))


@st.composite
def seeded_mdps(draw, n_states=(2, 12), n_actions=(2, 4), branching=None,
                n_terminal: int = 0) -> TabularMDP:
    """A random MDP from :func:`random_mdp` (Dirichlet rows) with drawn sizes and seed."""
    S = draw(st.integers(*n_states))
    A = draw(st.integers(*n_actions))
    seed = draw(st.integers(0, 2**32 - 1))
    k = None if branching is None else min(branching, S)
    return random_mdp(S, A, branching=k, n_terminal=min(n_terminal, S - 1), random_state=seed)
