"""Claims on class imbalance (003 §1.9): threshold moving (1.30), rescaling (1.31),
under- and oversampling.

Exact statements about (1.30)/(1.31) are checked in rational arithmetic
(:class:`fractions.Fraction`), so no tolerance enters them; the float
implementation is then compared with the exact decision, a disagreement being
allowed only within 1e-12 (relative) of the decision boundary.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction

import numpy as np
from hypothesis import assume, example, given
from hypothesis import strategies as st
from sklearn.base import BaseEstimator, ClassifierMixin

from algorithms.linear import (
    ThresholdRescalingClassifier,
    random_oversample,
    random_undersample,
    rescale_probability,
    rescaled_decision,
)
from mltheory import ErratumKind, Expect, Method, claim, evidence
from mltheory.stats import check_probability_at_least, check_probability_at_most

#: Relative distance to the decision boundary within which float64 products may round
#: either way: y * m- and (1 - y) * m+ each carry at most two roundings (~2.2e-16 each).
BOUNDARY_BAND = 1e-12

COUNTS = st.integers(1, 10_000)


def decision_1_30(y: Fraction, m_pos: int, m_neg: int) -> bool:
    """(1.30) exactly: y / (1 - y) > m+ / m- (y = 1 counts as infinite odds)."""
    return y * m_neg > (1 - y) * m_pos


# ----------------------------------------------------------------------------- (1.30)


def check_threshold_is_equal_prior_bayes(
    lik_pos: float, lik_neg: float, m_pos: int, m_neg: int,
    decision: Callable[[np.ndarray, int, int], np.ndarray] = rescaled_decision,
) -> None:
    """With y the posterior under training proportions, (1.30) says positive iff l+ > l-."""
    y = m_pos * lik_pos / (m_pos * lik_pos + m_neg * lik_neg)
    log_ratio = abs(np.log(lik_pos) - np.log(lik_neg))
    # y is rounded once or twice (relative 1e-16; 1 - y loses at most 1e-10 for y <= 1 - 1e-6):
    # within 1e-8 of a likelihood tie the rounded posterior may fall either side.
    assume(log_ratio > 1e-8)
    got = bool(decision(np.array([y]), m_pos, m_neg)[0])
    evidence.worst("-|log(l+ / l-)| (closeness to a tie)", -log_ratio)
    if got != (lik_pos > lik_neg):
        raise AssertionError(
            f"rule (1.30) says {'positive' if got else 'negative'} for y = {y!r} (m+ = {m_pos}, "
            f"m- = {m_neg}) but the class likelihoods are l+ = {lik_pos!r}, l- = {lik_neg!r}"
        )


LIKELIHOODS = st.floats(1e-3, 1.0)


@claim(
    id="imbalance.threshold_rule_is_equal_prior_bayes",
    source="003 §1.9 (1.30)",
    statement="Trained on m+ positives and m- negatives, a classifier whose output y is the "
    "posterior under those proportions should predict positive iff y/(1 - y) > m+/m-; this "
    "is exactly the decision 'likelihood of positive exceeds likelihood of negative', the "
    "Bayes rule for balanced classes.",
    method=Method.PROPERTY,
    tags=("imbalance", "linear"),
)
@given(lik_pos=LIKELIHOODS, lik_neg=LIKELIHOODS, m_pos=st.integers(1, 1000),
       m_neg=st.integers(1, 1000))
@example(lik_pos=0.5, lik_neg=0.5000001, m_pos=999, m_neg=1)
@example(lik_pos=0.5000001, lik_neg=0.5, m_pos=1, m_neg=999)
def threshold_rule_is_equal_prior_bayes(lik_pos, lik_neg, m_pos, m_neg):
    check_threshold_is_equal_prior_bayes(lik_pos, lik_neg, m_pos, m_neg)


# ----------------------------------------------------------------------------- (1.31)


def rescale_as_written(y: Fraction, m_pos: int, m_neg: int) -> Fraction | None:
    """(1.31) as printed: y'/(1 + y') = y/(1 + y) * m-/m+, solved y' = r/(1 - r); None if
    no non-negative y' exists (r >= 1)."""
    r = y / (1 + y) * Fraction(m_neg, m_pos)
    return None if r >= 1 else r / (1 - r)


