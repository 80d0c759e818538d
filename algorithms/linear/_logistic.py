"""Binary logistic (log-odds) regression by maximum likelihood: Newton/IRLS or gradient descent.

References
----------
003 §1.5 (1.14)-(1.21); 004 §3.1-§3.2. With ``beta = (w; b)`` and ``x_hat = (x; 1)``,
the negative log-likelihood is
``l(beta) = sum_i [-y_i beta^T x_hat_i + ln(1 + exp(beta^T x_hat_i))]``, its gradient
``-sum_i x_hat_i (y_i - p_1(x_hat_i))`` and Hessian ``sum_i x_hat_i x_hat_i^T p_1 (1 - p_1)``.
"""

from __future__ import annotations

import numpy as np
import scipy.linalg
from scipy.special import expit
from sklearn.base import BaseEstimator, ClassifierMixin

from algorithms._validation import (
    check_array_argument,
    check_choice,
    check_real,
    validate_classification,
    validate_features,
)
from algorithms.linear._binary_newton import fit_logistic_newton
from algorithms.linear._newton import (
    LikelihoodSettings,
    NewtonResult,
    all_strictly_separated,
    biased_design,
    confirm_separation,
    likelihood_settings,
    record_fit,
    scaled_design,
    warn_fit_outcome,
)

__all__ = ["LogisticRegression", "logistic_nll", "logistic_nll_gradient", "logistic_nll_hessian"]


def _check_problem(beta: object, Xh: object, y: object = None
                   ) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
    """``beta`` (p,), ``Xh`` (N, p) and 0/1 labels ``y`` (N,), validated."""
    beta = check_array_argument(beta, "beta", ndim=1, real=True)
    Xh = check_array_argument(Xh, "Xh", shape=(None, beta.shape[0]), real=True)
    if y is not None:
        y = check_array_argument(y, "y", shape=(Xh.shape[0],), real=True)
        if not np.all((y == 0) | (y == 1)):
            raise ValueError("y must contain only the labels 0 and 1.")
    return beta, Xh, y


def logistic_nll(beta: np.ndarray, Xh: np.ndarray, y: np.ndarray) -> float:
    """003 (1.20): ``sum_i [-y_i z_i + ln(1 + e^{z_i})]``, ``z = Xh beta``, via logaddexp.

    ``beta`` has shape (p,), ``Xh`` (N, p) (bias column included by the caller) and the
    labels ``y`` (N,) are 0 or 1.
    """
    beta, Xh, y = _check_problem(beta, Xh, y)
    z = Xh @ beta
    # ln(1 + e^z) - y z = ln(1 + e^{-z}) for y = 1: one logaddexp per term, no cancellation
    return float(np.sum(np.logaddexp(0.0, np.where(y == 1, -z, z))))


def logistic_nll_gradient(beta: np.ndarray, Xh: np.ndarray, y: np.ndarray) -> np.ndarray:
    """``-sum_i x_hat_i (y_i - sigma(z_i))``, shape (p,) (arguments as :func:`logistic_nll`)."""
    beta, Xh, y = _check_problem(beta, Xh, y)
    return -(Xh.T @ (y - expit(Xh @ beta)))


