"""Shared check bodies and independent references of the supervised-network claims
(003 §3.1-§3.5.1).

No claims are registered here. The references share no code with
:mod:`algorithms.neural`: the network error (3.4) and its chain-rule gradient are written
again here (sigmoid through ``logaddexp``), central finite differences differentiate the
error numerically, and scipy's L-BFGS fits networks for the capacity claims. Every check
body takes the thing it tests as an argument, so the teeth tests run the same body on
broken variants (a sign flipped, a factor dropped, a step scaled).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from scipy.optimize import minimize

from algorithms.neural import BPParams
from mltheory import evidence
from mltheory.numeric import Tolerance, assert_close

__all__ = [
    "FINITE_DIFFERENCE",
    "StepFunction",
    "central_gradient",
    "check_bp_update",
    "check_descent",
    "check_gradient",
    "fit_network_lbfgs",
    "independent_errors",
    "independent_gradient",
    "independent_objective",
    "independent_sigmoid",
]

#: Central differences with h = 1e-6 on errors of size <= l/2: rounding about
#: eps * E / h ~ 1e-10, truncation h^2 |E'''| / 6 <= 1e-12 * 75^3 ~ 1e-7 at the steepest
#: drawn sigmoids (weights 25, inputs 3: slopes up to 75 per unit of a parameter).
FINITE_DIFFERENCE = Tolerance(
    rtol=1e-5, atol=2e-7,
    reason="central differences, h = 1e-6: rounding ~1e-10, truncation up to ~1e-7 "
    "where the drawn sigmoids are steepest (slope 75)",
)

#: Step of the central differences.
H = 1e-6

#: ``step(x, y, params, eta) -> BPParams`` of the updates for one sample.
StepFunction = Callable[[np.ndarray, np.ndarray, BPParams, float], BPParams]


def independent_sigmoid(z: np.ndarray) -> np.ndarray:
    """1 / (1 + e^{-z}) as exp(-log(1 + e^{-z})), overflow-free (not scipy's expit)."""
    return np.exp(-np.logaddexp(0.0, -z))


def independent_errors(flat: np.ndarray, X: np.ndarray, Y: np.ndarray,
                       dims: tuple[int, int, int]) -> np.ndarray:
    """E_k of (3.4) for every row, from the flat parameter vector (v, gamma, w, theta)."""
    d, q, l = dims  # noqa: E741
    v = flat[:d * q].reshape(d, q)
    gamma = flat[d * q:d * q + q]
    w = flat[d * q + q:d * q + q + q * l].reshape(q, l)
    theta = flat[d * q + q + q * l:]
    hidden = independent_sigmoid(X @ v - gamma)
    out = independent_sigmoid(hidden @ w - theta)
    return 0.5 * np.sum((out - Y) ** 2, axis=1)


def independent_objective(flat: np.ndarray, X: np.ndarray, Y: np.ndarray,
                          dims: tuple[int, int, int], lam: float | None = None) -> float:
    """E of (3.12), or (3.13) with ``lam``: lam E + (1 - lam) sum of every squared
    weight and threshold."""
    E = float(np.mean(independent_errors(flat, X, Y, dims)))
    return E if lam is None else lam * E + (1.0 - lam) * float(flat @ flat)


def independent_gradient(flat: np.ndarray, X: np.ndarray, Y: np.ndarray,
                         dims: tuple[int, int, int]) -> np.ndarray:
    """Gradient of E (3.12) by the chain rule, written from the definitions (3.3)-(3.4)."""
    d, q, l = dims  # noqa: E741
    m = X.shape[0]
    v = flat[:d * q].reshape(d, q)
    gamma = flat[d * q:d * q + q]
    w = flat[d * q + q:d * q + q + q * l].reshape(q, l)
    theta = flat[d * q + q + q * l:]
    hidden = independent_sigmoid(X @ v - gamma)                 # (m, q)
    out = independent_sigmoid(hidden @ w - theta)               # (m, l)
    d_pre_out = (out - Y) * out * (1.0 - out)                   # dE_k/d(beta - theta)
    d_hidden = d_pre_out @ w.T                                  # dE_k/db
    d_pre_hidden = d_hidden * hidden * (1.0 - hidden)           # dE_k/d(alpha - gamma)
    return np.concatenate([(X.T @ d_pre_hidden).ravel() / m, -d_pre_hidden.sum(0) / m,
                           (hidden.T @ d_pre_out).ravel() / m, -d_pre_out.sum(0) / m])


def central_gradient(fun: Callable[[np.ndarray], float], flat: np.ndarray,
                     h: float = H) -> np.ndarray:
    """(f(p + h e_i) - f(p - h e_i)) / 2h for every coordinate."""
    grad = np.empty_like(flat)
    for i in range(flat.size):
        up, down = flat.copy(), flat.copy()
        up[i] += h
        down[i] -= h
        grad[i] = (fun(up) - fun(down)) / (2.0 * h)
    return grad


def _record_gradient_error(analytic: np.ndarray, numeric: np.ndarray, label: str) -> None:
    scale = float(np.max(np.abs(numeric)))
    if scale > 1e-8:  # a relative figure only where the gradient is not itself rounding
        evidence.worst(f"{label}: largest |error| / max |gradient|",
                       float(np.max(np.abs(analytic - numeric))) / scale)


def check_bp_update(step: StepFunction, params: BPParams, x: np.ndarray, y: np.ndarray,
                    eta: float) -> None:
    """The updates of one standard-BP step equal -eta times the gradient of E_k (3.4) at
    the pre-update parameters, by central differences on the independent E_k."""
    dims = (params.v.shape[0], params.v.shape[1], params.w.shape[1])
    flat = params.flat()
    X, Y = x[None, :], y[None, :]
    numeric = central_gradient(lambda p: float(independent_errors(p, X, Y, dims)[0]), flat)
    delta = step(x, y, params, eta).flat()
    _record_gradient_error(-delta / eta, numeric, "standard BP step / (-eta) vs differences")
    assert_close(-delta / eta, numeric, FINITE_DIFFERENCE,
                 label="|update / (-eta) - central difference| / max(1, |gradient|)")


def check_gradient(gradient: Callable[[BPParams, np.ndarray, np.ndarray], BPParams],
                   params: BPParams, X: np.ndarray, Y: np.ndarray,
                   lam: float | None = None) -> None:
    """``gradient(params, X, Y)`` equals the central differences of (3.12), or of (3.13)
    with ``lam``."""
    dims = (params.v.shape[0], params.v.shape[1], params.w.shape[1])
    flat = params.flat()
    numeric = central_gradient(lambda p: independent_objective(p, X, Y, dims, lam), flat)
    analytic = gradient(params, X, Y).flat()
    _record_gradient_error(analytic, numeric, "gradient vs differences")
    # the weight-decay term reaches (1 - lam) ||p||^2 ~ 1e4 for weights of 25: the
    # differences then carry a rounding error of about eps * objective / h
    size = abs(independent_objective(flat, X, Y, dims, lam))
    rounding = 8.0 * np.finfo(float).eps * size / H
    tol = Tolerance(FINITE_DIFFERENCE.rtol, FINITE_DIFFERENCE.atol + rounding,
                    FINITE_DIFFERENCE.reason + ", plus 8 eps |objective| / h of rounding")
    assert_close(analytic, numeric, tol,
                 label="|gradient - central difference| / max(1, |gradient|)")


#: Steps 2^-20 .. 2^-24: at most 1e-6, where eta times the curvature of E_k (below
#: ~1e4 for the drawn networks) is below 1e-2, so the decrease is at least half of
#: the first-order prediction eta ||grad||^2 (Armijo with c = 1/2).
SMALL_STEPS = tuple(2.0 ** -k for k in range(20, 25))


def check_descent(step: StepFunction, params: BPParams, x: np.ndarray, y: np.ndarray) -> None:
    """For every small eta, a standard-BP step does not increase E_k, and where the
    decrease is resolvable in float64 it is at least half of eta ||grad E_k||^2."""
    dims = (params.v.shape[0], params.v.shape[1], params.w.shape[1])
    X, Y = x[None, :], y[None, :]
    flat = params.flat()
    before = float(independent_errors(flat, X, Y, dims)[0])
    grad = independent_gradient(flat, X, Y, dims)
    g2 = float(grad @ grad)
    for eta in SMALL_STEPS:
        after = float(independent_errors(flat + step(x, y, params, eta).flat(), X, Y, dims)[0])
        rounding = 8.0 * np.finfo(float).eps * max(before, np.finfo(float).tiny)
        if after > before + rounding:
            raise AssertionError(f"eta = {eta:.3g}: E_k rose from {before!r} to {after!r} "
                                 f"(||grad||^2 = {g2:.3g})")
        if eta * g2 > 1e6 * rounding:  # the predicted decrease dwarfs the rounding
            ratio = (before - after) / (eta * g2)
            evidence.worst("smallest (E_k - E_k') / (eta ||grad||^2)", ratio,
                           larger_is_worse=False)
            if ratio < 0.5:
                raise AssertionError(f"eta = {eta:.3g}: decrease {before - after:.3g} is below "
                                     f"half of eta ||grad||^2 = {eta * g2:.3g}")


def fit_network_lbfgs(X: np.ndarray, Y: np.ndarray, q: int, rng: np.random.Generator,
                      *, starts: int = 3, max_iter: int = 3000) -> tuple[np.ndarray, float]:
    """The best of ``starts`` L-BFGS fits of a d-q-l network to (X, Y) from random
    starts in (-1, 1), minimising the independent E (3.12) with its chain-rule
    gradient. Returns (flat parameters, E)."""
    d, l = X.shape[1], Y.shape[1]  # noqa: E741
    dims = (d, q, l)
    size = d * q + q + q * l + l
    best, best_E = None, np.inf
    for _ in range(starts):
        p0 = rng.uniform(-1.0, 1.0, size)
        res = minimize(independent_objective, p0, args=(X, Y, dims),
                       jac=independent_gradient, method="L-BFGS-B",
                       options={"maxiter": max_iter, "gtol": 1e-12, "ftol": 1e-15})
        if res.fun < best_E:
            best, best_E = res.x, float(res.fun)
    return best, best_E
