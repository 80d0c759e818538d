"""Kernelised linear discriminant analysis (003 §4.6 (4.46)-(4.53))."""

from __future__ import annotations

import numpy as np
import scipy.linalg
from numpy.typing import ArrayLike
from sklearn.base import BaseEstimator, ClassifierMixin, TransformerMixin

from algorithms._validation import (
    check_array_argument,
    check_real,
    validate_classification,
)
from algorithms.kernels._expansion import KernelExpansionMixin

__all__ = ["KernelLDA", "klda_matrices"]

#: Why a third class is refused.
TWO_CLASSES = "kernel LDA here is the two-class Fisher discriminant of 003 §4.6 (4.53)"


def klda_matrices(K: np.ndarray, labels01: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(mu_hat, M, N)`` of (4.52) from a kernel matrix and 0/1 labels.

    ``mu_hat[c] = K l_c / m_c`` (``l_c`` the indicator of class ``c``),
    ``M = (mu_hat_0 - mu_hat_1)(mu_hat_0 - mu_hat_1)^T`` and
    ``N = K K^T - sum_c m_c mu_hat_c mu_hat_c^T``.

    ``K`` is a finite real (m, m) array and ``labels01`` holds m labels in {0, 1}, both
    present (a ValueError names the argument otherwise).
    """
    K = check_array_argument(K, "K", ndim=2, real=True)
    if K.shape[0] != K.shape[1]:
        raise ValueError(f"K must be a square kernel matrix, got shape {K.shape}.")
    labels = check_array_argument(labels01, "labels01", shape=(K.shape[0],), real=True)
    if not np.all((labels == 0) | (labels == 1)) or np.unique(labels).size != 2:
        raise ValueError("labels01 must hold the labels 0 and 1 (both present), one per row "
                         "of K.")
    with np.errstate(over="ignore", invalid="ignore"):
        out = _klda_matrices(K, labels)
    if not all(np.all(np.isfinite(a)) for a in out):
        raise ValueError("K is too large in magnitude: N = K K^T of (4.52) overflows "
                         "float64; rescale K.")
    return out


def _klda_matrices(K: np.ndarray, labels01: np.ndarray
                   ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """:func:`klda_matrices` on checked input."""
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


class KernelLDA(KernelExpansionMixin, ClassifierMixin, TransformerMixin, BaseEstimator):
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

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.classifier_tags.multi_class = False  # the two-class discriminant of (4.53)
        return tags

    def fit(self, X: ArrayLike, y: ArrayLike) -> KernelLDA:
        """Fit the discriminant on ``X`` (m, d) and labels ``y`` (m,) of two classes."""
        reg = check_real(self.reg, "reg", low=0.0)
        kern = self._make_kernel()
        X, labels01 = validate_classification(self, X, y, max_classes=2, what=TWO_CLASSES)
        K = kern(X)
        # N = K K^T squares the kernel values: work with K / s for a power of two s near
        # max |K| (exact), so that N neither overflows (|K| ~ 1e300) nor underflows
        # (|K| ~ 1e-300). alpha = N^{-1} diff scales as 1 / s, undone exactly below.
        top = float(np.max(np.abs(K)))
        if top == 0.0:
            raise ValueError(
                "KernelLDA: every kernel value of X is 0 (at this scale of X the kernel "
                "underflows, or the points are all zero for a homogeneous kernel); rescale X."
            )
        s = 2.0 ** np.floor(np.log2(top))
        mu_hat, _, N = _klda_matrices(K / s, labels01)
        diff = mu_hat[0] - mu_hat[1]
        m = X.shape[0]
        if reg > 0:
            ridge = reg * max(np.trace(N) / m, np.finfo(float).tiny)
            alpha = scipy.linalg.solve(N + ridge * np.eye(m), diff, assume_a="sym")
        else:
            alpha = scipy.linalg.lstsq(N, diff, cond=None)[0]
        mu_hat, alpha = mu_hat * s, alpha / s
        if not np.all(np.isfinite(alpha)):
            # e.g. every point the same: N = 0 and equal class means, J is 0/0
            raise ValueError(
                "KernelLDA found no finite discriminant direction: the within-class "
                "scatter N of (4.52) vanishes in the kernel's feature space (the points of X "
                "are all alike to the kernel, e.g. a Gaussian kernel at a scale of X far "
                "below sigma); rescale X or change the kernel."
            )
        self._store_expansion(kern, X, alpha)
        proj_means = mu_hat @ alpha  # alpha^T mu_hat_c = projected class means
        self.class_projections_ = proj_means
        self.threshold_ = float(proj_means.mean())
        return self

    def transform(self, X: ArrayLike) -> np.ndarray:
        """``h(x) = sum_i alpha_i kappa(x, x_i)`` (4.50)."""
        return self._expansion(X)

    def decision_function(self, X: ArrayLike) -> np.ndarray:
        """Positive for class 1: the side of the threshold where class 1's mean projects."""
        h = self.transform(X) - self.threshold_
        sign = 1.0 if self.class_projections_[1] >= self.class_projections_[0] else -1.0
        return sign * h

    def predict(self, X: ArrayLike) -> np.ndarray:
        """``classes_[1]`` where :meth:`decision_function` is positive, else ``classes_[0]``."""
        positive = self.decision_function(X) > 0  # checks fitted before classes_ is read
        return self.classes_[positive.astype(int)]
