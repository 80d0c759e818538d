"""Imitation learning, 003 §14.6: behaviour cloning (§14.6.1) and inverse RL (§14.6.2,
(14.27)–(14.29), Alg.13).

References that share none of the library's code: discounted values by a linear solve
``(I − γ P_π) V = r_π`` with ``P_π`` built here from the dense transition array; feature
expectations from the *value side* ``x̄^π = d₀ᵀ (I − γ P_π)⁻¹ Φ`` (each feature column as
a reward; the library solves the transposed occupancy system); optimal policies by
enumerating every deterministic policy; the distance from ``x̄*`` to the convex hull of
the ``x̄^{π_i}`` by enumerating the faces of the hull (affine projections on every subset
of at most d + 1 points), which by minimax duality is the value of (14.29).

Errata declared as printed:

- 003 §14.6.2 writes the linear reward as ``R(x) = wᵀw`` where ``wᵀx`` (x the state's
  feature vector) is meant; with the printed form the reward is a constant and (14.27)
  ``ρ^π = wᵀx̄^π`` fails (SYMBOL).
- Alg.13 line 6 takes the min over ``i = 1..T`` of ``wᵀ(x̄* − x̄^π)``: ``T`` is undefined
  (the policies found so far, ``i = 1..t``, are meant: a shorthand) and ``x̄^π`` has lost
  its index ``i``; run literally, the min is over the current policy only, the weights
  then swing between opposite directions and the algorithm cycles (SYMBOL).
- (14.28) is stated for ``x̄*`` *estimated* by Monte-Carlo from the demonstrations; with
  the estimate the inequality fails with positive probability (one demonstration already
  refutes it). It holds for the exact feature expectations (MISSING_CONDITION).

The notes' loop has no stopping rule and outputs "the" policy; they do not claim that this
policy reproduces the expert. The verified claim ``irl.mixture_matches_expert`` shows the
last policy may stay at half the gap between two optimal deterministic policies while the
mixture over the policies found matches ``x̄*``.
"""

from __future__ import annotations

import itertools
import warnings

import numpy as np
from hypothesis import example, given
from sklearn.exceptions import ConvergenceWarning

from algorithms.reinforcement import (
    BehaviourCloning,
    InverseRL,
    TabularMDP,
    empirical_feature_expectations,
    expert_trajectories,
    feature_expectations,
    max_margin_weights,
    mixture_closest,
    random_mdp,
)
from mltheory import ErratumKind, Expect, Method, claim, evidence
from mltheory.numeric import (
    EXACT_ARITHMETIC,
    LINEAR_ALGEBRA,
    REFERENCE_SOLVER,
    Tolerance,
    assert_close,
)
from mltheory.stats import hoeffding_interval
from properties.reinforcement.strategies_imitation import (
    IRLProblem,
    irl_problems,
    margin_problems,
)

TAGS = ("reinforcement", "imitation")

#: Confidence of every Monte-Carlo decision (split over the coordinates, Bonferroni).
MC_CONFIDENCE = 1.0 - 1e-6

#: The stopping tolerance of Alg.13 in the simulations, relative to the size of x̄*.
ALG13_TOL = 1e-6

ROUNDING = Tolerance(
    rtol=1e-12, atol=1e-12,
    reason="one discounted sum computed in two orders (per-step rewards against the "
    "product with w): float64 rounding only")

# ---------------------------------------------------------------------------
# Independent references (own code: dense arrays, linear solves, enumeration)
# ---------------------------------------------------------------------------


def ref_chain(mdp: TabularMDP, pi: np.ndarray) -> np.ndarray:
    """``P_π[x, x'] = Σ_a π(x, a) P[a, x, x']`` from the dense transition array."""
    return np.einsum("sa,ast->st", pi, mdp.P)


def one_hot_policy(actions: np.ndarray, n_actions: int) -> np.ndarray:
    pi = np.zeros((actions.size, n_actions))
    pi[np.arange(actions.size), actions] = 1.0
    return pi


def ref_values(mdp: TabularMDP, pi: np.ndarray, r_sa: np.ndarray, gamma: float) -> np.ndarray:
    """``V^π`` solving ``(I − γ P_π) V = r_π`` with ``r_π(x) = Σ_a π(x, a) r(x, a)``."""
    S = mdp.n_states
    return np.linalg.solve(np.eye(S) - gamma * ref_chain(mdp, pi), np.sum(pi * r_sa, axis=1))


def live(mdp: TabularMDP, Phi: np.ndarray) -> np.ndarray:
    """Features with terminal rows zeroed (the episode has ended there)."""
    out = np.array(Phi, dtype=float)
    out[mdp.terminal] = 0.0
    return out


def ref_feature_expectations(mdp: TabularMDP, pi: np.ndarray, Phi: np.ndarray,
                             gamma: float) -> np.ndarray:
    """The value side: ``d₀ᵀ (I − γ P_π)⁻¹ Φ`` (every feature column a reward)."""
    S = mdp.n_states
    M = np.linalg.solve(np.eye(S) - gamma * ref_chain(mdp, pi), live(mdp, Phi))
    return mdp.initial @ M


def deterministic_policies(S: int, A: int) -> list[np.ndarray]:
    return [np.array(p, dtype=np.intp) for p in itertools.product(range(A), repeat=S)]


