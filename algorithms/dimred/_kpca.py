"""Kernel principal component analysis (003 §8.4 (8.12)-(8.18))."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import scipy.linalg
from numpy.typing import ArrayLike
from sklearn.base import BaseEstimator, TransformerMixin

from algorithms._threads import one_blas_thread
from algorithms._validation import (
    InvalidArgumentError,
    check_array_argument,
    check_bool,
    check_int,
    validate_features,
)
from algorithms.kernels import Kernel, make_kernel

__all__ = ["KernelPCA", "center_kernel_matrix"]

#: Eigenvalues at most this fraction of the largest one count as zero: the rounding of
#: a symmetric eigensolver leaves zero eigenvalues of a PSD matrix at about
#: n * eps * lambda_max, and dividing by their square root would amplify noise.
ZERO_EIGENVALUE = 1e-10


def center_kernel_matrix(K: ArrayLike, K_fit: ArrayLike | None = None) -> np.ndarray:
    """Kernel values of feature vectors centred at the mean of the training images.

    With ``K_fit`` the (m, m) training kernel matrix and ``K`` the (n, m) kernel values of
    n points against the m training points, returns
    ``K~[a, i] = K[a, i] - mean_j K[a, j] - mean_j K_fit[j, i] + mean_jl K_fit[j, l]``,
    i.e. ``(phi(x_a) - phi_bar)^T (phi(x_i) - phi_bar)``. Without ``K_fit``, ``K`` is the
    square training matrix itself: ``K~ = K - 1K - K1 + 1K1`` (``1`` = the m x m matrix of
    entries 1/m).

    Parameters
    ----------
    K : array of shape (n, m), or (m, m) without K_fit
    K_fit : array of shape (m, m), optional

    Returns
    -------
    ndarray of the shape of K
    """
    K = check_array_argument(K, "K", ndim=2, real=True)
    if K_fit is None:
        if K.shape[0] != K.shape[1]:
            raise ValueError(f"K must be square (the training kernel matrix) when K_fit is "
                             f"not given, got shape {K.shape}.")
        return _center(K, K.mean(axis=0), float(K.mean()))
    K_fit = check_array_argument(K_fit, "K_fit", ndim=2, real=True)
    m = K_fit.shape[0]
    if K_fit.shape != (m, m):
        raise ValueError(f"K_fit must be a square matrix, got shape {K_fit.shape}.")
    if K.shape[1] != m:
        raise ValueError(f"K must have one column per training point ({m}), got shape "
                         f"{K.shape}.")
    return _center(K, K_fit.mean(axis=0), float(K_fit.mean()))


def _center(K: np.ndarray, fit_column_means: np.ndarray, fit_mean: float) -> np.ndarray:
    return K - K.mean(axis=1, keepdims=True) - fit_column_means[None, :] + fit_mean


class _CallableKernel:
    """A user's function ``kernel(X, Z) -> (n_X, n_Z)`` with its output checked."""

    def __init__(self, func: Callable[[np.ndarray, np.ndarray], np.ndarray]) -> None:
        self.func = func

    def __call__(self, X: np.ndarray, Z: np.ndarray | None = None) -> np.ndarray:
        Z = X if Z is None else Z
        K = np.asarray(self.func(X, Z))
        if np.iscomplexobj(K) or K.shape != (X.shape[0], Z.shape[0]):
            raise ValueError(f"kernel must return a real ({X.shape[0]}, {Z.shape[0]}) array "
                             f"of kernel values, got shape {K.shape} and dtype {K.dtype}.")
        K = K.astype(float)
        if not np.all(np.isfinite(K)):
            raise ValueError("kernel returned non-finite values for X.")
        return K


