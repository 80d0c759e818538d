"""Independent references for the Monte-Carlo claims: exact T-step values, exact
trajectory enumeration, visit distributions, and a Hoeffding decision for averages.

Nothing here calls the Monte-Carlo code under test; everything works on the arrays
``P[a, x, x']``, ``R[a, x, x']`` of a small MDP.

* :func:`q_horizons` — ``Q^π_k`` for ``k = 1..T`` of (14.4), by the backward recursion on
  the total ``G_k = k Q_k``: ``G_k(x, a) = Σ_{x'} P^a_{x→x'}(R^a_{x→x'} + Σ_{a'} π(x', a')
  G_{k-1}(x', a'))``.
* :func:`enumerate_paths` — every trajectory (14.14) from ``x_0`` with its probability
  under a policy (``a_0`` optionally fixed) and its rewards.
* :func:`visit_mixture` — the exact limit of every-visit averaging of the returns
  ``R_t`` of Alg.8: ``Σ_t d_t(x, a) Q^π_{T-t}(x, a) / Σ_t d_t(x, a)`` with ``d_t`` the
  distribution of ``(x_t, a_t)`` under the sampling policy.
* :func:`average_band` — the half-width that a ratio of sums (``Q_ = Σ_e S_e / Σ_e C_e``)
  stays within around its limit with probability ``1 - δ`` (Hoeffding on
  ``Y_e = S_e - m C_e``).
"""

from __future__ import annotations

import itertools
import math

import numpy as np

__all__ = ["average_band", "enumerate_paths", "q_horizons", "visit_mixture"]


def q_horizons(P: np.ndarray, R: np.ndarray, pi: np.ndarray, T: int) -> np.ndarray:
    """``Q[k]`` = ``Q^π_k`` (S, A) for ``k = 0..T`` (``Q[0] = 0``)."""
    A, S, _ = P.shape
    r = np.einsum("axy,axy->xa", P, R)
    G = np.zeros((T + 1, S, A))
    for k in range(1, T + 1):
        V = np.sum(pi * G[k - 1], axis=1)                  # total value of k-1 steps
        G[k] = r + np.einsum("axy,y->xa", P, V)
    Q = np.zeros_like(G)
    Q[1:] = G[1:] / np.arange(1, T + 1)[:, None, None]
    return Q


def enumerate_paths(P: np.ndarray, R: np.ndarray, pi: np.ndarray, T: int, x0: int,
                    a0: int | None = None):
    """All trajectories of length ``T`` from ``x0`` with positive probability.

    Returns ``(prob, states (n, T+1), actions (n, T), rewards (n, T))`` where ``prob`` is
    the probability under ``pi`` (with ``a_0 = a0`` given, its factor is 1).
    """
    A, S, _ = P.shape
    probs, xs, acts, rews = [], [], [], []
    for choice in itertools.product(range(A), range(S), repeat=T):
        a = np.array(choice[0::2])
        y = np.array(choice[1::2])
        if a0 is not None and a[0] != a0:
            continue
        x = np.concatenate([[x0], y])
        pol = pi[x[:-1], a]
        if a0 is not None:
            pol = pol.copy()
            pol[0] = 1.0
        p = float(np.prod(pol * P[a, x[:-1], x[1:]]))
        if p > 0:
            probs.append(p)
            xs.append(x)
            acts.append(a)
            rews.append(R[a, x[:-1], x[1:]])
    return np.array(probs), np.array(xs), np.array(acts), np.array(rews)


def state_distributions(P: np.ndarray, pi: np.ndarray, T: int, start: np.ndarray
                        ) -> np.ndarray:
    """``d[t, x, a] = Pr(x_t = x, a_t = a)`` for ``t = 0..T-1`` under ``pi``."""
    A, S, _ = P.shape
    d = np.zeros((T, S, A))
    mu = np.asarray(start, dtype=float)
    for t in range(T):
        d[t] = mu[:, None] * pi
        mu = np.einsum("xa,axy->y", d[t], P)
    return d


def visit_mixture(P, R, sampling, target, T: int, start) -> tuple[np.ndarray, np.ndarray]:
    """The every-visit limit ``(mixture (S, A), expected visits (S, A))``: returns of
    step ``t`` estimate ``Q^target_{T-t}``; pairs are met with the ``sampling`` policy."""
    d = state_distributions(P, sampling, T, start)
    Q = q_horizons(P, R, target, T)
    steps = np.arange(T)
    num = np.einsum("txa,txa->xa", d, Q[T - steps])
    visits = d.sum(axis=0)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(visits > 0, num / np.where(visits > 0, visits, 1.0), np.nan), visits


def average_band(n_episodes: int, count: float, T: int, low: float, high: float,
                 delta: float) -> float:
    """Half-width ``h`` with ``P(|Σ S_e/Σ C_e - m| > h) <= δ``.

    ``Y_e = S_e - m C_e`` (``S_e`` the sum of the returns of one pair in episode ``e``,
    ``C_e <= T`` its visits, each return in ``[low, high]``, ``m`` in the same range) lies
    in an interval of width ``T (high - low)`` and has mean 0; Hoeffding bounds
    ``|mean Y|`` by ``T (high - low) sqrt(ln(2/δ) / (2 n))`` and
    ``|Q - m| = n |mean Y| / Σ C``.
    """
    width = T * (high - low)
    s = width * math.sqrt(math.log(2.0 / delta) / (2.0 * n_episodes))
    return n_episodes * s / count
