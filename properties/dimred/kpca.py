"""Kernel PCA (003 §8.4 (8.12)-(8.18)), checked through an explicit feature map: for the
degree-2 polynomial kernel ``(x^T z + c)^2`` the images ``phi(x)`` are finite vectors, so
every step of the derivation can be compared with linear algebra on them, and the
kernel PCA coordinates with linear PCA on ``phi(x)``. Errata: (8.12)-(8.13) drop the
factor W on the left; (8.17)-(8.18) as printed use the uncentred kernel matrix and leave
the scaling of alpha unsaid, and each omission changes the coordinates."""

from __future__ import annotations

import functools

import numpy as np
import scipy.linalg
from hypothesis import given
from hypothesis import strategies as st
from sklearn import decomposition
from sklearn.datasets import load_digits

from algorithms.dimred import KernelPCA, center_kernel_matrix
from mltheory import ErratumKind, Expect, Method, claim, evidence
from mltheory.numeric import Tolerance, assert_close
from properties.dimred.strategies_linear import SEEDS
from properties.dimred.support_linear import (
    EIGEN_ROUNDING,
    centring_matrix,
    check_kpca_against_features,
    poly2_features,
    relative_eigengap,
    same_up_to_column_signs,
    single_blas_thread,
)

#: Identities between eigenpairs of Phi^T Phi and Phi Phi^T, relative to lambda_1.
EIGEN_IDENTITY = Tolerance(rtol=0.0, atol=1e-9,
                           reason="symmetric eigensolvers are backward stable: residuals "
                           "~ h * eps * lambda_1 for h <= 13 features, compared relative to "
                           "lambda_1 with a 1e5 margin")

COEF0 = st.sampled_from([0.0, 0.5, 2.0])


@st.composite
def kernel_data(draw):
    """(X, Q, coef0, d'): 6-25 training points and 4 queries in 1-3 dimensions, at unit
    scale or 10 times larger (eigenvalues of the kernel matrix up to ~1e6: the relative
    threshold for zero eigenvalues is then exercised)."""
    rng = np.random.default_rng(draw(SEEDS))
    d = draw(st.integers(1, 3))
    m = draw(st.integers(6, 25))
    size = draw(st.sampled_from([1.0, 10.0]))  # kernel values up to ~1e4 times larger
    X = (rng.normal(size=(m, d)) + draw(st.sampled_from([0.0, 1.0]))) * size
    Q = rng.normal(size=(4, d)) * size
    coef0 = draw(COEF0)
    h = poly2_features(X[:1], coef0).shape[1]
    d_prime = draw(st.integers(1, min(h, m - 1, 4)))
    return X, Q, coef0, d_prime


def poly_kpca(coef0, center=True):
    """A fit function ``(X, d') -> KernelPCA`` with the kernel ``(x^T z + coef0)^2``."""
    def fit(X, d_prime):
        return KernelPCA(n_components=d_prime, kernel="poly",
                         kernel_params={"degree": 2, "coef0": coef0}, center=center).fit(X)
    return fit


def top_eigenpairs(S):
    """Eigenvalues (descending) and eigenvectors of a symmetric matrix, scipy's eigh."""
    lam, V = scipy.linalg.eigh(S)
    return lam[::-1], V[:, ::-1]


@claim(
    id="kpca.span_8_13_8_15_as_written",
    source="003 §8.4 (8.12)-(8.13)",
    statement="(As printed) the projection matrix W of kernel PCA satisfies "
    "sum_i z_i z_i^T = lambda W (8.12), z_i = phi(x_i), and hence W = (1/lambda) "
    "sum_i z_i z_i^T (first equality of (8.13)).",
    method=Method.PROPERTY,
    tags=("dimred", "kpca", "erratum"),
    expect=Expect.REFUTED,
    kind=ErratumKind.TERM,
    corrected_by="kpca.span_8_13_8_15",
    explanation="Both equations lose the factor W on the left: the eigen-equation is "
    "(sum_i z_i z_i^T) W = lambda W (as (8.14) then writes), and W = (1/lambda) "
    "(sum_i z_i z_i^T) W. As printed, an h x h matrix is equated with an h x d' one.",
)
@given(data=kernel_data())
def span_8_13_8_15_as_written(data):
    X, _, coef0, d_prime = data
    Phi = poly2_features(X, coef0)
    S = Phi.T @ Phi
    lam, V = top_eigenpairs(S)
    W = V[:, :d_prime]
    if S.shape != W.shape:
        raise AssertionError(f"(8.12) equates a {S.shape} matrix with a {W.shape} one")
    assert_close(S / lam[0], W, EIGEN_IDENTITY, label="|S / lambda - W|")


