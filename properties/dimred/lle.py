"""Locally linear embedding, 003 §8.5.2 (8.19)-(8.24) and Fig 10.10.

The reconstruction weights (8.21) against cvxpy's equality-constrained least squares
(8.20) and a KKT certificate, their invariance to translation, rotation and uniform
scaling, the quadratic form (8.22) = tr(Z M Z^T) with M of (8.23), the embedding as the
minimiser of (8.24), and agreement with ``sklearn.manifold.LocallyLinearEmbedding
(method="standard")``. Errata: (8.21) needs an invertible C, which fails whenever k > d
(the notes never regularise); Fig 10.10 line 8 run literally keeps M's constant
eigenvector (eigenvalue 0), a coordinate that is the same for every sample.
"""

from __future__ import annotations

import cvxpy as cp
import numpy as np
from hypothesis import example, given
from hypothesis import strategies as st
from scipy.stats import ortho_group
from sklearn.datasets import load_digits, make_swiss_roll
from sklearn.manifold import LocallyLinearEmbedding as SkLLE

from algorithms.dimred import LocallyLinearEmbedding, lle_weights
from mltheory import ErratumKind, Expect, Method, claim, evidence
from mltheory.numeric import REFERENCE_SOLVER, Tolerance, assert_close, assert_leq
from properties.dimred.strategies_manifold import SEEDS, Neighbourhood, neighbourhoods
from properties.dimred.support_manifold import (
    EIGEN_ROUNDING,
    GRAM_ROUNDING,
    ITERATIVE_EIGEN,
    match_signs,
    single_threaded,
)

#: Weights solved from C w = 1 are accurate to ~cond(C) * 1e-16 relative to ||w||; the
#: neighbourhoods drawn have cond(C) up to ~1e8, so 1e-6 of ||w|| with a margin.
WEIGHT_ROUNDING = Tolerance(
    rtol=1e-6, atol=0.0,
    reason="C w = 1 solved by LU: error ~ cond(C) * 1e-16 * ||w||, cond(C) <= ~1e8 for the "
    "drawn neighbourhoods")


def _weights_of(nb: Neighbourhood, reg: float, weights=lle_weights) -> np.ndarray:
    """Weights of nb.x on its neighbours, in the order of nb.N (all other points)."""
    X = np.vstack([nb.x, nb.N])
    k = nb.N.shape[0]
    res = weights(X, k, reg)
    w = np.zeros(k)
    w[res.indices[0] - 1] = res.weights[0]
    return w


def _gram(nb: Neighbourhood) -> np.ndarray:
    diff = nb.x - nb.N
    return diff @ diff.T


def _cvxpy_weights(nb: Neighbourhood, reg: float) -> tuple[np.ndarray, float]:
    """(8.20) for one sample: min ||x - N^T w||^2 (+ reg tr(C) ||w||^2) s.t. sum w = 1."""
    k = nb.N.shape[0]
    s = float(np.max(np.abs(nb.x - nb.N))) or 1.0  # solve in units of the neighbourhood
    diff = (nb.x - nb.N) / s
    tr = float(np.trace(diff @ diff.T))
    w = cp.Variable(k)
    objective = cp.sum_squares(diff.T @ w)  # x - sum_j w_j x_j = sum_j w_j (x - x_j)
    if reg > 0:
        objective = objective + reg * (tr if tr > 0 else 1.0) * cp.sum_squares(w)
    problem = cp.Problem(cp.Minimize(objective), [cp.sum(w) == 1])
    problem.solve(solver=cp.CLARABEL)
    return np.asarray(w.value), float(problem.value)


