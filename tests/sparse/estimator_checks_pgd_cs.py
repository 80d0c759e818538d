"""Estimator-check settings of part pgd_cs of the sparse family (merged in
estimator_checks.py)."""

from algorithms.sparse import ProximalGradientLasso

INSTANCES: dict = {
    # A loose tolerance and a small step budget keep scikit-learn's checks fast; the
    # checks' regression data are well conditioned, so 2000 steps reach the gap.
    "ProximalGradientLasso": lambda: ProximalGradientLasso(lam=0.1, tol=1e-6,
                                                           max_iter=2000),
}
EXPECTED_FAILED_CHECKS: dict = {}
