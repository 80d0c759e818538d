"""Log-linear regression and canonical-link generalised linear models fitted by IRLS/Newton.

References
----------
003 §1.4 (1.11)-(1.13): ``ln y = w^T x + b`` and ``y = g^{-1}(w^T x + b)``.
004 §2.1-§2.3: the GLM as an exponential-family model with natural parameter
``eta = w^T x``; Gaussian, Bernoulli and categorical members.
"""

from __future__ import annotations

import numpy as np
from sklearn.base import BaseEstimator, RegressorMixin
from sklearn.metrics import accuracy_score
from sklearn.utils._available_if import available_if

from algorithms._validation import (
    check_choice,
    check_fitted,
    check_real,
    check_squares_representable,
    validate_classification,
    validate_features,
    validate_regression,
)
from algorithms.linear._exponential_family import (
    BernoulliFamily,
    CategoricalFamily,
    ExponentialFamily,
    GaussianFamily,
)
from algorithms.linear._newton import (
    biased_design,
    fit_by_newton,
    likelihood_settings,
    record_fit,
    split_coef,
)
from algorithms.linear._ols import LinearRegression, scale_free_r2

__all__ = ["GeneralizedLinearModel", "LogLinearRegression"]

FAMILIES = ("gaussian", "bernoulli", "categorical")
#: The families whose response is a class label (they have class probabilities).
CLASS_FAMILIES = ("bernoulli", "categorical")


class LogLinearRegression(RegressorMixin, BaseEstimator):
    """Least squares on ``ln y``: ``ln y ~ w^T x + b``, predictions ``exp(w^T x + b)``.

    Parameters
    ----------
    fit_intercept : bool, default=True

    Attributes
    ----------
    coef_, intercept_ : the linear model of ``ln y``; ``rank_``, ``full_rank_`` as for
        :class:`~algorithms.linear.LinearRegression`.
    n_features_in_ : int

    Notes
    -----
    003 (1.12), 004 §2.1(2): the GLM with link ``g = ln``; linear in form, non-linear
    from inputs to outputs. Every target must be strictly positive (the estimator's
    ``positive_only`` target tag says so).
    """

    def __init__(self, *, fit_intercept: bool = True) -> None:
        self.fit_intercept = fit_intercept

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.target_tags.positive_only = True
        return tags

    def fit(self, X: object, y: object) -> LogLinearRegression:
        """Least squares of ``ln y`` on ``X``.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        y : array-like of shape (n_samples,), every entry > 0

        Returns
        -------
        self
        """
        X_arr, y_arr = validate_regression(self, X, y, positive=True)
        ols = LinearRegression(fit_intercept=self.fit_intercept).fit(X_arr, np.log(y_arr))
        self.coef_, self.intercept_ = ols.coef_, ols.intercept_
        self.rank_, self.full_rank_ = ols.rank_, ols.full_rank_
        return self

    def score(self, X: object, y: object, sample_weight: object = None) -> float:
        """The coefficient of determination ``R^2`` of the predictions (scale-free)."""
        return scale_free_r2(self, X, y, sample_weight)

    def predict_log(self, X: object) -> np.ndarray:
        """``w^T x + b``, the model of ``ln y``, shape (n_samples,)."""
        return validate_features(self, X, reset=False) @ self.coef_ + self.intercept_

    def predict(self, X: object) -> np.ndarray:
        """``exp(w^T x + b)``, shape (n_samples,)."""
        return np.exp(self.predict_log(X))


