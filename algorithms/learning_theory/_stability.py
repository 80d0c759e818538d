"""Uniform stability of ridge regression, measured by refitting (003 §9.6).

The learner is ridge regression without intercept,

    w_D = argmin_w (1/m) sum_i (w.x_i - y_i)^2 + alpha ||w||^2
        = (X^T X + m alpha I)^{-1} X^T y,

with the squared loss ``l(w, (x, y)) = (w.x - y)^2`` on the bounded domain
``||x|| <= R``, ``|y| <= B``. The uniform stability (9.38) is a supremum over
the probe point ``z``; for this loss it is computed exactly (up to a dense
one-dimensional search) because the difference of two losses depends on ``x``
only through two inner products.
"""

from __future__ import annotations

import math

import numpy as np
from scipy.optimize import minimize_scalar

from algorithms._validation import check_array_argument, check_int, check_real

__all__ = [
    "RidgeStability",
    "max_loss_difference",
    "ridge_fit",
    "ridge_losses",
    "ridge_stability",
    "ridge_stability_bounds",
]

#: Largest number of matrix entries of the replaced datasets ridge_stability builds at
#: once (m * m * k * p float64 values, 400 MB).
MAX_BATCH_ENTRIES = 5 * 10**7

_ANGLES = np.linspace(0.0, np.pi, 2049)  # |g(x)| = |g(-x)|: half a turn suffices


def _data(X: object, y: object, names: tuple[str, str] = ("X", "y")
          ) -> tuple[np.ndarray, np.ndarray]:
    Xa = check_array_argument(X, names[0], ndim=2, real=True)
    ya = check_array_argument(y, names[1], ndim=1, real=True)
    if ya.shape[0] != Xa.shape[0]:
        raise ValueError(f"{names[0]} and {names[1]} must have as many rows: {names[0]} has "
                         f"{Xa.shape[0]}, {names[1]} has {ya.shape[0]}")
    return Xa, ya


def _exponent(arr: np.ndarray) -> int:
    """``k`` with ``max |arr|`` in ``[2^(k-1), 2^k)`` (0 for an all-zero array)."""
    top = float(np.max(np.abs(arr))) if arr.size else 0.0
    return math.frexp(top)[1] if top > 0 else 0


def _finite(value: np.ndarray | float, what: str) -> np.ndarray | float:
    if not np.all(np.isfinite(value)):
        raise ValueError(f"{what} overflows float64 for inputs of this magnitude; rescale "
                         "the inputs.")
    return value


def _solve_batch(X: np.ndarray, y: np.ndarray, alpha: float) -> np.ndarray:
    """Ridge weights for a batch of datasets X (B, n, p), y (B, n).

    Scale-robust: with ``X = 2^a X'`` and ``y = 2^b y'`` (exact), the weights are
    ``w = 2^(b-a) w'(X', y', alpha 2^(-2a))``, so the Gram matrix never overflows or
    underflows, and the system is solved through the SVD of ``X'`` (accurate even when the
    penalty is far below ``||X'||^2`` on a rank-deficient ``X'``). When the rescaled
    ``alpha`` underflows to 0 (``|X|`` near 1e300) the minimum-norm least-squares solution
    is returned; when it overflows, ``w = X^T y / (m alpha)`` to float64 precision.
    """
    n, p = X.shape[-2], X.shape[-1]
    a, b = _exponent(X), _exponent(y)
    Xs, ys = np.ldexp(X, -a), np.ldexp(y, -b)
    try:
        alpha_s = math.ldexp(alpha, -2 * a)
    except OverflowError:
        # alpha 2^(-2a) beyond float64 (|X| below ~1e-154): the penalty dominates X'^T X' by
        # a factor beyond 2^1000, so w = X^T y / (m alpha) to float64 precision.
        rhs = np.einsum("bnp,bn->bp", Xs, ys)
        return _finite(np.ldexp(rhs / (n * alpha), b + a), "the ridge weights")
    # w' = V diag(s / (s^2 + m alpha')) U^T y' from the SVD of X': no Gram matrix, whose
    # rounding would swamp a penalty below eps ||X'||^2 on a rank-deficient X'.
    U, sv, Vt = np.linalg.svd(Xs, full_matrices=False)
    if alpha_s > 0.0:
        factor = sv / (sv * sv + n * alpha_s)
    else:  # the penalty underflowed: the minimum-norm least-squares limit
        cut = np.finfo(np.float64).eps * max(n, p) * sv.max(axis=-1, keepdims=True)
        factor = np.where(sv > cut, 1.0 / np.where(sv > cut, sv, 1.0), 0.0)
    w = np.einsum("bkp,bk->bp", Vt, factor * np.einsum("bnk,bn->bk", U, ys))
    return _finite(np.ldexp(w, b - a), "the ridge weights")


