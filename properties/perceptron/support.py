"""Shared pieces of the perceptron claims: fitting helpers, the reference margin
solver, and the check bodies that teeth tests reuse on broken variants."""

from __future__ import annotations

import warnings
from collections.abc import Callable
from dataclasses import dataclass

import cvxpy as cp
import numpy as np
from sklearn.exceptions import ConvergenceWarning

from algorithms.perceptron import Perceptron
from mltheory import evidence
from mltheory.numeric import EXACT_ARITHMETIC, Tolerance, assert_close, assert_leq
from mltheory.strategies import LabelledData

#: Passes over the data before a PLA run in a claim is cut off. Bounds checked on
#: every prefix of the run stay valid for a cut-off run, so the cap only limits cost.
PASS_CAP = 400

#: Float sums of up to ~1e4 updates of vectors with entries up to ~1e3: the
#: accumulated rounding is far below 1e-9 relative.
ACCUMULATED_ROUNDING = Tolerance(
    rtol=1e-9,
    atol=1e-9,
    reason="PLA weights are sums of up to 1e4 float64 updates; rounding accumulates "
    "to well below 1e-9 relative",
)


def fit_pla(
    data: LabelledData, *, eta: float = 1.0, order: str = "cyclic", random_state: int = 0,
    max_iter: int = PASS_CAP,
) -> Perceptron:
    """Primal PLA from zero, with the run's convergence warning silenced (a cut-off run
    is still a valid prefix for every bound checked)."""
    est = Perceptron(eta=eta, order=order, random_state=random_state, max_iter=max_iter)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        est.fit(data.X, data.y)
    return est


@dataclass(frozen=True)
class Run:
    """An augmented view of a fitted primal run: x_hat_i = (x_i, 1), w_hat_t = (w_t, b_t)."""

    X_hat: np.ndarray  # (N, d+1)
    y: np.ndarray  # (N,) in {-1, +1}
    W: np.ndarray  # (k+1, d+1): w_hat_0 .. w_hat_k
    idx: np.ndarray  # (k,): sample used by update t (from w_hat_{t-1} to w_hat_t)
    eta: float

    @property
    def k(self) -> int:
        return int(self.idx.shape[0])


def run_of(est: Perceptron, data: LabelledData, eta: float) -> Run:
    y = np.where(data.y == est.classes_[1], 1, -1)
    return Run(
        X_hat=data.augmented(),
        y=y,
        W=np.asarray(est.weight_history_, dtype=float),
        idx=np.asarray(est.update_indices_, dtype=int),
        eta=float(eta),
    )


def pla_run(data: LabelledData, *, eta: float = 1.0, order: str = "cyclic",
            max_iter: int = PASS_CAP) -> Run:
    """The recorded run of primal PLA from zero (:func:`fit_pla`) on ``data``."""
    return run_of(fit_pla(data, eta=eta, order=order, max_iter=max_iter), data, eta)


def max_margin_separator(X_hat: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, float]:
    """The unit-norm w_hat maximising min_i y_i w_hat . x_hat_i (an SOCP, solved by cvxpy).

    The margin returned is recomputed from the normalised solution, so it is a
    *feasible* margin (never above the true optimum, whatever the solver's accuracy).
    """
    w = cp.Variable(X_hat.shape[1])
    t = cp.Variable()
    problem = cp.Problem(cp.Maximize(t), [cp.multiply(y, X_hat @ w) >= t, cp.norm(w, 2) <= 1])
    problem.solve()
    if w.value is None:
        raise RuntimeError(f"max-margin SOCP failed: status {problem.status}")
    w_hat = np.asarray(w.value, dtype=float)
    w_hat = w_hat / np.linalg.norm(w_hat)
    return w_hat, float(np.min(y * (X_hat @ w_hat)))


def best_margin(data, X_hat: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, float]:
    """The larger of the drawn separator's margin and the max-margin solution's."""
    w_ref, g_ref = data.separator, data.margin
    try:
        w_opt, g_opt = max_margin_separator(X_hat, y)
    except (RuntimeError, cp.error.SolverError):
        return w_ref, g_ref
    return (w_opt, g_opt) if g_opt > g_ref else (w_ref, g_ref)


def check_novikoff(
    run: Run, gamma: float, *, bound: Callable[[float, float], float] = lambda r, g: (r / g) ** 2
) -> None:
    """Mistakes k of a primal run from zero satisfy k <= bound(R, gamma)."""
    R = float(np.max(np.linalg.norm(run.X_hat, axis=1)))
    assert_leq(run.k, bound(R, gamma), label="mistakes k / (R/gamma)^2", tol=EXACT_ARITHMETIC,
               context=f"R={R:.6g}, gamma={gamma:.6g}: ")


