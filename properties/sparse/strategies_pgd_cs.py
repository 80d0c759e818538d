"""Hypothesis strategies for 003 §10.4 and §10.6: LASSO problems at drawn scales and
conditioning, scalar proximal inputs, tiny sensing matrices and matrices built with a known
small restricted isometry constant."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import scipy.linalg
from hypothesis import strategies as st

SEEDS = st.integers(0, 2**32 - 1)


@dataclass(frozen=True)
class LassoProblem:
    """A design ``X`` (n, d), target ``y`` and the notes' ``lam`` of (10.7)."""

    X: np.ndarray
    y: np.ndarray
    lam: float
    kind: str

    def __repr__(self) -> str:  # short, for counterexample reports
        return (f"LassoProblem(kind={self.kind!r}, X={self.X.tolist()!r}, "
                f"y={self.y.tolist()!r}, lam={self.lam!r})")


#: Design kinds: independent Gaussian columns, correlated columns (a shared factor),
#: columns of very different scales, a duplicated column (non-unique solutions), a wide
#: design (n < d) and a single column.
DESIGNS = ("gaussian", "correlated", "scaled", "duplicate", "wide", "single")


def _design(rng: np.random.Generator, kind: str, n: int, d: int) -> np.ndarray:
    if kind == "single":
        return rng.normal(size=(n, 1))
    if kind == "wide":
        return rng.normal(size=(max(2, d // 2), d))
    X = rng.normal(size=(n, d))
    if kind == "correlated":
        X = 0.3 * X + rng.normal(size=(n, 1))
    elif kind == "scaled":
        X = X * np.logspace(-1.5, 1.5, d)
    elif kind == "duplicate" and d >= 2:
        X[:, 1] = X[:, 0]
    return X


@st.composite
def lasso_problems(draw, kinds=DESIGNS, scales=(1e-2, 0.3, 1.0, 10.0),
                   fractions=(0.01, 0.1, 0.5, 0.9, 1.5)) -> LassoProblem:
    """A LASSO problem: a drawn design kind, an overall scale of X (small scales make
    ``2 lambda_max(X^T X) < 1``), a sparse truth plus noise, and ``lam`` a drawn fraction
    of ``lam_max = 2 ||X^T y||_inf`` (above 1: the solution is 0)."""
    rng = np.random.default_rng(draw(SEEDS))
    kind = draw(st.sampled_from(kinds))
    n = draw(st.integers(3, 12))
    d = draw(st.integers(2, 6))
    X = _design(rng, kind, n, d) * draw(st.sampled_from(scales))
    truth = np.where(rng.random(X.shape[1]) < 0.5, rng.normal(size=X.shape[1]) * 3.0, 0.0)
    y = X @ truth + 0.1 * rng.normal(size=X.shape[0]) * max(float(np.abs(X).max()), 1e-3)
    lam_max = 2.0 * float(np.max(np.abs(X.T @ y)))
    lam = max(draw(st.sampled_from(fractions)) * lam_max, 1e-6)
    return LassoProblem(X=X, y=y, lam=lam, kind=kind)


#: Scalar prox inputs: values on both sides of every kink and far outside.
Z_VALUES = st.floats(-5.0, 5.0, allow_nan=False, allow_infinity=False)


@st.composite
def tiny_sensing(draw) -> tuple[np.ndarray, int, np.ndarray]:
    """``(A, k, s)``: a small ``n x m`` matrix whose columns are directions from a coarse
    grid normalised to unit length (so delta_1 = 0 and, for k >= 2, delta_k < 1 unless k
    columns are dependent; Hypothesis shrinks to readable matrices), a sparsity ``k`` and a
    k-sparse ``s`` with entries in {-2, -1, 1, 2}."""
    n = draw(st.integers(1, 3))
    m = draw(st.integers(n + 1, n + 3))
    entries = st.sampled_from([1.0, 0.0, -1.0, 0.5, 2.0])
    A = np.array(draw(st.lists(entries, min_size=n * m, max_size=n * m))).reshape(n, m)
    A[0, np.all(A == 0.0, axis=0)] = 1.0  # no zero column
    A = A / np.linalg.norm(A, axis=0)
    k = draw(st.integers(1, min(n, m - 1)))
    support = draw(st.lists(st.integers(0, m - 1), min_size=k, max_size=k, unique=True))
    values = draw(st.lists(st.sampled_from([1.0, -1.0, 2.0, -2.0]), min_size=k, max_size=k))
    s = np.zeros(m)
    s[support] = values
    return A, k, s


@st.composite
def two_k_sensing(draw) -> tuple[np.ndarray, int, np.ndarray]:
    """``(A, k, s)`` with 2k <= n, so that delta_2k(A) < 1 is possible: unit-norm columns,
    Gaussian (every 2k columns independent with probability one) or from a coarse grid
    (which the claim filters by delta_2k < 1)."""
    rng = np.random.default_rng(draw(SEEDS))
    n = draw(st.integers(2, 4))
    k = draw(st.integers(1, n // 2))
    m = draw(st.integers(n + 1, n + 3))
    if draw(st.integers(0, 3)) > 0:  # a quarter of the draws on the grid (often filtered)
        A = rng.normal(size=(n, m))
    else:
        A = rng.integers(-2, 3, size=(n, m)) / 2.0
        A[0, np.all(A == 0.0, axis=0)] = 1.0
    # unit-norm columns: the RIP (10.20) is scale-dependent, delta_2k < 1 needs the scale
    A = A / np.linalg.norm(A, axis=0)
    s = np.zeros(m)
    s[rng.choice(m, size=k, replace=False)] = rng.choice([-2.0, -1.0, 1.0, 2.0], size=k)
    return A, k, s


def hadamard_pair(n: int, rng: np.random.Generator, columns: int) -> np.ndarray:
    """``Q [I, H_S / sqrt(n)]``: the identity and ``columns`` columns of a normalised
    Hadamard matrix (with random signs), rotated by a random orthogonal ``Q``. Its columns
    have unit norm and pairwise coherence 0 or ``1 / sqrt(n)``, so
    ``delta_2 = 1 / sqrt(n)`` whatever ``Q`` (the Gram matrix does not see ``Q``)."""
    H = scipy.linalg.hadamard(n).astype(float) / np.sqrt(n)
    pick = rng.choice(n, size=columns, replace=False)
    B = H[:, pick] * rng.choice([-1.0, 1.0], size=columns)
    Q, _ = np.linalg.qr(rng.normal(size=(n, n)))
    return Q @ np.hstack([np.eye(n), B])


@st.composite
def incoherent_sensing(draw) -> tuple[np.ndarray, np.ndarray]:
    """``(A, s)``: ``A`` from :func:`hadamard_pair` with n in {8, 16} and a 1-sparse ``s``
    (``delta_2 = 1/sqrt(n) < sqrt(2) - 1``)."""
    rng = np.random.default_rng(draw(SEEDS))
    n = draw(st.sampled_from([8, 16]))
    A = hadamard_pair(n, rng, draw(st.integers(1, n)))
    m = A.shape[1]
    s = np.zeros(m)
    s[draw(st.integers(0, m - 1))] = draw(st.sampled_from([-3.0, -1.0, 1e-3, 0.5, 7.0]))
    return A, s
