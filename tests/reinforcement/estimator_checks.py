"""scikit-learn estimator-check settings of the reinforcement family (see
``tests/test_estimator_checks.py``).

The learners of §14.2-§14.5 learn from an environment (``fit(env)``), not from a feature
table, so they are not scikit-learn estimators; behaviour cloning (§14.6.1) is: it is
checked with its default base classifier (the trees family's decision tree) and with the
linear family's softmax regression as the base.
"""

from algorithms.linear import SoftmaxRegression
from algorithms.reinforcement import BehaviourCloning

INSTANCES: dict = {
    "BehaviourCloning": lambda: [
        BehaviourCloning(),
        BehaviourCloning(estimator=SoftmaxRegression(lam=1e-3)),
    ],
}
EXPECTED_FAILED_CHECKS: dict = {}
