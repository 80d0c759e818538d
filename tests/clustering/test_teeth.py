"""The clustering checks have teeth: the check bodies the claims use refute deliberately
broken variants (a wrong formula, a constant halved or doubled, a dropped factor, a broken
M-step, a misreported trace, a tampered record)."""

import math
import warnings

import numpy as np
import pytest
from hypothesis import example, given
from hypothesis import strategies as st

import algorithms.clustering._agnes as agnes_module
import algorithms.clustering._dbscan as dbscan_module
from algorithms.bayes import run_em
from algorithms.clustering import (
    AGNES,
    LVQ,
    ExternalIndices,
    GaussianMixtureEM,
    MixtureParams,
    PairCounts,
    cluster_geometry,
    davies_bouldin_index,
    dunn_index,
    external_indices,
    gaussian_log_density,
    minkowski_distance,
    pair_counts,
    sample_mixture,
)
from mltheory.testing import assert_holds, assert_refutes
from properties.clustering.agnes import check_agnes_merges
from properties.clustering.dbscan import (
    SHARED_BORDER,
    SHARED_EPS,
    _fit,
    check_closed_ball,
    check_dbscan_axioms,
)
from properties.clustering.gmm import (
    analytic_gradients,
    check_density,
    check_generative,
    check_gradient,
    check_ll_ceiling,
    check_posterior,
)
from properties.clustering.indices import (
    check_dbi,
    check_di,
    check_external_indices,
    check_geometry,
    check_pair_counts,
)
from properties.clustering.kmeans import check_mean_identity, check_relocation_count
from properties.clustering.lvq import check_lvq_run, check_lvq_stop
from properties.clustering.strategies import (
    GMMProblem,
    clusterings,
    gmm_problems,
    labellings,
    mixtures,
    point_sets,
    triples,
)
from properties.clustering.support import (
    KMeansTrace,
    check_em_trace,
    check_kmeans_trace,
    check_metric_axioms,
    kmeans_objective,
)

SEEDS = st.integers(0, 2**32 - 1)

# ---------------------------------------------------------------------------
# Indices
# ---------------------------------------------------------------------------


def test_pair_count_check_refutes_swapped_counts():
    def swapped(lam, ref):
        n = pair_counts(lam, ref)
        return PairCounts(a=n.a, b=n.c, c=n.b, d=n.d, m=n.m)

    @given(pair=labellings())
    def check(pair):
        check_pair_counts(*pair, counts=swapped)

    assert_refutes(check)


def test_external_check_refutes_an_arithmetic_mean_fmi():
    def arithmetic(lam, ref):
        idx = external_indices(lam, ref)
        c = idx.counts
        fmi = (c.a / (c.a + c.b) + c.a / (c.a + c.c)) / 2 if c.a else idx.fmi
        return ExternalIndices(idx.jc, fmi, idx.ri, c)

    @given(pair=labellings(), data=st.data())
    def check(pair, data):
        check_external_indices(*pair, data, indices=arithmetic)

    assert_refutes(check)


def test_geometry_check_refutes_avg_divided_by_size_squared():
    def broken(X, labels, p):
        geo = cluster_geometry(X, labels, p=p)
        factor = (geo.sizes - 1) / np.maximum(geo.sizes, 1)
        return type(geo)(**{**geo.__dict__, "avg": geo.avg * factor})

    @given(case=clusterings(), p=st.sampled_from([1.0, 2.0]))
    def check(case, p):
        check_geometry(*case, p, geometry=broken)

    assert_refutes(check)


def test_dbi_check_refutes_min_instead_of_max_and_unit_dependence():
    def with_min(X, labels):  # (7.9) with min_{j != i}
        geo = cluster_geometry(X, labels)
        ratio = (geo.avg[:, None] + geo.avg[None, :]) / np.where(geo.d_cen > 0, geo.d_cen, 1)
        np.fill_diagonal(ratio, np.inf)
        return float(np.mean(ratio.min(axis=1)))

    def unscaled(X, labels):  # a numerator not divided by a distance: unit-dependent
        return davies_bouldin_index(X, labels) * float(np.max(np.abs(X)))

    for broken in (with_min, unscaled):
        assert_refutes(_dbi_check(broken))


def _dbi_check(dbi):
    @given(case=clusterings(max_size=15), c=st.sampled_from([1e-3, 7.0]), seed=SEEDS)
    def check(case, c, seed):
        check_dbi(*case, c, seed, dbi=dbi)
    return check


