"""The one benchmark runner: ``python -m benchmarks [--quick] [--only GLOB ...]``.

Every ``benchmarks/bench_<family>.py`` exposes ``cases(quick) -> list[BenchCase]``
(:mod:`benchmarks._harness`). For each case the runner

1. runs ``setup()`` once, untimed (data, warm-up such as a numba compilation);
2. times ``ours(data)`` and ``reference(data)`` interleaved, ``repeats`` times each, the
   order alternating per round (ours-reference, reference-ours, ...), so both sides see
   the same load on a shared machine; the side's previous result is released and a
   garbage collection run before every timed call;
3. reports the medians, the ratio ours/reference and ``objective_gap(ours_result,
   reference_result)`` of the last round;

with every BLAS/OpenMP pool limited to one thread on both sides (threadpoolctl, plus the
usual environment variables set by ``python -m benchmarks`` before numpy loads). It
writes one JSON and one Markdown table (with the machine: CPU model, cores, library
versions, date). A case that raises is reported with its error and the run goes on.

A bench module stays runnable alone (``python benchmarks/bench_<family>.py [--quick]``):
its ``main`` calls :func:`run_standalone`, which prints the same table.
"""

from __future__ import annotations

import argparse
import fnmatch
import gc
import importlib
import importlib.metadata
import json
import math
import os
import platform
import statistics
import subprocess
import sys
import time
import traceback
import warnings
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict, dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from benchmarks._harness import BenchCase

__all__ = [
    "CaseResult",
    "discover",
    "machine_info",
    "main",
    "render_markdown",
    "run_case",
    "run_cases",
    "run_standalone",
]

BENCH_DIR = Path(__file__).resolve().parent
RESULTS_DIR = BENCH_DIR / "results"
#: Environment variables that cap the thread pools of libraries loaded later.
THREAD_VARIABLES = ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS",
                    "BLIS_NUM_THREADS", "VECLIB_MAXIMUM_THREADS", "NUMBA_NUM_THREADS")


def pin_thread_environment() -> None:
    """One thread for every pool a library creates when it loads (call before numpy)."""
    for name in THREAD_VARIABLES:
        os.environ[name] = "1"


@dataclass
class CaseResult:
    """One row of the table (times in seconds; NaN where a side was not timed)."""

    family: str
    name: str
    n: int
    params: dict
    reference_name: str
    ours_s: float = math.nan
    reference_s: float = math.nan
    ratio: float = math.nan
    objective_gap: float | None = None
    repeats: int = 0
    ours_times: list[float] = field(default_factory=list)
    reference_times: list[float] = field(default_factory=list)
    setup_s: float = math.nan
    error: str | None = None


# ----------------------------------------------------------------------------- discovery

def _family_of(module_name: str) -> str:
    return module_name.rsplit(".", 1)[-1].removeprefix("bench_")


def _split_glob(pattern: str) -> tuple[str, str]:
    """``"svm/*rbf*"`` -> ``("svm", "*rbf*")``; ``"svm"`` -> ``("svm", "*")``."""
    family, _, case = pattern.partition("/")
    return family or "*", case or "*"


def discover(only: Sequence[str] = (), bench_dir: Path = BENCH_DIR,
             package: str = "benchmarks") -> list[tuple[str, str]]:
    """``(family, module name)`` of every ``bench_*.py`` whose family a glob of ``only``
    matches (all without ``only``), sorted by family."""
    found = []
    for path in sorted(bench_dir.glob("bench_*.py")):
        family = _family_of(path.stem)
        if not only or any(fnmatch.fnmatch(family, _split_glob(g)[0]) for g in only):
            found.append((family, f"{package}.{path.stem}"))
    return found


def selected(family: str, case: BenchCase, only: Sequence[str]) -> bool:
    """Whether ``family/case.name`` matches one of the ``only`` globs (all without)."""
    if not only:
        return True
    return any(fnmatch.fnmatch(family, f) and fnmatch.fnmatch(case.name, c)
               for f, c in map(_split_glob, only))


# ----------------------------------------------------------------------------- timing

def _thread_limits():
    """One thread for every BLAS/OpenMP pool loaded so far (a fresh scan each call)."""
    from threadpoolctl import threadpool_limits

    return threadpool_limits(limits=1)


