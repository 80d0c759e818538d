"""Benchmark (not a test): LDA by collapsed Gibbs sampling against scikit-learn's
variational ``LatentDirichletAllocation``.

Run:  python benchmarks/bench_topics.py [--docs 50 200] [--sweeps 50] [--repeats 1]

For each corpus size, documents of 40 words are drawn from 4 planted topics over 20
words (each topic concentrated on its own 5 words, document proportions Dir(0.3)); both
models fit K = 4 topics with the same priors (alpha = 0.3, eta = 0.1). Printed per row:
best-of-``repeats`` fit time of each, the ratio ours/sklearn, and the worst
total-variation distance between a planted topic and its matched estimate (Hungarian
matching). There is no speed target: collapsed Gibbs is an exact-posterior sampler with
a per-token Python loop, scikit-learn's is a vectorised variational approximation; the
comparison shows what the sampler costs and that both recover the planted topics.
"""

from __future__ import annotations

import argparse
import time

import numpy as np
from scipy.optimize import linear_sum_assignment
from sklearn.decomposition import LatentDirichletAllocation

from algorithms.graphical import LDATopicModel

K, V, WORDS = 4, 20, 40


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


def best_time(run, repeats):
    best, out = np.inf, None
    for _ in range(repeats):
        start = time.perf_counter()
        out = run()
        best = min(best, time.perf_counter() - start)
    return best, out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--docs", type=int, nargs="+", default=[50, 200])
    parser.add_argument("--sweeps", type=int, default=50)
    parser.add_argument("--repeats", type=int, default=1)
    args = parser.parse_args()
    rng = np.random.default_rng(0)
    print(f"{'docs':>6} {'tokens':>7} {'ours s':>8} {'sklearn s':>9} {'ratio':>6} "
          f"{'TV ours':>8} {'TV sklearn':>10}")
    for n in args.docs:
        beta, X = corpus(n, rng)
        ours = LDATopicModel(K, alpha=0.3, eta=0.1, max_iter=args.sweeps, random_state=0)
        ref = LatentDirichletAllocation(K, doc_topic_prior=0.3, topic_word_prior=0.1,
                                        random_state=0)
        t, m = best_time(lambda o=ours, X=X: o.fit(X), args.repeats)
        s, r = best_time(lambda o=ref, X=X: o.fit(X), args.repeats)
        print(f"{n:>6} {int(X.sum()):>7} {t:>8.3f} {s:>9.3f} {t / s:>6.2f} "
              f"{worst_tv(beta, m.components_):>8.3f} {worst_tv(beta, r.components_):>10.3f}")


if __name__ == "__main__":
    main()
