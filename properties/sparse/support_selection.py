"""Check bodies of the feature-selection claims (003 §10.1-§10.3), shared by the claims
and by their teeth tests: independent references (scipy / scikit-learn entropies and
mutual information, brute-force subset enumeration, a per-sample loop Relief, a literal
run of the notes' forward-search steps, an LVW replay) and the comparisons."""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable

import numpy as np
from scipy.stats import entropy as scipy_entropy
from sklearn.base import BaseEstimator, ClassifierMixin, clone
from sklearn.metrics import mutual_info_score
from sklearn.model_selection import cross_val_predict
from sklearn.tree import DecisionTreeClassifier

from mltheory import evidence

#: Agreement of two computations of the same entropy / gain in bits (sums of at most
#: a few dozen terms p log p, each exact to a few ulps).
GAIN_ATOL = 1e-9
#: Agreement of two computations of the same Relief statistic: sums of at most ~50
#: squared differences in [0, 1], each rounded once.
RELIEF_ATOL = 1e-9
#: Tie margin of the reference neighbour search (relative, as in the implementation's
#: stated tie rule: floating rounding of equal sums of squares).
TIE_RTOL = 1e-12


# ---------------------------------------------------------------------------
# Entropy and information gain (10.1)-(10.2)
# ---------------------------------------------------------------------------


def printed_entropy(y: np.ndarray, k: int) -> float:
    """(10.2) read as printed: -sum_{i=1}^{|Y|} p_k log2 p_k, the summand indexed by a
    fixed class k (the summation index i does not occur), i.e. -|Y| p_k log2 p_k."""
    classes, counts = np.unique(y, return_counts=True)
    p_k = counts[k] / counts.sum()
    return float(-sum(p_k * math.log2(p_k) for _ in range(classes.shape[0])))


def reference_entropy(y: np.ndarray) -> float:
    """Shannon entropy of the label proportions in bits, by scipy."""
    _, counts = np.unique(y, return_counts=True)
    return float(scipy_entropy(counts, base=2))


def reference_gain(codes: np.ndarray, y: np.ndarray, subset: tuple[int, ...]) -> float:
    """Gain(A) as the mutual information between y and the joint value of A's features
    (Gain(A) = H(Y) - H(Y | A) = I(Y; A)), by scikit-learn, converted to bits; the joint
    value is a string key per sample (no shared code with the implementation)."""
    keys = ["|".join(str(v) for v in row) for row in codes[:, list(subset)].tolist()]
    return float(mutual_info_score(y, keys) / math.log(2))


def check_entropy(y: np.ndarray, entropy_fn: Callable[[np.ndarray], float]) -> float:
    """entropy_fn(y) equals scipy's entropy and lies in [0, log2 |Y|]."""
    ours, ref = entropy_fn(y), reference_entropy(y)
    n_classes = np.unique(y).shape[0]
    assert abs(ours - ref) <= GAIN_ATOL, f"Ent(D) = {ours} but scipy gives {ref}"
    assert -GAIN_ATOL <= ours <= math.log2(n_classes) + GAIN_ATOL, \
        f"Ent(D) = {ours} outside [0, log2 {n_classes}]"
    evidence.worst("|Ent - scipy entropy| (bits)", abs(ours - ref))
    return ours


def check_printed_entropy(y: np.ndarray) -> None:
    """The printed (10.2), for every choice of the free class k, equals Ent(D)."""
    ref = reference_entropy(y)
    for k in range(np.unique(y).shape[0]):
        printed = printed_entropy(y, k)
        assert abs(printed - ref) <= GAIN_ATOL, (
            f"(10.2) as printed with k = {k} gives {printed}, the entropy is {ref}")


def check_gain(codes: np.ndarray, y: np.ndarray, subset: tuple[int, ...],
               gain_fn: Callable) -> float:
    """gain_fn(codes, y, subset) is >= 0, <= Ent(D), and equals the mutual information."""
    ours = gain_fn(codes, y, subset)
    ref = reference_gain(codes, y, subset)
    ent = reference_entropy(y)
    assert ours >= -GAIN_ATOL, f"Gain({subset}) = {ours} < 0"
    assert ours <= ent + GAIN_ATOL, f"Gain({subset}) = {ours} > Ent(D) = {ent}"
    assert abs(ours - ref) <= GAIN_ATOL, \
        f"Gain({subset}) = {ours}, mutual information (scikit-learn) {ref}"
    evidence.worst("|Gain - mutual information| (bits)", abs(ours - ref))
    return ours


