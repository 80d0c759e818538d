"""scikit-learn estimator-check settings of the rules family (see
``tests/test_estimator_checks.py``).

Only :class:`~algorithms.rules.SequentialCoveringClassifier` is a scikit-learn estimator;
FOIL learns from a relational knowledge base (facts, not a feature table) and is covered
by tests/rules/test_algorithms.py and the api_cases fuzzing instead.
"""

from algorithms.rules import SequentialCoveringClassifier

INSTANCES: dict = {
    # unpruned, post-pruned (the validation split draws from random_state), pre-pruned
    "SequentialCoveringClassifier": lambda: [
        SequentialCoveringClassifier(),
        SequentialCoveringClassifier(pruning="rep", max_rule_length=3, random_state=0),
        SequentialCoveringClassifier(pruning="lrs", criterion="laplace"),
    ],
}
EXPECTED_FAILED_CHECKS: dict = {}
