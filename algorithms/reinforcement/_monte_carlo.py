"""Monte-Carlo reinforcement learning (003 §14.4.1, (14.14)-(14.18), Algs.8-9).

Without a model, the value of a policy is estimated from sampled T-step trajectories
(14.14) ``x_0, a_0, τ_1, x_1, a_1, τ_2, ..., x_{T-1}, a_{T-1}, τ_T, x_T``. For every step
``t`` the notes' Alg.8 (line 6) uses the average of the rewards *remaining* in the episode,

    R_t = (1/(T - t)) Σ_{i=t+1}^{T} τ_i,

whose expectation given ``(x_t, a_t)`` is ``Q^π_{T-t}(x_t, a_t)`` (the (T-t)-step average
value (14.4)); averaged per state-action pair over every visit, Q(x, a) therefore tends to
a visit-weighted mixture of ``Q^π_{T-t}`` over the steps ``t`` at which ``(x, a)`` is met
(``Q^π_T`` itself where ``(x, a)`` is only met at ``t = 0``).

Off-policy (Alg.9): trajectories come from the ε-greedy *behaviour* policy around the
deterministic target π, with probabilities ``p_j = 1 - ε + ε/|A|`` if ``a_j = π(x_j)``
and ``ε/|A|`` otherwise; the reward ``τ_i`` observed after ``a_t`` is reweighted by the
ratio of the actions *between* them, ``Π_{j=t+1}^{i-1} π(x_j, a_j)/p_j`` (per-decision
importance sampling), which is 0 as soon as one of them is not π's. That makes
``E[R_t | x_t, a_t] = Q^π_{T-t}(x_t, a_t)``. (The printed line 8 weights ``τ_i`` by
``Π_{j=i}^{T-1} 1/p_j`` instead, and its line 4 runs π itself; see
``properties/reinforcement/monte_carlo.py``.)

Episodes that reach a terminal state (absorbing, zero reward) are continued there: the
trajectory keeps the state with reward 0 until step T, which is what a ``TabularMDP``
does anyway and what a gymnasium environment (which cannot step past ``done``) is padded
with.
"""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass

import numpy as np

from algorithms._validation import (
    InvalidArgumentError,
    check_array_argument,
    check_bool,
    check_choice,
    check_index_array,
    check_int,
    check_real,
    make_rng,
)
from algorithms.reinforcement._mdp import (
    TabularMDP,
    _Learner,
    as_policy_matrix,
    make_simulator,
)

__all__ = [
    "OffPolicyMonteCarlo",
    "OnPolicyMonteCarlo",
    "Trajectory",
    "importance_ratio",
    "sample_trajectory",
    "trajectory_probability",
    "trajectory_returns",
]

#: Caps on a request (refused with a ValueError beyond them).
MAX_HORIZON, MAX_EPISODES, MAX_TOTAL_STEPS = 10**6, 10**7, 10**8


@dataclass(frozen=True)
class Trajectory:
    """A T-step trajectory (14.14).

    Attributes
    ----------
    states : ndarray of shape (T+1,)
        ``x_0, ..., x_T``.
    actions : ndarray of shape (T,)
        ``a_0, ..., a_{T-1}``.
    rewards : ndarray of shape (T,)
        ``τ_1, ..., τ_T`` (``rewards[i]`` follows ``actions[i]``).
    done_at : int or None
        The step at which a terminal state was reached (later steps are padding).
    """

    states: np.ndarray
    actions: np.ndarray
    rewards: np.ndarray
    done_at: int | None = None

    @property
    def horizon(self) -> int:
        return int(self.actions.size)


# ---------------------------------------------------------------------------------------
# Sampling
# ---------------------------------------------------------------------------------------


