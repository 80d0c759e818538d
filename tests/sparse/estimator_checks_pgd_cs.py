"""Estimator-check settings of part pgd_cs of the sparse family (merged in
estimator_checks.py)."""

INSTANCES: dict = {}
EXPECTED_FAILED_CHECKS: dict = {}
