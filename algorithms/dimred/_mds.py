"""Classical multidimensional scaling (003 §8.2 (8.1)-(8.6), Fig 10.3).

From a distance matrix ``D`` (m x m): square the distances, double-centre them into the
inner-product matrix ``B = -1/2 J D^(2) J`` (``J = I - 11^T/m``; entrywise this is (8.3)
built from the row, column and grand means (8.2)), take the ``d'`` largest eigenpairs of
``B`` (8.4) and return the rows of ``V~ Lambda~^(1/2)`` (Fig 10.3's output, the transpose
of (8.6)). A distance matrix that is not Euclidean (geodesic distances, for instance)
gives ``B`` negative eigenvalues; a kept eigenvalue below zero has no real square root and
is clipped to zero (its coordinate is then zero) with a :class:`NonEuclideanWarning`.
"""

from __future__ import annotations

import math
import warnings
from dataclasses import dataclass

import numpy as np
from scipy import linalg
from scipy.sparse import linalg as sparse_linalg
from sklearn.base import BaseEstimator, TransformerMixin

from algorithms._validation import (
    check_array_argument,
    check_choice,
    check_int,
    check_squares_representable,
    validate_features,
)

__all__ = [
    "ClassicalMDS",
    "MDSResult",
    "NonEuclideanWarning",
    "classical_mds",
    "double_centering",
]

#: Relative size (to max |D|) of asymmetry or of a diagonal entry that a distance matrix
#: may carry from rounding; anything larger is refused.
_DISTANCE_RTOL = 1e-10


#: Up to this size B is decomposed by LAPACK; beyond it, by ARPACK (a few eigenpairs of a
#: large dense matrix: Lanczos costs O(m^2) per iteration instead of O(m^3)).
_DENSE_EIGEN_MAX = 500
#: ARPACK's relative accuracy of the eigenvalues: 1e-12 keeps the eigenvectors (whose error
#: is this divided by the gap of the spectrum) far below the claims' tolerances.
_ARPACK_TOL = 1e-12


#: A kept eigenvalue counts as negative (non-Euclidean D, warned about) when it is below
#: -1e-10 times the largest one; smaller negatives are rounding of a zero eigenvalue.
_NEGATIVE_RTOL = 1e-10


class NonEuclideanWarning(UserWarning):
    """A kept eigenvalue of B was negative: D is not a Euclidean distance matrix and the
    corresponding coordinate was clipped to zero."""


@dataclass(frozen=True)
class MDSResult:
    """Output of :func:`classical_mds`.

    Attributes
    ----------
    embedding : ndarray (m, d')
        Rows ``z_i`` of ``V~ Lambda~^(1/2)`` (negative kept eigenvalues clipped to 0).
    eigenvalues : ndarray (d',)
        The ``d'`` largest eigenvalues of ``B``, descending, before clipping.
    eigenvectors : ndarray (m, d')
        The matching unit eigenvectors (sign: largest-magnitude entry positive).
    n_clipped : int
        How many kept eigenvalues were negative beyond rounding (below -1e-10 times the
        largest); every negative kept eigenvalue is clipped to 0.
    """

    embedding: np.ndarray
    eigenvalues: np.ndarray
    eigenvectors: np.ndarray
    n_clipped: int


def _check_distance_matrix(D: object, name: str = "D") -> np.ndarray:
    """``D`` as a finite, square, symmetric, zero-diagonal, non-negative float array."""
    D = check_array_argument(D, name, ndim=2, real=True)
    if D.shape[0] != D.shape[1]:
        raise ValueError(f"{name} must be a square distance matrix, got shape {D.shape}.")
    top = float(np.max(np.abs(D)))
    if np.any(D < 0):
        raise ValueError(f"{name} must have non-negative entries (distances), "
                         f"got {float(D.min())!r}.")
    slack = _DISTANCE_RTOL * top
    if np.max(np.abs(D - D.T)) > slack:
        raise ValueError(f"{name} must be symmetric (dist_ij = dist_ji); the largest "
                         f"asymmetry is {float(np.max(np.abs(D - D.T))):.3g}.")
    if np.max(np.abs(np.diag(D))) > slack:
        raise ValueError(f"{name} must have a zero diagonal (dist_ii = 0).")
    check_squares_representable(D, name)
    return D


