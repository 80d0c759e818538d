"""The self-organising map (SOM) of 003 §3.5.3.

Output units sit on a rectangular ``n_rows x n_cols`` lattice, unit ``u`` at lattice
position ``r_u`` with a weight vector ``w_u`` in input space. For every presented sample
``x`` (step ``t`` of ``T = n_epochs * m``):

1. competition: the best-matching unit ``b = argmin_u ||x - w_u||``;
2. cooperation: the Gaussian neighbourhood ``h_u = exp(-||r_u - r_b||^2 / (2 sigma_t^2))``
   on the lattice;
3. adaptation: ``w_u <- w_u + eta_t h_u (x - w_u)`` for every unit.

Learning rate and radius decay geometrically from their initial to their final values,
``eta_t = eta_0 (eta_T / eta_0)^{t / (T - 1)}`` and likewise ``sigma_t``. Neighbouring
units are pulled towards the same samples, so the lattice unfolds over the data and
nearby inputs land on nearby units: the topology preservation §3.5.3 describes (a
continuous map from a higher-dimensional space onto a plane cannot preserve it exactly;
see ``properties/neural/som.py``).

The presentation loop is sequential (each step sees the weights the previous one left);
each step is one vectorised update of all units. Inputs are divided internally by their
largest magnitude (a scalar, which leaves the competition unchanged), so data of any
scale trains without overflow.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike
from sklearn.base import BaseEstimator, TransformerMixin

from algorithms._validation import (
    check_int,
    check_real,
    make_rng,
    validate_features,
)

__all__ = ["SOM"]

#: Largest number of single-sample steps (n_epochs * n_samples) one fit may take.
MAX_STEPS = 10**7
#: Largest lattice side: the update touches every unit at every step.
MAX_SIDE = 1000


def _squared_distances(X: np.ndarray, W: np.ndarray) -> np.ndarray:
    """(n, k) squared Euclidean distances of inputs already scaled to |x| <= 1."""
    diff = X[:, None, :] - W[None, :, :]
    return np.einsum("nkd,nkd->nk", diff, diff)


class SOM(TransformerMixin, BaseEstimator):
    """Self-organising map on a rectangular lattice (003 §3.5.3).

    Parameters
    ----------
    n_rows, n_cols : int, default=5
        Lattice shape; ``n_rows * n_cols`` units.
    learning_rate : float, default=0.5
        ``eta_0`` in (0, 1].
    final_learning_rate : float, default=0.01
        ``eta_T`` in (0, learning_rate].
    radius : float, default=None
        ``sigma_0 > 0`` in lattice units; ``None`` means ``max(n_rows, n_cols) / 2``.
    final_radius : float, default=0.5
        ``sigma_T`` in (0, radius].
    n_epochs : int, default=10
        Passes over the data, each in a fresh random order.
    random_state : None, int or Generator, default=None
        Initial weights (distinct random samples, with repetition when there are fewer
        samples than units) and the presentation order.

    Attributes
    ----------
    weights_ : ndarray of shape (n_units, d)
        ``w_u``, unit ``u = row * n_cols + col``.
    lattice_ : ndarray of shape (n_units, 2)
        ``r_u = (row, col)``.
    initial_weights_ : ndarray of shape (n_units, d)
    quantization_error_history_ : ndarray of shape (n_epochs + 1,)
        Mean distance of the training samples to their best-matching unit, before
        training and after every epoch, recorded by the training loop.
    learning_rate_history_, radius_history_ : ndarray of shape (n_epochs * m,)
        ``eta_t`` and ``sigma_t`` of every step.
    order_, bmus_ : ndarray of int, shape (n_epochs * m,)
        The sample presented at every step and its best-matching unit.
    quantization_error_ : float
    n_features_in_ : int

    References
    ----------
    003 §3.5.3; Kohonen 1982.
    """

    def __init__(self, *, n_rows: int = 5, n_cols: int = 5, learning_rate: float = 0.5,
                 final_learning_rate: float = 0.01, radius: float | None = None,
                 final_radius: float = 0.5, n_epochs: int = 10,
                 random_state: object = None) -> None:
        self.n_rows = n_rows
        self.n_cols = n_cols
        self.learning_rate = learning_rate
        self.final_learning_rate = final_learning_rate
        self.radius = radius
        self.final_radius = final_radius
        self.n_epochs = n_epochs
        self.random_state = random_state

    def fit(self, X: ArrayLike, y: object = None) -> SOM:
        """Train the map on the rows of ``X``."""
        X = validate_features(self, X, reset=True)
        rows = check_int(self.n_rows, "n_rows", low=1, high=MAX_SIDE)
        cols = check_int(self.n_cols, "n_cols", low=1, high=MAX_SIDE)
        eta0 = check_real(self.learning_rate, "learning_rate", low=0.0, high=1.0,
                          low_open=True)
        eta1 = check_real(self.final_learning_rate, "final_learning_rate", low=0.0,
                          high=eta0, low_open=True)
        sigma0 = (max(rows, cols) / 2.0 if self.radius is None
                  else check_real(self.radius, "radius", low=0.0, low_open=True))
        sigma1 = check_real(self.final_radius, "final_radius", low=0.0, high=sigma0,
                            low_open=True)
        m = X.shape[0]
        epochs = check_int(self.n_epochs, "n_epochs", low=1, high=max(1, MAX_STEPS // m))
        rng = make_rng(self.random_state)

        self._scale = float(np.max(np.abs(X))) or 1.0
        Xs = X / self._scale
        k = rows * cols
        self.lattice_ = np.stack(np.divmod(np.arange(k), cols), axis=1).astype(float)
        lattice_sq = np.sum((self.lattice_[:, None] - self.lattice_[None]) ** 2, axis=2)
        start = rng.choice(m, size=k, replace=k > m)
        W = Xs[start].copy()
        self.initial_weights_ = W * self._scale

        T = epochs * m
        frac = np.arange(T) / max(T - 1, 1)
        etas = eta0 * (eta1 / eta0) ** frac
        sigmas = sigma0 * (sigma1 / sigma0) ** frac
        qe = np.empty(epochs + 1)
        qe[0] = self._quantization(Xs, W)
        order = np.concatenate([rng.permutation(m) for _ in range(epochs)])
        bmus = np.empty(T, dtype=np.intp)
        for t, j in enumerate(order):  # sequential by nature: one sample per step
            x = Xs[j]
            diff = x - W
            b = int(np.argmin(np.einsum("kd,kd->k", diff, diff)))
            h = np.exp(-lattice_sq[b] / (2.0 * sigmas[t] ** 2))
            W += (etas[t] * h)[:, None] * diff
            bmus[t] = b
            if (t + 1) % m == 0:
                qe[(t + 1) // m] = self._quantization(Xs, W)
        self.weights_ = W * self._scale
        self.quantization_error_history_ = qe * self._scale
        self.quantization_error_ = float(qe[-1] * self._scale)
        self.learning_rate_history_ = etas
        self.radius_history_ = sigmas
        self.order_ = order
        self.bmus_ = bmus
        return self

    @staticmethod
    def _quantization(Xs: np.ndarray, W: np.ndarray) -> float:
        return float(np.mean(np.sqrt(np.min(_squared_distances(Xs, W), axis=1))))

    def predict(self, X: ArrayLike) -> np.ndarray:
        """Index of the best-matching unit of each sample."""
        X = validate_features(self, X, reset=False)
        W = self.weights_ / self._scale
        with np.errstate(over="ignore", invalid="ignore"):
            d = _squared_distances(X / self._scale, W)
        d = np.where(np.isnan(d), np.inf, d)
        return np.argmin(d, axis=1).astype(np.int64)

    def transform(self, X: ArrayLike) -> np.ndarray:
        """Lattice coordinates ``(row, col)`` (n, 2) of each sample's best-matching unit."""
        units = self.predict(X)
        return self.lattice_[units]

    def quantization_error(self, X: ArrayLike) -> float:
        """Mean distance of the rows of ``X`` to their best-matching unit's weights."""
        X = validate_features(self, X, reset=False)
        with np.errstate(over="ignore"):
            d = _squared_distances(X / self._scale, self.weights_ / self._scale)
        return float(np.mean(np.sqrt(np.min(d, axis=1)))) * self._scale
