"""Hypothesis strategies of the ensemble claims (003 Chapter 6).

They *construct* valid inputs: weights on the simplex (including vertices, sparse and
nearly uniform ones), regression ensembles with scale disparities, contingency tables
and prediction vectors with the degenerate corners (empty cells, constant classifiers),
class-vote arrays (hard and soft) and binary data sets for boosting.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

import numpy as np
from hypothesis import strategies as st

from algorithms.ensembles import ContingencyTable
from mltheory.strategies import finite_floats

__all__ = [
    "BinaryData",
    "RegressionEnsemble",
    "binary_datasets",
    "class_votes",
    "contingency_tables",
    "ensemble_sizes",
    "half_or_less_rates",
    "large_ensemble_exponents",
    "prediction_pairs",
    "rational_ensembles",
    "regression_ensembles",
    "simplex_vectors",
]


@st.composite
def simplex_vectors(draw, size: int) -> np.ndarray:
    """A point of the probability simplex of dimension ``size``: a vertex, the centre,
    a sparse point or a general one (weights spanning several orders of magnitude)."""
    kind = draw(st.sampled_from(["general", "vertex", "uniform", "sparse"]))
    if kind == "vertex" or size == 1:
        w = np.zeros(size)
        w[draw(st.integers(0, size - 1))] = 1.0
        return w
    if kind == "uniform":
        return np.full(size, 1.0 / size)
    raw = np.array(draw(st.lists(st.floats(1e-6, 1.0), min_size=size, max_size=size)))
    if kind == "sparse":
        keep = np.array(draw(st.lists(st.booleans(), min_size=size, max_size=size)))
        keep[draw(st.integers(0, size - 1))] = True
        raw = np.where(keep, raw, 0.0)
    return raw / raw.sum()


@dataclass(frozen=True)
class RegressionEnsemble:
    """``outputs[i, x] = h_i(x)`` of ``T`` regressors on ``n`` points, the target ``f(x)``,
    the combination weights ``w`` (on the simplex) and a distribution ``p`` over points."""

    outputs: np.ndarray  # (T, n)
    target: np.ndarray  # (n,)
    weights: np.ndarray  # (T,)
    p: np.ndarray  # (n,)


@st.composite
def regression_ensembles(draw, max_learners: int = 8, max_points: int = 12
                         ) -> RegressionEnsemble:
    """Ensembles whose members may agree exactly (ambiguity 0), differ wildly, or sit at
    very different scales (up to 1e3)."""
    T = draw(st.integers(1, max_learners))
    n = draw(st.integers(1, max_points))
    scale = draw(st.sampled_from([1e-3, 1.0, 1e3]))
    target = np.array(draw(st.lists(finite_floats(1.0), min_size=n, max_size=n))) * scale
    if draw(st.booleans()):  # members spread around the target
        noise = np.array(draw(st.lists(finite_floats(1.0), min_size=T * n, max_size=T * n)))
        outputs = target + scale * noise.reshape(T, n)
    else:  # members equal up to a small spread (A_bar close to 0: E close to E_bar)
        base = target + scale * np.array(draw(st.lists(finite_floats(1.0), min_size=n,
                                                          max_size=n)))
        spread = draw(st.sampled_from([0.0, 1e-6, 1e-2]))
        jitter = np.array(draw(st.lists(st.floats(-1, 1), min_size=T * n, max_size=T * n)))
        outputs = base + scale * spread * jitter.reshape(T, n)
    return RegressionEnsemble(outputs=outputs, target=target,
                              weights=draw(simplex_vectors(T)), p=draw(simplex_vectors(n)))


@st.composite
def rational_ensembles(draw, max_learners: int = 6
                       ) -> tuple[list[Fraction], Fraction, list[Fraction]]:
    """``(h_1(x), ..., h_T(x)), f(x), w`` at one point, in exact rationals, with ``w`` on
    the simplex (positive or zero integers normalised)."""
    T = draw(st.integers(1, max_learners))
    frac = st.fractions(min_value=-100, max_value=100, max_denominator=1000)
    h = draw(st.lists(frac, min_size=T, max_size=T))
    f = draw(frac)
    raw = draw(st.lists(st.integers(0, 50), min_size=T, max_size=T))
    if sum(raw) == 0:
        raw[0] = 1
    total = sum(raw)
    return h, f, [Fraction(r, total) for r in raw]


@st.composite
def contingency_tables(draw, max_count: int = 60) -> ContingencyTable:
    """Tables with empty cells, one-sided tables (a constant classifier) and large
    imbalances."""
    cells = st.one_of(st.just(0), st.integers(0, 3), st.integers(0, max_count))
    a, b, c, d = (draw(cells) for _ in range(4))
    if a + b + c + d == 0:
        a = 1
    return ContingencyTable(a=a, b=b, c=c, d=d)


@st.composite
def prediction_pairs(draw, max_samples: int = 40) -> tuple[np.ndarray, np.ndarray]:
    """Two classifiers' {-1, +1} predictions on the same samples; the second is the first
    with some entries flipped (so any agreement level occurs), or drawn freely."""
    m = draw(st.integers(1, max_samples))
    signs = st.lists(st.sampled_from([-1, 1]), min_size=m, max_size=m)
    h_i = np.array(draw(signs))
    if draw(st.booleans()):
        flips = np.array(draw(st.lists(st.booleans(), min_size=m, max_size=m)))
        h_j = np.where(flips, -h_i, h_i)
    else:
        h_j = np.array(draw(signs))
    return h_i, h_j


@st.composite
def class_votes(draw, max_learners: int = 9, max_points: int = 6, max_classes: int = 5
                ) -> np.ndarray:
    """``h_i^j(x)`` of shape (T, n, N): one-hot class-label votes or class-probability
    votes (rows on the simplex, ties frequent)."""
    T = draw(st.integers(1, max_learners))
    n = draw(st.integers(1, max_points))
    N = draw(st.integers(2, max_classes))
    if draw(st.booleans()):
        labels = np.array(draw(st.lists(st.integers(0, N - 1), min_size=T * n,
                                        max_size=T * n))).reshape(T, n)
        return (labels[..., None] == np.arange(N)).astype(float)
    raw = np.array(draw(st.lists(st.sampled_from([0.0, 0.25, 0.5, 1.0, 2.0]),
                                 min_size=T * n * N, max_size=T * n * N))).reshape(T, n, N)
    raw[..., 0] += raw.sum(axis=2) == 0  # every row has some mass
    return raw / raw.sum(axis=2, keepdims=True)


@dataclass(frozen=True)
class BinaryData:
    """A binary classification sample with labels ``y in {-1, +1}`` (both present)."""

    X: np.ndarray
    y: np.ndarray


@st.composite
def binary_datasets(draw, min_samples: int = 8, max_samples: int = 60, max_features: int = 4
                    ) -> BinaryData:
    """Continuous features (a generic position: no ties among feature values) and labels
    from a random linear rule with label noise, so stumps are weak learners with
    ``0 < eps_t < 1/2`` and boosting has work to do for many rounds."""
    seed = draw(st.integers(0, 2**32 - 1))
    m = draw(st.integers(min_samples, max_samples))
    d = draw(st.integers(1, max_features))
    noise = draw(st.sampled_from([0.0, 0.1, 0.3]))
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(m, d)) * rng.uniform(0.5, 3.0, size=d)
    y = np.where(X @ rng.normal(size=d) + 0.3 * rng.normal() > 0, 1, -1)
    y = np.where(rng.random(m) < noise, -y, y)
    y[0], y[1] = 1, -1  # both classes present
    return BinaryData(X=X, y=y)


#: Ensemble sizes for the bound (6.3): small ones (where the bound is tightest, ratio up to
#: 3/4 at T = 2) as often as large ones.
ensemble_sizes = st.one_of(st.integers(1, 12), st.integers(1, 5000))
#: Individual error rates in [0, 1/2], concentrated near 1/2 half of the time.
half_or_less_rates = st.one_of(st.floats(0.4, 0.5), st.floats(0.0, 0.5))


@st.composite
def large_ensemble_exponents(draw) -> tuple[int, float]:
    """``(T, eps)`` with ``T >= 2^52`` and the exponent ``T (1 - 2 eps)^2 / 2`` drawn in
    [1, 745]: sizes beyond exact floats where the bound of (6.3) is neither 0 nor 1 (eps
    within ~1e-7 of 1/2), a region uniform draws of eps almost never reach."""
    T = draw(st.integers(2**52, 2**80))
    x = draw(st.floats(1.0, 745.0))
    return T, 0.5 - math.sqrt(2.0 * x / T) / 2.0
