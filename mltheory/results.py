"""Verdicts and per-claim results."""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import Any

from mltheory.claims import Claim
from mltheory.evidence import Evidence

__all__ = ["PASSING", "Result", "Verdict"]


class Verdict(str, enum.Enum):
    VERIFIED = "VERIFIED"  # expected to hold, and no refutation found
    ERRATUM_CONFIRMED = "ERRATUM_CONFIRMED"  # expected refutation found
    FAILED = "FAILED"  # expected to hold but refuted: bug in algorithm or check
    NOT_REFUTED = "NOT_REFUTED"  # expected refutation not found: the check has no teeth
    ERROR = "ERROR"  # the check crashed
    SKIPPED = "SKIPPED"  # with a reason


#: Verdicts that count as a pass (under pytest and for the CLI's exit code).
PASSING = frozenset({Verdict.VERIFIED, Verdict.ERRATUM_CONFIRMED, Verdict.SKIPPED})


@dataclass
class Result:
    """The outcome of checking one claim."""

    claim: Claim
    verdict: Verdict
    evidence: Evidence = field(default_factory=Evidence)
    counterexample: str = ""  # the (shrunk) refutation, for refuted claims
    error: str = ""  # traceback text, for ERROR
    reason: str = ""  # for SKIPPED, or a one-line summary
    duration_s: float = 0.0
    warnings: dict[str, int] = field(default_factory=dict)

    @property
    def passed(self) -> bool:
        return self.verdict in PASSING

    def as_dict(self, *, timings: bool = True) -> dict[str, Any]:
        d: dict[str, Any] = dict(self.claim.as_dict())
        d.update(
            {
                "verdict": self.verdict.value,
                "evidence": self.evidence.as_dict(),
                "counterexample": self.counterexample,
                "error": self.error,
                "reason": self.reason,
                "warnings": dict(sorted(self.warnings.items())),
            }
        )
        if timings:
            d["duration_s"] = round(self.duration_s, 3)
        return d
