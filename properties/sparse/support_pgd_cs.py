"""Check bodies of the 003 §10.4 / §10.6 claims (shared with the teeth tests).

Everything here is written independently of ``algorithms.sparse``'s loops: objectives,
gradients and duality gaps are recomputed from their definitions, and the references
are cvxpy, scikit-learn, scipy's LP solver and brute force.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable

import cvxpy as cp
import numpy as np
from sklearn.exceptions import ConvergenceWarning

from algorithms.sparse import proximal_gradient_lasso
from mltheory import evidence
from mltheory.numeric import Tolerance, assert_close, assert_leq

#: Rounding allowance for identities between quantities of size ``s`` evaluated through
#: different products (Gram matrix vs residuals): a few ulps per term of a d <= 12 sum.
ROUNDING = Tolerance(rtol=1e-10, atol=1e-12,
                     reason="the same quadratic evaluated through different products: "
                     "~ d eps relative to its largest term")


#: f and its model (10.9) at the same point, and consecutive objectives, in float64: the
#: model is a sum of terms of size up to f(x_k), each rounded to ~eps relative.
MODEL_ROUNDING = Tolerance(rtol=1e-10, atol=1e-13,
                           reason="f and f_hat (or two objectives) computed in float64 from "
                           "terms of size <= f(x_k): rounding ~ d eps relative")


def f_value(X: np.ndarray, y: np.ndarray, w: np.ndarray) -> float:
    """``f(w) = ||y - X w||^2`` (003 (10.5))."""
    r = y - X @ w
    return float(r @ r)


def f_gradient(X: np.ndarray, y: np.ndarray, w: np.ndarray) -> np.ndarray:
    """``grad f(w) = 2 X^T (X w - y)``."""
    return 2.0 * X.T @ (X @ w - y)


def lasso_value(X: np.ndarray, y: np.ndarray, w: np.ndarray, lam: float) -> float:
    """The LASSO objective (10.7)."""
    return f_value(X, y, w) + lam * float(np.abs(w).sum())


def quadratic_model(X, y, x_k, L) -> Callable[[np.ndarray], float]:
    """``f_hat(x) = f(x_k) + <grad f(x_k), x - x_k> + (L/2) ||x - x_k||^2`` (10.9)."""
    fk, gk = f_value(X, y, x_k), f_gradient(X, y, x_k)

    def model(x: np.ndarray) -> float:
        d = x - x_k
        return fk + float(gk @ d) + 0.5 * L * float(d @ d)

    return model


def printed_lipschitz(X: np.ndarray) -> float:
    """The smallest ``L`` of (10.8) as printed, ``||grad f(x') - grad f(x)||^2 <= L
    ||x' - x||^2``: ``sup ||2 X^T X u||^2 / ||u||^2 = (2 lambda_max(X^T X))^2``."""
    top = float(np.linalg.eigvalsh(X.T @ X)[-1])
    return (2.0 * top) ** 2


def run_pgd(X, y, lam, L, steps) -> object:
    """``steps`` proximal-gradient steps with step 1/L, iterates kept (no early stop)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        return proximal_gradient_lasso(X, y, lam, lipschitz=L, max_iter=steps, tol=1e-300,
                                       keep_iterates=True)


def check_majorised_steps(problem, L: float, steps: int = 25) -> None:
    """Run PGD with step 1/L; at every step the model (10.9) must lie above f at the new
    iterate (f(x_{k+1}) <= f_hat_k(x_{k+1})) and the objective must not increase. The
    recorded objectives are recomputed from the recorded iterates."""
    X, y, lam = problem.X, problem.y, problem.lam
    res = run_pgd(X, y, lam, L, steps)
    iterates = res.coef_history
    recomputed = np.array([lasso_value(X, y, w, lam) for w in iterates])
    assert_close(res.objective_history, recomputed, ROUNDING,
                 label="recorded vs recomputed objective")
    worst_excess = 0.0
    for k in range(len(iterates) - 1):
        model = quadratic_model(X, y, iterates[k], L)
        f_next = f_value(X, y, iterates[k + 1])
        m_next = model(iterates[k + 1])
        size = max(abs(m_next), f_value(X, y, iterates[k]), 1e-300)
        worst_excess = max(worst_excess, (f_next - m_next) / size)
        assert_leq(f_next, m_next, tol=MODEL_ROUNDING, label=f"f(x_{k + 1}) / f_hat(x_{k + 1})",
                   context=f"step 1/L with L = {L:.6g}: ")
    for k in range(len(recomputed) - 1):
        assert_leq(recomputed[k + 1], recomputed[k], tol=MODEL_ROUNDING,
                   label=f"P(x_{k + 1}) / P(x_{k})", context=f"step 1/L with L = {L:.6g}: ")
    evidence.worst("largest (f - f_hat)(x_{k+1}) / scale", worst_excess)


def check_lipschitz(X: np.ndarray, rng: np.random.Generator, L: float,
                    exponent: int = 1) -> None:
    """``||grad f(x') - grad f(x)||^e <= L ||x' - x||^e`` (e = 1: the Lipschitz condition;
    e = 2: (10.8) as printed) on random pairs and on the pair along the top eigenvector
    of X^T X, which attains the sup; reports the tightness ratio."""
    d = X.shape[1]
    y = rng.normal(size=X.shape[0])
    evals, evecs = np.linalg.eigh(X.T @ X)
    pairs = [(rng.normal(size=d) * 3.0, rng.normal(size=d) * 3.0) for _ in range(20)]
    x0 = rng.normal(size=d)
    pairs.append((x0, x0 + evecs[:, -1] * 0.7))
    worst = 0.0
    for a, b in pairs:
        lhs = float(np.linalg.norm(f_gradient(X, y, a) - f_gradient(X, y, b))) ** exponent
        rhs = L * float(np.linalg.norm(a - b)) ** exponent
        ratio = lhs / rhs if rhs > 0 else 0.0
        worst = max(worst, ratio)
        assert_leq(lhs, rhs * (1 + 1e-9) + 1e-300, label="||grad diff||^e / (L ||x diff||^e)")
    evidence.worst("max ||grad f(x') - grad f(x)||^e / (L ||x' - x||^e)", worst,
                   larger_is_worse=False)
    if evals[-1] > 0:
        # the top eigenvector pair attains the sup: the constant cannot be lowered
        assert_leq(1.0 - worst, 1e-9, label="1 - tightness at the top eigenvector")


def independent_gap(X: np.ndarray, y: np.ndarray, w: np.ndarray, lam: float) -> float:
    """Primal minus dual of the LASSO (10.7), with the dual point the residual scaled
    into the dual feasible set ``||X^T theta||_inf <= lam / 2`` of the problem
    ``1/2 ||y - Xw||^2 + (lam / 2) ||w||_1``; doubled to the scale of (10.7)."""
    r = y - X @ w
    c = float(np.max(np.abs(X.T @ r)))
    theta = r * min(1.0, 0.5 * lam / c) if c > 0 else r
    primal = 0.5 * float(r @ r) + 0.5 * lam * float(np.abs(w).sum())
    dual = 0.5 * float(y @ y) - 0.5 * float((y - theta) @ (y - theta))
    return 2.0 * (primal - dual)


def cvx_lasso(X: np.ndarray, y: np.ndarray, lam: float) -> np.ndarray:
    """The LASSO (10.7) by cvxpy (CLARABEL, tight tolerances; SCS as fallback)."""
    v = cp.Variable(X.shape[1])
    problem = cp.Problem(cp.Minimize(cp.sum_squares(y - X @ v) + lam * cp.norm1(v)))
    try:
        problem.solve(solver=cp.CLARABEL, tol_gap_abs=1e-11, tol_gap_rel=1e-11,
                      tol_feas=1e-11)
    except cp.error.SolverError:  # pragma: no cover - fallback
        problem.solve(solver=cp.SCS, eps=1e-10, max_iters=200_000)
    if v.value is None:  # pragma: no cover
        raise RuntimeError(f"cvxpy failed: {problem.status}")
    return np.asarray(v.value, dtype=float).reshape(-1)


def soft_threshold_10_13(z: np.ndarray, t: float) -> np.ndarray:
    """(10.13) literally, case by case: z - t if t < z; 0 if |z| <= t; z + t if z < -t."""
    out = np.zeros_like(z)
    out[z > t] = z[z > t] - t
    out[z < -t] = z[z < -t] + t
    return out


def grid_prox(z: np.ndarray, step: float, g: Callable[[np.ndarray], np.ndarray],
              radius: float = 12.0, points: int = 6_001) -> tuple[np.ndarray, float]:
    """Brute-force ``argmin_x 1/2 (x - z)^2 + step g(x)`` over a uniform grid on
    ``[-radius, radius]`` (which contains the minimiser for the inputs used here: it lies
    between 0 and z shifted by at most step * max |g'|), refined once on a 100x finer grid
    around each coarse winner (plus the kink 0 when it is that close); returns the
    minimisers and the final grid spacing."""
    z = np.asarray(z, dtype=float)
    grid = np.linspace(-radius, radius, points)
    h = grid[1] - grid[0]
    gv = g(grid)
    out = np.empty_like(z)
    for start in range(0, z.size, 64):  # bounded memory: 64 x points objective values
        zc = z[start:start + 64]
        best = grid[np.argmin(0.5 * (grid[None, :] - zc[:, None]) ** 2 + step * gv, axis=1)]
        fine = best[:, None] + np.linspace(-h, h, 201)[None, :]
        fine = np.hstack([fine, np.where(np.abs(best) < 2 * h, 0.0, best)[:, None]])
        values = 0.5 * (fine - zc[:, None]) ** 2 + step * g(fine)
        out[start:start + 64] = fine[np.arange(zc.size), np.argmin(values, axis=1)]
    return out, 2 * h / 200
