"""Estimator-check settings of part linear of the dimred family (merged in
estimator_checks.py): kNN, PCA and kernel PCA (003 §8.1, §8.3, §8.4)."""

from algorithms.dimred import PCA, KernelPCA, KNNClassifier, KNNRegressor

INSTANCES: dict = {
    # defaults throughout: the checks' data sets have at least 10 samples, so k = 5 < n
    "KNNClassifier": lambda: KNNClassifier(),
    "KNNRegressor": lambda: KNNRegressor(),
    "PCA": lambda: PCA(),
    "KernelPCA": lambda: KernelPCA(),
}
EXPECTED_FAILED_CHECKS: dict = {}
