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


def literal_fista(X, y, l1, l2, L, steps):
    """FISTA as the solver documents it, written out: proximal-gradient steps 1/L in the
    Jacobi-scaled variables u_j = D_j w_j (D_j^2 = ||x_j||^2 + l2) from an extrapolated
    point, the Beck-Teboulle momentum t' = (1 + sqrt(1 + 4 t^2)) / 2, and the adaptive
    restart (t = 1, no extrapolation) when the momentum points uphill. Returns the last
    iterate and the number of steps taken with momentum."""
    scale = np.sqrt(np.einsum("ij,ij->j", X, X) + l2)
    scale[scale <= 0.0] = 1.0
    step = 1.0 / (L * scale**2)
    w = np.zeros(X.shape[1])
    v, t, with_momentum = w.copy(), 1.0, 0
    for _ in range(steps):
        z = v - step * (-2.0 * X.T @ (y - X @ v) + 2.0 * l2 * v)
        w_new = np.sign(z) * np.maximum(np.abs(z) - l1 * step, 0.0)
        if float((v - w_new) @ (scale**2 * (w_new - w))) > 0.0:
            t, v = 1.0, w_new.copy()
        else:
            t_next = 0.5 * (1.0 + np.sqrt(1.0 + 4.0 * t * t))
            v = w_new + ((t - 1.0) / t_next) * (w_new - w)
            t, with_momentum = t_next, with_momentum + 1
        w = w_new
    return w, with_momentum


@pytest.mark.parametrize("l2", [0.0, 0.5])
def test_fista_iterates_follow_the_documented_momentum(l2):
    rng = np.random.default_rng(4)
    X = rng.normal(size=(15, 6)) * np.linspace(0.2, 2.0, 6)
    y = X @ rng.normal(size=6) + 0.1 * rng.normal(size=15)
    for steps in range(1, 8):
        sol = solve_l1_l2(X, y, l1=0.5, l2=l2, solver="fista", max_iter=steps, tol=1e-300)
        assert sol.n_iter == steps
        w, with_momentum = literal_fista(X, y, 0.5, l2, sol.lipschitz, steps)
        np.testing.assert_allclose(sol.coef, w, rtol=1e-10, atol=1e-12)
    assert with_momentum >= 3  # the momentum sequence matters beyond its first term


@pytest.mark.parametrize("seed", [0, 5, 9])
def test_active_set_step_tries_the_larger_decrease_first(seed, monkeypatch):
    """_orthant_step follows each of its two directions to the line minimum or the first
    zero, where the objective on the orthant is exactly the quadratic model; it must try
    the step of the larger predicted (hence actual) decrease first. Every trial is refused
    here (the objective reads +inf) so that both are seen, in the order tried."""
    import algorithms.linear._lasso as lasso

    rng = np.random.default_rng(seed)
    n, d = rng.integers(3, 8), rng.integers(3, 9)
    X = rng.normal(size=(n, d))
    if rng.random() < 0.5:
        X[:, 1] = X[:, 0]
    y = rng.normal(size=n) * 3
    w = rng.normal(size=d) * (rng.random(d) < 0.8)
    l1 = float(rng.choice([0.01, 0.1, 1.0]))
    real = lasso._objective
    seen = []

    def refuse(rr, point, l1_, l2_):
        seen.append(point.copy())
        return np.inf

    monkeypatch.setattr(lasso, "_objective", refuse)
    assert lasso._orthant_step(lasso._Quadratic(X, y, 0.0), w.copy(), l1, 0.0) is None
    trials = seen[1:]  # the first evaluation is the current point's
    assert len(trials) == 2  # both directions (range Newton step, null space) were tried
    values = [real(float(np.sum((y - X @ t) ** 2)), t, l1, 0.0) for t in trials]
    current = real(float(np.sum((y - X @ w) ** 2)), w, l1, 0.0)
    assert values[0] <= values[1] + 1e-9 * current
