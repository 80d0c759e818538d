"""The claim model and the registry.

A *claim* is one checkable mathematical statement taken from the lecture notes (or
from any other work: a book, a paper).
It is declared by decorating a check function with :func:`claim`; the check
refutes the statement by raising :class:`AssertionError` (directly, through
Hypothesis, or through the helpers in :mod:`mltheory.numeric` and
:mod:`mltheory.stats`) and supports it by returning normally.
"""

from __future__ import annotations

import enum
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

__all__ = [
    "BOUND_TAG",
    "Claim",
    "ErratumKind",
    "Expect",
    "Method",
    "SkipClaim",
    "claim",
    "get_claim",
    "registered_claims",
    "unregister",
    "validate_registry",
]


class Method(str, enum.Enum):
    """How a claim is checked (see DESIGN.md, "Checking methods")."""

    PROPERTY = "PROPERTY"
    SYMBOLIC = "SYMBOLIC"
    REFERENCE = "REFERENCE"
    SIMULATION = "SIMULATION"
    ENUMERATION = "ENUMERATION"


class Expect(str, enum.Enum):
    """What the suite expects of the statement as the note writes it."""

    HOLDS = "HOLDS"
    REFUTED = "REFUTED"


class ErratumKind(str, enum.Enum):
    """What kind of mistake an erratum is (DESIGN.md, "Errata are precise").

    The first five are outright errors of the note; ``MISSING_CONDITION`` and
    ``SHORTHAND`` are statements that hold once a condition or the intended reading is
    supplied, and the report lists them apart from the errors.
    """

    SYMBOL = "SYMBOL"
    CONSTANT = "CONSTANT"
    TERM = "TERM"
    OVERCLAIM = "OVERCLAIM"
    CODE = "CODE"
    MISSING_CONDITION = "MISSING_CONDITION"
    SHORTHAND = "SHORTHAND"

    @property
    def description(self) -> str:
        return _KIND_DESCRIPTIONS[self]

    @property
    def outright(self) -> bool:
        """True for an error of the note, False for a missing condition or shorthand."""
        return self not in (ErratumKind.MISSING_CONDITION, ErratumKind.SHORTHAND)


_KIND_DESCRIPTIONS = {
    ErratumKind.SYMBOL: "wrong symbol, sign or index",
    ErratumKind.CONSTANT: "wrong constant",
    ErratumKind.TERM: "a term or factor missing or extra",
    ErratumKind.OVERCLAIM: "asserts more than holds (always for may, = for <=, a converse)",
    ErratumKind.CODE: "printed code or pseudo-code that does not do what it says",
    ErratumKind.MISSING_CONDITION: "holds only under a condition the note leaves out",
    ErratumKind.SHORTHAND: "notational shorthand that is false when read literally",
}

#: Claims with this tag state a bound; their check must record a headroom
#: (:func:`mltheory.evidence.headroom`), or the run reports an ERROR.
BOUND_TAG = "bound"


class SkipClaim(Exception):  # noqa: N818 - reads as "raise SkipClaim(reason)"
    """Raise inside a check to mark the claim SKIPPED, with the reason as message."""


_ID_PATTERN = re.compile(r"^[a-z][a-z0-9_]*(\.[a-z0-9_]+)+$")
# A note citation: a three-digit note prefix, whitespace, then a section/equation
# reference, e.g. "003 §4.2 (4.9)", "002 'Pocket PLA'", "001 §三.2".
_NOTE_PREFIX = re.compile(r"^\d{3}(?!\d)")
_CITATION_PATTERN = re.compile(r"^\d{3}\s+\S.*$")
# Any other reference (a book, a paper, a URL-less citation) names its work in words:
# it needs at least two letters, e.g. "Mohri et al. 2018, Thm 3.3".
_WORK_PATTERN = re.compile(r"[^\W\d_].*[^\W\d_]", re.DOTALL)
_TAG_PATTERN = re.compile(r"^[a-z0-9_\-]+$")