def ref_optimal_policy(mdp: TabularMDP, R_state: np.ndarray, gamma: float
                       ) -> tuple[np.ndarray, np.ndarray]:
    """An optimal deterministic policy for the state reward ``R_state`` by enumeration:
    the policy with the largest Σ_x V(x) is optimal in every state. Returns (π, V*)."""
    S, A = mdp.n_states, mdp.n_actions
    r_sa = np.repeat(R_state[:, None], A, axis=1)
    best, best_sum, best_V = None, -np.inf, None
    for p in deterministic_policies(S, A):
        V = ref_values(mdp, one_hot_policy(p, A), r_sa, gamma)
        if best is None or V.sum() > best_sum + 1e-12 * max(1.0, abs(best_sum)):
            best, best_sum, best_V = p, V.sum(), V
    return best, best_V


def hull_distance(mu: np.ndarray, mus: np.ndarray) -> tuple[float, np.ndarray]:
    """Distance from ``mu`` to the convex hull of the rows of ``mus`` and the convex
    weights of the nearest point, by enumerating the faces: for every subset of at most
    d + 1 points, the projection on its affine hull, kept when its weights are ≥ 0."""
    k, d = mus.shape
    best, best_lam = np.inf, None
    for size in range(1, min(k, d + 1) + 1):
        for idx in itertools.combinations(range(k), size):
            base = mus[idx[0]]
            if size == 1:
                alpha = np.zeros(0)
            else:
                B = (mus[list(idx[1:])] - base).T  # (d, size-1)
                alpha = np.linalg.lstsq(B, mu - base, rcond=None)[0]
            lam_sub = np.concatenate([[1.0 - alpha.sum()], alpha])
            if np.any(lam_sub < -1e-12):
                continue
            point = lam_sub @ mus[list(idx)]
            dist = float(np.linalg.norm(mu - point))
            if dist < best:
                lam = np.zeros(k)
                lam[list(idx)] = np.clip(lam_sub, 0.0, None)
                best, best_lam = dist, lam / lam.sum()
    return best, best_lam


def _state_reward(Phi_live: np.ndarray, w: np.ndarray) -> np.ndarray:
    """R(x) = wᵀφ(x), the reading of 003 §14.6.2 that (14.27) needs."""
    return Phi_live @ w




# ---------------------------------------------------------------------------
# (14.27): ρ^π = wᵀ x̄^π
# ---------------------------------------------------------------------------


def check_linear_return(prob: IRLProblem, reward=_state_reward) -> None:
    """ρ^π of the MDP whose reward is ``reward(Φ, w)`` (via ``mdp.with_reward``), by a
    linear solve, against ``wᵀ x̄^π`` from :func:`feature_expectations`."""
    mdp, Phi, w, gamma, pi = prob.mdp, prob.features, prob.w, prob.gamma, prob.policy
    S, A = mdp.n_states, mdp.n_actions
    R = np.array(reward(live(mdp, Phi), w), dtype=float)
    R[mdp.terminal] = 0.0  # an MDP has zero reward on its terminal states
    mdp_w = mdp.with_reward(np.broadcast_to(R, (A, S)))
    rho = float(mdp.initial @ ref_values(mdp, pi, mdp_w.expected_reward, gamma))
    mu = feature_expectations(mdp, pi, Phi, gamma)
    scale = max(1.0, float(np.abs(w).sum() * np.abs(Phi).max(initial=0.0)) / (1.0 - gamma))
    assert_close(mu, ref_feature_expectations(mdp, pi, Phi, gamma), LINEAR_ALGEBRA,
                 label="x̄^π: occupancy solve vs value-side solve", scale=scale,
                 context="feature expectations: ")
    assert_close(float(w @ mu), rho, LINEAR_ALGEBRA, label="|wᵀx̄^π − ρ^π| / scale",
                 scale=scale, context="(14.27) rho = w^T x_bar: ")


@claim(
    id="irl.linear_return_14_27",
    source="003 §14.6.2 (14.27)",
    statement="With the state reward R(x) = wᵀφ(x), the expected discounted return of any "
    "policy is linear in w: ρ^π = E[Σ_t γ^t R(x_t) | π] = wᵀ x̄^π with the feature "
    "expectations x̄^π = E[Σ_t γ^t φ(x_t) | π] (exact, by linear algebra).",
    method=Method.PROPERTY,
    tags=TAGS,
)
@given(prob=irl_problems())
@example(prob=IRLProblem(random_mdp(4, 2, n_terminal=1, sparse=True, random_state=0),
                         np.array([[1.0, -2.0], [0.0, 3.0], [2.0, 1.0], [1.0, 1.0]]),
                         np.array([1.0, -1.0]), 0.9, np.full((4, 2), 0.5)))
def linear_return_14_27(prob):
    check_linear_return(prob)


@claim(
    id="irl.linear_return_as_printed",
    source="003 §14.6.2 (14.27)",
    statement="With the reward as printed, R(x) = wᵀw, the discounted return of every "
    "policy is ρ^π = wᵀ x̄^π.",
    method=Method.PROPERTY,
    tags=TAGS,
    expect=Expect.REFUTED,
    kind=ErratumKind.SYMBOL,
    corrected_by="irl.linear_return_14_27",
    explanation="The notes print R(x) = wᵀw, a constant: then ρ^π = ‖w‖²/(1−γ) for every "
    "policy without terminal states, unrelated to the features. One state, one action, "
    "φ = 0, w = 1, γ = 0: ρ = 1 while wᵀx̄ = 0. The reward meant is wᵀx with x the "
    "state's feature vector (as the notes write R(x) = w*ᵀx two lines later).",
)
@given(prob=irl_problems())
@example(prob=IRLProblem(TabularMDP(np.ones((1, 1, 1)), np.zeros((1, 1, 1))),
                         np.zeros((1, 1)), np.ones(1), 0.0, np.ones((1, 1))))
def linear_return_as_printed(prob):
    check_linear_return(prob, reward=lambda Phi_live, w: np.full(Phi_live.shape[0], w @ w))


