"""Claims of 004 §1 and 003 §1.2-§1.4 (least squares, ridge, LASSO, elastic net, log-linear
regression) and the soft-thresholding step of 003 §10.4 (10.12)-(10.13), checked
against numpy/scipy least squares and independent cvxpy solutions."""

from __future__ import annotations

from collections.abc import Callable

import cvxpy as cp
import numpy as np
import scipy.optimize
from hypothesis import example, given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from algorithms.linear import (
    ElasticNet,
    Lasso,
    LinearRegression,
    LogLinearRegression,
    Ridge,
    SimpleLinearRegression,
    add_bias_column,
    lasso_path,
    ridge_solve,
    soft_threshold,
    solve_l1_l2,
)
from mltheory import ErratumKind, Expect, Method, claim, evidence
from mltheory.numeric import (
    EXACT_ARITHMETIC,
    REFERENCE_SOLVER,
    Tolerance,
    assert_close,
    assert_leq,
)
from properties.linear.strategies import regression_datasets
from properties.linear.support import (
    cvx_solve,
    least_squares_tolerance,
    penalised_objective,
    quietly,
    rounding_tolerance,
)

TALL = regression_datasets()
#: Moderately conditioned designs for the first-order solvers (their iteration counts
#: grow with the condition number).
WELL = st.one_of(regression_datasets(max_log10_condition=1.0),
                 regression_datasets(shape="wide", max_features=6, max_log10_condition=1.0))
WIDE = regression_datasets(shape="wide", max_features=6)
COLLINEAR = regression_datasets(shape="collinear")
RANK_DEFICIENT = st.one_of(WIDE, COLLINEAR)
ANY_SHAPE = st.one_of(TALL, WIDE, COLLINEAR)
#: Ridge/LASSO strengths relative to the data's scale (see lam_for).
LAMBDA_FRACTIONS = st.sampled_from([1e-3, 1e-2, 0.1, 0.5, 0.9, 1.5])
#: Small integers make the shrunk counterexamples of index/formula errata readable.
SMALL_INTS = st.integers(-3, 3).map(float)
#: Duality-gap tolerance passed to our LASSO/elastic-net solvers in these claims.
SOLVER_TOL = 1e-12


def lam_for(A: np.ndarray, y: np.ndarray, fraction: float) -> float:
    """``fraction * lambda_max`` with ``lambda_max = ||2 A^T y||_inf`` (the smallest lambda
    whose LASSO solution is 0); a floor keeps lambda > 0 when y is orthogonal to A."""
    lam_max = float(np.max(np.abs(2 * A.T @ y)))
    return max(fraction * lam_max, 1e-8 * (1.0 + float(y @ y)))


# ------------------------------------------------------------------ §1.2 univariate


@st.composite
def univariate_samples(draw):
    """x with a guaranteed spread: centre c, half-width s, x_0 = c - s, x_1 = c + s."""
    m = draw(st.integers(2, 12))
    c = draw(st.floats(-10, 10))
    s = draw(st.floats(1e-2, 10))
    u = draw(hnp.arrays(np.float64, m, elements=st.floats(-1, 1)))
    u[0], u[1] = -1.0, 1.0
    x = c + s * u
    y = draw(hnp.arrays(np.float64, m, elements=st.floats(-100, 100)))
    return x, y


def closed_form_1_6(x: np.ndarray, y: np.ndarray) -> tuple[float, float]:
    """003 (1.6) literally, with the raw denominator sum x^2 - (sum x)^2 / m."""
    m = x.size
    w = float(np.sum(y * (x - x.mean())) / (np.sum(x**2) - np.sum(x) ** 2 / m))
    return w, float(np.mean(y - w * x))


@claim(
    id="linear.ls1_closed_form_matches_lstsq",
    source="003 §1.2 (1.6)",
    statement="The closed form w = sum y_i (x_i - xbar) / (sum x_i^2 - (sum x_i)^2 / m), "
    "b = mean(y - w x) is the least-squares line (equals numpy's lstsq on [x, 1]).",
    method=Method.REFERENCE,
    tags=("linear", "least_squares"),
)
@given(sample=univariate_samples())
def ls1_closed_form_matches_lstsq(sample):
    check_univariate_fit(*sample)


def library_univariate(x: np.ndarray, y: np.ndarray) -> tuple[float, float]:
    model = SimpleLinearRegression().fit(x.reshape(-1, 1), y)
    return model.coef_, model.intercept_


def check_univariate_fit(x: np.ndarray, y: np.ndarray, closed_form=closed_form_1_6,
                         fit=library_univariate) -> None:
    """``closed_form(x, y)`` and ``fit(x, y)``, each ``(w, b)``, are the least-squares line."""
    A = np.column_stack([x, np.ones_like(x)])
    kappa = float(np.linalg.cond(A))
    ref = np.linalg.lstsq(A, y, rcond=None)[0]
    tol = least_squares_tolerance(kappa)
    assert_close(closed_form(x, y), ref, tol, label="(1.6) vs lstsq")
    assert_close(fit(x, y), ref, tol, label="SimpleLinearRegression vs lstsq")
    evidence.worst("condition number of [x, 1]", kappa)


# ------------------------------------------------------------------ §1.2 matrix form


def check_matrix_form(rows: np.ndarray, y: np.ndarray, w: np.ndarray, b: float,
                      design: Callable[[np.ndarray], np.ndarray]) -> None:
    """sum_i (w.x_i + b - y_i)^2 = (y - X w_hat)^T (y - X w_hat) for X = design(rows)."""
    direct = float(np.sum((rows @ w + b - y) ** 2))
    X = design(rows)
    if X.shape != (rows.shape[0], rows.shape[1] + 1):
        raise AssertionError(f"the design matrix has shape {X.shape}, expected "
                             f"{(rows.shape[0], rows.shape[1] + 1)}")
    r = y - X @ np.append(w, b)
    assert_close(r @ r, direct, EXACT_ARITHMETIC, label="matrix form vs sum of squares",
                 context=f"X = {X.tolist()}: ")


