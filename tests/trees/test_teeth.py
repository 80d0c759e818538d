"""The decision-tree checks have teeth: the very check bodies the claims use refute
deliberately broken variants (a constant scaled, a sign flipped, a weight dropped, an
argmax turned into an argmin, a rule made non-strict)."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest
import sympy as sp
from hypothesis import given
from hypothesis import strategies as st

from algorithms.trees import (
    GradientBoostingClassifier,
    GradientBoostingRegressor,
    ObliqueDecisionTreeClassifier,
    entropy,
    gini,
    reduced_error_prune,
)
from mltheory.strategies import separable_datasets
from mltheory.symbolic import Derivation
from mltheory.testing import assert_holds, assert_refutes
from properties.trees import strategies as strategies_module
from properties.trees.gbdt import (
    binary_problems,
    check_additive_square,
    check_monotone_losses,
    regression_problems,
)
from properties.trees.generate import check_stopping_cases
from properties.trees.impurity import (
    check_entropy_purity_order,
    check_entropy_range,
    check_gain_nonnegative,
    check_gini_index,
    check_gini_range,
    check_iv_range,
)
from properties.trees.missing import check_child_weights, check_rho_by_counts
from properties.trees.oblique import check_depth_limit, check_depth_structure, check_linear_tests
from properties.trees.pruning import (
    check_post_contains_pre,
    check_postpruning,
    check_prepruning_rule,
    pruning_datasets,
    small_pruning_datasets,
)
from properties.trees.splits import check_agrees_with_sklearn, check_same_partition_on_interval
from properties.trees.strategies import (
    class_counts,
    contingency_tables,
    continuous_datasets,
    discrete_datasets,
    missing_datasets,
)
from properties.trees.support import check_root_choice, fit_tree

# ---------------------------------------------------------------------------
# Impurity measures
# ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "broken",
    [
        lambda c: entropy(c) * np.log(2.0),  # natural logarithm instead of log2
        lambda c: entropy(c) / 2,  # constant halved
        lambda c: entropy(np.append(c, c.sum())),  # an extra class
    ],
    ids=["nats", "halved", "extra-class"],
)
def test_entropy_range_check_refutes_broken_entropies(broken):
    @given(counts=class_counts())
    def check(counts):
        check_entropy_range(counts, ent=broken)

    assert_refutes(check)


@pytest.mark.parametrize(
    ("check", "ceiling"),
    [
        ("entropy", lambda K: math.log2(K) / 2),  # log2 K halved
        ("entropy", lambda K: math.log(K)),  # the base 2 replaced by e
        ("gini", lambda K: (1 - Fraction(1, K)) / 2),  # 1 - 1/K halved
        ("gini", lambda K: Fraction(1)),  # the 1/K dropped
        ("iv", lambda V: math.log2(V) / 2),  # log2 V halved
    ],
    ids=["ent-halved", "ent-nats", "gini-halved", "gini-1/K-dropped", "iv-halved"],
)
def test_range_checks_refute_each_ceiling_constant_changed(check, ceiling):
    if check == "iv":
        @given(table=contingency_tables(max_values=10))
        def broken(table):
            check_iv_range(table, ceiling=ceiling)
    else:
        body = check_entropy_range if check == "entropy" else check_gini_range

        @given(counts=class_counts())
        def broken(counts):
            body(counts, ceiling=ceiling)

    assert_refutes(broken)


@pytest.mark.parametrize("impurity", [entropy, gini], ids=["entropy", "gini"])
def test_purity_order_check_refutes_a_sign_flipped_impurity(impurity):
    @given(counts=class_counts(), i=st.integers(0, 5), j=st.integers(0, 5),
           amount=st.floats(0, 1))
    def check(counts, i, j, amount):
        K = counts.shape[0]
        check_entropy_purity_order(counts, i % K, j % K, amount, ent=lambda p: -impurity(p))

    assert_refutes(check)


def _unweighted_gain(table):
    rows = table[table.sum(axis=1) > 0]
    return entropy(table.sum(axis=0)) - np.mean([entropy(r) for r in rows])


def test_gain_check_refutes_children_averaged_without_their_sizes():
    @given(table=contingency_tables())
    def check(table):
        check_gain_nonnegative(table, gain_fn=_unweighted_gain)

    r = assert_refutes(check)
    assert "-Gain (must stay <= 0)" in r.evidence.metrics or r.counterexample


def test_iv_check_refutes_a_doubled_intrinsic_value():
    @given(table=contingency_tables(max_values=10))
    def check(table):
        from algorithms.trees import intrinsic_value

        check_iv_range(table, iv=lambda t: 2 * intrinsic_value(t))

    assert_refutes(check)


@pytest.mark.parametrize(
    "broken",
    [lambda c: 1 - np.sum(c / c.sum()) ** 2 + gini(c) * 0,  # (sum p)^2 instead of sum p^2
     lambda c: 2 * gini(c)],  # constant doubled
    ids=["square-of-sum", "doubled"],
)
def test_gini_range_check_refutes_broken_gini(broken):
    @given(counts=class_counts())
    def check(counts):
        check_gini_range(counts, gini_fn=broken)

    assert_refutes(check)


def test_gini_index_check_refutes_an_unweighted_average():
    def unweighted(table):
        rows = table[table.sum(axis=1) > 0]
        return float(np.mean([gini(r) for r in rows]))

    @given(table=contingency_tables())
    def check(table):
        check_gini_index(table, index_fn=unweighted)

    assert_refutes(check)


def test_gini_derivation_names_the_failing_step_of_a_wrong_identity():
    p1 = sp.symbols("p1", positive=True)
    d = Derivation("broken (2.5)")
    d.equal("(2.5) with sum p instead of sum p^2", 2 * p1 * (1 - p1), 1 - (p1 + (1 - p1)))
    with pytest.raises(AssertionError, match="step 1"):
        d.verify()


# ---------------------------------------------------------------------------
# Split choice, bi-partition, scikit-learn reference
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("criterion", ["entropy", "gini", "gain_ratio"])
def test_root_choice_check_refutes_an_argmin_reference(criterion):
    @given(data=discrete_datasets() | continuous_datasets())
    def check(data):
        pick = (lambda refs: min(r.gain_ratio for r in refs)) if criterion == "gain_ratio" \
            else (lambda refs: min(r.decrease for r in refs))
        check_root_choice(data, criterion, choose=pick)

    assert_refutes(check)


def test_binary_choice_check_refutes_an_argmin_reference():
    @given(data=discrete_datasets(max_values=5))
    def check(data):
        check_root_choice(data, "gini", binary=True,
                          choose=lambda refs: min(r.decrease for r in refs))

    assert_refutes(check)


def test_root_choice_check_refutes_a_doubled_optimum():
    @given(data=discrete_datasets())
    def check(data):
        check_root_choice(data, "entropy", choose=lambda refs: 2 * max(r.decrease for r in refs))

    assert_refutes(check)


def test_half_open_interval_check_holds_and_closed_one_refutes():
    @given(data=continuous_datasets())
    def half_open(data):
        check_same_partition_on_interval(data, closed=False)

    @given(data=continuous_datasets())
    def closed(data):
        check_same_partition_on_interval(data, closed=True)

    assert_holds(half_open)
    assert_refutes(closed)


def test_sklearn_check_refutes_a_tree_grown_with_the_other_criterion():
    @given(data=continuous_datasets(max_samples=40))
    def check(data):
        check_agrees_with_sklearn(data, "entropy", ours_model=fit_tree(data, criterion="gini"))

    assert_refutes(check)


def test_sklearn_check_refutes_a_depth_limited_tree():
    @given(data=continuous_datasets(max_samples=40))
    def check(data):
        check_agrees_with_sklearn(data, "gini", ours_model=fit_tree(data, criterion="gini",
                                                                    max_depth=1))

    assert_refutes(check)


def test_many_class_root_check_refutes_the_other_criterion_and_a_dropped_class():
    """On the 41-class scenario of tree.root_split_many_classes: a Gini stump checked as
    an entropy one, and a stump grown with the last class merged into the first (a sum
    over |Y| - 1 classes), are both refuted by the claim's body."""
    from properties.trees.splits import many_class_data
    from properties.trees.strategies import TreeData

    def check(rng):
        data = many_class_data(rng)
        check_agrees_with_sklearn(data, "entropy",
                                  ours_model=fit_tree(data, criterion="gini", max_depth=1))

    def merged(rng):
        data = many_class_data(rng)
        K = data.n_classes
        short = TreeData(data.X, np.where(data.y == K - 1, 0, data.y), data.discrete, data.w)
        check_agrees_with_sklearn(data, "gini",
                                  ours_model=fit_tree(short, criterion="gini", max_depth=1))

    assert_refutes(check)
    assert_refutes(merged)


