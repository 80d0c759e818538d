"""Hypothesis strategies of the manifold-learning and metric-learning claims (003 §8.2,
§8.5, §8.6).

They *construct* valid inputs with the corners the statements must survive: point
configurations that span fewer dimensions than their ambient space, with duplicated or
collinear points, far from the origin and at scales 1e-3 to 1e3 (for MDS); metric spaces
that are not Euclidean (shortest-path metrics of graphs, the star K_{1,3}); neighbourhoods
with fewer or more neighbours than dimensions (for LLE's local Gram matrix); metric
matrices of every rank; labelled samples with a projection for NCA, including far-apart
samples whose probabilities underflow.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from hypothesis import strategies as st
from scipy.sparse.csgraph import shortest_path

__all__ = [
    "SEEDS",
    "LabelledProblem",
    "Neighbourhood",
    "configurations",
    "distance_matrix",
    "labelled_problems",
    "metric_matrices",
    "metric_spaces",
    "neighbourhoods",
]

SEEDS = st.integers(0, 2**32 - 1)
_SCALES = st.sampled_from([1e-3, 1.0, 1e3])


def distance_matrix(Z: np.ndarray) -> np.ndarray:
    """Euclidean distances between the rows of Z, by differences (no cancellation)."""
    diff = Z[:, None, :] - Z[None, :, :]
    return np.sqrt(np.sum(diff * diff, axis=-1))


@st.composite
def configurations(draw, *, min_m: int = 2, max_m: int = 10, max_d: int = 4) -> np.ndarray:
    """Points ``Z`` (m, d) with a drawn intrinsic rank, duplicates, collinear runs,
    an offset far from the origin and a scale in {1e-3, 1, 1e3}."""
    m = draw(st.integers(min_m, max_m))
    d = draw(st.integers(1, max_d))
    rank = draw(st.integers(1, d))
    kind = draw(st.sampled_from(["general", "duplicates", "collinear", "grid"]))
    rng = np.random.default_rng(draw(SEEDS))
    basis = np.linalg.qr(rng.standard_normal((d, d)))[0][:, :rank]
    if kind == "collinear":
        coords = np.outer(rng.standard_normal(m), np.ones(rank))
    elif kind == "grid":
        coords = rng.integers(-2, 3, size=(m, rank)).astype(float)
    else:
        coords = rng.standard_normal((m, rank))
    Z = coords @ basis.T
    if kind == "duplicates" and m > 2:
        Z[rng.integers(m, size=m // 2)] = Z[0]
    offset = draw(st.sampled_from([0.0, 5.0, 100.0])) * rng.standard_normal(d)
    return draw(_SCALES) * (Z + offset)


@st.composite
def metric_spaces(draw, *, min_m: int = 4, max_m: int = 9) -> np.ndarray:
    """Distance matrices of connected weighted graphs' shortest paths (metrics, in
    general not Euclidean), or the star K_{1,3} (centre at 1 from three leaves at
    mutual distance 2: no Euclidean realisation, the centre would be the midpoint of
    every pair of leaves)."""
    if draw(st.booleans()):
        return np.array([[0.0, 1, 1, 1], [1, 0, 2, 2], [1, 2, 0, 2], [1, 2, 2, 0]])
    m = draw(st.integers(min_m, max_m))
    rng = np.random.default_rng(draw(SEEDS))
    W = np.zeros((m, m))
    order = rng.permutation(m)
    for a, b in zip(order[:-1], order[1:], strict=True):  # a spanning path: connected
        W[a, b] = rng.uniform(0.5, 2.0)
    extra = rng.random((m, m)) < draw(st.sampled_from([0.0, 0.2, 0.5]))
    W = np.triu(np.where(extra & (W == 0), rng.uniform(0.5, 2.0, (m, m)), W + W.T), 1)
    return shortest_path(W + W.T, directed=False)


@dataclass(frozen=True)
class Neighbourhood:
    """A sample ``x`` (d,) and its neighbours ``N`` (k, d)."""

    x: np.ndarray
    N: np.ndarray


@st.composite
def neighbourhoods(draw, *, max_d: int = 5, max_k: int = 8,
                   invertible: bool | None = None) -> Neighbourhood:
    """``x`` and ``k`` neighbours; ``invertible=True`` keeps ``k <= d`` (C invertible for
    neighbours in general position), ``False`` forces ``k > d`` (C singular), ``None``
    draws either."""
    d = draw(st.integers(1, max_d))
    if invertible is True:
        k = draw(st.integers(1, d))
    elif invertible is False:
        k = draw(st.integers(d + 1, max(d + 1, max_k)))
    else:
        k = draw(st.integers(1, max_k))
    rng = np.random.default_rng(draw(SEEDS))
    scale = draw(_SCALES)
    x = scale * draw(st.sampled_from([0.0, 10.0])) * rng.standard_normal(d)
    N = x + scale * rng.standard_normal((k, d))
    return Neighbourhood(x, N)


@st.composite
def metric_matrices(draw, *, max_d: int = 5) -> tuple[np.ndarray, np.ndarray]:
    """(M, P): ``M = P P^T`` of a drawn rank (0 to d) and scale; P (d, r)."""
    d = draw(st.integers(1, max_d))
    r = draw(st.integers(0, d))
    rng = np.random.default_rng(draw(SEEDS))
    P = draw(_SCALES) * rng.standard_normal((d, max(r, 1)))
    if r == 0:
        P = np.zeros((d, 1))
    return P @ P.T, P


@dataclass(frozen=True)
class LabelledProblem:
    """Samples ``X`` (m, d), labels ``y`` (m,) and a projection ``P`` (d, d')."""

    X: np.ndarray
    y: np.ndarray
    P: np.ndarray


@st.composite
def labelled_problems(draw, *, min_m: int = 2, max_m: int = 12, max_d: int = 4,
                      far: bool = True) -> LabelledProblem:
    """Small labelled samples with 1 to 3 classes and a projection ``P``; ``far`` adds
    scales at which exp(-||P^T(x_i - x_j)||^2) underflows for every pair."""
    m = draw(st.integers(min_m, max_m))
    d = draw(st.integers(1, max_d))
    dp = draw(st.integers(1, d))
    rng = np.random.default_rng(draw(SEEDS))
    X = rng.standard_normal((m, d))
    y = rng.integers(0, draw(st.integers(1, 3)), size=m)
    if draw(st.booleans()) and m > 2:
        X[1] = X[0]  # a duplicate: distance 0
    scales = [0.1, 1.0, 3.0] + ([40.0] if far else [])
    P = draw(st.sampled_from(scales)) * rng.standard_normal((d, dp))
    return LabelledProblem(X, y, P)
