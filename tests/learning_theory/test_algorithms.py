"""Unit and bad-input tests of algorithms.learning_theory."""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import numpy as np
import pytest

from algorithms.learning_theory import (
    FiniteClass,
    FiniteProblem,
    HalfSpaces,
    Intervals,
    Rectangles,
    Thresholds,
    dichotomies,
    distinct_line_points,
    empirical_errors,
    empirical_rademacher,
    empirical_rademacher_mc,
    erm,
    finite_class_deviation,
    growth_function,
    growth_polynomial_bound,
    hoeffding_deviation,
    hoeffding_tail,
    is_shattered,
    label_counts,
    massart_bound,
    max_loss_difference,
    mcdiarmid_tail,
    pac_sample_size,
    rademacher_bound_binary,
    rademacher_bound_real,
    rademacher_vc_bound,
    radon_labelling,
    radon_partition,
    ridge_fit,
    ridge_losses,
    ridge_stability,
    ridge_stability_bounds,
    sauer_bound,
    stability_bound,
    threshold_rademacher,
    vc_dimension,
    vc_generalisation_bound,
    vc_tail_bound,
    version_space,
)
from properties.learning_theory.support import threshold_scenario


class TestBounds:
    def test_hoeffding_values(self):
        assert hoeffding_tail(10, 0.1) == pytest.approx(math.exp(-0.2))
        assert hoeffding_tail(10, 0.1, two_sided=True) == pytest.approx(2 * math.exp(-0.2))

    def test_mcdiarmid_with_unit_differences_over_m_is_hoeffding(self):
        m = 12
        assert mcdiarmid_tail(np.full(m, 1 / m), 0.2) == pytest.approx(hoeffding_tail(m, 0.2))

    def test_pac_sample_size_is_the_smallest_sufficient_m(self):
        m = pac_sample_size(100, 0.1, 0.05)
        assert 100 * math.exp(-0.1 * m) <= 0.05 < 100 * math.exp(-0.1 * (m - 1))

    def test_sauer_bound_is_exact_integer_and_saturates(self):
        assert sauer_bound(5, 2) == 1 + 5 + 10
        assert sauer_bound(3, 7) == 8

    def test_finite_class_deviation_reduces_to_hoeffding_for_one_hypothesis(self):
        assert finite_class_deviation(1, 50, 0.1) == pytest.approx(hoeffding_deviation(50, 0.1))

    def test_bounds_with_their_formulas(self):
        assert growth_polynomial_bound(6, 2) == pytest.approx((3 * math.e) ** 2)
        assert vc_tail_bound(5, 10, 1.0) == pytest.approx(20 * math.exp(-10 / 8))
        assert massart_bound(4, 2) == pytest.approx(math.sqrt(math.log(4)))
        assert rademacher_bound_real(0.1, 8, 0.5) == pytest.approx(
            0.2 + math.sqrt(math.log(2) / 16))
        assert rademacher_bound_binary(0.1, 8, 0.5, empirical=True) == pytest.approx(
            0.1 + 3 * math.sqrt(math.log(4) / 16))
        assert stability_bound(0.0, 2, 1.0, 0.5, leave_one_out=True) == pytest.approx(
            math.sqrt(math.log(2) / 4))
        assert vc_generalisation_bound(10, 1, 0.5) > rademacher_vc_bound(10, 1, 0.5)

    @pytest.mark.parametrize("call, name", [
        (lambda: hoeffding_tail(0, 0.1), "m"),
        (lambda: hoeffding_tail(3, -0.1), "epsilon"),
        (lambda: hoeffding_tail(3, float("nan")), "epsilon"),
        (lambda: mcdiarmid_tail([0.0, 0.0], 0.1), "c"),
        (lambda: mcdiarmid_tail([-1.0], 0.1), "c"),
        (lambda: mcdiarmid_tail([], 0.1), "c"),
        (lambda: mcdiarmid_tail([[1.0]], 0.1), "c"),
        (lambda: mcdiarmid_tail([np.nan], 0.1), "c"),
        (lambda: pac_sample_size(0, 0.1, 0.1), "n_hypotheses"),
        (lambda: pac_sample_size(3, 1.5, 0.1), "epsilon"),
        (lambda: pac_sample_size(3, 0.1, 0.0), "delta"),
        (lambda: sauer_bound(-1, 2), "m"),
        (lambda: growth_polynomial_bound(1, 3), "m"),
        (lambda: vc_generalisation_bound(3, 3, 0.1), "m"),
        (lambda: rademacher_vc_bound(2, 3, 0.1), "m"),
        (lambda: rademacher_bound_real(1.5, 3, 0.1), "rademacher"),
        (lambda: stability_bound(0.1, 3, 0.0, 0.1), "loss_bound"),
        (lambda: massart_bound(0, 3), "n_behaviours"),
    ])
    def test_bad_arguments_raise_value_error_naming_them(self, call, name):
        with pytest.raises(ValueError, match=name):
            call()

    def test_non_integer_sample_size_is_a_type_error(self):
        with pytest.raises(TypeError, match="m"):
            hoeffding_tail(2.5, 0.1)

    def test_integral_floats_count_as_sizes(self):
        # sizes often come out of float arithmetic: 5.0 is the integer 5
        assert hoeffding_tail(5.0, 0.1) == hoeffding_tail(5, 0.1)
        assert sauer_bound(np.float64(4.0), 2.0) == sauer_bound(4, 2)

    @pytest.mark.parametrize("call, name", [
        (lambda: hoeffding_tail("5", 0.1), "m"),
        (lambda: hoeffding_tail(True, 0.1), "m"),
        (lambda: pac_sample_size(3, True, 0.1), "epsilon"),
        (lambda: stability_bound(0.1, 3, 1.0, None), "delta"),
        (lambda: massart_bound(4, float("inf")), "m"),
    ])
    def test_wrong_types_raise_an_error_that_is_both_type_and_value_error(self, call, name):
        with pytest.raises(TypeError, match=name):
            call()
        with pytest.raises(ValueError, match=name):
            call()


