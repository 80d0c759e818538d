"""Teeth: the GLM claim check bodies refute deliberately broken variants."""

from __future__ import annotations

import numpy as np
import pytest
import sympy as sp
from hypothesis import given
from hypothesis import strategies as st

from algorithms.linear import add_bias_column
from mltheory.testing import assert_holds, assert_refutes
from proofs.linear import exponential_family as expfam
from properties.linear import glm
from properties.linear.strategies import overlapping_classification_datasets, regression_datasets


def irls_without_safeguards(step: float, n_steps: int = 4):
    """Newton/IRLS steps ``B <- B - step * H^{-1} grad`` with a fixed ``step`` and no line
    search: ``step = -1`` is the update with its sign flipped (an ascent direction of the
    NLL), ``step = 3`` a full Newton step tripled. Records its iterates and their
    log-likelihoods as the library does and reports ``converged_ = True``, so the check
    must judge the recorded trace itself."""
    def fit(X, y, *, family, lam, sigma=1.0):
        model = glm.library_glm(X, y, family=family, lam=lam, sigma=sigma, max_iter=1)
        fam = model.family_
        T = fam.sufficient_statistic(
            y if family == "gaussian" else np.searchsorted(model.classes_, y))
        Xh = add_bias_column(X)
        p, q = Xh.shape[1], T.shape[1]
        mask = np.append(np.ones(p - 1), 0.0)
        B = np.zeros((p, q))
        iterates, history = [B], []
        for _ in range(n_steps):
            eta = Xh @ B
            grad = -(Xh.T @ (T - fam.mean(eta))) + lam * mask[:, None] * B
            H = np.einsum("ij,il,ikm->jklm", Xh, Xh, fam.variance(eta)).reshape(p * q, p * q)
            H += lam * np.diag(np.repeat(mask, q))
            B = B - step * np.linalg.lstsq(H, grad.reshape(-1), rcond=None)[0].reshape(p, q)
            iterates.append(B)
        for Bk in iterates:
            eta = Xh @ Bk
            history.append(float(np.sum(eta * T) - np.sum(fam.log_partition(eta))
                                 + np.sum(fam.log_base_measure(T[:, 0] if q == 1 else
                                                               np.argmax(T, axis=1)))))
        model.coef_history_ = np.asarray(iterates)
        model.log_likelihood_history_ = np.asarray(history)
        model.coef_, model.intercept_ = B[:-1].T.copy(), B[-1].copy()
        model.n_iter_, model.converged_ = n_steps, True
        return model
    return fit


@pytest.mark.parametrize("family", ["gaussian", "bernoulli", "categorical"])
@pytest.mark.parametrize("step", [-1.0, 3.0], ids=["sign_flipped", "tripled_no_line_search"])
def test_newton_monotonicity_check_refutes_irls_without_its_safeguards(step, family):
    @given(**{**glm.NEWTON_CASES, "family": st.just(family)})
    def broken(data, family, lam, third):
        glm.check_newton_monotone(*glm.newton_problem(data, family, third), family, lam,
                                  fit_glm=irls_without_safeguards(step))

    assert_refutes(broken)


def test_newton_monotonicity_check_holds_for_correct_unsafeguarded_first_steps():
    # the same hand-written IRLS with the right sign and a unit step is a plain Newton
    # method: on the Gaussian family (a quadratic) one step is exact and never rises
    @given(**{**glm.NEWTON_CASES, "family": st.just("gaussian")})
    def sound(data, family, lam, third):
        glm.check_newton_monotone(*glm.newton_problem(data, family, third), family, lam,
                                  fit_glm=irls_without_safeguards(1.0, n_steps=2))

    assert_holds(sound)


def test_score_equation_check_refutes_a_fit_of_the_wrong_penalty():
    def doubled_penalty(X, y, *, family, lam, sigma=1.0):
        return glm.library_glm(X, y, family=family, lam=2 * lam, sigma=sigma)

    @given(**glm.NEWTON_CASES)
    def broken(data, family, lam, third):
        glm.check_newton_monotone(*glm.newton_problem(data, family, third), family, lam,
                                  fit_glm=doubled_penalty)

    assert_refutes(broken)


def test_gaussian_glm_check_refutes_natural_weights_that_ignore_sigma():
    def eta_equals_mu(X, y, **params):
        return glm.library_glm(X, y, **{**params, "sigma": 1.0})

    @given(data=regression_datasets(), sigma=st.sampled_from([0.25, 1.0, 3.0]))
    def broken(data, sigma):
        glm.check_gaussian_is_ols(data, sigma, fit_glm=eta_equals_mu)

    assert_refutes(broken)


