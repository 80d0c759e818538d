"""Multivariate (oblique) decision tree (003 §2.6).

Every internal node holds a linear test ``sum_i w_i a_i <= t`` instead of a single
attribute. The direction ``w`` is learned by a linear classifier on the node's samples:
Fisher's LDA (the leading discriminant direction, any number of classes) or logistic
regression (the node's majority class against the rest). The threshold ``t`` is the
best bi-partition (2.8) of the projections ``w^T x`` under the tree's criterion. When
the projections cannot be split (the linear model collapsed on a degenerate node) the
node falls back to the best single-attribute split, so the tree grows as long as
TreeGenerate would.
"""

from __future__ import annotations

import warnings

import numpy as np
from scipy.linalg import LinAlgWarning
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.exceptions import ConvergenceWarning

from algorithms._validation import (
    check_choice,
    check_int,
    check_sample_weight,
    validate_classification,
    validate_features,
)
from algorithms.linear import LinearDiscriminantAnalysis, LogisticRegression
from algorithms.trees._criteria import ClassificationCriterion
from algorithms.trees._grower import GrowSettings, grow_tree

__all__ = ["ObliqueDecisionTreeClassifier"]

NODE_MODELS = ("lda", "logistic")
#: Ridge of the node-level logistic regression: node subsets are often separable,
#: where the unpenalised MLE diverges; the direction is all the tree needs.
_LOGISTIC_RIDGE = 1e-3


def _direction(model: str, X: np.ndarray, y: np.ndarray, counts: np.ndarray) -> np.ndarray:
    """Unit direction ``w`` of the node's linear classifier (zeros if it cannot be fitted)."""
    present = np.flatnonzero(counts > 0)
    with warnings.catch_warnings():
        # A singular within-class scatter (LDA adds its documented jitter) or a
        # non-converged logistic fit still gives a usable direction for the split search.
        warnings.simplefilter("ignore", LinAlgWarning)
        warnings.simplefilter("ignore", ConvergenceWarning)
        if model == "lda":
            w = LinearDiscriminantAnalysis(n_components=1).fit(X, y).scalings_[:, 0]
        else:
            majority = present[np.argmax(counts[present])]
            w = LogisticRegression(lam=_LOGISTIC_RIDGE).fit(X, (y == majority).astype(int)).coef_
    norm = np.linalg.norm(w)
    return w / norm if np.isfinite(norm) and norm > 0 else np.zeros_like(w)


