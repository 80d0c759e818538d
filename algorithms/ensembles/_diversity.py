"""Pairwise diversity measures of 003 §6.5.2 (6.28)-(6.32) and the kappa-error diagram.

For two classifiers with predictions ``h_i, h_j`` in {-1, +1} on ``m`` samples the
contingency table counts

====================  ==============  ==============
\\                     ``h_i = +1``    ``h_i = -1``
====================  ==============  ==============
``h_j = +1``           a               c
``h_j = -1``           b               d
====================  ==============  ==============

with ``a + b + c + d = m``. The measures divide by quantities that vanish on degenerate
tables (a constant classifier, two identical constant classifiers); each measure then
raises a ``ValueError`` saying why, unless the caller states the value to use through
``undefined=``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from itertools import combinations

import numpy as np
from numpy.typing import ArrayLike

from algorithms._validation import check_array_argument, check_choice, check_int, check_real

__all__ = [
    "DIVERSITY_MEASURES",
    "ContingencyTable",
    "KappaErrorDiagram",
    "contingency_table",
    "correlation",
    "disagreement",
    "kappa",
    "kappa_error_diagram",
    "kappa_probabilities",
    "pairwise_diversity",
    "q_statistic",
]


#: The largest count of a contingency table: counts up to 2^53 are exact in float64, so
#: the measures' products (a d - b c, ...) are computed exactly and convert to floats.
MAX_COUNT = 2**53


@dataclass(frozen=True)
class ContingencyTable:
    """Counts ``a`` (+1, +1), ``b`` (h_i = +1, h_j = -1), ``c`` (h_i = -1, h_j = +1),
    ``d`` (-1, -1) of two classifiers' predictions."""

    a: int
    b: int
    c: int
    d: int

    def __post_init__(self) -> None:
        for name in "abcd":
            count = check_int(getattr(self, name), f"contingency count {name}", low=0,
                              high=MAX_COUNT, integral_floats=True)
            object.__setattr__(self, name, count)
        if self.m == 0:
            raise ValueError("contingency table must count at least one sample (m >= 1).")

    @property
    def m(self) -> int:
        """``a + b + c + d``: the number of samples."""
        return int(self.a + self.b + self.c + self.d)


def _signed(h: ArrayLike, name: str) -> np.ndarray:
    arr = check_array_argument(h, name, ndim=1, real=True)
    if not np.all((arr == 1) | (arr == -1)):
        raise ValueError(f"{name} must contain predictions in {{-1, +1}}.")
    return arr


def contingency_table(h_i: ArrayLike, h_j: ArrayLike) -> ContingencyTable:
    """The 2x2 table of two classifiers' {-1, +1} predictions on the same samples."""
    hi, hj = _signed(h_i, "h_i"), _signed(h_j, "h_j")
    if hi.shape != hj.shape:
        raise ValueError(f"h_i and h_j must have the same length, got {hi.shape} and {hj.shape}.")
    pi, pj = hi > 0, hj > 0
    return ContingencyTable(
        a=int(np.sum(pi & pj)), b=int(np.sum(pi & ~pj)),
        c=int(np.sum(~pi & pj)), d=int(np.sum(~pi & ~pj)),
    )


def _check_undefined(undefined: object) -> float | None:
    """The caller's value for an undefined measure (any real or infinity), or None."""
    return None if undefined is None else check_real(undefined, "undefined", allow_inf=True)


def _guarded(numerator: float, denominator: float, undefined: float | None, why: str) -> float:
    undefined = _check_undefined(undefined)
    if denominator == 0:
        if undefined is None:
            raise ValueError(f"{why}; pass undefined=<value> to choose the value used then.")
        return undefined
    return numerator / denominator


def disagreement(table: ContingencyTable) -> float:
    """(6.28) ``dis_ij = (b + c) / m``."""
    return (table.b + table.c) / table.m


def correlation(table: ContingencyTable, *, undefined: float | None = None) -> float:
    """(6.29) ``rho_ij = (ad - bc) / sqrt((a+b)(a+c)(c+d)(b+d))``.

    The denominator vanishes when either classifier is constant on the samples.
    """
    a, b, c, d = table.a, table.b, table.c, table.d
    prod = (a + b) * (a + c) * (c + d) * (b + d)  # exact integer
    return _guarded(
        float(a * d - b * c), math.sqrt(prod), undefined,
        "the correlation rho is undefined: a classifier is constant on the samples "
        "((a+b)(a+c)(c+d)(b+d) = 0)",
    )


def q_statistic(table: ContingencyTable, *, undefined: float | None = None) -> float:
    """(6.30) ``Q_ij = (ad - bc) / (ad + bc)``; undefined when ``ad = bc = 0``."""
    a, b, c, d = table.a, table.b, table.c, table.d
    return _guarded(float(a * d - b * c), float(a * d + b * c), undefined,
                    "the Q-statistic is undefined: ad + bc = 0")


