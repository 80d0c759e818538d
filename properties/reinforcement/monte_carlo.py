"""Monte-Carlo reinforcement learning (003 §14.4.1): trajectories (14.14), their
probabilities and ratios (14.17)-(14.18), importance sampling (14.16), on-policy Alg.8 and
off-policy Alg.9.

The references (``monte_carlo_support``) work on the arrays ``P``, ``R`` of small MDPs:
exact T-step values ``Q^π_k`` by a backward recursion, cross-checked against exact
enumeration of every trajectory; expectations of estimators by enumeration; the limit of
every-visit averaging by forward propagation of the state distributions.

Errata declared here (each with its corrected twin):

* ``mc.trajectory_average`` — the averages of Alg.8 estimate a visit-weighted mixture of
  ``Q^π_{T-t}``, not the state-action value ``Q^π_T`` (CODE).
* ``mc.offpolicy_estimate_alg9`` — line 8 of Alg.9 weights ``τ_i`` by ``Π_{j=i}^{T-1}
  1/p_j`` (CODE).
* ``mc.offpolicy_alg9_line4_as_printed`` — line 4 of Alg.9 samples the target π itself
  (CODE).
* ``mc.deterministic_target_always_one`` — the passage after (14.18): π(x, a) "is always
  1" for a deterministic π (OVERCLAIM).
"""

from __future__ import annotations

import math

import numpy as np
from hypothesis import example, given
from hypothesis import strategies as st

from algorithms.reinforcement import (
    OffPolicyMonteCarlo,
    OnPolicyMonteCarlo,
    epsilon_greedy_policy,
    importance_ratio,
    sample_trajectory,
    trajectory_probability,
    trajectory_returns,
)
from mltheory import ErratumKind, Expect, Method, claim, evidence
from mltheory.numeric import EXACT_ARITHMETIC, Tolerance, assert_close
from mltheory.stats import DEFAULT_CONFIDENCE
from properties.reinforcement.monte_carlo_support import (
    average_band,
    enumerate_paths,
    q_horizons,
    visit_mixture,
)
from properties.reinforcement.strategies import policies
from properties.reinforcement.strategies_bandits_mc import Model, make_model, models

#: Sums of at most a few hundred products of probabilities and small integer rewards.
ENUMERATION = Tolerance(rtol=1e-9, atol=1e-9,
                        reason="sums of <= 10^3 float products of probabilities and "
                        "integer rewards; rounding about 1e-13")

SOURCE = "003 §14.4.1"


# ---------------------------------------------------------------------------------------
# Small models pinned as counterexamples
# ---------------------------------------------------------------------------------------


def one_state_two_arms() -> Model:
    """One state, two actions: reward 1 for action 0, 2 for action 1."""
    P = np.ones((2, 1, 1))
    R = np.array([1.0, 2.0]).reshape(2, 1, 1)
    return make_model(P, R)


def revisited_start() -> Model:
    """State 0 pays 1 and stays with probability 1/2, else falls into the terminal
    state 1 (reward 0 ever after); one action."""
    P = np.array([[[0.5, 0.5], [0.0, 1.0]]])
    R = np.array([[[1.0, 1.0], [0.0, 0.0]]])
    return make_model(P, R)


# ---------------------------------------------------------------------------------------
# ε-greedy probabilities
# ---------------------------------------------------------------------------------------


def check_eps_greedy_rows(pi: np.ndarray, actions: np.ndarray, eps: float) -> None:
    """Row x puts 1 - ε + ε/|A| on actions[x] and ε/|A| elsewhere."""
    S, A = pi.shape
    want = np.full((S, A), eps / A)
    want[np.arange(S), actions] = 1.0 - eps + eps / A
    assert_close(pi, want, tol=EXACT_ARITHMETIC, label="epsilon-greedy rows")
    assert_close(pi.sum(axis=1), np.ones(S), tol=EXACT_ARITHMETIC, label="row sums")


def partly_reachable(seed: int) -> Model:
    """4 states, 3 actions; state 3 cannot be reached from states 0-2 (a self-loop)."""
    rng = np.random.default_rng(seed)
    P = np.zeros((3, 4, 4))
    P[:, :3, :3] = rng.dirichlet(np.ones(3), size=(3, 3))
    P[:, 3, 3] = 1.0
    return make_model(P, rng.uniform(-1, 1, size=(3, 4, 4)))


