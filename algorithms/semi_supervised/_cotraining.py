"""Co-training, 003 §11.5 Fig. 13.6 (Blum & Mitchell 1998).

Each sample has two views (two disjoint sets of columns). Two learners, one per view,
teach each other: in every round each learner labels the samples of a buffer pool
``D_s`` it is most confident about (``p`` positives, ``n`` negatives), those samples
leave the pool, and their *other* view joins the other learner's training set with the
pseudo-label. The pool is refilled from ``D_u`` with ``2p + 2n`` samples. The loop stops
after ``T`` rounds, or when neither learner changed (the notes' step 14; "changed" is
read as: some prediction of the learner on the training samples changed).

Every round is recorded (``rounds_``): which samples each learner picked, with which
pseudo-labels, and the pool before and after, so claims replay the procedure.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from numpy.typing import ArrayLike
from sklearn.base import BaseEstimator, ClassifierMixin, clone

from algorithms._validation import (
    UNLABELLED,
    check_array_argument,
    check_int,
    make_rng,
    validate_features,
    validate_semi_supervised,
)
from algorithms.bayes import NaiveBayesClassifier

__all__ = ["CoTraining", "CoTrainingRound"]


@dataclass
class CoTrainingRound:
    """One round of Fig. 13.6 (steps 7-21).

    Attributes
    ----------
    pool : ndarray
        Sample indices in ``D_s`` at the start of the round.
    picked : list of (ndarray, ndarray)
        For view j = 0, 1: the indices it labelled (positives first) and their labels
        (+1 -> ``classes_[1]``, -1 -> ``classes_[0]``, as codes 1 / 0).
    changed : bool
        Whether either learner's predictions changed since the previous round.
    refill : ndarray
        Indices moved from ``D_u`` into the pool at the end of the round.
    """

    pool: np.ndarray
    picked: list[tuple[np.ndarray, np.ndarray]] = field(default_factory=list)
    changed: bool = True
    refill: np.ndarray = field(default_factory=lambda: np.empty(0, dtype=np.intp))


def _confidence(h, X: np.ndarray) -> np.ndarray:
    """Confidence that each row is positive: P(classes_[1] | x) or the decision value."""
    if hasattr(h, "predict_proba"):
        return h.predict_proba(X)[:, 1]
    if hasattr(h, "decision_function"):
        return np.asarray(h.decision_function(X), dtype=float).ravel()
    raise ValueError("estimator must have predict_proba or decision_function (co-training "
                     "ranks the pool by the learner's confidence).")


class CoTraining(ClassifierMixin, BaseEstimator):
    """Co-training of two learners on two views, 003 §11.5 Fig. 13.6 (binary).

    Parameters
    ----------
    estimator : classifier or None, default=None
        The base learner ``L`` (cloned per view), with ``predict_proba`` or
        ``decision_function``; None takes the bayes family's Gaussian
        ``NaiveBayesClassifier``.
    view : array-like of int
        Column indices of the first view; the other columns form the second.
    pool_size : int, default=20
        ``s``, the size of the buffer pool.
    n_positive, n_negative : int, default=1
        ``p`` and ``n``, samples each learner labels per round (Blum & Mitchell took
        1 and 3 to match their classes' 1:3 ratio; keep ``p : n`` near the class ratio).
    n_rounds : int, default=30
        ``T``.
    random_state : None, int or Generator

    Attributes
    ----------
    classes_ : ndarray
    estimators_ : list of two fitted classifiers (``h_1``, ``h_2``)
    rounds_ : list of CoTrainingRound
    pseudo_labels_ : list of two dicts {sample index: code}
        The pseudo-labelled samples each view was trained on at the end.
    n_iter_ : int
        Rounds run.
    """

    def __init__(self, estimator: object = None, *, view: ArrayLike | None = None,
                 pool_size: int = 20, n_positive: int = 1, n_negative: int = 1,
                 n_rounds: int = 30, random_state: object = None) -> None:
        self.estimator = estimator
        self.view = view
        self.pool_size = pool_size
        self.n_positive = n_positive
        self.n_negative = n_negative
        self.n_rounds = n_rounds
        self.random_state = random_state

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.classifier_tags.multi_class = False
        return tags

    def _views(self, d: int) -> tuple[np.ndarray, np.ndarray]:
        if self.view is None:
            first = np.arange(d // 2 if d > 1 else 1)
        else:
            first = check_array_argument(self.view, "view", ndim=1, dtype=None)
            if first.dtype.kind not in "iu" or first.size == 0:
                raise ValueError("view must be a non-empty 1-d array of column indices.")
            if np.any((first < 0) | (first >= d)) or np.unique(first).size != first.size:
                raise ValueError(f"view must hold distinct column indices in [0, {d - 1}].")
        second = np.setdiff1d(np.arange(d), first)
        if second.size == 0:
            second = first          # one column: both views see it (no second view)
        return np.sort(first), second

    def _base(self):
        if self.estimator is None:
            return NaiveBayesClassifier()
        if not (hasattr(self.estimator, "fit") and hasattr(self.estimator, "get_params")):
            raise ValueError(f"estimator must be a scikit-learn classifier, got "
                             f"{self.estimator!r}.")
        return self.estimator

    def fit(self, X: ArrayLike, y: ArrayLike) -> CoTraining:
        """Co-train on ``(X, y)``; ``-1`` in ``y`` marks the unlabelled samples."""
        X, codes = validate_semi_supervised(
            self, X, y, max_classes=2, what="co-training of Fig. 13.6 picks positives and "
            "negatives")
        base = self._base()
        s = check_int(self.pool_size, "pool_size", low=1)
        p = check_int(self.n_positive, "n_positive", low=0)
        n = check_int(self.n_negative, "n_negative", low=0)
        T = check_int(self.n_rounds, "n_rounds", low=0)
        rng = make_rng(self.random_state)
        views = self._views(X.shape[1])
        labelled = np.flatnonzero(codes != UNLABELLED)
        unl = rng.permutation(np.flatnonzero(codes == UNLABELLED))
        pool, unl = unl[:s], unl[s:]                                          # steps 1-2
        train = [dict(zip(labelled.tolist(), codes[labelled].tolist(), strict=True))
                 for _ in range(2)]                                           # steps 3-5
        rounds, previous = [], None
        models = [None, None]
        for _ in range(T):                                                    # step 6
            record = CoTrainingRound(pool.copy())
            fresh = [{}, {}]
            for j in range(2):                                                # step 7
                rows = np.fromiter(train[j].keys(), dtype=np.intp)
                labels = np.fromiter(train[j].values(), dtype=np.intp)
                models[j] = clone(base).fit(X[np.ix_(rows, views[j])],
                                            self.classes_[labels])            # step 8
                if pool.size == 0:
                    record.picked.append((np.empty(0, np.intp), np.empty(0, np.intp)))
                    continue
                conf = _confidence(models[j], X[np.ix_(pool, views[j])])      # step 9
                order = np.argsort(-conf, kind="stable")
                pos = pool[order[:p]]
                rest = order[p:]
                neg = pool[rest[np.argsort(conf[rest], kind="stable")][:n]]
                picked = np.r_[pos, neg]
                pseudo = np.r_[np.ones(pos.size, np.intp), np.zeros(neg.size, np.intp)]
                record.picked.append((picked, pseudo))
                fresh[1 - j].update(zip(picked.tolist(), pseudo.tolist(), strict=True))
                pool = pool[~np.isin(pool, picked)]                           # step 12
            preds = np.concatenate([models[j].predict(X[:, views[j]]) == self.classes_[1]
                                    for j in range(2)])
            record.changed = previous is None or not np.array_equal(preds, previous)
            previous = preds
            rounds.append(record)
            if not record.changed:                                            # step 14
                break
            for j in range(2):                                                # 17-19
                train[j].update(fresh[j])
            refill, unl = unl[:2 * p + 2 * n], unl[2 * p + 2 * n:]            # step 20
            record.refill = refill
            pool = np.r_[pool, refill]
        if models[0] is None:                 # T = 0: the learners of the labelled data
            for j in range(2):
                rows = np.fromiter(train[j].keys(), dtype=np.intp)
                labels = np.fromiter(train[j].values(), dtype=np.intp)
                models[j] = clone(base).fit(X[np.ix_(rows, views[j])], self.classes_[labels])
        self.estimators_ = models
        self.views_ = views
        self.rounds_ = rounds
        self.pseudo_labels_ = [{k: v for k, v in t.items() if codes[k] == UNLABELLED}
                               for t in train]
        self.n_iter_ = len(rounds)
        return self

    def predict_proba(self, X: ArrayLike) -> np.ndarray:
        """The two learners' probabilities averaged (each on its own view)."""
        X = validate_features(self, X, reset=False)
        probs = [h.predict_proba(X[:, v]) if hasattr(h, "predict_proba") else None
                 for h, v in zip(self.estimators_, self.views_, strict=True)]
        if any(pr is None for pr in probs):
            raise ValueError("the base estimator has no predict_proba.")
        return 0.5 * (probs[0] + probs[1])

    def predict(self, X: ArrayLike) -> np.ndarray:
        """The class of the larger averaged probability (or summed decision value)."""
        X = validate_features(self, X, reset=False)
        if all(hasattr(h, "predict_proba") for h in self.estimators_):
            proba = self.predict_proba(X)
            return self.classes_[(proba[:, 1] > proba[:, 0]).astype(int)]
        f = sum(_confidence(h, X[:, v]) for h, v in zip(self.estimators_, self.views_,
                                                        strict=True))
        return self.classes_[(f > 0).astype(int)]
