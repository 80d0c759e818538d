"""Unit tests: logistic regression (Newton, gradient descent) and softmax regression."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
import sklearn.linear_model as sk
from sklearn.base import clone
from sklearn.exceptions import ConvergenceWarning, NotFittedError

from algorithms.linear import (
    LogisticRegression,
    SoftmaxRegression,
    logistic_nll,
    logistic_nll_gradient,
    logistic_nll_hessian,
)


def classification_data(n=300, d=4, K=2, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d))
    W = rng.normal(size=(d, K))
    Z = X @ W + rng.normal(size=K) * 0.3
    P = np.exp(Z - Z.max(axis=1, keepdims=True))
    P /= P.sum(axis=1, keepdims=True)
    y = (P.cumsum(axis=1) > rng.random(n)[:, None]).argmax(axis=1)
    return X, y


def sklearn_mle(X, y, C=np.inf):
    return sk.LogisticRegression(C=C, tol=1e-14, max_iter=100_000).fit(X, y)


@pytest.mark.parametrize("solver", ["newton", "gd"])
def test_logistic_mle_matches_sklearn(solver):
    X, y = classification_data()
    m = LogisticRegression(solver=solver, tol=1e-14, max_iter=100_000).fit(X, y)
    ref = sklearn_mle(X, y)
    np.testing.assert_allclose(m.coef_, ref.coef_[0], rtol=1e-5, atol=1e-6)
    assert m.intercept_ == pytest.approx(ref.intercept_[0], abs=1e-6)
    assert m.converged_ and not m.separable_


def test_penalised_logistic_matches_sklearn_with_c_equal_one_over_lambda():
    X, y = classification_data(seed=1)
    m = LogisticRegression(lam=4.0).fit(X, y)
    ref = sklearn_mle(X, y, C=0.25)
    np.testing.assert_allclose(m.coef_, ref.coef_[0], rtol=1e-6, atol=1e-7)


@pytest.mark.parametrize("solver", ["newton", "gd"])
def test_log_likelihood_history_is_non_decreasing(solver):
    X, y = classification_data(seed=2)
    m = LogisticRegression(solver=solver).fit(X, y)
    h = m.log_likelihood_history_
    assert h.size == m.n_iter_ + 1
    assert np.all(np.diff(h) >= -1e-12 * abs(h[0]))


@pytest.mark.parametrize("solver", ["newton", "gd"])
def test_separable_data_warn_and_flag_instead_of_diverging(solver):
    rng = np.random.default_rng(3)
    X = rng.normal(size=(40, 2))
    y = (X[:, 0] + 0.5 * X[:, 1] > 0).astype(int)
    with pytest.warns(ConvergenceWarning, match="separated"):
        m = LogisticRegression(solver=solver).fit(X, y)
    assert m.separable_ and not m.converged_
    assert np.all(np.isfinite(m.coef_))
    if solver == "newton":  # Newton stops at the first strictly separating iterate
        assert np.all(m.predict(X) == y)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        reg = LogisticRegression(solver=solver, lam=1.0, max_iter=100_000).fit(X, y)
    assert reg.converged_ and not reg.separable_


def test_logistic_accepts_string_labels_and_returns_them():
    X, y = classification_data()
    labels = np.array(["no", "yes"])[y]
    m = LogisticRegression().fit(X, labels)
    assert list(m.classes_) == ["no", "yes"]
    assert set(m.predict(X)) <= {"no", "yes"}
    np.testing.assert_allclose(m.predict_proba(X).sum(axis=1), 1.0)
    np.testing.assert_allclose(np.exp(m.predict_log_proba(X)), m.predict_proba(X), rtol=1e-12)


def test_logistic_is_numerically_stable_for_huge_scores():
    Xh = np.array([[1e4, 1.0], [-1e4, 1.0], [3.0, 1.0]])
    y = np.array([0.0, 1.0, 1.0])
    beta = np.array([1.0, 0.0])
    assert np.isfinite(logistic_nll(beta, Xh, y))
    assert logistic_nll(beta, Xh, y) == pytest.approx(2e4 + np.log1p(np.exp(-3.0)), rel=1e-12)
    assert np.all(np.isfinite(logistic_nll_gradient(beta, Xh, y)))
    assert np.all(np.isfinite(logistic_nll_hessian(beta, Xh)))


@pytest.mark.parametrize(
    ("params", "y", "message"),
    [
        ({}, [0, 0, 0, 0], "at least 2"),
        ({}, [0, 1, 2, 1], "at most 2"),
        ({}, [0, 1, 1], "X and y must have as many samples"),
        ({"solver": "lbfgs"}, [0, 1, 0, 1], "solver must be one of"),
        ({"lam": -1.0}, [0, 1, 0, 1], "lam must be"),
        ({"tol": -1.0}, [0, 1, 0, 1], "tol must be"),
        ({"learning_rate": 0.0, "solver": "gd"}, [0, 1, 0, 1], "learning_rate must be"),
        ({"max_iter": 1.5}, [0, 1, 0, 1], "max_iter must be"),
    ],
)
def test_logistic_bad_input_raises(params, y, message):
    X = np.array([[0.0, 1.0], [1.0, 0.5], [2.0, 3.0], [1.0, -1.0]])
    with pytest.raises(ValueError, match=message):
        LogisticRegression(**params).fit(X, y)


GOOD_X = np.array([[0.0, 1.0], [1.0, 0.5], [2.0, 3.0], [1.0, -1.0]])
GOOD_Y = np.array([0, 1, 0, 1])


@pytest.mark.parametrize("cls", [LogisticRegression, SoftmaxRegression])
@pytest.mark.parametrize(
    ("X", "y", "params", "message"),
    [
        (np.where(GOOD_X > 2, np.inf, GOOD_X), GOOD_Y, {}, "X contains infinity"),
        (np.zeros((0, 2)), [], {}, "X is invalid: Found array with 0 sample"),
        (GOOD_X[:, 0], GOOD_Y, {}, "X is invalid: Expected 2D array"),
        (GOOD_X, None, {}, "requires y to be passed"),
        (GOOD_X, [0.1, 0.7, 0.3, 0.9], {}, "Unknown label type: continuous"),
        (GOOD_X, GOOD_Y, {"tol": 0.0}, "tol must be"),
        (GOOD_X, GOOD_Y, {"coef_cap": -1.0}, "coef_cap must be"),
        (GOOD_X, GOOD_Y, {"fit_intercept": 1}, "fit_intercept must be True or False"),
    ],
)
def test_classifiers_refuse_bad_data_and_hyperparameters(cls, X, y, params, message):
    with pytest.raises(ValueError, match=message):
        cls(**params).fit(X, y)


@pytest.mark.parametrize("cls", [LogisticRegression, SoftmaxRegression])
def test_classifiers_check_the_feature_count_at_prediction(cls):
    fitted = cls(lam=1.0).fit(GOOD_X, GOOD_Y)
    for method in ("predict", "predict_proba", "decision_function"):
        with pytest.raises(ValueError, match="X has 3 features"):
            getattr(fitted, method)(np.zeros((2, 3)))


def test_logistic_rejects_nan_and_unfitted_use():
    with pytest.raises(ValueError, match="X contains NaN"):
        LogisticRegression().fit([[np.nan], [1.0]], [0, 1])
    with pytest.raises(NotFittedError):
        LogisticRegression().predict([[1.0]])


# --- softmax ----------------------------------------------------------------------------


def test_both_softmax_parametrisations_give_the_same_mle_probabilities_as_sklearn():
    X, y = classification_data(K=4, seed=5)
    ref = SoftmaxRegression(parametrisation="reference").fit(X, y)
    sym = SoftmaxRegression(parametrisation="symmetric").fit(X, y)
    skl = sklearn_mle(X, y)
    np.testing.assert_allclose(ref.predict_proba(X), skl.predict_proba(X), atol=1e-6)
    np.testing.assert_allclose(sym.predict_proba(X), ref.predict_proba(X), atol=1e-6)
    assert ref.coef_.shape == (3, 4) and sym.coef_.shape == (4, 4)
    assert ref.reference_class_ == 3
    np.testing.assert_allclose(sym.coef_.sum(axis=0), 0.0, atol=1e-9)  # the gauge


def test_softmax_with_two_classes_is_logistic_regression():
    X, y = classification_data(K=2, seed=6)
    sm = SoftmaxRegression().fit(X, y)
    lr = LogisticRegression().fit(X, y)
    # reference class is classes_[-1] = 1, so w_1 (class 0 vs 1) is minus the logistic beta
    np.testing.assert_allclose(sm.coef_[0], -lr.coef_, rtol=1e-7, atol=1e-9)
    np.testing.assert_allclose(sm.predict_proba(X), lr.predict_proba(X), atol=1e-9)
    # binary decision_function: one column, the log-odds of classes_[1] (sklearn's convention)
    np.testing.assert_allclose(sm.decision_function(X), lr.decision_function(X), rtol=1e-7,
                               atol=1e-7)
    assert sm.class_scores(X).shape == (X.shape[0], 2)


def test_symmetric_softmax_converges_where_lbfgs_line_search_gives_up():
    # Seed-3 counterexample of softmax_mle_parametrisations_agree: L-BFGS stops
    # "ABNORMAL" (no representable decrease) above its gradient tolerance; the Newton
    # decrement certifies the point, as for the reference parametrisation.
    X = np.array([-0.3716377028752591, 0.7256861098692662, 1.7256861098692662,
                  1.279506736688123, 1.8132262212825316, -0.5531507873826007,
                  1.7256861098692662, 1.1982703282918763, 2.1018715216165793,
                  0.4804804658888163, 1.4017538943272907, 1.1008587131212269,
                  -1.1302777557349768, 0.7256861098692662, 0.9406689776082959])[:, None]
    y = np.array([1, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0, 0, 1, 1, 0])
    with warnings.catch_warnings():
        warnings.simplefilter("error", ConvergenceWarning)
        sym = SoftmaxRegression(parametrisation="symmetric", max_iter=5000).fit(X, y)
        ref = SoftmaxRegression(parametrisation="reference").fit(X, y)
    assert sym.converged_ and ref.converged_
    np.testing.assert_allclose(sym.predict_proba(X), ref.predict_proba(X), atol=1e-7)


def test_penalised_symmetric_softmax_matches_sklearn_multinomial():
    X, y = classification_data(K=3, seed=7)
    sym = SoftmaxRegression(parametrisation="symmetric", lam=2.0).fit(X, y)
    skl = sklearn_mle(X, y, C=0.5)
    np.testing.assert_allclose(sym.predict_proba(X), skl.predict_proba(X), atol=1e-6)


@pytest.mark.parametrize("param", ["reference", "symmetric"])
def test_softmax_on_separable_data_warns(param):
    X = np.array([[0.0, 0.0], [0.1, 0.0], [5.0, 5.0], [5.1, 5.0], [10.0, 0.0], [10.0, 0.1]])
    y = np.array([0, 0, 1, 1, 2, 2])
    with pytest.warns(ConvergenceWarning, match="separated"):
        m = SoftmaxRegression(parametrisation=param).fit(X, y)
    assert m.separable_ and np.all(m.predict(X) == y)


@pytest.mark.parametrize(
    ("params", "y", "message"),
    [
        ({"parametrisation": "pivot"}, [0, 1, 2, 1], "parametrisation must be one of"),
        ({}, [1, 1, 1, 1], "at least 2"),
        ({"lam": -0.5}, [0, 1, 2, 1], "lam must be"),
    ],
)
def test_softmax_bad_input_raises(params, y, message):
    X = np.array([[0.0, 1.0], [1.0, 0.5], [2.0, 3.0], [1.0, -1.0]])
    with pytest.raises(ValueError, match=message):
        SoftmaxRegression(**params).fit(X, y)


def test_classifiers_follow_the_sklearn_parameter_protocol():
    for est in (LogisticRegression(solver="gd", lam=0.1), SoftmaxRegression(lam=1.0)):
        assert clone(est).get_params() == est.get_params()
    X, y = classification_data(K=3)
    assert SoftmaxRegression().fit(X, y).score(X, y) > 0.5


@pytest.mark.parametrize("learning_rate", [None, "long", "short"])
def test_gradient_descent_stops_at_the_first_iterate_meeting_the_documented_test(learning_rate):
    # tol: stop once ||grad||^2 / (2 L) <= tol * N, L = 1 / learning_rate (or the Lipschitz
    # constant s_max^2 / 4 by default). Features of scale 0.1 make L < 1, so a step of
    # 1/L is longer than 1 and L and 1/L differ (a mutant swapping them is seen).
    X, y = classification_data(n=80, d=2, seed=3)
    X = 0.1 * X
    lipschitz = np.linalg.norm(X, 2) ** 2 / 4.0
    step = {None: None, "long": 1.0 / lipschitz, "short": 0.5 / lipschitz}[learning_rate]
    L = lipschitz if step is None else 1.0 / step
    tol = 1e-6
    m = LogisticRegression(solver="gd", fit_intercept=False, learning_rate=step, tol=tol,
                           max_iter=100_000).fit(X, y)
    assert m.converged_ and L < 1.0
    meets = [float(np.sum(logistic_nll_gradient(b[:, 0], X, y.astype(float)) ** 2))
             / (2.0 * L) <= tol * X.shape[0] for b in m.coef_history_]
    assert meets[-1] and not any(meets[:-1])


def test_softmax_polish_reports_no_convergence_when_no_step_lowers_the_objective():
    """newton_polish returns converged = False when its line search finds no step that
    does not increase the objective (here every point but the start is worse) and the
    decrement test has not passed: the point is returned unchanged, uncertified."""
    from algorithms.linear._softmax_newton import newton_polish

    rng = np.random.default_rng(0)
    X = rng.normal(size=(8, 2))
    Xh = np.column_stack([X, np.ones(8)])
    K = 3
    theta0 = np.zeros(Xh.shape[1] * K)
    grad = rng.normal(size=theta0.size)

    def fun(theta):
        return (0.0 if np.array_equal(theta, theta0) else 1.0), grad

    theta, converged, accepted = newton_polish(fun, theta0.copy(), Xh, K,
                                               np.zeros(theta0.size), threshold=1e-300)
    assert not converged
    assert accepted == []
    assert np.array_equal(theta, theta0)
