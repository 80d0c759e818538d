"""AGNES of 003 §7.6 (Fig 9.11): cuts against scipy.cluster.hierarchy, every merge against
the cluster distances' definitions, and Fig 9.11 run literally (its renumbering step
assumes i* < j*)."""

from __future__ import annotations

import itertools

import numpy as np
from hypothesis import example, given
from hypothesis import strategies as st
from scipy.cluster import hierarchy
from scipy.spatial.distance import pdist

from algorithms.clustering import AGNES
from mltheory import ErratumKind, Expect, Method, claim, evidence
from mltheory.numeric import LINEAR_ALGEBRA, Tolerance, assert_close
from properties.clustering.strategies import point_sets
from properties.clustering.support import cluster_distance, notes_agnes_literal, same_partition

LINKAGE = st.sampled_from(["single", "complete", "average"])

#: A merge distance against the definition, relative to the distance itself.
MERGE_DISTANCE = Tolerance(
    rtol=1e-12, atol=0.0,
    reason="a min, max or size-weighted mean of Minkowski distances, each a few ulps from "
    "the exact one, and no subtraction in the Lance-Williams updates of these linkages: "
    "relative to the distance, so that distances of 1e-300 or subnormal ones count too")

#: Distances from 1e30 down to the smallest subnormal, 5e-324, in one data set: the
#: largest magnitude 2^100 needs no rescaling; distances come from sums of squares that
#: underflow below 1e-154 unless the differences are rescaled (a power of two dividing
#: the data would round 1e-300 / 2^101 or 5e-324 / 2 to 0).
MIXED_MAGNITUDES = np.array([[2.0**100, 0.0], [2.0**100, 1e-300], [0.0, 0.0],
                             [0.0, 5e-324], [1e-160, 0.0]])

#: Six points on a line where Fig 9.11 with the closest pair named (i*, j*), i* > j*, keeps
#: a stale row and cuts single linkage at k = 2 differently from AGNES.
STALE_ROW = np.array([[2.0], [9.4], [3.7], [1.1], [6.3], [9.3]])


def _distinct_distances(X: np.ndarray) -> bool:
    d = pdist(X)
    return d.size == np.unique(d).size and bool(np.all(d > 0))


def _literal_labels(X: np.ndarray, k: int, linkage: str, larger_first: bool) -> np.ndarray:
    """Labels of the clusters of Fig 9.11 run literally."""
    labels = np.empty(X.shape[0], dtype=int)
    for c, members in enumerate(notes_agnes_literal(X, k, linkage, larger_first=larger_first)):
        labels[members] = c
    return labels


def _leaf_sets(children: np.ndarray, m: int) -> list[frozenset]:
    sets = [frozenset([j]) for j in range(m)]
    for a, b in children:
        sets.append(sets[a] | sets[b])
    return sets[m:]


@claim(
    id="agnes.linkages",
    source="003 §7.6; 003 §7.6 Fig 9.11",
    statement="AGNES with d_min, d_max or d_avg (single, complete, average linkage) forms "
    "the same clusters at the same distances as scipy.cluster.hierarchy.linkage, and cut "
    "at k clusters gives the partition of fcluster(criterion='maxclust') (data without "
    "distance ties).",
    method=Method.REFERENCE,
    tags=("clustering", "agnes"),
)
@given(X=point_sets(min_size=2, max_size=40, kinds=("blobs", "free")), linkage=LINKAGE,
       k=st.integers(1, 6))
def linkages(X, linkage, k):
    if not _distinct_distances(X):
        evidence.add_examples(0)
        return
    m = X.shape[0]
    k = min(k, m)
    Z = hierarchy.linkage(X, linkage)
    full = AGNES(1, linkage=linkage).fit(X)
    scale = float(np.max(Z[:, 2])) if m > 1 else 1.0
    assert_close(full.distances_, Z[:, 2], LINEAR_ALGEBRA, scale=scale,
                 label="|merge distances - scipy| / max")
    assert set(_leaf_sets(full.children_, m)) == set(_leaf_sets(Z[:, :2].astype(int), m))
    cut = AGNES(k, linkage=linkage).fit(X)
    assert cut.n_merges_ == m - k
    if m - k < m - 1 and np.isclose(Z[m - k - 1, 2], Z[m - k, 2], rtol=1e-12) and m > k > 1:
        evidence.note("a tie at the cut height: partitions compared through the dendrogram")
        return
    assert same_partition(cut.labels_, hierarchy.fcluster(Z, k, criterion="maxclust"))


