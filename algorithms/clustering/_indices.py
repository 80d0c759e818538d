"""Cluster validity indices of 003 §7.2 (7.1)-(7.10).

External indices compare a clustering ``lambda`` with a reference partition
``lambda*`` through the pair counts of (7.1)::

    a = |SS|  (same cluster in both)      b = |SD|  (same in C, different in C*)
    c = |DS|  (different in C, same in C*) d = |DD|  (different in both)

    JC  = a / (a + b + c)                        (7.2)
    FMI = sqrt(a / (a + b) * a / (a + c))        (7.3)
    RI  = 2 (a + d) / (m (m - 1))                (7.4)

The counts come from the contingency table ``n_st = |C_s ∩ C*_t|`` in ``O(m log m)``
(only non-empty cells are formed), never from a loop over the ``m(m-1)/2`` pairs:
``a = sum C(n_st, 2)``, ``a + b = sum_s C(n_s., 2)``, ``a + c = sum_t C(n_.t, 2)``.

Internal indices use the notes' cluster statistics: ``avg(C)`` the mean distance over
the pairs of ``C`` (7.5), ``diam(C)`` the largest such distance (7.6), ``d_min`` the
smallest distance between two clusters (7.7), ``d_cen`` the distance of their centres
(7.8), and

    DBI = (1/k) sum_i max_{j != i} (avg(C_i) + avg(C_j)) / d_cen(mu_i, mu_j)   (7.9)
    DI  = min_i min_{j != i} d_min(C_i, C_j) / max_l diam(C_l)                (7.10)

Note: scikit-learn's ``davies_bouldin_score`` measures a cluster's scatter by the mean
distance of its points *to the centroid*, not by the mean pairwise distance ``avg(C)`` of
(7.5); ``davies_bouldin_index(..., scatter="centroid")`` computes that variant.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike
from scipy.spatial import cKDTree

from algorithms._validation import check_array_argument, check_choice, check_real
from algorithms.clustering._distances import LARGE_P, _lp, exact_scale, minkowski_matrix

__all__ = [
    "DBI_SCATTERS",
    "ClusterGeometry",
    "ExternalIndices",
    "PairCounts",
    "cluster_geometry",
    "davies_bouldin_index",
    "dunn_index",
    "external_indices",
    "pair_counts",
]

#: ``avg(C)`` of (7.5) (the notes), or the mean distance to the centroid (scikit-learn).
DBI_SCATTERS = ("pairwise", "centroid")

#: Entries of one block of the chunked pairwise distances: 2^22 float64 = 32 MB bounds
#: the memory of avg/diam whatever the cluster size.
_BLOCK_ENTRIES = 2**22


@dataclass(frozen=True)
class PairCounts:
    """The pair counts ``a, b, c, d`` of (7.1) of ``m`` samples."""

    a: int
    b: int
    c: int
    d: int
    m: int

    @property
    def n_pairs(self) -> int:
        """``m (m - 1) / 2``; equals ``a + b + c + d``."""
        return self.m * (self.m - 1) // 2


@dataclass(frozen=True)
class ExternalIndices:
    """``JC`` (7.2), ``FMI`` (7.3), ``RI`` (7.4) and the pair counts they come from."""

    jc: float
    fmi: float
    ri: float
    counts: PairCounts


def _labels(value: ArrayLike, name: str) -> np.ndarray:
    arr = check_array_argument(value, name, ndim=1, dtype=None)
    if arr.dtype.kind == "f" and not np.all(np.isfinite(arr)):
        raise ValueError(f"{name} must not contain NaN or infinity.")
    return arr


def _codes(labels: np.ndarray) -> tuple[np.ndarray, int]:
    uniq, codes = np.unique(labels, return_inverse=True)
    return codes.reshape(-1).astype(np.int64), uniq.shape[0]


def _pairs_within(sizes: np.ndarray) -> int:
    """``sum_s C(n_s, 2)`` in exact integer arithmetic."""
    sizes = sizes.astype(np.int64)
    return int(np.sum(sizes * (sizes - 1) // 2))


def pair_counts(labels: ArrayLike, reference: ArrayLike) -> PairCounts:
    """Pair counts ``a, b, c, d`` of (7.1) from the contingency table.

    Parameters
    ----------
    labels : array-like of shape (m,)
        Cluster labels ``lambda`` (any hashable values).
    reference : array-like of shape (m,)
        Reference labels ``lambda*``.

    Returns
    -------
    PairCounts
    """
    lam = _labels(labels, "labels")
    ref = _labels(reference, "reference")
    if lam.shape[0] != ref.shape[0]:
        raise ValueError(f"labels and reference must have the same length, got "
                         f"{lam.shape[0]} and {ref.shape[0]}.")
    m = lam.shape[0]
    codes, _ = _codes(lam)
    ref_codes, k_ref = _codes(ref)
    _, cells = np.unique(codes * k_ref + ref_codes, return_counts=True)
    a = _pairs_within(cells)
    together = _pairs_within(np.bincount(codes))
    together_ref = _pairs_within(np.bincount(ref_codes))
    b, c = together - a, together_ref - a
    d = m * (m - 1) // 2 - a - b - c
    return PairCounts(a=a, b=b, c=c, d=d, m=m)


def external_indices(labels: ArrayLike, reference: ArrayLike) -> ExternalIndices:
    """The external indices JC, FMI and RI of (7.2)-(7.4).

    Parameters
    ----------
    labels, reference : array-like of shape (m,)
        The clustering ``lambda`` and the reference ``lambda*``.

    Returns
    -------
    ExternalIndices

    Notes
    -----
    The printed formulas divide by zero in three degenerate cases, where this function
    uses the value of the coinciding partitions: ``a + b + c = 0`` (both partitions put
    every sample alone, so they coincide) gives ``JC = 1``; ``m < 2`` (no pairs) gives
    ``RI = 1``; ``FMI = 1`` when ``a + b = a + c = 0`` and ``FMI = 0`` when only one of
    them is 0 (then ``a = 0``). scikit-learn's ``fowlkes_mallows_score`` returns 0 in
    the first case.

    References
    ----------
    003 §7.2 (7.1)-(7.4).
    """
    n = pair_counts(labels, reference)
    a, b, c, d = n.a, n.b, n.c, n.d
    jc = a / (a + b + c) if a + b + c > 0 else 1.0
    if a + b > 0 and a + c > 0:
        fmi = math.sqrt(a / (a + b)) * math.sqrt(a / (a + c))
    else:
        fmi = 1.0 if a + b == 0 and a + c == 0 else 0.0
    ri = (a + d) / n.n_pairs if n.n_pairs > 0 else 1.0
    return ExternalIndices(jc=float(jc), fmi=float(fmi), ri=float(ri), counts=n)


@dataclass(frozen=True)
class ClusterGeometry:
    """The cluster statistics of (7.5)-(7.8) for a clustering into ``k`` clusters.

    Attributes
    ----------
    labels : ndarray of shape (k,)
        The distinct cluster labels, in sorted order (row ``i`` of every array).
    sizes : ndarray of shape (k,)
    centres : ndarray of shape (k, n)
        ``mu_i``, the mean of cluster ``i``.
    avg : ndarray of shape (k,)
        ``avg(C_i)`` (7.5); 0 for a cluster of one sample (an empty sum, see Notes).
    diam : ndarray of shape (k,)
        ``diam(C_i)`` (7.6); 0 for a cluster of one sample.
    scatter_to_centre : ndarray of shape (k,)
        Mean distance of the cluster's samples to ``mu_i`` (scikit-learn's DBI scatter).
    d_min : ndarray of shape (k, k)
        ``d_min(C_i, C_j)`` (7.7); the diagonal is 0.
    d_cen : ndarray of shape (k, k)
        ``d_cen(C_i, C_j) = dist(mu_i, mu_j)`` (7.8).
    """

    labels: np.ndarray
    sizes: np.ndarray
    centres: np.ndarray
    avg: np.ndarray
    diam: np.ndarray
    scatter_to_centre: np.ndarray
    d_min: np.ndarray
    d_cen: np.ndarray

    @property
    def k(self) -> int:
        return int(self.labels.shape[0])


def _pair_sum_and_max(P: np.ndarray, p: float) -> tuple[float, float]:
    """Sum over the pairs ``i < j`` of ``dist(P_i, P_j)`` and their maximum, by blocks."""
    total, largest = 0.0, 0.0
    rows = max(1, _BLOCK_ENTRIES // P.shape[0])
    for start in range(0, P.shape[0], rows):
        block = minkowski_matrix(P[start:start + rows], P[start:], p)
        upper = np.triu(block, k=1)  # rows start.., columns start..: keep j > i only
        total += float(upper.sum())
        largest = max(largest, float(upper.max(initial=0.0)))
    return total, largest


def _minkowski_rows(A: np.ndarray, B: np.ndarray, p: float) -> np.ndarray:
    diff = np.abs(A - B)
    if p > LARGE_P and not math.isinf(p):
        return _lp(diff, p)
    if math.isinf(p):
        return diff.max(axis=-1)
    return np.sum(diff**p, axis=-1) ** (1.0 / p)


def cluster_geometry(X: ArrayLike, labels: ArrayLike, *, p: float = 2.0) -> ClusterGeometry:
    """avg, diam, d_min and d_cen of (7.5)-(7.8) under the Minkowski distance (7.11).

    Parameters
    ----------
    X : array-like of shape (m, n)
    labels : array-like of shape (m,)
        One cluster label per sample (any hashable values; every label present forms a
        cluster).
    p : float, default=2.0
        Exponent of the Minkowski distance ``dist`` (>= 1; ``inf`` for Chebyshev).

    Returns
    -------
    ClusterGeometry

    Notes
    -----
    For ``|C| = 1`` the factor ``2 / (|C| (|C| - 1))`` of (7.5) and the maximum of (7.6)
    run over no pair; both are set to 0 (a one-point cluster has no spread). ``avg`` and
    ``diam`` cost ``O(|C|^2)`` distance evaluations per cluster (in blocks of at most
    2^22 distances); ``d_min`` uses a k-d tree per cluster.

    References
    ----------
    003 §7.2 (7.5)-(7.8).
    """
    X = check_array_argument(X, "X", ndim=2, real=True)
    lam = _labels(labels, "labels")
    if lam.shape[0] != X.shape[0]:
        raise ValueError(f"labels must have one entry per row of X, got {lam.shape[0]} for "
                         f"{X.shape[0]} rows.")
    p = check_real(p, "p", low=1.0, allow_inf=True)
    uniq, codes = np.unique(lam, return_inverse=True)
    codes = codes.reshape(-1)
    k = uniq.shape[0]
    s = exact_scale(X, p)  # distances of X / s, times s: exact, and no power overflows
    members = [X[codes == i] / s for i in range(k)]
    sizes = np.array([P.shape[0] for P in members])
    centres = np.array([P.mean(axis=0) for P in members])
    avg, diam, to_centre = np.zeros(k), np.zeros(k), np.zeros(k)
    for i, P in enumerate(members):
        to_centre[i] = float(np.mean(_minkowski_rows(P, centres[i], p)))
        if P.shape[0] > 1:
            total, largest = _pair_sum_and_max(P, p)
            avg[i] = 2.0 * total / (P.shape[0] * (P.shape[0] - 1))
            diam[i] = largest
    d_min = np.zeros((k, k))
    large_p = p > LARGE_P and not math.isinf(p)
    trees = None if large_p else [cKDTree(P) for P in members]
    for i in range(k):
        for j in range(i + 1, k):
            small, large = (i, j) if sizes[i] <= sizes[j] else (j, i)
            if trees is None:  # large p: the k-d tree's powers would over/underflow
                dist = minkowski_matrix(members[small], members[large], p)
            else:
                dist, _ = trees[large].query(members[small], k=1, p=p)
            d_min[i, j] = d_min[j, i] = float(np.min(dist))
    d_cen = minkowski_matrix(centres, centres, p) if k > 0 else np.zeros((0, 0))
    return ClusterGeometry(labels=uniq, sizes=sizes, centres=centres * s, avg=avg * s,
                           diam=diam * s, scatter_to_centre=to_centre * s, d_min=d_min * s,
                           d_cen=d_cen * s)


def _ratio(num: np.ndarray, den: np.ndarray, what: str) -> np.ndarray:
    """``num / den`` with ``x / 0 = inf`` for ``x > 0`` and ``0 / 0`` refused."""
    undefined = (den == 0) & (num == 0)
    if np.any(undefined):
        raise ValueError(f"labels give an undefined index: {what} is 0 / 0.")
    with np.errstate(divide="ignore"):
        return np.where(den > 0, num / np.where(den > 0, den, 1.0), np.inf)


def _geometry_for_index(X, labels, p, name: str) -> ClusterGeometry:
    geo = cluster_geometry(X, labels, p=p)
    if geo.k < 2:
        raise ValueError(f"labels must contain at least 2 clusters for {name}, got {geo.k}.")
    return geo


def davies_bouldin_index(
    X: ArrayLike, labels: ArrayLike, *, p: float = 2.0, scatter: str = "pairwise"
) -> float:
    """The Davies-Bouldin index (7.9); smaller is better.

    Parameters
    ----------
    X : array-like of shape (m, n)
    labels : array-like of shape (m,)
        At least two clusters.
    p : float, default=2.0
        Minkowski exponent of ``dist`` (>= 1).
    scatter : {"pairwise", "centroid"}, default="pairwise"
        ``"pairwise"``: ``avg(C)`` of (7.5), as in the notes. ``"centroid"``: the mean
        distance of a cluster's samples to its centre, as scikit-learn's
        ``davies_bouldin_score`` (with ``p = 2``).

    Returns
    -------
    float
        ``inf`` when two clusters with positive spread share their centre.

    Raises
    ------
    ValueError
        Fewer than two clusters, or two clusters of zero spread with the same centre
        (``0 / 0`` in (7.9)).

    References
    ----------
    003 §7.2 (7.9).
    """
    scatter = check_choice(scatter, "scatter", DBI_SCATTERS)
    geo = _geometry_for_index(X, labels, p, "the Davies-Bouldin index")
    s = geo.avg if scatter == "pairwise" else geo.scatter_to_centre
    num = s[:, None] + s[None, :]
    off = ~np.eye(geo.k, dtype=bool)
    ratios = _ratio(num[off], geo.d_cen[off], "(avg(C_i) + avg(C_j)) / d_cen(mu_i, mu_j) "
                    "for two zero-spread clusters with the same centre")
    return float(np.mean(ratios.reshape(geo.k, geo.k - 1).max(axis=1)))


def dunn_index(X: ArrayLike, labels: ArrayLike, *, p: float = 2.0) -> float:
    """The Dunn index (7.10); larger is better.

    Parameters
    ----------
    X : array-like of shape (m, n)
    labels : array-like of shape (m,)
        At least two clusters.
    p : float, default=2.0
        Minkowski exponent of ``dist`` (>= 1).

    Returns
    -------
    float
        ``inf`` when every cluster has diameter 0 and no two clusters touch.

    Raises
    ------
    ValueError
        Fewer than two clusters, or every diameter 0 while two clusters share a point.

    References
    ----------
    003 §7.2 (7.10).
    """
    geo = _geometry_for_index(X, labels, p, "the Dunn index")
    off = ~np.eye(geo.k, dtype=bool)
    smallest = np.array([float(np.min(geo.d_min[off]))])
    return float(_ratio(smallest, np.array([float(np.max(geo.diam))]),
                        "min d_min / max diam with every diameter 0")[0])
