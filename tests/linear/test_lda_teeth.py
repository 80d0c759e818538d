"""The LDA checks have teeth: the check bodies the claims use refute deliberately
broken variants (a wrong direction, unweighted S_b, a tightened rank bound, ...)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from mltheory.strategies import rngs
from mltheory.testing import assert_holds, assert_refutes, run_check
from proofs.linear.lda import DELTA, S_W, lagrangian_derivation, scatter_decomposition
from properties.linear.lda import (
    MANY_CLASSES,
    MULTI_CLASS,
    TWO_CLASS,
    TWO_CLASS_2D,
    check_between_rank,
    check_class0_projects_above,
    check_class_scatter_vs_covariance,
    check_constrained_trace,
    check_direction_maximises_quotient,
    check_generalised_eigenvectors,
    check_lda_bayes_optimal,
    check_length_independence,
    check_offset,
    check_projected_stats,
    check_quotient_rewrite,
    check_svd_inverse,
    check_total_scatter,
    check_two_class_between,
)
from properties.linear.strategies import class_conditional_datasets


def test_projected_variance_check_refutes_scatter_in_place_of_covariance():
    @given(data=TWO_CLASS, rng=rngs())
    def broken(data, rng):
        check_projected_stats(data, rng, covariance_divisor=lambda m: 1.0)

    assert_refutes(broken)


def test_offset_check_refutes_a_line_that_rescales_projections():
    @given(data=TWO_CLASS, rng=rngs(), b=st.floats(0.5, 10.0))
    def broken(data, rng, b):
        check_offset(data, rng, b, line=lambda z, b: z * (1 + b))

    assert_refutes(broken)


def test_class_scatter_check_refutes_the_unbiased_normalisation():
    @given(data=TWO_CLASS)
    def broken(data):
        check_class_scatter_vs_covariance(data, lambda m: m - 1.0)

    assert_refutes(broken)


def test_total_scatter_check_refutes_unweighted_between_scatter():
    def unweighted(parts, mu):
        return sum(np.outer(m - mu, m - mu) for _, m, _ in parts)

    @given(data=MULTI_CLASS)
    def broken(data):
        check_total_scatter(data, between=unweighted)

    assert_refutes(broken)


def test_two_class_between_check_refutes_the_unweighted_1_24_form():
    @given(data=TWO_CLASS)
    def broken(data):
        check_two_class_between(data, factor=lambda m0, m1: 1.0)

    assert_refutes(broken)


def test_quotient_rewrite_check_refutes_a_wrong_between_scatter():
    @given(data=TWO_CLASS, rng=rngs())
    def broken(data, rng):
        check_quotient_rewrite(data, rng, between=lambda a, b: np.outer(a + b, a + b))

    assert_refutes(broken)


def test_length_independence_check_refutes_a_quotient_of_mixed_degree():
    def mixed(W, S_b, S_w):
        W2 = np.atleast_2d(W)
        return np.einsum("ki,ij,kj->k", W2, S_b, W2) / np.sqrt(
            np.einsum("ki,ij,kj->k", W2, S_w, W2))

    @given(data=MULTI_CLASS, rng=rngs(), c=st.floats(2.0, 1e3))
    def broken(data, rng, c):
        check_length_independence(data, rng, c, quotient=mixed)

    assert_refutes(broken)


@pytest.mark.parametrize(
    "wrong",
    [
        lambda lda, data: lda.S_w_ @ (lda.means_[0] - lda.means_[1]),
        lambda lda, data: lda.means_[0] - lda.means_[1],
    ],
    ids=["S_w (mu0 - mu1)", "mu0 - mu1"],
)
def test_maximiser_check_refutes_wrong_directions(wrong):
    @given(data=TWO_CLASS_2D, rng=rngs())
    def broken(data, rng):
        check_direction_maximises_quotient(data, rng, direction=wrong)

    assert_refutes(broken)


def test_svd_inverse_check_refutes_a_dropped_factor():
    @given(data=TWO_CLASS_2D)
    def broken(data):
        check_svd_inverse(data, inverse=lambda U, s, Vt: Vt.T / s)

    assert_refutes(broken)


def test_sign_check_refutes_the_reversed_difference():
    @given(data=TWO_CLASS)
    def broken(data):
        check_class0_projects_above(data, direction=lambda lda, d: -lda.w_)

    assert_refutes(broken)


def test_bayes_check_refutes_the_equal_prior_rule_under_unequal_priors():
    def broken(rng, scale):
        check_lda_bayes_optimal(rng, scale, prior0=0.9, problems=2)

    r = assert_refutes(broken)
    assert "Clopper-Pearson" in r.counterexample


def test_rank_check_refutes_a_bound_of_m_minus_2():
    @given(data=class_conditional_datasets(min_classes=2, max_classes=4, min_features=3,
                                           max_features=5))
    def broken(data):
        check_between_rank(data, lambda M: M - 2)

    assert_refutes(broken)


def test_eigenvector_check_refutes_eigenvectors_of_sb_sw_inverse():
    @given(data=MULTI_CLASS)
    def broken(data):
        check_generalised_eigenvectors(data, projection=lambda lda: lda.S_w_ @ lda.scalings_)

    assert_refutes(broken)


def test_constrained_trace_check_refutes_eigenvectors_of_sb_alone():
    def between_only(lda):
        vals, vecs = np.linalg.eigh(lda.S_b_)
        return vecs[:, ::-1][:, : lda.n_components_]

    @given(data=MANY_CLASSES, rng=rngs())
    def broken(data, rng):
        check_constrained_trace(data, rng, projection=between_only)

    assert_refutes(broken)


def test_lagrangian_derivation_fails_for_a_wrong_direction():
    d = lagrangian_derivation(w_star=S_W * DELTA)
    r = run_check(lambda: d.verify())
    assert r.verdict.value == "FAILED" and "solves S_b w" in r.counterexample


def test_scatter_derivation_fails_without_class_weights():
    d = scatter_decomposition(class_weights=False)
    r = run_check(lambda: d.verify())
    assert r.verdict.value == "FAILED" and "S_t = S_w + S_b" in r.counterexample


def test_correct_bodies_hold_on_a_fixed_draw():
    """Sanity: the unbroken bodies pass where the broken ones fail."""

    @given(data=TWO_CLASS_2D, rng=rngs())
    def fine(data, rng):
        check_direction_maximises_quotient(data, rng)

    assert_holds(fine, slow=True)
    assert_holds(lambda: lagrangian_derivation().verify())
