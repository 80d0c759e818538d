"""Estimator-check settings of part manifold of the dimred family (merged in
estimator_checks.py).

Isomap is checked with k = 16: scikit-learn's checks fit two well-separated blobs of 15
samples each, whose k-NN graph is connected only for k >= 15 (below that the geodesics
between the blobs are infinite and fit refuses the data, by design).
"""

from algorithms.dimred import (
    ClassicalMDS,
    Isomap,
    LocallyLinearEmbedding,
    NeighbourhoodComponentsAnalysis,
)

INSTANCES: dict = {
    "ClassicalMDS": lambda: ClassicalMDS(n_components=1),
    "Isomap": lambda: Isomap(n_neighbors=16, n_components=1),
    "LocallyLinearEmbedding": lambda: LocallyLinearEmbedding(n_neighbors=5, n_components=1),
    "NeighbourhoodComponentsAnalysis": lambda: NeighbourhoodComponentsAnalysis(
        n_components=1, max_iter=20),
}

_TOO_FEW_SAMPLES = (
    "the check fits 10 or 15 samples, fewer than k + 1 = 17: a sample cannot have 16 "
    "neighbours other than itself, and fit refuses n_neighbors >= n_samples with a "
    "ValueError naming n_neighbors (the check expects another message or a fit)")
EXPECTED_FAILED_CHECKS: dict = {
    "Isomap": {
        "check_n_features_in_after_fitting": _TOO_FEW_SAMPLES,
        "check_estimators_nan_inf": _TOO_FEW_SAMPLES,
        "check_fit2d_1feature": _TOO_FEW_SAMPLES,
        "check_positive_only_tag_during_fit": (
            "the check fits iris, whose setosa class (50 samples) lies far from the other "
            "100: its 16-NN graph has two connected components, the geodesics between them "
            "are infinite, and fit refuses the data with a ValueError saying so (the "
            "check reads any ValueError as a refusal of negative values)"),
    },
}
