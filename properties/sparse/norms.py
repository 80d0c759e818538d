"""Regularisers of 003 §10.4: l1 as the convex surrogate of l0, sparsity from a kink at 0
(as printed, an overclaim; corrected: a convex kink), LASSO vs ridge, and ridge's
conditioning."""

from __future__ import annotations

import functools
import itertools

import numpy as np
import scipy.optimize
from hypothesis import example, given
from hypothesis import strategies as st

from algorithms.linear import Ridge, ridge_solve, solve_l1_l2
from algorithms.sparse import ProximalGradientLasso, prox_kinked, prox_penalty
from mltheory import ErratumKind, Expect, Method, claim, evidence
from mltheory.numeric import LINEAR_ALGEBRA, Tolerance, assert_close, assert_leq
from properties.sparse.strategies_pgd_cs import SEEDS, lasso_problems
from properties.sparse.support_pgd_cs import grid_prox

# ------------------------------------------------------------------ l1 and l0


@st.composite
def box_vectors(draw) -> np.ndarray:
    """Points of the unit box [-1, 1]^d, d <= 4, with exact zeros and exact +-1 entries."""
    d = draw(st.integers(1, 4))
    entry = st.one_of(st.sampled_from([-1.0, 0.0, 1.0]), st.floats(-1.0, 1.0))
    return np.array(draw(st.lists(entry, min_size=d, max_size=d)))


def check_l1_envelope(x: np.ndarray, radius: float = 1.0) -> None:
    """On the box of the given radius: ||x||_1 <= ||x||_0 (l1 is below l0), with equality
    on {-1, 0, 1}^d; and the convex envelope of l0 at x — the least value of
    sum_v p_v ||v||_0 over convex combinations sum_v p_v v = x of the box's lattice points
    {-r, 0, r}^d, an LP solved by scipy — equals ||x||_1, so no convex function below l0
    is above l1 (l1 is the best convex under-approximation)."""
    d = x.size
    l1, l0 = float(np.abs(x).sum()), int(np.count_nonzero(x))
    assert_leq(l1, l0, label="||x||_1 / ||x||_0")
    points = np.array(list(itertools.product([-radius, 0.0, radius], repeat=d)))
    norms0 = np.count_nonzero(points, axis=1).astype(float)
    lattice_l1 = np.abs(points).sum(axis=1)
    if radius == 1.0:
        assert np.array_equal(lattice_l1, norms0), "||v||_1 != ||v||_0 on {-1, 0, 1}^d"
    res = scipy.optimize.linprog(
        norms0, A_eq=np.vstack([points.T, np.ones(len(points))]),
        b_eq=np.append(x, 1.0), bounds=(0, None), method="highs",
        options={"primal_feasibility_tolerance": 1e-10, "dual_feasibility_tolerance": 1e-10})
    assert res.status == 0, f"envelope LP failed: {res.message}"
    assert_close(res.fun, l1, Tolerance(rtol=1e-8, atol=1e-8, reason="HiGHS LP optimum with "
                 "feasibility tolerances 1e-10 on at most 3^4 = 81 weights of O(1) data"),
                 label="envelope LP vs ||x||_1")
    evidence.worst("||x||_1 / ||x||_0", l1 / l0 if l0 else 0.0)


@claim(
    id="norm.l1_convex_surrogate",
    source="003 §10.4 (L0/L1 norms)",
    statement="The l1 norm is the best convex approximation of the l0 count: on the box "
    "||x||_inf <= 1, ||x||_1 <= ||x||_0 with equality at vectors of entries in {-1, 0, 1}, "
    "and ||x||_1 is the convex envelope of ||x||_0 there (the largest convex function below "
    "it).",
    method=Method.PROPERTY,
    tags=("sparse", "norms"),
)
@given(x=box_vectors())
@example(x=np.array([1.0, -1.0, 0.0, 0.5]))
def l1_convex_surrogate(x):
    check_l1_envelope(x)


# ------------------------------------------------------------------ sparsity from a kink

#: Grid of inputs z on which the zero set of a prox is read (step 0.01 over [-3, 3]).
Z_GRID = np.linspace(-3.0, 3.0, 601)
SLOPES = st.sampled_from([-2.0, -1.0, -0.5, 0.0, 0.5, 1.0, 2.0])


@st.composite
def kinked_regularisers(draw) -> tuple[float, float, float, float]:
    """``(a, b, c, t)``: g(x) = a max(x, 0) + b max(-x, 0) + c x^2 with one-sided slopes
    g'(0+) = a, g'(0-) = -b, non-differentiable at 0 (a + b != 0), and a step t."""
    a, b = draw(SLOPES), draw(SLOPES)
    if a + b == 0:
        b = b + 0.5
    return a, b, draw(st.sampled_from([0.0, 0.5])), draw(st.sampled_from([0.3, 1.0]))


