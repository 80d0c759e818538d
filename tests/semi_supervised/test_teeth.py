"""Every check of properties/semi_supervised refutes a deliberately broken variant (a
constant halved, a sign or an index wrong) and holds for the unbroken code."""

from __future__ import annotations

import numpy as np
import pytest

import algorithms.semi_supervised._active as active_module
import algorithms.semi_supervised._constrained as constrained_module
import algorithms.semi_supervised._generative as generative_module
import algorithms.semi_supervised._graph as graph_module
import properties.semi_supervised.active as act_claims
import properties.semi_supervised.constrained as cons_claims
import properties.semi_supervised.cotraining as cot_claims
import properties.semi_supervised.generative as gen_claims
import properties.semi_supervised.graph as claims
import properties.semi_supervised.tsvm as tsvm_claims
from algorithms.clustering import MixtureParams
from algorithms.semi_supervised import TSVM, CoTraining, LabelSpreading
from mltheory.testing import assert_refutes

X3 = np.array([[0.0], [0.4], [1.0], [0.7]])
CODES = np.array([0, 1, -1, -1])


def _graph():
    rng = np.random.default_rng(0)
    A = rng.uniform(size=(5, 5))
    W = A + A.T
    np.fill_diagonal(W, 0.0)
    return W, rng.normal(size=5), np.array([True, False, True, False, False])


def test_energy_check_holds_and_refutes_a_halved_energy(monkeypatch):
    W, f, _ = _graph()
    claims.check_energy_identities(W, f)
    monkeypatch.setattr(claims, "graph_energy", lambda W, f: 0.5 * graph_module.graph_energy(W, f))
    with pytest.raises(AssertionError, match="graph_energy"):
        claims.check_energy_identities(W, f)


def test_block_energy_check_refutes_a_halved_reference(monkeypatch):
    W, f, lab = _graph()
    claims.check_block_energy(W, f, lab)
    real = claims.energy_by_double_sum
    monkeypatch.setattr(claims, "energy_by_double_sum", lambda W, f: 0.5 * real(W, f))
    with pytest.raises(AssertionError):
        claims.check_block_energy(W, f, lab)


def test_printed_block_energy_is_refuted_whenever_the_energy_is_not_zero():
    W, f, lab = _graph()
    with pytest.raises(AssertionError, match="as printed"):
        claims.check_block_energy_as_printed(W, f, lab)
    claims.check_block_energy_as_printed(W, np.ones(5), lab)   # E = 0: nothing to see


@pytest.mark.parametrize("factor", [0.5, -1.0])
def test_harmonic_check_refutes_a_scaled_solution(monkeypatch, factor):
    claims.check_harmonic(X3, CODES, 1.0)
    real = graph_module._harmonic
    monkeypatch.setattr(graph_module, "_harmonic",
                        lambda W, lab, F: factor * real(W, lab, F) + (1 - factor) / 2)
    with pytest.raises(AssertionError):
        claims.check_harmonic(X3, CODES, 1.0)


def test_harmonic_check_refutes_p_from_column_sums(monkeypatch):
    """(11.11) with D^-1 applied from the wrong side, P = W D^-1, in the library."""
    def wrong(W, lab, F):
        d = W.sum(axis=1)
        u, lb = np.flatnonzero(~lab), np.flatnonzero(lab)
        P = W / d[None, :]
        return np.linalg.solve(np.eye(u.size) - P[np.ix_(u, u)], P[np.ix_(u, lb)] @ F)
    monkeypatch.setattr(graph_module, "_harmonic", wrong)
    with pytest.raises(AssertionError):
        claims.check_harmonic(np.array([[0.0], [0.3], [1.0], [1.9], [0.1]]),
                              np.array([0, 1, -1, -1, -1]), 1.0)


