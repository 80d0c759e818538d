"""The bound functions of ``algorithms.learning_theory`` against the printed formulas.

The simulation claims decide whether each bound of 003 Chapter 9 *holds*; they cannot
notice a bound function that is looser than the printed one (a constant 3 raised to 4,
or one whose tighter variant is itself true, e.g. the 3 of (9.32)'s second line cut to
1). Here every bound function is compared with its formula as the note prints it,
written out again independently and evaluated in 50-digit arithmetic (mpmath), at
arguments Hypothesis draws from the whole valid range: sample sizes up to 2^53, class
sizes and growth values far beyond the float range, tiny and huge deviations (where a
naive formula overflows: ``exp(-2 m eps^2)`` must be 0, not an OverflowError), and
confidence parameters down to 1e-300. Where the printed value exceeds the float range
the function must refuse with a ValueError.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from typing import Any

import mpmath
import numpy as np
from hypothesis import example, given
from hypothesis import strategies as st

import algorithms.learning_theory as lt
from mltheory import Method, claim, evidence

#: 50 digits: the printed formulas are evaluated with errors far below float64 rounding.
mpmath.mp.dps = 50

#: The implementations round each of a handful of operations (a log, an exp of an
#: argument up to ~700 in size, a square root): relative error below ~700 * 2^-52 ~ 2e-13
#: from the exponential's argument; 1e-11 leaves room and still sees any change of a
#: constant (a factor of at least 1 + 1e-3 for the mutations of interest).
RTOL = 1e-11
#: Below this the printed value is a subnormal or zero float64 (exp underflow).
TINY = 1e-300

mpf = mpmath.mpf


def _printed(name: str, a: Mapping[str, Any]) -> Any:
    """The printed value of bound ``name`` at arguments ``a`` (an mpf, or an int)."""
    m = mpf(a.get("m", 1))
    log = mpmath.log
    sqrt = mpmath.sqrt
    if name == "hoeffding_tail":
        return (2 if a["two_sided"] else 1) * mpmath.exp(-2 * m * mpf(a["epsilon"]) ** 2)
    if name == "mcdiarmid_tail":
        total = sum(mpf(float(c)) ** 2 for c in a["c"])
        return (2 if a["two_sided"] else 1) * mpmath.exp(-2 * mpf(a["epsilon"]) ** 2 / total)
    if name == "pac_sample_size":
        value = (log(a["n_hypotheses"]) + log(1 / mpf(a["delta"]))) / mpf(a["epsilon"])
        return max(1, int(mpmath.ceil(value)))
    if name == "pac_error_bound":
        return (log(a["n_hypotheses"]) + log(1 / mpf(a["delta"]))) / m
    if name == "hoeffding_deviation":
        return sqrt(log(2 / mpf(a["delta"])) / (2 * m))
    if name == "finite_class_deviation":
        return sqrt((log(a["n_hypotheses"]) + log(2 / mpf(a["delta"]))) / (2 * m))
    if name == "sauer_bound":
        if a["d"] >= a["m"]:  # the binomial theorem: all C(m, i) sum to 2^m
            return 2 ** a["m"]
        return sum(math.comb(a["m"], i) for i in range(a["d"] + 1))
    if name == "growth_polynomial_bound":
        return (mpmath.e * m / a["d"]) ** a["d"]
    if name == "vc_tail_bound":
        return 4 * mpf(a["growth_2m"]) * mpmath.exp(-m * mpf(a["epsilon"]) ** 2 / 8)
    if name == "vc_generalisation_bound":
        d = mpf(a["d"])
        return sqrt((8 * d * log(2 * mpmath.e * m / d) + 8 * log(4 / mpf(a["delta"]))) / m)
    if name in ("rademacher_bound_real", "rademacher_bound_binary"):
        weight = 2 if name.endswith("real") else 1
        r, delta = mpf(a["rademacher"]), mpf(a["delta"])
        if a["empirical"]:
            return weight * r + 3 * sqrt(log(2 / delta) / (2 * m))
        return weight * r + sqrt(log(1 / delta) / (2 * m))
    if name == "massart_bound":
        return sqrt(2 * log(a["n_behaviours"]) / m)
    if name == "rademacher_vc_bound":
        d = mpf(a["d"])
        return sqrt(2 * d * log(mpmath.e * m / d) / m) + sqrt(log(1 / mpf(a["delta"])) / (2 * m))
    if name == "stability_bound":
        beta = mpf(a["beta"])
        spread = (4 * m * beta + mpf(a["loss_bound"])) * sqrt(log(1 / mpf(a["delta"])) / (2 * m))
        return (beta if a["leave_one_out"] else 2 * beta) + spread
    raise ValueError(name)


def check_formula(name: str, arguments: dict[str, Any], *,
                  implementations: Mapping[str, Callable[..., Any]] | None = None) -> None:
    """``implementations[name](**arguments)`` equals the printed formula (or refuses a value
    beyond the float range with a ValueError)."""
    func = (implementations or {}).get(name, getattr(lt, name))
    printed = _printed(name, arguments)
    evidence.add_examples(1)
    if isinstance(printed, int):  # integer-valued bounds: exactly
        if name == "pac_sample_size":  # ceil of a real: an exact tie may round either way
            value = func(**arguments)
            assert printed - 1 <= value <= printed, f"{name}{arguments}: {value} vs {printed}"
            real = (mpmath.log(arguments["n_hypotheses"]) + mpmath.log(1 / mpf(
                arguments["delta"]))) / mpf(arguments["epsilon"])
            assert value == printed or abs(real - value) < mpf(10) ** -9 * real, (
                f"{name}{arguments}: {value} vs printed {printed}")
            return
        value = func(**arguments)
        assert value == printed, f"{name}{arguments}: {value} != printed {printed}"
        return
    if printed > mpf(np.finfo(np.float64).max):
        try:
            value = func(**arguments)
        except ValueError:
            return
        raise AssertionError(f"{name}{arguments}: printed value {mpmath.nstr(printed, 8)} "
                             f"exceeds float64 but the function returned {value!r}")
    value = func(**arguments)
    assert isinstance(value, float) and math.isfinite(value), f"{name}{arguments}: {value!r}"
    err = abs(mpf(value) - printed)
    scale = abs(printed)
    if scale < TINY:
        assert err <= TINY, f"{name}{arguments}: {value!r} vs printed {mpmath.nstr(printed, 8)}"
        return
    rel = float(err / scale)
    evidence.worst("relative distance to the printed formula", rel)
    assert rel <= RTOL, (f"{name}{arguments}: {value!r} vs printed {mpmath.nstr(printed, 17)} "
                         f"(relative distance {rel:.3g})")


# ---------------------------------------------------------------------------
# Arguments over the whole valid range
# ---------------------------------------------------------------------------

sizes = st.one_of(st.integers(1, 60), st.integers(1, 2**53))
big_counts = st.one_of(st.integers(1, 100), st.integers(1, 10**400))
deviations = st.one_of(st.floats(1e-6, 2.0), st.floats(1e-300, 1e300))
deltas = st.one_of(st.floats(1e-3, 0.999), st.floats(1e-300, 1 - 1e-12))
units = st.floats(0.0, 1.0)
flags = st.booleans()


@st.composite
def formula_cases(draw: st.DrawFn) -> tuple[str, dict[str, Any]]:
    """One bound function and valid arguments for it."""
    name = draw(st.sampled_from(sorted(FORMULA_NAMES)))
    m = draw(sizes)
    if name == "hoeffding_tail":
        return name, dict(m=m, epsilon=draw(deviations), two_sided=draw(flags))
    if name == "mcdiarmid_tail":
        c = np.array(draw(st.lists(st.floats(1e-3, 1.0), min_size=1, max_size=6)))
        c *= 2.0 ** draw(st.sampled_from([0, 0, -900, 900]))
        return name, dict(c=c, epsilon=draw(deviations), two_sided=draw(flags))
    if name == "pac_sample_size":
        return name, dict(n_hypotheses=draw(big_counts), epsilon=draw(st.floats(1e-6, 0.999)),
                          delta=draw(deltas))
    if name in ("pac_error_bound", "finite_class_deviation"):
        return name, dict(n_hypotheses=draw(big_counts), m=m, delta=draw(deltas))
    if name == "hoeffding_deviation":
        return name, dict(m=m, delta=draw(deltas))
    if name == "sauer_bound":
        small = draw(st.integers(0, 80))
        return name, dict(m=small, d=draw(st.integers(0, 90)))
    if name == "growth_polynomial_bound":
        d = draw(st.integers(1, min(m, 10**6)))
        return name, dict(m=m, d=d)
    if name == "vc_tail_bound":
        return name, dict(growth_2m=draw(big_counts), m=m, epsilon=draw(deviations))
    if name in ("vc_generalisation_bound", "rademacher_vc_bound"):
        m = max(m, 2)
        d = draw(st.integers(1, m - 1))
        return name, dict(m=m, d=d, delta=draw(deltas))
    if name in ("rademacher_bound_real", "rademacher_bound_binary"):
        return name, dict(rademacher=draw(units), m=m, delta=draw(deltas),
                          empirical=draw(flags))
    if name == "massart_bound":
        return name, dict(n_behaviours=draw(big_counts), m=m)
    if name == "stability_bound":
        return name, dict(beta=draw(st.one_of(st.just(0.0), st.floats(0.0, 1e3))), m=m,
                          loss_bound=draw(st.floats(1e-6, 1e6)), delta=draw(deltas),
                          leave_one_out=draw(flags))
    raise ValueError(name)


FORMULA_NAMES = (
    "finite_class_deviation", "growth_polynomial_bound", "hoeffding_deviation",
    "hoeffding_tail", "massart_bound", "mcdiarmid_tail", "pac_error_bound",
    "pac_sample_size", "rademacher_bound_binary", "rademacher_bound_real",
    "rademacher_vc_bound", "sauer_bound", "stability_bound", "vc_generalisation_bound",
    "vc_tail_bound",
)

#: One pinned call per function at moderate arguments (so every constant is exercised in
#: every run), plus the overflow case of issue 13.
FORMULA_PINNED = [
    ("hoeffding_tail", dict(m=100, epsilon=1e300, two_sided=False)),
    ("hoeffding_tail", dict(m=36, epsilon=0.2, two_sided=True)),
    ("mcdiarmid_tail", dict(c=np.array([0.5, 1.0, 0.25]), epsilon=0.7, two_sided=True)),
    ("pac_sample_size", dict(n_hypotheses=1000, epsilon=0.05, delta=0.01)),
    ("pac_error_bound", dict(n_hypotheses=1000, m=200, delta=0.01)),
    ("hoeffding_deviation", dict(m=200, delta=0.05)),
    ("finite_class_deviation", dict(n_hypotheses=1000, m=200, delta=0.05)),
    ("sauer_bound", dict(m=30, d=4)),
    ("sauer_bound", dict(m=10**6, d=10**6)),  # 2^m exactly, a million bits
    ("growth_polynomial_bound", dict(m=30, d=4)),
    ("vc_tail_bound", dict(growth_2m=61, m=300, epsilon=0.5)),
    ("vc_generalisation_bound", dict(m=500, d=4, delta=0.05)),
    ("rademacher_bound_real", dict(rademacher=0.3, m=200, delta=0.05, empirical=False)),
    ("rademacher_bound_real", dict(rademacher=0.3, m=200, delta=0.05, empirical=True)),
    ("rademacher_bound_binary", dict(rademacher=0.3, m=200, delta=0.05, empirical=False)),
    ("rademacher_bound_binary", dict(rademacher=0.3, m=200, delta=0.05, empirical=True)),
    ("massart_bound", dict(n_behaviours=31, m=30)),
    ("rademacher_vc_bound", dict(m=500, d=4, delta=0.05)),
    ("stability_bound", dict(beta=0.01, m=200, loss_bound=2.0, delta=0.05,
                             leave_one_out=False)),
    ("stability_bound", dict(beta=0.01, m=200, loss_bound=2.0, delta=0.05,
                             leave_one_out=True)),
]


def formula_check(implementations: Mapping[str, Callable[..., Any]] | None = None):
    """The Hypothesis check of every bound function (the package's, or replacements)."""
    @given(case=formula_cases())
    def check(case):
        name, arguments = case
        check_formula(name, arguments, implementations=implementations)
    for pinned in reversed(FORMULA_PINNED):
        check = example(case=pinned)(check)
    return check


bound_formulas = claim(
    id="clt.bound_formulas",
    source="003 §9.1 (9.5); 003 §9.1 (9.7); 003 §9.3.1 (9.13); 003 §9.3.2 (9.15); "
    "003 §9.3.2 (9.16); 003 §9.4 (9.19); 003 §9.4 (9.21); 003 §9.4 (9.22); 003 §9.4 (9.23); "
    "003 §9.5 (9.31); 003 §9.5 (9.32); 003 §9.5 (9.33); 003 §9.5 (9.34); 003 §9.6 (9.39)",
    statement="Each bound of Chapter 9 computed by the package equals the printed formula "
    "(evaluated independently in 50-digit arithmetic) to 1e-11 relative over the whole valid "
    "range, including sizes up to 2^53, class sizes beyond the float range and deviations "
    "where a naive formula overflows; values beyond float64 are refused with a ValueError.",
    method=Method.REFERENCE,
    tags=("learning-theory", "formula"),
)(formula_check())
