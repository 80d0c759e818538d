"""Seed sweeps: every selected claim under several seeds.

A verdict must not depend on the seed: for a claim that holds, another seed only
explores other examples; for a declared erratum, the counterexample must be found
whatever the seed. :func:`run_sweep` checks each claim under each seed (serially, in
worker processes or on a dask cluster, as :func:`mltheory.runner.run_tasks` does) and
:func:`build_sweep_document` reports, per claim, the verdict under each seed, whether
it ever changed (a *flip*, listed as a problem), and the worst value of each worst-case
figure the check records (:func:`mltheory.evidence.worst`, e.g. a tightness ratio)
over all seeds, with the seed that produced it.
"""

from __future__ import annotations

import math
import re
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from mltheory.claims import Claim
from mltheory.results import Result, Verdict
from mltheory.runner import ProgressCallback, run_tasks

__all__ = [
    "SweepReport",
    "build_sweep_document",
    "parse_seeds",
    "render_sweep_markdown",
    "run_sweep",
    "sweep_ok",
    "sweep_summary_line",
]

SWEEP_SCHEMA_VERSION = 1
_SEED_PART = re.compile(r"^\s*(\d+)\s*(?:-\s*(\d+)\s*)?$")
#: Longest counterexample or error kept per problem in the sweep report.
_DETAIL_LIMIT = 2000


def parse_seeds(text: str) -> list[int]:
    """``"1-20"``, ``"3,7,11"`` or a mix such as ``"1-5,9"`` as a list of seeds (in the
    order given, without repeats).

    Raises
    ------
    ValueError
        For anything else, an empty list or a range running backwards.
    """
    seeds: list[int] = []
    for part in text.split(","):
        m = _SEED_PART.match(part)
        if not m:
            raise ValueError(f"seeds must look like '1-20' or '1,2,5', got {text!r}")
        lo = int(m.group(1))
        hi = int(m.group(2)) if m.group(2) is not None else lo
        if hi < lo:
            raise ValueError(f"seed range {part.strip()!r} runs backwards")
        seeds.extend(s for s in range(lo, hi + 1) if s not in seeds)
    return seeds


@dataclass
class SweepReport:
    """The results of a sweep: ``results[claim id][seed]``."""

    claims: list[Claim]
    seeds: list[int]
    profile: str
    results: dict[str, dict[int, Result]] = field(default_factory=dict)
    duration_s: float = 0.0
    interrupted: bool = False

    @property
    def complete(self) -> bool:
        return not self.interrupted and all(
            len(self.results.get(c.id, {})) == len(self.seeds) for c in self.claims
        )


def run_sweep(
    claims: Sequence[Claim],
    seeds: Sequence[int],
    *,
    profile: str = "quick",
    progress: ProgressCallback | None = None,
    jobs: int = 1,
    scheduler: Any = None,
    setup: Any = None,
) -> SweepReport:
    """Check every claim under every seed (claim by claim, seeds in the order given).
    Ctrl-C stops the sweep and keeps what has finished (``interrupted``)."""
    if not seeds:
        raise ValueError("a sweep needs at least one seed")
    ordered = sorted(claims, key=lambda c: c.id)
    tasks = [(c, s) for c in ordered for s in seeds]
    start = time.perf_counter()
    done, interrupted = run_tasks(tasks, profile=profile, progress=progress, jobs=jobs,
                                  scheduler=scheduler, setup=setup)
    report = SweepReport(claims=ordered, seeds=list(seeds), profile=profile,
                         duration_s=time.perf_counter() - start, interrupted=interrupted)
    for c, s, r in done:
        report.results.setdefault(c.id, {})[s] = r
    return report


def _is_worse(value: float, than: float, kind: str) -> bool:
    if math.isnan(value):
        return not math.isnan(than)
    if math.isnan(than):
        return False
    return value > than if kind == "max" else value < than


def _worst_figures(by_seed: Mapping[int, Result]) -> dict[str, dict[str, Any]]:
    worst: dict[str, dict[str, Any]] = {}
    for seed, r in by_seed.items():
        for name, m in r.evidence.metrics.items():
            if m.kind not in ("max", "min") or isinstance(m.value, bool):
                continue
            try:
                value = float(m.value)
            except (TypeError, ValueError):
                continue
            best = worst.get(name)
            if best is None or _is_worse(value, best["value"], m.kind):
                worst[name] = {"value": value, "kind": m.kind, "seed": seed,
                               "description": m.description}
    for w in worst.values():
        if not math.isfinite(w["value"]):
            w["value"] = repr(w["value"])
    return dict(sorted(worst.items()))


def _claim_row(c: Claim, seeds: Sequence[int], by_seed: Mapping[int, Result]) -> dict[str, Any]:
    verdicts = {str(s): by_seed[s].verdict.value for s in seeds if s in by_seed}
    counts: dict[str, int] = {}
    for v in verdicts.values():
        counts[v] = counts.get(v, 0) + 1
    failing = [s for s in seeds if s in by_seed and not by_seed[s].passed]
    row: dict[str, Any] = {
        "id": c.id,
        "source": c.source,
        "method": c.method.value,
        "expect": c.expect.value,
        "verdicts": verdicts,
        "verdict_counts": dict(sorted(counts.items())),
        "flipped": len(counts) > 1,
        "failing_seeds": failing,
        "worst": _worst_figures(by_seed),
    }
    if failing:
        first = by_seed[failing[0]]
        detail = first.counterexample or first.error or ""
        row["first_failure"] = {"seed": failing[0], "verdict": first.verdict.value,
                                "reason": first.reason, "detail": detail[:_DETAIL_LIMIT]}
    return row


