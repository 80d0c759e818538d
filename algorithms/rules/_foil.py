"""First-order rule learning with FOIL gain over a relational knowledge base (003 §13.4).

A knowledge base holds ground facts, one set of tuples of constants per predicate. A
Horn clause ``target(X, Y) <- l_1, ..., l_k`` has a head whose arguments are variables
or constants and a body of function-free literals (variables or constants as arguments)
over the knowledge base's predicates, evaluated left to right. Negated body literals are
allowed when they are *safe*: each of their variables already occurs in the head or in
an earlier positive literal (negation as failure on ground atoms).

Bindings. For an example ``e`` (a tuple of constants of the target's arity), a binding
of the clause is a substitution of all of the clause's variables that makes the head
equal to ``e`` and every body literal true. FOIL counts bindings, not examples: adding a
literal with a new variable can multiply the bindings of one example.

FOIL gain (Quinlan 1990). With ``p0, n0`` positive/negative bindings of the clause,
``p1, n1`` those of the clause extended by literal ``L``, and ``t`` the number of positive
bindings of the clause that have at least one extension among those of the extended
clause,

    Gain(L) = t * (log2(p1 / (p1 + n1)) - log2(p0 / (p0 + n0))),

and ``Gain(L) = 0`` when ``t = 0`` (no positive binding survives).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

import numpy as np

from algorithms._validation import check_bool, check_int
from algorithms.rules._lgg import Compound, Literal, Var, is_constant

__all__ = [
    "FOIL",
    "FoilGain",
    "HornClause",
    "KnowledgeBase",
    "clause_bindings",
    "foil_gain",
    "literal_gain",
]

#: Largest number of ground target tuples the closed-world assumption may enumerate.
MAX_CLOSED_WORLD = 100_000


def foil_gain(p0: object, n0: object, p1: object, n1: object, t: object) -> np.ndarray:
    """Quinlan's FOIL gain ``t (log2 p1/(p1+n1) - log2 p0/(p0+n0))`` (0 where t = 0).

    Arguments broadcast (numpy). Requires counts >= 0, ``p0 >= 1``, ``t <= min(p0, p1)``
    and ``t > 0`` exactly when ``p1 > 0`` (every positive binding after the literal
    extends one before it).
    """
    arrs = {}
    for name, v in (("p0", p0), ("n0", n0), ("p1", p1), ("n1", n1), ("t", t)):
        a = np.asarray(v)
        if a.dtype.kind not in "iuf":
            raise ValueError(f"{name} must be a count (a non-negative integer), got {v!r}.")
        if a.dtype.kind == "f" and not np.all(np.isfinite(a) & (a == np.round(a))):
            raise ValueError(f"{name} must hold non-negative integer counts, got {v!r}.")
        if np.any(a < 0):
            raise ValueError(f"{name} must be non-negative, got {v!r}.")
        arrs[name] = a.astype(np.float64)
    P0, N0, P1, N1, T = (arrs[k] for k in ("p0", "n0", "p1", "n1", "t"))
    if np.any(P0 < 1):
        raise ValueError("p0 must be >= 1: the clause before the literal must have a "
                         "positive binding.")
    if np.any(T > P0) or np.any(T > P1):
        raise ValueError("t must not exceed p0 or p1 (it counts positive bindings before "
                         "the literal that extend to positive bindings after it).")
    if np.any((T > 0) != (P1 > 0)):
        raise ValueError("t must be positive exactly when p1 is positive.")
    with np.errstate(divide="ignore", invalid="ignore"):
        after = np.log2(P1 / (P1 + N1))
        before = np.log2(P0 / (P0 + N0))
        gain = np.where(T > 0, T * (after - before), 0.0)
    return gain


@dataclass(frozen=True)
class FoilGain:
    """The counts of a candidate literal and its FOIL gain."""

    p0: int
    n0: int
    p1: int
    n1: int
    t: int
    gain: float


@dataclass(frozen=True)
class HornClause:
    """``head <- body[0], body[1], ...`` (function-free; body literals may be negated)."""

    head: Literal
    body: tuple = ()

    def variables(self) -> list[Var]:
        """The clause's variables in order of first occurrence (head, then body)."""
        seen: dict[Var, None] = {}
        for lit in (self.head, *self.body):
            for a in lit.args:
                if isinstance(a, Var):
                    seen.setdefault(a)
        return list(seen)

    def __str__(self) -> str:
        body = ", ".join(str(x) for x in self.body) or "true"
        return f"{self.head} <- {body}"


