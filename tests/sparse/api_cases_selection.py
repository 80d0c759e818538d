"""Bad-input cases of part selection of the sparse family (merged in api_cases.py):
subset search and information gain, Relief, Relief-F and LVW (003 §10.1-§10.3)."""

from __future__ import annotations

import numpy as np

from tests.api_fuzz import Case

#: Sizes of the valid calls: small, so every variant runs in well under a second.
N_SAMPLES, N_FEATURES = 24, 4


def _points(rng: np.random.Generator) -> np.ndarray:
    return rng.normal(size=(N_SAMPLES, N_FEATURES))


def _binary(rng: np.random.Generator) -> tuple[tuple, dict]:
    X = _points(rng)
    return (X, (X[:, 0] > 0).astype(int)), {}


def _three_classes(rng: np.random.Generator) -> tuple[tuple, dict]:
    X = _points(rng)
    return (X, np.arange(N_SAMPLES) % 3), {}


def _gain(rng: np.random.Generator) -> tuple[tuple, dict]:
    X, y = _binary(rng)[0]
    return (X, y, [0, 2]), {"n_bins": 3}


def _search(rng: np.random.Generator) -> tuple[tuple, dict]:
    weights = rng.normal(size=N_FEATURES)

    def score(subset):
        return float(np.sum(weights[list(subset)]))

    return (score, N_FEATURES), {"tol": 0.0}


def _entropy(rng: np.random.Generator) -> tuple[tuple, dict]:
    return (rng.integers(0, 3, size=N_SAMPLES),), {}


CASES: dict[str, Case] = {
    "SubsetSearchResult": Case(skip="a result dataclass"),
    "label_entropy": Case(call=_entropy),
    "discretize": Case(call=lambda rng: ((_points(rng), 3), {}), invalid={"n_bins": [1, 0]}),
    "subset_information_gain": Case(
        call=_gain, invalid={"subset": [[0, 0], [N_FEATURES], [-1], "ab", [0.5]],
                             "n_bins": [1]}),
    "subset_search": Case(
        call=_search, invalid={"n_features": [0], "direction": ["sideways"],
                               "tol": [-1.0], "score": [None, 3.0]}),
    "SubsetSelector": Case(
        call=_binary, invalid={"direction": ["sideways"], "n_bins": [1], "tol": [-1.0],
                               "scoring": ["gini", 3]}),
    "relief_scores": Case(
        call=_binary,
        invalid={"discrete_features": [[N_FEATURES], "a", np.ones(N_FEATURES + 1, bool)],
                 "sample_indices": [[N_SAMPLES], [-1], [0.5]]}),
    "relieff_scores": Case(
        call=_three_classes,
        invalid={"miss_weighting": ["none"], "discrete_features": [[-1]],
                 "sample_indices": [[N_SAMPLES]], "n_neighbors": [0, N_SAMPLES]}),
    "Relief": Case(
        call=_binary,
        invalid={"threshold": [np.nan], "n_features_to_select": [0, N_FEATURES + 1],
                 "n_samples": [0], "random_state": ["seed"],
                 "discrete_features": [[N_FEATURES]]}),
    "ReliefF": Case(
        call=_three_classes,
        invalid={"miss_weighting": ["none"], "n_features_to_select": [0],
                 "n_samples": [0], "n_neighbors": [0, N_SAMPLES]}),
    "LVW": Case(
        call=_binary, init=lambda: {"patience": 3, "cv": 2, "random_state": 0},
        invalid={"patience": [0], "cv": [1, N_SAMPLES], "max_iter": [0],
                 "estimator": ["tree"], "random_state": ["seed"]}),
}
