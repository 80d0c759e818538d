"""Evidence recorded by a check while it runs.

Checks call the functions here; the runner installs a fresh
:class:`Evidence` for every claim, so checks never pass it around. Outside a
run (a check called directly from a test) the calls go to a throw-away record.

- :func:`worst` keeps the maximum (or minimum) of a figure over all examples,
  e.g. the tightness ratio ``mistakes / (R/gamma)^2``, and passes it to
  :func:`hypothesis.target` so the search pushes towards breaking the bound.
- :func:`record` stores a single value (a reference gap, a sample size).
- :func:`note` adds a line of free text (simulation sizes, decision rules).
"""

from __future__ import annotations

import contextlib
import contextvars
import math
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

__all__ = [
    "Evidence",
    "Metric",
    "add_examples",
    "collecting",
    "current",
    "note",
    "record",
    "worst",
]


@dataclass
class Metric:
    """One named figure: its extreme (for ``worst``) or last value, and how often it was seen."""

    value: Any
    kind: str  # "max", "min" or "value"
    count: int = 1
    description: str = ""

    def as_dict(self) -> dict[str, Any]:
        return {
            "value": _jsonable(self.value),
            "kind": self.kind,
            "count": self.count,
            "description": self.description,
        }


@dataclass
class Evidence:
    """Everything one claim's check recorded."""

    metrics: dict[str, Metric] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    examples: int = 0

    def as_dict(self) -> dict[str, Any]:
        return {
            "examples": self.examples,
            "metrics": {k: self.metrics[k].as_dict() for k in sorted(self.metrics)},
            "notes": list(self.notes),
        }


_CURRENT: contextvars.ContextVar[Evidence | None] = contextvars.ContextVar(
    "mltheory_evidence", default=None
)


def current() -> Evidence:
    """The evidence record of the claim being checked (a throw-away one outside a run)."""
    ev = _CURRENT.get()
    if ev is None:
        ev = Evidence()
        _CURRENT.set(ev)
    return ev


@contextlib.contextmanager
def collecting(evidence: Evidence | None = None) -> Iterator[Evidence]:
    """Install ``evidence`` (or a new record) as the current one for the block."""
    ev = evidence if evidence is not None else Evidence()
    token = _CURRENT.set(ev)
    try:
        yield ev
    finally:
        _CURRENT.reset(token)


def _jsonable(value: Any) -> Any:
    if hasattr(value, "item") and callable(value.item) and getattr(value, "ndim", 1) == 0:
        value = value.item()
    if isinstance(value, float) and not math.isfinite(value):
        return repr(value)
    if isinstance(value, bool | int | float | str) or value is None:
        return value
    return repr(value)


def _target(value: float, label: str) -> None:
    """Forward to hypothesis.target when inside a Hypothesis example; no-op otherwise."""
    try:
        from hypothesis import target
        from hypothesis.control import _current_build_context
        from hypothesis.errors import InvalidArgument
    except ImportError:  # pragma: no cover - hypothesis is a dependency
        return
    if _current_build_context.value is None or not math.isfinite(value):
        return
    with contextlib.suppress(InvalidArgument):  # same label targeted twice in one example
        target(float(value), label=label)


def worst(name: str, value: float, *, larger_is_worse: bool = True, description: str = "") -> float:
    """Keep the worst value of a figure over all examples and steer Hypothesis towards it.

    Returns ``value`` so it can be used inline.
    """
    value = float(value)
    ev = current()
    kind = "max" if larger_is_worse else "min"
    m = ev.metrics.get(name)
    if m is None:
        ev.metrics[name] = Metric(value=value, kind=kind, description=description)
    else:
        m.count += 1
        if math.isnan(value):
            m.value = value
        elif not (isinstance(m.value, float) and math.isnan(m.value)):
            m.value = max(m.value, value) if larger_is_worse else min(m.value, value)
    _target(value if larger_is_worse else -value, name)
    return value


def record(name: str, value: Any, *, description: str = "") -> Any:
    """Store a single value (the last call wins)."""
    ev = current()
    m = ev.metrics.get(name)
    if m is None:
        ev.metrics[name] = Metric(value=value, kind="value", description=description)
    else:
        m.value, m.count = value, m.count + 1
    return value


def note(text: str) -> None:
    """Add a line of free text to the evidence (kept once, in order)."""
    ev = current()
    text = " ".join(str(text).split())
    if text not in ev.notes:
        ev.notes.append(text)


def add_examples(n: int = 1) -> None:
    """Count cases checked by a non-Hypothesis check (enumerated cases, simulated
    datasets). Hypothesis checks are counted by the runner."""
    current().examples += int(n)