def _rollout(sim, cum_policy: np.ndarray, horizon: int, rng: np.random.Generator
             ) -> Trajectory:
    """One episode of ``horizon`` steps under the policy with cumulative rows
    ``cum_policy`` (S, A); after ``done`` the state is kept with reward 0."""
    states = [0] * (horizon + 1)
    actions = [0] * horizon
    rewards = [0.0] * horizon
    u = rng.random(horizon).tolist()
    rows = cum_policy.tolist() if isinstance(cum_policy, np.ndarray) else cum_policy
    last = len(rows[0]) - 1
    x = sim.reset()
    states[0] = x
    done_at = None
    for t in range(horizon):
        a = min(bisect_right(rows[x], u[t]), last)
        actions[t] = a
        if done_at is None:
            r, x, done = sim.step(a)
            rewards[t] = r
            if done:
                done_at = t + 1
        states[t + 1] = x
    return Trajectory(np.array(states, dtype=np.intp), np.array(actions, dtype=np.intp),
                      np.array(rewards, dtype=np.float64), done_at)


def _cumulative(pi: np.ndarray) -> list:
    cum = np.cumsum(pi, axis=1)
    cum[:, -1] = np.inf  # guards against round-off in the last bucket
    return cum.tolist()


def _check_env(env):
    if isinstance(env, TabularMDP):
        return env.n_states, env.n_actions
    sim = make_simulator(env, 0)  # validates a gymnasium environment
    return sim.n_states, sim.n_actions


def _check_horizon(horizon) -> int:
    return check_int(horizon, "horizon", low=1, high=MAX_HORIZON)


def sample_trajectory(env, policy, horizon: int, random_state=None, start=None
                      ) -> Trajectory:
    """Sample one T-step trajectory (14.14) of ``policy`` in ``env``.

    Parameters
    ----------
    env : TabularMDP or gymnasium environment with discrete spaces
    policy : array of shape (S, A) (action probabilities) or (S,) (actions)
    horizon : int >= 1
        ``T``.
    random_state : None, int or Generator
    start : int, optional
        ``x_0`` (default: drawn from the MDP's initial distribution / the env's reset).

    Returns
    -------
    Trajectory
    """
    S, A = _check_env(env)
    pi = as_policy_matrix(policy, S, A)
    T = _check_horizon(horizon)
    rng = make_rng(random_state)
    sim = make_simulator(env, rng, start=start)
    return _rollout(sim, _cumulative(pi), T, rng)


# ---------------------------------------------------------------------------------------
# Trajectory probabilities and ratios (14.17)-(14.18)
# ---------------------------------------------------------------------------------------


def _check_path(states, actions, S: int, A: int) -> tuple[np.ndarray, np.ndarray]:
    x = check_index_array(states, "states", S)
    a = check_index_array(actions, "actions", A)
    if x.size not in (a.size, a.size + 1):
        raise ValueError(f"states must hold T+1 (or T) states for T = {a.size} actions, got "
                         f"{x.size}.")
    return x, a


def trajectory_probability(mdp, policy, states, actions, *, log: bool = False) -> float:
    """(14.17): ``P^π = Π_{i=0}^{T-1} π(x_i, a_i) P^{a_i}_{x_i→x_{i+1}}``.

    Parameters
    ----------
    mdp : TabularMDP
        The transition model (required: the probability depends on it).
    policy : array of shape (S, A) or (S,)
    states : int array of shape (T+1,)
    actions : int array of shape (T,)
    log : bool, default False
        Return ``log P^π`` (``-inf`` for an impossible trajectory) instead.

    Notes
    -----
    The product is summed in log space, so long trajectories underflow only in the
    final ``exp``, never midway.
    """
    if not isinstance(mdp, TabularMDP):
        raise InvalidArgumentError("mdp must be a TabularMDP: the trajectory probability "
                                   "(14.17) needs the transition model.")
    S, A = mdp.n_states, mdp.n_actions
    pi = as_policy_matrix(policy, S, A)
    x, a = _check_path(states, actions, S, A)
    if x.size != a.size + 1:
        raise ValueError(f"states must hold T+1 = {a.size + 1} states, got {x.size}.")
    log = check_bool(log, "log")
    rows = a * S + x[:-1]
    if mdp.is_sparse:
        trans = np.asarray(mdp.transitions[rows, x[1:]]).ravel()
    else:
        trans = mdp.transitions[rows, x[1:]]
    factors = pi[x[:-1], a] * trans
    with np.errstate(divide="ignore"):
        total = float(np.sum(np.log(factors)))
    return total if log else float(np.exp(total))


