"""Damped Newton / IRLS for canonical-link exponential-family GLMs.

For natural parameters ``eta_i = B^T x_hat_i`` (``B`` of shape (p, q)) the
log-likelihood ``sum_i [eta_i . T(y_i) - a(eta_i) + ln b(y_i)]`` has gradient
``X_hat^T (T - mu)`` and Hessian ``-sum_i (x_hat_i x_hat_i^T) (x) Var_i`` with
``mu = grad a``, ``Var = Hessian a``. A Newton step with these is one IRLS step.
A backtracking (Armijo) line search makes every accepted step increase the
(penalised) likelihood.

The estimators fitted by likelihood (:class:`~algorithms.linear.LogisticRegression`,
:class:`~algorithms.linear.SoftmaxRegression`,
:class:`~algorithms.linear.GeneralizedLinearModel`) share the plumbing around the
solver here: their common hyperparameters (:func:`likelihood_settings`), the design with
a bias column and its penalty mask (:func:`biased_design`), the fit with the separation
test (:func:`fit_by_newton`), the ConvergenceWarning (:func:`warn_fit_outcome`) and the
fitted attributes (:func:`record_fit`, :func:`split_coef`).
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass, field

import numpy as np
import scipy.linalg
from sklearn.exceptions import ConvergenceWarning

from algorithms._validation import (
    check_bool,
    check_int,
    check_real,
    check_squares_representable,
)
from algorithms.linear._exponential_family import ExponentialFamily
from algorithms.linear._ols import add_bias_column

__all__ = [
    "LikelihoodSettings",
    "NewtonResult",
    "all_strictly_separated",
    "biased_design",
    "confirm_separation",
    "fit_by_newton",
    "fit_glm_newton",
    "glm_hessian",
    "likelihood_settings",
    "linearly_separable",
    "record_fit",
    "scaled_design",
    "split_coef",
    "warn_fit_outcome",
]


@dataclass
class NewtonResult:
    coef: np.ndarray  # (p, q)
    log_likelihood_history: list[float] = field(default_factory=list)
    objective_history: list[float] = field(default_factory=list)
    #: the iterates themselves, recorded inside the loop (``coef_history[k]`` is the
    #: point whose values are ``log_likelihood_history[k]``, ``objective_history[k]``)
    coef_history: list[np.ndarray] = field(default_factory=list)
    step_sizes: list[float] = field(default_factory=list)
    n_iter: int = 0
    converged: bool = False
    separated: bool = False
    capped: bool = False
    line_search_failed: bool = False

    def unscale(self, scale: float, n_features: int) -> None:
        """Map weights fitted on features divided by ``scale`` back to the features'
        units: the first ``n_features`` rows of ``coef`` and of every iterate."""
        if scale == 1.0:
            return
        for B in [self.coef, *self.coef_history]:
            B[:n_features] /= scale


def all_strictly_separated(eta: np.ndarray, T: np.ndarray) -> bool:
    """True when every sample's own class has the strictly largest natural score.

    Binary (q = 1): ``eta_i > 0`` exactly for ``T_i = 1``. Categorical: the full score
    vector ``(eta_i, 0)`` has its strict maximum at the sample's class. Then scaling
    the coefficients by ``t > 1`` raises every ``p(y_i | x_i)``, so the likelihood has
    no maximiser (its supremum, 1, is not attained).
    """
    full = np.hstack([eta, np.zeros((eta.shape[0], 1))])
    own = np.hstack([T, (1.0 - T.sum(axis=1, keepdims=True))])
    own_score = np.sum(full * own, axis=1)
    others = np.where(own > 0.5, -np.inf, full)
    return bool(np.all(own_score > others.max(axis=1)))


def linearly_separable(Xh: np.ndarray, codes: np.ndarray, n_classes: int) -> bool:
    """Exact test (one LP): is there ``W`` (p, K) with ``x_i^T (w_{y_i} - w_k) >= 1`` for
    every sample ``i`` and every other class ``k``? Then the classes are strictly
    separated and the (unpenalised) likelihood has no maximiser.
    """
    import scipy.optimize

    n, p = Xh.shape
    K = int(n_classes)
    rows = []
    for k in range(K):
        others = np.flatnonzero(codes != k)
        if others.size == 0:
            continue
        # constraint: x_i^T w_k - x_i^T w_{y_i} <= -1 for samples i not in class k
        A = np.zeros((others.size, p * K))
        A[:, k * p:(k + 1) * p] = Xh[others]
        for c in range(K):
            sel = codes[others] == c
            A[sel, c * p:(c + 1) * p] -= Xh[others][sel]
        rows.append(A)
    A_ub = np.vstack(rows)
    out = scipy.optimize.linprog(np.zeros(p * K), A_ub=A_ub, b_ub=-np.ones(A_ub.shape[0]),
                                 bounds=(None, None), method="highs")
    return bool(out.status == 0)


def confirm_separation(res: NewtonResult, Xh: np.ndarray, codes: np.ndarray, n_classes: int,
                       lam: float) -> None:
    """After an unconverged unpenalised fit, mark ``res.separated`` if the LP test says so."""
    if lam == 0 and not res.converged and not res.separated and linearly_separable(
        Xh, np.asarray(codes).astype(int), n_classes
    ):
        res.separated = True


def glm_hessian(Xh: np.ndarray, V: np.ndarray) -> np.ndarray:
    """``sum_i (x_hat_i x_hat_i^T) (x) V_i`` as a (p q, p q) matrix, rows ordered like
    ``B.reshape(-1)`` for ``B`` of shape (p, q); ``V`` has shape (N, q, q)."""
    p, q = Xh.shape[1], V.shape[1]
    H = np.empty((p, q, p, q))
    for k in range(q):
        for m in range(k, q):
            block = Xh.T @ (Xh * V[:, k, m][:, None])
            H[:, k, :, m] = block
            if m != k:
                H[:, m, :, k] = block
    return H.reshape(p * q, p * q)


def _unit_diagonal_solve(A: np.ndarray, b: np.ndarray) -> np.ndarray | None:
    """Solve ``A x = b`` for symmetric PD ``A`` by Cholesky of ``D A D`` (unit diagonal,
    ``D = diag(A)^{-1/2}``), or None when a pivot is at rounding level (rank-deficient)."""
    d = 1.0 / np.sqrt(np.diag(A))
    try:
        factor = scipy.linalg.cho_factor(A * d[:, None] * d[None, :])
    except np.linalg.LinAlgError:
        return None
    if float(np.min(np.abs(np.diag(factor[0])))) ** 2 <= A.shape[0] * np.finfo(float).eps:
        return None
    return d * scipy.linalg.cho_solve(factor, d * b)


def _solve_spd(H: np.ndarray, g: np.ndarray) -> np.ndarray:
    """Solve ``H x = g`` for symmetric PSD ``H``, deciding its rank scale-free.

    ``H`` is scaled to unit diagonal (``Hs = D H D``, ``D = diag(H)^{-1/2}``) before it is
    factorised, so a feature of tiny scale keeps its full Newton step (an absolute
    cut-off or jitter would swamp its small curvature and turn Newton into slow gradient
    steps along it). When ``Hs`` is numerically singular (collinear features), the step
    is the minimum-norm solution in the original coordinates: it lies in the range of
    ``H``, spanned by ``E = D^{-1} Q`` for the eigenvectors ``Q`` of ``Hs`` with
    non-negligible eigenvalues ``w``, so ``x = E c`` with ``(E^T E) c = w^{-1} Q^T D g``.
    Null directions, which change neither the objective nor the fitted values, are left
    alone, and collinear features of very different scales do not get weights of order
    1/scale. Coordinates with no curvature at all do not move.
    """
    step = np.zeros_like(g)
    curved = np.diag(H) > 0
    if not curved.any():
        return step
    Hc, gc = H[np.ix_(curved, curved)], g[curved]
    x = _unit_diagonal_solve(Hc, gc)
    if x is None:
        d = 1.0 / np.sqrt(np.diag(Hc))
        w, Q = np.linalg.eigh(Hc * d[:, None] * d[None, :])
        keep = w > Hc.shape[0] * np.finfo(float).eps * max(float(w[-1]), 0.0)
        E = Q[:, keep] / d[:, None]
        y = (Q[:, keep].T @ (d * gc)) / w[keep]
        c = _unit_diagonal_solve(E.T @ E, y)
        if c is None:  # E has orthonormal columns up to a row scaling: not expected
            c = scipy.linalg.lstsq(E.T @ E, y)[0]
        x = E @ c
    step[curved] = x
    return step


def fit_glm_newton(
    Xh: np.ndarray,
    T: np.ndarray,
    family: ExponentialFamily,
    *,
    lam: float = 0.0,
    penalty_mask: np.ndarray | None = None,
    log_base: float = 0.0,
    max_iter: int = 100,
    tol: float = 1e-10,
    coef_cap: float = 1e8,
    stop_on_separation: bool = False,
    coef_init: np.ndarray | None = None,
) -> NewtonResult:
    """Maximise the penalised log-likelihood ``LL(B) - lam/2 ||mask * B||^2`` by Newton.

    Parameters
    ----------
    Xh : (N, p) design (bias column included by the caller if wanted).
    T : (N, q) sufficient statistics.
    penalty_mask : (p,) 0/1 weights of the L2 penalty per row of ``B`` (0 for the bias).
    log_base : ``sum_i ln b(y_i)``, added so the history holds the full log-likelihood.
    tol : stop when half the squared Newton decrement (a local estimate of the
        distance to the optimum in objective) is at most ``tol * N``.
    coef_cap : stop (``capped``) when a coefficient exceeds this in absolute value.
    stop_on_separation : stop (``separated``) as soon as an iterate classifies every
        sample strictly correctly (only meaningful with ``lam = 0``: no MLE exists).
    """
    n, p = Xh.shape
    q = T.shape[1]
    mask = np.ones(p) if penalty_mask is None else np.asarray(penalty_mask, dtype=float)
    B = np.zeros((p, q)) if coef_init is None else np.array(coef_init, dtype=float)
    res = NewtonResult(coef=B)

    def evaluate(Bc: np.ndarray) -> tuple[float, float, np.ndarray]:
        eta = Xh @ Bc
        ll = float(np.sum(family.natural_terms(eta, T))) + log_base
        pen = 0.5 * lam * float(np.sum((mask[:, None] * Bc) ** 2))
        return ll, pen - ll, eta

    ll, obj, eta = evaluate(B)
    res.log_likelihood_history.append(ll)
    res.objective_history.append(obj)
    res.coef_history.append(B.copy())
    for it in range(1, max_iter + 1):
        mu = family.mean(eta)
        grad = -(Xh.T @ (T - mu)) + lam * mask[:, None] * B  # gradient of the objective
        H = glm_hessian(Xh, family.variance(eta))
        if lam > 0:
            H[np.diag_indices_from(H)] += lam * np.repeat(mask, q)
        g = grad.reshape(-1)
        step = _solve_spd(H, g)
        decrement = float(g @ step)
        if not np.isfinite(decrement):
            break
        direction = step.reshape(p, q)
        if 0.5 * decrement <= tol * n:
            # Converged. One last full step costs little and squares the error
            # (quadratic convergence); keep it only if it does not increase the objective.
            ll_new, obj_new, eta_new = evaluate(B - direction)
            if np.isfinite(obj_new) and obj_new <= obj:
                B, ll, obj, eta = B - direction, ll_new, obj_new, eta_new
                res.log_likelihood_history.append(ll)
                res.objective_history.append(obj)
                res.coef_history.append(B.copy())
                res.step_sizes.append(1.0)
                res.n_iter = it
            res.converged = True
            break
        t = 1.0
        while True:
            B_new = B - t * direction
            ll_new, obj_new, eta_new = evaluate(B_new)
            if np.isfinite(obj_new) and obj_new <= obj - 1e-4 * t * decrement:
                break
            t *= 0.5
            if t < 1e-12:
                break
        if t < 1e-12:  # no decrease representable in floating point: at the optimum
            res.line_search_failed = True
            res.converged = 0.5 * decrement <= 1e3 * tol * n
            break
        B, ll, obj, eta = B_new, ll_new, obj_new, eta_new
        res.log_likelihood_history.append(ll)
        res.objective_history.append(obj)
        res.coef_history.append(B.copy())
        res.step_sizes.append(t)
        res.n_iter = it
        if stop_on_separation and all_strictly_separated(eta, T):
            res.separated = True
            break
        if np.max(np.abs(B)) > coef_cap:
            res.capped = True
            break
    res.coef = B
    return res


# --------------------------------------------------------------------------- plumbing


@dataclass(frozen=True)
class LikelihoodSettings:
    """The validated hyperparameters every likelihood fit of this family shares."""

    lam: float
    fit_intercept: bool
    max_iter: int
    tol: float
    coef_cap: float


def likelihood_settings(estimator: object) -> LikelihoodSettings:
    """Validate ``lam``, ``fit_intercept``, ``max_iter``, ``tol`` and ``coef_cap`` of
    ``estimator`` (each error names its hyperparameter)."""
    return LikelihoodSettings(
        lam=check_real(estimator.lam, "lam", low=0.0),
        fit_intercept=check_bool(estimator.fit_intercept, "fit_intercept"),
        max_iter=check_int(estimator.max_iter, "max_iter", low=1),
        tol=check_real(estimator.tol, "tol", low=0.0, low_open=True),
        coef_cap=check_real(estimator.coef_cap, "coef_cap", low=0.0, low_open=True),
    )


#: Feature magnitudes outside [2^-SCALE_EXPONENT, 2^SCALE_EXPONENT] are brought to order
#: one before an unpenalised fit: the Hessian's entries (squares of the features) would
#: otherwise underflow or overflow. Inside the range nothing is rescaled.
SCALE_EXPONENT = 64


def scaled_design(X: np.ndarray, lam: float = 0.0) -> tuple[np.ndarray, float]:
    """``(X / scale, scale)``: the features without a bias column, divided by the power of
    two :func:`biased_design` chooses (1 unless ``lam = 0`` and the features' magnitude is
    extreme); with ``lam > 0``, ``X`` is refused if the sums of its squares overflow."""
    scale = 1.0
    if lam > 0:
        check_squares_representable(X, "X")
        return X, scale
    top = max(float(X.max()), -float(X.min())) if X.size else 0.0
    if top > 0 and not 2.0**-SCALE_EXPONENT <= top <= 2.0**SCALE_EXPONENT:
        scale = 2.0 ** round(np.log2(top))
        X = X / scale
    return X, scale


def biased_design(X: np.ndarray, fit_intercept: bool, lam: float = 0.0
                  ) -> tuple[np.ndarray, np.ndarray, float]:
    """``(X_hat, mask, scale)``: ``X / scale`` with a last column of ones when fitting an
    intercept, the 0/1 weights of the L2 penalty per row of the coefficients (0 for the
    bias), and the power of two ``scale`` the features were divided by.

    With ``lam = 0`` the maximum-likelihood fit is equivariant under scaling the features
    (the feature weights scale inversely), so features of extreme magnitude are divided
    by a power of two (exact) near their largest entry; the caller maps the weights back
    with :meth:`NewtonResult.unscale`. With ``lam > 0`` the penalty is not scale-free:
    the features are kept, and refused if the sums of their squares overflow.
    """
    X, scale = scaled_design(X, lam)
    if not fit_intercept:
        return X, np.ones(X.shape[1]), scale
    Xh = add_bias_column(X)
    mask = np.ones(Xh.shape[1])
    mask[-1] = 0.0
    return Xh, mask, scale


def warn_fit_outcome(name: str, res: NewtonResult, not_converged: str) -> None:
    """The ConvergenceWarning a likelihood fit deserves: separated classes (no maximiser),
    a coefficient beyond ``coef_cap``, or ``not_converged`` (what the solver reports)."""
    if res.separated:
        message = (
            "the classes are linearly separated, so the likelihood has no maximiser (it "
            "tends to 1 as the coefficients grow along a separating direction); stopped "
            "with converged_=False. Use lam > 0 for a finite solution."
        )
    elif res.capped:
        message = (
            "coefficients exceeded coef_cap; the maximum-likelihood estimate appears not "
            "to exist (quasi-separated data). Use lam > 0."
        )
    elif not res.converged:
        message = not_converged
    else:
        return
    warnings.warn(f"{name}: {message}", ConvergenceWarning, stacklevel=4)


def fit_by_newton(
    name: str,
    Xh: np.ndarray,
    codes: np.ndarray,
    family: ExponentialFamily,
    settings: LikelihoodSettings,
    mask: np.ndarray,
    *,
    n_classes: int | None = None,
    coef_init: np.ndarray | None = None,
) -> NewtonResult:
    """Damped Newton on ``family`` with the separation test and the warning.

    ``codes`` are the encoded targets (class codes, or the real targets of a Gaussian
    family). With ``n_classes`` (a Bernoulli or categorical family) and ``lam = 0``,
    the fit stops as soon as an iterate separates the classes strictly, and an
    unconverged fit is checked for separation by the exact LP test.
    """
    lam = settings.lam
    classify = n_classes is not None
    res = fit_glm_newton(
        Xh, family.sufficient_statistic(codes), family, lam=lam, penalty_mask=mask,
        log_base=float(np.sum(family.log_base_measure(codes))), max_iter=settings.max_iter,
        tol=settings.tol, coef_cap=settings.coef_cap, stop_on_separation=classify and lam == 0,
        coef_init=coef_init,
    )
    if classify:
        confirm_separation(res, Xh, codes, n_classes, lam)
    warn_fit_outcome(
        name, res, f"Newton did not converge in {settings.max_iter} iterations; "
        "increase max_iter",
    )
    return res


def split_coef(B: np.ndarray, n_features: int, fit_intercept: bool
               ) -> tuple[np.ndarray, np.ndarray]:
    """``(coef, intercept)`` of shapes (q, d) and (q,) from ``B`` of shape (p, q): the
    rows of the features and the bias row (zeros without an intercept)."""
    coef = B[:n_features].T.copy()
    intercept = B[n_features].copy() if fit_intercept else np.zeros(B.shape[1])
    return coef, intercept


def record_fit(estimator: object, res: NewtonResult) -> None:
    """Store the solver's trace: ``log_likelihood_history_``, ``coef_history_`` (the
    iterates, shape (n_recorded, p, q), bias row last when fitting an intercept),
    ``n_iter_``, ``converged_`` and ``separable_``."""
    estimator.log_likelihood_history_ = np.asarray(res.log_likelihood_history)
    estimator.coef_history_ = np.asarray(res.coef_history)
    estimator.n_iter_ = res.n_iter
    estimator.converged_ = bool(res.converged)
    estimator.separable_ = bool(res.separated)
