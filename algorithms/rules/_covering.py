"""Sequential covering (separate-and-conquer) with reduced-error pruning (003 §13.1-§13.3).

The propositional rule learner of Chapter 13: an ordered rule list (a decision list)
grown one rule at a time, each rule by a general-to-specific greedy search over
attribute-value literals; the examples a new rule covers are removed and the search is
repeated on the rest (§13.2). Optionally the grown list is pruned by reduced-error
pruning on a held-out validation split, "as for decision trees" (§13.3, §2.4.2).

Literal language
----------------
For a numeric attribute ``j``: ``x_j <= t`` and ``x_j > t`` with ``t`` a midpoint of two
consecutive distinct training values of ``x_j``. For an attribute declared discrete
(``categorical_features``): ``x_j == v`` for every training value ``v``. A rule is a
conjunction of literals and predicts one class; the empty conjunction covers everything.

Conflict resolution and default rule
------------------------------------
Rules are ordered: an example takes the class of the first rule that covers it (an
ordered rule set resolves every conflict); an example no rule covers takes the class of
the default rule, the most frequent training class, so every input gets a class.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy.stats import chi2
from sklearn.base import BaseEstimator, ClassifierMixin

from algorithms._validation import (
    check_choice,
    check_int,
    check_real,
    make_rng,
    validate_classification,
    validate_features,
)
from algorithms.rules._foil import foil_gain

__all__ = [
    "Condition",
    "Rule",
    "SequentialCoveringClassifier",
    "likelihood_ratio_statistic",
]

#: Literal-quality measures of the general-to-specific search.
CRITERIA = ("foil_gain", "precision", "laplace")
#: Pruning modes: none, reduced-error post-pruning on a validation split ("rep"), or
#: pre-pruning by the likelihood-ratio significance test ("lrs").
PRUNING = (None, "rep", "lrs")
#: Comparison operators of the literal language.
OPERATORS = ("<=", ">", "==")


@dataclass(frozen=True)
class Condition:
    """A literal ``x[feature] <operator> value`` with ``operator`` in ``<=, >, ==``."""

    feature: int
    operator: str
    value: float

    def holds(self, X: np.ndarray) -> np.ndarray:
        """Boolean mask (n_samples,) of the rows of ``X`` that satisfy the literal."""
        column = X[:, self.feature]
        if self.operator == "<=":
            return column <= self.value
        if self.operator == ">":
            return column > self.value
        return column == self.value

    def __str__(self) -> str:
        return f"x[{self.feature}] {self.operator} {self.value:.6g}"


@dataclass(frozen=True)
class Rule:
    """``prediction <- c_1 and ... and c_L``: a conjunction of literals and a class."""

    conditions: tuple[Condition, ...]
    prediction: object

    def covers(self, X: np.ndarray) -> np.ndarray:
        """Boolean mask of the rows of ``X`` that satisfy every condition."""
        mask = np.ones(X.shape[0], dtype=bool)
        for c in self.conditions:
            mask &= c.holds(X)
        return mask

    def __str__(self) -> str:
        body = " and ".join(str(c) for c in self.conditions) or "true"
        return f"{self.prediction!r} <- {body}"


def _literals(X: np.ndarray, categorical: np.ndarray) -> list[Condition]:
    """The literal language of a training table (see the module docstring)."""
    out: list[Condition] = []
    for j in range(X.shape[1]):
        values = np.unique(X[:, j])
        if categorical[j]:
            out.extend(Condition(j, "==", float(v)) for v in values)
        else:
            for t in (values[:-1] + values[1:]) / 2.0:
                out.append(Condition(j, "<=", float(t)))
                out.append(Condition(j, ">", float(t)))
    return out


def _literal_matrix(X: np.ndarray, literals: list[Condition]) -> np.ndarray:
    """(n_samples, n_literals) Boolean table: which row satisfies which literal."""
    if not literals:
        return np.zeros((X.shape[0], 0), dtype=bool)
    feat = np.array([c.feature for c in literals])
    val = np.array([c.value for c in literals])
    op = np.array([OPERATORS.index(c.operator) for c in literals])
    cols = X[:, feat]
    return np.where(op == 0, cols <= val, np.where(op == 1, cols > val, cols == val))


def _scores(criterion: str, p0: int, n0: int, p1: np.ndarray, n1: np.ndarray) -> np.ndarray:
    """Quality of each candidate literal given the counts before (p0, n0) and after."""
    if criterion == "foil_gain":
        # propositional FOIL: every covered positive example is one binding, so t = p1
        return foil_gain(p0, n0, p1, n1, p1)
    if criterion == "precision":
        return p1 / np.maximum(p1 + n1, 1)
    return (p1 + 1.0) / (p1 + n1 + 2.0)


def likelihood_ratio_statistic(p: object, n: object, P: object, N: object) -> np.ndarray:
    """CN2's likelihood-ratio statistic ``2 sum_c f_c ln(f_c / e_c)`` of a rule covering
    ``p`` positives and ``n`` negatives, against the class shares ``P : N`` of the examples
    it is learned from (``e_c`` = covered count times the share; ``0 ln 0 = 0``).
    Asymptotically chi-square with 1 degree of freedom when the rule is uninformative.

    ``p, n`` broadcast; requires ``0 <= p <= P``, ``0 <= n <= N`` and ``p + n >= 1``.
    """
    arrs = []
    for name, v in (("p", p), ("n", n), ("P", P), ("N", N)):
        a = np.asarray(v)
        if a.dtype.kind not in "iuf" or (a.dtype.kind == "f" and not np.all(
                np.isfinite(a) & (a == np.round(a)))) or np.any(a < 0):
            raise ValueError(f"{name} must hold non-negative integer counts, got {v!r}.")
        arrs.append(a.astype(float))
    pa, na, Pa, Na = arrs
    try:
        pa, na = np.broadcast_arrays(pa, na)
    except ValueError as exc:
        raise ValueError(f"p and n must broadcast to one shape: {exc}") from exc
    if Pa.ndim or Na.ndim:
        raise ValueError("P and N must be scalars (the class counts the rule is learned from).")
    if np.any(pa > Pa) or np.any(na > Na):
        raise ValueError("p must not exceed P and n must not exceed N.")
    if np.any(pa + na < 1):
        raise ValueError("p and n: the rule must cover at least one example (p + n >= 1).")
    return _lrs(pa, na, float(Pa), float(Na))


def _lrs(p: np.ndarray, n: np.ndarray, P: float, N: float) -> np.ndarray:
    cov = p + n
    with np.errstate(divide="ignore", invalid="ignore"):
        tp = np.where(p > 0, p * np.log(p / (cov * P / (P + N))), 0.0)
        tn = np.where(n > 0, n * np.log(n / (cov * N / (P + N))), 0.0)
    return 2.0 * (tp + tn)


def _grow_rule(L: np.ndarray, pos: np.ndarray, neg: np.ndarray, criterion: str,
               max_length: float, threshold: float | None = None) -> list[int]:
    """General-to-specific search: from the empty rule, add the best literal that keeps a
    positive and drops a negative, until no negative is covered (or no literal qualifies,
    or the length cap is reached). With ``threshold`` (pre-pruning), a literal qualifies
    only if the refined rule's likelihood-ratio statistic reaches it. Returns the literal
    indices in order of addition."""
    conds: list[int] = []
    P, N = int(pos.sum()), int(neg.sum())
    pos, neg = pos.copy(), neg.copy()
    # counts by row selection and column sums (no BLAS: a threaded matrix-vector product
    # gains nothing at these sizes and thrashes on a shared machine)
    while neg.any() and len(conds) < max_length:
        p0, n0 = int(pos.sum()), int(neg.sum())
        p1 = L[pos].sum(axis=0, dtype=np.int64)
        n1 = L[neg].sum(axis=0, dtype=np.int64)
        ok = (p1 >= 1) & (n1 < n0)
        if threshold is not None:
            ok &= _lrs(p1.astype(float), n1.astype(float), P, N) >= threshold
        if not ok.any():
            break
        score = np.full(p1.shape, -np.inf)
        score[ok] = _scores(criterion, p0, n0, p1[ok], n1[ok])
        # best score, then most positives kept, then the first literal
        best = int(np.lexsort((np.arange(score.size), -p1, -score))[0])
        conds.append(best)
        pos &= L[:, best]
        neg &= L[:, best]
    return conds


def _first_match(C: np.ndarray, rule_codes: np.ndarray, default: int) -> np.ndarray:
    """Decision-list prediction from a (n_samples, n_rules) coverage table."""
    if C.shape[1] == 0:
        return np.full(C.shape[0], default)
    first = np.argmax(C, axis=1)
    return np.where(C.any(axis=1), rule_codes[first], default)


def _cover_table(L: np.ndarray, rules: list[list[int]]) -> np.ndarray:
    C = np.ones((L.shape[0], len(rules)), dtype=bool)
    for r, conds in enumerate(rules):
        if conds:
            C[:, r] = L[:, conds].all(axis=1)
    return C


def _deletion_scores(L_val: np.ndarray, y_val: np.ndarray, rules: list[list[int]],
                     codes: np.ndarray, default: int) -> tuple[int, np.ndarray, list[tuple]]:
    """Correct validation predictions now, and after each single deletion.

    Deleting rule ``r`` changes only the samples whose first covering rule is ``r``: they
    fall through to their second covering rule (or the default). Deleting a literal of
    rule ``r`` only widens ``r``'s coverage: samples newly covered whose first covering
    rule comes after ``r`` (or that no rule covers) switch to ``r``'s class.
    """
    n, R = L_val.shape[0], len(rules)
    C = _cover_table(L_val, rules)
    big = R  # "no rule": the default
    idx = np.where(C, np.arange(R), big)
    order = np.sort(idx, axis=1) if R else np.full((n, 1), big)
    f1 = order[:, 0]
    f2 = order[:, 1] if R > 1 else np.full(n, big)
    ext = np.append(codes, default)
    correct = ext[f1] == y_val
    base = int(correct.sum())
    # whole rules: samples first covered by r take their second covering rule's class
    fall = (ext[f2] == y_val).astype(int) - correct
    rule_delta = np.bincount(f1, weights=fall, minlength=R + 1)[:R]
    scores = [base + np.rint(rule_delta).astype(int)]
    steps = [("rule", r) for r in range(R)]
    for r, conds in enumerate(rules):
        if not conds:
            continue
        F = ~L_val[:, conds]
        nf = F.sum(axis=1)
        widened = (nf == 0)[:, None] | ((nf == 1)[:, None] & F)  # (n, m) coverage after
        eligible = (f1 > r).astype(int)  # f1 == r: already covered by r, unchanged
        gain = ((codes[r] == y_val).astype(int) - correct) * eligible
        scores.append(base + (widened & ~C[:, [r]]).astype(int).T @ gain)
        steps += [("literal", r, k) for k in range(len(conds))]
    return base, np.concatenate(scores) if steps else np.zeros(0, int), steps


def reduced_error_prune(L_val: np.ndarray, y_val: np.ndarray, rules: list[list[int]],
                        codes: list[int], default: int
                        ) -> tuple[list[list[int]], list[int], list[float], list[tuple]]:
    """Reduced-error pruning of a decision list on a validation table.

    Every step tries each single deletion (a whole rule, or one literal of one rule),
    takes the one with the highest validation accuracy (ties: whole rules first, then
    the earliest) and keeps it when the accuracy does not drop (equal accuracy prefers the
    smaller rule list); stops when every deletion lowers the accuracy.
    Returns the pruned rules and their classes, the accuracy after each accepted step
    (the first entry is the unpruned list's) and the steps ``("rule", r)`` /
    ``("literal", r, k)``.
    """
    rules = [list(c) for c in rules]
    codes = list(codes)
    n = L_val.shape[0]
    history: list[float] = []
    steps: list[tuple] = []
    while True:
        base, scores, cands = _deletion_scores(L_val, y_val, rules, np.array(codes, int),
                                               default)
        if not history:
            history.append(base / n)
        if not cands:
            break
        best = int(np.argmax(scores))  # the first of ties
        if scores[best] < base:
            break
        step = cands[best]
        if step[0] == "rule":
            del rules[step[1]]
            del codes[step[1]]
        else:
            del rules[step[1]][step[2]]
        history.append(int(scores[best]) / n)
        steps.append(step)
    return rules, codes, history, steps


class SequentialCoveringClassifier(ClassifierMixin, BaseEstimator):
    """Ordered rule list learned by sequential covering (separate-and-conquer).

    Classes are learned in order of increasing training frequency; for each class but
    the most frequent, rules are grown (greedy general-to-specific search over the
    literal language) on the examples not yet covered, with that class as the positive
    class and all other remaining examples as negatives, and every example a new rule
    covers is removed, until no positive remains. The most frequent class becomes the
    default rule.

    Parameters
    ----------
    criterion : {"foil_gain", "precision", "laplace"}, default="foil_gain"
        Literal quality: FOIL gain ``p1 (log2 p1/(p1+n1) - log2 p0/(p0+n0))`` (Quinlan,
        with one binding per example), precision ``p1/(p1+n1)``, or the Laplace
        estimate ``(p1+1)/(p1+n1+2)``; ``p, n`` count covered positives / negatives
        before (0) and after (1) adding the literal. Only literals that keep a positive
        and drop a negative are candidates.
    max_rule_length : int or None, default=None
        Largest number of literals in a rule (None: grow until no negative is covered).
    categorical_features : array-like of int or None, default=None
        Indices of the discrete attributes (literals ``x_j == v``); the others are
        numeric (threshold literals).
    pruning : {None, "rep", "lrs"}, default=None
        ``"rep"``: grow on a random part of the data and prune by reduced-error pruning
        on the held-out ``validation_fraction`` (003 §13.3 with §2.4.2). ``"lrs"``:
        pre-pruning (CN2): a literal is added only if the refined rule's
        likelihood-ratio statistic reaches the chi-square (1 d.f.) critical value at
        ``significance``; a class's covering stops when no significant rule exists.
    validation_fraction : float in (0, 1), default=1/3
        Share of the samples held out for pruning (``"rep"``).
    significance : float in (0, 1), default=0.05
        Level of the likelihood-ratio test (``"lrs"``).
    random_state : int, Generator or None
        Draws the grow/validation split.

    Attributes
    ----------
    rules_ : list of Rule
        The ordered rule list (after pruning, when pruning is on).
    default_class_ : label
        The class of the default rule.
    unpruned_rules_ : list of Rule
        The grown rule list before pruning.
    n_rounds_ : int
        Covering rounds (rules grown) before pruning.
    covering_trace_ : list of dict
        One record per round, written by the covering loop: the class, the numbers of
        remaining positives and negatives before the round, and of positives and
        negatives the new rule covered (and removed).
    validation_accuracy_history_ : list of float
        With pruning: validation accuracy of the unpruned list, then after every
        accepted pruning step. Empty without pruning.
    pruning_steps_ : list of tuple
        The accepted deletions, ``("rule", r)`` or ``("literal", r, k)``.

    References
    ----------
    003 §13.1-§13.3 (rules, sequential covering, pruning "as for decision trees",
    §2.4.2); J. R. Quinlan, Learning logical definitions from relations, 1990 (FOIL
    gain); C. Brunk and M. Pazzani, 1991 (reduced-error pruning of rule sets).
    """

    def __init__(self, *, criterion: str = "foil_gain", max_rule_length: int | None = None,
                 categorical_features: object = None, pruning: str | None = None,
                 validation_fraction: float = 1 / 3, significance: float = 0.05,
                 random_state: object = None) -> None:
        self.criterion = criterion
        self.max_rule_length = max_rule_length
        self.categorical_features = categorical_features
        self.pruning = pruning
        self.validation_fraction = validation_fraction
        self.significance = significance
        self.random_state = random_state

    def _categorical(self, d: int) -> np.ndarray:
        mask = np.zeros(d, dtype=bool)
        if self.categorical_features is None:
            return mask
        try:
            idx = np.asarray(self.categorical_features)
        except (TypeError, ValueError) as exc:
            raise ValueError(f"categorical_features must be feature indices: {exc}") from exc
        if idx.ndim != 1 or (idx.size and idx.dtype.kind not in "iu"):
            raise ValueError("categorical_features must be a 1-d list of integer feature "
                             f"indices, got {self.categorical_features!r}.")
        if idx.size == 0:
            return mask
        if idx.min() < 0 or idx.max() >= d:
            raise ValueError(f"categorical_features must be indices in [0, {d}), got "
                             f"{idx.tolist()}.")
        mask[idx] = True
        return mask

    def fit(self, X: object, y: object) -> SequentialCoveringClassifier:
        """Learn the ordered rule list (and prune it when ``pruning="rep"``)."""
        criterion = check_choice(self.criterion, "criterion", CRITERIA)
        max_len = np.inf if self.max_rule_length is None else check_int(
            self.max_rule_length, "max_rule_length", low=1)
        if self.pruning is not None:
            check_choice(self.pruning, "pruning", ("rep", "lrs"))
        alpha = check_real(self.significance, "significance", low=0.0, high=1.0,
                           low_open=True, high_open=True)
        threshold = float(chi2.isf(alpha, 1)) if self.pruning == "lrs" else None
        frac = check_real(self.validation_fraction, "validation_fraction", low=0.0,
                          high=1.0, low_open=True, high_open=True)
        X, codes = validate_classification(self, X, y)
        categorical = self._categorical(X.shape[1])
        rng = make_rng(self.random_state)
        n = X.shape[0]
        grow = np.arange(n)
        val = np.zeros(0, dtype=int)
        if self.pruning == "rep":
            if n < 2:
                raise ValueError("X must have at least 2 samples to hold out a validation "
                                 f"split for pruning, got {n}.")
            perm = rng.permutation(n)
            n_val = min(max(1, int(round(frac * n))), n - 1)
            val, grow = np.sort(perm[:n_val]), np.sort(perm[n_val:])
        Xg, cg = X[grow], codes[grow]
        literals = _literals(Xg, categorical)
        L = _literal_matrix(Xg, literals)
        counts = np.bincount(cg, minlength=self.classes_.size)
        order = np.argsort(counts, kind="stable")  # increasing frequency
        default = int(order[-1])
        remaining = np.ones(Xg.shape[0], dtype=bool)
        rules: list[list[int]] = []
        rule_codes: list[int] = []
        trace: list[dict] = []
        for c in order[:-1]:
            while True:
                pos = remaining & (cg == c)
                if not pos.any():
                    break
                neg = remaining & (cg != c)
                conds = _grow_rule(L, pos, neg, criterion, max_len, threshold)
                if threshold is not None and not conds:
                    break  # no significant rule: the class's remaining positives stay
                covered = remaining & (L[:, conds].all(axis=1) if conds else True)
                trace.append({"class": int(c), "positives": int(pos.sum()),
                              "negatives": int(neg.sum()),
                              "covered_positives": int((covered & pos).sum()),
                              "covered_negatives": int((covered & neg).sum())})
                rules.append(conds)
                rule_codes.append(int(c))
                remaining &= ~covered
        self.n_rounds_ = len(rules)
        self.lrs_threshold_ = threshold
        self.covering_trace_ = trace
        self.unpruned_rules_ = self._as_rules(literals, rules, rule_codes)
        self.validation_accuracy_history_: list[float] = []
        self.pruning_steps_: list[tuple] = []
        if self.pruning == "rep":
            L_val = _literal_matrix(X[val], literals)
            rules, rule_codes, history, steps = reduced_error_prune(
                L_val, codes[val], rules, rule_codes, default)
            self.validation_accuracy_history_ = history
            self.pruning_steps_ = steps
        self.rules_ = self._as_rules(literals, rules, rule_codes)
        self.default_class_ = self.classes_[default]
        self._rule_codes = np.array(rule_codes, dtype=int)
        self._default_code = default
        self.grow_indices_ = grow
        self.validation_indices_ = val
        return self

    def _as_rules(self, literals, rules, rule_codes) -> list[Rule]:
        labels = [self.classes_[c] for c in rule_codes]
        # plain Python scalars (readable rules); they compare equal to the numpy labels
        labels = [v.item() if isinstance(v, np.generic) else v for v in labels]
        return [Rule(tuple(literals[i] for i in conds), label)
                for conds, label in zip(rules, labels, strict=True)]

    def coverage(self, X: object) -> np.ndarray:
        """(n_samples, n_rules) Boolean table: which rule covers which sample."""
        X = validate_features(self, X)
        C = np.ones((X.shape[0], len(self.rules_)), dtype=bool)
        for r, rule in enumerate(self.rules_):
            C[:, r] = rule.covers(X)
        return C

    def predict(self, X: object) -> np.ndarray:
        """Class of the first rule covering each sample, else the default class."""
        C = self.coverage(X)
        return self.classes_[_first_match(C, self._rule_codes, self._default_code)]
