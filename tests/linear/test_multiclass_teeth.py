"""The multi-class checks have teeth: they refute wrong classifier counts, a reversed
OvO vote, an OvR that picks the least confident class, and an overstated ECOC
correction capability."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from algorithms.linear import OneVsOneClassifier, OneVsRestClassifier
from mltheory.testing import assert_holds, assert_refutes
from properties.linear.multiclass import (
    Memoriser,
    check_decision_scores,
    check_decoding_with_correct_base,
    check_ecoc_correction,
    check_ovo_training,
    check_ovr_training,
)


class ReversedVoteOvO(OneVsOneClassifier):
    def _votes(self, X_arr):
        votes, conf = super()._votes(X_arr)
        return -votes, -conf


class LeastConfidentOvR(OneVsRestClassifier):
    def _predict_index(self, X_arr):
        return np.argmin(self.decision_function(X_arr), axis=1)


def test_ovo_count_check_refutes_m_times_m_minus_one():
    assert_refutes(lambda rng, scale: check_ovo_training(rng, scale, lambda M: M * (M - 1)))


def test_ovr_count_check_refutes_m_minus_one():
    assert_refutes(lambda rng, scale: check_ovr_training(rng, scale, lambda M: M - 1))


@pytest.mark.parametrize("broken", [ReversedVoteOvO, LeastConfidentOvR])
def test_decoding_check_refutes_broken_decoders(broken):
    @given(M=st.integers(3, 5), n=st.integers(0, 10), seed=st.integers(0, 2**16))
    def check(M, n, seed):
        check_decoding_with_correct_base(M, n, 2, seed,
                                         wrappers=lambda M, s: {"broken": broken(Memoriser())})

    assert_refutes(check)


def test_ecoc_check_refutes_correcting_half_the_distance():
    r = assert_refutes(lambda rng, scale: check_ecoc_correction(
        rng, scale, correctable=lambda d: int(np.floor(d / 2))))
    assert "not decoded uniquely" in r.counterexample


def test_correct_ecoc_check_holds():
    assert_holds(lambda rng, scale: check_ecoc_correction(rng, scale))


class LeastConfidentAnyMOvR(OneVsRestClassifier):
    """Picks the least confident class, for any number of classes."""

    def _predict_index(self, X_arr):
        return np.argmin([e.decision_function(X_arr) for e in self.estimators_], axis=0)


class NegatedScoresOvO(OneVsOneClassifier):
    def decision_function(self, X):
        return -super().decision_function(X)


def test_decision_score_check_refutes_an_ovr_that_picks_the_least_confident_class():
    @given(M=st.integers(2, 6), n=st.integers(0, 20), d=st.integers(1, 3),
           seed=st.integers(0, 2**32 - 1))
    def broken(M, n, d, seed):
        check_decision_scores(M, n, d, seed, ovr=LeastConfidentAnyMOvR)

    assert_refutes(broken)


def test_decision_score_check_refutes_ovo_scores_of_the_wrong_sign():
    @given(M=st.integers(2, 6), n=st.integers(0, 20), d=st.integers(1, 3),
           seed=st.integers(0, 2**32 - 1))
    def broken(M, n, d, seed):
        check_decision_scores(M, n, d, seed, ovo=NegatedScoresOvO)

    assert_refutes(broken)