def check_gain_monotone(codes: np.ndarray, y: np.ndarray, gain_fn: Callable) -> None:
    """Gain(A u {a}) >= Gain(A) for every subset A and feature a (refining the partition
    never raises the conditional entropy): enumerated over all subsets."""
    d = codes.shape[1]
    worst = math.inf
    for size in range(d):
        for subset in itertools.combinations(range(d), size):
            base = gain_fn(codes, y, subset)
            for a in range(d):
                if a in subset:
                    continue
                grown = gain_fn(codes, y, tuple(sorted((*subset, a))))
                worst = min(worst, grown - base)
                assert grown >= base - GAIN_ATOL, (
                    f"Gain({subset} + {a}) = {grown} < Gain({subset}) = {base}")
    if math.isfinite(worst):
        evidence.worst("smallest Gain(A+a) - Gain(A)", worst, larger_is_worse=False)


# ---------------------------------------------------------------------------
# Subset search
# ---------------------------------------------------------------------------


class CountingScore:
    """A score table over subsets, counting how often each subset is asked for."""

    def __init__(self, table: dict[tuple[int, ...], float]) -> None:
        self.table = table
        self.calls: dict[tuple[int, ...], int] = {}

    def __call__(self, subset: tuple[int, ...]) -> float:
        self.calls[subset] = self.calls.get(subset, 0) + 1
        return self.table[subset]


def exhaustive_best(score: Callable, d: int) -> tuple[tuple[int, ...], float]:
    """The best non-empty subset by enumeration (ties: fewer features, then
    lexicographically first)."""
    best, value = None, -math.inf
    for size in range(1, d + 1):
        for subset in itertools.combinations(range(d), size):
            s = score(subset)
            if s > value:
                best, value = subset, s
    return best, value


def check_forward_run(table: dict, d: int, tol: float, search: Callable) -> None:
    """A forward search run on the score table follows steps 1-3 with the corrected stop:
    it starts at the best single feature, each accepted step is the best one-feature
    extension and beats the current score by more than tol, it stops exactly when the
    best extension does not, within d rounds, scoring each subset once."""
    score = CountingScore(table)
    result = search(score, d, direction="forward", tol=tol)
    sets = [s for s, _ in result.trace]
    values = [v for _, v in result.trace]
    singles = [table[(j,)] for j in range(d)]
    assert sets[0] == (int(np.argmax(singles)),), f"first set {sets[0]} is not the best single"
    for k in range(1, len(sets)):
        prev, cur = sets[k - 1], sets[k]
        assert len(cur) == len(prev) + 1 and set(prev) < set(cur), f"step {prev} -> {cur}"
        best_ext = max(table[tuple(sorted((*prev, j)))] for j in range(d) if j not in prev)
        assert values[k] == best_ext, f"step to {cur} is not the best extension of {prev}"
        assert values[k] > values[k - 1] + tol, f"step to {cur} does not improve"
    final, value = result.subset, result.score
    assert final == sets[-1] and value == values[-1]
    if len(final) < d:
        best_ext = max(table[tuple(sorted((*final, j)))] for j in range(d) if j not in final)
        assert not best_ext > value + tol, (
            f"stopped at {final} ({value}) although an extension scores {best_ext}")
    # a round scores the singles or the extensions of the current set: one per set on the
    # path, plus the last (rejected) one when the search stopped before the full set
    rounds = len(sets) + (len(final) < d)
    assert result.rounds == rounds, f"{result.rounds} rounds recorded, {rounds} run"
    assert result.rounds <= d, f"{result.rounds} rounds for {d} features"
    assert all(c == 1 for c in score.calls.values()), "a subset was scored twice"
    assert result.n_evaluations == len(score.calls) <= d * (d + 1) // 2
    evidence.worst("rounds / d", result.rounds / d)


