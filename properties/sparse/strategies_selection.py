"""Hypothesis strategies of the feature-selection claims (003 §10.1-§10.2): discrete
labelled tables, score tables over feature subsets (with many ties), and mixed
discrete/continuous labelled samples for Relief."""

from __future__ import annotations

import itertools

import numpy as np
from hypothesis import strategies as st

SEEDS = st.integers(0, 2**32 - 1)


@st.composite
def labelled_codes(draw, max_samples: int = 24, max_features: int = 4):
    """(codes, y): discrete features 0..v-1 and labels 0..K-1; the labels are either
    independent of the features, a function of some of them (XOR-like parities
    included), or a noisy such function; sometimes samples are repeated."""
    rng = np.random.default_rng(draw(SEEDS))
    m = draw(st.integers(1, max_samples))
    d = draw(st.integers(1, max_features))
    v = draw(st.integers(2, 3))
    k = draw(st.integers(1, 3))
    codes = rng.integers(0, v, size=(m, d))
    how = draw(st.sampled_from(["independent", "function", "noisy"]))
    if how == "independent":
        y = rng.integers(0, k, size=m)
    else:
        used = rng.random(d) < 0.6
        y = codes[:, used].sum(axis=1) % max(k, 2) if used.any() else np.zeros(m, int)
        if how == "noisy":
            flip = rng.random(m) < 0.2
            y = np.where(flip, rng.integers(0, max(k, 2), size=m), y)
    if draw(st.booleans()) and m >= 2:
        codes[m // 2:] = codes[: m - m // 2]
    return codes, y


@st.composite
def score_tables(draw, max_features: int = 5):
    """(table, d): a score for every non-empty subset of d features; integer scores from
    a small range (so ties between candidates and with the current set are frequent),
    or continuous ones."""
    d = draw(st.integers(1, max_features))
    subsets = [s for size in range(1, d + 1) for s in itertools.combinations(range(d), size)]
    if draw(st.booleans()):
        values = draw(st.lists(st.integers(-3, 3), min_size=len(subsets),
                               max_size=len(subsets)))
    else:
        rng = np.random.default_rng(draw(SEEDS))
        values = rng.normal(size=len(subsets)).tolist()
    return {s: float(v) for s, v in zip(subsets, values, strict=True)}, d


@st.composite
def relief_samples(draw, max_classes: int = 2, min_classes: int = 2, max_samples: int = 18):
    """(X, y, discrete): m samples with every class at least twice, 1..4 attributes, each
    discrete (values 0..2) or continuous: on a dyadic grid at a drawn scale and offset
    (exact ties between distances) or Gaussian; sometimes one attribute carries the
    class (plus noise) and sometimes samples are repeated."""
    rng = np.random.default_rng(draw(SEEDS))
    k = draw(st.integers(min_classes, max_classes))
    m = draw(st.integers(2 * k, max_samples))
    d = draw(st.integers(1, 4))
    y = np.concatenate([np.arange(k), np.arange(k), rng.integers(0, k, size=m - 2 * k)])
    rng.shuffle(y)
    discrete = np.array(draw(st.lists(st.booleans(), min_size=d, max_size=d)))
    X = np.empty((m, d))
    scale = draw(st.sampled_from([0.125, 1.0, 32.0]))
    offset = draw(st.sampled_from([0.0, -3.5, 1e3]))
    gaussian = draw(st.booleans())
    for j in range(d):
        if discrete[j]:
            X[:, j] = rng.integers(0, 3, size=m)
        elif gaussian:
            X[:, j] = offset + scale * rng.normal(size=m)
        else:
            X[:, j] = offset + scale * rng.integers(0, 9, size=m) / 8.0
    if draw(st.booleans()):
        j = draw(st.integers(0, d - 1))
        X[:, j] = y + (0 if discrete[j] else 0.25 * rng.integers(0, 3, size=m))
    if draw(st.booleans()):  # two repeated samples (distance-0 neighbours)
        X, y = np.vstack([X, X[:2]]), np.concatenate([y, y[:2]])
    return X, y, discrete
