"""The checks of the approximate-inference claims (003 §12.5–§12.6) have teeth: each
refutes a deliberately broken variant (a ratio inverted, a constant halved or shifted,
an index off by one, a prior counted per document, a misreported record)."""

from __future__ import annotations

import warnings
from dataclasses import replace
from types import SimpleNamespace

import numpy as np
import pytest
import sympy as sp
from sklearn.exceptions import ConvergenceWarning

from algorithms.graphical import (
    categorical_mixture_em,
    categorical_mixture_log_likelihood,
    gibbs_kernel,
    gibbs_sample_discrete,
    lda_log_evidence,
    lda_log_joint,
    mean_field,
    metropolis_hastings,
    metropolis_hastings_kernel,
    sample_lda_corpus,
)
from algorithms.graphical._topics import LDACorpus, collapsed_gibbs
from mltheory.symbolic import Derivation
from properties.graphical.sampling import (
    CONFIDENCE,
    check_ergodic_average,
    check_gibbs_kernels,
    check_mc_unbiased_by_enumeration,
    gibbs_endpoint_counts,
    run_mh_endpoints,
)
from properties.graphical.support_approx import (
    check_detailed_balance,
    check_endpoint_frequencies,
    check_stationary,
    joint_vector,
    reference_gibbs_site_kernel,
    reference_mh_kernel,
    reversible_chain,
)
from properties.graphical.topics import (
    check_evidence_monte_carlo,
    check_log_evidence,
    check_log_joint_reference,
    check_recovery,
    check_sampler_marginal,
    lda_endpoint_check,
    planted_corpus,
)
from properties.graphical.variational import check_em_trace, check_loglik, check_mean_field


def _target(seed, n=4):
    rng = np.random.default_rng(seed)
    p = np.exp(1.5 * rng.normal(size=n))
    Q = rng.random((n, n)) + np.eye(n)[np.roll(np.arange(n), 1)]
    return p, Q / Q.sum(axis=1, keepdims=True)


# ---------------------------------------------------------------------------
# Monte Carlo and detailed balance
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("denominator_shift", [-1, 1])
def test_unbiasedness_refutes_an_off_by_one_denominator(denominator_shift):
    rng = np.random.default_rng(0)
    values, probs = rng.normal(size=4) + 2.0, rng.dirichlet(np.ones(4))
    N = 3
    def broken(tup):
        return float(np.sin(tup).sum() / (N + denominator_shift))

    with pytest.raises(AssertionError):
        check_mc_unbiased_by_enumeration(values, probs, np.sin, N, estimator=broken)
    check_mc_unbiased_by_enumeration(values, probs, np.sin, N)  # the real one holds


def test_detailed_balance_check_refutes_a_perturbed_chain():
    pi, T = reversible_chain(np.random.default_rng(1), 5)
    check_detailed_balance(pi, T, "ok")
    broken = T.copy()
    broken[0, 1] *= 0.5  # a constant halved, the mass kept on the diagonal
    broken[0, 0] += T[0, 1] * 0.5
    with pytest.raises(AssertionError):
        check_detailed_balance(pi, broken, "halved")
    with pytest.raises(AssertionError):
        check_stationary(pi, broken, "halved")


def test_ergodic_average_check_refutes_a_kernel_of_another_target():
    p, Q = _target(2)
    T = metropolis_hastings_kernel(p, Q)
    f = np.arange(4.0)
    check_ergodic_average(p, T, f, 0, 10)
    wrong = metropolis_hastings_kernel(p * np.array([1.0, 2.0, 1.0, 1.0]), Q)
    with pytest.raises(AssertionError):
        check_ergodic_average(p, wrong, f, 0, 10)


# ---------------------------------------------------------------------------
# Metropolis-Hastings
# ---------------------------------------------------------------------------


def _kernel_variant(p, Q, how):
    n = len(p)
    T = np.zeros((n, n))
    for i in range(n):
        for j in range(n):
            if i == j:
                continue
            r = p[j] * Q[j, i] / (p[i] * Q[i, j])
            if how == "inverted":  # the acceptance ratio's direction flipped
                r = 1.0 / r
            elif how == "no_hastings":  # the Q ratio dropped (Metropolis with asymmetric Q)
                r = p[j] / p[i]
            elif how == "halved":
                r = r / 2
            T[i, j] = Q[i, j] * min(1.0, r)
        T[i, i] = 1 - T[i].sum()
    return T


@pytest.mark.parametrize("how", ["inverted", "no_hastings", "halved"])
def test_mh_detailed_balance_refutes_broken_acceptance(how):
    p, Q = _target(3)
    pi = p / p.sum()
    check_detailed_balance(pi, reference_mh_kernel(p, Q), "correct")
    with pytest.raises(AssertionError):
        check_detailed_balance(pi, _kernel_variant(p, Q, how), how)


