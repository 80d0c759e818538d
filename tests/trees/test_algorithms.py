"""Behaviour and bad input of the decision-tree estimators."""

from __future__ import annotations

import numpy as np
import pytest

from algorithms.trees import DecisionTreeClassifier, DecisionTreeRegressor


def test_fully_grown_tree_fits_distinct_training_points():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(200, 4))
    y = rng.integers(0, 3, size=200)
    for criterion in ("entropy", "gain_ratio", "gini"):
        model = DecisionTreeClassifier(criterion=criterion).fit(X, y)
        assert model.score(X, y) == 1.0


def test_max_features_subsets_are_redrawn_per_node():
    rng = np.random.default_rng(1)
    X = rng.normal(size=(300, 8))
    y = (X[:, 0] + X[:, 1] > 0).astype(int)
    model = DecisionTreeClassifier(max_features=2, random_state=0).fit(X, y)
    used = set(model.tree_.feature[~model.tree_.is_leaf].tolist())
    assert len(used) > 2


def test_integer_weights_equal_repetition():
    rng = np.random.default_rng(2)
    X = rng.normal(size=(150, 3))
    y = rng.integers(0, 2, size=150)
    w = rng.integers(0, 3, size=150)
    a = DecisionTreeClassifier().fit(X, y, sample_weight=w)
    b = DecisionTreeClassifier().fit(np.repeat(X, w, axis=0), np.repeat(y, w))
    assert np.array_equal(a.predict(X), b.predict(X))


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"criterion": "bogus"}, "criterion"),
        ({"max_depth": 0}, "max_depth"),
        ({"min_samples_split": 1}, "min_samples_split"),
        ({"max_features": 0}, "max_features"),
        ({"max_features": "half"}, "max_features"),
        ({"missing": "drop"}, "missing"),
    ],
)
def test_bad_hyperparameters_name_the_argument(kwargs, match):
    X = np.array([[0.0], [1.0], [2.0], [3.0]])
    y = np.array([0, 0, 1, 1])
    with pytest.raises(ValueError, match=match):
        DecisionTreeClassifier(**kwargs).fit(X, y)


def test_nan_refused_without_missing_mode_and_accepted_with_it():
    X = np.array([[0.0], [np.nan], [2.0], [3.0]])
    y = np.array([0, 0, 1, 1])
    with pytest.raises(ValueError, match="NaN"):
        DecisionTreeClassifier().fit(X, y)
    model = DecisionTreeClassifier(missing="weighted").fit(X, y)
    assert np.allclose(model.predict_proba(X).sum(axis=1), 1.0)


def test_all_zero_weights_refused():
    X = np.array([[0.0], [1.0]])
    with pytest.raises(ValueError, match="[Ss]ample.weight"):
        DecisionTreeRegressor().fit(X, [0.0, 1.0], sample_weight=[0.0, 0.0])


# ---------------------------------------------------------------------------
# Bad input, every estimator of the family
# ---------------------------------------------------------------------------

from algorithms.trees import (  # noqa: E402
    GradientBoostingClassifier,
    GradientBoostingRegressor,
    ObliqueDecisionTreeClassifier,
    entropy,
    export_text,
    gain,
    gain_ratio,
    gini,
    gini_index,
)

CLASSIFIERS = [DecisionTreeClassifier, GradientBoostingClassifier, ObliqueDecisionTreeClassifier]
REGRESSORS = [DecisionTreeRegressor, GradientBoostingRegressor]
ESTIMATORS = CLASSIFIERS + REGRESSORS
X_OK = np.array([[0.0, 1.0], [1.0, 0.0], [2.0, 1.0], [3.0, 0.0]])
Y_OK = np.array([0, 0, 1, 1])


@pytest.mark.parametrize("cls", ESTIMATORS)
@pytest.mark.parametrize(
    ("X", "y", "match"),
    [
        (np.array([[0.0, np.inf], [1.0, 0.0], [2.0, 1.0], [3.0, 0.0]]), Y_OK, "infinity|inf"),
        (np.array([[0.0, np.nan], [1.0, 0.0], [2.0, 1.0], [3.0, 0.0]]), Y_OK, "NaN"),
        (np.array([0.0, 1.0, 2.0, 3.0]), Y_OK, "2D array"),
        (np.empty((0, 2)), np.empty(0), "0 sample"),
        (X_OK, Y_OK[:3], "inconsistent numbers of samples"),
    ],
    ids=["inf", "nan", "1d", "empty", "lengths"],
)
def test_bad_data_is_refused(cls, X, y, match):
    with pytest.raises(ValueError, match=match):
        cls().fit(X, y)


