"""Independent cvxpy reference solutions and shared check helpers for the SVM claims.

Nothing here is a claim. cvxpy is used only here and in tests: the algorithms
under ``algorithms.svm`` never import it.
"""

from __future__ import annotations

import warnings

import cvxpy as cp
import numpy as np
from sklearn.exceptions import ConvergenceWarning

from mltheory import evidence
from mltheory.numeric import Tolerance, assert_close

__all__ = [
    "DUAL_SOLVER",
    "KKT",
    "SMO_TOL",
    "certified_distance",
    "check_strong_duality",
    "decision_scale",
    "fit_quietly",
    "hard_margin_primal",
    "soft_margin_primal",
    "svc_dual",
    "svr_dual",
    "svr_primal",
]

#: SMO stopping tolerance used by the claims: the maximal KKT violation (in units of
#: the functional margin y f, which is 1 at a support vector) must fall below it.
SMO_TOL = 1e-9

#: Agreement between our SMO (stopped at SMO_TOL) and a cvxpy conic solver.
DUAL_SOLVER = Tolerance(
    rtol=1e-4,
    atol=1e-5,
    reason="the conic reference stops at relative duality gaps near 1e-8, i.e. solution "
    "accuracy near 1e-4 relative; SMO is stopped far tighter (1e-9 violation)",
)

#: KKT residuals at the SMO solution, in units of the functional margin y f(x).
KKT = Tolerance(
    rtol=0.0,
    atol=1e-6,
    reason="SMO stops when the maximal violation is below 1e-9; residuals of y f - 1 "
    "are bounded by that up to the rounding of sums of up to 30 kernel terms of size "
    "up to 1e6 (scale-disparate features), about 1e-7",
)


def decision_scale(w: np.ndarray, b: float, X: np.ndarray) -> float:
    """``||w|| max_i ||x_i|| + |b|``: the size of the decision function on the sample, the
    scale against which a reference solver's errors in ``w``, ``b`` and ``f`` are measured.

    The conic reference is accurate relative to the size of its solution vector, not per
    component: ``||dw|| <~ rtol ||w||``. A bias pinned by a support vector,
    ``b = y_s - w.x_s``, inherits ``|db| <= ||dw|| ||x_s||``, and ``|df(x)| <= ||dw|| ||x||
    + |db|``; both are ``rtol`` times this scale (a tolerance relative to ``b`` or ``f(x)``
    itself is meaningless when ``b`` or ``f(x)`` is near 0 while ``||w||`` is large).
    """
    radius = float(np.max(np.linalg.norm(X, axis=1)))
    return float(np.linalg.norm(w) * radius + abs(b))


def _solve(problem: cp.Problem) -> None:
    try:
        problem.solve(solver=cp.CLARABEL)
    except cp.error.SolverError:
        problem.solve(solver=cp.SCS, eps=1e-9, max_iters=200_000)
    if problem.status not in (cp.OPTIMAL, cp.OPTIMAL_INACCURATE):
        raise RuntimeError(f"reference solver failed: status {problem.status}")


def hard_margin_primal(X: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, float, float]:
    """(4.6): min 1/2 ||w||^2 s.t. y_i (w.x_i + b) >= 1. Returns ``(w, b, optimum)``."""
    w = cp.Variable(X.shape[1])
    b = cp.Variable()
    prob = cp.Problem(cp.Minimize(0.5 * cp.sum_squares(w)), [cp.multiply(y, X @ w + b) >= 1])
    _solve(prob)
    return np.asarray(w.value), float(b.value), float(prob.value)


def soft_margin_primal(
    X: np.ndarray, y: np.ndarray, C: float, *, hinge_form: bool = False
) -> tuple[np.ndarray, float, float]:
    """(4.28) (slack form) or (4.27) (hinge form). Returns ``(w, b, optimum)``."""
    w = cp.Variable(X.shape[1])
    b = cp.Variable()
    margins = cp.multiply(y, X @ w + b)
    if hinge_form:
        prob = cp.Problem(cp.Minimize(0.5 * cp.sum_squares(w) + C * cp.sum(cp.pos(1 - margins))))
    else:
        xi = cp.Variable(X.shape[0])
        prob = cp.Problem(
            cp.Minimize(0.5 * cp.sum_squares(w) + C * cp.sum(xi)), [margins >= 1 - xi, xi >= 0]
        )
    _solve(prob)
    return np.asarray(w.value), float(b.value), float(prob.value)


def svc_dual(K: np.ndarray, y: np.ndarray, C: float) -> tuple[np.ndarray, float]:
    """(4.9)/(4.19)/(4.31) solved directly. Returns ``(alpha, optimum)``.

    The quadratic form uses a factor ``L`` with ``K = L L^T`` (eigen-decomposition,
    negative rounding eigenvalues dropped) so cvxpy sees a sum of squares.
    """
    vals, vecs = np.linalg.eigh((K + K.T) / 2)
    keep = vals > 1e-12 * max(1.0, float(vals.max()))
    L = vecs[:, keep] * np.sqrt(vals[keep])
    a = cp.Variable(K.shape[0])
    cons = [a >= 0, y @ a == 0]
    if np.isfinite(C):
        cons.append(a <= C)
    prob = cp.Problem(cp.Maximize(cp.sum(a) - 0.5 * cp.sum_squares(L.T @ cp.multiply(a, y))), cons)
    _solve(prob)
    return np.asarray(a.value), float(prob.value)


