"""Hidden Markov models, 003 §12.1: the parameters (12.2)-(12.4) read off the joint
(12.1), the joint normalised, the four-step generation procedure sampling from it, the
forward algorithm against a brute-force sum over state paths, the chain's conditional
independences (with the note's over-strong wording as an erratum) and Viterbi."""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from algorithms.graphical import (
    hmm_forward,
    hmm_log_joint,
    hmm_log_likelihood,
    hmm_sample,
    hmm_viterbi,
)
from mltheory import ErratumKind, Expect, Method, claim, evidence
from mltheory.numeric import assert_close
from properties.graphical.strategies_exact import HMMCase, hmms
from properties.graphical.support_exact import (
    ENUMERATED,
    LOG_ENUMERATED,
    check_forward,
    check_generation,
    check_hmm_joint,
    hmm_joint_table,
    independence_gap,
    marginal,
    printed_joint_12_1,
)


@claim(
    id="hmm.params_12_2_12_4",
    source="003 §12.1 (12.2)-(12.4)",
    statement="Under the joint (12.1), the transition probabilities P(y_{t+1}=s_j | "
    "y_t=s_i) equal a_ij at every t, the emission probabilities P(x_t=o_j | y_t=s_i) "
    "equal b_ij at every t and P(y_1=s_i) = pi_i; so A and B are row-stochastic and pi "
    "sums to 1 (and a parameter set that is not is refused).",
    method=Method.ENUMERATION,
    tags=("graphical", "hmm"),
)
@given(case=hmms(max_steps=3))
def params_12_2_12_4(case: HMMCase):
    A, B, pi, n = case.A, case.B, case.pi, case.n
    P = hmm_joint_table(A, B, pi, n)  # axes x_1..x_n, y_1..y_n
    assert_close(marginal(P, [n]).ravel(), pi, ENUMERATED, label="|P(y_1) - pi|")
    for t in range(n):
        pxy = marginal(P, [t, n + t]).reshape(B.shape[1], B.shape[0]).T  # [y_t, x_t]
        py = pxy.sum(axis=1)
        ok = py > 0
        assert_close(pxy[ok] / py[ok, None], B[ok], ENUMERATED,
                     label="|P(x_t = o_j | y_t = s_i) - b_ij|")
        if t + 1 < n:
            pyy = marginal(P, [n + t, n + t + 1]).reshape(A.shape)
            assert_close(pyy[ok] / py[ok, None], A[ok], ENUMERATED,
                         label="|P(y_{t+1} = s_j | y_t = s_i) - a_ij|")
    assert_close(A.sum(axis=1), np.ones(A.shape[0]), ENUMERATED, label="row sums of A")
    assert_close(B.sum(axis=1), np.ones(B.shape[0]), ENUMERATED, label="row sums of B")
    assert_close(pi.sum(), 1.0, ENUMERATED, label="sum of pi")
    bad = A.copy()
    bad[0] *= 0.5
    try:
        hmm_log_likelihood(bad, B, pi, np.zeros(n, dtype=int))
    except ValueError as exc:
        assert "transition" in str(exc)
    else:
        raise AssertionError("a transition matrix with a row summing to 1/2 was accepted")


@claim(
    id="hmm.joint_12_1",
    source="003 §12.1 (12.1)",
    statement="P(x_1, y_1, ..., x_n, y_n) = P(y_1) P(x_1|y_1) prod_{i=2}^n P(y_i|y_{i-1}) "
    "P(x_i|y_i) (the product over i = 2..n as printed) is a probability distribution: "
    "summed over all N^n M^n configurations it gives 1; our log-joint equals the printed "
    "product on every configuration.",
    method=Method.ENUMERATION,
    tags=("graphical", "hmm"),
)
@given(case=hmms())
def joint_12_1(case: HMMCase):
    check_hmm_joint(hmm_log_joint, case.A, case.B, case.pi, case.n)


def _sampler(A, B, pi, n, m, seed):
    return hmm_sample(A, B, pi, n, n_sequences=m, random_state=seed)