def test_bernoulli_glm_check_refutes_a_penalised_fit_passed_off_as_the_mle():
    def penalised(X, y, **params):
        return glm.library_glm(X, y, lam=1.0, **params)

    @given(data=overlapping_classification_datasets())
    def broken(data):
        glm.check_bernoulli_is_logistic(data, fit_glm=penalised)

    assert_refutes(broken)


class ReferenceClassFirst:
    """A categorical GLM whose probabilities list the reference class K first."""

    def __init__(self, model):
        self.model = model

    def __getattr__(self, name):  # fitted attributes (coef_, converged_, ...) of the model
        return getattr(self.model, name)

    def natural_parameter(self, X):
        return self.model.natural_parameter(X)

    def predict_proba(self, X):
        return np.roll(self.model.predict_proba(X), 1, axis=1)


def test_categorical_glm_check_refutes_probabilities_with_the_reference_class_first():
    @given(data=overlapping_classification_datasets(min_classes=2, max_classes=4,
                                                    max_free_samples=20))
    def broken(data):
        glm.check_categorical_is_softmax(
            data, fit_glm=lambda X, y, **p: ReferenceClassFirst(glm.library_glm(X, y, **p)))

    assert_refutes(broken)


def categorical_a(phis):
    return -sp.log(phis[-1])


def categorical_denominator(etas):
    return 1 + sum(sp.exp(e) for e in etas)


@pytest.mark.parametrize(
    ("a_of_phi", "denominator"),
    [
        (lambda phis: sp.log(phis[-1]), categorical_denominator),  # a(eta) sign flipped
        (lambda phis: -sp.log(phis[0]), categorical_denominator),  # class 1 as reference
        (categorical_a, lambda etas: sum(sp.exp(e) for e in etas)),  # 1 + missing
    ],
    ids=["a_sign_flipped", "a_of_the_wrong_class", "inverse_without_one_plus"],
)
def test_categorical_family_check_refutes_a_wrong_log_partition_or_inverse(a_of_phi,
                                                                           denominator):
    assert_refutes(lambda: expfam.check_categorical(3, a_of_phi, denominator))


def test_categorical_family_check_holds_for_the_notes_a_and_inverse():
    assert_holds(lambda: expfam.check_categorical(3, categorical_a, categorical_denominator))


def test_newton_check_refutes_a_fit_stopped_after_one_step():
    def one_step(X, y, *, family, lam, sigma=1.0):
        return glm.library_glm(X, y, family=family, lam=lam, sigma=sigma, max_iter=1)

    @given(**glm.NEWTON_CASES)
    def broken(data, family, lam, third):
        glm.check_newton_monotone(*glm.newton_problem(data, family, third), family, lam,
                                  fit_glm=one_step)

    assert_refutes(broken)


def test_newton_check_refutes_a_history_not_computed_at_the_iterates():
    def halved_history(X, y, *, family, lam, sigma=1.0):
        model = glm.library_glm(X, y, family=family, lam=lam, sigma=sigma)
        model.log_likelihood_history_ = model.log_likelihood_history_ / 2
        return model

    @given(**glm.NEWTON_CASES)
    def broken(data, family, lam, third):
        glm.check_newton_monotone(*glm.newton_problem(data, family, third), family, lam,
                                  fit_glm=halved_history)

    assert_refutes(broken)


def test_newton_check_refutes_a_gaussian_base_measure_with_the_wrong_sigma_power():
    """The recorded log-likelihood must be the Gaussian density of the fitted sigma: a base
    measure built with sigma^3 for sigma^2 (the same at sigma = 1) is refuted."""
    from algorithms.linear import GaussianFamily

    class CubedSigma(GaussianFamily):
        def log_base_measure(self, y):
            y = np.asarray(y, dtype=float).reshape(-1)
            return -(y**2) / (2 * self.sigma**3) - np.log(np.sqrt(2 * np.pi) * self.sigma)

    def wrong_density(X, y, *, family, lam, sigma=1.0):
        model = glm.library_glm(X, y, family=family, lam=lam, sigma=sigma)
        if family == "gaussian":
            T = np.asarray(y, dtype=float)
            Xh = add_bias_column(X)
            model.log_likelihood_history_ = np.array([
                float(np.sum((Xh @ B)[:, 0] * T) - np.sum(model.family_.log_partition(Xh @ B))
                      + np.sum(CubedSigma(sigma).log_base_measure(T)))
                for B in model.coef_history_])
        return model

    @given(**{**glm.NEWTON_CASES, "family": st.just("gaussian")}, sigma=st.just(3.0))
    def broken(data, family, lam, third, sigma):
        glm.check_newton_monotone(*glm.newton_problem(data, family, third), family, lam,
                                  fit_glm=wrong_density, sigma=sigma)

    assert_refutes(broken)
