"""Bayesian networks (003 §5.6 (5.9)-(5.13)): representation, joint, score, parameters,
sampling and exact inference by enumeration.

A network ``B = <G, Theta>`` (5.9) over discrete variables ``x_0..x_{d-1}`` with
``cards[i]`` values (codes ``0..cards[i] - 1``): ``G`` is given by the parent tuple of
every variable and must be acyclic; ``Theta`` holds one conditional probability table
per variable, ``cpts[i][pa_values..., v] = P(x_i = v | pi_i = pa_values)`` with axes in
the order of ``parents[i]`` and the variable itself last. The joint is
``P_B(x) = prod_i theta_{x_i | pi_i}``.

Independence queries (the book's §7.5.1): :meth:`BayesianNetwork.d_separated` by the
moral graph of the ancestral set.

Scores (5.10)-(5.12): ``s(B | D) = f |B| - LL(B | D)`` with ``|B|`` the number of free
parameters, ``sum_i (cards[i] - 1) prod_{j in pi_i} cards[j]``, and ``LL(B | D) =
sum_x log P_B(x)`` (5.11). ``f = 1`` is AIC, ``f = (1/2) log m`` is BIC, ``f = 0`` leaves
the negative log-likelihood (5.12). For a fixed structure the maximising parameters are
the empirical conditional frequencies (5.13) (:func:`fit_cpts`).
"""

from __future__ import annotations

import graphlib
import itertools
import math
from collections.abc import Mapping, Sequence

import numpy as np
from numpy.typing import ArrayLike
from scipy.sparse import csr_array
from scipy.sparse.csgraph import connected_components
from scipy.special import logsumexp

from algorithms._validation import (
    InvalidArgumentError,
    check_array_argument,
    check_int,
    check_real,
    make_rng,
)

__all__ = [
    "CPT_TOLERANCE",
    "MAX_JOINT_STATES",
    "SCORE_WEIGHTS",
    "BayesianNetwork",
    "MAX_TABLE_CELLS",
    "check_cards",
    "check_codes",
    "check_parents",
    "check_weights",
    "infer_cards",
    "family_counts",
    "fit_cpts",
    "mdl_weight",
    "network_score",
]

#: |sum - 1| allowed for a CPT row: float64 rounding of a short sum of terms <= 1.
CPT_TOLERANCE = 1e-9

#: Largest joint table enumerated (exact inference, the exact E-step): 2^22 float64
#: entries are 32 MiB.
MAX_JOINT_STATES = 2**22

#: Largest conditional table of one family (parents' values x the child's values) that
#: is counted: 2^24 float64 cells are 128 MiB; larger requests refuse, not exhaust memory.
MAX_TABLE_CELLS = 2**24

#: Named values of ``f`` in (5.10): AIC (one nat per parameter), BIC (half log m per
#: parameter), ML (no penalty, (5.12)).
SCORE_WEIGHTS = ("aic", "bic", "ml")


def check_parents(parents: object, n_variables: int | None = None, *, name: str = "parents"
                  ) -> tuple[tuple[int, ...], ...]:
    """``parents`` as a tuple of parent tuples forming a DAG (``ValueError`` otherwise)."""
    if isinstance(parents, str | bytes) or not isinstance(parents, Sequence):
        raise InvalidArgumentError(f"{name} must be a sequence of parent lists, got {parents!r}.")
    d = len(parents) if n_variables is None else n_variables
    if len(parents) != d:
        raise ValueError(f"{name} must list the parents of all {d} variables, got "
                         f"{len(parents)}.")
    out = []
    for i, pa in enumerate(parents):
        if isinstance(pa, str | bytes) or not isinstance(pa, Sequence | np.ndarray):
            raise InvalidArgumentError(f"{name}[{i}] must be a sequence of variable indices.")
        pa_t = tuple(check_int(p, f"{name}[{i}]", low=0, high=d - 1) for p in pa)
        if i in pa_t:
            raise ValueError(f"{name}[{i}] contains {i} itself (a self-loop is a cycle).")
        if len(set(pa_t)) != len(pa_t):
            raise ValueError(f"{name}[{i}] lists a parent twice: {pa_t}.")
        out.append(pa_t)
    try:
        tuple(graphlib.TopologicalSorter(dict(enumerate(out))).static_order())
    except graphlib.CycleError as exc:
        raise ValueError(f"{name} must form a directed acyclic graph; cycle: {exc.args[1]}."
                         ) from exc
    return tuple(out)


