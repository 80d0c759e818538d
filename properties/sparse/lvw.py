"""The Las Vegas Wrapper of 003 §10.3 (Fig. 11.1): its acceptance rule, counter and
output replayed from the recorded run, and wrapper against filter selection in a stated
simulation."""

from __future__ import annotations

import time

import numpy as np

from algorithms.sparse import LVW, Relief
from mltheory import Method, claim, evidence
from mltheory.stats import check_probability_at_least
from properties.sparse.support_selection import FastGaussianNB, check_lvw_run


def lvw_problem(rng) -> tuple[np.ndarray, np.ndarray]:
    """A small two-class sample (12..30 samples, 2..4 attributes): one attribute on a
    coarse grid that carries the class with noise, a duplicate of it, the others noise;
    few samples, so
    cross-validated errors tie often and the rule's tie branch (E' = E, d' < d) runs."""
    m, d = int(rng.integers(12, 31)), int(rng.integers(2, 5))
    y = np.concatenate([[0, 0, 0, 1, 1, 1], rng.integers(0, 2, size=m - 6)])
    X = rng.integers(0, 4, size=(m, d)).astype(float)
    X[:, 0] = np.where(rng.random(m) < 0.8, 2 * y, rng.integers(0, 4, size=m))
    X[:, 1] = X[:, 0]  # a duplicate: subsets with one or both copies tie
    return X[:, rng.permutation(d)], y


def lvw_learner(rng):
    """The learner of one run: the default tree (estimator=None) or naive Bayes."""
    return None if rng.random() < 0.5 else FastGaussianNB()


@claim(
    id="lvw.acceptance_rule",
    source="003 §10.3 Fig. 11.1",
    statement="LVW replaces the stored subset exactly when E' < E or (E' = E and d' < d), "
    "resetting t to 0, and otherwise increments t; it stops after T consecutive "
    "rejections. So the stored pair (E, d) is lexicographically non-increasing, the "
    "output A* has the smallest cross-validated error of all subsets tried and, among "
    "those, the fewest features, and the loop always ends, after at most "
    "T (number of acceptances + 1) subsets with at most (m + 1) |A| acceptances (errors on "
    "fixed folds are multiples of 1/m). Replayed from the recorded run; the recorded errors "
    "are recomputed by scikit-learn's cross_val_predict on the recorded folds.",
    method=Method.PROPERTY,
    tags=("sparse", "lvw"),
)
def acceptance_rule(rng, scale):
    ties = 0
    for _ in range(6 * scale):
        X, y = lvw_problem(rng)
        lvw = LVW(estimator=lvw_learner(rng), patience=int(rng.integers(1, 9)),
                  cv=int(rng.integers(2, 4)), random_state=int(rng.integers(2**31)))
        ties += check_lvw_run(lvw.fit(X, y), X, y)
    evidence.record("acceptances by the tie branch (E' = E, d' < d)", ties)
    assert ties > 0, "no run exercised the tie branch of the acceptance rule"


def interaction_scenario(rng, m: int, n_noise: int = 3) -> tuple[np.ndarray, np.ndarray]:
    """y = 1[a_0 a_1 + 0.2 a_2 > 0], a ~ N(0, I): an XOR-like interaction of a_0 and a_1
    (which Relief, a nearest-neighbour statistic, ranks first) and a weak linear attribute
    a_2 (the only one a naive Bayes learner can use), plus n_noise noise attributes."""
    a = rng.normal(size=(m, 3))
    y = (a[:, 0] * a[:, 1] + 0.2 * a[:, 2] > 0).astype(int)
    return np.column_stack([a, rng.normal(size=(m, n_noise))]), y


#: Claimed probability that the wrapper's subset gives the lower held-out error in the
#: scenario ("usually", read as at least three times in four).
WRAPPER_WIN_PROBABILITY = 0.75
#: Claimed minimum ratio of learner trainings, wrapper to filter ("far higher cost").
TRAINING_RATIO = 10


def check_wrapper_vs_filter(rng, scale, wrapper=None, filter_=None):
    """R runs of the scenario (100 training, 2000 test samples): LVW with naive Bayes
    (T = 8, 3 folds) against Relief's top 2; wins decided by Clopper-Pearson at 1 - 1e-6;
    trainings counted (the filter trains the learner once, on its subset)."""
    wrapper = wrapper or (lambda X, y, seed: LVW(
        estimator=FastGaussianNB(), patience=8, cv=3, random_state=seed).fit(X, y))
    filter_ = filter_ or (lambda X, y: Relief(n_features_to_select=2).fit(X, y))
    reps = 30 * scale
    wins, trainings, seconds = 0, [], [0.0, 0.0]
    errors = np.zeros((reps, 2))
    for r in range(reps):
        X, y = interaction_scenario(rng, 100)
        X_test, y_test = interaction_scenario(rng, 2000)
        start = time.perf_counter()
        lvw = wrapper(X, y, r)
        seconds[0] += time.perf_counter() - start
        start = time.perf_counter()
        relief = filter_(X, y)
        seconds[1] += time.perf_counter() - start
        for k, support in enumerate((lvw.support_, relief.support_)):
            model = FastGaussianNB().fit(X[:, support], y)
            errors[r, k] = np.mean(model.predict(X_test[:, support]) != y_test)
        wins += bool(errors[r, 0] < errors[r, 1])
        trainings.append(lvw.n_evaluations_ * len(lvw.folds_) + 1)
    check_probability_at_least(wins, reps, WRAPPER_WIN_PROBABILITY,
                               label="wrapper held-out error < filter's")
    ratio = min(trainings) / 1
    evidence.record("mean held-out error: wrapper, filter",
                    f"{errors[:, 0].mean():.3f}, {errors[:, 1].mean():.3f}")
    evidence.record("wall-time ratio wrapper / filter (not decided: machine-dependent)",
                    round(seconds[0] / max(seconds[1], 1e-9), 1))
    evidence.worst("fewest trainings of the learner, wrapper / filter", ratio,
                   larger_is_worse=False)
    assert ratio >= TRAINING_RATIO, f"the wrapper trained the learner only {ratio} times"


@claim(
    id="wrapper_vs_filter.learner_tailored",
    source="003 §10.3",
    statement="Wrapper selection, tailored to the final learner, usually gives it better "
    "performance than filter selection, at a far higher cost. Checked in one stated "
    "scenario where the filter's notion of relevance differs from what the learner can "
    "use: y = 1[a_0 a_1 + 0.2 a_2 > 0] with 3 noise attributes, m = 100; LVW with naive "
    "Bayes (T = 8, 3 fixed folds) against Relief's top 2: the wrapper's subset has the "
    "lower held-out error (2000 test samples) with probability >= 3/4 (refuted only if a "
    "Clopper-Pearson upper bound at 1 - 1e-6 is below), and it trains the learner at "
    "least 10 times as often as the filter (once). A tendency, not a theorem: where the "
    "filter already finds what the learner needs (e.g. redundant noisy copies of a strong "
    "attribute), LVW's selection on its cross-validated error often does worse.",
    method=Method.SIMULATION,
    tags=("sparse", "lvw", "relief"),
)
def wrapper_vs_filter(rng, scale):
    check_wrapper_vs_filter(rng, scale)
