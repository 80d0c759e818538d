"""Every check of properties/reinforcement/{bandits,monte_carlo}.py refutes a deliberately
broken variant (a divisor off by one, a step scaled, a temperature or ε wrong, a ratio
keeping the transition probabilities, importance weights over the wrong range) and holds
for the unbroken code."""

from __future__ import annotations

import numpy as np
import pytest

import algorithms.reinforcement._bandits as bandit_module
import algorithms.reinforcement._monte_carlo as mc_module
import properties.reinforcement.bandits as bc
import properties.reinforcement.monte_carlo as mc
from algorithms.reinforcement import (
    BernoulliBandit,
    EpsilonGreedyBandit,
    GaussianBandit,
    SoftmaxBandit,
)
from mltheory.testing import assert_holds, assert_refutes

VALUES = [3.0, -1.0, 4.0, 1.5, -9.0, 2.6]


# ---------------------------------------------------------------------------------------
# (14.1), (14.19)
# ---------------------------------------------------------------------------------------


def test_incremental_mean_refutes_a_divisor_of_count_not_count_plus_one(monkeypatch):
    bc.check_incremental_mean(VALUES)
    monkeypatch.setattr(bc, "incremental_mean",
                        lambda q, n, v: q + (v - q) / max(n - 1, 1))
    with pytest.raises(AssertionError):
        bc.check_incremental_mean(VALUES)


def test_learner_means_refute_the_count_divisor(monkeypatch):
    bandit = GaussianBandit([0.0, 0.5, 1.0])
    bc.check_learner_means(EpsilonGreedyBandit(epsilon=0.3, n_steps=60, random_state=0)
                           .fit(bandit))

    def divide_by_count(Q, counts, k, v):
        n = counts[k]
        Q[k] = Q[k] + (v - Q[k]) / max(n, 1)
        counts[k] = n + 1

    monkeypatch.setattr(bandit_module, "_update", divide_by_count)
    with pytest.raises(AssertionError):
        bc.check_learner_means(EpsilonGreedyBandit(epsilon=0.3, n_steps=60, random_state=0)
                               .fit(bandit))


@pytest.mark.parametrize("broken", ["step_scaled", "one_minus_alpha"])
def test_constant_alpha_check_refutes_a_wrong_step(monkeypatch, broken):
    bc.check_constant_alpha(VALUES, 0.3, 0.5)
    real = bandit_module.running_means

    def wrong(values, alpha=None, initial=0.0):
        a = 0.9 * alpha if broken == "step_scaled" else 1.0 - alpha
        return real(values, alpha=a, initial=initial)

    monkeypatch.setattr(bc, "running_means", wrong)
    with pytest.raises(AssertionError):
        bc.check_constant_alpha(VALUES, 0.3, 0.5)


def test_running_mean_claim_refutes_a_divisor_t(monkeypatch):
    assert_holds(bc.incremental_14_19)

    def divide_by_t(values, alpha=None, initial=0.0):
        v = np.asarray(values, dtype=float)
        if alpha is not None:
            return bandit_module.running_means(v, alpha=alpha, initial=initial)
        out, q = np.empty(v.size), 0.0
        for t, x in enumerate(v):
            q = q + (x - q) / max(t, 1)
            out[t] = q
        return out

    monkeypatch.setattr(bc, "running_means", divide_by_t)
    assert_refutes(bc.incremental_14_19)


# ---------------------------------------------------------------------------------------
# ε-greedy exploration
# ---------------------------------------------------------------------------------------


def _explore(eps=0.1, T=20_000, seed=3):
    bandit = BernoulliBandit([0.2, 0.5, 0.8])
    return EpsilonGreedyBandit(epsilon=eps, n_steps=T, random_state=seed).fit(bandit), bandit


def test_exploration_check_refutes_halved_exploration(monkeypatch):
    learner, bandit = _explore()
    bc.check_constant_exploration(learner, bandit, 0.1)
    real = bandit_module._schedule
    monkeypatch.setattr(bandit_module, "_schedule", lambda e, T: 0.5 * real(e, T))
    learner, bandit = _explore()
    with pytest.raises(AssertionError):
        bc.check_constant_exploration(learner, bandit, 0.1)


