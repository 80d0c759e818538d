"""Relief (two classes, 003 §10.2 (10.3)) and Relief-F (many classes, (10.4)): filter
feature selection by a relevance statistic built from near-hits and near-misses."""

from __future__ import annotations

import numpy as np

from algorithms._validation import (
    InvalidArgumentError,
    check_array_argument,
    check_choice,
    check_int,
    check_real,
    make_rng,
    validate_classification,
    validate_labelled_sample,
)
from algorithms.sparse._selector import SupervisedSelector

__all__ = ["Relief", "ReliefF", "relief_scores", "relieff_scores"]

#: How Relief-F weighs the near-miss of class l for a sample of class k.
MISS_WEIGHTINGS = ("proportion", "normalized")

#: Distances within this relative margin of the smallest count as tied (floating-point
#: rounding of equal sums of squares); the lowest sample index wins a tie.
TIE_RTOL = 1e-12

#: Upper bound on the entries of one block of pairwise differences (memory of the
#: vectorised distance computation: 2e6 float64 = 16 MB).
_BLOCK_ENTRIES = 2_000_000


def _check_discrete(discrete_features: object, n_features: int) -> np.ndarray:
    """A boolean mask (n_features,) from None, a boolean mask or a list of indices."""
    mask = np.zeros(n_features, dtype=bool)
    if discrete_features is None:
        return mask
    arr = np.asarray(discrete_features)
    if arr.dtype == bool:
        if arr.shape != (n_features,):
            raise ValueError(f"discrete_features as a mask must have shape ({n_features},), "
                             f"got {arr.shape}.")
        return arr.copy()
    if arr.ndim != 1 or (arr.size and arr.dtype.kind not in "iu"):
        raise InvalidArgumentError("discrete_features must be None, a boolean mask or a "
                                   f"list of feature indices, got {discrete_features!r}.")
    if arr.size and (arr.min() < 0 or arr.max() >= n_features):
        raise ValueError(f"discrete_features holds indices outside [0, {n_features - 1}].")
    mask[arr] = True
    return mask


def _normalised(X: np.ndarray, discrete: np.ndarray) -> np.ndarray:
    """Continuous columns mapped to [0, 1] by (x - min) / (max - min); a constant column
    becomes 0. Discrete columns are kept (only their equality matters)."""
    Z = X.copy()
    cont = ~discrete
    low, high = X[:, cont].min(axis=0), X[:, cont].max(axis=0)
    span = high - low
    Z[:, cont] = np.where(span > 0, (X[:, cont] - low) / np.where(span > 0, span, 1.0), 0.0)
    return Z


def _diffs(Z: np.ndarray, rows: np.ndarray, cols: np.ndarray, discrete: np.ndarray):
    """diff(x_rows^j, x_cols^j) per attribute: |a - b| (continuous, on [0,1]) or 1[a != b]
    (discrete); broadcasting rows (r, 1) against cols (1, c) or matched pairs."""
    a, b = Z[rows], Z[cols]
    return np.where(discrete, (a != b).astype(float), np.abs(a - b))


