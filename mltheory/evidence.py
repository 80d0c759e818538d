"""Evidence recorded by a check while it runs.

Checks call the functions here; the runner installs a fresh
:class:`Evidence` for every claim, so checks never pass it around. Outside a
run (a check called directly from a test) the calls go to a throw-away record.

- :func:`worst` keeps the maximum (or minimum) of a figure over all examples,
  e.g. the tightness ratio ``mistakes / (R/gamma)^2``, and passes it to
  :func:`hypothesis.target` so the search pushes towards breaking the bound.
- :func:`headroom` records how much a bound could be tightened without being refuted
  in this run (1 = attained); the smallest over a claim is its headroom in the report.
  :func:`mltheory.numeric.assert_leq` and the probability checks of
  :mod:`mltheory.stats` record it themselves.
- :func:`record` stores a single value (a reference gap, a sample size).
- :func:`note` adds a line of free text (simulation sizes, decision rules).
- :func:`series` attaches data points for a plot in the HTML report: the observed
  quantity against its bound, a trace per iteration. Calls with the same name
  add points; series that name the same ``plot`` share one set of axes.
"""

from __future__ import annotations

import contextlib
import contextvars
import math
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

__all__ = [
    "MAX_LINES",
    "MAX_POINTS",
    "SERIES_KINDS",
    "Evidence",
    "Metric",
    "Plot",
    "Series",
    "HEADROOM_PREFIX",
    "add_examples",
    "collecting",
    "current",
    "headroom",
    "note",
    "record",
    "series",
    "worst",
]

#: How a series is drawn: ``"line"`` joins its points (a trace per iteration; each
#: call starts a new line), ``"scatter"`` marks them (points accumulate over calls, e.g.
#: one per example), ``"bound"`` is the theoretical bound the observed series must stay
#: under: a dashed curve when given whole in one call, a dash per point when its points
#: come one call at a time (a bound that depends on each example's parameters).
SERIES_KINDS = ("line", "scatter", "bound")
#: Reference lines a plot may carry: the identity (observed = bound).
REFERENCES = ("y=x",)
#: Points kept per series: a scatter past twice this many drops every other point, and
#: a line is thinned evenly to it, so a long run keeps a sample of bounded size and the
#: JSON and the plot stay small (a Hypothesis run under ``thorough`` may call
#: ``series`` thousands of times). The JSON holds at most this many per series.
MAX_POINTS = 500
#: Lines kept per series (one per call for "line" and "bound"): past twice this many,
#: every other line is dropped; a plot with more lines than this is unreadable anyway.
MAX_LINES = 20


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


def _point(value: float) -> float | None:
    """A coordinate for JSON: ``None`` for a line break or a non-finite value."""
    return value if math.isfinite(value) else None


def _thin(values: list[float], size: int) -> list[float]:
    """At most ``size`` (>= 2) evenly spaced items of ``values``, first and last kept."""
    n = len(values)
    if n <= size:
        return list(values)
    return [values[round(i * (n - 1) / (size - 1))] for i in range(size)]


