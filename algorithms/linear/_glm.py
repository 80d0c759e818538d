"""Log-linear regression and canonical-link generalised linear models fitted by IRLS/Newton.

References
----------
003 §1.4 (1.11)-(1.13): ``ln y = w^T x + b`` and ``y = g^{-1}(w^T x + b)``.
004 §2.1-§2.3: the GLM as an exponential-family model with natural parameter
``eta = w^T x``; Gaussian, Bernoulli and categorical members.
"""

from __future__ import annotations

import warnings

import numpy as np
from sklearn.base import BaseEstimator, RegressorMixin
from sklearn.exceptions import ConvergenceWarning
from sklearn.utils.validation import check_is_fitted

from algorithms.linear._exponential_family import (
    BernoulliFamily,
    CategoricalFamily,
    ExponentialFamily,
    GaussianFamily,
)
from algorithms.linear._inputs import (
    as_design,
    as_target,
    check_bool,
    check_choice,
    check_positive_int,
    check_real,
    encode_labels,
)
from algorithms.linear._newton import NewtonResult, confirm_separation, fit_glm_newton
from algorithms.linear._ols import LinearRegression, add_bias_column

__all__ = ["GeneralizedLinearModel", "LogLinearRegression", "warn_newton_outcome"]

FAMILIES = ("gaussian", "bernoulli", "categorical")


class LogLinearRegression(RegressorMixin, BaseEstimator):
    """Least squares on ``ln y``: ``ln y ~ w^T x + b``, predictions ``exp(w^T x + b)``.

    Parameters
    ----------
    fit_intercept : bool, default=True

    Attributes
    ----------
    coef_, intercept_ : the linear model of ``ln y``; ``rank_``, ``full_rank_`` as for
        :class:`~algorithms.linear.LinearRegression`.

    Notes
    -----
    003 (1.12), 004 §2.1(2): the GLM with link ``g = ln``; linear in form, non-linear
    from inputs to outputs. Every target must be strictly positive.
    """

    def __init__(self, *, fit_intercept: bool = True) -> None:
        self.fit_intercept = fit_intercept

    def fit(self, X: object, y: object) -> LogLinearRegression:
        X_arr = as_design(X)
        y_arr = as_target(y, X_arr.shape[0])
        if np.any(y_arr <= 0):
            raise ValueError("y must be strictly positive for log-linear regression (ln y)")
        ols = LinearRegression(fit_intercept=self.fit_intercept).fit(X_arr, np.log(y_arr))
        self.coef_, self.intercept_ = ols.coef_, ols.intercept_
        self.rank_, self.full_rank_ = ols.rank_, ols.full_rank_
        self.n_features_in_ = X_arr.shape[1]
        return self

    def predict_log(self, X: object) -> np.ndarray:
        """``w^T x + b``, the model of ``ln y``."""
        check_is_fitted(self, "coef_")
        return as_design(X, n_features=self.n_features_in_) @ self.coef_ + self.intercept_

    def predict(self, X: object) -> np.ndarray:
        return np.exp(self.predict_log(X))


def warn_newton_outcome(name: str, res: NewtonResult, max_iter: int) -> None:
    """Issue the ConvergenceWarning a Newton fit deserves (separation, cap, max_iter)."""
    if res.separated:
        warnings.warn(
            f"{name}: the classes are linearly separated, so the likelihood has no "
            "maximiser (it tends to 1 as the coefficients grow along a separating "
            "direction); stopped with converged_=False. Use lam > 0 for a finite solution.",
            ConvergenceWarning,
            stacklevel=3,
        )
    elif res.capped:
        warnings.warn(
            f"{name}: coefficients exceeded coef_cap; the maximum-likelihood estimate "
            "appears not to exist (quasi-separated data). Use lam > 0.",
            ConvergenceWarning,
            stacklevel=3,
        )
    elif not res.converged:
        warnings.warn(
            f"{name}: Newton did not converge in {max_iter} iterations; increase max_iter",
            ConvergenceWarning,
            stacklevel=3,
        )