def check_learner_policies(seed: int, eps: float) -> None:
    mdp = partly_reachable(seed).mdp
    on = OnPolicyMonteCarlo(horizon=3, epsilon=eps, n_episodes=8, random_state=seed,
                            start=0).fit(mdp)
    seen = on.counts_.sum(axis=1) > 0
    assert not seen[3], "an unreachable state was visited"
    greedy = on.greedy_
    assert np.all(greedy[seen] >= 0) and np.all(greedy[~seen] == -1)
    # the favoured action is one of the argmax ties of Q_ on the states seen
    best = on.Q_.max(axis=1)
    assert np.all(on.Q_[np.arange(4), greedy][seen] == best[seen]), "not greedy in Q_"
    check_eps_greedy_rows(on.policy_[seen], greedy[seen], eps)
    assert_close(on.policy_[~seen], np.full(((~seen).sum(), 3), 1 / 3), tol=EXACT_ARITHMETIC,
                 label="unseen states keep the uniform policy")
    off = OffPolicyMonteCarlo(horizon=3, epsilon=max(eps, 0.05), n_episodes=8,
                              random_state=seed, start=0).fit(mdp)
    check_eps_greedy_rows(off.behaviour_, off.policy_, max(eps, 0.05))


@claim(
    id="mc.eps_greedy_probs",
    source=f"{SOURCE} (after (14.18)), Alg.8 line 10",
    statement="The ε-greedy policy around a deterministic π gives π(x) the probability "
    "1 - ε + ε/|A| and every other action ε/|A| (a distribution); Alg.8's improved "
    "policies and Alg.9's behaviour policies have this form.",
    method=Method.PROPERTY,
    tags=("reinforcement", "monte-carlo", "epsilon-greedy"),
)
@given(data=st.data(), eps=st.floats(0.0, 1.0))
@example(data=None, eps=0.0)
def eps_greedy_probs(data, eps):
    S, A = (3, 4) if data is None else (data.draw(st.integers(1, 6)), data.draw(
        st.integers(1, 5)))
    actions = np.arange(S) % A if data is None else np.array(
        data.draw(st.lists(st.integers(0, A - 1), min_size=S, max_size=S)))
    check_eps_greedy_rows(epsilon_greedy_policy(actions, eps, A), actions, eps)


@claim(
    id="mc.eps_greedy_learners",
    source=f"{SOURCE} Alg.8 line 10, Alg.9",
    statement="After every episode Alg.8's policy is ε-greedy around an argmax of Q on "
    "every state seen (uniform elsewhere), and Alg.9's behaviour policy is ε-greedy "
    "around its target.",
    method=Method.PROPERTY,
    tags=("reinforcement", "monte-carlo", "epsilon-greedy"),
)
def eps_greedy_learners(rng, scale):
    for eps in [0.0, 1.0, *rng.uniform(0, 1, size=6 * scale).tolist()]:
        check_learner_policies(int(rng.integers(2**31)), eps)


# ---------------------------------------------------------------------------------------
# (14.17)-(14.18)
# ---------------------------------------------------------------------------------------


def positive_policy(draw, S: int, A: int) -> np.ndarray:
    w = np.array(draw(st.lists(st.integers(1, 3), min_size=S * A, max_size=S * A)),
                 dtype=float).reshape(S, A)
    return w / w.sum(axis=1, keepdims=True)


def check_ratio(model: Model, pi, b, T: int, seed: int) -> None:
    traj = sample_trajectory(model.mdp, b, T, random_state=seed, start=0)
    x, a = traj.states, traj.actions
    # (14.17) against the explicit product from the arrays
    want = float(np.prod(pi[x[:-1], a] * model.P[a, x[:-1], x[1:]]))
    got = trajectory_probability(model.mdp, pi, x, a)
    assert_close(got, want, tol=EXACT_ARITHMETIC, label="(14.17) vs the explicit product")
    pb = trajectory_probability(model.mdp, b, x, a)
    assert pb > 0, "a sampled trajectory has probability 0 under its own policy"
    assert_close(importance_ratio(pi, b, x, a), got / pb, tol=EXACT_ARITHMETIC,
                 label="(14.18) vs the ratio of the (14.17) probabilities")
    # (14.17) is a distribution over the trajectories from x_0
    probs, xs, acts, _ = enumerate_paths(model.P, model.R, b, T, 0)
    total = math.fsum(trajectory_probability(model.mdp, b, s, u) for s, u in zip(xs, acts,
                                                                                 strict=True))
    assert_close(total, 1.0, tol=ENUMERATION, label="(14.17) summed over all trajectories")


@claim(
    id="mc.trajectory_ratio_14_17_14_18",
    source=f"{SOURCE} (14.17)-(14.18)",
    statement="A trajectory's probability under π is Π_i π(x_i, a_i) P^{a_i}_{x_i→x_{i+1}}; "
    "in the ratio of two policies' probabilities the transition probabilities cancel, "
    "leaving Π_i π(x_i, a_i)/π'(x_i, a_i).",
    method=Method.PROPERTY,
    tags=("reinforcement", "monte-carlo", "importance-sampling"),
)
@given(data=st.data(), model=models(max_states=2, max_actions=2), T=st.integers(1, 3),
       seed=st.integers(0, 2**16))
def trajectory_ratio_14_17_14_18(data, model, T, seed):
    S, A = model.n_states, model.n_actions
    pi = data.draw(policies(S, A))
    b = positive_policy(data.draw, S, A)
    check_ratio(model, pi, b, T, seed)


