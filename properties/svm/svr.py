"""Claims of 003 §4.5: support vector regression, its dual (4.39), KKT (4.40), support
vectors and bias (4.41)-(4.42), against our SMO and cvxpy."""

from __future__ import annotations

import numpy as np
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from algorithms.svm import SVR, svr_dual_objective
from mltheory import ErratumKind, Expect, Method, claim, evidence
from mltheory.numeric import (
    EXACT_ARITHMETIC,
    Tolerance,
    assert_close,
    assert_leq,
    relative_error,
)
from properties.svm.strategies import svm_regression_datasets
from properties.svm.support import (
    DUAL_SOLVER,
    KKT,
    SMO_TOL,
    certified_distance,
    check_strong_duality,
    decision_scale,
    fit_quietly,
    svr_dual,
    svr_primal,
    svr_primal_objective,
)

DATA = svm_regression_datasets(max_samples=12)
C_VALUES = st.sampled_from([0.1, 1.0, 10.0])
#: eps > 0 for anything solved by SMO: at eps = 0 the dual has a flat direction (a_i and
#: ah_i can grow together), so the multipliers are not unique and a_i ah_i = 0 can fail.
EPSILONS = st.sampled_from([0.05, 0.5])
#: eps = 0 included where no solver runs (identities of the dual function).
ALL_EPSILONS = st.sampled_from([0.0, 0.05, 0.5])


def fit_svr(X, y, C, eps, cls=SVR) -> SVR:
    return fit_quietly(cls(C=C, epsilon=eps, tol=SMO_TOL, max_iter=20_000), X, y)


def eps_loss(z, eps):
    """(4.35) written case by case."""
    z = np.asarray(z, dtype=float)
    return np.where(np.abs(z) <= eps, 0.0, np.abs(z) - eps)


@claim(
    id="svr.eps_loss_4_35",
    source="003 §4.5 (4.35)",
    statement="The epsilon-insensitive loss is 0 inside the tube |z| <= eps and |z| - eps "
    "outside, i.e. max(0, |z| - eps); it is convex.",
    method=Method.PROPERTY,
    tags=("svr", "loss"),
)
@given(z1=st.floats(-10, 10), z2=st.floats(-10, 10), eps=st.floats(0, 5))
def eps_loss_4_35(z1, z2, eps):
    assert float(eps_loss(z1, eps)) == max(0.0, abs(z1) - eps)
    mid = float(eps_loss((z1 + z2) / 2, eps))
    assert mid <= (float(eps_loss(z1, eps)) + float(eps_loss(z2, eps))) / 2 + 1e-12


def certified_w_bound(model, X, y, C, eps, w_ref, b_ref) -> float:
    """The certified bound on ||w_smo - w_ref|| (see :func:`certified_distance`)."""
    d_smo = svr_dual_objective(model.alpha_, model.alpha_hat_, y, X @ X.T, eps)
    p_smo = svr_primal_objective(model.coef_[0], model.intercept_[0], X, y, C, eps)
    p_ref = svr_primal_objective(w_ref, b_ref, X, y, C, eps)
    return certified_distance(p_smo, p_ref, d_smo, max(1.0, abs(p_ref)))


def check_svr_reference(data, C, eps, cls=SVR, duality_factor: float = 1.0) -> None:
    """SMO's SVR vs the cvxpy primal and dual; ``duality_factor`` scales the weak-duality
    bound (1 is the claim; 1/2 is the bound halved, for teeth)."""
    X, y = data
    model = fit_svr(X, y, C, eps, cls)
    w_ref, b_ref, p_star = svr_primal(X, y, C, eps)
    K = X @ X.T
    _, _, d_star = svr_dual(K, y, C, eps)
    d_smo = svr_dual_objective(model.alpha_, model.alpha_hat_, y, K, eps)
    check_strong_duality(d_smo, p_star, d_star,
                         context="strong duality (4.36) = (4.39) corrected: ")
    w_smo, b_smo = model.coef_[0], model.intercept_[0]
    p_smo = svr_primal_objective(w_smo, b_smo, X, y, C, eps)
    # weak duality: the dual value of feasible multipliers is at most the primal (4.34) at
    # any (w, b); attained at the optimum
    assert_leq(d_smo, duality_factor * p_smo, label="W(alpha_smo) / P(w_smo, b_smo)",
               tol=DUAL_SOLVER)
    assert_close(p_smo, p_star, DUAL_SOLVER, label="primal objective at SMO (w, b)",
                 context="SMO's (w, b) in (4.34): ")
    bound = certified_w_bound(model, X, y, C, eps, w_ref, b_ref)
    assert_leq(np.linalg.norm(w_smo - w_ref), bound,
               label="||w_smo - w_ref|| / certified bound")
    check_svr_decision_function(model, X, w_ref, b_ref, bound, C)


