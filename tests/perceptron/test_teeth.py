"""The perceptron checks have teeth: the very check bodies the claims use refute
deliberately broken variants: a sign-flipped or scaled update inside the training loop,
a mis-reported step, and every constant of every bound tightened (each bound scaled by
1/2 and by a factor within 1 % of 1, exponents cut to 1, the bias term of the margin
gain dropped)."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from algorithms.perceptron import Perceptron
from mltheory.strategies import separable_datasets
from mltheory.testing import assert_holds, assert_refutes
from properties.perceptron.pla import _SMALL_INTS, POINTS
from properties.perceptron.strategies import etas, orders, seeds, tight_datasets
from properties.perceptron.support import (
    Run,
    check_alignment_lemma,
    check_alignment_steps,
    check_cosine_growth,
    check_margin_gain,
    check_norm_lemma,
    check_norm_steps,
    check_novikoff,
    check_pla_steps,
    check_predict_is_sign,
    check_updates_on_mistakes,
    fit_pla,
    novikoff_check,
    pla_run,
    radius_squared,
    run_of,
)

#: The claims' data: random separable sets and the sets where every bound is attained.
DATA = separable_datasets() | tight_datasets()


def scaled_perceptron(factor: float) -> type[Perceptron]:
    """A Perceptron whose training loop adds ``factor * eta y_i x_hat_i`` per update."""

    class Scaled(Perceptron):
        def _update_steps(self, Z, eta, fit_intercept):
            return factor * super()._update_steps(Z, eta, fit_intercept)

    Scaled.__name__ = f"Perceptron_x{factor:g}"
    return Scaled


def _broken_pla(data, *, sign=-1.0, step=1.0, passes=30) -> Run:
    """Cyclic PLA whose update is w <- w + sign * step * y x (sign=-1 flips it)."""
    X_hat = data.augmented()
    y = data.y.astype(float)
    w = np.zeros(X_hat.shape[1])
    history, idx = [w.copy()], []
    for _ in range(passes):
        clean = True
        for i in range(len(y)):
            if y[i] * (X_hat[i] @ w) <= 0:
                w = w + sign * step * y[i] * X_hat[i]
                history.append(w.copy())
                idx.append(i)
                clean = False
        if clean:
            break
    return Run(X_hat=X_hat, y=y, W=np.array(history), idx=np.array(idx, dtype=int), eta=step)


def _doubled_step_reported_as_one(data) -> Run:
    """A run whose steps are 2 y x_hat, reported with eta = 1."""
    run = _broken_pla(data, sign=1.0, step=2.0)
    return Run(X_hat=run.X_hat, y=run.y, W=run.W, idx=run.idx, eta=1.0)


# --- the update scaled inside the loop (the audit's planted bug) -------------------------


@pytest.mark.parametrize("factor", [0.9, 0.99])
def test_novikoff_claim_refutes_an_update_scaled_inside_the_loop(factor):
    @given(data=DATA, eta=etas, order=orders, seed=seeds)
    def check(data, eta, order, seed):
        novikoff_check(data, eta, order, seed, estimator=scaled_perceptron(factor))

    assert_refutes(check)


@pytest.mark.parametrize("factor", [0.9, 0.99])
def test_alignment_steps_refute_an_update_scaled_inside_the_loop(factor):
    # Without the step-equation check: the per-step inequality alone sees the shortfall
    # on the tight sets, where every gain is exactly eta gamma.
    @given(data=tight_datasets(), eta=etas, order=orders)
    def check(data, eta, order):
        run = pla_run(data, eta=eta, order=order, estimator=scaled_perceptron(factor))
        check_alignment_steps(run, data.separator, data.margin)

    assert_refutes(check)


@pytest.mark.parametrize("factor", [0.9, 0.99])
def test_margin_gain_refutes_an_update_scaled_inside_the_loop(factor):
    @given(data=DATA, eta=etas, order=orders)
    def check(data, eta, order):
        check_margin_gain(pla_run(data, eta=eta, order=order,
                                  estimator=scaled_perceptron(factor)))

    assert_refutes(check)


def test_the_novikoff_claim_holds_for_the_real_loop():
    @given(data=DATA, eta=etas, order=orders, seed=seeds)
    def check(data, eta, order, seed):
        novikoff_check(data, eta, order, seed)

    assert_holds(check)


# --- every constant of every bound tightened ----------------------------------------------


@pytest.mark.parametrize(("scale", "power"), [(0.5, 2.0), (0.99, 2.0), (1.0, 1.0)])
def test_novikoff_bound_refutes_tightened_constants(scale, power):
    @given(data=DATA, eta=etas, order=orders, seed=seeds)
    def check(data, eta, order, seed):
        novikoff_check(data, eta, order, seed, scale=scale, power=power)

    assert_refutes(check)


@pytest.mark.parametrize("scale", [2.0, 1.01])
def test_alignment_bounds_refute_a_larger_gain(scale):
    @given(data=DATA, eta=etas, order=orders)
    def check(data, eta, order):
        run = pla_run(data, eta=eta, order=order)
        check_alignment_steps(run, data.separator, data.margin, scale=scale)

    @given(data=DATA, eta=etas, order=orders)
    def check_lemma(data, eta, order):
        run = pla_run(data, eta=eta, order=order)
        check_alignment_lemma(run, data.separator, data.margin, scale=scale)

    assert_refutes(check)
    assert_refutes(check_lemma)


@pytest.mark.parametrize("scale", [0.5, 0.99])
def test_norm_bounds_refute_a_smaller_growth(scale):
    @given(data=DATA, eta=etas, order=orders)
    def check(data, eta, order):
        check_norm_steps(pla_run(data, eta=eta, order=order), scale=scale)

    @given(data=DATA, eta=etas, order=orders)
    def check_lemma(data, eta, order):
        check_norm_lemma(pla_run(data, eta=eta, order=order), radius_squared, scale=scale)

    assert_refutes(check)
    assert_refutes(check_lemma)


def test_norm_lemma_refutes_the_radius_not_squared():
    @given(data=DATA, eta=etas, order=orders)
    def check(data, eta, order):
        check_norm_lemma(pla_run(data, eta=eta, order=order),
                         lambda run: float(np.sqrt(radius_squared(run))))

    assert_refutes(check)


@pytest.mark.parametrize("scale", [2.0, 1.01])
def test_cosine_bound_refutes_a_larger_constant(scale):
    @given(data=DATA, order=orders)
    def check(data, order):
        check_cosine_growth(pla_run(data, order=order), data.separator, scale=scale)

    assert_refutes(check)


def test_margin_gain_refutes_the_bias_term_dropped():
    @given(data=DATA, eta=etas, order=orders)
    def check(data, eta, order):
        check_margin_gain(pla_run(data, eta=eta, order=order), bias_term=0.0)

    assert_refutes(check)


# --- broken runs ----------------------------------------------------------------------------


def test_novikoff_check_refutes_a_sign_flipped_update():
    @given(data=separable_datasets())
    def check(data):
        check_novikoff(_broken_pla(data), data.margin)

    r = assert_refutes(check)
    assert "mistakes k / (R/gamma)^2" in r.evidence.metrics


def test_step_check_refutes_a_doubled_step():
    @given(data=separable_datasets())
    def check(data):
        check_pla_steps(_doubled_step_reported_as_one(data))

    assert_refutes(check)


def test_alignment_lemma_check_refutes_a_sign_flipped_update():
    @given(data=separable_datasets())
    def check(data):
        check_alignment_lemma(_broken_pla(data), data.separator, data.margin)

    assert_refutes(check)


def test_norm_lemma_check_refutes_a_step_larger_than_reported():
    @given(data=separable_datasets())
    def check(data):
        check_norm_lemma(_doubled_step_reported_as_one(data), radius_squared)

    assert_refutes(check)


def test_norm_steps_check_refutes_a_doubled_step():
    @given(data=separable_datasets())
    def check(data):
        check_norm_steps(_doubled_step_reported_as_one(data))

    assert_refutes(check)


def test_cosine_check_refutes_a_sign_flipped_update():
    @given(data=separable_datasets())
    def check(data):
        check_cosine_growth(_broken_pla(data), data.separator)

    assert_refutes(check)


def test_mistake_check_refutes_updates_on_correct_points():
    @given(data=separable_datasets())
    def check(data):
        run = pla_run(data)
        # Report the margins after each update, as a PLA that updates on correctly
        # classified points would see them.
        after = run.y[run.idx] * np.sum(run.W[1:] * run.X_hat[run.idx], axis=1)
        check_updates_on_mistakes(run, after)

    assert_refutes(check)


def test_the_run_based_checks_hold_for_the_real_algorithm():
    @given(data=DATA)
    def check(data):
        run = pla_run(data)
        check_pla_steps(run)
        check_norm_steps(run)
        check_margin_gain(run)
        check_cosine_growth(run, data.separator)
        check_alignment_steps(run, data.separator, data.margin)
        est = fit_pla(data)
        check_updates_on_mistakes(run_of(est, data, 1.0), est.update_margins_)

    assert_holds(check)


# --- prediction: sign(0) = +1 and scores that overflow --------------------------------------


class _NoOverflowFallback(Perceptron):
    """Predicts from the raw float64 score only (NaN/inf scores not rescored)."""

    def _signs(self, X):
        return self._raw_scores(np.asarray(X, dtype=float)) >= 0.0


class _SignZeroNegative(Perceptron):
    """Predicts the positive class only for scores > 0 (sign(0) = -1)."""

    def _signs(self, X):
        return self._raw_scores(np.asarray(X, dtype=float)) > 0.0


@pytest.mark.parametrize("estimator", [_NoOverflowFallback, _SignZeroNegative])
def test_predict_claim_refutes_a_wrong_sign_rule(estimator):
    @given(w=st.lists(_SMALL_INTS, min_size=1, max_size=3), b=_SMALL_INTS, points=POINTS)
    def check(w, b, points):
        check_predict_is_sign(np.asarray(w), b, [x[: len(w)] for x in points],
                              estimator=estimator)

    assert_refutes(check)
