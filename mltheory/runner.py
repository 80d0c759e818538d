"""Discovering, selecting and running claims."""

from __future__ import annotations

import fnmatch
import functools
import importlib
import inspect
import pkgutil
import re
import sys
import time
import traceback
import warnings
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from importlib import metadata
from typing import Any

import hypothesis

from mltheory import evidence as _evidence
from mltheory._reproducible import seed_only_generation
from mltheory.claims import (
    BOUND_TAG,
    Claim,
    Expect,
    SkipClaim,
    registered_claims,
    validate_registry,
)
from mltheory.profiles import get_profile, hypothesis_settings
from mltheory.results import Result, Verdict
from mltheory.rng import DEFAULT_SEED, claim_rng, claim_seed

__all__ = [
    "CLAIM_PACKAGES",
    "ClaimModuleError",
    "ENTRY_POINT_GROUP",
    "Report",
    "discover",
    "run_claim",
    "run_claims",
    "run_tasks",
    "select",
]

#: Packages whose every module is imported to register the built-in claims.
CLAIM_PACKAGES = ("properties", "proofs")
#: Entry-point group through which other installed packages contribute claim modules.
ENTRY_POINT_GROUP = "mltheory.claims"


class ClaimModuleError(ImportError):
    """A claim module given by the user (``--claims``, an entry point) could not be
    imported: it is missing, raises on import, has a syntax error, or registers a claim
    id that is already taken. The message is one line naming the module and the problem.
    """

    def __init__(self, module: str, problem: str) -> None:
        super().__init__(f"claims module {module!r}: {problem}")
        self.module, self.problem = module, problem


def _problem(exc: BaseException) -> str:
    if isinstance(exc, SyntaxError):
        where = f"{exc.filename}, line {exc.lineno}" if exc.filename else f"line {exc.lineno}"
        return f"syntax error: {exc.msg} ({where})"
    text = " ".join(str(exc).split())
    if isinstance(exc, ModuleNotFoundError) and exc.name:
        return f"cannot import it: no module named {exc.name!r}"
    if text.startswith("duplicate claim id"):
        return text
    return f"raises on import: {type(exc).__name__}: {text}".rstrip(": ")


def _import_one(name: str, *, user: bool) -> Any:
    if not user:
        return importlib.import_module(name)
    try:
        return importlib.import_module(name)
    except Exception as exc:  # noqa: BLE001 - any failure of a user's module is reported
        raise ClaimModuleError(name, _problem(exc)) from exc


def _import_tree(name: str, *, required: bool = True, user: bool = False) -> None:
    """Import a module, or a package and every module below it (``user``: report a
    failure as a one-line :class:`ClaimModuleError`)."""
    try:
        module = _import_one(name, user=user)
    except ModuleNotFoundError as exc:
        if exc.name == name and not required:
            return  # an optional built-in package that is not installed
        raise
    for info in pkgutil.walk_packages(getattr(module, "__path__", ()), prefix=name + ".",
                                      onerror=_walk_error if user else None):
        _import_one(info.name, user=user)


def _walk_error(name: str) -> None:
    exc = sys.exc_info()[1]
    raise ClaimModuleError(name, _problem(exc) if exc else "cannot be walked")


def discover(
    modules: Iterable[str] = (), *, builtin: bool = True, entry_points: bool = True
) -> list[Claim]:
    """Import claim modules and return every registered claim, sorted by id.

    Parameters
    ----------
    modules : iterable of str
        Extra modules (or packages, walked recursively) to import, e.g. a user's own
        ``mychecks.theorems``.
    builtin : bool
        Import every module under :data:`CLAIM_PACKAGES`.
    entry_points : bool
        Import the modules named by the :data:`ENTRY_POINT_GROUP` entry points of
        installed distributions.
    """
    if builtin:
        for name in CLAIM_PACKAGES:
            _import_tree(name, required=False)
    if entry_points:
        for ep in metadata.entry_points(group=ENTRY_POINT_GROUP):
            _import_tree(ep.value, user=True)
    for name in modules:
        _import_tree(name, user=True)
    claims = registered_claims()
    validate_registry(claims)
    return claims


def _citation_matches(citation: str, wanted: str) -> bool:
    citation, wanted = " ".join(citation.split()), " ".join(wanted.split())
    if not citation.startswith(wanted):
        return False
    rest = citation[len(wanted) :]
    return not rest or not (rest[0].isdigit() or (wanted[-1].isdigit() and rest[0].isalnum()))


