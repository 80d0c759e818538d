"""Stacking (003 §6.4.3, Fig 8.9): a secondary learner trained on the primary learners'
outputs.

Fig 8.9 builds the secondary training set ``D' = {((z_i1, ..., z_iT), y_i)}`` from
``z_it = h_t(x_i)`` with ``h_t`` trained on all of ``D`` (``cv=None`` here). The
primaries have seen the very points whose outputs they produce, so ``D'`` over-states
their reliability; the book therefore generates ``z_it`` by k-fold cross-validation:
``z_it = h_t^{(-k(i))}(x_i)``, the prediction of a copy of ``L_t`` trained without the
fold of ``x_i`` (``cv=k``, the default). The primaries used at prediction time are
trained on all of ``D`` in both cases.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike
from sklearn.base import BaseEstimator, ClassifierMixin, clone

from algorithms._validation import (
    check_choice,
    check_int,
    make_rng,
    validate_classification,
    validate_features,
)
from algorithms.ensembles._base import check_base_estimator, fit_on_codes
from algorithms.ensembles._voting import _members, member_probabilities

__all__ = ["StackingClassifier"]


def _default_final() -> BaseEstimator:
    from algorithms.linear import SoftmaxRegression

    # lam > 0: meta-features are often separable (indicators of a good primary), where
    # the unpenalised likelihood has no maximiser.
    return SoftmaxRegression(lam=1.0)


class StackingClassifier(ClassifierMixin, BaseEstimator):
    """Stacking with a cross-validated secondary training set.

    Parameters
    ----------
    estimators : list of classifiers
        The primary learning algorithms ``L_1..L_T``.
    final_estimator : classifier, default=None
        The secondary algorithm ``L``; ``None`` means
        ``algorithms.linear.SoftmaxRegression(lam=1.0)``.
    cv : int or None, default=5
        Folds used to build ``D'`` (2 <= cv <= m); ``None`` builds it as Fig 8.9 prints,
        from primaries trained on all of ``D``.
    method : {"predict", "predict_proba"}, default="predict_proba"
        Meta-features: the primaries' class labels (indicator columns) or class
        probabilities. With two classes one column per primary (class ``classes_[1]``),
        else ``K`` columns.
    random_state : None, int or Generator, default=None
        Seeds the fold assignment.

    Attributes
    ----------
    estimators_ : list
        ``h_1..h_T`` trained on all of ``D``.
    final_estimator_ : classifier
        ``h'`` trained on ``D'``.
    meta_features_ : ndarray of shape (m, q)
        The inputs of ``D'``.
    folds_ : int ndarray of shape (m,)
        Fold of each example (``-1`` everywhere when ``cv=None``).
    """

    def __init__(self, estimators: list, final_estimator: object = None, *, cv: int | None = 5,
                 method: str = "predict_proba", random_state: object = None) -> None:
        self.estimators = estimators
        self.final_estimator = final_estimator
        self.cv = cv
        self.method = method
        self.random_state = random_state

    def _meta(self, learners: list, X: np.ndarray) -> np.ndarray:
        K = self.classes_.shape[0]
        blocks = []
        for h in learners:
            if self.method == "predict":
                codes = np.asarray(h.predict(X)).astype(np.int64)
                block = (codes[:, None] == np.arange(K)).astype(float)
            else:
                block = member_probabilities(h, X, K)
            blocks.append(block[:, 1:] if K == 2 else block)
        return np.hstack(blocks)

    def fit(self, X: ArrayLike, y: ArrayLike) -> StackingClassifier:
        members = _members(self.estimators)
        final = clone(check_base_estimator(self.final_estimator, "final_estimator",
                                           _default_final))
        check_choice(self.method, "method", ("predict", "predict_proba"))
        X_arr, codes = validate_classification(self, X, y)
        m = X_arr.shape[0]
        self.estimators_ = [fit_on_codes(clone(h), X_arr, codes) for h in members]
        if self.cv is None:
            self.folds_ = np.full(m, -1)
            Z = self._meta(self.estimators_, X_arr)
        else:
            k = check_int(self.cv, "cv", low=2, high=max(m, 2))
            rng = make_rng(self.random_state)
            self.folds_ = np.empty(m, dtype=np.int64)
            for fold, idx in enumerate(np.array_split(rng.permutation(m), k)):
                self.folds_[idx] = fold
            Z = np.empty((m, self._meta(self.estimators_, X_arr[:1]).shape[1]))
            for fold in range(k):
                held = self.folds_ == fold
                fold_learners = [fit_on_codes(clone(h), X_arr[~held], codes[~held])
                                 for h in members]
                Z[held] = self._meta(fold_learners, X_arr[held])
        self.meta_features_ = Z
        self.final_estimator_ = fit_on_codes(final, Z, codes)
        return self

    def meta_features(self, X: ArrayLike) -> np.ndarray:
        """The meta-features ``(h_1(x), ..., h_T(x))`` of new points."""
        X_arr = validate_features(self, X, reset=False)
        return self._meta(self.estimators_, X_arr)

    def predict(self, X: ArrayLike) -> np.ndarray:
        """``H(x) = h'(h_1(x), ..., h_T(x))``."""
        Z = self.meta_features(X)
        codes = np.asarray(self.final_estimator_.predict(Z)).astype(np.int64)
        return self.classes_[codes]
