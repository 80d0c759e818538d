"""Behaviour of the rule learners of 003 Chapter 13: sequential covering with
reduced-error pruning, FOIL, and least general generalisation."""

import numpy as np
import pytest
from sklearn.exceptions import NotFittedError
from sklearn.tree import DecisionTreeClassifier

from algorithms.rules import (
    FOIL,
    Clause,
    Compound,
    HornClause,
    KnowledgeBase,
    Literal,
    SequentialCoveringClassifier,
    Var,
    clause_bindings,
    foil_gain,
    lgg_clauses,
    lgg_literals,
    lgg_terms,
    literal_gain,
    match,
    substitute,
    theta_subsumes,
)

X_, Y_, Z_ = Var("X"), Var("Y"), Var("Z")

# ---------------------------------------------------------------------------
# Sequential covering
# ---------------------------------------------------------------------------


def _conjunction(n, rng):
    X = rng.random((n, 3))
    return X, ((X[:, 0] > 0.5) & (X[:, 1] <= 0.3)).astype(int)


def test_covering_recovers_a_conjunction_on_clean_data():
    rng = np.random.default_rng(0)
    X, y = _conjunction(300, rng)
    est = SequentialCoveringClassifier().fit(X, y)
    assert est.score(X, y) == 1.0
    assert est.default_class_ == 0 and len(est.rules_) == 1
    (rule,) = est.rules_
    assert {(c.feature, c.operator) for c in rule.conditions} == {(0, ">"), (1, "<=")}
    Xt, yt = _conjunction(2000, rng)
    assert est.score(Xt, yt) > 0.98


def test_pruned_covering_is_close_to_a_decision_tree_on_noisy_data():
    """Loose reference: scikit-learn's pruned-by-leaf-size tree on the same noisy task;
    REP-pruned rules land within 0.08 test accuracy of it (the margin covers the 1/3 of
    the data the rules hold out for pruning)."""
    rng = np.random.default_rng(1)
    X, y = _conjunction(400, rng)
    y = np.where(rng.random(y.size) < 0.15, 1 - y, y)
    Xt, yt = _conjunction(3000, rng)
    rules = SequentialCoveringClassifier(pruning="rep", random_state=0).fit(X, y)
    tree = DecisionTreeClassifier(min_samples_leaf=10, random_state=0).fit(X, y)
    assert rules.score(Xt, yt) >= tree.score(Xt, yt) - 0.08
    assert rules.validation_accuracy_history_[-1] >= rules.validation_accuracy_history_[0]
    unpruned = SequentialCoveringClassifier().fit(X, y)
    assert len(rules.rules_) < len(unpruned.rules_)


def test_covering_handles_discrete_attributes_and_string_labels():
    X = np.array([[0, 1.0], [1, 1.0], [2, 0.0], [0, 0.0], [1, 0.0], [2, 1.0]] * 3)
    y = np.array(["red", "green", "blue", "red", "green", "blue"] * 3)
    est = SequentialCoveringClassifier(categorical_features=[0]).fit(X, y)
    assert list(est.predict(X)) == list(y)
    ops = {c.operator for r in est.rules_ for c in r.conditions}
    assert ops == {"=="}
    assert est.default_class_ in {"red", "green", "blue"}
    assert "<-" in str(est.rules_[0])


def test_covering_respects_the_rule_length_cap_and_is_deterministic():
    rng = np.random.default_rng(2)
    X = rng.random((80, 3))
    y = rng.integers(0, 3, 80)
    a = SequentialCoveringClassifier(max_rule_length=2, pruning="rep", random_state=5)
    b = SequentialCoveringClassifier(max_rule_length=2, pruning="rep", random_state=5)
    ra, rb = a.fit(X, y).rules_, b.fit(X, y).rules_
    assert ra == rb
    assert all(len(r.conditions) <= 2 for r in a.unpruned_rules_)
    assert a.n_rounds_ <= X.shape[0]


def test_inconsistent_rows_cannot_be_separated_but_covering_still_ends():
    X = np.array([[0.0], [0.0], [1.0]])
    y = np.array([0, 1, 1])
    est = SequentialCoveringClassifier().fit(X, y)
    assert est.n_rounds_ >= 1
    assert est.covering_trace_[-1]["covered_positives"] >= 1


