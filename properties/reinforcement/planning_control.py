"""Claims of 003 §14.3.2-§14.3.3: optimal values and policies, policy improvement, policy
iteration and value iteration (both criteria), with the T-step errata.

References (planning_support): brute force over every deterministic policy (γ) and over
every non-stationary deterministic plan (T steps), trajectory enumeration, linear solves,
and 003 Algs. 6 and 7 transcribed literally.

The T-step criterion and stationary policies. (14.10) defines V_T* by backward induction:
the best T-step behaviour may depend on the number of steps left (a non-stationary plan).
The notes' (14.8)-(14.9), the improvement remark after (14.12) and Alg. 6 search over
policies π(x) that do not depend on the time, and there the statements fail (errata
below); with the γ criterion they hold (the corrected twins), and with T steps the
optimum V_T* is attained by the plan that T-step value iteration returns.
"""

from __future__ import annotations

import numpy as np
from hypothesis import example, given
from hypothesis import strategies as st

from mltheory import ErratumKind, Expect, Method, claim
from properties.reinforcement import planning_support as sup
from properties.reinforcement.strategies_planning import make_model, models, stochastic_policies

TAGS = ("reinforcement", "mdp", "planning")
_GAMMAS = st.sampled_from([0.0, 0.5, 0.9, 0.99])
_EXAMPLE = sup.nonstationary_example()


@claim(
    id="mdp.optimal_policy_14_8_14_9",
    source="003 §14.3.2 (14.8)-(14.9)",
    statement="With the γ criterion, a policy maximising Σ_x V^π(x) exists among the "
    "deterministic ones; every maximiser is optimal at every state at once, so all share one "
    "optimal value function V*.",
    method=Method.ENUMERATION,
    tags=(*TAGS, "optimality"),
)
@given(model=models(max_states=3, max_actions=3), gamma=_GAMMAS)
def optimal_policy_14_8_14_9(model, gamma):
    sup.check_optimal_policies(model, gamma)


@claim(
    id="mdp.optimal_value_t_step_as_written",
    source="003 §14.3.2 (14.8)-(14.10)",
    statement="As written for the T-step criterion: the best policy π* of (14.8) has "
    "V^{π*} = V_T* of (14.10) (policies π(x) as defined in §14.1, not depending on time).",
    method=Method.ENUMERATION,
    tags=(*TAGS, "optimality", "t-step"),
    expect=Expect.REFUTED,
    kind=ErratumKind.OVERCLAIM,
    corrected_by="mdp.bellman_optimality_14_10",
    explanation="V_T* of (14.10) may need a plan that depends on the steps left. Three "
    "states (s0: stay pays 1, go pays 0 to s1; s1 pays 3 once into an absorbing s2), T = 3: "
    "the plan stay-go averages 4/3 from s0, every stationary policy at most 1.",
)
@given(model=models(max_states=3, max_actions=2), T=st.integers(1, 3))
@example(model=_EXAMPLE, T=3)
def optimal_value_t_step_as_written(model, T):
    sup.assert_close(sup.best_stationary_t_step(model.P, model.R, T),
                     sup.best_plans_t_step(model.P, model.R, T), sup.BELLMAN,
                     label="max |best stationary V_T - V_T*|")


@claim(
    id="mdp.bellman_optimality_14_10",
    source="003 §14.3.2 (14.10)",
    statement="V_T*(x) = max_a Σ_x' P^a_{x→x'}(R^a_{x→x'}/T + (T-1)/T V_{T-1}*(x')) and "
    "V_γ*(x) = max_a Σ_x' P^a_{x→x'}(R^a_{x→x'} + γ V_γ*(x')), with V* the best value over "
    "every (non-stationary) deterministic plan, resp. every deterministic policy; T sweeps "
    "of value iteration give V_T*, and its plan by steps-to-go attains it.",
    method=Method.ENUMERATION,
    tags=(*TAGS, "optimality"),
)
@given(model=models(max_states=3, max_actions=2), T=st.integers(1, 3), gamma=_GAMMAS)
@example(model=_EXAMPLE, T=3, gamma=0.9)
def bellman_optimality_14_10(model, T, gamma):
    sup.check_bellman_optimality(model, horizon=T)
    sup.check_bellman_optimality(model, gamma=gamma)


