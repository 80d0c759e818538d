"""Shared tolerances and helpers of the manifold and metric-learning claims (003 §8.2,
§8.5, §8.6). No claims are registered here.

The references share no code with :mod:`algorithms.dimred`: distances by explicit
differences, spectra by ``numpy.linalg.eigvalsh``, rigid motions by
``scipy.linalg.orthogonal_procrustes``, constrained least squares by cvxpy, scikit-learn's
``ClassicalMDS``, ``Isomap``, ``LocallyLinearEmbedding`` and
``NeighborhoodComponentsAnalysis``.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable

import numpy as np
from threadpoolctl import threadpool_limits

from algorithms.dimred import NonEuclideanWarning
from mltheory.numeric import Tolerance

__all__ = [
    "COORDINATE_ROUNDING",
    "EIGEN_ROUNDING",
    "GRAM_ROUNDING",
    "ITERATIVE_EIGEN",
    "match_signs",
    "quietly",
    "single_threaded",
]

#: Squared distances and inner products recomputed from a Gram matrix: each entry is a
#: short sum of products of coordinates of size up to max ||z||^2, so rounding is a few
#: 1e-16 of max ||z||^2 (the scale passed to assert_close), amplified by m <= 12 terms.
GRAM_ROUNDING = Tolerance(
    rtol=1e-11, atol=0.0,
    reason="entries are sums of <= 12 products of size <= max ||z||^2; float64 rounding "
    "is ~1e-15 of that scale, kept 100x below the tolerance")

#: Quantities from a symmetric eigendecomposition (LAPACK, backward stable): errors of
#: ~m * 1e-16 * ||B||, relative to ||B|| (the scale passed).
EIGEN_ROUNDING = Tolerance(
    rtol=1e-9, atol=0.0,
    reason="backward-stable eigh of an m x m matrix (m <= 1500): error ~ m * 1e-16 * ||B|| "
    "relative to ||B||; 1e-9 leaves a margin of ~10^4 for eigenvector mixing in clusters")

#: Coordinates recovered from eigenpairs: a zero eigenvalue is computed as ~m 1e-16 ||B||
#: (either sign), and its square root puts a coordinate of up to ~sqrt(m 1e-16) ~ 3e-8 of
#: the configuration's scale where the truth is 0.
COORDINATE_ROUNDING = Tolerance(
    rtol=1e-6, atol=0.0,
    reason="a null eigenvalue is known to ~m * 1e-16 * ||B||; its square root gives "
    "coordinates of ~3e-8 of the scale where the exact value is 0 (30x margin)")

#: Two implementations of an eigen-based embedding (LAPACK vs ARPACK, or two LAPACK
#: drivers), compared coordinate by coordinate: eigenvector error ~ 1e-12 / gap.
ITERATIVE_EIGEN = Tolerance(
    rtol=1e-6, atol=0.0,
    reason="ARPACK stops at relative residual ~1e-12 (ours) or its default machine "
    "precision tolerance (scikit-learn); eigenvectors of a gap of 1e-5 of ||M|| then agree "
    "to ~1e-7 of the embedding's scale")


def quietly(func: Callable, *args, **kwargs):
    """``func(*args, **kwargs)`` with :class:`NonEuclideanWarning` silenced (claims on
    non-Euclidean input state what they expect of the clipped eigenvalues themselves)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", NonEuclideanWarning)
        return func(*args, **kwargs)


def match_signs(A: np.ndarray, B: np.ndarray) -> np.ndarray:
    """``A`` with each column's sign flipped to best match ``B`` (embeddings are defined
    up to the sign of each eigenvector)."""
    signs = np.sign(np.sum(A * B, axis=0))
    signs[signs == 0] = 1.0
    return A * signs


def single_threaded():
    """A context in which BLAS/LAPACK use one thread: the reference claims decompose
    matrices of a few hundred rows, where extra threads only contend with the other test
    processes (a 450 x 450 eigh measured 0.01 s on one thread, over 1 s with two threads
    on a loaded two-core machine)."""
    return threadpool_limits(limits=1)
