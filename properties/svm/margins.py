"""Claims of 003 Chapter 4 §4.1-§4.4: margins, the hard- and soft-margin primal and dual
problems, KKT conditions and the bias formula, checked against our SMO and an
independent cvxpy solution on adversarial datasets."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from hypothesis import example, given
from hypothesis import strategies as st

from algorithms.svm import SMOClassifier, dual_objective
from mltheory import ErratumKind, Expect, Method, claim, evidence
from mltheory.numeric import LINEAR_ALGEBRA, Tolerance, assert_close, assert_leq, relative_error
from mltheory.strategies import SeparableData, separable_datasets
from properties.svm.strategies import svm_nonseparable_datasets, svm_separable_datasets
from properties.svm.support import (
    DUAL_SOLVER,
    KKT,
    SMO_TOL,
    certified_distance,
    check_strong_duality,
    decision_scale,
    fit_quietly,
    hard_margin_primal,
    soft_margin_primal,
    soft_primal_objective,
    svc_dual,
)

#: Hypothesis strategies: n <= 16 drawn points (+ near-duplicates, XOR corners) keeps every
#: cvxpy problem tiny; margins >= 1e-2 of the radius keep SMO's linear rate usable.
SEPARABLE = svm_separable_datasets(max_samples=16)
NONSEPARABLE = svm_nonseparable_datasets(max_samples=14)
#: Box bounds drawn over four orders of magnitude (C -> 0 makes every alpha hit the box).
C_VALUES = st.sampled_from([1e-2, 0.1, 1.0, 10.0, 100.0])
WORKING_SETS = st.sampled_from(["second_order", "max_violating"])


#: A near-tight case of svm.max_margin_is_largest: opposite-class points mirrored through
#: the drawn separator (plus points farther out), so the drawn hyperplane is the maximum
#: margin one and the bound holds with equality.
MIRRORED = SeparableData(
    X=np.array([[0.3, 0.0], [-0.3, 0.0], [0.9, -0.4], [-0.7, 0.5]]),
    y=np.array([1, -1, 1, -1]),
    separator=np.array([1.0, 0.0, 0.0]),
    margin=0.3,
)


#: Two positive points each with a twin 1e-8 away (the strategy's near-duplicates stop at
#: offsets of 1e-3): a pair of twins has curvature a ~ 1e-16, below the solver's
#: zero-curvature threshold, yet a bounded step (both have y = +1), so SMO must take the
#: clipped step there rather than call the dual unbounded (mutation sample seed 1, see
#: docs/mutation/svm.md).
NEAR_DUPLICATES = SeparableData(
    X=np.array([[0.2, 0.0], [1.6, -0.7], [0.2 + 1e-8, 1e-8], [1.6 + 1e-8, -0.7 + 1e-8],
                [-1.8, 0.6], [-0.7, 1.0]]),
    y=np.array([1, 1, 1, 1, -1, -1]),
    separator=np.array([1.0, 0.0, 0.0]),
    margin=0.2,
)


def hard_smo(X, y, working_set="second_order", cls=SMOClassifier) -> SMOClassifier:
    return fit_quietly(cls(C=np.inf, tol=SMO_TOL, max_iter=20_000,
                           working_set=working_set), X, y)


def soft_smo(X, y, C, working_set="second_order", cls=SMOClassifier) -> SMOClassifier:
    return fit_quietly(cls(C=C, tol=SMO_TOL, max_iter=20_000, working_set=working_set), X, y)


def _decision_gap(f_a: np.ndarray, f_b: np.ndarray) -> float:
    return relative_error(f_a, f_b)


# ---------------------------------------------------------------- §4.1 margins


@claim(
    id="svm.point_distance_4_2",
    source="003 §4.1 (4.2)",
    statement="The distance from a point x to the hyperplane w^T x + b = 0 is "
    "|w^T x + b| / ||w||.",
    method=Method.PROPERTY,
    tags=("svm", "geometry"),
)
@given(
    data=separable_datasets(max_samples=6),
    w=st.lists(st.floats(-10, 10), min_size=4, max_size=4),
    b=st.floats(-10, 10),
)
def point_distance_4_2(data, w, b):
    d = data.n_features
    w = np.asarray(w[:d])
    if np.linalg.norm(w) < 1e-3:
        w = np.ones(d)
    for x in data.X:
        # independent route: the minimum-norm displacement delta with w.(x + delta) + b = 0
        delta = np.linalg.lstsq(w[None, :], np.array([-(w @ x + b)]), rcond=None)[0]
        assert_close(abs(w @ x + b) / np.linalg.norm(w), np.linalg.norm(delta), LINEAR_ALGEBRA,
                     label="distance formula vs projection")


def check_margin(data, margin_formula: Callable[[np.ndarray], float]) -> None:
    """At the hard-margin solution, the closest point of each class lies at distance
    1/||w|| (functional margin 1), so the two distances sum to margin_formula(w)."""
    model = hard_smo(data.X, data.y)
    w, b = model.coef_[0], model.intercept_[0]
    dist = (data.X @ w + b) * data.y / np.linalg.norm(w)
    assert np.all(dist > 0), "the hard-margin solution must separate the data"
    gamma_data = dist[data.y == 1].min() + dist[data.y == -1].min()
    assert_close(margin_formula(w), gamma_data, DUAL_SOLVER, label="margin relative error")


@claim(
    id="svm.margin_4_4",
    source="003 §4.1 (4.3)-(4.4)",
    statement="With the canonical scaling (4.3) (equality at the closest points), the "
    "distances of the two closest opposite-class points to the maximum-margin "
    "hyperplane sum to gamma = 2/||w||.",
    method=Method.PROPERTY,
    tags=("svm", "geometry"),
)
@given(data=SEPARABLE)
def margin_4_4(data):
    check_margin(data, lambda w: 2.0 / np.linalg.norm(w))


@claim(
    id="svm.max_margin_is_largest",
    source="003 §4.1 (4.5)-(4.6)",
    statement="Minimising 1/2||w||^2 under y_i(w^T x_i + b) >= 1 maximises the margin: "
    "the geometric margin 2/||w|| of the solution is at least that of any "
    "separating hyperplane, in particular of the separator the data were drawn with.",
    method=Method.PROPERTY,
    tags=("svm", "geometry", "bound"),
)
@given(data=SEPARABLE)
@example(data=MIRRORED)
def max_margin_is_largest(data):
    check_max_margin(data)


def check_max_margin(data, factor: float = 1.0) -> None:
    """The drawn separator's margin is at most ``factor`` times the SVM's (``factor = 1``
    is the claim; a smaller one tightens the bound, for teeth)."""
    model = hard_smo(data.X, data.y)
    w = model.coef_[0]
    w0, b0 = data.separator[:-1], data.separator[-1]
    m0 = np.min(data.y * (data.X @ w0 + b0)) / np.linalg.norm(w0)  # geometric half-margin
    assert_leq(2 * m0, factor * 2.0 / np.linalg.norm(w), label="drawn margin / SVM margin",
               tol=DUAL_SOLVER)


# ---------------------------------------------------------------- §4.2 hard-margin dual


def check_hard_margin_reference(data, working_set: str = "second_order",
                                cls=SMOClassifier, duality_factor: float = 1.0) -> None:
    """SMO vs the cvxpy primal and dual; ``duality_factor`` scales the weak-duality bound
    (1 is the claim; 1/2 is the bound halved, for teeth)."""
    X, y = data.X, data.y.astype(float)
    model = hard_smo(X, y, working_set, cls)
    w_ref, b_ref, p_star = hard_margin_primal(X, y)
    alpha_ref, d_star = svc_dual(X @ X.T, y, np.inf)
    d_smo = dual_objective(model.alpha_, y, X @ X.T)
    check_strong_duality(d_smo, p_star, d_star, context="strong duality (4.6) = (4.9): ")
    # weak duality W(alpha) <= 1/2 ||w||^2 for feasible (w, b): the cvxpy primal point
    # (feasible up to its tolerance) against SMO's dual value; attained at the optimum
    assert_leq(d_smo, duality_factor * 0.5 * float(w_ref @ w_ref),
               label="W(alpha_smo) / P(w_ref)", tol=DUAL_SOLVER)
    # (4.8): w = sum alpha_i y_i x_i, and (4.14)'s b, against the primal solution
    # Components of w are compared relative to ||w|| (the reference is accurate to about
    # rtol ||w|| in norm: a component that is 0 at the optimum may come back as 1e-5 ||w||),
    # f relative to the decision-function scale ||w|| max ||x|| + |b| (see decision_scale).
    w_smo = (model.alpha_ * y) @ X
    assert_close(w_smo, w_ref, DUAL_SOLVER, label="w relative error (to ||w||)",
                 context="(4.8) w: ", scale=np.linalg.norm(w_ref))
    f_smo, f_ref = model.decision_function(X), X @ w_ref + b_ref
    check_sign_rule(model, X)
    f_scale = decision_scale(w_ref, b_ref, X)
    evidence.worst("decision-function gap (relative)", relative_error(f_smo, f_ref, f_scale))
    assert_close(f_smo, f_ref, DUAL_SOLVER, label="decision function relative error",
                 context="(4.10) decision function: ", scale=f_scale)


@claim(
    id="svm.hard_margin_primal_dual_smo_agree",
    source="003 §4.1 (4.6); 003 §4.2 (4.8)-(4.10)",
    statement="On linearly separable data the primal (4.6), the dual (4.9) and the SMO "
    "solution agree: equal optimal values (strong duality), w = sum_i alpha_i y_i x_i "
    "equals the primal w, and the decision functions (4.10) coincide; weak duality "
    "W(alpha) <= 1/2 ||w||^2 is attained.",
    method=Method.REFERENCE,
    tags=("svm", "reference", "cvxpy", "slow", "bound"),
)
@given(data=SEPARABLE, working_set=WORKING_SETS)
@example(data=NEAR_DUPLICATES, working_set="second_order")
def hard_margin_primal_dual_smo_agree(data, working_set):
    check_hard_margin_reference(data, working_set)


@claim(
    id="svm.kkt_4_11",
    source="003 §4.2 (4.11)",
    statement="At the hard-margin dual solution alpha_i >= 0, y_i f(x_i) - 1 >= 0 and "
    "alpha_i (y_i f(x_i) - 1) = 0 for every i (the note's first line 'alpha_i <- 0' read "
    "as alpha_i >= 0); hence only support vectors (on the margin) carry alpha_i > 0. "
    "The bound 1 <= y_i f(x_i) is attained at every support vector.",
    method=Method.PROPERTY,
    tags=("svm", "kkt", "bound"),
)
@given(data=SEPARABLE)
def kkt_4_11(data):
    model = hard_smo(data.X, data.y)
    alpha = model.alpha_
    r = data.y * model.decision_function(data.X) - 1.0
    evidence.worst("min alpha (should be >= 0)", -alpha.min())
    assert np.all(alpha >= 0)
    assert_leq(-r.min(), 0.0, label="primal feasibility violation", tol=KKT)
    assert_leq(1.0, float(np.min(r + 1.0)), label="1 / min_i y_i f(x_i)", tol=KKT)
    # complementary slackness in units of the margin: alpha_i > 0 => y_i f(x_i) = 1
    sv = alpha > 0
    evidence.worst("max |y f - 1| over support vectors", np.abs(r[sv]).max())
    assert_close(r[sv], np.zeros(sv.sum()), KKT, label="support-vector margin residual",
                 context="alpha_i (y_i f(x_i) - 1) = 0: ")


@claim(
    id="svm.kkt_4_11_as_written",
    source="003 §4.2 (4.11)",
    statement="The first KKT condition of (4.11) as printed, 'alpha_i <- 0', holds at the "
    "hard-margin solution: every multiplier alpha_i is (set to) 0.",
    method=Method.PROPERTY,
    tags=("svm", "kkt", "erratum"),
    expect=Expect.REFUTED,
    kind=ErratumKind.SYMBOL,
    corrected_by="svm.kkt_4_11",
    explanation="The printed arrow is a typo for '>=': with every alpha_i = 0, (4.8) gives "
    "w = 0 and no b satisfies y_i (w^T x_i + b) >= 1 for both classes. For x = +1 and "
    "x = -1 (labels +1, -1) the solution is alpha_1 = alpha_2 = 2 / ||x_1 - x_2||^2 = 1/2.",
)
@given(data=SEPARABLE)
@example(data=SeparableData(X=np.array([[1.0], [-1.0]]), y=np.array([1, -1]),
                            separator=np.array([1.0, 0.0]), margin=1.0))
def kkt_4_11_as_written(data):
    alpha = hard_smo(data.X, data.y).alpha_
    assert np.all(alpha == 0), f"alpha = {alpha} is not 0 (max alpha_i = {alpha.max():.4g})"


def check_canonical_form(data, rescale: bool) -> None:
    """(4.3) for the drawn separator (w0, b0), unit length (``rescale=False``) or divided by
    its smallest functional margin (``rescale=True``)."""
    w0, b0 = data.separator[:-1], data.separator[-1]
    f = data.X @ w0 + b0
    assert np.all(data.y * f > 0), "the drawn separator classifies the sample correctly"
    s = float(np.min(data.y * f)) if rescale else 1.0
    w, b = w0 / s, b0 / s
    yf = data.y * (data.X @ w + b)
    evidence.worst("1 - min_i y_i (w^T x_i + b)", 1.0 - float(yf.min()))
    assert_leq(1.0, float(yf.min()), label="1 / min_i y_i f(x_i)", tol=LINEAR_ALGEBRA)
    if rescale:  # the same hyperplane: distances (4.2) unchanged
        assert_close(np.abs(data.X @ w + b) / np.linalg.norm(w), np.abs(f) / np.linalg.norm(w0),
                     LINEAR_ALGEBRA, label="distances (4.2) before vs after rescaling")


@claim(
    id="svm.correct_classification_4_3_as_written",
    source="003 §4.1 (4.3)",
    statement="A hyperplane (w, b) that classifies every training sample correctly satisfies "
    "(4.3): w^T x_i + b >= +1 where y_i = +1 and w^T x_i + b <= -1 where y_i = -1.",
    method=Method.PROPERTY,
    tags=("svm", "geometry", "erratum"),
    expect=Expect.REFUTED,
    kind=ErratumKind.SHORTHAND,
    corrected_by="svm.canonical_rescaling_4_3",
    explanation="Correct classification only gives y_i (w^T x_i + b) > 0; (4.3) is the "
    "canonical scaling, reached by dividing (w, b) by min_i y_i (w^T x_i + b). E.g. the unit "
    "normal w = 1, b = 0 classifies x = +-0.5 correctly with w^T x + b = 0.5 < 1.",
)
@given(data=SEPARABLE)
@example(data=SeparableData(X=np.array([[0.5], [-0.5]]), y=np.array([1, -1]),
                            separator=np.array([1.0, 0.0]), margin=0.5))
def correct_classification_4_3_as_written(data):
    check_canonical_form(data, rescale=False)


@claim(
    id="svm.canonical_rescaling_4_3",
    source="003 §4.1 (4.3)",
    statement="Any hyperplane that classifies the sample correctly, divided by its smallest "
    "functional margin min_i y_i (w^T x_i + b), satisfies (4.3) with equality at the closest "
    "points and is the same hyperplane (every distance (4.2) unchanged).",
    method=Method.PROPERTY,
    tags=("svm", "geometry", "bound"),
)
@given(data=SEPARABLE)
def canonical_rescaling_4_3(data):
    check_canonical_form(data, rescale=True)


@claim(
    id="svm.sparsity_support_vectors_only",
    source="003 §4.2 (after (4.11))",
    statement="After training the model depends only on the support vectors: retraining "
    "on the support vectors alone gives the same decision function.",
    method=Method.PROPERTY,
    tags=("svm", "kkt"),
)
@given(data=SEPARABLE)
def sparsity_support_vectors_only(data):
    full = hard_smo(data.X, data.y)
    sv = full.support_
    assert np.unique(data.y[sv]).size == 2, "support vectors of both classes exist"
    again = hard_smo(data.X[sv], data.y[sv])
    f1, f2 = full.decision_function(data.X), again.decision_function(data.X)
    evidence.worst("decision gap full vs SV-only (relative)", _decision_gap(f1, f2))
    assert_close(f2, f1, DUAL_SOLVER, label="decision function relative error")
    evidence.worst("fraction of support vectors", sv.size / data.n_samples)


def bias_terms(alpha, y, K, index):
    """The per-support-vector terms of (4.14): y_s - sum_i alpha_i y_i K_is."""
    return y[index] - (alpha * y) @ K[:, index]


@claim(
    id="svm.bias_4_13_4_14",
    source="003 §4.2 (4.13)-(4.14)",
    statement="Every support vector s in S = {i : alpha_i > 0} satisfies (4.13), so every "
    "term y_s - sum_i alpha_i y_i x_i^T x_s of the average (4.14) equals the same b, "
    "which is the bias of the primal solution (4.6).",
    method=Method.REFERENCE,
    tags=("svm", "reference", "cvxpy", "slow"),
)
@given(data=SEPARABLE)
def bias_4_13_4_14(data):
    X, y = data.X, data.y.astype(float)
    model = hard_smo(X, y)
    S = np.flatnonzero(model.alpha_ > 0)
    terms = bias_terms(model.alpha_, y, X @ X.T, S)
    b = terms.mean()
    scale = max(1.0, np.abs(X @ model.coef_[0]).max())
    evidence.worst("spread of the (4.14) terms (relative)", np.ptp(terms) / scale)
    assert_close(terms, np.full_like(terms, b), DUAL_SOLVER, label="(4.13) term spread")
    w_ref, b_ref, _ = hard_margin_primal(X, y)
    # b = y_s - w.x_s inherits the reference's error in w: |db| <= ||dw|| ||x_s||, so the
    # bias is compared on the decision-function scale ||w|| max ||x|| + |b|, not to itself
    b_scale = decision_scale(w_ref, b_ref, X)
    evidence.worst("bias gap vs cvxpy primal (relative to ||w|| R + |b|)",
                   abs(b - b_ref) / max(1.0, b_scale))
    assert_close(b, b_ref, DUAL_SOLVER, label="bias vs primal", scale=b_scale)


# ---------------------------------------------------------------- §4.4 soft margin


def check_sign_rule(model, X: np.ndarray) -> None:
    """predict(x) is classes_[1] where the decision function (4.10) is clearly positive and
    classes_[0] where clearly negative (the sign rule on y in {-1, +1}). The decision
    function itself is compared with cvxpy's separately (where b is unique)."""
    f = model.decision_function(X)
    clear = np.abs(f) > 1e-9 * max(1.0, float(np.abs(f).max()))
    expected = model.classes_[(f > 0).astype(int)]
    assert np.all(model.predict(X)[clear] == expected[clear]), "predict disagrees with sign(f)"


