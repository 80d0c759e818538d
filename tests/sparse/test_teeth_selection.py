"""The checks of the feature-selection claims (003 §10.1-§10.3) have teeth: the check
bodies the claims use refute deliberately broken variants (a constant scaled, a sign
flipped, an index off by one, a branch dropped, a record tampered with)."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import assume, given

import algorithms.sparse._lvw as lvw_module
import algorithms.sparse._relief as relief_module
import algorithms.sparse._subset as subset_module
import properties.sparse.selection as selection_claims
from algorithms.sparse import LVW, label_entropy, relief_scores, subset_search
from algorithms.sparse._subset import _gain_of_codes
from mltheory.testing import assert_holds, assert_refutes
from properties.sparse.lvw import check_wrapper_vs_filter, lvw_problem
from properties.sparse.relief import check_relevance_ranking, check_relieff_defaults
from properties.sparse.strategies_selection import labelled_codes, relief_samples, score_tables
from properties.sparse.support_selection import (
    check_entropy,
    check_forward_run,
    check_gain,
    check_gain_monotone,
    check_lvw_run,
    check_relief_statistic,
    literal_forward_search,
)

# ---------------------------------------------------------------------------
# Entropy and gain
# ---------------------------------------------------------------------------


def _codes_gain(codes, y, subset):
    _, y_codes = np.unique(y, return_inverse=True)
    return _gain_of_codes(codes, y_codes.reshape(-1), subset)


def _nats_gain(codes, y, subset):  # log base e: a constant factor ln 2 off
    return _codes_gain(codes, y, subset) * math.log(2)


def _plus_conditional_gain(codes, y, subset):  # sign of the weighted sum flipped
    ent = label_entropy(y)
    return 2 * ent - _codes_gain(codes, y, subset)


def _unweighted_gain(codes, y, subset):  # |D^v|/|D| dropped: plain mean of cell entropies
    keys = [tuple(row) for row in codes[:, list(subset)].tolist()]
    cells = {}
    for key, label in zip(keys, y.tolist(), strict=True):
        cells.setdefault(key, []).append(label)
    return label_entropy(y) - float(np.mean([label_entropy(v) for v in cells.values()]))


@pytest.mark.parametrize("broken", [_nats_gain, _plus_conditional_gain, _unweighted_gain])
def test_gain_check_refutes_a_broken_gain(broken):
    @given(data=labelled_codes())
    def check(data):
        codes, y = data
        check_gain(codes, y, tuple(range(codes.shape[1])), broken)

    assert_refutes(check)


def test_gain_check_holds_for_the_gain():
    @given(data=labelled_codes())
    def check(data):
        codes, y = data
        check_gain(codes, y, tuple(range(codes.shape[1])), _codes_gain)

    assert_holds(check)


@pytest.mark.parametrize("factor", [0.5, math.log(2)])
def test_entropy_check_refutes_a_scaled_entropy(factor):
    @given(data=labelled_codes())
    def check(data):
        check_entropy(data[1], lambda y: factor * label_entropy(y))

    assert_refutes(check)


def test_monotonicity_check_refutes_a_size_penalised_gain():
    @given(data=labelled_codes(max_features=3))
    def check(data):
        codes, y = data
        check_gain_monotone(codes, y, lambda c, t, s: _codes_gain(c, t, s) - 0.01 * len(s))

    assert_refutes(check)


# ---------------------------------------------------------------------------
# Forward search
# ---------------------------------------------------------------------------


def _run_forward_check(search):
    @given(tables=score_tables())
    def check(tables):
        table, d = tables
        check_forward_run(table, d, 0.0, search)

    return check


def test_forward_check_refutes_a_raised_stopping_tolerance():
    # stops although the best extension improves by up to 1
    broken = lambda score, d, direction, tol: subset_search(  # noqa: E731
        score, d, direction=direction, tol=tol + 1.0)
    assert_refutes(_run_forward_check(broken))


def test_forward_check_refutes_a_search_that_takes_the_worst_candidate(monkeypatch):
    def worst(self, candidates):
        scores = [self(c) for c in candidates]
        k = int(np.argmin(scores))
        return candidates[k], scores[k]

    monkeypatch.setattr(subset_module._CachedScore, "best", worst)
    assert_refutes(_run_forward_check(subset_search))


def test_literal_forward_search_terminates_without_ties():
    # the erratum's machinery only refutes on ties: strictly increasing distinct scores
    @given(tables=score_tables())
    def check(tables):
        table, d = tables
        distinct = {s: len(s) + 1e-6 * k for k, s in enumerate(table)}
        literal_forward_search(lambda s: distinct[s], d, max_rounds=d)

    assert_holds(check)


def test_greedy_local_check_refutes_an_exhaustive_search(monkeypatch):
    from properties.sparse.support_selection import exhaustive_best

    def exhaustive(score, d, direction="forward", tol=0.0):
        best, value = exhaustive_best(score, d)
        return subset_module.SubsetSearchResult(subset=best, score=value)

    monkeypatch.setattr(selection_claims, "subset_search", exhaustive)
    assert_refutes(selection_claims.greedy_local)


# ---------------------------------------------------------------------------
# Relief / Relief-F
# ---------------------------------------------------------------------------


def _relief_check(scores_fn, weighting="unweighted", max_classes=2):
    @given(data=relief_samples(max_classes=max_classes))
    def check(data):
        X, y, discrete = data
        check_relief_statistic(X, y, discrete, scores_fn, weighting)

    return check


def _relief(X, y, discrete):
    return relief_scores(X, y, discrete_features=discrete)


@pytest.mark.parametrize("factor", [0.5, -1.0])
def test_relief_check_refutes_a_scaled_or_sign_flipped_statistic(factor):
    assert_refutes(_relief_check(lambda X, y, d: factor * _relief(X, y, d)))


def test_relief_check_refutes_a_sample_that_is_its_own_near_hit(monkeypatch):
    original = relief_module._neighbours

    def with_self(Z, codes, idx, discrete, n_classes):
        _, misses = original(Z, codes, idx, discrete, n_classes)
        return idx.copy(), misses  # the sample itself as its near-hit

    monkeypatch.setattr(relief_module, "_neighbours", with_self)
    assert_refutes(_relief_check(_relief))


def test_relief_check_refutes_unnormalised_attributes(monkeypatch):
    monkeypatch.setattr(relief_module, "_normalised", lambda X, discrete: X.copy())
    assert_refutes(_relief_check(_relief))


def test_relief_check_refutes_a_neighbour_index_off_by_one(monkeypatch):
    original = relief_module._neighbours

    def shifted(Z, codes, idx, discrete, n_classes):
        hits, misses = original(Z, codes, idx, discrete, n_classes)
        return (hits + 1) % Z.shape[0], misses

    monkeypatch.setattr(relief_module, "_neighbours", shifted)
    assert_refutes(_relief_check(_relief))


def test_relieff_check_refutes_swapped_miss_weights():
    from algorithms.sparse import relieff_scores

    def proportion(X, y, discrete):
        return relieff_scores(X, y, discrete_features=discrete, miss_weighting="proportion")

    assert_refutes(_relief_check(proportion, "normalized", max_classes=4))
    assert_holds(_relief_check(proportion, "proportion", max_classes=4))


@pytest.mark.parametrize("broken", [{"n_neighbors": 2}, {"n_samples": 3, "random_state": 0}])
def test_relieff_defaults_check_refutes_more_neighbours_or_fewer_samples(broken):
    from algorithms.sparse import relieff_scores

    @given(data=relief_samples(max_classes=4, max_samples=30))
    def check(data):
        X, y, discrete = data
        assume(np.unique(y, return_counts=True)[1].min() >= 3)  # k = 2 needs 3 per class
        sigma = relieff_scores(X, y, discrete_features=discrete, miss_weighting="normalized")
        check_relieff_defaults(X, y, discrete, sigma, True, **broken)

    assert_refutes(check)


def test_ranking_check_refutes_a_sign_flipped_statistic():
    from algorithms.sparse import Relief

    def flipped(X, y, n, seed):
        return -Relief(n_samples=n, random_state=seed).fit(X, y).scores_

    assert_refutes(lambda rng, scale: check_relevance_ranking(rng, scale, flipped))


# ---------------------------------------------------------------------------
# LVW
# ---------------------------------------------------------------------------


def _lvw_check(accept=None, tamper=None, patience=8):
    def check(rng, scale):
        for _ in range(8):
            X, y = lvw_problem(rng)
            lvw = LVW(patience=patience, cv=2, random_state=int(rng.integers(2**31)))
            lvw.fit(X, y)
            if tamper is not None:
                tamper(lvw)
            check_lvw_run(lvw, X, y, accept=accept)

    return check


@pytest.mark.parametrize("accept", [
    lambda e_new, d_new, e, d: e_new < e,                      # tie branch dropped
    lambda e_new, d_new, e, d: e_new <= e,                     # ties always accepted
    lambda e_new, d_new, e, d: e_new < e or (e_new == e and d_new > d),  # sign flipped
])
def test_lvw_replay_refutes_a_different_acceptance_rule(accept):
    assert_refutes(_lvw_check(accept=accept))


def test_lvw_replay_holds_for_the_notes_rule():
    assert_holds(_lvw_check())


def _scaled_error(lvw):
    lvw.error_ *= 0.5


def _shifted_trace(lvw):
    lvw.trace_[0, 1] += 1


def _early_stop(lvw):
    lvw.patience += 1  # the run looks as if it stopped one rejection early


@pytest.mark.parametrize("tamper", [_scaled_error, _shifted_trace, _early_stop])
def test_lvw_replay_refutes_a_misreported_run(tamper):
    assert_refutes(_lvw_check(tamper=tamper))


def test_lvw_replay_refutes_folds_redrawn_per_subset(monkeypatch):
    original = lvw_module.cross_validation_error
    rng = np.random.default_rng(0)

    def redrawn(estimator, X, y, folds):
        order = rng.permutation(X.shape[0])
        return original(estimator, X[order], y[order], folds)

    monkeypatch.setattr(lvw_module, "cross_validation_error", redrawn)
    assert_refutes(_lvw_check())


def test_wrapper_check_refutes_a_wrapper_that_copies_the_filter():
    from algorithms.sparse import Relief

    def copy(X, y, seed):
        relief = Relief(n_features_to_select=2).fit(X, y)
        relief.n_evaluations_, relief.folds_ = 100, [None] * 3
        return relief

    assert_refutes(lambda rng, scale: check_wrapper_vs_filter(rng, scale, wrapper=copy))


def test_reduction_check_refutes_a_slightly_rescaled_relieff(monkeypatch):
    import properties.sparse.relief as relief_claims

    original = relief_claims.relieff_normalized
    monkeypatch.setattr(relief_claims, "relieff_normalized",
                        lambda X, y, d: original(X, y, d) * (1 + 1e-6))
    assert_refutes(relief_claims.reduces_to_relief)


def test_backward_and_bidirectional_checks_refute_a_worst_candidate_search(monkeypatch):
    from properties.sparse.support_selection import check_backward_run, check_bidirectional_run

    def worst(self, candidates):
        scores = [self(c) for c in candidates]
        k = int(np.argmin(scores))
        return candidates[k], scores[k]

    monkeypatch.setattr(subset_module._CachedScore, "best", worst)

    @given(tables=score_tables())
    def backward(tables):
        check_backward_run(*tables, 0.0, subset_search)

    @given(tables=score_tables())
    def bidirectional(tables):
        check_bidirectional_run(*tables, subset_search)

    assert_refutes(backward)
    assert_refutes(bidirectional)


def test_backward_check_refutes_a_raised_stopping_tolerance():
    from properties.sparse.support_selection import check_backward_run

    @given(tables=score_tables())
    def check(tables):
        table, d = tables
        check_backward_run(table, d, 0.0, lambda s, n, direction, tol: subset_search(
            s, n, direction=direction, tol=tol + 1.0))

    assert_refutes(check)
