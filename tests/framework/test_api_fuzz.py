"""The API fuzz harness (tests/api_fuzz.py) shows its teeth on toy functions.

A well-behaved function and estimator pass every variant; functions with one defect
each (complex accepted, NaN in and NaN out, a numpy-internal message, overflow at
1e300, a hang, a type error that names nothing, no NotFittedError) are caught.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import pytest
from sklearn.base import BaseEstimator, RegressorMixin

from algorithms._validation import (
    check_choice,
    check_int,
    check_real,
    validate_features,
    validate_regression,
)
from tests.api_fuzz import (
    Case,
    case_seed,
    nonfinite_path,
    random_variants,
    run_variant,
    variants,
)

SEED = 7


def _check_data(X, y):
    """Hand-written checks of the toy: float64, real, finite, (N, d) and (N,)."""
    for name, value, ndim in (("X", X, 2), ("y", y, 1)):
        if np.iscomplexobj(value):
            raise TypeError(f"{name} must be real")
        try:
            arr = np.asarray(value, dtype=np.float64)
        except (TypeError, ValueError) as exc:
            raise TypeError(f"{name} must be numeric: {exc}") from exc
        if arr.ndim != ndim or arr.shape[0] == 0:
            raise ValueError(f"{name} must be a non-empty {ndim}-d array")
        if not np.all(np.isfinite(arr)):
            raise ValueError(f"{name} must be finite")
        if name == "X":
            X = arr
        else:
            y = arr
    if X.shape[0] != y.shape[0]:
        raise ValueError("X and y must have as many rows")
    return X, y


def good(X, y, lam, *, n_steps=3, solver="exact"):
    """Ridge-like toy that validates everything and rescales internally."""
    X, y = _check_data(X, y)
    lam = check_real(lam, "lam", low=0.0)
    n_steps = check_int(n_steps, "n_steps", low=0, high=1000)
    check_choice(solver, "solver", ("exact",))
    sx = max(float(np.max(np.abs(X))), np.finfo(float).tiny)
    sy = max(float(np.max(np.abs(y))), np.finfo(float).tiny)
    Xs, ys = X / sx, y / sy
    A = Xs.T @ Xs + (lam + 1.0) * np.eye(X.shape[1])
    return np.linalg.solve(A, Xs.T @ ys)


def accepts_complex(X, y, lam, *, n_steps=3, solver="exact"):
    X = np.real(np.asarray(X)).astype(float)  # the defect: the imaginary part is dropped
    return good(X, y, lam, n_steps=n_steps, solver=solver)


def nan_through(X, y, lam, *, n_steps=3, solver="exact"):
    if np.isnan(np.asarray(X, dtype=complex)).any():  # the defect: NaN in, NaN out
        return np.full(np.shape(X)[1], np.nan)
    return good(X, y, lam, n_steps=n_steps, solver=solver)


def numpy_message(X, y, lam, *, n_steps=3, solver="exact"):
    np.asarray(X).T @ np.asarray(y)  # the defect: a matmul message names no argument
    return good(X, y, lam, n_steps=n_steps, solver=solver)


def overflows(X, y, lam, *, n_steps=3, solver="exact"):
    good(X, y, lam, n_steps=n_steps, solver=solver)
    X = np.asarray(X, dtype=float)
    return np.linalg.norm(X) ** 2 * np.ones(X.shape[1])  # the defect: no rescaling


def hangs(X, y, lam, *, n_steps=3, solver="exact"):
    n_steps = check_int(n_steps, "n_steps", low=0)  # the defect: no cap
    total = 0
    for i in range(n_steps):
        total += i
    return good(X, y, lam, solver=solver) + 0 * total


def unnamed_type_error(X, y, lam, *, n_steps=3, solver="exact"):
    lam = float(lam)  # the defect: "could not convert string to float: 'abc'"
    return good(X, y, lam, n_steps=n_steps, solver=solver)


def crashes_on_empty(X, y, lam, *, n_steps=3, solver="exact"):
    np.asarray(X)[0]  # the defect: IndexError on 0 rows
    return good(X, y, lam, n_steps=n_steps, solver=solver)


def _call(rng):
    return (rng.normal(size=(12, 3)), rng.normal(size=12), 0.5), {"n_steps": 4}


FUNCTION_CASE = Case(call=_call, invalid={"lam": [-1.0]}, timeout=2.0)


def _failures(func, case=FUNCTION_CASE):
    found = variants(func, case, SEED)
    return {v.id: run_variant(func, case, v, SEED) for v in found}


def test_the_variants_of_a_function_are_derived_from_the_valid_call():
    ids = [v.id for v in variants(good, FUNCTION_CASE, SEED)]
    assert ids[0] == "valid"
    for expected in (
        "X-nan", "X-inf", "X-complex", "X-str", "X-extra-axis", "X-ravel", "X-empty",
        "X-short", "X-x1e300", "X-x1e-300", "y-short", "y-extra-axis", "lam-nan",
        "lam-inf", "lam-str", "lam-complex", "lam-invalid0", "n_steps-float",
        "n_steps-negative", "n_steps-huge",
    ):
        assert expected in ids
    assert "y-ravel" not in ids  # 1-d: nothing to ravel
    assert "solver-bogus" not in ids  # a default not passed by the valid call


def test_a_good_function_passes_every_variant():
    failures = {k: v for k, v in _failures(good).items() if v is not None}
    assert failures == {}


@pytest.mark.parametrize(
    ("func", "variant", "words"),
    [
        (accepts_complex, "X-complex", "accepted the bad input (complex)"),
        (nan_through, "X-nan", "accepted the bad input (nan)"),
        (numpy_message, "X-short", "does not name X or y"),
        (overflows, "X-x1e300", "non-finite value"),
        (hangs, "n_steps-huge", "took longer than 2 s"),
        (unnamed_type_error, "lam-str", "does not name lam"),
        (crashes_on_empty, "X-empty", "crashed: IndexError"),
    ],
)
def test_each_defect_is_caught(func, variant, words):
    failures = _failures(func)
    assert failures[variant] is not None and words in failures[variant], failures[variant]


def test_an_accepted_variant_only_has_to_finish():
    case = Case(call=_call, accept=frozenset({"X-complex"}), timeout=2.0)
    accepted = _by_id(accepts_complex, case, "X-complex")
    assert run_variant(accepts_complex, case, accepted, SEED) is None
    with pytest.raises(ValueError, match="not generated"):
        variants(good, Case(call=_call, accept=frozenset({"X-bogus"})), SEED)
    with pytest.raises(ValueError, match="does not have"):
        variants(good, Case(call=_call, invalid={"lambda": [1.0]}), SEED)


def _by_id(obj, case, variant_id):
    return next(v for v in variants(obj, case, SEED) if v.id == variant_id)


class GoodRegressor(RegressorMixin, BaseEstimator):
    """Toy estimator validating through algorithms._validation."""

    def __init__(self, lam=1.0, max_iter=10, solver="exact"):
        self.lam = lam
        self.max_iter = max_iter
        self.solver = solver

    def fit(self, X, y):
        check_real(self.lam, "lam", low=0.0)
        check_int(self.max_iter, "max_iter", low=1, high=10_000)
        check_choice(self.solver, "solver", ("exact",))
        X, y = validate_regression(self, X, y)
        self.coef_ = good(X, y, self.lam)
        self.scale_ = max(float(np.max(np.abs(X))), np.finfo(float).tiny)
        self.y_scale_ = max(float(np.max(np.abs(y))), np.finfo(float).tiny)
        return self

    def predict(self, X):
        X = validate_features(self, X)
        return (X / self.scale_) @ self.coef_ * self.y_scale_

    def score(self, X, y):
        pred = self.predict(X) / self.y_scale_
        y = np.asarray(y, dtype=float) / self.y_scale_
        return 1.0 - float(np.sum((y - pred) ** 2)) / max(float(np.sum(y**2)), 1e-300)


class AttributeErrorBeforeFit(GoodRegressor):
    def predict(self, X):
        return X @ self.coef_  # the defect: AttributeError before fit


class NaNCoefficients(GoodRegressor):
    def fit(self, X, y):
        super().fit(X, y)
        self.coef_ = self.coef_ * np.nan  # the defect: fitted attribute NaN
        return self


def _fit_call(rng):
    X = rng.normal(size=(15, 3))
    return (X, X @ np.array([1.0, -2.0, 0.5]) + 0.1 * rng.normal(size=15)), {}


ESTIMATOR_CASE = Case(call=_fit_call, invalid={"lam": [-1.0]})


def test_a_good_estimator_passes_every_variant():
    found = variants(GoodRegressor, ESTIMATOR_CASE, SEED)
    ids = {v.id for v in found}
    assert {"lam-nan", "max_iter-huge", "solver-bogus", "predict-unfitted", "score-nan"} <= ids
    failures = {v.id: run_variant(GoodRegressor, ESTIMATOR_CASE, v, SEED) for v in found}
    assert {k: f for k, f in failures.items() if f is not None} == {}


def test_estimator_defects_are_caught():
    v = _by_id(AttributeErrorBeforeFit, ESTIMATOR_CASE, "predict-unfitted")
    failure = run_variant(AttributeErrorBeforeFit, ESTIMATOR_CASE, v, SEED)
    assert failure is not None and "not NotFittedError" in failure
    v = _by_id(NaNCoefficients, ESTIMATOR_CASE, "valid")
    failure = run_variant(NaNCoefficients, ESTIMATOR_CASE, v, SEED)
    assert failure is not None and "coef_" in failure
    exempt = Case(call=_fit_call, nan_ok=frozenset({"coef_", "predict", "score"}))
    assert run_variant(NaNCoefficients, exempt, v, SEED) is None


@dataclass
class _Result:
    values: np.ndarray
    label: str


def test_nonfinite_path_follows_containers():
    assert nonfinite_path((1.0, [2, {"a": np.ones(2)}])) is None
    found = nonfinite_path((1.0, [2, {"a": np.array([1.0, np.inf])}]))
    assert found is not None and found.startswith("result[1][1]['a'][(1,)]")
    assert nonfinite_path(_Result(np.array([np.nan]), "x")).startswith("result.values")
    assert nonfinite_path(_Result(np.array([np.nan]), "x"), exempt=frozenset({"values"})) is None
    assert nonfinite_path(complex(math.inf, 0)) is not None
    assert nonfinite_path(np.array([1.0, np.nan], dtype=object)) is not None


def test_a_case_needs_a_call_or_a_reason_and_seeds_are_fixed():
    with pytest.raises(ValueError, match="skip"):
        Case()
    with pytest.raises(TypeError, match="set of names"):
        Case(call=_call, accept="X-nan")  # type: ignore[arg-type]
    assert variants(good, Case(skip="a constant")) == []
    assert case_seed("linear", "ridge_solve") == case_seed("linear", "ridge_solve")
    assert case_seed("linear", "ridge_solve") != case_seed("linear", "Ridge")


def first_entry_only(X, y, lam, *, n_steps=3, solver="exact"):
    """Checks only the first entry of X for NaN, and never looks at X's scale."""
    X = np.asarray(X)
    if np.iscomplexobj(X) or X.dtype.kind not in "f" or not np.isfinite(X.flat[0]):
        raise ValueError("X must be a finite real array")
    return good(np.nan_to_num(X, nan=0.0, posinf=0.0), y, lam, n_steps=n_steps, solver=solver)


def test_random_variants_move_the_bad_entry_and_the_scale():
    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st

    assert run_variant(first_entry_only, FUNCTION_CASE,
                       _by_id(first_entry_only, FUNCTION_CASE, "X-nan"), SEED) is None
    strategy = random_variants(first_entry_only, FUNCTION_CASE, SEED)
    seen: list[str] = []

    @settings(max_examples=60, derandomize=True, database=None, deadline=None,
              suppress_health_check=list(HealthCheck))
    @given(data=st.data())
    def check(data):
        v = data.draw(strategy)
        seen.append(v.id)
        assert run_variant(first_entry_only, FUNCTION_CASE, v, SEED) is None, v.id

    with pytest.raises(AssertionError):
        check()
    assert any("@[" in i and not i.endswith("@[0, 0]") for i in seen)
    assert random_variants(good, Case(skip="x")) is None