def importance_ratio(target, behaviour, states, actions) -> float:
    """(14.18): ``P^π / P^{π'} = Π_{i=0}^{T-1} π(x_i, a_i) / π'(x_i, a_i)``.

    The transition probabilities of (14.17) cancel, so no model is needed.

    Parameters
    ----------
    target : array of shape (S, A) or (S,)
        ``π`` (a deterministic target as a vector of actions: ``π(x, a) = 1[a = π(x)]``).
    behaviour : array of shape (S, A)
        ``π'``, the policy that produced the trajectory: positive on its actions.
    states : int array of shape (T+1,) or (T,)
        (only ``x_0, ..., x_{T-1}`` are used)
    actions : int array of shape (T,)
    """
    b = check_array_argument(behaviour, "behaviour", ndim=2, real=True)
    S, A = b.shape
    b = as_policy_matrix(b, S, A, name="behaviour")
    pi = as_policy_matrix(target, S, A, name="target")
    x, a = _check_path(states, actions, S, A)
    x = x[: a.size]
    den = b[x, a]
    if np.any(den <= 0):
        raise ValueError("behaviour gives probability 0 to an action of the trajectory: it "
                         "cannot have produced it.")
    num = pi[x, a]
    if np.any(num == 0):
        return 0.0
    with np.errstate(over="ignore"):
        return float(np.exp(np.sum(np.log(num) - np.log(den))))


def trajectory_returns(rewards, ratios=None) -> np.ndarray:
    """The per-step returns of Algs.8-9: ``R_t`` for ``t = 0..T-1``.

    ``R_t = (1/(T-t)) Σ_{i=t+1}^{T} τ_i w_{t,i}`` with ``w_{t,i} = Π_{j=t+1}^{i-1} ρ_j``,
    ``ρ_j = ratios[j]`` (``π(x_j, a_j)/p_j``; all 1 without ``ratios``: Alg.8 line 6).

    Parameters
    ----------
    rewards : array of shape (T,) or (n, T)
        ``τ_1..τ_T`` (one trajectory per row).
    ratios : array of rewards' shape, optional
        ``ρ_0..ρ_{T-1}`` (``ρ_0`` is never used: ``a_t`` itself is given).

    Returns
    -------
    ndarray of rewards' shape

    Notes
    -----
    The backward recursion ``G_{T-1} = τ_T``, ``G_t = τ_{t+1} + ρ_{t+1} G_{t+1}``, then
    ``R_t = G_t/(T-t)``; vectorised over trajectories.
    """
    r = check_array_argument(rewards, "rewards", real=True)
    if r.ndim not in (1, 2):
        raise ValueError(f"rewards must be a 1-d or 2-d array, got shape {r.shape}.")
    if ratios is not None:
        rho = check_array_argument(ratios, "ratios", real=True)
        if rho.shape != r.shape:
            raise ValueError(f"ratios must have the shape of rewards {r.shape}, got "
                             f"{rho.shape}.")
        if np.any(rho < 0):
            raise ValueError("ratios must be non-negative (ratios of probabilities).")
    else:
        rho = None
    if r.size > MAX_TOTAL_STEPS:
        raise ValueError(f"rewards: at most {MAX_TOTAL_STEPS} entries.")
    out = _returns(r, rho)
    if not np.all(np.isfinite(out)):
        raise ValueError("rewards and ratios overflow: the weighted returns are not finite.")
    return out


def _returns(r: np.ndarray, rho: np.ndarray | None) -> np.ndarray:
    """:func:`trajectory_returns` without validation (the learners' inner loop)."""
    T = r.shape[-1]
    G = np.empty_like(r)
    with np.errstate(over="ignore", invalid="ignore"):
        G[..., T - 1] = r[..., T - 1]
        for t in range(T - 2, -1, -1):
            nxt = G[..., t + 1] if rho is None else rho[..., t + 1] * G[..., t + 1]
            G[..., t] = r[..., t] + nxt
        return G / (T - np.arange(T))


# ---------------------------------------------------------------------------------------
# Learners
# ---------------------------------------------------------------------------------------


