"""Impurity measures and split criteria of 003 §2.2–§2.3 (2.1)–(2.7).

Every function takes *counts* (non-negative, possibly fractional weights) rather than
proportions, so the sizes ``|D^v| / |D|`` of (2.2), (2.4) and (2.6) come from the same
table as the class proportions ``p_k``. A table has the attribute values on the
second-to-last axis and the classes on the last axis: ``table[v, k]`` is the (weighted)
number of samples of class ``k`` with ``a = a^v``. Leading axes are batch axes.

Logarithms are base 2 (bits) and ``0 log 0 = 0``.
"""

from __future__ import annotations

import numpy as np
from scipy.special import xlogy

from algorithms._validation import check_array_argument

__all__ = [
    "entropy",
    "gain",
    "gain_ratio",
    "gini",
    "gini_index",
    "intrinsic_value",
]

_LN2 = np.log(2.0)


#: Counts are rescaled when their largest entry leaves [1/SCALE_LIMIT, SCALE_LIMIT]:
#: every measure here depends on ratios of counts only, while c log c and c^2 of counts
#: near 1e300 overflow and c^2 of counts near 1e-300 underflow.
SCALE_LIMIT = 1e100


def _rescaled(arr: np.ndarray) -> np.ndarray:
    """``arr`` divided by its largest entry if that is far from 1 (same ratios)."""
    top = float(arr.max()) if arr.size else 0.0
    if top > SCALE_LIMIT or 0.0 < top < 1.0 / SCALE_LIMIT:
        return arr / top
    return arr


def _counts(value: object, name: str, *, min_ndim: int) -> np.ndarray:
    arr = check_array_argument(value, name, ndim=None, real=True)
    if arr.ndim < min_ndim:
        raise ValueError(
            f"{name} must have at least {min_ndim} dimension(s), got shape {arr.shape}."
        )
    if np.any(arr < 0):
        raise ValueError(f"{name} must hold non-negative counts, got {arr.min()!r}.")
    if np.any(arr.sum(axis=tuple(range(arr.ndim - min_ndim, arr.ndim))) <= 0):
        raise ValueError(f"{name} must hold a positive total count (an empty set has no impurity).")
    return _rescaled(arr)


def _weighted_entropy(counts: np.ndarray, axis: int = -1) -> np.ndarray:
    """``W * Ent`` in bits, ``W = sum_k c_k``: ``(W log W - sum_k c_k log c_k) / ln 2``.

    Zero for an empty set, so empty branches contribute nothing to (2.2). ``axis`` is
    the class axis.
    """
    total = counts.sum(axis=axis)
    return (xlogy(total, total) - xlogy(counts, counts).sum(axis=axis)) / _LN2


def _weighted_gini(counts: np.ndarray, axis: int = -1) -> np.ndarray:
    """``W * Gini = W - sum_k c_k^2 / W`` (zero for an empty set); ``axis``: classes."""
    total = counts.sum(axis=axis)
    safe = np.where(total > 0, total, 1.0)
    return np.where(total > 0, total - np.square(counts).sum(axis=axis) / safe, 0.0)


def entropy(counts: object) -> float | np.ndarray:
    """Information entropy ``Ent(D) = -sum_k p_k log2 p_k`` (003 §2.2.1 (2.1)).

    Parameters
    ----------
    counts : array-like of shape (..., K)
        Class counts (or proportions) of D; ``p_k = counts_k / sum(counts)``.

    Returns
    -------
    float or ndarray of shape (...)
        In bits, within ``[0, log2 K]``; ``0 log 0 = 0``.
    """
    c = _counts(counts, "counts", min_ndim=1)
    out = _weighted_entropy(c) / c.sum(axis=-1)
    return np.maximum(out, 0.0) if out.ndim else max(float(out), 0.0)


def gini(counts: object) -> float | np.ndarray:
    """Gini value ``Gini(D) = 1 - sum_k p_k^2`` (003 §2.3 (2.5)).

    Parameters
    ----------
    counts : array-like of shape (..., K)
        Class counts (or proportions) of D.

    Returns
    -------
    float or ndarray of shape (...)
        Within ``[0, 1 - 1/K]``.
    """
    c = _counts(counts, "counts", min_ndim=1)
    p = c / c.sum(axis=-1, keepdims=True)
    out = 1.0 - np.square(p).sum(axis=-1)
    return out if out.ndim else float(out)


def _table(table: object) -> np.ndarray:
    return _counts(table, "table", min_ndim=2)


def gain(table: object) -> float | np.ndarray:
    """Information gain ``Gain(D, a) = Ent(D) - sum_v |D^v|/|D| Ent(D^v)`` (003 (2.2)).

    Parameters
    ----------
    table : array-like of shape (..., V, K)
        ``table[v, k]``: the (weighted) count of class k among samples with
        ``a = a^v``; D is the union of the rows. Empty rows contribute nothing.

    Returns
    -------
    float or ndarray of shape (...)
    """
    t = _table(table)
    parent = t.sum(axis=-2)
    total = parent.sum(axis=-1)
    out = (_weighted_entropy(parent) - _weighted_entropy(t).sum(axis=-1)) / total
    return out if out.ndim else float(out)


def intrinsic_value(table: object) -> float | np.ndarray:
    """Intrinsic value ``IV(a) = -sum_v |D^v|/|D| log2(|D^v|/|D|)`` (003 (2.4)).

    Parameters
    ----------
    table : array-like of shape (..., V, K) or (..., V) with ``ndim == 1``
        A contingency table as in :func:`gain`, or the sizes ``|D^v|`` alone.
    """
    arr = check_array_argument(table, "table", ndim=None, real=True)
    sizes = _rescaled(arr).sum(axis=-1) if arr.ndim >= 2 else arr
    return entropy(sizes)


def gain_ratio(table: object) -> float | np.ndarray:
    """Gain ratio ``Gain(D, a) / IV(a)`` of C4.5 (003 §2.2.2 (2.4)).

    Raises
    ------
    ValueError
        If ``IV(a) = 0`` (all samples share one value of ``a``): the ratio is undefined.
    """
    iv = np.asarray(intrinsic_value(table))
    if np.any(iv <= 0):
        raise ValueError(
            "gain ratio is undefined: IV(a) = 0 because every sample of D has the same "
            "value of the attribute."
        )
    out = np.asarray(gain(table)) / iv
    return out if out.ndim else float(out)


def gini_index(table: object) -> float | np.ndarray:
    """Gini index ``Gini_index(D, a) = sum_v |D^v|/|D| Gini(D^v)`` (003 §2.3 (2.6)).

    Parameters
    ----------
    table : array-like of shape (..., V, K)
        A contingency table as in :func:`gain`; empty rows contribute nothing.
    """
    t = _table(table)
    total = t.sum(axis=(-2, -1))
    out = _weighted_gini(t).sum(axis=-1) / total
    return out if out.ndim else float(out)
