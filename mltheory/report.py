"""Verification reports: JSON (canonical, stable keys), and Markdown and HTML
(:mod:`mltheory.html`) rendered from it.

The Markdown and HTML reports are always rendered from the JSON document, so the
CLI and the pytest plugin (which only sees results as JSON strings passed back
from test items, possibly from other processes) produce the same reports. The
Markdown is the short one (summary, problems, errata, a row per claim); the HTML
has everything, with plots.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from mltheory._output import atomic_write_text
from mltheory.claims import BOUND_TAG, ErratumKind
from mltheory.evidence import HEADROOM_PREFIX
from mltheory.results import Result, Verdict
from mltheory.stats import DEFAULT_CONFIDENCE

__all__ = [
    "NOTE_TITLES",
    "SourceGroup",
    "build_document",
    "group_by_source",
    "render_markdown",
    "source_group",
    "write_reports",
]

SCHEMA_VERSION = 1

NOTE_TITLES = {
    "000": "Lin, Machine Learning Foundations ch. 1 (learning problem, PLA, pocket)",
    "001": "Li Hang, Statistical Learning Methods: the perceptron",
    "002": "Lin, Machine Learning Foundations lecture 2 (learning to answer yes/no)",
    "003": "Zhou Zhihua, Machine Learning (chapter summaries)",
    "004": "Linear models (regression, GLM, logistic, LDA, perceptron)",
}

NOTE_SHORT_NAMES = {
    "000": "Lin, ML Foundations ch. 1",
    "001": "Li Hang, the perceptron",
    "002": "Lin, lecture 2",
    "003": "Zhou, Machine Learning",
    "004": "linear-models notes",
}

#: Chapter or section names, keyed by (note prefix, chapter) as chapter_key returns them.
SECTION_TITLES = {
    ("000", "1"): "the learning problem, PLA and pocket",
    ("001", "一"): "the primal form",
    ("001", "二"): "convergence (Novikoff)",
    ("001", "三"): "the dual form",
    ("003", "1"): "linear models",
    ("003", "2"): "decision trees",
    ("003", "3"): "neural networks",
    ("003", "4"): "support vector machines",
    ("003", "5"): "Bayes classifiers",
    ("003", "6"): "ensemble learning",
    ("003", "7"): "clustering",
    ("003", "8"): "dimensionality reduction and metric learning",
    ("003", "9"): "computational learning theory",
    ("003", "10"): "feature selection and sparse learning",
    ("003", "11"): "semi-supervised learning",
    ("003", "12"): "probabilistic graphical models",
    ("003", "13"): "rule learning",
    ("003", "14"): "reinforcement learning",
    ("004", "1"): "linear regression",
    ("004", "2"): "generalised linear models",
    ("004", "3"): "logistic regression",
    ("004", "4"): "linear discriminant analysis",
    ("004", "5"): "the perceptron",
}

_CHINESE_NUMERALS = {c: i for i, c in enumerate("一二三四五六七八九十", start=1)}

#: Verdicts that are failures of the suite itself, listed first under "Problems".
PROBLEM_VERDICTS = ("FAILED", "NOT_REFUTED", "ERROR")

DECISION_RULE = (
    "Simulation claims are refuted only when a one-sided Clopper-Pearson bound on the "
    f"observed frequency, at confidence {DEFAULT_CONFIDENCE:.7g}, lies on the wrong side of "
    "the claimed value; property claims are refuted by a concrete (shrunk) counterexample. "
    "Every random draw is seeded from the claim id and the run's seed."
)

_ORDER = [
    Verdict.VERIFIED,
    Verdict.ERRATUM_CONFIRMED,
    Verdict.FAILED,
    Verdict.NOT_REFUTED,
    Verdict.ERROR,
    Verdict.SKIPPED,
]
_LABELS = {
    Verdict.VERIFIED: "verified",
    Verdict.ERRATUM_CONFIRMED: "errata confirmed",
    Verdict.FAILED: "failed",
    Verdict.NOT_REFUTED: "not refuted",
    Verdict.ERROR: "errors",
    Verdict.SKIPPED: "skipped",
}


def build_document(
    results: Iterable[Result | Mapping[str, Any]],
    *,
    profile: str,
    seed: int,
    version: str,
    duration_s: float | None = None,
    timings: bool = True,
    not_run: Iterable[str] = (),
) -> dict[str, Any]:
    """The JSON report document. ``timings=False`` drops every wall-clock figure,
    leaving a document that is identical for identical seeds and profiles.
    ``not_run`` lists the selected claims an interrupted run did not reach; the
    document then says it is partial (``"interrupted": true``)."""
    rows = []
    for r in results:
        d = r.as_dict(timings=timings) if isinstance(r, Result) else dict(r)
        if not timings:
            d.pop("duration_s", None)
        rows.append(d)
    rows.sort(key=lambda d: d["id"])
    summary = {v.value: 0 for v in _ORDER}
    for d in rows:
        summary[d["verdict"]] += 1
    summary["run"] = len(rows)
    doc: dict[str, Any] = {
        "schema": SCHEMA_VERSION,
        "tool": "mltheory",
        "version": version,
        "profile": profile,
        "seed": seed,
        "decision_rule": DECISION_RULE,
        "summary": summary,
        "results": rows,
    }
    if timings and duration_s is not None:
        doc["duration_s"] = round(duration_s, 2)
    not_run = sorted(not_run)
    if not_run:
        doc["interrupted"] = True
        doc["not_run"] = not_run
    return doc


def summary_line(summary: Mapping[str, int]) -> str:
    parts = [f"{summary.get(v.value, 0)} {_LABELS[v]}" for v in _ORDER]
    return f"{summary.get('run', 0)} claims run: " + ", ".join(parts)


_CHAPTER = re.compile(r"^(\d{3})\s*(?:§\s*([0-9]+|[一二三四五六七八九十]+))?")
_NOTE_CITATION = re.compile(r"^\d{3}(?!\d)")


def chapter_key(source: str) -> tuple[str, str]:
    """``("003", "4")`` for ``"003 §4.2 (4.9)"``; the chapter is the first section number."""
    first = source.split(";")[0].strip()
    m = _CHAPTER.match(first)
    if not m:
        return (first[:3], "")
    return (m.group(1), m.group(2) or "")


def _chapter_number(chapter: str) -> int:
    return int(chapter) if chapter.isdigit() else _CHINESE_NUMERALS.get(chapter, 0)


@dataclass(frozen=True)
class SourceGroup:
    """Where the report lists a claim: a chapter of a note (``note``, ``chapter``), or
    another work (``work``: the text of the first citation before its first comma)."""

    note: str = ""
    chapter: str = ""
    work: str = ""

    @property
    def is_note(self) -> bool:
        return bool(self.note)

    @property
    def heading(self) -> str:
        """``"003 §4"``, ``"001"`` or the work's name."""
        if not self.is_note:
            return self.work
        return f"{self.note} §{self.chapter}" if self.chapter else self.note

    @property
    def title(self) -> str:
        """What the group is about: the chapter's name and the note, or the note's title;
        empty for another work (its heading says it all)."""
        if not self.is_note:
            return ""
        section = SECTION_TITLES.get((self.note, self.chapter))
        if section:
            return f"{section} ({NOTE_SHORT_NAMES.get(self.note, self.note)})"
        return NOTE_TITLES.get(self.note, "notes")

    @property
    def anchor(self) -> str:
        """An HTML id: ``src-003-4``, ``src-001-2`` (for §二), ``src-mohri-et-al-2018``."""
        if self.is_note:
            chapter = _chapter_number(self.chapter) or self.chapter
            return f"src-{self.note}" + (f"-{chapter}" if chapter else "")
        slug = re.sub(r"[^0-9a-z]+", "-", self.work.lower()).strip("-")
        return "src-w-" + (slug or "work")

    @property
    def sort_key(self) -> tuple[int, str, int, str]:
        if self.is_note:
            return (0, self.note, _chapter_number(self.chapter), self.chapter)
        return (1, self.work.casefold(), 0, self.work)