def test_di_check_refutes_the_smallest_diameter():
    def smallest(X, labels):
        geo = cluster_geometry(X, labels)
        off = ~np.eye(geo.k, dtype=bool)
        return float(np.min(geo.d_min[off]) / max(np.min(geo.diam[geo.diam > 0]), 1e-300))

    @given(case=clusterings(max_size=15), c=st.sampled_from([1e-3, 7.0]), seed=SEEDS)
    def check(case, c, seed):
        check_di(*case, c, seed, di=smallest)

    assert_refutes(check)
    assert_holds(lambda: check_di(np.array([[0.0], [1.0], [4.0], [6.0]]),
                                  np.array([0, 0, 1, 1]), 2.0, 0, di=dunn_index))


# ---------------------------------------------------------------------------
# Distances
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("broken", [
    lambda a, b: minkowski_distance(a, b, 2) ** 2,  # the root dropped
    lambda a, b: minkowski_distance(a, b, 2) / 2 + float(np.sum(a - b)) / 4,  # asymmetric
    lambda a, b: minkowski_distance(a[:1], b[:1], 2),  # zero for distinct points
], ids=["squared", "asymmetric", "first-coordinate"])
def test_axiom_check_refutes_non_metrics(broken):
    @given(t=triples(max_dim=3))
    def check(t):
        check_metric_axioms(broken, t.x, t.y, t.z, same=lambda a, b: np.array_equal(a, b),
                            label="broken")

    assert_refutes(check)


# ---------------------------------------------------------------------------
# k-means
# ---------------------------------------------------------------------------


def _broken_lloyd(X, k, seed, *, update_scale=1.0, farthest=False, rounds=30, misreport=1.0,
                  empty_donor=False) -> KMeansTrace:
    """Lloyd with a broken step: means scaled about the origin after the update, or
    samples sent to their farthest mean; the objective optionally misreported. With
    ``empty_donor`` an extra mean far from the data stays empty until the first update
    step hands it a whole cluster, emptying that cluster (E unchanged: the cluster's mean
    goes with it, the emptied cluster keeps its old mean)."""
    rng = np.random.default_rng(seed)
    C = X[rng.choice(X.shape[0], size=k, replace=False)].astype(float)
    if empty_donor:
        C = np.vstack([C, X.mean(axis=0) + 1e3 * (1.0 + np.max(np.abs(X)))])
    objective, labels_h, centres_h = [], [], []
    converged = False
    for step in range(rounds):
        d2 = ((X[:, None] - C[None]) ** 2).sum(-1)
        lab = np.argmax(d2, 1) if farthest else np.argmin(d2, 1)
        objective.append(kmeans_objective(X, lab, C) * misreport)
        labels_h.append(lab)
        centres_h.append(C.copy())
        new = C.copy()
        if empty_donor and step == 0 and not np.any(lab == k):
            lab = np.where(lab == lab[0], k, lab)
        for c in np.unique(lab):
            new[c] = X[lab == c].mean(axis=0) * update_scale
        objective.append(kmeans_objective(X, lab, new) * misreport)
        labels_h.append(lab)
        centres_h.append(new.copy())
        if np.array_equal(new, C):
            converged = True
            break
        C = new
    return KMeansTrace(X, np.array(objective), np.array(labels_h), np.array(centres_h),
                       converged)


@pytest.mark.parametrize("kwargs", [{"update_scale": 1.5}, {"farthest": True},
                                    {"misreport": 0.5}, {"rounds": 1}, {"empty_donor": True}],
                         ids=["scaled-means", "farthest-mean", "halved-record", "cut-off",
                              "emptied-donor"])
def test_kmeans_trace_check_refutes_broken_loops(kwargs):
    @given(X=point_sets(min_size=4, kinds=("blobs",)), k=st.integers(2, 3), seed=SEEDS)
    def check(X, k, seed):
        check_kmeans_trace(_broken_lloyd(X, min(k, X.shape[0]), seed, **kwargs))

    assert_refutes(check)


def test_kmeans_trace_check_holds_for_the_unbroken_loop():
    @given(X=point_sets(min_size=4, kinds=("blobs",)), k=st.integers(2, 3), seed=SEEDS)
    def check(X, k, seed):
        check_kmeans_trace(_broken_lloyd(X, min(k, X.shape[0]), seed, rounds=500))

    assert_holds(check)


@pytest.mark.parametrize("offset", [-1, 1])
def test_relocation_count_check_refutes_a_miscount(offset):
    from algorithms.clustering import KMeans

    X = np.array([[0.0], [1.0], [2.0], [100.0]])
    est = KMeans(3, init=np.array([[1.0], [60.0], [1000.0]]), keep_history=True).fit(X)
    assert_holds(lambda: check_relocation_count(est))
    est.n_relocated_ += offset
    assert_refutes(lambda: check_relocation_count(est))


