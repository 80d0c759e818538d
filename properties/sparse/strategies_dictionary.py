"""Hypothesis strategies of the dictionary-learning and matrix-completion claims (003
§10.5-§10.6): coding problems, factorisations X ~ BA with sparse codes, and matrices on
the spectral and Frobenius unit balls with drawn rank."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from hypothesis import strategies as st

SEEDS = st.integers(0, 2**32 - 1)

#: lambda of (10.14)-(10.15), relative to the data's size (samples have norm ~ sqrt(d)):
#: from nearly unpenalised to a penalty that zeroes most codes.
LAMBDAS = st.sampled_from([0.01, 0.1, 0.5, 1.0, 3.0])


def unit_columns(rng: np.random.Generator, d: int, k: int) -> np.ndarray:
    """``k`` Gaussian atoms in R^d scaled to unit length."""
    B = rng.normal(size=(d, k))
    return B / np.linalg.norm(B, axis=0)


def sparse_codes(rng: np.random.Generator, k: int, m: int, density: float) -> np.ndarray:
    """A (k x m) with i.i.d. Gaussian entries kept with probability ``density``."""
    return rng.normal(size=(k, m)) * (rng.random((k, m)) < density)


@dataclass(frozen=True)
class Factorisation:
    """``X`` (d x m), ``B`` (d x k), ``A`` (k x m) in the notes' column convention."""

    X: np.ndarray
    B: np.ndarray
    A: np.ndarray


@st.composite
def factorisations(draw, max_d: int = 5, max_k: int = 6, max_m: int = 7) -> Factorisation:
    """X = B_true A_true + noise with sparse codes, and a starting pair (B, A): B unit
    atoms, A sparse with some all-zero rows (unused atoms) and scale disparities."""
    rng = np.random.default_rng(draw(SEEDS))
    d = draw(st.integers(1, max_d))
    k = draw(st.integers(1, max_k))
    m = draw(st.integers(1, max_m))
    density = draw(st.sampled_from([0.3, 0.6, 1.0]))
    noise = draw(st.sampled_from([0.0, 0.1, 1.0]))
    scale = draw(st.sampled_from([1e-3, 1.0, 1e3]))
    X = scale * (unit_columns(rng, d, k) @ sparse_codes(rng, k, m, density)
                 + noise * rng.normal(size=(d, m)))
    B = unit_columns(rng, d, k)
    A = scale * sparse_codes(rng, k, m, density)
    if draw(st.booleans()) and k > 1:
        A[rng.integers(k)] = 0.0  # an unused atom
    return Factorisation(X, B, A)


@st.composite
def coding_problems(draw, max_d: int = 6, max_k: int = 6, max_m: int = 5
                    ) -> tuple[np.ndarray, np.ndarray, float]:
    """(X, B, lambda): samples built from a few atoms of B plus noise."""
    rng = np.random.default_rng(draw(SEEDS))
    d = draw(st.integers(1, max_d))
    k = draw(st.integers(1, max_k))
    m = draw(st.integers(1, max_m))
    B = unit_columns(rng, d, k)
    X = B @ sparse_codes(rng, k, m, 0.5) + 0.3 * rng.normal(size=(d, m))
    return X, B, draw(LAMBDAS)


def orthonormal(rng: np.random.Generator, n: int, r: int) -> np.ndarray:
    """``r`` orthonormal columns in R^n (QR of a Gaussian matrix)."""
    Q, _ = np.linalg.qr(rng.normal(size=(n, r)))
    return Q[:, :r]


@st.composite
def spectral_ball_matrices(draw) -> tuple[np.ndarray, np.ndarray]:
    """``X = U diag(s) V^T`` on the spectral unit ball ``||X||_2 <= 1`` with drawn rank
    and singular values: all 1 (a partial isometry, where ``||X||_* = rank``), mixed, or
    small. Returns ``X`` and its exact singular values (descending)."""
    rng = np.random.default_rng(draw(SEEDS))
    m = draw(st.integers(1, 6))
    n = draw(st.integers(1, 6))
    r = draw(st.integers(0, min(m, n)))
    kind = draw(st.sampled_from(["isometry", "uniform", "near_one", "small"]))
    if kind == "isometry":
        s = np.ones(r)
    elif kind == "near_one":
        s = 1.0 - rng.uniform(0.0, 1e-3, size=r)
    elif kind == "small":
        s = rng.uniform(1e-3, 0.1, size=r)
    else:
        s = rng.uniform(1e-3, 1.0, size=r)
    s = np.sort(s)[::-1]
    X = orthonormal(rng, m, r) @ np.diag(s) @ orthonormal(rng, n, r).T if r else np.zeros((m, n))
    return X, s


@st.composite
def frobenius_ball_matrices(draw) -> np.ndarray:
    """X with ``||X||_F <= 1``: a Gaussian matrix scaled to a drawn Frobenius norm."""
    rng = np.random.default_rng(draw(SEEDS))
    m = draw(st.integers(1, 5))
    n = draw(st.integers(1, 5))
    radius = draw(st.floats(0.05, 1.0))
    X = rng.normal(size=(m, n))
    return radius * X / np.linalg.norm(X)
