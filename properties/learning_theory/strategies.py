"""Strategies for computational learning theory (003 Chapter 9).

They construct the objects the bounds quantify over: bounded distributions
(for Hoeffding and McDiarmid), distributions over a finite domain with a label
rule, finite hypothesis tables and point sets for shattering. Nasty corners are
drawn on purpose: two-point (Bernoulli) laws at the ends of [0, 1], which make
Hoeffding's bound tightest, point masses, duplicated and collinear points.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

__all__ = [
    "BoundedDistribution",
    "FiniteLearningProblem",
    "bounded_distributions",
    "finite_hypothesis_tables",
    "finite_learning_problems",
    "point_sets",
]


@dataclass(frozen=True)
class BoundedDistribution:
    """A discrete distribution on [0, 1]: ``atoms`` with probabilities ``weights``."""

    atoms: np.ndarray
    weights: np.ndarray

    @property
    def mean(self) -> float:
        return float(self.atoms @ self.weights)

    def sample(self, rng: np.random.Generator, size: tuple[int, ...]) -> np.ndarray:
        """Inverse-CDF sampling, vectorised."""
        cdf = np.cumsum(self.weights)
        cdf[-1] = 1.0
        idx = np.minimum(np.searchsorted(cdf, rng.random(size), side="right"),
                         self.atoms.size - 1)
        return self.atoms[idx]

    def cdf_at_atoms(self) -> tuple[np.ndarray, np.ndarray]:
        """Sorted atoms and the CDF at them."""
        order = np.argsort(self.atoms)
        return self.atoms[order], np.cumsum(self.weights[order])


_UNIT = st.floats(0.0, 1.0, allow_nan=False, width=64)


@st.composite
def bounded_distributions(draw: st.DrawFn, *, max_atoms: int = 4) -> BoundedDistribution:
    """Discrete laws on [0, 1] with 1..max_atoms atoms; often a Bernoulli on {0, 1}."""
    kind = draw(st.sampled_from(["bernoulli", "bernoulli", "atoms"]))
    if kind == "bernoulli":
        p = draw(st.floats(0.0, 1.0, width=64))
        return BoundedDistribution(np.array([0.0, 1.0]), np.array([1.0 - p, p]))
    k = draw(st.integers(1, max_atoms))
    atoms = np.array(draw(st.lists(st.one_of(st.sampled_from([0.0, 1.0]), _UNIT),
                                   min_size=k, max_size=k)))
    raw = np.array(draw(st.lists(st.floats(1e-3, 1.0, width=64), min_size=k, max_size=k)))
    return BoundedDistribution(atoms, raw / raw.sum())


@dataclass(frozen=True)
class FiniteLearningProblem:
    """A distribution ``p`` over ``{0..n-1}`` and ``eta(x) = P(y = +1 | x)``."""

    p: np.ndarray
    eta: np.ndarray


@st.composite
def finite_learning_problems(draw: st.DrawFn, *, min_points: int = 2, max_points: int = 12,
                             noise: bool = True) -> FiniteLearningProblem:
    """Finite-domain problems; with ``noise=False`` the labels are a deterministic target."""
    n = draw(st.integers(min_points, max_points))
    raw = np.array(draw(st.lists(st.floats(1e-3, 1.0, width=64), min_size=n, max_size=n)))
    if draw(st.booleans()):
        raw = np.ones(n)  # the uniform distribution
    p = raw / raw.sum()
    target = np.array(draw(st.lists(st.sampled_from([0.0, 1.0]), min_size=n, max_size=n)))
    if noise:
        rate = draw(st.floats(0.0, 0.45, width=64))
        eta = np.abs(target - rate)
    else:
        eta = target
    return FiniteLearningProblem(p=p, eta=eta)


def finite_hypothesis_tables(n_points: int, *, min_size: int = 1,
                             max_size: int = 12) -> st.SearchStrategy[np.ndarray]:
    """Tables ``H[k, x]`` in {-1, +1} of shape (k, n_points), rows not necessarily distinct."""
    return st.integers(min_size, max_size).flatmap(
        lambda k: hnp.arrays(np.int64, (k, n_points), elements=st.sampled_from([-1, 1]))
    )


@st.composite
def point_sets(draw: st.DrawFn, m: int, dim: int, *, bound: float = 5.0) -> np.ndarray:
    """``m`` points in R^dim: free, on a line (degenerate), or with duplicates."""
    kind = draw(st.sampled_from(["free", "free", "collinear", "duplicates", "integer"]))
    if kind == "integer":
        return draw(hnp.arrays(np.float64, (m, dim), elements=st.integers(-2, 2).map(float)))
    X = draw(hnp.arrays(np.float64, (m, dim),
                        elements=st.floats(-bound, bound, allow_nan=False, width=64)))
    if kind == "collinear":
        direction = draw(hnp.arrays(np.float64, dim, elements=st.floats(-1, 1, width=64)))
        if np.linalg.norm(direction) < 1e-3:
            direction = np.ones(dim)
        X = X[:, :1] * direction[None, :]
    elif kind == "duplicates" and m >= 2:
        i = draw(st.integers(0, m - 2))
        X[m - 1] = X[i]
    return X
