"""The fast likelihood solvers (issue 18): binary Newton without the augmented design and
symmetric softmax Newton-CG with Hessian-vector products. They must solve the same
problems as the reference solvers and scikit-learn, to the accuracy their stopping rule
states in scikit-learn's units, and record what their loops produced."""

from __future__ import annotations

import numpy as np
import pytest
import sklearn.linear_model as sklm
from scipy.special import logsumexp, softmax
from sklearn.datasets import load_digits, load_iris, load_wine
from sklearn.preprocessing import StandardScaler

from algorithms.linear import LogisticRegression, SoftmaxRegression
from algorithms.linear._binary_newton import fit_logistic_newton, mean_gradient_max_norm
from algorithms.linear._exponential_family import BernoulliFamily
from algorithms.linear._newton import fit_glm_newton, glm_hessian
from algorithms.linear._softmax_newton import _Softmax, softmax_hessian

TOL = 1e-8


def binary_data(n: int, d: int = 5, seed: int = 0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d)) * rng.uniform(0.5, 3.0, size=d)
    y = (rng.random(n) < 1 / (1 + np.exp(-(X @ rng.normal(size=d) + 0.3)))).astype(int)
    return X, y


def binary_objective(coef, intercept, X, y, lam) -> float:
    z = X @ coef + intercept
    return float(np.sum(np.logaddexp(0.0, np.where(y == 1, -z, z))) + 0.5 * lam * coef @ coef)


def softmax_objective(coef, intercept, X, y, lam) -> float:
    Z = X @ coef.T + intercept
    return float(np.sum(logsumexp(Z, axis=1) - Z[np.arange(len(y)), y])
                 + 0.5 * lam * np.sum(coef**2))


def standardised(loader):
    X, y = loader(return_X_y=True)
    return StandardScaler().fit_transform(X), y


@pytest.mark.parametrize(("lam", "fit_intercept"), [(0.0, True), (1.0, True), (0.5, False)])
def test_binary_fast_path_solves_the_generic_newton_problem(lam, fit_intercept):
    X, y = binary_data(400)
    fast = fit_logistic_newton(X, y.astype(float), fit_intercept=fit_intercept, lam=lam,
                               tol=1e-10)
    Xh = np.hstack([X, np.ones((len(X), 1))]) if fit_intercept else X
    mask = np.ones(Xh.shape[1])
    if fit_intercept:
        mask[-1] = 0.0
    generic = fit_glm_newton(Xh, y.astype(float)[:, None], BernoulliFamily(), lam=lam,
                             penalty_mask=mask, tol=1e-10)
    assert fast.converged and generic.converged
    np.testing.assert_allclose(fast.coef, generic.coef, rtol=1e-7, atol=1e-9)
    np.testing.assert_allclose(fast.objective_history[-1], generic.objective_history[-1],
                               rtol=1e-13)
    # the records are the loop's: one value per recorded iterate, recomputable, decreasing
    B = np.asarray(fast.coef_history)[:, :, 0]
    b = B[:, -1] if fit_intercept else np.zeros(len(B))
    recomputed = [binary_objective(Bk[:X.shape[1]], bk, X, y, lam)
                  for Bk, bk in zip(B, b, strict=True)]
    np.testing.assert_allclose(fast.objective_history, recomputed, rtol=1e-12)
    assert np.all(np.diff(recomputed) <= 1e-12 * abs(recomputed[0]))


@pytest.mark.parametrize("n", [300, 3000])
def test_logistic_matches_sklearn_at_matched_tolerance(n):
    X, y = binary_data(n, d=8, seed=n)
    ours = LogisticRegression(lam=1.0, tol=TOL).fit(X, y)
    ref = sklm.LogisticRegression(C=1.0, tol=TOL, max_iter=10_000).fit(X, y)
    f_ours = binary_objective(ours.coef_, ours.intercept_, X, y, 1.0)
    f_ref = binary_objective(ref.coef_[0], ref.intercept_[0], X, y, 1.0)
    assert (f_ours - f_ref) / f_ref <= 1e-9  # at least as low, up to rounding
    assert abs(f_ours - f_ref) / f_ref <= 1e-6
    # the stopping rule in scikit-learn's units: gradient of the mean objective
    assert mean_gradient_max_norm(X, y, ours.coef_, ours.intercept_, 1.0) <= TOL


