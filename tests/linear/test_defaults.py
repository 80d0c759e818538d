"""The documented default hyperparameters of every linear estimator, pinned.

A changed default changes what every caller gets silently; the docstrings state these
values, so any change must update them and this table together.
"""

from __future__ import annotations

import pytest

import algorithms.linear as linear

DOCUMENTED_DEFAULTS = {
    "LinearRegression": {"fit_intercept": True, "solver": "lstsq", "rcond": None},
    "SimpleLinearRegression": {},
    "Ridge": {"lam": 1.0, "fit_intercept": True, "penalize_intercept": False},
    "Lasso": {"lam": 1.0, "fit_intercept": True, "solver": "cd", "max_iter": 10_000,
              "tol": 1e-8},
    "ElasticNet": {"lam": 1.0, "rho": 0.5, "fit_intercept": True, "solver": "cd",
                   "max_iter": 10_000, "tol": 1e-8},
    "LogLinearRegression": {"fit_intercept": True},
    "GeneralizedLinearModel": {"family": "gaussian", "sigma": 1.0, "lam": 0.0,
                               "fit_intercept": True, "max_iter": 100, "tol": 1e-10,
                               "coef_cap": 1e8},
    "LogisticRegression": {"solver": "newton", "lam": 0.0, "fit_intercept": True,
                           "max_iter": 1000, "tol": 1e-10, "learning_rate": None,
                           "coef_cap": 1e8},
    "SoftmaxRegression": {"parametrisation": "reference", "lam": 0.0, "fit_intercept": True,
                          "max_iter": 200, "tol": 1e-10, "coef_cap": 1e8},
    "LinearDiscriminantAnalysis": {"n_components": None, "reg": 0.0},
    "OneVsRestClassifier": {"estimator": None},
    "OneVsOneClassifier": {"estimator": None},
    "ECOCClassifier": {"estimator": None, "code_matrix": None, "n_columns": None,
                       "ternary": False, "decoding": "hamming", "random_state": None},
    "ThresholdRescalingClassifier": {"estimator": None, "pos_label": None,
                                     "class_ratio": None},
}


def test_every_estimator_has_pinned_defaults():
    estimators = {name for name in linear.__all__ if hasattr(getattr(linear, name), "fit")}
    assert estimators == set(DOCUMENTED_DEFAULTS)


@pytest.mark.parametrize("name", sorted(DOCUMENTED_DEFAULTS))
def test_defaults_are_the_documented_ones(name):
    params = getattr(linear, name)().get_params(deep=False)
    assert params == DOCUMENTED_DEFAULTS[name]


@pytest.mark.parametrize(("name", "shape"), [("LogisticRegression", (24, 1)),
                                             ("SoftmaxRegression", (24, 1))])
def test_column_labels_are_raveled_and_two_columns_refused(name, shape):
    import numpy as np

    rng = np.random.default_rng(0)
    X = rng.normal(size=(24, 2))
    y = (np.arange(24) % 2)
    model = getattr(linear, name)(lam=0.1)
    with pytest.warns(Warning):
        model.fit(X, y.reshape(shape))
    assert model.classes_.tolist() == [0, 1]
    with pytest.raises(ValueError, match="1d array"):
        getattr(linear, name)(lam=0.1).fit(X, np.column_stack([y, y]))


@pytest.mark.parametrize("n_classes", [3, 4, 7])
def test_ecoc_default_code_length_is_the_documented_one(n_classes):
    import math

    import numpy as np

    rng = np.random.default_rng(n_classes)
    y = np.arange(12 * n_classes) % n_classes
    X = rng.normal(size=(y.size, 2)) + y[:, None]
    model = linear.ECOCClassifier(linear.LogisticRegression(lam=0.1), random_state=0).fit(X, y)
    assert model.code_matrix_.shape == (n_classes, math.ceil(10 * math.log2(n_classes)))


#: The documented keyword defaults of the family's functions (their docstrings state them;
#: lasso_path and elastic_net_path take solver, max_iter and tol from solve_l1_l2's).
DOCUMENTED_FUNCTION_DEFAULTS = {
    "solve_l1_l2": {"l2": 0.0, "solver": "cd", "max_iter": 10_000, "tol": 1e-8,
                    "coef_init": None, "refine": True},
    "lasso_path": {"lams": None, "n_lams": 50, "eps": 1e-3, "fit_intercept": True,
                   "solver": "cd", "max_iter": 10_000, "tol": 1e-8},
    "elastic_net_path": {"rho": 0.5, "lams": None, "n_lams": 50, "eps": 1e-3,
                         "fit_intercept": True, "solver": "cd", "max_iter": 10_000,
                         "tol": 1e-8},
    "ridge_path": {"fit_intercept": True},
}


@pytest.mark.parametrize("name", sorted(DOCUMENTED_FUNCTION_DEFAULTS))
def test_function_defaults_are_the_documented_ones(name):
    import inspect

    params = inspect.signature(getattr(linear, name)).parameters
    defaults = {k: p.default for k, p in params.items() if p.default is not inspect.Parameter.empty}
    assert defaults == DOCUMENTED_FUNCTION_DEFAULTS[name]
