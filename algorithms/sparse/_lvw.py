"""The Las Vegas Wrapper (003 §10.3, Fig. 11.1): wrapper feature selection by random
subsets scored with the cross-validated error of the final learner."""

from __future__ import annotations

import warnings

import numpy as np
from sklearn.base import clone
from sklearn.exceptions import ConvergenceWarning
from sklearn.model_selection import StratifiedKFold
from sklearn.tree import DecisionTreeClassifier

from algorithms._validation import (
    InvalidArgumentError,
    check_int,
    make_rng,
    validate_classification,
)
from algorithms.sparse._selector import SupervisedSelector

__all__ = ["LVW"]


def cross_validation_error(estimator, X: np.ndarray, y: np.ndarray, folds) -> float:
    """Pooled misclassification rate over fixed folds: each sample is predicted once by
    the learner fitted on the other folds; errors / m (a multiple of 1/m, so equal
    errors compare exactly)."""
    wrong = 0
    for train, test in folds:
        model = clone(estimator).fit(X[train], y[train])
        wrong += int(np.sum(model.predict(X[test]) != y[test]))
    return wrong / X.shape[0]


class LVW(SupervisedSelector):
    """Las Vegas Wrapper feature selection (003 §10.3, Fig. 11.1).

    Parameters
    ----------
    estimator : scikit-learn classifier, optional
        The learner whose cross-validated error scores a subset (default
        ``DecisionTreeClassifier(random_state=0)``).
    patience : int >= 1, default=20
        The notes' T: stop after this many consecutive rejected subsets.
    cv : int >= 2, default=5
        Number of stratified folds, drawn once per fit from ``random_state`` and used for
        every subset, so that errors of different subsets are comparable.
    max_iter : int >= 1, default=1000
        Safety cap on the number of subsets drawn; reaching it before ``patience``
        consecutive rejections warns (``ConvergenceWarning``, ``converged_ = False``).
    random_state : None, int or Generator

    Attributes
    ----------
    support_ : ndarray of bool (n_features,)
        The selected subset A*.
    error_ : float
        Its cross-validated error E.
    n_iter_ : int
        Subsets drawn.
    candidate_subsets_ : list of tuple of int
        The subset A' drawn in each iteration.
    candidate_errors_ : ndarray (n_iter_,)
        Its cross-validated error E'.
    accepted_ : ndarray of bool (n_iter_,)
        Whether it replaced A*.
    trace_ : ndarray (n_iter_, 2)
        The stored pair (E, d) after each iteration.
    n_evaluations_ : int
        Distinct subsets evaluated (a redrawn subset reuses its cached error).
    converged_ : bool
    folds_ : list of (train, test) index arrays

    Notes
    -----
    Each iteration draws A' uniformly among the non-empty subsets of the features (each
    feature in with probability 1/2, redrawn if empty), computes E' by cross-validation
    of the learner on the columns A', and accepts A' when ``E' < E`` or (``E' = E`` and
    ``|A'| < d``), resetting the rejection counter t to 0; otherwise ``t += 1``. It stops
    when ``t = patience``. The initial state is ``E = inf``, ``d = |A|``, ``A* = A``.

    References
    ----------
    003 §10.3 Fig. 11.1; Liu and Setiono, "Feature selection and classification: a
    probabilistic wrapper approach", 1996.
    """

    def __init__(self, *, estimator=None, patience=20, cv=5, max_iter=1000,
                 random_state=None):
        self.estimator = estimator
        self.patience = patience
        self.cv = cv
        self.max_iter = max_iter
        self.random_state = random_state

    def fit(self, X, y):
        X_arr, codes = validate_classification(self, X, y)
        patience = check_int(self.patience, "patience", low=1)
        n_folds = check_int(self.cv, "cv", low=2)
        max_iter = check_int(self.max_iter, "max_iter", low=1, high=10**7)
        learner = DecisionTreeClassifier(random_state=0) if self.estimator is None \
            else self.estimator
        if not (hasattr(learner, "fit") and hasattr(learner, "predict")):
            raise InvalidArgumentError(f"estimator must be a scikit-learn classifier, got "
                                       f"{learner!r}.")
        smallest = int(np.bincount(codes).min())
        if smallest < n_folds:
            raise ValueError(f"cv = {n_folds} folds need at least {n_folds} samples of every "
                             f"class of y; the smallest class has {smallest}.")
        rng = make_rng(self.random_state)
        splitter = StratifiedKFold(n_folds, shuffle=True,
                                   random_state=int(rng.integers(2**31 - 1)))
        folds = list(splitter.split(X_arr, codes))
        n_features = X_arr.shape[1]

        cache: dict[tuple[int, ...], float] = {}
        best_error, best_size = np.inf, n_features
        best = tuple(range(n_features))
        t = 0
        subsets, errors, accepted, trace = [], [], [], []
        while t < patience and len(subsets) < max_iter:
            mask = rng.random(n_features) < 0.5
            while not mask.any():
                mask = rng.random(n_features) < 0.5
            subset = tuple(int(j) for j in np.flatnonzero(mask))
            if subset not in cache:
                cache[subset] = cross_validation_error(learner, X_arr[:, subset], codes,
                                                       folds)
            error, size = cache[subset], len(subset)
            take = error < best_error or (error == best_error and size < best_size)
            if take:
                t, best_error, best_size, best = 0, error, size, subset
            else:
                t += 1
            subsets.append(subset)
            errors.append(error)
            accepted.append(take)
            trace.append((best_error, best_size))

        self.converged_ = t >= patience
        if not self.converged_:
            warnings.warn(f"LVW drew max_iter = {max_iter} subsets without {patience} "
                          f"consecutive rejections; the best subset so far is kept.",
                          ConvergenceWarning, stacklevel=2)
        self.support_ = np.zeros(n_features, dtype=bool)
        self.support_[list(best)] = True
        self.error_ = float(best_error)
        self.n_iter_ = len(subsets)
        self.candidate_subsets_ = subsets
        self.candidate_errors_ = np.asarray(errors)
        self.accepted_ = np.asarray(accepted)
        self.trace_ = np.asarray(trace, dtype=float).reshape(-1, 2)
        self.n_evaluations_ = len(cache)
        self.folds_ = folds
        return self
