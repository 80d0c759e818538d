"""Greedy structure search for Bayesian networks (003 §5.6.1, step 6).

Hill climbing on the score (5.10) with the parameters of (5.13): from a start structure
(default: no edges), evaluate every single-edge change - add, delete or reverse an edge
- that keeps the graph acyclic (and within ``max_parents``), apply the one that lowers
the score most, and stop when no change lowers it. The score decomposes over families
(``s = sum_i [f (r_i - 1) q_i - LL_i]``), so a move is evaluated from the one or two
families it changes; family scores are cached.
"""

from __future__ import annotations

import graphlib
import math
import warnings
from collections.abc import Sequence
from dataclasses import dataclass, field

from numpy.typing import ArrayLike
from sklearn.exceptions import ConvergenceWarning

from algorithms._validation import check_array_argument, check_int
from algorithms.bayes._network import (
    BayesianNetwork,
    _family_counts,
    check_cards,
    check_codes,
    check_family_size,
    check_parents,
    check_weights,
    family_log_likelihood,
    fit_cpts,
    infer_cards,
    mdl_weight,
    network_score,
)

__all__ = ["MOVES", "StructureSearchResult", "hill_climb", "neighbours"]

#: The single-edge changes of the search.
MOVES = ("add", "delete", "reverse")

#: A move must lower the score by more than this (relative to max(1, |score|)) to be
#: taken: float64 rounding of a sum of family scores, so ties do not cycle.
IMPROVEMENT_TOLERANCE = 1e-10


@dataclass
class StructureSearchResult:
    """What :func:`hill_climb` did.

    Attributes
    ----------
    network : BayesianNetwork
        The final structure with its (5.13) CPTs.
    score_history : list of float
        The score of every accepted structure, from the start, recomputed in full.
    structures : list of tuple
        The parent tuples of every accepted structure.
    moves : list of (str, int, int)
        ``(move, u, v)`` for each accepted change of the edge ``u -> v``.
    converged : bool
        True when the search stopped at a structure no single change improves.
    """

    network: BayesianNetwork
    score_history: list[float] = field(default_factory=list)
    structures: list[tuple[tuple[int, ...], ...]] = field(default_factory=list)
    moves: list[tuple[str, int, int]] = field(default_factory=list)
    converged: bool = False


def _acyclic(parents: Sequence[Sequence[int]]) -> bool:
    try:
        tuple(graphlib.TopologicalSorter(dict(enumerate(parents))).static_order())
    except graphlib.CycleError:
        return False
    return True


def neighbours(parents: Sequence[Sequence[int]], max_parents: int | None = None):
    """Every structure one edge change away that is acyclic and within ``max_parents``.

    Yields ``(move, u, v, new_parents)`` where the change concerns the edge ``u -> v``.
    The arguments are checked when this is called, before the first structure is yielded.
    """
    pa = list(check_parents(parents))
    cap = len(pa) if max_parents is None else check_int(max_parents, "max_parents", low=0)
    return _neighbours(pa, cap)


def _neighbours(pa: list[tuple[int, ...]], cap: int):
    """The generator of :func:`neighbours` on validated arguments."""
    d = len(pa)
    for v in range(d):
        for u in range(d):
            if u == v:
                continue
            if u in pa[v]:
                new = list(pa)
                new[v] = tuple(p for p in pa[v] if p != u)
                yield "delete", u, v, tuple(new)
                if len(pa[u]) < cap:
                    new = list(new)
                    new[u] = (*pa[u], v)
                    if _acyclic(new):
                        yield "reverse", u, v, tuple(new)
            elif v not in pa[u] and len(pa[v]) < cap:
                new = list(pa)
                new[v] = (*pa[v], u)
                if _acyclic(new):
                    yield "add", u, v, tuple(new)


def hill_climb(
    X: ArrayLike,
    cards: Sequence[int] | None = None,
    *,
    score: object = "bic",
    start: Sequence[Sequence[int]] | None = None,
    max_parents: int | None = None,
    max_iter: int = 1000,
    sample_weight: ArrayLike | None = None,
) -> StructureSearchResult:
    """Greedy single-edge search minimising (5.10).

    Parameters
    ----------
    X : int array of shape (m, d)
        Complete data, codes ``0..cards[i] - 1``.
    cards : sequence of int, optional
        Values per variable (default: ``max + 1`` per column).
    score : {"bic", "aic", "ml"} or float, default="bic"
        ``f`` in (5.10).
    start : parent lists, optional
        The starting DAG (default: no edges).
    max_parents : int, optional
        Largest parent set allowed.
    max_iter : int, default=1000
        Largest number of accepted moves.
    sample_weight : array of shape (m,), optional

    Returns
    -------
    StructureSearchResult
    """
    X_arr = check_array_argument(X, "X", ndim=2, real=True)
    d = X_arr.shape[1]
    cards = infer_cards(X_arr) if cards is None else check_cards(cards, d)
    x = check_codes(X_arr, cards)
    w = check_weights(sample_weight, x.shape[0])
    m = x.shape[0] if w is None else float(w.sum())
    f = mdl_weight(score, m, name="score")
    cap = None if max_parents is None else check_int(max_parents, "max_parents", low=0)
    n_iter = check_int(max_iter, "max_iter", low=0)
    current = check_parents(start if start is not None else [()] * d, d, name="start")
    if cap is not None and any(len(p) > cap for p in current):
        raise ValueError(f"start has a variable with more than max_parents={cap} parents.")

    cache: dict[tuple[int, tuple[int, ...]], float] = {}

    def family(i: int, pa: tuple[int, ...]) -> float:
        key = (i, tuple(sorted(pa)))
        if key not in cache:
            check_family_size(cards, [*key[1], i], f"variable {i} given {key[1]}")
            counts = _family_counts(x, cards, i, key[1], w)
            cache[key] = (f * (cards[i] - 1) * math.prod(cards[j] for j in key[1])
                          - family_log_likelihood(counts))
        return cache[key]

    result = StructureSearchResult(network=None)  # type: ignore[arg-type]
    result.structures.append(current)
    result.score_history.append(network_score(current, x, cards, f, sample_weight=w))
    for _ in range(n_iter):
        best = None
        for move, u, v, new in _neighbours(list(current), d if cap is None else cap):
            changed = {v, u} if move == "reverse" else {v}
            delta = sum(family(i, new[i]) - family(i, current[i]) for i in changed)
            if best is None or delta < best[0]:
                best = (delta, move, u, v, new)
        threshold = IMPROVEMENT_TOLERANCE * max(1.0, abs(result.score_history[-1]))
        if best is None or best[0] >= -threshold:
            result.converged = True
            break
        _, move, u, v, current = best
        result.moves.append((move, u, v))
        result.structures.append(current)
        result.score_history.append(network_score(current, x, cards, f, sample_weight=w))
    if not result.converged:
        warnings.warn(f"hill_climb stopped after max_iter={n_iter} moves while a move still "
                      "lowered the score.", ConvergenceWarning, stacklevel=2)
    result.network = fit_cpts(current, x, cards, sample_weight=w)
    return result
