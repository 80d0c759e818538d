"""Principal component analysis (003 §8.3 (8.7)-(8.11), Fig 10.5): the reconstruction
identity (8.8), the equivalence of minimum reconstruction error and maximum projected
variance (8.9)-(8.10), the eigenvector solution (8.11) with Ky Fan's maximum, and the
centring of Fig 10.5 line 1. Errata: (8.8)'s "proportional to" (an additive constant, not
a factor), (8.11)'s scalar lambda (a diagonal matrix), and "X X^T is the covariance
matrix" (m times it)."""

from __future__ import annotations

import numpy as np
import scipy.linalg
from hypothesis import given
from hypothesis import strategies as st
from sklearn import decomposition
from sklearn.datasets import load_digits

from algorithms.dimred import PCA
from mltheory import ErratumKind, Expect, Method, claim, evidence
from mltheory.numeric import Tolerance, assert_close, assert_leq
from properties.dimred.strategies_linear import (
    SEEDS,
    near_frame,
    orthonormal_frame,
    spectral_data,
)
from properties.dimred.support_linear import (
    EIGEN_ROUNDING,
    SUM_ROUNDING,
    check_reconstruction_identity,
    projected_variance,
    projector,
    reconstruction_error,
    single_blas_thread,
)

#: Eigen-equation residuals ||S W - W Lambda|| relative to lambda_1: backward-stable SVD.
EIGEN_RESIDUAL = Tolerance(rtol=0.0, atol=1e-10,
                           reason="the SVD is backward stable: ||S W - W Lambda|| ~ "
                           "d * eps * lambda_1; compared relative to lambda_1, 1e5 margin")


def frames(rng, d, d_prime, W_opt, count=6):
    """Random orthonormal frames and frames near the optimum (eps from 1e-1 to 1e-4)."""
    out = [orthonormal_frame(rng, d, d_prime) for _ in range(count)]
    out += [near_frame(rng, W_opt, eps) for eps in (1e-1, 1e-2, 1e-3, 1e-4)]
    return out


@claim(
    id="pca.reconstruction_8_8",
    source="003 §8.3 (8.8)",
    statement="For any d x d' matrix W with orthonormal columns and z_i = W^T x_i, the "
    "reconstruction error sum_i ||sum_j z_ij w_j - x_i||^2 equals sum_i z_i^T z_i - "
    "2 sum_i z_i^T W^T x_i + const and equals -tr(W^T (sum_i x_i x_i^T) W) + "
    "sum_i ||x_i||^2 (the constant being sum_i ||x_i||^2).",
    method=Method.PROPERTY,
    tags=("dimred", "pca"),
)
@given(data=spectral_data(), seed=SEEDS, use_pca=st.booleans())
def reconstruction_8_8(data, seed, use_pca):
    X = data.X - data.X.mean(axis=0)
    d = X.shape[1]
    W = (PCA(n_components=data.d_prime).fit(X).components_.T if use_pca
         else orthonormal_frame(np.random.default_rng(seed), d, data.d_prime))
    check_reconstruction_identity(X, W)
    evidence.add_examples()


@claim(
    id="pca.reconstruction_8_8_as_written",
    source="003 §8.3 (8.8)",
    statement="(As printed) the reconstruction error of (8.8) is proportional to "
    "-tr(W^T (sum_i x_i x_i^T) W): their ratio is the same for every orthonormal W.",
    method=Method.PROPERTY,
    tags=("dimred", "pca", "erratum"),
    expect=Expect.REFUTED,
    kind=ErratumKind.SHORTHAND,
    corrected_by="pca.reconstruction_8_8",
    explanation="(8.8) writes the error as 'proportional to' -tr(W^T X X^T W); it is equal "
    "to it plus the constant sum_i ||x_i||^2, not a multiple of it (the error is >= 0 while "
    "-tr(...) <= 0, and their ratio changes with W). The minimisers are the same, which is "
    "all the derivation uses.",
)
@given(data=spectral_data(), seed=SEEDS)
def reconstruction_8_8_as_written(data, seed):
    X = data.X - data.X.mean(axis=0)
    rng = np.random.default_rng(seed)
    d = X.shape[1]
    ratios = []
    for _ in range(2):
        W = orthonormal_frame(rng, d, data.d_prime)
        ratios.append(reconstruction_error(X, W) / -projected_variance(X, W))
    assert_close(ratios[0], ratios[1], SUM_ROUNDING, label="ratio difference")


