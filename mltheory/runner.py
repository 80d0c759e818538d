"""Discovering, selecting and running claims."""

from __future__ import annotations

import fnmatch
import functools
import importlib
import inspect
import pkgutil
import time
import traceback
import warnings
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from importlib import metadata

import hypothesis

from mltheory import evidence as _evidence
from mltheory._reproducible import seed_only_generation
from mltheory.claims import Claim, Expect, SkipClaim, registered_claims, validate_registry
from mltheory.profiles import get_profile, hypothesis_settings
from mltheory.results import Result, Verdict
from mltheory.rng import DEFAULT_SEED, claim_rng, claim_seed

__all__ = [
    "CLAIM_PACKAGES",
    "ENTRY_POINT_GROUP",
    "Report",
    "discover",
    "run_claim",
    "run_claims",
    "select",
]

#: Packages whose every module is imported to register the built-in claims.
CLAIM_PACKAGES = ("properties", "proofs")
#: Entry-point group through which other installed packages contribute claim modules.
ENTRY_POINT_GROUP = "mltheory.claims"


def _import_tree(name: str, *, required: bool = True) -> None:
    """Import a module, or a package and every module below it."""
    try:
        module = importlib.import_module(name)
    except ModuleNotFoundError as exc:
        if exc.name == name and not required:
            return  # an optional built-in package that is not installed
        raise
    for info in pkgutil.walk_packages(getattr(module, "__path__", ()), prefix=name + "."):
        importlib.import_module(info.name)


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
            _import_tree(ep.value)
    for name in modules:
        _import_tree(name)
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


def _refutation_text(exc: BaseException) -> str:
    lines = [f"{type(exc).__name__}: {exc}".rstrip(": ")]
    lines.extend(str(n) for n in getattr(exc, "__notes__", ()))
    return "\n".join(lines).strip()


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
        else:
            result.verdict = Verdict.VERIFIED
    return result


@dataclass
class Report:
    """All results of one run, with the settings that produced them."""

    results: list[Result]
    profile: str
    seed: int
    duration_s: float = 0.0

    @property
    def ok(self) -> bool:
        return all(r.passed for r in self.results)


def run_claims(
    claims: Sequence[Claim],
    *,
    profile: str = "quick",
    seed: int = DEFAULT_SEED,
    progress: Callable[[int, int, Claim, Result | None], None] | None = None,
) -> Report:
    """Check each claim in turn (sorted by id); ``progress`` is called before and after each."""
    get_profile(profile)  # validate early
    start = time.perf_counter()
    results = []
    ordered = sorted(claims, key=lambda c: c.id)
    for i, c in enumerate(ordered, 1):
        if progress is not None:
            progress(i, len(ordered), c, None)
        r = run_claim(c, profile=profile, seed=seed)
        results.append(r)
        if progress is not None:
            progress(i, len(ordered), c, r)
    return Report(
        results=results, profile=profile, seed=seed, duration_s=time.perf_counter() - start
    )
