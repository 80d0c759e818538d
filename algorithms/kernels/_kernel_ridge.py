"""Kernel ridge regression: the representer theorem's worked example (003 §4.6 (4.44)-(4.45))."""

from __future__ import annotations

import warnings

import numpy as np
import scipy.linalg
from numpy.typing import ArrayLike
from sklearn.base import BaseEstimator, RegressorMixin

from algorithms._validation import check_real, validate_regression
from algorithms.kernels._expansion import KernelExpansionMixin, ScaleFreeR2Mixin

__all__ = ["KernelRidge"]


def _ridge_system_solve(K: np.ndarray, lam: float, y: np.ndarray) -> np.ndarray:
    """``(K + lam I)^{-1} y``: a Cholesky solve, or the least-squares solution with a
    :class:`scipy.linalg.LinAlgWarning` when ``K + lam I`` is numerically singular.

    That happens for valid input when ``lam`` is below the rounding of ``K``'s entries
    (``X`` scaled by ``1e8`` under the linear kernel: ``lam = 1`` is lost next to entries
    near ``1e16``) or for a kernel that is not positive semi-definite (the sigmoid).
    """
    A = K + lam * np.eye(K.shape[0])
    # alpha is linear in y: solve for y / s (s a power of two near max |y|, exact) so that
    # targets near 1e300 do not overflow inside the solver
    top = float(np.max(np.abs(y))) if y.size else 0.0
    s = 2.0 ** np.floor(np.log2(top)) if top > 0 else 1.0
    return s * _solve_spd_or_lstsq(A, y / s, lam)


def _solve_spd_or_lstsq(A: np.ndarray, y: np.ndarray, lam: float) -> np.ndarray:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", scipy.linalg.LinAlgWarning)
            # K + lam I is symmetric positive definite for a PSD kernel: Cholesky solve.
            return scipy.linalg.solve(A, y, assume_a="pos")
    except (np.linalg.LinAlgError, scipy.linalg.LinAlgWarning):
        warnings.warn(
            f"K + lam I (lam={lam:g}) is numerically singular or indefinite at this scale "
            "of the kernel values; using the minimum-norm least-squares solution",
            scipy.linalg.LinAlgWarning,
            stacklevel=3,
        )
        return scipy.linalg.lstsq(A, y, cond=None)[0]


class KernelRidge(KernelExpansionMixin, ScaleFreeR2Mixin, RegressorMixin, BaseEstimator):
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
        with np.errstate(over="ignore"):
            alpha = _ridge_system_solve(kern(X), lam, y)
        if not np.all(np.isfinite(alpha)):
            raise ValueError(
                f"the coefficients (K + lam I)^-1 y overflow float64 (lam={lam:g} against "
                "targets of this size); rescale y or increase lam."
            )
        self._store_expansion(kern, X, alpha)
        return self

    def predict(self, X: ArrayLike) -> np.ndarray:
        """``h*(x) = sum_i alpha_i kappa(x, x_i)`` (4.45), shape (n_samples,)."""
        return self._expansion(X)
