"""Symbolic derivations of 003 Chapter 9 (computational learning theory).

Each claim checks the algebra that turns one bound into the next (solving a
tail bound for eps or m, substituting a growth bound) with sympy, names the
first failing step, and cross-checks the closed form against the function of
:mod:`algorithms.learning_theory` numerically. The rates the note states in
words are checked as limits: "O(g(m))" means ``lim sup f(m)/g(m) < oo``.
"""

from __future__ import annotations

import math

import sympy as sp

from algorithms.learning_theory import (
    finite_class_deviation,
    hoeffding_deviation,
    pac_error_bound,
    pac_sample_size,
    rademacher_vc_bound,
    stability_bound,
    vc_generalisation_bound,
)
from mltheory import ErratumKind, Expect, Method, claim, evidence
from mltheory.numeric import EXACT_ARITHMETIC, assert_close
from mltheory.symbolic import Derivation
from proofs.support import expand_logs

m, eps, delta, H, d, beta, M, c = sp.symbols("m epsilon delta H d beta M c", positive=True)


def _cross_check(implementation, expr: sp.Expr, symbols: tuple, cases, label: str) -> None:
    """Numeric cross-check: ``implementation(*case)`` equals ``expr`` at ``symbols = case``."""
    for case in cases:
        assert_close(implementation(*case), float(expr.subs(dict(zip(symbols, case, strict=True)))),
                     EXACT_ARITHMETIC, label=label)


def _rate_limit(expr: sp.Expr, scale: sp.Expr, values: dict) -> sp.Expr:
    """lim_{m -> oo} expr / scale at fixed values (symbol -> number) of the other symbols."""
    return sp.limit(sp.sympify(expr).subs(values) / scale, m, sp.oo)


@claim(
    id="clt.pac_sample_size_derivation",
    source="003 §9.3.1 (9.11); 003 §9.3.1 (9.12); 003 §9.3.1 (9.13)",
    statement="(1 - eps)^m <= exp(-m eps) for 0 < eps < 1; |H| exp(-m eps) <= delta holds "
    "exactly when m >= (1/eps)(ln|H| + ln(1/delta)); the error level this guarantees, "
    "(ln|H| + ln(1/delta))/m, decays at rate O(1/m).",
    method=Method.SYMBOLIC,
    tags=("learning-theory", "pac", "symbolic"),
)
def pac_sample_size_derivation():
    g = sp.exp(-eps) - (1 - eps)
    assert sp.minimum(g, eps, sp.Interval(0, 1)) == 0, "1 - eps <= exp(-eps) fails on [0, 1]"
    evidence.note("1 - eps <= exp(-eps): min over [0, 1] of exp(-eps) - (1 - eps) is 0 "
                  "(sympy); both sides are non-negative, so the m-th powers keep the order")
    threshold = sp.solve(sp.Eq(sp.log(H) - m * eps, sp.log(delta)), m)[0]
    deriv = Derivation("(9.12) -> (9.13)")
    deriv.equal("log of |H| exp(-m eps)", expand_logs(sp.log(H * sp.exp(-m * eps))),
                sp.log(H) - m * eps, because="ln is increasing: compare logs")
    deriv.equal("solve ln|H| - m eps = ln delta for m", threshold,
                (sp.log(H) + sp.log(1 / delta)) / eps)
    deriv.verify()
    rate = _rate_limit((sp.log(H) + sp.log(1 / delta)) / m, 1 / m,
                       {H: 10, delta: sp.Rational(1, 20)})
    assert rate.is_finite and rate > 0, f"m * eps(m) -> {rate}"
    evidence.record("lim m * eps(m) at |H|=10, delta=1/20", str(rate))
    for size, e, dl in ((1, 0.1, 0.05), (7, 0.15, 0.1), (1000, 0.01, 0.001)):
        n = pac_sample_size(size, e, dl)
        assert size * math.exp(-n * e) <= dl * (1 + 1e-12)
        assert n == 1 or size * math.exp(-(n - 1) * e) > dl, "pac_sample_size is not minimal"
        assert_close(pac_error_bound(size, n, dl) * n, math.log(size) + math.log(1 / dl),
                     EXACT_ARITHMETIC, label="|m eps(m) - (ln|H| + ln(1/delta))|")


