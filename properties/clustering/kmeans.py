"""k-means of 003 §7.4.1: the objective (7.16), Algorithm 1 as printed and corrected,
monotone descent and termination through the run the loop recorded, and scikit-learn's
Lloyd iteration from the same initial means as the reference.
"""

from __future__ import annotations

import numpy as np
from hypothesis import example, given
from hypothesis import strategies as st
from sklearn import cluster as skc
from sklearn import datasets

from algorithms.clustering import KMeans
from mltheory import ErratumKind, Expect, Method, claim, evidence
from mltheory.numeric import EXACT_ARITHMETIC, Tolerance, assert_close
from properties.clustering.strategies import clusterings, point_sets
from properties.clustering.support import (
    check_kmeans_trace,
    kmeans_objective,
    kmeans_trace,
    notes_kmeans_literal,
    silenced,
)

#: Lloyd from the same means in another implementation: the assignments agree exactly
#: on continuous data (no distance ties), the means then differ by summation order only.
SAME_LLOYD_RUN = Tolerance(
    rtol=1e-10, atol=1e-10,
    reason="identical partitions at every step; the means differ only by the order of "
    "float64 summation over up to 1797 samples (~1e-13 relative)")


#: Three equal samples among seven, k = 6: two means end on the repeated point, one the
#: mean of the three copies (off by an ulp), one a copy; with ties broken by rounding, the
#: copies changed cluster and an empty cluster was refilled for ever (a fixed bug).
TWO_EQUAL_MEANS = np.array([
    [-9.167895283390685, -1.0321280629983969, -4.254633447243782, -1.9489402605888242],
    [0.27405797153990363, -0.41832189143018284, 2.0568815100037603, 0.3150126811763023],
    [-9.167895283390685, -1.0321280629983969, -4.254633447243782, -1.9489402605888242],
    [0.17600657966440347, -0.5932262700115922, 2.953678336803793, 1.1663160412225393],
    [-0.12661188167848691, 0.22854243420432374, 3.2346283136642806, 0.8102561689623726],
    [-9.167895283390685, -1.0321280629983969, -4.254633447243782, -1.9489402605888242],
    [-1.914123508294908, -4.404134001817025, -2.314407644819931, -0.4388553987521113]])


def _initial_means(X: np.ndarray, k: int, seed: int, kind: str) -> np.ndarray:
    """``k`` means: distinct random samples (line 2), or all on duplicated samples."""
    rng = np.random.default_rng(seed)
    if kind == "duplicated":
        return X[np.full(k, rng.integers(X.shape[0]))]
    return X[rng.choice(X.shape[0], size=k, replace=False)]


@claim(
    id="kmeans.objective_7_16",
    source="003 §7.4.1 (7.16)",
    statement="For any partition and any vectors mu_i, sum_i sum_{x in C_i} ||x - mu_i||^2 "
    "= E (7.16, at the cluster means) + sum_i |C_i| ||mu_i - mean(C_i)||^2, so the cluster "
    "mean minimises each cluster's squared error and E is the least value.",
    method=Method.PROPERTY,
    tags=("clustering", "kmeans"),
)
@given(case=clusterings(), seed=st.integers(0, 2**32 - 1))
def objective_7_16(case, seed):
    check_mean_identity(*case, seed)


def check_mean_identity(X, labels, seed, weight=np.bincount) -> None:
    """E(mu) = E(means) + sum_i weight_i ||mu_i - mean_i||^2 with ``weight`` the cluster
    sizes, and E(means) <= E(mu)."""
    labels = np.unique(labels, return_inverse=True)[1].reshape(-1)
    k = int(labels.max()) + 1
    means = np.array([X[labels == c].mean(axis=0) for c in range(k)])
    mu = means + np.random.default_rng(seed).normal(size=means.shape) * np.std(X) * 0.1
    sizes = weight(labels)
    E = kmeans_objective(X, labels, means)
    shifted = kmeans_objective(X, labels, mu)
    scale = max(1.0, float(np.sum(X**2)))
    assert_close(shifted, E + float(np.sum(sizes * np.sum((mu - means) ** 2, axis=1))),
                 EXACT_ARITHMETIC, scale=scale, label="|E(mu) - E - sum |C| ||mu - mean||^2|")
    assert E <= shifted + 1e-12 * scale


