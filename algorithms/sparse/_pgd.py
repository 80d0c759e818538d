"""LASSO by proximal gradient descent in the notes' parametrisation, and scalar proximal
maps of separable regularisers.

003 §10.4 minimises ``f(w) + lambda ||w||_1`` with ``f(w) = ||y - X w||^2`` (no 1/2):
``grad f(w) = -2 X^T (y - X w)`` is Lipschitz with ``L = 2 lambda_max(X^T X)``, a step
is the gradient step ``z = w - grad f(w) / L`` (10.10) followed by componentwise
soft-thresholding at ``lambda / L`` (10.13).

The linear family's :func:`algorithms.linear.solve_l1_l2` (``solver="ista"``) runs the
same recursion but keeps only objective and gap values and fixes ``L``; the claims of
003 §10.4 read the iterates themselves and run the recursion with another constant (the
one the printed (10.8) would give), so the loop is written here, on top of the public
:func:`algorithms.linear.soft_threshold`.

References
----------
003 §10.4 (10.7)-(10.13).
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass, field

import numpy as np
from sklearn.base import BaseEstimator, RegressorMixin
from sklearn.exceptions import ConvergenceWarning
from sklearn.metrics import r2_score

from algorithms._validation import (
    check_array_argument,
    check_bool,
    check_choice,
    check_int,
    check_real,
    check_squares_representable,
    validate_features,
    validate_regression,
)
from algorithms.linear import soft_threshold

__all__ = [
    "PENALTIES",
    "PGDResult",
    "ProximalGradientLasso",
    "lasso_duality_gap",
    "lasso_objective",
    "lipschitz_constant",
    "proximal_gradient_lasso",
    "prox_kinked",
    "prox_penalty",
]

#: The separable regularisers g of :func:`prox_penalty` (003 §10.4, L1 paragraph).
PENALTIES = ("l1", "l1/2", "elastic_net", "l2")


def lipschitz_constant(X: object) -> float:
    """``L = 2 lambda_max(X^T X)``, the Lipschitz constant of ``grad ||y - X w||^2``.

    Parameters
    ----------
    X : array-like of shape (n, d)

    Returns
    -------
    float
        ``2 ||X||_2^2`` (the largest squared singular value, doubled); 0 for ``X = 0``.

    Notes
    -----
    ``||grad f(w') - grad f(w)|| = 2 ||X^T X (w' - w)|| <= 2 lambda_max ||w' - w||``,
    with equality along the top eigenvector: the smallest constant of the (unsquared)
    Lipschitz condition behind 003 (10.8).
    """
    X_arr = check_array_argument(X, "X", ndim=2, real=True)
    check_squares_representable(X_arr, "X")
    return _lipschitz(X_arr)


def _lipschitz(X: np.ndarray, gram: np.ndarray | None = None) -> float:
    """``2 lambda_max`` of the smaller Gram matrix (``X^T X`` or ``X X^T``, same non-zero
    spectrum): a symmetric eigenvalue problem, cheaper than the SVD behind a 2-norm."""
    if X.size == 0:
        return 0.0
    if gram is None:
        gram = X.T @ X if X.shape[0] >= X.shape[1] else X @ X.T
    # all eigenvalues by divide and conquer: LAPACK's subset driver (syevr) raised an
    # internal error on some rank-deficient Gram matrices
    top = np.linalg.eigvalsh(gram)[-1]
    return 2.0 * max(float(top), 0.0)


def lasso_objective(X: object, y: object, w: object, lam: float) -> float:
    """The LASSO objective of 003 (10.7), ``||y - X w||^2 + lam ||w||_1``."""
    X_arr = check_array_argument(X, "X", ndim=2, real=True)
    y_arr = check_array_argument(y, "y", shape=(X_arr.shape[0],), real=True)
    w_arr = check_array_argument(w, "w", shape=(X_arr.shape[1],), real=True)
    for arr, name in ((X_arr, "X"), (y_arr, "y"), (w_arr, "w")):
        check_squares_representable(arr, name)
    lam = check_real(lam, "lam", low=0.0)
    r = y_arr - X_arr @ w_arr
    return float(r @ r) + lam * float(np.abs(w_arr).sum())


def _gap(xtr: np.ndarray, rr: float, w: np.ndarray, lam: float) -> float:
    """Duality gap of ``||y - X w||^2 + lam ||w||_1`` at ``w`` from ``c = X^T r``, ``||r||^2``.

    The dual of ``1/2 ||y - X w||^2 + (lam/2) ||w||_1`` is
    ``max 1/2 ||y||^2 - 1/2 ||y - theta||^2`` over ``||X^T theta||_inf <= lam / 2``; the
    scaled residual ``theta = s r``, ``s = min(1, (lam/2) / ||c||_inf)``, is feasible.
    Writing ``y = r + X w``, twice (primal - dual) is
    ``(1 - s)^2 ||r||^2 + lam ||w||_1 - 2 s c^T w``, every part of which is >= 0 up to
    rounding (``2 s |c_j| <= lam``); it is evaluated in that form so that the rounding
    error scales with the terms, not with ``||y||^2``.
    """
    top = float(np.max(np.abs(xtr))) if xtr.size else 0.0
    s = 1.0 if top <= 0.5 * lam else 0.5 * lam / top
    value = (1.0 - s) ** 2 * rr + float(np.sum(lam * np.abs(w) - 2.0 * s * xtr * w))
    return max(value, 0.0)


def lasso_duality_gap(X: object, y: object, w: object, lam: float) -> float:
    """An upper bound on ``P(w) - min P`` for ``P(w) = ||y - X w||^2 + lam ||w||_1``.

    Parameters
    ----------
    X : array-like of shape (n, d)
    y : array-like of shape (n,)
    w : array-like of shape (d,)
    lam : float
        ``> 0``.

    Returns
    -------
    float
        The duality gap at ``w`` with the dual point the scaled residual (see Notes of
        :func:`proximal_gradient_lasso`); 0 exactly at an optimum.
    """
    X_arr = check_array_argument(X, "X", ndim=2, real=True)
    y_arr = check_array_argument(y, "y", shape=(X_arr.shape[0],), real=True)
    w_arr = check_array_argument(w, "w", shape=(X_arr.shape[1],), real=True)
    for arr, name in ((X_arr, "X"), (y_arr, "y"), (w_arr, "w")):
        check_squares_representable(arr, name)
    lam = check_real(lam, "lam", low=0.0, low_open=True)
    r = y_arr - X_arr @ w_arr
    return _gap(X_arr.T @ r, float(r @ r), w_arr, lam)


@dataclass
class PGDResult:
    """What one run of :func:`proximal_gradient_lasso` recorded.

    Attributes
    ----------
    coef : ndarray of shape (d,)
        The last iterate.
    coef_history : ndarray of shape (n_iter + 1, d)
        Every iterate ``x_0, ..., x_{n_iter}`` (empty ``(0, d)`` unless
        ``keep_iterates``).
    objective_history : ndarray of shape (n_iter + 1,)
        ``||y - X x_k||^2 + lambda ||x_k||_1`` at every iterate.
    gap_history : ndarray of shape (n_iter + 1,)
        The duality gap at every iterate.
    n_iter : int
        Proximal-gradient steps taken.
    converged : bool
        Whether the gap reached ``tol * ||y||^2``.
    lipschitz : float
        The ``L`` of the step ``1 / L``.
    """

    coef: np.ndarray
    coef_history: np.ndarray
    objective_history: np.ndarray
    gap_history: np.ndarray
    n_iter: int
    converged: bool
    lipschitz: float
    duality_gap: float = field(default=np.inf)


def proximal_gradient_lasso(
    X: object,
    y: object,
    lam: float,
    *,
    lipschitz: float | None = None,
    max_iter: int = 1000,
    tol: float = 1e-8,
    coef_init: object = None,
    keep_iterates: bool = False,
) -> PGDResult:
    """Minimise ``||y - X w||^2 + lam ||w||_1`` (003 (10.7)) by proximal gradient descent.

    Parameters
    ----------
    X : array-like of shape (n, d)
    y : array-like of shape (n,)
    lam : float
        The notes' lambda, ``>= 0`` (``0`` gives gradient descent on least squares).
    lipschitz : float, optional
        The ``L`` of the step ``1 / L``, ``> 0``. Default ``2 lambda_max(X^T X)``
        (:func:`lipschitz_constant`); with a smaller value the objective may increase.
    max_iter : int, default=1000
        Steps, ``>= 1``.
    tol : float, default=1e-8
        Stop when the duality gap is at most ``tol * ||y||^2``, ``> 0``.
    coef_init : array-like of shape (d,), optional
        ``x_0`` (zeros by default).
    keep_iterates : bool, default=False
        Record every iterate in ``coef_history``.

    Returns
    -------
    PGDResult

    Notes
    -----
    One step, in the notes' notation (003 (10.10)-(10.13))::

        z       = x_k - grad f(x_k) / L = x_k + (2 / L) X^T (y - X x_k)
        x_{k+1} = soft_threshold(z, lam / L)

    the exact minimiser of the quadratic model (10.9) plus ``lam ||x||_1``. With
    ``L >= 2 lambda_max(X^T X)`` the model lies above ``f`` and every step lowers the
    objective (or keeps it). No intercept: centre the data first (the estimator
    :class:`ProximalGradientLasso` does). Warns with a ``ConvergenceWarning`` when the gap
    is still above the tolerance after ``max_iter`` steps. With ``lam = 0`` (least squares)
    the recorded "gap" is ``||X^T (y - X w)||_inf`` and the run stops once it is at most
    ``tol * ||X^T y||_inf``.
    """
    X_arr = check_array_argument(X, "X", ndim=2, real=True)
    y_arr = check_array_argument(y, "y", shape=(X_arr.shape[0],), real=True)
    check_squares_representable(X_arr, "X", underflow=True)
    check_squares_representable(y_arr, "y")
    lam = check_real(lam, "lam", low=0.0)
    max_iter = check_int(max_iter, "max_iter", low=1)
    tol = check_real(tol, "tol", low=0.0, low_open=True)
    keep = check_bool(keep_iterates, "keep_iterates")
    d = X_arr.shape[1]
    if coef_init is None:
        w0 = np.zeros(d)
    else:
        w0 = check_array_argument(coef_init, "coef_init", shape=(d,), real=True).copy()
        check_squares_representable(w0, "coef_init")
    L = None if lipschitz is None else check_real(lipschitz, "lipschitz", low=0.0,
                                                    low_open=True)
    result = _run(X_arr, y_arr, lam, L, max_iter, tol, w0, keep)
    if not result.converged:
        warnings.warn(
            f"proximal gradient did not reach the duality gap tol * ||y||^2 in {max_iter} "
            f"steps (gap {result.duality_gap:.3g}); increase max_iter or tol",
            ConvergenceWarning,
            stacklevel=2,
        )
    return result


def _run(X: np.ndarray, y: np.ndarray, lam: float, L: float | None, max_iter: int,
         tol: float, w: np.ndarray, keep: bool) -> PGDResult:
    """The loop of :func:`proximal_gradient_lasso` on validated input (``L = None``: the
    Lipschitz constant 2 lambda_max(X^T X))."""
    n, d = X.shape
    yy = float(y @ y)
    use_gram = n > d  # X^T X and X^T y once, then O(d^2) per step
    if use_gram:
        G, q = X.T @ X, X.T @ y
    if L is None:
        L = _lipschitz(X, G if use_gram else None)
    objectives, gaps, iterates = [], [], []
    threshold = tol * max(yy, np.finfo(float).tiny)
    grad_threshold = tol * float(np.max(np.abs(X.T @ y), initial=0.0))
    converged, n_iter = False, 0
    if L == 0.0:  # X = 0: grad f = 0 and every w is as good for f; the prox of 0 is 0
        L = 1.0
    while True:
        if use_gram:
            xtr = q - G @ w
            rr = max(yy - 2.0 * float(q @ w) + float(w @ (G @ w)), 0.0)
        else:
            r = y - X @ w
            xtr, rr = X.T @ r, float(r @ r)
        objectives.append(rr + lam * float(np.abs(w).sum()))
        # lam = 0 (least squares) has no gap of this form: the gradient's size stands in
        gap = _gap(xtr, rr, w, lam) if lam > 0 else float(np.max(np.abs(xtr), initial=0.0))
        gaps.append(gap)
        if keep:
            iterates.append(w.copy())
        if gap <= (threshold if lam > 0 else grad_threshold):
            converged = True
            break
        if n_iter == max_iter:
            break
        z = w + (2.0 / L) * xtr  # (10.10): x_k - grad f(x_k) / L
        w = soft_threshold(z, lam / L)  # (10.13)
        n_iter += 1
    history = np.array(iterates) if keep else np.zeros((0, d))
    return PGDResult(coef=w, coef_history=history.reshape(-1, d),
                     objective_history=np.array(objectives), gap_history=np.array(gaps),
                     n_iter=n_iter, converged=converged, lipschitz=L, duality_gap=gap)


class ProximalGradientLasso(RegressorMixin, BaseEstimator):
    """LASSO ``min ||y - X w - b||^2 + lam ||w||_1`` by proximal gradient (003 §10.4).

    Parameters
    ----------
    lam : float, default=1.0
        The notes' lambda ``> 0`` on the sum of squares (scikit-learn's
        ``Lasso(alpha=a)`` is ``lam = 2 n_samples a``).
    fit_intercept : bool, default=True
        Centre X and y; the intercept is not penalised.
    max_iter : int, default=1000
    tol : float, default=1e-8
        Stop when the duality gap is at most ``tol * ||y - ybar||^2``.
    keep_iterates : bool, default=False
        Record every iterate in ``coef_history_``.

    Attributes
    ----------
    coef_ : ndarray of shape (n_features,)
    intercept_ : float
    coef_history_ : ndarray of shape (n_iter_ + 1, n_features)
        Iterates ``x_0 = 0, ..., x_{n_iter_}`` (0 rows unless ``keep_iterates``).
    objective_history_ : ndarray of shape (n_iter_ + 1,)
        The objective (10.7) on the centred data at every iterate, recorded by the loop.
    duality_gap_history_ : ndarray of shape (n_iter_ + 1,)
    duality_gap_ : float
    lipschitz_ : float
        ``L = 2 lambda_max(X_c^T X_c)`` of the centred design.
    n_iter_ : int
    converged_ : bool
    n_features_in_ : int

    Notes
    -----
    See :func:`proximal_gradient_lasso` for the step (003 (10.10)-(10.13)).
    """

    def __init__(self, *, lam: float = 1.0, fit_intercept: bool = True,
                 max_iter: int = 1000, tol: float = 1e-8,
                 keep_iterates: bool = False) -> None:
        self.lam = lam
        self.fit_intercept = fit_intercept
        self.max_iter = max_iter
        self.tol = tol
        self.keep_iterates = keep_iterates

    def fit(self, X: object, y: object) -> ProximalGradientLasso:
        """Fit on ``X`` (n_samples, n_features) and ``y`` (n_samples,); returns self."""
        lam = check_real(self.lam, "lam", low=0.0, low_open=True)
        fit_intercept = check_bool(self.fit_intercept, "fit_intercept")
        max_iter = check_int(self.max_iter, "max_iter", low=1)
        tol = check_real(self.tol, "tol", low=0.0, low_open=True)
        keep = check_bool(self.keep_iterates, "keep_iterates")
        X_arr, y_arr = validate_regression(self, X, y)
        check_squares_representable(X_arr, "X", underflow=True)
        check_squares_representable(y_arr, "y")
        if fit_intercept:
            x_mean, y_mean = X_arr.mean(axis=0), float(y_arr.mean())
        else:
            x_mean, y_mean = np.zeros(X_arr.shape[1]), 0.0
        A, target = X_arr - x_mean, y_arr - y_mean
        res = _run(A, target, lam, None, max_iter, tol, np.zeros(A.shape[1]), keep)
        self.coef_ = res.coef
        self.intercept_ = y_mean - float(x_mean @ res.coef)
        self.coef_history_ = res.coef_history
        self.objective_history_ = res.objective_history
        self.duality_gap_history_ = res.gap_history
        self.duality_gap_ = float(res.duality_gap)
        self.lipschitz_ = float(res.lipschitz)
        self.n_iter_ = int(res.n_iter)
        self.converged_ = bool(res.converged)
        if not res.converged:
            warnings.warn(
                f"ProximalGradientLasso did not reach the duality gap tol * ||y||^2 in "
                f"{max_iter} steps (gap {res.duality_gap:.3g}); increase max_iter or tol",
                ConvergenceWarning,
                stacklevel=2,
            )
        return self

    def predict(self, X: object) -> np.ndarray:
        """``X @ coef_ + intercept_`` for ``X`` of shape (n_samples, n_features)."""
        X_arr = validate_features(self, X, reset=False)
        return X_arr @ self.coef_ + self.intercept_

    def score(self, X: object, y: object, sample_weight: object = None) -> float:
        """``R^2`` of the predictions, computed on ``y`` and predictions divided by the
        largest ``|y|`` (the same number; no overflow of the squares)."""
        pred = self.predict(X)
        y_arr = check_array_argument(y, "y", shape=(pred.shape[0],), real=True)
        size = max(float(np.max(np.abs(y_arr))), float(np.max(np.abs(pred))), 1e-300)
        return float(r2_score(y_arr / size, pred / size, sample_weight=sample_weight))


# ---------------------------------------------------------------------------
# Scalar proximal maps of separable regularisers
# ---------------------------------------------------------------------------


def prox_kinked(z: object, step: float, *, right_slope: float, left_slope: float,
                curvature: float = 0.0) -> np.ndarray:
    """``argmin_x 1/2 (x - z)^2 + step g(x)`` componentwise, for the kinked quadratic
    ``g(x) = right_slope max(x, 0) + left_slope max(-x, 0) + curvature x^2``.

    ``g`` has one-sided slopes ``g'(0+) = right_slope`` and ``g'(0-) = -left_slope``: it is
    non-differentiable at 0 unless ``right_slope + left_slope = 0``, convex iff
    ``right_slope + left_slope >= 0`` (and ``curvature >= 0``); ``|x|`` is
    ``right_slope = left_slope = 1``.

    Parameters
    ----------
    z : array-like
    step : float
        ``> 0``.
    right_slope, left_slope : float
    curvature : float, default=0.0
        ``> -1 / (2 step)`` (so that each half-line problem is strictly convex).

    Returns
    -------
    ndarray of z's shape
        The minimiser; of the candidates 0, the positive and the negative stationary
        point, the one with the smallest objective (ties to the smaller ``|x|``).
    """
    z_arr = check_array_argument(z, "z", allow_empty=True, real=True)
    t = check_real(step, "step", low=0.0, low_open=True)
    a = check_real(right_slope, "right_slope")
    b = check_real(left_slope, "left_slope")
    c = check_real(curvature, "curvature", low=-0.5 / t, low_open=True)
    check_squares_representable(z_arr, "z")
    scale = 1.0 + 2.0 * t * c
    right = np.maximum((z_arr - t * a) / scale, 0.0)
    left = np.minimum((z_arr + t * b) / scale, 0.0)
    candidates = np.stack([np.zeros_like(z_arr), right, left])

    def objective(x):
        return 0.5 * (x - z_arr) ** 2 + t * (a * np.maximum(x, 0.0) + b * np.maximum(-x, 0.0)
                                             + c * x * x)

    values = np.stack([objective(x) for x in candidates])
    return np.take_along_axis(candidates, np.argmin(values, axis=0)[None], axis=0)[0]


def prox_penalty(z: object, step: float, penalty: str = "l1", *, l1_ratio: float = 0.5
                 ) -> np.ndarray:
    """``argmin_x 1/2 (x - z)^2 + step g(x)`` componentwise for a separable regulariser.

    Parameters
    ----------
    z : array-like
    step : float
        ``> 0``.
    penalty : {"l1", "l1/2", "elastic_net", "l2"}, default="l1"
        ``g(x) = |x|`` (soft-thresholding, 003 (10.13)); ``|x|^{1/2}`` (non-convex,
        half-thresholding); ``l1_ratio |x| + (1 - l1_ratio) x^2``; ``x^2`` (smooth, no
        thresholding: ``z / (1 + 2 step)``).
    l1_ratio : float, default=0.5
        In ``[0, 1]``, elastic net only.

    Returns
    -------
    ndarray of z's shape

    Notes
    -----
    ``|x|^{1/2}``: for ``x`` of the sign of ``z`` and ``u = sqrt|x|`` the stationarity
    condition is the cubic ``u^3 - |z| u + step / 2 = 0``, whose largest root is the local
    minimiser (trigonometric formula, three real roots iff ``27 step^2 / 4 < 4 |z|^3``);
    it is kept when its objective is below that of ``x = 0`` (ties go to 0).
    """
    z_arr = check_array_argument(z, "z", allow_empty=True, real=True)
    t = check_real(step, "step", low=0.0, low_open=True)
    kind = check_choice(penalty, "penalty", PENALTIES)
    rho = check_real(l1_ratio, "l1_ratio", low=0.0, high=1.0)
    check_squares_representable(z_arr, "z")
    if kind == "l1":
        return soft_threshold(z_arr, t)
    if kind == "l2":
        return z_arr / (1.0 + 2.0 * t)
    if kind == "elastic_net":
        return soft_threshold(z_arr, t * rho) / (1.0 + 2.0 * t * (1.0 - rho))
    return _half_threshold(z_arr, t)


def _half_threshold(z: np.ndarray, t: float) -> np.ndarray:
    """The prox of ``t |x|^{1/2}`` (see :func:`prox_penalty`)."""
    m = np.abs(z)
    q = t / 2.0
    out = np.zeros_like(z)
    # three real roots of u^3 - m u + q = 0 iff 4 m^3 > 27 q^2
    ok = 4.0 * m**3 > 27.0 * q * q
    if np.any(ok):
        mm = m[ok]
        r = 2.0 * np.sqrt(mm / 3.0)
        arg = np.clip((3.0 * q / mm) * np.sqrt(3.0 / mm) / 2.0, -1.0, 1.0)
        u = r * np.cos(np.arccos(-arg) / 3.0)  # the largest root
        x = u * u
        keep = 0.5 * (x - mm) ** 2 + t * u < 0.5 * mm * mm
        out[ok] = np.where(keep, np.sign(z[ok]) * x, 0.0)
    return out
