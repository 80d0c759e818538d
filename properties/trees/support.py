"""Independent references and shared check bodies of the decision-tree claims.

The references share no code with :mod:`algorithms.trees`: they count classes with
plain Python dictionaries of :class:`fractions.Fraction` (exact proportions, exact
Gini values) and take logarithms with :func:`math.log2`, one candidate split at a time.
The check bodies are reused by the teeth tests on broken variants.
"""

from __future__ import annotations

import itertools
import math
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from algorithms.trees import DecisionTreeClassifier
from mltheory import evidence
from mltheory.numeric import Tolerance, assert_close
from properties.trees.strategies import TreeData

#: Information gains computed by our vectorised cumulative sums and by the reference's
#: one-split-at-a-time Fractions + math.log2 agree to rounding: a few hundred float
#: operations on values of order log2 K <= 2.6 bits.
GAIN_AGREEMENT = Tolerance(
    rtol=1e-9,
    atol=1e-11,
    reason="the same entropy sums evaluated in a different order (cumulative counts vs "
    "per-split Fractions converted to float): rounding of order 1e-15 per term",
)

Criterion = str  # "entropy" | "gini"


# ---------------------------------------------------------------------------
# Exact / one-at-a-time impurity references
# ---------------------------------------------------------------------------


def exact_proportions(counts: Sequence) -> list[Fraction]:
    """``p_k = c_k / sum c`` as Fractions."""
    fracs = [Fraction(c) for c in counts]
    total = sum(fracs)
    return [c / total for c in fracs]


def ref_entropy(counts: Sequence) -> float:
    """``-sum p log2 p`` with exact proportions, ``0 log 0 = 0``."""
    return -sum(float(p) * math.log2(p) for p in exact_proportions(counts) if p > 0)


def ref_gini(counts: Sequence) -> Fraction:
    """``sum_k sum_{k' != k} p_k p_k'`` (the left-hand side of (2.5)), exactly."""
    p = exact_proportions(counts)
    return sum((p[i] * p[j] for i in range(len(p)) for j in range(len(p)) if i != j), Fraction(0))


def _rows(table: Sequence[Sequence]) -> list[list[Fraction]]:
    return [[Fraction(c) for c in row] for row in table]


def ref_gain(table: Sequence[Sequence]) -> float:
    """(2.2) on a contingency table, rows = attribute values."""
    rows = [r for r in _rows(table) if sum(r) > 0]
    parent = [sum(col) for col in zip(*rows, strict=True)]
    total = sum(parent)
    return ref_entropy(parent) - sum(float(sum(r) / total) * ref_entropy(r) for r in rows)


def ref_intrinsic_value(table: Sequence[Sequence]) -> float:
    """(2.4)'s IV from the row sizes."""
    return ref_entropy([sum(r) for r in _rows(table) if sum(r) > 0])


def ref_gini_index(table: Sequence[Sequence]) -> Fraction:
    """(2.6) exactly."""
    rows = [r for r in _rows(table) if sum(r) > 0]
    total = sum(sum(r) for r in rows)
    return sum((sum(r) / total * ref_gini(r) for r in rows), Fraction(0))


def ref_decrease(table: Sequence[Sequence], criterion: Criterion) -> float:
    """Gain (2.2) for entropy, ``Gini(D) - Gini_index(D, a)`` for Gini."""
    if criterion == "gini":
        rows = _rows(table)
        parent = [sum(col) for col in zip(*rows, strict=True)]
        return float(ref_gini(parent) - ref_gini_index(rows))
    return ref_gain(table)


# ---------------------------------------------------------------------------
# Brute-force split search on a dataset
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class RefSplit:
    attribute: int
    decrease: float  # rho * decrease on the known rows
    gain_ratio: float
    threshold: float  # NaN for a multiway split
    subset: frozenset | None = None  # values sent left by a binary discrete split


