"""Kernel functions of Table 6.1 and the closure constructions (4.21)-(4.23).

Every kernel is a small callable object ``kernel(X, Z) -> Gram matrix`` with
``K[i, j] = kappa(X[i], Z[j])``; ``kernel.diag(X)`` returns ``kappa(x_i, x_i)``
without forming the full matrix (the SMO solvers need only the diagonal and a
few columns).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from scipy.spatial.distance import cdist

from algorithms._validation import (
    InvalidArgumentError,
    check_array_argument,
    check_int,
    check_real,
)

__all__ = [
    "GaussianKernel",
    "Kernel",
    "LaplacianKernel",
    "LinearKernel",
    "PolynomialKernel",
    "ProductKernel",
    "ScaledByFunctionKernel",
    "SigmoidKernel",
    "SumKernel",
    "gram_matrix",
    "make_kernel",
    "squared_distances",
]


def _as_2d(X: np.ndarray, name: str) -> np.ndarray:
    """A finite real (n_samples, n_features) float array; an empty set of points is allowed."""
    return check_array_argument(X, name, ndim=2, allow_empty=True, real=True)


def _same_width(X: np.ndarray, Z: np.ndarray) -> None:
    if X.shape[1] != Z.shape[1]:
        raise ValueError(
            f"X and Z must have the same number of features, got {X.shape[1]} and {Z.shape[1]}"
        )


def _finite_values(K: np.ndarray, what: str, names: str = "X") -> np.ndarray:
    """``K`` if every entry is finite; else a ValueError naming the point sets (finite
    points whose kernel values overflow float64, e.g. ``(x^T z)^d`` with ``|x| ~ 1e200``)."""
    if not np.all(np.isfinite(K)):
        raise ValueError(
            f"the {what} of {names} overflows float64 (a value beyond 1.8e308 or an "
            f"undefined one) at this scale of the points; rescale {names}"
        )
    return K


def squared_distances(X: np.ndarray, Z: np.ndarray) -> np.ndarray:
    """``D[i, j] = ||x_i - z_j||^2`` from the differences themselves (scipy's cdist), not
    the expansion ``|x|^2 + |z|^2 - 2 x.z``, whose cancellation leaves ``~1e-15`` instead
    of 0 on duplicates (``6e-8`` after the Laplacian kernel's square root).

    ``X`` (n, d) and ``Z`` (m, d) are finite real arrays; a ValueError names X when a
    squared distance overflows float64.
    """
    X, Z = _as_2d(X, "X"), _as_2d(Z, "Z")
    _same_width(X, Z)
    return _finite_values(cdist(X, Z, "sqeuclidean"), "squared distances", "X and Z")


class Kernel:
    """Base class: a symmetric function ``kappa(x, z)`` evaluated on sets of points."""

    def __call__(self, X: np.ndarray, Z: np.ndarray | None = None) -> np.ndarray:
        X = _as_2d(X, "X")
        names = "X" if Z is None else "X and Z"
        Z = X if Z is None else _as_2d(Z, "Z")
        _same_width(X, Z)
        with np.errstate(over="ignore", invalid="ignore"):  # refused below if not finite
            K = self._gram(X, Z)
        return _finite_values(K, f"{self!r} Gram matrix", names)

    def diag(self, X: np.ndarray) -> np.ndarray:
        """``kappa(x_i, x_i)`` for every row of ``X``."""
        X = _as_2d(X, "X")
        with np.errstate(over="ignore", invalid="ignore"):  # refused below if not finite
            d = self._diag(X)
        return _finite_values(d, f"{self!r} diagonal")

    def _gram(self, X: np.ndarray, Z: np.ndarray) -> np.ndarray:  # pragma: no cover
        raise NotImplementedError

    def _diag(self, X: np.ndarray) -> np.ndarray:
        return np.array([self._gram(X[i : i + 1], X[i : i + 1])[0, 0] for i in range(len(X))])

    # closure rules (4.21)-(4.22) as operators
    def __add__(self, other: Kernel) -> SumKernel:
        return SumKernel(self, other)

    def __mul__(self, other: Kernel) -> ProductKernel:
        return ProductKernel(self, other)


def _kernel(value: object, name: str) -> Kernel:
    if not isinstance(value, Kernel):
        raise InvalidArgumentError(f"{name} must be a Kernel instance, got {value!r}")
    return value


class LinearKernel(Kernel):
    """``kappa(x, z) = x^T z`` (Table 6.1, linear kernel)."""

    def _gram(self, X, Z):
        return X @ Z.T

    def _diag(self, X):
        return np.einsum("ij,ij->i", X, X)

    def __repr__(self) -> str:
        return "LinearKernel()"


class PolynomialKernel(Kernel):
    """``kappa(x, z) = (x^T z)^d`` with an integer degree ``d >= 1`` (Table 6.1).

    ``coef0`` (default 0, the table's form) gives the inhomogeneous variant
    ``(x^T z + coef0)^d``, a kernel for ``coef0 >= 0``.
    """

    def __init__(self, degree: int = 2, coef0: float = 0.0) -> None:
        self.degree = check_int(degree, "degree", low=1)
        self.coef0 = check_real(coef0, "coef0", low=0.0)

    def _gram(self, X, Z):
        return (X @ Z.T + self.coef0) ** self.degree

    def _diag(self, X):
        return (np.einsum("ij,ij->i", X, X) + self.coef0) ** self.degree

    def __repr__(self) -> str:
        return f"PolynomialKernel(degree={self.degree}, coef0={self.coef0})"


def _positive(value: float, name: str) -> float:
    return check_real(value, name, low=0.0, low_open=True)


class GaussianKernel(Kernel):
    """``kappa(x, z) = exp(-||x - z||^2 / (2 sigma^2))`` with width ``sigma > 0`` (Table 6.1)."""

    def __init__(self, sigma: float = 1.0) -> None:
        self.sigma = _positive(sigma, "sigma")

    def _gram(self, X, Z):
        # distances in units of sigma: sigma**2 itself overflows (sigma = 1e300) or
        # underflows to 0 (sigma = 1e-300, then 0/0 on the diagonal)
        r = cdist(X, Z, "euclidean") / self.sigma
        with np.errstate(over="ignore"):  # r^2 = inf is a kernel value of exactly 0
            return np.exp(-0.5 * r * r)

    def _diag(self, X):
        return np.ones(X.shape[0])

    def __repr__(self) -> str:
        return f"GaussianKernel(sigma={self.sigma})"


class LaplacianKernel(Kernel):
    """``kappa(x, z) = exp(-||x - z|| / sigma)`` with ``sigma > 0`` (Table 6.1)."""

    def __init__(self, sigma: float = 1.0) -> None:
        self.sigma = _positive(sigma, "sigma")

    def _gram(self, X, Z):
        return np.exp(-cdist(X, Z, "euclidean") / self.sigma)

    def _diag(self, X):
        return np.ones(X.shape[0])

    def __repr__(self) -> str:
        return f"LaplacianKernel(sigma={self.sigma})"


class SigmoidKernel(Kernel):
    """``kappa(x, z) = tanh(beta x^T z + theta)`` with ``beta > 0``, ``theta < 0`` (Table 6.1).

    Warnings
    --------
    Despite its place in Table 6.1 this function is *not* positive
    semi-definite in general: at ``x = 0`` it gives ``kappa(0, 0) = tanh(theta) < 0``,
    a negative 1x1 Gram matrix. The SMO solvers still run on it (they treat a
    non-positive curvature like libsvm does), but the dual is then non-convex.
    """

    def __init__(self, beta: float = 1.0, theta: float = -1.0) -> None:
        self.beta = _positive(beta, "beta")
        self.theta = check_real(theta, "theta", high=0.0, high_open=True)  # Table 6.1

    def _gram(self, X, Z):
        return np.tanh(self.beta * (X @ Z.T) + self.theta)

    def _diag(self, X):
        return np.tanh(self.beta * np.einsum("ij,ij->i", X, X) + self.theta)

    def __repr__(self) -> str:
        return f"SigmoidKernel(beta={self.beta}, theta={self.theta})"


class SumKernel(Kernel):
    """``gamma1 kappa1 + gamma2 kappa2`` with ``gamma1, gamma2 > 0`` (003 §4.3 (4.21))."""

    def __init__(self, k1: Kernel, k2: Kernel, gamma1: float = 1.0, gamma2: float = 1.0) -> None:
        self.k1, self.k2 = _kernel(k1, "k1"), _kernel(k2, "k2")
        self.gamma1 = _positive(gamma1, "gamma1")
        self.gamma2 = _positive(gamma2, "gamma2")

    def _gram(self, X, Z):
        return self.gamma1 * self.k1._gram(X, Z) + self.gamma2 * self.k2._gram(X, Z)

    def _diag(self, X):
        return self.gamma1 * self.k1._diag(X) + self.gamma2 * self.k2._diag(X)

    def __repr__(self) -> str:
        return f"SumKernel({self.k1!r}, {self.k2!r}, gamma1={self.gamma1}, gamma2={self.gamma2})"


class ProductKernel(Kernel):
    """Pointwise product ``kappa1(x, z) kappa2(x, z)`` (003 §4.3 (4.22))."""

    def __init__(self, k1: Kernel, k2: Kernel) -> None:
        self.k1, self.k2 = _kernel(k1, "k1"), _kernel(k2, "k2")

    def _gram(self, X, Z):
        return self.k1._gram(X, Z) * self.k2._gram(X, Z)

    def _diag(self, X):
        return self.k1._diag(X) * self.k2._diag(X)

    def __repr__(self) -> str:
        return f"ProductKernel({self.k1!r}, {self.k2!r})"


class ScaledByFunctionKernel(Kernel):
    """``g(x) kappa1(x, z) g(z)`` for a real function ``g`` (003 §4.3 (4.23)).

    ``g`` maps an ``(n, d)`` array to ``n`` finite values.
    """

    def __init__(self, k1: Kernel, g: Callable[[np.ndarray], np.ndarray]) -> None:
        if not callable(g):
            raise InvalidArgumentError(f"g must be callable, got {g!r}")
        self.k1, self.g = _kernel(k1, "k1"), g

    def _values(self, X: np.ndarray) -> np.ndarray:
        v = np.asarray(self.g(X))
        if np.iscomplexobj(v):
            raise ValueError("g must return real values, got complex ones")
        v = v.astype(float).reshape(-1)
        if v.shape[0] != X.shape[0] or not np.all(np.isfinite(v)):
            raise ValueError("g must return one finite value per row")
        return v

    def _gram(self, X, Z):
        return self._values(X)[:, None] * self.k1._gram(X, Z) * self._values(Z)[None, :]

    def _diag(self, X):
        return self._values(X) ** 2 * self.k1._diag(X)

    def __repr__(self) -> str:
        return f"ScaledByFunctionKernel({self.k1!r}, g={self.g!r})"


_NAMED = {
    "linear": LinearKernel,
    "poly": PolynomialKernel,
    "polynomial": PolynomialKernel,
    "rbf": GaussianKernel,
    "gaussian": GaussianKernel,
    "laplacian": LaplacianKernel,
    "sigmoid": SigmoidKernel,
}


def make_kernel(kernel: str | Kernel, params: dict | None = None) -> Kernel:
    """A :class:`Kernel` from a name (``"linear"``, ``"poly"``, ``"rbf"``/``"gaussian"``,
    ``"laplacian"``, ``"sigmoid"``) and its parameters, or a Kernel passed through."""
    if params is not None and not isinstance(params, dict):
        raise InvalidArgumentError(f"the kernel parameters (params, an estimator's "
                                   f"kernel_params) must be a dict or None, got {params!r}")
    if isinstance(kernel, Kernel):
        if params:
            raise ValueError("the kernel parameters (params, an estimator's kernel_params) must "
                             "be empty when kernel is a Kernel instance")
        return kernel
    if not isinstance(kernel, str) or kernel not in _NAMED:
        raise ValueError(f"kernel must be a Kernel or one of {sorted(_NAMED)}, got {kernel!r}")
    try:
        return _NAMED[kernel](**(params or {}))
    except (TypeError, ValueError) as exc:
        raise ValueError(f"the kernel parameters {params!r} (params, an estimator's "
                         f"kernel_params) do not fit kernel {kernel!r}: {exc}") from None


def gram_matrix(kernel: str | Kernel, X: np.ndarray, Z: np.ndarray | None = None,
                **params: float) -> np.ndarray:
    """The Gram (kernel) matrix ``K[i, j] = kappa(x_i, z_j)`` (``Z = X`` by default)."""
    return make_kernel(kernel, params)(X, Z)
