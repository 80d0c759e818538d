"""Isomap (003 §8.5.1, Fig 10.8): classical MDS of shortest-path distances on a
neighbourhood graph.

Each sample is joined to its ``k`` nearest neighbours (or to every sample closer than
``epsilon``) by an edge weighted with their Euclidean distance; the neighbour relation is
made symmetric (an edge whenever either sample is a neighbour of the other: the graph is
undirected), all-pairs shortest paths are computed by Dijkstra's algorithm
(``scipy.sparse.csgraph``) and handed to classical MDS (Fig 10.8 lines 5-7). A graph with
more than one connected component has infinite geodesics between components: ``fit``
refuses it with a ``ValueError`` that says how many components there are.

New samples are placed by the geodesic extension: the geodesic from ``x`` to a training
sample ``x_j`` is ``min_n ||x - x_n|| + G_nj`` over the neighbours ``x_n`` of ``x`` among
the training samples, and classical MDS's out-of-sample formula maps these squared
geodesics to coordinates (for a training sample this gives its own embedding exactly).
The notes suggest a regressor trained on (x_i, z_i) instead; the geodesic extension needs
no second model and is what scikit-learn does.
"""

from __future__ import annotations

import numpy as np
from scipy import sparse
from scipy.sparse.csgraph import connected_components, shortest_path
from scipy.spatial import cKDTree
from sklearn.base import BaseEstimator, TransformerMixin

from algorithms._validation import (
    InvalidArgumentError,
    check_int,
    check_real,
    check_squares_representable,
    validate_features,
)
from algorithms.dimred._mds import _mds_from_squared

__all__ = ["Isomap", "neighbourhood_graph"]

#: Entries of the (query x neighbours x training) array built at once by ``transform``.
_CHUNK_ENTRIES = 2_000_000


