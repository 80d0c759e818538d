"""AdaBoost exactly as the notes' pseudo-code (003 §6.2, Fig 8.3; (6.4)-(6.16)).

With labels ``f(x) in {-1, +1}`` and a base learning algorithm ``L``::

    1: D_1(x) = 1/m
    2: for t = 1, ..., T:
    3:     h_t = L(D, D_t)
    4:     eps_t = P_{x ~ D_t}(h_t(x) != f(x))
    5:     if eps_t > 0.5: break
    6:     alpha_t = 1/2 ln((1 - eps_t) / eps_t)
    7:     D_{t+1}(x) = D_t(x) exp(-alpha_t f(x) h_t(x)) / Z_t
    output H(x) = sign(sum_t alpha_t h_t(x))

``L(D, D_t)`` is realised by *re-weighting* (the learner is fitted with
``sample_weight = D_t``; it must accept weights) or by *re-sampling* (the learner is
fitted on ``m`` examples drawn from ``D_t``). Only re-sampling can *restart*: a learner
failing the check of line 5 is discarded and another is trained on a fresh draw from
``D_t`` (003 §6.2, last paragraphs), up to ``max_restarts`` times in a row.
"""

from __future__ import annotations

import math
import warnings

import numpy as np
from numpy.typing import ArrayLike
from sklearn.base import BaseEstimator, ClassifierMixin

from algorithms._validation import (
    check_choice,
    check_int,
    check_sample_weight,
    make_rng,
    validate_classification,
    validate_features,
)
from algorithms.ensembles._base import (
    accepts_sample_weight,
    check_base_estimator,
    check_n_estimators,
    default_stump,
    fit_on_codes,
    seeded_clone,
)

__all__ = ["STOP_REASONS", "AdaBoostClassifier", "EnsembleWarning"]

#: Why a fit ended: all ``n_estimators`` rounds ran; line 5 broke the loop
#: (``eps_t > 1/2``); the learner was perfect on D_t (``eps_t = 0``, see
#: :class:`AdaBoostClassifier`); re-sampling failed ``max_restarts + 1`` times in a row.
STOP_REASONS = ("n_estimators", "error_above_half", "zero_error", "restarts_exhausted")


class EnsembleWarning(UserWarning):
    """An ensemble ended up empty or degenerate (e.g. AdaBoost's first learner failed)."""