def kappa_probabilities(table: ContingencyTable) -> tuple[float, float]:
    """(6.32) ``p1 = (a + d)/m`` (observed agreement) and
    ``p2 = ((a+b)(a+c) + (c+d)(b+d))/m^2`` (agreement by chance)."""
    a, b, c, d, m = table.a, table.b, table.c, table.d, table.m
    return (a + d) / m, ((a + b) * (a + c) + (c + d) * (b + d)) / m**2


def kappa(table: ContingencyTable, *, undefined: float | None = None) -> float:
    """(6.31) ``kappa = (p1 - p2) / (1 - p2)``; undefined when ``p2 = 1`` (both
    classifiers constant and equal)."""
    a, b, c, d, m = table.a, table.b, table.c, table.d, table.m
    # in integers: m^2 (p1 - p2) and m^2 (1 - p2), so p2 = 1 is detected exactly
    chance = (a + b) * (a + c) + (c + d) * (b + d)
    return _guarded(float((a + d) * m - chance), float(m * m - chance), undefined,
                    "kappa is undefined: p2 = 1 (both classifiers constant and equal)")


#: The measures by name (all but ``disagreement`` take ``undefined=``).
DIVERSITY_MEASURES = {
    "disagreement": disagreement,
    "correlation": correlation,
    "q_statistic": q_statistic,
    "kappa": kappa,
}


def _prediction_matrix(predictions: ArrayLike) -> np.ndarray:
    P = check_array_argument(predictions, "predictions", ndim=2, real=True)
    if P.shape[0] < 2:
        raise ValueError(
            f"predictions must hold at least two classifiers (rows), got {P.shape[0]}.")
    if not np.all((P == 1) | (P == -1)):
        raise ValueError("predictions must contain values in {-1, +1}.")
    return P


def pairwise_diversity(
    predictions: ArrayLike, measure: str = "disagreement", *, undefined: float | None = None
) -> np.ndarray:
    """The measure for every pair of classifiers, as a symmetric (T, T) matrix.

    Parameters
    ----------
    predictions : array of shape (T, m)
        Row ``i`` holds classifier ``i``'s predictions in {-1, +1}.
    measure : {"disagreement", "correlation", "q_statistic", "kappa"}
    undefined : float, optional
        Value used for pairs whose measure is undefined (see each measure); by default
        such a pair raises ``ValueError``.

    Returns
    -------
    ndarray of shape (T, T)
        Off-diagonal entries; the diagonal holds the measure of a classifier with itself
        where defined (0 for disagreement, 1 otherwise) or ``undefined``.
    """
    check_choice(measure, "measure", tuple(DIVERSITY_MEASURES))
    undefined = _check_undefined(undefined)
    P = _prediction_matrix(predictions)
    func = DIVERSITY_MEASURES[measure]
    kwargs = {} if measure == "disagreement" else {"undefined": undefined}
    T = P.shape[0]
    out = np.empty((T, T))
    for i, j in combinations(range(T), 2):  # T(T-1)/2 pairs; each table is vectorised
        out[i, j] = out[j, i] = func(contingency_table(P[i], P[j]), **kwargs)
    for i in range(T):
        out[i, i] = func(contingency_table(P[i], P[i]), **kwargs)
    return out


@dataclass(frozen=True)
class KappaErrorDiagram:
    """Data of the kappa-error diagram: one point per pair ``(i, j)``, ``i < j``.

    ``kappa[p]`` is the pair's kappa, ``mean_error[p]`` the average of the two
    classifiers' error rates on the labelled samples.
    """

    pairs: np.ndarray  # (P, 2)
    kappa: np.ndarray  # (P,)
    mean_error: np.ndarray  # (P,)


def kappa_error_diagram(
    predictions: ArrayLike, y: ArrayLike, *, undefined: float | None = None
) -> KappaErrorDiagram:
    """Points of the kappa-error diagram of an ensemble (003 §6.5.2).

    Parameters
    ----------
    predictions : array of shape (T, m), values in {-1, +1}
    y : array of shape (m,), values in {-1, +1}
    undefined : float, optional
        kappa used for pairs where it is undefined (else ``ValueError``).
    """
    undefined = _check_undefined(undefined)
    P = _prediction_matrix(predictions)
    yy = _signed(y, "y")
    if yy.shape[0] != P.shape[1]:
        raise ValueError(f"y has {yy.shape[0]} labels but predictions have {P.shape[1]} columns.")
    errors = np.mean(P != yy, axis=1)
    pairs = np.array(list(combinations(range(P.shape[0]), 2)), dtype=np.int64)
    kap = np.array([kappa(contingency_table(P[i], P[j]), undefined=undefined) for i, j in pairs])
    return KappaErrorDiagram(pairs=pairs, kappa=kap,
                             mean_error=(errors[pairs[:, 0]] + errors[pairs[:, 1]]) / 2.0)