def note_design_1_2(rows: np.ndarray) -> np.ndarray:
    """004 §1.2's matrix as printed: row i is (x_{1,i}, x_{2,i}, ..., x_{n,i}, 1), i.e. the
    entry in row i, column j is x_{j,i} (defined only when N = n)."""
    return np.hstack([rows.T, np.ones((rows.shape[1], 1))])


@claim(
    id="linear.ols_matrix_form_1_7",
    source="003 §1.3 (1.7); 004 §1.2 (2)",
    statement="With X the matrix whose i-th row is (x_i^T, 1) and w_hat = (w; b), "
    "sum_i (w.x_i + b - y_i)^2 = (y - X w_hat)^T (y - X w_hat).",
    method=Method.PROPERTY,
    tags=("linear", "least_squares"),
)
@given(data=ANY_SHAPE, w_b=hnp.arrays(np.float64, 7, elements=st.floats(-10, 10)))
def ols_matrix_form_1_7(data, w_b):
    d = data.n_features
    check_matrix_form(data.X, data.y, w_b[:d], float(w_b[6]), add_bias_column)


@st.composite
def square_samples(draw):
    n = draw(st.integers(2, 3))
    rows = draw(hnp.arrays(np.float64, (n, n), elements=SMALL_INTS))
    y = draw(hnp.arrays(np.float64, n, elements=SMALL_INTS))
    w = draw(hnp.arrays(np.float64, n, elements=SMALL_INTS))
    b = draw(SMALL_INTS)
    return rows, y, w, b


@claim(
    id="linear.ols_design_matrix_indices_1_2",
    source="004 §1.2 (2); 004 §1.3",
    statement="The design matrix printed in 004 §1.2/§1.3, whose row i is (x_{1,i}, x_{2,i}, ..., "
    "x_{n,i}, 1) with x_i = (x_{i,1}, ..., x_{i,n}), turns the squared loss into "
    "(y - X w_hat)^T (y - X w_hat).",
    method=Method.PROPERTY,
    tags=("linear", "least_squares"),
    expect=Expect.REFUTED,
    kind=ErratumKind.SYMBOL,
    corrected_by="linear.ols_matrix_form_1_7",
    explanation="The printed matrix has its subscripts swapped: its entry (i, j) is x_{j,i}, the "
    "i-th feature of sample j, so its rows are the features, not the samples (and it is only "
    "defined when N = n). The intended matrix, stated in words right above it and in 003 (1.7), "
    "has row i equal to (x_i^T, 1), entry x_{i,j}.",
)
@given(sample=square_samples())
def ols_design_matrix_indices_1_2(sample):
    rows, y, w, b = sample
    check_matrix_form(rows, y, w, b, note_design_1_2)


# ------------------------------------------------------------------ §1.2 closed form (1.9)


@claim(
    id="linear.ols_closed_form_1_9",
    source="003 §1.3 (1.9)-(1.10); 004 §1.2 (3)",
    statement="When X^T X is full rank, w_hat* = (X^T X)^{-1} X^T y is the least-squares "
    "solution (equal to lstsq) and f(x_hat_i) = x_hat_i^T (X^T X)^{-1} X^T y its fit; the "
    "library's OLS (lstsq, QR and Cholesky solvers) returns it.",
    method=Method.REFERENCE,
    tags=("linear", "least_squares"),
)
@given(data=TALL)
def ols_closed_form_1_9(data):
    check_normal_equation_fit(data)


def note_normal_equation(A: np.ndarray, y: np.ndarray) -> np.ndarray:
    """(1.9) literally: (X^T X)^{-1} X^T y with an explicit inverse."""
    return np.linalg.inv(A.T @ A) @ A.T @ y


def library_ols(X: np.ndarray, y: np.ndarray, solver: str) -> LinearRegression:
    return quietly(LinearRegression(solver=solver).fit, X, y)


def check_normal_equation_fit(data, formula=note_normal_equation, fit=library_ols) -> None:
    """``formula(A, y)`` on the augmented design and ``fit(X, y, solver)`` for every solver
    give the least-squares solution (lstsq) and fitted values on a full-rank design."""
    A = data.augmented()
    note = formula(A, data.y)
    ref = np.linalg.lstsq(A, data.y, rcond=None)[0]
    tol = least_squares_tolerance(data.condition)
    assert_close(note, ref, tol, label="(1.9) vs lstsq")
    assert_close(A @ note, A @ ref, tol, label="(1.10) fitted values vs lstsq")
    for solver in ("lstsq", "qr", "cholesky"):
        model = fit(data.X, data.y, solver)
        if not model.full_rank_:
            raise AssertionError(f"{solver}: a full-rank design (cond {data.condition:.3g}) "
                                 f"reported rank {model.rank_}")
        assert_close(np.append(model.coef_, model.intercept_), ref, tol,
                     label="LinearRegression vs lstsq")
    evidence.worst("condition number of [X, 1]", data.condition)


@claim(
    id="linear.ols_rank_deficient_1_2",
    source="004 §1.2 (3)",
    statement="When X^T X is not full rank (e.g. fewer samples than features, N < n) there are "
    "many least-squares solutions, all with the same (minimal) squared error; the library "
    "reports the rank and returns the minimum-norm one.",
    method=Method.PROPERTY,
    tags=("linear", "least_squares"),
)
@given(data=RANK_DEFICIENT, t=st.floats(-10, 10))
def ols_rank_deficient_1_2(data, t):
    check_rank_deficient_fit(data, t)


