"""Check bodies and references of the approximate-inference claims (003 §12.5–§12.6),
shared by the claims and by their teeth tests.

The references here share no code with :mod:`algorithms.graphical`: joints are
enumerated with ``itertools.product``, kernels are built entry by entry from their
definitions, Dirichlet-multinomial marginals come from ``scipy.special.gammaln``.
"""

from __future__ import annotations

import itertools
import math

import numpy as np
from scipy.special import gammaln, logsumexp

from mltheory import evidence
from mltheory.stats import clopper_pearson

#: Rounding allowance of sums/products of <= a few hundred probabilities in float64.
EXACT = 1e-12


# ---------------------------------------------------------------------------
# Discrete joints and chains
# ---------------------------------------------------------------------------


def enumerate_joint(factors, cards):
    """The normalised joint as a dict ``state tuple -> probability`` (brute force)."""
    weights = {}
    for x in itertools.product(*(range(k) for k in cards)):
        w = 1.0
        for scope, table in factors:
            w *= float(np.asarray(table)[tuple(x[v] for v in scope)])
        weights[x] = w
    total = sum(weights.values())
    return {x: w / total for x, w in weights.items()}, total


def joint_vector(factors, cards):
    """The enumerated joint as a vector in C order, and its normaliser."""
    joint, total = enumerate_joint(factors, cards)
    return np.array([joint[x] for x in itertools.product(*(range(k) for k in cards))]), total


def reference_gibbs_site_kernel(pvec, cards, i):
    """``K_i[x, y] = p(y) / sum_v p(x with x_i = v)`` when ``y`` differs from ``x`` only at i."""
    states = list(itertools.product(*(range(k) for k in cards)))
    index = {x: n for n, x in enumerate(states)}
    K = np.zeros((len(states), len(states)))
    for x in states:
        block = [x[:i] + (v,) + x[i + 1:] for v in range(cards[i])]
        mass = sum(pvec[index[y]] for y in block)
        for y in block:
            K[index[x], index[y]] += pvec[index[y]] / mass
    return K


def reference_mh_kernel(p, Q):
    """The MH kernel from its definition, entry by entry (no vectorisation)."""
    n = len(p)
    T = np.zeros((n, n))
    for i in range(n):
        for j in range(n):
            if i != j and Q[i, j] > 0:
                T[i, j] = Q[i, j] * min(1.0, p[j] * Q[j, i] / (p[i] * Q[i, j]))
        T[i, i] = 1.0 - T[i].sum()
    return T


def check_stationary(pi, T, label):
    """``pi T = pi`` to rounding."""
    err = float(np.abs(pi @ T - pi).max())
    evidence.worst(f"{label}: max |pi T - pi|", err)
    assert err <= 1e-12 * max(1, len(pi)), f"{label}: pi T differs from pi by {err:.3g}"


def check_detailed_balance(pi, T, label):
    """``pi_i T[i, j] = pi_j T[j, i]`` for all pairs, to rounding."""
    flow = pi[:, None] * T
    err = float(np.abs(flow - flow.T).max())
    evidence.worst(f"{label}: max |p_i T_ij - p_j T_ji|", err)
    assert err <= EXACT, f"{label}: detailed balance off by {err:.3g}"


def reversible_chain(rng, n):
    """A random chain in detailed balance with a random positive ``pi``:
    ``T_ij = S_ij pi_j / c`` (``S`` symmetric) off the diagonal."""
    pi = rng.dirichlet(np.ones(n)) + 1e-3
    pi /= pi.sum()
    S = rng.random((n, n)) * (rng.random((n, n)) < 0.7)
    S = S + S.T
    np.fill_diagonal(S, 0.0)
    T = S * pi[None, :]
    c = max(T.sum(axis=1).max(), 1e-12) * (1.0 + rng.random())
    T /= c
    T[np.diag_indices(n)] = 1.0 - T.sum(axis=1)
    return pi, T


def check_endpoint_frequencies(counts, start, T, steps, pi, *, confidence, label):
    """Decision rule for ``R`` independent chains' final states (R = counts.sum()).

    The endpoint law ``q = start T^steps`` is exact; ``|q_c - pi_c| <= eps`` with ``eps``
    the total-variation distance ``||q - pi||_TV`` (computed, not assumed). Each cell's
    count is binomial(R, q_c); with two-sided Clopper-Pearson intervals at confidence
    ``1 - (1 - confidence)/S`` (Bonferroni over the S cells), the check refutes when some
    interval misses ``[pi_c - eps, pi_c + eps]``. A correct sampler is refuted with
    probability at most ``1 - confidence``.
    """
    q = start @ np.linalg.matrix_power(T, steps)
    eps = 0.5 * float(np.abs(q - pi).sum())
    R = int(counts.sum())
    S = len(pi)
    per_cell = 1.0 - (1.0 - confidence) / S
    worst_gap = 0.0
    for c in range(S):
        lo, hi = clopper_pearson(int(counts[c]), R, per_cell)
        gap = max(lo - (pi[c] + eps), (pi[c] - eps) - hi, 0.0)
        worst_gap = max(worst_gap, gap)
        if gap > 0:
            raise AssertionError(
                f"{label}: state {c}: {counts[c]}/{R} = {counts[c] / R:.4f}, CP interval "
                f"[{lo:.4f}, {hi:.4f}] at {per_cell:.8f} misses pi_c = {pi[c]:.4f} +- "
                f"eps = {eps:.2e}")
    evidence.worst(f"{label}: max |freq - pi|", float(np.abs(counts / R - pi).max()))
    evidence.record(f"{label}: TV slack eps", eps)
    evidence.note(f"{label}: {R} independent chains, {steps} steps each; Clopper-Pearson "
                  f"per state at {per_cell:.8f} (Bonferroni, overall {confidence}), "
                  f"slack eps = ||start T^n - pi||_TV = {eps:.2e}")


