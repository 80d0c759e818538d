"""Random forest (003 §6.3.2; 003 §2.7): bagging of decision trees that draw a random
subset of ``k`` attributes at every node and split on the best attribute of the subset.

``k = d`` gives the traditional tree at every node, ``k = 1`` a uniformly random
attribute; the recommended default is ``k = log2 d`` (``max(1, floor(log2 d))``).
Trees are fully grown and unpruned; the forest votes by plurality and records the
in-bag counts for its out-of-bag estimate.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

from algorithms._validation import check_bool
from algorithms.ensembles._bagging import _BaggedClassifier

__all__ = ["RandomForestClassifier"]


class RandomForestClassifier(_BaggedClassifier):
    """Random forest classifier on ``algorithms.trees.DecisionTreeClassifier``.

    Parameters
    ----------
    n_estimators : int, default=100
        Number of trees ``T`` >= 1.
    max_features : int, float, "log2", "sqrt" or None, default="log2"
        ``k``, the attributes drawn at every node (as the tree's ``max_features``);
        ``None`` means all ``d`` (plain bagging of trees).
    criterion : {"gini", "entropy", "gain_ratio"}, default="gini"
    max_depth : int or None, default=None
        None grows every tree fully (no pruning), as RF prescribes.
    bootstrap : bool, default=True
        Train every tree on a bootstrap sample (else on all of ``D``).
    oob_score : bool, default=False
        Out-of-bag prediction and error (needs ``bootstrap``).
    tie_break : {"first", "random"}, default="first"
        Tie rule of the plurality vote.
    random_state : None, int or Generator, default=None
        Draws the bootstrap samples and every tree's ``random_state``.

    Attributes
    ----------
    estimators_ : list of DecisionTreeClassifier
    in_bag_counts_ : int ndarray of shape (T, m)
    oob_prediction_, oob_decision_function_, oob_error_, oob_score_, oob_coverage_
        As in :class:`BaggingClassifier` (with ``oob_score=True``).
    feature_importances_ : ndarray of shape (d,)
        Mean of the trees' impurity-decrease importances.

    References
    ----------
    003 §6.3.2; 003 §2.7.
    """

    def __init__(self, n_estimators: int = 100, *, max_features: object = "log2",
                 criterion: str = "gini", max_depth: int | None = None,
                 bootstrap: bool = True, oob_score: bool = False, tie_break: str = "first",
                 random_state: object = None) -> None:
        self.n_estimators = n_estimators
        self.max_features = max_features
        self.criterion = criterion
        self.max_depth = max_depth
        self.bootstrap = bootstrap
        self.oob_score = oob_score
        self.tie_break = tie_break
        self.random_state = random_state

    def fit(self, X: ArrayLike, y: ArrayLike) -> RandomForestClassifier:
        from algorithms.trees import DecisionTreeClassifier

        base = DecisionTreeClassifier(criterion=self.criterion, max_depth=self.max_depth,
                                      max_features=self.max_features)
        # a tree weighs a row by its in-bag count exactly as it would count repeated rows
        return self._fit_members(base, X, y, bootstrap=check_bool(self.bootstrap, "bootstrap"),
                                 as_weights=True)

    @property
    def feature_importances_(self) -> np.ndarray:
        """Average over the trees of their normalised impurity decreases."""
        trees = [t for t in self.estimators_ if hasattr(t, "tree_")]
        if not trees:
            return np.zeros(self.n_features_in_)
        return np.mean([t.feature_importances_ for t in trees], axis=0)
