"""scikit-learn estimator-check settings of the reinforcement family (see
``tests/test_estimator_checks.py``).

The learners of §14.2-§14.5 learn from an environment (``fit(env)``), not from a feature
table, so they are not scikit-learn estimators; behaviour cloning (§14.6.1) is.
"""

INSTANCES: dict = {}
EXPECTED_FAILED_CHECKS: dict = {}