def zero_interval(prox_values: np.ndarray) -> int:
    """The longest run of consecutive grid inputs mapped exactly to 0."""
    best = run = 0
    for v in prox_values == 0.0:
        run = run + 1 if v else 0
        best = max(best, run)
    return best


def check_kink_gives_sparsity(a: float, b: float, c: float, t: float) -> None:
    """The prox of t g sends an interval of inputs (positive length) exactly to 0."""
    x = prox_kinked(Z_GRID, t, right_slope=a, left_slope=b, curvature=c)
    run = zero_interval(x)
    assert run >= 2, (f"g = {a} x+ + {b} x- + {c} x^2 (kink at 0): no interval of inputs "
                      f"is mapped to 0 (longest zero run {run} grid points)")


@claim(
    id="sparse.kink_regularisers_as_written",
    source="003 §10.4 (L1 paragraph)",
    statement="(As printed) any regulariser that is non-differentiable at w_i = 0 and "
    "separable, sum_i g(w_i), induces sparsity: its proximal map sends a set of inputs of "
    "positive length exactly to 0.",
    method=Method.PROPERTY,
    tags=("sparse", "norms", "erratum"),
    expect=Expect.REFUTED,
    kind=ErratumKind.MISSING_CONDITION,
    corrected_by="sparse.kink_regularisers",
    explanation="Non-differentiability is not enough: the kink must be convex, g'(0-) < "
    "g'(0+). A concave kink such as g(w) = w^2 - |w| (separable, bounded below, "
    "non-differentiable at 0) pushes every coefficient away from 0; 0 is never a local "
    "minimiser of 1/2 (x - z)^2 + t g(x) and no input is mapped to 0.",
)
@given(reg=kinked_regularisers())
@example(reg=(-1.0, -1.0, 1.0, 1.0))  # g(w) = w^2 - |w|
def kink_regularisers_as_written(reg):
    check_kink_gives_sparsity(*reg)


def check_dead_zone(a: float, b: float, c: float, t: float) -> None:
    """prox_kinked agrees with a brute-force minimiser (objective values); for a convex
    kink (a + b > 0) its zero set on the grid is exactly [-t b, t a]; for a concave kink
    no grid input other than possibly one point maps to 0."""
    def g(x):
        return a * np.maximum(x, 0.0) + b * np.maximum(-x, 0.0) + c * x * x

    z = Z_GRID[::10]
    x = prox_kinked(z, t, right_slope=a, left_slope=b, curvature=c)
    brute, h = grid_prox(z, t, g)
    obj_ours = 0.5 * (x - z) ** 2 + t * g(x)
    obj_brute = 0.5 * (brute - z) ** 2 + t * g(brute)
    assert_leq(float(np.max(obj_ours - obj_brute)), 1e-12, label="objective(prox) - "
               "objective(brute force)")
    full = prox_kinked(Z_GRID, t, right_slope=a, left_slope=b, curvature=c)
    zeros = full == 0.0
    if a + b > 0:
        inside = (Z_GRID >= -t * b) & (Z_GRID <= t * a)
        # at the two end points the branch minimiser is 0 up to one rounding of t a, t b:
        # either answer is right there
        settled = (np.abs(Z_GRID + t * b) > 1e-9) & (np.abs(Z_GRID - t * a) > 1e-9)
        assert np.array_equal(zeros[settled], inside[settled]), (
            f"zero set of the prox differs from [-t b, t a] = [{-t * b}, {t * a}]")
        if a > 0 and b > 0:
            assert zeros[np.argmin(np.abs(Z_GRID))] and zero_interval(full) >= 2
    else:
        assert zeros.sum() <= 1, "a concave kink mapped an interval to 0"


