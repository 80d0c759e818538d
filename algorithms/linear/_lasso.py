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
from sklearn.base import BaseEstimator, RegressorMixin
from sklearn.exceptions import ConvergenceWarning
from sklearn.utils.validation import check_is_fitted

from algorithms.linear._inputs import (
    as_design,
    as_target,
    check_bool,
    check_choice,
    check_positive_int,
    check_real,
)

__all__ = ["L1Solution", "Lasso", "soft_threshold", "solve_l1_l2"]

SOLVERS = ("cd", "ista", "fista")


def soft_threshold(z: np.ndarray | float, threshold: float) -> np.ndarray:
    """Componentwise soft-thresholding, 003 (10.13).

    ``z - t`` where ``z > t``; ``0`` where ``|z| <= t``; ``z + t`` where ``z < -t``.
    It is the proximal map of ``t ||.||_1`` (003 (10.12) with ``t = lambda / L``).
    """
    t = float(threshold)
    if not np.isfinite(t) or t < 0:
        raise ValueError(f"threshold must be a finite number >= 0, got {threshold!r}")
    z = np.asarray(z, dtype=float)
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


def _duality_gap(xtr: np.ndarray, rr: float, yr: float, yy: float, w: np.ndarray,
                 l1: float, l2: float) -> float:
    """Duality gap of ``||y - Xw||^2 + l1||w||_1 + l2||w||^2`` at ``w``.

    The elastic net is a LASSO on the augmented data ``X~ = [X; sqrt(l2) I]``,
    ``y~ = [y; 0]``; the LASSO ``1/2||y~ - X~ w||^2 + (l1/2)||w||_1`` has the dual
    ``max 1/2||y~||^2 - 1/2||y~ - theta||^2`` s.t. ``||X~^T theta||_inf <= l1/2``, and the
    scaled residual ``theta = s r~`` is feasible. The objective here is twice that LASSO.
    """
    xt_rtilde = xtr - l2 * w
    norm = float(np.max(np.abs(xt_rtilde))) if xt_rtilde.size else 0.0
    s = 1.0 if norm <= 0.5 * l1 else 0.5 * l1 / norm
    ww = float(w @ w)
    primal = 0.5 * (rr + l2 * ww) + 0.5 * l1 * float(np.abs(w).sum())
    # ||y~ - s r~||^2 = ||y||^2 - 2 s y^T r + s^2 ||r||^2 + s^2 l2 ||w||^2
    dual = 0.5 * yy - 0.5 * (yy - 2 * s * yr + s * s * rr + s * s * l2 * ww)
    return max(2.0 * (primal - dual), 0.0)


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
) -> L1Solution:
    """Minimise ``P(w) = ||y - X w||^2 + l1 ||w||_1 + l2 ||w||^2`` (``l1 > 0``, ``l2 >= 0``).

    No intercept: centre the data first. Stops when the duality gap is at most
    ``tol * ||y||^2`` (so ``P(w) - P* <= tol * ||y||^2``) or after ``max_iter``
    iterations (sweeps for ``"cd"``). Inputs are assumed validated.

    Solvers
    -------
    ``"cd"``: cyclic coordinate descent, exact minimisation in one coordinate:
    ``w_j <- S_{l1/2}(x_j^T r_{-j}) / (||x_j||^2 + l2)``.
    ``"ista"``: proximal gradient, step ``1/L`` with ``L = 2 (s_max(X)^2 + l2)`` the
    Lipschitz constant of the smooth part's gradient, then soft-thresholding at
    ``l1 / L`` (003 (10.10)-(10.13)); the objective never increases.
    ``"fista"``: ISTA with Nesterov momentum and gradient-based adaptive restart
    (faster; not monotone).
    """
    n, d = X.shape
    quad = _Quadratic(X, y, l2)
    w = np.zeros(d) if coef_init is None else np.array(coef_init, dtype=float)
    sol = L1Solution(coef=w)
    threshold_gap = tol * max(quad.yy, np.finfo(float).tiny)

    def record(w_now: np.ndarray) -> float:
        xtr, rr, yr = quad.xt_residual(w_now)
        sol.objective_history.append(_objective(rr, w_now, l1, l2))
        gap = _duality_gap(xtr, rr, yr, quad.yy, w_now, l1, l2)
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
            gap = record(w)
            sol.n_iter = it
            if gap <= threshold_gap:
                sol.converged = True
                break
    else:
        s_max = scipy.linalg.norm(X, 2) if min(n, d) > 0 else 0.0
        L = 2.0 * (s_max**2 + l2)
        L = L if L > 0 else 1.0
        sol.lipschitz = L
        v, t_mom = w.copy(), 1.0
        for it in range(1, max_iter + 1):
            point = v if solver == "fista" else w
            xtr, _, _ = quad.xt_residual(point)
            grad = -2.0 * xtr + 2.0 * l2 * point
            w_new = soft_threshold(point - grad / L, l1 / L)
            if solver == "fista":
                if float((v - w_new) @ (w_new - w)) > 0.0:
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