# ---------------------------------------------------------------------------
# TreeGenerate, missing values
# ---------------------------------------------------------------------------


def test_stopping_check_refutes_a_stump():
    @given(data=discrete_datasets() | continuous_datasets())
    def check(data):
        check_stopping_cases(data, fit_tree(data, max_depth=1))

    assert_refutes(check)


def test_rho_by_counts_holds_without_missing_values():
    @given(data=discrete_datasets())
    def check(data):
        check_rho_by_counts(data, fit_tree(data))

    assert_holds(check)


def test_child_weight_check_refutes_equal_shares():
    @given(data=missing_datasets())
    def check(data):
        model = fit_tree(data)
        tree = model.tree_
        for t in np.flatnonzero(~tree.is_leaf):
            kids = tree.children(t)
            tree.missing_share[kids] = 1.0 / kids.size
        check_child_weights(data, model)

    assert_refutes(check)


# ---------------------------------------------------------------------------
# Pruning
# ---------------------------------------------------------------------------


def test_prepruning_check_refutes_a_non_strict_rule():
    @given(data=pruning_datasets)
    def check(data):
        check_prepruning_rule(data, "entropy", strict=False)

    assert_refutes(check)


@pytest.mark.parametrize(
    "prune",
    [
        lambda full, X, y: reduced_error_prune(full, X, y, keep_ties=True),  # keeps ties
        lambda full, X, y: full,  # no pruning
        lambda full, X, y: full.without_subtrees(np.array([0])),  # prunes everything
    ],
    ids=["keep-ties", "none", "root-only"],
)
def test_postpruning_check_refutes_broken_pruners(prune):
    @given(data=small_pruning_datasets)
    def check(data):
        check_postpruning(data, "entropy", prune=prune)

    assert_refutes(check)