class _MonteCarlo(_Learner):

    def _common(self, env):
        S, A = _check_env(env)
        T = _check_horizon(self.horizon)
        n = check_int(self.n_episodes, "n_episodes", low=1, high=MAX_EPISODES)
        if n * T > MAX_TOTAL_STEPS:
            raise ValueError(f"n_episodes * horizon must be at most {MAX_TOTAL_STEPS}, got "
                             f"{n * T}.")
        eps = check_real(self.epsilon, "epsilon", low=0.0, high=1.0)
        improve = check_bool(self.improve, "improve")
        rng = make_rng(self.random_state)
        sim = make_simulator(env, rng, start=self.start)
        return S, A, T, n, eps, improve, rng, sim


def _greedy_random_ties(Q: np.ndarray, rows: np.ndarray, rng: np.random.Generator
                        ) -> np.ndarray:
    """``argmax_a Q(x, a)`` for the states ``rows``, ties broken uniformly at random."""
    q = Q[rows]
    tied = q == q.max(axis=1, keepdims=True)
    keys = np.where(tied, rng.random(q.shape), -1.0)
    return np.argmax(keys, axis=1)


def _epsilon_greedy_rows(best: np.ndarray, eps: float, A: int) -> np.ndarray:
    """Rows of the ε-greedy policy around the actions ``best``: ``1 - ε + ε/|A|`` on the
    greedy action, ``ε/|A|`` elsewhere (003 §14.4.1, after (14.18))."""
    rows = np.full((best.size, A), eps / A)
    rows[np.arange(best.size), best] += 1.0 - eps
    return rows


def _batches(n: int, one_by_one: bool):
    """Episode ranges: one at a time (the policy changes after each) or all at once."""
    if one_by_one:
        return ((e, e + 1) for e in range(n))
    step = 65_536
    return ((lo, min(n, lo + step)) for lo in range(0, n, step))


def _collect(sim, cum: list, T: int, n: int, rng: np.random.Generator):
    """``n`` episodes: states (n, T+1), actions (n, T), rewards (n, T)."""
    X = np.empty((n, T + 1), dtype=np.intp)
    U = np.empty((n, T), dtype=np.intp)
    Rw = np.empty((n, T))
    for e in range(n):
        traj = _rollout(sim, cum, T, rng)
        X[e], U[e], Rw[e] = traj.states, traj.actions, traj.rewards
    return X, U, Rw


def _first_visits(idx: np.ndarray, n_pairs: int) -> np.ndarray:
    """Mask of the first occurrence of every pair within each row (episode)."""
    n, T = idx.shape
    keys = (np.arange(n)[:, None] * n_pairs + idx).ravel()
    _, first = np.unique(keys, return_index=True)
    mask = np.zeros(n * T, dtype=bool)
    mask[first] = True
    return mask.reshape(n, T)


def _suffix_weights(rho: np.ndarray) -> np.ndarray:
    """``W_t = Π_{j=t+1}^{T-1} ρ_j`` per row (suffix products; ``ρ_0`` unused, W_{T-1}=1)."""
    n = rho.shape[0]
    return np.concatenate([np.cumprod(rho[:, :0:-1], axis=1)[:, ::-1], np.ones((n, 1))],
                          axis=1)


def _average_into(Q, counts, idx, returns, mask=None) -> None:
    """Incremental averaging of the returns ``returns`` into the flat pairs ``idx``
    (the same number as one update ``Q += (R - Q)/(count + 1)`` per return)."""
    flatQ, flatC = Q.reshape(-1), counts.reshape(-1)
    idx, returns = np.ravel(idx), np.ravel(returns)
    if mask is not None:
        idx, returns = idx[np.ravel(mask)], returns[np.ravel(mask)]
    m = np.bincount(idx, minlength=flatQ.size)
    s = np.bincount(idx, weights=returns, minlength=flatQ.size)
    hit = m > 0
    flatC[hit] += m[hit]
    flatQ[hit] += (s[hit] - m[hit] * flatQ[hit]) / flatC[hit]