def check_linear_return_monte_carlo(mdp: TabularMDP, pi: np.ndarray, Phi: np.ndarray,
                                    w: np.ndarray, gamma: float, n: int, horizon: int,
                                    rng: np.random.Generator,
                                    estimator=empirical_feature_expectations) -> None:
    """Demonstrations of ``pi`` in the MDP with reward wᵀφ: (i) per trajectory the
    discounted sum of the simulator's rewards equals wᵀΣ_t γ^t φ(x_t); (ii) the
    Monte-Carlo feature expectations (Alg.13 lines 2/5) and the mean return agree with
    the exact x̄^π and wᵀx̄^π within the truncation bias γ^H max|φ_j|/(1−γ) plus a
    Hoeffding half-width at confidence 1 − 10⁻⁶ split over the d + 1 quantities."""
    S, A = mdp.n_states, mdp.n_actions
    Phi_live = live(mdp, Phi)
    R = Phi_live @ w
    trajs = expert_trajectories(mdp.with_reward(np.broadcast_to(R, (A, S))), pi, n, horizon,
                                rng)
    returns = np.array([float(np.sum(gamma ** np.arange(t.rewards.size) * t.rewards))
                        for t in trajs])
    steps = [t.actions.size if t.done_at is None else t.done_at for t in trajs]
    sums = np.array([(gamma ** np.arange(n)) @ Phi_live[t.states[:n]]
                     for t, n in zip(trajs, steps, strict=True)])
    assert_close(returns, sums @ w, ROUNDING, scale=float(np.abs(returns).max(initial=1.0)),
                 label="per-trajectory |Σγ^t r_t − wᵀΣγ^t φ(x_t)|",
                 context="(14.27) inside the expectation: ")
    mu_exact = ref_feature_expectations(mdp, pi, Phi, gamma)
    mu_mc = estimator(trajs, Phi, gamma)
    quantities = [(mu_mc[j], mu_exact[j], Phi_live[:, j]) for j in range(Phi.shape[1])]
    quantities.append((returns.mean(), float(mu_exact @ w), R))
    check_monte_carlo_rule(quantities, n, gamma, horizon)


def check_monte_carlo_rule(quantities, n: int, gamma: float, horizon: int,
                           n_decisions: int = 1) -> None:
    """The decision rule of every Monte-Carlo comparison here: each (estimate, exact,
    per-state values) triple — the estimate a mean over ``n`` trajectories of
    ``Σ_{t<H} γ^t value(x_t)`` — must lie within the truncation bias
    ``γ^H max|value|/(1−γ)`` plus the Hoeffding half-width for sums in
    ``[min(0, min value), max(0, max value)]/(1−γ)``, at confidence 1 − 10⁻⁶ split
    (Bonferroni) over all ``len(quantities) * n_decisions`` comparisons of the claim."""
    confidence = 1.0 - (1.0 - MC_CONFIDENCE) / (len(quantities) * n_decisions)
    worst = 0.0
    for j, (est, exact, values) in enumerate(quantities):
        lo = min(0.0, float(values.min())) / (1.0 - gamma)
        hi = max(0.0, float(values.max())) / (1.0 - gamma)
        bias = gamma ** horizon * float(np.abs(values).max()) / (1.0 - gamma)
        if hi > lo:
            half = 0.5 * np.subtract(*hoeffding_interval(0.0, n, lo, hi, confidence)[::-1])
        else:
            half = 0.0
        allowed = bias + half + 1e-12
        worst = max(worst, abs(est - exact) / allowed)
        assert abs(est - exact) <= allowed, (
            f"Monte-Carlo quantity {j}: estimate {est:.6g} vs exact {exact:.6g}, off by "
            f"{abs(est - exact):.3g} > bias {bias:.3g} + Hoeffding {half:.3g}")
    evidence.worst("Monte-Carlo error / (bias + Hoeffding half-width)", worst)


def _mc_scenarios(rng: np.random.Generator, scale: int):
    """Two seeded MDPs (one with terminal states), features in [0, 1], a random policy."""
    for S, A, n_terminal in ((5, 3, 0), (6, 2, 2)):
        mdp = random_mdp(S, A, n_terminal=n_terminal, random_state=int(rng.integers(2**31)))
        Phi = rng.uniform(0.0, 1.0, size=(S, 3))
        pi = rng.dirichlet(np.ones(A), size=S)
        w = rng.normal(size=3)
        yield mdp, pi, Phi, w / np.linalg.norm(w)


@claim(
    id="irl.linear_return_monte_carlo",
    source="003 §14.6.2 (14.27), Alg.13",
    statement="The Monte-Carlo estimate of x̄^π (discounted state-feature sums averaged "
    "over sampled trajectories, Alg.13 lines 2 and 5) agrees with the exact feature "
    "expectations, and the mean discounted return of the same trajectories with wᵀx̄^π, "
    "within the horizon truncation plus a Hoeffding half-width (confidence 1 − 10⁻⁶).",
    method=Method.SIMULATION,
    tags=TAGS,
)
def linear_return_monte_carlo(rng, scale):
    for mdp, pi, Phi, w in _mc_scenarios(rng, scale):
        check_linear_return_monte_carlo(mdp, pi, Phi, w, 0.5, 500 * scale, 25, rng)


# ---------------------------------------------------------------------------
# (14.28): the expert is at least as good as every policy under w*
# ---------------------------------------------------------------------------