def _constant(v: object, name: str) -> object:
    if isinstance(v, Var | Compound) or not is_constant(v):
        raise ValueError(f"{name} must contain only constants (str or int); got {v!r} "
                         "(facts and examples are ground: no variables or compound terms).")
    return v


def _ground_tuples(items: object, name: str, arity: int | None = None
                   ) -> tuple[frozenset, int | None]:
    if isinstance(items, str | bytes) or not isinstance(items, Iterable):
        raise ValueError(f"{name} must be an iterable of tuples of constants, got {items!r}.")
    out = set()
    for f in items:
        if not isinstance(f, tuple):
            raise ValueError(f"{name} must contain tuples, got {f!r} of type "
                             f"{type(f).__name__}.")
        if arity is None:
            arity = len(f)
        if len(f) != arity:
            raise ValueError(f"{name} mixes arities: {f!r} has {len(f)} arguments, "
                             f"expected {arity}.")
        for v in f:
            _constant(v, name)
        out.add(f)
    return frozenset(out), arity


class KnowledgeBase:
    """Ground background facts: ``{predicate: iterable of tuples of constants}``.

    Every fact of a predicate has the same arity (at least 1); constants are ``str`` or
    ``int``. Refuses non-tuple facts, mixed arities and variables in facts.
    """

    def __init__(self, facts: Mapping) -> None:
        if not isinstance(facts, Mapping) or not facts:
            raise ValueError(f"facts must be a non-empty mapping predicate -> tuples, got "
                             f"{facts!r}.")
        self.facts: dict[str, frozenset] = {}
        self.arity: dict[str, int] = {}
        consts: set = set()
        for pred, tuples in facts.items():
            if not isinstance(pred, str) or not pred:
                raise ValueError(f"facts must be keyed by non-empty str predicate names, "
                                 f"got {pred!r}.")
            ground, arity = _ground_tuples(tuples, f"facts[{pred!r}]")
            if arity is None or arity < 1:
                raise ValueError(f"facts[{pred!r}] must hold at least one fact of arity >= 1.")
            self.facts[pred] = ground
            self.arity[pred] = arity
            for f in ground:
                consts.update(f)
        self.constants = tuple(sorted(consts, key=lambda c: (type(c).__name__, c)))
        self._index: dict = {}

    def lookup(self, predicate: str, bound: tuple[int, ...], values: tuple) -> list[tuple]:
        """Facts of ``predicate`` whose arguments at positions ``bound`` equal ``values``."""
        key = (predicate, bound)
        if key not in self._index:
            table: dict = {}
            for f in self.facts[predicate]:
                table.setdefault(tuple(f[i] for i in bound), []).append(f)
            self._index[key] = table
        return self._index[key].get(values, [])

    def __repr__(self) -> str:
        return f"KnowledgeBase({ {p: len(f) for p, f in self.facts.items()} })"


def _check_kb(kb: object) -> KnowledgeBase:
    if isinstance(kb, Mapping):
        try:
            return KnowledgeBase(kb)
        except ValueError as exc:
            raise ValueError(f"kb is not a valid knowledge base: {exc}") from exc
    if not isinstance(kb, KnowledgeBase):
        raise ValueError(f"kb must be a KnowledgeBase or a mapping of facts, got {kb!r}.")
    return kb


def _check_clause(clause: object, kb: KnowledgeBase, name: str = "clause") -> HornClause:
    """A well-formed, safe Horn clause over ``kb``'s predicates."""
    if not isinstance(clause, HornClause):
        raise ValueError(f"{name} must be a HornClause, got {clause!r}.")
    head = clause.head
    if not isinstance(head, Literal) or head.negated or not isinstance(head.args, tuple) \
            or not head.args:
        raise ValueError(f"{name}.head must be a positive Literal with arguments, got "
                         f"{head!r}.")
    if not isinstance(clause.body, tuple):
        raise ValueError(f"{name}.body must be a tuple of Literal, got {clause.body!r}.")
    if head.predicate in kb.facts:
        raise ValueError(f"{name}.head predicate {head.predicate!r} is a background "
                         "predicate of kb (the target must be a new predicate).")
    bound = set()
    for a in head.args:
        if isinstance(a, Var):
            bound.add(a)
        else:
            _constant(a, f"{name}.head")
    for i, lit in enumerate(clause.body):
        where = f"{name}.body[{i}]"
        if not isinstance(lit, Literal) or not isinstance(lit.args, tuple):
            raise ValueError(f"{where} must be a Literal, got {lit!r}.")
        if lit.predicate not in kb.facts:
            raise ValueError(f"{where} uses the unknown predicate {lit.predicate!r} "
                             f"(kb has {sorted(kb.facts)}).")
        if len(lit.args) != kb.arity[lit.predicate]:
            raise ValueError(f"{where}: {lit.predicate} has arity "
                             f"{kb.arity[lit.predicate]} in kb, got {len(lit.args)} "
                             "arguments.")
        for a in lit.args:
            if not isinstance(a, Var):
                _constant(a, where)
        vs = {a for a in lit.args if isinstance(a, Var)}
        if lit.negated:
            if not vs <= bound:
                raise ValueError(f"{where} is unsafe: the negated literal {lit} uses "
                                 f"variables {sorted(v.name for v in vs - bound)} bound by "
                                 "neither the head nor an earlier positive literal.")
        else:
            bound |= vs
    return clause


