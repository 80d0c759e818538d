"""Independent references and check bodies of the planning claims (003 §14.3).

References read the raw arrays ``P[a, x, x']``, ``R[a, x, x']`` of a :class:`Model` and
share no code with ``algorithms/reinforcement/_planning.py``:

* :func:`enumerate_t_step` — the T-step values (14.3)/(14.4) as a weighted sum over every
  T-step trajectory (no recursion in the horizon);
* :func:`solve_gamma` / :func:`solve_gamma_q` — ``V_γ^π`` and ``Q_γ^π`` from linear systems
  in states and in state-action pairs;
* :func:`best_plans_t_step` — ``V_T*`` as the maximum over every non-stationary
  deterministic plan (one stationary policy per time step), each evaluated by products
  of its transition matrices;
* :func:`all_deterministic_values` — ``V_γ^π`` of all ``|A|^|X|`` deterministic policies;
* :func:`rollouts` — Monte-Carlo returns of a policy, vectorised over episodes;
* :func:`printed_alg7` and :func:`printed_alg6` — 003 Algs. 7 and 6 run literally.

Check bodies call the library through names of this module (``policy_evaluation``,
``value_iteration``, ...) so that the teeth tests can swap in broken variants.
"""

from __future__ import annotations

import itertools

import numpy as np

from algorithms.reinforcement import (  # noqa: F401 (names swapped by the teeth tests)
    as_policy_matrix,
    optimal_values_lp,
    policy_evaluation,
    policy_improvement,
    policy_iteration,
    q_from_v,
    value_iteration,
)
from mltheory import evidence
from mltheory.numeric import EXACT_ARITHMETIC, LINEAR_ALGEBRA, Tolerance, assert_close, assert_leq

#: The equal sides of a Bellman identity, each a short sum of products of floats.
BELLMAN = Tolerance(rtol=1e-10, atol=1e-10, reason="sums of at most a few thousand products "
                    "of floats of size <= 3^T; rounding ~1e-14 relative")


# ---------------------------------------------------------------------------------------
# References
# ---------------------------------------------------------------------------------------


def _trajectories(S: int, A: int, T: int) -> np.ndarray:
    """Every (a_0, x_1, a_1, x_2, ..., a_{T-1}, x_T) as rows of a (N, 2T) int array."""
    return np.array(list(itertools.product(range(A), range(S), repeat=T)),
                    dtype=np.intp).reshape(-1, 2 * T)


def enumerate_t_step(P, R, pi, T: int, first_action: int | None = None) -> np.ndarray:
    """``V_T^π(x) = E_π[(1/T) Σ_{t=1}^T r_t | x_0 = x]`` by summing over every trajectory
    (003 §14.3.1 (14.3)); with ``first_action = a`` the first action is ``a`` and π acts
    afterwards ((14.4), ``Q_T^π(x, a)``). ``T = 0`` gives 0."""
    A, S, _ = P.shape
    if T == 0:
        return np.zeros(S)
    seqs = _trajectories(S, A, T)
    acts, nxt = seqs[:, 0::2], seqs[:, 1::2]
    V = np.zeros(S)
    for x0 in range(S):
        prev = np.concatenate([np.full((seqs.shape[0], 1), x0), nxt[:, :-1]], axis=1)
        choice = pi[prev, acts]
        if first_action is not None:
            choice[:, 0] = (acts[:, 0] == first_action).astype(float)
        prob = np.prod(choice * P[acts, prev, nxt], axis=1)
        ret = R[acts, prev, nxt].mean(axis=1)
        V[x0] = float(np.sum(prob * ret))
    return V


def enumerate_t_step_q(P, R, pi, T: int) -> np.ndarray:
    """``Q_T^π`` (S, A) by trajectory enumeration."""
    return np.stack([enumerate_t_step(P, R, pi, T, first_action=a)
                     for a in range(P.shape[0])], axis=1)


def chain(P, R, pi) -> tuple[np.ndarray, np.ndarray]:
    """``P_π[x, x'] = Σ_a π(x,a) P[a,x,x']``, ``r_π(x) = Σ_a π(x,a) Σ_x' P R``."""
    return np.einsum("xa,axy->xy", pi, P), np.einsum("xa,axy,axy->x", pi, P, R)


