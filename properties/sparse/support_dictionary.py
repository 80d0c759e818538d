"""Check bodies of the dictionary-learning (003 §10.5) and matrix-completion (003 §10.6)
claims, parametrised so that the teeth tests run the very same checks on broken variants.

Everything here recomputes the objectives with its own code (an ``einsum`` over the
samples, never the estimator's private helpers) and reads what the algorithms recorded.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Callable

import numpy as np
from sklearn.exceptions import ConvergenceWarning

from algorithms.sparse import DictionaryLearning, ksvd_update, nuclear_norm, sparse_code
from mltheory import evidence
from mltheory.numeric import REFERENCE_SOLVER, Tolerance, assert_close, assert_leq

#: Objectives of exact sub-solvers compared as floats: sums of up to ~50 squares of
#: numbers of size up to 1e3, so rounding ~1e-16 relative to the sum of the squares.
SQUARE_SUMS = Tolerance(
    rtol=1e-10, atol=1e-12,
    reason="two orders of summation of the same squares (at most a few hundred terms): "
    "float64 rounding, ~1e-14 relative to the total")

#: The LASSO codes come from a solver stopped at a relative duality gap of 1e-11 per
#: sample, so the objective of a coding step is within 1e-11 ||X||_F^2 of its minimum.
CODING_GAP = 1e-11


def objective(X: np.ndarray, B: np.ndarray, A: np.ndarray, lam: float) -> float:
    """(10.14): sum over samples (columns) of ``||x_i - B alpha_i||^2 + lam ||alpha_i||_1``."""
    R = X - np.einsum("dk,km->dm", B, A)
    return float(np.einsum("dm,dm->", R, R) + lam * np.abs(A).sum())


def per_sample(X: np.ndarray, B: np.ndarray, A: np.ndarray, lam: float) -> np.ndarray:
    """The m terms of (10.15) at the codes ``A``: ``||x_i - B alpha_i||^2 + lam ||alpha_i||_1``."""
    return np.array([float(np.sum((X[:, i] - B @ A[:, i]) ** 2) + lam * np.abs(A[:, i]).sum())
                     for i in range(X.shape[1])])


def joint_lasso_value(X: np.ndarray, B: np.ndarray, lam: float) -> float:
    """``min_A ||X - BA||_F^2 + lam ||A||_1`` as ONE cvxpy program over the whole of A (the
    reference that knows nothing of the separation into samples)."""
    import cvxpy as cp

    A = cp.Variable((B.shape[1], X.shape[1]))
    problem = cp.Problem(cp.Minimize(cp.sum_squares(X - B @ A) + lam * cp.sum(cp.abs(A))))
    problem.solve(solver="CLARABEL")
    return float(problem.value)


def assert_not_above(lhs: float, rhs: float, scale: float, label: str, context: str = "") -> None:
    """``lhs <= rhs`` up to float64 rounding of sums of squares of size ``scale``; records
    the excess ``(lhs - rhs) / scale`` (both sides may be ~0, where a ratio means nothing)."""
    excess = (float(lhs) - float(rhs)) / scale
    evidence.worst(f"{label}: (lhs - rhs) / scale", excess)
    allowed = SQUARE_SUMS.rtol + SQUARE_SUMS.atol / scale
    assert excess <= allowed, (
        f"{context}{label}: {lhs!r} > {rhs!r} (excess {excess:.3g} of scale {scale:.3g}, "
        f"allowed {allowed:.3g}: {SQUARE_SUMS.reason})")


def lasso_coder(X: np.ndarray, B: np.ndarray, lam: float) -> np.ndarray:
    """The sparse-coding step under test: (10.15) per sample at a 1e-11 duality gap."""
    return sparse_code(X, B, lam=lam, tol=CODING_GAP)


def check_separable_coding(X: np.ndarray, B: np.ndarray, lam: float, seed: int,
                           coder: Callable = lasso_coder) -> None:
    """(10.14) with B fixed is the sum of the m per-sample objectives (10.15) for every A,
    and the per-sample minimisers together reach the minimum of the joint problem."""
    rng = np.random.default_rng(seed)
    A_any = rng.normal(size=(B.shape[1], X.shape[1]))
    scale = max(1.0, float(np.sum(X**2)))
    assert_close(objective(X, B, A_any, lam), per_sample(X, B, A_any, lam).sum(),
                 SQUARE_SUMS, scale=scale, label="|(10.14) - sum of (10.15) terms| at any A")
    A = coder(X, B, lam)
    ours = float(per_sample(X, B, A, lam).sum())
    joint = joint_lasso_value(X, B, lam)
    assert_close(ours, joint, REFERENCE_SOLVER, scale=scale,
                 label="|sum of per-sample minima - joint minimum (cvxpy)| / ||X||_F^2")


def check_frobenius(X: np.ndarray, B: np.ndarray, A: np.ndarray,
                    frobenius_sq: Callable[[np.ndarray], float] | None = None) -> None:
    """(10.16): ``sum_i ||x_i - B alpha_i||^2 = ||X - BA||_F^2`` (samples as columns)."""
    frobenius_sq = frobenius_sq or (lambda R: float(np.linalg.norm(R, "fro") ** 2))
    lhs = float(sum(np.sum((X[:, i] - B @ A[:, i]) ** 2) for i in range(X.shape[1])))
    scale = max(float(np.sum(X**2)) + float(np.sum((B @ A) ** 2)), np.finfo(float).tiny)
    assert_close(lhs, frobenius_sq(X - B @ A), SQUARE_SUMS, scale=scale,
                 label="|sum_i ||x_i - B a_i||^2 - ||X - BA||_F^2| / scale")


def residual_without(X: np.ndarray, B: np.ndarray, A: np.ndarray, i: int) -> np.ndarray:
    """``E_i = X - sum_{j != i} b_j alpha^j`` (alpha^j the j-th ROW of A)."""
    keep = np.arange(B.shape[1]) != i
    return X - B[:, keep] @ A[keep, :]


def best_column(E: np.ndarray, a: np.ndarray) -> tuple[np.ndarray, float]:
    """``argmin_b ||E - b a||_F^2`` over b (a the fixed row) and its value."""
    aa = float(a @ a)
    b = E @ a / aa if aa > 0.0 else np.zeros(E.shape[0])
    return b, float(np.sum((E - np.outer(b, a)) ** 2))


def best_dictionary_value(X: np.ndarray, A: np.ndarray) -> float:
    """``min_B ||X - BA||_F^2`` with A fixed: least squares ``B = X A^+``."""
    Bt, *_ = np.linalg.lstsq(A.T, X.T, rcond=None)
    return float(np.sum((X - Bt.T @ A) ** 2))


def check_decomposition(X: np.ndarray, B: np.ndarray, A: np.ndarray,
                        residual: Callable = residual_without) -> None:
    """(10.17) for every atom i: ``||X - BA||_F^2 = ||E_i - b_i alpha^i||_F^2``; and, the
    chain of minima as it holds, ``min_B ||X - BA||_F^2 <= min_{b_i} ||E_i - b_i alpha^i||``."""
    total = float(np.sum((X - B @ A) ** 2))
    scale = max(float(np.sum(X**2)) + float(np.sum((B @ A) ** 2)), np.finfo(float).tiny)
    for i in range(B.shape[1]):
        E = residual(X, B, A, i)
        assert_close(float(np.sum((E - np.outer(B[:, i], A[i])) ** 2)), total, SQUARE_SUMS,
                     scale=scale, label="|(10.17) rewritten - ||X - BA||_F^2| / scale",
                     context=f"atom {i}: ")
        _, column_min = best_column(E, A[i])
        assert_not_above(best_dictionary_value(X, A), column_min, scale,
                         label="min_B <= min_{b_i}", context=f"atom {i}: ")


def check_columnwise_min_equality(X: np.ndarray, B: np.ndarray, A: np.ndarray) -> None:
    """(As printed) ``min_B ||X - BA||_F^2 = min_{b_i} ||E_i - b_i alpha^i||_F^2`` for each
    atom i, the other atoms held at B's columns."""
    full = best_dictionary_value(X, A)
    scale = max(float(np.sum(X**2)), np.finfo(float).tiny)
    for i in range(B.shape[1]):
        _, column_min = best_column(residual_without(X, B, A, i), A[i])
        assert_close(column_min, full, SQUARE_SUMS, scale=scale,
                     label="|min_{b_i} - min_B| / ||X||_F^2", context=f"atom {i}: ")