def select(
    claims: Sequence[Claim],
    patterns: Iterable[str] = (),
    *,
    tags: Iterable[str] = (),
    sources: Iterable[str] = (),
    methods: Iterable[str] = (),
) -> list[Claim]:
    """Filter claims: any id glob in ``patterns``, any tag, any note section, any method.

    Each filter left empty admits everything; the filters combine with AND.
    A source filter such as ``"003 §4"`` matches ``"003 §4.2 (4.9)"`` but not ``"003 §41"``.
    """
    patterns, tags, sources = list(patterns), set(tags), list(sources)
    methods = {m.upper() for m in methods}
    out = []
    for c in claims:
        if patterns and not any(fnmatch.fnmatchcase(c.id, p) for p in patterns):
            continue
        if tags and not tags.intersection(c.tags):
            continue
        if sources and not any(_citation_matches(cit, s) for cit in c.citations for s in sources):
            continue
        if methods and c.method.value not in methods:
            continue
        out.append(c)
    return out


# "Generator(PCG64) at 0x7F55CA8FB760": a memory address in a repr differs from process
# to process; the report keeps the object and drops where it happened to live.
_ADDRESS = re.compile(r"\s+at 0x[0-9a-fA-F]{6,}")


def _refutation_text(exc: BaseException) -> str:
    lines = [f"{type(exc).__name__}: {exc}".rstrip(": ")]
    lines.extend(str(n) for n in getattr(exc, "__notes__", ()))
    return _ADDRESS.sub("", "\n".join(lines).strip())


def _check_kwargs(func: Callable[..., object], rng_factory: Callable[[], object], scale: int):
    try:
        params = inspect.signature(func).parameters
    except (TypeError, ValueError):  # pragma: no cover - builtins
        return {}
    kwargs: dict[str, object] = {}
    if "rng" in params:
        kwargs["rng"] = rng_factory()
    if "scale" in params:
        kwargs["scale"] = scale
    return kwargs


def run_claim(claim: Claim, *, profile: str = "quick", seed: int = DEFAULT_SEED) -> Result:
    """Check one claim and return its verdict with evidence."""
    prof = get_profile(profile)
    func = claim.func
    ev = _evidence.Evidence()
    caught: list[warnings.WarningMessage] = []
    start = time.perf_counter()
    refuted: BaseException | None = None
    crashed: BaseException | None = None
    skipped = ""
    restore: Callable[[], None] = lambda: None  # noqa: E731

    if claim.is_hypothesis_test:
        # Hypothesis reads the settings from this attribute at call time; setting it
        # directly (rather than through @settings) lets every run choose its profile.
        old_settings = func._hypothesis_internal_use_settings
        old_seed = getattr(func, "_hypothesis_internal_use_seed", None)
        old_inner = func.hypothesis.inner_test
        func._hypothesis_internal_use_settings = hypothesis_settings(prof, slow=claim.slow)
        # The search itself is seeded from the claim id and the run's seed: the same seed
        # replays the same examples, another seed explores others.
        hypothesis.seed(claim_seed(claim.id, seed))(func)

        @functools.wraps(old_inner)
        def counting_inner(*args, **kwargs):
            ev.examples += 1
            return old_inner(*args, **kwargs)

        func.hypothesis.inner_test = counting_inner

        def restore() -> None:
            func._hypothesis_internal_use_settings = old_settings
            func._hypothesis_internal_use_seed = old_seed
            func.hypothesis.inner_test = old_inner

    try:
        kwargs = _check_kwargs(func, lambda: claim_rng(claim.id, seed), prof.scale)
        with (
            _evidence.collecting(ev),
            seed_only_generation(),
            warnings.catch_warnings(record=True) as caught,
        ):
            warnings.simplefilter("always")
            func(**kwargs)
    except SkipClaim as exc:
        skipped = str(exc) or "skipped by the check"
    except AssertionError as exc:
        refuted = exc
    except Exception as exc:  # noqa: BLE001 - any crash of a check is an ERROR verdict
        crashed = exc
    finally:
        restore()
    duration = time.perf_counter() - start
    if not claim.is_hypothesis_test and ev.examples == 0:
        ev.examples = 1

    counts: dict[str, int] = {}
    for w in caught:
        key = w.category.__name__
        counts[key] = counts.get(key, 0) + 1

    result = Result(claim=claim, verdict=Verdict.ERROR, evidence=ev, duration_s=duration,
                    warnings=counts)
    if skipped:
        result.verdict, result.reason = Verdict.SKIPPED, skipped
    elif crashed is not None:
        result.error = "".join(traceback.format_exception(crashed)).strip()
        result.counterexample = _refutation_text(crashed)
        result.reason = f"check crashed: {type(crashed).__name__}: {crashed}".strip()
    elif refuted is not None:
        result.counterexample = _refutation_text(refuted)
        if claim.expect is Expect.REFUTED:
            result.verdict = Verdict.ERRATUM_CONFIRMED
            result.reason = "the note's statement is refuted, as expected"
        else:
            result.verdict = Verdict.FAILED
            result.reason = "refuted, but expected to hold"
    else:
        if claim.expect is Expect.REFUTED:
            result.verdict = Verdict.NOT_REFUTED
            result.reason = "expected a refutation, none found: the check has no teeth"
        elif claim.is_bound and ev.headroom is None:
            result.reason = (f"a claim tagged {BOUND_TAG!r} must record its headroom "
                             "(mltheory.evidence.headroom, numeric.assert_leq or the "
                             "probability checks of mltheory.stats); this one recorded none")
        else:
            result.verdict = Verdict.VERIFIED
    return result