def solve_gamma(P, R, pi, gamma: float) -> np.ndarray:
    """``V_γ^π`` from ``(I - γ P_π) V = r_π`` (numpy's LU, not scipy's)."""
    P_pi, r_pi = chain(P, R, pi)
    return np.linalg.solve(np.eye(P.shape[1]) - gamma * P_pi, r_pi)


def solve_gamma_q(P, R, pi, gamma: float) -> np.ndarray:
    """``Q_γ^π`` (S, A) from the state-action system ``Q = r + γ P Π Q`` (no V involved):
    ``Q(x,a) = Σ_x' P (R + γ Σ_a' π(x',a') Q(x',a'))``."""
    A, S, _ = P.shape
    r = np.einsum("axy,axy->xa", P, R).reshape(S * A)
    # M[(x,a), (x',a')] = P[a,x,x'] π(x',a')
    M = np.einsum("axy,yb->xayb", P, pi).reshape(S * A, S * A)
    return np.linalg.solve(np.eye(S * A) - gamma * M, r).reshape(S, A)


def all_deterministic_policies(S: int, A: int) -> np.ndarray:
    return np.array(list(itertools.product(range(A), repeat=S)), dtype=np.intp).reshape(-1, S)


def one_hot(actions, A: int) -> np.ndarray:
    pi = np.zeros((len(actions), A))
    pi[np.arange(len(actions)), actions] = 1.0
    return pi


def all_deterministic_values(P, R, gamma: float) -> tuple[np.ndarray, np.ndarray]:
    """(policies (N, S), values (N, S)) of every deterministic policy, by linear solves."""
    A, S, _ = P.shape
    pols = all_deterministic_policies(S, A)
    return pols, np.array([solve_gamma(P, R, one_hot(p, A), gamma) for p in pols])


def plan_value(P, R, plan) -> np.ndarray:
    """T-step average value of a non-stationary deterministic plan: ``plan[i]`` is the
    policy at time step i: ``(1/T) Σ_i P_{π_0} ... P_{π_{i-1}} r_{π_i}``."""
    A, S, _ = P.shape
    T = len(plan)
    reach = np.eye(S)
    total = np.zeros(S)
    for step in plan:
        P_i, r_i = chain(P, R, one_hot(step, A))
        total += reach @ r_i
        reach = reach @ P_i
    return total / T


def best_plans_t_step(P, R, T: int) -> np.ndarray:
    """``V_T*(x)``: the largest T-step value at x over every non-stationary deterministic
    plan ((|A|^|X|)^T of them, each the sum of its reward vectors pushed through the
    products of its transition matrices) — the optimum (14.10) defines, found without
    backward induction."""
    A, S, _ = P.shape
    if T == 0:
        return np.zeros(S)
    pols = all_deterministic_policies(S, A)
    chains = [chain(P, R, one_hot(p, A)) for p in pols]
    P_pol = np.array([c[0] for c in chains])  # (N, S, S)
    r_pol = np.array([c[1] for c in chains])  # (N, S)
    reach = np.eye(S)[None]  # one row per plan prefix
    total = np.zeros((1, S))
    for _ in range(T):
        total = (total[:, None, :] + np.einsum("ksy,ny->kns", reach, r_pol)).reshape(-1, S)
        reach = np.einsum("ksy,nyz->knsz", reach, P_pol).reshape(-1, S, S)
    return total.max(axis=0) / T


def best_stationary_t_step(P, R, T: int) -> np.ndarray:
    """The largest T-step value at each x over the *stationary* deterministic policies."""
    A, S, _ = P.shape
    pols = all_deterministic_policies(S, A)
    return np.max([plan_value(P, R, [p] * T) for p in pols], axis=0)


def rollouts(P, R, pi, x0, steps: int, rng, first_action=None) -> np.ndarray:
    """Reward sequences (n, steps) of n episodes, episode i from ``x0[i]`` under π (its
    first action forced to ``first_action[i]`` where that is >= 0), vectorised."""
    A, S, _ = P.shape
    cum_pi = np.cumsum(pi, axis=1)
    cum_P = np.cumsum(P, axis=2)
    x = np.asarray(x0, dtype=np.intp).copy()
    n = x.size
    out = np.empty((n, steps))
    for t in range(steps):
        a = np.minimum((rng.random(n)[:, None] >= cum_pi[x]).sum(axis=1), A - 1)
        if t == 0 and first_action is not None:
            forced = np.asarray(first_action)
            a = np.where(forced >= 0, forced, a)
        nxt = np.minimum((rng.random(n)[:, None] >= cum_P[a, x]).sum(axis=1), S - 1)
        out[:, t] = R[a, x, nxt]
        x = nxt
    return out