def test_mh_simulation_refutes_an_inverted_hastings_ratio():
    p, Q = _target(4)

    def flipped(log_target, proposal, x0, *, proposal_log_density, **kw):
        return metropolis_hastings(log_target, proposal, x0,
                                   proposal_log_density=lambda a, b: proposal_log_density(b, a),
                                   **kw)

    counts, _ = run_mh_endpoints(p, Q, 3000, 40, 0, sampler=flipped)
    with pytest.raises(AssertionError):
        check_endpoint_frequencies(counts, np.eye(4)[0], reference_mh_kernel(p, Q), 40,
                                   p / p.sum(), confidence=CONFIDENCE, label="flipped")
    good, _ = run_mh_endpoints(p, Q, 3000, 40, 0)
    check_endpoint_frequencies(good, np.eye(4)[0], reference_mh_kernel(p, Q), 40,
                               p / p.sum(), confidence=CONFIDENCE, label="correct")


# ---------------------------------------------------------------------------
# Gibbs
# ---------------------------------------------------------------------------


def _model():
    rng = np.random.default_rng(5)
    cards = (2, 3, 2)
    factors = [((0, 1), np.exp(rng.normal(size=(2, 3)))),
               ((1, 2), np.exp(rng.normal(size=(3, 2)))), ((0,), np.exp(rng.normal(size=2)))]
    return factors, cards


def test_gibbs_kernel_check_refutes_an_off_by_one_site():
    factors, cards = _model()
    check_gibbs_kernels(factors, cards)

    def shifted(f, variable=None, *, scan="systematic"):
        if variable is None:
            return gibbs_kernel(f, scan=scan)
        # resamples the next variable instead of the named one (an index off by one)
        return gibbs_kernel(f, (variable + 1) % len(cards))

    with pytest.raises(AssertionError):
        check_gibbs_kernels(factors, cards, kernel=shifted)


def test_gibbs_stationarity_refutes_a_tempered_conditional():
    factors, cards = _model()
    pvec, _ = joint_vector(factors, cards)
    tempered = [(s, np.sqrt(t)) for s, t in factors]  # conditionals of p^(1/2)
    with pytest.raises(AssertionError):
        check_stationary(pvec, gibbs_kernel(tempered, 1), "tempered")


def test_gibbs_simulation_refutes_a_tempered_sampler():
    factors, cards = _model()
    pvec, _ = joint_vector(factors, cards)
    sites = [reference_gibbs_site_kernel(pvec, cards, i) for i in range(3)]
    K = sites[0] @ sites[1] @ sites[2]

    def tempered(f, **kw):
        return gibbs_sample_discrete([(s, t ** 0.5) for s, t in f], **kw)

    counts = gibbs_endpoint_counts(factors, cards, 4000, 15, 0, sampler=tempered)
    with pytest.raises(AssertionError):
        check_endpoint_frequencies(counts, np.eye(12)[0], K, 15, pvec,
                                   confidence=CONFIDENCE, label="tempered")


# ---------------------------------------------------------------------------
# Variational inference and EM
# ---------------------------------------------------------------------------


def test_loglik_check_refutes_a_missing_log_and_halved_weights():
    rng = np.random.default_rng(6)
    X = rng.integers(3, size=(4, 2))
    w, P = rng.dirichlet(np.ones(2)), rng.dirichlet(np.ones(3), size=(2, 2))
    check_loglik(X, w, P)
    with pytest.raises(AssertionError):  # log of the sum over samples instead of the sum of logs
        check_loglik(X, w, P, lambda X_, w_, P_: float(np.log(sum(
            np.exp(categorical_mixture_log_likelihood(X_[i:i + 1], w_, P_))
            for i in range(len(X_))))))
    with pytest.raises(AssertionError):  # weights halved
        check_loglik(X, w, P, lambda X_, w_, P_: categorical_mixture_log_likelihood(
            X_, w_, P_) + len(X_) * np.log(0.5))


def _em(X):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        return categorical_mixture_em(X, 2, n_categories=3, max_iter=5, random_state=1)


def test_em_check_refutes_a_smoothed_m_step_and_a_decreasing_trace():
    X = np.random.default_rng(7).integers(3, size=(20, 3))
    result = _em(X)
    check_em_trace(X, result)
    run = result.best_run
    # an M-step that adds a pseudo-count (MAP, not argmax Q): its Q is beaten
    smoothed = [run.params_history[0]]
    for prm in run.params_history[1:]:
        probs = (prm.probs * 20 + 1.0) / (20 + 3.0)
        smoothed.append(replace(prm, probs=probs))
    fake = SimpleNamespace(log_likelihood_history=run.log_likelihood_history,
                           best_run=SimpleNamespace(params_history=smoothed))
    with pytest.raises(AssertionError):
        check_em_trace(X, fake, n_random=40)
    backwards = SimpleNamespace(log_likelihood_history=run.log_likelihood_history[::-1],
                                best_run=run)
    with pytest.raises(AssertionError):
        check_em_trace(X, backwards)


def test_mean_field_check_refutes_overstated_elbo_and_a_non_fixed_point():
    factors, cards = _model()
    result = mean_field(factors, random_state=0)
    check_mean_field(factors, cards, result)
    _, total = joint_vector(factors, cards)
    over = replace(result, elbo_history=np.append(result.elbo_history[:-1],
                                                  np.log(total) + 0.01))
    with pytest.raises(AssertionError):
        check_mean_field(factors, cards, over)
    shifted = [np.roll(q, 1) for q in result.q]  # factors off by one value
    with pytest.raises(AssertionError):
        check_mean_field(factors, cards, replace(result, q=shifted))


