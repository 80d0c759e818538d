"""epsilon-support vector regression solved by SMO on its dual (003 §4.5)."""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike
from sklearn.base import BaseEstimator, RegressorMixin

from algorithms._validation import check_real, validate_regression
from algorithms.kernels._expansion import ScaleFreeR2Mixin
from algorithms.svm._estimator_base import SMOEstimatorMixin
from algorithms.svm._smo import check_dual_arguments, finite_objective

__all__ = ["SVR", "svr_dual_objective"]


def svr_dual_objective(
    alpha: np.ndarray, alpha_hat: np.ndarray, y: np.ndarray, K: np.ndarray, epsilon: float
) -> float:
    """The SVR dual objective, correctly stated (cf. 003 §4.5 (4.39)):
    ``sum_i y_i (ah_i - a_i) - eps (ah_i + a_i) - 1/2 sum_ij (ah_i - a_i)(ah_j - a_j) K_ij``.

    ``alpha``, ``alpha_hat`` and targets ``y`` have ``n`` entries, ``K`` is (n, n), all
    finite and real; ``epsilon >= 0`` (ValueError naming the argument otherwise, or when
    the value overflows).
    """
    (alpha, alpha_hat, y), K = check_dual_arguments(
        {"alpha": alpha, "alpha_hat": alpha_hat, "y": y}, K)
    epsilon = check_real(epsilon, "epsilon", low=0.0)
    with np.errstate(over="ignore", invalid="ignore"):
        d = alpha_hat - alpha
        value = y @ d - epsilon * np.sum(alpha_hat + alpha) - 0.5 * d @ K @ d
    return finite_objective(value, "SVR dual objective", "alpha, alpha_hat, y and K")


class SVR(SMOEstimatorMixin, ScaleFreeR2Mixin, RegressorMixin, BaseEstimator):
    """epsilon-insensitive support vector regression trained by SMO.

    Solves the dual of (4.36),

        max  sum_i y_i (ah_i - a_i) - eps (ah_i + a_i)
             - 1/2 sum_ij (ah_i - a_i)(ah_j - a_j) kappa(x_i, x_j)
        s.t. sum_i (ah_i - a_i) = 0,  0 <= a_i, ah_i <= C,

    as a 2m-variable problem ``beta = (ah, a)`` with signs ``z = (+1, -1)`` and
    the generic SMO solver (pair updates with clipping, second-order pair choice).

    Parameters
    ----------
    C : float, default=1.0
    epsilon : float, default=0.1
        Half-width of the insensitive tube (4.35), ``>= 0``.
    kernel, kernel_params, tol, max_iter, working_set, cache_size, polish, record_history :
        As in :class:`SMOClassifier`; the recorded iterates ``beta_history_`` have
        ``2 n_samples`` columns, ``(ah, a)``.

    Attributes
    ----------
    alpha_, alpha_hat_ : ndarray of shape (n_samples,)
        Multipliers of the constraints ``f - y <= eps + xi`` and ``y - f <= eps + xi_hat``.
    dual_coef_ : ndarray of shape (1, n_SV)
        ``ah_i - a_i`` of the support vectors.
    support_, support_vectors_, intercept_, objective_history_, polish_steps_, n_iter_,
    converged_, kkt_violation_, cache_hits_ : as in :class:`SMOClassifier`.
    coef_ : ndarray of shape (1, n_features), linear kernel only
        ``w = sum_i (ah_i - a_i) x_i`` (4.38).

    Notes
    -----
    The bias is averaged over all free multipliers: ``b = y_i + eps - sum_j
    (ah_j - a_j) kappa(x_j, x_i)`` for ``0 < a_i < C`` (4.42) and the mirror
    formula ``b = y_i - eps - ...`` for ``0 < ah_i < C``.

    References
    ----------
    003 §4.5, equations (4.34)-(4.43).
    """

    def __init__(
        self,
        *,
        C: float = 1.0,
        epsilon: float = 0.1,
        kernel="linear",
        kernel_params: dict | None = None,
        tol: float = 1e-3,
        max_iter: int = 100_000,
        working_set: str = "second_order",
        cache_size: float = 200.0,
        polish: bool = True,
        record_history: bool = False,
    ) -> None:
        self.C = C
        self.epsilon = epsilon
        self.kernel = kernel
        self.kernel_params = kernel_params
        self.tol = tol
        self.max_iter = max_iter
        self.working_set = working_set
        self.cache_size = cache_size
        self.polish = polish
        self.record_history = record_history

    def fit(self, X: ArrayLike, y: ArrayLike) -> SVR:
        """Fit on ``X`` (m, d) and real targets ``y`` (m,)."""
        C, kern = self._check_solver_hyperparameters()
        if np.isinf(C):
            raise ValueError("C must be finite for SVR (an infinite C makes the dual unbounded)")
        eps = check_real(self.epsilon, "epsilon", low=0.0)
        X, y = validate_regression(self, X, y)
        y = np.asarray(y, dtype=np.float64)
        m = X.shape[0]
        z = np.concatenate([np.ones(m), -np.ones(m)])
        p = np.concatenate([eps - y, eps + y])
        res = self._solve_dual(X, kern, C, z, p)  # beta = (ah, a): two copies of the points
        self.alpha_hat_ = res.beta[:m].copy()
        self.alpha_ = res.beta[m:].copy()
        coef = self.alpha_hat_ - self.alpha_
        self._store_support(X, coef, np.flatnonzero(coef != 0))
        self._warn_if_not_converged(res)
        return self

    def predict(self, X: ArrayLike) -> np.ndarray:
        """``f(x) = sum_i (ah_i - a_i) kappa(x, x_i) + b`` (4.43), shape (n_samples,)."""
        return self._kernel_expansion(X)
