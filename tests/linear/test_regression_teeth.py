"""Teeth: every regression claim's check body refutes a deliberately broken variant."""

from __future__ import annotations

import numpy as np
import pytest
import sympy as sp
from hypothesis import given
from hypothesis import strategies as st

from algorithms.linear import (
    Lasso,
    LinearRegression,
    add_bias_column,
    ridge_solve,
    soft_threshold,
)
from mltheory.numeric import assert_close
from mltheory.testing import assert_holds, assert_refutes
from proofs.linear import exponential_family as expfam
from proofs.linear import least_squares as lsq
from properties.linear import regression as reg
from properties.linear.support import least_squares_tolerance, quietly


def test_partial_derivative_check_refutes_a_wrong_sample_count():
    assert_refutes(lambda: lsq.check_partials(lambda m: m + 1))
    assert_holds(lambda: lsq.check_partials(lambda m: m))


def test_closed_form_check_refutes_a_denominator_without_the_one_over_m():
    assert_refutes(lambda: lsq.check_closed_form(
        lambda xs, m: sum(xi**2 for xi in xs) - sum(xs) ** 2))


def test_gradient_check_refutes_a_missing_factor_two_and_a_flipped_sign():
    assert_refutes(lambda: lsq.check_matrix_gradient(lambda X, w, y: X.T * (X * w - y)))
    assert_refutes(lambda: lsq.check_matrix_gradient(lambda X, w, y: 2 * X.T * (y - X * w)))


def test_normal_equation_check_refutes_a_formula_without_the_inverse():
    assert_refutes(lambda: lsq.check_normal_equation_solution(lambda X, y: X.T * y))


def test_exponential_family_checks_refute_wrong_log_partitions():
    assert_refutes(lambda: expfam.check_gaussian(lambda mu, sigma: mu**2 / sigma**2))
    assert_refutes(lambda: expfam.check_bernoulli(lambda phi: sp.log(1 - phi)))


def test_matrix_form_check_refutes_a_bias_first_design():
    @given(data=reg.ANY_SHAPE)
    def broken(data):
        w = np.arange(1.0, data.n_features + 1)
        reg.check_matrix_form(data.X, data.y, w, 2.0,
                              lambda X: np.hstack([np.ones((X.shape[0], 1)), X]))

    assert_refutes(broken)


def test_least_squares_tolerance_rejects_a_slightly_regularised_solution():
    @given(data=reg.TALL)
    def broken(data):
        A = data.augmented()
        ref = np.linalg.lstsq(A, data.y, rcond=None)[0]
        lam = 1e-3 * np.linalg.norm(A, 2) ** 2  # a ridge bias much larger than cond^2 eps
        assert_close(ridge_solve(A, data.y, lam), ref, least_squares_tolerance(data.condition))

    assert_refutes(broken)


def test_ridge_check_refutes_a_halved_lambda():
    @given(data=reg.ANY_SHAPE, fraction=reg.LAMBDA_FRACTIONS)
    def broken(data, fraction):
        reg.check_ridge(data, fraction, lambda A, y, lam: ridge_solve(A, y, lam / 2))

    assert_refutes(broken)


def test_l1_check_refutes_a_solution_for_the_wrong_lambda():
    def wrong_lambda(A, y, lam, rho):
        model = quietly(Lasso(lam=2 * lam, fit_intercept=False, tol=1e-12).fit, A, y)
        return model.coef_, model.duality_gap_

    @given(data=reg.ANY_SHAPE, fraction=reg.LAMBDA_FRACTIONS)
    def broken(data, fraction):
        reg.check_l1_problem(data, fraction, 1.0, wrong_lambda)

    assert_refutes(broken)


def test_l1_check_rounding_allowance_does_not_excuse_a_slightly_wrong_solution():
    # The optimum nudged by 1e-6 (relative) and reported with a zero duality gap: the
    # float64 rounding allowances are far smaller than the residual this leaves.
    def nudged(A, y, lam, rho):
        model = quietly(Lasso(lam=lam, fit_intercept=False, tol=1e-12,
                              max_iter=200_000).fit, A, y)
        return model.coef_ + 1e-6 * (1.0 + np.abs(model.coef_)), 0.0

    @given(data=reg.ANY_SHAPE, fraction=reg.LAMBDA_FRACTIONS)
    def broken(data, fraction):
        reg.check_l1_problem(data, fraction, 1.0, nudged)

    assert_refutes(broken)


