"""Shared check bodies and independent references of the linear dimred claims (003 §8.1,
§8.3, §8.4).

No claims are registered here. The references share no code with
:mod:`algorithms.dimred`: a kNN written with Python loops over queries and training
points (its own tie rules as parameters), the reconstruction error and projected variance
by direct sums over samples, explicit feature maps of the polynomial kernel, centring by
the matrix ``J = I - 11^T/m``. Every check body takes what it tests (or the variant of
the rule it applies) as an argument, so the teeth tests run the same body on broken
variants.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable
from contextlib import AbstractContextManager

import numpy as np
import scipy.linalg
from hypothesis import assume
from threadpoolctl import ThreadpoolController

from mltheory import evidence
from mltheory.numeric import Tolerance, assert_close

__all__ = [
    "EIGEN_ROUNDING",
    "KNN_MEAN_ROUNDING",
    "SUM_ROUNDING",
    "brute_force_knn",
    "centring_matrix",
    "check_kpca_against_features",
    "check_knn_matches_brute",
    "check_reconstruction_identity",
    "linear_pca_coordinates",
    "poly2_features",
    "projected_variance",
    "projector",
    "reconstruction_error",
    "relative_eigengap",
    "same_up_to_column_signs",
    "single_blas_thread",
]


@functools.cache
def _controller() -> ThreadpoolController:
    return ThreadpoolController()


def single_blas_thread() -> AbstractContextManager:
    """BLAS and OpenMP on one thread: the references' factorisations (scikit-learn's and
    scipy's SVD and eigensolvers) and scikit-learn's OpenMP neighbour search are
    milliseconds on one thread and many times slower when their threads compete on a
    loaded two-core machine."""
    return _controller().limit(limits=1)

#: Sums over m samples of squared norms: rounding of about m * d * eps relative to the
#: largest term; the identities are compared relative to sum_i ||x_i||^2.
SUM_ROUNDING = Tolerance(rtol=1e-10, atol=0.0,
                         reason="sums of m*d <= 300 products in float64 (error ~ m*d*eps "
                         "relative to sum ||x_i||^2), with 1e4 margin")
#: Eigenvectors of matrices with a relative eigengap >= 1e-3: perturbation theory
#: bounds their error by eps * lambda_max / gap ~ 1e-13 / 1e-3; a 1e-7 margin.
EIGEN_ROUNDING = Tolerance(rtol=0.0, atol=1e-7,
                           reason="symmetric eigensolvers/SVD are backward stable: "
                           "eigenvector error ~ eps * lambda_max / gap with relative gap "
                           ">= 1e-3 (asserted), compared relative to the largest entry")


# ---------------------------------------------------------------------------
# kNN
# ---------------------------------------------------------------------------


def brute_force_knn(X, y, Q, k, *, weights="uniform", vote_tie="smallest",
                    order_tie="index", regression=False):
    """kNN by definition, one query at a time (Python loops; shares nothing with ours).

    Neighbours: the training points sorted by (distance, index) (``order_tie="index"``)
    or (distance, -index) (``"reverse"``, a broken variant); the first k. Vote: counts or
    sums of 1/distance (zero distances: those neighbours alone, weight 1 each); a class
    within a relative 1e-9 of the largest vote ties; ``vote_tie`` picks the smallest or
    largest tied label. Regression: the (weighted) mean. Returns (predictions, indices).
    """
    preds, neighbours = [], []
    for q in Q:
        dist = [math.sqrt(sum((float(a) - float(b)) ** 2 for a, b in zip(q, x, strict=True)))
                for x in X]
        sign = 1 if order_tie == "index" else -1
        order = sorted(range(len(X)), key=lambda i, dist=dist: (dist[i], sign * i))[:k]
        neighbours.append(order)
        ds = [dist[i] for i in order]
        if weights == "uniform":
            w = [1.0] * k
        elif any(d == 0 for d in ds):
            w = [1.0 if d == 0 else 0.0 for d in ds]
        else:
            w = [1.0 / d for d in ds]
        if regression:
            preds.append(sum(wi * float(y[i]) for wi, i in zip(w, order, strict=True)) / sum(w))
            continue
        votes: dict = {}
        for wi, i in zip(w, order, strict=True):
            votes[y[i]] = votes.get(y[i], 0.0) + wi
        best = max(votes.values())
        tied = sorted(c for c, v in votes.items() if v >= best * (1 - 1e-9))
        preds.append(tied[0] if vote_tie == "smallest" else tied[-1])
    return np.array(preds), np.array(neighbours)


#: kNN regression means: weighted sums of k <= 30 targets in two summation orders.
KNN_MEAN_ROUNDING = Tolerance(rtol=1e-12, atol=1e-12,
                              reason="a weighted mean of at most 30 targets summed in "
                              "different orders (error ~ 30 eps relative to max |y|)")


def check_knn_matches_brute(est, problem, *, weights, regression=False, **rules) -> None:
    """``est`` (fitted on the problem's training set) finds the neighbours of the brute
    force reference in the same order and predicts what it predicts."""
    p = problem
    ref_pred, ref_idx = brute_force_knn(p.X, p.y, p.Q, p.k, weights=weights,
                                        regression=regression, **rules)
    _, idx = est.kneighbors(p.Q)
    if not np.array_equal(idx, ref_idx):
        bad = int(np.flatnonzero(np.any(idx != ref_idx, axis=1))[0])
        raise AssertionError(f"query {bad}: neighbours {idx[bad].tolist()} differ from the "
                             f"reference's {ref_idx[bad].tolist()}")
    pred = est.predict(p.Q)
    if regression:
        assert_close(pred, ref_pred, KNN_MEAN_ROUNDING, scale=float(np.max(np.abs(p.y))),
                     label="relative error of the kNN mean")
    elif not np.array_equal(pred, ref_pred):
        bad = int(np.flatnonzero(pred != ref_pred)[0])
        raise AssertionError(f"query {bad}: predicted {pred[bad]!r}, the reference "
                             f"{ref_pred[bad]!r} (neighbours {idx[bad].tolist()})")


# ---------------------------------------------------------------------------
# PCA
# ---------------------------------------------------------------------------


def reconstruction_error(X: np.ndarray, W: np.ndarray) -> float:
    """``sum_i || sum_j z_ij w_j - x_i ||^2`` with ``z_ij = w_j^T x_i`` (8.8), by a loop
    over samples (rows of X)."""
    total = 0.0
    for x in X:
        z = W.T @ x
        x_hat = W @ z  # sum_j z_ij w_j
        total += float(np.sum((x_hat - x) ** 2))
    return total


def projected_variance(X: np.ndarray, W: np.ndarray) -> float:
    """``tr(W^T (sum_i x_i x_i^T) W) = sum_i ||W^T x_i||^2`` (8.10), by a loop."""
    return float(sum(np.sum((W.T @ x) ** 2) for x in X))


def check_reconstruction_identity(X: np.ndarray, W: np.ndarray, *, const_factor: float = 1.0,
                                  trace_sign: float = -1.0) -> None:
    """(8.8): the reconstruction error equals its expansion
    ``sum z_i^T z_i - 2 sum z_i^T W^T x_i + sum ||x_i||^2`` and
    ``trace_sign * tr(W^T X X^T W) + const_factor * sum ||x_i||^2`` (the notes: -1, 1)."""
    lhs = reconstruction_error(X, W)
    Z = X @ W
    const = float(np.sum(X**2))
    middle = float(np.sum(Z * Z) - 2.0 * np.sum(Z * (X @ W)) + const)
    S = X.T @ X  # sum_i x_i x_i^T
    rhs = trace_sign * float(np.trace(W.T @ S @ W)) + const_factor * const
    assert_close(lhs, middle, SUM_ROUNDING, scale=const, label="(8.8) first equality error")
    assert_close(lhs, rhs, SUM_ROUNDING, scale=const, label="(8.8) trace form error")


def projector(W: np.ndarray) -> np.ndarray:
    """The orthogonal projector onto the column space of ``W`` (orthonormalised)."""
    Q, _ = np.linalg.qr(W)
    return Q @ Q.T


def same_up_to_column_signs(A: np.ndarray, B: np.ndarray, tol: Tolerance, label: str) -> None:
    """``A`` equals ``B`` after flipping the sign of each column of ``B`` to match."""
    if A.shape != B.shape:
        raise AssertionError(f"shape mismatch: {A.shape} vs {B.shape}")
    signs = np.sign(np.sum(A * B, axis=0))
    signs[signs == 0] = 1.0
    scale = max(float(np.max(np.abs(A))), float(np.max(np.abs(B))), 1e-300)
    assert_close(A / scale, B * signs / scale, tol, label=label)


def relative_eigengap(values: np.ndarray, count: int) -> float:
    """Smallest gap between consecutive values among the first ``count + 1`` (sorted
    descending), relative to the largest."""
    v = np.sort(values)[::-1][: count + 1]
    if v.shape[0] < 2 or v[0] <= 0:
        return math.inf
    return float(np.min(-np.diff(v)) / v[0])


# ---------------------------------------------------------------------------
# Kernel PCA
# ---------------------------------------------------------------------------


def poly2_features(X: np.ndarray, coef0: float) -> np.ndarray:
    """Explicit feature map of ``(x^T z + c)^2``: ``phi(x) = (vec(x x^T), sqrt(2c) x, c)``,
    so ``phi(x)^T phi(z) = (x^T z)^2 + 2c x^T z + c^2``."""
    outer = np.einsum("ni,nj->nij", X, X).reshape(X.shape[0], -1)
    parts = [outer]
    if coef0 > 0:
        parts += [math.sqrt(2.0 * coef0) * X, np.full((X.shape[0], 1), coef0)]
    return np.hstack(parts)


def centring_matrix(m: int) -> np.ndarray:
    """``J = I - 11^T / m``."""
    return np.eye(m) - np.full((m, m), 1.0 / m)


def linear_pca_coordinates(Phi: np.ndarray, Phi_q: np.ndarray, d_prime: int
                           ) -> tuple[np.ndarray, np.ndarray]:
    """Linear PCA (Fig 10.5, centred) on explicit feature vectors by ``scipy.linalg.eigh``
    of the scatter matrix: (coordinates of the query rows, eigenvalues descending)."""
    mean = Phi.mean(axis=0)
    C = Phi - mean
    lam, V = scipy.linalg.eigh(C.T @ C)
    lam, V = lam[::-1], V[:, ::-1]
    return (Phi_q - mean) @ V[:, :d_prime], lam


def check_kpca_against_features(fit_kpca: Callable, X: np.ndarray, Q: np.ndarray,
                                coef0: float, d_prime: int, *, unit_alpha: bool = False,
                                ):
    """KPCA coordinates of ``Q`` (from ``fit_kpca(X, d_prime)``, with ``z = K~_q alpha``,
    or with the unit eigenvectors in place of alpha when ``unit_alpha``) equal linear PCA
    on the explicit degree-2 feature vectors, up to the sign of each component. Returns
    the fitted estimator."""
    Phi, Phi_q = poly2_features(X, coef0), poly2_features(Q, coef0)
    ref, lam = linear_pca_coordinates(Phi, Phi_q, d_prime)
    if relative_eigengap(lam, d_prime) < 1e-3 or lam[d_prime - 1] <= 1e-6 * lam[0]:
        assume(False)  # top-d' directions not unique (or of no variance): sign-only fails
    est = fit_kpca(X, d_prime)
    if unit_alpha:
        Kq = est.kernel_(Q, est.X_fit_)
        if est.center_:
            Kq = Kq - Kq.mean(1, keepdims=True) - est.fit_column_means_ + est.fit_mean_
        ours = Kq @ est.eigenvectors_
    else:
        ours = est.transform(Q)
    same_up_to_column_signs(ours, ref, EIGEN_ROUNDING,
                            "KPCA vs linear PCA on phi(x) (relative to max |z|)")
    evidence.add_examples()
    return est

