"""Behaviour of classical MDS, Isomap, LLE, the metric distances and NCA (003 §8.2, §8.5,
§8.6): warnings, refusals naming the argument, consistency between entry points."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from sklearn.exceptions import ConvergenceWarning

from algorithms.dimred import (
    ClassicalMDS,
    Isomap,
    LocallyLinearEmbedding,
    NeighbourhoodComponentsAnalysis,
    NonEuclideanWarning,
    check_metric_matrix,
    classical_mds,
    double_centering,
    lle_weights,
    mahalanobis_distance,
    metric_from_projection,
    nca_gradient,
    nca_probabilities,
    neighbourhood_graph,
    weighted_euclidean_distance,
)

K13 = np.array([[0.0, 1, 1, 1], [1, 0, 2, 2], [1, 2, 0, 2], [1, 2, 2, 0]])


def _pairwise(Z):
    return np.sqrt(((Z[:, None] - Z[None]) ** 2).sum(axis=-1))


def _sheet(m=60, seed=0):
    rng = np.random.default_rng(seed)
    t = rng.uniform(0, 3, m)
    return np.column_stack([np.cos(t), rng.uniform(0, 1, m), np.sin(t)])


# ---------------------------------------------------------------------------
# MDS
# ---------------------------------------------------------------------------


def test_mds_clips_negative_kept_eigenvalues_with_a_warning():
    with pytest.warns(NonEuclideanWarning, match="not Euclidean"):
        r = classical_mds(K13, 4)
    assert r.n_clipped == 1 and r.eigenvalues[-1] < 0
    assert np.all(r.embedding[:, -1] == 0.0)
    with warnings.catch_warnings():
        warnings.simplefilter("error", NonEuclideanWarning)
        classical_mds(K13, 2)  # the two kept eigenvalues are positive: no warning


def test_mds_estimator_modes_agree_and_scale():
    X = np.random.default_rng(1).normal(size=(15, 3)) * 1e-200
    a = ClassicalMDS(2).fit_transform(X)
    b = ClassicalMDS(2, dissimilarity="precomputed").fit_transform(_pairwise(X * 1e200)) * 1e-200
    np.testing.assert_allclose(np.abs(a), np.abs(b), rtol=1e-8, atol=1e-214)
    assert np.all(np.isfinite(a)) and np.max(np.abs(a)) > 0


@pytest.mark.parametrize("D, what", [(np.ones((3, 4)), "square"),
                                     (np.array([[0, 1], [2, 0.0]]), "symmetric"),
                                     (np.array([[1, 1], [1, 0.0]]), "diagonal"),
                                     (np.array([[0, -1], [-1, 0.0]]), "non-negative")])
def test_mds_refuses_bad_distance_matrices(D, what):
    with pytest.raises(ValueError, match=rf"\bD\b.*{what}"):
        double_centering(D)


def test_mds_refuses_too_many_components():
    with pytest.raises(ValueError, match="n_components"):
        classical_mds(K13, 5)
    with pytest.raises(ValueError, match="n_components"):
        ClassicalMDS(4).fit(np.ones((5, 3)) * np.arange(5)[:, None])


# ---------------------------------------------------------------------------
# Isomap
# ---------------------------------------------------------------------------


def test_isomap_refuses_a_disconnected_graph():
    X = np.vstack([_sheet(30, 0), _sheet(30, 1) + 100.0])
    with pytest.raises(ValueError, match="disconnected: 2 connected components"):
        Isomap(n_neighbors=5).fit(X)
    with pytest.raises(ValueError, match="disconnected"):
        Isomap(n_neighbors=None, radius=0.5).fit(X)


def test_isomap_transform_of_training_samples_is_the_embedding():
    X = _sheet(80)
    est = Isomap(n_neighbors=8).fit(X)
    np.testing.assert_allclose(est.transform(X), est.embedding_, atol=1e-9)


def test_isomap_epsilon_graph_and_graph_function():
    X = _sheet(80)
    est = Isomap(n_neighbors=None, radius=0.6).fit(X)
    G = neighbourhood_graph(X, None, radius=0.6).toarray()
    np.testing.assert_allclose(G, G.T)
    D = _pairwise(X)
    assert np.all((G > 0) <= (D <= 0.6))
    assert np.all(est.dist_matrix_ >= D - 1e-12)
    with pytest.raises(ValueError, match="n_neighbors.*radius"):
        Isomap(n_neighbors=5, radius=0.6).fit(X)
    with pytest.raises(ValueError, match="X\\[0\\] has no training sample within radius"):
        est.transform(X[:1] + 50.0)


def test_isomap_duplicates_are_joined_at_distance_zero():
    X = np.vstack([_sheet(30), _sheet(30)[:5]])
    est = Isomap(n_neighbors=6).fit(X)
    np.testing.assert_allclose(est.dist_matrix_[30:, :5], est.dist_matrix_[:5, :5], atol=1e-12)


# ---------------------------------------------------------------------------
# LLE
# ---------------------------------------------------------------------------


def test_lle_weights_sum_to_one_and_reg_zero_needs_k_le_d():
    X = _sheet(40)
    w = lle_weights(X, 6, 1e-3)
    np.testing.assert_allclose(w.weights.sum(axis=1), 1.0)
    np.testing.assert_allclose(np.asarray(w.matrix.sum(axis=1)).ravel(), 1.0)
    with pytest.raises(ValueError, match=r"reg=0.0: the local Gram matrix C .* singular"):
        lle_weights(X, 6, 0.0)
    w0 = lle_weights(X, 3, 0.0)  # k = d: C invertible
    assert np.all(np.isfinite(w0.weights))


def test_lle_discards_the_constant_eigenvector():
    est = LocallyLinearEmbedding(n_neighbors=8, n_components=2).fit(_sheet(60))
    assert abs(est.eigenvalues_[0]) < 1e-10
    np.testing.assert_allclose(est.embedding_.sum(axis=0), 0.0, atol=1e-8)
    np.testing.assert_allclose(est.embedding_.T @ est.embedding_, np.eye(2), atol=1e-8)
    assert est.transform(_sheet(5, 3)).shape == (5, 2)


def test_lle_refuses_too_many_components_and_neighbours():
    X = _sheet(10)
    with pytest.raises(ValueError, match="n_neighbors"):
        LocallyLinearEmbedding(n_neighbors=10).fit(X)
    with pytest.raises(ValueError, match="n_components"):
        LocallyLinearEmbedding(n_neighbors=3, n_components=4).fit(X)


# ---------------------------------------------------------------------------
# Distances
# ---------------------------------------------------------------------------


def test_mahalanobis_refuses_an_indefinite_matrix_and_accepts_p():
    with pytest.raises(ValueError, match=r"\bM\b must be positive semi-definite"):
        mahalanobis_distance([0, 0], [1, 1], np.array([[1.0, 0.0], [0.0, -1.0]]))
    with pytest.raises(ValueError, match=r"\bM\b must be symmetric"):
        check_metric_matrix(np.array([[1.0, 1.0], [0.0, 1.0]]))
    P = np.array([[1.0, 2.0], [0.0, 1.0]])
    a, b = np.array([[1.0, 2.0], [3.0, -1.0]]), np.zeros(2)
    np.testing.assert_allclose(mahalanobis_distance(a, b, P=P),
                               mahalanobis_distance(a, b, metric_from_projection(P)))
    with pytest.raises(ValueError, match="Exactly one of M and P"):
        mahalanobis_distance(a, b)


def test_distances_stay_finite_at_extreme_magnitudes():
    a, b = np.array([1e300, -1e300]), np.array([-1e300, 1e300])
    d = weighted_euclidean_distance(a, b, np.array([1.0, 1.0]))
    np.testing.assert_allclose(d, 2e300 * np.sqrt(2))
    np.testing.assert_allclose(mahalanobis_distance(a, b, np.eye(2)), d)
    with pytest.raises(ValueError, match="weights must be non-negative"):
        weighted_euclidean_distance(a, b, np.array([1.0, -1.0]))


# ---------------------------------------------------------------------------
# NCA
# ---------------------------------------------------------------------------


def _labelled(m=40, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(m, 3))
    return X, (X[:, 0] + 0.3 * rng.normal(size=m) > 0).astype(int)


def test_nca_warns_when_it_stops_early_and_records_its_history():
    X, y = _labelled()
    with pytest.warns(ConvergenceWarning, match="without converging"):
        est = NeighbourhoodComponentsAnalysis(2, init="identity", max_iter=1).fit(X, y)
    assert not est.converged_ and est.n_iter_ == 1
    assert len(est.objective_history_) == est.n_iter_ + 1
    est = NeighbourhoodComponentsAnalysis(2, init="identity").fit(X, y)
    assert est.converged_
    assert est.objective_history_[-1] < est.objective_history_[0]
    np.testing.assert_allclose(est.transform(X), X @ est.projection_)
    np.testing.assert_allclose(est.metric_, est.projection_ @ est.projection_.T)


def test_nca_random_init_is_reproducible_and_array_init_is_checked():
    X, y = _labelled()
    a = NeighbourhoodComponentsAnalysis(2, init="random", random_state=3, max_iter=5)
    b = NeighbourhoodComponentsAnalysis(2, init="random", random_state=3, max_iter=5)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        np.testing.assert_array_equal(a.fit(X, y).projection_, b.fit(X, y).projection_)
    with pytest.raises(ValueError, match="init"):
        NeighbourhoodComponentsAnalysis(2, init=np.ones((2, 2))).fit(X, y)


def test_nca_probabilities_of_far_samples_are_finite():
    X = np.array([[0.0], [1e3], [2e3]])
    p, p_i = nca_probabilities(X, [0, 0, 1], np.eye(1))
    assert np.all(np.isfinite(p))
    np.testing.assert_allclose(p, [[0, 1, 0], [0.5, 0, 0.5], [0, 1, 0]])
    np.testing.assert_allclose(p_i, [1, 0.5, 0])
    value, grad = nca_gradient(X, [0, 0, 1], np.eye(1))
    assert np.isfinite(value) and np.all(np.isfinite(grad))