def test_exploration_check_refutes_a_doubled_claimed_fraction():
    learner, bandit = _explore()
    with pytest.raises(AssertionError):
        bc.check_constant_exploration(learner, bandit, 0.1, factor=2.0)


@pytest.mark.parametrize("schedule", ["one_over_t", "constant"])
def test_decaying_exploration_check_refutes_other_schedules(monkeypatch, schedule):
    T = 100_000

    def run():
        return EpsilonGreedyBandit(epsilon="inverse_sqrt", n_steps=T, random_state=1).fit(
            BernoulliBandit([0.2, 0.5, 0.8]))

    bc.check_decaying_exploration(run(), [10**3, 10**4, T])
    wrong = {"one_over_t": lambda e, n: 1.0 / np.arange(1, n + 1),
             "constant": lambda e, n: np.full(n, 0.05)}[schedule]
    monkeypatch.setattr(bandit_module, "_schedule", wrong)
    with pytest.raises(AssertionError):
        bc.check_decaying_exploration(run(), [10**3, 10**4, T])


# ---------------------------------------------------------------------------------------
# Softmax
# ---------------------------------------------------------------------------------------


def _naive_softmax(Q, tau):
    with np.errstate(over="ignore", invalid="ignore"):
        w = np.exp(np.asarray(Q, dtype=float) / tau)
        return w / w.sum()


@pytest.mark.parametrize("variant", ["no_max_subtraction", "tau_dropped", "tau_doubled"])
def test_softmax_check_refutes_broken_softmax(monkeypatch, variant):
    Q = np.array([1000.0, 0.0, -1000.0]) if variant == "no_max_subtraction" else \
        np.array([0.3, 1.0, -0.5])
    bc.check_softmax(Q, 1.0 if variant == "no_max_subtraction" else 0.5)
    real = bandit_module.softmax_probabilities
    wrong = {"no_max_subtraction": _naive_softmax,
             "tau_dropped": lambda Q, tau: real(Q, 1.0),
             "tau_doubled": lambda Q, tau: real(Q, 2 * tau)}[variant]
    monkeypatch.setattr(bc, "softmax_probabilities", wrong)
    with pytest.raises(AssertionError):
        bc.check_softmax(Q, 1.0 if variant == "no_max_subtraction" else 0.5)


def test_temperature_limits_refute_an_inverted_temperature(monkeypatch):
    Q = np.array([0.3, 1.0, -0.5])
    bc.check_temperature_limits(Q)
    real = bandit_module.softmax_probabilities
    monkeypatch.setattr(bc, "softmax_probabilities", lambda Q, tau: real(Q, 1.0 / tau))
    with pytest.raises(AssertionError):
        bc.check_temperature_limits(Q)


def test_selection_check_refutes_a_doubled_temperature(monkeypatch):
    bandit = GaussianBandit(list(bc.SELECTION_MEANS), sigma=0.0)

    def arms():
        return SoftmaxBandit(tau=bc.SELECTION_TAU, n_steps=4000, random_state=5
                             ).fit(bandit).arms_

    bc.check_selection_follows_14_2(arms(), bc.SELECTION_TAU, bc.SELECTION_MEANS)
    real = SoftmaxBandit._loop
    monkeypatch.setattr(SoftmaxBandit, "_loop",
                        staticmethod(lambda T, tau, *rest: real(T, 2 * tau, *rest)))
    with pytest.raises(AssertionError):
        bc.check_selection_follows_14_2(arms(), bc.SELECTION_TAU, bc.SELECTION_MEANS)


# ---------------------------------------------------------------------------------------
# Monte-Carlo
# ---------------------------------------------------------------------------------------


