"""The bounds of computational learning theory as plain, validated functions.

Every function returns the right-hand side of one inequality of 003 Chapter 9,
in the notes' notation: ``m`` is the sample size, ``epsilon`` the error
parameter, ``delta`` the confidence parameter, ``d`` the VC dimension and
``n_hypotheses`` the size ``|H|`` of a finite hypothesis space.

Functions named ``*_tail`` bound a probability; functions named ``*_bound``
(or ``*_deviation``) return the excess term that holds with probability at
least ``1 - delta``, i.e. the generalisation error is at most the empirical
error plus the returned value.
"""

from __future__ import annotations

import math

import numpy as np

from algorithms._validation import check_array_argument, check_bool, check_int, check_real

__all__ = [
    "finite_class_deviation",
    "growth_polynomial_bound",
    "hoeffding_deviation",
    "hoeffding_tail",
    "massart_bound",
    "mcdiarmid_tail",
    "pac_error_bound",
    "pac_sample_size",
    "rademacher_bound_binary",
    "rademacher_bound_real",
    "rademacher_vc_bound",
    "sauer_bound",
    "stability_bound",
    "vc_generalisation_bound",
    "vc_tail_bound",
]

#: Largest sample size or class size accepted: integers up to 2^53 are exact in float64,
#: the arithmetic every bound here uses.
MAX_SIZE = 2**53
#: :func:`sauer_bound` sums ``min(d, m) + 1`` binomial coefficients of ``m`` bits each;
#: above ``m * min(d, m) = 5e9`` bit-steps (about a second) it refuses.
MAX_SAUER_WORK = 5 * 10**9
#: ``2^m`` (the Sauer bound for ``d >= m``) is built for ``m`` up to 1e8 bits (12.5 MB).
MAX_SAUER_BITS = 10**8


def _size(value: object, name: str, low: int = 1) -> int:
    """A sample or class size: an integer in ``[low, MAX_SIZE]`` (integral floats accepted)."""
    return check_int(value, name, low=low, high=MAX_SIZE, integral_floats=True)


def _delta(value: object) -> float:
    return check_real(value, "delta", low=0.0, high=1.0, low_open=True, high_open=True)


def _exp_or_refuse(log_value: float, what: str) -> float:
    """``exp(log_value)``: 0 below the float range; a ValueError naming ``what`` above it."""
    if log_value > math.log(np.finfo(np.float64).max):
        raise ValueError(f"{what} exceeds the largest float64 (its natural logarithm is "
                         f"{log_value:.6g}); work with the logarithm instead.")
    return math.exp(log_value)  # exp(-inf) and exp(-1e300) are 0.0


def _finite_result(value: float, what: str) -> float:
    if not math.isfinite(value):
        raise ValueError(f"{what} overflows float64 for these arguments; rescale them.")
    return value


def hoeffding_tail(m: int, epsilon: float, *, two_sided: bool = False) -> float:
    """Hoeffding's bound on the deviation of a mean of ``m`` independent [0, 1] variables.

    Parameters
    ----------
    m : int
        Number of variables, ``m >= 1``.
    epsilon : float
        Deviation, ``epsilon > 0``.
    two_sided : bool
        Bound ``P(|mean - E mean| >= epsilon)`` instead of ``P(mean - E mean >= epsilon)``.

    Returns
    -------
    float
        ``exp(-2 m epsilon^2)``, doubled when two-sided.

    Notes
    -----
    003 §9.1 (9.5); for a fixed hypothesis, with the losses as the variables,
    this is (9.14).
    """
    m = _size(m, "m")
    epsilon = check_real(epsilon, "epsilon", low=0.0, low_open=True)
    two_sided = check_bool(two_sided, "two_sided")
    tail = math.exp(-2.0 * m * epsilon * epsilon)  # inf exponent (eps ~ 1e300): 0, no overflow
    return 2.0 * tail if two_sided else tail


