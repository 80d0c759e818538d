"""The perceptron checks have teeth: the very check bodies the claims use refute
deliberately broken variants (a sign-flipped update, a mis-reported step, a
tightened bound)."""

import numpy as np
from hypothesis import given

from mltheory.strategies import separable_datasets
from mltheory.testing import assert_holds, assert_refutes
from properties.perceptron.support import (
    Run,
    check_alignment_lemma,
    check_cosine_growth,
    check_norm_growth,
    check_norm_lemma,
    check_novikoff,
    check_updates_on_mistakes,
    fit_pla,
    pla_run,
    radius_squared,
    run_of,
)


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


def test_novikoff_check_refutes_a_sign_flipped_update():
    @given(data=separable_datasets())
    def check(data):
        check_novikoff(_broken_pla(data), data.margin)

    r = assert_refutes(check)
    assert "mistakes k / (R/gamma)^2" in r.evidence.metrics


def test_novikoff_check_refutes_a_bound_tightened_fourfold():
    @given(data=separable_datasets())
    def check(data):
        run = pla_run(data)
        check_novikoff(run, data.margin, bound=lambda R, g: (R / g) ** 2 / 4)

    assert_refutes(check)


def test_novikoff_check_holds_for_the_real_algorithm():
    @given(data=separable_datasets())
    def check(data):
        check_novikoff(pla_run(data), data.margin)

    assert_holds(check)


def test_alignment_lemma_check_refutes_a_sign_flipped_update():
    @given(data=separable_datasets())
    def check(data):
        check_alignment_lemma(_broken_pla(data), data.separator, data.margin)

    assert_refutes(check)


def test_norm_lemma_check_refutes_a_step_larger_than_reported():
    @given(data=separable_datasets())
    def check(data):
        run = _broken_pla(data, sign=1.0, step=2.0)
        reported = Run(X_hat=run.X_hat, y=run.y, W=run.W, idx=run.idx, eta=1.0)
        check_norm_lemma(reported, radius_squared)

    assert_refutes(check)


def test_norm_growth_check_refutes_a_doubled_step():
    @given(data=separable_datasets())
    def check(data):
        check_norm_growth(_broken_pla(data, sign=1.0, step=2.0))

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
    @given(data=separable_datasets())
    def check(data):
        run = pla_run(data)
        check_norm_growth(run)
        check_cosine_growth(run, data.separator)
        est = fit_pla(data)
        check_updates_on_mistakes(run_of(est, data, 1.0), est.update_margins_)

    assert_holds(check)
