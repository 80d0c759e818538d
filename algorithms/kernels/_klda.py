"""Kernelised linear discriminant analysis (003 §4.6 (4.46)-(4.53))."""

from __future__ import annotations

from numbers import Real

import numpy as np
import scipy.linalg
from sklearn.base import BaseEstimator, ClassifierMixin, TransformerMixin
from sklearn.utils.validation import check_is_fitted

from algorithms.kernels._kernel_ridge import _check_features
from algorithms.kernels._kernels import make_kernel

__all__ = ["KernelLDA", "klda_matrices"]


def klda_matrices(K: np.ndarray, labels01: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(mu_hat, M, N)`` of (4.52) from a kernel matrix and 0/1 labels.

    ``mu_hat[c] = K l_c / m_c`` (``l_c`` the indicator of class ``c``),
    ``M = (mu_hat_0 - mu_hat_1)(mu_hat_0 - mu_hat_1)^T`` and
    ``N = K K^T - sum_c m_c mu_hat_c mu_hat_c^T``.
    """
    K = np.asarray(K, dtype=float)
    mus = []
    N = K @ K.T
    for c in (0, 1):
        ind = (labels01 == c).astype(float)
        m_c = ind.sum()
        mu = K @ ind / m_c
        mus.append(mu)
        N = N - m_c * np.outer(mu, mu)
    mu_hat = np.vstack(mus)
    diff = mu_hat[0] - mu_hat[1]
    return mu_hat, np.outer(diff, diff), N


class KernelLDA(ClassifierMixin, TransformerMixin, BaseEstimator):
    """Two-class kernel Fisher discriminant.

    Maximises ``J(alpha) = alpha^T M alpha / alpha^T N alpha`` (4.53) with the
    matrices (4.52); as for LDA the maximiser is ``alpha ∝ N^{-1}(mu_hat_0 - mu_hat_1)``.
    ``N`` is singular whenever the feature space has fewer dimensions than
    samples, so ``N + reg * I`` is used (``reg > 0``); ``reg = 0`` takes the
    minimum-norm least-squares solution ``alpha = N^+ (mu_hat_0 - mu_hat_1)``.

    Parameters
    ----------
    reg : float, default=1e-6
        Ridge added to ``N`` (scaled by ``trace(N)/m``), ``>= 0``.
    kernel : str or Kernel, default="rbf"
    kernel_params : dict, optional

    Attributes
    ----------
    classes_ : ndarray of shape (2,)
        ``classes_[0]`` is class 0 of the note, ``classes_[1]`` class 1.
    dual_coef_ : ndarray of shape (n_samples,)
        ``alpha`` of (4.50): ``h(x) = sum_i alpha_i kappa(x, x_i)``.
    threshold_ : float
        Midpoint of the two projected class means; ``predict`` assigns class 0
        when ``h(x)`` is on class 0's side.

    References
    ----------
    003 §4.6 (4.46)-(4.53).
    """

    def __init__(self, *, reg: float = 1e-6, kernel="rbf", kernel_params: dict | None = None):
        self.reg = reg
        self.kernel = kernel
        self.kernel_params = kernel_params

    def fit(self, X, y) -> KernelLDA:
        reg = self.reg
        if isinstance(reg, bool) or not isinstance(reg, Real) or not np.isfinite(reg) or reg < 0:
            raise ValueError(f"reg must be a finite number >= 0, got {reg!r}")
        if self.kernel_params is not None and not isinstance(self.kernel_params, dict):
            raise ValueError(f"kernel_params must be a dict or None, got {self.kernel_params!r}")
        kern = make_kernel(self.kernel, self.kernel_params)
        X = _check_features(X)
        y = np.asarray(y)
        if y.ndim != 1 or y.shape[0] != X.shape[0]:
            raise ValueError(f"y must be 1-d with {X.shape[0]} entries, got shape {y.shape}")
        classes = np.unique(y)
        if classes.shape[0] != 2:
            raise ValueError(f"y must contain exactly two classes, got {classes.shape[0]}")
        labels01 = (y == classes[1]).astype(int)
        K = kern(X)
        mu_hat, _, N = klda_matrices(K, labels01)
        diff = mu_hat[0] - mu_hat[1]
        m = X.shape[0]
        if reg > 0:
            ridge = reg * max(np.trace(N) / m, np.finfo(float).tiny)
            alpha = scipy.linalg.solve(N + ridge * np.eye(m), diff, assume_a="sym")
        else:
            alpha = scipy.linalg.lstsq(N, diff, cond=None)[0]
        self.classes_ = classes
        self.dual_coef_ = alpha
        self.kernel_ = kern
        self.X_fit_ = X
        self.n_features_in_ = X.shape[1]
        proj_means = mu_hat @ alpha  # alpha^T mu_hat_c = projected class means
        self.class_projections_ = proj_means
        self.threshold_ = float(proj_means.mean())
        return self

    def transform(self, X) -> np.ndarray:
        """``h(x) = sum_i alpha_i kappa(x, x_i)`` (4.50)."""
        check_is_fitted(self, "dual_coef_")
        X = _check_features(X)
        if X.shape[1] != self.n_features_in_:
            raise ValueError(
                f"X has {X.shape[1]} features, but the model was fitted with {self.n_features_in_}"
            )
        return self.kernel_(X, self.X_fit_) @ self.dual_coef_

    def decision_function(self, X) -> np.ndarray:
        """Positive for class 1: the side of the threshold where class 1's mean projects."""
        h = self.transform(X) - self.threshold_
        sign = 1.0 if self.class_projections_[1] >= self.class_projections_[0] else -1.0
        return sign * h

    def predict(self, X) -> np.ndarray:
        return self.classes_[(self.decision_function(X) > 0).astype(int)]
