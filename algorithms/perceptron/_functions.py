"""Plain functions of the perceptron theory: functional margins and the perceptron loss."""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

from algorithms._validation import check_array_argument, check_real

__all__ = ["functional_margins", "perceptron_loss"]


def _check_arrays(
    X: ArrayLike, y: ArrayLike, w: ArrayLike, b: float
) -> tuple[np.ndarray, np.ndarray, np.ndarray, float]:
    X_arr = check_array_argument(X, "X", ndim=2, real=True)
    n_samples, n_features = X_arr.shape
    y_arr = check_array_argument(y, "y", shape=(n_samples,), real=True)
    if not np.all((y_arr == 1.0) | (y_arr == -1.0)):
        raise ValueError("y must contain only the labels -1 and +1.")
    w_arr = check_array_argument(w, "w", shape=(n_features,), real=True)
    return X_arr, y_arr, w_arr, check_real(b, "b")


def _finite(values: np.ndarray, what: str) -> np.ndarray:
    """``values`` if all finite; a ValueError when the scores overflowed float64."""
    if not np.all(np.isfinite(values)):
        raise ValueError(
            f"{what} overflow float64 for these X, w and b (|w . x + b| beyond 1.8e308); "
            "rescale X or w."
        )
    return values


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
    return _finite(y_arr * (X_arr @ w_arr + b_val), "the functional margins")


def perceptron_loss(X: ArrayLike, y: ArrayLike, w: ArrayLike, b: float) -> float:
    """The perceptron loss ``L(w, b) = -sum_{i in M} y_i (w . x_i + b)``.

    ``M`` is the set of misclassified points, those with ``y_i (w . x_i + b) <= 0``;
    points exactly on the hyperplane belong to ``M`` but contribute 0.

    Parameters
    ----------
    X, y, w, b :
        As ``X, y, w, b`` of :func:`functional_margins` (labels in {-1, +1}).

    Returns
    -------
    float
        ``L(w, b) >= 0``, and ``L = 0`` iff no point is strictly misclassified.

    Notes
    -----
    001 §一.1; 004 §5.2 (the total distance of the misclassified points to the
    hyperplane with the factor ``1/||w||`` dropped).
    """
    margins = functional_margins(X, y, w, b)
    return float(_finite(-np.sum(margins[margins <= 0.0]), "the perceptron loss"))
