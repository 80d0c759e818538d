"""Command line: ``mltheory list | show ID | verify [SELECTION...]``."""

from __future__ import annotations

import argparse
import os
import sys
import textwrap
from collections.abc import Sequence

from mltheory import __version__
from mltheory.claims import Claim, get_claim
from mltheory.profiles import PROFILES
from mltheory.report import build_document, summary_line, write_reports
from mltheory.results import Result
from mltheory.rng import DEFAULT_SEED
from mltheory.runner import discover, run_claims, select

__all__ = ["main"]

EXIT_OK, EXIT_FAILURES, EXIT_USAGE = 0, 1, 2


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
    p_verify.add_argument("--seed", type=int, default=DEFAULT_SEED,
                          help=f"global seed (default: {DEFAULT_SEED})")
    p_verify.add_argument("--report", default="verification-report.md", metavar="PATH",
                          help="Markdown report path (default: verification-report.md)")
    p_verify.add_argument("--json", default="verification-report.json", metavar="PATH",
                          help="JSON report path (default: verification-report.json)")
    return parser


class _UsageError(Exception):
    pass


def _discover(modules: Sequence[str]) -> list[Claim]:
    """Discover claims; modules named with --claims may live in the current directory
    (as with ``python -m``, which console scripts do not imitate)."""
    if modules and os.getcwd() not in sys.path:
        sys.path.insert(0, os.getcwd())
    try:
        return discover(modules)
    except ModuleNotFoundError as exc:
        if exc.name in modules:
            raise _UsageError(f"cannot import claims module {exc.name!r}: {exc}") from exc
        raise


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
    print(f"tags:      {', '.join(c.tags) or '-'}")
    print(f"module:    {c.module}")
    print(wrap.fill("statement: " + c.statement))
    if c.explanation:
        print(wrap.fill("erratum:   " + c.explanation))
    return EXIT_OK


def _cmd_verify(args: argparse.Namespace) -> int:
    claims = _selected(args)
    if not claims:
        print("mltheory: no claims match the selection", file=sys.stderr)
        return EXIT_USAGE
    progress = _Progress()
    report = run_claims(claims, profile=args.profile, seed=args.seed, progress=progress)
    progress.done()
    doc = build_document(report.results, profile=args.profile, seed=args.seed,
                         version=__version__, duration_s=report.duration_s)
    write_reports(doc, markdown=args.report, json_path=args.json)
    print(summary_line(doc["summary"]) + f" in {report.duration_s:.1f} s")
    for r in report.results:
        if not r.passed:
            print(f"  {r.verdict.value}: {r.claim.id} — {r.reason}")
    written = [p for p in (args.report, args.json) if p]
    if written:
        print("report written to " + " and ".join(written))
    return EXIT_OK if report.ok else EXIT_FAILURES


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    handlers = {"list": _cmd_list, "show": _cmd_show, "verify": _cmd_verify}
    try:
        return handlers[args.command](args)
    except _UsageError as exc:
        print(f"mltheory: {exc}", file=sys.stderr)
        return EXIT_USAGE


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
