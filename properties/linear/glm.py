"""Claims of 004 §2 (generalised linear models): the Gaussian, Bernoulli and categorical GLMs
with canonical links are OLS, logistic and softmax regression, and Newton/IRLS never
decreases the likelihood and ends at the score equations."""

from __future__ import annotations

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from algorithms.linear import (
    GeneralizedLinearModel,
    LinearRegression,
    LogisticRegression,
    SoftmaxRegression,
    add_bias_column,
)
from mltheory import Method, claim, evidence
from mltheory.numeric import LINEAR_ALGEBRA, Tolerance, assert_close, assert_leq
from mltheory.strategies import labelled_datasets
from properties.linear.strategies import overlapping_classification_datasets, regression_datasets
from properties.linear.support import least_squares_tolerance, quietly

#: Two Newton fits of the same problem, each stopped at a Newton decrement of 1e-10 N:
#: their probabilities agree to about sqrt(1e-10) at worst, far better in practice.
SAME_MLE = Tolerance(rtol=1e-6, atol=1e-7,
                     reason="two Newton runs on the same likelihood, stopped at decrement "
                     "1e-10 N then one more full step (quadratic convergence)")


def library_glm(X, y, **params) -> GeneralizedLinearModel:
    """The library's GLM fitted with ``params`` (warnings silenced; checks read the flags)."""
    return quietly(GeneralizedLinearModel(**params).fit, X, y)


def check_gaussian_is_ols(data, sigma: float, fit_glm=library_glm) -> None:
    """``fit_glm(X, y, family="gaussian", sigma=sigma)`` predicts like OLS and its natural
    weights are the OLS weights divided by sigma^2."""
    glm = fit_glm(data.X, data.y, family="gaussian", sigma=sigma)
    ols = quietly(LinearRegression().fit, data.X, data.y)
    tol = least_squares_tolerance(data.condition)
    assert_close(glm.predict(data.X), ols.predict(data.X), tol, label="GLM vs OLS predictions")
    assert_close(glm.coef_[0] * sigma**2, ols.coef_, tol, label="sigma^2 * natural weights vs OLS")


def check_bernoulli_is_logistic(data, fit_glm=library_glm) -> None:
    """``fit_glm(X, y, family="bernoulli")`` has phi = sigmoid(eta) and the logistic MLE's
    probabilities."""
    glm = fit_glm(data.X, data.y, family="bernoulli")
    lr = quietly(LogisticRegression().fit, data.X, data.y)
    eta = data.X @ glm.coef_[0] + glm.intercept_[0]
    assert_close(glm.predict_proba(data.X)[:, 1], 1 / (1 + np.exp(-eta)), LINEAR_ALGEBRA,
                 label="phi vs 1/(1 + exp(-w^T x))")
    assert_close(glm.predict_proba(data.X), lr.predict_proba(data.X), SAME_MLE,
                 label="GLM vs LogisticRegression probabilities")


def check_categorical_is_softmax(data, fit_glm=library_glm) -> None:
    """``fit_glm(X, y, family="categorical")`` has eta_i = ln(phi_i / phi_K) and the softmax
    MLE's probabilities."""
    glm = fit_glm(data.X, data.y, family="categorical")
    sm = quietly(SoftmaxRegression().fit, data.X, data.y)
    probs = glm.predict_proba(data.X)
    assert_close(np.log(probs[:, :-1]) - np.log(probs[:, -1:]), glm.natural_parameter(data.X),
                 LINEAR_ALGEBRA, label="ln(phi_i / phi_K) vs eta_i")
    assert_close(probs, sm.predict_proba(data.X), SAME_MLE, label="GLM vs softmax probabilities")


@claim(
    id="linear.glm_gaussian_is_ols_2_3_1",
    source="004 §2.3.1; 003 §1.4 (1.13)",
    statement="The Gaussian GLM (T(y) = y, eta = mu / sigma^2 = w^T x) is linear regression: its "
    "maximum-likelihood fit gives the least-squares predictions for every sigma, with natural "
    "weights equal to the OLS weights divided by sigma^2.",
    method=Method.REFERENCE,
    tags=("linear", "glm"),
)
@given(data=regression_datasets(), sigma=st.sampled_from([0.25, 1.0, 3.0]))
def glm_gaussian_is_ols_2_3_1(data, sigma):
    check_gaussian_is_ols(data, sigma)


