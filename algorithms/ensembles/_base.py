"""What the ensemble estimators share: checking and cloning base learners, fitting them
on class codes, and counting their votes.

Base learners are fitted on class *codes* ``0..K-1`` (or on ``f(x) in {-1, +1}`` for
AdaBoost), so their predictions index the ensemble's ``classes_`` directly. A learner
asked to fit a sample that holds a single class (a bootstrap or re-sampled draw of a
tiny data set) is replaced by the constant classifier of that class: it is what any
learner returns on such a sample, and many learners (ours included) refuse one class.
"""

from __future__ import annotations

import numpy as np
from sklearn.base import BaseEstimator, clone
from sklearn.utils.validation import has_fit_parameter

from algorithms._validation import InvalidArgumentError, check_int, validate_features

#: The most members an ensemble accepts: each is a fitted learner kept in memory, and
#: bagging keeps a (T, N) table of in-bag counts; 1e5 members already take hours to fit.
#: A larger request is an error, not a run that never ends.
MAX_ESTIMATORS = 100_000


def check_n_estimators(value: object) -> int:
    """``n_estimators`` as an int in ``[1, MAX_ESTIMATORS]``."""
    return check_int(value, "n_estimators", low=1, high=MAX_ESTIMATORS)

__all__ = [
    "SingleClassLearner",
    "MAX_ESTIMATORS",
    "accepts_sample_weight",
    "check_base_estimator",
    "check_n_estimators",
    "default_stump",
    "default_tree",
    "fit_on_codes",
    "predict_codes",
    "seeded_clone",
    "vote_totals",
]


def default_stump() -> BaseEstimator:
    """A decision stump: the trees family's CART ``DecisionTreeClassifier(max_depth=1)``
    (Gini criterion, as scikit-learn's AdaBoost stump)."""
    from algorithms.trees import DecisionTreeClassifier

    return DecisionTreeClassifier(criterion="gini", max_depth=1)


def default_tree() -> BaseEstimator:
    """A fully grown (unpruned) ``DecisionTreeClassifier`` of the trees family."""
    from algorithms.trees import DecisionTreeClassifier

    return DecisionTreeClassifier()


def check_base_estimator(estimator: object, name: str, default=None) -> BaseEstimator:
    """``estimator`` (or ``default()`` when it is None), which must have fit and predict.

    Without a ``default`` the argument is required.
    """
    if estimator is None:
        if default is None:
            raise ValueError(f"{name} must be given: this ensemble has no default learner.")
        return default()
    if not (callable(getattr(estimator, "fit", None))
            and callable(getattr(estimator, "predict", None))):
        raise InvalidArgumentError(
            f"{name} must be an estimator with fit and predict methods, got {estimator!r}."
        )
    return estimator


def accepts_sample_weight(estimator: BaseEstimator) -> bool:
    """Whether ``estimator.fit`` takes a ``sample_weight`` argument."""
    return has_fit_parameter(estimator, "sample_weight")


def seeded_clone(estimator: BaseEstimator, rng: np.random.Generator) -> BaseEstimator:
    """An unfitted clone whose ``random_state`` (if it has one) is drawn from ``rng``, so the
    members of an ensemble are reproducible and different."""
    est = clone(estimator)
    if "random_state" in est.get_params(deep=False):
        est.set_params(random_state=int(rng.integers(np.iinfo(np.int32).max)))
    return est


class SingleClassLearner(BaseEstimator):
    """The classifier fitted to a sample holding one class: it predicts that class."""

    def __init__(self, label: int = 0) -> None:
        self.label = label

    def fit(self, X: object, y: object = None, sample_weight: object = None
            ) -> SingleClassLearner:
        validate_features(self, X, reset=True)
        return self

    def predict(self, X: object) -> np.ndarray:
        X_arr = validate_features(self, X, reset=False)
        return np.full(X_arr.shape[0], self.label)


def fit_on_codes(
    estimator: BaseEstimator, X: np.ndarray, labels: np.ndarray,
    sample_weight: np.ndarray | None = None,
) -> BaseEstimator:
    """Fit ``estimator`` (already a fresh clone) on ``(X, labels)``; a one-class sample
    gives a :class:`SingleClassLearner`."""
    present = np.unique(labels)
    if present.shape[0] == 1:
        return SingleClassLearner(label=int(present[0])).fit(X)
    if sample_weight is None:
        return estimator.fit(X, labels)
    return estimator.fit(X, labels, sample_weight=sample_weight)


def predict_codes(learners: list, X: np.ndarray) -> np.ndarray:
    """(T, n) integer predictions of every learner."""
    if not learners:
        return np.empty((0, X.shape[0]), dtype=np.int64)
    return np.vstack([np.asarray(h.predict(X)).astype(np.int64) for h in learners])


def vote_totals(codes: np.ndarray, n_classes: int, weights: np.ndarray | None = None,
                mask: np.ndarray | None = None) -> np.ndarray:
    """``sum_t w_t I(h_t(x) = c_j)`` per point and class, shape (n, K).

    ``mask`` (T, n) keeps only the votes where it is True (the out-of-bag learners).
    """
    T, n = codes.shape
    w = np.ones(T) if weights is None else np.asarray(weights, dtype=float)
    vals = np.broadcast_to(w[:, None], (T, n))
    if mask is not None:
        vals = vals * mask
    flat = (np.arange(n)[None, :] * n_classes + codes).ravel()
    return np.bincount(flat, weights=vals.ravel(), minlength=n * n_classes).reshape(n, n_classes)
