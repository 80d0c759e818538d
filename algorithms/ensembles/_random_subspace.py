"""The random subspace method (003 §6.5.3, Fig 8.11): input-attribute perturbation.

For ``t = 1..T``: ``F_t = RS(D, d')`` draws ``d'`` of the ``d`` attributes without
replacement, ``D_t = Map_{F_t}(D)`` keeps only those columns, ``h_t = L(D_t)``; the
ensemble predicts ``argmax_y sum_t I(h_t(Map_{F_t}(x)) = y)``.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike
from sklearn.base import BaseEstimator, ClassifierMixin

from algorithms._validation import (
    check_choice,
    check_int,
    make_rng,
    validate_classification,
    validate_features,
)
from algorithms.ensembles._base import (
    check_base_estimator,
    check_n_estimators,
    default_tree,
    fit_on_codes,
    seeded_clone,
    vote_totals,
)
from algorithms.ensembles._combination import TIE_BREAKS, pick_plurality

__all__ = ["RandomSubspaceClassifier"]


class RandomSubspaceClassifier(ClassifierMixin, BaseEstimator):
    """Random subspace ensemble (Fig 8.11) with a plurality vote.

    Parameters
    ----------
    estimator : classifier, default=None
        Base learning algorithm; ``None`` means a fully grown
        ``algorithms.trees.DecisionTreeClassifier``.
    n_estimators : int, default=10
        ``T`` >= 1.
    n_subspace_features : int or None, default=None
        ``d'`` in ``1..d``; ``None`` means ``ceil(d / 2)``.
    tie_break : {"first", "random"}, default="first"
    random_state : None, int or Generator, default=None

    Attributes
    ----------
    estimators_ : list
        ``h_t``, fitted on ``Map_{F_t}(D)``.
    subspaces_ : int ndarray of shape (T, d')
        ``F_t``: the attribute indices of each member (sorted).
    """

    def __init__(self, estimator: object = None, *, n_estimators: int = 10,
                 n_subspace_features: int | None = None, tie_break: str = "first",
                 random_state: object = None) -> None:
        self.estimator = estimator
        self.n_estimators = n_estimators
        self.n_subspace_features = n_subspace_features
        self.tie_break = tie_break
        self.random_state = random_state

    def fit(self, X: ArrayLike, y: ArrayLike) -> RandomSubspaceClassifier:
        T = check_n_estimators(self.n_estimators)
        check_choice(self.tie_break, "tie_break", TIE_BREAKS)
        base = check_base_estimator(self.estimator, "estimator", default_tree)
        rng = make_rng(self.random_state)
        X_arr, codes = validate_classification(self, X, y)
        d = X_arr.shape[1]
        if self.n_subspace_features is None:
            k = (d + 1) // 2
        else:
            k = check_int(self.n_subspace_features, "n_subspace_features", low=1, high=d)
        self.subspaces_ = np.vstack(
            [np.sort(rng.choice(d, size=k, replace=False)) for _ in range(T)])
        self.estimators_ = [
            fit_on_codes(seeded_clone(base, rng), X_arr[:, F], codes) for F in self.subspaces_]
        return self

    def vote_counts(self, X: ArrayLike) -> np.ndarray:
        """``sum_t I(h_t(Map_{F_t}(x)) = c_j)``, shape (n, K)."""
        X_arr = validate_features(self, X, reset=False)
        codes = np.vstack([np.asarray(h.predict(X_arr[:, F])).astype(np.int64)
                           for h, F in zip(self.estimators_, self.subspaces_, strict=True)])
        return vote_totals(codes, self.classes_.shape[0])

    def predict_proba(self, X: ArrayLike) -> np.ndarray:
        """Vote shares."""
        return self.vote_counts(X) / len(self.estimators_)

    def predict(self, X: ArrayLike) -> np.ndarray:
        codes = pick_plurality(self.vote_counts(X), self.tie_break, self.random_state)
        return self.classes_[codes]
