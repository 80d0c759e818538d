"""The HTML verification report: one self-contained page rendered from the JSON
document with jinja2.

Everything is inline (CSS, JavaScript, SVG plots): the file opens without a network
and can be mailed or attached to a CI run. The page has a summary bar, navigation
by source (each note's chapters, then other works), filters by verdict, method and
tag, a search box, the problems and the errata first (as the note says / what is
wrong / counterexample / corrected twin with its verdict), and every claim with its
statement, source, method, evidence, timings and plots. Plots are drawn only for
claims that attached data series (:func:`mltheory.evidence.series`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from mltheory.report import (
    _LABELS,
    _ORDER,
    NOTE_TITLES,
    PROBLEM_VERDICTS,
    SECTION_TITLES,
    _headroom_sort_key,
    group_by_source,
    headroom_text,
    is_bound,
    is_outright_error,
    kind_label,
    kind_tally,
    metric_text,
    summary_line,
    verdict_tally,
    without_replay_hints,
)

__all__ = ["render_html"]

#: Lines of a counterexample shown in an erratum card; the claim's card has all of it.
ERRATUM_COUNTEREXAMPLE_LINES = 12


def _environment() -> Any:
    from jinja2 import Environment, PackageLoader, StrictUndefined, select_autoescape

    return Environment(
        loader=PackageLoader("mltheory", "templates"),
        autoescape=select_autoescape(["html", "j2"]),
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )


def _plots(row: Mapping[str, Any]) -> list[dict[str, Any]]:
    from markupsafe import Markup

    from mltheory.plots import render_svg

    out = []
    for i, plot in enumerate(row.get("evidence", {}).get("plots") or []):
        svg = render_svg(plot, key=f"{row['id']}-{i}")
        if not svg:
            continue
        shown = sum(1 for s in plot["series"] for v in s["x"] if v is not None)
        seen = sum(s.get("points", 0) for s in plot["series"])
        caption = f"{seen} points" + (f", {shown} drawn" if shown < seen else "")
        out.append({"title": plot["title"], "svg": Markup(svg), "caption": caption})
    return out


def _claim_view(row: Mapping[str, Any], by_id: Mapping[str, Mapping[str, Any]]) -> dict:
    ev = row.get("evidence", {})
    fix = by_id.get(row.get("corrected_by") or "")
    counterexample = without_replay_hints(row.get("counterexample") or "").strip()
    error = (row.get("error") or "").strip()
    text = " ".join([row["id"], row["statement"], row["source"], row.get("explanation") or "",
                     " ".join(row.get("tags") or ())]).casefold()
    return {
        "row": row,
        "anchor": "c-" + row["id"],
        "metrics": [metric_text(name, m) for name, m in ev.get("metrics", {}).items()],
        "examples": ev.get("examples", 0),
        "notes": ev.get("notes") or [],
        "plots": _plots(row),
        "counterexample": counterexample,
        "counterexample_head": "\n".join(
            counterexample.splitlines()[:ERRATUM_COUNTEREXAMPLE_LINES]),
        "counterexample_cut": len(counterexample.splitlines()) > ERRATUM_COUNTEREXAMPLE_LINES,
        "error": error if error != counterexample else "",
        "fix": fix,
        "tags": list(row.get("tags") or ()),
        "search": text,
        "duration": row.get("duration_s"),
        "warnings": row.get("warnings") or {},
        "headroom": headroom_text(row),
        "kind": kind_label(row) if row.get("expect") == "REFUTED" else "",
    }


def _navigation(groups: list[tuple[Any, list[dict]]]) -> list[dict[str, Any]]:
    """The sidebar tree: one entry per note with its chapters, then one for other works."""
    tree: list[dict[str, Any]] = []
    for group, views in groups:
        parent = group.note or ""
        if not tree or tree[-1]["key"] != parent:
            title = NOTE_TITLES.get(parent, "notes") if parent else "Other sources"
            tree.append({"key": parent, "label": parent or "", "title": title, "items": []})
        if group.is_note:
            label = f"§{group.chapter}" if group.chapter else "(whole note)"
            label += " " + SECTION_TITLES.get((group.note, group.chapter), "")
        else:
            label = group.work
        tree[-1]["items"].append({"anchor": group.anchor, "label": label.strip(),
                                  "count": len(views)})
    return tree


def render_html(
    doc: Mapping[str, Any], *, markdown_name: str | None = None, json_name: str | None = None
) -> str:
    """Render the JSON document as the self-contained HTML report.

    ``markdown_name`` and ``json_name`` (file names next to the page) are linked from
    its header when given.
    """
    rows = doc["results"]
    by_id = {r["id"]: r for r in rows}
    views = {r["id"]: _claim_view(r, by_id) for r in rows}
    groups = [(group, [views[r["id"]] for r in members])
              for group, members in group_by_source(rows)]
    summary = doc["summary"]
    total = max(1, summary.get("run", 0))
    verdicts = [{"value": v.value, "label": _LABELS[v], "count": summary.get(v.value, 0),
                 "share": 100.0 * summary.get(v.value, 0) / total} for v in _ORDER]
    methods = sorted({r["method"] for r in rows})
    tags = sorted({t for r in rows for t in r.get("tags") or ()})
    context = {
        "doc": doc,
        "summary_line": summary_line(summary),
        "verdicts": verdicts,
        "methods": methods,
        "tags": tags,
        "problems": [views[r["id"]] for r in rows if r["verdict"] in PROBLEM_VERDICTS],
        "errata": [views[r["id"]] for r in rows if r["expect"] == "REFUTED"],
        "errata_groups": [
            {"title": title, "blurb": blurb, "claims": members}
            for title, blurb, members in (
                ("Errors", "", [views[r["id"]] for r in rows
                                if r["expect"] == "REFUTED" and is_outright_error(r)]),
                ("Missing conditions and shorthand",
                 "True once a condition the note leaves out, or the reading it intends, "
                 "is supplied; false as printed.",
                 [views[r["id"]] for r in rows
                  if r["expect"] == "REFUTED" and not is_outright_error(r)]),
            ) if members
        ],
        "kind_tally": kind_tally(r for r in rows if r["expect"] == "REFUTED"),
        "bounds": [views[r["id"]] for r in sorted((r for r in rows if is_bound(r)),
                                                  key=_headroom_sort_key)],
        "groups": [{"group": g, "claims": cs, "tally": verdict_tally(c["row"] for c in cs)}
                   for g, cs in groups],
        "navigation": _navigation(groups),
        "plotted": [v for v in views.values() if v["plots"]],
        "markdown_name": markdown_name,
        "json_name": json_name,
    }
    return _environment().get_template("report.html.j2").render(**context)
