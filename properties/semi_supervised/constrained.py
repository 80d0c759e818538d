"""Semi-supervised clustering, 003 §11.6: constrained k-means (Fig. 13.7) and
constrained seed k-means (Fig. 13.9), checked by replaying every recorded pass with
code written here, by brute force over all partitions of small sets, and against
scikit-learn's ``KMeans``.

One sentence of the section is misprinted and declared as printed: it names the two
kinds of supervision "must-link" (first) and "cannot-link" (second), says constrained
k-means uses the first and constrained seed k-means the second. Fig. 13.7 uses both
kinds of pairs, and Fig. 13.9 uses neither: its supervision is a few labelled samples
(Zhou 2016, §13.6, names the kinds as pairwise constraints and labelled samples).
"""

from __future__ import annotations

import itertools
import warnings

import numpy as np
from hypothesis import assume, example, given
from hypothesis import strategies as st
from sklearn.cluster import KMeans as SkKMeans
from sklearn.exceptions import ConvergenceWarning

from algorithms.semi_supervised import (
    ConstrainedKMeans,
    ConstrainedSeedKMeans,
    InfeasibleConstraintsError,
)
from mltheory import ErratumKind, Expect, Method, claim, evidence
from mltheory.numeric import EXACT_ARITHMETIC, Tolerance, assert_close
from properties.semi_supervised.strategies import constrained_problems

# ---------------------------------------------------------------------------
# Independent pieces
# ---------------------------------------------------------------------------


def violates(labels: np.ndarray, must: np.ndarray, cannot: np.ndarray) -> bool:
    return bool(any(labels[a] != labels[b] for a, b in must)
                or any(labels[a] == labels[b] for a, b in cannot))


def feasible_by_brute_force(m: int, k: int, must: np.ndarray, cannot: np.ndarray) -> bool:
    """Some assignment of m samples to k clusters meets every pair."""
    return any(not violates(np.array(lab), must, cannot)
               for lab in itertools.product(range(k), repeat=m))


def greedy_pass(X: np.ndarray, means: np.ndarray, must: np.ndarray,
                cannot: np.ndarray) -> np.ndarray | None:
    """Steps 3-21 of Fig. 13.7, sample by sample: the nearest cluster whose choice breaks
    no pair with an already placed sample; None when every cluster is ruled out."""
    labels = np.full(X.shape[0], -1)
    for i, x in enumerate(X):
        d = [float(np.sum((x - mu) ** 2)) for mu in means]
        K = list(range(means.shape[0]))
        while K:
            r = min(K, key=lambda j: (d[j], j))
            bad = any((a == i and labels[b] >= 0 and labels[b] != r)
                      or (b == i and labels[a] >= 0 and labels[a] != r) for a, b in must)
            bad = bad or any((a == i and labels[b] == r) or (b == i and labels[a] == r)
                             for a, b in cannot)
            if not bad:
                labels[i] = r
                break
            K.remove(r)
        else:
            return None
    return labels


def cluster_means(X: np.ndarray, labels: np.ndarray, old: np.ndarray) -> np.ndarray:
    means = old.copy()
    for j in range(old.shape[0]):
        if np.any(labels == j):
            means[j] = X[labels == j].mean(axis=0)
    return means


#: Means recomputed here by a per-cluster mean, in the library by sums over bincounts.
MEAN_AGREEMENT = Tolerance(1e-12, 1e-12, "the same means summed in a different order")


# ---------------------------------------------------------------------------
# Fig. 13.7
# ---------------------------------------------------------------------------


