"""Benchmark (not a test): dictionary learning and sparse coding against scikit-learn.

Run:  python -m benchmarks --only dictionary [--quick]
      python benchmarks/bench_dictionary.py [--quick]

Same data (sparse combinations of 32 random unit atoms in d = 16, plus noise):

- sparse coding (10.15) on a fixed dictionary: ``sparse_code(method="lasso")`` (one
  ``algorithms.linear.solve_l1_l2`` per sample, duality gap 1e-8 relative) against
  ``sklearn.decomposition.SparseCoder(transform_algorithm="lasso_cd",
  transform_alpha=lambda / 2)`` (the notes' objective has no 1/2); gap: the largest code
  difference.
- dictionary learning, 3 alternations: ``DictionaryLearning`` (LASSO coding + K-SVD)
  against ``sklearn.decomposition.DictionaryLearning(alpha=lambda / 2, fit_algorithm="cd",
  max_iter=3)`` (block-coordinate atom updates under ||b|| <= 1); gap: the relative
  difference of (10.14) per sample, ours minus scikit-learn's (different algorithms,
  different local minima: only the order of magnitude is comparable).

No target is set by the issue for dictionary learning.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
from sklearn import decomposition as skd

try:
    from benchmarks._harness import BenchCase
except ModuleNotFoundError:  # run as a script: python benchmarks/bench_dictionary.py
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from benchmarks._harness import BenchCase

from algorithms.sparse import DictionaryLearning, sparse_code

LAM = 0.2
DIM, ATOMS, ROUNDS = 16, 32, 3


def data(m: int, d: int, k: int, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    B = rng.normal(size=(d, k))
    B /= np.linalg.norm(B, axis=0)
    A = rng.normal(size=(k, m)) * (rng.random((k, m)) < 3.0 / k)
    return (B @ A).T + 0.05 * rng.normal(size=(m, d)), B


def objective(X_rows: np.ndarray, components: np.ndarray, codes: np.ndarray) -> float:
    """(10.14) per sample, samples as rows: ||X - codes components||^2 + lam ||codes||_1."""
    R = X_rows - codes @ components
    return float((np.sum(R**2) + LAM * np.abs(codes).sum()) / X_rows.shape[0])


def cases(quick: bool) -> list[BenchCase]:
    sizes = [100] if quick else [200, 500]
    repeats = 1 if quick else 2
    out = []
    for m in sizes:
        out.append(BenchCase(
            "sparse coding (10.15), fixed dictionary", m,
            ours=lambda s: sparse_code(s[0].T, s[1], lam=LAM),
            reference=lambda s: skd.SparseCoder(
                dictionary=s[1].T, transform_algorithm="lasso_cd", transform_alpha=LAM / 2,
                transform_max_iter=10_000).transform(s[0]),
            setup=lambda m=m: data(m, DIM, ATOMS),
            objective_gap=lambda a, b: float(np.max(np.abs(a.T - b))),
            repeats=repeats + 1,
            params={"d": DIM, "atoms": ATOMS, "lam": LAM, "gap": "max |code diff|"},
            reference_name="sklearn SparseCoder lasso_cd"))
        box: dict = {}

        def setup(m=m, box=box):
            box["X"] = data(m, DIM, ATOMS)[0]
            return box["X"]

        def ref_fit(X):
            sk = skd.DictionaryLearning(
                n_components=ATOMS, alpha=LAM / 2, max_iter=ROUNDS, tol=0.0,
                fit_algorithm="cd", transform_algorithm="lasso_cd", transform_alpha=LAM / 2,
                random_state=0)
            return sk, sk.fit_transform(X)

        def gap(fitted, ref, box=box):
            X = box["X"]
            f_ours = objective(X, fitted.components_, fitted.codes_.T)
            f_ref = objective(X, ref[0].components_, ref[1])
            return (f_ours - f_ref) / abs(f_ref)

        out.append(BenchCase(
            f"dictionary learning, {ROUNDS} rounds", m,
            ours=lambda X: DictionaryLearning(n_components=ATOMS, lam=LAM, max_iter=ROUNDS,
                                              tol=0.0, random_state=0).fit(X),
            reference=ref_fit, setup=setup, objective_gap=gap, repeats=repeats,
            params={"d": DIM, "atoms": ATOMS, "lam": LAM,
                    "gap": "(10.14) ours/sklearn - 1"},
            reference_name="sklearn DictionaryLearning cd"))
    return out


def main(argv: list[str] | None = None) -> int:
    from benchmarks._runner import run_standalone

    return run_standalone("dictionary", cases, argv, __doc__.splitlines()[0])


if __name__ == "__main__":
    sys.exit(main())
