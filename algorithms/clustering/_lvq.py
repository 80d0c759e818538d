"""Learning vector quantisation of 003 §7.4.2, Fig 9.4.

Prototypes ``p_1..p_q`` carry preset class labels ``t_1..t_q``. Each iteration draws a
labelled sample ``(x_j, y_j)`` at random (line 3), finds the nearest prototype
``p_{i*}`` (lines 4-5) and moves it towards ``x_j`` when the labels agree, away otherwise
(lines 6-11)::

    p' = p_{i*} + eta (x_j - p_{i*})   if y_j = t_{i*}
    p' = p_{i*} - eta (x_j - p_{i*})   otherwise

so ``||p' - x_j|| = (1 - eta) ||p_{i*} - x_j||`` or ``(1 + eta) ||p_{i*} - x_j||``. The
prototypes induce the partition of the space into the regions where each is nearest.
"""

from __future__ import annotations

import warnings

import numpy as np
from numpy.typing import ArrayLike
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.exceptions import ConvergenceWarning

from algorithms._validation import (
    check_bool,
    check_int,
    check_real,
    make_rng,
    validate_classification,
    validate_features,
)
from algorithms.clustering._kmeans import nearest_centre

__all__ = ["LVQ"]


#: Largest number of single-sample steps: the loop keeps a few arrays of this length
#: (about 0.4 GiB at the cap) and runs a minute or so; more is refused.
MAX_ITER = 10**7


class LVQ(ClassifierMixin, BaseEstimator):
    """Learning vector quantisation (003 §7.4.2, Fig 9.4).

    Parameters
    ----------
    prototype_labels : array-like of shape (q,), default=None
        ``t_1..t_q``, each a class of ``y``; ``None`` means one prototype per class.
    learning_rate : float, default=0.1
        ``eta`` in (0, 1).
    max_iter : int, default=5000
        Number of iterations (one random sample each): the stopping condition of line 12.
    tol : float, default=None
        If given, also stop once the prototypes moved less than ``tol`` in total over the
        last ``m`` iterations (``m`` the number of samples); the run then has
        ``converged_ = True``, and a ``ConvergenceWarning`` says when it never happened.
    keep_history : bool, default=False
        Record the winning prototype before and after every update.
    random_state : None, int or Generator, default=None

    Attributes
    ----------
    classes_ : ndarray
    prototypes_ : ndarray of shape (q, n)
    prototype_labels_ : ndarray of shape (q,)
        ``t_i`` (class labels).
    initial_prototypes_ : ndarray of shape (q, n)
        Line 1: ``p_i`` a random sample of class ``t_i``.
    samples_, winners_ : ndarray of shape (n_iter,)
        ``j`` (line 3) and ``i*`` (line 5) of every iteration.
    agreements_ : ndarray of bool, shape (n_iter,)
        ``y_j = t_{i*}`` (line 6).
    before_, after_ : ndarray of shape (n_iter, n), only with ``keep_history``
        ``p_{i*}`` before and after the update of each iteration.
    labels_ : ndarray of shape (m,)
        Index of the nearest prototype of each training sample (its region).
    n_iter_ : int
    converged_ : bool
    n_features_in_ : int

    References
    ----------
    003 §7.4.2, Fig 9.4.
    """

    def __init__(self, prototype_labels: ArrayLike | None = None, *, learning_rate: float = 0.1,
                 max_iter: int = 5000, tol: float | None = None, keep_history: bool = False,
                 random_state: object = None) -> None:
        self.prototype_labels = prototype_labels
        self.learning_rate = learning_rate
        self.max_iter = max_iter
        self.tol = tol
        self.keep_history = keep_history
        self.random_state = random_state

    def _prototype_codes(self) -> np.ndarray:
        if self.prototype_labels is None:
            return np.arange(self.classes_.shape[0])
        t = np.asarray(self.prototype_labels)
        if t.ndim != 1 or t.shape[0] == 0:
            raise ValueError("prototype_labels must be a non-empty 1-d sequence of classes.")
        codes = np.searchsorted(self.classes_, t)
        codes = np.clip(codes, 0, self.classes_.shape[0] - 1)
        if not np.all(self.classes_[codes] == t):
            raise ValueError(f"prototype_labels must be classes of y "
                             f"{self.classes_.tolist()[:10]}, got {t.tolist()[:10]}.")
        return codes

    def fit(self, X: ArrayLike, y: ArrayLike) -> LVQ:
        """Run Fig 9.4 on the labelled sample ``(X, y)``."""
        X, codes = validate_classification(self, X, y)
        eta = check_real(self.learning_rate, "learning_rate", low=0.0, high=1.0,
                         low_open=True, high_open=True)
        max_iter = check_int(self.max_iter, "max_iter", low=1, high=MAX_ITER)
        tol = None if self.tol is None else check_real(self.tol, "tol", low=0.0)
        keep = check_bool(self.keep_history, "keep_history")
        rng = make_rng(self.random_state)
        t = self._prototype_codes()
        P = np.empty((t.shape[0], X.shape[1]))
        for c in np.unique(t):
            slots = np.flatnonzero(t == c)
            pool = np.flatnonzero(codes == c)
            P[slots] = X[rng.choice(pool, size=slots.shape[0],
                                    replace=slots.shape[0] > pool.shape[0])]
        self.initial_prototypes_ = P.copy()
        m = X.shape[0]
        samples = rng.integers(m, size=max_iter)
        winners = np.empty(max_iter, dtype=np.intp)
        agree = np.empty(max_iter, dtype=bool)
        moves = np.zeros(max_iter)
        before = np.empty((max_iter, X.shape[1])) if keep else None
        after = np.empty((max_iter, X.shape[1])) if keep else None
        n_iter, converged = max_iter, False
        for it in range(max_iter):
            x = X[samples[it]]
            diff = x - P
            i = int(np.argmin(np.einsum("ij,ij->i", diff, diff)))
            agree[it] = codes[samples[it]] == t[i]
            step = (eta if agree[it] else -eta) * diff[i]
            if keep:
                before[it] = P[i]
            P[i] += step
            if keep:
                after[it] = P[i]
            winners[it] = i
            moves[it] = np.sqrt(step @ step)
            if tol is not None and it + 1 >= m and moves[it + 1 - m:it + 1].sum() < tol:
                n_iter, converged = it + 1, True
                break
        self.prototypes_ = P
        self.prototype_labels_ = self.classes_[t]
        self.samples_ = samples[:n_iter]
        self.winners_ = winners[:n_iter]
        self.agreements_ = agree[:n_iter]
        if keep:
            self.before_, self.after_ = before[:n_iter], after[:n_iter]
        self.n_iter_ = n_iter
        self.converged_ = converged
        self.labels_ = nearest_centre(X, P).astype(np.int64)
        if tol is not None and not converged:
            warnings.warn(f"LVQ did not converge: the prototypes still moved >= tol={tol} "
                          f"over the last {m} of max_iter={max_iter} iterations.",
                          ConvergenceWarning, stacklevel=2)
        return self

    def nearest_prototype(self, X: ArrayLike) -> np.ndarray:
        """Index of the nearest prototype of each row of ``X`` (its Voronoi region)."""
        X = validate_features(self, X, reset=False)
        return nearest_centre(X, self.prototypes_).astype(np.int64)

    def predict(self, X: ArrayLike) -> np.ndarray:
        """The class ``t_i`` of the nearest prototype."""
        nearest = self.nearest_prototype(X)
        return self.prototype_labels_[nearest]
