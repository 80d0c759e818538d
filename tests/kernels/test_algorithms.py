"""Unit tests for algorithms.kernels: Table 6.1 kernels, closure rules, kernel ridge, KLDA."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.spatial.distance import cdist
from sklearn.kernel_ridge import KernelRidge as SkKernelRidge
from sklearn.metrics.pairwise import polynomial_kernel, rbf_kernel, sigmoid_kernel

from algorithms.kernels import (
    GaussianKernel,
    KernelLDA,
    KernelRidge,
    LaplacianKernel,
    LinearKernel,
    PolynomialKernel,
    ProductKernel,
    ScaledByFunctionKernel,
    SigmoidKernel,
    SumKernel,
    gram_matrix,
)


@pytest.fixture
def points():
    rng = np.random.default_rng(3)
    return rng.normal(size=(7, 3)), rng.normal(size=(5, 3))


def test_kernels_match_their_formulas(points):
    X, Z = points
    np.testing.assert_allclose(LinearKernel()(X, Z), X @ Z.T)
    np.testing.assert_allclose(PolynomialKernel(degree=3)(X, Z),
                               polynomial_kernel(X, Z, degree=3, gamma=1.0, coef0=0.0))
    np.testing.assert_allclose(GaussianKernel(sigma=2.0)(X, Z), rbf_kernel(X, Z, gamma=1 / 8))
    np.testing.assert_allclose(LaplacianKernel(sigma=0.5)(X, Z),
                               np.exp(-cdist(X, Z) / 0.5), rtol=1e-12)
    np.testing.assert_allclose(SigmoidKernel(beta=0.3, theta=-0.2)(X, Z),
                               sigmoid_kernel(X, Z, gamma=0.3, coef0=-0.2))


def test_diagonal_matches_the_gram_diagonal(points):
    X, _ = points
    for k in [LinearKernel(), PolynomialKernel(2, 1.0), GaussianKernel(), LaplacianKernel(),
              SigmoidKernel(), SumKernel(LinearKernel(), GaussianKernel(), 2.0, 3.0),
              ProductKernel(PolynomialKernel(2), LaplacianKernel()),
              ScaledByFunctionKernel(GaussianKernel(), lambda A: A[:, 0])]:
        np.testing.assert_allclose(k.diag(X), np.diag(k(X)), rtol=1e-12, atol=1e-12)


def test_closure_operators(points):
    X, Z = points
    k1, k2 = LinearKernel(), GaussianKernel()
    np.testing.assert_allclose((k1 + k2)(X, Z), k1(X, Z) + k2(X, Z))
    np.testing.assert_allclose((k1 * k2)(X, Z), k1(X, Z) * k2(X, Z))
    g = ScaledByFunctionKernel(k2, lambda A: np.sum(A, axis=1))
    np.testing.assert_allclose(g(X, Z), X.sum(1)[:, None] * k2(X, Z) * Z.sum(1)[None, :])


@pytest.mark.parametrize(
    ("factory", "name"),
    [
        (lambda: PolynomialKernel(degree=0), "degree"),
        (lambda: PolynomialKernel(degree=2.5), "degree"),
        (lambda: PolynomialKernel(coef0=-1.0), "coef0"),
        (lambda: GaussianKernel(sigma=0), "sigma"),
        (lambda: LaplacianKernel(sigma=-1), "sigma"),
        (lambda: SigmoidKernel(beta=0), "beta"),
        (lambda: SigmoidKernel(theta=0.5), "theta"),
        (lambda: SumKernel(LinearKernel(), LinearKernel(), gamma1=0), "gamma1"),
        (lambda: gram_matrix("cosine", np.eye(2)), "kernel"),
        (lambda: LinearKernel()(np.array([[np.nan]])), "X"),
        (lambda: LinearKernel()(np.eye(2), np.eye(3)), "features"),
    ],
)
def test_bad_kernel_parameters_raise(factory, name):
    with pytest.raises(ValueError, match=name):
        factory()


def test_kernel_ridge_matches_sklearn(points):
    X, _ = points
    y = np.sin(X[:, 0])
    ours = KernelRidge(lam=0.3, kernel="poly", kernel_params={"degree": 2}).fit(X, y)
    ref = SkKernelRidge(alpha=0.3, kernel="poly", degree=2, gamma=1.0, coef0=0.0).fit(X, y)
    np.testing.assert_allclose(ours.predict(X), ref.predict(X), rtol=1e-8, atol=1e-10)
    with pytest.raises(ValueError, match="lam"):
        KernelRidge(lam=0).fit(X, y)
    with pytest.raises(ValueError, match="y"):
        KernelRidge().fit(X, y[:-1])


def test_kernel_lda_separates_rings():
    rng = np.random.default_rng(4)
    r = np.r_[rng.uniform(0, 1, 40), rng.uniform(2, 3, 40)]
    t = rng.uniform(0, 2 * np.pi, 80)
    X = np.c_[r * np.cos(t), r * np.sin(t)]
    y = np.r_[np.zeros(40), np.ones(40)]
    m = KernelLDA(kernel="rbf", kernel_params={"sigma": 1.0}, reg=1e-3).fit(X, y)
    assert m.score(X, y) > 0.95


def test_kernel_lda_bad_input():
    X = np.array([[0.0], [1.0], [2.0]])
    with pytest.raises(ValueError, match="two classes"):
        KernelLDA().fit(X, np.array([1, 1, 1]))
    with pytest.raises(ValueError, match="reg"):
        KernelLDA(reg=-1.0).fit(X, np.array([0, 1, 1]))
