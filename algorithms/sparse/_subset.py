"""Subset search and subset evaluation (003 §10.1): forward, backward and bidirectional
greedy search over feature subsets with a pluggable subset score, and the information
gain (10.1)-(10.2) of the partition a feature subset induces."""

from __future__ import annotations

import numbers
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np

from algorithms._validation import (
    InvalidArgumentError,
    check_array_argument,
    check_choice,
    check_int,
    check_real,
    validate_classification,
    validate_labelled_sample,
)
from algorithms.sparse._selector import SupervisedSelector

__all__ = [
    "SubsetSearchResult",
    "SubsetSelector",
    "discretize",
    "label_entropy",
    "subset_information_gain",
    "subset_search",
]

#: The search directions of 003 §10.1.
DIRECTIONS = ("forward", "backward", "bidirectional")

#: Largest feature count a search accepts: a greedy search scores O(d^2) subsets, so
#: beyond this it would run for hours; larger counts are refused, not left to hang.
MAX_SEARCH_FEATURES = 10_000

#: Type of a subset score: sorted tuple of feature indices -> quality (larger is better).
SubsetScore = Callable[[tuple[int, ...]], float]


# ---------------------------------------------------------------------------
# Information gain (10.1)-(10.2)
# ---------------------------------------------------------------------------


def _entropy_of_codes(codes: np.ndarray) -> float:
    """Ent of integer codes in bits, with 0 log 0 = 0 (only observed classes count)."""
    counts = np.bincount(codes)
    p = counts[counts > 0] / codes.shape[0]
    return float(-np.sum(p * np.log2(p)))


def label_entropy(y: object) -> float:
    """Information entropy (10.2) of a label vector, in bits.

    Parameters
    ----------
    y : array-like of shape (n_samples,)
        Class labels (any hashable values); at least one.

    Returns
    -------
    float
        ``Ent(D) = -sum_k p_k log2 p_k`` over the classes present, ``p_k`` their
        proportions; classes with ``p_k = 0`` contribute nothing (``0 log 0 = 0``).

    References
    ----------
    003 §10.1 (10.2); the notes print the sum over ``i`` of a summand indexed by ``k``
    (see the claim ``fs.entropy_10_2_as_printed``).
    """
    arr = check_array_argument(y, "y", ndim=1, dtype=None, real=True)
    if arr.dtype.kind == "f" and not np.all(np.isfinite(arr)):
        raise ValueError("y must contain only finite values (no NaN or infinity).")
    _, codes = np.unique(arr, return_inverse=True)
    return _entropy_of_codes(codes.reshape(-1))


def discretize(X: object, n_bins: int) -> np.ndarray:
    """Equal-frequency discretisation of each column of ``X`` into at most ``n_bins`` bins.

    A column with at most ``n_bins`` distinct values is only relabelled (its values'
    ranks); other columns are cut at their empirical ``1/n_bins, ..., (n_bins-1)/n_bins``
    quantiles (a value equal to a cut point goes to the upper bin). The map is monotone
    in each column, so equal values always share a bin.

    Returns
    -------
    ndarray of int, shape (n_samples, n_features)
        Bin codes ``0..n_bins-1`` per column.
    """
    arr = check_array_argument(X, "X", ndim=2, real=True)
    bins = check_int(n_bins, "n_bins", low=2)
    out = np.empty(arr.shape, dtype=np.intp)
    for j in range(arr.shape[1]):  # a loop over features, not samples
        column = arr[:, j]
        values, codes = np.unique(column, return_inverse=True)
        if values.shape[0] <= bins:
            out[:, j] = codes.reshape(-1)
            continue
        cuts = np.unique(np.quantile(column, np.arange(1, bins) / bins))
        out[:, j] = np.searchsorted(cuts, column, side="right")
    return out


def _joint_codes(codes: np.ndarray, subset: Sequence[int]) -> np.ndarray:
    """One integer per sample naming its cell of the partition by ``subset``'s values."""
    if len(subset) == 0:
        return np.zeros(codes.shape[0], dtype=np.intp)
    _, joint = np.unique(codes[:, list(subset)], axis=0, return_inverse=True)
    return joint.reshape(-1)