def _extend(kb: KnowledgeBase, rows: list[tuple], order: list[Var], lit: Literal
            ) -> tuple[list[tuple], list[Var], list[int]]:
    """Extend binding rows (tuples over ``order``) by a body literal.

    Returns the new rows, the new variable order and, per new row, the index of the row
    it extends."""
    pos = {v: i for i, v in enumerate(order)}
    new_vars: list[Var] = []
    for a in lit.args:
        if isinstance(a, Var) and a not in pos and a not in new_vars:
            new_vars.append(a)
    out_order = order + new_vars
    bound_idx = tuple(i for i, a in enumerate(lit.args) if not isinstance(a, Var) or a in pos)
    # per bound argument: the row column holding its value, or the constant itself
    getters = [(pos[a], None) if isinstance(a, Var) else (None, a)
               for a in (lit.args[i] for i in bound_idx)]
    # per new variable: the fact positions it occupies (equal values required)
    slots = [[i for i, a in enumerate(lit.args) if a == v] for v in new_vars]
    out, parent = [], []
    for r, row in enumerate(rows):
        values = tuple(row[j] if j is not None else c for j, c in getters)
        facts = kb.lookup(lit.predicate, bound_idx, values)
        if lit.negated:
            if not facts:
                out.append(row)
                parent.append(r)
            continue
        for f in facts:
            if all(f[s[0]] == f[i] for s in slots for i in s[1:]):
                out.append(row + tuple(f[s[0]] for s in slots))
                parent.append(r)
    return out, out_order, parent


def _head_rows(head: Literal, examples: Iterable[tuple]) -> tuple[list[tuple], list[Var]]:
    order: list[Var] = []
    for a in head.args:
        if isinstance(a, Var) and a not in order:
            order.append(a)
    rows = []
    for e in examples:
        b: dict = {}
        ok = len(e) == len(head.args)
        for a, v in zip(head.args, e, strict=False):
            if isinstance(a, Var):
                ok = ok and b.setdefault(a, v) == v
            else:
                ok = ok and type(a) is type(v) and a == v
        if ok:
            rows.append(tuple(b[v] for v in order))
    return rows, order


def _bindings(kb: KnowledgeBase, clause: HornClause, examples: Iterable[tuple]
              ) -> tuple[list[tuple], list[Var]]:
    rows, order = _head_rows(clause.head, examples)
    for lit in clause.body:
        rows, order, _ = _extend(kb, rows, order, lit)
    return rows, order


def _check_examples(examples: object, name: str, arity: int | None) -> tuple[frozenset, int]:
    ex, ar = _ground_tuples(examples, name, arity)
    if ar is None:
        ar = arity
    return ex, ar


def clause_bindings(kb: object, clause: object, examples: object) -> list[dict]:
    """All bindings of ``clause`` over ``examples``: substitutions of every clause
    variable (as ``{Var: constant}``) that map the head onto an example and make each
    body literal true in ``kb``."""
    kb = _check_kb(kb)
    clause = _check_clause(clause, kb)
    ex, _ = _check_examples(examples, "examples", len(clause.head.args))
    rows, order = _bindings(kb, clause, sorted(ex, key=repr))
    return [dict(zip(order, r, strict=True)) for r in rows]


