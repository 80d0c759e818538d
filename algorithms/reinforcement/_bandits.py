"""K-armed bandits: ε-greedy and softmax exploration (003 §14.2, (14.1)-(14.2), Algs.2-4).

A bandit is a list of arms ``k = 0..K-1``; pulling arm ``k`` draws a reward ``R(k)`` from a
fixed distribution with mean ``μ_k`` (:class:`BernoulliBandit`, :class:`GaussianBandit`).
A learner keeps the average reward ``Q(k)`` of every arm, updated incrementally (14.1)

    Q_n(k) = ((n - 1) Q_{n-1}(k) + v_n) / n,

where ``n`` is the number of pulls of ``k`` *including* the current one. The notes'
Alg.2 updates ``Q(k)`` (line 11) before incrementing ``count(k)`` (line 12), so the
divisor is ``count(k) + 1``; that is what (14.1) says once ``n - 1`` is read as the
count so far, and what the learners here do.

(14.19) (003 §14.4.2) is the same running mean written as a correction,
``Q_{t+1} = Q_t + (τ_{t+1} - Q_t)/(t + 1)``; replacing ``1/(t+1)`` by a constant ``α``
gives the exponentially recency-weighted average computed by :func:`running_means`.

Exploration:

* ε-greedy (Alg.2): with probability ε pull an arm uniformly at random (every arm, the
  greedy one included), otherwise the arm of largest ``Q`` (ties broken at random);
  ε constant or decaying as ``ε_t = 1/√t``.
* softmax (Alg.4): pull arm ``k`` with probability (14.2)
  ``P(k) = exp(Q(k)/τ) / Σ_i exp(Q(i)/τ)``, computed after subtracting ``max_i Q(i)``
  so that ``|Q/τ|`` of any size neither overflows nor gives 0/0.

The regret recorded is the cumulative *pseudo*-regret ``Σ_t (μ* - μ_{a_t})`` with
``μ* = max_k μ_k`` (a property of the arms chosen, not of the random rewards).
"""

from __future__ import annotations

import math

import numpy as np

from algorithms._validation import (
    InvalidArgumentError,
    check_array_argument,
    check_bool,
    check_int,
    check_real,
    make_rng,
)
from algorithms.reinforcement._mdp import _Learner

__all__ = [
    "BernoulliBandit",
    "EpsilonGreedyBandit",
    "GaussianBandit",
    "SoftmaxBandit",
    "incremental_mean",
    "running_means",
    "softmax_probabilities",
]

#: The largest number of arms and of steps a learner accepts (a larger request is refused).
MAX_ARMS, MAX_STEPS = 10**5, 10**7
#: The decaying exploration schedule of 003 §14.2.2 (after Alg.2).
INVERSE_SQRT = "inverse_sqrt"


# ---------------------------------------------------------------------------------------
# Arms
# ---------------------------------------------------------------------------------------


class _Bandit:
    """Common part of the bandits: the arm means and reward draws from uniform/normal
    variates, so that a learner can draw all its noise at once and use it step by step."""

    means: np.ndarray

    @property
    def n_arms(self) -> int:
        return int(self.means.size)

    @property
    def best_mean(self) -> float:
        """``μ* = max_k μ_k`` (the benchmark of the regret)."""
        return float(self.means.max())

    def _noise(self, n: int, rng: np.random.Generator) -> np.ndarray:  # pragma: no cover
        raise NotImplementedError

    def _reward(self, k: int, noise: float) -> float:  # pragma: no cover
        raise NotImplementedError

    def sample(self, arm, random_state=None) -> np.ndarray:
        """Rewards ``R(k)`` of the arms ``arm`` (an int or an array of ints), drawn from a
        generator seeded with ``random_state``."""
        arms = np.asarray(arm)
        if arms.dtype.kind not in "iu" or arms.size == 0:
            raise InvalidArgumentError(f"arm must be arm indices (integers), got {arm!r}.")
        if arms.min() < 0 or arms.max() >= self.n_arms:
            raise ValueError(f"arm must be in [0, {self.n_arms - 1}], got {arm!r}.")
        rng = make_rng(random_state)
        flat = arms.ravel()
        noise = self._noise(flat.size, rng)
        return np.array([self._reward(int(k), float(u)) for k, u in zip(flat, noise,
                                                                         strict=True)]
                        ).reshape(arms.shape)


