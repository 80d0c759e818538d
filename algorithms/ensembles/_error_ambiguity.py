"""The error-ambiguity decomposition of 003 §6.5.1 (6.22)-(6.27).

Every quantity is computed from its own definition (never one from the others), so the
identity ``A_bar = E_bar - E`` is something to check, not something built in.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike

from algorithms._validation import check_array_argument, check_squares_representable
from algorithms.ensembles._combination import (
    _learner_weights,
    simplex_weights,
    weighted_average,
)

__all__ = ["ErrorAmbiguity", "IntegratedErrorAmbiguity", "error_ambiguity",
           "integrated_error_ambiguity"]


@dataclass(frozen=True)
class ErrorAmbiguity:
    """Per-point terms for ``T`` regressors on ``n`` points.

    Attributes
    ----------
    ensemble : (n,)               ``H(x) = sum_i w_i h_i(x)``
    individual_errors : (T, n)    ``E(h_i|x) = (f(x) - h_i(x))^2`` (6.24)
    individual_ambiguities : (T, n)  ``A(h_i|x) = (h_i(x) - H(x))^2`` (6.22)
    ensemble_error : (n,)         ``E(H|x) = (f(x) - H(x))^2`` (6.24)
    mean_error : (n,)             ``E_bar(h|x) = sum_i w_i E(h_i|x)``
    ambiguity : (n,)              ``A_bar(h|x) = sum_i w_i A(h_i|x)`` (6.23)
    """

    ensemble: np.ndarray
    individual_errors: np.ndarray
    individual_ambiguities: np.ndarray
    ensemble_error: np.ndarray
    mean_error: np.ndarray
    ambiguity: np.ndarray


def _inputs(outputs: ArrayLike, target: ArrayLike, weights: ArrayLike, simplex: bool):
    h = check_array_argument(outputs, "outputs", ndim=2, real=True)
    f = check_array_argument(target, "target", shape=(h.shape[1],), real=True)
    # the squared errors (f - h)^2 and ambiguities (h - H)^2 must be float64 numbers
    check_squares_representable(h, "outputs")
    check_squares_representable(f, "target")
    return h, f, _learner_weights(weights, h, simplex)


def error_ambiguity(
    outputs: ArrayLike, target: ArrayLike, weights: ArrayLike, *, simplex: bool = True
) -> ErrorAmbiguity:
    """(6.22)-(6.24) at every point.

    Parameters
    ----------
    outputs : array of shape (T, n)
        ``outputs[i, x] = h_i(x)``.
    target : array of shape (n,)
        ``f(x)``.
    weights : array of shape (T,)
        ``w_i``; on the simplex unless ``simplex=False`` (then any finite weights, as
        (6.18) is printed).
    """
    h, f, w = _inputs(outputs, target, weights, simplex)
    H = weighted_average(h, w, simplex=False)
    errors = (f - h) ** 2
    ambiguities = (h - H) ** 2
    return ErrorAmbiguity(
        ensemble=H,
        individual_errors=errors,
        individual_ambiguities=ambiguities,
        ensemble_error=(f - H) ** 2,
        mean_error=w @ errors,
        ambiguity=w @ ambiguities,
    )


@dataclass(frozen=True)
class IntegratedErrorAmbiguity:
    """(6.26)-(6.27) under a distribution ``p`` over the points.

    ``E_i = int E(h_i|x) p(x) dx``, ``A_i = int A(h_i|x) p(x) dx``,
    ``E = int E(H|x) p(x) dx``, ``E_bar = sum_i w_i E_i``, ``A_bar = sum_i w_i A_i``.
    """

    individual_errors: np.ndarray  # E_i, (T,)
    individual_ambiguities: np.ndarray  # A_i, (T,)
    ensemble_error: float  # E
    mean_error: float  # E_bar
    ambiguity: float  # A_bar


def integrated_error_ambiguity(
    outputs: ArrayLike,
    target: ArrayLike,
    weights: ArrayLike,
    p: ArrayLike | None = None,
    *,
    simplex: bool = True,
) -> IntegratedErrorAmbiguity:
    """The terms of (6.26)-(6.27) on a finite (e.g. empirical) distribution.

    Parameters
    ----------
    outputs, target, weights : see :func:`error_ambiguity`
    p : array of shape (n,), optional
        Probabilities of the points (non-negative, summing to 1); uniform (the empirical
        distribution) when omitted.
    """
    h, f, w = _inputs(outputs, target, weights, simplex)
    n = h.shape[1]
    prob = np.full(n, 1.0 / n) if p is None else simplex_weights(p, n, name="p")
    H = h.T @ w
    E_i = ((f - h) ** 2) @ prob
    A_i = ((h - H) ** 2) @ prob
    return IntegratedErrorAmbiguity(
        individual_errors=E_i,
        individual_ambiguities=A_i,
        ensemble_error=float(((f - H) ** 2) @ prob),
        mean_error=float(w @ E_i),
        ambiguity=float(w @ A_i),
    )