def check_weights(nb: Neighbourhood, reg: float, weights=lle_weights) -> None:
    """Our weights sum to 1, satisfy the KKT condition of (8.20) (C_reg w = lambda 1), equal
    (8.21) written with C^(-1) when reg = 0, and reach cvxpy's optimum of (8.20)."""
    w = _weights_of(nb, reg, weights)
    assert_close(np.sum(w), 1.0, WEIGHT_ROUNDING, label="|sum_j w_ij - 1|")
    s = float(np.max(np.abs(nb.x - nb.N))) or 1.0
    diff = (nb.x - nb.N) / s
    C = diff @ diff.T
    if reg > 0:
        tr = float(np.trace(C))
        C = C + reg * (tr if tr > 0 else 1.0) * np.eye(C.shape[0])
    Cw = C @ w
    lam = float(np.mean(Cw))
    assert_close(Cw, np.full_like(Cw, lam), WEIGHT_ROUNDING,
                 scale=float(np.linalg.norm(C, 2) * np.linalg.norm(w)),
                 label="|C w - lambda 1| / (||C|| ||w||) (KKT of (8.20))")
    if reg == 0:
        Cinv = np.linalg.inv(C)  # (8.21) as printed, with the explicit inverse
        printed = Cinv.sum(axis=1) / Cinv.sum()
        assert_close(w, printed, WEIGHT_ROUNDING, scale=float(np.linalg.norm(printed)),
                     label="|w - (8.21)| / ||w||")
    ref_w, ref_value = _cvxpy_weights(nb, reg)
    ours = float(np.sum((diff.T @ w) ** 2)) + (
        0.0 if reg == 0 else float(w @ (C - diff @ diff.T) @ w))
    assert_leq(ours, ref_value + REFERENCE_SOLVER.atol * max(1.0, ref_value),
               label="objective(ours) / objective(cvxpy)", tol=REFERENCE_SOLVER)
    evidence.record("cvxpy weights gap (last)", float(np.max(np.abs(w - ref_w))))
    evidence.add_examples()


@claim(
    id="lle.weights_8_20_8_21",
    source="003 §8.5.2 (8.20)-(8.21)",
    statement="For an invertible local Gram matrix C_jk = (x_i - x_j)^T (x_i - x_k) (k <= d, "
    "neighbours in general position) the weights w_ij = sum_k C^-1_jk / sum_ls C^-1_ls sum "
    "to 1 and solve min ||x_i - sum_j w_ij x_j||^2 s.t. sum_j w_ij = 1 (cvxpy); with "
    "k > d, C + reg tr(C) I gives the weights of the same problem with the penalty "
    "reg tr(C) ||w||^2.",
    method=Method.REFERENCE,
    tags=("dimred", "lle", "slow"),  # one cvxpy solve per example
)
@given(nb=neighbourhoods(), reg=st.sampled_from([0.0, 1e-3, 0.1]))
def weights_8_20_8_21(nb, reg):
    k, d = nb.N.shape
    if k > d and reg == 0:
        reg = 1e-3  # C is singular: (8.21) needs the regularisation (see the erratum)
    check_weights(nb, reg)


def check_gram_invertible(nb: Neighbourhood) -> None:
    """(8.21) is defined: the local Gram matrix has full rank k."""
    C = _gram(nb)
    k = C.shape[0]
    rank = int(np.linalg.matrix_rank(C, tol=1e-10 * max(float(np.max(np.abs(C))), 1e-300)))
    assert rank == k, f"C is {k} x {k} of rank {rank}: C^(-1) in (8.21) does not exist"
    evidence.add_examples()


@claim(
    id="lle.weights_singular_as_written",
    source="003 §8.5.2 (8.21), Fig 10.10 line 3",
    statement="(As printed, for any neighbour sets Q_i) the weights are given by (8.21), "
    "which needs C^(-1).",
    method=Method.PROPERTY,
    tags=("dimred", "lle", "erratum"),
    expect=Expect.REFUTED,
    kind=ErratumKind.MISSING_CONDITION,
    corrected_by="lle.weights_8_20_8_21",
    explanation="C = G G^T with G the k x d matrix of differences x_i - x_j has rank <= d, so "
    "for k > d (the usual case: more neighbours than dimensions) it is singular and (8.21) "
    "is undefined; e.g. d = 1, x_i = 0, neighbours 1 and 2. The minimiser of (8.20) then "
    "is not unique; C + reg tr(C) I (Roweis and Saul) picks the minimum-norm-like one.",
)
@given(nb=neighbourhoods())
@example(nb=Neighbourhood(np.zeros(1), np.array([[1.0], [2.0]])))
def weights_singular_as_written(nb):
    check_gram_invertible(nb)


