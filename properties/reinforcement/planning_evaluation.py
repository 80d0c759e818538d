"""Claims of 003 §14.1 and §14.3.1: policies, value functions, policy evaluation.

References (planning_support): trajectory enumeration for the T-step values, linear
solves in states and in state-action pairs for the γ values, vectorised Monte-Carlo
rollouts with Hoeffding intervals.
"""

from __future__ import annotations

import numpy as np
from hypothesis import example, given
from hypothesis import strategies as st

from algorithms.reinforcement import (
    as_policy_matrix,
    epsilon_greedy_policy,
    policy_iteration,
    random_mdp,
)
from mltheory import ErratumKind, Expect, Method, claim, evidence
from properties.reinforcement import planning_support as sup
from properties.reinforcement.strategies_planning import make_model, models, stochastic_policies

TAGS = ("reinforcement", "mdp", "planning")


@st.composite
def model_and_policy(draw, max_states: int = 3, max_actions: int = 2):
    model = draw(models(max_states=max_states, max_actions=max_actions))
    return model, draw(stochastic_policies(model.S, model.A))


_GAMMAS = st.sampled_from([0.0, 0.3, 0.5, 0.9, 0.99])


@claim(
    id="rl.stochastic_policy",
    source="003 §14.1",
    statement="A probabilistic policy π(x, a) gives, in every state x, probabilities over "
    "the actions that sum to 1: matrices whose rows do not are no policy, and every policy "
    "the planning code builds (the uniform random start of policy iteration, greedy and "
    "ε-greedy policies) is one, with a row-stochastic state chain P_π.",
    method=Method.PROPERTY,
    tags=(*TAGS, "policy"),
)
@given(mp=model_and_policy(), eps=st.floats(0.0, 1.0))
def stochastic_policy(mp, eps):
    model, pi = mp
    S, A = model.S, model.A
    built = [as_policy_matrix(pi, S, A), as_policy_matrix(np.zeros(S, dtype=int), S, A),
             epsilon_greedy_policy(np.zeros(S, dtype=int), eps, A),
             policy_iteration(model.mdp, gamma=0.5).policies[0]]
    for p in built:
        assert np.all(p >= 0) and np.allclose(p.sum(axis=1), 1.0, rtol=0, atol=1e-12), p
        P_pi, _ = model.mdp.policy_model(p)
        assert np.allclose(P_pi.sum(axis=1), 1.0, rtol=0, atol=1e-12), "P_pi not stochastic"
    bad = pi.copy()
    bad[0, 0] += 0.25
    try:
        as_policy_matrix(bad, S, A)
    except ValueError as exc:
        assert "policy" in str(exc)
    else:
        raise AssertionError("a policy whose row sums to 1.25 was accepted")


@claim(
    id="mdp.value_defs_14_3_14_4",
    source="003 §14.3.1 (14.3)-(14.4)",
    statement="The state values V_T^π(x) (mean of the first T rewards) and V_γ^π(x) "
    "(discounted sum) and the action values Q^π(x, a) (first action a, then π) are the "
    "expectations of the returns of episodes that follow π; V^π(x) = Σ_a π(x, a) Q^π(x, a). "
    "Decision rule: every DP value lies in the two-sided Hoeffding interval of the mean of "
    "its rollouts, at confidence 1 - 1e-6 for the claim (Bonferroni over the intervals).",
    method=Method.SIMULATION,
    tags=(*TAGS, "monte-carlo"),
)
def value_defs_14_3_14_4(rng, scale):
    cases = []
    for S, A, seed in [(3, 2, 1), (4, 3, 2), (2, 2, 3)]:
        base = random_mdp(S, A, random_state=seed)
        P = base.P
        R = np.round(np.random.default_rng(seed).uniform(-1, 1, size=P.shape), 2)
        pi = np.random.default_rng(seed + 10).dirichlet(np.ones(A), size=S)
        cases.append((make_model(P, R), pi))
    runs = [(m, pi, dict(horizon=T)) for (m, pi), T in zip(cases, (1, 4, 7), strict=True)]
    runs += [(m, pi, dict(gamma=g)) for (m, pi), g in zip(cases, (0.5, 0.8, 0.0), strict=True)]
    # a model whose values change much with T and γ: the three-state example of
    # planning_control under the uniform policy
    example = sup.nonstationary_example()
    runs += [(example, np.full((3, 2), 0.5), dict(horizon=2)),
             (example, np.full((3, 2), 0.5), dict(gamma=0.9))]
    n_tests = sum(m.S * (m.A + 1) for m, _, _ in runs)
    for m, pi, kw in runs:
        sup.check_monte_carlo(m, pi, rng, 4000 * scale, n_tests=n_tests, **kw)
        # V = Σ_a π Q exactly (the DP side)
        ev = sup.policy_evaluation(m.mdp, pi, method="exact", **kw) if "gamma" in kw else \
            sup.policy_evaluation(m.mdp, pi, **kw)
        assert np.allclose(np.sum(pi * ev.Q, axis=1), ev.V, rtol=1e-12, atol=1e-12)
    evidence.add_examples(len(runs))


