"""Hyperparameter and dataset strategies shared by the perceptron claims."""

from __future__ import annotations

import numpy as np
from hypothesis import strategies as st

from mltheory.strategies import SeparableData

#: Learning rates: powers of two (every PLA sum exact on dyadic data, so the tight
#: datasets below stay exactly tight) and any value in (0, 1].
etas = st.sampled_from([1.0, 0.5, 0.25]) | st.floats(1e-3, 1.0)
#: Positive reals spread evenly over twelve orders of magnitude (10^-6 .. 10^6).
log_uniform = st.floats(-6, 6).map(lambda e: 10.0**e)
orders = st.sampled_from(["cyclic", "random"])
seeds = st.integers(0, 2**16)

#: Dyadic offsets c of the tight datasets (every coordinate a multiple of c/8).
_OFFSETS = (0.25, 0.5, 1.0, 2.0)


def orthogonal_dataset(
    y: np.ndarray, *, offset: float = 0.5, extra_features: int = 0
) -> SeparableData:
    """A dataset on which Novikoff's bound is attained: ``k = (R/gamma)^2`` exactly.

    ``x_i = a e_i - c 1`` in R^n with ``a = (n c^2 + 1) / (2 c)``, so the augmented
    points ``x_hat_i = (x_i, 1)`` are pairwise orthogonal (``x_i . x_j = -1`` for
    ``i != j``) and of equal norm ``R``; any labels ``y`` are then separable. From zero,
    every visit of a point not yet used has margin exactly 0 (a mistake) and every
    point used once has margin ``eta R^2 > 0``: PLA makes exactly ``n`` updates in any
    visiting order. The maximum-margin unit separator is ``sum_i y_i x_hat_i / (sqrt(n) R)``
    with margin ``gamma = R / sqrt(n)``, so ``(R/gamma)^2 = n`` and every per-step
    inequality of the proof (alignment gain ``eta gamma``, norm growth ``eta^2 R^2``,
    ``cos >= sqrt(T) gamma / R``) holds with equality. ``extra_features`` zero columns
    are appended (they change nothing). With a dyadic ``c`` and ``eta`` all of it is
    exact in float64.
    """
    n = int(y.shape[0])
    a = (n * offset**2 + 1.0) / (2.0 * offset)
    X = a * np.eye(n) - offset * np.ones((n, n))
    X = np.hstack([X, np.zeros((n, extra_features))])
    X_hat = np.hstack([X, np.ones((n, 1))])
    w = (y[:, None] * X_hat).sum(axis=0)
    w = w / np.linalg.norm(w)
    return SeparableData(X=X, y=y, separator=w, margin=float(np.min(y * (X_hat @ w))))


@st.composite
def tight_datasets(draw: st.DrawFn, *, max_samples: int = 24) -> SeparableData:
    """:func:`orthogonal_dataset` with drawn size, labels (both present), offset, extra
    zero features, and shuffled rows and columns."""
    n = draw(st.integers(2, max_samples))
    y = np.asarray(draw(st.lists(st.sampled_from([-1, 1]), min_size=n, max_size=n)))
    y[0], y[1] = 1, -1
    data = orthogonal_dataset(
        y, offset=draw(st.sampled_from(_OFFSETS)), extra_features=draw(st.integers(0, 2))
    )
    rows = np.asarray(draw(st.permutations(range(n))))
    cols = np.asarray(draw(st.permutations(range(data.n_features))))
    separator = np.append(data.separator[:-1][cols], data.separator[-1])
    return SeparableData(X=data.X[rows][:, cols], y=data.y[rows], separator=separator,
                         margin=data.margin)
