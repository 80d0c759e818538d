"""Benchmark (not a test): fit time of the clustering algorithms against scikit-learn.

Run:  python benchmarks/bench_clustering.py [--sizes 1000 10000 100000] [--dims 2 10 50]
                                            [--agnes-sizes 1000 2000 5000] [--repeats 3]

Same data, same starting point, one process:

- k-means (k = 8): ``KMeans(init=C0, tol=0)`` against ``sklearn.cluster.KMeans(init=C0,
  n_init=1, algorithm="lloyd", tol=0)``; both run to exact convergence (no label changes);
  the column reports the largest difference of the final centres and the iteration counts.
- GMM (k = 4, full covariances): ``GaussianMixtureClustering`` against
  ``sklearn.mixture.GaussianMixture`` from the same weights, means and covariances
  (``init_params="random_from_data"`` so that scikit-learn runs no k-means of its own),
  ``tol = 1e-3``, ``reg_covar = 1e-6``; reported: iteration counts and the difference of
  the mean log-likelihoods.
- DBSCAN (MinPts = 10, eps = the median distance to the 10th nearest neighbour of a
  subsample): against ``sklearn.cluster.DBSCAN``; reported: whether the core samples agree
  and the adjusted Rand index of the two labellings.
- AGNES (k = 8, average linkage; sizes capped at 5,000 by its O(m^2) memory): against
  ``sklearn.cluster.AgglomerativeClustering``; reported: the adjusted Rand index.

Targets of issue 11: ratio ours/sklearn <= 1.5 for k-means and GMM, <= 3 for DBSCAN and
AGNES. The machine's other load makes single timings noisy: each row is the best of
``--repeats`` fits, alternating the two libraries.
"""

from __future__ import annotations

import argparse
import time
import warnings
from collections.abc import Callable

import numpy as np
from scipy.spatial import cKDTree
from sklearn import cluster as skc
from sklearn import mixture as skm
from sklearn.metrics import adjusted_rand_score

import algorithms.clustering as ours

KMEANS_K, GMM_K, AGNES_K = 8, 4, 8
MIN_PTS = 10
TARGETS = {"k-means": 1.5, "GMM": 1.5, "DBSCAN": 3.0, "AGNES": 3.0}
#: DBSCAN above d = 10 only up to this n: at d = 50 both libraries compare all n^2 pairs
#: (brute force by blocked matrix products above 15 dimensions), minutes at n = 1e5.
DBSCAN_HIGH_D_MAX_N = 10_000


def best_times(fit_a: Callable[[], object], fit_b: Callable[[], object], repeats: int
               ) -> tuple[float, object, float, object]:
    """Best-of-``repeats`` times of two fits, alternated so both see the same load."""
    best_a = best_b = np.inf
    model_a = model_b = None
    for _ in range(repeats):
        for which in (0, 1):
            start = time.perf_counter()
            if which == 0:
                model_a = fit_a()
                best_a = min(best_a, time.perf_counter() - start)
            else:
                model_b = fit_b()
                best_b = min(best_b, time.perf_counter() - start)
    return best_a, model_a, best_b, model_b


def blobs(n: int, d: int, k: int, rng: np.random.Generator) -> np.ndarray:
    centres = rng.normal(scale=4.0, size=(k, d))
    return centres[rng.integers(k, size=n)] + rng.normal(size=(n, d))


def kmeans_case(X: np.ndarray, rng: np.random.Generator):
    C0 = X[rng.choice(X.shape[0], size=KMEANS_K, replace=False)]
    mine = lambda: ours.KMeans(KMEANS_K, init=C0, max_iter=300).fit(X)  # noqa: E731
    theirs = lambda: skc.KMeans(KMEANS_K, init=C0, n_init=1, algorithm="lloyd",  # noqa: E731
                                tol=0.0, max_iter=300).fit(X)

    def compare(m, r):
        diff = float(np.max(np.abs(m.cluster_centers_ - r.cluster_centers_)))
        return f"centres max diff {diff:.1e}, iterations {m.n_iter_}/{r.n_iter_}"
    return mine, theirs, compare


