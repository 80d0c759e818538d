"""Generative semi-supervised learning, 003 §11.2 (11.1)-(11.6).

The data, labelled and unlabelled, are taken to come from one Gaussian mixture (11.1)
with one component per class. The parameters maximise the log-likelihood (11.4) of
``D_l`` (each labelled sample through its own class's component) and ``D_u`` (through
the whole mixture), by EM:

- E-step (11.5): the responsibilities ``gamma_ji`` of the unlabelled samples; a labelled
  sample belongs to its class's component with certainty;
- M-step (11.6): weighted means, covariances (about the new means) and weights in which
  the labelled samples of class i count with weight 1 for component i.

That M-step is the ordinary mixture M-step on the combined responsibilities, so the
model reuses the clustering family's :class:`~algorithms.clustering.GaussianMixtureEM`
for it and the bayes family's EM driver :func:`~algorithms.bayes.run_em`, which records
``LL(Theta^t)`` of every iterate. A sample is classified by (11.2): with component i
for class i, ``p(y = j | Theta = i, x) = [i = j]`` and the prediction is the class of
the largest posterior ``p(Theta = i | x)`` (11.3).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike
from scipy.special import logsumexp
from sklearn.base import BaseEstimator, ClassifierMixin

from algorithms._threads import blas_threads_for
from algorithms._validation import (
    UNLABELLED,
    check_int,
    check_real,
    check_squares_representable,
    make_rng,
    validate_features,
    validate_semi_supervised,
)
from algorithms.bayes import check_em_settings, record_em_result, run_em
from algorithms.clustering import GaussianMixtureEM, MixtureParams, MixtureStats

__all__ = ["SemiSupervisedData", "SemiSupervisedGaussianEM", "SemiSupervisedGaussianMixture"]

@dataclass(frozen=True)
class SemiSupervisedData:
    """What the EM model reads: ``X`` (m, n) and ``codes`` (m,), class index or -1."""

    X: np.ndarray
    codes: np.ndarray

    @property
    def shape(self) -> tuple[int, ...]:
        return self.X.shape


class SemiSupervisedGaussianEM:
    """The model of (11.4)-(11.6) for :func:`algorithms.bayes.run_em`.

    Parameters
    ----------
    n_classes : int
        ``N``, one Gaussian component per class.
    reg_covar : float, default=1e-6
        Added to the diagonal of every M-step covariance (>= 0).
    """

    def __init__(self, n_classes: int, *, reg_covar: float = 1e-6) -> None:
        self.n_classes = check_int(n_classes, "n_classes", low=2)
        self.reg_covar = check_real(reg_covar, "reg_covar", low=0.0)
        self._mixture = GaussianMixtureEM(self.n_classes, reg_covar=self.reg_covar)

    def _labelled_resp(self, data: SemiSupervisedData) -> np.ndarray:
        resp = np.zeros((data.X.shape[0], self.n_classes))
        lab = np.flatnonzero(data.codes != UNLABELLED)
        resp[lab, data.codes[lab]] = 1.0
        return resp

    def initialise(self, data: SemiSupervisedData, rng: np.random.Generator) -> MixtureParams:
        """The maximum-likelihood estimate from the labelled samples alone (the first
        M-step with no unlabelled responsibility). A class with fewer labelled samples
        than ``n_features + 1`` has no full-rank covariance of its own: it starts from the
        covariance of all samples, labelled and unlabelled."""
        X = data.X
        m, n = X.shape
        resp = self._labelled_resp(data)
        counts = resp.sum(axis=0)
        pooled = np.atleast_2d(np.cov(X.T, bias=True)) + self.reg_covar * np.eye(n)
        fallback = MixtureParams(np.full(self.n_classes, 1.0 / self.n_classes),
                                 np.zeros((self.n_classes, n)),
                                 np.broadcast_to(pooled, (self.n_classes, n, n)).copy())
        start = self._mixture.m_step(X, MixtureStats(resp, fallback))
        covs = start.covariances.copy()
        thin = counts < n + 1
        covs[thin] = pooled
        return MixtureParams(start.weights, start.means, covs)

    def e_step(self, data: SemiSupervisedData, params: MixtureParams
               ) -> tuple[MixtureStats, float]:
        """(11.5) for the unlabelled samples, certainty for the labelled ones, and the
        log-likelihood (11.4) of ``params``."""
        with blas_threads_for(data.X):
            joint = self._mixture.log_joint(data.X, params)
        k = self.n_classes
        if joint is None:
            return MixtureStats(np.full((data.X.shape[0], k), np.nan), params), -np.inf
        lab = data.codes != UNLABELLED
        norm = logsumexp(joint[~lab], axis=1)
        resp = self._labelled_resp(data)
        gamma = np.exp(joint[~lab] - norm[:, None])
        resp[~lab] = gamma / gamma.sum(axis=1, keepdims=True)
        ll = float(np.sum(joint[np.flatnonzero(lab), data.codes[lab]]) + np.sum(norm))
        return MixtureStats(resp, params), ll

    def m_step(self, data: SemiSupervisedData, stats: MixtureStats) -> MixtureParams:
        """(11.6): the mixture M-step on the combined responsibilities."""
        with blas_threads_for(data.X):
            return self._mixture.m_step(data.X, stats)


class SemiSupervisedGaussianMixture(ClassifierMixin, BaseEstimator):
    """Generative semi-supervised classifier of 003 §11.2: a Gaussian mixture with one
    component per class, fitted to labelled and unlabelled samples (``y = -1``) by EM.

    Parameters
    ----------
    reg_covar : float, default=1e-6
        Added to the diagonal of every covariance (keeps them positive definite).
    max_iter : int, default=100
        Maximum number of EM iterations (``ConvergenceWarning`` when reached).
    tol : float, default=1e-6
        Stop when one iteration changes the mean log-likelihood ``LL / m`` by less.
    random_state : None, int or Generator, default=None
        Unused by the deterministic start (the labelled MLE); kept for the protocol.

    Attributes
    ----------
    classes_ : ndarray
    weights_, means_, covariances_ : ndarray
        ``alpha_i``, ``mu_i``, ``Sigma_i`` of the component of ``classes_[i]``.
    log_likelihood_history_ : ndarray
        ``LL(Theta^t)`` of (11.4) for every iterate, recorded by the EM loop.
    log_likelihood_ : float
    n_iter_ : int
    converged_ : bool
    em_result_ : EMResult
    n_features_in_ : int
    """

    def __init__(self, *, reg_covar: float = 1e-6, max_iter: int = 100, tol: float = 1e-6,
                 random_state: object = None) -> None:
        self.reg_covar = reg_covar
        self.max_iter = max_iter
        self.tol = tol
        self.random_state = random_state

    def fit(self, X: ArrayLike, y: ArrayLike) -> SemiSupervisedGaussianMixture:
        """EM on ``X`` with the labels ``y`` (``-1`` marks the unlabelled samples)."""
        X, codes = validate_semi_supervised(self, X, y)
        check_squares_representable(X, "X", underflow=True)
        reg = check_real(self.reg_covar, "reg_covar", low=0.0)
        max_iter, tol, _ = check_em_settings(self.max_iter, self.tol, 1)
        model = SemiSupervisedGaussianEM(self.classes_.shape[0], reg_covar=reg)
        result = run_em(model, SemiSupervisedData(X, codes), max_iter=max_iter, tol=tol,
                        random_state=make_rng(self.random_state),
                        name=type(self).__name__)
        record_em_result(self, result)
        p = result.params
        self.weights_, self.means_, self.covariances_ = p.weights, p.means, p.covariances
        return self

    def _log_joint(self, X: ArrayLike) -> np.ndarray:
        X = validate_features(self, X, reset=False)
        model = GaussianMixtureEM(self.classes_.shape[0])
        joint = model.log_joint(X, MixtureParams(self.weights_, self.means_,
                                                 self.covariances_))
        if joint is None or not np.all(np.isfinite(joint)):
            raise ValueError("X lies too far from every component for a finite density; "
                             "rescale X.")
        return joint

    def predict_proba(self, X: ArrayLike) -> np.ndarray:
        """``p(Theta = i | x)`` of (11.3), one column per class."""
        joint = self._log_joint(X)
        return np.exp(joint - logsumexp(joint, axis=1, keepdims=True))

    def predict(self, X: ArrayLike) -> np.ndarray:
        """(11.2): the class whose component has the largest posterior."""
        joint = self._log_joint(X)
        return self.classes_[np.argmax(joint, axis=1)]

    def score_samples(self, X: ArrayLike) -> np.ndarray:
        """``ln p(x)`` of the mixture (11.1) for every row of ``X``."""
        return logsumexp(self._log_joint(X), axis=1)