def _gain_of(kb: KnowledgeBase, clause: HornClause, lit: Literal,
             pos_rows: list[tuple], neg_rows: list[tuple], order: list[Var]) -> FoilGain:
    p_rows, _, parent = _extend(kb, pos_rows, order, lit)
    n_rows, _, _ = _extend(kb, neg_rows, order, lit)
    p0, n0, p1, n1 = len(pos_rows), len(neg_rows), len(p_rows), len(n_rows)
    t = len(set(parent))
    return FoilGain(p0, n0, p1, n1, t, _gain_scalar(p0, n0, p1, n1, t))


def _gain_scalar(p0: int, n0: int, p1: int, n1: int, t: int) -> float:
    """:func:`foil_gain` for one set of already consistent counts (the search's inner
    loop, without the array validation)."""
    if t == 0 or p0 == 0:
        return 0.0
    return t * (math.log2(p1 / (p1 + n1)) - math.log2(p0 / (p0 + n0)))


def literal_gain(kb: object, clause: object, literal: object, positives: object,
                 negatives: object) -> FoilGain:
    """FOIL gain of adding ``literal`` to the body of ``clause``, with the counts of
    positive/negative bindings over the given positive and negative examples."""
    kb = _check_kb(kb)
    clause = _check_clause(clause, kb)
    if not isinstance(literal, Literal):
        raise ValueError(f"literal must be a Literal, got {literal!r}.")
    extended = _check_clause(HornClause(clause.head, (*clause.body, literal)), kb,
                             name="literal (appended to clause)")
    arity = len(clause.head.args)
    pos, _ = _check_examples(positives, "positives", arity)
    neg, _ = _check_examples(negatives, "negatives", arity)
    pos_rows, order = _bindings(kb, clause, sorted(pos, key=repr))
    if not pos_rows:
        raise ValueError("positives: the clause has no positive binding, so the gain of a "
                         "literal is undefined (p0 = 0).")
    neg_rows, _ = _bindings(kb, clause, sorted(neg, key=repr))
    return _gain_of(kb, extended, literal, pos_rows, neg_rows, order)


def _candidates(kb: KnowledgeBase, order: list[Var], body: tuple, max_new: int,
                negation: bool) -> list[Literal]:
    """Candidate body literals: each background predicate over the clause's variables
    and up to ``max_new`` new ones (numbered in order of appearance), with at least one
    old variable; negated literals over old variables only."""
    taken = {v.name for v in order}
    fresh, k = [], 0
    while len(fresh) < max(kb.arity.values()):
        name = f"Z{k}"
        k += 1
        if name not in taken:
            fresh.append(Var(name))
    out: list[Literal] = []
    existing = set(body)
    for pred in sorted(kb.facts):
        ar = kb.arity[pred]
        for args in itertools.product(range(len(order) + ar), repeat=ar):
            # canonical new variables: the j-th new one appears before the (j+1)-th
            news = [a - len(order) for a in args if a >= len(order)]
            first = list(dict.fromkeys(news))
            if first != list(range(len(first))) or len(first) > max_new:
                continue
            if len(news) == ar:
                continue  # no old variable: the literal would not be linked
            terms = tuple(order[a] if a < len(order) else fresh[a - len(order)] for a in args)
            lit = Literal(pred, terms)
            if lit not in existing:
                out.append(lit)
            if negation and not news:
                neg = Literal(pred, terms, negated=True)
                if neg not in existing:
                    out.append(neg)
    return out


