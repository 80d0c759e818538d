"""Cluster validity indices of 003 §7.2: pair counts (7.1), JC/FMI/RI (7.2)-(7.4), the
cluster statistics (7.5)-(7.8) and the DB and Dunn indices (7.9)-(7.10).

References: every pair visited by a loop (counts and statistics), scikit-learn's
``rand_score``, ``fowlkes_mallows_score``, ``pair_confusion_matrix`` and
``davies_bouldin_score`` (which uses another scatter than the notes, so the notes' DBI is
checked against a direct implementation of (7.9) instead), and the real data sets iris,
wine and digits against their true labels.
"""

from __future__ import annotations

import math

import numpy as np
from hypothesis import example, given
from hypothesis import strategies as st
from scipy.spatial.distance import pdist, squareform
from sklearn import datasets, metrics

from algorithms.clustering import (
    AGNES,
    GaussianMixtureClustering,
    KMeans,
    cluster_geometry,
    davies_bouldin_index,
    dunn_index,
    external_indices,
    pair_counts,
)
from mltheory import ErratumKind, Expect, Method, claim, evidence
from mltheory.numeric import (
    EXACT_ARITHMETIC,
    LINEAR_ALGEBRA,
    assert_close,
    assert_leq,
)
from properties.clustering.strategies import clusterings, labellings
from properties.clustering.support import (
    brute_geometry,
    brute_pair_counts,
    notes_dbi,
    notes_di,
    same_partition,
    silenced,
)

#: scikit-learn computes Euclidean distances as sqrt(||x||^2 - 2 x.y + ||y||^2): a distance
#: that should be 0 (a one-sample cluster to its centroid) comes out as large as
#: sqrt(1e-16) ||x|| = 1e-8 ||x||, which moves DBI by that much over the smallest centre
#: distance (x 10 of room).
SKLEARN_EXPANDED_DISTANCES = 1e-7

# ---------------------------------------------------------------------------
# External indices (7.1)-(7.4)
# ---------------------------------------------------------------------------


@claim(
    id="clu.pair_count_sum_7_1",
    source="003 §7.2 (7.1)",
    statement="The pair counts a = |SS|, b = |SD|, c = |DS|, d = |DD| over the pairs i < j "
    "sum to m(m-1)/2; the contingency-table counts equal the counts of a loop over all "
    "pairs.",
    method=Method.ENUMERATION,
    tags=("clustering", "indices"),
)
@given(pair=labellings())
def pair_count_sum_7_1(pair):
    check_pair_counts(*pair)


def check_pair_counts(lam, ref, counts=pair_counts) -> None:
    """``counts`` equals the loop over pairs, and the four counts sum to m(m-1)/2."""
    n = counts(lam, ref)
    assert (n.a, n.b, n.c, n.d) == brute_pair_counts(lam.tolist(), ref.tolist()), (lam, ref)
    assert n.a + n.b + n.c + n.d == len(lam) * (len(lam) - 1) // 2


def printed_indices(lam, ref) -> tuple[float, float, float]:
    """(7.2)-(7.4) exactly as printed, from the pair counts of a loop (0/0 raises)."""
    a, b, c, d = brute_pair_counts(lam.tolist(), ref.tolist())
    m = len(lam)
    try:
        return (a / (a + b + c), math.sqrt(a / (a + b) * a / (a + c)),
                2 * (a + d) / (m * (m - 1)))
    except ZeroDivisionError as exc:
        raise AssertionError(f"(7.2)-(7.4) divide 0 by 0 for lambda={lam.tolist()}, "
                             f"lambda*={ref.tolist()} (a, b, c, d = {a, b, c, d})") from exc


@claim(
    id="clu.external_range_as_written",
    source="003 §7.2 (7.2)-(7.4)",
    statement="(As printed) JC, FMI and RI, as given by (7.2)-(7.4), lie in [0, 1] for "
    "every clustering and reference.",
    method=Method.ENUMERATION,
    tags=("clustering", "indices", "erratum"),
    expect=Expect.REFUTED,
    kind=ErratumKind.MISSING_CONDITION,
    corrected_by="clu.external_range_7_2_7_4",
    explanation="Missing condition: the three ratios are undefined (0/0) when a+b+c = 0 "
    "(both partitions put every sample alone: JC), a+b = 0 or a+c = 0 (one of them does: "
    "FMI) or m < 2 (RI); e.g. two samples in singletons under both labellings.",
)
@given(pair=labellings())
@example(pair=(np.array([0, 1]), np.array([0, 1])))
def external_range_as_written(pair):
    for value in printed_indices(*pair):
        assert 0.0 <= value <= 1.0