def _numba_one_thread() -> None:
    if "numba" in sys.modules:
        try:
            sys.modules["numba"].set_num_threads(1)
        except (ValueError, AttributeError):  # NUMBA_NUM_THREADS fixed lower already
            pass


#: Run before every timed call (tests replace it: they time nothing).
collect_garbage: Callable[[], Any] = gc.collect


def _timed(call: Callable[[Any], Any], data: Any) -> tuple[float, Any]:
    collect_garbage()
    start = time.perf_counter()
    out = call(data)
    return time.perf_counter() - start, out


def _median(values: list[float]) -> float:
    return statistics.median(values) if values else math.nan


def run_case(family: str, case: BenchCase, repeats: int | None = None) -> CaseResult:
    """Set up (untimed), time ``ours``/``reference`` interleaved, and compare."""
    rounds = max(1, int(case.repeats if repeats is None else repeats))
    result = CaseResult(family, case.name, int(case.n), dict(case.params),
                        case.reference_name, repeats=rounds)
    try:
        with _thread_limits(), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            _numba_one_thread()
            start = time.perf_counter()
            data = case.setup()
            result.setup_s = time.perf_counter() - start
            out_ours = out_ref = None
            for r in range(rounds):
                sides = ("ours", "reference") if r % 2 == 0 else ("reference", "ours")
                for side in sides:
                    # the previous result of this side is released before the call, so
                    # every call starts from the same memory state
                    if side == "ours":
                        out_ours = None
                        t, out_ours = _timed(case.ours, data)
                        result.ours_times.append(t)
                    elif case.reference is not None:
                        out_ref = None
                        t, out_ref = _timed(case.reference, data)
                        result.reference_times.append(t)
            if case.objective_gap is not None and case.reference is not None:
                result.objective_gap = float(case.objective_gap(out_ours, out_ref))
    except Exception as exc:  # noqa: BLE001 - a failing case is reported, the run goes on
        result.error = f"{type(exc).__name__}: {exc}"
        traceback.print_exc(file=sys.stderr)
    result.ours_s = _median(result.ours_times)
    result.reference_s = _median(result.reference_times)
    if result.reference_s > 0:
        result.ratio = result.ours_s / result.reference_s
    return result


def run_cases(
    families: Iterable[tuple[str, Callable[[bool], list[BenchCase]]]],
    *,
    quick: bool,
    only: Sequence[str] = (),
    repeats: int | None = None,
    progress: Callable[[CaseResult], None] | None = None,
) -> list[CaseResult]:
    """Run the selected cases of each ``(family, cases)``; a ``cases`` that raises gives
    one error row for its family."""
    results = []
    for family, make_cases in families:
        try:
            cases = make_cases(quick)
        except Exception as exc:  # noqa: BLE001
            traceback.print_exc(file=sys.stderr)
            row = CaseResult(family, "(cases)", 0, {}, "", error=f"{type(exc).__name__}: {exc}")
            results.append(row)
            if progress:
                progress(row)
            continue
        for case in cases:
            if selected(family, case, only):
                row = run_case(family, case, repeats)
                results.append(row)
                if progress:
                    progress(row)
    return results


# ----------------------------------------------------------------------------- reporting

def _cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.lower().startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


#: Libraries listed with the machine: module name -> distribution name.
LIBRARIES = {"numpy": "numpy", "scipy": "scipy", "sklearn": "scikit-learn", "numba": "numba"}


def _version(module: str) -> str | None:
    """The installed version, read from the package metadata (nothing is imported)."""
    try:
        return importlib.metadata.version(LIBRARIES.get(module, module))
    except importlib.metadata.PackageNotFoundError:  # not installed: not listed
        return None


def _git_commit() -> str | None:
    try:
        out = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=BENCH_DIR,
                             capture_output=True, text=True, timeout=5, check=True)
        return out.stdout.strip() or None
    except (OSError, subprocess.SubprocessError):
        return None