@claim(
    id="hmm.generation_matches_joint",
    source="003 §12.1 (generation steps 1-4)",
    statement="Sequences produced by the four-step procedure (y_1 from pi; x_t from the "
    "row of B of y_t; y_{t+1} from the row of A of y_t; repeat while t < n) have the "
    "distribution (12.1): for 3 random models (N = M = 2, n = 3, 64 configurations) and "
    "one nearly deterministic model, 200000 sequences each, every configuration's "
    "exact probability lies in its Clopper-Pearson interval (Bonferroni, family-wise "
    "1 - 1e-6).",
    method=Method.SIMULATION,
    tags=("graphical", "hmm"),
)
def generation_matches_joint(rng, scale):
    n_samples = 200_000 * scale
    models = []
    for _ in range(3):
        models.append((rng.dirichlet(np.ones(2), 2), rng.dirichlet(np.ones(2), 2),
                       rng.dirichlet(np.ones(2))))
    models.append((np.array([[0.98, 0.02], [0.05, 0.95]]), np.array([[0.9, 0.1], [0.2, 0.8]]),
                   np.array([0.3, 0.7])))
    for A, B, pi in models:
        check_generation(_sampler, A, B, pi, 3, n_samples, int(rng.integers(2**31)))
    evidence.add_examples(len(models) * n_samples)


#: Observation sequences per example whose likelihood is summed by brute force.
MAX_SEQUENCES = 12


@claim(
    id="hmm.forward_equals_bruteforce",
    source="003 §12.1 (12.1)",
    statement="(Implied) The forward recursion alpha_1(j) = pi_j b_j(x_1), alpha_t(j) = "
    "b_j(x_t) sum_i alpha_{t-1}(i) a_ij gives P(x | lambda) = sum_j alpha_n(j), equal to "
    "the sum of (12.1) over all N^n state paths, for every observation sequence "
    "(impossible ones get log P = -inf), and its alpha_t(j) equals P(x_1..x_t, y_t = j).",
    method=Method.ENUMERATION,
    tags=("graphical", "hmm"),
)
@given(case=st.one_of(hmms(max_states=3, max_symbols=3, max_steps=4),
                      hmms(max_states=2, max_symbols=2, max_steps=7)))  # chunks of 2 steps
def forward_equals_bruteforce(case: HMMCase):
    A, B, pi, n = case.A, case.B, case.pi, case.n
    xs = np.array(list(itertools.product(range(B.shape[1]), repeat=n)))
    if len(xs) > MAX_SEQUENCES:  # a drawn subset, always with the first and the last
        pick = np.random.default_rng(n * 1000 + len(xs)).choice(len(xs), MAX_SEQUENCES - 2,
                                                                replace=False)
        xs = xs[np.unique(np.r_[0, pick, len(xs) - 1])]
    check_forward(hmm_log_likelihood, A, B, pi, xs)
    check_forward(lambda *a: hmm_forward(*a)[1], A, B, pi, xs)
    log_alpha, _ = hmm_forward(A, B, pi, xs[-1])
    for t in range(n):
        ref = np.array([sum(printed_joint_12_1(A, B, pi, xs[-1][: t + 1], (*y, j))
                            for y in itertools.product(range(A.shape[0]), repeat=t))
                        for j in range(A.shape[0])])
        with np.errstate(divide="ignore"):
            assert_close(np.exp(log_alpha[t]), ref, ENUMERATED, scale=1.0,
                         label="|alpha_t(j) - P(x_1..x_t, y_t = j)|")


@claim(
    id="hmm.forward_long_sequences",
    source="003 §12.1 (12.1)",
    statement="(Implied, 'computed stably') The forward algorithm's log P(x | lambda) "
    "stays finite and exact for sequences of 2000 steps, where P(x) underflows float64 "
    "by hundreds of orders of magnitude: it equals log P(x) computed by the same "
    "recursion in exact rational arithmetic (Python fractions, dyadic parameters).",
    method=Method.REFERENCE,
    tags=("graphical", "hmm"),
)
def forward_long_sequences(rng, scale):
    N, M, n = 2, 3, 2000
    A = np.array([[0.75, 0.25], [0.5, 0.5]])
    B = np.array([[0.5, 0.25, 0.25], [0.125, 0.375, 0.5]])
    pi = np.array([0.5, 0.5])
    x = rng.integers(0, M, n)
    fa = [[Fraction(v) for v in row] for row in A]
    fb = [[Fraction(v) for v in row] for row in B]
    alpha = [Fraction(pi[j]) * fb[j][x[0]] for j in range(N)]
    for t in range(1, n):
        alpha = [fb[j][x[t]] * sum(alpha[i] * fa[i][j] for i in range(N)) for j in range(N)]
    total = sum(alpha)
    exact = math.log(total.numerator) - math.log(total.denominator)  # exact big ints
    ours = hmm_log_likelihood(A, B, pi, x)
    evidence.record("log P(x) of the 2000-step sequence", ours)
    assert_close(ours, exact, LOG_ENUMERATED, scale=abs(exact),
                 label="|forward log P(x) - exact rational| / |log P(x)|")