# ---------------------------------------------------------------------------------------
# (14.16): importance sampling is unbiased
# ---------------------------------------------------------------------------------------


def check_is_unbiased(model: Model, pi, b, T: int, x0: int) -> None:
    """E_{π'}[(P^π/P^{π'}) (1/T)Σ τ] = E_π[(1/T)Σ τ] = V^π_T(x_0), by enumeration."""
    probs_b, xs, acts, rews = enumerate_paths(model.P, model.R, b, T, x0)
    ratios = np.array([importance_ratio(pi, b, s, u) for s, u in zip(xs, acts, strict=True)])
    weighted = float(np.sum(probs_b * ratios * rews.mean(axis=1)))
    probs_pi, _, _, rews_pi = enumerate_paths(model.P, model.R, pi, T, x0)
    direct = float(np.sum(probs_pi * rews_pi.mean(axis=1))) if probs_pi.size else 0.0
    V = float(np.sum(pi[x0] * q_horizons(model.P, model.R, pi, T)[T][x0]))
    assert_close(direct, V, tol=ENUMERATION, label="enumerated E_pi vs the T-step recursion")
    assert_close(weighted, V, tol=ENUMERATION,
                 label="(14.16) expectation under pi' vs V_T^pi(x_0)")


def check_is_q_unbiased(model: Model, pi, b, T: int, x0: int, a0: int, first: int) -> None:
    """Trajectories from (x_0, a_0) under π': E[ρ_{first:T-1} (1/T)Σ τ] = Q^π_T(x_0, a_0)
    (``first = 1``: the given a_0 is not reweighted; ``first = 0``: (14.18) as printed)."""
    probs_b, xs, acts, rews = enumerate_paths(model.P, model.R, b, T, x0, a0)
    ratios = np.array([importance_ratio(pi, b, s[first:], u[first:]) if u.size > first
                       else 1.0 for s, u in zip(xs, acts, strict=True)])
    weighted = float(np.sum(probs_b * ratios * rews.mean(axis=1)))
    Q = float(q_horizons(model.P, model.R, pi, T)[T][x0, a0])
    assert_close(weighted, Q, tol=ENUMERATION,
                 label="importance-weighted E[R | x_0, a_0] vs Q_T^pi(x_0, a_0)",
                 context=f"ratio from i={first}, T={T}, x0={x0}, a0={a0}: ")


@claim(
    id="mc.importance_sampling_q_ratio_as_printed",
    source=f"{SOURCE} (14.16), (14.18)",
    statement="Q(x, a) is estimated by (14.16): the returns of trajectories starting with "
    "(x_0, a_0) = (x, a), sampled from π', weighted by the ratio (14.18) "
    "Π_{i=0}^{T-1} π(x_i, a_i)/π'(x_i, a_i).",
    method=Method.ENUMERATION,
    tags=("reinforcement", "monte-carlo", "importance-sampling"),
    expect=Expect.REFUTED,
    kind=ErratumKind.SYMBOL,
    corrected_by="mc.importance_sampling_14_16",
    explanation="For Q(x, a) the first action is given, not drawn by either policy, so the "
    "product must start at i = 1; the factor π(x, a)/π'(x, a) of i = 0 scales the "
    "estimate (the i = 0 product is right for the value V^π(x_0) of the start state). "
    "One state, actions paying 1 and 2, π = action 0, π' uniform, T = 1: the estimate of "
    "Q(x, 0) = 1 is 2, that of Q(x, 1) = 2 is 0.",
)
@given(data=st.data(), model=models(max_states=2, min_actions=2, max_actions=2),
       T=st.integers(1, 3))
@example(data=None, model=one_state_two_arms(), T=1)
def importance_sampling_q_ratio_as_printed(data, model, T):
    S, A = model.n_states, model.n_actions
    if data is None:
        pi, b, x0, a0 = np.array([[1.0, 0.0]]), np.full((1, 2), 0.5), 0, 0
    else:
        pi, b = data.draw(policies(S, A)), positive_policy(data.draw, S, A)
        x0, a0 = data.draw(st.integers(0, S - 1)), data.draw(st.integers(0, A - 1))
    check_is_q_unbiased(model, pi, b, T, x0, a0, first=0)


@claim(
    id="mc.importance_sampling_14_16",
    source=f"{SOURCE} (14.15)-(14.16)",
    statement="Averaging the T-step returns of trajectories sampled from π', each weighted "
    "by P^π/P^{π'}, estimates π's expected return without bias: V^π_T(x_0) with the "
    "ratio (14.18) over i = 0..T-1, Q^π_T(x, a) for trajectories starting with (x, a) "
    "with the ratio over i = 1..T-1 (exact over all trajectories of small MDPs; "
    "mc.importance_sampling_simulation samples it).",
    method=Method.ENUMERATION,
    tags=("reinforcement", "monte-carlo", "importance-sampling"),
)
@given(data=st.data(), model=models(max_states=2, max_actions=2), T=st.integers(1, 3))
def importance_sampling_14_16(data, model, T):
    S, A = model.n_states, model.n_actions
    pi, b = data.draw(policies(S, A)), positive_policy(data.draw, S, A)
    x0, a0 = data.draw(st.integers(0, S - 1)), data.draw(st.integers(0, A - 1))
    check_is_unbiased(model, pi, b, T, x0)
    check_is_q_unbiased(model, pi, b, T, x0, a0, first=1)


