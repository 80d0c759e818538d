"""DBSCAN of 003 §7.5: the density relations, the definition of a cluster (connectivity
and maximality) against the partition Fig 9.9 returns, Fig 9.9 run literally, and
scikit-learn's DBSCAN as the reference.

The relations come from a brute-force distance matrix and Boolean transitive closures
(:func:`properties.clustering.support.density_relations`), independent of the k-d tree
and graph components of :class:`algorithms.clustering.DBSCAN`.
"""

from __future__ import annotations

import numpy as np
from hypothesis import example, given
from hypothesis import strategies as st
from sklearn import cluster as skc

from algorithms.clustering import DBSCAN
from mltheory import ErratumKind, Expect, Method, claim, evidence
from properties.clustering.strategies import point_sets
from properties.clustering.support import (
    density_relations,
    notes_dbscan_literal,
    same_partition,
)

#: Radii relative to the data's spread, and MinPts values, that give every regime:
#: all noise, a few clusters with borders, everything one cluster.
RADII = st.sampled_from([0.05, 0.2, 0.5, 1.0, 3.0])
MIN_PTS = st.integers(1, 6)
#: A point set, a radius relative to its spread, MinPts and the seed of the core order.
CASES = {"X": point_sets(min_size=2, max_size=25), "eps_rel": RADII, "min_pts": MIN_PTS,
         "seed": st.integers(0, 2**32 - 1)}

#: A border sample (x = 1.15, 3 samples within eps = 1) within eps of a core of each of two
#: clusters (0.2 and 2.1) that are not density-connected to each other (MinPts = 4).
SHARED_BORDER = np.array([[0.0], [0.05], [0.1], [0.2], [1.15], [2.1], [2.3], [2.35], [2.4]])
SHARED_EPS = 1.0 / 2.4  # eps = 1 relative to the spread 2.4


def _fit(X, eps_rel, min_pts, seed):
    spread = float(np.max(np.ptp(X, axis=0))) or 1.0
    # the factor keeps eps off the exact distances of grid data (rounding of a distance
    # equal to eps would decide membership differently in two correct implementations)
    eps = eps_rel * spread * (1 + 1e-6)
    return eps, DBSCAN(eps, min_pts=min_pts, random_state=seed).fit(X)


@claim(
    id="dbscan.relations",
    source="003 §7.5",
    statement="N_eps(x_j) contains x_j (a closed ball: samples at distance exactly eps "
    "belong to it), and x_j is a core object when |N_eps(x_j)| >= "
    "MinPts; direct density-reachability is not symmetric (a border sample is reached from "
    "a core but reaches nothing); density-reachability is transitive and "
    "density-connection symmetric, but density-connection is not transitive (a border "
    "sample shared by two clusters connects to both, they do not connect to each other).",
    method=Method.ENUMERATION,
    tags=("clustering", "dbscan"),
)
@given(**CASES)
@example(X=SHARED_BORDER, eps_rel=SHARED_EPS, min_pts=4, seed=0)
def relations(X, eps_rel, min_pts, seed):
    eps, est = _fit(X, eps_rel, min_pts, seed)
    rel = density_relations(X, eps, min_pts)
    sizes = np.sum(np.sum((X[:, None] - X[None]) ** 2, -1) <= eps**2, axis=1)
    assert np.array_equal(est.neighbourhood_sizes_, sizes), "neighbourhood sizes differ"
    assert np.array_equal(est.is_core_, rel.core), "core objects differ"
    assert np.all(est.neighbourhood_sizes_ >= 1)  # x_j is in its own neighbourhood
    asym = rel.direct & ~rel.direct.T
    pairs = np.argwhere(asym)  # (core, non-core within eps): exactly the asymmetric pairs
    assert np.all(rel.core[pairs[:, 0]]) and not np.any(rel.core[pairs[:, 1]])
    reach = rel.reach.astype(np.int64)
    assert not np.any((reach @ reach > 0) & ~rel.reach), "density-reachability not transitive"
    assert np.array_equal(rel.connected, rel.connected.T)
    intransitive = (rel.connected.astype(np.int64) @ rel.connected.astype(np.int64) > 0) \
        & ~rel.connected
    evidence.worst("asymmetric direct-reachability pairs", float(asym.sum()))
    evidence.worst("pairs connected through a third sample only (intransitivity)",
                   float(intransitive.sum()))
    if X.shape == SHARED_BORDER.shape and np.array_equal(X, SHARED_BORDER):
        assert intransitive[0, 5] and asym[3, 4], "the shared-border example lost its point"
    for dim in (2, 17):  # the k-d tree, and the blocks of products above 15 dimensions
        check_closed_ball(seed, dim)