class TestGrowth:
    def test_line_classes_have_the_known_growth_functions(self):
        for m in range(1, 7):
            X = distinct_line_points(m)
            assert growth_function(Thresholds(), [X]) == m + 1
            assert growth_function(Intervals(), [X]) == m * (m + 1) // 2 + 1

    def test_halfspaces_in_general_position_realise_covers_count(self):
        # Cover: 2 * sum_{k<=d} C(m-1, k) labellings of m points in general position.
        rng = np.random.default_rng(0)
        for d, m in ((2, 5), (3, 6)):
            X = rng.normal(size=(m, d))
            cover = 2 * sum(math.comb(m - 1, k) for k in range(d + 1))
            assert dichotomies(HalfSpaces(d), X).shape[0] == cover

    def test_lp_separability_agrees_with_brute_force_on_the_line(self):
        X = np.array([[0.0], [1.0], [2.0], [3.0]])
        for labels in itertools.product((-1, 1), repeat=4):
            y = np.array(labels)
            # On the line, a half-line labelling has at most one sign change.
            expected = int(np.sum(y[1:] != y[:-1])) <= 1
            assert HalfSpaces(1).realizes(X, y) == expected

    def test_radon_labelling_is_never_realised(self):
        rng = np.random.default_rng(1)
        for d in (1, 2, 3):
            X = rng.normal(size=(d + 2, d))
            assert not HalfSpaces(d).realizes(X, radon_labelling(X))

    def test_radon_partition_is_exact_on_a_degenerate_set(self):
        # Regression (clt.vc_dimension_halfspaces, seed 1): coplanar points, a duplicate and a
        # point 2^-24 away. The float null vector was ~ (-2^-24, -2^-30, -1/2, -1/2, 1); its
        # 1e-9 cut-off took the -2^-30 on p2 for a zero and labelled p2 with p5, giving
        # [-1, 1, -1, -1, 1], which IS realisable (conv{p2, p5} misses conv{p1, p3, p4}).
        X = np.array([[0.0, -0.015625, -1.0], [0.0, 1.0, 0.0], [0.0, 0.0, 0.0],
                      [0.0, 0.0, 0.0], [0.0, 0.0, -2.0**-24]])
        part = radon_partition(X)
        P = [[Fraction(float(v)) for v in row] for row in X]
        assert sum(part.weights) == 0
        for k in range(3):
            assert sum(w * P[i][k] for i, w in enumerate(part.weights)) == 0
        assert sum(w for w in part.weights if w > 0) == 1
        assert all((w < 0) == (lab == -1) for w, lab in zip(part.weights, part.labels, strict=True))
        assert not HalfSpaces(3).realizes(X, part.labels)
        assert HalfSpaces(3).realizes(X, [-1, 1, -1, -1, 1])

    def test_radon_partition_separates_a_duplicated_point(self):
        X = np.array([[0.0, 0.0], [1.0, 0.0], [0.0, 1.0], [1.0, 0.0]])
        part = radon_partition(X)
        assert part.weights == (0, 1, 0, -1) or part.weights == (0, -1, 0, 1)
        assert part.point == (1, 0)

    def test_halfspace_decision_is_exact_at_tiny_and_huge_scales(self):
        # HiGHS drops matrix entries below 1e-9 and works to ~1e-7 absolute tolerances;
        # the certified decision must not care about the scale (a power of two: exact).
        rng = np.random.default_rng(2)
        for d, m in ((2, 5), (3, 6)):
            X = rng.normal(size=(m, d))
            cover = 2 * sum(math.comb(m - 1, k) for k in range(d + 1))
            for power in (-40, -1000, 30, 900):
                Xs = X * 2.0**power
                assert dichotomies(HalfSpaces(d), Xs).shape[0] == cover
                assert not HalfSpaces(d).realizes(Xs, radon_labelling(Xs))

    def test_halfspace_decision_survives_the_largest_floats(self):
        X = np.array([[1.7e308, 0.0], [-1.7e308, 1.0], [1.7e308, 1.7e308], [0.0, -1.7e308]])
        assert dichotomies(HalfSpaces(2), X).shape[0] == 14  # Cover's count for m=4, d=2
        assert not HalfSpaces(2).realizes(X, radon_labelling(X))

    def test_halfspace_decision_agrees_with_segments_crossing_at_tiny_scale(self):
        X = np.array([[1.0, 0.0], [-1.0, 0.0], [0.0, 1e-12], [0.0, -1e-12]])
        assert not HalfSpaces(2).realizes(X, [1, 1, -1, -1])  # the segments cross at 0
        assert HalfSpaces(2).realizes(X, [1, -1, 1, -1])
        assert HalfSpaces(2).realizes(X, [-1, -1, 1, -1])  # y > 0 vs y <= 0

    def test_rectangles_shatter_a_diamond_but_not_its_centre_added(self):
        diamond = np.array([[0, 1], [1, 0], [0, -1], [-1, 0]], dtype=float)
        assert is_shattered(Rectangles(2), diamond)
        assert not is_shattered(Rectangles(2), np.vstack([diamond, [[0, 0]]]))

    def test_vc_dimension_search_reports_witnesses(self):
        d, witnesses = vc_dimension(Intervals(), {m: [distinct_line_points(m)] for m in (1, 2, 3)})
        assert d == 2 and set(witnesses) == {1, 2}

    def test_finite_class_restriction_and_shattering(self):
        table = np.array([[1, 1, -1], [1, -1, -1], [-1, 1, 1], [-1, -1, 1]])
        cls = FiniteClass(table)
        assert is_shattered(cls, np.array([0, 1]))
        assert not is_shattered(cls, np.array([0, 2]))

    @pytest.mark.parametrize("call, match", [
        (lambda: Thresholds().realizes([[0.0], [np.nan]], [1, -1]), "finite"),
        (lambda: Thresholds().realizes([[0.0], [1.0]], [1, 0]), "labels"),
        (lambda: HalfSpaces(2).realizes([[0.0, 1.0]], [1, 1]), "shape"),
        (lambda: HalfSpaces(2).realizes([[0.0]], [1]), "column"),
        (lambda: FiniteClass(np.zeros((2, 2))), "labels"),
        (lambda: FiniteClass(np.ones((2, 2))).realizes([5], [1]), "indices"),
        (lambda: radon_labelling(np.zeros((3, 2))), "d \\+ 2"),
        (lambda: growth_function(Thresholds(), []), "point_sets"),
    ])
    def test_bad_inputs_raise_value_error(self, call, match):
        with pytest.raises(ValueError, match=match):
            call()