def check_soft_margin_reference(data, C, working_set="second_order", cls=SMOClassifier,
                                duality_factor: float = 1.0):
    """SMO vs the cvxpy soft-margin primal and dual; ``duality_factor`` scales the
    weak-duality bound (1 is the claim; 1/2 is the bound halved, for teeth)."""
    X, y = data.X, data.y.astype(float)
    model = soft_smo(X, y, C, working_set, cls)
    w_ref, b_ref, p_star = soft_margin_primal(X, y, C)
    _, d_star = svc_dual(X @ X.T, y, C)
    smo_value = dual_objective(model.alpha_, y, X @ X.T)
    scale = check_strong_duality(smo_value, p_star, d_star,
                                 context="strong duality (4.28) = (4.31): ")
    evidence.series("|W(alpha_smo) - p*| / max(1, |p*|)", X.shape[0],
                    abs(smo_value - p_star) / scale, kind="scatter",
                    plot="SMO against cvxpy: relative objective gap per example",
                    xlabel="training points m", ylabel="relative gap", logy=True)
    w_smo, b_smo = model.coef_[0], model.intercept_[0]
    # the SMO (w, b) must be primal optimal: this is what tests the bias when b is not unique
    p_smo = soft_primal_objective(w_smo, b_smo, X, y, C)
    assert_close(p_smo, p_star, DUAL_SOLVER, label="primal objective at SMO (w, b)",
                 context="SMO's (w, b) in (4.27): ")
    # weak duality W(alpha) <= P(w, b) for any feasible alpha and any (w, b) (the hinge form
    # is feasible everywhere): SMO's own pair, attained at the optimum (zero duality gap)
    assert_leq(smo_value, duality_factor * p_smo, label="W(alpha_smo) / P(w_smo, b_smo)",
               tol=DUAL_SOLVER)
    # (4.30) w = sum alpha_i y_i x_i equals the primal w, within the certified distance.
    w_bound = certified_distance(p_smo, soft_primal_objective(w_ref, b_ref, X, y, C), smo_value,
                                 scale)
    assert_leq(np.linalg.norm(w_smo - w_ref), w_bound, label="||w_smo - w_ref|| / certified bound")
    f_smo, f_ref = model.decision_function(X), X @ w_ref + b_ref
    gap = evidence.worst("decision-function gap (relative)", _decision_gap(f_smo, f_ref))
    check_sign_rule(model, X)
    free = np.flatnonzero((model.alpha_ > 1e-6 * C) & (model.alpha_ < (1 - 1e-6) * C))
    if free.size:  # a free SV s pins b = y_s - w.x_s (KKT), so f is unique
        radius = np.linalg.norm(X, axis=1).max()
        tol = Tolerance(rtol=DUAL_SOLVER.rtol, atol=DUAL_SOLVER.atol + 2 * w_bound * radius,
                        reason="|f_smo - f_ref| <= ||dw|| (|x| + |x_s|) + solver feasibility "
                        "error, with ||dw|| certified by strong convexity")
        assert_close(f_smo, f_ref, tol, label="decision function relative error",
                     context="decision function (b unique here): ")
    return gap


