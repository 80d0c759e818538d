"""Distances of 003 §7.3 (7.11)-(7.15): Minkowski, VDM and MinkovDM.

- Minkowski (7.11) ``dist_mk(x, z) = (sum_u |x_u - z_u|^p)^(1/p)``: Euclidean at ``p = 2``
  (7.12), Manhattan at ``p = 1`` (7.13), Chebyshev in the limit ``p -> inf``; with
  attribute weights ``w_u >= 0``, ``sum_u w_u = 1`` the weighted distance
  ``(sum_u w_u |x_u - z_u|^p)^(1/p)`` ("加权距离" of §7.3).
- VDM (7.14) on an unordered attribute ``u``: with ``m_{u,a}`` the number of samples taking
  value ``a`` and ``m_{u,a,i}`` those of them in cluster ``i``,
  ``VDM_p(a, b) = sum_i |m_{u,a,i}/m_{u,a} - m_{u,b,i}/m_{u,b}|^p``. Each value ``a`` has a
  *profile* ``P_a = (m_{u,a,i}/m_{u,a})_i`` (its distribution over the ``k`` clusters)
  and ``VDM_p(a, b) = ||P_a - P_b||_p^p``.
- MinkovDM (7.15) with the ``n_c`` ordered attributes first:
  ``(sum_{u <= n_c} |x_u - z_u|^p + sum_{u > n_c} VDM_p(x_u, z_u))^(1/p)``, i.e. the
  Minkowski distance between the vectors ``(x_1..x_{n_c}, P_{x_{n_c+1}}, ..., P_{x_n})``.

Only ``p >= 1`` gives a triangle inequality (the Minkowski inequality); the functions
accept any ``p > 0`` so that the failure for ``p < 1`` can be exhibited.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike
from scipy.spatial.distance import cdist

from algorithms._validation import (
    InvalidArgumentError,
    check_array_argument,
    check_int,
    check_real,
)

__all__ = [
    "MixedDistance",
    "ValueProfiles",
    "minkowski_distance",
    "value_difference",
    "value_profiles",
]

#: Two attribute weights are taken to sum to 1 up to this float64 rounding slack.
_WEIGHT_SUM_SLACK = 1e-9


#: Data whose largest magnitude lies in [2^-EXACT_SCALE_RANGE, 2^EXACT_SCALE_RANGE] are
#: used as given; outside, distances are computed on the data divided by a power of two
#: (p-th powers of 2^200 stay far inside float64 for the usual p <= 4).
EXACT_SCALE_RANGE = 200


#: Above this finite exponent the p-th powers of scipy's Minkowski distances over- or
#: underflow for ordinary data (0.06^200 is 0 in float64); distances are then computed
#: by :func:`_lp`, which divides each difference by its largest entry first.
LARGE_P = 64.0


def exact_scale(X: np.ndarray, p: float = 2.0) -> float:
    """A power of two ``s`` such that ``X / s`` has its largest magnitude in [0.5, 1) when
    ``max |X|`` lies outside ``[2^-r, 2^r]``, else 1; ``r`` is 200 for ``p <= 4`` (or
    ``p = inf``) and ``800 / p`` bits for larger ``p``, so that ``|x|^p`` stays finite.

    Dividing by ``s`` and multiplying a distance back by ``s`` are exact (no rounding), so
    distances of data near the float64 limits (x 1e300, x 1e-300) are computed without
    overflow or underflow of their powers, and other data are untouched.
    """
    bits = EXACT_SCALE_RANGE if p <= 4 or math.isinf(p) else max(1, int(800 / p))
    top = float(np.max(np.abs(X))) if X.size else 0.0
    if top == 0.0 or 2.0**-bits <= top <= 2.0**bits:
        return 1.0
    return math.ldexp(1.0, math.frexp(top)[1])


def minkowski_matrix(A: np.ndarray, B: np.ndarray, p: float) -> np.ndarray:
    """The (len(A), len(B)) Minkowski distances (7.11) between the rows of ``A`` and
    ``B``: scipy's ``cdist`` up to :data:`LARGE_P` (and for ``p = inf``), :func:`_lp` on
    each pair's differences above it (no power over- or underflows)."""
    if math.isinf(p):
        return cdist(A, B, "chebyshev")
    if p <= LARGE_P:
        return recompute_underflowed(cdist(A, B, "minkowski", p=p), A, B, p)
    out = np.empty((A.shape[0], B.shape[0]))
    rows = max(1, _LP_BLOCK_ENTRIES // max(1, B.shape[0] * A.shape[1]))
    for start in range(0, A.shape[0], rows):
        out[start:start + rows] = _lp(A[start:start + rows, None, :] - B[None, :, :], p)
    return out


#: Entries of the difference blocks of :func:`minkowski_matrix` at large p (32 MiB).
_LP_BLOCK_ENTRIES = 2**22


def recompute_underflowed(D: np.ndarray, A: np.ndarray, B: np.ndarray, p: float
                          ) -> np.ndarray:
    """``D`` (Minkowski distances of the rows of ``A`` and ``B`` from ``sum |d_u|^p``, as
    scipy computes them) with every entry whose largest term ``|d_u|^p`` may have been
    subnormal or 0 recomputed by :func:`_lp` (in place; returned). Such an entry is below
    ``(n 2^-1022)^(1/p)``: at ``p = 64`` two points ``1e-6`` apart came out at distance 0.
    Above that level the largest term is a normal float and the sum is exact to rounding.
    """
    level = math.exp2((math.log2(max(A.shape[1], 1)) - 1022.0) / p)
    i, j = np.nonzero(D < level)
    step = max(1, _LP_BLOCK_ENTRIES // max(1, A.shape[1]))
    for start in range(0, i.shape[0], step):
        rows, cols = i[start:start + step], j[start:start + step]
        D[rows, cols] = _lp(A[rows] - B[cols], p)
    return D


def _exponent(p: object) -> float:
    return check_real(p, "p", low=0.0, low_open=True, allow_inf=True)


def _lp(diff: np.ndarray, p: float, weights: np.ndarray | None = None) -> np.ndarray:
    """``(sum_u w_u |diff_u|^p)^(1/p)`` over the last axis (max for ``p = inf``).

    The terms are divided by the largest ``|diff_u|`` before the power, so large ``p``
    neither underflows nor overflows (``|d|^p`` of ``d = 0.06``, ``p = 200`` is 0 in float64).
    """
    a = np.abs(diff)
    if weights is not None:
        a = np.where(weights > 0, a, 0.0)
    top = a.max(axis=-1, initial=0.0)
    if math.isinf(p):
        return top
    safe = np.where(top > 0, top, 1.0)
    ratio = a / np.expand_dims(safe, -1)
    powered = ratio**p if weights is None else weights * ratio**p
    return top * np.sum(powered, axis=-1) ** (1.0 / p)


def minkowski_distance(
    x: ArrayLike, z: ArrayLike, p: float = 2.0, *, weights: ArrayLike | None = None
) -> float | np.ndarray:
    """The Minkowski distance (7.11), optionally weighted.

    Parameters
    ----------
    x, z : array-like of shape (..., n)
        Points (broadcast against each other: rows of two matrices, a point against a
        matrix, ...).
    p : float, default=2.0
        Exponent ``p > 0``; ``inf`` gives the Chebyshev distance ``max_u |x_u - z_u|``.
        ``p >= 1`` for a metric.
    weights : array-like of shape (n,), optional
        Attribute weights ``w_u >= 0`` summing to 1.

    Returns
    -------
    float or ndarray
        One distance per broadcast row.

    References
    ----------
    003 §7.3 (7.11)-(7.13).
    """
    p = _exponent(p)
    xa = check_array_argument(x, "x", allow_empty=True, real=True)
    za = check_array_argument(z, "z", allow_empty=True, real=True)
    if xa.ndim == 0 or za.ndim == 0 or xa.shape[-1] != za.shape[-1]:
        raise ValueError(f"x and z must have the same number of attributes, got shapes "
                         f"{xa.shape} and {za.shape}.")
    w = None
    if weights is not None:
        w = check_array_argument(weights, "weights", shape=(xa.shape[-1],), real=True)
        if np.any(w < 0) or abs(float(w.sum()) - 1.0) > _WEIGHT_SUM_SLACK:
            raise ValueError("weights must be non-negative and sum to 1.")
    out = _lp(xa - za, p, w)
    return float(out) if out.ndim == 0 else out


@dataclass(frozen=True)
class ValueProfiles:
    """The cluster profiles of the values of one unordered attribute (7.14).

    Attributes
    ----------
    values : ndarray of shape (V,)
        The distinct values seen, sorted.
    counts : ndarray of shape (V, k)
        ``m_{u,a,i}``: samples with value ``a`` in cluster ``i``.
    profiles : ndarray of shape (V, k)
        ``m_{u,a,i} / m_{u,a}``.
    """

    values: np.ndarray
    counts: np.ndarray
    profiles: np.ndarray

    def index(self, a: ArrayLike, name: str = "value") -> np.ndarray:
        """Positions of values in :attr:`values` (ValueError for a value never seen:
        ``m_{u,a} = 0`` makes (7.14) 0/0)."""
        arr = np.asarray(a, dtype=object)
        position = {v: i for i, v in enumerate(self.values.tolist())}
        idx = [position.get(v, -1) for v in arr.ravel().tolist()]
        if -1 in idx:
            raise ValueError(f"{name} contains a value not seen in the data "
                             f"(m_ua = 0 makes VDM 0/0); seen: {self.values.tolist()[:10]}.")
        return np.asarray(idx, dtype=np.intp).reshape(arr.shape)

    def distance(self, a: ArrayLike, b: ArrayLike, p: float = 2.0) -> float | np.ndarray:
        """``VDM_p(a, b)`` of (7.14) (no ``1/p`` root)."""
        p = _exponent(p)
        diff = self.profiles[self.index(a, "a")] - self.profiles[self.index(b, "b")]
        out = _lp(diff, p) ** p if not math.isinf(p) else _lp(diff, p)
        return float(out) if np.ndim(out) == 0 else out


def _sorted_codes(arr: np.ndarray, name: str) -> tuple[np.ndarray, np.ndarray]:
    """``np.unique(arr, return_inverse=True)`` with an error naming ``arr`` when its
    values cannot be ordered (numbers mixed with strings)."""
    try:
        return np.unique(arr, return_inverse=True)
    except TypeError as exc:
        raise InvalidArgumentError(f"{name} must hold mutually comparable values (all "
                                   f"numbers or all strings): {exc}") from exc


def value_profiles(values: ArrayLike, clusters: ArrayLike) -> ValueProfiles:
    """Count ``m_{u,a}`` and ``m_{u,a,i}`` of (7.14) for one unordered attribute.

    Parameters
    ----------
    values : array-like of shape (m,)
        The attribute's value for each sample (any hashable, sortable values).
    clusters : array-like of shape (m,)
        The cluster (or class) of each sample.

    Returns
    -------
    ValueProfiles
    """
    return _value_profiles(values, clusters, "values")


def _value_profiles(values: ArrayLike, clusters: ArrayLike, name: str) -> ValueProfiles:
    """:func:`value_profiles`, naming the values ``name`` in its errors."""
    vals = check_array_argument(values, name, ndim=1, dtype=None, real=True)
    cl = check_array_argument(clusters, "clusters", ndim=1, dtype=None, real=True)
    if vals.shape[0] != cl.shape[0]:
        raise ValueError(f"{name} and clusters must have the same length, got "
                         f"{vals.shape[0]} and {cl.shape[0]}.")
    uniq, v_codes = _sorted_codes(vals, name)
    _, c_codes = _sorted_codes(cl, "clusters")
    k = int(c_codes.max()) + 1
    counts = np.zeros((uniq.shape[0], k))
    np.add.at(counts, (v_codes.reshape(-1), c_codes.reshape(-1)), 1.0)
    profiles = counts / counts.sum(axis=1, keepdims=True)
    return ValueProfiles(values=uniq, counts=counts, profiles=profiles)


def value_difference(
    a: object, b: object, values: ArrayLike, clusters: ArrayLike, p: float = 2.0
) -> float:
    """``VDM_p(a, b)`` of (7.14) for two values of one attribute.

    Parameters
    ----------
    a, b : object
        Two values seen in ``values``.
    values : array-like of shape (m,)
        The attribute over the samples.
    clusters : array-like of shape (m,)
        The samples' clusters.
    p : float, default=2.0
        Exponent ``p > 0``.

    Returns
    -------
    float

    References
    ----------
    003 §7.3 (7.14).
    """
    return float(value_profiles(values, clusters).distance(a, b, p))


class MixedDistance:
    """MinkovDM (7.15) for samples whose first ``n_ordered`` attributes are ordered.

    Parameters
    ----------
    n_ordered : int
        ``n_c``: the ordered attributes come first (0 <= n_c <= n).
    p : float, default=2.0
        Exponent ``p > 0`` (>= 1 for a triangle inequality).

    Attributes (after :meth:`fit`)
    ------------------------------
    profiles_ : list of ValueProfiles
        One per unordered attribute ``u > n_c``.

    References
    ----------
    003 §7.3 (7.14)-(7.15).
    """

    def __init__(self, n_ordered: int, *, p: float = 2.0) -> None:
        self.n_ordered = n_ordered
        self.p = p

    def fit(self, X: ArrayLike, clusters: ArrayLike) -> MixedDistance:
        """Count the VDM profiles of the unordered attributes of ``X`` over ``clusters``.

        ``X`` is an (m, n) array (object dtype when the unordered attributes are not
        numbers).
        """
        X = check_array_argument(X, "X", ndim=2, dtype=None, real=True)
        self.n_ordered_ = check_int(self.n_ordered, "n_ordered", low=0, high=X.shape[1])
        self.p_ = _exponent(self.p)
        self.n_attributes_ = X.shape[1]
        self.profiles_ = [_value_profiles(X[:, u], clusters, "X")
                          for u in range(self.n_ordered_, X.shape[1])]
        return self

    def embed(self, X: ArrayLike) -> np.ndarray:
        """Rows ``(x_1..x_{n_c}, P_{x_{n_c+1}}, ..., P_{x_n})``: MinkovDM is the Minkowski
        distance (7.11) between these rows."""
        X = check_array_argument(X, "X", ndim=2, dtype=None)
        if X.shape[1] != self.n_attributes_:
            raise ValueError(f"X must have {self.n_attributes_} attributes, got {X.shape[1]}.")
        ordered = check_array_argument(X[:, :self.n_ordered_], "X (ordered attributes)",
                                       allow_empty=True)
        parts = [ordered] + [prof.profiles[prof.index(X[:, self.n_ordered_ + u], "X")]
                             for u, prof in enumerate(self.profiles_)]
        return np.hstack(parts) if parts else np.zeros((X.shape[0], 0))

    def distance(self, x: ArrayLike, z: ArrayLike) -> float | np.ndarray:
        """``MinkovDM_p(x, z)`` of (7.15) for two samples (or two equal-length stacks)."""
        xa = np.atleast_2d(np.asarray(x, dtype=object))
        za = np.atleast_2d(np.asarray(z, dtype=object))
        out = _lp(self.embed(xa) - self.embed(za), self.p_)
        return float(out[0]) if np.ndim(x) == 1 else out

    def pairwise(self, X: ArrayLike) -> np.ndarray:
        """The (m, m) matrix of MinkovDM distances between the rows of ``X``."""
        E = self.embed(X)
        return _lp(E[:, None, :] - E[None, :, :], self.p_)
