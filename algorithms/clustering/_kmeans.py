"""k-means (Lloyd's algorithm) of 003 §7.4.1, Algorithm 1, minimising (7.16).

    E = sum_i sum_{x in C_i} ||x - mu_i||_2^2                                  (7.16)

Algorithm 1 alternates two steps until no mean changes:

- assignment (lines 4-9): ``lambda_j = argmin_i ||x_j - mu_i||_2`` and
  ``C_{lambda_j} <- C_{lambda_j} ∪ {x_j}`` (the notes print ``C_{lambda_j} = C_{lambda_j}``,
  which never adds ``x_j``);
- update (lines 10-17): ``mu_i' = (1/|C_i|) sum_{x in C_i} x``, replacing ``mu_i`` when it
  differs.

Each step can only lower ``E`` (the nearest mean minimises each term; the mean minimises
a cluster's squared error), and ``E`` takes finitely many values, so the loop stops.
"""

from __future__ import annotations

import contextlib
import os
import warnings
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field

import numpy as np
from numpy.typing import ArrayLike
from scipy import sparse
from sklearn.base import BaseEstimator, ClusterMixin
from sklearn.exceptions import ConvergenceWarning

from algorithms._threads import one_blas_thread
from algorithms._validation import (
    check_array_argument,
    check_bool,
    check_choice,
    check_int,
    check_real,
    check_squares_representable,
    make_rng,
    validate_features,
)
from algorithms.clustering._distances import exact_scale

__all__ = ["EMPTY_CLUSTER_RULES", "KMEANS_INITS", "KMeans", "kmeans_plusplus"]

#: Initial means: ``k`` distinct random samples (line 2 of Algorithm 1), or k-means++.
KMEANS_INITS = ("random", "k-means++")
#: What the update step does with an empty cluster (line 11 would divide by |C_i| = 0):
#: move its mean to the sample farthest from its own mean among the samples not alone in
#: their cluster, and that sample into it, or keep the mean unchanged (lines 14-15).
EMPTY_CLUSTER_RULES = ("relocate", "keep")

#: Relative rounding of a squared distance computed as ||x||^2 - 2 x.mu + ||mu||^2
#: (a few float64 ulps of the squared norms, with a factor 1e3 of room).
_TIE = 1e-12
#: The assignment step runs on threads from this many samples on (below, the threads cost
#: more than the work), with at most this many threads.
_PARALLEL_ROWS = 20_000
_MAX_THREADS = 8
#: Up to this many clusters the assignment packs the index into the distances' low bits.
_PACKED_MAX = 256
#: Up to this many (sample, cluster) entries the update step sums clusters with a dense
#: one-hot product; beyond, with a sparse one.
_DENSE_ONE_HOT = 200_000


def check_n_clusters(n_clusters: object, n_samples: int, name: str = "n_clusters") -> int:
    """``1 <= n_clusters <= n_samples``, with an error naming both."""
    k = check_int(n_clusters, name, low=1)
    if k > n_samples:
        raise ValueError(f"{name}={k} must not exceed the number of samples, got "
                         f"n_samples={n_samples}.")
    return k