def ref_partition_table(
    column: np.ndarray, y: np.ndarray, w: np.ndarray, K: int, threshold
) -> tuple[list[list[Fraction]], Fraction]:
    """Contingency table of the known rows (by value; by ``x <= threshold``; or by
    membership when ``threshold`` is a frozenset of values) and rho."""
    groups: dict = defaultdict(lambda: [Fraction(0)] * K)
    known = Fraction(0)
    total = Fraction(0)
    for x, label, weight in zip(column.tolist(), y.tolist(), w.tolist(), strict=True):
        weight = Fraction(weight)
        total += weight
        if math.isnan(x):
            continue
        known += weight
        if threshold is None:
            key = x
        elif isinstance(threshold, frozenset):
            key = x not in threshold  # False (in the subset) sorts first: the left branch
        else:
            key = x <= threshold
        groups[key][int(label)] += weight
    return [groups[k] for k in sorted(groups)], known / total


def bipartitions(values: np.ndarray) -> list[frozenset]:
    """Every split of ``values`` into two non-empty groups, as the group without the
    last value (each unordered bipartition once)."""
    head = values[:-1].tolist()
    return [frozenset(c) for r in range(1, len(head) + 1)
            for c in itertools.combinations(head, r)]


def ref_candidate_splits(
    data: TreeData, criterion: Criterion, *, n_classes: int | None = None,
    binary: bool = False,
) -> list[RefSplit]:
    """Best split of every attribute that can split: multiway (or, with ``binary``, the
    best bipartition of the values) for discrete attributes, the best of the n-1
    midpoints (2.8) for continuous ones, ``rho``-weighted (2.9)."""
    K = n_classes or data.n_classes
    out = []
    for a in range(data.X.shape[1]):
        col = data.X[:, a]
        known = np.unique(col[~np.isnan(col)])
        if known.shape[0] < 2:
            continue
        if data.discrete[a]:
            candidates = bipartitions(known) if binary else [None]
        else:
            candidates = [(lo + hi) / 2 for lo, hi in zip(known[:-1], known[1:], strict=True)]
        scored = []
        for t in candidates:
            table, rho = ref_partition_table(col, data.y, data.w, K, t)
            scored.append((float(rho) * ref_decrease(table, criterion), t, table))
        top = max(s[0] for s in scored)
        # the lowest threshold among (rounding-level) ties, as the grower documents
        dec, t, table = next(s for s in scored if s[0] >= top - GAIN_AGREEMENT.atol)
        iv = ref_intrinsic_value(table)
        if isinstance(t, frozenset):
            out.append(RefSplit(a, dec, dec / iv, np.nan, t))
        else:
            out.append(RefSplit(a, dec, dec / iv, np.nan if t is None else t))
    return out


def fit_tree(data: TreeData, *, validation_set=None, **kwargs) -> DecisionTreeClassifier:
    """Our classifier on ``data`` (discrete columns declared, NaN as missing values).

    The discrete columns are declared as a boolean mask for an even number of samples and
    as column indices for an odd one, so the claims exercise both documented forms."""
    declared = data.discrete if data.X.shape[0] % 2 == 0 else np.flatnonzero(data.discrete)
    kwargs.setdefault("categorical_features", declared)
    if np.isnan(data.X).any():
        kwargs.setdefault("missing", "weighted")
    model = DecisionTreeClassifier(**kwargs)
    return model.fit(data.X, data.y, sample_weight=data.w, validation_set=validation_set)


def walk(tree, x: np.ndarray, weight: float, node: int = 0, out: list | None = None) -> list:
    """(node, weight) for every node sample ``x`` visits, by plain recursion over the
    fitted arrays (independent of the estimator's vectorised router): a missing tested
    value continues into every child ``v`` with weight times ``r_v``."""
    out = [] if out is None else out
    out.append((node, weight))
    if tree.is_leaf[node]:
        return out
    f = int(tree.feature[node])
    children = [int(c) for c in tree.children(node)]
    if math.isnan(x[f]):
        for c in children:
            if tree.missing_share[c] > 0:
                walk(tree, x, weight * tree.missing_share[c], c, out)
        return out
    subset = tree.subset(node)
    if subset is not None:  # binary discrete test: the subset's values go left
        return walk(tree, x, weight, children[0 if x[f] in subset.tolist() else 1], out)
    if tree.categorical[node]:
        hits = np.flatnonzero(tree.domains[f] == x[f])
        if hits.size == 0:
            return out
        return walk(tree, x, weight, children[int(hits[0])], out)
    return walk(tree, x, weight, children[0 if x[f] <= tree.threshold[node] else 1], out)