def check_alignment_lemma(run: Run, w_opt: np.ndarray, gamma: float) -> None:
    """w_hat_k . w_hat_opt >= k eta gamma for every k (001 §二.3, first inequality)."""
    ks = np.arange(run.W.shape[0])
    lhs = run.W @ w_opt
    rhs = ks * run.eta * gamma
    # Tightness: rhs / lhs (1 = equality) over k >= 1.
    if run.k:
        evidence.worst("k eta gamma / (w_k . w_opt)", float(np.max(rhs[1:] / lhs[1:])))
    slack = ACCUMULATED_ROUNDING.bound(lhs, rhs)
    bad = np.flatnonzero(lhs < rhs - slack)
    if bad.size:
        k = int(bad[0])
        raise AssertionError(
            f"w_hat_{k} . w_hat_opt = {lhs[k]!r} < k*eta*gamma = {rhs[k]!r}"
        )


def check_norm_lemma(run: Run, squared_radius: Callable[[Run], float]) -> None:
    """||w_hat_k||^2 <= k eta^2 S for every k, with S = squared_radius(run)."""
    ks = np.arange(run.W.shape[0])
    lhs = np.sum(run.W**2, axis=1)
    rhs = ks * run.eta**2 * squared_radius(run)
    if run.k:
        evidence.worst("||w_k||^2 / (k eta^2 R^2)", float(np.max(lhs[1:] / rhs[1:])))
    slack = ACCUMULATED_ROUNDING.bound(lhs, rhs)
    bad = np.flatnonzero(lhs > rhs + slack)
    if bad.size:
        k = int(bad[0])
        raise AssertionError(f"||w_hat_{k}||^2 = {lhs[k]!r} > k*eta^2*bound = {rhs[k]!r}")


def radius_squared(run: Run) -> float:
    """R^2 = max_i ||x_hat_i||^2 (augmented inputs)."""
    return float(np.max(np.sum(run.X_hat**2, axis=1)))


def perceptron_loss(X_hat: np.ndarray, y: np.ndarray, w_hat: np.ndarray) -> float:
    """L(w, b) = -sum over M of y_i (w . x_i + b), M = {i : y_i (w . x_i + b) < 0} (004 §5.2)."""
    m = y * (X_hat @ w_hat)
    return float(-np.sum(m[m < 0]))


def check_norm_growth(run: Run) -> None:
    """||w_{t+1}||^2 - ||w_t||^2 <= max_n ||x_hat_n||^2 at every update (eta = 1)."""
    growth = np.diff(np.sum(run.W**2, axis=1))
    r2 = radius_squared(run)
    if run.k:
        evidence.worst("growth / max ||x||^2", float(np.max(growth) / r2))
    bad = np.flatnonzero(growth > r2 + ACCUMULATED_ROUNDING.bound(growth, r2))
    assert bad.size == 0, (
        f"update {bad[0] + 1} grew ||w||^2 by {growth[bad[0]]!r} > max ||x||^2 = {r2!r}"
        if bad.size else ""
    )


def check_cosine_growth(run: Run, w_f: np.ndarray) -> None:
    """cos(angle(w_f, w_T)) >= sqrt(T) rho / R after every update T (from w_0 = 0)."""
    rho = float(np.min(run.y * (run.X_hat @ w_f)) / np.linalg.norm(w_f))
    R = float(np.sqrt(radius_squared(run)))
    W = run.W[1:]
    cos = (W @ w_f) / (np.linalg.norm(W, axis=1) * np.linalg.norm(w_f))
    lower = np.sqrt(np.arange(1, run.k + 1)) * rho / R
    if run.k:
        evidence.worst("sqrt(T) rho/R / cos", float(np.max(lower / cos)))
    bad = np.flatnonzero(cos < lower - ACCUMULATED_ROUNDING.bound(cos, lower))
    assert bad.size == 0, (
        f"after update {bad[0] + 1}: cos = {cos[bad[0]]!r} < sqrt(T) rho/R = {lower[bad[0]]!r}"
        if bad.size else ""
    )


def check_updates_on_mistakes(run: Run, margins: np.ndarray) -> None:
    """The reported margin sequence is y_n w_t . x_hat_n of each update, and never positive."""
    before, xs, ys = run.W[:-1], run.X_hat[run.idx], run.y[run.idx]
    recomputed = ys * np.sum(before * xs, axis=1)
    assert_close(margins, recomputed, EXACT_ARITHMETIC, label="margin sequence")
    assert np.all(margins <= 0), f"update on a correctly classified point: margin {margins.max()!r}"