def test_mean_identity_check_refutes_dropped_cluster_sizes():
    @given(case=clusterings(), seed=SEEDS)
    def check(case, seed):
        check_mean_identity(*case, seed, weight=lambda lab: np.ones(int(lab.max()) + 1))

    assert_refutes(check)


# ---------------------------------------------------------------------------
# LVQ
# ---------------------------------------------------------------------------


def _lvq_case(seed):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(20, 2))
    y = np.where(X[:, 0] > 0, 1, 0)
    return X, y, LVQ(learning_rate=0.3, max_iter=40, keep_history=True,
                     random_state=seed).fit(X, y)


@pytest.mark.parametrize("tamper", ["double-step", "flip-agreement", "wrong-winner"])
def test_lvq_check_refutes_tampered_records(tamper):
    @given(seed=SEEDS)
    def check(seed):
        X, y, est = _lvq_case(seed)
        if tamper == "double-step":
            est.after_ = est.before_ + 2 * (est.after_ - est.before_)
        elif tamper == "flip-agreement":
            est.agreements_ = ~est.agreements_
        else:
            est.winners_ = (est.winners_ + 1) % est.prototypes_.shape[0]
        check_lvq_run(est, X, y, 0.3)

    assert_refutes(check)


def _lvq_tol(est, m):
    moves = np.linalg.norm(est.after_ - est.before_, axis=1)
    return float(np.median(np.convolve(moves, np.ones(m), "valid")))


@pytest.mark.parametrize("broken", ["not-reported", "stop-skipped", "stopped-early",
                                    "cut-off"])
def test_lvq_stop_check_refutes_a_wrong_stop(broken):
    @given(seed=SEEDS)
    def check(seed):
        X, y, est = _lvq_case(seed)
        m, tol = X.shape[0], _lvq_tol(est, X.shape[0])
        stopped = LVQ(learning_rate=0.3, max_iter=40, tol=tol, keep_history=True,
                      random_state=seed).fit(X, y)
        if broken == "not-reported":  # the tol stop reported as not converged
            stopped.converged_ = False
            check_lvq_stop(stopped, m, tol, 40)
        elif broken == "stop-skipped":  # ran on past the first window below tol
            check_lvq_stop(est, m, tol, 40)
        elif broken == "stopped-early":  # stopped where no window was below tol yet
            check_lvq_stop(stopped, m, tol / 2, 40)
        else:  # no tol, yet fewer than max_iter iterations
            check_lvq_stop(stopped, m, None, 40)

    assert_refutes(check)


def test_lvq_stop_check_holds_for_the_real_stop():
    @given(seed=SEEDS)
    def check(seed):
        X, y, est = _lvq_case(seed)
        check_lvq_stop(est, X.shape[0], None, 40)
        tol = _lvq_tol(est, X.shape[0])
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            stopped = LVQ(learning_rate=0.3, max_iter=40, tol=tol, keep_history=True,
                          random_state=seed).fit(X, y)
        check_lvq_stop(stopped, X.shape[0], tol, 40)

    assert_holds(check)


# ---------------------------------------------------------------------------
# Gaussian mixtures
# ---------------------------------------------------------------------------


class _BrokenMStep(GaussianMixtureEM):
    """The mixture model with one M-step error."""

    def __init__(self, k, kind, reg_covar=0.0):
        super().__init__(k, reg_covar=reg_covar)
        self.kind = kind

    def m_step(self, X, stats):
        new = super().m_step(X, stats)
        if self.kind == "doubled-covariance":
            return MixtureParams(new.weights, new.means, 2.0 * new.covariances)
        if self.kind == "shifted-means":  # mu' moved by one standard deviation
            sd = np.sqrt(np.einsum("kii->ki", new.covariances))
            return MixtureParams(new.weights, new.means + sd, new.covariances)
        return MixtureParams(np.roll(new.weights, 1), new.means, new.covariances)


@pytest.mark.parametrize("kind", ["doubled-covariance", "shifted-means", "rolled-weights"])
def test_em_trace_check_refutes_a_broken_m_step(kind):
    @given(problem=gmm_problems(kinds=("random", "far", "collapsed")))
    def check(problem):
        model = _BrokenMStep(problem.start.n_components, kind)
        run = run_em(model, problem.X, initial_params=[problem.start], max_iter=15, tol=0.0,
                     keep_params=True, warn=False).best_run
        check_em_trace(problem.X, run, reg_covar=0.0)

    assert_refutes(check)


