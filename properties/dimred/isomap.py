"""Isomap, 003 §8.5.1 and Fig 10.8.

The neighbourhood graph and its shortest paths (a finite metric exactly when the graph is
connected, refused otherwise), the geodesic approximation on Swiss rolls
(``sklearn.datasets.make_swiss_roll``, whose true geodesics are known in closed form), the
short-circuit / disconnection trade-off of the neighbourhood size, and agreement with
``sklearn.manifold.Isomap``. Erratum: Fig 10.8 run literally (each sample's k nearest
neighbours at their Euclidean distance, every other entry infinite, then shortest paths)
builds a directed graph, whose distances can be infinite or asymmetric although the
neighbourhood graph is connected.
"""

from __future__ import annotations

import numpy as np
from hypothesis import example, given
from hypothesis import strategies as st
from scipy.sparse.csgraph import connected_components, shortest_path
from scipy.stats import spearmanr
from sklearn.datasets import load_digits, make_swiss_roll
from sklearn.manifold import Isomap as SkIsomap
from sklearn.manifold import trustworthiness

from algorithms.dimred import Isomap, neighbourhood_graph
from mltheory import ErratumKind, Expect, Method, claim, evidence
from mltheory.numeric import Tolerance, assert_close, assert_leq
from properties.dimred.strategies_manifold import SEEDS, distance_matrix
from properties.dimred.support_manifold import (
    EIGEN_ROUNDING,
    ITERATIVE_EIGEN,
    match_signs,
    single_threaded,
)

#: Paths of at most m edges, each rounded to ~1e-16 of its length.
PATH_ROUNDING = 1e-12
PATH_TOL = Tolerance(rtol=PATH_ROUNDING, atol=0.0,
                     reason="sums of at most m edge lengths, each rounded to 1e-16 of its "
                     "length; compared relative to the longest geodesic")