def test_post_contains_pre_holds_on_the_claims_data():
    @given(data=pruning_datasets)
    def check(data):
        check_post_contains_pre(data, "gini")

    assert_holds(check)


# ---------------------------------------------------------------------------
# GBDT
# ---------------------------------------------------------------------------


def test_square_loss_monotonicity_refutes_a_step_beyond_two():
    @given(problem=regression_problems(), rounds=st.integers(1, 6))
    def check(problem, rounds):
        X, y, w = problem
        model = GradientBoostingRegressor(n_estimators=rounds, learning_rate=2.5,
                                          max_depth=2).fit(X, y, sample_weight=w)
        check_monotone_losses(model.train_loss_)

    assert_refutes(check)


def test_logistic_monotonicity_refutes_a_far_too_long_step():
    @given(problem=binary_problems(), rounds=st.integers(2, 6))
    def check(problem, rounds):
        X, y, w = problem
        model = GradientBoostingClassifier(n_estimators=rounds, learning_rate=40.0, max_depth=2,
                                           leaf_update="gradient").fit(X, y, sample_weight=w)
        check_monotone_losses(model.train_loss_)

    assert_refutes(check)


def test_additive_check_refutes_a_misreported_shrinkage():
    @given(problem=regression_problems())
    def check(problem):
        X, y, w = problem
        model = GradientBoostingRegressor(n_estimators=3, learning_rate=0.5).fit(
            X, y, sample_weight=w)
        model.learning_rate = 0.25
        check_additive_square(model, X, y, w)

    assert_refutes(check)


# ---------------------------------------------------------------------------
# Multivariate trees
# ---------------------------------------------------------------------------


def test_linear_test_check_refutes_flipped_node_directions():
    @given(data=separable_datasets(max_samples=25), seed=st.integers(0, 100))
    def check(data, seed):
        model = ObliqueDecisionTreeClassifier().fit(data.X, data.y)
        model.coef_ = -model.coef_
        check_linear_tests(model, data.X, data.y, np.random.default_rng(seed))

    assert_refutes(check)


# ---------------------------------------------------------------------------
# Simulations: the same decision rule refutes the reversed preference
# ---------------------------------------------------------------------------


def test_gain_bias_decision_refutes_the_reversed_preference():
    from properties.trees.splits import BIAS_TRIALS, bias_trials, check_preference

    def check(rng):
        g_few, g_many, _, _ = bias_trials(rng, BIAS_TRIALS)
        check_preference(g_few, g_many, label="P(Gain(V) > Gain(2V))")

    assert_refutes(check)


def test_multivariate_decision_refutes_the_reversed_preference():
    from mltheory.stats import check_probability_at_least
    from properties.trees.oblique import OBLIQUE_TRIALS, oblique_and_axis_sizes

    def check(rng):
        sizes = oblique_and_axis_sizes(rng, OBLIQUE_TRIALS)
        check_probability_at_least(int(np.count_nonzero(sizes[:, 1] < sizes[:, 0])),
                                   sizes.shape[0], 0.5, label="P(univariate smaller)")

    assert_refutes(check)


