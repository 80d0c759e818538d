"""Behaviour of the imitation part (003 §14.6): behaviour cloning, demonstrations, feature
expectations, the max-margin problem and InverseRL (Alg.13)."""

from __future__ import annotations

import warnings

import gymnasium as gym
import numpy as np
import pytest
from sklearn.exceptions import ConvergenceWarning, NotFittedError

from algorithms.linear import SoftmaxRegression
from algorithms.reinforcement import (
    BehaviourCloning,
    InverseRL,
    empirical_feature_expectations,
    expert_trajectories,
    feature_expectations,
    from_gymnasium,
    max_margin_weights,
    mixture_closest,
    random_mdp,
    state_action_pairs,
    value_iteration,
)


def _setting(seed=0, S=5, A=3, d=3, n_terminal=0):
    mdp = random_mdp(S, A, n_terminal=n_terminal, random_state=seed)
    rng = np.random.default_rng(seed)
    return mdp, rng.uniform(-1.0, 1.0, size=(S, d)), rng


# --- behaviour cloning ----------------------------------------------------------------------


def test_cloning_demonstrations_reproduces_the_expert_on_visited_states():
    mdp, Phi, _ = _setting()
    expert = value_iteration(mdp, gamma=0.9).policy
    demos = expert_trajectories(mdp, expert, 20, 15, random_state=0)
    states, actions = state_action_pairs(demos)
    assert np.array_equal(actions, expert[states])
    bc = BehaviourCloning().fit(np.eye(5)[states], actions)
    pi = bc.policy_matrix(np.eye(5), n_actions=3)
    visited = np.unique(states)
    assert np.array_equal(pi[visited].argmax(axis=1), expert[visited])
    assert np.allclose(pi.sum(axis=1), 1.0)


def test_cloning_with_softmax_regression_base():
    X = np.repeat(np.eye(4), 3, axis=0)
    y = np.repeat([0, 2, 1, 2], 3)
    bc = BehaviourCloning(SoftmaxRegression(lam=1e-2)).fit(X, y)
    assert np.array_equal(bc.predict(np.eye(4)), [0, 2, 1, 2])
    pi = bc.policy_matrix(np.eye(4), n_actions=4)
    assert pi.shape == (4, 4) and np.all(pi[:, 3] == 0.0)
    assert np.array_equal(pi.argmax(axis=1), [0, 2, 1, 2])


def test_cloning_a_single_action_expert():
    bc = BehaviourCloning().fit(np.eye(3), [1, 1, 1])
    assert np.array_equal(bc.predict(np.eye(3)), [1, 1, 1])
    assert np.array_equal(bc.policy_matrix(np.eye(3)), [[0, 1]] * 3)
    assert np.array_equal(bc.predict_proba(np.eye(3)), np.ones((3, 1)))


def test_policy_matrix_refuses_too_few_actions_and_non_integer_actions():
    bc = BehaviourCloning().fit(np.eye(3), [0, 2, 1])
    with pytest.raises(ValueError, match="n_actions"):
        bc.policy_matrix(np.eye(3), n_actions=2)
    with pytest.raises(ValueError, match="integer actions"):
        BehaviourCloning().fit(np.eye(2), ["left", "right"]).policy_matrix(np.eye(2))
    with pytest.raises(NotFittedError):
        BehaviourCloning().policy_matrix(np.eye(2))


def test_cloned_policy_as_initial_policy_of_policy_evaluation():
    mdp, Phi, _ = _setting(1)
    expert = value_iteration(mdp, gamma=0.9).policy
    bc = BehaviourCloning().fit(np.vstack([np.eye(5)] * 2), np.concatenate([expert] * 2))
    pi = bc.policy_matrix(np.eye(5), 3)
    P_pi, r_pi = mdp.policy_model(pi)
    V = np.linalg.solve(np.eye(5) - 0.9 * P_pi, r_pi)
    assert np.allclose(V, value_iteration(mdp, gamma=0.9).V, atol=1e-8)


# --- demonstrations and feature expectations -------------------------------------------------


def test_expert_trajectories_are_reproducible_and_stop_at_terminal_states():
    mdp, _, _ = _setting(2, n_terminal=2)
    a = expert_trajectories(mdp, np.zeros(5, dtype=int), 10, 30, random_state=3)
    b = expert_trajectories(mdp, np.zeros(5, dtype=int), 10, 30, random_state=3)
    assert all(np.array_equal(x.states, y.states) for x, y in zip(a, b, strict=True))
    states, _ = state_action_pairs(a)
    assert not mdp.terminal[states].any()  # no action is taken in a terminal state
    assert all(t.actions.size == 30 for t in a)


