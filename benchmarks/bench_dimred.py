"""Benchmark (not a test): PCA, kernel PCA and kNN queries against scikit-learn.

Run:  python benchmarks/bench_dimred.py [--pca-sizes 2000 20000] [--kpca-sizes 500 2000]
                                        [--knn-n 10000] [--knn-dims 10 64] [--repeats 3]

Targets of issue 15, on the same data in one process:

- PCA fit + transform (d = 64, d' = 10) against ``sklearn.decomposition.PCA(n_components=10,
  svd_solver="full")``: ratio <= 1.2;
- kernel PCA fit + transform (RBF, d = 16, d' = 10) against
  ``sklearn.decomposition.KernelPCA(kernel="rbf", eigen_solver="dense")`` (our solver:
  LAPACK's subset eigensolver for the top d' eigenpairs; scikit-learn's "dense" solves the
  same subset): ratio <= 2;
- kNN: fit on n points, predict n queries (k = 5), against ``KNeighborsClassifier`` with
  ``algorithm="brute"`` and ``algorithm="kd_tree"`` for d = 10 and 64: ratio <= 2.

Both libraries run with BLAS limited to one thread (ours does this itself, the benchmark
sets it for scikit-learn too with threadpoolctl): on this shared two-core machine
OpenBLAS's threads made single factorisations many times slower and the timings
meaningless. scikit-learn's own OpenMP neighbour search keeps its default threads (ours
has none). Each row is the best of ``--repeats`` (``--knn-repeats`` for kNN), alternating
the libraries. A run on 2026-11-27 (load ~3 on two cores) took 36 s and gave ratios
0.99 / 1.08 (PCA, n = 2000 / 20000), 1.04 / 1.17 (kernel PCA, n = 500 / 2000), and for kNN
1.27 brute / 0.68 kd_tree at d = 10, 1.09 brute / 0.54 kd_tree at d = 64.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable

import numpy as np
from sklearn.decomposition import PCA as SkPCA  # noqa: N811 (scikit-learn's class name)
from sklearn.decomposition import KernelPCA as SkKernelPCA
from sklearn.neighbors import KNeighborsClassifier
from threadpoolctl import threadpool_limits

from algorithms.dimred import PCA, KernelPCA, KNNClassifier


def best_times(run_a: Callable[[], object], run_b: Callable[[], object],
               repeats: int) -> tuple[float, float]:
    best_a = best_b = np.inf
    for _ in range(repeats):
        start = time.perf_counter()
        run_a()
        best_a = min(best_a, time.perf_counter() - start)
        start = time.perf_counter()
        run_b()
        best_b = min(best_b, time.perf_counter() - start)
    return best_a, best_b


def row(name: str, n: int, d: int, a: float, b: float, target: float) -> None:
    verdict = "ok" if a / b <= target else "MISS"
    print(f"{name:<26}{n:>7}{d:>5}{a:>11.4f}{b:>13.4f}{a / b:>8.2f}  <= {target} {verdict}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pca-sizes", type=int, nargs="+", default=[2000, 20000])
    parser.add_argument("--kpca-sizes", type=int, nargs="+", default=[500, 2000])
    parser.add_argument("--knn-n", type=int, default=10000)
    parser.add_argument("--knn-dims", type=int, nargs="+", default=[10, 64])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--knn-repeats", type=int, default=1,
                        help="repeats of the kNN rows (a KD-tree query at d = 64 takes "
                        "~30 s in both libraries)")
    args = parser.parse_args()
    rng = np.random.default_rng(0)
    print(f"best of {args.repeats}; BLAS on one thread for both libraries\n")
    print(f"{'task':<26}{'n':>7}{'d':>5}{'ours (s)':>11}{'sklearn (s)':>13}{'ratio':>8}  target")
    with threadpool_limits(limits=1, user_api="blas"):
        for n in args.pca_sizes:
            X = rng.normal(size=(n, 64)) * np.linspace(3.0, 0.1, 64)
            a, b = best_times(lambda: PCA(n_components=10).fit(X).transform(X),  # noqa: B023
                              lambda: SkPCA(n_components=10, svd_solver="full")
                              .fit(X).transform(X), args.repeats)  # noqa: B023
            row("PCA fit+transform", n, 64, a, b, 1.2)
        for n in args.kpca_sizes:
            X = rng.normal(size=(n, 16))
            a, b = best_times(
                lambda: KernelPCA(n_components=10, kernel="rbf",  # noqa: B023
                                  kernel_params={"sigma": 4.0}).fit(X).transform(X),  # noqa: B023
                lambda: SkKernelPCA(n_components=10, kernel="rbf", gamma=1 / 32.0,
                                    eigen_solver="dense").fit(X).transform(X),  # noqa: B023
                args.repeats)
            row("kernel PCA fit+transform", n, 16, a, b, 2.0)
        n = args.knn_n
        for d in args.knn_dims:
            X = rng.normal(size=(n, d))
            y = (X[:, 0] + 0.5 * rng.normal(size=n) > 0).astype(int)
            Q = rng.normal(size=(n, d))
            for algorithm in ("brute", "kd_tree"):
                a, b = best_times(
                    lambda: KNNClassifier(n_neighbors=5, algorithm=algorithm)  # noqa: B023
                    .fit(X, y).predict(Q),  # noqa: B023
                    lambda: KNeighborsClassifier(n_neighbors=5, algorithm=algorithm)  # noqa: B023
                    .fit(X, y).predict(Q),  # noqa: B023
                    args.knn_repeats)
                row(f"kNN {algorithm} fit+predict", n, d, a, b, 2.0)


if __name__ == "__main__":
    main()