def test_elbo_derivation_refutes_a_flipped_kl_sign():
    a1, a2 = sp.symbols("a1 a2", positive=True)
    qs, a = [sp.Rational(1, 3), sp.Rational(2, 3)], [a1, a2]
    elbo = sum(q * (sp.log(x) - sp.log(q)) for q, x in zip(qs, a, strict=True))
    kl = sum(q * (sp.log(q) - sp.log(x) + sp.log(a1 + a2)) for q, x in zip(qs, a, strict=True))
    deriv = Derivation("flipped")
    deriv.equal("ELBO - KL", sp.expand_log(elbo - kl, force=True), sp.log(a1 + a2))
    with pytest.raises(AssertionError):
        deriv.verify()


# ---------------------------------------------------------------------------
# LDA
# ---------------------------------------------------------------------------


def test_log_joint_check_refutes_the_prior_counted_per_document():
    corpus = sample_lda_corpus(3, 4, 3, 5, alpha=0.7, eta=1.3, random_state=0)
    check_log_joint_reference(corpus, 0.7, 1.3)

    def printed(words, topics, beta, theta, *, alpha, eta):
        extra = lda_log_joint(words[:1], topics[:1], beta, theta[:1], alpha=alpha, eta=eta)
        base = lda_log_joint(words[:1], topics[:1], beta, theta[:1], alpha=alpha, eta=1.0)
        # (T - 1) further copies of sum_k ln Dir(beta_k | eta) (the printed nesting)
        return (lda_log_joint(words, topics, beta, theta, alpha=alpha, eta=eta)
                + (words.shape[0] - 1) * (extra - base))

    with pytest.raises(AssertionError):
        check_log_joint_reference(corpus, 0.7, 1.3, log_joint=printed)


def test_sampler_marginal_refutes_topics_redrawn_per_document():
    def per_document(T, N, K, V, alpha, eta, rng):
        # the printed nesting read as a process: fresh topics beta for every document
        theta = rng.dirichlet(np.full(K, alpha), size=T)
        beta = rng.dirichlet(np.full(V, eta), size=(T, K))
        topics = np.array([rng.choice(K, size=N, p=th) for th in theta])
        words = np.array([[rng.choice(V, p=beta[t, k]) for k in topics[t]] for t in range(T)])
        return LDACorpus(words, topics, beta[0], theta)

    with pytest.raises(AssertionError):
        check_sampler_marginal(per_document, 3000, T=2, N=1, K=2, V=2, alpha=0.6, eta=0.4,
                               rng=np.random.default_rng(0), label="per-document beta")


def test_posterior_check_refutes_a_shifted_denominator():
    W = np.array([[0, 1, 1], [2, 2, 0]])

    def shifted(docs, words, K, V, D, a, e, sweeps, rng):
        # (n_k + (V + 3) eta) in the denominator
        return collapsed_gibbs(docs, words, K, V + 3, D, a, e, sweeps, rng)

    with pytest.raises(AssertionError):
        lda_endpoint_check(W, K=2, V=3, alpha=0.5, eta=0.3, n_chains=1500, sweeps=6,
                           rng=np.random.default_rng(0), gibbs=shifted)


def test_recovery_check_refutes_shifted_topics():
    beta, _ = planted_corpus(0)
    check_recovery(beta, beta)
    with pytest.raises(AssertionError):
        check_recovery(beta, np.roll(beta, 2, axis=1))  # every topic two words off


def test_log_evidence_check_refutes_the_sum_over_documents():
    W = np.array([[0], [1], [0]])
    rng = np.random.default_rng(0)
    check_log_evidence(W, 2, 2, 0.8, 0.5, rng, 20000)

    def per_document(words, **kw):  # (12.25) as printed
        return sum(lda_log_evidence(words[t:t + 1], **kw) for t in range(len(words)))

    with pytest.raises(AssertionError):
        check_log_evidence(W, 2, 2, 0.8, 0.5, rng, 20000, log_evidence=per_document)

    def halved_eta(words, *, eta, **kw):  # a constant halved
        return lda_log_evidence(words, eta=eta / 2, **kw)

    with pytest.raises(AssertionError):
        check_log_evidence(W, 2, 2, 0.8, 0.5, rng, 20000, log_evidence=halved_eta)


def test_monte_carlo_evidence_check_refutes_the_product_of_document_marginals():
    W, K, V, alpha, eta = np.array([[0], [0]]), 1, 2, 1.0, 0.5
    per_doc = np.exp(lda_log_evidence(W[:1], n_topics=K, vocabulary_size=V, alpha=alpha,
                                      eta=eta))
    with pytest.raises(AssertionError):  # 1/4 against the true eta(eta+1)/(2eta(2eta+1))
        check_evidence_monte_carlo(W, K, V, alpha, eta, per_doc**2,
                                   np.random.default_rng(0), 20000)
