"""Dichotomies, shattering, growth functions and VC dimensions by enumeration.

A hypothesis class is an object with a ``realizes(X, y) -> bool`` method that
decides *exactly* whether some hypothesis of the class labels the points ``X``
with the labels ``y`` in {-1, +1}. From it:

- :func:`dichotomies` enumerates the label vectors ``h|_D`` the class realises
  on a point set (003 §9.4 (9.17));
- :func:`is_shattered` tests whether all ``2^m`` of them are realised;
- :func:`growth_function` maximises the number of dichotomies over a family of
  point sets (9.18);
- :func:`vc_dimension` searches for the largest shattered size (9.20).

Classes provided: :class:`Thresholds` and :class:`Intervals` on the line,
:class:`Rectangles` (axis-aligned boxes) and :class:`HalfSpaces` (perceptrons,
000 §1.3), whose separability is decided exactly (LP-proposed certificates
checked in rational arithmetic), and
:class:`FiniteClass` (a table of behaviours on a finite domain).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction

import numpy as np
from scipy.optimize import linprog

from algorithms._validation import InvalidArgumentError, check_array_argument, check_int

__all__ = [
    "FiniteClass",
    "HalfSpaces",
    "Intervals",
    "RadonPartition",
    "Rectangles",
    "Thresholds",
    "all_labellings",
    "dichotomies",
    "distinct_line_points",
    "exact_points",
    "growth_function",
    "is_shattered",
    "radon_labelling",
    "radon_partition",
    "vc_dimension",
]

#: Enumerating 2^m labellings is the point of the exercise, but it must stay small.
MAX_ENUMERATED_POINTS = 16
#: Largest dimension of the geometric classes (the exact separability fallback examines
#: subsets of up to dim + 2 points, which must stay small).
MAX_DIM = 32
#: Largest ``m`` of :func:`distinct_line_points` (an 80 MB array).
MAX_LINE_POINTS = 10**7


def _check_dim(value: object, *, only: int | None = None) -> int:
    """The ``dim`` field of a geometric class: an int in [1, MAX_DIM] (or exactly ``only``)."""
    if only is not None:
        return check_int(value, "dim", low=only, high=only)
    return check_int(value, "dim", low=1, high=MAX_DIM)


def _check_class(cls: object) -> object:
    if not callable(getattr(cls, "realizes", None)):
        raise InvalidArgumentError(f"cls must be a hypothesis class with a realizes(X, y) "
                                   f"method, got {cls!r}")
    return cls


def _points(X: object, dim: int | None) -> np.ndarray:
    arr = check_array_argument(X, "X", allow_empty=True, real=True)
    if arr.ndim == 1:
        arr = arr[:, None]
    if arr.ndim != 2:
        raise ValueError(f"X must be a 2-D array of points, got shape {arr.shape}")
    if dim is not None and arr.shape[1] != dim:
        raise ValueError(f"X must have {dim} column(s), got {arr.shape[1]}")
    return arr


def exact_points(X: object) -> list[list[Fraction]]:
    """The points of ``X`` as exact rationals (every finite float is one)."""
    P = _points(X, None)
    return [[Fraction(float(v)) for v in row] for row in P]


def _labels(y: object, n: int) -> np.ndarray:
    arr = np.asarray(y)
    if arr.shape != (n,):
        raise ValueError(f"y must have shape ({n},), got {arr.shape}")
    if not np.all(np.isin(arr, (-1, 1))):
        raise ValueError("y must contain only labels -1 and +1")
    return arr.astype(int)


def _exact_nullspace(rows: list[list[Fraction]]) -> list[list[Fraction]]:
    """A basis of ``{v : A v = 0}`` in exact rational arithmetic (Gauss-Jordan).

    ``A`` is given as a list of rows of Fractions. One basis vector per free
    column: coefficient 1 there, 0 on the other free columns.
    """
    A = [list(row) for row in rows]
    n_rows, n_cols = len(A), len(A[0])
    pivots: list[int] = []
    r = 0
    for c in range(n_cols):
        if r == n_rows:
            break
        pivot = next((i for i in range(r, n_rows) if A[i][c] != 0), None)
        if pivot is None:
            continue
        A[r], A[pivot] = A[pivot], A[r]
        inv = 1 / A[r][c]
        A[r] = [v * inv for v in A[r]]
        for i in range(n_rows):
            if i != r and A[i][c] != 0:
                f = A[i][c]
                A[i] = [a - f * b for a, b in zip(A[i], A[r], strict=True)]
        pivots.append(c)
        r += 1
    basis = []
    for free in (c for c in range(n_cols) if c not in pivots):
        v = [Fraction(0)] * n_cols
        v[free] = Fraction(1)
        for i, c in enumerate(pivots):
            v[c] = -A[i][free]
        basis.append(v)
    return basis


def _positive_dependence(columns: list[list[Fraction]]) -> bool:
    """Whether an exact kernel basis vector of the given vectors has entries of one sign.

    A vector ``mu != 0`` with ``sum_i mu_i v_i = 0`` and all ``mu_i >= 0`` (or all
    ``<= 0``) is an exact certificate (Gordan's alternative) that no ``u`` has
    ``u.v_i > 0`` for all ``i``. On a circuit (a one-dimensional kernel) the
    basis vector is the only candidate up to scale, so there the test is exact.
    """
    rows = [list(r) for r in zip(*columns, strict=True)]
    return any(all(t >= 0 for t in v) or all(t <= 0 for t in v)
               for v in _exact_nullspace(rows))


def _realizable_exhaustive(V_exact: list[list[Fraction]], dim: int) -> bool:
    """Exact: no subset of at most ``dim + 2`` of the vectors ``v_i`` is a positive circuit.

    A minimal ``mu >= 0`` with ``sum mu_i v_i = 0`` is supported on a circuit of at most
    ``dim + 2`` vectors (Caratheodory), where the kernel is the line through ``mu``.
    """
    n = len(V_exact)
    return not any(_positive_dependence([V_exact[i] for i in subset])
                   for k in range(2, min(n, dim + 2) + 1)
                   for subset in itertools.combinations(range(n), k))


def _line_classes(X: object, y: object) -> tuple[np.ndarray, np.ndarray]:
    """The positive and the negative points of a labelled set on the line."""
    x = _points(X, 1)[:, 0]
    lab = _labels(y, x.size)
    return x[lab == 1], x[lab == -1]


@dataclass(frozen=True)
class _LineClass:
    """A class on the real line: ``dim`` is 1 (checked)."""

    dim: int = 1

    def __post_init__(self) -> None:
        _check_dim(self.dim, only=1)


@dataclass(frozen=True)
class Thresholds(_LineClass):
    """One-sided thresholds on the line: ``h_t(x) = +1`` iff ``x >= t``. VC dimension 1."""

    def realizes(self, X: object, y: object) -> bool:
        pos, neg = _line_classes(X, y)
        return pos.size == 0 or neg.size == 0 or bool(neg.max() < pos.min())


@dataclass(frozen=True)
class Intervals(_LineClass):
    """Closed intervals on the line: ``h(x) = +1`` iff ``a <= x <= b``. VC dimension 2."""

    def realizes(self, X: object, y: object) -> bool:
        pos, neg = _line_classes(X, y)
        if pos.size == 0:
            return True  # an empty interval
        return not bool(np.any((neg >= pos.min()) & (neg <= pos.max())))


@dataclass(frozen=True)
class Rectangles:
    """Axis-aligned closed boxes in R^dim: ``+1`` inside. VC dimension ``2 dim``."""

    dim: int = 2

    def __post_init__(self) -> None:
        _check_dim(self.dim)

    def realizes(self, X: object, y: object) -> bool:
        P = _points(X, self.dim)
        lab = _labels(y, P.shape[0])
        pos, neg = P[lab == 1], P[lab == -1]
        if pos.shape[0] == 0 or neg.shape[0] == 0:
            return True
        lo, hi = pos.min(axis=0), pos.max(axis=0)
        inside = np.all((neg >= lo) & (neg <= hi), axis=1)  # the bounding box is the smallest box
        return not bool(np.any(inside))


@dataclass(frozen=True)
class HalfSpaces:
    """Perceptrons ``h(x) = sign(w.x + b)`` in R^dim. VC dimension ``dim + 1``.

    Notes
    -----
    Write ``v_i = y_i (x_i, 1)``. A labelling of finitely many points is realised
    iff some ``u = (w, b)`` has ``u.v_i > 0`` for every ``i`` (a finite set
    realised with positives on the boundary ``w.x + b = 0`` is realised strictly
    after shifting ``b`` by half the gap to the negatives). By Gordan's
    alternative it is *not* realised iff ``sum_i mu_i v_i = 0`` for some
    ``mu >= 0``, ``mu != 0``; a minimal such ``mu`` is supported on a circuit of at
    most ``dim + 2`` vectors (a Radon partition of the points).

    The decision is exact, with the linear programs only proposing
    certificates: the LP ``y_i (w.x_i + b) >= 1`` (HiGHS via
    ``scipy.optimize.linprog``, on the points centred and scaled by a power of
    two) proposes ``u``, accepted only if ``u.v_i > 0``
    holds in exact rational arithmetic; otherwise the alternative LP
    (``V^T mu = 0``, ``sum mu = 1``, ``mu >= 0``) proposes ``mu``, whose support is
    accepted only if it carries an exact non-negative dependence. When neither
    certificate checks out (HiGHS works to tolerances of about 1e-7 and drops
    matrix entries below 1e-9, so it can misjudge points at tiny scales or
    nearly degenerate ones), every subset of at most ``dim + 2`` points is
    examined exactly. Every float is a rational number, so the points are used
    as given.
    """

    dim: int = 2

    def __post_init__(self) -> None:
        _check_dim(self.dim)

    def realizes(self, X: object, y: object) -> bool:
        P = _points(X, self.dim)
        lab = _labels(y, P.shape[0])
        if lab.size == 0 or np.all(lab == lab[0]):
            return True  # w = 0, b = +-1
        n = P.shape[0]
        V_exact = [[int(yi) * t for t in row] + [Fraction(int(yi))]
                   for yi, row in zip(lab, exact_points(P), strict=True)]
        # The LPs see the points centred and scaled by a power of two (HiGHS's tolerances
        # are absolute); a proposal is mapped back and checked on the original points.
        centre = P.max(axis=0) / 2 + P.min(axis=0) / 2  # halves: no overflow
        spread = float(np.max(np.abs(P - centre)))
        shift = math.frexp(spread)[1] if spread > 0 else 0
        Q = np.ldexp(P - centre, -shift)
        V = lab[:, None] * np.hstack([Q, np.ones((n, 1))])
        if not np.all(np.isfinite(V)):
            return _realizable_exhaustive(V_exact, self.dim)
        primal = linprog(c=np.zeros(self.dim + 1), A_ub=-V, b_ub=-np.ones(n),
                         bounds=[(None, None)] * (self.dim + 1), method="highs")
        if primal.status == 0 and primal.x is not None and np.all(np.isfinite(primal.x)):
            # w'.(x - c) 2^-s + b' = w.x + b with w = w' 2^-s, b = b' - w.c: exact rationals.
            w = [Fraction(float(t)) * Fraction(2) ** -shift for t in primal.x[:-1]]
            b = Fraction(float(primal.x[-1])) - sum(
                (wk * Fraction(float(ck)) for wk, ck in zip(w, centre, strict=True)),
                Fraction(0))
            u = [*w, b]
            if all(sum(a * t for a, t in zip(u, v, strict=True)) > 0 for v in V_exact):
                return True
        dual = linprog(c=np.zeros(n), A_eq=np.vstack([V.T, np.ones((1, n))]),
                       b_eq=np.append(np.zeros(self.dim + 1), 1.0),
                       bounds=[(0, None)] * n, method="highs")
        if dual.status == 0 and dual.x is not None:
            support = np.flatnonzero(dual.x > 0)
            if support.size and _positive_dependence([V_exact[i] for i in support]):
                return False
        return _realizable_exhaustive(V_exact, self.dim)


@dataclass(frozen=True)
class FiniteClass:
    """A finite class on the finite domain ``{0, ..., n-1}``.

    ``table[k, x]`` in {-1, +1} is the label hypothesis ``k`` gives to point ``x``;
    points are given to :meth:`realizes` as integer indices (shape (m,) or (m, 1)).
    """

    table: np.ndarray

    def __post_init__(self) -> None:
        t = check_array_argument(self.table, "table", ndim=2, dtype=None, real=True)
        if t.dtype.kind not in "iuf" or not np.all((t == 1) | (t == -1)):
            raise ValueError("table must contain only labels -1 and +1")
        object.__setattr__(self, "table", t.astype(int))

    @property
    def dim(self) -> int:
        return 1

    def _index(self, X: object) -> np.ndarray:
        idx = check_array_argument(X, "X", dtype=None, real=True, allow_empty=True)
        if idx.ndim == 2 and idx.shape[1] == 1:
            idx = idx[:, 0]
        if idx.ndim != 1:
            raise ValueError(f"X must be a 1-D array of domain indices, got shape {idx.shape}")
        if idx.size and (not np.issubdtype(idx.dtype, np.number)
                         or np.any(idx != np.round(idx))
                         or idx.min() < 0 or idx.max() >= self.table.shape[1]):
            raise ValueError(f"X must hold integer indices in [0, {self.table.shape[1]})")
        return idx.astype(int)

    def realizes(self, X: object, y: object) -> bool:
        idx = self._index(X)
        lab = _labels(y, idx.size)
        return bool(np.any(np.all(self.table[:, idx] == lab[None, :], axis=1)))

    def restriction(self, X: object) -> np.ndarray:
        """The distinct label vectors ``h|_D`` (9.17), one per row, sorted."""
        idx = self._index(X)
        return np.unique(self.table[:, idx], axis=0)


def all_labellings(m: int) -> np.ndarray:
    """All ``2^m`` label vectors in {-1, +1}^m, shape (2^m, m), in lexicographic order."""
    m = check_int(m, "m", low=0, integral_floats=True)
    if m > MAX_ENUMERATED_POINTS:
        raise ValueError(f"m must be at most {MAX_ENUMERATED_POINTS} to enumerate 2^m labellings")
    if m == 0:
        return np.zeros((1, 0), dtype=int)
    return np.array(list(itertools.product((-1, 1), repeat=m)), dtype=int)


def dichotomies(cls: object, X: object) -> np.ndarray:
    """The label vectors the class realises on the points ``X`` (003 §9.4 (9.17)).

    Returns an int array of shape (k, m), one realised labelling per row.
    """
    _check_class(cls)
    if isinstance(cls, FiniteClass):
        return cls.restriction(X)
    P = _points(X, getattr(cls, "dim", None))
    if P.shape[0] > MAX_ENUMERATED_POINTS:
        raise ValueError(f"X has {P.shape[0]} points; enumerating its 2^m labellings needs "
                         f"m <= {MAX_ENUMERATED_POINTS}")
    labellings = all_labellings(P.shape[0])
    keep = np.array([cls.realizes(P, lab) for lab in labellings], dtype=bool)
    return labellings[keep]


def is_shattered(cls: object, X: object) -> bool:
    """Whether the class realises all ``2^m`` labellings of ``X``."""
    found = dichotomies(cls, X)  # validates X (at most MAX_ENUMERATED_POINTS points)
    return found.shape[0] == 2 ** found.shape[1]


def growth_function(cls: object, point_sets: Iterable[object]) -> int:
    """``max`` over the given point sets (all of one size m) of the number of dichotomies.

    Over *all* m-point sets this is ``Pi_H(m)`` (9.18); over a family it is a
    lower bound, and exact when the family contains a maximising configuration
    (any m distinct points for thresholds and intervals).
    """
    _check_class(cls)
    if not isinstance(point_sets, Iterable):
        raise InvalidArgumentError(f"point_sets must be an iterable of point sets, got "
                                   f"{point_sets!r}")
    best, size = 0, None
    for X in point_sets:
        found = dichotomies(cls, X)  # validates X
        m = found.shape[1]
        if size is not None and m != size:
            raise ValueError("point_sets must all have the same number of points")
        size = m
        best = max(best, int(found.shape[0]))
    if size is None:
        raise ValueError("point_sets must not be empty")
    return best


def vc_dimension(cls: object, candidates: dict[int, Iterable[object]], *,
                 max_m: int | None = None) -> tuple[int, dict[int, object]]:
    """Search for the VC dimension (9.20) among candidate point sets.

    Parameters
    ----------
    cls
        A hypothesis class with ``realizes``.
    candidates : dict
        ``m -> iterable of m-point sets`` to try, for m = 1, 2, ... .
    max_m : int, optional
        Stop after this size.

    Returns
    -------
    (d, witnesses)
        ``d`` is the largest m for which some candidate set is shattered (0 if
        none), ``witnesses[m]`` a shattered set for each m that has one. The
        result is a lower bound on the VC dimension; it equals it when the
        candidates for ``d + 1`` are known to be exhaustive (e.g. one set of
        distinct points for classes on the line) or are backed by an argument
        (Radon's theorem for half-spaces).
    """
    _check_class(cls)
    if not isinstance(candidates, Mapping):
        raise InvalidArgumentError(f"candidates must be a dict size -> point sets, got "
                                   f"{candidates!r}")
    for m, sets in candidates.items():
        check_int(m, "a size in candidates", low=1, integral_floats=True)
        if not isinstance(sets, Iterable):
            raise InvalidArgumentError(f"candidates[{m!r}] must be an iterable of point sets, "
                                       f"got {sets!r}")
    sizes = sorted(candidates)
    if max_m is not None:
        max_m = check_int(max_m, "max_m", low=1, integral_floats=True)
        sizes = [m for m in sizes if m <= max_m]
    witnesses: dict[int, object] = {}
    for m in sizes:
        check_int(m, "candidate size", low=1, integral_floats=True)
        for X in candidates[m]:
            if is_shattered(cls, X):
                witnesses[m] = X
                break
    d = max(witnesses, default=0)
    return d, witnesses


def distinct_line_points(m: int) -> np.ndarray:
    """``m`` distinct points on the line (every such set has the same order type)."""
    m = check_int(m, "m", low=1, high=MAX_LINE_POINTS, integral_floats=True)
    return np.arange(m, dtype=float)[:, None]


@dataclass(frozen=True)
class RadonPartition:
    """An exact Radon partition of a point set, with its certificate.

    Attributes
    ----------
    labels : ndarray of shape (n,)
        +1 on the points with ``weights > 0`` (and on those with weight 0), -1 on
        those with ``weights < 0``; both labels occur.
    weights : tuple of Fraction
        An exact affine dependence ``l``: ``sum_i l_i x_i = 0`` and
        ``sum_i l_i = 0``, scaled so that its positive entries sum to 1 (so its
        negative entries sum to -1).
    point : tuple of Fraction
        The common point ``sum_{l_i > 0} l_i x_i = sum_{l_i < 0} (-l_i) x_i`` of
        the convex hulls of the two groups.
    """

    labels: np.ndarray
    weights: tuple[Fraction, ...]
    point: tuple[Fraction, ...]


def radon_partition(X: object) -> RadonPartition:
    """A Radon partition of ``d + 2`` (or more) points in R^d, computed exactly.

    Radon's theorem: the ``(d+1) x n`` system ``sum_i l_i x_i = 0``,
    ``sum_i l_i = 0`` has a non-zero solution when ``n >= d + 2``; the points with
    ``l_i > 0`` and those with ``l_i < 0`` have intersecting convex hulls (the
    common point is ``sum_{l_i > 0} l_i x_i / s`` with ``s = sum_{l_i > 0} l_i``),
    so labelling the first group +1 and the second -1 cannot be realised by
    ``sign(w.x + b)``: ``w.c + b`` at the common point ``c`` would be a convex
    combination of positive values and also of negative ones (whatever the sign
    convention at 0). This is why half-spaces in R^d shatter no set of ``d + 2``
    points (003 §9.4 (9.20); 000 §1.3, the perceptron's ``d_VC = d + 1``).

    Notes
    -----
    The dependence is computed in exact rational arithmetic: every float is a
    rational number, so the signs of ``l`` are the true ones. A floating-point
    null vector is not enough on degenerate inputs (coplanar or duplicated
    points, points 1e-8 apart): entries that are zero in exact arithmetic come
    out as rounding noise with arbitrary signs and give a partition whose hulls
    are disjoint, i.e. a labelling that *is* realisable. The partition is also
    the Farkas certificate of infeasibility of the linear program of
    :meth:`HalfSpaces.realizes` (multipliers ``|l_i|``).

    Returns
    -------
    RadonPartition
    """
    P = exact_points(X)
    n, d = len(P), len(P[0]) if P else 0
    if n < d + 2:
        raise ValueError(f"X must hold at least d + 2 = {d + 2} points, got {n}")
    system = [[P[i][k] for i in range(n)] for k in range(d)] + [[Fraction(1)] * n]
    lam = _exact_nullspace(system)[0]  # non-empty: n > d + 1 >= rank
    s = sum(v for v in lam if v > 0)  # > 0: lam != 0 and sums to 0
    lam = [v / s for v in lam]
    point = tuple(sum((lam[i] * P[i][k] for i in range(n) if lam[i] > 0), Fraction(0))
                  for k in range(d))
    labels = np.array([-1 if v < 0 else 1 for v in lam], dtype=int)
    return RadonPartition(labels=labels, weights=tuple(lam), point=point)


def radon_labelling(X: object) -> np.ndarray:
    """The labels of :func:`radon_partition`: a labelling no half-space realises.

    Returns
    -------
    ndarray of shape (n,)
        Labels in {-1, +1}, both present.
    """
    return radon_partition(X).labels
