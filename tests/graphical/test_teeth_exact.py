"""The checks of the exact part of 003 Chapter 12 have teeth: the registered claims (or
the check bodies they call) refute deliberately broken variants — an index off by one,
a transposed matrix, a factor dropped or halved, a sign flipped, the target neighbour's
message included in (12.12), a message left out, a separator ignored."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from scipy.special import logsumexp

import properties.graphical.crf as crf_claims
import properties.graphical.hmm as hmm_claims
import properties.graphical.inference as inference_claims
import properties.graphical.mrf as mrf_claims
from algorithms.graphical import (
    Factor,
    belief_propagation,
    crf_log_partition,
    crf_log_probability,
    energy_factor,
    hmm_log_likelihood,
    hmm_sample,
    maximal_cliques,
    separates,
    variable_elimination,
)
from mltheory import get_claim
from mltheory.testing import assert_holds, assert_refutes
from properties.graphical.strategies_exact import mrfs
from properties.graphical.support_exact import check_global_markov


def _run(claim_id: str, expect_refuted: bool = True):
    func = get_claim(claim_id).func
    return assert_refutes(func) if expect_refuted else assert_holds(func)


# ---------------------------------------------------------------------------
# HMM
# ---------------------------------------------------------------------------


def _joint_variant(kind: str):
    def log_joint(A, B, pi, X, Y):
        X, Y = np.atleast_2d(X), np.atleast_2d(Y)
        with np.errstate(divide="ignore"):
            lA, lB, lpi = np.log(A), np.log(B), np.log(pi)
        first = lpi[Y[:, 0]] + lB[Y[:, 0], X[:, 0]]
        if kind == "from_i_3":  # prod over i = 3..n: the first transition dropped
            trans = lA[Y[:, 1:-1], Y[:, 2:]].sum(axis=1)
            emit = lB[Y[:, 1:], X[:, 1:]].sum(axis=1)
        elif kind == "transposed":  # P(y_{i-1} | y_i) read from A
            trans = lA[Y[:, 1:], Y[:, :-1]].sum(axis=1)
            emit = lB[Y[:, 1:], X[:, 1:]].sum(axis=1)
        elif kind == "emission_lag":  # x_i emitted by y_{i-1}
            trans = lA[Y[:, :-1], Y[:, 1:]].sum(axis=1)
            emit = lB[Y[:, :-1], X[:, 1:]].sum(axis=1)
        else:  # "no_first_emission": P(x_1 | y_1) left out
            first = lpi[Y[:, 0]]
            trans = lA[Y[:, :-1], Y[:, 1:]].sum(axis=1)
            emit = lB[Y[:, 1:], X[:, 1:]].sum(axis=1)
        return first + trans + emit

    return log_joint


@pytest.mark.parametrize("kind", ["from_i_3", "transposed", "emission_lag",
                                  "no_first_emission"])
def test_joint_check_refutes_an_index_off_by_one(monkeypatch, kind):
    monkeypatch.setattr(hmm_claims, "hmm_log_joint", _joint_variant(kind))
    _run("hmm.joint_12_1")


def _forward_variant(kind: str):
    def log_likelihood(A, B, pi, X):
        X = np.atleast_2d(X)
        if kind == "transposed":
            A = A.T
        a = pi[None, :] * B[:, X[:, 0]].T
        for t in range(1, X.shape[1]):
            col = X[:, t - 1] if kind == "emission_lag" else X[:, t]
            a = (a @ A) * B[:, col].T
        with np.errstate(divide="ignore"):
            out = np.log(a.sum(axis=1))
        return out - np.log(2.0) if kind == "halved" else out

    return log_likelihood


@pytest.mark.parametrize("kind", ["transposed", "emission_lag", "halved"])
def test_forward_check_refutes_broken_recursions(monkeypatch, kind):
    monkeypatch.setattr(hmm_claims, "hmm_log_likelihood", _forward_variant(kind))
    _run("hmm.forward_equals_bruteforce")


def _sampler_variant(kind: str):
    def sample(A, B, pi, n, n_sequences=1, random_state=None):
        if kind == "flattened_pi":  # pi mixed 20% towards uniform
            pi = 0.8 * pi + 0.2 / pi.size
        X, Y = hmm_sample(A, B, pi, n, n_sequences=n_sequences, random_state=random_state)
        if kind == "emission_lead":  # x_t emitted by y_{t+1} (the last by y_n)
            rng = np.random.default_rng(0)
            src = np.concatenate([Y[:, 1:], Y[:, -1:]], axis=1)
            u = rng.random(src.shape)
            X = (np.cumsum(B, axis=1)[src] <= u[..., None]).sum(axis=-1)
        return X, Y

    return sample


@pytest.mark.parametrize("kind", ["flattened_pi", "emission_lead"])
def test_generation_check_refutes_broken_samplers(monkeypatch, kind):
    monkeypatch.setattr(hmm_claims, "hmm_sample", _sampler_variant(kind))
    _run("hmm.generation_matches_joint")


def test_long_sequence_check_refutes_a_dropped_step(monkeypatch):
    monkeypatch.setattr(hmm_claims, "hmm_log_likelihood",
                        lambda A, B, pi, x: hmm_log_likelihood(A, B, pi, x[:-1]))
    _run("hmm.forward_long_sequences")


def test_markov_chain_check_holds_and_its_as_written_twin_is_refuted():
    _run("hmm.markov_chain", expect_refuted=False)
    _run("hmm.markov_as_written")


# ---------------------------------------------------------------------------
# MRF
# ---------------------------------------------------------------------------


def test_clique_check_refutes_edges_only(monkeypatch):
    def edges_only(adj):
        adj = np.asarray(adj, dtype=bool)
        return sorted(tuple(map(int, e)) for e in zip(*np.nonzero(np.triu(adj)), strict=True))

    monkeypatch.setattr(mrf_claims, "maximal_cliques", edges_only)
    _run("mrf.maximal_cliques")


def test_clique_check_refutes_a_missing_isolated_node(monkeypatch):
    monkeypatch.setattr(mrf_claims, "maximal_cliques",
                        lambda adj: [c for c in maximal_cliques(adj) if len(c) > 1])
    _run("mrf.maximal_cliques")


@pytest.mark.parametrize("kind", ["ignores_c", "one_edge_missing"])
def test_global_markov_check_refutes_a_wrong_separation(kind):
    def broken(adj, A, B, C):
        if kind == "ignores_c":  # any non-empty C is taken to separate
            return bool(C) or separates(adj, A, B, C)
        adj = np.array(adj, dtype=bool)
        i, j = np.argwhere(np.triu(adj))[0] if adj.any() else (0, 0)
        adj[i, j] = adj[j, i] = False
        return separates(adj, A, B, C)

    def check(case):  # the check body of mrf.global_markov, given the broken test
        P = mrf_claims.mrf_joint(mrf_claims._factors(case), case.cardinalities)
        check_global_markov(P, case.adjacency, broken)

    assert_refutes(given(case=mrfs())(check))


def test_local_markov_check_refutes_a_blanket_missing_a_neighbour(monkeypatch):
    def short_blanket(adj, v):
        nb = list(np.flatnonzero(np.asarray(adj)[v]))
        return tuple(nb[1:])

    monkeypatch.setattr(mrf_claims, "markov_blanket", short_blanket)
    _run("mrf.local_pairwise_markov")


@pytest.mark.parametrize("kind", ["sign", "halved_alpha", "unordered_pairs"])
def test_energy_check_refutes_a_wrong_potential(monkeypatch, kind):
    def broken(variables, alpha, beta, states):
        if kind == "halved_alpha":
            alpha = 0.5 * np.asarray(alpha)
        if kind == "unordered_pairs":  # each pair once (u < v) instead of both orders
            alpha = np.triu(np.asarray(alpha), 1)
        f = energy_factor(variables, alpha, beta, states)
        return Factor.from_log(f.variables, -f.log_values) if kind == "sign" else f

    monkeypatch.setattr(mrf_claims, "energy_factor", broken)
    _run("mrf.exp_potential_12_6_12_7")


def test_joint_check_refutes_a_dropped_factor(monkeypatch):
    real = mrf_claims.mrf_joint
    monkeypatch.setattr(mrf_claims, "mrf_joint",
                        lambda fs, cards: real(fs[1:] if len(fs) > 1 else fs, cards))
    _run("mrf.joint_12_5")


# ---------------------------------------------------------------------------
# CRF
# ---------------------------------------------------------------------------


def test_crf_check_refutes_position_indexed_weights(monkeypatch):
    def printed(Y, T, S, lam, mu):  # lambda_i: the weight of position i for every j
        n = S.shape[1]
        if T.shape[0] and n > 1:
            w = np.resize(lam, n - 1)
            T = np.broadcast_to(T.sum(axis=0, keepdims=True) * w[None, :, None, None],
                                (1, *T.shape[1:]))
            lam = np.ones(1)
        return crf_log_probability(Y, T, S, lam, mu)

    monkeypatch.setattr(crf_claims, "crf_log_probability", printed)
    _run("crf.normalised_12_9")


@pytest.mark.parametrize("kind", ["last_position_dropped", "halved"])
def test_crf_check_refutes_a_wrong_partition(monkeypatch, kind):
    def broken(T, S, lam, mu):
        if kind == "halved":
            return crf_log_partition(T, S, lam, mu) - np.log(2.0)
        if S.shape[1] == 1:
            return crf_log_partition(T, S, lam, mu) + 1.0
        return crf_log_partition(T[:, :-1], S[:, :-1], lam, mu)

    monkeypatch.setattr(crf_claims, "crf_log_partition", broken)
    _run("crf.normalised_12_9")


def test_crf_markov_check_refutes_a_long_range_feature(monkeypatch):
    def long_range(Y, T, S, lam, mu):  # adds a coupling between y_1 and y_n
        out = crf_log_probability(Y, T, S, lam, mu)
        Y = np.atleast_2d(Y)
        extra = 1.5 * (Y[:, 0] == Y[:, -1])
        return out + extra - logsumexp(out + extra)

    monkeypatch.setattr(crf_claims, "crf_log_probability", long_range)
    _run("crf.markov_12_8")


# ---------------------------------------------------------------------------
# Variable elimination and belief propagation
# ---------------------------------------------------------------------------


def _ve_variant(kind: str):
    def ve(factors, query, evidence=None, order="min_degree", record=False):
        if kind == "factor_dropped":  # the last factor replaced by ones (its scope kept)
            last = factors[-1]
            factors = [*factors[:-1], Factor(last.variables, np.ones(last.log_values.shape))]
        if kind == "evidence_ignored" and evidence:
            first = next(iter(evidence))
            evidence = {v: s for v, s in evidence.items() if v != first}
            order = "min_degree"
            query = list(query) + [first]
            res = variable_elimination(factors, query, evidence, order, record=record)
            res.probabilities = res.probabilities.sum(axis=-1)
            res.variables = res.variables[:-1]
            return res
        return variable_elimination(factors, query, evidence, order, record=record)

    return ve


@pytest.mark.parametrize("kind", ["factor_dropped", "evidence_ignored"])
def test_conditional_check_refutes_broken_elimination(monkeypatch, kind):
    monkeypatch.setattr(inference_claims, "variable_elimination", _ve_variant(kind))
    _run("infer.conditional_12_10_12_11")


def test_every_order_check_refutes_a_dropped_factor(monkeypatch):
    monkeypatch.setattr(inference_claims, "variable_elimination", _ve_variant("factor_dropped"))
    _run("ve.exact")


def _bp_variant(kind: str):
    def bp(edges, pairwise, unary=None, *, root=0):
        res = belief_propagation(edges, pairwise, unary, root=root)
        n, k = res.marginals.shape
        if kind == "message_dropped":
            res.schedule = res.schedule[:-1]
            res.n_messages -= 1
        elif kind == "target_included":  # (12.12) with the product over all of n(i)
            msgs = {}
            nbrs = {v: [] for v in range(n)}
            for i, j in np.asarray(edges).tolist():
                nbrs[i].append(j)
                nbrs[j].append(i)
            psi = {}
            for e, (i, j) in enumerate(np.asarray(edges).tolist()):
                psi[(i, j)], psi[(j, i)] = np.log(pairwise[e]), np.log(pairwise[e]).T
            phi = np.zeros((n, k)) if unary is None else np.log(unary)
            for i, j in res.schedule:
                b = phi[i] + sum((msgs.get((m, i), np.zeros(k)) for m in nbrs[i]),
                                 start=np.zeros(k))
                msgs[(i, j)] = logsumexp(psi[(i, j)] + b[:, None], axis=0)
            res.log_messages = msgs
            beliefs = phi + np.array([sum((msgs[(m, i)] for m in nbrs[i]),
                                          start=np.zeros(k)) for i in range(n)])
            res.marginals = np.exp(beliefs - logsumexp(beliefs, axis=1, keepdims=True))
        elif kind == "unary_left_out":  # (12.13) without the node potential
            res.marginals = np.array([
                np.exp(sum(res.log_messages[(m, v)] for m in range(n)
                           if (m, v) in res.log_messages)
                       - logsumexp(sum(res.log_messages[(m, v)] for m in range(n)
                                       if (m, v) in res.log_messages))) for v in range(n)])
        elif kind == "first_pass_only":  # marginals of the upward pass: right at the root
            res.marginals = np.tile(res.marginals[root], (n, 1))
        return res

    return bp


@pytest.mark.parametrize("kind", ["message_dropped", "target_included", "unary_left_out",
                                  "first_pass_only"])
def test_bp_check_refutes_broken_propagation(monkeypatch, kind):
    monkeypatch.setattr(inference_claims, "belief_propagation", _bp_variant(kind))
    _run("beliefprop.tree_exact_12_12_12_13")


def test_redundancy_check_refutes_messages_that_differ_from_elimination(monkeypatch):
    monkeypatch.setattr(inference_claims, "belief_propagation", _bp_variant("target_included"))
    _run("ve.redundancy")


def test_send_rule_check_refutes_the_literal_rule(monkeypatch):
    real = inference_claims.messages_sent_under
    monkeypatch.setattr(inference_claims, "messages_sent_under",
                        lambda rule, edges: real("nodes", edges))
    _run("beliefprop.send_rule")
    _run("beliefprop.send_rule_as_printed")


def test_params_check_refutes_a_transposed_transition_reading(monkeypatch):
    from properties.graphical.support_exact import hmm_joint_table

    monkeypatch.setattr(hmm_claims, "hmm_joint_table",
                        lambda A, B, pi, n: hmm_joint_table(A.T / A.T.sum(axis=1, keepdims=True),
                                                            B, pi, n))
    _run("hmm.params_12_2_12_4")


def test_params_check_refutes_an_unvalidated_transition(monkeypatch):
    monkeypatch.setattr(hmm_claims, "hmm_log_likelihood", lambda *args: 0.0)
    _run("hmm.params_12_2_12_4")


def test_markov_chain_check_refutes_a_second_order_chain(monkeypatch):
    from properties.graphical.support_exact import hmm_joint_table

    def second_order(A, B, pi, n):  # y_3 reweighted by agreement with y_1
        P = hmm_joint_table(A, B, pi, n)
        if n >= 3 and A.shape[0] > 1:
            N = A.shape[0]
            w = 1.0 + 2.0 * np.equal.outer(np.arange(N), np.arange(N))
            shape = [1] * P.ndim
            shape[n], shape[n + 2] = N, N
            P = P * w.reshape(shape)
            P = P / P.sum()
        return P

    monkeypatch.setattr(hmm_claims, "hmm_joint_table", second_order)
    _run("hmm.markov_chain")


def test_viterbi_check_refutes_per_step_decoding(monkeypatch):
    def greedy(A, B, pi, x):  # the most likely state at each step on its own
        path = np.argmax(B[:, x], axis=0)
        with np.errstate(divide="ignore"):
            return path, float(np.log(pi[path[0]] * B[path[0], x[0]] * np.prod(
                A[path[:-1], path[1:]] * B[path[1:], x[1:]])))

    monkeypatch.setattr(hmm_claims, "hmm_viterbi", greedy)
    _run("hmm.viterbi_max_joint")


def test_long_chain_check_refutes_a_naive_partition(monkeypatch):
    def naive(T, S, lam, mu):  # exp of the scores: overflows for long chains
        edge = np.tensordot(lam, T, axes=1)
        node = np.tensordot(mu, S, axes=1)
        with np.errstate(over="ignore", invalid="ignore"):
            alpha = np.exp(node[0])
            for i in range(edge.shape[0]):
                alpha = np.exp(node[i + 1]) * (alpha @ np.exp(edge[i]))
            return float(np.log(alpha.sum()))

    monkeypatch.setattr(crf_claims, "crf_log_partition", naive)
    _run("crf.forward_long_chain")


def test_forward_derivation_refutes_a_halved_first_transition(monkeypatch):
    import proofs.graphical.exact_inference as proof

    real = proof._prefix
    monkeypatch.setattr(proof, "_prefix",  # a_{y_1 y_2} halved: refuted at the first step
                        lambda y: real(y) / 2 if len(y) > 1 else real(y))
    _run("hmm.forward_symbolic")


def test_elimination_derivation_refutes_a_halved_elimination(monkeypatch):
    import proofs.graphical.exact_inference as proof

    def halved(factors, query, *args, **kwargs):
        res = variable_elimination(factors, query, *args, **kwargs)
        res.probabilities = res.probabilities * np.array([0.5, 1.0])
        return res

    monkeypatch.setattr(proof, "variable_elimination", halved)
    _run("ve.distributive_symbolic")