def source_group(source: str) -> SourceGroup:
    """The group of a claim's source, from its first citation: a note's chapter
    (``"003 §4.2 (4.9)"`` -> 003 §4) or another work (``"Mohri et al. 2018, Thm 3.3"``
    -> ``Mohri et al. 2018``)."""
    first = source.split(";")[0].strip()
    if _NOTE_CITATION.match(first):
        note, chapter = chapter_key(first)
        return SourceGroup(note=note, chapter=chapter)
    return SourceGroup(work=first.split(",")[0].strip() or first)


def group_by_source(
    rows: Iterable[Mapping[str, Any]],
) -> list[tuple[SourceGroup, list[Mapping[str, Any]]]]:
    """Rows grouped by :func:`source_group`: the notes' chapters in order, then other works
    alphabetically; rows keep their order inside a group."""
    groups: dict[SourceGroup, list[Mapping[str, Any]]] = {}
    for r in rows:
        groups.setdefault(source_group(r["source"]), []).append(r)
    return sorted(groups.items(), key=lambda item: item[0].sort_key)


def verdict_tally(rows: Iterable[Mapping[str, Any]]) -> str:
    """``"3 erratum confirmed, 7 verified"``."""
    counts: dict[str, int] = {}
    for r in rows:
        counts[r["verdict"]] = counts.get(r["verdict"], 0) + 1
    return ", ".join(f"{n} {v.lower().replace('_', ' ')}" for v, n in sorted(counts.items()))