class BernoulliBandit(_Bandit):
    """Arms paying 1 with probability ``means[k]`` and 0 otherwise.

    Parameters
    ----------
    means : array of shape (K,)
        Success probabilities in [0, 1], ``K >= 1``.
    """

    def __init__(self, means) -> None:
        arr = check_array_argument(means, "means", ndim=1, real=True)
        if arr.size > MAX_ARMS:
            raise ValueError(f"means: at most {MAX_ARMS} arms, got {arr.size}.")
        if np.any((arr < 0) | (arr > 1)):
            raise ValueError("means must be probabilities in [0, 1] for a Bernoulli bandit.")
        self.means = arr.copy()

    def _noise(self, n: int, rng: np.random.Generator) -> np.ndarray:
        return rng.random(n)

    def _reward(self, k: int, noise: float) -> float:
        return 1.0 if noise < self.means[k] else 0.0

    def __repr__(self) -> str:
        return f"BernoulliBandit(means={self.means.tolist()})"


class GaussianBandit(_Bandit):
    """Arms paying ``means[k] + sigma * z`` with ``z ~ N(0, 1)``.

    Parameters
    ----------
    means : array of shape (K,)
        The arm means, finite.
    sigma : float, default 1.0
        The common noise standard deviation, ``>= 0`` (0 gives deterministic rewards).
    """

    def __init__(self, means, sigma: float = 1.0) -> None:
        arr = check_array_argument(means, "means", ndim=1, real=True)
        if arr.size > MAX_ARMS:
            raise ValueError(f"means: at most {MAX_ARMS} arms, got {arr.size}.")
        self.sigma = check_real(sigma, "sigma", low=0.0)
        # rewards and their running means must stay finite
        if np.max(np.abs(arr)) + 40.0 * self.sigma > 1e300:
            raise ValueError("means and sigma must keep rewards below 1e300 in magnitude.")
        self.means = arr.copy()

    def _noise(self, n: int, rng: np.random.Generator) -> np.ndarray:
        return rng.standard_normal(n)

    def _reward(self, k: int, noise: float) -> float:
        return float(self.means[k] + self.sigma * noise)

    def __repr__(self) -> str:
        return f"GaussianBandit(means={self.means.tolist()}, sigma={self.sigma})"


def _check_bandit(bandit) -> _Bandit:
    if not isinstance(bandit, _Bandit):
        raise InvalidArgumentError(f"bandit must be a BernoulliBandit or a GaussianBandit, "
                                   f"got {type(bandit).__name__}.")
    return bandit


# ---------------------------------------------------------------------------------------
# Incremental means (14.1), (14.19)
# ---------------------------------------------------------------------------------------


def incremental_mean(previous: float, n: int, value: float) -> float:
    """One step of (14.1): ``Q_n = ((n - 1) Q_{n-1} + v_n) / n``.

    Parameters
    ----------
    previous : float
        ``Q_{n-1}``, the mean of the first ``n - 1`` values (ignored when ``n = 1``).
    n : int
        The index of the new value, ``n >= 1`` (the count *after* this value).
    value : float
        ``v_n``.

    Notes
    -----
    Written as ``Q_{n-1} + (v_n - Q_{n-1})/n`` (the form of (14.19)), which is the same
    number and cannot overflow where ``(n - 1) Q_{n-1}`` would.
    """
    previous = check_real(previous, "previous")
    n = check_int(n, "n", low=1)
    value = check_real(value, "value")
    return previous + (value - previous) / n


def running_means(values, alpha: float | None = None, initial: float = 0.0) -> np.ndarray:
    """The trace ``Q_1, ..., Q_t`` of the incremental update (14.19).

    ``Q_{t+1} = Q_t + α_{t+1} (τ_{t+1} - Q_t)`` with ``α_{t+1} = 1/(t+1)`` (``alpha=None``:
    the running mean of 003 §14.4.2 (14.19), equal to (14.1); ``initial`` is then
    irrelevant) or a constant ``α`` in (0, 1] (the exponentially recency-weighted
    average that weights the reward ``k`` steps back by ``α(1-α)^k`` and ``initial`` by
    ``(1-α)^t``).

    Parameters
    ----------
    values : array of shape (t,)
        The rewards ``τ_1, ..., τ_t``.
    alpha : float in (0, 1] or None
    initial : float
        ``Q_0`` for the constant step size.

    Returns
    -------
    ndarray of shape (t,)
    """
    v = check_array_argument(values, "values", ndim=1, real=True)
    if v.size > MAX_STEPS:
        raise ValueError(f"values: at most {MAX_STEPS} values, got {v.size}.")
    q = check_real(initial, "initial")
    a = None if alpha is None else check_real(alpha, "alpha", low=0.0, high=1.0,
                                              low_open=True)
    out = np.empty(v.size)
    for t, x in enumerate(v.tolist()):  # a recurrence: sequential by nature
        step = 1.0 / (t + 1) if a is None else a
        q = q + step * (x - q)
        out[t] = q
    return out


