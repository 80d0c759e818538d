"""Binary logistic (log-odds) regression by maximum likelihood: Newton/IRLS or gradient descent.

References
----------
003 §1.5 (1.14)-(1.21); 004 §3.1-§3.2. With ``beta = (w; b)`` and ``x_hat = (x; 1)``,
the negative log-likelihood is
``l(beta) = sum_i [-y_i beta^T x_hat_i + ln(1 + exp(beta^T x_hat_i))]``, its gradient
``-sum_i x_hat_i (y_i - p_1(x_hat_i))`` and Hessian ``sum_i x_hat_i x_hat_i^T p_1 (1 - p_1)``.
"""

from __future__ import annotations

import warnings

import numpy as np
import scipy.linalg
from scipy.special import expit
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.exceptions import ConvergenceWarning
from sklearn.utils.validation import check_is_fitted

from algorithms.linear._exponential_family import BernoulliFamily
from algorithms.linear._glm import warn_newton_outcome
from algorithms.linear._inputs import (
    as_design,
    check_bool,
    check_choice,
    check_positive_int,
    check_real,
    encode_labels,
)
from algorithms.linear._newton import (
    NewtonResult,
    all_strictly_separated,
    confirm_separation,
    fit_glm_newton,
)
from algorithms.linear._ols import add_bias_column

__all__ = ["LogisticRegression", "logistic_nll", "logistic_nll_gradient", "logistic_nll_hessian"]


def logistic_nll(beta: np.ndarray, Xh: np.ndarray, y: np.ndarray) -> float:
    """003 (1.20): ``sum_i [-y_i z_i + ln(1 + e^{z_i})]``, ``z = Xh beta``, via logaddexp."""
    z = Xh @ beta
    return float(np.sum(np.logaddexp(0.0, z) - y * z))


def logistic_nll_gradient(beta: np.ndarray, Xh: np.ndarray, y: np.ndarray) -> np.ndarray:
    """``-sum_i x_hat_i (y_i - sigma(z_i))``."""
    return -(Xh.T @ (y - expit(Xh @ beta)))


def logistic_nll_hessian(beta: np.ndarray, Xh: np.ndarray) -> np.ndarray:
    """``sum_i x_hat_i x_hat_i^T sigma(z_i)(1 - sigma(z_i))``."""
    p = expit(Xh @ beta)
    return Xh.T @ (Xh * (p * (1.0 - p))[:, None])