def mcmc_average_mean(start, T, f, N):
    """Exact ``E[(1/N) sum_{t=1}^N f(x^t)]`` for the chain started from ``start``."""
    dist, total = start.copy(), 0.0
    for _ in range(N):
        dist = dist @ T
        total += float(dist @ f)
    return total / N


# ---------------------------------------------------------------------------
# Mixture of categoricals (12.20)-(12.22)
# ---------------------------------------------------------------------------


def brute_force_log_likelihood(X, weights, probs):
    """``ln sum over all (z_1..z_N) of prod_i p(x_i, z_i)`` — no per-sample factorisation."""
    N, d = X.shape
    K = len(weights)
    logs = []
    for z in itertools.product(range(K), repeat=N):
        s = 0.0
        for i in range(N):
            s += math.log(weights[z[i]]) + sum(math.log(probs[z[i], j, X[i, j]])
                                               for j in range(d))
        logs.append(s)
    return float(logsumexp(logs))


def q_function(X, resp, weights, probs):
    """``Q(Theta; Theta^t) = sum_i sum_z p(z | x_i, Theta^t) ln p(x_i, z | Theta)``."""
    N, d = X.shape
    total = 0.0
    with np.errstate(divide="ignore"):
        for k in range(len(weights)):
            lp = np.log(weights[k]) + sum(np.log(probs[k, j, X[:, j]]) for j in range(d))
            total += float(np.sum(np.where(resp[:, k] > 0, resp[:, k] * lp, 0.0)))
    return total


def responsibilities(X, weights, probs):
    N, d = X.shape
    logs = np.stack([np.log(weights[k]) + sum(np.log(probs[k, j, X[:, j]]) for j in range(d))
                     for k in range(len(weights))], axis=1)
    return np.exp(logs - logsumexp(logs, axis=1, keepdims=True))


# ---------------------------------------------------------------------------
# LDA (12.24)-(12.26)
# ---------------------------------------------------------------------------


def dirichlet_multinomial_log_joint(W, Z, K, V, alpha, eta):
    """``ln p(W, z | alpha, eta)`` from Beta-function integrals (reference)."""
    def log_b(v):
        return float(np.sum(gammaln(v)) - gammaln(np.sum(v)))

    total = 0.0
    for t in range(W.shape[0]):
        n = np.bincount(Z[t], minlength=K)
        total += log_b(alpha + n) - log_b(np.full(K, alpha))
    for k in range(K):
        n = np.bincount(W[Z == k], minlength=V)
        total += log_b(eta + n) - log_b(np.full(V, eta))
    return total


def exact_lda_posterior(W, K, V, alpha, eta):
    """All assignments ``z`` (C order over tokens) and ``p(z | W)`` by (12.26)."""
    shape = W.shape
    configs = list(itertools.product(range(K), repeat=W.size))
    logs = np.array([dirichlet_multinomial_log_joint(W, np.array(z).reshape(shape), K, V,
                                                     alpha, eta) for z in configs])
    return configs, np.exp(logs - logsumexp(logs)), float(logsumexp(logs))


def match_topics(true_beta, est_beta):
    """Hungarian matching on total variation; returns the TV of each matched pair."""
    from scipy.optimize import linear_sum_assignment

    cost = 0.5 * np.abs(true_beta[:, None, :] - est_beta[None, :, :]).sum(axis=2)
    rows, cols = linear_sum_assignment(cost)
    return cost[rows, cols]


def document_likelihood_given_beta(words_t, beta, alpha):
    """``p(w_t | alpha, beta)`` for each row of ``beta`` (shape (R, K, V)): Theta_t
    integrated (Dirichlet moments), z_t enumerated."""
    R, K, _ = beta.shape
    N = len(words_t)
    total = np.zeros(R)
    for z in itertools.product(range(K), repeat=N):
        n = np.bincount(z, minlength=K)
        log_theta = (float(np.sum(gammaln(alpha + n)) - gammaln(K * alpha + N))
                     - (K * float(gammaln(alpha)) - float(gammaln(K * alpha))))
        words_term = np.ones(R)
        for pos, k in enumerate(z):
            words_term = words_term * beta[:, k, words_t[pos]]
        total += math.exp(log_theta) * words_term
    return total
