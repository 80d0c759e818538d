"""Hypothesis strategies of the clustering claims (003 Chapter 7).

They *construct* valid inputs with the degenerate corners the chapter's statements must
survive: labellings that put every sample alone or all together, relabelled copies;
point sets with duplicates, ties on a grid, scale disparities and well-separated or
overlapping blobs; near-collinear triples (where a triangle inequality is tight);
categorical attributes whose values share a cluster profile; Gaussian-mixture problems
with adversarial EM starting points (collapsed components, tiny variances, duplicated
points, far-away means).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from algorithms.clustering import MixtureParams
from mltheory.strategies import finite_floats, spd_with_condition

__all__ = [
    "START_KINDS",
    "GMMProblem",
    "Triple",
    "categorical_samples",
    "clusterings",
    "gmm_problems",
    "labellings",
    "mixtures",
    "point_sets",
    "triples",
]

_SCALES = (1e-3, 1.0, 1e3)
#: Free coordinates: 0 (ties, duplicates) or magnitudes in [1e-6, 10]. Magnitudes like
#: 1e-200 would make squared differences underflow to 0 in every Euclidean code
#: (k-d trees included), a float64 limit rather than a property of clustering.
_FREE = st.one_of(st.just(0.0), st.floats(1e-6, 10.0), st.floats(-10.0, -1e-6))
_SEEDS = st.integers(0, 2**32 - 1)


@st.composite
def labellings(draw, *, min_size: int = 1, max_size: int = 30) -> tuple[np.ndarray, np.ndarray]:
    """A clustering ``lambda`` and a reference ``lambda*`` of the same ``m`` samples."""
    m = draw(st.integers(min_size, max_size))
    kind = draw(st.sampled_from(["free", "singletons", "one", "relabelled", "refined"]))
    lam = np.array(draw(st.lists(st.integers(0, max(0, draw(st.integers(0, m - 1)))),
                                 min_size=m, max_size=m)))
    if kind == "singletons":
        ref = np.arange(m)[::-1] + 5
        lam = np.arange(m) if draw(st.booleans()) else lam
    elif kind == "one":
        ref = np.zeros(m, dtype=int)
    elif kind == "relabelled":  # the same partition under other names
        perm = np.array(draw(st.permutations(range(m))))
        ref = perm[lam] * 3 - 7
    elif kind == "refined":  # lambda* splits lambda's clusters further
        ref = lam * m + np.array(draw(st.lists(st.integers(0, 2), min_size=m, max_size=m)))
    else:
        ref = np.array(draw(st.lists(st.integers(0, max(0, m // 2)), min_size=m, max_size=m)))
    return lam, ref


@st.composite
def point_sets(draw, *, min_size: int = 2, max_size: int = 30, max_dim: int = 4,
               kinds: tuple[str, ...] = ("blobs", "grid", "free", "bridged")) -> np.ndarray:
    """``X`` (m, n): blobs (continuous, separated or overlapping), a coarse integer grid
    (duplicates and distance ties), free floats, or two tight groups 2 apart with one
    sample half-way (a border sample shared by two density clusters, a chain for single
    linkage), at a drawn scale; sometimes with repeated rows."""
    m = draw(st.integers(min_size, max_size))
    n = draw(st.integers(1, max_dim))
    kind = draw(st.sampled_from(kinds))
    scale = draw(st.sampled_from(_SCALES))
    if kind == "bridged" and m >= 7:
        rng = np.random.default_rng(draw(_SEEDS))
        u = rng.normal(size=n)
        u /= np.linalg.norm(u)
        half = (m - 1) // 2
        X = np.vstack([0.05 * rng.normal(size=(half, n)),
                       2.0 * u + 0.05 * rng.normal(size=(m - 1 - half, n)), u[None]])
    elif kind in ("blobs", "bridged"):
        rng = np.random.default_rng(draw(_SEEDS))
        k = draw(st.integers(1, 5))
        spread = draw(st.sampled_from([0.05, 0.5, 3.0]))
        X = rng.normal(scale=4.0, size=(k, n))[rng.integers(k, size=m)]
        X = X + spread * rng.normal(size=(m, n))
    elif kind == "grid":
        X = draw(hnp.arrays(np.float64, (m, n), elements=st.integers(-2, 2).map(float)))
    else:
        X = draw(hnp.arrays(np.float64, (m, n), elements=_FREE))
    if draw(st.booleans()) and m > 2:  # duplicate a few rows over others
        src = draw(st.lists(st.integers(0, m - 1), min_size=1, max_size=m // 2))
        dst = draw(st.lists(st.integers(0, m - 1), min_size=len(src), max_size=len(src)))
        X[dst] = X[src]
    return X * scale


@st.composite
def clusterings(draw, *, min_size: int = 3, max_size: int = 30, max_dim: int = 4
                ) -> tuple[np.ndarray, np.ndarray]:
    """``(X, labels)`` with at least two clusters (labels drawn freely, or by nearest of a
    few random centres, so clusters are sometimes compact and sometimes interleaved)."""
    X = draw(point_sets(min_size=min_size, max_size=max_size, max_dim=max_dim))
    m = X.shape[0]
    k = draw(st.integers(2, min(5, m)))
    if draw(st.booleans()):
        labels = np.array(draw(st.lists(st.integers(0, k - 1), min_size=m, max_size=m)))
    else:
        centres = X[np.array(draw(st.lists(st.integers(0, m - 1), min_size=k, max_size=k)))]
        labels = np.argmin(((X[:, None, :] - centres[None]) ** 2).sum(-1), axis=1)
    labels[:2] = [0, 1]  # at least two clusters
    return X, labels


@dataclass(frozen=True)
class Triple:
    """Three points ``x, y, z`` of R^n (``y`` sometimes on the segment [x, z])."""

    x: np.ndarray
    y: np.ndarray
    z: np.ndarray


@st.composite
def triples(draw, *, max_dim: int = 5) -> Triple:
    """Three points; with ``y = x + t (z - x)`` (collinear, the triangle inequality is an
    equality for every Minkowski p >= 1) or ``y`` on the 'corner' path of an axis-aligned
    box (where p < 1 breaks it), or free."""
    n = draw(st.integers(1, max_dim))
    pts = draw(hnp.arrays(np.float64, (3, n), elements=finite_floats(10.0)))
    x, y, z = pts
    kind = draw(st.sampled_from(["free", "collinear", "corner"]))
    if kind == "collinear":
        t = draw(st.floats(0.0, 1.0))
        y = x + t * (z - x)
    elif kind == "corner" and n >= 2:
        y = x.copy()
        y[0] = z[0]  # x -> y -> z moves along one axis, then the others
    return Triple(x=x, y=y, z=z)


@st.composite
def categorical_samples(draw, *, max_size: int = 40) -> tuple[np.ndarray, np.ndarray]:
    """``(values, clusters)``: an unordered attribute and a clustering of ``m`` samples;
    sometimes two values are given identical cluster profiles (VDM 0 between distinct
    values)."""
    m = draw(st.integers(2, max_size))
    V = draw(st.integers(1, 5))
    k = draw(st.integers(1, 4))
    values = np.array(draw(st.lists(st.integers(0, V - 1), min_size=m, max_size=m)))
    clusters = np.array(draw(st.lists(st.integers(0, k - 1), min_size=m, max_size=m)))
    if draw(st.booleans()):  # value V mirrors value 0's samples: the same profile
        twin = values == values[0]
        values = np.concatenate([values, np.full(int(twin.sum()), V)])
        clusters = np.concatenate([clusters, clusters[twin]])
    return values, clusters


@st.composite
def mixtures(draw, *, max_components: int = 4, max_dim: int = 3) -> MixtureParams:
    """Gaussian-mixture parameters: weights on the simplex (possibly very unequal), means
    at a drawn spread, covariances with condition numbers up to 1e4 at drawn scales."""
    k = draw(st.integers(1, max_components))
    n = draw(st.integers(1, max_dim))
    rng = np.random.default_rng(draw(_SEEDS))
    raw = rng.uniform(size=k) ** draw(st.sampled_from([1.0, 4.0]))
    weights = (raw + 1e-3) / (raw + 1e-3).sum()
    means = rng.normal(scale=draw(st.sampled_from([0.1, 1.0, 5.0])), size=(k, n))
    covs = np.stack([draw(st.sampled_from([0.05, 1.0, 4.0]))
                     * spd_with_condition(rng, n, draw(st.floats(0.0, 4.0)))
                     for _ in range(k)])
    covs = 0.5 * (covs + np.swapaxes(covs, 1, 2))
    return MixtureParams(weights, means, covs)


@dataclass(frozen=True)
class GMMProblem:
    """Data ``X`` and an EM starting point of a named kind."""

    X: np.ndarray
    start: MixtureParams
    kind: str


#: Kinds of starting points: components collapsed onto one point; variances of order
#: 1e-8..1e-14; data with heavily duplicated rows and means on them; means far outside
#: the data; means at random samples with the data's covariance.
START_KINDS = ("collapsed", "tiny_variances", "duplicates", "far", "random")


@st.composite
def gmm_problems(draw, *, max_size: int = 40, max_dim: int = 3, max_components: int = 4,
                 kinds: tuple[str, ...] = START_KINDS) -> GMMProblem:
    """Data from a drawn mixture (or a few repeated points) and an adversarial start."""
    kind = draw(st.sampled_from(kinds))
    mix = draw(mixtures(max_components=max_components, max_dim=max_dim))
    rng = np.random.default_rng(draw(_SEEDS))
    n = mix.means.shape[1]
    k = draw(st.integers(1, max_components))
    # at least 2 (n + 1) samples per component when the size allows: fewer make every
    # unregularised M-step singular at once (a start that tests nothing)
    m = draw(st.integers(min(max_size, max(4, 2 * k * (n + 1))), max_size))
    z = rng.choice(mix.n_components, size=m, p=mix.weights)
    chol = np.linalg.cholesky(mix.covariances)
    X = mix.means[z] + np.einsum("jab,jb->ja", chol[z], rng.standard_normal((m, n)))
    if kind == "duplicates":  # n + 1 .. m/2 distinct points, each repeated
        distinct = draw(st.integers(n + 1, max(n + 1, m // 2)))
        X = X[np.concatenate([np.arange(distinct), rng.integers(distinct, size=m - distinct)])]
    cov = np.atleast_2d(np.cov(X.T, bias=True)) + np.eye(n)
    weights = rng.dirichlet(np.ones(k))
    means = X[rng.integers(m, size=k)]
    covs = np.broadcast_to(cov, (k, n, n)).copy()
    if kind == "collapsed":
        means = np.broadcast_to(X[rng.integers(m)], (k, n)).copy()
    elif kind == "tiny_variances":
        covs = np.broadcast_to(10.0 ** -draw(st.sampled_from([8, 11, 14])) * np.eye(n),
                               (k, n, n)).copy()
    elif kind == "far":
        means = means + 50.0 * np.sqrt(np.diag(cov)) * rng.choice([-1, 1], size=(k, n))
    return GMMProblem(X=X, start=MixtureParams(weights, means, covs), kind=kind)
