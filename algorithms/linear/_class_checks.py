"""Boundary validation shared by LDA, the multi-class wrappers and the imbalance tools.

Every function raises ``ValueError`` naming the offending argument; nothing here
runs inside a per-sample loop.
"""

from __future__ import annotations

import numbers

import numpy as np
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_array, column_or_1d

__all__ = [
    "check_nonnegative_float",
    "check_positive_int",
    "make_rng",
    "validate_classification_data",
    "validate_features",
]


def check_nonnegative_float(value: object, name: str) -> float:
    """Return ``value`` as a float after checking it is a finite real number >= 0."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise ValueError(f"{name} must be a finite real number >= 0, got {value!r}.")
    out = float(value)
    if not np.isfinite(out) or out < 0.0:
        raise ValueError(f"{name} must be a finite real number >= 0, got {value!r}.")
    return out


def check_positive_int(value: object, name: str) -> int:
    """Return ``value`` as an int after checking it is an integer >= 1."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral) or int(value) < 1:
        raise ValueError(f"{name} must be an integer >= 1, got {value!r}.")
    return int(value)


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


def validate_features(
    X: object, *, n_features: int | None = None, estimator: object = None
) -> np.ndarray:
    """Return ``X`` as a finite float64 array of shape (N, d), N >= 1, d >= 1.

    With ``n_features`` given (predict time), the number of columns must match.
    """
    try:
        X_arr = check_array(X, dtype=np.float64, ensure_min_samples=1, ensure_min_features=1)
    except ValueError as exc:
        raise ValueError(f"X is invalid: {exc}") from exc
    if n_features is not None and X_arr.shape[1] != n_features:
        name = type(estimator).__name__ if estimator is not None else "the estimator"
        raise ValueError(
            f"X has {X_arr.shape[1]} features, but {name} is expecting {n_features} features "
            "as input."
        )
    return X_arr


def validate_classification_data(
    X: object, y: object, *, min_classes: int = 2, max_classes: int | None = None
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Validate a labelled sample.

    Returns
    -------
    X : ndarray of shape (N, d), float64
    y : ndarray of shape (N,), the labels as given
    classes : ndarray of shape (M,), sorted distinct labels
    y_index : ndarray of shape (N,), int, position of each label in ``classes``

    Raises ``ValueError`` naming ``X`` or ``y`` for NaN/inf, wrong shapes, empty
    input, mismatched lengths, continuous targets and too few (or too many) classes.
    """
    X_arr = validate_features(X)
    if y is None:
        raise ValueError(
            "this estimator requires y to be passed, but the target y is None: it is a "
            "supervised classifier."
        )
    try:
        y_arr = column_or_1d(y, warn=True)
    except ValueError as exc:
        raise ValueError(f"y is invalid: {exc}") from exc
    if y_arr.dtype.kind in "fc" and not np.all(np.isfinite(y_arr)):
        raise ValueError("y contains NaN or infinity.")
    if y_arr.shape[0] != X_arr.shape[0]:
        raise ValueError(
            f"y has {y_arr.shape[0]} labels but X has {X_arr.shape[0]} samples; "
            "they must have the same length."
        )
    try:
        check_classification_targets(y_arr)
    except ValueError as exc:
        raise ValueError(f"y is invalid: {exc}") from exc
    classes, y_index = np.unique(y_arr, return_inverse=True)
    if classes.shape[0] < min_classes:
        raise ValueError(
            f"y must contain at least {min_classes} classes; got {classes.shape[0]} "
            f"class(es): {classes.tolist()[:10]}."
        )
    if max_classes is not None and classes.shape[0] > max_classes:
        raise ValueError(
            f"y must contain at most {max_classes} classes; got {classes.shape[0]}: "
            f"{classes.tolist()[:10]}."
        )
    return X_arr, y_arr, classes, y_index.reshape(-1)
