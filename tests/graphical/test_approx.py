"""Behaviour of the approximate-inference algorithms (003 §12.5–§12.6): Monte Carlo,
Metropolis-Hastings, discrete Gibbs sampling, mean-field VI, categorical-mixture EM and
the LDA topic model."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from scipy import stats
from sklearn.exceptions import ConvergenceWarning

from algorithms.bayes import BayesianNetwork, gibbs_sampling
from algorithms.graphical import (
    LDATopicModel,
    categorical_mixture_em,
    categorical_mixture_log_likelihood,
    gibbs_kernel,
    gibbs_sample_discrete,
    lda_collapsed_log_joint,
    lda_log_evidence,
    lda_log_joint,
    mean_field,
    metropolis_hastings,
    metropolis_hastings_kernel,
    monte_carlo_expectation,
    sample_lda_corpus,
)
from properties.graphical.support_approx import dirichlet_multinomial_log_joint
from properties.graphical.topics import printed_joint_mass

# ---------------------------------------------------------------------------
# Monte Carlo
# ---------------------------------------------------------------------------


def test_monte_carlo_reports_mean_and_standard_error():
    est = monte_carlo_expectation(lambda x: x, lambda r, n: r.normal(2.0, 1.0, size=n), 400,
                                  random_state=0)
    assert est.estimate == pytest.approx(est.values.mean())
    assert est.std_error == pytest.approx(est.values.std(ddof=1) / 20)
    assert abs(est.estimate - 2.0) < 5 * est.std_error
    again = monte_carlo_expectation(lambda x: x, lambda r, n: r.normal(2.0, 1.0, size=n), 400,
                                    random_state=0)
    assert again.estimate == est.estimate  # seeded: deterministic


def test_monte_carlo_refuses_bad_callables_output():
    with pytest.raises(ValueError, match="sampler"):
        monte_carlo_expectation(np.sin, lambda r, n: r.normal(size=n + 1), 10)
    with pytest.raises(ValueError, match="f must"):
        monte_carlo_expectation(lambda x: np.full(len(x), np.nan), lambda r, n: r.random(n), 10)
    with pytest.raises(ValueError, match="f must"):
        monte_carlo_expectation(lambda x: x[:2], lambda r, n: r.random(n), 10)


# ---------------------------------------------------------------------------
# Metropolis-Hastings
# ---------------------------------------------------------------------------


def _gauss(x):
    return -0.5 * np.sum(x**2, axis=1)


def _walk(r, x):
    return x + r.normal(size=x.shape)


def test_mh_shapes_burn_in_thinning_and_acceptance():
    res = metropolis_hastings(_gauss, _walk, np.zeros(2), n_samples=50, burn_in=10, thin=3,
                              random_state=0)
    assert res.samples.shape == (50, 2)
    assert res.n_proposed == 10 + 50 * 3
    assert 0 < res.acceptance_rate < 1
    assert res.acceptance_rate == pytest.approx(res.n_accepted / res.n_proposed)
    multi = metropolis_hastings(_gauss, _walk, np.zeros((4, 2)), n_samples=5, random_state=0)
    assert multi.samples.shape == (5, 4, 2)
    assert multi.acceptance_rate_per_chain.shape == (4,)


def test_mh_flat_target_accepts_everything_and_zero_density_never():
    flat = metropolis_hastings(lambda x: np.zeros(len(x)), _walk, np.zeros(1), n_samples=30,
                               random_state=1)
    assert flat.acceptance_rate == 1.0

    def half_line(x):
        return np.where(x[:, 0] > 0, -x[:, 0], -np.inf)  # Exp(1): zero density below 0

    res = metropolis_hastings(half_line, _walk, np.ones(1), n_samples=2000, random_state=2)
    assert np.all(res.samples > 0)
    # the chain's mean is near 1 (thinned, loose: a behaviour check, not a claim)
    assert abs(res.samples[::10].mean() - 1.0) < 0.3


def test_mh_gaussian_target_matches_moments_with_hastings_correction():
    # asymmetric proposal: x* = 0.5 x + N(0, 1); Q(x*|x) = N(x*; 0.5x, 1)
    def prop(r, x):
        return 0.5 * x + r.normal(size=x.shape)

    def qlog(new, old):
        return stats.norm.logpdf(new[:, 0], 0.5 * old[:, 0], 1.0)

    res = metropolis_hastings(lambda x: stats.norm.logpdf(x[:, 0], 3.0, 0.5), prop,
                              np.full((2000, 1), 3.0), proposal_log_density=qlog,
                              n_samples=1, burn_in=60, random_state=3)
    x = res.samples[0, :, 0]
    assert abs(x.mean() - 3.0) < 0.05 and abs(x.std() - 0.5) < 0.05


def test_mh_refuses_zero_density_start_and_inconsistent_proposal():
    with pytest.raises(ValueError, match="x0"):
        metropolis_hastings(lambda x: np.full(len(x), -np.inf), _walk, np.zeros(1),
                            random_state=0)
    with pytest.raises(ValueError, match="proposal_log_density"):
        metropolis_hastings(_gauss, _walk, np.zeros(1),
                            proposal_log_density=lambda a, b: np.full(len(a), -np.inf),
                            random_state=0)
    with pytest.raises(ValueError, match="log_target"):
        metropolis_hastings(lambda x: np.full(len(x), np.nan), _walk, np.zeros(1))
    with pytest.raises(ValueError, match="proposal"):
        metropolis_hastings(_gauss, lambda r, x: np.zeros(5), np.zeros(1))


def test_mh_kernel_rows_and_zero_proposals():
    p = np.array([1.0, 2.0, 3.0])
    Q = np.array([[0.0, 1.0, 0.0], [0.5, 0.0, 0.5], [0.0, 1.0, 0.0]])
    T = metropolis_hastings_kernel(p, Q)
    assert np.allclose(T.sum(axis=1), 1.0)
    assert T[0, 2] == 0 and T[2, 0] == 0  # Q = 0: never moves there
    assert T[0, 1] == pytest.approx(1.0 * min(1, 2 * 0.5 / (1 * 1.0)))
    pi = p / p.sum()
    assert np.allclose(pi @ T, pi)


# ---------------------------------------------------------------------------
# Gibbs
# ---------------------------------------------------------------------------


def test_gibbs_clamps_evidence_and_table_equals_factor_list():
    rng = np.random.default_rng(0)
    A, B = rng.random((2, 3)) + 0.1, rng.random((3, 2)) + 0.1
    factors = [((0, 1), A), ((1, 2), B)]
    table = np.einsum("ab,bc->abc", A, B)
    assert np.allclose(gibbs_kernel(factors, 1), gibbs_kernel(table, 1))
    res = gibbs_sample_discrete(factors, n_samples=20, burn_in=2, n_chains=3,
                                evidence={1: 2}, random_state=0, scan="random")
    assert res.samples.shape == (20, 3, 3)
    assert np.all(res.samples[:, :, 1] == 2)
    assert res.frequencies().shape == (2, 3, 2)
    again = gibbs_sample_discrete(factors, n_samples=20, burn_in=2, n_chains=3,
                                  evidence={1: 2}, random_state=0, scan="random")
    assert np.array_equal(res.samples, again.samples)


def test_gibbs_matches_the_bayes_family_sampler_on_a_network():
    # the same joint as a Bayesian network (bayes family) and as factors: both samplers'
    # frequencies land near the exact joint
    prior, cond = np.array([0.3, 0.7]), np.array([[0.9, 0.1], [0.2, 0.8]])
    net = BayesianNetwork([[], [0]], [prior, cond])
    exact = prior[:, None] * cond
    ours = gibbs_sample_discrete(exact, n_samples=300, burn_in=10, n_chains=4,
                                 random_state=0)
    theirs = gibbs_sampling(net, n_samples=300, burn_in=10, n_chains=4, random_state=0)
    p1 = exact[:, 1].sum()
    assert abs(ours.frequencies()[:, 1].sum() - p1) < 0.06
    assert abs(theirs.estimate({1: 1}) - p1) < 0.06


def test_gibbs_refuses_zero_potentials_and_bad_starts():
    with pytest.raises(ValueError, match="factors"):
        gibbs_sample_discrete(np.array([[0.0, 1.0], [1.0, 1.0]]))
    with pytest.raises(ValueError, match="x0"):
        gibbs_sample_discrete(np.ones((2, 2)), x0=[0, 5])
    with pytest.raises(ValueError, match="factors"):
        gibbs_sample_discrete([((0, 2), np.ones((2, 2)))])  # variable 1 missing
    with pytest.raises(ValueError, match="factors"):
        gibbs_kernel(np.ones((4,) * 7))  # 16384 states: too many to enumerate


# ---------------------------------------------------------------------------
# Mean field and EM
# ---------------------------------------------------------------------------


def test_mean_field_is_exact_on_an_independent_model():
    a, b = np.array([1.0, 3.0]), np.array([2.0, 1.0, 1.0])
    res = mean_field([((0,), a), ((1,), b)], random_state=0)
    assert res.converged
    assert np.allclose(res.q[0], a / a.sum()) and np.allclose(res.q[1], b / b.sum())
    assert res.elbo == pytest.approx(np.log(a.sum() * b.sum()))
    assert len(res.elbo_history) == res.n_iter + 1


def test_mean_field_warns_when_not_converged():
    rng = np.random.default_rng(1)
    table = np.exp(3 * rng.normal(size=(3, 3, 3)))
    with pytest.warns(ConvergenceWarning):
        mean_field(table, max_iter=1, tol=0.0, random_state=0)


def test_em_records_its_trace_and_log_likelihood():
    X = np.random.default_rng(2).integers(3, size=(30, 4))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        res = categorical_mixture_em(X, 2, max_iter=10, random_state=0)
    run = res.best_run
    assert len(run.log_likelihood_history) == run.n_iter + 1 == len(run.params_history)
    assert res.log_likelihood == pytest.approx(categorical_mixture_log_likelihood(
        X, res.params.weights, res.params.probs))


# ---------------------------------------------------------------------------
# LDA
# ---------------------------------------------------------------------------


def test_lda_corpus_shapes_and_joints():
    c = sample_lda_corpus(4, 6, 3, 8, alpha=0.5, eta=0.7, random_state=0)
    assert c.words.shape == c.topics.shape == (4, 6)
    assert c.beta.shape == (3, 8) and c.theta.shape == (4, 3)
    assert np.array_equal(c.counts().sum(axis=1), np.full(4, 6))
    assert np.isfinite(lda_log_joint(c.words, c.topics, c.beta, c.theta, alpha=0.5, eta=0.7))
    ours = lda_collapsed_log_joint(c.words, c.topics, n_topics=3, vocabulary_size=8,
                                   alpha=0.5, eta=0.7)
    assert ours == pytest.approx(dirichlet_multinomial_log_joint(c.words, c.topics, 3, 8,
                                                                 0.5, 0.7), rel=1e-12)


def test_printed_joint_mass_closed_form_matches_quadrature():
    for T, K, eta in ((2, 1, 0.75), (3, 2, 2.0), (1, 3, 0.6)):
        assert printed_joint_mass(T, K, eta) == pytest.approx(
            printed_joint_mass(T, K, eta, quadrature=True), rel=1e-7)
    assert printed_joint_mass(4, 2, 1.0) == pytest.approx(1.0)  # flat prior: no error


def test_lda_estimator_attributes_transform_and_determinism():
    c = sample_lda_corpus(15, 20, 2, 6, alpha=0.5, eta=0.3, random_state=1)
    X = c.counts()
    m = LDATopicModel(2, max_iter=5, random_state=0).fit(X)
    assert m.components_.shape == (2, 6) and np.allclose(m.components_.sum(axis=1), 1)
    assert m.doc_topic_.shape == (15, 2) and len(m.log_joint_history_) == 6
    assert m.topic_assignments_.size == X.sum()
    theta = m.transform(X)
    assert theta.shape == (15, 2) and np.allclose(theta.sum(axis=1), 1)
    m2 = LDATopicModel(2, max_iter=5, random_state=0).fit(X)
    assert np.array_equal(m.components_, m2.components_)
    # rounding of non-integer counts, and an empty document
    Xf = X.astype(float) + 0.2
    Xf[0] = 0
    assert np.allclose(LDATopicModel(2, max_iter=2, random_state=0).fit(Xf).transform(Xf)
                       .sum(axis=1), 1)
    with pytest.raises(ValueError, match="X"):
        LDATopicModel(2).fit(-X)


def test_lda_log_evidence_closed_form_and_cap():
    eta = 0.7  # one topic: p(w_1 = w_2 = 0) = E[beta_0^2] under Beta(eta, eta)
    ours = lda_log_evidence(np.array([[0], [0]]), n_topics=1, vocabulary_size=2, alpha=1.0,
                            eta=eta)
    assert np.exp(ours) == pytest.approx(eta * (eta + 1) / (2 * eta * (2 * eta + 1)))
    with pytest.raises(ValueError, match="words"):
        lda_log_evidence(np.zeros((4, 5), dtype=int), n_topics=2, vocabulary_size=2,
                         alpha=1.0, eta=1.0)  # 2^20 assignments


def test_mh_works_in_log_space_where_densities_underflow():
    logp = np.array([-2000.0, -2001.0, -2000.5])  # exp() underflows to 0 in float64
    res = metropolis_hastings(lambda x: logp[x[:, 0].astype(int)],
                              lambda r, x: r.integers(3, size=x.shape).astype(float),
                              np.zeros((3000, 1)), n_samples=1, burn_in=15, random_state=4)
    freq = np.bincount(res.samples[0, :, 0].astype(int), minlength=3) / 3000
    target = np.exp(logp - logp.max()) / np.exp(logp - logp.max()).sum()
    assert np.abs(freq - target).max() < 0.04
