"""Estimator-check settings of part linear of the dimred family (merged in
estimator_checks.py)."""

INSTANCES: dict = {}
EXPECTED_FAILED_CHECKS: dict = {}