def top_pair(E: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``(u_1, sigma_1 v_1)`` of E: K-SVD's rank-one choice."""
    U, s, Vt = np.linalg.svd(E, full_matrices=False)
    return U[:, 0], s[0] * Vt[0]


def brute_force_rank_one(E: np.ndarray, n_angles: int = 20_001) -> float:
    """``min_{b, a} ||E - b a^T||_F^2`` for E with one or two rows, by enumeration of the
    unit vector b over a fine grid of angles (the best a for a unit b is ``E^T b``), then
    a golden-section polish around the best angle."""
    total = float(np.sum(E**2))
    if E.shape[0] == 1:
        return 0.0
    from scipy.optimize import minimize_scalar

    def value(theta: float) -> float:
        b = np.array([math.cos(theta), math.sin(theta)])
        return total - float(np.sum((E.T @ b) ** 2))

    grid = np.linspace(0.0, math.pi, n_angles)
    vals = total - np.sum((E.T @ np.vstack([np.cos(grid), np.sin(grid)])) ** 2, axis=0)
    j = int(np.argmin(vals))
    step = grid[1] - grid[0]
    polished = minimize_scalar(value, bounds=(grid[j] - step, grid[j] + step), method="bounded",
                               options={"xatol": 1e-12})
    return min(float(vals[j]), float(polished.fun))


def check_rank_one(E: np.ndarray, seed: int, pair: Callable = top_pair) -> None:
    """The top singular pair minimises ``||E - b a^T||_F^2`` over rank-one terms: its value
    is the Eckart-Young ``sum_{j >= 2} sigma_j^2``, no random unit b does better, and for
    E with at most two rows it equals the brute-force minimum."""
    b, a = pair(E)
    value = float(np.sum((E - np.outer(b, a)) ** 2))
    s = np.linalg.svd(E, compute_uv=False)
    scale = max(float(np.sum(E**2)), np.finfo(float).tiny)
    assert_close(value, float(np.sum(s[1:] ** 2)), SQUARE_SUMS, scale=scale,
                 label="|rank-one value - sum_{j>=2} sigma_j^2| / ||E||_F^2")
    rng = np.random.default_rng(seed)
    cand = rng.normal(size=(E.shape[0], 500))
    cand /= np.linalg.norm(cand, axis=0)
    best_random = float(np.min(scale - np.sum((E.T @ cand) ** 2, axis=0)))
    assert_not_above(value, best_random, scale, label="top pair <= best random unit b")
    if E.shape[0] <= 2:
        assert_close(value, brute_force_rank_one(E), Tolerance(
            rtol=1e-9, atol=1e-12, reason="grid of 20001 angles polished by golden section "
            "to 1e-12 rad: the value is quadratic in the angle error"), scale=scale,
            label="|top pair - brute force| / ||E||_F^2")


def check_ksvd_update(X: np.ndarray, B: np.ndarray, A: np.ndarray,
                      update: Callable = ksvd_update) -> None:
    """One K-SVD sweep: the support of every row alpha^i can only shrink, unused atoms are
    exactly the zero rows and are left alone, used atoms get unit norm, ``||X - BA||_F^2``
    does not increase, and the last atom's pair is the top singular pair of its restricted
    E_i (its update is not followed by another)."""
    B_new, A_new, unused = update(X, B, A)
    assert np.all((A_new != 0) <= (A != 0)), "K-SVD created a non-zero outside the support"
    zero_rows = np.flatnonzero(~A.any(axis=1))
    assert np.array_equal(np.sort(unused), zero_rows), f"unused {unused} vs zero rows {zero_rows}"
    used = np.setdiff1d(np.arange(B.shape[1]), zero_rows)
    assert np.array_equal(B_new[:, zero_rows], B[:, zero_rows]), "an unused atom changed"
    assert_close(np.linalg.norm(B_new[:, used], axis=0), np.ones(used.size), SQUARE_SUMS,
                 label="| ||b_i|| - 1 |")
    before = float(np.sum((X - B @ A) ** 2))
    after = float(np.sum((X - B_new @ A_new) ** 2))
    scale = max(float(np.sum(X**2)) + float(np.sum((B @ A) ** 2)), np.finfo(float).tiny)
    assert_not_above(after, before, scale, label="||X - B'A'||^2 <= ||X - BA||^2")
    if used.size:
        i = int(used[-1])
        omega = np.flatnonzero(A[i])
        E = residual_without(X, B_new, A_new, i)[:, omega]
        attained = float(np.sum((E - np.outer(B_new[:, i], A_new[i, omega])) ** 2))
        s = np.linalg.svd(E, compute_uv=False)
        assert_close(attained, float(np.sum(s[1:] ** 2)), SQUARE_SUMS, scale=scale,
                     label="|last atom's value - Eckart-Young| / scale")


def fit_recorded(X_rows: np.ndarray, k: int, lam: float, seed: int, update: str,
                 rounds: int) -> DictionaryLearning:
    """DictionaryLearning with exact LASSO coding, the iterates recorded, ``rounds``
    rounds (the claims inspect the descent, not convergence: tol=0 runs them all)."""
    est = DictionaryLearning(n_components=k, lam=lam, dictionary_update=update,
                             coding_tol=CODING_GAP, max_iter=rounds, tol=0.0,
                             record_history=True, random_state=seed)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)  # tol=0: by design
        return est.fit(X_rows)


