"""Claims of 003 §4.3: kernel functions (Table 6.1), the feature-map identity (4.18),
kernel SVM = linear SVM on features (4.17)-(4.20), and the closure rules (4.21)-(4.23)."""

from __future__ import annotations

import numpy as np
from hypothesis import example, given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp
from sklearn.metrics.pairwise import (
    euclidean_distances,
    linear_kernel,
    polynomial_kernel,
    rbf_kernel,
    sigmoid_kernel,
)

from algorithms.kernels import (
    GaussianKernel,
    Kernel,
    LaplacianKernel,
    LinearKernel,
    PolynomialKernel,
    ProductKernel,
    ScaledByFunctionKernel,
    SigmoidKernel,
    SumKernel,
    make_kernel,
    squared_distances,
)
from algorithms.svm import SMOClassifier
from mltheory import ErratumKind, Expect, Method, claim, evidence
from mltheory.numeric import LINEAR_ALGEBRA, Tolerance, assert_close
from properties.svm.strategies import svm_nonseparable_datasets
from properties.svm.support import DUAL_SOLVER, SMO_TOL, fit_quietly

#: Eigenvalues of a PSD Gram matrix computed by a backward-stable eigensolver are
#: >= -n * eps * ||K||_2; we allow 1e-12 * ||K||_2 (n <= 30, eps = 2.2e-16 gives 7e-15).
PSD = Tolerance(rtol=1e-12, atol=1e-300,
                reason="symmetric eigensolver backward error n * eps * ||K||_2 <= 7e-15 ||K||")

POINTS = hnp.arrays(
    np.float64,
    st.tuples(st.integers(1, 12), st.integers(1, 3)),
    elements=st.floats(-3, 3, width=64),
)


def min_eigen_ratio(K: np.ndarray) -> float:
    """lambda_min(K) / max(||K||_2, tiny): negative means indefinite."""
    vals = np.linalg.eigvalsh((K + K.T) / 2)
    return float(vals[0] / max(np.abs(vals).max(), 1e-300))


def assert_psd(K: np.ndarray, label: str) -> None:
    r = min_eigen_ratio(K)
    evidence.worst("-lambda_min / ||K|| (worst kernel)", -r)
    if r < -PSD.rtol:
        raise AssertionError(f"{label}: Gram matrix has a negative eigenvalue "
                             f"(lambda_min / ||K|| = {r:.3g}); K = {np.array2string(K, 4)}")


def valid_kernels():
    return st.one_of(
        st.just(LinearKernel()),
        st.builds(PolynomialKernel, degree=st.integers(1, 4)),
        st.builds(GaussianKernel, sigma=st.sampled_from([0.1, 1.0, 10.0])),
        st.builds(LaplacianKernel, sigma=st.sampled_from([0.1, 1.0, 10.0])),
    )


def table_6_1_kernels():
    return st.one_of(
        valid_kernels(),
        st.builds(SigmoidKernel, beta=st.sampled_from([0.1, 1.0, 5.0]),
                  theta=st.sampled_from([-0.1, -1.0, -5.0])),
    )


@claim(
    id="kernels.table_6_1_psd_as_written",
    source="003 §4.3 (Table 6.1)",
    statement="Every kernel of Table 6.1 — linear, polynomial (d >= 1), Gaussian, "
    "Laplacian and sigmoid tanh(beta x^T z + theta) with beta > 0, theta < 0 — is a valid "
    "kernel: its Gram matrix is positive semi-definite on every finite sample.",
    method=Method.PROPERTY,
    tags=("kernels", "erratum"),
    expect=Expect.REFUTED,
    kind=ErratumKind.OVERCLAIM,
    corrected_by="kernels.table_6_1_psd_without_sigmoid",
    explanation="The sigmoid 'kernel' is not positive semi-definite: at x = 0 it gives "
    "kappa(0, 0) = tanh(theta) < 0 for every theta < 0, a negative 1x1 Gram matrix (and "
    "kappa(x, x) < 0 whenever beta ||x||^2 < -theta).",
)
@given(X=POINTS, kernel=table_6_1_kernels())
@example(X=np.zeros((1, 1)), kernel=SigmoidKernel(beta=1.0, theta=-1.0))
def table_6_1_psd_as_written(X, kernel):
    assert_psd(kernel(X), repr(kernel))


