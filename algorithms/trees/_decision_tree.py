"""Decision-tree estimators: ID3 / C4.5 / CART classification trees and regression trees.

One grower (:func:`algorithms.trees._grower.grow_tree`) parameterised by the split
criterion: information gain (ID3, 003 §2.2.1 (2.1)–(2.3)), gain ratio (C4.5, §2.2.2
(2.4), optionally with the above-average-gain heuristic), Gini index (CART, §2.3
(2.5)–(2.7)) and, for regression trees (the base learner of GBDT, §2.8), squared error.
"""

from __future__ import annotations

import math
import numbers

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin, RegressorMixin

from algorithms._validation import (
    InvalidArgumentError,
    check_bool,
    check_choice,
    check_int,
    check_real,
    check_sample_weight,
    check_squares_representable,
    labels_in_classes,
    make_rng,
    validate_classification,
    validate_features,
    validate_regression,
)
from algorithms.trees._criteria import ClassificationCriterion, SquaredErrorCriterion
from algorithms.trees._grower import GrowSettings, grow_tree
from algorithms.trees._pruning import reduced_error_prune
from algorithms.trees._structure import Tree

__all__ = ["DecisionTreeClassifier", "DecisionTreeRegressor"]

CLASSIFICATION_CRITERIA = ("entropy", "gain_ratio", "gini")
MISSING_MODES = ("error", "weighted")
DISCRETE_SPLITS = ("multiway", "binary")
PRUNING_MODES = (None, "pre", "post")
MAX_FEATURES_NAMES = ("sqrt", "log2")


def resolve_max_features(max_features: object, n_features: int) -> int | None:
    """The number of attributes drawn at each node (None: all of them).

    ``int`` in [1, d]; ``float`` in (0, 1] (a fraction of d, at least 1); ``"sqrt"``,
    ``"log2"`` (``max(1, floor(log2 d))``, the book's ``k = log2 d`` for random forests).
    """
    if max_features is None:
        return None
    if isinstance(max_features, str):
        check_choice(max_features, "max_features", MAX_FEATURES_NAMES)
        root = math.sqrt if max_features == "sqrt" else math.log2
        return max(1, int(root(n_features)))
    if isinstance(max_features, numbers.Integral) and not isinstance(max_features, bool):
        return check_int(max_features, "max_features", low=1, high=n_features)
    if isinstance(max_features, numbers.Real) and not isinstance(max_features, bool):
        fraction = check_real(max_features, "max_features", low=0.0, high=1.0, low_open=True)
        return max(1, int(fraction * n_features))
    raise InvalidArgumentError(
        f"max_features must be None, an int, a float in (0, 1], 'sqrt' or 'log2', "
        f"got {max_features!r}."
    )


def resolve_categorical(categorical_features: object, n_features: int) -> np.ndarray:
    """Boolean mask of the discrete attributes from indices or a mask (None: none)."""
    mask = np.zeros(n_features, dtype=bool)
    if categorical_features is None:
        return mask
    arr = np.asarray(categorical_features)
    if arr.dtype == bool:
        if arr.shape != (n_features,):
            raise ValueError(
                f"categorical_features as a mask must have shape ({n_features},), "
                f"got {arr.shape}."
            )
        return arr.copy()
    if arr.ndim != 1 or arr.dtype.kind not in "iu":
        raise InvalidArgumentError(
            "categorical_features must be None, a boolean mask or a 1-d array of column "
            f"indices, got {categorical_features!r}."
        )
    if np.any((arr < 0) | (arr >= n_features)):
        raise ValueError(
            f"categorical_features holds indices outside [0, {n_features - 1}]: {arr.tolist()}."
        )
    mask[arr] = True
    return mask