# A patience test: from state 0, action 0 reaches the absorbing state 1 (φ = 5) at once,
# action 1 the absorbing state 3 (φ = 6) one step later through state 2 (φ = 0). With
# w* = 1 the later, larger reward wins at γ = 0.9 (48.6 against 45) but not at γ = 0.81.
PATIENCE_P = np.zeros((2, 4, 4))
PATIENCE_P[0, 0, 1] = PATIENCE_P[1, 0, 2] = 1.0
PATIENCE_P[:, 1, 1] = PATIENCE_P[:, 2, 3] = PATIENCE_P[:, 3, 3] = 1.0
PATIENCE = TabularMDP(PATIENCE_P, np.zeros((2, 4)), initial=0)
PATIENCE_PHI = np.array([[0.0], [5.0], [0.0], [6.0]])


def check_expert_optimality(prob: IRLProblem, fe=feature_expectations) -> None:
    """Expert = an optimal deterministic policy for R = w*ᵀφ (by enumeration); then
    w*ᵀx̄* − w*ᵀx̄^π ≥ 0 for every deterministic policy π and for the drawn stochastic one,
    every x̄ from :func:`feature_expectations` (``fe``)."""
    mdp, Phi, w, gamma = prob.mdp, prob.features, prob.w, prob.gamma
    S, A = mdp.n_states, mdp.n_actions
    expert, _ = ref_optimal_policy(mdp, live(mdp, Phi) @ w, gamma)
    mu_star = fe(mdp, expert, Phi, gamma)
    others = [one_hot_policy(p, A) for p in deterministic_policies(S, A)] + [prob.policy]
    gaps = np.array([float(w @ (mu_star - fe(mdp, pi, Phi, gamma))) for pi in others])
    scale = max(1.0, float(np.abs(w).sum() * np.abs(Phi).max(initial=0.0)) / (1.0 - gamma))
    evidence.worst("−min_π w*ᵀ(x̄* − x̄^π) / scale", float(-gaps.min()) / scale)
    bad = np.flatnonzero(gaps < -LINEAR_ALGEBRA.atol * scale - 1e-9 * scale)
    assert bad.size == 0, (
        f"(14.28) fails: expert {expert.tolist()} (optimal for w*) has w*ᵀx̄* − w*ᵀx̄^π = "
        f"{gaps[bad[0]]:.6g} < 0 against policy {others[bad[0]].tolist()}")


@claim(
    id="irl.expert_optimality_14_28",
    source="003 §14.6.2 (14.28)",
    statement="If the expert's policy is optimal for the reward R(x) = w*ᵀφ(x), then "
    "w*ᵀx̄* − w*ᵀx̄^π ≥ 0 for every policy π (x̄* the expert's exact feature expectations): "
    "checked against every deterministic policy of small MDPs and a stochastic one.",
    method=Method.ENUMERATION,
    tags=TAGS,
)
@given(prob=irl_problems(max_states=3, max_actions=3))
@example(prob=IRLProblem(PATIENCE, PATIENCE_PHI, np.ones(1), 0.9, np.full((4, 2), 0.5)))
def expert_optimality_14_28(prob):
    check_expert_optimality(prob)


# A two-state chain where one demonstration is very noisy: state 0 starts; action 0 moves
# to a uniform next state, action 1 to state 1 with probability 0.4 only; φ = 1[x = 1].
NOISY_P = np.array([[[0.5, 0.5], [0.5, 0.5]], [[0.6, 0.4], [0.6, 0.4]]])
NOISY = TabularMDP(NOISY_P, np.zeros((2, 2)), initial=0)
NOISY_PHI = np.array([[0.0], [1.0]])


def check_expert_optimality_estimated(rng: np.random.Generator, n_demos: int,
                                      n_repeats: int, horizon: int = 40) -> None:
    """(14.28) with x̄* the Monte-Carlo estimate from ``n_demos`` demonstrations of the
    optimal expert (action 0), against the other policy (action 1), ``n_repeats`` times."""
    gamma, w = 0.5, np.ones(1)
    expert, other = np.zeros(2, dtype=np.intp), np.ones(2, dtype=np.intp)
    mu_other = ref_feature_expectations(NOISY, one_hot_policy(other, 2), NOISY_PHI, gamma)
    worst = np.inf
    for _ in range(n_repeats):
        demos = expert_trajectories(NOISY, expert, n_demos, horizon, rng)
        mu_hat = empirical_feature_expectations(demos, NOISY_PHI, gamma)
        gap = float(w @ (mu_hat - mu_other))
        worst = min(worst, gap)
        assert gap >= -1e-12, (
            f"(14.28) with x̄* estimated from {n_demos} demonstration(s): w*ᵀx̂* = "
            f"{float(w @ mu_hat):.4g} < w*ᵀx̄^π = {float(w @ mu_other):.4g} (states "
            f"{[d.states.tolist() for d in demos][:3]})")
    evidence.worst("−min gap", -worst)


@claim(
    id="irl.expert_optimality_estimated_as_written",
    source="003 §14.6.2 (14.28)",
    statement="With x̄* the Monte-Carlo average over the demonstration trajectories, for the "
    "optimal reward w* and any other policy's x̄^π, w*ᵀx̄* − w*ᵀx̄^π ≥ 0.",
    method=Method.SIMULATION,
    tags=TAGS,
    expect=Expect.REFUTED,
    kind=ErratumKind.MISSING_CONDITION,
    corrected_by="irl.expert_optimality_14_28",
    explanation="The notes define x̄* by Monte-Carlo from the demonstrations and then state "
    "(14.28) for it. An estimate can fall below its mean: two states, φ = 1[x = 1], the "
    "optimal expert reaches state 1 with probability 1/2 per step, another policy with 0.4 "
    "(x̄^π = 0.4 at γ = 1/2); one demonstration 0 → 0 → 0 → … gives x̂* ≤ 0.25 < 0.4. The "
    "inequality holds for the exact expectations (and for the estimate only up to its "
    "sampling error, which shrinks like 1/√m with m demonstrations).",
)
def expert_optimality_estimated_as_written(rng, scale):
    check_expert_optimality_estimated(rng, n_demos=1, n_repeats=40 * scale)


