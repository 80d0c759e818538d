"""Benchmark (not a test): the perceptron family's compiled loops against scikit-learn.

Run:  python -m benchmarks --only perceptron [--quick]
      python benchmarks/bench_perceptron.py [--quick]

- ``Perceptron`` (cyclic, eta = 1, from 0) against ``sklearn.linear_model.Perceptron(
  eta0=1, penalty=None, shuffle=False, tol=None)`` for the same number of epochs: the
  two run the same algorithm in the same order, so the weights agree (the gap column is
  max |w_ours - w_sklearn| over coef and intercept) and the ratio is the ratio per epoch.
  Data: digits, classes >= 5 against < 5 (not separable, every epoch makes updates), and
  Gaussian data with noisy linear labels at n = 10^5 (10^4 quick), d = 20.
- ``order="random"`` against scikit-learn's ``shuffle=True`` (both draw one permutation
  per epoch; different generators, so no gap).
- ``DualPerceptron`` (Gram matrix) against the same scikit-learn run (its weights
  ``sum_i alpha_i y_i x_i`` are compared).
- Compiled loops against our own step-by-step Python reference loops (``_engine =
  "python"``): primal, dual and pocket.

Setup (untimed) loads the data and calls each compiled loop once, so numba's load or
compilation is never timed. Target of issue 18: Perceptron <= 2x scikit-learn per epoch.
"""

from __future__ import annotations

import sys
import warnings
from pathlib import Path

import numpy as np
from sklearn.datasets import load_digits
from sklearn.exceptions import ConvergenceWarning
from sklearn.linear_model import Perceptron as SkPerceptron

try:
    from benchmarks._harness import BenchCase
except ModuleNotFoundError:  # run as a script: python benchmarks/bench_perceptron.py
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from benchmarks._harness import BenchCase

from algorithms.perceptron import DualPerceptron, Perceptron, PocketPerceptron

SK_PERCEPTRON = "sklearn.linear_model.Perceptron"


class _PythonPerceptron(Perceptron):
    _engine = "python"


class _PythonDual(DualPerceptron):
    _engine = "python"


class _PythonPocket(PocketPerceptron):
    _engine = "python"


def _quiet_fit(est, X, y):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        return est.fit(X, y)


def _warm_up() -> None:
    """Load (or compile) every kernel once, on a tiny problem."""
    X = np.array([[0.0, 0.0], [1.0, 1.0], [0.0, 1.0], [1.0, 0.0]])
    y = np.array([0, 0, 1, 1])
    for est in (Perceptron(max_iter=2), Perceptron(max_iter=2, order="random",
                                                    random_state=0),
                DualPerceptron(max_iter=2), DualPerceptron(max_iter=2, order="random",
                                                           random_state=0),
                PocketPerceptron(max_iter=2, random_state=0)):
        _quiet_fit(est, X, y)


def digits():
    data = load_digits()
    return data.data, (data.target >= 5).astype(int)


def noisy_linear(n: int, d: int = 20, seed: int = 0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d))
    y = (X @ rng.normal(size=d) + 0.5 * rng.normal(size=n) > 0).astype(int)
    return X, y


def _with_warm_up(make_data):
    def setup():
        _warm_up()
        return make_data()
    return setup


def _weight_gap(ours, ref) -> float:
    return float(max(np.max(np.abs(ours.coef_ - ref.coef_.ravel())),
                     abs(ours.intercept_ - float(ref.intercept_[0]))))


def _sk(epochs: int, shuffle: bool = False):
    return lambda data: SkPerceptron(eta0=1.0, penalty=None, shuffle=shuffle, tol=None,
                                     max_iter=epochs, random_state=0).fit(*data)


def _fit(cls, **params):
    return lambda data: _quiet_fit(cls(**params), *data)


def cases(quick: bool) -> list[BenchCase]:
    epochs = 50 if quick else 200
    big_n = 10_000 if quick else 100_000
    big_epochs = 10
    out = []
    for label, make, n, d, e in (("digits >=5", digits, 1797, 64, epochs),
                                 ("noisy linear", lambda: noisy_linear(big_n), big_n, 20,
                                  big_epochs)):
        out.append(BenchCase(
            f"Perceptron cyclic, {label}", n, ours=_fit(Perceptron, max_iter=e),
            reference=_sk(e), setup=_with_warm_up(make), objective_gap=_weight_gap,
            repeats=5, params={"d": d, "epochs": e}, reference_name=SK_PERCEPTRON))
        out.append(BenchCase(
            f"Perceptron random order, {label}", n,
            ours=_fit(Perceptron, max_iter=e, order="random", random_state=0),
            reference=_sk(e, shuffle=True), setup=_with_warm_up(make), repeats=5,
            params={"d": d, "epochs": e}, reference_name=SK_PERCEPTRON + " shuffle=True"))
    out.append(BenchCase(
        "DualPerceptron (Gram), digits >=5", 1797, ours=_fit(DualPerceptron, max_iter=epochs),
        reference=_sk(epochs), setup=_with_warm_up(digits), objective_gap=_weight_gap,
        repeats=3, params={"d": 64, "epochs": epochs}, reference_name=SK_PERCEPTRON))
    # compiled loops against our own Python reference loops
    py_epochs = 5 if quick else 20
    out.append(BenchCase(
        "Perceptron compiled vs Python loop, digits >=5", 1797,
        ours=_fit(Perceptron, max_iter=py_epochs), reference=_fit(_PythonPerceptron,
                                                                  max_iter=py_epochs),
        setup=_with_warm_up(digits), objective_gap=lambda a, b: float(np.max(np.abs(
            a.weight_history_ - b.weight_history_))),
        repeats=3, params={"d": 64, "epochs": py_epochs},
        reference_name="our Python loop (_engine='python')"))
    out.append(BenchCase(
        "DualPerceptron compiled vs Python loop, digits >=5", 1797,
        ours=_fit(DualPerceptron, max_iter=py_epochs),
        reference=_fit(_PythonDual, max_iter=py_epochs), setup=_with_warm_up(digits),
        objective_gap=lambda a, b: float(np.max(np.abs(a.alpha_ - b.alpha_))),
        repeats=3, params={"d": 64, "epochs": py_epochs},
        reference_name="our Python loop (_engine='python')"))
    pocket_iters = 200 if quick else 2000
    out.append(BenchCase(
        "PocketPerceptron compiled vs Python loop, digits >=5", 1797,
        ours=_fit(PocketPerceptron, max_iter=pocket_iters, random_state=0),
        reference=_fit(_PythonPocket, max_iter=pocket_iters, random_state=0),
        setup=_with_warm_up(digits),
        objective_gap=lambda a, b: float(np.max(np.abs(a.w_hat_ - b.w_hat_))),
        repeats=3, params={"d": 64, "iterations": pocket_iters},
        reference_name="our Python loop (_engine='python')"))
    return out


def main(argv: list[str] | None = None) -> int:
    from benchmarks._runner import run_standalone

    return run_standalone("perceptron", cases, argv, __doc__.splitlines()[0])


if __name__ == "__main__":
    sys.exit(main())