@claim(
    id="clu.external_range_7_2_7_4",
    source="003 §7.2 (7.2)-(7.4)",
    statement="With the value 1 of coinciding partitions where a denominator vanishes "
    "(FMI = 0 if only one of a+b, a+c vanishes), JC, FMI and RI lie in [0, 1], equal the "
    "printed ratios wherever those are defined, equal 1 exactly when the two partitions "
    "coincide up to renaming (larger is better), and do not change when either labelling "
    "is renamed; RI and FMI equal scikit-learn's rand_score and fowlkes_mallows_score "
    "(which returns 0 instead of 1 when both partitions are all singletons).",
    method=Method.REFERENCE,
    tags=("clustering", "indices"),
)
@given(pair=labellings(), data=st.data())
def external_range_7_2_7_4(pair, data):
    check_external_indices(*pair, data)
    # one partition all singletons, the other not: a + b = 0 (or a + c = 0) alone
    singletons, grouped = np.arange(4), np.array([0, 0, 1, 1])
    for lam, ref in ((singletons, grouped), (grouped, singletons)):
        idx = external_indices(lam, ref)
        assert idx.fmi == 0.0 == metrics.fowlkes_mallows_score(ref, lam), (lam, ref, idx)


def check_external_indices(lam, ref, data, indices=external_indices) -> None:
    """Range, agreement with the printed ratios, '= 1 iff same partition', renaming
    invariance and scikit-learn's RI/FMI for the index function ``indices``."""
    idx = indices(lam, ref)
    values = (idx.jc, idx.fmi, idx.ri)
    for v in values:
        assert 0.0 <= v <= 1.0, (lam, ref, values)
    try:
        assert_close(values, printed_indices(lam, ref), EXACT_ARITHMETIC,
                     label="|index - printed ratio|")
    except AssertionError as exc:
        if "divide 0 by 0" not in str(exc):
            raise
    same = same_partition(lam, ref)
    for name, v in zip(("JC", "FMI", "RI"), values, strict=True):
        assert (v == 1.0) == same, f"{name} = {v} but partitions coincide: {same}"
    rename = np.array(data.draw(st.permutations(range(int(lam.max()) + 1))))
    again = indices(rename[lam] + 100, ref)
    assert (again.jc, again.fmi, again.ri) == values
    assert_close(idx.ri, metrics.rand_score(ref, lam), EXACT_ARITHMETIC, label="|RI - sklearn|")
    c = idx.counts
    sk_fmi = metrics.fowlkes_mallows_score(ref, lam)
    if c.a + c.b == 0 and c.a + c.c == 0:
        assert sk_fmi == 0.0 and idx.fmi == 1.0
        evidence.note("no pair together in either partition (all singletons, or m = 1): "
                      "FMI = 1 here, scikit-learn returns 0")
    else:
        assert_close(idx.fmi, sk_fmi, EXACT_ARITHMETIC, label="|FMI - sklearn|")


# ---------------------------------------------------------------------------
# Internal statistics (7.5)-(7.8)
# ---------------------------------------------------------------------------


@claim(
    id="clu.internal_defs_7_5_7_8",
    source="003 §7.2 (7.5)-(7.8)",
    statement="avg(C) (mean distance over the pairs of C; 0 for a one-sample cluster), "
    "diam(C) (largest such distance), d_min(C_i, C_j) (closest cross pair) and "
    "d_cen(C_i, C_j) = dist(mu_i, mu_j) agree with their definitions under every "
    "Minkowski distance p >= 1; avg(C) <= diam(C), and d_cen(C_i, C_j) is at most the mean "
    "distance over the cross pairs (convexity of a norm).",
    method=Method.PROPERTY,
    tags=("clustering", "indices"),
)
@given(case=clusterings(), p=st.sampled_from([1.0, 2.0, 3.0]))
def internal_defs_7_5_7_8(case, p):
    check_geometry(*case, p)


