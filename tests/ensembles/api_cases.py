"""Bad-input cases of the ensembles family's public API (see ``tests/api_fuzz.py``)."""

from __future__ import annotations

import numpy as np
from sklearn.linear_model import LinearRegression, LogisticRegression

from algorithms.ensembles import ContingencyTable, one_hot_votes
from algorithms.trees import DecisionTreeClassifier, DecisionTreeRegressor
from tests.api_fuzz import Case
from tests.trees.api_cases import classification as _classification
from tests.trees.api_cases import regression as _regression

#: Sizes of the valid calls (the training sets are the trees family's: 40 x 3).
N_LEARNERS, N_POINTS, N_CLASSES = 4, 7, 3

#: Tree leaves carry NaN thresholds/scores by design (see ``algorithms.trees.Tree``);
#: ``predict_log_proba`` is ``-inf`` for a class no learner predicts (log 0).
SENTINELS = frozenset({"threshold", "split_score", "impurity_decrease", "threshold_",
                       "predict_log_proba"})


def _votes(rng: np.random.Generator) -> np.ndarray:
    return one_hot_votes(rng.integers(0, N_CLASSES, size=(N_LEARNERS, N_POINTS)), N_CLASSES)


def _signs(rng: np.random.Generator, shape) -> np.ndarray:
    return np.where(rng.random(shape) < 0.5, -1.0, 1.0)


def _outputs(rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    w = rng.random(N_LEARNERS)
    return rng.normal(size=(N_LEARNERS, N_POINTS)), rng.normal(size=N_POINTS), w / w.sum()


def _table(rng: np.random.Generator) -> tuple[tuple, dict]:
    a, b, c, d = (int(v) for v in rng.integers(1, 10, size=4))
    return (ContingencyTable(a, b, c, d),), {}


def _ea(rng: np.random.Generator) -> tuple[tuple, dict]:
    return _outputs(rng), {}


def _integrated(rng: np.random.Generator) -> tuple[tuple, dict]:
    h, f, w = _outputs(rng)
    p = rng.random(N_POINTS)
    return (h, f, w, p / p.sum()), {}


def _weights(rng: np.random.Generator) -> np.ndarray:
    return rng.random(N_LEARNERS) + 0.1


_CLASSIFIERS = lambda: [DecisionTreeClassifier(max_depth=2), LogisticRegression()]  # noqa: E731

#: ``undefined`` is the value a caller chooses for an undefined measure: any real or
#: infinity is a legitimate choice.
_UNDEFINED = frozenset({"undefined"})

CASES: dict[str, Case] = {
    "IN_BAG_LIMIT": Case(skip="a constant"),
    "REJECT": Case(skip="a constant"),
    "STOP_REASONS": Case(skip="a constant"),
    "TIE_BREAKS": Case(skip="a constant"),
    "EnsembleWarning": Case(skip="a warning class"),
    "OOBWarning": Case(skip="a warning class"),
    "ErrorAmbiguity": Case(skip="a result dataclass"),
    "IntegratedErrorAmbiguity": Case(skip="a result dataclass"),
    "KappaErrorDiagram": Case(skip="a result dataclass"),
    "AdaBoostClassifier": Case(call=_classification, init=lambda: {"n_estimators": 5},
                               nan_ok=SENTINELS),
    "AveragingRegressor": Case(
        call=_regression, nan_ok=SENTINELS,
        init=lambda: {"estimators": [DecisionTreeRegressor(max_depth=2), LinearRegression()]},
        invalid={"weights": [np.array([1.0, -1.0]), np.array([1.0])]}),
    "BaggingClassifier": Case(call=_classification, nan_ok=SENTINELS,
                              init=lambda: {"n_estimators": 3, "oob_score": True}),
    "BaggingRegressor": Case(
        call=_regression, nan_ok=SENTINELS,
        init=lambda: {"estimator": DecisionTreeRegressor(), "n_estimators": 3,
                      "oob_score": True}),
    "RandomForestClassifier": Case(call=_classification, nan_ok=SENTINELS,
                                   init=lambda: {"n_estimators": 3, "oob_score": True}),
    "RandomSubspaceClassifier": Case(call=_classification, nan_ok=SENTINELS,
                                     init=lambda: {"n_estimators": 3}),
    "StackingClassifier": Case(call=_classification, nan_ok=SENTINELS,
                               init=lambda: {"estimators": _CLASSIFIERS(), "cv": 3}),
    "VotingClassifier": Case(call=_classification, nan_ok=SENTINELS,
                             init=lambda: {"estimators": _CLASSIFIERS(), "voting": "soft"}),
    "ContingencyTable": Case(call=lambda rng: ((3, 4, 5, 6), {}),
                             invalid={"a": [1.5, -1, float("nan"), float("inf"), "3"]}),
    "bootstrap_indices": Case(call=lambda rng: ((10,), {"random_state": 0})),
    "class_vote_totals": Case(call=lambda rng: ((_votes(rng),), {"weights": _weights(rng)})),
    "contingency_table": Case(call=lambda rng: ((_signs(rng, 30), _signs(rng, 30)), {}),
                              scale_free=frozenset()),
    "correlation": Case(call=_table, allow_inf=_UNDEFINED),
    "disagreement": Case(call=_table),
    "error_ambiguity": Case(call=_ea),
    "expected_in_bag_fraction": Case(call=lambda rng: ((10,), {})),
    "in_bag_counts": Case(call=lambda rng: ((rng.integers(0, 10, size=10), 10), {})),
    "integrated_error_ambiguity": Case(call=_integrated),
    "kappa": Case(call=_table, allow_inf=_UNDEFINED),
    "kappa_error_diagram": Case(
        call=lambda rng: ((_signs(rng, (N_LEARNERS, 30)), _signs(rng, 30)), {}),
        scale_free=frozenset()),
    "kappa_probabilities": Case(call=_table),
    "majority_vote": Case(call=lambda rng: ((_votes(rng),), {})),
    "majority_vote_error": Case(call=lambda rng: ((11, 0.3), {})),
    "majority_vote_hoeffding_bound": Case(call=lambda rng: ((11, 0.3), {})),
    "one_hot_votes": Case(call=lambda rng: ((rng.integers(0, 3, size=(5, 7)), 3), {})),
    "pairwise_diversity": Case(call=lambda rng: ((_signs(rng, (N_LEARNERS, 30)),), {}),
                               scale_free=frozenset(), invalid={"measure": ["Q"]}),
    "plurality_vote": Case(call=lambda rng: ((_votes(rng),), {"rng": 0})),
    "q_statistic": Case(call=_table, allow_inf=_UNDEFINED),
    # outputs of shape (T,) (one value per learner) is a documented form
    "simple_average": Case(call=lambda rng: ((_outputs(rng)[0],), {}),
                           accept=frozenset({"outputs-ravel"})),
    "simplex_weights": Case(call=lambda rng: ((_outputs(rng)[2], N_LEARNERS), {})),
    "weighted_average": Case(call=lambda rng: (_outputs(rng)[::2], {})),
    "weighted_vote": Case(call=lambda rng: ((_votes(rng), _weights(rng)), {"rng": 0})),
}
