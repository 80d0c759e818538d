"""Behaviour of the feature-selection algorithms of 003 §10.1-§10.3: subset search and
information gain, Relief / Relief-F, and LVW."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from sklearn.exceptions import ConvergenceWarning
from sklearn.naive_bayes import GaussianNB

import algorithms.sparse._relief as relief_module
from algorithms.sparse import (
    LVW,
    Relief,
    ReliefF,
    SubsetSelector,
    discretize,
    label_entropy,
    relief_scores,
    relieff_scores,
    subset_information_gain,
    subset_search,
)
from properties.sparse.lvw import interaction_scenario
from properties.sparse.selection import _xor_with_noisy_copy
from properties.sparse.support_selection import FastGaussianNB, naive_relief

# ---------------------------------------------------------------------------
# Entropy, discretisation, information gain
# ---------------------------------------------------------------------------


def test_label_entropy_of_simple_label_sets():
    assert label_entropy([0, 0, 1, 1]) == 1.0
    assert label_entropy(["a", "a", "a"]) == 0.0  # 0 log 0 = 0, one class
    assert math.isclose(label_entropy([0, 1, 2, 3]), 2.0)


def test_discretize_is_monotone_with_at_most_n_bins():
    rng = np.random.default_rng(0)
    X = np.column_stack([rng.normal(size=50), rng.integers(0, 2, size=50)])
    codes = discretize(X, 4)
    assert set(np.unique(codes[:, 0])) <= set(range(4))
    order = np.argsort(X[:, 0])
    assert np.all(np.diff(codes[order, 0]) >= 0)
    assert np.array_equal(codes[:, 1], X[:, 1].astype(int))  # few values: kept


def test_discretize_keeps_a_column_with_exactly_n_bins_values():
    # four distinct values, skewed so that every quartile of the column is 0: kept as
    # their ranks, not cut at the quartiles (which would merge them all into one bin)
    column = np.array([0.0] * 10 + [1.0, 2.0, 3.0])
    codes = discretize(column[:, None], 4)
    assert np.array_equal(codes[:, 0], column.astype(int))


def test_information_gain_of_empty_and_perfect_subsets():
    codes, y = _xor_with_noisy_copy()
    assert subset_information_gain(codes, y, []) == 0.0
    assert math.isclose(subset_information_gain(codes, y, [0, 1]), 1.0)
    assert math.isclose(subset_information_gain(codes, y, [0]), 0.0, abs_tol=1e-12)
    with pytest.raises(ValueError, match="subset"):
        subset_information_gain(codes, y, [0, 0])


def test_information_gain_discretises_continuous_features():
    rng = np.random.default_rng(1)
    X = rng.normal(size=(40, 2))
    y = (X[:, 0] >= np.median(X[:, 0])).astype(int)
    gain = subset_information_gain(X, y, [0], n_bins=2)
    assert math.isclose(gain, 1.0)  # the median cut separates the classes


# ---------------------------------------------------------------------------
# Subset search
# ---------------------------------------------------------------------------


def _modular(weights):
    return lambda subset: float(sum(weights[j] for j in subset))


def test_backward_search_drops_harmful_features():
    weights = [1.0, -0.5, 2.0, -1.0]
    result = subset_search(_modular(weights), 4, direction="backward")
    assert result.subset == (0, 2)
    assert [len(s) for s, _ in result.trace] == [4, 3, 2]


def test_bidirectional_search_meets_and_returns_the_best_visited_set():
    weights = [1.0, -0.5, 2.0, -1.0]
    result = subset_search(_modular(weights), 4, direction="bidirectional")
    assert result.subset == (0, 2) and result.score == 3.0


def test_bidirectional_search_never_removes_a_forward_feature():
    rng = np.random.default_rng(2)
    table = {s: float(rng.normal()) for k in range(1, 6)
             for s in itertools.combinations(range(5), k)}
    result = subset_search(lambda s: table[s], 5, direction="bidirectional")
    sets = [set(s) for s, _ in result.trace[1:]]
    forward = sets[0::2]
    assert all(a < b for a, b in itertools.pairwise(forward))
    assert result.score == max(v for _, v in result.trace)


def test_search_scores_each_subset_once():
    calls = []

    def score(subset):
        calls.append(subset)
        return -abs(len(subset) - 2)

    for direction in ("forward", "backward", "bidirectional"):
        calls.clear()
        result = subset_search(score, 5, direction=direction)
        assert len(calls) == len(set(calls)) == result.n_evaluations


def test_search_refuses_a_non_finite_score():
    with pytest.raises(ValueError, match="score"):
        subset_search(lambda s: math.nan, 3)


def test_forward_search_misses_the_xor_pair():
    codes, y = _xor_with_noisy_copy()
    selector = SubsetSelector(n_bins=None).fit(codes, y)
    assert selector.subset_ == (2,)
    assert np.array_equal(selector.get_support(), [False, False, True])
    assert selector.transform(codes).shape == (16, 1)


def test_selector_takes_a_callable_score():
    codes, y = _xor_with_noisy_copy()

    def pair_score(X, labels, subset):
        return subset_information_gain(X, labels, list(subset)) - 0.1 * len(subset)

    selector = SubsetSelector(scoring=pair_score, direction="backward").fit(codes, y)
    assert selector.subset_ == (0, 1)


# ---------------------------------------------------------------------------
# Relief / Relief-F
# ---------------------------------------------------------------------------


def _two_class(seed=0, m=60):
    rng = np.random.default_rng(seed)
    y = np.repeat([0, 1], m // 2)
    X = np.column_stack([y * 2.0 + rng.normal(size=m), rng.normal(size=(m, 3))])
    return X, y


def test_relief_ranks_the_informative_attribute_first_and_selects():
    X, y = _two_class()
    relief = Relief(n_features_to_select=1).fit(X, y)
    assert np.argmax(relief.scores_) == 0
    assert np.array_equal(relief.get_support(), [True, False, False, False])
    by_threshold = Relief(threshold=relief.scores_[0] - 1e-9).fit(X, y)
    assert np.array_equal(by_threshold.get_support(), relief.get_support())
    assert Relief().fit(X, y).get_support().sum() == 2  # default: the top half


def test_relief_is_invariant_to_affine_rescaling_of_continuous_attributes():
    X, y = _two_class(3)
    scaled = X * np.array([1e3, 0.01, 5.0, 1.0]) + np.array([-7.0, 2.0, 0.0, 1e4])
    assert np.allclose(relief_scores(X, y), relief_scores(scaled, y), atol=1e-9)


def test_relief_sampling_is_reproducible():
    X, y = _two_class()
    a = Relief(n_samples=20, random_state=5).fit(X, y)
    b = Relief(n_samples=20, random_state=5).fit(X, y)
    assert np.array_equal(a.scores_, b.scores_) and a.sample_indices_.shape == (20,)
    assert np.allclose(a.scores_, relief_scores(X, y, sample_indices=a.sample_indices_))


def test_relief_blocks_give_the_same_distances(monkeypatch):
    X, y = _two_class(4)
    full = relief_scores(X, y)
    monkeypatch.setattr(relief_module, "_BLOCK_ENTRIES", 10)
    assert np.array_equal(full, relief_scores(X, y))


def test_relief_refuses_bad_class_structures():
    X, y = _two_class()
    with pytest.raises(ValueError, match="y"):
        Relief().fit(X, np.arange(X.shape[0]) % 3)
    y_single = y.copy()
    y_single[0] = 7
    with pytest.raises(ValueError, match="y"):
        relief_scores(X, y_single)
    with pytest.raises(ValueError, match="threshold"):
        Relief(threshold=0.0, n_features_to_select=1).fit(X, y)


def test_discrete_attributes_use_the_zero_one_diff():
    X = np.array([[0.0, 10.0], [0.0, 11.0], [5.0, 10.0], [5.0, 12.0]])
    y = np.array([0, 0, 1, 1])
    sigma = relief_scores(X, y, discrete_features=[0])
    assert np.allclose(sigma, naive_relief(X, y, np.array([True, False]), "unweighted"))
    assert sigma[0] == 4.0  # discrete attribute 0 copies the class


def test_relieff_records_misses_per_class_and_weights():
    rng = np.random.default_rng(6)
    y = np.arange(45) % 3
    X = np.column_stack([y + 0.3 * rng.normal(size=45), rng.normal(size=(45, 2))])
    fitted = ReliefF().fit(X, y)
    assert fitted.near_misses_.shape == (45, 3)
    assert np.all(fitted.near_misses_[np.arange(45), y] == -1)
    assert np.argmax(fitted.scores_) == 0
    notes = relieff_scores(X, y, miss_weighting="proportion")
    # balanced classes: p_l = 1/3 against p_l / (1 - p_k) = 1/2 on the miss terms
    assert np.all(notes <= fitted.scores_ + 1e-12)


# ---------------------------------------------------------------------------
# LVW
# ---------------------------------------------------------------------------


def test_lvw_is_reproducible_and_records_its_run():
    rng = np.random.default_rng(0)
    X, y = interaction_scenario(rng, 80)
    a = LVW(estimator=FastGaussianNB(), patience=5, cv=3, random_state=1).fit(X, y)
    b = LVW(estimator=FastGaussianNB(), patience=5, cv=3, random_state=1).fit(X, y)
    assert a.candidate_subsets_ == b.candidate_subsets_ and a.error_ == b.error_
    assert a.converged_ and a.trace_.shape == (a.n_iter_, 2)
    assert len(a.folds_) == 3 and a.transform(X).shape[1] == a.support_.sum()


def test_lvw_folds_come_from_the_first_draw_of_its_generator():
    # reproducibility contract: the stratified folds are seeded by the generator's first
    # integer draw below 2**31 - 1 (a given random_state gives these folds, no others)
    from sklearn.model_selection import StratifiedKFold

    rng = np.random.default_rng(0)
    X, y = interaction_scenario(rng, 60)
    lvw = LVW(estimator=FastGaussianNB(), patience=3, cv=3, random_state=7).fit(X, y)
    seed = int(np.random.default_rng(7).integers(2**31 - 1))
    expected = StratifiedKFold(3, shuffle=True, random_state=seed).split(X, y)
    for (train, test), (ref_train, ref_test) in zip(lvw.folds_, expected, strict=True):
        assert np.array_equal(train, ref_train) and np.array_equal(test, ref_test)


def test_lvw_warns_at_its_iteration_cap():
    rng = np.random.default_rng(0)
    X, y = interaction_scenario(rng, 40)
    with pytest.warns(ConvergenceWarning, match="max_iter"):
        lvw = LVW(estimator=FastGaussianNB(), patience=50, cv=2, max_iter=3,
                  random_state=0).fit(X, y)
    assert not lvw.converged_ and lvw.n_iter_ == 3


def test_lvw_refuses_more_folds_than_the_smallest_class():
    X, y = _two_class(m=8)
    with pytest.raises(ValueError, match="cv"):
        LVW(cv=5).fit(X, y)


def test_fast_naive_bayes_predicts_like_scikit_learn():
    rng = np.random.default_rng(3)
    X, y = interaction_scenario(rng, 200)
    X_test, _ = interaction_scenario(rng, 500)
    ours = FastGaussianNB().fit(X, y).predict(X_test)
    theirs = GaussianNB().fit(X, y).predict(X_test)
    assert np.array_equal(ours, theirs)


def _naive_k_relieff(X, y, k):
    """Kononenko's k-nearest Relief-F (weights p_l / (1 - p_k)) by plain loops, on
    continuous attributes."""
    m, d = X.shape
    Z = (X - X.min(axis=0)) / (X.max(axis=0) - X.min(axis=0))
    labels = sorted(set(y.tolist()))
    prop = {c: float(np.mean(y == c)) for c in labels}
    sigma = np.zeros(d)
    for i in range(m):
        def nearest(c, i=i):
            others = [q for q in range(m) if q != i and y[q] == c]
            return sorted(others, key=lambda q: (float(np.sum((Z[i] - Z[q]) ** 2)), q))[:k]
        sigma -= np.mean([np.abs(Z[i] - Z[q]) ** 2 for q in nearest(y[i])], axis=0)
        for c in labels:
            if c != y[i]:
                w = prop[c] / (1 - prop[y[i]])
                sigma += w * np.mean([np.abs(Z[i] - Z[q]) ** 2 for q in nearest(c)], axis=0)
    return sigma


@pytest.mark.parametrize("k", [2, 3])
def test_relieff_k_nearest_variant_matches_a_loop(k):
    rng = np.random.default_rng(k)
    y = np.arange(24) % 3
    X = np.column_stack([y + rng.normal(size=24), rng.normal(size=(24, 2))])
    ours = relieff_scores(X, y, miss_weighting="normalized", n_neighbors=k)
    assert np.allclose(ours, _naive_k_relieff(X, y, k), atol=1e-9)
    fitted = ReliefF(n_neighbors=k).fit(X, y)
    assert fitted.near_hits_.shape == (24, k) and fitted.near_misses_.shape == (24, 3, k)
    assert np.allclose(fitted.scores_, ours)
    own = fitted.near_misses_[np.arange(24), y]
    assert np.all(own == -1)  # the documented marker: no near-miss in the own class
    one = relieff_scores(X, y, miss_weighting="normalized", n_neighbors=1)
    assert np.allclose(one, _naive_k_relieff(X, y, 1), atol=1e-9)
    with pytest.raises(ValueError, match="n_neighbors"):
        relieff_scores(X, y, n_neighbors=8)
