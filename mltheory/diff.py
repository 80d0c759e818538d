"""Run-to-run diffs of two JSON reports (``mltheory diff OLD.json NEW.json``).

For someone editing an algorithm or a note: which claims were added or removed,
which verdicts changed, and which recorded figures moved by more than a stated
relative amount (e.g. the worst tightness ratio ``mistakes / (R/gamma)^2``, a
reference-solver gap). A *regression* is

- a claim that passed (VERIFIED, ERRATUM_CONFIRMED, SKIPPED) and no longer does;
- a new claim that does not pass;
- a worst-case figure (recorded with :func:`mltheory.evidence.worst`) that moved in
  its worse direction by more than the threshold, when both reports come from the
  same seed and profile (under another seed, figures move by design and are only
  listed).
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mltheory.results import PASSING

__all__ = ["DEFAULT_THRESHOLD", "DiffError", "ReportDiff", "diff_reports", "load_report",
           "render_diff"]

#: Relative change of a figure above which it is reported as moved (10 %).
DEFAULT_THRESHOLD = 0.1
_PASSING = {v.value for v in PASSING}


class DiffError(ValueError):
    """A report that cannot be read or is not an ``mltheory verify`` JSON report."""


@dataclass(frozen=True)
class VerdictChange:
    id: str
    old: str
    new: str

    @property
    def regression(self) -> bool:
        return self.old in _PASSING and self.new not in _PASSING


@dataclass(frozen=True)
class Move:
    """A numeric figure of one claim's evidence that moved by more than the threshold."""

    id: str
    metric: str
    kind: str  # "max", "min" or "value"
    old: float
    new: float

    @property
    def change(self) -> float:
        """Relative change (new - old) / |old|; infinite when old is 0."""
        if self.old == 0:
            return math.copysign(math.inf, self.new - self.old)
        return (self.new - self.old) / abs(self.old)

    @property
    def worse(self) -> bool:
        return (self.kind == "max" and self.new > self.old) or (
            self.kind == "min" and self.new < self.old
        )


@dataclass
class ReportDiff:
    threshold: float
    comparable: bool  # same seed and profile: figures are expected not to move
    added: list[tuple[str, str]] = field(default_factory=list)  # (id, verdict)
    removed: list[tuple[str, str]] = field(default_factory=list)
    not_run: list[str] = field(default_factory=list)  # in OLD, not reached by a partial NEW
    changes: list[VerdictChange] = field(default_factory=list)
    moves: list[Move] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    @property
    def regressions(self) -> list[str]:
        out = [f"{c.id}: {c.old} -> {c.new}" for c in self.changes if c.regression]
        out += [f"{i}: new claim {v}" for i, v in self.added if v not in _PASSING]
        if self.comparable:
            out += [f"{m.id}: {m.kind} {m.metric} {_fmt(m.old)} -> {_fmt(m.new)}"
                    for m in self.moves if m.worse]
        return out


def load_report(path: str | Path) -> dict[str, Any]:
    """Read a ``mltheory verify`` JSON report.

    Raises
    ------
    DiffError
        One line naming the file and the problem.
    """
    try:
        doc = json.loads(Path(path).read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise DiffError(f"{path}: no such file") from None
    except IsADirectoryError:
        raise DiffError(f"{path}: is a directory") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise DiffError(f"{path}: cannot read it: {exc}") from None
    except json.JSONDecodeError as exc:
        raise DiffError(f"{path}: not JSON ({exc.msg}, line {exc.lineno})") from None
    if not isinstance(doc, dict) or doc.get("tool") != "mltheory":
        raise DiffError(f"{path}: not an mltheory JSON report")
    if doc.get("kind") == "sweep":
        raise DiffError(f"{path}: a seed-sweep report; diff compares `mltheory verify` reports")
    if not isinstance(doc.get("results"), list):
        raise DiffError(f"{path}: no 'results' list")
    return doc


def _number(value: Any) -> float | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int | float):
        return float(value)
    if value in ("nan", "inf", "-inf"):
        return float(value)
    return None


