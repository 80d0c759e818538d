"""Benchmark (not a test): fit time of the clustering algorithms against scikit-learn.

Run:  python -m benchmarks --only clustering [--quick]
      python benchmarks/bench_clustering.py [--quick]

Same data (Gaussian blobs around 8 centres), same starting point:

- k-means (k = 8): ``KMeans(init=C0, tol=0)`` against ``sklearn.cluster.KMeans(init=C0,
  n_init=1, algorithm="lloyd", tol=0)``; both run to exact convergence (no label changes);
  gap: the largest difference of the final centres.
- GMM (k = 4, full covariances): ``GaussianMixtureClustering`` against
  ``sklearn.mixture.GaussianMixture`` from the same weights, means and covariances
  (``init_params="random_from_data"`` so that scikit-learn runs no k-means of its own),
  ``tol = 1e-3``, ``reg_covar = 1e-6``; gap: the difference of the mean log-likelihoods.
- DBSCAN (MinPts = 10, eps = the median distance to the 10th nearest neighbour of a
  subsample) against ``sklearn.cluster.DBSCAN``; gap: 1 - adjusted Rand index (0 when the
  labellings agree).
- AGNES (k = 8, average linkage; sizes capped at 5,000 by its O(m^2) memory) against
  ``sklearn.cluster.AgglomerativeClustering``; gap: 1 - adjusted Rand index.

Targets of issue 11: ratio ours/sklearn <= 1.5 for k-means and GMM, <= 3 for DBSCAN and
AGNES. DBSCAN at d = 50 is run only up to n = 10^4 (both libraries compare all n^2 pairs
there).
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
from scipy.spatial import cKDTree
from sklearn import cluster as skc
from sklearn import mixture as skm
from sklearn.metrics import adjusted_rand_score

try:
    from benchmarks._harness import BenchCase
except ModuleNotFoundError:  # run as a script: python benchmarks/bench_clustering.py
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from benchmarks._harness import BenchCase

import algorithms.clustering as ours

KMEANS_K, GMM_K, AGNES_K = 8, 4, 8
MIN_PTS = 10
#: DBSCAN above d = 10 only up to this n.
DBSCAN_HIGH_D_MAX_N = 10_000


def blobs(n: int, d: int, k: int, rng: np.random.Generator) -> np.ndarray:
    centres = rng.normal(scale=4.0, size=(k, d))
    return centres[rng.integers(k, size=n)] + rng.normal(size=(n, d))


def _data(n: int, d: int):
    rng = np.random.default_rng(1000 * n + d)
    return blobs(n, d, KMEANS_K, rng), rng


def kmeans_case(n: int, d: int) -> BenchCase:
    def setup():
        X, rng = _data(n, d)
        return X, X[rng.choice(n, size=KMEANS_K, replace=False)]

    return BenchCase(
        "k-means (Lloyd, to convergence)", n,
        ours=lambda s: ours.KMeans(KMEANS_K, init=s[1], max_iter=300).fit(s[0]),
        reference=lambda s: skc.KMeans(KMEANS_K, init=s[1], n_init=1, algorithm="lloyd",
                                       tol=0.0, max_iter=300).fit(s[0]),
        setup=setup,
        objective_gap=lambda m, r: float(np.max(np.abs(m.cluster_centers_
                                                       - r.cluster_centers_))),
        params={"d": d, "k": KMEANS_K, "gap": "max |centre diff|"},
        reference_name="sklearn.cluster.KMeans lloyd")


def gmm_case(n: int, d: int) -> BenchCase:
    box: dict = {}

    def setup():
        X, rng = _data(n, d)
        means = X[rng.choice(n, size=GMM_K, replace=False)]
        cov = np.cov(X.T) + 1e-6 * np.eye(d)
        covs = np.broadcast_to(cov, (GMM_K, d, d)).copy()
        box.update(X=X, means=means, covs=covs, weights=np.full(GMM_K, 1.0 / GMM_K),
                   precisions=np.linalg.inv(covs))  # scikit-learn takes precisions
        return box

    return BenchCase(
        "GMM (EM, full covariances)", n,
        ours=lambda s: ours.GaussianMixtureClustering(
            GMM_K, weights_init=s["weights"], means_init=s["means"],
            covariances_init=s["covs"], tol=1e-3, max_iter=100).fit(s["X"]),
        reference=lambda s: skm.GaussianMixture(
            GMM_K, weights_init=s["weights"], means_init=s["means"],
            precisions_init=s["precisions"], init_params="random_from_data", tol=1e-3,
            max_iter=100, reg_covar=1e-6, random_state=0).fit(s["X"]),
        setup=setup,
        objective_gap=lambda m, r: abs(m.score(box["X"]) - r.score(box["X"])),
        params={"d": d, "k": GMM_K, "gap": "|mean log-lik diff|"},
        reference_name="sklearn.mixture.GaussianMixture")


def dbscan_case(n: int, d: int) -> BenchCase:
    def setup():
        X, rng = _data(n, d)
        probe = X[rng.choice(n, size=min(n, 2000), replace=False)]
        eps = float(np.median(cKDTree(X).query(probe, k=MIN_PTS)[0][:, -1]))
        return X, eps

    return BenchCase(
        "DBSCAN", n,
        ours=lambda s: ours.DBSCAN(s[1], min_pts=MIN_PTS, random_state=0).fit(s[0]),
        reference=lambda s: skc.DBSCAN(eps=s[1], min_samples=MIN_PTS).fit(s[0]),
        setup=setup,
        objective_gap=lambda m, r: 1.0 - adjusted_rand_score(m.labels_, r.labels_),
        params={"d": d, "MinPts": MIN_PTS, "gap": "1 - ARI"},
        reference_name="sklearn.cluster.DBSCAN")


def agnes_case(n: int, d: int) -> BenchCase:
    return BenchCase(
        "AGNES (average linkage)", n,
        ours=lambda X: ours.AGNES(AGNES_K, linkage="average").fit(X),
        reference=lambda X: skc.AgglomerativeClustering(AGNES_K, linkage="average").fit(X),
        setup=lambda: _data(n, d)[0],
        objective_gap=lambda m, r: 1.0 - adjusted_rand_score(m.labels_, r.labels_),
        params={"d": d, "k": AGNES_K, "gap": "1 - ARI"},
        reference_name="sklearn.cluster.AgglomerativeClustering")


def cases(quick: bool) -> list[BenchCase]:
    if quick:
        grid = {kmeans_case: [(10_000, 2), (10_000, 10)], gmm_case: [(10_000, 10)],
                dbscan_case: [(10_000, 2)], agnes_case: [(1_000, 10)]}
    else:
        sizes, dims = [1_000, 10_000, 100_000], [2, 10, 50]
        full = [(n, d) for n in sizes for d in dims]
        grid = {kmeans_case: full, gmm_case: full,
                dbscan_case: [(n, d) for n, d in full
                              if d <= 10 or n <= DBSCAN_HIGH_D_MAX_N],
                agnes_case: [(n, d) for n in (1_000, 2_000, 5_000) for d in dims]}
    return [make(n, d) for make, shapes in grid.items() for n, d in shapes]


def main(argv: list[str] | None = None) -> int:
    from benchmarks._runner import run_standalone

    return run_standalone("clustering", cases, argv, __doc__.splitlines()[0])


if __name__ == "__main__":
    sys.exit(main())
