"""Bad-input cases of the clustering family's public API (see ``tests/api_fuzz.py``)."""

from __future__ import annotations

import numpy as np

from algorithms.clustering import MixtureParams
from tests.api_fuzz import Case

#: Sizes of the valid calls: two separated groups, fast to cluster.
N_SAMPLES, N_FEATURES = 30, 3


def _points(rng: np.random.Generator) -> np.ndarray:
    X = rng.normal(size=(N_SAMPLES, N_FEATURES))
    X[N_SAMPLES // 2:] += 4.0
    return X


def _labels(rng: np.random.Generator) -> np.ndarray:
    return np.repeat([0, 1, 2], N_SAMPLES // 3)


def _unlabelled(rng: np.random.Generator) -> tuple[tuple, dict]:
    return (_points(rng),), {}


def _labelled(rng: np.random.Generator) -> tuple[tuple, dict]:
    return (_points(rng), np.repeat([0, 1], N_SAMPLES // 2)), {}


def _indices_call(rng: np.random.Generator) -> tuple[tuple, dict]:
    return (_points(rng), _labels(rng)), {}


def _dissimilarities(rng: np.random.Generator) -> np.ndarray:
    X = _points(rng)[:8]
    return np.sqrt(((X[:, None] - X[None]) ** 2).sum(axis=-1))


def _mixture() -> MixtureParams:
    return MixtureParams(np.array([0.3, 0.7]), np.array([[0.0, 0.0], [3.0, 3.0]]),
                         np.array([np.eye(2), 2.0 * np.eye(2)]))


_P = {"p": [0.0, -1.0]}


def _mixed_attributes(rng: np.random.Generator) -> np.ndarray:
    """Two ordered (real) attributes and one unordered attribute with values 0..2."""
    return np.column_stack([rng.normal(size=(N_SAMPLES, 2)), rng.integers(0, 3, N_SAMPLES)])

CASES: dict[str, Case] = {
    # constants and result containers
    "DBI_SCATTERS": Case(skip="a tuple of strings"),
    "EMPTY_CLUSTER_RULES": Case(skip="a tuple of strings"),
    "GMM_INITS": Case(skip="a tuple of strings"),
    "KMEANS_INITS": Case(skip="a tuple of strings"),
    "LINKAGES": Case(skip="a tuple of strings"),
    "NOISE": Case(skip="an int constant (the DBSCAN noise label)"),
    "Agglomeration": Case(skip="a result dataclass filled by agglomerate"),
    "ClusterGeometry": Case(skip="a result dataclass filled by cluster_geometry"),
    "ExternalIndices": Case(skip="a result dataclass filled by external_indices"),
    "MixtureStats": Case(skip="a result dataclass of the GMM's E-step"),
    "PairCounts": Case(skip="a result dataclass filled by pair_counts"),
    "ValueProfiles": Case(skip="a result dataclass filled by value_profiles"),
    "MixtureParams": Case(skip="a parameter dataclass (sample_mixture checks it)"),
    # estimators
    "KMeans": Case(call=_unlabelled, init=lambda: {"n_clusters": 2, "random_state": 0},
                   invalid={"n_clusters": [0, N_SAMPLES + 1], "init": ["bogus", np.ones((3, 2))],
                            "empty_cluster": ["bogus"], "tol": [-1.0]}),
    "LVQ": Case(call=_labelled, init=lambda: {"max_iter": 200, "random_state": 0},
                invalid={"learning_rate": [0.0, -1.0, 2.0], "prototype_labels": [[7, 8]]}),
    "GaussianMixtureClustering": Case(
        call=_unlabelled, init=lambda: {"n_clusters": 2, "random_state": 0, "max_iter": 20},
        invalid={"n_clusters": [0], "reg_covar": [-1.0], "init_params": ["bogus"],
                 "tol": [-1.0], "n_init": [0]}),
    "GaussianMixtureEM": Case(call=lambda rng: ((2,), {}),
                              invalid={"n_components": [0], "reg_covar": [-1.0],
                                       "init": ["bogus"]}),
    "DBSCAN": Case(call=_unlabelled, init=lambda: {"eps": 1.5, "min_pts": 3},
                   invalid={"eps": [0.0, -1.0], "min_pts": [0], **_P},
                   allow_inf=frozenset({"p"})),  # p = inf is the Chebyshev distance
    "AGNES": Case(call=_unlabelled, invalid={"n_clusters": [0], "linkage": ["ward"],
                                            "p": [0.5, -1.0]},
                  allow_inf=frozenset({"p"})),  # p = inf is the Chebyshev distance
    "MixedDistance": Case(
        call=lambda rng: ((_mixed_attributes(rng), np.repeat([0, 1], N_SAMPLES // 2)), {}),
        init=lambda: {"n_ordered": 2, "p": 2.0},
        invalid={"n_ordered": [-1, 5], "p": [0.0, -1.0], "clusters": [np.arange(3)]},
        allow_inf=frozenset({"p"}),
        accept=frozenset({"X-str"}),  # unordered attributes may be any values, strings too
        scale_free=frozenset()),  # unordered attributes are values, not magnitudes
    # functions
    "agglomerate": Case(
        call=lambda rng: ((_dissimilarities(rng), 2, "average"), {}),
        invalid={"M": [np.ones((3, 4)), -np.ones((3, 3)), np.array([[0, 1], [2, 0]])],
                 "n_clusters": [0, 9]}),
    "cluster_geometry": Case(call=_indices_call, invalid={**_P, "labels": [np.arange(5)]}),
    "davies_bouldin_index": Case(call=_indices_call, invalid={**_P, "labels": [np.zeros(30)]}),
    "dunn_index": Case(call=_indices_call, invalid={**_P, "labels": [np.zeros(30)]}),
    "external_indices": Case(
        call=lambda rng: ((_labels(rng), rng.integers(0, 3, N_SAMPLES)), {}),
        invalid={"reference": [np.arange(5)]}, scale_free=frozenset()),
    "pair_counts": Case(
        call=lambda rng: ((_labels(rng), rng.integers(0, 3, N_SAMPLES)), {}),
        invalid={"reference": [np.arange(5)]}, scale_free=frozenset()),
    "gaussian_log_density": Case(
        call=lambda rng: ((_points(rng), np.zeros(N_FEATURES), 2.0 * np.eye(N_FEATURES)), {}),
        invalid={"covariance": [np.zeros((3, 3)), -np.eye(3)]}),
    "kmeans_plusplus": Case(
        call=lambda rng: ((_points(rng), 3, np.random.default_rng(0)), {}),
        invalid={"k": [0, N_SAMPLES + 1], "rng": [-1, "x"]}),
    "minkowski_distance": Case(
        call=lambda rng: ((rng.normal(size=N_FEATURES), rng.normal(size=N_FEATURES)),
                          {"p": 2.0, "weights": np.full(N_FEATURES, 1.0 / N_FEATURES)}),
        invalid={**_P, "weights": [np.ones(N_FEATURES), -np.ones(N_FEATURES)]},
        allow_inf=frozenset({"p"}), scale_free=frozenset({"x", "z"})),
    "neighbour_pairs": Case(call=lambda rng: ((_points(rng), 1.0), {"p": 2.0}),
                            invalid={"eps": [-1.0], **_P}, allow_inf=frozenset({"p"})),
    "sample_mixture": Case(call=lambda rng: ((_mixture(), 20, np.random.default_rng(0)), {}),
                           invalid={"params": [None, 3], "n_samples": [-1]}),
    "value_difference": Case(
        call=lambda rng: ((0, 1, rng.integers(0, 3, N_SAMPLES), np.repeat([0, 1], 15)),
                          {"p": 2.0}),
        invalid={"a": [7], "p": [0.0, -1.0]}, scale_free=frozenset(),
        allow_inf=frozenset({"p"})),
    "value_profiles": Case(
        call=lambda rng: ((rng.integers(0, 3, N_SAMPLES), np.repeat([0, 1], 15)), {}),
        invalid={"clusters": [np.arange(3)]}, scale_free=frozenset()),
}
