"""TreeGenerate (003 §2.1): when the recursion stops, what the leaves hold, and what the
fully grown tree achieves on its training set.

The note's procedure stops only when a subset is pure. That does not terminate on
samples that agree on every attribute but differ in label; the corrected procedure
(the book's) also stops when the attribute set is exhausted or the samples are
identical on it (leaf = majority class) and turns an empty branch into a leaf with the
parent's majority.
"""

from __future__ import annotations

from collections import Counter

import numpy as np
from hypothesis import example, given
from hypothesis import strategies as st

from mltheory import ErratumKind, Expect, Method, claim, evidence
from properties.trees.strategies import (
    TreeData,
    continuous_datasets,
    discrete_datasets,
)
from properties.trees.support import fit_tree, ref_gain, ref_partition_table


class NonTerminationError(AssertionError):
    """The note's recursion went deeper than any terminating run can."""


def notes_tree_generate(data: TreeData) -> int:
    """The note's TreeGenerate, run literally on discrete data: pick the attribute of
    largest gain, split D by its values, recurse into every subset, and stop only when a
    subset is pure. Returns the number of leaves; raises :class:`NonTerminationError` when the
    recursion exceeds depth n (each split that makes progress removes a sample from the
    subset, so a terminating run never goes deeper)."""
    n, d = data.X.shape
    K = data.n_classes
    leaves = 0
    stack = [(np.arange(n), 0)]
    while stack:
        rows, depth = stack.pop()
        if np.unique(data.y[rows]).shape[0] == 1:
            leaves += 1
            continue
        if depth > n:
            raise NonTerminationError(
                f"step 3 never reaches a pure subset: {rows.size} samples identical on all "
                f"{d} attributes with labels {sorted(Counter(data.y[rows].tolist()).items())}"
            )
        gains = [ref_gain(ref_partition_table(data.X[rows, a], data.y[rows], data.w[rows], K,
                                              None)[0]) for a in range(d)]
        a = int(np.argmax(gains))
        for v in np.unique(data.X[rows, a]):
            stack.append((rows[data.X[rows, a] == v], depth + 1))
    return leaves


@claim(
    id="tree.generate_stop_as_written",
    source="003 §2.1",
    statement="(As written) recursively splitting on the best attribute and repeating on "
    "every subset until each subset holds a single class always terminates with pure leaves.",
    method=Method.PROPERTY,
    tags=("trees", "generate", "erratum"),
    expect=Expect.REFUTED,
    kind=ErratumKind.CODE,
    corrected_by="tree.generate_stopping_cases",
    explanation="Missing stopping conditions: samples that are identical on every attribute "
    "but carry different labels can never be separated, so a procedure whose only stop is "
    "'all in one class' recurses forever. TreeGenerate also stops when the attribute set is "
    "empty or the samples are identical on it (leaf labelled by the majority), and an empty "
    "branch becomes a leaf labelled by the parent's majority.",
)
@given(data=discrete_datasets(max_samples=12, max_features=2, max_values=2))
@example(data=TreeData(np.array([[0.0], [0.0]]), np.array([0, 1]), np.ones(1, bool),
                       np.ones(2)))
def generate_stop_as_written(data):
    evidence.worst("leaves of the note's tree", notes_tree_generate(data))


def minimum_training_errors(data: TreeData) -> float:
    """The fewest (weighted) training errors any classifier can make: in each group of
    identical samples, all but the majority class."""
    groups: dict = {}
    for row, label, weight in zip(map(tuple, data.X.tolist()), data.y.tolist(),
                                  data.w.tolist(), strict=True):
        groups.setdefault(row, Counter())[label] += weight
    return sum(sum(c.values()) - max(c.values()) for c in groups.values())