def rescale_odds_form(y: Fraction, m_pos: int, m_neg: int) -> Fraction:
    """Odds form: y'/(1 - y') = y/(1 - y) * m-/m+, solved y' = y m- / (y m- + (1 - y) m+)."""
    return y * m_neg / (y * m_neg + (1 - y) * m_pos)


def check_rescaling(
    y: Fraction, m_pos: int, m_neg: int,
    rescale: Callable[[Fraction, int, int], Fraction | None],
) -> None:
    """The rescaled y' is a probability and thresholding it at 1/2 gives decision (1.30)."""
    yp = rescale(y, m_pos, m_neg)
    want = decision_1_30(y, m_pos, m_neg)
    if yp is None or not 0 <= yp <= 1:
        raise AssertionError(f"y = {y}, m+ = {m_pos}, m- = {m_neg}: the rescaled value "
                             f"{yp} is not a probability")
    if (yp > Fraction(1, 2)) != want:
        raise AssertionError(
            f"y = {y}, m+ = {m_pos}, m- = {m_neg}: rescaled y' = {yp} "
            f"({'>' if yp > Fraction(1, 2) else '<='} 1/2) but (1.30) says "
            f"{'positive' if want else 'negative'} (odds {y / (1 - y) if y < 1 else 'inf'} vs "
            f"m+/m- = {Fraction(m_pos, m_neg)})"
        )


PROBABILITIES = st.fractions(0, 1, max_denominator=1000)


@claim(
    id="imbalance.rescaling_1_31_as_written",
    source="003 §1.9 (1.31)",
    statement="Rescaling the output by y'/(1 + y') = y/(1 + y) * m-/m+ and predicting positive "
    "when y' > 1/2 (i.e. y'/(1 - y') > 1) reproduces the decision (1.30).",
    method=Method.PROPERTY,
    tags=("imbalance", "linear", "erratum"),
    expect=Expect.REFUTED,
    kind=ErratumKind.SYMBOL,
    corrected_by="imbalance.rescaling_odds_form",
    explanation="(1.31) must rescale the odds: y'/(1 - y') = y/(1 - y) * m-/m+. With 1 + y in "
    "place of 1 - y, y' can exceed 1 or not exist, and its threshold no longer matches (1.30): "
    "for y = 3/10, m+ = 1, m- = 2 the odds 3/7 < 1/2 say negative but y' = 6/7 > 1/2.",
)
@given(y=PROBABILITIES, m_pos=COUNTS, m_neg=COUNTS)
@example(y=Fraction(3, 10), m_pos=1, m_neg=2)
def rescaling_1_31_as_written(y, m_pos, m_neg):
    check_rescaling(y, m_pos, m_neg, rescale_as_written)


class ColumnProbability(ClassifierMixin, BaseEstimator):
    """A 'probabilistic classifier' whose P(positive | x) is the first feature of x."""

    def fit(self, X, y):
        self.classes_ = np.unique(y)
        return self

    def predict_proba(self, X):
        p = np.asarray(X, dtype=float)[:, 0]
        return np.column_stack([1 - p, p])

    def predict(self, X):
        return self.classes_[(np.asarray(X, dtype=float)[:, 0] > 0.5).astype(int)]