@claim(
    id="pca.recon_equals_variance_8_9_8_10",
    source="003 §8.3 (8.9)-(8.10)",
    statement="Minimising the reconstruction error (8.9), i.e. -tr(W^T X X^T W) subject to "
    "W^T W = I, and maximising the projected variance tr(W^T X X^T W) (8.10) give the same "
    "solutions: on centred data error + variance = sum_i ||x_i||^2 for every orthonormal "
    "W, so every candidate set is ordered the same way by both, and the PCA frame is best "
    "for both among random frames and frames near it.",
    method=Method.PROPERTY,
    tags=("dimred", "pca"),
)
@given(data=spectral_data(), seed=SEEDS)
def recon_equals_variance_8_9_8_10(data, seed):
    check_same_optimiser(data.X, data.d_prime, np.random.default_rng(seed))


def check_same_optimiser(X_raw, d_prime, rng, *, const_factor=1.0, pick=None):
    """The identity error + variance = const_factor * sum ||x||^2 on every candidate, and
    the frame from ``pick(est)`` (default: PCA's W) is the best for both objectives."""
    est = PCA(n_components=d_prime).fit(X_raw)
    X = X_raw - est.mean_
    W_opt = est.components_.T if pick is None else pick(est)
    candidates = [W_opt, *frames(rng, X.shape[1], d_prime, est.components_.T)]
    errors = np.array([reconstruction_error(X, W) for W in candidates])
    variances = np.array([projected_variance(X, W) for W in candidates])
    total = float(np.sum(X**2))
    assert_close(errors + variances, np.full(errors.shape, const_factor * total),
                 SUM_ROUNDING, scale=total, label="|error + variance - sum ||x||^2|")
    slack = SUM_ROUNDING.rtol * total
    assert errors[0] <= errors.min() + slack, "the PCA frame is not the error minimiser"
    assert variances[0] >= variances.max() - slack, "the PCA frame is not the variance maximiser"
    evidence.worst("best other frame's variance / PCA's", float(np.max(variances[1:]) /
                                                                 max(variances[0], 1e-300)))
    evidence.add_examples()


@claim(
    id="pca.eigen_solution_8_11_as_written",
    source="003 §8.3 (8.11)",
    statement="(As printed) the solution W = (w_1, ..., w_d') satisfies X X^T W = lambda W "
    "for a scalar lambda.",
    method=Method.PROPERTY,
    tags=("dimred", "pca", "erratum"),
    expect=Expect.REFUTED,
    kind=ErratumKind.SYMBOL,
    corrected_by="pca.eigen_solution_8_11",
    explanation="The Lagrangian of (8.10) has one multiplier per column (a diagonal matrix "
    "Lambda), so the stationarity condition is X X^T W = W Lambda, i.e. X X^T w_j = "
    "lambda_j w_j column by column. With one scalar lambda every column would share an "
    "eigenvalue, false for d' >= 2 distinct eigenvalues.",
)
@given(data=spectral_data())
def eigen_solution_8_11_as_written(data):
    est = PCA(n_components=data.d_prime).fit(data.X)
    X = data.X - est.mean_
    S = X.T @ X
    W = est.components_.T
    SW = S @ W
    lam = float(np.sum(SW * W) / np.sum(W * W))  # the best scalar (least squares)
    assert_close(SW / est.scatter_eigenvalues_[0], lam * W / est.scatter_eigenvalues_[0],
                 EIGEN_RESIDUAL, label="||X X^T W - lambda W|| / lambda_1")


