"""Every planning check refutes a broken variant (a wrong discount, an off-by-one sweep
count, a halved bound constant, a reward weight 1/(t+1), a skipped improvement...) with
the same check body the claim runs, and holds for the unbroken code."""

from __future__ import annotations

import warnings
from types import SimpleNamespace

import numpy as np
import pytest

import properties.reinforcement.planning_control as ctl
import properties.reinforcement.planning_evaluation as ev_claims
import properties.reinforcement.planning_reference as ref_claims
import properties.reinforcement.planning_support as sup
from algorithms.reinforcement import (
    policy_evaluation,
    policy_improvement,
    policy_iteration,
    q_from_v,
    value_iteration,
)
from mltheory.testing import assert_holds, assert_refutes
from properties.reinforcement.strategies_planning import make_model


def _models():
    """Fixed scenarios: two random dense models (stochastic rows, rewards in [-1, 1]) and
    the three-state example whose values depend strongly on T."""
    rng = np.random.default_rng(7)
    out = []
    for S, A in [(3, 2), (2, 3)]:
        out.append(make_model(rng.dirichlet(np.ones(S), size=(A, S)),
                              rng.uniform(-1, 1, size=(A, S, S))))
    # patience pays: in s0 "stay" pays 0.1, "go" pays 0 and leads to s1 paying 0.2 per
    # step; with γ = 0.9 going is optimal, with γ <= 0.45 staying is
    patience = make_model([[[1.0, 0.0], [0.0, 1.0]], [[0.0, 1.0], [0.0, 1.0]]],
                          [[[0.1, 0.0], [0.0, 0.2]], [[0.0, 0.0], [0.0, 0.2]]])
    return [*out, sup.nonstationary_example(), patience]


MODELS = _models()


def _policy(model, seed=0):
    return np.random.default_rng(seed).dirichlet(np.ones(model.A), size=model.S)


def _refuted_somewhere(check):
    """``check(model)`` raises AssertionError for at least one fixed scenario, and the
    scenarios that pass do so without other errors."""
    failures = 0
    for model in MODELS:
        try:
            check(model)
        except AssertionError:
            failures += 1
    assert failures, "no scenario refutes the broken variant"


def _holds_everywhere(check):
    for model in MODELS:
        check(model)


def _scaled_gamma(func, factor):
    def broken(*args, **kw):
        if kw.get("gamma") is not None:
            kw["gamma"] = kw["gamma"] * factor
        return func(*args, **kw)
    return broken


def _shifted_horizon(func, shift):
    def broken(*args, **kw):
        if kw.get("horizon") is not None:
            kw["horizon"] = max(1, kw["horizon"] + shift)
        return func(*args, **kw)
    return broken


# --- §14.3.1: evaluation ---------------------------------------------------------------


@pytest.mark.parametrize("shift", [-1, 1])
def test_t_step_eval_refutes_an_off_by_one_sweep_count(monkeypatch, shift):
    def check(m):
        return sup.check_t_step_evaluation(m, _policy(m), 3)
    _holds_everywhere(check)
    monkeypatch.setattr(sup, "policy_evaluation", _shifted_horizon(policy_evaluation, shift))
    _refuted_somewhere(check)


def test_t_step_eval_refutes_reward_weight_one_over_t_plus_one(monkeypatch):
    def broken(mdp, policy, *, horizon, record_history=False, **_):
        P_pi, r_pi = mdp.policy_model(policy)
        V, hist = np.zeros(mdp.n_states), [np.zeros(mdp.n_states)]
        prev = V
        for t in range(1, horizon + 1):
            prev, V = V, r_pi / (t + 1) + ((t - 1) / t) * (P_pi @ V)
            hist.append(V)
        return SimpleNamespace(V=V, V_prev=prev, n_sweeps=horizon, history=tuple(hist))
    monkeypatch.setattr(sup, "policy_evaluation", broken)
    _refuted_somewhere(lambda m: sup.check_t_step_evaluation(m, _policy(m), 3))


@pytest.mark.parametrize("weight", [lambda T: 1.0, lambda T: (T - 1) / (T + 1),
                                    lambda T: T / (T + 1)])
