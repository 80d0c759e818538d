"""Estimator-check settings of part approx of the graphical family (merged in
estimator_checks.py)."""

INSTANCES: dict = {}
EXPECTED_FAILED_CHECKS: dict = {}
