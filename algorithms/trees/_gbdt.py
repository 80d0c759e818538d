"""Gradient-boosted decision trees, GBDT (003 §2.8).

``F_0`` is the constant minimising the loss; round ``m`` fits a regression tree ``h_m``
(least squares, :class:`DecisionTreeRegressor`) to the negative gradient
``r_i = -dL(y_i, F(x_i)) / dF`` — the residual ``y - F`` for the square loss,
``y - sigma(F)`` (or ``y_k - p_k``) for the logistic loss — and *adds* it:
``F_m = F_{m-1} + nu h_m``. The combination is a sum, not a vote (the note's step 5
says "vote as in a random forest"; the claims show why that is wrong).
"""

from __future__ import annotations

import numpy as np
from scipy.special import expit, logsumexp, softmax
from sklearn.base import BaseEstimator, ClassifierMixin, RegressorMixin

from algorithms._validation import (
    check_choice,
    check_int,
    check_real,
    check_sample_weight,
    check_squares_representable,
    make_rng,
    validate_classification,
    validate_features,
    validate_regression,
)
from algorithms.trees._decision_tree import DecisionTreeRegressor

__all__ = ["GradientBoostingClassifier", "GradientBoostingRegressor"]

#: Newton leaf values divide by sum w p (1 - p); below this the leaf's curvature is
#: numerically zero (every p is 0 or 1 to double precision) and the leaf gets 0.
_CURVATURE_FLOOR = 1e-150
LEAF_UPDATES = ("newton", "gradient")

#: The most boosting rounds ``fit`` accepts: each round grows a full tree, so 1e5
#: rounds already take hours on a modest data set; a larger request is an error, not
#: a run that never ends.
MAX_ROUNDS = 100_000


class _BaseGBDT(BaseEstimator):
    def _check_rounds(self) -> tuple[int, float]:
        return (
            check_int(self.n_estimators, "n_estimators", low=1, high=MAX_ROUNDS),
            check_real(self.learning_rate, "learning_rate", low=0.0, low_open=True),
        )

    def _tree(self, rng: np.random.Generator) -> DecisionTreeRegressor:
        return DecisionTreeRegressor(
            max_depth=self.max_depth,
            min_samples_split=self.min_samples_split,
            min_samples_leaf=self.min_samples_leaf,
            max_features=self.max_features,
            random_state=int(rng.integers(2**31 - 1)),
        )

    def _raw(self, X: np.ndarray, n_estimators: int | None = None) -> np.ndarray:
        """``F_M(x)``, shape (n, n_outputs), from the first ``n_estimators`` rounds."""
        F = np.tile(self.init_, (X.shape[0], 1))
        for trees in self.estimators_[:n_estimators]:
            for k, tree in enumerate(trees):
                F[:, k] += self.learning_rate * tree.predict(X)
        return F

    def _staged_raw(self, X: np.ndarray):
        F = np.tile(self.init_, (X.shape[0], 1))
        for trees in self.estimators_:
            for k, tree in enumerate(trees):
                F[:, k] += self.learning_rate * tree.predict(X)
            yield F.copy()