def printed_alg7(P, R, theta: float, max_t: int = 100_000) -> tuple[np.ndarray, int]:
    """003 Alg. 7 as printed: V = 0; for t = 1, 2, ...: V' = max_a Σ P (R/t + (t-1)/t V);
    stop when max|V - V'| < θ (returning V, the iterate before V'), else V = V'. T is an
    input of the algorithm but never read. Returns (V, t at the stop)."""
    A, S, _ = P.shape
    V = np.zeros(S)
    for t in range(1, max_t + 1):
        V_new = np.max(np.einsum("axy,axy->ax", P, R / t + (t - 1) / t * V[None, None, :]),
                       axis=0)
        if np.max(np.abs(V - V_new)) < theta:
            return V, t
        V = V_new
    raise AssertionError("printed Alg. 7 did not stop")


def printed_alg6(P, R, T: int, *, reset: bool, max_rounds: int = 50):
    """003 Alg. 6 run literally (T-step policy iteration), with Q of line 11 (undefined
    there) taken from (14.7) and the initial policy uniform (§14.3.3: "usually random").
    V is carried from round to round as printed (``reset=False``) or reset to 0 before
    every evaluation (``reset=True``). Returns the list of (policy, V) per round and whether
    the loop stopped (False: ``max_rounds`` rounds without π' = π)."""
    A, S, _ = P.shape
    pi = np.full((S, A), 1.0 / A)
    V = np.zeros(S)
    rounds = []
    for _ in range(max_rounds):
        if reset:
            V = np.zeros(S)
        V_prev = V
        for t in itertools.count(1):  # Alg. 5's loop, break at t = T + 1
            V_new = np.einsum("xa,axy,axy->x", pi, P, R / t + (t - 1) / t * V[None, None, :])
            if t == T + 1:
                break
            V_prev, V = V, V_new
        Q = np.einsum("axy,axy->xa", P, R / T + (T - 1) / T * V_prev[None, None, :])
        rounds.append((pi, V.copy()))
        current = pi.argmax(axis=1) if np.all(pi.max(axis=1) == 1.0) else None
        new = Q.argmax(axis=1)
        if current is not None:  # ties keep the current action
            tied = Q[np.arange(S), current] >= Q.max(axis=1) - 1e-12 * max(1, np.abs(Q).max())
            new = np.where(tied, current, new)
            if np.array_equal(new, current):
                return rounds, True
        pi = one_hot(new, A)
    return rounds, False


# ---------------------------------------------------------------------------------------
# Check bodies (parametrised for the teeth tests)
# ---------------------------------------------------------------------------------------


def check_t_step_evaluation(model, pi, T: int) -> None:
    """Alg. 5 (``policy_evaluation(horizon=T)``): exactly T sweeps from 0, the result equal
    to the trajectory enumeration of (14.3), ``V_prev`` to the one of T-1, and the iterates
    the loop recorded equal to V_0 = 0, V_1, ..., V_T of the enumeration."""
    ev = policy_evaluation(model.mdp, pi, horizon=T, record_history=True)
    assert ev.n_sweeps == T, f"{ev.n_sweeps} sweeps for T = {T}"
    assert len(ev.history) == T + 1 and not np.any(ev.history[0]), "history is not V_0=0..V_T"
    for t, V_t in enumerate(ev.history):
        assert_close(V_t, enumerate_t_step(model.P, model.R, pi, t), BELLMAN,
                     label="max |V_t (Alg. 5) - enumerated V_t^pi|", context=f"t={t}: ")
    assert_close(ev.V, enumerate_t_step(model.P, model.R, pi, T), BELLMAN,
                 label="max |V_T (Alg. 5) - enumerated V_T^pi|")
    assert_close(ev.V_prev, enumerate_t_step(model.P, model.R, pi, T - 1), BELLMAN,
                 label="max |V_prev - enumerated V_{T-1}^pi|")