def check_implementation_matches_1_30(ys: list[float], m_pos: int, m_neg: int) -> None:
    """rescale_probability and ThresholdRescalingClassifier against exact (1.30)."""
    y_train = np.repeat([0, 1], [m_neg, m_pos])
    clf = ThresholdRescalingClassifier(ColumnProbability()).fit(
        np.zeros((y_train.size, 1)), y_train)
    X = np.array(ys)[:, None]
    pred = clf.predict(X) == 1
    yp = clf.predict_proba(X)[:, 1]
    for i, yf in enumerate(ys):
        y = Fraction(yf)
        exact_yp = rescale_odds_form(y, m_pos, m_neg)
        err = abs(Fraction(float(yp[i])) - exact_yp)
        evidence.worst("|float y' - exact y'|", float(err))
        if err > Fraction(1, 10**13):
            raise AssertionError(f"predict_proba gives y' = {yp[i]!r}, exact {float(exact_yp)!r}")
        gap = abs(y * m_neg - (1 - y) * m_pos) / max(y * m_neg, (1 - y) * m_pos)
        if bool(pred[i]) != decision_1_30(y, m_pos, m_neg) and gap > BOUNDARY_BAND:
            raise AssertionError(
                f"the wrapper predicts {'positive' if pred[i] else 'negative'} for y = {yf!r} "
                f"(m+ = {m_pos}, m- = {m_neg}) against (1.30), {float(gap):.3g} from the boundary"
            )
    if not np.array_equal(pred, rescaled_decision(np.array(ys), m_pos, m_neg)):
        raise AssertionError("the wrapper's predictions differ from rescaled_decision")
    if not np.array_equal(yp, rescale_probability(np.array(ys), m_pos, m_neg)):
        raise AssertionError("the wrapper's probabilities differ from rescale_probability")


@claim(
    id="imbalance.rescaling_odds_form",
    source="003 §1.9 (1.30)-(1.31)",
    statement="Corrected: rescaling the odds, y'/(1 - y') = y/(1 - y) * m-/m+, gives a "
    "probability y' = y m-/(y m- + (1 - y) m+) with y' > 1/2 exactly when (1.30) predicts "
    "positive; the threshold-rescaling classifier implements this decision.",
    method=Method.PROPERTY,
    tags=("imbalance", "linear"),
)
@given(y=PROBABILITIES, m_pos=COUNTS, m_neg=COUNTS,
       ys=st.lists(st.floats(0.0, 1.0), min_size=1, max_size=20))
def rescaling_odds_form(y, m_pos, m_neg, ys):
    check_rescaling(y, m_pos, m_neg, rescale_odds_form)
    if 0 < y < 1:
        yp = rescale_odds_form(y, m_pos, m_neg)
        if yp / (1 - yp) != y / (1 - y) * Fraction(m_neg, m_pos):
            raise AssertionError(f"y' = {yp} does not solve the odds equation for y = {y}")
    check_implementation_matches_1_30(ys, min(m_pos, 300), min(m_neg, 300))


# ----------------------------------------------------------------------------- re-sampling

LABELS = st.lists(st.integers(0, 4), min_size=1, max_size=60)


def _check_resampling(labels: list[int], seed: int, sampler,
                      target: Callable[[np.ndarray], int], what: str,
                      index_check: Callable[[np.ndarray, int], None]) -> np.ndarray:
    """Run ``sampler`` on rows (row id, label): every class must end with ``target(class
    counts)`` samples, the indices pass ``index_check(idx, N)``, and the returned rows are
    the ones the indices name. Returns the indices."""
    y = np.asarray(labels)
    X = np.column_stack([np.arange(y.size), y])  # row id and label as features
    Xr, yr, idx = sampler(X, y, random_state=seed)
    present, counts = np.unique(y, return_counts=True)
    got = np.array([np.sum(yr == c) for c in present])
    if not np.all(got == target(counts)):
        raise AssertionError(f"class counts after {what} {got.tolist()}, expected "
                             f"{target(counts)} each (before: {counts.tolist()})")
    index_check(idx, y.size)
    if not (np.array_equal(Xr, X[idx]) and np.array_equal(yr, y[idx])):
        raise AssertionError("returned samples are not the rows named by the indices")
    return idx


def _no_repeats(idx: np.ndarray, n: int) -> None:
    if np.unique(idx).size != idx.size:
        raise AssertionError("undersampling repeated a sample")


