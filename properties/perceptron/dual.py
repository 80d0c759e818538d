"""The dual form of PLA (001 §三, 004 §5.3.4).

Notation as in :mod:`properties.perceptron`.
"""


from __future__ import annotations

import warnings

import numpy as np
from hypothesis import given
from hypothesis import strategies as st
from scipy.stats import kendalltau
from sklearn.exceptions import ConvergenceWarning

from algorithms.perceptron import DualPerceptron, Perceptron
from mltheory import ErratumKind, Expect, Method, claim, evidence
from mltheory.numeric import EXACT_ARITHMETIC, assert_close
from mltheory.stats import check_probability_at_least
from mltheory.strategies import (
    LabelledData,
    nonseparable_datasets,
    separable_datasets,
)
from properties.perceptron.strategies import orders, seeds
from properties.perceptron.support import (
    PythonDualPerceptron,
    PythonPerceptron,
    dyadic,
    fit_pla,
)

# ---------------------------------------------------------------------------
# Dual form (001 §三, 004 §5.3.4)
# ---------------------------------------------------------------------------


#: Dyadic data: coordinates on a 1/8 grid below 2^10 and steps eta = 2^-j. Every sum and
#: product the two runs form is then a multiple of 2^-12 far below 2^53 in size, so
#: float64 computes them exactly and the runs can be compared update by update, even at
#: margins of exactly 0 where the two algorithms' different summation orders would
#: otherwise round differently.
dyadic_etas = st.sampled_from([1.0, 0.5, 0.25, 0.125])


def _dual_vs_primal(data, eta, order, seed, kernel="linear", passes=50,
                    primal=Perceptron, dual=DualPerceptron):
    p = fit_pla(data, eta=eta, order=order, random_state=seed, max_iter=passes,
                estimator=primal)
    d = dual(eta=eta, order=order, random_state=seed, max_iter=passes, kernel=kernel)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        d.fit(data.X, data.y)
    return p, d


@claim(
    id="perceptron.dual_run_equals_primal_run",
    source="001 §三.1–三.3; 004 §5.3.4",
    statement="Started from alpha = 0, b = 0 and visiting points in the same order, the dual "
    "algorithm with the Gram matrix G = [x_i . x_j] makes the same updates as the primal one "
    "from w = 0, b = 0; alpha_i = n_i eta and w = sum_i alpha_i y_i x_i, b = sum_i alpha_i y_i. "
    "(An identity in exact arithmetic: checked on dyadic data, where float64 is exact.) "
    "Both algorithms are run twice, on the compiled loops and on their step-by-step Python "
    "reference loops; each of the four runs is compared with the compiled primal one.",
    method=Method.PROPERTY,
    tags=("perceptron", "dual"),
)
@given(data=separable_datasets() | nonseparable_datasets(), eta=dyadic_etas, order=orders,
       seed=seeds)
def dual_run_equals_primal_run(data, eta, order, seed):
    data = dyadic(data)
    p, d = _dual_vs_primal(data, eta, order, seed)
    _check_dual_equals_primal(data, eta, p, d)
    # The Python reference loops: the same runs, update for update and iterate for iterate.
    q, e = _dual_vs_primal(data, eta, order, seed, primal=PythonPerceptron,
                           dual=PythonDualPerceptron)
    for name in ("update_indices_", "updates_per_pass_", "weight_history_",
                 "update_margins_", "mistake_counts_", "w_hat_", "converged_"):
        assert np.array_equal(getattr(q, name), getattr(p, name)), (
            f"Python reference primal loop: {name} differs from the compiled run")
    _check_dual_equals_primal(data, eta, p, e)


def _check_dual_equals_primal(data, eta, p, d):
    """The dual run ``d`` made the updates of the primal run ``p`` and holds its weights:
    alpha = eta n, w = sum alpha y x, b = sum alpha y, the same scores and predictions."""
    evidence.worst("updates compared", p.n_updates_)
    assert np.array_equal(p.update_indices_, d.update_indices_), (
        f"primal updates {p.update_indices_.tolist()[:20]} vs dual "
        f"{d.update_indices_.tolist()[:20]}"
    )
    assert_close(d.alpha_, eta * d.mistake_counts_, EXACT_ARITHMETIC, label="alpha - n eta")
    y = np.where(data.y == d.classes_[1], 1, -1)
    w = (d.alpha_ * y) @ data.X
    b = float(np.sum(d.alpha_ * y))
    assert_close(np.append(w, b), p.w_hat_, EXACT_ARITHMETIC, label="dual vs primal w_hat")
    assert_close(d.intercept_, b, EXACT_ARITHMETIC, label="dual b vs sum alpha y")
    # The dual model f(x) = sign(sum_j alpha_j y_j x_j . x + b) scores like the primal one.
    assert_close(d.decision_function(data.X), p.decision_function(data.X), EXACT_ARITHMETIC,
                 label="dual vs primal scores")
    assert np.array_equal(d.predict(data.X), p.predict(data.X))


