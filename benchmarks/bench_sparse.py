"""Benchmark (not a test): LASSO by proximal gradient (003 §10.4) against scikit-learn.

Run:  python -m benchmarks --only sparse [--quick]
      python benchmarks/bench_sparse.py [--quick]

Same data (n standard-normal samples with d features, a 10 %-sparse truth plus noise),
same problem: the notes' (10.7) ``||y - X w||^2 + lam ||w||_1`` with ``lam = 0.1 lam_max``
(``lam_max = 2 ||X^T y||_inf``, the smallest lambda giving w = 0) is scikit-learn's
``Lasso(alpha = lam / (2 n))`` (objective ``1/(2n) ||y - X w||^2 + alpha ||w||_1``, the
notes' divided by 2n). No intercept on either side.

Both solvers stop at the same stated duality gap: scikit-learn's coordinate descent stops
when the gap of ``1/2 ||y - X w||^2 + n alpha ||w||_1`` is at most ``tol ||y||^2``; our
:class:`~algorithms.sparse.ProximalGradientLasso` when the gap of (10.7) — twice that
objective — is at most ``tol ||y||^2``, so it is given ``2 * gap`` (``gap = 1e-6``). The
gap column is the relative difference of the (10.7) objectives reached, ours minus
scikit-learn's: the comparison is at equal accuracy.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
from sklearn.linear_model import Lasso as SklearnLasso

try:
    from benchmarks._harness import BenchCase
except ModuleNotFoundError:  # run as a script: python benchmarks/bench_sparse.py
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from benchmarks._harness import BenchCase

from algorithms.sparse import ProximalGradientLasso

GAP = 1e-6


def data(n: int, d: int, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    X = rng.normal(size=(n, d))
    w = np.where(rng.random(d) < 0.1, rng.normal(size=d) * 3.0, 0.0)
    return X, X @ w + rng.normal(size=n)


def lasso_case(n: int, d: int) -> BenchCase:
    box: dict = {}

    def setup():
        X, y = data(n, d, np.random.default_rng(n + d))
        box.update(X=X, y=y, lam=0.1 * 2.0 * float(np.max(np.abs(X.T @ y))))
        return box

    def objective(w) -> float:
        r = box["y"] - box["X"] @ w
        return float(r @ r + box["lam"] * np.abs(w).sum())

    return BenchCase(
        "LASSO, proximal gradient", n,
        ours=lambda s: ProximalGradientLasso(lam=s["lam"], fit_intercept=False, tol=2 * GAP,
                                             max_iter=100_000).fit(s["X"], s["y"]),
        reference=lambda s: SklearnLasso(alpha=s["lam"] / (2 * n), fit_intercept=False,
                                         tol=GAP, max_iter=100_000).fit(s["X"], s["y"]),
        setup=setup,
        objective_gap=lambda a, b: objective(a.coef_) / objective(b.coef_) - 1.0,
        repeats=3, params={"d": d, "lam": "0.1 lam_max", "gap tol": GAP,
                           "gap": "(10.7) ours/sklearn - 1"},
        reference_name="sklearn Lasso (coordinate descent)")


def cases(quick: bool) -> list[BenchCase]:
    shapes = [(1000, 100), (1000, 500)] if quick else [
        (n, d) for n in (1000, 10_000) for d in (100, 500)]
    return [lasso_case(n, d) for n, d in shapes]


def main(argv: list[str] | None = None) -> int:
    from benchmarks._runner import run_standalone

    return run_standalone("sparse", cases, argv, __doc__.splitlines()[0])


if __name__ == "__main__":
    sys.exit(main())
