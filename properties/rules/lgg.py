"""Least general generalisation (003 §13.5-§13.5.1).

The notes name the topic (inductive logic programming, least general generalisation)
and give no text; the claims check the defining properties of Plotkin's LGG on
:func:`algorithms.rules.lgg_terms`, :func:`~algorithms.rules.lgg_literals` and
:func:`~algorithms.rules.lgg_clauses`: the LGG generalises both inputs (each is an
instance of it by a substitution), and it is *least*: every common generalisation
found by enumerating a small term (or clause) language is more general than it. The
generalisation order comes from :mod:`properties.rules.support` (matching by positions,
exhaustive subsumption search), not from the algorithms' own matcher.
"""

from __future__ import annotations

from collections.abc import Callable

from hypothesis import example, given

from algorithms.rules import (
    Clause,
    Compound,
    Literal,
    Var,
    lgg_clauses,
    lgg_literals,
    lgg_terms,
    match,
    substitute,
)
from mltheory import Method, claim, evidence
from properties.rules.strategies import clauses, terms
from properties.rules.support import (
    clause_language,
    generalises,
    subsumes_brute,
    term_language,
    variant,
)

#: The enumerated generalisations: every term of depth <= 2 over f/2, g/1, a, b and three
#: variables (1265 terms), and every atom p(s, t) with s, t of depth <= 1 over the same
#: signature (35 x 35 atoms).
TERM_DEPTH, TERM_VARS = 2, 3


def _f(*a):
    return Compound("f", a)


def _g(a):
    return Compound("g", (a,))


#: The same differing pair twice: the LGG must reuse one variable (f(V, V)), not two.
REPEATED_PAIR = (_f("a", "a"), _f("b", "b"))
#: A shared functor above differing leaves, and an input variable kept where both agree.
SHARED_FUNCTOR = (_f(_g("a"), Var("X")), _f(_g("b"), Var("X")))


def check_term_lgg(lgg: Callable, s: object, t: object, language: tuple) -> int:
    """LGG(s, t) generalises s and t, every enumerated common generalisation generalises
    it, it is symmetric up to renaming and idempotent. Returns the number of enumerated
    common generalisations."""
    out = lgg(s, t)
    assert generalises(out, s), f"lgg {out} does not generalise s = {s}"
    assert generalises(out, t), f"lgg {out} does not generalise t = {t}"
    theta = match(out, s)
    assert theta is not None and substitute(out, theta) == s, "no substitution lgg -> s"
    common = 0
    for g in language:
        if generalises(g, s) and generalises(g, t):
            common += 1
            assert generalises(g, out), (
                f"{g} generalises {s} and {t} but not their lgg {out}: the lgg is not least")
    assert variant(lgg(t, s), out), "lgg(t, s) is not a variant of lgg(s, t)"
    assert lgg(s, s) == s, "lgg(s, s) != s"
    return common


@claim(
    id="lgg.properties",
    source="003 §13.5.1",
    statement="The least general generalisation LGG(s, t) of two terms generalises both "
    "(s and t are instances of it by substitutions) and is least: every common "
    "generalisation of s and t is more general than it; it is unique up to renaming "
    "(symmetric) and LGG(s, s) = s.",
    method=Method.ENUMERATION,
    tags=("rules", "lgg"),
)
@given(s=terms(2), t=terms(2))
@example(s=REPEATED_PAIR[0], t=REPEATED_PAIR[1])
@example(s=SHARED_FUNCTOR[0], t=SHARED_FUNCTOR[1])
def properties(s, t):
    language = term_language(TERM_DEPTH, TERM_VARS)
    common = check_term_lgg(lgg_terms, s, t, language)
    evidence.worst("common generalisations enumerated", common)


def check_literal_lgg(lgg: Callable, a: Literal, b: Literal, language: tuple) -> int:
    """As :func:`check_term_lgg` for atoms with one shared table of pairs."""
    out = lgg(a, b)
    assert generalises(out, a) and generalises(out, b), f"{out} misses {a} or {b}"
    common = 0
    for g in language:
        if generalises(g, a) and generalises(g, b):
            common += 1
            assert generalises(g, out), f"{g} generalises {a}, {b} but not their lgg {out}"
    assert variant(lgg(b, a), out)
    return common


@claim(
    id="lgg.literals",
    source="003 §13.5.1",
    statement="For two atoms with the same predicate and arity, the LGG (argument-wise, "
    "with one variable per differing pair shared across all arguments) generalises both "
    "and is least among their common generalisations.",
    method=Method.ENUMERATION,
    tags=("rules", "lgg", "slow"),
)
@given(s=terms(1), t=terms(1), u=terms(1), v=terms(1))
@example(s="a", t="a", u="b", v="b")
@example(s=_g("a"), t="b", u=_g("b"), v="a")
def literals(s, t, u, v):
    args = term_language(1, TERM_VARS)
    language = tuple(Literal("p", (x, y)) for x in args for y in args)
    common = check_literal_lgg(lgg_literals, Literal("p", (s, t)), Literal("p", (u, v)),
                               language)
    evidence.worst("common generalisations enumerated", common)


def check_clause_lgg(lgg: Callable, c: Clause, d: Clause, language: tuple) -> int:
    """LGG(C, D) theta-subsumes C and D, and every enumerated clause subsuming both
    subsumes it (exhaustive subsumption search)."""
    out = lgg(c, d)
    assert subsumes_brute(out, c), f"lgg {out} does not subsume {c}"
    assert subsumes_brute(out, d), f"lgg {out} does not subsume {d}"
    common = 0
    for g in language:
        if subsumes_brute(g, c) and subsumes_brute(g, d):
            common += 1
            assert subsumes_brute(g, out), f"{g} subsumes {c} and {d} but not the lgg {out}"
    return common


@claim(
    id="lgg.clauses",
    source="003 §13.5.1",
    statement="The LGG of two clauses (the LGGs of all compatible literal pairs, one "
    "shared table of pairs) theta-subsumes both clauses and is subsumed by every clause "
    "that subsumes both (checked against every clause of one or two literals p/2, q/1 over "
    "three constants and two variables).",
    method=Method.ENUMERATION,
    tags=("rules", "lgg", "slow"),
)
@given(c=clauses(), d=clauses())
@example(c=Clause(frozenset({Literal("p", ("a", "b")), Literal("q", ("a",))})),
         d=Clause(frozenset({Literal("p", ("c", "c")), Literal("q", ("c",))})))
def clauses_lgg(c, d):
    common = check_clause_lgg(lgg_clauses, c, d, clause_language(2))
    evidence.worst("common generalisations enumerated", common)
