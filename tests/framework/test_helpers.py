"""Numeric, statistical and symbolic helpers, and the dataset strategies."""

import math

import numpy as np
import pytest
import sympy as sp
from hypothesis import given
from scipy.optimize import linprog

from mltheory import evidence
from mltheory.numeric import EXACT_ARITHMETIC, Tolerance, assert_close, assert_leq
from mltheory.stats import (
    check_probability_at_least,
    check_probability_at_most,
    clopper_pearson,
    decide_at_most,
    hoeffding_interval,
)
from mltheory.strategies import nonseparable_datasets, separable_datasets
from mltheory.symbolic import Derivation


def test_assert_close_passes_within_and_fails_outside_the_tolerance():
    with evidence.collecting() as ev:
        assert_close([1.0, 2.0], [1.0, 2.0 + 1e-14], EXACT_ARITHMETIC, label="err")
        with pytest.raises(AssertionError, match="index \\(1,\\)"):
            assert_close([1.0, 2.0], [1.0, 2.1], EXACT_ARITHMETIC, label="err")
    assert ev.metrics["err"].value == pytest.approx(0.1 / 2.1)
    with pytest.raises(AssertionError, match="shape"):
        assert_close([1.0], [1.0, 2.0], EXACT_ARITHMETIC)
    with pytest.raises(AssertionError, match="non-finite"):
        assert_close([np.nan], [1.0], EXACT_ARITHMETIC)


def test_a_tolerance_needs_a_reason_and_non_negative_sizes():
    with pytest.raises(ValueError, match="reason"):
        Tolerance(1e-3, 1e-3, " ")
    with pytest.raises(ValueError, match="non-negative"):
        Tolerance(-1, 0, "x")


def test_assert_leq_records_the_tightness_ratio():
    with evidence.collecting() as ev:
        assert_leq(3, 4, label="r")
        assert_leq(4, 4, label="r")
        with pytest.raises(AssertionError, match="inequality violated"):
            assert_leq(5, 4, label="r")
    assert ev.metrics["r"].value == pytest.approx(1.25)


def test_clopper_pearson_matches_closed_forms():
    # k = 0: the upper limit solves (1 - p)^n = alpha/2, so p = 1 - (alpha/2)^(1/n).
    lo, hi = clopper_pearson(0, 10, 0.95)
    assert lo == 0.0 and hi == pytest.approx(1 - 0.025 ** (1 / 10))
    # k = n: the lower limit solves p^n = alpha/2.
    lo, hi = clopper_pearson(10, 10, 0.95)
    assert hi == 1.0 and lo == pytest.approx(0.025 ** (1 / 10))
    # one-sided lower bound at k = n solves p^n = alpha.
    assert clopper_pearson(10, 10, 0.95, sided="lower")[0] == pytest.approx(0.05 ** 0.1)
    lo, hi = clopper_pearson(37, 100, 0.99)
    assert lo < 0.37 < hi


@pytest.mark.parametrize("bad", [dict(successes=3, trials=2), dict(successes=-1, trials=5),
                                 dict(successes=1, trials=0), dict(successes=1.5, trials=4)])
def test_clopper_pearson_rejects_bad_counts(bad):
    with pytest.raises(ValueError):
        clopper_pearson(bad["successes"], bad["trials"])


def test_the_decision_rule_refutes_only_when_confident():
    assert not decide_at_most(60, 100, 0.5).refuted  # could be chance at 1 - 1e-6
    assert decide_at_most(800, 1000, 0.5).refuted
    assert not decide_at_most(0, 10, 0.0).refuted
    with evidence.collecting() as ev:
        check_probability_at_most(10, 1000, 0.05, label="p")
        with pytest.raises(AssertionError, match="refuted"):
            check_probability_at_most(500, 1000, 0.05, label="p")
        with pytest.raises(AssertionError, match="refuted"):
            check_probability_at_least(1, 1000, 0.5, label="q")
    assert any("Clopper-Pearson" in n for n in ev.notes)


def test_the_decision_rule_rarely_refutes_a_true_claim():
    # Simulated coverage: P = 0.3 exactly; the claim P <= 0.3 must survive every seed.
    rng = np.random.default_rng(0)
    counts = rng.binomial(200, 0.3, size=2000)
    assert not any(decide_at_most(int(k), 200, 0.3).refuted for k in counts)


def test_hoeffding_interval_has_the_stated_width():
    lo, hi = hoeffding_interval(0.5, 100, 0.0, 1.0, confidence=0.95)
    half = math.sqrt(math.log(2 / 0.05) / 200)
    assert (lo, hi) == pytest.approx((0.5 - half, 0.5 + half))
    with pytest.raises(ValueError):
        hoeffding_interval(0.5, 0, 0.0, 1.0)


