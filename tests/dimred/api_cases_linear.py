"""Bad-input cases of part linear of the dimred family (merged in api_cases.py): kNN,
PCA and kernel PCA (003 §8.1, §8.3, §8.4)."""

from __future__ import annotations

import numpy as np

from tests.api_fuzz import Case

#: Sizes of the valid calls: small, so every variant runs in well under a second.
N_SAMPLES, N_FEATURES = 24, 4


def _points(rng: np.random.Generator) -> np.ndarray:
    X = rng.normal(size=(N_SAMPLES, N_FEATURES))
    X[N_SAMPLES // 2:] += 3.0
    return X


def _classification(rng: np.random.Generator) -> tuple[tuple, dict]:
    return (_points(rng), np.repeat([0, 1], N_SAMPLES // 2)), {}


def _regression(rng: np.random.Generator) -> tuple[tuple, dict]:
    X = _points(rng)
    return (X, X[:, 0] - 2.0 * X[:, 1]), {}


def _unlabelled(rng: np.random.Generator) -> tuple[tuple, dict]:
    return (_points(rng),), {}


def _kernel_matrices(rng: np.random.Generator) -> tuple[tuple, dict]:
    X = _points(rng)
    return (X[:5] @ X.T, X @ X.T), {}


CASES: dict[str, Case] = {
    # k >= n is refused (n = 24 training samples in the valid call)
    "KNNClassifier": Case(call=_classification, init=lambda: {"n_neighbors": 3},
                          invalid={"n_neighbors": [0, N_SAMPLES, N_SAMPLES + 1],
                                   "algorithm": ["ball_tree"]}),
    "KNNRegressor": Case(call=_regression, init=lambda: {"n_neighbors": 3,
                                                         "weights": "distance"},
                         invalid={"n_neighbors": [0, N_SAMPLES], "weights": ["inverse"]}),
    "knn_weights": Case(call=lambda rng: ((np.abs(rng.normal(size=(5, 3))), "distance"), {}),
                        invalid={"distances": [-np.ones((2, 3))]}),
    # d' > min(m, d) and d' <= 0 are refused
    "PCA": Case(call=_unlabelled, init=lambda: {"n_components": 2},
                invalid={"n_components": [0, N_FEATURES + 1],
                         "variance_threshold": [0.0, 1.5, -0.1]}),
    "deterministic_signs": Case(call=lambda rng: ((rng.normal(size=(3, 4)),), {})),
    "KernelPCA": Case(call=_unlabelled, init=lambda: {"n_components": 3, "kernel": "rbf",
                                                      "kernel_params": {"sigma": 2.0}},
                      invalid={"n_components": [0, N_SAMPLES + 1], "kernel": ["bogus", 3],
                               "kernel_params": [{"gamma": 1.0}], "center": [1]}),
    "center_kernel_matrix": Case(call=_kernel_matrices,
                                 invalid={"K_fit": [np.ones((3, 4))]}),
}