@pytest.mark.parametrize(("kwargs", "name"), [
    ({"categorical_features": [3]}, "categorical_features"),
    ({"categorical_features": [[0]]}, "categorical_features"),
    ({"criterion": "gini"}, "criterion"),
    ({"max_rule_length": 0}, "max_rule_length"),
    ({"pruning": "pre"}, "pruning"),
    ({"validation_fraction": 1.0}, "validation_fraction"),
])
def test_covering_refuses_bad_hyperparameters(kwargs, name):
    X = np.arange(6.0).reshape(3, 2)
    with pytest.raises(ValueError, match=name):
        SequentialCoveringClassifier(**kwargs).fit(X, [0, 1, 0])


# ---------------------------------------------------------------------------
# FOIL
# ---------------------------------------------------------------------------

PARENT = {("ann", "bob"), ("bob", "cid"), ("bob", "dan"), ("cid", "eve"), ("eve", "fay")}
FAMILY = KnowledgeBase({"parent": PARENT, "male": {("bob",), ("cid",), ("dan",)}})
GRANDPARENT = {(a, c) for (a, b) in PARENT for (b2, c) in PARENT if b == b2}


def test_foil_learns_grandparent_under_the_closed_world_assumption():
    f = FOIL().fit(FAMILY, "grandparent", GRANDPARENT)
    assert [str(c) for c in f.clauses_] == [
        "grandparent(X0, X1) <- parent(X0, Z0), parent(Z0, X1)"]
    everything = [(a, b) for a in FAMILY.constants for b in FAMILY.constants]
    covered = {e for e, hit in zip(everything, f.predict(everything), strict=True) if hit}
    assert covered == GRANDPARENT and not f.uncovered_
    first, second = f.gain_history_[0]
    # hand count: 4 positive / 32 negative examples; parent(X0, Z0) keeps 5 positive
    # bindings (ann-cid and ann-dan through bob count once each ... t = 4) and 25 negative
    assert (first.p0, first.n0, first.p1, first.n1, first.t) == (4, 32, 5, 25, 4)
    assert first.gain == pytest.approx(4 * np.log2(1.5))
    assert (second.p1, second.n1) == (4, 0)


def test_foil_learns_with_a_safe_negated_literal():
    kb = KnowledgeBase({"male": {("bob",), ("cid",), ("dan",)},
                        "married": {("bob",), ("ann",)}, "person": {
                            (p,) for p in ("ann", "bob", "cid", "dan", "eve")}})
    f = FOIL(allow_negation=True).fit(kb, "bachelor", {("cid",), ("dan",)})
    assert not f.uncovered_
    body = f.clauses_[0].body
    assert any(lit.negated for lit in body) or len(f.clauses_) == 1
    assert list(f.predict([("cid",), ("bob",), ("eve",)])) == [True, False, False]


def test_foil_gain_and_bindings_by_hand():
    clause = HornClause(Literal("gp", (X_, Y_)), (Literal("parent", (X_, Z_)),))
    b = clause_bindings(FAMILY, clause, [("bob", "eve")])
    assert sorted(d[Z_] for d in b) == ["cid", "dan"]
    g = literal_gain(FAMILY, clause, Literal("parent", (Z_, Y_)), [("bob", "eve")],
                     [("bob", "fay")])
    assert (g.p0, g.n0, g.p1, g.n1, g.t) == (2, 2, 1, 0, 1)
    assert g.gain == pytest.approx(1.0)  # 1 * (log2 1 - log2 1/2)
    assert float(foil_gain(3, 3, 0, 0, 0)) == 0.0
    np.testing.assert_allclose(foil_gain([4, 4], [4, 0], [4, 4], [0, 0], [4, 4]), [4.0, 0.0])


