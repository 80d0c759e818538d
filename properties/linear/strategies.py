"""Strategies of the linear-models chapter (003 Chapter 1, 004).

Regression and GLM: designs with a drawn condition number, rank-deficient and wide
designs, and classification data whose likelihood has a finite maximiser by
construction. A seed drawn by Hypothesis drives the bulk numbers; everything that
matters for the claims (sizes, condition number, scale, offset, noise level, rank) is
drawn explicitly, so the search can push on it and the report can name it.

Discriminant analysis: labelled samples from drawn class-conditional Gaussians. The
class means, the covariance spectra (condition numbers up to ``max_condition``), the
class sizes (balanced or not) and the sample itself are all drawn, so the population
quantities travel with the data. Nasty corners are reachable: nearly singular
covariances, scale disparities between features, very unequal class sizes,
duplicated points and near-coincident class means.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from hypothesis import strategies as st

from mltheory.strategies import Design, spd_with_condition

__all__ = [
    "ClassConditionalData",
    "OverlappingClassData",
    "RegressionData",
    "class_conditional_datasets",
    "overlapping_classification_datasets",
    "regression_datasets",
]


@dataclass(frozen=True)
class RegressionData(Design):
    """``X`` (N, d), real targets ``y`` (N,) and how they were built.

    ``condition`` is the 2-norm condition number of the augmented design ``[X, 1]``
    (``inf`` when it is rank deficient); ``rank`` its numerical rank.
    """

    y: np.ndarray
    coef: np.ndarray
    intercept: float
    noise: float
    condition: float
    rank: int


def _orthonormal(rng: np.random.Generator, rows: int, cols: int) -> np.ndarray:
    Q, R = np.linalg.qr(rng.normal(size=(rows, cols)))
    return Q * np.sign(np.diag(R))


@st.composite
def regression_datasets(
    draw: st.DrawFn,
    *,
    min_samples: int = 2,
    max_samples: int = 30,
    min_features: int = 1,
    max_features: int = 5,
    max_log10_condition: float = 2.5,
    shape: str = "tall",
    noise_levels: tuple[float, ...] = (0.0, 1e-3, 1.0, 10.0),
) -> RegressionData:
    """Regression data ``y = X w + b + noise``.

    ``shape``:
      ``"tall"``: N >= d + 2 and ``X = scale * U diag(s) V^T + offset`` with singular
      values log-spaced over a drawn condition number up to ``10**max_log10_condition``
      (the augmented design inherits it, times a factor from the column offsets,
      which are drawn in units of each column's spread: see ``condition``);
      ``"wide"``: N <= d (more features than samples, 004 §1.2);
      ``"collinear"``: tall, but one column is a combination of others (rank deficient).
    """
    if shape not in ("tall", "wide", "collinear"):
        raise ValueError(f"shape must be 'tall', 'wide' or 'collinear', got {shape!r}")
    d_low = max(min_features, 1 if shape == "tall" else 2)
    d = draw(st.integers(d_low, max(max_features, d_low)))
    if shape == "wide":
        n = draw(st.integers(min(max(min_samples, 1), d), d))
    else:
        n = draw(st.integers(max(min_samples, d + 2), max(max_samples, d + 2)))
    seed = draw(st.integers(0, 2**32 - 1))
    log_cond = draw(st.floats(0.0, max_log10_condition))
    scale = draw(st.sampled_from([1e-2, 1.0, 1e2]))
    offset_size = draw(st.sampled_from([0.0, 1.0, 5.0]))
    noise = draw(st.sampled_from(noise_levels))
    rng = np.random.default_rng(seed)
    k = min(n, d)
    s = np.logspace(0.0, -log_cond, k)
    X = scale * (_orthonormal(rng, n, k) * s) @ _orthonormal(rng, d, k).T
    # column offsets in units of the column's own spread, so the ones column of the
    # augmented design costs at most a factor ~(1 + offset_size) in conditioning
    spread = np.sqrt(np.mean(X**2, axis=0)) + np.finfo(float).tiny
    X = X + offset_size * spread * rng.uniform(-1, 1, size=d)
    if shape == "collinear":
        j = draw(st.integers(1, d - 1))
        mix = rng.normal(size=j)
        X[:, j] = X[:, :j] @ mix
    coef = rng.normal(size=d) / scale
    intercept = float(rng.normal() * 3.0)
    y = X @ coef + intercept + noise * rng.normal(size=n)
    A = np.hstack([X, np.ones((n, 1))])
    sv = np.linalg.svd(A, compute_uv=False)
    rank = int(np.sum(sv > max(A.shape) * np.finfo(float).eps * sv[0]))
    condition = float(sv[0] / sv[-1]) if rank == A.shape[1] else float("inf")
    return RegressionData(X=X, y=y, coef=coef, intercept=intercept, noise=noise,
                          condition=condition, rank=rank)


@dataclass(frozen=True)
class OverlappingClassData:
    """Labels ``y`` in ``0..K-1`` on ``X`` (N, d) such that no linear scores separate the
    classes even weakly: ``d + 1`` affinely independent anchor points each carry every
    label. Hence the (unpenalised) logistic/softmax likelihood has a finite maximiser.
    """

    X: np.ndarray
    y: np.ndarray
    n_classes: int

    def augmented(self) -> np.ndarray:
        return np.hstack([self.X, np.ones((self.X.shape[0], 1))])


@st.composite
def overlapping_classification_datasets(
    draw: st.DrawFn,
    *,
    min_classes: int = 2,
    max_classes: int = 2,
    max_free_samples: int = 30,
    max_features: int = 4,
    near_collinear: bool = False,
) -> OverlappingClassData:
    """Free points labelled by a drawn softmax model, plus the overlapping anchors.

    ``near_collinear``: with two or more features, the second column may be replaced by
    ``x_1 + delta x_2`` (``delta`` drawn down to 1e-5): an invertible linear map of the
    features, so the likelihood keeps its finite maximiser while the design's condition
    number grows like ``1 / delta`` (Newton steps then rest on nearly singular Hessians).

    Anchor argument: if linear scores ``W`` satisfied ``s_{y_i}(x_i) >= s_k(x_i)`` for all
    samples and classes, each anchor (carrying every label) would have all scores equal;
    ``d + 1`` affinely independent anchors then force all score functions equal, so no
    non-trivial (quasi-)separation exists and the likelihood is coercive.
    """
    K = draw(st.integers(min_classes, max_classes))
    d = draw(st.integers(1, max_features))
    m = draw(st.integers(0, max_free_samples))
    seed = draw(st.integers(0, 2**32 - 1))
    scale = draw(st.sampled_from([1e-1, 1.0, 10.0]))
    signal = draw(st.sampled_from([0.0, 1.0, 5.0]))
    rng = np.random.default_rng(seed)
    centre = rng.uniform(-2, 2, size=d) * scale
    X_free = centre + scale * rng.normal(size=(m, d))
    W = rng.normal(size=(d, K)) * signal / scale
    Z = X_free @ W
    P = np.exp(Z - Z.max(axis=1, keepdims=True)) if m else np.zeros((0, K))
    P = P / P.sum(axis=1, keepdims=True) if m else P
    y_free = (P.cumsum(axis=1) > rng.random(m)[:, None]).argmax(axis=1) if m else np.zeros(0)
    anchors = centre + scale * np.vstack([np.zeros(d), np.eye(d)])
    X_anchor = np.repeat(anchors, K, axis=0)
    y_anchor = np.tile(np.arange(K), d + 1)
    X = np.vstack([X_free, X_anchor])
    y = np.concatenate([y_free.astype(int), y_anchor])
    delta = draw(st.sampled_from([None, 1e-3, 1e-5])) if near_collinear and d >= 2 else None
    if delta is not None:
        X[:, 1] = X[:, 0] + delta * X[:, 1]
    order = rng.permutation(X.shape[0])
    return OverlappingClassData(X=X[order], y=y[order], n_classes=K)


@dataclass(frozen=True)
class ClassConditionalData:
    """A labelled sample ``X`` (N, d), ``y`` (N,) in ``0..M-1`` and its population.

    ``means`` (M, d) and ``covariances`` (M, d, d) are the Gaussian parameters the
    sample was drawn from (equal across classes when ``shared_covariance``).
    """

    X: np.ndarray
    y: np.ndarray
    means: np.ndarray
    covariances: np.ndarray
    shared_covariance: bool

    @property
    def n_classes(self) -> int:
        return int(self.means.shape[0])

    @property
    def n_features(self) -> int:
        return int(self.X.shape[1])

    @property
    def counts(self) -> np.ndarray:
        return np.bincount(self.y, minlength=self.n_classes)


@st.composite
def class_conditional_datasets(
    draw: st.DrawFn,
    *,
    min_classes: int = 2,
    max_classes: int = 2,
    min_features: int = 1,
    max_features: int = 4,
    max_per_class: int = 25,
    shared_covariance: bool | None = None,
    max_log10_condition: float = 3.0,
    allow_duplicates: bool = True,
    full_rank: bool = True,
    balanced: bool | None = False,
) -> ClassConditionalData:
    """Gaussian class-conditional samples with drawn structure.

    Parameters
    ----------
    min_classes, max_classes : number of classes M
    min_features, max_features : dimension d
    max_per_class : largest class size
    shared_covariance : force a common covariance (True), distinct ones (False), or draw
    max_log10_condition : covariance condition numbers up to ``10**max_log10_condition``
    allow_duplicates : may append copies of some points
    full_rank : every class gets at least ``d + 1`` points, so the within-class scatter
        is positive definite with probability one
    balanced : every class the same size (True), sizes drawn independently (False), or
        either (None); duplicates are only appended to unbalanced samples
    """
    M = draw(st.integers(min_classes, max_classes))
    d = draw(st.integers(min_features, max_features))
    lo = d + 1 if full_rank else 1
    hi = max(max_per_class, lo)
    equal = draw(st.booleans()) if balanced is None else balanced
    if equal:
        counts = np.full(M, draw(st.integers(lo, hi)))
    else:
        counts = np.asarray(draw(st.lists(st.integers(lo, hi), min_size=M, max_size=M)))
    shared = draw(st.booleans()) if shared_covariance is None else shared_covariance
    seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    separation = draw(st.sampled_from((1e-3, 0.5, 2.0, 10.0)))
    means = separation * rng.standard_normal((M, d))
    feature_scale = np.asarray(draw(st.lists(st.sampled_from((0.1, 1.0, 10.0)),
                                             min_size=d, max_size=d)))
    conds = [draw(st.floats(0.0, max_log10_condition))]
    if not shared:
        conds += [draw(st.floats(0.0, max_log10_condition)) for _ in range(M - 1)]
    base = [spd_with_condition(rng, d, c) for c in conds]
    covs = np.stack([base[0] if shared else base[i] for i in range(M)])
    covs = covs * feature_scale[None, :, None] * feature_scale[None, None, :]
    means = means * feature_scale
    y = np.repeat(np.arange(M), counts)
    L = np.linalg.cholesky(covs)  # each covs[i] is SPD by construction
    Z = rng.standard_normal((y.size, d))
    X = means[y] + np.einsum("nij,nj->ni", L[y], Z)
    if allow_duplicates and not equal and draw(st.booleans()):
        dup = np.asarray(draw(st.lists(st.integers(0, y.size - 1), min_size=1,
                                       max_size=max(1, y.size // 4))))
        X, y = np.vstack([X, X[dup]]), np.concatenate([y, y[dup]])
    return ClassConditionalData(X=X, y=y, means=means, covariances=covs,
                                shared_covariance=bool(shared))
