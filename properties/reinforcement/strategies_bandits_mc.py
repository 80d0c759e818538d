"""Hypothesis strategies of the bandits / Monte-Carlo part of the reinforcement family.

The Monte-Carlo claims enumerate trajectories exactly, and for that they need the
transition rewards ``R[a, x, x']`` next to ``P``: :func:`models` draws both (small, with
shrinkable integer weights and rewards) and keeps them beside the :class:`TabularMDP`
built from them.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from hypothesis import strategies as st

from algorithms.reinforcement import TabularMDP

__all__ = ["Model", "models", "reward_lists", "temperatures", "value_vectors"]


@dataclass(frozen=True)
class Model:
    """A small MDP with its arrays: ``P`` (A, S, S), ``R`` (A, S, S)."""

    P: np.ndarray
    R: np.ndarray
    mdp: TabularMDP

    @property
    def n_states(self) -> int:
        return int(self.P.shape[1])

    @property
    def n_actions(self) -> int:
        return int(self.P.shape[0])


def make_model(P, R) -> Model:
    P = np.asarray(P, dtype=float)
    R = np.asarray(R, dtype=float)
    return Model(P, R, TabularMDP(P, R))


@st.composite
def models(draw, max_states: int = 3, min_actions: int = 1, max_actions: int = 2) -> Model:
    """P from integer weights in {0..3} (an empty row becomes a self-loop), R integers in
    [-2, 2]; shrinks towards one state, few actions, deterministic moves."""
    S = draw(st.integers(1, max_states))
    A = draw(st.integers(min_actions, max_actions))
    w = np.array(draw(st.lists(st.integers(0, 3), min_size=A * S * S, max_size=A * S * S)),
                 dtype=float).reshape(A, S, S)
    a_idx, x_idx = np.nonzero(w.sum(axis=2) == 0)
    w[a_idx, x_idx, x_idx] = 1.0
    R = np.array(draw(st.lists(st.integers(-2, 2), min_size=A * S * S, max_size=A * S * S)),
                 dtype=float).reshape(A, S, S)
    return make_model(w / w.sum(axis=2, keepdims=True), R)


def reward_lists(min_size: int = 1, max_size: int = 60) -> st.SearchStrategy:
    """Reward sequences mixing ordinary and large magnitudes (up to 1e6)."""
    small = st.floats(-10, 10, allow_nan=False, allow_infinity=False)
    large = st.floats(-1e6, 1e6, allow_nan=False, allow_infinity=False)
    return st.lists(st.one_of(small, large), min_size=min_size, max_size=max_size)


def value_vectors(min_size: int = 1, max_size: int = 8, bound: float = 1e6
                  ) -> st.SearchStrategy:
    """Q vectors for (14.2), with repeated entries (ties) likely."""
    base = st.floats(-bound, bound, allow_nan=False, allow_infinity=False)
    return st.lists(st.one_of(base, st.sampled_from([0.0, 1.0, -1.0])),
                    min_size=min_size, max_size=max_size).map(np.array)


def temperatures() -> st.SearchStrategy:
    """τ from 1e-3 to 1e3 on a log scale."""
    return st.floats(-3.0, 3.0).map(lambda e: float(10.0 ** e))
