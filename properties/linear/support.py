"""Helpers shared by the linear-model claim modules (no claims here)."""

from __future__ import annotations

import warnings

import cvxpy as cp
import numpy as np

from mltheory.numeric import Tolerance

EPS = float(np.finfo(float).eps)


def least_squares_tolerance(condition: float) -> Tolerance:
    """Perturbation theory of least squares: solutions computed by different stable
    routes (normal equations, QR, SVD) differ by about ``condition^2 * eps`` relatively
    (the normal equations square the condition number). A factor 1000 covers the
    dimension-dependent constants at the sizes drawn here (N <= 40, d <= 6)."""
    bound = max(1e-12, 1000.0 * condition**2 * EPS)
    return Tolerance(rtol=bound, atol=bound,
                     reason=f"least squares with condition number {condition:.3g}: "
                     "error ~ 1000 cond^2 eps")


def rounding_tolerance(n_operations: int) -> Tolerance:
    """Higham's ``gamma_k = k u / (1 - k u)`` (``u = eps / 2``): a float64 result built by
    at most ``k`` rounded operations in sequence (dot products, sums) differs from the
    exact value by at most ``gamma_k`` times the sum of the absolute values of the terms
    it adds up. A rigorous worst-case bound, so no safety factor; the caller states the
    magnitude (``scale=``) the bound applies to."""
    k_u = n_operations * EPS / 2
    if not 0 <= k_u < 0.5:
        raise ValueError(f"n_operations must be in [0, 1/eps), got {n_operations!r}")
    return Tolerance(rtol=k_u / (1 - k_u), atol=0.0,
                     reason=f"float64 rounding of sums of at most {n_operations} terms: "
                     "gamma_k times the terms' total magnitude")


