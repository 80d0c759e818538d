"""Bad-input fuzzing of the public API: every exported name of every family.

A family describes each name of ``algorithms.<family>.__all__`` once, in
``tests/<family>/api_cases.py``::

    CASES: dict[str, Case] = {
        "ridge_solve": Case(
            call=lambda rng: ((rng.normal(size=(20, 3)), rng.normal(size=20), 1.0), {}),
            invalid={"lam": [-1.0]},
        ),
        "Ridge": Case(call=lambda rng: ((rng.normal(size=(20, 3)), rng.normal(size=20)), {}),
                      invalid={"lam": [-1.0]}),
        "RankDeficientWarning": Case(skip="a warning class"),
    }

``call`` builds one *valid* call from a generator: ``(args, kwargs)`` of the function,
or of ``fit`` for an estimator (a class with ``fit``; its constructor keywords come
from ``init``). A class without ``fit`` is called like a function (its constructor).
From that call, :func:`variants` derives the bad inputs by the kind of each argument's
valid value (names from :func:`inspect.signature`; an estimator's hyperparameters are
the keyword defaults of its constructor, overridden by ``init``):

=====================  ==============================================================
float array            ``nan``, ``inf`` (one entry), ``complex`` (a non-zero imaginary
                       part), ``extra-axis`` (each entry doubled along a new last axis),
                       ``ravel`` (2-d and more), ``empty`` (0 rows), ``str`` (an object
                       array holding a non-numeric string), ``short`` (the last row
                       dropped while another array argument keeps the same leading
                       length), and scaled ``x1e300`` / ``x1e-300``
integer array          ``short``
float scalar           ``nan``, ``inf`` (unless in ``allow_inf``), ``str``, ``complex``
integer scalar         ``float`` (2.5), ``negative`` (-1), ``huge`` (10**12)
string                 ``bogus``
declared               ``invalid0``, ``invalid1``, ... from ``Case.invalid``
estimator              ``<method>-unfitted`` (``NotFittedError``) and ``<method>-nan``
                       (the fitted estimator given X with a NaN) for predict,
                       predict_proba, predict_log_proba, decision_function, transform
                       and score
=====================  ==============================================================

What each variant must do (:func:`run_variant` returns ``None`` or what went wrong):

* a bad variant is *refused*: ``ValueError`` or ``TypeError`` (not ``LinAlgError``)
  whose message names the argument (a whole word, case-insensitive: ``"Input X
  contains NaN"`` names ``X``); ``short`` may name either array of its group;
* ``huge`` is refused so, or the call returns within the time limit;
* scaled variants are refused with a named error, or every number in the output is
  finite (recursively through tuples, lists, dicts, dataclasses and the public
  attributes of the project's own objects; for estimators the fitted attributes
  ending in ``_`` and the outputs of the methods on the same X);
* the ``valid`` call returns, with finite output;
* a variant listed in ``Case.accept`` is valid input for this name: it may return
  (any output) or refuse with a named error, but must not crash or hang.

Never acceptable: a hang (``Case.timeout`` seconds, enforced in-process with
``signal.setitimer``; a compiled loop that ignores the signal is still caught by the
elapsed time), ``IndexError``, ``LinAlgError``, ``OverflowError``,
``ZeroDivisionError``, ``AttributeError``, ``KeyError``, ``MemoryError``, or a bad
input accepted silently (complex input whose imaginary part is dropped, NaN in and
NaN out). Warnings are ignored; their consequences are not.
"""

from __future__ import annotations

import ast
import dataclasses
import inspect
import math
import numbers
import re
import signal
import threading
import time
import warnings
import zlib
from collections.abc import Callable, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from sklearn.exceptions import NotFittedError

__all__ = [
    "ESTIMATOR_METHODS",
    "Case",
    "CallTimeout",
    "Variant",
    "case_seed",
    "nonfinite_path",
    "random_variants",
    "run_variant",
    "variants",
]