# ---------------------------------------------------------------------------
# Invariance
# ---------------------------------------------------------------------------


@st.composite
def _point_sets(draw):
    m = draw(st.integers(4, 14))
    d = draw(st.integers(1, 3))
    rng = np.random.default_rng(draw(SEEDS))
    return draw(st.sampled_from([1e-2, 1.0, 1e2])) * rng.standard_normal((m, d))


def check_invariance(X: np.ndarray, k: int, reg: float, seed: int, weights=lle_weights) -> None:
    """Under x -> c Q x + b (Q orthogonal, c > 0) the neighbour sets and the weights are
    unchanged, and every reconstruction residual x_i - sum_j w_ij x_j becomes c Q times the
    old one: the translation drops out because the weights sum to 1."""
    rng = np.random.default_rng(seed)
    d = X.shape[1]
    Q = ortho_group.rvs(d, random_state=rng) if d > 1 else np.array([[-1.0]])
    c = float(rng.choice([1e-3, 0.5, 7.0, 1e3]))
    b = rng.normal(scale=100.0, size=d)
    Y = c * X @ Q.T + b
    before, after = weights(X, k, reg), weights(Y, k, reg)
    assert np.array_equal(np.sort(before.indices, axis=1), np.sort(after.indices, axis=1)), (
        "neighbour sets changed")
    Wb, Wa = before.matrix.toarray(), after.matrix.toarray()
    assert_close(Wa, Wb, WEIGHT_ROUNDING, scale=max(1.0, float(np.max(np.abs(Wb)))),
                 label="|W(cQx + b) - W(x)|")
    r_before = X - Wb @ X
    r_after = Y - Wa @ Y
    size = c * max(float(np.max(np.abs(X - X.mean(axis=0)))), 1e-300)
    assert_close(r_after, c * r_before @ Q.T, WEIGHT_ROUNDING, scale=size * max(
        1.0, float(np.max(np.abs(Wb)))), label="|residual after - c Q residual| / scale")
    evidence.add_examples()


@claim(
    id="lle.weight_invariance",
    source="003 §8.5.2 (8.20)-(8.21)",
    statement="Because C is built from differences and the weights sum to 1, the "
    "reconstruction weights are invariant to translation, rotation (any orthogonal map) "
    "and uniform scaling of the data, and each reconstruction residual is transformed by "
    "the linear part alone (the regularisation reg tr(C) scales with C, so it keeps "
    "the invariance).",
    method=Method.PROPERTY,
    tags=("dimred", "lle"),
)
@given(X=_point_sets(), k=st.integers(1, 6), reg=st.sampled_from([1e-3, 0.1]), seed=SEEDS)
def weight_invariance(X, k, reg, seed):
    check_invariance(X, min(k, X.shape[0] - 1), reg, seed)


# ---------------------------------------------------------------------------
# (8.22)-(8.24)
# ---------------------------------------------------------------------------


