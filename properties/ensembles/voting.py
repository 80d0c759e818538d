"""Majority voting of independent classifiers (003 §6.1 (6.1)-(6.3)) and the combination
rules of 003 §6.4: averaging (6.17)-(6.18) and voting (6.19)-(6.21).

The majority-vote error is enumerated exactly (all 2^T mistake patterns, rationals) and
compared with the binomial sum of (6.3) and with its Hoeffding bound; the bound is
steered (``hypothesis.target``) towards its tightest cases.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
from hypothesis import example, given
from hypothesis import strategies as st

from algorithms.ensembles import (
    REJECT,
    class_vote_totals,
    majority_vote,
    majority_vote_error,
    plurality_vote,
    simple_average,
    weighted_average,
    weighted_vote,
)
from algorithms.ensembles._combination import pick_plurality
from mltheory import ErratumKind, Expect, Method, claim, evidence
from mltheory.numeric import EXACT_ARITHMETIC, assert_close
from mltheory.stats import check_probability_at_least, check_probability_at_most
from properties.ensembles.strategies import (
    class_votes,
    ensemble_sizes,
    half_or_less_rates,
    regression_ensembles,
)
from properties.ensembles.support import (
    check_majority_bound,
    check_majority_vanishes,
    enumerated_majority_error,
    magnitude,
)

#: Error rates as exact rationals (the sums are then compared exactly).
rational_rates = st.fractions(min_value=0, max_value=1, max_denominator=64)

# ---------------------------------------------------------------------------
# (6.1)-(6.3): majority vote of independent classifiers
# ---------------------------------------------------------------------------


@claim(
    id="ens.majority_error_6_3",
    source="003 §6.1 (6.1)-(6.3)",
    statement="If T classifiers err independently, each with probability eps, the vote "
    "H(x) = sign(sum_i h_i(x)) (sign(0) = 0 counted as an error) errs with probability "
    "sum_{k=0}^{floor(T/2)} C(T,k) (1 - eps)^k eps^(T-k).",
    method=Method.ENUMERATION,
    tags=("ensembles", "voting"),
)
@given(T=st.integers(1, 10), eps=rational_rates)
def majority_error_6_3(T, eps):
    exact = enumerated_majority_error(T, eps)
    assert majority_vote_error(T, eps, exact=True) == exact, (T, eps)
    assert_close(majority_vote_error(T, float(eps)), float(exact), EXACT_ARITHMETIC,
                 label="|scipy binomial CDF - exact sum|")


@claim(
    id="ens.majority_error_lhs_as_written",
    source="003 §6.1 (6.3)",
    statement="(As printed) P(h_i(x) != f(x)) equals sum_{k=0}^{floor(T/2)} C(T,k) "
    "(1 - eps)^k eps^(T-k).",
    method=Method.ENUMERATION,
    tags=("ensembles", "voting", "erratum"),
    expect=Expect.REFUTED,
    kind=ErratumKind.SYMBOL,
    corrected_by="ens.majority_error_6_3",
    explanation="Wrong symbol: the left-hand side must be the ensemble's error "
    "P(H(x) != f(x)); the individual error P(h_i(x) != f(x)) is eps by (6.1). For T = 3, "
    "eps = 1/4 the sum is 5/32, not 1/4.",
)
@given(T=st.integers(1, 10), eps=rational_rates)
@example(T=3, eps=Fraction(1, 4))
def majority_error_lhs_as_written(T, eps):
    total = majority_vote_error(T, eps, exact=True)
    assert total == eps, f"T={T}, eps={eps}: the sum is {total}, but P(h_i != f) = eps"


@claim(
    id="ens.majority_hoeffding_6_3",
    source="003 §6.1 (6.3)",
    statement="For eps <= 1/2, sum_{k=0}^{floor(T/2)} C(T,k)(1 - eps)^k eps^(T-k) <= "
    "exp(-T (1 - 2 eps)^2 / 2) (Hoeffding's inequality for the number of correct votes).",
    method=Method.PROPERTY,
    tags=("ensembles", "voting", "bound"),
)
@given(T=ensemble_sizes, eps=half_or_less_rates)
@example(T=2, eps=0.5)  # ratio 3/4: the tightest case
@example(T=400, eps=0.45)
def majority_hoeffding_6_3(T, eps):
    check_majority_bound(T, eps)


@claim(
    id="ens.majority_hoeffding_6_3_as_written",
    source="003 §6.1 (6.3)",
    statement="(As printed, no condition on eps) the majority-vote error sum is at most "
    "exp(-T (1 - 2 eps)^2 / 2).",
    method=Method.PROPERTY,
    tags=("ensembles", "voting", "bound", "erratum"),
    expect=Expect.REFUTED,
    kind=ErratumKind.MISSING_CONDITION,
    corrected_by="ens.majority_hoeffding_6_3",
    explanation="Missing condition eps < 1/2 (eps <= 1/2): Hoeffding bounds the lower tail "
    "of the number of correct votes only when its mean T(1 - eps) is at least T/2. For "
    "eps > 1/2 the error tends to 1 while the bound tends to 0, e.g. T = 1, eps = 1: error "
    "1 > exp(-1/2).",
)
@given(T=ensemble_sizes, eps=st.floats(0.0, 1.0))
@example(T=1, eps=1.0)
def majority_hoeffding_6_3_as_written(T, eps):
    check_majority_bound(T, eps)


@claim(
    id="ens.majority_error_decreasing_as_written",
    source="003 §6.1 (after (6.3))",
    statement="(As printed) by (6.3), the ensemble error decreases as the number T of "
    "classifiers grows.",
    method=Method.ENUMERATION,
    tags=("ensembles", "voting", "erratum"),
    expect=Expect.REFUTED,
    kind=ErratumKind.MISSING_CONDITION,
    corrected_by="ens.majority_error_vanishes_6_3",
    explanation="Overclaim / missing condition: the sum of (6.3) decreases (to 0) only for "
    "eps < 1/2 and along odd T; an even T adds ties, which sign(0) = 0 counts as errors "
    "(T = 2 errs with probability 2 eps - eps^2 > eps), and for eps > 1/2 the error grows "
    "to 1.",
)
@given(T=st.integers(1, 30), eps=rational_rates)
@example(T=1, eps=Fraction(1, 4))
def majority_error_decreasing_as_written(T, eps):
    now, later = majority_vote_error(T, eps, exact=True), majority_vote_error(T + 1, eps,
                                                                                exact=True)
    assert later <= now, f"eps={eps}: error {now} at T={T} grows to {later} at T={T + 1}"


@claim(
    id="ens.majority_error_vanishes_6_3",
    source="003 §6.1 (6.3)",
    statement="For 0 < eps < 1/2 the exact majority-vote error strictly decreases along odd "
    "T and tends to 0: it is at most delta once T >= 2 ln(1/delta)/(1 - 2 eps)^2.",
    method=Method.ENUMERATION,
    tags=("ensembles", "voting", "bound"),
)
@given(eps=st.fractions(min_value=Fraction(1, 64), max_value=Fraction(31, 64),
                        max_denominator=64),
       delta=st.sampled_from([1e-2, 1e-4, 1e-8]))
def majority_error_vanishes_6_3(eps, delta):
    check_majority_vanishes(eps, delta)


# ---------------------------------------------------------------------------
# (6.17)-(6.18): averaging
# ---------------------------------------------------------------------------


@claim(
    id="avg.simple_vs_weighted_6_17_6_18",
    source="003 §6.4.1 (6.17)-(6.18)",
    statement="Simple averaging is weighted averaging with w_i = 1/T; with the book's "
    "constraint (w_i >= 0, sum w_i = 1) the weighted average lies between the smallest and "
    "the largest individual output, and a vertex weight returns that member's output.",
    method=Method.PROPERTY,
    tags=("ensembles", "averaging"),
)
@given(ens=regression_ensembles())
def simple_vs_weighted_6_17_6_18(ens):
    h, w = ens.outputs, ens.weights
    T = h.shape[0]
    scale = magnitude(h) ** 0.5
    assert_close(simple_average(h), weighted_average(h, np.full(T, 1.0 / T)),
                 EXACT_ARITHMETIC, scale=scale, label="|simple - weighted(1/T)| / scale")
    H = weighted_average(h, w)
    slack = 1e-12 * scale
    assert np.all(h.min(axis=0) - slack <= H) and np.all(H <= h.max(axis=0) + slack), (h, w, H)
    top = int(np.argmax(w))
    if w[top] == 1.0:
        assert np.array_equal(H, h[top])


# ---------------------------------------------------------------------------
# (6.19)-(6.21): voting
# ---------------------------------------------------------------------------


@claim(
    id="vote.majority_6_19",
    source="003 §6.4.2 (6.19)",
    statement="Majority voting outputs c_j iff sum_i h_i^j(x) > 0.5 sum_k sum_i h_i^k(x) and "
    "rejects otherwise; at most one class can satisfy the condition (hard and soft votes).",
    method=Method.PROPERTY,
    tags=("ensembles", "voting"),
)
@given(votes=class_votes())
def majority_6_19(votes):
    totals = class_vote_totals(votes)
    half = 0.5 * totals.sum(axis=1)
    passes = totals > half[:, None]
    assert np.all(passes.sum(axis=1) <= 1)
    out = majority_vote(votes)
    for x in range(totals.shape[0]):
        if out[x] == REJECT:
            assert not passes[x].any()
        else:
            assert passes[x, out[x]]


def _printed_majority(votes: np.ndarray) -> np.ndarray:
    """(6.19) read literally: class c_j passes iff sum_{i=1}^T h_j^i(x) (learner j's votes
    for classes 1..T) exceeds half of all votes; meaningful when T = N."""
    T, n, N = votes.shape
    assert T == N
    own = votes.transpose(1, 0, 2).sum(axis=2)  # (n, T): sum over classes of learner j
    passes = own > 0.5 * votes.sum(axis=(0, 2))[:, None]
    return np.where(passes.any(axis=1), np.argmax(passes, axis=1), REJECT)


@claim(
    id="vote.majority_6_19_as_written",
    source="003 §6.4.2 (6.19)",
    statement="(As printed) the rule 'c_j if sum_{i=1}^T h_j^i(x) > 0.5 sum_{k=1}^N "
    "sum_{i=1}^T h_i^k(x), else reject' outputs the label that receives more than half of "
    "the votes.",
    method=Method.PROPERTY,
    tags=("ensembles", "voting", "erratum"),
    expect=Expect.REFUTED,
    kind=ErratumKind.SYMBOL,
    corrected_by="vote.majority_6_19",
    explanation="Wrong index: the left sum is printed h_j^i (learner j's vote for class i) "
    "instead of h_i^j (learner i's vote for class j, the notation of (6.20)-(6.21)). Read as "
    "printed (T = N so the indices are in range) it sums one learner's votes over classes: "
    "with hard votes that is 1 <= T/2, so three learners voting unanimously for c_1 are "
    "rejected.",
)
@given(votes=st.integers(2, 5).flatmap(
    lambda k: class_votes(max_learners=k, max_classes=k).filter(
        lambda v: v.shape[0] == v.shape[2])))
@example(votes=np.tile(np.array([1.0, 0.0, 0.0]), (3, 1, 1)))
def majority_6_19_as_written(votes):
    assert np.array_equal(_printed_majority(votes), majority_vote(votes)), votes


@claim(
    id="vote.plurality_weighted_6_20_6_21",
    source="003 §6.4.2 (6.20)-(6.21)",
    statement="Plurality voting picks a class with the most votes and is weighted voting "
    "with equal weights; where majority voting does not reject, it agrees with plurality "
    "voting; weighted voting picks a class maximising sum_i w_i h_i^j(x).",
    method=Method.PROPERTY,
    tags=("ensembles", "voting"),
)
@given(votes=class_votes(), data=st.data(), seed=st.integers(0, 2**32 - 1))
def plurality_weighted_6_20_6_21(votes, data, seed):
    T = votes.shape[0]
    totals = class_vote_totals(votes)
    first = plurality_vote(votes, tie_break="first")
    assert np.array_equal(first, weighted_vote(votes, np.ones(T), tie_break="first"))
    best = totals.max(axis=1)
    rows = np.arange(totals.shape[0])
    # equal weights of any size pick a class of maximal votes (rounding may break an exact
    # tie differently, so compare with the maximum up to the rounding of T short sums)
    scaled = weighted_vote(votes, np.full(T, data.draw(st.floats(0.01, 100.0))),
                           tie_break="first")
    assert np.all(totals[rows, scaled] >= best - 1e-12 * T)
    random = plurality_vote(votes, tie_break="random", rng=seed)
    assert np.all(totals[rows, first] == best) and np.all(totals[rows, random] == best)
    majority = majority_vote(votes)
    decided = majority != REJECT
    assert np.array_equal(majority[decided], first[decided])
    assert np.array_equal(majority[decided], random[decided])
    w = np.array(data.draw(st.lists(st.floats(0.0, 10.0), min_size=T, max_size=T)))
    weighted = weighted_vote(votes, w, tie_break="first")
    wtotals = np.tensordot(w, votes, axes=1)
    assert np.all(wtotals[rows, weighted] >= wtotals.max(axis=1) - 1e-12 * (1 + w.sum()))


@claim(
    id="vote.plurality_random_tie_6_20",
    source="003 §6.4.2 (6.20)",
    statement="With several classes tied for the most votes, plurality voting picks one of "
    "them uniformly at random (each of k tied classes with probability 1/k).",
    method=Method.SIMULATION,
    tags=("ensembles", "voting", "statistical"),
)
def plurality_random_tie_6_20(rng, scale):
    draws = 6000 * scale
    for tied in (2, 3, 5):
        totals = np.zeros((draws, 6))
        totals[:, :tied] = 2.0
        totals[:, tied] = 1.0  # a runner-up that must never win
        picks = pick_plurality(totals, "random", rng)
        assert np.all(picks < tied), "a class outside the tie was chosen"
        for j in range(tied):
            hits = int(np.sum(picks == j))
            check_probability_at_most(hits, draws, 1.0 / tied, label=f"k={tied}: P(pick {j})")
            check_probability_at_least(hits, draws, 1.0 / tied,
                                       label=f"k={tied}: P(pick {j}) (lower)")
    evidence.add_examples(3)