def check_rank_deficient_fit(data, t: float,
                             fit=lambda X, y: quietly(LinearRegression().fit, X, y)) -> None:
    """``fit(X, y)`` on a rank-deficient design reports the rank and returns a minimum-norm
    least-squares solution (moving along the null space leaves the loss unchanged)."""
    A = data.augmented()
    n, p = A.shape
    model = fit(data.X, data.y)
    if model.full_rank_ or model.rank_ >= p:
        raise AssertionError(f"rank-deficient design ({n}x{p}) reported full rank {model.rank_}")
    if n < p and model.rank_ > n:
        raise AssertionError(f"rank {model.rank_} exceeds the number of samples {n}")
    sv = np.linalg.svd(A, compute_uv=False)
    clear, nonzero = int(np.sum(sv > 1e-8 * sv[0])), int(np.sum(sv > 0))
    if not clear <= model.rank_ <= nonzero:  # independent of the design's scale
        raise AssertionError(f"reported rank {model.rank_}, but {clear} singular values exceed "
                             f"1e-8 s_max and {nonzero} are non-zero")
    # the rank is a property of the design, not of its units: the same augmented design
    # in units of 2^-40 (exact), passed without an intercept, has the same rank
    small = quietly(LinearRegression(fit_intercept=False).fit, A * 2.0**-40, data.y)
    if small.rank_ != model.rank_:
        raise AssertionError(f"rank {small.rank_} of the design in units of 2^-40, "
                             f"{model.rank_} in its own units")
    w_hat = np.append(model.coef_, model.intercept_)
    null_basis = np.linalg.svd(A)[2][model.rank_:]
    v = null_basis[0] * t * (1.0 + np.linalg.norm(w_hat))
    loss = float(np.sum((data.y - A @ w_hat) ** 2))
    other = float(np.sum((data.y - A @ (w_hat + v)) ** 2))
    scale = float(data.y @ data.y) + 1.0
    tol = Tolerance(rtol=0.0, atol=1e-8 * scale,
                    reason="losses of order ||y||^2; null-space vector from the SVD")
    assert_close(other, loss, tol, label="loss at w_hat + null vector vs at w_hat")
    ref_loss = float(np.sum((data.y - A @ np.linalg.lstsq(A, data.y, rcond=None)[0]) ** 2))
    assert_close(loss, ref_loss, tol, label="loss vs minimal loss")
    # minimum norm: the solution has no component in the null space
    assert_close(null_basis @ w_hat, np.zeros(null_basis.shape[0]),
                 Tolerance(rtol=0.0, atol=1e-8 * (1.0 + np.linalg.norm(w_hat)),
                           reason="projection of an SVD solution onto the null space"),
                 label="null-space component of the solution")
    evidence.record("rank deficiency cases", "wide (N <= n) and collinear columns")


# ------------------------------------------------------------------ ridge


def ridge_cvx(A: np.ndarray, y: np.ndarray, lam: float, penalised: np.ndarray,
              squared: bool = True) -> np.ndarray:
    w = cp.Variable(A.shape[1])
    norm = cp.sum_squares(cp.multiply(penalised, w)) if squared else cp.norm(
        cp.multiply(penalised, w), 2)
    return cvx_solve(cp.sum_squares(y - A @ w) + lam * norm, w)


def check_ridge(data, fraction, closed_form) -> None:
    """closed_form(A, y, lam) is the minimiser of ||y - A w||^2 + lam ||w||^2 (004 §1.2)."""
    A = data.augmented()
    lam = lam_for(A, data.y, fraction)
    ours = closed_form(A, data.y, lam)
    grad = 2 * A.T @ (A @ ours - data.y) + 2 * lam * ours
    scale = 2 * float(np.max(np.abs(A.T @ data.y))) + 2 * lam * float(np.max(np.abs(ours))) + 1e-300
    assert_leq(float(np.max(np.abs(grad))) / scale, 1e-7, label="stationarity residual (relative)",
               context="gradient of the ridge objective at the closed form: ")
    cvx = ridge_cvx(A, data.y, lam, np.ones(A.shape[1]))
    p_ours = penalised_objective(A, data.y, ours, l2=lam)
    p_cvx = penalised_objective(A, data.y, cvx, l2=lam)
    assert_leq(p_ours, p_cvx * (1 + 1e-9) + 1e-12, label="P(closed form) / P(cvxpy)")
    # strong convexity (modulus 2 lam): ||w_cvx - w*||^2 <= (P(w_cvx) - P*) / lam
    dist2 = float(np.sum((cvx - ours) ** 2))
    allowed = (p_cvx - p_ours + 1e-10 * p_cvx) / lam
    assert_leq(dist2, max(allowed, 0.0) + 1e-24, label="||w_cvx - w||^2 / strong-convexity bound")


@claim(
    id="linear.ridge_closed_form_1_2",
    source="004 §1.2 (L2 regularisation); 003 §10.4 (10.6)",
    statement="For lambda > 0 the ridge objective (y - X w_hat)^T (y - X w_hat) + lambda "
    "||w_hat||_2^2 has the unique minimiser (X^T X + lambda I)^{-1} X^T y, also when X^T X is "
    "singular (N < n or collinear columns); it agrees with a cvxpy solution.",
    method=Method.REFERENCE,
    tags=("linear", "ridge", "cvxpy"),
)
@given(data=ANY_SHAPE, fraction=LAMBDA_FRACTIONS)
def ridge_closed_form_1_2(data, fraction):
    check_ridge(data, fraction, ridge_solve)
    A = data.augmented()
    lam = lam_for(A, data.y, fraction)
    model = Ridge(lam=lam, penalize_intercept=True).fit(data.X, data.y)
    assert_close(np.append(model.coef_, model.intercept_), ridge_solve(A, data.y, lam),
                 least_squares_tolerance(1.0), label="Ridge(penalize_intercept) vs ridge_solve")
    # the library's default leaves the intercept unpenalised: compare with that objective
    default = Ridge(lam=lam).fit(data.X, data.y)
    mask = np.append(np.ones(data.n_features), 0.0)
    cvx = ridge_cvx(A, data.y, lam, mask)
    p = penalised_objective(A, data.y, np.append(default.coef_, default.intercept_), l2=0.0) + \
        lam * float(default.coef_ @ default.coef_)
    p_cvx = penalised_objective(A, data.y, cvx) + lam * float(cvx[:-1] @ cvx[:-1])
    assert_leq(p, p_cvx * (1 + 1e-9) + 1e-12, label="P(Ridge, free intercept) / P(cvxpy)")