def check_bellman_t(model, pi, T: int, value_weight=lambda T: (T - 1) / T) -> None:
    """(14.5): the enumerated V_T^π equals Σ_a π Σ_x' P (R/T + (T-1)/T V_{T-1}^π(x'))
    with the enumerated V_{T-1}^π."""
    P, R = model.P, model.R
    V_T = enumerate_t_step(P, R, pi, T)
    V_prev = enumerate_t_step(P, R, pi, T - 1)
    rhs = np.einsum("xa,axy,axy->x", pi, P, R / T + value_weight(T) * V_prev[None, None, :])
    assert_close(V_T, rhs, BELLMAN, label="max |V_T^pi - rhs of (14.5)|")


def check_bellman_gamma(model, pi, gamma: float, *, printed: bool = False) -> None:
    """(14.6) with R (``printed=False``) or with P in R's place as printed: the solved
    V_γ^π satisfies it; the library's exact and iterative evaluations agree with it."""
    P, R = model.P, model.R
    V = solve_gamma(P, R, pi, gamma)
    first = P if printed else R
    rhs = np.einsum("xa,axy,axy->x", pi, P, first + gamma * V[None, None, :])
    assert_close(V, rhs, BELLMAN, label="max |V_gamma^pi - rhs of (14.6)|",
                 context="(14.6) as printed: " if printed else "")
    if not printed:
        for method in ("exact", "iterative"):
            ev = policy_evaluation(model.mdp, pi, gamma=gamma, method=method, theta=1e-12)
            assert ev.converged
            assert_close(ev.V, V, LINEAR_ALGEBRA, label="max |policy_evaluation - solve|",
                         context=f"method={method}: ")


def check_contraction(model, pi, gamma: float, theta: float, bound_factor: float = 1.0,
                      modulus_factor: float = 1.0) -> None:
    """The γ sweeps: each residual at most γ times the previous one (a sup-norm
    contraction), and the final V within γθ/(1-γ) of V_γ^π (the θ rule's error bound).
    ``bound_factor``/``modulus_factor`` scale the bound's constants (teeth)."""
    ev = policy_evaluation(model.mdp, pi, gamma=gamma, theta=theta, record_history=True)
    assert ev.converged, "the sweeps did not meet the theta rule"
    V_true = solve_gamma(model.P, model.R, pi, gamma)
    hist = np.asarray(ev.history)
    deltas = np.max(np.abs(np.diff(hist, axis=0)), axis=1)
    assert_close(deltas, ev.residuals, EXACT_ARITHMETIC, label="recorded residuals")
    for k in range(1, deltas.size):
        if deltas[k - 1] > 1e-9:
            assert_leq(deltas[k], modulus_factor * gamma * deltas[k - 1] + 1e-12,
                       label="sweep residual / (gamma * previous residual)")
    err = float(np.max(np.abs(ev.V - V_true)))
    if gamma > 0:
        assert_leq(err, bound_factor * gamma * theta / (1 - gamma) + 1e-13,
                   label="|V - V^pi| / (gamma theta / (1 - gamma))")
    else:
        assert err <= 1e-13


def self_loop(reward: float = 1.0):
    """One state, one action, a self-loop paying ``reward``: V_k = r(1-γ^k)/(1-γ), the
    residual r γ^(k-1), the error r γ^k/(1-γ) — both bounds attained."""
    from properties.reinforcement.strategies_planning import make_model

    return make_model([[[1.0]]], [[[reward]]])


