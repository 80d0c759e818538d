"""Benchmark (not a test): exact inference of 003 Chapter 12.

Run:  python -m benchmarks --only graphical [--quick]
      python benchmarks/bench_graphical.py [--quick]

Same parameters, same data:

- Forward algorithm: ``hmm_log_likelihood`` against ``hmmlearn.hmm.CategoricalHMM.score``
  (hmmlearn's compiled forward pass with scaling), on (a) one long sequence of each
  length and (b) a batch of 1,000 sequences of 100 steps (ours vectorised over the
  batch, hmmlearn with ``lengths``); gap: |difference| of the (total) log-likelihoods.
  Without hmmlearn the reference is a plain numpy log-space forward pass (one logsumexp
  per step) and the reference column says so.
- Variable elimination against brute-force enumeration: the marginal of the middle node
  of a chain and of a random tree of n binary variables (the n column is the number of
  variables); enumeration builds the 2^n joint table (``mrf_joint``), elimination
  (min-degree order) never builds more than the largest clique's table; gap: largest
  |difference| of the marginals.

Target of issue 16: the forward algorithm within 2x of hmmlearn's scoring.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
from scipy.special import logsumexp

try:
    from benchmarks._harness import BenchCase
except ModuleNotFoundError:  # run as a script: python benchmarks/bench_graphical.py
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from benchmarks._harness import BenchCase

from algorithms.graphical import (
    Factor,
    hmm_log_likelihood,
    mrf_joint,
    variable_elimination,
)

N_SYMBOLS = 8
BATCH, BATCH_LEN = 1000, 100

try:  # the reference library, optional
    from hmmlearn.hmm import CategoricalHMM
except ImportError:  # pragma: no cover - depends on the environment
    CategoricalHMM = None


def numpy_forward(A, B, pi, X: np.ndarray) -> np.ndarray:
    """Reference without hmmlearn: log-space forward pass, one logsumexp per step."""
    lA, lB = np.log(A), np.log(B)
    la = np.log(pi)[None, :] + lB[:, X[:, 0]].T
    for t in range(1, X.shape[1]):
        la = logsumexp(la[:, :, None] + lA[None], axis=1) + lB[:, X[:, t]].T
    return logsumexp(la, axis=1)


def reference_scorer(A, B, pi):
    if CategoricalHMM is None:
        return lambda X: numpy_forward(A, B, pi, X)
    model = CategoricalHMM(n_components=A.shape[0])
    model.startprob_, model.transmat_, model.emissionprob_ = pi, A, B
    model.n_features = B.shape[1]

    def score(X):
        if X.shape[0] == 1:
            return np.array([model.score(X[0][:, None])])
        # hmmlearn's score of several sequences is their total log-likelihood
        return np.array([model.score(X.reshape(-1, 1), lengths=[X.shape[1]] * X.shape[0])])

    return score


REFERENCE = ("hmmlearn CategoricalHMM.score" if CategoricalHMM is not None
             else "numpy log-space forward (hmmlearn missing)")


def forward_case(N: int, n_seq: int, length: int) -> BenchCase:
    def setup():
        rng = np.random.default_rng(100 * N + length)
        A = rng.dirichlet(np.ones(N), N)
        B = rng.dirichlet(np.ones(N_SYMBOLS), N)
        pi = rng.dirichlet(np.ones(N))
        return A, B, pi, rng.integers(0, N_SYMBOLS, (n_seq, length)), reference_scorer(A, B, pi)

    def gap(ll, ll_ref) -> float:
        ours_total = np.atleast_1d(ll)
        if CategoricalHMM is not None:
            ours_total = np.array([ours_total.sum()])
        return float(np.max(np.abs(ours_total - ll_ref)))

    return BenchCase(
        f"forward algorithm, {n_seq} x {length}", n_seq * length,
        ours=lambda s: hmm_log_likelihood(s[0], s[1], s[2], s[3]),
        reference=lambda s: s[4](s[3]), setup=setup, objective_gap=gap, repeats=3,
        params={"states": N, "symbols": N_SYMBOLS, "gap": "|log-lik diff|"},
        reference_name=REFERENCE)


def chain_or_tree(n: int, kind: str, rng) -> list[Factor]:
    if kind == "chain":
        edges = [(i, i + 1) for i in range(n - 1)]
    else:
        edges = [(i, int(rng.integers(0, i))) for i in range(1, n)]
    return [Factor(e, np.exp(rng.normal(size=(2, 2)))) for e in edges]


def ve_case(kind: str, n: int) -> BenchCase:
    mid = n // 2

    def brute(fs):
        P = mrf_joint(fs, [2] * n)
        return P.sum(axis=tuple(a for a in range(n) if a != mid))

    return BenchCase(
        f"variable elimination, {kind}", n,
        ours=lambda fs: variable_elimination(fs, [mid]).probabilities, reference=brute,
        setup=lambda: chain_or_tree(n, kind, np.random.default_rng(n)),
        objective_gap=lambda a, b: float(np.max(np.abs(a - b))), repeats=3,
        params={"states": f"2^{n}", "gap": "max |marginal diff|"},
        reference_name="enumeration of the joint (mrf_joint)")


def cases(quick: bool) -> list[BenchCase]:
    lengths = [1000, 10_000] if quick else [1000, 10_000, 100_000]
    states = [4] if quick else [4, 16]
    ve_sizes = [8, 12, 16] if quick else [8, 12, 16, 20]
    out = [forward_case(N, 1, n) for N in states for n in lengths]
    out += [forward_case(N, BATCH, BATCH_LEN) for N in states]
    out += [ve_case(kind, n) for kind in ("chain", "tree") for n in ve_sizes]
    return out


def main(argv: list[str] | None = None) -> int:
    from benchmarks._runner import run_standalone

    return run_standalone("graphical", cases, argv, __doc__.splitlines()[0])


if __name__ == "__main__":
    sys.exit(main())