def ridge_fit(X: object, y: object, alpha: float) -> np.ndarray:
    """Ridge weights ``(X^T X + m alpha I)^{-1} X^T y`` (no intercept), shape (p,)."""
    Xa, ya = _data(X, y)
    alpha = check_real(alpha, "alpha", low=0.0, low_open=True)
    return _solve_batch(Xa[None], ya[None], alpha)[0]


def ridge_losses(X: object, y: object, alpha: float) -> tuple[float, float]:
    """Empirical loss (9.36) and leave-one-out loss (9.37) of ridge with squared loss.

    The leave-one-out models are refitted on the m - 1 remaining examples (same
    ``alpha``), all at once as a batch. Needs ``m >= 2``.
    """
    Xa, ya = _data(X, y)
    alpha = check_real(alpha, "alpha", low=0.0, low_open=True)
    m = Xa.shape[0]
    if m < 2:
        raise ValueError("X must hold at least 2 examples for a leave-one-out loss")
    w = _solve_batch(Xa[None], ya[None], alpha)[0]
    with np.errstate(over="ignore"):  # an overflow is refused below, with a clear message
        empirical = float(np.mean((Xa @ w - ya) ** 2))
    keep = ~np.eye(m, dtype=bool)
    X_loo = np.stack([Xa[keep[i]] for i in range(m)])
    y_loo = np.stack([ya[keep[i]] for i in range(m)])
    W = _solve_batch(X_loo, y_loo, alpha)  # (m, p): model i never saw example i
    with np.errstate(over="ignore"):
        loo = float(np.mean((np.einsum("ip,ip->i", W, Xa) - ya) ** 2))
    return (_finite(empirical, "the empirical squared loss of X, y"),
            _finite(loo, "the leave-one-out squared loss of X, y"))


def max_loss_difference(W1: object, W2: object, radius: float, y_bound: float) -> np.ndarray:
    """``sup_{||x|| <= R, |y| <= B} |(w1.x - y)^2 - (w2.x - y)^2|`` for each pair of rows.

    The difference is ``(a.x) (s.x - 2y)`` with ``a = w1 - w2``, ``s = w1 + w2``;
    the sup over y gives ``|a.x| (|s.x| + 2B)``, which grows along rays, so x lies
    on the sphere, and ``(a.x, s.x)`` then runs over the ellipse ``R G^{1/2} u``
    (``G`` the 2 x 2 Gram matrix of a and s, ``u`` on the unit circle). The
    maximum over the angle of u is found on a 2049-point grid, then polished
    with a bounded scalar search around the best grid point.
    """
    A = np.atleast_2d(check_array_argument(W1, "W1", real=True))
    S2 = np.atleast_2d(check_array_argument(W2, "W2", real=True))
    if A.ndim != 2 or A.shape != S2.shape:
        raise ValueError(f"W1 and W2 must be (K, p) arrays of the same shape, got {A.shape}, "
                         f"{S2.shape}")
    radius = check_real(radius, "radius", low=0.0, low_open=True)
    y_bound = check_real(y_bound, "y_bound", low=0.0, low_open=True)
    # Homogeneity, exact in powers of two: g(W1, W2, R, B) = c^2 g(W1/c, W2/c, R, B/c) and
    # g(., R, B) = c^2 g(., R/c, B/c); the work is done on magnitudes near 1.
    k1 = _exponent(np.concatenate([A.ravel(), S2.ravel()]))
    A, S2, y_bound = np.ldexp(A, -k1), np.ldexp(S2, -k1), math.ldexp(y_bound, -k1)
    k2 = math.frexp(max(radius, y_bound))[1]
    radius, y_bound = math.ldexp(radius, -k2), math.ldexp(y_bound, -k2)
    a, s = A - S2, A + S2
    G = np.stack([np.stack([np.sum(a * a, 1), np.sum(a * s, 1)], -1),
                  np.stack([np.sum(a * s, 1), np.sum(s * s, 1)], -1)], -2)  # (K, 2, 2)
    vals, vecs = np.linalg.eigh(G)
    root = np.einsum("kij,kj,klj->kil", vecs, np.sqrt(np.clip(vals, 0.0, None)), vecs)
    circle = np.stack([np.cos(_ANGLES), np.sin(_ANGLES)])  # (2, T)
    proj = radius * np.einsum("kij,jt->kit", root, circle)  # (K, 2, T): (a.x, s.x)
    g = np.abs(proj[:, 0]) * (np.abs(proj[:, 1]) + 2.0 * y_bound)
    best = np.argmax(g, axis=1)
    out = g[np.arange(g.shape[0]), best]
    step = _ANGLES[1] - _ANGLES[0]
    for k in range(g.shape[0]):  # polish: a handful of pairs, 1-D each

        def neg(theta: float, k: int = k) -> float:
            u = np.array([math.cos(theta), math.sin(theta)])
            ax, sx = radius * (root[k] @ u)
            return -abs(ax) * (abs(sx) + 2.0 * y_bound)

        theta0 = _ANGLES[best[k]]
        res = minimize_scalar(neg, bounds=(theta0 - step, theta0 + step), method="bounded",
                              options={"xatol": 1e-12})
        out[k] = max(out[k], -float(res.fun))
    with np.errstate(over="ignore"):  # an overflow is refused, with a clear message
        return _finite(np.ldexp(out, 2 * (k1 + k2)),
                       "the largest loss difference of W1, W2 (radius, y_bound)")


