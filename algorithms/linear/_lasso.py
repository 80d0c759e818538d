"""LASSO by coordinate descent or proximal gradient (ISTA/FISTA) with soft-thresholding.

Shared core :func:`solve_l1_l2` minimises ``||y - X w||^2 + l1 ||w||_1 + l2 ||w||^2``;
:class:`Lasso` (``l2 = 0``) and :class:`~algorithms.linear.ElasticNet` use it.

References
----------
004 §1.2 (L1 regularisation, "Lasso Regression"); 003 §10.4 (10.7)-(10.13): the
proximal gradient step ``z = x_k - grad f(x_k) / L`` followed by soft-thresholding
at ``lambda / L``.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass, field

import numpy as np
import scipy.linalg
from sklearn.exceptions import ConvergenceWarning

from algorithms._validation import (
    check_array_argument,
    check_bool,
    check_choice,
    check_int,
    check_real,
    check_squares_representable,
    validate_regression,
)
from algorithms.linear._ols import LinearPredictor, centre, intercept_of

__all__ = ["L1Solution", "Lasso", "soft_threshold", "solve_l1_l2"]

SOLVERS = ("cd", "ista", "fista")


def soft_threshold(z: np.ndarray | float, threshold: float) -> np.ndarray:
    """Componentwise soft-thresholding, 003 (10.13).

    ``z - t`` where ``z > t``; ``0`` where ``|z| <= t``; ``z + t`` where ``z < -t``.
    It is the proximal map of ``t ||.||_1`` (003 (10.12) with ``t = lambda / L``).
    """
    t = check_real(threshold, "threshold", low=0.0)
    z = check_array_argument(z, "z", allow_empty=True, real=True)
    return np.sign(z) * np.maximum(np.abs(z) - t, 0.0)


@dataclass
class L1Solution:
    """Result of :func:`solve_l1_l2`."""

    coef: np.ndarray
    objective_history: list[float] = field(default_factory=list)
    gap_history: list[float] = field(default_factory=list)
    n_iter: int = 0
    converged: bool = False
    duality_gap: float = np.inf
    lipschitz: float = np.nan


class _Quadratic:
    """The smooth part ``||y - X w||^2 + l2 ||w||^2`` with cheap products.

    With N > d the Gram matrix ``G = X^T X`` and ``q = X^T y`` are precomputed once,
    so every later operation costs O(d^2) instead of O(N d).
    """

    def __init__(self, X: np.ndarray, y: np.ndarray, l2: float) -> None:
        self.X, self.y, self.l2 = X, y, l2
        self.yy = float(y @ y)
        self.use_gram = X.shape[0] > X.shape[1]
        if self.use_gram:
            self.G = X.T @ X
            self.q = X.T @ y

    def xt_residual(self, w: np.ndarray) -> tuple[np.ndarray, float, float]:
        """``X^T r``, ``||r||^2`` and ``y^T r`` for ``r = y - X w``."""
        if self.use_gram:
            Gw = self.G @ w
            xtr = self.q - Gw
            yr = self.yy - float(self.q @ w)
            rr = max(yr - float(w @ xtr), 0.0)  # ||r||^2 = y^T r - w^T X^T r
            return xtr, rr, yr
        r = self.y - self.X @ w
        return self.X.T @ r, float(r @ r), float(self.y @ r)


def _objective(rr: float, w: np.ndarray, l1: float, l2: float) -> float:
    return rr + l1 * float(np.abs(w).sum()) + l2 * float(w @ w)


def _duality_gap(xtr: np.ndarray, rr: float, w: np.ndarray, l1: float, l2: float) -> float:
    """Duality gap of ``||y - Xw||^2 + l1||w||_1 + l2||w||^2`` at ``w``.

    The elastic net is a LASSO on the augmented data ``X~ = [X; sqrt(l2) I]``,
    ``y~ = [y; 0]``; the LASSO ``1/2||y~ - X~ w||^2 + (l1/2)||w||_1`` has the dual
    ``max 1/2||y~||^2 - 1/2||y~ - theta||^2`` s.t. ``||X~^T theta||_inf <= l1/2``, and the
    scaled residual ``theta = s r~`` is feasible. The objective here is twice that LASSO.

    With ``c = X~^T r~`` and ``y~ = r~ + X~ w``, twice primal minus dual expands to
    ``(1 - s)^2 ||r~||^2 + sum_j (l1 |w_j| - 2 s c_j w_j)``: a sum of non-negative terms
    (``s |c_j| <= l1/2``). Evaluating it in this form, rather than as the difference of
    primal and dual values of size ``||y||^2``, keeps the rounding error at the size of
    the terms themselves instead of ``eps ||y||^2``.
    """
    c = xtr - l2 * w
    norm = float(np.max(np.abs(c))) if c.size else 0.0
    s = 1.0 if norm <= 0.5 * l1 else 0.5 * l1 / norm
    rr_tilde = rr + l2 * float(w @ w)
    terms = l1 * np.abs(w) - 2.0 * s * c * w
    return max((1.0 - s) ** 2 * rr_tilde + float(terms.sum()), 0.0)


def _orthant_step(quad: _Quadratic, w: np.ndarray, l1: float, l2: float) -> np.ndarray | None:
    """A Newton or null-space step on the current sign pattern; ``None`` if none helps.

    On the orthant of ``w`` (support ``S``, signs ``sigma``) the objective is the
    quadratic ``||y - X_S w_S||^2 + l2 ||w_S||^2 + l1 sigma^T w_S``. Two directions
    are tried: the Newton step on the range of its Hessian ``H = 2 (X_S^T X_S + l2 I)``
    and, when ``H`` is singular (more active features than independent columns), the
    descent direction ``-P_null(H) grad`` along which the quadratic part is flat and
    only the L1 term changes. Each is followed to the exact line minimum or to the first
    coordinate that reaches zero (which is then set to 0, leaving the orthant's closure
    only through its boundary). The larger predicted decrease is tried first; a step is
    taken only if it lowers the computed objective, so descent is monotone.
    """
    S = np.flatnonzero(w)
    if S.size == 0:
        return None
    w_S, sigma = w[S], np.sign(w[S])
    xtr, rr, _ = quad.xt_residual(w)
    current = _objective(rr, w, l1, l2)
    grad = -2.0 * xtr[S] + 2.0 * l2 * w_S + l1 * sigma
    gram_S = (quad.G[np.ix_(S, S)] if quad.use_gram else quad.X[:, S].T @ quad.X[:, S])
    H = 2.0 * (gram_S + l2 * np.eye(S.size))
    # Rank decisions on the Jacobi-scaled Hessian, so badly scaled columns do not pass
    # for dependent ones; directions are mapped back by the same scaling.
    diag = np.sqrt(np.maximum(np.diag(H), np.finfo(float).tiny))
    evals, V = np.linalg.eigh(H / np.outer(diag, diag))
    cutoff = max(S.size, quad.X.shape[0]) * np.finfo(float).eps * max(float(evals[-1]), 0.0)
    keep = evals > cutoff
    V_range, V_null = V[:, keep], V[:, ~keep]
    grad_scaled = grad / diag
    directions = [-(V_range @ ((V_range.T @ grad_scaled) / evals[keep])) / diag]
    if V_null.shape[1]:
        directions.append(-(V_null @ (V_null.T @ grad_scaled)) / diag)
    candidates = []
    for delta in directions:
        slope = float(grad @ delta)
        if not slope < 0.0:
            continue
        curvature = float(delta @ H @ delta)
        t_line = -slope / curvature if curvature > 0.0 else np.inf
        shrinking = np.flatnonzero(sigma * delta < 0.0)
        t_zero = -w_S[shrinking] / delta[shrinking]
        first = int(np.argmin(t_zero)) if t_zero.size else -1
        t_cross = float(t_zero[first]) if t_zero.size else np.inf
        t = min(t_line, t_cross)
        if not np.isfinite(t) or t <= 0.0:
            continue
        decrease = -(t * slope + 0.5 * t * t * max(curvature, 0.0))
        zeroed = int(S[shrinking[first]]) if t_cross <= t_line else -1
        candidates.append((decrease, t, delta, zeroed))
    for _, t, delta, zeroed in sorted(candidates, key=lambda c: -c[0]):
        trial = w.copy()
        trial[S] = np.where(sigma * (w_S + t * delta) > 0.0, w_S + t * delta, 0.0)
        if zeroed >= 0:
            trial[zeroed] = 0.0
        _, rr_trial, _ = quad.xt_residual(trial)
        if _objective(rr_trial, trial, l1, l2) < current:
            return trial
    return None


def solve_l1_l2(
    X: np.ndarray,
    y: np.ndarray,
    *,
    l1: float,
    l2: float = 0.0,
    solver: str = "cd",
    max_iter: int = 10_000,
    tol: float = 1e-8,
    coef_init: np.ndarray | None = None,
    refine: bool = True,
) -> L1Solution:
    """Minimise ``P(w) = ||y - X w||^2 + l1 ||w||_1 + l2 ||w||^2`` (``l1 > 0``, ``l2 >= 0``).

    No intercept: centre the data first. Stops when the duality gap is at most
    ``tol * ||y||^2`` (so ``P(w) - P* <= tol * ||y||^2``) or after ``max_iter``
    iterations (sweeps for ``"cd"``).

    Parameters
    ----------
    X : array-like of shape (n, d)
    y : array-like of shape (n,)
    l1 : float
        The L1 weight, ``> 0``.
    l2 : float, default=0.0
        The squared-L2 weight, ``>= 0``.
    solver : {"cd", "ista", "fista"}, default="cd"
    max_iter : int, default=10000
        Sweeps (``"cd"``) or iterations, ``>= 1``.
    tol : float, default=1e-8
        Relative duality-gap tolerance, ``> 0``.
    coef_init : array-like of shape (d,), optional
        The starting point (zeros by default); warm starts along a path.
    refine : bool, default=True
        Try the active-set step described below (``"cd"`` only).

    Returns
    -------
    L1Solution

    Notes
    -----
    ``"cd"``: cyclic coordinate descent, exact minimisation in one coordinate:
    ``w_j <- S_{l1/2}(x_j^T r_{-j}) / (||x_j||^2 + l2)``. With ``refine`` (the
    default), whenever a sweep leaves the sign pattern unchanged an active-set step
    (:func:`_orthant_step`) is tried: the Newton step of the quadratic the objective is
    on that orthant, or, when the active columns are linearly dependent (``N < d``,
    collinear designs), a move along the flat null-space direction that the L1 term
    alone descends. It is accepted only if the objective decreases. Without it, cyclic
    CD crosses such a flat valley at a constant speed proportional to ``l1`` per sweep,
    so a small ``l1`` can need hundreds of thousands of sweeps.
    ``"ista"``: proximal gradient, step ``1/L`` with ``L = 2 (s_max(X)^2 + l2)`` the
    Lipschitz constant of the smooth part's gradient, then soft-thresholding at
    ``l1 / L`` (003 (10.10)-(10.13)); the objective never increases.
    ``"fista"``: ISTA with Nesterov momentum and gradient-based adaptive restart
    (faster; not monotone), run on the column-scaled variables ``u_j = D_j w_j``,
    ``D_j^2 = ||x_j||^2 + l2`` (Jacobi preconditioning: per-coordinate steps
    ``1 / (L D_j^2)`` and thresholds ``l1 / (L D_j^2)``, ``L`` now the Lipschitz
    constant in ``u``). Proximal gradient is not invariant to column scaling: on
    ``[X, 1]`` with X of scale 1e-2 the condition number is in the thousands while the
    scaled design's stays that of X, and a step smaller than ``eps |w|`` is lost to
    rounding, which stalls the unscaled method at a duality gap ~ ``eps L ||w||^2``.
    """
    X_arr = check_array_argument(X, "X", ndim=2, real=True)
    y_arr = check_array_argument(y, "y", shape=(X_arr.shape[0],), real=True)
    if coef_init is not None:
        coef_init = check_array_argument(coef_init, "coef_init", shape=(X_arr.shape[1],), real=True)
    return _solve_l1_l2(
        X_arr, y_arr, check_real(l1, "l1", low=0.0, low_open=True),
        check_real(l2, "l2", low=0.0), *check_solver_settings(solver, max_iter, tol),
        coef_init=coef_init, refine=check_bool(refine, "refine"),
    )


def check_solver_settings(solver: object, max_iter: object, tol: object) -> tuple[str, int, float]:
    """``(solver, max_iter, tol)`` of :func:`solve_l1_l2`, validated."""
    return (
        check_choice(solver, "solver", SOLVERS),
        check_int(max_iter, "max_iter", low=1),
        check_real(tol, "tol", low=0.0, low_open=True),
    )


def _solve_l1_l2(
    X: np.ndarray, y: np.ndarray, l1: float, l2: float, solver: str, max_iter: int,
    tol: float, *, coef_init: np.ndarray | None = None, refine: bool = True,
) -> L1Solution:
    """:func:`solve_l1_l2` on validated input."""
    check_squares_representable(X, "X")
    check_squares_representable(y, "y")
    n, d = X.shape
    quad = _Quadratic(X, y, l2)
    w = np.zeros(d) if coef_init is None else np.array(coef_init, dtype=float)
    sol = L1Solution(coef=w)
    threshold_gap = tol * max(quad.yy, np.finfo(float).tiny)

    def record(w_now: np.ndarray) -> float:
        xtr, rr, _ = quad.xt_residual(w_now)
        sol.objective_history.append(_objective(rr, w_now, l1, l2))
        gap = _duality_gap(xtr, rr, w_now, l1, l2)
        sol.gap_history.append(gap)
        return gap

    gap = record(w)
    if gap <= threshold_gap:
        sol.converged, sol.duality_gap = True, gap
        return sol

    if solver == "cd":
        if quad.use_gram:
            G, q = quad.G, quad.q
            col_sq = np.diag(G).copy()
            Gw = G @ w
        else:
            col_sq = np.einsum("ij,ij->j", X, X)
            r = y - X @ w
        denom = col_sq + l2
        half_l1 = 0.5 * l1
        pattern, wait, next_try = np.sign(w), 1, 1
        for it in range(1, max_iter + 1):
            for j in range(d):
                if denom[j] <= 0.0:  # zero column, no ridge term: w_j = 0 is optimal
                    continue
                old = w[j]
                if quad.use_gram:
                    rho = q[j] - Gw[j] + col_sq[j] * old
                else:
                    rho = X[:, j] @ r + col_sq[j] * old
                new = np.sign(rho) * max(abs(rho) - half_l1, 0.0) / denom[j]
                if new != old:
                    w[j] = new
                    if quad.use_gram:
                        Gw += G[:, j] * (new - old)
                    else:
                        r -= X[:, j] * (new - old)
            previous, pattern = pattern, np.sign(w)
            if refine and it >= next_try and np.array_equal(previous, pattern):
                stepped = _orthant_step(quad, w, l1, l2)
                if stepped is None:  # back off: the sweeps are doing the work
                    wait = min(2 * wait, 1024)
                    next_try = it + wait
                else:
                    w, wait, next_try = stepped, 1, it + 1
                    if quad.use_gram:
                        Gw = G @ w
                    else:
                        r = y - X @ w
            gap = record(w)
            sol.n_iter = it
            if gap <= threshold_gap:
                sol.converged = True
                break
    else:
        if solver == "fista":
            # Jacobi scaling: work in u_j = D_j w_j with D_j^2 = ||x_j||^2 + l2 (the
            # diagonal of the smooth part's Hessian / 2), i.e. per-coordinate steps.
            col_sq = np.diag(quad.G).copy() if quad.use_gram else np.einsum("ij,ij->j", X, X)
            scale = np.sqrt(col_sq + l2)
            scale[scale <= 0.0] = 1.0
        else:
            scale = np.ones(d)
        if solver == "fista" and l2 > 0:  # largest eigenvalue of D^-1 (X^T X + l2 I) D^-1
            stacked = np.vstack([X, np.sqrt(l2) * np.eye(d)]) / scale
            L = 2.0 * scipy.linalg.norm(stacked, 2) ** 2
        else:
            s_max = scipy.linalg.norm(X / scale, 2) if min(n, d) > 0 else 0.0
            L = 2.0 * (s_max**2 + l2)
        L = L if L > 0 else 1.0
        sol.lipschitz = L
        step = 1.0 / (L * scale**2)  # per coordinate, in w; 1/L in the scaled u = D w
        v, t_mom = w.copy(), 1.0
        for it in range(1, max_iter + 1):
            point = v if solver == "fista" else w
            xtr, _, _ = quad.xt_residual(point)
            grad = -2.0 * xtr + 2.0 * l2 * point
            z = point - step * grad
            w_new = np.sign(z) * np.maximum(np.abs(z) - l1 * step, 0.0)  # soft-threshold
            if solver == "fista":
                if float((v - w_new) @ (scale**2 * (w_new - w))) > 0.0:
                    # adaptive restart (O'Donoghue & Candes): momentum points uphill
                    t_mom, v = 1.0, w_new.copy()
                else:
                    t_next = 0.5 * (1.0 + np.sqrt(1.0 + 4.0 * t_mom * t_mom))
                    v = w_new + ((t_mom - 1.0) / t_next) * (w_new - w)
                    t_mom = t_next
            w = w_new
            gap = record(w)
            sol.n_iter = it
            if gap <= threshold_gap:
                sol.converged = True
                break
    sol.coef, sol.duality_gap = w, gap
    return sol


class L1Regression(LinearPredictor):
    """Shared fit of :class:`Lasso` and :class:`~algorithms.linear.ElasticNet`.

    A subclass supplies :meth:`_penalties`, the validated ``(l1, l2)`` weights of its
    hyperparameters; the intercept is left unpenalised by centring (see
    :func:`~algorithms.linear._ols.centre`).
    """

    def __init__(self, *, lam: float = 1.0, fit_intercept: bool = True, solver: str = "cd",
                 max_iter: int = 10_000, tol: float = 1e-8) -> None:
        self.lam = lam
        self.fit_intercept = fit_intercept
        self.solver = solver
        self.max_iter = max_iter
        self.tol = tol

    def _penalties(self) -> tuple[float, float]:
        raise NotImplementedError

    def fit(self, X: object, y: object) -> L1Regression:
        """Solve the penalised problem for ``X`` (n_samples, n_features), ``y``; returns self."""
        l1, l2 = self._penalties()
        fit_intercept = check_bool(self.fit_intercept, "fit_intercept")
        solver, max_iter, tol = check_solver_settings(self.solver, self.max_iter, self.tol)
        X_arr, y_arr = validate_regression(self, X, y)
        A, target, x_mean, y_mean = centre(X_arr, y_arr, fit_intercept)
        sol = _solve_l1_l2(A, target, l1, l2, solver, max_iter, tol)
        self.coef_ = sol.coef
        self.intercept_ = intercept_of(sol.coef, x_mean, y_mean)
        self.objective_history_ = np.asarray(sol.objective_history)
        self.duality_gap_history_ = np.asarray(sol.gap_history)
        self.duality_gap_ = float(sol.duality_gap)
        self.n_iter_ = int(sol.n_iter)
        self.converged_ = bool(sol.converged)
        self.lipschitz_ = float(sol.lipschitz)
        if not sol.converged:
            warnings.warn(
                f"{type(self).__name__} ({solver}) did not converge in {max_iter} iterations: "
                f"duality gap {sol.duality_gap:.3g} > tol * ||y||^2; increase max_iter or tol",
                ConvergenceWarning,
                stacklevel=2,
            )
        return self


class Lasso(L1Regression):
    """LASSO ``min ||y - X w - b||^2 + lam ||w||_1`` (004 §1.2, 003 (10.7)).

    Parameters
    ----------
    lam : float, default=1.0
        The notes' lambda > 0 (sum-of-squares scaling; scikit-learn's
        ``Lasso(alpha=a)`` minimises ``1/(2N)||.||^2 + a||w||_1``, i.e. ``lam = 2 N a``).
    fit_intercept : bool, default=True
        The intercept is not penalised (the data are centred). To penalise it as the
        augmented ``w_hat`` of 004 §1.2, append a column of ones and pass
        ``fit_intercept=False``.
    solver : {"cd", "ista", "fista"}, default="cd"
        Coordinate descent, proximal gradient with step 1/L (003 (10.10)-(10.13)), or
        its accelerated variant.
    max_iter : int, default=10000
        Sweeps (cd) or iterations (ista/fista).
    tol : float, default=1e-8
        Stop when the duality gap is at most ``tol * ||y - ybar||^2``; the gap bounds
        the objective's distance to the optimum.

    Attributes
    ----------
    coef_, intercept_, n_features_in_
    objective_history_ : ndarray
        Objective at the start and after every iteration/sweep (non-increasing for
        "cd" and "ista").
    duality_gap_history_ : ndarray
    duality_gap_ : float
    n_iter_ : int
    converged_ : bool
    lipschitz_ : float
        ``L`` used by ista/fista (NaN for cd); for fista, that of the column-scaled
        problem (see :func:`solve_l1_l2`).
    """

    def _penalties(self) -> tuple[float, float]:
        return check_real(self.lam, "lam", low=0.0, low_open=True), 0.0