@claim(
    id="linear.ridge_algorithm_unsquared_norm_1_3",
    source="004 §1.3",
    statement="The multivariate linear regression algorithm of 004 §1.3 (input: an L2 coefficient "
    "lambda) solves min (y - X w_hat)^T (y - X w_hat) + lambda ||w_hat||_2, i.e. the ridge "
    "regression of 004 §1.2.",
    method=Method.REFERENCE,
    tags=("linear", "ridge", "cvxpy"),
    expect=Expect.REFUTED,
    kind=ErratumKind.TERM,
    corrected_by="linear.ridge_closed_form_1_2",
    explanation="The algorithm box drops the square on the norm: lambda ||w||_2 is not the ridge "
    "penalty lambda ||w||_2^2 of §1.2. The two problems have different minimisers (the unsquared "
    "one is exactly 0 whenever ||2 X^T y||_2 <= lambda, like a group LASSO); the ridge penalty "
    "must be squared.",
)
@given(data=TALL, fraction=LAMBDA_FRACTIONS)
def ridge_algorithm_unsquared_norm_1_3(data, fraction):
    check_penalty_gives_ridge(data, fraction, squared=False)


def check_penalty_gives_ridge(data, fraction, squared: bool) -> None:
    """The cvxpy minimiser of ||y - A w||^2 + lam ||w||_2 (``squared=False``, as the
    algorithm box writes it) or + lam ||w||_2^2 (``squared=True``) is the ridge closed form."""
    A = data.augmented()
    lam = lam_for(A, data.y, fraction)
    as_written = ridge_cvx(A, data.y, lam, np.ones(A.shape[1]), squared=squared)
    assert_close(as_written, ridge_solve(A, data.y, lam), REFERENCE_SOLVER,
                 label="minimiser with lambda||w|| vs ridge closed form")


# ------------------------------------------------------------------ LASSO / elastic net


def library_l1_fit(solver: str, max_iter: int):
    """Fit the notes' (lambda, rho) problem on the augmented design with our estimators;
    returns ``(coef, duality_gap)``."""
    def fit(A: np.ndarray, y: np.ndarray, lam: float, rho: float):
        est = (Lasso(lam=lam, fit_intercept=False, solver=solver, tol=SOLVER_TOL,
                     max_iter=max_iter) if rho == 1.0 else
               ElasticNet(lam=lam, rho=rho, fit_intercept=False, solver=solver, tol=SOLVER_TOL,
                          max_iter=max_iter))
        model = quietly(est.fit, A, y)
        if not model.converged_:
            raise AssertionError(f"{solver} did not reach the duality-gap tolerance in "
                                 f"{max_iter} iterations (gap {model.duality_gap_:.3g})")
        return model.coef_, model.duality_gap_
    return fit


def l1_rounding(A: np.ndarray, y: np.ndarray, w: np.ndarray, l1: float, l2: float,
                L: float) -> tuple[float, float]:
    """Float64 rounding allowances ``(for the duality gap, for ||G(w)||)`` at ``w``.

    Near the optimum the gap is a difference of quantities much larger than itself, so
    its computed value carries an absolute error that no solver tolerance removes (a
    float64 gap of 0 for an exact gap of 5e-16 at ||y||^2 = 4 makes sqrt(2 L gap) miss
    ||G|| = 1.2e-7). With ``c = A^T (y - A w) - l2 w`` (computed directly or from the
    Gram matrix), the gap is ``(1-s)^2 ||r~||^2 + sum_j (l1 |w_j| - 2 s c_j w_j)`` (equal
    to primal minus dual, however it is evaluated), and every quantity in it is a
    sum of at most ``k = N + 2d + 8`` rounded terms whose absolute values add up to at
    most ``c_mag = |A|^T |y| + |A|^T |A| |w| + l2 |w|`` (for ``c``) and
    ``M = l1 ||w||_1 + 2 |w|^T c_mag + 2 (1-s)^2 (||y||^2 + |w|^T c_mag) + l2 ||w||^2``
    (for the gap), so its error is at most ``gamma_k M``. ``G`` is built from ``c``,
    ``w`` and the threshold ``l1 / L`` through a 1-Lipschitz soft-threshold, so each
    component errs by at most ``gamma_k (2 L |w_j| + 4 c_mag_j + l1)``.
    """
    n, d = A.shape
    tol = rounding_tolerance(n + 2 * d + 8)
    aw, absA = np.abs(w), np.abs(A)
    c_mag = absA.T @ (np.abs(y) + absA @ aw) + l2 * aw
    c = A.T @ (y - A @ w) - l2 * w
    c_max = float(np.max(np.abs(c))) if c.size else 0.0
    s = 1.0 if c_max <= 0.5 * l1 else 0.5 * l1 / c_max
    magnitude = (l1 * float(aw.sum()) + 2 * float(aw @ c_mag)
                 + 2 * (1 - s) ** 2 * (float(y @ y) + float(aw @ c_mag)) + l2 * float(aw @ aw))
    gap_rounding = float(tol.bound(0.0, 0.0, scale=magnitude))
    residual_rounding = float(tol.bound(0.0, 0.0, scale=np.linalg.norm(
        2 * L * aw + 4 * c_mag + l1)))
    return gap_rounding, residual_rounding


def check_l1_problem(data, fraction, rho, fit) -> None:
    """The notes' objective ||y - A w||^2 + lam rho ||w||_1 + lam (1-rho)/2 ||w||^2 (w_hat
    penalised in full): ``fit(A, y, lam, rho) -> (coef, gap)`` meets the optimality
    condition (certified by its duality gap) and is no worse than cvxpy's solution."""
    A = data.augmented()
    lam = lam_for(A, data.y, fraction)
    l1, l2 = lam * rho, lam * (1 - rho) / 2
    w, gap = fit(A, data.y, lam, rho)
    # Optimality condition 0 in grad f(w) + l1 d||w||_1 (f the smooth part) in its residual
    # form: G(w) = L (w - soft_threshold(w - grad f(w)/L, l1/L)) vanishes exactly at the
    # optimum, and a 1/L proximal step decreases the objective by ||G||^2/(2L), so
    # ||G(w)||^2 <= 2 L (P(w) - P*) <= 2 L * duality gap.
    L = 2 * (np.linalg.norm(A, 2) ** 2 + l2)
    grad = -2 * A.T @ (data.y - A @ w) + 2 * l2 * w
    G = L * (w - soft_threshold(w - grad / L, l1 / L))
    residual = float(np.linalg.norm(G))
    gap_rounding, residual_rounding = l1_rounding(A, data.y, w, l1, l2, L)
    assert_leq(residual, np.sqrt(2 * L * (gap + gap_rounding)) + residual_rounding,
               label="optimality residual ||G(w)|| / sqrt(2 L gap)")
    zero = w == 0
    v = cp.Variable(A.shape[1])
    cvx = cvx_solve(cp.sum_squares(data.y - A @ v) + l1 * cp.norm1(v) + l2 * cp.sum_squares(v), v)
    p_ours = penalised_objective(A, data.y, w, l1, l2)
    p_cvx = penalised_objective(A, data.y, cvx, l1, l2)
    assert_leq(p_ours, p_cvx + 1e-9 * max(p_cvx, float(data.y @ data.y)) + 1e-12,
               label="P(ours) / P(cvxpy)")
    evidence.record("sparsity (zero coefficients) of the last example", int(zero.sum()))