def check_named_penalties_uncached(t: float) -> None:
    """|w|, |w|^{1/2} and the elastic net have a dead zone around 0 (brute force agrees
    with the library's proxes); the smooth w^2 maps only 0 to 0."""
    penalties = {"l1": np.abs, "l1/2": lambda v: np.sqrt(np.abs(v)),
                 "elastic_net": lambda v: 0.5 * np.abs(v) + 0.5 * v * v, "l2": lambda v: v * v}
    # step 0.01: the |w|^{1/2} prox jumps from 0 to about (2/3) z at z = 1.5 t^(2/3), and a
    # keep-or-zero rule off by a constant errs only in a band of width ~0.07 t^(2/3) below
    # that jump, which a grid of step 0.1 steps over for both step sizes t drawn
    z = np.linspace(-2.0, 2.0, 401)
    for name, g in penalties.items():
        x = prox_penalty(z, t, name)
        brute, _ = grid_prox(z, t, g)
        obj_ours = 0.5 * (x - z) ** 2 + t * g(x)
        obj_brute = 0.5 * (brute - z) ** 2 + t * g(brute)
        assert_leq(float(np.max(obj_ours - obj_brute)), 1e-10,
                   label=f"{name}: objective(prox) - objective(brute force)")
        small = np.abs(z) <= 0.05 * min(t, 1.0)
        if name == "l2":
            assert np.all((x == 0.0) == (z == 0.0)), "w^2 mapped a non-zero input to 0"
        else:
            near = prox_penalty(np.linspace(-0.05, 0.05, 11) * min(t, 1.0), t, name)
            assert np.all(near == 0.0), f"{name}: no dead zone around 0"
            assert np.all(x[small] == 0.0)


#: The check of the named penalties depends on t alone: once per t and process.
check_named_penalties = functools.lru_cache(maxsize=8)(check_named_penalties_uncached)


@claim(
    id="sparse.kink_regularisers",
    source="003 §10.4 (L1 paragraph)",
    statement="A separable regulariser with a convex kink at 0 (g'(0-) < g'(0+)) induces "
    "sparsity: for g = a max(w,0) + b max(-w,0) + c w^2 (c >= 0, a + b > 0) the prox of t g "
    "is exactly 0 on [-t b, t a] and nowhere else (a dead zone around 0 when a, b > 0); "
    "with a concave kink (a + b < 0) at most one input maps to 0. The notes' |w|, the "
    "non-convex |w|^{1/2} and the elastic net have a dead zone around 0; the smooth w^2 "
    "has none.",
    method=Method.PROPERTY,
    tags=("sparse", "norms"),
)
@given(reg=kinked_regularisers())
@example(reg=(-1.0, -1.0, 1.0, 1.0))
def kink_regularisers(reg):
    check_dead_zone(*reg)
    check_named_penalties(reg[3])


# ------------------------------------------------------------------ LASSO vs ridge

#: lambdas relative to the LASSO threshold 2 ||X^T y||_inf.
RELATIVE_LAMBDAS = np.array([0.01, 0.1, 0.5, 0.99, 1.0, 1.01, 2.0, 10.0])


def check_l1_vs_l2(problem, threshold_factor: float = 2.0) -> None:
    """LASSO (10.7) is exactly 0 for every lambda >= threshold_factor ||X^T y||_inf (its
    optimality condition at 0: ||2 X^T y||_inf <= lambda), certified by a zero duality gap
    and found by proximal gradient; ridge (10.6) is never 0 for lambda > 0 while X^T y != 0
    (w = 0 would give X^T y = 0), and ||w_ridge(lambda)|| is non-increasing in lambda."""
    X, y = problem.X, problem.y
    c = float(np.max(np.abs(X.T @ y)))
    if c == 0.0:
        return
    lam0 = threshold_factor * c
    norms, zeros_l1, zeros_l2 = [], [], []
    for rel in RELATIVE_LAMBDAS:
        lam = rel * 2.0 * c
        if lam >= lam0:  # proximal gradient must stop at once, at exactly 0
            w1 = ProximalGradientLasso(lam=lam, fit_intercept=False, tol=1e-10,
                                       max_iter=20_000).fit(X, y).coef_
        else:  # below the threshold the zero counts are evidence only: the linear
            # family's coordinate descent (fast on these tiny problems)
            w1 = solve_l1_l2(X, y, l1=lam).coef
        w2 = ridge_solve(X, y, lam)
        if lam >= lam0:
            assert np.all(w1 == 0.0), (f"LASSO at lambda = {rel:g} x 2||X^T y||_inf is not "
                                       f"exactly 0: {w1}")
        assert np.any(w2 != 0.0), "ridge solution exactly 0 although X^T y != 0"
        norms.append(float(np.linalg.norm(w2)))
        zeros_l1.append(int(np.sum(w1 == 0.0)))
        zeros_l2.append(int(np.sum(w2 == 0.0)))
    for k in range(len(norms) - 1):
        assert_leq(norms[k + 1], norms[k], tol=LINEAR_ALGEBRA,
                   label="||w_ridge(lam')|| / ||w_ridge(lam)|| for lam' > lam")
    evidence.worst("LASSO zero coefficients minus ridge's (summed over lambdas)",
                   sum(zeros_l1) - sum(zeros_l2), larger_is_worse=False)


