"""Claims of 003 §4.4 about the 0/1 loss (4.25) and its surrogates (4.26), and how (4.27)
follows from (4.24)."""

from __future__ import annotations

import numpy as np
from hypothesis import example, given
from hypothesis import strategies as st

from mltheory import ErratumKind, Expect, Method, claim, evidence
from mltheory.numeric import assert_leq

Z = st.floats(-50, 50, allow_nan=False)


def zero_one(z):
    """(4.25): 1 if z < 0 else 0."""
    return np.where(np.asarray(z) < 0, 1.0, 0.0)


def hinge(z, one: float = 1.0):
    """max(0, one - z); ``one = 1`` is (4.26)'s hinge."""
    return np.maximum(0.0, one - np.asarray(z))


def exp_loss(z):
    return np.exp(-np.asarray(z))


def logistic_natural(z):
    """(4.26) as printed: log(1 + exp(-z)) with the natural logarithm."""
    return np.logaddexp(0.0, -np.asarray(z))


def logistic_base2(z, one: float = 1.0):
    """log2(one + exp(-z)); ``one = 1`` is the base-2 logistic loss."""
    return np.logaddexp(np.log(one), -np.asarray(z)) / np.log(2.0)


def check_upper_bounds(z: float, losses, scale: float = 1.0) -> None:
    """``l_0/1(z) <= scale * loss(z)`` for each surrogate (``scale = 1`` is the claim; a
    smaller one is the bound tightened, for teeth). Records each bound's headroom: 1 where
    the surrogate touches the 0/1 loss (z -> 0- for all three)."""
    for name, loss in losses:
        value, target = scale * float(loss(z)), float(zero_one(z))
        evidence.worst(f"max (l01 - {name})", target - value)
        if target > 0:
            assert_leq(target, value, label=f"l_0/1 / {name}",
                       context=f"{name}({z!r}) = {value:.6g} < l_0/1 = {target}: ")
        else:  # l_0/1 = 0 <= a non-negative loss: nothing to tighten here
            assert value >= target, f"{name}({z!r}) = {value:.6g} < l_0/1 = {target}"


def check_convex_continuous(z1: float, z2: float, losses) -> None:
    for name, loss in losses:
        mid = float(loss((z1 + z2) / 2))
        chord = float((loss(z1) + loss(z2)) / 2)
        assert mid <= chord + 1e-12 * max(1.0, abs(chord)), f"{name} not convex at {z1}, {z2}"
        # continuity: a tiny step changes the value by a tiny amount
        assert abs(float(loss(z1 + 1e-9)) - float(loss(z1))) <= 1e-6 * max(1.0, abs(chord))


@claim(
    id="loss.zero_one_4_25",
    source="003 §4.4 (4.25)",
    statement="The 0/1 loss l(z) = 1 for z < 0 and 0 otherwise is neither convex nor "
    "continuous.",
    method=Method.ENUMERATION,
    tags=("svm", "loss"),
)
def zero_one_4_25():
    z1, z2 = -1.0, 0.0
    assert float(zero_one((z1 + z2) / 2)) > (float(zero_one(z1)) + float(zero_one(z2))) / 2, \
        "midpoint above the chord: non-convex"
    assert float(zero_one(-1e-300)) - float(zero_one(0.0)) == 1.0, "jump of 1 at z = 0"
    evidence.add_examples(2)


@claim(
    id="loss.surrogate_upper_bounds_4_26_as_written",
    source="003 §4.4 (4.26)",
    statement="The surrogates listed in (4.26) to replace the 0/1 loss, read with the "
    "natural logarithm in the logistic loss log(1 + exp(-z)), lie on or above the 0/1 loss "
    "everywhere, as the curves of Fig. 6.5 that the note points to do.",
    method=Method.PROPERTY,
    tags=("svm", "loss", "erratum"),
    expect=Expect.REFUTED,
    kind=ErratumKind.SHORTHAND,
    corrected_by="loss.surrogate_upper_bounds_4_26",
    explanation="The note does not give the base of log. Read as the natural logarithm, "
    "log(1 + exp(-z)) < 1 = l_0/1(z) for -ln(e - 1) ~ -0.541 < z < 0 (z -> 0-: ln 2 ~ "
    "0.693). The figure's logistic curve passes through (0, 1), i.e. base 2: "
    "log2(1 + exp(-z)) is the intended reading (hence SHORTHAND, not an error of the "
    "formula).",
)
@given(z=Z)
@example(z=-0.25)
def surrogate_upper_bounds_4_26_as_written(z):
    check_upper_bounds(z, [("hinge", hinge), ("exp", exp_loss), ("log", logistic_natural)])


