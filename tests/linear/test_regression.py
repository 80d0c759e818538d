"""Unit tests: OLS, ridge, LASSO, elastic net, regularisation paths (algorithms.linear)."""

from __future__ import annotations

import warnings
from fractions import Fraction

import numpy as np
import pytest
import scipy.sparse
import sklearn.linear_model as sk
from sklearn.base import clone
from sklearn.exceptions import ConvergenceWarning, DataConversionWarning, NotFittedError

from algorithms.linear import (
    ElasticNet,
    Lasso,
    LinearRegression,
    RankDeficientWarning,
    Ridge,
    SimpleLinearRegression,
    elastic_net_path,
    elastic_net_penalties,
    lasso_path,
    ridge_path,
    ridge_solve,
    soft_threshold,
)
from algorithms.linear._lasso import solve_l1_l2


def regression_data(n=80, d=5, seed=0, sparse=True):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d)) * rng.uniform(0.5, 3.0, size=d)
    w = rng.normal(size=d)
    if sparse:
        w[: d // 2] = 0.0
    y = X @ w + 1.5 + 0.3 * rng.normal(size=n)
    return X, y


# --- ordinary least squares -------------------------------------------------------------


def test_simple_regression_matches_polyfit():
    X, y = regression_data(d=1)
    m = SimpleLinearRegression().fit(X, y)
    slope, intercept = np.polyfit(X[:, 0], y, 1)
    assert m.coef_ == pytest.approx(slope, rel=1e-10)
    assert m.intercept_ == pytest.approx(intercept, rel=1e-10)
    np.testing.assert_allclose(m.predict(X), slope * X[:, 0] + intercept, rtol=1e-10)


@pytest.mark.parametrize(
    ("X", "message"),
    [
        (np.ones((5, 1)), "zero variance"),
        ([[1.0]], "1 sample: SimpleLinearRegression needs at least two samples"),
        (np.ones((4, 2)), "exactly one feature"),
        (np.arange(4.0), "Expected 2D array, got 1D array"),
        (np.array([[1.0], [np.nan], [2.0]]), "X contains NaN"),
        (np.ones((0, 1)), "Found array with 0 sample"),
    ],
    ids=["constant_x", "one_sample", "two_features", "1d_x", "nan", "empty"],
)
def test_simple_regression_rejects_what_has_no_unique_line(X, message):
    with pytest.raises(ValueError, match=message):
        SimpleLinearRegression().fit(X, np.arange(float(np.shape(X)[0])))


def test_simple_regression_predict_checks_the_single_feature():
    X, y = regression_data(d=1)
    m = SimpleLinearRegression().fit(X, y)
    with pytest.raises(ValueError, match="X has 2 features, but SimpleLinearRegression is "
                                         "expecting 1"):
        m.predict(np.ones((3, 2)))


@pytest.mark.parametrize("solver", ["lstsq", "qr", "cholesky"])
def test_every_ols_solver_matches_lstsq_and_sklearn(solver):
    X, y = regression_data()
    m = LinearRegression(solver=solver).fit(X, y)
    ref = sk.LinearRegression().fit(X, y)
    np.testing.assert_allclose(m.coef_, ref.coef_, rtol=1e-8, atol=1e-10)
    assert m.intercept_ == pytest.approx(ref.intercept_, rel=1e-8)
    assert m.rank_ == X.shape[1] + 1 and m.full_rank_


@pytest.mark.parametrize("solver", ["lstsq", "qr", "cholesky"])
def test_rank_deficient_design_is_reported_and_solved_by_minimum_norm(solver):
    X, y = regression_data()
    X = np.hstack([X, X[:, :1] + X[:, 1:2]])  # a collinear column
    with pytest.warns(RankDeficientWarning, match="rank"):
        m = LinearRegression(solver=solver).fit(X, y)
    assert m.rank_ == X.shape[1] and not m.full_rank_  # 6 features + bias = 7 columns, rank 6
    A = np.hstack([X, np.ones((X.shape[0], 1))])
    expected = np.linalg.pinv(A) @ y
    np.testing.assert_allclose(np.append(m.coef_, m.intercept_), expected, rtol=1e-7, atol=1e-9)


def test_fewer_samples_than_features_gives_rank_at_most_n():
    rng = np.random.default_rng(3)
    X, y = rng.normal(size=(4, 9)), rng.normal(size=4)
    with pytest.warns(RankDeficientWarning):
        m = LinearRegression().fit(X, y)
    assert m.rank_ == 4
    np.testing.assert_allclose(m.predict(X), y, atol=1e-10)  # interpolates


def test_ols_without_intercept():
    X, y = regression_data()
    m = LinearRegression(fit_intercept=False).fit(X, y)
    np.testing.assert_allclose(m.coef_, np.linalg.lstsq(X, y, rcond=None)[0], rtol=1e-9)
    assert m.intercept_ == 0.0


# --- bad input --------------------------------------------------------------------------

BAD_FITS = [
    (np.array([[np.nan, 1.0], [2.0, 3.0]]), [1.0, 2.0], "X contains NaN"),
    (np.array([[np.inf, 1.0], [2.0, 3.0]]), [1.0, 2.0], "X contains infinity"),
    (np.ones((2, 2)), [1.0, np.nan], "y contains NaN"),
    (np.ones((2, 2)), [1.0, -np.inf], "y contains infinity"),
    (np.ones((3, 2)), [1.0, 2.0], "inconsistent numbers of samples: \\[3, 2\\]"),
    (np.ones((0, 2)), [], "Found array with 0 sample"),
    (np.ones((3, 0)), [1.0, 2.0, 3.0], "0 feature"),
    (np.ones(3), [1.0, 2.0, 3.0], "Expected 2D array, got 1D array"),
    (np.ones((2, 2)), np.ones((2, 2)), "y should be a 1d array"),
    (np.ones((2, 2)), None, "requires y to be passed"),
    (np.ones((2, 2)) + 1j, [1.0, 2.0], "Complex data not supported"),
    (np.array([["a", "b"], ["c", "d"]], dtype=object), [1.0, 2.0], "could not convert"),
    (np.ones((2, 2)), ["a", "b"], "y must be numeric"),
]

ESTIMATORS = [LinearRegression(), Ridge(), Lasso(), ElasticNet()]


@pytest.mark.parametrize("estimator", ESTIMATORS, ids=lambda e: type(e).__name__)
@pytest.mark.parametrize(("X", "y", "message"), BAD_FITS)
def test_bad_input_raises_value_error_naming_the_argument(estimator, X, y, message):
    with pytest.raises(ValueError, match=message):
        clone(estimator).fit(X, y)


@pytest.mark.parametrize("estimator", ESTIMATORS, ids=lambda e: type(e).__name__)
def test_sparse_input_is_refused_as_such(estimator):
    X, y = regression_data(n=10, d=2)
    with pytest.raises(TypeError, match="Sparse data was passed"):
        clone(estimator).fit(scipy.sparse.csr_matrix(X), y)


@pytest.mark.parametrize("estimator", ESTIMATORS, ids=lambda e: type(e).__name__)
def test_a_column_target_is_raveled_with_a_warning(estimator):
    X, y = regression_data(n=20, d=2)
    with pytest.warns(DataConversionWarning):
        column = clone(estimator).fit(X, y[:, None])
    np.testing.assert_array_equal(column.predict(X), clone(estimator).fit(X, y).predict(X))


@pytest.mark.parametrize(
    ("estimator", "message"),
    [
        (LinearRegression(solver="inverse"), "solver must be one of"),
        (LinearRegression(fit_intercept="yes"), "fit_intercept must be True or False"),
        (LinearRegression(rcond=2.0), "rcond must be"),
        (Ridge(penalize_intercept=1), "penalize_intercept must be True or False"),
        (Ridge(lam=-1.0), "lam must be"),
        (Ridge(lam=float("nan")), "lam must be"),
        (Lasso(lam=0.0), "lam must be"),
        (Lasso(lam=-2.0), "lam must be"),
        (Lasso(max_iter=0), "max_iter must be an integer >= 1"),
        (Lasso(max_iter=10.5), "max_iter must be an integer"),
        (Lasso(tol=0.0), "tol must be"),
        (Lasso(solver="lars"), "solver must be one of"),
        (ElasticNet(rho=0.0), "rho must be"),
        (ElasticNet(rho=1.5), "rho must be"),
        (ElasticNet(lam=-1.0), "lam must be"),
    ],
    ids=str,
)
def test_bad_hyperparameters_raise_value_error(estimator, message):
    X, y = regression_data(n=10, d=2)
    with pytest.raises(ValueError, match=message):
        estimator.fit(X, y)


@pytest.mark.parametrize("estimator", [LinearRegression(), Ridge(), Lasso(), ElasticNet(),
                                       SimpleLinearRegression()],
                         ids=lambda e: type(e).__name__)
def test_predict_before_fit_raises_not_fitted(estimator):
    with pytest.raises(NotFittedError):
        estimator.predict(np.ones((2, 1)))


@pytest.mark.parametrize("estimator", ESTIMATORS, ids=lambda e: type(e).__name__)
def test_predict_with_wrong_number_of_features_raises(estimator):
    X, y = regression_data()
    m = clone(estimator).fit(X, y)
    with pytest.raises(ValueError, match=f"X has 3 features, but {type(estimator).__name__} "
                                         "is expecting 5 features"):
        m.predict(np.ones((2, 3)))
    with pytest.raises(ValueError, match="X contains NaN"):
        m.predict(np.full((2, 5), np.nan))


# --- ridge ------------------------------------------------------------------------------


@pytest.mark.parametrize("lam", [1e-3, 1.0, 100.0])
def test_ridge_matches_sklearn_with_unpenalised_intercept(lam):
    X, y = regression_data()
    m = Ridge(lam=lam).fit(X, y)
    ref = sk.Ridge(alpha=lam, solver="cholesky").fit(X, y)
    np.testing.assert_allclose(m.coef_, ref.coef_, rtol=1e-9, atol=1e-12)
    assert m.intercept_ == pytest.approx(ref.intercept_, rel=1e-9)


def test_ridge_with_penalised_intercept_is_the_notes_closed_form():
    X, y = regression_data()
    lam = 3.0
    A = np.hstack([X, np.ones((X.shape[0], 1))])
    expected = np.linalg.solve(A.T @ A + lam * np.eye(A.shape[1]), A.T @ y)
    m = Ridge(lam=lam, penalize_intercept=True).fit(X, y)
    np.testing.assert_allclose(np.append(m.coef_, m.intercept_), expected, rtol=1e-10)


def test_ridge_dual_form_for_wide_data_matches_primal():
    rng = np.random.default_rng(5)
    X, y = rng.normal(size=(6, 20)), rng.normal(size=6)
    m = Ridge(lam=0.7, fit_intercept=False).fit(X, y)
    expected = np.linalg.solve(X.T @ X + 0.7 * np.eye(20), X.T @ y)
    np.testing.assert_allclose(m.coef_, expected, rtol=1e-9)


def test_ridge_with_zero_lambda_is_least_squares():
    X, y = regression_data()
    np.testing.assert_allclose(Ridge(lam=0.0).fit(X, y).coef_,
                               LinearRegression().fit(X, y).coef_, rtol=1e-9)


# --- LASSO / elastic net ----------------------------------------------------------------


@pytest.mark.parametrize("solver", ["cd", "ista", "fista"])
def test_lasso_solvers_match_sklearn(solver):
    X, y = regression_data(n=100, d=8)
    lam = 20.0
    m = Lasso(lam=lam, solver=solver, tol=1e-12, max_iter=100_000).fit(X, y)
    ref = sk.Lasso(alpha=lam / (2 * X.shape[0]), tol=1e-14, max_iter=100_000).fit(X, y)
    np.testing.assert_allclose(m.coef_, ref.coef_, rtol=1e-5, atol=1e-6)
    assert m.converged_ and m.duality_gap_ <= 1e-12 * np.sum((y - y.mean()) ** 2)
    assert np.sum(m.coef_ == 0.0) >= 1  # sparse


@pytest.mark.parametrize("solver", ["cd", "ista"])
def test_lasso_objective_history_never_increases(solver):
    X, y = regression_data(n=60, d=6, seed=2)
    m = Lasso(lam=5.0, solver=solver).fit(X, y)
    h = m.objective_history_
    assert np.all(np.diff(h) <= 1e-12 * h[0])


def test_lasso_without_convergence_warns_and_flags():
    X, y = regression_data(n=60, d=6)
    with pytest.warns(ConvergenceWarning, match="did not converge"):
        m = Lasso(lam=1.0, solver="ista", max_iter=2).fit(X, y)
    assert not m.converged_ and m.n_iter_ == 2


def test_lasso_handles_zero_columns_constant_targets_and_wide_data():
    X, y = regression_data(n=30, d=4)
    X[:, 1] = 0.0
    m = Lasso(lam=1.0).fit(X, y)
    assert m.coef_[1] == 0.0 and m.converged_
    m = Lasso(lam=1.0).fit(X, np.full(30, 4.0))
    assert np.all(m.coef_ == 0.0) and m.intercept_ == pytest.approx(4.0)
    rng = np.random.default_rng(1)
    Xw = rng.normal(size=(10, 40))
    yw = Xw[:, 0] * 3 + rng.normal(size=10) * 0.1
    for solver in ("cd", "ista"):
        assert Lasso(lam=0.5, solver=solver, max_iter=50_000).fit(Xw, yw).converged_


def flat_valley_problems():
    """Designs whose active columns are linearly dependent (N < d, collinear), with a
    small L1 weight: the objective is flat along a null direction of the design."""
    X = np.array([[-4.26338899, -0.00274952682, 1.0], [-95.7209827, -28.6496508, 1.0]])
    y = np.array([-6.06908308, -6.71040107])  # shrunk counterexample of lasso_optimality
    yield X, y, 1e-3 * np.max(np.abs(2 * X.T @ y)), 0.0
    rng = np.random.default_rng(0)
    Xc = rng.normal(size=(12, 3))
    Xc[:, 2] = 0.8 * Xc[:, 0] - 0.3 * Xc[:, 1]
    Xc = np.hstack([Xc, np.ones((12, 1))])
    yc = Xc @ np.array([1.0, -2.0, 0.5, 3.0]) + 0.1 * rng.normal(size=12)
    lam = 1e-3 * np.max(np.abs(2 * Xc.T @ yc))
    yield Xc, yc, 0.05 * lam, 0.95 * lam / 2  # elastic net, rho = 0.05


@pytest.mark.parametrize("problem", list(flat_valley_problems()), ids=["wide", "collinear"])
def test_coordinate_descent_crosses_a_flat_valley_in_a_few_sweeps(problem):
    # Plain cyclic CD drifts along the flat direction at a speed proportional to l1 per
    # sweep (about 260000 sweeps for the wide problem); the orthant Newton/null-space
    # step reaches the optimum at once.
    X, y, l1, l2 = problem
    plain = solve_l1_l2(X, y, l1=l1, l2=l2, tol=1e-12, max_iter=2000, refine=False)
    assert not plain.converged
    sol = solve_l1_l2(X, y, l1=l1, l2=l2, tol=1e-12, max_iter=2000)
    assert sol.converged and sol.n_iter <= 10
    assert np.all(np.diff(sol.objective_history) <= 1e-12 * sol.objective_history[0])
    assert sol.objective_history[-1] <= plain.objective_history[-1] + 1e-12 * (y @ y)
    ref = sk.ElasticNet(alpha=(l1 + 2 * l2) / (2 * len(y)), l1_ratio=l1 / (l1 + 2 * l2),
                        fit_intercept=False, tol=1e-14, max_iter=1_000_000)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        ref_obj = np.sum((y - X @ ref.fit(X, y).coef_) ** 2) + l1 * np.abs(
            ref.coef_).sum() + l2 * ref.coef_ @ ref.coef_
    assert sol.objective_history[-1] <= ref_obj + 1e-12 * (y @ y)


def exact_duality_gap(X, y, w, l1):
    """The LASSO duality gap at ``w`` in exact rational arithmetic (float inputs are exact
    dyadic rationals; the dual scaling s is rational)."""
    Xf = [[Fraction(v) for v in row] for row in X]
    wf, yf = [Fraction(v) for v in w], [Fraction(v) for v in y]
    r = [yi - sum(a * b for a, b in zip(row, wf, strict=True))
         for row, yi in zip(Xf, yf, strict=True)]
    c = [sum(Xf[i][j] * r[i] for i in range(len(r))) for j in range(len(wf))]
    half = Fraction(l1) / 2
    s = min(Fraction(1), half / max(abs(v) for v in c))
    return float((1 - s) ** 2 * sum(v * v for v in r)
                 + sum(Fraction(l1) * abs(wj) - 2 * s * cj * wj for wj, cj in zip(wf, c,
                                                                                  strict=True)))


def test_duality_gap_is_accurate_far_below_eps_times_the_objective():
    # Shrunk counterexample of lasso_optimality (seed 11): one ISTA step from 0 lands
    # 5e-16 above the optimum, with ||y||^2 = 4; primal minus dual evaluated directly
    # carries an error ~eps ||y||^2 that can round this gap to 0.
    x = np.array([0.00321764, 0.00110799, -0.00248426, 0.00382983, 0.00390533, -0.00328668,
                  -0.00361231, -0.00533642])
    y = np.array([0.8857589, 0.77275991, 0.58034838, 0.91854956, 0.92259355, 0.53736884,
                  0.51992705, 0.4275785])
    X = np.column_stack([x, np.ones_like(x)])
    l1 = 0.9 * np.max(np.abs(2 * X.T @ y))
    sol = solve_l1_l2(X, y, l1=l1, solver="ista", tol=1e-12)
    exact = exact_duality_gap(X, y, sol.coef, l1)
    assert 1e-16 < exact < 1e-15
    assert sol.duality_gap == pytest.approx(exact, rel=1e-3)


def test_fista_is_not_stalled_by_badly_scaled_columns():
    # [X, 1] with X of scale 5e-3 and coefficients ~100: condition ~2000, all from the
    # column scales. Unscaled proximal steps fall below eps |w| and stall at a duality gap
    # ~eps L ||w||^2 > 1e-12 ||y||^2 (seed-5 counterexample of lasso_optimality); the
    # Jacobi-scaled iteration converges in tens of iterations.
    rng = np.random.default_rng(3)
    X = np.hstack([0.005 * rng.normal(size=(7, 4)) + 0.01 * rng.uniform(-1, 1, size=4),
                   np.ones((7, 1))])
    y = X @ np.append(100 * rng.normal(size=4), 0.0)
    l1 = 1e-3 * np.max(np.abs(2 * X.T @ y))
    sol = solve_l1_l2(X, y, l1=l1, solver="fista", tol=1e-12, max_iter=5000)
    assert np.linalg.cond(X) > 1000
    assert sol.converged and sol.n_iter < 500
    cd = solve_l1_l2(X, y, l1=l1, tol=1e-12)
    np.testing.assert_allclose(sol.coef, cd.coef, rtol=1e-6, atol=1e-6)


def test_elastic_net_matches_sklearn_in_the_notes_parametrisation():
    X, y = regression_data(n=100, d=8)
    lam, rho = 30.0, 0.3
    m = ElasticNet(lam=lam, rho=rho, tol=1e-12).fit(X, y)
    ref = sk.ElasticNet(alpha=lam / (2 * X.shape[0]), l1_ratio=rho, tol=1e-14,
                        max_iter=100_000).fit(X, y)
    np.testing.assert_allclose(m.coef_, ref.coef_, rtol=1e-5, atol=1e-6)


def test_elastic_net_with_rho_one_is_the_lasso():
    X, y = regression_data()
    np.testing.assert_allclose(ElasticNet(lam=7.0, rho=1.0).fit(X, y).coef_,
                               Lasso(lam=7.0).fit(X, y).coef_, atol=1e-8)


def test_soft_threshold_is_formula_10_13():
    z = np.array([-3.0, -1.0, -0.5, 0.0, 0.5, 1.0, 3.0])
    np.testing.assert_array_equal(soft_threshold(z, 1.0), [-2.0, 0.0, 0.0, 0.0, 0.0, 0.0, 2.0])
    with pytest.raises(ValueError, match="threshold"):
        soft_threshold(z, -1.0)


# --- paths ------------------------------------------------------------------------------


def test_lasso_path_starts_at_zero_and_matches_single_fits():
    X, y = regression_data(n=60, d=6)
    path = lasso_path(X, y, n_lams=8, tol=1e-12)
    assert np.all(path.coefs[0] == 0.0) and path.converged.all()
    assert np.all(np.diff(path.lams) < 0)
    k = 5
    single = Lasso(lam=path.lams[k], tol=1e-12).fit(X, y)
    np.testing.assert_allclose(path.coefs[k], single.coef_, atol=1e-7)
    assert path.intercepts[k] == pytest.approx(single.intercept_, abs=1e-7)


def test_elastic_net_and_ridge_paths_match_single_fits():
    X, y = regression_data(n=60, d=6)
    lams = [0.5, 5.0, 50.0]
    rp = ridge_path(X, y, lams)
    for lam, coef in zip(rp.lams, rp.coefs, strict=True):
        np.testing.assert_allclose(coef, Ridge(lam=lam).fit(X, y).coef_, rtol=1e-9, atol=1e-12)
    ep = elastic_net_path(X, y, rho=0.4, lams=lams, tol=1e-12)
    for lam, coef in zip(ep.lams, ep.coefs, strict=True):
        np.testing.assert_allclose(coef, ElasticNet(lam=lam, rho=0.4, tol=1e-12).fit(X, y).coef_,
                                   atol=1e-7)


@pytest.mark.parametrize("lams", [[], [1.0, -1.0], [np.nan], [[1.0, "a"]]])
def test_paths_reject_bad_lambda_grids(lams):
    X, y = regression_data(n=10, d=2)
    with pytest.raises(ValueError, match="lams"):
        ridge_path(X, y, lams)
    with pytest.raises(ValueError, match="lams"):
        lasso_path(X, y, lams=lams)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"X": np.ones(10)}, "X must be a 2-d array"),
        ({"X": np.full((10, 2), np.inf)}, "X must contain only finite values"),
        ({"X": np.ones((0, 2)), "y": np.ones(0)}, "X must not be empty"),
        ({"y": np.ones(9)}, r"y must have shape \(10\)"),
        ({"y": np.full(10, np.nan)}, "y must contain only finite values"),
        ({"fit_intercept": "yes"}, "fit_intercept must be True or False"),
        ({"n_lams": 0}, "n_lams must be an integer in \\[1, "),
        ({"eps": 1.0}, "eps must be"),
        ({"solver": "lars"}, "solver must be one of"),
        ({"max_iter": 0}, "max_iter must be an integer >= 1"),
        ({"tol": -1.0}, "tol must be"),
        ({"rho": 0.0}, "rho must be"),
    ],
    ids=str,
)
def test_l1_paths_reject_bad_arguments_by_name(kwargs, message):
    X, y = regression_data(n=10, d=2)
    args = {"X": X, "y": y, **kwargs}
    path = elastic_net_path if "rho" in kwargs else lasso_path
    with pytest.raises(ValueError, match=message):
        path(args.pop("X"), args.pop("y"), **args)


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda X, y: ridge_solve(X, y, 0.0), "lam must be"),
        (lambda X, y: ridge_solve(X, y[:-1], 1.0), "y must have shape"),
        (lambda X, y: solve_l1_l2(X, y, l1=0.0), "l1 must be"),
        (lambda X, y: solve_l1_l2(X, y, l1=1.0, l2=-1.0), "l2 must be"),
        (lambda X, y: solve_l1_l2(X, y, l1=1.0, coef_init=np.ones(3)), "coef_init must have"),
        (lambda X, y: solve_l1_l2(X, y, l1=1.0, refine=1), "refine must be True or False"),
        (lambda X, y: solve_l1_l2(X[:, 0], y, l1=1.0), "X must be a 2-d array"),
        (lambda X, y: soft_threshold([1.0, np.nan], 1.0), "z must contain only finite"),
        (lambda X, y: elastic_net_penalties(1.0, 1.5), "rho must be"),
    ],
    ids=["ridge_lam", "ridge_y", "l1", "l2", "coef_init", "refine", "X_1d", "z_nan", "rho"],
)
def test_solver_functions_reject_bad_arguments_by_name(call, message):
    X, y = regression_data(n=10, d=2)
    with pytest.raises(ValueError, match=message):
        call(X, y)


def test_estimators_follow_the_sklearn_parameter_protocol():
    for est in (LinearRegression(solver="qr"), Ridge(lam=2.0), Lasso(lam=3.0, solver="ista"),
                ElasticNet(lam=1.0, rho=0.2)):
        assert clone(est).get_params() == est.get_params()
    X, y = regression_data()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert Lasso(lam=1.0).fit(X, y).score(X, y) > 0.5


def test_ridge_without_penalty_warns_exactly_on_rank_deficient_designs():
    import warnings as _warnings

    from algorithms.linear import RankDeficientWarning, Ridge

    rng = np.random.default_rng(5)
    X = rng.normal(size=(30, 3))
    y = X @ np.array([1.0, 2.0, 3.0])
    with _warnings.catch_warnings():
        _warnings.simplefilter("error", RankDeficientWarning)
        Ridge(lam=0.0).fit(X, y)  # tall, full rank: no warning
    X[:, 2] = X[:, 0] + X[:, 1]
    with pytest.warns(RankDeficientWarning):
        Ridge(lam=0.0).fit(X, y)