def _double_centre(D2: np.ndarray) -> np.ndarray:
    """-1/2 J D2 J without forming J: subtract row and column means, add the grand mean."""
    row = D2.mean(axis=1)
    col = D2.mean(axis=0)
    B = -0.5 * (D2 - row[:, None] - col[None, :] + row.mean())
    return 0.5 * (B + B.T)


def double_centering(D: object) -> np.ndarray:
    """Inner-product matrix ``B = -1/2 J D^(2) J`` of a distance matrix (003 §8.2 (8.3)).

    Parameters
    ----------
    D : array-like (m, m)
        Pairwise distances ``dist_ij`` (not squared): square, symmetric, zero diagonal,
        non-negative, finite.

    Returns
    -------
    B : ndarray (m, m)
        ``b_ij = -1/2 (dist_ij^2 - dist_i.^2 - dist_.j^2 + dist_..^2)`` with the means of
        (8.2); for distances of centred points ``z_i`` it equals ``Z^T Z``.
    """
    D = _check_distance_matrix(D)
    return _double_centre(D * D)


def _sign_fix(V: np.ndarray) -> np.ndarray:
    """Columns of V with their largest-magnitude entry made positive (deterministic)."""
    idx = np.argmax(np.abs(V), axis=0)
    signs = np.sign(V[idx, np.arange(V.shape[1])])
    signs[signs == 0] = 1.0
    return V * signs


