"""Graph-based semi-supervised learning, 003 §11.4 (11.7)-(11.16).

The labelled and unlabelled samples are the nodes of one graph whose edge weights are
the Gaussian affinities (11.7); labels then spread along the edges.

- :class:`LabelPropagation` is the binary energy-minimisation method of (11.8)-(11.12),
  applied one class at a time (one-hot ``f_l``): the labelled values are clamped and the
  unlabelled ones solve the linear system (11.10), ``(D_uu - W_uu) f_u = W_ul f_l``,
  which is (11.12) multiplied by ``D_uu``.
- :class:`LabelSpreading` is the multi-class iteration (11.13)-(11.14) with
  ``S = D^{-1/2} W D^{-1/2}``, run until it converges, or its limit (11.15) by one
  linear solve.

Both need every connected component of the graph to hold a labelled sample; a graph
where some component has none (weights that underflow to 0 for a small ``sigma``, or a
k-nearest-neighbour graph that falls apart) is refused with a ``ValueError`` naming the
samples, since no label reaches them. Sparse graphs (``n_neighbors``) use scipy.sparse
throughout; dense graphs are ``(n, n)`` arrays.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass

import numpy as np
import scipy.linalg
import scipy.sparse as sp
from numpy.typing import ArrayLike
from scipy.sparse import csgraph
from scipy.sparse.linalg import cg, spsolve
from scipy.spatial import cKDTree
from scipy.spatial.distance import cdist
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.exceptions import ConvergenceWarning

from algorithms._validation import (
    UNLABELLED,
    check_array_argument,
    check_choice,
    check_int,
    check_real,
    check_squares_representable,
    validate_features,
    validate_semi_supervised,
)

__all__ = [
    "LabelPropagation",
    "LabelSpreading",
    "SpreadResult",
    "affinity_matrix",
    "graph_energy",
    "harmonic_function",
    "propagation_matrix",
    "spread_labels",
]

#: Largest number of samples for which a dense (n, n) graph is built (8 * n^2 bytes:
#: 3.2 GB at the cap); beyond it ask for a k-nearest-neighbour graph.
MAX_DENSE_SAMPLES = 20_000

SPREAD_METHODS = ("iterative", "closed_form")


# ---------------------------------------------------------------------------
# The graph (11.7) and the quantities built from it
# ---------------------------------------------------------------------------


def _affinity(X: np.ndarray, sigma: float, k: int | None) -> np.ndarray | sp.csr_matrix:
    n = X.shape[0]
    if k is None:
        if n > MAX_DENSE_SAMPLES:
            raise ValueError(
                f"X has {n} samples; a dense graph is built for at most {MAX_DENSE_SAMPLES} "
                "(pass n_neighbors for a sparse k-nearest-neighbour graph).")
        W = np.exp(-cdist(X, X, "sqeuclidean") / (2.0 * sigma * sigma))
        np.fill_diagonal(W, 0.0)                                  # (11.7): W_ii = 0
        return W
    if k >= n:
        raise ValueError(f"n_neighbors must be below the number of samples {n}, got {k}.")
    dist, idx = cKDTree(X).query(X, k=k + 1)
    rows = np.repeat(np.arange(n), k)
    # drop each sample itself (it comes first unless duplicates tie with it)
    own = idx == np.arange(n)[:, None]
    keep = np.where(own.any(axis=1)[:, None], ~own, np.arange(k + 1) < k)
    cols, d = idx[keep], dist[keep]
    W = sp.csr_matrix((np.exp(-d * d / (2.0 * sigma * sigma)), (rows, cols)), shape=(n, n))
    return W.maximum(W.T).tocsr()       # an edge if either end has the other among its k


def _degrees(W) -> np.ndarray:
    return np.asarray(W.sum(axis=1)).ravel()


def _check_reachable(W, labelled: np.ndarray) -> None:
    """Every connected component holds a labelled node (else no label reaches it)."""
    n = W.shape[0]
    if not sp.issparse(W) and np.count_nonzero(W) == n * (n - 1):
        return                              # a complete graph: one component
    n_comp, comp = csgraph.connected_components(sp.csr_matrix(W) if not sp.issparse(W)
                                                else W, directed=False)
    reached = np.zeros(n_comp, dtype=bool)
    reached[comp[labelled]] = True
    orphans = np.flatnonzero(~reached[comp])
    if orphans.size:
        raise ValueError(
            f"the affinity graph of X has {int(np.count_nonzero(~reached))} connected "
            f"component(s) without a labelled sample (samples {orphans[:10].tolist()}"
            f"{'...' if orphans.size > 10 else ''}): no label reaches them. Increase sigma "
            "(Gaussian weights underflow to 0 beyond about 38.6 sigma), rescale X, or raise "
            "n_neighbors.")


def affinity_matrix(X: ArrayLike, sigma: float = 1.0, n_neighbors: int | None = None):
    """The Gaussian affinity graph (11.7): ``W_ij = exp(-||x_i - x_j||^2 / (2 sigma^2))``
    for ``i != j`` and ``W_ii = 0``.

    With ``n_neighbors = k`` only the edges from each sample to its k nearest others are
    kept (symmetrised: an edge if either end is among the other's k), as a sparse CSR
    matrix; otherwise the dense ``(n, n)`` array.
    """
    X = check_array_argument(X, "X", ndim=2, real=True)
    s = check_real(sigma, "sigma", low=0.0, low_open=True)
    k = None if n_neighbors is None else check_int(n_neighbors, "n_neighbors", low=1)
    return _affinity(X, s, k)


def _square_weights(W: object) -> np.ndarray | sp.csr_matrix:
    """``W`` validated: square, finite, non-negative, symmetric (dense or sparse)."""
    if sp.issparse(W):
        W = sp.csr_matrix(W, dtype=float)
        data = W.data
    else:
        W = check_array_argument(W, "W", ndim=2, real=True)
        data = W
    if W.shape[0] != W.shape[1] or W.shape[0] == 0:
        raise ValueError(f"W must be a non-empty square matrix, got shape {W.shape}.")
    if not np.all(np.isfinite(data)) or np.any(data < 0):
        raise ValueError("W must hold finite, non-negative weights.")
    if sp.issparse(W):
        diff = abs(W - W.T)
        asym = float(diff.max()) if diff.nnz else 0.0
        scale = float(data.max()) if data.size else 0.0
    else:
        asym, scale = float(np.max(np.abs(W - W.T))), float(np.max(W))
    if asym > 1e-12 * max(scale, 1e-300):
        raise ValueError(f"W must be symmetric (an undirected graph); |W - W^T| reaches "
                         f"{asym:.3g}.")
    return W


def graph_energy(W: object, f: ArrayLike) -> float:
    """The energy (11.8) ``E(f) = 1/2 sum_ij W_ij (f_i - f_j)^2``, summed over the
    columns of ``f`` if it is ``(n, k)``; computed as ``f^T (D - W) f``."""
    W = _square_weights(W)
    F = check_array_argument(f, "f", real=True)
    if F.ndim not in (1, 2) or F.shape[0] != W.shape[0]:
        raise ValueError(f"f must have {W.shape[0]} rows (one per node), got shape {F.shape}.")
    F = F.reshape(F.shape[0], -1)
    with np.errstate(over="ignore", invalid="ignore"):
        WF = W @ F
        energy = float(np.sum(_degrees(W)[:, None] * F * F) - np.sum(F * WF))
    if not np.isfinite(energy):
        raise ValueError("the energy of f on W overflows float64; rescale f or W.")
    return energy


def propagation_matrix(W: object) -> np.ndarray | sp.csr_matrix:
    """``S = D^{-1/2} W D^{-1/2}`` of §11.4 (a node without edges is refused: its
    ``d_i = 0`` has no inverse square root)."""
    return _propagation(_square_weights(W))


def _propagation(W) -> np.ndarray | sp.csr_matrix:
    d = _degrees(W)
    if np.any(d <= 0):
        raise ValueError(
            f"W has {int(np.count_nonzero(d <= 0))} node(s) without any edge (degree 0), "
            f"e.g. node {int(np.flatnonzero(d <= 0)[0])}: S = D^-1/2 W D^-1/2 is undefined.")
    r = 1.0 / np.sqrt(d)
    if sp.issparse(W):
        return sp.diags(r) @ W @ sp.diags(r)
    return r[:, None] * W * r[None, :]


#: Relative residual at which the sparse systems' conjugate gradients stop; then the
#: solution's relative error is at most cond(A) times this.
CG_RTOL = 1e-12


def _solve(A, B: np.ndarray, *, spd: bool) -> np.ndarray:
    """``A^{-1} B``: a dense SPD solve, or, for a sparse SPD ``A`` (a Laplacian block or
    I - alpha S of a k-NN graph, whose direct factorisation fills in badly), Jacobi-
    preconditioned conjugate gradients per column, falling back to a sparse LU solve
    for a column that does not converge."""
    if not sp.issparse(A):
        return scipy.linalg.solve(A, B, assume_a="pos" if spd else "gen")
    A = sp.csr_matrix(A)
    out = np.empty(B.shape)
    cols = B.reshape(B.shape[0], -1)
    flat = out.reshape(B.shape[0], -1)
    jacobi = sp.diags(1.0 / A.diagonal())
    for j in range(cols.shape[1]):
        x, info = cg(A, cols[:, j], rtol=CG_RTOL, atol=0.0, maxiter=10 * A.shape[0],
                     M=jacobi)
        flat[:, j] = x if info == 0 else spsolve(A.tocsc(), cols[:, j])
    return out


def _harmonic(W, labelled: np.ndarray, F_l: np.ndarray) -> np.ndarray:
    """f_u of (11.10) for every column of ``F_l``: ``(D_uu - W_uu) f_u = W_ul f_l``."""
    u = np.flatnonzero(~labelled)
    lab = np.flatnonzero(labelled)
    if u.size == 0:
        return np.empty((0, F_l.shape[1]))
    d = _degrees(W)
    if sp.issparse(W):
        W = W.tocsr()
        W_uu, W_ul = W[u][:, u], W[u][:, lab]
        A = (sp.diags(d[u]) - W_uu).tocsc()
        rhs = np.asarray(W_ul @ F_l)
    else:
        W_uu, W_ul = W[np.ix_(u, u)], W[np.ix_(u, lab)]
        A = np.diag(d[u]) - W_uu
        rhs = W_ul @ F_l
    return _solve(A, rhs, spd=True)


def harmonic_function(W: object, labelled: ArrayLike, f_l: ArrayLike) -> np.ndarray:
    """The minimum-energy ``f`` of (11.8) with ``f = f_l`` clamped on the labelled nodes:
    ``f_u = (D_uu - W_uu)^{-1} W_ul f_l`` (11.10), returned for every node (labelled
    entries equal to ``f_l``). ``f_l`` may be ``(l,)`` or ``(l, k)``.

    Every connected component of the graph must hold a labelled node.
    """
    W = _square_weights(W)
    mask = check_array_argument(labelled, "labelled", shape=(W.shape[0],), dtype=None)
    if mask.dtype != bool:
        raise ValueError(f"labelled must be a boolean mask, got dtype {mask.dtype}.")
    if not mask.any():
        raise ValueError("labelled must mark at least one node.")
    F_l = check_array_argument(f_l, "f_l", real=True)
    if F_l.ndim not in (1, 2) or F_l.shape[0] != int(mask.sum()):
        raise ValueError(
            f"f_l must have one row per labelled node ({int(mask.sum())}), got shape "
            f"{F_l.shape}.")
    _check_reachable(W, mask)
    cols = F_l.reshape(F_l.shape[0], -1)
    out = np.empty((W.shape[0], cols.shape[1]))
    out[mask] = cols
    out[~mask] = _harmonic(W, mask, cols)
    return out.reshape((W.shape[0],) + F_l.shape[1:])


@dataclass
class SpreadResult:
    """What :func:`spread_labels` computed.

    Attributes
    ----------
    F : ndarray of shape (n, k)
        The last iterate ``F(t)`` (the limit (11.15) with ``method="closed_form"``).
    n_iter : int
        Iterations of (11.14) made (0 for the closed form).
    converged : bool
    deltas : ndarray of shape (n_iter,)
        ``||F(t+1) - F(t)||_F`` after each iteration, as the loop measured it (it shrinks
        by at least the factor ``alpha`` per step, since ``||S||_2 = 1``).
    """

    F: np.ndarray
    n_iter: int
    converged: bool
    deltas: np.ndarray


def _spread(S, Y: np.ndarray, alpha: float, F0: np.ndarray | None, method: str,
            max_iter: int, tol: float) -> SpreadResult:
    if method == "closed_form":                                    # (11.15)
        n = Y.shape[0]
        A = (sp.identity(n, format="csc") - alpha * S) if sp.issparse(S) else (
            np.eye(n) - alpha * S)
        return SpreadResult((1.0 - alpha) * _solve(A, Y, spd=True), 0, True, np.empty(0))
    F = Y.copy() if F0 is None else F0.copy()
    base = (1.0 - alpha) * Y
    deltas = []
    converged = False
    for _ in range(max_iter):
        nxt = alpha * np.asarray(S @ F) + base                     # (11.14)
        delta = float(np.linalg.norm(nxt - F))                     # Frobenius
        F = nxt
        deltas.append(delta)
        if delta <= tol:
            converged = True
            break
    return SpreadResult(F, len(deltas), converged, np.array(deltas))


def spread_labels(S: object, Y: ArrayLike, alpha: float, *, F0: ArrayLike | None = None,
                  method: str = "iterative", max_iter: int = 1000,
                  tol: float = 1e-10) -> SpreadResult:
    """Iterate (11.14) ``F(t+1) = alpha S F(t) + (1 - alpha) Y`` from ``F0`` (default
    ``Y``, as in (11.13)) until ``||F(t+1) - F(t)||_F <= tol`` or ``max_iter``
    iterations (``ConvergenceWarning``), or with ``method="closed_form"`` return the
    limit (11.15) ``(1 - alpha) (I - alpha S)^{-1} Y`` by one linear solve.

    ``S`` is a propagation matrix (:func:`propagation_matrix`), ``alpha`` in (0, 1).
    """
    S = _square_weights(S) if sp.issparse(S) else check_array_argument(S, "S", ndim=2,
                                                                          real=True)
    if S.shape[0] != S.shape[1]:
        raise ValueError(f"S must be square, got shape {S.shape}.")
    top = float(abs(S).max()) if (S.nnz if sp.issparse(S) else S.size) else 0.0
    if top > 1.0 + 1e-12:
        raise ValueError(f"S must be a propagation matrix D^-1/2 W D^-1/2, whose entries "
                         f"are at most 1; got an entry of magnitude {top:.3g}.")
    n = S.shape[0]
    Y = check_squares_representable(check_array_argument(Y, "Y", ndim=2, real=True), "Y")
    if Y.shape[0] != n:
        raise ValueError(f"Y must have {n} rows, got shape {Y.shape}.")
    a = check_real(alpha, "alpha", low=0.0, high=1.0, low_open=True, high_open=True)
    F0 = None if F0 is None else check_squares_representable(
        check_array_argument(F0, "F0", shape=Y.shape, real=True), "F0")
    m = check_choice(method, "method", SPREAD_METHODS)
    it = check_int(max_iter, "max_iter", low=1)
    t = check_real(tol, "tol", low=0.0)
    out = _spread(S, Y, a, F0, m, it, t)
    if not np.all(np.isfinite(out.F)):
        raise ValueError("the iteration diverged: S must have spectral radius at most 1 "
                         "(a propagation matrix D^-1/2 W D^-1/2).")
    if not out.converged:
        warnings.warn(f"spread_labels did not converge in {it} iterations (last change "
                      f"{out.deltas[-1]:.3g} > tol={t}).", ConvergenceWarning, stacklevel=2)
    return out


# ---------------------------------------------------------------------------
# Estimators
# ---------------------------------------------------------------------------


class _GraphSSL(ClassifierMixin, BaseEstimator):
    """Shared fitting of the graph methods: validation, the graph, out-of-sample use."""

    def _graph_settings(self) -> tuple[float, int | None]:
        sigma = check_real(self.sigma, "sigma", low=0.0, low_open=True)
        k = None if self.n_neighbors is None else check_int(
            self.n_neighbors, "n_neighbors", low=1)
        return sigma, k

    def _prepare(self, X: ArrayLike, y: ArrayLike):
        X, codes = validate_semi_supervised(self, X, y)
        sigma, k = self._graph_settings()
        W = _affinity(X, sigma, k)
        labelled = codes != UNLABELLED
        _check_reachable(W, labelled)
        Y = np.zeros((X.shape[0], self.classes_.shape[0]))
        Y[np.flatnonzero(labelled), codes[labelled]] = 1.0          # (11.13)
        self.X_fit_ = X
        return W, labelled, Y

    def _finish(self, F: np.ndarray) -> None:
        total = F.sum(axis=1, keepdims=True)
        self.label_distributions_ = F / total
        self.transduction_ = self.classes_[np.argmax(F, axis=1)]

    def predict_proba(self, X: ArrayLike) -> np.ndarray:
        """Class probabilities of new samples: the Gaussian-weighted average (same
        ``sigma``; the ``n_neighbors`` nearest training samples if set) of the training
        samples' ``label_distributions_``. The notes give no rule for new samples (§11.4,
        last paragraph); this is scikit-learn's. A sample too far from every training
        sample for a non-zero weight takes the distribution of its nearest one."""
        X = validate_features(self, X, reset=False)
        sigma, k = self._graph_settings()
        if k is None:
            sq = cdist(X, self.X_fit_, "sqeuclidean")
        else:
            kk = min(k, self.X_fit_.shape[0])
            dist, idx = cKDTree(self.X_fit_).query(X, k=kk)
            dist, idx = dist.reshape(X.shape[0], kk), idx.reshape(X.shape[0], kk)
            sq = np.full((X.shape[0], self.X_fit_.shape[0]), np.inf)
            np.put_along_axis(sq, idx, dist * dist, axis=1)
        weights = np.exp(-sq / (2.0 * sigma * sigma))
        P = weights @ self.label_distributions_
        total = P.sum(axis=1)
        far = total <= 0.0
        if np.any(far):
            P[far] = self.label_distributions_[np.argmin(sq[far], axis=1)]
            total[far] = 1.0
        return P / total[:, None]

    def predict(self, X: ArrayLike) -> np.ndarray:
        """The class of the largest ``predict_proba``."""
        proba = self.predict_proba(X)
        return self.classes_[np.argmax(proba, axis=1)]


class LabelPropagation(_GraphSSL):
    """Label propagation by the harmonic solution of 003 §11.4 (11.8)-(11.12).

    The labelled samples' one-hot label vectors are clamped; the unlabelled ones take the
    minimum-energy values (11.10), solved column by column in one linear system
    ``(D_uu - W_uu) F_u = W_ul F_l`` (SPD when every component holds a labelled sample).
    For two classes with labels +-1 this is the notes' ``f_u`` up to the affine map
    ``f = F[:, +1] - F[:, -1]``.

    Parameters
    ----------
    sigma : float, default=1.0
        Width of the Gaussian affinities (11.7).
    n_neighbors : int or None, default=None
        Keep only k-nearest-neighbour edges (a sparse graph), or all (dense).

    Attributes
    ----------
    classes_ : ndarray
        Labels of the labelled samples (``-1`` marks the unlabelled ones in ``y``).
    label_distributions_ : ndarray of shape (n_samples, n_classes)
        The rows of F: one-hot on labelled samples, the harmonic values elsewhere (rows
        of a harmonic solution already sum to 1).
    transduction_ : ndarray of shape (n_samples,)
        The label of every training sample, ``argmax`` of its row.
    X_fit_ : ndarray
    n_features_in_ : int
    """

    def __init__(self, *, sigma: float = 1.0, n_neighbors: int | None = None) -> None:
        self.sigma = sigma
        self.n_neighbors = n_neighbors

    def fit(self, X: ArrayLike, y: ArrayLike) -> LabelPropagation:
        """Build the graph of all samples of ``X`` and propagate the labels of ``y``
        (``-1`` for the unlabelled samples)."""
        W, labelled, Y = self._prepare(X, y)
        F = Y.copy()
        F[~labelled] = _harmonic(W, labelled, Y[labelled])
        self._finish(F)
        return self


class LabelSpreading(_GraphSSL):
    """Iterative label spreading, 003 §11.4 (11.13)-(11.16), the notes' Fig. 13.5.

    ``F(t+1) = alpha S F(t) + (1 - alpha) Y`` with ``S = D^{-1/2} W D^{-1/2}`` from
    ``F(0) = Y`` until ``||F(t+1) - F(t)||_F <= tol`` (``method="iterative"``; then
    ``||F(t+1) - F*||_F <= alpha / (1 - alpha) tol``), or
    the limit (11.15) ``F* = (1 - alpha)(I - alpha S)^{-1} Y`` by one linear solve
    (``method="closed_form"``); each sample takes the class of the largest entry of its
    row. Unlike label propagation, labelled samples may be relabelled.

    Parameters
    ----------
    alpha : float, default=0.2
        The trade-off in (0, 1) of (11.14).
    sigma : float, default=1.0
    n_neighbors : int or None, default=None
    method : {"iterative", "closed_form"}, default="iterative"
    max_iter : int, default=1000
        Iteration cap (``ConvergenceWarning`` when reached).
    tol : float, default=1e-9

    Attributes
    ----------
    F_ : ndarray of shape (n_samples, n_classes)
        The last iterate (or F*).
    label_distributions_ : ndarray
        ``F_`` with rows normalised to sum 1.
    transduction_ : ndarray
    n_iter_ : int
    converged_ : bool
    deltas_ : ndarray
        ``||F(t+1) - F(t)||_F`` after each iteration, recorded by the loop.
    """

    def __init__(self, *, alpha: float = 0.2, sigma: float = 1.0,
                 n_neighbors: int | None = None, method: str = "iterative",
                 max_iter: int = 1000, tol: float = 1e-9) -> None:
        self.alpha = alpha
        self.sigma = sigma
        self.n_neighbors = n_neighbors
        self.method = method
        self.max_iter = max_iter
        self.tol = tol

    def fit(self, X: ArrayLike, y: ArrayLike) -> LabelSpreading:
        """Build the graph of all samples and spread the labels of ``y`` (``-1``:
        unlabelled)."""
        alpha = check_real(self.alpha, "alpha", low=0.0, high=1.0, low_open=True,
                           high_open=True)
        method = check_choice(self.method, "method", SPREAD_METHODS)
        max_iter = check_int(self.max_iter, "max_iter", low=1)
        tol = check_real(self.tol, "tol", low=0.0)
        W, _, Y = self._prepare(X, y)
        out = _spread(_propagation(W), Y, alpha, None, method, max_iter, tol)
        self.F_ = out.F
        self.n_iter_ = out.n_iter
        self.converged_ = out.converged
        self.deltas_ = out.deltas
        if not out.converged:
            warnings.warn(f"LabelSpreading did not converge in {max_iter} iterations (last "
                          f"change {out.deltas[-1]:.3g} > tol={tol}).", ConvergenceWarning,
                          stacklevel=2)
        self._finish(out.F)
        return self