def machine_info() -> dict:
    """CPU model, cores, load, library versions, date (UTC) and commit of this run."""
    try:
        usable = len(os.sched_getaffinity(0))
    except AttributeError:
        usable = os.cpu_count()
    try:
        load = [round(x, 2) for x in os.getloadavg()]
    except OSError:
        load = None
    versions = {m: _version(m) for m in LIBRARIES}
    return {
        "cpu": _cpu_model(),
        "cores": os.cpu_count(),
        "usable_cores": usable,
        "load_average": load,
        "threads_per_side": 1,
        "python": platform.python_version(),
        "platform": platform.platform(),
        **{k: v for k, v in versions.items() if v},
        "date": datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
        "commit": _git_commit(),
    }


def _fmt_time(t: float) -> str:
    if not math.isfinite(t):
        return "–"
    return f"{t:.3g}" if t < 1 else f"{t:.2f}"


def _fmt_gap(gap: float | None) -> str:
    if gap is None:
        return "–"
    return f"{gap:.1e}" if gap and math.isfinite(gap) else f"{gap:g}"


def _fmt_value(value: Any) -> str:
    """A param as text; a callable by its name (no memory address in a table)."""
    if callable(value):
        return f"{getattr(value, '__name__', type(value).__name__)}()"
    return str(value)


def _fmt_params(params: dict) -> str:
    return ", ".join(f"{k}={_fmt_value(v)}" for k, v in params.items())


def _cell(text: str) -> str:
    """Text safe inside a Markdown table cell."""
    return str(text).replace("|", "\\|").replace("\n", " ")


def render_markdown(results: Sequence[CaseResult], machine: dict, *, quick: bool) -> str:
    """The Markdown table, with the machine and the protocol stated above it."""
    libs = ", ".join(f"{k} {machine[k]}" for k in ("numpy", "scipy", "sklearn", "numba")
                     if machine.get(k))
    lines = [
        f"# Benchmarks ({'quick' if quick else 'full'} size set)",
        "",
        f"{machine['date']}, commit {machine.get('commit') or '?'}; {machine['cpu']}, "
        f"{machine['cores']} cores (load {machine.get('load_average')}); "
        f"Python {machine['python']}, {libs}.",
        "One thread on each side; setup untimed; ours and the reference interleaved; "
        "times are medians of the repeats (s); ratio = ours / reference.",
        "",
        "| family | case | n | params | ours s | reference s | ratio | objective gap "
        "| reference | repeats |",
        "|---|---|---:|---|---:|---:|---:|---:|---|---:|",
    ]
    for r in results:
        ratio = f"{r.ratio:.2f}" if math.isfinite(r.ratio) else "–"
        name = r.name if r.error is None else f"{r.name} **error: {r.error}**"
        lines.append(
            f"| {r.family} | {_cell(name)} | {r.n} | {_cell(_fmt_params(r.params))} | "
            f"{_fmt_time(r.ours_s)} | {_fmt_time(r.reference_s)} | {ratio} | "
            f"{_fmt_gap(r.objective_gap)} | {_cell(r.reference_name)} | {r.repeats} |"
        )
    return "\n".join(lines) + "\n"


def _jsonable(value: Any) -> Any:
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_jsonable(v) for v in value]
    if isinstance(value, (str, int, bool)) or value is None:
        return value
    if hasattr(value, "item"):  # numpy scalars
        return _jsonable(value.item())
    if isinstance(value, float):
        return value
    return _fmt_value(value)


def build_document(results: Sequence[CaseResult], machine: dict, *, quick: bool,
                   only: Sequence[str] = ()) -> dict:
    return _jsonable({"profile": "quick" if quick else "full", "only": list(only),
                      "machine": machine, "results": [asdict(r) for r in results]})


def _progress_line(r: CaseResult) -> None:
    ratio = f"{r.ratio:6.2f}" if math.isfinite(r.ratio) else "     –"
    status = f"  ERROR {r.error}" if r.error else ""
    print(f"  {r.family:12s} {r.name[:48]:48s} n={r.n:<8d} ours {_fmt_time(r.ours_s):>7s} "
          f"ref {_fmt_time(r.reference_s):>7s} ratio {ratio}{status}", file=sys.stderr,
          flush=True)


def _default_stem(quick: bool, only: Sequence[str]) -> str:
    stem = "quick" if quick else "full"
    if only:
        tag = "_".join(only)
        stem += "-" + "".join(c if c.isalnum() or c in "-_" else "_" for c in tag)[:60]
    return stem


# ----------------------------------------------------------------------------- entry points