@pytest.mark.parametrize("loader", [load_iris, load_wine, load_digits])
def test_symmetric_softmax_matches_multinomial_sklearn(loader):
    X, y = standardised(loader)
    ours = SoftmaxRegression(parametrisation="symmetric", lam=1.0, tol=TOL).fit(X, y)
    ref = sklm.LogisticRegression(C=1.0, tol=TOL, max_iter=10_000).fit(X, y)
    assert ours.converged_
    f_ours = softmax_objective(ours.coef_, ours.intercept_, X, y, 1.0)
    f_ref = softmax_objective(ref.coef_, ref.intercept_, X, y, 1.0)
    assert (f_ours - f_ref) / f_ref <= 1e-9
    assert abs(f_ours - f_ref) / f_ref <= 1e-6
    Z = X @ ours.coef_.T + ours.intercept_
    R = softmax(Z, axis=1)
    R[np.arange(len(y)), y] -= 1.0
    G = np.vstack([X.T @ R + ours.coef_.T, R.sum(axis=0)])
    assert np.max(np.abs(G)) / len(y) <= TOL
    assert np.allclose(ours.coef_.sum(axis=0), 0.0, atol=1e-10)  # the reported gauge


def test_hessian_vector_product_is_the_exact_hessian():
    rng = np.random.default_rng(3)
    n, p, K, lam = 40, 4, 3, 0.7
    Xh = np.hstack([rng.normal(size=(n, p - 1)), np.ones((n, 1))])
    mask = np.array([1.0, 1.0, 1.0, 0.0])
    codes = rng.integers(0, K, size=n)
    P = softmax(rng.normal(size=(n, K)), axis=1)
    f = _Softmax(Xh, codes, K, lam, mask)
    penalty = lam * np.repeat(mask[:, None], K, axis=1)
    H = softmax_hessian(Xh, P, penalty)
    # against the per-sample K x K construction (test only: the solver never builds it)
    V_blocks = P[:, :, None] * (np.eye(K)[None] - P[:, None, :])
    H_ref = glm_hessian(Xh, V_blocks)
    H_ref[np.diag_indices_from(H_ref)] += penalty.reshape(-1)
    np.testing.assert_allclose(H, H_ref, rtol=1e-12, atol=1e-12)
    V = rng.normal(size=(p, K))
    np.testing.assert_allclose(f.hessian_product(P, V).reshape(-1), H @ V.reshape(-1),
                               rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("param", ["reference", "symmetric"])
def test_softmax_warm_start_resumes_at_the_solution(param):
    X, y = standardised(load_iris)
    first = SoftmaxRegression(parametrisation=param, lam=1.0).fit(X, y)
    again = SoftmaxRegression(parametrisation=param, lam=1.0).fit(
        X, y, coef_init=first.coef_, intercept_init=first.intercept_)
    assert again.converged_ and again.n_iter_ <= 1
    start = again.coef_history_[0]
    np.testing.assert_allclose(start[:-1].T - start[:-1].T.mean(axis=0) * (param == "symmetric"),
                               first.coef_, atol=1e-12)
    np.testing.assert_allclose(again.predict_proba(X), first.predict_proba(X), atol=1e-9)


def test_logistic_warm_start_and_bad_warm_start():
    X, y = binary_data(500)
    first = LogisticRegression(lam=1.0).fit(X, y)
    again = LogisticRegression(lam=1.0).fit(X, y, coef_init=first.coef_,
                                            intercept_init=first.intercept_)
    assert again.converged_ and again.n_iter_ <= 1
    np.testing.assert_allclose(again.coef_history_[0][:-1, 0], first.coef_)
    gd = LogisticRegression(solver="gd", lam=1.0, max_iter=5).fit(X, y, coef_init=first.coef_,
                                                                  intercept_init=first.intercept_)
    np.testing.assert_allclose(gd.coef_history_[0][:-1, 0], first.coef_)
    with pytest.raises(ValueError, match="coef_init"):
        LogisticRegression().fit(X, y, coef_init=np.zeros(X.shape[1] + 1))
    with pytest.raises(ValueError, match="intercept_init"):
        LogisticRegression(fit_intercept=False).fit(X, y, intercept_init=0.5)
    with pytest.raises(ValueError, match="coef_init"):
        SoftmaxRegression().fit(X, y, coef_init=np.zeros((2, X.shape[1])))