@claim(
    id="hmm.markov_as_written",
    source="003 §12.1 (the paragraph before (12.1))",
    statement="(As printed) The state y_t depends only on y_{t-1} and on none of the "
    "other n - 2 states: P(y_t | all other states) = P(y_t | y_{t-1}).",
    method=Method.ENUMERATION,
    tags=("graphical", "hmm", "erratum"),
    expect=Expect.REFUTED,
    kind=ErratumKind.OVERCLAIM,
    corrected_by="hmm.markov_chain",
    explanation="The chain makes y_t independent of the earlier states y_1..y_{t-2} "
    "given y_{t-1}, not of the later ones: y_{t+1} is drawn from the row of A of y_t, so "
    "observing it tells something about y_t even when y_{t-1} is known. Given all other "
    "states, y_t depends on both y_{t-1} and y_{t+1} (its Markov blanket in the chain).",
)
@given(case=hmms(max_symbols=2, max_steps=4))
def markov_as_written(case: HMMCase):
    A, B, pi, n = case.A, case.B, case.pi, case.n
    Py = marginal(hmm_joint_table(A, B, pi, n), list(range(n, 2 * n))).reshape(
        (A.shape[0],) * n)
    for t in range(1, n):
        others = [s for s in range(n) if s not in (t, t - 1)]
        gap = independence_gap(Py, [t], others, [t - 1]) if others else 0.0
        assert gap <= 1e-9, (f"P(y_{t + 1} | other states) depends on states other than "
                             f"y_{t} (gap {gap:.3g})")


@claim(
    id="hmm.markov_chain",
    source="003 §12.1 (12.1)",
    statement="Under (12.1): P(y_t | y_1..y_{t-1}) = P(y_t | y_{t-1}) (the past enters "
    "only through the previous state), given all other states y_t depends only on "
    "y_{t-1} and y_{t+1}, and P(x_t | all other variables) = P(x_t | y_t).",
    method=Method.ENUMERATION,
    tags=("graphical", "hmm"),
)
@given(case=hmms(max_symbols=2, max_steps=4))
def markov_chain(case: HMMCase):
    A, B, pi, n = case.A, case.B, case.pi, case.n
    P = hmm_joint_table(A, B, pi, n)
    Py = marginal(P, list(range(n, 2 * n))).reshape((A.shape[0],) * n)
    worst = 0.0
    for t in range(1, n):
        past = list(range(t - 1))
        if past:  # y_t independent of y_1..y_{t-2} given y_{t-1}: P over y_1..y_t only
            Pt = Py.sum(axis=tuple(range(t + 1, n)))
            worst = max(worst, independence_gap(Pt, [t], past, [t - 1]))
        far = [s for s in range(n) if abs(s - t) > 1]
        if far:
            blanket = [s for s in (t - 1, t + 1) if s < n]
            worst = max(worst, independence_gap(Py, [t], far, blanket))
    for t in range(n):
        rest = [a for a in range(2 * n) if a not in (t, n + t)]
        if rest:
            worst = max(worst, independence_gap(P, [t], rest, [n + t]))
    evidence.worst("largest conditional-independence gap", worst)
    assert worst <= 1e-9, f"a conditional independence of the chain fails (gap {worst:.3g})"


@claim(
    id="hmm.viterbi_max_joint",
    source="003 §12.1 (12.1); Rabiner 1989, A tutorial on hidden Markov models, §III.B",
    statement="(Beyond the notes) Viterbi's path maximises the joint (12.1) over all N^n "
    "state paths: its log P(x, path) equals the brute-force maximum and is attained by "
    "the path returned.",
    method=Method.ENUMERATION,
    tags=("graphical", "hmm"),
)
@given(case=hmms(max_steps=5), x_seed=st.integers(0, 2**31 - 1))
def viterbi_max_joint(case: HMMCase, x_seed: int):
    A, B, pi, n = case.A, case.B, case.pi, case.n
    x = np.random.default_rng(x_seed).integers(0, B.shape[1], n)
    path, best = hmm_viterbi(A, B, pi, x)
    ref = max(printed_joint_12_1(A, B, pi, x, y)
              for y in itertools.product(range(A.shape[0]), repeat=n))
    got = printed_joint_12_1(A, B, pi, x, path)
    if ref == 0.0:
        assert best == -np.inf
        return
    assert_close(got, ref, ENUMERATED, label="|P(x, viterbi path) - max_y P(x, y)|")
    assert_close(best, np.log(ref), LOG_ENUMERATED, label="|viterbi log joint - log max|")
