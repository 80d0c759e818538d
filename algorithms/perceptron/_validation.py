"""Shared boundary validation and visiting-order helpers for the perceptron family.

Everything here runs once per ``fit``/``predict`` call, never inside the
per-update loops.
"""

from __future__ import annotations

import numbers
from collections.abc import Iterator

import numpy as np
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_array, column_or_1d, validate_data

__all__ = [
    "check_eta",
    "check_initial_weights",
    "check_max_iter",
    "check_order",
    "make_rng",
    "signed_labels",
    "validate_fit_data",
    "validate_predict_data",
    "visiting_orders",
]

VISITING_ORDERS = ("cyclic", "random")


def check_eta(eta: object) -> float:
    """Return ``eta`` as a float after checking it is a finite number > 0."""
    if isinstance(eta, bool) or not isinstance(eta, numbers.Real):
        raise ValueError(f"eta must be a finite real number > 0, got {eta!r}.")
    value = float(eta)
    if not np.isfinite(value) or value <= 0.0:
        raise ValueError(f"eta must be a finite real number > 0, got {eta!r}.")
    return value


def check_max_iter(max_iter: object) -> int:
    """Return ``max_iter`` as an int after checking it is an integer >= 1."""
    if isinstance(max_iter, bool) or not isinstance(max_iter, numbers.Integral):
        raise ValueError(f"max_iter must be an integer >= 1, got {max_iter!r}.")
    if int(max_iter) < 1:
        raise ValueError(f"max_iter must be an integer >= 1, got {max_iter!r}.")
    return int(max_iter)


def check_order(order: object) -> str:
    """Check the visiting order is one of ``"cyclic"`` or ``"random"``."""
    if not isinstance(order, str) or order not in VISITING_ORDERS:
        raise ValueError(f"order must be one of {VISITING_ORDERS}, got {order!r}.")
    return order


def make_rng(random_state: object) -> np.random.Generator:
    """``np.random.default_rng(random_state)`` with a ValueError naming the argument."""
    if isinstance(random_state, bool):
        raise ValueError(
            f"random_state must be None, an int >= 0 or a numpy Generator, got {random_state!r}."
        )
    try:
        return np.random.default_rng(random_state)
    except (TypeError, ValueError) as exc:
        raise ValueError(
            f"random_state must be None, an int >= 0 or a numpy Generator, got {random_state!r}."
        ) from exc


def check_initial_weights(w_init: object, b_init: object, n_features: int) -> np.ndarray:
    """Return the augmented initial weights ``w_hat_0 = (w_init, b_init)`` of shape (d+1,).

    ``w_init=None`` means the zero vector (the notes' usual start ``w_0 = 0``).
    """
    w_hat = np.zeros(n_features + 1, dtype=np.float64)
    if w_init is not None:
        try:
            w = np.asarray(w_init, dtype=np.float64)
        except (TypeError, ValueError) as exc:
            raise ValueError(f"w_init must be a real array of shape ({n_features},).") from exc
        if w.shape != (n_features,):
            raise ValueError(
                f"w_init must have shape ({n_features},) to match X, got shape {w.shape}."
            )
        if not np.all(np.isfinite(w)):
            raise ValueError("w_init must contain only finite values.")
        w_hat[:-1] = w
    if isinstance(b_init, bool) or not isinstance(b_init, numbers.Real):
        raise ValueError(f"b_init must be a finite real number, got {b_init!r}.")
    if not np.isfinite(float(b_init)):
        raise ValueError(f"b_init must be a finite real number, got {b_init!r}.")
    w_hat[-1] = float(b_init)
    return w_hat


def validate_fit_data(estimator: object, X: object, y: object) -> tuple[np.ndarray, np.ndarray]:
    """Validate training data and set ``classes_`` / ``n_features_in_`` on ``estimator``.

    Returns ``X`` as a float64 array (N, d) and the labels mapped to ``-1/+1``
    (``classes_[0] -> -1``, ``classes_[1] -> +1``). Raises ``ValueError`` naming
    ``X`` or ``y`` for NaN/inf, wrong shapes, empty input, mismatched lengths,
    continuous targets, and label sets that do not have exactly two classes.
    """
    try:
        check_array(X, dtype=np.float64, ensure_min_samples=1, ensure_min_features=1)
    except ValueError as exc:
        raise ValueError(f"X is invalid: {exc}") from exc
    if y is None:
        raise ValueError(
            f"{type(estimator).__name__} requires y to be passed, but the target y is None."
        )
    try:
        y_arr = column_or_1d(y, warn=True)
    except ValueError as exc:
        raise ValueError(f"y is invalid: {exc}") from exc
    if y_arr.dtype.kind in "fc" and not np.all(np.isfinite(y_arr)):
        raise ValueError("y contains NaN or infinity.")
    X_arr, y_arr = validate_data(estimator, X, y_arr, dtype=np.float64)
    try:
        check_classification_targets(y_arr)
    except ValueError as exc:
        raise ValueError(f"y is invalid: {exc}") from exc
    classes = np.unique(y_arr)
    if classes.shape[0] < 2:
        raise ValueError(
            "y must contain exactly two classes for a binary perceptron; "
            f"got only one class: {classes.tolist()}."
        )
    if classes.shape[0] > 2:
        raise ValueError(
            "Only binary classification is supported: y must contain exactly two "
            f"classes, got {classes.shape[0]}: {classes.tolist()[:10]}."
        )
    estimator.classes_ = classes
    y_signed = np.where(y_arr == classes[1], 1.0, -1.0)
    return np.ascontiguousarray(X_arr, dtype=np.float64), y_signed


def signed_labels(classes: np.ndarray, y: object, n_samples: int) -> np.ndarray:
    """Map labels given in the original classes to ``-1/+1`` (ValueError naming y)."""
    try:
        y_arr = column_or_1d(y)
    except ValueError as exc:
        raise ValueError(f"y is invalid: {exc}") from exc
    if y_arr.shape[0] != n_samples:
        raise ValueError(
            f"y has {y_arr.shape[0]} labels but X has {n_samples} samples."
        )
    is_pos = y_arr == classes[1]
    is_neg = y_arr == classes[0]
    if not np.all(is_pos | is_neg):
        raise ValueError(f"y contains labels outside the fitted classes {classes.tolist()}.")
    return np.where(is_pos, 1.0, -1.0)


def validate_predict_data(estimator: object, X: object) -> np.ndarray:
    """Validate ``X`` at predict time against the fitted number of features."""
    return validate_data(estimator, X, dtype=np.float64, reset=False)


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