class GeneralizedLinearModel(RegressorMixin, BaseEstimator):
    """Canonical-link GLM ``eta = W x + c`` for a Gaussian, Bernoulli or categorical response.

    Parameters
    ----------
    family : {"gaussian", "bernoulli", "categorical"}, default="gaussian"
    sigma : float, default=1.0
        Known standard deviation of the Gaussian family (004 §2.3.1 puts it in
        ``eta = mu / sigma^2``); ignored by the others.
    lam : float, default=0.0
        L2 penalty ``lam/2 ||W||_F^2`` (intercepts unpenalised); 0 is plain MLE.
    fit_intercept : bool, default=True
    max_iter : int, default=100
    tol : float, default=1e-10
        Stop when half the squared Newton decrement is at most ``tol * N``.
    coef_cap : float, default=1e8

    Attributes
    ----------
    family_ : ExponentialFamily
    classes_ : ndarray (bernoulli/categorical only); the last class is the reference
        class K of 004 §2.3.3, and for the Bernoulli ``classes_[1]`` is ``y = 1``.
    coef_ : ndarray of shape (q, n_features); intercept_ : ndarray of shape (q,)
        ``q = 1`` (Gaussian, Bernoulli) or ``K - 1`` (categorical).
    log_likelihood_history_, objective_history_ : ndarray
        Full log-likelihood / penalised negative log-likelihood after every Newton step.
    n_iter_, converged_, separable_

    Notes
    -----
    Each iteration is an IRLS step: ``B <- B + t H^{-1} X_hat^T (T - mu)`` with
    ``H = sum_i x_hat_i x_hat_i^T (x) Var_i(eta_i)``; ``t`` halves until the penalised
    likelihood increases (Armijo), so the likelihood history is non-decreasing.
    """

    def __init__(self, *, family: str = "gaussian", sigma: float = 1.0, lam: float = 0.0,
                 fit_intercept: bool = True, max_iter: int = 100, tol: float = 1e-10,
                 coef_cap: float = 1e8) -> None:
        self.family = family
        self.sigma = sigma
        self.lam = lam
        self.fit_intercept = fit_intercept
        self.max_iter = max_iter
        self.tol = tol
        self.coef_cap = coef_cap

    def _make_family(self, y: object, n: int) -> tuple[ExponentialFamily, np.ndarray]:
        family = check_choice(self.family, "family", FAMILIES)
        if family == "gaussian":
            sigma = check_real(self.sigma, "sigma", low=0.0, low_open=True)
            self.classes_ = None
            return GaussianFamily(sigma), as_target(y, n)
        max_classes = 2 if family == "bernoulli" else None
        classes, codes = encode_labels(y, n, max_classes=max_classes)
        self.classes_ = classes
        if family == "bernoulli":
            return BernoulliFamily(), codes.astype(float)
        return CategoricalFamily(classes.size), codes

    def fit(self, X: object, y: object) -> GeneralizedLinearModel:
        lam = check_real(self.lam, "lam", low=0.0)
        fit_intercept = check_bool(self.fit_intercept, "fit_intercept")
        max_iter = check_positive_int(self.max_iter, "max_iter")
        tol = check_real(self.tol, "tol", low=0.0, low_open=True)
        coef_cap = check_real(self.coef_cap, "coef_cap", low=0.0, low_open=True)
        X_arr = as_design(X)
        family, y_enc = self._make_family(y, X_arr.shape[0])
        Xh = add_bias_column(X_arr) if fit_intercept else X_arr
        d = X_arr.shape[1]
        mask = np.ones(Xh.shape[1])
        if fit_intercept:
            mask[-1] = 0.0
        T = family.sufficient_statistic(y_enc)
        res = fit_glm_newton(
            Xh, T, family, lam=lam, penalty_mask=mask,
            log_base=float(np.sum(family.log_base_measure(y_enc))), max_iter=max_iter,
            tol=tol, coef_cap=coef_cap,
            stop_on_separation=(lam == 0 and family.name != "gaussian"),
        )
        if family.name != "gaussian":
            confirm_separation(res, Xh, y_enc, self.classes_.size, lam)
        warn_newton_outcome(type(self).__name__, res, max_iter)
        self.family_ = family
        self.coef_ = res.coef[:d].T.copy()
        self.intercept_ = res.coef[d].copy() if fit_intercept else np.zeros(res.coef.shape[1])
        self.log_likelihood_history_ = np.asarray(res.log_likelihood_history)
        self.objective_history_ = np.asarray(res.objective_history)
        self.step_sizes_ = np.asarray(res.step_sizes)
        self.n_iter_ = res.n_iter
        self.converged_ = bool(res.converged)
        self.separable_ = bool(res.separated)
        self.n_features_in_ = d
        return self

    def natural_parameter(self, X: object) -> np.ndarray:
        """``eta = W x + c``, shape (N, q)."""
        check_is_fitted(self, "coef_")
        X_arr = as_design(X, n_features=self.n_features_in_)
        return X_arr @ self.coef_.T + self.intercept_

    def predict_mean(self, X: object) -> np.ndarray:
        """``E[T(y) | x] = grad a(eta)``, shape (N, q)."""
        return self.family_.mean(self.natural_parameter(X))

    def predict_proba(self, X: object) -> np.ndarray:
        """Class probabilities (bernoulli/categorical), shape (N, K)."""
        if self.family_.name == "gaussian":
            raise ValueError("predict_proba needs family='bernoulli' or 'categorical'")
        eta = self.natural_parameter(X)
        if self.family_.name == "bernoulli":
            p1 = self.family_.mean(eta)[:, 0]
            return np.column_stack([1.0 - p1, p1])
        return self.family_.probabilities(eta)

    def predict(self, X: object) -> np.ndarray:
        """The conditional mean (Gaussian) or the most probable class."""
        check_is_fitted(self, "coef_")
        if self.family_.name == "gaussian":
            return self.predict_mean(X)[:, 0]
        return self.classes_[np.argmax(self.predict_proba(X), axis=1)]

    def score(self, X: object, y: object, sample_weight: object = None) -> float:
        """R^2 for the Gaussian family, accuracy otherwise."""
        check_is_fitted(self, "coef_")
        if self.family_.name == "gaussian":
            return super().score(X, y, sample_weight=sample_weight)
        return float(np.mean(self.predict(X) == np.asarray(y)))
