"""Split criteria as sufficient statistics, for the vectorised split search.

A criterion turns each training row into a small vector of statistics (weighted class
indicators, or weight / weighted target / weighted squared target) whose sums over a
subset give that subset's impurity. Cumulative sums over the rows sorted by an
attribute then give the impurity of every bi-partition of 003 (2.8) at once.

Statistics sit on the FIRST axis (``(s, ...)``) so that sums over them are additions of
contiguous arrays. Every criterion exposes ``W * I(S)`` (``weighted``): the subset weight times its
impurity, zero for an empty subset, so the decrease of a split of D into D^v is
``(weighted(D) - sum_v weighted(D^v)) / W(D)`` — information gain (2.2) for entropy,
``Gini(D) - Gini_index(D, a)`` (2.5)–(2.6) for Gini, variance decrease for squared error.
"""

from __future__ import annotations

import math

import numpy as np
from scipy.special import xlogy

_LN2 = np.log(2.0)


def _class_sum(stats: np.ndarray, transform=None) -> np.ndarray:
    """``sum_k transform(stats[k])`` by adding whole arrays class by class: with few
    classes this beats a reduction over a short axis by a wide margin."""
    out = stats[0].copy() if transform is None else transform(stats[0])
    for row in stats[1:]:
        out += row if transform is None else transform(row)
    return out


def _weighted_gini_first(stats: np.ndarray) -> np.ndarray:
    """``W - sum_k c_k^2 / W`` over the first axis; 0 for an empty subset."""
    total = _class_sum(stats)
    squares = _class_sum(stats, np.square)
    ratio = np.divide(squares, total, out=np.zeros_like(total), where=total > 0)
    return total - ratio


def _weighted_entropy_first(stats: np.ndarray) -> np.ndarray:
    """``(W log W - sum_k c_k log c_k) / ln 2`` over the first axis (``0 log 0 = 0``)."""
    total = _class_sum(stats)
    return (xlogy(total, total) - _class_sum(stats, lambda c: xlogy(c, c))) / _LN2

__all__ = ["ClassificationCriterion", "SquaredErrorCriterion"]


def xlogx(x: float) -> float:
    """``scipy.special.xlogy(x, x)`` for one float: ``0`` at 0, else ``x * log(x)`` (the
    same C library logarithm)."""
    return 0.0 if x == 0 else x * math.log(x)


def max_zero(x: float) -> float:
    """``np.maximum(0.0, x)`` for one float (NaN and -0.0 kept, as numpy keeps them with
    that argument order)."""
    return x if x >= 0.0 or x != x else 0.0


class ClassificationCriterion:
    """Entropy (ID3 / C4.5) or Gini (CART) on weighted class counts."""

    def __init__(self, kind: str, n_classes: int) -> None:
        self.kind = kind
        self.n_stats = n_classes
        self._weighted = _weighted_gini_first if kind == "gini" else _weighted_entropy_first

    def row_stats(self, y: np.ndarray, w: np.ndarray) -> np.ndarray:
        """(K, n): ``w_i`` in the row of the class of sample i."""
        out = np.zeros((self.n_stats, y.shape[0]))
        out[y, np.arange(y.shape[0])] = w
        return out

    def node(self, y: np.ndarray, w: np.ndarray) -> tuple[np.ndarray, np.ndarray, bool]:
        """(weighted class counts, class distribution, pure?) of a node's rows."""
        totals = np.bincount(y, weights=w, minlength=self.n_stats).astype(float)
        return totals, totals / totals.sum(), np.count_nonzero(totals) <= 1

    def weighted(self, stats: np.ndarray) -> np.ndarray:
        """``W * impurity`` of each stats vector (first axis)."""
        return self._weighted(stats)

    def weighted_node(self, totals: np.ndarray) -> float:
        """``float(weighted(totals))`` for one stats vector (K,)."""
        return self.weighted_floats(totals.tolist())

    def weighted_floats(self, counts: list[float]) -> float:
        """``weighted`` of one stats vector given as a list, in plain floats: the same
        operations in the same order as the array version (so the same result to the
        last bit), without numpy's per-call overhead on tiny inputs."""
        total = counts[0]
        for c in counts[1:]:
            total += c
        if self.kind == "gini":
            squares = counts[0] * counts[0]
            for c in counts[1:]:
                squares += c * c
            return total - (squares / total if total > 0 else 0.0)
        logs = xlogx(counts[0])
        for c in counts[1:]:
            logs += xlogx(c)
        return (xlogx(total) - logs) / _LN2

    @staticmethod
    def weight_floats(counts: list[float]) -> float:
        """``weight`` of one stats vector given as a list (same order of additions)."""
        total = counts[0]
        for c in counts[1:]:
            total += c
        return total

    @staticmethod
    def weight(stats: np.ndarray) -> np.ndarray:
        return _class_sum(stats)


class SquaredErrorCriterion:
    """Squared error (regression trees, the base learner of GBDT, 003 §2.8).

    Statistics ``(w, w (y - c), w (y - c)^2)`` with ``c`` the node's weighted mean
    (centring keeps ``sum w y^2 - (sum w y)^2 / W`` free of cancellation).
    """

    n_stats = 3
    kind = "squared_error"

    def row_stats(self, y: np.ndarray, w: np.ndarray) -> np.ndarray:
        out = np.empty((3, y.shape[0]))
        out[0] = w
        np.multiply(w, y - (w @ y) / w.sum(), out=out[1])
        np.multiply(out[1], y - (w @ y) / w.sum(), out=out[2])
        return out

    def node(self, y: np.ndarray, w: np.ndarray) -> tuple[np.ndarray, np.ndarray, bool]:
        """(centred statistics, weighted mean, constant target?) of a node's rows."""
        total = float(w.sum())
        mean = float(w @ y) / total
        r = y - mean
        wr = w * r
        totals = np.array([total, float(wr.sum()), float(wr @ r)])
        return totals, np.array([mean]), bool(y.min() == y.max())

    def weighted_node(self, totals: np.ndarray) -> float:
        """``float(weighted(totals))`` for one stats vector (3,)."""
        return self.weighted_floats(totals.tolist())

    @staticmethod
    def weighted_floats(stats: list[float]) -> float:
        """``weighted`` of one stats vector given as a list, in plain floats (the same
        operations, so the same result to the last bit)."""
        w, s1, s2 = stats
        return max_zero(s2 - (s1 * s1 / w if w > 0 else 0.0))

    @staticmethod
    def weight_floats(stats: list[float]) -> float:
        """``weight`` of one stats vector given as a list."""
        return stats[0]

    @staticmethod
    def weighted(stats: np.ndarray) -> np.ndarray:
        """Weighted sum of squared deviations from the subset mean (0 for an empty set)."""
        w, s1, s2 = stats[0], stats[1], stats[2]
        out = np.divide(np.square(s1), w, out=np.zeros(np.shape(w)), where=w > 0)
        np.subtract(s2, out, out=out)
        return np.maximum(out, 0.0, out=out)

    @staticmethod
    def weight(stats: np.ndarray) -> np.ndarray:
        return stats[0]