def _topological_order(parents: tuple[tuple[int, ...], ...]) -> tuple[int, ...]:
    return tuple(graphlib.TopologicalSorter(dict(enumerate(parents))).static_order())


def check_codes(X: ArrayLike, cards: Sequence[int], name: str = "X", *,
                allow_missing: bool = False) -> np.ndarray:
    """``X`` as an (n, d) array of value codes ``0..cards[i] - 1`` (int64), or float with
    NaN for missing entries when ``allow_missing``."""
    d = len(cards)
    arr = check_array_argument(X, name, shape=(None, d), finite=False, real=True)
    missing = np.isnan(arr)
    if np.any(missing) and not allow_missing:
        raise ValueError(f"{name} must not contain NaN (missing values need the EM fit).")
    if np.any(np.isinf(arr)):
        raise ValueError(f"{name} must not contain infinity.")
    values = np.where(missing, 0.0, arr)
    if np.any(values != np.round(values)) or np.any(values < 0) or np.any(
            values >= np.asarray(cards)):
        raise ValueError(f"{name} must hold integer codes with 0 <= X[:, i] < cards[i] = "
                         f"{list(cards)}.")
    return arr if allow_missing else values.astype(np.int64)


def check_cards(cards: object, d: int) -> tuple[int, ...]:
    """``cards`` as d integers >= 1 (values per variable), each at most
    :data:`MAX_TABLE_CELLS` (a table of one variable must fit)."""
    arr = check_array_argument(cards, "cards", shape=(d,), real=True)
    if np.any(arr != np.round(arr)) or np.any(arr < 1) or np.any(arr > MAX_TABLE_CELLS):
        raise ValueError(f"cards must be integers in [1, {MAX_TABLE_CELLS}] (values per "
                         f"variable), got {arr.tolist()}.")
    return tuple(int(c) for c in arr)


def infer_cards(X: np.ndarray, name: str = "X") -> tuple[int, ...]:
    """``1 + max X[:, i]`` over the finite entries of each column (NaN marks a missing
    value), after checking they are integer codes below :data:`MAX_TABLE_CELLS`."""
    finite = np.isfinite(X)
    present = X[finite]
    if np.any(present != np.round(present)) or np.any(present < 0) or np.any(
            present >= MAX_TABLE_CELLS):
        raise ValueError(f"{name} must hold integer codes in [0, {MAX_TABLE_CELLS}).")
    return check_cards(np.max(np.where(finite, X, -1.0), axis=0, initial=-1.0) + 1, X.shape[1])


def check_weights(sample_weight: object, n: int) -> np.ndarray | None:
    """Finite non-negative real weights of the n samples (``None`` stays ``None``)."""
    if sample_weight is None:
        return None
    w = check_array_argument(sample_weight, "sample_weight", shape=(n,), real=True)
    if np.any(w < 0):
        raise ValueError("sample_weight must be non-negative.")
    return w


def check_family_size(cards: Sequence[int], axes: Sequence[int], what: str) -> None:
    """Refuse a conditional table of more than :data:`MAX_TABLE_CELLS` cells."""
    cells = math.prod(cards[a] for a in axes)
    if cells > MAX_TABLE_CELLS:
        raise ValueError(f"the table of {what} has {cells} cells (cards = {list(cards)}), "
                         f"more than {MAX_TABLE_CELLS}.")


