"""The LASSO solver's accelerators do their job (they are safeguarded, so a broken one
changes only the speed, which no claim about the optimum can see)."""

from __future__ import annotations

import numpy as np
import pytest

from algorithms.linear import solve_l1_l2


def wide_collinear(seed: int) -> tuple[np.ndarray, np.ndarray]:
    """10 samples, 20 features, two equal columns: a flat valley for cyclic CD."""
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(10, 20))
    X[:, 1] = X[:, 0]
    return X, X @ rng.normal(size=20) + 0.01 * rng.normal(size=10)


@pytest.mark.parametrize("seed", [0, 2])
def test_active_set_step_crosses_the_flat_valley(seed):
    X, y = wide_collinear(seed)
    fast = solve_l1_l2(X, y, l1=1e-2, tol=1e-10)
    assert fast.converged and fast.n_iter <= 1000
    # plain cyclic CD does not get there in four times as many sweeps
    plain = solve_l1_l2(X, y, l1=1e-2, tol=1e-10, refine=False, max_iter=4 * fast.n_iter)
    assert not plain.converged


@pytest.mark.parametrize("l2", [0.0, 0.5])
def test_fista_converges_faster_than_ista(l2):
    X, y = wide_collinear(3)
    X = X * np.linspace(0.01, 1.0, X.shape[1])  # badly scaled columns
    fista = solve_l1_l2(X, y, l1=1e-2, l2=l2, solver="fista", tol=1e-9, max_iter=20_000)
    ista = solve_l1_l2(X, y, l1=1e-2, l2=l2, solver="ista", tol=1e-9, max_iter=20_000)
    assert fista.converged
    assert fista.n_iter < ista.n_iter
