"""Bootstrap sampling (003 §6.3.1, referring to the book's §2.2.3).

A bootstrap sample draws ``m`` indices uniformly with replacement from ``m`` examples;
a given example is left out with probability ``(1 - 1/m)^m -> 1/e``, so on average a
fraction ``1 - (1 - 1/m)^m -> 1 - 1/e ~ 63.2%`` of the examples is in the bag.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np

from algorithms._validation import check_array_argument, check_bool, check_int, make_rng

__all__ = [
    "IN_BAG_LIMIT",
    "bootstrap_indices",
    "expected_in_bag_fraction",
    "in_bag_counts",
]

#: The most indices one bootstrap sample may hold (int64: 800 MB).
MAX_DRAWS = 10**8

#: The largest ``m`` for the exact rational ``1 - (1 - 1/m)^m`` (about m log10 m digits).
MAX_EXACT_SAMPLES = 10**4

#: ``lim_{m -> oo} 1 - (1 - 1/m)^m = 1 - 1/e``.
IN_BAG_LIMIT = 1.0 - math.exp(-1.0)


def bootstrap_indices(n_samples: int, random_state: object = None, *,
                      n_draws: int | None = None) -> np.ndarray:
    """``n_draws`` (default ``n_samples``) indices drawn uniformly with replacement."""
    m = check_int(n_samples, "n_samples", low=1)
    k = m if n_draws is None else check_int(n_draws, "n_draws", low=1, high=MAX_DRAWS)
    if k > MAX_DRAWS:
        raise ValueError(f"n_samples (the default number of draws) must be <= {MAX_DRAWS} "
                         f"without n_draws, got {m}.")
    return make_rng(random_state).integers(0, m, size=k)


def in_bag_counts(indices: np.ndarray, n_samples: int) -> np.ndarray:
    """How often each of the ``n_samples`` examples occurs in a bootstrap sample."""
    m = check_int(n_samples, "n_samples", low=1, high=MAX_DRAWS)
    idx = check_array_argument(indices, "indices", dtype=np.int64, real=True,
                               allow_empty=True)
    if idx.ndim != 1 or np.any((idx < 0) | (idx >= m)):
        raise ValueError(f"indices must be a 1-d array of integers in 0..{m - 1}.")
    return np.bincount(idx, minlength=m)


def expected_in_bag_fraction(n_samples: int, *, exact: bool = False) -> float | Fraction:
    """``1 - (1 - 1/m)^m``: the expected fraction of distinct examples in the bag."""
    m = check_int(n_samples, "n_samples", low=1)
    if check_bool(exact, "exact"):
        if m > MAX_EXACT_SAMPLES:
            raise ValueError(f"n_samples must be <= {MAX_EXACT_SAMPLES} with exact=True "
                             f"(the fraction has about m log10 m digits), got {m}.")
        return 1 - (1 - Fraction(1, m)) ** m
    if m == 1:
        return 1.0
    # m log(1 - 1/m) = -1 - 1/(2m) - ...; 1 / m as an int quotient never overflows
    return -math.expm1(float(m * math.log1p(-1 / m)) if m < 2**53 else -1.0 - 1 / (2 * m))
