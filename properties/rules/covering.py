"""Sequential covering, ordered rule lists and reduced-error pruning (003 §13.1-§13.3).

The notes' Chapter 13 is short: §13.1 defines a rule, §13.2 describes sequential
covering (learn a rule, remove the training examples it covers, repeat on the rest),
§13.3 says rule generation is a greedy search with a risk of overfitting, mitigated by
pruning done as for decision trees (§2.4: keep a pruning step when the validation
accuracy does not suffer). Each claim below checks one of these statements on
:class:`algorithms.rules.SequentialCoveringClassifier` against loops written in
:mod:`properties.rules.support` (literal language, coverage, decision-list prediction).
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np
from hypothesis import example, given
from hypothesis import strategies as st
from scipy import stats

from algorithms.rules import SequentialCoveringClassifier, likelihood_ratio_statistic
from mltheory import Method, claim, evidence
from mltheory.numeric import Tolerance, assert_close
from mltheory.stats import check_probability_at_least
from properties.rules.strategies import RuleTable, rule_tables
from properties.rules.support import (
    brute_literals,
    criterion_value,
    list_predict,
    rule_covers,
)

CRITERIA = st.sampled_from(["foil_gain", "precision", "laplace"])
LENGTHS = st.one_of(st.none(), st.integers(1, 3))

#: Alternating labels on a line: every minority example needs its own rule, so the
#: covering runs exactly as many rounds as there are minority examples (the bound's edge).
ALTERNATING = RuleTable(np.arange(9.0)[:, None], np.array([0, 1] * 4 + [0]), ())
#: A row duplicated with both labels (inconsistent data): no rule separates them.
CONFLICT = RuleTable(np.array([[0.0], [0.0], [1.0], [2.0]]), np.array([0, 1, 1, 0]), ())


def _covers_rows(rule, X: np.ndarray) -> np.ndarray:
    return np.array([rule_covers(rule.conditions, x) for x in X], dtype=bool)


def check_covering(est: SequentialCoveringClassifier, X: np.ndarray, y: np.ndarray,
                   consistent: bool) -> None:
    """Replay the unpruned rule list on the training rows (loops) against the covering
    trace; each round removes >= 1 remaining positive, rounds <= |D|, nothing but
    default-class examples remains; on consistent data no rule covers a remaining
    negative and the list classifies every training example correctly."""
    rules, trace = est.unpruned_rules_, est.covering_trace_
    assert est.n_rounds_ == len(trace) == len(rules), "round count differs from the trace"
    remaining = np.ones(X.shape[0], dtype=bool)
    for k, (rule, rec) in enumerate(zip(rules, trace, strict=True)):
        pos = remaining & (y == rule.prediction)
        neg = remaining & (y != rule.prediction)
        cov = remaining & _covers_rows(rule, X)
        counts = (int(pos.sum()), int(neg.sum()), int((cov & pos).sum()),
                  int((cov & neg).sum()))
        recorded = (rec["positives"], rec["negatives"], rec["covered_positives"],
                    rec["covered_negatives"])
        assert counts == recorded, f"round {k}: replayed counts {counts}, trace {recorded}"
        assert counts[2] >= 1, f"round {k}: the rule {rule} covers no remaining positive"
        if consistent:
            assert counts[3] == 0, f"round {k}: consistent data, yet {rule} covers negatives"
        remaining &= ~cov
    assert est.n_rounds_ <= X.shape[0], f"{est.n_rounds_} rounds for |D| = {X.shape[0]}"
    left = remaining & (y != est.default_class_)
    assert not left.any(), f"non-default examples left uncovered: {np.flatnonzero(left)}"
    evidence.worst("rounds / |D|", est.n_rounds_ / X.shape[0])
    if consistent:
        pred = np.array(list_predict(rules, est.default_class_, X))
        assert np.array_equal(pred, y), "the consistent rule list misclassifies training data"


@claim(
    id="rules.covering_terminates",
    source="003 §13.2",
    statement="Sequential covering learns one rule at a time and removes the training "
    "examples it covers; each rule covers at least one remaining positive example, so the "
    "loop ends after at most |D| rounds with every example of a non-default class covered; "
    "on consistent data (no row with two labels) every rule covers no remaining negative "
    "and the ordered rule set classifies all training examples correctly.",
    method=Method.PROPERTY,
    tags=("rules", "covering"),
)
@given(table=rule_tables(), consistent=st.booleans(), criterion=CRITERIA, length=LENGTHS)
@example(table=ALTERNATING, consistent=True, criterion="foil_gain", length=None)
@example(table=CONFLICT, consistent=False, criterion="precision", length=None)
def covering_terminates(table, consistent, criterion, length):
    X, y = table.X, table.y
    if consistent:
        _, first, inv = np.unique(X, axis=0, return_index=True, return_inverse=True)
        consistent = bool(np.all(y == y[first][inv.reshape(-1)]))
    est = SequentialCoveringClassifier(
        criterion=criterion, max_rule_length=None if consistent else length,
        categorical_features=list(table.categorical)).fit(X, y)
    check_covering(est, X, y, consistent)


def check_decision_list(est: SequentialCoveringClassifier, X_train: np.ndarray,
                        y_train: np.ndarray, X: np.ndarray) -> None:
    """Prediction = class of the first covering rule, else the default class (the most
    frequent training class, ties to the largest label); coverage table by loops."""
    labels, counts = np.unique(y_train, return_counts=True)
    assert est.default_class_ == labels[np.flatnonzero(counts == counts.max())[-1]], \
        f"default class {est.default_class_!r} is not the most frequent training class"
    want = list_predict(est.rules_, est.default_class_, X)
    got = est.predict(X)
    assert list(got) == want, "predictions differ from the first-match rule"
    table = np.column_stack([_covers_rows(r, X) for r in est.rules_]) if est.rules_ \
        else np.zeros((X.shape[0], 0), bool)
    assert np.array_equal(est.coverage(X), table), "coverage table differs"
    conflicts = int(np.sum(table.sum(axis=1) > 1)) if table.size else 0
    evidence.worst("samples covered by several rules (resolved by order)", conflicts)
    evidence.worst("samples covered by no rule (default rule)",
                   int(np.sum(~table.any(axis=1))) if table.size else X.shape[0])


@claim(
    id="rules.decision_list",
    source="003 §13.1",
    statement="A rule 'class <- conjunction of literals' covers the samples satisfying "
    "its body (the notes define a rule only; the conflict resolution and default rule "
    "below are the standard ones this learner states): a sample takes the class of the "
    "first rule covering it (conflicts resolved by order), and the default class (the most "
    "frequent training class) when no rule covers it, so every input is classified.",
    method=Method.PROPERTY,
    tags=("rules", "covering"),
)
@given(table=rule_tables(), criterion=CRITERIA, length=LENGTHS,
       pruning=st.sampled_from([None, "rep"]), seed=st.integers(0, 2**32 - 1))
def decision_list(table, criterion, length, pruning, seed):
    X, y = table.X, table.y
    est = SequentialCoveringClassifier(
        criterion=criterion, max_rule_length=length, pruning=pruning,
        categorical_features=list(table.categorical), random_state=seed).fit(X, y)
    rng = np.random.default_rng(seed)
    probe = np.vstack([X, X + rng.choice([-0.5, 0.0, 0.5, 7.0], size=X.shape)])
    y_grow = y[est.grow_indices_]
    check_decision_list(est, X[est.grow_indices_], y_grow, probe)


def check_greedy_search(est: SequentialCoveringClassifier, X: np.ndarray, y: np.ndarray,
                        categorical: tuple[int, ...], criterion: str,
                        max_length: int | None) -> float:
    """Every literal of every rule is a best candidate (keeps a positive, drops a
    negative, maximal criterion among all such literals of the brute-force language) at
    its step, and each rule stops only when it covers no negative, no literal qualifies,
    or the length cap is reached. Returns the largest score shortfall found (0 = exact)."""
    lits = brute_literals(X, categorical)
    masks = [np.array([_holds_one(lit, x) for x in X]) for lit in lits]
    remaining = np.ones(X.shape[0], dtype=bool)
    worst = 0.0
    for rule in est.unpruned_rules_:
        pos = remaining & (y == rule.prediction)
        neg = remaining & (y != rule.prediction)
        for step, c in enumerate(rule.conditions):
            key = (c.feature, c.operator, c.value)
            assert key in lits, f"{c} is outside the literal language"
            best = -np.inf
            p0, n0 = int(pos.sum()), int(neg.sum())
            for m in masks:
                p1, n1 = int((pos & m).sum()), int((neg & m).sum())
                if p1 >= 1 and n1 < n0:
                    best = max(best, criterion_value(criterion, p0, n0, p1, n1))
            m = masks[lits.index(key)]
            p1, n1 = int((pos & m).sum()), int((neg & m).sum())
            assert p1 >= 1 and n1 < n0, f"step {step} of {rule}: {c} is no candidate"
            got = criterion_value(criterion, p0, n0, p1, n1)
            worst = max(worst, best - got)
            assert got >= best - 1e-9, (
                f"step {step} of {rule}: {c} scores {got}, the best candidate {best}")
            pos, neg = pos & m, neg & m
        if neg.any() and (max_length is None or len(rule.conditions) < max_length):
            p0, n0 = int(pos.sum()), int(neg.sum())
            assert not any(int((pos & m).sum()) >= 1 and int((neg & m).sum()) < n0
                           for m in masks), f"{rule} stopped while a literal qualified"
        remaining &= ~_covers_rows(rule, X)
    return worst


def _holds_one(lit, x) -> bool:
    j, op, v = lit
    return bool(x[j] <= v) if op == "<=" else bool(x[j] > v) if op == ">" else bool(
        x[j] == v)


@claim(
    id="rules.greedy_search",
    source="003 §13.3; 003 §13.2",
    statement="Rule generation is a greedy search: starting from the empty rule, each "
    "step adds the literal that is best by the quality measure among those keeping a "
    "positive and dropping a negative (general-to-specific), and a rule stops growing "
    "only when it covers no negative, no literal qualifies, or the length cap is reached.",
    method=Method.ENUMERATION,
    tags=("rules", "covering"),
)
@given(table=rule_tables(max_size=16), criterion=CRITERIA, length=LENGTHS)
def greedy_search(table, criterion, length):
    est = SequentialCoveringClassifier(
        criterion=criterion, max_rule_length=length,
        categorical_features=list(table.categorical)).fit(table.X, table.y)
    gap = check_greedy_search(est, table.X, table.y, table.categorical, criterion, length)
    evidence.worst("best candidate score - chosen literal score", gap)


def check_rep(est: SequentialCoveringClassifier, X: np.ndarray, y: np.ndarray) -> None:
    """Reduced-error pruning: the recorded validation accuracies are recomputed (loops)
    from the unpruned list and the recorded deletions, never decrease, end at the pruned
    list's accuracy, and every single further deletion would lower it."""
    Xv, yv = X[est.validation_indices_], y[est.validation_indices_]
    default = est.default_class_

    def acc(rules) -> float:
        return float(np.mean(np.array(list_predict(rules, default, Xv), dtype=object) == yv))

    rules = [list(r.conditions) for r in est.unpruned_rules_]
    preds = [r.prediction for r in est.unpruned_rules_]
    hist = est.validation_accuracy_history_

    def as_rules():
        return [type(est.unpruned_rules_[0])(tuple(c), p) for c, p in
                zip(rules, preds, strict=True)] if rules else []

    assert len(hist) == len(est.pruning_steps_) + 1
    assert abs(acc(as_rules()) - hist[0]) < 1e-12, "history[0] is not the unpruned accuracy"
    for i, step in enumerate(est.pruning_steps_):
        if step[0] == "rule":
            del rules[step[1]]
            del preds[step[1]]
        else:
            del rules[step[1]][step[2]]
        a = acc(as_rules())
        assert abs(a - hist[i + 1]) < 1e-12, f"step {i}: accuracy {a}, recorded {hist[i + 1]}"
        assert hist[i + 1] >= hist[i], f"step {i} lowered the validation accuracy"
    final = [(tuple(r.conditions), r.prediction) for r in est.rules_]
    assert final == [(tuple(c), p) for c, p in zip(rules, preds, strict=True)], \
        "the recorded deletions do not lead to rules_"
    current = hist[-1]
    for r in range(len(rules)):
        trial = as_rules()
        del trial[r]
        assert acc(trial) < current, f"deleting rule {r} would not lower the accuracy"
        for k in range(len(rules[r])):
            trial = as_rules()
            conds = list(trial[r].conditions)
            del conds[k]
            trial[r] = type(trial[r])(tuple(conds), trial[r].prediction)
            assert acc(trial) < current, f"deleting literal {k} of rule {r} keeps accuracy"
    evidence.worst("validation accuracy gained by pruning", hist[-1] - hist[0])