@claim(
    id="linear.lasso_optimality_1_2",
    source="004 §1.2 (L1 regularisation); 003 §10.4 (10.7)",
    statement="The LASSO solution of min (y - X w_hat)^T (y - X w_hat) + lambda ||w_hat||_1 "
    "(lambda > 0) satisfies the sub-gradient optimality conditions and attains the optimum "
    "(coordinate descent on all drawn designs, FISTA on moderately conditioned ones; against "
    "cvxpy).",
    method=Method.REFERENCE,
    tags=("linear", "lasso", "cvxpy"),
)
@given(data=ANY_SHAPE, well=WELL, fraction=LAMBDA_FRACTIONS)
def lasso_optimality_1_2(data, well, fraction):
    check_l1_problem(data, fraction, 1.0, library_l1_fit("cd", 200_000))
    check_l1_problem(well, fraction, 1.0, library_l1_fit("fista", 50_000))


@claim(
    id="linear.enet_optimality_1_2",
    source="004 §1.2 (Elastic Net)",
    statement="The elastic-net solution of min (y - X w_hat)^T (y - X w_hat) + lambda rho "
    "||w_hat||_1 + lambda (1 - rho)/2 ||w_hat||_2^2 (lambda > 0, 0 < rho < 1) satisfies the "
    "optimality conditions and attains the optimum (against cvxpy).",
    method=Method.REFERENCE,
    tags=("linear", "elastic_net", "cvxpy"),
)
@given(data=ANY_SHAPE, fraction=LAMBDA_FRACTIONS, rho=st.sampled_from([0.05, 0.3, 0.7, 0.95]))
def enet_optimality_1_2(data, fraction, rho):
    check_l1_problem(data, fraction, rho, library_l1_fit("cd", 200_000))


def check_enet_small_rho_limit(data, fraction, rho, ridge_lam_factor) -> None:
    """||w_EN(rho) - w_ridge(ridge_lam_factor * lam)|| <= rho (||w_R|| + sqrt(p)) / (1 - rho)
    + sqrt(gap / (lam (1 - rho))) (strong monotonicity of the smooth part; the last term
    bounds the elastic-net solver's own error through its duality gap)."""
    A = data.augmented()
    lam = lam_for(A, data.y, fraction)
    enet = quietly(ElasticNet(lam=lam, rho=rho, fit_intercept=False, tol=SOLVER_TOL,
                              max_iter=200_000).fit, A, data.y)
    w_r = ridge_solve(A, data.y, ridge_lam_factor * lam)
    mu = lam * (1 - rho)
    bound = rho * (np.linalg.norm(w_r) + np.sqrt(A.shape[1])) / (1 - rho) + np.sqrt(
        2 * enet.duality_gap_ / mu)
    dist = float(np.linalg.norm(enet.coef_ - w_r))
    assert_leq(dist, bound * (1 + 1e-6) + 1e-9 * (1 + np.linalg.norm(w_r)),
               label="||w_EN - w_ridge|| / bound")


@claim(
    id="linear.enet_limits_1_2",
    source="004 §1.2 (Elastic Net)",
    statement="rho balances the two penalties: at rho = 1 the elastic net is the LASSO with "
    "lambda, and as rho -> 0 it tends to ridge regression with lambda / 2, with "
    "||w_EN - w_ridge|| <= rho (||w_ridge|| + sqrt(p)) / (1 - rho).",
    method=Method.PROPERTY,
    tags=("linear", "elastic_net"),
)
@given(data=WELL, fraction=LAMBDA_FRACTIONS, rho=st.sampled_from([1e-4, 1e-2, 0.1]))
def enet_limits_1_2(data, fraction, rho):
    check_enet_small_rho_limit(data, fraction, rho, 0.5)
    A = data.augmented()
    lam = lam_for(A, data.y, fraction)
    en = quietly(ElasticNet(lam=lam, rho=1.0, fit_intercept=False, tol=SOLVER_TOL,
                            max_iter=200_000).fit, A, data.y)
    la = quietly(Lasso(lam=lam, fit_intercept=False, tol=SOLVER_TOL, max_iter=200_000).fit,
                 A, data.y)
    assert_close(en.coef_, la.coef_, EXACT_ARITHMETIC, label="ElasticNet(rho=1) vs Lasso")


# ------------------------------------------------------------------ soft thresholding


def soft_threshold_10_13(z: np.ndarray, t: float) -> np.ndarray:
    """003 (10.13) literally: z - t if t < z; 0 if |z| <= t; z + t if z < -t."""
    return np.where(z > t, z - t, np.where(z < -t, z + t, 0.0))


def check_prox(z: np.ndarray, L: float, lam: float,
               prox: Callable[[np.ndarray, float], np.ndarray]) -> None:
    """prox(z, lam / L) minimises (L/2) ||x - z||^2 + lam ||x||_1 (003 (10.12))."""
    x = prox(z, lam / L)
    assert_close(x, soft_threshold_10_13(z, lam / L), EXACT_ARITHMETIC,
                 label="prox vs the piecewise formula (10.13)")
    # optimality: L (z - x) in lam * subdifferential of |x| (coordinate-wise)
    g = L * (z - x)
    nz = x != 0
    assert_close(g[nz], lam * np.sign(x[nz]), EXACT_ARITHMETIC, label="L(z - x) = lam sign(x)")
    assert_leq(float(np.max(np.abs(g[~nz]), initial=0.0)), lam, label="|L z| / lam on zeros")
    # independent scalar minimisation per coordinate (bounded Brent)
    for zi, xi in zip(z, x, strict=True):
        def f(v, zi=zi):
            return 0.5 * L * (v - zi) ** 2 + lam * abs(v)
        lo, hi = min(zi, 0.0) - 1.0, max(zi, 0.0) + 1.0
        res = scipy.optimize.minimize_scalar(f, bounds=(lo, hi), method="bounded",
                                             options={"xatol": 1e-12})
        assert_leq(f(xi), f(res.x) + 1e-12 * (1 + abs(f(res.x))),
                   label="objective at prox / at Brent minimiser")


