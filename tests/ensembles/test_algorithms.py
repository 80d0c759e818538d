"""The ensemble algorithms: behaviour on small cases and bad input."""

import math
import warnings
from fractions import Fraction

import mpmath
import numpy as np
import pytest
from sklearn.base import BaseEstimator, ClassifierMixin, clone

from algorithms.ensembles import (
    REJECT,
    AdaBoostClassifier,
    AveragingRegressor,
    BaggingClassifier,
    BaggingRegressor,
    ContingencyTable,
    EnsembleWarning,
    OOBWarning,
    RandomForestClassifier,
    RandomSubspaceClassifier,
    StackingClassifier,
    VotingClassifier,
    bootstrap_indices,
    contingency_table,
    correlation,
    disagreement,
    error_ambiguity,
    expected_in_bag_fraction,
    in_bag_counts,
    integrated_error_ambiguity,
    kappa,
    kappa_error_diagram,
    majority_vote,
    majority_vote_error,
    majority_vote_hoeffding_bound,
    one_hot_votes,
    pairwise_diversity,
    plurality_vote,
    q_statistic,
    simple_average,
    weighted_average,
    weighted_vote,
)
from algorithms.linear import LinearRegression, LogisticRegression
from algorithms.perceptron import Perceptron
from algorithms.trees import DecisionTreeClassifier, DecisionTreeRegressor
from properties.ensembles.boosting import best_stump_error


@pytest.fixture
def binary():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(80, 3))
    y = np.where(X[:, 0] + 0.5 * X[:, 1] + 0.5 * rng.normal(size=80) > 0, "yes", "no")
    return X, y


class AlwaysWrong(ClassifierMixin, BaseEstimator):
    """Predicts the opposite of the weighted majority: eps > 1/2 on every distribution
    that has a strict majority."""

    def fit(self, X, y, sample_weight=None):
        w = np.ones(len(y)) if sample_weight is None else np.asarray(sample_weight)
        self.classes_ = np.unique(y)
        share = np.array([w[y == c].sum() for c in self.classes_])
        self.label_ = self.classes_[np.argmin(share)]
        return self

    def predict(self, X):
        return np.full(np.asarray(X).shape[0], self.label_)


# ---------------------------------------------------------------------------
# AdaBoost
# ---------------------------------------------------------------------------


def test_adaboost_records_a_consistent_history(binary):
    X, y = binary
    est = AdaBoostClassifier(n_estimators=15, random_state=0).fit(X, y)
    T = est.alphas_.shape[0]
    assert T == 15 and est.stop_reason_ == "n_estimators"
    assert est.distributions_.shape == (T + 1, 80)
    assert np.allclose(est.distributions_.sum(axis=1), 1.0)
    assert np.allclose(est.distributions_[0], 1 / 80)
    assert np.all((est.errors_ > 0) & (est.errors_ <= 0.5))
    assert np.allclose(est.alphas_, 0.5 * np.log((1 - est.errors_) / est.errors_))
    assert set(est.predict(X)) <= {"yes", "no"}
    assert est.score(X, y) > 0.85


def test_adaboost_reweighting_needs_sample_weight(binary):
    X, y = binary
    with pytest.raises(ValueError, match="sample_weight"):
        AdaBoostClassifier(LogisticRegression()).fit(X, y)


def test_adaboost_stops_when_the_first_learner_is_worse_than_chance(binary):
    X, y = binary
    y = np.where(np.arange(80) < 60, "a", "b")  # strict majority: AlwaysWrong has eps = 3/4
    with pytest.warns(EnsembleWarning):
        est = AdaBoostClassifier(AlwaysWrong()).fit(X, y)
    assert est.stop_reason_ == "error_above_half"
    assert est.rejected_errors_ == [pytest.approx(0.75)]
    assert len(est.estimators_) == 0 and np.all(est.predict(X) == "a")


