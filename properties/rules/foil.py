"""FOIL: first-order rule learning with FOIL gain (003 §13.4).

The notes give the section heading only (no formula), so the gain is Quinlan's (1990):
``Gain(L) = t (log2 p1/(p1+n1) - log2 p0/(p0+n0))`` over counts of *bindings* (the
substitutions of all the clause's variables that satisfy its body on an example), with
``t`` the positive bindings of the clause that still extend after adding ``L``. The
claims recompute every count by enumerating assignments of constants to the clause's
variables (:func:`properties.rules.support.brute_bindings`) and the gain with
``math.log2``.
"""

from __future__ import annotations

import dataclasses
import itertools
import math
from collections.abc import Callable

import numpy as np
from hypothesis import example, given
from hypothesis import strategies as st

from algorithms.rules import (
    FOIL,
    HornClause,
    KnowledgeBase,
    Literal,
    Var,
    clause_bindings,
    foil_gain,
    literal_gain,
)
from mltheory import Method, claim, evidence
from mltheory.numeric import Tolerance, assert_close
from properties.rules.strategies import FoilProblem, foil_problems
from properties.rules.support import brute_bindings, quinlan_gain

#: Gains are sums of a few log2 of ratios of small counts; two evaluation orders agree to
#: a few ulps of the largest term (<= t log2(p0 + n0) < 1e3 here).
GAIN_ROUNDING = Tolerance(rtol=1e-12, atol=1e-12,
                          reason="log2 of ratios of counts < 1e3, evaluated in two orders")

X0, X1, Z0 = Var("X0"), Var("X1"), Var("Z0")
#: Quinlan-style family example: parent/2 and the grandparent target; the first literal
#: parent(X0, Z0) introduces a new variable, so one example (ann, cid) has two bindings
#: and t = 4 < p1 = 5 (hand-derived gain 4 log2(1.5) = 2.339850...).
FAMILY = {"parent": {("ann", "bob"), ("bob", "cid"), ("bob", "dan"), ("cid", "eve"),
                     ("eve", "fay")}}
GRANDPARENT = frozenset({("ann", "cid"), ("ann", "dan"), ("bob", "eve"), ("cid", "fay")})


def _restrict(binding: frozenset, names: set) -> frozenset:
    return frozenset((v, c) for v, c in binding if v in names)


def check_gain_counts(gain: Callable, problem: FoilProblem) -> tuple[int, int]:
    """literal_gain's counts (p0, n0, p1, n1, t) and gain against the enumeration; the
    bindings of clause_bindings against the enumeration. Returns (t, p1)."""
    kb, clause, lit = problem.kb, problem.clause, problem.literal
    consts = kb.constants
    old_vars = {a for x in (clause.head, *clause.body) for a in x.args if isinstance(a, Var)}
    body1 = (*clause.body, lit)
    b0p = brute_bindings(problem.facts, clause.head, clause.body, problem.positives, consts)
    b0n = brute_bindings(problem.facts, clause.head, clause.body, problem.negatives, consts)
    b1p = brute_bindings(problem.facts, clause.head, body1, problem.positives, consts)
    b1n = brute_bindings(problem.facts, clause.head, body1, problem.negatives, consts)
    got = {frozenset(b.items()) for b in clause_bindings(kb, clause, problem.positives)}
    assert got == b0p, "clause_bindings differs from the enumerated bindings"
    if not b0p:
        try:
            gain(kb, clause, lit, problem.positives, problem.negatives)
        except ValueError:
            return 0, 0
        raise AssertionError("p0 = 0 (no positive binding) was not refused")
    t = len({_restrict(b, old_vars) for b in b1p})
    want = (len(b0p), len(b0n), len(b1p), len(b1n), t)
    g = gain(kb, clause, lit, problem.positives, problem.negatives)
    assert (g.p0, g.n0, g.p1, g.n1, g.t) == want, f"counts {g}, enumerated {want}"
    assert_close(g.gain, quinlan_gain(*want), GAIN_ROUNDING, context="FOIL gain")
    new_var = any(isinstance(a, Var) and a not in old_vars for a in lit.args)
    if not new_var:
        assert t == len(b1p) <= len(b0p), "without a new variable t must equal p1 <= p0"
    return t, len(b1p)


#: A relation with two reflexive pairs and one other: p(W, W) holds for W = a and W = b.
REFLEXIVE = {"p": {("a", "a"), ("a", "b"), ("b", "b")}}