def _gain_of_codes(codes: np.ndarray, y_codes: np.ndarray, subset: Sequence[int]) -> float:
    """Gain(A) (10.1) from integer feature codes and integer class codes."""
    cells = _joint_codes(codes, subset)
    m = y_codes.shape[0]
    n_classes = int(y_codes.max()) + 1
    table = np.zeros((int(cells.max()) + 1, n_classes))
    np.add.at(table, (cells, y_codes), 1.0)
    sizes = table.sum(axis=1)
    with np.errstate(divide="ignore", invalid="ignore"):
        p = table / sizes[:, None]
        terms = np.where(p > 0, p * np.log2(np.where(p > 0, p, 1.0)), 0.0)
    conditional = float(np.sum(sizes / m * -terms.sum(axis=1)))
    return _entropy_of_codes(y_codes) - conditional


def _as_codes(X: np.ndarray, n_bins: int | None) -> np.ndarray:
    if n_bins is None:
        codes = np.empty(X.shape, dtype=np.intp)
        for j in range(X.shape[1]):
            codes[:, j] = np.unique(X[:, j], return_inverse=True)[1].reshape(-1)
        return codes
    return discretize(X, n_bins)


def _check_subset(subset: object, n_features: int, name: str = "subset") -> tuple[int, ...]:
    if isinstance(subset, str | bytes) or not isinstance(subset, Sequence | np.ndarray):
        raise InvalidArgumentError(
            f"{name} must be a sequence of feature indices, got {subset!r}.")
    out = []
    for value in subset:
        if isinstance(value, bool | np.bool_) or not isinstance(value, numbers.Integral):
            raise InvalidArgumentError(f"{name} must hold integer feature indices, got "
                                       f"{value!r}.")
        if not 0 <= int(value) < n_features:
            raise ValueError(f"{name} holds feature index {value!r} outside "
                             f"[0, {n_features - 1}].")
        out.append(int(value))
    if len(set(out)) != len(out):
        raise ValueError(f"{name} must not repeat a feature index, got {list(out)}.")
    return tuple(sorted(out))


def subset_information_gain(X: object, y: object, subset: Sequence[int], *,
                            n_bins: int | None = None) -> float:
    """Information gain (10.1) of the feature subset ``subset`` about the labels ``y``.

    The samples are partitioned by the joint value of the features in ``subset``
    (cells ``D^v``) and ``Gain(A) = Ent(D) - sum_v |D^v|/|D| Ent(D^v)`` with ``Ent`` of
    (10.2) in bits and ``0 log 0 = 0``. Features are read as discrete values; with
    ``n_bins`` set, every column is first discretised by :func:`discretize` (for
    continuous features). The empty subset has gain 0.

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features)
    y : array-like of shape (n_samples,)
    subset : sequence of int
        Distinct feature indices.
    n_bins : int >= 2, optional
        Equal-frequency bins per feature (None: use the values as given).

    References
    ----------
    003 §10.1 (10.1)-(10.2).
    """
    X_arr, _, _, y_codes = validate_labelled_sample(X, y)
    bins = None if n_bins is None else check_int(n_bins, "n_bins", low=2)
    chosen = _check_subset(subset, X_arr.shape[1])
    return _gain_of_codes(_as_codes(X_arr[:, list(chosen)], bins), y_codes,
                          tuple(range(len(chosen))))


# ---------------------------------------------------------------------------
# Greedy search
# ---------------------------------------------------------------------------


@dataclass
class SubsetSearchResult:
    """Outcome of :func:`subset_search`.

    Attributes
    ----------
    subset : tuple of int
        The selected features (sorted).
    score : float
        Their score.
    trace : list of (tuple of int, float)
        The current set and its score after each accepted step, in order (for the
        bidirectional search, every set visited by either side).
    n_evaluations : int
        Number of distinct subsets scored (each at most once: evaluations are cached).
    evaluations : dict
        Subset -> score, every subset the search scored.
    rounds : int
        Number of rounds (each round scores all one-step neighbours of the current set).
    """

    subset: tuple[int, ...]
    score: float
    trace: list[tuple[tuple[int, ...], float]] = field(default_factory=list)
    n_evaluations: int = 0
    evaluations: dict[tuple[int, ...], float] = field(default_factory=dict)
    rounds: int = 0


