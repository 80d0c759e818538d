"""The rule-learning checks have teeth: each check body a claim uses refutes a
deliberately broken variant (a sign flipped, an index off by one, a shared table
dropped, a count swapped, a constant scaled)."""

import math

import numpy as np
import pytest
from hypothesis import example, given

import algorithms.rules._covering as covering_module
from algorithms.rules import (
    FOIL,
    Clause,
    Compound,
    HornClause,
    KnowledgeBase,
    Literal,
    SequentialCoveringClassifier,
    Var,
    foil_gain,
    lgg_clauses,
    lgg_literals,
    lgg_terms,
    literal_gain,
)
from algorithms.rules._foil import FoilGain
from mltheory.stats import decide_at_least
from mltheory.testing import assert_holds, assert_refutes
from properties.rules.covering import (
    ALTERNATING,
    CRITERIA,
    check_covering,
    check_decision_list,
    check_greedy_search,
    check_lrs,
    check_overfit,
    check_rep,
    run_overfit,
)
from properties.rules.foil import (
    FAMILY,
    GRANDPARENT,
    check_foil,
    check_gain_counts,
    check_gain_formula,
    defined_by_clause,
    gain_counts_draw,
)
from properties.rules.lgg import (
    REPEATED_PAIR,
    TERM_DEPTH,
    TERM_VARS,
    check_clause_lgg,
    check_literal_lgg,
    check_term_lgg,
)
from properties.rules.strategies import FoilProblem, clauses, foil_problems, rule_tables
from properties.rules.support import clause_language, term_language

# ---------------------------------------------------------------------------
# Sequential covering
# ---------------------------------------------------------------------------


def _consistent(table):
    _, first, inv = np.unique(table.X, axis=0, return_index=True, return_inverse=True)
    return bool(np.all(table.y == table.y[first][inv.reshape(-1)]))


def test_covering_check_refutes_rules_missing_their_last_literal(monkeypatch):
    grow = covering_module._grow_rule

    def short(*args, **kwargs):  # the last literal dropped: rules cover negatives
        return grow(*args, **kwargs)[:-1]

    monkeypatch.setattr(covering_module, "_grow_rule", short)

    @given(table=rule_tables(consistent=True))
    @example(table=ALTERNATING)
    def check(table):
        est = SequentialCoveringClassifier().fit(table.X, table.y)
        check_covering(est, table.X, table.y, _consistent(table))

    assert_refutes(check)


def test_covering_check_refutes_a_trace_off_by_one():
    est = SequentialCoveringClassifier().fit(ALTERNATING.X, ALTERNATING.y)
    check_covering(est, ALTERNATING.X, ALTERNATING.y, True)
    est.covering_trace_[1]["positives"] += 1
    with pytest.raises(AssertionError, match="round 1"):
        check_covering(est, ALTERNATING.X, ALTERNATING.y, True)


def test_decision_list_check_refutes_last_match_resolution(monkeypatch):
    def last_match(C, rule_codes, default):  # conflicts resolved by the *last* rule
        if C.shape[1] == 0:
            return np.full(C.shape[0], default)
        last = C.shape[1] - 1 - np.argmax(C[:, ::-1], axis=1)
        return np.where(C.any(axis=1), rule_codes[last], default)

    monkeypatch.setattr(covering_module, "_first_match", last_match)

    @given(table=rule_tables())
    def check(table):
        est = SequentialCoveringClassifier(max_rule_length=1).fit(table.X, table.y)
        check_decision_list(est, table.X, table.y, table.X)

    assert_refutes(check)


def test_greedy_check_refutes_a_sign_flipped_criterion(monkeypatch):
    scores = covering_module._scores
    monkeypatch.setattr(covering_module, "_scores", lambda *a: -scores(*a))

    @given(table=rule_tables(max_size=16), criterion=CRITERIA)
    def check(table, criterion):
        est = SequentialCoveringClassifier(criterion=criterion).fit(table.X, table.y)
        check_greedy_search(est, table.X, table.y, table.categorical, criterion, None)

    assert_refutes(check)


def test_greedy_check_refutes_a_search_that_stops_one_literal_early(monkeypatch):
    grow = covering_module._grow_rule
    monkeypatch.setattr(covering_module, "_grow_rule", lambda *a: grow(*a)[:-1])

    @given(table=rule_tables(max_size=16))
    def check(table):
        est = SequentialCoveringClassifier().fit(table.X, table.y)
        check_greedy_search(est, table.X, table.y, table.categorical, "foil_gain", None)

    assert_refutes(check)


