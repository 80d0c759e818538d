"""The imbalance checks have teeth: they refute the rescaling in the wrong direction,
a rescaled value thresholded against the wrong odds, and samplers that do not balance."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from algorithms.linear import rescaled_decision
from mltheory.testing import assert_holds, assert_refutes
from properties.linear import imbalance as im
from properties.linear.imbalance import (
    COUNTS,
    LABELS,
    LIKELIHOODS,
    PROBABILITIES,
    check_oversampling,
    check_rescaling,
    check_threshold_is_equal_prior_bayes,
    check_undersampling,
    rescale_as_written,
    rescale_odds_form,
)


def test_bayes_check_refutes_the_inverted_class_ratio():
    @given(lik_pos=LIKELIHOODS, lik_neg=LIKELIHOODS, m_pos=st.integers(1, 1000),
           m_neg=st.integers(1, 1000))
    def broken(lik_pos, lik_neg, m_pos, m_neg):
        check_threshold_is_equal_prior_bayes(
            lik_pos, lik_neg, m_pos, m_neg, decision=lambda y, a, b: rescaled_decision(y, b, a))

    assert_refutes(broken)


def test_rescaling_check_refutes_the_inverted_ratio_in_the_odds_form():
    @given(y=PROBABILITIES, m_pos=COUNTS, m_neg=COUNTS)
    def broken(y, m_pos, m_neg):
        check_rescaling(y, m_pos, m_neg, lambda y, a, b: rescale_odds_form(y, b, a))

    assert_refutes(broken)


def test_rescaling_check_finds_the_1_31_erratum_without_the_pinned_example():
    @given(y=PROBABILITIES, m_pos=COUNTS, m_neg=COUNTS)
    def as_written(y, m_pos, m_neg):
        check_rescaling(y, m_pos, m_neg, rescale_as_written)

    assert_refutes(as_written)


def test_rescaling_as_written_coincides_with_the_odds_form_only_for_balanced_classes():
    for y in (Fraction(1, 10), Fraction(1, 2), Fraction(9, 10)):
        assert rescale_as_written(y, 5, 5) == rescale_odds_form(y, 5, 5) == y
    assert rescale_as_written(Fraction(3, 10), 1, 2) == Fraction(6, 7)


def test_undersampling_check_refutes_a_sampler_that_ignores_classes():
    def unstratified(X, y, random_state=None):
        rng = np.random.default_rng(random_state)
        k = np.unique(y).size * np.bincount(y).min()  # right total, wrong composition
        idx = np.sort(rng.choice(y.size, size=k, replace=False))
        return X[idx], y[idx], idx

    @given(labels=LABELS, seed=st.integers(0, 2**16))
    def broken(labels, seed):
        check_undersampling(labels, seed, sampler=unstratified)

    assert_refutes(broken)


def test_oversampling_check_refutes_replicas_from_the_wrong_class():
    def wrong_class(X, y, random_state=None):
        counts = np.bincount(y)
        extra = np.concatenate([np.full(counts.max() - c, (k + 1) % counts.size)
                                for k, c in enumerate(counts) if c > 0]).astype(int)
        rows = np.array([np.flatnonzero(y == c)[0] if np.any(y == c) else 0 for c in extra],
                        dtype=int)
        idx = np.concatenate([np.arange(y.size), rows])
        return X[idx], y[idx], idx

    @given(labels=LABELS, seed=st.integers(0, 2**16))
    def broken(labels, seed):
        check_oversampling(labels, seed, sampler=wrong_class)

    assert_refutes(broken)


def test_correct_samplers_hold():
    @given(labels=LABELS, seed=st.integers(0, 2**16))
    def fine(labels, seed):
        check_undersampling(labels, seed)
        check_oversampling(labels, seed)

    assert_holds(fine)


def first_member_oversample(X, y, *, random_state=None):
    """Oversampling that always replicates the first member of each smaller class."""
    X, y = np.asarray(X), np.asarray(y)
    classes, counts = np.unique(y, return_counts=True)
    extra = [np.repeat(np.flatnonzero(y == c)[0], counts.max() - n)
             for c, n in zip(classes, counts, strict=True)]
    chosen = np.concatenate([np.arange(y.size), *extra]).astype(int)
    return X[chosen], y[chosen], chosen


def test_uniform_draw_check_refutes_replicating_the_first_member():
    @given(c=st.integers(2, 6), member=st.integers(0, 5), seed=st.integers(0, 100))
    def broken(c, member, seed):
        im.check_uniform_draws(c, member % c, seed, sampler=first_member_oversample)

    assert_refutes(broken)