@claim(
    id="rules.rep_pruning",
    source="003 §13.3; 003 §2.4.2",
    statement="Pruning 'as for decision trees': each reduced-error pruning step deletes a "
    "whole rule or one literal and is kept only when the validation accuracy does not "
    "drop, so the validation accuracy never decreases, and pruning stops where every "
    "further single deletion would lower it.",
    method=Method.PROPERTY,
    tags=("rules", "pruning"),
)
@given(table=rule_tables(max_size=24), criterion=CRITERIA, seed=st.integers(0, 2**32 - 1))
def rep_pruning(table, criterion, seed):
    est = SequentialCoveringClassifier(
        criterion=criterion, pruning="rep", categorical_features=list(table.categorical),
        random_state=seed).fit(table.X, table.y)
    check_rep(est, table.X, table.y)


#: Sizes of each simulated problem: training (grown + pruning split) and test samples.
OVERFIT_TRAIN, OVERFIT_TEST = 90, 400
#: Problems per run in the quick profile (the profile's scale multiplies it).
OVERFIT_TRIALS = 30


def _noisy_problem(rng: np.random.Generator):
    """A random target rule set on 2..4 uniform attributes (1..3 rules of 1..2 threshold
    literals), labels flipped with probability 0.1..0.3."""
    d = int(rng.integers(2, 5))
    n = OVERFIT_TRAIN + OVERFIT_TEST
    X = rng.random((n, d)).round(2)
    label = np.zeros(n, dtype=int)
    for _ in range(int(rng.integers(1, 4))):
        cover = np.ones(n, dtype=bool)
        for _ in range(int(rng.integers(1, 3))):
            j, t = int(rng.integers(d)), rng.uniform(0.2, 0.8)
            cover &= (X[:, j] <= t) if rng.random() < 0.5 else (X[:, j] > t)
        label |= cover
    noise = rng.uniform(0.1, 0.3)
    y = np.where(rng.random(n) < noise, 1 - label, label)
    return X, y, label