def check_alternating_monotone(X_rows: np.ndarray, k: int, lam: float, seed: int,
                               update: str = "mod", rounds: int = 3) -> None:
    """The recorded objective history of the alternation matches (10.14) recomputed from
    the recorded iterates and never increases beyond the coding steps' duality gap."""
    est = fit_recorded(X_rows, k, lam, seed, update, rounds)
    # the allowance below is the coding steps' gap: every LASSO sub-problem must meet it
    assert est.n_coding_failures_ == 0, (
        f"{est.n_coding_failures_} coding sub-problems missed their duality-gap tolerance")
    X = X_rows.T
    recomputed = np.array([objective(X, B, A, lam) for B, A in est.history_])
    history = np.asarray(est.objective_history_)
    scale = max(float(np.sum(X**2)), np.finfo(float).tiny)
    assert_close(history, recomputed, SQUARE_SUMS, scale=scale,
                 label="|recorded - recomputed (10.14)| / ||X||_F^2")
    allowed = (CODING_GAP + 1e-12) * scale
    rises = np.diff(recomputed)
    worst = int(np.argmax(rises))
    evidence.worst("largest rise of (10.14) / ||X||_F^2", float(rises[worst]) / scale)
    assert rises[worst] <= allowed, (
        f"(10.14) rose by {rises[worst]:.6g} at step {worst + 1} of {rises.size} "
        f"({recomputed[worst]:.12g} -> {recomputed[worst + 1]:.12g}; allowed {allowed:.3g})")