def _moved(old: float, new: float, threshold: float) -> bool:
    if math.isnan(old) or math.isnan(new):
        return math.isnan(old) != math.isnan(new)
    if old == new:
        return False
    if old == 0 or math.isinf(old):
        return True
    return abs(new - old) > threshold * abs(old)


def diff_reports(old: Mapping[str, Any], new: Mapping[str, Any], *,
                 threshold: float = DEFAULT_THRESHOLD) -> ReportDiff:
    """Compare two report documents (OLD first)."""
    if not threshold >= 0:
        raise ValueError(f"threshold must be a non-negative number, got {threshold!r}")
    before = {r["id"]: r for r in old["results"]}
    after = {r["id"]: r for r in new["results"]}
    comparable = (old.get("seed"), old.get("profile")) == (new.get("seed"), new.get("profile"))
    d = ReportDiff(threshold=threshold, comparable=comparable)
    if not comparable:
        d.notes.append(
            f"the reports differ in seed/profile ({old.get('seed')}/{old.get('profile')} vs "
            f"{new.get('seed')}/{new.get('profile')}): moved figures are listed, not counted "
            "as regressions"
        )
    skipped = set(new.get("not_run") or ())
    if new.get("interrupted"):
        d.notes.append("NEW is a partial report (interrupted run)")
    d.added = [(i, after[i]["verdict"]) for i in sorted(after.keys() - before.keys())]
    for i in sorted(before.keys() - after.keys()):
        if i in skipped:
            d.not_run.append(i)
        else:
            d.removed.append((i, before[i]["verdict"]))
    for i in sorted(before.keys() & after.keys()):
        a, b = before[i], after[i]
        if a["verdict"] != b["verdict"]:
            d.changes.append(VerdictChange(i, a["verdict"], b["verdict"]))
        ma = (a.get("evidence") or {}).get("metrics") or {}
        mb = (b.get("evidence") or {}).get("metrics") or {}
        for name in sorted(ma.keys() & mb.keys()):
            x, y = _number(ma[name].get("value")), _number(mb[name].get("value"))
            if x is None or y is None or not _moved(x, y, threshold):
                continue
            d.moves.append(Move(i, name, mb[name].get("kind", "value"), x, y))
    return d


def _fmt(v: float) -> str:
    return f"{v:.4g}"


def _pct(change: float) -> str:
    return f"{change:+.0%}" if math.isfinite(change) else "from 0"


def render_diff(d: ReportDiff, old_name: str = "OLD", new_name: str = "NEW") -> str:
    """The diff as text for a terminal; the last line counts the regressions."""
    lines = [f"mltheory diff {old_name} -> {new_name}: {len(d.added)} added, "
             f"{len(d.removed)} removed, {len(d.changes)} verdict changes, {len(d.moves)} "
             f"figures moved by more than {d.threshold:.0%}"]
    lines += [f"note: {n}" for n in d.notes]
    if d.added:
        lines.append("added:")
        lines += [f"  + {i} ({v})" for i, v in d.added]
    if d.removed:
        lines.append("removed:")
        lines += [f"  - {i} (was {v})" for i, v in d.removed]
    if d.not_run:
        lines.append(f"not run in {new_name} (interrupted): {len(d.not_run)} claims")
    if d.changes:
        lines.append("verdict changes:")
        lines += [f"  {'!' if c.regression else ' '} {c.id}: {c.old} -> {c.new}"
                  + ("  (regression)" if c.regression else "") for c in d.changes]
    if d.moves:
        lines.append(f"figures moved by more than {d.threshold:.0%}:")
        for m in d.moves:
            flag = "!" if m.worse and d.comparable else " "
            direction = " (worse)" if m.worse else (" (better)" if m.kind != "value" else "")
            lines.append(f"  {flag} {m.id}: {m.kind} {m.metric}: {_fmt(m.old)} -> "
                         f"{_fmt(m.new)} ({_pct(m.change)}){direction}")
    regressions = d.regressions
    lines.append(f"{len(regressions)} regressions" if regressions else "no regressions")
    return "\n".join(lines)

