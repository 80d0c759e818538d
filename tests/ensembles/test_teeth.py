"""The ensemble checks have teeth: the check bodies the claims use refute broken
variants (a dropped weight, a scaled constant, a flipped sign, a skipped normaliser)."""

import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from algorithms.ensembles import (
    BaggingClassifier,
    RandomForestClassifier,
    error_ambiguity,
    integrated_error_ambiguity,
    majority_vote_error,
    majority_vote_hoeffding_bound,
)
from algorithms.trees import DecisionTreeClassifier
from mltheory.stats import check_probability_at_least, check_probability_at_most
from mltheory.testing import assert_holds, assert_refutes
from properties.ensembles.bagging import (
    check_error_monotone,
    check_root_share,
    linear_rule,
    log2_k,
)
from properties.ensembles.boosting import fit_boost
from properties.ensembles.strategies import (
    binary_datasets,
    contingency_tables,
    ensemble_sizes,
    half_or_less_rates,
    large_ensemble_exponents,
    regression_ensembles,
)
from properties.ensembles.support import (
    check_ambiguity_identity,
    check_bootstrap_members,
    check_distribution_recursion,
    check_ensemble_error_at_most_mean,
    check_estimate_agrees,
    check_hoeffding_evaluation,
    check_integrated_identity,
    check_literal_run,
    check_majority_bound,
    check_majority_error_reference,
    check_majority_vanishes,
    check_matches_literal,
    check_q_versus_rho,
    check_tendency,
    check_training_error_bound,
    check_weight_update,
    enumerated_majority_error,
    magnitude,
    notes_adaboost,
    resubstitution_counts,
    simulate_estimate,
)

# ---------------------------------------------------------------------------
# Error-ambiguity decomposition
# ---------------------------------------------------------------------------


def test_ambiguity_identity_holds_and_refutes_a_doubled_ambiguity():
    @given(ens=regression_ensembles())
    def real(ens):
        check_ambiguity_identity(ens.outputs, ens.target, ens.weights)

    @given(ens=regression_ensembles())
    def doubled(ens):
        check_ambiguity_identity(ens.outputs, ens.target, ens.weights,
                                 rhs=lambda ea: 2.0 * (ea.mean_error - ea.ensemble_error))

    assert_holds(real)
    assert_refutes(doubled)


def test_ambiguity_identity_refutes_a_dropped_ensemble_error():
    @given(ens=regression_ensembles())
    def dropped(ens):
        check_ambiguity_identity(ens.outputs, ens.target, ens.weights,
                                 rhs=lambda ea: ea.mean_error)

    assert_refutes(dropped)


def test_error_at_most_mean_refutes_affine_weights():
    # weights summing to 1 with a negative entry: the identity still holds, A_bar < 0
    @given(ens=regression_ensembles(), c=st.floats(0.5, 3.0))
    def affine(ens, c):
        T = ens.weights.shape[0]
        w = np.full(T, 1.0 / T) if T > 1 else np.ones(1)
        if T > 1:
            w = w + c * (np.arange(T) == 0) - c * (np.arange(T) == 1)
        ea = error_ambiguity(ens.outputs, ens.target, w, simplex=False)
        check_ensemble_error_at_most_mean(ea.ensemble_error, ea.mean_error,
                                          scale=magnitude(ens.outputs, ens.target),
                                          label="affine")

    assert_refutes(affine)


def test_integrated_identity_refutes_a_halved_ambiguity():
    @given(ens=regression_ensembles())
    def halved(ens):
        check_integrated_identity(ens.outputs, ens.target, ens.weights, ens.p,
                                  rhs=lambda t, w: 0.5 * (t.mean_error - t.ensemble_error))

    assert_refutes(halved)


def test_integrated_error_at_most_mean_holds_on_the_simplex():
    @given(ens=regression_ensembles())
    def real(ens):
        t = integrated_error_ambiguity(ens.outputs, ens.target, ens.weights, ens.p)
        check_ensemble_error_at_most_mean(t.ensemble_error, t.mean_error,
                                          scale=magnitude(ens.outputs, ens.target),
                                          label="integrated")

    assert_holds(real)


# ---------------------------------------------------------------------------
# Q versus rho; majority vote
# ---------------------------------------------------------------------------