class RidgeStability:
    """Result of :func:`ridge_stability`: the measured stabilities and where they occur."""

    def __init__(self, replace: float, remove: float, per_example_replace: np.ndarray,
                 per_example_remove: np.ndarray) -> None:
        self.replace = check_real(replace, "replace", low=0.0)
        self.remove = check_real(remove, "remove", low=0.0)
        self.per_example_replace = check_array_argument(per_example_replace,
                                                        "per_example_replace", ndim=1,
                                                        real=True)
        self.per_example_remove = check_array_argument(per_example_remove,
                                                       "per_example_remove", ndim=1, real=True)
        if self.per_example_remove.shape != self.per_example_replace.shape:
            raise ValueError("per_example_replace and per_example_remove must have one entry "
                             "per example each (the same length)")

    def __repr__(self) -> str:
        return f"RidgeStability(replace={self.replace:.6g}, remove={self.remove:.6g})"


def ridge_stability(X: object, y: object, alpha: float, X_new: object, y_new: object, *,
                    radius: float, y_bound: float) -> RidgeStability:
    """Measure the uniform stability (9.38) of ridge on one dataset.

    For every example i, the model on D is compared with the model on ``D^i``
    (example i replaced by each candidate ``(X_new[k], y_new[k])``) and with the
    model on ``D^{\\i}`` (example i removed); the loss difference is maximised
    exactly over all probe points ``||x|| <= radius``, ``|y| <= y_bound``.

    Returns
    -------
    RidgeStability
        ``replace`` and ``remove``: the largest differences found (lower bounds
        on the true uniform stabilities, which also take a sup over datasets).
    """
    Xa, ya = _data(X, y)
    Xn, yn = _data(X_new, y_new, ("X_new", "y_new"))
    alpha = check_real(alpha, "alpha", low=0.0, low_open=True)
    radius = check_real(radius, "radius", low=0.0, low_open=True)
    y_bound = check_real(y_bound, "y_bound", low=0.0, low_open=True)
    if Xn.shape[1] != Xa.shape[1]:
        raise ValueError("X_new must have as many columns as X")
    with np.errstate(over="ignore"):  # rows far outside the ball give inf: refused too
        norms = np.linalg.norm(np.vstack([Xa, Xn]) / radius, axis=1)
    if np.any(norms > 1 + 1e-12):
        raise ValueError("every row of X and X_new must have norm <= radius")
    if np.any(np.abs(np.concatenate([ya, yn])) > y_bound * (1 + 1e-12)):
        raise ValueError("every target in y and y_new must satisfy |y| <= y_bound")
    m, k = Xa.shape[0], Xn.shape[0]
    if m < 2:
        raise ValueError("X must hold at least 2 examples")
    if m * m * k * Xa.shape[1] > MAX_BATCH_ENTRIES:
        raise ValueError(f"X ({m} x {Xa.shape[1]}) with {k} candidates in X_new needs "
                         f"{m * m * k * Xa.shape[1]:.3g} > {MAX_BATCH_ENTRIES:.0e} matrix "
                         "entries for the refitted datasets; use fewer examples or candidates")
    w = _solve_batch(Xa[None], ya[None], alpha)[0]
    # Replacement: (m * k) datasets.
    Xr = np.repeat(Xa[None], m * k, axis=0)
    yr = np.repeat(ya[None], m * k, axis=0)
    rows = np.arange(m * k)
    Xr[rows, np.repeat(np.arange(m), k)] = np.tile(Xn, (m, 1))
    yr[rows, np.repeat(np.arange(m), k)] = np.tile(yn, m)
    Wr = _solve_batch(Xr, yr, alpha)
    diff_r = max_loss_difference(np.repeat(w[None], m * k, 0), Wr, radius, y_bound)
    per_replace = diff_r.reshape(m, k).max(axis=1)
    keep = ~np.eye(m, dtype=bool)
    Wd = _solve_batch(np.stack([Xa[keep[i]] for i in range(m)]),
                      np.stack([ya[keep[i]] for i in range(m)]), alpha)
    per_remove = max_loss_difference(np.repeat(w[None], m, 0), Wd, radius, y_bound)
    return RidgeStability(float(per_replace.max()), float(per_remove.max()), per_replace,
                          per_remove)


