"""Temporal-difference control: Sarsa and Q-learning (003 §14.4.2 (14.20)–(14.21), Algs. 10–11).

Both learners keep a table ``Q`` of shape (S, A), act ε-greedily on it and, after each
step ``(x, a, r, x')``, move ``Q(x, a)`` towards a one-step target

    Q(x, a) ← Q(x, a) + α (target − Q(x, a))

with ``target = r + γ Q(x', a')``, ``a' = π^ε(x')`` the action that will be executed next
(Sarsa, 003 (14.21), Alg.10: on-policy), or ``target = r + γ max_{a'} Q(x', a')`` (Q-learning,
Alg.11 read as intended: off-policy, the executed action being ``a = π^ε(x)``). At a
terminal next state the target is ``r`` and a new episode starts from the start
distribution (the notes' loop never resets; episodes are the usual reading of an episodic
task). An episode cut by ``max_episode_length`` is truncated, not terminated: its last
target still bootstraps.

Random draws. Every step consumes one row of six uniforms drawn from one
``numpy.random.Generator`` in blocks of :data:`BLOCK` rows: ``[0]`` explore?, ``[1]`` which
action (a random action, or which of several tied greedy actions), ``[2]`` the transition,
``[3]``/``[4]`` the same pair for Sarsa's next action, ``[5]`` the start state when an
episode begins. On a :class:`TabularMDP` the step loop runs in a numba kernel over the
model's CSR sampler; the pure-Python loop (used for gymnasium environments and with
``record_history=True``) consumes the very same draws, so both give the same ``Q``.
"""

from __future__ import annotations

import math
import warnings

import numba
import numpy as np
from sklearn.exceptions import ConvergenceWarning, NotFittedError

from algorithms._validation import InvalidArgumentError, check_bool, check_int, check_real, make_rng
from algorithms.reinforcement._mdp import TabularMDP, _Learner, make_simulator

__all__ = ["QLearning", "Sarsa"]

#: Rows of uniforms drawn at a time (each step uses one row of six).
BLOCK = 4096
#: Caps: a request for more steps or episodes is refused, not attempted.
MAX_STEPS, MAX_EPISODES, MAX_EPISODE_LENGTH = 10**8, 10**7, 10**7
#: Steps of the pure-Python path allowed before it is refused (it is ~50x slower).
MAX_PYTHON_STEPS = 5 * 10**6
_N_DRAWS = 6


# ---------------------------------------------------------------------------------------
# the compiled step loop (TabularMDP)
# ---------------------------------------------------------------------------------------


@numba.njit(cache=True)
def _egreedy_nb(Q, x, eps, u_explore, u_pick):
    A = Q.shape[1]
    if u_explore < eps:
        a = int(u_pick * A)
        return a if a < A else A - 1
    best = Q[x, 0]
    for b in range(1, A):
        if Q[x, b] > best:
            best = Q[x, b]
    n_tied = 0
    for b in range(A):
        if Q[x, b] == best:
            n_tied += 1
    k = int(u_pick * n_tied)
    if k >= n_tied:
        k = n_tied - 1
    for b in range(A):
        if Q[x, b] == best:
            if k == 0:
                return b
            k -= 1
    return A - 1


@numba.njit(cache=True)
def _sample_row(indptr, cum, i, u):
    lo, hi = indptr[i], indptr[i + 1]
    k = lo
    while k < hi - 1 and cum[k] <= u:
        k += 1
    return k


