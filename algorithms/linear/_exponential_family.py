"""Exponential-family members used as GLMs: p(y; eta) = b(y) exp(eta . T(y) - a(eta)).

References
----------
004 §2.2 (the family's form), §2.3.1 (Gaussian), §2.3.2 (Bernoulli), §2.3.3
(categorical, "multivariate Bernoulli", with the K-1 dimensional T(y) and
eta_i = ln(phi_i / phi_K)).

Every family works on a natural-parameter array ``eta`` of shape (N, q) and a
sufficient-statistic array ``T`` of shape (N, q); ``q = 1`` for the Gaussian and the
Bernoulli, ``q = K - 1`` for the categorical. Log-partitions use ``logaddexp`` /
log-sum-exp so they never overflow.
"""

from __future__ import annotations

import numpy as np
from scipy.special import expit, logit, logsumexp, softmax

from algorithms._validation import check_int, check_real

__all__ = ["BernoulliFamily", "CategoricalFamily", "ExponentialFamily", "GaussianFamily"]


class ExponentialFamily:
    """Interface: ``log b(y)``, ``T(y)``, ``a(eta)``, its gradient (the mean) and Hessian."""

    name = "abstract"
    n_natural = 1

    def sufficient_statistic(self, y: np.ndarray) -> np.ndarray:
        """``T(y)`` of shape (N, q)."""
        raise NotImplementedError

    def log_base_measure(self, y: np.ndarray) -> np.ndarray:
        """``ln b(y)`` of shape (N,)."""
        raise NotImplementedError

    def log_partition(self, eta: np.ndarray) -> np.ndarray:
        """``a(eta)`` of shape (N,) for ``eta`` of shape (N, q)."""
        raise NotImplementedError

    def mean(self, eta: np.ndarray) -> np.ndarray:
        """``grad a(eta) = E[T(y)]`` of shape (N, q) (the inverse canonical link)."""
        raise NotImplementedError

    def variance(self, eta: np.ndarray) -> np.ndarray:
        """``Hessian a(eta) = Cov[T(y)]`` of shape (N, q, q)."""
        raise NotImplementedError

    def canonical_link(self, mu: np.ndarray) -> np.ndarray:
        """``g(mu) = eta``: the inverse of :meth:`mean`."""
        raise NotImplementedError

    def log_density(self, y: np.ndarray, eta: np.ndarray) -> np.ndarray:
        """``ln p(y; eta) = ln b(y) + eta . T(y) - a(eta)``, shape (N,)."""
        return self.log_base_measure(y) + self.natural_terms(eta, self.sufficient_statistic(y))

    def natural_terms(self, eta: np.ndarray, T: np.ndarray) -> np.ndarray:
        """``eta . T - a(eta)`` per sample, shape (N,). Families whose two parts cancel
        (a well-fitted sample with a large score) override it with a cancellation-free
        form."""
        return np.sum(eta * T, axis=1) - self.log_partition(eta)

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"


class GaussianFamily(ExponentialFamily):
    """Normal with known sigma, 004 §2.3.1.

    ``b(y) = exp(-y^2 / (2 sigma^2)) / (sqrt(2 pi) sigma)``, ``T(y) = y``,
    ``eta = mu / sigma^2`` and ``a = mu^2 / (2 sigma^2) = sigma^2 eta^2 / 2`` as a
    function of eta; the mean is ``a'(eta) = sigma^2 eta = mu``.
    """

    name = "gaussian"
    n_natural = 1

    def __init__(self, sigma: float = 1.0) -> None:
        self.sigma = check_real(sigma, "sigma", low=0.0, low_open=True)

    def sufficient_statistic(self, y: np.ndarray) -> np.ndarray:
        return np.asarray(y, dtype=float).reshape(-1, 1)

    def log_base_measure(self, y: np.ndarray) -> np.ndarray:
        y = np.asarray(y, dtype=float).reshape(-1)
        s2 = self.sigma**2
        return -(y**2) / (2 * s2) - np.log(np.sqrt(2 * np.pi) * self.sigma)

    def log_partition(self, eta: np.ndarray) -> np.ndarray:
        return 0.5 * self.sigma**2 * eta[:, 0] ** 2

    def mean(self, eta: np.ndarray) -> np.ndarray:
        return self.sigma**2 * eta

    def variance(self, eta: np.ndarray) -> np.ndarray:
        return np.full((eta.shape[0], 1, 1), self.sigma**2)

    def canonical_link(self, mu: np.ndarray) -> np.ndarray:
        return np.asarray(mu, dtype=float) / self.sigma**2

    def __repr__(self) -> str:
        return f"GaussianFamily(sigma={self.sigma!r})"


