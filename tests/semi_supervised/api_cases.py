"""Bad-input cases of the semi-supervised family's public API (see ``tests/api_fuzz.py``)."""

from __future__ import annotations

import numpy as np

from tests.api_fuzz import Case

N_SAMPLES = 20


def _points(rng: np.random.Generator) -> np.ndarray:
    X = rng.normal(size=(N_SAMPLES, 2))
    X[N_SAMPLES // 2:] += 1.5
    return X


def _partially_labelled(rng: np.random.Generator) -> tuple[tuple, dict]:
    y = np.full(N_SAMPLES, -1)
    y[[0, 1, N_SAMPLES - 2, N_SAMPLES - 1]] = [0, 0, 1, 1]
    return (_points(rng), y), {}


def _weights(rng: np.random.Generator) -> np.ndarray:
    A = rng.uniform(0.1, 1.0, size=(6, 6))
    W = A + A.T
    np.fill_diagonal(W, 0.0)
    return W


_GRAPH_INVALID = {"sigma": [0.0, -1.0], "n_neighbors": [0, N_SAMPLES]}
#: every label -1 (nothing labelled) and a single labelled class
_BAD_LABELS = [np.full(N_SAMPLES, -1), np.r_[np.zeros(2, int), np.full(N_SAMPLES - 2, -1)]]

def _constrained(rng: np.random.Generator) -> tuple[tuple, dict]:
    return (_points(rng),), {"must_link": np.array([[0, 1]]),
                             "cannot_link": np.array([[0, N_SAMPLES - 1]])}


def _active(rng: np.random.Generator) -> tuple[tuple, dict]:
    from algorithms.bayes import NaiveBayesClassifier

    X = _points(rng)
    y = (np.arange(N_SAMPLES) >= N_SAMPLES // 2).astype(int)
    return (NaiveBayesClassifier(), X, y, np.array([0, N_SAMPLES - 1])), {"n_queries": 3}


CASES: dict[str, Case] = {
    # §11.1
    "ACTIVE_STRATEGIES": Case(skip="a tuple of strings"),
    "ActiveLearningResult": Case(skip="a result dataclass filled by active_learning"),
    "active_learning": Case(call=_active,
                            invalid={"n_queries": [-1, N_SAMPLES], "strategy": ["bogus"],
                                     "initial": [np.array([], int), np.array([0, 0]),
                                                 np.array([0, N_SAMPLES])],
                                     "oracle": [np.zeros(3)], "estimator": ["bogus"]}),
    "uncertainty": Case(skip="needs a fitted classifier; active_learning exercises it"),
    # §11.5
    "CoTrainingRound": Case(skip="a record of one co-training round"),
    "CoTraining": Case(call=_partially_labelled,
                       init=lambda: {"view": np.array([0]), "n_rounds": 3, "random_state": 0},
                       invalid={"pool_size": [0], "n_positive": [-1], "n_negative": [-1],
                                "n_rounds": [-1], "view": [np.array([2]), np.array([0, 0]),
                                                          np.array([0.5])],
                                "estimator": ["bogus"], "y": _BAD_LABELS}),
    # §11.3
    "TSVMSolve": Case(skip="a record of one SVM solved by TSVM.fit"),
    "TSVM": Case(call=_partially_labelled,
                 invalid={"C_l": [0.0, -1.0], "C_u_init": [0.0], "kernel": ["bogus"],
                          "gamma": [0.0], "tol": [0.0], "max_iter": [0], "max_swaps": [-1],
                          "y": _BAD_LABELS + [np.r_[0, 1, 2, np.full(N_SAMPLES - 3, -1)]]}),
    # §11.6
    "InfeasibleConstraintsError": Case(skip="an exception class"),
    "ConstrainedKMeans": Case(call=_constrained, init=lambda: {"n_clusters": 2,
                                                               "random_state": 0},
                              invalid={"n_clusters": [0, N_SAMPLES + 1], "max_iter": [0],
                                       "init": ["bogus", np.ones((3, 2))],
                                       "must_link": [np.array([[0, 0]]),
                                                     np.array([[0, N_SAMPLES]]),
                                                     np.array([[0.5, 1.0]])],
                                       "cannot_link": [np.array([[1, 1]]), np.ones(3, int)]}),
    "ConstrainedSeedKMeans": Case(call=_partially_labelled,
                                  invalid={"max_iter": [0], "y": [np.full(N_SAMPLES, -1)]}),
    # §11.2
    "SemiSupervisedData": Case(skip="a data container the EM model reads (fit builds it)"),
    "SemiSupervisedGaussianEM": Case(call=lambda rng: ((2,), {}),
                                     invalid={"n_classes": [1, 0], "reg_covar": [-1.0]}),
    "SemiSupervisedGaussianMixture": Case(call=_partially_labelled,
                                          invalid={"y": _BAD_LABELS, "reg_covar": [-1.0],
                                                   "max_iter": [0], "tol": [-1.0]}),
    # §11.4
    "SpreadResult": Case(skip="a result dataclass filled by spread_labels"),
    "LabelPropagation": Case(call=_partially_labelled,
                             invalid={**_GRAPH_INVALID, "y": _BAD_LABELS}),
    "LabelSpreading": Case(call=_partially_labelled,
                           invalid={**_GRAPH_INVALID, "y": _BAD_LABELS,
                                    "alpha": [0.0, 1.0, 1.5], "method": ["bogus"],
                                    "max_iter": [0], "tol": [-1.0]}),
    "affinity_matrix": Case(call=lambda rng: ((_points(rng),), {"sigma": 1.0}),
                            invalid={"sigma": [0.0, -1.0], "n_neighbors": [0, N_SAMPLES]}),
    "graph_energy": Case(call=lambda rng: ((_weights(rng), rng.normal(size=6)), {}),
                         invalid={"W": [-_weights(np.random.default_rng(0)),
                                        np.triu(_weights(np.random.default_rng(0)))],
                                  "f": [np.zeros(5)]},
                         accept=frozenset({"f-extra-axis"})),  # (n, k): k functions
    "harmonic_function": Case(
        call=lambda rng: ((_weights(rng), np.array([1, 1, 0, 0, 0, 0], bool),
                           np.array([1.0, -1.0])), {}),
        invalid={"labelled": [np.zeros(6, bool), np.ones(5, bool)], "f_l": [np.ones(3)]},
        accept=frozenset({"f_l-extra-axis"})),  # (l, k): k label columns
    "propagation_matrix": Case(call=lambda rng: ((_weights(rng),), {}),
                               invalid={"W": [np.zeros((3, 3)), np.ones((2, 3))]}),
    "spread_labels": Case(
        call=lambda rng: ((0.1 * _weights(rng), np.eye(6)[:, :2], 0.5), {}),
        invalid={"alpha": [0.0, 1.0], "Y": [np.ones((5, 2))], "method": ["bogus"],
                 "max_iter": [0], "tol": [-1.0]}),
}
