"""Settings of the linear family for tests/test_estimator_checks.py."""

from algorithms.linear import (
    ECOCClassifier,
    LinearDiscriminantAnalysis,
    OneVsOneClassifier,
    OneVsRestClassifier,
    ThresholdRescalingClassifier,
)

# The wrappers need a base estimator; LDA is a complete multi-class-capable one here.
INSTANCES = {
    "OneVsRestClassifier": lambda: OneVsRestClassifier(estimator=LinearDiscriminantAnalysis()),
    "OneVsOneClassifier": lambda: OneVsOneClassifier(estimator=LinearDiscriminantAnalysis()),
    "ECOCClassifier": lambda: ECOCClassifier(
        estimator=LinearDiscriminantAnalysis(), random_state=0
    ),
    "ThresholdRescalingClassifier": lambda: ThresholdRescalingClassifier(
        LinearDiscriminantAnalysis()
    ),
}

EXPECTED_FAILED_CHECKS: dict[str, dict[str, str]] = {}
