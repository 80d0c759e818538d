"""Hypothesis strategies of the planning claims: small MDPs that keep their raw arrays.

The independent references of the planning claims (trajectory enumeration, explicit sums
of (14.5)-(14.11), linear solves) read the transition probabilities ``P[a, x, x']`` and
rewards ``R[a, x, x']`` themselves, not the :class:`TabularMDP`'s stacked matrix or its
expected rewards; a :class:`Model` carries both.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from hypothesis import strategies as st

from algorithms.reinforcement import TabularMDP

__all__ = ["Model", "make_model", "models", "stochastic_policies"]


@dataclass(frozen=True)
class Model:
    """The raw arrays of a small dense MDP and the :class:`TabularMDP` built from them."""

    P: np.ndarray  # (A, S, S)
    R: np.ndarray  # (A, S, S)
    mdp: TabularMDP

    @property
    def S(self) -> int:  # noqa: N802
        return self.P.shape[1]

    @property
    def A(self) -> int:  # noqa: N802
        return self.P.shape[0]

    def __repr__(self) -> str:  # shown with a counterexample
        return (f"Model(P={np.array2string(self.P, precision=4, separator=',')}, "
                f"R={np.array2string(self.R, precision=4, separator=',')})")


def make_model(P, R, terminal=None) -> Model:
    P = np.asarray(P, dtype=float)
    R = np.asarray(R, dtype=float)
    return Model(P, R, TabularMDP(P, R, terminal=terminal))


@st.composite
def models(draw, max_states: int = 3, max_actions: int = 2, min_actions: int = 1,
           min_states: int = 1) -> Model:
    """Weights in {0..3} per transition (an all-zero row becomes a self-loop), integer
    rewards in [-3, 3]: shrinks towards one state, one action, deterministic moves."""
    S = draw(st.integers(min_states, max_states))
    A = draw(st.integers(min_actions, max_actions))
    n = A * S * S
    W = np.array(draw(st.lists(st.integers(0, 3), min_size=n, max_size=n)),
                 dtype=float).reshape(A, S, S)
    a_idx, x_idx = np.nonzero(W.sum(axis=2) == 0)
    W[a_idx, x_idx, x_idx] = 1.0
    R = np.array(draw(st.lists(st.integers(-3, 3), min_size=n, max_size=n)),
                 dtype=float).reshape(A, S, S)
    return make_model(W / W.sum(axis=2, keepdims=True), R)


@st.composite
def stochastic_policies(draw, S: int, A: int) -> np.ndarray:
    """Rows of integer weights in {0..3}, normalised (an all-zero row picks action 0)."""
    w = np.array(draw(st.lists(st.integers(0, 3), min_size=S * A, max_size=S * A)),
                 dtype=float).reshape(S, A)
    w[w.sum(axis=1) == 0, 0] = 1.0
    return w / w.sum(axis=1, keepdims=True)
