"""First-order terms, literals and clauses; least general generalisation (003 §13.5.1).

Terms are constants (``str`` or ``int``), variables (:class:`Var`) and compound terms
(:class:`Compound`, a functor applied to argument terms). A literal applies a predicate
to argument terms, possibly negated; a clause is a finite set of literals.

Generalisation order: ``g`` is more general than ``s`` when a substitution ``theta`` of
``g``'s variables makes ``g theta = s`` (for terms and literals), or ``g theta`` a
subset of ``s`` (theta-subsumption of clauses). The least general generalisation (LGG,
Plotkin's anti-unification) of two terms keeps what they share and replaces each pair of
differing subterms ``(s_i, t_i)`` by a variable, the same variable for the same pair
everywhere; the LGG of two clauses is the set of LGGs of their compatible literal pairs
(same predicate, sign and arity), computed with one shared table of pairs.
"""

from __future__ import annotations

import itertools
import numbers
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

__all__ = [
    "Clause",
    "Compound",
    "Literal",
    "Var",
    "lgg_clauses",
    "lgg_literals",
    "lgg_terms",
    "match",
    "substitute",
    "theta_subsumes",
]

#: Nesting depth of terms accepted at the public boundary (recursion stays far from
#: Python's limit of 1000 frames).
MAX_TERM_DEPTH = 200


@dataclass(frozen=True, order=True)
class Var:
    """A logical variable, identified by its name."""

    name: str

    def __str__(self) -> str:
        return self.name


@dataclass(frozen=True)
class Compound:
    """A compound term ``functor(args...)`` (at least one argument)."""

    functor: str
    args: tuple

    def __str__(self) -> str:
        return f"{self.functor}({', '.join(_show(a) for a in self.args)})"


@dataclass(frozen=True)
class Literal:
    """``predicate(args...)``, negated when ``negated`` is true."""

    predicate: str
    args: tuple
    negated: bool = False

    def __str__(self) -> str:
        core = f"{self.predicate}({', '.join(_show(a) for a in self.args)})"
        return f"not {core}" if self.negated else core


@dataclass(frozen=True)
class Clause:
    """A clause: a finite set of literals (their disjunction)."""

    literals: frozenset

    def __str__(self) -> str:
        return "{" + ", ".join(sorted(str(x) for x in self.literals)) + "}"


def _show(t: object) -> str:
    return repr(t) if isinstance(t, str) else str(t)


# ---------------------------------------------------------------------------
# Validation
# ---------------------------------------------------------------------------


def is_constant(t: object) -> bool:
    """A constant: a ``str`` or a (non-boolean) integer."""
    return isinstance(t, str) or (isinstance(t, numbers.Integral)
                                  and not isinstance(t, bool))


def check_term(t: object, name: str, depth: int = 0) -> object:
    """``t`` if it is a well-formed term; ValueError naming ``name`` otherwise."""
    if depth > MAX_TERM_DEPTH:
        raise ValueError(f"{name} is nested deeper than {MAX_TERM_DEPTH} levels.")
    if isinstance(t, Var):
        if not isinstance(t.name, str) or not t.name:
            raise ValueError(f"{name} contains a variable without a non-empty str name: "
                             f"{t!r}.")
        return t
    if isinstance(t, Compound):
        if not isinstance(t.functor, str) or not t.functor:
            raise ValueError(f"{name} contains a compound term without a str functor: {t!r}.")
        if not isinstance(t.args, tuple) or not t.args:
            raise ValueError(f"{name} contains a compound term whose args are not a "
                             f"non-empty tuple: {t!r}.")
        for a in t.args:
            check_term(a, name, depth + 1)
        return t
    if is_constant(t):
        return t
    raise ValueError(f"{name} must be built from constants (str or int), Var and Compound "
                     f"terms, got {t!r} of type {type(t).__name__}.")