@claim(
    id="mc.importance_sampling_simulation",
    source=f"{SOURCE} (14.16)",
    statement="By simulation: the importance-weighted average of sampled T-step returns "
    "from π' falls within a Hoeffding band (1 - 1e-6) of π's exact T-step value.",
    method=Method.SIMULATION,
    tags=("reinforcement", "monte-carlo", "importance-sampling"),
)
def importance_sampling_simulation(rng, scale):
    # rewards in [0, 1]; target deterministic, behaviour uniform: ratios in {0, A^T}
    P = np.array([[[0.3, 0.7], [0.6, 0.4]], [[0.9, 0.1], [0.2, 0.8]]])
    R = np.array([[[1.0, 0.0], [0.5, 1.0]], [[0.0, 1.0], [1.0, 0.2]]])
    model, T = make_model(P, R), 2
    pi = np.array([[0.0, 1.0], [1.0, 0.0]])
    b = np.full((2, 2), 0.5)
    m = 1000 * scale
    vals = np.empty(m)
    for i in range(m):
        tr = sample_trajectory(model.mdp, b, T, random_state=rng, start=0)
        vals[i] = importance_ratio(pi, b, tr.states, tr.actions) * tr.rewards.mean()
    V = float(np.sum(pi[0] * q_horizons(P, R, pi, T)[T][0]))
    half = (2.0**T) * math.sqrt(math.log(2 / (1 - DEFAULT_CONFIDENCE)) / (2 * m))
    err = abs(vals.mean() - V)
    evidence.worst("|IS average - V| / Hoeffding half-width", err / half)
    assert err <= half, f"IS average {vals.mean():.4f} vs V = {V:.4f} (band {half:.4f})"


# ---------------------------------------------------------------------------------------
# Alg.9: off-policy weights
# ---------------------------------------------------------------------------------------


def behaviour_of(target: np.ndarray, eps: float, A: int) -> np.ndarray:
    S = target.size
    b = np.full((S, A), eps / A)
    b[np.arange(S), target] += 1.0 - eps
    return b


def printed_line8(rewards: np.ndarray, p: np.ndarray) -> float:
    """Alg.9 line 8 at t = 0, literally: (1/T) Σ_{i=1}^T τ_i Π_{j=i}^{T-1} 1/p_j."""
    T = rewards.size
    return sum(rewards[i - 1] * np.prod(1.0 / p[i:T]) for i in range(1, T + 1)) / T


def right_range_one_over_p(rewards, p, on) -> float:
    """Half fix 1: the actions between a_0 and τ_i, but 1/p_j whatever a_j."""
    T = rewards.size
    return sum(rewards[i - 1] * np.prod(1.0 / p[1:i]) for i in range(1, T + 1)) / T


def printed_range_pi_over_p(rewards, p, on) -> float:
    """Half fix 2: π/p_j, but over the printed range j = i..T-1."""
    T = rewards.size
    rho = np.where(on, 1.0 / p, 0.0)
    return sum(rewards[i - 1] * np.prod(rho[i:T]) for i in range(1, T + 1)) / T


def library_per_decision(rewards, p, on) -> float:
    return float(trajectory_returns(rewards, np.where(on, 1.0 / p, 0.0))[0])


def expected_return(model: Model, target, eps, T, x0, a0, rule, sampler="behaviour"
                    ) -> tuple[float, float]:
    """(E[R_0 | x_0, a_0] of a weighting rule, Q^π_T(x_0, a_0)) by enumeration."""
    A = model.n_actions
    b = behaviour_of(target, eps, A)
    sampling = b if sampler == "behaviour" else behaviour_of(target, 0.0, A)
    probs, xs, acts, rews = enumerate_paths(model.P, model.R, sampling, T, x0, a0)
    est = 0.0
    for w, s, u, r in zip(probs, xs, acts, rews, strict=True):
        p = b[s[:-1], u]
        on = u == target[s[:-1]]
        est += w * rule(r, p, on)
    pi = behaviour_of(target, 0.0, A)
    return est, float(q_horizons(model.P, model.R, pi, T)[T][x0, a0])


def check_offpolicy_unbiased(model, target, eps, T, x0, a0, rule, sampler="behaviour"
                             ) -> None:
    est, Q = expected_return(model, target, eps, T, x0, a0, rule, sampler)
    assert_close(est, Q, tol=ENUMERATION,
                 label="E[weighted R_0 | x_0, a_0] vs Q_T^pi(x_0, a_0)",
                 context=f"T={T}, eps={eps}, target={target.tolist()}, x0={x0}, a0={a0}: ")