@dataclass
class Report:
    """All results of one run, with the settings that produced them.

    ``interrupted`` is set when the run was stopped (Ctrl-C) before every claim ran;
    ``not_run`` then lists the ids of the selected claims that have no result.
    """

    results: list[Result]
    profile: str
    seed: int
    duration_s: float = 0.0
    interrupted: bool = False
    not_run: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.interrupted and all(r.passed for r in self.results)


ProgressCallback = Callable[[int, int, Claim, "Result | None"], None]


def run_tasks(
    tasks: Sequence[tuple[Claim, int]],
    *,
    profile: str = "quick",
    progress: ProgressCallback | None = None,
    jobs: int = 1,
    scheduler: Any = None,
    setup: Any = None,
) -> tuple[list[tuple[Claim, int, Result]], bool]:
    """Check each (claim, seed) pair, serially or in parallel; the results in completion
    order and whether Ctrl-C stopped the run (the results so far are kept).

    ``jobs > 1`` runs that many local worker processes; ``scheduler`` (a dask
    scheduler address or a ``distributed.Client``) sends the work to a dask cluster.
    Either way each result is the one a serial run gives, timings aside
    (see :mod:`mltheory._workers`). ``setup`` (a :class:`mltheory._workers.WorkerSetup`)
    says which modules a worker imports; by default the built-in claims plus each
    claim's own module.
    """
    get_profile(profile)  # validate early
    if isinstance(jobs, bool) or not isinstance(jobs, int) or jobs < 1:
        raise ValueError(f"jobs must be a positive integer, got {jobs!r}")
    done: list[tuple[Claim, int, Result]] = []
    n = len(tasks)

    def on_result(c: Claim, s: int, r: Result) -> None:
        done.append((c, s, r))
        if progress is not None:
            progress(len(done), n, c, r)

    if jobs == 1 and scheduler is None:
        try:
            for c, s in tasks:
                if progress is not None:
                    progress(len(done) + 1, n, c, None)
                on_result(c, s, run_claim(c, profile=profile, seed=s))
        except KeyboardInterrupt:
            return done, True
        return done, False

    from mltheory import _workers

    interrupted = _workers.execute(tasks, profile=profile, on_result=on_result, jobs=jobs,
                                   scheduler=scheduler, setup=setup)
    return done, interrupted


def run_claims(
    claims: Sequence[Claim],
    *,
    profile: str = "quick",
    seed: int = DEFAULT_SEED,
    progress: ProgressCallback | None = None,
    jobs: int = 1,
    scheduler: Any = None,
    setup: Any = None,
) -> Report:
    """Check each claim (sorted by id); ``progress`` is called after each (and before
    each in a serial run). ``jobs``, ``scheduler`` and ``setup`` as for :func:`run_tasks`.
    Ctrl-C stops the run and returns the results so far, marked ``interrupted``."""
    start = time.perf_counter()
    ordered = sorted(claims, key=lambda c: c.id)
    done, interrupted = run_tasks([(c, seed) for c in ordered], profile=profile,
                                  progress=progress, jobs=jobs, scheduler=scheduler,
                                  setup=setup)
    results = sorted((r for _, _, r in done), key=lambda r: r.claim.id)
    ran = {r.claim.id for r in results}
    return Report(
        results=results, profile=profile, seed=seed,
        duration_s=time.perf_counter() - start, interrupted=interrupted,
        not_run=[c.id for c in ordered if c.id not in ran],
    )