def _squared_distances(Z: np.ndarray, idx: np.ndarray, discrete: np.ndarray) -> np.ndarray:
    """sum_j diff(x_i^j, x_l^j)^2 for i in idx and every l, computed in row blocks."""
    m, d = Z.shape
    out = np.empty((idx.shape[0], m))
    step = max(1, _BLOCK_ENTRIES // max(1, m * d))
    for start in range(0, idx.shape[0], step):  # blocks of samples, not one at a time
        block = idx[start:start + step]
        diff = _diffs(Z, block[:, None], np.arange(m)[None, :], discrete)
        out[start:start + step] = np.sum(diff * diff, axis=2)
    return out


def _nearest(dist: np.ndarray, allowed: np.ndarray) -> np.ndarray:
    """Per row the lowest-index column among the nearest allowed ones (ties within
    TIE_RTOL); -1 where no column is allowed."""
    masked = np.where(allowed, dist, np.inf)
    low = masked.min(axis=1, keepdims=True)
    near = allowed & (masked <= low + TIE_RTOL * np.maximum(low, 1.0))
    out = np.argmax(near, axis=1)
    return np.where(near.any(axis=1), out, -1)


def _prepare(X: np.ndarray, codes: np.ndarray, discrete_features: object,
             sample_indices: object):
    discrete = _check_discrete(discrete_features, X.shape[1])
    m = X.shape[0]
    counts = np.bincount(codes)
    if np.any(counts < 2):
        raise ValueError("y must have at least 2 samples of every class (a near-hit other "
                         f"than the sample itself); class counts {counts.tolist()}.")
    if sample_indices is None:
        idx = np.arange(m)
    else:
        idx = check_array_argument(sample_indices, "sample_indices", ndim=1, dtype=None)
        if idx.dtype.kind not in "iu" or np.any(idx < 0) or np.any(idx >= m):
            raise ValueError(f"sample_indices must be integer indices in [0, {m - 1}].")
        idx = idx.astype(np.intp)
    Z = _normalised(X, discrete)
    return Z, discrete, idx, counts


def _neighbours(Z, codes, idx, discrete, n_classes):
    """Near-hit (m_s,) and near-miss per class (m_s, K) of the samples idx; the sample
    itself is excluded; the own-class column of the misses is -1."""
    dist = _squared_distances(Z, idx, discrete)
    not_self = np.ones_like(dist, dtype=bool)
    not_self[np.arange(idx.shape[0]), idx] = False
    same = codes[None, :] == codes[idx][:, None]
    hits = _nearest(dist, same & not_self)
    misses = np.full((idx.shape[0], n_classes), -1, dtype=np.intp)
    for c in range(n_classes):  # a loop over classes
        misses[:, c] = np.where(codes[idx] == c, -1,
                                _nearest(dist, (codes == c)[None, :] & not_self))
    return hits, misses


def _k_neighbours(Z, codes, idx, discrete, n_classes, k):
    """The k nearest hits (m_s, k) and k nearest misses per class (m_s, K, k), nearest
    first, exact ties to the lower index (stable sort); own-class misses -1."""
    dist = _squared_distances(Z, idx, discrete)
    dist[np.arange(idx.shape[0]), idx] = np.inf  # never the sample itself
    own = codes[idx]
    hits = np.empty((idx.shape[0], k), dtype=np.intp)
    misses = np.full((idx.shape[0], n_classes, k), -1, dtype=np.intp)
    for c in range(n_classes):  # a loop over classes
        members = np.flatnonzero(codes == c)
        order = np.argsort(dist[:, members], axis=1, kind="stable")[:, :k]
        nearest = members[order]
        hits[own == c] = nearest[own == c]
        misses[own != c, c] = nearest[own != c]
    return hits, misses


def _statistic(Z, codes, idx, discrete, counts, hits, misses, weighting):
    """sigma from the neighbours; with k neighbours each diff^2 term is their mean."""
    m = Z.shape[0]
    p = counts / m
    if hits.ndim == 1:
        hits, misses = hits[:, None], misses[:, :, None]
    hit_term = _diffs(Z, idx[:, None], hits, discrete) ** 2
    sigma = -hit_term.mean(axis=1).sum(axis=0)
    own = codes[idx]
    for c in range(counts.shape[0]):  # a loop over classes
        rows = own != c
        if not np.any(rows):
            continue
        if weighting == "unweighted":  # two-class Relief (10.3): the one miss counts once
            weight = np.ones(1)
        elif weighting == "proportion":
            weight = p[c]
        else:
            weight = p[c] / (1.0 - p[own[rows]])
        miss_term = (_diffs(Z, idx[rows][:, None], misses[rows, c], discrete) ** 2).mean(axis=1)
        sigma += np.sum(np.reshape(weight, (-1, 1)) * miss_term, axis=0)
    return sigma


def relief_scores(X: object, y: object, *, discrete_features: object = None,
                  sample_indices: object = None) -> np.ndarray:
    """Relief's relevance statistic (10.3) for a two-class sample.

    ``sigma^j = sum_i [ -diff(x_i^j, x_{i,nh}^j)^2 + diff(x_i^j, x_{i,nm}^j)^2 ]``, the
    sum over the samples ``i`` (all, or ``sample_indices``), ``x_{i,nh}`` the nearest
    other sample of ``x_i``'s class (near-hit), ``x_{i,nm}`` the nearest sample of the
    other class (near-miss).

    Parameters
    ----------
    X : array-like (n_samples, n_features)
    y : array-like (n_samples,), exactly two classes, each with at least two samples
    discrete_features : None, boolean mask or list of indices
        Discrete attributes: ``diff = 0`` if equal else 1. The others are continuous,
        min-max normalised to [0, 1] on X, ``diff = |a - b|``.
    sample_indices : array of int, optional
        The samples ``i`` summed over (default all; repeats count repeatedly).

    Notes
    -----
    Distances for the neighbour search are ``sum_j diff^2`` over all attributes; the
    sample itself is never its own neighbour (a duplicate of it may be); ties (within
    :data:`TIE_RTOL`) go to the lowest sample index. Each term is in [-1, 1], so
    ``|sigma^j| <= len(sample_indices)``.

    References
    ----------
    003 §10.2 (10.3) (printed with the sum over ``j``; over ``i`` is meant).
    """
    X_arr, _, _, codes = validate_labelled_sample(X, y, min_classes=2, max_classes=2,
                                                  what="Relief (10.3) is binary")
    Z, discrete, idx, counts = _prepare(X_arr, codes, discrete_features, sample_indices)
    hits, misses = _neighbours(Z, codes, idx, discrete, 2)
    return _statistic(Z, codes, idx, discrete, counts, hits, misses, "unweighted")


def _relieff_neighbours(Z, codes, idx, discrete, counts, n_neighbors):
    k = check_int(n_neighbors, "n_neighbors", low=1)
    if k == 1:
        return _neighbours(Z, codes, idx, discrete, counts.shape[0])
    if counts.min() < k + 1:
        raise ValueError(f"n_neighbors = {k} needs at least {k + 1} samples of every class "
                         f"of y; class counts {counts.tolist()}.")
    return _k_neighbours(Z, codes, idx, discrete, counts.shape[0], k)


def relieff_scores(X: object, y: object, *, discrete_features: object = None,
                   sample_indices: object = None, miss_weighting: str = "proportion",
                   n_neighbors: int = 1) -> np.ndarray:
    """Relief-F's relevance statistic (10.4) for any number of classes.

    ``sigma^j = sum_i [ -diff(x_i^j, x_{i,nh}^j)^2 + sum_{l != k} w_{kl}
    diff(x_i^j, x_{i,l,nm}^j)^2 ]`` for ``x_i`` of class ``k``, ``x_{i,l,nm}`` its
    nearest sample of class ``l``. Same diff, distance and tie conventions as
    :func:`relief_scores`.

    Parameters
    ----------
    miss_weighting : {"proportion", "normalized"}, default="proportion"
        ``"proportion"``: ``w_{kl} = p_l``, the proportion of class ``l`` in the sample,
        as (10.4) prints it (the weights over ``l != k`` sum to ``1 - p_k``).
        ``"normalized"``: ``w_{kl} = p_l / (1 - p_k)`` (Kononenko 1994), weights summing
        to 1; with two classes this is exactly Relief (10.3).
    n_neighbors : int >= 1, default=1
        The notes use the single nearest hit and miss (1). With k > 1 each diff^2 term is
        the mean over the k nearest hits / the k nearest misses of the class (Kononenko's
        k-nearest variant; exact distance ties to the lower index). Every class needs
        k + 1 samples.

    References
    ----------
    003 §10.2 (10.4); Kononenko, "Estimating attributes: analysis and extensions of
    RELIEF", ECML 1994.
    """
    X_arr, _, classes, codes = validate_labelled_sample(X, y, min_classes=2)
    weighting = check_choice(miss_weighting, "miss_weighting", MISS_WEIGHTINGS)
    Z, discrete, idx, counts = _prepare(X_arr, codes, discrete_features, sample_indices)
    hits, misses = _relieff_neighbours(Z, codes, idx, discrete, counts, n_neighbors)
    return _statistic(Z, codes, idx, discrete, counts, hits, misses, weighting)


class _ReliefBase(SupervisedSelector):
    """Fit, sampling and selection rule shared by Relief and Relief-F."""

    _max_classes: int | None = None

    def _selection(self, d):
        if self.threshold is not None and self.n_features_to_select is not None:
            raise ValueError("threshold and n_features_to_select are exclusive: give one "
                             "of them (or neither: the top half of the features).")
        if self.threshold is not None:
            return "threshold", check_real(self.threshold, "threshold")
        if self.n_features_to_select is not None:
            return "top", check_int(self.n_features_to_select, "n_features_to_select",
                                    low=1, high=d)
        return "top", (d + 1) // 2

    def _fit(self, X, y, weighting, n_neighbors=1):
        X_arr, codes = validate_classification(
            self, X, y, max_classes=self._max_classes,
            what="Relief (10.3) is binary; use ReliefF" if self._max_classes else "")
        rule, value = self._selection(X_arr.shape[1])
        m = X_arr.shape[0]
        rng = make_rng(self.random_state)
        if self.n_samples is None:
            idx = np.arange(m)
        else:
            size = check_int(self.n_samples, "n_samples", low=1)
            idx = np.sort(rng.choice(m, size=min(size, m), replace=False))
        Z, discrete, idx, counts = _prepare(X_arr, codes, self.discrete_features, idx)
        hits, misses = _relieff_neighbours(Z, codes, idx, discrete, counts, n_neighbors)
        self.scores_ = _statistic(Z, codes, idx, discrete, counts, hits, misses, weighting)
        self.sample_indices_ = idx
        self.near_hits_ = hits
        self.near_misses_ = misses
        self.class_proportions_ = counts / m
        if rule == "threshold":
            self.support_ = self.scores_ > value
        else:
            order = np.argsort(-self.scores_, kind="stable")
            self.support_ = np.zeros(X_arr.shape[1], dtype=bool)
            self.support_[order[:value]] = True
        return self


class Relief(_ReliefBase):
    """Relief feature selection for two classes (003 §10.2 (10.3)).

    Parameters
    ----------
    threshold : float, optional
        Select the features with ``sigma^j > threshold`` (the notes' tau).
    n_features_to_select : int, optional
        Select the top-k features instead (ties: lower index). With neither given, the
        top ``ceil(d / 2)``.
    discrete_features : None, boolean mask or list of int
        See :func:`relief_scores`.
    n_samples : int, optional
        Estimate sigma on this many samples drawn without replacement (the notes: "only
        on a sample of the data"); None: all samples.
    random_state : None, int or Generator

    Attributes
    ----------
    scores_ : ndarray (n_features,)
        The relevance statistic sigma (10.3).
    sample_indices_, near_hits_, near_misses_ : ndarray
        The samples i used, their near-hits, and their near-misses per class (column of
        the own class -1).
    class_proportions_, support_, classes_, n_features_in_
    """

    _max_classes = 2

    def __init__(self, *, threshold=None, n_features_to_select=None, discrete_features=None,
                 n_samples=None, random_state=None):
        self.threshold = threshold
        self.n_features_to_select = n_features_to_select
        self.discrete_features = discrete_features
        self.n_samples = n_samples
        self.random_state = random_state

    def fit(self, X, y):
        return self._fit(X, y, "unweighted")


class ReliefF(_ReliefBase):
    """Relief-F feature selection for any number of classes (003 §10.2 (10.4)).

    Parameters as :class:`Relief`, plus

    miss_weighting : {"normalized", "proportion"}, default="normalized"
        Weight of the near-miss of class ``l`` for a sample of class ``k``:
        ``p_l / (1 - p_k)`` (Kononenko's normalisation; the default, so that the
        weights sum to 1 and two-class Relief-F is Relief) or ``p_l`` as (10.4) prints
        it. See :func:`relieff_scores`.
    n_neighbors : int >= 1, default=1
        Nearest hits / misses per class averaged in each term (1: the notes' (10.4)).

    ``near_hits_`` has shape (m_s,) and ``near_misses_`` (m_s, K) for one neighbour;
    (m_s, k) and (m_s, K, k) for k > 1.
    """

    def __init__(self, *, threshold=None, n_features_to_select=None, discrete_features=None,
                 n_samples=None, miss_weighting="normalized", n_neighbors=1,
                 random_state=None):
        self.threshold = threshold
        self.n_features_to_select = n_features_to_select
        self.discrete_features = discrete_features
        self.n_samples = n_samples
        self.miss_weighting = miss_weighting
        self.n_neighbors = n_neighbors
        self.random_state = random_state

    def fit(self, X, y):
        weighting = check_choice(self.miss_weighting, "miss_weighting", MISS_WEIGHTINGS)
        return self._fit(X, y, weighting, self.n_neighbors)
