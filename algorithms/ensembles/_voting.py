"""Ensembles of given learners combined by the rules of 003 §6.4.1-§6.4.2: voting
(majority with reject (6.19), plurality (6.20), weighted (6.21); hard or soft votes) and
simple / weighted averaging (6.17)-(6.18)."""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike
from sklearn.base import BaseEstimator, ClassifierMixin, RegressorMixin, clone

from algorithms._validation import (
    InvalidArgumentError,
    check_array_argument,
    check_choice,
    validate_classification,
    validate_features,
    validate_regression,
)
from algorithms.ensembles._base import check_base_estimator, fit_on_codes
from algorithms.ensembles._combination import (
    REJECT,
    TIE_BREAKS,
    class_vote_totals,
    majority_from_totals,
    one_hot_votes,
    pick_plurality,
    simplex_weights,
)

__all__ = ["AveragingRegressor", "VotingClassifier", "member_probabilities"]


def _members(estimators: object) -> list:
    if not isinstance(estimators, list | tuple) or len(estimators) == 0:
        raise InvalidArgumentError(
            f"estimators must be a non-empty list of estimators, got {estimators!r}.")
    return [clone(check_base_estimator(e, "estimators")) for e in estimators]


def member_probabilities(learner: BaseEstimator, X: np.ndarray, n_classes: int) -> np.ndarray:
    """A fitted member's class probabilities (n, K) aligned with the ensemble's codes (a
    member without ``predict_proba`` gives its one-hot predictions)."""
    if not hasattr(learner, "predict_proba"):
        codes = np.asarray(learner.predict(X)).astype(np.int64)
        return (codes[:, None] == np.arange(n_classes)).astype(float)
    out = np.zeros((X.shape[0], n_classes))
    cols = getattr(learner, "classes_", np.arange(n_classes)).astype(np.int64)
    out[:, cols] = learner.predict_proba(X)
    return out


class VotingClassifier(ClassifierMixin, BaseEstimator):
    """Given classifiers combined by voting.

    Parameters
    ----------
    estimators : list of classifiers
        The individual learners ``h_1..h_T`` (cloned and fitted on the data).
    voting : {"hard", "soft"}, default="hard"
        Class-label votes ``h_i^j(x) in {0, 1}`` or class-probability votes
        ``h_i^j(x) = P_i(c_j | x)``.
    weights : array of shape (T,), optional
        Non-negative ``w_i`` of weighted voting (6.21); equal weights otherwise (6.20).
    tie_break : {"first", "random"}, default="first"
        Tie rule of the plurality vote (the notes: random).
    random_state : None, int or Generator, default=None
        Seeds ``tie_break="random"``.

    Attributes
    ----------
    estimators_ : list
        The fitted learners (on class codes).
    weights_ : ndarray of shape (T,)
    """

    def __init__(self, estimators: list, *, voting: str = "hard",
                 weights: ArrayLike | None = None, tie_break: str = "first",
                 random_state: object = None) -> None:
        self.estimators = estimators
        self.voting = voting
        self.weights = weights
        self.tie_break = tie_break
        self.random_state = random_state

    def fit(self, X: ArrayLike, y: ArrayLike) -> VotingClassifier:
        members = _members(self.estimators)
        check_choice(self.voting, "voting", ("hard", "soft"))
        check_choice(self.tie_break, "tie_break", TIE_BREAKS)
        if self.weights is None:
            self.weights_ = np.ones(len(members))
        else:
            self.weights_ = check_array_argument(self.weights, "weights", shape=(len(members),))
            if np.any(self.weights_ < 0):
                raise ValueError("weights must be non-negative.")
        X_arr, codes = validate_classification(self, X, y)
        self.estimators_ = [fit_on_codes(h, X_arr, codes) for h in members]
        return self

    def votes(self, X: ArrayLike) -> np.ndarray:
        """``h_i^j(x)``, shape (T, n, K) (one-hot rows for hard voting)."""
        X_arr = validate_features(self, X, reset=False)
        K = self.classes_.shape[0]
        if self.voting == "hard":
            codes = np.vstack([np.asarray(h.predict(X_arr)).astype(np.int64)
                               for h in self.estimators_])
            return one_hot_votes(codes, K)
        return np.stack([member_probabilities(h, X_arr, K) for h in self.estimators_])

    def vote_counts(self, X: ArrayLike) -> np.ndarray:
        """``sum_i w_i h_i^j(x)``, shape (n, K)."""
        return class_vote_totals(self.votes(X), self.weights_)

    def predict_proba(self, X: ArrayLike) -> np.ndarray:
        """Vote totals normalised per point."""
        totals = self.vote_counts(X)
        return totals / totals.sum(axis=1, keepdims=True)

    def predict(self, X: ArrayLike) -> np.ndarray:
        """(Weighted) plurality vote (6.20)/(6.21)."""
        codes = pick_plurality(self.vote_counts(X), self.tie_break, self.random_state)
        return self.classes_[codes]

    def predict_majority(self, X: ArrayLike) -> tuple[np.ndarray, np.ndarray]:
        """Majority voting with reject (6.19), on the (weighted) vote totals.

        Returns
        -------
        labels : ndarray of shape (n,)
            The majority class; ``classes_[0]`` where rejected (see ``rejected``).
        rejected : bool ndarray of shape (n,)
            No class received more than half of the votes.
        """
        codes = majority_from_totals(self.vote_counts(X))
        rejected = codes == REJECT
        return self.classes_[np.where(rejected, 0, codes)], rejected


class AveragingRegressor(RegressorMixin, BaseEstimator):
    """Given regressors combined by simple (6.17) or weighted (6.18) averaging.

    Parameters
    ----------
    estimators : list of regressors
    weights : array of shape (T,), optional
        On the simplex (``w_i >= 0``, ``sum w_i = 1``, the book's constraint); simple
        averaging ``w_i = 1/T`` when omitted.

    Attributes
    ----------
    estimators_ : list
    weights_ : ndarray of shape (T,)
    """

    def __init__(self, estimators: list, *, weights: ArrayLike | None = None) -> None:
        self.estimators = estimators
        self.weights = weights

    def fit(self, X: ArrayLike, y: ArrayLike) -> AveragingRegressor:
        members = _members(self.estimators)
        T = len(members)
        self.weights_ = (np.full(T, 1.0 / T) if self.weights is None
                         else simplex_weights(self.weights, T))
        X_arr, y_arr = validate_regression(self, X, y)
        self.estimators_ = [h.fit(X_arr, y_arr) for h in members]
        return self

    def member_predictions(self, X: ArrayLike) -> np.ndarray:
        """``h_i(x)``, shape (T, n)."""
        X_arr = validate_features(self, X, reset=False)
        return np.vstack([np.asarray(h.predict(X_arr), dtype=float) for h in self.estimators_])

    def predict(self, X: ArrayLike) -> np.ndarray:
        """``H(x) = sum_i w_i h_i(x)``."""
        outputs = self.member_predictions(X)
        return self.weights_ @ outputs