def _knn(tree: cKDTree, X: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
    """The k nearest *other* training samples of every training sample (self dropped even
    when duplicates tie with it at distance 0)."""
    m = X.shape[0]
    dist, idx = tree.query(X, k=k + 1)
    dist, idx = dist.reshape(m, k + 1), idx.reshape(m, k + 1)
    is_self = idx == np.arange(m)[:, None]
    is_self[~is_self.any(axis=1), -1] = True  # self not returned (ties): drop the farthest
    keep = ~is_self
    return dist[keep].reshape(m, k), idx[keep].reshape(m, k)


def _graph(X: np.ndarray, k: int | None, eps: float | None) -> sparse.csr_matrix:
    m = X.shape[0]
    tree = cKDTree(X)
    if eps is None:
        dist, idx = _knn(tree, X, k)
        rows = np.repeat(np.arange(m), k)
        G = sparse.csr_matrix((dist.ravel(), (rows, idx.ravel())), shape=(m, m))
    else:
        pairs = tree.query_pairs(eps, output_type="ndarray")
        w = np.linalg.norm(X[pairs[:, 0]] - X[pairs[:, 1]], axis=1)
        G = sparse.csr_matrix((w, (pairs[:, 0], pairs[:, 1])), shape=(m, m))
    # sparse arithmetic drops stored zeros, which would delete the edges between duplicates:
    # they get the smallest positive float instead (it vanishes in any sum with a distance)
    G.data[G.data == 0.0] = np.finfo(np.float64).tiny
    return G.maximum(G.T).tocsr()  # undirected: i ~ j if either is a neighbour of the other


def neighbourhood_graph(X: object, n_neighbors: int | None = 5, *,
                        radius: float | None = None) -> sparse.csr_matrix:
    """The symmetric k-NN (or epsilon) graph of Isomap (003 §8.5.1 Fig 10.8 lines 1-4).

    Parameters
    ----------
    X : array-like (m, d)
        Samples.
    n_neighbors : int or None, default 5
        ``k``, ``1 <= k <= m - 1``; ``None`` with ``radius`` for the epsilon graph.
    radius : float or None
        ``epsilon > 0``: join samples at Euclidean distance ``<= epsilon``.

    Returns
    -------
    scipy.sparse.csr_matrix (m, m)
        Symmetric; entry (i, j) is ``||x_i - x_j||`` when one is a neighbour of the other
        (stored even when 0, for duplicates), absent otherwise (an infinite distance).
    """
    est = Isomap(n_neighbors=n_neighbors, radius=radius, n_components=1)
    X = validate_features(est, X, reset=True)
    k, eps = est._check_graph_params(X.shape[0])
    center = X.mean(axis=0)
    s = float(np.max(np.abs(X - center))) or 1.0
    return (_graph((X - center) / s, k, None if eps is None else eps / s) * s).tocsr()


class Isomap(TransformerMixin, BaseEstimator):
    """Isometric mapping (003 §8.5.1, Fig 10.8).

    Parameters
    ----------
    n_neighbors : int or None, default 5
        ``k`` of the k-nearest-neighbour graph, ``1 <= k <= m - 1``. ``None`` together
        with ``radius`` selects the epsilon graph.
    radius : float or None, default None
        ``epsilon > 0`` of the epsilon-neighbour graph (then ``n_neighbors=None``).
    n_components : int, default 2
        ``d'``, ``1 <= d' <= d``.

    Attributes
    ----------
    embedding_ : ndarray (m, d')
        Classical MDS of the geodesic distances (rows ``z_i``).
    dist_matrix_ : ndarray (m, m)
        Shortest-path (geodesic) distances on the neighbourhood graph.
    graph_ : scipy.sparse.csr_matrix (m, m)
        The symmetric neighbourhood graph with Euclidean edge weights.
    eigenvalues_ : ndarray (d',)
        Kept eigenvalues of the double-centred squared geodesics, before clipping.
    n_clipped_ : int
        Kept eigenvalues that were negative and clipped to zero.
    n_features_in_ : int

    Notes
    -----
    The data are centred and divided by their largest absolute coordinate before the
    neighbour search (distances of inputs near the float64 limits stay representable);
    the graph, the geodesics and the embedding are reported in the original units.

    References
    ----------
    003 §8.5.1 Fig 10.8; Tenenbaum, de Silva and Langford (2000).
    """

    def __init__(self, n_neighbors: int | None = 5, *, radius: float | None = None,
                 n_components: int = 2):
        self.n_neighbors = n_neighbors
        self.radius = radius
        self.n_components = n_components

    def _check_graph_params(self, m: int) -> tuple[int | None, float | None]:
        if (self.n_neighbors is None) == (self.radius is None):
            raise InvalidArgumentError(
                "Exactly one of n_neighbors (k-NN graph) and radius (epsilon graph) must be "
                f"given, got n_neighbors={self.n_neighbors!r}, radius={self.radius!r}.")
        if self.radius is not None:
            return None, check_real(self.radius, "radius", low=0.0, low_open=True)
        k = check_int(self.n_neighbors, "n_neighbors", low=1)
        if k > m - 1:
            raise ValueError(f"n_neighbors must be < n_samples = {m} (k neighbours other "
                             f"than the sample itself), got {k}.")
        return k, None

    def fit(self, X, y=None):
        """Build the graph, its geodesics and their classical MDS embedding."""
        self.fit_transform(X, y)
        return self

    def fit_transform(self, X, y=None):
        """Fit and return ``embedding_`` (m, d')."""
        X = validate_features(self, X, reset=True)
        m, d = X.shape
        k, eps = self._check_graph_params(m)
        n_components = check_int(self.n_components, "n_components", low=1)
        if n_components > d:
            raise ValueError(f"n_components must be at most n_features = {d} (d' <= d); X "
                             f"has {d} feature(s), got {n_components}.")
        center = X.mean(axis=0)
        # eigenvalues_ are squared geodesics (times m): their squares must stay finite
        check_squares_representable(X - center, "X")
        s = float(np.max(np.abs(X - center)))
        s = s if s > 0 else 1.0
        Xs = (X - center) / s
        G = _graph(Xs, k, None if eps is None else eps / s)
        n_parts, labels = connected_components(G, directed=False)
        if n_parts > 1:
            sizes = np.bincount(labels)
            what = f"n_neighbors={k}" if eps is None else f"radius={eps}"
            raise ValueError(
                f"The neighbourhood graph ({what}) is disconnected: {n_parts} connected "
                f"components (sizes {sorted(sizes.tolist(), reverse=True)[:10]}), so some "
                "geodesic distances are infinite; increase n_neighbors or radius.")
        geo = shortest_path(G, method="D", directed=False)
        r = _mds_from_squared(geo * geo, min(n_components, m))
        Z = r.embedding
        if Z.shape[1] < n_components:  # fewer samples than components: zero coordinates
            Z = np.hstack([Z, np.zeros((m, n_components - Z.shape[1]))])
        self._scale, self._center, self._Xs, self._k, self._eps = s, center, Xs, k, eps
        self._tree = cKDTree(Xs)
        self._row_means = np.mean(geo * geo, axis=1)
        self._eigvecs, self._eigvals = r.eigenvectors, np.clip(r.eigenvalues, 0.0, None)
        self._geo = geo
        self.graph_ = G * s
        self.dist_matrix_ = geo * s
        self.eigenvalues_ = r.eigenvalues * s * s
        self.n_clipped_ = r.n_clipped
        self.embedding_ = Z * s
        return self.embedding_

    def _geodesics_to(self, Xs: np.ndarray) -> np.ndarray:
        """Geodesics (scaled units) from new samples to every training sample."""
        q, m = Xs.shape[0], self._Xs.shape[0]
        out = np.empty((q, m))
        if self._eps is None:
            dist, idx = self._tree.query(Xs, k=self._k)
            dist, idx = dist.reshape(q, self._k), idx.reshape(q, self._k)
            step = max(1, _CHUNK_ENTRIES // (self._k * m))
            for a in range(0, q, step):
                b = min(q, a + step)
                out[a:b] = np.min(dist[a:b, :, None] + self._geo[idx[a:b]], axis=1)
            return out
        eps = self._eps / self._scale
        for i, nbrs in enumerate(self._tree.query_ball_point(Xs, eps)):
            if not nbrs:
                raise ValueError(f"X[{i}] has no training sample within radius={self._eps}: "
                                 "its geodesic distances are infinite.")
            nbrs = np.asarray(nbrs)
            d = np.linalg.norm(self._Xs[nbrs] - Xs[i], axis=1)
            out[i] = np.min(d[:, None] + self._geo[nbrs], axis=0)
        return out

    def transform(self, X):
        """Embed new samples by the geodesic extension of classical MDS.

        ``z_k(x) = (1 / (2 sqrt(lambda_k))) sum_i v_ik (mean_j G_ij^2 - g_i(x)^2)`` with
        ``g(x)`` the geodesics from ``x`` through its neighbours among the training
        samples (a coordinate whose eigenvalue was clipped to zero stays zero).
        """
        X = validate_features(self, X, reset=False)
        Xs = (X - self._center) / self._scale
        check_squares_representable(Xs, "X")
        g = self._geodesics_to(Xs)
        lam = self._eigvals
        coef = np.divide(1.0, 2.0 * np.sqrt(lam), out=np.zeros_like(lam), where=lam > 0)
        Z = ((self._row_means[None, :] - g * g) @ self._eigvecs) * coef
        if Z.shape[1] < self.embedding_.shape[1]:
            Z = np.hstack([Z, np.zeros((Z.shape[0], self.embedding_.shape[1] - Z.shape[1]))])
        return Z * self._scale