@claim(
    id="mdp.q_optimality_14_11",
    source="003 §14.3.2 (14.11)",
    statement="Q_T*(x,a) = Σ_x' P(R/T + (T-1)/T max_a' Q_{T-1}*(x',a')) and "
    "Q_γ*(x,a) = Σ_x' P(R + γ max_a' Q_γ*(x',a')); Q* is the best value over plans "
    "(policies) that start with a in x, and V*(x) = max_a Q*(x,a).",
    method=Method.ENUMERATION,
    tags=(*TAGS, "optimality"),
)
@given(model=models(max_states=3, max_actions=2), T=st.integers(1, 3), gamma=_GAMMAS)
def q_optimality_14_11(model, T, gamma):
    sup.check_q_optimality(model, horizon=T)
    sup.check_q_optimality(model, gamma=gamma)


@st.composite
def _model_and_policy(draw):
    model = draw(models(max_states=3, max_actions=3))
    return model, draw(stochastic_policies(model.S, model.A))


@claim(
    id="mdp.policy_improvement_14_12",
    source="003 §14.3.2 (14.12)",
    statement="With the γ criterion, the greedy policy π'(x) = argmax_a Q^π(x,a) (ties kept "
    "at π's action) satisfies V^{π'}(x) ≥ V^π(x) at every x, for every deterministic and "
    "stochastic π; π' = π only when π satisfies the Bellman optimality equation, i.e. "
    "V^π = V*.",
    method=Method.ENUMERATION,
    tags=(*TAGS, "improvement"),
)
@given(mp=_model_and_policy(), gamma=_GAMMAS)
def policy_improvement_14_12(mp, gamma):
    model, pi = mp
    sup.check_improvement(model, gamma=gamma, extra_policy=pi)


@claim(
    id="mdp.policy_improvement_t_step_as_written",
    source="003 §14.3.2 (14.12)",
    statement="As written for the T-step criterion (the notes state (14.12) and the remark "
    "after it for both criteria): the greedy π' in Q_T^π is at least as good as π at every "
    "state, and π' = π means π is optimal (V_T^π = V_T*).",
    method=Method.ENUMERATION,
    tags=(*TAGS, "improvement", "t-step"),
    expect=Expect.REFUTED,
    kind=ErratumKind.OVERCLAIM,
    corrected_by="mdp.policy_improvement_14_12",
    explanation="Q_T^π(x,a) scores a followed by π for T-1 steps, but π' then uses the "
    "changed action at every later step too, so V_T^{π'} can fall below V_T^π; and the "
    "optimum may need a non-stationary plan. In the three-state example (T = 3) "
    "'always stay' is its own greedy policy, with V_3(s0) = 1 < V_3* = 4/3; in a two-state "
    "MDP (tests/reinforcement/test_planning.py) the greedy step lowers V_3(s1) from 16/27 "
    "to 0.54.",
)
@given(model=models(max_states=3, max_actions=2), T=st.integers(2, 3))
@example(model=_EXAMPLE, T=3)
def policy_improvement_t_step_as_written(model, T):
    sup.check_improvement(model, horizon=T)


@claim(
    id="mdp.policy_iteration",
    source="003 §14.3.3 (after Alg.6)",
    statement="With the γ criterion, policy iteration from the uniform random policy stops "
    "(π' = π) within |A|^|X| improvements, the values V^{π_k} never decrease, and the last "
    "policy is optimal; with exact evaluation and with sweeps to θ alike.",
    method=Method.ENUMERATION,
    tags=(*TAGS, "policy-iteration"),
)
@given(model=models(max_states=3, max_actions=3), gamma=_GAMMAS,
       evaluation=st.sampled_from(["exact", "iterative"]))
def policy_iteration(model, gamma, evaluation):
    sup.check_policy_iteration(model, gamma=gamma, evaluation=evaluation)


@claim(
    id="mdp.policy_iteration_t_step_as_written",
    source="003 §14.3.3 Alg.6",
    statement="As printed, Alg. 6 (T-step policy iteration over policies π(x), from a "
    "random policy, Q from (14.7)) stops and outputs an optimal policy: V_T^π = V_T*.",
    method=Method.ENUMERATION,
    tags=(*TAGS, "policy-iteration", "t-step"),
    expect=Expect.REFUTED,
    kind=ErratumKind.OVERCLAIM,
    corrected_by="mdp.bellman_optimality_14_10",
    explanation="In the three-state example (T = 3) Alg. 6 stops at 'always stay' with "
    "V_3(s0) = 1 < V_3* = 4/3; no stationary policy reaches V_T* there, and on other MDPs "
    "the loop returns to an earlier policy and never stops. The T-step optimum is the "
    "non-stationary plan of backward induction (T-step value iteration).",
)
@given(model=models(max_states=3, max_actions=2), T=st.integers(2, 3))
@example(model=_EXAMPLE, T=3)
def policy_iteration_t_step_as_written(model, T):
    rounds, stopped = sup.printed_alg6(model.P, model.R, T, reset=False)
    assert stopped, f"printed Alg. 6 did not stop in {len(rounds)} rounds (it cycles)"
    pi, V = rounds[-1]
    sup.assert_close(V, sup.best_plans_t_step(model.P, model.R, T), sup.BELLMAN,
                     label="max |V_T of Alg. 6's policy - V_T*|",
                     context=f"Alg. 6 output {pi.argmax(axis=1).tolist()}: ")


