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


def positions(t: object, path: tuple = ()) -> dict[tuple, object]:
    """Every position of a term (a path of argument indices) and the subterm there."""
    out = {path: t}
    if isinstance(t, Compound):
        for i, a in enumerate(t.args):
            out.update(positions(a, (*path, i)))
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


def _terms_of(c: Clause) -> list:
    out = set()
    for lit in c.literals:
        for a in lit.args:
            out.update(positions(a).values())
    return sorted(out, key=repr)


def _vars_of(c: Clause) -> list[Var]:
    out = set()
    for lit in c.literals:
        for a in lit.args:
            out.update(v for v in positions(a).values() if isinstance(v, Var))
    return sorted(out)


def _apply(t: object, theta: dict) -> object:
    if isinstance(t, Var):
        return theta.get(t, t)
    if isinstance(t, Compound):
        return Compound(t.functor, tuple(_apply(a, theta) for a in t.args))
    return t


def subsumes_brute(c: Clause, d: Clause) -> bool:
    """Whether some substitution of ``c``'s variables by terms of ``d`` maps every literal
    of ``c`` into ``d``: all substitutions tried (those mapping into d need only d's
    subterms as values)."""
    vs, pool = _vars_of(c), _terms_of(d)
    if vs and not pool:
        return False
    for values in itertools.product(pool, repeat=len(vs)):
        theta = dict(zip(vs, values, strict=True))
        if all(Literal(x.predicate, tuple(_apply(a, theta) for a in x.args), x.negated)
               in d.literals for x in c.literals):
            return True
    return False


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
                   examples: Sequence[tuple], constants: Sequence) -> set[tuple]:
    """All (example, assignment) pairs: every assignment of constants to the clause's
    variables (ordered by name) that maps the head to an example and satisfies each body
    literal (negated ones: the ground atom is not a fact). Returned as tuples of values
    in variable-name order."""
    vs = sorted({a for lit in (head, *body) for a in lit.args if isinstance(a, Var)})
    out = set()
    exs = set(examples)
    for values in itertools.product(constants, repeat=len(vs)):
        theta = dict(zip(vs, values, strict=True))
        ground = tuple(theta.get(a, a) for a in head.args)
        if ground not in exs:
            continue
        ok = True
        for lit in body:
            atom = tuple(theta.get(a, a) for a in lit.args)
            if (atom in facts[lit.predicate]) == lit.negated:
                ok = False
                break
        if ok:
            out.add(values)
    return out


def quinlan_gain(p0: int, n0: int, p1: int, n1: int, t: int) -> float:
    """Quinlan's FOIL gain t (log2 p1/(p1+n1) - log2 p0/(p0+n0)), 0 when t = 0."""
    if t == 0:
        return 0.0
    return t * (math.log2(p1 / (p1 + n1)) - math.log2(p0 / (p0 + n0)))