def literal_forward_search(score: Callable, d: int, max_rounds: int) -> tuple[int, ...]:
    """Steps 1-3 of 003 §10.1 run literally: take the best single feature; each round
    compare the best (k+1)-extension with the selected set, replace it if better, keep it
    otherwise, and stop only when the extension is worse (or no feature is left).

    Raises AssertionError when a round leaves the selected set unchanged without stopping:
    the procedure is deterministic, so the next round repeats it for ever.
    """
    singles = [score((j,)) for j in range(d)]
    selected = (int(np.argmax(singles)),)
    value = singles[selected[0]]
    for _ in range(max_rounds):
        rest = [j for j in range(d) if j not in selected]
        if not rest:
            return selected
        candidates = [tuple(sorted((*selected, j))) for j in rest]
        scores = [score(c) for c in candidates]
        k = int(np.argmax(scores))
        if scores[k] > value:
            selected, value = candidates[k], scores[k]
        elif scores[k] < value:
            return selected
        else:
            raise AssertionError(
                f"steps 1-3 loop for ever: the best extension {candidates[k]} ties the "
                f"selected set {selected} (score {value}), which is neither replaced nor "
                f"a reason to stop, so every later round is the same")
    raise AssertionError(f"no stop after {max_rounds} rounds")


# ---------------------------------------------------------------------------
# Relief / Relief-F: an independent per-sample loop
# ---------------------------------------------------------------------------


def naive_relief(X: np.ndarray, y: np.ndarray, discrete: np.ndarray,
                 weighting: str = "normalized", samples=None) -> np.ndarray:
    """(10.3)/(10.4) by plain loops over samples and attributes.

    Continuous attributes min-max normalised (a constant one reads 0), diff = |a - b|;
    discrete diff = 1[a != b]; distance = sum_j diff^2; the sample itself excluded;
    nearest with ties (within TIE_RTOL) to the lowest index. ``weighting``: "proportion"
    (p_l), "normalized" (p_l / (1 - p_k)), "unweighted" (weight 1, two-class Relief).
    """
    m, d = X.shape
    cols = []
    for j in range(d):
        col = [float(v) for v in X[:, j]]
        if discrete[j]:
            cols.append(col)
            continue
        lo, hi = min(col), max(col)
        cols.append([(v - lo) / (hi - lo) if hi > lo else 0.0 for v in col])

    def diff(j, a, b):
        if discrete[j]:
            return 0.0 if cols[j][a] == cols[j][b] else 1.0
        return abs(cols[j][a] - cols[j][b])

    def dist(a, b):
        total = 0.0
        for j in range(d):
            total += diff(j, a, b) ** 2
        return total

    def nearest(i, members):
        best, best_d = None, math.inf
        for q in members:
            if q == i:
                continue
            dq = dist(i, q)
            if best is None or dq < best_d - TIE_RTOL * max(best_d, 1.0):
                best, best_d = q, dq
        return best

    labels = sorted(set(y.tolist()))
    members = {c: [q for q in range(m) if y[q] == c] for c in labels}
    prop = {c: len(members[c]) / m for c in labels}
    sigma = [0.0] * d
    for i in (range(m) if samples is None else samples):
        k = y[i]
        hit = nearest(i, members[k])
        for j in range(d):
            sigma[j] -= diff(j, i, hit) ** 2
        for c in labels:
            if c == k:
                continue
            miss = nearest(i, members[c])
            w = {"proportion": prop[c], "normalized": prop[c] / (1.0 - prop[k]),
                 "unweighted": 1.0}[weighting]
            for j in range(d):
                sigma[j] += w * diff(j, i, miss) ** 2
    return np.array(sigma)


def check_relief_statistic(X, y, discrete, scores_fn: Callable, weighting: str) -> np.ndarray:
    """scores_fn(X, y, discrete) equals the per-sample loop, within |sigma| <= m."""
    ours = scores_fn(X, y, discrete)
    ref = naive_relief(X, y, discrete, weighting)
    err = float(np.max(np.abs(ours - ref)))
    assert err <= RELIEF_ATOL, f"sigma = {ours}, per-sample loop gives {ref}"
    m = X.shape[0]
    assert np.all(np.abs(ours) <= m + RELIEF_ATOL), f"|sigma| > m = {m}: {ours}"
    evidence.worst("|sigma - per-sample loop|", err)
    evidence.worst("max |sigma^j| / m", float(np.max(np.abs(ours))) / m)
    return ours


