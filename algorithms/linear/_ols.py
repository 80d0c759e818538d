"""Ordinary least squares: the univariate closed form and the multivariate solution.

References
----------
003 §1.2 (1.4)-(1.6): univariate least squares and its closed form.
003 §1.3 (1.7)-(1.10), 004 §1.2-§1.3: multivariate linear regression with the bias
absorbed as a last column of ones, normal equations X^T X w = X^T y.
"""

from __future__ import annotations

import warnings

import numpy as np
import scipy.linalg
from sklearn.base import BaseEstimator, RegressorMixin

from algorithms._validation import (
    check_array_argument,
    check_bool,
    check_choice,
    check_real,
    validate_features,
    validate_regression,
)

__all__ = ["LinearRegression", "RankDeficientWarning", "SimpleLinearRegression", "add_bias_column"]


class RankDeficientWarning(UserWarning):
    """The design matrix does not have full column rank: the least-squares minimiser
    is not unique and the minimum-norm one is returned."""


def add_bias_column(X: np.ndarray) -> np.ndarray:
    """``[X, 1]``: the notes' augmented design with the bias as the last column (003 (1.7)).

    ``X`` is a finite real (N, d) array with N >= 1.
    """
    X = check_array_argument(X, "X", ndim=2, real=True)
    return np.hstack([X, np.ones((X.shape[0], 1))])


def centre(
    X: np.ndarray, y: np.ndarray, fit_intercept: bool
) -> tuple[np.ndarray, np.ndarray, np.ndarray, float]:
    """``(X - xbar, y - ybar, xbar, ybar)``: the data of an unpenalised intercept.

    Minimising over the intercept first leaves the centred problem in ``w`` alone, and
    ``b = ybar - xbar^T w`` afterwards (see :func:`intercept_of`). Without an intercept
    the data are returned as they are, with zero means.
    """
    if not fit_intercept:
        return X, y, np.zeros(X.shape[1]), 0.0
    x_mean, y_mean = X.mean(axis=0), float(y.mean())
    return X - x_mean, y - y_mean, x_mean, y_mean


def intercept_of(coef: np.ndarray, x_mean: np.ndarray, y_mean: float) -> float:
    """``ybar - xbar^T w``: the intercept of centred data (0 when both means are 0)."""
    return float(y_mean - x_mean @ coef)


def _numerical_rank(s: np.ndarray, rcond: float) -> int:
    """Number of singular values above ``rcond * s_max`` (0 for a zero matrix)."""
    return int(np.sum(s > rcond * s[0])) if s.size and s[0] > 0 else 0


def scale_free_r2(estimator: object, X: object, y: object, sample_weight: object = None
                  ) -> float:
    """``R^2`` of ``estimator.predict(X)`` against ``y``, computed on ``y`` and the
    predictions divided by a power of two near their largest magnitude (exact), so that
    the sums of squares neither overflow (``y`` ~ 1e300) nor underflow (~1e-300)."""
    from sklearn.metrics import r2_score

    pred = np.asarray(estimator.predict(X), dtype=float)
    y_arr = check_array_argument(y, "y", shape=(pred.shape[0],), real=True)
    top = max(float(np.max(np.abs(y_arr))), float(np.max(np.abs(pred))))
    scale = 2.0 ** round(np.log2(top)) if 0.0 < top < np.inf else 1.0
    return float(r2_score(y_arr / scale, pred / scale, sample_weight=sample_weight))


class LinearPredictor(RegressorMixin, BaseEstimator):
    """Base of the estimators whose prediction is ``X @ coef_ + intercept_``."""

    def score(self, X: object, y: object, sample_weight: object = None) -> float:
        """The coefficient of determination ``R^2`` of the predictions (scale-free)."""
        return scale_free_r2(self, X, y, sample_weight)

    def predict(self, X: object) -> np.ndarray:
        """``X @ coef_ + intercept_`` (003 (1.10)).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)

        Returns
        -------
        ndarray of shape (n_samples,)
        """
        X_arr = validate_features(self, X, reset=False)
        return X_arr @ self.coef_ + self.intercept_


class SimpleLinearRegression(RegressorMixin, BaseEstimator):
    """Univariate least squares ``f(x) = w x + b`` by the closed form of 003 (1.6).

    The model of 003 §1.2 has one input variable: ``X`` must have exactly one column
    (shape ``(m, 1)``); :class:`LinearRegression` fits several.

    Attributes
    ----------
    coef_ : float
        The slope ``w``.
    intercept_ : float
        The intercept ``b``.
    n_features_in_ : int
        Always 1.

    Notes
    -----
    003 §1.2 (1.6)::

        w = sum_i y_i (x_i - xbar) / (sum_i x_i^2 - (sum_i x_i)^2 / m)
        b = (1/m) sum_i (y_i - w x_i)

    The denominator is computed as ``sum_i (x_i - xbar)^2``, which is algebraically
    equal and free of the cancellation the raw form suffers when ``|xbar|`` is large.
    A constant ``x`` (zero denominator) has no unique slope and raises.
    """

    def score(self, X: object, y: object, sample_weight: object = None) -> float:
        """The coefficient of determination ``R^2`` of the predictions (scale-free)."""
        return scale_free_r2(self, X, y, sample_weight)

    def __init__(self) -> None:
        pass

    def fit(self, X: object, y: object) -> SimpleLinearRegression:
        """Fit the least-squares line through ``(x_i, y_i)``.

        Parameters
        ----------
        X : array-like of shape (m, 1)
            The single input variable, ``m >= 2`` samples, not all equal.
        y : array-like of shape (m,)

        Returns
        -------
        self
        """
        X_arr, y_arr = validate_regression(self, X, y)
        m, d = X_arr.shape
        if m < 2:
            raise ValueError(
                f"X has {m} sample: {type(self).__name__} needs at least two samples to "
                "determine a slope and an intercept (003 (1.6))."
            )
        if d != 1:
            raise ValueError(
                f"X must have exactly one feature: {type(self).__name__} is the univariate "
                f"model f(x) = w x + b of 003 §1.2, got {d} features; use LinearRegression "
                "for several."
            )
        x = X_arr[:, 0]
        xbar = x.mean()
        denominator = float(np.sum((x - xbar) ** 2))
        if denominator <= np.finfo(float).tiny or np.ptp(x) == 0:
            raise ValueError("X has zero variance: the slope of (1.6) is undefined (0/0).")
        self.coef_ = float(np.sum(y_arr * (x - xbar)) / denominator)
        self.intercept_ = float(np.mean(y_arr - self.coef_ * x))
        return self

    def predict(self, X: object) -> np.ndarray:
        """``w x + b`` for each row of ``X`` (shape (n_samples, 1))."""
        X_arr = validate_features(self, X, reset=False)
        return self.coef_ * X_arr[:, 0] + self.intercept_


