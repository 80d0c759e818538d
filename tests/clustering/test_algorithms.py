"""The clustering algorithms (003 Chapter 7): behaviour on small cases and bad input."""

import math
import warnings

import numpy as np
import pytest
from scipy.spatial import cKDTree
from sklearn import cluster as skc
from sklearn.exceptions import ConvergenceWarning

from algorithms.bayes import run_em
from algorithms.clustering import (
    AGNES,
    DBSCAN,
    LVQ,
    NOISE,
    GaussianMixtureClustering,
    GaussianMixtureEM,
    KMeans,
    MixedDistance,
    MixtureParams,
    cluster_geometry,
    davies_bouldin_index,
    dunn_index,
    external_indices,
    gaussian_log_density,
    kmeans_plusplus,
    minkowski_distance,
    neighbour_pairs,
    pair_counts,
    value_difference,
    value_profiles,
)


@pytest.fixture
def blobs():
    rng = np.random.default_rng(0)
    centres = np.array([[0.0, 0.0], [6.0, 0.0], [0.0, 6.0]])
    y = np.repeat([0, 1, 2], 40)
    return centres[y] + rng.normal(scale=0.6, size=(120, 2)), y


# ---------------------------------------------------------------------------
# Indices and distances
# ---------------------------------------------------------------------------


def test_pair_counts_of_a_small_case_by_hand():
    # pairs: (0,1) SS, (0,2) SD... lambda = [0,0,1,1], lambda* = [0,0,0,1]
    n = pair_counts([0, 0, 1, 1], [0, 0, 0, 1])
    assert (n.a, n.b, n.c, n.d) == (1, 1, 2, 2)
    idx = external_indices([0, 0, 1, 1], [0, 0, 0, 1])
    assert idx.jc == pytest.approx(1 / 4) and idx.ri == pytest.approx(3 / 6)
    assert idx.fmi == pytest.approx(math.sqrt(1 / 2 * 1 / 3))


def test_external_indices_conventions_for_degenerate_partitions():
    assert external_indices([0, 1, 2], ["a", "b", "c"]).jc == 1.0
    assert external_indices([0], [5]).ri == 1.0
    assert external_indices([0, 1, 2], [0, 0, 0]).fmi == 0.0


def test_internal_indices_of_two_segments():
    X = np.array([[0.0], [1.0], [10.0], [12.0]])
    geo = cluster_geometry(X, [0, 0, 1, 1])
    assert geo.avg.tolist() == [1.0, 2.0] and geo.diam.tolist() == [1.0, 2.0]
    assert geo.d_min[0, 1] == 9.0 and geo.d_cen[0, 1] == 10.5
    assert davies_bouldin_index(X, [0, 0, 1, 1]) == pytest.approx(3.0 / 10.5)
    assert dunn_index(X, [0, 0, 1, 1]) == pytest.approx(9.0 / 2.0)
    assert dunn_index(np.array([[0.0], [5.0]]), [0, 1]) == math.inf


def test_minkowski_special_cases_and_weights():
    assert minkowski_distance([0, 0], [3, 4]) == 5.0
    assert minkowski_distance([0, 0], [3, 4], 1) == 7.0
    assert minkowski_distance([0, 0], [3, 4], math.inf) == 4.0
    assert minkowski_distance([0, 0], [3, 4], 2, weights=[0.5, 0.5]) == pytest.approx(
        math.sqrt(12.5))
    assert minkowski_distance([0.06], [0.0], 400.0) == pytest.approx(0.06)  # no underflow
    assert minkowski_distance(np.zeros((3, 2)), np.ones(2)).shape == (3,)