def printed_relief(X, y, discrete, i: int) -> np.ndarray:
    """(10.3) as printed, sigma^j = sum_j [-diff(x_i^j, nh^j)^2 + diff(x_i^j, nm^j)^2]:
    the bound index j is summed away, so every component gets the same number (for the
    sample i left free by the formula)."""
    one = naive_relief(X, y, discrete, "unweighted", samples=[i])
    return np.full(X.shape[1], float(np.sum(one)))


# ---------------------------------------------------------------------------
# LVW
# ---------------------------------------------------------------------------


def reference_cv_error(estimator, X: np.ndarray, y: np.ndarray, folds) -> float:
    """Pooled cross-validated misclassification rate by scikit-learn's cross_val_predict."""
    pred = cross_val_predict(clone(estimator), X, y, cv=folds)
    return float(np.mean(pred != y))


def check_lvw_run(lvw, X: np.ndarray, y: np.ndarray, accept: Callable | None = None,
                  n_recomputed: int = 2) -> int:
    """Replay Fig. 11.1 on the recorded candidates: the acceptance rule ``accept(E', d',
    E, d)`` (default the notes' line 9), the reset of t, the stop after exactly T
    consecutive rejections, the lexicographically non-increasing stored pair, the output
    (minimal error seen, ties to fewer features), and recorded errors recomputed by
    scikit-learn on the recorded fixed folds."""
    if accept is None:
        def accept(e_new, d_new, e, d):
            return e_new < e or (e_new == e and d_new < d)
    n_features = X.shape[1]
    E, d, best, t = math.inf, n_features, tuple(range(n_features)), 0
    T = lvw.patience
    tie_accepts = 0
    assert lvw.n_iter_ == len(lvw.candidate_subsets_) == lvw.candidate_errors_.shape[0]
    for k, (subset, e_new) in enumerate(zip(lvw.candidate_subsets_, lvw.candidate_errors_,
                                            strict=True)):
        assert t < T, f"iteration {k} ran although t = {t} >= T = {T}"
        take = accept(e_new, len(subset), E, d)
        assert bool(lvw.accepted_[k]) == take, f"iteration {k}: acceptance differs"
        if take:
            tie_accepts += bool(e_new == E)
            t, E, d, best = 0, e_new, len(subset), subset
        else:
            t += 1
        assert tuple(lvw.trace_[k]) == (E, d), f"iteration {k}: stored pair differs"
    assert t == T and lvw.converged_, f"stopped with t = {t}, T = {T}"
    pairs = [tuple(p) for p in lvw.trace_]
    assert all(a >= b for a, b in itertools.pairwise(pairs)), "stored (E, d) increased"
    errors = lvw.candidate_errors_
    e_min = errors.min()
    d_min = min(len(s) for s, e in zip(lvw.candidate_subsets_, errors, strict=True)
                if e == e_min)
    assert (lvw.error_, int(lvw.support_.sum())) == (e_min, d_min), "A* is not minimal"
    assert tuple(np.flatnonzero(lvw.support_)) == best
    n_accept = int(lvw.accepted_.sum())
    assert lvw.n_iter_ <= T * (n_accept + 1), "more iterations than T (acceptances + 1)"
    assert n_accept <= (X.shape[0] + 1) * n_features, "more acceptances than (E, d) pairs"
    learner = DecisionTreeClassifier(random_state=0) if lvw.estimator is None \
        else lvw.estimator
    chosen = [tuple(np.flatnonzero(lvw.support_))] + list(lvw.candidate_subsets_[:n_recomputed])
    for subset in chosen:
        ref = reference_cv_error(learner, X[:, list(subset)], y, lvw.folds_)
        recorded = lvw.error_ if subset == chosen[0] else \
            errors[lvw.candidate_subsets_.index(subset)]
        assert abs(ref - recorded) <= 1e-12, f"E({subset}) = {recorded}, sklearn {ref}"
    evidence.worst("iterations / (T (acceptances + 1))", lvw.n_iter_ / (T * (n_accept + 1)))
    return tie_accepts


