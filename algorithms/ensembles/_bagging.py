"""Bagging with in-bag bookkeeping and the out-of-bag estimate (003 §6.3.1, Fig 8.5).

For ``t = 1..T`` a bootstrap sample ``D_bs`` of size ``m`` is drawn with replacement
and ``h_t = L(D_bs)``; the ensemble predicts ``H(x) = argmax_y sum_t I(h_t(x) = y)``
(plurality vote) for classification and the simple average for regression. The loop
records ``in_bag_counts_[t, i]``, how often example ``i`` is in ``h_t``'s sample, so the
out-of-bag prediction ``H^oob(x_i)`` votes (or averages) only over the learners with
``in_bag_counts_[t, i] == 0``, and the OOB error is taken over the examples that have
at least one such learner.
"""

from __future__ import annotations

import warnings

import numpy as np
from numpy.typing import ArrayLike
from sklearn.base import BaseEstimator, ClassifierMixin, RegressorMixin

from algorithms._validation import (
    check_bool,
    check_choice,
    make_rng,
    validate_classification,
    validate_features,
    validate_regression,
)
from algorithms.ensembles._base import (
    check_base_estimator,
    check_n_estimators,
    default_tree,
    fit_on_codes,
    predict_codes,
    seeded_clone,
    vote_totals,
)
from algorithms.ensembles._combination import TIE_BREAKS, pick_plurality

__all__ = ["BaggingClassifier", "BaggingRegressor", "OOBWarning"]


class OOBWarning(UserWarning):
    """No example was left out of every bootstrap sample's complement: too few learners
    for an out-of-bag estimate."""


def _bootstrap_members(base, X, labels, T, rng, bootstrap, fit, *, as_weights=False):
    """Fit ``T`` members; returns (members, in-bag counts (T, m)).

    ``as_weights`` hands the bootstrap to the learner as ``sample_weight`` = in-bag
    counts on the distinct examples instead of the repeated rows (for learners where a
    weight is a multiplicity, such as the trees: the same fit, on fewer rows).
    """
    m = X.shape[0]
    members, counts = [], np.empty((T, m), dtype=np.int64)
    for t in range(T):
        idx = rng.integers(0, m, size=m) if bootstrap else np.arange(m)
        counts[t] = np.bincount(idx, minlength=m)
        if as_weights:
            keep = counts[t] > 0
            members.append(fit(seeded_clone(base, rng), X[keep], labels[keep],
                               sample_weight=counts[t][keep].astype(float)))
        else:
            members.append(fit(seeded_clone(base, rng), X[idx], labels[idx]))
    return members, counts


def _fit_regressor(est, X, y):
    return est.fit(X, y)


def _oob_coverage(owner: BaseEstimator, covered: np.ndarray) -> bool:
    owner.oob_coverage_ = float(np.mean(covered))
    if not covered.any():
        warnings.warn(
            "no example is out of bag for any learner; increase n_estimators for an "
            "out-of-bag estimate (oob_error_ is NaN).", OOBWarning, stacklevel=3,
        )
        return False
    return True


class _BaggedClassifier(ClassifierMixin, BaseEstimator):
    """Bootstrap members voting by plurality; OOB bookkeeping (shared with the forest)."""

    def _fit_members(self, base, X, y, *, bootstrap: bool, as_weights: bool = False
                     ) -> _BaggedClassifier:
        T = check_n_estimators(self.n_estimators)
        check_choice(self.tie_break, "tie_break", TIE_BREAKS)
        oob = check_bool(self.oob_score, "oob_score")
        if oob and not bootstrap:
            raise ValueError("oob_score=True needs bootstrap=True (no example is out of bag "
                             "otherwise).")
        rng = make_rng(self.random_state)
        X_arr, codes = validate_classification(self, X, y)
        self.estimators_, self.in_bag_counts_ = _bootstrap_members(
            base, X_arr, codes, T, rng, bootstrap, fit_on_codes, as_weights=as_weights)
        if oob:
            self._out_of_bag(X_arr, codes, rng)
        return self

    def _out_of_bag(self, X, codes, rng) -> None:
        K = self.classes_.shape[0]
        out = self.in_bag_counts_ == 0
        totals = vote_totals(predict_codes(self.estimators_, X), K, mask=out)
        covered = out.any(axis=0)
        self.oob_decision_function_ = totals / np.maximum(out.sum(axis=0), 1)[:, None]
        pred = np.where(covered, pick_plurality(totals, self.tie_break, rng), -1)
        self.oob_prediction_ = pred
        if _oob_coverage(self, covered):
            self.oob_error_ = float(np.mean(pred[covered] != codes[covered]))
        else:
            self.oob_error_ = float("nan")
        self.oob_score_ = 1.0 - self.oob_error_

    def vote_counts(self, X: ArrayLike) -> np.ndarray:
        """``sum_t I(h_t(x) = c_j)``, shape (n, K)."""
        X_arr = validate_features(self, X, reset=False)
        return vote_totals(predict_codes(self.estimators_, X_arr), self.classes_.shape[0])

    def predict_proba(self, X: ArrayLike) -> np.ndarray:
        """Vote shares ``(1/T) sum_t I(h_t(x) = c_j)``."""
        return self.vote_counts(X) / len(self.estimators_)

    def predict(self, X: ArrayLike) -> np.ndarray:
        """Plurality vote (Fig 8.5 output), ties broken by ``tie_break``."""
        codes = pick_plurality(self.vote_counts(X), self.tie_break, self.random_state)
        return self.classes_[codes]