def test_expert_trajectories_with_a_start_and_a_gymnasium_env():
    mdp, _, _ = _setting(3)
    demos = expert_trajectories(mdp, np.ones(5, dtype=int), 4, 3, random_state=0, start=2)
    assert all(t.states[0] == 2 for t in demos)
    env = gym.make("FrozenLake-v1", is_slippery=True)
    demos = expert_trajectories(env, np.zeros(16, dtype=int), 3, 10, random_state=0)
    assert len(demos) == 3 and all(t.states[0] == 0 for t in demos)


def test_expert_trajectories_cap():
    mdp, _, _ = _setting()
    with pytest.raises(ValueError, match="cap"):
        expert_trajectories(mdp, np.zeros(5, dtype=int), 10**6, 100)


def test_feature_expectations_sparse_equals_dense_and_terminal_states_count_zero():
    dense = random_mdp(6, 2, n_terminal=1, random_state=4)
    sparse = random_mdp(6, 2, n_terminal=1, random_state=4, sparse=True)
    Phi = np.random.default_rng(0).normal(size=(6, 2))
    pi = np.full((6, 2), 0.5)
    mu = feature_expectations(dense, pi, Phi, 0.8)
    assert np.allclose(mu, feature_expectations(sparse, pi, Phi, 0.8), atol=1e-12)
    Phi2 = Phi.copy()
    Phi2[5] = 100.0  # the terminal state's features never count
    assert np.allclose(mu, feature_expectations(dense, pi, Phi2, 0.8), atol=1e-12)


def test_feature_expectations_gamma_zero_is_the_start_distribution():
    mdp, Phi, _ = _setting()
    assert np.allclose(feature_expectations(mdp, np.zeros(5, dtype=int), Phi, 0.0),
                       mdp.initial @ Phi)


def test_empirical_feature_expectations_of_state_sequences():
    Phi = np.array([[1.0, 0.0], [0.0, 1.0]])
    mu = empirical_feature_expectations([[0, 1, 1], [1]], Phi, 0.5)
    assert np.allclose(mu, [(1.0 + 0.0) / 2, (0.5 + 0.25 + 1.0) / 2])


# --- (14.29) -----------------------------------------------------------------------------------


def test_max_margin_zero_inside_the_hull_and_scale_invariant():
    mus = np.array([[1.0, 0.0], [-1.0, 1.0], [-1.0, -1.0]])
    w, m = max_margin_weights(np.zeros(2), mus)
    assert m == 0.0 and np.all(w == 0.0)
    mu = np.array([2.0, 1.0])
    w1, m1 = max_margin_weights(mu, mus)
    w2, m2 = max_margin_weights(1e300 * mu, 1e300 * mus)
    assert np.allclose(w1, w2, atol=1e-6) and np.isclose(m2 / 1e300, m1, rtol=1e-6)
    assert np.isclose(np.linalg.norm(w1), 1.0, atol=1e-7)
    lam, mix = mixture_closest(mu, mus)
    assert np.isclose(np.linalg.norm(mu - mix), m1, rtol=1e-6)


# --- InverseRL (Alg.13) --------------------------------------------------------------------------


