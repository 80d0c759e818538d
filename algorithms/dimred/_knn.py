"""k-nearest-neighbour classification and regression (003 §8.1).

A lazy learner: ``fit`` validates and stores the training set (and, for
``algorithm="kd_tree"``, builds a ``scipy.spatial.cKDTree`` index over it, which holds no
learned parameter); all the work happens at query time.

Neighbour order (the tie rule for equidistant neighbours)
--------------------------------------------------------
The neighbours of a query ``q`` are the first ``k`` training points in the order of
``(||q - x_i||, i)``: by Euclidean distance, equidistant points by their row index in the
training set (the earlier row first). The distance is the direct one,
``sqrt(sum_l (q_l - x_il)^2)``, computed on the data divided by a common power of two (an
exact rescaling that keeps squares of inputs near 1e±300 representable). Both search
algorithms give this same order: the brute-force search pre-selects ``k + 1`` candidates by
the expansion ``||q||^2 - 2 q^T x + ||x||^2`` (exact up to rounding of order
``1e-16 max ||x||^2``), the tree search queries ``k + 1`` candidates; the candidates are
then ordered by their direct distance and index, and every query whose ``k``-th and
``(k+1)``-th candidates are equidistant is re-solved over the whole training set, so
that equidistant points outside the candidate set are ordered by index too.

Vote (the tie rule for classes)
-------------------------------
The predicted class has the largest vote (count of neighbours, or for
``weights="distance"`` the sum of ``1 / distance``); among classes with equal largest
votes (equal up to the rounding of their sums, ``VOTE_ROUNDING``) the one first in
``classes_`` (the smallest label) wins. Under distance weighting a
query at distance 0 from some training points is decided by those points alone, each
with weight 1 (the limit of ``1/distance`` weights).
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike
from scipy.spatial import cKDTree
from sklearn.base import BaseEstimator, ClassifierMixin, RegressorMixin

from algorithms._threads import one_blas_thread
from algorithms._validation import (
    check_array_argument,
    check_choice,
    check_int,
    validate_classification,
    validate_features,
    validate_regression,
)

__all__ = ["KNNClassifier", "KNNRegressor", "knn_weights"]

#: Relative rounding allowed per neighbour between votes that are equal in exact
#: arithmetic (sums of up to k weights ``(d_min / d_i) / sum_j d_min / d_j`` added in
#: different orders differ by a few ulps each); a vote within ``k`` times this of the
#: largest ties with it. Unequal uniform votes differ by at least 1/k, far more.
VOTE_ROUNDING = 8 * np.finfo(float).eps

#: Cap on the entries of one block of the brute-force distance matrix (32 MiB of float64).
_BLOCK_ENTRIES = 2**22


def _power_of_two_scale(*arrays: np.ndarray) -> float:
    """A power of two near the largest magnitude in ``arrays`` (1 if all are zero)."""
    top = max(float(np.max(np.abs(a))) if a.size else 0.0 for a in arrays)
    return float(2.0 ** np.floor(np.log2(top))) if top > 0 else 1.0


def _direct_distances(Q: np.ndarray, X: np.ndarray, idx: np.ndarray) -> np.ndarray:
    """``||q_a - x_{idx[a, j]}||`` for each query row a and candidate j (direct formula)."""
    diff = X[idx] - Q[:, None, :]
    return np.sqrt(np.einsum("abl,abl->ab", diff, diff))


def _order_candidates(dist: np.ndarray, idx: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Candidates of each row sorted by (distance, index)."""
    order = np.lexsort((idx, dist))
    return np.take_along_axis(dist, order, 1), np.take_along_axis(idx, order, 1)


