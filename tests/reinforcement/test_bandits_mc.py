"""Behaviour of the bandits (003 §14.2) and Monte-Carlo learners (003 §14.4.1)."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest

from algorithms.reinforcement import (
    BernoulliBandit,
    EpsilonGreedyBandit,
    GaussianBandit,
    OffPolicyMonteCarlo,
    OnPolicyMonteCarlo,
    SoftmaxBandit,
    TabularMDP,
    importance_ratio,
    random_mdp,
    running_means,
    sample_trajectory,
    softmax_probabilities,
    trajectory_probability,
    trajectory_returns,
)

# ---------------------------------------------------------------------------------------
# Bandits
# ---------------------------------------------------------------------------------------


def test_bandit_rewards_are_seeded_and_in_range():
    b = BernoulliBandit([0.1, 0.9])
    r1 = b.sample(np.array([0, 1, 1, 0]), random_state=3)
    assert np.array_equal(r1, b.sample(np.array([0, 1, 1, 0]), random_state=3))
    assert set(np.unique(r1)) <= {0.0, 1.0}
    g = GaussianBandit([2.0, -1.0], sigma=0.0)
    assert np.array_equal(g.sample(np.array([0, 1]), 0), [2.0, -1.0])
    assert g.best_mean == 2.0 and g.n_arms == 2
    with pytest.raises(ValueError, match="arm"):
        g.sample(5)


@pytest.mark.parametrize("learner", [EpsilonGreedyBandit, SoftmaxBandit])
def test_bandit_learners_run_1000_steps_by_default(learner):
    # a library default (the notes' Algs. 2 and 4 take the number of tries T as input)
    fitted = learner().fit(BernoulliBandit([0.2, 0.8]))
    assert fitted.n_steps_ == 1000 and fitted.regret_.shape == (1000,)


def test_epsilon_greedy_traces_are_consistent():
    bandit = BernoulliBandit([0.2, 0.5, 0.8])
    a = EpsilonGreedyBandit(epsilon=0.1, n_steps=500, random_state=7).fit(bandit)
    b = EpsilonGreedyBandit(epsilon=0.1, n_steps=500, random_state=7).fit(bandit)
    assert np.array_equal(a.arms_, b.arms_)
    assert a.total_reward_ == pytest.approx(a.rewards_.sum())
    assert np.all(np.diff(a.regret_) >= 0)
    assert a.regret_[-1] == pytest.approx(np.sum(0.8 - bandit.means[a.arms_]))
    assert a.get_params() == {"epsilon": 0.1, "n_steps": 500, "random_state": 7}


def test_epsilon_one_always_explores_and_zero_never():
    bandit = BernoulliBandit([0.2, 0.5, 0.8])
    full = EpsilonGreedyBandit(epsilon=1.0, n_steps=300, random_state=0).fit(bandit)
    assert full.explored_.all()
    greedy = EpsilonGreedyBandit(epsilon=0.0, n_steps=300, random_state=0).fit(bandit)
    assert not greedy.explored_.any()


def test_argmax_ties_are_broken_at_random():
    # arms paying 0: Q stays 0 everywhere, every greedy step is a K-way tie
    learner = EpsilonGreedyBandit(epsilon=0.0, n_steps=3000, random_state=1).fit(
        BernoulliBandit([0.0, 0.0, 0.0]))
    counts = np.bincount(learner.arms_, minlength=3)
    assert counts.min() > 800, counts


def test_inverse_sqrt_schedule():
    learner = EpsilonGreedyBandit(epsilon="inverse_sqrt", n_steps=100, random_state=0).fit(
        BernoulliBandit([0.5, 0.6]))
    assert learner.epsilons_[0] == 1.0 and learner.epsilons_[3] == 0.5
    assert learner.explored_[0]


def test_softmax_bandit_is_finite_at_huge_values_and_tiny_temperatures():
    learner = SoftmaxBandit(tau=1e-3, n_steps=300, random_state=0, record_history=True).fit(
        GaussianBandit([1e6, -1e6, 0.0], sigma=1.0))
    assert np.all(np.isfinite(learner.Q_))
    assert np.allclose(learner.probabilities_.sum(axis=1), 1.0)
    assert learner.counts_[0] > 250


def test_softmax_probabilities_rows_and_limits():
    P = softmax_probabilities(np.array([[0.0, 1.0], [5.0, 5.0]]), 1.0)
    assert np.allclose(P[1], [0.5, 0.5])
    assert np.allclose(softmax_probabilities([1e308, -1e308], 1e-300), [1.0, 0.0])
    assert np.allclose(softmax_probabilities([2.0, 2.0, 1.0], 1e-12), [0.5, 0.5, 0.0])


def test_running_means():
    v = np.array([4.0, 2.0, 0.0])
    assert np.allclose(running_means(v), [4.0, 3.0, 2.0])
    assert np.allclose(running_means(v, alpha=1.0), v)
    assert np.allclose(running_means(v, alpha=0.5, initial=8.0), [6.0, 4.0, 2.0])


# ---------------------------------------------------------------------------------------
# Trajectories
# ---------------------------------------------------------------------------------------


def _chain_with_terminal() -> TabularMDP:
    """0 -> 1 -> 2 (terminal), reward 1 per move."""
    P = np.zeros((1, 3, 3))
    P[0, 0, 1] = P[0, 1, 2] = P[0, 2, 2] = 1.0
    R = np.zeros((1, 3, 3))
    R[0, 0, 1] = R[0, 1, 2] = 1.0
    return TabularMDP(P, R, terminal=[2])


def test_trajectory_is_padded_after_a_terminal_state():
    tr = sample_trajectory(_chain_with_terminal(), np.zeros(3, dtype=int), 5, random_state=0,
                           start=0)
    assert tr.states.tolist() == [0, 1, 2, 2, 2, 2]
    assert tr.rewards.tolist() == [1.0, 1.0, 0.0, 0.0, 0.0]
    assert tr.done_at == 2 and tr.horizon == 5


def test_gymnasium_environment_runs():
    env = gym.make("FrozenLake-v1", is_slippery=True)
    try:
        tr = sample_trajectory(env, np.full((16, 4), 0.25), 20, random_state=0)
        assert tr.states.shape == (21,)
        learner = OnPolicyMonteCarlo(horizon=20, n_episodes=30, random_state=0).fit(env)
        assert learner.Q_.shape == (16, 4)
    finally:
        env.close()


def test_trajectory_probability_and_ratio():
    mdp = random_mdp(3, 2, random_state=0)
    pi = np.array([[0.5, 0.5], [1.0, 0.0], [0.2, 0.8]])
    tr = sample_trajectory(mdp, pi, 4, random_state=1, start=0)
    p = trajectory_probability(mdp, pi, tr.states, tr.actions)
    assert p == pytest.approx(np.exp(trajectory_probability(mdp, pi, tr.states, tr.actions,
                                                            log=True)))
    bad_actions = tr.actions.copy()
    bad_actions[tr.states[:-1] == 1] = 1
    if np.any(tr.states[:-1] == 1):
        assert trajectory_probability(mdp, pi, tr.states, bad_actions) == 0.0
    with pytest.raises(ValueError, match="behaviour"):
        importance_ratio(pi, np.array([[1.0, 0.0], [1.0, 0.0], [1.0, 0.0]]), [0, 0, 0],
                         [1, 1])


def test_trajectory_returns():
    r = np.array([1.0, 2.0, 3.0])
    assert np.allclose(trajectory_returns(r), [2.0, 2.5, 3.0])
    rho = np.array([9.0, 0.5, 0.0])
    # R_0 = (1 + 0.5*2 + 0.5*0*3)/3, R_1 = (2 + 0*3)/2, R_2 = 3
    assert np.allclose(trajectory_returns(r, rho), [2.0 / 3.0, 1.0, 3.0])
    assert np.allclose(trajectory_returns(np.vstack([r, r]), np.vstack([rho, rho]))[1],
                       [2.0 / 3.0, 1.0, 3.0])


# ---------------------------------------------------------------------------------------
# Learners
# ---------------------------------------------------------------------------------------


def _two_choices() -> TabularMDP:
    """One state; action 1 pays 1, action 0 pays 0."""
    return TabularMDP(np.ones((2, 1, 1)), np.array([0.0, 1.0]).reshape(2, 1, 1))


def test_on_policy_control_finds_the_better_action():
    learner = OnPolicyMonteCarlo(horizon=3, epsilon=0.2, n_episodes=200, random_state=0
                                 ).fit(_two_choices())
    assert np.argmax(learner.Q_[0]) == 1
    assert learner.policy_[0, 1] == pytest.approx(0.9)
    assert learner.returns_.shape == (200,)


def test_first_visit_counts_at_most_one_return_per_episode():
    learner = OnPolicyMonteCarlo(horizon=5, n_episodes=50, first_visit=True, improve=False,
                                 random_state=0).fit(_two_choices(), np.array([[0.5, 0.5]]))
    assert learner.counts_.sum() <= 2 * 50
    every = OnPolicyMonteCarlo(horizon=5, n_episodes=50, improve=False, random_state=0
                               ).fit(_two_choices(), np.array([[0.5, 0.5]]))
    assert every.counts_.sum() == 5 * 50


@pytest.mark.parametrize("weighting", ["ordinary", "weighted"])
def test_off_policy_control_and_evaluation(weighting):
    mdp = _two_choices()
    learner = OffPolicyMonteCarlo(horizon=2, epsilon=0.5, n_episodes=400, weighting=weighting,
                                  random_state=0).fit(mdp)
    assert learner.policy_.tolist() == [1]
    # target "always action 1": Q_T(x, 1) = 1, Q(x, 0) = (0 + 1)/2 at t = 0, mixed with
    # Q_1(x, 0) = 0 at t = 1
    ev = OffPolicyMonteCarlo(horizon=2, epsilon=0.5, n_episodes=4000, weighting=weighting,
                             improve=False, random_state=1).fit(mdp, np.array([1]))
    assert ev.Q_[0, 1] == pytest.approx(1.0, abs=0.05)
    assert np.allclose(ev.behaviour_, [[0.25, 0.75]])


def test_off_policy_refuses_epsilon_zero():
    with pytest.raises(ValueError, match="epsilon"):
        OffPolicyMonteCarlo(epsilon=0.0, horizon=2, n_episodes=2).fit(_two_choices())


def test_episode_caps():
    with pytest.raises(ValueError, match="n_episodes"):
        OnPolicyMonteCarlo(horizon=10**5, n_episodes=10**4).fit(_two_choices())