def test_q_rho_check_refutes_a_scaled_relation():
    @given(t=contingency_tables())
    def scaled(t):  # |Q| >= 2 |rho| is false (b = c = 0 gives |Q| = |rho| = 1)
        check_q_versus_rho(t, relation=lambda q2, r2: q2 >= 4 * r2, name="|Q| >= 2|rho|")

    assert_refutes(scaled)


def test_majority_bound_refutes_a_halved_bound_and_a_doubled_exponent():
    @given(T=ensemble_sizes, eps=half_or_less_rates)
    def halved(T, eps):
        check_majority_bound(T, eps, bound=lambda n, e: 0.5 * majority_vote_hoeffding_bound(n, e))

    @given(T=ensemble_sizes, eps=half_or_less_rates)
    def doubled_exponent(T, eps):
        check_majority_bound(T, eps, bound=lambda n, e: math.exp(-n * (1 - 2 * e) ** 2))

    assert_refutes(halved)
    assert_refutes(doubled_exponent)


@pytest.mark.parametrize("sample", [
    lambda c: np.flatnonzero(c),  # the distinct in-bag examples, once each
    lambda c: np.arange(c.shape[0]),  # all of D, no bootstrap
])
def test_bootstrap_members_check_refutes_dropped_multiplicity_and_no_resampling(sample):
    from sklearn.neighbors import KNeighborsClassifier

    @given(seed=st.integers(0, 2**32 - 1), T=st.integers(1, 6))
    def broken(seed, T):
        rng = np.random.default_rng(seed)
        X, y = rng.normal(size=(50, 3)), rng.integers(0, 3, size=50)
        y[:3] = np.arange(3)
        base = KNeighborsClassifier(n_neighbors=5)
        bag = BaggingClassifier(base, n_estimators=T, random_state=seed).fit(X, y)
        check_bootstrap_members(bag, base, X, y, rng.normal(size=(300, 3)), sample=sample)

    assert_refutes(broken)


def _sum_to(T, eps, last, *, exact=False):
    """The sum of (6.3) with its upper limit moved to ``last(T)``."""
    e = Fraction(eps) if exact else float(eps)
    total = sum(math.comb(T, k) * (1 - e) ** k * e ** (T - k) for k in range(last(T) + 1))
    return total if exact else float(total)