def test_eps_greedy_check_refutes_eps_instead_of_eps_over_a(monkeypatch):
    mc.check_learner_policies(0, 0.3)

    def wrong(best, eps, A):
        rows = np.full((best.size, A), eps)
        rows[np.arange(best.size), best] = 1.0 - eps + eps / A
        return rows

    monkeypatch.setattr(mc_module, "_epsilon_greedy_rows", wrong)
    with pytest.raises(AssertionError):
        mc.check_learner_policies(0, 0.3)


def _ratio_model():
    P = np.array([[[0.3, 0.7], [0.6, 0.4]], [[0.9, 0.1], [0.2, 0.8]]])
    R = np.array([[[1.0, 0.0], [0.5, 1.0]], [[0.0, 1.0], [1.0, 0.2]]])
    return mc.make_model(P, R)


PI = np.array([[0.2, 0.8], [0.6, 0.4]])
B = np.array([[0.5, 0.5], [0.3, 0.7]])


def test_ratio_check_refutes_a_ratio_keeping_the_transitions(monkeypatch):
    model = _ratio_model()
    mc.check_ratio(model, PI, B, 3, 0)

    def keeps_transitions(target, behaviour, states, actions):
        x, a = np.asarray(states), np.asarray(actions)
        trans = model.P[a, x[:-1], x[1:]]
        return float(np.prod(PI[x[:-1], a] * trans / behaviour[x[:-1], a]))

    monkeypatch.setattr(mc, "importance_ratio", keeps_transitions)
    with pytest.raises(AssertionError):
        mc.check_ratio(model, PI, B, 3, 0)


def test_ratio_check_refutes_a_probability_without_transitions(monkeypatch):
    model = _ratio_model()

    def no_transitions(mdp, policy, states, actions):
        x, a = np.asarray(states), np.asarray(actions)
        return float(np.prod(np.asarray(policy)[x[:-1], a]))

    monkeypatch.setattr(mc, "trajectory_probability", no_transitions)
    with pytest.raises(AssertionError):
        mc.check_ratio(model, PI, B, 3, 0)


def test_is_check_refutes_a_ratio_without_its_first_factor(monkeypatch):
    model = _ratio_model()
    mc.check_is_unbiased(model, PI, B, 2, 0)
    real = mc_module.importance_ratio
    monkeypatch.setattr(mc, "importance_ratio",
                        lambda t, b, s, a: real(t, b, s[1:], a[1:]) if len(a) > 1 else 1.0)
    with pytest.raises(AssertionError):
        mc.check_is_unbiased(model, PI, B, 2, 0)


def test_deterministic_ratio_check_refutes_one_over_p_off_target(monkeypatch):
    model, target, eps, T, x0, _ = mc.PINNED
    mc.check_deterministic_ratio(model, target, eps, T, x0)

    def one_over_p(t, b, states, actions):
        x, a = np.asarray(states)[: len(actions)], np.asarray(actions)
        return float(np.prod(1.0 / b[x, a]))

    monkeypatch.setattr(mc, "importance_ratio", one_over_p)
    with pytest.raises(AssertionError):
        mc.check_deterministic_ratio(model, target, eps, T, x0)


def test_offpolicy_enumeration_refutes_weights_over_the_wrong_range(monkeypatch):
    model, target, eps, T, x0, a0 = mc.PINNED
    mc.check_offpolicy_unbiased(model, target, eps, T, x0, a0, mc.library_per_decision)
    for half_fix in (mc.right_range_one_over_p, mc.printed_range_pi_over_p):
        with pytest.raises(AssertionError):
            mc.check_offpolicy_unbiased(model, target, eps, T, x0, a0, half_fix)
    # the library's returns with the ratio shifted one step later (the printed range)
    real = mc_module.trajectory_returns
    monkeypatch.setattr(mc, "trajectory_returns",
                        lambda r, rho: real(r, np.append(rho[1:], 1.0)))
    with pytest.raises(AssertionError):
        mc.check_offpolicy_unbiased(model, target, eps, T, x0, a0, mc.library_per_decision)


def _offpolicy_learner_check(seed=11, n=12_000):
    mc.check_offpolicy_learner(seed, n)