#: Methods an estimator is asked for after (and before) ``fit``, when it has them.
ESTIMATOR_METHODS = (
    "predict",
    "predict_proba",
    "predict_log_proba",
    "decision_function",
    "transform",
    "score",
)

#: Scale factors applied to each scale-free float array: near the largest and the
#: smallest normal float64, where naive squares and exponentials overflow or underflow.
SCALES = {"x1e300": 1e300, "x1e-300": 1e-300}

#: An integer far beyond any sensible size; it must be refused or finish in time.
HUGE_INT = 10**12

#: Exceptions that are never an acceptable answer to bad input, even when they
#: subclass ValueError (numpy's LinAlgError does).
_CRASHES = (
    np.linalg.LinAlgError,
    IndexError,
    KeyError,
    AttributeError,
    ArithmeticError,  # OverflowError, ZeroDivisionError, FloatingPointError
    MemoryError,
)

#: How deep :func:`nonfinite_path` follows nested containers and objects.
_MAX_DEPTH = 6


@dataclass(frozen=True)
class Case:
    """How to call one exported name validly, and what else it must refuse or accept.

    Parameters
    ----------
    call : callable, optional
        ``call(rng) -> (args, kwargs)``: a valid call of the function, or of ``fit``
        for an estimator. Required unless ``skip`` is given.
    init : callable, optional
        ``init() -> dict``: constructor keywords of an estimator (default ``{}``).
    invalid : mapping
        Argument or hyperparameter name -> values that must be refused with a
        ``ValueError``/``TypeError`` naming it (e.g. ``{"lam": [-1.0]}``).
    allow_inf : frozenset of str
        Arguments for which infinity is valid (no ``inf`` variant).
    finite_output : bool
        Whether finite input must give all-finite output (default True).
    nan_ok : frozenset of str
        Output fields or fitted attributes that may hold NaN or infinity by design
        (a "not applicable" sentinel), skipped by the finiteness check.
    scale_free : frozenset of str, optional
        Float-array arguments scaled by 1e300 and 1e-300 (default: all of them).
    accept : frozenset of str
        Variant ids (``"lam-negative"``, ``"z-extra-axis"``) that are valid input
        for this name; they only have to finish without crashing.
    target : callable, optional
        The callable fuzzed instead of the exported object, e.g. a method of a
        constructed instance (``lambda X, Z: GaussianKernel(1.0)(X, Z)``); name its
        parameters like the real ones so that messages can name them.
    methods : tuple of str, optional
        Estimator methods called after ``fit`` (default: those of
        :data:`ESTIMATOR_METHODS` it has).
    timeout : float
        Seconds one call may take.
    skip : str
        Why the name is not fuzzed (a constant, a warning class, a result
        dataclass, a protocol); the case must still exist.
    """

    call: Callable[[np.random.Generator], tuple[tuple, dict]] | None = None
    init: Callable[[], dict] | None = None
    invalid: Mapping[str, Sequence[Any]] = field(default_factory=dict)
    allow_inf: frozenset[str] = frozenset()
    finite_output: bool = True
    nan_ok: frozenset[str] = frozenset()
    scale_free: frozenset[str] | None = None
    accept: frozenset[str] = frozenset()
    target: Callable[..., Any] | None = None
    methods: tuple[str, ...] | None = None
    timeout: float = 10.0
    skip: str = ""

    def __post_init__(self) -> None:
        if self.call is None and not self.skip:
            raise ValueError("a Case needs call (a valid call) or skip (a reason)")
        for attr in ("allow_inf", "accept", "nan_ok"):
            if isinstance(getattr(self, attr), str):
                raise TypeError(f"Case.{attr} must be a set of names, not a string")


