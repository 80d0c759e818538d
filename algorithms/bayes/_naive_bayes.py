"""The naive Bayes classifier (003 §5.4 (5.6)-(5.7)) for categorical, Gaussian and mixed
attributes.

Under class-conditional independence ``P(x | c) = prod_i P(x_i | c)`` (5.6), and the
classifier is ``h_nb(x) = argmax_c P(c) prod_i P(x_i | c)`` (5.7), evaluated here as
``log P(c) + sum_i log P(x_i | c)``.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

from algorithms._validation import (
    check_array_argument,
    check_real,
    check_sample_weight,
    check_squares_representable,
    validate_classification,
)
from algorithms.bayes._base import (
    BayesClassifierBase,
    category_codes,
    check_alpha,
    encode_categories,
    laplace_log_table,
)

__all__ = ["NaiveBayesClassifier", "categorical_mask", "class_log_prior"]

_LOG_2PI = np.log(2.0 * np.pi)


def categorical_mask(categorical_features: object, n_features: int) -> np.ndarray:
    """``categorical_features`` (None, a boolean mask of length d, or column indices) as a
    boolean mask of shape (d,)."""
    name = "categorical_features"
    if categorical_features is None:
        return np.zeros(n_features, dtype=bool)
    if isinstance(categorical_features, str):
        if categorical_features == "all":
            return np.ones(n_features, dtype=bool)
        raise ValueError(f"{name} must be None, 'all', a boolean mask or column indices, "
                         f"got {categorical_features!r}.")
    arr = np.asarray(categorical_features)
    if arr.dtype == bool:
        return check_array_argument(arr, name, shape=(n_features,), dtype=bool,
                                    allow_empty=True)
    idx = check_array_argument(arr, name, ndim=1, dtype=np.int64, allow_empty=True)
    if np.any((idx < 0) | (idx >= n_features)):
        raise ValueError(f"{name} must hold column indices in [0, {n_features - 1}], "
                         f"got {idx.tolist()}.")
    mask = np.zeros(n_features, dtype=bool)
    mask[idx] = True
    return mask


def class_log_prior(class_weight: np.ndarray, alpha: float, priors: object) -> np.ndarray:
    """``log P(c)``: the given ``priors``, or the Laplace-smoothed frequencies
    ``(|D_c| + alpha) / (|D| + alpha N)``."""
    K = class_weight.shape[0]
    if priors is not None:
        p = check_array_argument(priors, "priors", shape=(K,))
        if np.any(p <= 0) or abs(float(p.sum()) - 1.0) > 1e-9:
            raise ValueError("priors must be positive and sum to 1 (one per class).")
        return np.log(p)
    return np.log(class_weight + alpha) - np.log(class_weight.sum() + alpha * K)


class NaiveBayesClassifier(BayesClassifierBase):
    """Naive Bayes (5.7) with Gaussian and categorical attributes, in log space.

    Parameters
    ----------
    categorical_features : None, "all", bool mask of shape (d,) or int indices, default=None
        Which columns are categorical (any values; each distinct value is a category).
        The others are continuous with a Gaussian ``P(x_i | c)``.
    alpha : float, default=1.0
        Laplace smoothing (the book's correction): ``P(x_i = v | c) = (|D_{c,v}| +
        alpha) / (|D_c| + alpha N_i)`` with ``N_i`` the number of values of attribute
        ``i`` seen in training, and the class prior ``(|D_c| + alpha) / (|D| + alpha
        N)``. ``alpha = 0`` is maximum likelihood; then a zero cell is refused
        (``ValueError``), since it would veto its class whatever the other attributes say.
    var_smoothing : float, default=1e-9
        Added to every Gaussian variance, as a fraction of the largest feature variance
        (scikit-learn's ``GaussianNB`` rule), so a constant feature is not a division by 0.
    priors : array of shape (n_classes,), optional
        Class priors; ``None`` estimates them (smoothed by ``alpha``).
    loss : array of shape (n_classes, n_classes), optional
        Loss matrix ``lambda_ij`` (deciding class ``i`` when the truth is ``j``);
        ``predict`` minimises the conditional risk (5.3). ``None`` is 0/1 loss, i.e.
        (5.7).

    Attributes
    ----------
    classes_ : ndarray of shape (n_classes,)
    class_log_prior_ : ndarray of shape (n_classes,)
    categorical_mask_ : bool ndarray of shape (d,)
    theta_, var_ : ndarray of shape (n_classes, n_gaussian)
        Per-class means and (smoothed) variances of the Gaussian columns.
    category_values_ : list of ndarray
        Values seen in each categorical column.
    category_log_prob_ : list of ndarray of shape (n_classes, n_values + 1)
        ``log P(x_i = v | c)``; the last slot is a value not seen in training.
    class_count_ : ndarray of shape (n_classes,)
        (Weighted) number of training samples per class.

    Notes
    -----
    003 §5.4 (5.6)-(5.7). Prediction is a table lookup for categorical columns and a
    Gaussian log-density for continuous ones; nothing is multiplied outside log space.
    """

    def __init__(self, *, categorical_features=None, alpha=1.0, var_smoothing=1e-9,
                 priors=None, loss=None):
        self.categorical_features = categorical_features
        self.alpha = alpha
        self.var_smoothing = var_smoothing
        self.priors = priors
        self.loss = loss

    def fit(self, X: ArrayLike, y: ArrayLike, sample_weight: ArrayLike | None = None
            ) -> NaiveBayesClassifier:
        """Estimate the prior and the per-attribute conditionals.

        Parameters
        ----------
        X : array of shape (n, d)
        y : array of shape (n,)
        sample_weight : array of shape (n,), optional
            Non-negative weights (a weight of 2 is a repeated sample).
        """
        X, codes = validate_classification(self, X, y)
        alpha = self.alpha_ = check_alpha(self.alpha)
        var_smoothing = check_real(self.var_smoothing, "var_smoothing", low=0.0)
        w = check_sample_weight(sample_weight, X)
        K = self.classes_.shape[0]
        self.categorical_mask_ = categorical_mask(self.categorical_features, X.shape[1])
        self.class_count_ = np.bincount(codes, weights=w, minlength=K)
        if np.any(self.class_count_ <= 0):
            raise ValueError("sample_weight must give every class a positive total weight.")
        self.class_log_prior_ = class_log_prior(self.class_count_, alpha, self.priors)
        mask = self.categorical_mask_
        unit = sample_weight is None
        self._fit_gaussian(X if not mask.any() else X[:, ~mask], codes, w, var_smoothing, unit)
        self._fit_categorical(X if mask.all() else X[:, mask], codes, w, alpha)
        self._set_loss()
        return self

    def _fit_gaussian(self, X: np.ndarray, codes: np.ndarray, w: np.ndarray,
                      var_smoothing: float, unit: bool) -> None:
        K, d = self.classes_.shape[0], X.shape[1]
        self.theta_, self.var_ = np.zeros((K, d)), np.zeros((K, d))
        if d == 0:
            return
        # variances are squares of the spread: refused, named, where they over/underflow
        check_squares_representable(X - X.mean(axis=0), "X", underflow=True)
        epsilon = var_smoothing * float(np.max(np.var(X, axis=0)))
        for k in range(K):
            rows = codes == k
            Xk = X[rows]
            if unit:  # unweighted: plain two-pass mean and variance
                self.theta_[k] = Xk.mean(axis=0)
                self.var_[k] = Xk.var(axis=0)
            else:
                wk = w[rows]
                self.theta_[k] = np.average(Xk, axis=0, weights=wk)
                self.var_[k] = np.average((Xk - self.theta_[k]) ** 2, axis=0, weights=wk)
        self.var_ += epsilon
        if np.any(self.var_ <= 0):
            raise ValueError(
                "var_smoothing=0 leaves a zero variance (a feature constant within a class); "
                "use var_smoothing > 0."
            )

    def _fit_categorical(self, X: np.ndarray, codes: np.ndarray, w: np.ndarray,
                         alpha: float) -> None:
        K = self.classes_.shape[0]
        self.category_values_, self.category_log_prob_ = [], []
        if X.shape[1] == 0:
            return
        keep = w > 0  # a weight-0 sample is no sample: its values are not seen
        if not np.all(keep):
            X, codes, w = X[keep], codes[keep], w[keep]
        self.category_values_, cat_codes = encode_categories(X)
        for j, values in enumerate(self.category_values_):
            n_j = values.shape[0]
            counts = np.bincount(codes * n_j + cat_codes[:, j], weights=w,
                                 minlength=K * n_j).reshape(K, n_j)
            self.category_log_prob_.append(
                laplace_log_table(counts, alpha, f"categorical column {j}"))

    def _joint_log_likelihood(self, X: np.ndarray) -> np.ndarray:
        mask = self.categorical_mask_
        K = self.classes_.shape[0]
        jll = np.empty((K, X.shape[0]))  # one contiguous row per class
        jll[:] = self.class_log_prior_[:, None]
        if not mask.all():
            G = X if not mask.any() else X[:, ~mask]
            for k in range(K):
                jll[k] -= 0.5 * (np.sum(_LOG_2PI + np.log(self.var_[k]))
                                 + np.sum((G - self.theta_[k]) ** 2 / self.var_[k], axis=1))
        if mask.any():
            cat = category_codes(self.category_values_, X if mask.all() else X[:, mask],
                                 by_column=True)
            for j, table in enumerate(self.category_log_prob_):
                jll += np.take(table, cat[j], axis=1)
            if self.alpha_ == 0.0 and not np.all(np.isfinite(jll).any(axis=0)):
                raise ValueError(
                    "X has a categorical value not seen in training, which has probability 0 "
                    "for every class under alpha=0; use alpha > 0."
                )
        return jll.T