def test_offpolicy_learner_check_refutes_unweighted_returns(monkeypatch):
    _offpolicy_learner_check()
    real = mc_module._returns
    monkeypatch.setattr(mc_module, "_returns", lambda r, rho: real(r, None))
    with pytest.raises(AssertionError):
        _offpolicy_learner_check()


@pytest.mark.parametrize("broken", ["unit_weights", "last_weight_zero"])
def test_weighted_is_check_refutes_wrong_weights(monkeypatch, broken):
    mc.check_offpolicy_learner(11, 12_000, "weighted")
    real = mc_module._suffix_weights

    def wrong(rho):
        W = real(rho)
        if broken == "unit_weights":
            return np.ones_like(W)
        W[:, -1] = 0.0
        return W

    monkeypatch.setattr(mc_module, "_suffix_weights", wrong)
    with pytest.raises(AssertionError):
        mc.check_offpolicy_learner(11, 12_000, "weighted")


def _on_policy_check(seed=2, n=5000):
    mc.check_on_policy_limit(mc.revisited_start(), np.ones((2, 1)), 2, 0, n, seed, "mixture")


@pytest.mark.parametrize("broken", ["divide_by_T", "scaled"])
def test_on_policy_mixture_check_refutes_broken_returns(monkeypatch, broken):
    _on_policy_check()
    real = mc_module._returns

    def wrong(r, rho):
        if broken == "scaled":
            return 0.9 * real(r, rho)
        T = r.shape[-1]
        return real(r, rho) * (T - np.arange(T)) / T

    monkeypatch.setattr(mc_module, "_returns", wrong)
    with pytest.raises(AssertionError):
        _on_policy_check()


def test_first_visit_check_refutes_every_visit(monkeypatch):
    rng = np.random.default_rng(4)
    P = np.zeros((1, 2, 2))
    P[0] = [[0.8, 0.2], [0.0, 1.0]]                     # state 0 revisited often
    R = np.zeros((1, 2, 2))
    R[0, 0] = [1.0, 0.0]
    model = mc.make_model(P, R)
    pi = np.ones((2, 1))
    mc.check_first_visit(model, pi, 3, 0, 4000, int(rng.integers(100)))
    monkeypatch.setattr(mc_module, "_first_visits",
                        lambda idx, n: np.ones(idx.shape, dtype=bool))
    with pytest.raises(AssertionError):
        mc.check_first_visit(model, pi, 3, 0, 4000, int(rng.integers(100)))


# --- arm rewards (14.1) ------------------------------------------------------------------


class _ShiftedBernoulli(bandit_module.BernoulliBandit):
    """Pays 1 with probability μ_k + 0.05 while reporting μ_k."""

    def _reward(self, k, noise):
        return 1.0 if noise < self.means[k] + 0.05 else 0.0


class _WideGaussian(bandit_module.GaussianBandit):
    """Noise of standard deviation 1.1 σ while reporting σ."""

    def _reward(self, k, noise):
        return float(self.means[k] + 1.1 * self.sigma * noise)


class _ShiftedGaussian(bandit_module.GaussianBandit):
    """Mean μ_k + 0.1 σ while reporting μ_k."""

    def _reward(self, k, noise):
        return float(self.means[k] + self.sigma * (noise + 0.1))


def test_arm_rewards_check_holds():
    rng = np.random.default_rng(0)
    bc.check_arm_rewards(bandit_module.BernoulliBandit([0.1, 0.5, 0.9]), rng, 2000)
    bc.check_arm_rewards(bandit_module.GaussianBandit([-2.0, 3.0], sigma=0.7), rng, 2000)


@pytest.mark.parametrize("bandit", [_ShiftedBernoulli([0.1, 0.5, 0.9]),
                                    _WideGaussian([-2.0, 3.0], sigma=0.7),
                                    _ShiftedGaussian([-2.0, 3.0], sigma=0.7)])
def test_arm_rewards_check_refutes(bandit):
    with pytest.raises(AssertionError):
        bc.check_arm_rewards(bandit, np.random.default_rng(0), 2000)
