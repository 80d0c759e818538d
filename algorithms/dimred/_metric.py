"""Weighted Euclidean and Mahalanobis distances (003 §8.6 (8.25)-(8.26)).

(8.25): ``dist_wed^2(x_i, x_j) = sum_k w_k (x_ik - x_jk)^2 = (x_i - x_j)^T W (x_i - x_j)``
with ``W = diag(w)``, ``w >= 0``. (8.26): ``dist_mah^2 = (x_i - x_j)^T M (x_i - x_j) =
||x_i - x_j||_M^2`` for a symmetric positive semi-definite ``M``; writing ``M = P P^T``
makes it ``||P^T (x_i - x_j)||^2``, a squared Euclidean distance after the linear map
``P^T``, hence ``>= 0`` and a pseudo-metric (a metric when ``M`` is positive definite).
A matrix that is not symmetric PSD is refused: its "distance" can be negative.
"""

from __future__ import annotations

import math

import numpy as np
from scipy import linalg

from algorithms._validation import check_array_argument, check_bool

__all__ = [
    "check_metric_matrix",
    "mahalanobis_distance",
    "metric_from_projection",
    "weighted_euclidean_distance",
]

#: Symmetry and PSD are checked up to this multiple of max |M| (float64 rounding of a
#: product P P^T or of an eigendecomposition is ~d * 1e-16 of it).
_PSD_RTOL = 1e-10


def _pair(a: object, b: object) -> tuple[np.ndarray, np.ndarray]:
    a = check_array_argument(a, "a", real=True)
    b = check_array_argument(b, "b", real=True)
    if a.ndim not in (1, 2) or b.ndim not in (1, 2):
        raise ValueError(f"a and b must be vectors (d,) or rows (n, d), got shapes {a.shape} "
                         f"and {b.shape}.")
    try:
        np.broadcast_shapes(a.shape, b.shape)
    except ValueError as exc:
        raise ValueError(f"a and b must have the same number of coordinates, got shapes "
                         f"{a.shape} and {b.shape}.") from exc
    if a.shape[-1] != b.shape[-1]:
        raise ValueError(f"a and b must have the same number of coordinates, got shapes "
                         f"{a.shape} and {b.shape}.")
    return a, b


def _finish(q: np.ndarray, s: float, squared: bool, factor: float = 1.0):
    """Distance from the quadratic form ``q`` of the scaled difference (scale ``s``, then
    ``factor``: 2 where the difference was halved, applied last so that a representable
    distance is not lost to an overflowing scale)."""
    q = np.maximum(q, 0.0)  # rounding of a PSD form can dip below 0 by ~1e-16 of its size
    out = (q * s * s) * factor * factor if squared else (np.sqrt(q) * s) * factor
    return float(out) if out.ndim == 0 else out


def weighted_euclidean_distance(a: object, b: object, weights: object, *,
                                squared: bool = False):
    """Weighted Euclidean distance (003 §8.6 (8.25)).

    Parameters
    ----------
    a, b : array-like (d,) or (n, d)
        Points (rows are paired, broadcasting allowed).
    weights : array-like (d,)
        ``w_k >= 0``, one per attribute.
    squared : bool, default False
        Return ``sum_k w_k (a_k - b_k)^2`` instead of its square root.

    Returns
    -------
    float or ndarray (n,)
    """
    a, b = _pair(a, b)
    w = check_array_argument(weights, "weights", shape=(a.shape[-1],), real=True)
    if np.any(w < 0):
        raise ValueError(f"weights must be non-negative, got {float(w.min())!r}.")
    squared = check_bool(squared, "squared")
    with np.errstate(over="ignore", invalid="ignore"):
        halved = not np.all(np.isfinite(a - b))
    diff = a / 2 - b / 2 if halved else a - b
    s = float(np.max(np.abs(diff))) or 1.0
    ws = float(np.max(w)) or 1.0
    u = diff / s
    q = (u * u) @ (w / ws)
    return _finish(np.asarray(q), s * math.sqrt(ws), squared, 2.0 if halved else 1.0)


def check_metric_matrix(M: object, name: str = "M") -> np.ndarray:
    """``M`` as a symmetric positive semi-definite (d, d) float array, or ValueError.

    Symmetry and the smallest eigenvalue are checked up to ``1e-10 * max |M|``.
    """
    M = check_array_argument(M, name, ndim=2, real=True)
    if M.shape[0] != M.shape[1]:
        raise ValueError(f"{name} must be a square (d, d) matrix, got shape {M.shape}.")
    top = float(np.max(np.abs(M)))
    if np.max(np.abs(M - M.T)) > _PSD_RTOL * top:
        raise ValueError(f"{name} must be symmetric (a metric matrix M = P P^T).")
    scaled = M / top if top > 0 else M
    low = float(linalg.eigvalsh(0.5 * (scaled + scaled.T))[0])
    if low < -_PSD_RTOL:
        raise ValueError(f"{name} must be positive semi-definite (M = P P^T); its smallest "
                         f"eigenvalue is {low * top:.6g} < 0, so (x - y)^T M (x - y) can be "
                         "negative.")
    return M


def metric_from_projection(P: object) -> np.ndarray:
    """``M = P P^T`` (d, d) from a projection ``P`` (d, d'): symmetric PSD by construction."""
    P = check_array_argument(P, "P", ndim=2, real=True)
    s = float(np.max(np.abs(P))) or 1.0
    Ps = P / s
    M = Ps @ Ps.T
    M = 0.5 * (M + M.T) * (s * s)
    if not np.all(np.isfinite(M)):
        raise ValueError(f"P has entries of magnitude {s:.3g}: P P^T overflows float64.")
    return M


def mahalanobis_distance(a: object, b: object, M: object = None, *, P: object = None,
                         squared: bool = False):
    """Mahalanobis distance ``||a - b||_M`` (003 §8.6 (8.26)).

    Parameters
    ----------
    a, b : array-like (d,) or (n, d)
        Points (rows are paired, broadcasting allowed).
    M : array-like (d, d), optional
        Symmetric positive semi-definite metric matrix (checked).
    P : array-like (d, d'), optional
        Instead of ``M``: the factor with ``M = P P^T``; the distance is
        ``||P^T (a - b)||``. Exactly one of ``M`` and ``P``.
    squared : bool, default False
        Return ``(a - b)^T M (a - b)``.

    Returns
    -------
    float or ndarray (n,)
    """
    a, b = _pair(a, b)
    squared = check_bool(squared, "squared")
    if (M is None) == (P is None):
        raise ValueError("Exactly one of M and P must be given (M = P P^T).")
    d = a.shape[-1]
    with np.errstate(over="ignore", invalid="ignore"):
        finite = np.all(np.isfinite(a - b))
    diff = a - b if finite else a / 2 - b / 2
    s = float(np.max(np.abs(diff))) or 1.0
    u = diff / s
    if P is not None:
        P = check_array_argument(P, "P", ndim=2, real=True)
        if P.shape[0] != d:
            raise ValueError(f"P must have d = {d} rows, got shape {P.shape}.")
        ps = float(np.max(np.abs(P))) or 1.0
        v = u @ (P / ps)
        q = np.sum(v * v, axis=-1)
        scale = s * ps
    else:
        M = check_metric_matrix(M)
        if M.shape[0] != d:
            raise ValueError(f"M must be ({d}, {d}), got shape {M.shape}.")
        ms = float(np.max(np.abs(M))) or 1.0
        q = np.sum((u @ (M / ms)) * u, axis=-1)
        scale = s * math.sqrt(ms)
    return _finish(np.asarray(q), scale, squared, 1.0 if finite else 2.0)
