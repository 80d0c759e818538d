"""Pool-based active learning, 003 §11.1.

A learner trained on the few labelled samples picks the pool sample it is least sure
about, an *oracle* (the expert of the notes' example) is asked for that sample's label,
the labelled sample joins the training set and the learner is retrained; repeat until
the query budget is spent. The point is to reach a good model with few queries.

Uncertainty of a sample: ``1 - max_c P(c | x)`` for learners with ``predict_proba``,
otherwise ``-|f(x)|`` from a binary ``decision_function``; ties go to the lowest pool
index. ``strategy="random"`` queries uniformly at random instead (the baseline).
Everything the loop decided is recorded (:class:`ActiveLearningResult`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike
from sklearn.base import clone

from algorithms._validation import (
    check_array_argument,
    check_choice,
    check_int,
    make_rng,
)

__all__ = ["ACTIVE_STRATEGIES", "ActiveLearningResult", "active_learning", "uncertainty"]

ACTIVE_STRATEGIES = ("uncertainty", "random")


@dataclass
class ActiveLearningResult:
    """What :func:`active_learning` did.

    Attributes
    ----------
    estimator : fitted classifier
        Trained on the initial and the queried samples.
    labelled : ndarray
        Indices of the training samples, initial ones first, then in query order.
    labels : ndarray
        Their labels (the queried ones as the oracle answered).
    queried : ndarray
        The pool indices asked, in order.
    chosen_uncertainty, max_uncertainty : ndarray
        For each query: the uncertainty of the chosen sample and the largest in the pool
        (equal for ``"uncertainty"``; NaN for ``"random"``).
    n_oracle_calls : int
    """

    estimator: object
    labelled: np.ndarray
    labels: np.ndarray
    queried: np.ndarray
    chosen_uncertainty: np.ndarray
    max_uncertainty: np.ndarray
    n_oracle_calls: int


def _uncertainty(h, X: np.ndarray) -> np.ndarray:
    if hasattr(h, "predict_proba"):
        return 1.0 - np.max(h.predict_proba(X), axis=1)
    if hasattr(h, "decision_function"):
        f = np.asarray(h.decision_function(X), dtype=float)
        if f.ndim != 1:
            raise ValueError("estimator's decision_function must be binary (one column) "
                             "when it has no predict_proba.")
        return -np.abs(f)
    raise ValueError("estimator must have predict_proba or decision_function.")


def uncertainty(estimator: object, X: ArrayLike) -> np.ndarray:
    """The uncertainty of a fitted classifier on each row of ``X`` (larger: less sure):
    ``1 - max_c P(c | x)``, or ``-|f(x)|`` from a binary decision function."""
    X = check_array_argument(X, "X", ndim=2, real=True)
    return _uncertainty(estimator, X)


def active_learning(estimator: object, X: ArrayLike, oracle: Callable[[int], object] | ArrayLike,
                    initial: ArrayLike, *, n_queries: int, strategy: str = "uncertainty",
                    random_state: object = None) -> ActiveLearningResult:
    """Run the pool-based loop of §11.1.

    Parameters
    ----------
    estimator : classifier
        Cloned and refitted after every query.
    X : array-like of shape (n_samples, n_features)
        All samples: the initial labelled ones and the pool.
    oracle : callable or array-like
        ``oracle(i)`` returns the label of sample ``i`` (or an array of all labels, read
        only at the queried indices).
    initial : array-like of int
        Indices labelled at the start (asked from the oracle, counted in
        ``n_oracle_calls``).
    n_queries : int
        Budget of further queries (at most the pool size).
    strategy : {"uncertainty", "random"}
    random_state : None, int or Generator
        For ``"random"``.
    """
    if not (hasattr(estimator, "fit") and hasattr(estimator, "get_params")):
        raise ValueError(f"estimator must be a scikit-learn classifier, got {estimator!r}.")
    X = check_array_argument(X, "X", ndim=2, real=True)
    m = X.shape[0]
    if callable(oracle):
        ask = oracle
    else:
        answers = np.asarray(oracle)
        if answers.shape != (m,):
            raise ValueError(f"oracle must be a callable or an array of {m} labels, got "
                             f"shape {answers.shape}.")
        ask = answers.__getitem__
    start = check_array_argument(initial, "initial", ndim=1, dtype=None)
    if start.size == 0 or start.dtype.kind not in "iu":
        raise ValueError("initial must be a non-empty 1-d array of sample indices.")
    if np.any((start < 0) | (start >= m)) or np.unique(start).size != start.size:
        raise ValueError(f"initial must hold distinct indices in [0, {m - 1}].")
    pool = np.setdiff1d(np.arange(m), start)
    budget = check_int(n_queries, "n_queries", low=0, high=pool.size)
    strategy = check_choice(strategy, "strategy", ACTIVE_STRATEGIES)
    rng = make_rng(random_state)
    labelled = [int(i) for i in start]
    labels = [ask(i) for i in labelled]
    calls = len(labelled)
    h = clone(estimator).fit(X[labelled], np.asarray(labels))
    queried, chosen_u, max_u = [], [], []
    for _ in range(budget):
        if strategy == "uncertainty":
            u = _uncertainty(h, X[pool])
            k = int(np.argmax(u))                       # first of the ties: lowest index
            chosen_u.append(float(u[k]))
            max_u.append(float(u.max()))
        else:
            k = int(rng.integers(pool.size))
            chosen_u.append(np.nan)
            max_u.append(np.nan)
        i = int(pool[k])
        pool = np.delete(pool, k)
        labelled.append(i)
        labels.append(ask(i))
        calls += 1
        queried.append(i)
        h = clone(estimator).fit(X[labelled], np.asarray(labels))
    return ActiveLearningResult(h, np.array(labelled), np.asarray(labels),
                                np.array(queried, dtype=np.intp), np.array(chosen_u),
                                np.array(max_u), calls)
