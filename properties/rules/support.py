"""Independent references and check bodies of the rule-learning claims (003 Ch. 13).

No claims are registered here. Nothing below calls :mod:`algorithms.rules` to compute a
reference: literal languages, rule coverage and decision-list predictions by explicit
loops over samples; one-way matching by positions (paths) instead of recursion on
terms; generalisations by enumerating every term (or clause) of a small language;
theta-subsumption by trying every substitution into the target's terms; FOIL bindings
by trying every assignment of constants to the clause's variables; and Quinlan's gain
from those counts with ``math.log2``.
"""

from __future__ import annotations

import functools
import itertools
import math
from collections.abc import Sequence

import numpy as np

from algorithms.rules import Clause, Compound, Literal, Var

__all__ = [
    "brute_bindings",
    "brute_literals",
    "clause_language",
    "criterion_value",
    "generalises",
    "list_predict",
    "positions",
    "quinlan_gain",
    "subsumes_brute",
    "term_language",
    "variant",
]


# ---------------------------------------------------------------------------
# Propositional rules
# ---------------------------------------------------------------------------


def brute_literals(X: np.ndarray, categorical: Sequence[int]) -> list[tuple[int, str, float]]:
    """The literal language of a table, by loops: x_j <= t and x_j > t at midpoints of
    consecutive distinct values of numeric columns, x_j == v for discrete ones."""
    out = []
    for j in range(X.shape[1]):
        vals = sorted(set(X[:, j].tolist()))
        if j in categorical:
            out += [(j, "==", v) for v in vals]
        else:
            for lo, hi in zip(vals[:-1], vals[1:], strict=True):
                t = (lo + hi) / 2.0
                out += [(j, "<=", t), (j, ">", t)]
    return out


def _holds(lit: tuple[int, str, float], x: np.ndarray) -> bool:
    j, op, v = lit
    return bool(x[j] <= v) if op == "<=" else bool(x[j] > v) if op == ">" else bool(x[j] == v)


def rule_covers(conditions: Sequence, x: np.ndarray) -> bool:
    """Whether sample ``x`` satisfies every condition (feature, operator, value)."""
    return all(_holds((c.feature, c.operator, c.value), x) for c in conditions)


def list_predict(rules: Sequence, default: object, X: np.ndarray) -> list:
    """Decision-list prediction by loops: the first covering rule's class, else default."""
    out = []
    for x in X:
        label = default
        for r in rules:
            if rule_covers(r.conditions, x):
                label = r.prediction
                break
        out.append(label)
    return out


def criterion_value(criterion: str, p0: int, n0: int, p1: int, n1: int) -> float:
    """A literal's quality from its counts (written out from the definitions)."""
    if criterion == "foil_gain":
        return quinlan_gain(p0, n0, p1, n1, p1)
    if criterion == "precision":
        return p1 / (p1 + n1)
    return (p1 + 1) / (p1 + n1 + 2)


# ---------------------------------------------------------------------------
# Terms: positions, matching, enumeration
# ---------------------------------------------------------------------------


@functools.lru_cache(maxsize=65536)
def positions(t: object) -> dict[tuple, object]:
    """Every position of a term (a path of argument indices) and the subterm there
    (cached: terms are immutable; callers must not modify the returned dict)."""
    out = {(): t}
    if isinstance(t, Compound):
        for i, a in enumerate(t.args):
            for path, sub in positions(a).items():
                out[(i, *path)] = sub
    return out


def _symbol(t: object) -> object:
    if isinstance(t, Compound):
        return ("functor", t.functor, len(t.args))
    return ("leaf", type(t).__name__, t)


def generalises(g: object, s: object) -> bool:
    """Whether ``g theta = s`` for some substitution of ``g``'s variables, decided by
    positions: wherever g has a non-variable symbol s has the same symbol, and all the
    positions of one variable of g carry equal subterms of s (``s``'s variables are
    rigid). Works for terms and for literals (predicate, sign, arity as the root)."""
    if isinstance(g, Literal) or isinstance(s, Literal):
        if not (isinstance(g, Literal) and isinstance(s, Literal)):
            return False
        if (g.predicate, g.negated, len(g.args)) != (s.predicate, s.negated, len(s.args)):
            return False
        g, s = Compound("#", g.args) if g.args else "#", Compound("#", s.args) if s.args \
            else "#"
    pg, ps = positions(g), positions(s)
    binding: dict = {}
    for path, sub in pg.items():
        if path not in ps:
            return False
        if isinstance(sub, Var):
            if binding.setdefault(sub, ps[path]) != ps[path]:
                return False
        elif _symbol(sub) != _symbol(ps[path]):
            return False
    return True


