"""Bad-input cases of part dictionary of the sparse family (merged in api_cases.py):
dictionary learning, K-SVD, OMP and sparse coding of 003 §10.5, matrix completion of
003 §10.6."""

from __future__ import annotations

import numpy as np

from tests.api_fuzz import Case

#: Small sizes: every variant of the (Python-loop) coders runs in well under a second.
D, K, M = 4, 5, 8


def _samples(rng: np.random.Generator) -> np.ndarray:
    """Rows = samples (estimator convention)."""
    return rng.normal(size=(M, D))


def _columns(rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """X (d x m) and a unit-column dictionary B (d x k): the notes' convention."""
    X = rng.normal(size=(D, M))
    B = rng.normal(size=(D, K))
    return X, B / np.linalg.norm(B, axis=0)


def _ksvd_call(rng: np.random.Generator) -> tuple[tuple, dict]:
    X, B = _columns(rng)
    A = rng.normal(size=(K, M)) * (rng.random((K, M)) < 0.5)
    return (X, B, A), {}


def _completion_problem(rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    A = np.outer(rng.normal(size=6), rng.normal(size=5))
    mask = rng.random((6, 5)) < 0.7
    mask[np.arange(6), np.arange(6) % 5] = True  # every row and column observed
    return A, mask


#: Masks every completion function must refuse (naming ``mask``): an unobserved row, an
#: unobserved column, nothing observed, entries other than 0/1.
_EMPTY_ROW = np.ones((6, 5), dtype=bool)
_EMPTY_ROW[2] = False
_EMPTY_COL = np.ones((6, 5), dtype=bool)
_EMPTY_COL[:, 4] = False
_BAD_MASKS = [_EMPTY_ROW, _EMPTY_COL, np.zeros((6, 5), dtype=bool), np.full((6, 5), 0.5),
              np.ones((5, 5), dtype=bool)]

CASES: dict[str, Case] = {
    "DictionaryLearning": Case(
        call=lambda rng: ((_samples(rng),), {}),
        init=lambda: {"n_components": K, "max_iter": 3, "random_state": 0},
        invalid={"n_components": [0, -3], "lam": [0.0, -1.0], "coding": ["bogus"],
                 "dictionary_update": ["bogus"], "max_iter": [0], "tol": [-1.0],
                 "n_nonzero_coefs": [0], "record_history": [1],
                 "coding_tol": [0.0]}),
    "ksvd_update": Case(call=_ksvd_call),
    "sparse_code": Case(call=lambda rng: (_columns(rng), {"lam": 0.5}),
                        invalid={"lam": [0.0, -1.0], "n_nonzero_coefs": [0], "tol": [0.0]}),
    "orthogonal_matching_pursuit": Case(call=lambda rng: ((*_columns(rng), 2), {}),
                                        invalid={"n_nonzero_coefs": [0], "tol": [-1.0]}),
    "nuclear_norm": Case(call=lambda rng: ((rng.normal(size=(5, 4)),), {})),
    "singular_value_threshold": Case(call=lambda rng: ((rng.normal(size=(5, 4)), 0.5), {}),
                                     invalid={"tau": [-1.0]}),
    "nuclear_norm_completion": Case(
        call=lambda rng: (_completion_problem(rng), {}),
        invalid={"mask": _BAD_MASKS, "noise": [-1.0], "solver": ["bogus"]},
        scale_free=frozenset({"A"}), timeout=30.0),
    "svt_completion": Case(
        call=lambda rng: (_completion_problem(rng), {"max_iter": 200, "tol": 1e-4}),
        invalid={"mask": _BAD_MASKS, "tau": [0.0, -1.0], "step": [0.0, 2.0, -1.0],
                 "tol": [0.0]},
        scale_free=frozenset({"A"})),
    "SVTResult": Case(skip="a result dataclass"),
}
