"""Activation functions of 003 §3.1 (3.1), shared by every network of the family.

The step function is the ideal activation of the M-P neuron; the logistic sigmoid is its
smooth stand-in. Both are evaluated without overflow for any finite input: ``sigmoid``
goes through :func:`scipy.special.expit`, which saturates to exactly 0 or 1 instead of
computing ``exp(-x)`` for large negative ``x``.
"""

from __future__ import annotations

import numpy as np
from scipy.special import expit

__all__ = ["ACTIVATIONS", "sigmoid", "sigmoid_derivative", "step"]

#: Names accepted wherever an activation is chosen.
ACTIVATIONS = ("step", "sigmoid")


def step(x: object) -> np.ndarray:
    """The unit step of (3.1): 1 where ``x >= 0`` (the neuron fires), else 0."""
    return (np.asarray(x, dtype=float) >= 0.0).astype(float)


def sigmoid(x: object) -> np.ndarray:
    """The logistic function 1 / (1 + e^{-x}), overflow-safe for every finite ``x``."""
    return expit(np.asarray(x, dtype=float))


def sigmoid_derivative(value: object) -> np.ndarray:
    """f'(x) from the output ``value = f(x)``: f(1 - f), (3.8) of 003 §3.3."""
    f = np.asarray(value, dtype=float)
    return f * (1.0 - f)
