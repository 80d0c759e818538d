"""Verification reports: JSON (canonical, stable keys) and Markdown rendered from it.

The Markdown report is always rendered from the JSON document, so the CLI and
the pytest plugin (which only sees results as JSON strings passed back from
test items, possibly from other processes) produce the same report.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from mltheory._output import atomic_write_text
from mltheory.results import Result, Verdict
from mltheory.stats import DEFAULT_CONFIDENCE

__all__ = [
    "NOTE_TITLES",
    "build_document",
    "render_markdown",
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


def chapter_key(source: str) -> tuple[str, str]:
    """``("003", "4")`` for ``"003 §4.2 (4.9)"``; the chapter is the first section number."""
    first = source.split(";")[0].strip()
    m = _CHAPTER.match(first)
    if not m:
        return (first[:3], "")
    return (m.group(1), m.group(2) or "")


def _chapter_sort(key: tuple[str, str]) -> tuple[str, int, str]:
    prefix, chap = key
    number = int(chap) if chap.isdigit() else _CHINESE_NUMERALS.get(chap, 0)
    return (prefix, number, chap)


def _without_replay_hints(text: str) -> str:
    """Drop Hypothesis' '@reproduce_failure' hint: useful in a terminal, noise in a report
    (the JSON keeps the full text)."""
    return "\n".join(
        line for line in text.splitlines() if not line.startswith("You can reproduce this")
    )


def _fmt_value(v: Any) -> str:
    if isinstance(v, float):
        return f"{v:.4g}"
    return str(v)


def _evidence_cell(row: Mapping[str, Any]) -> str:
    ev = row.get("evidence", {})
    parts = [f"{ev.get('examples', 0)} examples"]
    for name, m in ev.get("metrics", {}).items():
        prefix = {"max": "max ", "min": "min "}.get(m.get("kind"), "")
        parts.append(f"{prefix}{name} = {_fmt_value(m.get('value'))}")
    warns = row.get("warnings") or {}
    if warns:
        parts.append("warnings: " + ", ".join(f"{k}×{n}" for k, n in warns.items()))
    if row.get("reason") and row["verdict"] in ("SKIPPED", "ERROR", "NOT_REFUTED", "FAILED"):
        parts.append(row["reason"])
    return "; ".join(parts)


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def _fenced(text: str, limit: int = 4000) -> str:
    text = text.strip()
    if len(text) > limit:
        text = text[:limit] + "\n… (truncated)"
    return "```\n" + text.replace("```", "'''") + "\n```"


def render_markdown(doc: Mapping[str, Any]) -> str:
    """Render the JSON document as the Markdown verification report."""
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
    out.append(f"Decision rule: {doc['decision_rule']}\n")

    problems = [r for r in rows if r["verdict"] in ("FAILED", "NOT_REFUTED", "ERROR")]
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
                out.append(_fenced(_without_replay_hints(detail)) + "\n")

    errata = [r for r in rows if r["expect"] == "REFUTED"]
    if errata:
        out.append("## Errata in the notes\n")
        out.append("Statements the notes make that are false as written. Each shows the "
                   "counterexample the check found and the corrected statement, checked in "
                   "the same run.\n")
        for r in errata:
            out.append(f"### `{r['id']}` ({r['source']}) — {r['verdict']}\n")
            out.append(f"- **The note says:** {r['statement']}")
            if r.get("explanation"):
                out.append(f"- **What is wrong:** {r['explanation']}")
            fix = by_id.get(r.get("corrected_by") or "")
            if fix is not None:
                out.append(f"- **Correction** (`{fix['id']}`, {fix['verdict']}): "
                           f"{fix['statement']}")
            elif r.get("corrected_by"):
                out.append(f"- **Correction:** `{r['corrected_by']}` (not in this run)")
            out.append("")
            if r.get("counterexample"):
                out.append("Counterexample:\n")
                out.append(_fenced(_without_replay_hints(r["counterexample"])) + "\n")

    chapters: dict[tuple[str, str], list[Mapping[str, Any]]] = {}
    for r in rows:
        chapters.setdefault(chapter_key(r["source"]), []).append(r)
    out.append("## Claims by chapter\n")
    for key in sorted(chapters, key=_chapter_sort):
        prefix, chap = key
        section = SECTION_TITLES.get(key)
        if section:
            title = f"{section} ({NOTE_SHORT_NAMES.get(prefix, prefix)})"
        else:
            title = NOTE_TITLES.get(prefix, "notes")
        heading = f"{prefix} §{chap}" if chap else prefix
        members = chapters[key]
        counts: dict[str, int] = {}
        for r in members:
            counts[r["verdict"]] = counts.get(r["verdict"], 0) + 1
        tally = ", ".join(f"{n} {v.lower().replace('_', ' ')}" for v, n in sorted(counts.items()))
        out.append(f"### {heading} — {title}\n")
        out.append(f"{len(members)} claims: {tally}\n")
        out.append("| claim | verdict | method | evidence | source |")
        out.append("|---|---|---|---|---|")
        for r in members:
            out.append(
                f"| `{r['id']}` | {r['verdict']} | {r['method']} | "
                f"{_cell(_evidence_cell(r))} | {_cell(r['source'])} |"
            )
        out.append("")
        out.append("<details><summary>Statements and notes</summary>\n")
        for r in members:
            line = f"- `{r['id']}`: {r['statement']}"
            notes = r.get("evidence", {}).get("notes") or []
            if notes:
                line += " — " + " · ".join(notes)
            out.append(line)
        out.append("\n</details>\n")
    return "\n".join(out).rstrip() + "\n"


def write_reports(
    doc: Mapping[str, Any], *, markdown: str | Path | None, json_path: str | Path | None
) -> None:
    """Write the Markdown and JSON reports, each atomically (temporary file, rename)."""
    if markdown:
        atomic_write_text(markdown, render_markdown(doc))
    if json_path:
        atomic_write_text(json_path, dumps(doc))


def dumps(doc: Mapping[str, Any]) -> str:
    """The JSON text of a report document (stable key order)."""
    return json.dumps(doc, indent=2, sort_keys=True, ensure_ascii=False) + "\n"
