"""Prediction and loss shared by the linear perceptron estimators."""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike
from sklearn.utils.validation import check_is_fitted

from ._validation import signed_labels, validate_predict_data


class BinaryPerceptronMixin:
    """``decision_function``, ``predict`` and ``loss`` for a fitted ``(coef_, intercept_)``.

    Subclasses must set ``classes_``, ``coef_`` and ``intercept_`` in ``fit``
    (kernel models override :meth:`decision_function`).
    """

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.classifier_tags.multi_class = False
        return tags

    def decision_function(self, X: ArrayLike) -> np.ndarray:
        """Scores ``w . x + b`` of shape (n_samples,); positive means ``classes_[1]``."""
        check_is_fitted(self)
        X_arr = validate_predict_data(self, X)
        return X_arr @ self.coef_ + self.intercept_

    def predict(self, X: ArrayLike) -> np.ndarray:
        """Predict ``classes_[1]`` where ``sign(score) = +1`` and ``classes_[0]`` otherwise.

        Uses ``sign(0) = +1`` (004 §5.1): a point on the hyperplane is predicted
        positive. Note that training counts a zero margin as a mistake, so a
        fitted perceptron never leaves a training point on its hyperplane.
        """
        scores = self.decision_function(X)
        return self.classes_[(scores >= 0.0).astype(np.intp)]

    def loss(self, X: ArrayLike, y: ArrayLike) -> float:
        """Perceptron loss ``L(w, b) = -sum_{i in M} y_i (w . x_i + b)`` of the fitted model.

        ``y`` is given in the original labels (``classes_``). ``M`` is the set of
        points with ``y_i (w . x_i + b) <= 0`` (001 §一.1; 004 §5.2).
        """
        scores = self.decision_function(X)
        y_signed = signed_labels(self.classes_, y, scores.shape[0])
        margins = y_signed * scores
        return float(-np.sum(margins[margins <= 0.0]))
