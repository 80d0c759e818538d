"""Bad-input cases of part pgd_cs of the sparse family (merged in api_cases.py): proximal
gradient LASSO, separable proximal maps, basis pursuit, l0 search and RIP constants
(003 §10.4, §10.6)."""

from __future__ import annotations

import numpy as np

from tests.api_fuzz import Case

#: Sizes of the valid calls: small, so every variant runs in well under a second.
N_SAMPLES, N_FEATURES = 20, 5
#: A wide sensing matrix (n < m, full row rank almost surely: every y is in its range).
N_MEASUREMENTS, N_ATOMS = 4, 7


def _regression(rng: np.random.Generator) -> tuple[tuple, dict]:
    X = rng.normal(size=(N_SAMPLES, N_FEATURES))
    return (X, X[:, 0] - 2.0 * X[:, 1] + 0.1 * rng.normal(size=N_SAMPLES)), {}


def _lasso_call(rng: np.random.Generator) -> tuple[tuple, dict]:
    (X, y), _ = _regression(rng)
    return (X, y, 1.0), {}


def _lasso_point(rng: np.random.Generator) -> tuple[tuple, dict]:
    (X, y), _ = _regression(rng)
    return (X, y, rng.normal(size=N_FEATURES), 1.0), {}


def _sensing(rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    A = rng.normal(size=(N_MEASUREMENTS, N_ATOMS))
    s = np.zeros(N_ATOMS)
    s[[1, 4]] = [1.0, -2.0]
    return A, A @ s


#: Variants valid for a componentwise map of an array of any shape (even empty).
ELEMENTWISE_Z = frozenset({"z-extra-axis", "z-empty"})

CASES: dict[str, Case] = {
    "PENALTIES": Case(skip="a tuple of strings (the penalty names)"),
    "MAX_ENUMERATED_SUBSETS": Case(skip="an int constant (the enumeration cap)"),
    "PGDResult": Case(skip="a result dataclass"),
    "L0Solution": Case(skip="a result dataclass"),
    "RIPConstant": Case(skip="a result dataclass"),
    "ProximalGradientLasso": Case(call=_regression, init=lambda: {"lam": 1.0},
                                  invalid={"lam": [0.0, -1.0], "max_iter": [0],
                                           "tol": [0.0, -1.0], "fit_intercept": [1],
                                           "keep_iterates": ["yes"]}),
    "lipschitz_constant": Case(call=lambda rng: ((rng.normal(size=(6, 3)),), {})),
    "lasso_objective": Case(call=_lasso_point, invalid={"lam": [-1.0]}),
    "lasso_duality_gap": Case(call=_lasso_point, invalid={"lam": [0.0, -1.0]}),
    "proximal_gradient_lasso": Case(
        call=_lasso_call,
        invalid={"lam": [-1.0], "lipschitz": [0.0, -1.0], "max_iter": [0], "tol": [0.0],
                 "keep_iterates": [1], "coef_init": [np.zeros(N_FEATURES + 1)]}),
    "prox_penalty": Case(
        call=lambda rng: ((rng.normal(size=8), 0.5), {"penalty": "l1/2"}),
        accept=ELEMENTWISE_Z,
        invalid={"step": [0.0, -1.0], "penalty": ["l0"], "l1_ratio": [-0.1, 1.5]}),
    "prox_kinked": Case(
        call=lambda rng: ((rng.normal(size=8), 0.5), {"right_slope": 1.0,
                                                      "left_slope": 2.0}),
        accept=ELEMENTWISE_Z,
        invalid={"step": [0.0, -1.0], "curvature": [-1.0]}),
    "basis_pursuit": Case(call=lambda rng: (_sensing(rng), {}),
                          invalid={"y": [np.ones(N_MEASUREMENTS + 1)]}),
    "basis_pursuit_denoising": Case(call=lambda rng: ((*_sensing(rng), 0.1), {}),
                                    invalid={"lam": [0.0, -1.0], "max_iter": [0],
                                             "tol": [0.0]}),
    "l0_minimise": Case(call=lambda rng: (_sensing(rng), {}),
                        invalid={"max_support": [-1, N_ATOMS + 1]}),
    "periodic_sinc_interpolate": Case(
        call=lambda rng: ((rng.normal(size=9), rng.uniform(size=5)), {}),
        accept=frozenset({"t-extra-axis", "t-empty"}),
        invalid={"samples": [np.zeros((2, 3))]}),
    "rip_constant": Case(call=lambda rng: ((rng.normal(size=(4, 7)), 2), {}),
                         invalid={"k": [0, 8]}),
    "rip_lower_bound": Case(call=lambda rng: ((rng.normal(size=(4, 7)), 2),
                                              {"n_subsets": 50, "random_state": 0}),
                            invalid={"k": [0, 8], "n_subsets": [0],
                                     "random_state": ["seed"]}),
}
