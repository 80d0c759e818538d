"""The checks of kNN, PCA and kernel PCA (003 §8.1, §8.3, §8.4) have teeth: the check
bodies the claims use refute deliberately broken variants (a tie rule reversed, k off by
one, a constant halved, a sign flipped, an eigenvalue index shifted, the centring or the
scaling of alpha broken)."""

from __future__ import annotations

import numpy as np
import pytest
import sympy as sp
from hypothesis import given
from hypothesis import strategies as st

import algorithms.dimred._kpca as kpca_module
from algorithms.dimred import KNNClassifier, KNNRegressor
from mltheory.testing import assert_refutes
from proofs.dimred.pca import reconstruction_steps
from properties.dimred import knn as knn_claims
from properties.dimred.kpca import (
    check_eigenproblem,
    check_span,
    check_unit_directions,
    kernel_data,
    poly_kpca,
)
from properties.dimred.pca import (
    check_centering,
    check_ky_fan,
    check_same_optimiser,
)
from properties.dimred.strategies_linear import (
    SEEDS,
    KNNProblem,
    continuous_problems,
    grid_problems,
    orthonormal_frame,
    spectral_data,
)
from properties.dimred.support_linear import (
    check_knn_matches_brute,
    check_kpca_against_features,
    check_reconstruction_identity,
)

# ---------------------------------------------------------------------------
# kNN
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("rules", [{"vote_tie": "largest"}, {"order_tie": "reverse"}])
def test_brute_force_check_refutes_another_tie_rule(rules):
    @given(problem=grid_problems(), weights=st.sampled_from(["uniform", "distance"]))
    def check(problem, weights):
        est = KNNClassifier(n_neighbors=problem.k, weights=weights).fit(problem.X, problem.y)
        check_knn_matches_brute(est, problem, weights=weights, **rules)

    assert_refutes(check)


def test_brute_force_check_refutes_k_off_by_one():
    @given(problem=grid_problems())
    def check(problem):
        p = problem
        est = KNNClassifier(n_neighbors=p.k, algorithm="brute").fit(p.X, p.y)
        check_knn_matches_brute(est, KNNProblem(p.X, p.y, p.Q, p.k + 1), weights="uniform")

    assert_refutes(check)


def test_brute_force_check_refutes_swapped_weighting():
    # the regressor: a distance-weighted mean differs from the plain one at once
    @given(problem=grid_problems(regression=True))
    def check(problem):
        est = KNNRegressor(n_neighbors=problem.k, weights="distance").fit(problem.X, problem.y)
        check_knn_matches_brute(est, problem, weights="uniform", regression=True)

    assert_refutes(check)


def test_sklearn_check_refutes_k_off_by_one():
    @given(problem=continuous_problems())
    def check(problem):
        p = problem
        p = KNNProblem(p.X, p.X[:, 0] - np.abs(p.X[:, -1]), p.Q, p.k)  # regression targets
        knn_claims.check_sklearn_agreement(p, p.k + 1, "uniform", "brute", regression=True)

    assert_refutes(check)


def test_digits_check_refutes_ties_to_the_largest_label(monkeypatch):
    def largest_label(self, X):
        votes = self.predict_proba(X)
        tied = votes >= votes.max(axis=1, keepdims=True) * (1 - 1e-12)
        return self.classes_[tied.shape[1] - 1 - np.argmax(tied[:, ::-1], axis=1)]

    monkeypatch.setattr(KNNClassifier, "predict", largest_label)
    assert_refutes(knn_claims.digits)


# ---------------------------------------------------------------------------
# PCA
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("variant", [{"const_factor": 0.5}, {"const_factor": 2.0},
                                     {"trace_sign": 1.0}])
def test_reconstruction_identity_refutes_a_broken_constant_or_sign(variant):
    @given(data=spectral_data(), seed=SEEDS)
    def check(data, seed):
        X = data.X - data.X.mean(axis=0)
        W = orthonormal_frame(np.random.default_rng(seed), X.shape[1], data.d_prime)
        check_reconstruction_identity(X, W, **variant)

    assert_refutes(check)


def test_same_optimiser_refutes_a_halved_constant():
    @given(data=spectral_data(), seed=SEEDS)
    def check(data, seed):
        check_same_optimiser(data.X, data.d_prime, np.random.default_rng(seed),
                             const_factor=0.5)

    assert_refutes(check)


