"""Dictionary learning (sparse coding) by alternating sparse coding and dictionary updates.

003 §10.5 (10.14)-(10.17). The notes write the samples as the *columns* of
``X`` (d x m), the dictionary as ``B`` (d x k) and the codes as ``A`` (k x m), and minimise

    sum_i ||x_i - B alpha_i||^2 + lambda sum_i ||alpha_i||_1 = ||X - B A||_F^2 + lambda ||A||_1

(no factor 1/2) by alternating two steps: with ``B`` fixed, one LASSO (10.15) per
sample; with ``A`` fixed, (10.16) ``min_B ||X - BA||_F^2``, column by column with K-SVD
(10.17). The standalone functions here (:func:`sparse_code`, :func:`ksvd_update`) keep the
notes' column convention; the estimator :class:`DictionaryLearning` follows scikit-learn
(samples as rows of its input, ``components_`` = ``B^T``, ``transform`` = ``A^T``).
"""

from __future__ import annotations

import warnings

import numpy as np
import scipy.linalg
from sklearn.base import BaseEstimator, TransformerMixin
from sklearn.exceptions import ConvergenceWarning

from algorithms._validation import (
    check_array_argument,
    check_bool,
    check_choice,
    check_fitted,
    check_int,
    check_real,
    check_squares_representable,
    make_rng,
    validate_features,
)
from algorithms.linear import solve_l1_l2

__all__ = ["DictionaryLearning", "ksvd_update", "orthogonal_matching_pursuit", "sparse_code"]

CODERS = ("lasso", "omp")
UPDATES = ("ksvd", "mod")

#: Default relative duality-gap tolerance of each per-sample LASSO (10.15) of
#: :func:`sparse_code`: the coding step's objective is within ``tol * ||x_i||^2`` of its
#: minimum per sample, so the alternation is monotone up to ``tol * ||X||_F^2``. Tighter
#: values cost thousands of coordinate-descent sweeps when two atoms are nearly parallel
#: and lambda is small (a 2 x 3 dictionary with condition number 160: 3 sweeps at 1e-8,
#: 7804 at 1e-10).
CODING_TOL = 1e-8

#: Hard cap on k * d (the dictionary's entries, 800 MB of float64): a larger request is
#: refused instead of exhausting memory.
MAX_DICTIONARY_ENTRIES = 10**8


def _objective(X: np.ndarray, B: np.ndarray, A: np.ndarray, lam: float) -> float:
    """(10.14) in matrix form: ``||X - BA||_F^2 + lam ||A||_1`` (column convention)."""
    R = X - B @ A
    return float(np.sum(R * R) + lam * np.sum(np.abs(A)))


# ---------------------------------------------------------------------------
# Sparse coding step (10.15)
# ---------------------------------------------------------------------------


def _lasso_codes(X: np.ndarray, B: np.ndarray, lam: float, A0: np.ndarray | None,
                 tol: float = CODING_TOL) -> tuple[np.ndarray, int]:
    """One LASSO (10.15) per column of X with the linear family's solver; returns the codes
    and how many sub-problems missed the duality-gap tolerance."""
    k, m = B.shape[1], X.shape[1]
    A = np.zeros((k, m))
    missed = 0
    for j in range(m):
        if not np.any(X[:, j]):  # x_j = 0: alpha_j = 0 is the minimiser
            continue
        init = None if A0 is None else A0[:, j]
        sol = solve_l1_l2(B, X[:, j], l1=lam, tol=tol, max_iter=20_000,
                          coef_init=init)
        A[:, j] = sol.coef
        missed += not sol.converged
    return A, missed


def _omp_column(x: np.ndarray, B: np.ndarray, norms: np.ndarray, n_nonzero: int,
                tol: float) -> np.ndarray:
    """OMP for one sample: greedy atom selection by normalised correlation, then least
    squares on the selected atoms."""
    k = B.shape[1]
    coef = np.zeros(k)
    residual = x.copy()
    support: list[int] = []
    usable = norms > 0.0
    for _ in range(min(n_nonzero, k)):
        if float(residual @ residual) <= tol:
            break
        score = np.where(usable, np.abs(B.T @ residual) / np.where(usable, norms, 1.0), -1.0)
        score[support] = -1.0
        j = int(np.argmax(score))
        if score[j] <= 0.0:
            break
        support.append(j)
        sub, *_ = scipy.linalg.lstsq(B[:, support], x)
        coef[:] = 0.0
        coef[support] = sub
        residual = x - B[:, support] @ sub
    return coef