def _gram_as_written(A, B):
    """The note's G = [x_i . x_i]: entry (i, j) is x_i . x_i whatever j is."""
    return np.repeat(np.sum(A * A, axis=1)[:, None], B.shape[0], axis=1)


@claim(
    id="perceptron.dual_gram_as_written",
    source="004 §5.3.4 item 3",
    statement="(As printed) the dual algorithm run with the Gram matrix G = [x_i . x_i]_{NxN} "
    "makes the same updates as the primal algorithm.",
    method=Method.PROPERTY,
    tags=("perceptron", "dual", "erratum"),
    expect=Expect.REFUTED,
    kind=ErratumKind.SYMBOL,
    corrected_by="perceptron.dual_run_equals_primal_run",
    explanation="The Gram matrix is [x_i . x_j] (001 §三.3); the note repeats the index i, "
    "which makes every column the same vector of squared norms. The note's mistake test in "
    "the same section also writes x where x_i is meant.",
)
@given(data=separable_datasets(), eta=dyadic_etas, order=orders, seed=seeds)
def dual_gram_as_written(data, eta, order, seed):
    data = dyadic(data)
    p, d = _dual_vs_primal(data, eta, order, seed, kernel=_gram_as_written)
    assert np.array_equal(p.update_indices_, d.update_indices_), (
        f"primal updates {p.update_indices_.tolist()} vs note's dual "
        f"{d.update_indices_.tolist()}"
    )


@claim(
    id="perceptron.update_counts_track_distance_as_written",
    source="001 §三.1",
    statement="(As printed, read as an implication between any two points) a point that was "
    "updated on more often is closer to the separating hyperplane learned: n_i > n_j implies "
    "dist(x_i, S) < dist(x_j, S).",
    method=Method.PROPERTY,
    tags=("perceptron", "dual", "erratum"),
    expect=Expect.REFUTED,
    kind=ErratumKind.OVERCLAIM,
    corrected_by="perceptron.update_counts_tend_to_track_distance",
    explanation="The note states that more updates 'means' a point is nearer the hyperplane. "
    "That is a tendency, not an implication: a point visited early can be updated on several "
    "times and still end far from the final hyperplane, beyond a point updated on once. The "
    "tendency itself holds (perceptron.update_counts_tend_to_track_distance), and what holds "
    "exactly is that w is the combination of the updated points with weights n_i eta.",
)
@given(data=separable_datasets(min_samples=3), order=orders)
def update_counts_track_distance_as_written(data, order):
    est = fit_pla(data, order=order)
    dist = np.abs(est.decision_function(data.X)) / np.linalg.norm(est.coef_)
    n = est.mistake_counts_
    more = n[:, None] > n[None, :]
    closer = dist[:, None] < dist[None, :]
    bad = np.argwhere(more & ~closer)
    assert bad.size == 0, f"n_{bad[0][0]} > n_{bad[0][1]} but the first point is not closer"


@claim(
    id="perceptron.update_counts_tend_to_track_distance",
    source="001 §三.1",
    statement="Points updated on more often tend to lie nearer the learned hyperplane: over "
    "random separable data sets (runs in random order), Kendall's rank correlation between "
    "the update counts n_i and the final distances is negative in more than half of the runs.",
    method=Method.SIMULATION,
    tags=("perceptron", "dual"),
)
def update_counts_tend_to_track_distance(rng, scale):
    negative = used = 0
    for _ in range(100 * scale):
        n, d = int(rng.integers(10, 60)), int(rng.integers(2, 5))
        X, w, b = rng.normal(size=(n, d)), rng.normal(size=d), 0.3 * rng.normal()
        score = X @ w + b
        keep = np.abs(score) > _MARGIN * np.linalg.norm(w)
        X, y = X[keep], np.where(score[keep] > 0, 1, -1)
        if len(set(y.tolist())) < 2:
            continue  # one class: no hyperplane to learn
        est = fit_pla(LabelledData(X=X, y=y), order="random",
                      random_state=int(rng.integers(2**31)), max_iter=_PASSES)
        counts = est.mistake_counts_
        if not est.converged_ or np.all(counts == counts[0]):
            continue  # no final hyperplane, or no ranking of the counts
        used += 1
        dist = np.abs(est.decision_function(X)) / np.linalg.norm(est.coef_)
        negative += bool(kendalltau(counts, dist).statistic < 0)
    evidence.add_examples(used)
    check_probability_at_least(negative, used, 0.5, label="P(tau(n_i, distance) < 0)")


#: Margin kept around the drawn hyperplane (so runs finish in few passes) and the pass cap
#: (Novikoff: at most (R/gamma)^2 updates, a few hundred passes at most here).
_MARGIN = 0.05
_PASSES = 100_000
