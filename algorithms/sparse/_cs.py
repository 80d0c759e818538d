"""Compressed sensing, 003 §10.6 (10.18)-(10.21): basis pursuit as a linear programme,
basis-pursuit denoising by proximal gradient, exhaustive l0 recovery for tiny problems,
and the restricted isometry constant by subset enumeration.

References
----------
003 §10.6 (10.18)-(10.21).
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass

import numpy as np
import scipy.optimize

from algorithms._validation import (
    check_array_argument,
    check_int,
    check_real,
    check_squares_representable,
    make_rng,
)
from algorithms.sparse._pgd import PGDResult, proximal_gradient_lasso

__all__ = [
    "MAX_ENUMERATED_SUBSETS",
    "L0Solution",
    "RIPConstant",
    "basis_pursuit",
    "basis_pursuit_denoising",
    "l0_minimise",
    "periodic_sinc_interpolate",
    "rip_constant",
    "rip_lower_bound",
]

#: The most column subsets :func:`rip_constant` and :func:`l0_minimise` enumerate (a
#: batch of that many k x k eigenvalue problems takes about a second for k <= 4).
MAX_ENUMERATED_SUBSETS = 200_000

#: Relative residual below which a least-squares fit on a support counts as an exact
#: solution of ``y = A s`` in :func:`l0_minimise` (rounding of a small lstsq, not a
#: modelling tolerance).
L0_RESIDUAL_TOL = 1e-9


def _sensing_inputs(A: object, y: object) -> tuple[np.ndarray, np.ndarray]:
    A_arr = check_array_argument(A, "A", ndim=2, real=True)
    y_arr = check_array_argument(y, "y", shape=(A_arr.shape[0],), real=True)
    check_squares_representable(A_arr, "A", underflow=True)
    check_squares_representable(y_arr, "y")
    return A_arr, y_arr


def basis_pursuit(A: object, y: object) -> np.ndarray:
    """``argmin ||s||_1`` subject to ``A s = y``: the l1 relaxation of 003 (10.21).

    Parameters
    ----------
    A : array-like of shape (n, m)
        The sensing matrix ``A = Phi Psi`` of (10.19).
    y : array-like of shape (n,)
        The measurements; must lie in the range of ``A``.

    Returns
    -------
    ndarray of shape (m,)
        A minimiser (a vertex of the solution set when it is not unique).

    Raises
    ------
    ValueError
        If ``A s = y`` has no solution (``y`` outside the range of ``A``).

    Notes
    -----
    The linear programme in ``(s, t)``: ``min sum t`` subject to ``-t <= s <= t`` and
    ``A s = y``, solved by scipy's HiGHS. ``A`` is divided by ``max |A|`` and ``y`` by
    its largest entry first (the solution scales back by ``max|y| / max|A|``), so that the
    solver's absolute tolerances mean the same at every scale.
    """
    A_arr, y_arr = _sensing_inputs(A, y)
    n, m = A_arr.shape
    a_scale = float(np.max(np.abs(A_arr)))
    y_scale = float(np.max(np.abs(y_arr)))
    if y_scale == 0.0:
        return np.zeros(m)
    if a_scale == 0.0:
        raise ValueError("y must lie in the range of A: A is zero and y is not.")
    A_s, y_s = A_arr / a_scale, y_arr / y_scale
    eye = np.eye(m)
    c = np.concatenate([np.zeros(m), np.ones(m)])
    A_ub = np.block([[eye, -eye], [-eye, -eye]])
    res = scipy.optimize.linprog(
        c, A_ub=A_ub, b_ub=np.zeros(2 * m), A_eq=np.hstack([A_s, np.zeros((n, m))]),
        b_eq=y_s, bounds=[(None, None)] * m + [(0, None)] * m, method="highs",
    )
    if res.status == 2:
        raise ValueError("y must lie in the range of A: A s = y has no solution.")
    if res.status != 0:
        raise ValueError(f"basis pursuit: the LP solver failed on A, y ({res.message}).")
    return res.x[:m] * (y_scale / a_scale)


def basis_pursuit_denoising(A: object, y: object, lam: float, *, max_iter: int = 5000,
                            tol: float = 1e-10) -> PGDResult:
    """``argmin 1/2 ||y - A s||^2 + lam ||s||_1`` (basis-pursuit denoising, 003 §10.6) by
    proximal gradient.

    Parameters
    ----------
    A : array-like of shape (n, m)
    y : array-like of shape (n,)
        Noisy measurements.
    lam : float
        ``> 0``; of the order of the noise level times ``sqrt(2 log m)`` for noise of
        that standard deviation per measurement.
    max_iter : int, default=5000
    tol : float, default=1e-10
        Relative duality-gap tolerance of the LASSO.

    Returns
    -------
    PGDResult
        Of the LASSO ``||y - A s||^2 + 2 lam ||s||_1`` (twice the objective above, same
        minimiser): ``objective_history`` is twice the denoising objective.
    """
    A_arr, y_arr = _sensing_inputs(A, y)
    lam = check_real(lam, "lam", low=0.0, low_open=True)
    return proximal_gradient_lasso(A_arr, y_arr, 2.0 * lam, max_iter=max_iter, tol=tol)


@dataclass
class L0Solution:
    """The result of :func:`l0_minimise`.

    Attributes
    ----------
    coef : ndarray of shape (m,)
        A sparsest solution of ``A s = y`` (the first support in lexicographic order).
    support_size : int
        ``||s||_0`` of the sparsest solutions.
    supports : list of tuple of int
        Every support of that size on which ``A s = y`` is solvable (with all entries
        non-zero); more than one means the l0 problem has several solutions.
    """

    coef: np.ndarray
    support_size: int
    supports: list[tuple[int, ...]]

    @property
    def unique(self) -> bool:
        """Whether the sparsest solution is unique."""
        return len(self.supports) == 1 or self.support_size == 0


def l0_minimise(A: object, y: object, *, max_support: int | None = None) -> L0Solution:
    """``min ||s||_0`` subject to ``A s = y`` (003 (10.21)) by exhaustive support search.

    Parameters
    ----------
    A : array-like of shape (n, m)
    y : array-like of shape (n,)
    max_support : int, optional
        Largest support tried (default ``min(n, m)``: a solvable system always has a
        solution on at most ``rank A`` columns).

    Returns
    -------
    L0Solution

    Raises
    ------
    ValueError
        If the search would try more than :data:`MAX_ENUMERATED_SUBSETS` supports before
        finding a solution, or if no support up to ``max_support`` solves ``A s = y``.

    Notes
    -----
    For ``k = 0, 1, ...`` every support ``S`` of size ``k`` is fitted by least squares
    (batched over supports); ``A s = y`` is solvable on ``S`` when the residual is at most
    ``L0_RESIDUAL_TOL * ||y||``. A support counts only if its coefficients are all
    non-zero (else a smaller support already solved it). NP-hard in general: tiny sizes
    only.
    """
    A_arr, y_arr = _sensing_inputs(A, y)
    n, m = A_arr.shape
    top = min(n, m) if max_support is None else check_int(max_support, "max_support",
                                                          low=0, high=m)
    y_norm = float(np.linalg.norm(y_arr))
    if y_norm == 0.0:
        return L0Solution(coef=np.zeros(m), support_size=0, supports=[()])
    scale = float(np.max(np.abs(A_arr)))
    A_s, y_s = A_arr / scale, y_arr / y_norm
    tried = 0
    for k in range(1, top + 1):
        tried += math.comb(m, k)
        if tried > MAX_ENUMERATED_SUBSETS:
            raise ValueError(
                f"A has {m} columns: l0_minimise would try {tried} supports of size <= {k} "
                f"(more than {MAX_ENUMERATED_SUBSETS}); lower max_support or use "
                f"basis_pursuit.")
        subsets = np.array(list(itertools.combinations(range(m), k)), dtype=int)
        blocks = A_s[:, subsets].transpose(1, 0, 2)  # (n_subsets, n, k)
        coefs = _batched_lstsq(blocks, y_s)
        residual = np.linalg.norm(np.einsum("snk,sk->sn", blocks, coefs) - y_s, axis=1)
        nonzero = np.all(np.abs(coefs) > L0_RESIDUAL_TOL * np.abs(coefs).max(axis=1,
                                                                               keepdims=True),
                         axis=1)
        hits = np.flatnonzero((residual <= L0_RESIDUAL_TOL) & nonzero)
        if hits.size:
            s = np.zeros(m)
            s[subsets[hits[0]]] = coefs[hits[0]] * (y_norm / scale)
            return L0Solution(coef=s, support_size=k,
                              supports=[tuple(int(j) for j in subsets[h]) for h in hits])
    raise ValueError(f"y must lie in the range of A: no support of size <= {top} solves "
                     f"A s = y.")


def _batched_lstsq(blocks: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Minimum-norm least-squares coefficients of ``y`` on each ``(n, k)`` block (batched
    thin SVD; singular values below the usual rank cutoff are dropped)."""
    u, sv, vt = np.linalg.svd(blocks, full_matrices=False)
    cutoff = sv[:, :1] * max(blocks.shape[1:]) * np.finfo(float).eps
    inv = np.where(sv > cutoff, 1.0 / np.where(sv > cutoff, sv, 1.0), 0.0)
    return np.einsum("skj,sk,snk,n->sj", vt, inv, u, y)