def check_span(X, coef0, d_prime, *, power=1, shift=0):
    """(8.13)-(8.15) corrected: for each eigenpair (lambda_j, w_j) of S = sum phi phi^T
    with lambda_j > 0, alpha^j = Phi w_j / lambda_j^power (lambda_{j+shift} in a broken
    variant) gives w_j = sum_i alpha_i^j phi(x_i), and w_j has no component outside
    span{phi(x_i)}."""
    Phi = poly2_features(X, coef0)
    lam, V = top_eigenpairs(Phi.T @ Phi)
    keep = min(d_prime, int(np.sum(lam > 1e-8 * lam[0])))
    W = V[:, :keep]
    lam_used = lam[shift:shift + keep]
    alpha = Phi @ W / lam_used**power  # alpha_i^j = phi(x_i)^T w_j / lambda_j
    assert_close(Phi.T @ alpha, W, EIGEN_IDENTITY, label="|Phi^T alpha - W|")
    coef, *_ = scipy.linalg.lstsq(Phi.T, W)
    assert_close(Phi.T @ coef, W, EIGEN_IDENTITY,
                 label="component of w_j outside span{phi(x_i)}")
    evidence.add_examples()


@claim(
    id="kpca.span_8_13_8_15",
    source="003 §8.4 (8.12)-(8.15)",
    statement="Each eigenvector w_j of the feature-space scatter sum_i phi(x_i) phi(x_i)^T "
    "with a non-zero eigenvalue lambda_j lies in the span of the images: w_j = sum_i "
    "alpha_i^j phi(x_i) with alpha_i^j = phi(x_i)^T w_j / lambda_j (checked with the "
    "explicit feature map of (x^T z + c)^2).",
    method=Method.PROPERTY,
    tags=("dimred", "kpca"),
)
@given(data=kernel_data())
def span_8_13_8_15(data):
    X, _, coef0, d_prime = data
    check_span(X, coef0, d_prime)


def check_eigenproblem(X, coef0, d_prime, *, factor=1.0, center=True):
    """(8.16)-(8.17): K = Phi Phi^T; the alpha of (8.13) solve K alpha = lambda alpha; the
    non-zero spectra of K and of the scatter agree; our KernelPCA's eigenvalues (times
    ``factor`` in a broken variant) are those of the (centred, by J K J) kernel matrix of
    the explicit features and its eigenvectors satisfy K A = A Lambda."""
    Phi = poly2_features(X, coef0)
    m = X.shape[0]
    lam_S, V = top_eigenpairs(Phi.T @ Phi)
    K = Phi @ Phi.T  # (8.16) with the explicit features
    lam_K, _ = top_eigenpairs(K)
    r = int(np.sum(lam_S > 1e-8 * lam_S[0]))
    top = lam_S[0]
    assert_close(lam_K[:r] / top, lam_S[:r] / top, EIGEN_IDENTITY,
                 label="non-zero eigenvalues of K vs of the scatter")
    alpha = Phi @ V[:, :r] / lam_S[:r]
    assert_close(K @ alpha / top, alpha * lam_S[:r] / top, EIGEN_IDENTITY,
                 label="|K alpha - lambda alpha| / lambda_1")
    est = poly_kpca(coef0, center)(X, d_prime)
    if center:
        J = centring_matrix(m)
        K = J @ K @ J
    lam_ref, _ = top_eigenpairs(K)
    lam_ours = factor * est.eigenvalues_
    scale = max(lam_ref[0], 1e-300)
    assert_close(lam_ours / scale, lam_ref[:est.n_components_] / scale, EIGEN_IDENTITY,
                 label="KernelPCA eigenvalues vs eigh of the feature kernel matrix")
    A = est.eigenvectors_
    assert_close(K @ A / scale, A * lam_ours / scale, EIGEN_IDENTITY,
                 label="|K A - A Lambda| / lambda_1 (KernelPCA)")
    if center:
        check_rank_and_centring(X, coef0, Phi, K)
    evidence.add_examples()


