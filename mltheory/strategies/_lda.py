"""Strategies for discriminant analysis: labelled samples from drawn class-conditional Gaussians.

The class means, the covariance spectra (condition numbers up to ``max_condition``),
the class sizes (balanced or not) and the sample itself are all drawn, so the
population quantities travel with the data. Nasty corners are reachable: nearly
singular covariances, scale disparities between features, very unequal class
sizes, duplicated points and near-coincident class means.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from hypothesis import strategies as st

__all__ = ["ClassConditionalData", "class_conditional_datasets", "spd_matrices"]


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


def _spd_from(rng: np.random.Generator, d: int, log10_condition: float) -> np.ndarray:
    """A random SPD matrix with eigenvalues log-spaced over ``10**log10_condition``."""
    Q, _ = np.linalg.qr(rng.standard_normal((d, d)))
    eig = np.logspace(0.0, -log10_condition, d) if d > 1 else np.ones(1)
    return (Q * eig) @ Q.T


@st.composite
def spd_matrices(
    draw: st.DrawFn, *, min_dim: int = 1, max_dim: int = 5, max_log10_condition: float = 4.0
) -> np.ndarray:
    """Symmetric positive definite matrices with a drawn dimension and condition number."""
    d = draw(st.integers(min_dim, max_dim))
    c = draw(st.floats(0.0, max_log10_condition))
    seed = draw(st.integers(0, 2**32 - 1))
    scale = draw(st.sampled_from((1e-2, 1.0, 1e2)))
    S = scale * _spd_from(np.random.default_rng(seed), d, c)
    return (S + S.T) / 2


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
    base = [_spd_from(rng, d, c) for c in conds]
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
