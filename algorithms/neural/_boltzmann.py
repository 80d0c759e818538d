"""Boltzmann machines and the restricted Boltzmann machine (003 §3.5.6).

A Boltzmann machine on binary states ``s`` in {0, 1}^n with symmetric weights ``w_ij``
(zero diagonal) and thresholds ``theta_i`` is an energy model,

    E(s) = - sum_{i<j} w_ij s_i s_j - sum_i theta_i s_i,

whose states follow the Boltzmann distribution ``P(s) = exp(-E(s)) / Z``: the lower the
energy, the more probable the state, and the minimum-energy states are the most probable
(the "ideal state" of §3.5.6). For up to :data:`MAX_ENUMERATION_UNITS` units the
distribution is computed exactly, by enumerating the 2^n states, in log space
(``log Z`` by log-sum-exp).

The restricted machine (RBM) keeps only visible-hidden weights ``W`` (n_v, n_h), with
visible biases ``b`` and hidden biases ``c``:
``E(v, h) = -b^T v - c^T h - v^T W h``. Given one layer the other is conditionally
independent, ``P(h_j = 1 | v) = f(c_j + v^T W_{:j})`` and
``P(v_i = 1 | h) = f(b_i + W_{i:} h)`` with ``f`` the sigmoid, so Gibbs sampling
alternates whole layers (block Gibbs). Summing ``h`` out gives the free energy
``F(v) = -b^T v - sum_j log(1 + exp(c_j + v^T W_{:j}))`` and ``P(v) = exp(-F(v)) / Z``.
Contrastive divergence (CD-k) starts the chain at a data batch ``v^0``, runs ``k``
block-Gibbs steps to ``v^k`` and updates

    Delta W = eta (<v^0 p(h|v^0)^T> - <v^k p(h|v^k)^T>),
    Delta b = eta (<v^0> - <v^k>),   Delta c = eta (<p(h|v^0)> - <p(h|v^k)>),

averages over the batch: an estimate of the log-likelihood gradient whose model term
comes from a short chain instead of the exact expectation.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike
from scipy.special import logsumexp
from sklearn.base import BaseEstimator, TransformerMixin

from algorithms._validation import (
    check_array_argument,
    check_bool,
    check_int,
    check_real,
    make_rng,
    validate_features,
)
from algorithms.neural._activations import _sigmoid as sigmoid

__all__ = [
    "MAX_ENUMERATION_UNITS",
    "RBM",
    "binary_states",
    "boltzmann_energy",
    "boltzmann_log_probabilities",
]

#: Exact enumeration visits 2^n states (65,536 rows at the cap, a few MB); beyond this
#: many units it is refused.
MAX_ENUMERATION_UNITS = 16
#: Largest number of CD updates (epochs * batches) one fit may run.
MAX_UPDATES = 10**7


def binary_states(n: int) -> np.ndarray:
    """All 2^n states of n binary units, (2^n, n), in lexicographic order."""
    n = check_int(n, "n", low=0, high=MAX_ENUMERATION_UNITS)
    codes = np.arange(2**n)[:, None] >> np.arange(n - 1, -1, -1)[None, :]
    return (codes & 1).astype(float)


def _machine(weights: object, thresholds: object, max_units: int | None = None
             ) -> tuple[np.ndarray, np.ndarray]:
    W = check_array_argument(weights, "weights", ndim=2, real=True)
    n = W.shape[0]
    if W.shape != (n, n):
        raise ValueError(f"weights must be a square (n, n) matrix, got shape {W.shape}.")
    if max_units is not None and n > max_units:
        raise ValueError(f"weights has {n} units: exact enumeration of 2^{n} states is "
                         f"limited to {max_units} units.")
    top = float(np.max(np.abs(W)))
    if not np.allclose(W, W.T, rtol=1e-12, atol=1e-12 * top):
        raise ValueError("weights must be symmetric (w_ij = w_ji).")
    if np.any(np.diag(W) != 0):
        raise ValueError("weights must have a zero diagonal (no self-connections).")
    theta = check_array_argument(thresholds, "thresholds", shape=(n,), real=True)
    return W, theta


def _binary(s: object, name: str, n: int) -> np.ndarray:
    S = check_array_argument(s, name, real=True)
    if S.ndim not in (1, 2) or S.shape[-1] != n:
        raise ValueError(f"{name} must have shape ({n},) or (k, {n}), got {S.shape}.")
    if not np.all((S == 0) | (S == 1)):
        raise ValueError(f"{name} must be binary (entries 0 or 1).")
    return S


def boltzmann_energy(states: ArrayLike, weights: ArrayLike, thresholds: ArrayLike
                     ) -> np.ndarray | float:
    """``E(s) = -sum_{i<j} w_ij s_i s_j - sum_i theta_i s_i`` of binary states.

    Parameters
    ----------
    states : array of shape (n,) or (k, n), entries 0 or 1
    weights : array of shape (n, n), symmetric with zero diagonal
    thresholds : array of shape (n,)

    Returns
    -------
    float or ndarray of shape (k,)
    """
    W, theta = _machine(weights, thresholds)
    S = _binary(states, "states", W.shape[0])
    S2 = np.atleast_2d(S)
    with np.errstate(over="ignore", invalid="ignore"):
        # s^T W s counts every pair twice (zero diagonal): halve it, term by term
        pair = np.einsum("ki,ij,kj->k", S2, W / 2.0, S2)
        energy = -pair - S2 @ theta
    if not np.all(np.isfinite(energy)):
        raise ValueError("weights and thresholds are too large: the energy overflows "
                         "float64; rescale them.")
    return float(energy[0]) if S.ndim == 1 else energy


def boltzmann_log_probabilities(weights: ArrayLike, thresholds: ArrayLike
                                ) -> tuple[np.ndarray, np.ndarray]:
    """Every state and its exact log-probability ``-E(s) - log Z`` under the Boltzmann
    distribution, by enumeration (at most :data:`MAX_ENUMERATION_UNITS` units).

    Returns
    -------
    states : ndarray of shape (2^n, n)
    log_p : ndarray of shape (2^n,)
    """
    W, theta = _machine(weights, thresholds, MAX_ENUMERATION_UNITS)
    S = binary_states(W.shape[0])
    E = boltzmann_energy(S, W, theta)
    return S, -E - logsumexp(-E)


def _softplus(x: np.ndarray) -> np.ndarray:
    return np.logaddexp(0.0, x)


class RBM(TransformerMixin, BaseEstimator):
    """Restricted Boltzmann machine with binary units, trained by CD-k (003 §3.5.6).

    Parameters
    ----------
    n_components : int, default=8
        Hidden units ``n_h``.
    learning_rate : float, default=0.1
        ``eta > 0``.
    k : int, default=1
        Block-Gibbs steps of contrastive divergence.
    batch_size : int, default=10
    n_iter : int, default=20
        Epochs (passes over the data in a fresh random order).
    record_history : bool, default=False
        Keep the parameters ``(W, b, c)`` after every epoch (index 0: the initial ones).
    random_state : None, int or Generator, default=None
        Initial ``W`` ~ N(0, 0.01^2), batches and Gibbs samples; ``b = c = 0``.

    Attributes
    ----------
    components_ : ndarray of shape (n_components, n_features)
        ``W^T``, as scikit-learn's ``BernoulliRBM``.
    intercept_hidden_ : ndarray of shape (n_components,)
        ``c``.
    intercept_visible_ : ndarray of shape (n_features,)
        ``b``.
    history_ : list of tuple, only with ``record_history``
        ``(W^T, c, b)`` before training and after every epoch.
    n_features_in_ : int

    References
    ----------
    003 §3.5.6; Hinton 2002, Training Products of Experts by Minimizing Contrastive
    Divergence.
    """

    def __init__(self, n_components: int = 8, *, learning_rate: float = 0.1, k: int = 1,
                 batch_size: int = 10, n_iter: int = 20, record_history: bool = False,
                 random_state: object = None) -> None:
        self.n_components = n_components
        self.learning_rate = learning_rate
        self.k = k
        self.batch_size = batch_size
        self.n_iter = n_iter
        self.record_history = record_history
        self.random_state = random_state

    def _data(self, X: object, reset: bool) -> np.ndarray:
        X = validate_features(self, X, reset=reset)
        if not np.all((X == 0) | (X == 1)):
            raise ValueError("X must be binary (entries 0 or 1) for a Bernoulli RBM.")
        return X

    def fit(self, X: ArrayLike, y: object = None) -> RBM:
        """Train by CD-k on the binary rows of ``X``."""
        X = self._data(X, reset=True)
        n_h = check_int(self.n_components, "n_components", low=1, high=100_000)
        eta = check_real(self.learning_rate, "learning_rate", low=0.0, low_open=True)
        k = check_int(self.k, "k", low=1, high=10_000)
        m = X.shape[0]
        batch = min(check_int(self.batch_size, "batch_size", low=1), m)
        n_batches = -(-m // batch)
        epochs = check_int(self.n_iter, "n_iter", low=1,
                           high=max(1, MAX_UPDATES // (n_batches * k)))
        record = check_bool(self.record_history, "record_history")
        rng = make_rng(self.random_state)
        W = rng.normal(0.0, 0.01, size=(X.shape[1], n_h))
        b = np.zeros(X.shape[1])
        c = np.zeros(n_h)
        history = [(W.T.copy(), c.copy(), b.copy())]
        for _ in range(epochs):
            order = rng.permutation(m)
            for start in range(0, m, batch):
                W, b, c = self._cd_step(X[order[start:start + batch]], W, b, c, eta, k, rng)
            if record:
                history.append((W.T.copy(), c.copy(), b.copy()))
        self.components_ = W.T.copy()
        self.intercept_hidden_ = c
        self.intercept_visible_ = b
        if record:
            self.history_ = history
        return self

    @staticmethod
    def _cd_step(V0, W, b, c, eta, k, rng):
        """One CD-k update on the batch ``V0``; returns the new ``(W, b, c)``."""
        ph0 = sigmoid(c + V0 @ W)
        ph = ph0
        V = V0
        for _ in range(k):  # block Gibbs: whole layers at a time
            H = (rng.random(ph.shape) < ph).astype(float)
            V = (rng.random(V0.shape) < sigmoid(b + H @ W.T)).astype(float)
            ph = sigmoid(c + V @ W)
        n = V0.shape[0]
        W = W + eta * (V0.T @ ph0 - V.T @ ph) / n
        b = b + eta * (V0 - V).mean(axis=0)
        c = c + eta * (ph0 - ph).mean(axis=0)
        return W, b, c

    def cd_update(self, X: ArrayLike, random_state: object = None) -> RBM:
        """Apply one CD-k update of the fitted parameters on the batch ``X`` (in place)."""
        X = self._data(X, reset=False)
        rng = make_rng(random_state)
        eta = check_real(self.learning_rate, "learning_rate", low=0.0, low_open=True)
        k = check_int(self.k, "k", low=1, high=10_000)
        W, b, c = self._cd_step(X, self.components_.T, self.intercept_visible_,
                                self.intercept_hidden_, eta, k, rng)
        self.components_, self.intercept_visible_, self.intercept_hidden_ = W.T.copy(), b, c
        return self

    def transform(self, X: ArrayLike) -> np.ndarray:
        """``P(h_j = 1 | v)`` (n, n_components) of each binary row ``v`` of ``X``."""
        X = self._data(X, reset=False)
        return sigmoid(self.intercept_hidden_ + X @ self.components_.T)

    def free_energy(self, X: ArrayLike) -> np.ndarray:
        """``F(v) = -b^T v - sum_j log(1 + exp(c_j + v^T W_{:j}))`` of each row (n,)."""
        X = self._data(X, reset=False)
        return -(X @ self.intercept_visible_) - _softplus(
            self.intercept_hidden_ + X @ self.components_.T).sum(axis=1)

    def log_partition(self) -> float:
        """``log Z`` exactly, summing out the larger layer and enumerating the smaller
        (at most :data:`MAX_ENUMERATION_UNITS` units on that side)."""
        check_array_argument(self.components_, "components_", ndim=2)
        n_h, n_v = self.components_.shape
        if min(n_h, n_v) > MAX_ENUMERATION_UNITS:
            raise ValueError(f"an RBM with {n_v} visible and {n_h} hidden units is too large "
                             f"for exact enumeration (at most {MAX_ENUMERATION_UNITS} units "
                             "on the smaller side).")
        W, b, c = self.components_.T, self.intercept_visible_, self.intercept_hidden_
        if n_v <= n_h:
            V = binary_states(n_v)
            neg_f = V @ b + _softplus(c + V @ W).sum(axis=1)
        else:
            H = binary_states(n_h)
            neg_f = H @ c + _softplus(b + H @ W.T).sum(axis=1)
        return float(logsumexp(neg_f))

    def log_likelihood(self, X: ArrayLike) -> float:
        """Mean exact log-likelihood ``(1/m) sum_k log P(v_k)`` of the binary rows of ``X``."""
        return float(np.mean(-self.free_energy(X)) - self.log_partition())

    def gibbs(self, X: ArrayLike, random_state: object = None) -> np.ndarray:
        """One block-Gibbs step ``v -> h -> v'`` from each binary row of ``X``."""
        X = self._data(X, reset=False)
        rng = make_rng(random_state)
        ph = sigmoid(self.intercept_hidden_ + X @ self.components_.T)
        H = (rng.random(ph.shape) < ph).astype(float)
        pv = sigmoid(self.intercept_visible_ + H @ self.components_)
        return (rng.random(pv.shape) < pv).astype(float)