#: A multiplier counts as free when it is this fraction of C away from both bounds: such an
#: index is free at the exact optimum too (SMO's multipliers are exact to ~SMO_TOL / curvature).
FREE_MARGIN = 1e-6


def check_svr_decision_function(model, X, w_ref, b_ref, w_bound: float, C: float) -> None:
    """When some multiplier is free, f = w.x + b is unique and SMO's must match cvxpy's.

    w is unique (the primal is 1-strongly convex in w). A free multiplier, 0 < a_s < C
    (or 0 < ah_s < C), pins b by complementary slackness for *every* primal optimum:
    xi_s = 0 and f(x_s) = y_s + eps (y_s - eps for ah_s). Hence for any x,
    |f_smo(x) - f_ref(x)| = |(w_smo - w_ref).(x - x_s) + e_smo - e_ref|
                         <= ||w_smo - w_ref|| 2 max ||x|| + SMO_TOL + e_ref,
    with ||w_smo - w_ref|| <= w_bound (certified by strong convexity from duality gaps),
    SMO's bias error at most its KKT violation (<= SMO_TOL), and e_ref the reference's
    residual in f(x_s) - y_s -+ eps, which is DUAL_SOLVER.rtol of the decision-function
    scale ||w|| max ||x|| + |b| (see decision_scale). Without a free multiplier b is an
    interval and only the primal objective is compared (above)."""
    a, ah = model.alpha_, model.alpha_hat_
    free = ((a > FREE_MARGIN * C) & (a < (1 - FREE_MARGIN) * C)) | (
        (ah > FREE_MARGIN * C) & (ah < (1 - FREE_MARGIN) * C))
    f_smo, f_ref = model.predict(X), X @ w_ref + b_ref
    f_scale = decision_scale(w_ref, b_ref, X)
    evidence.worst("decision-function gap (relative to ||w|| R + |b|)",
                   relative_error(f_smo, f_ref, f_scale))
    if not np.any(free):
        evidence.note("examples without a free multiplier: b not unique, f not compared")
        return
    radius = float(np.max(np.linalg.norm(X, axis=1)))
    tol = Tolerance(rtol=DUAL_SOLVER.rtol,
                    atol=DUAL_SOLVER.atol + SMO_TOL + 2 * w_bound * radius,
                    reason="|f_smo - f_ref| <= ||dw|| 2 max||x|| + SMO_TOL + the reference's "
                    "KKT residual (rtol of the decision-function scale); ||dw|| certified "
                    "by strong convexity")
    assert_close(f_smo, f_ref, tol, label="decision function error (b unique)",
                 context="SVR decision function with a free multiplier: ", scale=f_scale)


@claim(
    id="svr.primal_dual_smo_agree",
    source="003 §4.5 (4.34)-(4.39); 003 §4.5 (4.41)",
    statement="The SVR primal (4.36), its dual (with quadratic term (ah_i - a_i)(ah_j - a_j) "
    "and constraint sum (ah_i - a_i) = 0) and our SMO solution agree: equal optimal values, "
    "w = sum (ah_i - a_i) x_i equals the primal w, the SMO's (w, b) is primal optimal, and "
    "when some multiplier is free (b unique by (4.41)-(4.42)) the decision functions (4.43) "
    "coincide; weak duality W <= P is attained.",
    method=Method.REFERENCE,
    tags=("svr", "reference", "cvxpy", "slow", "bound"),
)
@given(data=DATA, C=C_VALUES, eps=EPSILONS)
def primal_dual_smo_agree(data, C, eps):
    check_svr_reference(data, C, eps)


