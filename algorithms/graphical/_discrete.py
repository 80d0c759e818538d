"""Discrete joints given as one table or as a list of factors (private helper of the
approximate-inference modules: Gibbs sampling and mean-field variational inference).

A model over variables ``0 .. M-1`` (variable ``i`` takes values ``0 .. k_i - 1``) is
either

- one array ``table`` of shape ``(k_0, ..., k_{M-1})``: an unnormalised joint
  ``p~(x) = table[x]``; or
- a sequence of factors ``(scope, table)``: ``scope`` a tuple of distinct variable
  indices and ``table`` an array with one axis per scope entry, so that
  ``p~(x) = prod_f table_f[x_{scope_f}]`` (the clique-potential form (12.5)).

Every entry must be finite and strictly positive: a positive joint keeps every full
conditional defined and the Gibbs chain irreducible. The normalising constant is never
needed by the algorithms (only by the claims, which enumerate it independently).
"""

from __future__ import annotations

import numbers
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from algorithms._validation import InvalidArgumentError

#: The largest joint state space the exact kernels enumerate.
MAX_JOINT_STATES = 4096


@dataclass(frozen=True)
class DiscreteModel:
    """A validated factor list: ``scopes[f]`` and ``log_tables[f]``; ``cards[i] = k_i``."""

    scopes: tuple[tuple[int, ...], ...]
    log_tables: tuple[np.ndarray, ...]
    cards: tuple[int, ...]

    @property
    def n_variables(self) -> int:
        return len(self.cards)

    def factors_of(self, i: int) -> list[int]:
        return [f for f, s in enumerate(self.scopes) if i in s]

    def log_joint(self, states: np.ndarray) -> np.ndarray:
        """``ln p~(x)`` for each row of ``states`` (shape ``(n, M)``)."""
        out = np.zeros(states.shape[0])
        for s, t in zip(self.scopes, self.log_tables, strict=True):
            out += t[tuple(states[:, v] for v in s)]
        return out

    def conditional_logits(self, states: np.ndarray, i: int) -> np.ndarray:
        """``ln p~(x_i = v, x_{-i})`` up to a per-row constant: shape ``(n, k_i)``."""
        n = states.shape[0]
        out = np.zeros((n, self.cards[i]))
        values = np.arange(self.cards[i])[None, :]
        for f in self.factors_of(i):
            index = tuple(values if v == i else states[:, v][:, None] for v in self.scopes[f])
            out += self.log_tables[f][index]
        return out


def as_model(factors: object, name: str = "factors") -> DiscreteModel:
    """Validate a table or a factor list into a :class:`DiscreteModel`."""
    if isinstance(factors, np.ndarray) or (
        isinstance(factors, Sequence) and factors and not _looks_like_factor(factors[0])
    ):
        table = _positive_table(factors, name)
        return DiscreteModel(((*range(table.ndim),),), (np.log(table),), tuple(table.shape))
    if not isinstance(factors, Sequence) or isinstance(factors, str) or len(factors) == 0:
        raise InvalidArgumentError(
            f"{name} must be a positive array (a joint table) or a non-empty list of "
            f"(scope, table) factors, got {factors!r}.")
    scopes, tables, cards = [], [], {}
    for f, item in enumerate(factors):
        if not _looks_like_factor(item):
            raise InvalidArgumentError(f"{name}[{f}] must be a pair (scope, table), got {item!r}.")
        scope_raw, table_raw = item
        scope = _scope(scope_raw, f"{name}[{f}] scope")
        table = _positive_table(table_raw, f"{name}[{f}] table")
        if table.ndim != len(scope):
            raise ValueError(f"{name}[{f}] table must have one axis per scope variable "
                             f"({len(scope)}), got shape {table.shape}.")
        for v, k in zip(scope, table.shape, strict=True):
            if cards.setdefault(v, k) != k:
                raise ValueError(f"{name}: variable {v} has {cards[v]} values in one factor "
                                 f"and {k} in factor {f}.")
        scopes.append(scope)
        tables.append(np.log(table))
    M = max(cards) + 1
    missing = sorted(set(range(M)) - set(cards))
    if missing:
        raise ValueError(f"{name}: variables must be numbered 0..{M - 1}; {missing} appear "
                         "in no factor.")
    return DiscreteModel(tuple(scopes), tuple(tables), tuple(cards[v] for v in range(M)))


def _looks_like_factor(item: object) -> bool:
    return (isinstance(item, tuple | list) and len(item) == 2
            and isinstance(item[0], tuple | list | numbers.Integral))


def _scope(value: object, name: str) -> tuple[int, ...]:
    if isinstance(value, numbers.Integral) and not isinstance(value, bool):
        value = (value,)
    if not isinstance(value, tuple | list) or len(value) == 0:
        raise InvalidArgumentError(f"{name} must be a non-empty tuple of variable indices.")
    out = []
    for v in value:
        if isinstance(v, bool) or not isinstance(v, numbers.Integral) or v < 0:
            raise InvalidArgumentError(f"{name} must hold integers >= 0, got {value!r}.")
        out.append(int(v))
    if len(set(out)) != len(out):
        raise ValueError(f"{name} must not repeat a variable, got {value!r}.")
    return tuple(out)


def _positive_table(value: object, name: str) -> np.ndarray:
    if np.iscomplexobj(value):
        raise InvalidArgumentError(f"{name} must be real, got a complex array.")
    try:
        arr = np.asarray(value, dtype=np.float64)
    except (TypeError, ValueError, OverflowError) as exc:
        raise InvalidArgumentError(f"{name} must be a numeric array: {exc}") from exc
    if arr.ndim == 0 or arr.size == 0:
        raise ValueError(f"{name} must be a non-empty array with at least one axis, "
                         f"got shape {arr.shape}.")
    if not np.all(np.isfinite(arr)) or not np.all(arr > 0):
        raise ValueError(f"{name} must hold finite, strictly positive potentials (a positive "
                         "joint keeps every conditional defined).")
    if np.any(np.isinf(np.log(arr))):
        raise ValueError(f"{name} has entries too small to take logarithms of.")
    return arr


def all_states(cards: tuple[int, ...], name: str = "factors") -> np.ndarray:
    """Every joint state in C order, shape ``(prod k_i, M)``."""
    size = int(np.prod(cards, dtype=np.int64))
    if size > MAX_JOINT_STATES:
        raise ValueError(f"{name}: the joint has {size} states; exact kernels enumerate at "
                         f"most {MAX_JOINT_STATES}.")
    return np.stack(np.unravel_index(np.arange(size), cards), axis=1)


def sample_categorical(logits: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """One draw per row of ``softmax(logits)`` (inverse-CDF with one uniform per row)."""
    p = np.exp(logits - logits.max(axis=1, keepdims=True))
    c = np.cumsum(p, axis=1)
    u = rng.random(logits.shape[0]) * c[:, -1]
    return np.minimum((c <= u[:, None]).sum(axis=1), logits.shape[1] - 1)