def without_replay_hints(text: str) -> str:
    """Drop Hypothesis' '@reproduce_failure' hint: useful in a terminal, noise in a report
    (the JSON keeps the full text)."""
    return "\n".join(
        line for line in text.splitlines() if not line.startswith("You can reproduce this")
    )


def format_value(v: Any) -> str:
    if isinstance(v, float):
        return f"{v:.4g}"
    return str(v)


def metric_text(name: str, metric: Mapping[str, Any]) -> str:
    """``"max k / (R/gamma)^2 = 0.9375"``."""
    prefix = {"max": "max ", "min": "min "}.get(metric.get("kind"), "")
    return f"{prefix}{name} = {format_value(metric.get('value'))}"


#: The Markdown shows one figure per claim (the first worst-case one), cut to this many
#: characters; every figure is in the HTML and JSON reports.
_CELL_METRIC_CHARS = 60
#: The Markdown shows the first line of a counterexample, cut to this many characters;
#: the whole text is in the HTML and JSON reports.
_COUNTEREXAMPLE_CHARS = 200
#: A problem (FAILED, NOT_REFUTED, ERROR) keeps this much of its detail in the Markdown.
_PROBLEM_DETAIL_CHARS = 1500


def _shorten(text: str, limit: int) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def is_bound(row: Mapping[str, Any]) -> bool:
    return BOUND_TAG in (row.get("tags") or ())


def headroom_text(row: Mapping[str, Any]) -> str:
    """``"×1.07"`` for a bound claim (the factor it could be tightened by without being
    refuted in this run), ``"none recorded"`` for a bound without one, ``""`` otherwise."""
    if not is_bound(row):
        return ""
    value = row.get("evidence", {}).get("headroom")
    if value is None:
        return "none recorded"
    if isinstance(value, str) or value == float("inf"):  # JSON keeps inf as a string
        return "×∞ (nothing observed)"
    return f"×{value:.3g}"


def erratum_kind(row: Mapping[str, Any]) -> ErratumKind | None:
    value = row.get("kind")
    try:
        return ErratumKind(value) if value else None
    except ValueError:
        return None


def kind_label(row: Mapping[str, Any]) -> str:
    kind = erratum_kind(row)
    return kind.description if kind is not None else "kind not recorded"


def is_outright_error(row: Mapping[str, Any]) -> bool:
    """An erratum that is an error of the note (not a missing condition or shorthand)."""
    kind = erratum_kind(row)
    return kind is None or kind.outright


def kind_tally(rows: Iterable[Mapping[str, Any]]) -> str:
    """``"5 wrong constant, 2 missing condition ..."`` over errata rows, by kind order."""
    counts: dict[str, int] = {}
    for r in rows:
        kind = erratum_kind(r)
        key = kind.value if kind is not None else ""
        counts[key] = counts.get(key, 0) + 1
    order = [k.value for k in ErratumKind] + [""]
    return ", ".join(
        f"{counts[k]} {ErratumKind(k).description if k else 'kind not recorded'}"
        for k in order if counts.get(k))


