"""DBSCAN of 003 §7.5, Fig 9.9.

With the neighbourhood parameters ``(eps, MinPts)``:

- ``N_eps(x_j) = {x_i in D : dist(x_i, x_j) <= eps}`` contains ``x_j`` itself;
- ``x_j`` is a *core object* when ``|N_eps(x_j)| >= MinPts``;
- Fig 9.9 picks a random core object ``o``, grows its cluster breadth-first (only core
  objects expand their neighbourhoods, lines 14-21), removes the cluster's cores from
  ``Omega`` (line 23) and repeats; samples never reached are noise.

The implementation does the same without a per-sample queue: the cores of one cluster
are a connected component of the graph joining cores within ``eps`` of each other
(found with ``scipy.sparse.csgraph``); clusters are numbered in the order Fig 9.9 meets
them when its random picks follow a random permutation of the cores (``seeds_``); a
non-core sample within ``eps`` of a core (a border sample) joins the first cluster in that
order that reaches it, as the queue of line 17 would take it from ``Gamma``.
Neighbourhoods come from a k-d tree (``scipy.spatial.cKDTree.query_pairs``) under the
Minkowski distance (7.11); above 15 dimensions (Euclidean distance), where a k-d tree
visits nearly every pair, from blocked matrix products (see :func:`neighbour_pairs`).
"""

from __future__ import annotations

import math

import numpy as np
from numpy.typing import ArrayLike
from scipy import sparse
from scipy.sparse.csgraph import connected_components
from scipy.spatial import cKDTree
from sklearn.base import BaseEstimator, ClusterMixin

from algorithms._validation import (
    check_array_argument,
    check_int,
    check_real,
    make_rng,
    validate_features,
)
from algorithms.clustering._distances import LARGE_P, exact_scale, minkowski_matrix

__all__ = ["DBSCAN", "NOISE", "neighbour_pairs"]

#: The label of samples in no cluster.
NOISE = -1

#: Neighbourhoods by k-d tree up to this dimension, by blocked matrix products above.
_TREE_MAX_DIM = 15
#: Entries of one block of the brute-force distances (2^22 float64 = 32 MB).
_BLOCK_ENTRIES = 2**22
#: Relative rounding of ||x||^2 - 2 x.z + ||z||^2 against the squared norms (x 1e3 room).
_EXPANDED_ROUNDING = 1e-12


class DBSCAN(ClusterMixin, BaseEstimator):
    """Density-based clustering (003 §7.5, Fig 9.9).

    Parameters
    ----------
    eps : float, default=0.5
        The neighbourhood radius ``eps > 0``.
    min_pts : int, default=5
        ``MinPts >= 1``; the sample itself counts towards ``|N_eps(x)|``.
    p : float, default=2.0
        Exponent of the Minkowski distance (>= 1; ``inf`` for Chebyshev).
    random_state : None, int or Generator, default=None
        The random order in which line 12 picks core objects; it decides the numbering
        of the clusters and which cluster a border sample reachable from two clusters
        joins.

    Attributes
    ----------
    labels_ : ndarray of shape (m,)
        Cluster ``0..k-1`` in the order the clusters were generated, ``-1`` for noise.
    neighbourhood_sizes_ : ndarray of shape (m,)
        ``|N_eps(x_j)|``.
    is_core_ : ndarray of bool, shape (m,)
    core_sample_indices_ : ndarray
        Indices of the core objects (``Omega`` of lines 1-7).
    seeds_ : ndarray of shape (k,)
        The core object ``o`` picked at line 12 for each cluster, in order.
    n_clusters_ : int
    n_features_in_ : int

    References
    ----------
    003 §7.5, Fig 9.9.
    """

    def __init__(self, eps: float = 0.5, *, min_pts: int = 5, p: float = 2.0,
                 random_state: object = None) -> None:
        self.eps = eps
        self.min_pts = min_pts
        self.p = p
        self.random_state = random_state

    def fit(self, X: ArrayLike, y: object = None) -> DBSCAN:
        """Cluster ``X`` (m, n); ``y`` is ignored."""
        X = validate_features(self, X, reset=True)
        eps = check_real(self.eps, "eps", low=0.0, low_open=True)
        min_pts = check_int(self.min_pts, "min_pts", low=1)
        p = check_real(self.p, "p", low=1.0, allow_inf=True)
        rng = make_rng(self.random_state)
        m = X.shape[0]
        s = exact_scale(X, p)  # distances of X / s against eps / s: exact, no overflow
        pairs = _neighbour_pairs(X / s, eps / s, p)
        sizes = 1 + np.bincount(pairs.ravel(), minlength=m)
        core = sizes >= min_pts
        core_idx = np.flatnonzero(core)
        labels = np.full(m, NOISE, dtype=np.int64)
        seeds = np.zeros(0, dtype=np.intp)
        if core_idx.shape[0]:
            labels, seeds = _label(pairs, core, core_idx, rng, m)
        self.labels_ = labels
        self.neighbourhood_sizes_ = sizes
        self.is_core_ = core
        self.core_sample_indices_ = core_idx
        self.seeds_ = seeds
        self.n_clusters_ = int(seeds.shape[0])
        return self


