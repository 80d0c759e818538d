"""Argument validation shared by the learning-theory functions."""

from __future__ import annotations

import math
import numbers

import numpy as np

__all__ = [
    "check_count",
    "check_open_unit",
    "check_positive",
    "check_nonnegative",
    "check_int_at_least",
]


def check_int_at_least(value: object, name: str, low: int) -> int:
    """An integer ``>= low`` (bools rejected)."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral | np.integer):
        if isinstance(value, numbers.Real) and float(value).is_integer() and not isinstance(
            value, bool
        ):
            value = int(value)
        else:
            raise TypeError(f"{name} must be an integer, got {value!r}")
    value = int(value)
    if value < low:
        raise ValueError(f"{name} must be an integer >= {low}, got {value}")
    return value


def check_count(value: object, name: str) -> int:
    """A positive integer (a sample size, a class size)."""
    return check_int_at_least(value, name, 1)


def _real(value: object, name: str) -> float:
    if isinstance(value, bool) or not isinstance(value, numbers.Real | np.floating | np.integer):
        raise TypeError(f"{name} must be a real number, got {value!r}")
    out = float(value)
    if not math.isfinite(out):
        raise ValueError(f"{name} must be finite, got {value!r}")
    return out


def check_positive(value: object, name: str) -> float:
    out = _real(value, name)
    if out <= 0:
        raise ValueError(f"{name} must be > 0, got {value!r}")
    return out


def check_nonnegative(value: object, name: str) -> float:
    out = _real(value, name)
    if out < 0:
        raise ValueError(f"{name} must be >= 0, got {value!r}")
    return out


def check_open_unit(value: object, name: str) -> float:
    """A number in the open interval (0, 1) (a confidence parameter delta, an error epsilon)."""
    out = _real(value, name)
    if not 0.0 < out < 1.0:
        raise ValueError(f"{name} must lie in the open interval (0, 1), got {value!r}")
    return out