@pytest.mark.parametrize(("call", "name"), [
    (lambda: KnowledgeBase({"p": [["a", "b"]]}), "facts"),
    (lambda: KnowledgeBase({"p": [("a", "b"), ("a",)]}), "arit"),
    (lambda: KnowledgeBase({"p": [(Var("X"),)]}), "facts"),
    (lambda: FOIL().fit(FAMILY, "parent", [("ann", "bob")]), "target"),
    (lambda: FOIL().fit(FAMILY, "gp", [("ann", "cid")], [("ann", "cid")]), "overlap"),
    (lambda: FOIL().fit(FAMILY, "gp", [("ann", 1.5)]), "positives"),
    (lambda: clause_bindings(FAMILY, HornClause(Literal("gp", (X_, Y_)), (
        Literal("sibling", (X_, Y_)),)), [("ann", "bob")]), "unknown predicate"),
    (lambda: clause_bindings(FAMILY, HornClause(Literal("gp", (X_, Y_)), (
        Literal("parent", (X_,)),)), [("ann", "bob")]), "arity"),
    (lambda: clause_bindings(FAMILY, HornClause(Literal("gp", (X_, Y_)), (
        Literal("male", (Z_,), negated=True),)), [("ann", "bob")]), "unsafe"),
    (lambda: foil_gain(4, 1, 2, 0, 3), "t must not exceed"),
])
def test_malformed_knowledge_and_rules_are_refused(call, name):
    with pytest.raises(ValueError, match=name):
        call()


def test_foil_predict_before_fit():
    with pytest.raises(NotFittedError):
        FOIL().predict([("a", "b")])


def test_closed_world_too_large_is_refused():
    kb = KnowledgeBase({"p": {(i, i + 1) for i in range(400)}})
    with pytest.raises(ValueError, match="negatives"):
        FOIL().fit(kb, "t", [(0, 1, 2)])


# ---------------------------------------------------------------------------
# LGG
# ---------------------------------------------------------------------------


def f(*a):
    return Compound("f", a)


def test_lgg_by_hand():
    assert lgg_terms(f("a", Compound("g", ("b",))), f("c", Compound("g", ("b",)))) == \
        f(Var("V0"), Compound("g", ("b",)))
    assert lgg_terms(f("a", "a"), f("b", "b")) == f(Var("V0"), Var("V0"))
    assert lgg_terms(f("a", "b"), f("b", "a")) == f(Var("V0"), Var("V1"))
    # an input variable named V0 is not reused for a fresh pair
    out = lgg_terms(f(Var("V0"), "a"), f(Var("V0"), "b"))
    assert out == f(Var("V0"), Var("V1"))
    lit = lgg_literals(Literal("p", ("a", f("a"))), Literal("p", ("b", f("b"))))
    assert lit == Literal("p", (Var("V0"), f(Var("V0"))))
    with pytest.raises(ValueError, match="same predicate"):
        lgg_literals(Literal("p", ("a",)), Literal("q", ("a",)))


def test_clause_lgg_plotkin_example_and_subsumption():
    c = Clause(frozenset({Literal("p", ("a", "b")), Literal("q", ("a",))}))
    d = Clause(frozenset({Literal("p", ("c", "c")), Literal("q", ("c",))}))
    out = lgg_clauses(c, d)
    assert out == Clause(frozenset({Literal("p", (Var("V0"), Var("V1"))),
                                    Literal("q", (Var("V0"),))}))
    theta = theta_subsumes(out, d)
    assert theta == {Var("V0"): "c", Var("V1"): "c"}
    assert substitute(out, theta).literals <= d.literals
    assert theta_subsumes(c, d) is None
    assert match(f(X_, X_), f("a", "b")) is None
    assert match(f(X_, "b"), f("a", "b")) == {X_: "a"}


def test_lrs_prepruning_keeps_fewer_rules_on_noisy_data_and_matches_the_g_test():
    from scipy.stats import power_divergence

    from algorithms.rules import likelihood_ratio_statistic

    rng = np.random.default_rng(3)
    X, y = _conjunction(300, rng)
    y = np.where(rng.random(y.size) < 0.15, 1 - y, y)
    pre = SequentialCoveringClassifier(pruning="lrs", significance=0.01).fit(X, y)
    full = SequentialCoveringClassifier().fit(X, y)
    assert 1 <= len(pre.rules_) < len(full.rules_)
    assert pre.lrs_threshold_ == pytest.approx(6.634896601021214)  # chi2(1) at 0.99
    # hand case: 10 of 12 covered are positive, prior 30 : 70
    g = power_divergence([10, 2], [12 * 0.3, 12 * 0.7], lambda_="log-likelihood")
    assert float(likelihood_ratio_statistic(10, 2, 30, 70)) == pytest.approx(g.statistic)
    assert float(likelihood_ratio_statistic(3, 7, 30, 70)) == pytest.approx(0.0, abs=1e-12)