@claim(
    id="linear.soft_threshold_prox_10_13",
    source="003 §10.4 (10.12)-(10.13)",
    statement="x = argmin_x (L/2) ||x - z||^2 + lambda ||x||_1 separates over coordinates and "
    "is given by x^i = z^i - lambda/L if z^i > lambda/L, 0 if |z^i| <= lambda/L, and "
    "z^i + lambda/L if z^i < -lambda/L (soft thresholding).",
    method=Method.REFERENCE,
    tags=("linear", "lasso", "proximal"),
)
@given(z=hnp.arrays(np.float64, st.integers(1, 6), elements=st.floats(-20, 20)),
       L=st.floats(0.1, 10.0), lam=st.floats(0.0, 20.0))
@example(z=np.array([2.0, -2.0, 2.0000001, 0.0]), L=1.0, lam=2.0)  # the kinks |z| = lambda/L
def soft_threshold_prox_10_13(z, L, lam):
    check_prox(z, L, lam, soft_threshold)


def ista_history(A: np.ndarray, y: np.ndarray, lam: float) -> np.ndarray:
    model = quietly(Lasso(lam=lam, fit_intercept=False, solver="ista", tol=1e-10,
                          max_iter=500).fit, A, y)
    return model.objective_history_


def check_ista_monotone(data, fraction, run: Callable[[np.ndarray, np.ndarray, float],
                                                      np.ndarray]) -> None:
    """The objective never increases along proximal-gradient iterations with step 1/L."""
    A = data.augmented()
    lam = lam_for(A, data.y, fraction)
    h = run(A, data.y, lam)
    increase = float(np.max(np.diff(h), initial=0.0))
    assert_leq(increase, 1e-12 * h[0], label="largest objective increase between iterations",
               context="proximal gradient with step 1/L: ")


@claim(
    id="linear.lasso_ista_monotone_10_11",
    source="003 §10.4 (10.9)-(10.13)",
    statement="Each proximal-gradient step x_{k+1} = soft_threshold(x_k - grad f(x_k)/L, lambda/L)"
    " with L the Lipschitz constant of grad f (f = ||y - X w||^2, L = 2 s_max(X)^2) minimises the "
    "quadratic upper model, so the LASSO objective never increases.",
    method=Method.PROPERTY,
    tags=("linear", "lasso", "proximal"),
)
@given(data=ANY_SHAPE, fraction=LAMBDA_FRACTIONS)
def lasso_ista_monotone_10_11(data, fraction):
    check_ista_monotone(data, fraction, ista_history)


def ista_steps(A: np.ndarray, y: np.ndarray, lam: float, steps: int):
    """The library's ISTA stopped after ``steps`` iterations (a tolerance it cannot meet)."""
    return solve_l1_l2(A, y, l1=lam, solver="ista", max_iter=steps, tol=1e-300)


def literal_ista(A: np.ndarray, y: np.ndarray, lam: float, steps: int) -> np.ndarray:
    """003 (10.11)-(10.13) literally, from x_0 = 0: ``steps`` times the gradient step
    z = x - grad f(x) / L on f = ||y - A x||^2 (grad f = -2 A^T (y - A x), L = 2 s_max^2),
    then x = soft_threshold(z, lambda / L), written out coordinate by coordinate."""
    L = 2.0 * float(np.linalg.svd(A, compute_uv=False)[0]) ** 2 if A.size else 0.0
    x = np.zeros(A.shape[1])
    if L == 0.0:
        return x
    for _ in range(steps):
        z = x + 2.0 * A.T @ (y - A @ x) / L
        x = np.where(z > lam / L, z - lam / L, np.where(z < -lam / L, z + lam / L, 0.0))
    return x


def check_ista_steps(data, fraction: float, steps: int, run=ista_steps) -> None:
    """``run(A, y, lam, k)`` (an :class:`L1Solution`) stops after exactly k iterations
    unless its duality gap vanished first, records one objective per iterate (the last one
    that of the returned x) and returns the k-th iterate of the proximal-gradient
    recursion computed independently."""
    A = data.augmented()
    lam = lam_for(A, data.y, fraction)
    sol = run(A, data.y, lam, steps)
    if not sol.converged and sol.n_iter != steps:
        raise AssertionError(f"max_iter = {steps} but {sol.n_iter} ISTA steps were run")
    if len(sol.objective_history) != sol.n_iter + 1:
        raise AssertionError(f"{len(sol.objective_history)} objectives recorded for "
                             f"{sol.n_iter} steps")
    literal = literal_ista(A, data.y, lam, sol.n_iter)
    size = max(1.0, float(np.max(np.abs(literal), initial=0.0)))
    assert_close(sol.coef, literal, Tolerance(
        rtol=1e-9, atol=1e-9 * size, reason="a few nonexpansive steps through different but "
                     "equivalent products (Gram matrix vs residuals, SVD routines)"),
        label="library ISTA iterate vs the literal recursion")
    assert_close(sol.objective_history[-1], penalised_objective(A, data.y, sol.coef, l1=lam),
                 ONE_SWEEP, label="last recorded objective vs objective at the iterate")


@claim(
    id="linear.lasso_ista_steps_10_11",
    source="003 §10.4 (10.10)-(10.13)",
    statement="Proximal gradient descent for the LASSO iterates x_{k+1} = soft_threshold("
    "x_k - grad f(x_k)/L, lambda/L) (f = ||y - X w||^2, L = 2 s_max(X)^2): from x_0 = 0, "
    "max_iter = k gives exactly the k-th iterate of that recursion (unless the duality gap "
    "is already zero), with the objective of each iterate recorded.",
    method=Method.PROPERTY,
    tags=("linear", "lasso", "proximal"),
)
@given(data=ANY_SHAPE, fraction=LAMBDA_FRACTIONS, steps=st.integers(1, 4))
def lasso_ista_steps_10_11(data, fraction, steps):
    check_ista_steps(data, fraction, steps)