def check_embedding(X: np.ndarray, k: int, dp: int, seed: int, lle=LocallyLinearEmbedding,
                    literal: bool = False) -> None:
    """(8.22) = tr(Z M Z^T) for random Z; M symmetric PSD with M 1 = 0; the embedding has
    orthonormal columns orthogonal to 1 (no constant coordinate), its cost tr(Z M Z^T)
    equals the sum of M's eigenvalues 2..d'+1 (numpy), and random orthonormal Z orthogonal
    to 1 never do better. ``literal`` replaces the embedding by Fig 10.10 line 8 as
    printed (eigenvectors of the d' smallest eigenvalues)."""
    est = lle(n_neighbors=k, n_components=dp).fit(X)
    M = est.M_.toarray()
    W = est.weights_.matrix.toarray()
    m = X.shape[0]
    rng = np.random.default_rng(seed)
    Zr = rng.standard_normal((dp, m))
    direct = sum(float(np.sum((Zr[:, i] - Zr @ W[i]) ** 2)) for i in range(m))
    assert_close(np.trace(Zr @ M @ Zr.T), direct, GRAM_ROUNDING, scale=direct,
                 label="|tr(Z M Z^T) - (8.22)| / (8.22)")
    IW = np.eye(m) - W
    assert_close(M, IW.T @ IW, GRAM_ROUNDING, scale=float(np.max(np.abs(M))),
                 label="|M - (I-W)^T(I-W)|")
    lam = np.linalg.eigvalsh(M)
    size = float(lam[-1])
    assert_leq(-float(lam[0]), EIGEN_ROUNDING.rtol * size, label="-lambda_min(M) / 1e-9||M||")
    assert_close(M @ np.ones(m), np.zeros(m), GRAM_ROUNDING, scale=size, label="|M 1| / ||M||")
    Z = est.embedding_.T
    if literal:
        Z = np.linalg.eigh(M)[1][:, :dp].T
    assert_close(Z @ Z.T, np.eye(dp), EIGEN_ROUNDING, scale=1.0, label="|Z Z^T - I|")
    spread = float(np.min(np.std(Z, axis=1)) * np.sqrt(m))
    evidence.worst("min_k ||z^(k) - mean|| (1 = unit, 0 = constant coordinate)", spread,
                   larger_is_worse=False)
    assert spread > 0.5, f"a coordinate is (nearly) constant: centred norm {spread:.3g}"
    cost = float(np.trace(Z @ M @ Z.T))
    assert_close(cost, float(np.sum(lam[1: dp + 1])), EIGEN_ROUNDING, scale=size,
                 label="|tr(Z M Z^T) - sum of eigenvalues 2..d'+1| / ||M||")
    if not literal:  # the reported spectrum and cost are those of M (numpy)
        assert_close(est.eigenvalues_, lam[: dp + 1], EIGEN_ROUNDING, scale=size,
                     label="|eigenvalues_ - smallest eigenvalues of M| / ||M||")
        assert_close(est.reconstruction_error_, cost, EIGEN_ROUNDING, scale=size,
                     label="|reconstruction_error_ - tr(Z M Z^T)| / ||M||")
    for _ in range(3):
        R = rng.standard_normal((m, dp))
        R -= R.mean(axis=0)
        R = np.linalg.qr(R)[0].T
        assert_leq(cost, float(np.trace(R @ M @ R.T)) + EIGEN_ROUNDING.rtol * size,
                   label="cost(LLE) / cost(random orthonormal Z, Z1 = 0)")
    evidence.add_examples()


@st.composite
def _curves(draw):
    """Samples near a curved sheet or a helix in 3-d (neighbourhoods of rank >= d')."""
    m = draw(st.integers(8, 30))
    rng = np.random.default_rng(draw(SEEDS))
    t = np.sort(rng.uniform(0.0, 3.0, m))
    kind = draw(st.sampled_from(["sheet", "helix"]))
    if kind == "sheet":
        X = np.column_stack([np.cos(t), rng.uniform(0, 1, m), np.sin(t)])
    else:
        X = np.column_stack([np.cos(2 * t), np.sin(2 * t), t])
    return X + 0.01 * rng.standard_normal(X.shape)