@claim(
    id="kernels.table_6_1_psd_without_sigmoid",
    source="003 §4.3 (Table 6.1)",
    statement="The linear, polynomial (integer d >= 1), Gaussian (sigma > 0) and Laplacian "
    "(sigma > 0) kernels of Table 6.1 have positive semi-definite Gram matrices on every "
    "finite sample, including duplicated and near-duplicated points.",
    method=Method.PROPERTY,
    tags=("kernels",),
)
@given(X=POINTS, kernel=valid_kernels(), dup=st.booleans())
def table_6_1_psd_without_sigmoid(X, kernel, dup):
    if dup:
        X = np.vstack([X, X + 1e-9])
    assert_psd(kernel(X), repr(kernel))


@claim(
    id="kernels.sigmoid_not_psd_witness",
    source="003 §4.3 (Table 6.1)",
    statement="For every beta > 0 and theta < 0, the sigmoid function tanh(beta x^T z + "
    "theta) fails to be a kernel: any point with beta ||x||^2 < -theta (x = 0 in "
    "particular) has kappa(x, x) < 0.",
    method=Method.PROPERTY,
    tags=("kernels",),
)
@given(beta=st.floats(1e-3, 1e3), theta=st.floats(-1e3, -1e-3), d=st.integers(1, 4),
       shrink=st.floats(0, 0.999))
def sigmoid_not_psd_witness(beta, theta, d, shrink):
    x = np.zeros((1, d))
    x[0, 0] = np.sqrt(shrink * (-theta) / beta)  # beta ||x||^2 = shrink * (-theta) < -theta
    K = SigmoidKernel(beta=beta, theta=theta)(x)
    evidence.worst("kappa(x, x) (must be < 0)", K[0, 0])
    assert K[0, 0] < 0 and min_eigen_ratio(K) < 0


def tensor_power_features(X: np.ndarray, degree: int) -> np.ndarray:
    """phi(x) = x (x) x (x) ... (x) x (degree factors), flattened: <phi(x), phi(z)> = (x.z)^d."""
    F = X
    for _ in range(degree - 1):
        F = np.einsum("ni,nj->nij", F, X).reshape(X.shape[0], -1)
    return F


class FeatureMapKernel(Kernel):
    """kappa(x, z) = <phi(x), phi(z)> (4.18) for the tensor-power map of ``degree``: a
    kernel given by its Gram function alone, as a user defines one (the values
    kappa(x_i, x_i) come from the Kernel base class)."""

    def __init__(self, degree: int) -> None:
        self.degree = degree

    def _gram(self, X: np.ndarray, Z: np.ndarray) -> np.ndarray:
        return tensor_power_features(X, self.degree) @ tensor_power_features(Z, self.degree).T

    def __repr__(self) -> str:
        return f"FeatureMapKernel(degree={self.degree})"


@claim(
    id="kernels.feature_map_4_18",
    source="003 §4.3 (4.18)",
    statement="A kernel is an inner product of feature maps: the polynomial kernel "
    "(x^T z)^d equals <phi(x), phi(z)> for the explicit map phi(x) = x^{(x) d} "
    "(all degree-d monomials); a kernel defined by that inner product alone has the Gram "
    "matrix <phi(x_i), phi(x_j)> and the values kappa(x_i, x_i) = ||phi(x_i)||^2.",
    method=Method.PROPERTY,
    tags=("kernels",),
)
@given(X=POINTS, degree=st.integers(1, 3))
def feature_map_4_18(X, degree):
    F = tensor_power_features(X, degree)
    assert_close(PolynomialKernel(degree=degree)(X), F @ F.T, LINEAR_ALGEBRA,
                 label="kernel vs feature inner product")
    check_feature_map_kernel(FeatureMapKernel(degree), X, F)