@claim(
    id="clt.agnostic_deviation_derivation",
    source="003 §9.3.2 (9.14); 003 §9.3.2 (9.15); 003 §9.3.2 (9.16)",
    statement="Setting 2 exp(-2 m eps^2) = delta gives eps = sqrt(ln(2/delta)/(2m)) (9.15); "
    "the union bound over a finite H, 2|H| exp(-2 m eps^2) = delta, gives "
    "eps = sqrt((ln|H| + ln(2/delta))/(2m)) (9.16).",
    method=Method.SYMBOLIC,
    tags=("learning-theory", "agnostic", "symbolic"),
)
def agnostic_deviation_derivation():
    e15 = sp.sqrt(sp.log(2 / delta) / (2 * m))
    e16 = sp.sqrt((sp.log(H) + sp.log(2 / delta)) / (2 * m))
    deriv = Derivation("(9.14) -> (9.15), (9.16)")
    deriv.equal("2 exp(-2 m eps^2) at eps of (9.15)",
                expand_logs(sp.log(2 * sp.exp(-2 * m * e15**2))), sp.log(delta))
    deriv.equal("2|H| exp(-2 m eps^2) at eps of (9.16)",
                expand_logs(sp.log(2 * H * sp.exp(-2 * m * e16**2))), sp.log(delta))
    deriv.verify()
    _cross_check(hoeffding_deviation, e15, (m, delta), ((10, 0.05), (200, 0.3)),
                 "|implementation - (9.15)|")
    _cross_check(finite_class_deviation, e16, (H, m, delta), ((1, 10, 0.05), (50, 200, 0.3)),
                 "|implementation - (9.16)|")


def vc_epsilon() -> sp.Expr:
    return sp.sqrt((8 * d * sp.log(2 * sp.E * m / d) + 8 * sp.log(4 / delta)) / m)


@claim(
    id="clt.vc_bound_derivation",
    source="003 §9.4 (9.19); 003 §9.4 (9.22); 003 §9.4 (9.23)",
    statement="(9.23) follows from (9.19) with Pi_H(2m) <= (2em/d)^d: "
    "4 (2em/d)^d exp(-m eps^2/8) = delta at eps = sqrt((8d ln(2em/d) + 8 ln(4/delta))/m).",
    method=Method.SYMBOLIC,
    tags=("learning-theory", "vc", "symbolic"),
)
def vc_bound_derivation():
    e23 = vc_epsilon()
    deriv = Derivation("(9.19) + (9.22) -> (9.23)")
    deriv.equal("log of the tail at eps of (9.23)",
                expand_logs(sp.log(4 * (2 * sp.E * m / d) ** d * sp.exp(-m * e23**2 / 8))),
                expand_logs(sp.log(delta)),
                because="(9.22) at 2m >= d bounds Pi_H(2m) by (2em/d)^d")
    deriv.verify()
    _cross_check(vc_generalisation_bound, e23, (m, d, delta), ((50, 1, 0.05), (1000, 7, 0.5)),
                 "|implementation - (9.23)|")


def check_vc_rate(scale_of_rate: sp.Expr) -> sp.Expr:
    """Assert lim eps_(9.23)(m) / scale_of_rate is finite; return the limit."""
    limit = _rate_limit(vc_epsilon(), scale_of_rate, {d: 3, delta: sp.Rational(1, 10)})
    evidence.record("lim eps(m) / rate at d=3, delta=1/10", str(limit))
    assert limit.is_finite, f"eps(m) / ({scale_of_rate}) -> {limit}: not O({scale_of_rate})"
    return limit


@claim(
    id="clt.vc_bound_rate_as_written",
    source="003 §9.4 (9.23)",
    statement="The VC generalisation bound (9.23) converges at rate O(1/sqrt(m)).",
    method=Method.SYMBOLIC,
    tags=("learning-theory", "vc", "symbolic"),
    expect=Expect.REFUTED,
    corrected_by="clt.vc_bound_rate",
    kind=ErratumKind.OVERCLAIM,
    explanation="The bound is sqrt((8d ln(2em/d) + 8 ln(4/delta))/m); the d ln m term makes "
    "sqrt(m) times it grow like sqrt(8 d ln m) without limit, so it is O(sqrt(ln m / m)), "
    "not O(1/sqrt(m)) as the note says.",
)
def vc_bound_rate_as_written():
    check_vc_rate(1 / sp.sqrt(m))


@claim(
    id="clt.vc_bound_rate",
    source="003 §9.4 (9.23)",
    statement="(Corrected) The VC generalisation bound (9.23) is Theta(sqrt(ln m / m)): "
    "eps(m) / sqrt(ln m / m) tends to sqrt(8d).",
    method=Method.SYMBOLIC,
    tags=("learning-theory", "vc", "symbolic"),
)
def vc_bound_rate():
    limit = check_vc_rate(sp.sqrt(sp.log(m) / m))
    assert sp.simplify(limit - sp.sqrt(8 * 3)) == 0, limit


