"""Claims on the class probabilities the linear classifiers report (003 §1.5 (1.17),
004 §3.3, 003 §1.9 (1.31)): every row is a probability distribution over ``classes_``, in
that column order, consistent with the decision the classifier takes, whatever the labels
are called and whichever of them is the positive class."""

from __future__ import annotations

import numpy as np
from hypothesis import given
from hypothesis import strategies as st
from scipy.special import expit

from algorithms.linear import (
    GeneralizedLinearModel,
    LogisticRegression,
    SoftmaxRegression,
    ThresholdRescalingClassifier,
)
from mltheory import Method, claim, evidence
from mltheory.numeric import Tolerance, assert_close
from properties.linear.strategies import overlapping_classification_datasets
from properties.linear.support import quietly

#: Rows of probabilities sum to one up to the rounding of K terms of size <= 1 and of
#: the normalisation (a softmax, or 1 - p): a few ulps per class.
SUMS_TO_ONE = Tolerance(rtol=0.0, atol=16 * float(np.finfo(float).eps),
                        reason="K probabilities <= 1, each a few roundings: a few ulps each")
#: The same probability computed two ways (a log of a probability, a logistic of a score).
SAME_VALUE = Tolerance(rtol=1e-12, atol=1e-15,
                       reason="the same closed form evaluated two ways: a few ulps")

#: Features rescaled by this power of two (exact): their squares underflow float64, yet the
#: maximum-likelihood probabilities are the same (the weights scale inversely).
TINY_UNIT = 2.0**-600
#: Two Newton/L-BFGS fits of the same likelihood, each stopped near 1e-10 N in objective.
SAME_MLE = Tolerance(rtol=1e-5, atol=1e-6,
                     reason="two fits of one likelihood stopped at decrement ~1e-10 N: "
                     "probabilities agree to ~sqrt(tol / curvature)")
#: The fits that reach the unpenalised MLE (gradient descent stops on a budget instead).
SCALE_EQUIVARIANT = ("logistic-newton", "softmax-reference", "softmax-symmetric",
                     "glm-bernoulli", "glm-categorical")

#: The probabilistic classifiers of the family (constructors), by name.
CLASSIFIERS = {
    "logistic-newton": lambda: LogisticRegression(),
    "logistic-gd": lambda: LogisticRegression(solver="gd", max_iter=300),
    "softmax-reference": lambda: SoftmaxRegression(),
    "softmax-symmetric": lambda: SoftmaxRegression(parametrisation="symmetric"),
    "glm-bernoulli": lambda: GeneralizedLinearModel(family="bernoulli"),
    "glm-categorical": lambda: GeneralizedLinearModel(family="categorical"),
}
BINARY_ONLY = ("logistic-newton", "logistic-gd", "glm-bernoulli")

#: Label sets the codes 0..K-1 are renamed to (sorted or not, strings, negatives).
LABEL_NAMES = st.sampled_from([
    np.array([0, 1, 2, 3]), np.array([7, -3, 2, 11]), np.array(["pos", "neg", "b", "a"]),
    np.array([1.0, -1.0, 0.0, 9.0]),
])


def check_distributions(model, X: np.ndarray, what: str) -> np.ndarray:
    """``model.predict_proba(X)`` is a distribution per row over ``classes_`` and
    ``predict`` takes its most probable class; returns the probabilities."""
    P = model.predict_proba(X)
    K = len(model.classes_)
    if P.shape != (X.shape[0], K):
        raise AssertionError(f"{what}: predict_proba has shape {P.shape}, expected "
                             f"({X.shape[0]}, {K})")
    if np.any(P < 0) or np.any(P > 1):
        raise AssertionError(f"{what}: a probability outside [0, 1]")
    assert_close(P.sum(axis=1), np.ones(X.shape[0]), SUMS_TO_ONE, label=f"{what}: row sums")
    top = np.sort(P, axis=1)
    clear = top[:, -1] - (top[:, -2] if K > 1 else 0.0) > 1e-9  # no near-ties
    predicted = model.predict(X)
    expected = np.asarray(model.classes_)[np.argmax(P, axis=1)]
    if not np.array_equal(predicted[clear], expected[clear]):
        raise AssertionError(f"{what}: predict is not the most probable class of predict_proba")
    if hasattr(model, "predict_log_proba"):
        assert_close(np.exp(model.predict_log_proba(X)), P, SAME_VALUE,
                     label=f"{what}: exp(predict_log_proba) vs predict_proba")
    return P