def neighbour_pairs(X: np.ndarray, eps: float, p: float = 2.0) -> np.ndarray:
    """All pairs ``i < j`` with ``dist_p(x_i, x_j) <= eps``, shape (pairs, 2).

    A k-d tree (``cKDTree.query_pairs``) up to 15 dimensions; above, where a k-d tree
    visits nearly every pair anyway, Euclidean distances by blocks of matrix products
    (scikit-learn switches to brute force at the same dimension), with the pairs whose
    expanded distance lies within rounding of ``eps`` decided by the exact distance.
    """
    X = check_array_argument(X, "X", ndim=2, real=True)
    eps = check_real(eps, "eps", low=0.0, low_open=True)
    p = check_real(p, "p", low=1.0, allow_inf=True)
    s = exact_scale(X, p)  # distances of X / s against eps / s: exact, no overflow
    return _neighbour_pairs(X / s, eps / s, p)


def _neighbour_pairs(X: np.ndarray, eps: float, p: float) -> np.ndarray:
    """:func:`neighbour_pairs` on validated input."""
    if p > LARGE_P and not math.isinf(p):  # the k-d tree's powers would over/underflow
        return _pairs_by_blocks(X, eps, p)
    if p != 2.0 or X.shape[1] <= _TREE_MAX_DIM:
        return cKDTree(X).query_pairs(eps, p=p, output_type="ndarray").astype(np.intp)
    m = X.shape[0]
    sq = np.einsum("ij,ij->i", X, X)
    rows = max(1, _BLOCK_ENTRIES // m)
    found = []
    for start in range(0, m, rows):
        block = slice(start, min(start + rows, m))
        D = X[block] @ X[start:].T  # columns start.. (pairs i < j only)
        D *= -2.0
        D += sq[block, None]
        D += sq[start:]
        margin = _EXPANDED_ROUNDING * (sq[block, None] + sq[start:])
        i, j = np.nonzero(D <= eps * eps + margin)
        upper = j > i  # row i is sample start + i, column j is sample start + j
        i, j = i[upper], j[upper]
        near = np.abs(D[i, j] - eps * eps) <= margin[i, j]
        if np.any(near):  # decide the pairs at the edge with the exact distance
            diff = X[start + i[near]] - X[start + j[near]]
            exact = np.einsum("ij,ij->i", diff, diff) <= eps * eps
            drop = np.flatnonzero(near)[~exact]
            i, j = np.delete(i, drop), np.delete(j, drop)
        found.append(np.column_stack([start + i, start + j]))
    return np.concatenate(found).astype(np.intp) if found else np.zeros((0, 2), np.intp)


def _pairs_by_blocks(X: np.ndarray, eps: float, p: float) -> np.ndarray:
    """Pairs ``i < j`` within ``eps`` from blocks of scale-safe Minkowski distances."""
    m = X.shape[0]
    rows = max(1, _BLOCK_ENTRIES // max(1, m * X.shape[1]))
    found = []
    for start in range(0, m, rows):
        D = minkowski_matrix(X[start:start + rows], X, p)
        i, j = np.nonzero(D <= eps)
        i = i + start
        keep = j > i
        found.append(np.column_stack([i[keep], j[keep]]))
    return np.concatenate(found).astype(np.intp) if found else np.zeros((0, 2), np.intp)


def _label(pairs: np.ndarray, core: np.ndarray, core_idx: np.ndarray,
           rng: np.random.Generator, m: int) -> tuple[np.ndarray, np.ndarray]:
    """Labels (clusters in generation order) and the seed of each cluster."""
    n_core = core_idx.shape[0]
    position = np.full(m, -1, dtype=np.intp)
    position[core_idx] = np.arange(n_core)
    linked = pairs[core[pairs[:, 0]] & core[pairs[:, 1]]]
    graph = sparse.coo_matrix(
        (np.ones(linked.shape[0], dtype=np.int8),
         (position[linked[:, 0]], position[linked[:, 1]])), shape=(n_core, n_core))
    n_comp, comp = connected_components(graph, directed=False)
    # Line 12 picks cores in a random order: cluster c is generated when its first core
    # in that order comes up.
    rank = rng.permutation(n_core)
    first = np.full(n_comp, n_core, dtype=np.intp)
    np.minimum.at(first, comp, rank)
    order = np.argsort(first, kind="stable")
    cluster_of_comp = np.empty(n_comp, dtype=np.int64)
    cluster_of_comp[order] = np.arange(n_comp)
    picked = np.empty(n_core, dtype=np.intp)
    picked[rank] = np.arange(n_core)
    seeds = core_idx[picked[first[order]]]
    labels = np.full(m, NOISE, dtype=np.int64)
    labels[core_idx] = cluster_of_comp[comp]
    # Border samples: the first generated cluster with a core within eps.
    a, b = pairs[:, 0], pairs[:, 1]
    to_b = core[a] & ~core[b]
    to_a = core[b] & ~core[a]
    targets = np.concatenate([b[to_b], a[to_a]])
    clusters = np.concatenate([labels[a[to_b]], labels[b[to_a]]])
    best = np.full(m, np.iinfo(np.int64).max, dtype=np.int64)
    np.minimum.at(best, targets, clusters)
    border = ~core & (best < np.iinfo(np.int64).max)
    labels[border] = best[border]
    return labels, seeds