def offpolicy_scenarios():
    """A model with A >= 2, a deterministic target, ε in (0, 1], T in {2, 3}, x_0, a_0."""
    @st.composite
    def build(draw):
        model = draw(models(max_states=2, min_actions=2, max_actions=2))
        S, A = model.n_states, model.n_actions
        target = np.array(draw(st.lists(st.integers(0, A - 1), min_size=S, max_size=S)))
        eps = draw(st.sampled_from([0.2, 0.5, 1.0]))
        T = draw(st.integers(2, 3))
        return model, target, eps, T, draw(st.integers(0, S - 1)), draw(st.integers(0, A - 1))
    return build()


PINNED = (one_state_two_arms(), np.array([0]), 0.5, 2, 0, 0)


@claim(
    id="mc.offpolicy_estimate_alg9",
    source=f"{SOURCE} Alg.9 line 8",
    statement="With trajectories from the ε-greedy behaviour around the deterministic "
    "target π, the returns R = (1/(T-t)) Σ_{i=t+1}^T τ_i Π_{j=i}^{T-1} 1/p_j of Alg.9 line "
    "8 average to the target's state-action value Q^π.",
    method=Method.ENUMERATION,
    tags=("reinforcement", "monte-carlo", "importance-sampling", "off-policy"),
    expect=Expect.REFUTED,
    kind=ErratumKind.CODE,
    corrected_by="mc.offpolicy_per_decision_is",
    explanation="Line 8 weights τ_i by the inverse behaviour probabilities of the actions "
    "taken after it (j = i..T-1), and by 1/p_j whether or not a_j is π's action. The "
    "reward τ_i depends only on the actions before it, so the weight must run over "
    "a_{t+1}..a_{i-1} and be π(x_j, a_j)/p_j (0 off the target). One state, two actions "
    "paying 1 and 2, π = action 0, ε = 0.5 (p = 0.75 or 0.25), T = 2: E[R_0 | a_0 = 0] = "
    "(2 + 1.25)/2 = 1.625, Q^π_2(x, 0) = 1. Either half of the fix alone stays biased "
    "(the right range with 1/p_j: 2.0; π/p_j over the printed range: 1.125; checked in the "
    "corrected claim), so the line holds two mistakes, reported as one erratum of the line.",
)
@given(scenario=offpolicy_scenarios())
@example(scenario=PINNED)
def offpolicy_estimate_alg9(scenario):
    model, target, eps, T, x0, a0 = scenario
    check_offpolicy_unbiased(model, target, eps, T, x0, a0, lambda r, p, on: printed_line8(r, p))


@claim(
    id="mc.offpolicy_alg9_line4_as_printed",
    source=f"{SOURCE} Alg.9 lines 4 and 8",
    statement="Alg.9 as printed — trajectories generated by executing π (line 4), returns "
    "weighted as in line 8 — estimates the target's Q^π.",
    method=Method.ENUMERATION,
    tags=("reinforcement", "monte-carlo", "importance-sampling", "off-policy"),
    expect=Expect.REFUTED,
    kind=ErratumKind.CODE,
    corrected_by="mc.offpolicy_per_decision_is",
    explanation="Line 4 runs the deterministic target π, not its ε-greedy behaviour "
    "policy: no action other than π(x) is ever tried, so Q(x, a) for a ≠ π(x) is never "
    "updated, and every return is inflated by (1/(1-ε+ε/|A|))^k. One state, two actions "
    "paying 1 and 2, π = action 0, ε = 0.5, T = 2: R_0 = (1/0.75 + 1)/2 = 1.167 on every "
    "trajectory, Q^π_2 = 1.",
)
@given(scenario=offpolicy_scenarios())
@example(scenario=PINNED)
def offpolicy_alg9_line4_as_printed(scenario):
    model, target, eps, T, x0, _ = scenario
    check_offpolicy_unbiased(model, target, eps, T, x0, int(target[x0]),
                             lambda r, p, on: printed_line8(r, p), sampler="target")


def check_learner_mixture(model: Model, learner, sampling, target, T: int, start: int,
                          low: float, high: float, wmax: float | None = None) -> None:
    """Every visited pair's Q_ lies within the Hoeffding band of the exact every-visit
    limit (union over the pairs). With ``wmax`` (weighted importance sampling) the
    averages are Σ W R / Σ W with weights W <= wmax: the band uses Σ W (``weights_``) in
    place of the count and a range scaled by ``wmax``."""
    S, A = model.n_states, model.n_actions
    start_dist = np.eye(S)[start]
    mix, visits = visit_mixture(model.P, model.R, sampling, target, T, start_dist)
    delta = (1 - DEFAULT_CONFIDENCE) / (S * A)
    n = learner.n_episodes_
    for x in range(S):
        for a in range(A):
            if visits[x, a] == 0:
                assert learner.counts_[x, a] == 0, f"pair ({x}, {a}) visited with probability 0"
                continue
            c = learner.counts_[x, a]
            assert c > 0, f"pair ({x}, {a}) never visited in {n} episodes"
            if wmax is None:
                half = average_band(n, c, T, low, high, delta)
            else:
                half = average_band(n, learner.weights_[x, a], T, 0.0, wmax * (high - low),
                                    delta)
            err = abs(learner.Q_[x, a] - mix[x, a])
            evidence.worst("|Q_ - exact every-visit limit| / Hoeffding half-width", err / half)
            assert err <= half, (f"Q_({x}, {a}) = {learner.Q_[x, a]:.4f}, exact limit "
                                 f"{mix[x, a]:.4f}, band {half:.4f}")