def run_overfit(rng: np.random.Generator, trials: int,
                fit: Callable[..., SequentialCoveringClassifier],
                test_on_train: bool = False) -> tuple[int, int, int, list]:
    """Per problem: unpruned (all training data) and REP-pruned rule lists; returns
    (pruned wins, differing trials, unpruned train > test accuracy count, test gains).
    ``test_on_train`` is the broken variant of the teeth tests (test slice = train)."""
    wins = differ = gaps = 0
    gains = []
    done = 0
    while done < trials:
        X, y, _ = _noisy_problem(rng)
        tr = slice(0, OVERFIT_TRAIN)
        te = tr if test_on_train else slice(OVERFIT_TRAIN, None)
        if np.unique(y[tr]).size < 2:
            continue
        done += 1
        seed = int(rng.integers(2**31))
        full = fit(pruning=None).fit(X[tr], y[tr])
        pruned = fit(pruning="rep", random_state=seed).fit(X[tr], y[tr])
        a_full, a_pruned = full.score(X[te], y[te]), pruned.score(X[te], y[te])
        gaps += int(full.score(X[tr], y[tr]) > a_full)
        gains.append(a_pruned - a_full)
        differ += int(a_pruned != a_full)
        wins += int(a_pruned > a_full)
    return wins, differ, gaps, gains