def node_members(tree, data: TreeData) -> dict[int, list[tuple[int, float]]]:
    """node -> [(training row, weight at the node)]."""
    members: dict[int, list] = {t: [] for t in range(tree.node_count)}
    for i in range(data.X.shape[0]):
        for node, weight in walk(tree, data.X[i], float(data.w[i])):
            members[node].append((i, weight))
    return members


def _check_choice(refs: list[RefSplit], criterion: str, feature: int, decrease: float,
                  score: float, above_average_gain: bool, choose) -> None:
    by_attribute = {r.attribute: r for r in refs}
    chosen = by_attribute[feature]
    if criterion == "gain_ratio":
        pool = refs
        if above_average_gain:
            mean = sum(r.decrease for r in refs) / len(refs)
            pool = [r for r in refs if r.decrease >= mean - GAIN_AGREEMENT.atol]
        optimum = max(r.gain_ratio for r in pool) if choose is None else choose(pool)
        achieved = chosen.gain_ratio
        assert_close(score, achieved, GAIN_AGREEMENT, label="recorded vs reference")
    else:
        optimum = max(r.decrease for r in refs) if choose is None else choose(refs)
        achieved = chosen.decrease
        assert_close(decrease, achieved, GAIN_AGREEMENT, label="recorded vs reference")
    evidence.worst("reference optimum - chosen", optimum - achieved)
    assert_close(achieved, optimum, GAIN_AGREEMENT, label="chosen vs optimum",
                 context=f"attribute {feature} is not optimal: ")


def check_root_choice(
    data: TreeData,
    criterion: str,
    *,
    above_average_gain: bool = False,
    choose: Callable[[list[RefSplit]], float] | None = None,
    every_node: bool = False,
    binary: bool = False,
) -> None:
    """The split of our tree's root (or, with ``every_node``, of every internal node, on
    the weighted samples that reach it and the attributes still available) attains the
    brute-force optimum of the criterion: ID3 (2.3) / CART (2.7) maximise the decrease,
    C4.5 (2.4) the gain ratio (among attributes with at least average gain when asked).
    ``choose`` overrides the reference optimum (teeth tests)."""
    model = fit_tree(data, criterion=criterion, max_depth=None if every_node else 1,
                     above_average_gain=above_average_gain,
                     discrete_split="binary" if binary else "multiway")
    tree = model.tree_
    members = node_members(tree, data) if every_node else {0: [
        (i, float(w)) for i, w in enumerate(data.w)]}
    used = {0: frozenset()}
    nodes = range(tree.node_count) if every_node else [0]
    for t in nodes:
        rows = members[t]
        if not rows or tree.is_leaf[t] and tree.node_count > 1:
            continue
        idx = np.array([i for i, _ in rows])
        sub = TreeData(data.X[idx], data.y[idx], data.discrete, np.array([w for _, w in rows]))
        refs = [r for r in ref_candidate_splits(sub, "gini" if criterion == "gini" else "entropy",
                                               n_classes=data.n_classes, binary=binary)
                if r.attribute not in used.get(t, frozenset())]
        if tree.is_leaf[t]:
            assert not refs or (np.unique(sub.y).size == 1), (
                f"node {t} is a leaf although {len(refs)} attributes can split it")
            continue
        assert refs, f"node {t} was split although no attribute can split it"
        f = int(tree.feature[t])
        _check_choice(refs, criterion, f, tree.impurity_decrease[t], tree.split_score[t],
                      above_average_gain, choose)
        multiway = tree.categorical[t] and tree.subset(t) is None
        below = used.get(t, frozenset()) | ({f} if multiway else frozenset())
        if binary and tree.subset(t) is not None:
            assert len(tree.children(t)) == 2, "a binary split with more than two branches"
        for c in tree.children(t):
            used[int(c)] = below
    evidence.worst("internal nodes checked", int(np.count_nonzero(~tree.is_leaf[list(nodes)])))