def mcdiarmid_tail(c: np.ndarray, epsilon: float, *, two_sided: bool = False) -> float:
    """McDiarmid's bounded-differences bound.

    Parameters
    ----------
    c : array_like of shape (m,)
        Bounded differences ``c_i >= 0`` of ``f`` (9.6), not all zero.
    epsilon : float
        Deviation, ``epsilon > 0``.
    two_sided : bool
        Bound ``P(|f - E f| >= epsilon)`` instead of ``P(f - E f >= epsilon)``.

    Returns
    -------
    float
        ``exp(-2 epsilon^2 / sum c_i^2)``, doubled when two-sided.

    Notes
    -----
    003 §9.1 (9.6)-(9.7).
    """
    c_arr = check_array_argument(c, "c", ndim=1, real=True)
    if np.any(c_arr < 0):
        raise ValueError("c must contain non-negative bounded differences")
    top = float(np.max(c_arr))
    if top == 0.0:
        raise ValueError("c must not be all zero (f would be constant)")
    epsilon = check_real(epsilon, "epsilon", low=0.0, low_open=True)
    two_sided = check_bool(two_sided, "two_sided")
    # eps^2 / sum c_i^2 = (eps/top)^2 / sum (c_i/top)^2: no overflow or underflow of squares.
    ratio = epsilon / top
    tail = math.exp(-2.0 * ratio * ratio / float(np.sum((c_arr / top) ** 2)))
    return 2.0 * tail if two_sided else tail


def pac_sample_size(n_hypotheses: int, epsilon: float, delta: float) -> int:
    """The smallest integer ``m`` with ``m >= (ln|H| + ln(1/delta)) / epsilon``.

    A learner that outputs a hypothesis consistent with ``m`` such examples from a
    finite, realisable ``H`` has error at most ``epsilon`` with probability at
    least ``1 - delta``.

    Notes
    -----
    003 §9.3.1 (9.12)-(9.13).
    """
    n_hypotheses = check_int(n_hypotheses, "n_hypotheses", low=1, integral_floats=True)
    epsilon = check_real(epsilon, "epsilon", low=0.0, high=1.0, low_open=True, high_open=True)
    delta = _delta(delta)
    return max(1, math.ceil((math.log(n_hypotheses) + math.log(1.0 / delta)) / epsilon))


def pac_error_bound(n_hypotheses: int, m: int, delta: float) -> float:
    """The error level ``(ln|H| + ln(1/delta)) / m`` that (9.13) guarantees for ``m`` examples.

    Notes
    -----
    003 §9.3.1 (9.13) solved for epsilon; it decays at rate O(1/m).
    """
    n_hypotheses = check_int(n_hypotheses, "n_hypotheses", low=1, integral_floats=True)
    m = _size(m, "m")
    delta = _delta(delta)
    return (math.log(n_hypotheses) + math.log(1.0 / delta)) / m


def hoeffding_deviation(m: int, delta: float) -> float:
    """``sqrt(ln(2/delta) / (2m))``: the two-sided deviation of one hypothesis (9.15)."""
    m = _size(m, "m")
    delta = _delta(delta)
    return math.sqrt(math.log(2.0 / delta) / (2.0 * m))


def finite_class_deviation(n_hypotheses: int, m: int, delta: float) -> float:
    """``sqrt((ln|H| + ln(2/delta)) / (2m))``: the deviation over a finite class (9.16).

    Notes
    -----
    003 §9.3.2 (9.16): with probability at least ``1 - delta``,
    ``|E(h) - Ê(h)|`` is at most this value for every ``h`` in ``H``.
    """
    n_hypotheses = check_int(n_hypotheses, "n_hypotheses", low=1, integral_floats=True)
    m = _size(m, "m")
    delta = _delta(delta)
    return math.sqrt((math.log(n_hypotheses) + math.log(2.0 / delta)) / (2.0 * m))