class TestRademacher:
    def test_exact_values_of_small_classes(self):
        assert empirical_rademacher([[1, 1, 1]]) == 0.0
        assert empirical_rademacher([[1, 1], [-1, -1]]) == pytest.approx(0.5)
        full = np.array(list(itertools.product((-1, 1), repeat=3)))
        assert empirical_rademacher(full) == pytest.approx(1.0)

    def test_monte_carlo_is_within_its_half_width(self):
        H = dichotomies(Intervals(), distinct_line_points(6))
        exact = empirical_rademacher(H)
        est, half = empirical_rademacher_mc(H, 20000, np.random.default_rng(3),
                                            confidence=1 - 1e-6)
        assert abs(est - exact) <= half

    def test_threshold_formula_matches_enumeration(self):
        for m in range(1, 10):
            H = dichotomies(Thresholds(), distinct_line_points(m))
            assert threshold_rademacher(m) == pytest.approx(empirical_rademacher(H), abs=1e-12)

    def test_bad_inputs(self):
        with pytest.raises(ValueError, match="m <= 16"):
            empirical_rademacher(np.ones((1, 17)))
        with pytest.raises(ValueError, match="finite"):
            empirical_rademacher([[np.inf]])
        with pytest.raises(TypeError, match="rng"):
            empirical_rademacher_mc([[1.0]], 10, rng=3)
        with pytest.raises(ValueError, match="n_draws"):
            empirical_rademacher_mc([[1.0]], 0, np.random.default_rng(0))
        with pytest.raises(ValueError, match="confidence"):
            empirical_rademacher_mc([[1.0]], 10, np.random.default_rng(0), confidence=1.0)
        with pytest.raises(ValueError, match="values"):
            empirical_rademacher(np.ones((0, 3)))