def test_adaboost_zero_error_stops_with_a_dominating_weight():
    X = np.array([[0.0], [1.0], [2.0], [3.0]])
    y = np.array([0, 0, 1, 1])
    est = AdaBoostClassifier(n_estimators=10).fit(X, y)
    assert est.stop_reason_ == "zero_error"
    assert est.alphas_.tolist() == [1.0] and est.errors_.tolist() == [0.0]
    assert np.array_equal(est.predict(X), y)


def test_adaboost_zero_error_after_earlier_rounds_dominates_them():
    rng = np.random.default_rng(3)
    X = rng.normal(size=(40, 2))
    y = np.where(X[:, 0] > 0, 1, 0)
    y[:3] = 1 - y[:3]
    est = AdaBoostClassifier(n_estimators=200, random_state=0).fit(X, y)
    if est.stop_reason_ == "zero_error":  # the last learner alone decides
        assert est.alphas_[-1] == pytest.approx(1.0 + est.alphas_[:-1].sum())
        last = est.estimators_[-1].predict(X)
        assert np.array_equal(est.decision_function(X) > 0, last > 0)


def test_adaboost_resampling_restarts_instead_of_stopping():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(60, 2))
    y = np.where(X[:, 0] * X[:, 1] > 0, 1, -1)
    est = AdaBoostClassifier(Perceptron(max_iter=3), n_estimators=20, mode="resample",
                             max_restarts=50, random_state=1)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        est.fit(X, y)
    assert est.n_restarts_ > 0 and est.stop_reason_ == "n_estimators"
    assert len(est.sample_indices_) == 20 and all(i.shape == (60,) for i in est.sample_indices_)
    assert np.all(est.errors_ <= 0.5)


def test_adaboost_resampling_gives_up_after_max_restarts(binary):
    X, y = binary
    y = np.where(np.arange(80) < 60, 0, 1)
    with pytest.warns(EnsembleWarning):
        est = AdaBoostClassifier(AlwaysWrong(), mode="resample", max_restarts=2,
                                 random_state=0).fit(X, y)
    assert est.stop_reason_ == "restarts_exhausted" and est.n_restarts_ == 2
    assert len(est.rejected_errors_) == 3


def test_adaboost_sample_weight_sets_the_first_distribution(binary):
    X, y = binary
    w = np.arange(1, 81, dtype=float)
    est = AdaBoostClassifier(n_estimators=3).fit(X, y, sample_weight=w)
    assert np.allclose(est.distributions_[0], w / w.sum())


@pytest.mark.parametrize("weights, match", [
    (-np.ones(80), "(?i)negative"),
    (np.zeros(80), "(?i)sample.weight"),
    (np.full(80, np.nan), "NaN"),
    (np.ones(79), "shape|length|samples"),
])
def test_adaboost_refuses_bad_sample_weight(binary, weights, match):
    X, y = binary
    with pytest.raises(ValueError, match=match):
        AdaBoostClassifier(n_estimators=2).fit(X, y, sample_weight=weights)


@pytest.mark.parametrize("params, name", [
    ({"n_estimators": 0}, "n_estimators"),
    ({"mode": "boost"}, "mode"),
    ({"max_restarts": -1}, "max_restarts"),
    ({"estimator": "stump"}, "estimator"),
])
def test_adaboost_refuses_bad_hyperparameters(binary, params, name):
    X, y = binary
    with pytest.raises(ValueError, match=name):
        AdaBoostClassifier(**params).fit(X, y)


def test_adaboost_is_binary(binary):
    X, _ = binary
    with pytest.raises(ValueError, match="binary"):
        AdaBoostClassifier().fit(X, np.arange(80) % 3)


# ---------------------------------------------------------------------------
# Bagging, random forest, random subspace
# ---------------------------------------------------------------------------


