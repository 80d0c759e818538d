"""epsilon-support vector regression solved by SMO on its dual (003 §4.5)."""

from __future__ import annotations

import numpy as np
from sklearn.base import BaseEstimator, RegressorMixin

from algorithms.svm._estimator_base import SMOEstimatorMixin
from algorithms.svm._smo_solver import ColumnCache, pair_step, solve_smo
from algorithms.svm._validation import (
    check_features,
    check_kernel,
    check_positive,
)

__all__ = ["SVR", "svr_dual_objective"]


def svr_dual_objective(
    alpha: np.ndarray, alpha_hat: np.ndarray, y: np.ndarray, K: np.ndarray, epsilon: float
) -> float:
    """The SVR dual objective, correctly stated (cf. 003 §4.5 (4.39)):
    ``sum_i y_i (ah_i - a_i) - eps (ah_i + a_i) - 1/2 sum_ij (ah_i - a_i)(ah_j - a_j) K_ij``."""
    d = np.asarray(alpha_hat) - np.asarray(alpha)
    return float(y @ d - epsilon * np.sum(alpha_hat + alpha) - 0.5 * d @ K @ d)


class SVR(SMOEstimatorMixin, RegressorMixin, BaseEstimator):
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
    kernel, kernel_params, tol, max_iter, working_set, cache_size, polish :
        As in :class:`SMOClassifier`.

    Attributes
    ----------
    alpha_, alpha_hat_ : ndarray of shape (n_samples,)
        Multipliers of the constraints ``f - y <= eps + xi`` and ``y - f <= eps + xi_hat``.
    dual_coef_ : ndarray of shape (1, n_SV)
        ``ah_i - a_i`` of the support vectors.
    support_, support_vectors_, intercept_, objective_history_, polish_steps_, n_iter_,
    converged_, kkt_violation_ : as in :class:`SMOClassifier`.
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

    _pair_step = staticmethod(pair_step)

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

    def fit(self, X, y) -> SVR:
        C = self._check_solver_hyperparameters()
        if np.isinf(C):
            raise ValueError("C must be finite for SVR (an infinite C makes the dual unbounded)")
        eps = check_positive(self.epsilon, "epsilon", allow_zero=True)
        kern = check_kernel(self.kernel, self.kernel_params)
        X = check_features(X)
        try:
            y = np.asarray(y, dtype=float)
        except (TypeError, ValueError) as exc:
            raise ValueError(f"y must be numeric: {exc}") from None
        if y.ndim != 1 or y.shape[0] != X.shape[0]:
            raise ValueError(f"y must be 1-d with {X.shape[0]} entries, got shape {y.shape}")
        if not np.all(np.isfinite(y)):
            raise ValueError("y contains NaN or infinite values")
        m = X.shape[0]

        cache = ColumnCache(lambda idx: kern(X, X[idx]), m, float(self.cache_size))
        diag = kern.diag(X)
        z = np.concatenate([np.ones(m), -np.ones(m)])
        p = np.concatenate([eps - y, eps + y])
        res = solve_smo(
            lambda t: np.tile(cache.column(t % m), 2),
            np.tile(diag, 2),
            z,
            p,
            np.full(2 * m, C),
            tol=float(self.tol),
            max_iter=int(self.max_iter),
            working_set=self.working_set,
            step=self._pair_step,
            polish=bool(self.polish),
        )
        self.kernel_ = kern
        self.alpha_hat_ = res.beta[:m].copy()
        self.alpha_ = res.beta[m:].copy()
        coef = self.alpha_hat_ - self.alpha_
        self.support_ = np.flatnonzero(coef != 0)
        self.support_vectors_ = X[self.support_]
        self.dual_coef_ = coef[self.support_][None, :]
        self.intercept_ = np.array([res.bias])
        self.objective_history_ = -np.asarray(res.objective_history)
        self.polish_steps_ = np.asarray(res.polish_steps, dtype=int)
        self.n_iter_ = res.n_iter
        self.converged_ = res.converged
        self.kkt_violation_ = res.violation
        self.n_features_in_ = X.shape[1]
        self._warn_if_not_converged(res)
        return self

    def predict(self, X) -> np.ndarray:
        """``f(x) = sum_i (ah_i - a_i) kappa(x, x_i) + b`` (4.43)."""
        X = self._check_predict_input(X)
        if self.support_.size == 0:
            return np.full(X.shape[0], self.intercept_[0])
        return self.kernel_(X, self.support_vectors_) @ self.dual_coef_[0] + self.intercept_[0]