def check_q_from_v(model, pi, *, gamma=None, horizon=None, printed: bool = False) -> None:
    """(14.7): Q from V (``q_from_v`` and ``policy_evaluation(...).Q``) equals Q^π
    computed without V (trajectory enumeration with the first action fixed, or the
    state-action linear system); ``printed`` uses the γ line as printed,
    ``Σ_x' (P + γ V(x'))``."""
    P, R = model.P, model.R
    if horizon is not None:
        Q_ref = enumerate_t_step_q(P, R, pi, horizon)
        ev = policy_evaluation(model.mdp, pi, horizon=horizon)
        Q = q_from_v(model.mdp, ev.V, horizon=horizon, V_prev=ev.V_prev)
        assert_close(ev.Q, Q_ref, BELLMAN, label="max |evaluation Q - enumerated Q_T^pi|")
    else:
        Q_ref = solve_gamma_q(P, R, pi, gamma)
        V = solve_gamma(P, R, pi, gamma)
        if printed:
            Q = np.broadcast_to(np.einsum("axy->xa", P) + gamma * V.sum(), Q_ref.shape)
        else:
            Q = q_from_v(model.mdp, V, gamma=gamma)
            ev = policy_evaluation(model.mdp, pi, gamma=gamma, method="exact")
            assert_close(ev.Q, Q_ref, LINEAR_ALGEBRA, label="max |evaluation Q - Q^pi|")
    assert_close(Q, Q_ref, LINEAR_ALGEBRA, label="max |Q from (14.7) - Q^pi|",
                 context="(14.7) as printed: " if printed else "")
    # V = Σ_a π(x,a) Q(x,a)
    V = (enumerate_t_step(P, R, pi, horizon) if horizon is not None
         else solve_gamma(P, R, pi, gamma))
    assert_close(np.sum(pi * Q_ref, axis=1), V, LINEAR_ALGEBRA, label="|Σ_a π Q - V|")


def check_monte_carlo(model, pi, rng, n: int, *, gamma=None, horizon=None,
                      n_tests: int = 1, confidence_total: float = 1e-6) -> float:
    """(14.3)/(14.4): the mean of n rollout returns from each x (and each forced first
    action) lies in its Hoeffding interval around the DP value; Bonferroni over the
    ``n_tests`` intervals of the claim. Returns the largest |mean - DP| / half-width."""
    from mltheory.stats import hoeffding_interval

    P, R = model.P, model.R
    rmax = float(np.max(np.abs(R))) or 1.0
    if horizon is not None:
        steps, weights, span = horizon, np.full(horizon, 1.0 / horizon), 2 * rmax
        ev = policy_evaluation(model.mdp, pi, horizon=horizon)
        trunc = 0.0
    else:
        steps = int(np.ceil(np.log(1e-6 * (1 - gamma)) / np.log(gamma))) if gamma > 0 else 1
        weights, span = gamma ** np.arange(steps), 2 * rmax / (1 - gamma)
        ev = policy_evaluation(model.mdp, pi, gamma=gamma, method="exact")
        trunc = rmax * gamma**steps / (1 - gamma)
    conf = 1 - confidence_total / n_tests
    pairs = [(x, a) for x in range(model.S) for a in [-1, *range(model.A)]]
    starts = np.repeat([p[0] for p in pairs], n)
    forced = np.repeat([p[1] for p in pairs], n)
    means = (rollouts(P, R, pi, starts, steps, rng, forced) @ weights).reshape(len(pairs), n
                                                                              ).mean(axis=1)
    worst = 0.0
    for (x, a), mean in zip(pairs, means, strict=True):
        target = ev.V[x] if a < 0 else ev.Q[x, a]
        lo, hi = hoeffding_interval(float(mean), n, -span / 2, span / 2, conf)
        worst = max(worst, abs(float(mean) - target) / ((hi - lo) / 2))
        assert lo - trunc <= target <= hi + trunc, (
            f"x={x}, a={a}: DP value {target:.6g} outside the Hoeffding interval "
            f"[{lo:.6g}, {hi:.6g}] of {n} rollouts")
    evidence.worst("|rollout mean - DP| / Hoeffding half-width", worst)
    return worst


# ---------------------------------------------------------------------------------------
# Optimality, improvement, policy and value iteration (003 §14.3.2-§14.3.3)
# ---------------------------------------------------------------------------------------

#: Q values closer than this (relative) are ties of the greedy step.
TIE = 1e-9


def nonstationary_example():
    """Three states: in s0 "stay" pays 1 and stays, "go" pays 0 and moves to s1; s1 pays 3
    once and moves to the absorbing, rewardless s2. With T = 3 the best plan (stay, go, -)
    averages 4/3 from s0; every stationary policy gets at most 1 there."""
    from properties.reinforcement.strategies_planning import make_model

    P = np.zeros((2, 3, 3))
    R = np.zeros((2, 3, 3))
    P[0, 0, 0], R[0, 0, 0] = 1.0, 1.0
    P[1, 0, 1] = 1.0
    P[:, 1, 2], R[:, 1, 2] = 1.0, 3.0
    P[:, 2, 2] = 1.0
    return make_model(P, R, terminal=[2])


