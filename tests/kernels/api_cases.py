"""Bad-input cases for every exported name of ``algorithms.kernels`` (see tests/api_fuzz.py)."""

from __future__ import annotations

import numpy as np

from algorithms.kernels import (
    GaussianKernel,
    LaplacianKernel,
    LinearKernel,
    PolynomialKernel,
    ProductKernel,
    ScaledByFunctionKernel,
    SigmoidKernel,
    SumKernel,
)
from tests.api_fuzz import Case

#: Points and query points of every kernel call: 12 and 5 points in 3 dimensions.
N_POINTS, N_QUERIES, N_FEATURES = 12, 5, 3


def _points(rng: np.random.Generator) -> tuple[tuple, dict]:
    return (rng.normal(size=(N_POINTS, N_FEATURES)), rng.normal(size=(N_QUERIES, N_FEATURES))), {}


def _labelled(rng: np.random.Generator) -> tuple[tuple, dict]:
    X = rng.normal(size=(N_POINTS, N_FEATURES))
    y = np.arange(N_POINTS) % 2
    return (X + y[:, None], y), {}


def _regression(rng: np.random.Generator) -> tuple[tuple, dict]:
    X = rng.normal(size=(N_POINTS, N_FEATURES))
    return (X, X @ np.array([1.0, -2.0, 0.5]) + 0.1 * rng.normal(size=N_POINTS)), {}


def _kernel_matrix(rng: np.random.Generator) -> tuple[tuple, dict]:
    X = rng.normal(size=(N_POINTS, N_FEATURES))
    return (GaussianKernel(1.0)(X), np.arange(N_POINTS) % 2), {}


#: An empty set of points is valid for a kernel: its Gram matrix has no rows (or columns).
EMPTY_POINTS = frozenset({"X-empty", "Z-empty"})


def _with(params: dict):
    def call(rng: np.random.Generator) -> tuple[tuple, dict]:
        (X, Z), _ = _points(rng)
        return (X, Z), dict(params)

    return call


def _bounded(A: np.ndarray) -> np.ndarray:
    """A real function of the points with finite values at any finite point."""
    return np.tanh(A[:, 0]) + 2.0


def _kernel_case(call, target, invalid=None) -> Case:
    """A kernel's Gram matrix on (X, Z), with its parameters fuzzed as arguments."""
    return Case(call=call, target=target, invalid=invalid or {}, accept=EMPTY_POINTS)


CASES: dict[str, Case] = {
    "Kernel": Case(skip="the abstract base class of the kernels (its Gram matrix is "
                   "defined by subclasses, each fuzzed below)"),
    "LinearKernel": _kernel_case(_points, lambda X, Z: LinearKernel()(X, Z)),
    "PolynomialKernel": _kernel_case(
        _with({"degree": 3, "coef0": 1.0}),
        lambda X, Z, degree, coef0: PolynomialKernel(degree, coef0)(X, Z),
        {"degree": [0], "coef0": [-1.0]},
    ),
    "GaussianKernel": _kernel_case(_with({"sigma": 1.5}),
                                   lambda X, Z, sigma: GaussianKernel(sigma)(X, Z),
                                   {"sigma": [0.0, -1.0]}),
    "LaplacianKernel": _kernel_case(_with({"sigma": 1.5}),
                                    lambda X, Z, sigma: LaplacianKernel(sigma)(X, Z),
                                    {"sigma": [0.0, -1.0]}),
    "SigmoidKernel": _kernel_case(_with({"beta": 0.5, "theta": -1.0}),
                                  lambda X, Z, beta, theta: SigmoidKernel(beta, theta)(X, Z),
                                  {"beta": [0.0], "theta": [0.0, 1.0]}),
    "SumKernel": _kernel_case(
        _with({"gamma1": 0.5, "gamma2": 2.0}),
        lambda X, Z, gamma1, gamma2: SumKernel(
            GaussianKernel(), LaplacianKernel(), gamma1, gamma2)(X, Z),
        {"gamma1": [0.0, -1.0], "gamma2": [0.0]},
    ),
    "ProductKernel": _kernel_case(_points, lambda X, Z: ProductKernel(
        GaussianKernel(), PolynomialKernel(2, 1.0))(X, Z)),
    "ScaledByFunctionKernel": _kernel_case(_points, lambda X, Z: ScaledByFunctionKernel(
        LaplacianKernel(), _bounded)(X, Z)),
    "gram_matrix": Case(call=lambda rng: (("rbf", *_points(rng)[0]), {"sigma": 2.0}),
                        invalid={"kernel": ["bogus", 3], "sigma": [-1.0]},
                        accept=EMPTY_POINTS),
    "make_kernel": Case(call=lambda rng: (("poly", {"degree": 2}), {}),
                        invalid={"kernel": ["bogus", None], "params": [[2], {"gamma": 1.0}]}),
    "squared_distances": Case(call=_points, accept=EMPTY_POINTS),
    "KernelRidge": Case(call=_regression, init=lambda: {"kernel": "rbf"},
                        invalid={"lam": [0.0, -1.0], "kernel_params": [{"sigma": -1.0}]}),
    "KernelLDA": Case(call=_labelled, invalid={"reg": [-1.0],
                                               "kernel_params": [{"degree": 2}]}),
    "klda_matrices": Case(call=_kernel_matrix),
}