@claim(
    id="mdp.policy_iteration_alg6_carryover",
    source="003 §14.3.3 Alg.6",
    statement="Alg. 6 never resets V between rounds; this is harmless: the first sweep "
    "weights the old V by (t-1)/t = 0, so every round evaluates its policy exactly "
    "(V = V_T^π of the enumeration) and the run is identical to one that resets V to 0; "
    "its rounds are those of policy_iteration(horizon=T).",
    method=Method.ENUMERATION,
    tags=(*TAGS, "policy-iteration", "t-step"),
)
@given(model=models(max_states=3, max_actions=2), T=st.integers(1, 3))
def policy_iteration_alg6_carryover(model, T):
    carried, stop_c = sup.printed_alg6(model.P, model.R, T, reset=False)
    reset, stop_r = sup.printed_alg6(model.P, model.R, T, reset=True)
    assert stop_c == stop_r and len(carried) == len(reset)
    for (pi_c, V_c), (pi_r, V_r) in zip(carried, reset, strict=True):
        assert np.array_equal(pi_c, pi_r) and np.array_equal(V_c, V_r), "carry-over changed V"
        sup.assert_close(V_c, sup.enumerate_t_step(model.P, model.R, pi_c, T), sup.BELLMAN,
                         label="max |round V - enumerated V_T^pi|")
    if stop_c:
        import warnings

        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            lib = sup.policy_iteration(model.mdp, horizon=T)
        assert lib.converged and len(lib.policies) == len(carried)
        for p_lib, (p_c, _) in zip(lib.policies, carried, strict=True):
            assert np.array_equal(p_lib, p_c), "library rounds differ from printed Alg. 6"


@claim(
    id="mdp.value_iteration_14_13",
    source="003 §14.3.3 Alg.7, (14.13)",
    statement="γ value iteration (synchronous or in place) stops by the θ rule with V within "
    "γθ/(1-γ) of V*, its residuals contract with modulus γ, and its greedy policy is optimal "
    "up to 2γ·γθ/(1-γ)²; T-step value iteration run for exactly T sweeps returns V_T* and an "
    "optimal (non-stationary) plan: with a known model, RL is dynamic programming.",
    method=Method.ENUMERATION,
    tags=(*TAGS, "value-iteration"),
)
@given(model=models(max_states=3, max_actions=3), gamma=_GAMMAS,
       theta=st.sampled_from([1e-2, 1e-5, 1e-8]), in_place=st.booleans(),
       T=st.integers(1, 3))
def value_iteration_14_13(model, gamma, theta, in_place, T):
    sup.check_value_iteration_gamma(model, gamma, theta, in_place)
    if model.S * model.A <= 6:
        sup.check_bellman_optimality(model, horizon=T)


@claim(
    id="mdp.value_iteration_t_step_as_written",
    source="003 §14.3.3 Alg.7",
    statement="As printed, Alg. 7 (input T and θ; sweeps t = 1, 2, ... stopped by "
    "max|V - V'| < θ alone) returns the T-step optimal values V_T*.",
    method=Method.ENUMERATION,
    tags=(*TAGS, "value-iteration", "t-step"),
    expect=Expect.REFUTED,
    kind=ErratumKind.CODE,
    corrected_by="mdp.value_iteration_14_13",
    explanation="The printed loop never reads T: it stops at whichever t the θ rule "
    "meets and returns V_{t-1}*. One state paying 1 on a move to an absorbing rewardless "
    "state has V_t* = 1/t; with T = 1 and θ = 0.1 the loop stops at t = 4 with V = 1/3, "
    "not V_1* = 1.",
)
@given(model=models(max_states=3, max_actions=2), T=st.integers(1, 3),
       theta=st.sampled_from([1e-1, 1e-3]))
@example(model=make_model([[[0.0, 1.0], [0.0, 1.0]]], [[[0.0, 1.0], [0.0, 0.0]]],
                          terminal=[1]), T=1, theta=0.1)
def value_iteration_t_step_as_written(model, T, theta):
    V, t = sup.printed_alg7(model.P, model.R, theta)
    sup.assert_close(V, sup.best_plans_t_step(model.P, model.R, T), sup.BELLMAN,
                     label="max |printed Alg. 7 - V_T*|", context=f"stopped at t={t}: ")
