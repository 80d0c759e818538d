"""Truncated Newton (Newton-CG) for the symmetric softmax likelihood (004 §3.3).

The objective, with K weight columns ``W`` (p, K) and one-hot labels ``Y``,

    F(W) = sum_i [logsumexp(z_i) - z_{i, y_i}] + lam/2 ||mask * W||^2,   Z = Xh W,

has gradient ``Xh^T (P - Y) + lam mask W`` (``P = softmax(Z)`` row-wise) and a Hessian that
is never formed: its product with a direction ``V`` (p, K) is

    H V = Xh^T [A - P * rowsum(A)] + lam mask V,   A = P * (Xh V),

two products with ``Xh`` and O(N K) elementwise work, no per-sample K x K blocks. Each
Newton system ``H S = G`` is solved by conjugate gradients preconditioned with the
Hessian's diagonal, to a relative residual that tightens as the gradient shrinks
(quadratic convergence at the end), in the subspace orthogonal to the gauge: adding one
vector to every unpenalised ``w_k`` (the intercepts; with ``lam = 0`` all rows) changes
no probability, so ``H`` is singular along it and the search directions are kept free of
it. An Armijo backtracking line search along ``-S`` reuses ``Xh S`` for every trial step,
and the accepted point's exponentials give the next probabilities.

Stopping rule (``tol``), both parts on the *mean* objective ``f = F / N`` (scikit-learn's
multinomial objective with ``C = 1/lam``):

* ``max_j |grad f|_j <= tol``, the quantity scikit-learn's lbfgs/newton-cg compare with
  their ``tol`` (so equal ``tol`` means equal gradient accuracy; waived only when the
  decrement is below the rounding of the objective, where float64 can show no further
  decrease), and
* half the squared Newton decrement ``g^T H^+ g / 2 <= tol N`` (the library's test for
  every likelihood fit; a second-order estimate of ``f - f*`` below ``tol``), estimated
  with the CG solution.

Small problems (``p K <= EXACT_CERTIFICATE_SIZE``) are then certified with the exact
Hessian (see :func:`newton_polish`); larger ones rely on the CG estimate.
"""

from __future__ import annotations

import numpy as np

from algorithms.linear._newton import NewtonResult

__all__ = ["EXACT_CERTIFICATE_SIZE", "fit_softmax_newton_cg", "newton_polish",
           "softmax_hessian"]

#: Largest number of coefficients ``p K`` whose Hessian is formed for the final exact
#: Newton-decrement certificate (its cost grows as N p^2 K^2 + (p K)^3).
EXACT_CERTIFICATE_SIZE = 256


def _forcing(g_max: float, g_first: float, tol: float) -> float:
    """Relative CG residual of a Newton system: ``sqrt(|g| / |g_0|)`` (superlinear
    convergence, loose far from the optimum), at most 1/2; 0.1 once the gradient test has
    passed, where CG only estimates the decrement."""
    return 0.1 if g_max <= tol else min(0.5, float(np.sqrt(g_max / g_first)))


class _Softmax:
    """Evaluations of the symmetric softmax objective on one design, buffers reused."""

    def __init__(self, Xh: np.ndarray, codes: np.ndarray, K: int, lam: float,
                 mask: np.ndarray) -> None:
        self.Xh = Xh
        self.n, self.p = Xh.shape
        self.K = K
        self.codes = codes
        self.rows = np.arange(self.n)
        self.lam = lam
        self.penalty = lam * np.repeat(mask[:, None], K, axis=1)  # (p, K)
        # rows along which the gauge moves freely: unpenalised ones
        self.free_rows = np.flatnonzero(mask == 0) if lam > 0 else np.arange(self.p)
        self.Xh_sq = Xh * Xh
        self.buffer = np.empty((self.n, K))

    def value(self, W: np.ndarray, Z: np.ndarray) -> tuple[float, float, np.ndarray,
                                                          np.ndarray]:
        """``(log-likelihood, objective, E, s)`` at ``W`` with scores ``Z = Xh W``: ``E =
        exp(Z - rowmax)``, ``s`` its row sums, so that ``P = E / s``."""
        top = Z.max(axis=1)
        E = np.subtract(Z, top[:, None])
        np.exp(E, out=E)
        s = E.sum(axis=1)
        nll = float(np.sum(np.log(s)) + np.sum(top) - np.sum(Z[self.rows, self.codes]))
        return -nll, nll + 0.5 * float(np.sum(self.penalty * W * W)), E, s

    def project(self, V: np.ndarray) -> np.ndarray:
        """Remove the gauge component (the class mean of every free row), in place."""
        free = self.free_rows
        if free.size == 1:
            V[free[0]] -= V[free[0]].mean()
        elif free.size:
            V[free] -= V[free].mean(axis=1, keepdims=True)
        return V

    def hessian_product(self, P: np.ndarray, V: np.ndarray) -> np.ndarray:
        """``H V`` without per-sample K x K blocks (see the module docstring)."""
        A = self.Xh @ V
        A *= P
        np.multiply(P, A.sum(axis=1)[:, None], out=self.buffer)
        A -= self.buffer
        out = self.Xh.T @ A
        out += self.penalty * V
        return out