def check_constrained(X, k, must, cannot, init) -> None:
    """Either every pass of the run replays as Fig. 13.7 and the result meets every
    pair, or the run reports failure and the replayed run fails in some pass too (not
    necessarily the first: a later pass, from moved means, can corner itself); when
    brute force finds no feasible partition the run must report failure."""
    est = ConstrainedKMeans(k, init=init, max_iter=100)
    feasible = feasible_by_brute_force(X.shape[0], k, must, cannot)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ConvergenceWarning)
            est.fit(X, must_link=must, cannot_link=cannot)
    except InfeasibleConstraintsError:
        evidence.worst("pairs in a run reporting failure", len(must) + len(cannot))
        means = init                        # the replay must fail in some pass too
        for t in range(100):
            labels = greedy_pass(X, means, must, cannot)
            if labels is None:
                evidence.worst("pass at which a failing run failed", t + 1)
                return
            new = cluster_means(X, labels, means)
            assert not np.allclose(new, means, rtol=0.0, atol=1e-12), (
                f"reported failure, but the replayed run converges after {t + 1} passes")
            means = new
        raise AssertionError("reported failure, but the replayed run runs 100 passes") from None
    assert feasible, "a partition meeting every pair was returned for infeasible pairs"
    evidence.worst("pairs met by a returned partition", len(must) + len(cannot))
    assert not violates(est.labels_, must, cannot), "the result breaks a constraint"
    means = init
    for t in range(est.n_iter_):
        labels = greedy_pass(X, means, must, cannot)
        assert labels is not None, f"pass {t + 1}: the replayed pass fails"
        means = cluster_means(X, labels, means)
        assert_close(est.means_history_[t + 1], means, MEAN_AGREEMENT, scale=1.0,
                     context=f"pass {t + 1}: ", label="recorded means vs replay")
    assert np.array_equal(greedy_pass(X, est.means_history_[-2], must, cannot), est.labels_)
    if est.converged_:
        assert np.array_equal(est.means_history_[-1], est.means_history_[-2])


@claim(
    id="cop.respects_constraints",
    source="003 §11.6 Fig. 13.7",
    statement="Constrained k-means puts each sample, in turn, into the nearest cluster that "
    "violates no must-link or cannot-link pair with the samples already placed, and stops "
    "with an error when no cluster is left (in whichever pass that happens): every "
    "partition it returns meets all pairs, and on pairs no partition can meet it reports "
    "the error.",
    method=Method.ENUMERATION,
    tags=("semi_supervised", "clustering", "constraints"),
)
@given(problem=constrained_problems())
def respects_constraints(problem):
    X, k, must, cannot, init = problem
    check_constrained(X, k, must, cannot, init)


def check_reduces_to_kmeans(X, k, init) -> bool:
    """Compares with Lloyd's k-means; False (nothing compared) when a cluster emptied,
    where scikit-learn relocates the mean and the notes keep it, or when some pass had a
    sample (nearly) equidistant from two means."""
    est = ConstrainedKMeans(k, init=init, max_iter=300).fit(X)
    counts = np.bincount(est.labels_, minlength=k)
    if not np.all(counts > 0):
        return False
    for means in est.means_history_[:-1]:   # a near-tie is broken by index here and by
        d = np.sort(((X[:, None, :] - means[None]) ** 2).sum(axis=2), axis=1)  # rounding
        if np.any(d[:, 1] - d[:, 0] <= 1e-9 * (1.0 + d[:, 1])):          # in sklearn
            return False
    ref = SkKMeans(k, init=init, n_init=1, algorithm="lloyd", tol=0.0,
                   max_iter=300).fit(X)
    assert np.array_equal(est.labels_, ref.labels_), "partition differs from Lloyd's"
    assert_close(est.cluster_centers_, ref.cluster_centers_, Tolerance(
        1e-10, 1e-10, "means summed in different orders"), scale=1.0,
        label="centres vs scikit-learn KMeans")
    return True


@claim(
    id="cop.reduces_to_kmeans",
    source="003 §11.6 Fig. 13.7; 003 §7.3 (k-means)",
    statement="Without must-link and cannot-link pairs, constrained k-means is k-means: "
    "from the same initial means it returns the partition and means of Lloyd's k-means.",
    method=Method.REFERENCE,
    tags=("semi_supervised", "clustering"),
)
@given(problem=constrained_problems(max_pairs=0))
def reduces_to_kmeans(problem):
    X, k, _, _, init = problem
    assume(check_reduces_to_kmeans(X, k, init))


#: Fig. 13.7 on three points: x0 and x1 far apart seed the two means, x2 cannot be with
#: either; {x0, x1}, {x2} meets both pairs, but the pass has put x0 and x1 apart.
CORNER_X = np.array([[0.0, 0.0], [10.0, 0.0], [5.0, 1.0]])
CORNER_CANNOT = np.array([[0, 2], [1, 2]])