def sauer_bound(m: int, d: int) -> int:
    """``sum_{i=0}^{d} C(m, i)``, the Sauer bound on the growth function (exact integer).

    Notes
    -----
    003 §9.4 (9.21). For ``d >= m`` the sum is ``2^m``. Exact integers cost time
    and memory in proportion to ``m * min(d, m)`` bits, so a request beyond
    ``MAX_SAUER_WORK`` (or ``2^m`` beyond ``MAX_SAUER_BITS`` bits) is refused with a
    ValueError; :func:`growth_polynomial_bound` bounds it in closed form.
    """
    m = check_int(m, "m", low=0, integral_floats=True)
    d = check_int(d, "d", low=0, integral_floats=True)
    if d >= m:
        if m > MAX_SAUER_BITS:
            raise ValueError(f"m={m} is too large: the Sauer bound 2^m would have more than "
                             f"{MAX_SAUER_BITS} bits")
        return 1 << m
    if m * d > MAX_SAUER_WORK:
        raise ValueError(f"m={m}, d={d}: the exact sum of C(m, i) for i <= d needs about "
                         f"m*d = {m * d:.3g} > {MAX_SAUER_WORK:.0e} bit operations; use "
                         "growth_polynomial_bound (its logarithm) instead")
    total, term = 1, 1
    for i in range(d):  # C(m, i+1) = C(m, i) (m - i) / (i + 1), exactly
        term = term * (m - i) // (i + 1)
        total += term
    return total


def growth_polynomial_bound(m: int, d: int) -> float:
    """``(e m / d)^d``, valid for integers ``m >= d >= 1``.

    Notes
    -----
    003 §9.4 (9.22). The note states the condition ``m >= d``; for ``m < d`` the
    value can fall below the growth function (e.g. ``d = 3, m = 1``), so it is
    rejected here.
    """
    d = _size(d, "d")
    m = _size(m, "m")
    if m < d:
        raise ValueError(f"m must be >= d for (em/d)^d to bound the growth function, got "
                         f"m={m}, d={d}")
    return _exp_or_refuse(d * (1.0 + math.log(m) - math.log(d)), "(em/d)^d")


def vc_tail_bound(growth_2m: int, m: int, epsilon: float) -> float:
    """``4 Pi_H(2m) exp(-m epsilon^2 / 8)``, bounding ``P(|E(h) - Ê(h)| > epsilon)`` (9.19)."""
    growth_2m = check_int(growth_2m, "growth_2m", low=1, integral_floats=True)
    m = _size(m, "m")
    epsilon = check_real(epsilon, "epsilon", low=0.0, low_open=True)
    # In logs: Pi_H(2m) may exceed the float range (it is an exact integer).
    return _exp_or_refuse(math.log(4.0) + math.log(growth_2m) - m * epsilon * epsilon / 8.0,
                          "4 Pi_H(2m) exp(-m eps^2/8)")


def vc_generalisation_bound(m: int, d: int, delta: float) -> float:
    """``sqrt((8 d ln(2em/d) + 8 ln(4/delta)) / m)`` for ``m > d`` (9.23).

    Notes
    -----
    003 §9.4 (9.23): with probability at least ``1 - delta``,
    ``E(h) - Ê(h)`` is at most this value.
    """
    d = _size(d, "d")
    m = _size(m, "m")
    delta = _delta(delta)
    if m <= d:
        raise ValueError(f"m must exceed the VC dimension d, got m={m}, d={d}")
    return math.sqrt((8.0 * d * math.log(2.0 * math.e * m / d) + 8.0 * math.log(4.0 / delta)) / m)


def _check_rademacher(value: float, name: str) -> float:
    return check_real(value, name, low=0.0, high=1.0)