def check_ksvd_alternation(X_rows: np.ndarray, k: int, lam: float, seed: int,
                           rounds: int = 3) -> None:
    """The K-SVD run as recorded: every dictionary step (K-SVD sweep, then unused atoms
    re-initialised) keeps the supports of A's rows (they only shrink), leaves unit atoms and
    does not increase ||X - BA||_F^2; every coding step does not increase (10.14); the atoms
    reported re-initialised are exactly those whose code rows were zero; and ``transform``
    on the training data gives codes as good as the last coding step's."""
    est = fit_recorded(X_rows, k, lam, seed, "ksvd", rounds)
    evidence.worst("atoms re-initialised in one run", len(est.reinitialised_))
    X = X_rows.T
    scale = max(float(np.sum(X**2)), np.finfo(float).tiny)
    recomputed = np.array([objective(X, B, A, lam) for B, A in est.history_])
    assert_close(np.asarray(est.objective_history_), recomputed, SQUARE_SUMS, scale=scale,
                 label="|recorded - recomputed (10.14)| / ||X||_F^2")
    allowed = CODING_GAP + 1e-12
    reported = {}
    for r, i in est.reinitialised_:
        reported.setdefault(r, set()).add(i)
    for t in range(1, len(est.history_) - 1, 2):  # t: after the dictionary step of a round
        (B0, A0), (B1, A1), (B2, A2) = est.history_[t - 1:t + 2]
        assert np.all((A1 != 0) <= (A0 != 0)), f"round {(t + 1) // 2}: a support grew"
        assert_close(np.linalg.norm(B1, axis=0), np.ones(B1.shape[1]), SQUARE_SUMS,
                     label="| ||b_i|| - 1 | after K-SVD")
        zero_rows = set(np.flatnonzero(~A0.any(axis=1)).tolist())
        assert reported.get((t + 1) // 2, set()) == zero_rows, (
            f"round {(t + 1) // 2}: re-initialised {reported.get((t + 1) // 2)} vs zero code "
            f"rows {zero_rows}")
        assert_not_above(float(np.sum((X - B1 @ A1) ** 2)), float(np.sum((X - B0 @ A0) ** 2)),
                         scale, label="||X - BA||_F^2 over a dictionary step")
        rise = (objective(X, B2, A2, lam) - objective(X, B1, A1, lam)) / scale
        evidence.worst("(10.14) rise over a coding step / ||X||_F^2", rise)
        assert rise <= allowed, f"round {(t + 1) // 2}: the coding step raised (10.14) by {rise}"
    codes = est.transform(X_rows).T
    B_last = est.history_[-1][0]
    rise = (objective(X, B_last, codes, lam) - est.objective_history_[-1]) / scale
    evidence.worst("transform vs last coding step, (10.14) / ||X||_F^2", abs(rise))
    assert abs(rise) <= 2 * allowed + 1e-10, f"transform's codes differ in (10.14) by {rise}"


