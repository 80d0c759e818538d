"""Low-rank matrix completion, 003 §10.6 (10.22)-(10.24).

Observed entries ``A_ij``, ``(i, j)`` in a mask ``Omega``; the rank minimisation (10.22)
is relaxed to the nuclear norm ``||X||_* = sum_j sigma_j(X)`` (10.23), giving (10.24)
``min ||X||_* s.t. X_ij = A_ij on Omega``. Two solvers: the convex program itself through
cvxpy (:func:`nuclear_norm_completion`), and the singular value thresholding iteration of
Cai, Candès and Shen (:func:`svt_completion`), which solves the nearby program
``min tau ||X||_* + 1/2 ||X||_F^2`` on the same constraints.

Masks: a boolean (or 0/1) array of A's shape. A row or a column with no observed entry
cannot be recovered by any method (nothing ties it to the rest), so such masks are
refused with a ``ValueError`` naming ``mask``. Entries of ``A`` outside the mask are
ignored but must be finite (fill them with 0).
"""

from __future__ import annotations

import math
import warnings
from dataclasses import dataclass, field

import numpy as np
import scipy.linalg
from sklearn.exceptions import ConvergenceWarning

from algorithms._validation import (
    InvalidArgumentError,
    check_array_argument,
    check_int,
    check_real,
)

__all__ = [
    "SVTResult",
    "nuclear_norm",
    "nuclear_norm_completion",
    "singular_value_threshold",
    "svt_completion",
]


def _scaled(X: np.ndarray) -> tuple[np.ndarray, float]:
    """``X / s`` with ``s = max |X|`` (1 for a zero matrix): SVDs of 1e300-sized entries
    stay finite."""
    top = float(np.max(np.abs(X))) if X.size else 0.0
    s = top if top > 0.0 else 1.0
    return X / s, s


def nuclear_norm(X: np.ndarray) -> float:
    """``||X||_* = sum_j sigma_j(X)``, 003 §10.6 (10.23).

    Parameters
    ----------
    X : array-like of shape (m, n)

    Returns
    -------
    float
        The sum of the singular values (computed on ``X / max|X|`` and scaled back).
    """
    arr = check_array_argument(X, "X", ndim=2, real=True)
    Y, s = _scaled(arr)
    return s * float(np.sum(scipy.linalg.svdvals(Y)))


def singular_value_threshold(Y: np.ndarray, tau: float) -> np.ndarray:
    """The shrinkage ``D_tau(Y) = U max(Sigma - tau, 0) V^T``.

    The proximal map of ``tau ||.||_*``: ``argmin_X tau ||X||_* + 1/2 ||X - Y||_F^2``
    (singular values soft-thresholded at ``tau``, the matrix analogue of 003 (10.13)).
    """
    arr = check_array_argument(Y, "Y", ndim=2, real=True)
    t = check_real(tau, "tau", low=0.0)
    Z, s = _scaled(arr)
    U, sig, Vt = scipy.linalg.svd(Z, full_matrices=False, lapack_driver="gesvd")
    shrunk = np.maximum(sig - t / s, 0.0)
    return s * ((U * shrunk) @ Vt)


def _check_problem(A: object, mask: object) -> tuple[np.ndarray, np.ndarray]:
    """``A`` (m, n) finite and a boolean mask of its shape observing every row and column."""
    A_arr = check_array_argument(A, "A", ndim=2, real=True)
    if np.iscomplexobj(mask):
        raise InvalidArgumentError("mask must be a boolean or 0/1 array, got a complex array.")
    M = check_array_argument(mask, "mask", shape=A_arr.shape, dtype=None)
    if M.dtype != bool:
        if M.dtype.kind not in "iuf" or not np.all((M == 0) | (M == 1)):
            raise InvalidArgumentError("mask must be a boolean or 0/1 array.")
        M = M.astype(bool)
    empty_rows = np.flatnonzero(~M.any(axis=1))
    empty_cols = np.flatnonzero(~M.any(axis=0))
    if empty_rows.size or empty_cols.size:
        raise ValueError(
            "mask must observe at least one entry in every row and every column (an "
            f"unobserved line cannot be completed): empty rows {empty_rows.tolist()}, "
            f"empty columns {empty_cols.tolist()}.")
    return A_arr, M


def nuclear_norm_completion(A: np.ndarray, mask: np.ndarray, *, noise: float = 0.0,
                            solver: str | None = None) -> np.ndarray:
    """Solve (10.24) ``min ||X||_* s.t. X_ij = A_ij on Omega`` with cvxpy.

    Parameters
    ----------
    A : array-like of shape (m, n)
        Observed values on the mask (entries outside it are ignored; they must be
        finite).
    mask : array-like of bool, shape (m, n)
        ``Omega``: True where ``A`` is observed; every row and column needs one entry.
    noise : float, default=0.0
        ``0``: the equality constraints of (10.24). ``> 0``: the noisy variant
        ``||P_Omega(X - A)||_F <= noise``.
    solver : str, optional
        A cvxpy conic solver name (default: cvxpy's choice for the SDP; CLARABEL when
        installed).

    Returns
    -------
    X : ndarray of shape (m, n)

    Notes
    -----
    The data are divided by ``max |A_Omega|`` before the solve (and the result
    multiplied back), so the solver's absolute tolerances act on numbers of size 1. A
    solve that cvxpy reports as inaccurate gives a ``ConvergenceWarning``; a failed one a
    ``RuntimeError``.
    """
    import cvxpy as cp

    A_arr, M = _check_problem(A, mask)
    delta = check_real(noise, "noise", low=0.0)
    observed = np.where(M, A_arr, 0.0)
    Y, s = _scaled(observed)
    if solver is not None and solver not in cp.installed_solvers():
        raise ValueError(f"solver must be one of {tuple(cp.installed_solvers())}, "
                         f"got {solver!r}.")
    chosen = solver or ("CLARABEL" if "CLARABEL" in cp.installed_solvers() else None)
    X = cp.Variable(A_arr.shape)
    W = M.astype(float)
    if delta == 0.0:
        constraints = [cp.multiply(W, X) == Y]
    else:
        constraints = [cp.norm(cp.multiply(W, X) - Y, "fro") <= delta / s]
    problem = cp.Problem(cp.Minimize(cp.normNuc(X)), constraints)
    try:
        problem.solve(solver=chosen)
    except cp.error.SolverError as exc:  # pragma: no cover - solver breakdown
        raise RuntimeError(f"the nuclear-norm program failed: {exc}") from exc
    if problem.status not in (cp.OPTIMAL, cp.OPTIMAL_INACCURATE) or X.value is None:
        raise RuntimeError(f"the nuclear-norm program ended with status {problem.status}.")
    if problem.status == cp.OPTIMAL_INACCURATE:
        warnings.warn("the nuclear-norm program was solved only inaccurately.",
                      ConvergenceWarning, stacklevel=2)
    return s * np.asarray(X.value, dtype=float)


