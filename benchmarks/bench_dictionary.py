"""Benchmark (not a test): dictionary learning and sparse coding against scikit-learn.

Run:  python benchmarks/bench_dictionary.py [--sizes 200 500] [--dim 16] [--atoms 32]
                                            [--rounds 3] [--repeats 2]

Same data (sparse combinations of random unit atoms plus noise), one process:

- sparse coding (10.15) on a fixed dictionary: ``sparse_code(method="lasso")`` (one
  ``algorithms.linear.solve_l1_l2`` per sample, duality gap 1e-8 relative) against
  ``sklearn.decomposition.SparseCoder(transform_algorithm="lasso_cd",
  transform_alpha=lambda / 2)`` (the notes' objective has no 1/2); reported: the largest
  code difference.
- dictionary learning, ``--rounds`` alternations: ``DictionaryLearning`` (LASSO coding +
  K-SVD) against ``sklearn.decomposition.DictionaryLearning(alpha=lambda / 2,
  fit_algorithm="cd", max_iter=rounds)`` (block-coordinate atom updates under ||b|| <= 1);
  reported: (10.14) per sample of each result (different algorithms, different local
  minima: only the order of magnitude is comparable).

No target is set by the issue for dictionary learning; each row is the best of
``--repeats`` runs, alternating the two libraries.
"""

from __future__ import annotations

import argparse
import time
import warnings

import numpy as np
from sklearn import decomposition as skd
from sklearn.exceptions import ConvergenceWarning

from algorithms.sparse import DictionaryLearning, sparse_code

LAM = 0.2


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


def best_of(fn, repeats: int) -> tuple[float, object]:
    best, out = np.inf, None
    for _ in range(repeats):
        start = time.perf_counter()
        out = fn()
        best = min(best, time.perf_counter() - start)
    return best, out


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sizes", type=int, nargs="+", default=[200, 500])
    parser.add_argument("--dim", type=int, default=16)
    parser.add_argument("--atoms", type=int, default=32)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--repeats", type=int, default=2)
    args = parser.parse_args()
    warnings.simplefilter("ignore", ConvergenceWarning)
    print("| task | m | ours (s) | sklearn (s) | ratio | agreement |")
    print("|---|---|---|---|---|---|")
    for m in args.sizes:
        X, B = data(m, args.dim, args.atoms)
        t_ours, codes = best_of(lambda X=X, B=B: sparse_code(X.T, B, lam=LAM), args.repeats)
        coder = skd.SparseCoder(dictionary=B.T, transform_algorithm="lasso_cd",
                                transform_alpha=LAM / 2, transform_max_iter=10_000)
        t_ref, ref = best_of(lambda X=X, coder=coder: coder.transform(X), args.repeats)
        diff = float(np.max(np.abs(codes.T - ref)))
        print(f"| sparse coding (10.15) | {m} | {t_ours:.3f} | {t_ref:.3f} | "
              f"{t_ours / t_ref:.1f} | max code diff {diff:.1e} |")
        ours = DictionaryLearning(n_components=args.atoms, lam=LAM, max_iter=args.rounds,
                                  tol=0.0, random_state=0)
        sk = skd.DictionaryLearning(n_components=args.atoms, alpha=LAM / 2,
                                    max_iter=args.rounds, tol=0.0, fit_algorithm="cd",
                                    transform_algorithm="lasso_cd", transform_alpha=LAM / 2,
                                    random_state=0)
        t_ours, fitted = best_of(lambda X=X, ours=ours: ours.fit(X), args.repeats)
        t_ref, sk_codes = best_of(lambda X=X, sk=sk: sk.fit_transform(X), args.repeats)
        f_ours = objective(X, fitted.components_, fitted.codes_.T)
        f_ref = objective(X, sk.components_, sk_codes)
        print(f"| dictionary learning, {args.rounds} rounds | {m} | {t_ours:.3f} | "
              f"{t_ref:.3f} | {t_ours / t_ref:.1f} | (10.14)/m ours {f_ours:.4f}, "
              f"sklearn {f_ref:.4f} |")


if __name__ == "__main__":
    main()
