"""The compiled loops (numba kernels) record exactly the runs of their pure-Python
reference loops, on the same data and visiting orders.

Coordinates are dyadic (multiples of 1/8): every sum and product is then exact in
float64 in any order of summation, so the two loops must agree bit for bit, mistakes at
margins of exactly 0 included. On ordinary floats they agree to rounding.
"""

from __future__ import annotations

import itertools
import warnings

import numpy as np
import pytest
from sklearn.exceptions import ConvergenceWarning

from algorithms.perceptron import DualPerceptron, Perceptron, PocketPerceptron
from algorithms.perceptron._primal import compiled_pla, python_pla


class PythonPerceptron(Perceptron):
    _engine = "python"


class PythonDual(DualPerceptron):
    _engine = "python"


class PythonPocket(PocketPerceptron):
    _engine = "python"


def dyadic_data(seed: int, n: int = 40, d: int = 3, noise: float = 0.0):
    rng = np.random.default_rng(seed)
    X = np.round(rng.normal(size=(n, d)) * 16) / 8
    w = np.round(rng.normal(size=d) * 4) / 4
    y = np.where(X @ w + 0.25 > 0, 1, 0)
    flip = rng.random(n) < noise
    return X, np.where(flip, 1 - y, y)


def fitted(est, X, y):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        return est.fit(X, y)


PRIMAL_ATTRS = ("update_indices_", "updates_per_pass_", "weight_history_", "update_margins_",
                "mistake_counts_", "w_hat_", "n_iter_", "converged_")


@pytest.mark.parametrize("noise", [0.0, 0.2])
@pytest.mark.parametrize("params", [
    {},
    {"order": "random", "random_state": 3},
    {"eta": 0.5, "fit_intercept": False, "w_init": [0.5, -1.0, 2.0], "b_init": 1.0},
    {"order": "random", "random_state": 7, "eta": 2.0, "max_iter": 3},
])
def test_primal_compiled_equals_python(params, noise):
    X, y = dyadic_data(1, noise=noise)
    kw = {"max_iter": 200, **params}
    a, b = fitted(Perceptron(**kw), X, y), fitted(PythonPerceptron(**kw), X, y)
    assert a.n_updates_ > 0
    for name in PRIMAL_ATTRS:
        assert np.array_equal(getattr(a, name), getattr(b, name)), name


def test_primal_without_history_records_the_same_run():
    X, y = dyadic_data(2, noise=0.1)
    Z = np.hstack([X, np.ones((len(X), 1))]) * np.where(y == 1, 1.0, -1.0)[:, None]
    w0 = np.zeros(X.shape[1] + 1)
    full = compiled_pla(Z, Z, w0, None, 50)
    bare = compiled_pla(Z, Z, w0, None, 50, record=False)
    ref = python_pla(Z, Z, w0, itertools.repeat(np.arange(len(X))), 50, record=False)
    assert bare.history is None and ref.history is None and full.history.shape[0] > 1
    for run in (bare, ref):
        assert np.array_equal(run.updates, full.updates)
        assert np.array_equal(run.margins, full.margins)
        assert np.array_equal(run.w_hat, full.w_hat)


def test_primal_float_data_agrees_to_rounding():
    rng = np.random.default_rng(5)
    X = rng.normal(size=(300, 6))
    y = (X @ rng.normal(size=6) + 0.3 * rng.normal(size=300) > 0).astype(int)
    a = fitted(Perceptron(max_iter=20, order="random", random_state=1), X, y)
    b = fitted(PythonPerceptron(max_iter=20, order="random", random_state=1), X, y)
    assert np.array_equal(a.update_indices_, b.update_indices_)
    np.testing.assert_allclose(a.weight_history_, b.weight_history_, rtol=1e-12, atol=1e-12)


def _rbf(A, B):
    return np.exp(-0.5 * ((A[:, None, :] - B[None, :, :]) ** 2).sum(-1))


@pytest.mark.parametrize("params", [{}, {"order": "random", "random_state": 4, "eta": 0.5},
                                    {"kernel": _rbf}, {"max_iter": 2}])
def test_dual_compiled_equals_python(params):
    X, y = dyadic_data(3, noise=0.15)
    kw = {"max_iter": 100, **params}
    a, b = fitted(DualPerceptron(**kw), X, y), fitted(PythonDual(**kw), X, y)
    for name in ("update_indices_", "updates_per_pass_", "mistake_counts_", "alpha_",
                 "intercept_", "n_iter_", "converged_"):
        assert np.array_equal(getattr(a, name), getattr(b, name)), name
    assert np.array_equal(a.decision_function(X), b.decision_function(X))


@pytest.mark.parametrize("seed", [0, 1])
def test_pocket_compiled_equals_python(seed):
    X, y = dyadic_data(4 + seed, n=30, noise=0.2)
    gen_a, gen_b = np.random.default_rng(seed), np.random.default_rng(seed)
    a = fitted(PocketPerceptron(max_iter=60, random_state=gen_a), X, y)
    b = fitted(PythonPocket(max_iter=60, random_state=gen_b), X, y)
    for name in ("update_indices_", "weight_history_", "pocket_errors_", "current_errors_",
                 "pocket_iteration_", "w_hat_", "last_w_hat_", "converged_"):
        assert np.array_equal(getattr(a, name), getattr(b, name)), name
    # the generator is left where numpy's own draws leave it
    assert gen_a.integers(2**62) == gen_b.integers(2**62)
