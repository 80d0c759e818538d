"""What the kernel methods share: a kernel built from the hyperparameters and the
representer form ``h(x) = sum_i alpha_i kappa(x, x_i)`` over the training points."""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike
from sklearn.metrics import r2_score

from algorithms._validation import validate_features
from algorithms.kernels._kernels import Kernel, make_kernel

__all__ = ["KernelExpansionMixin", "ScaleFreeR2Mixin"]


class ScaleFreeR2Mixin:
    """``score`` = the coefficient of determination R^2 of ``predict(X)`` against ``y``,
    computed on both divided by one power of two near their largest magnitude (exact), so
    that targets near 1e300 do not overflow the sums of squares (R^2 is scale-free)."""

    def score(self, X: ArrayLike, y: ArrayLike, sample_weight: ArrayLike | None = None) -> float:
        """R^2 of ``self.predict(X)`` against ``y`` (scikit-learn's ``r2_score``)."""
        y_pred = self.predict(X)
        try:
            y_arr = np.asarray(y, dtype=float)
        except (TypeError, ValueError):  # r2_score refuses it with its own message
            return r2_score(y, y_pred, sample_weight=sample_weight)
        values = np.concatenate([np.abs(y_pred).ravel(), np.abs(y_arr).ravel()])
        values = values[np.isfinite(values)]
        top = float(values.max()) if values.size else 0.0
        s = 2.0 ** np.floor(np.log2(top)) if top > 0 else 1.0
        return float(r2_score(y_arr / s, y_pred / s, sample_weight=sample_weight))


class KernelExpansionMixin:
    """Mixed into :class:`KernelRidge` and :class:`KernelLDA`, which store ``kernel`` and
    ``kernel_params`` and set ``kernel_``, ``X_fit_`` and ``dual_coef_`` when fitted."""

    def _make_kernel(self) -> Kernel:
        """The kernel named by ``kernel`` / ``kernel_params`` (ValueError naming them)."""
        return make_kernel(self.kernel, self.kernel_params)

    def _store_expansion(self, kernel: Kernel, X: np.ndarray, alpha: np.ndarray) -> None:
        self.kernel_ = kernel
        self.X_fit_ = X
        self.dual_coef_ = alpha

    def _expansion(self, X: ArrayLike) -> np.ndarray:
        """``h(x) = sum_i alpha_i kappa(x, x_i)`` for every row of ``X`` (checked: fitted,
        finite, as many features as in ``fit``)."""
        X_arr = validate_features(self, X, reset=False)
        return self.kernel_(X_arr, self.X_fit_) @ self.dual_coef_