def test_bagging_records_in_bag_counts_and_oob(binary):
    X, y = binary
    bag = BaggingClassifier(n_estimators=25, oob_score=True, random_state=0).fit(X, y)
    assert bag.in_bag_counts_.shape == (25, 80)
    assert np.all(bag.in_bag_counts_.sum(axis=1) == 80)
    assert 0.0 <= bag.oob_error_ <= 1.0 and bag.oob_coverage_ == 1.0
    assert bag.oob_score_ == pytest.approx(1 - bag.oob_error_)
    assert np.allclose(bag.predict_proba(X).sum(axis=1), 1.0)


def test_bagging_oob_warns_when_no_example_is_out_of_bag():
    X, y = np.array([[0.0], [1.0]]), np.array([0, 1])
    for seed in range(50):  # one tree on two examples: both in the bag half of the time
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            bag = BaggingClassifier(DecisionTreeClassifier(max_depth=1), n_estimators=1,
                                    oob_score=True, random_state=seed).fit(X, y)
        if bag.oob_coverage_ == 0.0:
            assert any(issubclass(w.category, OOBWarning) for w in caught)
            assert np.isnan(bag.oob_error_)
            return
    raise AssertionError("no seed put both examples in the bag")


def test_bagging_random_tie_break_picks_a_tied_class():
    X = np.array([[0.0], [1.0]])
    y = np.array([0, 1])
    bag = BaggingClassifier(DecisionTreeClassifier(), n_estimators=2, tie_break="random",
                            random_state=0).fit(X, y)
    counts = bag.vote_counts(X)
    pred = bag.predict(X)
    assert np.all(counts[np.arange(2), pred] == counts.max(axis=1))


def test_bagging_regressor_requires_a_base_regressor():
    X = np.random.default_rng(0).normal(size=(10, 2))
    with pytest.raises(ValueError, match="estimator"):
        BaggingRegressor().fit(X, X[:, 0])
    reg = BaggingRegressor(DecisionTreeRegressor(), n_estimators=4, oob_score=True,
                           random_state=0).fit(X, X[:, 0])
    assert reg.predict(X).shape == (10,) and reg.oob_prediction_.shape == (10,)


def test_random_forest_uses_log2_d_attributes_per_node(binary):
    X, y = binary
    X = np.hstack([X, X ** 2, np.sin(X)])  # d = 9: k = floor(log2 9) = 3
    forest = RandomForestClassifier(5, random_state=0).fit(X, y)
    assert all(t.max_features_ == 3 for t in forest.estimators_)
    assert forest.feature_importances_.shape == (9,)
    assert forest.feature_importances_.sum() == pytest.approx(1.0)
    again = RandomForestClassifier(5, random_state=0).fit(X, y)
    assert np.array_equal(forest.predict(X), again.predict(X))


@pytest.mark.parametrize("params, name", [
    ({"n_estimators": 0}, "n_estimators"),
    ({"max_features": 0}, "max_features"),
    ({"max_features": "half"}, "max_features"),
    ({"criterion": "mse"}, "criterion"),
    ({"bootstrap": False, "oob_score": True}, "oob_score"),
    ({"tie_break": "last"}, "tie_break"),
])
def test_random_forest_refuses_bad_hyperparameters(binary, params, name):
    X, y = binary
    with pytest.raises(ValueError, match=name):
        RandomForestClassifier(**params).fit(X, y)


def test_random_subspace_maps_each_learner_to_its_attributes(binary):
    X, y = binary
    rs = RandomSubspaceClassifier(n_estimators=6, n_subspace_features=2,
                                  random_state=0).fit(X, y)
    assert rs.subspaces_.shape == (6, 2)
    assert all(len(set(row)) == 2 for row in rs.subspaces_.tolist())
    codes = np.vstack([h.predict(X[:, F]) for h, F in zip(rs.estimators_, rs.subspaces_,
                                                          strict=True)])
    votes = (codes[..., None] == np.arange(2)).sum(axis=0)
    assert np.array_equal(rs.predict(X), rs.classes_[np.argmax(votes, axis=1)])
    with pytest.raises(ValueError, match="n_subspace_features"):
        RandomSubspaceClassifier(n_subspace_features=4).fit(X, y)


