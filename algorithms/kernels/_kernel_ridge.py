"""Kernel ridge regression: the representer theorem's worked example (003 §4.6 (4.44)-(4.45))."""

from __future__ import annotations

from numbers import Real

import numpy as np
import scipy.linalg
from sklearn.base import BaseEstimator, RegressorMixin
from sklearn.utils.validation import check_is_fitted

from algorithms.kernels._kernels import make_kernel

__all__ = ["KernelRidge"]


def _check_features(X, name: str = "X") -> np.ndarray:
    try:
        X = np.asarray(X, dtype=float)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"{name} must be a numeric array: {exc}") from None
    if X.ndim != 2 or X.shape[0] == 0 or X.shape[1] == 0:
        raise ValueError(f"{name} must be a non-empty 2-d array, got shape {X.shape}")
    if not np.all(np.isfinite(X)):
        raise ValueError(f"{name} contains NaN or infinite values")
    return X


class KernelRidge(RegressorMixin, BaseEstimator):
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

    def fit(self, X, y) -> KernelRidge:
        lam = self.lam
        if isinstance(lam, bool) or not isinstance(lam, Real) or not np.isfinite(lam) or lam <= 0:
            raise ValueError(f"lam must be a finite number > 0, got {lam!r}")
        if self.kernel_params is not None and not isinstance(self.kernel_params, dict):
            raise ValueError(f"kernel_params must be a dict or None, got {self.kernel_params!r}")
        kern = make_kernel(self.kernel, self.kernel_params)
        X = _check_features(X)
        y = np.asarray(y, dtype=float)
        if y.ndim != 1 or y.shape[0] != X.shape[0]:
            raise ValueError(f"y must be 1-d with {X.shape[0]} entries, got shape {y.shape}")
        if not np.all(np.isfinite(y)):
            raise ValueError("y contains NaN or infinite values")
        K = kern(X)
        # K + lam I is symmetric positive definite for a PSD kernel: Cholesky solve.
        self.dual_coef_ = scipy.linalg.solve(K + lam * np.eye(X.shape[0]), y, assume_a="pos")
        self.kernel_ = kern
        self.X_fit_ = X
        self.n_features_in_ = X.shape[1]
        return self

    def predict(self, X) -> np.ndarray:
        check_is_fitted(self, "dual_coef_")
        X = _check_features(X)
        if X.shape[1] != self.n_features_in_:
            raise ValueError(
                f"X has {X.shape[1]} features, but the model was fitted with {self.n_features_in_}"
            )
        return self.kernel_(X, self.X_fit_) @ self.dual_coef_
