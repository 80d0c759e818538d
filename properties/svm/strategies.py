"""Datasets for the SVM claims: adversarial geometry with a stated conditioning floor.

SMO is a two-coordinate descent method; its linear rate degrades with the
conditioning of the dual, roughly ``(R / gamma)^2`` for radius ``R`` and margin
``gamma``. The generic :func:`separable_datasets` reaches ``R / gamma`` near
``1e6`` (margins of 1e-3 on features scaled by 1e2), where no SMO converges to
1e-9 in a sensible number of steps, so these strategies keep ``gamma / R``
above ``1e-2`` while still producing the corners the claims need:
near-duplicate points, tiny margins, many points exactly on the margin
(degenerate duals with many support vectors), exact duplicates with opposite
labels, XOR patterns and label noise.
"""

from __future__ import annotations

import numpy as np
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from mltheory.strategies import LabelledData, SeparableData

__all__ = [
    "svm_margin_lines_datasets",
    "svm_nonseparable_datasets",
    "svm_regression_datasets",
    "svm_separable_datasets",
]

#: smallest margin relative to the data radius (bounds the dual's conditioning, see above)
MIN_RELATIVE_MARGIN = 1e-2


def _unit(draw, d: int) -> np.ndarray:
    v = draw(hnp.arrays(np.float64, d, elements=st.floats(-1, 1, width=64)))
    if np.linalg.norm(v) < 0.1:
        v[0] = 1.0
    return v / np.linalg.norm(v)