def best_first_actions_t_step(P, R, T: int) -> np.ndarray:
    """``Q_T*(x, a)``: the best T-step value from x over all plans whose first action at x
    is a (brute force over plans, like :func:`best_plans_t_step`)."""
    A, S, _ = P.shape
    pols = all_deterministic_policies(S, A)
    rest = best_plans_t_step(P, R, T - 1) * (T - 1)  # best total over the other T-1 steps
    Q = np.full((S, A), -np.inf)
    for p0 in pols:
        P0, r0 = chain(P, R, one_hot(p0, A))
        first = (r0 + P0 @ rest) / T
        Q[np.arange(S), p0] = np.maximum(Q[np.arange(S), p0], first)
    return Q


def best_gamma(P, R, gamma: float) -> tuple[np.ndarray, np.ndarray]:
    """(V*, Q*) of the γ criterion as maxima over all deterministic policies of V^π and of
    Q^π (state-action solves)."""
    A, S, _ = P.shape
    pols = all_deterministic_policies(S, A)
    V = np.max([solve_gamma(P, R, one_hot(p, A), gamma) for p in pols], axis=0)
    Q = np.max([solve_gamma_q(P, R, one_hot(p, A), gamma) for p in pols], axis=0)
    return V, Q


def check_optimal_policies(model, gamma: float) -> None:
    """(14.8)-(14.9): the maximisers of Σ_x V^π(x) over the deterministic policies are
    optimal at every state at once and share one V*, which value iteration and the LP
    return."""
    pols, values = all_deterministic_values(model.P, model.R, gamma)
    totals = values.sum(axis=1)
    best = np.flatnonzero(totals >= totals.max() - TIE * max(1.0, abs(totals.max())))
    V_star = values.max(axis=0)
    for b in best:
        assert_close(values[b], V_star, LINEAR_ALGEBRA, label="max |V^{pi*} - max_pi V^pi|",
                     context=f"maximiser {pols[b]} of (14.8): ")
    vi = value_iteration(model.mdp, gamma=gamma, theta=1e-13)
    assert vi.converged
    assert_close(vi.V, V_star, LINEAR_ALGEBRA, label="max |value iteration - V*|")
    assert_close(optimal_values_lp(model.mdp, gamma), V_star, Tolerance(
        rtol=1e-7, atol=1e-7, reason="HiGHS feasibility tolerance 1e-7 on rewards scaled "
        "to 1"), label="max |LP - V*|")


def check_bellman_optimality(model, *, gamma=None, horizon=None) -> None:
    """(14.10): V* (brute force over plans / policies) satisfies the Bellman optimality
    equation; T-step value iteration gives it after exactly T sweeps, with V_{T-1}*, and
    its non-stationary plan attains it."""
    P, R = model.P, model.R
    if horizon is not None:
        T = horizon
        V_T, V_prev = best_plans_t_step(P, R, T), best_plans_t_step(P, R, T - 1)
        rhs = np.max(np.einsum("axy,axy->ax", P, R / T + (T - 1) / T * V_prev[None, None, :]),
                     axis=0)
        assert_close(V_T, rhs, BELLMAN, label="max |V_T* - rhs of (14.10)|")
        vi = value_iteration(model.mdp, horizon=T)
        assert vi.n_sweeps == T and vi.converged
        assert_close(vi.V, V_T, BELLMAN, label="max |value iteration (T sweeps) - V_T*|")
        assert_close(vi.V_prev, V_prev, BELLMAN, label="max |V_prev - V_{T-1}*|")
        plan = [vi.nonstationary_policy[T - 1 - i] for i in range(T)]
        assert np.array_equal(plan[0], vi.policy)
        assert_close(plan_value(P, R, plan), V_T, BELLMAN,
                     label="max |value of the returned plan - V_T*|")
    else:
        V, _ = best_gamma(P, R, gamma)
        rhs = np.max(np.einsum("axy,axy->ax", P, R + gamma * V[None, None, :]), axis=0)
        assert_close(V, rhs, LINEAR_ALGEBRA, label="max |V_gamma* - rhs of (14.10)|")