def orthogonal_matching_pursuit(X: np.ndarray, B: np.ndarray, n_nonzero_coefs: int,
                                *, tol: float = 0.0) -> np.ndarray:
    """Orthogonal matching pursuit: codes with at most ``n_nonzero_coefs`` atoms each.

    Parameters
    ----------
    X : array-like of shape (d, m)
        Samples as columns (the notes' convention).
    B : array-like of shape (d, k)
        The dictionary.
    n_nonzero_coefs : int
        Atoms per sample, ``>= 1``.
    tol : float, default=0.0
        Stop a sample early once its squared residual is at most ``tol``.

    Returns
    -------
    A : ndarray of shape (k, m)

    Notes
    -----
    Greedy: pick the atom most correlated (``|b_j^T r| / ||b_j||``) with the residual,
    refit all selected atoms by least squares, repeat. An approximate coder for the
    l0-constrained problem ``min ||x - B a||^2 s.t. ||a||_0 <= T`` (the original K-SVD
    setting), not a solver of (10.15).
    """
    X_arr = check_array_argument(X, "X", ndim=2, real=True)
    B_arr = check_array_argument(B, "B", shape=(X_arr.shape[0], None), real=True)
    t = check_int(n_nonzero_coefs, "n_nonzero_coefs", low=1)
    tol_v = check_real(tol, "tol", low=0.0)
    check_squares_representable(X_arr, "X")
    check_squares_representable(B_arr, "B")
    return _omp(X_arr, B_arr, t, tol_v)


def _omp(X: np.ndarray, B: np.ndarray, n_nonzero: int, tol: float) -> np.ndarray:
    norms = np.linalg.norm(B, axis=0)
    return np.column_stack(
        [_omp_column(X[:, j], B, norms, n_nonzero, tol) for j in range(X.shape[1])]
    ) if X.shape[1] else np.zeros((B.shape[1], 0))


def sparse_code(X: np.ndarray, B: np.ndarray, *, lam: float = 1.0, method: str = "lasso",
                n_nonzero_coefs: int | None = None, tol: float = CODING_TOL) -> np.ndarray:
    """The sparse-coding step of 003 §10.5: codes ``A`` (k x m) of the columns of ``X``.

    Parameters
    ----------
    X : array-like of shape (d, m)
        Samples as columns.
    B : array-like of shape (d, k)
        The dictionary (held fixed).
    lam : float, default=1.0
        ``lambda > 0`` of (10.15).
    method : {"lasso", "omp"}, default="lasso"
        ``"lasso"``: (10.15) ``min_a ||x_i - B a||^2 + lam ||a||_1`` for each sample,
        solved by :func:`algorithms.linear.solve_l1_l2` to a relative duality gap of
        ``tol``. ``"omp"``: :func:`orthogonal_matching_pursuit`.
    n_nonzero_coefs : int, optional
        Atoms per sample for ``"omp"`` (default ``max(1, min(d, k) // 2)``).
    tol : float, default=1e-8
        Relative duality-gap tolerance of each LASSO: objective within ``tol ||x_i||^2``
        of the per-sample minimum.

    Returns
    -------
    A : ndarray of shape (k, m)
    """
    X_arr = check_array_argument(X, "X", ndim=2, real=True)
    B_arr = check_array_argument(B, "B", shape=(X_arr.shape[0], None), real=True)
    lam_v = check_real(lam, "lam", low=0.0, low_open=True)
    method = check_choice(method, "method", CODERS)
    tol_v = check_real(tol, "tol", low=0.0, low_open=True)
    check_squares_representable(X_arr, "X")
    check_squares_representable(B_arr, "B")
    d, k = B_arr.shape
    t = max(1, min(d, k) // 2) if n_nonzero_coefs is None else check_int(
        n_nonzero_coefs, "n_nonzero_coefs", low=1)
    if method == "omp":
        return _omp(X_arr, B_arr, t, 0.0)
    return _lasso_codes(X_arr, B_arr, lam_v, None, tol_v)[0]


# ---------------------------------------------------------------------------
# Dictionary step (10.16)-(10.17)
# ---------------------------------------------------------------------------