@pytest.mark.parametrize("factor", [0.5, 2.0])
def test_spectrum_check_refutes_a_scaled_s(monkeypatch, factor):
    claims.check_spectrum(X3, 1.0)
    real = graph_module.propagation_matrix
    monkeypatch.setattr(claims, "propagation_matrix", lambda W: factor * real(W))
    with pytest.raises(AssertionError):
        claims.check_spectrum(X3, 1.0)


def test_spreading_check_refutes_a_halved_label_term(monkeypatch):
    claims.check_spreading(X3, CODES, 1.0, 0.5, 0)
    real = graph_module._spread

    def broken(S, Y, alpha, F0, method, max_iter, tol):
        return real(S, 0.5 * Y, alpha, None if F0 is None else F0, method, max_iter, tol)
    monkeypatch.setattr(graph_module, "_spread", broken)
    with pytest.raises(AssertionError):
        claims.check_spreading(X3, CODES, 1.0, 0.5, 0)


def test_spreading_check_refutes_a_slower_recorded_contraction(monkeypatch):
    """The recorded changes shrinking by less than alpha per step are refuted."""
    real = claims.spread_labels

    def slow(*args, **kwargs):
        out = real(*args, **kwargs)
        out.deltas = out.deltas * 1.5 ** np.arange(out.deltas.size)
        return out
    monkeypatch.setattr(claims, "spread_labels", slow)
    with pytest.raises(AssertionError, match="0.75.* <= 0.5"):
        claims.check_spreading(X3, CODES, 1.0, 0.5, 0)


def test_regulariser_check_refutes_a_halved_mu(monkeypatch):
    claims.check_regulariser(X3, CODES, 1.0, 0.5, over_all=True)
    real = claims.minimise_11_16
    monkeypatch.setattr(claims, "minimise_11_16",
                        lambda S, Y, mu, rows: real(S, Y, 0.5 * mu, rows))
    with pytest.raises(AssertionError):
        claims.check_regulariser(X3, CODES, 1.0, 0.5, over_all=True)


def test_regulariser_as_printed_is_refuted_on_the_shrunk_example():
    with pytest.raises(AssertionError, match="labelled"):
        claims.check_regulariser(np.zeros((3, 1)), np.array([0, 1, -1]), 1.0, 0.2,
                                 over_all=False)


def test_sklearn_check_refutes_a_halved_alpha(monkeypatch):
    claims.check_against_sklearn(X3, CODES, 1.0, 0.5)

    class Halved(LabelSpreading):
        def fit(self, X, y):
            self.alpha = self.alpha / 2
            return super().fit(X, y)
    monkeypatch.setattr(claims, "LabelSpreading", Halved)
    with pytest.raises(AssertionError, match="scikit-learn"):
        claims.check_against_sklearn(X3, CODES, 1.0, 0.5)


# ---------------------------------------------------------------------------
# §11.2 generative method
# ---------------------------------------------------------------------------


def _problem(seed=0):
    rng = np.random.default_rng(seed)
    X = np.r_[rng.normal(size=(5, 2)), rng.normal(size=(5, 2)) + 2, rng.normal(size=(30, 2))]
    codes = np.r_[np.zeros(5, int), np.ones(5, int), -np.ones(30, int)]
    return X, codes


def _broken_m_step(kind):
    real = generative_module.SemiSupervisedGaussianEM.m_step

    def m_step(self, data, stats):
        p = real(self, data, stats)
        if kind == "labelled not counted in alpha":
            lab = data.codes >= 0
            n_u = stats.resp[~lab].sum(axis=0)
            w = n_u / data.X.shape[0]
            return MixtureParams(w / w.sum(), p.means, p.covariances)
        if kind == "covariance halved":
            return MixtureParams(p.weights, p.means, 0.5 * p.covariances)
        return MixtureParams(p.weights, p.means + 0.5 * np.std(data.X, axis=0), p.covariances)
    return m_step


@pytest.mark.parametrize("kind", ["labelled not counted in alpha", "covariance halved",
                                  "means shifted"])
