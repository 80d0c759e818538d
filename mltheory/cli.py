"""Command line: ``mltheory list | show ID | verify [SELECTION...] | diff OLD NEW``."""

from __future__ import annotations

import argparse
import os
import sys
import textwrap
from collections.abc import Sequence
from pathlib import Path

from mltheory import __version__
from mltheory._output import (
    OutputPathError,
    atomic_write_text,
    check_output_paths,
    rescue_path,
)
from mltheory._workers import WorkerError, connect, default_setup
from mltheory.claims import Claim, get_claim
from mltheory.diff import DEFAULT_THRESHOLD, DiffError, diff_reports, load_report, render_diff
from mltheory.profiles import PROFILES
from mltheory.report import (
    build_document,
    dumps,
    relative_link,
    render_markdown,
    summary_line,
)
from mltheory.results import Result
from mltheory.rng import DEFAULT_SEED
from mltheory.runner import ClaimModuleError, discover, run_claims, select
from mltheory.sweep import (
    build_sweep_document,
    parse_seeds,
    render_sweep_markdown,
    run_sweep,
    sweep_ok,
    sweep_summary_line,
)

__all__ = ["main"]

EXIT_OK, EXIT_FAILURES, EXIT_USAGE = 0, 1, 2
#: Exit status after Ctrl-C (128 + SIGINT), as shells report it.
EXIT_INTERRUPTED = 130
DEFAULT_REPORT, DEFAULT_JSON = "verification-report.md", "verification-report.json"
SWEEP_REPORT, SWEEP_JSON = "sweep-report.md", "sweep-report.json"


def _add_selection(p: argparse.ArgumentParser) -> None:
    p.add_argument("selection", nargs="*", metavar="ID_GLOB",
                   help="claim id globs, e.g. 'perceptron.*' (default: all)")
    p.add_argument("--tag", action="append", default=[], help="only claims with this tag")
    p.add_argument("--source", action="append", default=[],
                   help="only claims citing this note section, e.g. '003 §4' or '001'")
    p.add_argument("--method", action="append", default=[],
                   help="only claims checked by this method (PROPERTY, SIMULATION, ...)")
    p.add_argument("--claims", action="append", default=[], metavar="MODULE",
                   help="also import claims from this module or package (repeatable)")


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="mltheory",
        description="Verify executable claims of classical machine-learning theory.",
    )
    parser.add_argument("--version", action="version", version=f"mltheory {__version__}")
    sub = parser.add_subparsers(dest="command", required=True)

    p_list = sub.add_parser("list", help="list registered claims")
    _add_selection(p_list)

    p_show = sub.add_parser("show", help="show one claim in full")
    p_show.add_argument("id")
    p_show.add_argument("--claims", action="append", default=[], metavar="MODULE")

    p_verify = sub.add_parser("verify", help="check claims and write the verification report")
    _add_selection(p_verify)
    p_verify.add_argument("--profile", choices=sorted(PROFILES), default="quick",
                          help="example/simulation budget (default: quick)")
    seeds = p_verify.add_mutually_exclusive_group()
    seeds.add_argument("--seed", type=int, default=DEFAULT_SEED,
                       help=f"global seed (default: {DEFAULT_SEED})")
    seeds.add_argument("--seeds", type=_seeds_arg, default=None, metavar="SEEDS",
                       help="seed sweep: every claim under each seed, e.g. '1-20' or '1,4,9'; "
                            "reports verdict flips and the worst figures over all seeds "
                            f"(default reports: {SWEEP_REPORT}, {SWEEP_JSON})")
    p_verify.add_argument("--jobs", "-j", type=_jobs_arg, default=1, metavar="N",
                          help="run claims in N local worker processes (default: 1, in "
                               "this process); results are those of a serial run")
    p_verify.add_argument("--scheduler", default=None, metavar="ADDRESS",
                          help="send the work to the dask.distributed scheduler at ADDRESS, "
                               "e.g. tcp://10.0.0.5:8786 (needs mltheory[distributed])")
    p_verify.add_argument("--report", default=None, metavar="PATH",
                          help=f"Markdown report path (default: {DEFAULT_REPORT})")
    p_verify.add_argument("--json", default=None, metavar="PATH",
                          help=f"JSON report path (default: {DEFAULT_JSON})")
    p_verify.add_argument("--html", default=None, metavar="PATH",
                          help="HTML report path (default: the Markdown report's path with "
                               "the suffix .html; '' for none)")

    p_diff = sub.add_parser("diff", help="compare two JSON reports (exit 1 on a regression)")
    p_diff.add_argument("old", metavar="OLD.json")
    p_diff.add_argument("new", metavar="NEW.json")
    p_diff.add_argument("--threshold", type=_threshold_arg, default=DEFAULT_THRESHOLD,
                        metavar="FRACTION",
                        help="report a figure whose relative change exceeds FRACTION "
                             f"(default: {DEFAULT_THRESHOLD}, i.e. "
                             f"{DEFAULT_THRESHOLD:.0%})")
    return parser


