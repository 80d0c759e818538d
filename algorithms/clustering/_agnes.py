"""AGNES, agglomerative hierarchical clustering (003 §7.6, Fig 9.11).

Starting from singletons, AGNES repeatedly merges the two closest clusters until ``k``
remain, under one of the cluster distances of §7.6:

    d_min(C_i, C_j) = min_{x in C_i, z in C_j} dist(x, z)            single linkage
    d_max(C_i, C_j) = max_{x in C_i, z in C_j} dist(x, z)            complete linkage
    d_avg(C_i, C_j) = 1/(|C_i||C_j|) sum_{x in C_i} sum_{z in C_j} dist(x, z)   average

Fig 9.11 recomputes ``d(C_{i*}, C_j)`` for every ``j`` after a merge; these three
distances obey the Lance-Williams recurrences, so the row of the merged cluster is a
combination of the two old rows (``O(m)`` per merge)::

    single:   d(C_l, C_a ∪ C_b) = min(d(C_l, C_a), d(C_l, C_b))
    complete: d(C_l, C_a ∪ C_b) = max(d(C_l, C_a), d(C_l, C_b))
    average:  d(C_l, C_a ∪ C_b) = (|C_a| d(C_l, C_a) + |C_b| d(C_l, C_b)) / (|C_a| + |C_b|)

The closest pair (line 12) is found from each row's cached nearest neighbour; only rows
whose neighbour was merged are searched again. The merged cluster keeps the smaller of
the two row indices and the other row is deleted (lines 13-17), so clusters keep the
order of their smallest sample. Memory is the full ``m x m`` distance matrix ``M`` of
lines 4-9, ``8 m^2`` bytes: acceptable up to ``m = 5,000`` (200 MB).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike
from scipy.spatial.distance import pdist, squareform
from sklearn.base import BaseEstimator, ClusterMixin

from algorithms._validation import (
    check_array_argument,
    check_choice,
    check_int,
    check_real,
    validate_features,
)
from algorithms.clustering._distances import (
    LARGE_P,
    exact_scale,
    minkowski_matrix,
    recompute_underflowed,
)
from algorithms.clustering._kmeans import check_n_clusters

__all__ = ["AGNES", "LINKAGES", "Agglomeration", "agglomerate"]

#: Cluster distances of §7.6: d_min, d_max, d_avg.
LINKAGES = ("single", "complete", "average")


@dataclass(frozen=True)
class Agglomeration:
    """The merges of one AGNES run.

    Attributes
    ----------
    merges : ndarray of shape (m - k, 2)
        Ids of the two clusters merged at each step: samples are ``0..m-1``, the cluster
        formed at step ``t`` is ``m + t`` (scipy's linkage convention).
    distances : ndarray of shape (m - k,)
        ``d(C_{i*}, C_{j*})`` of each merge.
    sizes : ndarray of shape (m - k,)
        Size of each merged cluster.
    labels : ndarray of shape (m,)
        Cluster ``0..k-1`` of each sample, clusters ordered by their smallest sample.
    """

    merges: np.ndarray
    distances: np.ndarray
    sizes: np.ndarray
    labels: np.ndarray


def _lance_williams(linkage: str, row_a: np.ndarray, row_b: np.ndarray, na: int, nb: int
                    ) -> np.ndarray:
    """The merged cluster's distances, written into ``row_a`` (a row of M)."""
    if linkage == "single":
        return np.minimum(row_a, row_b, out=row_a)
    if linkage == "complete":
        return np.maximum(row_a, row_b, out=row_a)
    row_a *= na / (na + nb)
    row_a += (nb / (na + nb)) * row_b
    return row_a


def agglomerate(M: np.ndarray, n_clusters: int, linkage: str) -> Agglomeration:
    """Run Fig 9.11 on the sample distance matrix ``M`` (m, m) until ``n_clusters`` remain.

    ``M`` (symmetric, finite, non-negative) is overwritten: the diagonal and the columns
    of merged-away clusters become ``inf`` (their rows are never read again).
    """
    M = check_array_argument(M, "M", ndim=2, real=True)
    m = M.shape[0]
    if M.shape != (m, m) or not np.array_equal(M, M.T) or np.any(M < 0):
        raise ValueError(f"M must be a symmetric non-negative (m, m) distance matrix, got "
                         f"shape {M.shape}.")
    n_clusters = check_int(n_clusters, "n_clusters", low=1, high=m)
    linkage = check_choice(linkage, "linkage", LINKAGES)
    return _agglomerate(M, n_clusters, linkage)


def _agglomerate(M: np.ndarray, n_clusters: int, linkage: str) -> Agglomeration:
    """:func:`agglomerate` on validated input."""
    m = M.shape[0]
    np.fill_diagonal(M, np.inf)
    size = [1] * m
    ids = list(range(m))
    members: list[list[int]] = [[r] for r in range(m)]
    nn = np.argmin(M, axis=1) if m > 1 else np.zeros(m, dtype=np.intp)
    nn_d = M[np.arange(m), nn]
    steps = m - n_clusters
    merges = np.empty((steps, 2), dtype=np.int64)
    distances, sizes = np.empty(steps), np.empty(steps, dtype=np.int64)
    inf = np.inf
    for t in range(steps):
        i = int(nn_d.argmin())
        j = int(nn[i])
        a, b = (i, j) if i < j else (j, i)
        merges[t] = (ids[a], ids[b]) if ids[a] < ids[b] else (ids[b], ids[a])
        distances[t] = nn_d[i]
        new = _lance_williams(linkage, M[a], M[b], size[a], size[b])
        new[a] = new[b] = inf
        M[:, a] = new
        M[:, b] = inf
        nn_d[b] = inf
        nn[b] = -1  # a deleted row: never stale, never better
        size[a] += size[b]
        sizes[t] = size[a]
        ids[a] = m + t
        members[a].extend(members[b])
        members[b] = []
        # Rows that pointed at a or b: still nearest to the merged cluster if it is no
        # farther than before, otherwise search the row again.
        stale = np.flatnonzero((nn == a) | (nn == b))
        if stale.shape[0]:
            closer = new[stale] <= nn_d[stale]
            keep, redo = stale[closer], stale[~closer]
            nn[keep] = a
            nn_d[keep] = new[keep]
            if redo.shape[0]:
                nn[redo] = M[redo].argmin(axis=1)
                nn_d[redo] = M[redo, nn[redo]]
        better = np.flatnonzero(new < nn_d)  # deleted rows have new = nn_d = inf
        if better.shape[0]:
            nn[better] = a
            nn_d[better] = new[better]
        nn[a] = c = int(new.argmin())
        nn_d[a] = new[c]
    labels = np.empty(m, dtype=np.int64)
    for label, row in enumerate(r for r in range(m) if members[r]):
        labels[members[row]] = label
    return Agglomeration(merges=merges, distances=distances, sizes=sizes, labels=labels)


def sample_distances(X: np.ndarray, p: float) -> np.ndarray:
    """The (m, m) Minkowski distance matrix (7.11) of the rows of ``X``."""
    if math.isinf(p):
        return squareform(pdist(X, "chebyshev"))
    if p > LARGE_P:  # scipy's powers would over/underflow: the scaled pairwise form
        M = minkowski_matrix(X, X, p)
        np.fill_diagonal(M, 0.0)
        return M
    return recompute_underflowed(squareform(pdist(X, "minkowski", p=p)), X, X, p)


class AGNES(ClusterMixin, BaseEstimator):
    """Agglomerative clustering (003 §7.6, Fig 9.11) with single, complete or average
    linkage and Lance-Williams updates.

    Parameters
    ----------
    n_clusters : int, default=2
        ``k``: merging stops when ``k`` clusters remain (1 <= k <= m).
    linkage : {"single", "complete", "average"}, default="average"
        ``d_min``, ``d_max`` or ``d_avg`` of §7.6.
    p : float, default=2.0
        Exponent of the Minkowski sample distance (7.11) (>= 1; ``inf`` for Chebyshev).

    Attributes
    ----------
    labels_ : ndarray of shape (m,)
        Cluster ``0..k-1``, clusters ordered by their smallest sample index.
    children_ : ndarray of shape (m - k, 2)
        The two cluster ids merged at each step (see :class:`Agglomeration`).
    distances_ : ndarray of shape (m - k,)
        The cluster distance at each merge.
    merge_sizes_ : ndarray of shape (m - k,)
    n_merges_ : int
        ``m - k``.
    n_features_in_ : int

    Notes
    -----
    Time ``O(m^2)`` for the distance matrix plus ``O(m)`` per merge and per row whose
    nearest cluster was merged away; memory ``O(m^2)`` (acceptable up to m = 5,000).
    Ties between equally close pairs go to the smallest row, then the smallest column.

    References
    ----------
    003 §7.6, Fig 9.11.
    """

    def __init__(self, n_clusters: int = 2, *, linkage: str = "average", p: float = 2.0
                 ) -> None:
        self.n_clusters = n_clusters
        self.linkage = linkage
        self.p = p

    def fit(self, X: ArrayLike, y: object = None) -> AGNES:
        """Cluster ``X`` (m, n); ``y`` is ignored."""
        X = validate_features(self, X, reset=True)
        k = check_n_clusters(self.n_clusters, X.shape[0])
        linkage = check_choice(self.linkage, "linkage", LINKAGES)
        p = check_real(self.p, "p", low=1.0, allow_inf=True)
        s = exact_scale(X, p)  # distances of X / s, times s: exact, no power overflows
        run = _agglomerate(sample_distances(X / s, p) * s, k, linkage)
        self.labels_ = run.labels
        self.children_ = run.merges
        self.distances_ = run.distances
        self.merge_sizes_ = run.sizes
        self.n_merges_ = int(run.merges.shape[0])
        return self