def _keeps_every_original(idx: np.ndarray, n: int) -> None:
    if not np.array_equal(np.sort(np.unique(idx)), np.arange(n)):
        raise AssertionError("oversampling lost an original sample")


def check_undersampling(labels: list[int], seed: int, sampler=random_undersample) -> None:
    """Every class keeps min-count samples, drawn without repetition from its own rows."""
    idx = _check_resampling(labels, seed, sampler, np.min, "undersampling", _no_repeats)
    evidence.worst("samples removed / N", 1 - idx.size / len(labels))


@claim(
    id="imbalance.undersampling_balances_classes",
    source="003 §1.9",
    statement="Random undersampling removes samples of the larger classes so that every class "
    "is left with as many samples as the smallest one; the kept samples are distinct original "
    "samples with their labels.",
    method=Method.PROPERTY,
    tags=("imbalance", "linear"),
)
@given(labels=LABELS, seed=st.integers(0, 2**32 - 1))
def undersampling_balances_classes(labels, seed):
    check_undersampling(labels, seed)


def check_oversampling(labels: list[int], seed: int, sampler=random_oversample) -> None:
    """Every class reaches max-count; all originals kept; additions copy same-class rows."""
    idx = _check_resampling(labels, seed, sampler, np.max, "oversampling", _keeps_every_original)
    evidence.worst("samples added / N", idx.size / len(labels) - 1)


@claim(
    id="imbalance.oversampling_balances_classes",
    source="003 §1.9",
    statement="Random oversampling adds copies of samples of the smaller classes until every "
    "class has as many samples as the largest one; no original sample is lost.",
    method=Method.PROPERTY,
    tags=("imbalance", "linear"),
)
@given(labels=LABELS, seed=st.integers(0, 2**32 - 1))
def oversampling_balances_classes(labels, seed):
    check_oversampling(labels, seed)


# ------------------------------------------------------------------ uniform draws

#: Confidence of each one-sided frequency decision of the uniform-draw claim: a run makes
#: about 200 of them, so a correct sampler fails one with probability about 2e-4.
UNIFORM_CONFIDENCE = 1 - 1e-6
#: Draws per decision: a member drawn with probability 1/c is seen about DRAWS / c times.
DRAWS = 4000


def check_uniform_draws(c: int, member: int, seed: int, sampler=random_oversample) -> None:
    """Oversampling one class of ``c`` samples against a class of ``c + DRAWS`` draws each
    added sample uniformly from the ``c`` members: member ``member`` is drawn with
    probability 1/c (two one-sided Clopper-Pearson decisions)."""
    y = np.concatenate([np.zeros(c, dtype=int), np.ones(c + DRAWS, dtype=int)])
    X = np.arange(y.size, dtype=float)[:, None]
    _, _, idx = sampler(X, y, random_state=seed)
    added = idx[y.size:]
    if added.size != DRAWS or np.any(added >= c):
        raise AssertionError(f"{added.size} added samples, some outside the smaller class")
    hits = int(np.sum(added == member))
    check_probability_at_least(hits, DRAWS, 1.0 / c, label=f"P(member {member} drawn)",
                               confidence=UNIFORM_CONFIDENCE)
    check_probability_at_most(hits, DRAWS, 1.0 / c, label=f"P(member {member} drawn)",
                              confidence=UNIFORM_CONFIDENCE)


@claim(
    id="imbalance.oversampling_draws_uniformly",
    source="003 §1.9",
    statement="Random oversampling adds samples of a smaller class by drawing its members "
    "uniformly with replacement: each of its c members is drawn with probability 1/c.",
    method=Method.SIMULATION,
    tags=("imbalance", "linear"),
)
@given(c=st.integers(2, 6), member=st.integers(0, 5), seed=st.integers(0, 2**32 - 1))
def oversampling_draws_uniformly(c, member, seed):
    check_uniform_draws(c, member % c, seed)
