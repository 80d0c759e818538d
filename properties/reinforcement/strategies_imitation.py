"""Hypothesis strategies of the imitation part (003 §14.6): small MDPs with state
features, a reward weight vector, a discount and a policy; sets of feature expectations
for the max-margin problem (14.29)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from hypothesis import strategies as st

from algorithms.reinforcement import TabularMDP
from properties.reinforcement.strategies import mdps, policies

__all__ = ["IRLProblem", "irl_problems", "margin_problems"]

GAMMAS = (0.0, 0.5, 0.9)


@dataclass(frozen=True)
class IRLProblem:
    mdp: TabularMDP
    features: np.ndarray  # (S, d)
    w: np.ndarray  # (d,)
    gamma: float
    policy: np.ndarray  # (S, A) stochastic

    def __repr__(self) -> str:  # what a counterexample shows
        return (f"IRLProblem(P={self.mdp.P.tolist()}, R={self.mdp.P.shape}, "
                f"terminal={np.flatnonzero(self.mdp.terminal).tolist()}, "
                f"features={self.features.tolist()}, w={self.w.tolist()}, "
                f"gamma={self.gamma}, policy={self.policy.tolist()})")


def _int_array(shape: tuple[int, ...], low: int, high: int) -> st.SearchStrategy:
    n = int(np.prod(shape))
    return st.lists(st.integers(low, high), min_size=n, max_size=n).map(
        lambda v: np.array(v, dtype=float).reshape(shape))


@st.composite
def irl_problems(draw, max_states: int = 4, max_actions: int = 3, max_features: int = 3,
                 max_terminal: int = 1) -> IRLProblem:
    """A small MDP (entry-wise, shrinks to 1 state / 1 action), integer features in
    [-3, 3], integer reward weights in [-3, 3], γ in {0, 0.5, 0.9}, a stochastic policy."""
    mdp = draw(mdps(max_states=max_states, max_actions=max_actions, max_terminal=max_terminal))
    S, A = mdp.n_states, mdp.n_actions
    d = draw(st.integers(1, max_features))
    Phi = draw(_int_array((S, d), -3, 3))
    w = draw(_int_array((d,), -3, 3))
    gamma = draw(st.sampled_from(GAMMAS))
    pi = draw(policies(S, A))
    return IRLProblem(mdp, Phi, w, gamma, pi)


@st.composite
def margin_problems(draw, max_dim: int = 3, max_policies: int = 5
                    ) -> tuple[np.ndarray, np.ndarray]:
    """``(x̄*, x̄^{π_i} rows)`` with small integer entries (shrinks towards k = 1, d = 1)."""
    d = draw(st.integers(1, max_dim))
    k = draw(st.integers(1, max_policies))
    return draw(_int_array((d,), -3, 3)), draw(_int_array((k, d), -3, 3))
