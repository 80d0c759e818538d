"""Hypothesis strategies for the approximate-inference claims (003 §12.5–§12.6): small
positive discrete models (tables and factor lists), finite targets with proposals, and
small categorical data sets."""

from __future__ import annotations

import numpy as np
from hypothesis import strategies as st

SEEDS = st.integers(0, 2**32 - 1)


@st.composite
def factor_models(draw, max_vars: int = 4, max_card: int = 3, max_states: int = 36):
    """``(factors, cards)``: a positive model over 1..max_vars variables, as one table or
    as a chain/star of pairwise factors plus unary ones, with potentials spread over up
    to four orders of magnitude."""
    rng = np.random.default_rng(draw(SEEDS))
    M = draw(st.integers(1, max_vars))
    cards = []
    for _ in range(M):
        cards.append(draw(st.integers(2, max_card)))
        if np.prod(cards) > max_states:
            cards[-1] = 2
    cards = tuple(cards)
    spread = draw(st.sampled_from([0.5, 2.0, 4.0]))
    if M == 1 or draw(st.booleans()):
        return [((*range(M),), np.exp(spread * rng.normal(size=cards)))], cards
    factors = []
    for v in range(1, M):
        u = int(rng.integers(v))  # a random tree
        factors.append(((u, v), np.exp(spread * rng.normal(size=(cards[u], cards[v])))))
    for v in range(M):
        if rng.random() < 0.5:
            factors.append(((v,), np.exp(spread * rng.normal(size=cards[v]))))
    return factors, cards


@st.composite
def finite_targets(draw, max_states: int = 6):
    """``(p, Q)``: a positive unnormalised target and a row-stochastic, generally
    asymmetric proposal with some zero entries (kept irreducible via a cycle)."""
    rng = np.random.default_rng(draw(SEEDS))
    n = draw(st.integers(2, max_states))
    p = np.exp(draw(st.sampled_from([0.5, 2.0, 5.0])) * rng.normal(size=n))
    Q = rng.random((n, n)) * (rng.random((n, n)) < 0.6)
    Q[np.arange(n), (np.arange(n) + 1) % n] += 0.2  # a cycle: irreducible
    Q[(np.arange(n) + 1) % n, np.arange(n)] += 0.1  # both directions: moves can return
    Q /= Q.sum(axis=1, keepdims=True)
    return p, Q


@st.composite
def categorical_data(draw, max_n: int = 6, max_k: int = 3):
    """``(X, weights, probs)``: N <= max_n rows of d categorical features and a mixture."""
    rng = np.random.default_rng(draw(SEEDS))
    N = draw(st.integers(1, max_n))
    d = draw(st.integers(1, 3))
    m = draw(st.integers(2, 3))
    K = draw(st.integers(1, max_k))
    if K ** N > 800:
        N = 4
    X = rng.integers(m, size=(N, d))
    weights = rng.dirichlet(np.ones(K))
    probs = rng.dirichlet(np.ones(m), size=(K, d))
    return X, weights, probs