def swiss_roll(n: int, seed: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(X, t, h): a Swiss roll, its angle t and height h."""
    X, t = make_swiss_roll(n, random_state=seed)
    return X, t, X[:, 1]


def arc_length(t: np.ndarray) -> np.ndarray:
    """Arc length of the spiral (t cos t, t sin t) from 0 to t: the roll's unrolled
    coordinate, so true geodesics are sqrt(ds^2 + dh^2) (the roll is developable)."""
    return 0.5 * (t * np.sqrt(1.0 + t * t) + np.arcsinh(t))


def true_geodesics(t: np.ndarray, h: np.ndarray) -> np.ndarray:
    s = arc_length(t)
    return np.sqrt((s[:, None] - s[None, :]) ** 2 + (h[:, None] - h[None, :]) ** 2)


# ---------------------------------------------------------------------------
# The neighbourhood graph and its geodesics
# ---------------------------------------------------------------------------


def literal_fig_10_8(X: np.ndarray, k: int) -> np.ndarray:
    """Fig 10.8 lines 1-5 as printed: row i holds the Euclidean distance to x_i's k
    nearest neighbours and infinity elsewhere; shortest paths on that (directed) matrix."""
    D = distance_matrix(X)
    m = X.shape[0]
    W = np.full((m, m), np.inf)
    for i in range(m):
        others = [j for j in np.argsort(D[i], kind="stable") if j != i][:k]
        W[i, others] = D[i, others]
    np.fill_diagonal(W, 0.0)
    return shortest_path(np.where(np.isinf(W), 0.0, W), method="D", directed=True)


def reference_adjacency(X: np.ndarray, k: int | None, radius: float | None = None
                        ) -> np.ndarray:
    """Brute-force symmetric k-NN (or epsilon) neighbour relation, (m, m) booleans."""
    D = distance_matrix(X)
    m = X.shape[0]
    A = np.zeros((m, m), dtype=bool)
    if radius is None:
        order = np.argsort(D + np.diag(np.full(m, np.inf)), axis=1, kind="stable")[:, :k]
        A[np.repeat(np.arange(m), k), order.ravel()] = True
    else:
        A = (D <= radius) & ~np.eye(m, dtype=bool)
    return A | A.T


def reference_geodesics(X: np.ndarray, k: int | None, radius: float | None = None
                        ) -> tuple[np.ndarray, int]:
    """Floyd-Warshall paths on the brute-force graph; (geodesics, number of components)."""
    D = distance_matrix(X)
    A = reference_adjacency(X, k, radius)
    W = np.where(A, D, 0.0)
    n_parts = connected_components(A, directed=False)[0]
    return shortest_path(W, method="FW", directed=False), n_parts


def check_graph_metric(X: np.ndarray, k: int | None, geodesics=None,
                       radius: float | None = None) -> None:
    """If the (undirected) k-NN graph is connected, the geodesics are a finite symmetric
    metric with zero diagonal, equal to the Euclidean length on the graph's edges and
    never shorter than it elsewhere, matching Floyd-Warshall on a brute-force graph; if not,
    Isomap refuses the data with a ValueError that says so. ``geodesics(X, k)`` defaults to
    Isomap's ``dist_matrix_``."""
    ref, n_parts = reference_geodesics(X, k, radius)
    if geodesics is None:
        def geodesics(X, k):
            return Isomap(n_neighbors=k, radius=radius, n_components=1).fit(X).dist_matrix_
    if n_parts > 1:
        try:
            G = geodesics(X, k)
        except ValueError as exc:
            assert "disconnected" in str(exc), f"unexpected message: {exc}"
            evidence.add_examples()
            return
        raise AssertionError(f"{n_parts} components, yet geodesics were returned: "
                             f"{'finite' if np.all(np.isfinite(G)) else 'with inf'}")
    G = geodesics(X, k)
    assert np.all(np.isfinite(G)), "infinite geodesic on a connected graph"
    edges = neighbourhood_graph(X, k, radius=radius).toarray()
    D = distance_matrix(X)
    on_graph = reference_adjacency(X, k, radius)
    assert np.array_equal(edges > 0, on_graph & (D > 0)), "neighbourhood_graph: other edges"
    assert_close(edges, np.where(on_graph, D, 0.0), PATH_TOL, scale=max(float(D.max()), 1e-300),
                 label="|graph edge - Euclidean length|")
    scale = max(float(np.max(ref)), 1e-300)
    assert_close(G, G.T, PATH_TOL, scale=scale, label="|G - G^T| / max G")
    assert_close(np.diag(G), 0.0 * np.diag(G), PATH_TOL, scale=scale, label="|G_ii| / max G")
    D = distance_matrix(X)
    assert_leq(float(np.max(D - G)), PATH_ROUNDING * scale, label="max(dist - geodesic)")
    assert_close(G, ref, PATH_TOL, scale=scale, label="|G - Floyd-Warshall| / max G")
    evidence.add_examples()




@st.composite
def _point_sets(draw):
    """Continuous points (no exact distance ties: the k-NN sets are unambiguous), in two
    groups whose separation decides whether small k disconnects them."""
    m = draw(st.integers(3, 24))
    d = draw(st.integers(1, 3))
    rng = np.random.default_rng(draw(SEEDS))
    X = rng.standard_normal((m, d))
    X[: m // 2] += draw(st.sampled_from([0.0, 3.0, 30.0]))
    return X


@claim(
    id="isomap.graph_as_written",
    source="003 §8.5.1 Fig 10.8 lines 1-5",
    statement="(Fig 10.8 run literally) setting the distances from each x_i to its k nearest "
    "neighbours to their Euclidean values and all others to infinity, then running a "
    "shortest-path algorithm, gives finite and symmetric distances whenever the k-NN "
    "neighbourhood graph is connected.",
    method=Method.PROPERTY,
    tags=("dimred", "isomap", "erratum"),
    expect=Expect.REFUTED,
    kind=ErratumKind.CODE,
    corrected_by="isomap.graph_metric",
    explanation="The k-NN relation is not symmetric: line 3 sets row i only, so the matrix is "
    "a directed graph. On the line X = (0, 1, 10) with k = 1, x_3's neighbour is x_2 but "
    "nobody's neighbour is x_3: dist(x_1, x_3) = inf while dist(x_3, x_1) = 10, though the "
    "neighbourhood graph is connected. The graph must be symmetrised (an edge when either "
    "sample is a neighbour of the other).",
)
@given(X=_point_sets(), k=st.integers(1, 4))
@example(X=np.array([[0.0], [1.0], [10.0]]), k=1)
def graph_as_written(X, k):
    k = min(k, X.shape[0] - 1)
    check_graph_metric(X, k, geodesics=literal_fig_10_8)


@claim(
    id="isomap.graph_metric",
    source="003 §8.5.1 Fig 10.8 lines 1-5",
    statement="With the neighbour relation symmetrised, the shortest-path distances of a "
    "connected k-NN (or epsilon) graph are a finite symmetric metric with zero diagonal, "
    "never shorter than the Euclidean distance and equal to Floyd-Warshall on a "
    "brute-force graph; a disconnected graph (infinite geodesics) is refused with a "
    "ValueError, never returned.",
    method=Method.PROPERTY,
    tags=("dimred", "isomap"),
)
@given(X=_point_sets(), k=st.integers(1, 5), radius=st.none() | st.floats(0.3, 3.0))
def graph_metric(X, k, radius):
    if radius is None:
        check_graph_metric(X, min(k, X.shape[0] - 1))
    else:  # the epsilon graph (distances exactly at radius are measure-zero here)
        check_graph_metric(X, None, radius=radius)


# ---------------------------------------------------------------------------
# Geodesics on the Swiss roll
# ---------------------------------------------------------------------------

#: Decision rule of isomap.geodesic, fixed before looking at the run: with a k inside the
#: roll's working range (connected, no short circuit) every graph geodesic is within
#: [0.9, 1.5] x the true one at the median and >= 0.9 x everywhere (a short circuit across
#: the gap of the spiral gives ~0.1), the first coordinate ranks the samples like the
#: angle t (|Spearman| >= 0.99) and the embedding is trustworthy (>= 0.99, 10 neighbours)
#: with respect to the unrolled coordinates (s, h).
GEODESIC_K, ROLL_SIZE = 6, 1000
#: Roll size of isomap.neighbourhood_tradeoff (k = 2 disconnects, k = 40 short-circuits it).
TRADEOFF_SIZE = 800


def check_roll(n: int, k: int, seed: int, isomap=Isomap) -> None:
    X, t, h = swiss_roll(n, seed)
    est = isomap(n_neighbors=k, n_components=2).fit(X)
    truth = true_geodesics(t, h)
    off = ~np.eye(n, dtype=bool)
    ratio = est.dist_matrix_[off] / truth[off]
    evidence.worst("median graph/true geodesic", float(np.median(ratio)))
    assert 0.9 <= np.median(ratio) <= 1.5, f"median geodesic ratio {np.median(ratio):.3f}"
    assert_leq(0.9, float(ratio.min()), label="0.9 / min(graph/true geodesic)")
    rho = abs(spearmanr(est.embedding_[:, 0], t)[0])
    evidence.worst("|Spearman(z_1, t)|", rho, larger_is_worse=False)
    assert rho >= 0.99, f"first coordinate vs angle: |Spearman| = {rho:.4f} < 0.99"
    tw = trustworthiness(np.column_stack([arc_length(t), h]), est.embedding_, n_neighbors=10)
    evidence.worst("trustworthiness", tw, larger_is_worse=False)
    assert tw >= 0.99, f"trustworthiness {tw:.4f} < 0.99"
    evidence.add_examples()


@claim(
    id="isomap.geodesic",
    source="003 §8.5.1 Fig 10.8",
    statement="Shortest paths on the k-nearest-neighbour graph approximate the geodesic "
    "distances of the manifold, so Isomap unrolls a Swiss roll: with k = 6 on 1000 samples "
    "the graph geodesics are within [0.9, 1.5] of the true ones at the median and never "
    "below 0.9 of them, the first coordinate ranks the samples like the roll's angle "
    "(|Spearman| >= 0.99) and the embedding is trustworthy (>= 0.99) w.r.t. the unrolled "
    "coordinates.",
    method=Method.SIMULATION,
    tags=("dimred", "isomap"),
)
def geodesic(rng, scale):
    for _ in range(scale):
        check_roll(ROLL_SIZE, GEODESIC_K, int(rng.integers(2**31)))


def check_tradeoff(n: int, seed: int, small: int, large: int, isomap=Isomap) -> None:
    """Growing k only adds edges: the graph stays connected once connected, and geodesics
    can only shrink (towards short circuits). Too small a k disconnects the roll (refused),
    too large a k short-circuits it (some geodesic below half the true one, the unrolling
    lost)."""
    X, t, h = swiss_roll(n, seed)
    truth = true_geodesics(t, h)
    off = ~np.eye(n, dtype=bool)
    try:
        isomap(n_neighbors=small, n_components=2).fit(X)
    except ValueError as exc:
        assert "disconnected" in str(exc), exc
    else:
        raise AssertionError(f"k = {small}: the roll's graph is connected (no 'broken circuit')")
    previous = None
    for k in (GEODESIC_K, large):
        est = isomap(n_neighbors=k, n_components=2).fit(X)
        G = est.dist_matrix_
        if previous is not None:
            assert_leq(float(np.max(G - previous)), PATH_ROUNDING * float(np.max(previous)),
                       label="max increase of a geodesic when k grows")
        previous = G
    worst = float(np.min(previous[off] / truth[off]))
    evidence.worst(f"min graph/true geodesic at k={large}", worst, larger_is_worse=False)
    assert worst < 0.5, f"k = {large}: no short circuit (min ratio {worst:.3f})"
    rho = abs(spearmanr(est.embedding_[:, 0], t)[0])
    evidence.worst(f"|Spearman(z_1, t)| at k={large}", rho)
    assert rho < 0.9, f"k = {large}: the roll is still unrolled (|Spearman| = {rho:.3f})"
    evidence.add_examples()


@claim(
    id="isomap.neighbourhood_tradeoff",
    source="003 §8.5.1",
    statement="The neighbourhood size trades two failures: too small (k = 2 on an 800-sample "
    "Swiss roll) leaves the graph disconnected ('broken circuit', infinite distances, "
    "refused), too large (k = 40) adds edges across the roll's layers ('short circuit': some "
    "graph distances fall below half the true geodesic and the first coordinate no longer "
    "follows the roll, |Spearman| < 0.9). In between, growing k never lengthens a geodesic.",
    method=Method.SIMULATION,
    tags=("dimred", "isomap"),
)
def neighbourhood_tradeoff(rng, scale):
    for _ in range(scale):
        check_tradeoff(TRADEOFF_SIZE, int(rng.integers(2**31)), 2, 40)


# ---------------------------------------------------------------------------
# Reference
# ---------------------------------------------------------------------------

#: Radius of the epsilon-graph case of isomap.reference: connects a 450-sample roll
#: (spacing ~2; at 4 a sample was left alone); a short circuit would not matter here, the
#: claim compares two implementations on the same graph.
EPSILON = 6.0


@claim(
    id="isomap.reference",
    source="003 §8.5.1 Fig 10.8",
    statement="Isomap's embedding equals scikit-learn's Isomap (same k, d', Dijkstra paths, "
    "dense eigensolver) up to the sign of each coordinate, on Swiss rolls (k-NN and epsilon "
    "graphs) and on 400 digits "
    "(64 features, jittered by 1e-6 of each feature's spread to break exact distance "
    "ties); new samples are placed as scikit-learn's transform places them.",
    method=Method.REFERENCE,
    tags=("dimred", "isomap", "real-data"),
)
def reference(rng, scale):
    with single_threaded():
        _reference(rng, scale)


def _reference(rng, scale):
    digits = load_digits().data[rng.choice(1797, 400, replace=False)]
    # integer pixels give exactly equal distances; a jitter of 1e-6 of each feature's
    # spread breaks the ties that the two libraries' neighbour searches order differently
    digits = digits + 1e-6 * digits.std(axis=0) * rng.standard_normal(digits.shape)
    cases = [("digits", digits, 10, 3)]
    for _ in range(scale):
        cases.append(("swiss roll", swiss_roll(600, int(rng.integers(2**31)))[0], 8, 2))
        cases.append(("swiss roll, epsilon = 6", swiss_roll(600, int(rng.integers(2**31)))[0],
                      None, 2))
    for name, X, k, dp in cases:
        train, new = X[: len(X) * 3 // 4], X[len(X) * 3 // 4:]
        radius = None if k is not None else EPSILON
        ours = Isomap(n_neighbors=k, radius=radius, n_components=dp).fit(train)
        theirs = SkIsomap(n_neighbors=k, radius=radius, n_components=dp, path_method="D",
                          eigen_solver="dense").fit(train)
        size = float(np.max(np.abs(theirs.embedding_)))
        assert_close(match_signs(ours.embedding_, theirs.embedding_), theirs.embedding_,
                     EIGEN_ROUNDING, scale=size, label="|Isomap - sklearn| / max|z|",
                     context=f"{name}: ")
        assert_close(ours.dist_matrix_, theirs.dist_matrix_, EIGEN_ROUNDING,
                     scale=float(np.max(theirs.dist_matrix_)), label="|G - sklearn G| / max G")
        signs = np.sign(np.sum(ours.embedding_ * theirs.embedding_, axis=0))
        assert_close(ours.transform(new) * signs, theirs.transform(new), ITERATIVE_EIGEN,
                     scale=size, label="|transform - sklearn transform| / max|z|",
                     context=f"{name} new samples: ")
        evidence.add_examples()
