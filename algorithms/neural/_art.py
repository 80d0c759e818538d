"""An ART-style competitive network (003 §3.5.2): winner-take-all with a vigilance test.

The network has a comparison layer (the input ``x``) and a recognition layer of units,
each holding a prototype ``c_u``. The units compete for every presented sample: the one
whose prototype is most similar to ``x`` wins and is the only active unit (winner-take-all);
all others are inhibited. Then the vigilance test decides between the two ways of
learning (Zhou 2016 §5.5.2 describes the rule the notes summarise):

- resonance: the winner's similarity exceeds the vigilance ``rho``; the winner alone
  learns, ``c_w <- c_w + eta (x - c_w)`` (so ``||x - c_w'|| = (1 - eta) ||x - c_w||``:
  the same input now scores a larger similarity);
- reset: otherwise (or when the layer is still empty) a new recognition unit is created
  with prototype ``x``; no existing prototype changes.

Similarity is ``s(x, c) = 1 / (1 + ||x - c||_2)`` in (0, 1], so ``rho`` in (0, 1) is the
usual ART vigilance (a larger ``rho`` asks for closer matches and creates more units): a
winner resonates exactly when ``||x - c_w|| < 1 / rho - 1``.

New units are created online, so the network learns from a stream (``partial_fit``)
without overwriting what earlier samples built far away: the stability-plasticity trade-off
of §3.5.2. The presentation loop is sequential by nature (every decision depends on the
prototypes the previous samples left); the competition inside each step is one
vectorised distance computation.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike
from sklearn.base import BaseEstimator, ClusterMixin, TransformerMixin

from algorithms._validation import (
    check_array_argument,
    check_bool,
    check_real,
    make_rng,
    validate_features,
)

__all__ = ["ART", "art_similarity"]


def _distances(X: np.ndarray, P: np.ndarray) -> np.ndarray:
    """Euclidean distances (n, k) between the rows of ``X`` and ``P``, without overflow
    or underflow of the squares: each difference is divided by its row's largest entry."""
    diff = X[:, None, :] - P[None, :, :]
    with np.errstate(over="ignore", invalid="ignore"):
        top = np.max(np.abs(diff), axis=2) if diff.shape[2] else np.zeros(diff.shape[:2])
        safe = np.where(top > 0, top, 1.0)
        ratio = diff / safe[..., None]
        return np.where(top > 0, top * np.sqrt(np.einsum("nkd,nkd->nk", ratio, ratio)), 0.0)


def art_similarity(X: ArrayLike, prototypes: ArrayLike) -> np.ndarray:
    """Similarity ``1 / (1 + ||x - c||)`` of every row of ``X`` (n, d) to every prototype
    (k, d): an (n, k) array in [0, 1] (0 only when the distance overflows float64)."""
    X_arr = check_array_argument(X, "X", ndim=2, real=True)
    P = check_array_argument(prototypes, "prototypes", ndim=2, real=True)
    if P.shape[1] != X_arr.shape[1]:
        raise ValueError(f"prototypes must have {X_arr.shape[1]} columns like X, got "
                         f"shape {P.shape}.")
    return 1.0 / (1.0 + _distances(X_arr, P))