class LinearRegression(LinearPredictor):
    """Multivariate least squares ``min_w ||y - X_hat w_hat||^2`` (003 (1.8)-(1.9)).

    Parameters
    ----------
    fit_intercept : bool, default=True
        Append a column of ones so that ``w_hat = (w; b)`` (003 (1.7)).
    solver : {"lstsq", "qr", "cholesky"}, default="lstsq"
        ``"lstsq"``: SVD-based LAPACK least squares (gelsd). ``"qr"``: column-pivoted
        QR and a triangular solve. ``"cholesky"``: the normal equations
        ``X^T X w = X^T y`` of 004 §1.2 solved by a Cholesky factorisation (never an
        explicit inverse); squares the condition number, so least accurate, and
        treats singular values below ``p * sqrt(eps) * s_max`` as zero.
        Whatever the solver, a rank-deficient design falls back to the minimum-norm
        least-squares solution from the SVD.
    rcond : float or None, default=None
        Singular values below ``rcond * s_max`` count as zero when determining the
        rank. ``None`` means ``max(N, p) * eps`` (numpy's convention).

    Attributes
    ----------
    coef_ : ndarray of shape (n_features,)
    intercept_ : float
        0.0 when ``fit_intercept=False``.
    rank_ : int
        Numerical rank of the (augmented) design matrix.
    full_rank_ : bool
        ``rank_ == p`` (p = number of columns of the augmented design): only then is
        ``X^T X`` invertible and (1.9) applies; otherwise infinitely many minimisers
        exist (004 §1.2) and the minimum-norm one is returned with a
        :class:`RankDeficientWarning`.
    singular_values_ : ndarray
        Singular values of the augmented design (all solvers).

    Notes
    -----
    003 (1.9): ``w_hat* = (X^T X)^{-1} X^T y`` when ``X^T X`` has full rank;
    003 (1.10): ``f(x_hat) = x_hat^T w_hat*``.
    """

    def __init__(self, *, fit_intercept: bool = True, solver: str = "lstsq",
                 rcond: float | None = None) -> None:
        self.fit_intercept = fit_intercept
        self.solver = solver
        self.rcond = rcond

    def fit(self, X: object, y: object) -> LinearRegression:
        """Least squares of ``y`` (n_samples,) on ``[X, 1]`` (or ``X``); returns self."""
        fit_intercept = check_bool(self.fit_intercept, "fit_intercept")
        solver = check_choice(self.solver, "solver", ("lstsq", "qr", "cholesky"))
        if self.rcond is not None:
            check_real(self.rcond, "rcond", low=0.0, high=1.0)
        X_arr, y_arr = validate_regression(self, X, y)
        A = add_bias_column(X_arr) if fit_intercept else X_arr
        n, p = A.shape
        rcond = float(self.rcond) if self.rcond is not None else max(n, p) * np.finfo(float).eps

        w = None
        if solver == "qr":
            Q, R, perm = scipy.linalg.qr(A, mode="economic", pivoting=True)
            s = scipy.linalg.svdvals(R)  # R is p x p: same singular values as A, cheaply
            rank = _numerical_rank(s, rcond)
            if rank == p:
                z = scipy.linalg.solve_triangular(R, Q.T @ y_arr)
                w = np.empty(p)
                w[perm] = z
        elif solver == "cholesky":
            gram = A.T @ A
            eig = np.clip(scipy.linalg.eigvalsh(gram), 0.0, None)[::-1]
            s = np.sqrt(eig)
            # The Gram matrix resolves singular values of A only down to about
            # sqrt(eps) * s_max, so the rank test cannot be finer than that here.
            rank = _numerical_rank(s, max(rcond, p * np.sqrt(np.finfo(float).eps)))
            if rank == p:
                try:
                    w = scipy.linalg.cho_solve(scipy.linalg.cho_factor(gram), A.T @ y_arr)
                except np.linalg.LinAlgError:  # numerically singular: fall back to lstsq
                    w = None
        if w is None:
            w, _, _, s = scipy.linalg.lstsq(A, y_arr, cond=rcond, lapack_driver="gelsd")
            rank = _numerical_rank(s, rcond)
        full_rank = rank == p
        if not full_rank:
            warnings.warn(
                f"the design matrix has rank {rank} < {p} columns: X^T X is singular, the "
                "least-squares minimiser is not unique; returning the minimum-norm solution",
                RankDeficientWarning,
                stacklevel=2,
            )
        self.coef_ = w[: X_arr.shape[1]].copy()
        self.intercept_ = float(w[-1]) if fit_intercept else 0.0
        self.rank_ = rank
        self.full_rank_ = bool(full_rank)
        self.singular_values_ = s
        return self