def _conjugate_gradients(f: _Softmax, P: np.ndarray, G: np.ndarray, diag: np.ndarray,
                         rtol: float, max_steps: int) -> np.ndarray:
    """Approximately solve ``H S = G`` by preconditioned CG from ``S = 0`` (stops at
    ``||residual|| <= rtol ||G||`` or on non-positive curvature)."""
    S = np.zeros_like(G)
    R = G.copy()
    Zr = f.project(R / diag)
    D = Zr.copy()
    rz = float(np.vdot(R, Zr))
    goal = rtol * rtol * float(np.vdot(G, G))
    for _ in range(max_steps):
        HD = f.hessian_product(P, D)
        curvature = float(np.vdot(D, HD))
        if not curvature > 0:
            break
        a = rz / curvature
        S += a * D
        R -= a * HD
        if float(np.vdot(R, R)) <= goal:
            break
        Zr = f.project(np.divide(R, diag, out=Zr))
        rz_new = float(np.vdot(R, Zr))
        D *= rz_new / rz
        D += Zr
        rz = rz_new
    return S


def fit_softmax_newton_cg(Xh: np.ndarray, codes: np.ndarray, K: int, *, lam: float,
                          mask: np.ndarray, max_iter: int, tol: float,
                          coef_init: np.ndarray | None = None) -> NewtonResult:
    """Minimise the symmetric softmax objective by Newton-CG; records every accepted
    iterate (``coef_history``) and its log-likelihood. ``converged`` follows the stopping
    rule of the module docstring; ``coef`` is in the solver's own gauge."""
    Xh = np.ascontiguousarray(Xh, dtype=np.float64)
    n, p = Xh.shape
    f = _Softmax(Xh, np.asarray(codes, dtype=np.intp), K, lam, np.asarray(mask, dtype=float))
    W = np.zeros((p, K)) if coef_init is None else np.array(coef_init, dtype=float)
    res = NewtonResult(coef=W)
    Y = np.zeros((n, K))
    Y[f.rows, f.codes] = 1.0
    Z = Xh @ W
    ll, obj, E, s = f.value(W, Z)
    res.log_likelihood_history.append(ll)
    res.coef_history.append(W.copy())
    for it in range(1, max_iter + 1):
        P = E / s[:, None]
        G = Xh.T @ (P - Y)
        G += f.penalty * W
        g_max = float(np.max(np.abs(G))) / n
        diag = f.Xh_sq.T @ (P * (1.0 - P)) + f.penalty
        diag = np.maximum(diag, 1e-12 * max(float(diag.max()), 1e-300))
        if it == 1:
            g_first = max(g_max, np.finfo(float).tiny)
        rtol = _forcing(g_max, g_first, tol)
        S = _conjugate_gradients(f, P, G, diag, rtol, max_steps=max(10, p * K))
        decrement = float(np.sum(G * S))
        if not np.isfinite(decrement):
            break
        if 0.5 * decrement <= tol * n and (
            g_max <= tol or 0.5 * decrement <= 4.0 * np.finfo(float).eps * abs(obj)
        ):
            # Converged (the second case: no decrease is left that float64 could show,
            # the gradient test is out of its reach, e.g. features of extreme magnitude).
            res.converged = True
            break
        XS = Xh @ S
        t = 1.0
        while True:
            W_new = W - t * S
            Z_new = Z - t * XS
            ll_new, obj_new, E_new, s_new = f.value(W_new, Z_new)
            if np.isfinite(obj_new) and obj_new <= obj - 1e-4 * t * decrement:
                break
            t *= 0.5
            if t < 1e-12:
                break
        if t < 1e-12:  # no decrease representable in floating point: at the optimum
            res.line_search_failed = True
            res.converged = 0.5 * decrement <= 1e3 * tol * n
            break
        W, Z, ll, obj, E, s = W_new, Z_new, ll_new, obj_new, E_new, s_new
        res.log_likelihood_history.append(ll)
        res.coef_history.append(W.copy())
        res.step_sizes.append(t)
        res.n_iter = it
    res.coef = W
    return res


