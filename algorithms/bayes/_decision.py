"""Bayesian decision theory (003 §5.2 (5.2)-(5.3)).

``loss[i, j] = lambda_ij`` is the loss of labelling ``c_i`` a sample whose true class is
``c_j`` (the notes' convention: row = decision, column = truth). For posteriors
``P(c_j | x)`` the conditional risk of deciding ``c_i`` is (5.2)
``R(c_i | x) = sum_j lambda_ij P(c_j | x)``, and the Bayes decision rule (5.3) takes the
class of least conditional risk, ``h*(x) = argmin_c R(c | x)``. Ties go to the class
with the smallest code (the first minimiser), a deterministic rule.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

from algorithms._validation import check_array_argument, check_codes, check_int

__all__ = [
    "PROBABILITY_TOLERANCE",
    "bayes_decision",
    "check_loss_matrix",
    "check_posteriors",
    "conditional_risk",
    "expected_risk",
    "zero_one_loss",
]

#: |sum - 1| allowed for a probability vector given by a caller: a few float64
#: roundings of a sum of at most ~1e6 terms of size <= 1.
PROBABILITY_TOLERANCE = 1e-9

#: Largest number of classes of a dense loss matrix built here (4096^2 float64 = 128 MiB).
MAX_CLASSES = 4096


def zero_one_loss(n_classes: int) -> np.ndarray:
    """The 0/1 loss matrix ``lambda_ij = 1 - delta_ij`` of shape (N, N)."""
    N = check_int(n_classes, "n_classes", low=1, high=MAX_CLASSES)
    return 1.0 - np.eye(N)


def check_loss_matrix(loss: ArrayLike, n_classes: int, name: str = "loss") -> np.ndarray:
    """``loss`` as a finite float array of shape (N, N) (any real losses are allowed)."""
    return check_array_argument(loss, name, shape=(n_classes, n_classes), real=True)


def check_posteriors(posterior: ArrayLike, name: str = "posterior") -> np.ndarray:
    """``posterior`` as an (n, N) array of probability rows (a 1-d array is one row)."""
    P = check_array_argument(posterior, name, real=True)
    if P.ndim == 1:
        P = P[None, :]
    if P.ndim != 2:
        raise ValueError(f"{name} must have shape (N,) or (n, N), got shape {P.shape}.")
    if np.any(P < 0) or np.any(np.abs(P.sum(axis=1) - 1.0) > PROBABILITY_TOLERANCE):
        raise ValueError(f"{name} rows must be probability vectors (>= 0, summing to 1).")
    return P


def conditional_risk(posterior: ArrayLike, loss: ArrayLike) -> np.ndarray:
    """(5.2) ``R[x, i] = sum_j lambda_ij P(c_j | x)``.

    Parameters
    ----------
    posterior : array of shape (n, N) or (N,)
        Rows ``P(c_1 | x), ..., P(c_N | x)``.
    loss : array of shape (N, N)
        ``loss[i, j]``: the loss of deciding ``c_i`` when the truth is ``c_j``.

    Returns
    -------
    ndarray of shape (n, N)
    """
    P = check_posteriors(posterior)
    L = check_loss_matrix(loss, P.shape[1])
    return P @ L.T


def bayes_decision(posterior: ArrayLike, loss: ArrayLike | None = None) -> np.ndarray:
    """(5.3) ``h*(x) = argmin_c R(c | x)``, codes of shape (n,); ``loss=None`` is 0/1 loss.

    Ties go to the smallest code. Under 0/1 loss ``R(c | x) = 1 - P(c | x)``, so this is
    ``argmax_c P(c | x)``.
    """
    P = check_posteriors(posterior)
    L = zero_one_loss(P.shape[1]) if loss is None else loss
    return np.argmin(conditional_risk(P, L), axis=1)


def expected_risk(
    p_x: ArrayLike, posterior: ArrayLike, decisions: ArrayLike, loss: ArrayLike
) -> float:
    """The overall risk ``R(h) = sum_x P(x) R(h(x) | x)`` of a rule on a finite input space.

    Parameters
    ----------
    p_x : array of shape (n,)
        The marginal ``P(x)`` of each of the ``n`` inputs (a probability vector).
    posterior : array of shape (n, N)
    decisions : int array of shape (n,)
        The class code ``h(x)`` the rule gives each input.
    loss : array of shape (N, N)
    """
    P = check_posteriors(posterior)
    px = check_posteriors(check_array_argument(p_x, "p_x", shape=(P.shape[0],), real=True),
                          "p_x")[0]
    h = check_codes(decisions, "decisions", P.shape[0], P.shape[1])
    R = conditional_risk(P, loss)
    return float(px @ R[np.arange(P.shape[0]), h])