@dataclass
class RIPConstant:
    """A restricted isometry constant of 003 (10.20).

    Attributes
    ----------
    delta : float
        ``max_S max(lambda_max(A_S^T A_S) - 1, 1 - lambda_min(A_S^T A_S))`` over the
        subsets examined: exact when ``exact``, else a lower bound on ``delta_k``.
    k : int
    worst_subset : tuple of int
        A subset attaining ``delta``.
    lower, upper : float
        The smallest ``lambda_min`` and largest ``lambda_max`` seen, so that
        ``lower ||s||^2 <= ||A_S s||^2 <= upper ||s||^2`` on every subset examined.
    n_subsets : int
        Subsets examined.
    exact : bool
    """

    delta: float
    k: int
    worst_subset: tuple[int, ...]
    lower: float
    upper: float
    n_subsets: int
    exact: bool


def _extreme_eigenvalues(A: np.ndarray, subsets: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    blocks = A[:, subsets].transpose(1, 0, 2)  # (s, n, k)
    grams = np.einsum("snk,snj->skj", blocks, blocks)
    ev = np.linalg.eigvalsh(grams)
    return ev[:, 0], ev[:, -1]


def _summary(A: np.ndarray, subsets: np.ndarray, k: int, exact: bool) -> RIPConstant:
    lo, hi = np.empty(0), np.empty(0)
    for start in range(0, len(subsets), 20_000):  # bounded memory per batch
        chunk = subsets[start:start + 20_000]
        a, b = _extreme_eigenvalues(A, chunk)
        lo, hi = np.concatenate([lo, a]), np.concatenate([hi, b])
    dev = np.maximum(hi - 1.0, 1.0 - lo)
    worst = int(np.argmax(dev))
    return RIPConstant(delta=float(dev[worst]), k=k,
                       worst_subset=tuple(int(j) for j in subsets[worst]),
                       lower=float(lo.min()), upper=float(hi.max()),
                       n_subsets=len(subsets), exact=exact)


def rip_constant(A: object, k: int) -> RIPConstant:
    """The exact k-restricted isometry constant ``delta_k`` of ``A`` (003 (10.20)).

    Parameters
    ----------
    A : array-like of shape (n, m)
    k : int
        Sparsity, ``1 <= k <= m``.

    Returns
    -------
    RIPConstant
        ``exact=True``: the smallest ``delta`` with
        ``(1 - delta) ||s||^2 <= ||A_k s||^2 <= (1 + delta) ||s||^2`` for every
        ``n x k`` column submatrix ``A_k`` and every ``s``.

    Raises
    ------
    ValueError
        If ``C(m, k)`` exceeds :data:`MAX_ENUMERATED_SUBSETS` (use
        :func:`rip_lower_bound`).

    Notes
    -----
    For each of the ``C(m, k)`` subsets ``S`` the extreme eigenvalues of the ``k x k``
    Gram matrix ``A_S^T A_S`` bound the Rayleigh quotient ``||A_S s||^2 / ||s||^2`` and
    are attained by its eigenvectors; batched ``eigvalsh``.
    """
    A_arr = check_array_argument(A, "A", ndim=2, real=True)
    check_squares_representable(A_arr, "A")
    m = A_arr.shape[1]
    k = check_int(k, "k", low=1, high=m)
    count = math.comb(m, k)
    if count > MAX_ENUMERATED_SUBSETS:
        raise ValueError(
            f"k = {k} with m = {m} columns needs {count} subsets (more than "
            f"{MAX_ENUMERATED_SUBSETS}); use rip_lower_bound for a sampled lower bound.")
    subsets = np.array(list(itertools.combinations(range(m), k)), dtype=int)
    return _summary(A_arr, subsets, k, exact=True)


def rip_lower_bound(A: object, k: int, *, n_subsets: int = 1000,
                    random_state: object = None) -> RIPConstant:
    """A lower bound on ``delta_k`` from ``n_subsets`` random k-column subsets.

    Parameters
    ----------
    A : array-like of shape (n, m)
    k : int
        ``1 <= k <= m``.
    n_subsets : int, default=1000
        ``1 <= n_subsets <= MAX_ENUMERATED_SUBSETS``; drawn uniformly, with
        repetition.
    random_state : None, int or Generator

    Returns
    -------
    RIPConstant
        ``exact=False``; ``delta`` <= the true ``delta_k``.
    """
    A_arr = check_array_argument(A, "A", ndim=2, real=True)
    check_squares_representable(A_arr, "A")
    m = A_arr.shape[1]
    k = check_int(k, "k", low=1, high=m)
    count = check_int(n_subsets, "n_subsets", low=1, high=MAX_ENUMERATED_SUBSETS)
    rng = make_rng(random_state)
    subsets = np.sort(np.argsort(rng.random((count, m)), axis=1)[:, :k], axis=1)
    return _summary(A_arr, subsets, k, exact=False)


def periodic_sinc_interpolate(samples: object, t: object) -> np.ndarray:
    """Reconstruct a 1-periodic signal from ``N`` equispaced samples ``x(j / N)``,
    ``j = 0..N-1``, at the times ``t`` (the sampling theorem of 003 §10.6's introduction,
    periodic form).

    Parameters
    ----------
    samples : array-like of shape (N,)
        Real samples, ``N >= 1``.
    t : array-like
        Times (any shape); the result is 1-periodic in ``t``.

    Returns
    -------
    ndarray of t's shape
        The trigonometric polynomial of degree ``<= N/2`` through the samples (for even
        ``N`` the frequency ``N/2`` term is the cosine alone), i.e. periodic-sinc
        (Dirichlet-kernel) interpolation. It equals the signal whenever the signal's
        highest frequency ``B`` satisfies ``N > 2 B``.

    Notes
    -----
    ``c = fft(samples) / N``; the value at ``t`` is ``sum_k c_k exp(2 pi i k t)`` over
    ``|k| < N/2``, plus ``Re(c_{N/2}) cos(pi N t)`` for even ``N``.
    """
    x = check_array_argument(samples, "samples", ndim=1, real=True)
    check_squares_representable(x, "samples")
    times = check_array_argument(t, "t", allow_empty=True, real=True)
    n = x.size
    c = np.fft.rfft(x) / n  # c_0 .. c_{floor(N/2)}
    k = np.arange(c.size)
    phase = 2.0 * np.pi * np.multiply.outer(times, k)
    weights = np.full(c.size, 2.0)
    weights[0] = 1.0
    if n % 2 == 0:
        weights[-1] = 1.0  # the Nyquist term appears once (its sine part is not seen)
    return np.real(np.exp(1j * phase) @ (weights * c))