@pytest.mark.parametrize("variant", [
    lambda T, e, exact=False: _sum_to(T, e, lambda n: n // 2 - 1, exact=exact),  # a term short
    lambda T, e, exact=False: _sum_to(T, e, lambda n: (n + 1) // 2, exact=exact),  # ties right
    lambda T, e, exact=False: (majority_vote_error(T, e, exact=exact)
                               * (1 + Fraction(1, 10**30) if exact else 1.0)),  # 1e-30 off
])
def test_majority_error_reference_refutes_moved_limits_and_a_tiny_scale(variant):
    @given(T=st.integers(11, 600), eps=st.fractions(min_value=0, max_value=1,
                                                     max_denominator=64))
    def broken(T, eps):
        check_majority_error_reference(T, eps, error=variant)

    assert_refutes(broken)


def _log_space_hoeffding(T, eps):
    """exp(-T rate) as exp(-exp(log T + log rate)) from T = 2^53 on (the evaluation before
    the fix: the logarithms' rounding, ~1e-14 absolute in the exponent, reaches the
    result as ~3e-12 relative where the exponent is a few hundred)."""
    rate = 0.5 * (1.0 - 2.0 * eps) ** 2
    if T < 2**53:
        return math.exp(-T * rate)
    if rate == 0.0:
        return 1.0
    log_exponent = math.log(T) + math.log(rate)
    return 0.0 if log_exponent > 709.78 else math.exp(-math.exp(log_exponent))


def test_hoeffding_evaluation_refutes_a_log_space_exponent_and_a_scaled_value():
    @given(case=large_ensemble_exponents())
    def log_space(case):
        check_hoeffding_evaluation(*case, bound=_log_space_hoeffding)

    @given(case=large_ensemble_exponents())
    def scaled(case):
        check_hoeffding_evaluation(
            *case, bound=lambda n, e: (1 + 1e-11) * majority_vote_hoeffding_bound(n, e))

    assert_refutes(log_space)
    assert_refutes(scaled)
    assert_holds(given(case=large_ensemble_exponents())(
        lambda case: check_hoeffding_evaluation(*case)))


@pytest.mark.parametrize(
    "variant",
    [lambda n, e: math.exp(-0.5 * n * (1 - e) ** 2),  # the 2 of 2 eps cut to 1
     lambda n, e: math.exp(-0.5 * n * abs(1 - 2 * e))],  # the square dropped
    ids=["2eps-to-eps", "square-dropped"],
)
def test_majority_bound_refutes_each_constant_of_the_exponent_changed(variant):
    @given(T=ensemble_sizes, eps=half_or_less_rates)
    def tightened(T, eps):
        check_majority_bound(T, eps, bound=variant)

    assert_refutes(tightened)


def test_majority_vanishing_check_refutes_hoeffdings_constant_halved():
    @given(eps=st.fractions(min_value=Fraction(1, 64), max_value=Fraction(31, 64),
                            max_denominator=64), delta=st.sampled_from([1e-2, 1e-4, 1e-8]))
    def halved(eps, delta):
        check_majority_vanishes(eps, delta, constant=1.0)

    assert_refutes(halved)


def test_majority_sum_refutes_a_tie_counted_as_correct():
    @given(T=st.integers(1, 8), eps=st.fractions(0, 1, max_denominator=16))
    def ceiling(T, eps):  # summing k up to ceil(T/2) - 1 treats ties as correct
        bad = sum((math.comb(T, k) * (1 - eps) ** k * eps ** (T - k)
                   for k in range((T + 1) // 2)), Fraction(0))
        assert bad == enumerated_majority_error(T, eps)

    assert_refutes(ceiling)
    assert majority_vote_error(2, Fraction(1, 2), exact=True) == Fraction(3, 4)


# ---------------------------------------------------------------------------
# AdaBoost
# ---------------------------------------------------------------------------


def test_weight_update_check_refutes_a_sign_flipped_update():
    @given(data=binary_datasets())
    def flipped(data):
        check_weight_update(fit_boost(data), data.y,
                            update=lambda D, a, f, h, Z: D * np.exp(a * f * h) / Z)

    assert_refutes(flipped)


def test_weight_update_check_refutes_a_skipped_normaliser():
    @given(data=binary_datasets())
    def unnormalised(data):
        check_weight_update(fit_boost(data), data.y,
                            update=lambda D, a, f, h, Z: D * np.exp(-a * f * h))

    assert_refutes(unnormalised)


def test_distribution_recursion_refutes_a_doubled_alpha():
    @given(data=binary_datasets())
    def doubled(data):
        check_distribution_recursion(fit_boost(data), data.y,
                                     alpha=lambda est, t: 2 * est.alphas_[t])

    assert_refutes(doubled)


def test_training_error_bound_refutes_a_doubled_exponent():
    @given(data=binary_datasets())
    def doubled(data):
        check_training_error_bound(fit_boost(data, n_estimators=20), data.y, factor=2.0)

    assert_refutes(doubled)


def test_training_error_bound_refutes_a_halved_bound():
    @given(data=binary_datasets())
    def halved(data):
        check_training_error_bound(fit_boost(data, n_estimators=20), data.y, scale=0.5)

    assert_refutes(halved)




@pytest.mark.parametrize("factor", [0.5, 0.99])
def test_literal_match_refutes_an_estimator_with_a_scaled_weight_update(factor):
    @given(data=binary_datasets())
    def scaled(data):
        est = fit_boost(data)
        est.distributions_ = est.distributions_.copy()
        f = np.where(data.y == est.classes_[1], 1, -1)
        D = est.distributions_[0]
        for t in range(est.alphas_.shape[0]):  # what a loop with alpha scaled would record
            u = D * np.exp(-factor * est.alphas_[t] * f * est.train_predictions_[t])
            D = u / u.sum()
            est.distributions_[t + 1] = D
        run = notes_adaboost(data.X, f, 12, zero_error_alpha=lambda a: 1.0 + float(np.sum(a)))
        check_matches_literal(est, run)

    assert_refutes(scaled)


def test_literal_run_check_holds_with_the_zero_error_stop_and_refutes_without():
    from properties.ensembles.boosting import STUMP_SEPARABLE

    X, f = STUMP_SEPARABLE.X, STUMP_SEPARABLE.y
    check_literal_run(notes_adaboost(X, f, 5, zero_error_alpha=lambda a: 1.0 + sum(a)))
    with pytest.raises(AssertionError, match="alpha_t"):
        check_literal_run(notes_adaboost(X, f, 5))


# ---------------------------------------------------------------------------
# Bagging and forests
# ---------------------------------------------------------------------------


def test_oob_rule_refutes_the_resubstitution_error():
    def resubstitution(rng, scale):
        counts = simulate_estimate(
            lambda g: RandomForestClassifier(20, oob_score=True, random_state=g),
            linear_rule, rng, replications=3, m=300, m_test=5000,
            counts=resubstitution_counts)
        check_estimate_agrees(counts, 0.03, label="resubstitution")

    assert_refutes(resubstitution)


def test_inbag_frequency_check_refutes_sampling_without_replacement():
    def without_replacement(rng, scale):
        draws, m = 5000, 20
        idx = np.argsort(rng.random((draws, m)), axis=1)  # permutations: all in the bag
        hits = int(np.sum(np.any(idx == 0, axis=1)))
        p = 1 - (1 - 1 / m) ** m
        check_probability_at_most(hits, draws, p, label="P(example in bag)")
        check_probability_at_least(hits, draws, p, label="P(example in bag) (lower)")

    assert_refutes(without_replacement)


def test_tendency_check_refutes_the_reversed_comparison():
    def reversed_m(rng, scale):
        X, y = linear_rule(150, rng)
        Xt, yt = linear_rule(500, rng)
        wins = 0
        for _ in range(20):
            acc = []
            for k in (8, 1):  # reversed: is a tree at m = M weaker than at m = 1?
                idx = rng.integers(0, 150, size=150)
                tree = DecisionTreeClassifier(max_features=k, random_state=rng)
                acc.append(np.mean(tree.fit(X[idx], y[idx]).predict(Xt) == yt))
            wins += acc[0] < acc[1]
        check_tendency(int(wins), 20, label="strength(M) < strength(1)")

    assert_refutes(reversed_m)


def test_error_monotone_check_refutes_weak_voters():
    @given(T=st.integers(1, 20).map(lambda k: 2 * k + 1), s=st.floats(0.05, 0.45),
           rho=st.floats(0.0, 0.9), drho=st.floats(0.05, 0.3))
    def weak(T, s, rho, drho):
        check_error_monotone(T, s, rho, 0.0, drho)

    assert_refutes(weak)


def test_root_split_uniformity_refutes_k_equal_d():
    def best_attribute(rng, scale):
        X = rng.normal(size=(80, 4))
        y = np.where(X[:, 0] + 0.3 * rng.normal(size=80) > 0, 1, -1)
        forest = RandomForestClassifier(300, max_features=4, max_depth=1,
                                        random_state=rng).fit(X, y)
        roots = np.array([t.tree_.feature[0] for t in forest.estimators_
                          if hasattr(t, "tree_")])
        for j in range(4):
            hits = int(np.sum(roots == j))
            check_probability_at_most(hits, roots.shape[0], 0.25, label=f"root on x_{j}")
            check_probability_at_least(hits, roots.shape[0], 0.25, label=f"root on x_{j} (lo)")

    assert_refutes(best_attribute)



@pytest.mark.parametrize(("d", "k"), [(6, 3), (8, 2), (8, 8)],
                         ids=["log2-rounded-up", "sqrt-d", "k-equal-d"])
def test_root_share_check_refutes_another_k(d, k):
    """``rf.default_k_log2``'s simulation tells k = log2 d from the rounded-up log2 d, from
    sqrt(d) (d = 8) and from all d attributes."""
    assert k != log2_k(d)
    assert_refutes(lambda rng, scale: check_root_share(rng, d, 600 * scale, k))

def test_bagging_vote_is_not_the_first_member():
    # sanity of the multiclass check: a single member's predictions differ from the vote
    rng = np.random.default_rng(0)
    X = rng.normal(size=(60, 3))
    y = rng.integers(0, 3, size=60)
    bag = BaggingClassifier(DecisionTreeClassifier(max_depth=3), n_estimators=9,
                            random_state=0).fit(X, y)
    first = bag.classes_[bag.estimators_[0].predict(X)]
    assert not np.array_equal(first, bag.predict(X))