@numba.njit(cache=True)
def _run_block(Q, n_sa, n_x, draws, state, indptr, indices, cum, rewards, terminal,
               cum_initial, start, qlearning, gamma, alpha, omega, epsilon, psi,
               max_len, max_episodes, returns_out):
    """Run the steps of one block of draws; ``state`` = [x, a, episode length, need
    reset, episodes done, unused, diverged] (int64) is updated in place and the running
    return is carried in the last entry of ``returns_out``. Returns the number of rows
    consumed and of episodes completed in this block (their returns written to
    ``returns_out``)."""
    S = Q.shape[0]
    x, a, ep_len, need_reset = state[0], state[1], state[2], state[3]
    episodes = state[4]
    n_done = 0
    ret = returns_out[returns_out.shape[0] - 1]
    rows = draws.shape[0]
    t = 0
    while t < rows:
        if max_episodes > 0 and episodes >= max_episodes:
            break
        u = draws[t]
        t += 1
        if need_reset == 1:
            if start >= 0:
                x = start
            else:
                x = np.searchsorted(cum_initial, u[5], side="right")
                if x > S - 1:
                    x = S - 1
            ep_len = 0
            ret = 0.0
            a = -1
            need_reset = 0
        if a < 0 or qlearning:
            n_x[x] += 1
            eps = epsilon * n_x[x] ** (-psi)
            a = _egreedy_nb(Q, x, eps, u[0], u[1])
        k = _sample_row(indptr, cum, a * S + x, u[2])
        r = rewards[k]
        nxt = indices[k]
        ep_len += 1
        ret += r
        done = terminal[nxt]
        n_sa[x, a] += 1
        step = alpha * n_sa[x, a] ** (-omega)
        nxt_a = -1
        if qlearning:
            boot = Q[nxt, 0]
            for b in range(1, Q.shape[1]):
                if Q[nxt, b] > boot:
                    boot = Q[nxt, b]
        else:
            if not done:
                n_x[nxt] += 1
                eps = epsilon * n_x[nxt] ** (-psi)
                nxt_a = _egreedy_nb(Q, nxt, eps, u[3], u[4])
                boot = Q[nxt, nxt_a]
            else:
                boot = 0.0
        target = r if done else r + gamma * boot
        before = Q[x, a]
        Q[x, a] = before + step * (target - before)
        if not math.isfinite(Q[x, a]):
            Q[x, a] = before  # keep the last finite table
            state[6] = 1
            break
        if done or ep_len >= max_len:
            returns_out[n_done] = ret
            n_done += 1
            episodes += 1
            need_reset = 1
        else:
            x = nxt
            a = nxt_a
    state[0], state[1], state[2], state[3] = x, a, ep_len, need_reset
    state[4] = episodes
    returns_out[returns_out.shape[0] - 1] = ret
    return t, n_done


# ---------------------------------------------------------------------------------------
# the learners
# ---------------------------------------------------------------------------------------


def validate_sarsa_hyperparameters(est, *, step_cap: int, length_cap: int) -> tuple:
    """The hyperparameters shared by the Sarsa-type learners (tabular and linear), checked:
    ``(gamma, alpha, epsilon, alpha_power, epsilon_power, max_episode_length, n_episodes,
    n_steps, record_history)``; ``n_steps`` defaults to 10 000, or to ``step_cap`` when
    episodes are counted instead."""
    gamma = check_real(est.gamma, "gamma", low=0.0, high=1.0, high_open=True)
    alpha = check_real(est.alpha, "alpha", low=0.0, low_open=True)
    epsilon = check_real(est.epsilon, "epsilon", low=0.0, high=1.0)
    omega = check_real(est.alpha_power, "alpha_power", low=0.0, high=1.0)
    psi = check_real(est.epsilon_power, "epsilon_power", low=0.0, high=1.0)
    max_len = check_int(est.max_episode_length, "max_episode_length", low=1, high=length_cap)
    n_episodes = (None if est.n_episodes is None else
                  check_int(est.n_episodes, "n_episodes", low=1, high=MAX_EPISODES))
    if est.n_steps is None:
        n_steps = 10_000 if n_episodes is None else step_cap
    else:
        n_steps = check_int(est.n_steps, "n_steps", low=1, high=step_cap)
    record = check_bool(est.record_history, "record_history")
    return gamma, alpha, epsilon, omega, psi, max_len, n_episodes, n_steps, record