def test_bellman_t_refutes_a_wrong_value_weight(weight):
    _holds_everywhere(lambda m: sup.check_bellman_t(m, _policy(m), 3))
    _refuted_somewhere(lambda m: sup.check_bellman_t(m, _policy(m), 3, value_weight=weight))


@pytest.mark.parametrize("factor", [0.9, 0.5])
def test_bellman_gamma_refutes_a_wrong_discount(monkeypatch, factor):
    def check(m):
        return sup.check_bellman_gamma(m, _policy(m), 0.9)
    _holds_everywhere(check)  # the body of the as-written claim, with R: holds
    monkeypatch.setattr(sup, "policy_evaluation", _scaled_gamma(policy_evaluation, factor))
    _refuted_somewhere(check)


@pytest.mark.parametrize("kw", [{"bound_factor": 0.5}, {"modulus_factor": 0.5},
                                {"bound_factor": 0.999}, {"modulus_factor": 0.999}])
def test_contraction_refutes_a_tightened_constant(kw):
    ev_claims.check_contraction_tight()
    with pytest.raises(AssertionError, match="inequality violated"):
        ev_claims.check_contraction_tight(**kw)


def test_contraction_refutes_an_early_stop(monkeypatch):
    def early(mdp, policy, **kw):
        kw["theta"] = kw["theta"] * 1.5
        return policy_evaluation(mdp, policy, **kw)
    monkeypatch.setattr(sup, "policy_evaluation", early)
    with pytest.raises(AssertionError):
        ev_claims.check_contraction_tight()


def test_contraction_refutes_a_wrong_discount(monkeypatch):
    monkeypatch.setattr(sup, "policy_evaluation", _scaled_gamma(policy_evaluation, 0.9))
    _refuted_somewhere(lambda m: sup.check_contraction(m, _policy(m), 0.9, 1e-6))


def test_q_from_v_refutes_a_wrong_discount(monkeypatch):
    _holds_everywhere(lambda m: sup.check_q_from_v(m, _policy(m), gamma=0.9))
    monkeypatch.setattr(sup, "q_from_v", _scaled_gamma(q_from_v, 0.9))
    _refuted_somewhere(lambda m: sup.check_q_from_v(m, _policy(m), gamma=0.9))


def test_q_from_v_refutes_v_t_in_place_of_v_t_minus_one(monkeypatch):
    def broken(mdp, V, *, horizon=None, V_prev=None, gamma=None):
        if horizon is not None:
            return q_from_v(mdp, V, horizon=horizon, V_prev=V)
        return q_from_v(mdp, V, gamma=gamma)
    _holds_everywhere(lambda m: sup.check_q_from_v(m, _policy(m), horizon=3))
    monkeypatch.setattr(sup, "q_from_v", broken)
    _refuted_somewhere(lambda m: sup.check_q_from_v(m, _policy(m), horizon=3))


@pytest.mark.parametrize("broken", [lambda f: _scaled_gamma(f, 0.5),
                                    lambda f: _shifted_horizon(f, -1)])
def test_value_definitions_refute_a_wrong_dp(monkeypatch, broken):
    monkeypatch.setattr(sup, "policy_evaluation", broken(policy_evaluation))
    assert_refutes(ev_claims.value_defs_14_3_14_4)


# --- §14.3.2-14.3.3: optimality, improvement, iteration ------------------------------


def test_optimal_policy_refutes_a_wrong_discount(monkeypatch):
    _holds_everywhere(lambda m: sup.check_optimal_policies(m, 0.9))
    monkeypatch.setattr(sup, "value_iteration", _scaled_gamma(value_iteration, 0.9))
    _refuted_somewhere(lambda m: sup.check_optimal_policies(m, 0.9))


@pytest.mark.parametrize("shift", [-1, 1])
def test_bellman_optimality_refutes_an_off_by_one_horizon(monkeypatch, shift):
    def broken(mdp, **kw):
        res = _shifted_horizon(value_iteration, shift)(mdp, **kw)
        if kw.get("horizon") is not None:  # keep the sweep count honest: only V is wrong
            res = SimpleNamespace(**{**res.__dict__, "n_sweeps": kw["horizon"]})
        return res
    _holds_everywhere(lambda m: sup.check_bellman_optimality(m, horizon=3))
    monkeypatch.setattr(sup, "value_iteration", broken)
    _refuted_somewhere(lambda m: sup.check_bellman_optimality(m, horizon=3))