def test_elastic_net_limit_check_refutes_ridge_with_the_full_lambda():
    @given(data=reg.WELL, fraction=reg.LAMBDA_FRACTIONS)
    def broken(data, fraction):
        reg.check_enet_small_rho_limit(data, fraction, 1e-4, 1.0)

    assert_refutes(broken)


@pytest.mark.parametrize(
    "prox",
    [
        lambda z, t: soft_threshold(z, 2 * t),  # threshold doubled
        lambda z, t: np.where(np.abs(z) > t, z, 0.0),  # hard thresholding
    ],
    ids=["doubled_threshold", "hard_threshold"],
)
def test_prox_check_refutes_wrong_thresholding(prox):
    @given(z=reg.hnp.arrays(np.float64, 3, elements=reg.st.floats(-20, 20)),
           L=reg.st.floats(0.1, 10.0), lam=reg.st.floats(0.1, 20.0))
    def broken(z, L, lam):
        reg.check_prox(z, L, lam, prox)

    assert_refutes(broken)


def test_ista_monotonicity_check_refutes_a_step_four_times_too_long():
    def long_step_history(A, y, lam):
        L = 2 * np.linalg.norm(A, 2) ** 2 / 4.0  # step 4/L instead of 1/L
        w = np.zeros(A.shape[1])
        history = []
        for _ in range(50):
            history.append(float(np.sum((y - A @ w) ** 2) + lam * np.abs(w).sum()))
            w = soft_threshold(w + 2 * A.T @ (y - A @ w) / L, lam / L)
        return np.asarray(history)

    @given(data=reg.ANY_SHAPE, fraction=reg.LAMBDA_FRACTIONS)
    def broken(data, fraction):
        reg.check_ista_monotone(data, fraction, long_step_history)

    assert_refutes(broken)


def test_note_design_matrix_equals_the_intended_one_only_for_symmetric_data():
    rows = np.array([[1.0, 2.0], [2.0, 5.0]])
    np.testing.assert_array_equal(reg.note_design_1_2(rows), add_bias_column(rows))


def test_univariate_check_refutes_an_intercept_without_the_slope_term():
    def intercept_is_mean_y(x, y):
        w, _ = reg.closed_form_1_6(x, y)
        return w, float(np.mean(y))

    @given(sample=reg.univariate_samples())
    def broken(sample):
        reg.check_univariate_fit(*sample, closed_form=intercept_is_mean_y)

    assert_refutes(broken)


def test_normal_equation_check_refutes_coordinatewise_regression():
    # X^T X replaced by its diagonal: right only for orthogonal columns
    @given(data=reg.TALL)
    def broken(data):
        reg.check_normal_equation_fit(
            data, formula=lambda A, y: A.T @ y / np.sum(A**2, axis=0))

    assert_refutes(broken)


def test_normal_equation_check_refutes_a_fit_without_intercept():
    @given(data=reg.TALL)
    def broken(data):
        reg.check_normal_equation_fit(
            data, fit=lambda X, y, solver: LinearRegression(solver=solver,
                                                            fit_intercept=False).fit(X, y))

    assert_refutes(broken)


def test_rank_deficient_check_refutes_a_solution_that_is_not_minimum_norm():
    def plus_null_vector(X, y):
        model = quietly(LinearRegression().fit, X, y)
        A = add_bias_column(X)
        v = np.linalg.svd(A)[2][-1]  # A has more columns than rank: a null-space vector
        model.coef_ = model.coef_ + v[:-1]
        model.intercept_ = model.intercept_ + v[-1]
        return model

    @given(data=reg.RANK_DEFICIENT, t=reg.st.floats(-10, 10))
    def broken(data, t):
        reg.check_rank_deficient_fit(data, t, fit=plus_null_vector)

    assert_refutes(broken)