class GradientBoostingRegressor(RegressorMixin, _BaseGBDT):
    """GBDT with the square loss ``L(y, F) = (y - F)^2 / 2`` (003 §2.8).

    Parameters
    ----------
    n_estimators : int >= 1, default 100
        The number M of rounds (trees).
    learning_rate : float > 0, default 0.1
        The shrinkage ``nu`` of ``F_m = F_{m-1} + nu h_m``.
    max_depth, min_samples_split, min_samples_leaf, max_features
        Of each regression tree (:class:`DecisionTreeRegressor`); ``max_depth=3``.
    random_state : None, int or Generator

    Attributes
    ----------
    init_ : ndarray (1,), ``F_0``, the weighted mean of y
    estimators_ : list of [DecisionTreeRegressor], one per round
    train_loss_ : ndarray (n_estimators + 1,)
        Weighted mean training loss of ``F_0, ..., F_M``, recorded by the fitting loop.

    Notes
    -----
    With least-squares trees the fitted ``h_m`` is the orthogonal projection (in the
    weighted inner product) of the residual on the functions constant on the tree's
    leaves, so ``||r - nu h||^2 = ||r||^2 - nu (2 - nu) ||h||^2``: the training loss
    never increases for ``0 < nu <= 2``.
    """

    def __init__(
        self,
        *,
        n_estimators: int = 100,
        learning_rate: float = 0.1,
        max_depth: int | None = 3,
        min_samples_split: int = 2,
        min_samples_leaf: int = 1,
        max_features: object = None,
        random_state: object = None,
    ) -> None:
        self.n_estimators = n_estimators
        self.learning_rate = learning_rate
        self.max_depth = max_depth
        self.min_samples_split = min_samples_split
        self.min_samples_leaf = min_samples_leaf
        self.max_features = max_features
        self.random_state = random_state

    def fit(self, X: object, y: object, sample_weight: object = None) -> GradientBoostingRegressor:
        """Run M boosting rounds on the residuals."""
        X, y = validate_regression(self, X, y)
        check_squares_representable(y, "y")  # the squared loss of (2.13) must be a float64
        M, nu = self._check_rounds()
        w = check_sample_weight(sample_weight, X)
        rng = make_rng(self.random_state)
        self.init_ = np.array([np.average(y, weights=w)])
        F = np.full(X.shape[0], self.init_[0])
        losses = [0.5 * np.average((y - F) ** 2, weights=w)]
        self.estimators_ = []
        for _ in range(M):
            tree = self._tree(rng).fit(X, y - F, sample_weight=w)
            F = F + nu * tree.predict(X)
            self.estimators_.append([tree])
            losses.append(0.5 * np.average((y - F) ** 2, weights=w))
        self.train_loss_ = np.asarray(losses)
        return self

    def predict(self, X: object) -> np.ndarray:
        """``F_M(x) = F_0 + nu sum_m h_m(x)``."""
        X = validate_features(self, X, reset=False)
        return self._raw(X)[:, 0]

    def staged_predict(self, X: object):
        """``F_1(x), ..., F_M(x)``, one array per round."""
        X = validate_features(self, X, reset=False)
        for F in self._staged_raw(X):
            yield F[:, 0]


