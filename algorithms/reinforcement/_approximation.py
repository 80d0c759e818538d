"""Linear value-function approximation (003 §14.5 (14.22)–(14.26), Alg.12).

States keep their indices ``0..S-1`` (a :class:`TabularMDP` or a gymnasium environment with
discrete spaces); the learner sees them through a feature matrix ``features`` of shape
(S, d), row ``x`` being the state vector φ(x) that the notes write ``x``. The value
function is ``V_θ(x) = θᵀφ(x)`` (14.22).

* :class:`LinearValueRegression` — (14.25): stochastic gradient descent on the weighted
  squared error (14.23) when the true values ``V^π`` are known: ``θ ← θ + α (V^π(x) −
  θᵀφ(x)) φ(x)`` with ``x`` drawn from a sampling distribution ``d``.
* :class:`LinearTD` — (14.26): TD(0) evaluation of a given policy, ``θ ← θ + α (r + γ
  θᵀφ(x') − θᵀφ(x)) φ(x)`` (target ``r`` at a terminal ``x'``), compiled with numba.
* :func:`lstd` — the fixed point of the expected TD(0) update in closed form,
  ``A θ = b`` with ``A = Φᵀ D (Φ − γ P_π Φ)``, ``b = Φᵀ D r_π``.
* :class:`LinearSarsa` — Alg.12: ``Q_θ(x, a) = θᵀ(x; a)`` with the state features placed in
  the block of action ``a`` (one-hot action blocks), ε-greedy on ``Q_θ``, semi-gradient
  Sarsa update. It uses the same draws as :class:`algorithms.reinforcement.Sarsa`, so with
  ``features = I`` the two take the same steps.
"""

from __future__ import annotations

import math
import warnings
from dataclasses import dataclass

import numba
import numpy as np
import scipy.linalg
import scipy.sparse as sp
from sklearn.exceptions import ConvergenceWarning, NotFittedError