@claim(
    id="clt.rademacher_vc_derivation",
    source="003 §9.5 (9.32); 003 §9.5 (9.33); 003 §9.5 (9.34)",
    statement="Substituting Massart's bound sqrt(2 ln Pi_H(m)/m) and Pi_H(m) <= (em/d)^d into "
    "the first line of (9.32) gives (9.34): sqrt(2 ln((em/d)^d)/m) = sqrt(2 d ln(em/d)/m) "
    "(the growth step needs m >= d).",
    method=Method.SYMBOLIC,
    tags=("learning-theory", "rademacher", "symbolic"),
)
def rademacher_vc_derivation():
    deriv = Derivation("(9.32) + (9.33) + (9.22) -> (9.34)")
    deriv.equal("ln of the growth bound", expand_logs(sp.log((sp.E * m / d) ** d)),
                expand_logs(d * sp.log(sp.E * m / d)), because="(9.22), valid for m >= d")
    deriv.verify()
    expr = sp.sqrt(2 * d * sp.log(sp.E * m / d) / m) + sp.sqrt(sp.log(1 / delta) / (2 * m))
    _cross_check(rademacher_vc_bound, expr, (m, d, delta), ((10, 1, 0.05), (500, 20, 0.5)),
                 "|implementation - (9.34)|")


def stability_excess(b: sp.Expr) -> sp.Expr:
    return 2 * b + (4 * m * b + M) * sp.sqrt(sp.log(1 / delta) / (2 * m))


@claim(
    id="clt.stability_rate",
    source="003 §9.6 (9.39); 003 §9.6 (9.40)",
    statement="With beta = 1/m, (9.39) becomes (9.40): l <= l̂ + 2/m + (4 + M) "
    "sqrt(ln(1/delta)/(2m)); with beta = O(1/m) the gap is O(1/sqrt(m)), its beta-term "
    "being 4 beta sqrt(m) sqrt(ln(1/delta)/2), i.e. of order beta sqrt(m).",
    method=Method.SYMBOLIC,
    tags=("learning-theory", "stability", "symbolic"),
)
def stability_rate():
    deriv = Derivation("(9.39) at beta = 1/m -> (9.40)")
    deriv.equal("substitute beta = 1/m", stability_excess(1 / m),
                2 / m + (4 + M) * sp.sqrt(sp.log(1 / delta) / (2 * m)))
    deriv.equal("the beta-term is of order beta sqrt(m)",
                4 * m * beta * sp.sqrt(sp.log(1 / delta) / (2 * m)),
                4 * beta * sp.sqrt(m) * sp.sqrt(sp.log(1 / delta) / 2))
    deriv.verify()
    limit = _rate_limit(stability_excess(c / m), 1 / sp.sqrt(m),
                        {c: 2, M: 3, delta: sp.Rational(1, 10)})
    assert limit.is_finite and limit > 0, f"gap * sqrt(m) -> {limit} for beta = c/m"
    evidence.record("lim sqrt(m) * gap at beta = 2/m, M = 3, delta = 1/10", str(limit))
    assert_close(stability_bound(1 / 40, 40, 3.0, 0.1),
                 float(stability_excess(1 / m).subs({m: 40, M: 3, delta: sp.Rational(1, 10)})),
                 EXACT_ARITHMETIC, label="|implementation - (9.40)|")


@claim(
    id="clt.stability_rate_beta_sqrt_m_as_written",
    source="003 §9.6 (9.39)",
    statement="By (9.39), the difference between the generalisation loss and the empirical "
    "loss converges at rate beta sqrt(m).",
    method=Method.SYMBOLIC,
    tags=("learning-theory", "stability", "symbolic"),
    expect=Expect.REFUTED,
    corrected_by="clt.stability_rate",
    kind=ErratumKind.TERM,
    explanation="The excess term of (9.39) is 2 beta + (4 m beta + M) sqrt(ln(1/delta)/(2m)): "
    "besides the beta sqrt(m) part it has M sqrt(ln(1/delta)/(2m)), of order 1/sqrt(m) "
    "whatever beta is. For any beta = o(1/m), e.g. beta = 1/m^2 (or a learner that ignores "
    "its data, beta = 0), the term divided by beta sqrt(m) grows without bound; the rate is "
    "O(beta sqrt(m) + 1/sqrt(m)), which the note's next sentence (beta = O(1/m) gives "
    "O(1/sqrt(m))) uses correctly.",
)
def stability_rate_beta_sqrt_m_as_written():
    limit = _rate_limit(stability_excess(1 / m**2), (1 / m**2) * sp.sqrt(m),
                        {M: 1, delta: sp.Rational(1, 10)})
    evidence.record("lim (9.39) excess / (beta sqrt(m)) at beta = 1/m^2, M = 1, delta = 1/10",
                    str(limit))
    assert limit.is_finite, f"(9.39) excess / (beta sqrt(m)) -> {limit}: not O(beta sqrt(m))"
