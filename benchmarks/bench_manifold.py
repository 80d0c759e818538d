"""Benchmark (not a test): Isomap, LLE, classical MDS and NCA against scikit-learn.

Run:  python -m benchmarks --only manifold [--quick]
      python benchmarks/bench_manifold.py [--quick]

Same Swiss roll (``make_swiss_roll``, no noise), same settings:

- Isomap (k = 10, d' = 2) against ``sklearn.manifold.Isomap(n_neighbors=10)`` with its
  default solvers (auto: Dijkstra or Floyd-Warshall, ARPACK); target of issue 15: ratio <= 2;
- standard LLE (k = 10, d' = 2, reg = 1e-3) against ``LocallyLinearEmbedding(method=
  "standard")`` with its default (auto: ARPACK shift-invert) eigensolver; target <= 2;
- classical MDS of the Euclidean distance matrix (d' = 2) against ``ClassicalMDS(metric=
  "precomputed")`` (no target in the issue, quoted for information);
- NCA (d' = 2, identity start, 50 L-BFGS iterations) on the first 500 samples with labels
  from the roll's angle against ``NeighborhoodComponentsAnalysis`` (no target).

Both fits include input validation. No gap is reported (embeddings are defined up to
rotation and sign).
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
from sklearn.datasets import make_swiss_roll
from sklearn.manifold import ClassicalMDS as SkClassicalMDS
from sklearn.manifold import Isomap as SkIsomap
from sklearn.manifold import LocallyLinearEmbedding as SkLLE
from sklearn.neighbors import NeighborhoodComponentsAnalysis as SkNCA

try:
    from benchmarks._harness import BenchCase
except ModuleNotFoundError:  # run as a script: python benchmarks/bench_manifold.py
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from benchmarks._harness import BenchCase

from algorithms.dimred import (
    Isomap,
    LocallyLinearEmbedding,
    NeighbourhoodComponentsAnalysis,
    classical_mds,
)

K = 10


def roll(n: int):
    X, t = make_swiss_roll(n, random_state=0)
    return X, t


def _distances(n: int):
    X = roll(n)[0]
    return np.sqrt(np.maximum(((X[:, None] - X[None]) ** 2).sum(axis=-1), 0.0))


def _nca_data(n: int):
    X, t = roll(n)
    Xs, ts = X[:500], t[:500]
    return Xs, (ts > np.median(ts)).astype(int)


def cases(quick: bool) -> list[BenchCase]:
    sizes = [1000] if quick else [1000, 2000]
    out = []
    for n in sizes:
        out += [
            BenchCase("Isomap", n, ours=lambda X: Isomap(n_neighbors=K).fit(X),
                      reference=lambda X: SkIsomap(n_neighbors=K).fit(X),
                      setup=lambda n=n: roll(n)[0], params={"k": K, "d'": 2},
                      reference_name="sklearn.manifold.Isomap"),
            BenchCase("LLE (standard)", n,
                      ours=lambda X: LocallyLinearEmbedding(n_neighbors=K).fit(X),
                      reference=lambda X: SkLLE(n_neighbors=K, method="standard").fit(X),
                      setup=lambda n=n: roll(n)[0], params={"k": K, "d'": 2},
                      reference_name="sklearn LocallyLinearEmbedding standard"),
            BenchCase("classical MDS", n, ours=lambda D: classical_mds(D, 2),
                      reference=lambda D: SkClassicalMDS(2, metric="precomputed").fit(D),
                      setup=lambda n=n: _distances(n), params={"d'": 2},
                      reference_name="sklearn ClassicalMDS precomputed"),
        ]
    out.append(BenchCase(
        "NCA (50 L-BFGS iterations)", 500,
        ours=lambda s: NeighbourhoodComponentsAnalysis(2, init="identity",
                                                       max_iter=50).fit(*s),
        reference=lambda s: SkNCA(2, init=np.eye(3)[:2], max_iter=50).fit(*s),
        setup=lambda: _nca_data(sizes[0]), params={"d'": 2},
        reference_name="sklearn NeighborhoodComponentsAnalysis"))
    return out


def main(argv: list[str] | None = None) -> int:
    from benchmarks._runner import run_standalone

    return run_standalone("manifold", cases, argv, __doc__.splitlines()[0])


if __name__ == "__main__":
    sys.exit(main())