def check_ky_fan(X_raw, d_prime, rng, *, offset=0, factor=1.0, W_of=None):
    """Ky Fan: tr(W^T S W) over orthonormal W is at most factor * (sum of the d' largest
    eigenvalues, from index ``offset``), random and near-optimal frames included, with
    equality at PCA's W (or at ``W_of(est)``); X X^T W = W Lambda."""
    est = PCA(n_components=d_prime).fit(X_raw)
    X = X_raw - est.mean_
    S = X.T @ X
    lam = scipy.linalg.eigvalsh(S)[::-1]  # independent eigensolver of the scatter matrix
    bound = factor * float(np.sum(lam[offset:offset + d_prime]))
    W_pca = est.components_.T if W_of is None else W_of(est)
    top = lam[0]
    assert_close(S @ W_pca / top, W_pca * lam[:d_prime] / top, EIGEN_RESIDUAL,
                 label="||X X^T W - W Lambda|| / lambda_1")
    assert_close(projected_variance(X, W_pca), bound, SUM_ROUNDING,
                 label="|tr(W^T S W) - sum of top eigenvalues| (PCA frame)")
    for W in frames(rng, X.shape[1], d_prime, est.components_.T):
        assert_leq(float(np.trace(W.T @ S @ W)), bound, tol=SUM_ROUNDING,
                   label="tr(W^T S W) / Ky Fan maximum")
    evidence.add_examples()


@claim(
    id="pca.eigen_solution_8_11",
    source="003 §8.3 (8.11), Fig 10.5",
    statement="The top-d' eigenvectors W of X X^T (centred) satisfy X X^T W = W Lambda, "
    "attain tr(W^T X X^T W) = lambda_1 + ... + lambda_d', and no orthonormal W exceeds "
    "that (Ky Fan; random frames and frames within 1e-4 of the optimum tried); the "
    "eigenvalues agree with scipy.linalg.eigvalsh and the subspace with scikit-learn's PCA "
    "(projectors compared), on drawn spectra and on the digits data.",
    method=Method.REFERENCE,
    tags=("dimred", "pca", "bound"),
)
@given(data=spectral_data(), seed=SEEDS)
def eigen_solution_8_11(data, seed):
    rng = np.random.default_rng(seed)
    with single_blas_thread():
        check_ky_fan(data.X, data.d_prime, rng)
        check_sklearn_subspace(data.X, data.d_prime)


def check_sklearn_subspace(X, d_prime):
    """Same principal subspace as scikit-learn's PCA (projectors within EIGEN_ROUNDING)."""
    ours = PCA(n_components=d_prime).fit(X)
    ref = decomposition.PCA(n_components=d_prime, svd_solver="full").fit(X)
    assert_close(projector(ours.components_.T), projector(ref.components_.T), EIGEN_ROUNDING,
                 label="||P_ours - P_sklearn||_max")
    assert_close(ours.explained_variance_, ref.explained_variance_, EIGEN_ROUNDING,
                 scale=float(ref.explained_variance_[0]),
                 label="explained variance vs scikit-learn (relative to the largest)")


@claim(
    id="pca.digits",
    source="003 §8.3 (8.11), Fig 10.5",
    statement="On the digits data (1797 images, 64 pixels) the PCA frames for d' = 2, 10, "
    "30 attain Ky Fan's maximum, beat random and near-optimal frames, span the subspace of "
    "scikit-learn's PCA, and the variance-threshold choice of d' (smallest d' keeping at "
    "least 90 % / 95 % of the eigenvalue sum) matches the count computed from "
    "scipy.linalg.eigvalsh.",
    method=Method.REFERENCE,
    tags=("dimred", "pca", "bound"),
)
def digits(rng):
    with single_blas_thread():
        check_digits(load_digits().data, rng)