@claim(
    id="kmeans.line8_as_written",
    source="003 §7.4.1 Alg.1",
    statement="(As printed) Algorithm 1, whose line 8 reads C_{lambda_j} = C_{lambda_j}, "
    "returns a partition C_1..C_k of D: every sample ends in exactly one cluster and every "
    "mean is finite.",
    method=Method.PROPERTY,
    tags=("clustering", "kmeans", "erratum"),
    expect=Expect.REFUTED,
    kind=ErratumKind.CODE,
    corrected_by="kmeans.monotone_termination",
    explanation="Code bug in the pseudo-code: line 8 must be C_{lambda_j} = C_{lambda_j} "
    "∪ {x_j}; as printed no sample ever enters a cluster, every C_i stays empty and line "
    "11 divides by |C_i| = 0.",
)
@given(X=point_sets(min_size=3), k=st.integers(1, 3), seed=st.integers(0, 2**32 - 1))
def line8_as_written(X, k, seed):
    k = min(k, X.shape[0])
    clusters, means = notes_kmeans_literal(X, _initial_means(X, k, seed, "random"))
    assert sorted(j for C in clusters for j in C) == list(range(X.shape[0])), (
        f"clusters {clusters} do not cover the {X.shape[0]} samples")
    assert np.all(np.isfinite(means)), f"means {means.tolist()}"


@claim(
    id="kmeans.empty_cluster_as_written",
    source="003 §7.4.1 Alg.1",
    statement="(As printed, line 8 repaired) starting from k samples of D as means (line "
    "2), no cluster is ever empty when line 11 computes its mean.",
    method=Method.PROPERTY,
    tags=("clustering", "kmeans", "erratum"),
    expect=Expect.REFUTED,
    kind=ErratumKind.CODE,
    corrected_by="kmeans.monotone_termination",
    explanation="Pseudo-code run literally: it has no rule for an empty cluster. Two "
    "initial means on equal samples (D may repeat a "
    "point), or a mean left without nearest samples, leave a cluster empty, and line 11 "
    "divides by |C_i| = 0; the algorithm needs a rule for empty clusters.",
)
@given(X=point_sets(min_size=3, kinds=("grid",)), k=st.integers(2, 4),
       seed=st.integers(0, 2**32 - 1))
@example(X=np.array([[0.0], [0.0], [1.0]]), k=2, seed=0)
def empty_cluster_as_written(X, k, seed):
    k = min(k, X.shape[0])
    rng = np.random.default_rng(seed)
    order = np.argsort(X[:, 0], kind="stable") if seed == 0 else rng.permutation(X.shape[0])
    est = silenced(KMeans(k, init=X[order[:k]], empty_cluster="keep", keep_history=True).fit, X)
    for step, labels in enumerate(est.labels_history_[0::2]):
        filled = np.unique(labels).shape[0]
        assert filled == k, f"assignment step {step + 1}: only {filled} of {k} clusters filled"


@claim(
    id="kmeans.monotone_termination",
    source="003 §7.4.1 Alg.1; 003 §7.4.1 (7.16)",
    statement="With x_j added to its cluster (line 8) and empty clusters handled (the mean "
    "moved to the sample farthest from its mean, or kept), neither an assignment step nor "
    "an update step increases E (7.16), no update step empties a cluster its assignment "
    "step filled (line 11 needs |C_i| > 0), no partition repeats, and the loop stops by itself "
    "(no mean changes) at a fixed point: every sample is nearest to its mean and every mean "
    "is its cluster's mean. Checked on the objective the loop recorded after every step, "
    "recomputed from the recorded partitions and means. With the relocation rule and at "
    "least k distinct samples the output is a partition into k non-empty clusters (Alg.1's "
    "Out); the reported number of relocated samples is the number the update steps moved.",
    method=Method.PROPERTY,
    tags=("clustering", "kmeans", "monotone"),
)
@given(X=point_sets(min_size=2, max_size=40), k=st.integers(1, 6),
       init=st.sampled_from(["random", "k-means++", "duplicated"]),
       rule=st.sampled_from(["relocate", "keep"]), seed=st.integers(0, 2**32 - 1))
@example(X=TWO_EQUAL_MEANS, k=6, init="random", rule="relocate", seed=0)
@example(X=np.array([[0.0], [1.0], [5.0]]), k=3, init=np.array([[0.5], [0.5], [5.0]]),
         rule="relocate", seed=0)  # the empty cluster's only donor has two samples
