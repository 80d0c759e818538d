"""scikit-learn estimator-check settings of the semi-supervised family (see
``tests/test_estimator_checks.py``): the defaults pass every check."""

INSTANCES: dict = {}
EXPECTED_FAILED_CHECKS: dict = {}
