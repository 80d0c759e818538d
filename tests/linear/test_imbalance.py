"""Unit and bad-input tests for threshold rescaling and random re-sampling."""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.linear_model import LogisticRegression

from algorithms.linear import (
    ThresholdRescalingClassifier,
    random_oversample,
    random_undersample,
    rescale_probability,
    rescaled_decision,
)


@pytest.fixture
def imbalanced():
    rng = np.random.default_rng(5)
    X = np.vstack([rng.normal(0.0, 1.0, (180, 2)), rng.normal(1.5, 1.0, (20, 2))])
    y = np.r_[np.zeros(180, dtype=int), np.ones(20, dtype=int)]
    return X, y


def test_rescaled_decision_is_odds_above_class_ratio():
    y = np.array([0.0, 0.2, 0.25, 0.3, 0.5, 1.0])
    # m+ = 1, m- = 3: positive iff odds y/(1-y) > 1/3, i.e. y > 1/4
    np.testing.assert_array_equal(rescaled_decision(y, 1, 3), [0, 0, 0, 1, 1, 1])


def test_rescaled_probability_solves_the_odds_equation_and_crosses_half_at_the_threshold():
    y = np.linspace(0.01, 0.99, 99)
    yp = rescale_probability(y, 2.0, 5.0)
    np.testing.assert_allclose(yp / (1 - yp), y / (1 - y) * 5.0 / 2.0, rtol=1e-12)
    np.testing.assert_array_equal(yp > 0.5, rescaled_decision(y, 2.0, 5.0))
    assert rescale_probability(np.array([0.0, 1.0]), 2.0, 5.0).tolist() == [0.0, 1.0]


def test_wrapper_uses_training_counts_and_predicts_more_minority_than_the_plain_model(
    imbalanced,
):
    X, y = imbalanced
    base = LogisticRegression().fit(X, y)
    clf = ThresholdRescalingClassifier(LogisticRegression()).fit(X, y)
    assert (clf.m_pos_, clf.m_neg_) == (20, 180)
    assert clf.ratio_ == pytest.approx(20 / 180)
    p = base.predict_proba(X)[:, 1]
    np.testing.assert_array_equal(clf.predict(X), (p * 180 > (1 - p) * 20).astype(int))
    assert clf.predict(X).sum() > base.predict(X).sum()
    np.testing.assert_allclose(clf.predict_proba(X).sum(1), 1.0)


def test_wrapper_honours_pos_label_and_explicit_ratio(imbalanced):
    X, y = imbalanced
    labels = np.where(y == 1, "rare", "common")
    clf = ThresholdRescalingClassifier(LogisticRegression(), pos_label="rare").fit(X, labels)
    assert (clf.m_pos_, clf.m_neg_) == (20, 180)
    assert set(clf.predict(X)) <= {"rare", "common"}
    p = clf.predict_proba(X)
    np.testing.assert_array_equal(clf.predict(X) == "rare", p[:, list(clf.classes_).index("rare")]
                                  > 0.5)
    one = ThresholdRescalingClassifier(LogisticRegression(), class_ratio=1.0).fit(X, y)
    np.testing.assert_array_equal(one.predict(X), LogisticRegression().fit(X, y).predict(X))


def test_undersampling_keeps_the_minority_count_per_class_without_repeats(imbalanced):
    X, y = imbalanced
    Xr, yr, idx = random_undersample(X, y, random_state=0)
    np.testing.assert_array_equal(np.bincount(yr), [20, 20])
    assert np.unique(idx).size == idx.size and np.all(np.diff(idx) > 0)
    np.testing.assert_array_equal(Xr, X[idx])
    np.testing.assert_array_equal(idx, random_undersample(X, y, random_state=0)[2])
    assert not np.array_equal(idx, random_undersample(X, y, random_state=1)[2])


def test_oversampling_reaches_the_majority_count_with_same_class_replicas(imbalanced):
    X, y = imbalanced
    Xr, yr, idx = random_oversample(X, y, random_state=0)
    np.testing.assert_array_equal(np.bincount(yr), [180, 180])
    np.testing.assert_array_equal(idx[:200], np.arange(200))
    assert np.all(y[idx[200:]] == 1)
    np.testing.assert_array_equal(Xr, X[idx])


def test_resampling_handles_several_classes():
    y = np.repeat([0, 1, 2], [5, 9, 2])
    X = np.arange(16.0)[:, None]
    assert np.bincount(random_undersample(X, y, random_state=1)[1]).tolist() == [2, 2, 2]
    assert np.bincount(random_oversample(X, y, random_state=1)[1]).tolist() == [9, 9, 9]


@pytest.mark.parametrize(
    ("args", "match"),
    [
        ((np.array([0.5, np.nan]), 1, 1), "y must hold probabilities"),
        ((np.array([1.5]), 1, 1), "y must hold probabilities"),
        ((np.array([0.5]), 0, 1), "m_pos"),
        ((np.array([0.5]), 1, -2), "m_neg"),
        ((np.array([0.5]), 1, np.inf), "m_neg"),
    ],
)
def test_rescaling_functions_reject_bad_input(args, match):
    for f in (rescaled_decision, rescale_probability):
        with pytest.raises(ValueError, match=match):
            f(*args)


def test_wrapper_rejects_bad_input(imbalanced):
    X, y = imbalanced
    with pytest.raises(ValueError, match="predict_proba"):
        ThresholdRescalingClassifier(None).fit(X, y)
    with pytest.raises(ValueError, match="Only binary classification is supported"):
        ThresholdRescalingClassifier(LogisticRegression()).fit(X, y + (np.arange(200) % 3 == 0))
    with pytest.raises(ValueError, match="pos_label"):
        ThresholdRescalingClassifier(LogisticRegression(), pos_label=7).fit(X, y)
    for ratio in (-1.0, 0.0, np.nan, "1"):
        with pytest.raises(ValueError, match="class_ratio"):
            ThresholdRescalingClassifier(LogisticRegression(), class_ratio=ratio).fit(X, y)
    with pytest.raises(ValueError, match="X"):
        ThresholdRescalingClassifier(LogisticRegression()).fit(np.full_like(X, np.nan), y)


def test_resamplers_reject_bad_input(imbalanced):
    X, y = imbalanced
    for f in (random_undersample, random_oversample):
        with pytest.raises(ValueError, match="X and y must have as many samples"):
            f(X, y[:-1])
        with pytest.raises(ValueError, match="random_state"):
            f(X, y, random_state="seed")
        with pytest.raises(ValueError, match="X"):
            f(np.full_like(X, np.inf), y)
