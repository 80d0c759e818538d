"""Regularisation paths: ridge (via one SVD), LASSO and elastic net (warm starts).

References
----------
004 §1.2 (the regularisation coefficient lambda "adjusts the ratio of the
regularisation term to the training error"); 003 §10.4.
"""

from __future__ import annotations

import warnings

import numpy as np
import scipy.linalg
from sklearn.exceptions import ConvergenceWarning

from algorithms.linear._elastic_net import elastic_net_penalties
from algorithms.linear._inputs import (
    as_design,
    as_target,
    check_bool,
    check_choice,
    check_positive_int,
    check_real,
)
from algorithms.linear._lasso import SOLVERS, solve_l1_l2

__all__ = ["RegularisationPath", "elastic_net_path", "lasso_path", "ridge_path"]


class RegularisationPath:
    """Solutions along a grid of lambdas (descending), one row per lambda.

    Attributes
    ----------
    lams : ndarray of shape (n_lams,)
    coefs : ndarray of shape (n_lams, n_features)
    intercepts : ndarray of shape (n_lams,)
    converged : ndarray of bool, shape (n_lams,)
    """

    def __init__(self, lams: np.ndarray, coefs: np.ndarray, intercepts: np.ndarray,
                 converged: np.ndarray) -> None:
        self.lams, self.coefs, self.intercepts, self.converged = lams, coefs, intercepts, converged

    def __repr__(self) -> str:
        return f"RegularisationPath(n_lams={self.lams.size}, n_features={self.coefs.shape[1]})"


def _prepare(X: object, y: object, fit_intercept: object):
    fit_intercept = check_bool(fit_intercept, "fit_intercept")
    X_arr = as_design(X)
    y_arr = as_target(y, X_arr.shape[0])
    if fit_intercept:
        x_mean, y_mean = X_arr.mean(axis=0), float(y_arr.mean())
    else:
        x_mean, y_mean = np.zeros(X_arr.shape[1]), 0.0
    return X_arr - x_mean, y_arr - y_mean, x_mean, y_mean


def _lam_grid(lams: object, lam_max: float, n_lams: object, eps: object) -> np.ndarray:
    if lams is not None:
        grid = np.asarray(lams, dtype=float).reshape(-1)
        if grid.size == 0 or not np.all(np.isfinite(grid)) or np.any(grid <= 0):
            raise ValueError("lams must be a non-empty array of finite values > 0")
        return np.sort(grid)[::-1]
    n = check_positive_int(n_lams, "n_lams")
    e = check_real(eps, "eps", low=0.0, high=1.0, low_open=True, high_open=True)
    top = lam_max if lam_max > 0 else 1.0
    return np.geomspace(top, top * e, n)


def ridge_path(X: object, y: object, lams: object, *, fit_intercept: bool = True
               ) -> RegularisationPath:
    """Ridge solutions for every lambda in ``lams`` from a single SVD of the centred X.

    ``w(lam) = V diag(s / (s^2 + lam)) U^T y``; the intercept is not penalised.
    """
    A, target, x_mean, y_mean = _prepare(X, y, fit_intercept)
    grid = np.asarray(lams, dtype=float).reshape(-1)
    if grid.size == 0 or not np.all(np.isfinite(grid)) or np.any(grid <= 0):
        raise ValueError("lams must be a non-empty array of finite values > 0")
    grid = np.sort(grid)[::-1]
    U, s, Vt = scipy.linalg.svd(A, full_matrices=False)
    uty = U.T @ target
    shrink = s[None, :] / (s[None, :] ** 2 + grid[:, None])
    coefs = (shrink * uty[None, :]) @ Vt
    intercepts = y_mean - coefs @ x_mean
    return RegularisationPath(grid, coefs, intercepts, np.ones(grid.size, dtype=bool))


def _l1_path(X, y, lams, n_lams, eps, rho, fit_intercept, solver, max_iter, tol):
    solver = check_choice(solver, "solver", SOLVERS)
    max_iter = check_positive_int(max_iter, "max_iter")
    tol = check_real(tol, "tol", low=0.0, low_open=True)
    A, target, x_mean, y_mean = _prepare(X, y, fit_intercept)
    # Smallest lambda with the all-zero solution: |2 x_j^T y| <= lambda rho for all j.
    lam_max = 2.0 * float(np.max(np.abs(A.T @ target))) / rho
    grid = _lam_grid(lams, lam_max, n_lams, eps)
    coefs = np.zeros((grid.size, A.shape[1]))
    converged = np.zeros(grid.size, dtype=bool)
    w = np.zeros(A.shape[1])
    for k, lam in enumerate(grid):
        l1, l2 = elastic_net_penalties(lam, rho)
        sol = solve_l1_l2(A, target, l1=l1, l2=l2, solver=solver, max_iter=max_iter, tol=tol,
                          coef_init=w)
        w = sol.coef.copy()
        coefs[k], converged[k] = w, sol.converged
    if not converged.all():
        warnings.warn(
            f"{int((~converged).sum())} of {grid.size} path points did not converge",
            ConvergenceWarning,
            stacklevel=3,
        )
    return RegularisationPath(grid, coefs, y_mean - coefs @ x_mean, converged)


def lasso_path(X: object, y: object, *, lams: object = None, n_lams: int = 50,
               eps: float = 1e-3, fit_intercept: bool = True, solver: str = "cd",
               max_iter: int = 10_000, tol: float = 1e-8) -> RegularisationPath:
    """LASSO solutions along a descending lambda grid, warm-started.

    Without ``lams`` the grid is ``n_lams`` log-spaced values from
    ``lambda_max = 2 ||X_c^T y_c||_inf`` (the smallest lambda whose solution is zero)
    down to ``eps * lambda_max``.
    """
    return _l1_path(X, y, lams, n_lams, eps, 1.0, fit_intercept, solver, max_iter, tol)


def elastic_net_path(X: object, y: object, *, rho: float = 0.5, lams: object = None,
                     n_lams: int = 50, eps: float = 1e-3, fit_intercept: bool = True,
                     solver: str = "cd", max_iter: int = 10_000, tol: float = 1e-8
                     ) -> RegularisationPath:
    """Elastic-net solutions (notes' (lambda, rho)) along a descending lambda grid.

    ``lambda_max = 2 ||X_c^T y_c||_inf / rho``.
    """
    rho = check_real(rho, "rho", low=0.0, high=1.0, low_open=True)
    return _l1_path(X, y, lams, n_lams, eps, rho, fit_intercept, solver, max_iter, tol)