@claim(
    id="lle.m_8_23_8_24",
    source="003 §8.5.2 (8.22)-(8.24), Fig 10.10",
    statement="sum_i ||z_i - sum_j w_ij z_j||^2 = tr(Z M Z^T) with M = (I - W)^T (I - W), "
    "symmetric PSD with M 1 = 0 (rows of W sum to 1); under Z Z^T = I (and Z 1 = 0, which "
    "removes the constant solution) the minimiser is given by the eigenvectors of the d' "
    "smallest non-trivial eigenvalues: no orthonormal Z orthogonal to 1 does better.",
    method=Method.PROPERTY,
    tags=("dimred", "lle"),
)
@given(X=_curves(), k=st.integers(4, 7), dp=st.integers(1, 2), seed=SEEDS)
def m_8_23_8_24(X, k, dp, seed):
    check_embedding(X, min(k, X.shape[0] - 1), dp, seed)


@claim(
    id="lle.trivial_eigenvector_as_written",
    source="003 §8.5.2 (8.24), Fig 10.10 line 8",
    statement="(Fig 10.10 line 8 as printed) the eigenvectors of M's d' smallest eigenvalues "
    "are the d' coordinates of the embedding (none of them constant over the samples).",
    method=Method.PROPERTY,
    tags=("dimred", "lle", "erratum"),
    expect=Expect.REFUTED,
    kind=ErratumKind.MISSING_CONDITION,
    corrected_by="lle.m_8_23_8_24",
    explanation="M 1 = 0 because every row of W sums to 1, so the smallest eigenvalue is 0 "
    "with the constant eigenvector 1/sqrt(m): the literal output's first coordinate is the "
    "same for every sample (for any connected data, e.g. 8 points on a curved sheet, k = 4, "
    "d' = 1). (8.24) lacks the constraint Z 1 = 0 (centred coordinates) that discards it.",
)
@given(X=_curves(), k=st.integers(4, 7), dp=st.integers(1, 2), seed=SEEDS)
def trivial_eigenvector_as_written(X, k, dp, seed):
    check_embedding(X, min(k, X.shape[0] - 1), dp, seed, literal=True)


@claim(
    id="lle.reference",
    source="003 §8.5.2 Fig 10.10",
    statement="The LLE embedding equals scikit-learn's LocallyLinearEmbedding(method="
    "'standard', eigen_solver='dense', same k and reg) up to the sign of each coordinate "
    "on Swiss rolls and on 300 digits (jittered by 1e-6 of each feature's spread to break "
    "distance ties); new samples are placed as scikit-learn's transform places them.",
    method=Method.REFERENCE,
    tags=("dimred", "lle", "real-data"),
)
def reference(rng, scale):
    with single_threaded():
        _reference(rng, scale)


def _reference(rng, scale):
    digits = load_digits().data[rng.choice(1797, 300, replace=False)]
    digits = digits + 1e-6 * digits.std(axis=0) * rng.standard_normal(digits.shape)
    cases = [("digits", digits, 12, 2)]
    for _ in range(scale):
        X, _ = make_swiss_roll(400, random_state=int(rng.integers(2**31)))
        cases.append(("swiss roll", X, 10, 2))
    for name, X, k, dp in cases:
        train, new = X[: len(X) * 3 // 4], X[len(X) * 3 // 4:]
        ours = LocallyLinearEmbedding(n_neighbors=k, n_components=dp, reg=1e-3).fit(train)
        theirs = SkLLE(n_neighbors=k, n_components=dp, reg=1e-3, method="standard",
                       eigen_solver="dense").fit(train)
        assert_close(match_signs(ours.embedding_, theirs.embedding_), theirs.embedding_,
                     ITERATIVE_EIGEN, scale=float(np.max(np.abs(theirs.embedding_))),
                     label="|LLE - sklearn| / max|z|", context=f"{name}: ")
        signs = np.sign(np.sum(ours.embedding_ * theirs.embedding_, axis=0))
        assert_close(ours.transform(new) * signs, theirs.transform(new), ITERATIVE_EIGEN,
                     scale=float(np.max(np.abs(theirs.embedding_))),
                     label="|transform - sklearn| / max|z|", context=f"{name} new: ")
        evidence.add_examples()
