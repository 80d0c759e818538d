"""Plain functions of the perceptron theory: functional margins and the perceptron loss."""

from __future__ import annotations

import numbers

import numpy as np
from numpy.typing import ArrayLike

__all__ = ["functional_margins", "perceptron_loss"]


def _check_arrays(
    X: ArrayLike, y: ArrayLike, w: ArrayLike, b: float
) -> tuple[np.ndarray, np.ndarray, np.ndarray, float]:
    try:
        X_arr = np.asarray(X, dtype=np.float64)
    except (TypeError, ValueError) as exc:
        raise ValueError("X must be a real array of shape (n_samples, n_features).") from exc
    if X_arr.ndim != 2 or X_arr.shape[0] == 0 or X_arr.shape[1] == 0:
        raise ValueError(
            f"X must be a non-empty 2-D array (n_samples, n_features), got shape {X_arr.shape}."
        )
    if not np.all(np.isfinite(X_arr)):
        raise ValueError("X contains NaN or infinity.")
    try:
        y_arr = np.asarray(y, dtype=np.float64)
    except (TypeError, ValueError) as exc:
        raise ValueError("y must be an array of labels in {-1, +1}.") from exc
    if y_arr.shape != (X_arr.shape[0],):
        raise ValueError(f"y must have shape ({X_arr.shape[0]},), got {y_arr.shape}.")
    if not np.all((y_arr == 1.0) | (y_arr == -1.0)):
        raise ValueError("y must contain only the labels -1 and +1.")
    try:
        w_arr = np.asarray(w, dtype=np.float64)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"w must be a real array of shape ({X_arr.shape[1]},).") from exc
    if w_arr.shape != (X_arr.shape[1],):
        raise ValueError(f"w must have shape ({X_arr.shape[1]},), got {w_arr.shape}.")
    if not np.all(np.isfinite(w_arr)):
        raise ValueError("w contains NaN or infinity.")
    if isinstance(b, bool) or not isinstance(b, numbers.Real) or not np.isfinite(float(b)):
        raise ValueError(f"b must be a finite real number, got {b!r}.")
    return X_arr, y_arr, w_arr, float(b)


def functional_margins(X: ArrayLike, y: ArrayLike, w: ArrayLike, b: float) -> np.ndarray:
    """Functional margins ``y_i (w . x_i + b)`` of every sample.

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features)
    y : array-like of shape (n_samples,)
        Labels in {-1, +1}.
    w : array-like of shape (n_features,)
    b : float

    Returns
    -------
    ndarray of shape (n_samples,)
        A sample is a perceptron mistake exactly when its margin is ``<= 0``
        (001 §一.4 step 3; 004 §5.3.1).
    """
    X_arr, y_arr, w_arr, b_val = _check_arrays(X, y, w, b)
    return y_arr * (X_arr @ w_arr + b_val)


def perceptron_loss(X: ArrayLike, y_signed: ArrayLike, w: ArrayLike, b: float) -> float:
    """The perceptron loss ``L(w, b) = -sum_{i in M} y_i (w . x_i + b)``.

    ``M`` is the set of misclassified points, those with ``y_i (w . x_i + b) <= 0``;
    points exactly on the hyperplane belong to ``M`` but contribute 0.

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features)
    y_signed : array-like of shape (n_samples,)
        Labels in {-1, +1}.
    w : array-like of shape (n_features,)
    b : float

    Returns
    -------
    float
        ``L(w, b) >= 0``, and ``L = 0`` iff no point is strictly misclassified.

    Notes
    -----
    001 §一.1; 004 §5.2 (the total distance of the misclassified points to the
    hyperplane with the factor ``1/||w||`` dropped).
    """
    margins = functional_margins(X, y_signed, w, b)
    return float(-np.sum(margins[margins <= 0.0]))