def seeded_model(rng, S: int, A: int) -> Model:
    P = rng.dirichlet(np.ones(S), size=(A, S))
    R = rng.uniform(0.0, 1.0, size=(A, S, S))
    return make_model(P, R)


@claim(
    id="mc.offpolicy_per_decision_is",
    source=f"{SOURCE} (14.16)-(14.18), Alg.9 corrected",
    statement="With trajectories from the ε-greedy behaviour around a deterministic target "
    "π, weighting τ_i by Π_{j=t+1}^{i-1} π(x_j, a_j)/p_j (the actions between a_t and τ_i) "
    "makes E[R_t | x_t, a_t] = Q^π_{T-t}(x_t, a_t) (exact enumeration); Alg.9 run so "
    "converges to the behaviour-visit-weighted mixture of Q^π_{T-t} (= Q^π_T where the "
    "pair is met only at t = 0).",
    method=Method.ENUMERATION,
    tags=("reinforcement", "monte-carlo", "importance-sampling", "off-policy"),
)
def offpolicy_per_decision_is(rng, scale):
    model, target, eps, T, x0, a0 = PINNED
    for a in range(2):
        check_offpolicy_unbiased(model, target, eps, T, x0, a, library_per_decision)
    # either half of the fix alone is still biased: line 8 holds two mistakes
    for half_fix in (right_range_one_over_p, printed_range_pi_over_p):
        est, Q = expected_return(model, target, eps, T, x0, a0, half_fix)
        evidence.note(f"{half_fix.__name__}: E[R_0] = {est:.4f} vs Q = {Q:.4f}")
        assert abs(est - Q) > 0.1, f"{half_fix.__name__} is unbiased on the pinned model"
    for _ in range(10 * scale):
        S, A = int(rng.integers(1, 3)), 2
        m = seeded_model(rng, S, A)
        tgt = rng.integers(0, A, size=S)
        e = float(rng.choice([0.2, 0.5, 1.0]))
        T = int(rng.integers(1, 4))
        x0 = int(rng.integers(S))
        for a in range(A):
            check_offpolicy_unbiased(m, tgt, e, T, x0, a, library_per_decision)
    # the learner (evaluation mode) against the exact limit, on a model where the
    # behaviour's own values differ from the target's by 0.125 (unweighted returns fail)
    check_offpolicy_learner(int(rng.integers(2**31)), 12_000 * scale)


def two_rewards() -> Model:
    """One state, two actions paying 0 and 1."""
    return make_model(np.ones((2, 1, 1)), np.array([0.0, 1.0]).reshape(2, 1, 1))


def check_offpolicy_learner(seed: int, n: int, weighting: str = "ordinary") -> None:
    """Target: action 0 (pays 0); behaviour uniform (ε = 1); T = 2. Exact every-visit
    limits: (0, 0.75) for the target, (0.125, 0.875) for the behaviour's own values."""
    model, tgt, eps, T = two_rewards(), np.array([0]), 1.0, 2
    learner = OffPolicyMonteCarlo(horizon=T, epsilon=eps, n_episodes=n, improve=False,
                                  weighting=weighting, start=0, random_state=seed
                                  ).fit(model.mdp, tgt)
    b = behaviour_of(tgt, eps, 2)
    wmax = 1.0 / (1 - eps + eps / 2)              # importance weights over T-1 = 1 step
    if weighting == "ordinary":
        check_learner_mixture(model, learner, b, behaviour_of(tgt, 0.0, 2), T, 0, 0.0,
                              (1.0 + wmax) / 2)
    else:
        check_learner_mixture(model, learner, b, behaviour_of(tgt, 0.0, 2), T, 0, 0.0, 1.0,
                              wmax=wmax)


@claim(
    id="mc.offpolicy_weighted_is",
    source=f"{SOURCE} (14.16)-(14.18), Alg.9 (weighted importance sampling)",
    statement="Weighted importance sampling — the returns (1/(T-t)) Σ_{i>t} τ_i averaged "
    "with weights W_t = Π_{j>t} π(x_j, a_j)/p_j (Σ W R / Σ W) — converges to the same "
    "behaviour-visit-weighted mixture of Q^π_{T-t} as the ordinary per-decision "
    "estimator (E_b[W_t | x_t, a_t] = 1 and E_b[W_t R_t | x_t, a_t] = Q^π_{T-t}).",
    method=Method.SIMULATION,
    tags=("reinforcement", "monte-carlo", "importance-sampling", "off-policy"),
)
def offpolicy_weighted_is(rng, scale):
    check_offpolicy_learner(int(rng.integers(2**31)), 12_000 * scale, "weighted")