@pytest.mark.parametrize("field", ["impurity_decrease", "impurity"])
def test_node_statistics_check_refutes_a_misrecorded_node(field):
    from properties.trees.splits import check_node_statistics

    @given(data=continuous_datasets(weighted=True))
    def tampered(data):
        model = fit_tree(data, criterion="gini")
        values = getattr(model.tree_, field)
        setattr(model.tree_, field, np.where(np.isnan(values), values, 1.5 * values + 0.01))
        check_node_statistics(model, "gini")

    assert_refutes(tampered)


def test_min_decrease_check_refutes_a_rule_that_stops_at_a_tie_or_ignores_the_minimum():
    """The rule run as "split only above the minimum" (a tie stops: the minimum nudged up
    one ulp) and a rule ignoring the minimum are both refuted by the claim's body."""
    from properties.trees.splits import check_min_decrease_rule

    def strict(data, **kwargs):
        if kwargs.get("min_impurity_decrease", 0.0) > 0:
            kwargs["min_impurity_decrease"] = np.nextafter(kwargs["min_impurity_decrease"], np.inf)
        return fit_tree(data, **kwargs)

    def ignored(data, **kwargs):
        kwargs.pop("min_impurity_decrease", None)
        return fit_tree(data, **kwargs)

    @given(data=continuous_datasets(weighted=True), criterion=st.sampled_from(["entropy", "gini"]))
    def at_tie(data, criterion):
        check_min_decrease_rule(data, criterion, "root", fit=strict)

    @given(data=continuous_datasets(weighted=True), criterion=st.sampled_from(["entropy", "gini"]),
           min_decrease=st.sampled_from([0.05, 0.2]))
    def no_rule(data, criterion, min_decrease):
        check_min_decrease_rule(data, criterion, min_decrease, fit=ignored)

    assert_refutes(at_tie)
    assert_refutes(no_rule)


def test_newton_leaf_check_refutes_a_wrong_curvature():
    """Leaves set with p (1 + p) in place of p (1 - p), as a mutant of the loop would."""
    from properties.trees.gbdt import check_newton_leaves

    @given(problem=binary_problems())
    def wrong(problem):
        X, y, w = problem
        model = GradientBoostingClassifier(n_estimators=3, max_depth=2).fit(X, y, sample_weight=w)
        for (tree,) in model.estimators_:
            p = 0.5  # any p in (0, 1): (1 - p) / (1 + p) < 1 rescales every Newton step
            tree.tree_.value *= (1 - p) / (1 + p)
        check_newton_leaves(model, X, y, w)

    assert_refutes(wrong)


def _xor_grid():
    g = np.linspace(-1.0, 1.0, 6)
    X = np.array([(a, b) for a in g for b in g])
    return X, ((X[:, 0] > 0) ^ (X[:, 1] > 0)).astype(int)


def test_depth_checks_hold_and_refute_a_tree_one_level_short():
    X, y = _xor_grid()
    full = ObliqueDecisionTreeClassifier(node_model="lda").fit(X, y)
    assert full.depth_.max() >= 3
    check_depth_limit(full, ObliqueDecisionTreeClassifier(node_model="lda", max_depth=2)
                      .fit(X, y), 2)
    short = ObliqueDecisionTreeClassifier(node_model="lda", max_depth=1).fit(X, y)
    with pytest.raises(AssertionError, match="max_depth=2"):
        check_depth_limit(full, short, 2)


def test_depth_structure_refutes_shifted_depths():
    X, y = _xor_grid()
    model = ObliqueDecisionTreeClassifier(node_model="lda").fit(X, y)
    check_depth_structure(model)
    model.depth_ = model.depth_ + 1
    with pytest.raises(AssertionError, match="root"):
        check_depth_structure(model)
    model.depth_ = model.depth_ - 1
    model.depth_[-1] += 1
    with pytest.raises(AssertionError, match="parent"):
        check_depth_structure(model)


def test_fit_tree_declares_discrete_columns_both_ways():
    """Masks for even sample counts, indices for odd: the claims run both forms."""
    rng = np.random.default_rng(0)
    for m in (10, 11):
        X = np.column_stack([rng.integers(0, 3, m), rng.normal(size=m)]).astype(float)
        y = (X[:, 0] == 1).astype(int)
        data = strategies_module.TreeData(X, y, np.array([True, False]), np.ones(m))
        model = fit_tree(data)
        assert model.tree_.categorical[0], "the discrete column was split as continuous"
