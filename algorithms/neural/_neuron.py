"""The M-P neuron of 003 §3.1 (3.1) and the threshold-unit perceptron rule of §3.2 (3.2).

A neuron with weights ``w`` and threshold ``theta`` outputs ``y = f(sum_i w_i x_i -
theta)``. Written with the threshold as one more weight ``w_{d+1} = theta`` on a fixed
input ``x_{d+1} = -1``, the neuron is ``f(w_aug . x_aug)``: this is how the perceptron
rule learns the threshold together with the weights,

    w_i <- w_i + eta (y - y_hat) x_i,      i = 1..d+1,  x_{d+1} = -1,

with ``y, y_hat`` in {0, 1} and ``eta`` in (0, 1): nothing changes when ``y_hat = y``.
"""

from __future__ import annotations

import warnings

import numpy as np
from numpy.typing import ArrayLike
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.exceptions import ConvergenceWarning

from algorithms._validation import (
    check_array_argument,
    check_bool,
    check_choice,
    check_int,
    check_real,
    check_squares_representable,
    make_rng,
    validate_classification,
    validate_features,
)
from algorithms.neural._activations import ACTIVATIONS
from algorithms.neural._activations import _sigmoid as sigmoid
from algorithms.neural._activations import _step as step

__all__ = ["ThresholdPerceptron", "augment_minus_one", "mp_neuron"]

#: Largest number of epochs: each one is a Python pass over the samples (the rule is
#: sequential), about a second per 10^5 samples; more is refused.
MAX_EPOCHS = 10**6


def augment_minus_one(X: ArrayLike) -> np.ndarray:
    """``X`` with a last column of -1: the fixed input that carries the threshold.

    Parameters
    ----------
    X : array-like of shape (n_samples, d)

    Returns
    -------
    ndarray of shape (n_samples, d + 1)
    """
    X = check_array_argument(X, "X", ndim=2, real=True)
    return np.hstack([X, -np.ones((X.shape[0], 1))])


def mp_neuron(X: ArrayLike, weights: ArrayLike, threshold: float, *,
              activation: str = "step") -> np.ndarray:
    """Outputs ``f(sum_i w_i x_i - theta)`` of one M-P neuron, (3.1) of 003 §3.1.

    Parameters
    ----------
    X : array-like of shape (n_samples, d)
        Inputs.
    weights : array-like of shape (d,)
        Connection weights ``w_i``.
    threshold : float
        ``theta``.
    activation : {"step", "sigmoid"}, default="step"
        ``f``: the unit step (fires, 1, when the weighted sum reaches the threshold) or
        the logistic sigmoid.

    Returns
    -------
    ndarray of shape (n_samples,)
    """
    X = check_array_argument(X, "X", ndim=2, real=True)
    check_squares_representable(X, "X")
    w = check_array_argument(weights, "weights", shape=(X.shape[1],), real=True)
    check_squares_representable(w, "weights")
    theta = check_real(threshold, "threshold")
    f = {"step": step, "sigmoid": sigmoid}[check_choice(activation, "activation", ACTIVATIONS)]
    return f(X @ w - theta)