def check_stopping_cases(data: TreeData, model) -> None:
    """Every leaf of the fully grown tree is explained by a stopping case of
    TreeGenerate, discrete attributes are used at most once per path, and the training
    error is the minimum any classifier can reach."""
    tree = model.tree_
    X, y = data.X, data.y
    rows_of = {0: np.arange(X.shape[0])}
    used = {0: frozenset()}
    reasons = Counter()
    for t in range(tree.node_count):  # parents come before children
        rows = rows_of[t]
        if not tree.is_leaf[t]:
            f = int(tree.feature[t])
            assert f not in used[t], f"discrete attribute {f} used twice on a path"
            subset = tree.subset(t)
            multiway = tree.categorical[t] and subset is None
            below = used[t] | ({f} if multiway else frozenset())
            children = tree.children(t)
            if subset is not None:  # CART's binary test: may reuse the attribute below
                inside = np.isin(X[rows, f], subset)
                masks = [inside, ~inside]
            elif tree.categorical[t]:
                masks = [X[rows, f] == v for v in tree.domains[f]]
            else:
                masks = [X[rows, f] <= tree.threshold[t], X[rows, f] > tree.threshold[t]]
            for child, mask in zip(children, masks, strict=True):
                rows_of[int(child)], used[int(child)] = rows[mask], below
            continue
        if rows.size == 0:
            reasons["empty branch"] += 1
            parent = int(tree.parent[t])
            assert np.array_equal(tree.value[t], tree.value[parent]), (
                "an empty branch must predict like its parent")
            continue
        if np.unique(y[rows]).size == 1:
            reasons["pure"] += 1
            continue
        A = [a for a in range(X.shape[1]) if a not in used[t]]
        assert A == [] or all(np.unique(X[rows, a]).size == 1 for a in A), (
            f"leaf of {rows.size} mixed samples although attribute(s) {A} still vary")
        reasons["A empty" if not A else "identical on A"] += 1
        majority = Counter(dict(zip(*np.unique(y[rows], return_counts=True), strict=True)))
        top = max(majority.values())
        assert majority[int(np.argmax(tree.value[t]))] == top, "leaf is not the majority"
    for reason, count in reasons.items():
        evidence.worst(f"leaves: {reason}", count)
    errors = float(np.sum(data.w * (model.predict(X) != y)))
    best = minimum_training_errors(data)
    evidence.worst("training errors - minimum possible", errors - best)
    assert errors == best, f"fully grown tree makes {errors} training errors, minimum {best}"


@claim(
    id="tree.generate_stopping_cases",
    source="003 §2.1",
    statement="TreeGenerate stops at a node when its samples are all of one class, when the "
    "attribute set is empty or the samples are identical on it (leaf = majority class), "
    "and makes an empty branch a leaf with its parent's prediction; discrete attributes are "
    "used once per path in multiway splits (CART's binary splits and continuous attributes "
    "may reuse them). The fully grown tree misclassifies "
    "only what identical samples with different labels force.",
    method=Method.PROPERTY,
    tags=("trees", "generate"),
)
@given(data=discrete_datasets() | continuous_datasets(),
       criterion=st.sampled_from(["entropy", "gain_ratio", "gini"]),
       discrete_split=st.sampled_from(["multiway", "binary"]))
@example(  # the interval [1, 2] needs the one continuous attribute twice on a path
    data=TreeData(np.array([[0.0], [1.0], [2.0], [3.0]]), np.array([0, 1, 1, 0]),
                  np.zeros(1, bool), np.ones(4)), criterion="entropy", discrete_split="multiway")
@example(  # identical samples, conflicting labels: a majority leaf
    data=TreeData(np.array([[0.0, 1.0], [0.0, 1.0], [0.0, 1.0]]), np.array([0, 1, 1]),
                  np.ones(2, bool), np.ones(3)), criterion="gini", discrete_split="binary")
def generate_stopping_cases(data, criterion, discrete_split):
    check_stopping_cases(data, fit_tree(data, criterion=criterion, discrete_split=discrete_split))
