"""Majority voting of independent classifiers (003 §6.1 (6.1)-(6.3)) and the combination
rules of 003 §6.4: averaging (6.17)-(6.18) and voting (6.19)-(6.21).

The majority-vote error is enumerated exactly (all 2^T mistake patterns, rationals) and
compared with the binomial sum of (6.3) and with its Hoeffding bound; the bound is
steered (``hypothesis.target``) towards its tightest cases.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
from hypothesis import example, given
from hypothesis import strategies as st
from sklearn.base import clone
from sklearn.ensemble import VotingClassifier as SkVoting
from sklearn.ensemble import VotingRegressor as SkVotingRegressor
from sklearn.linear_model import LinearRegression as SkLinear
from sklearn.linear_model import LogisticRegression as SkLogistic
from sklearn.naive_bayes import GaussianNB
from sklearn.tree import DecisionTreeClassifier as SkTree
from sklearn.tree import DecisionTreeRegressor as SkTreeRegressor

from algorithms.ensembles import (
    REJECT,
    AveragingRegressor,
    StackingClassifier,
    VotingClassifier,
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
from mltheory.numeric import EXACT_ARITHMETIC, Tolerance, assert_close
from mltheory.stats import check_probability_at_least, check_probability_at_most
from properties.ensembles.strategies import (
    class_votes,
    ensemble_sizes,
    half_or_less_rates,
    large_ensemble_exponents,
    regression_ensembles,
)
from properties.ensembles.support import (
    check_hoeffding_evaluation,
    check_majority_bound,
    check_majority_error_reference,
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
    id="ens.majority_error_6_3_large",
    source="003 §6.1 (6.3)",
    statement="The sum of (6.3), sum_{k=0}^{floor(T/2)} C(T,k) (1 - eps)^k eps^(T-k), is the "
    "probability that at most floor(T/2) of T independent classifiers are right, for large "
    "ensembles too (T in the hundreds and thousands): the exact rational sum equals the "
    "binomial tail I_eps(T - floor(T/2), floor(T/2) + 1) to 40 digits and the float "
    "evaluation agrees with it.",
    method=Method.REFERENCE,
    tags=("ensembles", "voting"),
)
@given(T=st.integers(11, 600), eps=rational_rates)
@example(T=1001, eps=Fraction(29, 64))  # beyond 10^3: sizes the exact sum must still serve
@example(T=600, eps=Fraction(0))
@example(T=599, eps=Fraction(1))
def majority_error_6_3_large(T, eps):
    """Enumeration (the claim above) stops at T = 10; the incomplete beta of mpmath is the
    reference here. One pinned size above 1000 costs ~0.5 s of rational arithmetic."""
    check_majority_error_reference(T, eps)


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
    id="ens.majority_hoeffding_stable",
    source="003 §6.1 (6.3)",
    statement="The right-hand side exp(-T (1 - 2 eps)^2 / 2) of (6.3) is evaluated for every "
    "T >= 1 (sizes up to 10^400, beyond float64) and eps in [0, 1] within 1e-12 relative of "
    "a 50-digit value (exactly 0 where that value is below the smallest float64).",
    method=Method.PROPERTY,
    tags=("ensembles", "voting", "numerics"),
)
@given(case=st.one_of(
    st.tuples(st.one_of(st.integers(1, 10**6), st.integers(2**52, 2**60),
                        st.integers(10**15, 10**400)),
              st.one_of(st.floats(0.0, 1.0), st.floats(0.4999, 0.5))),
    large_ensemble_exponents()))
@example(case=(10**400, 0.5))
@example(case=(2**53, 0.5 - 2**-27))
@example(case=(2**55, 0.5 - math.sqrt(2 * 700.0 / 2**55) / 2))  # exponent ~700 at T > 2^53
@example(case=(2**53, 0.5 - math.sqrt(2 * 600.0 / 2**53) / 2))  # and at T = 2^53 itself
def majority_hoeffding_stable(case):
    check_hoeffding_evaluation(*case)


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
    # the totals themselves, sum_i h_i^j(x) (a scaled total picks the same classes)
    assert_close(totals, votes.sum(axis=0), EXACT_ARITHMETIC,
                 label="|sum_i h_i^j(x) - class_vote_totals|")
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
    assert_close(class_vote_totals(votes, w), wtotals, EXACT_ARITHMETIC,
                 label="|sum_i w_i h_i^j(x) - class_vote_totals|")
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


# ---------------------------------------------------------------------------
# The combination estimators against scikit-learn; stacking (Fig 8.9) as printed
# ---------------------------------------------------------------------------

#: Averages of at most a few member probabilities or predictions: float64 rounding.
COMBINATION_ROUNDING = Tolerance(rtol=1e-12, atol=1e-12,
                                 reason="weighted means of a few float64 numbers in another "
                                 "summation order")


def _members(seed: int) -> list:
    """Deterministic scikit-learn members (shared by both sides of a comparison)."""
    return [("tree", SkTree(max_depth=3, random_state=seed)),
            ("logistic", SkLogistic(max_iter=500)),
            ("bayes", GaussianNB())]


def _classification(seed: int, K: int, n: int = 90):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 3))
    y = np.argmax(X @ rng.normal(size=(3, K)) + 0.8 * rng.normal(size=(n, K)), axis=1)
    y[:K] = np.arange(K)  # every class present
    return X, y


@claim(
    id="vote.sklearn_reference",
    source="003 §6.4.1 (6.17)-(6.18); 003 §6.4.2 (6.20)-(6.21)",
    statement="VotingClassifier's hard (6.20)/(6.21) and soft votes and AveragingRegressor's "
    "simple (6.17) and weighted (6.18) averages give scikit-learn's VotingClassifier / "
    "VotingRegressor results on the same fitted members (ties to the first class); its "
    "majority rule (6.19) rejects exactly where no class has more than half of the "
    "(weighted) votes of those members (rejected points labelled classes_[0]).",
    method=Method.REFERENCE,
    tags=("ensembles", "voting", "reference", "slow"),
)
@given(seed=st.integers(0, 2**16), K=st.integers(2, 4),
       weights=st.one_of(st.none(), st.lists(st.integers(1, 5), min_size=3, max_size=3)))
def vote_sklearn_reference(seed, K, weights):
    X, y = _classification(seed, K)
    for voting in ("hard", "soft"):
        ours = VotingClassifier([m for _, m in _members(seed)], voting=voting,
                                weights=weights).fit(X, y)
        ref = SkVoting(_members(seed), voting=voting, weights=weights).fit(X, y)
        assert np.array_equal(ours.predict(X), ref.predict(X)), f"{voting} votes differ"
        if voting == "hard":  # (6.19) on the same members: more than half the (weighted) votes
            w = np.ones(3) if weights is None else np.asarray(weights, float)
            preds = np.stack([est.predict(X) for est in ref.estimators_])
            totals = np.stack([(preds == c).T @ w for c in ref.classes_], axis=1)
            # the votes themselves: h_i^j(x) = 1 for the class h_i predicts, 0 otherwise
            one_hot = (preds[..., None] == ref.classes_).astype(float)
            assert np.array_equal(ours.votes(X), one_hot), "hard votes are not h_i^j(x) in {0, 1}"
            winner = totals > 0.5 * w.sum()
            labels, rejected = ours.predict_majority(X)
            assert np.array_equal(rejected, ~winner.any(axis=1)), "rejections differ from (6.19)"
            expected = np.where(winner.any(axis=1), ref.classes_[np.argmax(winner, axis=1)],
                                ref.classes_[0])
            assert np.array_equal(labels, expected), "majority labels differ from (6.19)"
        if voting == "soft":
            assert_close(ours.predict_proba(X), ref.predict_proba(X), COMBINATION_ROUNDING,
                         label="|soft-vote probabilities - sklearn|")
    target = X @ np.array([1.0, -2.0, 0.5]) + np.random.default_rng(seed).normal(size=len(y))
    regs = [("tree", SkTreeRegressor(max_depth=3, random_state=seed)), ("linear", SkLinear())]
    ours = AveragingRegressor([r for _, r in regs], weights=None if weights is None else
                              np.asarray(weights[:2], float) / sum(weights[:2])).fit(X, target)
    ref = SkVotingRegressor(regs, weights=None if weights is None else weights[:2]).fit(X, target)
    assert_close(ours.predict(X), ref.predict(X), COMBINATION_ROUNDING,
                 label="|averaged prediction - sklearn VotingRegressor|")


def literal_stacking(members: list, final, X: np.ndarray, y: np.ndarray,
                     folds: np.ndarray | None = None):
    """Fig 8.9 line by line with class-label outputs: h_t = L_t(D); z_it = h_t(x_i) (or,
    with ``folds``, from a copy of L_t trained without the fold of x_i); h' = L(D').
    Returns (Z, h', h_1..h_T); z_it one-hot per class (the last K - 1 columns for K = 2)."""
    classes = np.unique(y)

    def encode(pred):
        block = (pred[:, None] == classes).astype(float)
        return block[:, 1:] if classes.shape[0] == 2 else block

    learners = [clone(h).fit(X, y) for h in members]
    if folds is None:
        Z = np.hstack([encode(h.predict(X)) for h in learners])
    else:
        Z = np.zeros((X.shape[0], sum(encode(y[:1]).shape[1] for _ in members)))
        for fold in np.unique(folds):
            held = folds == fold
            copies = [clone(h).fit(X[~held], y[~held]) for h in members]
            Z[held] = np.hstack([encode(h.predict(X[held])) for h in copies])
    return Z, clone(final).fit(Z, y), learners


@claim(
    id="ens.stacking_fig_8_9",
    source="003 §6.4.3 Fig 8.9",
    statement="Stacking builds D' = {((h_1(x_i), ..., h_T(x_i)), y_i)} from primaries "
    "trained on D, trains h' on D' and outputs H(x) = h'(h_1(x), ..., h_T(x)); with k-fold "
    "cross-validation each z_it comes from a copy of L_t trained without x_i's fold. "
    "StackingClassifier's recorded D' and predictions equal this construction run line by "
    "line (cv=None as printed; cv=k on its recorded folds).",
    method=Method.PROPERTY,
    tags=("ensembles", "stacking", "slow"),
)
@given(seed=st.integers(0, 2**16), K=st.integers(2, 3), cv=st.sampled_from([None, 2, 5]))
def stacking_fig_8_9(seed, K, cv):
    X, y = _classification(seed, K, n=60)
    members = [m for _, m in _members(seed)]
    final = SkLogistic(max_iter=500)
    ours = StackingClassifier(members, final, cv=cv, method="predict", random_state=seed)
    ours.fit(X, y)
    Z, h_final, learners = literal_stacking(members, final, X, y,
                                            None if cv is None else ours.folds_)
    assert_close(ours.meta_features_, Z, EXACT_ARITHMETIC, label="|D' - Fig 8.9 lines 1-10|")
    Xt, _ = _classification(seed + 1, K, n=40)
    Zt = np.hstack([(h.predict(Xt)[:, None] == np.unique(y)).astype(float)[:, 1 if K == 2 else 0:]
                    for h in learners])
    assert np.array_equal(ours.predict(Xt), h_final.predict(Zt)), "H(x) differs from Fig 8.9"