class OnPolicyMonteCarlo(_MonteCarlo):
    """On-policy Monte-Carlo control with ε-greedy policies (003 §14.4.1, Alg.8).

    Parameters
    ----------
    horizon : int, default 10
        ``T``, the length of every trajectory.
    epsilon : float in [0, 1], default 0.1
    n_episodes : int, default 1000
    first_visit : bool, default False
        Average only the first visit of each (x, a) per episode (default: every visit).
    improve : bool, default True
        After every episode make the policy ε-greedy around ``argmax_a Q(x, a)`` on the
        states seen so far (Alg.8 line 10). ``False`` evaluates the policy given to
        ``fit`` (fixed).
    random_state : None, int or Generator
    start : int, optional
        ``x_0`` (default: the MDP's initial distribution).

    Attributes
    ----------
    Q_ : ndarray (S, A)
        Averages of the returns ``R_t = (1/(T-t)) Σ_{i=t+1}^T τ_i`` per (x_t, a_t).
    counts_ : ndarray (S, A)
        Returns averaged per pair.
    policy_ : ndarray (S, A)
        The final sampling policy (ε-greedy on the visited states).
    greedy_ : ndarray (S,)
        The action each visited state's policy favours (an argmax of ``Q_``, ties broken
        at random); -1 for states never visited or without ``improve``.
    returns_ : ndarray (n_episodes,)
        ``R_0 = (1/T) Σ_{i=1}^T τ_i`` of every episode.
    policy_changes_ : ndarray (n_episodes,)
        States whose greedy action changed after each episode (0 without ``improve``).
    n_episodes_ : int
    """


    def __init__(self, *, horizon: int = 10, epsilon: float = 0.1, n_episodes: int = 1000,
                 first_visit: bool = False, improve: bool = True, random_state=None,
                 start=None) -> None:
        self.horizon = horizon
        self.epsilon = epsilon
        self.n_episodes = n_episodes
        self.first_visit = first_visit
        self.improve = improve
        self.random_state = random_state
        self.start = start

    def fit(self, env, policy=None) -> OnPolicyMonteCarlo:
        """Run ``n_episodes`` episodes; ``policy`` (S, A) or (S,) is the initial
        (``improve=True``) or evaluated (``improve=False``) policy, uniform by default
        (Alg.8 line 2)."""
        S, A, T, n, eps, improve, rng, sim = self._common(env)
        first = check_bool(self.first_visit, "first_visit")
        pi = np.full((S, A), 1.0 / A) if policy is None else \
            as_policy_matrix(policy, S, A).copy()
        Q = np.zeros((S, A))
        counts = np.zeros((S, A), dtype=np.int64)
        seen = np.zeros(S, dtype=bool)
        greedy = np.full(S, -1)
        returns = np.empty(n)
        changes = np.zeros(n, dtype=np.int64)
        # without improvement the policy is fixed: one batch of every episode
        for lo, hi in _batches(n, improve):
            X, U, Rw = _collect(sim, _cumulative(pi), T, hi - lo, rng)      # line 4
            R = _returns(Rw, None)                                          # line 6
            returns[lo:hi] = R[:, 0]
            idx = X[:, :-1] * A + U
            mask = _first_visits(idx, S * A) if first else None
            _average_into(Q, counts, idx, R, mask)                          # lines 7-8
            if improve:                                                     # line 10
                seen[X[0, :-1]] = True
                rows = np.flatnonzero(seen)
                best = _greedy_random_ties(Q, rows, rng)
                changes[lo] = int(np.sum(greedy[rows] != best))
                greedy[rows] = best
                pi[rows] = _epsilon_greedy_rows(best, eps, A)
        self.Q_, self.counts_, self.policy_, self.greedy_ = Q, counts, pi, greedy
        self.returns_, self.policy_changes_ = returns, changes
        self.n_episodes_, self.n_states_, self.n_actions_ = n, S, A
        return self