@dataclass(frozen=True)
class Claim:
    """A registered claim: metadata plus the check function."""

    id: str
    source: str
    statement: str
    method: Method
    func: Callable[..., Any] = field(repr=False, compare=False)
    tags: tuple[str, ...] = ()
    expect: Expect = Expect.HOLDS
    corrected_by: str | None = None
    explanation: str = ""
    kind: ErratumKind | None = None

    @property
    def is_bound(self) -> bool:
        return BOUND_TAG in self.tags

    @property
    def module(self) -> str:
        return getattr(self.func, "__module__", "?")

    @property
    def citations(self) -> tuple[str, ...]:
        return tuple(part.strip() for part in self.source.split(";") if part.strip())

    @property
    def slow(self) -> bool:
        return "slow" in self.tags

    @property
    def is_hypothesis_test(self) -> bool:
        return hasattr(self.func, "hypothesis") and hasattr(
            self.func, "_hypothesis_internal_use_settings"
        )

    def as_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "source": self.source,
            "statement": self.statement,
            "method": self.method.value,
            "tags": list(self.tags),
            "expect": self.expect.value,
            "corrected_by": self.corrected_by,
            "explanation": self.explanation,
            "kind": self.kind.value if self.kind is not None else None,
            "module": self.module,
        }


_REGISTRY: dict[str, Claim] = {}


def _qualified_name(func: Callable[..., Any]) -> str:
    inner = getattr(getattr(func, "hypothesis", None), "inner_test", func)
    return f"{getattr(inner, '__module__', '?')}.{getattr(inner, '__qualname__', '?')}"


def _validate(
    id: str,  # noqa: A002 - mirrors the decorator's keyword
    source: str,
    statement: str,
    method: Method,
    tags: tuple[str, ...],
    expect: Expect,
    corrected_by: str | None,
    kind: ErratumKind | None = None,
) -> None:
    if not isinstance(id, str) or not _ID_PATTERN.match(id):
        raise ValueError(
            f"claim id {id!r} must look like '<topic>.<name>' (lowercase, digits, underscores)"
        )
    if not isinstance(source, str) or not source.strip():
        raise ValueError(
            f"claim {id}: source must cite a note, e.g. '003 §4.2 (4.9)', or another "
            "work, e.g. 'Mohri et al. 2018, Thm 3.3'"
        )
    for citation in (part.strip() for part in source.split(";")):
        if _NOTE_PREFIX.match(citation):
            if not _CITATION_PATTERN.match(citation):
                raise ValueError(
                    f"claim {id}: note citation {citation!r} needs a section after the "
                    "three-digit note prefix, e.g. '001 §2' or '003 §4.2 (4.9)'"
                )
        elif not _WORK_PATTERN.search(citation):
            raise ValueError(
                f"claim {id}: source part {citation!r} must cite a note ('003 §4.2 (4.9)') "
                "or name a work in words ('Mohri et al. 2018, Thm 3.3')"
            )
    if not isinstance(statement, str) or len(statement.strip()) < 10:
        raise ValueError(f"claim {id}: statement must restate the claim in words")
    if not isinstance(method, Method):
        raise TypeError(f"claim {id}: method must be a mltheory.Method, got {method!r}")
    if not isinstance(expect, Expect):
        raise TypeError(f"claim {id}: expect must be a mltheory.Expect, got {expect!r}")
    for tag in tags:
        if not isinstance(tag, str) or not _TAG_PATTERN.match(tag):
            raise ValueError(f"claim {id}: tag {tag!r} must be lowercase words")
    if expect is Expect.REFUTED and not corrected_by:
        raise ValueError(
            f"claim {id}: an expected refutation needs corrected_by=<id of the corrected claim>"
        )
    if corrected_by is not None and expect is not Expect.REFUTED:
        raise ValueError(f"claim {id}: corrected_by only goes with expect=Expect.REFUTED")
    if corrected_by == id:
        raise ValueError(f"claim {id}: corrected_by must name a different claim")
    if expect is Expect.REFUTED and kind is None:
        raise ValueError(
            f"claim {id}: an expected refutation needs kind=<mltheory.ErratumKind> (what "
            "kind of mistake the note makes: SYMBOL, CONSTANT, TERM, OVERCLAIM, CODE, "
            "MISSING_CONDITION or SHORTHAND)"
        )
    if kind is not None:
        if not isinstance(kind, ErratumKind):
            raise TypeError(f"claim {id}: kind must be a mltheory.ErratumKind, got {kind!r}")
        if expect is not Expect.REFUTED:
            raise ValueError(f"claim {id}: kind only goes with expect=Expect.REFUTED")