def check_q_optimality(model, *, gamma=None, horizon=None) -> None:
    """(14.11): value iteration's Q* satisfies Q*(x,a) = Σ P (R/T + (T-1)/T max Q_{T-1}*)
    (resp. Σ P (R + γ max Q*)), equals the brute-force best action values, and
    V* = max_a Q*."""
    P, R = model.P, model.R
    if horizon is not None:
        T = horizon
        vi = value_iteration(model.mdp, horizon=T)
        prev = (value_iteration(model.mdp, horizon=T - 1).Q.max(axis=1) if T > 1
                else np.zeros(model.S))
        rhs = np.einsum("axy,axy->xa", P, R / T + (T - 1) / T * prev[None, None, :])
        assert_close(vi.Q, rhs, BELLMAN, label="max |Q_T* - rhs of (14.11)|")
        assert_close(vi.Q, best_first_actions_t_step(P, R, T), BELLMAN,
                     label="max |Q_T* - brute-force best first actions|")
    else:
        vi = value_iteration(model.mdp, gamma=gamma, theta=1e-13)
        _, Q_star = best_gamma(P, R, gamma)
        rhs = np.einsum("axy,axy->xa", P, R + gamma * Q_star.max(axis=1)[None, None, :])
        assert_close(Q_star, rhs, LINEAR_ALGEBRA, label="max |Q* - rhs of (14.11)|")
        assert_close(vi.Q, Q_star, LINEAR_ALGEBRA, label="max |value iteration Q - Q*|")
    assert_close(vi.V, vi.Q.max(axis=1), BELLMAN, label="|V* - max_a Q*|")


def _stationary_value(model, pi, *, gamma=None, horizon=None) -> np.ndarray:
    if horizon is not None:
        return enumerate_t_step(model.P, model.R, pi, horizon)
    return solve_gamma(model.P, model.R, pi, gamma)


def check_improvement(model, *, gamma=None, horizon=None, extra_policy=None) -> None:
    """(14.12) over every deterministic policy π (and ``extra_policy``, stochastic): the
    greedy π' in Q^π (ties kept at π) has V^{π'} >= V^π at every state, and π' = π only
    where π is optimal (V^π = V*)."""
    P, R, S, A = model.P, model.R, model.S, model.A
    kw = dict(gamma=gamma) if gamma is not None else dict(horizon=horizon)
    V_star = (best_plans_t_step(P, R, horizon) if horizon is not None
              else best_gamma(P, R, gamma)[0])
    cands = [one_hot(p, A) for p in all_deterministic_policies(S, A)]
    if extra_policy is not None:
        cands.append(extra_policy)
    for pi in cands:
        ev = (policy_evaluation(model.mdp, pi, method="exact", **kw) if gamma is not None
              else policy_evaluation(model.mdp, pi, **kw))
        deterministic = bool(np.all(pi.max(axis=1) == 1.0))
        current = pi.argmax(axis=1) if deterministic else None
        scale = max(1.0, float(np.abs(ev.Q).max()))
        new = policy_improvement(model.mdp, ev.Q, current=current, atol=TIE * scale)
        V_old = _stationary_value(model, pi, **kw)
        V_new = _stationary_value(model, one_hot(new, A), **kw)
        drop = float(np.max(V_old - V_new))
        evidence.worst("largest drop V^pi - V^pi' after improvement", drop)
        assert drop <= 1e-9 * scale, (
            f"improvement lowered the value: pi={pi.tolist()}, pi'={new.tolist()}, "
            f"V^pi={V_old}, V^pi'={V_new}")
        if deterministic and np.array_equal(new, current):
            assert_close(V_old, V_star, LINEAR_ALGEBRA, label="|V^pi - V*| where pi' = pi",
                         context=f"pi' = pi = {current.tolist()} but not optimal: ")


def check_policy_iteration(model, *, gamma=None, horizon=None, evaluation="exact") -> None:
    """Alg. 6 / γ form: terminates within |A|^|X| improvements with π' = π, V^{π_k}
    non-decreasing, the last policy optimal (V = V* of the brute force)."""
    P, R, S, A = model.P, model.R, model.S, model.A
    kw = dict(gamma=gamma) if gamma is not None else dict(horizon=horizon)
    res = policy_iteration(model.mdp, evaluation=evaluation, theta=1e-12, **kw)
    assert res.converged, "policy iteration did not reach pi' = pi"
    assert res.n_iter <= A**S + 1, f"{res.n_iter} rounds for {A**S} deterministic policies"
    values = [_stationary_value(model, pi, **kw) for pi in res.policies]
    for k in range(1, len(values)):
        drop = float(np.max(values[k - 1] - values[k]))
        evidence.worst("largest drop of V^{pi_k} between rounds", drop)
        assert drop <= 1e-9, f"V^pi decreased in round {k}: {values[k - 1]} -> {values[k]}"
    V_star = (best_plans_t_step(P, R, horizon) if horizon is not None
              else best_gamma(P, R, gamma)[0])
    assert_close(_stationary_value(model, one_hot(res.policy, A), **kw), V_star,
                 LINEAR_ALGEBRA, label="max |V^{pi_final} - V*|",
                 context=f"policy {res.policy.tolist()}: ")