def check_closed_ball(seed: int, dim: int) -> None:
    """N_eps is the closed ball: on integer points (exact squared distances) with pairs
    at distance exactly eps = 5 (differences 3 and 4), the neighbourhood sizes are the
    exact counts of ||x_i - x_j||^2 <= 25."""
    rng = np.random.default_rng(seed)
    X = rng.integers(-3, 4, size=(12, dim)).astype(float)
    for a, b in ((1, 0), (5, 4)):
        X[a] = X[b]
        X[a, :2] += (3.0, 4.0)
    exact = np.sum(np.sum((X[:, None] - X[None]) ** 2, -1) <= 25.0, axis=1)
    sizes = DBSCAN(5.0, min_pts=2, random_state=0).fit(X).neighbourhood_sizes_
    assert np.array_equal(sizes, exact), (
        f"{dim} dimensions, eps = 5: neighbourhood sizes {sizes.tolist()}, exact "
        f"{exact.tolist()} (samples at distance exactly eps belong to N_eps)")


def _maximality_violations(est: DBSCAN, rel) -> list[tuple[int, int]]:
    """(i, j): x_i in a cluster, x_j density-reachable from x_i but not in that cluster."""
    out = []
    for i in np.flatnonzero(est.labels_ >= 0):
        for j in np.flatnonzero(rel.reach[i]):
            if est.labels_[j] != est.labels_[i]:
                out.append((int(i), int(j)))
    return out


@claim(
    id="dbscan.maximality_as_written",
    source="003 §7.5; 003 §7.5 Fig 9.9",
    statement="(As printed) every cluster Fig 9.9 returns satisfies the definition's "
    "maximality: if x_i is in C and x_j is density-reachable from x_i, then x_j is in C.",
    method=Method.PROPERTY,
    tags=("clustering", "dbscan", "erratum"),
    expect=Expect.REFUTED,
    kind=ErratumKind.OVERCLAIM,
    corrected_by="dbscan.cluster_axioms",
    explanation="Inconsistency between the definition and the algorithm: a border sample "
    "density-reachable from the cores of two clusters belongs, by maximality, to both; "
    "Fig 9.9 returns a partition and gives it to the first cluster that reaches it (line "
    "17 takes it out of Gamma), so the other cluster violates maximality.",
)
@given(**CASES)
@example(X=SHARED_BORDER, eps_rel=SHARED_EPS, min_pts=4, seed=0)
def maximality_as_written(X, eps_rel, min_pts, seed):
    eps, est = _fit(X, eps_rel, min_pts, seed)
    bad = _maximality_violations(est, density_relations(X, eps, min_pts))
    assert not bad, f"density-reachable but outside the cluster (i, j): {bad[:3]}"


@claim(
    id="dbscan.cluster_axioms",
    source="003 §7.5; 003 §7.5 Fig 9.9",
    statement="Every cluster of Fig 9.9 is non-empty and connected (any two members are "
    "density-connected); each core object lies in exactly one cluster and the cores of a "
    "cluster are all cores density-reachable from its seed; maximality holds up to border "
    "samples: whatever is density-reachable from a member is in the cluster or is a "
    "non-core sample of an earlier cluster; the noise is exactly the samples "
    "density-reachable from no core.",
    method=Method.PROPERTY,
    tags=("clustering", "dbscan"),
)
@given(**CASES)
@example(X=SHARED_BORDER, eps_rel=SHARED_EPS, min_pts=4, seed=0)
def cluster_axioms(X, eps_rel, min_pts, seed):
    eps, est = _fit(X, eps_rel, min_pts, seed)
    check_dbscan_axioms(est, X, eps, min_pts)