def test_inverse_rl_from_demonstrations_with_monte_carlo_rollouts():
    mdp, Phi, _ = _setting(5, S=4, A=2)
    w_star = np.array([1.0, -1.0, 0.5])
    R = np.broadcast_to(Phi @ w_star, (2, 4))
    expert = value_iteration(mdp.with_reward(R), gamma=0.8).policy
    demos = expert_trajectories(mdp, expert, 200, 40, random_state=0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        irl = InverseRL(Phi, gamma=0.8, max_iter=8, tol=0.05, n_rollouts=100, horizon=40,
                        random_state=0).fit(mdp, demos)
    assert irl.mus_.shape == (irl.n_iter_, 3) and len(irl.policies_) == irl.n_iter_
    assert np.all(np.linalg.norm(irl.weights_, axis=1) <= 1 + 1e-7)
    # the best mixture is no farther from x̂* than the best single policy found
    best_single = np.min(np.linalg.norm(irl.mus_ - irl.expert_mu_, axis=1))
    assert np.linalg.norm(irl.mixture_mu_ - irl.expert_mu_) <= best_single + 1e-6


def test_inverse_rl_policy_is_optimal_for_its_reward_weights():
    mdp, Phi, rng = _setting(6, S=5, A=3)
    mu_star = feature_expectations(mdp, rng.dirichlet(np.ones(3), size=5), Phi, 0.9)
    irl = InverseRL(Phi, gamma=0.9, max_iter=100, tol=1e-6, random_state=1).fit(mdp, mu_star)
    assert irl.converged_
    R = np.broadcast_to(Phi @ irl.reward_weights_, (3, 5))
    best = value_iteration(mdp.with_reward(R), gamma=0.9)
    P_pi, r_pi = mdp.with_reward(R).policy_model(irl.policy_)
    V = np.linalg.solve(np.eye(5) - 0.9 * P_pi, r_pi)
    assert np.allclose(V, best.V, atol=1e-7)
    assert np.allclose(irl.reward(), Phi @ irl.reward_weights_)


def test_inverse_rl_warns_when_it_runs_out_of_rounds():
    mdp, Phi, rng = _setting(7, S=5, A=3)
    mu_star = feature_expectations(mdp, rng.dirichlet(np.ones(3), size=5), Phi, 0.9)
    with pytest.warns(ConvergenceWarning):
        irl = InverseRL(Phi, gamma=0.9, max_iter=1, tol=0.0, random_state=0).fit(mdp, mu_star)
    assert not irl.converged_ and irl.n_iter_ == 1


def test_inverse_rl_params_and_not_fitted():
    irl = InverseRL(np.eye(2), gamma=0.5)
    assert irl.get_params()["gamma"] == 0.5
    with pytest.raises(NotFittedError):
        irl.reward()


def test_inverse_rl_on_frozen_lake_model():
    env = gym.make("FrozenLake-v1", is_slippery=False)
    mdp = from_gymnasium(env)
    Phi = np.eye(16)[:, [14, 13, 0]]  # next to the goal, two steps off, the start
    expert = value_iteration(mdp.with_reward(
        np.broadcast_to(np.where(np.arange(16) == 14, 1.0, 0.0), (4, 16))), gamma=0.9).policy
    mu_star = feature_expectations(mdp, expert, Phi, 0.9)
    irl = InverseRL(Phi, gamma=0.9, max_iter=30, tol=1e-6, random_state=0).fit(mdp, mu_star)
    assert irl.converged_
    assert np.linalg.norm(irl.mixture_mu_ - mu_star) <= 1e-5


def test_inverse_rl_stops_when_the_expert_is_out_of_reach():
    mdp, _, _ = _setting(8, S=3, A=2)
    Phi = np.eye(3)[:, :2]
    # the occupancy of states 0 and 1 cannot both be this large at γ = 1/2 (total mass 2)
    with pytest.warns(ConvergenceWarning, match="stalled"):
        irl = InverseRL(Phi, gamma=0.5, max_iter=50, random_state=0).fit(mdp, [1.5, 1.5])
    assert irl.stalled_ and not irl.converged_ and irl.n_iter_ < 50
    assert len({tuple(p) for p in irl.policies_}) == irl.n_iter_


def test_cloning_with_a_base_without_predict_proba():
    from algorithms.perceptron import Perceptron

    X = np.repeat(np.eye(3), 2, axis=0)
    y = np.repeat([0, 1, 0], 2)
    bc = BehaviourCloning(Perceptron()).fit(X, y)
    P = bc.predict_proba(np.eye(3))
    assert np.allclose(P.sum(axis=1), 1.0) and set(np.unique(P)) <= {0.0, 1.0}
    assert np.array_equal(P.argmax(axis=1), bc.predict(np.eye(3)))


def test_inverse_rl_default_tolerance_is_1e_6():
    # a library default (the notes' loop runs to convergence and fixes no threshold)
    mdp, Phi, rng = _setting(6, S=5, A=3)
    mu_star = feature_expectations(mdp, rng.dirichlet(np.ones(3), size=5), Phi, 0.9)
    default = InverseRL(Phi, random_state=1).fit(mdp, mu_star)
    explicit = InverseRL(Phi, gamma=0.9, max_iter=50, tol=1e-6, random_state=1).fit(mdp, mu_star)
    assert default.n_iter_ == explicit.n_iter_ > 1
    assert np.array_equal(default.margins_, explicit.margins_)