def test_em_step_check_refutes_a_broken_m_step(monkeypatch, kind):
    X, codes = _problem()
    gen_claims.check_em_steps(X, codes)
    monkeypatch.setattr(generative_module.SemiSupervisedGaussianEM, "m_step",
                        _broken_m_step(kind))
    with pytest.raises(AssertionError, match="vs \\(11.6\\)"):
        gen_claims.check_em_steps(X, codes)


def test_em_step_check_refutes_a_halved_recorded_likelihood(monkeypatch):
    X, codes = _problem()
    real = generative_module.SemiSupervisedGaussianEM.e_step

    def e_step(self, data, params):
        stats, ll = real(self, data, params)
        return stats, 0.5 * ll
    monkeypatch.setattr(generative_module.SemiSupervisedGaussianEM, "e_step", e_step)
    with pytest.raises(AssertionError, match="11.4"):
        gen_claims.check_em_steps(X, codes)


def test_monotone_check_refutes_a_covariance_halving_m_step(monkeypatch):
    X, codes = _problem()
    gen_claims.check_monotone(X, codes)
    monkeypatch.setattr(generative_module.SemiSupervisedGaussianEM, "m_step",
                        _broken_m_step("covariance halved"))
    with pytest.raises(AssertionError, match="lowers"):
        gen_claims.check_monotone(X, codes)


def test_classification_check_refutes_a_flipped_prediction(monkeypatch):
    X, codes = _problem()
    gen_claims.check_classification(X, codes)
    real = generative_module.SemiSupervisedGaussianMixture.predict
    monkeypatch.setattr(generative_module.SemiSupervisedGaussianMixture, "predict",
                        lambda self, X: self.classes_[::-1][
                            np.searchsorted(self.classes_, real(self, X))])
    with pytest.raises(AssertionError):
        gen_claims.check_classification(X, codes)


@pytest.mark.parametrize("jitter", [0.0, gen_claims.DEFAULT_JITTER])
def test_default_jitter_check_holds_from_no_jitter_up_to_its_bound(jitter):
    X, codes = _problem()
    lab = codes >= 0
    gen_claims.check_default_jitter(
        X[lab], codes[lab],
        lambda: generative_module.SemiSupervisedGaussianMixture(reg_covar=jitter))


@pytest.mark.parametrize("jitter", [2 * gen_claims.DEFAULT_JITTER, 1.0])
def test_default_jitter_check_refutes_a_larger_jitter(jitter):
    X, codes = _problem()
    lab = codes >= 0
    with pytest.raises(AssertionError, match="covariance diagonal"):
        gen_claims.check_default_jitter(
            X[lab], codes[lab],
            lambda: generative_module.SemiSupervisedGaussianMixture(reg_covar=jitter))


# ---------------------------------------------------------------------------
# §11.6 constrained clustering
# ---------------------------------------------------------------------------

PAIRS_X = np.array([[0.0, 0.0], [1.0, 0.0], [5.0, 0.0], [6.0, 0.5], [0.5, 2.0]])
NO_PAIRS = np.empty((0, 2), np.intp)


def test_constraint_check_refutes_a_pass_that_ignores_cannot_link(monkeypatch):
    cannot = np.array([[0, 1]])
    cons_claims.check_constrained(PAIRS_X, 2, NO_PAIRS, cannot, PAIRS_X[[0, 2]])
    real = constrained_module.ConstrainedKMeans._assign
    monkeypatch.setattr(constrained_module.ConstrainedKMeans, "_assign",
                        staticmethod(lambda X, means, must, cannot: real(
                            X, means, must, [np.empty(0, np.intp)] * len(X))))
    with pytest.raises(AssertionError):
        cons_claims.check_constrained(PAIRS_X, 2, NO_PAIRS, cannot, PAIRS_X[[0, 2]])


