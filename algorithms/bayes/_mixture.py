"""A mixture of categoricals - naive Bayes with a hidden class - fitted by EM
(003 §5.7 (5.14)-(5.15)) on the generic driver.

The model: a hidden class ``z`` in ``1..K`` with ``P(z = k) = pi_k``, and attributes
independent given ``z``: ``P(x | z = k) = prod_j theta_{k j x_j}``. The observed-data
log-likelihood is ``LL = sum_i log sum_k pi_k prod_j theta_{k j x_ij}`` (log-sum-exp).

- E-step: responsibilities ``gamma_ik = P(z_i = k | x_i, Theta^t)``, the posterior that
  makes ``Q(Theta | Theta^t) = sum_i sum_k gamma_ik [log pi_k + sum_j log
  theta_{k j x_ij}]`` (5.14);
- M-step (5.15): ``pi_k = sum_i gamma_ik / m``, ``theta_{k j v} = (sum_i gamma_ik
  [x_ij = v] + alpha) / (sum_i gamma_ik + alpha n_j)``. A component with no
  responsibility keeps ``pi_k = 0`` and gets uniform ``theta`` (any value maximises Q).

``alpha > 0`` turns the fit into MAP estimation under a symmetric Dirichlet(alpha + 1)
prior on each ``theta_{k j}``; the recorded objective is then ``LL + alpha sum log
theta``, which EM increases. ``assignment="hard"`` replaces the posterior by its mode
(each sample entirely to its most probable component): the first description of EM in
the notes (plug in the most probable ``Z``), kept to show that it is not EM.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike
from scipy.sparse import csr_array
from scipy.special import logsumexp
from sklearn.base import BaseEstimator, DensityMixin

from algorithms._validation import (
    InvalidArgumentError,
    check_choice,
    check_int,
    check_real,
    validate_features,
)
from algorithms.bayes._base import category_codes, check_alpha, encode_categories
from algorithms.bayes._em import check_em_settings, record_em_result, run_em

__all__ = [
    "ASSIGNMENTS",
    "CategoricalMixture",
    "CategoricalMixtureModel",
    "EncodedCategories",
    "MixtureParams",
]

#: E-step variants: the posterior of the hidden class (EM) or its mode (hard EM).
ASSIGNMENTS = ("soft", "hard")


@dataclass
class EncodedCategories:
    """Categorical data as codes and as a sparse one-hot matrix (n, sum_j n_j)."""

    codes: np.ndarray
    n_values: list[int]
    onehot: csr_array

    @classmethod
    def from_codes(cls, codes: np.ndarray, n_values: list[int]) -> EncodedCategories:
        n, d = codes.shape
        offsets = np.concatenate([[0], np.cumsum(n_values)[:-1]]).astype(np.intp)
        valid = codes < np.asarray(n_values)  # an unseen value (code n_j) is left out
        cols = (codes + offsets)[valid]
        rows = np.repeat(np.arange(n), d).reshape(n, d)[valid]
        onehot = csr_array((np.ones(cols.shape[0]), (rows, cols)), shape=(n, int(sum(n_values))))
        return cls(codes, list(n_values), onehot)

    def __len__(self) -> int:
        return self.codes.shape[0]


@dataclass
class MixtureParams:
    """``weights`` (K,) and ``theta``: one (K, n_j) table per attribute."""

    weights: np.ndarray
    theta: list[np.ndarray]


class CategoricalMixtureModel:
    """The :class:`~algorithms.bayes.LatentVariableModel` of a mixture of categoricals."""

    def __init__(self, n_components: int, n_values: list[int], alpha: float = 0.0,
                 assignment: str = "soft") -> None:
        self.n_components = check_int(n_components, "n_components", low=1)
        if isinstance(n_values, str | bytes) or np.ndim(n_values) != 1:
            raise InvalidArgumentError(f"n_values must be a sequence of ints, got {n_values!r}.")
        self.n_values = [check_int(v, "n_values", low=1) for v in n_values]
        self.alpha = check_real(alpha, "alpha", low=0.0)
        self.assignment = check_choice(assignment, "assignment", ASSIGNMENTS)

    def log_joint(self, data: EncodedCategories, params: MixtureParams) -> np.ndarray:
        """``log pi_k + sum_j log theta_{k j x_ij}``, shape (n, K)."""
        with np.errstate(divide="ignore"):
            log_theta = np.log(np.concatenate(params.theta, axis=1))  # (K, sum n_j)
            log_w = np.log(params.weights)
        # the sparse product touches only the cells each sample hits: log 0 = -inf
        # enters exactly where a sample has a zero-probability value
        return np.asarray(data.onehot @ log_theta.T) + log_w

    def log_prior(self, params: MixtureParams) -> float:
        """``alpha sum log theta`` (0 when ``alpha = 0``)."""
        if self.alpha == 0.0:
            return 0.0
        return float(self.alpha * sum(np.sum(np.log(t)) for t in params.theta))

    def initialise(self, data: EncodedCategories, rng: np.random.Generator) -> MixtureParams:
        """The M-step of random responsibilities (uniform draws, normalised per sample)."""
        resp = rng.random((len(data), self.n_components))
        return self.m_step(data, resp / resp.sum(axis=1, keepdims=True))

    def e_step(self, data: EncodedCategories, params: MixtureParams) -> tuple[np.ndarray, float]:
        jll = self.log_joint(data, params)
        log_px = logsumexp(jll, axis=1, keepdims=True)
        ll = float(np.sum(log_px)) + self.log_prior(params)
        with np.errstate(invalid="ignore"):
            resp = np.exp(jll - log_px)
        # rows sum to 1 only up to the rounding of the log-sum-exp; renormalised so that
        # the M-step sees a distribution per sample (as the GMM's E-step does)
        resp /= resp.sum(axis=1, keepdims=True)
        if self.assignment == "hard":
            resp = np.eye(self.n_components)[np.argmax(jll, axis=1)]
        return resp, ll

    def m_step(self, data: EncodedCategories, resp: np.ndarray) -> MixtureParams:
        Nk = resp.sum(axis=0)
        weights = Nk / Nk.sum()
        counts = np.asarray(data.onehot.T @ resp).T  # (K, sum n_j)
        theta, start = [], 0
        for n_j in self.n_values:
            block = counts[:, start:start + n_j] + self.alpha
            tot = block.sum(axis=1, keepdims=True)
            theta.append(np.where(tot > 0, block / np.where(tot > 0, tot, 1.0), 1.0 / n_j))
            start += n_j
        return MixtureParams(weights, theta)


class CategoricalMixture(DensityMixin, BaseEstimator):
    """Mixture of categoricals (naive Bayes with a hidden class) by EM.

    Parameters
    ----------
    n_components : int, default=2
    alpha : float, default=0.0
        Dirichlet smoothing of ``theta`` (MAP-EM); 0 is maximum likelihood.
    assignment : {"soft", "hard"}, default="soft"
        "soft" is EM; "hard" assigns each sample to its most probable component (the
        notes' first description; it does not keep the likelihood from decreasing).
    max_iter : int, default=100
    tol : float, default=1e-3
        Convergence when the mean log-likelihood changes by less than ``tol``.
    n_init : int, default=1
        Restarts; the best final log-likelihood is kept.
    random_state : None, int or Generator

    Attributes
    ----------
    weights_ : ndarray of shape (n_components,)
    theta_ : list of ndarray of shape (n_components, n_values_j)
        ``P(x_j = v | z = k)`` for the values ``category_values_[j]``.
    category_values_ : list of ndarray
    converged_, n_iter_ : bool, int
    log_likelihood_ : float
        Final (total) observed log-likelihood (plus the log-prior when ``alpha > 0``).
    log_likelihood_history_ : ndarray
        ``LL(Theta^t | X)`` for ``t = 0..n_iter_``, recorded by the EM loop.
    em_result_ : EMResult
        Every restart's run.
    labels_ : ndarray of shape (n,)
        Most probable component of each training sample.
    """

    def __init__(self, n_components=2, *, alpha=0.0, assignment="soft", max_iter=100,
                 tol=1e-3, n_init=1, random_state=None):
        self.n_components = n_components
        self.alpha = alpha
        self.assignment = assignment
        self.max_iter = max_iter
        self.tol = tol
        self.n_init = n_init
        self.random_state = random_state

    def _model(self) -> CategoricalMixtureModel:
        return CategoricalMixtureModel(self.n_components_, self.n_values_, self.alpha_,
                                       self.assignment_)

    def fit(self, X: ArrayLike, y: object = None, initial_params: list | None = None
            ) -> CategoricalMixture:
        """Fit by EM.

        Parameters
        ----------
        X : array of shape (n, d)
            Categorical data (each distinct value of a column is a category).
        y : ignored
        initial_params : list of MixtureParams, optional
            Starting points for the first restarts (encoded against the sorted values of
            each column of ``X``).
        """
        X = validate_features(self, X, reset=True)
        self.n_components_ = check_int(self.n_components, "n_components", low=1,
                                       high=X.shape[0])
        self.alpha_ = check_alpha(self.alpha)
        self.assignment_ = check_choice(self.assignment, "assignment", ASSIGNMENTS)
        max_iter, tol, n_init = check_em_settings(self.max_iter, self.tol, self.n_init)
        self.category_values_, codes = encode_categories(X)
        self.n_values_ = [v.shape[0] for v in self.category_values_]
        data = EncodedCategories.from_codes(codes, self.n_values_)
        result = run_em(self._model(), data, max_iter=max_iter, tol=tol, n_init=n_init,
                        random_state=self.random_state, initial_params=initial_params,
                        name=type(self).__name__)
        record_em_result(self, result)
        self.weights_ = result.params.weights
        self.theta_ = result.params.theta
        self.labels_ = np.argmax(self._model().log_joint(data, result.params), axis=1)
        return self

    def fit_predict(self, X: ArrayLike, y: object = None) -> np.ndarray:
        return self.fit(X).labels_

    def _encode(self, X: object) -> EncodedCategories:
        X = validate_features(self, X, reset=False)
        return EncodedCategories.from_codes(category_codes(self.category_values_, X),
                                            self.n_values_)

    def _params(self) -> MixtureParams:
        return MixtureParams(self.weights_, self.theta_)

    def predict_proba(self, X: ArrayLike) -> np.ndarray:
        """``P(z = k | x)``; a value not seen in training is treated as missing
        (marginalised out), shape (n, n_components)."""
        data = self._encode(X)
        jll = self._model().log_joint(data, self._params())
        return np.exp(jll - logsumexp(jll, axis=1, keepdims=True))

    def predict(self, X: ArrayLike) -> np.ndarray:
        """The most probable component of each sample."""
        return np.argmax(self.predict_proba(X), axis=1)

    def score_samples(self, X: ArrayLike) -> np.ndarray:
        """``log P(x)`` per sample (``-inf`` for a value not seen in training)."""
        data = self._encode(X)
        out = logsumexp(self._model().log_joint(data, self._params()), axis=1)
        unseen = np.any(data.codes == np.asarray(self.n_values_), axis=1)
        return np.where(unseen, -np.inf, out)

    def score(self, X: ArrayLike, y: object = None) -> float:
        """Mean log-likelihood per sample."""
        return float(np.mean(self.score_samples(X)))