@claim(
    id="svm.soft_margin_primal_dual_smo_agree",
    source="003 §4.4 (4.27)-(4.31)",
    statement="On non-separable data the soft-margin primal (4.28), its dual (4.31) and "
    "the SMO solution agree: equal optimal values, w = sum_i alpha_i y_i x_i, and the "
    "SMO's (w, b) is optimal in the hinge form (4.27); weak duality W(alpha) <= P(w, b) "
    "holds with equality there.",
    method=Method.REFERENCE,
    tags=("svm", "reference", "cvxpy", "slow", "bound"),
)
@given(data=NONSEPARABLE, C=C_VALUES, working_set=WORKING_SETS)
def soft_margin_primal_dual_smo_agree(data, C, working_set):
    check_soft_margin_reference(data, C, working_set)


@claim(
    id="svm.hinge_slack_equivalence_4_27_4_28",
    source="003 §4.4 (4.27)-(4.28)",
    statement="The hinge-loss form (4.27) and the slack form (4.28) have the same optimal "
    "value, and at the optimum xi_i = max(0, 1 - y_i (w^T x_i + b)).",
    method=Method.REFERENCE,
    tags=("svm", "reference", "cvxpy", "slow"),
)
@given(data=NONSEPARABLE, C=C_VALUES)
def hinge_slack_equivalence_4_27_4_28(data, C):
    X, y = data.X, data.y.astype(float)
    w1, b1, v1 = soft_margin_primal(X, y, C, hinge_form=True)
    w2, b2, v2 = soft_margin_primal(X, y, C)
    assert_close(v1, v2, DUAL_SOLVER, label="optimal value gap (relative)")
    # each solution is optimal for the other form once xi is set to the hinge
    assert_close(soft_primal_objective(w2, b2, X, y, C), v1, DUAL_SOLVER,
                 label="slack solution in hinge form")