# ---------------------------------------------------------------------------------------
# The "π(x, a) is always 1" passage
# ---------------------------------------------------------------------------------------


def check_target_probability_one(model, target, eps, T, x0) -> None:
    b = behaviour_of(target, eps, model.n_actions)
    _, xs, acts, _ = enumerate_paths(model.P, model.R, b, T, x0)
    pi = behaviour_of(target, 0.0, model.n_actions)
    for s, u in zip(xs, acts, strict=True):
        vals = pi[s[:-1], u]
        assert np.all(vals == 1.0), (
            f"trajectory states {s.tolist()}, actions {u.tolist()}: pi(x_i, a_i) = "
            f"{vals.tolist()} under the deterministic target {target.tolist()}")


@claim(
    id="mc.deterministic_target_always_one",
    source=f"{SOURCE} (after (14.18))",
    statement="If π is deterministic and π' is ε-greedy around it, then π(x_i, a_i) is "
    "always 1 on the trajectories of π', and π'(x_i, a_i) is ε/|A| or 1 - ε + ε/|A|.",
    method=Method.ENUMERATION,
    tags=("reinforcement", "monte-carlo", "importance-sampling", "off-policy"),
    expect=Expect.REFUTED,
    kind=ErratumKind.OVERCLAIM,
    corrected_by="mc.deterministic_target_ratio",
    explanation="π(x, a) is 1 only for a = π(x); π' takes the other actions with "
    "probability ε/|A| > 0, and there π(x, a) = 0, so the ratio (14.18) of such a "
    "trajectory is 0, not Π 1/p_i. One state, two actions, π = action 0, ε = 0.5, T = 1: "
    "the trajectory with a_0 = 1 has π(x_0, a_0) = 0.",
)
@given(scenario=offpolicy_scenarios())
@example(scenario=(one_state_two_arms(), np.array([0]), 0.5, 1, 0, 0))
def deterministic_target_always_one(scenario):
    model, target, eps, T, x0, _ = scenario
    check_target_probability_one(model, target, eps, T, x0)


def check_deterministic_ratio(model, target, eps, T, x0) -> None:
    A = model.n_actions
    b = behaviour_of(target, eps, A)
    _, xs, acts, _ = enumerate_paths(model.P, model.R, b, T, x0)
    # every trajectory that leaves π, and up to 4 that follow it
    follows = np.all(acts == target[xs[:, :-1]], axis=1)
    keep = np.flatnonzero(~follows).tolist() + np.flatnonzero(follows)[:4].tolist()
    for s, u in zip(xs[keep], acts[keep], strict=True):
        on = u == target[s[:-1]]
        want = float(np.prod(on / b[s[:-1], u]))
        got = importance_ratio(target, b, s, u)
        assert_close(got, want, tol=EXACT_ARITHMETIC,
                     label="(14.18) for a deterministic target vs prod 1[a=pi(x)]/p")
        p_levels = {round(eps / A, 12), round(1 - eps + eps / A, 12)}
        assert set(np.round(b[s[:-1], u], 12)) <= p_levels
        if not np.all(on):
            assert trajectory_probability(model.mdp, target, s, u) == 0.0


@claim(
    id="mc.deterministic_target_ratio",
    source=f"{SOURCE} (14.18)",
    statement="For a deterministic target π and the ε-greedy π' around it, π(x, a) = "
    "1[a = π(x)], π'(x_i, a_i) is ε/|A| or 1 - ε + ε/|A|, and the ratio (14.18) is "
    "Π_i 1[a_i = π(x_i)]/π'(x_i, a_i): 0 for every trajectory that leaves π.",
    method=Method.ENUMERATION,
    tags=("reinforcement", "monte-carlo", "importance-sampling", "off-policy"),
)
@given(scenario=offpolicy_scenarios())
def deterministic_target_ratio(scenario):
    model, target, eps, T, x0, _ = scenario
    check_deterministic_ratio(model, target, eps, T, x0)


# ---------------------------------------------------------------------------------------
# Alg.8: what the averages estimate
# ---------------------------------------------------------------------------------------


