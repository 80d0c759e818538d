"""The linear-chain CRF of 003 §12.3: (12.9) normalised with Z(x) from the forward
recursion, its Markov property (12.8), and two errata of the printed (12.9): the
transition weight indexed by the position (lambda_i) instead of the feature
(lambda_j), and a normaliser Z written without its dependence on x."""

from __future__ import annotations

import itertools

import numpy as np
from hypothesis import given

from algorithms.graphical import crf_log_partition, crf_log_probability
from mltheory import ErratumKind, Expect, Method, claim, evidence
from mltheory.numeric import assert_close
from properties.graphical.strategies_exact import SEEDS, CRFCase, crfs
from properties.graphical.support_exact import ENUMERATED, LOG_ENUMERATED, independence_gap


def label_sequences(n: int, L: int) -> np.ndarray:
    return np.array(list(itertools.product(range(L), repeat=n)), dtype=np.intp).reshape(-1, n)


def printed_score(T, S, lam_of, mu, y) -> float:
    """The exponent of (12.9) written out: sum_j sum_{i=1}^{n-1} lam_of(i, j)
    t_j(y_{i+1}, y_i, x, i) + sum_k sum_{i=1}^n mu_k s_k(y_i, x, i) (0-based i here).
    ``lam_of(i, j)`` picks the weight: ``lam[j]`` per feature, ``lam[i]`` as printed."""
    J, K, n = T.shape[0], S.shape[0], S.shape[1]
    return (sum(lam_of(i, j) * T[j, i, y[i], y[i + 1]] for j in range(J) for i in range(n - 1))
            + sum(mu[k] * S[k, i, y[i]] for k in range(K) for i in range(n)))


def brute_conditional(T, S, lam_of, mu) -> tuple[np.ndarray, np.ndarray]:
    """Every label sequence and its probability exp(score) / sum over all sequences."""
    n, L = S.shape[1], S.shape[2]
    Y = label_sequences(n, L)
    scores = np.array([printed_score(T, S, lam_of, mu, y) for y in Y])
    w = np.exp(scores - scores.max())
    return Y, w / w.sum()


@claim(
    id="crf.normalised_12_9",
    source="003 §12.3 (12.9)",
    statement="P(y|x) = exp(sum_j sum_{i=1}^{n-1} lambda_j t_j(y_{i+1}, y_i, x, i) + sum_k "
    "sum_{i=1}^n mu_k s_k(y_i, x, i)) / Z(x), with one weight lambda_j per transition "
    "feature and Z(x) computed by the forward recursion, sums to 1 over all L^n label "
    "sequences and equals the brute-force normalisation of the written-out exponent.",
    method=Method.ENUMERATION,
    tags=("graphical", "crf"),
)
@given(case=crfs())
def normalised_12_9(case: CRFCase):
    T, S, lam, mu = case.T, case.S, case.lam, case.mu
    Y, ref = brute_conditional(T, S, lambda i, j: lam[j], mu)
    ours = np.exp(crf_log_probability(Y, T, S, lam, mu))
    assert_close(ours, ref, ENUMERATED, scale=1.0, label="|P(y|x) - brute force (12.9)|")
    assert_close(ours.sum(), 1.0, ENUMERATED, label="|sum_y P(y|x) - 1|")
    scores = np.array([printed_score(T, S, lambda i, j: lam[j], mu, y) for y in Y])
    log_z = scores.max() + np.log(np.exp(scores - scores.max()).sum())
    assert_close(crf_log_partition(T, S, lam, mu), log_z, LOG_ENUMERATED,
                 scale=max(1.0, abs(log_z)), label="|log Z(x) forward - brute force|")
    evidence.add_examples(len(Y))


@claim(
    id="crf.weights_as_printed",
    source="003 §12.3 (12.9)",
    statement="(As printed) (12.9) weights the transition features by lambda_i, the "
    "index of the position: sum_j sum_i lambda_i t_j(y_{i+1}, y_i, x, i). Read with "
    "lambda_i (and as many weights as positions, n - 1 = J), it is the CRF whose "
    "transition feature t_j carries the weight lambda_j.",
    method=Method.ENUMERATION,
    tags=("graphical", "crf", "erratum"),
    expect=Expect.REFUTED,
    kind=ErratumKind.SYMBOL,
    corrected_by="crf.normalised_12_9",
    explanation="The weight of a transition feature must be indexed by the feature, "
    "lambda_j, like mu_k for the state features: with lambda_i every feature at "
    "position i gets the same weight, so two different transition features can never "
    "be weighted differently, and the number of weights would depend on the length of "
    "the sequence (a model trained on one length would not apply to another).",
)
@given(case=crfs(max_len=4, n_transition=None))
def weights_as_printed(case: CRFCase):
    T, S, mu = case.T, case.S, case.mu
    n = S.shape[1]
    J = n - 1  # the one case where lambda_i and lambda_j range over the same indices
    T = T[:J] if T.shape[0] >= J else np.concatenate(
        [T, np.zeros((J - T.shape[0], *T.shape[1:]))])
    lam = np.resize(case.lam, J) if case.lam.size else np.ones(J)
    _, printed = brute_conditional(T, S, lambda i, j: lam[i], mu)
    _, intended = brute_conditional(T, S, lambda i, j: lam[j], mu)
    assert_close(printed, intended, ENUMERATED, scale=1.0,
                 label="|P with lambda_i - P with lambda_j|")