class _BaseTree(BaseEstimator):
    """What the classification and regression trees share (validation, growth, access)."""

    def _check_common(self, X: np.ndarray) -> dict:
        d = X.shape[1]
        max_depth = self.max_depth
        if max_depth is not None:
            max_depth = check_int(max_depth, "max_depth", low=1)
        return {
            "max_depth": max_depth,
            "min_samples_split": check_int(self.min_samples_split, "min_samples_split", low=2),
            "min_samples_leaf": check_int(self.min_samples_leaf, "min_samples_leaf", low=1),
            "min_impurity_decrease": check_real(
                self.min_impurity_decrease, "min_impurity_decrease", low=0.0
            ),
            "max_features": resolve_max_features(self.max_features, d),
            "categorical": resolve_categorical(self.categorical_features, d),
            "binary_discrete": check_choice(
                self.discrete_split, "discrete_split", DISCRETE_SPLITS) == "binary",
            "missing": check_choice(self.missing, "missing", MISSING_MODES) == "weighted",
            "rng": make_rng(self.random_state),
        }

    def _validation_kwargs(self) -> dict:
        return {"ensure_all_finite": "allow-nan" if self.missing == "weighted" else True}

    @staticmethod
    def _weights(sample_weight: object, X: np.ndarray) -> np.ndarray:
        w = check_sample_weight(sample_weight, X)
        if not np.any(w > 0):
            raise ValueError("sample_weight must have a positive sum; all weights are zero.")
        return w

    def _predict_input(self, X: object) -> np.ndarray:
        return validate_features(self, X, reset=False, **self._validation_kwargs())

    def apply(self, X: object) -> np.ndarray:
        """Id of the leaf (or, for an unseen discrete value, the node) each sample reaches.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)

        Returns
        -------
        ndarray of int (n_samples,)
        """
        X = self._predict_input(X)
        return self.tree_.apply(X)

    def get_depth(self) -> int:
        """Depth of the fitted tree (a single leaf has depth 0)."""
        return self.tree_.max_depth

    def get_n_leaves(self) -> int:
        """Number of leaves of the fitted tree."""
        return self.tree_.n_leaves

    @property
    def feature_importances_(self) -> np.ndarray:
        """Weighted impurity decrease per attribute, normalised to sum to 1.

        ``sum over nodes t splitting on f of W_t * decrease_t``; all zeros for a
        single-leaf tree.
        """
        tree: Tree = self.tree_
        internal = ~tree.is_leaf
        contrib = tree.weighted_n_node_samples[internal] * tree.impurity_decrease[internal]
        out = np.bincount(tree.feature[internal], weights=contrib, minlength=self.n_features_in_)
        total = out.sum()
        return out / total if total > 0 else out

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.allow_nan = self.missing == "weighted"
        return tags


