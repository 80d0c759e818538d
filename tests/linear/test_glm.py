"""Unit tests: exponential families, GLMs by Newton/IRLS, log-linear regression."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.stats
from sklearn.exceptions import NotFittedError

from algorithms.linear import (
    BernoulliFamily,
    CategoricalFamily,
    GaussianFamily,
    GeneralizedLinearModel,
    LinearRegression,
    LogisticRegression,
    LogLinearRegression,
    SoftmaxRegression,
)


def classification_data(n=200, d=3, K=2, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d))
    W = rng.normal(size=(d, K))
    Z = X @ W + rng.normal(size=K) * 0.3
    P = np.exp(Z - Z.max(axis=1, keepdims=True))
    P /= P.sum(axis=1, keepdims=True)
    y = (P.cumsum(axis=1) > rng.random(n)[:, None]).argmax(axis=1)
    return X, y


# --- families ---------------------------------------------------------------------------


def test_family_log_densities_match_scipy_stats():
    y = np.array([-1.3, 0.0, 2.5])
    mu, sigma = 0.7, 1.9
    g = GaussianFamily(sigma)
    eta = np.full((3, 1), mu / sigma**2)
    np.testing.assert_allclose(g.log_density(y, eta), scipy.stats.norm.logpdf(y, mu, sigma))
    b = BernoulliFamily()
    eta = np.array([[-2.0], [0.3], [4.0]])
    y01 = np.array([0, 1, 1])
    np.testing.assert_allclose(b.log_density(y01, eta),
                               scipy.stats.bernoulli.logpmf(y01, 1 / (1 + np.exp(-eta[:, 0]))))
    c = CategoricalFamily(4)
    eta = np.array([[0.1, -1.0, 2.0]] * 4)
    codes = np.arange(4)
    full = np.append(eta[0], 0.0)
    probs = np.exp(full) / np.exp(full).sum()
    np.testing.assert_allclose(c.log_density(codes, eta), np.log(probs))


@pytest.mark.parametrize("family", [GaussianFamily(0.5), BernoulliFamily(), CategoricalFamily(3)],
                         ids=repr)
def test_family_mean_is_the_gradient_of_the_log_partition_and_link_inverts_it(family):
    rng = np.random.default_rng(0)
    eta = rng.normal(size=(5, family.n_natural))
    h = 1e-6
    grad = np.empty_like(eta)
    for k in range(family.n_natural):
        e = np.zeros(family.n_natural)
        e[k] = h
        grad[:, k] = (family.log_partition(eta + e) - family.log_partition(eta - e)) / (2 * h)
    np.testing.assert_allclose(family.mean(eta), grad, rtol=1e-6, atol=1e-8)
    np.testing.assert_allclose(family.canonical_link(family.mean(eta)), eta, rtol=1e-9,
                               atol=1e-9)


def test_categorical_family_rejects_bad_codes_and_sizes():
    with pytest.raises(ValueError, match="n_classes"):
        CategoricalFamily(1)
    with pytest.raises(ValueError, match="class codes"):
        CategoricalFamily(3).sufficient_statistic([0, 3])
    with pytest.raises(ValueError, match="sigma"):
        GaussianFamily(0.0)


def test_log_partitions_do_not_overflow():
    eta = np.array([[800.0], [-800.0]])
    assert np.all(np.isfinite(BernoulliFamily().log_partition(eta)))
    assert np.all(np.isfinite(CategoricalFamily(3).log_partition(np.array([[900.0, -900.0]]))))


# --- GLM --------------------------------------------------------------------------------


@pytest.mark.parametrize("sigma", [0.3, 1.0, 4.0])
def test_gaussian_glm_predictions_equal_ols(sigma):
    rng = np.random.default_rng(1)
    X = rng.normal(size=(50, 3))
    y = X @ [1.0, -1.0, 2.0] + 0.5 + rng.normal(size=50)
    glm = GeneralizedLinearModel(family="gaussian", sigma=sigma).fit(X, y)
    np.testing.assert_allclose(glm.predict(X), LinearRegression().fit(X, y).predict(X),
                               rtol=1e-9, atol=1e-9)
    assert glm.n_iter_ <= 2  # the log-likelihood is quadratic: one Newton step


def test_bernoulli_glm_is_logistic_regression():
    X, y = classification_data()
    glm = GeneralizedLinearModel(family="bernoulli").fit(X, y)
    lr = LogisticRegression().fit(X, y)
    np.testing.assert_allclose(glm.coef_[0], lr.coef_, rtol=1e-7, atol=1e-9)
    np.testing.assert_allclose(glm.predict_proba(X), lr.predict_proba(X), atol=1e-9)


def test_categorical_glm_is_reference_softmax():
    X, y = classification_data(K=4)
    glm = GeneralizedLinearModel(family="categorical").fit(X, y)
    sm = SoftmaxRegression().fit(X, y)
    np.testing.assert_allclose(glm.predict_proba(X), sm.predict_proba(X), atol=1e-9)
    np.testing.assert_array_equal(glm.predict(X), sm.predict(X))


@pytest.mark.parametrize("family", ["gaussian", "bernoulli", "categorical"])
def test_glm_log_likelihood_never_decreases(family):
    X, y = classification_data(K=3 if family == "categorical" else 2, seed=4)
    if family == "gaussian":
        y = y + X[:, 0]
    glm = GeneralizedLinearModel(family=family, lam=0.1).fit(X, y)
    obj = glm.objective_history_
    assert np.all(np.diff(obj) <= 1e-12 * max(1.0, abs(obj[0])))
    assert glm.converged_


@pytest.mark.parametrize(
    ("params", "y", "message"),
    [
        ({"family": "poisson"}, [0, 1, 0, 1], "family must be one of"),
        ({"family": "bernoulli"}, [0, 1, 2, 1], "at most 2"),
        ({"family": "bernoulli"}, [1, 1, 1, 1], "at least 2"),
        ({"family": "gaussian", "sigma": -1.0}, [0.0, 1.0, 0.0, 1.0], "sigma must be"),
        ({"lam": -0.1}, [0.0, 1.0, 0.0, 1.0], "lam must be"),
        ({"max_iter": 0}, [0.0, 1.0, 0.0, 1.0], "max_iter"),
        ({"family": "categorical"}, [0, 1, 2], "X and y must have as many samples"),
    ],
)
def test_glm_bad_input_raises(params, y, message):
    X = np.arange(8.0).reshape(4, 2)
    with pytest.raises(ValueError, match=message):
        GeneralizedLinearModel(**params).fit(X, y)


@pytest.mark.parametrize(
    ("params", "X", "y", "message"),
    [
        ({}, [[0.0, np.nan], [1.0, 1.0]], [0.0, 1.0], "X contains NaN"),
        ({}, [[0.0, 1.0], [1.0, 1.0]], [0.0, np.inf], "Input y contains infinity"),
        ({}, [[0.0, 1.0], [1.0, 1.0]], None, "requires y to be passed"),
        ({"family": "bernoulli"}, [[0.0], [1.0]], [0.2, 0.7], "Unknown label type"),
        ({"tol": -1.0}, [[0.0], [1.0]], [0.0, 1.0], "tol must be"),
        ({"coef_cap": 0.0}, [[0.0], [1.0]], [0.0, 1.0], "coef_cap must be"),
    ],
)
def test_glm_refuses_bad_data(params, X, y, message):
    with pytest.raises(ValueError, match=message):
        GeneralizedLinearModel(**params).fit(X, y)


@pytest.mark.parametrize("model", [GeneralizedLinearModel(), LogLinearRegression()])
def test_regressors_check_the_feature_count_at_prediction(model):
    X = np.array([[0.0, 1.0], [1.0, 0.5], [2.0, 3.0], [1.0, -1.0]])
    model.fit(X, [1.0, 2.0, 3.0, 4.0])
    with pytest.raises(ValueError, match="X has 1 features"):
        model.predict(X[:, :1])


def test_glm_predict_proba_needs_a_classification_family():
    X, y = classification_data()
    glm = GeneralizedLinearModel(family="gaussian").fit(X, y.astype(float))
    assert not hasattr(glm, "predict_proba")
    with pytest.raises(AttributeError, match="predict_proba") as info:
        glm.predict_proba(X)
    assert "family='bernoulli' or 'categorical'" in str(info.value.__cause__)
    with pytest.raises(NotFittedError):
        GeneralizedLinearModel().predict(X)


# --- log-linear -------------------------------------------------------------------------


def test_log_linear_regression_recovers_an_exponential_law():
    rng = np.random.default_rng(2)
    X = rng.uniform(-1, 1, size=(40, 2))
    y = np.exp(X @ [0.8, -1.2] + 0.4)
    m = LogLinearRegression().fit(X, y)
    np.testing.assert_allclose(m.coef_, [0.8, -1.2], rtol=1e-10)
    np.testing.assert_allclose(m.predict(X), y, rtol=1e-10)


@pytest.mark.parametrize("bad", [0.0, -1.0])
def test_log_linear_regression_requires_positive_targets(bad):
    X = np.arange(6.0).reshape(3, 2)
    with pytest.raises(ValueError, match="strictly positive"):
        LogLinearRegression().fit(X, [1.0, bad, 2.0])


def test_newton_on_collinear_features_of_very_different_scales_takes_the_minimum_norm_step():
    # seed 1 of linear.glm_newton_increases_likelihood_2_2: two identical rows [1, 1.78e-118]
    # make the Hessian rank one; a step decided on the raw Hessian gave the tiny feature a
    # weight of 2e118 (past coef_cap: "not converged"). The minimum-norm maximiser puts
    # natural weights (2, 2 * 1.78e-118) and bias 2 on the design (sigma^2 = 1/4).
    a = 1.78496717e-118
    X = np.array([[1.0, a], [1.0, a]])
    glm = GeneralizedLinearModel(family="gaussian", lam=0.0, sigma=0.5).fit(X, [1.5, 0.5])
    assert glm.converged_ and glm.n_iter_ <= 3
    np.testing.assert_allclose(glm.coef_[0], [2.0, 2.0 * a], rtol=1e-12)
    np.testing.assert_allclose(glm.intercept_, [2.0], rtol=1e-12)
    np.testing.assert_allclose(glm.predict(X), [1.0, 1.0], rtol=1e-12)