@claim(
    id="svr.dual_constraint_4_39_as_written",
    source="003 §4.5 (4.39)",
    statement="The SVR dual (4.39) has the equality constraint sum_i (ah_i + a_i) = 0 and "
    "its optimum equals the primal optimum of (4.36).",
    method=Method.REFERENCE,
    tags=("svr", "reference", "cvxpy", "erratum"),
    expect=Expect.REFUTED,
    kind=ErratumKind.SYMBOL,
    corrected_by="svr.primal_dual_smo_agree",
    explanation="With 0 <= a_i, ah_i the printed constraint sum (ah_i + a_i) = 0 forces all "
    "multipliers to 0 and the 'dual optimum' to 0, below the primal optimum as soon as no "
    "constant fits the targets within eps. Stationarity in b (4.38) gives "
    "sum (ah_i - a_i) = 0.",
)
@given(data=DATA, C=C_VALUES, eps=ALL_EPSILONS)
def dual_constraint_4_39_as_written(data, C, eps):
    X, y = data
    _, _, p_star = svr_primal(X, y, C, eps)
    _, _, d_written = svr_dual(X @ X.T, y, C, eps, constraint_as_written=True)
    assert_close(d_written, p_star, DUAL_SOLVER, label="printed dual optimum vs primal")


def lagrangian_dual_value(alpha, alpha_hat, X, y, C, eps, rng):
    """min over (w, b, xi, xi_hat) of the Lagrangian (4.37), evaluated from its definition at
    the stationary w (4.38) and arbitrary b, xi, xi_hat (on which it no longer depends)."""
    m = len(y)
    w = (alpha_hat - alpha) @ X
    b = rng.normal()
    xi, xih = rng.uniform(0, 2, m), rng.uniform(0, 2, m)
    mu, muh = C - alpha, C - alpha_hat
    f = X @ w + b
    return float(0.5 * w @ w + C * np.sum(xi + xih) - mu @ xi - muh @ xih
                 + alpha @ (f - y - eps - xi) + alpha_hat @ (y - f - eps - xih))


def printed_dual_objective(alpha, alpha_hat, y, K, eps):
    """(4.39)'s objective exactly as printed: quadratic term ah_i (ah_j - a_j) K_ij."""
    d = alpha_hat - alpha
    return float(y @ d - eps * np.sum(alpha_hat + alpha) - 0.5 * alpha_hat @ K @ d)


def dual_multipliers(m: int):
    """Feasible multipliers: 0 <= a, ah <= C with sum (ah - a) = 0, as fractions of C."""
    return hnp.arrays(np.float64, (2, m), elements=st.floats(0, 1))


def check_dual_function(data, C, eps, fractions, rng_seed, objective) -> None:
    X, y = data
    m = len(y)
    a, ah = fractions[0][:m] * C, fractions[1][:m] * C
    shift = (ah.sum() - a.sum()) / m  # restore sum (ah - a) = 0 inside the box
    if shift > 0:
        ah = ah - np.minimum(ah, shift * m * ah / max(ah.sum(), 1e-300))
    else:
        a = a - np.minimum(a, -shift * m * a / max(a.sum(), 1e-300))
    if abs(ah.sum() - a.sum()) > 1e-9 * C * m:
        return
    g = lagrangian_dual_value(a, ah, X, y, C, eps, np.random.default_rng(rng_seed))
    value = objective(a, ah, y, X @ X.T, eps)
    assert_close(value, g, Tolerance(rtol=1e-9, atol=1e-9, reason=EXACT_ARITHMETIC.reason
                                     + " (sums of up to 40 terms of size up to 1e3)"),
                 label="dual objective vs Lagrangian minimum")


@claim(
    id="svr.dual_quadratic_4_39_as_written",
    source="003 §4.5 (4.37)-(4.39)",
    statement="Substituting (4.38) into the Lagrangian (4.37) gives the objective of (4.39) "
    "as printed, with quadratic term 1/2 sum_ij ah_i (ah_j - a_j) x_i^T x_j.",
    method=Method.PROPERTY,
    tags=("svr", "erratum"),
    expect=Expect.REFUTED,
    kind=ErratumKind.TERM,
    corrected_by="svr.dual_function_4_39",
    explanation="The quadratic term of the SVR dual is 1/2 sum_ij (ah_i - a_i)(ah_j - a_j) "
    "x_i^T x_j = 1/2 ||w||^2; the printed term drops '- a_i' from the first factor.",
)
@given(data=DATA, C=C_VALUES, eps=ALL_EPSILONS, fractions=dual_multipliers(20),
       seed=st.integers(0, 2**32 - 1))
def dual_quadratic_4_39_as_written(data, C, eps, fractions, seed):
    check_dual_function(data, C, eps, fractions, seed, printed_dual_objective)