class DecisionTreeClassifier(ClassifierMixin, _BaseTree):
    """Classification tree grown by TreeGenerate with ID3, C4.5 or CART's criterion.

    Parameters
    ----------
    criterion : {"entropy", "gain_ratio", "gini"}, default "entropy"
        Information gain (ID3, 003 (2.2)–(2.3)), gain ratio (C4.5, (2.4)) or Gini index
        (CART, (2.5)–(2.7)). For a continuous attribute the threshold maximises the
        gain (or Gini decrease); C4.5 then compares attributes by gain ratio.
    max_depth : int >= 1 or None, default None
    min_samples_split : int >= 2, default 2
        A node with fewer rows becomes a leaf.
    min_samples_leaf : int >= 1, default 1
        Every (non-empty) branch of a split keeps at least this many rows.
    min_impurity_decrease : float >= 0, default 0.0
        A split whose gain (``rho`` times the decrease) is below this becomes a leaf;
        with 0 every non-trivial split is taken, as in TreeGenerate.
    max_features : int, float, "sqrt", "log2" or None, default None
        Size of the random subset of attributes drawn at every node (random forests,
        003 §2.7); None evaluates all attributes.
    categorical_features : array-like of int or bool mask, or None
        Discrete attributes: multiway split into one branch per training value, then
        removed from the attribute set of the subtree (ID3 / C4.5). All others are
        continuous: bi-partition (2.8), reusable deeper.
    discrete_split : {"multiway", "binary"}, default "multiway"
        ``"binary"``: CART proper, every split has two branches; a discrete attribute is
        split into the best bipartition {S, rest} of its values (all enumerated, at most
        16 values at a node) and stays available below.
    missing : {"error", "weighted"}, default "error"
        ``"weighted"`` accepts NaN as a missing value: ``rho``-weighted criterion and
        fractional routing (003 §2.5.2 (2.9)–(2.10)), also at prediction.
    above_average_gain : bool, default False
        With ``criterion="gain_ratio"``: only attributes whose gain is at least the
        average gain compete on gain ratio (C4.5's heuristic).
    pruning : {None, "pre", "post"}, default None
        Validation-set pruning of 003 §2.4: pre-pruning expands a node only if the
        validation accuracy strictly increases; post-pruning (reduced error) replaces
        a subtree by a leaf, bottom-up, when the validation accuracy does not decrease.
    validation_fraction : float in (0, 1), default 0.3
        Share of the training rows held out (stratified) as validation set when
        ``pruning`` is set and ``fit`` gets no ``validation_set``.
    random_state : None, int or numpy Generator
        Draws the attribute subsets and the held-out validation rows.

    Attributes
    ----------
    classes_ : ndarray (K,)
    n_classes_ : int
    n_features_in_ : int
    tree_ : Tree
        Node arrays: tests, children, per-node class counts, impurity, split scores.
    max_features_ : int
    feature_importances_ : ndarray (n_features,)
    """

    def __init__(
        self,
        *,
        criterion: str = "entropy",
        max_depth: int | None = None,
        min_samples_split: int = 2,
        min_samples_leaf: int = 1,
        min_impurity_decrease: float = 0.0,
        max_features: object = None,
        categorical_features: object = None,
        discrete_split: str = "multiway",
        missing: str = "error",
        above_average_gain: bool = False,
        pruning: str | None = None,
        validation_fraction: float = 0.3,
        random_state: object = None,
    ) -> None:
        self.criterion = criterion
        self.max_depth = max_depth
        self.min_samples_split = min_samples_split
        self.min_samples_leaf = min_samples_leaf
        self.min_impurity_decrease = min_impurity_decrease
        self.max_features = max_features
        self.categorical_features = categorical_features
        self.discrete_split = discrete_split
        self.missing = missing
        self.above_average_gain = above_average_gain
        self.pruning = pruning
        self.validation_fraction = validation_fraction
        self.random_state = random_state

    def fit(
        self, X: object, y: object, sample_weight: object = None, validation_set: object = None
    ) -> DecisionTreeClassifier:
        """Grow the tree.

        Parameters
        ----------
        X : array-like (n_samples, n_features); NaN only with ``missing="weighted"``
        y : array-like (n_samples,)
        sample_weight : array-like (n_samples,) of non-negative weights, or None
            Rows of weight zero are left out.
        validation_set : (X_val, y_val) or None
            The validation set of ``pruning``; None holds out ``validation_fraction``.

        Returns
        -------
        self
        """
        X, codes = validate_classification(self, X, y, **self._validation_kwargs())
        criterion = check_choice(self.criterion, "criterion", CLASSIFICATION_CRITERIA)
        common = self._check_common(X)
        above = check_bool(self.above_average_gain, "above_average_gain")
        if self.pruning not in PRUNING_MODES:
            raise ValueError(f"pruning must be one of {PRUNING_MODES}, got {self.pruning!r}.")
        fraction = check_real(
            self.validation_fraction, "validation_fraction", low=0.0, high=1.0,
            low_open=True, high_open=True,
        )  # checked whether or not it is used, like every hyperparameter
        w = self._weights(sample_weight, X)
        K = self.classes_.shape[0]
        self.n_classes_ = K
        self.max_features_ = common["max_features"] or X.shape[1]
        validation = None
        if self.pruning is not None:
            X, codes, w, validation = self._split_validation(
                X, codes, w, validation_set, common, fraction
            )
        keep = w > 0
        settings = GrowSettings(
            criterion=ClassificationCriterion(
                "gini" if criterion == "gini" else "entropy", K
            ),
            gain_ratio=criterion == "gain_ratio",
            above_average_gain=above,
            **common,
        )
        self.tree_ = grow_tree(
            X[keep], codes[keep], w[keep], settings,
            validation=validation if self.pruning == "pre" else None,
        )
        if self.pruning == "post":
            self.tree_ = reduced_error_prune(
                self.tree_, *validation, allow_missing=self.missing == "weighted"
            )
        return self

    def _split_validation(self, X, codes, w, validation_set, common, fraction):
        if validation_set is not None:
            try:
                X_val, y_val = validation_set
            except (TypeError, ValueError) as exc:
                raise InvalidArgumentError(
                    "validation_set must be a pair (X_val, y_val)."
                ) from exc
            X_val = validate_features(self, X_val, reset=False, **self._validation_kwargs())
            return X, codes, w, (X_val, labels_in_classes(self.classes_, y_val, X_val.shape[0]))
        rng = common["rng"]
        held = np.zeros(X.shape[0], dtype=bool)
        for k in np.unique(codes):  # stratified hold-out: a share of every class
            rows = np.flatnonzero(codes == k)
            take = int(round(fraction * rows.shape[0]))
            held[rng.choice(rows, size=min(take, rows.shape[0] - 1), replace=False)] = True
        return X[~held], codes[~held], w[~held], (X[held], codes[held])

    def predict_proba(self, X: object) -> np.ndarray:
        """Class distribution of the leaf each sample reaches (weighted over leaves when a
        tested value is missing).

        Returns
        -------
        ndarray (n_samples, K), rows sum to 1
        """
        X = self._predict_input(X)
        return self.tree_.predict_value(X)

    def predict_log_proba(self, X: object) -> np.ndarray:
        """Logarithm of :meth:`predict_proba` (``-inf`` for impossible classes)."""
        with np.errstate(divide="ignore"):
            return np.log(self.predict_proba(X))

    def predict(self, X: object) -> np.ndarray:
        """The majority class (first in ``classes_`` order on ties)."""
        proba = self.predict_proba(X)
        return self.classes_[np.argmax(proba, axis=1)]


