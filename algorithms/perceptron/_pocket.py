"""Pocket PLA (Lin, 002 "Pocket PLA"; 000 §1.5): PLA that keeps the best weights seen."""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike
from sklearn.base import BaseEstimator, ClassifierMixin

from ._base import BinaryPerceptronMixin, check_finite_weights, initial_weights
from ._kernels import pocket_iterations

__all__ = ["PocketPerceptron", "PocketRun"]


class PocketRun:
    """Prepared data of one pocket run: signed augmented samples and update steps."""

    def __init__(self, Z: np.ndarray, steps: np.ndarray, w_hat0: np.ndarray) -> None:
        self.Z = Z  # Z_i . w_hat = y_i (w . x_i + b)
        self.steps = steps  # eta y_i x_hat_i
        self.w_hat0 = w_hat0

    def mistakes(self, w_hat: np.ndarray) -> np.ndarray:
        """Indices of all samples with ``y_i (w . x_i + b) <= 0``, in increasing order."""
        return np.flatnonzero(self.Z @ w_hat <= 0.0)


class PocketBase(BinaryPerceptronMixin, ClassifierMixin, BaseEstimator):
    """Hyperparameters, validation and fitted-attribute bookkeeping of pocket variants."""

    def __init__(
        self,
        *,
        eta: float = 1.0,
        max_iter: int = 1000,
        random_state: int | np.random.Generator | None = None,
        w_init: ArrayLike | None = None,
        b_init: float = 0.0,
    ) -> None:
        self.eta = eta
        self.max_iter = max_iter
        self.random_state = random_state
        self.w_init = w_init
        self.b_init = b_init

    def _prepare(
        self, X: ArrayLike, y: ArrayLike
    ) -> tuple[PocketRun, int, np.random.Generator]:
        eta, max_iter = self._check_run_hyperparameters()
        X_arr, y_signed, rng = self._signed_training_data(X, y)
        w_hat0 = initial_weights(self.w_init, self.b_init, X_arr.shape[1])
        Z = y_signed[:, None] * np.hstack([X_arr, np.ones((X_arr.shape[0], 1))])
        return PocketRun(Z, eta * Z, w_hat0), max_iter, rng

    def _store(
        self,
        pocket: np.ndarray,
        pocket_iteration: int,
        history: list[np.ndarray],
        update_indices: list[int],
        pocket_errors: list[int],
        current_errors: list[int],
    ) -> None:
        self.update_indices_ = np.asarray(update_indices, dtype=np.intp)
        self.n_updates_ = int(self.update_indices_.shape[0])
        self.n_iter_ = self.n_updates_
        self.pocket_errors_ = np.asarray(pocket_errors, dtype=np.intp)
        self.current_errors_ = np.asarray(current_errors, dtype=np.intp)
        self.converged_ = bool(self.current_errors_[-1] == 0)
        self.pocket_iteration_ = int(pocket_iteration)
        self.weight_history_ = np.asarray(history)  # recorded by the loop as it ran
        check_finite_weights(self.weight_history_, type(self).__name__)
        self.last_w_hat_ = history[-1].copy()
        self.w_hat_ = pocket.copy()
        self.coef_ = pocket[:-1].copy()
        self.intercept_ = float(pocket[-1])