def _evidence_cell(row: Mapping[str, Any]) -> str:
    ev = row.get("evidence", {})
    parts = [f"{ev.get('examples', 0)} ex."]
    # headroom has its own column
    metrics = {k: m for k, m in ev.get("metrics", {}).items()
               if not k.startswith(HEADROOM_PREFIX)}
    if metrics:
        worst = [k for k, m in metrics.items() if m.get("kind") in ("max", "min")]
        name = (worst or list(metrics))[0]
        text = _shorten(metric_text(name, metrics[name]), _CELL_METRIC_CHARS)
        if len(metrics) > 1:
            text += f" (+{len(metrics) - 1})"
        parts.append(text)
    warns = row.get("warnings") or {}
    if warns:
        parts.append(f"{sum(warns.values())} warnings")
    if row.get("reason") and row["verdict"] in ("SKIPPED", "ERROR", "NOT_REFUTED", "FAILED"):
        parts.append(_shorten(row["reason"], _CELL_METRIC_CHARS))
    return "; ".join(parts)


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def _code(text: str) -> str:
    return "`" + text.replace("`", "'") + "`"


def _fenced(text: str, limit: int) -> str:
    text = text.strip()
    if len(text) > limit:
        text = text[:limit] + "\n… (truncated; the whole text is in the HTML and JSON reports)"
    return "```\n" + text.replace("```", "'''") + "\n```"


def first_line(text: str) -> str:
    """The first non-empty line of a counterexample (the assertion's message)."""
    for line in without_replay_hints(text).splitlines():
        if line.strip():
            return line.strip()
    return ""


def render_markdown(doc: Mapping[str, Any], *, html_name: str | None = None) -> str:
    """Render the JSON document as the Markdown verification report: the summary, the
    problems, the errata, then one table row per claim, grouped by source. Statements,
    every figure, notes, whole counterexamples and plots are in the HTML report
    (``html_name``, linked from the top) and the JSON."""
    rows = doc["results"]
    by_id = {r["id"]: r for r in rows}
    out: list[str] = []
    out.append("# mltheory verification report\n")
    meta = f"mltheory {doc['version']} · profile `{doc['profile']}` · seed {doc['seed']}"
    if "duration_s" in doc:
        meta += f" · {doc['duration_s']:.1f} s"
    out.append(meta + "\n")
    out.append(f"**{summary_line(doc['summary'])}**\n")
    if doc.get("interrupted"):
        out.append(f"**Partial report: the run was interrupted; {len(doc.get('not_run', []))} "
                   "selected claims did not run.**\n")
    if html_name:
        out.append(f"Statements, all evidence, whole counterexamples and plots: "
                   f"[{html_name}]({html_name}) (and the JSON report).\n")
    out.append(f"Decision rule: {doc['decision_rule']}\n")

    problems = [r for r in rows if r["verdict"] in PROBLEM_VERDICTS]
    if problems:
        out.append("## Problems\n")
        out.append("Claims whose verdict is a failure of the suite itself (a bug in an "
                   "algorithm or a check, or a check without teeth).\n")
        for r in problems:
            out.append(f"### `{r['id']}` — {r['verdict']}\n")
            out.append(f"{r['statement']} ({r['source']})\n")
            if r.get("reason"):
                out.append(f"{r['reason']}\n")
            detail = r.get("counterexample") or r.get("error")
            if detail:
                out.append(_fenced(without_replay_hints(detail), _PROBLEM_DETAIL_CHARS) + "\n")

    errata = [r for r in rows if r["expect"] == "REFUTED"]
    if errata:
        out.append(f"## Errata in the notes ({len(errata)})\n")
        out.append("Statements the notes make that are false as written: what the note says, "
                   "what is wrong, the counterexample found (its first line) and the "
                   "correction, checked in the same run. By kind: "
                   f"{kind_tally(errata)}.\n")
        outright = [r for r in errata if is_outright_error(r)]
        conditions = [r for r in errata if not is_outright_error(r)]
        if outright:
            out.append(f"### Errors ({len(outright)})\n")
            _markdown_errata(out, outright, by_id)
        if conditions:
            out.append(f"### Missing conditions and shorthand ({len(conditions)})\n")
            out.append("True once a condition the note leaves out, or the reading it "
                       "intends, is supplied; false as printed.\n")
            _markdown_errata(out, conditions, by_id)

    bounds = [r for r in rows if is_bound(r)]
    if bounds:
        out.append(f"## Bounds: headroom ({len(bounds)})\n")
        out.append("How much of each bound this run exercised: the largest factor by which "
                   "the bound could be tightened without being refuted by what the run saw "
                   "(×1 = attained; below 1 = exceeded). Loosest first.\n")
        out.append("| claim | verdict | headroom | source |")
        out.append("|---|---|---|---|")
        for r in sorted(bounds, key=_headroom_sort_key):
            out.append(f"| `{r['id']}` | {r['verdict']} | {headroom_text(r)} | "
                       f"{_cell(r['source'])} |")
        out.append("")

    out.append("## Claims by source\n")
    for group, members in group_by_source(rows):
        title = f" — {group.title}" if group.title else ""
        out.append(f"### {group.heading}{title}\n")
        out.append(f"{len(members)} claims: {verdict_tally(members)}\n")
        out.append("| claim | verdict | method | evidence | headroom | source |")
        out.append("|---|---|---|---|---|---|")
        for r in members:
            out.append(
                f"| `{r['id']}` | {r['verdict']} | {r['method']} | "
                f"{_cell(_evidence_cell(r))} | {headroom_text(r)} | {_cell(r['source'])} |"
            )
        out.append("")
    return "\n".join(out).rstrip() + "\n"