class OffPolicyMonteCarlo(_MonteCarlo):
    """Off-policy Monte-Carlo with importance sampling (003 §14.4.1, (14.16)-(14.18),
    Alg.9 corrected).

    The behaviour policy is ε-greedy around the deterministic target ``π``; the returns
    are reweighted by the ratios ``ρ_j = π(x_j, a_j)/p_j`` of the actions that follow
    ``a_t``.

    Parameters
    ----------
    horizon, epsilon, n_episodes, random_state, start : as :class:`OnPolicyMonteCarlo`
    weighting : {"ordinary", "weighted"}, default "ordinary"
        ``"ordinary"``: per-decision importance sampling, ``R_t = (1/(T-t)) Σ_{i>t} τ_i
        Π_{j=t+1}^{i-1} ρ_j`` averaged with counts. ``"weighted"``: the returns
        ``(1/(T-t)) Σ_{i>t} τ_i`` averaged with weights ``W_t = Π_{j=t+1}^{T-1} ρ_j``
        (``Q = Σ W R / Σ W``; consistent, biased for few episodes).
    improve : bool, default True
        After every episode set ``π(x) = argmax_a Q(x, a)`` (Alg.9 line 12; ties to the
        current action, then the lowest index). ``False`` evaluates the target given to
        ``fit``.

    Attributes
    ----------
    Q_ : ndarray (S, A)
    counts_ : ndarray (S, A)
        Returns averaged per pair (every visit).
    weights_ : ndarray (S, A)
        Sum of the importance weights per pair (``"weighted"`` only; else = counts_).
    policy_ : ndarray (S,)
        The target's actions at the end.
    behaviour_ : ndarray (S, A)
        The final ε-greedy behaviour policy.
    returns_ : ndarray (n_episodes,)
        The weighted ``R_0`` of every episode.
    """


    def __init__(self, *, horizon: int = 10, epsilon: float = 0.1, n_episodes: int = 1000,
                 weighting: str = "ordinary", improve: bool = True, random_state=None,
                 start=None) -> None:
        self.horizon = horizon
        self.epsilon = epsilon
        self.n_episodes = n_episodes
        self.weighting = weighting
        self.improve = improve
        self.random_state = random_state
        self.start = start

    def fit(self, env, policy=None) -> OffPolicyMonteCarlo:
        """Run ``n_episodes`` episodes; ``policy`` (S,) is the initial (or, with
        ``improve=False``, the evaluated) deterministic target, action 0 by default."""
        S, A, T, n, eps, improve, rng, sim = self._common(env)
        weighting = check_choice(self.weighting, "weighting", ("ordinary", "weighted"))
        if policy is None:
            target = np.zeros(S, dtype=np.intp)
        else:
            target = check_index_array(policy, "policy", A)
            if target.shape != (S,):
                raise ValueError(f"policy must hold one action per state ({S}), got "
                                 f"{target.shape[0]}.")
        if eps == 0.0:
            raise ValueError("epsilon must be > 0 for off-policy learning: the behaviour "
                             "policy must give every action a positive probability.")
        Q = np.zeros((S, A))
        counts = np.zeros((S, A), dtype=np.int64)
        weights = np.zeros((S, A))
        returns = np.empty(n)
        arange_s = np.arange(S)
        flatQ, flatW, flatC = Q.reshape(-1), weights.reshape(-1), counts.reshape(-1)
        for lo, hi in _batches(n, improve):
            b = _epsilon_greedy_rows(target, eps, A)           # the ε-greedy behaviour
            X, U, Rw = _collect(sim, _cumulative(b), T, hi - lo, rng)
            x = X[:, :-1]
            rho = np.where(U == target[x], 1.0 / b[x, U], 0.0)                # π/p
            idx = x * A + U
            if weighting == "ordinary":
                R = _returns(Rw, rho)
                _average_into(Q, counts, idx, R)
            else:
                R = _returns(Rw, None)
                W = _suffix_weights(rho)
                np.add.at(flatC, idx.ravel(), 1)
                sw = np.bincount(idx.ravel(), weights=W.ravel(), minlength=S * A)
                swr = np.bincount(idx.ravel(), weights=(W * R).ravel(), minlength=S * A)
                hit = sw > 0
                flatW[hit] += sw[hit]
                flatQ[hit] += (swr[hit] - sw[hit] * flatQ[hit]) / flatW[hit]
            returns[lo:hi] = R[:, 0]
            if improve:                                                    # line 12
                best = Q.max(axis=1, keepdims=True)
                keep = Q[arange_s, target] == best[:, 0]
                target = np.where(keep, target, np.argmax(Q == best, axis=1))
        if weighting == "ordinary":
            weights = counts.astype(np.float64)
        b = _epsilon_greedy_rows(target, eps, A)
        self.Q_, self.counts_, self.weights_ = Q, counts, weights
        self.policy_, self.behaviour_ = target, b
        self.returns_ = returns
        self.n_episodes_, self.n_states_, self.n_actions_ = n, S, A
        return self