class PocketPerceptron(PocketBase):
    """Pocket PLA: run PLA on randomly chosen mistakes, return the best weights seen.

    Parameters
    ----------
    eta : float, default=1.0
        Learning rate ``eta > 0`` of the PLA updates.
    max_iter : int, default=1000
        Maximum number of iterations, i.e. of PLA updates (not passes: every
        iteration makes exactly one update). Stopping at ``max_iter`` is the
        normal stop of the pocket algorithm ("enough iterations", 002), so no
        warning is issued; ``converged_`` tells whether a mistake-free ``w`` was
        found.
    random_state : None, int or numpy.random.Generator, default=None
        Seed of ``np.random.default_rng`` used to pick the mistake to correct.
    w_init : array-like of shape (n_features,) or None, default=None
        Initial weights ``w_0`` (None: zero).
    b_init : float, default=0.0
        Initial intercept ``b_0``.

    Attributes
    ----------
    coef_, intercept_ : ndarray of shape (n_features,), float
        The pocket weights ``w_hat`` (not the last PLA iterate).
    w_hat_ : ndarray of shape (n_features + 1,)
        Augmented pocket weights.
    last_w_hat_ : ndarray of shape (n_features + 1,)
        The last PLA iterate ``w_T`` (augmented).
    pocket_errors_ : ndarray of shape (n_updates_ + 1,)
        ``pocket_errors_[t]`` = training mistakes of the pocket after ``t``
        iterations (entry 0: the initial weights). Non-increasing.
    current_errors_ : ndarray of shape (n_updates_ + 1,)
        ``current_errors_[t]`` = training mistakes of the iterate ``w_t``.
    pocket_iteration_ : int
        The ``t`` such that the pocket holds ``w_t``.
    weight_history_ : ndarray of shape (n_updates_ + 1, n_features + 1)
        The PLA iterates ``w_hat_0, ..., w_hat_T``, recorded by the loop as it ran.
    update_indices_ : ndarray of shape (n_updates_,)
        Sample index corrected at each iteration.
    n_updates_, n_iter_ : int
        Number of iterations (= updates) run.
    converged_ : bool
        True iff a weight vector with zero training mistakes was found.
    classes_ : ndarray of shape (2,)

    Notes
    -----
    Each iteration ``t`` (002 "Pocket PLA"): find *all* mistakes of ``w_t``
    (``y_i (w_t . x_i + b_t) <= 0``, one vectorised pass); if there are none,
    stop; otherwise pick one uniformly at random among all of them, set
    ``w_{t+1} = w_t + eta y_i x_hat_i``, count the mistakes of ``w_{t+1}`` on the
    whole data set and replace the pocket only if ``w_{t+1}`` makes *strictly*
    fewer mistakes than the pocket. PLA continues from ``w_{t+1}`` either way.
    The pocket starts as the initial weights with their mistake count, so
    ``pocket_errors_[t] == min(current_errors_[:t + 1])``.

    The loop runs compiled (numba, the mistake draw made with the same generator and
    numpy's stream); the Python loop it reproduces stays as the reference (``_engine =
    "python"`` in a subclass). The code printed in 000 §1.5 differs from this (it compares with the
    current ``w``, among other things); :class:`NotesPocket` reproduces it.

    References
    ----------
    002 "Pocket PLA"; 000 §1.5.
    """

    #: ``"compiled"`` (the numba kernel) or ``"python"`` (the reference loop).
    _engine = "compiled"

    def fit(self, X: ArrayLike, y: ArrayLike) -> PocketPerceptron:
        """Run pocket PLA on ``(X, y)``; returns ``self`` holding the pocket weights."""
        run, max_iter, rng = self._prepare(X, y)
        if self._engine == "python":
            self._store(*_python_pocket(run, max_iter, rng))
            return self
        n, dim = run.Z.shape
        cap = min(max_iter, max(64, n)) + 1
        pocket, pocket_t, T, history, idx, pocket_err, current_err = pocket_iterations(
            np.ascontiguousarray(run.Z), np.ascontiguousarray(run.steps), run.w_hat0.copy(),
            max_iter, rng, np.empty((cap, dim)), np.empty(cap, dtype=np.intp),
            np.empty(cap, dtype=np.intp), np.empty(cap, dtype=np.intp))
        self._store(pocket, pocket_t, history[: T + 1], idx[:T], pocket_err[: T + 1],
                    current_err[: T + 1])
        return self


def _python_pocket(run: PocketRun, max_iter: int, rng: np.random.Generator):
    """The reference loop of :class:`PocketPerceptron` in Python/numpy: the arguments of
    ``_store``."""
    w_hat = run.w_hat0.copy()
    mistakes = run.mistakes(w_hat)
    pocket, pocket_err, pocket_t = w_hat.copy(), mistakes.size, 0
    pocket_errors, current_errors = [pocket_err], [mistakes.size]
    updates: list[int] = []
    history = [w_hat]
    while mistakes.size and len(updates) < max_iter:
        i = int(mistakes[rng.integers(mistakes.size)])
        w_hat = w_hat + run.steps[i]
        updates.append(i)
        history.append(w_hat)
        mistakes = run.mistakes(w_hat)
        if mistakes.size < pocket_err:
            pocket, pocket_err, pocket_t = w_hat.copy(), mistakes.size, len(updates)
        pocket_errors.append(pocket_err)
        current_errors.append(mistakes.size)
    return pocket, pocket_t, history, updates, pocket_errors, current_errors