def check_digits(X, rng):
    """The digits checks of :func:`digits`."""
    for d_prime in (2, 10, 30):
        check_ky_fan(X, d_prime, rng)
        check_sklearn_subspace(X, d_prime)
    lam = scipy.linalg.eigvalsh(np.cov(X.T))[::-1]
    for t in (0.9, 0.95):
        want = int(np.argmax(np.cumsum(lam) / lam.sum() >= t)) + 1
        got = PCA(variance_threshold=t).fit(X).n_components_
        assert got == want, f"threshold {t}: d' = {got}, expected {want}"
        evidence.record(f"d' keeping {t:.0%} of the variance", got)


@claim(
    id="pca.covariance_as_written",
    source="003 §8.3 (after (8.8)), Fig 10.5 line 2",
    statement="(As printed) for centred data, sum_i x_i x_i^T = X X^T is the covariance "
    "matrix of the sample.",
    method=Method.PROPERTY,
    tags=("dimred", "pca", "erratum"),
    expect=Expect.REFUTED,
    kind=ErratumKind.SHORTHAND,
    corrected_by="pca.centering",
    explanation="X X^T is the scatter matrix, m times the (biased) sample covariance "
    "(m - 1 times the unbiased one). Eigenvectors, and hence W, are the same; the "
    "eigenvalues, and any explained-variance threshold on their absolute size, scale by m.",
)
@given(data=spectral_data())
def covariance_as_written(data):
    X = data.X - data.X.mean(axis=0)
    cov = np.cov(X.T, bias=True)  # the most favourable reading: 1/m
    top = float(np.max(np.abs(cov)))
    assert_close(X.T @ X / top, cov / top, SUM_ROUNDING,
                 label="|X X^T - cov| / max |cov|")


def check_centering(X, Q, *, ddof=1, stored_mean=True):
    """Fig 10.5 line 1: centred training data sum to 0; X X^T = (m - ddof) * covariance
    with the same ddof; transform of new points subtracts the stored training mean."""
    m = X.shape[0]
    est = PCA().fit(X)
    Xc = X - est.mean_
    size = float(np.max(np.abs(X)))
    assert_close(Xc.sum(axis=0), np.zeros(X.shape[1]), SUM_ROUNDING, scale=m * size,
                 label="|sum_i (x_i - mean)| / (m max|x|)")
    Z = est.transform(X)
    assert_close(Z.sum(axis=0), np.zeros(Z.shape[1]), SUM_ROUNDING, scale=m * size,
                 label="|sum_i z_i| / (m max|x|)")
    cov = np.cov(X.T, ddof=1)
    S = Xc.T @ Xc
    assert_close(S, (m - ddof) * cov, SUM_ROUNDING, scale=float(np.max(np.abs(S))),
                 label="|X X^T - (m - 1) cov|")
    assert_close(est.explained_variance_, scipy.linalg.eigvalsh(cov)[::-1][: est.n_components_],
                 SUM_ROUNDING, scale=float(np.max(np.abs(cov))) * X.shape[1],
                 label="explained variance vs eigenvalues of the covariance")
    centre = est.mean_ if stored_mean else Q.mean(axis=0)
    want = (Q - centre) @ est.components_.T
    assert_close(est.transform(Q), want, SUM_ROUNDING, scale=size * X.shape[1],
                 label="new points: W^T (x - training mean)")
    evidence.add_examples()


@claim(
    id="pca.centering",
    source="003 §8.3 Fig 10.5 line 1",
    statement="After x_i <- x_i - mean the samples sum to 0 and X X^T is m - 1 times the "
    "(unbiased) sample covariance, so its eigenvectors are the covariance's and its "
    "eigenvalues m - 1 times the explained variances; new points are projected as "
    "W^T (x - mean) with the stored training mean (not their own).",
    method=Method.PROPERTY,
    tags=("dimred", "pca"),
)
@given(data=spectral_data(), seed=SEEDS)
def centering(data, seed):
    rng = np.random.default_rng(seed)
    Q = data.X[rng.integers(0, data.X.shape[0], size=3)] + rng.normal(size=(3, data.X.shape[1]))
    check_centering(data.X, Q)
