"""Derivations as checked sequences of steps (for ``proofs/``).

A :class:`Derivation` is built step by step, each step relating two sympy
expressions. Equalities are checked by simplifying the difference to zero;
an inequality ``lhs <= rhs`` must come with a *slack*: an expression that
sympy can show is non-negative from the symbols' assumptions (a square, a
product of non-negative symbols, ...) and that equals ``rhs - lhs``. This is
the "stated sufficient condition": the assumptions on the symbols are the
conditions, and they appear in the report through the step's ``because``.
``identities`` (e.g. ``{y**2: 1}`` for a label in {-1, +1}) are applied after
expansion in every comparison.

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


def _reduce(expr, identities: dict):
    """Expand, apply the identities (e.g. {y**2: 1} for labels in {-1, +1}), simplify.
    Matrices are reduced entry by entry."""
    expr = sp.sympify(expr)
    if isinstance(expr, sp.MatrixBase):
        return expr.applyfunc(lambda e: _reduce(e, identities))
    expr = sp.expand(expr)
    if identities:
        expr = sp.expand(expr.subs(identities))
    return sp.simplify(expr)


def _is_zero(expr, identities: dict) -> bool:
    reduced = _reduce(expr, identities)
    if isinstance(reduced, sp.MatrixBase):
        return all(e == 0 or e.equals(0) is True for e in reduced)
    return reduced == 0 or reduced.equals(0) is True


@dataclass
class Derivation:
    """An ordered list of steps, each checked symbolically."""

    title: str
    identities: dict = field(default_factory=dict)
    steps: list[Step] = field(default_factory=list)

    def equal(self, name: str, lhs, rhs, *, because: str = "") -> Derivation:
        """``lhs == rhs`` (scalars or matrices of the same shape)."""
        self.steps.append(Step(name, sp.sympify(lhs), sp.sympify(rhs), "==", None, because))
        return self

    def _inequality(self, name, lhs, rhs, relation, slack, because) -> Derivation:
        self.steps.append(Step(name, sp.sympify(lhs), sp.sympify(rhs), relation,
                               sp.sympify(slack), because))
        return self

    def leq(
        self, name: str, lhs: sp.Expr, rhs: sp.Expr, *, slack: sp.Expr, because: str
    ) -> Derivation:
        """``lhs <= rhs`` because ``rhs - lhs == slack`` and ``slack >= 0``."""
        return self._inequality(name, lhs, rhs, "<=", slack, because)

    def geq(
        self, name: str, lhs: sp.Expr, rhs: sp.Expr, *, slack: sp.Expr, because: str
    ) -> Derivation:
        """``lhs >= rhs`` because ``lhs - rhs == slack`` and ``slack >= 0``."""
        return self._inequality(name, lhs, rhs, ">=", slack, because)

    def check_step(self, step: Step) -> str:
        """Return '' if the step holds, else a description of why it fails."""
        ids = self.identities
        if step.relation == "==":
            if _is_zero(step.lhs - step.rhs, ids):
                return ""
            return f"lhs - rhs simplifies to {_reduce(step.lhs - step.rhs, ids)}, not 0"
        gap = step.rhs - step.lhs if step.relation == "<=" else step.lhs - step.rhs
        slack = step.slack if step.slack is not None else sp.Integer(0)
        if not _is_zero(gap - slack, ids):
            return (
                f"the stated slack {slack} is not the gap {_reduce(gap, ids)} "
                f"(difference {_reduce(gap - slack, ids)})"
            )
        nonneg = sp.simplify(slack).is_nonnegative or _reduce(slack, ids).is_nonnegative
        if nonneg is not True:
            return f"slack {slack} is not provably non-negative from the assumptions"
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