@claim(
    id="loss.surrogate_upper_bounds_4_26",
    source="003 §4.4 (4.26)",
    statement="The hinge loss, the exponential loss and the base-2 logistic loss "
    "log2(1 + exp(-z)) are convex, continuous and lie above the 0/1 loss for every z.",
    method=Method.PROPERTY,
    tags=("svm", "loss", "bound"),
)
@given(z=Z, z2=Z)
@example(z=-1e-12, z2=0.0)  # all three surrogates touch l_0/1 = 1 as z -> 0-: headroom 1
def surrogate_upper_bounds_4_26(z, z2):
    losses = [("hinge", hinge), ("exp", exp_loss), ("log2", logistic_base2)]
    check_upper_bounds(z, losses)
    check_convex_continuous(z, z2, losses)


@claim(
    id="loss.hinge_substitution_4_24_4_27_as_written",
    source="003 §4.4 (4.24); 003 §4.4 (4.27)",
    statement="Replacing l_0/1 by the hinge loss in (4.24), whose loss term is "
    "l_0/1(y_i f(x_i) - 1), gives (4.27), whose loss term is max(0, 1 - y_i f(x_i)).",
    method=Method.PROPERTY,
    tags=("svm", "loss", "erratum"),
    expect=Expect.REFUTED,
    kind=ErratumKind.TERM,
    corrected_by="loss.hinge_bounds_misclassification",
    explanation="Substituting into (4.24) literally gives l_hinge(z - 1) = max(0, 2 - z), "
    "not max(0, 1 - z) (they differ by 1 whenever z < 1). (4.27) applies the hinge to the "
    "margin z = y f itself, so it bounds the misclassification loss l_0/1(z), not the "
    "margin-violation count l_0/1(z - 1) of (4.24); e.g. at z = 0.5, "
    "hinge(z) = 0.5 < l_0/1(z - 1) = 1.",
)
@given(z=Z)
def hinge_substitution_4_24_4_27_as_written(z):
    assert float(hinge(z - 1.0)) == float(np.maximum(0.0, 1.0 - z)), (
        f"l_hinge(z - 1) = {float(hinge(z - 1.0))} but (4.27) uses {float(hinge(z))}")


@claim(
    id="loss.hinge_bounds_misclassification",
    source="003 §4.4 (4.24); 003 §4.4 (4.27)",
    statement="(4.27) is the soft-margin objective with the hinge applied to the margin "
    "z = y f: max(0, 1 - z) >= l_0/1(z), so C sum_i max(0, 1 - y_i f(x_i)) bounds C times "
    "the number of training errors, and it equals l_hinge(z - 1) - 1 wherever z <= 1.",
    method=Method.PROPERTY,
    tags=("svm", "loss", "bound"),
)
@given(z=Z)
@example(z=-1e-12)  # hinge(0-) = 1 = l_0/1(0-): the bound is attained
def hinge_bounds_misclassification(z):
    check_hinge_vs_margin_count(z)


def check_hinge_vs_margin_count(z: float, one: float = 1.0) -> None:
    """hinge(z) >= l_0/1(z), and hinge(z) = hinge(z - 1) - one for z <= 1 (``one = 1`` is
    the claim; another value is the identity with its constant scaled, for teeth)."""
    check_upper_bounds(z, [("hinge", hinge)])
    if z <= 1:
        assert abs(float(hinge(z)) - (float(hinge(z - 1.0)) - one)) <= 1e-12 * max(1, abs(z))
