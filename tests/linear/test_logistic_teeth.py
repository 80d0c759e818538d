"""Teeth: the logistic/softmax claim check bodies refute deliberately broken variants."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest
import sympy as sp
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp
from scipy.special import softmax

from algorithms.linear import (
    CategoricalFamily,
    LogisticRegression,
    logistic_nll,
    logistic_nll_gradient,
    logistic_nll_hessian,
)
from mltheory.strategies import labelled_datasets
from mltheory.testing import assert_holds, assert_refutes
from proofs.linear import logistic as lgp
from properties.linear import logistic as lg
from properties.linear.support import quietly


def test_convexity_check_refutes_the_concave_log_likelihood():
    @given(data=labelled_datasets(max_samples=10),
           betas=hnp.arrays(np.float64, (2, 5), elements=st.floats(-5, 5)), t=st.floats(0, 1))
    def broken(data, betas, t):
        Xh = data.augmented()
        y = (data.y > 0).astype(float)
        p = Xh.shape[1]
        lg.check_jensen(lambda b: -logistic_nll(b, Xh, y), betas[0, :p], betas[1, :p], t)

    assert_refutes(broken)


def gradient_steps(scale: float, objective_factor: float = 1.0):
    """Gradient descent on (1.20) with step ``scale / L``, recording its iterates and their
    values like the library; ``objective_factor`` scales the recorded penalty term."""
    def fit(X, y, lam):
        Xh = np.hstack([X, np.ones((X.shape[0], 1))])
        L = np.linalg.norm(Xh, 2) ** 2 / 4.0 + lam
        mask = np.append(np.ones(X.shape[1]), 0.0)
        beta, iterates, ll, obj = np.zeros(Xh.shape[1]), [], [], []
        for _ in range(60):
            iterates.append(beta[:, None].copy())
            ll.append(-logistic_nll(beta, Xh, y.astype(float)))
            obj.append(-ll[-1] + objective_factor * 0.5 * lam * float(np.sum((mask * beta) ** 2)))
            grad = logistic_nll_gradient(beta, Xh, y.astype(float)) + lam * mask * beta
            beta = beta - scale / L * grad
        return SimpleNamespace(coef_history_=np.asarray(iterates),
                               log_likelihood_history_=np.asarray(ll),
                               objective_history_=np.asarray(obj))
    return fit


def test_monotonicity_check_refutes_gradient_steps_twenty_times_too_long():
    @given(data=labelled_datasets(max_samples=20), lam=st.sampled_from([0.0, 0.5]))
    def broken(data, lam):
        lg.check_monotone_likelihood(data, lam, gradient_steps(20.0))

    assert_refutes(broken)


def test_monotonicity_check_refutes_a_penalty_recorded_twice():
    @given(data=labelled_datasets(max_samples=20), lam=st.sampled_from([0.5, 5.0]))
    def broken(data, lam):
        lg.check_monotone_likelihood(data, lam, gradient_steps(1.0, objective_factor=2.0))

    assert_refutes(broken)


def test_monotonicity_check_holds_for_gradient_steps_of_length_one_over_l():
    @given(data=labelled_datasets(max_samples=20), lam=st.sampled_from([0.0, 0.5]))
    def sound(data, lam):
        lg.check_monotone_likelihood(data, lam, gradient_steps(1.0))

    assert_holds(sound)


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


def test_nll_check_refutes_a_log_partition_with_the_wrong_sign_of_z():
    def flipped(beta, Xh, y):
        z = Xh @ beta
        return float(np.sum(-y * z + np.log1p(np.exp(-z))))

    @given(problem=lg.tiny_logistic_problems())
    def broken(problem):
        lg.check_nll_is_negative_loglik(problem, nll=flipped)

    assert_refutes(broken)


def test_convexity_check_refutes_the_hessian_of_the_log_likelihood():
    @given(**lg.CONVEXITY_CASES)
    def broken(data, betas, t):
        lg.check_nll_convex(data, betas, t, hessian=lambda b, Xh: -logistic_nll_hessian(b, Xh))

    assert_refutes(broken)


# ------------------------------------------------------------------ (1.21): the MLE is reached


def one_gradient_step(claims_convergence: bool):
    """Logistic regression stopped after a single gradient step of size 1/L."""
    def fit(X, y):
        model = quietly(LogisticRegression(solver="gd", max_iter=1).fit, X, y)
        if claims_convergence:
            model.converged_ = True
        return model
    return fit


def test_mle_check_refutes_newton_replaced_by_one_gradient_step():
    @given(**lg.MLE_CASES)
    def broken(data):
        lg.check_mle_reached(data, newton_fit=one_gradient_step(claims_convergence=True))

    assert_refutes(broken, slow=True)


def test_mle_check_refutes_gradient_descent_stopped_after_one_step():
    @given(**lg.MLE_CASES)
    def broken(data):
        lg.check_mle_reached(data, gd_fit=one_gradient_step(claims_convergence=False))

    assert_refutes(broken, slow=True)


# ------------------------------------------------------------------ softmax (004 §3.3)


def without_one_plus(eta):
    """The reference-class formulas with the 1 + dropped from the denominator."""
    denom = np.exp(eta).sum(axis=1, keepdims=True)
    return np.hstack([np.exp(eta) / denom, 1 / denom])


def reference_class_first(eta):
    """Normalised, but the zero score of the reference class is put first."""
    return softmax(np.hstack([np.zeros((eta.shape[0], 1)), eta]), axis=1)


@pytest.mark.parametrize("formula", [without_one_plus, reference_class_first],
                         ids=["without_one_plus", "reference_class_first"])
def test_reference_probability_check_refutes_wrong_softmax_formulas(formula):
    # the broken formula is both "the note" and "the implementation", so only the
    # properties (sum to one, log-ratio eta) can catch it
    @given(**lg.REFERENCE_SCORES)
    def broken(K, scores):
        lg.check_reference_probabilities(scores[:, : K - 1], formula=formula,
                                         probabilities=formula)

    assert_refutes(broken)


def test_reference_probability_check_holds_for_the_notes_formulas():
    @given(**lg.REFERENCE_SCORES)
    def sound(K, scores):
        lg.check_reference_probabilities(scores[:, : K - 1])

    assert_holds(sound)


def test_shift_invariance_check_refutes_a_softmax_that_ignores_the_reference_score():
    # mapping the symmetric scores to the reference form by dropping w_K instead of
    # subtracting it: the reference class keeps score 0 whatever the common shift
    def drops_reference_score(S):
        return CategoricalFamily(S.shape[1]).probabilities(S[:, :-1])

    @given(**lg.SHIFT_CASES)
    def broken(K, scores, shift):
        lg.check_shift_invariance(scores[:, :K], shift, probabilities=drops_reference_score)

    assert_refutes(broken)


def test_shift_invariance_check_refutes_a_model_path_without_log_sum_exp():
    def naive(scores):
        with np.errstate(over="ignore", invalid="ignore"):
            e = np.exp(scores)
            return e / e.sum()

    @given(**lg.SHIFT_CASES)
    def broken(K, scores, shift):
        lg.check_shift_invariance(scores[:, :K], shift, model_path=naive)

    assert_refutes(broken)


class ReferenceClassMislabelled:
    """A reference-parametrisation fit whose K-1 score vectors (fitted against the last
    class) are mapped to probabilities as if the first class were the reference."""

    def __init__(self, model):
        self.model = model

    def __getattr__(self, name):  # fitted attributes (coef_, converged_, ...) of the model
        return getattr(self.model, name)

    def predict_proba(self, X):
        scores = self.model.class_scores(X)[:, :-1]
        return softmax(np.hstack([np.zeros((scores.shape[0], 1)), scores]), axis=1)


def test_parametrisation_check_refutes_the_wrong_reference_class():
    @given(**lg.PARAMETRISATION_CASES)
    def broken(data):
        lg.check_parametrisations_agree(
            data, reference_fit=lambda X, y: ReferenceClassMislabelled(
                lg.library_reference_softmax(X, y)))

    assert_refutes(broken, slow=True)


# ------------------------------------------------------------------ symbolic checks (proofs/)


def test_sigmoid_derivative_check_refutes_a_flipped_factor():
    assert_refutes(lambda: lgp.check_sigmoid_derivative(lambda f: f * (f - 1)))


def test_log_odds_check_refutes_the_inverted_odds():
    assert_refutes(lambda: lgp.check_log_odds(lambda y: sp.log((1 - y) / y)))


@pytest.mark.parametrize(
    ("gradient_term", "hessian_term"),
    [
        (lambda x, y, p1: x * (y - p1), lambda xj, xk, p1: xj * xk * p1 * (1 - p1)),
        (lambda x, y, p1: -x * (y - p1), lambda xj, xk, p1: xj * xk),
    ],
    ids=["gradient_sign_flipped", "hessian_without_variance"],
)
def test_nll_derivative_check_refutes_wrong_gradient_or_hessian(gradient_term, hessian_term):
    assert_refutes(lambda: lgp.check_nll_derivatives(gradient_term, hessian_term))


def naive_nll(beta, Xh, y):
    """(1.20) literally: ln(1 + e^z) - y z with e^z evaluated in float64."""
    z = Xh @ beta
    with np.errstate(over="ignore"):
        return float(np.sum(np.log(1 + np.exp(z)) - y * z))


def test_stability_check_refutes_the_literal_formula():
    @given(**lg.STABLE_CASES)
    def broken(z, labels):
        lg.check_nll_stable(z, np.array(labels[: z.size]), nll=naive_nll)

    assert_refutes(broken)


def test_stability_check_refutes_the_cancelling_difference():
    # logaddexp(0, z) - y z: stable against overflow, but for y = 1 and z >> 0 the
    # difference of two nearly equal numbers loses the relative accuracy of e^{-z}
    def cancelling(beta, Xh, y):
        z = Xh @ beta
        return float(np.sum(np.logaddexp(0.0, z) - y * z))

    @given(**lg.STABLE_CASES)
    def broken(z, labels):
        lg.check_nll_stable(z, np.array(labels[: z.size]), nll=cancelling)

    assert_refutes(broken)


def test_step_limit_check_refutes_the_bound_halved():
    @given(z=st.floats(-20, 20), s=st.floats(0, 1e3))
    def broken(z, s):
        lg.check_step_limit(z, s, lambda a: 0.5 * float(np.exp(-a)))

    assert_refutes(broken)


def test_reference_fit_check_refutes_the_symmetric_parametrisation():
    from algorithms.linear import SoftmaxRegression

    @given(**lg.REFERENCE_FIT_CASES)
    def broken(data):
        lg.check_reference_fit(data, fit=lambda X, y: quietly(
            SoftmaxRegression(parametrisation="symmetric").fit, X, y))

    assert_refutes(broken)


def test_reference_fit_check_refutes_the_wrong_reference_class():
    @given(**lg.REFERENCE_FIT_CASES)
    def broken(data):
        lg.check_reference_fit(data, fit=lambda X, y: ReferenceClassMislabelled(
            lg.library_reference_softmax_fit(X, y)))

    assert_refutes(broken)


def full_newton_steps(accept_rise: float):
    """Newton on (1.20) from the given start that takes the full step whenever it raises
    the objective by at most ``accept_rise`` times the decrement (halving otherwise),
    recording its iterates like the library; both fits of the claim are this variant."""
    def fit(X, y, start):
        Xh = np.hstack([X, np.ones((X.shape[0], 1))])
        t = y.astype(float)
        beta, iterates, ll = start.copy(), [], []
        for _ in range(30):
            iterates.append(beta[:, None].copy())
            ll.append(-lg.stable_nll(Xh, t, beta))
            g = logistic_nll_gradient(beta, Xh, t)
            step = np.linalg.solve(logistic_nll_hessian(beta, Xh), g)
            decrement, size = float(g @ step), 1.0
            while (lg.stable_nll(Xh, t, beta - size * step)
                   > lg.stable_nll(Xh, t, beta) + accept_rise * size * decrement):
                size *= 0.5
            beta = beta - size * step
        model = SimpleNamespace(coef_history_=np.asarray(iterates),
                                log_likelihood_history_=np.asarray(ll))
        return [("variant", model, "bernoulli", t)]
    return fit


def test_overshooting_start_check_refutes_a_line_search_accepting_a_small_rise():
    from properties.linear.strategies import overlapping_classification_datasets

    @given(data=overlapping_classification_datasets(max_free_samples=15, max_features=3))
    def broken(data):
        lg.check_overshooting_start(data, full_newton_steps(1e-4))

    assert_refutes(broken)


def test_overshooting_start_check_holds_for_a_line_search_refusing_any_rise():
    from properties.linear.strategies import overlapping_classification_datasets

    @given(data=overlapping_classification_datasets(max_free_samples=15, max_features=3))
    def sound(data):
        lg.check_overshooting_start(data, full_newton_steps(0.0))

    assert_holds(sound)