def _headroom_sort_key(row: Mapping[str, Any]) -> tuple[float, str]:
    value = row.get("evidence", {}).get("headroom")
    if value is None:
        return (-float("inf"), row["id"])  # missing first: a problem to see
    number = float("inf") if isinstance(value, str) else float(value)
    return (-number, row["id"])


def _markdown_errata(out: list[str], errata: list[Mapping[str, Any]],
                     by_id: Mapping[str, Mapping[str, Any]]) -> None:
    for r in errata:
        out.append(f"- **`{r['id']}`** ({r['source']}) — {r['verdict']} · "
                   f"*{kind_label(r)}*")
        out.append(f"  - *Says:* {r['statement']}")
        if r.get("explanation"):
            out.append(f"  - *Wrong:* {r['explanation']}")
        fix = by_id.get(r.get("corrected_by") or "")
        if fix is not None:
            out.append(f"  - *Correction:* `{fix['id']}` ({fix['verdict']})")
        elif r.get("corrected_by"):
            out.append(f"  - *Correction:* `{r['corrected_by']}` (not in this run)")
        if r.get("counterexample"):
            line = _shorten(first_line(r["counterexample"]), _COUNTEREXAMPLE_CHARS)
            out.append(f"  - *Counterexample:* {_code(line)}")
    out.append("")


def relative_link(path: str | Path | None, start: str | Path) -> str | None:
    """``path`` as a relative link from a file next to ``start``."""
    return os.path.relpath(path, Path(start).parent) if path else None


def write_reports(
    doc: Mapping[str, Any],
    *,
    markdown: str | Path | None,
    json_path: str | Path | None,
    html: str | Path | None = None,
) -> None:
    """Write the Markdown, JSON and HTML reports (each optional), each atomically
    (temporary file, rename); the Markdown and the HTML link to each other."""
    if markdown:
        atomic_write_text(markdown, render_markdown(doc, html_name=relative_link(html, markdown)))
    if json_path:
        atomic_write_text(json_path, dumps(doc))
    if html:
        from mltheory.html import render_html  # jinja2 and matplotlib load only when needed

        atomic_write_text(html, render_html(doc, markdown_name=relative_link(markdown, html),
                                            json_name=relative_link(json_path, html)))


def dumps(doc: Mapping[str, Any]) -> str:
    """The JSON text of a report document (stable key order)."""
    return json.dumps(doc, indent=2, sort_keys=True, ensure_ascii=False) + "\n"