def test_unsquared_norm_check_holds_once_the_square_is_restored():
    # the erratum's check is not failing for a side reason: with lambda ||w||^2 the cvxpy
    # minimiser is the ridge closed form
    @given(data=reg.TALL, fraction=reg.LAMBDA_FRACTIONS)
    def squared(data, fraction):
        reg.check_penalty_gives_ridge(data, fraction, squared=True)

    assert_holds(squared)


class Log1pRegression:
    """Least squares on ln(1 + y) instead of ln y."""

    def fit(self, X, y):
        self.ols_ = LinearRegression().fit(X, np.log1p(y))
        self.coef_, self.intercept_ = self.ols_.coef_, self.ols_.intercept_
        return self

    def predict_log(self, X):
        return self.ols_.predict(X)

    def predict(self, X):
        return np.expm1(self.predict_log(X))


def test_loglinear_check_refutes_least_squares_on_log1p():
    @given(data=reg.TALL, noise=reg.LOGLINEAR_NOISE)
    def broken(data, noise):
        reg.check_loglinear_fit(data, noise, model_factory=Log1pRegression)

    assert_refutes(broken)


def test_log_link_check_refutes_the_base_ten_logarithm():
    assert_refutes(lambda: lsq.check_log_link(lambda v: sp.log(v, 10)))
    assert_holds(lambda: lsq.check_log_link(sp.log))


@pytest.mark.parametrize("factor", [0.5, 2.0], ids=["halved", "doubled"])
def test_lipschitz_check_refutes_a_scaled_constant(factor):
    from algorithms.linear import solve_l1_l2

    def scaled(*args, **kwargs):
        sol = solve_l1_l2(*args, **kwargs)
        sol.lipschitz *= factor
        return sol

    @given(data=reg.ANY_SHAPE, l2=st.sampled_from([0.0, 0.5, 3.0]),
           solver=st.sampled_from(["ista", "fista"]))
    def broken(data, l2, solver):
        reg.check_lipschitz(data, l2, solver, solve=scaled)

    assert_refutes(broken)


def test_ista_steps_check_refutes_a_threshold_of_half_lambda_over_l():
    from algorithms.linear._lasso import L1Solution

    def half_threshold(A, y, lam, steps):
        L = 2 * np.linalg.norm(A, 2) ** 2
        x, history = np.zeros(A.shape[1]), []
        for _ in range(steps):
            history.append(float(np.sum((y - A @ x) ** 2) + lam * np.abs(x).sum()))
            x = soft_threshold(x + 2 * A.T @ (y - A @ x) / L, lam / (2 * L))
        history.append(float(np.sum((y - A @ x) ** 2) + lam * np.abs(x).sum()))
        return L1Solution(coef=x, objective_history=history, n_iter=steps)

    @given(data=reg.ANY_SHAPE, fraction=reg.LAMBDA_FRACTIONS, steps=st.integers(1, 4))
    def broken(data, fraction, steps):
        reg.check_ista_steps(data, fraction, steps, run=half_threshold)

    assert_refutes(broken)


def test_ista_steps_check_refutes_one_step_too_many():
    @given(data=reg.ANY_SHAPE, fraction=reg.LAMBDA_FRACTIONS, steps=st.integers(1, 4))
    def broken(data, fraction, steps):
        reg.check_ista_steps(data, fraction, steps,
                             run=lambda A, y, lam, k: reg.ista_steps(A, y, lam, k + 1))

    assert_refutes(broken)


def test_lasso_path_check_refutes_a_grid_from_lambda_max_without_the_factor_two():
    from algorithms.linear import lasso_path

    def path_from_half(X, y, *, n_lams, tol):
        Xc, yc = X - X.mean(axis=0), y - y.mean()
        top = float(np.max(np.abs(Xc.T @ yc))) or 1.0  # ||X_c^T y_c||_inf: half lambda_max
        return lasso_path(X, y, lams=np.geomspace(top, 1e-3 * top, n_lams), tol=tol)

    @given(data=reg.ANY_SHAPE, n_lams=st.integers(1, 4), level=reg.SMALL_INTS)
    def broken(data, n_lams, level):
        reg.check_lasso_path_start(data, n_lams, level, path=path_from_half)

    assert_refutes(broken)