def logistic_nll_hessian(beta: np.ndarray, Xh: np.ndarray) -> np.ndarray:
    """``sum_i x_hat_i x_hat_i^T sigma(z_i)(1 - sigma(z_i))``, shape (p, p)."""
    beta, Xh, _ = _check_problem(beta, Xh)
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
    coef_history_ : ndarray of shape (n_recorded, p, 1)
        The iterates ``(w; b)`` behind the histories, recorded inside the solver loop.
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

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.classifier_tags.multi_class = False  # binary by definition (003 §1.5)
        return tags

    def fit(self, X: object, y: object, *, coef_init: object = None,
            intercept_init: object = None) -> LogisticRegression:
        """Maximise the (penalised) log-likelihood.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        y : array-like of shape (n_samples,)
            Labels of two classes; the larger, ``classes_[1]``, is coded ``y = 1``.
        coef_init : array-like of shape (n_features,), optional
            Warm start: the solver starts from these weights (e.g. a previous fit's
            ``coef_``) instead of zeros; the histories begin there.
        intercept_init : float, optional
            Warm start of the intercept (with ``fit_intercept``; default 0).

        Returns
        -------
        self
        """
        solver = check_choice(self.solver, "solver", ("newton", "gd"))
        settings = likelihood_settings(self)
        if self.learning_rate is not None:
            check_real(self.learning_rate, "learning_rate", low=0.0, low_open=True)
        X_arr, codes = validate_classification(
            self, X, y, max_classes=2,
            what="logistic regression is binary; SoftmaxRegression handles K classes",
        )
        start = self._start(coef_init, intercept_init, X_arr.shape[1], settings.fit_intercept)
        if solver == "newton":
            Xs, scale = scaled_design(X_arr, settings.lam)
            if start is not None:
                start[:X_arr.shape[1]] *= scale
            res = fit_logistic_newton(
                Xs, codes.astype(float), fit_intercept=settings.fit_intercept, lam=settings.lam,
                max_iter=settings.max_iter, tol=settings.tol, coef_cap=settings.coef_cap,
                stop_on_separation=settings.lam == 0, coef_init=start,
            )
            if settings.lam == 0 and not res.converged and not res.separated:
                confirm_separation(res, biased_design(Xs, settings.fit_intercept)[0], codes, 2,
                                   settings.lam)
            warn_fit_outcome(type(self).__name__, res, f"Newton did not converge in "
                             f"{settings.max_iter} iterations; increase max_iter")
        else:
            Xh, mask, scale = biased_design(X_arr, settings.fit_intercept, settings.lam)
            if start is not None:
                start[:X_arr.shape[1]] *= scale
            res = self._gradient_descent(Xh, codes.astype(float), settings, mask, start)
        res.unscale(scale, X_arr.shape[1])
        beta = res.coef[:, 0]
        d = X_arr.shape[1]
        self.coef_ = beta[:d].copy()
        self.intercept_ = float(beta[d]) if settings.fit_intercept else 0.0
        record_fit(self, res)
        self.objective_history_ = np.asarray(res.objective_history)
        return self

    @staticmethod
    def _start(coef_init: object, intercept_init: object, d: int, fit_intercept: bool
               ) -> np.ndarray | None:
        """The warm start ``(w; b)`` (validated), or None for zeros."""
        if coef_init is None and intercept_init is None:
            return None
        start = np.zeros(d + int(fit_intercept))
        if coef_init is not None:
            start[:d] = check_array_argument(coef_init, "coef_init", shape=(d,), real=True)
        if intercept_init is not None:
            if not fit_intercept:
                raise ValueError("intercept_init needs fit_intercept=True.")
            start[d] = check_real(intercept_init, "intercept_init")
        return start

    def _gradient_descent(self, Xh: np.ndarray, y: np.ndarray, settings: LikelihoodSettings,
                          mask: np.ndarray, start: np.ndarray | None = None) -> NewtonResult:
        n, p = Xh.shape
        lam, max_iter = settings.lam, settings.max_iter
        if self.learning_rate is None:
            L = scipy.linalg.norm(Xh, 2) ** 2 / 4.0 + lam
            step = 1.0 / L
        else:
            step = float(self.learning_rate)
            L = 1.0 / step
        beta = np.zeros(p) if start is None else start.copy()
        res = NewtonResult(coef=beta)

        def objective(b: np.ndarray) -> tuple[float, float]:
            ll = -logistic_nll(b, Xh, y)
            return ll, -ll + 0.5 * lam * float(np.sum((mask * b) ** 2))

        ll, obj = objective(beta)
        res.log_likelihood_history.append(ll)
        res.objective_history.append(obj)
        res.coef_history.append(beta[:, None].copy())
        for it in range(1, max_iter + 1):
            grad = logistic_nll_gradient(beta, Xh, y) + lam * mask * beta
            if float(grad @ grad) / (2.0 * L) <= settings.tol * n:
                res.converged = True
                break
            beta = beta - step * grad
            ll, obj = objective(beta)
            res.log_likelihood_history.append(ll)
            res.objective_history.append(obj)
            res.coef_history.append(beta[:, None].copy())
            res.n_iter = it
            if lam == 0 and all_strictly_separated((Xh @ beta)[:, None], y[:, None]):
                res.separated = True
                break
            if not np.isfinite(obj) or np.max(np.abs(beta)) > settings.coef_cap:
                res.capped = True
                break
        confirm_separation(res, Xh, y, 2, lam)
        warn_fit_outcome(
            type(self).__name__, res,
            f"gradient descent did not converge in {max_iter} iterations; increase max_iter "
            "or tol",
        )
        res.coef = beta[:, None]
        return res

    def decision_function(self, X: object) -> np.ndarray:
        """``z = w^T x + b``, the log-odds ln(p1 / p0) (003 (1.16))."""
        return validate_features(self, X, reset=False) @ self.coef_ + self.intercept_

    def predict_proba(self, X: object) -> np.ndarray:
        """``[p(y=0|x), p(y=1|x)]`` with ``p(y=1|x) = 1/(1 + e^{-z})`` (003 (1.17))."""
        p1 = expit(self.decision_function(X))
        return np.column_stack([1.0 - p1, p1])

    def predict_log_proba(self, X: object) -> np.ndarray:
        """``[ln p(y=0|x), ln p(y=1|x)]``, computed stably as ``-ln(1 + e^{-+z})``."""
        z = self.decision_function(X)
        return np.column_stack([-np.logaddexp(0.0, z), -np.logaddexp(0.0, -z)])

    def predict(self, X: object) -> np.ndarray:
        """``classes_[1]`` where the log-odds are positive, else ``classes_[0]``."""
        positive = self.decision_function(X) > 0
        return self.classes_[positive.astype(int)]