@dataclass(frozen=True)
class Variant:
    """One call to make: ``id`` is ``"<argument>-<kind>"`` (or ``"valid"``)."""

    id: str
    arg: str | None
    kind: str
    expect: str  # "valid", "refuse", "finish", "finite", "not_fitted", "accept"
    value: Any = None
    names: tuple[str, ...] = ()  # names a refusal may give (default: (arg,))
    where: tuple[int, ...] | None = None  # the bad entry's index (default: the first)
    factor: float | None = None  # the scale factor of a scaled variant (default: SCALES)


class CallTimeout(BaseException):  # noqa: N818 - not an error of the code under test
    """Raised by the interval timer inside a call that took too long.

    A ``BaseException`` so that a broad ``except Exception`` under test cannot swallow it.
    """


def case_seed(family: str, name: str) -> int:
    """The fixed seed of a case: the same in every process and run."""
    return zlib.crc32(f"{family}.{name}".encode())


# ---------------------------------------------------------------------------
# Arguments: names, kinds, bad values
# ---------------------------------------------------------------------------


def _is_estimator(obj: object, case: Case) -> bool:
    return case.target is None and inspect.isclass(obj) and hasattr(obj, "fit")


def _callable(obj: object, case: Case) -> Callable[..., Any]:
    return case.target if case.target is not None else obj  # type: ignore[return-value]


def _signature(func: Callable[..., Any], drop_self: bool = False) -> inspect.Signature:
    sig = inspect.signature(func)
    if drop_self:
        sig = sig.replace(parameters=list(sig.parameters.values())[1:])
    return sig


class _Call:
    """A valid call as named, replaceable arguments (``**kwargs`` items count as named)."""

    def __init__(self, sig: inspect.Signature, args: tuple, kwargs: dict) -> None:
        self.bound = sig.bind(*args, **kwargs)
        self.varkw = next(
            (p.name for p in sig.parameters.values() if p.kind is p.VAR_KEYWORD), None
        )
        self.skipped = {
            p.name for p in sig.parameters.values() if p.kind is p.VAR_POSITIONAL
        }

    def named(self) -> dict[str, Any]:
        out = {
            k: v
            for k, v in self.bound.arguments.items()
            if k not in self.skipped and k != self.varkw
        }
        if self.varkw is not None:
            out.update(self.bound.arguments.get(self.varkw, {}))
        return out

    def replace(self, name: str, value: Any) -> None:
        if name in self.bound.arguments and name != self.varkw:
            self.bound.arguments[name] = value
        elif self.varkw is not None and name in self.bound.arguments.get(self.varkw, {}):
            self.bound.arguments[self.varkw] = {
                **self.bound.arguments[self.varkw],
                name: value,
            }
        else:
            self.bound.arguments[name] = value  # a declared invalid value of a default

    def args(self) -> tuple[tuple, dict]:
        return self.bound.args, self.bound.kwargs


def _defaults(sig: inspect.Signature) -> dict[str, Any]:
    return {
        p.name: p.default
        for p in sig.parameters.values()
        if p.default is not inspect.Parameter.empty
    }


def _is_float_array(v: object) -> bool:
    return isinstance(v, np.ndarray) and v.dtype.kind == "f"


def _is_int_array(v: object) -> bool:
    return isinstance(v, np.ndarray) and v.dtype.kind in "iu"


def _is_real(v: object) -> bool:
    return isinstance(v, float | np.floating)


def _is_int(v: object) -> bool:
    return isinstance(v, int | np.integer) and not isinstance(v, bool | np.bool_)


