"""Helpers shared by the linear-model claim modules (no claims here)."""

from __future__ import annotations

import warnings

import cvxpy as cp
import numpy as np

from mltheory.numeric import Tolerance

EPS = float(np.finfo(float).eps)


def least_squares_tolerance(condition: float) -> Tolerance:
    """Perturbation theory of least squares: solutions computed by different stable
    routes (normal equations, QR, SVD) differ by about ``condition^2 * eps`` relatively
    (the normal equations square the condition number). A factor 1000 covers the
    dimension-dependent constants at the sizes drawn here (N <= 40, d <= 6)."""
    bound = max(1e-12, 1000.0 * condition**2 * EPS)
    return Tolerance(rtol=bound, atol=bound,
                     reason=f"least squares with condition number {condition:.3g}: "
                     "error ~ 1000 cond^2 eps")


def rounding_tolerance(n_operations: int) -> Tolerance:
    """Higham's ``gamma_k = k u / (1 - k u)`` (``u = eps / 2``): a float64 result built by
    at most ``k`` rounded operations in sequence (dot products, sums) differs from the
    exact value by at most ``gamma_k`` times the sum of the absolute values of the terms
    it adds up. A rigorous worst-case bound, so no safety factor; the caller states the
    magnitude (``scale=``) the bound applies to."""
    k_u = n_operations * EPS / 2
    if not 0 <= k_u < 0.5:
        raise ValueError(f"n_operations must be in [0, 1/eps), got {n_operations!r}")
    return Tolerance(rtol=k_u / (1 - k_u), atol=0.0,
                     reason=f"float64 rounding of sums of at most {n_operations} terms: "
                     "gamma_k times the terms' total magnitude")


def quietly(fn, *args, **kwargs):
    """Call ``fn`` with warnings suppressed (rank-deficiency/convergence warnings are
    expected on some drawn inputs; the checks inspect the flags instead)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return fn(*args, **kwargs)


def cvx_solve(objective: cp.Expression, variable: cp.Variable) -> np.ndarray:
    """Minimise with CLARABEL (interior point), falling back to SCS; tight tolerances."""
    problem = cp.Problem(cp.Minimize(objective))
    try:
        problem.solve(solver=cp.CLARABEL, tol_gap_abs=1e-10, tol_gap_rel=1e-10,
                      tol_feas=1e-10)
    except cp.error.SolverError:
        problem.solve(solver=cp.SCS, eps=1e-9, max_iters=200_000)
    if variable.value is None:
        raise RuntimeError(f"cvxpy failed: {problem.status}")
    return np.asarray(variable.value, dtype=float).reshape(-1)


def penalised_objective(A: np.ndarray, y: np.ndarray, w: np.ndarray, l1: float = 0.0,
                        l2: float = 0.0) -> float:
    """``||y - A w||^2 + l1 ||w||_1 + l2 ||w||^2``."""
    r = y - A @ w
    return float(r @ r + l1 * np.abs(w).sum() + l2 * w @ w)