def check_ksvd_step_monotone(X: np.ndarray, B: np.ndarray, lam: float) -> None:
    """(As printed) the dictionary step by K-SVD, after the coding step (10.15), does not
    increase (10.14)."""
    A = lasso_coder(X, B, lam)
    B_new, A_new, _ = ksvd_update(X, B, A)
    before, after = objective(X, B, A, lam), objective(X, B_new, A_new, lam)
    scale = max(float(np.sum(X**2)), np.finfo(float).tiny)
    assert after <= before + (CODING_GAP + 1e-12) * scale, (
        f"(10.14) rose from {before:.6g} to {after:.6g} over the K-SVD step: "
        f"||X - BA||^2 {np.sum((X - B @ A) ** 2):.6g} -> {np.sum((X - B_new @ A_new) ** 2):.6g},"
        f" lam ||A||_1 {lam * np.abs(A).sum():.6g} -> {lam * np.abs(A_new).sum():.6g}")


def check_rescaling(X: np.ndarray, B: np.ndarray, A: np.ndarray, lam: float,
                    factors: np.ndarray) -> None:
    """No rescaling ``b_j -> c_j b_j``, ``alpha^j -> alpha^j / c_j`` (which leaves BA and the
    sparsity pattern unchanged) with the given factors lowers (10.14) at (B, A)."""
    base = objective(X, B, A, lam)
    scale = max(float(np.sum(X**2)), np.finfo(float).tiny)
    for c in factors:
        moved = objective(X, B * c, A / c[:, None], lam)
        evidence.worst("(10.14) decrease by rescaling / ||X||_F^2", (base - moved) / scale)
        assert moved >= base - SQUARE_SUMS.rtol * scale, (
            f"rescaling the atoms by {np.round(c, 4).tolist()} keeps BA and the supports but "
            f"lowers (10.14) from {base:.6g} to {moved:.6g} (lam ||A||_1 "
            f"{lam * np.abs(A).sum():.6g} -> {lam * np.abs(A / c[:, None]).sum():.6g})")


# ---------------------------------------------------------------------------
# Matrix completion, 003 §10.6
# ---------------------------------------------------------------------------