def variant(a: object, b: object) -> bool:
    """Equal up to a renaming of variables (each generalises the other)."""
    return generalises(a, b) and generalises(b, a)


@functools.cache
def term_language(depth: int, n_vars: int) -> tuple:
    """Every term of depth <= ``depth`` over f/2, g/1, a, b and variables G0..G{n-1}."""
    level = ("a", "b", *(Var(f"G{i}") for i in range(n_vars)))
    for _ in range(depth):
        nxt = list(dict.fromkeys((
            *level, *(Compound("g", (s,)) for s in level),
            *(Compound("f", (s, t)) for s in level for t in level))))
        level = tuple(nxt)
    return level


# ---------------------------------------------------------------------------
# Clauses
# ---------------------------------------------------------------------------


def subsumes_brute(c: Clause, d: Clause) -> bool:
    """Whether some substitution of ``c``'s variables maps every literal of ``c`` into
    ``d``: an exhaustive search that assigns each literal of ``c`` (in a fixed order) every
    literal of ``d`` in turn, keeping the variable bindings the positions force."""
    lits = sorted(c.literals, key=repr)
    targets = sorted(d.literals, key=repr)

    def bind(g: Literal, s: Literal, theta: dict) -> dict | None:
        if (g.predicate, g.negated, len(g.args)) != (s.predicate, s.negated, len(s.args)):
            return None
        out = dict(theta)
        for ga, sa in zip(g.args, s.args, strict=True):
            for path, sub in positions(ga).items():
                here = positions(sa).get(path)
                if here is None:
                    return None
                if isinstance(sub, Var):
                    if out.setdefault(sub, here) != here:
                        return None
                elif _symbol(sub) != _symbol(here):
                    return None
        return out

    def search(i: int, theta: dict) -> bool:
        if i == len(lits):
            return True
        return any(search(i + 1, t2) for s in targets
                   if (t2 := bind(lits[i], s, theta)) is not None)

    return search(0, {})


@functools.cache
def clause_language(max_literals: int = 2) -> tuple:
    """Every clause of 1..max_literals literals p(s, t), q(s) over a, b, c and G0, G1."""
    args = ("a", "b", "c", Var("G0"), Var("G1"))
    lits = [Literal("p", (s, t)) for s in args for t in args] + \
        [Literal("q", (s,)) for s in args]
    out = []
    for k in range(1, max_literals + 1):
        out += [Clause(frozenset(combo)) for combo in itertools.combinations(lits, k)]
    return tuple(out)


# ---------------------------------------------------------------------------
# FOIL
# ---------------------------------------------------------------------------


def brute_bindings(facts: dict, head: Literal, body: Sequence[Literal],
                   examples: Sequence[tuple], constants: Sequence) -> set[frozenset]:
    """All bindings, each a frozenset of (variable, constant) pairs: for
    each example, the head variables take the example's values (when consistent) and
    every assignment of constants to the other variables is tried; it is kept when every
    body literal holds (a negated one: its ground atom is not a fact)."""
    head_vars = {a for a in head.args if isinstance(a, Var)}
    rest = sorted({a for lit in body for a in lit.args if isinstance(a, Var)} - head_vars)
    out = set()
    for e in set(examples):
        theta: dict = {}
        ok = True
        for a, v in zip(head.args, e, strict=True):
            if isinstance(a, Var):
                ok = ok and theta.setdefault(a, v) == v
            else:
                ok = ok and a == v
        if not ok:
            continue
        for values in itertools.product(constants, repeat=len(rest)):
            full = {**theta, **dict(zip(rest, values, strict=True))}
            if all((tuple(full.get(a, a) for a in lit.args) in facts[lit.predicate])
                   != lit.negated for lit in body):
                out.add(frozenset(full.items()))
    return out


def quinlan_gain(p0: int, n0: int, p1: int, n1: int, t: int) -> float:
    """Quinlan's FOIL gain t (log2 p1/(p1+n1) - log2 p0/(p0+n0)), 0 when t = 0."""
    if t == 0:
        return 0.0
    return t * (math.log2(p1 / (p1 + n1)) - math.log2(p0 / (p0 + n0)))
