"""Unit and bad-input tests for algorithms.linear.LinearDiscriminantAnalysis."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
import scipy.linalg
from sklearn.base import clone
from sklearn.discriminant_analysis import LinearDiscriminantAnalysis as SklearnLDA

from algorithms.linear import (
    LinearDiscriminantAnalysis,
    fisher_direction,
    rayleigh_quotient,
    scatter_matrices,
)


def _blobs(rng, means, n=30, cov=None):
    means = np.asarray(means, dtype=float)
    d = means.shape[1]
    L = np.linalg.cholesky(np.eye(d) if cov is None else cov)
    X = np.vstack([m + rng.standard_normal((n, d)) @ L.T for m in means])
    return X, np.repeat(np.arange(len(means)), n)


@pytest.fixture
def rng():
    return np.random.default_rng(7)


def test_scatter_matrices_are_sums_and_decompose_total_scatter(rng):
    X, y = _blobs(rng, [[0, 0, 0], [2, 1, 0], [0, 3, 1]], n=12)
    sc = scatter_matrices(X, y)
    S_w = sum((X[y == k] - X[y == k].mean(0)).T @ (X[y == k] - X[y == k].mean(0)) for k in range(3))
    np.testing.assert_allclose(sc.S_w, S_w, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(sc.S_w + sc.S_b, sc.S_t, rtol=1e-12, atol=1e-10)
    np.testing.assert_allclose(sc.class_scatters.sum(0), sc.S_w, rtol=1e-12, atol=1e-12)
    np.testing.assert_array_equal(sc.counts, [12, 12, 12])


def test_two_class_direction_is_the_svd_solution_of_sw_w_equals_mean_difference(rng):
    X, y = _blobs(rng, [[0, 0], [3, 1]], n=40, cov=[[2.0, 0.8], [0.8, 1.0]])
    lda = LinearDiscriminantAnalysis().fit(X, y)
    sc = scatter_matrices(X, y)
    expected = scipy.linalg.solve(sc.S_w, sc.means[0] - sc.means[1], assume_a="pos")
    np.testing.assert_allclose(lda.w_, expected, rtol=1e-10)
    np.testing.assert_allclose(fisher_direction(sc.S_w, sc.means[0], sc.means[1]), expected,
                               rtol=1e-10)
    # class 0 projects above class 1 with the note's sign
    assert lda.w_ @ sc.means[0] > lda.w_ @ sc.means[1]


def test_two_class_predictions_and_direction_match_sklearn(rng):
    X, y = _blobs(rng, [[0, 0, 0], [1.5, 1, -1]], n=50)
    ours = LinearDiscriminantAnalysis().fit(X, y)
    ref = SklearnLDA(solver="eigen").fit(X, y)  # equal class sizes: priors do not matter
    np.testing.assert_array_equal(ours.predict(X), ref.predict(X))
    cos = abs(ours.w_ @ ref.coef_[0]) / np.linalg.norm(ours.w_) / np.linalg.norm(ref.coef_[0])
    assert cos == pytest.approx(1.0, abs=1e-10)


def test_multiclass_projection_spans_the_same_subspace_as_sklearn(rng):
    X, y = _blobs(rng, [[0, 0, 0, 0], [2, 0, 1, 0], [0, 3, 0, 1], [1, 1, 3, 3]], n=25)
    ours = LinearDiscriminantAnalysis().fit(X, y)
    ref = SklearnLDA(solver="eigen").fit(X, y)
    Q1, _ = np.linalg.qr(ours.scalings_)
    Q2, _ = np.linalg.qr(ref.scalings_[:, :3])
    np.testing.assert_allclose(np.linalg.svd(Q1.T @ Q2)[1], 1.0, atol=1e-8)
    np.testing.assert_array_equal(ours.predict(X), ref.predict(X))


def test_projection_is_sw_orthonormal_and_solves_the_generalised_eigenproblem(rng):
    X, y = _blobs(rng, [[0, 0, 0], [2, 0, 1], [0, 3, 0], [1, 1, 3]], n=20)
    lda = LinearDiscriminantAnalysis().fit(X, y)
    W, lam = lda.scalings_, lda.eigenvalues_
    np.testing.assert_allclose(W.T @ lda.S_w_ @ W, np.eye(3), atol=1e-10)
    np.testing.assert_allclose(lda.S_b_ @ W, lda.S_w_ @ W * lam, rtol=1e-8, atol=1e-8)
    assert np.all(np.diff(lam) <= 0)
    np.testing.assert_allclose(rayleigh_quotient(W.T, lda.S_b_, lda.S_w_), lam, rtol=1e-10)


def test_transform_has_at_most_m_minus_one_columns(rng):
    X, y = _blobs(rng, [[0] * 6, [1] * 6, [0, 2, 0, 2, 0, 2]], n=15)
    assert LinearDiscriminantAnalysis().fit(X, y).transform(X).shape == (45, 2)
    assert LinearDiscriminantAnalysis(n_components=1).fit(X, y).transform(X).shape == (45, 1)


def test_classifier_is_nearest_mahalanobis_centroid_with_all_components(rng):
    X, y = _blobs(rng, [[0, 0, 0], [1, 0, 1], [0, 1, 0]], n=20, cov=np.diag([1.0, 4.0, 0.25]))
    lda = LinearDiscriminantAnalysis().fit(X, y)
    P = np.linalg.inv(lda.S_w_)
    diff = X[:, None, :] - lda.means_[None]
    d2 = np.einsum("nki,ij,nkj->nk", diff, P, diff)
    np.testing.assert_array_equal(lda.predict(X), lda.classes_[np.argmin(d2, 1)])


def test_binary_decision_function_sign_matches_prediction(rng):
    X, y = _blobs(rng, [[0, 0], [2, 2]], n=20)
    lda = LinearDiscriminantAnalysis().fit(X, ["a" if v == 0 else "b" for v in y])
    s = lda.decision_function(X)
    assert s.shape == (40,)
    np.testing.assert_array_equal(lda.predict(X), np.where(s > 0, "b", "a"))


def test_singular_within_scatter_is_regularised_with_a_warning(rng):
    X, y = _blobs(rng, [[0, 0], [2, 1], [1, 3]], n=10)
    X = np.column_stack([X, X[:, 0] + X[:, 1]])  # collinear third feature
    with pytest.warns(scipy.linalg.LinAlgWarning, match="S_w is singular"):
        lda = LinearDiscriminantAnalysis().fit(X, y)
    assert lda.reg_ > 0 and np.all(np.isfinite(lda.scalings_))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert LinearDiscriminantAnalysis(reg=1e-3).fit(X, y).reg_ == 1e-3


def test_estimator_clones_and_refits_deterministically(rng):
    X, y = _blobs(rng, [[0, 0], [2, 1], [1, 3]], n=10)
    a = LinearDiscriminantAnalysis(reg=0.1)
    b = clone(a)
    np.testing.assert_array_equal(a.fit(X, y).transform(X), b.fit(X, y).transform(X))


@pytest.mark.parametrize(
    ("X", "y", "kwargs", "match"),
    [
        ([[0.0, np.nan], [1.0, 1.0]], [0, 1], {}, "X"),
        ([[0.0, np.inf], [1.0, 1.0]], [0, 1], {}, "X"),
        ([[0.0, 1.0], [1.0, 1.0]], [0, 0], {}, "at least 2 classes"),
        ([[0.0, 1.0], [1.0, 1.0]], [0, 1, 1], {}, "X and y must have as many samples"),
        (np.zeros((0, 2)), [], {}, "X"),
        ([[0.0], [1.0]], [0.5, 1.5], {}, "y"),
        ([[0.0], [1.0], [2.0]], [0, 1, 2], {"n_components": 2}, "n_components"),
        ([[0.0], [1.0]], [0, 1], {"n_components": 0}, "n_components"),
        ([[0.0], [1.0]], [0, 1], {"reg": -1.0}, "reg"),
        ([[0.0], [1.0]], [0, 1], {"reg": np.nan}, "reg"),
    ],
)
def test_bad_input_raises_value_error_naming_the_argument(X, y, kwargs, match):
    with pytest.raises(ValueError, match=match):
        LinearDiscriminantAnalysis(**kwargs).fit(X, y)


def test_predict_checks_fitted_and_feature_count(rng):
    from sklearn.exceptions import NotFittedError

    with pytest.raises(NotFittedError):
        LinearDiscriminantAnalysis().predict([[0.0]])
    X, y = _blobs(rng, [[0, 0], [2, 1]], n=5)
    lda = LinearDiscriminantAnalysis().fit(X, y)
    with pytest.raises(ValueError, match="X has 3 features"):
        lda.predict(np.zeros((2, 3)))
    with pytest.raises(ValueError, match="X"):
        lda.transform([[np.nan, 0.0]])