@claim(
    id="mdp.bellman_t_14_5",
    source="003 §14.3.1 (14.5)",
    statement="The T-step value satisfies V_T^π(x) = Σ_a π(x,a) Σ_x' P^a_{x→x'} "
    "(R^a_{x→x'}/T + (T-1)/T V_{T-1}^π(x')), both sides computed as expectations over all "
    "T-step (and (T-1)-step) trajectories.",
    method=Method.ENUMERATION,
    tags=TAGS,
)
@given(mp=model_and_policy(), T=st.integers(1, 4))
def bellman_t_14_5(mp, T):
    sup.check_bellman_t(*mp, T)


@claim(
    id="mdp.t_step_eval_exact",
    source="003 §14.3.1 Alg.5",
    statement="Alg. 5 run for exactly T synchronous sweeps from V = 0 returns V_T^π; its "
    "iterates are V_0 = 0, V_1^π, ..., V_T^π. The printed loop (break at t = T + 1, "
    "before V = V') keeps exactly T sweeps.",
    method=Method.ENUMERATION,
    tags=TAGS,
)
@given(mp=model_and_policy(), T=st.integers(1, 4))
def t_step_eval_exact(mp, T):
    model, pi = mp
    sup.check_t_step_evaluation(model, pi, T)
    # the printed loop, literally (one round of printed Alg. 6 with a fixed policy is
    # Alg. 5): its V after the break equals the enumerated V_T^π
    V = np.zeros(model.S)
    t = 0
    while True:
        t += 1
        V_new = np.einsum("xa,axy,axy->x", pi, model.P,
                          model.R / t + (t - 1) / t * V[None, None, :])
        if t == T + 1:
            break
        V = V_new
    sup.assert_close(V, sup.enumerate_t_step(model.P, model.R, pi, T), sup.BELLMAN,
                     label="printed Alg. 5 vs enumeration")


@claim(
    id="mdp.bellman_gamma_14_6",
    source="003 §14.3.1 (14.6)",
    statement="For γ < 1, V_γ^π(x) = Σ_a π(x,a) Σ_x' P^a_{x→x'}(R^a_{x→x'} + γ V_γ^π(x')); "
    "its unique solution is V = (I - γP_π)^{-1} r_π, which the exact and the iterative "
    "evaluations both return.",
    method=Method.PROPERTY,
    tags=TAGS,
)
@given(mp=model_and_policy(), gamma=_GAMMAS)
def bellman_gamma_14_6(mp, gamma):
    sup.check_bellman_gamma(*mp, gamma)