def test_vdm_and_minkovdm_of_a_small_table():
    values = np.array(["a", "a", "b", "b", "c"])
    clusters = np.array([0, 1, 1, 1, 0])
    # profiles: a = (1/2, 1/2), b = (0, 1), c = (1, 0)
    assert value_difference("a", "b", values, clusters, p=1) == pytest.approx(1.0)
    assert value_difference("b", "c", values, clusters, p=2) == pytest.approx(2.0)
    assert value_profiles(values, clusters).distance("a", "a") == 0.0
    X = np.array([[0.0, "a"], [3.0, "b"], [1.0, "c"]], dtype=object)
    md = MixedDistance(1, p=1).fit(X, [0, 1, 0])
    assert md.distance(X[0], X[1]) == pytest.approx(3.0 + value_profiles(
        X[:, 1], [0, 1, 0]).distance("a", "b", 1))
    assert md.pairwise(X).shape == (3, 3)


# ---------------------------------------------------------------------------
# k-means and LVQ
# ---------------------------------------------------------------------------


def test_kmeans_recovers_blobs_and_records_a_descending_objective(blobs):
    X, y = blobs
    est = KMeans(3, init="k-means++", random_state=1, keep_history=True).fit(X)
    assert est.converged_ and external_indices(est.labels_, y).ri == 1.0
    assert np.all(np.diff(est.objective_history_) <= 1e-9)
    assert est.labels_history_.shape == (len(est.objective_history_), 120)
    assert np.array_equal(est.predict(X), est.labels_)
    assert est.inertia_ == pytest.approx(
        float(np.sum((X - est.cluster_centers_[est.labels_]) ** 2)))


def test_kmeans_threaded_assignment_matches_scikit_learn():
    # 30,000 samples: the assignment step runs in row blocks on the thread pool
    rng = np.random.default_rng(3)
    centres = rng.normal(scale=5.0, size=(6, 3))
    X = centres[rng.integers(6, size=30_000)] + rng.normal(size=(30_000, 3))
    C0 = X[:6]
    ours = KMeans(6, init=C0).fit(X)
    theirs = skc.KMeans(6, init=C0, n_init=1, algorithm="lloyd", tol=0.0).fit(X)
    assert np.array_equal(ours.labels_, theirs.labels_) and ours.n_iter_ == theirs.n_iter_
    assert np.allclose(ours.cluster_centers_, theirs.cluster_centers_, rtol=1e-12, atol=1e-12)


def test_kmeans_relocates_an_empty_cluster():
    X = np.array([[0.0], [0.0], [1.0], [5.0], [6.0]])
    est = KMeans(3, init=X[[0, 1, 3]], keep_history=True).fit(X)
    assert est.n_relocated_ >= 1 and len(np.unique(est.labels_)) == 3
    kept = KMeans(3, init=X[[0, 1, 3]], empty_cluster="keep").fit(X)
    assert np.all(np.isfinite(kept.cluster_centers_))


def test_kmeans_relocation_passes_over_a_sample_alone_in_its_cluster():
    # 100 is the farthest sample (its mean 60 is stale) but alone in its cluster: taking it
    # would empty that cluster, stopping at it would repeat the partition next round; the
    # next farthest (0, from the cluster of 0, 1, 2) fills the empty cluster at once
    X = np.array([[0.0], [1.0], [2.0], [100.0]])
    est = KMeans(3, init=np.array([[1.0], [60.0], [1000.0]]), keep_history=True).fit(X)
    assert est.labels_history_[:2].tolist() == [[0, 0, 0, 1], [2, 0, 0, 1]]
    assert est.n_relocated_ == 1 and est.labels_.tolist() == [2, 0, 0, 1]
    # two empty clusters, the two farthest samples (0 and 10) from one two-sample cluster:
    # 0 moves, 10 stays (its cluster is not emptied), the next farthest (20) moves
    X = np.array([[0.0], [10.0], [20.0], [21.0], [22.0]])
    est = KMeans(4, init=np.array([[5.0], [90.0], [95.0], [21.0]]), keep_history=True).fit(X)
    assert est.labels_history_[:2].tolist() == [[0, 0, 3, 3, 3], [1, 0, 2, 3, 3]]
    assert est.n_relocated_ == 2 and est.converged_