class _TDControl(_Learner):
    """Shared machinery of :class:`Sarsa` and :class:`QLearning`."""

    _qlearning = False

    def __init__(self, *, gamma: float = 0.9, alpha: float = 0.1, epsilon: float = 0.1,
                 n_steps: int | None = None, n_episodes: int | None = None,
                 alpha_power: float = 0.0, epsilon_power: float = 0.0,
                 max_episode_length: int = 1000, start: int | None = None,
                 random_state=None, record_history: bool = False,
                 compiled: bool = True) -> None:
        self.gamma = gamma
        self.alpha = alpha
        self.epsilon = epsilon
        self.n_steps = n_steps
        self.n_episodes = n_episodes
        self.alpha_power = alpha_power
        self.epsilon_power = epsilon_power
        self.max_episode_length = max_episode_length
        self.start = start
        self.random_state = random_state
        self.record_history = record_history
        self.compiled = compiled

    # -- validation ------------------------------------------------------------------
    def _validate(self):
        params = validate_sarsa_hyperparameters(self, step_cap=MAX_STEPS,
                                                length_cap=MAX_EPISODE_LENGTH)
        return (*params, check_bool(self.compiled, "compiled"))

    # -- fitting ---------------------------------------------------------------------
    def fit(self, env) -> _TDControl:
        """Learn ``Q`` by interacting with ``env`` (a :class:`TabularMDP` or a gymnasium
        environment with discrete spaces); returns ``self``.

        Runs ``n_steps`` steps, or until ``n_episodes`` episodes have ended (within the
        ``n_steps`` cap when both are given).
        """
        (gamma, alpha, epsilon, omega, psi, max_len, n_episodes, n_steps, record,
         compiled) = self._validate()
        rng = make_rng(self.random_state)
        is_mdp = isinstance(env, TabularMDP)
        if is_mdp:
            S, A = env.n_states, env.n_actions
            start = -1 if self.start is None else check_int(self.start, "start", low=0,
                                                             high=S - 1)
            sim = None
        else:
            sim = make_simulator(env, rng, start=self.start)  # validates env and start
            S, A = sim.n_states, sim.n_actions
            start = -1
        if S * A > 10**8:
            raise InvalidArgumentError(f"env: an {S} x {A} Q table is too large (cap 1e8).")
        use_kernel = is_mdp and compiled and not record
        if not use_kernel and n_steps > MAX_PYTHON_STEPS:
            if n_episodes is None or self.n_steps is not None:
                raise InvalidArgumentError(
                    f"n_steps: {n_steps} steps on the pure-Python path (gymnasium env or "
                    f"record_history=True) exceed its cap {MAX_PYTHON_STEPS}.")
            n_steps = MAX_PYTHON_STEPS
        Q = np.zeros((S, A))
        n_sa = np.zeros((S, A))
        n_x = np.zeros(S)
        params = (gamma, alpha, omega, epsilon, psi, max_len,
                  0 if n_episodes is None else n_episodes)
        if use_kernel:
            returns, steps, diverged = self._fit_compiled(env, Q, n_sa, n_x, rng, start,
                                                          n_steps, params)
        else:
            returns, steps, diverged = self._fit_python(env if is_mdp else sim, is_mdp, Q,
                                                        n_sa, n_x, rng, start, n_steps,
                                                        params, record)
        self.Q_ = Q
        self.policy_ = np.argmax(Q, axis=1)
        self.n_steps_ = int(steps)
        self.episode_returns_ = np.asarray(returns, dtype=np.float64)
        self.n_episodes_ = int(self.episode_returns_.size)
        self.visits_ = n_sa
        self.diverged_ = bool(diverged)
        done = n_episodes is None or self.n_episodes_ >= n_episodes
        self.converged_ = bool(done and not diverged)
        if diverged:
            warnings.warn(f"{type(self).__name__}: Q became non-finite after "
                          f"{self.n_steps_} steps (step size alpha={alpha} too large for "
                          f"these rewards?); the last finite table is kept.",
                          ConvergenceWarning, stacklevel=2)
        elif not done:
            warnings.warn(f"{type(self).__name__}: only {self.n_episodes_} of {n_episodes} "
                          f"episodes ended within {n_steps} steps (episodes that never reach "
                          "a terminal state run to max_episode_length).",
                          ConvergenceWarning, stacklevel=2)
        return self

    def _fit_compiled(self, mdp, Q, n_sa, n_x, rng, start, n_steps, params):
        indptr, indices, cum, rewards = mdp._build_sampler()
        indptr = np.ascontiguousarray(indptr, dtype=np.int64)
        indices = np.ascontiguousarray(indices, dtype=np.int64)
        cum_initial = np.cumsum(mdp.initial)
        terminal = np.ascontiguousarray(mdp.terminal)
        gamma, alpha, omega, epsilon, psi, max_len, max_episodes = params
        state = np.array([0, -1, 0, 1, 0, 0, 0], dtype=np.int64)
        buf = np.zeros(BLOCK + 1)
        returns, steps = [], 0
        while steps < n_steps:
            rows = min(BLOCK, n_steps - steps)
            draws = rng.random((rows, _N_DRAWS))
            used, n_done = _run_block(Q, n_sa, n_x, draws, state, indptr, indices, cum,
                                      rewards, terminal, cum_initial, start,
                                      self._qlearning, gamma, alpha, omega, epsilon, psi,
                                      max_len, max_episodes, buf)
            returns.extend(buf[:n_done].tolist())
            steps += used
            if state[6]:
                return returns, steps, True
            if used < rows or (max_episodes and state[4] >= max_episodes):
                break  # the kernel stopped early: the requested episodes are done
        return returns, steps, False

    def _fit_python(self, env, is_mdp, Q, n_sa, n_x, rng, start, n_steps, params, record):
        gamma, alpha, omega, epsilon, psi, max_len, max_episodes = params
        S, A = Q.shape
        if is_mdp:
            cum_initial = np.cumsum(env.initial)
            terminal = env.terminal
        hist = {k: [] for k in ("state", "action", "reward", "next_state", "next_action",
                                "target", "step_size", "q_before", "q_after", "done")}
        returns, steps, episodes = [], 0, 0
        x, a, ep_len, need_reset, ret = 0, -1, 0, True, 0.0
        while steps < n_steps:
            draws = rng.random((min(BLOCK, n_steps - steps), _N_DRAWS))
            for u in draws:
                if max_episodes and episodes >= max_episodes:
                    break
                steps += 1
                if need_reset:
                    if is_mdp:
                        x = start if start >= 0 else min(
                            int(np.searchsorted(cum_initial, u[5], side="right")), S - 1)
                    else:
                        x = env.reset()
                    ep_len, ret, a, need_reset = 0, 0.0, -1, False
                if a < 0 or self._qlearning:
                    n_x[x] += 1
                    a = _egreedy(Q, x, epsilon * n_x[x] ** (-psi), u[0], u[1])
                if is_mdp:
                    r, nxt = env.sample_next(x, a, u[2])
                    done = bool(terminal[nxt])
                else:
                    r, nxt, done = env.step(a)
                # a time limit ends the episode but not the task: keep bootstrapping
                cut = done and not is_mdp and env.truncated
                ep_len += 1
                ret += r
                n_sa[x, a] += 1
                step = alpha * n_sa[x, a] ** (-omega)
                nxt_a = -1
                if self._qlearning:
                    boot = Q[nxt].max()
                elif not done or cut:
                    n_x[nxt] += 1
                    nxt_a = _egreedy(Q, nxt, epsilon * n_x[nxt] ** (-psi), u[3], u[4])
                    boot = Q[nxt, nxt_a]
                else:
                    boot = 0.0
                target = r if done and not cut else r + gamma * boot
                before = Q[x, a]
                with np.errstate(over="ignore", invalid="ignore"):
                    Q[x, a] = before + step * (target - before)
                if record:
                    for k, v in zip(hist, (x, a, r, nxt, nxt_a, target, step, before,
                                           Q[x, a], done), strict=True):
                        hist[k].append(v)
                if not math.isfinite(Q[x, a]):
                    Q[x, a] = before  # keep the last finite table
                    self._store_history(hist, record)
                    return returns, steps, True
                if done or ep_len >= max_len:
                    returns.append(ret)
                    episodes += 1
                    need_reset = True
                else:
                    x, a = nxt, nxt_a
            if max_episodes and episodes >= max_episodes:
                break
        self._store_history(hist, record)
        return returns, steps, False

    def _store_history(self, hist, record):
        if record:
            kinds = {"state": np.intp, "action": np.intp, "next_state": np.intp,
                     "next_action": np.intp, "done": bool}
            self.history_ = {k: np.asarray(v, dtype=kinds.get(k, np.float64))
                             for k, v in hist.items()}

    # -- use -------------------------------------------------------------------------
    def _check_fitted(self):
        if not hasattr(self, "Q_"):
            raise NotFittedError(f"This {type(self).__name__} instance is not fitted yet; "
                                 "call fit(env) first.")

    def predict(self, states) -> np.ndarray:
        """The greedy action ``argmax_a Q(x, a)`` of each state in ``states``."""
        self._check_fitted()
        from algorithms._validation import check_index_array

        idx = check_index_array(states, "states", self.Q_.shape[0])
        return self.policy_[idx]


