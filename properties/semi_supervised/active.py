"""Active learning, 003 §11.1: the pool-based loop replayed from its record, and its
promise (good models from few label queries) on a threshold problem where uncertainty
sampling is binary search.

The section's description of active learning is misprinted and declared as printed:
the loop it describes has the model itself label D_u and adds those labels to D_l. That
is self-training; active learning asks an oracle (the book's melon farmer) for the label
of the sample it picked, so every label it adds is a true label."""

from __future__ import annotations

import math

import numpy as np
from hypothesis import given
from hypothesis import strategies as st
from sklearn.base import BaseEstimator, ClassifierMixin

from algorithms.semi_supervised import active_learning
from mltheory import ErratumKind, Expect, Method, claim, evidence
from mltheory.stats import check_probability_at_least


class MidpointThreshold(ClassifierMixin, BaseEstimator):
    """A 1-d threshold learner for labels 0 < 1: the boundary is the midpoint between the
    largest labelled 0 and the smallest labelled 1; ``decision_function = x - t``."""

    def fit(self, X, y):
        x, y = np.asarray(X, float)[:, 0], np.asarray(y)
        self.classes_ = np.array([0, 1])
        lo = x[y == 0].max() if np.any(y == 0) else -np.inf
        hi = x[y == 1].min() if np.any(y == 1) else np.inf
        if np.isinf(lo):
            lo = hi - 1.0
        if np.isinf(hi):
            hi = lo + 1.0
        self.threshold_ = 0.5 * (lo + hi)
        return self

    def decision_function(self, X):
        return np.asarray(X, float)[:, 0] - self.threshold_

    def predict(self, X):
        return (self.decision_function(X) > 0).astype(int)


def grid_problem(m: int, cut: int) -> tuple[np.ndarray, np.ndarray]:
    """m equally spaced points on [0, 1], label 1 from index ``cut`` on (1 <= cut < m)."""
    X = np.linspace(0.0, 1.0, m)[:, None]
    return X, (np.arange(m) >= cut).astype(int)


def check_self_labelling(m: int, cut: int) -> None:
    """As printed: train on D_l, let the model classify D_u, add those labels to D_l; the
    claim read from the text is that the labels so added are the samples' labels."""
    X, y = grid_problem(m, cut)
    start = np.array([0, m - 1])
    h = MidpointThreshold().fit(X[start], y[start])
    pool = np.setdiff1d(np.arange(m), start)
    added = h.predict(X[pool])
    wrong = int(np.sum(added != y[pool]))
    evidence.worst("labels the model gave itself that are wrong", wrong)
    assert wrong == 0, f"the model labelled {wrong} of {pool.size} pool samples wrongly"


@claim(
    id="active.self_labelling_as_written",
    source="003 §11.1",
    statement="(As printed) Active learning trains a model on D_l, uses it to classify D_u, "
    "adds the samples so labelled to D_l and retrains, repeating; so that few samples of "
    "D_u suffice for a strong model at a much lower labelling cost.",
    method=Method.PROPERTY,
    tags=("semi_supervised", "active", "erratum"),
    expect=Expect.REFUTED,
    kind=ErratumKind.CODE,
    corrected_by="active.queries_oracle",
    explanation="Labels the model gives itself are its own predictions, wrong wherever it "
    "errs, and cost nothing to obtain; that loop is self-training. Active learning picks a "
    "sample and asks an oracle for its label, so every added label is true and the cost "
    "is the number of queries.",
)
@given(m=st.integers(4, 64), data=st.data())
def self_labelling_as_written(m, data):
    check_self_labelling(m, data.draw(st.integers(1, m - 1)))


def check_queries(m: int, cut: int, budget: int) -> None:
    """The loop asks the oracle only for its initial and queried samples, every answer is
    the true label, and each query is the pool sample the current model is least sure of
    (replayed here with a refitted learner; ties to the lowest index)."""
    X, y = grid_problem(m, cut)
    calls = []

    def oracle(i):
        calls.append(i)
        return y[i]
    res = active_learning(MidpointThreshold(), X, oracle, np.array([0, m - 1]),
                          n_queries=budget)
    assert calls == res.labelled.tolist(), "oracle calls differ from the labelled samples"
    assert res.n_oracle_calls == 2 + budget
    assert np.array_equal(res.labels, y[res.labelled]), "an added label is not the truth"
    labelled = [0, m - 1]
    pool = [i for i in range(m) if i not in labelled]
    for q in res.queried:
        h = MidpointThreshold().fit(X[labelled], y[labelled])
        u = -np.abs(X[pool, 0] - h.threshold_)
        best = pool[int(np.argmax(u))]
        assert q == best, f"queried {q}, the least certain pool sample is {best}"
        labelled.append(int(q))
        pool.remove(int(q))


