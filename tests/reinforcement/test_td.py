"""Behaviour of the td part: Sarsa, QLearning (compiled and Python paths), LinearTD, lstd,
LinearValueRegression, LinearSarsa."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from sklearn.exceptions import ConvergenceWarning, NotFittedError

from algorithms.reinforcement import (
    LinearSarsa,
    LinearTD,
    LinearValueRegression,
    QLearning,
    Sarsa,
    TabularMDP,
    from_gymnasium,
    lstd,
    on_policy_distribution,
    random_mdp,
)


@pytest.fixture(scope="module")
def mdp():
    return random_mdp(5, 3, n_terminal=1, random_state=0)


@pytest.mark.parametrize("cls", [Sarsa, QLearning])
@pytest.mark.parametrize("schedule", [{}, {"alpha_power": 0.7, "epsilon_power": 0.5},
                                      {"n_episodes": 60, "n_steps": None}])
def test_compiled_and_python_paths_give_identical_q(mdp, cls, schedule):
    kw = {"n_steps": 2500, "random_state": 7, **schedule}
    fast = cls(**kw).fit(mdp)
    slow = cls(compiled=False, **kw).fit(mdp)
    rec = cls(record_history=True, **kw).fit(mdp)
    assert np.array_equal(fast.Q_, slow.Q_) and np.array_equal(fast.Q_, rec.Q_)
    assert np.array_equal(fast.episode_returns_, slow.episode_returns_)
    assert fast.n_steps_ == slow.n_steps_ and fast.n_episodes_ == slow.n_episodes_
    assert np.array_equal(fast.visits_, slow.visits_)
    if "n_episodes" in schedule:
        assert fast.n_episodes_ == 60 and fast.converged_


def test_identity_holds_on_a_sparse_gymnasium_model():
    gymnasium = pytest.importorskip("gymnasium")
    lake = from_gymnasium(gymnasium.make("FrozenLake-v1", map_name="8x8"))
    a = QLearning(n_steps=8000, epsilon=0.5, random_state=3).fit(lake)
    b = QLearning(n_steps=8000, epsilon=0.5, random_state=3, compiled=False).fit(lake)
    assert np.array_equal(a.Q_, b.Q_)


def test_same_seed_same_result_and_different_seeds_differ(mdp):
    a = Sarsa(n_steps=3000, random_state=1).fit(mdp)
    b = Sarsa(n_steps=3000, random_state=1).fit(mdp)
    c = Sarsa(n_steps=3000, random_state=2).fit(mdp)
    assert np.array_equal(a.Q_, b.Q_) and not np.array_equal(a.Q_, c.Q_)


def test_terminal_target_is_the_reward_and_episodes_restart():
    # 0 -> 1 (terminal) with reward 1 whatever the action: Q(0, a) -> 1, Q(1, .) = 0
    P = np.zeros((2, 2, 2))
    P[:, 0, 1] = 1.0
    P[:, 1, 1] = 1.0
    R = np.zeros((2, 2, 2))
    R[:, 0, 1] = 1.0
    mdp = TabularMDP(P, R, terminal=[1])
    for cls in (Sarsa, QLearning):
        est = cls(gamma=0.9, alpha=0.5, epsilon=1.0, n_episodes=100, random_state=0,
                  record_history=True).fit(mdp)
        assert est.n_episodes_ == 100 and est.n_steps_ == 100
        assert np.all(est.history_["done"]) and np.allclose(est.history_["target"], 1.0)
        assert np.allclose(est.Q_[0], 1.0, atol=1e-6) and np.all(est.Q_[1] == 0.0)
        assert np.all(est.episode_returns_ == 1.0)


def test_truncated_episode_bootstraps():
    # a single absorbing non-terminal state with reward 1: Q -> 1/(1-γ) despite truncation
    mdp = TabularMDP(np.ones((1, 1, 1)), np.ones((1, 1, 1)))
    est = QLearning(gamma=0.5, alpha=0.5, n_steps=400, max_episode_length=3,
                    random_state=0).fit(mdp)
    assert est.Q_[0, 0] == pytest.approx(2.0, abs=1e-6)
    assert est.n_episodes_ == 133


def test_sarsa_executes_the_action_it_bootstrapped_on(mdp):
    est = Sarsa(n_steps=500, epsilon=0.4, random_state=0, record_history=True).fit(mdp)
    h = est.history_
    cont = ~h["done"][:-1] & (h["next_state"][:-1] == h["state"][1:])
    # within an episode the next update is for (x', a') chosen at the previous step
    same_episode = cont & (np.arange(h["done"].size - 1) % 1000 != 999)
    assert np.array_equal(h["action"][1:][same_episode], h["next_action"][:-1][same_episode])


def test_qlearning_learns_the_optimal_policy_on_frozenlake_4x4():
    gymnasium = pytest.importorskip("gymnasium")
    lake = from_gymnasium(gymnasium.make("FrozenLake-v1"))
    est = QLearning(gamma=0.95, alpha=1.0, alpha_power=0.8, epsilon=1.0, n_steps=400_000,
                    max_episode_length=100, random_state=0).fit(lake)
    # exact Q* by value iteration on the model (reference)
    P, r = lake.P, lake.expected_reward
    V = np.zeros(lake.n_states)
    for _ in range(2000):
        V = (r + 0.95 * np.einsum("asj,j->sa", P, V)).max(axis=1)
    Qstar = r + 0.95 * np.einsum("asj,j->sa", P, V)
    assert np.abs(est.Q_ - Qstar).max() < 0.05


def test_qlearning_on_a_gymnasium_env_directly():
    gymnasium = pytest.importorskip("gymnasium")
    env = gymnasium.make("FrozenLake-v1", is_slippery=False)
    est = QLearning(gamma=0.9, alpha=0.5, epsilon=1.0, n_steps=5000, random_state=0).fit(env)
    assert est.Q_.shape == (16, 4) and np.all(np.isfinite(est.Q_))
    assert est.Q_[14, 2] == pytest.approx(1.0, abs=1e-3)  # the step into the goal
    with pytest.raises(ValueError, match="start"):
        QLearning(start=0).fit(env)


def test_unfitted_and_bad_input(mdp):
    with pytest.raises(NotFittedError):
        Sarsa().predict([0])
    with pytest.raises(ValueError, match="gamma"):
        Sarsa(gamma=1.0).fit(mdp)
    with pytest.raises(ValueError, match="n_steps"):
        QLearning(n_steps=10**9).fit(mdp)
    with pytest.raises(ValueError, match="n_steps"):
        QLearning(n_steps=10**7, record_history=True).fit(mdp)
    with pytest.raises(ValueError, match="env"):
        QLearning().fit("FrozenLake-v1")
    est = QLearning(n_steps=100, random_state=0).fit(mdp)
    assert est.predict([0, 1]).shape == (2,)
    assert est.get_params()["gamma"] == 0.9


def test_divergence_is_caught_with_a_warning():
    # a step α > 2/(1-γ): each update multiplies Q by 1 - α(1-γ) = -2, so it overflows;
    # the learner stops, warns, and keeps the last finite table
    mdp = TabularMDP(np.ones((1, 1, 1)), np.ones((1, 1, 1)))
    with pytest.warns(ConvergenceWarning, match="non-finite"):
        est = QLearning(gamma=0.99, alpha=300.0, n_steps=5000, random_state=0).fit(mdp)
    assert est.diverged_ and not est.converged_ and np.all(np.isfinite(est.Q_))
    with pytest.warns(ConvergenceWarning, match="non-finite"):
        lin = LinearSarsa(gamma=0.99, alpha=300.0, n_steps=5000, random_state=0
                          ).fit(mdp, np.ones((1, 1)))
    assert lin.diverged_ and np.all(np.isfinite(lin.theta_))


def test_linear_sarsa_diverges_gracefully_with_a_large_step():
    mdp = random_mdp(4, 2, random_state=1)
    feats = np.random.default_rng(0).normal(size=(4, 3)) * 30
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        lin = LinearSarsa(gamma=0.99, alpha=1.0, n_steps=5000, random_state=0).fit(mdp, feats)
    assert lin.diverged_ and any(issubclass(w.category, ConvergenceWarning) for w in caught)
    assert np.all(np.isfinite(lin.theta_))


def test_unfinished_episodes_warn():
    mdp = TabularMDP(np.ones((1, 1, 1)), np.zeros((1, 1, 1)))
    with pytest.warns(ConvergenceWarning, match="episodes"):
        est = Sarsa(n_episodes=10, n_steps=20, max_episode_length=5, random_state=0).fit(mdp)
    assert est.n_episodes_ == 4 and not est.converged_


# --- approximation -------------------------------------------------------------------


def test_lstd_with_tabular_features_is_the_exact_value():
    mdp = random_mdp(5, 2, random_state=3)
    pi = np.full((5, 2), 0.5)
    res = lstd(mdp, pi, np.eye(5), 0.8)
    P_pi, r_pi = mdp.policy_model(pi)
    V = np.linalg.solve(np.eye(5) - 0.8 * P_pi, r_pi)
    assert np.allclose(res.V, V) and np.allclose(res.theta, V)
    assert not res.rank_deficient


def test_lstd_is_scale_covariant_and_handles_singular_a():
    mdp = random_mdp(4, 2, random_state=4)
    pi = np.full((4, 2), 0.5)
    F = np.random.default_rng(0).normal(size=(4, 2))
    a, b = lstd(mdp, pi, F, 0.5), lstd(mdp, pi, 1e50 * F, 0.5)
    assert np.allclose(a.theta, 1e50 * b.theta) and np.allclose(a.V, b.V)
    dup = np.column_stack([F[:, 0], F[:, 0]])
    res = lstd(mdp, pi, dup, 0.5)
    assert res.rank_deficient and np.all(np.isfinite(res.theta))


def test_on_policy_distributions():
    mdp = random_mdp(4, 2, random_state=5)
    pi = np.full((4, 2), 0.5)
    d = on_policy_distribution(mdp, pi)
    P_pi, _ = mdp.policy_model(pi)
    assert np.allclose(d @ P_pi, d) and d.sum() == pytest.approx(1.0)
    disc = on_policy_distribution(mdp, pi, kind="discounted", gamma=0.0)
    assert np.allclose(disc, mdp.initial)
    ep = random_mdp(4, 2, n_terminal=1, random_state=5)
    visits = on_policy_distribution(ep, pi)
    assert visits[-1] == 0.0 and visits.sum() == pytest.approx(1.0)
    with pytest.raises(ValueError, match="gamma"):
        on_policy_distribution(mdp, pi, kind="discounted")


def test_linear_td_python_path_on_gymnasium_matches_lstd_roughly():
    gymnasium = pytest.importorskip("gymnasium")
    env = gymnasium.make("FrozenLake-v1", is_slippery=False)
    lake = from_gymnasium(env)
    pi = np.full((16, 4), 0.25)
    feats = np.eye(16)
    td = LinearTD(gamma=0.9, alpha=0.1, n_steps=8000, random_state=0).fit(env, pi, feats)
    assert np.all(np.isfinite(td.theta_)) and td.n_steps_ == 8000
    ref = lstd(lake, pi, feats, 0.9)
    assert np.abs(td.theta_ - ref.theta).max() < 0.1


def test_linear_td_records_history_and_predicts():
    mdp = random_mdp(4, 2, random_state=6)
    pi = np.full((4, 2), 0.5)
    F = np.random.default_rng(1).normal(size=(4, 2))
    td = LinearTD(n_steps=5000, record_history=True, history_every=1000, random_state=0
                  ).fit(mdp, pi, F)
    assert td.theta_history_.shape == (6, 2)
    assert np.array_equal(td.theta_history_[-1], td.theta_)
    assert td.predict(F).shape == (4,)
    with pytest.raises(NotFittedError):
        LinearTD().predict(F)


def test_value_regression_exact_in_the_span():
    rng = np.random.default_rng(2)
    F = rng.normal(size=(5, 2))
    theta = np.array([1.0, -2.0])
    model = LinearValueRegression(alpha=0.3, n_steps=20_000, random_state=0,
                                  record_history=True, history_every=5000).fit(F, F @ theta)
    assert np.allclose(model.theta_, theta, atol=1e-6)
    assert model.theta_history_.shape == (5, 2)
    assert np.allclose(model.predict(F), F @ theta, atol=1e-5)


def test_linear_td_episode_cap_restarts_from_the_start_state():
    # a deterministic chain 0 -> 1 -> 2 -> 3 (absorbing), reward 1 per move: with episodes
    # cut after one step, only state 0 is ever updated (one-hot features: theta = V)
    S = 4
    P = np.zeros((1, S, S))
    for x in range(S - 1):
        P[0, x, x + 1] = 1.0
    P[0, S - 1, S - 1] = 1.0
    R = np.ones((1, S))
    R[0, S - 1] = 0.0
    chain = TabularMDP(P, R, initial=0)
    policy = np.zeros(S, dtype=int)
    capped = LinearTD(gamma=0.5, alpha=0.5, n_steps=200, max_episode_length=1,
                      random_state=0).fit(chain, policy, np.eye(S))
    assert capped.theta_[0] > 0 and np.all(capped.theta_[1:] == 0.0)
    free = LinearTD(gamma=0.5, alpha=0.5, n_steps=200, random_state=0).fit(
        chain, policy, np.eye(S))
    assert np.all(free.theta_[1:3] > 0)


def test_linear_sarsa_defaults_are_tabular_sarsas(mdp):
    # library defaults (γ 0.9, α 0.1, ε 0.1, 10 000 steps, episodes of 1000): with one-hot
    # features LinearSarsa() takes the same steps as Sarsa(), so θ is Sarsa's Q table
    lin = LinearSarsa(random_state=3).fit(mdp, np.eye(mdp.n_states))
    tab = Sarsa(random_state=3).fit(mdp)
    assert lin.n_steps_ == tab.n_steps_ == 10_000
    assert np.array_equal(lin.theta_.T, tab.Q_)
