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