def check_feature_map_kernel(kernel: Kernel, X: np.ndarray, F: np.ndarray) -> None:
    """``kernel``'s Gram matrix and values kappa(x_i, x_i) are those of the features F."""
    assert_close(kernel(X), F @ F.T, LINEAR_ALGEBRA, label="user kernel vs feature inner product")
    assert_close(kernel.diag(X), np.einsum("ij,ij->i", F, F), LINEAR_ALGEBRA,
                 label="user kernel's kappa(x_i, x_i) vs ||phi(x_i)||^2")


@claim(
    id="kernels.kernel_svm_equals_feature_svm_4_17_4_20",
    source="003 §4.3 (4.16)-(4.20)",
    statement="The kernelised dual (4.19) with kappa = (x^T z)^2 and the linear SVM (4.17) on "
    "explicit features phi(x) give the same decision function f(x) = sum alpha_i y_i "
    "kappa(x, x_i) + b (4.20).",
    method=Method.PROPERTY,
    tags=("kernels", "svm"),
)
@given(data=svm_nonseparable_datasets(max_samples=10), C=st.sampled_from([0.1, 1.0, 10.0]))
def kernel_svm_equals_feature_svm_4_17_4_20(data, C):
    X, y = data.X, data.y
    kern = fit_quietly(SMOClassifier(C=C, kernel="poly", kernel_params={"degree": 2},
                                     tol=SMO_TOL), X, y)
    F = tensor_power_features(X, 2)
    lin = fit_quietly(SMOClassifier(C=C, kernel="linear", tol=SMO_TOL), F, y)
    f1, f2 = kern.decision_function(X), lin.decision_function(F)
    evidence.worst("decision gap kernel vs features (relative)",
                   float(np.max(np.abs(f1 - f2)) / max(1.0, np.abs(f2).max())))
    assert_close(f1, f2, DUAL_SOLVER, label="decision function relative error")


def two_kernels():
    return st.tuples(valid_kernels(), valid_kernels())


@claim(
    id="kernels.closure_sum_4_21_as_written",
    source="003 §4.3 (4.21)",
    statement="For kernels kappa1, kappa2 and positive gamma1, gamma2, the combination "
    "printed in (4.21), gamma1 kappa1 = gamma2 kappa2, holds (is the new kernel).",
    method=Method.PROPERTY,
    tags=("kernels", "erratum"),
    expect=Expect.REFUTED,
    kind=ErratumKind.SYMBOL,
    corrected_by="kernels.closure_sum_4_21",
    explanation="(4.21) prints an equation 'gamma1 kappa1 = gamma2 kappa2' instead of the "
    "combination gamma1 kappa1 + gamma2 kappa2; the printed identity fails for any two "
    "different kernels (e.g. linear and Gaussian at x = z = 0: 0 vs 1).",
)
@given(X=POINTS, ks=two_kernels(), g=st.tuples(st.floats(0.1, 10), st.floats(0.1, 10)))
def closure_sum_4_21_as_written(X, ks, g):
    (k1, k2), (g1, g2) = ks, g
    assert_close(g1 * k1(X), g2 * k2(X), LINEAR_ALGEBRA, label="gamma1 K1 vs gamma2 K2")


@claim(
    id="kernels.closure_sum_4_21",
    source="003 §4.3 (4.21)",
    statement="For kernels kappa1, kappa2 and any gamma1, gamma2 > 0, gamma1 kappa1 + "
    "gamma2 kappa2 is a kernel (its Gram matrices are PSD).",
    method=Method.PROPERTY,
    tags=("kernels",),
)
@given(X=POINTS, ks=two_kernels(), g=st.tuples(st.floats(1e-3, 1e3), st.floats(1e-3, 1e3)))
def closure_sum_4_21(X, ks, g):
    k = SumKernel(ks[0], ks[1], gamma1=g[0], gamma2=g[1])
    assert_psd(k(X), "gamma1 K1 + gamma2 K2")