class BernoulliFamily(ExponentialFamily):
    """Bernoulli with ``y in {0, 1}``, 004 §2.3.2.

    ``b(y) = 1``, ``T(y) = y``, ``eta = ln(phi / (1 - phi))``,
    ``a = -ln(1 - phi) = ln(1 + e^eta)``; mean ``phi = 1 / (1 + e^{-eta})``.
    """

    name = "bernoulli"
    n_natural = 1

    def sufficient_statistic(self, y: np.ndarray) -> np.ndarray:
        return np.asarray(y, dtype=float).reshape(-1, 1)

    def log_base_measure(self, y: np.ndarray) -> np.ndarray:
        return np.zeros(np.asarray(y).reshape(-1).shape[0])

    def log_partition(self, eta: np.ndarray) -> np.ndarray:
        return np.logaddexp(0.0, eta[:, 0])

    def natural_terms(self, eta: np.ndarray, T: np.ndarray) -> np.ndarray:
        # eta T - ln(1 + e^eta) = -ln(1 + e^{(1 - 2T) eta}) for T in {0, 1}: no cancellation
        return -np.logaddexp(0.0, (1.0 - 2.0 * T[:, 0]) * eta[:, 0])

    def mean(self, eta: np.ndarray) -> np.ndarray:
        return expit(eta)

    def variance(self, eta: np.ndarray) -> np.ndarray:
        p = expit(eta)
        return (p * (1.0 - p)).reshape(-1, 1, 1)

    def canonical_link(self, mu: np.ndarray) -> np.ndarray:
        return logit(np.asarray(mu, dtype=float))


class CategoricalFamily(ExponentialFamily):
    """Categorical over classes coded ``0..K-1`` with the last class as reference, 004 §2.3.3.

    ``T(y)`` is the (K-1)-vector with ``T(y)_i = I(y = i)`` (``T(K) = 0``), ``b(y) = 1``,
    ``eta_i = ln(phi_i / phi_K)`` and ``a = -ln phi_K = ln(1 + sum_i e^{eta_i})``; the mean
    is ``phi_i = e^{eta_i} / (1 + sum_j e^{eta_j})`` for ``i < K``.
    """

    name = "categorical"

    def __init__(self, n_classes: int) -> None:
        self.n_classes = check_int(n_classes, "n_classes", low=2, integral_floats=True)
        self.n_natural = self.n_classes - 1

    def sufficient_statistic(self, y: np.ndarray) -> np.ndarray:
        codes = np.asarray(y).reshape(-1).astype(int)
        if codes.size and (codes.min() < 0 or codes.max() >= self.n_classes):
            raise ValueError(f"y must hold class codes in 0..{self.n_classes - 1}")
        T = np.zeros((codes.size, self.n_natural))
        mask = codes < self.n_natural
        T[np.flatnonzero(mask), codes[mask]] = 1.0
        return T

    def log_base_measure(self, y: np.ndarray) -> np.ndarray:
        return np.zeros(np.asarray(y).reshape(-1).shape[0])

    @staticmethod
    def _full(eta: np.ndarray) -> np.ndarray:
        return np.hstack([eta, np.zeros((eta.shape[0], 1))])

    def log_partition(self, eta: np.ndarray) -> np.ndarray:
        return logsumexp(self._full(eta), axis=1)

    def natural_terms(self, eta: np.ndarray, T: np.ndarray) -> np.ndarray:
        # eta_y - logsumexp(eta) = -logsumexp(eta - eta_y): no cancellation of large scores
        observed = np.sum(eta * T, axis=1, keepdims=True)
        return -logsumexp(self._full(eta) - observed, axis=1)

    def probabilities(self, eta: np.ndarray) -> np.ndarray:
        """All K class probabilities, shape (N, K)."""
        return softmax(self._full(eta), axis=1)

    def mean(self, eta: np.ndarray) -> np.ndarray:
        return self.probabilities(eta)[:, :-1]

    def variance(self, eta: np.ndarray) -> np.ndarray:
        p = self.mean(eta)
        V = -p[:, :, None] * p[:, None, :]
        idx = np.arange(p.shape[1])
        V[:, idx, idx] += p
        return V

    def canonical_link(self, mu: np.ndarray) -> np.ndarray:
        mu = np.atleast_2d(np.asarray(mu, dtype=float))
        if mu.shape[1] == self.n_classes:  # full probability vectors
            return np.log(mu[:, :-1]) - np.log(mu[:, -1:])
        return np.log(mu) - np.log1p(-mu.sum(axis=1, keepdims=True))

    def __repr__(self) -> str:
        return f"CategoricalFamily(n_classes={self.n_classes})"
