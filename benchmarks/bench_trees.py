"""Benchmark (not a test): fit time and accuracy of our decision trees against scikit-learn.

Run:  python benchmarks/bench_trees.py [--sizes 1000 10000 100000] [--features 20]
      [--repeats 3]

For each size the same synthetic data (labels from a noisy non-linear rule, 20% of the
attributes informative) go to our ``DecisionTreeClassifier`` and to scikit-learn's with
the same criterion, fully grown; and to both ``DecisionTreeRegressor`` (squared error).
Printed per row: best-of-``repeats`` fit time of each, the ratio ours/sklearn, the test
accuracy (R^2 for regression) of each on 10 000 fresh samples, and the node counts.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable

import numpy as np
import sklearn.tree as sktree

import algorithms.trees as ours

#: Fresh samples on which accuracies are compared.
N_TEST = 10_000


def best_time(fit: Callable[[], object], repeats: int) -> tuple[float, object]:
    best, model = np.inf, None
    for _ in range(repeats):
        start = time.perf_counter()
        model = fit()
        best = min(best, time.perf_counter() - start)
    return best, model


def tree_data(n: int, d: int, rng: np.random.Generator, *, regression: bool = False):
    """Features at mixed scales; the target depends non-linearly on a fifth of them."""
    X = rng.normal(size=(n, d)) * rng.uniform(0.5, 5.0, size=d)
    k = max(2, d // 5)
    score = np.sin(X[:, 0]) + X[:, 1] * (X[:, 2 % k] > 0) + 0.3 * np.sum(X[:, :k], axis=1)
    if regression:
        return X, score + rng.normal(scale=0.5, size=n)
    y = np.digitize(score + rng.normal(scale=0.5, size=n), np.quantile(score, [1 / 3, 2 / 3]))
    return X, y


def rows_for(n: int, d: int, repeats: int, rng: np.random.Generator):
    X, y = tree_data(n + N_TEST, d, rng)
    Xr, yr = tree_data(n + N_TEST, d, rng, regression=True)
    train, test = slice(0, n), slice(n, None)
    cases = [
        (f"CART ({c})",
         lambda c=c: ours.DecisionTreeClassifier(criterion=c).fit(X[train], y[train]),
         lambda c=c: sktree.DecisionTreeClassifier(criterion=c, random_state=0).fit(
             X[train], y[train]),
         X, y)
        for c in ("gini", "entropy")
    ]
    cases.append(("Regression tree (squared)",
                  lambda: ours.DecisionTreeRegressor().fit(Xr[train], yr[train]),
                  lambda: sktree.DecisionTreeRegressor(random_state=0).fit(Xr[train], yr[train]),
                  Xr, yr))
    out = []
    for name, fit_ours, fit_sk, Xc, yc in cases:
        t_ours, m = best_time(fit_ours, repeats)
        t_sk, r = best_time(fit_sk, repeats)
        acc = (m.score(Xc[test], yc[test]), r.score(Xc[test], yc[test]))
        nodes = (m.tree_.node_count, r.tree_.node_count)
        out.append((name, n, t_ours, t_sk, acc, nodes))
    return out


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[1_000, 10_000, 100_000])
    parser.add_argument("--features", type=int, default=20)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    rng = np.random.default_rng(args.seed)
    header = (f"{'model':26s} {'n':>7s} {'ours [s]':>9s} {'sklearn [s]':>11s} {'ratio':>6s}"
              f"  {'score ours/sklearn':>19s}  {'nodes ours/sklearn':>18s}")
    print(f"d = {args.features}, best of {args.repeats} fits, scores on {N_TEST} fresh samples")
    print(header)
    print("-" * len(header))
    for n in args.sizes:
        for name, size, t_ours, t_sk, acc, nodes in rows_for(n, args.features, args.repeats, rng):
            print(f"{name:26s} {size:7d} {t_ours:9.4f} {t_sk:11.4f} {t_ours / t_sk:6.2f}"
                  f"  {acc[0]:9.4f}/{acc[1]:<9.4f}  {nodes[0]:8d}/{nodes[1]:<9d}")


if __name__ == "__main__":
    main()