def _has_class_probabilities(glm: GeneralizedLinearModel) -> bool:
    if glm.family not in CLASS_FAMILIES:
        raise AttributeError(
            f"predict_proba needs family='bernoulli' or 'categorical', not {glm.family!r}."
        )
    return True


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
    classes_ : ndarray (bernoulli/categorical; None for the Gaussian); the last class
        is the reference class K of 004 §2.3.3, and for the Bernoulli ``classes_[1]``
        is ``y = 1``.
    coef_ : ndarray of shape (q, n_features); intercept_ : ndarray of shape (q,)
        ``q = 1`` (Gaussian, Bernoulli) or ``K - 1`` (categorical).
    log_likelihood_history_, objective_history_ : ndarray
        Full log-likelihood / penalised negative log-likelihood after every Newton step.
    coef_history_ : ndarray of shape (n_recorded, p, q)
        The iterates behind the histories (bias row last), recorded in the Newton loop.
    step_sizes_ : ndarray
        The accepted Newton step lengths.
    n_iter_, converged_, separable_

    Notes
    -----
    Each iteration is an IRLS step: ``B <- B + t H^{-1} X_hat^T (T - mu)`` with
    ``H = sum_i x_hat_i x_hat_i^T (x) Var_i(eta_i)``; ``t`` halves until the penalised
    likelihood increases (Armijo), so the likelihood history is non-decreasing.
    ``predict_proba`` exists only for the families with a class response.
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

    def _validate_data(self, X: object, y: object
                       ) -> tuple[np.ndarray, np.ndarray, ExponentialFamily]:
        """``(X, encoded y, family)``: real targets for the Gaussian, class codes else."""
        family = check_choice(self.family, "family", FAMILIES)
        sigma = check_real(self.sigma, "sigma", low=0.0, low_open=True)
        if family == "gaussian":
            X_arr, y_arr = validate_regression(self, X, y)
            check_squares_representable(y_arr, "y")  # the log-likelihood holds y^2 / sigma^2
            self.classes_ = None
            return X_arr, y_arr, GaussianFamily(sigma)
        X_arr, codes = validate_classification(
            self, X, y, max_classes=2 if family == "bernoulli" else None,
            what="the Bernoulli family has two outcomes; use family='categorical'",
        )
        if family == "bernoulli":
            return X_arr, codes.astype(float), BernoulliFamily()
        return X_arr, codes, CategoricalFamily(self.classes_.size)

    def fit(self, X: object, y: object) -> GeneralizedLinearModel:
        """Maximise the (penalised) likelihood by damped Newton.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        y : array-like of shape (n_samples,)
            Real targets (Gaussian) or class labels (Bernoulli: two, categorical: >= 2).

        Returns
        -------
        self
        """
        settings = likelihood_settings(self)
        X_arr, y_enc, family = self._validate_data(X, y)
        Xh, mask, scale = biased_design(X_arr, settings.fit_intercept, settings.lam)
        res = fit_by_newton(
            type(self).__name__, Xh, y_enc, family, settings, mask,
            n_classes=None if family.name == "gaussian" else self.classes_.size,
        )
        res.unscale(scale, X_arr.shape[1])
        self.family_ = family
        self.coef_, self.intercept_ = split_coef(res.coef, X_arr.shape[1], settings.fit_intercept)
        record_fit(self, res)
        self.objective_history_ = np.asarray(res.objective_history)
        self.step_sizes_ = np.asarray(res.step_sizes)
        return self

    def natural_parameter(self, X: object) -> np.ndarray:
        """``eta = W x + c``, shape (N, q)."""
        return validate_features(self, X, reset=False) @ self.coef_.T + self.intercept_

    def predict_mean(self, X: object) -> np.ndarray:
        """``E[T(y) | x] = grad a(eta)``, shape (N, q)."""
        return self.family_.mean(self.natural_parameter(X))

    def _probabilities(self, eta: np.ndarray) -> np.ndarray:
        if self.family_.name == "bernoulli":
            p1 = self.family_.mean(eta)[:, 0]
            return np.column_stack([1.0 - p1, p1])
        if self.family_.name == "categorical":
            return self.family_.probabilities(eta)
        raise ValueError(  # only after set_params(family=...) on a Gaussian fit
            "predict_proba needs a model fitted with family='bernoulli' or 'categorical'; "
            f"this one was fitted with {self.family_.name!r}."
        )

    @available_if(_has_class_probabilities)
    def predict_proba(self, X: object) -> np.ndarray:
        """Class probabilities (bernoulli/categorical), shape (N, K)."""
        return self._probabilities(self.natural_parameter(X))

    def predict(self, X: object) -> np.ndarray:
        """The conditional mean (Gaussian) or the most probable class."""
        eta = self.natural_parameter(X)
        if self.family_.name == "gaussian":
            return self.family_.mean(eta)[:, 0]
        return self.classes_[np.argmax(self._probabilities(eta), axis=1)]

    def score(self, X: object, y: object, sample_weight: object = None) -> float:
        """R^2 for the Gaussian family, accuracy otherwise."""
        check_fitted(self, "family_")
        if self.family_.name == "gaussian":
            return scale_free_r2(self, X, y, sample_weight)
        return float(accuracy_score(y, self.predict(X), sample_weight=sample_weight))