class FastGaussianNB(ClassifierMixin, BaseEstimator):
    """Gaussian naive Bayes in a few numpy lines, for the LVW simulations.

    The same model as scikit-learn's ``GaussianNB`` (class priors from counts, per-class
    means and variances, variances smoothed by 1e-9 times the largest feature variance),
    without the input validation that costs milliseconds per call on this machine: LVW
    trains the learner hundreds of times per run. Its predictions are compared with
    ``GaussianNB``'s in tests/sparse/test_selection.py.
    """

    def fit(self, X, y):
        self.classes_ = np.unique(y)
        members = [y == c for c in self.classes_]
        self.theta_ = np.array([X[k].mean(axis=0) for k in members])
        smoothing = 1e-9 * float(np.var(X, axis=0).max())
        self.var_ = np.array([X[k].var(axis=0) for k in members]) + smoothing
        self.var_ = np.maximum(self.var_, np.finfo(float).tiny)
        self.log_prior_ = np.log(np.array([k.mean() for k in members]))
        return self

    def predict(self, X):
        joint = (self.log_prior_ - 0.5 * np.sum(np.log(2 * np.pi * self.var_), axis=1)
                 - 0.5 * np.sum((X[:, None, :] - self.theta_) ** 2 / self.var_, axis=2))
        return self.classes_[np.argmax(joint, axis=1)]


def check_backward_run(table: dict, d: int, tol: float, search: Callable) -> None:
    """A backward search starts from all features, each accepted step is the best
    one-feature removal and beats the current score by more than tol, and it stops exactly
    when the best removal does not (or one feature is left)."""
    result = search(CountingScore(table), d, direction="backward", tol=tol)
    sets = [s for s, _ in result.trace]
    values = [v for _, v in result.trace]
    assert sets[0] == tuple(range(d)), f"backward search started from {sets[0]}"
    for k in range(1, len(sets)):
        prev, cur = sets[k - 1], sets[k]
        assert len(cur) == len(prev) - 1 and set(cur) < set(prev), f"step {prev} -> {cur}"
        best = max(table[tuple(j for j in prev if j != r)] for r in prev)
        assert values[k] == best, f"step to {cur} is not the best removal from {prev}"
        assert values[k] > values[k - 1] + tol, f"step to {cur} does not improve"
    final = result.subset
    assert final == sets[-1] and result.score == values[-1]
    if len(final) > 1:
        best = max(table[tuple(j for j in final if j != r)] for r in final)
        assert not best > result.score + tol, (
            f"stopped at {final} ({result.score}) although a removal scores {best}")
    rounds = len(sets) - 1 + (len(final) > 1)  # the removal rounds, the rejected one too
    assert result.rounds == rounds, f"{result.rounds} rounds recorded, {rounds} run"


def check_bidirectional_run(table: dict, d: int, search: Callable) -> None:
    """The bidirectional search alternates a forward step (add the best feature of the
    backward set not yet in the forward set) and a backward step (remove the best feature
    not in the forward set); the forward set only grows, stays inside the backward set, the
    two meet after at most d forward steps, and the result is the best set visited (ties:
    fewer features, then the earlier)."""
    result = search(CountingScore(table), d, direction="bidirectional")
    trace = result.trace
    assert trace[0][0] == tuple(range(d))
    forward, backward = (), tuple(range(d))
    k = 1
    while forward != backward:
        free = [j for j in backward if j not in forward]
        cands = [tuple(sorted((*forward, j))) for j in free]
        scores = [table[c] for c in cands]
        forward = cands[int(np.argmax(scores))]
        assert trace[k] == (forward, max(scores)), f"forward step {k}: {trace[k]}"
        assert set(forward) <= set(backward)
        k += 1
        if forward == backward:
            break
        free = [j for j in backward if j not in forward]
        cands = [tuple(j for j in backward if j != r) for r in free]
        scores = [table[c] for c in cands]
        backward = cands[int(np.argmax(scores))]
        assert trace[k] == (backward, max(scores)), f"backward step {k}: {trace[k]}"
        k += 1
    assert k == len(trace), "the recorded trace continues after the sets met"
    assert result.rounds <= d
    best = min(range(len(trace)), key=lambda q: (-trace[q][1], len(trace[q][0]), q))
    assert (result.subset, result.score) == trace[best], "result is not the best visited"
