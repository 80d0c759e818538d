"""Numeric comparison helpers with named tolerances.

Every comparison states its tolerance through a :class:`Tolerance`, which
carries the reason it is as loose as it is. The helpers record the observed
error as evidence (via :func:`mltheory.evidence.worst`, which also steers
Hypothesis towards large errors) and raise :class:`AssertionError` with the
offending values when the comparison fails.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from mltheory import evidence

__all__ = [
    "EXACT_ARITHMETIC",
    "ITERATIVE_SOLVER",
    "LINEAR_ALGEBRA",
    "REFERENCE_SOLVER",
    "Tolerance",
    "assert_close",
    "assert_leq",
    "relative_error",
]


@dataclass(frozen=True)
class Tolerance:
    """An absolute/relative tolerance pair and the reason for its size.

    A comparison passes when ``|a - b| <= atol + rtol * max(|a|, |b|)`` elementwise.
    """

    rtol: float
    atol: float
    reason: str

    def __post_init__(self) -> None:
        if self.rtol < 0 or self.atol < 0:
            raise ValueError("Tolerance: rtol and atol must be non-negative")
        if not self.reason.strip():
            raise ValueError("Tolerance: a tolerance needs a stated reason")

    def bound(self, a: np.ndarray, b: np.ndarray, scale: float | None = None) -> np.ndarray:
        """Allowed |a - b|, elementwise; with ``scale``, ``atol + rtol * scale`` for every
        element (for quantities whose size is set by something else, e.g. a bias or the
        components of w compared relative to ||w||)."""
        if scale is not None:
            return np.full(np.broadcast(a, b).shape, self.atol + self.rtol * abs(float(scale)))
        return self.atol + self.rtol * np.maximum(np.abs(a), np.abs(b))


EXACT_ARITHMETIC = Tolerance(
    rtol=1e-12,
    atol=1e-12,
    reason="the two sides are algebraically equal; only float64 rounding "
    "(about 1e-16 per operation, amplified by short sums) separates them",
)
LINEAR_ALGEBRA = Tolerance(
    rtol=1e-8,
    atol=1e-10,
    reason="backward-stable factorisations (QR/Cholesky/SVD) on well-conditioned "
    "inputs: error about cond * 1e-16, inputs are drawn with cond <= 1e6",
)
ITERATIVE_SOLVER = Tolerance(
    rtol=1e-5,
    atol=1e-6,
    reason="iterative optimisers stop at a stated tolerance (1e-8 on the "
    "optimality residual), which bounds the solution error only up to conditioning",
)
REFERENCE_SOLVER = Tolerance(
    rtol=1e-4,
    atol=1e-5,
    reason="cvxpy's interior-point/conic solvers stop at relative duality gaps "
    "near 1e-8, giving solution accuracy around the square root of that",
)


def relative_error(actual: Any, expected: Any, scale: float | None = None) -> float:
    """max |a - b| / max(1, |b|) (or / max(1, scale)): one scale-aware figure for evidence."""
    a = np.asarray(actual, dtype=float)
    b = np.asarray(expected, dtype=float)
    if a.size == 0 and b.size == 0:
        return 0.0
    denom = float(np.max(np.abs(b))) if scale is None else abs(float(scale))
    return float(np.max(np.abs(a - b)) / max(1.0, denom))


def assert_close(
    actual: Any,
    expected: Any,
    tol: Tolerance,
    *,
    label: str = "max relative error",
    context: str = "",
    scale: float | None = None,
) -> float:
    """Assert two arrays/scalars agree within ``tol``; record the error as evidence.

    With ``scale``, every element is allowed ``atol + rtol * scale`` (compare the
    components of a vector relative to its norm, or a bias relative to the size of the
    decision function) instead of a tolerance relative to the element itself.
    Returns the relative error (see :func:`relative_error`).
    """
    a = np.asarray(actual, dtype=float)
    b = np.asarray(expected, dtype=float)
    if a.shape != b.shape:
        raise AssertionError(f"{context}shape mismatch: {a.shape} vs {b.shape}")
    if not (np.all(np.isfinite(a)) and np.all(np.isfinite(b))):
        raise AssertionError(f"{context}non-finite values: actual={a!r}, expected={b!r}")
    err = relative_error(a, b, scale)
    evidence.worst(label, err)
    bad = np.abs(a - b) > tol.bound(a, b, scale)
    if np.any(bad):
        idx = np.argwhere(bad)[0] if a.ndim else ()
        where = f" at index {tuple(int(i) for i in idx)}" if a.ndim else ""
        raise AssertionError(
            f"{context}values differ{where}: actual={a[tuple(idx)]!r}, "
            f"expected={b[tuple(idx)]!r}, relative error {err:.3g} exceeds "
            f"rtol={tol.rtol:g}, atol={tol.atol:g} ({tol.reason})"
        )
    return err


def assert_leq(
    lhs: float,
    rhs: float,
    *,
    label: str,
    tol: Tolerance = EXACT_ARITHMETIC,
    context: str = "",
) -> float:
    """Assert ``lhs <= rhs`` up to ``tol``; record the tightness ``lhs / rhs`` as evidence.

    The tightness ratio (worst over examples) is what a report shows for a bound:
    1.0 means the bound was met with equality; its inverse is recorded as the bound's
    headroom (:func:`mltheory.evidence.headroom`). Returns the ratio; when ``rhs <= 0``
    the excess ``lhs - rhs`` is recorded (and returned) instead.
    """
    lhs_f, rhs_f = float(lhs), float(rhs)
    if np.isnan(lhs_f) or np.isnan(rhs_f):
        raise AssertionError(f"{context}NaN in inequality: {lhs_f!r} <= {rhs_f!r}")
    if rhs_f > 0:
        ratio = evidence.worst(label, lhs_f / rhs_f)
        evidence.headroom(label, rhs_f / lhs_f if lhs_f > 0 else math.inf)
    else:  # a ratio means nothing here: record the excess lhs - rhs instead
        ratio = evidence.worst(f"{label} (excess, bound <= 0)", lhs_f - rhs_f)
    slack_allowed = float(tol.bound(np.asarray(lhs_f), np.asarray(rhs_f)))
    if lhs_f > rhs_f + slack_allowed:
        raise AssertionError(
            f"{context}inequality violated: {lhs_f!r} <= {rhs_f!r} fails "
            f"(excess {lhs_f - rhs_f:.6g}, allowed {slack_allowed:.3g}: {tol.reason})"
        )
    return ratio
