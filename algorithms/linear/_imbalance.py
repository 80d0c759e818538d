"""Class imbalance (003 §1.9): threshold rescaling, random under- and oversampling.

Rescaling: a classifier's output ``y`` estimates ``P(positive | x)``. Trained on
``m+`` positives and ``m-`` negatives, it should call a sample positive when
``y / (1 - y) > m+ / m-`` (003 (1.30)): the observed odds beat the base odds.
Equivalently the odds are rescaled, ``y' / (1 - y') = y / (1 - y) * m- / m+``,
and ``y'`` is thresholded at 1/2. (003 (1.31) prints the rescaling with
``1 + y`` in place of ``1 - y``; that version does not reproduce (1.30).)
"""

from __future__ import annotations

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin, clone

from algorithms._validation import (
    check_array_argument,
    check_real,
    make_rng,
    validate_classification,
    validate_features,
    validate_labelled_sample,
)
from algorithms.linear._multiclass import delegate_tags

__all__ = [
    "ThresholdRescalingClassifier",
    "random_oversample",
    "random_undersample",
    "rescale_probability",
    "rescaled_decision",
]


def _check_counts(m_pos: object, m_neg: object) -> tuple[float, float]:
    return (check_real(m_pos, "m_pos", low=0.0, low_open=True),
            check_real(m_neg, "m_neg", low=0.0, low_open=True))


def _check_probabilities(y: object) -> np.ndarray:
    p = check_array_argument(y, "y", allow_empty=True, finite=False, real=True)
    if not np.all((p >= 0) & (p <= 1)):  # also refuses NaN
        raise ValueError("y must hold probabilities in [0, 1] (no NaN/inf).")
    return p


def rescaled_decision(y: object, m_pos: float, m_neg: float) -> np.ndarray:
    """Decision (1.30): positive iff ``y / (1 - y) > m+ / m-``.

    Evaluated as ``y * m- > (1 - y) * m+`` (the same inequality multiplied by the
    positive ``(1 - y) m-``), so ``y = 1`` (infinite odds) is positive and
    ``y = 0`` negative without dividing by zero.
    """
    p = _check_probabilities(y)
    mp, mn = _check_counts(m_pos, m_neg)
    return p * mn > (1.0 - p) * mp


def rescale_probability(y: object, m_pos: float, m_neg: float) -> np.ndarray:
    """Rescaled probability ``y'`` with ``y'/(1 - y') = y/(1 - y) * m-/m+``.

    Solved for ``y'``: ``y' = y m- / (y m- + (1 - y) m+)``, which lies in [0, 1]
    and exceeds 1/2 exactly when (1.30) says positive.
    """
    p = _check_probabilities(y)
    mp, mn = _check_counts(m_pos, m_neg)
    a, b = p * mn, (1.0 - p) * mp
    return a / (a + b)  # a + b > 0: a = 0 forces p = 0, then b = m+ > 0


