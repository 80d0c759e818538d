"""Dual form of the perceptron learning algorithm (Li Hang), with a Gram matrix or a kernel."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import numpy as np
from numpy.typing import ArrayLike
from sklearn.base import BaseEstimator, ClassifierMixin

from algorithms._validation import check_choice

from ._base import (
    VISITING_ORDERS,
    BinaryPerceptronMixin,
    check_finite_weights,
    run_passes,
    visiting_orders,
)
from ._kernels import dual_passes

__all__ = ["DualPerceptron"]

Kernel = Callable[[np.ndarray, np.ndarray], ArrayLike]


def _linear_kernel(A: np.ndarray, B: np.ndarray) -> np.ndarray:
    return A @ B.T


def _python_dual(G: np.ndarray, y_signed: np.ndarray, eta: float,
                 orders: Iterator[np.ndarray], max_iter: int):
    """The reference loop in Python/numpy: ``(kernel_part, b, counts, updates, per_pass,
    converged)``."""
    n_samples = G.shape[0]
    # kernel_part[j] = sum_i alpha_i y_i G_ij, maintained incrementally; b is kept
    # apart (as the primal keeps w . x and b apart) so that adding and removing
    # eta y_i to every score does not wash out small kernel terms.
    kernel_part = np.zeros(n_samples)
    b = 0.0
    counts = np.zeros(n_samples, dtype=np.intp)

    def searcher(visit: np.ndarray):
        y_visit = y_signed[visit]
        return lambda position: _first_dual_mistake(
            y_visit * (kernel_part[visit] + b), position
        )

    def update(i: int) -> None:
        nonlocal b
        step = eta * y_signed[i]
        kernel_part[:] += step * G[i]  # score_j gains eta y_i G_ij
        b += step
        counts[i] += 1

    updates, per_pass, converged = run_passes(orders, max_iter, searcher, update)
    return kernel_part, b, counts, updates, per_pass, converged


def _compiled_dual(G: np.ndarray, y_signed: np.ndarray, eta: float,
                   orders: Iterator[np.ndarray] | None, max_iter: int):
    """The same loop in the numba kernel :func:`~._kernels.dual_passes` (``orders=None``:
    cyclic, all passes in one call; else one call per drawn order)."""
    n = G.shape[0]
    G = np.ascontiguousarray(G, dtype=np.float64)
    y_signed = np.ascontiguousarray(y_signed, dtype=np.float64)
    kernel_part = np.zeros(n)
    counts = np.zeros(n, dtype=np.intp)
    idx = np.empty(max(16, n), dtype=np.intp)
    per_pass = np.empty(min(max_iter, 64), dtype=np.intp)
    b, count, n_pass, converged = 0.0, 0, 0, False
    while not converged and n_pass < max_iter:
        if orders is None:
            order, n_passes = np.arange(n, dtype=np.intp), max_iter
        else:
            order, n_passes = np.ascontiguousarray(next(orders), dtype=np.intp), 1
        idx, per_pass, b, count, n_pass, converged = dual_passes(
            G, y_signed, float(eta), order, n_passes, kernel_part, b, counts, idx, count,
            per_pass, n_pass)
    return kernel_part, float(b), counts, idx[:count], per_pass[:n_pass], bool(converged)


def _first_dual_mistake(margins: np.ndarray, start: int) -> int:
    """Position of the first entry ``j >= start`` with ``margins[j] <= 0``, or -1."""
    hits = np.flatnonzero(margins[start:] <= 0.0)
    return start + int(hits[0]) if hits.size else -1


class DualPerceptron(BinaryPerceptronMixin, ClassifierMixin, BaseEstimator):
    """Dual perceptron: ``w = sum_i alpha_i y_i x_i`` learned through ``alpha``.

    Parameters
    ----------
    eta : float, default=1.0
        Learning rate ``eta > 0``.
    order : {"cyclic", "random"}, default="cyclic"
        Visiting order, with exactly the same semantics and random stream as
        :class:`Perceptron` (same ``random_state`` gives the same visiting order).
    max_iter : int, default=1000
        Maximum number of passes (epochs).
    random_state : None, int or numpy.random.Generator, default=None
        Seed for ``order="random"``.
    kernel : "linear" or callable, default="linear"
        ``"linear"`` uses the Gram matrix ``G = X X^T``. A callable
        ``kernel(A, B)`` must return the matrix ``[k(a_i, b_j)]`` of shape
        ``(len(A), len(B))``; the data enter the algorithm only through it.

    Attributes
    ----------
    alpha_ : ndarray of shape (n_samples,)
        ``alpha_i = eta n_i`` (computed as ``eta * mistake_counts_``).
    intercept_ : float
        ``b = sum_i alpha_i y_i`` accumulated by the updates ``b <- b + eta y_i``.
    coef_ : ndarray of shape (n_features,)
        Only for ``kernel="linear"``: ``w = sum_i alpha_i y_i x_i``.
    mistake_counts_ : ndarray of shape (n_samples,)
        ``n_i``, number of updates made with sample ``i``.
    n_updates_ : int
    update_indices_ : ndarray of shape (n_updates_,)
    updates_per_pass_ : ndarray of shape (n_iter_,)
    n_iter_ : int
    converged_ : bool
    gram_ : ndarray of shape (n_samples, n_samples)
        The Gram (kernel) matrix used, ``G_ij = k(x_i, x_j)``.
    X_fit_ : ndarray of shape (n_samples, n_features)
    y_signed_ : ndarray of shape (n_samples,)
        Training labels mapped to -1/+1.
    classes_ : ndarray of shape (2,)

    Notes
    -----
    001 §三.2, 004 §5.3.4: start from ``alpha = 0, b = 0``; a visited sample is a
    mistake when ``y_i (sum_j alpha_j y_j G_ji + b) <= 0``; then
    ``alpha_i <- alpha_i + eta`` and ``b <- b + eta y_i``. Stopping and visiting
    rules are those of :class:`Perceptron`, so with the same visiting order the
    dual run reproduces the primal run started from zero (up to floating-point
    rounding of near-zero margins). The kernel sums ``sum_j alpha_j y_j G_ji`` are
    kept up to date incrementally (``+ eta y_i G[i, :]`` per update, an O(N)
    vector operation) and ``b`` is added when testing a visit. The loop runs compiled
    (numba); the Python loop it reproduces stays as the reference (``_engine =
    "python"`` in a subclass).

    References
    ----------
    001 §三 (Gram matrix, 001 §三.3); 004 §5.3.4.
    """

    def __init__(
        self,
        *,
        eta: float = 1.0,
        order: str = "cyclic",
        max_iter: int = 1000,
        random_state: int | np.random.Generator | None = None,
        kernel: str | Kernel = "linear",
    ) -> None:
        self.eta = eta
        self.order = order
        self.max_iter = max_iter
        self.random_state = random_state
        self.kernel = kernel

    #: ``"compiled"`` (the numba kernel) or ``"python"`` (the reference loop).
    _engine = "compiled"

    def _kernel_function(self) -> Kernel:
        if isinstance(self.kernel, str) and self.kernel == "linear":
            return _linear_kernel
        if callable(self.kernel):
            return self.kernel
        raise ValueError(f"kernel must be 'linear' or a callable k(A, B), got {self.kernel!r}.")

    def _kernel_matrix(self, A: np.ndarray, B: np.ndarray) -> np.ndarray:
        K = self._kernel_function()(A, B)
        if np.iscomplexobj(K):
            raise ValueError("kernel returned complex values; it must return a real matrix.")
        K = np.asarray(K, dtype=np.float64)
        if K.shape != (A.shape[0], B.shape[0]):
            raise ValueError(
                f"kernel must return a matrix of shape {(A.shape[0], B.shape[0])}, "
                f"got {K.shape}."
            )
        if not np.all(np.isfinite(K)):
            raise ValueError("kernel returned NaN or infinite values.")
        return K

    def fit(self, X: ArrayLike, y: ArrayLike) -> DualPerceptron:
        """Run the dual perceptron on ``(X, y)``; returns ``self``."""
        eta, max_iter = self._check_run_hyperparameters()
        order = check_choice(self.order, "order", VISITING_ORDERS)
        self._kernel_function()
        X_arr, y_signed, rng = self._signed_training_data(X, y)
        n_samples = X_arr.shape[0]
        G = self._kernel_matrix(X_arr, X_arr)

        if self._engine == "python":
            kernel_part, b, counts, updates, per_pass, converged = _python_dual(
                G, y_signed, eta, visiting_orders(order, n_samples, rng), max_iter)
        else:
            orders = None if order == "cyclic" else visiting_orders(order, n_samples, rng)
            kernel_part, b, counts, updates, per_pass, converged = _compiled_dual(
                G, y_signed, eta, orders, max_iter)

        self.gram_ = G
        self.X_fit_ = X_arr
        self.y_signed_ = y_signed
        self.mistake_counts_ = counts
        self.alpha_ = eta * counts.astype(np.float64)
        self.intercept_ = float(b)
        check_finite_weights(kernel_part, type(self).__name__)
        check_finite_weights(np.array([b]), type(self).__name__)
        self._record_passes(updates, per_pass, converged)
        if isinstance(self.kernel, str):
            self.coef_ = (self.alpha_ * y_signed) @ X_arr
        self._warn_if_not_converged(max_iter)
        return self

    def _raw_scores(self, X_arr: np.ndarray) -> np.ndarray:
        """Scores ``sum_j alpha_j y_j k(x_j, x) + b`` of validated samples."""
        K = self._kernel_matrix(self.X_fit_, X_arr)  # K[j, a] = k(x_j, x_a)
        return (self.alpha_ * self.y_signed_) @ K + self.intercept_

    def _signs(self, X: ArrayLike) -> np.ndarray:
        """``score >= 0`` per sample (a kernel score cannot be rescaled: overflow is an
        error, as in :meth:`decision_function`)."""
        return self.decision_function(X) >= 0.0