def check_overfit(rng: np.random.Generator, trials: int,
                  fit: Callable[..., SequentialCoveringClassifier],
                  test_on_train: bool = False) -> None:
    """The two decisions of rules.greedy_overfit on ``trials`` simulated problems."""
    wins, differ, gaps, gains = run_overfit(rng, trials, fit, test_on_train)
    evidence.record("mean test accuracy gain of pruned over unpruned", float(np.mean(gains)))
    evidence.series("test accuracy gain per problem", list(range(len(gains))), gains,
                    kind="scatter", xlabel="problem", ylabel="pruned - unpruned")
    check_probability_at_least(gaps, trials, 0.5,
                               label="P(unpruned training accuracy > test accuracy)")
    check_probability_at_least(wins, max(differ, 1), 0.5,
                               label="P(pruned more accurate | test accuracies differ)")


@claim(
    id="rules.greedy_overfit",
    source="003 §13.3",
    statement="Greedy rule generation overfits and pruning mitigates it: on random noisy "
    "problems (a random threshold rule set on 2-4 attributes, 10-30% label noise), the "
    "rule list grown until consistent fits its training data better than test data, and "
    "whenever the test accuracies differ the reduced-error-pruned list is more accurate "
    "more often than not (each refuted only if a one-sided Clopper-Pearson bound at "
    "confidence 1 - 1e-6 puts the probability below 1/2).",
    method=Method.SIMULATION,
    tags=("rules", "pruning", "slow"),
)
def greedy_overfit(rng, scale):
    check_overfit(rng, OVERFIT_TRIALS * scale, SequentialCoveringClassifier)


#: The likelihood-ratio statistic against scipy's G-test: sums of a few x ln(x/e) with
#: counts below 1e2, evaluated in different orders (a few ulps of the largest term).
LRS_ROUNDING = Tolerance(rtol=1e-10, atol=1e-10,
                         reason="sums of x ln(x/e) over counts < 1e2 in two evaluation "
                         "orders")