@dataclass
class Series:
    """The points of one named series: one line per call for ``"line"``, one run of
    points otherwise. Thinned as it grows (see :data:`MAX_POINTS`, :data:`MAX_LINES`)."""

    name: str
    kind: str
    lines: list[tuple[list[float], list[float]]] = field(default_factory=list)
    seen: int = 0  # points offered, before thinning
    calls: int = 0

    def add(self, x: list[float], y: list[float]) -> None:
        self.seen += len(x)
        self.calls += 1
        if self.kind != "line":  # scatter and bound points accumulate in one run
            if not self.lines:
                self.lines.append(([], []))
            xs, ys = self.lines[0]
            xs.extend(x)
            ys.extend(y)
            if len(xs) > 2 * MAX_POINTS:  # keep every other point
                self.lines[0] = (xs[::2], ys[::2])
            return
        self.lines.append((_thin(x, MAX_POINTS), _thin(y, MAX_POINTS)))
        if len(self.lines) > 2 * MAX_LINES:  # keep every other line
            self.lines = self.lines[::2]

    def as_dict(self) -> dict[str, Any]:
        """``x`` and ``y`` with ``None`` between lines; at most about MAX_POINTS points."""
        budget = max(2, MAX_POINTS // max(1, len(self.lines)))
        x: list[float | None] = []
        y: list[float | None] = []
        for xs, ys in self.lines:
            if x:
                x.append(None)
                y.append(None)
            x.extend(_point(v) for v in _thin(xs, budget))
            y.extend(_point(v) for v in _thin(ys, budget))
        return {"name": self.name, "kind": self.kind, "x": x, "y": y,
                "points": self.seen, "calls": self.calls}


@dataclass
class Plot:
    """One set of axes: its labels and scales, and the series drawn on it."""

    title: str
    xlabel: str = ""
    ylabel: str = ""
    logx: bool = False
    logy: bool = False
    reference: str | None = None
    series: dict[str, Series] = field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        return {
            "title": self.title,
            "xlabel": self.xlabel,
            "ylabel": self.ylabel,
            "logx": self.logx,
            "logy": self.logy,
            "reference": self.reference,
            "series": [s.as_dict() for s in self.series.values()],
        }


@dataclass
class Evidence:
    """Everything one claim's check recorded."""

    metrics: dict[str, Metric] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    examples: int = 0
    plots: dict[str, Plot] = field(default_factory=dict)

    @property
    def headroom(self) -> float | None:
        """The smallest headroom recorded (see :func:`headroom`), or None."""
        values = [float(m.value) for name, m in self.metrics.items()
                  if name.startswith(HEADROOM_PREFIX)]
        return min(values) if values else None

    def as_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {
            "examples": self.examples,
            "metrics": {k: self.metrics[k].as_dict() for k in sorted(self.metrics)},
            "notes": list(self.notes),
        }
        room = self.headroom
        if room is not None:
            d["headroom"] = _jsonable(room)
        if self.plots:  # absent when nothing was attached: other claims' JSON is unchanged
            d["plots"] = [p.as_dict() for p in self.plots.values()]
        return d


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


#: Metric names of headroom figures start with this.
HEADROOM_PREFIX = "headroom: "


def headroom(label: str, factor: float, *, description: str = "") -> float:
    """Record the headroom of a bound: the largest factor by which the bound could be
    tightened (divided, for an upper bound) without being refuted by what this run saw.

    1.0 means the bound was attained; 2.0 means half the bound would still have held;
    below 1 the bound was exceeded. The smallest value over the claim is its headroom.
    For ``lhs <= rhs`` it is ``rhs / lhs``; for a probability decided by a confidence
    interval, the claimed value over the interval's lower limit. ``inf`` when nothing
    was observed against the bound (e.g. no event in a simulation).
    """
    value = float(factor)
    if math.isnan(value):
        raise ValueError(f"headroom {label!r} is NaN")
    return worst(HEADROOM_PREFIX + label, value, larger_is_worse=False,
                 description=description or "factor the bound could be tightened by "
                 "without being refuted in this run (1 = attained)")


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


def _coordinates(values: Any, what: str) -> list[float]:
    items = values if _is_sequence(values) else [values]
    try:
        return [float(v) for v in items]
    except (TypeError, ValueError) as exc:
        raise TypeError(f"evidence.series: {what} must be numbers, got {values!r}") from exc


def _is_sequence(values: Any) -> bool:
    if hasattr(values, "ndim"):
        if values.ndim > 1:
            raise ValueError(f"evidence.series: expected 1-D data, got shape {values.shape}")
        return values.ndim == 1
    return isinstance(values, list | tuple | range)


def series(
    name: str,
    x: Any,
    y: Any,
    *,
    kind: str = "line",
    plot: str | None = None,
    xlabel: str = "",
    ylabel: str = "",
    logx: bool = False,
    logy: bool = False,
    reference: str | None = None,
) -> None:
    """Attach data points to a plot of the HTML report (and to the JSON).

    Parameters
    ----------
    name : str
        The series' legend entry. Calls with the same name (in the same plot) add
        points: one point per Hypothesis example, or a whole trace per call.
    x, y : float or 1-D array-like
        The coordinates, of equal length. Non-finite values are kept as gaps.
    kind : {"line", "scatter", "bound"}
        ``"line"`` for a trace (each call draws its own line), ``"scatter"`` for points,
        ``"bound"`` for the theoretical bound (see :data:`SERIES_KINDS`).
    plot : str, optional
        The plot's title; series naming the same plot share its axes. Defaults to ``name``.
    xlabel, ylabel : str
        Axis labels (the first call that gives one sets it).
    logx, logy : bool
        Logarithmic axes (points <= 0 are left out of the drawing).
    reference : {"y=x"}, optional
        A reference line: ``"y=x"`` for "observed against bound" plots, where the
        claim holds on and under the line.

    Each series keeps at most :data:`MAX_POINTS` evenly thinned points.
    """
    if kind not in SERIES_KINDS:
        raise ValueError(f"evidence.series: kind must be one of {SERIES_KINDS}, got {kind!r}")
    if reference is not None and reference not in REFERENCES:
        raise ValueError(
            f"evidence.series: reference must be one of {REFERENCES}, got {reference!r}"
        )
    xs, ys = _coordinates(x, "x"), _coordinates(y, "y")
    if len(xs) != len(ys):
        raise ValueError(f"evidence.series: x has {len(xs)} points but y has {len(ys)}")
    title = plot if plot is not None else name
    ev = current()
    p = ev.plots.get(title)
    if p is None:
        p = ev.plots[title] = Plot(title=title)
    p.xlabel, p.ylabel = p.xlabel or xlabel, p.ylabel or ylabel
    p.logx, p.logy = p.logx or logx, p.logy or logy
    p.reference = p.reference or reference
    s = p.series.get(name)
    if s is None:
        s = p.series[name] = Series(name=name, kind=kind)
    elif s.kind != kind:
        raise ValueError(f"evidence.series: {name!r} was a {s.kind!r} series, not {kind!r}")
    s.add(xs, ys)