@pytest.mark.parametrize("cls", CLASSIFIERS)
def test_one_class_is_refused(cls):
    with pytest.raises(ValueError, match="class"):
        cls().fit(X_OK, np.zeros(4))


@pytest.mark.parametrize("cls", [DecisionTreeClassifier, DecisionTreeRegressor,
                                 GradientBoostingClassifier, GradientBoostingRegressor])
@pytest.mark.parametrize("weights", [[1.0, -1.0, 1.0, 1.0], [1.0, np.nan, 1.0, 1.0], [1.0, 1.0]],
                         ids=["negative", "nan", "length"])
def test_bad_sample_weights_are_refused(cls, weights):
    with pytest.raises(ValueError, match="[Ss]ample.weight|NaN|shape"):
        cls().fit(X_OK, Y_OK, sample_weight=np.array(weights))


@pytest.mark.parametrize("cls", ESTIMATORS)
def test_predict_checks_the_number_of_features(cls):
    model = cls().fit(X_OK, Y_OK)
    with pytest.raises(ValueError, match="features"):
        model.predict(X_OK[:, :1])


@pytest.mark.parametrize(
    ("cls", "kwargs", "match"),
    [
        (GradientBoostingRegressor, {"n_estimators": 0}, "n_estimators"),
        (GradientBoostingRegressor, {"learning_rate": 0.0}, "learning_rate"),
        (GradientBoostingClassifier, {"leaf_update": "exact"}, "leaf_update"),
        (GradientBoostingClassifier, {"max_depth": 0}, "max_depth"),
        (ObliqueDecisionTreeClassifier, {"node_model": "svm"}, "node_model"),
        (ObliqueDecisionTreeClassifier, {"criterion": "gain_ratio"}, "criterion"),
        (DecisionTreeClassifier, {"categorical_features": [5]}, "categorical_features"),
        (DecisionTreeClassifier, {"categorical_features": [True]}, "categorical_features"),
        (DecisionTreeClassifier, {"pruning": "both"}, "pruning"),
        (DecisionTreeClassifier, {"pruning": "post", "validation_fraction": 1.0},
         "validation_fraction"),
        (DecisionTreeClassifier, {"above_average_gain": 1}, "above_average_gain"),
        (DecisionTreeClassifier, {"max_features": 1.5}, "max_features"),
        (DecisionTreeClassifier, {"min_samples_leaf": 0}, "min_samples_leaf"),
        (DecisionTreeClassifier, {"min_impurity_decrease": -1.0}, "min_impurity_decrease"),
        (DecisionTreeRegressor, {"criterion": "entropy"}, "criterion"),
        (DecisionTreeRegressor, {"discrete_split": "ternary"}, "discrete_split"),
    ],
)
def test_bad_hyperparameters_of_every_estimator(cls, kwargs, match):
    with pytest.raises(ValueError, match=match):
        cls(**kwargs).fit(X_OK, Y_OK)


def test_validation_set_must_be_a_pair_with_known_labels():
    with pytest.raises(ValueError, match="validation_set"):
        DecisionTreeClassifier(pruning="pre").fit(X_OK, Y_OK, validation_set=X_OK)
    with pytest.raises(ValueError, match="labels outside"):
        DecisionTreeClassifier(pruning="pre").fit(X_OK, Y_OK, validation_set=(X_OK, [0, 1, 2, 1]))


@pytest.mark.parametrize(
    ("fn", "arg", "match"),
    [
        (entropy, [1.0, -1.0], "non-negative"),
        (entropy, [0.0, 0.0], "positive total"),
        (gini, [[np.nan, 1.0]], "finite"),
        (gain_ratio, [[2, 3]], "IV"),
    ],
)
def test_impurity_functions_refuse_bad_counts(fn, arg, match):
    with pytest.raises(ValueError, match=match):
        fn(arg)


# ---------------------------------------------------------------------------
# Behaviour
# ---------------------------------------------------------------------------


def test_discrete_attribute_split_multiway_and_unseen_value_stops_at_the_node():
    X = np.array([[0.0], [1.0], [2.0], [0.0], [1.0], [2.0]])
    y = np.array([0, 1, 2, 0, 1, 2])
    model = DecisionTreeClassifier(categorical_features=[0]).fit(X, y)
    assert model.tree_.n_children[0] == 3 and model.score(X, y) == 1.0
    assert np.allclose(model.predict_proba([[7.0]]), model.tree_.value[0])