# ---------------------------------------------------------------------------
# (14.29): the max-margin SOCP against an independent dual
# ---------------------------------------------------------------------------


def check_maxmin(mu: np.ndarray, mus: np.ndarray, solve=max_margin_weights,
                 mixture=mixture_closest) -> None:
    """Our SOCP's (w, margin) against the distance from x̄* to the hull of the x̄^{π_i}
    (face enumeration; equal to the max-min value by minimax duality): ‖w‖ ≤ 1, w attains
    the margin (min_i wᵀ(x̄* − x̄^{π_i}) ≥ margin), margin = distance (so w is optimal);
    the closest mixture's weights lie on the simplex and reach the same distance."""
    w, margin = solve(mu, mus)
    D = mu[None, :] - mus
    dist, _ = hull_distance(mu, mus)
    scale = max(1.0, float(np.abs(D).max()))
    norm = float(np.linalg.norm(w))
    assert norm <= 1.0 + 1e-7, f"(14.29): ‖w‖ = {norm:.9g} exceeds 1"
    attained = float(np.min(D @ w))
    assert attained >= margin - REFERENCE_SOLVER.atol * scale, (
        f"(14.29): w does not attain its margin: min_i wᵀ(x̄* − x̄^π_i) = {attained:.6g} < "
        f"margin {margin:.6g}")
    assert_close(margin, dist, REFERENCE_SOLVER, scale=scale,
                 label="|margin − distance to hull| / scale",
                 context="(14.29) margin vs the dual (distance to the hull): ")
    lam, mu_mix = mixture(mu, mus)
    assert np.all(lam >= -1e-9) and abs(lam.sum() - 1.0) < 1e-9, f"mixture weights {lam}"
    assert_close(mu_mix, lam @ mus, LINEAR_ALGEBRA, scale=scale, context="mixture x̄: ")
    assert_close(float(np.linalg.norm(mu - mu_mix)), dist, REFERENCE_SOLVER, scale=scale,
                 label="|mixture distance − hull distance| / scale",
                 context="closest mixture vs the face enumeration: ")


@claim(
    id="irl.maxmin_14_29",
    source="003 §14.6.2 (14.29), Alg.13 line 6",
    statement="w* = argmax_{‖w‖≤1} min_i wᵀ(x̄* − x̄^{π_i}) over a finite set of policies is "
    "a convex (second-order cone) problem: the cvxpy solution is feasible, attains its "
    "margin, and its value equals the distance from x̄* to the convex hull of the x̄^{π_i} "
    "(its minimax dual), computed independently by enumerating the hull's faces.",
    method=Method.REFERENCE,
    tags=(*TAGS, "cvxpy", "slow"),
)
@given(problem=margin_problems())
@example(problem=(np.array([0.0, 0.0]), np.array([[1.0, 0.0], [-1.0, 1.0], [-1.0, -1.0]])))
@example(problem=(np.array([2.0, 1.0]), np.array([[0.0, 0.0], [1.0, -1.0], [-1.0, 3.0]])))
def maxmin_14_29(problem):
    check_maxmin(*problem)


# ---------------------------------------------------------------------------
# Alg.13 (iterated)
# ---------------------------------------------------------------------------


def check_alg13_run(mu_star: np.ndarray, mus: np.ndarray, weights: np.ndarray,
                    margins: np.ndarray, tol: float) -> None:
    """A recorded run of Alg.13: each round's margin is min over the policies found so far
    of wᵀ(x̄* − x̄^{π_i}) for that round's w (recomputed here), the margins never increase,
    and the last one is below ``tol``."""
    scale = max(1.0, float(np.abs(mu_star).max()))
    for t in range(len(margins)):
        own = float(np.min((mu_star[None, :] - mus[: t + 1]) @ weights[t]))
        assert np.linalg.norm(weights[t]) <= 1.0 + 1e-7, f"round {t}: ‖w‖ > 1"
        assert_close(margins[t], own, REFERENCE_SOLVER, scale=scale,
                     label="|recorded margin − min over found policies| / scale",
                     context=f"Alg.13 round {t}: the margin is not the min over the "
                     f"policies found so far: ")
    increase = float(np.max(np.diff(margins), initial=0.0))
    assert increase <= REFERENCE_SOLVER.atol * scale, (
        f"Alg.13: the margin increased by {increase:.3g} (more policies can only lower it)")
    assert margins[-1] < tol, f"Alg.13: last margin {margins[-1]:.6g} is not below tol {tol:g}"


def fit_inverse_rl(mdp, Phi, gamma, mu_star, tol, seed, max_iter=None) -> InverseRL:
    """Alg.13 with at most A^S + 2 rounds (every round past the first finds a new
    deterministic policy, so it must converge by then)."""
    cap = max_iter or min(mdp.n_actions ** mdp.n_states + 2, 200)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)  # converged_ is asserted
        irl = InverseRL(Phi, gamma=gamma, max_iter=cap, tol=tol,
                        random_state=seed).fit(mdp, mu_star)
    assert irl.converged_, (f"Alg.13 did not converge in {cap} rounds (last margin "
                            f"{irl.margins_[-1]:.3g}, tol {tol:.3g})")
    return irl