class ThresholdPerceptron(ClassifierMixin, BaseEstimator):
    """A single threshold unit trained by the perceptron rule (003 §3.2 (3.2)).

    The classes of ``y`` (two) are coded 0 and 1 (the sorted order of ``classes_``); the
    unit outputs ``y_hat = step(w . x - theta)``. Each epoch visits the samples in order
    (or shuffled, ``shuffle=True``) and applies (3.2) to the augmented weights
    ``(w, theta)`` on the augmented input ``(x, -1)``. The run stops after an epoch with
    no error (``converged_ = True``) or at ``max_iter`` epochs (``ConvergenceWarning``).
    The rule is sequential by nature: the loop over samples is a Python loop.

    Parameters
    ----------
    learning_rate : float, default=0.1
        ``eta`` in (0, 1).
    max_iter : int, default=1000
        Epoch cap.
    shuffle : bool, default=False
        Visit the samples in a fresh random order each epoch.
    random_state : None, int or Generator, default=None
        Drives the order when ``shuffle``; the weights start at zero.

    Attributes
    ----------
    classes_ : ndarray of shape (2,)
    coef_ : ndarray of shape (d,)
        ``w``.
    threshold_ : float
        ``theta``.
    weight_history_ : ndarray of shape (n_updates_ + 1, d + 1)
        The augmented weights ``(w, theta)`` before the first update and after each one,
        recorded by the training loop.
    update_samples_ : ndarray of shape (n_updates_,)
        Index of the sample that caused each update.
    errors_per_epoch_ : ndarray of shape (n_iter_,)
        Mistakes made in each epoch.
    n_updates_, n_iter_ : int
    converged_ : bool
    n_features_in_ : int

    References
    ----------
    003 §3.1 (3.1), §3.2 (3.2).
    """

    def __init__(self, *, learning_rate: float = 0.1, max_iter: int = 1000,
                 shuffle: bool = False, random_state: object = None) -> None:
        self.learning_rate = learning_rate
        self.max_iter = max_iter
        self.shuffle = shuffle
        self.random_state = random_state

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.classifier_tags.multi_class = False
        return tags

    def fit(self, X: ArrayLike, y: ArrayLike) -> ThresholdPerceptron:
        """Run the perceptron rule (3.2) on ``(X, y)``."""
        X, codes = validate_classification(
            self, X, y, max_classes=2, what="a single threshold unit has one 0/1 output")
        check_squares_representable(X, "X")
        eta = check_real(self.learning_rate, "learning_rate", low=0.0, high=1.0,
                         low_open=True, high_open=True)
        max_iter = check_int(self.max_iter, "max_iter", low=1, high=MAX_EPOCHS)
        shuffle = check_bool(self.shuffle, "shuffle")
        rng = make_rng(self.random_state)
        Xa = np.hstack([X, -np.ones((X.shape[0], 1))])
        target = codes.astype(float)
        w = np.zeros(Xa.shape[1])
        history = [w.copy()]
        culprits: list[int] = []
        errors: list[int] = []
        converged = False
        order = np.arange(Xa.shape[0])
        for _ in range(max_iter):
            if shuffle:
                order = rng.permutation(Xa.shape[0])
            mistakes = 0
            for k in order:  # (3.2), one sample at a time
                x = Xa[k]
                y_hat = 1.0 if x @ w >= 0.0 else 0.0
                if y_hat != target[k]:
                    w = w + eta * (target[k] - y_hat) * x
                    history.append(w.copy())
                    culprits.append(int(k))
                    mistakes += 1
            errors.append(mistakes)
            if mistakes == 0:
                converged = True
                break
        self.coef_ = w[:-1].copy()
        self.threshold_ = float(w[-1])
        self.weight_history_ = np.array(history)
        self.update_samples_ = np.array(culprits, dtype=np.intp)
        self.errors_per_epoch_ = np.array(errors, dtype=np.intp)
        self.n_updates_ = len(culprits)
        self.n_iter_ = len(errors)
        self.converged_ = converged
        if not converged:
            warnings.warn(
                f"ThresholdPerceptron made {errors[-1]} mistakes in its last epoch of "
                f"max_iter={max_iter}: the data may not be linearly separable.",
                ConvergenceWarning, stacklevel=2)
        return self

    def decision_function(self, X: ArrayLike) -> np.ndarray:
        """The weighted sum minus the threshold, ``w . x - theta``."""
        X = validate_features(self, X, reset=False)
        check_squares_representable(X, "X")
        return X @ self.coef_ - self.threshold_

    def predict(self, X: ArrayLike) -> np.ndarray:
        """The class of the unit's output ``step(w . x - theta)``."""
        out = step(self.decision_function(X)).astype(np.intp)
        return self.classes_[out]
