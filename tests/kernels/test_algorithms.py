"""Unit tests for algorithms.kernels: Table 6.1 kernels, closure rules, kernel ridge, KLDA."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from scipy.linalg import LinAlgWarning
from scipy.spatial.distance import cdist
from sklearn.exceptions import NotFittedError
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


# ---- bad input: ValueError naming the argument -----------------------------------------

TRAIN_X = np.array([[0.0], [1.0], [2.0], [3.0]])
TWO_CLASS_Y = np.array([0, 0, 1, 1])


@pytest.mark.parametrize(
    ("estimator", "X", "y", "name"),
    [
        (KernelRidge, np.array([[0.0], [np.nan]]), np.array([0.0, 1.0]), "X"),
        (KernelRidge, np.array([[0.0], [np.inf]]), np.array([0.0, 1.0]), "X"),
        (KernelRidge, np.array([0.0, 1.0]), np.array([0.0, 1.0]), "X"),
        (KernelRidge, np.zeros((0, 1)), np.zeros(0), "X"),
        (KernelRidge, TRAIN_X, np.array([0.0, 1.0, np.nan, 2.0]), "y"),
        (KernelRidge, TRAIN_X, np.ones(3), "X and y"),
        (KernelRidge, TRAIN_X, None, "y"),
        (KernelLDA, np.array([[0.0], [np.nan], [1.0], [2.0]]), TWO_CLASS_Y, "X"),
        (KernelLDA, np.array([0.0, 1.0, 2.0, 3.0]), TWO_CLASS_Y, "X"),
        (KernelLDA, np.zeros((0, 1)), np.zeros(0), "X"),
        (KernelLDA, TRAIN_X, np.array([1, 1, 1, 1]), "y must contain at least 2 classes"),
        (KernelLDA, TRAIN_X, np.array([0, 1, 2, 2]), "binary .*two-class"),
        (KernelLDA, TRAIN_X, np.array([0.1, 0.7, 1.3, 2.9]), "Unknown label type"),
        (KernelLDA, TRAIN_X, TWO_CLASS_Y[:3], "X and y"),
    ],
)
def test_bad_training_data_raises_value_error_naming_it(estimator, X, y, name):
    with pytest.raises(ValueError, match=name):
        estimator().fit(X, y)


@pytest.mark.parametrize(
    ("estimator", "params", "name"),
    [
        (KernelRidge, {"lam": 0.0}, "lam"),
        (KernelRidge, {"lam": -1.0}, "lam"),
        (KernelRidge, {"lam": np.nan}, "lam"),
        (KernelRidge, {"kernel": "cosine"}, "kernel"),
        (KernelRidge, {"kernel_params": [1.0]}, "kernel_params"),
        (KernelLDA, {"reg": -1.0}, "reg"),
        (KernelLDA, {"reg": "small"}, "reg"),
        (KernelLDA, {"kernel": "rbf", "kernel_params": {"sigma": 0.0}}, "sigma"),
        (KernelLDA, {"kernel": "rbf", "kernel_params": {"width": 1.0}}, "kernel_params"),
    ],
)
def test_bad_hyperparameters_raise_value_error_naming_them(estimator, params, name):
    with pytest.raises(ValueError, match=name):
        estimator(**params).fit(TRAIN_X, TWO_CLASS_Y)


def test_kernel_lda_refuses_identical_points_instead_of_returning_nan():
    # Every point the same: N = 0 and the class means coincide, so J = 0/0.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", LinAlgWarning)  # the solve may warn first
        with pytest.raises(ValueError, match="no finite discriminant"):
            KernelLDA().fit(np.zeros((4, 2)), TWO_CLASS_Y)


@pytest.mark.parametrize("estimator", [KernelRidge, KernelLDA])
def test_prediction_checks_fitted_and_feature_count(estimator):
    with pytest.raises(NotFittedError):
        estimator().predict(TRAIN_X)
    model = estimator().fit(TRAIN_X, TWO_CLASS_Y)
    with pytest.raises(ValueError, match="X has 2 features"):
        model.predict(np.ones((3, 2)))
    with pytest.raises(ValueError, match="X contains NaN"):
        model.predict(np.array([[np.nan]]))


def test_kernel_ridge_falls_back_to_least_squares_with_a_warning():
    """X x 1e8 under the linear kernel: lam = 1 is lost next to Gram entries near 1e16, so
    K + lam I is numerically singular; the fit warns and returns the least-squares
    solution, whose predictions still fit the (noise-free, linear) targets."""
    rng = np.random.default_rng(3)
    X = rng.normal(size=(20, 3)) * 1e8
    y = X @ np.array([1.0, 2.0, 3.0]) * 1e-8
    with pytest.warns(LinAlgWarning, match="least-squares"):
        model = KernelRidge(lam=1.0).fit(X, y)
    np.testing.assert_allclose(model.predict(X), y, rtol=1e-6, atol=1e-6 * np.abs(y).max())


@pytest.mark.parametrize("kernel", ["rbf", "linear", "poly"])
@pytest.mark.parametrize("scale", [1e150, 1e-150])
def test_kernel_lda_is_finite_or_refuses_at_extreme_scales(kernel, scale):
    """N = K K^T is formed from K divided by a power of two near max |K|: no overflow to
    NaN at |K| ~ 1e300, no underflow at |K| ~ 1e-300; what cannot be represented is
    refused with a ValueError naming X."""
    rng = np.random.default_rng(4)
    X = rng.normal(size=(30, 2))
    y = (X[:, 0] > 0).astype(int)
    try:
        model = KernelLDA(kernel=kernel).fit(X * scale, y)
    except ValueError as exc:
        assert "X" in str(exc)
        return
    assert np.all(np.isfinite(model.dual_coef_))
    assert np.isfinite(model.score(X * scale, y))


def test_kernel_lda_scaling_leaves_the_projection_unchanged():
    """Dividing K by a power of two and alpha back by it is exact: the linear-kernel
    projection of X and of X x 2^10 agree up to rounding of the solve."""
    rng = np.random.default_rng(5)
    X = rng.normal(size=(25, 3))
    y = (X[:, 0] + X[:, 1] > 0).astype(int)
    h1 = KernelLDA(kernel="linear").fit(X, y).transform(X)
    h2 = KernelLDA(kernel="linear").fit(X * 1024, y).transform(X * 1024)
    np.testing.assert_allclose(h1, h2, rtol=1e-6, atol=1e-9 * np.abs(h1).max())


def test_gaussian_kernel_at_extreme_widths_is_finite():
    X = np.array([[0.0, 1.0], [2.0, -1.0]])
    np.testing.assert_array_equal(GaussianKernel(1e-300)(X), np.eye(2))
    np.testing.assert_allclose(GaussianKernel(1e300)(X), np.ones((2, 2)))


def test_kernel_values_that_overflow_are_refused_naming_the_points():
    with pytest.raises(ValueError, match=r"\bX\b"):
        LinearKernel()(np.full((2, 2), 1e300))
    with pytest.raises(ValueError, match=r"\bdegree\b"):
        PolynomialKernel(degree=10**6)(np.full((2, 2), 10.0))
    with pytest.raises(ValueError, match="real"):
        GaussianKernel()(np.ones((2, 2)) + 1j)


def test_kernel_lda_predict_before_fit_is_not_fitted_error():
    with pytest.raises(NotFittedError):
        KernelLDA().predict(np.ones((2, 2)))


def test_documented_defaults():
    """The defaults the docstrings state (a changed default is a silent behaviour change)."""
    assert KernelRidge().get_params() == {"lam": 1.0, "kernel": "linear", "kernel_params": None}
    assert KernelLDA().get_params() == {"reg": 1e-6, "kernel": "rbf", "kernel_params": None}
    assert repr(GaussianKernel()) == "GaussianKernel(sigma=1.0)"
    assert repr(LaplacianKernel()) == "LaplacianKernel(sigma=1.0)"
    assert repr(PolynomialKernel()) == "PolynomialKernel(degree=2, coef0=0.0)"
    assert repr(SigmoidKernel()) == "SigmoidKernel(beta=1.0, theta=-1.0)"
    k = SumKernel(LinearKernel(), LinearKernel())
    assert (k.gamma1, k.gamma2) == (1.0, 1.0)


@pytest.mark.parametrize("scale", [1.0, 1e300, 1e-300])
def test_regressor_score_is_r2_at_any_scale(scale):
    """score is scikit-learn's R^2 of the predictions; computed on y / 2^k it stays finite
    for targets near 1e300 (where the sums of squares overflow) and equals R^2 at scale 1."""
    from sklearn.metrics import r2_score

    rng = np.random.default_rng(6)
    X = rng.normal(size=(20, 2))
    y = X @ np.array([1.0, -1.0]) + 0.3 * rng.normal(size=20)
    model = KernelRidge(lam=0.5, kernel="rbf").fit(X, y * scale)
    expected = r2_score(y, model.predict(X) / scale)
    assert model.score(X, y * scale) == pytest.approx(expected, rel=1e-9, abs=1e-12)


def test_base_diagonal_of_a_user_kernel_is_the_gram_diagonal():
    """A Kernel subclass that defines only _gram gets kappa(x_i, x_i) from the base class."""
    from algorithms.kernels import Kernel

    class Cosh(Kernel):
        def _gram(self, X, Z):
            return np.cosh(X @ Z.T)

    X = np.random.default_rng(7).normal(size=(6, 2))
    np.testing.assert_allclose(Cosh().diag(X), np.diag(Cosh()(X)), rtol=1e-15)
