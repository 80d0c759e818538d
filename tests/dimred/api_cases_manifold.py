"""Bad-input cases of part manifold of the dimred family (merged in api_cases.py): classical
MDS, Isomap, LLE, the weighted Euclidean / Mahalanobis distances and NCA (003 §8.2,
§8.5, §8.6)."""

from __future__ import annotations

import numpy as np

from tests.api_fuzz import Case

#: A small curved sheet in 3-d: connected k-NN graphs for every k used here.
N_SAMPLES, N_FEATURES = 40, 3


def _sheet(rng: np.random.Generator) -> np.ndarray:
    t = rng.uniform(0.0, 3.0, N_SAMPLES)
    h = rng.uniform(0.0, 1.0, N_SAMPLES)
    return np.column_stack([np.cos(t), h, np.sin(t)]) + 0.01 * rng.normal(size=(N_SAMPLES, 3))


def _distances(rng: np.random.Generator) -> np.ndarray:
    X = rng.normal(size=(12, 3))
    return np.sqrt(((X[:, None] - X[None]) ** 2).sum(axis=-1))


def _labelled(rng: np.random.Generator) -> tuple[tuple, dict]:
    X = rng.normal(size=(N_SAMPLES, N_FEATURES))
    y = (X[:, 0] > 0).astype(int)
    return (X, y), {}


_NOT_SQUARE = np.ones((3, 4))
_ASYMMETRIC = np.array([[0.0, 1.0], [2.0, 0.0]])
_NONZERO_DIAGONAL = np.array([[1.0, 1.0], [1.0, 0.0]])
_NEGATIVE = np.array([[0.0, -1.0], [-1.0, 0.0]])
_BAD_D = [_NOT_SQUARE, _ASYMMETRIC, _NONZERO_DIAGONAL, _NEGATIVE]
_NOT_PSD = np.array([[1.0, 0.0], [0.0, -1.0]])[:, :]

CASES: dict[str, Case] = {
    "MDSResult": Case(skip="a result dataclass filled by classical_mds"),
    "LLEWeights": Case(skip="a result dataclass filled by lle_weights"),
    "NonEuclideanWarning": Case(skip="a warning class"),
    # functions
    "double_centering": Case(call=lambda rng: ((_distances(rng),), {}),
                             invalid={"D": _BAD_D}, accept=frozenset({"D-extra-axis"})),
    "classical_mds": Case(call=lambda rng: ((_distances(rng), 2), {}),
                          invalid={"D": _BAD_D, "n_components": [0, 13]}),
    "neighbourhood_graph": Case(call=lambda rng: ((_sheet(rng), 5), {}),
                                invalid={"n_neighbors": [0, N_SAMPLES]}),
    "lle_weights": Case(call=lambda rng: ((_sheet(rng), 5, 1e-3), {}),
                        invalid={"n_neighbors": [0, N_SAMPLES], "reg": [-1.0]}),
    "weighted_euclidean_distance": Case(
        call=lambda rng: ((rng.normal(size=N_FEATURES), rng.normal(size=N_FEATURES),
                           np.array([1.0, 2.0, 0.5])), {}),
        invalid={"weights": [-np.ones(N_FEATURES), np.ones(2)],
                 "b": [np.ones(2)], "squared": [1]},
        accept=frozenset({"a-extra-axis", "b-extra-axis"})),
    "mahalanobis_distance": Case(
        call=lambda rng: ((rng.normal(size=2), rng.normal(size=2), np.array([[2.0, 0.5],
                                                                            [0.5, 1.0]])), {}),
        invalid={"M": [_NOT_PSD, _ASYMMETRIC, np.eye(3), _NOT_SQUARE], "b": [np.ones(3)]},
        accept=frozenset({"a-extra-axis", "b-extra-axis"})),
    "check_metric_matrix": Case(call=lambda rng: ((np.array([[2.0, 0.5], [0.5, 1.0]]),), {}),
                                invalid={"M": [_NOT_PSD, _ASYMMETRIC, _NOT_SQUARE]}),
    "metric_from_projection": Case(call=lambda rng: ((rng.normal(size=(3, 2)),), {})),
    "nca_probabilities": Case(
        call=lambda rng: (_labelled(rng)[0] + (rng.normal(size=(N_FEATURES, 2)),), {}),
        invalid={"P": [np.ones((2, 2))]}),
    "nca_gradient": Case(
        call=lambda rng: (_labelled(rng)[0] + (rng.normal(size=(N_FEATURES, 2)),), {}),
        invalid={"P": [np.ones((2, 2))]}),
    # estimators
    "ClassicalMDS": Case(call=lambda rng: ((rng.normal(size=(20, 3)),), {}),
                         invalid={"n_components": [0, 4], "dissimilarity": ["bogus"]}),
    "Isomap": Case(call=lambda rng: ((_sheet(rng),), {}),
                   init=lambda: {"n_neighbors": 6},
                   invalid={"n_neighbors": [0, N_SAMPLES], "n_components": [0, 4],
                            "radius": [-1.0, 0.0]}),
    "LocallyLinearEmbedding": Case(call=lambda rng: ((_sheet(rng),), {}),
                                   init=lambda: {"n_neighbors": 6},
                                   invalid={"n_neighbors": [0, N_SAMPLES],
                                            "n_components": [0, 4], "reg": [-1.0]}),
    "NeighbourhoodComponentsAnalysis": Case(
        call=_labelled, init=lambda: {"n_components": 2, "max_iter": 30},
        invalid={"n_components": [0, 4], "init": ["bogus", np.ones((2, 2))],
                 "max_iter": [0], "tol": [-1.0]}),
}
