"""Behaviour and bad input of the graph-based semi-supervised methods (003 §11.4)."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.datasets import make_moons
from sklearn.exceptions import ConvergenceWarning

from algorithms.semi_supervised import (
    LabelPropagation,
    LabelSpreading,
    affinity_matrix,
    graph_energy,
    harmonic_function,
    propagation_matrix,
    spread_labels,
)


def _moons():
    X, y = make_moons(200, noise=0.1, random_state=0)
    partial = np.full(200, -1)
    picked = np.r_[np.flatnonzero(y == 0)[:3], np.flatnonzero(y == 1)[:3]]
    partial[picked] = y[picked]
    return X, y, partial


def test_six_labels_label_two_moons():
    X, y, partial = _moons()
    prop = LabelPropagation(sigma=0.3).fit(X, partial)
    spread = LabelSpreading(alpha=0.5, sigma=0.3).fit(X, partial)
    assert np.mean(prop.transduction_ == y) >= 0.95
    assert np.mean(spread.transduction_ == y) >= 0.8
    labelled = partial >= 0
    # label propagation clamps the given labels; rows of its harmonic solution sum to 1
    assert np.array_equal(prop.transduction_[labelled], partial[labelled])
    np.testing.assert_allclose(prop.label_distributions_.sum(axis=1), 1.0, atol=1e-12)
    np.testing.assert_allclose(spread.label_distributions_.sum(axis=1), 1.0, atol=1e-12)


def test_iterative_and_closed_form_agree_and_the_trace_shrinks():
    X, _, partial = _moons()
    it = LabelSpreading(alpha=0.9, sigma=0.3, tol=1e-12, max_iter=5000).fit(X, partial)
    cf = LabelSpreading(alpha=0.9, sigma=0.3, method="closed_form").fit(X, partial)
    assert it.converged_ and cf.n_iter_ == 0
    np.testing.assert_allclose(it.F_, cf.F_, atol=1e-10)
    assert np.all(np.diff(it.deltas_) <= 0)
    assert it.deltas_[-1] <= 1e-12 < it.deltas_[-2]


def test_knn_graph_is_sparse_symmetric_and_agrees_with_its_dense_copy():
    X, _, partial = _moons()
    W = affinity_matrix(X, sigma=0.3, n_neighbors=5)
    assert sp.issparse(W)
    assert abs(W - W.T).max() == 0.0
    assert np.all(np.diff(W.indptr) >= 5) and W.diagonal().max() == 0.0
    sparse_fit = LabelSpreading(sigma=0.3, n_neighbors=5, method="closed_form").fit(X, partial)
    dense_F = spread_labels(propagation_matrix(W.toarray()),
                            np.eye(2)[np.where(partial >= 0, partial, 0)] * (partial >= 0)[:, None],
                            0.2, method="closed_form").F
    np.testing.assert_allclose(sparse_fit.F_, dense_F, atol=1e-10)
    harmonic_sparse = LabelPropagation(sigma=0.3, n_neighbors=5).fit(X, partial)
    assert np.mean(harmonic_sparse.transduction_ == make_moons(200, noise=0.1,
                                                                random_state=0)[1]) >= 0.9


def test_disconnected_unlabelled_component_is_refused():
    X = np.r_[np.zeros((3, 2)), np.full((3, 2), 100.0)]
    y = np.array([0, 1, -1, -1, -1, -1])
    for est in (LabelPropagation(), LabelSpreading()):
        with pytest.raises(ValueError, match="component.*without a labelled sample"):
            est.fit(X, y)
    X2 = np.r_[np.zeros((3, 2)), np.full((3, 2), 100.0)]
    y2 = np.array([0, -1, -1, 1, -1, -1])           # each component labelled: fine
    assert LabelPropagation().fit(X2, y2).transduction_.tolist() == [0, 0, 0, 1, 1, 1]


@pytest.mark.parametrize("bad, match", [
    ({"sigma": 0.0}, "sigma"), ({"alpha": 1.0}, "alpha"), ({"alpha": 0.0}, "alpha"),
    ({"method": "exact"}, "method"), ({"max_iter": 0}, "max_iter"), ({"tol": -1.0}, "tol"),
    ({"n_neighbors": 0}, "n_neighbors"), ({"n_neighbors": 200}, "n_neighbors"),
])
def test_bad_hyperparameters_are_named(bad, match):
    X, _, partial = _moons()
    with pytest.raises(ValueError, match=match):
        LabelSpreading(**bad).fit(X, partial)


def test_bad_labels_are_named():
    X, _, _ = _moons()
    with pytest.raises(ValueError, match="no labelled sample"):
        LabelSpreading().fit(X, np.full(200, -1))
    with pytest.raises(ValueError, match="at least 2 classes"):
        LabelPropagation().fit(X, np.r_[0, np.full(199, -1)])
    with pytest.raises(ValueError, match="NaN"):
        LabelPropagation().fit(X, np.r_[0.0, 1.0, np.nan, np.full(197, -1.0)])


def test_string_labels_are_all_labelled():
    X, y, _ = _moons()
    names = np.array(["left", "right"])[y]
    est = LabelSpreading(sigma=0.3).fit(X, names)
    assert set(est.classes_) == {"left", "right"}
    assert np.mean(est.predict(X) == names) > 0.9


def test_not_converging_warns():
    X, _, partial = _moons()
    with pytest.warns(ConvergenceWarning, match="did not converge"):
        est = LabelSpreading(alpha=0.99, max_iter=2).fit(X, partial)
    assert not est.converged_ and est.n_iter_ == 2


def test_new_points_far_from_the_data_take_their_nearest_sample():
    X, _, partial = _moons()
    est = LabelSpreading(sigma=0.3).fit(X, partial)
    far = np.array([[1e6, 0.0]])
    nearest = np.argmin(np.sum((X - far) ** 2, axis=1))
    np.testing.assert_allclose(est.predict_proba(far)[0], est.label_distributions_[nearest])


def test_sparse_graph_solves_converge_by_conjugate_gradients(monkeypatch):
    # on a k-NN graph every linear solve converges by CG within its cap of 10 n
    # iterations; the sparse LU fallback is for columns that do not
    import algorithms.semi_supervised._graph as graph_module

    def no_fallback(*args, **kwargs):
        raise AssertionError("a CG solve did not converge and fell back to sparse LU")

    monkeypatch.setattr(graph_module, "spsolve", no_fallback)
    X, y, partial = _moons()
    prop = LabelPropagation(sigma=0.3, n_neighbors=10).fit(X, partial)
    spread = LabelSpreading(sigma=0.3, n_neighbors=10, method="closed_form").fit(X, partial)
    assert np.mean(prop.transduction_ == y) >= 0.9
    iterated = LabelSpreading(sigma=0.3, n_neighbors=10, tol=1e-12, max_iter=5000).fit(
        X, partial)
    np.testing.assert_allclose(spread.F_, iterated.F_, atol=1e-9)


def test_graph_functions():
    rng = np.random.default_rng(0)
    A = rng.uniform(size=(5, 5))
    W = A + A.T
    np.fill_diagonal(W, 0.0)
    f = rng.normal(size=5)
    direct = 0.5 * sum(W[i, j] * (f[i] - f[j]) ** 2 for i in range(5) for j in range(5))
    assert graph_energy(W, f) == pytest.approx(direct, rel=1e-12)
    assert graph_energy(W, np.ones(5)) == pytest.approx(0.0, abs=1e-12)
    lab = np.array([True, True, False, False, False])
    h = harmonic_function(W, lab, np.array([1.0, -1.0]))
    assert h[0] == 1.0 and h[1] == -1.0 and np.all(np.abs(h[2:]) < 1)
    with pytest.raises(ValueError, match="degree 0"):
        propagation_matrix(np.zeros((3, 3)))
    with pytest.raises(ValueError, match="symmetric"):
        graph_energy(np.triu(W), f)
    with pytest.raises(ValueError, match="diverged|propagation matrix"):
        spread_labels(3.0 * propagation_matrix(W), np.eye(5)[:, :2], 0.9)


# ---------------------------------------------------------------------------
# §11.2 generative method
# ---------------------------------------------------------------------------


def _blobs(n_labelled_per_class=3, n=400, seed=0):
    rng = np.random.default_rng(seed)
    y = np.arange(n) % 2
    X = rng.normal(size=(n, 2)) + 2.5 * y[:, None]
    partial = np.full(n, -1)
    partial[: 2 * n_labelled_per_class] = y[: 2 * n_labelled_per_class]
    return X, y, partial


def test_unlabelled_samples_improve_the_mixture():
    from algorithms.semi_supervised import SemiSupervisedGaussianMixture

    X, y, partial = _blobs()
    est = SemiSupervisedGaussianMixture().fit(X, partial)
    assert est.converged_ and np.all(np.diff(est.log_likelihood_history_) >= -1e-9)
    assert np.mean(est.predict(X) == y) >= 0.9
    np.testing.assert_allclose(est.predict_proba(X).sum(axis=1), 1.0)
    np.testing.assert_allclose(est.weights_, [0.5, 0.5], atol=0.06)
    np.testing.assert_allclose(est.means_, [[0, 0], [2.5, 2.5]], atol=0.3)
    assert est.score_samples(X[:3]).shape == (3,)


def test_generative_bad_input_and_non_convergence():
    from algorithms.semi_supervised import SemiSupervisedGaussianMixture

    X, _, partial = _blobs()
    with pytest.raises(ValueError, match="no labelled sample"):
        SemiSupervisedGaussianMixture().fit(X, np.full(X.shape[0], -1))
    with pytest.raises(ValueError, match="reg_covar"):
        SemiSupervisedGaussianMixture(reg_covar=-1.0).fit(X, partial)
    with pytest.raises(ValueError, match="max_iter"):
        SemiSupervisedGaussianMixture(max_iter=0).fit(X, partial)
    with pytest.warns(ConvergenceWarning, match="did not converge"):
        est = SemiSupervisedGaussianMixture(max_iter=1, tol=0.0).fit(X, partial)
    assert not est.converged_ and est.n_iter_ == 1
    with pytest.raises(ValueError, match="X"):
        est.predict(np.full((1, 2), 1e200))


# ---------------------------------------------------------------------------
# §11.6 constrained clustering
# ---------------------------------------------------------------------------


def _two_groups():
    rng = np.random.default_rng(0)
    return np.r_[rng.normal(size=(30, 2)), rng.normal(size=(30, 2)) + 5]


def test_constraints_override_geometry():
    from algorithms.semi_supervised import ConstrainedKMeans

    X = _two_groups()
    init = X[[0, 40]]
    free = ConstrainedKMeans(2, init=init).fit(X)
    assert free.converged_ and len(set(free.labels_[:30])) == 1
    est = ConstrainedKMeans(2, init=init).fit(X, must_link=[[0, 45]], cannot_link=[[1, 2]])
    assert est.labels_[0] == est.labels_[45] and est.labels_[1] != est.labels_[2]
    assert len(est.means_history_) == est.n_iter_ + 1
    assert est.objective_history_.shape == (est.n_iter_,)
    assert set(est.predict(X[:5])) <= {0, 1}


def test_constrained_kmeans_defaults_to_two_clusters_and_flags_an_unfinished_run():
    from algorithms.semi_supervised import ConstrainedKMeans

    X = _two_groups()
    est = ConstrainedKMeans(random_state=0).fit(X)
    assert est.cluster_centers_.shape == (2, 2) and set(est.labels_) == {0, 1}
    assert est.converged_
    # both starting means in the first group: they move in the first pass, which the cap
    # of one pass ends before the means settle
    with pytest.warns(ConvergenceWarning, match="max_iter=1"):
        cut = ConstrainedKMeans(2, init=X[[0, 1]], max_iter=1).fit(X)
    assert not cut.converged_ and cut.n_iter_ == 1
    assert not np.array_equal(cut.means_history_[-1], cut.means_history_[-2])


def test_constrained_kmeans_reports_failure_and_bad_pairs():
    from algorithms.semi_supervised import ConstrainedKMeans, InfeasibleConstraintsError

    X = np.array([[0.0, 0.0], [10.0, 0.0], [5.0, 1.0]])
    with pytest.raises(InfeasibleConstraintsError, match="sample 2"):
        ConstrainedKMeans(2, init=X[:2]).fit(X, cannot_link=[[0, 2], [1, 2]])
    assert issubclass(InfeasibleConstraintsError, ValueError)
    for bad, match in (([[0, 0]], "itself"), ([[0, 3]], "outside"), ([[0.5, 1.0]], "indices"),
                       ([0, 1], "n_pairs, 2")):
        with pytest.raises(ValueError, match=match):
            ConstrainedKMeans(2).fit(X, must_link=bad)
    with pytest.raises(ValueError, match="n_clusters"):
        ConstrainedKMeans(4).fit(X)
    with pytest.raises(ValueError, match="init"):
        ConstrainedKMeans(2, init="k-means++").fit(X)


def test_seed_kmeans_keeps_its_seeds_and_labels_new_points():
    from algorithms.semi_supervised import ConstrainedSeedKMeans

    X = _two_groups()
    y = np.full(60, -1)
    y[[0, 1, 30, 31]] = [7, 7, 9, 9]
    est = ConstrainedSeedKMeans().fit(X, y)
    assert est.classes_.tolist() == [7, 9] and est.converged_
    assert np.mean(est.predict(X) == np.repeat([7, 9], 30)) == 1.0
    assert np.all(np.diff(est.objective_history_) <= 1e-12)
    # a seed placed on the wrong side stays in its cluster anyway
    y[5] = 9
    est = ConstrainedSeedKMeans().fit(X, y)
    assert est.labels_[5] == 1
    with pytest.warns(ConvergenceWarning):
        ConstrainedSeedKMeans(max_iter=1).fit(X + np.arange(60)[:, None] * 0.01,
                                              np.r_[0, 1, np.full(58, -1)])


# ---------------------------------------------------------------------------
# §11.3 TSVM
# ---------------------------------------------------------------------------


def test_tsvm_uses_the_unlabelled_samples():
    from algorithms.semi_supervised import TSVM

    rng = np.random.default_rng(0)
    y = np.arange(200) % 2
    X = rng.normal(size=(200, 2)) + 3.0 * y[:, None] * np.array([1.0, 0.0])
    partial = np.full(200, -1)
    partial[:4] = y[:4]
    est = TSVM().fit(X, partial)
    assert np.mean(est.transduction_ == y) >= 0.85
    assert est.n_swaps_ >= 1 and est.n_iter_ == len(est.solves_)
    assert [s.C_u for s in est.solves_ if s.swapped is None][1:3] == [1e-3, 2e-3]
    objectives = [s.objective for s in est.solves_]
    for t, s in enumerate(est.solves_):
        if s.swapped is not None:
            assert s.objective < objectives[t - 1]
    assert np.array_equal(est.predict(X[:10]), np.where(est.decision_function(X[:10]) > 0,
                                                         est.classes_[1], est.classes_[0]))
    rbf = TSVM(kernel="rbf", gamma=0.5).fit(X, partial)
    assert np.mean(rbf.transduction_ == y) >= 0.8


def test_tsvm_bad_input():
    from algorithms.semi_supervised import TSVM

    X = np.random.default_rng(0).normal(size=(10, 2))
    with pytest.raises(ValueError, match="binary|at most 2"):
        TSVM().fit(X, np.r_[0, 1, 2, np.full(7, -1)])
    with pytest.raises(ValueError, match="C_l"):
        TSVM(C_l=0.0).fit(X, np.r_[0, 1, np.full(8, -1)])
    with pytest.raises(ValueError, match="kernel"):
        TSVM(kernel="poly").fit(X, np.r_[0, 1, np.full(8, -1)])
    # C_u_init >= C_l: no unlabelled stage, the labelled SVM's guesses stand
    est = TSVM(C_u_init=2.0).fit(X, np.r_[0, 1, np.full(8, -1)])
    assert len(est.solves_) == 1


# ---------------------------------------------------------------------------
# §11.5 co-training
# ---------------------------------------------------------------------------


def test_cotraining_lifts_two_weak_views():
    from algorithms.bayes import NaiveBayesClassifier
    from algorithms.semi_supervised import CoTraining

    rng = np.random.default_rng(1)
    y = rng.integers(0, 2, 800)
    X = rng.normal(size=(800, 4)) + 1.5 * y[:, None]
    partial = np.full(800, -1)
    lab = np.r_[np.flatnonzero(y == 0)[:3], np.flatnonzero(y == 1)[:3]]
    partial[lab] = y[lab]
    est = CoTraining(view=np.array([0, 1]), n_rounds=50, random_state=0).fit(X, partial)
    base = CoTraining(view=np.array([0, 1]), n_rounds=0).fit(X, partial)
    assert np.mean(est.predict(X) == y) > np.mean(base.predict(X) == y)
    assert est.n_iter_ == len(est.rounds_) <= 50
    assert all(len(r.picked) == 2 for r in est.rounds_)
    assert isinstance(est.estimators_[0], NaiveBayesClassifier)
    np.testing.assert_allclose(est.predict_proba(X[:5]).sum(axis=1), 1.0)


def test_cotraining_bad_input():
    from algorithms.semi_supervised import CoTraining

    X = np.random.default_rng(0).normal(size=(20, 4))
    y = np.r_[0, 1, np.full(18, -1)]
    with pytest.raises(ValueError, match="view"):
        CoTraining(view=np.array([4])).fit(X, y)
    with pytest.raises(ValueError, match="estimator"):
        CoTraining(estimator="nb").fit(X, y)
    with pytest.raises(ValueError, match="pool_size"):
        CoTraining(pool_size=0).fit(X, y)
    with pytest.raises(ValueError, match="at most 2|binary"):
        CoTraining().fit(X, np.r_[0, 1, 2, np.full(17, -1)])


# ---------------------------------------------------------------------------
# §11.1 active learning
# ---------------------------------------------------------------------------


def test_active_learning_beats_random_queries_on_two_moons():
    from algorithms.bayes import NaiveBayesClassifier
    from algorithms.semi_supervised import active_learning, uncertainty

    X, y, _ = _moons()
    start = np.r_[np.flatnonzero(y == 0)[:1], np.flatnonzero(y == 1)[:1]]
    res = active_learning(NaiveBayesClassifier(), X, y, start, n_queries=10)
    assert res.n_oracle_calls == 12 and res.queried.size == 10
    assert np.array_equal(res.labels, y[res.labelled])
    np.testing.assert_array_equal(res.chosen_uncertainty, res.max_uncertainty)
    u = uncertainty(res.estimator, X)
    assert u.shape == (200,) and np.all((u >= 0) & (u <= 0.5))
    rnd = active_learning(NaiveBayesClassifier(), X, y, start, n_queries=10,
                          strategy="random", random_state=0)
    assert np.all(np.isnan(rnd.chosen_uncertainty))


def test_active_learning_bad_input():
    from algorithms.bayes import NaiveBayesClassifier
    from algorithms.semi_supervised import active_learning

    X, y, _ = _moons()
    nb = NaiveBayesClassifier()
    with pytest.raises(ValueError, match="n_queries"):
        active_learning(nb, X, y, np.array([0, 1]), n_queries=199)
    with pytest.raises(ValueError, match="initial"):
        active_learning(nb, X, y, np.array([0, 0]), n_queries=1)
    with pytest.raises(ValueError, match="oracle"):
        active_learning(nb, X, y[:5], np.array([0, 1]), n_queries=1)
    with pytest.raises(ValueError, match="strategy"):
        active_learning(nb, X, y, np.array([0, 1]), n_queries=1, strategy="margin")