class _CachedScore:
    """A subset score evaluated at most once per subset, with a check on its value."""

    def __init__(self, score: SubsetScore) -> None:
        self.score = score
        self.values: dict[tuple[int, ...], float] = {}

    def __call__(self, subset: tuple[int, ...]) -> float:
        key = tuple(sorted(subset))
        if key not in self.values:
            value = self.score(key)
            if isinstance(value, bool | np.bool_) or not isinstance(value, numbers.Real) \
                    or not np.isfinite(float(value)):
                raise ValueError(f"score must return a finite real number, got {value!r} "
                                 f"for subset {key}.")
            self.values[key] = float(value)
        return self.values[key]

    def best(self, candidates: list[tuple[int, ...]]) -> tuple[tuple[int, ...], float]:
        """The candidate of highest score; ties go to the first listed."""
        scores = [self(c) for c in candidates]
        k = int(np.argmax(scores))
        return candidates[k], scores[k]


def _forward(score: _CachedScore, d: int, tol: float, result: SubsetSearchResult) -> None:
    current, value = score.best([(j,) for j in range(d)])
    result.trace.append((current, value))
    result.rounds = 1
    while len(current) < d:
        rest = [j for j in range(d) if j not in current]
        candidate, cvalue = score.best([tuple(sorted((*current, j))) for j in rest])
        result.rounds += 1
        if not cvalue > value + tol:
            break  # the best (k+1)-subset is not better than the k-subset: stop
        current, value = candidate, cvalue
        result.trace.append((current, value))
    result.subset, result.score = current, value


def _backward(score: _CachedScore, d: int, tol: float, result: SubsetSearchResult) -> None:
    current = tuple(range(d))
    value = score(current)
    result.trace.append((current, value))
    while len(current) > 1:
        candidate, cvalue = score.best([tuple(j for j in current if j != r) for r in current])
        result.rounds += 1
        if not cvalue > value + tol:
            break  # no single removal improves on the current set: stop
        current, value = candidate, cvalue
        result.trace.append((current, value))
    result.subset, result.score = current, value


def _bidirectional(score: _CachedScore, d: int, result: SubsetSearchResult) -> None:
    forward: tuple[int, ...] = ()
    backward = tuple(range(d))
    result.trace.append((backward, score(backward)))
    while forward != backward:
        free = [j for j in backward if j not in forward]
        forward, fvalue = score.best([tuple(sorted((*forward, j))) for j in free])
        result.trace.append((forward, fvalue))
        result.rounds += 1
        if forward == backward:
            break
        free = [j for j in backward if j not in forward]
        backward, bvalue = score.best([tuple(j for j in backward if j != r) for r in free])
        result.trace.append((backward, bvalue))
    # the best set either side visited; ties go to the fewer features, then the earlier
    best = min(range(len(result.trace)),
               key=lambda k: (-result.trace[k][1], len(result.trace[k][0]), k))
    result.subset, result.score = result.trace[best]


