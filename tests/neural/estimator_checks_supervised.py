"""Estimator-check settings (part of tests/neural/estimator_checks.py)."""

INSTANCES: dict = {}
EXPECTED_FAILED_CHECKS: dict = {}