def _parser(description: str) -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(description=description)
    p.add_argument("--quick", action="store_true",
                   help="the small size set (the whole run takes a few minutes)")
    p.add_argument("--only", action="append", default=[], metavar="GLOB",
                   help="family or family/case-name glob, e.g. 'perceptron' or "
                        "'svm/*rbf*' (repeatable)")
    p.add_argument("--repeats", type=int, default=None,
                   help="timed calls per side (default: each case's own)")
    p.add_argument("--json", type=Path, default=None, help="JSON output path")
    p.add_argument("--markdown", type=Path, default=None, help="Markdown output path")
    p.add_argument("--no-write", action="store_true", help="print the table, write nothing")
    p.add_argument("--list", action="store_true", help="list the selected cases and exit")
    return p


def _write(results, args, machine) -> None:
    md = render_markdown(results, machine, quick=args.quick)
    print(md)
    if args.no_write:
        return
    stem = _default_stem(args.quick, args.only)
    json_path = args.json or RESULTS_DIR / f"{stem}.json"
    md_path = args.markdown or RESULTS_DIR / f"{stem}.md"
    for path in (json_path, md_path):
        path.parent.mkdir(parents=True, exist_ok=True)
    doc = build_document(results, machine, quick=args.quick, only=args.only)
    json_path.write_text(json.dumps(doc, indent=1) + "\n")
    md_path.write_text(md)
    print(f"wrote {json_path} and {md_path}", file=sys.stderr)


def _list(families, args) -> int:
    for family, make_cases in families:
        for case in make_cases(args.quick):
            if selected(family, case, args.only):
                print(f"{family}/{case.name}  n={case.n}  {_fmt_params(case.params)}")
    return 0


def main(argv: Sequence[str] | None = None, *, bench_dir: Path = BENCH_DIR,
         package: str = "benchmarks") -> int:
    """``python -m benchmarks``: every bench module's cases, one table (``bench_dir`` and
    ``package`` say where the modules are; tests point them at a fake package)."""
    args = _parser("Run every benchmarks/bench_*.py against its reference, one table."
                   ).parse_args(argv)
    families = []
    for family, module_name in discover(args.only, bench_dir, package):
        try:
            module = importlib.import_module(module_name)
        except Exception as exc:  # noqa: BLE001 - a broken module is one error row
            traceback.print_exc(file=sys.stderr)
            err = f"{type(exc).__name__}: {exc}"
            families.append((family, lambda quick, err=err: _raise(err)))
            continue
        if not callable(getattr(module, "cases", None)):
            err = f"{module_name} has no cases(quick): not on the runner protocol yet"
            families.append((family, lambda quick, err=err: _raise(err)))
            continue
        families.append((family, module.cases))
    if args.list:
        return _list(families, args)
    machine = machine_info()
    results = run_cases(families, quick=args.quick, only=args.only, repeats=args.repeats,
                        progress=_progress_line)
    _write(results, args, machine)
    return 1 if any(r.error for r in results) else 0


def _raise(message: str):
    raise RuntimeError(message)


def run_standalone(family: str, cases: Callable[[bool], list[BenchCase]],
                   argv: Sequence[str] | None = None, description: str = "") -> int:
    """A bench module run alone: its cases, the same protocol, the table printed
    (written only with ``--json``/``--markdown``)."""
    args = _parser(description or f"Benchmarks of the {family} family").parse_args(argv)
    if args.list:
        return _list([(family, cases)], args)
    args.only = [f"{family}/{g}" if "/" not in g else g for g in args.only]
    machine = machine_info()
    results = run_cases([(family, cases)], quick=args.quick, only=args.only,
                        repeats=args.repeats, progress=_progress_line)
    if args.json is None and args.markdown is None:
        args.no_write = True
    md = render_markdown(results, machine, quick=args.quick)
    if args.no_write:
        print(md)
    else:
        if args.json:
            args.json.parent.mkdir(parents=True, exist_ok=True)
            args.json.write_text(json.dumps(build_document(results, machine, quick=args.quick,
                                                           only=args.only), indent=1) + "\n")
        if args.markdown:
            args.markdown.parent.mkdir(parents=True, exist_ok=True)
            args.markdown.write_text(md)
        print(md)
    return 1 if any(r.error for r in results) else 0
