"""Locally linear embedding (003 §8.5.2 (8.19)-(8.24), Fig 10.10).

Step 1, reconstruction weights (8.20)-(8.21): for every sample ``x_i`` with neighbour set
``Q_i`` (its ``k`` nearest other samples), the local Gram matrix
``C_jk = (x_i - x_j)^T (x_i - x_k)`` (``j, k in Q_i``) gives ``w_i = C^(-1) 1 / 1^T C^(-1) 1``,
the minimiser of ``||x_i - sum_j w_ij x_j||^2`` subject to ``sum_j w_ij = 1``; ``w_ij = 0``
outside ``Q_i``. ``C`` has rank at most ``d``, so for ``k > d`` it is singular and (8.21)
is undefined: it is regularised to ``C + reg * tr(C) * I`` (Roweis and Saul), which is the
weight-decay version of (8.20). ``C w = 1`` is solved, never inverted.

Step 2, embedding (8.22)-(8.24): ``M = (I - W)^T (I - W)``; ``sum_i ||z_i - sum_j w_ij
z_j||^2 = tr(Z M Z^T)``. ``M 1 = 0`` (rows of ``W`` sum to 1), so the smallest eigenvalue is
0 with the constant eigenvector, a trivial embedding that puts every sample at one point;
it is discarded and the eigenvectors of the next ``d'`` eigenvalues are the coordinates
(this is the minimiser of (8.24) with the centring constraint ``Z 1 = 0`` added).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy import linalg, sparse
from scipy.sparse import linalg as sparse_linalg
from scipy.spatial import cKDTree
from sklearn.base import BaseEstimator, TransformerMixin

from algorithms._validation import (
    check_int,
    check_real,
    check_squares_representable,
    validate_features,
)
from algorithms.dimred._isomap import _knn
from algorithms.dimred._mds import _sign_fix

__all__ = ["LLEWeights", "LocallyLinearEmbedding", "lle_weights"]

#: Up to this size M is decomposed densely by LAPACK; beyond it, by ARPACK in
#: shift-invert mode around 0 (sparse LU of M).
_DENSE_EIGEN_MAX = 500
#: A solved local system C w = 1 whose residual exceeds this (relative to ||C|| ||w||)
#: comes from a numerically singular C (reg = 0 with k > d or affinely dependent
#: neighbours): refused rather than returned as garbage.
_SINGULAR_RESIDUAL = 1e-8


@dataclass(frozen=True)
class LLEWeights:
    """Reconstruction weights of (8.21).

    Attributes
    ----------
    indices : ndarray (m, k)
        ``Q_i``: the neighbours of each sample (nearest first).
    weights : ndarray (m, k)
        ``w_ij`` for ``j`` in ``Q_i``; each row sums to 1.
    matrix : scipy.sparse.csr_matrix (m, m)
        ``W`` with ``(W)_ij = w_ij`` and zeros outside the neighbour sets.
    """

    indices: np.ndarray
    weights: np.ndarray
    matrix: sparse.csr_matrix


def _barycentre_weights(Xs: np.ndarray, queries: np.ndarray, idx: np.ndarray,
                        reg: float) -> np.ndarray:
    """Weights (q, k) reconstructing each query from its neighbours ``Xs[idx]`` by (8.21),
    with ``C + reg tr(C) I`` (``reg`` alone when ``tr(C) = 0``)."""
    N = Xs[idx] - queries[:, None, :]  # (q, k, d): x_j - x_i
    C = N @ N.transpose(0, 2, 1)  # C_jk = (x_i - x_j)^T (x_i - x_k)
    k = idx.shape[1]
    if reg > 0:
        tr = np.trace(C, axis1=1, axis2=2)
        C = C + (np.where(tr > 0, reg * tr, reg))[:, None, None] * np.eye(k)
    ones = np.ones((C.shape[0], k, 1))
    try:
        w = np.linalg.solve(C, ones)[..., 0]
    except np.linalg.LinAlgError:
        w = np.full((C.shape[0], k), np.nan)
    resid = np.linalg.norm(C @ w[..., None] - ones, axis=(1, 2))
    size = np.linalg.norm(C, axis=(1, 2)) * np.linalg.norm(w, axis=1) + 1.0
    total = w.sum(axis=1)
    bad = ~np.isfinite(resid) | (resid > _SINGULAR_RESIDUAL * size) | (np.abs(total) < 1e-300)
    if np.any(bad):
        i = int(np.argmax(bad))
        raise ValueError(
            f"reg={reg!r}: the local Gram matrix C of sample {i} is singular (k = {k} "
            f"neighbours in {Xs.shape[1]} dimensions, or affinely dependent neighbours), "
            "so (8.21) is undefined; use reg > 0.")
    return w / total[:, None]


def _check_hyper(est, m: int, d: int) -> tuple[int, int, float]:
    k = check_int(est.n_neighbors, "n_neighbors", low=1)
    if k > m - 1:
        raise ValueError(f"n_neighbors must be < n_samples = {m} (k neighbours other than "
                         f"the sample itself), got {k}.")
    reg = check_real(est.reg, "reg", low=0.0)
    n_components = check_int(est.n_components, "n_components", low=1)
    if n_components > d:
        raise ValueError(f"n_components must be at most n_features = {d} (d' <= d); X has "
                         f"{d} feature(s), got {n_components}.")
    if n_components > m - 1:
        raise ValueError(f"n_components must be < n_samples = {m} (the constant eigenvector "
                         f"of M is discarded), got {n_components}.")
    return k, n_components, reg


def _standardise(X: np.ndarray) -> tuple[np.ndarray, np.ndarray, float]:
    center = X.mean(axis=0)
    s = float(np.max(np.abs(X - center))) or 1.0
    return (X - center) / s, center, s


def _weights(Xs: np.ndarray, k: int, reg: float) -> tuple[LLEWeights, cKDTree]:
    m = Xs.shape[0]
    tree = cKDTree(Xs)
    _, idx = _knn(tree, Xs, k)
    w = _barycentre_weights(Xs, Xs, idx, reg)
    W = sparse.csr_matrix((w.ravel(), (np.repeat(np.arange(m), k), idx.ravel())),
                          shape=(m, m))
    return LLEWeights(idx, w, W), tree


def lle_weights(X: object, n_neighbors: int = 5, reg: float = 1e-3) -> LLEWeights:
    """Reconstruction weights of LLE (003 §8.5.2 (8.20)-(8.21), Fig 10.10 lines 1-5).

    Parameters
    ----------
    X : array-like (m, d)
        Samples.
    n_neighbors : int, default 5
        ``k = |Q_i|``, ``1 <= k <= m - 1``.
    reg : float, default 1e-3
        ``>= 0``; ``C`` is replaced by ``C + reg tr(C) I``. ``reg = 0`` is (8.21) exactly
        and needs every ``C`` invertible (``k <= d`` and neighbours in general position).

    Returns
    -------
    LLEWeights
        Neighbour indices, weights (rows summing to 1) and the sparse ``W``.
    """
    est = LocallyLinearEmbedding(n_neighbors=n_neighbors, reg=reg, n_components=1)
    X = validate_features(est, X, reset=True)
    k, _, reg = _check_hyper(est, X.shape[0], max(X.shape[1], 1))
    Xs, _, _ = _standardise(X)
    return _weights(Xs, k, reg)[0]


def _smallest_eigen(M: sparse.csr_matrix, k: int) -> tuple[np.ndarray, np.ndarray]:
    """The k smallest eigenpairs of the symmetric PSD sparse M, ascending."""
    m = M.shape[0]
    if m > _DENSE_EIGEN_MAX:
        try:
            v0 = np.random.default_rng(0).standard_normal(m)
            lam, V = sparse_linalg.eigsh(M, k=k, sigma=0.0, which="LM", v0=v0, tol=1e-12)
            order = np.argsort(lam)
            return lam[order], V[:, order]
        except (RuntimeError, sparse_linalg.ArpackError):  # singular factorisation etc.
            pass
    return linalg.eigh(M.toarray(), subset_by_index=[0, k - 1])


def _discard_constant(lam: np.ndarray, V: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Eigenpairs with the constant direction removed from their span (the constraint
    ``Z 1 = 0``), as (eigenvalues (d'+1,), vectors (m, d')).

    ``M 1 = 0``, so 1/sqrt(m) lies in the span of the d'+1 smallest eigenvectors. When the
    eigenvalue 0 is simple it is the first eigenvector and this is "discard the first";
    when it is not (a neighbourhood graph with several components, or nearly so), LAPACK
    returns an arbitrary basis of the null space, and dropping the first vector could keep
    a coordinate with a constant part. Here the vectors are rotated, inside their span, to
    an orthonormal basis orthogonal to 1 that diagonalises M (Rayleigh-Ritz).
    """
    m, k = V.shape
    c = V.T @ np.full(m, 1.0 / np.sqrt(m))  # coordinates of the constant vector in the span
    c /= np.linalg.norm(c)
    basis = linalg.null_space(c[None, :])  # (k, k-1): orthonormal complement of c
    small = basis.T @ (lam[:, None] * basis)  # V^T M V restricted to the complement
    mu, R = linalg.eigh(0.5 * (small + small.T))
    return np.concatenate([[float(c @ (lam * c))], mu]), V @ (basis @ R)