@claim(
    id="active.queries_oracle",
    source="003 §11.1",
    statement="Pool-based active learning trains on D_l, picks the unlabelled sample the "
    "model is least sure of, asks an oracle for its label, adds it to D_l and retrains: "
    "every label added is the oracle's answer, and the oracle is asked exactly once per "
    "query.",
    method=Method.PROPERTY,
    tags=("semi_supervised", "active"),
)
@given(m=st.integers(4, 40), data=st.data())
def queries_oracle(m, data):
    cut = data.draw(st.integers(1, m - 1))
    check_queries(m, cut, data.draw(st.integers(0, m - 2)))


def queries_to_learn(m: int, cut: int, budget: int) -> int:
    """Uncertainty-sampling queries (at most ``budget``) until the model labels every
    sample correctly; ``budget + 1`` if it never does."""
    X, y = grid_problem(m, cut)
    res = active_learning(MidpointThreshold(), X, y, np.array([0, m - 1]),
                          n_queries=min(budget, m - 2))
    labelled = [0, m - 1]
    for q in range(res.queried.size + 1):
        h = MidpointThreshold().fit(X[labelled], y[labelled])
        if np.array_equal(h.predict(X), y):
            return q
        if q < res.queried.size:
            labelled.append(int(res.queried[q]))
    return budget + 1


def queries_bound(m: int) -> int:
    """ceil(log2 m) + 1: binary search over m points, plus one query for the last gap."""
    return math.ceil(math.log2(m)) + 1


def check_binary_search(m: int, cut: int) -> None:
    bound = queries_bound(m)
    q = queries_to_learn(m, cut, bound + 1)
    evidence.worst("queries used / (ceil(log2 m) + 1)", q / bound)
    assert q <= bound, f"{q} queries for m = {m}, more than ceil(log2 m) + 1 = {bound}"


#: Random-query trials for the comparison, on m = 64 points.
RANDOM_TRIALS, RANDOM_M = 40, 64


def random_query_failures(rng: np.random.Generator, trials: int) -> int:
    budget = math.ceil(math.log2(RANDOM_M)) + 1
    failures = 0
    for _ in range(trials):
        X, y = grid_problem(RANDOM_M, int(rng.integers(1, RANDOM_M - 1)))
        res = active_learning(MidpointThreshold(), X, y, np.array([0, RANDOM_M - 1]),
                              n_queries=budget, strategy="random",
                              random_state=int(rng.integers(2**31)))
        failures += not np.array_equal(res.estimator.predict(X), y)
    return failures


@claim(
    id="active.few_queries_threshold",
    source="003 §11.1",
    statement="Active learning needs few queries: on m equally spaced points labelled by a "
    "threshold, uncertainty sampling with a midpoint threshold learner labels every sample "
    "correctly after at most ceil(log2 m) + 1 queries (it is binary search).",
    method=Method.PROPERTY,
    tags=("semi_supervised", "active"),
)
@given(m=st.integers(3, 300), data=st.data())
def few_queries_threshold(m, data):
    check_binary_search(m, data.draw(st.integers(1, m - 1)))


@claim(
    id="active.random_queries_baseline",
    source="003 §11.1",
    statement="Choosing the queries matters: with the same budget of ceil(log2 64) + 1 = 7 "
    "queries on 64 points, random queries leave some sample mislabelled with probability "
    "at least 1/2 (Clopper-Pearson at confidence 1 - 1e-6), where uncertainty sampling "
    "never does.",
    method=Method.SIMULATION,
    tags=("semi_supervised", "active"),
)
def random_queries_baseline(rng, scale):
    trials = RANDOM_TRIALS * scale
    failures = random_query_failures(rng, trials)
    check_probability_at_least(failures, trials, 0.5, label="P(random queries leave an error)")