def check_rank_and_centring(X, coef0, Phi, K_centred):
    """The centring function against J K J and against centred explicit features; with
    every component requested, KernelPCA keeps exactly the rank of the centred features;
    one more component has eigenvalue 0, alpha 0 and coordinate 0."""
    Phi_c = Phi - Phi.mean(axis=0)
    top = max(float(np.max(np.abs(K_centred))), 1e-300)
    assert_close(center_kernel_matrix(Phi @ Phi.T) / top, K_centred / top, EIGEN_IDENTITY,
                 label="center_kernel_matrix(K) vs J K J")
    Phi_q = poly2_features(X[:2] + 0.5, coef0)
    assert_close(center_kernel_matrix(Phi_q @ Phi.T, Phi @ Phi.T) / top,
                 (Phi_q - Phi.mean(axis=0)) @ Phi_c.T / top, EIGEN_IDENTITY,
                 label="centred test kernel vs centred explicit features")
    sv = scipy.linalg.svdvals(Phi_c)
    rank = int(np.sum(sv > 1e-6 * sv[0])) if sv[0] > 0 else 0
    full = poly_kpca(coef0)(X, None)
    assert full.n_components_ == max(rank, 1), (
        f"n_components=None kept {full.n_components_} components, rank is {rank}")
    if rank < X.shape[0]:
        extra = poly_kpca(coef0)(X, rank + 1)
        assert extra.eigenvalues_[rank] == 0.0 and np.all(extra.dual_coef_[:, rank] == 0), \
            "a numerically zero eigenvalue must give eigenvalue 0 and alpha 0"
        assert np.all(extra.transform(X)[:, rank] == 0)


@claim(
    id="kpca.eigenproblem_8_17",
    source="003 §8.4 (8.16)-(8.17)",
    statement="With kappa(x_i, x_j) = phi(x_i)^T phi(x_j) the coefficients of (8.13) solve "
    "the kernel eigenproblem K A = lambda A, whose non-zero eigenvalues are those of the "
    "feature scatter; kernel PCA takes the eigenvectors of the d' largest (our KernelPCA's "
    "eigenpairs checked against scipy's eigh of the explicit-feature kernel matrix, "
    "uncentred as printed and centred).",
    method=Method.PROPERTY,
    tags=("dimred", "kpca"),
)
@given(data=kernel_data(), center=st.booleans())
def eigenproblem_8_17(data, center):
    X, _, coef0, d_prime = data
    check_eigenproblem(X, coef0, d_prime, center=center)


def check_unit_directions(est, X, coef0, *, factor=1.0):
    """lambda_j alpha^jT alpha^j = 1 and the centred feature direction w_j =
    sum_i alpha_i^j phi~(x_i) has unit norm (``factor`` scales alpha in a broken variant)."""
    alpha = factor * est.dual_coef_
    lam = est.eigenvalues_
    assert_close(lam * np.sum(alpha**2, axis=0), np.ones(lam.shape), EIGEN_IDENTITY,
                 label="|lambda alpha^T alpha - 1|")
    Phi = poly2_features(X, coef0)
    Phi = Phi - Phi.mean(axis=0)
    W = Phi.T @ alpha
    assert_close(np.linalg.norm(W, axis=0), np.ones(lam.shape), EIGEN_IDENTITY,
                 label="| ||w_j|| - 1 |")


@claim(
    id="kpca.projection_8_18",
    source="003 §8.4 (8.18)",
    statement="With the kernel matrix centred in feature space and alpha^j scaled so that "
    "lambda_j alpha^jT alpha^j = 1 (unit-norm feature direction), the coordinates z_j(x) = "
    "sum_i alpha_i^j kappa~(x_i, x) of new points equal linear PCA on the explicit "
    "features phi(x) of (x^T z + c)^2, and scikit-learn's KernelPCA, up to the sign of each "
    "component.",
    method=Method.REFERENCE,
    tags=("dimred", "kpca"),
)
@given(data=kernel_data())
def projection_8_18(data):
    X, Q, coef0, d_prime = data
    with single_blas_thread():
        est = check_kpca_against_features(poly_kpca(coef0), X, Q, coef0, d_prime)
        check_unit_directions(est, X, coef0)
        ref = decomposition.KernelPCA(n_components=d_prime, kernel="poly", degree=2,
                                      gamma=1.0, coef0=coef0, eigen_solver="dense").fit(X)
        same_up_to_column_signs(est.transform(Q), ref.transform(Q), EIGEN_ROUNDING,
                                "KernelPCA vs scikit-learn (relative to max |z|)")