def _full_order(Q: np.ndarray, X: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
    """The first ``k`` training points of each query by (direct distance, index), over the
    whole training set (used for queries with a tie at the k-th place)."""
    n = X.shape[0]
    rows = max(1, _BLOCK_ENTRIES // max(n * X.shape[1], 1))
    out_d, out_i = [], []
    for start in range(0, Q.shape[0], rows):
        q = Q[start:start + rows]
        diff = X[None, :, :] - q[:, None, :]
        d = np.sqrt(np.einsum("abl,abl->ab", diff, diff))
        order = np.argsort(d, axis=1, kind="stable")[:, :k]  # stable: index order on ties
        out_d.append(np.take_along_axis(d, order, 1))
        out_i.append(order)
    return np.vstack(out_d), np.vstack(out_i)


def _brute_candidates(Q: np.ndarray, X: np.ndarray, kk: int) -> np.ndarray:
    """Indices of ``kk`` candidates per query with the smallest expanded squared distance."""
    n = X.shape[0]
    out = np.empty((Q.shape[0], kk), dtype=np.intp)
    if kk >= n:
        out[:] = np.arange(n)
        return out
    x_sq = np.einsum("ij,ij->i", X, X)
    minus_2xt = np.ascontiguousarray(-2.0 * X.T)  # exact scaling by -2
    rows = max(1, _BLOCK_ENTRIES // n)
    buffer = np.empty((min(rows, Q.shape[0]), n))
    for start in range(0, Q.shape[0], rows):
        q = Q[start:start + rows]
        d2 = buffer[: q.shape[0]]
        np.matmul(q, minus_2xt, out=d2)
        d2 += x_sq  # ||x||^2 - 2 q^T x; ||q||^2 is common to the row: left out
        out[start:start + rows] = np.argpartition(d2, kk - 1, axis=1)[:, :kk]
    return out


def knn_weights(distances: ArrayLike, weights: str = "uniform") -> np.ndarray:
    """Vote weights of the neighbours of each query, normalised to sum 1 per row.

    Parameters
    ----------
    distances : array of shape (n_queries, k)
        Non-negative distances of each query to its ``k`` neighbours.
    weights : {"uniform", "distance"}, default="uniform"
        ``"uniform"``: every neighbour ``1/k``. ``"distance"``: proportional to
        ``1 / distance``; a row with neighbours at distance 0 gives those neighbours equal
        weight and the others 0 (the limit of ``1 / distance`` weights).

    Returns
    -------
    ndarray of shape (n_queries, k)
        Non-negative weights, each row summing to 1.
    """
    weights = check_choice(weights, "weights", ("uniform", "distance"))
    d = check_array_argument(distances, "distances", ndim=2, real=True)
    if np.any(d < 0):
        raise ValueError("distances must be non-negative.")
    return _weights(d, weights)


def _weights(d: np.ndarray, weights: str) -> np.ndarray:
    """:func:`knn_weights` on checked input."""
    if weights == "uniform":
        return np.full(d.shape, 1.0 / d.shape[1])
    zero = d == 0
    has_zero = np.any(zero, axis=1)
    # d_min / d_j (<= 1, no overflow for distances near 1e-300); rows with a zero
    # distance use the indicator of the zero distances instead
    d_min = np.where(has_zero, 1.0, np.min(np.where(zero, np.inf, d), axis=1))
    with np.errstate(divide="ignore"):
        w = np.where(has_zero[:, None], zero.astype(float), d_min[:, None] / d)
    return w / w.sum(axis=1, keepdims=True)


class _KNNBase(BaseEstimator):
    """What the classifier and the regressor share: storage and the neighbour search."""

    def __init__(self, *, n_neighbors: int = 5, weights: str = "uniform",
                 algorithm: str = "auto"):
        self.n_neighbors = n_neighbors
        self.weights = weights
        self.algorithm = algorithm

    def _check_params(self, n_samples: int) -> None:
        k = check_int(self.n_neighbors, "n_neighbors", low=1)
        if k >= n_samples:
            raise ValueError(
                f"n_neighbors={k} must be smaller than the number of training samples "
                f"(got {n_samples} sample{'s' if n_samples != 1 else ''}): with k >= n every "
                "query would see the whole training set."
            )
        check_choice(self.weights, "weights", ("uniform", "distance"))
        check_choice(self.algorithm, "algorithm", ("auto", "kd_tree", "brute"))

    def _store(self, X: np.ndarray) -> None:
        """Keep the training set (the whole of a lazy learner's 'training')."""
        self.X_fit_ = X
        self.n_samples_fit_ = X.shape[0]
        algorithm = self.algorithm
        if algorithm == "auto":  # trees pay off in low dimension only
            algorithm = "kd_tree" if X.shape[1] <= 16 else "brute"
        self.algorithm_ = algorithm
        self.fit_scale_ = _power_of_two_scale(X)
        self.tree_ = cKDTree(X / self.fit_scale_) if algorithm == "kd_tree" else None

    def kneighbors(self, X: ArrayLike) -> tuple[np.ndarray, np.ndarray]:
        """Distances and training-set indices of the ``n_neighbors`` nearest neighbours.

        Parameters
        ----------
        X : array of shape (n_queries, n_features)

        Returns
        -------
        distances, indices : arrays of shape (n_queries, n_neighbors)
            In the order of the module's tie rule: by distance, then training index.
        """
        Q = validate_features(self, X, reset=False)
        return self._kneighbors(Q)

    def _kneighbors(self, Q: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        with one_blas_thread():
            return self._kneighbors_checked(Q)

    def _kneighbors_checked(self, Q: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        X = self.X_fit_
        k = self.n_neighbors
        n = X.shape[0]
        kk = min(k + 1, n)
        s = _power_of_two_scale(X, Q)
        Xs, Qs = X / s, Q / s
        if self.tree_ is not None:
            with np.errstate(over="ignore", invalid="ignore"):
                _, cand = self.tree_.query(Q / self.fit_scale_, k=kk)
            cand = np.asarray(cand, dtype=np.intp).reshape(Q.shape[0], kk)
            lost = np.any(cand >= n, axis=1)  # non-finite distances at extreme scales
            if np.any(lost):
                cand[lost] = _brute_candidates(Qs[lost], Xs, kk)
        else:
            cand = _brute_candidates(Qs, Xs, kk)
        dist, idx = _order_candidates(_direct_distances(Qs, Xs, cand), cand)
        if kk > k:
            tied = dist[:, k - 1] == dist[:, k]
            if np.any(tied):
                dist_t, idx_t = _full_order(Qs[tied], Xs, kk)
                dist[tied], idx[tied] = dist_t, idx_t
        return dist[:, :k] * s, idx[:, :k]

    def _neighbour_weights(self, Q: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        dist, idx = self._kneighbors(Q)
        return _weights(dist, self.weights), idx


class KNNClassifier(ClassifierMixin, _KNNBase):
    """k-nearest-neighbour classifier: the plurality class of the k nearest training points.

    Parameters
    ----------
    n_neighbors : int, default=5
        ``k >= 1``, smaller than the number of training samples.
    weights : {"uniform", "distance"}, default="uniform"
        One vote per neighbour, or votes ``1 / distance`` (see :func:`knn_weights`).
    algorithm : {"auto", "kd_tree", "brute"}, default="auto"
        Neighbour search: a ``scipy.spatial.cKDTree`` or exhaustive distances; ``"auto"``
        takes the tree for at most 16 features. Both give the same neighbours (module
        docstring: tie rule).

    Attributes
    ----------
    classes_ : ndarray of shape (n_classes,)
        Sorted labels; vote ties go to the earliest.
    X_fit_ : ndarray of shape (n_samples, n_features)
        The stored training set (fit learns nothing else).
    y_codes_ : ndarray of shape (n_samples,)
        Position of each training label in ``classes_``.
    algorithm_ : str
        The search used.

    Notes
    -----
    ``y(x) = argmax_c sum_{i in N_k(x)} w_i [y_i = c]`` with ``w_i = 1`` (plurality vote of
    003 §8.1) or ``w_i = 1 / ||x - x_i||``; the neighbour set ``N_k(x)`` comes from the
    training set.

    References
    ----------
    003 §8.1 (k-nearest-neighbour learning; lazy learning).
    """

    def fit(self, X: ArrayLike, y: ArrayLike) -> KNNClassifier:
        """Store the training set ``X`` (n_samples, n_features) and labels ``y``."""
        X, codes = validate_classification(self, X, y)
        self._check_params(X.shape[0])
        self._store(X)
        self.y_codes_ = codes
        return self

    def predict_proba(self, X: ArrayLike) -> np.ndarray:
        """Vote shares of each class among the neighbours, shape (n_queries, n_classes)."""
        Q = validate_features(self, X, reset=False)
        return self._votes(Q)

    def _votes(self, Q: np.ndarray) -> np.ndarray:
        w, idx = self._neighbour_weights(Q)
        n_q, n_c = Q.shape[0], self.classes_.shape[0]
        flat = (np.arange(n_q)[:, None] * n_c + self.y_codes_[idx]).ravel()
        return np.bincount(flat, weights=w.ravel(), minlength=n_q * n_c).reshape(n_q, n_c)

    def predict(self, X: ArrayLike) -> np.ndarray:
        """The class with the largest vote; ties go to the smallest label."""
        Q = validate_features(self, X, reset=False)
        votes = self._votes(Q)
        top = votes.max(axis=1, keepdims=True)
        # votes equal but for the rounding of their sums count as tied (see VOTE_ROUNDING)
        tied = votes >= top * (1.0 - VOTE_ROUNDING * self.n_neighbors)
        return self.classes_[np.argmax(tied, axis=1)]  # the first tied class


class KNNRegressor(RegressorMixin, _KNNBase):
    """k-nearest-neighbour regressor: the (weighted) mean target of the k nearest points.

    Parameters
    ----------
    n_neighbors, weights, algorithm
        As for :class:`KNNClassifier`.

    Attributes
    ----------
    X_fit_ : ndarray of shape (n_samples, n_features)
    y_fit_ : ndarray of shape (n_samples,)
    algorithm_ : str

    Notes
    -----
    ``f(x) = sum_{i in N_k(x)} w_i y_i`` with the weights of :func:`knn_weights` (1/k, or
    proportional to ``1 / ||x - x_i||``); the averaging counterpart of the vote in 003 §8.1.

    References
    ----------
    003 §8.1.
    """

    def fit(self, X: ArrayLike, y: ArrayLike) -> KNNRegressor:
        """Store the training set ``X`` (n_samples, n_features) and targets ``y``."""
        X, y = validate_regression(self, X, y)
        self._check_params(X.shape[0])
        self._store(X)
        self.y_fit_ = y
        return self

    def predict(self, X: ArrayLike) -> np.ndarray:
        """Weighted mean of the neighbours' targets, shape (n_queries,)."""
        Q = validate_features(self, X, reset=False)
        w, idx = self._neighbour_weights(Q)
        y = self.y_fit_[idx]
        # a mean of values near 1e308 must not overflow: divide by a power of two first
        s = _power_of_two_scale(self.y_fit_)
        return np.einsum("ab,ab->a", w, y / s) * s