class KernelPCA(TransformerMixin, BaseEstimator):
    """Kernel PCA: linear PCA in the feature space of a kernel, through the kernel matrix.

    Parameters
    ----------
    n_components : int or None, default=None
        ``d'`` in ``[1, n_samples]``; ``None`` keeps every component with a non-zero
        eigenvalue.
    kernel : {"linear", "poly", "rbf", ...}, Kernel or callable, default="rbf"
        A name or :class:`algorithms.kernels.Kernel` (see
        :func:`algorithms.kernels.make_kernel`: ``"poly"`` is ``(x^T z + coef0)^degree``,
        ``"rbf"`` is ``exp(-||x - z||^2 / (2 sigma^2))``), or a function
        ``kernel(X, Z)`` returning the (n_X, n_Z) kernel matrix.
    kernel_params : dict or None, default=None
        Parameters of a named kernel (``degree``, ``coef0``, ``sigma``).
    center : bool, default=True
        Centre the images in feature space (the kernel matrix ``K~ = K - 1K - K1 +
        1K1`` and the test kernel likewise). The notes' (8.17) uses ``K`` as it is;
        ``center=False`` reproduces that printed form.

    Attributes
    ----------
    eigenvalues_ : ndarray of shape (n_components_,)
        The ``d'`` largest eigenvalues ``lambda_j`` of the (centred) kernel matrix, the
        non-zero eigenvalues of the feature-space scatter ``sum_i phi(x_i) phi(x_i)^T``.
    eigenvectors_ : ndarray of shape (n_samples, n_components_)
        Unit-norm eigenvectors ``A`` of (8.17) (``K A = A Lambda``); the sign of each is
        fixed by making its largest-magnitude entry positive.
    dual_coef_ : ndarray of shape (n_samples, n_components_)
        ``alpha^j = a^j / sqrt(lambda_j)``, so that the feature-space direction
        ``w_j = sum_i alpha_i^j phi(x_i)`` (8.15) has unit norm
        (``lambda_j alpha^jT alpha^j = 1``); 0 for a numerically zero eigenvalue (that
        coordinate is then identically 0).
    X_fit_ : ndarray of shape (n_samples, n_features)
    kernel_ : callable
    n_components_ : int

    Notes
    -----
    The coordinate of a point ``x`` is ``z_j = sum_i alpha_i^j kappa~(x_i, x)`` (8.18),
    with ``kappa~`` the centred kernel (needs the kernel of ``x`` with all m training
    points). On the training points this is ``sqrt(lambda_j) a^j``.

    References
    ----------
    003 §8.4 (8.12)-(8.18); Schölkopf, Smola & Müller (1998).
    """

    def __init__(self, *, n_components: int | None = None, kernel="rbf",
                 kernel_params: dict | None = None, center: bool = True):
        self.n_components = n_components
        self.kernel = kernel
        self.kernel_params = kernel_params
        self.center = center

    def _make_kernel(self):
        if isinstance(self.kernel, str | Kernel):
            return make_kernel(self.kernel, self.kernel_params)
        if callable(self.kernel):
            if self.kernel_params:
                raise ValueError("kernel_params must be empty when kernel is a function.")
            return _CallableKernel(self.kernel)
        raise InvalidArgumentError(f"kernel must be a kernel name, a Kernel or a function "
                                   f"kernel(X, Z), got {self.kernel!r}.")

    def fit(self, X: ArrayLike, y: object = None) -> KernelPCA:
        """Eigen-decompose the (centred) kernel matrix of ``X`` (n_samples, n_features)."""
        X = validate_features(self, X, reset=True)
        m = X.shape[0]
        if self.n_components is not None:
            d_prime = check_int(self.n_components, "n_components", low=1)
            if d_prime > m:
                raise ValueError(f"n_components={d_prime} must be at most n_samples = {m} "
                                 "(the kernel matrix has m eigenvalues).")
        center = check_bool(self.center, "center")
        kern = self._make_kernel()
        K = kern(X)
        self.center_ = center
        if center:
            self.fit_column_means_ = K.mean(axis=0)
            self.fit_mean_ = float(K.mean())
            K = _center(K, self.fit_column_means_, self.fit_mean_)
        K = 0.5 * (K + K.T)  # symmetric up to rounding
        # power of two scale: exact, keeps the eigensolver away from overflow/underflow
        top = float(np.max(np.abs(K)))
        scale = float(2.0 ** np.floor(np.log2(top))) if top > 0 else 1.0
        k = m if self.n_components is None else d_prime
        with one_blas_thread():
            lam, A = scipy.linalg.eigh(K / scale, subset_by_index=(m - k, m - 1),
                                       check_finite=False)
        lam, A = lam[::-1], A[:, ::-1]
        zero = lam <= ZERO_EIGENVALUE * max(float(lam[0]), 0.0)
        if self.n_components is None:  # keep the components with variance
            keep = ~zero
            if not np.any(keep):
                keep[0] = True
            lam, A, zero = lam[keep], A[:, keep], zero[keep]
        A = _signs_by_column(A)
        lam = np.where(zero, 0.0, lam)
        safe = np.where(zero, 1.0, lam)
        alpha = np.where(zero[None, :], 0.0, A / np.sqrt(safe)[None, :])
        self.eigenvalues_ = lam * scale
        self.eigenvectors_ = A
        self.dual_coef_ = alpha / np.sqrt(scale)
        self.X_fit_ = X
        self.kernel_ = kern
        self.n_components_ = lam.shape[0]
        return self

    def transform(self, X: ArrayLike) -> np.ndarray:
        """Coordinates ``z_j = sum_i alpha_i^j kappa~(x_i, x)`` (8.18), shape
        (n_samples, n_components_)."""
        Q = validate_features(self, X, reset=False)
        Kq = self.kernel_(Q, self.X_fit_)
        if self.center_:
            Kq = _center(Kq, self.fit_column_means_, self.fit_mean_)
        return Kq @ self.dual_coef_


def _signs_by_column(A: np.ndarray) -> np.ndarray:
    """Each column with its largest-magnitude entry positive (first such entry decides)."""
    pivot = np.argmax(np.abs(A), axis=0)
    signs = np.sign(A[pivot, np.arange(A.shape[1])])
    signs[signs == 0] = 1.0
    return A * signs[None, :]
