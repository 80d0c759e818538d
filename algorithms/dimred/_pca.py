"""Principal component analysis (003 §8.3 (8.7)-(8.11), Fig 10.5)."""

from __future__ import annotations

import numpy as np
import scipy.linalg
from numpy.typing import ArrayLike
from sklearn.base import BaseEstimator, TransformerMixin

from algorithms._threads import one_blas_thread
from algorithms._validation import (
    check_array_argument,
    check_fitted,
    check_int,
    check_real,
    validate_features,
)

__all__ = ["PCA", "deterministic_signs"]


def deterministic_signs(components: ArrayLike) -> np.ndarray:
    """Flip each row so that its entry of largest magnitude is positive.

    Eigenvectors are defined up to sign; this fixes one. Among entries of equal largest
    magnitude the first decides. A zero row is left as it is.

    Parameters
    ----------
    components : array of shape (n_components, n_features)

    Returns
    -------
    ndarray of shape (n_components, n_features)
    """
    C = check_array_argument(components, "components", ndim=2, real=True)
    return _deterministic_signs(C)


def _deterministic_signs(C: np.ndarray) -> np.ndarray:
    if C.size == 0:
        return C.copy()
    pivot = np.argmax(np.abs(C), axis=1)
    signs = np.sign(C[np.arange(C.shape[0]), pivot])
    signs[signs == 0] = 1.0
    return C * signs[:, None]


def _choose_dimension(ratios: np.ndarray, threshold: float) -> int:
    """Smallest ``d'`` with ``sum_{i <= d'} lambda_i / sum_i lambda_i >= threshold``."""
    cumulative = np.cumsum(ratios)
    # rounding of the cumulative sum: a threshold of 1 must be reachable
    reached = np.flatnonzero(cumulative >= threshold - 1e-12)
    return int(reached[0]) + 1 if reached.size else ratios.shape[0]