def check_geometry(X, labels, p, geometry=cluster_geometry) -> None:
    """``geometry`` against the definitions (7.5)-(7.8); avg <= diam; d_cen <= mean cross
    distance."""
    geo = geometry(X, labels, p=p)
    ref = brute_geometry(X, labels, p)
    scale = max(1.0, float(np.max(np.abs(X))))
    for name in ("avg", "diam", "d_min", "d_cen"):
        assert_close(getattr(geo, name), getattr(ref, name), LINEAR_ALGEBRA, scale=scale,
                     label=f"|{name} - definition| / scale")
    for i in range(geo.k):
        if geo.diam[i] > 0:
            assert_leq(geo.avg[i], geo.diam[i], label="avg(C) / diam(C)", tol=LINEAR_ALGEBRA)
    groups = [X[labels == c] for c in geo.labels]
    for i in range(geo.k):
        for j in range(i + 1, geo.k):
            cross = np.sum(np.abs(groups[i][:, None] - groups[j][None]) ** p, -1) ** (1 / p)
            if cross.mean() > 0:
                assert_leq(geo.d_cen[i, j], float(cross.mean()), tol=LINEAR_ALGEBRA,
                           label="d_cen / mean cross distance")


@claim(
    id="clu.avg_singleton_as_written",
    source="003 §7.2 (7.5)-(7.6)",
    statement="(As printed) avg(C) = 2/(|C|(|C|-1)) sum_{i<j} dist(x_i, x_j) and "
    "diam(C) = max_{i<j} dist(x_i, x_j) are defined for every cluster, so DBI (7.9) and "
    "DI (7.10) are defined for every clustering into k >= 2 clusters.",
    method=Method.PROPERTY,
    tags=("clustering", "indices", "erratum"),
    expect=Expect.REFUTED,
    kind=ErratumKind.MISSING_CONDITION,
    corrected_by="clu.internal_defs_7_5_7_8",
    explanation="Missing condition |C| >= 2: for a one-sample cluster (7.5) is "
    "2/(1*0) times an empty sum and (7.6) a maximum over no pair, so (7.9) and (7.10) are "
    "undefined for any clustering with a singleton; the corrected statistics take the "
    "empty sum's value 0.",
)
@given(case=clusterings())
@example(case=(np.array([[0.0], [1.0], [3.0]]), np.array([0, 1, 1])))
def avg_singleton_as_written(case):
    X, labels = case
    for c in np.unique(labels):
        size = int(np.sum(labels == c))
        assert size * (size - 1) > 0, f"cluster {c} has {size} sample: (7.5) is 2/0"


@claim(
    id="clu.centre_7_8_as_written",
    source="003 §7.2 (7.8)",
    statement="(As printed) the centre of a cluster below (7.8), mu = (1/|C|) "
    "sum_{1 <= i <= |C|} with no summand (read literally: a sum of ones, mu = 1), is the "
    "mean of the cluster, the point that minimises the squared distances to its samples.",
    method=Method.PROPERTY,
    tags=("clustering", "indices", "erratum"),
    expect=Expect.REFUTED,
    kind=ErratumKind.TERM,
    corrected_by="clu.dbi_7_9",
    explanation="Missing term: the summand x_i is lost, leaving (1/|C|) sum_{i=1}^{|C|} "
    "of nothing; d_cen (7.8) and DBI (7.9) need mu = (1/|C|) sum_{x in C} x.",
)
@given(case=clusterings())
def centre_7_8_as_written(case):
    X, labels = case
    for c in np.unique(labels):
        P = X[labels == c]
        printed = np.full(X.shape[1], sum(1.0 for _ in range(len(P))) / len(P))
        assert_close(printed, P.mean(axis=0), EXACT_ARITHMETIC,
                     scale=max(1.0, float(np.max(np.abs(P)))), label="|printed mu - mean|")


# ---------------------------------------------------------------------------
# DBI (7.9) and DI (7.10)
# ---------------------------------------------------------------------------


def _rigid_motion(X, labels, c, seed):
    """``c X Q + t`` (Q orthogonal, t at the data's own scale) and a renaming of labels."""
    rng = np.random.default_rng(seed)
    Q, _ = np.linalg.qr(rng.standard_normal((X.shape[1], X.shape[1])))
    size = max(float(np.max(np.abs(X))), 1e-300)
    perm = rng.permutation(int(labels.max()) + 1)
    return c * X @ Q + size * rng.normal(size=X.shape[1]), perm


#: A rigid motion moves each coordinate by ~1e-16 of the data's size; an index built from
#: distances as small as d then changes by ~1e-16 size/d relative (x 1000 of room).
MOTION_ROUNDING = 1e-13