def test_missing_values_are_routed_fractionally():
    X = np.array([[0.0], [0.0], [0.0], [1.0], [np.nan]])
    y = np.array([0, 0, 0, 1, 1])
    model = DecisionTreeClassifier(missing="weighted").fit(X, y)
    assert np.allclose(model.tree_.missing_share[model.tree_.children(0)], [0.75, 0.25])
    # left leaf (3, 0.75 of the NaN sample), right leaf (1 + 0.25): 0.75 (0.8, 0.2) + 0.25 (0, 1)
    assert np.allclose(model.predict_proba([[np.nan]]), [[0.6, 0.4]])
    with pytest.raises(ValueError, match="fractionally"):
        model.apply([[np.nan]])


def test_pruning_shrinks_the_tree_on_noisy_labels():
    rng = np.random.default_rng(3)
    X = rng.normal(size=(300, 3))
    y = (X[:, 0] > 0).astype(int) ^ (rng.random(300) < 0.2)
    sizes = {p: DecisionTreeClassifier(pruning=p, random_state=0).fit(X, y).get_n_leaves()
             for p in (None, "pre", "post")}
    assert sizes["pre"] <= sizes["post"] < sizes[None]


def test_export_text_renders_tests_and_leaves():
    model = DecisionTreeClassifier(max_depth=1).fit(X_OK, Y_OK)
    text = export_text(model, feature_names=["a", "b"])
    assert "a <= 1.500" in text and "class: 1" in text
    with pytest.raises(ValueError, match="feature_names"):
        export_text(model, feature_names=["a"])


def test_feature_importances_sum_to_one():
    model = DecisionTreeClassifier().fit(X_OK, Y_OK)
    assert np.isclose(model.feature_importances_.sum(), 1.0)


def test_gbdt_staged_predictions_end_at_the_final_model():
    model = GradientBoostingRegressor(n_estimators=5).fit(X_OK, Y_OK.astype(float))
    staged = list(model.staged_predict(X_OK))
    assert len(staged) == 5 and np.allclose(staged[-1], model.predict(X_OK))
    clf = GradientBoostingClassifier(n_estimators=5).fit(X_OK, Y_OK)
    assert np.allclose(list(clf.staged_predict_proba(X_OK))[-1], clf.predict_proba(X_OK))


def test_oblique_tree_separates_a_diagonal_boundary_with_one_test():
    rng = np.random.default_rng(4)
    X = rng.uniform(-1, 1, size=(200, 2))
    X = X[np.abs(X[:, 0] + X[:, 1]) > 0.1]
    y = (X[:, 0] + X[:, 1] > 0).astype(int)
    model = ObliqueDecisionTreeClassifier(node_model="logistic").fit(X, y)
    assert model.get_depth() == 1 and model.score(X, y) == 1.0


def test_cart_binary_splits_group_discrete_values_and_reuse_the_attribute():
    rng = np.random.default_rng(5)
    X = rng.integers(0, 5, size=(300, 2)).astype(float)
    y = np.isin(X[:, 0], [1, 3]).astype(int)
    model = DecisionTreeClassifier(criterion="gini", categorical_features=[0, 1],
                                   discrete_split="binary").fit(X, y)
    assert model.tree_.node_count == 3 and model.score(X, y) == 1.0
    assert set(model.tree_.subset(0).tolist()) in ({1.0, 3.0}, {0.0, 2.0, 4.0})
    assert "x0 in {" in export_text(model)
    # an unseen value is not in the subset: it takes the second branch
    assert model.apply([[9.0, 0.0]])[0] == model.tree_.children(0)[1]


def test_binary_split_refuses_too_many_values_at_a_node():
    X = np.arange(40, dtype=float)[:, None]
    y = np.arange(40) % 2
    with pytest.raises(ValueError, match="discrete_split"):
        DecisionTreeClassifier(categorical_features=[0], discrete_split="binary").fit(X, y)


