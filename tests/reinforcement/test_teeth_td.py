"""Every check body of the td part refutes a deliberately broken variant (a wrong discount,
a max target replaced by the mean, a scaled step, LSTD with D omitted, the factor 2
dropped, an early stop) and holds for the unbroken code on the same scenario."""

from __future__ import annotations

import numpy as np
import pytest

import proofs.reinforcement.approximation as proof
import properties.reinforcement.approximation as vfa
import properties.reinforcement.td as td
from algorithms.reinforcement import QLearning, Sarsa, TabularMDP, random_mdp
from properties.reinforcement import td_support as support

MDP = random_mdp(3, 2, n_terminal=1, random_state=11)
PI = np.random.default_rng(0).dirichlet(np.ones(2), size=3)


# --- (14.20) -------------------------------------------------------------------------


def test_bellman_q_check_holds():
    support.check_bellman_q(MDP, PI, 0.8, np.random.default_rng(0))


@pytest.mark.parametrize("broken", [
    lambda m, p, g: support.q_policy_solve(m, p, 0.9 * g),                     # discount
    lambda m, p, g: support.q_policy_solve(m.with_reward(0.9 * m.expected_reward.T), p, g),
    lambda m, p, g: support.q_policy_solve(m, np.full_like(p, 0.5), g),        # π ignored
])
def test_bellman_q_check_refutes(broken):
    with pytest.raises(AssertionError):
        support.check_bellman_q(MDP, PI, 0.8, np.random.default_rng(0), solver=broken)


# --- (14.21): fixed point and the recorded updates -------------------------------------


def test_sarsa_fixed_point_refutes_a_wrong_discount():
    support.check_sarsa_fixed_point(MDP, PI, 0.8)
    with pytest.raises(AssertionError):
        support.check_sarsa_fixed_point(
            MDP, PI, 0.8, solver=lambda m, p, g: support.q_policy_solve(m, p, 0.9 * g))


def _history(cls, **kw):
    est = cls(gamma=0.7, alpha=0.5, epsilon=0.3, n_steps=200, max_episode_length=10,
              random_state=0, record_history=True, **kw).fit(MDP)
    return {k: v.copy() for k, v in est.history_.items()}


@pytest.mark.parametrize("cls,kind", [(Sarsa, "sarsa"), (QLearning, "max")])
def test_replay_holds_and_refutes_a_scaled_step_and_the_other_target(cls, kind):
    h = _history(cls)
    td.replay_updates(h, 3, 2, 0.7, kind)
    with pytest.raises(AssertionError):   # the other algorithm's target
        td.replay_updates(h, 3, 2, 0.7, "max" if kind == "sarsa" else "sarsa")
    with pytest.raises(AssertionError):   # wrong discount
        td.replay_updates(h, 3, 2, 0.9 * 0.7, kind)
    scaled = dict(h, step_size=0.9 * h["step_size"])   # α ×0.9 in the TD error
    with pytest.raises(AssertionError):
        td.replay_updates(scaled, 3, 2, 0.7, kind)


# --- control: Sarsa and Q-learning against the LP's Q* ------------------------------------

#: Rewards of one sign, so that the values are near max|R|/(1−γ), the unit of the rule,
#: and a wrong discount or a scaled reward moves them by a visible fraction of it.
CONTROL_MDP = random_mdp(3, 2, random_state=5).with_reward(
    np.random.default_rng(5).uniform(0.5, 1.0, size=(2, 3)))


def test_control_checks_hold():
    support.check_control_reaches_q_star(CONTROL_MDP, 0.7, td.fit_qlearning, 0,
                                         td.QLEARNING_TOLERANCE)
    support.check_control_reaches_q_star(CONTROL_MDP, 0.7, td.fit_sarsa_glie, 0,
                                         td.SARSA_TOLERANCE, td.SARSA_MIN_VISITS)