@claim(
    id="svm.soft_kkt_4_30_4_32",
    source="003 §4.4 (4.30); 003 §4.4 (4.32)",
    statement="At the soft-margin solution, with xi_i = max(0, 1 - y_i f(x_i)) and "
    "mu_i = C - alpha_i (4.30): 0 <= alpha_i <= C, mu_i >= 0, sum alpha_i y_i = 0, "
    "y_i f(x_i) - 1 + xi_i >= 0, alpha_i (y_i f(x_i) - 1 + xi_i) = 0, mu_i xi_i = 0; "
    "so alpha_i = 0 => y_i f >= 1, 0 < alpha_i < C => y_i f = 1, alpha_i = C => y_i f <= 1.",
    method=Method.PROPERTY,
    tags=("svm", "kkt"),
)
@given(data=NONSEPARABLE, C=C_VALUES)
def soft_kkt_4_30_4_32(data, C):
    X, y = data.X, data.y.astype(float)
    model = soft_smo(X, y, C)
    alpha = model.alpha_
    mu = C - alpha
    assert np.all(alpha >= 0) and np.all(mu >= 0), "box 0 <= alpha <= C"
    assert abs(alpha @ y) <= 1e-9 * max(1.0, alpha.sum()), "sum alpha_i y_i = 0"
    yf = y * model.decision_function(X)
    xi = np.maximum(0.0, 1.0 - yf)
    r = yf - 1 + xi
    scale = max(1.0, np.abs(yf).max())
    assert_leq(-r.min() / scale, 0.0, label="primal feasibility violation", tol=KKT)
    cs = (alpha / C) * r / scale
    evidence.worst("max |alpha_i/C (y f - 1 + xi)| (relative)", np.abs(cs).max())
    assert_close(cs, np.zeros_like(cs), KKT, label="complementary slackness alpha")
    evidence.worst("max mu_i xi_i / C (relative)", np.abs(mu * xi / C).max() / scale)
    assert_close(mu * xi / (C * scale), np.zeros_like(xi), KKT,
                 label="complementary slackness mu")