def check_literal(a: object, name: str) -> Literal:
    """``a`` if it is a well-formed literal."""
    if not isinstance(a, Literal):
        raise ValueError(f"{name} must be a Literal, got {a!r}.")
    if not isinstance(a.predicate, str) or not a.predicate:
        raise ValueError(f"{name} must have a non-empty str predicate, got {a.predicate!r}.")
    if not isinstance(a.args, tuple):
        raise ValueError(f"{name} must have a tuple of argument terms, got {a.args!r}.")
    if not isinstance(a.negated, bool):
        raise ValueError(f"{name}.negated must be True or False, got {a.negated!r}.")
    for t in a.args:
        check_term(t, name)
    return a


def check_clause(c: object, name: str) -> Clause:
    """``c`` if it is a clause of well-formed literals."""
    if not isinstance(c, Clause) or not isinstance(c.literals, frozenset):
        raise ValueError(f"{name} must be a Clause (a frozenset of Literal), got {c!r}.")
    for lit in c.literals:
        check_literal(lit, name)
    return c


def variables(t: object) -> set[Var]:
    """The variables occurring in a term, literal or clause."""
    if isinstance(t, Var):
        return {t}
    if isinstance(t, Compound | Literal):
        return set().union(*(variables(a) for a in t.args)) if t.args else set()
    if isinstance(t, Clause):
        return set().union(*(variables(x) for x in t.literals)) if t.literals else set()
    return set()


# ---------------------------------------------------------------------------
# Substitution and matching
# ---------------------------------------------------------------------------


def _subst(t: object, theta: Mapping) -> object:
    if isinstance(t, Var):
        return theta.get(t, t)
    if isinstance(t, Compound):
        return Compound(t.functor, tuple(_subst(a, theta) for a in t.args))
    if isinstance(t, Literal):
        return Literal(t.predicate, tuple(_subst(a, theta) for a in t.args), t.negated)
    if isinstance(t, Clause):
        return Clause(frozenset(_subst(x, theta) for x in t.literals))
    return t


def substitute(t: object, theta: Mapping) -> object:
    """``t theta``: every variable ``v`` of a term, literal or clause replaced by
    ``theta[v]`` (simultaneously; variables outside ``theta`` stay)."""
    if not isinstance(theta, Mapping):
        raise ValueError(f"theta must be a mapping from Var to terms, got {theta!r}.")
    for k, v in theta.items():
        if not isinstance(k, Var):
            raise ValueError(f"theta must map Var keys, got key {k!r}.")
        check_term(v, "theta")
    _check_any(t, "t")
    return _subst(t, theta)


def _check_any(t: object, name: str) -> None:
    if isinstance(t, Literal):
        check_literal(t, name)
    elif isinstance(t, Clause):
        check_clause(t, name)
    else:
        check_term(t, name)


def _match(g: object, s: object, theta: dict) -> bool:
    """Extend ``theta`` so that ``g theta == s`` (one-way matching); False if impossible."""
    if isinstance(g, Var):
        if g in theta:
            return theta[g] == s
        theta[g] = s
        return True
    if isinstance(g, Compound):
        return (isinstance(s, Compound) and s.functor == g.functor
                and len(s.args) == len(g.args)
                and all(_match(a, b, theta) for a, b in zip(g.args, s.args, strict=True)))
    if isinstance(g, Literal):
        return (isinstance(s, Literal) and (s.predicate, s.negated, len(s.args))
                == (g.predicate, g.negated, len(g.args))
                and all(_match(a, b, theta) for a, b in zip(g.args, s.args, strict=True)))
    return type(g) is type(s) and g == s


def match(general: object, specific: object) -> dict | None:
    """A substitution ``theta`` with ``general theta == specific`` (terms or literals),
    or None when ``general`` is not more general than ``specific``. The variables of
    ``specific`` are treated as constants."""
    for x, name in ((general, "general"), (specific, "specific")):
        if isinstance(x, Literal):
            check_literal(x, name)
        else:
            check_term(x, name)
    theta: dict = {}
    return theta if _match(general, specific, theta) else None