# ---------------------------------------------------------------------------
# Voting, averaging, stacking
# ---------------------------------------------------------------------------


def test_voting_classifier_majority_rejects_without_a_majority():
    X = np.array([[0.0], [1.0], [2.0], [3.0], [4.0], [5.0]])
    y = np.array([0, 0, 1, 1, 2, 2])
    members = [DecisionTreeClassifier(max_depth=1), DecisionTreeClassifier(max_depth=2),
               DecisionTreeClassifier()]
    vote = VotingClassifier(members).fit(X, y)
    labels, rejected = vote.predict_majority(X)
    counts = vote.vote_counts(X)
    assert np.array_equal(rejected, counts.max(axis=1) <= 1.5)
    assert np.array_equal(labels[~rejected], vote.predict(X)[~rejected])
    soft = VotingClassifier(members, voting="soft", weights=[1, 2, 3]).fit(X, y)
    assert np.allclose(soft.predict_proba(X).sum(axis=1), 1.0)


@pytest.mark.parametrize("params, name", [
    ({"estimators": []}, "estimators"),
    ({"estimators": [object()]}, "estimators"),
    ({"voting": "loud"}, "voting"),
    ({"weights": [1.0, -1.0]}, "weights"),
    ({"weights": [1.0]}, "weights"),
])
def test_voting_classifier_refuses_bad_arguments(binary, params, name):
    X, y = binary
    kwargs = {"estimators": [DecisionTreeClassifier(max_depth=1),
                             DecisionTreeClassifier(max_depth=2)], **params}
    with pytest.raises(ValueError, match=name):
        VotingClassifier(**kwargs).fit(X, y)


def test_averaging_regressor_is_the_weighted_average():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(30, 2))
    t = X @ [1.0, 2.0] + rng.normal(size=30)
    avg = AveragingRegressor([LinearRegression(), DecisionTreeRegressor(max_depth=2)],
                             weights=[0.3, 0.7]).fit(X, t)
    assert np.allclose(avg.predict(X), [0.3, 0.7] @ avg.member_predictions(X))
    with pytest.raises(ValueError, match="sum to 1"):
        AveragingRegressor([LinearRegression(), LinearRegression()], weights=[1, 1]).fit(X, t)
    with pytest.raises(ValueError, match="non-negative"):
        AveragingRegressor([LinearRegression(), LinearRegression()],
                           weights=[1.5, -0.5]).fit(X, t)


def test_stacking_builds_the_secondary_set_out_of_fold(binary):
    X, y = binary
    members = [DecisionTreeClassifier(max_depth=2), DecisionTreeClassifier()]
    st = StackingClassifier(members, cv=4, method="predict", random_state=0).fit(X, y)
    assert st.meta_features_.shape == (80, 2) and set(st.folds_) == {0, 1, 2, 3}
    codes = np.searchsorted(st.classes_, y)
    for fold in range(4):
        held = st.folds_ == fold
        for col, member in enumerate(members):
            model = clone(member).fit(X[~held], codes[~held])
            assert np.array_equal(st.meta_features_[held, col], model.predict(X[held]) == 1)
    in_sample = StackingClassifier(members, cv=None, method="predict").fit(X, y)
    assert np.all(in_sample.folds_ == -1)
    full = clone(members[1]).fit(X, codes)
    assert np.array_equal(in_sample.meta_features_[:, 1], full.predict(X) == 1)
    with pytest.raises(ValueError, match="cv"):
        StackingClassifier(members, cv=1).fit(X, y)
    with pytest.raises(ValueError, match="method"):
        StackingClassifier(members, method="vote").fit(X, y)


# ---------------------------------------------------------------------------
# Functions
# ---------------------------------------------------------------------------