def check_dbscan_axioms(est, X, eps, min_pts) -> None:
    """Connectivity, one cluster per core, cores of a cluster = cores reachable from its
    seed, maximality up to earlier clusters' border samples, noise = unreachable."""
    rel = density_relations(X, eps, min_pts)
    labels = est.labels_
    k = est.n_clusters_
    assert set(np.unique(labels[labels >= 0]).tolist()) == set(range(k))
    for c in range(k):
        members = np.flatnonzero(labels == c)
        assert np.all(rel.connected[np.ix_(members, members)]), f"cluster {c} not connected"
        seed_core = est.seeds_[c]
        assert labels[seed_core] == c and rel.core[seed_core]
        cores = np.flatnonzero(rel.core & rel.reach[seed_core])
        assert np.array_equal(cores, np.flatnonzero(rel.core & (labels == c)))
    for i, j in _maximality_violations(est, rel):
        assert not rel.core[j] and 0 <= labels[j] < labels[i], (
            f"x_{j} reachable from x_{i} (cluster {labels[i]}) but in cluster {labels[j]}")
    reached = rel.reach[rel.core].any(axis=0)
    assert np.array_equal(labels == -1, ~reached), "noise is not 'reachable from no core'"
    evidence.worst("border samples claimed by an earlier cluster",
                   float(len({j for _, j in _maximality_violations(est, rel)})))


@claim(
    id="dbscan.pseudocode_literal",
    source="003 §7.5 Fig 9.9",
    statement="Fig 9.9 run line by line (queue, Gamma, Omega), picking at line 12 the core "
    "objects the implementation picked, returns the same clusters and noise.",
    method=Method.REFERENCE,
    tags=("clustering", "dbscan"),
)
@given(**CASES)
def pseudocode_literal(X, eps_rel, min_pts, seed):
    eps, est = _fit(X, eps_rel, min_pts, seed)
    literal = notes_dbscan_literal(X, eps, min_pts, est.seeds_.tolist())
    assert np.array_equal(literal, est.labels_), (literal, est.labels_)


@claim(
    id="dbscan.reference",
    source="003 §7.5 Fig 9.9",
    statement="scikit-learn's DBSCAN(eps, min_samples=MinPts) finds the same core objects, "
    "the same noise and the same partition of the core objects; a border sample may join "
    "another cluster (visiting order), but in both a cluster with a core within eps.",
    method=Method.REFERENCE,
    tags=("clustering", "dbscan"),
)
@given(X=point_sets(min_size=2, max_size=40), eps_rel=RADII, min_pts=MIN_PTS,
       seed=st.integers(0, 2**32 - 1))
def reference(X, eps_rel, min_pts, seed):
    eps, est = _fit(X, eps_rel, min_pts, seed)
    theirs = skc.DBSCAN(eps=eps, min_samples=min_pts).fit(X)
    assert np.array_equal(np.sort(est.core_sample_indices_), theirs.core_sample_indices_)
    assert np.array_equal(est.labels_ == -1, theirs.labels_ == -1), "noise differs"
    core = est.is_core_
    assert same_partition(est.labels_[core], theirs.labels_[core]), "core partitions differ"
    D2 = np.sum((X[:, None] - X[None]) ** 2, -1)
    for j in np.flatnonzero(~core & (est.labels_ >= 0)):
        near_cores = np.flatnonzero(core & (D2[j] <= eps**2))
        assert est.labels_[j] in est.labels_[near_cores]
        assert theirs.labels_[j] in theirs.labels_[near_cores]
    evidence.worst("border samples labelled differently (up to renaming)",
                   float(not same_partition(est.labels_, theirs.labels_)))