class FOIL:
    """FOIL: sequential covering of the positive examples by Horn clauses.

    Each clause starts as ``target(X0, ..., Xk-1) <- true`` and grows by the candidate
    literal of largest FOIL gain (ties: the first candidate in a fixed order) until it
    covers no negative binding, the body reaches ``max_body_length``, or no literal has a
    positive gain. A clause covering no negative example is kept and the positive
    examples it covers are removed; otherwise the covering stops and the remaining
    positives stay uncovered.

    Parameters
    ----------
    max_body_length : int, default=4
    max_new_variables : int, default=1
        New variables one literal may introduce.
    max_clauses : int or None, default=None
        Cap on the number of clauses (None: as many as positives).
    allow_negation : bool, default=False
        Also try negated literals (safe: over the clause's variables only).

    Attributes
    ----------
    clauses_ : list of HornClause
    gain_history_ : list of list of FoilGain
        Per clause, the counts and gain of each literal chosen, recorded by the search.
    covering_trace_ : list of dict
        Per round: the remaining positive examples and how many the clause covered.
    uncovered_ : frozenset of tuple
        Positive examples no clause covers.
    n_rounds_ : int

    References
    ----------
    003 §13.4; J. R. Quinlan, Learning logical definitions from relations, Machine
    Learning 5 (1990) 239-266.
    """

    def __init__(self, *, max_body_length: int = 4, max_new_variables: int = 1,
                 max_clauses: int | None = None, allow_negation: bool = False) -> None:
        self.max_body_length = max_body_length
        self.max_new_variables = max_new_variables
        self.max_clauses = max_clauses
        self.allow_negation = allow_negation

    def fit(self, kb: object, target: object, positives: object,
            negatives: object = None) -> FOIL:
        """Learn clauses for ``target`` from positive (and negative) example tuples;
        ``negatives=None`` takes every other tuple of kb's constants (closed world)."""
        max_len = check_int(self.max_body_length, "max_body_length", low=1, high=20)
        max_new = check_int(self.max_new_variables, "max_new_variables", low=0, high=3)
        max_clauses = math.inf if self.max_clauses is None else check_int(
            self.max_clauses, "max_clauses", low=1)
        negation = check_bool(self.allow_negation, "allow_negation")
        kb = _check_kb(kb)
        if not isinstance(target, str) or not target:
            raise ValueError(f"target must be a non-empty str predicate name, got {target!r}.")
        if target in kb.facts:
            raise ValueError(f"target {target!r} is a background predicate of kb; the "
                             "target must be a new predicate (recursion is not learned).")
        pos, arity = _check_examples(positives, "positives", None)
        if not pos:
            raise ValueError("positives must contain at least one example tuple.")
        if negatives is None:
            size = len(kb.constants) ** arity
            if size > MAX_CLOSED_WORLD:
                raise ValueError(f"negatives=None would enumerate {size} tuples (more than "
                                 f"{MAX_CLOSED_WORLD}); pass negatives explicitly.")
            neg = frozenset(itertools.product(kb.constants, repeat=arity)) - pos
        else:
            neg, _ = _check_examples(negatives, "negatives", arity)
            if pos & neg:
                raise ValueError(f"positives and negatives overlap: "
                                 f"{sorted(pos & neg, key=repr)[:3]}.")
        head = Literal(target, tuple(Var(f"X{i}") for i in range(arity)))
        neg_sorted = sorted(neg, key=repr)
        remaining = set(pos)
        clauses, gains, trace = [], [], []
        while remaining and len(clauses) < max_clauses:
            clause = HornClause(head, ())
            pos_rows, order = _head_rows(head, sorted(remaining, key=repr))
            neg_rows, _ = _head_rows(head, neg_sorted)
            chosen: list[FoilGain] = []
            while neg_rows and len(clause.body) < max_len:
                best, best_lit = None, None
                for lit in _candidates(kb, order, clause.body, max_new, negation):
                    g = _gain_of(kb, clause, lit, pos_rows, neg_rows, order)
                    if best is None or g.gain > best.gain:
                        best, best_lit = g, lit
                if best is None or not best.gain > 0:
                    break
                pos_rows, new_order, _ = _extend(kb, pos_rows, order, best_lit)
                neg_rows, _, _ = _extend(kb, neg_rows, order, best_lit)
                order = new_order
                clause = HornClause(head, (*clause.body, best_lit))
                chosen.append(best)
            covered = {e for e in remaining if _bindings(kb, clause, [e])[0]}
            trace.append({"remaining": len(remaining), "covered": len(covered),
                          "negative_bindings": len(neg_rows)})
            if neg_rows or not covered:
                break
            clauses.append(clause)
            gains.append(chosen)
            remaining -= covered
        self.clauses_ = clauses
        self.gain_history_ = gains
        self.covering_trace_ = trace
        self.uncovered_ = frozenset(remaining)
        self.n_rounds_ = len(trace)
        self.kb_ = kb
        self.target_ = target
        return self

    def predict(self, examples: object) -> np.ndarray:
        """Whether some learned clause covers each example tuple (in the given order)."""
        if not hasattr(self, "clauses_"):
            from sklearn.exceptions import NotFittedError
            raise NotFittedError("This FOIL instance is not fitted yet; call fit first.")
        if isinstance(examples, str | bytes) or not isinstance(examples, Iterable):
            raise ValueError(f"examples must be an iterable of tuples, got {examples!r}.")
        examples = list(examples)
        arity = len(self.clauses_[0].head.args) if self.clauses_ else None
        _check_examples(examples, "examples", arity)
        return np.array([any(_bindings(self.kb_, c, [e])[0] for c in self.clauses_)
                         for e in examples], dtype=bool)