class TestFiniteLearning:
    def test_true_and_empirical_errors(self):
        problem = FiniteProblem(np.array([0.5, 0.5]), np.array([1.0, 0.0]))
        H = np.array([[1, -1], [1, 1], [-1, 1]])
        np.testing.assert_allclose(problem.true_errors(H), [0.0, 0.5, 1.0])
        x, y = np.array([[0, 1, 1]]), np.array([[1, -1, -1]])
        np.testing.assert_allclose(empirical_errors(H, x, y), [[0.0, 2 / 3, 1.0]])
        assert version_space(H, x, y).tolist() == [[True, False, False]]
        assert erm(H, x, y).tolist() == [0]

    def test_sampling_follows_the_distribution(self):
        problem = FiniteProblem(np.array([0.2, 0.8]), np.array([1.0, 0.0]))
        x, y = problem.sample(20000, 1, np.random.default_rng(0))
        assert abs(np.mean(x == 1) - 0.8) < 0.02
        assert np.all(y[x == 0] == 1) and np.all(y[x == 1] == -1)

    def test_sampling_matches_a_binary_search_per_uniform(self):
        # The sampler's table lookup must reproduce np.searchsorted exactly, including
        # zero-mass points, dyadic breakpoints and many tiny masses.
        for seed, p in enumerate([np.full(40, 1 / 40), np.array([0.25, 0.0, 0.5, 0.25]),
                                  np.arange(1.0, 201.0) ** 4, np.array([1.0])]):
            p = p / p.sum()
            problem = FiniteProblem(p, np.full(p.size, 0.3))
            x, y = problem.sample(300, 50, np.random.default_rng(seed))
            rng = np.random.default_rng(seed)  # replay
            cdf = np.cumsum(p)
            cdf[-1] = 1.0
            x_ref = np.minimum(np.searchsorted(cdf, rng.random((300, 50)), side="right"),
                               p.size - 1)
            y_ref = np.where(rng.random((300, 50)) < 0.3, 1, -1)
            np.testing.assert_array_equal(x, x_ref)
            np.testing.assert_array_equal(y, y_ref)

    def test_counts_and_empirical_errors_match_an_explicit_loop(self):
        rng = np.random.default_rng(3)
        n, H = 7, np.where(rng.random((5, 7)) < 0.5, -1, 1)
        x, y = rng.integers(0, n, size=(4, 9)), np.where(rng.random((4, 9)) < 0.4, 1, -1)
        pos, neg = label_counts(x, y, n)
        for s in range(4):
            for j in range(n):
                assert pos[s, j] == np.sum((x[s] == j) & (y[s] == 1))
                assert neg[s, j] == np.sum((x[s] == j) & (y[s] == -1))
        expected = np.array([[np.mean(H[k, x[s]] != y[s]) for k in range(5)] for s in range(4)])
        np.testing.assert_array_equal(empirical_errors(H, x, y), expected)
        np.testing.assert_array_equal(label_counts(x[0], y[0], n)[0], pos[:1])

    def test_threshold_scenario_suprema_agree_with_a_dense_grid(self):
        draw = threshold_scenario(15, 0.4, 0.2, 5, np.random.default_rng(4))
        rng = np.random.default_rng(4)  # replay the same samples
        x = np.sort(rng.random((5, 15)), axis=1)
        clean = np.where(x >= 0.4, 1, -1)
        y = np.where(rng.random((5, 15)) < 0.2, -clean, clean)
        grid = np.linspace(0, 1, 20001)
        for i in range(5):
            pred = np.where(x[i][None, :] >= grid[:, None], 1, -1)
            emp = np.mean(pred != y[i][None, :], axis=1)
            true = 0.2 + 0.6 * np.abs(grid - 0.4)
            assert np.max(true - emp) <= draw.gap_sup[i] + 1e-12
            assert np.max(true - emp) >= draw.gap_sup[i] - 1e-3

    @pytest.mark.parametrize("call, match", [
        (lambda: FiniteProblem(np.array([0.5, 0.6]), np.array([0.0, 1.0])), "p"),
        (lambda: FiniteProblem(np.array([0.5, 0.5]), np.array([0.0, 2.0])), "eta"),
        (lambda: FiniteProblem(np.array([1.0]), np.array([0.0, 1.0])), "eta"),
        (lambda: empirical_errors(np.ones((1, 2)), [[0, 2]], [[1, 1]]), "x_idx"),
        (lambda: empirical_errors(np.ones((1, 2)), [[0, 1]], [[1, 0]]), "y"),
        (lambda: empirical_errors(np.ones((1, 2)), [[0, 1]], [[1]]), "same shape"),
        (lambda: empirical_errors(np.ones((1, 2)), [[0.0, 1.0]], [[1, 1]]), "integer"),
        (lambda: label_counts([[0, 1]], [[1, 2]], 2), "y"),
        (lambda: label_counts([[0, 3]], [[1, 1]], 2), "x_idx"),
    ])
    def test_bad_inputs(self, call, match):
        with pytest.raises(ValueError, match=match):
            call()