@claim(
    id="kpca.projection_8_18_uncentred_as_written",
    source="003 §8.4 (8.17)-(8.18)",
    statement="(As printed) kernel PCA takes the top eigenvectors of the kernel matrix K "
    "itself, and (8.18) projects a new point with kappa(x_i, x): with alpha scaled to unit "
    "feature-space norm, these are the coordinates of PCA on phi(x).",
    method=Method.PROPERTY,
    tags=("dimred", "kpca", "erratum"),
    expect=Expect.REFUTED,
    kind=ErratumKind.MISSING_CONDITION,
    corrected_by="kpca.projection_8_18",
    explanation="PCA (Fig 10.5 line 1) centres the data; the images phi(x_i) are not "
    "centred, and the notes never centre them. The uncentred K gives the principal axes "
    "of the second-moment matrix about the origin of feature space, not PCA; the centred "
    "K~ = K - 1K - K1 + 1K1 (and the test kernel centred the same way) does.",
)
@given(data=kernel_data())
def projection_8_18_uncentred_as_written(data):
    X, Q, coef0, d_prime = data
    check_kpca_against_features(poly_kpca(coef0, center=False), X, Q, coef0, d_prime)


@claim(
    id="kpca.projection_8_18_unit_alpha_as_written",
    source="003 §8.4 (8.17)-(8.18)",
    statement="(As printed) alpha^j in (8.18) is the eigenvector of the (centred) kernel "
    "matrix as an eigensolver returns it (unit norm), and z_j = sum_i alpha_i^j "
    "kappa(x_i, x) are then the PCA coordinates of phi(x).",
    method=Method.PROPERTY,
    tags=("dimred", "kpca", "erratum"),
    expect=Expect.REFUTED,
    kind=ErratumKind.MISSING_CONDITION,
    corrected_by="kpca.projection_8_18",
    explanation="A unit eigenvector a^j gives the feature direction w_j = sum_i a_i^j "
    "phi(x_i) of norm sqrt(lambda_j), so the coordinates come out sqrt(lambda_j) times too "
    "large. The projection needs W^T W = I, i.e. alpha^j = a^j / sqrt(lambda_j) "
    "(lambda_j alpha^jT alpha^j = 1), which the notes leave unsaid.",
)
@given(data=kernel_data())
def projection_8_18_unit_alpha_as_written(data):
    X, Q, coef0, d_prime = data
    check_kpca_against_features(poly_kpca(coef0), X, Q, coef0, d_prime, unit_alpha=True)


@functools.cache
def digits_subset() -> tuple[np.ndarray, np.ndarray]:
    """400 digits for fitting, the next 100 as new points, pixels scaled to [0, 1]."""
    X = load_digits().data / 16.0
    return X[:400], X[400:500]


@claim(
    id="kpca.digits",
    source="003 §8.4 (8.18)",
    statement="On the digits data (400 images fitted, 100 new ones projected) our kernel "
    "PCA with the Gaussian kernel (sigma = 2, 4) and the degree-2 polynomial kernel agrees "
    "with scikit-learn's KernelPCA: the same 10 eigenvalues and the same coordinates of "
    "the new points up to the sign of each component.",
    method=Method.REFERENCE,
    tags=("dimred", "kpca"),
)
def digits():
    X, Q = digits_subset()
    settings = [("rbf", {"sigma": 2.0}, {"gamma": 1 / 8.0}),
                ("rbf", {"sigma": 4.0}, {"gamma": 1 / 32.0}),
                ("poly", {"degree": 2, "coef0": 1.0}, {"degree": 2, "gamma": 1.0,
                                                        "coef0": 1.0})]
    with single_blas_thread():
        for kernel, ours_params, ref_params in settings:
            ours = KernelPCA(n_components=10, kernel=kernel, kernel_params=ours_params).fit(X)
            ref = decomposition.KernelPCA(n_components=10, kernel=kernel,
                                          eigen_solver="dense", **ref_params).fit(X)
            lam = ref.eigenvalues_
            gap = relative_eigengap(lam, 9)  # sign-only ambiguity needs distinct values
            assert gap > 1e-4, f"{kernel} {ours_params}: eigengap {gap:.2g} too small"
            assert_close(ours.eigenvalues_ / lam[0], lam / lam[0], EIGEN_IDENTITY,
                         label="eigenvalues vs scikit-learn (relative to the largest)")
            same_up_to_column_signs(ours.transform(Q), ref.transform(Q), EIGEN_ROUNDING,
                                    "digits: KernelPCA vs scikit-learn")
    evidence.add_examples(3)