def subset_search(score: SubsetScore, n_features: int, *, direction: str = "forward",
                  tol: float = 0.0) -> SubsetSearchResult:
    """Greedy feature-subset search of 003 §10.1 with a pluggable subset score.

    Parameters
    ----------
    score : callable
        ``score(subset) -> float`` for a sorted tuple of feature indices; larger is
        better. Each subset is scored at most once (cached).
    n_features : int >= 1
        The features are ``0..n_features-1``.
    direction : {"forward", "backward", "bidirectional"}
        ``"forward"``: start from the best single feature; each round score every
        one-feature extension of the current set and move to the best one if it beats
        the current score by more than ``tol``, else stop (steps 1-3 of the notes, with
        "stop when the best (k+1)-subset is not better"). ``"backward"``: start from all
        features; each round move to the best one-feature removal if it beats the
        current score by more than ``tol``, else stop. ``"bidirectional"``: a forward
        set growing from the empty set and a backward set shrinking from the full set,
        alternately; the forward side adds the best feature still in the backward set,
        the backward side removes the best feature not yet in the forward set (so a
        feature once added is never removed), until the two meet; the result is the
        best set either side visited (ties: fewer features, then the earlier one).
    tol : float >= 0
        Smallest improvement accepted (forward and backward); a positive ``tol`` keeps
        floating-point rounding from counting as an improvement.

    Returns
    -------
    SubsetSearchResult

    Notes
    -----
    Each search is greedy: it scores only one-step neighbours of its current set and
    may stop at a local optimum (claim ``fs.greedy_local``). Ties between candidates
    go to the lowest feature index.

    References
    ----------
    003 §10.1.
    """
    if not callable(score):
        raise InvalidArgumentError(f"score must be a callable subset -> float, got {score!r}.")
    d = check_int(n_features, "n_features", low=1, high=MAX_SEARCH_FEATURES)
    way = check_choice(direction, "direction", DIRECTIONS)
    tolerance = check_real(tol, "tol", low=0.0)
    cached = _CachedScore(score)
    result = SubsetSearchResult(subset=(), score=0.0)
    if way == "forward":
        _forward(cached, d, tolerance, result)
    elif way == "backward":
        _backward(cached, d, tolerance, result)
    else:
        _bidirectional(cached, d, result)
    result.evaluations = dict(cached.values)
    result.n_evaluations = len(cached.values)
    return result


# ---------------------------------------------------------------------------
# Estimator
# ---------------------------------------------------------------------------


class SubsetSelector(SupervisedSelector):
    """Feature selection by greedy subset search with a subset score (003 §10.1).

    Parameters
    ----------
    scoring : "information_gain" or callable, default="information_gain"
        ``"information_gain"``: Gain (10.1) of the subset about the labels, on
        features discretised into ``n_bins`` equal-frequency bins (values as given when
        ``n_bins`` is None). A callable ``score(X, y, subset) -> float`` (larger is
        better) is used as given.
    direction : {"forward", "backward", "bidirectional"}, default="forward"
    n_bins : int >= 2 or None, default=4
    tol : float >= 0, default=1e-12
        Smallest accepted improvement; the default only absorbs the rounding of
        entropies that are equal in exact arithmetic.

    Attributes
    ----------
    support_ : ndarray of bool, shape (n_features,)
    subset_ : tuple of int
    score_ : float
    trace_ : list of (tuple of int, float)
    n_evaluations_ : int
    classes_ : ndarray
    n_features_in_ : int
    """

    def __init__(self, *, scoring="information_gain", direction="forward", n_bins=4,
                 tol=1e-12):
        self.scoring = scoring
        self.direction = direction
        self.n_bins = n_bins
        self.tol = tol

    def fit(self, X, y):
        X_arr, y_codes = validate_classification(self, X, y, min_classes=1)
        if not (callable(self.scoring) or (isinstance(self.scoring, str)
                                           and self.scoring == "information_gain")):
            raise ValueError(f"scoring must be 'information_gain' or a callable "
                             f"(X, y, subset) -> float, got {self.scoring!r}.")
        way = check_choice(self.direction, "direction", DIRECTIONS)
        bins = None if self.n_bins is None else check_int(self.n_bins, "n_bins", low=2)
        tolerance = check_real(self.tol, "tol", low=0.0)
        if callable(self.scoring):
            user = self.scoring
            y_given = self.classes_[y_codes]

            def subset_score(subset):
                return user(X_arr, y_given, subset)
        else:
            codes = _as_codes(X_arr, bins)

            def subset_score(subset):
                return _gain_of_codes(codes, y_codes, subset)

        result = subset_search(subset_score, X_arr.shape[1], direction=way, tol=tolerance)
        self.subset_ = result.subset
        self.score_ = result.score
        self.trace_ = result.trace
        self.n_evaluations_ = result.n_evaluations
        self.support_ = np.zeros(X_arr.shape[1], dtype=bool)
        self.support_[list(result.subset)] = True
        return self