def softmax_hessian(Xh: np.ndarray, P: np.ndarray, penalty: np.ndarray) -> np.ndarray:
    """The symmetric softmax Hessian (p K, p K), rows ordered like ``W.reshape(-1)``:
    block ``(k, m)`` is ``Xh^T diag(P_k (delta_km - P_m)) Xh`` (one weight vector per
    block, never per-sample K x K matrices), plus ``diag(penalty)``."""
    p, K = Xh.shape[1], P.shape[1]
    H = np.empty((p, K, p, K))
    for k in range(K):
        for m in range(k, K):
            weight = -P[:, k] * P[:, m]
            if m == k:
                weight += P[:, k]
            block = Xh.T @ (Xh * weight[:, None])
            H[:, k, :, m] = block
            if m != k:
                H[:, m, :, k] = block
    H = H.reshape(p * K, p * K)
    H[np.diag_indices_from(H)] += penalty.reshape(-1)
    return H


def newton_polish(fun, theta: np.ndarray, Xh: np.ndarray, K: int, penalty: np.ndarray,
                  threshold: float, max_steps: int = 20) -> tuple[np.ndarray, bool, list]:
    """Certify (and if needed finish) a symmetric-softmax minimiser by the exact Newton
    decrement; ``fun(theta) -> (value, gradient)``.

    The decrement ``g^T H^+ g`` of the symmetric likelihood (``H`` singular along the
    gauge, hence the pseudo-inverse, i.e. the minimum-norm Newton step) is invariant under
    the change of parametrisation, so the test ``g^T H^+ g / 2 <= threshold`` is the
    reference parametrisation's Newton test. Steps are full Newton steps halved until the
    objective does not increase (a last full step follows a passed test, as in
    :func:`~algorithms.linear._newton.fit_glm_newton`). The eigenvalue cut-off is relative
    to the largest eigenvalue, ``p K eps lambda_max`` (issue 13). Returns ``(theta,
    converged, accepted)`` with the accepted points in order.
    """
    from scipy.special import softmax

    p = Xh.shape[1]
    accepted = []
    value, grad = fun(theta)
    for _ in range(max_steps + 1):
        P = softmax(Xh @ theta.reshape(p, K), axis=1)
        H = softmax_hessian(Xh, P, penalty)
        evals, Q = np.linalg.eigh(H)
        keep = evals > H.shape[0] * np.finfo(float).eps * max(float(evals[-1]), 0.0)
        step = Q[:, keep] @ ((Q[:, keep].T @ grad) / evals[keep])
        decrement = float(grad @ step)
        if not np.isfinite(decrement):
            return theta, False, accepted
        if 0.5 * decrement <= threshold:
            new_value, _ = fun(theta - step)
            if np.isfinite(new_value) and new_value <= value:
                theta = theta - step
                accepted.append(theta)
            return theta, True, accepted
        t = 1.0
        while t >= 1e-12:
            new_value, new_grad = fun(theta - t * step)
            if np.isfinite(new_value) and new_value <= value:
                break
            t *= 0.5
        if t < 1e-12:
            return theta, False, accepted
        theta, value, grad = theta - t * step, new_value, new_grad
        accepted.append(theta)
    return theta, False, accepted