def nearest_of_columns(D: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Row index and value of the smallest entry of each column of ``D`` (k, m), entries
    >= 0, ties to the smallest index.

    For k <= 256 the index is packed into the lowest ceil(log2 k) bits of each entry's
    float64 pattern (non-negative doubles order like their int64 patterns), so one
    vectorised min-reduction over the k rows finds both; the returned values lose those
    bits (relative change <= 2^-44, below the rounding of the distances themselves).
    ``argmin`` along the short axis is 2-3x slower.
    """
    k = D.shape[0]
    if k == 1:
        return np.zeros(D.shape[1], dtype=np.intp), D[0].copy()
    if k > _PACKED_MAX:
        labels = np.argmin(D, axis=0)
        return labels, D[labels, np.arange(D.shape[1])]
    mask = np.int64((1 << int(k - 1).bit_length()) - 1)
    packed = D.view(np.int64)
    packed &= ~mask
    packed |= np.arange(k, dtype=np.int64)[:, None]
    best = np.minimum.reduce(packed, axis=0)
    labels = (best & mask).astype(np.intp)
    best &= ~mask
    return labels, best.view(np.float64)


def kmeans_plusplus(X: np.ndarray, k: int, rng: np.random.Generator) -> np.ndarray:
    """k-means++ seeding: the first mean a uniform sample, each next one a sample drawn
    with probability proportional to its squared distance to the nearest chosen mean
    (uniformly when every sample coincides with a chosen mean).

    ``X`` is a finite (m, n) array, ``1 <= k <= m``, ``rng`` anything
    :func:`numpy.random.default_rng` accepts. Returns the ``k`` chosen samples (k, n).
    """
    X = check_array_argument(X, "X", ndim=2, real=True)
    k = check_int(k, "k", low=1, high=X.shape[0])
    rng = make_rng(rng, "rng")
    s = exact_scale(X)  # squared distances of X / s: exact ratios, no overflow
    return _kmeans_plusplus(X / s, k, rng) * s


def _kmeans_plusplus(X: np.ndarray, k: int, rng: np.random.Generator) -> np.ndarray:
    """:func:`kmeans_plusplus` on validated input."""
    m = X.shape[0]
    idx = [int(rng.integers(m))]
    nearest = np.sum((X - X[idx[0]]) ** 2, axis=1)
    for _ in range(1, k):
        total = float(nearest.sum())
        j = int(rng.choice(m, p=nearest / total)) if total > 0 else int(rng.integers(m))
        idx.append(j)
        np.minimum(nearest, np.sum((X - X[j]) ** 2, axis=1), out=nearest)
    return X[idx].copy()


@dataclass
class _LloydRun:
    centres: np.ndarray
    labels: np.ndarray
    objective: list[float] = field(default_factory=list)
    labels_history: list[np.ndarray] | None = None
    centres_history: list[np.ndarray] | None = None
    n_iter: int = 0
    converged: bool = False
    n_relocated: int = 0
    shift: np.ndarray | None = None


class _Lloyd:
    """Algorithm 1 on centred data (the means and ``E`` are translation-invariant; centring
    keeps the expanded distances ``||x||^2 - 2 x.mu + ||mu||^2`` accurate)."""

    def __init__(self, X: np.ndarray, centres: np.ndarray, *, empty_rule: str,
                 keep_history: bool, pool: ThreadPoolExecutor | None = None,
                 threads: int = 1) -> None:
        self.pool = pool
        size = -(-X.shape[0] // threads)
        self.blocks = [slice(s, s + size) for s in range(0, X.shape[0], size)]
        self.shift = X.mean(axis=0)
        self.X = X - self.shift
        self.x_sq = np.einsum("ij,ij->i", self.X, self.X)
        self.rows = np.arange(X.shape[0])
        self.ones = np.ones(X.shape[0])
        self.indptr = np.arange(X.shape[0] + 1)
        self.k = centres.shape[0]
        self.empty_rule = empty_rule
        self.run = _LloydRun(centres=centres - self.shift, labels=np.zeros(0, dtype=np.intp),
                             labels_history=[] if keep_history else None,
                             centres_history=[] if keep_history else None)

    def _record(self, value: float, labels: np.ndarray, centres: np.ndarray) -> None:
        run = self.run
        run.objective.append(max(float(value), 0.0))
        if run.labels_history is not None:
            run.labels_history.append(labels.copy())
            run.centres_history.append(centres + self.shift)

    def _assign_rows(self, rows: slice, C2: np.ndarray, c_sq: np.ndarray
                     ) -> tuple[np.ndarray, np.ndarray]:
        """Nearest means and squared distances of the samples ``rows`` (C2 = -2 mu)."""
        D = C2 @ self.X[rows].T  # (k, rows): one contiguous row per mean
        D += c_sq[:, None]
        D += self.x_sq[rows]
        np.maximum(D, 0.0, out=D)
        labels, best = nearest_of_columns(D)
        if self.run.labels.shape[0]:
            # Rounding of the expanded distances is ~1e-16 (||x||^2 + ||mu||^2): a sample
            # leaves its cluster only for a mean closer by more than that (otherwise two
            # equal means would trade a repeated sample back and forth for ever).
            prev = self.run.labels[rows]
            moved = np.flatnonzero(labels != prev)
            if moved.shape[0]:
                old = D[prev[moved], moved]
                noise = _TIE * (self.x_sq[rows][moved] + self.c_max)
                keep = old <= best[moved] + noise
                stay = moved[keep]
                labels[stay] = prev[stay]
                best[stay] = old[keep]
        return labels, best

    def assign(self) -> np.ndarray:
        """Lines 4-9: nearest means; records E(C_new, mu) and returns the squared distances
        of the samples to their means. Blocks of rows run on the thread pool."""
        C = self.run.centres
        c_sq = np.einsum("ij,ij->i", C, C)
        self.c_max = float(c_sq.max())
        C2 = -2.0 * C
        if self.pool is None:
            labels, dist = self._assign_rows(slice(None), C2, c_sq)
        else:
            parts = list(self.pool.map(lambda rows: self._assign_rows(rows, C2, c_sq),
                                       self.blocks))
            labels = np.concatenate([p[0] for p in parts])
            dist = np.concatenate([p[1] for p in parts])
        self.run.labels = labels
        self._record(dist.sum(), labels, C)
        return dist

    def _relocate(self, labels: np.ndarray, dist: np.ndarray, counts: np.ndarray) -> None:
        """Move each empty cluster's mean onto the sample farthest from its own mean among
        those whose cluster keeps another sample (that sample joins it): its term of E drops
        to 0, so E still does not increase, and no cluster is emptied. A sample alone in its
        cluster is passed over for the next farthest (taking it would only move the empty
        cluster; stopping at it would waste a round on the same partition)."""
        empty = np.flatnonzero(counts == 0)
        noise = _TIE * (self.x_sq + self.c_max)
        candidates = np.flatnonzero(dist > noise)  # not a sample on its mean
        if empty.shape[0] == 0 or candidates.shape[0] == 0:
            return
        filled = 0
        # at most k candidates are passed over (one per cluster left with one sample)
        for j in candidates[np.argsort(-dist[candidates], kind="stable")]:
            if counts[labels[j]] <= 1:  # never empty the donor cluster
                continue
            cluster = empty[filled]
            counts[labels[j]] -= 1
            counts[cluster] += 1
            labels[j] = cluster
            diff = self.X[j] - self.run.centres[cluster]
            dist[j] = float(diff @ diff)
            self.run.n_relocated += 1
            filled += 1
            if filled == empty.shape[0]:
                return

    def update(self, dist: np.ndarray) -> bool:
        """Lines 10-17: new means; records E(C, mu_new). Returns whether a mean changed."""
        run = self.run
        labels = run.labels.copy()
        counts = np.bincount(labels, minlength=self.k)
        if self.empty_rule == "relocate" and np.any(counts == 0):
            self._relocate(labels, dist, counts)
            run.labels = labels
        # one row per sample with a single 1 in its cluster's column: M^T X sums the clusters
        # (dense for small problems, where building a sparse matrix costs more)
        if self.X.shape[0] * self.k <= _DENSE_ONE_HOT:
            sums = (labels[:, None] == np.arange(self.k)).T.astype(float) @ self.X
        else:
            one_hot = sparse.csr_matrix((self.ones, labels, self.indptr),
                                        shape=(self.X.shape[0], self.k))
            sums = one_hot.T @ self.X
        filled = counts > 0
        new = run.centres.copy()
        new[filled] = sums[filled] / counts[filled, None]
        step = np.sum((new - run.centres) ** 2, axis=1)
        # E(C, mu_new) = E(C, mu_old) - sum_i |C_i| ||mu_old_i - mu_new_i||^2 (mu_new the means)
        self._record(dist.sum() - counts @ step, labels, new)
        changed = not np.array_equal(new, run.centres)
        run.centres = new
        self.last_shift = float(step.sum())
        return changed


def lloyd(X: np.ndarray, centres: np.ndarray, *, max_iter: int, tol: float,
          empty_rule: str, keep_history: bool) -> _LloydRun:
    """Run Algorithm 1 from ``centres``; every E is recorded by the step that produced it.

    BLAS runs on one thread inside the loop: the products are thin (k columns), where
    OpenBLAS's threads cost more than they save, and badly so on a loaded machine. The
    assignment step instead splits the rows into one block per core (numpy releases the GIL
    in the products and the argmin) from 20,000 samples on.
    """
    threads = min(os.cpu_count() or 1, _MAX_THREADS) if X.shape[0] >= _PARALLEL_ROWS else 1
    with one_blas_thread(), contextlib.ExitStack() as stack:
        pool = stack.enter_context(ThreadPoolExecutor(threads)) if threads > 1 else None
        return _lloyd(X, centres, max_iter=max_iter, tol=tol, empty_rule=empty_rule,
                      keep_history=keep_history, pool=pool, threads=threads)


def _lloyd(X: np.ndarray, centres: np.ndarray, *, max_iter: int, tol: float,
           empty_rule: str, keep_history: bool, pool: ThreadPoolExecutor | None,
           threads: int) -> _LloydRun:
    state = _Lloyd(X, centres, empty_rule=empty_rule, keep_history=keep_history, pool=pool,
                   threads=threads)
    run = state.run
    for it in range(1, max_iter + 1):
        dist = state.assign()
        changed = state.update(dist)
        run.n_iter = it
        if not changed or (tol > 0 and state.last_shift <= tol):
            run.converged = True
            break
    if not run.converged or tol > 0:
        state.assign()  # labels consistent with the final means
    run.centres = run.centres + state.shift
    run.shift = state.shift
    return run


def nearest_centre(X: np.ndarray, centres: np.ndarray, shift: np.ndarray | None = None
                   ) -> np.ndarray:
    """Index of the nearest centre (Euclidean) of each row, computed as the assignment step
    does (on data translated by ``-shift``), so ``predict`` reproduces the fitted labels."""
    if shift is None:
        shift = np.zeros(X.shape[1])
    C = centres - shift
    G = (X - shift) @ C.T
    G *= -2.0
    G += np.einsum("ij,ij->i", C, C)
    return np.argmin(G, axis=1)


class KMeans(ClusterMixin, BaseEstimator):
    """k-means clustering by Lloyd's algorithm (003 §7.4.1, Algorithm 1).

    Parameters
    ----------
    n_clusters : int, default=8
        ``k`` (1 <= k <= number of samples).
    init : {"random", "k-means++"} or array-like of shape (k, n), default="random"
        Initial means: ``k`` distinct samples drawn at random (line 2), k-means++ seeding,
        or the given means.
    max_iter : int, default=300
        Maximum number of assignment + update rounds.
    tol : float, default=0.0
        0: stop when no mean changes (line 18). ``tol > 0``: also stop when
        ``sum_i ||mu_i' - mu_i||^2 <= tol``.
    empty_cluster : {"relocate", "keep"}, default="relocate"
        See :data:`EMPTY_CLUSTER_RULES`.
    keep_history : bool, default=False
        Record the partition and the means after every step.
    random_state : None, int or Generator, default=None

    Attributes
    ----------
    cluster_centers_ : ndarray of shape (k, n)
    labels_ : ndarray of shape (m,)
        ``lambda_j``, the nearest final mean of each sample.
    inertia_ : float
        ``E`` (7.16) of the final partition and means.
    objective_history_ : ndarray
        ``E`` after every step, as the loop computed it: assignment and update steps
        alternate, starting with an assignment; the last entry is an assignment when the
        loop ended on ``max_iter`` or ``tol`` (labels made consistent with the means).
    labels_history_, centers_history_ : ndarray, only with ``keep_history``
        The partition and the means after each step of ``objective_history_``.
    init_centers_ : ndarray of shape (k, n)
    n_iter_ : int
    converged_ : bool
        The loop stopped because no mean changed (or moved less than ``tol``).
    n_relocated_ : int
        Samples moved into empty clusters.
    n_features_in_ : int

    Notes
    -----
    A sample changes cluster only for a mean closer by more than the rounding of the
    expanded squared distances (``1e-12 (||x||^2 + max ||mu||^2)``); exact ties keep its
    cluster, so equal means cannot trade a repeated sample back and forth for ever
    (``predict`` breaks ties by the lowest index).

    The notes' line 8 prints ``C_{lambda_j} = C_{lambda_j}`` (``x_j`` never enters its
    cluster, every cluster stays empty and line 11 divides by 0); this implementation adds
    ``x_j``. An empty cluster (e.g. two initial means on duplicate samples) also makes
    line 11 divide by 0; ``empty_cluster`` says what happens instead.

    References
    ----------
    003 §7.4.1, Algorithm 1 and (7.16).
    """

    def __init__(self, n_clusters: int = 8, *, init: object = "random", max_iter: int = 300,
                 tol: float = 0.0, empty_cluster: str = "relocate", keep_history: bool = False,
                 random_state: object = None) -> None:
        self.n_clusters = n_clusters
        self.init = init
        self.max_iter = max_iter
        self.tol = tol
        self.empty_cluster = empty_cluster
        self.keep_history = keep_history
        self.random_state = random_state

    def _initial_centres(self, X: np.ndarray, k: int, rng: np.random.Generator) -> np.ndarray:
        if isinstance(self.init, str):
            init = check_choice(self.init, "init", KMEANS_INITS)
            if init == "k-means++":
                s = exact_scale(X)
                return _kmeans_plusplus(X / s, k, rng) * s
            return X[rng.choice(X.shape[0], size=k, replace=False)].copy()
        return check_array_argument(self.init, "init", shape=(k, X.shape[1]), real=True).copy()

    def fit(self, X: ArrayLike, y: object = None) -> KMeans:
        """Run Algorithm 1 on ``X`` (m, n); ``y`` is ignored."""
        X = validate_features(self, X, reset=True)
        # the objective (7.16) sums squared distances: refused, named, where it overflows
        check_squares_representable(X - X.mean(axis=0), "X")
        k = check_n_clusters(self.n_clusters, X.shape[0])
        max_iter = check_int(self.max_iter, "max_iter", low=1)
        tol = check_real(self.tol, "tol", low=0.0)
        rule = check_choice(self.empty_cluster, "empty_cluster", EMPTY_CLUSTER_RULES)
        keep = check_bool(self.keep_history, "keep_history")
        centres = self._initial_centres(X, k, make_rng(self.random_state))
        run = lloyd(X, centres, max_iter=max_iter, tol=tol, empty_rule=rule, keep_history=keep)
        self.init_centers_ = centres
        self.cluster_centers_ = run.centres
        self.labels_ = run.labels.astype(np.int64)
        self.objective_history_ = np.asarray(run.objective)
        self.inertia_ = float(self.objective_history_[-1])
        if keep:
            self.labels_history_ = np.asarray(run.labels_history, dtype=np.int64)
            self.centers_history_ = np.asarray(run.centres_history)
        self.n_iter_ = run.n_iter
        self.converged_ = run.converged
        self.n_relocated_ = run.n_relocated
        self._shift = run.shift
        if not run.converged:
            warnings.warn(f"KMeans did not converge: a mean still changed after "
                          f"max_iter={max_iter} rounds.", ConvergenceWarning, stacklevel=2)
        return self

    def predict(self, X: ArrayLike) -> np.ndarray:
        """The index of the nearest mean of each row of ``X``."""
        X = validate_features(self, X, reset=False)
        return nearest_centre(X, self.cluster_centers_, self._shift).astype(np.int64)
