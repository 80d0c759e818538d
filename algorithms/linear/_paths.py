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

from algorithms._validation import (
    check_array_argument,
    check_bool,
    check_int,
    check_real,
    check_squares_representable,
)
from algorithms.linear._elastic_net import elastic_net_penalties
from algorithms.linear._lasso import _solve_l1_l2, check_solver_settings
from algorithms.linear._ols import centre

__all__ = ["RegularisationPath", "elastic_net_path", "lasso_path", "ridge_path"]


class RegularisationPath:
    """Solutions along a grid of lambdas (descending), one row per lambda.

    Parameters
    ----------
    lams : array-like of shape (n_lams,)
    coefs : array-like of shape (n_lams, n_features)
    intercepts : array-like of shape (n_lams,)
    converged : array-like of bool, shape (n_lams,)

    Attributes
    ----------
    lams : ndarray of shape (n_lams,)
    coefs : ndarray of shape (n_lams, n_features)
    intercepts : ndarray of shape (n_lams,)
    converged : ndarray of bool, shape (n_lams,)
    """

    def __init__(self, lams: np.ndarray, coefs: np.ndarray, intercepts: np.ndarray,
                 converged: np.ndarray) -> None:
        self.lams = check_array_argument(lams, "lams", ndim=1, real=True)
        n = self.lams.shape[0]
        self.coefs = check_array_argument(coefs, "coefs", shape=(n, None), real=True)
        self.intercepts = check_array_argument(intercepts, "intercepts", shape=(n,), real=True)
        self.converged = check_array_argument(converged, "converged", shape=(n,), dtype=bool)

    def __repr__(self) -> str:
        return f"RegularisationPath(n_lams={self.lams.size}, n_features={self.coefs.shape[1]})"


def _centred_data(X: object, y: object, fit_intercept: object):
    """Validated ``(X - xbar, y - ybar, xbar, ybar)`` (no centring without an intercept)."""
    X_arr = check_array_argument(X, "X", ndim=2, real=True)
    y_arr = check_array_argument(y, "y", shape=(X_arr.shape[0],), real=True)
    check_squares_representable(X_arr, "X")
    check_squares_representable(y_arr, "y")
    return centre(X_arr, y_arr, check_bool(fit_intercept, "fit_intercept"))


#: Most lambdas a path may hold: each is a full solve, and a longer grid would take
#: far longer than any regularisation path needs (and its arrays would not fit in memory).
MAX_LAMS = 100_000


def _check_lams(lams: object) -> np.ndarray:
    """A non-empty grid of finite lambdas > 0, sorted in descending order."""
    grid = check_array_argument(lams, "lams", real=True).reshape(-1)
    if np.any(grid <= 0):
        raise ValueError(f"lams must all be > 0, got the minimum {float(grid.min())!r}.")
    return np.sort(grid)[::-1]


def _lam_grid(lams: object, lam_max: float, n_lams: object, eps: object) -> np.ndarray:
    if lams is not None:
        return _check_lams(lams)
    n = check_int(n_lams, "n_lams", low=1, high=MAX_LAMS)
    e = check_real(eps, "eps", low=0.0, high=1.0, low_open=True, high_open=True)
    top = lam_max if lam_max > 0 else 1.0
    return np.geomspace(top, top * e, n)


def ridge_path(X: object, y: object, lams: object, *, fit_intercept: bool = True
               ) -> RegularisationPath:
    """Ridge solutions for every lambda in ``lams`` from a single SVD of the centred X.

    ``w(lam) = V diag(s / (s^2 + lam)) U^T y``; the intercept is not penalised.

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features)
    y : array-like of shape (n_samples,)
    lams : array-like of float
        Finite lambdas > 0 (returned in descending order).
    fit_intercept : bool, default=True

    Returns
    -------
    RegularisationPath
    """
    A, target, x_mean, y_mean = _centred_data(X, y, fit_intercept)
    grid = _check_lams(lams)
    U, s, Vt = scipy.linalg.svd(A, full_matrices=False)
    uty = U.T @ target
    shrink = s[None, :] / (s[None, :] ** 2 + grid[:, None])
    coefs = (shrink * uty[None, :]) @ Vt
    intercepts = y_mean - coefs @ x_mean
    return RegularisationPath(grid, coefs, intercepts, np.ones(grid.size, dtype=bool))


def _l1_path(X, y, lams, n_lams, eps, rho, fit_intercept, solver, max_iter, tol):
    solver, max_iter, tol = check_solver_settings(solver, max_iter, tol)
    A, target, x_mean, y_mean = _centred_data(X, y, fit_intercept)
    # Smallest lambda with the all-zero solution: |2 x_j^T y| <= lambda rho for all j.
    lam_max = 2.0 * float(np.max(np.abs(A.T @ target))) / rho
    grid = _lam_grid(lams, lam_max, n_lams, eps)
    coefs = np.zeros((grid.size, A.shape[1]))
    converged = np.zeros(grid.size, dtype=bool)
    w = np.zeros(A.shape[1])
    for k, lam in enumerate(grid):
        l1, l2 = elastic_net_penalties(lam, rho)
        sol = _solve_l1_l2(A, target, l1, l2, solver, max_iter, tol, coef_init=w)
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

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features)
    y : array-like of shape (n_samples,)
    lams : array-like of float, optional
        Finite lambdas > 0; replaces the automatic grid.
    n_lams : int, default=50
        Size of the automatic grid, ``>= 1``.
    eps : float, default=1e-3
        Ratio of the smallest to the largest lambda of the automatic grid, in (0, 1).
    fit_intercept : bool, default=True
    solver, max_iter, tol
        As for :func:`~algorithms.linear.solve_l1_l2`.

    Returns
    -------
    RegularisationPath
    """
    return _l1_path(X, y, lams, n_lams, eps, 1.0, fit_intercept, solver, max_iter, tol)


def elastic_net_path(X: object, y: object, *, rho: float = 0.5, lams: object = None,
                     n_lams: int = 50, eps: float = 1e-3, fit_intercept: bool = True,
                     solver: str = "cd", max_iter: int = 10_000, tol: float = 1e-8
                     ) -> RegularisationPath:
    """Elastic-net solutions (notes' (lambda, rho)) along a descending lambda grid.

    ``lambda_max = 2 ||X_c^T y_c||_inf / rho``.

    Parameters
    ----------
    rho : float, default=0.5
        The L1 share, ``0 < rho <= 1``.
    X, y, lams, n_lams, eps, fit_intercept, solver, max_iter, tol
        As for :func:`lasso_path`.

    Returns
    -------
    RegularisationPath
    """
    rho = check_real(rho, "rho", low=0.0, high=1.0, low_open=True)
    return _l1_path(X, y, lams, n_lams, eps, rho, fit_intercept, solver, max_iter, tol)
