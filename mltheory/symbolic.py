"""Derivations as checked sequences of steps (for ``proofs/``).

A :class:`Derivation` is built step by step, each step relating two sympy
expressions. Equalities are checked by simplifying the difference to zero;
an inequality ``lhs <= rhs`` must come with a *slack*: an expression that
sympy can show is non-negative from the symbols' assumptions (a square, a
product of non-negative symbols, ...) and that equals ``rhs - lhs``. This is
the "stated sufficient condition": the assumptions on the symbols are the
conditions, and they appear in the report through the step's ``because``.

:meth:`Derivation.verify` raises :class:`AssertionError` naming the *first*
failing step, so a wrong line in a note's proof is pinpointed.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import sympy as sp

from mltheory import evidence

__all__ = ["Derivation", "Step"]


@dataclass(frozen=True)
class Step:
    name: str
    lhs: sp.Expr
    rhs: sp.Expr
    relation: str  # "==", "<=", ">="
    slack: sp.Expr | None = None
    because: str = ""


def _is_zero(expr: sp.Expr) -> bool | None:
    simplified = sp.simplify(sp.expand(expr))
    if simplified == 0:
        return True
    verdict = simplified.equals(0)
    return verdict


@dataclass
class Derivation:
    """An ordered list of steps, each checked symbolically."""

    title: str
    steps: list[Step] = field(default_factory=list)

    def equal(self, name: str, lhs: sp.Expr, rhs: sp.Expr, *, because: str = "") -> Derivation:
        self.steps.append(Step(name, sp.sympify(lhs), sp.sympify(rhs), "==", None, because))
        return self

    def leq(
        self, name: str, lhs: sp.Expr, rhs: sp.Expr, *, slack: sp.Expr, because: str
    ) -> Derivation:
        """``lhs <= rhs`` because ``rhs - lhs == slack`` and ``slack >= 0``."""
        self.steps.append(Step(name, sp.sympify(lhs), sp.sympify(rhs), "<=",
                               sp.sympify(slack), because))
        return self

    def geq(
        self, name: str, lhs: sp.Expr, rhs: sp.Expr, *, slack: sp.Expr, because: str
    ) -> Derivation:
        """``lhs >= rhs`` because ``lhs - rhs == slack`` and ``slack >= 0``."""
        self.steps.append(Step(name, sp.sympify(lhs), sp.sympify(rhs), ">=",
                               sp.sympify(slack), because))
        return self

    def check_step(self, step: Step) -> str:
        """Return '' if the step holds, else a description of why it fails."""
        if step.relation == "==":
            ok = _is_zero(step.lhs - step.rhs)
            if ok is True:
                return ""
            diff = sp.simplify(step.lhs - step.rhs)
            return f"lhs - rhs simplifies to {diff}, not 0"
        gap = step.rhs - step.lhs if step.relation == "<=" else step.lhs - step.rhs
        assert step.slack is not None
        if _is_zero(gap - step.slack) is not True:
            return (
                f"the stated slack {step.slack} is not the gap "
                f"{sp.simplify(gap)} (difference {sp.simplify(gap - step.slack)})"
            )
        nonneg = sp.simplify(step.slack).is_nonnegative
        if nonneg is not True:
            return f"slack {step.slack} is not provably non-negative from the assumptions"
        return ""

    def verify(self) -> None:
        """Check every step in order; raise AssertionError at the first failure."""
        for i, step in enumerate(self.steps, 1):
            problem = self.check_step(step)
            if problem:
                rel = {"==": "=", "<=": "<=", ">=": ">="}[step.relation]
                raise AssertionError(
                    f"{self.title}: step {i} ({step.name}) fails: "
                    f"{step.lhs} {rel} {step.rhs}: {problem}"
                )
        evidence.record("steps checked", len(self.steps))
        evidence.note(f"{self.title}: all {len(self.steps)} steps checked with sympy")