def theta_subsumes(c: object, d: object) -> dict | None:
    """A substitution ``theta`` with ``c theta`` a subset of ``d`` (c theta-subsumes d),
    or None. Backtracking search over the literal matches of ``c``'s literals."""
    check_clause(c, "c")
    check_clause(d, "d")
    lits = sorted(c.literals, key=lambda x: (-len(variables(x)), str(x)))
    targets = list(d.literals)

    def search(i: int, theta: dict) -> dict | None:
        if i == len(lits):
            return theta
        for t in targets:
            trial = dict(theta)
            if _match(lits[i], t, trial):
                found = search(i + 1, trial)
                if found is not None:
                    return found
        return None

    return search(0, {})


# ---------------------------------------------------------------------------
# Least general generalisation
# ---------------------------------------------------------------------------


class _Pairs:
    """The table of differing subterm pairs and their variables, shared by one LGG."""

    def __init__(self, taken: set[str]) -> None:
        self.table: dict = {}
        self.taken = taken
        self.counter = itertools.count()

    def var(self, s: object, t: object) -> Var:
        key = (type(s).__name__, s, type(t).__name__, t)
        if key not in self.table:
            name = f"V{next(self.counter)}"
            while name in self.taken:
                name = f"V{next(self.counter)}"
            self.taken.add(name)
            self.table[key] = Var(name)
        return self.table[key]


def _lgg(s: object, t: object, pairs: _Pairs) -> object:
    if type(s) is type(t) and s == t:
        return s
    if (isinstance(s, Compound) and isinstance(t, Compound) and s.functor == t.functor
            and len(s.args) == len(t.args)):
        return Compound(s.functor, tuple(_lgg(a, b, pairs)
                                         for a, b in zip(s.args, t.args, strict=True)))
    return pairs.var(s, t)


def _names(*xs: object) -> set[str]:
    return {v.name for x in xs for v in variables(x)}


def lgg_terms(s: object, t: object) -> object:
    """The least general generalisation of two terms.

    Equal terms generalise to themselves; compound terms with the same functor and arity
    generalise argument-wise; any other pair ``(s', t')`` becomes one variable, the same
    for every occurrence of that pair. Fresh variables are named ``V0, V1, ...``,
    skipping names used in ``s`` or ``t``.
    """
    check_term(s, "s")
    check_term(t, "t")
    return _lgg(s, t, _Pairs(_names(s, t)))


def _compatible(a: Literal, b: Literal) -> bool:
    return (a.predicate, a.negated, len(a.args)) == (b.predicate, b.negated, len(b.args))


def lgg_literals(a: object, b: object) -> Literal:
    """The LGG of two literals with the same predicate, sign and arity."""
    check_literal(a, "a")
    check_literal(b, "b")
    if not _compatible(a, b):
        raise ValueError(f"a and b must have the same predicate, sign and arity to have "
                         f"an LGG, got {a} and {b}.")
    pairs = _Pairs(_names(a, b))
    return Literal(a.predicate, tuple(_lgg(x, y, pairs) for x, y in
                                      zip(a.args, b.args, strict=True)), a.negated)


def lgg_clauses(c: object, d: object) -> Clause:
    """Plotkin's LGG of two clauses: the LGGs of all compatible literal pairs, with one
    table of subterm pairs for the whole clause (it may be empty, and is not reduced)."""
    check_clause(c, "c")
    check_clause(d, "d")
    pairs = _Pairs(_names(c, d))
    out = set()
    key = str  # a fixed pair order makes the variable names deterministic
    for a in sorted(c.literals, key=key):
        for b in sorted(d.literals, key=key):
            if _compatible(a, b):
                out.add(Literal(a.predicate, tuple(_lgg(x, y, pairs) for x, y in
                                                   zip(a.args, b.args, strict=True)),
                                a.negated))
    return Clause(frozenset(out))


def clause(literals: Iterable[Literal]) -> Clause:
    """Convenience constructor: a :class:`Clause` from an iterable of literals."""
    return Clause(frozenset(literals))