def numerical_rank(X: np.ndarray) -> int:
    """Rank with numpy's default threshold ``max(m, n) eps sigma_1``."""
    return int(np.linalg.matrix_rank(X)) if X.size else 0


def check_nuclear_norm(X: np.ndarray, seed: int, norm: Callable = nuclear_norm) -> None:
    """(10.23): ``||X||_*`` equals the sum of the square roots of the eigenvalues of
    ``X^T X`` (eigh, no SVD) and the dual value ``<X, U V^T>``; no Y with ``||Y||_2 <= 1``
    gives a larger ``<X, Y>``."""
    value = norm(X)
    evals = np.linalg.eigvalsh(X.T @ X)
    by_eigen = float(np.sum(np.sqrt(np.maximum(evals, 0.0))))
    scale = max(1.0, float(np.linalg.norm(X)) * math.sqrt(min(X.shape)))
    # sqrt of an eigenvalue computed at absolute accuracy eps ||X||^2 can be off by
    # sqrt(eps) ||X|| when the singular value is 0: compare at that resolution.
    assert_close(value, by_eigen, Tolerance(rtol=0.0, atol=1e-7 * scale, reason=(
        "square roots of eigenvalues of X^T X that are 0 in exact arithmetic are "
        "~sqrt(eps) ||X|| = 1.5e-8 ||X|| in float64")), label="|norm - sum sqrt eig(X^T X)|")
    U, s, Vt = np.linalg.svd(X, full_matrices=False)
    keep = s > 0
    dual = float(np.sum(X * (U[:, keep] @ Vt[keep])))
    assert_close(value, dual, SQUARE_SUMS, scale=scale, label="|norm - <X, U V^T>|")
    rng = np.random.default_rng(seed)
    for _ in range(5):
        Y = rng.normal(size=X.shape)
        Y /= max(float(np.linalg.norm(Y, 2)), np.finfo(float).tiny)
        assert float(np.sum(X * Y)) <= value + 1e-12 * scale


def envelope_decomposition(X: np.ndarray) -> tuple[np.ndarray, list[np.ndarray]]:
    """X on the spectral unit ball as a convex combination of partial isometries:
    ``X = (1 - s_1) 0 + sum_k (s_k - s_{k+1}) U_k V_k^T`` with ``U_k V_k^T`` of rank k."""
    U, s, Vt = np.linalg.svd(X, full_matrices=False)
    r = int(np.count_nonzero(s > max(X.shape) * np.finfo(float).eps * max(s.max(initial=0), 1)))
    s = s[:r]
    nxt = np.append(s[1:], 0.0)
    weights = np.concatenate([[1.0 - (s[0] if r else 0.0)], s - nxt])
    parts = [np.zeros_like(X)] + [U[:, :j + 1] @ Vt[:j + 1] for j in range(r)]
    return weights, parts


def check_rank_bound(X: np.ndarray, s: np.ndarray, factor: float = 1.0,
                     norm: Callable = nuclear_norm) -> None:
    """On ``||X||_2 <= 1``: ``||X||_* <= factor * rank(X)`` (the notes: factor 1), tight at
    partial isometries; and the bound is the convex envelope: X is a convex combination of
    partial isometries whose ranks average to exactly ``||X||_*``, so no convex minorant of
    rank exceeds ``||X||_*`` at X."""
    value = norm(X)
    rank = numerical_rank(X)
    assert rank == s.size, f"rank {rank} vs {s.size} drawn singular values"
    assert_leq(value, factor * rank if rank else 0.0, label="||X||_* / rank(X)",
               tol=SQUARE_SUMS)
    if rank:
        evidence.worst("||X||_* / rank(X) (1 = tight)", value / rank)
    weights, parts = envelope_decomposition(X)
    assert np.all(weights >= -1e-15) and abs(weights.sum() - 1.0) <= 1e-12, weights
    assert_close(sum(w * P for w, P in zip(weights, parts, strict=True)), X, SQUARE_SUMS,
                 scale=1.0, label="|convex combination - X|")
    ranks = np.array([numerical_rank(P) for P in parts])
    assert np.all(np.abs(np.linalg.svd(parts[-1], compute_uv=False)[:rank] - 1.0) < 1e-12)
    assert_close(float(weights @ ranks), value, SQUARE_SUMS, scale=max(rank, 1),
                 label="|sum w_k rank_k - ||X||_*|")


