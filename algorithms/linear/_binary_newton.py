"""Damped Newton for binary logistic regression without the augmented design.

The same iteration as :func:`~algorithms.linear._newton.fit_glm_newton` on the Bernoulli
family (003 §1.5 (1.21); 004 §3.2), the same stopping rule, line search, separation and
cap tests and the same records, organised for large N:

* the bias is kept apart from ``X`` (no copy of the design with a column of ones); the
  Hessian ``[[X^T V X + lam I, X^T v], [v^T X, sum v]]`` is assembled from one symmetric
  rank-N update of ``X diag(sqrt(v))`` (a BLAS ``syrk``: half the work of ``X^T (X v)``)
  and two matrix-vector products, in a buffer allocated once;
* each trial point of the line search costs one product ``X beta`` and one exponential
  per sample; the accepted point's scores and ``e^{-|z|}`` give the next gradient and
  Hessian weights.

Stopping rule (``tol``), both parts on the *mean* objective
``f = (sum_i l_i + lam/2 ||w||^2) / N`` (scikit-learn's objective with ``C = 1/lam``):

* ``max_j |grad f|_j <= tol``: scikit-learn's lbfgs ``tol``, in the same units, so equal
  ``tol`` means equal gradient accuracy (waived only once the decrement is below the
  rounding of the objective, where float64 can show no further decrease), and
* half the squared Newton decrement ``g^T H^{-1} g / 2 <= tol N`` (the library's test
  for every likelihood fit: a second-order estimate of ``f - f*`` below ``tol``).

One last full Newton step follows (kept if the objective does not increase). In the
quadratic region (last step full from a point whose half decrement was at most
``sqrt(tol) N``) the previous Hessian is reused for the step and the decrement as long
as the decrement keeps shrinking fourfold per step (a chord step; the converged test then
takes a safety factor 2), which saves the last Hessian or two.
"""

from __future__ import annotations

import numpy as np
from scipy.special import expit

from algorithms.linear._newton import NewtonResult, _solve_spd

__all__ = ["fit_logistic_newton", "mean_gradient_max_norm"]


class _Workspace:
    """Preallocated length-N buffers of the loop: fresh large temporaries cost page
    faults on every allocation, which at N = 1e5 rival the arithmetic itself."""

    def __init__(self, X: np.ndarray, y: np.ndarray) -> None:
        n = X.shape[0]
        self.X, self.y = X, y
        self.sign = 1.0 - 2.0 * y  # the term of sample i is ln(1 + e^{sign_i z_i})
        self.eta, self.e = np.empty(n), np.empty(n)  # accepted point: z and e^{-|z|}
        self.eta_trial, self.e_trial = np.empty(n), np.empty(n)
        self.tmp, self.mu, self.root_v = np.empty(n), np.empty(n), np.empty(n)

    def objective(self, w: np.ndarray, b: float, lam: float) -> tuple[float, float]:
        """``(log-likelihood, penalised objective)`` at ``(w, b)``, leaving ``z`` and
        ``e^{-|z|}`` in ``eta_trial`` and ``e_trial``.

        Each term ``ln(1 + e^{(1 - 2y) z}) = ln(1 + e^{-|z|}) + max((1 - 2y) z, 0)`` is
        cancellation-free (as ``logaddexp``); ``e^{-|z|}`` is kept so that the
        probabilities at an accepted point cost no second exponential.
        """
        eta, e, tmp = self.eta_trial, self.e_trial, self.tmp
        np.matmul(self.X, w, out=eta)
        eta += b
        np.abs(eta, out=e)
        np.negative(e, out=e)
        np.exp(e, out=e)
        nll = float(np.sum(np.log1p(e, out=tmp)))
        np.multiply(self.sign, eta, out=tmp)
        np.maximum(tmp, 0.0, out=tmp)
        nll += float(np.sum(tmp))
        return -nll, 0.5 * lam * float(w @ w) + nll

    def accept(self) -> None:
        """The trial point becomes the current one (buffers swapped, nothing copied)."""
        self.eta, self.eta_trial = self.eta_trial, self.eta
        self.e, self.e_trial = self.e_trial, self.e

    def probabilities(self) -> tuple[np.ndarray, np.ndarray]:
        """``(sigma(z), sqrt(sigma(z)(1 - sigma(z))))`` at the current point, from
        ``e = e^{-|z|}``: ``sigma(z) = 1/(1 + e)`` for ``z >= 0`` and ``e/(1 + e)`` below;
        the variance is ``e/(1 + e)^2`` either way."""
        e, q, mu, root_v = self.e, self.tmp, self.mu, self.root_v
        np.add(e, 1.0, out=q)
        np.reciprocal(q, out=q)
        np.multiply(e, q, out=mu)
        np.copyto(mu, q, where=self.eta >= 0.0)
        np.sqrt(e, out=root_v)
        root_v *= q
        return mu, root_v