@dataclass
class SVTResult:
    """Result of :func:`svt_completion`."""

    X: np.ndarray
    n_iter: int = 0
    converged: bool = False
    residual_history: list[float] = field(default_factory=list)
    rank_history: list[int] = field(default_factory=list)
    tau: float = 0.0
    step: float = 0.0


def svt_completion(A: np.ndarray, mask: np.ndarray, *, tau: float | None = None,
                   step: float | None = None, max_iter: int = 1000,
                   tol: float = 1e-6) -> SVTResult:
    """Singular value thresholding (Cai, Candès and Shen 2010) for (10.24).

    Parameters
    ----------
    A : array-like of shape (m, n)
        Observed values on the mask (other entries ignored; must be finite).
    mask : array-like of bool, shape (m, n)
        ``Omega``; every row and column needs one observed entry.
    tau : float, optional
        Threshold, ``> 0``, in the units of ``A`` (default ``5 sqrt(mn) * rms(A_Omega)``,
        the paper's ``5 sqrt(mn)`` for data of unit size).
    step : float, optional
        Step ``delta`` in ``(0, 2)`` guarantees convergence (default
        ``min(1.2 mn / |Omega|, 1.9)``).
    max_iter : int, default=1000
    tol : float, default=1e-6
        Stop when ``||P_Omega(X - A)||_F <= tol ||P_Omega(A)||_F``.

    Returns
    -------
    SVTResult
        ``X``, iterations, convergence flag, and per iteration the relative residual on
        Omega and the rank of ``X``.

    Notes
    -----
    ``X^k = D_tau(Y^{k-1})`` (:func:`singular_value_threshold`),
    ``Y^k = Y^{k-1} + delta P_Omega(A - X^k)``, from ``Y^0 = k_0 delta P_Omega(A)`` with
    ``k_0 = ceil(tau / (delta ||P_Omega(A)||_2))``. The iterates converge to the solution
    of ``min tau ||X||_* + 1/2 ||X||_F^2 s.t. P_Omega(X) = P_Omega(A)``, which tends to that
    of (10.24) as ``tau`` grows. Not converging within ``max_iter`` gives a
    ``ConvergenceWarning`` (and ``converged=False``).
    """
    A_arr, M = _check_problem(A, mask)
    max_iter_v = check_int(max_iter, "max_iter", low=1)
    tol_v = check_real(tol, "tol", low=0.0, low_open=True)
    observed = np.where(M, A_arr, 0.0)
    Y0, s = _scaled(observed)  # work at max |A_Omega| = 1
    m, n = A_arr.shape
    count = int(M.sum())
    norm_obs = float(np.linalg.norm(Y0))
    if norm_obs == 0.0:  # every observed value is 0: X = 0 is the solution
        return SVTResult(X=np.zeros((m, n)), converged=True, residual_history=[0.0],
                         rank_history=[0], tau=0.0 if tau is None else float(tau),
                         step=0.0 if step is None else float(step))
    rms = norm_obs / math.sqrt(count)
    if tau is None:
        tau_s = 5.0 * math.sqrt(m * n) * rms
    else:
        tau_s = check_real(tau, "tau", low=0.0, low_open=True) / s
    delta = (min(1.2 * m * n / count, 1.9) if step is None
             else check_real(step, "step", low=0.0, high=2.0, low_open=True, high_open=True))
    spectral = float(scipy.linalg.svdvals(Y0)[0])
    k0 = max(1, math.ceil(tau_s / (delta * spectral)))
    Y = k0 * delta * Y0
    result = SVTResult(X=np.zeros((m, n)), tau=tau_s * s, step=delta)
    X = np.zeros((m, n))
    for it in range(1, max_iter_v + 1):
        U, sig, Vt = scipy.linalg.svd(Y, full_matrices=False, lapack_driver="gesvd")
        shrunk = np.maximum(sig - tau_s, 0.0)
        X = (U * shrunk) @ Vt
        R = np.where(M, Y0 - X, 0.0)
        rel = float(np.linalg.norm(R)) / norm_obs
        result.residual_history.append(rel)
        result.rank_history.append(int(np.count_nonzero(shrunk)))
        result.n_iter = it
        if rel <= tol_v:
            result.converged = True
            break
        Y = Y + delta * R
    if not result.converged:
        warnings.warn(
            f"svt_completion did not converge in max_iter={max_iter_v} iterations "
            f"(relative residual {result.residual_history[-1]:.3g} > tol={tol_v:g}).",
            ConvergenceWarning, stacklevel=2)
    result.X = s * X
    return result