def _assert_invariant(moved: float, value: float, X, smallest: float, name: str) -> None:
    allowed = 1e-9 * abs(value) + MOTION_ROUNDING * float(np.max(np.abs(X))) / smallest * (
        1.0 + abs(value))
    evidence.worst(f"|{name}(c X Q + t, renamed) - {name}(X)| / allowed rounding",
                   abs(moved - value) / allowed)
    assert abs(moved - value) <= allowed, (
        f"{name} changes under a rigid motion and scaling: {value!r} -> {moved!r}")


def _separated_centres(X, labels) -> bool:
    geo = cluster_geometry(X, labels)
    off = ~np.eye(geo.k, dtype=bool)
    return bool(np.all(geo.d_cen[off] > 1e-9 * max(1.0, float(np.max(np.abs(X))))))


@claim(
    id="clu.dbi_7_9",
    source="003 §7.2 (7.8)-(7.9)",
    statement="DBI = (1/k) sum_i max_{j != i} (avg(C_i) + avg(C_j)) / d_cen(mu_i, mu_j), "
    "with mu the cluster mean, is >= 0 and unchanged by renaming the clusters, by "
    "translating, rotating or reflecting the data and by scaling it by c > 0 (so 'smaller "
    "is better' compares shapes, not units).",
    method=Method.PROPERTY,
    tags=("clustering", "indices"),
)
@given(case=clusterings(max_size=18), c=st.sampled_from([1e-3, 0.5, 7.0, 1e3]),
       seed=st.integers(0, 2**32 - 1))
def dbi_7_9(case, c, seed):
    check_dbi(*case, c, seed)


def check_dbi(X, labels, c, seed, dbi=davies_bouldin_index) -> None:
    """``dbi`` equals a direct (7.9), is >= 0 and invariant under renaming, rigid motions
    and scaling."""
    if not _separated_centres(X, labels):
        evidence.add_examples(0)
        return
    value = dbi(X, labels)
    assert_close(value, notes_dbi(brute_geometry(X, labels)), LINEAR_ALGEBRA,
                 label="|DBI - direct (7.9)|")
    assert value >= 0
    geo = cluster_geometry(X, labels)
    smallest = float(np.min(geo.d_cen[~np.eye(geo.k, dtype=bool)]))
    moved, perm = _rigid_motion(X, labels, c, seed)
    _assert_invariant(dbi(moved, perm[labels]), value, X, smallest, "DBI")


@claim(
    id="clu.dbi_vs_sklearn",
    source="003 §7.2 (7.5); 003 §7.2 (7.9)",
    statement="The notes' DBI measures a cluster's spread by avg(C), the mean pairwise "
    "distance (7.5); scikit-learn's davies_bouldin_score uses the mean distance to the "
    "centroid instead. With that scatter our (7.9) equals scikit-learn's score, and the "
    "two definitions differ in general (three collinear points: avg = 4/3, mean distance "
    "to the centroid = 2/3).",
    method=Method.REFERENCE,
    tags=("clustering", "indices"),
)
@given(case=clusterings(max_size=18))
def dbi_vs_sklearn(case):
    X, labels = case
    if not _separated_centres(X, labels):
        evidence.add_examples(0)
        return
    ours = davies_bouldin_index(X, labels, scatter="centroid")
    Xc = X - X.mean(axis=0)  # the index is translation-invariant; centring helps sklearn
    theirs = metrics.davies_bouldin_score(Xc, labels)
    geo = cluster_geometry(X, labels)
    smallest = float(np.min(geo.d_cen[~np.eye(geo.k, dtype=bool)]))
    allowed = 1e-9 * abs(ours) + SKLEARN_EXPANDED_DISTANCES * float(
        np.max(np.linalg.norm(Xc, axis=1))) / smallest
    evidence.worst("|DBI(centroid) - sklearn| / allowed rounding", abs(ours - theirs) / allowed)
    assert abs(ours - theirs) <= allowed, (ours, theirs, allowed)
    evidence.worst("|notes' DBI - sklearn's| (definitional gap)",
                   abs(davies_bouldin_index(X, labels) - ours))
    line = np.array([[0.0], [1.0], [2.0]])
    assert cluster_geometry(line, np.zeros(3)).avg[0] == 4.0 / 3.0
    assert abs(cluster_geometry(line, np.zeros(3)).scatter_to_centre[0] - 2.0 / 3.0) < 1e-15


