"""The majority-vote error of independent classifiers, 003 §6.1 (6.1)-(6.3).

``T`` classifiers ``h_i(x) in {-1, +1}``, each wrong with probability ``eps``
independently, combined by ``H(x) = sign(sum_i h_i(x))`` (6.2). ``H`` is right exactly
when more than half of the ``h_i`` are right; with ``sign(0) = 0`` a tie (even ``T``) is
an error. Hence

    P(H(x) != f(x)) = sum_{k=0}^{floor(T/2)} C(T, k) (1 - eps)^k eps^(T - k),

``k`` counting the correct classifiers, and Hoeffding's inequality bounds it by
``exp(-T (1 - 2 eps)^2 / 2)`` for ``eps <= 1/2``.
"""

from __future__ import annotations

import math
import sys
from fractions import Fraction

from scipy import stats

from algorithms._validation import check_bool, check_int, check_real

#: The largest T of the exact rational sum (T/2 terms of T-digit rationals).
MAX_EXACT_CLASSIFIERS = 10**4

#: The largest integer whose float64 conversion is finite.
_FLOAT_MAX_INT = int(sys.float_info.max)

__all__ = ["majority_vote_error", "majority_vote_hoeffding_bound"]


def majority_vote_error(n_classifiers: int, eps: float | Fraction, *, exact: bool = False
                        ) -> float | Fraction:
    """``sum_{k=0}^{floor(T/2)} C(T, k) (1 - eps)^k eps^(T - k)`` (6.3).

    Parameters
    ----------
    n_classifiers : int
        ``T >= 1``.
    eps : float or Fraction
        Error rate of each classifier, in [0, 1].
    exact : bool, default=False
        Sum in rational arithmetic (``eps`` is converted with ``Fraction``; pass a
        ``Fraction`` to avoid the binary rounding of a float). Otherwise the binomial
        CDF of scipy (accurate in the tails).
    """
    T = check_int(n_classifiers, "n_classifiers", low=1)
    check_real(eps, "eps", low=0.0, high=1.0)
    if check_bool(exact, "exact"):
        if T > MAX_EXACT_CLASSIFIERS:
            raise ValueError(f"n_classifiers must be <= {MAX_EXACT_CLASSIFIERS} with "
                             f"exact=True (a sum of T/2 rationals), got {T}.")
        e = Fraction(eps)
        return sum((math.comb(T, k) * (1 - e) ** k * e ** (T - k) for k in range(T // 2 + 1)),
                   Fraction(0))
    return float(stats.binom.cdf(T // 2, T, 1.0 - float(eps)))


def majority_vote_hoeffding_bound(n_classifiers: int, eps: float) -> float:
    """``exp(-T (1 - 2 eps)^2 / 2)``, the right-hand side of (6.3)."""
    T = check_int(n_classifiers, "n_classifiers", low=1)
    e = check_real(eps, "eps", low=0.0, high=1.0)
    rate = 0.5 * (1.0 - 2.0 * e) ** 2
    if rate == 0.0:
        return 1.0
    if T > _FLOAT_MAX_INT:
        # float(T) overflows; 1 - 2 eps is 0 or at least 2^-53 in size (eps a float in
        # [0, 1]), so rate >= 2^-107 and T rate > 1e275: the bound underflows to 0
        return 0.0
    # float(T) is T to within half an ulp (also beyond 2^53), so the exponent T rate
    # carries a few roundings only; a detour through log T + log rate would put its
    # absolute error (~1e-14) into the exponent and 1e-12 relative into the result
    return math.exp(-float(T) * rate)