@claim(
    id="foil.gain_counts",
    source="003 §13.4; Quinlan 1990, Machine Learning 5, §3 (FOIL gain)",
    statement="FOIL gain of a literal L added to a clause is t (log2 p1/(p1+n1) - "
    "log2 p0/(p0+n0)) with p, n counting positive/negative bindings (substitutions of all "
    "clause variables satisfying the body) before (0) and after (1) adding L, and t the "
    "positive bindings before L that extend after it; without a new variable t = p1 <= "
    "p0, with one t <= p1 and the bindings can multiply.",
    method=Method.ENUMERATION,
    tags=("rules", "foil"),
)
@given(problem=foil_problems())
@example(problem=FoilProblem(
    FAMILY, KnowledgeBase(FAMILY), HornClause(Literal("gp", (X0, X1)), ()),
    Literal("parent", (X0, Z0)), GRANDPARENT,
    frozenset((a, b) for a in "ann bob cid dan eve fay".split()
              for b in "ann bob cid dan eve fay".split()) - GRANDPARENT))
# one new variable in both places of a literal: only the facts p(c, c) extend a binding
@example(problem=FoilProblem(
    REFLEXIVE, KnowledgeBase(REFLEXIVE), HornClause(Literal("t", (X0, X1)), ()),
    Literal("p", (Var("W"), Var("W"))), frozenset({("a", "b")}), frozenset({("b", "a")})))
def gain_counts(problem):
    t, p1 = check_gain_counts(literal_gain, problem)
    evidence.worst("positive bindings per surviving old binding (p1 / t)",
                   p1 / t if t else 0.0)


def check_gain_formula(gain: Callable, p0: int, n0: int, p1: int, n1: int, t: int) -> float:
    """foil_gain against the formula, its ceiling t log2((p0+n0)/p0) (attained iff n1 = 0),
    zero for a literal that changes nothing, and its sign (that of the precision change)."""
    g = float(gain(p0, n0, p1, n1, t))
    assert_close(g, quinlan_gain(p0, n0, p1, n1, t), GAIN_ROUNDING, context="FOIL gain")
    ceiling = t * math.log2((p0 + n0) / p0)
    assert g <= ceiling + 1e-9, f"gain {g} above t log2((p0+n0)/p0) = {ceiling}"
    if t and n1 == 0:
        assert_close(g, ceiling, GAIN_ROUNDING, context="gain of a literal excluding negatives")
    if t:
        before, after = p0 / (p0 + n0), p1 / (p1 + n1)
        assert np.sign(round(g, 9)) == np.sign(round(after - before, 12)), (
            f"gain {g} has not the sign of the precision change {after - before}")
    same = float(gain(p0, n0, p0, n0, p0))
    assert abs(same) <= 1e-12, f"a literal that keeps every binding gains {same}"
    return g / ceiling if ceiling else 0.0


@st.composite
def gain_counts_draw(draw):
    p0 = draw(st.integers(1, 60))
    n0 = draw(st.integers(0, 60))
    p1 = draw(st.integers(0, 120))
    n1 = draw(st.integers(0, 120))
    t = 0 if p1 == 0 else draw(st.integers(1, min(p0, p1)))
    return p0, n0, p1, n1, t


@claim(
    id="foil.gain_formula",
    source="003 §13.4; Quinlan 1990, Machine Learning 5, §3 (FOIL gain)",
    statement="FOIL gain t (log2 p1/(p1+n1) - log2 p0/(p0+n0)) is at most "
    "t log2((p0+n0)/p0), attained exactly when the literal excludes every negative "
    "binding; it is 0 for a literal keeping every binding and has the sign of the change "
    "in the share of positive bindings (hand-derived: (4, 32, 5, 25, 4) gives 4 log2 1.5).",
    method=Method.PROPERTY,
    tags=("rules", "foil"),
)
@given(counts=gain_counts_draw())
@example(counts=(4, 32, 5, 25, 4))
@example(counts=(5, 25, 4, 0, 4))
def gain_formula(counts):
    ratio = check_gain_formula(foil_gain, *counts)
    if counts == (4, 32, 5, 25, 4):
        assert_close(float(foil_gain(*counts)), 4 * math.log2(1.5), GAIN_ROUNDING,
                     context="hand-derived gain")
    evidence.worst("gain / ceiling t log2((p0+n0)/p0)", ratio)