def check_classifier_probabilities(data, names: np.ndarray, kind: str,
                                   factories=CLASSIFIERS) -> None:
    """The classifier ``factories[kind]`` fitted on labels renamed to ``names`` reports
    distributions in the order of ``classes_``; a binary logistic model's column
    ``classes_[1]`` is sigma(decision_function)."""
    y = names[data.y]
    model = quietly(factories[kind]().fit, data.X, y)
    if not np.array_equal(model.classes_, np.unique(y)):
        raise AssertionError(f"{kind}: classes_ {model.classes_} are not the sorted labels")
    P = check_distributions(model, data.X, kind)
    if kind.startswith("logistic"):
        assert_close(P[:, 1], expit(model.decision_function(data.X)), SAME_VALUE,
                     label=f"{kind}: p(classes_[1]) vs sigma(w^T x + b)")
    if kind in SCALE_EQUIVARIANT:  # the MLE's probabilities do not depend on feature units
        tiny = quietly(factories[kind]().fit, data.X * TINY_UNIT, y)
        assert_close(tiny.predict_proba(data.X * TINY_UNIT), P, SAME_MLE,
                     label=f"{kind}: probabilities with features in units of 2^-600")
    # the fitted model tells the classes apart by their labels: relabelling the sample
    # must not change the probability each sample gets for its own label
    own = P[np.arange(y.size), np.searchsorted(model.classes_, y)]
    evidence.worst("smallest probability of a sample's own label", float(own.min()),
                   larger_is_worse=False)


def check_rescaled_probabilities(data, names: np.ndarray, positive: int,
                                 wrapper=ThresholdRescalingClassifier) -> None:
    """The threshold-rescaling classifier with ``pos_label = names[positive]`` (first or
    second class) reports distributions over ``classes_``, its positive column is the odds
    form of (1.31) of its estimator's probability, y' = y m- / (y m- + (1 - y) m+), and it
    predicts positive exactly where y' > 1/2."""
    y = names[(data.y > 0).astype(int)]
    pos = names[positive]
    model = quietly(wrapper(LogisticRegression(lam=0.1), pos_label=pos).fit, data.X, y)
    P = check_distributions(model, data.X, f"rescaled (pos_label = {pos!r})")
    inner = model.estimator_.predict_proba(data.X)[:, list(model.estimator_.classes_).index(pos)]
    m_pos, m_neg = float(np.sum(y == pos)), float(np.sum(y != pos))
    expected = inner * m_neg / (inner * m_neg + (1 - inner) * m_pos)
    column = list(model.classes_).index(pos)
    assert_close(P[:, column], expected, SAME_VALUE, label="positive column vs (1.31) odds form")


@claim(
    id="linear.class_probabilities_are_distributions",
    source="003 §1.5 (1.17); 004 §3.3; 003 §1.9 (1.31)",
    statement="The class probabilities the logistic, softmax and GLM classifiers and the "
    "threshold-rescaling classifier report are a distribution over the classes in the order "
    "of classes_ (non-negative, rows summing to one), consistent with predict, "
    "predict_log_proba and, for logistic regression, p(y = classes_[1]) = sigma(w^T x + b); "
    "the rescaled classifier's positive column is y' of (1.31) whether the positive label is "
    "the first or the second class.",
    method=Method.PROPERTY,
    tags=("linear", "logistic", "softmax", "imbalance"),
)
@given(data=overlapping_classification_datasets(min_classes=2, max_classes=4,
                                                max_free_samples=20),
       names=LABEL_NAMES, kind=st.sampled_from(sorted(CLASSIFIERS)),
       positive=st.sampled_from([0, 1]))
def class_probabilities_are_distributions(data, names, kind, positive):
    if kind in BINARY_ONLY and data.n_classes > 2:
        data_binary = type(data)(X=data.X, y=(data.y > 0).astype(int), n_classes=2)
        check_classifier_probabilities(data_binary, names, kind)
    else:
        check_classifier_probabilities(data, names, kind)
    check_rescaled_probabilities(data, names, positive)