@st.composite
def svm_separable_datasets(
    draw: st.DrawFn, *, min_samples: int = 2, max_samples: int = 16, max_features: int = 3
) -> SeparableData:
    """Separable data in ``[-1, 1]^d`` with margin ``gamma`` in ``[1e-2, 0.5]`` along a
    drawn unit normal ``w``; optionally a subset of points is moved *exactly* onto
    the margin (many support vectors, non-unique dual) and near-duplicates of
    existing points are added (offsets down to ``1e-3``)."""
    n = draw(st.integers(max(min_samples, 2), max_samples))
    d = draw(st.integers(1, max_features))
    w = _unit(draw, d)
    b = draw(st.floats(-0.5, 0.5))
    gamma = draw(st.sampled_from([MIN_RELATIVE_MARGIN, 0.05, 0.2, 0.5]))
    X = draw(hnp.arrays(np.float64, (n, d), elements=st.floats(-1, 1, width=64)))
    y = draw(hnp.arrays(np.int64, n, elements=st.sampled_from([-1, 1])))
    y[0], y[1] = 1, -1
    deficit = np.maximum(gamma - y * (X @ w + b), 0.0)
    X = X + (y * deficit)[:, None] * w[None, :]
    if draw(st.booleans()):  # put a drawn subset exactly on the margin
        on = draw(hnp.arrays(np.bool_, n, elements=st.booleans()))
        X[on] = X[on] - ((y[on] * (X[on] @ w + b) - gamma) * y[on])[:, None] * w[None, :]
    if draw(st.booleans()):  # near-duplicates, same label, displaced along the margin
        k = draw(st.integers(1, max(1, n // 3)))
        idx = draw(st.lists(st.integers(0, n - 1), min_size=k, max_size=k))
        offset = draw(st.sampled_from([1e-3, 1e-2, 0.0]))
        extra = X[idx] + offset
        extra = extra + np.maximum(gamma - y[idx] * (extra @ w + b), 0)[:, None] * (
            y[idx][:, None] * w[None, :])
        X = np.vstack([X, extra])
        y = np.concatenate([y, y[idx]])
    w_hat = np.append(w, b)
    norm = np.linalg.norm(w_hat)
    margin = float(np.min(y * (X @ w + b))) / norm
    return SeparableData(X=X, y=y, separator=w_hat / norm, margin=margin)


@st.composite
def svm_nonseparable_datasets(
    draw: st.DrawFn, *, max_samples: int = 14, max_features: int = 3
) -> LabelledData:
    """Data no hyperplane separates: a separable base (as above) plus a planted XOR
    square, an exact duplicate with the opposite label, or label noise on top of XOR."""
    base = draw(svm_separable_datasets(max_samples=max_samples, max_features=max_features))
    X, y = base.X, base.y.copy()
    d = X.shape[1]
    kind = draw(st.sampled_from(["xor", "contradiction", "label_noise_xor"]))
    if kind == "contradiction" or d < 2:
        i = draw(st.integers(0, X.shape[0] - 1))
        X = np.vstack([X, X[i : i + 1]])
        y = np.append(y, -y[i])
        return LabelledData(X=X, y=y)
    s = draw(st.sampled_from([0.05, 0.3, 1.0]))
    centre = draw(hnp.arrays(np.float64, d, elements=st.floats(-1, 1, width=64)))
    P = np.tile(centre, (4, 1))
    P[:, :2] += np.array([[1, 1], [-1, -1], [1, -1], [-1, 1]], dtype=float) * s
    X = np.vstack([X, P])
    y = np.concatenate([y, [1, 1, -1, -1]])
    if kind == "label_noise_xor":
        flips = draw(hnp.arrays(np.bool_, X.shape[0] - 4, elements=st.booleans()))
        y[: X.shape[0] - 4][flips] *= -1
    return LabelledData(X=X, y=y)


@st.composite
def svm_regression_datasets(
    draw: st.DrawFn, *, max_samples: int = 16, max_features: int = 3
) -> tuple[np.ndarray, np.ndarray]:
    """Regression data ``(X, y)``: a drawn linear trend plus drawn noise (from none to
    dominant), with optional duplicated inputs carrying different targets."""
    n = draw(st.integers(2, max_samples))
    d = draw(st.integers(1, max_features))
    X = draw(hnp.arrays(np.float64, (n, d), elements=st.floats(-1, 1, width=64)))
    w = draw(hnp.arrays(np.float64, d, elements=st.floats(-2, 2, width=64)))
    noise = draw(hnp.arrays(np.float64, n, elements=st.floats(-1, 1, width=64)))
    level = draw(st.sampled_from([0.0, 0.05, 0.5, 2.0]))
    y = X @ w + draw(st.floats(-1, 1)) + level * noise
    if draw(st.booleans()):
        i = draw(st.integers(0, n - 1))
        X = np.vstack([X, X[i : i + 1]])
        y = np.append(y, y[i] + draw(st.floats(-1, 1)))
    return X, y


@st.composite
def svm_margin_lines_datasets(draw: st.DrawFn, *, max_samples: int = 14) -> SeparableData:
    """Points of the two classes on two parallel lines (the margins) in 3-d, each moved off
    its line by a drawn tiny amount: almost every point is a free support vector and their
    feature vectors are nearly affinely dependent, the flat faces on which SMO's pair updates
    crawl and the face Newton steps of ``polish=True`` take over."""
    n = draw(st.integers(6, max_samples))
    t = draw(hnp.arrays(np.float64, n, elements=st.floats(-1, 1, width=64)))
    noise = draw(hnp.arrays(np.float64, (n, 2), elements=st.floats(-1, 1, width=64)))
    return margin_lines(t, noise, draw(st.sampled_from([1e-6, 1e-4])))


def margin_lines(t: np.ndarray, noise: np.ndarray, level: float) -> SeparableData:
    """Point k at (t_k, y_k + level noise_k0, level noise_k1), y alternating +1, -1."""
    t, noise = np.asarray(t, dtype=float), np.asarray(noise, dtype=float)
    y = np.where(np.arange(t.shape[0]) % 2 == 0, 1, -1)
    X = np.column_stack([t, y + level * noise[:, 0], level * noise[:, 1]])
    margin = float(np.min(y * X[:, 1]))
    return SeparableData(X=X, y=y, separator=np.array([0.0, 1.0, 0.0, 0.0]), margin=margin)
