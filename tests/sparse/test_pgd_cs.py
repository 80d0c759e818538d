"""Behaviour of the proximal-gradient LASSO, the separable proxes and the compressed-sensing
tools of 003 §10.4 and §10.6."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest
from sklearn.exceptions import ConvergenceWarning, NotFittedError

import algorithms.sparse._cs as cs_module
from algorithms.linear import Lasso, soft_threshold
from algorithms.sparse import (
    ProximalGradientLasso,
    basis_pursuit,
    basis_pursuit_denoising,
    l0_minimise,
    lasso_duality_gap,
    lasso_objective,
    lipschitz_constant,
    periodic_sinc_interpolate,
    prox_kinked,
    prox_penalty,
    proximal_gradient_lasso,
    rip_constant,
    rip_lower_bound,
)


@pytest.fixture
def problem():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(30, 6))
    w = np.array([2.0, 0.0, -1.0, 0.0, 0.0, 0.5])
    return X, X @ w + 0.1 * rng.normal(size=30)


# ------------------------------------------------------------------ proximal gradient


def test_lipschitz_constant_is_twice_the_top_eigenvalue(problem):
    X, _ = problem
    assert math.isclose(lipschitz_constant(X), 2 * np.linalg.eigvalsh(X.T @ X)[-1],
                        rel_tol=1e-12)
    assert lipschitz_constant(np.zeros((3, 2))) == 0.0


def test_pgd_records_every_iterate_and_objective(problem):
    X, y = problem
    res = proximal_gradient_lasso(X, y, 5.0, keep_iterates=True, tol=1e-12, max_iter=5000)
    assert res.converged
    assert res.coef_history.shape == (res.n_iter + 1, X.shape[1])
    assert res.objective_history.shape == res.gap_history.shape == (res.n_iter + 1,)
    np.testing.assert_array_equal(res.coef_history[0], 0.0)
    np.testing.assert_array_equal(res.coef_history[-1], res.coef)
    recomputed = [lasso_objective(X, y, w, 5.0) for w in res.coef_history]
    np.testing.assert_allclose(res.objective_history, recomputed, rtol=1e-10)
    assert np.all(np.diff(res.objective_history) <= 1e-12 * res.objective_history[0])
    assert res.lipschitz == pytest.approx(lipschitz_constant(X))


def test_pgd_matches_the_linear_familys_ista(problem):
    X, y = problem
    ours = proximal_gradient_lasso(X, y, 3.0, tol=1e-12, max_iter=20_000).coef
    theirs = Lasso(lam=3.0, fit_intercept=False, solver="ista", tol=1e-12,
                   max_iter=20_000).fit(X, y).coef_
    np.testing.assert_allclose(ours, theirs, atol=1e-8)


def test_pgd_without_l1_is_gradient_descent_to_least_squares(problem):
    X, y = problem
    res = proximal_gradient_lasso(X, y, 0.0, tol=1e-12, max_iter=10_000)
    assert res.converged
    np.testing.assert_allclose(res.coef, np.linalg.lstsq(X, y, rcond=None)[0], atol=1e-9)


def test_pgd_warns_when_it_runs_out_of_steps(problem):
    X, y = problem
    with pytest.warns(ConvergenceWarning):
        res = proximal_gradient_lasso(X, y, 1.0, max_iter=2)
    assert not res.converged and res.n_iter == 2
    assert res.coef_history.shape == (0, X.shape[1])  # iterates kept only on request


def test_pgd_large_lambda_gives_exact_zero_at_once(problem):
    X, y = problem
    lam = 2 * np.max(np.abs(X.T @ y))
    res = proximal_gradient_lasso(X, y, lam)
    assert res.n_iter == 0 and res.converged and np.all(res.coef == 0)


def test_duality_gap_bounds_the_suboptimality(problem):
    X, y = problem
    opt = proximal_gradient_lasso(X, y, 4.0, tol=1e-14, max_iter=50_000).coef
    w = np.ones(X.shape[1])
    gap = lasso_duality_gap(X, y, w, 4.0)
    assert gap >= lasso_objective(X, y, w, 4.0) - lasso_objective(X, y, opt, 4.0) - 1e-9
    assert lasso_duality_gap(X, y, opt, 4.0) <= 1e-12 * (y @ y)


def test_estimator_centres_for_the_intercept(problem):
    X, y = problem
    est = ProximalGradientLasso(lam=2.0, tol=1e-12, max_iter=20_000).fit(X + 5.0, y + 3.0)
    plain = ProximalGradientLasso(lam=2.0, fit_intercept=False, tol=1e-12,
                                  max_iter=20_000).fit(X - X.mean(0), y - y.mean())
    np.testing.assert_allclose(est.coef_, plain.coef_, atol=1e-10)
    np.testing.assert_allclose(est.predict(X + 5.0), (X + 5.0) @ est.coef_ + est.intercept_)
    assert est.converged_ and est.n_iter_ == len(est.objective_history_) - 1
    assert est.score(X + 5.0, y + 3.0) > 0.9


def test_estimator_refuses_prediction_before_fit(problem):
    with pytest.raises(NotFittedError):
        ProximalGradientLasso().predict(problem[0])


def test_estimator_bad_lambda_names_it(problem):
    with pytest.raises(ValueError, match="lam"):
        ProximalGradientLasso(lam=-1.0).fit(*problem)


# ------------------------------------------------------------------ proxes


def test_prox_penalties_closed_forms():
    z = np.linspace(-3, 3, 61)
    np.testing.assert_array_equal(prox_penalty(z, 0.7, "l1"), soft_threshold(z, 0.7))
    np.testing.assert_allclose(prox_penalty(z, 0.7, "l2"), z / 2.4)
    np.testing.assert_allclose(prox_penalty(z, 0.7, "elastic_net", l1_ratio=1.0),
                               soft_threshold(z, 0.7))
    np.testing.assert_allclose(prox_penalty(z, 0.7, "elastic_net", l1_ratio=0.0), z / 2.4)
    np.testing.assert_allclose(prox_kinked(z, 0.7, right_slope=1.0, left_slope=1.0),
                               soft_threshold(z, 0.7), atol=1e-15)


def test_half_thresholding_threshold():
    """1/2 (x - z)^2 + t |x|^{1/2} thresholds at (54^{1/3} / 4) (2t)^{2/3} (Xu et al. 2012,
    whose objective is twice ours with lambda = 2t)."""
    t = 0.8
    tau = 54 ** (1 / 3) / 4 * (2 * t) ** (2 / 3)
    below = prox_penalty(np.array([tau * (1 - 1e-6), -tau * (1 - 1e-6)]), t, "l1/2")
    above = prox_penalty(np.array([tau * (1 + 1e-6)]), t, "l1/2")
    np.testing.assert_array_equal(below, 0.0)
    assert above[0] > 0


def test_concave_kink_never_returns_zero():
    z = np.linspace(-2, 2, 401)
    x = prox_kinked(z, 1.0, right_slope=-1.0, left_slope=-1.0, curvature=1.0)
    assert np.count_nonzero(x == 0.0) == 0


# ------------------------------------------------------------------ compressed sensing


def test_basis_pursuit_recovers_a_sparse_vector_and_scales():
    rng = np.random.default_rng(1)
    A = rng.normal(size=(10, 20))
    s = np.zeros(20)
    s[[3, 11]] = [1.5, -0.5]
    np.testing.assert_allclose(basis_pursuit(A, A @ s), s, atol=1e-8)
    np.testing.assert_allclose(basis_pursuit(1e4 * A, A @ s), s / 1e4, atol=1e-12)
    np.testing.assert_array_equal(basis_pursuit(A, np.zeros(10)), 0.0)


def test_basis_pursuit_refuses_measurements_outside_the_range():
    A = np.array([[1.0, 2.0], [2.0, 4.0]])
    with pytest.raises(ValueError, match="y"):
        basis_pursuit(A, np.array([1.0, 0.0]))


def test_bpdn_is_the_lasso_with_twice_lambda():
    rng = np.random.default_rng(2)
    A = rng.normal(size=(8, 16))
    y = rng.normal(size=8)
    res = basis_pursuit_denoising(A, y, 1.0)
    ref = proximal_gradient_lasso(A, y, 2.0, max_iter=5000, tol=1e-10)
    np.testing.assert_allclose(res.coef, ref.coef)


def test_l0_reports_non_unique_solutions_and_caps_the_search(monkeypatch):
    sol = l0_minimise([[1.0, 1.0]], [1.0])
    assert sol.support_size == 1 and sol.supports == [(0,), (1,)] and not sol.unique
    rng = np.random.default_rng(3)
    A = rng.normal(size=(6, 12))
    monkeypatch.setattr(cs_module, "MAX_ENUMERATED_SUBSETS", 100)
    with pytest.raises(ValueError, match="more than 100"):
        l0_minimise(A, A @ np.ones(12))  # sizes 1 and 2 (78 supports) fail, 3 exceeds
    with pytest.raises(ValueError, match="range of A"):
        l0_minimise([[1.0, 0.0], [0.0, 0.0]], [0.0, 1.0])


def test_rip_constant_of_orthonormal_columns_is_zero_and_k1_is_column_norms():
    Q, _ = np.linalg.qr(np.random.default_rng(4).normal(size=(6, 4)))
    assert rip_constant(Q, 3).delta == pytest.approx(0.0, abs=1e-12)
    A = np.random.default_rng(5).normal(size=(5, 7))
    norms = np.sum(A * A, axis=0)
    assert rip_constant(A, 1).delta == pytest.approx(np.max(np.abs(norms - 1)))
    exact = rip_constant(A, 2)
    assert exact.exact and exact.n_subsets == 21
    bound = rip_lower_bound(A, 2, n_subsets=10, random_state=0)
    assert not bound.exact and bound.delta <= exact.delta


def test_rip_constant_refuses_huge_enumerations():
    with pytest.raises(ValueError, match="rip_lower_bound"):
        rip_constant(np.ones((2, 60)), 6)


def test_quiet_on_valid_input():
    rng = np.random.default_rng(6)
    A = rng.normal(size=(4, 8))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        basis_pursuit(A, A[:, 0])
        rip_constant(A, 2)


def test_periodic_sinc_interpolation_is_exact_above_twice_the_top_frequency():
    def x(t):
        return 1 + np.cos(2 * np.pi * 3 * t) - 2 * np.sin(2 * np.pi * 2 * t)

    t = np.linspace(0, 2, 41)
    for n in (7, 8, 11):
        np.testing.assert_allclose(periodic_sinc_interpolate(x(np.arange(n) / n), t), x(t),
                                   atol=1e-13)
    # at exactly twice the frequency a sine is sampled at its zeros
    sine = np.sin(2 * np.pi * 3 * np.arange(6) / 6)
    np.testing.assert_allclose(periodic_sinc_interpolate(sine, t), 0.0, atol=1e-13)


def test_enumeration_cap_is_200000_subsets():
    # a resource cap of the library: 200 000 sampled supports are accepted, one more not
    A = np.random.default_rng(6).normal(size=(3, 2))
    bound = rip_lower_bound(A, 1, n_subsets=200_000, random_state=0)
    assert not bound.exact and bound.delta <= rip_constant(A, 1).delta
    with pytest.raises(ValueError, match="n_subsets"):
        rip_lower_bound(A, 1, n_subsets=200_001)
