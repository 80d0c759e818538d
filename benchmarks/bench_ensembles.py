"""Benchmark (not a test): fit time and accuracy of the random forest and AdaBoost against
scikit-learn (single-threaded, ``n_jobs=1``).

Run:  python benchmarks/bench_ensembles.py [--sizes 1000 10000 100000] [--features 20]
                                           [--trees 20] [--rounds 50] [--repeats 1]

The same synthetic binary data (a nonlinear rule with 10% label noise; half of the
attributes informative) go to our estimator and to scikit-learn's counterpart with
matching settings: ``RandomForestClassifier(T, max_features="log2", criterion="gini")``
and AdaBoost with decision stumps (``AdaBoostClassifier(DecisionTreeClassifier(
max_depth=1))``, SAMME, which is the notes' algorithm for two classes). Printed per row:
best-of-``repeats`` fit time of each, the ratio ours/scikit-learn, and the accuracy of
both on a held-out sample of 20 000 points (its standard error is about 0.003).
"""

from __future__ import annotations

import argparse
import time
import warnings
from collections.abc import Callable

import numpy as np
from sklearn.ensemble import AdaBoostClassifier as SkAdaBoost
from sklearn.ensemble import RandomForestClassifier as SkForest
from sklearn.tree import DecisionTreeClassifier as SkTree

import algorithms.ensembles as ours

TEST_SIZE = 20_000


def best_time(fit: Callable[[], object], repeats: int) -> tuple[float, object]:
    best, model = np.inf, None
    for _ in range(repeats):
        start = time.perf_counter()
        model = fit()
        best = min(best, time.perf_counter() - start)
    return best, model


def data(n: int, w: np.ndarray, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """x ~ N(0, I_d); y = [x_{1..k} . w + sin(2 x_1) x_2 > 0] with 10% of labels flipped."""
    X = rng.normal(size=(n, w.shape[0]))
    score = X @ w + np.sin(2.0 * X[:, 0]) * X[:, 1]
    y = (score > 0).astype(int)
    flip = rng.random(n) < 0.1
    return X, np.where(flip, 1 - y, y)


def rows_for(n: int, d: int, trees: int, rounds: int, repeats: int,
             rng: np.random.Generator):
    w = np.zeros(d)
    w[: max(2, d // 2)] = rng.normal(size=max(2, d // 2))  # half of the attributes matter
    X, y = data(n, w, rng)
    Xt, yt = data(TEST_SIZE, w, rng)
    cases = [
        (f"RandomForest (T={trees})",
         lambda: ours.RandomForestClassifier(trees, random_state=0).fit(X, y),
         lambda: SkForest(trees, max_features="log2", n_jobs=1, random_state=0).fit(X, y)),
        (f"AdaBoost stumps (T={rounds})",
         lambda: ours.AdaBoostClassifier(n_estimators=rounds, random_state=0).fit(X, y),
         lambda: SkAdaBoost(SkTree(max_depth=1), n_estimators=rounds,
                            random_state=0).fit(X, y)),
    ]
    out = []
    for name, fit_ours, fit_sk in cases:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            t_ours, m = best_time(fit_ours, repeats)
            t_sk, r = best_time(fit_sk, repeats)
        out.append((name, n, t_ours, t_sk, m.score(Xt, yt), r.score(Xt, yt)))
    return out


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[1_000, 10_000, 100_000])
    parser.add_argument("--features", type=int, default=20)
    parser.add_argument("--trees", type=int, default=20)
    parser.add_argument("--rounds", type=int, default=50)
    parser.add_argument("--repeats", type=int, default=1)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    rng = np.random.default_rng(args.seed)
    header = (f"{'model':26s} {'n':>7s} {'ours [s]':>10s} {'sklearn [s]':>11s} {'ratio':>7s}"
              f" {'acc ours':>9s} {'acc sklearn':>11s}")
    print(f"d = {args.features}, best of {args.repeats} fit(s), n_jobs=1, "
          f"held-out n = {TEST_SIZE}")
    print(header)
    print("-" * len(header))
    for n in args.sizes:
        for name, size, t_ours, t_sk, a_ours, a_sk in rows_for(
                n, args.features, args.trees, args.rounds, args.repeats, rng):
            print(f"{name:26s} {size:7d} {t_ours:10.3f} {t_sk:11.3f} {t_ours / t_sk:7.2f}"
                  f" {a_ours:9.4f} {a_sk:11.4f}", flush=True)


if __name__ == "__main__":
    main()
