"""Reduced-error post-pruning on a validation set (003 §2.4.2).

The full tree is grown first. Internal nodes are then visited bottom-up (children
before parents); a node's subtree is replaced by a leaf predicting the node's majority
class when the validation accuracy does not decrease (with ``keep_ties=True``: only when
it strictly increases). Because the rest of the tree is unchanged, the accuracy
comparison only involves the validation samples that reach the node, and each
decision sees the subtrees below as already pruned (accuracy recomputed after each
prune).
"""

from __future__ import annotations

import numpy as np

from algorithms._validation import (
    InvalidArgumentError,
    check_array_argument,
    check_bool,
    check_codes,
)
from algorithms.trees._structure import Tree

__all__ = ["reduced_error_prune", "validation_correct"]


def validation_correct(
    tree: Tree, X_val: np.ndarray, y_val: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Per node: the (weighted) number of validation samples it would classify correctly
    as a leaf, and the number that end at it and are classified correctly by it.

    Parameters
    ----------
    tree : Tree (classification)
    X_val : ndarray (n, d)
    y_val : ndarray (n,), class codes

    Returns
    -------
    as_leaf, ending : ndarray (n_nodes,)
    """
    majority = np.argmax(tree.value, axis=1)
    rows, nodes, weights = tree.route(X_val, visits=True)
    hit = weights * (y_val[rows] == majority[nodes])
    as_leaf = np.bincount(nodes, weights=hit, minlength=tree.node_count)
    rows, nodes, weights = tree.route(X_val)
    hit = weights * (y_val[rows] == majority[nodes])
    ending = np.bincount(nodes, weights=hit, minlength=tree.node_count)
    return as_leaf, ending


def _validation_sample(tree: object, X_val: object, y_val: object, allow_missing: bool
                       ) -> tuple[np.ndarray, np.ndarray]:
    """``(X_val, y_val)`` checked against the tree: a classification tree, a finite (NaN
    allowed for missing values only when ``allow_missing``) (n, d) array with every
    tested attribute, and class codes ``0..K-1``."""
    if not isinstance(tree, Tree) or tree.class_counts is None:
        raise InvalidArgumentError(
            f"tree must be a classification Tree (a fitted tree_), got {type(tree).__name__}."
        )
    X = check_array_argument(X_val, "X_val", ndim=2, real=True, finite=not allow_missing)
    if allow_missing and np.any(np.isinf(X)):
        raise ValueError("X_val must not contain infinity (NaN marks a missing value).")
    tested = int(tree.feature.max()) + 1
    if X.shape[1] < tested:
        raise ValueError(
            f"X_val has {X.shape[1]} columns, but the tree tests attribute {tested - 1}."
        )
    y = check_codes(y_val, "y_val", X.shape[0], tree.class_counts.shape[1])
    return X, y


def reduced_error_prune(
    tree: Tree, X_val: np.ndarray, y_val: np.ndarray, *, keep_ties: bool = False,
    allow_missing: bool = False,
) -> Tree:
    """The tree after reduced-error post-pruning on ``(X_val, y_val)``.

    Parameters
    ----------
    tree : Tree (classification)
    X_val : ndarray (n, d), validated
    y_val : ndarray (n,), class codes 0..K-1
    keep_ties : bool, default False
        Keep a subtree whose replacement leaves the validation accuracy unchanged
        (the conservative choice) instead of pruning it (Occam's razor).
    allow_missing : bool, default False
        Accept NaN in ``X_val`` as a missing value (trees grown with
        ``missing="weighted"``).

    Returns
    -------
    Tree
    """
    keep_ties = check_bool(keep_ties, "keep_ties")
    X_val, y_val = _validation_sample(tree, X_val, y_val,
                                      check_bool(allow_missing, "allow_missing"))
    as_leaf, ending = validation_correct(tree, X_val, y_val)
    correct = ending.copy()  # correct predictions of the current subtree of each node
    pruned = []
    for t in range(tree.node_count - 1, -1, -1):  # children have larger ids
        if tree.is_leaf[t]:
            continue
        correct[t] = ending[t] + correct[tree.children(t)].sum()
        better = as_leaf[t] > correct[t] if keep_ties else as_leaf[t] >= correct[t]
        if better:
            pruned.append(t)
            correct[t] = as_leaf[t]
    return tree.without_subtrees(np.array(pruned, dtype=np.intp))
