"""What the perceptron estimators share: labels coded -1/+1, the initial weights, the
visiting orders, the hyperparameters of a PLA run, and prediction and loss of a fitted
``(coef_, intercept_)``.

Inputs are validated by the shared :mod:`algorithms._validation`; everything here runs
once per ``fit``/``predict`` call, never inside the per-update loops.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Iterator
from itertools import islice

import numpy as np
from numpy.typing import ArrayLike
from sklearn.exceptions import ConvergenceWarning

from algorithms._validation import (
    check_array_argument,
    check_int,
    check_real,
    check_squares_representable,
    labels_in_classes,
    make_rng,
    validate_classification,
    validate_features,
)

__all__ = [
    "MAX_ITER",
    "VISITING_ORDERS",
    "BinaryPerceptronMixin",
    "check_finite_weights",
    "initial_weights",
    "run_passes",
    "signed_labels",
    "visiting_orders",
]

VISITING_ORDERS = ("cyclic", "random")

#: Largest ``max_iter`` accepted. On separable data the cap only bounds a run that stops
#: by itself (claims pass Novikoff's (R/gamma)^2, up to ~1e8); beyond 1e9 passes (or
#: pocket iterations) a run on non-separable data, which uses every pass, cannot finish.
MAX_ITER = 10**9

#: Why a third class is refused (the notes' perceptron separates two classes).
BINARY = "the perceptron separates two classes; wrap it in a one-vs-rest scheme for more"


def signed_labels(classes: np.ndarray, y: object, n_samples: int) -> np.ndarray:
    """Labels given in the fitted ``classes`` mapped to ``-1/+1`` (ValueError naming y)."""
    return np.where(labels_in_classes(classes, y, n_samples) == 1, 1.0, -1.0)


def initial_weights(w_init: object, b_init: object, n_features: int) -> np.ndarray:
    """The augmented initial weights ``w_hat_0 = (w_init, b_init)`` of shape (d+1,).

    ``w_init=None`` means the zero vector (the notes' usual start ``w_0 = 0``).
    """
    w_hat = np.zeros(n_features + 1, dtype=np.float64)
    if w_init is not None:
        w_hat[:-1] = check_array_argument(w_init, "w_init", shape=(n_features,), real=True)
    w_hat[-1] = check_real(b_init, "b_init")
    return w_hat


def check_finite_weights(w_hat: np.ndarray, who: str) -> None:
    """ValueError when a run's weights overflowed float64 (huge ``eta``, ``w_init`` or X)."""
    if not np.all(np.isfinite(w_hat)):
        raise ValueError(
            f"{who}: the weights overflowed float64 during training; reduce eta or w_init, "
            "or rescale X."
        )


def visiting_orders(order: str, n_samples: int, rng: np.random.Generator) -> Iterator[np.ndarray]:
    """Yield, epoch after epoch, the order in which the samples are visited.

    ``"cyclic"``: ``0, 1, ..., N-1`` every epoch (Lin's cyclic PLA, 002).
    ``"random"``: a fresh ``rng.permutation(N)`` every epoch (Li Hang picks the
    points freely, 001 §一.4). The primal and the dual perceptron draw from this
    same generator, so equal ``random_state`` means equal visiting orders.
    """
    cyclic = np.arange(n_samples)
    while True:
        yield cyclic if order == "cyclic" else rng.permutation(n_samples)


def run_passes(
    orders: Iterator[np.ndarray],
    max_iter: int,
    searcher: Callable[[np.ndarray], Callable[[int], int]],
    update: Callable[[int], None],
) -> tuple[list[int], list[int], bool]:
    """Run PLA passes until a pass makes no update or ``max_iter`` passes are done.

    Each pass visits the samples in the next ``order``. ``searcher(order)`` returns the
    pass's ``next_mistake(position)``: the first position ``>= position`` of ``order``
    whose sample is a mistake of the current weights, or -1. ``update(i)`` corrects the
    weights on sample ``i`` at once, and the search resumes after it. Returns
    ``(update_indices, updates_per_pass, converged)``.
    """
    updates: list[int] = []
    per_pass: list[int] = []
    for order in islice(orders, max_iter):
        next_mistake = searcher(order)
        n_before = len(updates)
        position = next_mistake(0)
        while position >= 0:
            i = int(order[position])
            update(i)
            updates.append(i)
            position = next_mistake(position + 1)
        per_pass.append(len(updates) - n_before)
        if per_pass[-1] == 0:
            return updates, per_pass, True
    return updates, per_pass, False


class BinaryPerceptronMixin:
    """Validation, ``decision_function``, ``predict`` and ``loss`` of a binary perceptron.

    Subclasses store ``eta``, ``max_iter`` and ``random_state`` and set ``classes_``,
    ``coef_`` and ``intercept_`` in ``fit`` (kernel models override
    :meth:`decision_function`).
    """

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.classifier_tags.multi_class = False
        return tags

    def _check_run_hyperparameters(self) -> tuple[float, int]:
        """``(eta, max_iter)`` checked: a finite ``eta > 0`` and an integer
        ``1 <= max_iter <= MAX_ITER``."""
        eta = check_real(self.eta, "eta", low=0.0, low_open=True)
        return eta, check_int(self.max_iter, "max_iter", low=1, high=MAX_ITER)

    def _signed_training_data(
        self, X: ArrayLike, y: ArrayLike
    ) -> tuple[np.ndarray, np.ndarray, np.random.Generator]:
        """``(X, y_signed, rng)``: validated data, labels ``classes_[1] -> +1``,
        ``classes_[0] -> -1``, and the generator of ``random_state``.

        Sets ``classes_`` and ``n_features_in_``.
        """
        rng = make_rng(self.random_state)
        X_arr, codes = validate_classification(self, X, y, max_classes=2, what=BINARY)
        check_squares_representable(X_arr, "X")  # margins and Gram entries stay finite
        return np.ascontiguousarray(X_arr), np.where(codes == 1, 1.0, -1.0), rng

    def _record_passes(self, updates: list[int], per_pass: list[int], converged: bool) -> None:
        """Store the run's bookkeeping: ``update_indices_``, ``n_updates_``,
        ``updates_per_pass_``, ``n_iter_`` and ``converged_``."""
        self.update_indices_ = np.asarray(updates, dtype=np.intp)
        self.n_updates_ = int(self.update_indices_.shape[0])
        self.updates_per_pass_ = np.asarray(per_pass, dtype=np.intp)
        self.n_iter_ = int(self.updates_per_pass_.shape[0])
        self.converged_ = bool(converged)

    def _warn_if_not_converged(self, max_iter: int) -> None:
        """A ``ConvergenceWarning`` when every pass of the finished run made a mistake."""
        if not self.converged_:
            warnings.warn(
                f"{type(self).__name__} did not converge: every one of the "
                f"max_iter={max_iter} passes made a mistake ({self.n_updates_} updates in "
                "total); the data may not be linearly separable (in feature space).",
                ConvergenceWarning,
                stacklevel=3,
            )

    def _raw_scores(self, X_arr: np.ndarray) -> np.ndarray:
        """Scores of validated samples, possibly overflowing (kernel models override)."""
        return X_arr @ self.coef_ + self.intercept_

    def decision_function(self, X: ArrayLike) -> np.ndarray:
        """Scores ``w . x + b`` of shape (n_samples,); positive means ``classes_[1]``.

        ValueError when a score overflows float64 (``predict`` still works there).
        """
        scores = self._raw_scores(validate_features(self, X, reset=False))
        if not np.all(np.isfinite(scores)):
            raise ValueError(
                "X gives scores beyond the float64 range for this model; rescale X."
            )
        return scores

    def _signs(self, X: ArrayLike) -> np.ndarray:
        """``score >= 0`` per sample, also where the score itself overflows float64.

        Such rows are scored again divided by a power of two ``s > max_j |x_j| / 2``:
        ``(x / s) . w + b / s`` has the sign of ``x . w + b`` and stays finite.
        """
        X_arr = validate_features(self, X, reset=False)
        scores = self._raw_scores(X_arr)
        bad = ~np.isfinite(scores)
        if np.any(bad):
            # frexp: |x| < 2^e; 2^(e - 1) is representable even for |x| near the float max.
            exponent = np.frexp(np.max(np.abs(X_arr[bad]), axis=1))[1] - 1
            row_scale = np.ldexp(1.0, exponent)
            scores[bad] = (X_arr[bad] / row_scale[:, None]) @ self.coef_ + (
                self.intercept_ / row_scale
            )
        return scores >= 0.0

    def predict(self, X: ArrayLike) -> np.ndarray:
        """Predict ``classes_[1]`` where ``sign(score) = +1`` and ``classes_[0]`` otherwise.

        Uses ``sign(0) = +1`` (004 §5.1): a point on the hyperplane is predicted
        positive. Note that training counts a zero margin as a mistake, so a
        fitted perceptron never leaves a training point on its hyperplane.
        """
        positive = self._signs(X)  # checks first that the model is fitted
        return self.classes_[positive.astype(np.intp)]

    def loss(self, X: ArrayLike, y: ArrayLike) -> float:
        """Perceptron loss ``L(w, b) = -sum_{i in M} y_i (w . x_i + b)`` of the fitted model.

        ``y`` is given in the original labels (``classes_``). ``M`` is the set of
        points with ``y_i (w . x_i + b) <= 0`` (001 §一.1; 004 §5.2).
        """
        scores = self.decision_function(X)
        margins = signed_labels(self.classes_, y, scores.shape[0]) * scores
        return float(-np.sum(margins[margins <= 0.0]))