@pytest.mark.parametrize("broken", ["strict", "flipped"])
def test_rep_check_refutes_broken_acceptance_rules(monkeypatch, broken):
    scores = covering_module._deletion_scores

    def patched(*args):
        base, s, cands = scores(*args)
        if broken == "strict":  # ties no longer prune: stops at a non-local optimum
            return base, s - 1, cands
        return base, -s + 2 * base, cands  # sign flipped: takes the worst deletion

    monkeypatch.setattr(covering_module, "_deletion_scores", patched)

    @given(table=rule_tables(max_size=24))
    def check(table):
        est = SequentialCoveringClassifier(pruning="rep", random_state=0).fit(
            table.X, table.y)
        check_rep(est, table.X, table.y)

    assert_refutes(check)


def test_overfit_simulation_refutes_a_sign_flipped_pruning(monkeypatch):
    scores = covering_module._deletion_scores

    def flipped(*args):  # the deletion that hurts validation accuracy most is taken
        base, s, cands = scores(*args)
        return base, 2 * base - s, cands

    monkeypatch.setattr(covering_module, "_deletion_scores", flipped)
    wins, differ, _, _ = run_overfit(np.random.default_rng(7), 30,
                                     SequentialCoveringClassifier)
    decision = decide_at_least(wins, max(differ, 1), 0.5)
    assert decision.refuted, decision.describe()


def test_overfit_simulation_refutes_testing_on_the_training_data():
    """The test slice shifted onto the training slice: no overfitting can be seen."""
    with pytest.raises(AssertionError, match="training accuracy > test"):
        check_overfit(np.random.default_rng(3), 30, SequentialCoveringClassifier,
                      test_on_train=True)


@pytest.mark.parametrize("broken", ["halved", "df2"])
def test_lrs_check_refutes_a_halved_statistic_or_a_wrong_df(monkeypatch, broken):
    if broken == "halved":
        lrs = covering_module._lrs
        monkeypatch.setattr(covering_module, "_lrs", lambda *a: lrs(*a) / 2)
    else:
        from scipy.stats import chi2

        class TwoDF:
            @staticmethod
            def isf(alpha, df):
                return chi2.isf(alpha, df + 1)

        monkeypatch.setattr(covering_module, "chi2", TwoDF)

    @given(table=rule_tables(max_size=30))
    def check(table):
        est = SequentialCoveringClassifier(pruning="lrs", significance=0.2).fit(
            table.X, table.y)
        check_lrs(est, table.X, table.y, (), 0.2)

    assert_refutes(check)


# ---------------------------------------------------------------------------
# FOIL
# ---------------------------------------------------------------------------

FAMILY_PROBLEM = FoilProblem(
    FAMILY, KnowledgeBase(FAMILY), HornClause(Literal("gp", (Var("X0"), Var("X1"))), ()),
    Literal("parent", (Var("X0"), Var("Z0"))), GRANDPARENT,
    frozenset((a, b) for a in "ann bob cid dan eve fay".split()
              for b in "ann bob cid dan eve fay".split()) - GRANDPARENT)


@pytest.mark.parametrize("broken", ["examples", "t_is_p1", "t_off_by_one"])
def test_gain_count_check_refutes_wrong_counts(broken):
    def gain(kb, clause, lit, pos, neg):
        g = literal_gain(kb, clause, lit, pos, neg)
        if broken == "examples":  # counts examples, not bindings (p1 <= p0 always)
            p1 = min(g.p1, len(pos))
            return FoilGain(g.p0, g.n0, p1, g.n1, min(g.t, p1), g.gain)
        t = g.p1 if broken == "t_is_p1" else max(g.t - 1, 0)
        return FoilGain(g.p0, g.n0, g.p1, g.n1, t, g.gain)

    with pytest.raises(AssertionError):
        check_gain_counts(gain, FAMILY_PROBLEM)
    check_gain_counts(literal_gain, FAMILY_PROBLEM)


@pytest.mark.parametrize("broken", [
    lambda p0, n0, p1, n1, t: foil_gain(p0, n0, p1, n1, t) * math.log(2),  # natural log
    lambda p0, n0, p1, n1, t: -foil_gain(p0, n0, p1, n1, t),  # sign flipped
    lambda p0, n0, p1, n1, t: foil_gain(p0, n0, p1, n1, t) / max(t, 1) * p1,  # p1 for t
    lambda p0, n0, p1, n1, t: foil_gain(p0, n0, p1, n1, t) / 2,  # halved
])
def test_gain_formula_check_refutes_broken_formulas(broken):
    @given(counts=gain_counts_draw())
    def check(counts):
        check_gain_formula(broken, *counts)

    assert_refutes(check)
    assert_holds(lambda: check_gain_formula(foil_gain, 4, 32, 5, 25, 4))


def test_foil_check_refutes_a_clause_covering_negatives():
    class Sloppy(FOIL):
        def fit(self, kb, target, positives, negatives=None):
            super().fit(kb, target, positives, negatives)
            head = Literal(target, (Var("X0"), Var("X1")))
            self.clauses_ = [*self.clauses_, HornClause(head, ())]  # covers everything
            self.gain_history_ = [*self.gain_history_, []]
            return self

    @given(problem=foil_problems())
    def check(problem):
        check_foil(Sloppy(max_body_length=2), defined_by_clause(problem))

    assert_refutes(check)