def check_failure_is_not_infeasibility() -> None:
    assert feasible_by_brute_force(3, 2, np.empty((0, 2), int), CORNER_CANNOT)
    try:
        ConstrainedKMeans(2, init=CORNER_X[:2]).fit(CORNER_X, cannot_link=CORNER_CANNOT)
    except InfeasibleConstraintsError as exc:
        evidence.note(f"reported: {exc}")
        return
    raise AssertionError("the greedy pass placed every sample of the cornered instance")


@claim(
    id="cop.failure_not_infeasibility",
    source="003 §11.6 Fig. 13.7 (steps 16-17)",
    statement="The error of step 17 is a property of the greedy pass, not a proof that the "
    "constraints cannot be met: on three points with two cannot-link pairs, a partition "
    "meeting both exists, yet the pass, having placed the first two points apart, finds "
    "no cluster for the third.",
    method=Method.ENUMERATION,
    tags=("semi_supervised", "clustering", "constraints"),
)
def failure_not_infeasibility(rng, scale):
    check_failure_is_not_infeasibility()


# ---------------------------------------------------------------------------
# Which supervision drives which algorithm
# ---------------------------------------------------------------------------


def check_must_link_only(X, k, cannot, init) -> None:
    """As printed: constrained k-means uses must-link information only, so its result
    cannot change when cannot-link pairs are added."""
    without = ConstrainedKMeans(k, init=init, max_iter=100)
    with_c = ConstrainedKMeans(k, init=init, max_iter=100)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        a = without.fit(X).labels_
        try:
            b = with_c.fit(X, cannot_link=cannot).labels_
        except InfeasibleConstraintsError:
            raise AssertionError("adding cannot-link pairs made the run fail") from None
    assert np.array_equal(a, b), f"the cannot-link pairs {cannot.tolist()} changed {a} to {b}"


@claim(
    id="semi.supervision_types_as_written",
    source="003 §11.6",
    statement="(As printed) The two kinds of supervision in clustering are must-link "
    "(first) and cannot-link (second) constraints; constrained k-means (Fig. 13.7) is the "
    "algorithm of the first kind and constrained seed k-means (Fig. 13.9) that of the "
    "second.",
    method=Method.PROPERTY,
    tags=("semi_supervised", "clustering", "erratum"),
    expect=Expect.REFUTED,
    kind=ErratumKind.SYMBOL,
    corrected_by="semi.supervision_types",
    explanation="The kinds are pairwise constraints (must-link and cannot-link together) "
    "and a few labelled samples. Fig. 13.7 checks both kinds of pairs, so cannot-link "
    "pairs change its result; Fig. 13.9 takes no pairs at all but labelled seeds.",
)
@given(problem=constrained_problems(min_pairs=1))
@example(problem=(np.array([[0.0, 0.0], [1.0, 0.0], [5.0, 0.0]]), 2,
                  np.empty((0, 2), np.intp), np.array([[0, 1]]),
                  np.array([[0.0, 0.0], [5.0, 0.0]])))
def supervision_types_as_written(problem):
    X, k, _, cannot, init = problem
    assume(cannot.shape[0] > 0)
    check_must_link_only(X, k, cannot, init)


def check_supervision_types(X, k, init, seed: int) -> None:
    """Cannot-link and must-link pairs each steer Fig. 13.7 (a pair placed together by the
    unconstrained run is separated by a cannot-link; a pair placed apart is joined by a
    must-link); Fig. 13.9 starts from the seeds' class means and keeps every seed."""
    base = ConstrainedKMeans(k, init=init, max_iter=100).fit(X).labels_
    together = [(a, b) for a in range(len(X)) for b in range(a + 1, len(X))
                if base[a] == base[b]]
    apart = [(a, b) for a in range(len(X)) for b in range(a + 1, len(X))
             if base[a] != base[b]]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        for pair, key in ((together[:1], "cannot_link"), (apart[:1], "must_link")):
            if not pair:
                continue
            try:
                labels = ConstrainedKMeans(k, init=init, max_iter=100).fit(
                    X, **{key: np.array(pair)}).labels_
            except InfeasibleConstraintsError:
                continue
            a, b = pair[0]
            assert (labels[a] == labels[b]) == (key == "must_link"), f"{key} ignored"
            evidence.worst(f"{key} pairs that changed the partition", 1)
    rng = np.random.default_rng(seed)
    y = np.full(len(X), -1)
    seeds = rng.permutation(len(X))[:k]
    y[seeds] = np.arange(k)
    est = ConstrainedSeedKMeans(max_iter=100).fit(X, y)
    assert np.array_equal(est.means_history_[0], X[seeds][np.argsort(y[seeds])]), (
        "the initial means are not the seeds' class means")
    assert np.array_equal(est.labels_[seeds], y[seeds]), "a seed left its cluster"