def _array_kinds(name: str, value: np.ndarray, case: Case, peers: list[str]) -> list[Variant]:
    out = []
    if value.size:
        out.append(Variant(f"{name}-nan", name, "nan", "refuse"))
        if name not in case.allow_inf:
            out.append(Variant(f"{name}-inf", name, "inf", "refuse"))
        out.append(Variant(f"{name}-complex", name, "complex", "refuse"))
        out.append(Variant(f"{name}-str", name, "str", "refuse"))
    out.append(Variant(f"{name}-extra-axis", name, "extra-axis", "refuse"))
    if value.ndim >= 2:
        out.append(Variant(f"{name}-ravel", name, "ravel", "refuse"))
    if value.ndim >= 1 and value.shape[0] > 0:
        out.append(Variant(f"{name}-empty", name, "empty", "refuse"))
    if peers:
        out.append(Variant(f"{name}-short", name, "short", "refuse", names=(name, *peers)))
    if (case.scale_free is None or name in case.scale_free) and np.any(value):
        out += [Variant(f"{name}-{k}", name, k, "finite") for k in SCALES]
    return out


def _argument_variants(name: str, value: object, case: Case, peers: list[str]) -> list[Variant]:
    if _is_float_array(value):
        return _array_kinds(name, value, case, peers)
    if _is_int_array(value):
        short = Variant(f"{name}-short", name, "short", "refuse", names=(name, *peers))
        return [short] if peers else []
    if _is_real(value):
        out = [Variant(f"{name}-nan", name, "nan", "refuse", math.nan)]
        if name not in case.allow_inf:
            out.append(Variant(f"{name}-inf", name, "inf", "refuse", math.inf))
        out.append(Variant(f"{name}-str", name, "str", "refuse", "abc"))
        out.append(Variant(f"{name}-complex", name, "complex", "refuse", complex(value, 1.0)))
        return out
    if _is_int(value):
        return [
            Variant(f"{name}-float", name, "float", "refuse", 2.5),
            Variant(f"{name}-negative", name, "negative", "refuse", -1),
            Variant(f"{name}-huge", name, "huge", "finish", HUGE_INT),
        ]
    if isinstance(value, str):
        return [Variant(f"{name}-bogus", name, "bogus", "refuse", "bogus")]
    return []


def _peers(named: Mapping[str, Any]) -> dict[str, list[str]]:
    """Array arguments that share a leading length > 1 with another array argument."""
    lead = {
        k: v.shape[0]
        for k, v in named.items()
        if isinstance(v, np.ndarray) and v.ndim >= 1 and v.shape[0] > 1 and v.dtype.kind in "fiu"
    }
    return {k: [j for j in lead if j != k and lead[j] == n] for k, n in lead.items()}


def _valid_call(case: Case, seed: int) -> tuple[tuple, dict]:
    assert case.call is not None
    args, kwargs = case.call(np.random.default_rng(seed))
    return tuple(args), dict(kwargs)


def _init(case: Case) -> dict[str, Any]:
    return dict(case.init()) if case.init is not None else {}


def _named_call(obj: object, case: Case, seed: int) -> tuple[inspect.Signature, dict[str, Any]]:
    """The signature fuzzed (a function's, or ``fit``'s) and the valid call's arguments."""
    args, kwargs = _valid_call(case, seed)
    if _is_estimator(obj, case):
        sig = _signature(obj.fit, drop_self=True)  # type: ignore[attr-defined]
    else:
        sig = _signature(_callable(obj, case))
    return sig, _Call(sig, args, kwargs).named()


