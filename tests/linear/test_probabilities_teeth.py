"""Teeth: the class-probability check bodies refute deliberately broken classifiers."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from algorithms.linear import LogisticRegression, ThresholdRescalingClassifier
from mltheory.testing import assert_holds, assert_refutes
from properties.linear import probabilities as pr
from properties.linear.strategies import overlapping_classification_datasets

BINARY = overlapping_classification_datasets(max_free_samples=15)


class SwappedColumns(LogisticRegression):
    """Logistic regression whose probability columns come in the wrong order."""

    def predict_proba(self, X):
        return super().predict_proba(X)[:, ::-1]


class PositiveColumnTwice(ThresholdRescalingClassifier):
    """Threshold rescaling that writes y' into both columns when the positive label is the
    first class (the rows then do not sum to one)."""

    def predict_proba(self, X):
        P = super().predict_proba(X)
        if self.pos_label_ == self.classes_[0]:
            P[:, 1] = P[:, 0]
        return P


def test_probability_check_refutes_columns_in_the_wrong_order():
    @given(data=BINARY, names=pr.LABEL_NAMES)
    def broken(data, names):
        pr.check_classifier_probabilities(data, names, "logistic-newton",
                                          factories={"logistic-newton": SwappedColumns})

    assert_refutes(broken)


def test_rescaled_check_refutes_the_positive_column_written_twice():
    @given(data=BINARY, names=pr.LABEL_NAMES, positive=st.sampled_from([0, 1]))
    def broken(data, names, positive):
        pr.check_rescaled_probabilities(data, names, positive, wrapper=PositiveColumnTwice)

    assert_refutes(broken)


def test_probability_check_holds_for_the_library_classifiers():
    @given(data=BINARY, names=pr.LABEL_NAMES, kind=st.sampled_from(sorted(pr.CLASSIFIERS)))
    def sound(data, names, kind):
        pr.check_classifier_probabilities(data, names, kind)

    assert_holds(sound)