class PCA(TransformerMixin, BaseEstimator):
    """Principal component analysis by the singular value decomposition.

    Parameters
    ----------
    n_components : int or None, default=None
        ``d'``, in ``[1, min(n_samples, n_features)]``. ``None`` with no
        ``variance_threshold`` keeps ``min(n_samples, n_features)`` components.
    variance_threshold : float or None, default=None
        Choose ``d'`` as the smallest number of components whose eigenvalues carry at
        least this share, in ``(0, 1]``, of the total (the book's reconstruction-threshold
        rule). Exclusive with ``n_components``.

    Attributes
    ----------
    mean_ : ndarray of shape (n_features,)
        The training mean, subtracted from every point given to ``transform`` (Fig 10.5
        line 1).
    components_ : ndarray of shape (n_components_, n_features)
        Rows ``w_j^T``: the orthonormal eigenvectors of ``X X^T`` (X centred, d x m as in
        the notes) for the ``d'`` largest eigenvalues, in descending order, each with its
        largest-magnitude entry positive (:func:`deterministic_signs`).
    scatter_eigenvalues_ : ndarray of shape (min(n_samples, n_features),)
        All eigenvalues ``lambda_1 >= lambda_2 >= ...`` of the scatter matrix ``X X^T``
        (squared singular values of the centred data).
    explained_variance_ : ndarray of shape (n_components_,)
        ``lambda_j / (m - 1)`` (sample variances along the components; 0 when m = 1).
    explained_variance_ratio_ : ndarray of shape (n_components_,)
        ``lambda_j / sum_i lambda_i`` (all zero for data without variance).
    singular_values_ : ndarray of shape (n_components_,)
    n_components_ : int

    Notes
    -----
    With the centred data ``X`` (d x m) of (8.7), ``Z = W^T X`` where the columns of
    ``W`` maximise ``tr(W^T X X^T W)`` subject to ``W^T W = I`` (8.10); the solution
    satisfies ``X X^T W = W Lambda`` (the notes' (8.11) prints a scalar lambda). The SVD
    ``X^T = U S V^T`` of the centred (m x d) table gives ``W = V[:, :d']`` and
    ``lambda_j = s_j^2`` without forming ``X X^T`` (squaring the condition number).
    The data are divided by a power of two near their largest magnitude before the SVD
    (exact), so inputs near 1e±300 neither overflow nor underflow.

    References
    ----------
    003 §8.3 (8.7)-(8.11), Fig 10.5.
    """

    def __init__(self, *, n_components: int | None = None,
                 variance_threshold: float | None = None):
        self.n_components = n_components
        self.variance_threshold = variance_threshold

    def fit(self, X: ArrayLike, y: object = None) -> PCA:
        """Centre ``X`` (n_samples, n_features) and find the principal directions."""
        X = validate_features(self, X, reset=True)
        m, d = X.shape
        top = min(m, d)
        if self.n_components is not None and self.variance_threshold is not None:
            raise ValueError("n_components and variance_threshold are exclusive: give one "
                             "(or neither, to keep every component).")
        if self.n_components is not None:
            n_components = check_int(self.n_components, "n_components", low=1)
            if n_components > top:
                raise ValueError(
                    f"n_components={n_components} must be at most min(n_samples, "
                    f"n_features) = {top} (d' <= d, and at most m directions have variance)."
                )
        threshold = None
        if self.variance_threshold is not None:
            threshold = check_real(self.variance_threshold, "variance_threshold", low=0.0,
                                   low_open=True, high=1.0)
        self.mean_ = X.mean(axis=0)
        Xc = X - self.mean_
        s = float(np.max(np.abs(Xc)))
        scale = float(2.0 ** np.floor(np.log2(s))) if s > 0 else 1.0
        if scale != 1.0:
            Xc /= scale  # Xc is our own copy: scaled in place
        with one_blas_thread():
            _, sv, Vt = scipy.linalg.svd(Xc, full_matrices=False, check_finite=False,
                                         overwrite_a=True, lapack_driver="gesdd")
        total = float(np.sum(sv**2))
        ratios = sv**2 / total if total > 0 else np.zeros_like(sv)
        if self.n_components is not None:
            k = n_components
        elif threshold is not None:
            k = _choose_dimension(ratios, threshold)
        else:
            k = top
        with np.errstate(over="ignore"):
            eigen = (sv * scale) ** 2
        if not np.all(np.isfinite(eigen)):
            raise ValueError("X is too large in magnitude: the eigenvalues of the scatter "
                             "matrix X X^T overflow float64; rescale X.")
        self.components_ = _deterministic_signs(Vt[:k])
        self.singular_values_ = sv[:k] * scale
        self.scatter_eigenvalues_ = eigen
        self.explained_variance_ = eigen[:k] / max(m - 1, 1)
        self.explained_variance_ratio_ = ratios[:k]
        self.n_components_ = k
        return self

    def transform(self, X: ArrayLike) -> np.ndarray:
        """``z = W^T (x - mean_)`` for each row, shape (n_samples, n_components_)."""
        Q = validate_features(self, X, reset=False)
        # W^T x - W^T mean: no centred copy of X (the two agree up to rounding of order
        # eps * |mean| * ||W||; a mean far larger than the spread costs digits either way)
        with one_blas_thread():
            return Q @ self.components_.T - self.mean_ @ self.components_.T

    def inverse_transform(self, Z: ArrayLike) -> np.ndarray:
        """Reconstruction ``x_hat = mean_ + sum_j z_j w_j`` (8.8), shape (n, n_features)."""
        check_fitted(self)
        Z = check_array_argument(Z, "Z", ndim=2, real=True)
        if Z.shape[1] != self.n_components_:
            raise ValueError(f"Z must have {self.n_components_} columns (n_components_), got "
                             f"{Z.shape[1]}.")
        return Z @ self.components_ + self.mean_

    def reconstruction_error(self, X: ArrayLike) -> float:
        """``sum_i ||x_hat_i - x_i||^2`` over the rows of ``X`` (the objective of (8.8))."""
        Q = validate_features(self, X, reset=False)
        R = (Q - self.mean_) - ((Q - self.mean_) @ self.components_.T) @ self.components_
        return float(np.sum(R**2))