def test_q_optimality_refutes_a_scaled_q(monkeypatch):
    def broken(mdp, **kw):
        res = value_iteration(mdp, **kw)
        return SimpleNamespace(**{**res.__dict__, "Q": 0.9 * res.Q})
    monkeypatch.setattr(sup, "value_iteration", broken)
    _refuted_somewhere(lambda m: sup.check_q_optimality(m, horizon=3))
    _refuted_somewhere(lambda m: sup.check_q_optimality(m, gamma=0.9))


def test_improvement_refutes_an_argmin_step(monkeypatch):
    _holds_everywhere(lambda m: sup.check_improvement(m, gamma=0.9, extra_policy=_policy(m)))
    monkeypatch.setattr(sup, "policy_improvement",
                        lambda mdp, Q, **kw: policy_improvement(mdp, -Q))
    _refuted_somewhere(lambda m: sup.check_improvement(m, gamma=0.9))


def test_improvement_refutes_a_skipped_step(monkeypatch):
    """π' = π always (the improvement skipped): 'π' = π ⇒ optimal' fails."""
    def skipped(mdp, Q, *, current=None, **kw):
        return current if current is not None else policy_improvement(mdp, Q)
    monkeypatch.setattr(sup, "policy_improvement", skipped)
    _refuted_somewhere(lambda m: sup.check_improvement(m, gamma=0.9))


def test_policy_iteration_refutes_an_early_stop(monkeypatch):
    def one_round(mdp, **kw):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return policy_iteration(mdp, **{**kw, "max_iter": 1})
    _holds_everywhere(lambda m: sup.check_policy_iteration(m, gamma=0.9))
    monkeypatch.setattr(sup, "policy_iteration", one_round)
    _refuted_somewhere(lambda m: sup.check_policy_iteration(m, gamma=0.9))


def test_policy_iteration_refutes_a_wrong_discount(monkeypatch):
    monkeypatch.setattr(sup, "policy_iteration", _scaled_gamma(policy_iteration, 0.5))
    _refuted_somewhere(lambda m: sup.check_policy_iteration(m, gamma=0.9))


def test_alg6_carryover_refutes_another_start(monkeypatch):
    def from_zero(mdp, **kw):
        return policy_iteration(mdp, initial_policy=np.zeros(mdp.n_states, dtype=int), **kw)
    monkeypatch.setattr(sup, "policy_iteration", from_zero)
    assert_refutes(ctl.policy_iteration_alg6_carryover)


@pytest.mark.parametrize("broken", [lambda f: _scaled_gamma(f, 0.9),
                                    lambda f: (lambda mdp, **kw: f(mdp, **{
                                        **kw, "theta": kw.get("theta", 1e-10) * 3}))])
def test_value_iteration_refutes_a_wrong_discount_or_early_stop(monkeypatch, broken):
    def check(m):
        return sup.check_value_iteration_gamma(m, 0.9, 1e-6, False)
    _holds_everywhere(check)
    monkeypatch.setattr(sup, "value_iteration", broken(value_iteration))
    _refuted_somewhere(check)


def test_printed_alg7_check_holds_with_exactly_t_sweeps():
    """The as-written comparison is not vacuous: with exactly T sweeps it holds."""
    from hypothesis import given
    from hypothesis import strategies as st

    from properties.reinforcement.strategies_planning import models

    @given(model=models(max_states=3, max_actions=2), T=st.integers(1, 3))
    def check(model, T):
        V = value_iteration(model.mdp, horizon=T).V
        sup.assert_close(V, sup.best_plans_t_step(model.P, model.R, T), sup.BELLMAN)
    assert_holds(check)


def test_gym_reference_refutes_a_wrong_discount(monkeypatch):
    monkeypatch.setattr(sup, "value_iteration", _scaled_gamma(value_iteration, 0.99))
    assert_refutes(ref_claims.value_iteration_reference_gym)
