"""Boundary validation for the regression, GLM, logistic and softmax estimators.

Every function raises ``ValueError`` naming the offending argument. Validation
happens once, in ``fit``/``predict``; the numerical cores assume clean input.
"""

from __future__ import annotations

import numbers

import numpy as np

__all__ = [
    "as_design",
    "as_target",
    "check_bool",
    "check_choice",
    "check_real",
    "check_positive_int",
    "encode_labels",
]


def _as_float_array(value: object, name: str) -> np.ndarray:
    try:
        arr = np.asarray(value, dtype=np.float64)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"{name} must be an array of real numbers: {exc}") from exc
    return arr


def as_design(X: object, *, n_features: int | None = None, name: str = "X") -> np.ndarray:
    """``X`` as a finite float64 array of shape (N, d) with N >= 1 and d >= 1.

    With ``n_features`` (predict time) the number of columns must match the fit.
    """
    arr = _as_float_array(X, name)
    if arr.ndim != 2:
        raise ValueError(
            f"{name} must be a 2-d array of shape (n_samples, n_features), got {arr.ndim} "
            f"dimension(s); reshape a single feature with X.reshape(-1, 1)"
        )
    if arr.shape[0] == 0:
        raise ValueError(f"{name} is empty: it needs at least one sample (row)")
    if arr.shape[1] == 0:
        raise ValueError(f"{name} has no features (columns)")
    if not np.all(np.isfinite(arr)):
        raise ValueError(f"{name} contains NaN or infinity")
    if n_features is not None and arr.shape[1] != n_features:
        raise ValueError(
            f"{name} has {arr.shape[1]} features, but the estimator was fitted with "
            f"{n_features}"
        )
    return arr


def as_target(y: object, n_samples: int, *, name: str = "y") -> np.ndarray:
    """A real-valued target as a finite float64 vector of length ``n_samples``."""
    arr = _as_float_array(y, name)
    if arr.ndim == 2 and arr.shape[1] == 1:
        arr = arr[:, 0]
    if arr.ndim != 1:
        raise ValueError(f"{name} must be a 1-d array of shape (n_samples,), got shape {arr.shape}")
    if arr.shape[0] != n_samples:
        raise ValueError(
            f"{name} has {arr.shape[0]} entries but X has {n_samples} samples: shapes must match"
        )
    if not np.all(np.isfinite(arr)):
        raise ValueError(f"{name} contains NaN or infinity")
    return arr


def encode_labels(
    y: object, n_samples: int, *, min_classes: int = 2, max_classes: int | None = None,
    name: str = "y",
) -> tuple[np.ndarray, np.ndarray]:
    """Class labels -> (classes_, codes) with codes in 0..K-1 (classes sorted).

    Raises when there are fewer than ``min_classes`` distinct labels (one class),
    more than ``max_classes``, NaN labels, or a length mismatch with X.
    """
    arr = np.asarray(y)
    if arr.ndim == 2 and arr.shape[1] == 1:
        arr = arr[:, 0]
    if arr.ndim != 1:
        raise ValueError(f"{name} must be a 1-d array of labels, got shape {arr.shape}")
    if arr.shape[0] != n_samples:
        raise ValueError(
            f"{name} has {arr.shape[0]} entries but X has {n_samples} samples: shapes must match"
        )
    if arr.dtype.kind == "f" and not np.all(np.isfinite(arr)):
        raise ValueError(f"{name} contains NaN or infinity")
    if arr.dtype.kind not in "biufUSO":
        raise ValueError(f"{name} must hold class labels (integers or strings), got {arr.dtype}")
    classes, codes = np.unique(arr, return_inverse=True)
    if classes.size < min_classes:
        raise ValueError(
            f"{name} has {classes.size} distinct class(es); at least {min_classes} are needed"
        )
    if max_classes is not None and classes.size > max_classes:
        raise ValueError(
            f"{name} has {classes.size} distinct classes; this estimator handles at most "
            f"{max_classes} (use SoftmaxRegression for more)"
        )
    return classes, codes.reshape(-1)


def check_real(
    value: object, name: str, *, low: float | None = None, high: float | None = None,
    low_open: bool = False, high_open: bool = False,
) -> float:
    """``value`` as a finite float inside the stated interval."""
    interval = (
        f"{'(' if low_open else '['}{'-inf' if low is None else low}, "
        f"{'inf' if high is None else high}{')' if high_open else ']'}"
    )
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise ValueError(f"{name} must be a real number in {interval}, got {value!r}")
    v = float(value)
    bad = not np.isfinite(v)
    if low is not None:
        bad = bad or v < low or (low_open and v == low)
    if high is not None:
        bad = bad or v > high or (high_open and v == high)
    if bad:
        raise ValueError(f"{name} must be a real number in {interval}, got {value!r}")
    return v


def check_positive_int(value: object, name: str) -> int:
    """``value`` as an int >= 1."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral) or int(value) < 1:
        raise ValueError(f"{name} must be an integer >= 1, got {value!r}")
    return int(value)


def check_bool(value: object, name: str) -> bool:
    if not isinstance(value, bool | np.bool_):
        raise ValueError(f"{name} must be True or False, got {value!r}")
    return bool(value)


def check_choice(value: object, name: str, choices: tuple[str, ...]) -> str:
    if value not in choices:
        raise ValueError(f"{name} must be one of {choices}, got {value!r}")
    return str(value)
