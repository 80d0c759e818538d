"""Benchmark (not a test): naive Bayes fit and predict time against scikit-learn.

Run:  python benchmarks/bench_bayes.py [--sizes 1000 10000 100000] [--features 20]
      [--repeats 5]

For each size the same synthetic data go to :class:`algorithms.bayes.NaiveBayesClassifier`
and to scikit-learn: Gaussian attributes against ``GaussianNB`` (the same
``var_smoothing`` and priors), categorical attributes against ``CategoricalNB(alpha=1)``
with our Laplace-smoothed priors. Printed per row: best-of-``repeats`` time of ``fit``
and of ``predict`` for each, the ratios ours/sklearn, and the largest difference of the
predicted probabilities. Target: ratios within 1.5.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable

import numpy as np
from sklearn.naive_bayes import CategoricalNB, GaussianNB

from algorithms.bayes import NaiveBayesClassifier


def best_time(run: Callable[[], object], repeats: int) -> tuple[float, object]:
    best, out = np.inf, None
    for _ in range(repeats):
        start = time.perf_counter()
        out = run()
        best = min(best, time.perf_counter() - start)
    return best, out


def gaussian_data(n: int, d: int, K: int, rng: np.random.Generator):
    y = rng.integers(0, K, size=n)
    X = rng.normal(size=(n, d)) * rng.uniform(0.5, 2.0, size=d) + y[:, None] * rng.normal(size=d)
    return X, y


def categorical_data(n: int, d: int, K: int, rng: np.random.Generator, values: int = 5):
    y = rng.integers(0, K, size=n)
    X = (rng.integers(0, values, size=(n, d)) + y[:, None] * (rng.random((n, d)) < 0.3)) % values
    return X.astype(float), y


def rows_for(n: int, d: int, K: int, repeats: int, rng: np.random.Generator):
    out = []
    X, y = gaussian_data(n, d, K, rng)
    ours = NaiveBayesClassifier()
    t_fit, m = best_time(lambda: ours.fit(X, y), repeats)
    priors = np.exp(m.class_log_prior_)
    ref = GaussianNB(priors=priors)
    s_fit, r = best_time(lambda: ref.fit(X, y), repeats)
    t_pred, _ = best_time(lambda: m.predict(X), repeats)
    s_pred, _ = best_time(lambda: r.predict(X), repeats)
    gap = float(np.max(np.abs(m.predict_proba(X) - r.predict_proba(X))))
    out.append(("Gaussian NB", n, t_fit, s_fit, t_pred, s_pred, gap))

    Xc, yc = categorical_data(n, d, K, rng)
    ours = NaiveBayesClassifier(categorical_features="all")
    t_fit, m = best_time(lambda: ours.fit(Xc, yc), repeats)
    ref = CategoricalNB(alpha=1.0, class_prior=np.exp(m.class_log_prior_))
    Xi = Xc.astype(int)
    s_fit, r = best_time(lambda: ref.fit(Xi, yc), repeats)
    t_pred, _ = best_time(lambda: m.predict(Xc), repeats)
    s_pred, _ = best_time(lambda: r.predict(Xi), repeats)
    gap = float(np.max(np.abs(m.predict_proba(Xc) - r.predict_proba(Xi))))
    out.append(("Categorical NB", n, t_fit, s_fit, t_pred, s_pred, gap))
    return out


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[1_000, 10_000, 100_000])
    parser.add_argument("--features", type=int, default=20)
    parser.add_argument("--classes", type=int, default=3)
    parser.add_argument("--repeats", type=int, default=30)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    rng = np.random.default_rng(args.seed)
    print(f"{'model':16s} {'n':>7s} {'fit ours':>9s} {'fit sk':>9s} {'ratio':>6s} "
          f"{'pred ours':>9s} {'pred sk':>9s} {'ratio':>6s}  max |P - P_sk|")
    for n in args.sizes:
        for name, n_, tf, sf, tp, sp_, gap in rows_for(n, args.features, args.classes,
                                                       args.repeats, rng):
            print(f"{name:16s} {n_:7d} {tf:9.4f} {sf:9.4f} {tf / sf:6.2f} "
                  f"{tp:9.4f} {sp_:9.4f} {tp / sp_:6.2f}  {gap:.2e}")


if __name__ == "__main__":
    main()