def mean_gradient_max_norm(X: np.ndarray, y: np.ndarray, coef: np.ndarray, intercept: float,
                           lam: float) -> float:
    """``max_j |d f / d beta_j|`` of ``f = (sum_i l_i + lam/2 ||w||^2) / N``: the quantity
    scikit-learn's lbfgs compares with its ``tol`` (its objective with ``C = 1/lam``)."""
    r = expit(X @ coef + intercept) - y
    g = np.append(X.T @ r + lam * coef, r.sum())
    return float(np.max(np.abs(g))) / X.shape[0]


def fit_logistic_newton(
    X: np.ndarray,
    y: np.ndarray,
    *,
    fit_intercept: bool,
    lam: float = 0.0,
    max_iter: int = 100,
    tol: float = 1e-10,
    coef_cap: float = 1e8,
    stop_on_separation: bool = False,
    coef_init: np.ndarray | None = None,
) -> NewtonResult:
    """Minimise ``sum_i ln(1 + e^{(1-2y_i) z_i}) + lam/2 ||w||^2``, ``z = X w + b``.

    Parameters
    ----------
    X : (N, d) float64 design without a bias column.
    y : (N,) labels 0/1 as floats.
    coef_init : (p,) start ``(w; b)`` (``b`` only with an intercept), default zeros.

    Returns
    -------
    NewtonResult with ``coef`` of shape (p, 1) (bias last) and the histories of every
    accepted iterate, exactly as :func:`~algorithms.linear._newton.fit_glm_newton` records
    them on the augmented design.
    """
    X = np.ascontiguousarray(X, dtype=np.float64)
    n, d = X.shape
    p = d + int(fit_intercept)
    beta = np.zeros(p) if coef_init is None else np.array(coef_init, dtype=float).reshape(p)
    y = np.asarray(y, dtype=float)
    ws = _Workspace(X, y)
    res = NewtonResult(coef=beta[:, None])

    def split(bt: np.ndarray) -> tuple[np.ndarray, float]:
        return bt[:d], (float(bt[d]) if fit_intercept else 0.0)

    def record(bt: np.ndarray, ll: float, obj: float) -> None:
        res.log_likelihood_history.append(ll)
        res.objective_history.append(obj)
        res.coef_history.append(bt[:, None].copy())

    if beta.any():
        ll, obj = ws.objective(*split(beta), lam)
        ws.accept()
    else:  # the usual start: every score is 0, every term ln 2, e^{-|z|} = 1
        ws.eta.fill(0.0)
        ws.e.fill(1.0)
        ll = -n * float(np.log(2.0))
        obj = -ll
    record(beta, ll, obj)
    scaled = None  # X diag(sqrt(v)), allocated once, rewritten in place
    H = np.empty((p, p))
    H_prev, t, half_prev = None, 0.0, np.inf
    for it in range(1, max_iter + 1):
        w = beta[:d]
        mu, root_v = ws.probabilities()
        r = np.subtract(mu, y, out=mu)
        g = np.empty(p)
        g[:d] = X.T @ r
        g[:d] += lam * w
        if fit_intercept:
            g[d] = r.sum()
        g_max = float(np.max(np.abs(g))) / n
        chord = H_prev is not None and t == 1.0 and half_prev <= np.sqrt(tol) * n
        if chord:
            # In the quadratic region (last step full, from a point whose half decrement
            # was already <= sqrt(tol) N): the previous Hessian, which the last small step
            # barely changed, gives the step and the decrement (a chord step), if they
            # shrink as fast as Newton's would; the converged test then takes a safety
            # factor 2. Otherwise the Hessian at this point is formed as usual.
            step = _solve_spd(H_prev, g)
            decrement = float(g @ step)
            chord = np.isfinite(decrement) and 0.5 * decrement <= 0.25 * half_prev
            if chord and _converged(decrement, 0.5 * tol * n, g_max, tol, obj):
                _finish(ws, res, beta, step, obj, it, lam, split, record)
                beta = res.coef[:, 0]
                break
        if not chord:
            if not w.any():  # constant scores (the usual start): v is one number
                H[:d, :d] = X.T @ X  # syrk on X itself
                H[:d, :d] *= root_v[0] ** 2
            else:
                if scaled is None:
                    scaled = np.empty_like(X)
                np.multiply(X, root_v[:, None], out=scaled)
                H[:d, :d] = scaled.T @ scaled  # syrk: the same buffer transposed
            if lam > 0:
                H[np.arange(d), np.arange(d)] += lam
            if fit_intercept:
                v = np.square(root_v, out=ws.tmp)
                H[:d, d] = X.T @ v
                H[d, :d] = H[:d, d]
                H[d, d] = v.sum()
            step = _solve_spd(H, g)
            decrement = float(g @ step)
            if not np.isfinite(decrement):
                break
            if _converged(decrement, tol * n, g_max, tol, obj):
                _finish(ws, res, beta, step, obj, it, lam, split, record)
                beta = res.coef[:, 0]
                break
            H_prev = H.copy()
        half_prev = 0.5 * decrement
        t = 1.0
        while True:
            trial = beta - t * step
            ll_new, obj_new = ws.objective(*split(trial), lam)
            if np.isfinite(obj_new) and obj_new <= obj - 1e-4 * t * decrement:
                break
            t *= 0.5
            if t < 1e-12:
                break
        if t < 1e-12:  # no decrease representable in floating point: at the optimum
            res.line_search_failed = True
            res.converged = 0.5 * decrement <= 1e3 * tol * n
            break
        beta, ll, obj = trial, ll_new, obj_new
        ws.accept()
        record(beta, ll, obj)
        res.step_sizes.append(t)
        res.n_iter = it
        if stop_on_separation and bool(np.all(np.multiply(ws.sign, ws.eta, out=ws.tmp) < 0)):
            res.separated = True  # every score has the sign of its label: no MLE
            break
        if np.max(np.abs(beta)) > coef_cap:
            res.capped = True
            break
    res.coef = beta[:, None]
    return res


def _converged(decrement: float, limit: float, g_max: float, tol: float, obj: float) -> bool:
    """The stopping rule: half the decrement at most ``limit`` (``tol N``) and the mean
    gradient's largest component at most ``tol`` (scikit-learn's units), the latter waived
    once the decrement is below the rounding of the objective (no decrease float64 could
    show is left; e.g. features of extreme magnitude put the gradient test out of reach)."""
    half = 0.5 * decrement
    return half <= limit and (g_max <= tol or half <= 4.0 * np.finfo(float).eps * abs(obj))


def _finish(ws: _Workspace, res: NewtonResult, beta: np.ndarray, step: np.ndarray, obj: float,
            it: int, lam: float, split, record) -> None:
    """Converged: one last full step squares the error; it is kept (recorded) only if it
    does not increase the objective, as in fit_glm_newton. Sets ``res.coef``."""
    trial = beta - step
    ll_new, obj_new = ws.objective(*split(trial), lam)
    if np.isfinite(obj_new) and obj_new <= obj:
        beta = trial
        record(beta, ll_new, obj_new)
        res.step_sizes.append(1.0)
        res.n_iter = it
    res.converged = True
    res.coef = beta[:, None]