def check_frobenius_envelope(X: np.ndarray) -> None:
    """(As printed) the convex envelope of rank on ``{||X||_F <= 1}`` is ``||X||_*``: then
    no convex minorant of rank on that ball exceeds it. Tested with the convex function
    ``g(X) = ||X||_*^2``, which is <= rank(X) on the ball (Cauchy-Schwarz:
    ``||X||_*^2 <= rank(X) ||X||_F^2``)."""
    value = nuclear_norm(X)
    rank = numerical_rank(X)
    assert float(np.linalg.norm(X)) <= 1.0 + 1e-12
    g = value**2
    if g > rank * (1.0 + 1e-12):  # g must be a minorant; otherwise the check is broken
        raise RuntimeError(f"g(X) = {g} exceeds rank {rank} on the Frobenius ball")
    assert g <= value * (1.0 + 1e-12), (
        f"the convex minorant ||X||_*^2 = {g:.6g} of rank on the Frobenius ball exceeds "
        f"||X||_* = {value:.6g} (rank {rank}, ||X||_F = {np.linalg.norm(X):.6g}), so the "
        "envelope is not the nuclear norm")


#: Exact recovery: the completed matrix within 1e-3 of A in relative Frobenius norm. Near
#: the recovery threshold the SDP is degenerate (a flat optimal face) and the conic solver
#: returns A only to ~sqrt(its 1e-8 gap): relative errors of 1e-4.7 to 1e-3.8 were measured
#: on such true recoveries (objective equal to ||A||_* to 1e-8), 1e-9 on easy ones. A
#: failure is another matrix with a smaller nuclear norm, off by 0.03 to 1.
RECOVERY_RTOL = 1e-3


def incoherent_low_rank(rng: np.random.Generator, m: int, n: int, r: int) -> np.ndarray:
    """``A = U V^T`` with +-1 factors: rank r (almost surely for r <= 2 and m, n >= 8) and
    as incoherent as a matrix can be (every row of U has the same norm), the condition
    under which the O(m r log^2 m) statement is proved."""
    return rng.choice([-1.0, 1.0], size=(m, r)) @ rng.choice([-1.0, 1.0], size=(r, n))


def uniform_mask(rng: np.random.Generator, m: int, n: int, count: int) -> np.ndarray:
    """``count`` entries drawn uniformly without replacement, redrawn until every row and
    column has one (the completion functions refuse an unobserved line)."""
    for _ in range(1000):
        mask = np.zeros(m * n, dtype=bool)
        mask[rng.choice(m * n, size=count, replace=False)] = True
        mask = mask.reshape(m, n)
        if mask.any(axis=0).all() and mask.any(axis=1).all():
            return mask
    raise RuntimeError(f"no mask with {count} of {m}x{n} entries covers every line")


def recovery_count(m: int, r: int) -> int:
    """|Omega| = ceil(m r ln^2 m) (the O(.) of the notes with constant 1), at most m^2."""
    return min(m * m, math.ceil(m * r * math.log(m) ** 2))


def recovery_successes(rng: np.random.Generator, trials: int, m: int, r: int, count: int,
                       solve: Callable | None = None) -> int:
    """How many of ``trials`` incoherent rank-r m x m matrices (10.24) recovers exactly
    from ``count`` uniformly drawn entries."""
    from algorithms.sparse import nuclear_norm_completion

    solve = solve or nuclear_norm_completion
    wins = 0
    for _ in range(trials):
        A = incoherent_low_rank(rng, m, m, r)
        mask = uniform_mask(rng, m, m, count)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ConvergenceWarning)
            X = solve(np.where(mask, A, 0.0), mask)
        wins += float(np.linalg.norm(X - A)) <= RECOVERY_RTOL * float(np.linalg.norm(A))
    return wins
