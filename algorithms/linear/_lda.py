"""Linear discriminant analysis (Fisher): two-class and multi-class.

Two classes (003 §1.6, 004 §4.1): project on ``w = S_w^{-1}(mu_0 - mu_1)``,
with ``S_w^{-1}`` formed from the SVD of ``S_w`` as the notes suggest.
Several classes (003 §1.7, 004 §4.2): the columns of ``W`` are the generalised
eigenvectors of ``S_b W = S_w W Lambda`` for the ``M - 1`` largest eigenvalues.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass

import numpy as np
import scipy.linalg
from sklearn.base import BaseEstimator, ClassifierMixin, TransformerMixin

from algorithms._validation import (
    check_array_argument,
    check_int,
    check_real,
    check_squares_representable,
    validate_classification,
    validate_features,
    validate_labelled_sample,
)

__all__ = [
    "LinearDiscriminantAnalysis",
    "ScatterMatrices",
    "fisher_direction",
    "rayleigh_quotient",
    "scatter_matrices",
]

#: S_w (plus ``reg * I``) is treated as singular when its smallest eigenvalue is at
#: most this fraction of its largest: beyond a condition number of 1e10 the
#: generalised eigenvectors keep fewer than about 6 correct digits in float64.
SINGULAR_RTOL = 1e-10
#: Relative size of the ridge added to a singular S_w when ``reg=0``: the
#: regularised matrix has condition number at most about 1e8.
SINGULAR_JITTER = 1e-8
#: Features whose largest magnitude is below this are fitted after division by a power
#: of two: the scatter matrices hold their squares, which underflow below ~1e-154.
TINY_FEATURES = 2.0**-64


@dataclass(frozen=True)
class ScatterMatrices:
    """Class means and the scatter matrices of 003 (1.23), (1.27); 004 §4.2 (3).

    All scatter matrices are *sums* over samples, not averages.

    Attributes
    ----------
    classes : ndarray (M,)
    counts : ndarray (M,) of int, the class sizes ``m_i``
    means : ndarray (M, d), class means ``mu_i``
    overall_mean : ndarray (d,), ``mu``, the mean of all samples
    S_w : ndarray (d, d), ``sum_i sum_{x in D_i} (x - mu_i)(x - mu_i)^T``
    S_b : ndarray (d, d), ``sum_i m_i (mu_i - mu)(mu_i - mu)^T``
    S_t : ndarray (d, d), ``sum_x (x - mu)(x - mu)^T``
    class_scatters : ndarray (M, d, d), ``S_wi`` for each class
    """

    classes: np.ndarray
    counts: np.ndarray
    means: np.ndarray
    overall_mean: np.ndarray
    S_w: np.ndarray
    S_b: np.ndarray
    S_t: np.ndarray
    class_scatters: np.ndarray


def scatter_matrices(X: object, y: object) -> ScatterMatrices:
    """Compute class means and the within-, between- and total-class scatter matrices.

    Parameters
    ----------
    X : array-like of shape (N, d)
    y : array-like of shape (N,), at least one class (a single class gives ``S_b = 0``)

    Returns
    -------
    ScatterMatrices

    Notes
    -----
    003 (1.27): ``S_w = sum_i S_wi``, ``S_b = sum_i m_i (mu_i - mu)(mu_i - mu)^T``,
    ``S_t = sum_x (x - mu)(x - mu)^T``. The between-class scatter carries the class
    weights ``m_i``; with them ``S_t = S_w + S_b`` exactly.
    """
    X_arr, _, classes, idx = validate_labelled_sample(X, y, min_classes=1)
    return _scatter_from_index(X_arr, classes, idx)


def _scatter_from_index(X_arr: np.ndarray, classes: np.ndarray, idx: np.ndarray) -> ScatterMatrices:
    """:func:`scatter_matrices` on validated input (``idx`` indexes ``classes``)."""
    check_squares_representable(X_arr, "X")
    M, d = classes.shape[0], X_arr.shape[1]
    counts = np.bincount(idx, minlength=M)
    sums = np.zeros((M, d))
    np.add.at(sums, idx, X_arr)
    means = sums / counts[:, None]
    mu = X_arr.mean(axis=0)
    centred = X_arr - means[idx]
    # Per-class scatter S_wi: one matrix product per class (a loop over classes, not samples).
    order = np.argsort(idx, kind="stable")
    bounds = np.concatenate([[0], np.cumsum(counts)])
    grouped = centred[order]
    class_scatters = np.stack(
        [grouped[bounds[k] : bounds[k + 1]].T @ grouped[bounds[k] : bounds[k + 1]]
         for k in range(M)]
    )
    S_w = class_scatters.sum(axis=0)
    dm = means - mu
    S_b = (dm * counts[:, None]).T @ dm
    Xc = X_arr - mu
    S_t = Xc.T @ Xc
    return ScatterMatrices(
        classes=classes,
        counts=counts,
        means=means,
        overall_mean=mu,
        S_w=(S_w + S_w.T) / 2,
        S_b=(S_b + S_b.T) / 2,
        S_t=(S_t + S_t.T) / 2,
        class_scatters=class_scatters,
    )


def fisher_direction(
    S_w: np.ndarray, mu0: np.ndarray, mu1: np.ndarray, *, rcond: float = 1e-15
) -> np.ndarray:
    """The two-class LDA direction ``w = S_w^{-1}(mu_0 - mu_1)`` (003 (1.26)).

    ``S_w^{-1}`` is formed from the SVD ``S_w = U Sigma V^T`` as ``V Sigma^{-1} U^T``
    (004 §4.1.2 (3)); singular values at most ``rcond * sigma_max`` are dropped
    (the pseudo-inverse), so a singular ``S_w`` gives the minimum-norm solution of
    ``S_w w = mu_0 - mu_1`` in the least-squares sense.

    With this sign ``w^T mu_0 - w^T mu_1 = (mu_0 - mu_1)^T S_w^{-1} (mu_0 - mu_1) > 0``:
    class 0 projects *above* class 1.
    """
    S_w = check_array_argument(S_w, "S_w", ndim=2, real=True)
    d = S_w.shape[0]
    if S_w.shape != (d, d):
        raise ValueError(f"S_w must be a square matrix, got shape {S_w.shape}.")
    mu0 = check_array_argument(mu0, "mu0", shape=(d,), real=True)
    mu1 = check_array_argument(mu1, "mu1", shape=(d,), real=True)
    rcond = check_real(rcond, "rcond", low=0.0, high=1.0)
    U, s, Vt = np.linalg.svd(S_w)
    keep = s > rcond * (s[0] if s.size else 0.0)
    delta = mu0 - mu1
    coords = (U[:, keep].T @ delta) / s[keep]
    return Vt[keep].T @ coords


def rayleigh_quotient(W: object, S_b: np.ndarray, S_w: np.ndarray) -> np.ndarray:
    """The generalised Rayleigh quotient ``J = w^T S_b w / w^T S_w w`` (003 (1.25)).

    ``W`` holds one direction per row (shape (k, d)) or is a single vector (d,);
    returns an array of k quotients (or a float). Zero denominators give ``inf``
    (or ``nan`` for 0/0), never a silent finite value.
    """
    S_b = check_array_argument(S_b, "S_b", ndim=2, real=True)
    d = S_b.shape[0]
    S_b = check_array_argument(S_b, "S_b", shape=(d, d), real=True)
    S_w = check_array_argument(S_w, "S_w", shape=(d, d), real=True)
    W_arr = check_array_argument(W, "W", real=True)
    if W_arr.ndim not in (1, 2) or W_arr.shape[-1] != d:
        raise ValueError(f"W must have shape (d,) or (k, d) with d = {d}, got {W_arr.shape}.")
    single = W_arr.ndim == 1
    W2 = np.atleast_2d(W_arr)
    # J is invariant to the length of each w: divide each row by a power of two near its
    # largest entry (exact), so the quadratic forms neither overflow nor underflow
    top = np.max(np.abs(W2), axis=1, keepdims=True)
    W2 = W2 / np.where(top > 0, 2.0 ** np.round(np.log2(np.where(top > 0, top, 1.0))), 1.0)
    num = np.einsum("ki,ij,kj->k", W2, S_b, W2)
    den = np.einsum("ki,ij,kj->k", W2, S_w, W2)
    with np.errstate(divide="ignore", invalid="ignore"):
        J = num / den
    return float(J[0]) if single else J


class LinearDiscriminantAnalysis(ClassifierMixin, TransformerMixin, BaseEstimator):
    """Fisher's linear discriminant analysis, as a classifier and as a transformer.

    Parameters
    ----------
    n_components : int or None, default None
        Dimension of the projection, at most ``min(M - 1, d)`` (the rank bound of
        ``S_b``); ``None`` uses that maximum.
    reg : float >= 0, default 0.0
        Ridge added to the within-class scatter: ``S_w + reg * I``. With ``reg=0`` and
        a numerically singular ``S_w`` (smallest eigenvalue at most ``1e-10`` times the
        largest), a ridge ``1e-8 * trace(S_w) / d`` is added instead and a
        :class:`scipy.linalg.LinAlgWarning` is emitted; ``reg_`` reports what was used.

    Attributes
    ----------
    classes_ : ndarray (M,)
    means_ : ndarray (M, d), class means ``mu_i``
    xbar_ : ndarray (d,), the mean of all training samples
    class_counts_ : ndarray (M,), ``m_i``
    S_w_, S_b_, S_t_ : ndarray (d, d), scatter matrices (sums, 003 (1.27)); ``S_w_``
        excludes the ridge
    reg_ : float, the ridge actually added to ``S_w``
    w_ : ndarray (d,), two classes only: ``(S_w + reg_ I)^{-1} (mu_0 - mu_1)`` (003 (1.26))
    scalings_ : ndarray (d, n_components_), projection ``W`` normalised so that
        ``W^T (S_w + reg_ I) W = I``
    eigenvalues_ : ndarray (n_components_,), generalised eigenvalues of
        ``(S_b, S_w + reg_ I)`` for the kept directions, decreasing
    projected_means_ : ndarray (M, n_components_), ``(mu_i - xbar)^T W``
    n_components_ : int
    n_features_in_ : int

    Notes
    -----
    *Two classes* (003 §1.6 (1.22)–(1.26); 004 §4.1): ``w = S_w^{-1}(mu_0 - mu_1)``
    with ``S_w^{-1} = V Sigma^{-1} U^T`` from the SVD of ``S_w``; it maximises
    ``J = w^T S_b w / w^T S_w w`` with ``S_b = (mu_0 - mu_1)(mu_0 - mu_1)^T``. The only
    projection column is ``w`` rescaled to unit ``S_w``-norm, so class 0 projects
    above class 1.

    *M classes* (003 §1.7 (1.27)–(1.29); 004 §4.2): ``W`` holds the generalised
    eigenvectors of ``S_b w = lambda S_w w`` (``scipy.linalg.eigh(S_b, S_w)``) for
    the largest eigenvalues; ``rank S_b <= M - 1`` so at most ``M - 1`` are non-zero.

    *Decision rule*: a sample is projected, ``z = W^T (x - xbar)``, and assigned to
    the class whose projected centre ``W^T (mu_i - xbar)`` is nearest in Euclidean
    distance (ties go to the first class in ``classes_``). With two classes this
    is the threshold at the midpoint ``w^T (mu_0 + mu_1) / 2``: class 0 iff
    ``w^T x`` lies above it. The rule ignores class priors; with equal priors and
    Gaussian classes sharing one covariance it is the Bayes rule (003 §1.6, last
    paragraph), since ``W^T S_w W = I`` makes projected distances Mahalanobis ones.

    References
    ----------
    003 §1.6–§1.7, (1.22)–(1.29); 004 §4.1–§4.2.
    """

    def __init__(self, *, n_components: int | None = None, reg: float = 0.0) -> None:
        self.n_components = n_components
        self.reg = reg

    def fit(self, X: object, y: object) -> LinearDiscriminantAnalysis:
        """Fit the projection and the projected class centres.

        Parameters
        ----------
        X : array-like (N, d), finite
        y : array-like (N,), at least two classes

        Returns
        -------
        self
        """
        reg = check_real(self.reg, "reg", low=0.0)
        X_arr, idx = validate_classification(self, X, y, min_classes=2)
        # Tiny features: their squares (the scatter matrices) would underflow. LDA is
        # scale-invariant, so fit on X divided by a power of two (exact) and map back.
        top = float(np.max(np.abs(X_arr)))
        scale = 2.0 ** round(np.log2(top)) if 0.0 < top < TINY_FEATURES else 1.0
        reg = reg / scale / scale if reg > 0 else 0.0  # (scale^2 itself may underflow)
        if not np.isfinite(reg):
            raise ValueError(f"reg={self.reg!r} is too large for features of magnitude "
                             f"{top:.3g}: reg / max|X|^2 overflows; rescale X or reg.")
        sc = _scatter_from_index(X_arr / scale, self.classes_, idx)
        M, d = sc.classes.shape[0], X_arr.shape[1]
        k_max = min(M - 1, d)
        if self.n_components is None:
            k = k_max
        else:
            k = check_int(self.n_components, "n_components", low=1)
            if k > k_max:
                raise ValueError(
                    f"n_components must be at most min(n_classes - 1, n_features) = {k_max}, "
                    f"got {self.n_components!r}."
                )

        reg_used = reg
        eig = np.linalg.eigvalsh(sc.S_w + reg * np.eye(d))
        if eig[-1] <= 0.0 or eig[0] <= SINGULAR_RTOL * eig[-1]:
            if reg == 0.0:
                scale = np.trace(sc.S_w) / d
                if scale <= 0.0:  # every class is a single repeated point
                    scale = np.trace(sc.S_t) / d if np.trace(sc.S_t) > 0 else 1.0
                reg_used = SINGULAR_JITTER * scale
                warnings.warn(
                    "the within-class scatter S_w is singular (collinear features or too "
                    f"few samples per class); adding reg_={reg_used:.3g} times the identity. "
                    "Pass reg > 0 to choose the ridge.",
                    scipy.linalg.LinAlgWarning,
                    stacklevel=2,
                )
            else:
                raise ValueError(
                    f"S_w + reg * I is numerically singular for reg={reg!r}; choose a larger reg."
                )
        S_w_reg = sc.S_w + reg_used * np.eye(d)

        if M == 2:
            w = fisher_direction(S_w_reg, sc.means[0], sc.means[1])
            norm = float(np.sqrt(max(w @ S_w_reg @ w, 0.0)))
            W = (w / norm)[:, None] if norm > 0 else np.zeros((d, 1))
            delta = sc.means[0] - sc.means[1]
            # eigenvalue w.r.t. the class-weighted S_b of (1.27): (m0 m1 / N) delta^T S_w^-1 delta
            lam = np.array([sc.counts[0] * sc.counts[1] / X_arr.shape[0] * float(delta @ w)])
            self.w_ = w
        else:
            evals, evecs = scipy.linalg.eigh(sc.S_b, S_w_reg)
            order = np.argsort(evals)[::-1][:k]
            lam, W = evals[order], evecs[:, order]
            # Deterministic signs: the largest-magnitude entry of each column is positive.
            pivot = np.argmax(np.abs(W), axis=0)
            W = W * np.where(W[pivot, np.arange(k)] < 0, -1.0, 1.0)

        self.classes_ = sc.classes
        self.class_counts_ = sc.counts
        self.means_ = sc.means * scale
        self.xbar_ = sc.overall_mean * scale
        self.S_w_, self.S_b_, self.S_t_ = (S * scale * scale for S in (sc.S_w, sc.S_b, sc.S_t))
        self.reg_ = reg_used * scale * scale
        if M == 2:
            self.w_ = self.w_ / scale
        self.scalings_ = W / scale
        self.eigenvalues_ = np.maximum(lam, 0.0)
        self.n_components_ = k
        self.projected_means_ = (sc.means - sc.overall_mean) @ W
        return self

    def transform(self, X: object) -> np.ndarray:
        """Project samples: ``Z = (X - xbar) W``, shape (N, n_components_)."""
        X_arr = validate_features(self, X, reset=False)
        return (X_arr - self.xbar_) @ self.scalings_

    def decision_function(self, X: object) -> np.ndarray:
        """Scores from the nearest-projected-centre rule.

        Returns minus the squared projected distance to each class centre, shape
        (N, M); with two classes a single column (N,) whose positive values mean
        ``classes_[1]`` (the difference of the two scores).
        """
        Z = self.transform(X)
        C = self.projected_means_
        sq = (
            np.einsum("nk,nk->n", Z, Z)[:, None]
            - 2.0 * Z @ C.T
            + np.einsum("mk,mk->m", C, C)[None, :]
        )
        scores = -np.maximum(sq, 0.0)
        if self.classes_.shape[0] == 2:
            return scores[:, 1] - scores[:, 0]
        return scores

    def predict(self, X: object) -> np.ndarray:
        """Class of the nearest projected centre (ties: the first class in ``classes_``)."""
        scores = self.decision_function(X)
        if scores.ndim == 1:
            return self.classes_[(scores > 0).astype(int)]
        return self.classes_[np.argmax(scores, axis=1)]