# ------------------------------------------------------------------ LASSO path


def check_lasso_path_start(data, n_lams: int, level: float, path=lasso_path) -> None:
    """``path(X, y, n_lams=...)`` (default grid, with intercept) starts at lambda_max =
    2 ||X_c^T y_c||_inf, where the solution is 0 (up to rounding), and is non-zero just
    below it; on y = level (constant: y_c = 0, orthogonal to every column) every point of
    the path, whatever its grid, is w = 0 with intercept level."""
    x_mean, y_mean = data.X.mean(axis=0), data.y.mean()
    Xc, yc = data.X - x_mean, data.y - y_mean
    lam_max = 2.0 * float(np.max(np.abs(Xc.T @ yc)))
    fit = quietly(path, data.X, data.y, n_lams=n_lams, tol=1e-12)
    if fit.lams.size != n_lams:
        raise AssertionError(f"n_lams = {n_lams} but the path has {fit.lams.size} points")
    # Two roundings of 2 max_j |x_cj^T y_c| (centring, then a sum of N products) differ by
    # at most twice gamma_{N+2} times the sum of the magnitudes that enter them.
    magnitude = 2.0 * float(np.max(
        (np.abs(data.X) + np.abs(x_mean)).T @ (np.abs(data.y) + abs(y_mean)), initial=0.0))
    rounding = 2.0 * float(rounding_tolerance(data.X.shape[0] + 2).bound(0.0, 0.0,
                                                                         scale=magnitude))
    if lam_max > 10.0 * rounding:  # y_c is not orthogonal to the columns up to rounding
        assert_close(fit.lams[0], lam_max, Tolerance(
            rtol=0.0, atol=rounding, reason="the same inner products, rounded in another order"),
            label="first lambda vs 2 ||X_c^T y_c||_inf")
        col = np.linalg.norm(Xc, axis=0)
        assert_leq(float(np.max(np.abs(fit.coefs[0]) * col)), 1e-9 * float(np.linalg.norm(yc)),
                   label="max_j |w_j| ||x_j|| / ||y_c|| at lambda_max")
        if n_lams > 1 and not np.any(fit.coefs[1] != 0.0):
            raise AssertionError(f"lambda = {fit.lams[1]:.6g} < lambda_max = {lam_max:.6g} "
                                 "but the path's solution there is 0")
    flat = np.full(data.y.shape, level)
    fit = quietly(path, data.X, flat, n_lams=n_lams, tol=1e-12)
    if fit.lams.size != n_lams or not np.all(fit.lams > 0):
        raise AssertionError(f"constant y: a path of {fit.lams.size} lambdas {fit.lams}")
    if np.any(fit.coefs != 0.0):
        raise AssertionError("constant y (X_c^T y_c = 0): a non-zero LASSO solution")
    assert_close(fit.intercepts, np.full(n_lams, level), EXACT_ARITHMETIC,
                 label="constant y: intercepts vs the constant")


@claim(
    id="linear.lasso_path_lambda_max_1_2",
    source="004 §1.2 (L1 regularisation); 003 §10.4 (10.7)",
    statement="By the sub-gradient optimality condition, w = 0 solves the LASSO (intercept "
    "unpenalised) exactly when lambda >= lambda_max = 2 ||X_c^T y_c||_inf: a path down from "
    "lambda_max is 0 at its start and non-zero below it, and when y_c is orthogonal to every "
    "column (constant y) the solution is 0 for every lambda > 0.",
    method=Method.PROPERTY,
    tags=("linear", "lasso"),
)
@given(data=ANY_SHAPE, n_lams=st.integers(1, 4), level=SMALL_INTS)
def lasso_path_lambda_max_1_2(data, n_lams, level):
    check_lasso_path_start(data, n_lams, level)


# ------------------------------------------------------------------ log-linear


LOGLINEAR_NOISE = st.sampled_from([0.0, 0.1, 1.0])


@claim(
    id="linear.loglinear_regression_1_12",
    source="003 §1.4 (1.12); 004 §2.1 (2)",
    statement="Log-linear regression fits ln y = w^T x + b by least squares on ln y (y > 0), so "
    "exp(w^T x + b) approximates y; on exact exponential data it recovers w and b.",
    method=Method.PROPERTY,
    tags=("linear", "glm"),
)
@given(data=TALL, noise=LOGLINEAR_NOISE)
def loglinear_regression_1_12(data, noise):
    check_loglinear_fit(data, noise)


def check_loglinear_fit(data, noise: float, model_factory=LogLinearRegression) -> None:
    """``model_factory().fit(X, y)`` on y = exp(w^T x + b + noise) is OLS on ln y, recovers
    ln y on exact data and predicts positive values."""
    rng = np.random.default_rng(data.n_samples)
    log_y = data.X @ data.coef + data.intercept
    log_y = log_y / max(1.0, float(np.max(np.abs(log_y))) / 50.0)  # keep exp(.) finite
    y = np.exp(log_y + noise * rng.normal(size=log_y.size))
    model = quietly(model_factory().fit, data.X, y)
    ref = quietly(LinearRegression().fit, data.X, np.log(y))
    tol = least_squares_tolerance(data.condition)
    assert_close(np.append(model.coef_, model.intercept_), np.append(ref.coef_, ref.intercept_),
                 tol, label="log-linear vs OLS on ln y")
    if noise == 0.0:
        assert_close(model.predict_log(data.X), log_y, tol, label="exact data: ln y recovered")
    if not np.all(model.predict(data.X) > 0):
        raise AssertionError("exp(w^T x + b) must be positive")


# ------------------------------------------------------------------ coordinate descent


