"""Benchmark (not a test): naive Bayes fit and predict time against scikit-learn.

Run:  python -m benchmarks --only bayes [--quick]
      python benchmarks/bench_bayes.py [--quick]

For each size the same synthetic data (d = 20, 3 classes) go to
:class:`algorithms.bayes.NaiveBayesClassifier` and to scikit-learn: Gaussian attributes
against ``GaussianNB`` (the same ``var_smoothing`` and priors), categorical attributes
against ``CategoricalNB(alpha=1)`` with our Laplace-smoothed priors. Rows: ``fit`` and
``predict`` of each; the gap column is the largest difference of the predicted
probabilities. Target: ratios within 1.5.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
from sklearn.naive_bayes import CategoricalNB, GaussianNB

try:
    from benchmarks._harness import BenchCase
except ModuleNotFoundError:  # run as a script: python benchmarks/bench_bayes.py
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from benchmarks._harness import BenchCase

from algorithms.bayes import NaiveBayesClassifier

D, K = 20, 3


def gaussian_data(n: int, d: int, k: int, rng: np.random.Generator):
    y = rng.integers(0, k, size=n)
    X = rng.normal(size=(n, d)) * rng.uniform(0.5, 2.0, size=d) + y[:, None] * rng.normal(size=d)
    return X, y


def categorical_data(n: int, d: int, k: int, rng: np.random.Generator, values: int = 5):
    y = rng.integers(0, k, size=n)
    X = (rng.integers(0, values, size=(n, d)) + y[:, None] * (rng.random((n, d)) < 0.3)) % values
    return X.astype(float), y


def _gaussian_setup(n: int):
    def setup():
        X, y = gaussian_data(n, D, K, np.random.default_rng(n))
        model = NaiveBayesClassifier().fit(X, y)
        ref = GaussianNB(priors=np.exp(model.class_log_prior_)).fit(X, y)
        return {"X": X, "Xr": X, "y": y, "model": model, "ref": ref,
                "new_ours": NaiveBayesClassifier,
                "new_ref": lambda: GaussianNB(priors=np.exp(model.class_log_prior_))}
    return setup


def _categorical_setup(n: int):
    def setup():
        X, y = categorical_data(n, D, K, np.random.default_rng(n + 1))
        model = NaiveBayesClassifier(categorical_features="all").fit(X, y)
        Xi = X.astype(int)
        prior = np.exp(model.class_log_prior_)
        ref = CategoricalNB(alpha=1.0, class_prior=prior).fit(Xi, y)
        return {"X": X, "Xr": Xi, "y": y, "model": model, "ref": ref,
                "new_ours": lambda: NaiveBayesClassifier(categorical_features="all"),
                "new_ref": lambda: CategoricalNB(alpha=1.0, class_prior=prior)}
    return setup


def _proba_gap(data_of):
    def gap(ours, ref) -> float:
        d = data_of()
        return float(np.max(np.abs(ours.predict_proba(d["X"]) - ref.predict_proba(d["Xr"]))))
    return gap


def cases(quick: bool) -> list[BenchCase]:
    sizes = [1_000, 10_000] if quick else [1_000, 10_000, 100_000]
    out = []
    for n in sizes:
        for label, make_setup, ref_name in (
                ("Gaussian NB", _gaussian_setup(n), "sklearn.naive_bayes.GaussianNB"),
                ("Categorical NB", _categorical_setup(n), "sklearn.naive_bayes.CategoricalNB")):
            box: dict = {}

            def setup(make_setup=make_setup, box=box):
                box.update(make_setup())
                return box

            def data_of(box=box):
                return box

            out.append(BenchCase(
                f"{label} fit", n,
                ours=lambda d: d["new_ours"]().fit(d["X"], d["y"]),
                reference=lambda d: d["new_ref"]().fit(d["Xr"], d["y"]),
                setup=setup, objective_gap=_proba_gap(data_of), repeats=15,
                params={"d": D, "classes": K}, reference_name=ref_name))
            out.append(BenchCase(
                f"{label} predict", n,
                ours=lambda d: d["model"].predict(d["X"]),
                reference=lambda d: d["ref"].predict(d["Xr"]),
                setup=setup, objective_gap=lambda a, b: float(np.mean(a != b)), repeats=15,
                params={"d": D, "classes": K, "gap": "share of different labels"},
                reference_name=ref_name))
    return out


def main(argv: list[str] | None = None) -> int:
    from benchmarks._runner import run_standalone

    return run_standalone("bayes", cases, argv, __doc__.splitlines()[0])


if __name__ == "__main__":
    sys.exit(main())
