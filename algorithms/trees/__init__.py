"""Decision trees (003 Chapter 2).

One tree grower (TreeGenerate, §2.1) with ID3's information gain, C4.5's gain ratio
and CART's Gini index; discrete and continuous attributes, missing values, pre- and
post-pruning on a validation set, regression trees; multivariate (oblique) trees
(§2.6) and gradient-boosted trees (§2.8); a text rendering.
"""

from algorithms.trees._decision_tree import DecisionTreeClassifier, DecisionTreeRegressor
from algorithms.trees._export import export_text
from algorithms.trees._gbdt import GradientBoostingClassifier, GradientBoostingRegressor
from algorithms.trees._impurity import (
    entropy,
    gain,
    gain_ratio,
    gini,
    gini_index,
    intrinsic_value,
)
from algorithms.trees._oblique import ObliqueDecisionTreeClassifier
from algorithms.trees._pruning import reduced_error_prune
from algorithms.trees._structure import Tree

__all__ = [
    "DecisionTreeClassifier",
    "DecisionTreeRegressor",
    "GradientBoostingClassifier",
    "GradientBoostingRegressor",
    "ObliqueDecisionTreeClassifier",
    "Tree",
    "entropy",
    "export_text",
    "gain",
    "gain_ratio",
    "gini",
    "gini_index",
    "intrinsic_value",
    "reduced_error_prune",
]
