"""Gaussian-mixture clustering by EM (003 §7.4.3 (7.17)-(7.27), Fig 9.6).

The model plugs into the generic EM driver :func:`algorithms.bayes.run_em`
(003 §5.7 (5.14)-(5.15)) through :class:`GaussianMixtureEM`:

- E-step (7.19): ``gamma_ji = alpha_i p(x_j | mu_i, Sigma_i) / sum_l alpha_l p(x_j | mu_l,
  Sigma_l)``, computed as ``exp(log alpha_i + log p - logsumexp_l(...))``; the observed
  log-likelihood (7.21) ``LL = sum_j logsumexp_i(log alpha_i + log p(x_j | mu_i,
  Sigma_i))``, with ``log p`` from a Cholesky factor of ``Sigma_i`` (7.17);
- M-step (7.23), (7.24), (7.27) with the new means (Fig 9.6 lines 7-9)::

      N_i = sum_j gamma_ji,  mu_i' = sum_j gamma_ji x_j / N_i,  alpha_i' = N_i / m,
      Sigma_i' = sum_j gamma_ji (x_j - mu_i')(x_j - mu_i')^T / N_i + reg_covar I.

``reg_covar`` (scikit-learn's rule) keeps ``Sigma_i'`` positive definite when a component
collapses onto fewer than ``n + 1`` distinct points (the unregularised likelihood (7.21) is
unbounded there); ``reg_covar = 0`` is the notes' M-step exactly. A component whose
responsibilities all vanish (``N_i = 0``) gets ``alpha_i' = 0`` and keeps its mean and
covariance (``Q`` does not depend on them). A covariance that is not numerically positive
definite makes the E-step report ``LL = -inf``; the driver then stops, keeps the last
finite iterate and warns.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike
from scipy.linalg import solve_triangular
from scipy.special import logsumexp
from sklearn.base import BaseEstimator, ClusterMixin

from algorithms._threads import blas_threads_for
from algorithms._validation import (
    InvalidArgumentError,
    check_array_argument,
    check_bool,
    check_choice,
    check_fitted,
    check_int,
    check_real,
    check_squares_representable,
    make_rng,
    validate_features,
)
from algorithms.bayes import check_em_settings, record_em_result, run_em
from algorithms.clustering._kmeans import KMeans, check_n_clusters

__all__ = [
    "GMM_INITS",
    "GaussianMixtureClustering",
    "GaussianMixtureEM",
    "MixtureParams",
    "MixtureStats",
    "gaussian_log_density",
    "sample_mixture",
]

#: Initial responsibilities: one-hot k-means labels; uniform random responsibilities;
#: one-hot at ``k`` random samples (means at those samples). Given ``*_init`` arrays
#: override the corresponding parameters.
GMM_INITS = ("kmeans", "random", "random_from_data")

#: Largest sample drawn by :func:`sample_mixture` in one call (160 MiB of 2-d points).
MAX_SAMPLES = 10**7

#: Weights given as ``weights_init`` must sum to 1 up to this rounding slack.
_SIMPLEX_SLACK = 1e-8

@dataclass(frozen=True)
class MixtureParams:
    """``{(alpha_i, mu_i, Sigma_i)}``: weights (k,), means (k, n), covariances (k, n, n)."""

    weights: np.ndarray
    means: np.ndarray
    covariances: np.ndarray

    @property
    def n_components(self) -> int:
        return int(self.weights.shape[0])


@dataclass(frozen=True)
class MixtureStats:
    """What the E-step hands to the M-step: ``gamma`` (m, k) and the parameters it used."""

    resp: np.ndarray
    params: MixtureParams


def _cholesky(covariances: np.ndarray) -> np.ndarray | None:
    """Lower Cholesky factors of a stack of covariances, or None if one is not PD."""
    try:
        return np.linalg.cholesky(covariances)
    except np.linalg.LinAlgError:
        return None


def _log_densities(X: np.ndarray, means: np.ndarray, chol: np.ndarray) -> np.ndarray:
    """``log p(x_j | mu_i, Sigma_i)`` (7.17), (m, k), from ``Sigma_i = L_i L_i^T``."""
    m, n = X.shape
    out = np.empty((m, means.shape[0]))
    for i in range(means.shape[0]):
        z = solve_triangular(chol[i], (X - means[i]).T, lower=True, check_finite=False)
        log_det = 2.0 * np.sum(np.log(np.diag(chol[i])))
        out[:, i] = -0.5 * (n * math.log(2.0 * math.pi) + log_det + np.einsum("ij,ij->j", z, z))
    return out


def gaussian_log_density(X: ArrayLike, mean: ArrayLike, covariance: ArrayLike) -> np.ndarray:
    """``log p(x | mu, Sigma)`` of (7.17) for each row of ``X``.

    Parameters
    ----------
    X : array-like of shape (m, n)
    mean : array-like of shape (n,)
    covariance : array-like of shape (n, n)
        Symmetric positive definite.

    Returns
    -------
    ndarray of shape (m,)

    References
    ----------
    003 §7.4.3 (7.17).
    """
    X = check_array_argument(X, "X", ndim=2, real=True)
    n = X.shape[1]
    mu = check_array_argument(mean, "mean", shape=(n,), real=True)
    cov = check_array_argument(covariance, "covariance", shape=(n, n), real=True)
    chol = _cholesky(cov[None])
    if chol is None or not np.allclose(cov, cov.T):
        raise ValueError("covariance must be symmetric positive definite.")
    with np.errstate(over="ignore"):
        out = _log_densities(X, mu[None], chol)[:, 0]
    if not np.all(np.isfinite(out)):
        raise ValueError("X lies so far from mean in the metric of covariance that the log "
                         "density is below the float64 range (the squared Mahalanobis "
                         "distance overflows); rescale X, mean and covariance.")
    return out


def sample_mixture(params: MixtureParams, n_samples: int, rng: np.random.Generator
                   ) -> tuple[np.ndarray, np.ndarray]:
    """The two-step generative process of §7.4.3: draw a component ``z`` with probability
    ``alpha_z``, then ``x ~ N(mu_z, Sigma_z)``. Returns ``(X, z)``.

    ``n_samples`` is at most :data:`MAX_SAMPLES`; ``rng`` is anything
    :func:`numpy.random.default_rng` accepts.
    """
    if not isinstance(params, MixtureParams):
        raise InvalidArgumentError(f"params must be a MixtureParams, got {params!r}.")
    n_samples = check_int(n_samples, "n_samples", low=0, high=MAX_SAMPLES)
    rng = make_rng(rng, "rng")
    z = rng.choice(params.n_components, size=n_samples, p=params.weights)
    chol = np.linalg.cholesky(params.covariances)
    noise = rng.standard_normal((n_samples, params.means.shape[1]))
    return params.means[z] + np.einsum("jab,jb->ja", chol[z], noise), z


class GaussianMixtureEM:
    """The Gaussian mixture as a latent-variable model for :func:`algorithms.bayes.run_em`.

    Parameters
    ----------
    n_components : int
        ``k``.
    reg_covar : float, default=1e-6
        Added to the diagonal of every M-step covariance (>= 0).
    init : {"kmeans", "random", "random_from_data"}, default="kmeans"
        See :data:`GMM_INITS`.
    weights_init, means_init, covariances_init : array-like, optional
        Starting values overriding the ones derived from ``init``.
    """

    def __init__(self, n_components: int, *, reg_covar: float = 1e-6, init: str = "kmeans",
                 weights_init: ArrayLike | None = None, means_init: ArrayLike | None = None,
                 covariances_init: ArrayLike | None = None) -> None:
        self.n_components = check_int(n_components, "n_components", low=1)
        self.reg_covar = check_real(reg_covar, "reg_covar", low=0.0)
        self.init = check_choice(init, "init", GMM_INITS)
        self.weights_init = weights_init
        self.means_init = means_init
        self.covariances_init = covariances_init

    # -- starting point ------------------------------------------------------------

    def _initial_resp(self, X: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        m, k = X.shape[0], self.n_components
        if self.init == "random":
            resp = rng.uniform(size=(m, k))
            return resp / resp.sum(axis=1, keepdims=True)
        if self.init == "kmeans":
            labels = KMeans(k, init="k-means++", random_state=rng).fit(X).labels_
        else:
            labels = np.full(m, -1)
            labels[rng.choice(m, size=k, replace=False)] = np.arange(k)
        resp = np.zeros((m, k))
        hit = labels >= 0
        resp[np.flatnonzero(hit), labels[hit]] = 1.0
        return resp

    def _fallback(self, X: np.ndarray, rng: np.random.Generator) -> MixtureParams:
        """Components without initial members: a random sample as mean, the data's
        covariance, weight 1/k before renormalising."""
        k, n = self.n_components, X.shape[1]
        cov = np.atleast_2d(np.cov(X.T, bias=True)) + self.reg_covar * np.eye(n)
        means = X[rng.choice(X.shape[0], size=k, replace=X.shape[0] < k)]
        return MixtureParams(np.full(k, 1.0 / k), means, np.broadcast_to(cov, (k, n, n)).copy())

    def initialise(self, X: np.ndarray, rng: np.random.Generator) -> MixtureParams:
        """A starting point: an M-step on the initial responsibilities, then the given
        ``*_init`` arrays."""
        k, n = self.n_components, X.shape[1]
        resp = self._initial_resp(X, rng)
        start = self.m_step(X, MixtureStats(resp, self._fallback(X, rng)))
        weights, means, covs = start.weights.copy(), start.means, start.covariances
        dead = resp.sum(axis=0) == 0
        if np.any(dead) and self.weights_init is None:  # give unseeded components a weight
            weights[dead] = 1.0 / k
            weights /= weights.sum()
        if self.weights_init is not None:
            weights = check_array_argument(self.weights_init, "weights_init", shape=(k,))
            if np.any(weights < 0) or abs(float(weights.sum()) - 1.0) > _SIMPLEX_SLACK:
                raise ValueError("weights_init must be non-negative and sum to 1.")
        if self.means_init is not None:
            means = check_array_argument(self.means_init, "means_init", shape=(k, n))
        if self.covariances_init is not None:
            covs = check_array_argument(self.covariances_init, "covariances_init",
                                        shape=(k, n, n))
            if not np.allclose(covs, np.swapaxes(covs, 1, 2)) or _cholesky(covs) is None:
                raise ValueError("covariances_init must be symmetric positive definite "
                                 "(a singular covariance has no density (7.17)).")
        return MixtureParams(np.array(weights, dtype=float), np.array(means, dtype=float),
                             np.array(covs, dtype=float))

    # -- E and M steps ---------------------------------------------------------------

    def log_joint(self, X: np.ndarray, params: MixtureParams) -> np.ndarray | None:
        """``log alpha_i + log p(x_j | mu_i, Sigma_i)`` (m, k); None if a covariance is not
        positive definite."""
        chol = _cholesky(params.covariances)
        if chol is None:
            return None
        with np.errstate(divide="ignore"):
            return _log_densities(X, params.means, chol) + np.log(params.weights)

    def e_step(self, X: np.ndarray, params: MixtureParams) -> tuple[MixtureStats, float]:
        """``gamma`` (7.19) by log-sum-exp and ``LL`` (7.21) of ``params``."""
        joint = self.log_joint(X, params)
        if joint is None:
            return MixtureStats(np.full((X.shape[0], params.n_components), np.nan), params), \
                -math.inf
        norm = logsumexp(joint, axis=1)
        resp = np.exp(joint - norm[:, None])
        # log-densities of size L carry ~1e-16 L absolute error, so with tiny variances
        # (L ~ 1e9) the rows of exp(joint - norm) miss 1 by ~1e-7: make them sum to 1
        resp /= resp.sum(axis=1, keepdims=True)
        return MixtureStats(resp, params), float(norm.sum())

    def m_step(self, X: np.ndarray, stats: MixtureStats) -> MixtureParams:
        """(7.23), (7.24) with the new means, (7.27); ``reg_covar`` on the diagonal."""
        resp, old = stats.resp, stats.params
        m, n = X.shape
        N = resp.sum(axis=0)
        alive = N > 0
        means = old.means.copy()
        means[alive] = (resp[:, alive].T @ X) / N[alive, None]
        covs = old.covariances.copy()
        for i in np.flatnonzero(alive):
            diff = X - means[i]
            cov = (resp[:, i, None] * diff).T @ diff / N[i]
            cov = 0.5 * (cov + cov.T)
            cov.flat[:: n + 1] += self.reg_covar
            covs[i] = cov
        # (7.27) N_i / m, written N_i / sum_l N_l so that the weights sum to 1 exactly in
        # float64 (otherwise the next iterate is not a mixture and LL can seem to drop)
        return MixtureParams(N / N.sum(), means, covs)


class GaussianMixtureClustering(ClusterMixin, BaseEstimator):
    """Gaussian-mixture clustering by EM (003 §7.4.3, Fig 9.6) on the generic EM driver.

    Parameters
    ----------
    n_clusters : int, default=1
        ``k``, the number of mixture components (= clusters).
    reg_covar : float, default=1e-6
        Added to the diagonal of each M-step covariance (>= 0; 0 is the notes' EM).
    max_iter : int, default=100
        Maximum number of EM iterations per run.
    tol : float, default=1e-3
        Converged when an iteration changes ``LL / m`` by less than ``tol``.
    n_init : int, default=1
        Restarts; the run with the largest final ``LL`` is kept.
    init_params : {"kmeans", "random", "random_from_data"}, default="kmeans"
    weights_init, means_init, covariances_init : array-like, optional
        Starting parameters (shapes (k,), (k, n), (k, n, n)); they override ``init_params``.
    keep_history : bool, default=False
        Keep every iterate of every run (``em_result_.runs[r].params_history``).
    random_state : None, int or Generator, default=None

    Attributes
    ----------
    weights_, means_, covariances_ : ndarray
        ``alpha_i``, ``mu_i``, ``Sigma_i`` of the best run.
    labels_ : ndarray of shape (m,)
        ``lambda_j = argmax_i gamma_ji`` (7.20) at the final parameters.
    log_likelihood_ : float
        ``LL(D)`` (7.21) of the final parameters.
    log_likelihood_history_ : ndarray
        ``LL`` of every iterate of the best run, recorded by the driver's loop.
    em_result_ : algorithms.bayes.EMResult
        Every run (starting point, trace, stop reason).
    converged_ : bool
    n_iter_ : int
    n_features_in_ : int

    References
    ----------
    003 §7.4.3 (7.17)-(7.27), Fig 9.6; the driver: 003 §5.7 (5.14)-(5.15).
    """

    def __init__(self, n_clusters: int = 1, *, reg_covar: float = 1e-6, max_iter: int = 100,
                 tol: float = 1e-3, n_init: int = 1, init_params: str = "kmeans",
                 weights_init: ArrayLike | None = None, means_init: ArrayLike | None = None,
                 covariances_init: ArrayLike | None = None, keep_history: bool = False,
                 random_state: object = None) -> None:
        self.n_clusters = n_clusters
        self.reg_covar = reg_covar
        self.max_iter = max_iter
        self.tol = tol
        self.n_init = n_init
        self.init_params = init_params
        self.weights_init = weights_init
        self.means_init = means_init
        self.covariances_init = covariances_init
        self.keep_history = keep_history
        self.random_state = random_state

    def _model(self, n_samples: int) -> GaussianMixtureEM:
        return GaussianMixtureEM(
            check_n_clusters(self.n_clusters, n_samples),
            reg_covar=check_real(self.reg_covar, "reg_covar", low=0.0),
            init=check_choice(self.init_params, "init_params", GMM_INITS),
            weights_init=self.weights_init, means_init=self.means_init,
            covariances_init=self.covariances_init)

    def fit(self, X: ArrayLike, y: object = None) -> GaussianMixtureClustering:
        """Run EM on ``X`` (m, n) (``n_init`` runs); ``y`` is ignored."""
        X = validate_features(self, X, reset=True)
        # covariances are squares of the spread: refused, named, where they overflow
        check_squares_representable(X - X.mean(axis=0), "X")
        model = self._model(X.shape[0])
        max_iter, tol, n_init = check_em_settings(self.max_iter, self.tol, self.n_init)
        keep = check_bool(self.keep_history, "keep_history")
        with blas_threads_for(X):
            result = run_em(model, X, max_iter=max_iter, tol=tol, n_init=n_init,
                            random_state=make_rng(self.random_state), keep_params=keep,
                            name="GaussianMixtureClustering")
        params = result.params
        self.weights_, self.means_, self.covariances_ = (params.weights, params.means,
                                                         params.covariances)
        self._em_model = model
        record_em_result(self, result)
        self.labels_ = self.predict(X)
        return self

    def _params(self) -> MixtureParams:
        return MixtureParams(self.weights_, self.means_, self.covariances_)

    def _joint(self, X: ArrayLike) -> np.ndarray:
        X = validate_features(self, X, reset=False)
        return self._em_model.log_joint(X, self._params())

    def score_samples(self, X: ArrayLike) -> np.ndarray:
        """``ln p_M(x)`` (7.18) of each row."""
        return logsumexp(self._joint(X), axis=1)

    def score(self, X: ArrayLike, y: object = None) -> float:
        """Mean log-likelihood ``LL / m`` (7.21)."""
        return float(np.mean(self.score_samples(X)))

    def predict_proba(self, X: ArrayLike) -> np.ndarray:
        """``gamma_ji`` (7.19), by log-sum-exp."""
        joint = self._joint(X)
        return np.exp(joint - logsumexp(joint, axis=1, keepdims=True))

    def predict(self, X: ArrayLike) -> np.ndarray:
        """``lambda_j = argmax_i gamma_ji`` (7.20)."""
        return np.argmax(self._joint(X), axis=1).astype(np.int64)

    def sample(self, n_samples: int = 1, *, random_state: object = None
               ) -> tuple[np.ndarray, np.ndarray]:
        """Draw from the two-step generative process of §7.4.3: a component ``z`` with
        probability ``alpha_z``, then ``x ~ N(mu_z, Sigma_z)``. Returns ``(X, z)``."""
        check_fitted(self)
        n_samples = check_int(n_samples, "n_samples", low=1)
        return sample_mixture(self._params(), n_samples, make_rng(random_state))