def build_sweep_document(sweep: SweepReport, *, version: str,
                         timings: bool = True) -> dict[str, Any]:
    """The JSON document of a sweep (``"kind": "sweep"``; stable keys)."""
    rows = [_claim_row(c, sweep.seeds, sweep.results.get(c.id, {})) for c in sweep.claims]
    per_seed = {}
    for s in sweep.seeds:
        counts = {v.value: 0 for v in Verdict}
        ran = 0
        for c in sweep.claims:
            r = sweep.results.get(c.id, {}).get(s)
            if r is not None:
                counts[r.verdict.value] += 1
                ran += 1
        counts["run"] = ran
        per_seed[str(s)] = counts
    doc: dict[str, Any] = {
        "schema": SWEEP_SCHEMA_VERSION,
        "kind": "sweep",
        "tool": "mltheory",
        "version": version,
        "profile": sweep.profile,
        "seeds": list(sweep.seeds),
        "summary": {
            "claims": len(rows),
            "seeds": len(sweep.seeds),
            "runs": sum(len(v) for v in sweep.results.values()),
            "flipped": sum(r["flipped"] for r in rows),
            "failing": sum(bool(r["failing_seeds"]) for r in rows),
        },
        "per_seed": per_seed,
        "claims": rows,
    }
    if not sweep.complete:
        doc["interrupted"] = True
    if timings:
        doc["duration_s"] = round(sweep.duration_s, 2)
    return doc


def sweep_ok(doc: Mapping[str, Any]) -> bool:
    """No flip, no failing verdict under any seed, and the sweep ran to the end."""
    s = doc["summary"]
    return not s["flipped"] and not s["failing"] and not doc.get("interrupted")


def sweep_summary_line(doc: Mapping[str, Any]) -> str:
    s = doc["summary"]
    return (f"{s['claims']} claims × {s['seeds']} seeds ({s['runs']} runs): "
            f"{s['flipped']} flipped, {s['failing']} failing under some seed")


def _fmt(value: Any) -> str:
    return f"{value:.4g}" if isinstance(value, float) else str(value)


def _verdict_cell(row: Mapping[str, Any]) -> str:
    parts = []
    for verdict, n in row["verdict_counts"].items():
        seeds = sorted((s for s, v in row["verdicts"].items() if v == verdict), key=int)
        where = f" (seeds {', '.join(seeds)})" if row["flipped"] and len(seeds) <= 5 else ""
        parts.append(f"{verdict} ×{n}{where}")
    return ", ".join(parts) or "not run"


def _worst_cell(row: Mapping[str, Any]) -> str:
    return "; ".join(f"{w['kind']} {name} = {_fmt(w['value'])} (seed {w['seed']})"
                     for name, w in row["worst"].items())


def render_sweep_markdown(doc: Mapping[str, Any]) -> str:
    """The Markdown report of a sweep: summary, problems (flips and failures), and one
    row per claim with its verdicts and worst figures over all seeds."""
    seeds = doc["seeds"]
    out = ["# mltheory seed sweep\n"]
    meta = (f"mltheory {doc['version']} · profile `{doc['profile']}` · seeds "
            f"{', '.join(map(str, seeds))}")
    if "duration_s" in doc:
        meta += f" · {doc['duration_s']:.1f} s"
    out.append(meta + "\n")
    out.append(f"**{sweep_summary_line(doc)}**\n")
    if doc.get("interrupted"):
        out.append("**Partial report: the sweep was interrupted before every claim ran "
                   "under every seed.**\n")
    verdicts = [v.value for v in Verdict]
    out.append("| seed | run | " + " | ".join(v.lower().replace("_", " ") for v in verdicts)
               + " |")
    out.append("|---" * (len(verdicts) + 2) + "|")
    for s in seeds:
        counts = doc["per_seed"][str(s)]
        out.append(f"| {s} | {counts['run']} | "
                   + " | ".join(str(counts.get(v, 0)) for v in verdicts) + " |")
    out.append("")
    problems = [r for r in doc["claims"] if r["flipped"] or r["failing_seeds"]]
    if problems:
        out.append("## Problems\n")
        out.append("A verdict that changes with the seed is a problem: either the claim "
                   "is false and only some seeds find the counterexample, or an erratum's "
                   "check finds its counterexample only by luck.\n")
        for r in problems:
            what = "verdict flipped" if r["flipped"] else "failing"
            out.append(f"### `{r['id']}` — {what}\n")
            out.append(f"{r['source']} · expected {r['expect']} · {_verdict_cell(r)}\n")
            first = r.get("first_failure")
            if first:
                out.append(f"Seed {first['seed']}: {first['verdict']} — {first['reason']}\n")
                if first.get("detail"):
                    out.append("```\n" + first["detail"].replace("```", "'''") + "\n```\n")
    out.append("## Claims\n")
    out.append("| claim | verdicts | worst over all seeds |")
    out.append("|---|---|---|")
    for r in doc["claims"]:
        out.append(f"| `{r['id']}` | {_verdict_cell(r)} | "
                   f"{_worst_cell(r).replace('|', chr(92) + '|')} |")
    return "\n".join(out).rstrip() + "\n"