@pytest.mark.parametrize("broken", [
    lambda m, g, s: td.fit_qlearning(m, 0.9 * g, s),                      # wrong discount
    lambda m, g, s: td.fit_sarsa_glie(m, g, s, epsilon_power=0.0),        # max -> mean target
    lambda m, g, s: td.fit_qlearning(m, g, s, n_steps=300),               # early stop
    lambda m, g, s: td.fit_qlearning(m.with_reward(0.9 * m.expected_reward.T), g, s),
])
def test_qlearning_check_refutes(broken):
    with pytest.raises(AssertionError):
        support.check_control_reaches_q_star(CONTROL_MDP, 0.7, broken, 0,
                                             td.QLEARNING_TOLERANCE)


@pytest.mark.parametrize("broken", [
    lambda m, g, s: td.fit_sarsa_glie(m, 0.9 * g, s),                    # wrong discount
    lambda m, g, s: td.fit_sarsa_glie(m, g, s, epsilon_power=0.0),       # ε never decays
    lambda m, g, s: td.fit_sarsa_glie(m, g, s, n_steps=2000),            # early stop
])
def test_sarsa_control_check_refutes(broken):
    with pytest.raises(AssertionError):
        support.check_control_reaches_q_star(CONTROL_MDP, 0.7, broken, 0,
                                             td.SARSA_TOLERANCE, td.SARSA_MIN_VISITS)


def test_alg11_check_holds_where_the_printed_loop_is_harmless_and_refutes_otherwise():
    # both actions pay the same: crediting one action's reward to the other is harmless
    same = TabularMDP(np.ones((2, 1, 1)), np.array([[0.5], [0.5]]))
    td.check_alg11_as_printed(same, 0.0, 0)
    with pytest.raises(AssertionError, match="as printed"):
        td.check_alg11_as_printed(td.ONE_STATE_TWO_ARMS, 0.0, 0)


# --- (14.23)-(14.24) symbolic ------------------------------------------------------------


@pytest.mark.parametrize("factor", [1, -2, 4])
def test_gradient_derivation_refutes_a_wrong_factor(factor):
    proof.check_gradient(2)
    with pytest.raises(AssertionError):
        proof.check_gradient(factor)


# --- (14.25) SGD -> weighted projection -----------------------------------------------------


def _regression():
    Phi, V, dist = vfa.regression_scenario(np.random.default_rng(3))
    from algorithms.reinforcement import LinearValueRegression

    fit = LinearValueRegression(alpha=1.0, alpha_power=0.55, n_steps=400_000,
                                random_state=0).fit(Phi, V, dist)
    return Phi, V, dist, fit


def test_projection_check_holds_and_refutes():
    Phi, V, dist, fit = _regression()
    support.check_projection(Phi, V, dist, fit.averaged_theta_)
    with pytest.raises(AssertionError):     # D omitted: the unweighted projection
        support.check_projection(Phi, V, dist, fit.averaged_theta_, weighted=False)
    with pytest.raises(AssertionError):     # θ scaled ×0.9
        support.check_projection(Phi, V, dist, 0.9 * fit.averaged_theta_)
    from algorithms.reinforcement import LinearValueRegression

    early = LinearValueRegression(alpha=0.5, n_steps=30, random_state=0).fit(Phi, V, dist)
    with pytest.raises(AssertionError):     # early stop
        support.check_projection(Phi, V, dist, early.averaged_theta_)


# --- (14.26) TD(0) -> LSTD -------------------------------------------------------------------

TD_SCENARIO = vfa.td_scenario(np.random.default_rng(4), S=3)


def test_td_check_holds():
    vfa.check_td_scenario(*TD_SCENARIO)


@pytest.mark.parametrize("broken", [
    {"weights": np.array([1.0, 1.0, 1.0])},       # LSTD with D omitted (uniform)
    {"learner_gamma": 0.9 * vfa.GAMMA},           # TD with a wrong discount
    {"n_steps": 2000},                            # early stop
])
def test_td_check_refutes(broken):
    with pytest.raises(AssertionError):
        vfa.check_td_scenario(*TD_SCENARIO, **broken)


