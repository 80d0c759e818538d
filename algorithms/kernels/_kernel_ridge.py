"""Kernel ridge regression: the representer theorem's worked example (003 §4.6 (4.44)-(4.45))."""

from __future__ import annotations

import numpy as np
import scipy.linalg
from numpy.typing import ArrayLike
from sklearn.base import BaseEstimator, RegressorMixin

from algorithms._validation import check_real, validate_regression
from algorithms.kernels._expansion import KernelExpansionMixin

__all__ = ["KernelRidge"]


class KernelRidge(KernelExpansionMixin, RegressorMixin, BaseEstimator):
    """Kernel ridge regression ``min_h lam ||h||_H^2 + sum_i (h(x_i) - y_i)^2``.

    This is (4.44) with ``Omega(t) = lam t^2`` (increasing) and the squared loss;
    by the representer theorem (4.45) the minimiser is
    ``h*(x) = sum_i alpha_i kappa(x, x_i)`` with ``alpha = (K + lam I)^{-1} y``.

    Parameters
    ----------
    lam : float, default=1.0
        Regularisation strength, ``> 0``.
    kernel : str or Kernel, default="linear"
    kernel_params : dict, optional

    Attributes
    ----------
    dual_coef_ : ndarray of shape (n_samples,)
        The representer coefficients ``alpha``.
    X_fit_ : ndarray

    References
    ----------
    003 §4.6 (4.44)-(4.45).
    """

    def __init__(self, *, lam: float = 1.0, kernel="linear", kernel_params: dict | None = None):
        self.lam = lam
        self.kernel = kernel
        self.kernel_params = kernel_params

    def fit(self, X: ArrayLike, y: ArrayLike) -> KernelRidge:
        """Solve ``(K + lam I) alpha = y`` on ``X`` (n, d) and real targets ``y`` (n,)."""
        lam = check_real(self.lam, "lam", low=0.0, low_open=True)
        kern = self._make_kernel()
        X, y = validate_regression(self, X, y)
        K = kern(X)
        # K + lam I is symmetric positive definite for a PSD kernel: Cholesky solve.
        alpha = scipy.linalg.solve(K + lam * np.eye(X.shape[0]), y, assume_a="pos")
        self._store_expansion(kern, X, alpha)
        return self

    def predict(self, X: ArrayLike) -> np.ndarray:
        """``h*(x) = sum_i alpha_i kappa(x, x_i)`` (4.45), shape (n_samples,)."""
        return self._expansion(X)
