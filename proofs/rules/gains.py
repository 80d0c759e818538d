"""Symbolic checks of the literal-quality measures of the rule learners (003 §13.2-§13.4):
the FOIL gain as a log-ratio of precisions and its ceiling, and the likelihood-ratio
statistic of pre-pruning as 2 x coverage x a Kullback-Leibler divergence.

Each derivation is a :class:`mltheory.symbolic.Derivation` followed by a numeric
cross-check against :mod:`algorithms.rules`.
"""

from __future__ import annotations

import math

import sympy as sp

from algorithms.rules import foil_gain, likelihood_ratio_statistic
from mltheory import Method, claim
from mltheory.numeric import Tolerance, assert_close
from mltheory.symbolic import Derivation
from proofs.support import expand_logs

#: log2/ln of ratios of counts below 1e3 in two evaluation orders.
ROUNDING = Tolerance(rtol=1e-12, atol=1e-12,
                     reason="logs of ratios of counts < 1e3, two evaluation orders")


def foil_derivation(ceiling_factor: sp.Expr | int = 1) -> Derivation:
    """The FOIL-gain steps; ``ceiling_factor`` scales the ceiling (1 in the claim; the
    teeth tests halve it)."""
    p0, n0, p1, t = sp.symbols("p0 n0 p1 t", positive=True)
    r = sp.Symbol("r", nonnegative=True)  # n1 / p1: sympy proves log(1 + r) >= 0 directly
    n1 = r * p1
    gain = t * (sp.log(p1 / (p1 + n1), 2) - sp.log(p0 / (p0 + n0), 2))
    prec0, prec1 = p0 / (p0 + n0), p1 / (p1 + n1)
    ceiling = ceiling_factor * t * sp.log((p0 + n0) / p0, 2)
    d = Derivation("FOIL gain: log-ratio of precisions and its ceiling")
    d.equal("log-ratio form", expand_logs(gain), expand_logs(t * sp.log(prec1 / prec0, 2)),
            because="log a - log b = log(a / b)")
    d.equal("gap to the ceiling", expand_logs(ceiling - gain),
            expand_logs(t * sp.log((p1 + n1) / p1, 2)),
            because="ceiling - gain = -t log2 prec1")
    d.leq("ceiling", gain, ceiling, slack=t * sp.log(1 + r, 2),
          because="prec1 <= 1, with equality exactly when n1 = 0")
    return d


def lrs_derivation(factor: sp.Expr | int = 2) -> Derivation:
    """The likelihood-ratio steps; ``factor`` is the statistic's leading constant (2 in
    the claim; the teeth tests change it)."""
    p, n, P, N = sp.symbols("p n P N", positive=True)
    cov = p + n
    lrs = factor * (p * sp.log(p / (cov * P / (P + N))) + n * sp.log(n / (cov * N / (P + N))))
    q, pi = p / cov, P / (P + N)
    kl = q * sp.log(q / pi) + (1 - q) * sp.log((1 - q) / (1 - pi))
    d = Derivation("likelihood-ratio statistic = 2 coverage KL(covered || prior)")
    d.equal("KL form", expand_logs(lrs), expand_logs(2 * cov * kl),
            because="f_c = coverage q_c and e_c = coverage pi_c")
    return d


@claim(
    id="rules.quality_measures_symbolic",
    source="003 §13.4; 003 §13.3; Quinlan 1990 (FOIL gain); Clark and Niblett 1989 (CN2)",
    statement="FOIL gain t (log2 p1/(p1+n1) - log2 p0/(p0+n0)) equals t log2(prec1 / "
    "prec0) and is at most t log2((p0+n0)/p0) with gap t log2(1 + n1/p1) (zero iff n1 = 0, "
    "n1 written as r p1 with r >= 0); "
    "the likelihood-ratio statistic 2 sum_c f_c ln(f_c/e_c) equals 2 (p+n) KL(q || pi) of "
    "the covered class shares q against the prior shares pi.",
    method=Method.SYMBOLIC,
    tags=("rules", "symbolic"),
)
def quality_measures_symbolic(rng):
    foil_derivation().verify()
    lrs_derivation().verify()
    for _ in range(20):  # numeric cross-check against algorithms.rules
        p0, n0 = int(rng.integers(1, 50)), int(rng.integers(0, 50))
        p1, n1 = int(rng.integers(1, 80)), int(rng.integers(0, 80))
        t = int(rng.integers(1, min(p0, p1) + 1))
        want = t * math.log2((p1 / (p1 + n1)) / (p0 / (p0 + n0)))
        assert_close(float(foil_gain(p0, n0, p1, n1, t)), want, ROUNDING, label="gain error")
        P, N = int(rng.integers(1, 60)), int(rng.integers(1, 60))
        p, n = int(rng.integers(1, P + 1)), int(rng.integers(1, N + 1))
        q, pi = p / (p + n), P / (P + N)
        kl = q * math.log(q / pi) + (1 - q) * math.log((1 - q) / (1 - pi))
        assert_close(float(likelihood_ratio_statistic(p, n, P, N)), 2 * (p + n) * kl,
                     ROUNDING, label="LRS error")