#: Below this largest |y| the squared deviations the grower sums would lose precision to
#: underflow (squares of 1e-154 are subnormal); such a target is grown rescaled to max
#: |y| = 1 and the fitted values scaled back (the tree is the same: every split score
#: scales by the same factor).
TINY_TARGET = 1e-100


def _target_scale(y: np.ndarray) -> tuple[np.ndarray, float]:
    """``(y / s, s)`` with ``s = max|y|`` for a tiny target, else ``(y, 1.0)``; a target
    whose squares overflow is refused (its variance is not a float64)."""
    check_squares_representable(y, "y")
    top = float(np.max(np.abs(y))) if y.size else 0.0
    if 0.0 < top < TINY_TARGET:
        return y / top, top
    return y, 1.0


def _rescale_regression_tree(tree: object, scale: float) -> None:
    """Undo :func:`_target_scale` on a tree grown on ``y / scale``."""
    tree.value *= scale
    squared = scale * scale
    for name in ("impurity", "split_score", "impurity_decrease"):
        setattr(tree, name, getattr(tree, name) * squared)


class DecisionTreeRegressor(RegressorMixin, _BaseTree):
    """Regression tree (least squares), the base learner of GBDT (003 §2.8).

    Each split maximises the decrease of the weighted variance
    ``Var(D) - sum_v W_v / W Var(D^v)``; leaves predict the weighted mean.
    Parameters as :class:`DecisionTreeClassifier` (``criterion="squared_error"`` only).
    """

    def __init__(
        self,
        *,
        criterion: str = "squared_error",
        max_depth: int | None = None,
        min_samples_split: int = 2,
        min_samples_leaf: int = 1,
        min_impurity_decrease: float = 0.0,
        max_features: object = None,
        categorical_features: object = None,
        discrete_split: str = "multiway",
        missing: str = "error",
        random_state: object = None,
    ) -> None:
        self.criterion = criterion
        self.max_depth = max_depth
        self.min_samples_split = min_samples_split
        self.min_samples_leaf = min_samples_leaf
        self.min_impurity_decrease = min_impurity_decrease
        self.max_features = max_features
        self.categorical_features = categorical_features
        self.discrete_split = discrete_split
        self.missing = missing
        self.random_state = random_state

    def fit(self, X: object, y: object, sample_weight: object = None) -> DecisionTreeRegressor:
        """Grow the regression tree; rows of weight zero are left out."""
        X, y = validate_regression(self, X, y, **self._validation_kwargs())
        check_choice(self.criterion, "criterion", ("squared_error",))
        common = self._check_common(X)
        w = self._weights(sample_weight, X)
        self.max_features_ = common["max_features"] or X.shape[1]
        keep = w > 0
        y, scale = _target_scale(y)
        if scale != 1.0:
            # in the units of y / scale (inf when 1/scale^2 overflows: then no split of
            # a positive threshold can pass, as on the original scale)
            common["min_impurity_decrease"] = float(
                np.float64(common["min_impurity_decrease"]) / scale / scale
            )
        settings = GrowSettings(criterion=SquaredErrorCriterion(), **common)
        self.tree_ = grow_tree(X[keep], y[keep], w[keep], settings)
        if scale != 1.0:
            _rescale_regression_tree(self.tree_, scale)
        return self

    def predict(self, X: object) -> np.ndarray:
        """Weighted mean target of the leaf each sample reaches."""
        X = self._predict_input(X)
        return self.tree_.predict_value(X)[:, 0]