# ---------------------------------------------------------------------------------------
# Softmax (14.2)
# ---------------------------------------------------------------------------------------


def softmax_probabilities(Q, tau: float) -> np.ndarray:
    """The Boltzmann selection probabilities (14.2) ``P(k) ∝ exp(Q(k)/τ)``.

    Computed as ``exp((Q(k) - max_i Q(i))/τ)`` normalised, so the largest exponent is 0:
    no overflow for any ``|Q/τ|`` and the maximising arms keep probability ``>= 1/K``.

    Parameters
    ----------
    Q : array of shape (K,) or (n, K)
        Average rewards (one row per situation for a 2-d array).
    tau : float
        The temperature ``τ > 0``.

    Returns
    -------
    ndarray of Q's shape, rows summing to 1.
    """
    q = check_array_argument(Q, "Q", real=True)
    if q.ndim not in (1, 2):
        raise ValueError(f"Q must be a 1-d or 2-d array, got shape {q.shape}.")
    tau = check_real(tau, "tau", low=0.0, low_open=True)
    with np.errstate(over="ignore", invalid="ignore"):
        # Q - max Q <= 0: exactly 0 on the argmax entries (so the sum is >= 1), -inf at
        # worst elsewhere when the difference overflows, which exp maps to 0
        w = np.exp((q - q.max(axis=-1, keepdims=True)) / tau)
    return w / w.sum(axis=-1, keepdims=True)


# ---------------------------------------------------------------------------------------
# Learners
# ---------------------------------------------------------------------------------------


class _BanditLearner(_Learner):
    """Shared parts: parameters, the fitted traces, and the incremental update."""


    def _finish(self, bandit: _Bandit, Q, counts, arms, rewards) -> None:
        self.Q_ = np.asarray(Q, dtype=np.float64)
        self.counts_ = np.asarray(counts, dtype=np.int64)
        self.arms_ = np.asarray(arms, dtype=np.intp)
        self.rewards_ = np.asarray(rewards, dtype=np.float64)
        self.total_reward_ = float(self.rewards_.sum())
        self.regret_ = np.cumsum(bandit.best_mean - bandit.means[self.arms_])
        self.n_steps_ = int(self.arms_.size)
        self.n_arms_ = bandit.n_arms


def _schedule(epsilon, T: int) -> np.ndarray:
    """``ε_t`` for ``t = 1..T``: a constant, or ``1/√t`` for ``"inverse_sqrt"``."""
    if isinstance(epsilon, str):
        if epsilon != INVERSE_SQRT:
            raise ValueError(f"epsilon must be a real number in [0, 1] or "
                             f"{INVERSE_SQRT!r}, got {epsilon!r}.")
        return 1.0 / np.sqrt(np.arange(1, T + 1))
    return np.full(T, check_real(epsilon, "epsilon", low=0.0, high=1.0))


def _update(Q: list, counts: list, k: int, v: float) -> None:
    """Line 11-12 of Algs.2-4: (14.1) with n = count(k) + 1, then count(k) += 1."""
    n = counts[k] + 1
    Q[k] = Q[k] + (v - Q[k]) / n
    counts[k] = n


