"""Bayes' formula and Bayesian decision theory (003 §5.1-§5.2, (5.1)-(5.3)).

Exact enumeration on finite problems: joint tables in rationals, every deterministic
decision rule's overall risk computed exactly, the library's conditional risk and
decision compared with them.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
from hypothesis import example, given
from hypothesis import strategies as st

from algorithms.bayes import NaiveBayesClassifier
from mltheory import ErratumKind, Expect, Method, claim, evidence
from properties.bayes.strategies import (
    DecisionProblem,
    decision_problems,
    distributions,
    rational_distributions,
)
from properties.bayes.support import (
    POSTERIOR,
    assert_matches,
    check_bayes_rule_optimal,
    check_zero_one_reduction,
    exact_posteriors,
)


@st.composite
def joint_tables(draw, positive: bool = False) -> list[list[Fraction]]:
    """``table[x][c] = P(x, c)`` over up to 5 inputs and 4 classes, every class and every
    input with positive probability."""
    n, K = draw(st.integers(1, 5)), draw(st.integers(2, 4))
    flat = draw(rational_distributions(n * K, positive=positive))
    table = [flat[i * K:(i + 1) * K] for i in range(n)]
    rows_ok = all(sum(r) > 0 for r in table)
    cols_ok = all(sum(r[c] for r in table) > 0 for c in range(K))
    if not (rows_ok and cols_ok):
        table = [[v + Fraction(1, 64) for v in r] for r in table]
        total = sum(sum(r) for r in table)
        table = [[v / total for v in r] for r in table]
    return table


@claim(
    id="bayes.formula_5_1",
    source="003 §5.1 (5.1)",
    statement="P(c | x) = P(c, x) / P(x) = P(x | c) P(c) / P(x); a Bayes classifier's "
    "posteriors (here naive Bayes on one attribute, fitted on the exact table) are these.",
    method=Method.ENUMERATION,
    tags=("bayes", "decision"),
)
@given(table=joint_tables())
def formula_5_1(table):
    n, K = len(table), len(table[0])
    prior = [sum(table[x][c] for x in range(n)) for c in range(K)]
    for x in range(n):
        px = sum(table[x])
        for c in range(K):
            likelihood = table[x][c] / prior[c]
            assert table[x][c] / px == likelihood * prior[c] / px, (x, c)
    positive = all(v > 0 for row in table for v in row)
    if positive:  # the estimator refuses zero cells without smoothing
        X = np.repeat(np.arange(n), K)[:, None].astype(float)
        y = np.tile(np.arange(K), n)
        w = np.array([float(table[x][c]) for x in range(n) for c in range(K)])
        clf = NaiveBayesClassifier(categorical_features="all", alpha=0.0).fit(X, y, w)
        exact = np.array([[float(v) for v in row] for row in exact_posteriors(table)])
        assert_matches(clf.predict_proba(np.arange(n)[:, None].astype(float)), exact, POSTERIOR,
                     label="|predict_proba - P(c,x)/P(x)|")


def check_prior(table, prior_of) -> None:
    """A prior is a distribution over the classes known before ``x`` is seen: it sums to 1
    over ``c`` and is the posterior averaged over ``x``: ``sum_x P(x) P(c | x)``.
    ``prior_of(table, x)`` gives the candidate prior vector at input ``x``."""
    n, K = len(table), len(table[0])
    post = exact_posteriors(table)
    average = [sum(sum(table[x]) * post[x][c] for x in range(n)) for c in range(K)]
    for x in range(n):
        candidate = prior_of(table, x)
        assert sum(candidate) == 1, f"the 'prior' at x={x} sums to {sum(candidate)}, not 1"
        assert candidate == average, (
            f"the 'prior' at x={x} is {candidate}, not the average posterior {average}")


def class_prior(table, x):
    return [sum(table[k][c] for k in range(len(table))) for c in range(len(table[0]))]


def likelihood_as_prior(table, x):
    return [table[x][c] / class_prior(table, x)[c] for c in range(len(table[0]))]


@claim(
    id="bayes.prior_5_1",
    source="003 §5.1 (5.1)",
    statement="In (5.1) the prior is P(c): a distribution over the classes that equals "
    "the posterior averaged over x, sum_x P(x) P(c | x); P(x | c) is the likelihood.",
    method=Method.ENUMERATION,
    tags=("bayes", "decision"),
)
@given(table=joint_tables())
def prior_5_1(table):
    check_prior(table, class_prior)


@claim(
    id="bayes.prior_5_1_as_written",
    source="003 §5.1",
    statement="(As written) the prior of Bayes' formula is P(x | c).",
    method=Method.ENUMERATION,
    tags=("bayes", "decision", "erratum"),
    expect=Expect.REFUTED,
    kind=ErratumKind.SYMBOL,
    corrected_by="bayes.prior_5_1",
    explanation="Wrong symbol: the notes call P(x | c) the prior; P(x | c) is the "
    "class-conditional likelihood, a distribution over x, and the prior is P(c). With "
    "P(x1, c1) = 1/2, P(x1, c2) = P(x2, c2) = 1/4, P(x2, c1) = 0: P(x1 | c) = (1, 1/2) "
    "sums to 3/2 over the classes, while P(c) = (1/2, 1/2).",
)
@given(table=joint_tables())
@example(table=[[Fraction(1, 2), Fraction(1, 4)], [Fraction(0), Fraction(1, 4)]])
def prior_5_1_as_written(table):
    check_prior(table, likelihood_as_prior)


@claim(
    id="bayes.cond_risk_5_2_5_3",
    source="003 §5.2 (5.2); 003 §5.2 (5.3)",
    statement="R(c_i | x) = sum_j lambda_ij P(c_j | x), and the rule h*(x) = argmin_c "
    "R(c | x) has the least overall risk sum_x P(x) R(h(x) | x) among all deterministic "
    "rules, for any loss matrix.",
    method=Method.ENUMERATION,
    tags=("bayes", "decision"),
)
@given(problem=decision_problems())
@example(problem=DecisionProblem(
    joint=[[Fraction(3, 10), Fraction(1, 5)], [Fraction(1, 10), Fraction(2, 5)]],
    loss=[[Fraction(0), Fraction(10)], [Fraction(1), Fraction(0)]]))
def cond_risk_5_2_5_3(problem):
    check_bayes_rule_optimal(problem)


@claim(
    id="bayes.zero_one_loss_reduction",
    source="003 §5.2 (5.2)-(5.3)",
    statement="(Implied) with lambda_ij = 1 - delta_ij, R(c | x) = 1 - P(c | x), so the "
    "Bayes rule (5.3) decides argmax_c P(c | x).",
    method=Method.PROPERTY,
    tags=("bayes", "decision"),
)
@given(K=st.integers(2, 6), n=st.integers(1, 5), data=st.data())
def zero_one_loss_reduction(K, n, data):
    P = np.array([data.draw(distributions(K)) for _ in range(n)])
    check_zero_one_reduction(P)
    evidence.add_examples(n)