@claim(
    id="svr.dual_function_4_39",
    source="003 §4.5 (4.37)-(4.39)",
    statement="For multipliers with sum (ah_i - a_i) = 0 and 0 <= a_i, ah_i <= C, the "
    "Lagrangian (4.37) minimised over w, b, xi equals sum y_i (ah_i - a_i) - eps "
    "(ah_i + a_i) - 1/2 sum_ij (ah_i - a_i)(ah_j - a_j) x_i^T x_j.",
    method=Method.PROPERTY,
    tags=("svr",),
)
@given(data=DATA, C=C_VALUES, eps=ALL_EPSILONS, fractions=dual_multipliers(20),
       seed=st.integers(0, 2**32 - 1))
def dual_function_4_39(data, C, eps, fractions, seed):
    check_dual_function(data, C, eps, fractions, seed, svr_dual_objective)


@claim(
    id="svr.kkt_4_40",
    source="003 §4.5 (4.40)",
    statement="At the SVR solution (eps > 0) a_i (f(x_i) - y_i - eps - xi_i) = 0, "
    "ah_i (y_i - f(x_i) - eps - xh_i) = 0, a_i ah_i = 0, xi_i xh_i = 0, "
    "(C - a_i) xi_i = 0 and (C - ah_i) xh_i = 0, with xi, xh the optimal slacks.",
    method=Method.PROPERTY,
    tags=("svr", "kkt"),
)
@given(data=DATA, C=C_VALUES, eps=EPSILONS)
def kkt_4_40(data, C, eps):
    X, y = data
    model = fit_svr(X, y, C, eps)
    a, ah = model.alpha_, model.alpha_hat_
    r = model.predict(X) - y
    xi, xh = np.maximum(0.0, r - eps), np.maximum(0.0, -r - eps)
    scale = max(1.0, np.abs(y).max())
    residuals = {
        "a (f - y - eps - xi)": a / C * (r - eps - xi) / scale,
        "ah (y - f - eps - xh)": ah / C * (-r - eps - xh) / scale,
        "a ah": a * ah / C**2,
        "xi xh": xi * xh / scale**2,
        "(C - a) xi": (C - a) / C * xi / scale,
        "(C - ah) xh": (C - ah) / C * xh / scale,
    }
    for name, res in residuals.items():
        evidence.worst(f"max |{name}| (relative)", float(np.abs(res).max()))
        assert_close(res, np.zeros_like(res), KKT, label=f"KKT {name}")


def check_support_vectors_vs_tube(data, C, eps, strictly_outside: bool) -> None:
    X, y = data
    model = fit_svr(X, y, C, eps)
    r = np.abs(model.predict(X) - y)
    sv = model.support_
    scale = max(1.0, np.abs(y).max())
    if strictly_outside:
        for i in sv:
            assert r[i] > eps, (f"support vector {i} has |f - y| = {r[i]:.6g} <= eps = {eps}: "
                                "on the tube boundary, not outside")
        return
    evidence.worst("max (eps - |f - y|) over SVs (relative)",
                   float(np.max(eps - r[sv]) / scale) if sv.size else -np.inf)
    assert np.all(r[sv] >= eps - KKT.atol * scale), "a support vector lies inside the tube"
    inside = r < eps - KKT.atol * scale
    assert np.all(model.alpha_[inside] == 0) and np.all(model.alpha_hat_[inside] == 0), (
        "a point strictly inside the tube carries a non-zero multiplier")


@claim(
    id="svr.support_vectors_outside_tube_as_written",
    source="003 §4.5 (after (4.41))",
    statement="The support vectors of SVR (samples with ah_i - a_i != 0) necessarily lie "
    "outside the eps-tube.",
    method=Method.PROPERTY,
    tags=("svr", "erratum"),
    expect=Expect.REFUTED,
    kind=ErratumKind.SHORTHAND,
    corrected_by="svr.support_vectors_on_or_outside_tube",
    explanation="Read literally ('outside' = |f(x_i) - y_i| > eps) it fails: a free "
    "support vector (0 < a_i < C) has xi_i = 0 and f(x_i) - y_i = eps exactly, on the tube "
    "boundary, which (4.35) counts as inside (zero loss). The intended meaning, 'not "
    "strictly inside', holds (svr.support_vectors_on_or_outside_tube): SHORTHAND.",
)
@given(data=DATA, C=C_VALUES, eps=EPSILONS)
def support_vectors_outside_tube_as_written(data, C, eps):
    check_support_vectors_vs_tube(data, C, eps, strictly_outside=True)