def _validate_common(est: BaseEstimator) -> tuple[bool, str, int, float]:
    fit_intercept = check_bool(est.fit_intercept, "fit_intercept")
    solver = check_choice(est.solver, "solver", SOLVERS)
    max_iter = check_positive_int(est.max_iter, "max_iter")
    tol = check_real(est.tol, "tol", low=0.0, low_open=True)
    return fit_intercept, solver, max_iter, tol


def fit_penalised(est: BaseEstimator, X: object, y: object, l1: float, l2: float,
                  fit_intercept: bool, solver: str, max_iter: int, tol: float) -> None:
    """Centre (unpenalised intercept), solve, store the fitted attributes on ``est``."""
    X_arr = as_design(X)
    y_arr = as_target(y, X_arr.shape[0])
    if fit_intercept:
        x_mean, y_mean = X_arr.mean(axis=0), float(y_arr.mean())
        A, target = X_arr - x_mean, y_arr - y_mean
    else:
        A, target = X_arr, y_arr
    sol = solve_l1_l2(A, target, l1=l1, l2=l2, solver=solver, max_iter=max_iter, tol=tol)
    est.coef_ = sol.coef
    est.intercept_ = float(y_mean - x_mean @ sol.coef) if fit_intercept else 0.0
    est.objective_history_ = np.asarray(sol.objective_history)
    est.duality_gap_history_ = np.asarray(sol.gap_history)
    est.duality_gap_ = float(sol.duality_gap)
    est.n_iter_ = int(sol.n_iter)
    est.converged_ = bool(sol.converged)
    est.lipschitz_ = float(sol.lipschitz)
    est.n_features_in_ = X_arr.shape[1]
    if not sol.converged:
        warnings.warn(
            f"{type(est).__name__} ({solver}) did not converge in {max_iter} iterations: "
            f"duality gap {sol.duality_gap:.3g} > tol * ||y||^2; increase max_iter or tol",
            ConvergenceWarning,
            stacklevel=3,
        )


class Lasso(RegressorMixin, BaseEstimator):
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
        ``L`` used by ista/fista (NaN for cd).
    """

    def __init__(self, *, lam: float = 1.0, fit_intercept: bool = True, solver: str = "cd",
                 max_iter: int = 10_000, tol: float = 1e-8) -> None:
        self.lam = lam
        self.fit_intercept = fit_intercept
        self.solver = solver
        self.max_iter = max_iter
        self.tol = tol

    def fit(self, X: object, y: object) -> Lasso:
        lam = check_real(self.lam, "lam", low=0.0, low_open=True)
        fit_intercept, solver, max_iter, tol = _validate_common(self)
        fit_penalised(self, X, y, lam, 0.0, fit_intercept, solver, max_iter, tol)
        return self

    def predict(self, X: object) -> np.ndarray:
        check_is_fitted(self, "coef_")
        X_arr = as_design(X, n_features=self.n_features_in_)
        return X_arr @ self.coef_ + self.intercept_
