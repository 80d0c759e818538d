"""Benchmark (not a test): graph-based semi-supervised learning against scikit-learn.

Run:  python benchmarks/bench_ssl.py [--sizes 1000 3000] [--knn-sizes 10000] [--repeats 3]

Same data (two Gaussian blobs in d = 10, 1 % of the samples labelled), same graph, both
solved to equal accuracy, one process, the best of ``--repeats`` fits alternating the
two libraries:

- dense Gaussian graph (11.7), sigma = 1 (scikit-learn: ``kernel="rbf"``, gamma = 1/2):
  our ``LabelSpreading`` iterates (11.14) until ||F(t+1) - F(t)||_F <= 1e-9; scikit-learn's
  iterates until its summed absolute change is <= 1e-9. Our ``LabelPropagation`` solves
  (11.10) directly; scikit-learn's ``LabelPropagation`` iterates with clamping to the
  same harmonic solution (tol 1e-9, max_iter 10^4);
- at n = 10^4 a k-nearest-neighbour graph (k = 10): ours Gaussian-weighted with a large
  sigma (weights within 1e-4 of 1), scikit-learn's ``kernel="knn"`` 0/1 connectivity. The
  graphs differ in symmetrisation (ours: an edge if either end lists the other), so this
  row compares like for like only roughly.

Target of issue 16: ratio (ours / scikit-learn) <= 1.5 at n = 10^3-10^4.
"""

from __future__ import annotations

import argparse
import time
import warnings

import numpy as np
from sklearn.exceptions import ConvergenceWarning
from sklearn.semi_supervised import LabelPropagation as SkProp
from sklearn.semi_supervised import LabelSpreading as SkSpread

from algorithms.semi_supervised import LabelPropagation, LabelSpreading

D = 10
TARGET = 1.5


def data(n: int, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    y = np.arange(n) % 2
    X = rng.normal(size=(n, D)) + 1.5 * y[:, None]
    partial = np.full(n, -1)
    keep = rng.choice(n, size=max(4, n // 100), replace=False)
    keep = np.r_[keep, np.flatnonzero(y == 0)[:1], np.flatnonzero(y == 1)[:1]]
    partial[keep] = y[keep]
    return X, partial


def compare(name: str, n: int, X: np.ndarray, y: np.ndarray, ours: object, ref: object,
            repeats: int) -> None:
    """Best-of-``repeats`` fit times of the two estimators, alternating, as a table row."""
    best = [np.inf, np.inf]
    for _ in range(repeats):
        for i, est in enumerate((ours, ref)):
            start = time.perf_counter()
            est.fit(X, y)
            best[i] = min(best[i], time.perf_counter() - start)
    ratio = best[0] / best[1]
    flag = "" if ratio <= TARGET else f"  (above the target {TARGET})"
    print(f"| {name} | {n} | {best[0]:.3f} | {best[1]:.3f} | {ratio:.2f}{flag} |", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="*", default=[1000, 3000])
    parser.add_argument("--knn-sizes", type=int, nargs="*", default=[10000])
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    rng = np.random.default_rng(0)
    print("| method | n | ours (s) | scikit-learn (s) | ratio |")
    print("|---|---|---|---|---|")
    warnings.simplefilter("ignore", ConvergenceWarning)
    for n in args.sizes:
        X, y = data(n, rng)
        compare("LabelSpreading, dense", n, X, y,
                LabelSpreading(alpha=0.2, sigma=1.0, tol=1e-9),
                SkSpread(kernel="rbf", gamma=0.5, alpha=0.2, tol=1e-9, max_iter=10_000),
                args.repeats)
        compare("LabelPropagation, dense", n, X, y, LabelPropagation(sigma=1.0),
                SkProp(kernel="rbf", gamma=0.5, tol=1e-9, max_iter=10_000), args.repeats)
    for n in args.knn_sizes:
        X, y = data(n, rng)
        compare("LabelSpreading, 10-NN", n, X, y,
                LabelSpreading(alpha=0.2, sigma=1e3, n_neighbors=10, tol=1e-9),
                SkSpread(kernel="knn", n_neighbors=10, alpha=0.2, tol=1e-9, max_iter=10_000),
                args.repeats)
        compare("LabelPropagation, 10-NN", n, X, y, LabelPropagation(sigma=1e3, n_neighbors=10),
                SkProp(kernel="knn", n_neighbors=10, tol=1e-9, max_iter=10_000), args.repeats)


if __name__ == "__main__":
    main()