def mdl_weight(f: object, n_samples: int, *, name: str = "f") -> float:
    """``f`` of (5.10): ``"aic"`` -> 1, ``"bic"`` -> log(m)/2, ``"ml"`` -> 0, or a real >= 0.

    ``n_samples`` is a real >= 0 (a sum of sample weights may be fractional).
    """
    n_samples = check_real(n_samples, "n_samples", low=0.0)
    if isinstance(f, str):
        if f not in SCORE_WEIGHTS:
            raise ValueError(f"{name} must be one of {SCORE_WEIGHTS} or a real >= 0, got {f!r}.")
        return {"aic": 1.0, "bic": 0.5 * math.log(max(n_samples, 1)), "ml": 0.0}[f]
    return check_real(f, name, low=0.0)


def family_counts(X: np.ndarray, cards: Sequence[int], child: int, parents: Sequence[int],
                  sample_weight: np.ndarray | None = None) -> np.ndarray:
    """Weighted counts of ``(pi_child, x_child)``, shape (cards of parents..., cards[child]).

    ``X`` holds the value codes ``0..cards[i] - 1``; ``parents`` are distinct variables
    other than ``child``.
    """
    d = len(check_array_argument(cards, "cards", ndim=1, real=True))
    cards = check_cards(cards, d)
    x = check_codes(X, cards)
    c = check_int(child, "child", low=0, high=d - 1)
    if isinstance(parents, str | bytes) or not isinstance(parents, Sequence | np.ndarray):
        raise InvalidArgumentError(f"parents must be a sequence of variable indices, got "
                                   f"{parents!r}.")
    pa = tuple(check_int(p, "parents", low=0, high=d - 1) for p in parents)
    if c in pa or len(set(pa)) != len(pa):
        raise ValueError(f"parents must be distinct variables other than child={c}, got {pa}.")
    check_family_size(cards, [*pa, c], f"variable {c} given {pa}")
    return _family_counts(x, cards, c, pa, check_weights(sample_weight, x.shape[0]))


def _family_counts(X: np.ndarray, cards: Sequence[int], child: int, parents: Sequence[int],
                   sample_weight: np.ndarray | None = None) -> np.ndarray:
    """:func:`family_counts` on validated input."""
    axes = [*parents, child]
    shape = tuple(cards[a] for a in axes)
    flat = np.ravel_multi_index(tuple(X[:, a] for a in axes), shape) if axes else 0
    counts = np.bincount(np.atleast_1d(flat), weights=sample_weight,
                         minlength=math.prod(shape))
    return counts.reshape(shape)


def _normalise_rows(counts: np.ndarray, alpha: float) -> np.ndarray:
    """``(counts + alpha) / row sums``; rows without data (and alpha = 0) are uniform."""
    num = counts + alpha
    tot = num.sum(axis=-1, keepdims=True)
    uniform = np.full_like(num, 1.0 / num.shape[-1])
    return np.where(tot > 0, num / np.where(tot > 0, tot, 1.0), uniform)


