"""Ridge regression (L2-regularised least squares) in closed form.

References
----------
004 §1.2 (L2 regularisation, "Ridge Regression"); 003 §10.4 (10.6).
"""

from __future__ import annotations

import warnings

import numpy as np
import scipy.linalg
from sklearn.base import BaseEstimator, RegressorMixin
from sklearn.utils.validation import check_is_fitted

from algorithms.linear._inputs import as_design, as_target, check_bool, check_real
from algorithms.linear._ols import RankDeficientWarning, add_bias_column

__all__ = ["Ridge", "ridge_solve"]


def ridge_solve(A: np.ndarray, y: np.ndarray, lam: float) -> np.ndarray:
    """``argmin_w ||y - A w||^2 + lam ||w||^2`` for ``lam > 0`` (no intercept handling).

    Solves the SPD system ``(A^T A + lam I) w = A^T y`` by Cholesky when ``A`` has at
    least as many rows as columns, else the equivalent dual system
    ``w = A^T (A A^T + lam I)^{-1} y`` (same solution, smaller matrix). No inverse is
    formed.
    """
    n, p = A.shape
    if n >= p:
        gram = A.T @ A
        gram[np.diag_indices_from(gram)] += lam
        return scipy.linalg.cho_solve(scipy.linalg.cho_factor(gram), A.T @ y)
    kernel = A @ A.T
    kernel[np.diag_indices_from(kernel)] += lam
    return A.T @ scipy.linalg.cho_solve(scipy.linalg.cho_factor(kernel), y)


class Ridge(RegressorMixin, BaseEstimator):
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
        lam = check_real(self.lam, "lam", low=0.0)
        fit_intercept = check_bool(self.fit_intercept, "fit_intercept")
        penalize_intercept = check_bool(self.penalize_intercept, "penalize_intercept")
        X_arr = as_design(X)
        y_arr = as_target(y, X_arr.shape[0])
        d = X_arr.shape[1]
        if fit_intercept and penalize_intercept:
            A, target, centred = add_bias_column(X_arr), y_arr, False
        elif fit_intercept:
            x_mean, y_mean = X_arr.mean(axis=0), y_arr.mean()
            A, target, centred = X_arr - x_mean, y_arr - y_mean, True
        else:
            A, target, centred = X_arr, y_arr, False
        if lam > 0:
            w = ridge_solve(A, target, lam)
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
        if centred:
            self.intercept_ = float(y_mean - x_mean @ self.coef_)
        elif fit_intercept:
            self.intercept_ = float(w[d])
        else:
            self.intercept_ = 0.0
        self.n_features_in_ = d
        return self

    def predict(self, X: object) -> np.ndarray:
        check_is_fitted(self, "coef_")
        X_arr = as_design(X, n_features=self.n_features_in_)
        return X_arr @ self.coef_ + self.intercept_