def test_constraint_check_refutes_a_second_nearest_choice(monkeypatch):
    """The pass takes the farthest allowed cluster instead of the nearest."""
    real = constrained_module.cdist
    monkeypatch.setattr(constrained_module, "cdist", lambda A, B, metric: -real(A, B, metric))
    with pytest.raises(AssertionError):
        cons_claims.check_constrained(PAIRS_X, 2, NO_PAIRS, NO_PAIRS, PAIRS_X[[0, 2]])


def test_reduces_to_kmeans_check_refutes_halved_means(monkeypatch):
    rng = np.random.default_rng(3)
    X = np.r_[rng.normal(size=(10, 2)), rng.normal(size=(10, 2)) + 3]
    assert cons_claims.check_reduces_to_kmeans(X, 2, X[[0, 1]])
    real = constrained_module._update_means
    monkeypatch.setattr(constrained_module, "_update_means",
                        lambda X, labels, old: 0.5 * real(X, labels, old))
    with pytest.raises(AssertionError):
        cons_claims.check_reduces_to_kmeans(X, 2, X[[0, 1]])


def test_failure_check_refutes_a_pass_that_never_fails(monkeypatch):
    cons_claims.check_failure_is_not_infeasibility()
    real = constrained_module.ConstrainedKMeans._assign
    monkeypatch.setattr(constrained_module.ConstrainedKMeans, "_assign",
                        staticmethod(lambda X, means, must, cannot: real(
                            X, means, [np.empty(0, np.intp)] * len(X),
                            [np.empty(0, np.intp)] * len(X))))
    with pytest.raises(AssertionError, match="placed every sample"):
        cons_claims.check_failure_is_not_infeasibility()


def test_supervision_check_refutes_seeds_that_move(monkeypatch):
    cons_claims.check_supervision_types(PAIRS_X, 2, PAIRS_X[[0, 2]], 0)

    class Loose(constrained_module.ConstrainedSeedKMeans):
        def fit(self, X, y):
            super().fit(X, y)
            self.labels_ = 1 - self.labels_
            return self
    monkeypatch.setattr(cons_claims, "ConstrainedSeedKMeans", Loose)
    with pytest.raises(AssertionError, match="seed"):
        cons_claims.check_supervision_types(PAIRS_X, 2, PAIRS_X[[0, 2]], 0)


@pytest.mark.parametrize("broken", ["seeds released", "means halfway"])
def test_seed_check_refutes_broken_passes(monkeypatch, broken):
    y = np.array([0, -1, 1, -1, -1])
    cons_claims.check_seed_kmeans(PAIRS_X, y)
    if broken == "seeds released":
        real = constrained_module.validate_semi_supervised

        def forget(est, X, y, **kw):
            X, codes = real(est, X, y, **kw)
            codes[0] = -1 if codes.size > 3 else codes[0]
            return X, codes
        monkeypatch.setattr(constrained_module, "validate_semi_supervised", forget)
        y = np.array([0, 0, 1, -1, -1])
    else:
        real_update = constrained_module._update_means
        monkeypatch.setattr(constrained_module, "_update_means",
                            lambda X, labels, old: 0.5 * (real_update(X, labels, old) + old))
    with pytest.raises(AssertionError):
        cons_claims.check_seed_kmeans(PAIRS_X, y)


# ---------------------------------------------------------------------------
# §11.3 TSVM
# ---------------------------------------------------------------------------


def _tsvm_problem():
    rng = np.random.default_rng(0)
    y = np.arange(40) % 2
    X = rng.normal(size=(40, 2)) + 3.0 * y[:, None] * np.array([1.0, 0.0])
    partial = np.full(40, -1)
    partial[:4] = y[:4]
    return X, partial


def test_tsvm_replay_holds_and_sees_swaps():
    X, y = _tsvm_problem()
    est = TSVM().fit(X, y)
    assert tsvm_claims.check_tsvm_run(X, y, est) >= 1