class EpsilonGreedyBandit(_BanditLearner):
    """ε-greedy K-armed bandit (003 §14.2.2, Alg.2).

    Parameters
    ----------
    epsilon : float in [0, 1] or "inverse_sqrt", default 0.1
        Exploration probability; ``"inverse_sqrt"`` uses ``ε_t = 1/√t`` at step ``t``.
    n_steps : int, default 1000
        The number of pulls ``T``.
    random_state : None, int or Generator

    Attributes
    ----------
    Q_ : ndarray of shape (K,)
        Average reward of every arm (0 for an arm never pulled).
    counts_ : ndarray of shape (K,)
        Pulls per arm.
    total_reward_ : float
        The cumulative reward ``r`` of Alg.2.
    arms_, rewards_ : ndarray of shape (T,)
        The arm pulled and the reward received at every step.
    explored_ : ndarray of T bools
        Whether step ``t`` explored (``rand() < ε_t``, Alg.2 line 5).
    epsilons_ : ndarray of shape (T,)
        The ``ε_t`` used.
    regret_ : ndarray of shape (T,)
        Cumulative pseudo-regret ``Σ_{s<=t} (μ* - μ_{a_s})``.

    Notes
    -----
    Per step: draw ``u``; if ``u < ε_t`` pick ``k`` uniformly among all K arms,
    otherwise ``k ∈ argmax_i Q(i)`` uniformly among ties; ``v = R(k)``,
    ``Q(k) += (v - Q(k))/(count(k)+1)``, ``count(k) += 1``.
    """


    def __init__(self, *, epsilon=0.1, n_steps: int = 1000, random_state=None) -> None:
        self.epsilon = epsilon
        self.n_steps = n_steps
        self.random_state = random_state

    def fit(self, bandit) -> EpsilonGreedyBandit:
        bandit = _check_bandit(bandit)
        T = check_int(self.n_steps, "n_steps", low=1, high=MAX_STEPS)
        eps = _schedule(self.epsilon, T)
        rng = make_rng(self.random_state)
        K = bandit.n_arms
        explore = rng.random(T) < eps                        # Alg.2 line 5
        random_arm = rng.integers(0, K, size=T)              # line 6
        tie_u = rng.random(T)                                # random tie-breaking, line 8
        noise = bandit._noise(T, rng)
        Q, counts = [0.0] * K, [0] * K
        arms = np.empty(T, dtype=np.intp)
        rewards = np.empty(T)
        reward = bandit._reward
        for t in range(T):
            if explore[t]:
                k = int(random_arm[t])
            else:
                best = max(Q)
                tied = [i for i in range(K) if Q[i] == best]
                k = tied[int(tie_u[t] * len(tied))]
            v = reward(k, noise[t])
            _update(Q, counts, k, v)                         # lines 10-12
            arms[t], rewards[t] = k, v
        self._finish(bandit, Q, counts, arms, rewards)
        self.explored_ = explore
        self.epsilons_ = eps
        return self


class SoftmaxBandit(_BanditLearner):
    """Softmax (Boltzmann) K-armed bandit (003 §14.2.3, (14.2), Alg.4).

    Parameters
    ----------
    tau : float > 0, default 0.1
        The temperature ``τ``.
    n_steps : int, default 1000
    random_state : None, int or Generator
    record_history : bool, default False
        Also record ``probabilities_`` (T, K), the (14.2) probabilities each step used.

    Attributes
    ----------
    Q_, counts_, total_reward_, arms_, rewards_, regret_ : as :class:`EpsilonGreedyBandit`.
    probabilities_ : ndarray of shape (T, K) (with ``record_history=True``)

    Notes
    -----
    Per step: ``k`` drawn from :func:`softmax_probabilities` ``(Q, τ)`` by inverting
    the cumulative sum at a uniform ``u``; ``v = R(k)``; then the update of Alg.2.
    """


    def __init__(self, *, tau: float = 0.1, n_steps: int = 1000, random_state=None,
                 record_history: bool = False) -> None:
        self.tau = tau
        self.n_steps = n_steps
        self.random_state = random_state
        self.record_history = record_history

    def fit(self, bandit) -> SoftmaxBandit:
        bandit = _check_bandit(bandit)
        tau = check_real(self.tau, "tau", low=0.0, low_open=True)
        T = check_int(self.n_steps, "n_steps", low=1, high=MAX_STEPS)
        record = check_bool(self.record_history, "record_history")
        rng = make_rng(self.random_state)
        K = bandit.n_arms
        u = rng.random(T)
        noise = bandit._noise(T, rng)
        Q = np.zeros(K)
        counts = np.zeros(K, dtype=np.int64)
        arms = np.empty(T, dtype=np.intp)
        rewards = np.empty(T)
        history = np.empty((T, K)) if record else None
        reward = bandit._reward
        with np.errstate(over="ignore", under="ignore"):
            self._loop(T, tau, u, noise, Q, counts, arms, rewards, history, reward)
        self._finish(bandit, Q, counts, arms, rewards)
        if record:
            self.probabilities_ = history
        return self

    @staticmethod
    def _loop(T, tau, u, noise, Q, counts, arms, rewards, history, reward) -> None:
        K = Q.size
        q, c = [0.0] * K, [0] * K
        u = u.tolist()
        exp = math.exp
        for t in range(T):
            # (14.2) with max-subtraction (softmax_probabilities, inlined on Python floats)
            top = max(q)
            w = [exp((qi - top) / tau) for qi in q]
            total = sum(w)
            if history is not None:
                history[t] = [wi / total for wi in w]
            target, acc, k = u[t] * total, 0.0, K - 1
            for i in range(K):
                acc += w[i]
                if target < acc:
                    k = i
                    break
            v = reward(k, noise[t])
            _update(q, c, k, v)
            arms[t], rewards[t] = k, v
        Q[:] = q
        counts[:] = c
