"""Benchmark: our SMO (algorithms.svm.SMOClassifier) against scikit-learn's SVC (libsvm).

Fits both on the same data (n = 1000 - 5000; linear and RBF kernels), same C, same
tolerance, and prints fit time, test accuracy and the ratios. Not a test.

Run: python benchmarks/bench_svm.py [--sizes 1000 2000 5000]
"""

from __future__ import annotations

import argparse
import time

import numpy as np
from sklearn.svm import SVC

from algorithms.svm import SMOClassifier


def make_data(n: int, kind: str, rng: np.random.Generator):
    d = 10
    X = rng.normal(size=(2 * n, d))
    if kind == "linear":
        score = X @ rng.normal(size=d) + 0.5 * rng.normal(size=2 * n)
    else:  # a non-linear (radial) boundary with label noise
        score = np.sum(X[:, :3] ** 2, axis=1) - 3.0 + 0.5 * rng.normal(size=2 * n)
    y = np.where(score > 0, 1, -1)
    return X[:n], y[:n], X[n:], y[n:]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 2000, 5000])
    parser.add_argument("--C", type=float, default=1.0)
    parser.add_argument("--tol", type=float, default=1e-3)
    args = parser.parse_args()
    rng = np.random.default_rng(2024)
    sigma = np.sqrt(10 / 2)  # gamma = 1 / (2 sigma^2) = 1 / n_features, sklearn's "scale"-ish
    print(f"{'kernel':7} {'n':>5} {'SMO s':>8} {'SVC s':>8} {'time x':>7} "
          f"{'SMO acc':>8} {'SVC acc':>8} {'acc diff':>9} {'SMO iter':>9} {'#SV':>5}/{'#SV':<5}")
    for kind in ("linear", "rbf"):
        for n in args.sizes:
            X, y, Xt, yt = make_data(n, kind, rng)
            if kind == "linear":
                ours = SMOClassifier(C=args.C, tol=args.tol, kernel="linear")
                ref = SVC(C=args.C, tol=args.tol, kernel="linear")
            else:
                ours = SMOClassifier(C=args.C, tol=args.tol, kernel="rbf",
                                     kernel_params={"sigma": sigma})
                ref = SVC(C=args.C, tol=args.tol, kernel="rbf", gamma=1 / (2 * sigma**2))
            t0 = time.perf_counter()
            ours.fit(X, y)
            t1 = time.perf_counter()
            ref.fit(X, y)
            t2 = time.perf_counter()
            a_ours, a_ref = ours.score(Xt, yt), ref.score(Xt, yt)
            print(f"{kind:7} {n:5d} {t1 - t0:8.3f} {t2 - t1:8.3f} {(t1 - t0) / (t2 - t1):7.1f} "
                  f"{a_ours:8.4f} {a_ref:8.4f} {a_ours - a_ref:+9.4f} {ours.n_iter_:9d} "
                  f"{ours.support_.size:5d}/{ref.support_.size:<5d}")


if __name__ == "__main__":
    main()