def variants(obj: object, case: Case, seed: int = 0) -> list[Variant]:
    """Every variant of one exported name: ``valid`` first, then the bad inputs."""
    if case.skip:
        return []
    estimator = _is_estimator(obj, case)
    sig, named = _named_call(obj, case, seed)
    peers = _peers(named)
    out = [Variant("valid", None, "valid", "valid")]
    for name, value in named.items():
        out += _argument_variants(name, value, case, peers.get(name, []))
    hyper: dict[str, Any] = {}
    if estimator:
        hyper = {**_defaults(_signature(obj)), **_init(case)}
        for name, value in hyper.items():
            out += _argument_variants(name, value, case, [])
        first = next(iter(named), "X")  # the data argument of fit, usually X
        for m in ESTIMATOR_METHODS:
            if hasattr(obj, m):
                out.append(Variant(f"{m}-unfitted", m, "unfitted", "not_fitted"))
                out.append(Variant(f"{m}-nan", m, "method-nan", "refuse", names=(first,)))
    known = set(named) | set(sig.parameters) | (set(hyper) if estimator else set())
    unknown = sorted(set(case.invalid) - known)
    if unknown:
        raise ValueError(f"Case.invalid names arguments the callable does not have: {unknown}")
    for name, values in case.invalid.items():
        out += [
            Variant(f"{name}-invalid{i}", name, "invalid", "refuse", v)
            for i, v in enumerate(values)
        ]
    unused = sorted(case.accept - {v.id for v in out})
    if unused:
        raise ValueError(f"Case.accept lists variants that are not generated: {unused}")
    out = [
        dataclasses.replace(v, expect="accept") if v.id in case.accept else v for v in out
    ]
    ids = [v.id for v in out]
    dup = sorted({i for i in ids if ids.count(i) > 1})
    if dup:
        raise ValueError(f"variant ids repeat (an argument and a hyperparameter?): {dup}")
    return out


#: Variants whose bad entry may sit anywhere in the array.
_POINT_KINDS = ("nan", "inf", "complex", "str")
#: Decimal exponents of the random scale factors: far beyond any data's units.
_SCALE_EXPONENTS = (100, 307)


def random_variants(obj: object, case: Case, seed: int = 0):
    """A Hypothesis strategy over bad array entries anywhere and scales 1e±100..1e±307.

    It widens :func:`variants` (which plants the bad entry first and scales by exactly
    1e±300) to every position and magnitude; the expectations are the same. None when
    the name has no float array argument.
    """
    from hypothesis import strategies as st

    if case.skip:
        return None
    _, named = _named_call(obj, case, seed)
    shapes = {k: v.shape for k, v in named.items() if _is_float_array(v) and v.size}
    base = [
        v
        for v in variants(obj, case, seed)
        if v.arg in shapes and (v.kind in _POINT_KINDS or v.kind in SCALES)
    ]
    if not base:
        return None

    @st.composite
    def draw_variant(draw):
        v = draw(st.sampled_from(base))
        if v.kind in SCALES:
            e = draw(st.integers(*_SCALE_EXPONENTS))
            factor = 10.0**e if SCALES[v.kind] > 1 else 10.0**-e
            return dataclasses.replace(v, id=f"{v.arg}-x{factor:.0e}", factor=factor)
        where = tuple(draw(st.integers(0, n - 1)) for n in shapes[v.arg])
        return dataclasses.replace(v, id=f"{v.id}@{list(where)}", where=where)

    return draw_variant()


def _bad_array(
    value: np.ndarray, kind: str, where: tuple[int, ...] | None = None, factor: float | None = None
) -> object:
    flat_first = (0,) * value.ndim if where is None else where
    if kind in ("nan", "inf"):
        bad = value.copy()
        bad[flat_first] = np.nan if kind == "nan" else np.inf
        return bad
    if kind == "complex":
        bad = value.astype(np.complex128)
        bad[flat_first] += 1j
        return bad
    if kind == "str":
        bad = value.astype(object)
        bad[flat_first] = "abc"
        return bad
    if kind == "extra-axis":
        return np.stack([value, value], axis=-1)
    if kind == "ravel":
        return value.ravel()
    if kind == "empty":
        return value[:0]
    if kind == "short":
        return value[:-1]
    if kind in SCALES:
        return value * (SCALES[kind] if factor is None else factor)
    raise ValueError(f"unknown array variant {kind!r}")


def _bad_value(value: object, variant: Variant) -> object:
    if variant.kind == "invalid" or not isinstance(value, np.ndarray):
        return variant.value
    return _bad_array(value, variant.kind, variant.where, variant.factor)


# ---------------------------------------------------------------------------
# Running a call and judging what happened
# ---------------------------------------------------------------------------


