"""Learning on a finite domain: exact errors, empirical errors, version spaces, ERM.

The learning problem of 000 §1.2 and 003 §9.1 on a finite input space
``X = {0, ..., n-1}``: a distribution ``p`` over X and a conditional label
probability ``eta(x) = P(y = +1 | x)`` (a deterministic target ``c`` has
``eta`` in {0, 1}). A hypothesis class is a table ``H[k, x]`` in {-1, +1}.
Everything is exact or vectorised over many simulated training sets at once.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from algorithms._validation import InvalidArgumentError, check_array_argument, check_int

__all__ = [
    "FiniteProblem",
    "empirical_errors",
    "erm",
    "label_counts",
    "version_space",
]


#: Largest number of (training set, point) cells the counts of one call may hold
#: (float64 arrays of 0.8 GB); a larger request is refused with a ValueError.
MAX_COUNT_CELLS = 10**8


def _pm_labels(value: object, name: str, *, ndim: int | None = None) -> np.ndarray:
    """A real, non-boolean array of labels in {-1, +1}, as int (ValueError naming it)."""
    arr = check_array_argument(value, name, ndim=ndim, dtype=None, real=True,
                               allow_empty=True)
    if arr.dtype.kind not in "iuf":  # booleans would read as labels 1 and 0
        raise InvalidArgumentError(f"{name} must hold labels -1 and +1, got dtype {arr.dtype}")
    if not np.all((arr == 1) | (arr == -1)):
        raise ValueError(f"{name} must contain only labels -1 and +1")
    return arr.astype(int)


def _table(H: object) -> np.ndarray:
    T = _pm_labels(H, "H", ndim=2)
    if T.shape[0] == 0 or T.shape[1] == 0:
        raise ValueError(f"H must be a non-empty (n_hypotheses, n_points) table, got {T.shape}")
    return T


#: Buckets of the table lookup in :func:`_inverse_cdf` (a power of two: ``u * K`` is exact).
_CDF_BUCKETS = 4096


def _inverse_cdf(cdf: np.ndarray, u: np.ndarray) -> np.ndarray:
    """``np.searchsorted(cdf, u, side="right")`` for ``u`` in [0, 1), by table lookup.

    The count ``#{j : cdf_j <= u}`` is constant on a bucket ``[b/K, (b+1)/K)``
    unless some ``cdf_j`` lies strictly inside it: the table holds the count at
    each bucket's start, and only uniforms in the (at most ``len(cdf)``) buckets
    holding a breakpoint are binary-searched. Identical results, several times
    faster than a binary search per uniform for the small domains used here.
    """
    K = _CDF_BUCKETS
    edges = np.arange(K + 1, dtype=float) / K
    at_start = np.searchsorted(cdf, edges[:-1], side="right")  # count at u = b/K
    below_end = np.searchsorted(cdf, edges[1:], side="left")  # count just below (b+1)/K
    table = np.where(at_start == below_end, at_start, -1)  # -1: a breakpoint inside
    out = table[(u * K).astype(np.intp)]  # exact floor: K is a power of two and u < 1
    ambiguous = out < 0
    out[ambiguous] = np.searchsorted(cdf, u[ambiguous], side="right")
    return out


@dataclass(frozen=True)
class FiniteProblem:
    """A distribution over a finite domain with (possibly noisy) labels.

    Parameters
    ----------
    p : ndarray of shape (n,)
        Probabilities of the points, non-negative, summing to 1.
    eta : ndarray of shape (n,)
        ``P(y = +1 | x)`` for each point, in [0, 1].
    """

    p: np.ndarray
    eta: np.ndarray

    def __post_init__(self) -> None:
        p = check_array_argument(self.p, "p", ndim=1, real=True)
        if np.any(p < 0) or abs(p.sum() - 1.0) > 1e-9:
            raise ValueError("p must be a probability vector (non-negative, summing to 1)")
        eta = check_array_argument(self.eta, "eta", shape=p.shape, real=True)
        if np.any(eta < 0) or np.any(eta > 1):
            raise ValueError("eta must contain probabilities in [0, 1]")
        object.__setattr__(self, "p", p / p.sum())
        object.__setattr__(self, "eta", eta)

    @property
    def n_points(self) -> int:
        return int(self.p.size)

    def true_errors(self, H: object) -> np.ndarray:
        """``E(h) = P(h(x) != y)`` (003 §9.1 (9.1)) for every row of ``H``, exactly."""
        T = _table(H)
        if T.shape[1] != self.n_points:
            raise ValueError(f"H must have {self.n_points} columns, got {T.shape[1]}")
        wrong_if_pos = np.where(T == 1, 1.0 - self.eta, self.eta)  # P(y != h(x) | x)
        return wrong_if_pos @ self.p

    def sample(self, n_sets: int, m: int, rng: np.random.Generator) -> tuple[np.ndarray,
                                                                             np.ndarray]:
        """``n_sets`` i.i.d. training sets of size ``m``: indices and labels, (n_sets, m) each."""
        n_sets = check_int(n_sets, "n_sets", low=1, integral_floats=True)
        m = check_int(m, "m", low=1, integral_floats=True)
        if not isinstance(rng, np.random.Generator):
            raise InvalidArgumentError(f"rng must be a numpy.random.Generator, got {rng!r}")
        if n_sets * m > MAX_COUNT_CELLS:
            raise ValueError(f"n_sets * m = {n_sets * m} exceeds {MAX_COUNT_CELLS:.0e} "
                             "examples per call; draw the training sets in batches")
        cdf = np.cumsum(self.p)
        cdf[-1] = 1.0
        idx = _inverse_cdf(cdf, rng.random((n_sets, m)))
        idx = np.minimum(idx, self.n_points - 1)
        y = np.where(rng.random((n_sets, m)) < self.eta[idx], 1, -1)
        return idx, y


def _bins(idx: np.ndarray, n_points: int) -> np.ndarray:
    """One bincount bin per (training set, point): ``set * n_points + point``, flattened."""
    return (idx + n_points * np.arange(idx.shape[0])[:, None]).ravel()


def _counts(idx: np.ndarray, lab: np.ndarray, n_points: int) -> tuple[np.ndarray, np.ndarray]:
    """:func:`label_counts` on validated 2-D arrays (indices in range, labels +-1)."""
    n_sets = idx.shape[0]
    size = n_sets * n_points
    keys = _bins(idx, n_points)
    total = np.bincount(keys, minlength=size)
    pos = np.bincount(keys, weights=(lab.ravel() == 1), minlength=size)  # exact small ints
    neg = total - pos
    return pos.reshape(n_sets, n_points), neg.reshape(n_sets, n_points)


def _check_samples(x_idx: object, y: object, n_points: int) -> tuple[np.ndarray, np.ndarray]:
    idx = np.atleast_2d(check_array_argument(x_idx, "x_idx", dtype=None, real=True,
                                             allow_empty=True))
    lab = np.atleast_2d(_pm_labels(y, "y"))
    if idx.ndim != 2:
        raise ValueError(f"x_idx must have shape (n_sets, m) or (m,), got {idx.shape}")
    if idx.shape != lab.shape:
        raise ValueError(f"x_idx and y must have the same shape, got {idx.shape}, {lab.shape}")
    if idx.size == 0:
        raise ValueError("x_idx must not be empty")
    if not np.issubdtype(idx.dtype, np.integer):
        raise ValueError("x_idx must hold integer indices")
    if idx.min() < 0 or idx.max() >= n_points:
        raise ValueError(f"x_idx must hold indices in [0, {n_points})")
    if idx.shape[0] * n_points > MAX_COUNT_CELLS:
        raise ValueError(f"{idx.shape[0]} training sets in x_idx x n_points={n_points} exceed "
                         f"{MAX_COUNT_CELLS:.0e} count cells; split x_idx into batches")
    return idx, lab


def label_counts(x_idx: object, y: object, n_points: int) -> tuple[np.ndarray, np.ndarray]:
    """Counts of (point, +1) and (point, -1) pairs per training set, each (n_sets, n_points).

    Returned as float arrays (exact small integers), one row per training set
    (a single set of shape (m,) gives one row).
    """
    n_points = check_int(n_points, "n_points", low=1, integral_floats=True)
    idx, lab = _check_samples(x_idx, y, n_points)
    return _counts(idx, lab, n_points)


def empirical_errors(H: object, x_idx: object, y: object) -> np.ndarray:
    """``Ê(h; D)`` (003 §9.1 (9.2)) of every hypothesis on every training set.

    Parameters
    ----------
    H : array_like of shape (n_hypotheses, n_points)
    x_idx, y : array_like of shape (n_sets, m) (or (m,) for one set)

    Returns
    -------
    ndarray of shape (n_sets, n_hypotheses)
    """
    T = _table(H)
    n_points = T.shape[1]
    idx, lab = _check_samples(x_idx, y, n_points)  # validated once, at this boundary
    n_sets, m = idx.shape
    # Mistakes of h: sum_x pos_x [h(x) = -1] + neg_x [h(x) = +1]
    #              = (number of +1 labels) - sum_x (pos_x - neg_x) [h(x) = +1],
    # one weighted bincount and one product; all sums are exact small integers.
    balance = np.bincount(_bins(idx, n_points), weights=lab.ravel(),
                          minlength=n_sets * n_points).reshape(n_sets, n_points)
    n_pos = np.count_nonzero(lab == 1, axis=1)
    return (n_pos[:, None] - balance @ (T == 1).T) / m


def version_space(H: object, x_idx: object, y: object) -> np.ndarray:
    """Mask (n_sets, n_hypotheses) of the hypotheses consistent with each training set.

    The consistent learner of 003 §9.3.1 keeps exactly these hypotheses.
    """
    return empirical_errors(H, x_idx, y) == 0.0


def erm(H: object, x_idx: object, y: object) -> np.ndarray:
    """Index of an empirical-risk minimiser (003 §9.4 (9.24)) per training set.

    Ties go to the lowest index. Returns an int array of shape (n_sets,).
    """
    return np.argmin(empirical_errors(H, x_idx, y), axis=1)
