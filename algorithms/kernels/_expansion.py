"""What the kernel methods share: a kernel built from the hyperparameters and the
representer form ``h(x) = sum_i alpha_i kappa(x, x_i)`` over the training points."""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

from algorithms._validation import validate_features
from algorithms.kernels._kernels import Kernel, make_kernel

__all__ = ["KernelExpansionMixin"]


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
