"""Markov random fields (003 §12.2): maximal cliques, graph separation, clique
potentials exp(-H_Q) (12.6)-(12.7) and the normalised joint (12.5) by enumeration."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from scipy.special import logsumexp

from algorithms._validation import InvalidArgumentError, check_array_argument, check_int
from algorithms.graphical._inference import (
    MAX_TABLE_SIZE,
    Factor,
    _check_factors,
    _check_variables,
    _scope_cardinalities,
)

__all__ = [
    "energy_factor",
    "markov_blanket",
    "maximal_cliques",
    "mrf_joint",
    "mrf_log_partition",
    "separates",
]


def _check_adjacency(adjacency: object, name: str = "adjacency") -> np.ndarray:
    adj = check_array_argument(adjacency, name, ndim=2, dtype=None, real=True)
    if adj.shape[0] != adj.shape[1]:
        raise ValueError(f"{name} must be a square matrix, got shape {adj.shape}.")
    if adj.dtype.kind not in "biuf" or not np.all((adj == 0) | (adj == 1)):
        raise ValueError(f"{name} must be a 0/1 (boolean) matrix.")
    adj = adj.astype(bool)
    if not np.array_equal(adj, adj.T):
        raise ValueError(f"{name} must be symmetric (an undirected graph).")
    if np.any(np.diag(adj)):
        raise ValueError(f"{name} must have a zero diagonal (no self-loops).")
    return adj


def maximal_cliques(adjacency: object) -> list[tuple[int, ...]]:
    """Every maximal clique of an undirected graph (Bron-Kerbosch with pivoting).

    Parameters
    ----------
    adjacency : bool array of shape (n, n)
        Symmetric, zero diagonal.

    Returns
    -------
    list of tuple of int
        Each maximal clique as a sorted tuple; the list sorted. An isolated node is a
        maximal clique of its own, so every node lies in at least one (003 §12.2).
    """
    adj = _check_adjacency(adjacency)
    n = adj.shape[0]
    nbrs = [set(np.flatnonzero(adj[v]).tolist()) for v in range(n)]
    out: list[tuple[int, ...]] = []
    stack = [(set(), set(range(n)), set())]
    while stack:
        r, p, x = stack.pop()
        if not p and not x:
            out.append(tuple(sorted(r)))
            continue
        pivot = max(p | x, key=lambda u: len(nbrs[u] & p))
        for v in list(p - nbrs[pivot]):
            stack.append((r | {v}, p & nbrs[v], x & nbrs[v]))
            p = p - {v}
            x = x | {v}
    return sorted(out)


def _node_set(value: object, name: str, n: int) -> set[int]:
    if isinstance(value, int | np.integer) or not isinstance(value, Sequence | np.ndarray
                                                             | set | frozenset):
        raise InvalidArgumentError(f"{name} must be a collection of node indices.")
    return {check_int(v, name, low=0, high=n - 1) for v in value}


def separates(adjacency: object, A: object, B: object, C: object) -> bool:  # noqa: N803
    """Whether the node set C separates A from B: every path from A to B meets C.

    A, B and C must be disjoint; A and B non-empty. Decided by growing the set of
    nodes reachable from A in the graph with C removed (one vectorised step per
    breadth-first level; at most n steps).
    """
    adj = _check_adjacency(adjacency)
    n = adj.shape[0]
    a, b, c = _node_set(A, "A", n), _node_set(B, "B", n), _node_set(C, "C", n)
    if not a or not b:
        raise ValueError("A and B must be non-empty node sets.")
    if a & b or a & c or b & c:
        raise ValueError("A, B and C must be disjoint node sets.")
    keep = np.ones(n, dtype=bool)
    keep[list(c)] = False
    reach = np.zeros(n, dtype=bool)
    reach[list(a)] = True
    while True:  # breadth-first frontier expansion in the graph without C
        grown = reach | (adj[reach].any(axis=0) & keep)
        if np.array_equal(grown, reach):
            break
        reach = grown
    return not reach[list(b)].any()


def markov_blanket(adjacency: object, node: int) -> tuple[int, ...]:
    """The neighbours n(v) of a node: given them, x_v is independent of every other
    variable of an MRF on this graph (the local Markov property, 003 §12.2)."""
    adj = _check_adjacency(adjacency)
    v = check_int(node, "node", low=0, high=adj.shape[0] - 1)
    return tuple(np.flatnonzero(adj[v]).tolist())


def energy_factor(variables: Sequence[int], alpha: object, beta: object, states: object
                  ) -> Factor:
    """The clique potential psi_Q = exp(-H_Q) of (12.6) with the energy (12.7).

    Parameters
    ----------
    variables : sequence of int, length q
        The clique's variables.
    alpha : array of shape (q, q)
        Pair coefficients alpha_uv (the diagonal is not used: u != v).
    beta : array of shape (q,)
        Single-variable coefficients beta_v.
    states : array of shape (k,)
        The real value x_v each of the k states stands for (e.g. ``[-1, 1]``).

    Returns
    -------
    Factor
        log psi_Q(x_Q) = -H_Q(x_Q), H_Q = sum_{u != v} alpha_uv x_u x_v + sum_v beta_v x_v,
        the sum over ordered pairs as printed.
    """
    vars_ = _check_variables(variables, "variables")
    q = len(vars_)
    if q == 0:
        raise ValueError("variables must name at least one variable of the clique.")
    a = check_array_argument(alpha, "alpha", shape=(q, q), real=True)
    b = check_array_argument(beta, "beta", shape=(q,), real=True)
    s = check_array_argument(states, "states", ndim=1, real=True)
    if s.size**q > MAX_TABLE_SIZE:
        raise ValueError(f"states: a table of {s.size}**{q} entries is too large.")
    grids = np.meshgrid(*([s] * q), indexing="ij")
    X = np.stack([g.ravel() for g in grids], axis=1)  # every configuration of the clique
    off = a * (1.0 - np.eye(q))
    with np.errstate(over="ignore", invalid="ignore"):
        H = np.einsum("nu,uv,nv->n", X, off, X) + X @ b
    if not np.all(np.isfinite(H)):
        raise ValueError("alpha, beta and states are too large: the energy H_Q overflows.")
    return Factor.from_log(vars_, -H.reshape((s.size,) * q))


def _check_cardinalities(cardinalities: object, factors: list[Factor]) -> np.ndarray:
    cards = check_array_argument(cardinalities, "cardinalities", ndim=1, dtype=None,
                                 real=True)
    if cards.dtype.kind not in "biu" or np.any(cards < 1):
        raise ValueError("cardinalities must be positive integers, one per variable.")
    for v, k in _scope_cardinalities(factors, "factors").items():
        if v >= cards.size or cards[v] != k:
            raise ValueError(f"cardinalities disagree with the factors at variable {v}.")
    if np.prod(cards.astype(float)) > MAX_TABLE_SIZE:
        raise ValueError(f"cardinalities: more than {MAX_TABLE_SIZE} joint states to "
                         "enumerate.")
    return cards.astype(np.intp)


def _log_joint_unnormalised(factors: object, cardinalities: object) -> np.ndarray:
    fs = _check_factors(factors)
    cards = _check_cardinalities(cardinalities, fs)
    variables = list(range(cards.size))
    table = np.zeros(cards)
    for f in fs:
        table = table + f.expand(variables)
    return table


def mrf_log_partition(factors: Sequence[Factor], cardinalities: object) -> float:
    """log Z, Z = sum_x prod_Q psi_Q(x_Q) (003 §12.2 (12.5)), by enumerating every joint
    state (log-sum-exp of the summed log potentials)."""
    return float(logsumexp(_log_joint_unnormalised(factors, cardinalities)))


def mrf_joint(factors: Sequence[Factor], cardinalities: object) -> np.ndarray:
    """P(x) = prod_Q psi_Q(x_Q) / Z of (12.5) as a table with one axis per variable
    (variables ``0..n-1``; a variable in no factor is uniform), by enumeration."""
    table = _log_joint_unnormalised(factors, cardinalities)
    log_z = logsumexp(table)
    if not np.isfinite(log_z):
        raise ValueError("factors are zero on every joint state: Z = 0.")
    return np.exp(table - log_z)
