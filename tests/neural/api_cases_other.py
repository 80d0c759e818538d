"""Bad-input cases of the other networks of 003 §3.5.2-§3.5.6 (part of
tests/neural/api_cases.py): ART, SOM, cascade-correlation, Elman, Boltzmann machines."""

from __future__ import annotations

import numpy as np

from tests.api_fuzz import Case

#: Sizes of the valid calls: small, so every variant runs in well under a second.
N_SAMPLES, N_FEATURES = 24, 3


def _points(rng: np.random.Generator) -> np.ndarray:
    X = rng.normal(size=(N_SAMPLES, N_FEATURES))
    X[N_SAMPLES // 2:] += 4.0
    return X


def _unlabelled(rng: np.random.Generator) -> tuple[tuple, dict]:
    return (_points(rng),), {}


def _regression(rng: np.random.Generator) -> tuple[tuple, dict]:
    X = _points(rng)
    return (X, np.sin(X[:, 0]) + X[:, 1]), {}


def _classification(rng: np.random.Generator) -> tuple[tuple, dict]:
    return (_points(rng), np.repeat([0, 1], N_SAMPLES // 2)), {}


def _sequences(rng: np.random.Generator) -> tuple[tuple, dict]:
    X = rng.normal(size=(6, 5, 2))
    y = (X[:, :, 0] > 0).astype(float)
    return (X, y), {}


def _binary(rng: np.random.Generator) -> tuple[tuple, dict]:
    return ((rng.random((N_SAMPLES, 5)) < 0.4).astype(float),), {}


def _machine(rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    W = rng.normal(size=(4, 4))
    W = np.triu(W, 1)
    return W + W.T, rng.normal(size=4)


def _energy(rng: np.random.Generator) -> tuple[tuple, dict]:
    W, theta = _machine(rng)
    return (np.array([[0.0, 1.0, 1.0, 0.0], [1.0, 1.0, 1.0, 1.0]]), W, theta), {}


def _log_probabilities(rng: np.random.Generator) -> tuple[tuple, dict]:
    return _machine(rng), {}


#: A non-binary 0/1 matrix entry and a non-symmetric or self-connected weight matrix.
_NOT_BINARY = np.array([[0.0, 0.5, 1.0, 0.0]])
_ASYMMETRIC = np.array([[0.0, 1.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0],
                        [0.0, 0.0, 0.0, 0.0]])
_SELF = np.diag([1.0, 0.0, 0.0, 0.0])

CASES: dict[str, Case] = {
    "ELMAN_OUTPUTS": Case(skip="a tuple of strings"),
    "MAX_ENUMERATION_UNITS": Case(skip="an int constant (the enumeration cap)"),
    "ART": Case(call=_unlabelled, invalid={"vigilance": [0.0, 1.0, -0.5],
                                           "learning_rate": [0.0, 1.5]}),
    "art_similarity": Case(call=lambda rng: ((_points(rng), _points(rng)[:3]), {})),
    "SOM": Case(call=_unlabelled, init=lambda: {"n_rows": 3, "n_cols": 4, "n_epochs": 3,
                                                "radius": 2.0},
                invalid={"learning_rate": [0.0, 1.5], "final_learning_rate": [0.0, 0.9],
                         "radius": [0.0, -1.0], "final_radius": [0.0, 3.0],
                         "n_rows": [0], "n_cols": [0], "n_epochs": [0]}),
    "CascadeCorrelationRegressor": Case(
        call=_regression, init=lambda: {"max_hidden": 3, "candidate_max_iter": 30},
        invalid={"max_hidden": [-1], "n_candidates": [0], "candidate_learning_rate": [0.0],
                 "candidate_max_iter": [0], "tol": [-1.0], "target_error": [-1.0]}),
    "CascadeCorrelationClassifier": Case(
        call=_classification, init=lambda: {"max_hidden": 3, "candidate_max_iter": 30},
        invalid={"max_hidden": [-1], "n_candidates": [0], "candidate_learning_rate": [0.0]}),
    "candidate_correlation": Case(
        call=lambda rng: ((rng.random((10, 3)), rng.normal(size=(10, 2))), {})),
    "candidate_correlation_gradient": Case(
        call=lambda rng: ((rng.normal(size=(10, 4)), rng.normal(size=4),
                           rng.normal(size=(10, 2))), {}),
        invalid={"weights": [np.zeros(3)]}),
    "ElmanNetwork": Case(
        call=_sequences, init=lambda: {"n_hidden": 3, "max_iter": 20},
        accept=frozenset({"y-extra-axis"}),  # (n, T, l) targets: l outputs per step
        invalid={"learning_rate": [0.0, -1.0], "n_hidden": [0], "max_iter": [0],
                 "y": [np.full((6, 5), 2.0), np.zeros((6, 4)), np.zeros(6)],
                 "X": [np.zeros((6, 5)), np.zeros((6, 0, 2))]}),
    "binary_states": Case(call=lambda rng: ((3,), {}), invalid={"n": [17]}),
    "boltzmann_energy": Case(call=_energy, invalid={
        "states": [_NOT_BINARY, np.zeros((2, 3))], "weights": [_ASYMMETRIC, _SELF]}),
    "boltzmann_log_probabilities": Case(call=_log_probabilities, invalid={
        "weights": [_ASYMMETRIC, _SELF, np.zeros((17, 17))], "thresholds": [np.zeros(3)]}),
    "RBM": Case(call=_binary, init=lambda: {"n_components": 3, "n_iter": 3},
                invalid={"X": [np.full((4, 5), 0.5), np.full((4, 5), 2.0)],
                         "learning_rate": [0.0], "k": [0], "batch_size": [0],
                         "n_components": [0], "n_iter": [0]}),
}