def svr_primal(
    X: np.ndarray, y: np.ndarray, C: float, eps: float
) -> tuple[np.ndarray, float, float]:
    """(4.36) with slacks. Returns ``(w, b, optimum)``."""
    w = cp.Variable(X.shape[1])
    b = cp.Variable()
    xi = cp.Variable(X.shape[0])
    xh = cp.Variable(X.shape[0])
    f = X @ w + b
    prob = cp.Problem(
        cp.Minimize(0.5 * cp.sum_squares(w) + C * cp.sum(xi + xh)),
        [f - y <= eps + xi, y - f <= eps + xh, xi >= 0, xh >= 0],
    )
    _solve(prob)
    return np.asarray(w.value), float(b.value), float(prob.value)


def svr_dual(
    K: np.ndarray,
    y: np.ndarray,
    C: float,
    eps: float,
    *,
    constraint_as_written: bool = False,
) -> tuple[np.ndarray, np.ndarray, float]:
    """The SVR dual with the correct quadratic term. ``constraint_as_written`` uses the
    note's printed equality ``sum(ah + a) = 0`` instead of ``sum(ah - a) = 0``.
    Returns ``(alpha, alpha_hat, optimum)``."""
    vals, vecs = np.linalg.eigh((K + K.T) / 2)
    keep = vals > 1e-12 * max(1.0, float(vals.max()))
    L = vecs[:, keep] * np.sqrt(vals[keep])
    a = cp.Variable(K.shape[0])
    ah = cp.Variable(K.shape[0])
    d = ah - a
    eq = cp.sum(ah + a) == 0 if constraint_as_written else cp.sum(d) == 0
    prob = cp.Problem(
        cp.Maximize(y @ d - eps * cp.sum(ah + a) - 0.5 * cp.sum_squares(L.T @ d)),
        [a >= 0, ah >= 0, a <= C, ah <= C, eq],
    )
    _solve(prob)
    return np.asarray(a.value), np.asarray(ah.value), float(prob.value)


def soft_primal_objective(w: np.ndarray, b: float, X: np.ndarray, y: np.ndarray,
                          C: float) -> float:
    """(4.27) evaluated at a given ``(w, b)``."""
    return float(0.5 * w @ w + C * np.sum(np.maximum(0.0, 1.0 - y * (X @ w + b))))


def svr_primal_objective(w: np.ndarray, b: float, X: np.ndarray, y: np.ndarray,
                         C: float, eps: float) -> float:
    """(4.34) evaluated at a given ``(w, b)``."""
    return float(0.5 * w @ w + C * np.sum(np.maximum(0.0, np.abs(X @ w + b - y) - eps)))


def fit_quietly(model, X, y):
    """Fit, turning a ConvergenceWarning into an AssertionError (a claim needs a
    converged solver to say anything)."""
    with warnings.catch_warnings():
        warnings.simplefilter("error", ConvergenceWarning)
        try:
            return model.fit(X, y)
        except ConvergenceWarning as exc:
            raise AssertionError(f"SMO did not converge: {exc}") from None


def check_strong_duality(smo_dual: float, p_star: float, d_star: float, *,
                         context: str) -> float:
    """Strong duality against the cvxpy reference: SMO's dual value equals the primal
    optimum ``p_star`` (``d_star`` is cvxpy's own dual optimum, recorded beside it).

    Both gaps are recorded relative to ``max(1, |p_star|)``, which is returned.
    """
    scale = max(1.0, abs(p_star))
    evidence.worst("objective gap SMO dual vs cvxpy primal (relative)",
                   abs(smo_dual - p_star) / scale)
    evidence.worst("objective gap cvxpy dual vs cvxpy primal (relative)",
                   abs(d_star - p_star) / scale)
    assert_close(smo_dual, p_star, DUAL_SOLVER, label="dual objective vs primal optimum",
                 context=context)
    return scale


def certified_distance(p_smo: float, p_ref: float, d_smo: float, scale: float) -> float:
    """A certified bound on ``||w_smo - w_ref||`` from two computable duality gaps.

    The primal is 1-strongly convex in ``w``, so ``||w - w*||^2 / 2 <= P(w, b) - P* <=
    P(w, b) - D(alpha_smo)`` for any ``(w, b)``; ``p_smo`` and ``p_ref`` are the primal
    objective at SMO's and the reference's ``(w, b)``, ``d_smo`` SMO's dual value, and
    ``sqrt(2e-13 scale)`` allows for the rounding of objective values of size ``scale``.
    """
    return float(np.sqrt(2 * max(p_smo - d_smo, 0.0)) + np.sqrt(2 * max(p_ref - d_smo, 0.0))
                 + np.sqrt(2 * 1e-13 * scale))
