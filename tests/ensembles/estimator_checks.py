"""Settings of the ensembles family for tests/test_estimator_checks.py."""

from algorithms.ensembles import (
    AdaBoostClassifier,
    AveragingRegressor,
    BaggingClassifier,
    BaggingRegressor,
    RandomForestClassifier,
    RandomSubspaceClassifier,
    StackingClassifier,
    VotingClassifier,
)
from algorithms.linear import LinearRegression, Ridge
from algorithms.trees import DecisionTreeClassifier, DecisionTreeRegressor

# Ensembles of given learners need them; small ensembles keep the checks fast.
INSTANCES = {
    "AdaBoostClassifier": lambda: [
        AdaBoostClassifier(n_estimators=10, random_state=0),
        AdaBoostClassifier(n_estimators=10, mode="resample", random_state=0),
    ],
    "BaggingClassifier": lambda: BaggingClassifier(n_estimators=5, random_state=0),
    "BaggingRegressor": lambda: BaggingRegressor(DecisionTreeRegressor(), n_estimators=5,
                                                 random_state=0),
    "RandomForestClassifier": lambda: RandomForestClassifier(n_estimators=10, random_state=0),
    "RandomSubspaceClassifier": lambda: RandomSubspaceClassifier(n_estimators=5,
                                                                 random_state=0),
    "VotingClassifier": lambda: [
        VotingClassifier([DecisionTreeClassifier(max_depth=2), DecisionTreeClassifier()]),
        VotingClassifier([DecisionTreeClassifier(max_depth=2), DecisionTreeClassifier()],
                         voting="soft", weights=[0.3, 0.7]),
    ],
    "AveragingRegressor": lambda: AveragingRegressor([LinearRegression(), Ridge(lam=1.0)],
                                                     weights=[0.25, 0.75]),
    "StackingClassifier": lambda: StackingClassifier(
        [DecisionTreeClassifier(max_depth=2), DecisionTreeClassifier()], cv=3, random_state=0),
}

EXPECTED_FAILED_CHECKS: dict[str, dict[str, str]] = {}
