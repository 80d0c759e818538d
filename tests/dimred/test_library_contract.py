"""What the dimred estimators promise beyond the notes: documented defaults, the PCA
variance-threshold rule at its edges, NCA's start at a given projection, and the
distance-weighted kNN vote without a warning at zero distance. The claims state the
notes and pass every such parameter explicitly, so these are checked here (mutation
samples seeds 0 and 1 of docs/mutation/dimred.md)."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

from algorithms.dimred import (
    PCA,
    ClassicalMDS,
    Isomap,
    KernelPCA,
    KNNClassifier,
    KNNRegressor,
    LocallyLinearEmbedding,
    NeighbourhoodComponentsAnalysis,
    knn_weights,
)

#: The constructor defaults as the docstrings state them.
DOCUMENTED_DEFAULTS = {
    ClassicalMDS: {"n_components": 2, "dissimilarity": "euclidean"},
    Isomap: {"n_neighbors": 5, "radius": None, "n_components": 2},
    KNNClassifier: {"n_neighbors": 5, "weights": "uniform", "algorithm": "auto"},
    KNNRegressor: {"n_neighbors": 5, "weights": "uniform", "algorithm": "auto"},
    KernelPCA: {"n_components": None, "kernel": "rbf", "kernel_params": None, "center": True},
    LocallyLinearEmbedding: {"n_neighbors": 5, "n_components": 2, "reg": 1e-3},
    NeighbourhoodComponentsAnalysis: {"n_components": None, "init": "pca", "max_iter": 100,
                                      "tol": 1e-5, "random_state": None},
    PCA: {"n_components": None, "variance_threshold": None},
}


@pytest.mark.parametrize("cls", list(DOCUMENTED_DEFAULTS), ids=lambda c: c.__name__)
def test_estimators_default_to_their_documented_hyperparameters(cls):
    params = cls().get_params()
    want = DOCUMENTED_DEFAULTS[cls]
    assert params == want
    assert all(type(params[k]) is type(v) for k, v in want.items())


def test_default_manifold_embeddings_have_two_coordinates():
    X = np.random.default_rng(0).normal(size=(30, 4))
    for est in (LocallyLinearEmbedding(), Isomap(), ClassicalMDS()):
        assert est.fit_transform(X).shape == (30, 2), type(est).__name__


def _dyadic_spectrum_data() -> np.ndarray:
    """Centred points whose scatter eigenvalues are 8, 4, 2, 2 (shares 1/2, 1/4, 1/8,
    1/8): +-2 e1, +-sqrt(2) e2, +-1 e3, +-1 e4."""
    rows = []
    for axis, length in enumerate([2.0, np.sqrt(2.0), 1.0, 1.0]):
        e = np.zeros(4)
        e[axis] = length
        rows += [e, -e]
    return np.array(rows)


def test_pca_threshold_met_exactly_keeps_that_many_components():
    X = _dyadic_spectrum_data()
    est = PCA().fit(X)
    np.testing.assert_allclose(est.scatter_eigenvalues_[:4], [8.0, 4.0, 2.0, 2.0],
                               rtol=1e-14)
    # a share reached exactly (up to rounding of the eigenvalues) is enough
    for threshold, d_prime in [(0.5, 1), (0.75, 2), (0.875, 3), (1.0, 4)]:
        assert PCA(variance_threshold=threshold).fit(X).n_components_ == d_prime, threshold
    for threshold, d_prime in [(0.5 + 1e-9, 2), (0.75 + 1e-9, 3)]:
        assert PCA(variance_threshold=threshold).fit(X).n_components_ == d_prime, threshold


def test_pca_threshold_one_on_rank_deficient_data_keeps_the_rank():
    rng = np.random.default_rng(1)
    X = rng.normal(size=(20, 2)) @ rng.normal(size=(2, 5))  # rank 2 in 5 dimensions
    assert PCA(variance_threshold=1.0).fit(X).n_components_ == 2


def _nca_objective(P: np.ndarray, X: np.ndarray, y: np.ndarray) -> float:
    """1 - sum_i p_i of (8.27)-(8.30), written out directly."""
    Z = X @ P
    D = ((Z[:, None, :] - Z[None, :, :]) ** 2).sum(axis=2)
    E = np.exp(-D)
    np.fill_diagonal(E, 0.0)
    p = E / E.sum(axis=1, keepdims=True)
    return 1.0 - float((p * (y[:, None] == y[None, :])).sum())


def test_nca_starts_from_the_given_projection():
    rng = np.random.default_rng(2)
    X = rng.normal(size=(25, 3))
    y = (X[:, 0] > 0).astype(int)
    P0 = rng.normal(size=(3, 2))
    est = NeighbourhoodComponentsAnalysis(2, init=P0, max_iter=50).fit(X, y)
    assert est.objective_history_[0] == pytest.approx(_nca_objective(P0, X, y), rel=1e-12)
    assert est.objective_history_[-1] == pytest.approx(
        _nca_objective(est.projection_, X, y), rel=1e-9)


def test_distance_weights_at_zero_distance_give_no_warning():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        w = knn_weights([[0.0, 1.0, 2.0], [0.0, 0.0, 3.0]], "distance")
        est = KNNRegressor(n_neighbors=3, weights="distance").fit(
            np.array([[0.0], [0.0], [0.1], [0.2]]), np.array([1.0, 3.0, 100.0, 100.0]))
        assert est.predict([[0.0]])[0] == pytest.approx(2.0)
    np.testing.assert_array_equal(w, [[1.0, 0.0, 0.0], [0.5, 0.5, 0.0]])