def _egreedy(Q, x, eps, u_explore, u_pick) -> int:
    """ε-greedy action in state ``x`` (Python twin of the compiled one: same draws, same
    action): uniform over all actions with probability ε, otherwise a greedy action,
    ties broken uniformly by the same draw."""
    A = Q.shape[1]
    if u_explore < eps:
        return min(int(u_pick * A), A - 1)
    tied = np.flatnonzero(Q[x] == Q[x].max())
    return int(tied[min(int(u_pick * tied.size), tied.size - 1)])


_DOC_PARAMS = """
    Parameters
    ----------
    gamma : float in [0, 1), default 0.9
        Discount γ of the cumulative reward (003 §14.3, γ-discounted criterion).
    alpha : float > 0, default 0.1
        Step size α (003 (14.19)–(14.21)).
    epsilon : float in [0, 1], default 0.1
        Exploration rate ε of the behaviour policy π^ε (a uniformly random action with
        probability ε, a greedy one otherwise; ties broken at random).
    n_steps : int, optional
        Number of environment steps (default 10 000 when ``n_episodes`` is not given, else
        the cap 1e8). Capped at 1e8 (5e6 on the pure-Python path).
    n_episodes : int, optional
        Stop after this many episodes (terminal state or ``max_episode_length`` steps).
    alpha_power : float in [0, 1], default 0
        ω of the step-size schedule α_n = α n(x, a)^(-ω), n(x, a) the number of updates of
        (x, a) so far including this one (0: constant α; ω in (1/2, 1] meets the
        Robbins–Monro conditions).
    epsilon_power : float in [0, 1], default 0
        ψ of the exploration schedule ε(x) = ε n(x)^(-ψ), n(x) the number of actions chosen
        in x so far including this one (0: constant ε; ψ > 0 is greedy in the limit).
    max_episode_length : int, default 1000
        An episode is truncated (not terminated: the last target bootstraps) after this
        many steps.
    start : int, optional
        Fixed start state x_0 (the notes' input); default: drawn from ``env.initial``.
    random_state : None, int or Generator
    record_history : bool, default False
        Record every update (pure-Python path) in ``history_``.
    compiled : bool, default True
        On a TabularMDP run the numba kernel (same draws, same result as Python).

    Attributes
    ----------
    Q_ : ndarray of shape (S, A)
        The learnt table (on divergence, the last finite one).
    policy_ : ndarray of shape (S,)
        Greedy actions argmax_a Q_(x, a) (lowest index on ties).
    n_steps_, n_episodes_ : int
    episode_returns_ : ndarray
        Undiscounted sum of rewards of each finished episode.
    visits_ : ndarray of shape (S, A)
        Number of updates of each entry.
    converged_ : bool
        The requested episodes all ended and Q stayed finite.
    diverged_ : bool
    history_ : dict of arrays (with ``record_history=True``)
        Per update: state, action, reward, next_state, next_action (Sarsa's a', -1
        otherwise), target, step_size, q_before, q_after, done.
"""


class Sarsa(_TDControl):
    __doc__ = ("""On-policy TD control, Sarsa (003 §14.4.2 (14.21), Alg.10).

    After each step ``(x, a, r, x')`` the next action ``a' = π^ε(x')`` is chosen, then
    ``Q(x, a) ← Q(x, a) + α (r + γ Q(x', a') − Q(x, a))`` (target ``r`` when ``x'`` is
    terminal) and ``a'`` is executed next.
""" + _DOC_PARAMS)

    _qlearning = False


class QLearning(_TDControl):
    __doc__ = ("""Off-policy TD control, Q-learning (003 §14.4.2 Alg.11, corrected).

    In state ``x`` the executed action is ``a = π^ε(x)``; after ``(x, a, r, x')``,
    ``Q(x, a) ← Q(x, a) + α (r + γ max_{a'} Q(x', a') − Q(x, a))`` (target ``r`` when ``x'``
    is terminal). The printed Alg.11 updates the previous iteration's ``a'`` with the Sarsa
    target; see the claim ``td.qlearning_alg11_as_printed``.
""" + _DOC_PARAMS)

    _qlearning = True