def check_alg13(mdp: TabularMDP, Phi: np.ndarray, gamma: float, expert: np.ndarray,
                seed: int, fit=fit_inverse_rl) -> InverseRL:
    """Alg.13 with exact feature expectations, stopped when the margin < tol: converged;
    the recorded x̄^{π_i} are those of the recorded policies; each new policy is optimal
    for the previous round's reward (its value admits no greedy improvement); the run
    satisfies :func:`check_alg13_run`; the closest mixture is within tol of x̄*."""
    A = mdp.n_actions
    mu_star = ref_feature_expectations(mdp, expert, Phi, gamma)
    scale = max(1.0, float(np.abs(mu_star).max()))
    tol = ALG13_TOL * scale
    irl = fit(mdp, Phi, gamma, mu_star, tol, seed)
    assert irl.converged_, "Alg.13 did not converge"
    for i, pi in enumerate(irl.policies_):
        assert_close(irl.mus_[i], ref_feature_expectations(mdp, one_hot_policy(pi, A), Phi,
                                                           gamma),
                     LINEAR_ALGEBRA, scale=scale, context=f"x̄ of policy {i}: ")
    Phi_live = live(mdp, Phi)
    for t in range(1, len(irl.policies_)):
        R = Phi_live @ irl.weights_[t - 1]
        r_sa = np.repeat(R[:, None], A, axis=1)
        V = ref_values(mdp, one_hot_policy(irl.policies_[t], A), r_sa, gamma)
        Q = r_sa + gamma * np.einsum("ast,t->sa", mdp.P, V)
        gain = float(np.max(Q.max(axis=1) - V))
        assert gain <= 1e-8 * max(1.0, float(np.abs(V).max())), (
            f"Alg.13 line 7: policy {t} is not optimal for round {t - 1}'s reward (a greedy "
            f"step gains {gain:.3g})")
    check_alg13_run(mu_star, irl.mus_, irl.weights_, irl.margins_, tol)
    # the output pair of Alg.13: the last policy, optimal for the reward it was solved for
    assert np.array_equal(irl.policy_, irl.policies_[-1]), "policy_ is not the last policy"
    if irl.n_iter_ > 1:
        assert_close(irl.reward_weights_, irl.weights_[-2], EXACT_ARITHMETIC,
                     context="reward_weights_ is not the reward of the last forward solve: ")
    lam = irl.mixture_weights_
    assert np.all(lam >= -1e-9) and abs(lam.sum() - 1.0) < 1e-9
    assert_close(irl.mixture_mu_, lam @ irl.mus_, LINEAR_ALGEBRA, scale=scale,
                 context="mixture x̄: ")
    gap = float(np.linalg.norm(irl.mixture_mu_ - mu_star))
    evidence.worst("‖mixture x̄ − x̄*‖ / scale", gap / scale)
    assert gap <= tol + REFERENCE_SOLVER.atol * scale, (
        f"Alg.13: the closest mixture is {gap:.3g} from x̄* (tol {tol:.3g})")
    evidence.series("margin", np.arange(1, irl.n_iter_ + 1), irl.margins_ / scale,
                    kind="line", plot="Alg.13: margin of (14.29) per round",
                    xlabel="round t", ylabel="margin / max|x̄*|")
    return irl


@claim(
    id="irl.alg13_matches_expert",
    source="003 §14.6.2 (14.29), Alg.13",
    statement="Iterating Alg.13 (exact feature expectations; (14.29) over the policies found "
    "so far; the forward MDP solved with R = wᵀφ) drives the margin below any tol > 0 in "
    "finitely many rounds, and then a mixture of the policies found has feature "
    "expectations within tol of x̄* — for an expert optimal for some w* and for an "
    "arbitrary stochastic expert alike.",
    method=Method.SIMULATION,
    tags=(*TAGS, "cvxpy"),
)
def alg13_matches_expert(rng, scale):
    rounds = []
    for S, A in ((4, 2), (3, 3), (5, 2))[: 2 + min(scale, 1)]:
        mdp = random_mdp(S, A, random_state=int(rng.integers(2**31)))
        Phi = rng.uniform(-1.0, 1.0, size=(S, 3))
        w_star = rng.normal(size=3)
        optimal, _ = ref_optimal_policy(mdp, Phi @ w_star, 0.9)
        stochastic = rng.dirichlet(np.ones(A), size=S)
        for expert in (one_hot_policy(optimal, A), stochastic):
            irl = check_alg13(mdp, Phi, 0.9, expert, int(rng.integers(2**31)))
            rounds.append(irl.n_iter_)
    evidence.record("rounds to converge", rounds)