def ridge_stability_bounds(m: int, alpha: float, radius: float, y_bound: float) -> dict:
    """Proven uniform-stability bounds for ridge with squared loss, and the loss bound M.

    With ``F(w) = (1/m) sum l_i(w) + alpha ||w||^2`` (``2 alpha``-strongly convex),
    ``||w_D|| <= B / sqrt(alpha)`` (compare ``F(w_D)`` with ``F(0) <= B^2``), so
    predictions satisfy ``|w.x| <= R B / sqrt(alpha)`` and the loss is
    ``sigma``-Lipschitz in the prediction with ``sigma = 2 (R B / sqrt(alpha) + B)``.

    - replacement (``D^i``): adding the two strong-convexity inequalities gives
      ``||w_D - w_{D^i}|| <= sigma R / (alpha m)``, so
      ``beta <= sigma^2 R^2 / (alpha m)``;
    - removal (``D^{\\i}``, refitted with the same alpha): ``w_{D^{\\i}}`` has
      ``grad F = (grad l_i + 2 alpha w) / m`` at it, so
      ``||w_D - w_{D^{\\i}}|| <= (sigma R + 2 sqrt(alpha) B) / (2 alpha m)`` and
      ``beta <= sigma R (sigma R + 2 sqrt(alpha) B) / (2 alpha m)``.

    Both are ``O(1/m)``. ``M = (R B / sqrt(alpha) + B)^2`` bounds the loss.
    """
    m = check_int(m, "m", low=1, integral_floats=True)
    alpha = check_real(alpha, "alpha", low=0.0, low_open=True)
    radius = check_real(radius, "radius", low=0.0, low_open=True)
    y_bound = check_real(y_bound, "y_bound", low=0.0, low_open=True)
    pred = radius * y_bound / math.sqrt(alpha)
    sigma = 2.0 * (pred + y_bound)
    bounds = {  # products, not powers: an overflow gives inf (refused below), not an error
        "replace": (sigma * sigma) * (radius * radius) / (alpha * m),
        "remove": sigma * radius * (sigma * radius + 2.0 * math.sqrt(alpha) * y_bound)
        / (2.0 * alpha * m),
        "loss_bound": (pred + y_bound) * (pred + y_bound),
    }
    _finite(np.array(list(bounds.values())), "the stability bounds (one of them)")
    return bounds