class TestStability:
    def test_ridge_matches_scikit_learn(self):
        from sklearn.linear_model import Ridge

        rng = np.random.default_rng(0)
        X, y = rng.normal(size=(30, 4)), rng.normal(size=30)
        ref = Ridge(alpha=30 * 0.2, fit_intercept=False).fit(X, y).coef_
        np.testing.assert_allclose(ridge_fit(X, y, 0.2), ref, rtol=1e-10)

    def test_leave_one_out_loss_matches_explicit_refits(self):
        rng = np.random.default_rng(1)
        X, y = rng.normal(size=(8, 2)), rng.normal(size=8)
        emp, loo = ridge_losses(X, y, 0.3)
        refits = [(X[i] @ ridge_fit(np.delete(X, i, 0), np.delete(y, i), 0.3) - y[i]) ** 2
                  for i in range(8)]
        assert loo == pytest.approx(np.mean(refits))
        assert emp == pytest.approx(np.mean((X @ ridge_fit(X, y, 0.3) - y) ** 2))

    def test_max_loss_difference_dominates_random_probes(self):
        rng = np.random.default_rng(2)
        w1, w2 = rng.normal(size=3), rng.normal(size=3)
        sup = max_loss_difference(w1, w2, 1.0, 1.0)[0]
        x = rng.normal(size=(20000, 3))
        x /= np.maximum(1.0, np.linalg.norm(x, axis=1, keepdims=True))
        y = rng.uniform(-1, 1, size=20000)
        diffs = np.abs((x @ w1 - y) ** 2 - (x @ w2 - y) ** 2)
        assert diffs.max() <= sup * (1 + 1e-9)
        assert diffs.max() >= 0.8 * sup

    def test_measured_stability_is_below_the_proven_bounds(self):
        rng = np.random.default_rng(3)
        X = rng.normal(size=(15, 2))
        X /= np.linalg.norm(X, axis=1, keepdims=True)
        y = rng.uniform(-1, 1, 15)
        s = ridge_stability(X, y, 0.5, -X[:2], -y[:2], radius=1.0, y_bound=1.0)
        b = ridge_stability_bounds(15, 0.5, 1.0, 1.0)
        assert 0 < s.replace <= b["replace"] and 0 < s.remove <= b["remove"]

    @pytest.mark.parametrize("call, match", [
        (lambda: ridge_fit(np.ones((3, 2)), np.ones(3), -1.0), "alpha"),
        (lambda: ridge_fit(np.ones((3, 2)), np.ones(2), 1.0), "y"),
        (lambda: ridge_fit(np.full((3, 2), np.nan), np.ones(3), 1.0), "finite"),
        (lambda: ridge_losses(np.ones((1, 2)), np.ones(1), 1.0), "2 examples"),
        (lambda: ridge_stability(np.full((3, 1), 2.0), np.ones(3), 1.0, np.ones((1, 1)),
                                 np.ones(1), radius=1.0, y_bound=1.0), "radius"),
        (lambda: ridge_stability_bounds(0, 1.0, 1.0, 1.0), "m"),
    ])
    def test_bad_inputs(self, call, match):
        with pytest.raises(ValueError, match=match):
            call()