class BayesianNetwork:
    """A discrete Bayesian network ``B = <G, Theta>`` (5.9).

    Parameters
    ----------
    parents : sequence of sequences of int
        ``parents[i]`` are the parents ``pi_i`` of variable ``i``; the graph must be a DAG.
    cpts : sequence of arrays, optional
        ``cpts[i]`` of shape ``(cards[p] for p in parents[i]) + (cards[i],)``, entries
        ``>= 0``, each row summing to 1. Without them the network is a structure only
        (``cards`` required).
    cards : sequence of int, optional
        Number of values of each variable (read from ``cpts`` when given).

    Raises
    ------
    ValueError
        A cyclic graph, a CPT of the wrong shape, negative or not normalised.
    """

    def __init__(self, parents: Sequence[Sequence[int]],
                 cpts: Sequence[ArrayLike] | None = None, *,
                 cards: Sequence[int] | None = None) -> None:
        self.parents = check_parents(parents)
        d = len(self.parents)
        if cpts is None:
            if cards is None:
                raise ValueError("cards is required when cpts is not given.")
            self.cards = check_cards(cards, d)
            self.cpts = None
        else:
            if len(cpts) != d:
                raise ValueError(f"cpts must hold one table per variable ({d}), got {len(cpts)}.")
            tables = [check_array_argument(t, f"cpts[{i}]", ndim=len(self.parents[i]) + 1)
                      for i, t in enumerate(cpts)]
            own = tuple(t.shape[-1] for t in tables)
            self.cards = own if cards is None else check_cards(cards, d)
            for i, t in enumerate(tables):
                want = tuple(self.cards[p] for p in self.parents[i]) + (self.cards[i],)
                if t.shape != want:
                    raise ValueError(f"cpts[{i}] must have shape {want} (parents' values, then "
                                     f"the variable's), got {t.shape}.")
                if np.any(t < 0) or np.any(np.abs(t.sum(axis=-1) - 1.0) > CPT_TOLERANCE):
                    raise ValueError(f"cpts[{i}] must be non-negative with rows summing to 1 "
                                     "(a conditional distribution per parent value).")
            self.cpts = tables
        self.order = _topological_order(self.parents)
        self.children = tuple(tuple(c for c in range(d) if i in self.parents[c])
                              for i in range(d))

    # -- structure ---------------------------------------------------------------
    @property
    def n_variables(self) -> int:
        return len(self.parents)

    @property
    def n_parameters(self) -> int:
        """``|B|``: free parameters, ``sum_i (cards[i] - 1) prod_{j in pi_i} cards[j]``."""
        return sum((self.cards[i] - 1) * math.prod(self.cards[p] for p in pa)
                   for i, pa in enumerate(self.parents))

    @property
    def edges(self) -> list[tuple[int, int]]:
        """``(parent, child)`` pairs."""
        return [(p, i) for i, pa in enumerate(self.parents) for p in pa]

    def markov_blanket(self, i: int) -> set[int]:
        """Parents, children and the children's other parents of variable ``i``."""
        blanket = set(self.parents[i]) | set(self.children[i])
        for c in self.children[i]:
            blanket |= set(self.parents[c])
        blanket.discard(i)
        return blanket

    def ancestors(self, nodes: Sequence[int]) -> set[int]:
        """``nodes`` and all their ancestors."""
        out, stack = set(), list(nodes)
        while stack:
            v = stack.pop()
            if v not in out:
                out.add(v)
                stack.extend(self.parents[v])
        return out

    def moral_graph(self, nodes: Sequence[int] | None = None) -> np.ndarray:
        """Adjacency (bool, d x d, symmetric) of the moral graph of the subgraph induced
        by ``nodes`` (default: all): parent-child edges made undirected, and the parents
        of each child married."""
        keep = set(range(self.n_variables)) if nodes is None else set(nodes)
        A = np.zeros((self.n_variables, self.n_variables), dtype=bool)
        for child in keep:
            pa = [p for p in self.parents[child] if p in keep]
            for p in pa:
                A[p, child] = A[child, p] = True
            for a, b in itertools.combinations(pa, 2):
                A[a, b] = A[b, a] = True
        return A

    def d_separated(self, x: Sequence[int], y: Sequence[int], given: Sequence[int] = ()
                    ) -> bool:
        """(Book, §7.5.1) True when ``given`` d-separates the sets ``x`` and ``y``: in the
        moral graph of the ancestral set of ``x | y | given``, with ``given`` removed, no
        path joins ``x`` and ``y`` (connected components by scipy)."""
        d = self.n_variables
        sets = [[check_int(v, name, low=0, high=d - 1) for v in vs]
                for vs, name in ((x, "x"), (y, "y"), (given, "given"))]
        xs, ys, zs = (set(v) for v in sets)
        if (xs & ys) or (xs & zs) or (ys & zs) or not xs or not ys:
            raise ValueError("x, y and given must be disjoint, with x and y non-empty.")
        A = self.moral_graph(self.ancestors(xs | ys | zs))
        A[list(zs), :] = False
        A[:, list(zs)] = False
        _, label = connected_components(csr_array(A), directed=False)
        return not ({label[v] for v in xs} & {label[v] for v in ys})

    def _require_cpts(self) -> list[np.ndarray]:
        if self.cpts is None:
            raise ValueError("this network has no CPTs (a structure only); fit them first.")
        return self.cpts

    # -- probabilities -------------------------------------------------------------
    def log_prob(self, X: ArrayLike) -> np.ndarray:
        """(5.9) ``log P_B(x) = sum_i log theta_{x_i | pi_i}`` per row of ``X``, shape (n,)."""
        cpts = self._require_cpts()
        x = check_codes(X, self.cards)
        out = np.zeros(x.shape[0])
        with np.errstate(divide="ignore"):
            for i, (pa, t) in enumerate(zip(self.parents, cpts, strict=True)):
                out += np.log(t[tuple(x[:, p] for p in pa) + (x[:, i],)])
        return out

    def log_likelihood(self, X: ArrayLike) -> float:
        """(5.11) ``LL(B | D) = sum_{x in D} log P_B(x)``."""
        return float(np.sum(self.log_prob(X)))

    def score(self, X: ArrayLike, f: object = "bic") -> float:
        """(5.10) ``s(B | D) = f |B| - LL(B | D)`` (``f`` a number or "aic"/"bic"/"ml")."""
        x = check_codes(X, self.cards)
        return mdl_weight(f, x.shape[0]) * self.n_parameters - self.log_likelihood(x)

    def _check_joint_size(self) -> None:
        if math.prod(self.cards) > MAX_JOINT_STATES:
            raise ValueError(f"the joint has {math.prod(self.cards)} states (cards = "
                             f"{list(self.cards)}), more than {MAX_JOINT_STATES} that exact "
                             "enumeration handles.")

    def log_joint_table(self) -> np.ndarray:
        """``log P_B`` of every joint state, an array of shape ``cards``."""
        cpts = self._require_cpts()
        self._check_joint_size()
        d = self.n_variables
        table = np.zeros(self.cards)
        with np.errstate(divide="ignore"):
            for i, (pa, t) in enumerate(zip(self.parents, cpts, strict=True)):
                axes = [*pa, i]
                arr = np.log(t).transpose(np.argsort(axes))
                table = table + arr.reshape([self.cards[a] if a in axes else 1
                                             for a in range(d)])
        return table

    def joint_table(self) -> np.ndarray:
        """``P_B`` of every joint state (5.9), shape ``cards``."""
        return np.exp(self.log_joint_table())

    def _check_evidence(self, evidence: Mapping[int, int] | None, name: str = "evidence"
                        ) -> dict[int, int]:
        if evidence is None:
            return {}
        if not isinstance(evidence, Mapping):
            raise InvalidArgumentError(f"{name} must be a mapping {{variable: value}}.")
        out = {}
        for var, val in evidence.items():
            v = check_int(var, f"{name} variable", low=0)
            if v >= self.n_variables:
                raise ValueError(f"{name} names variable {var!r}, but the network has "
                                 f"{self.n_variables} variables (0..{self.n_variables - 1}).")
            out[v] = check_int(val, f"{name}[{v}]", low=0, high=self.cards[v] - 1)
        return out

    def posterior(self, query: Sequence[int], evidence: Mapping[int, int] | None = None
                  ) -> np.ndarray:
        """Exact ``P(query | evidence)`` by enumerating the joint (small networks).

        Returns an array of shape ``(cards[q] for q in query)``.
        """
        ev = self._check_evidence(evidence)
        q = [check_int(v, "query", low=0, high=self.n_variables - 1) for v in query]
        if len(set(q)) != len(q) or set(q) & set(ev):
            raise ValueError("query must list distinct variables that are not in evidence.")
        logJ = self.log_joint_table()
        idx = tuple(ev.get(a, slice(None)) for a in range(self.n_variables))
        free = [a for a in range(self.n_variables) if a not in ev]
        sub = logJ[idx]
        drop = tuple(k for k, a in enumerate(free) if a not in q)
        marg = logsumexp(sub, axis=drop) if drop else sub
        kept = [a for a in free if a in q]
        marg = np.transpose(marg, [kept.index(a) for a in q])
        log_pe = logsumexp(marg)
        if not np.isfinite(log_pe):
            raise ValueError(f"evidence {ev} has probability 0 under the network.")
        return np.exp(marg - log_pe)

    def sample(self, n_samples: int, random_state: object = None) -> np.ndarray:
        """Ancestral (forward) sampling: ``n_samples`` joint draws, int array (n, d)."""
        cpts = self._require_cpts()
        n = check_int(n_samples, "n_samples", low=0)
        rng = make_rng(random_state)
        x = np.zeros((n, self.n_variables), dtype=np.int64)
        for i in self.order:
            probs = cpts[i][tuple(x[:, p] for p in self.parents[i])]
            probs = np.broadcast_to(probs, (n, self.cards[i]))
            u = rng.random((n, 1))
            x[:, i] = np.minimum((np.cumsum(probs, axis=1) < u).sum(axis=1), self.cards[i] - 1)
        return x


