"""Benchmark (not a test): Isomap, LLE, classical MDS and NCA against scikit-learn.

Run:  python benchmarks/bench_manifold.py [--sizes 1000 2000] [--repeats 3]

Same Swiss roll (``make_swiss_roll``, no noise), same settings, one process, each row the
best of ``--repeats`` fits alternating the two libraries (the machine's other load makes
single timings noisy):

- Isomap (k = 10, d' = 2) against ``sklearn.manifold.Isomap(n_neighbors=10)`` with its
  default solvers (auto: Dijkstra or Floyd-Warshall, ARPACK); target of issue 15: ratio <= 2;
- standard LLE (k = 10, d' = 2, reg = 1e-3) against ``LocallyLinearEmbedding(method=
  "standard")`` with its default (auto: ARPACK shift-invert) eigensolver; target <= 2;
- classical MDS of the Euclidean distance matrix (d' = 2) against ``ClassicalMDS(metric=
  "precomputed")`` (no target in the issue, quoted for information);
- NCA (d' = 2, identity start, 50 L-BFGS iterations) on the first 500 samples with labels
  from the roll's angle against ``NeighborhoodComponentsAnalysis`` (no target).

Both fits include input validation. Set OMP_NUM_THREADS=1 on a shared machine: with
several processes competing for few cores, multithreaded BLAS slows both libraries by
factors that have nothing to do with the algorithms.
"""

from __future__ import annotations

import argparse
import time
import warnings
from collections.abc import Callable

import numpy as np
from sklearn.datasets import make_swiss_roll
from sklearn.exceptions import ConvergenceWarning
from sklearn.manifold import ClassicalMDS as SkClassicalMDS
from sklearn.manifold import Isomap as SkIsomap
from sklearn.manifold import LocallyLinearEmbedding as SkLLE
from sklearn.neighbors import NeighborhoodComponentsAnalysis as SkNCA

from algorithms.dimred import (
    Isomap,
    LocallyLinearEmbedding,
    NeighbourhoodComponentsAnalysis,
    classical_mds,
)

K, TARGET = 10, 2.0


def best_times(fit_a: Callable[[], object], fit_b: Callable[[], object],
               repeats: int) -> tuple[float, float]:
    best_a = best_b = np.inf
    for _ in range(repeats):
        start = time.perf_counter()
        fit_a()
        best_a = min(best_a, time.perf_counter() - start)
        start = time.perf_counter()
        fit_b()
        best_b = min(best_b, time.perf_counter() - start)
    return best_a, best_b


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 2000])
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    warnings.simplefilter("ignore", ConvergenceWarning)
    print(f"Swiss roll, k = {K}, d' = 2; best of {args.repeats}\n")
    print(f"{'algorithm':<16}{'n':>7}{'ours (s)':>11}{'sklearn (s)':>13}{'ratio':>8}  target")
    for n in args.sizes:
        X, t = make_swiss_roll(n, random_state=0)
        rows = [
            ("Isomap", lambda: Isomap(n_neighbors=K).fit(X),  # noqa: B023
             lambda: SkIsomap(n_neighbors=K).fit(X), f"<= {TARGET}"),  # noqa: B023
            ("LLE (standard)", lambda: LocallyLinearEmbedding(n_neighbors=K).fit(X),  # noqa: B023
             lambda: SkLLE(n_neighbors=K, method="standard").fit(X), f"<= {TARGET}"),  # noqa: B023
        ]
        D = np.sqrt(np.maximum(((X[:, None] - X[None]) ** 2).sum(axis=-1), 0.0))
        rows.append(("classical MDS", lambda: classical_mds(D, 2),  # noqa: B023
                     lambda: SkClassicalMDS(2, metric="precomputed").fit(D), ""))  # noqa: B023
        Xs, ys = X[:500], (t[:500] > np.median(t[:500])).astype(int)
        rows.append(("NCA (m = 500)",
                     lambda: NeighbourhoodComponentsAnalysis(  # noqa: B023
                         2, init="identity", max_iter=50).fit(Xs, ys),  # noqa: B023
                     lambda: SkNCA(2, init=np.eye(3)[:2], max_iter=50).fit(Xs, ys), ""))  # noqa: B023
        for name, ours, theirs, mark in rows:
            a, b = best_times(ours, theirs, args.repeats)
            print(f"{name:<16}{n:>7}{a:>11.4f}{b:>13.4f}{a / b:>8.2f}  {mark}")


if __name__ == "__main__":
    main()