@claim(
    id="kernels.closure_product_4_22",
    source="003 §4.3 (4.22)",
    statement="The pointwise (direct) product kappa1(x, z) kappa2(x, z) of two kernels is a "
    "kernel.",
    method=Method.PROPERTY,
    tags=("kernels",),
)
@given(X=POINTS, ks=two_kernels())
def closure_product_4_22(X, ks):
    assert_psd(ProductKernel(*ks)(X), "K1 * K2")


@claim(
    id="kernels.closure_g_4_23",
    source="003 §4.3 (4.23)",
    statement="For a kernel kappa1 and any real function g, g(x) kappa1(x, z) g(z) is a "
    "kernel.",
    method=Method.PROPERTY,
    tags=("kernels",),
)
@given(X=POINTS, k1=valid_kernels(), gvals=hnp.arrays(np.float64, 12,
                                                      elements=st.floats(-100, 100)))
def closure_g_4_23(X, k1, gvals):
    table = gvals[: X.shape[0]]
    g = lambda Z: table[: Z.shape[0]]  # noqa: E731 - any function on the finite sample
    assert_psd(ScaledByFunctionKernel(k1, g)(X), "g(x) K1 g(z)")


def laplacian_by_pairs(X: np.ndarray, Z: np.ndarray, sigma: float) -> np.ndarray:
    """exp(-||x - z|| / sigma) pair by pair (scikit-learn's laplacian_kernel uses the L1
    norm, not Table 6.1's Euclidean one)."""
    return np.array([[np.exp(-np.linalg.norm(x - z) / sigma) for z in Z] for x in X])


def table_references(kind: str, params: dict):
    """scikit-learn's pairwise kernels (or a pair loop) in Table 6.1's parametrisation."""
    if kind == "linear":
        return lambda X, Z: linear_kernel(X, Z)
    if kind == "poly":
        return lambda X, Z: polynomial_kernel(X, Z, degree=params["degree"], gamma=1.0,
                                              coef0=params.get("coef0", 0.0))
    if kind == "rbf":
        return lambda X, Z: rbf_kernel(X, Z, gamma=1.0 / (2.0 * params["sigma"] ** 2))
    if kind == "laplacian":
        return lambda X, Z: laplacian_by_pairs(X, Z, params["sigma"])
    return lambda X, Z: sigmoid_kernel(X, Z, gamma=params["beta"], coef0=params["theta"])


#: Two point sets of the same dimension (points and query points).
POINT_PAIRS = st.integers(1, 3).flatmap(lambda d: st.tuples(*(
    hnp.arrays(np.float64, st.tuples(st.integers(1, 12), st.just(d)),
               elements=st.floats(-3, 3, width=64)) for _ in range(2))))

TABLE_6_1 = st.one_of(
    st.just(("linear", {})),
    st.tuples(st.just("poly"), st.fixed_dictionaries({"degree": st.integers(1, 4)})),
    st.tuples(st.just("rbf"), st.fixed_dictionaries({"sigma": st.sampled_from([0.3, 1.0, 4.0])})),
    st.tuples(st.just("laplacian"),
              st.fixed_dictionaries({"sigma": st.sampled_from([0.3, 1.0, 4.0])})),
    st.tuples(st.just("sigmoid"), st.fixed_dictionaries(
        {"beta": st.sampled_from([0.1, 1.0]), "theta": st.sampled_from([-0.5, -2.0])})),
)