def test_kmeans_plusplus_picks_distinct_points():
    X = np.arange(20, dtype=float).reshape(10, 2)
    C = kmeans_plusplus(X, 5, np.random.default_rng(0))
    assert len({tuple(c) for c in C}) == 5


def test_kmeans_warns_when_cut_off(blobs):
    X, _ = blobs
    with pytest.warns(ConvergenceWarning):
        est = KMeans(3, init=X[[0, 1, 2]], max_iter=1).fit(X)
    assert not est.converged_ and np.array_equal(est.predict(X), est.labels_)


def test_lvq_learns_the_classes_and_records_its_updates(blobs):
    X, y = blobs
    est = LVQ(learning_rate=0.2, max_iter=500, keep_history=True, random_state=0).fit(X, y)
    assert np.mean(est.predict(X) == y) > 0.95
    assert est.before_.shape == est.after_.shape == (500, 2)
    assert est.winners_.shape == est.agreements_.shape == (500,)


def test_lvq_stops_on_tol_and_warns_otherwise(blobs):
    X, y = blobs
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        est = LVQ(learning_rate=0.01, max_iter=20_000, tol=50.0, random_state=0).fit(X, y)
        # no tol: max_iter iterations is the stop condition itself, nothing to warn about
        plain = LVQ(learning_rate=0.5, max_iter=200, random_state=0).fit(X, y)
    assert est.converged_ and est.n_iter_ < 20_000
    assert not plain.converged_ and plain.n_iter_ == 200
    with pytest.warns(ConvergenceWarning):
        LVQ(learning_rate=0.5, max_iter=200, tol=1e-9, random_state=0).fit(X, y)


# ---------------------------------------------------------------------------
# Gaussian mixture
# ---------------------------------------------------------------------------


def test_gmm_fits_blobs_on_the_em_driver(blobs):
    X, y = blobs
    est = GaussianMixtureClustering(3, random_state=0, keep_history=True).fit(X)
    assert est.converged_ and external_indices(est.labels_, y).ri > 0.99
    gamma = est.predict_proba(X)
    assert np.allclose(gamma.sum(axis=1), 1.0)
    assert np.all(np.diff(est.log_likelihood_history_) >= -1e-9)
    assert est.score(X) == pytest.approx(est.log_likelihood_ / len(X))
    runs = est.em_result_.runs
    assert len(runs[0].params_history) == len(runs[0].log_likelihood_history)
    Z, z = est.sample(50, random_state=0)
    assert Z.shape == (50, 2) and set(z) <= {0, 1, 2}


def test_gmm_stops_and_warns_at_a_singular_covariance_without_regularisation():
    X = np.array([[0.0, 0.0], [0.0, 0.0], [0.0, 0.0], [1.0, 1.0], [2.0, 0.5], [3.0, 1.0]])
    est = GaussianMixtureClustering(
        2, reg_covar=0.0, means_init=[[0.0, 0.0], [2.0, 1.0]],
        covariances_init=[np.eye(2) * 1e-3, np.eye(2)], max_iter=50)
    with pytest.warns(ConvergenceWarning, match="non-finite"):
        est.fit(X)
    assert np.all(np.isfinite(est.covariances_)) and np.isfinite(est.log_likelihood_)