def test_a_derivation_names_its_first_failing_step():
    a, b = sp.symbols("a b", real=True)
    m = sp.symbols("m", nonnegative=True)
    d = Derivation("demo")
    d.equal("square", (a + b) ** 2, a**2 + 2 * a * b + b**2)
    d.leq("drop", a**2 - m, a**2, slack=m, because="m >= 0")
    d.verify()
    d.equal("wrong", (a + b) ** 2, a**2 + b**2)
    d.equal("also wrong", a, b)
    with pytest.raises(AssertionError, match="step 3 \\(wrong\\).*2\\*a\\*b"):
        d.verify()


def test_a_derivation_rejects_a_slack_that_is_not_provably_non_negative():
    a = sp.symbols("a", real=True)
    with pytest.raises(AssertionError, match="not provably non-negative"):
        Derivation("x").leq("bad", a, 2 * a, slack=a, because="?").verify()
    with pytest.raises(AssertionError, match="not the gap"):
        Derivation("x").leq("bad", a, a + 1, slack=2, because="?").verify()


def test_identities_apply_to_labels():
    y, x = sp.symbols("y x", real=True)
    Derivation("labels", identities={y**2: 1}).equal("y^2 x", y**2 * x, x).verify()


def _separable_by_lp(X, y):
    """Feasibility of y_i (w.x_i + b) >= 1: linear separability, decided exactly."""
    A = -(y[:, None] * np.hstack([X, np.ones((len(X), 1))]))
    res = linprog(np.zeros(X.shape[1] + 1), A_ub=A, b_ub=-np.ones(len(X)),
                  bounds=[(None, None)] * (X.shape[1] + 1), method="highs")
    return res.status == 0


@given(data=separable_datasets())
def test_separable_datasets_carry_a_unit_separator_with_their_margin(data):
    assert np.linalg.norm(data.separator) == pytest.approx(1.0)
    assert data.margin > 0
    assert np.min(data.y * (data.augmented() @ data.separator)) == pytest.approx(data.margin)
    assert set(data.y.tolist()) == {-1, 1}


@given(data=nonseparable_datasets())
def test_nonseparable_datasets_are_not_linearly_separable(data):
    assert not _separable_by_lp(data.X, data.y)


def test_a_derivation_compares_matrices_entry_by_entry():
    a, b = sp.symbols("a b", real=True)
    M = sp.Matrix([[a, b], [b, a]])
    Derivation("m").equal("square", M * M, sp.Matrix([[a**2 + b**2, 2 * a * b],
                                                      [2 * a * b, a**2 + b**2]])).verify()
    with pytest.raises(AssertionError, match="not 0"):
        Derivation("m").equal("wrong", M * M, M).verify()


def test_assert_close_can_measure_errors_relative_to_a_given_scale():
    # w = (0, -100) against a solver's (0.0046, -100): off by 5e-5 of ||w||, which an
    # elementwise relative test would reject in the first component.
    with pytest.raises(AssertionError):
        assert_close([0.0, -100.0], [0.0046, -100.0], Tolerance(1e-4, 1e-5, "test"))
    err = assert_close([0.0, -100.0], [0.0046, -100.0], Tolerance(1e-4, 1e-5, "test"),
                       scale=100.0)
    assert err == pytest.approx(0.0046 / 100)
    with pytest.raises(AssertionError):
        assert_close([0.0, -100.0], [0.02, -100.0], Tolerance(1e-4, 1e-5, "test"), scale=100.0)


def test_headroom_is_recorded_by_assert_leq_and_the_probability_checks():
    with evidence.collecting() as ev:
        assert_leq(2.0, 5.0, label="a")
        assert_leq(4.0, 5.0, label="a")  # the smallest factor over examples is kept
        assert_leq(0.0, 5.0, label="zero")  # nothing against the bound: inf
    assert ev.headroom == pytest.approx(1.25)
    assert ev.metrics["headroom: zero"].value == math.inf
    # P <= 0.5 with 30 of 100: the bound could be divided by 0.5 / (CP lower limit)
    with evidence.collecting() as ev:
        decision = check_probability_at_most(30, 100, 0.5, label="p")
    assert ev.headroom == pytest.approx(0.5 / decision.lower)
    # P >= 0.1 with 30 of 100: raised up to the CP upper limit
    with evidence.collecting() as ev:
        decision = check_probability_at_least(30, 100, 0.1, label="q")
    assert ev.headroom == pytest.approx(decision.upper / 0.1)
    # a broken bound has headroom below 1, and a refuted probability too
    with evidence.collecting() as ev, pytest.raises(AssertionError):
        assert_leq(6.0, 5.0, label="b")
    assert ev.headroom == pytest.approx(5 / 6)
    with pytest.raises(ValueError, match="NaN"):
        evidence.headroom("n", math.nan)