def _ksvd(X: np.ndarray, B: np.ndarray, A: np.ndarray) -> tuple[np.ndarray, np.ndarray, list[int]]:
    B, A = B.copy(), A.copy()
    unused: list[int] = []
    R = X - B @ A  # the residual, kept current as atoms change
    for i in range(B.shape[1]):
        omega = np.flatnonzero(A[i])
        if omega.size == 0:
            unused.append(i)
            continue
        # E_i restricted to the samples that use atom i: residual plus atom i's own term
        E = R[:, omega] + np.outer(B[:, i], A[i, omega])
        U, s, Vt = scipy.linalg.svd(E, full_matrices=False, lapack_driver="gesvd")
        new_b, new_a = U[:, 0], s[0] * Vt[0]
        R[:, omega] = E - np.outer(new_b, new_a)
        B[:, i] = new_b
        A[i, omega] = new_a
    return B, A, unused


def ksvd_update(X: np.ndarray, B: np.ndarray, A: np.ndarray
                ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """One K-SVD sweep over the atoms, 003 §10.5 (10.17).

    Parameters
    ----------
    X : array-like of shape (d, m)
        Samples as columns (the notes' convention).
    B : array-like of shape (d, k)
        Dictionary.
    A : array-like of shape (k, m)
        Codes; row ``alpha^i`` holds atom ``i``'s coefficients.

    Returns
    -------
    B_new : ndarray of shape (d, k)
    A_new : ndarray of shape (k, m)
    unused : ndarray of int
        Atoms whose row ``alpha^i`` was entirely zero; they are left unchanged (the
        estimator re-initialises them).

    Notes
    -----
    For ``i = 1..k`` in turn (each update sees the previous ones), with
    ``omega_i = {j : alpha^i_j != 0}``: ``E_i = X - sum_{j != i} b_j alpha^j`` restricted
    to the columns ``omega_i``; its top singular triple ``(sigma_1, u_1, v_1)`` gives
    ``b_i <- u_1`` and ``alpha^i_{omega_i} <- sigma_1 v_1``. Entries of ``alpha^i``
    outside ``omega_i`` stay zero, so the sparsity pattern can only shrink, and
    ``||X - BA||_F^2`` does not increase (the old pair is one rank-one candidate).
    """
    X_arr = check_array_argument(X, "X", ndim=2, real=True)
    d, m = X_arr.shape
    B_arr = check_array_argument(B, "B", shape=(d, None), real=True)
    A_arr = check_array_argument(A, "A", shape=(B_arr.shape[1], m), real=True)
    for arr, name in ((X_arr, "X"), (B_arr, "B"), (A_arr, "A")):
        check_squares_representable(arr, name)
    B_new, A_new, unused = _ksvd(X_arr, B_arr, A_arr)
    return B_new, A_new, np.asarray(unused, dtype=int)


def _mod(X: np.ndarray, A: np.ndarray) -> np.ndarray:
    """(10.16) solved exactly for B with A fixed: the least-squares ``B = X A^+``
    (minimum-norm solution when ``A A^T`` is singular)."""
    Bt, *_ = scipy.linalg.lstsq(A.T, X.T)
    return Bt.T


# ---------------------------------------------------------------------------
# The estimator
# ---------------------------------------------------------------------------


class DictionaryLearning(TransformerMixin, BaseEstimator):
    """Dictionary learning by alternating sparse coding (10.15) and K-SVD (10.17).

    Parameters
    ----------
    n_components : int, default=8
        Dictionary size ``k`` (number of atoms), ``>= 1``.
    lam : float, default=1.0
        ``lambda > 0`` of (10.14)-(10.15) (no factor 1/2 on the squared error: the
        scikit-learn ``alpha`` of ``1/2 ||x - B a||^2 + alpha ||a||_1`` is ``lam / 2``).
    coding : {"lasso", "omp"}, default="lasso"
        Sparse coder: the LASSO (10.15) solved per sample by
        :func:`algorithms.linear.solve_l1_l2`, or orthogonal matching pursuit with
        ``n_nonzero_coefs`` atoms per sample.
    dictionary_update : {"ksvd", "mod"}, default="ksvd"
        ``"ksvd"``: one K-SVD sweep (10.17) (unit-norm atoms; also rewrites the non-zero
        entries of each ``alpha^i``). ``"mod"``: the exact solution of (10.16) with the
        codes fixed, ``B = X A^+`` (atoms not normalised: (10.14) puts no constraint on B).
    n_nonzero_coefs : int, optional
        Atoms per sample for ``coding="omp"`` (default ``max(1, min(d, k) // 2)``).
    coding_tol : float, default=1e-8
        Relative duality-gap tolerance of each per-sample LASSO.
    max_iter : int, default=50
        Alternation rounds (coding + dictionary step), ``>= 1``.
    tol : float, default=1e-6
        Stop when the relative decrease of (10.14) over a round is at most ``tol``.
    record_history : bool, default=False
        Keep every iterate ``(B, A)`` in ``history_``.
    random_state : None, int or Generator
        Initial atoms: distinct random samples (then Gaussian vectors when ``k`` exceeds
        the number of samples), normalised to unit length.

    Attributes
    ----------
    components_ : ndarray of shape (k, d)
        The atoms as rows (``B^T``).
    dictionary_ : ndarray of shape (d, k)
        ``B`` in the notes' convention.
    codes_ : ndarray of shape (k, m)
        ``A`` of the training samples after the last round.
    objective_history_ : ndarray
        (10.14) recorded by the loop: entry 0 at the initial dictionary with its codes
        (after the first coding step), then, per round ``t``, entry ``2t - 1`` after the
        dictionary step and entry ``2t`` after the next coding step.
    history_ : list of (B, A)
        With ``record_history``: the iterates behind each entry of the objective history.
    reinitialised_ : list of (round, atom)
        Atoms no sample used after a K-SVD sweep, re-initialised to the worst-represented
        sample (largest residual), normalised.
    n_iter_, converged_ : int, bool
    n_coding_failures_ : int
        LASSO sub-problems that missed the duality-gap tolerance (0 on normal runs).

    Notes
    -----
    Round: ``A <- argmin (10.15)`` per sample, then the dictionary step, then unused atoms
    re-initialised (their ``alpha^i = 0``, so (10.14) is unchanged). With exact
    sub-solvers (``coding="lasso"``, ``dictionary_update="mod"``) every step is an exact
    block minimisation and (10.14) never increases. K-SVD lowers ``||X - BA||_F^2`` but
    its ``alpha^i <- sigma_1 v_1`` can raise ``lambda ||A||_1`` (claim
    ``dict.ksvd_step_monotone_as_written``), so with the LASSO coder the rounds can cycle
    at a small amplitude and never meet ``tol`` (a ``ConvergenceWarning`` says so); K-SVD
    with OMP coding, its original l0 setting, settles in a few rounds. Without a bound on
    the atoms (``"mod"``) (10.14) is degenerate: ``(cB, A/c)`` lowers it for ``c > 1``, so
    the atoms can grow slowly while the objective keeps falling.

    References
    ----------
    003 §10.5 (10.14)-(10.17); Aharon, Elad and Bruckstein (2006), K-SVD.
    """

    def __init__(self, *, n_components: int = 8, lam: float = 1.0, coding: str = "lasso",
                 dictionary_update: str = "ksvd", n_nonzero_coefs: int | None = None,
                 coding_tol: float = CODING_TOL, max_iter: int = 50, tol: float = 1e-6,
                 record_history: bool = False, random_state: object = None) -> None:
        self.n_components = n_components
        self.lam = lam
        self.coding = coding
        self.dictionary_update = dictionary_update
        self.n_nonzero_coefs = n_nonzero_coefs
        self.coding_tol = coding_tol
        self.max_iter = max_iter
        self.tol = tol
        self.record_history = record_history
        self.random_state = random_state

    def _settings(self) -> None:
        self._k = check_int(self.n_components, "n_components", low=1)
        self._lam = check_real(self.lam, "lam", low=0.0, low_open=True)
        self._coding = check_choice(self.coding, "coding", CODERS)
        self._update = check_choice(self.dictionary_update, "dictionary_update", UPDATES)
        self._t = None if self.n_nonzero_coefs is None else check_int(
            self.n_nonzero_coefs, "n_nonzero_coefs", low=1)
        self._coding_tol = check_real(self.coding_tol, "coding_tol", low=0.0, low_open=True)
        self._max_iter = check_int(self.max_iter, "max_iter", low=1)
        self._tol = check_real(self.tol, "tol", low=0.0)
        check_bool(self.record_history, "record_history")

    def _code(self, X: np.ndarray, B: np.ndarray, A0: np.ndarray | None, lam: float
              ) -> tuple[np.ndarray, int]:
        """Codes of the columns of X, and how many LASSO sub-problems missed their gap."""
        if self._coding == "omp":
            t = self._t if self._t is not None else max(1, min(B.shape) // 2)
            return _omp(X, B, t, 0.0), 0
        return _lasso_codes(X, B, lam, A0, self._coding_tol)

    def _initial_dictionary(self, X: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        d, m = X.shape
        k = self._k
        picks = rng.choice(m, size=min(k, m), replace=False)
        B = np.concatenate([X[:, picks], rng.normal(size=(d, k - picks.size))], axis=1)
        return _normalised(B, rng)

    def fit(self, X: object, y: object = None) -> DictionaryLearning:
        """Learn the dictionary from ``X`` (n_samples, n_features); returns self."""
        self._settings()
        data = validate_features(self, X, reset=True)
        check_squares_representable(data, "X")
        if self._k * data.shape[1] > MAX_DICTIONARY_ENTRIES:
            raise ValueError(
                f"n_components={self._k} atoms of {data.shape[1]} features exceed the cap of "
                f"{MAX_DICTIONARY_ENTRIES} dictionary entries; choose fewer atoms.")
        scale = float(np.max(np.abs(data))) if data.size else 0.0
        scale = scale if scale > 0.0 else 1.0
        rng = make_rng(self.random_state)
        Xc = data.T / scale  # notes' convention (d x m), scaled to max |x| = 1
        # x = s x', alpha = s alpha': (10.14) = s^2 (||x' - B alpha'||^2 + lam/s ||alpha'||_1)
        lam = self._lam / scale
        B = self._initial_dictionary(Xc, rng)
        A, failures = self._code(Xc, B, None, lam)
        history = [_objective(Xc, B, A, lam)]
        iterates = [(B.copy(), A.copy())] if self.record_history else []
        reinit: list[tuple[int, int]] = []
        converged = False
        n_iter = 0
        for it in range(1, self._max_iter + 1):
            n_iter = it
            if self._update == "ksvd":
                B, A, unused = _ksvd(Xc, B, A)
                if unused:
                    B = self._reinitialise(Xc, B, A, unused)
                    reinit.extend((it, i) for i in unused)
            else:
                B = _mod(Xc, A)
            history.append(_objective(Xc, B, A, lam))
            if self.record_history:
                iterates.append((B.copy(), A.copy()))
            A, missed = self._code(Xc, B, A, lam)
            failures += missed
            history.append(_objective(Xc, B, A, lam))
            if self.record_history:
                iterates.append((B.copy(), A.copy()))
            before, after = history[-3], history[-1]
            if abs(before - after) <= self._tol * max(abs(before), np.finfo(float).tiny):
                converged = True
                break
        if not converged:
            warnings.warn(
                f"DictionaryLearning did not converge in max_iter={self._max_iter} rounds "
                f"(relative objective change above tol={self._tol:g}).",
                ConvergenceWarning, stacklevel=2)
        # Back to the caller's scale: X = scale * Xc, B unchanged, A scaled by `scale`.
        self.dictionary_ = B
        self.components_ = B.T.copy()
        self.codes_ = A * scale
        self.objective_history_ = np.asarray(history) * scale**2
        self.history_ = [(Bi, Ai * scale) for Bi, Ai in iterates]
        self.reinitialised_ = reinit
        self.n_iter_ = n_iter
        self.converged_ = converged
        self.n_coding_failures_ = failures
        return self

    def _reinitialise(self, X: np.ndarray, B: np.ndarray, A: np.ndarray,
                      unused: list[int]) -> np.ndarray:
        """Unused atoms <- the worst-represented samples (largest residual), normalised;
        distinct samples for distinct atoms while they last."""
        B = B.copy()
        R = X - B @ A
        order = np.argsort(-np.sum(R * R, axis=0), kind="stable")
        rng = np.random.default_rng(len(unused))
        for slot, i in enumerate(unused):
            column = X[:, order[slot]] if slot < order.size else rng.normal(size=X.shape[0])
            B[:, i] = _normalised(column[:, None], rng)[:, 0]
        return B

    def transform(self, X: object) -> np.ndarray:
        """Sparse codes of ``X`` (n_samples, n_features) on the learned dictionary:
        ``A^T``, shape (n_samples, n_components)."""
        check_fitted(self, "components_")
        data = validate_features(self, X, reset=False)
        check_squares_representable(data, "X")
        self._settings()
        top = float(np.max(np.abs(data))) if data.size else 0.0
        scale = top if top > 0.0 else 1.0
        A, _ = self._code(data.T / scale, self.dictionary_, None, self._lam / scale)
        return (A * scale).T


def _normalised(B: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Columns scaled to unit length; a zero column is replaced by a random unit vector."""
    B = np.array(B, dtype=float)
    norms = np.linalg.norm(B, axis=0)
    zero = norms <= 0.0
    if np.any(zero):
        B[:, zero] = rng.normal(size=(B.shape[0], int(zero.sum())))
        norms = np.linalg.norm(B, axis=0)
    return B / norms
