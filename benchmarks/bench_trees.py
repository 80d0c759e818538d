"""Benchmark (not a test): fit time and accuracy of our decision trees against scikit-learn.

Run:  python -m benchmarks --only trees [--quick]
      python benchmarks/bench_trees.py [--quick]

For each size the same synthetic data (d = 20, labels from a noisy non-linear rule, 20%
of the attributes informative) go to our ``DecisionTreeClassifier`` and to
scikit-learn's with the same criterion, fully grown; and to both
``DecisionTreeRegressor`` (squared error). Gap: the test accuracy (R^2 for regression)
of ours minus scikit-learn's on 10 000 fresh samples.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import sklearn.tree as sktree

try:
    from benchmarks._harness import BenchCase
except ModuleNotFoundError:  # run as a script: python benchmarks/bench_trees.py
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from benchmarks._harness import BenchCase

import algorithms.trees as ours

#: Fresh samples on which accuracies are compared.
N_TEST = 10_000
D = 20


def tree_data(n: int, d: int, rng: np.random.Generator, *, regression: bool = False):
    """Features at mixed scales; the target depends non-linearly on a fifth of them."""
    X = rng.normal(size=(n, d)) * rng.uniform(0.5, 5.0, size=d)
    k = max(2, d // 5)
    score = np.sin(X[:, 0]) + X[:, 1] * (X[:, 2 % k] > 0) + 0.3 * np.sum(X[:, :k], axis=1)
    if regression:
        return X, score + rng.normal(scale=0.5, size=n)
    y = np.digitize(score + rng.normal(scale=0.5, size=n), np.quantile(score, [1 / 3, 2 / 3]))
    return X, y


def tree_case(name: str, n: int, make_ours, make_ref, regression: bool) -> BenchCase:
    box: dict = {}

    def setup():
        X, y = tree_data(n + N_TEST, D, np.random.default_rng(n + regression),
                         regression=regression)
        box["test"] = X[n:], y[n:]
        return X[:n], y[:n]

    return BenchCase(
        name, n, ours=lambda s: make_ours().fit(*s), reference=lambda s: make_ref().fit(*s),
        setup=setup,
        objective_gap=lambda m, r: float(m.score(*box["test"]) - r.score(*box["test"])),
        repeats=3,
        params={"d": D, "gap": "test R^2 diff" if regression else "test accuracy diff"},
        reference_name=f"sklearn {type(make_ref()).__name__}")


def cases(quick: bool) -> list[BenchCase]:
    sizes = [1_000, 3_000] if quick else [1_000, 10_000, 100_000]
    out = []
    for n in sizes:
        for c in ("gini", "entropy"):
            out.append(tree_case(
                f"CART ({c})", n, lambda c=c: ours.DecisionTreeClassifier(criterion=c),
                lambda c=c: sktree.DecisionTreeClassifier(criterion=c, random_state=0),
                regression=False))
        out.append(tree_case(
            "regression tree (squared)", n, ours.DecisionTreeRegressor,
            lambda: sktree.DecisionTreeRegressor(random_state=0), regression=True))
    return out


def main(argv: list[str] | None = None) -> int:
    from benchmarks._runner import run_standalone

    return run_standalone("trees", cases, argv, __doc__.splitlines()[0])


if __name__ == "__main__":
    sys.exit(main())
