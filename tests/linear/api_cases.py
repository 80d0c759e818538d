"""Bad-input cases for every exported name of ``algorithms.linear`` (see tests/api_fuzz.py)."""

from __future__ import annotations

import numpy as np

from algorithms.linear import (
    BernoulliFamily,
    CategoricalFamily,
    GaussianFamily,
    LogisticRegression,
    exhaustive_code_matrix,
)
from tests.api_fuzz import Case

#: Training data of every call: 24 samples in 3 dimensions.
N, D = 24, 3
WEIGHTS = np.array([1.0, -2.0, 0.5])


def _features(rng: np.random.Generator) -> np.ndarray:
    return rng.normal(size=(N, D))


def _regression(rng: np.random.Generator) -> tuple[tuple, dict]:
    X = _features(rng)
    return (X, X @ WEIGHTS + 0.1 * rng.normal(size=N)), {}


def _positive_regression(rng: np.random.Generator) -> tuple[tuple, dict]:
    X = _features(rng)
    return (X, np.exp(0.3 * X @ WEIGHTS + 0.1 * rng.normal(size=N))), {}


def _labels(n_classes: int) -> np.ndarray:
    return np.arange(N) % n_classes


def _binary(rng: np.random.Generator) -> tuple[tuple, dict]:
    """Two overlapping classes (a finite maximum-likelihood estimate exists)."""
    y = _labels(2)
    return (_features(rng) + 0.5 * y[:, None], y), {}


def _three_classes(rng: np.random.Generator) -> tuple[tuple, dict]:
    y = _labels(3)
    return (_features(rng) + 0.5 * y[:, None], y), {}


def _problem(rng: np.random.Generator, labels: bool = True) -> tuple[tuple, dict]:
    Xh = np.hstack([_features(rng), np.ones((N, 1))])
    beta = 0.3 * rng.normal(size=D + 1)
    return ((beta, Xh, _labels(2).astype(float)) if labels else (beta, Xh)), {}


def _softmax_nll(rng: np.random.Generator) -> tuple[tuple, dict]:
    Xh = np.hstack([_features(rng), np.ones((N, 1))])
    return (0.3 * rng.normal(size=(D + 1, 3)), Xh, _labels(3)), {}


def _scatter(rng: np.random.Generator) -> tuple[tuple, dict]:
    A = rng.normal(size=(D, D))
    return (A @ A.T + np.eye(D), rng.normal(size=D), rng.normal(size=D)), {}


def _rayleigh(rng: np.random.Generator) -> tuple[tuple, dict]:
    A, B = rng.normal(size=(D, D)), rng.normal(size=(D, D))
    return (rng.normal(size=(2, D)), A @ A.T, B @ B.T + np.eye(D)), {}


def _probabilities(rng: np.random.Generator) -> tuple[tuple, dict]:
    return (rng.uniform(0.01, 0.99, size=N), 3.0, 7.0), {}


def _code(rng: np.random.Generator) -> np.ndarray:
    return exhaustive_code_matrix(4)


def ELEMENTWISE(name: str) -> frozenset[str]:  # noqa: N802 (reads as a constant)
    """Variants valid for a componentwise function of any array (any shape, even empty)."""
    return frozenset({f"{name}-extra-axis", f"{name}-empty"})


