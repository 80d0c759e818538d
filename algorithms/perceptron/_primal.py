"""Primal perceptron learning algorithm (Lin's cyclic PLA / Li Hang's SGD form)."""

from __future__ import annotations

import math

import numpy as np
from numpy.typing import ArrayLike
from sklearn.base import BaseEstimator, ClassifierMixin

from algorithms._validation import check_bool, check_choice

from ._base import (
    VISITING_ORDERS,
    BinaryPerceptronMixin,
    check_finite_weights,
    initial_weights,
    run_passes,
    visiting_orders,
)

__all__ = ["Perceptron", "first_mistake"]

_FIRST_BLOCK = 8  # rows scored at once when looking for the next mistake; doubles per miss


def first_mistake(Z: np.ndarray, w_hat: np.ndarray, start: int) -> tuple[int, float]:
    """The first row ``j >= start`` of ``Z`` with ``Z[j] . w_hat <= 0``: ``(j, margin)``,
    or ``(-1, nan)`` when there is none.

    ``Z`` holds the signed augmented samples ``y_i x_hat_i`` in visiting order,
    so ``Z[j] . w_hat`` is the functional margin; the one returned is the very value
    the mistake test saw. Rows are scored in blocks of doubling size: the cost is
    proportional to the distance to the next mistake, and no Python work is spent on
    individual correctly classified visits.
    """
    n_rows = Z.shape[0]
    block = _FIRST_BLOCK
    while start < n_rows:
        stop = min(n_rows, start + block)
        scores = Z[start:stop] @ w_hat
        hits = np.flatnonzero(scores <= 0.0)
        if hits.size:
            return start + int(hits[0]), float(scores[hits[0]])
        start = stop
        block *= 2
    return -1, math.nan