def _top_eigen(B: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
    """The k largest eigenpairs of symmetric B, descending (eigenvector signs fixed).

    Small matrices (or many components) by LAPACK; larger ones by ARPACK (Lanczos), from
    a fixed starting vector so the result is deterministic.
    """
    m = B.shape[0]
    if m <= _DENSE_EIGEN_MAX or k >= m // 4:
        lam, V = linalg.eigh(B, subset_by_index=[m - k, m - 1])
    else:
        v0 = np.random.default_rng(0).standard_normal(m)
        lam, V = sparse_linalg.eigsh(B, k=k, which="LA", v0=v0, tol=_ARPACK_TOL)
    order = np.argsort(lam)[::-1]
    return lam[order], _sign_fix(V[:, order])


def _mds_from_squared(D2: np.ndarray, n_components: int, *, warn: bool = True) -> MDSResult:
    """Classical MDS of squared distances (no validation; D2 scaled to max 1 by callers)."""
    B = _double_centre(D2)
    lam, V = _top_eigen(B, n_components)
    # below zero by more than rounding (eigenvalue 0 of the constant vector comes out as
    # +-1e-16 ||B||): a non-Euclidean D. Every negative kept eigenvalue is clipped.
    negative = lam < -_NEGATIVE_RTOL * max(abs(float(lam[0])), np.finfo(np.float64).tiny)
    if warn and np.any(negative):
        warnings.warn(
            f"{int(negative.sum())} of the {n_components} largest eigenvalues of B are "
            f"negative (smallest kept {float(lam.min()):.3g}): the distance matrix is not "
            "Euclidean; those coordinates are clipped to zero.", NonEuclideanWarning,
            stacklevel=3)
    Z = V * np.sqrt(np.clip(lam, 0.0, None))
    return MDSResult(Z, lam, V, int(negative.sum()))


def classical_mds(D: object, n_components: int = 2) -> MDSResult:
    """Classical MDS (003 §8.2 Fig 10.3): coordinates whose distances match ``D``.

    Parameters
    ----------
    D : array-like (m, m)
        Pairwise distances (square, symmetric, zero diagonal, non-negative, finite).
    n_components : int, default 2
        ``d'``, the number of coordinates, ``1 <= d' <= m``.

    Returns
    -------
    MDSResult
        ``embedding`` (m, d') = ``V~ Lambda~^(1/2)`` (8.6) with ``V~`` the eigenvectors
        of the ``d'`` largest eigenvalues (8.4) of ``B`` (8.3); the kept eigenvalues and how many of
        them were clipped.

    Notes
    -----
    The distances are divided by their largest value before squaring (the output is
    rescaled), so inputs near the float64 limits keep full precision. Negative kept
    eigenvalues (a non-Euclidean ``D``) are clipped to zero with a
    :class:`NonEuclideanWarning`. For a Euclidean ``D`` of points spanning ``d*``
    dimensions, ``d' >= d*`` reproduces every distance ((8.5)); smaller ``d'`` gives the
    best rank-``d'`` approximation of ``B`` in Frobenius norm (Eckart-Young).

    References
    ----------
    003 §8.2 (8.1)-(8.6), Fig 10.3.
    """
    D = _check_distance_matrix(D)
    m = D.shape[0]
    n_components = check_int(n_components, "n_components", low=1, high=m)
    s = float(np.max(D))
    s = s if s > 0 else 1.0
    Ds = D / s
    r = _mds_from_squared(Ds * Ds, n_components)
    return MDSResult(r.embedding * s, r.eigenvalues * s * s, r.eigenvectors, r.n_clipped)


class ClassicalMDS(TransformerMixin, BaseEstimator):
    """Classical (Torgerson) MDS as a transformer (003 §8.2, Fig 10.3).

    Parameters
    ----------
    n_components : int, default 2
        ``d'``. With ``dissimilarity="euclidean"`` at most the number of features
        (``d' <= d``), with ``"precomputed"`` at most the number of samples.
    dissimilarity : {"euclidean", "precomputed"}, default "euclidean"
        ``"euclidean"``: ``X`` holds samples and ``D`` is their Euclidean distance
        matrix; ``"precomputed"``: ``X`` is the distance matrix ``D`` itself.

    Attributes
    ----------
    embedding_ : ndarray (m, d')
        The rows ``z_i`` (Fig 10.3's output).
    eigenvalues_ : ndarray (d',)
        The kept eigenvalues of ``B``, descending, before clipping.
    n_clipped_ : int
        Kept eigenvalues clipped to zero.
    n_features_in_ : int

    Notes
    -----
    Only ``fit_transform`` embeds: classical MDS places the training points and has no
    map for new points (Isomap's extension handles that for geodesic distances).
    """

    def __init__(self, n_components: int = 2, *, dissimilarity: str = "euclidean"):
        self.n_components = n_components
        self.dissimilarity = dissimilarity

    def fit(self, X, y=None):
        """Embed ``X`` (samples, or a distance matrix with ``"precomputed"``)."""
        self.fit_transform(X, y)
        return self

    def fit_transform(self, X, y=None):
        """Embed and return ``embedding_`` (m, d')."""
        mode = check_choice(self.dissimilarity, "dissimilarity", ("euclidean", "precomputed"))
        X = validate_features(self, X, reset=True)
        m, d = X.shape
        if mode == "precomputed":
            D = _check_distance_matrix(X, "X")
            high = m
        else:
            check_squares_representable(X - X.mean(axis=0), "X")
            high = d
        n_components = check_int(self.n_components, "n_components", low=1)
        if n_components > high:
            what = f"n_samples = {m}" if mode == "precomputed" else (
                f"n_features = {d} (d' <= d); X has {d} feature(s)")
            raise ValueError(f"n_components must be at most {what}, got {n_components}.")
        if mode == "euclidean":
            s = float(np.max(np.abs(X - X.mean(axis=0)))) if m else 1.0
            s = s if s > 0 and math.isfinite(s) else 1.0
            Xs = (X - X.mean(axis=0)) / s
            sq = np.sum(Xs * Xs, axis=1)
            D2 = np.maximum(sq[:, None] + sq[None, :] - 2.0 * Xs @ Xs.T, 0.0)
            np.fill_diagonal(D2, 0.0)
        else:
            s = float(np.max(D)) or 1.0
            D2 = (D / s) ** 2
        r = _mds_from_squared(D2, n_components)
        self.embedding_ = r.embedding * s
        self.eigenvalues_ = r.eigenvalues * s * s
        self.n_clipped_ = r.n_clipped
        return self.embedding_