CASES: dict[str, Case] = {
    # ------------------------------------------------------------------ estimators
    "LinearRegression": Case(call=_regression, invalid={"solver": ["bogus"], "rcond": [-1.0]}),
    "SimpleLinearRegression": Case(
        call=lambda rng: ((_features(rng)[:, :1], _features(rng)[:, 0]), {})),
    "Ridge": Case(call=_regression, invalid={"lam": [-1.0], "fit_intercept": [1]}),
    "Lasso": Case(call=_regression, nan_ok=frozenset({"lipschitz_"}),  # NaN for cd
                  invalid={"lam": [0.0, -1.0], "solver": ["bogus"], "tol": [-1.0, 0.0],
                           "max_iter": [0]}),
    "ElasticNet": Case(call=_regression, nan_ok=frozenset({"lipschitz_"}),
                       invalid={"lam": [-1.0], "rho": [-0.5, 1.5], "solver": ["bogus"]}),
    "LogLinearRegression": Case(call=_positive_regression),
    "GeneralizedLinearModel": Case(
        call=_three_classes, init=lambda: {"family": "categorical"},
        invalid={"family": ["poisson"], "lam": [-1.0], "tol": [0.0], "max_iter": [0],
                 "coef_cap": [0.0], "sigma": [0.0]}),
    "LogisticRegression": Case(
        call=_binary,
        invalid={"solver": ["bogus"], "lam": [-1.0], "tol": [-1.0], "max_iter": [0],
                 "learning_rate": [0.0, -1.0], "coef_cap": [-1.0]}),
    "SoftmaxRegression": Case(
        call=_three_classes,
        invalid={"parametrisation": ["bogus"], "lam": [-1.0], "tol": [0.0], "max_iter": [0]}),
    "LinearDiscriminantAnalysis": Case(call=_three_classes,
                                       invalid={"reg": [-1.0], "n_components": [0, 3]}),
    "OneVsRestClassifier": Case(call=_three_classes,
                                init=lambda: {"estimator": LogisticRegression(lam=0.1)},
                                invalid={"estimator": [None, "bogus"]}),
    "OneVsOneClassifier": Case(call=_three_classes,
                               init=lambda: {"estimator": LogisticRegression(lam=0.1)},
                               invalid={"estimator": [None]}),
    "ECOCClassifier": Case(
        call=_three_classes,
        init=lambda: {"estimator": LogisticRegression(lam=0.1), "random_state": 0},
        invalid={"decoding": ["bogus"], "n_columns": [0], "ternary": [1]}),
    "ThresholdRescalingClassifier": Case(
        call=_binary, init=lambda: {"estimator": LogisticRegression(lam=0.1)},
        invalid={"class_ratio": [0.0, -1.0], "pos_label": [7], "estimator": [None]}),
    # ------------------------------------------------------------------ functions
    "add_bias_column": Case(call=lambda rng: ((_features(rng),), {})),
    "ridge_solve": Case(call=lambda rng: (_regression(rng)[0] + (1.0,), {}),
                        invalid={"lam": [0.0, -1.0]}),
    "solve_l1_l2": Case(call=lambda rng: (_regression(rng)[0], {"l1": 1.0}),
                        nan_ok=frozenset({"lipschitz"}),  # NaN: not used by cd
                        invalid={"l1": [0.0, -1.0], "l2": [-1.0], "solver": ["bogus"],
                                 "tol": [-1.0], "max_iter": [0], "refine": [1]}),
    "soft_threshold": Case(call=lambda rng: ((rng.normal(size=N), 0.5), {}),
                           accept=ELEMENTWISE("z"),
                           invalid={"threshold": [-1.0]}),
    "ridge_path": Case(call=lambda rng: (_regression(rng)[0] + ([10.0, 1.0, 0.1],), {}),
                       invalid={"lams": [[-1.0], [0.0]]}),
    "lasso_path": Case(call=lambda rng: (_regression(rng)[0], {"n_lams": 5}),
                       invalid={"lams": [[-1.0]], "n_lams": [0], "eps": [0.0, 1.0],
                                "solver": ["bogus"]}),
    "elastic_net_path": Case(call=lambda rng: (_regression(rng)[0], {"n_lams": 5}),
                             invalid={"rho": [-0.5, 1.5], "lams": [[-1.0]]}),
    "elastic_net_penalties": Case(call=lambda rng: ((1.0, 0.5), {}),
                                  invalid={"lam": [-1.0], "rho": [1.5]}),
    "logistic_nll": Case(call=_problem, invalid={"y": [np.full(N, 0.5)]}),
    "logistic_nll_gradient": Case(call=_problem, invalid={"y": [np.full(N, 2.0)]}),
    "logistic_nll_hessian": Case(call=lambda rng: _problem(rng, labels=False)),
    "softmax_nll": Case(call=_softmax_nll,
                        invalid={"codes": [np.r_[-1, _labels(3)[1:]], np.r_[3, _labels(3)[1:]],
                                           _labels(3) + 0.5]}),
    "scatter_matrices": Case(call=lambda rng: (_three_classes(rng)[0], {})),
    "fisher_direction": Case(call=_scatter,
                             invalid={"S_w": [np.ones((D, D + 1))], "rcond": [-1.0]}),
    "rayleigh_quotient": Case(call=_rayleigh, invalid={"S_b": [np.ones((D, D + 1))]}),
    "rescaled_decision": Case(call=_probabilities, accept=ELEMENTWISE("y"),
                              invalid={"y": [np.full(N, 1.5)], "m_pos": [0.0, -1.0]}),
    "rescale_probability": Case(call=_probabilities, accept=ELEMENTWISE("y"),
                                invalid={"y": [np.full(N, -0.5)], "m_neg": [0.0]}),
    "random_undersample": Case(call=lambda rng: (_binary(rng)[0], {"random_state": 0})),
    "random_oversample": Case(call=lambda rng: (_binary(rng)[0], {"random_state": 0})),
    "check_code_matrix": Case(call=lambda rng: ((_code(rng), 4), {}),
                              invalid={"n_classes": [3, 0], "code": [np.full((4, 3), 2.0)]}),
    "exhaustive_code_matrix": Case(call=lambda rng: ((4,), {}), invalid={"n_classes": [0]}),
    "random_code_matrix": Case(call=lambda rng: ((4, 6), {"random_state": 0}),
                               invalid={"n_classes": [0], "n_columns": [0]}),
    "minimum_code_distance": Case(call=lambda rng: ((_code(rng),), {})),
    "decode": Case(call=lambda rng: ((np.sign(rng.normal(size=(N, 7))), _code(rng)), {}),
                   invalid={"decoding": ["bogus"]}),
    "binary_confidence": Case(
        call=lambda rng: ((LogisticRegression(lam=0.1).fit(*_binary(rng)[0]), _features(rng)), {})),
    # ------------------------------------------------------------------ families
    "GaussianFamily": Case(call=lambda rng: ((1.0,), {}), invalid={"sigma": [0.0, -1.0]}),
    "BernoulliFamily": Case(call=lambda rng: ((), {})),
    "CategoricalFamily": Case(call=lambda rng: ((3,), {}), invalid={"n_classes": [1]}),
    "ExponentialFamily": Case(skip="the abstract base class of the three families"),
    # ------------------------------------------------------------------ results
    "RegularisationPath": Case(
        call=lambda rng: ((np.array([1.0, 0.1]), rng.normal(size=(2, D)), np.zeros(2),
                           np.ones(2, dtype=bool)), {})),
    "ScatterMatrices": Case(skip="a frozen result dataclass built by scatter_matrices"),
    "RankDeficientWarning": Case(skip="a warning class"),
}

#: Probabilities of the three families (their methods are fuzzed through the GLM).
FAMILIES = (GaussianFamily, BernoulliFamily, CategoricalFamily)