def check_value_iteration_gamma(model, gamma: float, theta: float, in_place: bool) -> None:
    """(14.13): converged, within γθ/(1-γ) of V*, greedy policy optimal up to the bound."""
    vi = value_iteration(model.mdp, gamma=gamma, theta=theta, in_place=in_place)
    assert vi.converged
    V_star, _ = best_gamma(model.P, model.R, gamma)
    err = float(np.max(np.abs(vi.V - V_star)))
    eps = gamma * theta / (1 - gamma)
    assert err <= eps + 1e-12, f"|V - V*| = {err:.3g} > gamma theta/(1-gamma) = {eps:.3g}"
    V_greedy = solve_gamma(model.P, model.R, one_hot(vi.policy, model.A), gamma)
    loss = float(np.max(V_star - V_greedy))
    evidence.worst("V* - V^{greedy}", loss)
    assert loss <= 2 * gamma * eps / (1 - gamma) + 1e-10, f"greedy policy loses {loss:.3g}"
    if not in_place:
        r = vi.residuals
        slack = 1e-14 * max(1.0, float(np.abs(vi.V).max()))  # rounding of V's size
        assert np.all(r[1:] <= gamma * r[:-1] * (1 + 1e-9) + slack), \
            "synchronous residuals do not contract with modulus gamma"


#: LP (HiGHS) against value iteration: HiGHS meets its primal/dual feasibility tolerance
#: 1e-7 on rewards scaled to 1; value iteration is within γθ/(1-γ) ≈ 1e-8.
LP_AGREEMENT = Tolerance(rtol=1e-6, atol=1e-6, reason="HiGHS feasibility tolerance 1e-7 on "
                         "rewards scaled to 1, times 1/(1-γ) <= 100 at most")

GYM_ENVIRONMENTS = [
    ("FrozenLake-v1", {"map_name": "4x4", "is_slippery": True}),
    ("FrozenLake-v1", {"map_name": "8x8", "is_slippery": True}),
    ("CliffWalking-v1", {}),
    ("Taxi-v4", {}),
]


def greedy_value_sparse(mdp, actions, gamma: float) -> np.ndarray:
    """Exact V of a deterministic policy from the stacked transition rows (scipy spsolve),
    without the planning module's policy model."""
    import scipy.sparse as sps
    import scipy.sparse.linalg as spla

    S = mdp.n_states
    rows = np.asarray(actions) * S + np.arange(S)
    P = sps.csr_matrix(mdp.transitions)[rows]
    r = mdp.expected_reward[np.arange(S), actions]
    return spla.spsolve((sps.identity(S, format="csc") - gamma * P).tocsc(), r)


def check_gym_reference(name: str, kwargs: dict, gamma: float, theta: float = 1e-10) -> None:
    """Value iteration on a gymnasium toy-text MDP agrees with the LP's V*, and its greedy
    policy's exact value equals V*."""
    import gymnasium

    from algorithms.reinforcement import from_gymnasium

    mdp = from_gymnasium(gymnasium.make(name, **kwargs))
    vi = value_iteration(mdp, gamma=gamma, theta=theta)
    assert vi.converged, f"{name}: value iteration did not converge"
    V_lp = optimal_values_lp(mdp, gamma)
    where = f"{name} {kwargs}: "
    assert_close(vi.V, V_lp, LP_AGREEMENT, label="max |value iteration - LP V*|",
                 context=where)
    assert_close(greedy_value_sparse(mdp, vi.policy, gamma), V_lp, LP_AGREEMENT,
                 label="max |V^{greedy} - LP V*|", context=where + "greedy policy: ")