# --- Alg.12 with one-hot features = tabular Sarsa --------------------------------------------


def test_linear_sarsa_check_holds_and_refutes():
    vfa.check_linear_sarsa_is_tabular(MDP, 0.5, 0.2, 0)
    with pytest.raises(AssertionError):    # features not one-hot
        vfa.check_linear_sarsa_is_tabular(MDP, 0.5, 0.2, 0, features=2 * np.eye(3))
    with pytest.raises(AssertionError):    # wrong discount in the linear learner
        vfa.check_linear_sarsa_is_tabular(MDP, 0.5, 0.2, 0, overrides={"gamma": 0.45})
    with pytest.raises(AssertionError):    # α ×0.9
        vfa.check_linear_sarsa_is_tabular(MDP, 0.5, 0.2, 0, overrides={"alpha": 0.36})


def test_printed_line7_check_holds_where_the_transpose_does_not_matter():
    e1, e2 = np.array([1.0, 0.0]), np.array([0.0, 1.0])
    vfa.check_printed_line7(np.array([1.0, 0.0]), e1, e2)   # θ ⊙ ψ' = 0 = θᵀψ'
    with pytest.raises(AssertionError, match="as printed"):
        vfa.check_printed_line7(np.array([1.0, 1.0]), e1, e2)


# --- episode returns: T-step trajectories of the behaviour policy ------------------------

CHAIN = random_mdp(3, 2, random_state=5)
#: Every transition pays 1: V_T = 1 for every policy, so a scaled return cannot hide.
PAID = CHAIN.with_reward(np.ones((2, 3)))


def _tampered(base, tamper):
    class Tampered(base):
        def fit(self, env):
            super().fit(env)
            self.episode_returns_ = tamper(self.episode_returns_)
            return self

    return Tampered


@pytest.mark.parametrize("mdp", [CHAIN, PAID, MDP])
@pytest.mark.parametrize("learner", [Sarsa, QLearning])
def test_episode_returns_check_holds(mdp, learner):
    td.check_episode_returns(mdp, learner, 3, 0, 1, 1000)
    td.check_episode_returns(mdp if not mdp.terminal.any() else CHAIN, learner, 3, 0, 2, 50,
                             record=True)


@pytest.mark.parametrize("tamper", [
    lambda r: r[:-1],                      # the last episode not recorded
    lambda r: np.zeros(0),                 # no returns collected
    lambda r: 0.5 * r,                     # returns halved
    lambda r: r - 1.0,                     # one of the T = 3 rewards (each 1) dropped
])
def test_episode_returns_check_refutes(tamper):
    with pytest.raises(AssertionError):
        td.check_episode_returns(PAID, _tampered(Sarsa, tamper), 3, 0, 1, 1000)


def test_episode_returns_check_refutes_a_record_off_by_a_small_amount():
    with pytest.raises(AssertionError):
        td.check_episode_returns(CHAIN, _tampered(QLearning, lambda r: r + 1e-9 * (r == r[0])),
                                 3, 0, 2, 50, record=True)


# --- (14.26) with episodes cut after T steps ------------------------------------------

TRUNCATED = vfa.td_truncated_scenario(np.random.default_rng(4))


def test_truncated_td_check_holds_and_refutes_the_stationary_weighting():
    mdp, pi, Phi, T, start = TRUNCATED
    vfa.check_td_scenario(mdp, pi, Phi, max_episode_length=T, start=start)
    with pytest.raises(AssertionError):  # D of one long trajectory, not of the T-step episodes
        vfa.check_td_scenario(mdp, pi, Phi, max_episode_length=T, start=start,
                              weights=vfa.on_policy_weights(mdp, pi))