class BaggingClassifier(_BaggedClassifier):
    """Bagging (Fig 8.5) for classification, with the out-of-bag estimate.

    Parameters
    ----------
    estimator : classifier, default=None
        Base learning algorithm; ``None`` means a fully grown
        ``algorithms.trees.DecisionTreeClassifier``. Cloned per member, its
        ``random_state`` (if any) drawn from ``random_state``.
    n_estimators : int, default=10
        ``T`` >= 1.
    oob_score : bool, default=False
        Compute the out-of-bag prediction and error at fit time.
    tie_break : {"first", "random"}, default="first"
        Tie rule of the plurality vote: the smallest class code, or uniformly at random
        among the tied classes (the notes' rule; drawn from ``random_state``).
    random_state : None, int or Generator, default=None

    Attributes
    ----------
    estimators_ : list
        ``h_t``, fitted on class codes.
    in_bag_counts_ : int ndarray of shape (T, m)
        Multiplicity of each example in each bootstrap sample (rows sum to ``m``).
    oob_prediction_ : int ndarray of shape (m,)
        ``H^oob`` as a class code, ``-1`` where no learner is out of bag.
    oob_decision_function_ : ndarray of shape (m, K)
        Out-of-bag vote shares (zero rows where no learner is out of bag).
    oob_error_, oob_score_ : float
        Error (and accuracy) of ``H^oob`` over the covered examples.
    oob_coverage_ : float
        Fraction of examples with at least one out-of-bag learner.

    References
    ----------
    003 §6.3.1, Fig 8.5.
    """

    def __init__(self, estimator: object = None, *, n_estimators: int = 10,
                 oob_score: bool = False, tie_break: str = "first",
                 random_state: object = None) -> None:
        self.estimator = estimator
        self.n_estimators = n_estimators
        self.oob_score = oob_score
        self.tie_break = tie_break
        self.random_state = random_state

    def fit(self, X: ArrayLike, y: ArrayLike) -> BaggingClassifier:
        base = check_base_estimator(self.estimator, "estimator", default_tree)
        return self._fit_members(base, X, y, bootstrap=True)


class BaggingRegressor(RegressorMixin, BaseEstimator):
    """Bagging for regression: bootstrap members combined by simple averaging (6.17).

    Parameters
    ----------
    estimator : regressor
        Base learning algorithm (required).
    n_estimators : int, default=10
    oob_score : bool, default=False
        Compute the out-of-bag prediction (mean over the learners that did not see the
        example) and its mean squared error.
    random_state : None, int or Generator, default=None

    Attributes
    ----------
    estimators_, in_bag_counts_, oob_coverage_
        As in :class:`BaggingClassifier`.
    oob_prediction_ : ndarray of shape (m,)
        Out-of-bag average (0 where no learner is out of bag).
    oob_error_ : float
        Mean squared error of ``oob_prediction_`` over the covered examples.
    """

    def __init__(self, estimator: object = None, *, n_estimators: int = 10,
                 oob_score: bool = False, random_state: object = None) -> None:
        self.estimator = estimator
        self.n_estimators = n_estimators
        self.oob_score = oob_score
        self.random_state = random_state

    def fit(self, X: ArrayLike, y: ArrayLike) -> BaggingRegressor:
        base = check_base_estimator(self.estimator, "estimator")
        T = check_n_estimators(self.n_estimators)
        oob = check_bool(self.oob_score, "oob_score")
        rng = make_rng(self.random_state)
        X_arr, y_arr = validate_regression(self, X, y)
        self.estimators_, self.in_bag_counts_ = _bootstrap_members(
            base, X_arr, y_arr, T, rng, True, _fit_regressor)
        if oob:
            out = self.in_bag_counts_ == 0
            preds = self._member_predictions(X_arr)
            n_out = out.sum(axis=0)
            covered = n_out > 0
            self.oob_prediction_ = np.sum(preds * out, axis=0) / np.maximum(n_out, 1)
            if _oob_coverage(self, covered):
                self.oob_error_ = float(np.mean((self.oob_prediction_ - y_arr)[covered] ** 2))
            else:
                self.oob_error_ = float("nan")
        return self

    def _member_predictions(self, X: np.ndarray) -> np.ndarray:
        return np.vstack([np.asarray(h.predict(X), dtype=float) for h in self.estimators_])

    def predict(self, X: ArrayLike) -> np.ndarray:
        """``H(x) = (1/T) sum_t h_t(x)``."""
        X_arr = validate_features(self, X, reset=False)
        return self._member_predictions(X_arr).mean(axis=0)
