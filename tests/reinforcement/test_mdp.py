"""The MDP core: validation, dense/sparse agreement, backups, sampling, gymnasium."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import given, settings
from scipy.stats import chi2

from algorithms.reinforcement import (
    TabularMDP,
    as_policy_matrix,
    epsilon_greedy_policy,
    from_gymnasium,
    greedy_policy,
    make_simulator,
    random_mdp,
)
from properties.reinforcement.strategies import mdps, policies

gymnasium = pytest.importorskip("gymnasium")


def _brute_backup(mdp: TabularMDP, V, w_r, w_v):
    """Σ_{x'} P^a_{x→x'} (w_r R^a_{x→x'} + w_v V(x')) by explicit loops (reference)."""
    P = mdp.P
    Q = np.zeros((mdp.n_states, mdp.n_actions))
    for a in range(mdp.n_actions):
        for x in range(mdp.n_states):
            Q[x, a] = sum(P[a, x, y] * (w_r * mdp._test_R[a, x, y] + w_v * V[y])
                          for y in range(mdp.n_states))
    return Q


@settings(max_examples=40, deadline=None)
@given(mdps(max_terminal=1))
def test_backup_matches_explicit_sum(mdp):
    rng = np.random.default_rng(0)
    V = rng.normal(size=mdp.n_states)
    V[mdp.terminal] = 0.0
    P = mdp.P
    R_dense = np.zeros_like(P)
    # recover R on P's support from the sampler (each stored transition carries its reward)
    indptr, indices, _, rewards = mdp._build_sampler()
    for row in range(mdp.n_actions * mdp.n_states):
        a, x = divmod(row, mdp.n_states)
        for k in range(indptr[row], indptr[row + 1]):
            R_dense[a, x, indices[k]] = rewards[k]
    mdp._test_R = R_dense
    for w_r, w_v in [(1.0, 0.9), (0.25, 0.75)]:
        np.testing.assert_allclose(mdp.backup(V, w_r, w_v), _brute_backup(mdp, V, w_r, w_v),
                                   atol=1e-12)
    # k value functions at once
    Vk = np.stack([V, 2 * V], axis=1)
    np.testing.assert_allclose(mdp.backup(Vk, 1.0, 0.5)[:, :, 1], mdp.backup(2 * V, 1.0, 0.5),
                               atol=1e-12)


@settings(max_examples=30, deadline=None)
@given(mdps())
def test_policy_model_is_the_mixture(mdp):
    pi = np.full((mdp.n_states, mdp.n_actions), 1.0 / mdp.n_actions)
    P_pi, r_pi = mdp.policy_model(pi)
    np.testing.assert_allclose(P_pi, mdp.P.mean(axis=0), atol=1e-12)
    np.testing.assert_allclose(r_pi, mdp.expected_reward.mean(axis=1), atol=1e-12)
    np.testing.assert_allclose(P_pi.sum(axis=1), 1.0, atol=1e-12)


def test_sparse_and_dense_models_agree():
    dense = random_mdp(30, 4, branching=5, n_terminal=2, random_state=3, sparse=False)
    sparse = random_mdp(30, 4, branching=5, n_terminal=2, random_state=3, sparse=True)
    assert sparse.is_sparse and not dense.is_sparse
    np.testing.assert_allclose(sparse.P, dense.P, atol=1e-15)
    np.testing.assert_allclose(sparse.expected_reward, dense.expected_reward, atol=1e-14)
    V = np.random.default_rng(1).normal(size=30)
    np.testing.assert_allclose(sparse.backup(V, 1.0, 0.9), dense.backup(V, 1.0, 0.9),
                               atol=1e-13)
    pi = np.random.default_rng(2).dirichlet(np.ones(4), size=30)
    (Ps, rs), (Pd, rd) = sparse.policy_model(pi), dense.policy_model(pi)
    np.testing.assert_allclose(Ps.toarray(), Pd, atol=1e-15)
    np.testing.assert_allclose(rs, rd, atol=1e-14)


def test_random_mdp_terminal_rows_and_branching():
    mdp = random_mdp(12, 3, branching=4, n_terminal=3, random_state=0)
    assert mdp.terminal.tolist() == [False] * 9 + [True] * 3
    P = mdp.P
    assert np.all((P[:, :9] > 0).sum(axis=2) == 4)
    for x in (9, 10, 11):
        assert np.all(P[:, x, x] == 1.0) and np.all(mdp.expected_reward[x] == 0.0)
    np.testing.assert_allclose(mdp.initial, np.r_[np.full(9, 1 / 9), np.zeros(3)])


def test_sampler_frequencies_match_the_model():
    """Chi-square goodness of fit of sampled next states, rejection level 1e-6."""
    mdp = random_mdp(6, 2, random_state=5)
    sim = make_simulator(mdp, random_state=11, start=2)
    n = 20_000
    counts = np.zeros(6)
    total = 0.0
    for _ in range(n):
        sim.reset()
        r, x, _ = sim.step(1)
        counts[x] += 1
        total += r
    expected = n * mdp.P[1, 2]
    stat = np.sum((counts - expected) ** 2 / expected)
    assert stat < chi2.ppf(1 - 1e-6, df=5), stat
    # the sampled rewards average to r(x, a) (rewards bounded by 1: Hoeffding at 1e-6)
    assert abs(total / n - mdp.expected_reward[2, 1]) < np.sqrt(2 * np.log(2e6) / n)


def test_simulator_is_seeded():
    mdp = random_mdp(5, 3, n_terminal=1, random_state=0)

    def run(seed):
        sim = make_simulator(mdp, random_state=seed)
        out = [sim.reset()]
        for a in [0, 1, 2, 1, 0, 2]:
            out.append(sim.step(a))
        return out

    assert run(4) == run(4)
    assert run(4) != run(5) or run(4) != run(6)


def test_terminal_rows_are_enforced():
    P = np.array([[[0.5, 0.5], [0.5, 0.5]]])
    with pytest.raises(ValueError, match="terminal"):
        TabularMDP(P, np.zeros((1, 2, 2)), terminal=[1])
    P = np.array([[[0.5, 0.5], [0.0, 1.0]]])
    R = np.zeros((1, 2, 2))
    R[0, 1, 1] = 1.0
    with pytest.raises(ValueError, match="terminal"):
        TabularMDP(P, R, terminal=[1])
    mdp = TabularMDP(P, np.zeros((1, 2, 2)), terminal=[1])
    assert mdp.initial.tolist() == [1.0, 0.0]
    with pytest.raises(ValueError, match="R"):
        mdp.with_reward(np.ones((1, 2)))


@pytest.mark.parametrize("bad, name", [
    (np.full((1, 2, 2), 0.4), "P"),
    (np.array([[[1.5, -0.5], [0.5, 0.5]]]), "P"),
    (np.array([[[np.nan, 1.0], [0.5, 0.5]]]), "P"),
])
def test_bad_transition_models(bad, name):
    with pytest.raises(ValueError, match=name):
        TabularMDP(bad, np.zeros((1, 2, 2)))


def test_sparse_rows_must_be_stochastic():
    with pytest.raises(ValueError, match="P"):
        TabularMDP([sp.csr_matrix(np.array([[0.5, 0.4], [0.0, 1.0]]))], np.zeros((1, 2)))


def test_policies():
    np.testing.assert_array_equal(as_policy_matrix(np.array([1, 0]), 2, 2), [[0, 1], [1, 0]])
    with pytest.raises(ValueError, match="policy"):
        as_policy_matrix(np.array([[0.5, 0.6], [1.0, 0.0]]), 2, 2)
    Q = np.array([[1.0, 1.0, 0.0], [0.0, 2.0, 2.0]])
    assert greedy_policy(Q).tolist() == [0, 1]
    assert greedy_policy(Q, prefer=np.array([1, 2])).tolist() == [1, 2]
    pi = epsilon_greedy_policy(np.array([2, 0]), 0.3, 3)
    np.testing.assert_allclose(pi, [[0.1, 0.1, 0.8], [0.8, 0.1, 0.1]])
    np.testing.assert_allclose(epsilon_greedy_policy(Q, 0.0), [[1, 0, 0], [0, 1, 0]])


@settings(max_examples=20, deadline=None)
@given(mdps(max_states=3, max_actions=2).flatmap(
    lambda m: policies(m.n_states, m.n_actions).map(lambda p: (m, p))))
def test_policy_rows_sum_to_one(pair):
    mdp, pi = pair
    np.testing.assert_allclose(as_policy_matrix(pi, mdp.n_states, mdp.n_actions).sum(1), 1.0)


@pytest.mark.parametrize("env_id, kwargs", [
    ("FrozenLake-v1", {}), ("FrozenLake-v1", {"map_name": "8x8"}), ("CliffWalking-v1", {}),
    ("Taxi-v4", {}),
])
def test_from_gymnasium_reproduces_the_table(env_id, kwargs):
    env = gymnasium.make(env_id, **kwargs)
    mdp = from_gymnasium(env)
    table = env.unwrapped.P
    S, A = mdp.n_states, mdp.n_actions
    P, r = mdp.P, mdp.expected_reward
    for x in range(S):
        if mdp.terminal[x]:
            assert np.all(P[:, x, x] == 1.0) and np.all(r[x] == 0.0)
            continue
        for a in range(A):
            want_p = np.zeros(S)
            want_r = 0.0
            for p, nxt, rew, _ in table[x][a]:
                want_p[nxt] += p
                want_r += p * rew
            np.testing.assert_allclose(P[a, x], want_p, atol=1e-12)
            assert r[x, a] == pytest.approx(want_r, abs=1e-12)
    # every done transition leads into a terminal state
    done_targets = {nxt for x in range(S) for a in range(A)
                    for _, nxt, _, done in table[x][a] if done}
    assert set(np.flatnonzero(mdp.terminal)) == done_targets


def test_gymnasium_without_a_model_is_refused_but_can_be_simulated():
    env = gymnasium.make("FrozenLake-v1")

    class NoModel(gymnasium.Wrapper):
        @property
        def unwrapped(self):
            return self

    with pytest.raises(ValueError, match="env"):
        from_gymnasium(NoModel(env))
    sim = make_simulator(NoModel(env), random_state=0)
    x = sim.reset()
    assert x == 0
    r, x2, done = sim.step(1)
    assert 0 <= x2 < 16 and r in (0.0, 1.0)
    with pytest.raises(ValueError, match="start"):
        make_simulator(env, random_state=0, start=3)