def test_same_optimiser_refutes_the_smallest_eigenvectors():
    @given(data=spectral_data(), seed=SEEDS)
    def check(data, seed):
        from algorithms.dimred import PCA

        def smallest(est):
            full = PCA().fit(data.X).components_
            return full[::-1][: data.d_prime].T

        check_same_optimiser(data.X, data.d_prime, np.random.default_rng(seed),
                             pick=smallest)

    assert_refutes(check)


@pytest.mark.parametrize("variant", [{"offset": 1}, {"factor": 0.5}, {"factor": 0.99}])
def test_ky_fan_check_refutes_a_shifted_index_or_scaled_bound(variant):
    @given(data=spectral_data(), seed=SEEDS)
    def check(data, seed):
        check_ky_fan(data.X, data.d_prime, np.random.default_rng(seed), **variant)

    assert_refutes(check)


def test_ky_fan_check_refutes_a_rotated_frame():
    @given(data=spectral_data(min_features=3), seed=SEEDS)
    def check(data, seed):
        def rotated(est):  # the frame with its first axis swapped for the next one's
            from algorithms.dimred import PCA

            full = PCA().fit(data.X).components_.T
            return full[:, 1:data.d_prime + 1]

        check_ky_fan(data.X, data.d_prime, np.random.default_rng(seed), W_of=rotated)

    assert_refutes(check)


@pytest.mark.parametrize("variant", [{"ddof": 0}, {"stored_mean": False}])
def test_centering_check_refutes_another_normaliser_or_mean(variant):
    @given(data=spectral_data(), seed=SEEDS)
    def check(data, seed):
        rng = np.random.default_rng(seed)
        Q = rng.normal(size=(3, data.X.shape[1])) + 5.0
        check_centering(data.X, Q, **variant)

    assert_refutes(check)


# ---------------------------------------------------------------------------
# Kernel PCA
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("variant", [{"power": 2}, {"power": 0.5}, {"shift": 1}])
def test_span_check_refutes_a_wrong_alpha(variant):
    @given(data=kernel_data())
    def check(data):
        X, _, coef0, d_prime = data
        check_span(X, coef0, d_prime, **variant)

    assert_refutes(check)


@pytest.mark.parametrize("factor", [0.5, 2.0, 0.999])
def test_eigenproblem_check_refutes_scaled_eigenvalues(factor):
    @given(data=kernel_data(), center=st.booleans())
    def check(data, center):
        X, _, coef0, d_prime = data
        check_eigenproblem(X, coef0, d_prime, factor=factor, center=center)

    assert_refutes(check)


def _broken_center(K, fit_column_means, fit_mean):
    """The centring without the training points' column means. (Breaking the other terms
    would be equivalent for the coordinates: the point's own mean and the grand mean add
    c 1^T to its kernel row, and alpha, an eigenvector of the centred K with a non-zero
    eigenvalue, is orthogonal to 1.)"""
    return K - K.mean(axis=1, keepdims=True) + fit_mean


def test_eigenproblem_check_refutes_a_broken_centring(monkeypatch):
    monkeypatch.setattr(kpca_module, "_center", _broken_center)

    @given(data=kernel_data())
    def check(data):
        X, _, coef0, d_prime = data
        check_eigenproblem(X, coef0, d_prime, center=True)

    assert_refutes(check)


def test_projection_check_refutes_a_broken_test_centring(monkeypatch):
    real = kpca_module._center

    @given(data=kernel_data())
    def check(data):
        X, Q, coef0, d_prime = data
        est = poly_kpca(coef0)(X, d_prime)  # fitted with the real centring
        monkeypatch.setattr(kpca_module, "_center", _broken_center)
        try:
            check_kpca_against_features(lambda X_, d_: est, X, Q, coef0, d_prime)
        finally:
            monkeypatch.setattr(kpca_module, "_center", real)

    assert_refutes(check)


@pytest.mark.parametrize("factor", [0.5, 0.99, 2.0])
def test_unit_direction_check_refutes_scaled_alpha(factor):
    @given(data=kernel_data())
    def check(data):
        X, _, coef0, d_prime = data
        check_unit_directions(poly_kpca(coef0)(X, d_prime), X, coef0, factor=factor)

    assert_refutes(check)


# ---------------------------------------------------------------------------
# The symbolic derivation of (8.8)-(8.10)
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("variant", [{"const_factor": sp.Rational(1, 2)}, {"trace_sign": 1}])
def test_reconstruction_derivation_refutes_a_halved_constant_or_flipped_sign(variant):
    with pytest.raises(AssertionError, match="step"):
        reconstruction_steps(**variant).verify()
