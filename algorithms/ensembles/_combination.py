"""Combination rules of 003 §6.4: averaging (6.17)-(6.18) and voting (6.19)-(6.21).

Votes are held as one array ``h`` of shape ``(T, n, N)`` with ``h[i, x, j] = h_i^j(x)``,
the output of learner ``i`` on point ``x`` for class ``c_j`` (the notes' notation):
class-label ("hard") votes are one-hot rows (:func:`one_hot_votes`), class-probability
("soft") votes are rows of probabilities. Labels are class *codes* ``0..N-1``; the
majority rule returns :data:`REJECT` where no class has more than half of the votes.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

from algorithms._validation import check_array_argument, check_choice, check_int, make_rng

__all__ = [
    "REJECT",
    "SIMPLEX_TOLERANCE",
    "TIE_BREAKS",
    "class_vote_totals",
    "majority_from_totals",
    "majority_vote",
    "one_hot_votes",
    "pick_plurality",
    "plurality_vote",
    "simple_average",
    "simplex_weights",
    "weighted_average",
    "weighted_vote",
]

#: The code returned by the majority rule (6.19) where it rejects.
REJECT = -1

#: Tie rules of the plurality vote: ``"random"`` is the notes' rule (a uniformly random
#: class among the tied ones); ``"first"`` takes the tied class with the smallest code
#: (deterministic; what ``argmax`` does).
TIE_BREAKS = ("random", "first")

#: The largest one-hot vote array :func:`one_hot_votes` builds (float64 entries): 1e8
#: entries are 800 MB.
MAX_VOTE_ENTRIES = 10**8

#: |sum w - 1| allowed for weights "on the simplex": a few float64 roundings of a sum of
#: at most ~1e6 terms of size <= 1.
SIMPLEX_TOLERANCE = 1e-9


def simplex_weights(weights: ArrayLike, n_learners: int, name: str = "weights") -> np.ndarray:
    """``weights`` as a float array of shape (T,) with ``w_i >= 0`` and ``sum w_i = 1``.

    The constraint of weighted averaging in the book (the notes print (6.18) without it);
    it is what makes ``H`` a convex combination and the error-ambiguity decomposition
    (6.25) exact.
    """
    T = check_int(n_learners, "n_learners", low=1)
    w = check_array_argument(weights, name, ndim=1, real=True)
    if w.shape[0] != T:
        raise ValueError(
            f"{name} must hold one weight per learner (n_learners = {T}), got {w.shape[0]}."
        )
    if np.any(w < 0):
        raise ValueError(f"{name} must be non-negative, got min {float(w.min())!r}.")
    if abs(float(w.sum()) - 1.0) > SIMPLEX_TOLERANCE:
        raise ValueError(f"{name} must sum to 1 (weights on the simplex), got {float(w.sum())!r}.")
    return w


def _outputs(outputs: ArrayLike) -> np.ndarray:
    """Learners' numeric outputs, shape (T,) or (T, n): one row per learner."""
    h = check_array_argument(outputs, "outputs", real=True)
    if h.ndim not in (1, 2):
        raise ValueError(f"outputs must have shape (T,) or (T, n), got shape {h.shape}.")
    return h


def simple_average(outputs: ArrayLike) -> np.ndarray | float:
    """(6.17) ``H(x) = (1/T) sum_i h_i(x)``.

    Parameters
    ----------
    outputs : array of shape (T,) or (T, n)
        ``outputs[i]`` is learner ``i``'s output (on ``n`` points).

    Returns
    -------
    float or ndarray of shape (n,)
    """
    return np.mean(_outputs(outputs), axis=0)


def weighted_average(
    outputs: ArrayLike, weights: ArrayLike, *, simplex: bool = True
) -> np.ndarray | float:
    """(6.18) ``H(x) = sum_i w_i h_i(x)``.

    Parameters
    ----------
    outputs : array of shape (T,) or (T, n)
    weights : array of shape (T,)
    simplex : bool, default=True
        Require ``w_i >= 0`` and ``sum w_i = 1`` (the book's constraint). ``False``
        evaluates the formula as printed for any finite weights.
    """
    h = _outputs(outputs)
    w = _learner_weights(weights, h, simplex)
    return np.tensordot(w, h, axes=1)


def _learner_weights(weights: ArrayLike, outputs: np.ndarray, simplex: bool) -> np.ndarray:
    """One weight per row of ``outputs`` (on the simplex when ``simplex``); a count that
    differs names both arguments."""
    w = check_array_argument(weights, "weights", ndim=1, real=True)
    if w.shape[0] != outputs.shape[0]:
        raise ValueError(
            f"weights must hold one weight per learner, i.e. per row of outputs: got "
            f"{w.shape[0]} weights for outputs of shape {outputs.shape}."
        )
    return simplex_weights(w, outputs.shape[0]) if simplex else w


