"""Primal perceptron learning algorithm (Lin's cyclic PLA / Li Hang's SGD form)."""

from __future__ import annotations

import math
from collections.abc import Iterator
from typing import NamedTuple

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
from ._kernels import pla_passes

__all__ = ["ENGINES", "PassRun", "Perceptron", "compiled_pla", "first_mistake", "python_pla"]

#: How a fit runs its loop: the numba kernel, or the step-by-step Python reference.
ENGINES = ("compiled", "python")

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


class PassRun(NamedTuple):
    """What a PLA run records: the final ``w_hat``, the sample of each update, the
    updates per pass, whether the last pass was clean, the iterates ``w_hat_0..w_hat_k``
    (None unless recorded) and the margin the mistake test saw before each update."""

    w_hat: np.ndarray
    updates: np.ndarray
    per_pass: np.ndarray
    converged: bool
    history: np.ndarray | None
    margins: np.ndarray


def python_pla(Z: np.ndarray, steps: np.ndarray, w_hat0: np.ndarray,
               orders: Iterator[np.ndarray], max_iter: int, record: bool = True) -> PassRun:
    """The reference loop, step by step in Python/numpy: each pass visits the next order,
    corrects every mistake ``Z_i . w_hat <= 0`` at once with ``w_hat += steps[i]``, and
    stops after a clean pass or ``max_iter`` passes (000 §1.3, 002 "Cyclic PLA")."""
    w_hat = w_hat0.copy()
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
        if record:
            history.append(w_hat.copy())

    updates, per_pass, converged = run_passes(orders, max_iter, searcher, update)
    return PassRun(w_hat, np.asarray(updates, dtype=np.intp),
                   np.asarray(per_pass, dtype=np.intp), converged,
                   np.asarray(history) if record else None,
                   np.asarray(margins, dtype=np.float64))


def compiled_pla(Z: np.ndarray, steps: np.ndarray, w_hat0: np.ndarray,
                 orders: Iterator[np.ndarray] | None, max_iter: int,
                 record: bool = True) -> PassRun:
    """The same loop in the numba kernel :func:`~._kernels.pla_passes`.

    ``orders=None`` means cyclic (``0..N-1`` every pass: all passes in one kernel call);
    otherwise one kernel call per pass with the next order (drawn by the caller, as the
    reference draws it).
    """
    n, dim = Z.shape
    Z = np.ascontiguousarray(Z, dtype=np.float64)
    steps = np.ascontiguousarray(steps, dtype=np.float64)
    w_hat = np.array(w_hat0, dtype=np.float64)
    cap = max(16, n)
    idx, margins = np.empty(cap, dtype=np.intp), np.empty(cap)
    history = np.empty((cap + 1 if record else 1, dim))
    history[0] = w_hat
    per_pass = np.empty(min(max_iter, 64), dtype=np.intp)
    count = n_pass = 0
    converged = False
    if orders is None:
        batches = iter([(np.arange(n, dtype=np.intp), max_iter)])
    else:
        batches = ((np.ascontiguousarray(o, dtype=np.intp), 1) for o in orders)
    while not converged and n_pass < max_iter:
        order, n_passes = next(batches)
        idx, margins, history, per_pass, count, n_pass, converged = pla_passes(
            Z, steps, order, n_passes, max_iter - n_pass, w_hat, record, idx, margins,
            history, count, per_pass, n_pass)
        if orders is None:
            break
    # Views, not copies: a buffer is at least half full (it doubles), and copying a long
    # history would cost as much as recording it.
    return PassRun(w_hat, idx[:count], per_pass[:n_pass], bool(converged),
                   history[: count + 1] if record else None, margins[:count])


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

    The loop runs compiled (numba, :func:`compiled_pla`); the step-by-step Python loop
    :func:`python_pla` is its reference (a subclass sets ``_engine = "python"``), and
    both record the same run. Only the visiting orders are drawn outside the loop, one
    ``rng.permutation(N)`` per pass in both.

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

    #: ``"compiled"`` (the numba kernel) or ``"python"`` (the reference loop).
    _engine = "compiled"

    def fit(self, X: ArrayLike, y: ArrayLike) -> Perceptron:
        """Run the perceptron learning algorithm on ``(X, y)``; returns ``self``."""
        eta, max_iter = self._check_run_hyperparameters()
        order = check_choice(self.order, "order", VISITING_ORDERS)
        fit_intercept = check_bool(self.fit_intercept, "fit_intercept")
        X_arr, y_signed, rng = self._signed_training_data(X, y)
        n_samples, n_features = X_arr.shape
        w_hat0 = initial_weights(self.w_init, self.b_init, n_features)

        Z = np.empty((n_samples, n_features + 1))  # Z_i . w_hat = y_i (w . x_i + b)
        np.multiply(y_signed[:, None], X_arr, out=Z[:, :-1])
        Z[:, -1] = y_signed
        steps = self._update_steps(Z, eta, fit_intercept)

        # Recorded by the loop itself, as it runs: the iterate after every update and the
        # margin the mistake test saw just before it (claims read these, not a rebuild).
        if self._engine == "python":
            run = python_pla(Z, steps, w_hat0, visiting_orders(order, n_samples, rng),
                             max_iter)
        else:
            orders = None if order == "cyclic" else visiting_orders(order, n_samples, rng)
            run = compiled_pla(Z, steps, w_hat0, orders, max_iter)
        w_hat = run.w_hat
        check_finite_weights(w_hat, type(self).__name__)
        self._record_passes(run.updates, run.per_pass, run.converged)
        self.weight_history_ = run.history
        self.update_margins_ = run.margins
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
