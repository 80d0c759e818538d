"""Maximum-likelihood estimation of class-conditional distributions (003 §5.3 (5.4)-(5.5)).

The log-likelihood of a class's data ``D_c`` is the sum ``LL(theta_c) = sum_{x in D_c}
log P(x | theta_c)`` (5.4) (a product of probabilities would underflow), and the
estimate is its maximiser (5.5). Closed forms: the Gaussian's sample mean and *biased*
covariance ``(1/|D_c|) sum (x - mu)(x - mu)^T``, the categorical's frequencies. Other
families go through :func:`maximum_likelihood`, a numerical optimiser of (5.4).
:class:`GaussianBayesClassifier` puts the Gaussian estimates into the Bayes decision.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import scipy.linalg
import scipy.optimize
from numpy.typing import ArrayLike

from algorithms._validation import (
    InvalidArgumentError,
    check_array_argument,
    check_codes,
    check_int,
    check_real,
    check_sample_weight,
    check_squares_representable,
    validate_classification,
)
from algorithms.bayes._base import BayesClassifierBase
from algorithms.bayes._decision import check_posteriors
from algorithms.bayes._naive_bayes import class_log_prior

__all__ = [
    "GaussianBayesClassifier",
    "categorical_log_likelihood",
    "categorical_mle",
    "gaussian_log_likelihood",
    "gaussian_log_pdf",
    "gaussian_mle",
    "maximum_likelihood",
]

_LOG_2PI = np.log(2.0 * np.pi)

#: The objective of :func:`maximum_likelihood` where the log-likelihood overflows, and
#: how many times the optimiser is restarted from its last point while it still improves.
_WORST_OBJECTIVE = 1e300
_MAX_RESTARTS = 5

#: Largest number of values of a categorical variable (a table of 2^24 float64 counts,
#: 128 MiB); more is refused rather than allocated.
MAX_VALUES = 2**24


def _weights(sample_weight: ArrayLike | None, n: int) -> np.ndarray:
    if sample_weight is None:
        return np.ones(n)
    w = check_array_argument(sample_weight, "sample_weight", shape=(n,), real=True)
    if np.any(w < 0) or w.sum() <= 0:
        raise ValueError("sample_weight must be non-negative with a positive sum.")
    return w


def gaussian_mle(X: ArrayLike, sample_weight: ArrayLike | None = None
                 ) -> tuple[np.ndarray, np.ndarray]:
    """(5.5) for a multivariate Gaussian: the (weighted) mean and biased covariance.

    Parameters
    ----------
    X : array of shape (m, d)
    sample_weight : array of shape (m,), optional

    Returns
    -------
    mean : ndarray of shape (d,)
    cov : ndarray of shape (d, d)
        ``sum_i w_i (x_i - mean)(x_i - mean)^T / sum_i w_i`` (divides by m, not m - 1).
    """
    X = check_array_argument(X, "X", ndim=2, real=True)
    w = _weights(sample_weight, X.shape[0])
    # only ratios of weights matter: an exact power-of-two rescaling (no rounding) keeps
    # w @ X from overflowing where X alone does not
    w = np.ldexp(w, -np.frexp(w.max())[1])
    mean = w @ X / w.sum()
    Z = check_squares_representable(X - mean, "X")
    return mean, (Z * w[:, None]).T @ Z / w.sum()


def numerically_singular(L: np.ndarray) -> bool:
    """True when the Cholesky factor ``L`` of a d x d matrix has squared pivot ratio
    below ``d * machine epsilon``: the matrix is singular to working precision (a
    rounding error may let the factorisation of an exactly singular matrix succeed)."""
    diag = np.abs(np.diag(L))
    return bool(diag.min() ** 2 <= L.shape[0] * np.finfo(float).eps * diag.max() ** 2)


def _cholesky(cov: ArrayLike, d: int, name: str = "cov") -> np.ndarray:
    C = check_array_argument(cov, name, shape=(d, d), real=True)
    message = (f"{name} must be symmetric positive definite (a singular covariance has no "
               "density).")
    try:
        L = scipy.linalg.cholesky(C, lower=True)
    except np.linalg.LinAlgError as exc:
        raise ValueError(message) from exc
    if numerically_singular(L):
        raise ValueError(message)
    return L


def gaussian_log_pdf(X: ArrayLike, mean: ArrayLike, cov: ArrayLike) -> np.ndarray:
    """``log N(x_i | mean, cov)`` for every row, shape (m,) (Cholesky, no inverse)."""
    X = check_array_argument(X, "X", ndim=2, real=True)
    d = X.shape[1]
    mu = check_array_argument(mean, "mean", shape=(d,), real=True)
    L = _cholesky(cov, d)
    Z = scipy.linalg.solve_triangular(L, (X - mu).T, lower=True)
    with np.errstate(over="ignore"):
        out = -0.5 * (d * _LOG_2PI + np.sum(Z**2, axis=0)) - np.sum(np.log(np.diag(L)))
    if not np.all(np.isfinite(out)):
        raise ValueError("X lies so far from mean in the metric of cov that log N(x | mean, "
                         "cov) is below the float64 range (the squared Mahalanobis distance "
                         "overflows); rescale X, mean and cov.")
    return out


def gaussian_log_likelihood(X: ArrayLike, mean: ArrayLike, cov: ArrayLike) -> float:
    """(5.4) ``LL = sum_i log N(x_i | mean, cov)``."""
    return float(np.sum(gaussian_log_pdf(X, mean, cov)))


def categorical_mle(x: ArrayLike, n_values: int, sample_weight: ArrayLike | None = None
                    ) -> np.ndarray:
    """(5.5) for a categorical variable with values ``0..n_values - 1``: the frequencies."""
    k = check_int(n_values, "n_values", low=1, high=MAX_VALUES)
    x_arr = check_array_argument(x, "x", ndim=1, dtype=None, real=True)
    codes = check_codes(x_arr, "x", x_arr.shape[0], k)
    w = _weights(sample_weight, codes.shape[0])
    counts = np.bincount(codes, weights=w, minlength=k)
    return counts / counts.sum()


def categorical_log_likelihood(x: ArrayLike, p: ArrayLike) -> float:
    """(5.4) ``LL = sum_i log p[x_i]`` (``-inf`` if some ``p[x_i] = 0``)."""
    prob = check_posteriors(check_array_argument(p, "p", ndim=1, real=True), "p")[0]
    x_arr = check_array_argument(x, "x", ndim=1, dtype=None, real=True)
    codes = check_codes(x_arr, "x", x_arr.shape[0], prob.shape[0])
    with np.errstate(divide="ignore"):
        return float(np.sum(np.log(prob[codes])))


def maximum_likelihood(
    log_pdf: Callable[[np.ndarray, np.ndarray], np.ndarray],
    data: ArrayLike,
    theta0: ArrayLike,
    *,
    bounds: list[tuple[float | None, float | None]] | None = None,
    tol: float = 1e-10,
) -> np.ndarray:
    """(5.5) by a numerical optimiser: ``argmax_theta sum_i log_pdf(data, theta)_i``.

    Parameters
    ----------
    log_pdf : callable
        ``log_pdf(data, theta)`` returns the per-sample log-densities.
    data : array
    theta0 : array of shape (p,)
        Starting point.
    bounds : list of (low, high), optional
        Box constraints (L-BFGS-B).
    tol : float
        Optimiser tolerance on the relative change of the objective.

    Returns
    -------
    ndarray of shape (p,)
    """
    if not callable(log_pdf):
        raise InvalidArgumentError(f"log_pdf must be a callable log_pdf(data, theta), got "
                                   f"{log_pdf!r}.")
    data = check_array_argument(data, "data", real=True)
    t0 = check_array_argument(theta0, "theta0", ndim=1, real=True)
    tol = check_real(tol, "tol", low=0.0, low_open=True)

    def objective(t: np.ndarray) -> float:
        with np.errstate(all="ignore"):
            value = -float(np.sum(log_pdf(data, t)))
        # a step of the line search into overflow (a scale parameter's exp) is a step
        # to a worse point, not a NaN that ends the search
        return value if np.isfinite(value) else _WORST_OBJECTIVE

    best = t0
    for _ in range(_MAX_RESTARTS):  # restarting resets the quasi-Newton memory
        res = scipy.optimize.minimize(objective, best, method="L-BFGS-B", bounds=bounds,
                                      options={"ftol": tol, "gtol": tol, "maxiter": 10_000})
        improved = objective(best) - res.fun > tol * max(1.0, abs(res.fun))
        best = np.asarray(res.x)
        if res.success and not improved:
            break
    return best


class GaussianBayesClassifier(BayesClassifierBase):
    """Bayes classifier with full-covariance Gaussian class conditionals fitted by (5.5).

    Parameters
    ----------
    var_smoothing : float, default=1e-9
        Added to the diagonal of every class covariance, as a fraction of the largest
        feature variance (so a class with fewer samples than features still has a
        density). ``0`` is plain maximum likelihood; a singular covariance is then
        refused (``ValueError``).
    priors : array of shape (n_classes,), optional
        Class priors; ``None`` uses the class frequencies (their ML estimate).
    loss : array of shape (n_classes, n_classes), optional
        Loss matrix for the minimum-risk decision (5.3); ``None`` is 0/1 loss.

    Attributes
    ----------
    means_ : ndarray of shape (n_classes, d)
    covariances_ : ndarray of shape (n_classes, d, d)
        Biased ML covariances (plus the smoothing).
    class_log_prior_ : ndarray of shape (n_classes,)
    """

    def __init__(self, *, var_smoothing=1e-9, priors=None, loss=None):
        self.var_smoothing = var_smoothing
        self.priors = priors
        self.loss = loss

    def fit(self, X: ArrayLike, y: ArrayLike, sample_weight: ArrayLike | None = None
            ) -> GaussianBayesClassifier:
        X, codes = validate_classification(self, X, y)
        # covariances are squares of the spread: refused, named, where they over/underflow
        check_squares_representable(X - X.mean(axis=0), "X", underflow=True)
        smoothing = check_real(self.var_smoothing, "var_smoothing", low=0.0)
        w = check_sample_weight(sample_weight, X)
        K, d = self.classes_.shape[0], X.shape[1]
        counts = np.bincount(codes, weights=w, minlength=K)
        if np.any(counts <= 0):
            raise ValueError("sample_weight must give every class a positive total weight.")
        self.class_log_prior_ = class_log_prior(counts, 0.0, self.priors)
        eps = smoothing * float(np.max(np.var(X, axis=0)))
        self.means_, self.covariances_ = np.zeros((K, d)), np.zeros((K, d, d))
        self._cholesky = np.zeros((K, d, d))
        for k in range(K):
            rows = codes == k
            self.means_[k], cov = gaussian_mle(X[rows], w[rows])
            self.covariances_[k] = cov + eps * np.eye(d)
            try:
                self._cholesky[k] = _cholesky(self.covariances_[k], d)
            except ValueError as exc:
                raise ValueError(
                    f"the covariance of class {self.classes_[k]!r} is singular (fewer samples "
                    "than dimensions, or collinear features); use var_smoothing > 0."
                ) from exc
        self._set_loss()
        return self

    def _joint_log_likelihood(self, X: np.ndarray) -> np.ndarray:
        K, d = self.means_.shape
        jll = np.empty((X.shape[0], K))
        for k in range(K):
            L = self._cholesky[k]
            Z = scipy.linalg.solve_triangular(L, (X - self.means_[k]).T, lower=True)
            jll[:, k] = (self.class_log_prior_[k] - 0.5 * (d * _LOG_2PI + np.sum(Z**2, axis=0))
                         - np.sum(np.log(np.diag(L))))
        return jll