@claim(
    id="svr.support_vectors_on_or_outside_tube",
    source="003 §4.5 (after (4.41))",
    statement="SVR support vectors satisfy |f(x_i) - y_i| >= eps (on or outside the tube), "
    "and samples strictly inside the tube have a_i = ah_i = 0.",
    method=Method.PROPERTY,
    tags=("svr",),
)
@given(data=DATA, C=C_VALUES, eps=EPSILONS)
def support_vectors_on_or_outside_tube(data, C, eps):
    check_support_vectors_vs_tube(data, C, eps, strictly_outside=False)


def free_bias_terms(model, X, y, eps, at=None) -> tuple[np.ndarray, np.ndarray]:
    """``(free, terms)``: the indices i with 0 < a_i < C and the (4.42) term of each,
    ``y_i + eps - sum_j (ah_j - a_j) kappa(x_j, x)`` evaluated at ``x = x_i`` (the
    corrected reading) or, with ``at``, at the point ``X[at[i]]`` (the printed sum's free x)."""
    K = X @ X.T
    d = model.alpha_hat_ - model.alpha_
    free = np.flatnonzero((model.alpha_ > 0) & (model.alpha_ < model.C))
    where = free if at is None else np.asarray(at)[free]
    return free, y[free] + eps - d @ K[:, where]


@claim(
    id="svr.bias_4_42",
    source="003 §4.5 (4.42)",
    statement="For every i with 0 < a_i < C, b = y_i + eps - sum_j (ah_j - a_j) x_j^T x_i; "
    "averaging over all such i gives the same b, and (w, b) is optimal for (4.34).",
    method=Method.REFERENCE,
    tags=("svr", "cvxpy", "slow"),
)
@given(data=DATA, C=C_VALUES, eps=EPSILONS)
def bias_4_42(data, C, eps):
    X, y = data
    model = fit_svr(X, y, C, eps)
    free, terms = free_bias_terms(model, X, y, eps)
    if free.size == 0:
        evidence.note("examples without a free a_i have no (4.42) term")
        return
    scale = max(1.0, np.abs(y).max())
    evidence.worst("spread of the (4.42) terms (relative)", float(np.ptp(terms)) / scale)
    assert_close(terms / scale, np.full(free.size, terms.mean()) / scale, KKT,
                 label="(4.42) term spread")
    _, _, p_star = svr_primal(X, y, C, eps)
    p_b = svr_primal_objective(model.coef_[0], float(terms.mean()), X, y, C, eps)
    assert_close(p_b, p_star, DUAL_SOLVER, label="primal objective with the (4.42) bias")


@claim(
    id="svr.bias_4_42_as_written",
    source="003 §4.5 (4.42)",
    statement="(4.42) as printed, b = y_i + eps - sum_{i=1}^m (ah_i - a_i) x_i^T x, gives "
    "the bias from a free multiplier 0 < a_i < C: the printed sum's point x is a free "
    "variable, so the value is the same b wherever x is taken (e.g. at any training point).",
    method=Method.PROPERTY,
    tags=("svr", "erratum"),
    expect=Expect.REFUTED,
    kind=ErratumKind.SYMBOL,
    corrected_by="svr.bias_4_42",
    explanation="The printed sum reuses the free index i as its summation index and ends in "
    "x instead of x_i, so it is w^T x, a function of x, not w^T x_i: the 'bias' changes with "
    "x by w^T (x - x_i). Only x = x_i, the free sample itself, gives b.",
)
@given(data=DATA, C=C_VALUES, eps=EPSILONS, shift=st.integers(1, 20))
def bias_4_42_as_written(data, C, eps, shift):
    X, y = data
    model = fit_svr(X, y, C, eps)
    m = len(y)
    free, printed = free_bias_terms(model, X, y, eps, at=(np.arange(m) + shift) % m)
    if free.size == 0:
        evidence.note("examples without a free a_i have no (4.42) term")
        return
    _, terms = free_bias_terms(model, X, y, eps)  # at x = x_i: the b of svr.bias_4_42
    assert_close(printed, terms, DUAL_SOLVER, label="printed (4.42) at x vs at x_i",
                 scale=decision_scale(model.coef_[0], float(terms.mean()), X))
