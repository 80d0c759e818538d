"""A generic SMO solver for the box- and equality-constrained QP duals of SVC and SVR.

Both duals are instances of

    min_beta  f(beta) = 1/2 beta^T Q beta + p^T beta
    s.t.      z^T beta = 0,   0 <= beta_t <= u_t,

with ``z_t in {-1, +1}`` and ``Q_st = z_s z_t Kt_st`` for a kernel-like matrix
``Kt`` (the Gram matrix for SVC; the Gram matrix tiled twice for SVR). The
classification dual (4.9)/(4.31) of 003 §4.2/§4.4 has ``beta = alpha``,
``z = y``, ``p = -1``, ``u = C``: maximising (4.9) is minimising ``f``.

Each step changes one pair along the constraint line, ``beta_i += z_i t``,
``beta_j -= z_j t``, which keeps ``z_i beta_i + z_j beta_j`` (the note's (4.12),
read correctly) and hence ``z^T beta`` fixed. On that line ``f`` changes by
``-b t + a t^2 / 2`` with ``b = v_i - v_j`` (``v = -z * grad f``) and curvature
``a = Kt_ii + Kt_jj - 2 Kt_ij``, so the unconstrained step is ``t = b / a``,
clipped to the box of *both* variables.

Pair updates are coordinate descent: their linear rate degrades with the
conditioning of the dual restricted to the free variables. When that restricted
Hessian is nearly singular (e.g. free support vectors whose feature vectors are
almost affinely dependent), SMO creeps along the flat direction for millions of
steps. Optionally (``polish=True``), once the set of free variables has stopped
changing, :func:`face_newton_step` minimises the dual over that face exactly (a
Newton step on the free variables, with exact line search clipped to the box),
which removes the dependence on the conditioning.

:func:`solve_smo` is the readable reference: plain Python, every step visible (the pair
update is a callable, the history can keep every iterate). The estimators run the same
updates compiled (:mod:`algorithms.svm._smo_kernels`: second-order pair choice,
shrinking, gradient reconstruction, a kernel-column cache) unless a history or a
replaced pair update is asked for.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from algorithms._validation import (
    InvalidArgumentError,
    check_array_argument,
    check_bool,
    check_choice,
    check_int,
    check_real,
)

__all__ = ["ColumnCache", "SMOResult", "face_newton_step", "pair_step", "solve_smo"]

#: Curvature used when ``a <= 0`` (non-PSD kernels, duplicated points), as in libsvm.
TAU = 1e-12

#: Face Newton steps are attempted only while at most this many variables are free
#: (each costs a dense (m+1) x (m+1) least-squares solve).
MAX_POLISH_FREE = 500

#: Eigenvalues of the face Hessian below this fraction of the largest are treated as
#: flat (searched as a descent ray rather than inverted); the exact line search along
#: the chosen direction uses the true curvature, so the split only selects directions.
FLAT_EIGENVALUE = 1e-10

#: Pair updates without a change of the free set before the first face Newton step.
POLISH_PATIENCE = 10

#: The pair-selection rules of :func:`solve_smo`.
WORKING_SET_RULES = ("second_order", "max_violating")


def _callable(value: object, name: str) -> Callable:
    if not callable(value):
        raise InvalidArgumentError(f"{name} must be callable, got {value!r}")
    return value


class ColumnCache:
    """Columns of a Gram matrix computed on demand and kept in an LRU cache.

    If the whole ``n x n`` matrix fits in ``cache_size_mb`` it is computed once
    (one BLAS call beats ``n`` column calls); otherwise columns are computed
    when first needed and the least recently used ones are evicted.
    """

    def __init__(
        self,
        compute_columns: Callable[[np.ndarray], np.ndarray],
        n: int,
        cache_size_mb: float,
    ) -> None:
        self._compute = _callable(compute_columns, "compute_columns")
        self.n = n = check_int(n, "n", low=0)
        cache_size_mb = check_real(cache_size_mb, "cache_size_mb", low=0.0, low_open=True)
        # a budget beyond the n x n matrix buys nothing (and 1e300 MiB is no int to keep)
        budget = int(min(cache_size_mb * 1024 * 1024 / 8, float(n * n)))
        self.full: np.ndarray | None = None
        if n * n <= budget:
            self.full = compute_columns(np.arange(n))
        self.max_columns = max(2, budget // max(n, 1))
        self._cache: OrderedDict[int, np.ndarray] = OrderedDict()
        self.hits = 0
        self.misses = 0

    def column(self, t: int) -> np.ndarray:
        """Column ``t`` (``0 <= t < n``) of the Gram matrix."""
        if not 0 <= t < self.n:
            raise ValueError(f"t must be a column index in [0, {self.n}), got {t!r}.")
        if self.full is not None:
            return self.full[:, t]
        col = self._cache.get(t)
        if col is not None:
            self._cache.move_to_end(t)
            self.hits += 1
            return col
        self.misses += 1
        col = self._compute(np.array([t]))[:, 0]
        self._cache[t] = col
        if len(self._cache) > self.max_columns:
            self._cache.popitem(last=False)
        return col


def pair_step(
    beta_i: float,
    beta_j: float,
    z_i: float,
    z_j: float,
    violation: float,
    curvature: float,
    upper_i: float,
    upper_j: float,
) -> tuple[float, float, float]:
    """The analytic two-variable SMO update with clipping (see :func:`_pair_step`).

    Checked arguments: signs ``z_i, z_j`` in {-1, +1}, box bounds ``upper > 0`` (``inf``
    allowed), ``0 <= beta <= upper``, finite ``violation`` and ``curvature``; a step that
    comes out infinite (an unbounded pair) is refused with a ValueError.
    """
    uppers = [check_real(u, name, low=0.0, low_open=True, allow_inf=True)
              for u, name in ((upper_i, "upper_i"), (upper_j, "upper_j"))]
    betas = [check_real(b, name, low=0.0, high=u)
             for b, name, u in ((beta_i, "beta_i", uppers[0]), (beta_j, "beta_j", uppers[1]))]
    signs = []
    for zv, name in ((z_i, "z_i"), (z_j, "z_j")):
        if check_real(zv, name) not in (-1.0, 1.0):
            raise ValueError(f"{name} must be -1 or +1, got {zv!r}.")
        signs.append(float(zv))
    b = check_real(violation, "violation")
    a = check_real(curvature, "curvature")
    with np.errstate(over="ignore"):
        out = _pair_step(betas[0], betas[1], signs[0], signs[1], b, a, uppers[0], uppers[1])
    if not np.all(np.isfinite(out)):
        raise ValueError("the step is unbounded: violation / curvature is infinite and "
                         "neither upper_i nor upper_j clips it.")
    return out


def _pair_step(
    beta_i: float,
    beta_j: float,
    z_i: float,
    z_j: float,
    violation: float,
    curvature: float,
    upper_i: float,
    upper_j: float,
) -> tuple[float, float, float]:
    """The analytic two-variable SMO update with clipping.

    Moves ``beta_i += z_i t`` and ``beta_j -= z_j t`` with
    ``t = min(violation / curvature, room_i, room_j)``: the unconstrained
    minimiser along the constraint line, clipped so that both variables stay in
    their boxes ``[0, upper]``. Returns ``(t, new_beta_i, new_beta_j)``; a
    variable that hits a bound is set to it exactly.
    """
    a = curvature if curvature > 0 else TAU
    room_i = upper_i - beta_i if z_i > 0 else beta_i
    room_j = beta_j if z_j > 0 else upper_j - beta_j
    t = min(violation / a, room_i, room_j)
    new_i = beta_i + z_i * t
    new_j = beta_j - z_j * t
    if t == room_i:
        new_i = upper_i if z_i > 0 else 0.0
    if t == room_j:
        new_j = 0.0 if z_j > 0 else upper_j
    return t, new_i, new_j


def face_newton_step(
    beta: np.ndarray,
    z: np.ndarray,
    p: np.ndarray,
    upper: np.ndarray,
    free: np.ndarray,
    Kt_free: np.ndarray,
) -> np.ndarray | None:
    """One exact step towards the minimum of the dual over the face on which only the
    ``free`` variables move (the others stay at their bounds).

    ``Kt_free`` holds the columns ``Kt[:, F]`` of the free set ``F``; by symmetry they
    also give the free part of the gradient afresh, ``G_F = z_F (Kt_free^T (z beta)) +
    p_F``. On the face the dual changes by ``G_F.d + 1/2 d^T Q_FF d`` (``Q_FF = z_F z_F^T
    Kt_FF``) for steps with ``z_F^T d = 0``. With ``N`` an orthonormal basis of that
    subspace and ``N^T Q_FF N = sum_k lam_k v_k v_k^T``, ``c = N^T G_F``, two candidate
    directions are formed:

    * the Newton direction on the curved part, ``-N sum_{lam_k > flat} (c_k / lam_k) v_k``
      (a unit step reaches the face minimum when ``c`` has no flat component);
    * the steepest-descent ray in the numerically flat part, ``-N sum_{lam_k <= flat} c_k
      v_k``, ``flat = FLAT_EIGENVALUE * max lam``: along it the dual is (nearly) linear,
      so its minimum lies on the boundary of the box. Nearly affinely dependent points
      make such directions; pair updates crawl along them.

    Each is searched exactly (``t = -G_F.d / d^T Q_FF d`` with the true curvature),
    clipped so that every variable stays in its box (a blocking variable is set exactly
    to its bound), and used only if its slope ``G_F.d`` exceeds four times the bound on
    its rounding error (so the dual provably decreases). Returns the new ``beta[F]`` of
    the candidate with the larger decrease, or ``None`` when neither qualifies (optimal
    on the face up to rounding, or an unbounded step, which the solver reports).
    """
    eps = np.finfo(float).eps
    zF = z[free]
    m, n = free.shape[0], z.shape[0]
    if m < 2:  # one free variable cannot move alone: z^T beta = 0 pins it
        return None
    zb = z * beta
    gF = zF * (Kt_free.T @ zb) + p[free]
    # |rounding error of each G_F entry| <= n eps (sum_s |Kt_sF| beta_s + |p_F|)
    g_err = float(np.linalg.norm(n * eps * (np.abs(Kt_free).T @ beta + np.abs(p[free]))))
    QFF = zF[:, None] * zF[None, :] * Kt_free[free]
    basis = np.linalg.qr(zF[:, None], mode="complete")[0][:, 1:]  # orthonormal, _|_ z_F
    H = basis.T @ QFF @ basis
    lam, V = np.linalg.eigh((H + H.T) / 2)
    c = V.T @ (basis.T @ gF)
    flat = lam <= FLAT_EIGENVALUE * max(float(lam[-1]), 0.0)
    directions = []
    if np.any(~flat):
        directions.append(-(basis @ (V[:, ~flat] @ (c[~flat] / lam[~flat]))))
    if np.any(flat):
        directions.append(-(basis @ (V[:, flat] @ c[flat])))
    bF, uF = beta[free], upper[free]
    best, best_gain = None, 0.0
    for d in directions:
        slope = float(gF @ d)
        slope_err = float(np.linalg.norm(d)) * g_err + m * eps * float(np.abs(gF) @ np.abs(d))
        if not slope < -4.0 * slope_err:
            continue
        curv = float(d @ QFF @ d)
        t_star = -slope / curv if curv > 0 else np.inf
        with np.errstate(divide="ignore", invalid="ignore"):
            room = np.where(d > 0, (uF - bF) / d, np.where(d < 0, bF / -d, np.inf))
        k = int(np.argmin(room))
        t = min(t_star, float(room[k]))
        if not np.isfinite(t) or t <= 0:
            continue
        gain = -(slope * t + 0.5 * max(curv, 0.0) * t * t)
        if gain > best_gain:
            new = np.clip(bF + t * d, 0.0, uF)
            if t == room[k]:
                new[k] = uF[k] if d[k] > 0 else 0.0
            best, best_gain = new, gain
    return best


@dataclass
class SMOResult:
    beta: np.ndarray
    grad: np.ndarray
    bias: float
    n_iter: int
    converged: bool
    violation: float
    objective_history: list[float] = field(default_factory=list)
    #: Indices into ``objective_history`` of the face Newton steps (``polish=True``).
    polish_steps: list[int] = field(default_factory=list)
    #: With ``record_history``: the iterates ``beta`` the loop produced, one per entry of
    #: ``objective_history`` (a copy after each pair update or face Newton step).
    iterates: list[np.ndarray] = field(default_factory=list)
    #: With ``record_history``: the pair ``(i, j)`` of each entry of
    #: ``objective_history``; ``(-1, -1)`` for a face Newton step.
    pairs: list[tuple[int, int]] = field(default_factory=list)


def _bias(beta: np.ndarray, v: np.ndarray, upper: np.ndarray, up: np.ndarray,
          low: np.ndarray) -> float:
    """Average of ``-z_t grad_t`` over free variables (003 §4.2 (4.14), restricted to
    ``0 < beta_t < u_t``); the midpoint of the feasible interval if none is free."""
    free = (beta > 0) & (beta < upper)
    if np.any(free):
        return float(np.mean(v[free]))
    lo = np.max(v[up]) if np.any(up) else -np.inf
    hi = np.min(v[low]) if np.any(low) else np.inf
    if np.isfinite(lo) and np.isfinite(hi):
        return float((lo + hi) / 2)
    return float(lo if np.isfinite(lo) else hi)


def solve_smo(
    column: Callable[[int], np.ndarray],
    diag: np.ndarray,
    z: np.ndarray,
    p: np.ndarray,
    upper: np.ndarray,
    *,
    tol: float,
    max_iter: int,
    working_set: str,
    step: Callable[..., tuple[float, float, float]] | None = None,
    polish: bool = False,
    record_history: bool = False,
) -> SMOResult:
    """Run SMO from ``beta = 0``; see the module docstring for the problem.

    ``working_set`` is ``"max_violating"`` (the maximal violating pair) or
    ``"second_order"`` (first index as before, second index maximising the
    guaranteed decrease ``b^2 / (2a)``, Fan, Chen & Lin 2005). Stops when the
    maximal violation ``m - M`` is at most ``tol``. ``step`` is the two-variable
    update (exposed so that tests can plug in a broken one).

    With ``polish``, whenever the free set ``0 < beta_t < u_t`` has not changed for
    ``patience`` consecutive pair updates (10 at first, doubled after every attempt,
    reset when the free set changes, and never below ``m^3 / n`` for ``m`` free
    variables, the first attempt included, so that the O(m^3) face steps cost no more
    than the O(n) pair updates between them) and has at most :data:`MAX_POLISH_FREE` members, a
    :func:`face_newton_step` is taken. It never increases ``f`` and keeps every
    constraint, so the result is still a valid SMO iterate; it makes the solver finish on
    faces where the pair updates' linear rate is hopeless (see the module docstring).
    ``n_iter`` counts pair updates only; ``polish_steps`` lists where in
    ``objective_history`` the Newton steps were recorded. ``record_history`` also keeps a
    copy of every iterate and the pair chosen at each step (``iterates``, ``pairs``).

    Checked arguments: ``column`` (and ``step``) callable; ``diag``, ``z``, ``p`` and
    ``upper`` finite real vectors of one length ``n`` (``upper`` may be ``inf``), with
    ``z`` in {-1, +1} and ``upper > 0``; ``tol > 0``; ``max_iter >= 1``.
    """
    column = _callable(column, "column")
    step = _pair_step if step is None else _callable(step, "step")
    z = check_array_argument(z, "z", ndim=1, real=True)
    n = z.shape[0]
    diag, p = (check_array_argument(v, name, shape=(n,), real=True)
               for v, name in ((diag, "diag"), (p, "p")))
    upper = check_array_argument(upper, "upper", shape=(n,), real=True, finite=False)
    if not np.all(np.abs(z) == 1):
        raise ValueError("z must hold the signs -1 and +1.")
    if np.any(np.isnan(upper)) or not np.all(upper > 0):
        raise ValueError("upper must hold box bounds > 0 (inf allowed).")
    tol = check_real(tol, "tol", low=0.0, low_open=True)
    max_iter = check_int(max_iter, "max_iter", low=1)
    check_choice(working_set, "working_set", WORKING_SET_RULES)
    polish, record_history = check_bool(polish, "polish"), check_bool(record_history,
                                                                      "record_history")
    beta = np.zeros(n)
    G = p.astype(float).copy()
    history: list[float] = []
    iterates: list[np.ndarray] = []
    pairs: list[tuple[int, int]] = []
    polish_steps: list[int] = []
    stable, patience, floor = 0, POLISH_PATIENCE, POLISH_PATIENCE
    pos = z > 0
    converged = False
    violation = np.inf
    n_iter = 0
    for n_iter in range(1, max_iter + 1):  # noqa: B007 - n_iter is reported
        up = (pos & (beta < upper)) | (~pos & (beta > 0))
        low = (pos & (beta > 0)) | (~pos & (beta < upper))
        v = -z * G
        if not np.any(up) or not np.any(low):
            converged, violation, n_iter = True, 0.0, n_iter - 1
            break
        v_up = np.where(up, v, -np.inf)
        v_low = np.where(low, v, np.inf)
        i = int(np.argmax(v_up))
        m_val, big_m = v_up[i], float(np.min(v_low))
        violation = float(m_val - big_m)
        if violation <= tol:
            converged, n_iter = True, n_iter - 1
            break
        Ki = column(i)
        if working_set == "second_order":
            b_all = m_val - v_low  # > 0 exactly on violating partners, +inf/-inf otherwise
            cand = low & (b_all > 0)
            a_all = diag[i] + diag - 2.0 * Ki
            a_all = np.where(a_all > 0, a_all, TAU)
            score = np.where(cand, -(b_all**2) / a_all, np.inf)
            j = int(np.argmin(score))
        else:
            j = int(np.argmin(v_low))
        Kj = column(j)
        a = float(diag[i] + diag[j] - 2.0 * Ki[j])
        b = float(m_val - v[j])
        if a <= TAU * max(1.0, abs(diag[i]) + abs(diag[j])) and not np.isfinite(
            min(upper[i] - beta[i] if pos[i] else beta[i],
                beta[j] if pos[j] else upper[j] - beta[j])
        ):
            raise ValueError(
                "the dual is unbounded along a pair with zero curvature: with C=inf "
                "(hard margin) the data are not separable in the kernel's feature space; "
                "use a finite C"
            )
        t, bi, bj = step(beta[i], beta[j], z[i], z[j], b, a, upper[i], upper[j])
        if not np.isfinite(t):
            raise ValueError("SMO step diverged: the dual is unbounded (use a finite C)")
        d_i, d_j = bi - beta[i], bj - beta[j]
        was_free = [0 < beta[i] < upper[i], 0 < beta[j] < upper[j]]
        beta[i], beta[j] = bi, bj
        # grad f = Q beta + p with Q[:, s] = z z_s Kt[:, s]
        G += z * (z[i] * d_i * Ki + z[j] * d_j * Kj)
        history.append(float(0.5 * beta @ (G + p)))
        if record_history:
            iterates.append(beta.copy())
            pairs.append((i, j))
        if not polish:
            continue
        if was_free != [0 < bi < upper[i], 0 < bj < upper[j]]:
            stable, patience = 0, floor
            continue
        stable += 1
        if stable < patience:
            continue
        free = np.flatnonzero((beta > 0) & (beta < upper))
        # a face step costs about m^3 flops, a pair update about n: space attempts so
        # that they cost no more than the pair updates between them (the first one too)
        floor = max(POLISH_PATIENCE, free.shape[0] ** 3 // n)
        if stable < floor:
            patience = floor
            continue
        stable, patience = 0, max(2 * patience, floor)
        if not 0 < free.shape[0] <= MAX_POLISH_FREE:
            continue
        Kt_free = np.column_stack([column(int(s)) for s in free])
        new = face_newton_step(beta, z, p, upper, free, Kt_free)
        if new is None:
            continue
        delta = new - beta[free]
        beta[free] = new
        G += z * (Kt_free @ (z[free] * delta))
        history.append(float(0.5 * beta @ (G + p)))
        polish_steps.append(len(history) - 1)
        if record_history:
            iterates.append(beta.copy())
            pairs.append((-1, -1))
        if np.any((new <= 0) | (new >= upper[free])):  # a blocking variable left the face
            patience = floor
    else:
        up = (pos & (beta < upper)) | (~pos & (beta > 0))
        low = (pos & (beta > 0)) | (~pos & (beta < upper))
        v = -z * G
        if np.any(up) and np.any(low):
            violation = float(np.max(v[up]) - np.min(v[low]))
        converged = violation <= tol
    up = (pos & (beta < upper)) | (~pos & (beta > 0))
    low = (pos & (beta > 0)) | (~pos & (beta < upper))
    v = -z * G
    return SMOResult(
        beta=beta,
        grad=G,
        bias=_bias(beta, v, upper, up, low),
        n_iter=n_iter,
        converged=bool(converged),
        violation=float(violation),
        objective_history=history,
        polish_steps=polish_steps,
        iterates=iterates,
        pairs=pairs,
    )