def test_diversity_measures_on_a_known_table():
    t = contingency_table([1, 1, -1, -1, 1], [1, -1, 1, -1, 1])
    assert (t.a, t.b, t.c, t.d) == (2, 1, 1, 1)
    assert disagreement(t) == 2 / 5
    assert q_statistic(t) == pytest.approx((2 - 1) / (2 + 1))
    assert correlation(t) == pytest.approx(1 / np.sqrt(3 * 3 * 2 * 2))
    p1, p2 = 3 / 5, (3 * 3 + 2 * 2) / 25
    assert kappa(t) == pytest.approx((p1 - p2) / (1 - p2))


@pytest.mark.parametrize("measure", [correlation, q_statistic, kappa])
def test_undefined_measures_raise_unless_a_value_is_given(measure):
    t = ContingencyTable(a=4, b=0, c=0, d=0)  # two identical constant classifiers
    with pytest.raises(ValueError, match="undefined"):
        measure(t)
    assert measure(t, undefined=0.0) == 0.0


@pytest.mark.parametrize("args, match", [
    (([1, 0, 1], [1, 1, 1]), "h_i"),
    (([1, 1], [1, 1, 1]), "same length"),
    (([1, np.nan], [1, 1]), "finite"),
])
def test_contingency_table_refuses_bad_predictions(args, match):
    with pytest.raises(ValueError, match=match):
        contingency_table(*args)


def test_contingency_counts_are_checked():
    with pytest.raises(ValueError, match="m >= 1"):
        ContingencyTable(0, 0, 0, 0)
    with pytest.raises(ValueError, match="count b"):
        ContingencyTable(1, -1, 0, 0)


def test_pairwise_diversity_and_kappa_error_diagram():
    P = np.array([[1, 1, -1, -1], [1, -1, -1, 1], [1, 1, 1, -1]])
    y = np.array([1, 1, -1, -1])
    M = pairwise_diversity(P, "kappa")
    assert np.allclose(M, M.T) and np.allclose(np.diag(M), 1.0)
    diagram = kappa_error_diagram(P, y)
    assert diagram.pairs.tolist() == [[0, 1], [0, 2], [1, 2]]
    assert diagram.mean_error.tolist() == [0.25, 0.125, 0.375]
    with pytest.raises(ValueError, match="measure"):
        pairwise_diversity(P, "entropy")
    with pytest.raises(ValueError, match="two classifiers"):
        pairwise_diversity(P[:1])


def test_voting_rules_on_a_small_example():
    labels = np.array([[0, 1, 2], [0, 2, 2], [1, 1, 0]])  # 3 learners, 3 points
    votes = one_hot_votes(labels, 3)
    assert majority_vote(votes).tolist() == [0, 1, 2]
    three_way = one_hot_votes(np.array([[0], [1], [2]]), 3)
    assert majority_vote(three_way).tolist() == [REJECT]
    assert plurality_vote(three_way, tie_break="first").tolist() == [0]
    assert weighted_vote(three_way, [0.2, 0.5, 0.3], tie_break="first").tolist() == [1]
    with pytest.raises(ValueError, match="labels"):
        one_hot_votes(np.array([[0, 3]]), 3)
    with pytest.raises(ValueError, match="tie_break"):
        plurality_vote(votes, tie_break="coin")
    with pytest.raises(ValueError, match="non-negative"):
        weighted_vote(votes, [1.0, -1.0, 1.0])


def test_averages_and_error_ambiguity():
    h = np.array([[1.0, 2.0], [3.0, 6.0]])
    assert simple_average(h).tolist() == [2.0, 4.0]
    assert weighted_average(h, [0.25, 0.75]).tolist() == [2.5, 5.0]
    with pytest.raises(ValueError, match="sum to 1"):
        weighted_average(h, [1.0, 1.0])
    assert weighted_average(h, [1.0, 1.0], simplex=False).tolist() == [4.0, 8.0]
    ea = error_ambiguity(h, np.array([0.0, 0.0]), np.array([0.5, 0.5]))
    assert ea.ambiguity.tolist() == [1.0, 4.0]
    assert np.allclose(ea.mean_error - ea.ensemble_error, ea.ambiguity)
    terms = integrated_error_ambiguity(h, np.zeros(2), [0.5, 0.5], p=[0.5, 0.5])
    assert terms.ambiguity == pytest.approx(2.5)
    with pytest.raises(ValueError, match="target"):
        error_ambiguity(h, np.zeros(3), [0.5, 0.5])
    with pytest.raises(ValueError, match="p must"):
        integrated_error_ambiguity(h, np.zeros(2), [0.5, 0.5], p=[0.9, 0.9])


