"""Hypothesis strategies of the linear part of the dimred claims (003 §8.1, §8.3, §8.4):
labelled point sets for kNN (integer grids full of equidistant neighbours and tied votes,
continuous clouds without ties), data with a drawn spectrum for PCA, and orthonormal
frames."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from hypothesis import strategies as st

SEEDS = st.integers(0, 2**32 - 1)

#: Overall sizes of the PCA data: tiny, unit and large (the identities are scale-free).
SIZES = st.sampled_from([1e-3, 1.0, 1e3])


@dataclass
class KNNProblem:
    """Training set, labels (or targets), queries and k."""

    X: np.ndarray
    y: np.ndarray
    Q: np.ndarray
    k: int


@st.composite
def grid_problems(draw, regression: bool = False) -> KNNProblem:
    """Points and queries on a small integer grid {0..g}^d: many equidistant neighbours
    (ties at the k-th place) and tied votes; duplicated points included. Labels from 2-4
    classes, or integer targets for regression."""
    rng = np.random.default_rng(draw(SEEDS))
    d = draw(st.integers(1, 3))
    g = draw(st.integers(1, 4))
    n = draw(st.integers(3, 30))
    X = rng.integers(0, g + 1, size=(n, d)).astype(float)
    Q = rng.integers(0, g + 1, size=(draw(st.integers(1, 12)), d)).astype(float)
    if regression:
        y = rng.integers(-5, 6, size=n).astype(float)
    else:
        n_classes = draw(st.integers(2, 4))
        y = rng.integers(0, n_classes, size=n)
        y[:2] = [0, 1]  # at least two classes
    k = draw(st.integers(1, n - 1))
    return KNNProblem(X, y, Q, k)


@st.composite
def continuous_problems(draw, regression: bool = False) -> KNNProblem:
    """Gaussian blobs in 1-6 dimensions at a drawn scale: no two distances equal (almost
    surely), so every implementation must find the same neighbours."""
    rng = np.random.default_rng(draw(SEEDS))
    d = draw(st.integers(1, 6))
    n = draw(st.integers(6, 80))
    n_classes = draw(st.integers(2, 4))
    size = draw(st.sampled_from([1e-3, 1.0, 1e3]))
    centres = rng.normal(scale=2.0, size=(n_classes, d))
    labels = rng.integers(0, n_classes, size=n)
    labels[:2] = [0, 1]
    X = (centres[labels] + rng.normal(size=(n, d))) * size
    Q = (rng.normal(scale=2.0, size=(draw(st.integers(1, 30)), d))) * size
    y = X[:, 0] - X[:, -1] ** 2 / size if regression else labels
    k = draw(st.integers(1, min(n - 1, 15)))
    return KNNProblem(X, y, Q, k)


@dataclass
class SpectralData:
    """Rows ``X`` (m, d) = mean + U diag(s) V^T with a drawn spectrum and a target ``d'``."""

    X: np.ndarray
    d_prime: int


@st.composite
def spectral_data(draw, min_features: int = 2) -> SpectralData:
    """Data with distinct singular values (a geometric decay with a drawn ratio, so the
    top-d' subspace is well defined), an offset mean far from 0 (to exercise centring) and
    an overall size from 1e-3 to 1e3."""
    rng = np.random.default_rng(draw(SEEDS))
    d = draw(st.integers(min_features, 7))
    m = draw(st.integers(d + 2, 40))
    ratio = draw(st.floats(0.3, 0.9))
    s = 10.0 * ratio ** np.arange(d)
    U, _ = np.linalg.qr(rng.normal(size=(m, d)))
    U -= U.mean(axis=0)  # centred columns: the spectrum is that of the centred data
    U, _ = np.linalg.qr(U)
    V, _ = np.linalg.qr(rng.normal(size=(d, d)))
    offset = draw(st.sampled_from([0.0, 1.0, 100.0]))
    size = draw(SIZES)
    X = (U * s) @ V.T + offset * rng.normal(size=d)
    d_prime = draw(st.integers(1, d))
    return SpectralData(X * size, d_prime)


def orthonormal_frame(rng: np.random.Generator, d: int, d_prime: int) -> np.ndarray:
    """A uniformly random d x d' matrix with orthonormal columns (QR of a Gaussian)."""
    Q, R = np.linalg.qr(rng.normal(size=(d, d_prime)))
    return Q * np.sign(np.diag(R))


def near_frame(rng: np.random.Generator, W: np.ndarray, eps: float) -> np.ndarray:
    """An orthonormal frame close to ``W``: QR of ``W + eps G`` (a point near the edge)."""
    Q, R = np.linalg.qr(W + eps * rng.normal(size=W.shape))
    return Q * np.sign(np.diag(R))
