"""Pre-pruning and reduced-error post-pruning on a validation set (003 §2.4).

Validation accuracies are recomputed here from the validation samples that reach each
node (a recursive walk) and the nodes' training majorities, independently of the
estimator's pruning code.
"""

from __future__ import annotations

import itertools

import numpy as np
from hypothesis import assume, given
from hypothesis import strategies as st

from mltheory import Method, claim, evidence
from mltheory.stats import check_probability_at_least
from properties.trees.strategies import TreeData, structured_datasets
from properties.trees.support import fit_tree, walk


def random_target(rng: np.random.Generator, d: int, depth: int):
    """Labels from a random complete binary tree of axis-parallel tests (XOR-like
    interactions arise whenever a label pattern needs two levels)."""
    size = 2**depth
    features = rng.integers(0, d, size=size)
    thresholds = rng.normal(scale=0.5, size=size)
    leaves = rng.integers(0, 2, size=size)

    def label(X: np.ndarray) -> np.ndarray:
        node = np.ones(X.shape[0], dtype=np.intp)
        rows = np.arange(X.shape[0])
        for _ in range(depth):
            node = 2 * node + (X[rows, features[node - 1]] > thresholds[node - 1])
        return leaves[node - size]

    return label


small_pruning_datasets = structured_datasets().filter(lambda d: d.X.shape[0] >= 6)


def target_tree_problem(seed: int, n: int = 160) -> TreeData:
    """``n`` Gaussian samples labelled by a random depth-3 target tree, 10% flipped."""
    rng = np.random.default_rng(seed)
    d = int(rng.integers(2, 6))
    X = rng.normal(size=(n, d))
    y = random_target(rng, d, 3)(X)
    y = np.where(rng.random(n) < 0.1, 1 - y, y)
    return TreeData(X, y, np.zeros(d, bool), np.ones(n))


#: Small constructed data sets plus larger ones from random target trees (deeper trees,
#: several levels for the pruning rules to decide).
pruning_datasets = small_pruning_datasets | st.integers(0, 2**16).map(target_tree_problem)


def split_train_validation(data: TreeData) -> tuple[TreeData, TreeData]:
    """Every other sample to the validation set; labels re-coded 0..K-1 by the training
    classes (which must include every validation label, and at least two)."""
    pick = np.arange(data.X.shape[0]) % 2 == 1
    classes = np.unique(data.y[~pick])
    assume(classes.size >= 2 and np.all(np.isin(data.y[pick], classes)))
    y = np.searchsorted(classes, data.y)
    train = TreeData(data.X[~pick], y[~pick], data.discrete, data.w[~pick])
    val = TreeData(data.X[pick], y[pick], data.discrete, data.w[pick])
    return train, val


def path_ends(tree, path: list[tuple[int, float]]) -> list[tuple[int, float]]:
    """The nodes where a walked sample stops: leaves, and internal nodes it could not
    leave (a discrete value unseen in training: prediction stops there)."""
    visited = {node for node, _ in path}
    return [(node, weight) for node, weight in path
            if tree.is_leaf[node] or not visited & set(tree.children(node).tolist())]


def correct_as_leaf(tree, val: TreeData) -> tuple[np.ndarray, np.ndarray]:
    """Per node: the validation samples reaching it that its majority label gets right,
    and those among them that stop there although it is internal."""
    as_leaf = np.zeros(tree.node_count)
    stuck = np.zeros(tree.node_count)
    for x, label in zip(val.X, val.y, strict=True):
        path = walk(tree, x, 1.0)
        for node, weight in path:
            as_leaf[node] += weight * (int(np.argmax(tree.value[node])) == int(label))
        for node, weight in path_ends(tree, path):
            if not tree.is_leaf[node]:
                stuck[node] += weight * (int(np.argmax(tree.value[node])) == int(label))
    return as_leaf, stuck


def same_test(a, ta: int, b, tb: int) -> bool:
    return (a.feature[ta] == b.feature[tb]
            and (np.isnan(a.threshold[ta]) and np.isnan(b.threshold[tb])
                 or a.threshold[ta] == b.threshold[tb]))


def embed(small, big) -> dict[int, int]:
    """Map the nodes of ``small`` onto ``big`` (``small`` must be a pruning of ``big``:
    every internal node of ``small`` has the same test as its image)."""
    image = {0: 0}
    for t in range(small.node_count):
        if small.is_leaf[t]:
            continue
        u = image[t]
        assert not big.is_leaf[u] and same_test(small, t, big, u), (
            f"node {t} is not a node of the larger tree")
        for c, d in zip(small.children(t), big.children(u), strict=True):
            image[int(c)] = int(d)
    return image


