"""Bad-input cases of the rules family's public API (see ``tests/api_fuzz.py``).

Beyond the generic variants: unsafe or malformed rules and knowledge bases (non-tuple
facts, mixed arities, variables in facts, unknown predicates, arity mismatches, unsafe
negated literals) must be refused with a ValueError naming the argument.
"""

from __future__ import annotations

import numpy as np

from algorithms.rules import (
    Clause,
    Compound,
    HornClause,
    KnowledgeBase,
    Literal,
    Var,
)
from tests.api_fuzz import Case

X0, X1, Z = Var("X0"), Var("X1"), Var("Z")
FACTS = {"parent": {("a", "b"), ("b", "c"), ("b", "d"), ("c", "e")}, "male": {("b",), ("c",)}}
HEAD = Literal("gp", (X0, X1))
CLAUSE = HornClause(HEAD, (Literal("parent", (X0, Z)),))
LITERAL = Literal("parent", (Z, X1))
POSITIVES = [("a", "c"), ("a", "d"), ("b", "e")]
NEGATIVES = [("a", "b"), ("c", "a"), ("d", "e")]

#: Malformed knowledge bases: a list fact, mixed arities, a variable in a fact, a float
#: constant, no predicates.
BAD_FACTS = [{"p": [["a", "b"]]}, {"p": [("a", "b"), ("a",)]}, {"p": [(Var("X"),)]},
             {"p": [(1.5,)]}, {}, [("a", "b")]]
#: Malformed or unsafe clauses: an unknown predicate, an arity mismatch, a negated
#: literal over an unbound variable, a compound term in a body, a head over a background
#: predicate, not a clause at all.
BAD_CLAUSES = [
    HornClause(HEAD, (Literal("sibling", (X0, X1)),)),
    HornClause(HEAD, (Literal("parent", (X0,)),)),
    HornClause(HEAD, (Literal("male", (Z,), negated=True),)),
    HornClause(HEAD, (Literal("parent", (X0, Compound("f", (X1,)))),)),
    HornClause(Literal("parent", (X0, X1)), ()),
    "gp(X, Y) :- parent(X, Z)",
]
BAD_EXAMPLES = [[["a", "c"]], [("a", "c"), ("a",)], [(Var("X"), "c")], "ac"]

F_AB = Compound("f", ("a", "b"))
F_XB = Compound("f", (Var("X"), "b"))


def _table(rng: np.random.Generator) -> tuple[tuple, dict]:
    X = rng.normal(size=(30, 3))
    return (X, (X[:, 0] + 0.3 * X[:, 1] > 0).astype(int)), {}


CASES: dict[str, Case] = {
    # plain data classes: validated where they are consumed (the functions below)
    "Var": Case(skip="a plain data class (a variable's name); validated where consumed"),
    "Compound": Case(skip="a plain data class; terms are validated where consumed"),
    "Literal": Case(skip="a plain data class; literals are validated where consumed"),
    "Clause": Case(skip="a plain data class; clauses are validated where consumed"),
    "HornClause": Case(skip="a plain data class; validated against a knowledge base where "
                       "consumed (clause_bindings, literal_gain)"),
    "Condition": Case(skip="a plain data class (one literal of a fitted rule)"),
    "Rule": Case(skip="a plain data class (one fitted rule)"),
    "FoilGain": Case(skip="a result data class"),
    "SequentialCoveringClassifier": Case(
        call=_table,
        invalid={"categorical_features": [[[0]], [5], ["a"], [-1]],
                 "max_rule_length": [0], "pruning": ["bogus"],
                 "validation_fraction": [0.0, 1.0], "significance": [0.0, 1.5]},
    ),
    "likelihood_ratio_statistic": Case(
        call=lambda rng: ((np.array([3, 5, 0]), np.array([1, 0, 4]), 10, 12), {}),
        invalid={"p": [np.array([11, 0, 0]), np.array([0.5, 1, 1])],
                 "n": [np.array([13, 0, 0]), np.array([0, -1, 0])],
                 "P": [np.array([10, 10])], "N": [-1]},
    ),
    "KnowledgeBase": Case(call=lambda rng: ((FACTS,), {}), invalid={"facts": BAD_FACTS},
                          finite_output=False),
    "FOIL": Case(
        call=lambda rng: ((FACTS, "gp", POSITIVES), {"negatives": NEGATIVES}),
        invalid={"kb": BAD_FACTS[:4], "target": ["parent", "", 3],
                 "positives": BAD_EXAMPLES + [[]], "negatives": [[("a", "c")], [("a",)]]},
        accept=frozenset({"target-bogus"}),  # any new predicate name is a valid target
        methods=(),
    ),
    "clause_bindings": Case(
        call=lambda rng: ((FACTS, CLAUSE, POSITIVES), {}),
        invalid={"kb": BAD_FACTS[:4], "clause": BAD_CLAUSES, "examples": BAD_EXAMPLES},
    ),
    "literal_gain": Case(
        call=lambda rng: ((KnowledgeBase(FACTS), CLAUSE, LITERAL, POSITIVES, NEGATIVES), {}),
        invalid={"kb": BAD_FACTS[:4], "clause": BAD_CLAUSES,
                 "literal": [Literal("nope", (Z,)), "parent(Z, X1)",
                             Literal("male", (Var("W"),), negated=True)],
                 "positives": BAD_EXAMPLES + [[("e", "a")]], "negatives": BAD_EXAMPLES},
    ),
    "foil_gain": Case(
        call=lambda rng: ((4, 6, 3, 1, 3), {}),
        invalid={"p0": [0, "4"], "t": [5, 0], "n1": [1.5], "p1": [0]},
    ),
    "lgg_terms": Case(
        call=lambda rng: ((F_AB, F_XB), {}),
        invalid={"s": [1.5, None, Compound("f", ()), Compound("f", [1])], "t": [[1, 2]]},
    ),
    "lgg_literals": Case(
        call=lambda rng: ((Literal("p", (F_AB, "c")), Literal("p", (F_XB, "d"))), {}),
        invalid={"a": [Literal("q", ("a", "b")), Literal("p", ("a", "b"), negated=True),
                       F_AB, Literal("p", (1.5, "c"))],
                 "b": [Literal("p", ("a",)), "p(a)"]},
    ),
    "lgg_clauses": Case(
        call=lambda rng: ((Clause(frozenset({Literal("p", ("a", "b")), Literal("q", ("a",))})),
                           Clause(frozenset({Literal("p", ("c", "d"))}))), {}),
        invalid={"c": [frozenset({Literal("p", ("a",))}), Clause(frozenset({"p(a)"}))],
                 "d": [Literal("p", ("a",)), Clause({Literal("p", ("a",))})]},
    ),
    "match": Case(
        call=lambda rng: ((F_XB, F_AB), {}),
        invalid={"general": [1.5, Compound("f", ())], "specific": [[1]]},
    ),
    "substitute": Case(
        call=lambda rng: ((F_XB, {Var("X"): "a"}), {}),
        invalid={"theta": [{"X": "a"}, {Var("X"): 1.5}, [("X", "a")]],
                 "t": [1.5, Compound("f", ())]},
    ),
    "theta_subsumes": Case(
        call=lambda rng: ((Clause(frozenset({Literal("p", (Var("X"), "b"))})),
                           Clause(frozenset({Literal("p", ("a", "b"))}))), {}),
        invalid={"c": [Literal("p", ("a",)), frozenset()], "d": [Clause(frozenset({1}))]},
    ),
}