class AdaBoostClassifier(ClassifierMixin, BaseEstimator):
    """Binary AdaBoost of Fig 8.3 by re-weighting or re-sampling.

    Parameters
    ----------
    estimator : classifier, default=None
        The base learning algorithm ``L``; ``None`` means a decision stump
        (``algorithms.trees.DecisionTreeClassifier(max_depth=1)``). It is cloned every
        round (its ``random_state``, if any, drawn from ``random_state``).
    n_estimators : int, default=50
        ``T``, the number of rounds (>= 1).
    mode : {"reweight", "resample"}, default="reweight"
        How ``h_t = L(D, D_t)`` sees the distribution: ``fit(X, f, sample_weight=D_t)``
        (the learner must accept ``sample_weight``, else ``ValueError``) or ``fit`` on
        ``m`` examples drawn with replacement with probabilities ``D_t``.
    max_restarts : int, default=10
        Re-sampling only: consecutive discarded learners (``eps_t > 1/2``) tolerated in
        one round before the loop stops. (A draw holding one class gives the constant
        learner of that class, which is kept if its ``eps_t <= 1/2``.)
    random_state : None, int or Generator, default=None

    Attributes
    ----------
    classes_ : ndarray of shape (2,)
        ``classes_[1]`` is ``f = +1``.
    estimators_ : list
        The accepted ``h_t``, fitted on ``f in {-1, +1}``.
    errors_ : ndarray of shape (n_rounds,)
        ``eps_t`` of line 4.
    alphas_ : ndarray of shape (n_rounds,)
        ``alpha_t`` of line 6 (see Notes for ``eps_t = 0``).
    normalisers_ : ndarray of shape (n_rounds,)
        ``Z_t = sum_x D_t(x) exp(-alpha_t f(x) h_t(x))``, the normaliser of line 7.
    distributions_ : ndarray of shape (n_rounds + 1, m)
        ``D_1, ..., D_{n_rounds+1}`` as the loop computed them.
    train_predictions_ : ndarray of shape (n_rounds, m)
        ``h_t(x_i)`` in {-1, +1} on the training points, as used by lines 4 and 7.
    sample_indices_ : list of ndarray
        Re-sampling only: the draw each accepted ``h_t`` was trained on.
    rejected_errors_ : list of float
        ``eps`` of every discarded learner, in order.
    n_restarts_ : int
        Discarded learners that were followed by a restart (re-sampling).
    stop_reason_ : str
        One of :data:`STOP_REASONS`.
    n_features_in_ : int

    Notes
    -----
    ``eps_t = 0`` (``h_t`` has no weighted error) makes line 6 infinite: in the limit
    ``alpha_t -> oo`` the ensemble is ``h_t`` alone. The loop records
    ``alpha_t = 1 + sum_{s<t} alpha_s``, a finite weight larger than all earlier ones
    together, so ``sign(H)`` equals ``h_t`` everywhere as in the limit, and stops with
    ``stop_reason_ = "zero_error"`` (further rounds would see ``D_{t+1} = D_t``).
    ``eps_t = 1/2`` exactly passes line 5 with ``alpha_t = 0``. ``H(x) = 0`` (no
    learner, or cancelling votes) predicts ``classes_[0]``.

    References
    ----------
    003 §6.2, Fig 8.3 and (6.4)-(6.16).
    """

    def __init__(self, estimator: object = None, *, n_estimators: int = 50,
                 mode: str = "reweight", max_restarts: int = 10,
                 random_state: object = None) -> None:
        self.estimator = estimator
        self.n_estimators = n_estimators
        self.mode = mode
        self.max_restarts = max_restarts
        self.random_state = random_state

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.classifier_tags.multi_class = False
        return tags

    def _base(self) -> BaseEstimator:
        base = check_base_estimator(self.estimator, "estimator", default_stump)
        if self.mode == "reweight" and not accepts_sample_weight(base):
            raise ValueError(
                f"estimator {type(base).__name__} does not accept sample_weight, which "
                "re-weighting (mode='reweight') passes as D_t; use mode='resample'."
            )
        return base

    def fit(self, X: ArrayLike, y: ArrayLike, sample_weight: ArrayLike | None = None
            ) -> AdaBoostClassifier:
        """Run Fig 8.3 for at most ``n_estimators`` rounds.

        ``sample_weight`` (non-negative, positive sum) replaces the uniform ``D_1`` by
        ``sample_weight / sum(sample_weight)``.
        """
        T = check_n_estimators(self.n_estimators)
        check_choice(self.mode, "mode", ("reweight", "resample"))
        max_restarts = check_int(self.max_restarts, "max_restarts", low=0)
        rng = make_rng(self.random_state)
        X_arr, codes = validate_classification(
            self, X, y, max_classes=2, what="the notes' AdaBoost is binary, f(x) in {-1, +1}"
        )
        base = self._base()
        w = check_sample_weight(sample_weight, X_arr)  # non-negative, not all zero
        f = 2 * codes - 1
        m = f.shape[0]
        D = w / w.sum()
        self.estimators_, self.sample_indices_, self.rejected_errors_ = [], [], []
        alphas, errors, normalisers, dists, preds = [], [], [], [D], []
        self.n_restarts_ = 0
        self.stop_reason_ = "n_estimators"
        for _t in range(T):
            outcome = self._one_round(base, X_arr, f, D, rng, max_restarts)
            if isinstance(outcome, str):
                self.stop_reason_ = outcome
                break
            h, pred, eps, idx = outcome
            if eps == 0.0:
                alpha = 1.0 + float(np.sum(alphas))
            else:
                alpha = 0.5 * math.log((1.0 - eps) / eps)
            unnormalised = D * np.exp(-alpha * f * pred)
            Z = float(unnormalised.sum())
            D = unnormalised / Z
            self.estimators_.append(h)
            if idx is not None:
                self.sample_indices_.append(idx)
            alphas.append(alpha)
            errors.append(eps)
            normalisers.append(Z)
            dists.append(D)
            preds.append(pred)
            if eps == 0.0:
                self.stop_reason_ = "zero_error"
                break
        self.alphas_ = np.asarray(alphas, dtype=float)
        self.errors_ = np.asarray(errors, dtype=float)
        self.normalisers_ = np.asarray(normalisers, dtype=float)
        self.distributions_ = np.vstack(dists)
        self.train_predictions_ = np.asarray(preds, dtype=np.int64).reshape(len(preds), m)
        if not self.estimators_:
            warnings.warn(
                "AdaBoost stopped before accepting any learner (the first eps_t exceeded "
                "1/2): the ensemble is empty and predicts classes_[0].",
                EnsembleWarning, stacklevel=2,
            )
        return self

    def _one_round(self, base, X, f, D, rng, max_restarts):
        """Lines 3-5 (with restarts when re-sampling): ``(h, predictions, eps, draw)`` or
        the stop reason."""
        m = f.shape[0]
        attempts = 0
        while True:
            h = seeded_clone(base, rng)
            if self.mode == "reweight":
                idx = None
                h = fit_on_codes(h, X, f, sample_weight=D)
            else:
                idx = rng.choice(m, size=m, p=D / D.sum())
                h = fit_on_codes(h, X[idx], f[idx])
            pred = np.asarray(h.predict(X)).astype(np.int64)
            if not np.all((pred == 1) | (pred == -1)):
                raise ValueError("estimator must predict the labels it was fitted on (-1/+1).")
            eps = float(np.sum(D[pred != f]))
            if eps <= 0.5:
                return h, pred, eps, idx
            self.rejected_errors_.append(eps)
            if self.mode == "reweight":
                return "error_above_half"
            if attempts >= max_restarts:
                return "restarts_exhausted"
            attempts += 1
            self.n_restarts_ += 1

    def decision_function(self, X: ArrayLike) -> np.ndarray:
        """``sum_t alpha_t h_t(x)`` (6.4); positive means ``classes_[1]``."""
        X_arr = validate_features(self, X, reset=False)
        out = np.zeros(X_arr.shape[0])
        for alpha, h in zip(self.alphas_, self.estimators_, strict=True):
            out += alpha * np.asarray(h.predict(X_arr), dtype=float)
        return out

    def predict(self, X: ArrayLike) -> np.ndarray:
        """``H(x) = sign(sum_t alpha_t h_t(x))``; ``H = 0`` gives ``classes_[0]``."""
        positive = self.decision_function(X) > 0
        return self.classes_[positive.astype(int)]