def check_prepruning_rule(data: TreeData, criterion: str, *, strict: bool = True) -> None:
    """The pre-pruned tree is the full tree cut where a split does not strictly raise the
    validation accuracy (children labelled by their majority) — and kept elsewhere."""
    train, val = split_train_validation(data)
    full = fit_tree(train, criterion=criterion).tree_
    pre = fit_tree(train, criterion=criterion, pruning="pre",
                   validation_set=(val.X, val.y)).tree_
    image = embed(pre, full)
    leaf_correct, stuck = correct_as_leaf(full, val)
    expanded = kept = 0
    for t, u in image.items():
        if full.is_leaf[u]:
            continue
        before = leaf_correct[u]
        after = leaf_correct[full.children(u)].sum() + stuck[u]
        improves = after > before if strict else after >= before
        assert bool(not pre.is_leaf[t]) == bool(improves), (
            f"node of {full.n_node_samples[u]} samples: validation correct {before} as a leaf, "
            f"{after} split, but pre-pruning {'kept' if not pre.is_leaf[t] else 'cut'} it")
        expanded += int(improves)
        kept += 1
    evidence.worst("nodes decided by pre-pruning", kept)
    evidence.worst("nodes expanded by pre-pruning", expanded)


@claim(
    id="tree.prepruning_rule",
    source="003 §2.4.1",
    statement="Pre-pruning expands a node only if the validation accuracy after the split "
    "(each child labelled by its majority class) is strictly higher than with the node as a "
    "leaf labelled by its majority; otherwise the node stays a leaf.",
    method=Method.PROPERTY,
    tags=("trees", "pruning"),
)
@given(data=pruning_datasets, criterion=st.sampled_from(["entropy", "gini"]))
def prepruning_rule(data, criterion):
    check_prepruning_rule(data, criterion)


def prunings(tree) -> list[np.ndarray]:
    """Every pruning of ``tree``: the sets of internal nodes turned into leaves, keeping
    only the minimal ones (a cut node's descendants are gone anyway)."""
    internal = [int(t) for t in np.flatnonzero(~tree.is_leaf)]
    out = []
    for r in range(len(internal) + 1):
        for cut in itertools.combinations(internal, r):
            cut_set = set(cut)
            if any(int(tree.parent[t]) in cut_set or _has_cut_ancestor(tree, t, cut_set)
                   for t in cut):
                continue
            out.append(np.array(cut, dtype=np.intp))
    return out


def _has_cut_ancestor(tree, t: int, cut: set) -> bool:
    p = int(tree.parent[t])
    while p >= 0:
        if p in cut:
            return True
        p = int(tree.parent[p])
    return False


#: Exhaustive enumeration of prunings is exponential in the internal nodes.
MAX_INTERNAL_FOR_ENUMERATION = 10


def validation_accuracy(tree, val: TreeData) -> float:
    """Correct validation predictions, by walking each sample to where it stops."""
    total = 0.0
    for x, label in zip(val.X, val.y, strict=True):
        for node, weight in path_ends(tree, walk(tree, x, 1.0)):
            total += weight * (int(np.argmax(tree.value[node])) == int(label))
    return total


def check_postpruning(data: TreeData, criterion: str, *, prune=None) -> None:
    """Reduced-error pruning returns a pruning of the full tree whose validation accuracy
    is the largest over all prunings (exhaustive), never below the full tree's, and in
    which replacing any remaining internal node by a leaf would lower it. ``prune(full,
    X_val, y_val)`` replaces the estimator's pruning (teeth tests)."""
    train, val = split_train_validation(data)
    full = fit_tree(train, criterion=criterion).tree_
    assume(np.count_nonzero(~full.is_leaf) <= MAX_INTERNAL_FOR_ENUMERATION)
    if prune is None:
        post = fit_tree(train, criterion=criterion, pruning="post",
                        validation_set=(val.X, val.y)).tree_
    else:
        post = prune(full, val.X, val.y)
    embed(post, full)
    achieved = validation_accuracy(post, val)
    candidates = prunings(full)
    evidence.worst("prunings enumerated", len(candidates))
    best = max(validation_accuracy(full.without_subtrees(cut), val) for cut in candidates)
    evidence.worst("best pruning - reduced-error pruning (validation correct)", best - achieved)
    assert achieved >= validation_accuracy(full, val), "pruning lowered validation accuracy"
    assert achieved == best, f"reduced-error pruning gets {achieved} right, the best pruning {best}"
    for t in np.flatnonzero(~post.is_leaf):
        sub = validation_accuracy(post.without_subtrees(np.array([t])), val)
        assert sub < achieved, f"node {t} could be pruned without loss of validation accuracy"