@claim(
    id="mdp.bellman_gamma_14_6_as_written",
    source="003 §14.3.1 (14.6)",
    statement="As printed: V_γ^π(x) = Σ_a π(x,a) Σ_x' P^a_{x→x'}(P^a_{x→x'} + γ V_γ^π(x')).",
    method=Method.PROPERTY,
    tags=TAGS,
    expect=Expect.REFUTED,
    kind=ErratumKind.SYMBOL,
    corrected_by="mdp.bellman_gamma_14_6",
    explanation="The transition probability P^a_{x→x'} is printed where the reward "
    "R^a_{x→x'} belongs (compare (14.5) and (14.10)). One state with a zero-reward "
    "self-loop has V = 0 while the printed right-hand side is 1.",
)
@given(mp=model_and_policy(), gamma=_GAMMAS)
@example(mp=(make_model([[[1.0]]], [[[0.0]]]), np.ones((1, 1))), gamma=0.0)
def bellman_gamma_14_6_as_written(mp, gamma):
    sup.check_bellman_gamma(*mp, gamma, printed=True)


@claim(
    id="mdp.gamma_eval_contraction",
    source="003 §14.3.1 (after Alg.5)",
    statement="For γ < 1 the sweeps V ← r_π + γP_πV contract in the sup norm with modulus γ "
    "(each change at most γ times the previous one), so they converge geometrically; "
    "stopping at max|V - V'| < θ leaves max|V' - V_γ^π| ≤ γθ/(1 - γ). Both constants are "
    "attained by a one-state self-loop (stopped with θ just above a residual).",
    method=Method.PROPERTY,
    tags=(*TAGS, "bound"),
)
@given(mp=model_and_policy(), gamma=st.sampled_from([0.0, 0.5, 0.9, 0.95]),
       theta=st.sampled_from([1e-1, 1e-3, 1e-6]))
def gamma_eval_contraction(mp, gamma, theta):
    sup.check_contraction(*mp, gamma, theta)
    check_contraction_tight()


def check_contraction_tight(bound_factor: float = 1.0, modulus_factor: float = 1.0) -> None:
    """The self-loop with reward 1, γ = 0.9, θ = residual of sweep 20 times (1 + 1e-9)."""
    gamma, k = 0.9, 20
    theta = gamma ** (k - 1) * (1 + 1e-9)
    sup.check_contraction(sup.self_loop(), np.ones((1, 1)), gamma, theta,
                          bound_factor=bound_factor, modulus_factor=modulus_factor)


@claim(
    id="mdp.q_from_v_14_7",
    source="003 §14.3.1 (14.7)",
    statement="Q_T^π(x,a) = Σ_x' P^a_{x→x'}(R^a_{x→x'}/T + (T-1)/T V_{T-1}^π(x')) and "
    "Q_γ^π(x,a) = Σ_x' P^a_{x→x'}(R^a_{x→x'} + γ V_γ^π(x')) equal the action values of "
    "(14.4) computed without V (all trajectories with first action a; the state-action "
    "linear system).",
    method=Method.PROPERTY,
    tags=TAGS,
)
@given(mp=model_and_policy(), T=st.integers(1, 4), gamma=_GAMMAS)
def q_from_v_14_7(mp, T, gamma):
    sup.check_q_from_v(*mp, horizon=T)
    sup.check_q_from_v(*mp, gamma=gamma)


@claim(
    id="mdp.q_from_v_14_7_as_written",
    source="003 §14.3.1 (14.7)",
    statement="As printed (γ line): Q_γ^π(x,a) = Σ_x' P^a_{x→x'} + γ V_γ^π(x') (read with "
    "the sum over both terms, the only reading in which x' is bound).",
    method=Method.PROPERTY,
    tags=TAGS,
    expect=Expect.REFUTED,
    kind=ErratumKind.TERM,
    corrected_by="mdp.q_from_v_14_7",
    explanation="The reward R^a_{x→x'} and the brackets are missing: the printed line "
    "gives 1 + γ Σ_x' V(x'). One state with a zero-reward self-loop has Q = 0, printed 1.",
)
@given(mp=model_and_policy(), gamma=_GAMMAS)
@example(mp=(make_model([[[1.0]]], [[[0.0]]]), np.ones((1, 1))), gamma=0.0)
def q_from_v_14_7_as_written(mp, gamma):
    sup.check_q_from_v(*mp, gamma=gamma, printed=True)