class Perceptron(BinaryPerceptronMixin, ClassifierMixin, BaseEstimator):
    """Primal perceptron learning algorithm with full update bookkeeping.

    Parameters
    ----------
    eta : float, default=1.0
        Learning rate ``eta > 0`` (the notes use ``0 < eta <= 1``; larger values
        are accepted).
    w_init : array-like of shape (n_features,) or None, default=None
        Initial weights ``w_0``; None means zero.
    b_init : float, default=0.0
        Initial intercept ``b_0``. With ``fit_intercept=False`` the intercept
        stays fixed at ``b_init``.
    fit_intercept : bool, default=True
        Whether ``b`` is updated (``b <- b + eta y_i``).
    order : {"cyclic", "random"}, default="cyclic"
        Visiting order. ``"cyclic"`` visits ``i = 0..N-1`` every pass (Lin's
        cyclic PLA); ``"random"`` visits a fresh random permutation every pass,
        drawn from ``np.random.default_rng(random_state)``.
    max_iter : int, default=1000
        Maximum number of passes (epochs) over the data.
    random_state : None, int or numpy.random.Generator, default=None
        Seed for ``order="random"`` (unused for ``"cyclic"``).

    Attributes
    ----------
    classes_ : ndarray of shape (2,)
        Sorted labels; ``classes_[1]`` is mapped to ``+1``, ``classes_[0]`` to ``-1``.
    coef_ : ndarray of shape (n_features,)
        Final weights ``w``.
    intercept_ : float
        Final intercept ``b``.
    w_hat_ : ndarray of shape (n_features + 1,)
        Augmented final weights ``(w, b)``.
    n_updates_ : int
        Total number of updates ``k`` (the mistake count of Novikoff's theorem).
    n_iter_ : int
        Number of passes run, including the final mistake-free pass.
    converged_ : bool
        True iff a full pass made no mistake.
    update_indices_ : ndarray of shape (n_updates_,)
        Index of the sample used at each update, in order.
    updates_per_pass_ : ndarray of shape (n_iter_,)
        Number of updates made in each pass.
    weight_history_ : ndarray of shape (n_updates_ + 1, n_features + 1)
        Augmented weights ``w_hat_0, ..., w_hat_k``: before the first update and
        after each update (``weight_history_[-1] == w_hat_``), recorded by the
        training loop as it runs.
    mistake_counts_ : ndarray of shape (n_samples,)
        ``n_i``, the number of updates made with sample ``i``.
    update_margins_ : ndarray of shape (n_updates_,)
        The margin sequence: ``y_i (w_{t-1} . x_i + b_{t-1})`` of the point used at
        update ``t``, just before that update (never positive), as the mistake
        test computed it.
    n_features_in_ : int

    Notes
    -----
    Mistake test ``y_i (w . x_i + b) <= 0`` (so a zero score is a mistake, as in
    000 §1.3's code and 001 §一.4 / 004 §5.3.1 step 2); update
    ``w <- w + eta y_i x_i``, ``b <- b + eta y_i``, applied immediately. The run
    stops after the first full pass without a mistake (000 §1.3, 002 "Cyclic
    PLA"); on non-separable data it stops at ``max_iter`` passes with
    ``converged_ = False`` and a ``ConvergenceWarning``. ``predict`` uses
    ``sign(0) = +1`` (004 §5.1).

    References
    ----------
    000 §1.3 (code); 001 §一.3-4; 002 "Cyclic PLA"; 004 §5.3.1.
    """

    def __init__(
        self,
        *,
        eta: float = 1.0,
        w_init: ArrayLike | None = None,
        b_init: float = 0.0,
        fit_intercept: bool = True,
        order: str = "cyclic",
        max_iter: int = 1000,
        random_state: int | np.random.Generator | None = None,
    ) -> None:
        self.eta = eta
        self.w_init = w_init
        self.b_init = b_init
        self.fit_intercept = fit_intercept
        self.order = order
        self.max_iter = max_iter
        self.random_state = random_state

    def fit(self, X: ArrayLike, y: ArrayLike) -> Perceptron:
        """Run the perceptron learning algorithm on ``(X, y)``; returns ``self``."""
        eta, max_iter = self._check_run_hyperparameters()
        order = check_choice(self.order, "order", VISITING_ORDERS)
        fit_intercept = check_bool(self.fit_intercept, "fit_intercept")
        X_arr, y_signed, rng = self._signed_training_data(X, y)
        n_samples, n_features = X_arr.shape
        w_hat0 = initial_weights(self.w_init, self.b_init, n_features)

        X_hat = np.hstack([X_arr, np.ones((n_samples, 1))])
        Z = y_signed[:, None] * X_hat  # Z_i . w_hat = y_i (w . x_i + b)
        steps = self._update_steps(Z, eta, fit_intercept)

        w_hat = w_hat0.copy()
        # Recorded by the loop itself, as it runs: the iterate after every update and the
        # margin the mistake test saw just before it (claims read these, not a rebuild).
        history = [w_hat0.copy()]
        margins: list[float] = []
        seen = [math.nan]  # margin of the mistake the searcher last returned

        def searcher(visit: np.ndarray):
            Z_pass = Z[visit]

            def next_mistake(position: int) -> int:
                found, seen[0] = first_mistake(Z_pass, w_hat, position)
                return found

            return next_mistake

        def update(i: int) -> None:
            margins.append(seen[0])
            w_hat[:] += steps[i]
            history.append(w_hat.copy())

        updates, per_pass, converged = run_passes(
            visiting_orders(order, n_samples, rng), max_iter, searcher, update
        )
        check_finite_weights(w_hat, type(self).__name__)
        self._record_passes(updates, per_pass, converged)
        self.weight_history_ = np.asarray(history)
        self.update_margins_ = np.asarray(margins, dtype=np.float64)
        self.mistake_counts_ = np.bincount(self.update_indices_, minlength=n_samples)
        self.w_hat_ = w_hat
        self.coef_ = w_hat[:-1].copy()
        self.intercept_ = float(w_hat[-1])
        self._warn_if_not_converged(max_iter)
        return self

    def _update_steps(self, Z: np.ndarray, eta: float, fit_intercept: bool) -> np.ndarray:
        """The step ``eta y_i x_hat_i`` added to ``w_hat`` by an update on sample ``i``
        (bias component 0 without an intercept); one row per sample."""
        steps = eta * Z
        if not fit_intercept:
            steps[:, -1] = 0.0
        return steps