@claim(
    id="agnes.termination",
    source="003 §7.6 Fig 9.11",
    statement="The loop of Fig 9.11 makes exactly m - k merges and ends with k non-empty "
    "disjoint clusters covering D; each merge joins the two closest current clusters, at "
    "the distance d(C_i*, C_j*) of the definitions (so the Lance-Williams row updates "
    "reproduce d_min, d_max, d_avg, to rounding relative to the distance, from 1e30 down to "
    "subnormal distances), and for these three linkages the merge distances never decrease.",
    method=Method.PROPERTY,
    tags=("clustering", "agnes"),
)
@given(X=point_sets(min_size=1, max_size=14), linkage=LINKAGE, k=st.integers(1, 5))
@example(X=MIXED_MAGNITUDES, linkage="single", k=1)
@example(X=MIXED_MAGNITUDES, linkage="average", k=1)
def termination(X, linkage, k):
    k = min(k, X.shape[0])
    check_agnes_merges(AGNES(k, linkage=linkage).fit(X), X, linkage, k)


def check_agnes_merges(est, X, linkage, k) -> None:
    """m - k merges, each of the two closest current clusters at the distance of the
    definitions, non-decreasing distances, k clusters covering D."""
    m = X.shape[0]
    assert est.n_merges_ == m - k and est.children_.shape == (m - k, 2)
    assert sorted(np.unique(est.labels_).tolist()) == list(range(k))
    clusters = {j: [j] for j in range(m)}
    scale = max(1.0, float(np.max(np.abs(X))))
    for t, ((a, b), dist) in enumerate(zip(est.children_, est.distances_, strict=True)):
        current = list(clusters)
        best = min(cluster_distance(X, clusters[u], clusters[v], linkage)
                   for u, v in itertools.combinations(current, 2))
        merged = cluster_distance(X, clusters[a], clusters[b], linkage)
        assert_close(dist, merged, MERGE_DISTANCE,
                     label="|recorded merge distance - definition| / distance")
        assert_close(merged, best, LINEAR_ALGEBRA, scale=scale,
                     label="|merge distance - closest pair| / scale")
        clusters[m + t] = clusters.pop(a) + clusters.pop(b)
    if est.n_merges_ > 1:
        worst_drop = float(np.max(-np.diff(est.distances_)))
        assert worst_drop <= 1e-12 * scale, f"merge distance decreases by {worst_drop}"
    final = sorted(sorted(c) for c in clusters.values())
    assert final == sorted(sorted(np.flatnonzero(est.labels_ == c).tolist()) for c in range(k))


@claim(
    id="agnes.renumbering_as_written",
    source="003 §7.6 Fig 9.11",
    statement="(As printed) Fig 9.11 computes AGNES whichever of the two closest clusters "
    "is called C_i* and which C_j*: merge into C_i*, renumber the clusters after j*, "
    "delete row and column j* of M, recompute row i*.",
    method=Method.PROPERTY,
    tags=("clustering", "agnes", "erratum"),
    expect=Expect.REFUTED,
    kind=ErratumKind.CODE,
    corrected_by="agnes.pseudocode_ordered",
    explanation="Pseudo-code run literally: lines 14-21 are right only when i* < j*, which "
    "the figure never says; when i* > j*, lines 14-15 renumber the merged "
    "cluster to i* - 1, but lines 18-21 refresh row i*, which now belongs to the next "
    "cluster; the merged cluster keeps the stale distances of C_i* alone (or i* is out of "
    "range), and later merges go wrong.",
)
@given(X=point_sets(min_size=3, max_size=10, kinds=("blobs", "free")), linkage=LINKAGE,
       k=st.integers(1, 3))
@example(X=STALE_ROW, linkage="single", k=2)
def renumbering_as_written(X, linkage, k):
    if not _distinct_distances(X):
        evidence.add_examples(0)
        return
    k = min(k, X.shape[0])
    labels = _literal_labels(X, k, linkage, larger_first=True)
    expected = hierarchy.fcluster(hierarchy.linkage(X, linkage), k, criterion="maxclust")
    assert same_partition(labels, expected), f"literal labels {labels.tolist()}"


@claim(
    id="agnes.pseudocode_ordered",
    source="003 §7.6 Fig 9.11",
    statement="Fig 9.11 run line by line with the closest pair named so that i* < j* "
    "returns the clusters of AGNES (our implementation and scipy's linkage cut at k).",
    method=Method.REFERENCE,
    tags=("clustering", "agnes"),
)
@given(X=point_sets(min_size=3, max_size=10, kinds=("blobs", "free")), linkage=LINKAGE,
       k=st.integers(1, 3))
@example(X=STALE_ROW, linkage="single", k=2)
def pseudocode_ordered(X, linkage, k):
    if not _distinct_distances(X):
        evidence.add_examples(0)
        return
    k = min(k, X.shape[0])
    labels = _literal_labels(X, k, linkage, larger_first=False)
    assert np.array_equal(labels, AGNES(k, linkage=linkage).fit(X).labels_), labels
    expected = hierarchy.fcluster(hierarchy.linkage(X, linkage), k, criterion="maxclust")
    assert same_partition(labels, expected)
