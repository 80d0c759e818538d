"""Empirical Rademacher complexity, exactly and by Monte Carlo.

For a class whose behaviours on a sample ``Z = (z_1, ..., z_m)`` are the rows of
a matrix ``F`` (``F[k, i] = f_k(z_i)``), the empirical Rademacher complexity is
(003 §9.5 (9.29))

    R̂_Z(F) = E_sigma [ max_k (1/m) sum_i sigma_i F[k, i] ],

with independent uniform signs ``sigma_i``. Only the distinct rows matter, so
an infinite class enters through its finitely many behaviours ``h|_D``.
"""

from __future__ import annotations

import math

import numpy as np
from scipy import stats

from algorithms._validation import InvalidArgumentError, check_array_argument, check_int, check_real
from algorithms.learning_theory._growth import MAX_ENUMERATED_POINTS, all_labellings

__all__ = [
    "empirical_rademacher",
    "empirical_rademacher_mc",
    "threshold_rademacher",
]

#: Largest ``n_draws * m * (n_behaviours + 1)`` of :func:`empirical_rademacher_mc` (sign
#: draws and products: about ten seconds at the ~1e7 per second measured); a larger
#: request is refused with a ValueError.
MAX_MC_WORK = 10**8
#: Largest ``m`` of :func:`threshold_rademacher` (binomial tails of 1e6 levels, ~1 s).
MAX_THRESHOLD_M = 10**6


def _scaled(F: np.ndarray) -> tuple[np.ndarray, int]:
    """``F = G 2^k`` with ``max |G|`` in [1/2, 1) (exact): R̂ is positively homogeneous, so
    it is computed on ``G`` (no overflow of the sums for entries near the float maximum,
    no underflow for tiny ones) and scaled back by ``2^k``."""
    top = float(np.max(np.abs(F)))
    if top == 0.0:
        return F, 0
    k = math.frexp(top)[1]
    return np.ldexp(F, -k), k


def _behaviours(values: object) -> np.ndarray:
    """The distinct rows of ``values`` (one function's values is one row)."""
    F = check_array_argument(values, "values", allow_empty=True, real=True)
    if F.ndim == 1:
        F = F[None, :]
    if F.ndim != 2 or F.size == 0:
        raise ValueError(f"values must be a non-empty (n_functions, m) array, got shape {F.shape}")
    return np.unique(F, axis=0)


def empirical_rademacher(values: object) -> float:
    """Exact empirical Rademacher complexity by enumerating all ``2^m`` sign vectors.

    Parameters
    ----------
    values : array_like of shape (n_functions, m)
        ``values[k, i] = f_k(z_i)``; ``m <= 16``.

    Returns
    -------
    float
        ``R̂_Z(F)`` (9.29).
    """
    F, k = _scaled(_behaviours(values))
    m = F.shape[1]
    if m > MAX_ENUMERATED_POINTS:
        raise ValueError(f"values has m={m} columns; exact enumeration needs m <= "
                         f"{MAX_ENUMERATED_POINTS} (use empirical_rademacher_mc)")
    sigma = all_labellings(m).astype(float)  # (2^m, m)
    # Chunk the (2^m, n_functions) product to bound memory.
    total = 0.0
    chunk = max(1, 2**22 // max(1, F.shape[0]))
    for start in range(0, sigma.shape[0], chunk):
        total += float(np.sum(np.max(sigma[start:start + chunk] @ F.T, axis=1)))
    return math.ldexp(total / (sigma.shape[0] * m), k)


def empirical_rademacher_mc(
    values: object, n_draws: int, rng: np.random.Generator, *, confidence: float = 0.95
) -> tuple[float, float]:
    """Monte-Carlo estimate of ``R̂_Z(F)`` with a Hoeffding half-width.

    Each draw ``max_k (1/m) sigma . F[k]`` lies in ``[-B, B]`` with
    ``B = max |F|``, so the estimate is within
    ``2 B sqrt(ln(2/(1-confidence)) / (2 n_draws))`` of the exact value with at
    least the stated confidence.

    Returns
    -------
    (estimate, half_width)
    """
    F, exponent = _scaled(_behaviours(values))
    n_draws = check_int(n_draws, "n_draws", low=1, integral_floats=True)
    work = n_draws * F.shape[1] * (F.shape[0] + 1)
    if work > MAX_MC_WORK:
        raise ValueError(f"n_draws={n_draws} is too large: n_draws * m * (n_behaviours + 1) "
                         f"= {work:.3g} exceeds {MAX_MC_WORK:.0e}")
    if not isinstance(rng, np.random.Generator):
        raise InvalidArgumentError(f"rng must be a numpy.random.Generator, got {rng!r}")
    confidence = check_real(confidence, "confidence", low=0.0, high=1.0, low_open=True,
                            high_open=True)
    m = F.shape[1]
    total = 0.0
    chunk = max(1, 2**22 // max(1, F.shape[0] + m))
    remaining = n_draws
    while remaining > 0:
        k = min(chunk, remaining)
        sigma = rng.choice(np.array([-1.0, 1.0]), size=(k, m))
        total += float(np.sum(np.max(sigma @ F.T, axis=1)))
        remaining -= k
    bound = float(np.max(np.abs(F)))
    half = 2.0 * bound * math.sqrt(math.log(2.0 / (1.0 - confidence)) / (2.0 * n_draws))
    return math.ldexp(total / (n_draws * m), exponent), math.ldexp(half, exponent)


def threshold_rademacher(m: int) -> float:
    """Exact ``R̂_D(H)`` of one-sided thresholds ``h_t(x) = +1 iff x >= t`` on m distinct points.

    On sorted distinct points the realised labellings are "k minus signs then
    m - k plus signs", so ``max_h sigma . h = S_m - 2 min_{0<=k<=m} P_k`` with
    ``P_k`` the partial sums of the signs. Its expectation is ``2 E[M_m]``,
    ``M_m`` the running maximum of a simple random walk, whose law follows
    from the reflection principle: ``P(M_m >= r) = P(S_m >= r) + P(S_m >= r + 1)``.
    The value depends only on m (not on where the points are).
    """
    m = check_int(m, "m", low=1, high=MAX_THRESHOLD_M, integral_floats=True)
    r = np.arange(1, m + 1)
    # S_m = 2 B - m with B ~ Binomial(m, 1/2): P(S_m >= r) = P(B >= (m + r) / 2).
    def tail(level: np.ndarray) -> np.ndarray:
        need = np.ceil((m + level) / 2.0)
        return stats.binom.sf(need - 1, m, 0.5)

    expected_max = float(np.sum(tail(r) + tail(r + 1)))
    return 2.0 * expected_max / m