@claim(
    id="sparse.l1_vs_l2",
    source="003 §10.4 (10.6)-(10.7)",
    statement="LASSO (10.7) gives exactly-zero coefficients more readily than ridge (10.6): "
    "the LASSO solution is exactly 0 for every lambda >= 2 ||X^T y||_inf, whereas ridge "
    "shrinks towards 0 without reaching it (w_ridge(lambda) != 0 for every lambda > 0 when "
    "X^T y != 0) and ||w_ridge(lambda)|| is non-increasing in lambda.",
    method=Method.PROPERTY,
    tags=("sparse", "norms"),
)
@given(problem=lasso_problems(kinds=("gaussian", "correlated", "duplicate", "wide", "single"),
                              scales=(0.3, 1.0, 10.0)))
def l1_vs_l2(problem):
    check_l1_vs_l2(problem)


def check_ridge_conditioning(X: np.ndarray, lam: float, shift: float = 1.0) -> None:
    """For lambda > 0: X^T X + lambda I is positive definite (so the ridge solution is
    unique even when X^T X is singular), cond(X^T X + lambda I) <= cond(X^T X) (infinite
    when singular), strictly unless all eigenvalues of X^T X are equal; the library's Ridge
    equals the least-squares solution of the augmented system [X; sqrt(lambda) I] w ~ [y; 0]
    (numpy lstsq, another factorisation)."""
    rng = np.random.default_rng(0)
    y = rng.normal(size=X.shape[0])
    ev = np.linalg.eigvalsh(X.T @ X)
    ev_ridge = ev + shift * lam
    assert ev_ridge[0] > 0, "X^T X + lambda I is not positive definite"
    cond = np.inf if ev[0] <= ev[-1] * 1e-13 else ev[-1] / ev[0]
    cond_ridge = ev_ridge[-1] / ev_ridge[0]
    assert_leq(cond_ridge, cond, label="cond(X^T X + lam I) / cond(X^T X)")
    if ev[-1] - ev[0] > 1e-9 * ev[-1]:
        assert cond_ridge < cond, "conditioning not strictly improved"
    aug = np.vstack([X, np.sqrt(lam) * np.eye(X.shape[1])])
    reference = np.linalg.lstsq(aug, np.append(y, np.zeros(X.shape[1])), rcond=None)[0]
    est = Ridge(lam=lam, fit_intercept=False).fit(X, y)
    size = float(np.max(np.abs(reference)))
    assert_close(est.coef_, reference, Tolerance(
        rtol=0.0, atol=1000 * cond_ridge * np.finfo(float).eps * size + 1e-300,
        reason="two backward-stable solves (Cholesky, lstsq on the augmented system): "
        "normwise error <= c cond(X^T X + lam I) eps ||w||, c = 1000"), scale=size,
        label="Ridge vs augmented lstsq")
    evidence.worst("cond(X^T X + lam I) / cond(X^T X)",
                   cond_ridge / cond if np.isfinite(cond) else 0.0)


@st.composite
def designs(draw) -> np.ndarray:
    """Designs with drawn conditioning: Gaussian, rank-deficient (a repeated column, more
    columns than rows) and isotropic (orthogonal columns of equal norm, X^T X = c I)."""
    rng = np.random.default_rng(draw(SEEDS))
    kind = draw(st.sampled_from(["gaussian", "repeated", "wide", "isotropic"]))
    d = draw(st.integers(2, 5))
    if kind == "isotropic":
        Q, _ = np.linalg.qr(rng.normal(size=(d + 3, d)))
        return Q * draw(st.sampled_from([0.1, 1.0, 30.0]))
    n = d - 1 if kind == "wide" else d + 4
    X = rng.normal(size=(n, d)) * draw(st.sampled_from([0.1, 1.0, 30.0]))
    if kind == "repeated":
        X[:, -1] = X[:, 0]
    return X


@claim(
    id="ridge.conditioning",
    source="003 §10.4 (L2 paragraph), (10.6)",
    statement="(Implied by 'L2 makes the optimisation more stable') for lambda > 0, "
    "X^T X + lambda I is positive definite, so ridge (10.6) has a unique solution even when "
    "X^T X is singular, and cond(X^T X + lambda I) <= cond(X^T X), strictly unless X^T X "
    "is a multiple of I.",
    method=Method.PROPERTY,
    tags=("sparse", "ridge"),
)
@given(X=designs(), lam=st.sampled_from([1e-6, 1e-2, 1.0, 100.0]))
def conditioning(X, lam):
    check_ridge_conditioning(X, lam)
