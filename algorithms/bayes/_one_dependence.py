"""Semi-naive Bayes: one-dependence estimators (003 §5.5 (5.8)).

Every attribute depends on the class and on at most one other attribute, its parent
``pa_i``: ``P(c | x) proportional to P(c) prod_i P(x_i | c, pa_i)`` (5.8). The notes
name the family; the members are the book's (Zhou, Machine Learning, §7.4):

- :class:`SPODEClassifier`: one "super-parent" attribute is every other attribute's
  parent, chosen by cross-validated accuracy (or given);
- :class:`TANClassifier`: the parents form a tree, the maximum weighted spanning tree
  of the complete graph weighted by the conditional mutual information
  ``I(x_i; x_j | y)`` (scipy's ``minimum_spanning_tree`` on negated weights), directed
  away from a root attribute;
- :class:`AODEClassifier`: the average of the SPODEs whose super-parent value has at
  least ``min_support`` (the book's m') training samples,
  ``P(c | x) proportional to sum_i P(c, x_i) prod_{j != i} P(x_j | c, x_i)``, with
  the naive Bayes estimate where no attribute value qualifies.

All attributes are categorical (each distinct value of a column is a category). The
probabilities are Laplace-smoothed with ``alpha``: ``P(x_i | c, x_p) = (|D_{c, x_p,
x_i}| + alpha) / (|D_{c, x_p}| + alpha N_i)``, and AODE's ``P(c, x_i) = (|D_{c, x_i}| +
alpha) / (|D| + alpha N N_i)``.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike
from scipy.sparse import csr_array
from scipy.sparse.csgraph import breadth_first_order, minimum_spanning_tree
from scipy.special import logsumexp
from sklearn.model_selection import KFold

from algorithms._validation import (
    check_array_argument,
    check_codes,
    check_int,
    check_sample_weight,
    make_rng,
    validate_classification,
)
from algorithms.bayes._base import (
    BayesClassifierBase,
    category_codes,
    check_alpha,
    encode_categories,
    laplace_log_table,
)
from algorithms.bayes._naive_bayes import class_log_prior
from algorithms.bayes._network import MAX_TABLE_CELLS, check_family_size

__all__ = [
    "AODEClassifier",
    "ODEModel",
    "SPODEClassifier",
    "TANClassifier",
    "conditional_mutual_information",
    "fit_ode_tables",
    "pair_counts",
]

#: ``parents[i]`` value of an attribute whose only parent is the class.
NO_PARENT = -1


def pair_counts(codes: np.ndarray, y: np.ndarray, w: np.ndarray, n_classes: int,
                n_values: list[int], i: int, j: int) -> np.ndarray:
    """Weighted counts ``|D_{c, x_i, x_j}|``, shape (N, n_i, n_j)."""
    ni, nj = n_values[i], n_values[j]
    flat = (y * ni + codes[:, i]) * nj + codes[:, j]
    return np.bincount(flat, weights=w, minlength=n_classes * ni * nj).reshape(n_classes, ni, nj)


def _single_counts(codes, y, w, n_classes, n_values, i) -> np.ndarray:
    ni = n_values[i]
    return np.bincount(y * ni + codes[:, i], weights=w,
                       minlength=n_classes * ni).reshape(n_classes, ni)


@dataclass
class ODEModel:
    """Fitted tables of (5.8): ``log P(c)`` and, per attribute, ``log P(x_i | c, pa_i)``
    of shape (N, n_pa + 1, n_i + 1) (or (N, n_i + 1) without a parent); the extra slots
    stand for values not seen in training."""

    parents: np.ndarray
    class_log_prior: np.ndarray
    tables: list[np.ndarray]

    def joint_log_likelihood(self, codes: np.ndarray) -> np.ndarray:
        """``log P(c) + sum_i log P(x_i | c, pa_i)``, shape (n, N)."""
        jll = np.tile(self.class_log_prior, (codes.shape[0], 1))
        for i, (p, table) in enumerate(zip(self.parents, self.tables, strict=True)):
            if p == NO_PARENT:
                jll += table[:, codes[:, i]].T
            else:
                jll += table[:, codes[:, p], codes[:, i]].T
        return jll


def fit_ode_tables(codes: np.ndarray, y: np.ndarray, w: np.ndarray, n_classes: int,
                   n_values: list[int], parents: np.ndarray, alpha: float) -> ODEModel:
    """The smoothed tables of (5.8) for the given parent of every attribute."""
    tables = []
    for i, p in enumerate(parents):
        if p == NO_PARENT:
            counts = _single_counts(codes, y, w, n_classes, n_values, i)
        else:
            counts = pair_counts(codes, y, w, n_classes, n_values, p, i)
            counts = np.concatenate([counts, np.zeros((n_classes, 1, n_values[i]))], axis=1)
        where = f"P(x_{i} | c{'' if p == NO_PARENT else f', x_{p}'})"
        tables.append(laplace_log_table(counts, alpha, where))
    prior = class_log_prior(np.bincount(y, weights=w, minlength=n_classes), alpha, None)
    return ODEModel(np.asarray(parents), prior, tables)


def conditional_mutual_information(codes: np.ndarray, y: np.ndarray, w: np.ndarray,
                                   n_classes: int, n_values: list[int]) -> np.ndarray:
    """``I(x_i; x_j | y)`` on the empirical distribution, a symmetric (d, d) matrix (nats).

    ``I = sum P(x_i, x_j, c) log(P(x_i, x_j | c) / (P(x_i | c) P(x_j | c)))``.

    Parameters
    ----------
    codes : int array of shape (n, d)
        Attribute codes, column ``i`` in ``0..n_values[i] - 1``.
    y : int array of shape (n,)
        Class codes ``0..n_classes - 1``.
    w : array of shape (n,)
        Non-negative sample weights with a positive sum (only their ratios matter).
    n_classes : int
    n_values : list of d ints
    """
    K = check_int(n_classes, "n_classes", low=1, high=MAX_TABLE_CELLS)
    arr = check_array_argument(codes, "codes", ndim=2, dtype=None, real=True)
    n, d = arr.shape
    if isinstance(n_values, str | bytes) or np.ndim(n_values) != 1 or len(n_values) != d:
        raise ValueError(f"n_values must list the number of values of each of the {d} "
                         f"attributes, got {n_values!r}.")
    sizes = [check_int(v, "n_values", low=1, high=MAX_TABLE_CELLS) for v in n_values]
    for i, j in itertools.combinations(range(d), 2):
        check_family_size([K, *sizes], [0, i + 1, j + 1], f"the pair ({i}, {j}) given c")
    cols = [check_codes(arr[:, i], "codes", n, sizes[i]) for i in range(d)]
    x = np.stack(cols, axis=1) if d else np.zeros((n, 0), dtype=np.intp)
    y_codes = check_codes(y, "y", n, K)
    weights = check_array_argument(w, "w", shape=(n,), real=True)
    if np.any(weights < 0) or not weights.sum() > 0:
        raise ValueError("w must be non-negative with a positive sum.")
    # only ratios of weights matter: an exact power-of-two rescaling keeps the counts and
    # their products representable for weights near the float64 limits
    weights = np.ldexp(weights, -np.frexp(weights.max())[1])
    return _cmi(x, y_codes, weights, K, sizes)


def _cmi(codes: np.ndarray, y: np.ndarray, w: np.ndarray, n_classes: int,
         n_values: list[int]) -> np.ndarray:
    """:func:`conditional_mutual_information` on validated input."""
    d = codes.shape[1]
    total = float(w.sum())
    cmi = np.zeros((d, d))
    for i in range(d):
        for j in range(i + 1, d):
            N = pair_counts(codes, y, w, n_classes, n_values, i, j)
            Nc = N.sum(axis=(1, 2))[:, None, None]
            Ni = N.sum(axis=2, keepdims=True)
            Nj = N.sum(axis=1, keepdims=True)
            pos = N > 0
            ratio = np.where(pos, N * Nc, 1.0) / np.where(pos, Ni * Nj, 1.0)
            cmi[i, j] = cmi[j, i] = float(np.sum(np.where(pos, N * np.log(ratio), 0.0))) / total
    return np.maximum(cmi, 0.0)  # exact value >= 0; rounding may leave -1e-17


class _ODEBase(BayesClassifierBase):
    """Encoding, validation and prediction shared by the one-dependence estimators."""

    def _prepare(self, X, y, sample_weight):
        X, y_codes = validate_classification(self, X, y)
        self.alpha_ = check_alpha(self.alpha)
        w = check_sample_weight(sample_weight, X)
        if np.any(w == 0):  # a weight-0 sample is no sample: its values are not seen
            keep = w > 0
            X, y_codes, w = X[keep], y_codes[keep], w[keep]
        self.category_values_, codes = encode_categories(X)
        self.n_values_ = [v.shape[0] for v in self.category_values_]
        return codes, y_codes, w

    def _codes(self, X: np.ndarray) -> np.ndarray:
        codes = category_codes(self.category_values_, X)
        if self.alpha_ == 0.0 and np.any(codes == np.asarray(self.n_values_)):
            raise ValueError("X has a value not seen in training, of probability 0 for every "
                             "class under alpha=0; use alpha > 0.")
        return codes

    def _joint_log_likelihood(self, X: np.ndarray) -> np.ndarray:
        return self.model_.joint_log_likelihood(self._codes(X))

    @property
    def parents_(self) -> np.ndarray:
        """The parent attribute of each attribute (``-1``: the class only)."""
        return self.model_.parents


def spode_parents(d: int, super_parent: int) -> np.ndarray:
    """Every attribute but ``super_parent`` has ``super_parent`` as its parent."""
    parents = np.full(d, super_parent)
    parents[super_parent] = NO_PARENT
    return parents


class SPODEClassifier(_ODEBase):
    """Super-parent ODE: one attribute is the parent of all the others (5.8).

    Parameters
    ----------
    super_parent : int or None, default=None
        The super-parent column; ``None`` chooses the one of best ``cv``-fold
        cross-validated accuracy (the book's rule; ties to the smallest index).
    alpha : float, default=1.0
        Laplace smoothing (``0``: maximum likelihood, zero cells refused).
    cv : int, default=5
        Number of folds when choosing the super-parent (>= 2, at most n).
    random_state : None, int or Generator
        Shuffles the folds.
    loss : array of shape (n_classes, n_classes), optional
        Loss matrix for the minimum-risk decision (5.3); ``None`` is 0/1 loss.

    Attributes
    ----------
    super_parent_ : int
    cv_scores_ : ndarray of shape (d,) or None
        Cross-validated accuracy of each candidate (when chosen by CV).
    parents_ : ndarray of shape (d,)
    model_ : ODEModel
    """

    def __init__(self, *, super_parent=None, alpha=1.0, cv=5, random_state=None, loss=None):
        self.super_parent = super_parent
        self.alpha = alpha
        self.cv = cv
        self.random_state = random_state
        self.loss = loss

    def fit(self, X: ArrayLike, y: ArrayLike, sample_weight: ArrayLike | None = None
            ) -> SPODEClassifier:
        codes, y_codes, w = self._prepare(X, y, sample_weight)
        d, K = codes.shape[1], self.classes_.shape[0]
        self.cv_scores_ = None
        if self.super_parent is None:
            folds = check_int(self.cv, "cv", low=2, high=codes.shape[0])
            seed = int(make_rng(self.random_state).integers(2**31 - 1))
            splits = list(KFold(folds, shuffle=True, random_state=seed).split(codes))
            scores = np.zeros(d)
            for s in range(d):
                parents = spode_parents(d, s)
                for train, test in splits:
                    m = fit_ode_tables(codes[train], y_codes[train], w[train], K,
                                       self.n_values_, parents, self.alpha_)
                    hit = np.argmax(m.joint_log_likelihood(codes[test]), axis=1) == y_codes[test]
                    scores[s] += np.sum(w[test] * hit) / w.sum()
            self.cv_scores_ = scores
            self.super_parent_ = int(np.argmax(scores))
        else:
            self.super_parent_ = check_int(self.super_parent, "super_parent", low=0, high=d - 1)
        self.model_ = fit_ode_tables(codes, y_codes, w, K, self.n_values_,
                                     spode_parents(d, self.super_parent_), self.alpha_)
        self._set_loss()
        return self


class TANClassifier(_ODEBase):
    """Tree-augmented naive Bayes (5.8): parents from the maximum spanning tree on the
    conditional mutual information ``I(x_i; x_j | y)``, directed away from ``root``.

    Parameters
    ----------
    root : int, default=0
        The attribute whose only parent is the class.
    alpha : float, default=1.0
        Laplace smoothing of the tables (the mutual information uses raw frequencies).
    loss : array of shape (n_classes, n_classes), optional

    Attributes
    ----------
    conditional_mutual_information_ : ndarray of shape (d, d)
    tree_edges_ : ndarray of shape (d - 1, 2)
        The spanning tree's edges ``(parent, child)``.
    parents_ : ndarray of shape (d,)
    model_ : ODEModel
    """

    def __init__(self, *, root=0, alpha=1.0, loss=None):
        self.root = root
        self.alpha = alpha
        self.loss = loss

    def fit(self, X: ArrayLike, y: ArrayLike, sample_weight: ArrayLike | None = None
            ) -> TANClassifier:
        codes, y_codes, w = self._prepare(X, y, sample_weight)
        d, K = codes.shape[1], self.classes_.shape[0]
        root = check_int(self.root, "root", low=0, high=d - 1)
        cmi = _cmi(codes, y_codes, w, K, self.n_values_)
        self.conditional_mutual_information_ = cmi
        parents = np.full(d, NO_PARENT)
        if d > 1:
            # maximum spanning tree = minimum spanning tree of (offset - weight); the
            # offset keeps every edge present (csgraph drops zero entries) and shifts
            # every spanning tree's weight by the same (d - 1) * offset
            offset = 1.0 + float(cmi.max())
            upper = np.triu(offset - cmi, k=1)
            tree = minimum_spanning_tree(csr_array(upper))
            _, predecessors = breadth_first_order(tree, root, directed=False,
                                                  return_predecessors=True)
            parents = np.where(predecessors < 0, NO_PARENT, predecessors)
        parents[root] = NO_PARENT
        self.tree_edges_ = np.array([(p, i) for i, p in enumerate(parents) if p != NO_PARENT],
                                    dtype=np.intp).reshape(-1, 2)
        self.model_ = fit_ode_tables(codes, y_codes, w, K, self.n_values_, parents, self.alpha_)
        self._set_loss()
        return self


class AODEClassifier(_ODEBase):
    """Averaged one-dependence estimators (5.8 averaged over super-parents).

    ``P(c | x)`` is proportional to ``sum_{i : |D_{x_i}| >= m'} P(c, x_i) prod_{j != i}
    P(x_j | c, x_i)``; a sample none of whose values has ``m'`` training samples gets
    the naive Bayes estimate.

    Parameters
    ----------
    min_support : int, default=30
        The book's ``m'``: a super-parent value needs this many (weighted) training
        samples.
    alpha : float, default=1.0
    loss : array of shape (n_classes, n_classes), optional

    Attributes
    ----------
    value_counts_ : list of ndarray
        ``|D_{x_i = v}|`` per attribute (with a zero slot for unseen values).
    joint_log_prob_ : list of ndarray of shape (N, n_i + 1)
        ``log P(c, x_i)``.
    pair_log_prob_ : dict (i, j) -> ndarray of shape (N, n_i + 1, n_j + 1)
        ``log P(x_j | c, x_i)``.
    naive_bayes_ : ODEModel
        The fallback (no parents).
    """

    def __init__(self, *, min_support=30, alpha=1.0, loss=None):
        self.min_support = min_support
        self.alpha = alpha
        self.loss = loss

    def fit(self, X: ArrayLike, y: ArrayLike, sample_weight: ArrayLike | None = None
            ) -> AODEClassifier:
        codes, y_codes, w = self._prepare(X, y, sample_weight)
        self.min_support_ = check_int(self.min_support, "min_support", low=0)
        d, K, a = codes.shape[1], self.classes_.shape[0], self.alpha_
        total = float(w.sum())
        self.value_counts_, self.joint_log_prob_, self.pair_log_prob_ = [], [], {}
        for i in range(d):
            Nci = _single_counts(codes, y_codes, w, K, self.n_values_, i)
            self.value_counts_.append(np.append(Nci.sum(axis=0), 0.0))
            padded = np.concatenate([Nci, np.zeros((K, 1))], axis=1)
            with np.errstate(divide="ignore"):
                self.joint_log_prob_.append(
                    np.log(padded + a) - np.log(total + a * K * self.n_values_[i]))
            for j in range(d):
                if j != i:
                    N = pair_counts(codes, y_codes, w, K, self.n_values_, i, j)
                    N = np.concatenate([N, np.zeros((K, 1, self.n_values_[j]))], axis=1)
                    self.pair_log_prob_[i, j] = laplace_log_table(
                        N, a, f"P(x_{j} | c, x_{i})")
        self.naive_bayes_ = fit_ode_tables(codes, y_codes, w, K, self.n_values_,
                                           np.full(d, NO_PARENT), a)
        self._set_loss()
        return self

    def _joint_log_likelihood(self, X: np.ndarray) -> np.ndarray:
        codes = self._codes(X)
        n, d = codes.shape
        K = self.classes_.shape[0]
        terms = np.full((d, n, K), -np.inf)
        for i in range(d):
            ok = self.value_counts_[i][codes[:, i]] >= max(self.min_support_, 1)
            if not np.any(ok):
                continue
            ci = codes[ok, i]
            t = self.joint_log_prob_[i][:, ci].T
            for j in range(d):
                if j != i:
                    t = t + self.pair_log_prob_[i, j][:, ci, codes[ok, j]].T
            terms[i, ok] = t
        jll = logsumexp(terms, axis=0)
        none = ~np.isfinite(jll).any(axis=1)
        if np.any(none):
            jll[none] = self.naive_bayes_.joint_log_likelihood(codes[none])
        return jll
