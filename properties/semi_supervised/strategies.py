"""Hypothesis strategies of the semi-supervised family: small weighted graphs and
partially labelled point sets (unlabelled samples coded -1)."""

from __future__ import annotations

import numpy as np
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

UNIT = st.floats(-1.0, 1.0, allow_nan=False, width=64)


@st.composite
def symmetric_weights(draw, min_nodes: int = 2, max_nodes: int = 8):
    """(W, f, labelled): W symmetric, non-negative, zero diagonal (some edges 0), f real,
    labelled a mask with at least one labelled and one unlabelled node."""
    n = draw(st.integers(min_nodes, max_nodes))
    upper = draw(hnp.arrays(np.float64, (n, n), elements=st.one_of(
        st.just(0.0), st.floats(0.0, 5.0, allow_nan=False, width=64))))
    W = np.triu(upper, 1)
    W = W + W.T
    f = draw(hnp.arrays(np.float64, n, elements=st.floats(-10.0, 10.0, allow_nan=False,
                                                           width=64)))
    lab = draw(hnp.arrays(bool, n))
    lab[0], lab[-1] = True, False
    return W, f, lab


@st.composite
def partially_labelled(draw, n_classes: int | None = None, max_samples: int = 12):
    """(X, codes, sigma): X in [-1, 1]^d (d <= 3), codes in {0..k-1} with every class
    labelled at least once and at least one sample unlabelled (-1), sigma in [1, 3] (all
    Gaussian weights >= e^-6: a connected, well-conditioned graph)."""
    k = n_classes if n_classes is not None else draw(st.integers(2, 3))
    n = draw(st.integers(k + 1, max_samples))
    d = draw(st.integers(1, 3))
    X = draw(hnp.arrays(np.float64, (n, d), elements=UNIT))
    codes = draw(hnp.arrays(np.int64, n, elements=st.integers(-1, k - 1)))
    codes[:k] = np.arange(k)
    codes[-1] = -1
    perm = draw(st.permutations(range(n)))
    sigma = draw(st.floats(1.0, 3.0))
    return X[list(perm)], codes[list(perm)], sigma


@st.composite
def gaussian_classes(draw, max_unlabelled: int = 30):
    """(X, codes, seed): 2-3 Gaussian classes in 1-3 dimensions, each with n + 2 to n + 4
    labelled samples (so every class covariance is positive definite), 0 to
    ``max_unlabelled`` unlabelled samples (-1); drawn with numpy from a Hypothesis seed."""
    seed = draw(st.integers(0, 2**32 - 1))
    k = draw(st.integers(2, 3))
    n = draw(st.integers(1, 3))
    spread = draw(st.sampled_from([0.5, 1.5, 4.0]))
    rng = np.random.default_rng(seed)
    per_class = rng.integers(n + 2, n + 5, size=k)
    centres = spread * rng.normal(size=(k, n))
    n_u = draw(st.integers(0, max_unlabelled))
    true = np.r_[np.repeat(np.arange(k), per_class), rng.integers(0, k, size=n_u)]
    X = centres[true] + rng.normal(size=(true.size, n)) * rng.uniform(0.5, 2.0, size=(k, 1))[true]
    codes = true.copy()
    codes[per_class.sum():] = -1
    return X, codes, seed


@st.composite
def constrained_problems(draw, min_pairs: int = 0, max_pairs: int = 3, max_samples: int = 8):
    """(X, k, must, cannot, init): 3-``max_samples`` points in the plane, k in {2, 3},
    up to ``max_pairs`` must-link and ``min_pairs``-``max_pairs`` cannot-link pairs of
    distinct samples, and k distinct samples as the initial means."""
    m = draw(st.integers(3, max_samples))
    k = draw(st.integers(2, 3))
    X = draw(hnp.arrays(np.float64, (m, 2), elements=st.floats(-5, 5, width=64),
                        unique=True))
    pair = st.tuples(st.integers(0, m - 1), st.integers(0, m - 1)).filter(
        lambda p: p[0] != p[1])
    must = draw(st.lists(pair, max_size=max_pairs))
    cannot = draw(st.lists(pair, min_size=min_pairs, max_size=max(max_pairs, min_pairs)))
    start = draw(st.permutations(range(m)))[:k]
    return (X, k, np.array(must, dtype=np.intp).reshape(-1, 2),
            np.array(cannot, dtype=np.intp).reshape(-1, 2), X[list(start)])


#: TSVM kernels drawn by default (linear twice as often).
TSVM_KERNELS = st.sampled_from(["linear", "linear", "rbf"])


@st.composite
def tsvm_problems(draw, kernels=TSVM_KERNELS):
    """(X, y, settings): two Gaussian classes in the plane, 1-3 labelled samples of each
    (labels 0 and 1), 3-14 unlabelled (-1), and TSVM settings (C_l, C_u_init, kernel,
    gamma) drawn from small grids; drawn with numpy from a Hypothesis seed."""
    seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    n_l = draw(st.integers(1, 3))
    n_u = draw(st.integers(3, 14))
    gap = draw(st.sampled_from([0.5, 1.5, 3.0]))
    true = np.r_[np.zeros(n_l, int), np.ones(n_l, int), rng.integers(0, 2, n_u)]
    X = rng.normal(size=(true.size, 2)) + gap * true[:, None] * np.array([1.0, 0.3])
    y = true.copy()
    y[2 * n_l:] = -1
    settings = {"C_l": draw(st.sampled_from([0.5, 1.0, 4.0])),
                "C_u_init": draw(st.sampled_from([1e-3, 0.05])),
                "kernel": draw(kernels), "gamma": draw(st.sampled_from([0.2, 1.0]))}
    return X, y, settings