def check_foil(learner: FOIL, problem: FoilProblem, closed_world: bool = False) -> None:
    """Each learned clause covers no negative example and at least one positive left by
    the earlier clauses (enumerated bindings); rounds <= |positives|; uncovered_ and
    predict agree with the enumeration; the recorded gains are recomputed on each prefix;
    the recorded covering trace counts what was left and covered in each round. With
    ``closed_world`` FOIL gets no negatives and must treat every other pair of constants
    as one."""
    facts, kb = problem.facts, problem.kb
    consts = kb.constants
    if closed_world:  # negatives=None: every other tuple of constants is negative
        negatives = frozenset(itertools.product(consts, repeat=2)) - problem.positives
        problem = dataclasses.replace(problem, negatives=negatives)
        learner.fit(kb, "t", problem.positives)
    else:
        learner.fit(kb, "t", problem.positives, problem.negatives)
    remaining = set(problem.positives)
    assert learner.n_rounds_ <= len(problem.positives)
    trace = learner.covering_trace_
    assert len(learner.clauses_) <= len(trace) <= len(learner.clauses_) + 1, (
        "covering_trace_: one entry per kept clause, plus the round that kept none")
    for c, gains, step in zip(learner.clauses_, learner.gain_history_, trace, strict=False):
        assert step["remaining"] == len(remaining), f"trace {step}: {len(remaining)} left"
        neg = brute_bindings(facts, c.head, c.body, problem.negatives, consts)
        assert not neg, f"{c} covers negatives"
        cov = {e for e in remaining if brute_bindings(facts, c.head, c.body, [e], consts)}
        assert cov, f"{c} covers no remaining positive"
        assert step["covered"] == len(cov), f"trace {step}: the clause covers {len(cov)}"
        for k, g in enumerate(gains):
            prefix = HornClause(c.head, c.body[:k])
            pos_k = sorted(remaining, key=repr)
            again = literal_gain(kb, prefix, c.body[k], pos_k, problem.negatives)
            assert again == g, f"recorded gain {g} of {c.body[k]}, recomputed {again}"
            assert g.gain > 0, f"a literal with gain {g.gain} <= 0 was added"
        remaining -= cov
    if len(trace) > len(learner.clauses_):
        assert trace[-1]["remaining"] == len(remaining), f"last trace entry {trace[-1]}"
    assert learner.uncovered_ == frozenset(remaining), "uncovered_ differs"
    probe = sorted(problem.positives | problem.negatives, key=repr)
    want = [any(brute_bindings(facts, c.head, c.body, [e], consts)
                for c in learner.clauses_) for e in probe]
    assert list(learner.predict(probe)) == want, "predict differs from the enumeration"
    evidence.worst("share of positives left uncovered",
                   len(remaining) / len(problem.positives))


@claim(
    id="foil.covering",
    source="003 §13.4; 003 §13.2",
    statement="FOIL is sequential covering with first-order clauses: every clause it keeps "
    "covers no negative example and at least one positive example not covered before, so "
    "it stops within |positives| rounds; each literal it adds has positive FOIL gain on "
    "the positives still uncovered.",
    method=Method.PROPERTY,
    tags=("rules", "foil"),
)
@given(problem=foil_problems(), body=st.integers(1, 2), defined=st.booleans(),
       closed_world=st.booleans())
def covering(problem, body, defined, closed_world):
    if defined:
        problem = defined_by_clause(problem)
    learner = FOIL(max_body_length=body)
    check_foil(learner, problem, closed_world)
    if defined:
        evidence.worst("share of positives covered when a definition exists",
                       1 - len(learner.uncovered_) / len(problem.positives),
                       larger_is_worse=False)


def defined_by_clause(problem: FoilProblem) -> FoilProblem:
    """The same knowledge base and example pool, labelled by the problem's own clause
    extended by its literal (so a definition exists in FOIL's language), when that leaves
    a positive; otherwise the problem unchanged."""
    pool = problem.positives | problem.negatives
    head, body = problem.clause.head, (*problem.clause.body, problem.literal)
    pos = frozenset(e for e in pool if brute_bindings(problem.facts, head, body, [e],
                                                      problem.kb.constants))
    if not pos:
        return problem
    return dataclasses.replace(problem, positives=pos, negatives=pool - pos)
