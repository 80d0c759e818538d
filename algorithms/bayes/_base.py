"""What the generative (Bayes) classifiers of 003 Chapter 5 share.

- :class:`BayesClassifierBase`: a classifier defined by its joint log-likelihood
  ``log P(c) + log P(x | c)`` per class (up to a term constant in ``c``); posteriors
  by log-sum-exp (5.1); ``predict`` is the minimum-conditional-risk decision (5.3) for
  the estimator's ``loss`` matrix, ``argmax_c`` of the joint under 0/1 loss (5.7).
- categorical attributes: :func:`encode_categories` (values seen in training, codes
  ``0..n_i - 1``) and :func:`category_codes` (codes at prediction time; a value not
  seen in training gets the extra code ``n_i``), and :func:`laplace_log_table`, the
  smoothed conditional table ``log (count + alpha) / (parent count + alpha n_i)`` in
  log space.
"""

from __future__ import annotations

import numpy as np
from scipy.special import logsumexp
from sklearn.base import BaseEstimator, ClassifierMixin

from algorithms._validation import check_real, validate_features
from algorithms.bayes._decision import bayes_decision, check_loss_matrix

__all__ = [
    "BayesClassifierBase",
    "category_codes",
    "check_alpha",
    "encode_categories",
    "laplace_log_table",
]


class BayesClassifierBase(ClassifierMixin, BaseEstimator):
    """Posteriors and decisions from ``_joint_log_likelihood`` (subclasses implement it)."""

    def _joint_log_likelihood(self, X: np.ndarray) -> np.ndarray:  # pragma: no cover
        raise NotImplementedError

    def _set_loss(self) -> None:
        """Validate the ``loss`` hyperparameter against the fitted classes."""
        loss = getattr(self, "loss", None)
        self.loss_ = None if loss is None else check_loss_matrix(loss, len(self.classes_))

    def predict_joint_log_proba(self, X: object) -> np.ndarray:
        """``log P(c) + log P(x | c)`` (up to a term that does not depend on ``c``),
        shape (n, n_classes)."""
        X = validate_features(self, X, reset=False)
        return self._joint_log_likelihood(X)

    def predict_log_proba(self, X: object) -> np.ndarray:
        """``log P(c | x)`` by Bayes' formula (5.1), normalised by log-sum-exp."""
        jll = self.predict_joint_log_proba(X)
        return jll - logsumexp(jll, axis=1, keepdims=True)

    def predict_proba(self, X: object) -> np.ndarray:
        """``P(c | x)``, shape (n, n_classes)."""
        return np.exp(self.predict_log_proba(X))

    def predict(self, X: object) -> np.ndarray:
        """The class of least conditional risk (5.3); under 0/1 loss (``loss=None``) the
        class maximising ``P(c) P(x | c)`` (5.7)."""
        jll = self.predict_joint_log_proba(X)
        if self.loss_ is None:
            codes = np.argmax(jll, axis=1)
        else:
            post = np.exp(jll - logsumexp(jll, axis=1, keepdims=True))
            post /= post.sum(axis=1, keepdims=True)
            codes = bayes_decision(post, self.loss_)
        return self.classes_[codes]


def check_alpha(alpha: object) -> float:
    """The Laplace (additive) smoothing constant, ``alpha >= 0``."""
    return check_real(alpha, "alpha", low=0.0)


def encode_categories(X: np.ndarray) -> tuple[list[np.ndarray], np.ndarray]:
    """Per column: the sorted values seen, and each entry's code in ``0..n_i - 1``.

    Returns
    -------
    values : list of d arrays
    codes : int array of shape (n, d)
    """
    values, codes = [], np.empty(X.shape, dtype=np.intp)
    for j in range(X.shape[1]):
        v, c = np.unique(X[:, j], return_inverse=True)
        values.append(v)
        codes[:, j] = c.reshape(-1)
    return values, codes


def _compact(values: np.ndarray) -> bool:
    """True when the sorted distinct values are exactly ``0, 1, ..., n - 1``."""
    n = values.shape[0]
    return bool(values[0] == 0 and values[-1] == n - 1 and np.all(values == np.round(values)))


def category_codes(values: list[np.ndarray], X: np.ndarray, *, by_column: bool = False
                   ) -> np.ndarray:
    """Codes of ``X`` against the training values; an unseen value gets code ``n_i``.

    Columns whose training values are ``0..n_i - 1`` (integer codes, the common case) are
    coded by a cast and a range test; others by binary search. ``by_column`` returns the
    codes transposed, shape (d, n) with contiguous columns (for per-column lookups).
    """
    sizes = np.array([v.shape[0] for v in values], dtype=np.intp)
    compact = np.array([_compact(v) for v in values], dtype=bool)
    XT = X.T
    if np.all(compact):
        codes = _cast_codes(XT, sizes[:, None])
        return codes if by_column else codes.T
    codes = np.empty(XT.shape, dtype=np.intp)
    if np.any(compact):
        codes[compact] = _cast_codes(XT[compact], sizes[compact][:, None])
    for j in np.flatnonzero(~compact):
        v, col = values[j], np.ascontiguousarray(XT[j])
        idx = np.searchsorted(v, col)
        found = idx < v.shape[0]
        found[found] = v[idx[found]] == col[found]
        codes[j] = np.where(found, idx, v.shape[0])
    return codes if by_column else codes.T


def _cast_codes(block: np.ndarray, sizes: np.ndarray) -> np.ndarray:
    """Codes of columns whose values are ``0..n_i - 1`` (one column per row of ``block``):
    the value itself, or ``n_i`` for anything else (non-integer, negative, too large)."""
    idx = block.astype(np.intp, order="C")
    bad = idx != block
    bad |= idx < 0
    bad |= idx >= sizes
    if np.any(bad):
        np.putmask(idx, bad, np.broadcast_to(sizes, idx.shape))
    return idx


def laplace_log_table(counts: np.ndarray, alpha: float, where: str) -> np.ndarray:
    """``log((counts + alpha) / (sum_last + alpha n))`` with an extra last slot for an
    unseen value (count 0), shape ``counts.shape[:-1] + (n + 1,)``.

    Rows whose parent count is zero get the uniform ``1/n`` (with ``alpha = 0`` too: the
    conditional is then not determined by the data). With ``alpha = 0`` a zero cell in a
    row that has data would be a zero probability, which vetoes its class whatever the
    other attributes say (003 §5.4); it is refused, naming ``alpha`` and ``where``.
    """
    n = counts.shape[-1]
    totals = counts.sum(axis=-1, keepdims=True)
    if alpha == 0.0 and np.any((counts == 0) & (totals > 0)):
        raise ValueError(
            f"alpha=0 leaves a zero-probability cell in {where} (a value never seen with "
            "its class/parent value); use Laplace smoothing alpha > 0."
        )
    padded = np.concatenate([counts, np.zeros(counts.shape[:-1] + (1,))], axis=-1)
    empty = totals == 0
    with np.errstate(divide="ignore"):
        table = np.log(padded + alpha) - np.log(totals + alpha * n)
    uniform = np.full_like(table, -np.log(n))
    uniform[..., n] = -np.inf if alpha == 0.0 else np.log(alpha) - np.log(alpha * n)
    return np.where(empty, uniform, table)