@pytest.mark.parametrize("tamper", ["swap without the condition", "halved C_u schedule",
                                    "objective misrecorded", "guesses flipped"])
def test_tsvm_replay_refutes_a_tampered_run(tamper):
    X, y = _tsvm_problem()
    est = TSVM().fit(X, y)
    solves = est.solves_
    if tamper == "swap without the condition":
        t = next(t for t, s in enumerate(solves) if s.swapped is None and t > 0)
        u = np.flatnonzero(y == -1)
        i = next(i for i in u if solves[t].labels[i] > 0)
        j = next(j for j in u if solves[t].labels[j] < 0)
        swapped = solves[t].labels.copy()
        swapped[[i, j]] *= -1
        solves.insert(t + 1, type(solves[t])(solves[t].C_u, swapped, solves[t].alpha,
                                             solves[t].bias, solves[t].objective, (i, j)))
    elif tamper == "halved C_u schedule":
        for s in solves[1:]:
            s.C_u /= 2
    elif tamper == "objective misrecorded":
        solves[-1].objective *= 0.5
    else:
        solves[1].labels = -solves[1].labels
    with pytest.raises(AssertionError):
        tsvm_claims.check_tsvm_run(X, y, est)


def test_tsvm_reference_refutes_a_halved_cost(monkeypatch):
    X, y = _tsvm_problem()
    est = TSVM().fit(X, y)
    tsvm_claims.check_solves_are_svms(X, y, est)
    real = tsvm_claims.cvxpy_weighted_svm
    monkeypatch.setattr(tsvm_claims, "cvxpy_weighted_svm",
                        lambda X, labels, costs: real(X, labels, 0.5 * costs))
    with pytest.raises(AssertionError):
        tsvm_claims.check_solves_are_svms(X, y, est)


# ---------------------------------------------------------------------------
# §11.5 co-training
# ---------------------------------------------------------------------------


def _cotrain_problem():
    rng = np.random.default_rng(2)
    truth = rng.integers(0, 2, 60)
    X = rng.normal(size=(60, 4)) + 1.5 * truth[:, None]
    y = np.full(60, -1)
    pick = np.r_[np.flatnonzero(truth == 0)[:2], np.flatnonzero(truth == 1)[:2]]
    y[pick] = truth[pick]
    return X, y


@pytest.mark.parametrize("tamper", ["positives and negatives swapped", "pick from outside",
                                    "pseudo-label lost", "refill too large"])
def test_cotraining_replay_refutes_a_tampered_run(tamper):
    X, y = _cotrain_problem()
    est = CoTraining(view=np.array([0, 1]), pool_size=8, n_rounds=5, random_state=0).fit(X, y)
    cot_claims.check_cotraining_run(X, y, est)
    r = est.rounds_[0]
    picked, pseudo = r.picked[0]
    if tamper == "positives and negatives swapped":
        r.picked[0] = (picked, 1 - pseudo)
    elif tamper == "pick from outside":
        outside = next(i for i in np.flatnonzero(y == -1) if i not in r.pool)
        r.picked[0] = (np.r_[picked[:-1], outside], pseudo)
    elif tamper == "pseudo-label lost":
        key = next(iter(est.pseudo_labels_[1]))
        del est.pseudo_labels_[1][key]
    else:
        r.refill = np.r_[r.refill, np.flatnonzero(y == -1)[-3:]]
    with pytest.raises(AssertionError):
        cot_claims.check_cotraining_run(X, y, est)


def test_cotraining_simulation_refutes_co_training_that_adds_nothing(monkeypatch):
    """With pseudo-labels thrown away the co-trained pair is the labelled-only pair: the
    win-rate rule refutes it."""
    real = CoTraining.fit

    def no_pseudo(self, X, y):
        self.n_rounds = 0
        return real(self, X, y)
    monkeypatch.setattr(cot_claims.CoTraining, "fit", no_pseudo)
    assert_refutes(cot_claims.sufficient_independent_views)