@claim(
    id="semi.supervision_types",
    source="003 §11.6; Zhou 2016, Machine Learning, §13.6",
    statement="Constrained k-means (Fig. 13.7) uses both kinds of pairwise constraints: a "
    "cannot-link pair separates two samples its unconstrained run put together and a "
    "must-link pair joins two it put apart. Constrained seed k-means (Fig. 13.9) uses the "
    "other kind of supervision, labelled samples: its means start at the seeds' class "
    "means and every seed stays in its class's cluster.",
    method=Method.PROPERTY,
    tags=("semi_supervised", "clustering"),
)
@given(problem=constrained_problems(max_pairs=0), seed=st.integers(0, 2**16))
def supervision_types(problem, seed):
    X, k, _, _, init = problem
    check_supervision_types(X, k, init, seed)


# ---------------------------------------------------------------------------
# Fig. 13.9
# ---------------------------------------------------------------------------


def check_seed_kmeans(X: np.ndarray, y: np.ndarray) -> None:
    """Every pass replays as Fig. 13.9 (seeds fixed, other samples to the nearest mean,
    means recomputed), the recorded sum of squared distances never rises, and predict
    gives the label of the nearest final mean."""
    est = ConstrainedSeedKMeans(max_iter=200).fit(X, y)
    k = est.classes_.shape[0]
    codes = np.searchsorted(est.classes_, y)
    seeds = y != -1
    means = np.array([X[seeds & (codes == j)].mean(axis=0) for j in range(k)])
    assert_close(est.means_history_[0], means, MEAN_AGREEMENT, scale=1.0,
                 label="initial means vs seed means")
    for t in range(est.n_iter_):
        labels = np.where(seeds, codes, -1)
        for i in np.flatnonzero(~seeds):
            labels[i] = int(np.argmin([np.sum((X[i] - mu) ** 2) for mu in means]))
        J = float(sum(np.sum((X[i] - means[labels[i]]) ** 2) for i in range(len(X))))
        assert_close(est.objective_history_[t], J, EXACT_ARITHMETIC, scale=max(1.0, J),
                     label="recorded objective vs replay")
        means = cluster_means(X, labels, means)
        assert_close(est.means_history_[t + 1], means, MEAN_AGREEMENT, scale=1.0,
                     label="recorded means vs replay")
    nearest = np.argmin(((X[:, None, :] - est.cluster_centers_[None]) ** 2).sum(axis=2), axis=1)
    assert np.array_equal(est.predict(X), est.classes_[nearest]), "predict is not the nearest mean"
    rises = np.diff(est.objective_history_)
    top = float(np.max(rises, initial=0.0))
    evidence.worst("largest rise of the objective between passes", top)
    assert top <= 1e-12 * max(1.0, float(est.objective_history_[0])), f"objective rose by {top}"
    assert est.converged_, "did not converge within 200 passes"


@claim(
    id="seed.kmeans_fig_13_9",
    source="003 §11.6 Fig. 13.9",
    statement="Constrained seed k-means starts from the means of the labelled seeds, keeps "
    "every seed in its cluster, sends each other sample to the nearest mean and "
    "recomputes the means until none changes; the sum of squared distances never rises, "
    "so it terminates.",
    method=Method.PROPERTY,
    tags=("semi_supervised", "clustering"),
)
@given(problem=constrained_problems(max_pairs=0), seed=st.integers(0, 2**16),
       n_seeds=st.integers(1, 3))
def seed_kmeans_fig_13_9(problem, seed, n_seeds):
    X, k, _, _, _ = problem
    rng = np.random.default_rng(seed)
    y = np.full(len(X), -1)
    chosen = rng.permutation(len(X))[: min(len(X), k * n_seeds)]
    y[chosen] = np.arange(chosen.size) % k
    check_seed_kmeans(X, y)
