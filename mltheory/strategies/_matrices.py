"""Symmetric positive definite matrices with a controlled spectrum.

``spd_with_condition`` builds one from a numpy Generator (for strategies that draw a
seed and build the rest); ``spd_matrices`` is the Hypothesis strategy.
"""

from __future__ import annotations

import numpy as np
from hypothesis import strategies as st

__all__ = ["spd_matrices", "spd_with_condition"]


def spd_with_condition(rng: np.random.Generator, d: int, log10_condition: float) -> np.ndarray:
    """A random SPD matrix with eigenvalues log-spaced over ``10**log10_condition``."""
    Q, _ = np.linalg.qr(rng.standard_normal((d, d)))
    eig = np.logspace(0.0, -log10_condition, d) if d > 1 else np.ones(1)
    return (Q * eig) @ Q.T


@st.composite
def spd_matrices(
    draw: st.DrawFn, *, min_dim: int = 1, max_dim: int = 5, max_log10_condition: float = 4.0
) -> np.ndarray:
    """Symmetric positive definite matrices with a drawn dimension and condition number."""
    d = draw(st.integers(min_dim, max_dim))
    c = draw(st.floats(0.0, max_log10_condition))
    seed = draw(st.integers(0, 2**32 - 1))
    scale = draw(st.sampled_from((1e-2, 1.0, 1e2)))
    S = scale * spd_with_condition(np.random.default_rng(seed), d, c)
    return (S + S.T) / 2
