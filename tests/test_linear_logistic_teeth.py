"""Teeth: the logistic/softmax claim check bodies refute deliberately broken variants."""

from __future__ import annotations

import numpy as np
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from algorithms.linear import logistic_nll, logistic_nll_gradient
from mltheory.strategies import labelled_datasets
from mltheory.testing import assert_refutes
from properties import linear_logistic as lg


def test_convexity_check_refutes_the_concave_log_likelihood():
    @given(data=labelled_datasets(max_samples=10),
           betas=hnp.arrays(np.float64, (2, 5), elements=st.floats(-5, 5)), t=st.floats(0, 1))
    def broken(data, betas, t):
        Xh = data.augmented()
        y = (data.y > 0).astype(float)
        p = Xh.shape[1]
        lg.check_jensen(lambda b: -logistic_nll(b, Xh, y), betas[0, :p], betas[1, :p], t)

    assert_refutes(broken)


def test_monotonicity_check_refutes_gradient_steps_twenty_times_too_long():
    def long_steps(X, y):
        Xh = np.hstack([X, np.ones((X.shape[0], 1))])
        L = np.linalg.norm(Xh, 2) ** 2 / 4.0
        beta = np.zeros(Xh.shape[1])
        history = []
        for _ in range(60):
            history.append(-logistic_nll(beta, Xh, y.astype(float)))
            beta = beta - 20.0 / L * logistic_nll_gradient(beta, Xh, y.astype(float))
        return np.asarray(history)

    @given(data=labelled_datasets(max_samples=20))
    def broken(data):
        lg.check_monotone_likelihood(data, long_steps)

    assert_refutes(broken)


def test_step_limit_check_refutes_a_bound_with_a_doubled_exponent():
    @given(z=st.floats(-20, 20), s=st.floats(0, 1e3))
    def broken(z, s):
        lg.check_step_limit(z, s, lambda a: float(np.exp(-2 * a)))

    assert_refutes(broken)


def test_log_likelihood_helpers_agree_with_the_stable_implementation():
    Xh = np.array([[0.5, 1.0], [-1.0, 1.0]])
    y = np.array([1.0, 0.0])
    beta = np.array([0.3, -0.2])
    np.testing.assert_allclose(lg.nll_1_20(Xh, y, beta), -lg.log_likelihood_1_18(Xh, y, beta),
                               rtol=1e-14)
