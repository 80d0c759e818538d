"""Strategies that construct labelled classification datasets.

Valid inputs are *constructed*, never filtered: separable data come from a
drawn unit-norm separator and a drawn margin, so the separator and the margin
are known exactly and travel with the data (Novikoff's gamma needs them).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

__all__ = [
    "Design",
    "LabelledData",
    "SeparableData",
    "finite_floats",
    "labelled_datasets",
    "nonseparable_datasets",
    "separable_datasets",
]


def finite_floats(bound: float = 10.0) -> st.SearchStrategy[float]:
    """Finite float64 values in ``[-bound, bound]`` (no NaN/inf, no subnormals)."""
    return st.floats(
        -bound, bound, allow_nan=False, allow_infinity=False, allow_subnormal=False, width=64
    )


@dataclass(frozen=True)
class Design:
    """A data matrix ``X`` (n, d), with the bias absorbed on request."""

    X: np.ndarray

    @property
    def n_samples(self) -> int:
        return int(self.X.shape[0])

    @property
    def n_features(self) -> int:
        return int(self.X.shape[1])

    def augmented(self) -> np.ndarray:
        """``X_hat = [X, 1]``: the bias absorbed as a last constant feature (001 §二.2,
        003 (1.7))."""
        return np.hstack([self.X, np.ones((self.n_samples, 1))])


@dataclass(frozen=True)
class LabelledData(Design):
    """A classification dataset: ``X`` (n, d) and labels ``y`` (n,) in {-1, +1}."""

    y: np.ndarray


@dataclass(frozen=True)
class SeparableData(LabelledData):
    """Linearly separable data with a known separator.

    ``separator`` is a unit-norm ``w_hat = (w, b)`` in R^{d+1} and ``margin``
    is ``min_i y_i w_hat . x_hat_i > 0``, computed from the final data, so the
    pair is a valid ``(w_hat_opt, gamma)`` for the Novikoff theorem.
    """

    separator: np.ndarray = field(default_factory=lambda: np.zeros(0))
    margin: float = 0.0


_SCALES = (1e-2, 1.0, 1e2)  # per-feature scale disparities, four orders of magnitude


@st.composite
def labelled_datasets(
    draw: st.DrawFn,
    *,
    min_samples: int = 2,
    max_samples: int = 30,
    min_features: int = 1,
    max_features: int = 4,
    bound: float = 10.0,
) -> LabelledData:
    """Arbitrary finite data with both labels present (labels drawn freely)."""
    n = draw(st.integers(max(min_samples, 2), max_samples))
    d = draw(st.integers(min_features, max_features))
    X = draw(hnp.arrays(np.float64, (n, d), elements=finite_floats(bound)))
    y = draw(hnp.arrays(np.int64, n, elements=st.sampled_from([-1, 1])))
    y[0], y[1] = 1, -1  # both classes present
    return LabelledData(X=X, y=y)


@st.composite
def separable_datasets(
    draw: st.DrawFn,
    *,
    min_samples: int = 2,
    max_samples: int = 25,
    min_features: int = 1,
    max_features: int = 4,
    min_margin: float = 1e-3,
    max_margin: float = 2.0,
    bound: float = 10.0,
    allow_duplicates: bool = True,
    scale_disparity: bool = True,
) -> SeparableData:
    """Linearly separable data built from a drawn separator and a drawn margin.

    Points are drawn freely, labelled with drawn labels, then moved along the
    normal ``w`` just far enough that ``y_i (w.x_i + b) >= gamma`` for the
    drawn ``gamma``; this covers near-zero margins (down to ``min_margin``),
    duplicated points and per-feature scale disparities of four orders of
    magnitude. Both classes are always present.
    """
    n = draw(st.integers(max(min_samples, 2), max_samples))
    d = draw(st.integers(min_features, max_features))
    direction = draw(hnp.arrays(np.float64, d + 1, elements=st.floats(-1, 1, width=64)))
    w = direction[:d].copy()
    if np.linalg.norm(w) < 0.1:  # keep the normal well away from zero: points need not move far
        w[0] = 1.0
    w_hat = np.append(w, direction[d])
    w_hat = w_hat / np.linalg.norm(w_hat)
    w, b = w_hat[:d], w_hat[d]

    X = draw(hnp.arrays(np.float64, (n, d), elements=finite_floats(bound)))
    if scale_disparity:
        scales = np.asarray(draw(st.lists(st.sampled_from(_SCALES), min_size=d, max_size=d)))
        X = X * scales
    y = draw(hnp.arrays(np.int64, n, elements=st.sampled_from([-1, 1])))
    y[0], y[1] = 1, -1
    gamma = draw(st.floats(min_margin, max_margin))

    # Move each point along w so that y_i (w.x_i + b) >= gamma: adding t*w to x
    # changes w.x by t*||w||^2.
    deficit = np.maximum(gamma - y * (X @ w + b), 0.0)
    X = X + (y * deficit)[:, None] * (w / (w @ w))[None, :]
    if allow_duplicates and draw(st.booleans()):
        dup = draw(st.lists(st.integers(0, n - 1), min_size=1, max_size=max(1, n // 3)))
        X = np.vstack([X, X[dup]])
        y = np.concatenate([y, y[dup]])
    margin = float(np.min(y * (X @ w + b)))
    return SeparableData(X=X, y=y, separator=w_hat, margin=margin)


@st.composite
def nonseparable_datasets(
    draw: st.DrawFn,
    *,
    min_samples: int = 4,
    max_samples: int = 25,
    min_features: int = 2,
    max_features: int = 4,
    bound: float = 10.0,
) -> LabelledData:
    """Data that no hyperplane separates, by construction.

    Either an XOR pattern in two coordinates is planted (four points whose
    labels no half-space realises), or a point is repeated with the opposite
    label (no classifier at all separates those two), on top of freely drawn,
    possibly noisy data.
    """
    base = draw(
        separable_datasets(
            min_samples=max(min_samples - 2, 2),
            max_samples=max_samples,
            min_features=max(min_features, 2),
            max_features=max_features,
            bound=bound,
        )
    )
    X, y = base.X, base.y
    kind = draw(st.sampled_from(["xor", "contradiction", "label_noise_xor"]))
    d = X.shape[1]
    if kind == "contradiction":
        i = draw(st.integers(0, X.shape[0] - 1))
        X = np.vstack([X, X[i : i + 1]])
        y = np.append(y, -y[i])
    else:
        s = draw(st.floats(0.5, bound, width=64))
        centre = draw(hnp.arrays(np.float64, d, elements=finite_floats(bound)))
        corners = np.array([[1, 1], [-1, -1], [1, -1], [-1, 1]], dtype=float) * s
        P = np.tile(centre, (4, 1))
        P[:, :2] += corners
        X = np.vstack([X, P])
        y = np.concatenate([y, [1, 1, -1, -1]])
        if kind == "label_noise_xor":
            flips = draw(hnp.arrays(np.bool_, X.shape[0] - 4, elements=st.booleans()))
            y[: X.shape[0] - 4][flips] *= -1
    return LabelledData(X=X, y=y)
