"""Hypothesis strategies for the exact part of 003 Chapter 12: small HMMs, random
undirected graphs with random positive clique potentials, trees with pairwise
potentials, and linear-chain CRF feature tensors. Everything is small enough to be
enumerated, and potentials range from nearly flat to nearly deterministic."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from hypothesis import strategies as st

SEEDS = st.integers(0, 2**32 - 1)

#: Dirichlet concentrations: sparse-ish rows (0.2), uniform draws (1) and near-uniform
#: rows (20).
CONCENTRATIONS = st.sampled_from([0.2, 1.0, 20.0])

#: Standard deviations of log-potentials: almost flat (0.05) to almost deterministic (8).
LOG_SCALES = st.sampled_from([0.05, 1.0, 3.0, 8.0])


@dataclass(frozen=True)
class HMMCase:
    A: np.ndarray
    B: np.ndarray
    pi: np.ndarray
    n: int


def _stochastic(rng: np.random.Generator, rows: int, cols: int, conc: float) -> np.ndarray:
    P = rng.dirichlet(np.full(cols, conc), size=rows)
    return P / P.sum(axis=1, keepdims=True)


@st.composite
def hmms(draw, max_states: int = 3, max_symbols: int = 3, max_steps: int = 4) -> HMMCase:
    """lambda = [A, B, pi] with N, M, n small enough to enumerate all N^n M^n
    configurations; sometimes with exact zeros (a state that cannot follow another)."""
    rng = np.random.default_rng(draw(SEEDS))
    N = draw(st.integers(1, max_states))
    M = draw(st.integers(1, max_symbols))
    n = draw(st.integers(1, max_steps))
    conc = draw(CONCENTRATIONS)
    A, B = _stochastic(rng, N, N, conc), _stochastic(rng, N, M, conc)
    pi = _stochastic(rng, 1, N, conc)[0]
    if draw(st.booleans()) and N > 1:  # a forbidden transition, renormalised
        A[0, -1] = 0.0
        A[0] /= A[0].sum()
    return HMMCase(A, B, pi, n)


@dataclass(frozen=True)
class MRFCase:
    """A random undirected graph and positive potentials on its cliques.

    ``potentials`` are raw (variables, table) pairs so that the brute-force references
    never go through our Factor class.
    """

    adjacency: np.ndarray
    cardinalities: np.ndarray
    potentials: list[tuple[tuple[int, ...], np.ndarray]]


def random_adjacency(rng: np.random.Generator, n: int, p: float) -> np.ndarray:
    upper = np.triu(rng.random((n, n)) < p, 1)
    return upper | upper.T


def all_cliques(adj: np.ndarray) -> list[tuple[int, ...]]:
    """Every non-empty clique, by checking every subset (small graphs only)."""
    n = adj.shape[0]
    out = []
    for mask in range(1, 2**n):
        nodes = [v for v in range(n) if mask >> v & 1]
        if all(adj[u, v] for i, u in enumerate(nodes) for v in nodes[i + 1:]):
            out.append(tuple(nodes))
    return out


@st.composite
def mrfs(draw, min_nodes: int = 2, max_nodes: int = 6, max_states: int = 2,
         on: str = "cliques") -> MRFCase:
    """A random graph (edge probability 0.2-0.8) with a positive potential on every
    clique (``on="cliques"``: singletons, edges and larger cliques alike) or only on
    some (``on="some"``: each clique with probability 1/2, every edge kept so the
    graph is the model's)."""
    rng = np.random.default_rng(draw(SEEDS))
    n = draw(st.integers(min_nodes, max_nodes))
    adj = random_adjacency(rng, n, draw(st.sampled_from([0.2, 0.4, 0.6, 0.8])))
    cards = rng.integers(2, max_states + 1, size=n)
    scale = draw(LOG_SCALES)
    pots = []
    for q in all_cliques(adj):
        if on == "some" and len(q) != 2 and rng.random() < 0.5:
            continue
        table = np.exp(scale * rng.normal(size=tuple(int(cards[v]) for v in q)))
        pots.append((q, table))
    if not pots:  # "some" on a graph without edges: keep the node potentials
        pots = [((v,), np.exp(scale * rng.normal(size=int(cards[v])))) for v in range(n)]
    return MRFCase(adj, cards, pots)


@dataclass(frozen=True)
class TreeCase:
    edges: np.ndarray
    pairwise: np.ndarray
    unary: np.ndarray | None
    k: int


def random_tree_edges(rng: np.random.Generator, n: int) -> np.ndarray:
    """A uniformly shuffled random recursive tree: node i > 0 attaches to a random
    earlier node, then labels are permuted and edge ends randomly swapped."""
    parents = [int(rng.integers(0, i)) for i in range(1, n)]
    perm = rng.permutation(n)
    edges = np.array([[perm[i], perm[p]] for i, p in zip(range(1, n), parents, strict=True)],
                     dtype=np.intp).reshape(-1, 2)
    flip = rng.random(len(edges)) < 0.5
    edges[flip] = edges[flip][:, ::-1]
    return edges


@st.composite
def trees(draw, min_nodes: int = 2, max_nodes: int = 8, unary: bool | None = None) -> TreeCase:
    """A random tree with positive pairwise potentials (and unary ones when ``unary``
    is True; drawn when None)."""
    rng = np.random.default_rng(draw(SEEDS))
    n = draw(st.integers(min_nodes, max_nodes))
    k = draw(st.integers(2, 3))
    scale = draw(LOG_SCALES)
    edges = random_tree_edges(rng, n)
    pairwise = np.exp(scale * rng.normal(size=(n - 1, k, k)))
    with_unary = draw(st.booleans()) if unary is None else unary
    phi = np.exp(scale * rng.normal(size=(n, k))) if with_unary else None
    return TreeCase(edges, pairwise, phi, k)


@dataclass(frozen=True)
class CRFCase:
    T: np.ndarray  # (J, n - 1, L, L): T[j, i, a, b] = t_j(y_{i+1} = b, y_i = a, x, i)
    S: np.ndarray  # (K, n, L): S[k, i, a] = s_k(y_i = a, x, i)
    lam: np.ndarray
    mu: np.ndarray


@st.composite
def crfs(draw, max_len: int = 4, max_labels: int = 3, n_transition: int | None = None
         ) -> CRFCase:
    """Feature tensors of 0/1 indicator features (as in the book's examples) or real
    ones, with weights from small to large."""
    rng = np.random.default_rng(draw(SEEDS))
    n = draw(st.integers(1, max_len))
    L = draw(st.integers(2, max_labels))
    J = draw(st.integers(0, 3)) if n_transition is None else n_transition
    K = draw(st.integers(1, 3))
    binary = draw(st.booleans())
    scale = draw(st.sampled_from([0.1, 1.0, 5.0]))

    def feats(shape):
        return (rng.random(shape) < 0.4).astype(float) if binary else rng.normal(size=shape)

    return CRFCase(feats((J, n - 1, L, L)), feats((K, n, L)), scale * rng.normal(size=J),
                   scale * rng.normal(size=K))
