"""Ridge regression (L2-regularised least squares) in closed form.

References
----------
004 §1.2 (L2 regularisation, "Ridge Regression"); 003 §10.4 (10.6).
"""

from __future__ import annotations

import warnings

import numpy as np
import scipy.linalg

from algorithms._validation import (
    check_array_argument,
    check_bool,
    check_real,
    check_squares_representable,
    validate_regression,
)
from algorithms.linear._ols import (
    LinearPredictor,
    RankDeficientWarning,
    add_bias_column,
    centre,
    intercept_of,
)

__all__ = ["Ridge", "ridge_solve"]


def ridge_solve(A: np.ndarray, y: np.ndarray, lam: float) -> np.ndarray:
    """``argmin_w ||y - A w||^2 + lam ||w||^2`` for ``lam > 0`` (no intercept handling).

    Parameters
    ----------
    A : array-like of shape (n, p)
        The design (finite).
    y : array-like of shape (n,)
    lam : float
        ``lam > 0``: the system is then symmetric positive definite.

    Returns
    -------
    ndarray of shape (p,)

    Notes
    -----
    Solves the SPD system ``(A^T A + lam I) w = A^T y`` by Cholesky when ``A`` has at
    least as many rows as columns, else the equivalent dual system
    ``w = A^T (A A^T + lam I)^{-1} y`` (same solution, smaller matrix). No inverse is
    formed.
    """
    A_arr = check_array_argument(A, "A", ndim=2, real=True)
    y_arr = check_array_argument(y, "y", shape=(A_arr.shape[0],), real=True)
    return _ridge_solve(A_arr, y_arr, check_real(lam, "lam", low=0.0, low_open=True))


def _ridge_solve(A: np.ndarray, y: np.ndarray, lam: float) -> np.ndarray:
    """:func:`ridge_solve` on validated input."""
    check_squares_representable(A, "A")
    n, p = A.shape
    if n >= p:
        gram = A.T @ A
        gram[np.diag_indices_from(gram)] += lam
        return scipy.linalg.cho_solve(scipy.linalg.cho_factor(gram), A.T @ y)
    kernel = A @ A.T
    kernel[np.diag_indices_from(kernel)] += lam
    return A.T @ scipy.linalg.cho_solve(scipy.linalg.cho_factor(kernel), y)


class Ridge(LinearPredictor):
    """Ridge regression ``min ||y - X w - b||^2 + lam ||w||^2`` by its closed form.

    Parameters
    ----------
    lam : float, default=1.0
        The regularisation coefficient lambda >= 0 of 004 §1.2 (sum-of-squares
        scaling, no 1/N; the same scaling as ``sklearn.linear_model.Ridge(alpha=lam)``).
        ``lam = 0`` is ordinary least squares (minimum-norm solution if rank deficient).
    fit_intercept : bool, default=True
    penalize_intercept : bool, default=False
        By default the intercept is *not* penalised (the data are centred, the ridge
        system is solved for ``w`` and ``b = ybar - xbar^T w``), which makes the fit
        equivariant to shifting ``y``. ``True`` reproduces 004 §1.2 literally: the
        augmented ``w_hat = (w; b)`` is penalised as a whole.

    Attributes
    ----------
    coef_ : ndarray of shape (n_features,)
    intercept_ : float
    n_features_in_ : int

    Notes
    -----
    Closed form (implied by 004 §1.2, not written there):
    ``w_hat* = (X^T X + lam I)^{-1} X^T y``, unique for ``lam > 0`` even when
    ``X^T X`` is singular. Solved by Cholesky, never by an explicit inverse.
    """

    def __init__(self, *, lam: float = 1.0, fit_intercept: bool = True,
                 penalize_intercept: bool = False) -> None:
        self.lam = lam
        self.fit_intercept = fit_intercept
        self.penalize_intercept = penalize_intercept

    def fit(self, X: object, y: object) -> Ridge:
        """Solve the ridge problem for ``X`` (n_samples, n_features), ``y``; returns self."""
        lam = check_real(self.lam, "lam", low=0.0)
        fit_intercept = check_bool(self.fit_intercept, "fit_intercept")
        penalize_intercept = check_bool(self.penalize_intercept, "penalize_intercept")
        X_arr, y_arr = validate_regression(self, X, y)
        check_squares_representable(X_arr, "X")
        d = X_arr.shape[1]
        augmented = fit_intercept and penalize_intercept
        if augmented:
            A, target = add_bias_column(X_arr), y_arr
        else:
            A, target, x_mean, y_mean = centre(X_arr, y_arr, fit_intercept)
        if lam > 0:
            w = _ridge_solve(A, target, lam)
        else:
            w, _, rank, _ = scipy.linalg.lstsq(A, target, lapack_driver="gelsd")
            if rank < A.shape[1]:
                warnings.warn(
                    f"lam=0 and the design has rank {rank} < {A.shape[1]}: returning the "
                    "minimum-norm least-squares solution",
                    RankDeficientWarning,
                    stacklevel=2,
                )
        self.coef_ = np.asarray(w[:d], dtype=float).copy()
        self.intercept_ = float(w[d]) if augmented else intercept_of(self.coef_, x_mean, y_mean)
        return self
