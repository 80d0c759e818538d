"""Bad-input cases of the trees family's public API (see ``tests/api_fuzz.py``)."""

from __future__ import annotations

import numpy as np

from algorithms.trees import DecisionTreeClassifier
from tests.api_fuzz import Case

#: Sizes of the valid calls: small enough for a fast fuzz, large enough for real splits.
N_SAMPLES, N_FEATURES = 40, 3

#: A leaf has no test: its threshold, split score and impurity decrease are NaN by
#: design (``Tree`` documents the sentinel), as are an oblique leaf's threshold;
#: ``predict_log_proba`` is ``-inf`` for a class a leaf never saw (log 0, as scikit-learn).
LEAF_SENTINELS = frozenset({"threshold", "split_score", "impurity_decrease", "threshold_",
                            "predict_log_proba"})


def classification(rng: np.random.Generator) -> tuple[tuple, dict]:
    """A valid ``fit(X, y)`` call of a binary classifier (shared with the ensembles)."""
    X = rng.normal(size=(N_SAMPLES, N_FEATURES))
    y = (X[:, 0] + 0.5 * rng.normal(size=N_SAMPLES) > 0).astype(np.int64)
    return (X, y), {}


def regression(rng: np.random.Generator) -> tuple[tuple, dict]:
    """A valid ``fit(X, y)`` call of a regressor (shared with the ensembles)."""
    X = rng.normal(size=(N_SAMPLES, N_FEATURES))
    return (X, X[:, 0] + 0.5 * rng.normal(size=N_SAMPLES)), {}


def _counts(rng: np.random.Generator) -> tuple[tuple, dict]:
    return (rng.integers(1, 10, size=3).astype(np.float64),), {}


def _table(rng: np.random.Generator) -> tuple[tuple, dict]:
    return (rng.integers(1, 10, size=(3, 2)).astype(np.float64),), {}


def _fitted_tree(rng: np.random.Generator) -> DecisionTreeClassifier:
    (X, y), _ = classification(rng)
    return DecisionTreeClassifier().fit(X, y)


def _prune_call(rng: np.random.Generator) -> tuple[tuple, dict]:
    est = _fitted_tree(rng)
    (X, y), _ = classification(rng)
    return (est.tree_, X, y), {}


#: Batch axes are documented: a (3, 2) count array is three sets of two classes, so an
#: extra last axis is a valid batch of one-class sets (impurity 0), not an error.
_BATCH = frozenset({"counts-extra-axis"})
_TABLE_BATCH = frozenset({"table-extra-axis"})

CASES: dict[str, Case] = {
    "DecisionTreeClassifier": Case(call=classification, nan_ok=LEAF_SENTINELS,
                                   invalid={"validation_fraction": [0.0, 1.0, -0.5]}),
    "DecisionTreeRegressor": Case(call=regression, nan_ok=LEAF_SENTINELS),
    "GradientBoostingClassifier": Case(call=classification, init=lambda: {"n_estimators": 5},
                                       nan_ok=LEAF_SENTINELS),
    "GradientBoostingRegressor": Case(call=regression, init=lambda: {"n_estimators": 5},
                                      nan_ok=LEAF_SENTINELS),
    "ObliqueDecisionTreeClassifier": Case(call=classification, nan_ok=LEAF_SENTINELS),
    "Tree": Case(skip="the fitted-structure dataclass (built by the growers, not by users)"),
    "entropy": Case(call=_counts, accept=_BATCH),
    "gini": Case(call=_counts, accept=_BATCH),
    "gain": Case(call=_table, accept=_TABLE_BATCH),
    "gain_ratio": Case(call=_table, accept=_TABLE_BATCH),
    "gini_index": Case(call=_table, accept=_TABLE_BATCH),
    # a 1-d table is the documented form "the sizes |D^v| alone"
    "intrinsic_value": Case(call=_table, accept=_TABLE_BATCH | {"table-ravel"}),
    "export_text": Case(call=lambda rng: ((_fitted_tree(rng),), {"decimals": 3})),
    "reduced_error_prune": Case(call=_prune_call, nan_ok=LEAF_SENTINELS,
                                scale_free=frozenset()),
}