def check_on_policy_limit(model: Model, pi, T: int, start: int, n: int, seed: int,
                          reference: str) -> None:
    """OnPolicyMonteCarlo (evaluation mode) against ``reference``: "Q_T" (the note's
    reading) or "mixture" (the exact every-visit limit)."""
    learner = OnPolicyMonteCarlo(horizon=T, n_episodes=n, improve=False, start=start,
                                 random_state=seed).fit(model.mdp, pi)
    low, high = float(model.R.min()), float(model.R.max())
    if reference == "mixture":
        check_learner_mixture(model, learner, pi, pi, T, start, min(low, 0.0), max(high, 0.0))
        return
    Q_T = q_horizons(model.P, model.R, pi, T)[T]
    S, A = pi.shape
    delta = (1 - DEFAULT_CONFIDENCE) / (S * A)
    for x, a in zip(*np.nonzero(learner.counts_), strict=True):
        half = average_band(n, learner.counts_[x, a], T, min(low, 0.0), max(high, 0.0), delta)
        err = abs(learner.Q_[x, a] - Q_T[x, a])
        assert err <= half, (f"Q_({x}, {a}) = {learner.Q_[x, a]:.4f} but Q_T^pi = "
                             f"{Q_T[x, a]:.4f} (band {half:.4f})")


@claim(
    id="mc.trajectory_average",
    source=f"{SOURCE} (14.14)-(14.15), Alg.8",
    statement="Averaging, per state-action pair, the returns R = (1/(T-t)) Σ_{i=t+1}^T τ_i "
    "of the sampled trajectories estimates the state-action value Q^π_T (14.4) of the "
    "sampling policy.",
    method=Method.SIMULATION,
    tags=("reinforcement", "monte-carlo", "on-policy"),
    expect=Expect.REFUTED,
    kind=ErratumKind.CODE,
    corrected_by="mc.trajectory_average_mixture",
    explanation="The return of step t averages the T - t remaining rewards, so it "
    "estimates Q^π_{T-t}(x_t, a_t); a pair met at several steps pools different "
    "horizons. State 0 pays 1 and stays with probability 1/2 (else a terminal state), "
    "T = 2: Q^π_2(0) = 0.75, but the averages tend to (0.75 + 0.5·1)/1.5 = 0.833.",
)
def trajectory_average(rng, scale):
    check_on_policy_limit(revisited_start(), np.ones((2, 1)), 2, 0, 5000 * scale,
                          int(rng.integers(2**31)), "Q_T")


@claim(
    id="mc.trajectory_average_mixture",
    source=f"{SOURCE} Alg.8",
    statement="Every-visit averaging of Alg.8's returns converges to Σ_t d_t(x, a) "
    "Q^π_{T-t}(x, a) / Σ_t d_t(x, a), d_t the probability of meeting (x, a) at step t "
    "(computed exactly by propagating the state distribution); first-visit averaging to "
    "the same mixture weighted by first visits (enumerated); this is Q^π_T only where "
    "(x, a) is met at t = 0 alone.",
    method=Method.SIMULATION,
    tags=("reinforcement", "monte-carlo", "on-policy"),
)
def trajectory_average_mixture(rng, scale):
    check_on_policy_limit(revisited_start(), np.ones((2, 1)), 2, 0, 5000 * scale,
                          int(rng.integers(2**31)), "mixture")
    m = seeded_model(rng, 3, 2)
    pi = rng.dirichlet(np.ones(2), size=3)
    check_on_policy_limit(m, pi, 3, 0, 2500 * scale, int(rng.integers(2**31)), "mixture")
    check_first_visit(m, pi, 3, 0, 2500 * scale, int(rng.integers(2**31)))


def first_visit_limit(model: Model, pi, T: int, start: int) -> tuple[np.ndarray, np.ndarray]:
    """E[Σ first-visit returns] / E[first visits] per pair, by enumeration."""
    S, A = pi.shape
    num, den = np.zeros((S, A)), np.zeros((S, A))
    probs, xs, acts, rews = enumerate_paths(model.P, model.R, pi, T, start)
    for w, s, u, r in zip(probs, xs, acts, rews, strict=True):
        seen = set()
        for t in range(T):
            pair = (int(s[t]), int(u[t]))
            if pair in seen:
                continue
            seen.add(pair)
            num[pair] += w * r[t:].mean()
            den[pair] += w
    with np.errstate(invalid="ignore"):
        return num / np.where(den > 0, den, 1.0), den


def check_first_visit(model, pi, T, start, n, seed) -> None:
    learner = OnPolicyMonteCarlo(horizon=T, n_episodes=n, improve=False, first_visit=True,
                                 start=start, random_state=seed).fit(model.mdp, pi)
    limit, den = first_visit_limit(model, pi, T, start)
    S, A = pi.shape
    delta = (1 - DEFAULT_CONFIDENCE) / (S * A)
    for x, a in zip(*np.nonzero(den), strict=True):
        c = learner.counts_[x, a]
        assert c > 0
        # one return per episode at most: C_e <= 1
        half = average_band(n, c, 1, 0.0, 1.0, delta)
        err = abs(learner.Q_[x, a] - limit[x, a])
        evidence.worst("first visit: |Q_ - exact limit| / band", err / half)
        assert err <= half, (f"first-visit Q_({x}, {a}) = {learner.Q_[x, a]:.4f} vs "
                             f"{limit[x, a]:.4f}")

