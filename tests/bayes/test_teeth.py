"""The Bayes checks have teeth: the check bodies the claims use refute broken variants
(a transposed loss matrix, an unbiased covariance, smoothing where ML is claimed, a
dropped factor, a miscounted |B|, a minimum instead of a maximum spanning tree, a
sampler that ignores the evidence, and broken M-steps)."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import sympy as sp
from hypothesis import given
from hypothesis import strategies as st
from scipy.sparse import csr_array
from scipy.sparse.csgraph import minimum_spanning_tree

import properties.bayes.decision as decision
import properties.bayes.em as em
import properties.bayes.mle as mle
import properties.bayes.naive_bayes as nb
import properties.bayes.networks as networks
import properties.bayes.one_dependence as ode
from algorithms.bayes import (
    BayesianNetwork,
    CategoricalMixtureModel,
    MissingDataNetworkModel,
    MixtureParams,
    NaiveBayesClassifier,
    TANClassifier,
    bayes_decision,
    categorical_mle,
    fit_cpts,
    gaussian_mle,
    hill_climb,
)
from mltheory.strategies import rngs
from mltheory.symbolic import Derivation
from mltheory.testing import assert_holds, assert_refutes
from properties.bayes.strategies import (
    decision_problems,
    naive_bayes_models,
    network_models,
    ode_models,
)
from properties.bayes.support import (
    check_bayes_rule_optimal,
    check_em_monotone,
    check_zero_one_reduction,
    exact_network_joint,
    ode_fit_check,
)

# ---------------------------------------------------------------------------
# Decisions
# ---------------------------------------------------------------------------


def test_a_rule_with_the_loss_indices_swapped_is_refuted():
    @given(problem=decision_problems())
    def check(problem):
        check_bayes_rule_optimal(problem, decide=lambda P, L: bayes_decision(P, L.T))

    assert_refutes(check)


def test_a_doubled_zero_one_loss_is_refuted():
    @given(P=st.lists(st.floats(0.01, 1.0), min_size=2, max_size=4))
    def check(P):
        p = np.array(P) / sum(P)
        check_zero_one_reduction(p[None, :], loss=2 * (1 - np.eye(p.size)))

    assert_refutes(check)


def test_the_posterior_as_prior_is_refuted():
    @given(table=decision.joint_tables())
    def check(table):
        decision.check_prior(table, lambda t, x: [v / sum(t[x]) for v in t[x]])

    assert_refutes(check)


# ---------------------------------------------------------------------------
# Maximum likelihood
# ---------------------------------------------------------------------------


def unbiased(X):
    mean, cov = gaussian_mle(X)
    m = X.shape[0]
    return mean, cov * m / (m - 1)


def test_the_unbiased_covariance_is_not_the_ml_estimate():
    @given(X=mle.gaussian_samples(max_dim=2, max_rows=12))
    def check(X):
        mle.check_gaussian_mle(X, estimate=unbiased)

    assert_refutes(check)


def test_a_shifted_mean_is_not_the_ml_estimate():
    @given(X=mle.gaussian_samples(max_dim=2, max_rows=25))
    def check(X):
        mean, cov = gaussian_mle(X)
        mle.check_gaussian_mle(X, estimate=lambda Z: (mean + 0.01 * np.sqrt(np.diag(cov)), cov))

    assert_refutes(check)


def test_laplace_smoothing_is_not_the_categorical_ml_estimate():
    @given(counts=st.lists(st.integers(0, 30), min_size=2, max_size=5).filter(
        lambda c: sum(c) > 0), rng=rngs())
    def check(counts, rng):
        x = np.repeat(np.arange(len(counts)), counts)
        mle.check_categorical_mle(x, len(counts), rng, estimate=lambda x, k: (
            np.bincount(x, minlength=k) + 1) / (x.size + k))

    assert_refutes(check)


def test_an_unbiased_variance_factor_is_refuted():
    @given(law=mle.discrete_laws())
    def check(law):
        values, probs, m = law
        assert mle.expected_ml_variance(values, probs, m) == Fraction(m, m + 1) * (
            mle.true_variance(values, probs))

    assert_refutes(check)


def test_the_product_of_probabilities_underflows():
    @given(n=st.integers(1, 2000))
    def check(n):
        x = np.full(n, 0.1)
        assert np.log(np.prod(x)) == n * math.log(0.1) or abs(
            np.log(np.prod(x)) - n * math.log(0.1)) < 1e-6

    assert_refutes(check)


# ---------------------------------------------------------------------------
# Naive Bayes and ODE
# ---------------------------------------------------------------------------


def test_smoothed_naive_bayes_is_not_exact_on_an_nb_table():
    @given(model=naive_bayes_models(positive=True))
    def check(model):
        nb.check_nb_factorisation(model, factory=lambda: NaiveBayesClassifier(
            categorical_features="all", alpha=1.0))

    assert_refutes(check)


class ProductSpaceNB:
    """Naive Bayes evaluated by multiplying probabilities (no logs): it underflows."""

    def fit(self, X, y):
        self.inner = NaiveBayesClassifier(categorical_features="all", alpha=0.0).fit(X, y)
        return self

    def predict_proba(self, X):
        jll = self.inner.predict_joint_log_proba(X)
        prior = np.exp(self.inner.class_log_prior_)
        lik = np.exp(jll - self.inner.class_log_prior_)  # the product of conditionals
        joint = prior * lik
        with np.errstate(invalid="ignore"):
            return joint / joint.sum(axis=1, keepdims=True)


def test_probability_space_naive_bayes_fails_with_many_attributes():
    @given(rng=rngs(), d=st.integers(1100, 1500))
    def check(rng, d):
        nb.check_log_space(rng, d, factory=ProductSpaceNB)

    assert_refutes(check)


def test_tan_log_odds_is_not_affine_in_one_hot_features():
    @given(rng=rngs())
    def check(rng):
        nb.check_one_hot_linear(rng, [3, 3], factory=lambda: TANClassifier())

    assert_refutes(check)


def test_naive_bayes_is_not_exact_on_tree_generated_data():
    @given(spec=ode_models(kind="tree"))
    def check(spec):
        ode_fit_check(spec, lambda: NaiveBayesClassifier(categorical_features="all",
                                                         alpha=0.0), "NB on a tree table")

    assert_refutes(check)


def min_spanning_edges(clf):
    cmi = clf.conditional_mutual_information_
    tree = minimum_spanning_tree(csr_array(np.triu(cmi + 1.0, k=1))).tocoo()
    return list(zip(tree.row.tolist(), tree.col.tolist(), strict=True))


def test_a_minimum_spanning_tree_is_refuted():
    @given(data=ode.dependent_attributes())
    def check(data):
        ode.check_tan_tree(*data, tree_of=min_spanning_edges)

    assert_refutes(check)


# ---------------------------------------------------------------------------
# Networks
# ---------------------------------------------------------------------------


def joint_without_roots(model):
    """(5.9) with the root factors dropped: it no longer normalises."""
    joint = exact_network_joint(model)
    out = {}
    for s, p in joint.items():
        for i, pa in enumerate(model.parents):
            if not pa and model.cpts[i][()][s[i]] > 0:
                p = p / model.cpts[i][()][s[i]]
        out[s] = p
    return out


def test_a_joint_without_its_root_factors_is_refuted():
    @given(model=network_models())
    def check(model):
        networks.check_joint(model, joint_of=joint_without_roots)

    assert_refutes(check)


def test_counting_every_cpt_entry_as_a_parameter_is_refuted():
    @given(model=network_models(positive=True), rng=rngs())
    def check(model, rng):
        X = networks.sample_from_joint(model, 10, rng)
        networks.check_score(model, X, 1.0,
                             count=lambda net: sum(t.size for t in net.cpts))

    assert_refutes(check)


def test_a_complete_dag_is_not_optimal_under_bic():
    @given(model=network_models(max_variables=3), rng=rngs(), n=st.integers(5, 40))
    def check(model, rng, n):
        X = networks.sample_from_joint(model, n, rng)
        networks.check_f0_prefers_complete(X, model.cards, f=0.5 * math.log(n))

    assert_refutes(check)


def test_smoothed_cpts_are_not_the_ml_estimate():
    @given(model=network_models(), rng=rngs(), n=st.integers(1, 40))
    def check(model, rng, n):
        X = networks.sample_from_joint(model, n, rng)
        networks.check_cpt_mle(model.parents, model.cards, X, rng,
                               fit=lambda pa, X, cards: fit_cpts(pa, X, cards, alpha=1.0))

    assert_refutes(check)


def test_a_search_that_stops_after_one_move_is_refuted():
    @given(model=network_models(max_variables=4, positive=True), rng=rngs(),
           n=st.integers(50, 120))
    def check(model, rng, n):
        X = networks.sample_from_joint(model, n, rng)
        networks.check_greedy(X, model.cards, 0.0,
                              search=lambda X, cards, score: hill_climb(X, cards, score=score,
                                                                        max_iter=1))

    assert_refutes(check)


def test_a_search_recording_the_wrong_scores_is_refuted():
    @given(model=network_models(max_variables=3, positive=True), rng=rngs(),
           n=st.integers(5, 60))
    def check(model, rng, n):
        X = networks.sample_from_joint(model, n, rng)
        networks.check_greedy(X, model.cards, 1.0,
                              search=lambda X, cards, score: hill_climb(X, cards, score=2.0))

    assert_refutes(check)


def skeleton_separated(model):
    """Separation in the undirected skeleton (no moralisation): misses explaining away."""
    net = BayesianNetwork(model.parents, model.float_cpts())
    A = np.zeros((net.n_variables,) * 2, dtype=bool)
    for p, c in net.edges:
        A[p, c] = A[c, p] = True

    def separated(x, y, zs):
        B = A.copy()
        B[list(zs), :] = False
        B[:, list(zs)] = False
        reach, stack = set(), list(x)
        while stack:
            v = stack.pop()
            if v not in reach:
                reach.add(v)
                stack.extend(np.flatnonzero(B[v]).tolist())
        return not (reach & set(y))

    return separated


def test_separation_without_moralisation_is_refuted():
    @given(model=network_models(max_variables=4, max_card=2, positive=True))
    def check(model):
        networks.check_d_separation(model, separated=skeleton_separated(model))

    assert_refutes(check)


def forward_sampler(net: BayesianNetwork, ev, n_chains, burn_in, seed):
    """Ancestral sampling with the evidence overwritten: ignores what the evidence says
    about its ancestors."""
    X = net.sample(n_chains, random_state=seed)
    for var, val in ev.items():
        X[:, var] = val
    return X


def test_a_sampler_ignoring_the_evidence_is_refuted():
    @given(data=network_models(positive=True).flatmap(
        lambda m: st.tuples(st.just(m), networks.queries(m))), rng=rngs())
    def check(data, rng):
        model, (_, ev) = data
        networks.check_gibbs(model, ev, rng, n_chains=500, sampler=forward_sampler)

    assert_refutes(check)


# ---------------------------------------------------------------------------
# EM
# ---------------------------------------------------------------------------


class SwappedMixture(CategoricalMixtureModel):
    """M-step pairing each component's weight with the next component's tables."""

    def m_step(self, data, resp):
        p = super().m_step(data, resp)
        return MixtureParams(p.weights, [np.roll(t, 1, axis=0) for t in p.theta])


def test_a_broken_mixture_m_step_lowers_the_likelihood():
    @given(problem=em.mixture_problems())
    def check(problem):
        model, data, (_, start), codes = problem
        broken = SwappedMixture(model.n_components, model.n_values)
        check_em_monotone(broken, data, start, em.mixture_ll(codes), label="broken")

    assert_refutes(check)


class ShiftedRowsNetwork(MissingDataNetworkModel):
    """M-step giving each parent value the CPT row estimated for the next one."""

    def m_step(self, data, expected):
        cpts = super().m_step(data, expected)
        return [np.roll(t, 1, axis=0) if t.ndim > 1 else t[::-1] for t in cpts]


def test_a_broken_network_m_step_lowers_the_likelihood():
    @given(problem=em.missing_data_problems())
    def check(problem):
        model, data, (_, start), X = problem
        broken = ShiftedRowsNetwork(model.parents, model.cards)
        check_em_monotone(broken, data, start,
                          lambda c: em.network_observed_ll(model.parents, model.cards, X, c),
                          label="broken")

    assert_refutes(check)


class MisreportingMixture(CategoricalMixtureModel):
    """E-step recording the log-likelihood of the uniform mixture, not of its input."""

    def e_step(self, data, params):
        resp, _ = super().e_step(data, params)
        uniform = MixtureParams(np.full(self.n_components, 1 / self.n_components),
                                [np.full((self.n_components, r), 1 / r) for r in self.n_values])
        return resp, super().e_step(data, uniform)[1]


def test_a_trace_that_is_not_the_iterates_likelihood_is_refuted():
    @given(problem=em.mixture_problems())
    def check(problem):
        model, data, (_, start), codes = problem
        broken = MisreportingMixture(model.n_components, model.n_values)
        check_em_monotone(broken, data, start, em.mixture_ll(codes), label="misreported")

    assert_refutes(check)


def test_an_m_step_with_uniform_weights_does_not_maximise_q():
    @given(rng=rngs(), n=st.integers(2, 5), data=st.data())
    def check(rng, n, data):
        n_values = [2, 2]
        codes = np.column_stack([rng.integers(0, 2, size=n) for _ in n_values])
        model = CategoricalMixtureModel(2, n_values)

        def m_step(d, resp):
            p = model.m_step(d, resp)
            return MixtureParams(np.full(2, 0.5), p.theta)

        em.check_q_function(codes, n_values, 2, rng, m_step=m_step)

    assert_refutes(check)


def test_swapped_hard_em_lowers_the_classification_likelihood():
    @given(problem=em.mixture_problems(assignment="hard"))
    def check(problem):
        model, data, start, codes = problem
        broken = SwappedMixture(model.n_components, model.n_values, assignment="hard")
        em.check_classification_monotone(broken, data, start, codes)

    assert_refutes(check)


# ---------------------------------------------------------------------------
# Derivations
# ---------------------------------------------------------------------------


def test_the_unbiased_variance_is_not_a_stationary_point():
    m = 3
    xs = sp.symbols(f"x1:{m + 1}", real=True)
    v = sp.symbols("v", positive=True)
    mean = sum(xs) / m
    ll = sum(-sp.log(2 * sp.pi * v) / 2 - (x - mean) ** 2 / (2 * v) for x in xs)
    unbiased_var = sum((x - mean) ** 2 for x in xs) / (m - 1)
    deriv = Derivation("unbiased variance")
    deriv.equal("d LL / d v = 0", sp.diff(ll, v).subs(v, unbiased_var), 0)
    try:
        deriv.verify()
    except AssertionError as exc:
        assert "step 1" in str(exc)
    else:
        raise AssertionError("the derivation accepted the unbiased variance")


def test_frequencies_without_normalisation_do_not_solve_the_lagrangian():
    n = sp.symbols("n1:3", positive=True)
    deriv = Derivation("counts as probabilities").equal("sum theta", n[0] + n[1], 1)
    try:
        deriv.verify()
    except AssertionError:
        return
    raise AssertionError("counts were accepted as a distribution")


def test_categorical_mle_passes_its_check():
    @given(counts=st.lists(st.integers(0, 30), min_size=2, max_size=5).filter(
        lambda c: sum(c) > 0), rng=rngs())
    def check(counts, rng):
        x = np.repeat(np.arange(len(counts)), counts)
        mle.check_categorical_mle(x, len(counts), rng, estimate=categorical_mle)

    assert_holds(check)