from algorithms._validation import (
    InvalidArgumentError,
    check_array_argument,
    check_bool,
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
from algorithms.reinforcement._td import (
    BLOCK,
    MAX_PYTHON_STEPS,
    MAX_STEPS,
    _egreedy,
    validate_sarsa_hyperparameters,
)

__all__ = ["LSTDResult", "LinearSarsa", "LinearTD", "LinearValueRegression", "lstd",
           "on_policy_distribution"]

#: Feature magnitudes outside [1e-100, 1e100] are refused (rescale them): the step
#: α‖φ‖² of a gradient method is meaningless there.
_FEATURE_RANGE = (1e-100, 1e100)


def _check_features(features, n_states: int | None, scale_check: bool = True) -> np.ndarray:
    Phi = check_array_argument(features, "features", ndim=2, real=True)
    if n_states is not None and Phi.shape[0] != n_states:
        raise ValueError(f"features must have one row per state ({n_states}), got shape "
                         f"{Phi.shape}.")
    if Phi.shape[1] > 10**5:
        raise ValueError(f"features: {Phi.shape[1]} columns is too many (cap 1e5).")
    top = float(np.abs(Phi).max())
    if top == 0.0:
        raise ValueError("features must not be all zero.")
    if scale_check and not (_FEATURE_RANGE[0] <= top <= _FEATURE_RANGE[1]):
        raise ValueError(f"features must have magnitudes in [1e-100, 1e100] (largest "
                         f"|φ| = {top:.3g}); rescale them.")
    return Phi


def _check_policy(policy, S: int, A: int) -> np.ndarray:
    return as_policy_matrix(policy, S, A, name="policy")


# ---------------------------------------------------------------------------------------
# on-policy distribution and LSTD
# ---------------------------------------------------------------------------------------


def _dense(M) -> np.ndarray:
    return M.toarray() if sp.issparse(M) else np.asarray(M)


def on_policy_distribution(mdp: TabularMDP, policy, *, kind: str = "auto",
                           gamma: float | None = None) -> np.ndarray:
    """The distribution ``d`` over states that on-policy sampling visits.

    ``kind``:

    * ``"stationary"`` — ``dᵀ P_π = dᵀ``, ``Σ d = 1`` (a continuing task: TD(0) run along
      one long trajectory samples states from it), solved by least squares on the stacked
      system ``[P_πᵀ − I; 1ᵀ] d = [0; 1]`` (unique when the chain has one recurrent class);
    * ``"visits"`` — expected number of visits per episode to each non-terminal state,
      ``dᵀ (I − P_π)|_N = μ₀|_N`` normalised (an episodic task restarted from ``μ₀`` at each
      terminal state: that is what the TD updates are averaged over; terminal states get 0);
    * ``"discounted"`` — ``d = (1 − γ) μ₀ᵀ (I − γ P_π)^{-1}`` (needs ``gamma``);
    * ``"auto"`` — ``"visits"`` when the MDP has terminal states, else ``"stationary"``.
    """
    if not isinstance(mdp, TabularMDP):
        raise InvalidArgumentError(f"mdp must be a TabularMDP, got {type(mdp).__name__}.")
    S = mdp.n_states
    if S > 20_000:
        raise ValueError(f"mdp: {S} states is too many for a dense solve (cap 20000).")
    kind_ = kind if isinstance(kind, str) else None
    if kind_ not in ("auto", "stationary", "visits", "discounted"):
        raise ValueError(f"kind must be one of ('auto', 'stationary', 'visits', "
                         f"'discounted'), got {kind!r}.")
    P_pi, _ = mdp.policy_model(_check_policy(policy, S, mdp.n_actions))
    P_pi = _dense(P_pi)
    if kind_ == "auto":
        kind_ = "visits" if mdp.terminal.any() else "stationary"
    if kind_ == "stationary":
        M = np.vstack([P_pi.T - np.eye(S), np.ones((1, S))])
        rhs = np.zeros(S + 1)
        rhs[-1] = 1.0
        d = scipy.linalg.lstsq(M, rhs)[0]
    elif kind_ == "visits":
        live = ~mdp.terminal
        if not live.any():
            raise ValueError("mdp: every state is terminal.")
        M = np.eye(int(live.sum())) - P_pi[np.ix_(live, live)]
        d = np.zeros(S)
        d[live] = scipy.linalg.solve(M.T, mdp.initial[live])
    else:
        if gamma is None:
            raise ValueError("gamma is required for kind='discounted'.")
        g = check_real(gamma, "gamma", low=0.0, high=1.0, high_open=True)
        d = (1.0 - g) * scipy.linalg.solve((np.eye(S) - g * P_pi).T, mdp.initial)
    d = np.clip(d, 0.0, None)
    return d / d.sum()


@dataclass(frozen=True)
class LSTDResult:
    """The LSTD solution: ``theta`` with ``A θ = b``; ``V = Φ θ``; ``weighting`` = D's
    diagonal; ``rank_deficient`` when ``A`` was singular and least squares was used."""

    theta: np.ndarray
    A: np.ndarray
    b: np.ndarray
    V: np.ndarray
    weighting: np.ndarray
    rank_deficient: bool


def lstd(mdp: TabularMDP, policy, features, gamma: float, *, weighting=None) -> LSTDResult:
    """Least-squares TD: the fixed point of linear TD(0) (003 §14.5 (14.26)) in closed form.

    The expected TD(0) update is ``E[δ φ(x)] = b − A θ`` with

        A = Φᵀ D (Φ − γ P_π Φ̃),   b = Φᵀ D r_π,

    ``D = diag(d)`` the on-policy state distribution and ``Φ̃`` the features with the rows
    of terminal states set to 0 (a terminal next state contributes the target ``r`` only).
    ``weighting=None`` takes ``d`` from :func:`on_policy_distribution` (``kind="auto"``:
    stationary for a continuing task, expected visits per episode for an episodic one),
    because on-policy TD(0) visits states with those frequencies and its expected update is
    weighted by them; an (S,) array gives ``d`` explicitly. Solved with
    ``scipy.linalg.solve``, or ``lstsq`` (minimum norm) when ``A`` is singular. The features
    are scaled by their largest magnitude before solving (the solution is scale-covariant).
    """
    if not isinstance(mdp, TabularMDP):
        raise InvalidArgumentError(f"mdp must be a TabularMDP, got {type(mdp).__name__}.")
    S, A_n = mdp.n_states, mdp.n_actions
    gamma = check_real(gamma, "gamma", low=0.0, high=1.0, high_open=True)
    pi = _check_policy(policy, S, A_n)
    Phi = _check_features(features, S)
    if weighting is None:
        d = on_policy_distribution(mdp, pi)
    else:
        d = check_array_argument(weighting, "weighting", shape=(S,), real=True)
        if np.any(d < 0) or d.sum() <= 0:
            raise ValueError("weighting must be non-negative with a positive sum.")
        d = d / d.sum()
    scale = float(np.abs(Phi).max())
    F = Phi / scale
    P_pi, r_pi = mdp.policy_model(pi)
    F_next = F.copy()
    F_next[mdp.terminal] = 0.0
    PF = np.asarray(P_pi @ F_next)
    DF = F * d[:, None]
    A = DF.T @ (F - gamma * PF)
    b = DF.T @ r_pi
    singular = np.linalg.cond(A) > 1e12
    if singular:
        theta_s = scipy.linalg.lstsq(A, b)[0]
    else:
        theta_s = scipy.linalg.solve(A, b)
    theta = theta_s / scale
    # report A, b for the caller's features (A scales with scale**2, b with scale)
    return LSTDResult(theta=theta, A=A * scale**2, b=b * scale, V=F @ theta_s, weighting=d,
                      rank_deficient=bool(singular))


# ---------------------------------------------------------------------------------------
# compiled kernels
# ---------------------------------------------------------------------------------------


@numba.njit(cache=True)
def _regression_kernel(theta, Phi, values, idx, alpha, omega, t0, avg, avg_from):
    d = theta.shape[0]
    for k in range(idx.shape[0]):
        t = t0 + k + 1
        x = idx[k]
        pred = 0.0
        for j in range(d):
            pred += theta[j] * Phi[x, j]
        step = alpha * t ** (-omega)
        err = values[x] - pred
        for j in range(d):
            theta[j] += step * err * Phi[x, j]
        if t > avg_from:
            w = 1.0 / (t - avg_from)
            for j in range(d):
                avg[j] += w * (theta[j] - avg[j])
    return 0


@numba.njit(cache=True)
def _td_kernel(theta, Phi, draws, state, pi_cum, indptr, indices, cum, rewards, terminal,
               cum_initial, start, gamma, alpha, omega, max_len, avg, avg_from, t0):
    """Linear TD(0) steps over one block of draws. ``state`` = [x, episode length, need
    reset, diverged]. Returns the number of rows consumed."""
    S = Phi.shape[0]
    d = Phi.shape[1]
    A = pi_cum.shape[1]
    x, ep_len, need_reset = state[0], state[1], state[2]
    rows = draws.shape[0]
    t = 0
    while t < rows:
        u = draws[t]
        t += 1
        if need_reset == 1:
            if start >= 0:
                x = start
            else:
                x = np.searchsorted(cum_initial, u[2], side="right")
                if x > S - 1:
                    x = S - 1
            ep_len = 0
            need_reset = 0
        a = 0
        while a < A - 1 and pi_cum[x, a] <= u[0]:
            a += 1
        i = a * S + x
        k = indptr[i]
        while k < indptr[i + 1] - 1 and cum[k] <= u[1]:
            k += 1
        r = rewards[k]
        nxt = indices[k]
        done = terminal[nxt]
        v = 0.0
        v_next = 0.0
        for j in range(d):
            v += theta[j] * Phi[x, j]
            v_next += theta[j] * Phi[nxt, j]
        target = r if done else r + gamma * v_next
        step = alpha * (t0 + t) ** (-omega)
        delta = target - v
        for j in range(d):
            theta[j] += step * delta * Phi[x, j]
        finite = True
        for j in range(d):
            if not math.isfinite(theta[j]):
                finite = False
        if not finite:
            state[3] = 1
            break
        tt = t0 + t
        if tt > avg_from:
            w = 1.0 / (tt - avg_from)
            for j in range(d):
                avg[j] += w * (theta[j] - avg[j])
        ep_len += 1
        if done or (max_len > 0 and ep_len >= max_len):
            need_reset = 1
        else:
            x = nxt
    state[0], state[1], state[2] = x, ep_len, need_reset
    return t


# ---------------------------------------------------------------------------------------
# learners
# ---------------------------------------------------------------------------------------


class _Base(_Learner):

    def _check_fitted(self) -> None:
        if not hasattr(self, "theta_"):
            raise NotFittedError(f"This {type(self).__name__} instance is not fitted yet; "
                                 "call fit first.")


class _LinearValue(_Base):
    """A fitted linear state-value function ``V_θ(x) = θᵀφ(x)`` (003 §14.5 (14.22))."""

    def predict(self, features) -> np.ndarray:
        """``V_θ(x) = θᵀφ(x)`` for each row of ``features``."""
        self._check_fitted()
        Phi = check_array_argument(features, "features", ndim=2, real=True)
        if Phi.shape[1] != self.theta_.shape[0]:
            raise ValueError(f"features must have {self.theta_.shape[0]} columns.")
        return Phi @ self.theta_


class LinearValueRegression(_LinearValue):
    """SGD on the weighted squared error (14.23) with known values (003 §14.5 (14.25)).

    Each step draws a state ``x ~ d`` and applies ``θ ← θ + α_t (V^π(x) − θᵀφ(x)) φ(x)``
    (the factor 2 of the gradient (14.24) absorbed into α), ``α_t = α t^(-ω)``. With
    ``Σ α_t = ∞``, ``Σ α_t² < ∞`` (ω in (1/2, 1]) the iterates converge to the minimiser of
    ``Σ_x d(x) (V^π(x) − θᵀφ(x))²``; ``averaged_theta_`` is the Polyak–Ruppert average of
    the iterates of the second half of the run.

    Parameters
    ----------
    alpha : float > 0, default 0.1
    alpha_power : float in [0, 1], default 0.6
    n_steps : int, default 100 000 (cap 1e8)
    random_state : None, int or Generator
    record_history : bool, default False
        Keep θ after every ``history_every`` steps in ``theta_history_``.
    history_every : int, default 100

    Attributes
    ----------
    theta_, averaged_theta_ : ndarray of shape (d,)
    theta_history_ : ndarray of shape (k, d) (with ``record_history``)
    n_steps_ : int
    converged_ : bool (True: θ stayed finite)
    """


    def __init__(self, *, alpha: float = 0.1, alpha_power: float = 0.6,
                 n_steps: int = 100_000, random_state=None, record_history: bool = False,
                 history_every: int = 100) -> None:
        self.alpha = alpha
        self.alpha_power = alpha_power
        self.n_steps = n_steps
        self.random_state = random_state
        self.record_history = record_history
        self.history_every = history_every

    def fit(self, features, values, sample_weight=None) -> LinearValueRegression:
        """``features`` (S, d) rows φ(x); ``values`` (S,) the known V^π(x); ``sample_weight``
        (S,) the sampling distribution d (uniform by default)."""
        alpha = check_real(self.alpha, "alpha", low=0.0, low_open=True)
        omega = check_real(self.alpha_power, "alpha_power", low=0.0, high=1.0)
        n = check_int(self.n_steps, "n_steps", low=1, high=MAX_STEPS)
        record = check_bool(self.record_history, "record_history")
        every = check_int(self.history_every, "history_every", low=1, high=MAX_STEPS)
        Phi = _check_features(features, None)
        S = Phi.shape[0]
        V = check_array_argument(values, "values", shape=(S,), real=True)
        if sample_weight is None:
            d = np.full(S, 1.0 / S)
        else:
            d = check_array_argument(sample_weight, "sample_weight", shape=(S,), real=True)
            if np.any(d < 0) or not d.sum() > 0:
                raise ValueError("sample_weight must be non-negative with a positive sum.")
            d = d / d.sum()
        rng = make_rng(self.random_state)
        scale = float(np.abs(V).max()) or 1.0  # θ_t is linear in V: run on V/scale
        Vs = V / scale
        theta = np.zeros(Phi.shape[1])
        avg = np.zeros_like(theta)
        history = [theta.copy()] if record else None
        cum = np.cumsum(d)
        done, avg_from = 0, n // 2
        chunk = every if record else 1 << 16
        while done < n:
            m = min(chunk, n - done)
            idx = np.minimum(np.searchsorted(cum, rng.random(m), side="right"), S - 1)
            _regression_kernel(theta, Phi, Vs, idx.astype(np.int64), alpha, omega,
                               float(done), avg, float(avg_from))
            done += m
            if record:
                history.append(theta.copy())
            if not np.all(np.isfinite(theta)):
                break
        finite = bool(np.all(np.isfinite(theta)))
        if not finite:
            warnings.warn("LinearValueRegression: θ diverged (step size too large for these "
                          "features); θ reset to its last finite average.",
                          ConvergenceWarning, stacklevel=2)
            theta = np.nan_to_num(avg)
        self.theta_ = theta * scale
        self.averaged_theta_ = avg * scale
        self.n_steps_ = int(done)
        self.converged_ = finite
        if record:
            self.theta_history_ = np.array(history) * scale
        return self



class LinearTD(_LinearValue):
    """Linear TD(0) policy evaluation (003 §14.5 (14.22), (14.26)).

    Follows ``policy`` in ``env`` (one long trajectory; episodes restart from the start
    distribution at terminal states) and after each step ``(x, r, x')`` applies

        θ ← θ + α_t (r + γ θᵀφ(x') − θᵀφ(x)) φ(x),   α_t = α t^(-ω)

    (target ``r`` at a terminal ``x'``). With ω in (1/2, 1] the iterates converge to the
    LSTD fixed point (:func:`lstd`) weighted by the on-policy distribution;
    ``averaged_theta_`` is the Polyak–Ruppert average of the second half of the run. On a
    :class:`TabularMDP` the loop is compiled (numba); a gymnasium env is stepped in Python.
    Draws: one row of three uniforms per step (action from π, transition, start state).

    Parameters
    ----------
    gamma : float in [0, 1), default 0.9
    alpha : float > 0, default 0.05
    alpha_power : float in [0, 1], default 0.0
    n_steps : int, default 100 000 (cap 1e8; 5e6 for a gymnasium env)
    max_episode_length : int, optional
        Truncate (restart) an episode after this many steps (default: never).
    start : int, optional
    random_state : None, int or Generator
    record_history : bool, default False
        Keep θ every ``history_every`` steps in ``theta_history_``.
    history_every : int, default 1000

    Attributes
    ----------
    theta_, averaged_theta_ : ndarray of shape (d,)
    theta_history_ : ndarray (with ``record_history``)
    n_steps_ : int
    converged_, diverged_ : bool
    """


    def __init__(self, *, gamma: float = 0.9, alpha: float = 0.05, alpha_power: float = 0.0,
                 n_steps: int = 100_000, max_episode_length: int | None = None,
                 start: int | None = None, random_state=None, record_history: bool = False,
                 history_every: int = 1000) -> None:
        self.gamma = gamma
        self.alpha = alpha
        self.alpha_power = alpha_power
        self.n_steps = n_steps
        self.max_episode_length = max_episode_length
        self.start = start
        self.random_state = random_state
        self.record_history = record_history
        self.history_every = history_every

    def fit(self, env, policy, features) -> LinearTD:
        """Evaluate ``policy`` ((S, A) matrix or (S,) actions) in ``env`` with the state
        features ``features`` (S, d)."""
        gamma = check_real(self.gamma, "gamma", low=0.0, high=1.0, high_open=True)
        alpha = check_real(self.alpha, "alpha", low=0.0, low_open=True)
        omega = check_real(self.alpha_power, "alpha_power", low=0.0, high=1.0)
        n = check_int(self.n_steps, "n_steps", low=1, high=MAX_STEPS)
        max_len = (0 if self.max_episode_length is None else
                   check_int(self.max_episode_length, "max_episode_length", low=1,
                             high=MAX_STEPS))
        record = check_bool(self.record_history, "record_history")
        every = check_int(self.history_every, "history_every", low=1, high=10**6)
        rng = make_rng(self.random_state)
        is_mdp = isinstance(env, TabularMDP)
        if is_mdp:
            S, A = env.n_states, env.n_actions
            start = -1 if self.start is None else check_int(self.start, "start", low=0,
                                                             high=S - 1)
        else:
            sim = make_simulator(env, rng, start=self.start)
            S, A = sim.n_states, sim.n_actions
            if n > MAX_PYTHON_STEPS:
                raise ValueError(f"n_steps: {n} steps on a gymnasium env exceed the cap "
                                 f"{MAX_PYTHON_STEPS}.")
        pi = _check_policy(policy, S, A)
        Phi = _check_features(features, S)
        theta = np.zeros(Phi.shape[1])
        avg = np.zeros_like(theta)
        history = [theta.copy()] if record else None
        avg_from = n // 2
        pi_cum = np.cumsum(pi, axis=1)
        diverged = False
        if is_mdp:
            indptr, indices, cum, rewards = env._build_sampler()
            indptr = np.ascontiguousarray(indptr, dtype=np.int64)
            indices = np.ascontiguousarray(indices, dtype=np.int64)
            state = np.array([0, 0, 1, 0], dtype=np.int64)
            cum_initial = np.cumsum(env.initial)
            done = 0
            chunk = every if record else BLOCK
            while done < n:
                draws = rng.random((min(chunk, n - done), 3))
                used = _td_kernel(theta, Phi, draws, state, pi_cum, indptr, indices, cum,
                                  rewards, env.terminal, cum_initial, start, gamma, alpha,
                                  omega, max_len, avg, float(avg_from), float(done))
                done += used
                if record and done % every == 0:
                    history.append(theta.copy())
                if state[3]:
                    diverged = True
                    break
        else:
            done, x, ep_len = 0, sim.reset(), 0
            while done < n and not diverged:
                for u in rng.random((min(BLOCK, n - done), 3)):
                    a = min(int(np.searchsorted(pi_cum[x], u[0], side="right")), A - 1)
                    r, nxt, end = sim.step(a)
                    target = r if end else r + gamma * theta @ Phi[nxt]
                    done += 1
                    with np.errstate(over="ignore", invalid="ignore"):
                        theta = theta + alpha * done ** (-omega) * (target - theta @ Phi[x]
                                                                    ) * Phi[x]
                    if not np.all(np.isfinite(theta)):
                        diverged = True
                        break
                    if done > avg_from:
                        avg += (theta - avg) / (done - avg_from)
                    if record and done % every == 0:
                        history.append(theta.copy())
                    ep_len += 1
                    if end or (max_len and ep_len >= max_len):
                        x, ep_len = sim.reset(), 0
                    else:
                        x = nxt
        if diverged:
            warnings.warn("LinearTD: θ became non-finite (step size too large for these "
                          "features and rewards); stopped, θ set to 0.",
                          ConvergenceWarning, stacklevel=2)
            theta = np.zeros_like(theta)
            avg = np.nan_to_num(avg, nan=0.0, posinf=0.0, neginf=0.0)
        self.theta_ = theta
        self.averaged_theta_ = avg
        self.n_steps_ = int(done)
        self.diverged_ = diverged
        self.converged_ = not diverged
        if record:
            self.theta_history_ = np.array(history)
        return self



class LinearSarsa(_Base):
    """Sarsa with a linear action-value function (003 §14.5 Alg.12).

    ``Q_θ(x, a) = θᵀ(x; a)`` where ``(x; a)`` places φ(x) in the block of action ``a`` of a
    vector of length ``A·d`` (zeros elsewhere), so ``θ`` is stored as an (A, d) array
    ``theta_`` with ``Q_θ(x, a) = θ_a·φ(x)``. The behaviour is ε-greedy on ``Q_θ`` and after
    ``(x, a, r, x')`` with ``a' = π^ε(x')``

        θ ← θ + α (r + γ θᵀ(x'; a') − θᵀ(x; a)) (x; a)

    (target ``r`` at a terminal ``x'``). Episodes, schedules and random draws exactly as
    in :class:`algorithms.reinforcement.Sarsa` (same rows of uniforms, same use), so with
    ``features = I`` both take the same steps. Divergence guard: θ is checked after each
    update; on a non-finite value the run stops with a ConvergenceWarning and the last
    finite θ is kept.

    Parameters
    ----------
    gamma, alpha, epsilon, n_steps, n_episodes, alpha_power, epsilon_power,
    max_episode_length, start, random_state, record_history
        As for :class:`algorithms.reinforcement.Sarsa`; ``alpha_power`` uses the count of
        updates of the pair (x, a) as there.

    Attributes
    ----------
    theta_ : ndarray of shape (A, d)
    Q_ : ndarray of shape (S, A)  (``Φ θᵀ``)
    policy_ : ndarray of shape (S,)
    n_steps_, n_episodes_ : int
    episode_returns_ : ndarray
    converged_, diverged_ : bool
    history_ : dict of arrays (with ``record_history``; same fields as Sarsa's)
    """


    def __init__(self, *, gamma: float = 0.9, alpha: float = 0.1, epsilon: float = 0.1,
                 n_steps: int | None = None, n_episodes: int | None = None,
                 alpha_power: float = 0.0, epsilon_power: float = 0.0,
                 max_episode_length: int = 1000, start: int | None = None,
                 random_state=None, record_history: bool = False) -> None:
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

    def fit(self, env, features) -> LinearSarsa:
        """Learn θ in ``env`` (TabularMDP or gymnasium env) with state features (S, d)."""
        (gamma, alpha, epsilon, omega, psi, max_len, n_episodes, n_steps,
         record) = validate_sarsa_hyperparameters(self, step_cap=MAX_PYTHON_STEPS,
                                                  length_cap=MAX_STEPS)
        rng = make_rng(self.random_state)
        is_mdp = isinstance(env, TabularMDP)
        if is_mdp:
            S, A = env.n_states, env.n_actions
            start = -1 if self.start is None else check_int(self.start, "start", low=0,
                                                             high=S - 1)
            cum_initial = np.cumsum(env.initial)
        else:
            sim = make_simulator(env, rng, start=self.start)
            S, A = sim.n_states, sim.n_actions
            start = -1
        Phi = _check_features(features, S)
        theta = np.zeros((A, Phi.shape[1]))
        n_sa, n_x = np.zeros((S, A)), np.zeros(S)
        hist = {k: [] for k in ("state", "action", "reward", "next_state", "next_action",
                                "target", "step_size", "q_before", "q_after", "done")}
        returns, steps, episodes, diverged = [], 0, 0, False
        x, a, ep_len, need_reset, ret = 0, -1, 0, True, 0.0

        def q_row(s):
            return theta @ Phi[s]

        while steps < n_steps and not diverged:
            for u in rng.random((min(BLOCK, n_steps - steps), 6)):
                if n_episodes and episodes >= n_episodes:
                    break
                steps += 1
                if need_reset:
                    if is_mdp:
                        x = start if start >= 0 else min(
                            int(np.searchsorted(cum_initial, u[5], side="right")), S - 1)
                    else:
                        x = sim.reset()
                    ep_len, ret, a, need_reset = 0, 0.0, -1, False
                if a < 0:
                    n_x[x] += 1
                    a = _egreedy(q_row(x)[None, :], 0, epsilon * n_x[x] ** (-psi),
                                 u[0], u[1])
                if is_mdp:
                    r, nxt = env.sample_next(x, a, u[2])
                    done = bool(env.terminal[nxt])
                else:
                    r, nxt, done = sim.step(a)
                ep_len += 1
                ret += r
                n_sa[x, a] += 1
                step = alpha * n_sa[x, a] ** (-omega)
                nxt_a = -1
                if not done:
                    n_x[nxt] += 1
                    q_next = q_row(nxt)
                    nxt_a = _egreedy(q_next[None, :], 0, epsilon * n_x[nxt] ** (-psi),
                                     u[3], u[4])
                    target = r + gamma * q_next[nxt_a]
                else:
                    target = r
                before = theta[a] @ Phi[x]
                old = theta[a].copy()
                with np.errstate(over="ignore", invalid="ignore"):
                    theta[a] = theta[a] + step * (target - before) * Phi[x]
                    after = theta[a] @ Phi[x]
                if record:
                    for k, v in zip(hist, (x, a, r, nxt, nxt_a, target, step, before, after,
                                           done), strict=True):
                        hist[k].append(v)
                if not np.all(np.isfinite(theta[a])) or not math.isfinite(after):
                    theta[a] = old
                    diverged = True
                    break
                if done or ep_len >= max_len:
                    returns.append(ret)
                    episodes += 1
                    need_reset = True
                else:
                    x, a = nxt, nxt_a
            if n_episodes and episodes >= n_episodes:
                break
        self.theta_ = theta
        self.Q_ = Phi @ theta.T
        self.policy_ = np.argmax(self.Q_, axis=1)
        self.n_steps_ = steps
        self.episode_returns_ = np.asarray(returns, dtype=np.float64)
        self.n_episodes_ = len(returns)
        self.diverged_ = diverged
        finished = n_episodes is None or self.n_episodes_ >= n_episodes
        self.converged_ = bool(finished and not diverged)
        if record:
            kinds = {"state": np.intp, "action": np.intp, "next_state": np.intp,
                     "next_action": np.intp, "done": bool}
            self.history_ = {k: np.asarray(v, dtype=kinds.get(k, np.float64))
                             for k, v in hist.items()}
        if diverged:
            warnings.warn(f"LinearSarsa: θ became non-finite after {steps} steps (step size "
                          "too large for these features); stopped, the last finite θ kept.",
                          ConvergenceWarning, stacklevel=2)
        elif not finished:
            warnings.warn(f"LinearSarsa: only {self.n_episodes_} of {n_episodes} episodes "
                          f"ended within {n_steps} steps.", ConvergenceWarning, stacklevel=2)
        return self

    def predict(self, states) -> np.ndarray:
        """Greedy actions of the given state indices."""
        self._check_fitted()
        from algorithms._validation import check_index_array

        idx = check_index_array(states, "states", self.Q_.shape[0])
        return self.policy_[idx]

