"""Unit tests for algorithms.svm: SMOClassifier and SVR against scikit-learn's libsvm,
solver behaviour, and bad input."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from sklearn.exceptions import ConvergenceWarning, NotFittedError
from sklearn.svm import SVC
from sklearn.svm import SVR as SKLEARN_SVR

from algorithms.svm import SVR, SMOClassifier
from algorithms.svm._smo_solver import face_newton_step


@pytest.fixture
def blobs():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(120, 3))
    y = np.where(X[:, 0] + 0.5 * X[:, 1] + 0.3 * rng.normal(size=120) > 0, 1, -1)
    return X, y


@pytest.mark.parametrize(
    ("kernel", "params", "sk"),
    [
        ("linear", None, {"kernel": "linear"}),
        ("rbf", {"sigma": 1.5}, {"kernel": "rbf", "gamma": 1 / (2 * 1.5**2)}),
        ("poly", {"degree": 3, "coef0": 1.0}, {"kernel": "poly", "degree": 3, "gamma": 1.0,
                                                "coef0": 1.0}),
    ],
)
@pytest.mark.parametrize("working_set", ["second_order", "max_violating"])
def test_smo_matches_libsvm_decision_function(blobs, kernel, params, sk, working_set):
    X, y = blobs
    ours = SMOClassifier(C=2.0, kernel=kernel, kernel_params=params, tol=1e-8,
                         working_set=working_set).fit(X, y)
    ref = SVC(C=2.0, tol=1e-8, **sk).fit(X, y)
    scale = np.abs(ref.decision_function(X)).max()
    np.testing.assert_allclose(ours.decision_function(X), ref.decision_function(X),
                               atol=1e-5 * scale)
    assert ours.converged_
    assert np.all(np.diff(ours.objective_history_) >= -1e-12)


def test_hard_margin_has_margin_one_at_support_vectors():
    X = np.array([[0.0, 0.0], [1.0, 1.0], [3.0, 3.0], [4.0, 4.5]])
    y = np.array([-1, -1, 1, 1])
    m = SMOClassifier(C=np.inf, tol=1e-10).fit(X, y)
    yf = np.where(y == 1, 1, -1) * m.decision_function(X)
    np.testing.assert_allclose(yf[m.support_], 1.0, atol=1e-8)
    assert np.all(yf >= 1 - 1e-8)
    np.testing.assert_allclose(m.coef_, m.dual_coef_ @ m.support_vectors_)


def test_labels_are_mapped_back_in_predict(blobs):
    X, y = blobs
    labels = np.where(y > 0, "spam", "ham")
    m = SMOClassifier(C=1.0).fit(X, labels)
    assert set(m.predict(X)) <= {"spam", "ham"}
    assert m.score(X, labels) > 0.8


def test_hard_margin_on_contradictory_duplicates_raises():
    X = np.array([[0.0], [0.0], [1.0]])
    y = np.array([1, -1, 1])
    with pytest.raises(ValueError, match="C"):
        SMOClassifier(C=np.inf).fit(X, y)


def test_max_iter_gives_convergence_warning_and_flag(blobs):
    X, y = blobs
    with pytest.warns(ConvergenceWarning):
        m = SMOClassifier(C=10.0, tol=1e-12, max_iter=3).fit(X, y)
    assert not m.converged_ and m.n_iter_ == 3


def test_small_kernel_cache_gives_the_same_solution(blobs):
    X, y = blobs
    big = SMOClassifier(C=1.0, kernel="rbf", tol=1e-8).fit(X, y)
    small = SMOClassifier(C=1.0, kernel="rbf", tol=1e-8, cache_size=0.01).fit(X, y)
    assert small.cache_hits_[1] > 0  # columns were computed on demand
    np.testing.assert_allclose(small.decision_function(X), big.decision_function(X), atol=1e-9)


def test_svr_matches_libsvm():
    rng = np.random.default_rng(1)
    X = rng.normal(size=(80, 2))
    y = X @ [1.0, -2.0] + 0.2 * rng.normal(size=80)
    for kernel, params, sk in [("linear", None, {"kernel": "linear"}),
                               ("rbf", {"sigma": 1.0}, {"kernel": "rbf", "gamma": 0.5})]:
        ours = SVR(C=3.0, epsilon=0.1, kernel=kernel, kernel_params=params, tol=1e-8).fit(X, y)
        ref = SKLEARN_SVR(C=3.0, epsilon=0.1, tol=1e-8, **sk).fit(X, y)
        np.testing.assert_allclose(ours.predict(X), ref.predict(X), atol=1e-5)
        assert np.all(ours.alpha_ * ours.alpha_hat_ <= 1e-12)


BAD_CLASSIFIER_PARAMS = [
    ({"C": 0.0}, "C"),
    ({"C": -1.0}, "C"),
    ({"C": float("nan")}, "C"),
    ({"tol": 0.0}, "tol"),
    ({"max_iter": 0}, "max_iter"),
    ({"working_set": "random"}, "working_set"),
    ({"kernel": "cosine"}, "kernel"),
    ({"kernel": "rbf", "kernel_params": {"sigma": 0.0}}, "sigma"),
    ({"kernel": "poly", "kernel_params": {"degree": 1.5}}, "degree"),
    ({"kernel": "sigmoid", "kernel_params": {"theta": 1.0}}, "theta"),
    ({"kernel": "rbf", "kernel_params": {"width": 1.0}}, "kernel_params"),
    ({"cache_size": -1}, "cache_size"),
]


@pytest.mark.parametrize(("params", "name"), BAD_CLASSIFIER_PARAMS)
def test_bad_hyperparameters_raise_value_error_naming_them(blobs, params, name):
    X, y = blobs
    with pytest.raises(ValueError, match=name):
        SMOClassifier(**params).fit(X, y)


@pytest.mark.parametrize(
    ("X", "y", "name"),
    [
        (np.array([[0.0], [np.nan]]), np.array([1, -1]), "X"),
        (np.array([[0.0], [np.inf]]), np.array([1, -1]), "X"),
        (np.array([0.0, 1.0]), np.array([1, -1]), "X"),
        (np.zeros((0, 2)), np.zeros(0), "X"),
        (np.array([[0.0], [1.0]]), np.array([1, 1]), "y must contain at least 2 classes"),
        (np.array([[0.0], [1.0], [2.0]]), np.array([0, 1, 2]), "binary .*two classes"),
        (np.array([[0.0], [1.0]]), np.array([1, -1, 1]), "X and y"),
        (np.array([[0.0], [1.0], [2.0]]), np.array([0.1, 0.5, 0.9]), "Unknown label type"),
        (np.array([[0.0], [1.0]]), None, "y"),
    ],
)
def test_bad_data_raises_value_error(X, y, name):
    with pytest.raises(ValueError, match=name):
        SMOClassifier().fit(X, y)


def test_predict_checks_fitted_and_feature_count(blobs):
    X, y = blobs
    with pytest.raises(NotFittedError):
        SMOClassifier().predict(X)
    m = SMOClassifier().fit(X, y)
    with pytest.raises(ValueError, match="features"):
        m.predict(X[:, :2])
    with pytest.raises(AttributeError):
        _ = SMOClassifier(kernel="rbf").fit(X, y).coef_


@pytest.mark.parametrize(
    ("params", "name"),
    [({"epsilon": -0.1}, "epsilon"), ({"C": np.inf}, "C"), ({"C": 0}, "C"),
     ({"tol": -1.0}, "tol"), ({"epsilon": np.nan}, "epsilon"), ({"max_iter": 2.5}, "max_iter"),
     ({"kernel_params": "sigma=1"}, "kernel_params")],
)
def test_svr_bad_hyperparameters(params, name):
    X = np.array([[0.0], [1.0], [2.0]])
    with pytest.raises(ValueError, match=name):
        SVR(**params).fit(X, np.array([0.0, 1.0, 2.0]))


@pytest.mark.parametrize(
    ("X", "y", "name"),
    [
        (np.array([[0.0], [1.0]]), np.array([0.0, np.nan]), "y"),
        (np.array([[0.0], [1.0]]), np.array([0.0, np.inf]), "y"),
        (np.array([[0.0], [1.0]]), np.array([0.0, 1.0, 2.0]), "X and y"),
        (np.array([[0.0], [1.0]]), None, "y"),
        (np.array([[0.0], [np.nan]]), np.array([0.0, 1.0]), "X"),
        (np.array([0.0, 1.0]), np.array([0.0, 1.0]), "X"),
        (np.zeros((0, 1)), np.zeros(0), "X"),
    ],
)
def test_svr_bad_data(X, y, name):
    with pytest.raises(ValueError, match=name):
        SVR().fit(X, y)


def test_svr_predict_checks_fitted_and_feature_count():
    X = np.array([[0.0], [1.0], [2.0]])
    with pytest.raises(NotFittedError):
        SVR().predict(X)
    m = SVR().fit(X, np.array([0.0, 1.0, 2.0]))
    with pytest.raises(ValueError, match="X has 2 features"):
        m.predict(np.ones((2, 2)))
    with pytest.raises(ValueError, match="X contains NaN"):
        m.predict(np.array([[np.nan]]))


# ---- ill-conditioned faces: the face Newton step (polish) ------------------------------

#: Seed-11 regression input: x_0 and x_6 coincide with opposite labels; in the degree-2
#: feature space the free support vectors are nearly affinely dependent, so the dual
#: restricted to them has curvature ratio ~5e-7 and pair updates crawl (libsvm needs
#: ~150 000 iterations for tol 1e-12 here).
ILL_X = np.array([[0.16, -0.12], [-0.46, -0.28], [0.4, 0.2], [0.28, 0.04], [-0.2, -0.6],
                  [0.41, 0.21], [0.16, -0.12]])
ILL_Y = np.array([1, -1, 1, 1, 1, 1, -1])

#: Seed-3 regression input: x_3 is the midpoint of x_0 and x_6 up to 4e-8, a flat direction
#: of the dual (curvature ~2e-15) along which the gradient is 7.5e-9 in exact arithmetic.
FLAT_X = np.array([
    [0.3777819706200425, 0.12778197062004248, 0.3777819706200425],
    [0.25, 0.25, 0.0],
    [0.2944486372867091, 0.2944486372867091, 0.2944486372867091],
    [0.2944486372867091, 0.2944486372867091, 0.2944486372867091],
    [0.2944486372867091, 0.2944486372867091, 0.2944486372867091],
    [0.2944486372867091, 0.2944486372867091, 0.2944486372867091],
    [0.2111152840851609, 0.4611152840851609, 0.21111534368980567],
    [0.3777819706200425, 0.12778197062004248, 0.3777819706200425]])
FLAT_Y = np.array([1, -1, 1, 1, 1, 1, 1, -1])


def kkt_violation_from_scratch(alpha, y, K, C):
    """max over I_up of -y G minus min over I_low, with G recomputed from alpha."""
    v = y - (alpha * y) @ K
    up = ((y > 0) & (alpha < C)) | ((y < 0) & (alpha > 0))
    low = ((y > 0) & (alpha > 0)) | ((y < 0) & (alpha < C))
    return float(v[up].max() - v[low].min())


@pytest.mark.parametrize(
    ("X", "y", "C", "kernel", "params"),
    [(ILL_X, ILL_Y, 0.1, "poly", {"degree": 2}), (FLAT_X, FLAT_Y, 1.0, "linear", None)],
    ids=["ill-conditioned-face", "flat-direction"],
)
@pytest.mark.parametrize("working_set", ["second_order", "max_violating"])
def test_smo_converges_on_ill_conditioned_faces(X, y, C, kernel, params, working_set):
    with warnings.catch_warnings():
        warnings.simplefilter("error", ConvergenceWarning)
        m = SMOClassifier(C=C, kernel=kernel, kernel_params=params, tol=1e-9,
                          working_set=working_set).fit(X, y)
    assert m.converged_ and m.n_iter_ < 1000 and m.polish_steps_.size >= 1
    ys = np.where(y > 0, 1.0, -1.0)
    assert kkt_violation_from_scratch(m.alpha_, ys, m.kernel_(X), C) <= 1e-9
    h = m.objective_history_
    assert np.all(np.diff(h) >= -1e-12 * np.maximum(1.0, np.abs(h[1:])))
    assert np.all((m.alpha_ >= 0) & (m.alpha_ <= C)) and abs(m.alpha_ @ ys) <= 1e-12


@pytest.mark.parametrize(
    ("X", "y", "C", "kernel", "params"),
    [(ILL_X, ILL_Y, 0.1, "poly", {"degree": 2}), (FLAT_X, FLAT_Y, 1.0, "linear", None)],
    ids=["ill-conditioned-face", "flat-direction"],
)
def test_plain_pair_updates_crawl_on_the_same_faces(X, y, C, kernel, params):
    """The cause of the stall: without the face step, 20 000 pair updates leave a KKT
    violation above 1e-9 (the gradient is exact: recomputing it agrees)."""
    with pytest.warns(ConvergenceWarning):
        m = SMOClassifier(C=C, kernel=kernel, kernel_params=params, tol=1e-9,
                          max_iter=20_000, polish=False).fit(X, y)
    ys = np.where(y > 0, 1.0, -1.0)
    fresh = kkt_violation_from_scratch(m.alpha_, ys, m.kernel_(X), C)
    assert not m.converged_ and fresh > 1e-9
    np.testing.assert_allclose(fresh, m.kkt_violation_, rtol=1e-6)


def test_polished_solution_matches_libsvm_on_the_ill_conditioned_face():
    ours = SMOClassifier(C=0.1, kernel="poly", kernel_params={"degree": 2}, tol=1e-9)
    ours.fit(ILL_X, ILL_Y)
    ref = SVC(C=0.1, kernel="poly", degree=2, gamma=1.0, coef0=0.0, tol=1e-12)
    ref.fit(ILL_X, ILL_Y)
    np.testing.assert_allclose(ours.decision_function(ILL_X), ref.decision_function(ILL_X),
                               atol=1e-8)
    assert ours.alpha_[0] == 0.0  # the positive copy of the duplicate leaves the face


def test_face_newton_step_reaches_the_face_minimum_in_one_step():
    rng = np.random.default_rng(3)
    X = rng.normal(size=(6, 3))
    z = np.array([1.0, 1.0, 1.0, -1.0, -1.0, -1.0])
    K = X @ X.T
    Q = z[:, None] * z[None, :] * K
    beta = np.full(6, 0.5)  # feasible: z.beta = 0, all free in [0, 100]
    upper = np.full(6, 100.0)
    free = np.arange(6)
    new = face_newton_step(beta, z, -np.ones(6), upper, free, K)
    assert new is not None and abs(z @ new) <= 1e-12
    v = -z * (Q @ new - 1.0)
    if np.all((new > 0) & (new < 100.0)):  # unblocked: -z G is constant on the face
        np.testing.assert_allclose(v, v.mean(), atol=1e-10)
    f = lambda b: 0.5 * b @ Q @ b - b.sum()  # noqa: E731
    assert f(new) < f(beta)


def test_bad_polish_flag_raises_value_error_naming_it(blobs):
    X, y = blobs
    with pytest.raises(ValueError, match="polish"):
        SMOClassifier(polish="yes").fit(X, y)
    with pytest.raises(ValueError, match="polish"):
        SVR(polish=1).fit(X, X[:, 0])


def test_documented_defaults():
    """The defaults the docstrings state (a changed default is a silent behaviour change)."""
    common = {"C": 1.0, "kernel": "linear", "kernel_params": None, "tol": 1e-3,
              "max_iter": 100_000, "working_set": "second_order", "cache_size": 200.0,
              "polish": True, "record_history": False}
    assert SMOClassifier().get_params() == common
    assert SVR().get_params() == {**common, "epsilon": 0.1}