def test_majority_vote_error_and_bound():
    assert majority_vote_error(3, Fraction(1, 4), exact=True) == Fraction(5, 32)
    assert majority_vote_error(3, 0.25) == pytest.approx(5 / 32)
    assert majority_vote_hoeffding_bound(1, 0.5) == 1.0
    with pytest.raises(ValueError, match="n_classifiers"):
        majority_vote_error(0, 0.1)
    with pytest.raises(ValueError, match="eps"):
        majority_vote_hoeffding_bound(3, 1.5)


def test_bootstrap_helpers():
    idx = bootstrap_indices(10, 0)
    assert idx.shape == (10,) and in_bag_counts(idx, 10).sum() == 10
    assert expected_in_bag_fraction(2, exact=True) == Fraction(3, 4)
    assert expected_in_bag_fraction(1) == 1.0
    with pytest.raises(ValueError, match="indices"):
        in_bag_counts(np.array([0, 10]), 10)
    with pytest.raises(ValueError, match="n_samples"):
        bootstrap_indices(0)


def test_best_stump_error_matches_brute_force():
    rng = np.random.default_rng(3)
    for _ in range(30):
        X = np.round(rng.normal(size=(25, 2)), 1)
        y = np.where(rng.random(25) < 0.5, 1, -1)
        best = min(np.mean(y == 1), np.mean(y == -1))
        for j in range(2):
            for t in np.unique(X[:, j]):
                p = np.where(X[:, j] <= t, -1, 1)
                best = min(best, np.mean(p != y), np.mean(-p != y))
        assert best_stump_error(X, y) == pytest.approx(best)


@pytest.mark.parametrize("make", [
    lambda: AdaBoostClassifier(n_estimators=2),
    lambda: BaggingClassifier(n_estimators=2),
    lambda: RandomForestClassifier(2),
    lambda: RandomSubspaceClassifier(n_estimators=2),
    lambda: VotingClassifier([DecisionTreeClassifier()]),
    lambda: StackingClassifier([DecisionTreeClassifier()], cv=2),
])
@pytest.mark.parametrize("bad", ["nan", "inf", "one_class", "empty"])
def test_classifiers_refuse_bad_data(make, bad, binary):
    X, y = binary
    X = X.copy()
    if bad == "nan":
        X[0, 0] = np.nan
    elif bad == "inf":
        X[0, 0] = np.inf
    elif bad == "one_class":
        y = np.full(80, "yes")
    else:
        X, y = X[:0], y[:0]
    with pytest.raises(ValueError):
        make().fit(X, y)


def test_hoeffding_bound_keeps_full_precision_beyond_2_53():
    """exp(-T (1 - 2 eps)^2 / 2) for T >= 2^53 with an exponent of a few hundred: once
    evaluated as exp(-exp(log T + log rate)), 3.3e-12 relative off at T = 2^55."""
    for T, x in [(2**53, 600.0), (2**55, 700.0), (10**17, 300.0), (2**80, 5.0)]:
        eps = 0.5 - math.sqrt(2.0 * x / T) / 2.0
        with mpmath.workdps(50):
            exact = mpmath.exp(-mpmath.mpf(T) * (1 - 2 * mpmath.mpf(eps)) ** 2 / 2)
        assert majority_vote_hoeffding_bound(T, eps) == pytest.approx(float(exact), rel=2e-13)
    assert majority_vote_hoeffding_bound(2**1024, 0.5 - 2**-54) == 0.0