class ART(ClusterMixin, TransformerMixin, BaseEstimator):
    """Competitive clustering with a vigilance threshold (003 §3.5.2).

    Parameters
    ----------
    vigilance : float, default=0.5
        ``rho`` in (0, 1): the winner resonates (and learns) when its similarity
        ``1 / (1 + ||x - c||)`` exceeds ``rho``; otherwise a new unit is created.
    learning_rate : float, default=0.5
        ``eta`` in (0, 1]: the resonating winner moves to ``c + eta (x - c)``.
    shuffle : bool, default=False
        Present the samples of each ``fit``/``partial_fit`` call in a random order
        (drawn from ``random_state``) instead of the given one.
    random_state : None, int or Generator, default=None
        Only used with ``shuffle=True``.

    Attributes
    ----------
    prototypes_ : ndarray of shape (n_units, d)
        ``c_u`` of every recognition unit, in order of creation.
    n_units_ : int
    order_ : ndarray of shape (n_presented,)
        Row of the presented sample, within its ``fit``/``partial_fit`` call.
    winners_ : ndarray of shape (n_presented,)
        The unit that won each presentation (after a reset: the new unit).
    winner_similarity_ : ndarray of shape (n_presented,)
        Similarity of the competition winner before learning (0 when the layer was
        empty).
    created_ : ndarray of bool, shape (n_presented,)
        Whether the presentation created a new unit (reset) instead of resonating.
    labels_ : ndarray of shape (n_samples,)
        The winning unit of each sample of the last ``fit`` under the final prototypes.
    n_features_in_ : int

    References
    ----------
    003 §3.5.2; Zhou 2016, Machine Learning, §5.5.2; Carpenter & Grossberg 1987.
    """

    def __init__(self, *, vigilance: float = 0.5, learning_rate: float = 0.5,
                 shuffle: bool = False, random_state: object = None) -> None:
        self.vigilance = vigilance
        self.learning_rate = learning_rate
        self.shuffle = shuffle
        self.random_state = random_state

    def _hyper(self) -> tuple[float, float, bool]:
        rho = check_real(self.vigilance, "vigilance", low=0.0, high=1.0, low_open=True,
                         high_open=True)
        eta = check_real(self.learning_rate, "learning_rate", low=0.0, high=1.0,
                         low_open=True)
        return rho, eta, check_bool(self.shuffle, "shuffle")

    def fit(self, X: ArrayLike, y: object = None) -> ART:
        """Start with an empty recognition layer and present the rows of ``X`` once."""
        X = validate_features(self, X, reset=True)
        self._hyper()
        self._rng = make_rng(self.random_state)
        self.prototypes_ = np.empty((0, X.shape[1]))
        self.order_ = np.empty(0, dtype=np.intp)
        self.winners_ = np.empty(0, dtype=np.intp)
        self.winner_similarity_ = np.empty(0)
        self.created_ = np.empty(0, dtype=bool)
        self._present(X)
        self.labels_ = self.predict(X)
        return self

    def partial_fit(self, X: ArrayLike, y: object = None) -> ART:
        """Present the rows of ``X`` to the current network (online learning)."""
        if not hasattr(self, "prototypes_"):
            return self.fit(X)
        X = validate_features(self, X, reset=False)
        self._hyper()
        self._present(X)
        return self

    def _present(self, X: np.ndarray) -> None:
        rho, eta, shuffle = self._hyper()
        order = self._rng.permutation(X.shape[0]) if shuffle else np.arange(X.shape[0])
        n = order.shape[0]
        winners = np.empty(n, dtype=np.intp)
        sims = np.zeros(n)
        created = np.zeros(n, dtype=bool)
        stack = self.prototypes_.copy()
        for t, j in enumerate(order):  # sequential: each step sees the previous ones
            x = X[j]
            if stack.shape[0]:
                s = 1.0 / (1.0 + _distances(x[None, :], stack)[0])
                w = int(np.argmax(s))  # winner-take-all (ties: the oldest unit)
                sims[t] = s[w]
            if stack.shape[0] and sims[t] > rho:  # resonance: the winner learns
                stack[w] = stack[w] + eta * (x - stack[w])
                winners[t] = w
            else:  # reset: a new recognition unit with prototype x
                stack = np.vstack([stack, x[None, :]])
                winners[t] = stack.shape[0] - 1
                created[t] = True
        self.prototypes_ = stack
        self.n_units_ = int(stack.shape[0])
        self.order_ = np.concatenate([self.order_, order])
        self.winners_ = np.concatenate([self.winners_, winners])
        self.winner_similarity_ = np.concatenate([self.winner_similarity_, sims])
        self.created_ = np.concatenate([self.created_, created])

    def similarity(self, X: ArrayLike) -> np.ndarray:
        """Similarity (n, n_units) of every sample to every recognition unit."""
        X = validate_features(self, X, reset=False)
        return 1.0 / (1.0 + _distances(X, self.prototypes_))

    def predict(self, X: ArrayLike) -> np.ndarray:
        """The winning unit of each sample (no learning, no new unit)."""
        return np.argmax(self.similarity(X), axis=1).astype(np.int64)

    def transform(self, X: ArrayLike) -> np.ndarray:
        """The recognition layer's output (n, n_units): 1 for the winner, 0 elsewhere."""
        winners = self.predict(X)
        out = np.zeros((winners.shape[0], self.n_units_))
        out[np.arange(winners.shape[0]), winners] = 1.0
        return out
