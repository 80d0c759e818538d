"""Semi-supervised clustering, 003 §11.6: constrained k-means (Fig. 13.7) and
constrained seed k-means (Fig. 13.9).

- :class:`ConstrainedKMeans` (COP-k-means, Wagstaff et al. 2001) is the notes' Fig. 13.7:
  each pass visits the samples in order and puts each into the nearest cluster whose
  choice violates no must-link or cannot-link pair with the samples already placed in
  this pass; when every cluster is ruled out, the pass fails and fit raises
  :class:`InfeasibleConstraintsError` (the notes' "return an error"). Means are then
  recomputed; the loop ends when no mean changes. As printed, only the pairs themselves
  are checked (no transitive closure of must-links), and a reported failure does not
  prove the constraints infeasible: the greedy pass can corner itself.
- :class:`ConstrainedSeedKMeans` is Fig. 13.9: the means start at the means of the
  labelled seeds ``S_j``, seeds stay in their clusters, every other sample joins its
  nearest mean.

Both record, inside the loop, the means and the sum of squared distances of every pass
(``means_history_``, ``objective_history_``).
"""

from __future__ import annotations

import warnings

import numpy as np
from numpy.typing import ArrayLike
from scipy.spatial.distance import cdist
from sklearn.base import BaseEstimator, ClassifierMixin, ClusterMixin
from sklearn.exceptions import ConvergenceWarning

from algorithms._validation import (
    UNLABELLED,
    check_array_argument,
    check_int,
    check_squares_representable,
    make_rng,
    validate_features,
    validate_semi_supervised,
)

__all__ = ["ConstrainedKMeans", "ConstrainedSeedKMeans", "InfeasibleConstraintsError"]


class InfeasibleConstraintsError(ValueError):
    """Raised when a pass of constrained k-means finds no cluster for a sample."""


def _pairs(value: object, name: str, m: int) -> np.ndarray:
    """A constraint set as an (p, 2) array of distinct sample indices."""
    if value is None:
        return np.empty((0, 2), dtype=np.intp)
    arr = check_array_argument(value, name, dtype=None, allow_empty=True)
    if arr.size == 0:
        return np.empty((0, 2), dtype=np.intp)
    if arr.ndim != 2 or arr.shape[1] != 2 or arr.dtype.kind not in "iu":
        raise ValueError(f"{name} must be an (n_pairs, 2) array of sample indices, got "
                         f"shape {arr.shape} and dtype {arr.dtype}.")
    if np.any((arr < 0) | (arr >= m)):
        raise ValueError(f"{name} holds indices outside [0, {m - 1}].")
    if np.any(arr[:, 0] == arr[:, 1]):
        raise ValueError(f"{name} pairs a sample with itself.")
    return arr.astype(np.intp)


def _partners(pairs: np.ndarray, m: int) -> list[np.ndarray]:
    """For each sample, the indices it is paired with (both directions)."""
    if pairs.shape[0] == 0:
        return [np.empty(0, dtype=np.intp)] * m
    both = np.r_[pairs, pairs[:, ::-1]]
    both = both[np.argsort(both[:, 0], kind="stable")]
    cuts = np.searchsorted(both[:, 0], np.arange(m + 1))
    return [both[cuts[i]:cuts[i + 1], 1] for i in range(m)]


def _objective(X: np.ndarray, labels: np.ndarray, means: np.ndarray) -> float:
    diff = X - means[labels]
    return float(np.einsum("ij,ij->", diff, diff))


def _update_means(X: np.ndarray, labels: np.ndarray, old: np.ndarray) -> np.ndarray:
    """Step 23 / 17: the mean of each cluster; an empty cluster keeps its mean."""
    k = old.shape[0]
    counts = np.bincount(labels, minlength=k)
    sums = np.zeros_like(old)
    np.add.at(sums, labels, X)
    means = old.copy()
    alive = counts > 0
    means[alive] = sums[alive] / counts[alive, None]
    return means


def _record_run(est, labels: np.ndarray, history: list, objective: list, converged: bool,
                max_iter: int) -> None:
    """The fitted attributes both algorithms record, and the warning of an unfinished run."""
    est.labels_ = labels
    est.cluster_centers_ = history[-1]
    est.means_history_ = history
    est.objective_history_ = np.array(objective)
    est.n_iter_ = len(objective)
    est.converged_ = converged
    if not converged:
        warnings.warn(f"{type(est).__name__} reached max_iter={max_iter} passes with the "
                      "means still changing.", ConvergenceWarning, stacklevel=3)