class LogisticRegression(ClassifierMixin, BaseEstimator):
    """Binary logistic regression fitted by maximum likelihood (003 (1.21)).

    Parameters
    ----------
    solver : {"newton", "gd"}, default="newton"
        Damped Newton (= IRLS, with Armijo backtracking) or gradient descent with the
        fixed step ``learning_rate``.
    lam : float, default=0.0
        L2 penalty ``lam/2 ||w||^2`` on the weights (not the bias); 0 is the plain MLE
        of the notes. ``lam = 1/C`` for scikit-learn's ``C``.
    fit_intercept : bool, default=True
    max_iter : int, default=1000
    tol : float, default=1e-10
        Newton stops when half the squared Newton decrement is at most ``tol * N``;
        gradient descent when ``||grad||^2 / (2 L) <= tol * N`` (the decrease a 1/L
        step guarantees).
    learning_rate : float or None, default=None
        Gradient-descent step; ``None`` uses ``1/L`` with ``L = s_max(X_hat)^2/4 + lam``,
        the Lipschitz constant of the gradient, which guarantees monotone progress.
    coef_cap : float, default=1e8

    Attributes
    ----------
    classes_ : ndarray of shape (2,); ``classes_[1]`` is the positive class ``y = 1``.
    coef_ : ndarray of shape (n_features,); intercept_ : float
    log_likelihood_history_ : ndarray
        ``L(w) = sum_i [y_i z_i - ln(1 + e^{z_i})]`` (004 §3.2) at the start and after
        every iteration.
    objective_history_ : ndarray
        The minimised objective: ``-L + lam/2 ||w||^2``.
    n_iter_, converged_
    separable_ : bool
        With ``lam = 0``: the iterate separated the classes strictly, so no maximum-
        likelihood estimate exists; fitting stopped with a ConvergenceWarning.
    """

    def __init__(self, *, solver: str = "newton", lam: float = 0.0, fit_intercept: bool = True,
                 max_iter: int = 1000, tol: float = 1e-10, learning_rate: float | None = None,
                 coef_cap: float = 1e8) -> None:
        self.solver = solver
        self.lam = lam
        self.fit_intercept = fit_intercept
        self.max_iter = max_iter
        self.tol = tol
        self.learning_rate = learning_rate
        self.coef_cap = coef_cap

    def fit(self, X: object, y: object) -> LogisticRegression:
        solver = check_choice(self.solver, "solver", ("newton", "gd"))
        lam = check_real(self.lam, "lam", low=0.0)
        fit_intercept = check_bool(self.fit_intercept, "fit_intercept")
        max_iter = check_positive_int(self.max_iter, "max_iter")
        tol = check_real(self.tol, "tol", low=0.0, low_open=True)
        coef_cap = check_real(self.coef_cap, "coef_cap", low=0.0, low_open=True)
        if self.learning_rate is not None:
            check_real(self.learning_rate, "learning_rate", low=0.0, low_open=True)
        X_arr = as_design(X)
        classes, codes = encode_labels(y, X_arr.shape[0], max_classes=2)
        y01 = codes.astype(float)
        Xh = add_bias_column(X_arr) if fit_intercept else X_arr
        mask = np.ones(Xh.shape[1])
        if fit_intercept:
            mask[-1] = 0.0
        if solver == "newton":
            res = fit_glm_newton(
                Xh, y01[:, None], BernoulliFamily(), lam=lam, penalty_mask=mask,
                max_iter=max_iter, tol=tol, coef_cap=coef_cap, stop_on_separation=(lam == 0),
            )
            beta = res.coef[:, 0]
            confirm_separation(res, Xh, codes, 2, lam)
            warn_newton_outcome(type(self).__name__, res, max_iter)
        else:
            res, beta = self._gradient_descent(Xh, y01, lam, mask, max_iter, tol, coef_cap)
        d = X_arr.shape[1]
        self.classes_ = classes
        self.coef_ = beta[:d].copy()
        self.intercept_ = float(beta[d]) if fit_intercept else 0.0
        self.log_likelihood_history_ = np.asarray(res.log_likelihood_history)
        self.objective_history_ = np.asarray(res.objective_history)
        self.n_iter_ = res.n_iter
        self.converged_ = bool(res.converged)
        self.separable_ = bool(res.separated)
        self.n_features_in_ = d
        return self

    def _gradient_descent(self, Xh, y, lam, mask, max_iter, tol, coef_cap):
        n, p = Xh.shape
        if self.learning_rate is None:
            L = scipy.linalg.norm(Xh, 2) ** 2 / 4.0 + lam
            step, L = 1.0 / L, L
        else:
            step = float(self.learning_rate)
            L = 1.0 / step
        beta = np.zeros(p)
        res = NewtonResult(coef=beta)

        def objective(b: np.ndarray) -> tuple[float, float]:
            ll = -logistic_nll(b, Xh, y)
            return ll, -ll + 0.5 * lam * float(np.sum((mask * b) ** 2))

        ll, obj = objective(beta)
        res.log_likelihood_history.append(ll)
        res.objective_history.append(obj)
        for it in range(1, max_iter + 1):
            grad = logistic_nll_gradient(beta, Xh, y) + lam * mask * beta
            if float(grad @ grad) / (2.0 * L) <= tol * n:
                res.converged = True
                break
            beta = beta - step * grad
            ll, obj = objective(beta)
            res.log_likelihood_history.append(ll)
            res.objective_history.append(obj)
            res.n_iter = it
            if lam == 0 and all_strictly_separated((Xh @ beta)[:, None], y[:, None]):
                res.separated = True
                break
            if not np.isfinite(obj) or np.max(np.abs(beta)) > coef_cap:
                res.capped = True
                break
        confirm_separation(res, Xh, y, 2, lam)
        if res.separated or res.capped:
            warn_newton_outcome(type(self).__name__, res, max_iter)
        elif not res.converged:
            warnings.warn(
                f"LogisticRegression (gd) did not converge in {max_iter} iterations; "
                "increase max_iter or tol",
                ConvergenceWarning,
                stacklevel=3,
            )
        return res, beta

    def decision_function(self, X: object) -> np.ndarray:
        """``z = w^T x + b``, the log-odds ln(p1 / p0) (003 (1.16))."""
        check_is_fitted(self, "coef_")
        return as_design(X, n_features=self.n_features_in_) @ self.coef_ + self.intercept_

    def predict_proba(self, X: object) -> np.ndarray:
        """``[p(y=0|x), p(y=1|x)]`` with ``p(y=1|x) = 1/(1 + e^{-z})`` (003 (1.17))."""
        p1 = expit(self.decision_function(X))
        return np.column_stack([1.0 - p1, p1])

    def predict_log_proba(self, X: object) -> np.ndarray:
        z = self.decision_function(X)
        return np.column_stack([-np.logaddexp(0.0, z), -np.logaddexp(0.0, -z)])

    def predict(self, X: object) -> np.ndarray:
        check_is_fitted(self, "coef_")
        return self.classes_[(self.decision_function(X) > 0).astype(int)]