class ThresholdRescalingClassifier(ClassifierMixin, BaseEstimator):
    """Binary classifier that moves the threshold of a probabilistic one (003 §1.9).

    Parameters
    ----------
    estimator : classifier with ``predict_proba`` (cloned and fitted on the data)
    pos_label : label or None
        The positive class; ``None`` means ``classes_[1]``.
    class_ratio : float > 0 or None
        ``m+ / m-`` to rescale by; ``None`` uses the training counts (the note's
        assumption that the training set's class ratio estimates the true one).

    Attributes
    ----------
    estimator_ : the fitted clone
    classes_ : ndarray (2,)
    m_pos_, m_neg_ : int, training counts of positives and negatives
    ratio_ : float, the ``m+ / m-`` used

    Notes
    -----
    Predict positive iff ``y / (1 - y) > ratio_`` with ``y`` the estimator's
    probability of the positive class (003 (1.30)); ``predict_proba`` returns the
    rescaled ``y'`` of the odds form of (1.31). With ``y`` the posterior under the
    training class proportions, this is the Bayes rule for equal priors.
    """

    def __init__(
        self, estimator: object = None, *, pos_label: object = None, class_ratio: object = None
    ) -> None:
        self.estimator = estimator
        self.pos_label = pos_label
        self.class_ratio = class_ratio

    def __sklearn_tags__(self):
        tags = delegate_tags(super().__sklearn_tags__(), self.estimator)
        tags.classifier_tags.multi_class = False  # (1.30) compares a positive and a negative class
        return tags

    def fit(self, X: object, y: object) -> ThresholdRescalingClassifier:
        """Fit a clone of ``estimator`` and record the class counts.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        y : array-like of shape (n_samples,)
            Labels of two classes, one of them ``pos_label``; their counts give
            ``m_pos_`` and ``m_neg_``.

        Returns
        -------
        self
        """
        if self.estimator is None or not hasattr(self.estimator, "predict_proba"):
            raise ValueError(
                f"estimator must be a classifier with predict_proba, got {self.estimator!r}."
            )
        X_arr, codes = validate_classification(
            self, X, y, max_classes=2,
            what="threshold rescaling (003 §1.9) moves the threshold between two classes",
        )
        classes = self.classes_
        y_arr = classes[codes]
        if self.pos_label is None:
            pos = classes[1]
        elif self.pos_label in classes.tolist():
            pos = self.pos_label
        else:
            raise ValueError(f"pos_label {self.pos_label!r} is not one of the classes {classes}.")
        is_pos = y_arr == pos
        self.m_pos_, self.m_neg_ = int(is_pos.sum()), int((~is_pos).sum())
        if self.class_ratio is None:
            self._odds_pair = (float(self.m_pos_), float(self.m_neg_))
        else:
            self._odds_pair = (check_real(self.class_ratio, "class_ratio", low=0.0,
                                          low_open=True), 1.0)
        self.ratio_ = self._odds_pair[0] / self._odds_pair[1]
        self.pos_label_ = pos
        self.neg_label_ = classes[0] if pos == classes[1] else classes[1]
        self.estimator_ = clone(self.estimator).fit(X_arr, y_arr)
        return self

    def _positive_probability(self, X: object) -> np.ndarray:
        X_arr = validate_features(self, X, reset=False)
        P = np.asarray(self.estimator_.predict_proba(X_arr), dtype=float)
        col = list(self.estimator_.classes_).index(self.pos_label_)
        return np.clip(P[:, col], 0.0, 1.0)

    def predict_proba(self, X: object) -> np.ndarray:
        """Rescaled probabilities, columns in the order of ``classes_``."""
        yp = rescale_probability(self._positive_probability(X), *self._odds_pair)
        cols = [yp, 1.0 - yp] if self.pos_label_ == self.classes_[0] else [1.0 - yp, yp]
        return np.column_stack(cols)

    def predict(self, X: object) -> np.ndarray:
        """``pos_label_`` iff ``y / (1 - y) > ratio_`` (003 (1.30))."""
        positive = rescaled_decision(self._positive_probability(X), *self._odds_pair)
        return np.where(positive, self.pos_label_, self.neg_label_)


def _class_layout(y: object, X: object) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    X_arr, y_arr, classes, idx = validate_labelled_sample(X, y, min_classes=1)
    return X_arr, y_arr, idx, np.bincount(idx, minlength=classes.size)


def random_undersample(
    X: object, y: object, *, random_state: object = None
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Drop random samples of the larger classes until every class has the smallest count.

    Returns
    -------
    X_res, y_res : the kept samples, in their original order
    indices : ndarray of int, the kept rows of ``X`` (no repeats)
    """
    X_arr, y_arr, idx, counts = _class_layout(y, X)
    rng = make_rng(random_state)
    target = counts.min()
    order = np.lexsort((rng.random(idx.size), idx))  # by class, random within class
    starts = np.concatenate([[0], np.cumsum(counts)[:-1]])
    rank = np.arange(idx.size) - starts[idx[order]]
    kept = np.sort(order[rank < target])
    return X_arr[kept], y_arr[kept], kept


def random_oversample(
    X: object, y: object, *, random_state: object = None
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Replicate random samples of the smaller classes until every class has the largest count.

    Draws are uniform with replacement within each class (plain replication; the
    note warns it may overfit).

    Returns
    -------
    X_res, y_res : all original samples followed by the replicas
    indices : ndarray of int, rows of ``X`` (the first N are ``0 .. N-1``)
    """
    X_arr, y_arr, idx, counts = _class_layout(y, X)
    rng = make_rng(random_state)
    extra = counts.max() - counts
    cls = np.repeat(np.arange(counts.size), extra)
    pos = np.floor(rng.random(cls.size) * counts[cls]).astype(np.int64)
    members = np.argsort(idx, kind="stable")
    starts = np.concatenate([[0], np.cumsum(counts)[:-1]])
    chosen = np.concatenate([np.arange(idx.size), members[starts[cls] + pos]])
    return X_arr[chosen], y_arr[chosen], chosen