def rademacher_bound_real(
    rademacher: float, m: int, delta: float, *, empirical: bool = False
) -> float:
    """Excess term of the Rademacher bound for a class of [0, 1]-valued functions (9.31).

    Parameters
    ----------
    rademacher : float
        ``R_m(F)`` (expected) or, with ``empirical=True``, ``R̂_Z(F)``.
    m : int
        Sample size.
    delta : float
        Confidence parameter in (0, 1).
    empirical : bool
        Use the second line of (9.31).

    Returns
    -------
    float
        ``2 R_m + sqrt(ln(1/delta)/(2m))`` or ``2 R̂_Z + 3 sqrt(ln(2/delta)/(2m))``.
    """
    rademacher = _check_rademacher(rademacher, "rademacher")
    m = _size(m, "m")
    delta = _delta(delta)
    if check_bool(empirical, "empirical"):
        return 2.0 * rademacher + 3.0 * math.sqrt(math.log(2.0 / delta) / (2.0 * m))
    return 2.0 * rademacher + math.sqrt(math.log(1.0 / delta) / (2.0 * m))


def rademacher_bound_binary(
    rademacher: float, m: int, delta: float, *, empirical: bool = False
) -> float:
    """Excess term of the Rademacher bound for a {-1, +1}-valued class (9.32).

    Returns ``R_m(H) + sqrt(ln(1/delta)/(2m))`` or, with ``empirical=True``,
    ``R̂_D(H) + 3 sqrt(ln(2/delta)/(2m))``.
    """
    rademacher = _check_rademacher(rademacher, "rademacher")
    m = _size(m, "m")
    delta = _delta(delta)
    if check_bool(empirical, "empirical"):
        return rademacher + 3.0 * math.sqrt(math.log(2.0 / delta) / (2.0 * m))
    return rademacher + math.sqrt(math.log(1.0 / delta) / (2.0 * m))


def massart_bound(n_behaviours: int, m: int) -> float:
    """``sqrt(2 ln Pi / m)``: Massart's bound on the Rademacher complexity (9.33).

    ``n_behaviours`` is the growth function ``Pi_H(m)`` (or, for the empirical
    version, the number of distinct label vectors ``|H|_D|``).
    """
    n_behaviours = check_int(n_behaviours, "n_behaviours", low=1, integral_floats=True)
    m = _size(m, "m")
    return math.sqrt(2.0 * math.log(n_behaviours) / m)


def rademacher_vc_bound(m: int, d: int, delta: float) -> float:
    """``sqrt(2 d ln(em/d) / m) + sqrt(ln(1/delta) / (2m))`` for ``m >= d`` (9.34).

    Notes
    -----
    003 §9.5 (9.34) combines (9.32), (9.33) and (9.22); the last needs
    ``m >= d``, a condition the note does not repeat (see the claim
    ``clt.rademacher_vc_bound_any_m``).
    """
    d = _size(d, "d")
    m = _size(m, "m")
    delta = _delta(delta)
    if m < d:
        raise ValueError(f"m must be >= d (the bound uses (9.22)), got m={m}, d={d}")
    return math.sqrt(2.0 * d * math.log(math.e * m / d) / m) + math.sqrt(
        math.log(1.0 / delta) / (2.0 * m)
    )


def stability_bound(beta: float, m: int, loss_bound: float, delta: float, *,
                    leave_one_out: bool = False) -> float:
    """Excess term of the uniform-stability bound (9.39).

    Returns ``2 beta + (4 m beta + M) sqrt(ln(1/delta)/(2m))`` (over the
    empirical loss) or, with ``leave_one_out=True``,
    ``beta + (4 m beta + M) sqrt(ln(1/delta)/(2m))`` (over the leave-one-out loss).

    Parameters
    ----------
    beta : float
        Uniform stability of the learner, ``beta >= 0``.
    m : int
        Sample size.
    loss_bound : float
        ``M``, an upper bound of the loss, ``M > 0``.
    delta : float
        Confidence parameter in (0, 1).
    """
    beta = check_real(beta, "beta", low=0.0)
    m = _size(m, "m")
    loss_bound = check_real(loss_bound, "loss_bound", low=0.0, low_open=True)
    delta = _delta(delta)
    leave_one_out = check_bool(leave_one_out, "leave_one_out")
    spread = (4.0 * m * beta + loss_bound) * math.sqrt(math.log(1.0 / delta) / (2.0 * m))
    return _finite_result((beta if leave_one_out else 2.0 * beta) + spread,
                          "the stability bound (9.39)")
