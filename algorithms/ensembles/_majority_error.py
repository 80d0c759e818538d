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

#: log of the largest float64: exp of a larger number overflows.
_LOG_FLOAT_MAX = math.log(sys.float_info.max)

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
    if T >= 2**53:  # T beyond exact floats: exp(-T rate) in log space (0 unless rate = 0)
        if rate == 0.0:
            return 1.0
        log_exponent = math.log(T) + math.log(rate)
        return 0.0 if log_exponent > _LOG_FLOAT_MAX else math.exp(-math.exp(log_exponent))
    return math.exp(-T * rate)