@claim(
    id="kernels.table_6_1_formulas",
    source="003 §4.3 (Table 6.1)",
    statement="Each kernel of Table 6.1 evaluates its printed expression: x^T z, (x^T z)^d, "
    "exp(-||x - z||^2 / (2 sigma^2)), exp(-||x - z|| / sigma), tanh(beta x^T z + theta) "
    "(checked against scikit-learn's pairwise kernels, the Laplacian pair by pair), and its "
    "diagonal is kappa(x_i, x_i); the squared distances ||x - z||^2 of the Gaussian kernel "
    "agree with scikit-learn's.",
    method=Method.REFERENCE,
    tags=("kernels", "reference"),
)
@given(XZ=POINT_PAIRS, spec=TABLE_6_1)
def table_6_1_formulas(XZ, spec):
    X, Z = XZ
    kind, params = spec
    check_kernel_formula(make_kernel(kind, params), table_references(kind, params), X, Z)
    assert_close(squared_distances(X, Z), euclidean_distances(X, Z, squared=True),
                 LINEAR_ALGEBRA, label="squared distances vs scikit-learn")


def check_kernel_formula(kernel, reference, X: np.ndarray, Z: np.ndarray) -> None:
    """``kernel(X, Z)`` and ``kernel.diag(X)`` against an independent ``reference(X, Z)``."""
    K, ref = kernel(X, Z), reference(X, Z)
    evidence.worst("max |K - reference| / max(1, |reference|)",
                   float(np.max(np.abs(K - ref)) / max(1.0, np.abs(ref).max())))
    assert_close(K, ref, LINEAR_ALGEBRA, label="kernel vs reference")
    assert_close(kernel.diag(X), np.diag(reference(X, X)), LINEAR_ALGEBRA,
                 label="diag vs reference diagonal")


@claim(
    id="kernels.closure_formulas_4_21_4_23",
    source="003 §4.3 (4.21)-(4.23)",
    statement="The constructions of (4.21)-(4.23) evaluate their (corrected) expressions: "
    "gamma1 kappa1 + gamma2 kappa2, kappa1(x, z) kappa2(x, z) and g(x) kappa1(x, z) g(z), "
    "entry by entry from the two kernels' own Gram matrices (scikit-learn's); the "
    "operators kappa1 + kappa2 and kappa1 * kappa2 give the plain sum (gamma1 = gamma2 = 1) "
    "and the product.",
    method=Method.REFERENCE,
    tags=("kernels", "reference"),
)
@given(X=POINTS, specs=st.tuples(TABLE_6_1, TABLE_6_1),
       g=st.tuples(st.floats(1e-3, 1e3), st.floats(1e-3, 1e3)),
       gvals=hnp.arrays(np.float64, 12, elements=st.floats(-100, 100)))
def closure_formulas_4_21_4_23(X, specs, g, gvals):
    (k1, p1), (k2, p2) = specs
    kern1, kern2 = make_kernel(k1, p1), make_kernel(k2, p2)
    r1, r2 = table_references(k1, p1), table_references(k2, p2)
    check_kernel_formula(SumKernel(kern1, kern2, gamma1=g[0], gamma2=g[1]),
                         lambda A, B: g[0] * r1(A, B) + g[1] * r2(A, B), X, X)
    check_kernel_formula(ProductKernel(kern1, kern2), lambda A, B: r1(A, B) * r2(A, B), X, X)
    # the operators: kappa1 + kappa2 is (4.21) with gamma1 = gamma2 = 1, kappa1 * kappa2 (4.22)
    check_kernel_formula(kern1 + kern2, lambda A, B: r1(A, B) + r2(A, B), X, X)
    check_kernel_formula(kern1 * kern2, lambda A, B: r1(A, B) * r2(A, B), X, X)
    table = gvals[: X.shape[0]]

    def gfun(A):  # any function on the finite sample: a value per row of X
        return table[: A.shape[0]]

    check_kernel_formula(ScaledByFunctionKernel(kern1, gfun),
                         lambda A, B: table[:, None] * r1(A, B) * table[None, :], X, X)