@claim(
    id="linear.glm_bernoulli_is_logistic_2_3_2",
    source="004 §2.3.2 (2)",
    statement="The Bernoulli GLM with eta = w^T x has phi = 1/(1 + exp(-w^T x)): it is logistic "
    "regression (same maximum-likelihood weights and probabilities).",
    method=Method.REFERENCE,
    tags=("linear", "glm", "logistic"),
)
@given(data=overlapping_classification_datasets())
def glm_bernoulli_is_logistic_2_3_2(data):
    check_bernoulli_is_logistic(data)


@claim(
    id="linear.glm_categorical_is_softmax_2_3_3",
    source="004 §2.3.3; 004 §3.3",
    statement="The categorical GLM with eta_i = ln(phi_i / phi_K) = w_i^T x (i < K) is the "
    "softmax regression of 004 §3.3: the fitted natural parameters are the log-ratios of the "
    "predicted probabilities and the probabilities equal the softmax fit's.",
    method=Method.REFERENCE,
    tags=("linear", "glm", "softmax"),
)
@given(data=overlapping_classification_datasets(min_classes=2, max_classes=4,
                                                max_free_samples=20))
def glm_categorical_is_softmax_2_3_3(data):
    check_categorical_is_softmax(data)


#: Strategies of the Newton/IRLS claim (shared with its teeth test).
NEWTON_CASES = dict(
    data=labelled_datasets(max_samples=25),
    family=st.sampled_from(["gaussian", "bernoulli", "categorical"]),
    lam=st.sampled_from([0.0, 0.1, 10.0]),
    third=st.integers(0, 24),
)


def newton_problem(data, family: str, third: int) -> tuple[np.ndarray, np.ndarray]:
    """A response for ``family`` from a labelled data set: a real target (Gaussian), the 0/1
    labels (Bernoulli), or the labels with sample ``third`` moved to a third class."""
    y = (data.y > 0).astype(int)
    if family == "categorical":
        y = y.copy()
        y[third % y.size] = 2
        if np.unique(y).size < 2:
            y[(third + 1) % y.size] = 0
    elif family == "gaussian":
        y = data.X[:, 0] * 0.5 + y
    return data.X, y


def check_newton_monotone(X, y, family: str, lam: float, fit_glm=library_glm) -> None:
    """``fit_glm(X, y, family=family, lam=lam)`` never increases the penalised NLL along its
    ``objective_history_`` and, when ``converged_``, meets the score equations."""
    glm = fit_glm(X, y, family=family, lam=lam)
    h = glm.objective_history_
    rise = float(np.max(np.diff(h), initial=0.0))
    assert_leq(rise, 1e-12 * (abs(h[0]) + 1.0), label="largest increase of the penalised NLL")
    if glm.converged_:
        # score equations: X_hat^T (T - mu) = lam * (W, 0)
        Xh = add_bias_column(X)
        eta = glm.natural_parameter(X)
        T = glm.family_.sufficient_statistic(
            y if family == "gaussian" else np.searchsorted(glm.classes_, y))
        score = Xh.T @ (T - glm.family_.mean(eta))
        target = lam * np.vstack([glm.coef_.T, np.zeros((1, glm.coef_.shape[0]))])
        scale = np.abs(Xh).T @ (np.abs(T) + np.abs(glm.family_.mean(eta))) + 1.0
        assert_leq(float(np.max(np.abs(score - target) / scale)), 1e-6,
                   label="score-equation residual (relative)")
    evidence.record("families covered", "gaussian, bernoulli, categorical")


@claim(
    id="linear.glm_newton_increases_likelihood_2_2",
    source="004 §2.2; 003 §1.4 (1.13)",
    statement="Fitting a canonical-link GLM by Newton/IRLS (with step halving) never decreases "
    "the (penalised) log-likelihood, and at convergence the score equations "
    "X_hat^T (T(y) - a'(eta)) = 0 (plus the penalty's gradient) hold.",
    method=Method.PROPERTY,
    tags=("linear", "glm"),
)
@given(**NEWTON_CASES)
def glm_newton_increases_likelihood_2_2(data, family, lam, third):
    check_newton_monotone(*newton_problem(data, family, third), family, lam)
