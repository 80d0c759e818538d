"""References and check bodies of the td part (003 §14.4.2 (14.20)–(14.21), Algs. 10–12,
§14.5 (14.22)–(14.26)).

The references here share no code with ``algorithms/reinforcement/_td.py``,
``_approximation.py`` or the planning solvers: Q^π by one dense linear solve over state-
action pairs, Q* by a linear programme (scipy's HiGHS) with a Bellman-residual certificate,
Monte-Carlo returns by vectorised rollouts, and the LSTD system assembled by explicit
sums over states and transitions. The printed Alg.11 loop is written out here literally
(it is the notes' code, not the suite's algorithm).

Each ``check_*`` is the body of one claim and of its teeth tests (which call it with a
broken ingredient and must see it refute).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import scipy.optimize

from algorithms.reinforcement import TabularMDP
from mltheory import evidence
from mltheory.numeric import LINEAR_ALGEBRA, Tolerance, assert_close
from mltheory.stats import hoeffding_interval

#: Confidence of each Monte-Carlo interval (union-bounded over the entries compared).
CONFIDENCE = 1 - 1e-6

LP_SOLVER = Tolerance(
    rtol=1e-7, atol=1e-7,
    reason="HiGHS solves the LP to about 1e-9 primal/dual feasibility; Q* is then "
    "certified by its Bellman residual, which is asserted below 1e-7 separately")

# ---------------------------------------------------------------------------------------
# independent references
# ---------------------------------------------------------------------------------------


def dense_model(mdp: TabularMDP) -> tuple[np.ndarray, np.ndarray]:
    """``P`` (A, S, S) and the expected rewards ``r`` (S, A) of a small MDP."""
    return np.asarray(mdp.P, dtype=float), np.asarray(mdp.expected_reward, dtype=float)


def q_policy_solve(mdp: TabularMDP, pi: np.ndarray, gamma: float) -> np.ndarray:
    """Q^π of 003 (14.20) by one linear solve over the S·A state-action pairs:
    ``q = r + γ M q`` with ``M[(x,a),(x',a')] = P^a_{x→x'} π(x', a')``."""
    P, r = dense_model(mdp)
    A, S, _ = P.shape
    # rows ordered (x, a) -> x * A + a
    Psa = P.transpose(1, 0, 2).reshape(S * A, S)          # (x,a) -> x'
    Pi = np.zeros((S, S * A))
    for x in range(S):
        Pi[x, x * A:(x + 1) * A] = pi[x]
    M = Psa @ Pi
    q = np.linalg.solve(np.eye(S * A) - gamma * M, r.reshape(S * A))
    return q.reshape(S, A)


def q_star_lp(mdp: TabularMDP, gamma: float) -> np.ndarray:
    """Q* by the linear programme  min Σ_x V(x)  s.t.  V(x) ≥ r(x,a) + γ Σ_x' P V(x')
    (HiGHS), then ``Q* = r + γ P V*``; the Bellman optimality residual is the certificate."""
    P, r = dense_model(mdp)
    A, S, _ = P.shape
    rows = []
    rhs = []
    for a in range(A):
        rows.append(gamma * P[a] - np.eye(S))  # γ P V − V ≤ −r
        rhs.append(-r[:, a])
    res = scipy.optimize.linprog(np.ones(S), A_ub=np.vstack(rows), b_ub=np.concatenate(rhs),
                                 bounds=[(None, None)] * S, method="highs")
    assert res.status == 0, f"reference LP failed: {res.message}"
    V = res.x
    Q = r + gamma * np.einsum("asj,j->sa", P, V)
    residual = float(np.abs(Q.max(axis=1) - V).max())
    assert residual < 1e-7, f"reference LP: Bellman optimality residual {residual:.2e}"
    return Q


def bellman_rhs_14_20(mdp: TabularMDP, pi: np.ndarray, gamma: float, Q: np.ndarray
                      ) -> np.ndarray:
    """The right-hand side of (14.20) by explicit sums: Σ_x' P^a_{x→x'}(R^a_{x→x'} +
    γ Σ_a' π(x', a') Q(x', a'))."""
    P = np.asarray(mdp.P)
    A, S, _ = P.shape
    R = _transition_rewards(mdp)
    out = np.zeros((S, A))
    for x in range(S):
        for a in range(A):
            out[x, a] = sum(P[a, x, y] * (R[a, x, y] + gamma * sum(pi[y, b] * Q[y, b]
                                                                   for b in range(A)))
                            for y in range(S))
    return out


def _transition_rewards(mdp: TabularMDP) -> np.ndarray:
    """R^a_{x→x'} (A, S, S) from the model's sampler arrays (stored transitions only)."""
    S, A = mdp.n_states, mdp.n_actions
    indptr, indices, _, rewards = mdp._build_sampler()
    R = np.zeros((A, S, S))
    for row in range(A * S):
        a, x = divmod(row, S)
        for k in range(indptr[row], indptr[row + 1]):
            R[a, x, indices[k]] = rewards[k]
    return R


def rollout_returns(mdp: TabularMDP, pi: np.ndarray, gamma: float, n: int, horizon: int,
                    rng: np.random.Generator) -> tuple[np.ndarray, float, float]:
    """Monte-Carlo means of the discounted return from every (x, a), first action a then
    π, ``n`` rollouts of ``horizon`` steps each (vectorised). Returns (means (S, A), the
    range of one return, the truncation bound γ^H max|R| / (1 − γ))."""
    P = np.asarray(mdp.P)
    A, S, _ = P.shape
    R = _transition_rewards(mdp)
    cumP = np.cumsum(P, axis=2)
    cumPi = np.cumsum(pi, axis=1)
    x = np.repeat(np.arange(S), A * n)
    a = np.tile(np.repeat(np.arange(A), n), S)
    total = np.zeros(x.size)
    disc = 1.0
    for _ in range(horizon):
        u = rng.random(x.size)
        nxt = np.minimum((cumP[a, x] <= u[:, None]).sum(axis=1), S - 1)
        total += disc * R[a, x, nxt]
        disc *= gamma
        x = nxt
        u = rng.random(x.size)
        a = np.minimum((cumPi[x] <= u[:, None]).sum(axis=1), A - 1)
    rmax = float(np.abs(R).max()) or 1.0
    span = 2 * rmax * (1 - gamma**horizon) / (1 - gamma)
    tail = gamma**horizon * rmax / (1 - gamma)
    return total.reshape(S, A, n).mean(axis=2), span, tail


def independent_lstd(mdp: TabularMDP, pi: np.ndarray, Phi: np.ndarray, gamma: float,
                     d: np.ndarray) -> np.ndarray:
    """The TD(0) fixed point by explicit sums: A = Σ_x d(x) φ(x) Σ_{a,x'} π P (φ(x) − γ
    φ̃(x'))ᵀ, b = Σ_x d(x) φ(x) Σ_{a,x'} π P R (φ̃ = 0 at terminal states); numpy lstsq."""
    P = np.asarray(mdp.P)
    A_n, S, _ = P.shape
    R = _transition_rewards(mdp)
    k = Phi.shape[1]
    A = np.zeros((k, k))
    b = np.zeros(k)
    for x in range(S):
        for a in range(A_n):
            for y in range(S):
                w = d[x] * pi[x, a] * P[a, x, y]
                if w == 0.0:
                    continue
                nxt = np.zeros(k) if mdp.terminal[y] else Phi[y]
                A += w * np.outer(Phi[x], Phi[x] - gamma * nxt)
                b += w * R[a, x, y] * Phi[x]
    return np.linalg.lstsq(A, b, rcond=None)[0]


def stationary_distribution(P_pi: np.ndarray) -> np.ndarray:
    """Left eigenvector of P_π for eigenvalue 1 by power iteration to convergence
    (independent of the library's least-squares solve)."""
    S = P_pi.shape[0]
    d = np.full(S, 1.0 / S)
    lazy = 0.5 * (np.eye(S) + P_pi)  # same stationary law, aperiodic
    for _ in range(100_000):
        new = d @ lazy
        if np.abs(new - d).max() < 1e-15:
            return new / new.sum()
        d = new
    raise AssertionError("power iteration for the stationary distribution did not converge")


# ---------------------------------------------------------------------------------------
# the notes' Alg.11, literally
# ---------------------------------------------------------------------------------------


def alg11_as_printed(mdp: TabularMDP, gamma: float, epsilon: float, n_steps: int,
                     rng: np.random.Generator, x0: int = 0, alpha_power: float = 0.8
                     ) -> np.ndarray:
    """003 §14.4.2 Alg.11 run line by line. ``a`` is not set before the loop in the print;
    it is taken as π(x0) of Alg.10 line 3 (π uniform at the start). Each iteration:
    line 5 executes a fresh b = π^ε(x) (reward and next state of b); line 6 a' = π^ε(x');
    line 7 Q(x, a) += α(r + γ Q(x', a') − Q(x, a)) on the carried a; line 8 π greedy;
    line 9 x, a = x', a'. Step size α = n(x, a)^(-alpha_power). No resets (the loop never
    resets); terminal states are absorbing."""
    S, A = mdp.n_states, mdp.n_actions
    Q = np.zeros((S, A))
    counts = np.zeros((S, A))

    def eps_greedy(x):
        if rng.random() < epsilon:
            return int(rng.integers(A))
        return int(np.argmax(Q[x]))

    x = x0
    a = int(rng.integers(A))  # π(x0) with π uniform (Alg.10 line 3)
    for _ in range(n_steps):
        executed = eps_greedy(x)                                    # line 5
        r, nxt = mdp.sample_next(x, executed, rng.random())
        a_next = eps_greedy(nxt)                                    # line 6
        counts[x, a] += 1
        alpha = counts[x, a] ** (-alpha_power)
        Q[x, a] += alpha * (r + gamma * Q[nxt, a_next] - Q[x, a])   # line 7
        x, a = nxt, a_next                                          # line 9
    return Q


# ---------------------------------------------------------------------------------------
# check bodies
# ---------------------------------------------------------------------------------------


def check_bellman_q(mdp: TabularMDP, pi: np.ndarray, gamma: float, rng: np.random.Generator,
                    scale: int = 1, solver: Callable = q_policy_solve) -> None:
    """(14.20): Q = solver(mdp, π, γ) satisfies the equation entry by entry (explicit sums)
    and equals the Monte-Carlo mean return of every (x, a) within a Hoeffding interval at
    confidence 1 − 1e-6 per entry plus the truncation bound."""
    Q = solver(mdp, pi, gamma)
    rhs = bellman_rhs_14_20(mdp, pi, gamma, Q)
    assert_close(Q, rhs, LINEAR_ALGEBRA, context="Q^π against the right-hand side of (14.20): ")
    n = 4000 * scale
    horizon = max(1, int(np.ceil(np.log(1e-4) / np.log(gamma)))) if gamma > 0 else 1
    means, span, tail = rollout_returns(mdp, pi, gamma, n, horizon, rng)
    if span == 0:
        span = 1.0
    lo, hi = hoeffding_interval(0.0, n, -span / 2, span / 2, CONFIDENCE)
    half = hi + tail
    gap = float(np.abs(means - Q).max())
    evidence.worst("max |MC mean − Q^π| / allowed", gap / half)
    assert gap <= half, (f"(14.20): Monte-Carlo returns differ from Q^π by {gap:.4g} > "
                         f"{half:.4g} (Hoeffding half-width + truncation)")


def expected_sarsa_increment(mdp: TabularMDP, Q: np.ndarray, pi: np.ndarray, gamma: float
                             ) -> np.ndarray:
    """E[r + γ Q(x', a') − Q(x, a)] for every (x, a), x' ~ P^a_x, a' ~ π(x') — the mean
    increment of (14.21) divided by α."""
    return bellman_rhs_14_20(mdp, pi, gamma, Q) - Q


def check_sarsa_fixed_point(mdp: TabularMDP, pi: np.ndarray, gamma: float,
                            solver: Callable = q_policy_solve) -> None:
    """Q^π makes the expected Sarsa increment vanish, and any other Q does not (the
    increment is (I − γ M)(Q^π − Q), M a substochastic-times-γ contraction)."""
    Qpi = solver(mdp, pi, gamma)
    inc = expected_sarsa_increment(mdp, Qpi, pi, gamma)
    assert_close(inc, np.zeros_like(inc), LINEAR_ALGEBRA,
                 context="expected Sarsa increment at Q^π: ", scale=float(np.abs(Qpi).max()))
    other = Qpi + 1.0
    inc_other = expected_sarsa_increment(mdp, other, pi, gamma)
    assert np.abs(inc_other).max() > (1 - gamma) * 0.5, \
        "a shifted table is also a fixed point"
    evidence.worst("largest expected increment at Q^π", float(np.abs(inc).max()))


def check_control_reaches_q_star(mdp: TabularMDP, gamma: float, fit: Callable, seed: int,
                                 tolerance: float, min_visits: int = 0) -> None:
    """``fit(mdp, gamma, seed)`` (a fitted learner with ``Q_`` and ``visits_``) is within
    ``tolerance`` · max|R|/(1−γ) of Q* (LP) on every non-terminal pair updated at least
    ``min_visits`` times; its greedy values max_a Q(x, a) and the values of its greedy
    policy (linear solve) are within the same tolerance of V*."""
    Qstar = q_star_lp(mdp, gamma)
    learner = fit(mdp, gamma, seed)
    Q = learner.Q_
    live = ~mdp.terminal
    R = _transition_rewards(mdp)
    unit = max(float(np.abs(R).max()), 1e-12) / (1 - gamma)
    counted = live[:, None] & (learner.visits_ >= min_visits)
    assert counted.any(), f"no state-action pair was updated {min_visits} times"
    err = float(np.abs(Q - Qstar)[counted].max())
    evidence.worst("max |Q − Q*| / (max|R|/(1−γ))", err / unit)
    assert err <= tolerance * unit, (f"learnt Q is {err:.4g} from Q* (allowed "
                                     f"{tolerance * unit:.4g})")
    v_err = float(np.abs(Q.max(axis=1) - Qstar.max(axis=1))[live].max())
    evidence.worst("max |max_a Q − V*| / (max|R|/(1−γ))", v_err / unit)
    assert v_err <= tolerance * unit, f"greedy values are {v_err:.4g} from V*"
    greedy = np.argmax(Q, axis=1)
    pi = np.zeros_like(Q)
    pi[np.arange(Q.shape[0]), greedy] = 1.0
    V_greedy = (q_policy_solve(mdp, pi, gamma) * pi).sum(axis=1)
    loss = float((Qstar.max(axis=1) - V_greedy).max())
    evidence.worst("greedy policy loss / (max|R|/(1−γ))", loss / unit)
    assert loss <= tolerance * unit, f"greedy policy loses {loss:.4g} against V*"


def check_projection(Phi: np.ndarray, V: np.ndarray, d: np.ndarray, fitted: np.ndarray,
                     weighted: bool = True) -> None:
    """(14.25): SGD with known V^π converges to argmin_θ Σ d(x)(V(x) − θᵀφ(x))² (scipy
    lstsq on √d-scaled rows). Compared in the d-weighted norm of the fitted values, within
    1% of max|V| (the scale of the targets, which sets the SGD noise)."""
    import scipy.linalg

    w = np.sqrt(d) if weighted else np.ones_like(d)
    theta = scipy.linalg.lstsq(Phi * w[:, None], V * w)[0]
    diff = Phi @ (fitted - theta)
    err = float(np.sqrt(np.sum(d * diff**2)))
    size = float(np.abs(V).max()) or 1.0
    evidence.worst("‖Φ(θ_SGD − θ_LS)‖_d / max|V|", err / size)
    assert err <= 0.01 * size, (f"SGD solution is {err:.3g} from the weighted least-squares "
                                f"projection in the d-norm (allowed 1% of max|V| = {size:.3g})")