def gmm_case(X: np.ndarray, rng: np.random.Generator):
    n = X.shape[1]
    means = X[rng.choice(X.shape[0], size=GMM_K, replace=False)]
    weights = np.full(GMM_K, 1.0 / GMM_K)
    cov = np.cov(X.T) + 1e-6 * np.eye(n)
    covs = np.broadcast_to(cov, (GMM_K, n, n)).copy()
    precisions = np.linalg.inv(covs)  # scikit-learn takes precisions (reference side only)
    mine = lambda: ours.GaussianMixtureClustering(  # noqa: E731
        GMM_K, weights_init=weights, means_init=means, covariances_init=covs, tol=1e-3,
        max_iter=100).fit(X)
    theirs = lambda: skm.GaussianMixture(  # noqa: E731
        GMM_K, weights_init=weights, means_init=means, precisions_init=precisions,
        init_params="random_from_data", tol=1e-3, max_iter=100, reg_covar=1e-6,
        random_state=0).fit(X)

    def compare(m, r):
        gap = abs(m.score(X) - r.score(X))
        return f"iterations {m.n_iter_}/{r.n_iter_}, |mean LL diff| {gap:.1e}"
    return mine, theirs, compare


def dbscan_case(X: np.ndarray, rng: np.random.Generator):
    probe = X[rng.choice(X.shape[0], size=min(X.shape[0], 2000), replace=False)]
    eps = float(np.median(cKDTree(X).query(probe, k=MIN_PTS)[0][:, -1]))
    mine = lambda: ours.DBSCAN(eps, min_pts=MIN_PTS, random_state=0).fit(X)  # noqa: E731
    theirs = lambda: skc.DBSCAN(eps=eps, min_samples=MIN_PTS).fit(X)  # noqa: E731

    def compare(m, r):
        same = np.array_equal(np.sort(m.core_sample_indices_), r.core_sample_indices_)
        return (f"eps {eps:.3g}, same cores {same}, "
                f"ARI {adjusted_rand_score(m.labels_, r.labels_):.6f}")
    return mine, theirs, compare


def agnes_case(X: np.ndarray, rng: np.random.Generator):
    mine = lambda: ours.AGNES(AGNES_K, linkage="average").fit(X)  # noqa: E731
    theirs = lambda: skc.AgglomerativeClustering(AGNES_K, linkage="average").fit(X)  # noqa: E731

    def compare(m, r):
        return f"ARI {adjusted_rand_score(m.labels_, r.labels_):.6f}"
    return mine, theirs, compare


def run(name: str, case, X: np.ndarray, repeats: int, rng: np.random.Generator) -> float:
    mine, theirs, compare = case(X, rng)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        t_ours, m, t_sk, r = best_times(mine, theirs, repeats)
    ratio = t_ours / t_sk
    flag = "" if ratio <= TARGETS[name] else f"  (above the {TARGETS[name]}x target)"
    print(f"{name:8s} {X.shape[0]:7d} {X.shape[1]:3d} {t_ours:9.4f} {t_sk:11.4f} "
          f"{ratio:6.2f}  {compare(m, r)}{flag}")
    return ratio


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[1_000, 10_000, 100_000])
    parser.add_argument("--dims", type=int, nargs="+", default=[2, 10, 50])
    parser.add_argument("--agnes-sizes", type=int, nargs="+", default=[1_000, 2_000, 5_000])
    parser.add_argument("--algorithms", nargs="+", default=list(TARGETS),
                        choices=list(TARGETS))
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    rng = np.random.default_rng(args.seed)
    header = (f"{'model':8s} {'n':>7s} {'d':>3s} {'ours [s]':>9s} {'sklearn [s]':>11s} "
              f"{'ratio':>6s}  solution")
    print(header)
    print("-" * len(header))
    cases = {"k-means": kmeans_case, "GMM": gmm_case, "DBSCAN": dbscan_case,
             "AGNES": agnes_case}
    worst: dict[str, float] = {}
    for name in args.algorithms:
        sizes = args.agnes_sizes if name == "AGNES" else args.sizes
        for n in sizes:
            for d in args.dims:
                if name == "DBSCAN" and d > 10 and n > DBSCAN_HIGH_D_MAX_N:
                    print(f"{name:8s} {n:7d} {d:3d}  skipped: all n^2 pairs at d = 50 in "
                          "both libraries")
                    continue
                X = blobs(n, d, KMEANS_K, rng)
                ratio = run(name, cases[name], X, args.repeats, rng)
                worst[name] = max(worst.get(name, 0.0), ratio)
    print("worst ratio per algorithm: " + ", ".join(
        f"{name} {ratio:.2f} (target {TARGETS[name]})" for name, ratio in worst.items()))


if __name__ == "__main__":
    main()
