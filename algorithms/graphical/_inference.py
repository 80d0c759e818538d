"""Exact inference on discrete graphical models (003 §12.4): factors, variable
elimination with any elimination order (min-degree by default) and sum-product belief
propagation on trees with the two-pass schedule.

Every table is held in log space, so products are sums and summing a variable out is a
log-sum-exp: potentials of size 1e300 or 1e-300 neither overflow nor underflow.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np
from scipy.special import logsumexp

from algorithms._validation import (
    InvalidArgumentError,
    check_array_argument,
    check_choice,
    check_index_array,
    check_int,
    check_nonnegative_table,
)

__all__ = [
    "BeliefPropagationResult",
    "EliminationResult",
    "Factor",
    "belief_propagation",
    "min_degree_order",
    "variable_elimination",
]

#: The largest table (number of entries) any exact routine here builds; beyond it the
#: request is refused instead of exhausting memory.
MAX_TABLE_SIZE = 2**22


# ---------------------------------------------------------------------------
# Checks shared by the exact modules (integer index arrays, probability tables)
# ---------------------------------------------------------------------------


def _log(values: np.ndarray) -> np.ndarray:
    with np.errstate(divide="ignore"):
        return np.log(values)


# ---------------------------------------------------------------------------
# Factors
# ---------------------------------------------------------------------------


class Factor:
    """A non-negative function of a few discrete variables, held as a log table.

    Parameters
    ----------
    variables : sequence of int
        Distinct variable indices (>= 0), one per table axis.
    values : array of shape (k_1, ..., k_m)
        Non-negative potential values, axis ``a`` indexing the states of
        ``variables[a]``. A scalar with ``variables=()`` is a constant factor.

    Notes
    -----
    A factor is the potential psi_Q(x_Q) of a clique Q in 003 §12.2 (12.5). Products add
    log tables (broadcast over the union of scopes); ``sum_out`` is a log-sum-exp over
    one axis (the distributive law behind variable elimination, 003 §12.4.1).
    """

    def __init__(self, variables: Sequence[int], values: object) -> None:
        vars_ = _check_variables(variables, "variables")
        table = check_nonnegative_table(values, "values", ndim=len(vars_))
        self._set(vars_, _log(table))

    @classmethod
    def from_log(cls, variables: Sequence[int], log_values: object) -> Factor:
        """A factor given by its log table (entries in [-inf, inf), NaN refused)."""
        vars_ = _check_variables(variables, "variables")
        arr = check_array_argument(log_values, "log_values", ndim=len(vars_), finite=False,
                                   real=True)
        if np.any(np.isnan(arr)) or np.any(arr == np.inf):
            raise ValueError("log_values must be real or -inf (no NaN or +inf).")
        out = cls.__new__(cls)
        out._set(vars_, arr)
        return out

    def _set(self, variables: tuple[int, ...], log_values: np.ndarray) -> None:
        if log_values.size == 0:
            raise ValueError("values must not be empty: every variable needs a state.")
        self.variables = variables
        self.log_values = np.asarray(log_values, dtype=float)

    @property
    def values(self) -> np.ndarray:
        """The table ``exp(log_values)`` (may under- or overflow for extreme factors)."""
        with np.errstate(over="ignore", under="ignore"):
            return np.exp(self.log_values)

    @property
    def cardinalities(self) -> dict[int, int]:
        return dict(zip(self.variables, self.log_values.shape, strict=True))

    def __repr__(self) -> str:
        return f"Factor(variables={self.variables}, shape={self.log_values.shape})"

    def expand(self, variables: Sequence[int]) -> np.ndarray:
        """The log table broadcast to the axis order ``variables`` (a superset of the
        scope; absent variables get axes of length 1)."""
        order = [self.variables.index(v) for v in variables if v in self.variables]
        table = np.transpose(self.log_values, order)
        shape = [self.log_values.shape[self.variables.index(v)] if v in self.variables else 1
                 for v in variables]
        return table.reshape(shape)

    def product(self, other: Factor) -> Factor:
        """The factor product (log tables added over the union of the scopes)."""
        return factor_product([self, other])

    def sum_out(self, variable: int) -> Factor:
        """Sum one variable out of the factor (a log-sum-exp over its axis)."""
        if variable not in self.variables:
            raise ValueError(f"variable {variable} is not in the factor's scope "
                             f"{self.variables}.")
        axis = self.variables.index(variable)
        rest = tuple(v for v in self.variables if v != variable)
        out = Factor.__new__(Factor)
        out._set(rest, np.asarray(logsumexp(self.log_values, axis=axis)))
        return out

    def reduce(self, evidence: Mapping[int, int]) -> Factor:
        """Fix the observed variables of the scope to their values (evidence reduction)."""
        index = tuple(evidence.get(v, slice(None)) for v in self.variables)
        rest = tuple(v for v in self.variables if v not in evidence)
        out = Factor.__new__(Factor)
        out._set(rest, np.asarray(self.log_values[index]))
        return out


def _check_variables(variables: object, name: str) -> tuple[int, ...]:
    if isinstance(variables, int | np.integer) or not isinstance(
            variables, Sequence | np.ndarray):
        raise InvalidArgumentError(f"{name} must be a sequence of variable indices.")
    out = tuple(check_int(v, name, low=0) for v in variables)
    if len(set(out)) != len(out):
        raise ValueError(f"{name} must be distinct, got {out}.")
    return out


def _scope_cardinalities(factors: Sequence[Factor], name: str) -> dict[int, int]:
    cards: dict[int, int] = {}
    for f in factors:
        for v, k in f.cardinalities.items():
            if cards.setdefault(v, k) != k:
                raise ValueError(f"{name}: variable {v} has {cards[v]} states in one factor "
                                 f"and {k} in another.")
    return cards


def factor_product(factors: Sequence[Factor]) -> Factor:
    """The product of factors (log tables added over the union of their scopes)."""
    variables: list[int] = []
    for f in factors:
        variables.extend(v for v in f.variables if v not in variables)
    cards = _scope_cardinalities(factors, "factors")
    size = int(np.prod([cards[v] for v in variables], dtype=float)) if variables else 1
    if size > MAX_TABLE_SIZE:
        raise ValueError(f"factors: the product table would have {size} entries, more than "
                         f"{MAX_TABLE_SIZE}.")
    total = np.zeros([cards[v] for v in variables])
    for f in factors:
        total = total + f.expand(variables)
    out = Factor.__new__(Factor)
    out._set(tuple(variables), total)
    return out


def _check_factors(factors: object, name: str = "factors") -> list[Factor]:
    if isinstance(factors, Factor) or not isinstance(factors, Sequence) or not factors:
        raise InvalidArgumentError(f"{name} must be a non-empty sequence of Factor objects.")
    if not all(isinstance(f, Factor) for f in factors):
        raise InvalidArgumentError(f"{name} must hold Factor objects only.")
    _scope_cardinalities(factors, name)
    return list(factors)


# ---------------------------------------------------------------------------
# Variable elimination
# ---------------------------------------------------------------------------


def min_degree_order(factors: Sequence[Factor], eliminate: Sequence[int]) -> tuple[int, ...]:
    """The greedy min-degree elimination order of ``eliminate``.

    Repeatedly eliminate the variable with the fewest neighbours in the current
    interaction graph (variables sharing a factor; ties to the smallest index) and join
    its neighbours into a clique (the fill-in its new factor creates).
    """
    factors = _check_factors(factors)
    cards = _scope_cardinalities(factors, "factors")
    todo = _check_variables(eliminate, "eliminate")
    missing = [v for v in todo if v not in cards]
    if missing:
        raise ValueError(f"eliminate: variables {missing} appear in no factor.")
    nbrs: dict[int, set[int]] = {v: set() for v in cards}
    for f in factors:
        for u, v in itertools.combinations(f.variables, 2):
            nbrs[u].add(v)
            nbrs[v].add(u)
    left = set(todo)
    order = []
    while left:
        v = min(left, key=lambda u: (len(nbrs[u]), u))
        for a, b in itertools.combinations(nbrs[v], 2):
            nbrs[a].add(b)
            nbrs[b].add(a)
        for u in nbrs[v]:
            nbrs[u].discard(v)
        del nbrs[v]
        left.remove(v)
        order.append(v)
    return tuple(order)


@dataclass
class EliminationResult:
    """What :func:`variable_elimination` computed and how.

    Attributes
    ----------
    probabilities : ndarray of shape (k_q1, ..., k_qm)
        P(x_F | x_E) over the query variables in the order given (a 0-d 1.0 for an
        empty query).
    variables : tuple of int
        The query variables, one per axis of ``probabilities``.
    log_normalizer : float
        log of the sum of the unnormalised result: log Z for a query without evidence,
        log(Z P(x_E)) with evidence (Z the product of the factors summed over all states).
    order : tuple of int
        The elimination order used.
    n_eliminations : int
        Variables summed out (one intermediate factor each).
    n_operations : int
        Scalar multiplications and additions performed by products and sums.
    intermediates : list of Factor
        The factor created by each elimination, in order (``record=True`` only).
    """

    probabilities: np.ndarray
    variables: tuple[int, ...]
    log_normalizer: float
    order: tuple[int, ...]
    n_eliminations: int
    n_operations: int
    intermediates: list[Factor] = field(default_factory=list)


def variable_elimination(
    factors: Sequence[Factor],
    query: Sequence[int],
    evidence: Mapping[int, int] | None = None,
    order: str | Sequence[int] = "min_degree",
    *,
    record: bool = False,
) -> EliminationResult:
    """P(x_F | x_E) of the model prod_Q psi_Q(x_Q) / Z by variable elimination.

    Parameters
    ----------
    factors : sequence of Factor
        The potentials of the model (clique potentials of an MRF, conditional tables of
        a Bayesian network).
    query : sequence of int
        The variables F whose (conditional) distribution is wanted; may be empty.
    evidence : mapping int -> int, optional
        Observed variables E and their states; disjoint from ``query``.
    order : "min_degree" or sequence of int
        Elimination order of the remaining variables: the min-degree heuristic or an
        explicit permutation of them.
    record : bool
        Keep every intermediate factor in the result.

    Returns
    -------
    EliminationResult

    Notes
    -----
    The distributive law of 003 §12.4.1: for each variable in turn, the factors that
    mention it are multiplied and the variable is summed out of the product; the
    remaining factors over F are multiplied and normalised by their sum, which is
    P(x_E) (times Z), i.e. (12.10) with (12.11) in the denominator.
    """
    factors = _check_factors(factors)
    cards = _scope_cardinalities(factors, "factors")
    q = _check_variables(query, "query")
    for v in q:
        if v not in cards:
            raise ValueError(f"query: variable {v} appears in no factor.")
    ev: dict[int, int] = {}
    if evidence is not None:
        if not isinstance(evidence, Mapping):
            raise InvalidArgumentError("evidence must be a mapping variable -> state.")
        for v, s in evidence.items():
            v = check_int(v, "evidence", low=0)
            if v not in cards:
                raise ValueError(f"evidence: variable {v} appears in no factor.")
            ev[v] = check_int(s, "evidence", low=0, high=cards[v] - 1)
    if set(ev) & set(q):
        raise ValueError(f"evidence and query overlap on {sorted(set(ev) & set(q))}.")
    remaining = [v for v in sorted(cards) if v not in ev and v not in q]
    if isinstance(order, str):
        check_choice(order, "order", ("min_degree",))
        elim = min_degree_order(factors, remaining)
    else:
        elim = _check_variables(order, "order")
        if sorted(elim) != remaining:
            raise ValueError(f"order must be a permutation of the eliminated variables "
                             f"{remaining}, got {list(elim)}.")
    work = [f.reduce(ev) for f in factors]
    n_ops = 0
    kept: list[Factor] = []
    for v in elim:
        bucket = [f for f in work if v in f.variables]
        work = [f for f in work if v not in f.variables]
        prod = factor_product(bucket)
        n_ops += (len(bucket) - 1) * prod.log_values.size
        new = prod.sum_out(v)
        n_ops += prod.log_values.size - new.log_values.size
        work.append(new)
        if record:
            kept.append(new)
    final = factor_product(work)
    n_ops += (len(work) - 1) * final.log_values.size
    table = final.expand(q) if q else np.asarray(final.log_values).reshape(())
    log_norm = float(logsumexp(table))
    if not np.isfinite(log_norm):
        raise ValueError("evidence has probability zero under the factors (or the "
                         "factors are all zero): P(x_E) = 0, nothing to condition on.")
    return EliminationResult(
        probabilities=np.exp(table - log_norm), variables=q, log_normalizer=log_norm,
        order=tuple(elim), n_eliminations=len(elim), n_operations=int(n_ops),
        intermediates=kept)


# ---------------------------------------------------------------------------
# Belief propagation on trees
# ---------------------------------------------------------------------------


@dataclass
class BeliefPropagationResult:
    """Messages and marginals of sum-product belief propagation on a tree.

    Attributes
    ----------
    marginals : ndarray of shape (n_nodes, k)
        P(x_i) for every node, (12.13) normalised.
    log_partition : float
        log Z, the sum over all states of the product of every potential.
    log_messages : dict (i, j) -> ndarray of shape (k,)
        log m_ij(x_j), unnormalised, as (12.12) defines it.
    schedule : list of (i, j)
        The messages in the order sent: leaves to root, then root to leaves.
    n_messages : int
        Messages sent, 2 (n_nodes - 1).
    """

    marginals: np.ndarray
    log_partition: float
    log_messages: dict[tuple[int, int], np.ndarray]
    schedule: list[tuple[int, int]]
    n_messages: int


def tree_neighbours(edges: object, n_nodes: int, name: str = "edges") -> list[list[int]]:
    """Neighbour lists of a tree on ``n_nodes`` nodes; a cycle or a disconnected graph is
    refused with a ValueError naming ``name``."""
    e = check_array_argument(edges, name, dtype=None, allow_empty=True, real=True)
    if e.size == 0:
        e = e.reshape(0, 2)
    if e.ndim != 2 or e.shape[1] != 2:
        raise ValueError(f"{name} must be an (n_edges, 2) array of node pairs, got shape "
                         f"{e.shape}.")
    e = check_index_array(e, name, n_nodes, ndims=(2,)) if e.size else e.astype(np.intp)
    parent = list(range(n_nodes))

    def root(a: int) -> int:
        while parent[a] != a:
            parent[a] = parent[parent[a]]
            a = parent[a]
        return a

    nbrs: list[list[int]] = [[] for _ in range(n_nodes)]
    for i, j in e.tolist():
        if i == j:
            raise ValueError(f"{name} contains a self-loop at node {i}.")
        ri, rj = root(i), root(j)
        if ri == rj:
            raise ValueError(f"{name} contain a cycle (through the edge ({i}, {j})): "
                             "tree belief propagation needs an acyclic graph.")
        parent[ri] = rj
        nbrs[i].append(j)
        nbrs[j].append(i)
    if len(e) != n_nodes - 1:
        raise ValueError(f"{name} must connect all {n_nodes} nodes into one tree, got "
                         f"{len(e)} edges.")
    return nbrs


def belief_propagation(
    edges: object,
    pairwise: object,
    unary: object | None = None,
    *,
    n_states: int | None = None,
    root: int = 0,
) -> BeliefPropagationResult:
    """All single-node marginals of a tree-structured pairwise MRF by sum-product.

    Parameters
    ----------
    edges : int array of shape (n_nodes - 1, 2)
        The tree's edges (i, j); a cycle or a disconnected graph is refused.
    pairwise : array of shape (n_nodes - 1, k, k)
        psi(x_i, x_j) of each edge, indexed ``pairwise[e, x_i, x_j]`` for edge (i, j).
    unary : array of shape (n_nodes, k), optional
        Node potentials phi_i(x_i), folded into the messages (default: all ones, the
        notes' purely pairwise model). Required for a one-node tree.
    n_states : int, optional
        k; needed only when there are no edges and no ``unary``.
    root : int
        The node the first pass sends towards.

    Returns
    -------
    BeliefPropagationResult

    Notes
    -----
    003 §12.4.2: m_ij(x_j) = sum_{x_i} phi_i(x_i) psi(x_i, x_j) prod_{k in n(i)\\j}
    m_ki(x_i) (12.12); a node sends to j once it has heard from all its other
    neighbours; leaves-to-root then root-to-leaves delivers every message, after which
    P(x_i) is proportional to phi_i(x_i) prod_{k in n(i)} m_ki(x_i) (12.13). Messages
    are kept unnormalised in log space, so prod of incoming messages sums to Z at every
    node.
    """
    psi = check_nonnegative_table(pairwise, "pairwise", ndim=3) if np.size(pairwise) else None
    if psi is not None and psi.shape[1] != psi.shape[2]:
        raise ValueError(f"pairwise must have shape (n_edges, k, k), got {psi.shape}.")
    if unary is not None:
        phi = check_nonnegative_table(unary, "unary", ndim=2)
        n_nodes, k = phi.shape
        if psi is not None and psi.shape[1] != k:
            raise ValueError(f"unary has {k} states per node but pairwise has "
                             f"{psi.shape[1]}.")
    else:
        if psi is None:
            raise ValueError("unary is required for a tree without edges (one node).")
        k = psi.shape[1]
        n_nodes = psi.shape[0] + 1
        phi = np.ones((n_nodes, k))
    if n_states is not None and check_int(n_states, "n_states", low=1) != k:
        raise ValueError(f"n_states={n_states} disagrees with the potentials' {k} states.")
    n_edges = 0 if psi is None else psi.shape[0]
    if n_edges != n_nodes - 1:
        raise ValueError(f"pairwise must hold one table per edge of the tree on {n_nodes} "
                         f"nodes ({n_nodes - 1}), got {n_edges}.")
    root = check_int(root, "root", low=0, high=n_nodes - 1)
    nbrs = tree_neighbours(edges, n_nodes)
    e = np.asarray(edges, dtype=np.intp).reshape(-1, 2)
    log_psi: dict[tuple[int, int], np.ndarray] = {}
    for idx, (i, j) in enumerate(e.tolist()):
        log_psi[(i, j)] = _log(psi[idx])
        log_psi[(j, i)] = _log(psi[idx]).T
    log_phi = _log(phi)

    # breadth-first order from the root: parents before children
    order, parent = [root], {root: -1}
    for u in order:
        for w in nbrs[u]:
            if w not in parent:
                parent[w] = u
                order.append(w)
    schedule = [(u, parent[u]) for u in reversed(order[1:])]
    schedule += [(u, w) for u in order for w in nbrs[u] if parent.get(w) == u]

    msgs: dict[tuple[int, int], np.ndarray] = {}
    for i, j in schedule:
        belief = log_phi[i] + sum((msgs[(m, i)] for m in nbrs[i] if m != j),
                                  start=np.zeros(k))
        msgs[(i, j)] = logsumexp(log_psi[(i, j)] + belief[:, None], axis=0)
    beliefs = log_phi + np.array([sum((msgs[(m, i)] for m in nbrs[i]), start=np.zeros(k))
                                  for i in range(n_nodes)])
    log_z = logsumexp(beliefs, axis=1)
    if not np.all(np.isfinite(log_z)):
        raise ValueError("pairwise/unary: every joint state has potential zero (Z = 0).")
    return BeliefPropagationResult(
        marginals=np.exp(beliefs - log_z[:, None]), log_partition=float(log_z[root]),
        log_messages=msgs, schedule=schedule, n_messages=len(schedule))
