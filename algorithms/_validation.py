"""The one input-validation layer of every algorithm family.

Estimators validate data at their public boundary (``fit``, ``predict``, ...) through
scikit-learn's own machinery, so they refuse what the ecosystem expects them to refuse
with the messages it expects (sparse input, complex or object data, empty arrays, 1-d
``X``, a missing ``y``, a feature count that differs from ``n_features_in_``), and they
add the project's context where it helps (which argument, which class set, why).
Non-estimator functions (bounds, growth functions, datasets) use the scalar and array
checks here, with the same wording.

Every check raises :class:`ValueError` naming the argument. A value of the wrong *type*
raises :class:`InvalidArgumentError`, which is both a ``ValueError`` and a
``TypeError`` (the convention of scikit-learn's ``InvalidParameterError``), so callers
may catch either. Nothing here runs inside a per-sample loop.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Sequence

import numpy as np
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import (
    _check_sample_weight,
    check_array,
    check_is_fitted,
    check_X_y,
    column_or_1d,
    validate_data,
)

__all__ = [
    "InvalidArgumentError",
    "UNLABELLED",
    "check_array_argument",
    "check_bool",
    "check_choice",
    "check_codes",
    "check_fitted",
    "check_index_array",
    "check_int",
    "check_nonnegative_table",
    "check_real",
    "check_sample_weight",
    "check_squares_representable",
    "check_stochastic",
    "encode_classes",
    "labels_in_classes",
    "make_rng",
    "validate_classification",
    "validate_features",
    "validate_labelled_sample",
    "validate_regression",
    "validate_semi_supervised",
]


class InvalidArgumentError(ValueError, TypeError):
    """An argument of the wrong type or value; a ``ValueError`` and a ``TypeError``."""


# ---------------------------------------------------------------------------
# Scalars
# ---------------------------------------------------------------------------


def _interval(low, high, low_open, high_open) -> str:
    return (
        f"{'(' if low_open else '['}{'-inf' if low is None else low}, "
        f"{'inf' if high is None else high}{')' if high_open or high is None else ']'}"
    )


def check_real(
    value: object,
    name: str,
    *,
    low: float | None = None,
    high: float | None = None,
    low_open: bool = False,
    high_open: bool = False,
    allow_inf: bool = False,
) -> float:
    """``value`` as a float inside the stated interval (finite unless ``allow_inf``).

    Booleans are refused: ``True`` is not a learning rate.
    """
    where = _interval(low, high, low_open, high_open)
    if isinstance(value, bool | np.bool_) or not isinstance(value, numbers.Real):
        raise InvalidArgumentError(f"{name} must be a real number in {where}, got {value!r}.")
    try:
        v = float(value)
    except OverflowError:  # an int beyond float64: as large as infinity for every check
        v = math.inf if value > 0 else -math.inf
    bad = math.isnan(v) or (math.isinf(v) and not allow_inf)
    if low is not None:
        bad = bad or v < low or (low_open and v == low)
    if high is not None:
        bad = bad or v > high or (high_open and v == high)
    if bad:
        finite = "" if allow_inf else "finite "
        raise ValueError(f"{name} must be a {finite}real number in {where}, got {value!r}.")
    return v


def check_int(
    value: object,
    name: str,
    *,
    low: int | None = None,
    high: int | None = None,
    integral_floats: bool = False,
) -> int:
    """``value`` as an int in ``[low, high]``.

    ``integral_floats`` also accepts reals with an integer value (``5.0``), for the
    learning-theory functions whose sizes often arrive from float arithmetic.
    """
    if isinstance(value, bool | np.bool_):
        raise InvalidArgumentError(f"{name} must be an integer, got {value!r}.")
    if not isinstance(value, numbers.Integral):
        if integral_floats and isinstance(value, numbers.Real) and float(value).is_integer():
            value = int(value)
        else:
            raise InvalidArgumentError(f"{name} must be an integer, got {value!r}.")
    v = int(value)
    if (low is not None and v < low) or (high is not None and v > high):
        bounds = f">= {low}" if high is None else f"in [{low}, {high}]"
        raise ValueError(f"{name} must be an integer {bounds}, got {value!r}.")
    return v


def check_bool(value: object, name: str) -> bool:
    """``value`` as a bool (numpy bools accepted, 0/1 refused)."""
    if not isinstance(value, bool | np.bool_):
        raise InvalidArgumentError(f"{name} must be True or False, got {value!r}.")
    return bool(value)


def check_choice(value: object, name: str, choices: Sequence[str]) -> str:
    """``value`` if it is one of ``choices``."""
    if not isinstance(value, str) or value not in choices:
        raise ValueError(f"{name} must be one of {tuple(choices)}, got {value!r}.")
    return value


def make_rng(random_state: object, name: str = "random_state") -> np.random.Generator:
    """``np.random.default_rng(random_state)`` with an error naming the argument.

    Accepts None, an int >= 0, a SeedSequence, a BitGenerator or a Generator.
    """
    message = f"{name} must be None, an int >= 0 or a numpy Generator, got {random_state!r}."
    if isinstance(random_state, bool | np.bool_):
        raise InvalidArgumentError(message)
    if isinstance(random_state, np.random.RandomState):
        # scikit-learn's legacy generator: draw a seed from it, deterministically
        return np.random.default_rng(int(random_state.randint(0, 2**31 - 1)))
    try:
        return np.random.default_rng(random_state)
    except (TypeError, ValueError) as exc:
        raise InvalidArgumentError(message) from exc




# ---------------------------------------------------------------------------
# Arrays outside the estimator protocol
# ---------------------------------------------------------------------------


def check_array_argument(
    value: object,
    name: str,
    *,
    shape: tuple[int | None, ...] | None = None,
    ndim: int | None = None,
    dtype: object = np.float64,
    allow_empty: bool = False,
    finite: bool = True,
    real: bool = False,
) -> np.ndarray:
    """A numeric array argument (initial weights, a point set, a probability vector).

    ``shape`` entries that are ``None`` are free; ``ndim`` checks only the rank.
    ``real=True`` refuses complex input (by default a complex value converted to a real
    ``dtype`` loses its imaginary part with numpy's ComplexWarning).
    """
    if real and np.iscomplexobj(value):
        raise InvalidArgumentError(f"{name} must be real, got a complex array.")
    try:
        arr = np.asarray(value, dtype=dtype)
    except (TypeError, ValueError, OverflowError) as exc:
        raise InvalidArgumentError(f"{name} must be a numeric array: {exc}") from exc
    want_ndim = len(shape) if shape is not None else ndim
    if want_ndim is not None and arr.ndim != want_ndim:
        raise ValueError(f"{name} must be a {want_ndim}-d array, got shape {arr.shape}.")
    pairs = zip(shape or (), arr.shape if shape is not None else (), strict=True)
    if any(s is not None and s != a for s, a in pairs):
        want = "(" + ", ".join("any" if s is None else str(s) for s in shape) + ")"
        raise ValueError(f"{name} must have shape {want}, got shape {arr.shape}.")
    if not allow_empty and arr.size == 0:
        raise ValueError(f"{name} must not be empty, got shape {arr.shape}.")
    if finite and arr.dtype.kind in "fc" and not np.all(np.isfinite(arr)):
        raise ValueError(f"{name} must contain only finite values (no NaN or infinity).")
    return arr


def check_index_array(value: object, name: str, high: int, *, ndims: tuple[int, ...] = (1,)
                      ) -> np.ndarray:
    """Integer codes in ``[0, high)`` as an intp array of one of the ranks ``ndims``."""
    arr = check_array_argument(value, name, dtype=None, real=True)
    if arr.ndim not in ndims:
        raise ValueError(f"{name} must be a {' or '.join(f'{d}-d' for d in ndims)} array, "
                         f"got shape {arr.shape}.")
    if arr.dtype.kind not in "biuf" or (
        arr.dtype.kind == "f" and not np.all(np.isfinite(arr) & (arr == np.round(arr)))
    ):
        raise ValueError(f"{name} must hold integer codes in [0, {high - 1}].")
    if arr.min() < 0 or arr.max() > high - 1:
        raise ValueError(f"{name} must hold integer codes in [0, {high - 1}], got values in "
                         f"[{arr.min()}, {arr.max()}].")
    return arr.astype(np.intp)


def check_nonnegative_table(value: object, name: str, *, shape=None, ndim=None) -> np.ndarray:
    """A finite real table with non-negative entries (a potential)."""
    arr = check_array_argument(value, name, shape=shape, ndim=ndim, real=True)
    if np.any(arr < 0):
        raise ValueError(f"{name} must have non-negative entries (a potential).")
    return arr


def check_stochastic(value: object, name: str, *, shape, axis: int = -1) -> np.ndarray:
    """Non-negative rows summing to 1 within 1e-8 (a conditional probability table)."""
    arr = check_nonnegative_table(value, name, shape=shape)
    sums = arr.sum(axis=axis)
    if not np.allclose(sums, 1.0, rtol=0.0, atol=1e-8):
        raise ValueError(f"{name} must be row-stochastic: non-negative rows summing to 1 "
                         f"(row sums range over [{sums.min():.6g}, {sums.max():.6g}]).")
    return arr


def check_squares_representable(arr: np.ndarray, name: str, *, underflow: bool = False
                                ) -> np.ndarray:
    """``arr`` if sums of squares of its entries (Gram matrices, squared norms) stay finite.

    Algorithms that form ``X^T X`` or ``||X w||^2`` overflow to ``inf`` (then NaN) once
    ``size * max|x|^2`` exceeds the float64 maximum; refuse such input with a clear error
    instead of returning NaN. ``underflow=True`` also refuses a non-zero ``arr`` whose
    largest square is not a normal float64 with full precision (``max|x| <
    sqrt(tiny / eps)``, about 1e-146): the curvature such algorithms read from the squares
    (a Hessian, a scatter matrix) would be lost to underflow.
    """
    top = float(np.max(np.abs(arr))) if arr.size else 0.0
    info = np.finfo(np.float64)
    limit = math.sqrt(info.max / max(arr.size, 1))
    if top > limit:
        raise ValueError(
            f"{name} has entries of magnitude {top:.3g}: sums of their squares overflow "
            f"float64 (limit {limit:.3g} for {arr.size} entries); rescale {name}."
        )
    floor = math.sqrt(info.tiny / info.eps)
    if underflow and 0.0 < top < floor:
        raise ValueError(
            f"{name} has no entry larger than {top:.3g} in magnitude: their squares "
            f"underflow float64 (below {floor:.3g}); rescale {name}."
        )
    return arr


# ---------------------------------------------------------------------------
# Estimator data: thin layers over sklearn.utils.validation.validate_data
# ---------------------------------------------------------------------------


#: Messages of scikit-learn's validation that name no argument, with the one they are about.
_UNNAMED_ARGUMENT_MESSAGES = (
    ("Expected 2D array", "X is invalid: "),
    ("Found array with 0 ", "X is invalid: "),
    ("Found input variables with inconsistent numbers", "X and y must have as many samples: "),
)


def _validate_data(estimator: object, *args, **kwargs):
    """``validate_data``, naming the argument where scikit-learn's message does not."""
    return _naming_the_argument(validate_data, estimator, *args, **kwargs)


def _naming_the_argument(check, *args, **kwargs):
    """``check(*args, **kwargs)``, a scikit-learn validation, naming the argument where
    its message does not."""
    try:
        return check(*args, **kwargs)
    except ValueError as exc:
        message = str(exc)
        for start, prefix in _UNNAMED_ARGUMENT_MESSAGES:
            if type(exc) is ValueError and message.startswith(start):
                raise ValueError(prefix + message) from exc
        if type(exc) is ValueError and message.startswith(_UNNAMED_DATA_MESSAGES):
            raise ValueError(f"{_blamed_data(args)} is invalid: {message}") from exc
        raise


#: Messages of scikit-learn's (or numpy's) conversion of X or y that name neither.
_UNNAMED_DATA_MESSAGES = (
    "Complex data not supported",
    "could not convert",
    "Found array with dim",
    "dtype='numeric' is not compatible",
)


def _blamed_data(args: tuple) -> str:
    """``"X"`` or ``"y"``: which data argument of a failed validation is at fault.

    ``args`` are the positional arguments of ``validate_data`` (estimator, X[, y]) or
    ``check_X_y`` (X, y); runs only on the error path.
    """
    data = [a for a in args if not hasattr(a, "get_params")]
    if len(data) < 2:
        return "X"
    try:
        check_array(
            data[0],
            accept_sparse=True,
            dtype=np.float64,
            ensure_all_finite=False,
            ensure_min_samples=0,
            ensure_min_features=0,
        )
    except (TypeError, ValueError):
        return "X"
    return "y"


def validate_features(estimator: object, X: object, *, reset: bool = False, **kwargs) -> np.ndarray:
    """``X`` as a finite float64 (N, d) array through ``validate_data``.

    ``reset=True`` (in ``fit``) records ``n_features_in_``; ``reset=False`` (in
    ``predict``/``transform``) checks that the estimator is fitted and that the number
    of features matches. Sparse, complex, object and empty inputs get scikit-learn's
    messages.
    """
    if not reset:
        check_is_fitted(estimator)
    kwargs.setdefault("dtype", np.float64)
    return _validate_data(estimator, X, reset=reset, **kwargs)


def _check_y_present(estimator: object, y: object) -> None:
    if y is None:
        raise ValueError(
            f"{type(estimator).__name__} requires y to be passed, but the target y is None."
        )


def validate_regression(
    estimator: object, X: object, y: object, *, positive: bool = False, **kwargs
) -> tuple[np.ndarray, np.ndarray]:
    """Training data of a regressor: ``X`` (N, d) float64 and a finite float64 ``y`` (N,).

    A column vector ``y`` is raveled with a ``DataConversionWarning``; ``positive``
    requires ``y > 0`` (models of a log-target), named in the message.
    """
    _check_y_present(estimator, y)
    kwargs.setdefault("dtype", np.float64)
    X_arr, y_arr = _validate_data(estimator, X, y, y_numeric=True, **kwargs)
    # validate_data converts only object targets; strings would fail later, ints stay int
    if y_arr.dtype.kind not in "biuf":
        raise ValueError(
            f"y must be numeric for {type(estimator).__name__} (a regression target), "
            f"got dtype {y_arr.dtype}."
        )
    y_arr = y_arr.astype(np.float64, copy=False)
    if positive and not np.all(y_arr > 0):
        raise ValueError(
            f"y must be strictly positive for {type(estimator).__name__} (its model is "
            f"ln y = w^T x + b); the smallest value is {float(np.min(y_arr))!r}."
        )
    return X_arr, y_arr


def encode_classes(
    y: np.ndarray, *, min_classes: int = 2, max_classes: int | None = None, what: str = ""
) -> tuple[np.ndarray, np.ndarray]:
    """(classes, codes) with codes in 0..K-1, checking the number of classes."""
    classes, codes = np.unique(y, return_inverse=True)
    k = classes.shape[0]
    why = f" ({what})" if what else ""
    if k < min_classes:
        raise ValueError(
            f"y must contain at least {min_classes} classes{why}; got {k} class: "
            f"{classes.tolist()[:10]}."
        )
    if max_classes is not None and k > max_classes:
        only = "binary" if max_classes == 2 else f"at most {max_classes}-class"
        raise ValueError(
            f"Only {only} classification is supported{why}: y must contain at most "
            f"{max_classes} classes, got {k}: {classes.tolist()[:10]}."
        )
    return classes, codes.reshape(-1)


def validate_classification(
    estimator: object,
    X: object,
    y: object,
    *,
    min_classes: int = 2,
    max_classes: int | None = None,
    what: str = "",
    **kwargs,
) -> tuple[np.ndarray, np.ndarray]:
    """Training data of a classifier; sets ``classes_`` and returns ``(X, codes)``.

    ``codes[i]`` is the position of ``y[i]`` in ``classes_`` (sorted labels). Refuses a
    continuous target ("Unknown label type"), one class, and more than
    ``max_classes`` classes (binary-only algorithms say so, with ``what`` explaining
    why, e.g. ``"the notes' algorithm is binary"``).
    """
    _check_y_present(estimator, y)
    kwargs.setdefault("dtype", np.float64)
    X_arr, y_arr = _validate_data(estimator, X, y, **kwargs)
    check_classification_targets(y_arr)
    classes, codes = encode_classes(
        y_arr, min_classes=min_classes, max_classes=max_classes, what=what
    )
    estimator.classes_ = classes
    return X_arr, codes


#: The label of an unlabelled sample in semi-supervised fits (scikit-learn's convention).
UNLABELLED = -1


def validate_semi_supervised(
    estimator: object, X: object, y: object, *, min_classes: int = 2,
    max_classes: int | None = None, what: str = "", **kwargs
) -> tuple[np.ndarray, np.ndarray]:
    """Training data of a semi-supervised classifier, unlabelled samples marked ``-1``.

    Sets ``classes_`` (the sorted labels of the labelled samples) and returns ``(X,
    codes)`` with ``codes[i]`` the position of ``y[i]`` in ``classes_``, or ``-1``.
    Non-numeric labels (strings) cannot hold the marker, so every such sample is
    labelled. Refuses NaN/infinite labels, no labelled sample, and fewer than
    ``min_classes`` (or more than ``max_classes``) labelled classes, naming ``y``;
    ``what`` explains a limit, as in :func:`validate_classification`.
    """
    _check_y_present(estimator, y)
    kwargs.setdefault("dtype", np.float64)
    X_arr, y_arr = _validate_data(estimator, X, y, **kwargs)
    if y_arr.dtype.kind in "biuf":
        if y_arr.dtype.kind == "f" and not np.all(np.isfinite(y_arr)):
            raise ValueError("y must not contain NaN or infinity.")
        labelled = y_arr != UNLABELLED
    else:  # string or object labels: the numeric marker cannot occur, all are labelled
        labelled = np.ones(y_arr.shape[0], dtype=bool)
    if not np.any(labelled):
        raise ValueError(
            f"y has no labelled sample (every entry is {UNLABELLED}, the unlabelled marker)."
        )
    check_classification_targets(y_arr[labelled])
    classes, codes = encode_classes(y_arr[labelled], min_classes=min_classes,
                                    max_classes=max_classes,
                                    what=what or "among the labelled samples")
    out = np.full(y_arr.shape[0], UNLABELLED, dtype=np.intp)
    out[labelled] = codes
    estimator.classes_ = classes
    return X_arr, out


def validate_labelled_sample(
    X: object,
    y: object,
    *,
    min_classes: int = 1,
    max_classes: int | None = None,
    what: str = "",
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """A labelled sample given to a function, not an estimator (scatter matrices, resamplers).

    The checks and messages of :func:`validate_classification`. Returns ``(X, y, classes,
    codes)``: ``X`` (N, d) finite float64, ``y`` (N,) the labels as given, the sorted
    distinct labels, and the position of each label among them.
    """
    if y is None:
        raise ValueError("y is required (the class labels of the samples), but it is None.")
    X_arr, y_arr = _naming_the_argument(check_X_y, X, y, dtype=np.float64)
    check_classification_targets(y_arr)
    classes, codes = encode_classes(
        y_arr, min_classes=min_classes, max_classes=max_classes, what=what
    )
    return X_arr, y_arr, classes, codes


def check_codes(codes: object, name: str, n_samples: int, n_classes: int) -> np.ndarray:
    """Integer class codes ``0..n_classes-1``, one per sample, as an int array (N,).

    Integral floats are accepted; negative codes are refused (numpy indexing would read
    ``-1`` as the last class).
    """
    arr = check_array_argument(codes, name, shape=(n_samples,), dtype=None, real=True)
    if arr.dtype.kind not in "biuf" or (
        arr.dtype.kind == "f" and not np.all(np.isfinite(arr) & (arr == np.round(arr)))
    ):
        raise ValueError(f"{name} must be integer class codes in [0, {n_classes - 1}].")
    if arr.size and (arr.min() < 0 or arr.max() > n_classes - 1):
        raise ValueError(
            f"{name} must be integer class codes in [0, {n_classes - 1}], got values in "
            f"[{arr.min()}, {arr.max()}]."
        )
    return arr.astype(np.intp)


def check_sample_weight(sample_weight: object, X: np.ndarray) -> np.ndarray:
    """Non-negative finite per-sample weights of length N (``None`` means ones)."""
    return _check_sample_weight(sample_weight, X, dtype=np.float64, ensure_non_negative=True)


def check_fitted(estimator: object, attributes: str | Sequence[str] | None = None) -> None:
    """scikit-learn's ``check_is_fitted`` (raises ``NotFittedError``)."""
    check_is_fitted(estimator, attributes)




def labels_in_classes(classes: np.ndarray, y: object, n_samples: int) -> np.ndarray:
    """Positions in ``classes`` of labels ``y`` given at scoring time (ValueError naming y)."""
    y_arr = column_or_1d(check_array(y, ensure_2d=False, dtype=None))
    if y_arr.shape[0] != n_samples:
        raise ValueError(f"y has {y_arr.shape[0]} labels but X has {n_samples} samples.")
    idx = np.searchsorted(classes, y_arr)
    idx = np.clip(idx, 0, classes.shape[0] - 1)
    if not np.all(classes[idx] == y_arr):
        raise ValueError(f"y contains labels outside the fitted classes {classes.tolist()}.")
    return idx
