"""Hypothesis strategies of the rule-learning claims (003 Ch. 13): small attribute-value
tables, first-order terms, literals and clauses over a fixed small signature, and small
relational knowledge bases with a clause and a candidate literal."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from hypothesis import strategies as st

from algorithms.rules import Clause, Compound, HornClause, KnowledgeBase, Literal, Var

__all__ = [
    "CONSTANTS",
    "FoilProblem",
    "RuleTable",
    "clauses",
    "foil_problems",
    "literals",
    "rule_tables",
    "terms",
]

#: The term signature of the LGG claims: functors f/2 and g/1, constants a and b.
CONSTANTS = ("a", "b")
#: Variables that may occur in the *inputs* of an LGG (distinct from the enumerated
#: generalisations' variables G0, G1, ...).
INPUT_VARS = (Var("X"), Var("Y"))


@dataclass(frozen=True)
class RuleTable:
    """A small attribute-value table: X (n, d) on a coarse grid, labels, discrete mask."""

    X: np.ndarray
    y: np.ndarray
    categorical: tuple[int, ...]


@st.composite
def rule_tables(draw, *, consistent: bool = False, max_size: int = 30, max_classes: int = 3
                ) -> RuleTable:
    """Tables with duplicated rows and ties (values on a grid of 2..6 levels per column),
    2..``max_classes`` classes, some columns declared discrete. ``consistent=True`` makes
    the label a function of the row (duplicates agree)."""
    seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    n = draw(st.integers(4, max_size))
    d = draw(st.integers(1, 3))
    k = draw(st.integers(2, max_classes))
    levels = draw(st.lists(st.integers(2, 6), min_size=d, max_size=d))
    X = np.column_stack([rng.integers(0, lv, size=n) * draw(st.sampled_from([1.0, 0.5, 3.0]))
                         for lv in levels])
    y = rng.integers(0, k, size=n)
    y[:2] = [0, 1]  # at least two classes
    if consistent:
        _, first, inv = np.unique(X, axis=0, return_index=True, return_inverse=True)
        y = y[first][inv.reshape(-1)]
        if np.unique(y).size < 2:
            y = (X[:, 0] > np.median(X[:, 0])).astype(int)
            if np.unique(y).size < 2:
                X[0, 0] += 1.0
                y = (X[:, 0] > np.median(X[:, 0])).astype(int)
    cat = tuple(j for j in range(d) if draw(st.booleans()))
    return RuleTable(X, y, cat)


def terms(max_depth: int = 2, *, variables: bool = True) -> st.SearchStrategy:
    """Terms over f/2, g/1, a, b (and the input variables X, Y) of depth <= max_depth."""
    leaves = st.sampled_from(CONSTANTS + (INPUT_VARS if variables else ()))
    if max_depth == 0:
        return leaves
    sub = terms(max_depth - 1, variables=variables)
    return st.one_of(
        leaves,
        st.builds(lambda a, b: Compound("f", (a, b)), sub, sub),
        st.builds(lambda a: Compound("g", (a,)), sub),
    )


def literals(*, variables: bool = True) -> st.SearchStrategy:
    """Function-free literals p(s, t) or q(s) over constants a, b, c and X, Y."""
    arg = st.sampled_from(("a", "b", "c", *(INPUT_VARS if variables else ())))
    return st.one_of(st.builds(lambda s, t: Literal("p", (s, t)), arg, arg),
                     st.builds(lambda s: Literal("q", (s,)), arg))


def clauses(*, variables: bool = True, max_size: int = 3) -> st.SearchStrategy:
    """Clauses of 1..max_size literals from :func:`literals`."""
    return st.frozensets(literals(variables=variables), min_size=1,
                         max_size=max_size).map(Clause)


@dataclass(frozen=True)
class FoilProblem:
    """A knowledge base, a clause for t/2, a candidate literal and example sets."""

    facts: dict
    kb: KnowledgeBase
    clause: HornClause
    literal: Literal
    positives: frozenset
    negatives: frozenset


@st.composite
def foil_problems(draw) -> FoilProblem:
    """Random relations p/2, q/2 and r/1 over 3..5 constants; a clause t(X0, X1) <- body
    of 0..2 linked literals; a linked candidate literal (possibly with a new variable,
    possibly negated when safe); positives and negatives a random split of some pairs."""
    seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    m = draw(st.integers(3, 5))
    consts = [f"c{i}" for i in range(m)]
    pairs = [(a, b) for a in consts for b in consts]
    dens = draw(st.sampled_from([0.2, 0.4, 0.7]))
    facts = {
        "p": {pr for pr in pairs if rng.random() < dens} or {pairs[0]},
        "q": {pr for pr in pairs if rng.random() < dens} or {pairs[1]},
        "r": {(c,) for c in consts if rng.random() < 0.5} or {(consts[0],)},
    }
    kb = KnowledgeBase(facts)
    X0, X1 = Var("X0"), Var("X1")
    known = [X0, X1]
    body = []
    for i in range(draw(st.integers(0, 2))):
        pred = draw(st.sampled_from(["p", "q", "r"]))
        old = draw(st.sampled_from(known))
        if pred == "r":
            lit = Literal("r", (old,))
        else:
            other = draw(st.sampled_from([*known, Var(f"Z{i}")]))
            args = (old, other) if draw(st.booleans()) else (other, old)
            lit = Literal(pred, args)
            if other not in known:
                known.append(other)
        body.append(lit)
    pred = draw(st.sampled_from(["p", "q", "r"]))
    old = draw(st.sampled_from(known))
    if pred == "r":
        lit = Literal("r", (old,), negated=draw(st.booleans()))
    else:
        new = draw(st.booleans())
        other = Var("W") if new else draw(st.sampled_from(known))
        args = (old, other) if draw(st.booleans()) else (other, old)
        if new and draw(st.integers(0, 3)) == 0:
            # one new variable in both places (p(W, W)): its two slots must agree
            args = (other, other)
        lit = Literal(pred, args, negated=(not new) and draw(st.booleans()))
    chosen = rng.permutation(len(pairs))[: draw(st.integers(2, len(pairs)))]
    split = rng.random(chosen.size) < 0.5
    split[0] = True
    pos = frozenset(pairs[i] for i, s in zip(chosen, split, strict=True) if s)
    neg = frozenset(pairs[i] for i, s in zip(chosen, split, strict=True) if not s)
    return FoilProblem(facts, kb, HornClause(Literal("t", (X0, X1)), tuple(body)), lit,
                       pos, neg)