def one_hot_votes(labels: ArrayLike, n_classes: int) -> np.ndarray:
    """Class-label votes ``h_i^j(x) = I(h_i(x) = c_j)`` from predicted codes.

    Parameters
    ----------
    labels : int array of shape (T, n)
        ``labels[i, x]`` is learner ``i``'s predicted class code on point ``x``.
    n_classes : int

    Returns
    -------
    ndarray of shape (T, n, n_classes)
    """
    N = check_int(n_classes, "n_classes", low=1)
    codes = check_array_argument(labels, "labels", ndim=2, dtype=np.int64, real=True)
    if codes.size * N > MAX_VOTE_ENTRIES:
        raise ValueError(
            f"labels ({codes.size} votes) times n_classes ({N}) exceeds {MAX_VOTE_ENTRIES} "
            "one-hot entries; use class_vote_totals on fewer classes or points."
        )
    if np.any((codes < 0) | (codes >= N)):
        raise ValueError(f"labels must be class codes in 0..{N - 1}.")
    return (codes[..., None] == np.arange(N)).astype(np.float64)


def _votes(votes: ArrayLike) -> np.ndarray:
    h = check_array_argument(votes, "votes", ndim=3, real=True)
    if np.any(h < 0):
        raise ValueError("votes must be non-negative (indicators or class probabilities).")
    return h


def class_vote_totals(votes: ArrayLike, weights: ArrayLike | None = None) -> np.ndarray:
    """``sum_i w_i h_i^j(x)`` for every point and class (``w_i = 1`` when omitted).

    Returns
    -------
    ndarray of shape (n, N)
    """
    h = _votes(votes)
    if weights is None:
        return h.sum(axis=0)
    w = check_array_argument(weights, "weights", shape=(h.shape[0],), real=True)
    if np.any(w < 0):
        raise ValueError(f"weights must be non-negative, got min {float(w.min())!r}.")
    return np.tensordot(w, h, axes=1)


def majority_vote(votes: ArrayLike) -> np.ndarray:
    """(6.19) Majority voting with reject.

    Point ``x`` gets class ``c_j`` if ``sum_i h_i^j(x) > 0.5 sum_k sum_i h_i^k(x)``,
    else :data:`REJECT`. At most one class can pass the strict test.

    Returns
    -------
    int ndarray of shape (n,)
    """
    return majority_from_totals(class_vote_totals(votes))


def majority_from_totals(totals: np.ndarray) -> np.ndarray:
    """The majority rule on vote totals (n, N): the class holding more than half of the
    row's total, else :data:`REJECT`."""
    passes = totals > 0.5 * totals.sum(axis=1, keepdims=True)
    return np.where(passes.any(axis=1), np.argmax(passes, axis=1), REJECT)


def pick_plurality(
    totals: np.ndarray, tie_break: str = "random", rng: object = None
) -> np.ndarray:
    """The class with the largest total per row; ties resolved by ``tie_break``.

    ``"random"`` draws uniformly among the tied classes with ``rng`` (a Generator or a
    seed); ``"first"`` takes the smallest tied code.
    """
    check_choice(tie_break, "tie_break", TIE_BREAKS)
    if tie_break == "first":
        return np.argmax(totals, axis=1)
    gen = make_rng(rng, "rng")
    tied = totals == totals.max(axis=1, keepdims=True)
    # a uniform key per tied class: the argmax of random keys restricted to the tied set
    keys = np.where(tied, gen.random(totals.shape), -1.0)
    return np.argmax(keys, axis=1)


def plurality_vote(votes: ArrayLike, *, tie_break: str = "random", rng: object = None
                   ) -> np.ndarray:
    """(6.20) Plurality voting: ``c_{argmax_j sum_i h_i^j(x)}`` (the notes break ties at
    random: ``tie_break="random"``)."""
    return pick_plurality(class_vote_totals(votes), tie_break, rng)


def weighted_vote(votes: ArrayLike, weights: ArrayLike, *, tie_break: str = "random",
                  rng: object = None) -> np.ndarray:
    """(6.21) Weighted voting: ``c_{argmax_j sum_i w_i h_i^j(x)}``, ``w_i >= 0``."""
    return pick_plurality(class_vote_totals(votes, weights), tie_break, rng)
