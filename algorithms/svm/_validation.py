"""Boundary validation shared by the SVM estimators."""

from __future__ import annotations

from numbers import Integral, Real

import numpy as np

from algorithms.kernels import Kernel, make_kernel


def check_features(X, name: str = "X") -> np.ndarray:
    try:
        X = np.asarray(X, dtype=float)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"{name} must be a numeric array: {exc}") from None
    if X.ndim != 2:
        raise ValueError(f"{name} must be 2-d (n_samples, n_features), got shape {X.shape}")
    if X.shape[0] == 0 or X.shape[1] == 0:
        raise ValueError(f"{name} must be non-empty, got shape {X.shape}")
    if not np.all(np.isfinite(X)):
        raise ValueError(f"{name} contains NaN or infinite values")
    return X


def check_box_bound(C) -> float:
    if isinstance(C, bool) or not isinstance(C, Real) or np.isnan(C) or C <= 0:
        raise ValueError(f"C must be a number > 0 (np.inf for a hard margin), got {C!r}")
    return float(C)


def check_positive(value, name: str, *, allow_zero: bool = False) -> float:
    bad = isinstance(value, bool) or not isinstance(value, Real) or not np.isfinite(value)
    if bad or value < 0 or (value == 0 and not allow_zero):
        cmp = ">= 0" if allow_zero else "> 0"
        raise ValueError(f"{name} must be a finite number {cmp}, got {value!r}")
    return float(value)


def check_max_iter(max_iter) -> int:
    if isinstance(max_iter, bool) or not isinstance(max_iter, Integral) or max_iter < 1:
        raise ValueError(f"max_iter must be an integer >= 1, got {max_iter!r}")
    return int(max_iter)


def check_kernel(kernel, kernel_params) -> Kernel:
    if kernel_params is not None and not isinstance(kernel_params, dict):
        raise ValueError(f"kernel_params must be a dict or None, got {kernel_params!r}")
    return make_kernel(kernel, kernel_params)


def check_cache_size(cache_size) -> float:
    return check_positive(cache_size, "cache_size")


def check_flag(value, name: str) -> bool:
    if not isinstance(value, bool | np.bool_):
        raise ValueError(f"{name} must be True or False, got {value!r}")
    return bool(value)
