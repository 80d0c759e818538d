"""Unit and bad-input tests for the OvR / OvO / ECOC wrappers and the code helpers."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.linear_model import LogisticRegression
from sklearn.multiclass import OneVsOneClassifier as SklearnOvO
from sklearn.multiclass import OneVsRestClassifier as SklearnOvR
from sklearn.utils import get_tags

from algorithms.linear import (
    ECOCClassifier,
    OneVsOneClassifier,
    OneVsRestClassifier,
    ThresholdRescalingClassifier,
    check_code_matrix,
    decode,
    exhaustive_code_matrix,
    minimum_code_distance,
    random_code_matrix,
)


class NearestMean(ClassifierMixin, BaseEstimator):
    """Tiny binary base learner: nearest class mean, decision = d(x, mu_0)^2 - d(x, mu_1)^2."""

    def fit(self, X, y):
        self.classes_ = np.unique(y)
        self.means_ = np.stack([X[y == c].mean(0) for c in self.classes_])
        return self

    def decision_function(self, X):
        d = ((X[:, None, :] - self.means_[None]) ** 2).sum(-1)
        return d[:, 0] - d[:, 1]

    def predict(self, X):
        return self.classes_[(self.decision_function(X) > 0).astype(int)]


def _clusters(rng, M=4, n=15, d=2, spread=0.05):
    centres = 5.0 * np.stack([np.cos(2 * np.pi * np.arange(M) / M),
                              np.sin(2 * np.pi * np.arange(M) / M)], 1)
    if d > 2:
        centres = np.hstack([centres, np.zeros((M, d - 2))])
    X = np.repeat(centres, n, 0) + spread * rng.standard_normal((M * n, d))
    return X, np.repeat(np.arange(M), n)


@pytest.fixture
def rng():
    return np.random.default_rng(3)


def test_ovr_trains_one_classifier_per_class_and_matches_sklearn(rng):
    X, y = _clusters(rng, M=5, spread=1.0)
    ours = OneVsRestClassifier(LogisticRegression()).fit(X, y)
    ref = SklearnOvR(LogisticRegression()).fit(X, y)
    assert len(ours.estimators_) == 5
    np.testing.assert_array_equal(ours.predict(X), ref.predict(X))


def test_ovr_trains_m_classifiers_even_for_two_classes(rng):
    X, y = _clusters(rng, M=2)
    assert len(OneVsRestClassifier(NearestMean()).fit(X, y).estimators_) == 2


def test_ovo_trains_one_classifier_per_pair_on_that_pair_only(rng):
    X, y = _clusters(rng, M=5, spread=1.0)
    ovo = OneVsOneClassifier(NearestMean()).fit(X, y)
    assert ovo.pairs_ == list(itertools.combinations(range(5), 2))
    for (i, j), est in zip(ovo.pairs_, ovo.estimators_, strict=True):
        np.testing.assert_allclose(est.means_[1], X[y == i].mean(0))  # label 1 = class i
        np.testing.assert_allclose(est.means_[0], X[y == j].mean(0))


def test_ovo_matches_sklearn_on_overlapping_clusters(rng):
    X, y = _clusters(rng, M=4, spread=2.0)
    ours = OneVsOneClassifier(LogisticRegression()).fit(X, y).predict(X)
    ref = SklearnOvO(LogisticRegression()).fit(X, y).predict(X)
    assert np.mean(ours == ref) >= 0.95  # tie-breaking conventions may differ on a few points


@pytest.mark.parametrize("wrapper", ["ovr", "ovo", "ecoc", "ecoc_ternary"])
def test_wrappers_classify_well_separated_clusters_perfectly(rng, wrapper):
    X, y = _clusters(rng, M=4)
    labels = np.array(["a", "b", "c", "d"])[y]
    est = {
        "ovr": OneVsRestClassifier(LogisticRegression()),
        "ovo": OneVsOneClassifier(NearestMean()),
        "ecoc": ECOCClassifier(LogisticRegression(), code_matrix=exhaustive_code_matrix(4)),
        "ecoc_ternary": ECOCClassifier(LogisticRegression(), ternary=True, random_state=1,
                                       decoding="euclidean"),
    }[wrapper]
    assert np.all(est.fit(X, labels).predict(X) == labels)


def test_ecoc_column_with_zero_entries_trains_on_used_classes_only(rng):
    X, y = _clusters(rng, M=3)
    code = np.array([[1, 1], [-1, 0], [0, -1]])
    ecoc = ECOCClassifier(NearestMean(), code_matrix=code).fit(X, y)
    np.testing.assert_allclose(ecoc.estimators_[0].means_[1], X[y == 0].mean(0))
    np.testing.assert_allclose(ecoc.estimators_[0].means_[0], X[y == 1].mean(0))
    np.testing.assert_allclose(ecoc.estimators_[1].means_[0], X[y == 2].mean(0))


def test_random_code_is_reproducible_under_a_seed():
    a = random_code_matrix(5, 9, random_state=11)
    b = random_code_matrix(5, 9, random_state=11)
    np.testing.assert_array_equal(a, b)
    check_code_matrix(a, 5)
    t = random_code_matrix(6, 12, ternary=True, random_state=2)
    assert set(np.unique(t)) <= {-1, 0, 1}
    check_code_matrix(t, 6)


def test_exhaustive_code_has_all_splits_and_distance_two_to_the_m_minus_two():
    for M in range(2, 8):
        C = exhaustive_code_matrix(M)
        assert C.shape == (M, 2 ** (M - 1) - 1)
        check_code_matrix(C, M)
        assert np.unique(C, axis=1).shape[1] == C.shape[1]
        assert minimum_code_distance(C) == 2 ** (M - 2)


def test_hamming_and_euclidean_decoding_on_a_hand_example():
    code = np.array([[1, 1, 1], [-1, -1, 1], [0, 1, -1]])
    bits = np.array([[1, 1, 1], [-1, -1, -1], [1, 1, -1]])
    np.testing.assert_array_equal(decode(bits, code), [0, 1, 2])
    # bits (-1,-1,-1): Hamming 3, 1, 1.5 -> class 1; Euclidean^2 12, 4, 5 -> class 1
    np.testing.assert_array_equal(decode(bits, code, decoding="euclidean"), [0, 1, 2])
    tied = np.array([[-1, 1, 1]])  # Hamming 1, 1, 1.5: the tie goes to the lower index
    assert decode(tied, code)[0] == 0


def test_hamming_and_euclidean_decoding_differ_on_zero_entries():
    code = np.array([[1, 1, 1], [0, 0, 0], [-1, -1, -1]])
    bits = np.array([[1, 1, -1]])
    # one mismatch costs 1 (Hamming) or 4 (squared Euclidean); three zeros cost 1.5 or 3
    assert decode(bits, code, decoding="hamming")[0] == 0
    assert decode(bits, code, decoding="euclidean")[0] == 1


@pytest.mark.parametrize(
    ("code", "match"),
    [
        ([[1, 1], [-1, 1]], "column 1"),
        ([[1, -1], [-1, 1], [1, -1]], "equal rows"),
        ([[1, 2], [-1, 1]], "entries"),
        ([[1], [-1], [1]], "shape|equal rows"),
        ([1, -1], "shape"),
    ],
)
def test_bad_code_matrices_are_rejected(code, match):
    with pytest.raises(ValueError, match=match):
        check_code_matrix(code, len(code) if np.ndim(code) == 2 else 2)


@pytest.mark.parametrize("cls", [OneVsRestClassifier, OneVsOneClassifier, ECOCClassifier])
def test_wrappers_validate_inputs(rng, cls):
    X, y = _clusters(rng, M=3, n=4)
    with pytest.raises(ValueError, match="estimator"):
        cls(None).fit(X, y)
    with pytest.raises(ValueError, match="X"):
        cls(NearestMean()).fit(np.where(X > 0, np.nan, X), y)
    with pytest.raises(ValueError, match="at least 2 classes"):
        cls(NearestMean()).fit(X, np.zeros(len(y)))
    with pytest.raises(ValueError, match="X and y must have as many samples"):
        cls(NearestMean()).fit(X, y[:-1])
    fitted = cls(NearestMean()).fit(X, y)
    with pytest.raises(ValueError, match="features"):
        fitted.predict(np.zeros((1, 5)))


def test_ecoc_validates_its_hyperparameters(rng):
    X, y = _clusters(rng, M=3, n=4)
    with pytest.raises(ValueError, match="decoding"):
        ECOCClassifier(NearestMean(), decoding="manhattan").fit(X, y)
    with pytest.raises(ValueError, match="code_matrix"):
        ECOCClassifier(NearestMean(), code_matrix=[[1, -1], [-1, 1]]).fit(X, y)
    with pytest.raises(ValueError, match="n_columns"):
        ECOCClassifier(NearestMean(), n_columns=0).fit(X, y)
    with pytest.raises(ValueError, match="ternary must be True or False"):
        ECOCClassifier(NearestMean(), ternary=1).fit(X, y)
    with pytest.raises(ValueError, match="n_columns"):
        random_code_matrix(5, 2)


def test_binary_decision_function_is_one_column_positive_for_second_class(rng):
    X, y = _clusters(rng, M=2, spread=1.0)
    for est in (OneVsRestClassifier(LogisticRegression()), OneVsOneClassifier(NearestMean())):
        s = est.fit(X, y).decision_function(X)
        assert s.shape == (X.shape[0],)
        np.testing.assert_array_equal(est.predict(X), np.where(s > 0, 1, 0))


class PositiveInputBase(NearestMean):
    """NearestMean declaring non-negative input, randomness and a poor score."""

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.positive_only = True
        tags.non_deterministic = True
        tags.classifier_tags.poor_score = True
        return tags


@pytest.mark.parametrize("cls", [OneVsRestClassifier, OneVsOneClassifier, ECOCClassifier,
                                 ThresholdRescalingClassifier])
def test_wrappers_inherit_their_base_estimators_tags(cls):
    plain, inherited = get_tags(cls(NearestMean())), get_tags(cls(PositiveInputBase()))
    assert not (plain.input_tags.positive_only or plain.non_deterministic)
    assert inherited.input_tags.positive_only and inherited.non_deterministic
    assert inherited.classifier_tags.poor_score
    assert not inherited.input_tags.sparse and not inherited.input_tags.allow_nan
    # the strategies make K classes of binary problems; rescaling is binary by (1.30)
    assert inherited.classifier_tags.multi_class == (cls is not ThresholdRescalingClassifier)
    assert get_tags(cls(None)).classifier_tags is not None


def test_random_code_matrix_allows_at_most_ten_thousand_columns():
    assert random_code_matrix(3, 10_000, random_state=0).shape == (3, 10_000)
    with pytest.raises(ValueError, match="n_columns"):
        random_code_matrix(3, 10_001, random_state=0)