class ConstrainedKMeans(ClusterMixin, BaseEstimator):
    """Constrained k-means (COP-k-means), 003 §11.6 Fig. 13.7.

    Parameters
    ----------
    n_clusters : int, default=2
    init : "random" or array of shape (n_clusters, n_features), default="random"
        Step 1: ``k`` distinct samples drawn at random, or the given means.
    max_iter : int, default=300
        Passes allowed before a ``ConvergenceWarning`` (the notes loop until no mean
        changes; a greedy constrained pass need not lower the objective, so a cap is
        needed for termination).
    random_state : None, int or Generator, default=None

    Attributes
    ----------
    labels_ : ndarray of shape (n_samples,)
    cluster_centers_ : ndarray of shape (n_clusters, n_features)
    means_history_ : list of ndarray
        The means before the first pass and after every pass.
    objective_history_ : ndarray
        Sum of squared distances to the cluster means after each pass's assignment.
    n_iter_ : int
    converged_ : bool
    """

    def __init__(self, n_clusters: int = 2, *, init: object = "random", max_iter: int = 300,
                 random_state: object = None) -> None:
        self.n_clusters = n_clusters
        self.init = init
        self.max_iter = max_iter
        self.random_state = random_state

    def _initial_means(self, X: np.ndarray, k: int) -> np.ndarray:
        if isinstance(self.init, str):
            if self.init != "random":
                raise ValueError(f"init must be 'random' or an array of means, got "
                                 f"{self.init!r}.")
            rng = make_rng(self.random_state)
            return X[rng.choice(X.shape[0], size=k, replace=False)].copy()
        means = check_array_argument(self.init, "init", shape=(k, X.shape[1]), real=True)
        return means.copy()

    def fit(self, X: ArrayLike, y: object = None, *, must_link: ArrayLike | None = None,
            cannot_link: ArrayLike | None = None) -> ConstrainedKMeans:
        """Cluster ``X`` under the must-link and cannot-link pairs (sample indices).

        Raises
        ------
        InfeasibleConstraintsError
            When a pass finds no cluster for a sample (a ``ValueError`` naming the
            sample and the constraint sets).
        """
        X = validate_features(self, X, reset=True)
        check_squares_representable(X, "X")
        m = X.shape[0]
        k = check_int(self.n_clusters, "n_clusters", low=1, high=m)
        max_iter = check_int(self.max_iter, "max_iter", low=1)
        must = _partners(_pairs(must_link, "must_link", m), m)
        cannot = _partners(_pairs(cannot_link, "cannot_link", m), m)
        means = self._initial_means(X, k)
        history, objective = [means.copy()], []
        labels = np.zeros(m, dtype=np.intp)
        converged = False
        for _ in range(max_iter):
            labels = self._assign(X, means, must, cannot)
            objective.append(_objective(X, labels, means))
            new = _update_means(X, labels, means)
            history.append(new)
            if np.array_equal(new, means):                    # step 25: no mean changed
                converged = True
                break
            means = new
        _record_run(self, labels, history, objective, converged, max_iter)
        return self

    @staticmethod
    def _assign(X: np.ndarray, means: np.ndarray, must: list, cannot: list) -> np.ndarray:
        """Steps 3-21: one greedy pass in sample order (sequential by nature: a sample's
        allowed clusters depend on where the earlier samples went)."""
        m = X.shape[0]
        order = np.argsort(cdist(X, means, "sqeuclidean"), axis=1, kind="stable")
        labels = np.full(m, -1, dtype=np.intp)
        for i in range(m):
            placed_must = labels[must[i]]
            placed_must = placed_must[placed_must >= 0]
            placed_cannot = labels[cannot[i]]
            for r in order[i]:                                 # nearest first (step 9)
                if np.any(placed_must != r) or np.any(placed_cannot == r):   # step 10
                    continue                                   # step 15: drop r
                labels[i] = r
                break
            else:                                              # steps 16-17
                raise InfeasibleConstraintsError(
                    f"no cluster can take sample {i} without violating must_link or "
                    f"cannot_link (must-link partners placed in clusters "
                    f"{sorted(set(placed_must.tolist()))}, cannot-link partners in "
                    f"{sorted(set(placed_cannot.tolist()))}).")
        return labels

    def predict(self, X: ArrayLike) -> np.ndarray:
        """The nearest cluster mean of each new sample (no constraints apply to them)."""
        X = validate_features(self, X, reset=False)
        return np.argmin(cdist(X, self.cluster_centers_, "sqeuclidean"), axis=1)


class ConstrainedSeedKMeans(ClassifierMixin, BaseEstimator):
    """Constrained seed k-means, 003 §11.6 Fig. 13.9: a few labelled samples (the seeds
    ``S_j``, one cluster per label; ``-1`` marks the unlabelled samples) fix the initial
    means and stay in their clusters; the other samples join the nearest mean.

    Parameters
    ----------
    max_iter : int, default=300
        Passes before a ``ConvergenceWarning``.

    Attributes
    ----------
    classes_ : ndarray
        The seed labels; cluster j is ``classes_[j]``.
    labels_ : ndarray
        Cluster index of every training sample.
    cluster_centers_ : ndarray
    means_history_ : list of ndarray
    objective_history_ : ndarray
        Sum of squared distances to the cluster means after each assignment.
    n_iter_ : int
    converged_ : bool
    """

    def __init__(self, *, max_iter: int = 300) -> None:
        self.max_iter = max_iter

    def fit(self, X: ArrayLike, y: ArrayLike) -> ConstrainedSeedKMeans:
        """Cluster ``X`` with the seeds ``y`` (``-1`` for unlabelled samples)."""
        X, codes = validate_semi_supervised(self, X, y, min_classes=1)
        check_squares_representable(X, "X")
        max_iter = check_int(self.max_iter, "max_iter", low=1)
        k = self.classes_.shape[0]
        seeds = codes != UNLABELLED
        means = _update_means(X[seeds], codes[seeds], np.zeros((k, X.shape[1])))  # 1-3
        history, objective = [means.copy()], []
        labels = codes.copy()
        converged = False
        for _ in range(max_iter):
            labels = codes.copy()                                         # steps 5-10
            if np.any(~seeds):                                            # steps 11-15
                labels[~seeds] = np.argmin(cdist(X[~seeds], means, "sqeuclidean"), axis=1)
            objective.append(_objective(X, labels, means))
            new = _update_means(X, labels, means)                         # steps 16-18
            history.append(new)
            if np.array_equal(new, means):                                # step 19
                converged = True
                break
            means = new
        _record_run(self, labels, history, objective, converged, max_iter)
        return self

    def predict(self, X: ArrayLike) -> np.ndarray:
        """The label of the nearest cluster mean."""
        X = validate_features(self, X, reset=False)
        return self.classes_[np.argmin(cdist(X, self.cluster_centers_, "sqeuclidean"),
                                       axis=1)]