class TestHostileInput:
    """The fuzzed cases of issue 13: overflow, hangs, complex and boolean input."""

    def test_tails_underflow_to_zero_instead_of_overflowing(self):
        assert hoeffding_tail(100, 1e300) == 0.0
        assert hoeffding_tail(100, 1e300, two_sided=True) == 0.0
        assert mcdiarmid_tail(np.full(4, 1e300), 1.0) == 1.0  # exp(-2 / 4e600)
        assert mcdiarmid_tail(np.ones(4), 1e300) == 0.0
        assert mcdiarmid_tail(np.full(4, 1e-300), 1.0) == 0.0
        assert vc_tail_bound(10**400, 10, 1e300) == 0.0

    def test_mcdiarmid_is_scale_invariant(self):
        c = np.array([0.5, 1.0, 0.25])
        base = mcdiarmid_tail(c, 0.7)
        for s in (2.0**-900, 2.0**900):
            assert mcdiarmid_tail(c * s, 0.7 * s) == pytest.approx(base, rel=1e-15)

    @pytest.mark.parametrize("call, name", [
        (lambda: sauer_bound(10**7, 10**7 - 1), "growth_polynomial_bound"),
        (lambda: sauer_bound(10**9, 10**9), "m="),
        (lambda: empirical_rademacher_mc(np.ones((2, 3)), 1e300, np.random.default_rng(0)),
         "n_draws"),
        (lambda: threshold_rademacher(10**7), "m"),
        (lambda: distinct_line_points(10**18), "m"),
        (lambda: label_counts(np.array([0]), np.array([1]), 10**18), "count cells"),
        (lambda: growth_polynomial_bound(2**53, 2**40), "logarithm"),
        (lambda: vc_tail_bound(10**400, 1, 0.5), "logarithm"),
        (lambda: stability_bound(1e300, 2**50, 1.0, 0.1), "overflow"),
        (lambda: ridge_stability_bounds(10, 0.1, 1e300, 1.0), "overflow"),
        (lambda: hoeffding_tail(2**60, 0.1), "m"),
    ])
    def test_requests_that_would_hang_or_overflow_are_refused(self, call, name):
        with pytest.raises(ValueError, match=name):
            call()

    def test_sauer_bound_is_fast_and_exact_at_the_edges(self):
        assert sauer_bound(10**6, 10**6) == 2 ** (10**6)
        assert sauer_bound(60, 3) == sum(math.comb(60, i) for i in range(4))

    @pytest.mark.parametrize("call, name", [
        (lambda: mcdiarmid_tail(np.ones(3) + 1j, 0.1), "c"),
        (lambda: empirical_rademacher(np.ones((2, 3)) * 1j), "values"),
        (lambda: dichotomies(Thresholds(), np.arange(3.0) + 1j), "X"),
        (lambda: FiniteClass(np.array([[1, -1]]) + 0j), "table"),
        (lambda: FiniteProblem(np.full(2, 0.5) + 0j, np.full(2, 0.5)), "p"),
        (lambda: ridge_fit(np.ones((3, 2)) + 1j, np.ones(3), 0.1), "X"),
        (lambda: max_loss_difference(np.ones((1, 2)) * 1j, np.ones((1, 2)), 1.0, 1.0), "W1"),
        (lambda: empirical_errors(np.array([[1, -1]]), np.array([0, 1]),
                                  np.array([True, True])), "y"),
    ])
    def test_complex_and_boolean_arrays_are_refused(self, call, name):
        with pytest.raises(ValueError, match=name):
            call()

    @pytest.mark.parametrize("call, name", [
        (lambda: rademacher_bound_real(0.1, 10, 0.1, empirical="yes"), "empirical"),
        (lambda: rademacher_bound_binary(0.1, 10, 0.1, empirical=1), "empirical"),
        (lambda: stability_bound(0.1, 10, 1.0, 0.1, leave_one_out=None), "leave_one_out"),
        (lambda: hoeffding_tail(10, 0.1, two_sided="no"), "two_sided"),
        (lambda: HalfSpaces("3"), "dim"),
        (lambda: Rectangles(0), "dim"),
        (lambda: Thresholds(2), "dim"),
        (lambda: dichotomies(None, np.arange(3.0)), "cls"),
        (lambda: growth_function(Intervals(), None), "point_sets"),
        (lambda: vc_dimension(Intervals(), {1: None}), "candidates"),
        (lambda: label_counts(np.array([0]), np.array([1]), None), "n_points"),
        (lambda: max_loss_difference(np.full((1, 2), np.nan), np.ones((1, 2)), 1.0, 1.0),
         "W1"),
    ])
    def test_flags_classes_and_containers_are_checked(self, call, name):
        with pytest.raises(ValueError, match=name):
            call()

    @pytest.mark.parametrize("scale", [2.0**-990, 2.0**-500, 2.0**500, 2.0**990])
    def test_ridge_and_rademacher_are_scale_robust(self, scale):
        rng = np.random.default_rng(3)
        X, y = rng.normal(size=(8, 3)), rng.normal(size=8)
        w = ridge_fit(X, y, 0.1)
        if 2.0**-500 <= scale <= 2.0**500:
            # w(sX, y, alpha s^2) = w(X, y, alpha) / s, exactly in powers of two.
            np.testing.assert_allclose(ridge_fit(X * scale, y, 0.1 * scale**2) * scale, w,
                                       rtol=1e-12)
        ws = ridge_fit(X * scale, y, 0.1)
        assert np.all(np.isfinite(ws))
        F = rng.normal(size=(4, 6))
        assert empirical_rademacher(F * scale) == pytest.approx(
            empirical_rademacher(F) * scale, rel=1e-12)
        W1, W2 = rng.normal(size=(2, 3)), rng.normal(size=(2, 3))
        base = max_loss_difference(W1, W2, 1.0, 1.0)
        if scale <= 2.0**500:  # the largest difference ~ scale^2 is still a float64
            np.testing.assert_allclose(max_loss_difference(W1 * scale, W2 * scale, 1.0, scale),
                                       base * scale**2, rtol=1e-12)
        else:
            with pytest.raises(ValueError, match="overflow"):
                max_loss_difference(W1 * scale, W2 * scale, 1.0, scale)

    def test_ridge_on_huge_inputs_is_the_least_squares_limit(self):
        rng = np.random.default_rng(4)
        X, y = rng.normal(size=(8, 3)), rng.normal(size=8)
        s = 2.0**1000
        ls = np.linalg.lstsq(X, y, rcond=None)[0]
        np.testing.assert_allclose(ridge_fit(X * s, y, 0.1) * s, ls, rtol=1e-9)
        emp, loo = ridge_losses(X * s, y, 0.1)
        assert math.isfinite(emp) and math.isfinite(loo)

    def test_ridge_least_squares_limit_cuts_singular_values_below_max_n_p_eps(self):
        # Where the penalty underflows, the minimum-norm least-squares solution drops the
        # singular values below eps max(n, p) s_max (numpy's pinv default). Here n = 2 < p = 5
        # and X has the exact singular values 2^1000 and 3.5 eps 2^1000: the second lies
        # between eps max(n, p) and eps n, so a cut sized by n (or by the batch size)
        # would invert it and return a weight of ~1e15 / 2^1000 in the second coordinate.
        eps = np.finfo(np.float64).eps
        X = np.zeros((2, 5))
        X[0, 0], X[1, 1] = 2.0**1000, 3.5 * eps * 2.0**1000
        y = np.array([1.0, 1.0])
        expected = np.array([2.0**-1000, 0.0, 0.0, 0.0, 0.0])
        assert np.array_equal(ridge_fit(X, y, 1.0), expected)
        np.testing.assert_allclose(np.linalg.pinv(X) @ y, expected, rtol=1e-12, atol=0.0)