def quietly(fn, *args, **kwargs):
    """Call ``fn`` with warnings suppressed (rank-deficiency/convergence warnings are
    expected on some drawn inputs; the checks inspect the flags instead)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return fn(*args, **kwargs)


def cvx_solve(objective: cp.Expression, variable: cp.Variable) -> np.ndarray:
    """Minimise with CLARABEL (interior point), falling back to SCS; tight tolerances."""
    problem = cp.Problem(cp.Minimize(objective))
    try:
        problem.solve(solver=cp.CLARABEL, tol_gap_abs=1e-10, tol_gap_rel=1e-10,
                      tol_feas=1e-10)
    except cp.error.SolverError:
        problem.solve(solver=cp.SCS, eps=1e-9, max_iters=200_000)
    if variable.value is None:
        raise RuntimeError(f"cvxpy failed: {problem.status}")
    return np.asarray(variable.value, dtype=float).reshape(-1)


def penalised_objective(A: np.ndarray, y: np.ndarray, w: np.ndarray, l1: float = 0.0,
                        l2: float = 0.0) -> float:
    """``||y - A w||^2 + l1 ||w||_1 + l2 ||w||^2``."""
    r = y - A @ w
    return float(r @ r + l1 * np.abs(w).sum() + l2 * w @ w)


#: Rounding allowance between values a solver records and the same values recomputed
#: independently (another summation order, logaddexp / scipy.stats / log_softmax).
RECOMPUTED = Tolerance(rtol=1e-9, atol=1e-9,
                       reason="the same log-likelihood summed in another order: rounding "
                       "~ N eps times its terms")
#: The likelihood estimators' default tolerance: Newton stops once half the squared Newton
#: decrement g^T H^-1 g is at most NEWTON_TOL * N (the symmetric softmax's polish likewise).
NEWTON_TOL = 1e-10
#: Largest eigenvalue of Var T(y) per unit of ||x||^2: Bernoulli p(1 - p) <= 1/4; the
#: multinomial diag(p) - p p^T has eigenvalues <= max p <= 1 (Gaussian: sigma^2, passed in).
VARIANCE_BOUND = {"bernoulli": 0.25, "categorical": 1.0}


def newton_score_bound(Xh: np.ndarray, variance_bound: float, lam: float = 0.0,
                       tol: float = NEWTON_TOL) -> float:
    """Largest |score| a fit stopped by the decrement test may leave, in any component.

    ``g^T H^-1 g <= 2 tol N`` gives ``||g||_2 <= sqrt(2 tol N lambda_max(H))``, and
    ``lambda_max(H) <= variance_bound * sum_i ||x_i||^2 + lam``. (The extra full step the
    solvers take after the test usually squares this; the bound does not count on it.)
    """
    n = Xh.shape[0]
    return float(np.sqrt(2.0 * tol * n * (variance_bound * float(np.sum(Xh * Xh)) + lam)))


#: Design condition numbers up to which two optimisers stopped near 1e-12 N in objective
#: pin the maximum-likelihood probabilities to ~1e-4; beyond, only likelihood values and
#: score certificates are compared (the likelihood is nearly flat along ill-conditioned
#: directions, so L-BFGS stops early along them).
WELL_DETERMINED = 1e3


# ----------------------------------------------------------------- independent likelihoods
# Written from the densities (scipy.stats / log-sum-exp), not from the library's
# ExponentialFamily, so the claims recompute what the solvers record.


def glm_scores(Xh: np.ndarray, B: np.ndarray) -> np.ndarray:
    """Natural parameters ``eta = Xh B``, shape (N, q)."""
    return Xh @ B


def glm_log_likelihood(family: str, Xh: np.ndarray, B: np.ndarray, target: np.ndarray,
                       sigma: float = 1.0) -> float:
    """Log-likelihood of the canonical-link GLM with coefficients ``B`` (p, q).

    Gaussian: ``sum_i ln N(y_i; sigma^2 eta_i, sigma^2)``; Bernoulli (``target`` 0/1):
    ``sum_i ln sigma(+-eta_i)``; categorical (``target`` codes 0..K-1, class K-1 the
    reference with score 0): ``sum_i ln softmax(eta_i, 0)_{y_i}``.
    """
    import scipy.special
    import scipy.stats

    eta = glm_scores(Xh, B)
    if family == "gaussian":
        return float(np.sum(scipy.stats.norm.logpdf(target, loc=sigma**2 * eta[:, 0],
                                                    scale=sigma)))
    if family == "bernoulli":
        z = eta[:, 0]
        return float(-np.sum(np.where(target == 1, np.logaddexp(0.0, -z),
                                      np.logaddexp(0.0, z))))
    full = np.hstack([eta, np.zeros((eta.shape[0], 1))])
    logp = scipy.special.log_softmax(full, axis=1)
    return float(np.sum(logp[np.arange(target.size), np.asarray(target, dtype=int)]))


def glm_score(family: str, Xh: np.ndarray, B: np.ndarray, target: np.ndarray,
              sigma: float = 1.0) -> tuple[np.ndarray, np.ndarray]:
    """The gradient ``Xh^T (T - E T)`` of :func:`glm_log_likelihood` in ``B`` and the sum of
    its terms' magnitudes (the scale its rounding is measured against), both (p, q)."""
    import scipy.special

    eta = glm_scores(Xh, B)
    if family == "gaussian":
        T, mean = np.asarray(target, dtype=float)[:, None], sigma**2 * eta
    elif family == "bernoulli":
        T, mean = np.asarray(target, dtype=float)[:, None], scipy.special.expit(eta)
    else:
        K = eta.shape[1] + 1
        T = np.eye(K)[np.asarray(target, dtype=int)][:, :-1]
        mean = scipy.special.softmax(np.hstack([eta, np.zeros((eta.shape[0], 1))]),
                                     axis=1)[:, :-1]
    return Xh.T @ (T - mean), np.abs(Xh).T @ (np.abs(T) + np.abs(mean))


def no_finite_mle(Xh: np.ndarray, codes: np.ndarray, n_classes: int) -> bool:
    """True when linear scores (quasi-)separate the classes, so the unpenalised
    likelihood has no maximiser: an LP finds ``W`` (p, K) with every margin
    ``x_i^T (w_{y_i} - w_k) = t_ik >= 0`` and some ``t_ik > 0`` (margins capped at 1)."""
    import scipy.optimize

    top = np.max(np.abs(Xh), axis=0)
    Xh = Xh / np.where(top > 0, top, 1.0)  # column units do not change separability
    n, p = Xh.shape
    K = int(n_classes)
    pairs = [(i, k) for i in range(n) for k in range(K) if k != codes[i]]
    m = len(pairs)
    # variables: W (p K, free) then t (m, in [0, 1]); maximise sum t
    A = np.zeros((m, p * K + m))
    for r, (i, k) in enumerate(pairs):
        A[r, codes[i] * p:(codes[i] + 1) * p] -= Xh[i]
        A[r, k * p:(k + 1) * p] += Xh[i]
        A[r, p * K + r] = 1.0  # t_ik - x_i^T (w_y - w_k) <= 0
    cost = np.concatenate([np.zeros(p * K), -np.ones(m)])
    bounds = [(None, None)] * (p * K) + [(0.0, 1.0)] * m
    out = scipy.optimize.linprog(cost, A_ub=A, b_ub=np.zeros(m), bounds=bounds,
                                 method="highs")
    return bool(out.status == 0 and -out.fun > 0.5)  # any margin can be scaled to 1
