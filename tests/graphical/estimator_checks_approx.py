"""Estimator-check settings of part approx of the graphical family (merged in
estimator_checks.py)."""

from algorithms.graphical import LDATopicModel

# few sweeps: check_estimator fits dozens of times on up to a few thousand tokens
INSTANCES: dict = {
    "LDATopicModel": lambda: LDATopicModel(n_components=2, max_iter=3, random_state=0),
}
EXPECTED_FAILED_CHECKS: dict = {}
