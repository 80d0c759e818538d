"""Estimator-check settings of part manifold of the dimred family (merged in
estimator_checks.py)."""

INSTANCES: dict = {}
EXPECTED_FAILED_CHECKS: dict = {}