def test_em_trace_check_refutes_a_misreported_trace():
    @given(problem=gmm_problems(kinds=("random",)))
    def check(problem):
        run = run_em(GaussianMixtureEM(problem.start.n_components, reg_covar=1e-6), problem.X,
                     initial_params=[problem.start], max_iter=5, tol=0.0, keep_params=True,
                     warn=False).best_run
        run.log_likelihood_history[-1] += 1e-3 * abs(run.log_likelihood_history[-1])
        check_em_trace(problem.X, run, reg_covar=1e-6)

    assert_refutes(check)


def test_regularised_em_can_lower_the_likelihood_so_the_deficit_is_needed():
    # The same runs as gmm.em_regularised_deficit, checked with no allowance: refuted,
    # so the covariance floor does lower LL at times and delta is not vacuous.
    @given(problem=gmm_problems(), eps=st.sampled_from([1e-3, 1e-1]))
    def check(problem, eps):
        run = run_em(GaussianMixtureEM(problem.start.n_components, reg_covar=eps), problem.X,
                     initial_params=[problem.start], max_iter=30, tol=0.0, keep_params=True,
                     warn=False).best_run
        check_em_trace(problem.X, run, reg_covar=0.0)

    assert_refutes(check)


@pytest.mark.parametrize(("factor", "two_pi"), [
    (0.25, 2 * np.pi),  # the exponent n/2 of the density ceiling halved
    (0.5 * 0.99, 2 * np.pi),  # tightened by 1 %
    (0.5, 4 * np.pi),  # the constant 2 pi doubled (ln(2 pi eps) is the tighter side)
    (0.5, 2 * np.pi * 1.01),  # the constant 2 pi raised by 1 %
], ids=["exponent-halved", "exponent-1pc", "2pi-doubled", "2pi-1pc"])
def test_ll_ceiling_check_refutes_every_tightened_constant(factor, two_pi):
    problem = GMMProblem(X=np.ones((6, 2)), start=MixtureParams(
        np.array([1.0]), np.array([[0.5, 0.5]]), np.eye(2)[None]), kind="all equal")
    assert_refutes(lambda: check_ll_ceiling(problem, 1e-3, factor=factor, two_pi=two_pi))
    assert_holds(lambda: check_ll_ceiling(problem, 1e-3))


@pytest.mark.parametrize("broken", [
    lambda X, mu, S: gaussian_log_density(X, mu, S) - 0.5 * np.log(np.linalg.det(S)),
    lambda X, mu, S: gaussian_log_density(X, mu, S / 2),
], ids=["det-power-1", "halved-covariance"])
def test_density_check_refutes_wrong_normalisation(broken):
    @given(mix=mixtures(max_components=1, max_dim=2), seed=SEEDS)
    def check(mix, seed):
        check_density(mix.means[0], mix.covariances[0], seed, logpdf=broken)

    assert_refutes(check)


def test_generative_check_refutes_uniform_component_choice():
    def uniform(mix, n, rng):
        return sample_mixture(MixtureParams(np.full(mix.n_components, 1 / mix.n_components),
                                            mix.means, mix.covariances), n, rng)

    assert_refutes(lambda rng, scale: check_generative(rng, scale, sampler=uniform))


def test_posterior_check_refutes_the_printed_normaliser():
    def printed(X, mix):  # every denominator term with Sigma_0 (the index error of (7.19))
        same = MixtureParams(mix.weights, mix.means,
                             np.broadcast_to(mix.covariances[0], mix.covariances.shape))
        stats_, ll = GaussianMixtureEM(mix.n_components).e_step(X, same)
        return stats_, ll

    @given(mix=mixtures(), seed=SEEDS)
    def check(mix, seed):
        check_posterior(mix, sample_mixture(mix, 10, np.random.default_rng(seed))[0],
                        e_step=printed)

    assert_refutes(check)


@pytest.mark.parametrize("what", ["mu", "sigma", "alpha"])
def test_gradient_check_refutes_a_dropped_factor(what):
    def broken(X, mix):
        gamma, g_mu, g_sigma, g_alpha = analytic_gradients(X, mix)
        if what == "mu":  # (7.22) itself: Sigma^(-1) dropped
            g_mu = np.array([gamma[:, i] @ (X - mix.means[i]) for i in range(mix.n_components)])
        elif what == "sigma":
            g_sigma = 2 * g_sigma  # the 1/2 dropped
        else:
            g_alpha = g_alpha * mix.weights  # the 1/alpha_i dropped
        return gamma, g_mu, g_sigma, g_alpha

    @given(mix=mixtures(), seed=SEEDS)
    def check(mix, seed):
        check_gradient(mix, seed, what, gradients=broken)

    assert_refutes(check)


