"""Benchmark (not a test): LDA by collapsed Gibbs sampling against scikit-learn's
variational ``LatentDirichletAllocation``.

Run:  python -m benchmarks --only topics [--quick]
      python benchmarks/bench_topics.py [--quick]

Documents of 40 words are drawn from 4 planted topics over 20 words (each topic
concentrated on its own 5 words, document proportions Dir(0.3)); both models fit K = 4
topics with the same priors (alpha = 0.3, eta = 0.1), ours with 50 Gibbs sweeps. The n
column is the number of documents. Gap: the worst total-variation distance between a
planted topic and its matched estimate (Hungarian matching), ours minus scikit-learn's.
There is no speed target: collapsed Gibbs is an exact-posterior sampler, scikit-learn's a
vectorised variational approximation; the comparison shows what the sampler costs and
that both recover the planted topics.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
from scipy.optimize import linear_sum_assignment
from sklearn.decomposition import LatentDirichletAllocation

try:
    from benchmarks._harness import BenchCase
except ModuleNotFoundError:  # run as a script: python benchmarks/bench_topics.py
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from benchmarks._harness import BenchCase

from algorithms.graphical import LDATopicModel

K, V, WORDS, SWEEPS = 4, 20, 40, 50


def corpus(n_docs: int, rng: np.random.Generator):
    beta = np.full((K, V), 0.1 / (V - 5))
    for k in range(K):
        beta[k, 5 * k:5 * k + 5] = 0.9 / 5
    theta = rng.dirichlet(np.full(K, 0.3), size=n_docs)
    X = np.zeros((n_docs, V), dtype=np.int64)
    for t in range(n_docs):
        z = rng.choice(K, size=WORDS, p=theta[t])
        for k in range(K):
            X[t] += rng.multinomial((z == k).sum(), beta[k])
    return beta, X


def worst_tv(beta, est):
    est = est / est.sum(axis=1, keepdims=True)
    cost = 0.5 * np.abs(beta[:, None, :] - est[None, :, :]).sum(axis=2)
    r, c = linear_sum_assignment(cost)
    return float(cost[r, c].max())


def lda_case(n: int) -> BenchCase:
    box: dict = {}

    def setup():
        box["beta"], X = corpus(n, np.random.default_rng(n))
        return X

    return BenchCase(
        "LDA collapsed Gibbs", n,
        ours=lambda X: LDATopicModel(K, alpha=0.3, eta=0.1, max_iter=SWEEPS,
                                     random_state=0).fit(X),
        reference=lambda X: LatentDirichletAllocation(K, doc_topic_prior=0.3,
                                                      topic_word_prior=0.1,
                                                      random_state=0).fit(X),
        setup=setup,
        objective_gap=lambda m, r: worst_tv(box["beta"], m.components_)
        - worst_tv(box["beta"], r.components_),
        repeats=1,
        params={"K": K, "V": V, "tokens": n * WORDS, "sweeps": SWEEPS,
                "gap": "worst TV ours - sklearn"},
        reference_name="sklearn LatentDirichletAllocation (variational)")


def cases(quick: bool) -> list[BenchCase]:
    return [lda_case(n) for n in ([50] if quick else [50, 200])]


def main(argv: list[str] | None = None) -> int:
    from benchmarks._runner import run_standalone

    return run_standalone("topics", cases, argv, __doc__.splitlines()[0])


if __name__ == "__main__":
    sys.exit(main())
