"""Benchmark (not a test): PCA, kernel PCA and kNN queries against scikit-learn.

Run:  python -m benchmarks --only dimred [--quick]
      python benchmarks/bench_dimred.py [--quick]

Targets of issue 15, on the same data:

- PCA fit + transform (d = 64, d' = 10) against ``sklearn.decomposition.PCA(n_components=10,
  svd_solver="full")``: ratio <= 1.2; gap: largest relative difference of the explained
  variances;
- kernel PCA fit + transform (RBF, d = 16, d' = 10) against
  ``sklearn.decomposition.KernelPCA(kernel="rbf", eigen_solver="dense")`` (our solver:
  LAPACK's subset eigensolver for the top d' eigenpairs; scikit-learn's "dense" solves the
  same subset): ratio <= 2; gap: largest difference of |projections| (signs are free);
- kNN: fit on n points, predict n queries (k = 5), against ``KNeighborsClassifier`` with
  ``algorithm="brute"`` and ``algorithm="kd_tree"`` for d = 10 and 64: ratio <= 2; gap:
  share of different predictions.

The runner pins one thread on both sides (BLAS and scikit-learn's OpenMP neighbour
search alike). A run on 2026-11-27 before the runner (load ~3 on two cores, sklearn's
OpenMP unpinned) gave 0.99 / 1.08 (PCA, n = 2000 / 20000), 1.04 / 1.17 (kernel PCA,
n = 500 / 2000), 1.27 brute / 0.68 kd_tree (kNN, d = 10), 1.09 / 0.54 (d = 64).
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
from sklearn.decomposition import PCA as SkPCA  # noqa: N811 (scikit-learn's class name)
from sklearn.decomposition import KernelPCA as SkKernelPCA
from sklearn.neighbors import KNeighborsClassifier

try:
    from benchmarks._harness import BenchCase
except ModuleNotFoundError:  # run as a script: python benchmarks/bench_dimred.py
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from benchmarks._harness import BenchCase

from algorithms.dimred import PCA, KernelPCA, KNNClassifier


def pca_case(n: int) -> BenchCase:
    def setup():
        rng = np.random.default_rng(n)
        return rng.normal(size=(n, 64)) * np.linspace(3.0, 0.1, 64)

    def run_ours(X):
        model = PCA(n_components=10).fit(X)
        model.transform(X)
        return model

    def run_ref(X):
        model = SkPCA(n_components=10, svd_solver="full").fit(X)
        model.transform(X)
        return model

    return BenchCase(
        "PCA fit+transform", n, ours=run_ours, reference=run_ref, setup=setup,
        objective_gap=lambda a, b: float(np.max(np.abs(
            a.explained_variance_ / b.explained_variance_ - 1.0))),
        repeats=3, params={"d": 64, "d'": 10, "gap": "max rel. diff of variances"},
        reference_name="sklearn PCA svd_solver=full")


def kpca_case(n: int) -> BenchCase:
    return BenchCase(
        "kernel PCA fit+transform", n,
        ours=lambda X: KernelPCA(n_components=10, kernel="rbf",
                                 kernel_params={"sigma": 4.0}).fit(X).transform(X),
        reference=lambda X: SkKernelPCA(n_components=10, kernel="rbf", gamma=1 / 32.0,
                                        eigen_solver="dense").fit(X).transform(X),
        setup=lambda: np.random.default_rng(n + 1).normal(size=(n, 16)),
        objective_gap=lambda a, b: float(np.max(np.abs(np.abs(a) - np.abs(b)))),
        repeats=3, params={"d": 16, "d'": 10, "kernel": "rbf", "gap": "max ||proj| diff|"},
        reference_name="sklearn KernelPCA dense")


def knn_case(n: int, d: int, algorithm: str, repeats: int) -> BenchCase:
    def setup():
        rng = np.random.default_rng(n + d)
        X = rng.normal(size=(n, d))
        y = (X[:, 0] + 0.5 * rng.normal(size=n) > 0).astype(int)
        return X, y, rng.normal(size=(n, d))

    return BenchCase(
        f"kNN {algorithm} fit+predict", n,
        ours=lambda s: KNNClassifier(n_neighbors=5, algorithm=algorithm).fit(
            s[0], s[1]).predict(s[2]),
        reference=lambda s: KNeighborsClassifier(n_neighbors=5, algorithm=algorithm).fit(
            s[0], s[1]).predict(s[2]),
        setup=setup, objective_gap=lambda a, b: float(np.mean(a != b)), repeats=repeats,
        params={"d": d, "k": 5, "queries": n, "gap": "share of different labels"},
        reference_name=f"sklearn KNeighborsClassifier {algorithm}")


def cases(quick: bool) -> list[BenchCase]:
    if quick:
        return [pca_case(2000), kpca_case(500), knn_case(2000, 10, "brute", 3),
                knn_case(2000, 10, "kd_tree", 3)]
    # a KD-tree query at d = 64 takes ~30 s in both libraries: one repeat
    return ([pca_case(n) for n in (2000, 20000)] + [kpca_case(n) for n in (500, 2000)]
            + [knn_case(10_000, d, a, 1) for d in (10, 64) for a in ("brute", "kd_tree")])


def main(argv: list[str] | None = None) -> int:
    from benchmarks._runner import run_standalone

    return run_standalone("dimred", cases, argv, __doc__.splitlines()[0])


if __name__ == "__main__":
    sys.exit(main())