def as_written_bias_soft(alpha, y, K):
    """(4.14) averaged over all of S = {alpha > 0}, as the note prescribes."""
    S = np.flatnonzero(alpha > 0)
    return float(bias_terms(alpha, y, K, S).mean())


def free_sv_bias_soft(alpha, y, K, C):
    """(4.14) averaged over the free support vectors 0 < alpha < C only."""
    free = np.flatnonzero((alpha > 0) & (alpha < C))
    return float(bias_terms(alpha, y, K, free).mean())


def check_soft_bias(data, C, bias_rule) -> None:
    X, y = data.X, data.y.astype(float)
    model = soft_smo(X, y, C)
    free = (model.alpha_ > 0) & (model.alpha_ < C)
    if not np.any(free):
        evidence.note("examples without a free support vector use the midpoint rule")
        return
    w = model.coef_[0]
    b = bias_rule(model.alpha_, y, X @ X.T, C)
    _, _, p_star = soft_margin_primal(X, y, C)
    p_b = soft_primal_objective(w, b, X, y, C)
    evidence.worst("primal suboptimality of (w, b) (relative)",
                   (p_b - p_star) / max(1.0, abs(p_star)))
    assert_close(p_b, p_star, DUAL_SOLVER, label="primal objective at (w, b)",
                 context="the bias must make (w, b) optimal for (4.27): ")