@example(X=np.array([[0.0], [1.0], [2.0], [100.0]]), k=3,
         init=np.array([[1.0], [60.0], [1000.0]]), rule="relocate",
         seed=0)  # the farthest sample is alone in its cluster (its mean 60 is stale)
def monotone_termination(X, k, init, rule, seed):
    k = min(k, X.shape[0])
    if isinstance(init, np.ndarray):  # pinned initial means
        start = init
    else:
        start = _initial_means(X, k, seed, init) if init != "k-means++" else "k-means++"
    est = silenced(KMeans(k, init=start, empty_cluster=rule, keep_history=True,
                          max_iter=1000, random_state=seed).fit, X)
    check_kmeans_trace(kmeans_trace(est, X))
    check_relocation_count(est)
    if rule == "relocate" and np.unique(X, axis=0).shape[0] >= k:
        sizes = np.bincount(est.labels_, minlength=k)
        assert np.all(sizes > 0), f"relocation left clusters empty: sizes {sizes.tolist()}"
    evidence.worst("iterations to stop", est.n_iter_)
    evidence.worst("samples moved into empty clusters", est.n_relocated_)


def check_relocation_count(est) -> None:
    """``n_relocated_`` is the number of samples the recorded update steps moved (only a
    rule for empty clusters moves samples there)."""
    hist = est.labels_history_
    moved = int(np.sum(hist[0:-1:2] != hist[1::2]))
    assert est.n_relocated_ == moved, (
        f"n_relocated_ = {est.n_relocated_}, but the update steps moved {moved} samples")


#: The real data are measured on grids (digits: integer pixels), so many sample-to-mean
#: distances tie exactly and each library breaks the ties by its own rounding; a jitter of
#: 1e-9 of each feature's spread makes the ties strict without moving anything else.
JITTER = 1e-9


def _continuous_cases(seed: int):
    rng = np.random.default_rng(seed)
    for name, loader in (("iris", datasets.load_iris), ("wine", datasets.load_wine),
                         ("digits", datasets.load_digits)):
        X = loader(return_X_y=True)[0]
        X = X + JITTER * X.std(axis=0) * rng.standard_normal(X.shape)
        yield name, X, 3 if name != "digits" else 10
    for n, d, k in ((300, 2, 5), (500, 10, 8)):
        C = rng.normal(scale=3.0, size=(k, d))
        yield f"blobs n={n} d={d}", C[rng.integers(k, size=n)] + rng.normal(size=(n, d)), k


@claim(
    id="kmeans.reference",
    source="003 §7.4.1 Alg.1",
    statement="From the same initial means, Algorithm 1 gives the partition, the means, E "
    "and the number of rounds of scikit-learn's KMeans(init=means, n_init=1, "
    "algorithm='lloyd', tol=0) on iris, wine, digits (jittered by 1e-9 of each feature's "
    "spread to break exact distance ties) and Gaussian blobs; new samples go to the same "
    "nearest mean (predict).",
    method=Method.REFERENCE,
    tags=("clustering", "kmeans", "real-data"),
)
def reference(rng, scale):
    for name, X, k in _continuous_cases(int(rng.integers(2**31))):
        for _ in range(2 * scale):
            C0 = _initial_means(X, k, int(rng.integers(2**31)), "random")
            ours = KMeans(k, init=C0).fit(X)
            theirs = skc.KMeans(k, init=C0, n_init=1, algorithm="lloyd", tol=0.0).fit(X)
            if ours.n_relocated_:
                evidence.note(f"{name}: a run with an empty cluster skipped (the two "
                              "libraries relocate differently)")
                continue
            assert np.array_equal(ours.labels_, theirs.labels_), f"{name}: partitions differ"
            assert ours.n_iter_ == theirs.n_iter_, (name, ours.n_iter_, theirs.n_iter_)
            size = float(np.max(np.abs(X)))
            assert_close(ours.cluster_centers_, theirs.cluster_centers_, SAME_LLOYD_RUN,
                         scale=size, label="|means - sklearn| / max|x|")
            assert_close(ours.inertia_, theirs.inertia_, SAME_LLOYD_RUN,
                         label="|E - sklearn inertia|")
            Z = X[::-1] + 0.5 * X.std(axis=0) * rng.standard_normal(X.shape)
            assert np.array_equal(ours.predict(Z), theirs.predict(Z)), f"{name}: predict"
            evidence.add_examples()
