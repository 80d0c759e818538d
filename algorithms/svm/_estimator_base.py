"""What the SMO-based estimators share: solver-hyperparameter validation, the linear-kernel
weight vector, prediction-input validation and the non-convergence warning."""

from __future__ import annotations

import warnings

import numpy as np
from sklearn.exceptions import ConvergenceWarning
from sklearn.utils.validation import check_is_fitted

from algorithms.kernels import LinearKernel
from algorithms.svm._validation import (
    check_box_bound,
    check_cache_size,
    check_features,
    check_flag,
    check_max_iter,
    check_positive,
)

WORKING_SETS = ("second_order", "max_violating")


class SMOEstimatorMixin:
    """Mixed into SMOClassifier and SVR (which set ``alpha_``, ``kernel_``,
    ``dual_coef_``, ``support_vectors_`` and ``n_features_in_`` when fitted)."""

    def _check_solver_hyperparameters(self) -> float:
        """Validate what the SMO solver takes (C, tol, max_iter, cache_size, polish,
        working_set); returns C."""
        C = check_box_bound(self.C)
        check_positive(self.tol, "tol")
        check_max_iter(self.max_iter)
        check_cache_size(self.cache_size)
        check_flag(self.polish, "polish")
        if self.working_set not in WORKING_SETS:
            raise ValueError(
                f"working_set must be one of {WORKING_SETS}, got {self.working_set!r}"
            )
        return C

    @property
    def coef_(self) -> np.ndarray:
        """``w = sum_i dual_coef_i x_i``; only for the linear kernel."""
        check_is_fitted(self, "alpha_")
        if not isinstance(self.kernel_, LinearKernel):
            raise AttributeError("coef_ is only available with the linear kernel")
        return self.dual_coef_ @ self.support_vectors_

    def _check_predict_input(self, X) -> np.ndarray:
        check_is_fitted(self, "alpha_")
        X = check_features(X)
        if X.shape[1] != self.n_features_in_:
            raise ValueError(
                f"X has {X.shape[1]} features, but the model was fitted with {self.n_features_in_}"
            )
        return X

    def _warn_if_not_converged(self, res, hint: str = "") -> None:
        if not res.converged:
            warnings.warn(
                f"SMO stopped after max_iter={self.max_iter} updates with KKT violation "
                f"{res.violation:.3g} > tol={self.tol}{hint}",
                ConvergenceWarning,
                stacklevel=3,
            )