def _seeds_arg(text: str) -> list[int]:
    try:
        return parse_seeds(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _jobs_arg(text: str) -> int:
    try:
        jobs = int(text)
    except ValueError:
        jobs = 0
    if jobs < 1:
        raise argparse.ArgumentTypeError(f"must be a positive integer, got {text!r}")
    return jobs


def _threshold_arg(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not value >= 0:
        raise argparse.ArgumentTypeError(f"must be a non-negative number, got {text!r}")
    return value


class _UsageError(Exception):
    pass


def _discover(modules: Sequence[str]) -> list[Claim]:
    """Discover claims; modules named with --claims may live in the current directory
    (as with ``python -m``, which console scripts do not imitate)."""
    if modules and os.getcwd() not in sys.path:
        sys.path.insert(0, os.getcwd())
    try:
        return discover(modules)
    except ClaimModuleError as exc:
        raise _UsageError(str(exc)) from exc
    except ValueError as exc:  # the registry's cross-references (corrected_by)
        head, *rest = (line.strip() for line in str(exc).splitlines())
        raise _UsageError(" ".join([head, "; ".join(rest)]).strip()) from exc


def _selected(args: argparse.Namespace) -> list[Claim]:
    claims = _discover(args.claims)
    return select(claims, args.selection, tags=args.tag, sources=args.source,
                  methods=args.method)


class _Progress:
    """A live progress line on stderr (rewritten in place on a terminal)."""

    def __init__(self, stream=None) -> None:
        self.stream = stream if stream is not None else sys.stderr
        self.tty = hasattr(stream, "isatty") and stream.isatty()

    def __call__(self, i: int, n: int, claim: Claim, result: Result | None) -> None:
        if result is None:
            if self.tty:
                self.stream.write(f"\r\x1b[K[{i}/{n}] {claim.id} …")
                self.stream.flush()
            return
        line = f"[{i}/{n}] {claim.id}: {result.verdict.value} ({result.duration_s:.1f} s)"
        if self.tty:
            self.stream.write(f"\r\x1b[K{line}")
            if not result.passed:
                self.stream.write("\n")
        else:
            self.stream.write(line + "\n")
        self.stream.flush()

    def done(self) -> None:
        if self.tty:
            self.stream.write("\r\x1b[K")
            self.stream.flush()


def _cmd_list(args: argparse.Namespace) -> int:
    claims = _selected(args)
    for c in claims:
        flag = " [erratum]" if c.expect.value == "REFUTED" else ""
        print(f"{c.id:55s} {c.method.value:11s} {c.source}{flag}")
    print(f"{len(claims)} claims")
    return EXIT_OK


def _cmd_show(args: argparse.Namespace) -> int:
    _discover(args.claims)
    try:
        c = get_claim(args.id)
    except KeyError as exc:
        print(f"mltheory: {exc.args[0]}", file=sys.stderr)
        return EXIT_USAGE
    wrap = textwrap.TextWrapper(width=88, subsequent_indent="    ")
    print(f"id:        {c.id}")
    print(f"source:    {c.source}")
    print(f"method:    {c.method.value}")
    print(f"expect:    {c.expect.value}")
    if c.corrected_by:
        print(f"corrected: {c.corrected_by}")
    if c.kind is not None:
        print(f"kind:      {c.kind.value} ({c.kind.description})")
    print(f"tags:      {', '.join(c.tags) or '-'}")
    print(f"module:    {c.module}")
    print(wrap.fill("statement: " + c.statement))
    if c.explanation:
        print(wrap.fill("erratum:   " + c.explanation))
    return EXIT_OK


def _output_paths(args: argparse.Namespace) -> dict[str, str | None]:
    """Every file the run will write, keyed by the option that names it."""
    paths: dict[str, str | None] = {"--report": args.report, "--json": args.json}
    html = getattr(args, "html", None)
    if html:
        paths["--html"] = html
    return paths


def _prepare_verify(args: argparse.Namespace) -> tuple[list[Claim], object]:
    """Everything that can fail before the first claim runs: the claim modules, the
    selection, the output paths and the scheduler connection."""
    sweep = args.seeds is not None
    if args.report is None:
        args.report = SWEEP_REPORT if sweep else DEFAULT_REPORT
    if args.json is None:
        args.json = SWEEP_JSON if sweep else DEFAULT_JSON
    if sweep and args.html:
        raise _UsageError("--html is for single-seed runs: a sweep writes Markdown and JSON")
    if args.html is None and not sweep and args.report:
        args.html = _html_beside(args.report)
    if args.scheduler is not None and args.jobs != 1:
        raise _UsageError("--jobs and --scheduler exclude each other: the cluster's workers "
                          "decide how many claims run at once")
    claims = _selected(args)
    if not claims:
        raise _UsageError("no claims match the selection")
    try:
        check_output_paths(_output_paths(args))
    except OutputPathError as exc:
        raise _UsageError(str(exc)) from None
    scheduler = None
    if args.scheduler is not None:
        try:
            scheduler = connect(args.scheduler)
        except WorkerError as exc:
            raise _UsageError(str(exc)) from None
    return claims, scheduler


def _html_beside(markdown: str) -> str:
    """The default HTML report path: the Markdown report's, with the suffix .html."""
    path = Path(markdown)
    html = path.with_suffix(".html")
    return str(html if html != path else path.with_name(path.name + ".html"))


def _html_report(args: argparse.Namespace, doc: dict) -> str:
    from mltheory.html import render_html  # jinja2 and matplotlib load only when needed

    return render_html(doc, markdown_name=relative_link(args.report, args.html),
                       json_name=relative_link(args.json, args.html))


def _write(args: argparse.Namespace, doc: dict, markdown: str) -> int | None:
    """Write the reports; if that fails after all, keep the results in a temporary file
    and say where (one line). Returns an exit status on failure, None on success."""
    try:
        if args.report:
            atomic_write_text(args.report, markdown)
        if args.json:
            atomic_write_text(args.json, dumps(doc))
        if getattr(args, "html", None):  # last: the page takes longest to render
            atomic_write_text(args.html, _html_report(args, doc))
    except OSError as exc:
        where = " ".join(str(exc).split())
        try:
            rescue = rescue_path()
            atomic_write_text(rescue, dumps(doc))
            kept = f"the results are saved in {rescue}"
        except OSError:
            kept = "the results could not be saved either"
        print(f"mltheory: cannot write the report ({where}); {kept}", file=sys.stderr)
        return EXIT_USAGE
    return None


def _cmd_verify(args: argparse.Namespace) -> int:
    claims, scheduler = _prepare_verify(args)
    setup = default_setup(claims, args.claims)
    progress = _Progress()
    try:
        if args.seeds is not None:
            return _verify_sweep(args, claims, scheduler, setup, progress)
        report = run_claims(claims, profile=args.profile, seed=args.seed, progress=progress,
                            jobs=args.jobs, scheduler=scheduler, setup=setup)
    except WorkerError as exc:
        raise _UsageError(str(exc)) from None
    finally:
        progress.done()
        if scheduler is not None:
            scheduler.close()
    doc = build_document(report.results, profile=args.profile, seed=args.seed,
                         version=__version__, duration_s=report.duration_s,
                         not_run=report.not_run)
    failed = _write(args, doc, render_markdown(doc, html_name=relative_link(args.html,
                                                                         args.report)))
    print(summary_line(doc["summary"]) + f" in {report.duration_s:.1f} s")
    for r in report.results:
        if not r.passed:
            print(f"  {r.verdict.value}: {r.claim.id} — {r.reason}")
    if failed is not None:
        return failed
    written = [p for p in (args.report, args.json, args.html) if p]
    if report.interrupted:
        print(f"mltheory: interrupted: {len(report.results)} of {len(claims)} claims ran; "
              f"partial report written to {' and '.join(written)}", file=sys.stderr)
        return EXIT_INTERRUPTED
    if written:
        print("report written to " + " and ".join(written))
    return EXIT_OK if report.ok else EXIT_FAILURES


def _verify_sweep(args: argparse.Namespace, claims: list[Claim], scheduler: object,
                  setup: object, progress: _Progress) -> int:
    sweep = run_sweep(claims, args.seeds, profile=args.profile, progress=progress,
                      jobs=args.jobs, scheduler=scheduler, setup=setup)
    progress.done()
    doc = build_sweep_document(sweep, version=__version__)
    failed = _write(args, doc, render_sweep_markdown(doc))
    print(sweep_summary_line(doc) + f" in {sweep.duration_s:.1f} s")
    for row in doc["claims"]:
        if row["flipped"] or row["failing_seeds"]:
            counts = ", ".join(f"{v} ×{n}" for v, n in row["verdict_counts"].items())
            what = "FLIPPED" if row["flipped"] else "FAILING"
            print(f"  {what}: {row['id']} — {counts}; failing seeds "
                  f"{', '.join(map(str, row['failing_seeds'])) or '-'}")
    if failed is not None:
        return failed
    written = [p for p in (args.report, args.json) if p]
    if sweep.interrupted:
        print(f"mltheory: interrupted: {doc['summary']['runs']} of "
              f"{len(claims) * len(args.seeds)} runs done; partial sweep report written to "
              f"{' and '.join(written)}", file=sys.stderr)
        return EXIT_INTERRUPTED
    if written:
        print("sweep report written to " + " and ".join(written))
    return EXIT_OK if sweep_ok(doc) else EXIT_FAILURES


def _cmd_diff(args: argparse.Namespace) -> int:
    try:
        old, new = load_report(args.old), load_report(args.new)
    except DiffError as exc:
        raise _UsageError(str(exc)) from None
    d = diff_reports(old, new, threshold=args.threshold)
    print(render_diff(d, args.old, args.new))
    return EXIT_FAILURES if d.regressions else EXIT_OK


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    handlers = {"list": _cmd_list, "show": _cmd_show, "verify": _cmd_verify,
                "diff": _cmd_diff}
    try:
        return handlers[args.command](args)
    except _UsageError as exc:
        print(f"mltheory: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:  # before any claim ran, or while writing: nothing to keep
        print("mltheory: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