def check_lrs(est: SequentialCoveringClassifier, X: np.ndarray, y: np.ndarray,
              categorical: tuple[int, ...], alpha: float) -> None:
    """Pre-pruning by the likelihood-ratio test: the threshold is scipy's chi-square
    (1 d.f.) critical value; every prefix of every rule is significant by scipy's G-test
    (power_divergence, log-likelihood) on the examples left at its round, which also
    matches likelihood_ratio_statistic; a class's covering stops with positives left only
    when no single literal gives a qualifying significant rule (brute force)."""
    threshold = float(stats.chi2.ppf(1.0 - alpha, 1))
    assert_close(est.lrs_threshold_, threshold, LRS_ROUNDING, label="threshold error")

    def g_test(p, n, P, N):
        cov = p + n
        return float(stats.power_divergence([p, n], [cov * P / (P + N), cov * N / (P + N)],
                                            lambda_="log-likelihood").statistic)

    labels, counts = np.unique(y, return_counts=True)
    # the statistic at the edges of its domain (a rule covering no positive or no
    # negative: the 0 ln 0 = 0 terms), against scipy
    P, N = int(counts[0]), int(counts.sum() - counts[0])
    for p, n in [(0, N), (P, 0), (0, 1), (1, 0), (P, N)]:
        assert_close(float(likelihood_ratio_statistic(p, n, P, N)), g_test(p, n, P, N),
                     LRS_ROUNDING, label=f"LRS error vs scipy G-test at p={p}, n={n}")
    order = labels[np.argsort(counts, kind="stable")]
    lits = brute_literals(X, categorical)
    masks = [np.array([_holds_one(lit, x) for x in X]) for lit in lits]
    remaining = np.ones(X.shape[0], dtype=bool)
    rules = list(est.unpruned_rules_)
    worst = 0.0
    for c in order[:-1]:
        while rules and rules[0].prediction == c:
            rule = rules.pop(0)
            pos, neg = remaining & (y == c), remaining & (y != c)
            P, N = int(pos.sum()), int(neg.sum())
            cov = remaining.copy()
            assert rule.conditions, "pre-pruning kept an empty rule"
            for k, cond in enumerate(rule.conditions):
                cov &= masks[lits.index((cond.feature, cond.operator, cond.value))]
                p, n = int((cov & pos).sum()), int((cov & neg).sum())
                ref = g_test(p, n, P, N)
                ours = float(likelihood_ratio_statistic(p, n, P, N))
                assert_close(ours, ref, LRS_ROUNDING, label="LRS error vs scipy G-test")
                worst = max(worst, threshold / ref if ref > 0 else math.inf)
                assert ref >= threshold - 1e-9, (
                    f"prefix {k + 1} of {rule}: G = {ref} below the critical {threshold}")
            remaining &= ~cov
        pos, neg = remaining & (y == c), remaining & (y != c)
        if pos.any() and neg.any():
            P, N = int(pos.sum()), int(neg.sum())
            for m in masks:
                p, n = int((pos & m).sum()), int((neg & m).sum())
                if p >= 1 and n < N:
                    assert g_test(p, n, P, N) < threshold + 1e-9, (
                        f"class {c!r}: covering stopped though a literal gives G = "
                        f"{g_test(p, n, P, N)} >= {threshold}")
    assert not rules, "rules left over after replaying every class in order"
    evidence.worst("critical value / G of the weakest kept prefix (1 = on the edge)",
                   worst if worst != math.inf else 0.0)


@claim(
    id="rules.lrs_prepruning",
    source="003 §13.3; Clark and Niblett 1989, CN2 (likelihood-ratio significance)",
    statement="Pre-pruning with a significance test: a literal is added only if the "
    "refined rule's likelihood-ratio statistic 2 sum f_c ln(f_c/e_c) (expected counts from "
    "the class shares of the remaining examples) reaches the chi-square(1) critical value "
    "at level alpha; so every kept rule and each of its prefixes is significant, and a "
    "class's covering stops only when no significant literal exists.",
    method=Method.REFERENCE,
    tags=("rules", "pruning"),
)
@given(table=rule_tables(max_size=30), alpha=st.sampled_from([0.5, 0.2, 0.05, 0.01]),
       criterion=CRITERIA)
def lrs_prepruning(table, alpha, criterion):
    est = SequentialCoveringClassifier(
        criterion=criterion, pruning="lrs", significance=alpha,
        categorical_features=list(table.categorical)).fit(table.X, table.y)
    check_lrs(est, table.X, table.y, table.categorical, alpha)