def test_extreme_sizes_are_exact_or_refused():
    """Issue 13: sizes beyond float64 give the limit in log space; exact sums and
    allocations beyond their caps are clear errors naming the argument."""
    assert majority_vote_hoeffding_bound(10**400, 0.3) == 0.0
    assert majority_vote_hoeffding_bound(10**400, 0.5) == 1.0
    assert expected_in_bag_fraction(10**400) == pytest.approx(1 - math.exp(-1), rel=1e-15)
    with pytest.raises(ValueError, match="n_samples"):
        expected_in_bag_fraction(10**6, exact=True)
    with pytest.raises(ValueError, match="n_classifiers"):
        majority_vote_error(10**6, 0.3, exact=True)
    with pytest.raises(ValueError, match="n_draws"):
        bootstrap_indices(10, 0, n_draws=10**12)
    with pytest.raises(ValueError, match="contingency count a"):
        ContingencyTable(math.inf, 1, 1, 1)


def test_n_estimators_cap_is_exact():
    """The documented cap: MAX_ESTIMATORS members accepted, one more refused."""
    from algorithms.ensembles._base import MAX_ESTIMATORS, check_n_estimators

    assert check_n_estimators(MAX_ESTIMATORS) == MAX_ESTIMATORS
    with pytest.raises(ValueError, match="n_estimators"):
        check_n_estimators(MAX_ESTIMATORS + 1)


#: The documented defaults (the docstrings'); a changed default must be deliberate.
DOCUMENTED_DEFAULTS = {
    AdaBoostClassifier: ((), {"estimator": None, "n_estimators": 50, "mode": "reweight",
                              "max_restarts": 10, "random_state": None}),
    BaggingClassifier: ((), {"estimator": None, "n_estimators": 10, "oob_score": False,
                             "tie_break": "first", "random_state": None}),
    BaggingRegressor: ((), {"estimator": None, "n_estimators": 10, "oob_score": False,
                            "random_state": None}),
    RandomForestClassifier: ((), {"n_estimators": 100, "max_features": "log2",
                                  "criterion": "gini", "max_depth": None, "bootstrap": True,
                                  "oob_score": False, "tie_break": "first",
                                  "random_state": None}),
    RandomSubspaceClassifier: ((), {"estimator": None, "n_estimators": 10,
                                    "n_subspace_features": None, "tie_break": "first",
                                    "random_state": None}),
    StackingClassifier: (([],), {"estimators": [], "final_estimator": None, "cv": 5,
                                 "method": "predict_proba", "random_state": None}),
    VotingClassifier: (([],), {"estimators": [], "voting": "hard", "weights": None,
                               "tie_break": "first", "random_state": None}),
    AveragingRegressor: (([],), {"estimators": [], "weights": None}),
}


@pytest.mark.parametrize("cls", list(DOCUMENTED_DEFAULTS), ids=lambda c: c.__name__)
def test_defaults_are_the_documented_ones(cls):
    args, expected = DOCUMENTED_DEFAULTS[cls]
    assert cls(*args).get_params(deep=False) == expected



@pytest.mark.parametrize("d", range(1, 7))
def test_random_subspace_default_size_is_half_rounded_up(d):
    """The documented default d' = ceil(d / 2) (the notes leave d' to the user)."""
    rng = np.random.default_rng(d)
    est = RandomSubspaceClassifier(n_estimators=3, random_state=0).fit(
        rng.normal(size=(12, d)), np.arange(12) % 2)
    assert est.subspaces_.shape == (3, (d + 1) // 2)

def test_documented_caps():
    """The hard caps named in the docstrings (a changed cap must be deliberate)."""
    from algorithms.ensembles import _bootstrap, _combination, _diversity, _majority_error

    assert (_bootstrap.MAX_DRAWS, _bootstrap.MAX_EXACT_SAMPLES) == (10**8, 10**4)
    assert _majority_error.MAX_EXACT_CLASSIFIERS == 10**4
    assert _combination.MAX_VOTE_ENTRIES == 10**8
    assert _diversity.MAX_COUNT == 2**53