# ---------------------------------------------------------------------------
# DBSCAN and AGNES
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("tamper", ["merge-clusters", "border-to-noise", "border-to-later"])
def test_dbscan_check_refutes_tampered_labels(tamper):
    eps, est = _fit(SHARED_BORDER, SHARED_EPS, 4, 0)
    labels = est.labels_.copy()
    if tamper == "merge-clusters":
        labels[labels == 1] = 0
    elif tamper == "border-to-noise":
        labels[4] = -1
    else:  # the shared border sample given to the later of its two clusters
        labels[4] = max(labels[3], labels[5])
    est.labels_ = labels
    assert_refutes(lambda: check_dbscan_axioms(est, SHARED_BORDER, eps, 4))


@pytest.mark.parametrize("dim", [2, 17])
def test_closed_ball_check_refutes_an_open_ball(monkeypatch, dim):
    real = dbscan_module._neighbour_pairs
    monkeypatch.setattr(dbscan_module, "_neighbour_pairs",
                        lambda X, eps, p: real(X, eps * (1 - 1e-9), p))
    assert_refutes(lambda: check_closed_ball(0, dim))


def test_dbscan_check_holds_for_the_shared_border_example():
    eps, est = _fit(SHARED_BORDER, SHARED_EPS, 4, 0)
    assert_holds(lambda: check_dbscan_axioms(est, SHARED_BORDER, eps, 4))


@pytest.mark.parametrize(("linkage", "broken"), [
    ("average", lambda da, db, na, nb: (da + db) / 2),  # unweighted (WPGMA)
    ("single", lambda da, db, na, nb: np.maximum(da, db)),
    ("complete", lambda da, db, na, nb: np.minimum(da, db)),
])
def test_agnes_check_refutes_a_wrong_lance_williams_update(monkeypatch, linkage, broken):
    monkeypatch.setattr(agnes_module, "_lance_williams",
                        lambda _linkage, da, db, na, nb: broken(da, db, na, nb))

    @given(X=point_sets(min_size=4, max_size=12, kinds=("blobs", "free")), k=st.integers(1, 3))
    @example(X=np.array([[0.0], [1.0], [1.5], [5.0], [9.0]]), k=1)
    def check(X, k):
        check_agnes_merges(AGNES(k, linkage=linkage).fit(X), X, linkage, k)

    assert_refutes(check)


@pytest.mark.parametrize("broken", ["sum-of-powers", "scaled-by-two"])
def test_agnes_check_refutes_distances_that_lose_small_differences(monkeypatch, broken):
    from scipy.spatial.distance import pdist, squareform

    from properties.clustering.agnes import MIXED_MAGNITUDES
    if broken == "sum-of-powers":  # scipy's sums of |d|^p alone: 1e-300 squared is 0
        monkeypatch.setattr(agnes_module, "sample_distances",
                            lambda X, p: squareform(pdist(X, "minkowski", p=p)))
    else:  # every data set divided by 2 and the distances doubled: 5e-324 / 2 is 0
        real = agnes_module.sample_distances
        monkeypatch.setattr(agnes_module, "sample_distances", lambda X, p: real(X / 2, p) * 2)

    @given(X=point_sets(min_size=4, max_size=12, kinds=("blobs", "free")))
    @example(X=MIXED_MAGNITUDES)
    def check(X):
        check_agnes_merges(AGNES(1, linkage="single").fit(X), X, "single", 1)

    assert_refutes(check)


def test_agnes_check_holds_for_the_real_updates():
    @given(X=point_sets(min_size=4, max_size=12), k=st.integers(1, 3))
    def check(X, k):
        check_agnes_merges(AGNES(k, linkage="average").fit(X), X, "average", k)

    assert_holds(check)


def test_pseudocode_rows_do_not_matter_for_a_symmetric_distance():
    # sanity of the literal runner used by agnes.renumbering_as_written
    from properties.clustering.support import notes_agnes_literal
    X = np.array([[0.0], [1.0], [3.0], [7.5], [11.0]])
    assert sorted(map(sorted, notes_agnes_literal(X, 2, "single"))) == [[0, 1, 2], [3, 4]]
    assert math.isfinite(dunn_index(X, [0, 0, 0, 1, 1]))
