"""Activation functions of 003 §3.1 (3.1), shared by every network of the family.

The step function is the ideal activation of the M-P neuron; the logistic sigmoid is its
smooth stand-in. Both are evaluated without overflow for any finite input: ``sigmoid``
goes through :func:`scipy.special.expit`, which saturates to exactly 0 or 1 instead of
computing ``exp(-x)`` for large negative ``x``.

The public functions validate their argument (finite, real, numeric) like every other
entry point of the library; the networks call the unchecked ``_sigmoid`` and ``_step``
on arrays they built themselves, so the hot loops pay no validation cost.
"""

from __future__ import annotations

import numpy as np
from scipy.special import expit

from .._validation import check_array_argument

__all__ = ["ACTIVATIONS", "sigmoid", "sigmoid_derivative", "step"]

#: Names accepted wherever an activation is chosen.
ACTIVATIONS = ("step", "sigmoid")


def _step(x: np.ndarray) -> np.ndarray:
    return (x >= 0.0).astype(float)


def _sigmoid(x: np.ndarray) -> np.ndarray:
    return expit(x)


def _real_array(value: object, name: str) -> np.ndarray:
    return check_array_argument(value, name, real=True, allow_empty=True)


def step(x: object) -> np.ndarray:
    """The unit step of (3.1): 1 where ``x >= 0`` (the neuron fires), else 0.

    Raises ``ValueError`` naming ``x`` for NaN, infinite, complex or non-numeric input.
    """
    return _step(_real_array(x, "x"))


def sigmoid(x: object) -> np.ndarray:
    """The logistic function 1 / (1 + e^{-x}), overflow-safe for every finite ``x``.

    Raises ``ValueError`` naming ``x`` for NaN, infinite, complex or non-numeric input.
    """
    return _sigmoid(_real_array(x, "x"))


def sigmoid_derivative(value: object) -> np.ndarray:
    """f'(x) from the output ``value = f(x)``: f(1 - f), (3.8) of 003 §3.3.

    ``value`` is a sigmoid output, so it must lie in [0, 1]; anything else raises
    ``ValueError`` naming ``value`` (f(1 - f) of an arbitrary number is not a derivative
    of anything, and for |value| near 1e300 it would overflow).
    """
    f = _real_array(value, "value")
    if f.size and (np.min(f) < 0.0 or np.max(f) > 1.0):
        raise ValueError(
            f"value must be a sigmoid output in [0, 1], got values in "
            f"[{np.min(f):.6g}, {np.max(f):.6g}]."
        )
    return f * (1.0 - f)
