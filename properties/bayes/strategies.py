"""Hypothesis strategies of the Bayes claims (003 Chapter 5).

They *construct* valid inputs: exact (rational) distributions with zero cells allowed,
finite decision problems with arbitrary loss matrices, naive Bayes, one-dependence and
Bayesian-network models (random DAGs, CPTs near 0 and 1 as well as flat ones),
categorical data sets with duplicated rows, and adversarial starting points for EM
(collapsed components, dead components, near-deterministic and near-zero tables).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import numpy as np
from hypothesis import strategies as st

__all__ = [
    "DecisionProblem",
    "NaiveBayesModel",
    "NetworkModel",
    "ODEModelSpec",
    "categorical_samples",
    "decision_problems",
    "distributions",
    "mixture_starts",
    "naive_bayes_models",
    "network_models",
    "network_starts",
    "ode_models",
    "rational_distributions",
]

#: Largest integer weight drawn for a rational probability: denominators stay small, so
#: exact sums of products are cheap.
MAX_WEIGHT = 12

#: Weight of the dominant entry of a "peaked" distribution: probabilities about 1/300
#: elsewhere (near-deterministic CPTs that slow Gibbs sampling down).
PEAK_WEIGHT = 300


@st.composite
def rational_distributions(draw, size: int, *, positive: bool = False) -> list[Fraction]:
    """A probability vector of ``size`` exact rationals (zeros allowed unless ``positive``),
    drawn as normalised small integers; sometimes a vertex or the uniform vector."""
    kind = draw(st.sampled_from(["general", "uniform", "vertex", "peaked"] if not positive
                                else ["general", "uniform", "peaked"]))
    if kind == "uniform":
        return [Fraction(1, size)] * size
    if kind == "peaked":  # nearly a vertex but positive: strong dependencies
        w = [1] * size
        w[draw(st.integers(0, size - 1))] = PEAK_WEIGHT
        return [Fraction(v, sum(w)) for v in w]
    if kind == "vertex":
        w = [0] * size
        w[draw(st.integers(0, size - 1))] = 1
    else:
        w = draw(st.lists(st.integers(1 if positive else 0, MAX_WEIGHT), min_size=size,
                          max_size=size))
        if sum(w) == 0:  # all zeros: a vertex (no filtering, so every draw is valid)
            w[0] = 1
    total = sum(w)
    return [Fraction(v, total) for v in w]


def distributions(size: int, *, positive: bool = False) -> st.SearchStrategy[np.ndarray]:
    """Float probability vectors (from the rational ones)."""
    return rational_distributions(size, positive=positive).map(
        lambda p: np.array([float(v) for v in p]))


@dataclass(frozen=True)
class DecisionProblem:
    """A finite problem: ``joint[x][c] = P(x, c)`` (rationals) and a loss matrix
    ``loss[i][j]`` (deciding ``c_i`` when the truth is ``c_j``)."""

    joint: list[list[Fraction]]
    loss: list[list[Fraction]]

    @property
    def n_inputs(self) -> int:
        return len(self.joint)

    @property
    def n_classes(self) -> int:
        return len(self.joint[0])


@st.composite
def decision_problems(draw, max_inputs: int = 4, max_classes: int = 3) -> DecisionProblem:
    """Every input has positive probability; losses are any rationals in [-2, 10] (the
    notes do not require 0 on the diagonal or non-negative losses)."""
    n = draw(st.integers(1, max_inputs))
    K = draw(st.integers(2, max_classes))
    flat = draw(rational_distributions(n * K))
    joint = [flat[i * K:(i + 1) * K] for i in range(n)]
    if any(sum(row) == 0 for row in joint):  # give every input some mass
        joint = [[v + Fraction(1, n * K * MAX_WEIGHT) if sum(row) == 0 else v for v in row]
                 for row in joint]
        total = sum(sum(row) for row in joint)
        joint = [[v / total for v in row] for row in joint]
    kind = draw(st.sampled_from(["zero-one", "general", "asymmetric"]))
    if kind == "zero-one":
        loss = [[Fraction(int(i != j)) for j in range(K)] for i in range(K)]
    else:
        values = st.fractions(min_value=-2 if kind == "general" else 0, max_value=10,
                              max_denominator=4)
        loss = [[draw(values) if (i != j or kind == "general") else Fraction(0)
                 for j in range(K)] for i in range(K)]
    return DecisionProblem(joint, loss)


@dataclass(frozen=True)
class NaiveBayesModel:
    """``prior[c]`` and ``cond[i][c][v] = P(x_i = v | c)`` as rationals."""

    prior: list[Fraction]
    cond: list[list[list[Fraction]]]

    @property
    def n_values(self) -> list[int]:
        return [len(t[0]) for t in self.cond]


@st.composite
def naive_bayes_models(draw, max_attributes: int = 3, max_values: int = 3,
                       max_classes: int = 3, positive: bool = False) -> NaiveBayesModel:
    K = draw(st.integers(2, max_classes))
    d = draw(st.integers(1, max_attributes))
    prior = draw(rational_distributions(K, positive=True))
    cond = []
    for _ in range(d):
        r = draw(st.integers(2, max_values))
        cond.append([draw(rational_distributions(r, positive=positive)) for _ in range(K)])
    return NaiveBayesModel(prior, cond)


@dataclass(frozen=True)
class ODEModelSpec:
    """A one-dependence model: ``parents[i]`` (-1: the class only) and
    ``cond[i][c][u][v] = P(x_i = v | c, x_parent = u)`` (a single row ``u = 0`` when
    there is no parent)."""

    prior: list[Fraction]
    parents: list[int]
    n_values: list[int]
    cond: list[list[list[list[Fraction]]]]


@st.composite
def ode_models(draw, kind: str = "tree", max_attributes: int = 4, max_values: int = 3,
               max_classes: int = 2) -> ODEModelSpec:
    """``kind="tree"``: each attribute's parent is an earlier attribute of a random order
    (a forest; a tree when every non-root has one), ``"spode"``: one super-parent,
    ``"nb"``: no attribute parents. Positive tables (the fitted estimators then see
    every cell)."""
    K = draw(st.integers(2, max_classes))
    d = draw(st.integers(2, max_attributes))
    n_values = [draw(st.integers(2, max_values)) for _ in range(d)]
    order = draw(st.permutations(range(d)))
    parents = [-1] * d
    if kind == "tree":
        for pos in range(1, d):
            parents[order[pos]] = order[draw(st.integers(0, pos - 1))]
    elif kind == "spode":
        s = order[0]
        parents = [s if i != s else -1 for i in range(d)]
    prior = draw(rational_distributions(K, positive=True))
    cond = []
    for i in range(d):
        rows = 1 if parents[i] < 0 else n_values[parents[i]]
        cond.append([[draw(rational_distributions(n_values[i], positive=True))
                      for _ in range(rows)] for _ in range(K)])
    return ODEModelSpec(prior, parents, n_values, cond)


@dataclass(frozen=True)
class NetworkModel:
    """A DAG (parent tuples), the cardinalities and rational CPTs
    (``cpts[i][parent values] = list of Fractions``, a dict keyed by tuples)."""

    parents: tuple[tuple[int, ...], ...]
    cards: tuple[int, ...]
    cpts: tuple[dict[tuple[int, ...], list[Fraction]], ...]

    def float_cpts(self) -> list[np.ndarray]:
        out = []
        for i, pa in enumerate(self.parents):
            shape = tuple(self.cards[p] for p in pa) + (self.cards[i],)
            arr = np.zeros(shape)
            for key, row in self.cpts[i].items():
                arr[key] = [float(v) for v in row]
            out.append(arr)
        return out


@st.composite
def network_models(draw, max_variables: int = 4, max_card: int = 3, max_parents: int = 2,
                   positive: bool = False) -> NetworkModel:
    """A random DAG (parents drawn among the earlier variables of a random order) with
    rational CPTs (zeros allowed unless ``positive``)."""
    d = draw(st.integers(1, max_variables))
    cards = tuple(draw(st.integers(2, max_card)) for _ in range(d))
    order = draw(st.permutations(range(d)))
    parents = [()] * d
    for pos, v in enumerate(order):
        earlier = list(order[:pos])
        k = draw(st.integers(0, min(max_parents, len(earlier))))
        parents[v] = tuple(draw(st.permutations(earlier))[:k]) if k else ()
    cpts = []
    for i, pa in enumerate(parents):
        table = {}
        for key in np.ndindex(*[cards[p] for p in pa]):
            table[tuple(int(k) for k in key)] = draw(rational_distributions(cards[i],
                                                                            positive=positive))
        cpts.append(table)
    return NetworkModel(tuple(parents), cards, tuple(cpts))


@st.composite
def categorical_samples(draw, max_rows: int = 30, max_attributes: int = 4,
                        max_values: int = 3) -> np.ndarray:
    """Categorical data (codes as floats) with many duplicated rows: rows are drawn from
    a small pool, and sometimes every row is the same point."""
    d = draw(st.integers(1, max_attributes))
    values = [draw(st.integers(2, max_values)) for _ in range(d)]
    pool_size = draw(st.integers(1, 6))
    pool = [[draw(st.integers(0, v - 1)) for v in values] for _ in range(pool_size)]
    n = draw(st.integers(2, max_rows))
    rows = [pool[draw(st.integers(0, pool_size - 1))] for _ in range(n)]
    return np.array(rows, dtype=float)


def _start_table(kind: str, rows: int, cols: int, rng: np.random.Generator) -> np.ndarray:
    if kind == "uniform":
        return np.full((rows, cols), 1.0 / cols)
    if kind == "peaked":  # near-deterministic, tiny but positive elsewhere
        t = np.full((rows, cols), 1e-12)
        t[np.arange(rows), rng.integers(0, cols, rows)] = 1.0
    else:
        t = rng.dirichlet(np.full(cols, 0.3), size=rows) + 1e-300
    return t / t.sum(axis=1, keepdims=True)


#: Kinds of adversarial EM starts.
START_KINDS = ("random", "collapsed", "dead", "peaked", "tiny-weight", "uniform")


@st.composite
def mixture_starts(draw, n_components: int, n_values: list[int]):
    """A starting point for the mixture of categoricals, as ``(kind, weights, theta)``:
    random, collapsed (all components equal: a fixed point of EM), a dead component
    (weight 0), near-deterministic tables (entries 1e-12), a component of weight 1e-300,
    or everything uniform."""
    kind = draw(st.sampled_from(START_KINDS))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    K = n_components
    weights = rng.dirichlet(np.ones(K))
    table_kind = {"peaked": "peaked", "uniform": "uniform"}.get(kind, "random")
    theta = [_start_table(table_kind, K, r, rng) for r in n_values]
    if kind == "collapsed":
        theta = [np.tile(t[:1], (K, 1)) for t in theta]
    elif kind == "dead" and K > 1:
        weights[0] = 0.0
        weights /= weights.sum()
    elif kind == "tiny-weight" and K > 1:
        weights[0] = 1e-300
        weights /= weights.sum()
    elif kind == "uniform":
        weights = np.full(K, 1.0 / K)
    return kind, weights, theta


@st.composite
def network_starts(draw, parents, cards):
    """Starting CPTs for EM on a network: random, uniform (a symmetric point) or
    near-deterministic (entries 1e-12)."""
    kind = draw(st.sampled_from(["random", "uniform", "peaked"]))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    cpts = []
    for i, pa in enumerate(parents):
        shape = tuple(cards[p] for p in pa)
        rows = int(np.prod(shape)) if shape else 1
        cpts.append(_start_table(kind, rows, cards[i], rng).reshape(shape + (cards[i],)))
    return kind, cpts