def one_cd_sweep(A: np.ndarray, y: np.ndarray, lam: float) -> np.ndarray:
    """One cyclic sweep from w = 0, each coordinate set to its exact minimiser of
    ||y - A w||^2 + lam ||w||_1 with the others fixed: S(a_j^T r_j, lam/2) / ||a_j||^2."""
    w = np.zeros(A.shape[1])
    for j in range(A.shape[1]):
        sq = float(A[:, j] @ A[:, j])
        if sq == 0.0:
            continue
        rho = float(A[:, j] @ (y - A @ w + A[:, j] * w[j]))
        w[j] = np.sign(rho) * max(abs(rho) - lam / 2, 0.0) / sq
    return w


def lasso_cd(A: np.ndarray, y: np.ndarray, lam: float, sweeps: int) -> Lasso:
    return quietly(Lasso(lam=lam, fit_intercept=False, solver="cd", max_iter=sweeps,
                         tol=1e-15).fit, A, y)


#: One sweep computed by the library (Gram products, incremental residuals) and by the
#: direct formula differ by the rounding of a few length-N dot products per coordinate.
ONE_SWEEP = Tolerance(rtol=1e-9, atol=1e-12,
                      reason="the same coordinate minimisations through different but "
                      "equivalent products (Gram matrix vs residuals)")


def check_cd_sweeps(data, fraction: float, sweeps: int, fit=lasso_cd) -> None:
    """``fit(A, y, lam, k)`` stops after exactly k sweeps unless converged (n_iter_ and a
    history of n_iter_ + 1 objectives, the last one the objective at coef_); one sweep is
    the exact coordinate minimisation computed independently."""
    A = data.augmented()
    lam = lam_for(A, data.y, fraction)
    model = fit(A, data.y, lam, sweeps)
    if not model.converged_ and model.n_iter_ != sweeps:
        raise AssertionError(f"max_iter = {sweeps} but {model.n_iter_} sweeps were run")
    if len(model.objective_history_) != model.n_iter_ + 1:
        raise AssertionError(f"{len(model.objective_history_)} objectives recorded for "
                             f"{model.n_iter_} sweeps")
    assert_close(model.objective_history_[-1],
                 penalised_objective(A, data.y, model.coef_, l1=lam), ONE_SWEEP,
                 label="last recorded objective vs objective at coef_")
    if sweeps == 1:
        assert_close(model.coef_, one_cd_sweep(A, data.y, lam), ONE_SWEEP,
                     label="one library sweep vs the exact coordinate minimisations")


@claim(
    id="linear.lasso_cd_sweeps_1_2",
    source="004 §1.2 (L1 regularisation)",
    statement="Coordinate descent for the LASSO of 004 §1.2 minimises the objective exactly "
    "in one coordinate at a time (soft-thresholding at lambda/2 over ||x_j||^2); max_iter "
    "caps the number of full sweeps exactly, and the recorded objective is that of the "
    "returned coefficients.",
    method=Method.PROPERTY,
    tags=("linear", "lasso"),
)
@given(data=ANY_SHAPE, fraction=LAMBDA_FRACTIONS, sweeps=st.integers(1, 4))
def lasso_cd_sweeps_1_2(data, fraction, sweeps):
    check_cd_sweeps(data, fraction, sweeps)


# ------------------------------------------------------------------ Lipschitz constant


def smooth_gradient(A: np.ndarray, y: np.ndarray, l2: float, scale: np.ndarray, u: np.ndarray
                    ) -> np.ndarray:
    """Gradient in u of f(D^-1 u) = ||y - A D^-1 u||^2 + l2 ||D^-1 u||^2, D = diag(scale)."""
    w = u / scale
    return (-2.0 * A.T @ (y - A @ w) + 2.0 * l2 * w) / scale


def check_lipschitz(data, l2: float, solver: str, solve=solve_l1_l2) -> None:
    """The L that ``solve`` reports for the proximal step is the Lipschitz constant of the
    smooth part's gradient in the variables it steps in (w for ISTA, the Jacobi-scaled
    u = D w for FISTA): an upper bound on ||grad f(a) - grad f(b)|| / ||a - b||, attained
    along the top eigenvector of the Hessian 2 D^-1 (A^T A + l2 I) D^-1."""
    A = data.augmented()
    d = A.shape[1]
    sol = solve(A, data.y, l1=1e-3 * (1.0 + float(data.y @ data.y)), l2=l2, solver=solver,
                max_iter=1)
    col = np.sqrt(np.einsum("ij,ij->j", A, A) + l2)
    scale = np.where(col > 0, col, 1.0) if solver == "fista" else np.ones(d)
    H = 2.0 * (A.T @ A + l2 * np.eye(d)) / np.outer(scale, scale)
    evals, V = np.linalg.eigh(H)
    assert_close(sol.lipschitz, float(evals[-1]), Tolerance(
        rtol=1e-9, atol=0.0, reason="the largest eigenvalue by an SVD and by eigh"),
        label="reported L vs the largest eigenvalue of the Hessian")
    rng = np.random.default_rng(d)
    a = rng.normal(size=d)
    for b in (a + V[:, -1], a + rng.normal(size=d)):  # the top direction attains L
        ratio = float(np.linalg.norm(smooth_gradient(A, data.y, l2, scale, a)
                                     - smooth_gradient(A, data.y, l2, scale, b))
                      / np.linalg.norm(a - b))
        assert_leq(ratio, sol.lipschitz * (1 + 1e-9),
                   label="||grad f(a) - grad f(b)|| / (L ||a - b||)")


@claim(
    id="linear.proximal_lipschitz_10_10",
    source="003 §10.4 (10.9)-(10.10)",
    statement="The proximal-gradient LASSO/elastic-net solvers step with 1/L where L is the "
    "Lipschitz constant of the smooth part's gradient, ||grad f(a) - grad f(b)|| <= L ||a - b|| "
    "(L = 2 s_max^2 + 2 l2; for the Jacobi-scaled FISTA variables, twice the largest eigenvalue "
    "of D^-1 (X^T X + l2 I) D^-1), the smallest such constant: attained along the Hessian's top "
    "eigenvector.",
    method=Method.PROPERTY,
    tags=("linear", "lasso", "proximal", "bound"),
)
@given(data=ANY_SHAPE, l2=st.sampled_from([0.0, 0.5, 3.0]),
       solver=st.sampled_from(["ista", "fista"]))
def proximal_lipschitz_10_10(data, l2, solver):
    check_lipschitz(data, l2, solver)