class LocallyLinearEmbedding(TransformerMixin, BaseEstimator):
    """Locally linear embedding, the standard method (003 §8.5.2, Fig 10.10).

    Parameters
    ----------
    n_neighbors : int, default 5
        ``k``, ``1 <= k <= m - 1``.
    n_components : int, default 2
        ``d'``, ``1 <= d' <= min(d, m - 1)``.
    reg : float, default 1e-3
        Regularisation of the local Gram matrices, ``C + reg tr(C) I`` (``>= 0``).

    Attributes
    ----------
    embedding_ : ndarray (m, d')
        Eigenvectors of ``M`` for its 2nd to (d'+1)-th smallest eigenvalues (unit
        columns: ``Z Z^T = I``), the constant eigenvector discarded (``Z 1 = 0``; with a
        repeated eigenvalue 0 the constant direction is projected out of the span).
    eigenvalues_ : ndarray (d' + 1,)
        The ``d' + 1`` smallest eigenvalues of ``M``, ascending (the first, ~0, is the
        constant vector's).
    weights_ : LLEWeights
        Neighbour sets and reconstruction weights of (8.21).
    M_ : scipy.sparse.csr_matrix (m, m)
        ``(I - W)^T (I - W)`` (8.23).
    reconstruction_error_ : float
        ``tr(Z M Z^T)``, the sum of the kept eigenvalues.
    n_features_in_ : int

    Notes
    -----
    New samples are placed like (8.19): their weights on their ``k`` nearest training
    samples by (8.21), then ``z = sum_j w_j z_j``.
    """

    def __init__(self, n_neighbors: int = 5, *, n_components: int = 2, reg: float = 1e-3):
        self.n_neighbors = n_neighbors
        self.n_components = n_components
        self.reg = reg

    def fit(self, X, y=None):
        """Compute the weights, ``M`` and the embedding."""
        self.fit_transform(X, y)
        return self

    def fit_transform(self, X, y=None):
        """Fit and return ``embedding_`` (m, d')."""
        X = validate_features(self, X, reset=True)
        m, d = X.shape
        k, n_components, reg = _check_hyper(self, m, d)
        Xs, center, s = _standardise(X)
        weights, tree = _weights(Xs, k, reg)
        IW = sparse.identity(m, format="csr") - weights.matrix
        M = (IW.T @ IW).tocsr()
        lam, V = _discard_constant(*_smallest_eigen(M, n_components + 1))
        self._center, self._scale, self._Xs, self._tree, self._k = center, s, Xs, tree, k
        self._reg = reg
        self.weights_ = weights
        self.M_ = M
        self.eigenvalues_ = lam
        self.embedding_ = _sign_fix(V)
        self.reconstruction_error_ = float(np.sum(lam[1:]))
        return self.embedding_

    def transform(self, X):
        """Embed new samples: weights on their k nearest training samples, then
        ``z = sum_j w_j z_j``."""
        X = validate_features(self, X, reset=False)
        Q = (X - self._center) / self._scale
        check_squares_representable(Q, "X")
        _, idx = self._tree.query(Q, k=self._k)
        idx = idx.reshape(Q.shape[0], self._k)
        w = _barycentre_weights(self._Xs, Q, idx, self._reg)
        return np.einsum("qk,qkc->qc", w, self.embedding_[idx])