@claim(
    id="irl.alg13_monte_carlo",
    source="003 §14.6.2 Alg.13 lines 2 and 5",
    statement="Alg.13 with sampled feature expectations, as printed (x̄* from the "
    "demonstrations, x̄^π from rollouts of each policy): every recorded estimate agrees "
    "with the exact feature expectations of its policy within the horizon truncation plus "
    "a Hoeffding half-width (confidence 1 − 10⁻⁶ over all comparisons), and each policy "
    "after the first is optimal for the previous round's reward.",
    method=Method.SIMULATION,
    tags=(*TAGS, "cvxpy"),
)
def alg13_monte_carlo(rng, scale):
    gamma, horizon, n = 0.5, 25, 200 * scale
    mdp = random_mdp(4, 2, n_terminal=1, random_state=int(rng.integers(2**31)))
    Phi = rng.uniform(0.0, 1.0, size=(4, 2))
    expert = rng.dirichlet(np.ones(2), size=4)
    demos = expert_trajectories(mdp, expert, n, horizon, rng)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)  # sampled x̄ may never match
        irl = InverseRL(Phi, gamma=gamma, max_iter=4, tol=1e-3, n_rollouts=n, horizon=horizon,
                        random_state=int(rng.integers(2**31))).fit(mdp, demos)
    Phi_live = live(mdp, Phi)
    exact = [ref_feature_expectations(mdp, expert, Phi, gamma)] + [
        ref_feature_expectations(mdp, one_hot_policy(p, 2), Phi, gamma) for p in irl.policies_]
    estimates = [irl.expert_mu_, *irl.mus_]
    for est, ex in zip(estimates, exact, strict=True):
        check_monte_carlo_rule([(est[j], ex[j], Phi_live[:, j]) for j in range(2)], n, gamma,
                               horizon, n_decisions=len(estimates))
    for t in range(1, irl.n_iter_):
        R = Phi_live @ irl.weights_[t - 1]
        r_sa = np.repeat(R[:, None], 2, axis=1)
        V = ref_values(mdp, one_hot_policy(irl.policies_[t], 2), r_sa, gamma)
        Q = r_sa + gamma * np.einsum("ast,t->sa", mdp.P, V)
        assert float(np.max(Q.max(axis=1) - V)) <= 1e-8 * max(1.0, float(np.abs(V).max())), (
            f"Alg.13 line 7: policy {t} is not optimal for round {t - 1}'s reward")
    evidence.record("rounds", irl.n_iter_)


# The two-branch MDP: from state 0 action a leads to the absorbing state a + 1 whose
# feature is the unit vector e_a; the expert tosses a fair coin in state 0.
BRANCH_P = np.zeros((2, 3, 3))
BRANCH_P[0, 0, 1] = BRANCH_P[1, 0, 2] = 1.0
BRANCH_P[:, 1, 1] = BRANCH_P[:, 2, 2] = 1.0
BRANCH = TabularMDP(BRANCH_P, np.zeros((2, 3)), initial=0)
BRANCH_PHI = np.array([[0.0, 0.0], [1.0, 0.0], [0.0, 1.0]])
BRANCH_EXPERT = np.array([[0.5, 0.5], [1.0, 0.0], [1.0, 0.0]])
BRANCH_GAMMA = 0.5


def alg13_as_printed(mdp, Phi, gamma, mu_star, n_rounds, rng) -> dict:
    """Alg.13 run literally: line 6 solves max_{‖w‖≤1} min wᵀ(x̄* − x̄^π) with x̄^π the
    current policy's (the printed min has no index i), line 7 an optimal policy for
    R = wᵀφ (by enumeration), for n rounds."""
    S, A = mdp.n_states, mdp.n_actions
    pi = rng.integers(0, A, size=S)
    mus, weights, margins = [], [], []
    for _ in range(n_rounds):
        mus.append(ref_feature_expectations(mdp, one_hot_policy(pi, A), Phi, gamma))
        w, margin = max_margin_weights(mu_star, mus[-1][None, :])
        weights.append(w)
        margins.append(margin)
        pi, _ = ref_optimal_policy(mdp, live(mdp, Phi) @ w, gamma)
    return {"mus": np.array(mus), "weights": np.array(weights), "margins": np.array(margins)}


@claim(
    id="irl.alg13_line6_as_printed",
    source="003 §14.6.2 Alg.13 line 6",
    statement="Alg.13 line 6 as printed, max_{‖w‖≤1} min_{i=1}^{T} wᵀ(x̄* − x̄^π), solves "
    "(14.29) over the policies found so far: the margin it records is the min of "
    "wᵀ(x̄* − x̄^{π_i}) over them, so it never increases as policies are added and the loop "
    "can stop once it is below tol.",
    method=Method.SIMULATION,
    tags=(*TAGS, "cvxpy"),
    expect=Expect.REFUTED,
    kind=ErratumKind.SYMBOL,
    corrected_by="irl.alg13_min_over_found_policies",
    explanation="x̄^π in line 6 has lost its index i (and T, undefined, stands for the "
    "round t: a shorthand): run literally the min is over the current policy only, so w "
    "points from the latest x̄^π to x̄* and nothing remembers earlier policies. On the "
    "two-branch MDP (one choice between absorbing states with features e_1, e_2, expert "
    "tossing a coin, γ = 1/2) w alternates between (−1, 1)/√2 and (1, −1)/√2, the policy "
    "between the two branches, and the margin stays at √2/2 in every round; the recorded "
    "margin is not the min over the policies found (which is −√2/2).",
)
def alg13_line6_as_printed(rng, scale):
    mu_star = ref_feature_expectations(BRANCH, BRANCH_EXPERT, BRANCH_PHI, BRANCH_GAMMA)
    run = alg13_as_printed(BRANCH, BRANCH_PHI, BRANCH_GAMMA, mu_star, 6, rng)
    check_alg13_run(mu_star, run["mus"], run["weights"], run["margins"], ALG13_TOL)


@claim(
    id="irl.alg13_min_over_found_policies",
    source="003 §14.6.2 Alg.13 line 6",
    statement="With line 6 read as the min over the policies found so far (i = 1..t, "
    "x̄^{π_i}), the recorded margins are the min over those policies, never increase, "
    "and fall below tol — on the two-branch MDP after two rounds.",
    method=Method.SIMULATION,
    tags=(*TAGS, "cvxpy"),
)
def alg13_min_over_found_policies(rng, scale):
    mu_star = ref_feature_expectations(BRANCH, BRANCH_EXPERT, BRANCH_PHI, BRANCH_GAMMA)
    for _ in range(2 * scale):
        irl = fit_inverse_rl(BRANCH, BRANCH_PHI, BRANCH_GAMMA, mu_star, ALG13_TOL,
                             int(rng.integers(2**31)))
        check_alg13_run(mu_star, irl.mus_, irl.weights_, irl.margins_, ALG13_TOL)
        assert irl.n_iter_ <= 2, f"two-branch MDP: {irl.n_iter_} rounds"