def test_regression_tree_is_scale_robust():
    """Issue 13: a target of size 1e-300 grows the same tree (rescaled internally, the
    fitted values scaled back); a target whose squares overflow is refused naming y."""
    rng = np.random.default_rng(1)
    X = rng.normal(size=(60, 3))
    y = X[:, 0] + rng.normal(size=60)
    plain = DecisionTreeRegressor().fit(X, y).tree_
    tiny = DecisionTreeRegressor().fit(X, y * 1e-300).tree_
    assert np.array_equal(plain.feature, tiny.feature)
    assert np.array_equal(plain.threshold, tiny.threshold, equal_nan=True)
    assert np.allclose(plain.value * 1e-300, tiny.value, rtol=1e-12, atol=0.0)
    with pytest.raises(ValueError, match=r"\by\b"):
        DecisionTreeRegressor().fit(X, y * 1e300)


def test_impurities_of_extreme_counts():
    """Issue 13: the measures depend on ratios of counts only, at any magnitude."""
    table = np.array([[3.0, 1.0], [2.0, 5.0], [0.0, 4.0]])
    for scale in (1e300, 1e-300):
        assert gini_index(table * scale) == pytest.approx(gini_index(table), rel=1e-12)
        assert gain(table * scale) == pytest.approx(gain(table), rel=1e-12)
        assert entropy(table[1] * scale) == pytest.approx(entropy(table[1]), rel=1e-12)


#: The documented defaults (the docstrings'); a changed default must be deliberate.
DOCUMENTED_DEFAULTS = {
    DecisionTreeClassifier: {
        "criterion": "entropy", "max_depth": None, "min_samples_split": 2,
        "min_samples_leaf": 1, "min_impurity_decrease": 0.0, "max_features": None,
        "categorical_features": None, "discrete_split": "multiway", "missing": "error",
        "above_average_gain": False, "pruning": None, "validation_fraction": 0.3,
        "random_state": None},
    DecisionTreeRegressor: {
        "criterion": "squared_error", "max_depth": None, "min_samples_split": 2,
        "min_samples_leaf": 1, "min_impurity_decrease": 0.0, "max_features": None,
        "categorical_features": None, "discrete_split": "multiway", "missing": "error",
        "random_state": None},
    GradientBoostingClassifier: {
        "n_estimators": 100, "learning_rate": 0.1, "max_depth": 3, "min_samples_split": 2,
        "min_samples_leaf": 1, "max_features": None, "leaf_update": "newton",
        "random_state": None},
    GradientBoostingRegressor: {
        "n_estimators": 100, "learning_rate": 0.1, "max_depth": 3, "min_samples_split": 2,
        "min_samples_leaf": 1, "max_features": None, "random_state": None},
    ObliqueDecisionTreeClassifier: {
        "node_model": "lda", "criterion": "entropy", "max_depth": None,
        "min_samples_split": 2, "min_samples_leaf": 1},
}


@pytest.mark.parametrize("cls", list(DOCUMENTED_DEFAULTS), ids=lambda c: c.__name__)
def test_defaults_are_the_documented_ones(cls):
    assert cls().get_params() == DOCUMENTED_DEFAULTS[cls]


def test_export_text_indents_by_depth():
    """The whole rendering of a depth-2 tree: one '|   ' per level, tests then leaves."""
    X = np.array([[0.0, 1.0], [1.0, 0.0], [2.0, 1.0], [3.0, 0.0], [4.0, 1.0], [5.0, 0.0]])
    model = DecisionTreeClassifier(max_depth=2).fit(X, np.array([0, 0, 1, 1, 0, 0]))
    assert export_text(model, feature_names=["a", "b"]) == (
        "|--- a <= 1.500\n"
        "|   |--- class: 0 (samples=2, impurity=0.000)\n"
        "|--- a >  1.500\n"
        "|   |--- a <= 3.500\n"
        "|   |   |--- class: 1 (samples=2, impurity=0.000)\n"
        "|   |--- a >  3.500\n"
        "|   |   |--- class: 0 (samples=2, impurity=0.000)\n"
    )


def test_max_zero_is_numpys_maximum_with_zero():
    """The scalar clip of the two-row split search takes the values of
    ``np.maximum(x, 0.0)`` (its documented contract): a rounding-negative squared error or
    count becomes 0, NaN stays NaN (the sign of a zero is not compared)."""
    from algorithms.trees._criteria import max_zero

    for x in (-1.0, -1e-300, -5e-324, -np.inf, -0.0, 0.0, 5e-324, 2.5, np.inf, np.nan):
        got, want = max_zero(x), float(np.maximum(x, 0.0))
        assert np.array_equal(got, want, equal_nan=True), (x, got, want)