# ---------------------------------------------------------------------------
# §11.1 active learning
# ---------------------------------------------------------------------------


def test_query_check_refutes_a_loop_that_asks_the_most_certain(monkeypatch):
    act_claims.check_queries(20, 7, 5)
    real = active_module._uncertainty
    monkeypatch.setattr(active_module, "_uncertainty", lambda h, X: -real(h, X))
    with pytest.raises(AssertionError, match="least certain"):
        act_claims.check_queries(20, 7, 5)


def test_query_check_refutes_self_given_labels(monkeypatch):
    real = active_module.active_learning

    def self_labelling(estimator, X, oracle, initial, **kw):
        res = real(estimator, X, oracle, initial, **kw)
        h = act_claims.MidpointThreshold().fit(X[initial], np.asarray(oracle)[initial]
                                               if not callable(oracle) else
                                               [oracle(i) for i in initial])
        res.labels[len(initial):] = h.predict(X[res.queried])
        return res
    monkeypatch.setattr(act_claims, "active_learning", self_labelling)
    with pytest.raises(AssertionError):
        act_claims.check_queries(40, 13, 10)


def test_binary_search_check_refutes_a_halved_bound(monkeypatch):
    act_claims.check_binary_search(200, 77)
    real = act_claims.queries_bound
    monkeypatch.setattr(act_claims, "queries_bound", lambda m: real(m) // 2)
    with pytest.raises(AssertionError, match="more than"):
        act_claims.check_binary_search(200, 77)


def test_affinity_check_refutes_a_halved_width(monkeypatch):
    X = np.array([[0.0, 0.0], [0.5, 0.1], [1.0, -0.3], [0.2, 0.9]])
    claims.check_affinity(X, 1.0, None)
    real = claims.affinity_matrix
    monkeypatch.setattr(claims, "affinity_matrix",
                        lambda X, sigma, n_neighbors: real(X, 0.5 * sigma, n_neighbors))
    with pytest.raises(AssertionError, match="11.7"):
        claims.check_affinity(X, 1.0, None)


def test_mixture_check_refutes_weights_off_the_simplex(monkeypatch):
    X, codes = _problem()
    gen_claims.check_mixture_density(X, codes)
    real = generative_module.SemiSupervisedGaussianMixture.score_samples
    monkeypatch.setattr(generative_module.SemiSupervisedGaussianMixture, "score_samples",
                        lambda self, X: real(self, X) + np.log(0.5))
    with pytest.raises(AssertionError, match="integrates"):
        gen_claims.check_mixture_density(X, codes)


def test_dependent_views_simulation_refutes_co_training_that_adds_nothing(monkeypatch):
    real = CoTraining.fit

    def no_pseudo(self, X, y):
        self.n_rounds = 0
        return real(self, X, y)
    monkeypatch.setattr(cot_claims.CoTraining, "fit", no_pseudo)
    assert_refutes(cot_claims.dependent_views)


def test_tsvm_replay_refutes_a_decision_function_with_the_bias_subtracted(monkeypatch):
    X, y = _tsvm_problem()
    est = TSVM().fit(X, y)
    real = TSVM.decision_function
    monkeypatch.setattr(TSVM, "decision_function",
                        lambda self, X: real(self, X) - 2.0 * self.intercept_)
    with pytest.raises(AssertionError, match="decision_function"):
        tsvm_claims.check_tsvm_run(X, y, est)


def test_seed_check_refutes_a_predict_that_is_not_the_nearest_mean(monkeypatch):
    y = np.array([0, -1, 1, -1, -1])
    monkeypatch.setattr(constrained_module.ConstrainedSeedKMeans, "predict",
                        lambda self, X: self.classes_[np.zeros(len(X), dtype=int)])
    with pytest.raises(AssertionError, match="nearest mean"):
        cons_claims.check_seed_kmeans(PAIRS_X, y)