def check_mixture_beats_last_policy(irl: InverseRL, mu_star: np.ndarray, half_gap: float
                                    ) -> None:
    last = float(np.linalg.norm(irl.mus_[-1] - mu_star))
    mixed = float(np.linalg.norm(irl.mixture_mu_ - mu_star))
    assert_close(last, half_gap, LINEAR_ALGEBRA,
                 context="the last policy's distance to x̄* is not half the gap: ")
    assert mixed <= ALG13_TOL, f"the closest mixture is {mixed:.3g} from x̄*"
    assert_close(irl.mixture_weights_, np.array([0.5, 0.5]), REFERENCE_SOLVER,
                 context="mixture weights: ")
    evidence.record("distance of the last policy to x̄*", last)
    evidence.record("distance of the closest mixture to x̄*", mixed)


@claim(
    id="irl.mixture_matches_expert",
    source="003 §14.6.2 Alg.13",
    statement="The policy Alg.13 outputs need not reproduce the expert's feature "
    "expectations: when the expert mixes two optimal deterministic policies, the last "
    "policy found stays at half the gap ‖x̄^{π_1} − x̄^{π_2}‖/2 from x̄*, while the mixture "
    "(1/2, 1/2) of the policies found reaches x̄* (within tol).",
    method=Method.SIMULATION,
    tags=(*TAGS, "cvxpy"),
)
def mixture_matches_expert(rng, scale):
    mu_star = ref_feature_expectations(BRANCH, BRANCH_EXPERT, BRANCH_PHI, BRANCH_GAMMA)
    mu1 = ref_feature_expectations(BRANCH, one_hot_policy(np.array([0, 0, 0]), 2),
                                   BRANCH_PHI, BRANCH_GAMMA)
    mu2 = ref_feature_expectations(BRANCH, one_hot_policy(np.array([1, 0, 0]), 2),
                                   BRANCH_PHI, BRANCH_GAMMA)
    irl = fit_inverse_rl(BRANCH, BRANCH_PHI, BRANCH_GAMMA, mu_star, ALG13_TOL,
                         int(rng.integers(2**31)))
    check_mixture_beats_last_policy(irl, mu_star, 0.5 * float(np.linalg.norm(mu1 - mu2)))


# ---------------------------------------------------------------------------
# §14.6.1: behaviour cloning
# ---------------------------------------------------------------------------


def check_behaviour_cloning(prob: IRLProblem, one_hot: bool, cloner=BehaviourCloning
                            ) -> None:
    """Expert = an optimal deterministic policy for R = wᵀφ (enumeration). Cloning its
    full state–action table (every state twice) from one-hot or from the drawn (distinct)
    features reproduces the expert's action in every state, so the cloned policy has the
    expert's value, and a greedy improvement step (further RL from it) changes nothing."""
    mdp, Phi, w, gamma = prob.mdp, prob.features, prob.w, prob.gamma
    S, A = mdp.n_states, mdp.n_actions
    R = live(mdp, Phi) @ w
    expert, V_expert = ref_optimal_policy(mdp, R, gamma)
    X = np.eye(S) if one_hot else Phi
    if not one_hot and np.unique(X, axis=0).shape[0] < S:
        X = np.hstack([X, np.eye(S)])  # states must be distinguishable by their features
    model = cloner().fit(np.vstack([X, X]), np.concatenate([expert, expert]))
    pi = model.policy_matrix(X, A)
    assert pi.shape == (S, A)
    cloned = np.argmax(pi, axis=1)
    assert np.array_equal(cloned, expert) and np.allclose(pi.max(axis=1), 1.0), (
        f"behaviour cloning: cloned policy {pi.tolist()} differs from the expert "
        f"{expert.tolist()}")
    r_sa = np.repeat(R[:, None], A, axis=1)
    V = ref_values(mdp, pi, r_sa, gamma)
    vscale = max(1.0, float(np.abs(V_expert).max()))
    assert_close(V, V_expert, LINEAR_ALGEBRA, scale=vscale, context="cloned value: ")
    Q = r_sa + gamma * np.einsum("ast,t->sa", mdp.P, V)
    gain = float(np.max(Q.max(axis=1) - V))
    assert gain <= 1e-9 * vscale, f"a greedy step from the cloned policy gains {gain:.3g}"


@claim(
    id="irl.behaviour_cloning_recovers_expert",
    source="003 §14.6.1",
    statement="Direct imitation: treating the expert's (state, action) pairs as "
    "supervised data, a classifier trained on an optimal expert's full state–action table "
    "returns the expert's action in every state; the cloned policy has the expert's value "
    "and, used as the initial policy of further RL, is already optimal (a policy-"
    "improvement step leaves it unchanged).",
    method=Method.PROPERTY,
    tags=(*TAGS, "slow"),  # the default base (our decision tree) takes ~35 ms a fit
)
@given(prob=irl_problems(max_states=4, max_actions=3))
def behaviour_cloning_recovers_expert(prob):
    check_behaviour_cloning(prob, one_hot=True)
    check_behaviour_cloning(prob, one_hot=False)


__all__ = [
    "check_alg13",
    "check_alg13_run",
    "check_behaviour_cloning",
    "check_expert_optimality",
    "check_expert_optimality_estimated",
    "check_linear_return",
    "check_linear_return_monte_carlo",
    "check_maxmin",
    "check_mixture_beats_last_policy",
    "hull_distance",
    "ref_feature_expectations",
    "ref_optimal_policy",
    "ref_values",
]
