"""Teeth: the kernel claims' check bodies refute broken kernels, constructions and formulas."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from algorithms.kernels import GaussianKernel, Kernel, LinearKernel, klda_matrices
from mltheory.testing import assert_holds, assert_refutes
from properties.kernels import functions, methods


class HalfWidthGaussian(Kernel):
    """exp(-||x - z||^2 / sigma^2): Table 6.1's 2 sigma^2 cut to sigma^2."""

    def _gram(self, X, Z):
        return np.exp(-np.sum((X[:, None] - Z[None]) ** 2, axis=2))


def test_formula_check_refutes_a_gaussian_with_its_constant_cut():
    @given(XZ=functions.POINT_PAIRS)
    def check(XZ):
        X, Z = XZ
        functions.check_kernel_formula(HalfWidthGaussian(), functions.table_references(
            "rbf", {"sigma": 1.0}), X, Z)

    assert_refutes(check)


@pytest.mark.parametrize("factor", [0.5, 2.0])
def test_closure_formula_check_refutes_a_scaled_weight(factor):
    @given(X=functions.POINTS)
    def check(X):
        functions.check_kernel_formula(
            GaussianKernel(1.0) + LinearKernel(),
            lambda A, B: factor * functions.table_references("rbf", {"sigma": 1.0})(A, B)
            + A @ B.T, X, X)

    assert_refutes(check)


@pytest.mark.parametrize("broken", ["diagonal-halved", "one-off-diagonal"])
def test_feature_map_check_refutes_a_wrong_user_diagonal(broken):
    class Broken(functions.FeatureMapKernel):
        def _diag(self, X):
            d = super()._diag(X)  # the base class's kappa(x_i, x_i)
            return 0.5 * d if broken == "diagonal-halved" else np.roll(d, 1)

    @given(X=functions.POINTS, degree=st.integers(1, 3))
    def check(X, degree):
        functions.check_feature_map_kernel(
            Broken(degree), X, functions.tensor_power_features(X, degree))

    assert_refutes(check)


def test_psd_check_refutes_a_difference_of_kernels():
    """(4.21) needs gamma1, gamma2 > 0: gamma1 K1 - gamma2 K2 is not a kernel."""

    @given(X=functions.POINTS)
    def check(X):
        functions.assert_psd(GaussianKernel(1.0)(X) - 2.0 * LinearKernel()(X), "K1 - 2 K2")

    assert_refutes(check)


@pytest.mark.parametrize("increase", [0.5, 0.0])
def test_representer_check_refutes_the_increase_constant_scaled(increase):
    @given(X=methods.POINTS, targets=hnp.arrays(np.float64, 12, elements=st.floats(-3, 3)),
           lam=st.sampled_from([1e-3, 0.1, 10.0]),
           direction=hnp.arrays(np.float64, 6, elements=st.floats(-1, 1)))
    def check(X, targets, lam, direction):
        methods.check_representer(X, targets[: X.shape[0]], lam, direction, increase=increase)

    assert_refutes(check)


def test_scatter_check_refutes_n_without_class_sizes():
    """(4.52)'s N with the m_i dropped: K K^T - sum_i mu_hat_i mu_hat_i^T."""

    def broken(K, labels):
        mu, M, _ = klda_matrices(K, labels)
        return mu, M, K @ K.T - sum(np.outer(v, v) for v in mu)

    @given(X=methods.POINTS, labels=hnp.arrays(np.int64, 12, elements=st.integers(0, 1)),
           alpha=hnp.arrays(np.float64, 12, elements=st.floats(-2, 2)))
    def check(X, labels, alpha):
        methods.check_scatter_identities(X, labels, alpha, matrices=broken)

    assert_refutes(check)


def test_lda_solution_check_holds_with_a_ridge():
    """The printed LDA solution fails only because N is singular: with a ridge the same
    check body passes (so the erratum is about the missing condition, not the check)."""

    @given(X=methods.POINTS, labels=hnp.arrays(np.int64, 12, elements=st.integers(0, 1)))
    def check(X, labels):
        m = X.shape[0]
        if m < 3 or np.unique(X, axis=0).shape[0] < m:
            return
        lab = labels[:m].copy()
        lab[0], lab[1] = 0, 1
        methods.check_lda_solution_as_printed(X, lab, ridge=1e-3)

    assert_holds(check)


@pytest.mark.parametrize("broken", ["halved", "sign-flipped", "no-midpoint"])
def test_klda_decision_check_refutes_a_wrong_decision_function(broken):
    from sklearn.metrics.pairwise import rbf_kernel

    from algorithms.kernels import KernelLDA

    @given(seed=st.integers(0, 2**32 - 1))
    def check(seed):
        rng = np.random.default_rng(seed)
        X = np.column_stack([0.3 * np.arange(10), rng.uniform(-1, 1, 10)])
        lab = np.array([0, 0, 1, 1] + list(rng.integers(0, 2, 6)))
        model = KernelLDA(reg=1e-2, kernel="rbf", kernel_params={"sigma": 1.0}).fit(X, lab)
        h = rbf_kernel(X, X, gamma=0.5) @ model.dual_coef_
        means = np.array([h[lab == c].mean() for c in (0, 1)])
        decision = model.decision_function(X)
        if broken == "halved":
            decision = 0.5 * decision
        elif broken == "sign-flipped":
            decision = -decision
        else:
            decision = decision + np.sign(means[1] - means[0]) * means.mean()
        methods.check_klda_decision(decision, h, means)

    assert_refutes(check)
