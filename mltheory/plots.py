"""Plots for the HTML report: inline SVG drawn with matplotlib from the data series
that claims attach with :func:`mltheory.evidence.series` (as stored in the JSON).

Only the object-oriented API is used (a :class:`~matplotlib.figure.Figure` with the
Agg canvas, saved as SVG), so rendering never touches pyplot's global state or the
user's interactive backend. The SVG is deterministic: no date in its metadata, and
its element ids salted with the plot's own key, so the SVGs of one page neither
change from run to run nor share ids with each other.
"""

from __future__ import annotations

import io
import math
from collections.abc import Mapping, Sequence
from typing import Any

__all__ = ["render_svg"]

#: Figure size in inches (the page scales the SVG to its column width).
FIGURE_SIZE = (6.4, 3.6)
#: Colours of the observed series, in order; bounds and references are drawn in grey.
_COLOURS = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b")
_BOUND_COLOUR = "#444444"
#: A plot with more lines than this draws them thinner and translucent.
_MANY_LINES = 5
_REFERENCE_POINTS = 200
#: Room for the tick labels, axis labels and title, as fractions of the figure.
_MARGINS = {"left": 0.11, "right": 0.98, "bottom": 0.14, "top": 0.9}


def _floats(values: Sequence[Any]) -> list[float]:
    return [math.nan if v is None else float(v) for v in values]


def _drawable(x: list[float], y: list[float], logx: bool, logy: bool) -> tuple[list, list]:
    """Non-finite coordinates, and points <= 0 on a log axis, become gaps."""
    out_x, out_y = [], []
    for a, b in zip(x, y, strict=True):
        bad = (not math.isfinite(a) or not math.isfinite(b) or (logx and a <= 0)
               or (logy and b <= 0))
        out_x.append(math.nan if bad else a)
        out_y.append(math.nan if bad else b)
    return out_x, out_y


def _finite_pairs(x: list[float], y: list[float]) -> tuple[list[float], list[float]]:
    pairs = [(a, b) for a, b in zip(x, y, strict=True) if math.isfinite(a) and math.isfinite(b)]
    return [a for a, _ in pairs], [b for _, b in pairs]


def _draw_series(ax: Any, s: Mapping[str, Any], colour: str, logx: bool, logy: bool) -> bool:
    """Draw one series; False when it has nothing drawable."""
    x, y = _drawable(_floats(s["x"]), _floats(s["y"]), logx, logy)
    px, py = _finite_pairs(x, y)
    if not px:
        return False
    label = s["name"]
    if s["kind"] == "scatter":
        ax.scatter(px, py, s=12, alpha=0.6, color=colour, label=label, linewidths=0)
    elif s["kind"] == "bound":
        if s.get("calls", 1) == 1 and len(px) > 1:  # a whole curve: a dashed line
            order = sorted(range(len(px)), key=px.__getitem__)
            ax.plot([px[i] for i in order], [py[i] for i in order], "--",
                    color=_BOUND_COLOUR, lw=1.5, label=label)
        else:  # one value per example: a dash at each
            ax.scatter(px, py, marker="_", s=70, color=_BOUND_COLOUR, label=label,
                       linewidths=1.2)
    else:
        lines = 1 + sum(1 for v in s["x"] if v is None)
        many = lines > _MANY_LINES
        ax.plot(x, y, "-", color=colour, lw=0.8 if many else 1.5,
                alpha=0.5 if many else 1.0, label=label)
    return True


def _draw_reference(ax: Any, reference: str, logx: bool, logy: bool) -> None:
    """The line y = x across the drawn range (sampled, so it is right on any scales)."""
    if reference != "y=x":
        return
    (x0, x1), (y0, y1) = ax.get_xlim(), ax.get_ylim()
    lo, hi = min(x0, y0), max(x1, y1)
    if logx or logy:
        positive = [v for v in (x0, y0, x1, y1) if v > 0]
        if not positive:
            return
        lo = max(lo, min(positive))
        grid = [lo * (hi / lo) ** (i / (_REFERENCE_POINTS - 1)) for i in range(_REFERENCE_POINTS)]
    else:
        grid = [lo + (hi - lo) * i / (_REFERENCE_POINTS - 1) for i in range(_REFERENCE_POINTS)]
    ax.plot(grid, grid, ":", color=_BOUND_COLOUR, lw=1.2, label="y = x")
    ax.set_xlim(x0, x1)
    ax.set_ylim(y0, y1)


def render_svg(plot: Mapping[str, Any], key: str) -> str:
    """The SVG text (an ``<svg>`` element, no XML prologue) of one plot of the JSON
    document (an item of ``evidence["plots"]``); ``key`` makes its element ids unique
    on the page. Empty when no series has a drawable point."""
    import matplotlib
    from matplotlib.figure import Figure

    logx, logy = bool(plot.get("logx")), bool(plot.get("logy"))
    with matplotlib.rc_context({"svg.hashsalt": key, "svg.fonttype": "none",
                                "font.size": 9}):
        fig = Figure(figsize=FIGURE_SIZE)
        # Fixed margins: a layout engine would cost more time than the drawing itself.
        fig.subplots_adjust(**_MARGINS)
        ax = fig.add_subplot()
        if logx:
            ax.set_xscale("log")
        if logy:
            ax.set_yscale("log")
        colours = iter(_COLOURS * (1 + len(plot["series"]) // len(_COLOURS)))
        drawn = [_draw_series(ax, s, next(colours) if s["kind"] != "bound" else _BOUND_COLOUR,
                              logx, logy) for s in plot["series"]]
        if not any(drawn):
            return ""
        if plot.get("reference"):
            _draw_reference(ax, plot["reference"], logx, logy)
        ax.set_xlabel(plot.get("xlabel") or "")
        ax.set_ylabel(plot.get("ylabel") or "")
        ax.set_title(plot["title"], fontsize=10)
        ax.grid(True, which="major", color="#dddddd", lw=0.6)
        ax.legend(loc="best", fontsize=8, frameon=False)
        buf = io.StringIO()
        fig.savefig(buf, format="svg", metadata={"Date": None})
    svg = buf.getvalue()
    return svg[svg.index("<svg"):] if "<svg" in svg else svg