class ObliqueDecisionTreeClassifier(ClassifierMixin, BaseEstimator):
    """Decision tree whose internal nodes are linear classifiers (003 §2.6).

    Parameters
    ----------
    node_model : {"lda", "logistic"}, default "lda"
    criterion : {"entropy", "gini"}, default "entropy"
        Chooses the threshold along the learned direction.
    max_depth : int >= 1 or None, default None
    min_samples_split : int >= 2, default 2
    min_samples_leaf : int >= 1, default 1

    Attributes
    ----------
    classes_, n_features_in_
    coef_ : ndarray (n_nodes, d), ``w`` of each internal node (zeros at leaves)
    threshold_ : ndarray (n_nodes,), ``t`` (NaN at leaves)
    children_ : ndarray (n_nodes, 2), left (``w^T x <= t``) and right child, -1 at leaves
    value_ : ndarray (n_nodes, K), class distribution; class_counts_ (n_nodes, K)
    depth_ : ndarray (n_nodes,)
    """

    def __init__(
        self,
        *,
        node_model: str = "lda",
        criterion: str = "entropy",
        max_depth: int | None = None,
        min_samples_split: int = 2,
        min_samples_leaf: int = 1,
    ) -> None:
        self.node_model = node_model
        self.criterion = criterion
        self.max_depth = max_depth
        self.min_samples_split = min_samples_split
        self.min_samples_leaf = min_samples_leaf

    def fit(
        self, X: object, y: object, sample_weight: object = None
    ) -> ObliqueDecisionTreeClassifier:
        """Grow the tree top-down; a node is split by its linear classifier's direction."""
        X, codes = validate_classification(self, X, y)
        model = check_choice(self.node_model, "node_model", NODE_MODELS)
        criterion = check_choice(self.criterion, "criterion", ("entropy", "gini"))
        max_depth = np.inf if self.max_depth is None else check_int(
            self.max_depth, "max_depth", low=1)
        min_split = check_int(self.min_samples_split, "min_samples_split", low=2)
        min_leaf = check_int(self.min_samples_leaf, "min_samples_leaf", low=1)
        w = check_sample_weight(sample_weight, X)
        keep = w > 0
        X, codes, w = X[keep], codes[keep], w[keep]
        K = self.classes_.shape[0]
        settings = GrowSettings(
            criterion=ClassificationCriterion(criterion, K), max_depth=1,
            min_samples_leaf=min_leaf,
        )
        nodes = []  # (coef, threshold, children, counts, depth)
        stack = [(np.arange(X.shape[0]), 0, None)]
        while stack:
            rows, depth, link = stack.pop()
            me = len(nodes)
            if link is not None:
                nodes[link[0]][2][link[1]] = me
            counts = np.bincount(codes[rows], weights=w[rows], minlength=K)
            nodes.append([np.zeros(X.shape[1]), np.nan, [-1, -1], counts, depth])
            if np.count_nonzero(counts) <= 1 or rows.shape[0] < min_split or depth >= max_depth:
                continue
            test = self._node_test(model, X[rows], codes[rows], w[rows], counts, settings)
            if test is None:
                continue
            coef, threshold = test
            nodes[me][0], nodes[me][1] = coef, threshold
            left = X[rows] @ coef <= threshold
            stack.append((rows[~left], depth + 1, (me, 1)))
            stack.append((rows[left], depth + 1, (me, 0)))
        self.coef_ = np.array([n[0] for n in nodes])
        self.threshold_ = np.array([n[1] for n in nodes])
        self.children_ = np.array([n[2] for n in nodes], dtype=np.intp)
        self.class_counts_ = np.array([n[3] for n in nodes])
        self.value_ = self.class_counts_ / self.class_counts_.sum(axis=1, keepdims=True)
        self.depth_ = np.array([n[4] for n in nodes], dtype=np.intp)
        return self

    @staticmethod
    def _node_test(model, Xn, yn, wn, counts, settings):
        """(w, t) of the node, or None if neither the oblique nor an axis split exists."""
        direction = _direction(model, Xn, yn, counts)
        candidates = [direction[:, None]] if np.any(direction) else []
        candidates.append(np.eye(Xn.shape[1]))  # fallback: the best single attribute
        for W in candidates:
            stump = grow_tree(Xn @ W, yn, wn, settings)
            if stump.node_count > 1:
                f, t = stump.feature[0], stump.threshold[0]
                return W[:, f].copy(), float(t)
        return None

    def apply(self, X: object) -> np.ndarray:
        """Leaf reached by each sample."""
        X = validate_features(self, X, reset=False)
        node = np.zeros(X.shape[0], dtype=np.intp)
        active = self.children_[node, 0] >= 0
        while np.any(active):
            idx = np.flatnonzero(active)
            t = node[idx]
            right = np.einsum("ij,ij->i", X[idx], self.coef_[t]) > self.threshold_[t]
            node[idx] = self.children_[t, right.astype(np.intp)]
            active = self.children_[node, 0] >= 0
        return node

    def predict_proba(self, X: object) -> np.ndarray:
        """Class distribution of the leaf reached."""
        leaves = self.apply(X)
        return self.value_[leaves]

    def predict(self, X: object) -> np.ndarray:
        """Majority class of the leaf reached."""
        proba = self.predict_proba(X)
        return self.classes_[np.argmax(proba, axis=1)]

    def get_depth(self) -> int:
        """Depth of the deepest node."""
        return int(self.depth_.max())