@claim(
    id="svm.soft_bias_free_support_vectors",
    source="003 §4.4 (4.32); 003 §4.2 (4.14)",
    statement="In the soft-margin case (4.14) holds when averaged over the free support "
    "vectors 0 < alpha_s < C only: that b makes (w, b) optimal for (4.27).",
    method=Method.REFERENCE,
    tags=("svm", "reference", "cvxpy", "slow"),
)
@given(data=NONSEPARABLE, C=C_VALUES)
def soft_bias_free_support_vectors(data, C):
    check_soft_bias(data, C, free_sv_bias_soft)


@claim(
    id="svm.soft_to_hard_limit",
    source="003 §4.4 (4.31)",
    statement="Since the soft-margin dual differs from the hard-margin dual only by the "
    "bound alpha_i <= C, on separable data any C >= max_i alpha_i(hard) gives the "
    "hard-margin solution.",
    method=Method.PROPERTY,
    tags=("svm",),
)
@given(data=SEPARABLE, factor=st.sampled_from([1.0, 1.5, 10.0]))
def soft_to_hard_limit(data, factor):
    hard = hard_smo(data.X, data.y)
    C = factor * hard.alpha_.max()
    soft = soft_smo(data.X, data.y, C)
    assert_close(soft.decision_function(data.X), hard.decision_function(data.X), DUAL_SOLVER,
                 label="decision gap soft vs hard (relative)")