# ---------------------------------------------------------------------------
# LGG
# ---------------------------------------------------------------------------


def _lgg_without_shared_table(s, t, counter=None):
    """Each differing pair gets a fresh variable, even a repeated one."""
    counter = counter if counter is not None else [0]
    if s == t:
        return s
    if isinstance(s, Compound) and isinstance(t, Compound) and s.functor == t.functor \
            and len(s.args) == len(t.args):
        return Compound(s.functor, tuple(_lgg_without_shared_table(a, b, counter)
                                         for a, b in zip(s.args, t.args, strict=True)))
    counter[0] += 1
    return Var(f"V{counter[0]}")


def _lgg_one_variable(s, t):
    """Every differing pair mapped to the same variable."""
    if s == t:
        return s
    if isinstance(s, Compound) and isinstance(t, Compound) and s.functor == t.functor \
            and len(s.args) == len(t.args):
        return Compound(s.functor, tuple(_lgg_one_variable(a, b)
                                         for a, b in zip(s.args, t.args, strict=True)))
    return Var("V")


def _lgg_no_recursion(s, t):
    """Compound terms with the same functor are not opened (too general)."""
    return s if s == t else lgg_terms(Var("P"), Var("Q"))


@pytest.mark.parametrize("broken", [_lgg_without_shared_table, _lgg_one_variable,
                                    _lgg_no_recursion])
def test_term_lgg_check_refutes_broken_anti_unification(broken):
    language = term_language(TERM_DEPTH, TERM_VARS)
    with pytest.raises(AssertionError):
        check_term_lgg(broken, *REPEATED_PAIR, language)
        check_term_lgg(broken, Compound("f", ("a", "b")), Compound("f", ("b", "a")),
                       language)
        check_term_lgg(broken, Compound("g", ("a",)), Compound("g", ("b",)), language)
    check_term_lgg(lgg_terms, *REPEATED_PAIR, language)


def test_literal_lgg_check_refutes_a_table_per_argument():
    def per_argument(a, b):  # one pair table per argument (variables kept apart)
        def tagged(t, i):
            if isinstance(t, Var):
                return Var(f"{t.name}_{i}")
            if isinstance(t, Compound):
                return Compound(t.functor, tuple(tagged(x, i) for x in t.args))
            return t

        return Literal(a.predicate, tuple(tagged(lgg_terms(x, y), i) for i, (x, y) in
                                          enumerate(zip(a.args, b.args, strict=True))))

    args = term_language(1, TERM_VARS)
    language = tuple(Literal("p", (x, y)) for x in args for y in args)
    a, b = Literal("p", ("a", "a")), Literal("p", ("b", "b"))
    with pytest.raises(AssertionError, match="not their lgg"):
        check_literal_lgg(per_argument, a, b, language)
    check_literal_lgg(lgg_literals, a, b, language)


def test_clause_lgg_check_refutes_a_table_per_literal_pair():
    def per_pair(c, d):
        out = set()
        for x in c.literals:
            for y in d.literals:
                if (x.predicate, x.negated, len(x.args)) == (y.predicate, y.negated,
                                                             len(y.args)):
                    g = lgg_literals(x, y)
                    tag = f"_{len(out)}"
                    out.add(Literal(g.predicate, tuple(
                        Var(v.name + tag) if isinstance(v, Var) else v for v in g.args)))
        return Clause(frozenset(out))

    @given(c=clauses(), d=clauses())
    @example(c=Clause(frozenset({Literal("p", ("a", "b")), Literal("q", ("a",))})),
             d=Clause(frozenset({Literal("p", ("c", "c")), Literal("q", ("c",))})))
    def check(c, d):
        check_clause_lgg(per_pair, c, d, clause_language(2))

    assert_refutes(check, slow=True)
    c = Clause(frozenset({Literal("p", ("a", "b")), Literal("q", ("a",))}))
    d = Clause(frozenset({Literal("p", ("c", "c")), Literal("q", ("c",))}))
    check_clause_lgg(lgg_clauses, c, d, clause_language(2))


# ---------------------------------------------------------------------------
# Symbolic quality measures
# ---------------------------------------------------------------------------


def test_symbolic_derivations_refute_a_halved_ceiling_and_a_wrong_constant():
    import sympy as sp

    from proofs.rules.gains import foil_derivation, lrs_derivation

    with pytest.raises(AssertionError):
        foil_derivation(ceiling_factor=sp.Rational(1, 2)).verify()
    with pytest.raises(AssertionError):
        lrs_derivation(factor=sp.Integer(1)).verify()