def fit_cpts(parents: Sequence[Sequence[int]], X: ArrayLike, cards: Sequence[int] | None = None,
             *, alpha: float = 0.0, sample_weight: ArrayLike | None = None) -> BayesianNetwork:
    """(5.13) CPTs for a fixed structure: the empirical conditional frequencies
    ``theta_{x_i | pi_i} = P_hat_D(x_i | pi_i)`` (plus ``alpha`` per cell if given).

    Parameter rows whose parent value never occurs are uniform (the data do not determine
    them; every choice gives the same likelihood).
    """
    pa = check_parents(parents)
    X_arr = check_array_argument(X, "X", shape=(None, len(pa)), real=True)
    cards = infer_cards(X_arr) if cards is None else check_cards(cards, len(pa))
    x = check_codes(X_arr, cards)
    a = check_real(alpha, "alpha", low=0.0)
    w = check_weights(sample_weight, x.shape[0])
    for i, p in enumerate(pa):
        check_family_size(cards, [*p, i], f"variable {i} given {p}")
    cpts = [_normalise_rows(_family_counts(x, cards, i, p, w), a) for i, p in enumerate(pa)]
    return BayesianNetwork(pa, cpts, cards=cards)


def family_log_likelihood(counts: np.ndarray) -> float:
    """``sum N log(N / N_parent)``: the maximised log-likelihood of one family."""
    tot = counts.sum(axis=-1, keepdims=True)
    pos = counts > 0
    ratio = np.where(pos, counts, 1.0) / np.where(pos, np.broadcast_to(tot, counts.shape), 1.0)
    return float(np.sum(np.where(pos, counts * np.log(ratio), 0.0)))


def network_score(parents: Sequence[Sequence[int]], X: ArrayLike, cards: Sequence[int],
                  f: object = "bic", *, sample_weight: ArrayLike | None = None) -> float:
    """(5.10) with the parameters of (5.13): ``f |B| - max_Theta LL``, summed by family."""
    pa = check_parents(parents)
    cards = check_cards(cards, len(pa))
    x = check_codes(X, cards)
    w = check_weights(sample_weight, x.shape[0])
    m = x.shape[0] if w is None else float(w.sum())
    weight = mdl_weight(f, m)
    for i, p in enumerate(pa):
        check_family_size(cards, [*p, i], f"variable {i} given {p}")
    total = 0.0
    for i, p in enumerate(pa):
        counts = _family_counts(x, cards, i, p, w)
        total += weight * (cards[i] - 1) * math.prod(cards[j] for j in p)
        total -= family_log_likelihood(counts)
    return total