@contextmanager
def _time_limit(seconds: float):
    """Raise :class:`CallTimeout` in the main thread after ``seconds``."""
    usable = hasattr(signal, "setitimer") and threading.current_thread() is threading.main_thread()
    if not usable:
        yield
        return

    def _alarm(signum, frame):
        raise CallTimeout(f"took longer than {seconds:g} s")

    previous = signal.signal(signal.SIGALRM, _alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def _short(v: object) -> str:
    if isinstance(v, np.ndarray):
        return f"array(shape={v.shape}, dtype={v.dtype})"
    text = repr(v)
    return text if len(text) <= 40 else text[:37] + "..."


def _describe(func_name: str, args: tuple, kwargs: dict) -> str:
    parts = [_short(a) for a in args] + [f"{k}={_short(v)}" for k, v in kwargs.items()]
    return f"{func_name}({', '.join(parts)})"


def nonfinite_path(
    value: object, path: str = "result", exempt: frozenset[str] = frozenset(), _depth: int = 0
) -> str | None:
    """Where ``value`` holds a NaN or an infinity (``"result[1].coef_[(0, 2)] = nan"``), or None.

    Follows tuples, lists, dicts, dataclasses, arrays (numeric and object) and the
    public attributes of objects defined in this project (``algorithms.*``); for those
    whose attribute names end in ``_`` (fitted estimators) only the fitted ones.
    Fields, keys and attributes named in ``exempt`` are skipped.
    """
    if _depth > _MAX_DEPTH or value is None or isinstance(value, str | bytes | bool | np.bool_):
        return None
    if isinstance(value, numbers.Number):
        ok = np.isfinite(complex(value)) if isinstance(value, numbers.Complex) else True
        return None if ok else f"{path} = {value!r}"
    if isinstance(value, np.ndarray):
        if value.dtype.kind in "fc":
            bad = ~np.isfinite(value)
            if bad.any():
                where = tuple(int(i) for i in np.argwhere(bad)[0])
                return (
                    f"{path}[{where}] = {value[where]!r} "
                    f"({int(bad.sum())} of {value.size} entries non-finite)"
                )
        elif value.dtype.kind == "O":
            for i, item in enumerate(value.flat):
                found = nonfinite_path(item, f"{path}.flat[{i}]", exempt, _depth + 1)
                if found:
                    return found
        return None
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        items = [(f.name, getattr(value, f.name)) for f in dataclasses.fields(value)]
        return _first_nonfinite(items, path, ".{}", exempt, _depth)
    if isinstance(value, Mapping):
        return _first_nonfinite(list(value.items()), path, "[{!r}]", exempt, _depth)
    if isinstance(value, tuple | list):
        names = getattr(value, "_fields", None)
        if names:
            pairs = list(zip(names, value, strict=False))
            return _first_nonfinite(pairs, path, ".{}", exempt, _depth)
        return _first_nonfinite(list(enumerate(value)), path, "[{}]", exempt, _depth)
    module = type(value).__module__ or ""
    if module.startswith("algorithms") and hasattr(value, "__dict__"):
        attrs = {k: v for k, v in vars(value).items() if not k.startswith("_")}
        fitted = {k: v for k, v in attrs.items() if k.endswith("_")}
        return _first_nonfinite(list((fitted or attrs).items()), path, ".{}", exempt, _depth)
    return None


def _first_nonfinite(
    items: list[tuple[Any, Any]], path: str, fmt: str, exempt: frozenset[str], depth: int
) -> str | None:
    for key, item in items:
        if isinstance(key, str) and key in exempt:
            continue
        found = nonfinite_path(item, path + fmt.format(key), exempt, depth + 1)
        if found:
            return found
    return None


_WORD = "(?<![A-Za-z0-9_]){}(?![A-Za-z0-9_])"


def _names_one_of(message: str, names: Sequence[str]) -> bool:
    return any(re.search(_WORD.format(re.escape(n)), message, re.IGNORECASE) for n in names)


def _exception_text(exc: BaseException) -> str:
    return f"{type(exc).__name__}: {str(exc)[:300]}"


def _judge_exception(exc: BaseException, variant: Variant, what: str) -> str | None:
    """None when ``exc`` is an acceptable refusal of ``variant``, else the failure."""
    if isinstance(exc, CallTimeout):
        return f"{what} {exc}"
    names = variant.names or ((variant.arg,) if variant.arg else ())
    if variant.expect in ("valid",):
        return f"{what} raised on valid input: {_exception_text(exc)}"
    if variant.expect == "not_fitted":
        if isinstance(exc, NotFittedError):
            return None
        return f"{what} before fit raised {_exception_text(exc)}, not NotFittedError"
    if isinstance(exc, _CRASHES) or not isinstance(exc, ValueError | TypeError):
        return f"{what} crashed: {_exception_text(exc)}"
    if not _names_one_of(str(exc), names):
        return (
            f"{what} refused it, but the message does not name {' or '.join(names)}: "
            f"{_exception_text(exc)}"
        )
    return None


def _judge_return(result: object, variant: Variant, case: Case, what: str) -> str | None:
    if variant.expect == "refuse":
        return f"{what} accepted the bad input ({variant.kind}) and returned {_short(result)}"
    if variant.expect == "not_fitted":
        return f"{what} before fit returned {_short(result)} instead of raising NotFittedError"
    if variant.expect in ("valid", "finite") and case.finite_output:
        found = nonfinite_path(result, exempt=case.nan_ok)
        if found:
            return f"{what} returned a non-finite value for finite input: {found}"
    return None


def _methods(est: object, case: Case) -> list[str]:
    names = case.methods if case.methods is not None else ESTIMATOR_METHODS
    return [m for m in names if hasattr(est, m)]


def _method_args(method: str, fit_args: tuple, X: object) -> tuple:
    if method == "score":
        return (X, *fit_args[1:2])
    return (X,)


def _run(variant: Variant, obj: object, case: Case, seed: int) -> str | None:
    """Make the call of ``variant``; None when the outcome is acceptable."""
    args, kwargs = _valid_call(case, seed)
    estimator = _is_estimator(obj, case)
    func = _callable(obj, case)
    name = getattr(obj, "__name__", repr(obj))
    if not estimator:
        call = _Call(_signature(func), args, kwargs)
        if variant.arg is not None:
            call.replace(variant.arg, _bad_value(call.named().get(variant.arg), variant))
        a, k = call.args()
        what = _describe(name, a, k)
        try:
            result = func(*a, **k)
        except BaseException as exc:  # noqa: BLE001 - every outcome is judged
            if isinstance(exc, KeyboardInterrupt):
                raise
            return _judge_exception(exc, variant, what)
        return _judge_return(result, variant, case, what)
    return _run_estimator(variant, obj, case, args, kwargs, name)


def _run_estimator(
    variant: Variant, cls: Any, case: Case, args: tuple, kwargs: dict, name: str
) -> str | None:
    init = {**_init(case)}
    call = _Call(_signature(cls.fit, drop_self=True), args, kwargs)
    hyper = _defaults(_signature(cls))
    arg = variant.arg
    if variant.kind not in ("unfitted", "method-nan") and arg is not None:
        if arg in call.named() or (arg not in hyper and arg not in init):
            call.replace(arg, _bad_value(call.named().get(arg), variant))
        else:
            init[arg] = _bad_value(init.get(arg, hyper.get(arg)), variant)
    a, k = call.args()
    X = a[0] if a else next(iter(k.values()))
    est = cls(**init)
    init_text = ", ".join(f"{key}={_short(v)}" for key, v in init.items())
    if variant.kind == "unfitted":
        if not hasattr(est, arg):
            return None  # hidden by available_if for this configuration
        method = getattr(est, arg)
        what = f"{name}({init_text}).{arg}(X) before fit"
        try:
            result = method(*_method_args(arg, a, X))
        except BaseException as exc:  # noqa: BLE001
            if isinstance(exc, KeyboardInterrupt):
                raise
            return _judge_exception(exc, variant, what)
        return _judge_return(result, variant, case, what)
    what = _describe(f"{name}({init_text}).fit", a, k)
    try:
        est.fit(*a, **k)
    except BaseException as exc:  # noqa: BLE001
        if isinstance(exc, KeyboardInterrupt):
            raise
        if variant.kind == "method-nan":
            return _judge_exception(exc, dataclasses.replace(variant, expect="valid"), what)
        return _judge_exception(exc, variant, what)
    if variant.kind == "method-nan":
        if not hasattr(est, arg):
            return None  # hidden by available_if for this configuration
        try:
            X_bad = _bad_array(np.array(X, dtype=float), "nan")
        except (TypeError, ValueError):
            return None  # non-numeric data (categories as strings): no NaN to plant

        what = f"{what}.{arg}(X with a NaN)"
        try:
            result = getattr(est, arg)(*_method_args(arg, a, X_bad))
        except BaseException as exc:  # noqa: BLE001
            if isinstance(exc, KeyboardInterrupt):
                raise
            return _judge_exception(exc, variant, what)
        return _judge_return(result, variant, case, what)
    if variant.expect == "refuse":
        return _judge_return(est, variant, case, what)
    fitted = {k: v for k, v in vars(est).items() if k.endswith("_") and not k.startswith("_")}
    outputs: dict[str, object] = {"fitted": fitted}
    if variant.expect in ("valid", "finite"):
        for m in _methods(est, case):
            try:
                outputs[m] = getattr(est, m)(*_method_args(m, a, X))
            except BaseException as exc:  # noqa: BLE001
                if isinstance(exc, KeyboardInterrupt):
                    raise
                return _judge_exception(
                    exc, dataclasses.replace(variant, expect="valid"), f"{what}.{m}(X)"
                )
    return _judge_return(outputs, variant, case, what)


def run_variant(obj: object, case: Case, variant: Variant, seed: int = 0) -> str | None:
    """Run one variant under the time limit; None if it behaved, else what went wrong."""
    start = time.perf_counter()
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            with _time_limit(case.timeout):
                failure = _run(variant, obj, case, seed)
    except CallTimeout as exc:
        failure = f"{getattr(obj, '__name__', obj)} [{variant.id}] {exc}"
    elapsed = time.perf_counter() - start
    if failure is None and elapsed > case.timeout:
        failure = f"[{variant.id}] took {elapsed:.1f} s, longer than {case.timeout:g} s"
    return failure


# ---------------------------------------------------------------- documented defaults

#: ``name : type, default=VALUE`` (or ``a, b : type, default=VALUE``) in a numpydoc block.
_DEFAULT_LINE = re.compile(r"^([A-Za-z_][\w, ]*?) : .*\bdefault=(.+?)\s*$")


def _default_value(text: str) -> object:
    """A documented default: a Python literal, or a quotient of two (``1/3``)."""
    try:
        return ast.literal_eval(text)
    except ValueError:
        node = ast.parse(text, mode="eval").body
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Div):
            return ast.literal_eval(node.left) / ast.literal_eval(node.right)
        raise


def documented_defaults(obj: object) -> dict[str, object]:
    """The keyword defaults ``obj``'s numpydoc docstring states, by parameter name."""
    found: dict[str, object] = {}
    for line in (inspect.getdoc(obj) or "").splitlines():
        match = _DEFAULT_LINE.match(line)
        if match:
            value = _default_value(match.group(2))
            for name in match.group(1).split(","):
                found[name.strip()] = value
    return found
