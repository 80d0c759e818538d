"""Estimator-check settings of part dictionary of the sparse family (merged in
estimator_checks.py)."""

from algorithms.sparse import DictionaryLearning

INSTANCES: dict = {
    # Few atoms and rounds keep scikit-learn's checks fast (the LASSO coder solves one
    # problem per sample per round).
    "DictionaryLearning": lambda: DictionaryLearning(n_components=2, max_iter=2,
                                                     random_state=0),
}
EXPECTED_FAILED_CHECKS: dict = {}
