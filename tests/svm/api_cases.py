"""Bad-input cases for every exported name of ``algorithms.svm`` (see tests/api_fuzz.py)."""

from __future__ import annotations

import numpy as np

from algorithms.svm import ColumnCache
from tests.api_fuzz import Case

#: Training points of every call: 16 points in 3 dimensions, two classes.
N_POINTS, N_FEATURES = 16, 3


def _classification(rng: np.random.Generator) -> tuple[tuple, dict]:
    X = rng.normal(size=(N_POINTS, N_FEATURES))
    y = np.where(np.arange(N_POINTS) % 2 == 0, 1, -1)
    return (X + 0.5 * y[:, None], y), {}


def _regression(rng: np.random.Generator) -> tuple[tuple, dict]:
    X = rng.normal(size=(N_POINTS, N_FEATURES))
    return (X, X @ np.array([1.0, -2.0, 0.5]) + 0.1 * rng.normal(size=N_POINTS)), {}


def _dual(rng: np.random.Generator) -> tuple[tuple, dict]:
    X = rng.normal(size=(N_POINTS, N_FEATURES))
    y = np.where(np.arange(N_POINTS) % 2 == 0, 1.0, -1.0)
    return (rng.uniform(0, 1, N_POINTS), y, X @ X.T), {}


def _svr_dual(rng: np.random.Generator) -> tuple[tuple, dict]:
    X = rng.normal(size=(N_POINTS, N_FEATURES))
    a, ah = rng.uniform(0, 1, N_POINTS), rng.uniform(0, 1, N_POINTS)
    return (a, ah, rng.normal(size=N_POINTS), X @ X.T, 0.1), {}


def _smo_problem(rng: np.random.Generator) -> tuple[tuple, dict]:
    """The soft-margin dual of 16 points as solve_smo takes it (p = -1, u = C = 1)."""
    X = rng.normal(size=(N_POINTS, N_FEATURES))
    K = X @ X.T
    z = np.where(np.arange(N_POINTS) % 2 == 0, 1.0, -1.0)
    return ((lambda t: K[:, t], np.diag(K).copy(), z, -np.ones(N_POINTS),
             np.ones(N_POINTS)),
            {"tol": 1e-3, "max_iter": 500, "working_set": "second_order"})


CASES: dict[str, Case] = {
    "SMOClassifier": Case(
        call=_classification,
        allow_inf=frozenset({"C"}),  # C = inf is the hard margin (4.6)
        invalid={"C": [0.0, -1.0], "tol": [0.0], "max_iter": [0],
                 "kernel_params": [{"sigma": 0.0}], "polish": [1], "record_history": ["yes"]},
    ),
    "SVR": Case(call=_regression,
                invalid={"C": [0.0, np.inf], "epsilon": [-0.1], "tol": [-1.0],
                         "kernel_params": [{"degree": 0}]}),
    "dual_objective": Case(call=_dual, invalid={"y": [np.zeros(N_POINTS)]}),
    "svr_dual_objective": Case(call=_svr_dual, invalid={"epsilon": [-0.1]}),
    "pair_step": Case(
        call=lambda rng: ((0.2, 0.7, 1.0, -1.0, 0.5, 2.0, 1.0, 1.0), {}),
        allow_inf=frozenset({"upper_i", "upper_j"}),  # the hard margin's box
        invalid={"z_i": [0.0, 2.0], "beta_i": [-0.1, 1.5], "upper_j": [0.0]},
    ),
    "solve_smo": Case(
        call=_smo_problem,
        allow_inf=frozenset({"upper"}),  # the hard margin's box
        invalid={"z": [np.zeros(N_POINTS)], "upper": [np.zeros(N_POINTS)],
                 "column": [np.eye(N_POINTS)], "step": ["pair_step"]},
    ),
    "ColumnCache": Case(
        call=lambda rng: ((lambda idx: np.ones((N_POINTS, len(idx))), N_POINTS, 1.0), {}),
        target=lambda compute_columns, n, cache_size_mb: ColumnCache(
            compute_columns, n, cache_size_mb).column(0),
        invalid={"compute_columns": [None], "cache_size_mb": [0.0, -1.0]},
    ),
    "SMOResult": Case(skip="a result dataclass (built by solve_smo, fuzzed above)"),
}