@claim(
    id="clu.di_7_10",
    source="003 §7.2 (7.7); 003 §7.2 (7.10)",
    statement="DI = min_i min_{j != i} d_min(C_i, C_j) / max_l diam(C_l) is >= 0, positive "
    "exactly when no sample value lies in two clusters, unchanged by renaming, rigid "
    "motions and scaling, and agrees with a direct evaluation of (7.10).",
    method=Method.PROPERTY,
    tags=("clustering", "indices"),
)
@given(case=clusterings(max_size=18), c=st.sampled_from([1e-3, 0.5, 7.0, 1e3]),
       seed=st.integers(0, 2**32 - 1))
def di_7_10(case, c, seed):
    check_di(*case, c, seed)


def check_di(X, labels, c, seed, di=dunn_index) -> None:
    """``di`` equals a direct (7.10), is > 0 iff no sample value is in two clusters, and is
    invariant under renaming, rigid motions and scaling."""
    geo = brute_geometry(X, labels)
    if max(geo.diam) == 0:
        evidence.add_examples(0)
        return
    value = di(X, labels)
    assert_close(value, notes_di(geo), LINEAR_ALGEBRA, label="|DI - direct (7.10)|")
    shared = any(np.any(np.all(X[labels == a][:, None] == X[labels == b][None], -1))
                 for a in np.unique(labels) for b in np.unique(labels) if a < b)
    assert (value > 0) == (not shared), (value, shared)
    off = ~np.eye(len(geo.diam), dtype=bool)
    smallest = min([d for d in geo.d_min[off] if d > 0] + [max(geo.diam)])
    moved, perm = _rigid_motion(X, labels, c, seed)
    _assert_invariant(di(moved, perm[labels]), value, X, smallest, "DI")


# ---------------------------------------------------------------------------
# Real data
# ---------------------------------------------------------------------------


def _pairwise_avg_dbi(X: np.ndarray, labels: np.ndarray) -> float:
    """(7.9) from one scipy distance matrix (independent of the blocked implementation)."""
    D = squareform(pdist(X))
    ks = np.unique(labels)
    avg = np.array([D[np.ix_(labels == c, labels == c)].sum() /
                    max(1, (labels == c).sum() * ((labels == c).sum() - 1)) for c in ks])
    mu = np.array([X[labels == c].mean(axis=0) for c in ks])
    dc = squareform(pdist(mu))
    np.fill_diagonal(dc, np.inf)
    return float(np.mean(np.max((avg[:, None] + avg[None, :]) / dc, axis=1)))


@claim(
    id="clu.indices_real_data",
    source="003 §7.2 (7.1)-(7.10)",
    statement="On iris, wine and digits, for the k-means, Gaussian-mixture and AGNES "
    "clusterings with k = number of classes, JC, FMI and RI against the true labels equal "
    "scikit-learn's pair-confusion counts, fowlkes_mallows_score and rand_score, and DBI "
    "equals a direct evaluation of (7.9); the indices are recorded.",
    method=Method.REFERENCE,
    tags=("clustering", "indices", "real-data"),
)
def indices_real_data():
    for name, loader in (("iris", datasets.load_iris), ("wine", datasets.load_wine),
                         ("digits", datasets.load_digits)):
        X, y = loader(return_X_y=True)
        X = (X - X.mean(axis=0)) / np.where(X.std(axis=0) > 0, X.std(axis=0), 1.0)
        k = len(np.unique(y))
        for algo, est in (("k-means", KMeans(k, init="k-means++", random_state=0)),
                          ("GMM", GaussianMixtureClustering(k, reg_covar=1e-3,
                                                            random_state=0)),
                          ("AGNES", AGNES(k, linkage="average"))):
            lam = silenced(est.fit, X).labels_
            idx = external_indices(lam, y)
            (tn, fp), (fn, tp) = metrics.pair_confusion_matrix(y, lam) // 2
            assert (idx.counts.a, idx.counts.b, idx.counts.c, idx.counts.d) == (tp, fp, fn, tn)
            assert_close([idx.fmi, idx.ri], [metrics.fowlkes_mallows_score(y, lam),
                                             metrics.rand_score(y, lam)], EXACT_ARITHMETIC,
                         label="|FMI, RI - sklearn|")
            dbi = davies_bouldin_index(X, lam)
            assert_close(dbi, _pairwise_avg_dbi(X, lam), LINEAR_ALGEBRA, label="|DBI - direct|")
            evidence.record(f"{name} {algo}: JC / FMI / RI / DBI / DI",
                            f"{idx.jc:.3f} / {idx.fmi:.3f} / {idx.ri:.3f} / {dbi:.3f} / "
                            f"{dunn_index(X, lam):.3f}")
            evidence.add_examples()
