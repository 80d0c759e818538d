"""Hypothesis strategies of the decision-tree claims: class counts, contingency tables
and small labelled datasets with discrete, continuous (tied) and missing values."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from hypothesis import assume
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

__all__ = [
    "TreeData",
    "class_counts",
    "contingency_tables",
    "continuous_datasets",
    "discrete_datasets",
    "missing_datasets",
    "structured_datasets",
]


@dataclass(frozen=True)
class TreeData:
    """``X`` (n, d) float (NaN = missing), labels ``y`` (n,) in 0..K-1, which columns are
    discrete, and positive sample weights ``w``."""

    X: np.ndarray
    y: np.ndarray
    discrete: np.ndarray  # bool mask (d,)
    w: np.ndarray

    @property
    def n_classes(self) -> int:
        return int(self.y.max()) + 1


@st.composite
def class_counts(draw: st.DrawFn, *, max_classes: int = 6, max_count: int = 50) -> np.ndarray:
    """Non-negative integer class counts with a positive total; corners: one class
    only (pure), all equal (uniform), a single sample."""
    K = draw(st.integers(1, max_classes))
    kind = draw(st.sampled_from(["free", "pure", "uniform"]))
    if kind == "pure":
        counts = np.zeros(K, dtype=int)
        counts[draw(st.integers(0, K - 1))] = draw(st.integers(1, max_count))
        return counts
    if kind == "uniform":
        return np.full(K, draw(st.integers(1, max_count)))
    counts = draw(hnp.arrays(np.int64, K, elements=st.integers(0, max_count)))
    if counts.sum() == 0:
        counts[0] = 1
    return counts


@st.composite
def contingency_tables(
    draw: st.DrawFn, *, max_values: int = 6, max_classes: int = 4, max_count: int = 30
) -> np.ndarray:
    """``table[v, k]``: integer counts of class k with attribute value v (V >= 1, K >= 1,
    positive total). Corners: rows proportional to one class distribution (zero gain),
    one sample per value (unique attribute), empty rows."""
    V = draw(st.integers(1, max_values))
    K = draw(st.integers(1, max_classes))
    kind = draw(st.sampled_from(["free", "proportional", "unique"]))
    if kind == "proportional":
        base = draw(hnp.arrays(np.int64, K, elements=st.integers(0, 6)))
        base[0] = max(base[0], 1)
        mult = draw(hnp.arrays(np.int64, V, elements=st.integers(0, 5)))
        mult[0] = max(mult[0], 1)
        return np.outer(mult, base)
    if kind == "unique":
        labels = draw(hnp.arrays(np.int64, V, elements=st.integers(0, K - 1)))
        return np.eye(K, dtype=np.int64)[labels]
    table = draw(hnp.arrays(np.int64, (V, K), elements=st.integers(0, max_count)))
    if table.sum() == 0:
        table[0, 0] = 1
    return table


def _labels(draw, n: int, K: int) -> np.ndarray:
    y = draw(hnp.arrays(np.int64, n, elements=st.integers(0, K - 1)))
    y[:K] = np.arange(K)  # every class present
    return draw(st.permutations(list(y))) if n <= 12 else y


@st.composite
def discrete_datasets(
    draw: st.DrawFn, *, max_samples: int = 24, max_features: int = 4, max_values: int = 4,
    max_classes: int = 3,
) -> TreeData:
    """Categorical data: every attribute takes values 0..V_j-1 (as floats); duplicated
    rows and conflicting labels are common."""
    K = draw(st.integers(2, max_classes))
    n = draw(st.integers(K, max_samples))
    d = draw(st.integers(1, max_features))
    V = draw(hnp.arrays(np.int64, d, elements=st.integers(1, max_values)))
    X = np.column_stack(
        [draw(hnp.arrays(np.int64, n, elements=st.integers(0, int(v) - 1))) for v in V]
    ).astype(float)
    y = np.asarray(_labels(draw, n, K))
    return TreeData(X, y, np.ones(d, dtype=bool), np.ones(n))


@st.composite
def continuous_datasets(
    draw: st.DrawFn, *, max_samples: int = 30, max_features: int = 3, max_classes: int = 3,
    weighted: bool = False,
) -> TreeData:
    """Real-valued attributes on a coarse grid (ties between samples), at scales from
    1e-3 to 1e3; optionally integer sample weights."""
    K = draw(st.integers(2, max_classes))
    n = draw(st.integers(K, max_samples))
    d = draw(st.integers(1, max_features))
    # coarse grids give ties between samples; the fine one almost never does
    grid = draw(st.integers(2, 12) | st.just(100_000))
    scale = 10.0 ** draw(st.integers(-3, 3))
    X = draw(hnp.arrays(np.int64, (n, d), elements=st.integers(0, grid))) * scale / grid
    X = X + draw(st.sampled_from([0.0, -0.5 * scale, 7.0 * scale]))
    y = np.asarray(_labels(draw, n, K))
    w = np.ones(n)
    if weighted:
        w = draw(hnp.arrays(np.int64, n, elements=st.integers(1, 4))).astype(float)
    return TreeData(X.astype(float), y, np.zeros(d, dtype=bool), w)


@st.composite
def missing_datasets(draw: st.DrawFn, *, discrete: bool | None = None,
                     blank_column: bool = False) -> TreeData:
    """Discrete or continuous data with a drawn fraction of entries set missing (NaN);
    every column keeps at least one known value, except that with ``blank_column`` the
    last column may be drawn missing throughout (no known value: rho = 0)."""
    if discrete is None:
        discrete = draw(st.booleans())
    data = draw(discrete_datasets() if discrete else continuous_datasets())
    n, d = data.X.shape
    rate = draw(st.sampled_from([0.1, 0.3, 0.6]))
    mask = draw(hnp.arrays(np.float64, (n, d), elements=st.floats(0, 1))) < rate
    mask[0] = False
    if blank_column and draw(st.booleans()):
        mask[:, -1] = True
    X = data.X.copy()
    X[mask] = np.nan
    return TreeData(X, data.y, data.discrete, data.w)


@st.composite
def structured_datasets(draw: st.DrawFn, *, max_samples: int = 60) -> TreeData:
    """Labels that depend on the attributes: a drawn truth table over "above the median"
    of the first two attributes (XOR among them), then a drawn set of flipped labels (up
    to a fifth). Trees grown on them have several levels worth pruning."""
    base = draw(discrete_datasets(max_samples=max_samples, max_classes=2)
                | continuous_datasets(max_samples=max_samples, max_classes=2))
    X = base.X
    n, d = X.shape
    cols = [min(j, d - 1) for j in (0, 1)]
    bits = [(X[:, j] > np.median(X[:, j])).astype(int) for j in cols]
    table = draw(hnp.arrays(np.int64, 4, elements=st.integers(0, 1)))
    y = table[2 * bits[0] + bits[1]]
    flips = draw(st.lists(st.integers(0, n - 1), max_size=max(1, n // 5)))
    y[flips] = 1 - y[flips]
    assume(np.unique(y).size == 2)
    return TreeData(X, y, base.discrete, base.w)