def claim(
    *,
    id: str,  # noqa: A002 - the DESIGN's spelling
    source: str,
    statement: str,
    method: Method,
    tags: Iterable[str] = (),
    expect: Expect = Expect.HOLDS,
    corrected_by: str | None = None,
    explanation: str = "",
    kind: ErratumKind | None = None,
) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Register the decorated function as the check of a claim.

    Parameters
    ----------
    id : str
        ``"<topic>.<name>"``, unique across everything registered.
    source : str
        Citations separated by ``;``. A note citation is a file prefix (000..004) and a
        section/equation, e.g. ``"001 §2; 004 §5.3.3"``; any other reference names the
        work, then after a comma the place in it, e.g. ``"Mohri et al. 2018, Thm 3.3"``.
        The report lists a claim under its first citation: a note's chapter, or the
        work (the text before the first comma).
    statement : str
        The claim restated in words, as the note states it.
    method : Method
        How it is checked.
    tags : iterable of str
        Free tags; ``"slow"`` lets the profile scale the claim's budget down.
    expect : Expect
        ``Expect.REFUTED`` declares the note's statement wrong (an erratum).
    corrected_by : str, optional
        With ``Expect.REFUTED``: the id of the corrected claim.
    explanation : str
        For errata: what exactly is wrong in the note, in one or two sentences.
    kind : ErratumKind, optional
        Required with ``Expect.REFUTED``: what kind of mistake it is (wrong symbol, constant,
        term, overclaim, code bug; or a missing condition / shorthand, which the report
        lists apart from the outright errors).

    The check may take keyword arguments ``rng`` (a seeded
    :class:`numpy.random.Generator`) and ``scale`` (the profile's budget
    multiplier: 1 under ``quick``, 10 under ``thorough``). Hypothesis-based
    checks are ``@given`` functions; put ``@claim`` outermost.
    """
    tags_tuple = tuple(tags)
    _validate(id, source, statement, method, tags_tuple, expect, corrected_by, kind)

    def decorate(func: Callable[..., Any]) -> Callable[..., Any]:
        new = Claim(
            id=id,
            source=source.strip(),
            statement=" ".join(statement.split()),
            method=method,
            func=func,
            tags=tags_tuple,
            expect=expect,
            corrected_by=corrected_by,
            explanation=" ".join(explanation.split()),
            kind=kind,
        )
        old = _REGISTRY.get(id)
        if old is not None and _qualified_name(old.func) != _qualified_name(func):
            raise ValueError(
                f"duplicate claim id {id!r}: already registered by {_qualified_name(old.func)}"
            )
        _REGISTRY[id] = new
        func.mltheory_claim = new  # type: ignore[attr-defined]
        return func

    return decorate


def registered_claims() -> list[Claim]:
    """All registered claims, sorted by id."""
    return [_REGISTRY[key] for key in sorted(_REGISTRY)]


def get_claim(claim_id: str) -> Claim:
    try:
        return _REGISTRY[claim_id]
    except KeyError:
        raise KeyError(f"no claim with id {claim_id!r} is registered") from None


def unregister(claim_id: str) -> None:
    """Remove a claim (used by tests that register throw-away claims)."""
    _REGISTRY.pop(claim_id, None)


def validate_registry(claims: Iterable[Claim] | None = None) -> None:
    """Check cross-references: every ``corrected_by`` names a registered claim
    that is itself expected to hold."""
    problems = []
    for c in claims if claims is not None else registered_claims():
        if c.corrected_by is None:
            continue
        target = _REGISTRY.get(c.corrected_by)
        if target is None:
            problems.append(f"{c.id}: corrected_by {c.corrected_by!r} is not registered")
        elif target.expect is not Expect.HOLDS:
            problems.append(f"{c.id}: corrected_by {c.corrected_by!r} is itself an erratum")
    if problems:
        raise ValueError("inconsistent claim registry:\n  " + "\n  ".join(problems))