@claim(
    id="tree.postpruning_optimal",
    source="003 §2.4.2",
    statement="Post-pruning visits the internal nodes of the fully grown tree bottom-up and "
    "replaces a subtree by a majority leaf when that does not lower the validation "
    "accuracy; the result has the highest validation accuracy among all prunings of the "
    "tree (checked exhaustively), and no remaining node can be pruned without loss.",
    method=Method.ENUMERATION,
    tags=("trees", "pruning"),
)
@given(data=small_pruning_datasets, criterion=st.sampled_from(["entropy", "gini"]))
def postpruning_optimal(data, criterion):
    check_postpruning(data, criterion)


def check_post_contains_pre(data: TreeData, criterion: str) -> None:
    """With the same training and validation sets, the pre-pruned tree is a pruning of the
    post-pruned one (which is a pruning of the full tree): post-pruning keeps at least as
    many leaves, fits the training set at least as well, and pre-pruning grows no node
    that post-pruning's full tree does not grow."""
    train, val = split_train_validation(data)
    kwargs = {"criterion": criterion, "validation_set": (val.X, val.y)}
    full = fit_tree(train, criterion=criterion)
    pre = fit_tree(train, pruning="pre", **kwargs)
    post = fit_tree(train, pruning="post", **kwargs)
    embed(pre.tree_, full.tree_)
    embed(post.tree_, full.tree_)
    embed(pre.tree_, post.tree_)
    extra = post.tree_.n_leaves - pre.tree_.n_leaves
    evidence.worst("leaves: post - pre", extra)
    train_pre = float(np.sum(train.w * (pre.predict(train.X) == train.y)))
    train_post = float(np.sum(train.w * (post.predict(train.X) == train.y)))
    evidence.worst("training accuracy gain of post over pre (weighted count)",
                   train_post - train_pre)
    assert extra >= 0 and train_post >= train_pre, (extra, train_post, train_pre)
    evidence.worst("nodes grown: full - pre-pruned",
                   full.tree_.node_count - pre.tree_.node_count)


@claim(
    id="tree.prune_post_keeps_more",
    source="003 §2.4.1; 003 §2.4.2",
    statement="Post-pruning keeps more leaves than pre-pruning (hence a lower risk of "
    "underfitting), and pre-pruning's training cost is lower (it grows only part of the "
    "tree post-pruning grows in full). On one training/validation split: the pre-pruned "
    "tree is a pruning of the post-pruned tree, so it has at most as many leaves and at most "
    "the same training accuracy, and both are prunings of the full tree.",
    method=Method.PROPERTY,
    tags=("trees", "pruning"),
)
@given(data=pruning_datasets, criterion=st.sampled_from(["entropy", "gini"]))
def prune_post_keeps_more(data, criterion):
    check_post_contains_pre(data, criterion)


#: Problems per run of the generalisation comparison, and the sizes of each problem's
#: training, validation and test sets.
PRUNE_TRIALS = 60
PRUNE_SIZES = (200, 100, 2000)


@claim(
    id="tree.prune_post_generalises_better",
    source="003 §2.4.2",
    statement="Post-pruning usually generalises better than pre-pruning: on random problems "
    "(labels from random depth-1..4 trees on 2..7 Gaussian attributes, 0-30% label noise), "
    "whenever the two pruned trees' test accuracies differ, post-pruning's is the higher "
    "one more often than not.",
    method=Method.SIMULATION,
    tags=("trees", "pruning", "slow"),
)
def prune_post_generalises_better(rng, scale):
    n_train, n_val, n_test = PRUNE_SIZES
    wins = differ = 0
    gaps = []
    for _ in range(PRUNE_TRIALS * scale):
        d = int(rng.integers(2, 8))
        label = random_target(rng, d, int(rng.integers(1, 5)))
        X = rng.normal(size=(n_train + n_val + n_test, d))
        y = label(X)
        y = np.where(rng.random(y.shape[0]) < rng.uniform(0, 0.3), 1 - y, y)
        train, val, test = np.split(np.arange(X.shape[0]), [n_train, n_train + n_val])
        if np.unique(y[train]).size < 2:
            continue
        data = TreeData(X[train], y[train], np.zeros(d, bool), np.ones(n_train))
        kwargs = {"criterion": "entropy", "validation_set": (X[val], y[val])}
        pre = fit_tree(data, pruning="pre", **kwargs).score(X[test], y[test])
        post = fit_tree(data, pruning="post", **kwargs).score(X[test], y[test])
        gaps.append(post - pre)
        differ += int(post != pre)
        wins += int(post > pre)
    evidence.record("mean test accuracy gain of post over pre", float(np.mean(gaps)))
    check_probability_at_least(wins, differ, 0.5,
                               label="P(post-pruning more accurate | accuracies differ)")