@claim(
    id="crf.partition_constant_as_printed",
    source="003 §12.3 (12.9)",
    statement="(As printed) The normaliser of (12.9) is a constant Z: one number "
    "normalises P(y|x) for every observation sequence x.",
    method=Method.ENUMERATION,
    tags=("graphical", "crf", "erratum"),
    expect=Expect.REFUTED,
    kind=ErratumKind.SHORTHAND,
    corrected_by="crf.normalised_12_9",
    explanation="The features depend on x, so the sum over label sequences does too: the "
    "normaliser is Z(x), recomputed (by the forward recursion) for each observed x.",
)
@given(case=crfs(), seed=SEEDS)
def partition_constant_as_printed(case: CRFCase, seed: int):
    rng = np.random.default_rng(seed)
    # a second observation sequence: the state features of x' at the same positions
    S2 = rng.permuted(case.S, axis=1)
    z1 = crf_log_partition(case.T, case.S, case.lam, case.mu)
    z2 = crf_log_partition(case.T, S2, case.lam, case.mu)
    assert_close(z1, z2, LOG_ENUMERATED, scale=max(1.0, abs(z1)),
                 label="|log Z(x) - log Z(x')|")


@claim(
    id="crf.markov_12_8",
    source="003 §12.3 (12.8)-(12.9)",
    statement="For the chain CRF (12.9), each label satisfies the Markov property (12.8): "
    "P(y_v | x, y_{V minus v}) = P(y_v | x, y_{n(v)}), n(v) = {v-1, v+1} on the chain; "
    "checked by enumeration of P(y|x) for every v.",
    method=Method.ENUMERATION,
    tags=("graphical", "crf"),
)
@given(case=crfs(max_len=5, max_labels=3))
def markov_12_8(case: CRFCase):
    T, S, lam, mu = case.T, case.S, case.lam, case.mu
    n, L = S.shape[1], S.shape[2]
    Y = label_sequences(n, L)
    P = np.exp(crf_log_probability(Y, T, S, lam, mu)).reshape((L,) * n)
    worst = 0.0
    for v in range(n):
        nb = [u for u in (v - 1, v + 1) if 0 <= u < n]
        rest = [u for u in range(n) if u != v and u not in nb]
        if rest:
            worst = max(worst, independence_gap(P, [v], rest, nb))
    evidence.worst("largest |P(y_v | y_rest) - P(y_v | y_n(v))|-type gap", worst)
    assert worst <= 1e-9, f"a label depends on non-neighbours given its neighbours ({worst})"


@claim(
    id="crf.forward_long_chain",
    source="003 §12.3 (12.9)",
    statement="(Implied) Z(x) by the forward recursion stays finite for long chains with "
    "large scores (n = 300, weights up to 50), where exp(score) overflows float64: log "
    "Z(x) lies between the maximal score and the maximal score plus n log L (for 8 "
    "random chains with L = 2..4 labels).",
    method=Method.PROPERTY,
    tags=("graphical", "crf"),
)
def forward_long_chain(rng, scale):
    for _ in range(8 * scale):
        _check_long_chain(rng, int(rng.integers(2, 5)))


def _check_long_chain(rng: np.random.Generator, L: int) -> None:
    n = 300
    T, S = rng.normal(size=(2, n - 1, L, L)), rng.normal(size=(2, n, L))
    lam, mu = 50 * rng.normal(size=2), 50 * rng.normal(size=2)
    edge = np.tensordot(lam, T, axes=1)
    node = np.tensordot(mu, S, axes=1)
    best = node[0]
    for i in range(n - 1):  # max-product (Viterbi) score, independent of log-sum-exp
        best = node[i + 1] + np.max(best[:, None] + edge[i], axis=0)
    log_z = crf_log_partition(T, S, lam, mu)
    assert np.isfinite(log_z)
    assert best.max() - 1e-9 * abs(best.max()) <= log_z <= best.max() + n * np.log(L) + 1e-9 * \
        abs(best.max()), f"log Z = {log_z} outside [{best.max()}, {best.max() + n * np.log(L)}]"