def test_gmm_iterates_stay_mixtures_from_tiny_variances():
    # log-densities of size 1e9 made the responsibilities miss 1 by ~1e-7 and the next
    # weights sum to 1 + 4e-9, after which an exact EM step lowered LL by 1.5e-7
    X = np.random.default_rng(4).normal(scale=2.0, size=(40, 1))
    est = GaussianMixtureClustering(
        2, reg_covar=0.0, tol=0.0, max_iter=10, weights_init=[0.108, 0.892],
        means_init=[[0.0086], [0.0086]], covariances_init=np.full((2, 1, 1), 1e-8),
        keep_history=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        est.fit(X)
    run = est.em_result_.best_run
    assert all(abs(p.weights.sum() - 1.0) <= 1e-15 for p in run.params_history[1:])
    trace = np.asarray(run.log_likelihood_history)
    assert np.all(np.diff(trace) >= -1e-12 * np.abs(trace[1:]))


def test_gmm_log_density_matches_the_formula():
    x, mu, S = np.array([[1.0, 2.0]]), np.array([0.0, 1.0]), np.array([[2.0, 0.3], [0.3, 1.0]])
    d = x[0] - mu
    expect = -np.log(2 * np.pi) - 0.5 * np.log(np.linalg.det(S)) - 0.5 * d @ np.linalg.solve(S, d)
    assert gaussian_log_density(x, mu, S)[0] == pytest.approx(expect)


def test_gmm_model_runs_on_the_generic_driver_with_restarts(blobs):
    X, _ = blobs
    res = run_em(GaussianMixtureEM(3), X, n_init=3, random_state=0)
    assert len(res.runs) == 3 and res.log_likelihood == max(r.log_likelihood for r in res.runs)


# ---------------------------------------------------------------------------
# DBSCAN and AGNES
# ---------------------------------------------------------------------------


def test_dbscan_core_border_noise():
    X = np.array([[0.0], [0.1], [0.2], [0.9], [5.0]])
    est = DBSCAN(0.3, min_pts=3, random_state=0).fit(X)
    assert est.is_core_.tolist() == [True, True, True, False, False]
    assert est.labels_.tolist() == [0, 0, 0, NOISE, NOISE]
    assert est.neighbourhood_sizes_.tolist() == [3, 3, 3, 1, 1]
    everyone = DBSCAN(0.01, min_pts=1).fit(X)  # MinPts = 1: every sample is a core
    assert everyone.n_clusters_ == 5


@pytest.mark.parametrize("d", [16, 40])
def test_high_dimensional_neighbourhoods_equal_the_k_d_tree(d):
    # above 15 dimensions the pairs come from matrix products; integer points put many
    # distances exactly on eps = 2, decided by the exact distance
    rng = np.random.default_rng(d)
    X = rng.integers(0, 2, size=(300, d)).astype(float)
    X[:20] = X[20:40]  # duplicates
    for eps in (2.0, math.sqrt(3.0), 2.5):
        ours = {tuple(p) for p in neighbour_pairs(X, eps).tolist()}
        tree = set(cKDTree(X).query_pairs(eps))
        assert ours == tree
    est = DBSCAN(2.0, min_pts=4, random_state=0).fit(X)
    ref = skc.DBSCAN(eps=2.0, min_samples=4).fit(X)
    assert np.array_equal(np.sort(est.core_sample_indices_), ref.core_sample_indices_)
    assert np.array_equal(est.labels_ == -1, ref.labels_ == -1)


def test_agnes_merges_the_closest_clusters_first():
    X = np.array([[0.0], [1.0], [5.0], [5.5], [20.0]])
    est = AGNES(2, linkage="single").fit(X)
    assert est.labels_.tolist() == [0, 0, 0, 0, 1]
    assert est.distances_.tolist() == [0.5, 1.0, 4.0]
    assert est.children_.tolist() == [[2, 3], [0, 1], [5, 6]]
    assert AGNES(5).fit(X).n_merges_ == 0


# ---------------------------------------------------------------------------
# Bad input
# ---------------------------------------------------------------------------

BAD_X = [np.array([[0.0, np.nan], [1.0, 1.0], [2.0, 2.0]]),
         np.array([[0.0, np.inf], [1.0, 1.0], [2.0, 2.0]]),
         np.zeros((0, 2))]
CLUSTERERS = [KMeans(2), GaussianMixtureClustering(2), DBSCAN(), AGNES(2)]


@pytest.mark.parametrize("est", CLUSTERERS, ids=lambda e: type(e).__name__)
@pytest.mark.parametrize("X", BAD_X, ids=["nan", "inf", "empty"])
def test_clusterers_refuse_bad_data(est, X):
    with pytest.raises(ValueError):
        est.fit(X)


@pytest.mark.parametrize(("est", "name"), [
    (KMeans(0), "n_clusters"), (KMeans(5), "n_clusters"), (KMeans(2, init="bogus"), "init"),
    (KMeans(2, init=np.zeros((3, 2))), "init"), (KMeans(2, max_iter=0), "max_iter"),
    (KMeans(2, tol=-1.0), "tol"), (KMeans(2, empty_cluster="drop"), "empty_cluster"),
    (GaussianMixtureClustering(0), "n_clusters"), (GaussianMixtureClustering(9), "n_clusters"),
    (GaussianMixtureClustering(2, reg_covar=-1e-3), "reg_covar"),
    (GaussianMixtureClustering(2, init_params="x"), "init_params"),
    (GaussianMixtureClustering(2, weights_init=[0.7, 0.7]), "weights_init"),
    (GaussianMixtureClustering(2, means_init=[[0.0]]), "means_init"),
    (GaussianMixtureClustering(2, covariances_init=np.zeros((2, 2, 2))), "covariances_init"),
    (GaussianMixtureClustering(2, tol=-1.0), "tol"),
    (DBSCAN(0.0), "eps"), (DBSCAN(-1.0), "eps"), (DBSCAN(min_pts=0), "min_pts"),
    (DBSCAN(p=0.5), "p"), (AGNES(0), "n_clusters"), (AGNES(2, linkage="ward"), "linkage"),
    (AGNES(2, p=0.5), "p"),
])
def test_bad_hyperparameters_are_named(est, name):
    X = np.arange(8.0).reshape(4, 2)
    with pytest.raises(ValueError, match=name):
        est.fit(X)


@pytest.mark.parametrize(("kwargs", "name"), [
    ({"learning_rate": 0.0}, "learning_rate"), ({"learning_rate": 1.0}, "learning_rate"),
    ({"max_iter": 0}, "max_iter"), ({"prototype_labels": ["z"]}, "prototype_labels"),
    ({"tol": -1.0}, "tol"),
])
def test_lvq_bad_hyperparameters_are_named(kwargs, name):
    X, y = np.arange(8.0).reshape(4, 2), np.array(["a", "a", "b", "b"])
    with pytest.raises(ValueError, match=name):
        LVQ(**kwargs).fit(X, y)


def test_lvq_refuses_one_class():
    with pytest.raises(ValueError, match="2 classes"):
        LVQ().fit(np.arange(8.0).reshape(4, 2), np.zeros(4))


@pytest.mark.parametrize(("call", "name"), [
    (lambda: pair_counts([0, 1], [0]), "same length"),
    (lambda: pair_counts([0, np.nan], [0, 1]), "labels"),
    (lambda: external_indices([[0, 1]], [0, 1]), "labels"),
    (lambda: davies_bouldin_index(np.zeros((3, 1)), [0, 0, 0]), "at least 2 clusters"),
    (lambda: davies_bouldin_index(np.zeros((2, 1)), [0, 1]), "0 / 0"),
    (lambda: dunn_index(np.zeros((2, 1)), [0, 1]), "0 / 0"),
    (lambda: cluster_geometry(np.zeros((3, 1)), [0, 1]), "labels"),
    (lambda: cluster_geometry(np.zeros((2, 1)), [0, 1], p=0.5), "p"),
    (lambda: minkowski_distance([0, 1], [0, 1], p=0), "p"),
    (lambda: minkowski_distance([0, 1], [0], p=2), "same number"),
    (lambda: minkowski_distance([0, 1], [0, 1], weights=[0.2, 0.2]), "weights"),
    (lambda: minkowski_distance([0, np.nan], [0, 1]), "x"),
    (lambda: value_difference("a", "z", ["a", "b"], [0, 1]), "not seen"),
    (lambda: value_profiles(["a", "b"], [0]), "same length"),
    (lambda: MixedDistance(3).fit(np.zeros((2, 2)), [0, 1]), "n_ordered"),
    (lambda: gaussian_log_density(np.zeros((1, 2)), np.zeros(2), np.zeros((2, 2))),
     "positive definite"),
])
def test_function_arguments_are_checked(call, name):
    with pytest.raises(ValueError, match=name):
        call()


def test_em_refuses_a_starting_point_with_a_singular_covariance():
    X = np.array([[0.0], [1.0], [2.0]])
    start = MixtureParams(np.array([0.5, 0.5]), np.array([[1.0], [0.0]]),
                          np.array([[[0.0]], [[1.0]]]))
    with pytest.raises(ValueError, match="finite log-likelihood"):
        run_em(GaussianMixtureEM(2), X, initial_params=[start])


# ---------------------------------------------------------------------------
# Magnitudes and exponents at the float64 limits
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("p", [100.0, 1e9, 1e300])
def test_large_exponents_match_the_scaled_pairwise_distance(p):
    """Above LARGE_P the p-th powers of scipy's distances under/overflow; the geometry,
    DBSCAN's pairs and AGNES use the scaled form of minkowski_distance instead."""
    rng = np.random.default_rng(1)
    X = rng.normal(size=(25, 3)) * 0.05
    lab = np.repeat([0, 1, 2], [8, 8, 9])

    def ref(A, B):
        return np.array([[minkowski_distance(a, b, p) for b in B] for a in A])

    parts = [X[lab == i] for i in range(3)]
    geo = cluster_geometry(X, lab, p=p)
    d_min = np.array([[ref(parts[i], parts[j]).min() if i != j else 0.0 for j in range(3)]
                      for i in range(3)])
    np.testing.assert_allclose(geo.d_min, d_min, rtol=1e-12)
    full = ref(X, X)
    expected = {(i, j) for i in range(25) for j in range(i + 1, 25) if full[i, j] <= 0.05}
    assert {tuple(q) for q in neighbour_pairs(X, 0.05, p).tolist()} == expected
    agnes = AGNES(n_clusters=1, linkage="single", p=p).fit(X)
    assert np.all(np.isfinite(agnes.distances_)) and np.all(agnes.distances_ > 0)


@pytest.mark.parametrize("factor", [1e300, 1e-300])
def test_distance_clusterings_are_exactly_scale_equivariant(factor):
    """Data divided by a power of two before the distances: the same labels, and the
    distances scaled back exactly, at x1e300 and x1e-300."""
    rng = np.random.default_rng(2)
    X = np.r_[rng.normal(size=(15, 2)), rng.normal(size=(15, 2)) + 5.0]
    a, b = AGNES(n_clusters=2).fit(X), AGNES(n_clusters=2).fit(X * factor)
    np.testing.assert_array_equal(a.labels_, b.labels_)
    np.testing.assert_allclose(b.distances_, a.distances_ * factor, rtol=1e-14)
    d = DBSCAN(eps=1.5, min_pts=3, random_state=0).fit(X)
    e = DBSCAN(eps=1.5 * factor, min_pts=3, random_state=0).fit(X * factor)
    np.testing.assert_array_equal(d.labels_, e.labels_)
    lab = a.labels_
    assert dunn_index(X * factor, lab) == pytest.approx(dunn_index(X, lab), rel=1e-12)
    assert davies_bouldin_index(X * factor, lab) == pytest.approx(
        davies_bouldin_index(X, lab), rel=1e-12)


@pytest.mark.parametrize("p", [2.0, 8.0, 50.0, 64.0])
def test_minkowski_matrices_do_not_underflow_below_the_large_p_path(p):
    # scipy sums |d_u|^p: at p = 64 two points 1e-6 apart came out at distance 0 (1e-384
    # underflows); entries below the underflow level are recomputed with scaled differences
    from algorithms.clustering._agnes import sample_distances
    from algorithms.clustering._distances import minkowski_matrix

    X = np.array([[0.0, 0.0], [1e-6, 0.0], [1.0, 1.0], [1.0, 1.0 + 3e-6], [0.5, 1e-200]])
    exact = np.array([[minkowski_distance(a, b, p) for b in X] for a in X])
    assert np.allclose(sample_distances(X, p), exact, rtol=1e-13, atol=0.0)
    assert np.allclose(minkowski_matrix(X[:2], X, p), exact[:2], rtol=1e-13, atol=0.0)
    est = AGNES(n_clusters=1, linkage="single", p=p).fit(X[:4])
    assert np.allclose(np.sort(est.distances_)[:2], [1e-6, 3e-6], rtol=1e-9, atol=0.0)


@pytest.mark.parametrize(("estimator", "documented"), [
    (KMeans, {"n_clusters": 8, "init": "random", "max_iter": 300, "tol": 0.0,
              "empty_cluster": "relocate", "keep_history": False, "random_state": None}),
    (AGNES, {"n_clusters": 2, "linkage": "average", "p": 2.0}),
    (DBSCAN, {"eps": 0.5, "min_pts": 5, "p": 2.0, "random_state": None}),
    (LVQ, {"prototype_labels": None, "learning_rate": 0.1, "max_iter": 5000, "tol": None,
           "keep_history": False, "random_state": None}),
    (GaussianMixtureClustering, {"n_clusters": 1, "reg_covar": 1e-6, "max_iter": 100,
                                 "tol": 1e-3, "n_init": 1, "init_params": "kmeans",
                                 "weights_init": None, "means_init": None,
                                 "covariances_init": None, "keep_history": False,
                                 "random_state": None}),
])
def test_documented_defaults(estimator, documented):
    # the notes fix none of these values (k is an input of Algorithm 1): the docstrings do
    assert estimator().get_params() == documented
    if estimator is KMeans:  # the default k is the one fitted
        X = np.arange(20.0).reshape(10, 2)
        assert np.unique(KMeans(random_state=0).fit(X).labels_).shape[0] == 8


@pytest.mark.parametrize(("off", "accepted"), [(9e-9, True), (1.1e-8, False)])
def test_weights_init_sum_slack_is_scikit_learns(off, accepted):
    # (7.18) asks for sum = 1 exactly; the rounding slack (1e-8) is scikit-learn's, whose
    # GaussianMixture decides the same way on the same weights
    from sklearn.mixture import GaussianMixture

    X = np.random.default_rng(0).normal(size=(30, 2))
    weights = [0.5, 0.5 + off]
    ours = GaussianMixtureClustering(2, weights_init=weights, random_state=0)
    theirs = GaussianMixture(2, weights_init=weights, random_state=0)
    for est in (ours, theirs):
        if accepted:
            est.fit(X)
        else:
            with pytest.raises(ValueError, match="weights_init|weights"):
                est.fit(X)


def test_documented_function_defaults():
    import inspect

    import algorithms.clustering as clustering

    documented = {"cluster_geometry": {"p": 2.0},
                  "davies_bouldin_index": {"p": 2.0, "scatter": "pairwise"},
                  "dunn_index": {"p": 2.0}, "minkowski_distance": {"p": 2.0, "weights": None},
                  "neighbour_pairs": {"p": 2.0}, "value_difference": {"p": 2.0}}
    for name, defaults in documented.items():
        params = inspect.signature(getattr(clustering, name)).parameters
        assert {k: params[k].default for k in defaults} == defaults, name
    # p = 2 is the Euclidean distance (7.12)
    assert minkowski_distance([0.0, 0.0], [3.0, 4.0]) == 5.0


@pytest.mark.parametrize("scale", [1.0, 1e300, 1e-300])
def test_kmeans_plusplus_returns_samples_at_any_scale(scale):
    # the seeding runs on X / s (s a power of two) and scales back exactly
    X = np.random.default_rng(5).normal(size=(30, 2)) * scale
    C = kmeans_plusplus(X, 4, np.random.default_rng(0))
    assert all(any(np.array_equal(c, x) for x in X) for c in C)