class GradientBoostingClassifier(ClassifierMixin, _BaseGBDT):
    """GBDT with the logistic loss (003 §2.8): binary deviance, softmax for K > 2.

    Two classes: ``F`` is the log-odds of ``classes_[1]``, ``F_0 = ln(p / (1 - p))``
    of the weighted prior, the negative gradient is ``y - sigma(F)``. K > 2 classes:
    one score ``F_k`` per class, ``F_{0,k} = ln p_k``, negative gradients
    ``y_k - softmax(F)_k``, K trees per round.

    Parameters
    ----------
    n_estimators, learning_rate, max_depth, min_samples_split, min_samples_leaf,
    max_features, random_state
        As :class:`GradientBoostingRegressor`.
    leaf_update : {"newton", "gradient"}, default "newton"
        ``"gradient"`` keeps the least-squares leaf values (the mean negative gradient,
        the note's "fit the gradient"); ``"newton"`` replaces each leaf value by one
        Newton step on the leaf's loss, ``sum w r / sum w p (1 - p)`` (times
        ``(K - 1) / K`` for K > 2; Friedman's TreeBoost).

    Attributes
    ----------
    classes_, init_ (n_outputs,), estimators_ (list of lists of trees),
    train_loss_ : ndarray (n_estimators + 1,), weighted mean deviance per round.
    """

    def __init__(
        self,
        *,
        n_estimators: int = 100,
        learning_rate: float = 0.1,
        max_depth: int | None = 3,
        min_samples_split: int = 2,
        min_samples_leaf: int = 1,
        max_features: object = None,
        leaf_update: str = "newton",
        random_state: object = None,
    ) -> None:
        self.n_estimators = n_estimators
        self.learning_rate = learning_rate
        self.max_depth = max_depth
        self.min_samples_split = min_samples_split
        self.min_samples_leaf = min_samples_leaf
        self.max_features = max_features
        self.leaf_update = leaf_update
        self.random_state = random_state

    @staticmethod
    def _loss(Y: np.ndarray, F: np.ndarray, w: np.ndarray) -> float:
        """Weighted mean deviance: ``ln(1 + e^F) - y F`` or ``logsumexp(F) - F_y``."""
        if F.shape[1] == 1:
            per = np.logaddexp(0.0, F[:, 0]) - Y[:, 0] * F[:, 0]
        else:
            per = logsumexp(F, axis=1) - np.sum(Y * F, axis=1)
        return float(np.average(per, weights=w))

    def fit(self, X: object, y: object, sample_weight: object = None) -> GradientBoostingClassifier:
        """Run M boosting rounds on the logistic-loss gradients."""
        X, codes = validate_classification(self, X, y)
        M, nu = self._check_rounds()
        newton = check_choice(self.leaf_update, "leaf_update", LEAF_UPDATES) == "newton"
        w = check_sample_weight(sample_weight, X)
        rng = make_rng(self.random_state)
        K = self.classes_.shape[0]
        prior = np.bincount(codes, weights=w, minlength=K) / w.sum()
        if np.any(prior <= 0):
            raise ValueError("every class needs a positive total sample_weight.")
        if K == 2:
            Y = (codes == 1).astype(float)[:, None]
            self.init_ = np.array([np.log(prior[1] / prior[0])])
        else:
            Y = np.eye(K)[codes]
            self.init_ = np.log(prior)
        F = np.tile(self.init_, (X.shape[0], 1))
        losses = [self._loss(Y, F, w)]
        self.estimators_ = []
        for _ in range(M):
            P = expit(F) if K == 2 else softmax(F, axis=1)
            R = Y - P
            trees = []
            for k in range(Y.shape[1]):
                tree = self._tree(rng).fit(X, R[:, k], sample_weight=w)
                if newton:
                    self._newton_leaves(tree, X, R[:, k], P[:, k], w, K)
                F[:, k] += nu * tree.predict(X)
                trees.append(tree)
            self.estimators_.append(trees)
            losses.append(self._loss(Y, F, w))
        self.train_loss_ = np.asarray(losses)
        return self

    @staticmethod
    def _newton_leaves(tree, X, r, p, w, K) -> None:
        leaves = tree.apply(X)
        n = tree.tree_.node_count
        num = np.bincount(leaves, weights=w * r, minlength=n)
        den = np.bincount(leaves, weights=w * p * (1.0 - p), minlength=n)
        factor = 1.0 if K == 2 else (K - 1) / K
        reached = np.unique(leaves)
        step = np.where(den[reached] > _CURVATURE_FLOOR,
                        factor * num[reached] / np.maximum(den[reached], _CURVATURE_FLOOR), 0.0)
        tree.tree_.value[reached, 0] = step

    def decision_function(self, X: object) -> np.ndarray:
        """``F_M(x)``: the log-odds (n,) for two classes, the scores (n, K) otherwise."""
        X = validate_features(self, X, reset=False)
        F = self._raw(X)
        return F[:, 0] if F.shape[1] == 1 else F

    def predict_proba(self, X: object) -> np.ndarray:
        """``sigma(F)`` (two classes) or ``softmax(F)``."""
        X = validate_features(self, X, reset=False)
        return self._proba(self._raw(X))

    @staticmethod
    def _proba(F: np.ndarray) -> np.ndarray:
        if F.shape[1] == 1:
            p = expit(F[:, 0])
            return np.column_stack([1.0 - p, p])
        return softmax(F, axis=1)

    def predict(self, X: object) -> np.ndarray:
        """The most probable class."""
        proba = self.predict_proba(X)
        return self.classes_[np.argmax(proba, axis=1)]

    def staged_predict_proba(self, X: object):
        """Class probabilities after each round."""
        X = validate_features(self, X, reset=False)
        for F in self._staged_raw(X):
            yield self._proba(F)
