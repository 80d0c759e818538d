"""The compiled SMO loop: the same pair updates as :func:`algorithms.svm.solve_smo`, at a
cost of O(active variables) machine work per update.

What makes it fast, in the order it matters:

* **Compiled inner loop** (numba, cached on disk). One pair update is a pass over the
  active variables to pick the pair, the analytic two-variable update (the very function
  :func:`algorithms.svm._smo_solver._pair_step`, compiled as it is written) and a pass to
  update the gradient. No Python work per update.
* **Second-order working-set selection** (Fan, Chen & Lin, JMLR 6, 2005). The first index
  ``i`` is the most violating one, ``argmax_{I_up} v`` with ``v = -z * grad f``. For each
  candidate partner ``t`` in ``I_low`` with ``b_t = v_i - v_t > 0``, a step along the pair's
  constraint line lowers ``f`` by at most ``b_t^2 / (2 a_t)``, where ``a_t = Kt_ii + Kt_tt -
  2 Kt_it`` is the curvature along that line; the partner with the largest such guaranteed
  decrease is taken. This costs one kernel column (that of ``i``) and usually needs far
  fewer updates than the maximal violating pair.
* **Shrinking.** A variable at a bound whose ``v`` lies beyond the current extreme of the
  other side (e.g. only in ``I_low`` with ``v_t > max_{I_up} v``) cannot be part of a
  violating pair now and probably will not be again; every ``min(n, 1000)`` updates such
  variables leave the active set, and the passes above run over the active ones only.
  Their gradient entries are not updated while inactive. When the violation first falls
  below ``10 tol`` and again at the end, the gradient of the inactive variables is
  rebuilt and every variable is re-activated, and the stopping test is re-run on the whole
  problem, so the answer is the one of the unshrunk solver.
* **Gradient reconstruction.** ``G_bar = sum_{s at its upper bound} u_s Q[:, s]`` is kept
  up to date (it changes only when a variable reaches or leaves its upper bound), so an
  inactive variable's gradient is ``G_bar + p + sum_{s free} beta_s Q[:, s]``: a sum over
  the free variables only.
* **Kernel-column cache.** Columns of the Gram matrix are computed when first needed (in
  compiled code for the named kernels) and kept in a least-recently-used cache within the
  memory budget ``cache_size``; when the whole matrix fits, no column is ever evicted.

The objective history is the running value of ``f`` accumulated from the exact change of
each pair update, ``-b t + a t^2 / 2`` (the gain of 003 §4.2's step; ``a`` the true
curvature), so recording it costs O(1) per update.
"""

from __future__ import annotations

import numba
import numpy as np

from algorithms.kernels import (
    GaussianKernel,
    LaplacianKernel,
    LinearKernel,
    PolynomialKernel,
    SigmoidKernel,
)
from algorithms.svm._smo_solver import MAX_POLISH_FREE, _pair_step, face_newton_step

#: The two-variable update, compiled from its readable Python definition.
pair_step_nb = numba.njit(cache=True)(_pair_step)

# kernel kinds understood by the compiled column routine
K_PRECOMPUTED, K_LINEAR, K_POLY, K_RBF, K_LAPLACIAN, K_SIGMOID = -1, 0, 1, 2, 3, 4

# return codes of run_smo
CONVERGED, MAX_ITER, CHUNK_FULL, POLISH, UNBOUNDED, KERNEL_NONFINITE, DIVERGED = range(7)

# slots of the integer state vector
(S_ACTIVE, S_ITER, S_COUNTER, S_UNSHRUNK, S_STABLE, S_PATIENCE, S_FLOOR, S_HIST, S_USED,
 S_HEAD, S_TAIL, S_HITS, S_MISSES, S_FULL, S_BAD, N_INT_STATE) = range(16)
# slots of the float state vector
F_OBJECTIVE, F_VIOLATION, N_FLOAT_STATE = range(3)

#: Shrinking runs every min(n, SHRINK_EVERY) pair updates.
SHRINK_EVERY = 1000


#: Squared distances below this fraction of |x|^2 + |z|^2 are recomputed from the
#: differences (the expansion |x|^2 + |z|^2 - 2 x.z cancels there; duplicates get 0).
CANCELLATION = 1e-6


@numba.njit(cache=True)
def kernel_column(kind, par, X, p, out):
    """``out[r] = kappa(x_r, x_p)`` for every row ``r`` of ``X``, for the named kernels
    with the formulas of :mod:`algorithms.kernels`. ``par`` holds the kernel's two
    parameters followed by the squared norms of the rows of ``X``.

    The inner products come from one BLAS matrix-vector product; the radial kernels use
    ``||x - z||^2 = |x|^2 + |z|^2 - 2 x.z`` except where that cancels (near-duplicates),
    which are summed from the differences, so that duplicates are at distance exactly 0
    as with ``cdist``. Returns False if a value is not finite."""
    m, d = X.shape
    xp = X[p]
    out[:] = np.dot(X, xp)
    if kind == K_RBF or kind == K_LAPLACIAN:
        sq = par[2:]
        for r in range(m):
            d2 = sq[r] + sq[p] - 2.0 * out[r]
            if not d2 > CANCELLATION * (sq[r] + sq[p]):  # (also a NaN from overflow)
                d2 = 0.0
                xr = X[r]
                for k in range(d):
                    diff = xr[k] - xp[k]
                    d2 += diff * diff
            dist = np.sqrt(d2) / par[0]
            out[r] = np.exp(-0.5 * dist * dist) if kind == K_RBF else np.exp(-dist)
    elif kind == K_POLY:
        degree, coef0 = int(par[0]), par[1]
        for r in range(m):
            out[r] = (out[r] + coef0) ** degree
    elif kind == K_SIGMOID:
        for r in range(m):
            out[r] = np.tanh(par[0] * out[r] + par[1])
    for r in range(m):
        if not np.isfinite(out[r]):
            return False
    return True


@numba.njit(cache=True)
def _lru_unlink(s, prev, nxt, ist):
    a, b = prev[s], nxt[s]
    if a >= 0:
        nxt[a] = b
    else:
        ist[S_HEAD] = b
    if b >= 0:
        prev[b] = a
    else:
        ist[S_TAIL] = a


@numba.njit(cache=True)
def _lru_push_front(s, prev, nxt, ist):
    prev[s] = -1
    nxt[s] = ist[S_HEAD]
    if ist[S_HEAD] >= 0:
        prev[ist[S_HEAD]] = s
    ist[S_HEAD] = s
    if ist[S_TAIL] < 0:
        ist[S_TAIL] = s


@numba.njit(cache=True)
def get_column(pt, kind, par, X, buf, slot_of, point_of, prev, nxt, ist):
    """The cache slot (row of ``buf``) holding the kernel column of point ``pt``; computed
    into the least recently used slot if absent. -1 if a kernel value is not finite."""
    s = slot_of[pt]
    if ist[S_FULL] == 1:  # no eviction; slots handed out in order, so that the memory
        if s >= 0:        # touched is a compact prefix of the buffer
            return s
        s = ist[S_USED]
        ist[S_USED] += 1
    elif s >= 0:
        ist[S_HITS] += 1
        if ist[S_HEAD] != s:
            _lru_unlink(s, prev, nxt, ist)
            _lru_push_front(s, prev, nxt, ist)
        return s
    else:
        ist[S_MISSES] += 1
        if ist[S_USED] < buf.shape[0]:
            s = ist[S_USED]
            ist[S_USED] += 1
        else:
            s = ist[S_TAIL]
            _lru_unlink(s, prev, nxt, ist)
            slot_of[point_of[s]] = -1
        _lru_push_front(s, prev, nxt, ist)
    if not kernel_column(kind, par, X, pt, buf[s]):
        ist[S_BAD] = pt
        return -1
    point_of[s] = pt
    slot_of[pt] = s
    return s


# rows of the float variable table V (position space, see run_smo)
R_Z, R_P, R_U, R_DIAG, R_BETA, R_G, R_GBAR, N_ROWS = range(8)
# rows of the integer variable table T
I_POINT, I_ORDER, I_FLAG, N_IROWS = range(4)
#: flag bits: the variable is in I_up (may move up along z), in I_low
UP, LOW = 1, 2


@numba.njit(cache=True)
def flag_of(zt, bt, ut):
    """``UP`` if ``t`` is in I_up (``z_t beta_t`` can grow), ``LOW`` if in I_low (can
    shrink), both when free."""
    f = 0
    if (zt > 0 and bt < ut) or (zt < 0 and bt > 0):
        f |= UP
    if (zt > 0 and bt > 0) or (zt < 0 and bt < ut):
        f |= LOW
    return f


@numba.njit(cache=True)
def _swap(V, T, a, b):
    for r in range(V.shape[0]):
        V[r, a], V[r, b] = V[r, b], V[r, a]
    for r in range(T.shape[0]):
        T[r, a], T[r, b] = T[r, b], T[r, a]


@numba.njit(cache=True)
def reconstruct_gradient(V, T, kind, par, X, buf, slot_of, point_of, prev, nxt, ist):
    """Rebuild ``G`` of the inactive variables (positions ``active..n-1``) from ``G_bar``,
    ``p`` and the free variables: ``G_t = G_bar_t + p_t + sum_{s free} z_t z_s beta_s
    Kt_ts``. Loops over the free variables' kernel columns or over the inactive ones',
    whichever are fewer, and re-activates everything. False if a kernel value is not
    finite."""
    z, p, upper, beta, G, G_bar = V[R_Z], V[R_P], V[R_U], V[R_BETA], V[R_G], V[R_GBAR]
    point = T[I_POINT]
    n = z.shape[0]
    active = ist[S_ACTIVE]
    if active == n:
        return True
    for t in range(active, n):
        G[t] = G_bar[t] + p[t]
    n_free = 0
    for s in range(active):
        if 0 < beta[s] < upper[s]:
            n_free += 1
    if n_free <= n - active:
        for s in range(active):
            if not 0 < beta[s] < upper[s]:
                continue
            slot = get_column(point[s], kind, par, X, buf, slot_of, point_of, prev, nxt, ist)
            if slot < 0:
                return False
            col = buf[slot]
            c = z[s] * beta[s]
            for t in range(active, n):
                G[t] += z[t] * c * col[point[t]]
    else:
        for t in range(active, n):
            slot = get_column(point[t], kind, par, X, buf, slot_of, point_of, prev, nxt, ist)
            if slot < 0:
                return False
            col = buf[slot]
            acc = 0.0
            for s in range(active):
                if 0 < beta[s] < upper[s]:
                    acc += z[s] * beta[s] * col[point[s]]
            G[t] += z[t] * acc
    ist[S_ACTIVE] = n
    return True


@numba.njit(cache=True)
def _extremes(V, T, active):
    """``(max_{I_up} v, its position, min_{I_low} v, its position)`` over the active
    variables, ``v = -z G``."""
    z, G, flag = V[R_Z], V[R_G], T[I_FLAG]
    m_val, i = -np.inf, -1
    big_m, j = np.inf, -1
    for t in range(active):
        v = -z[t] * G[t]
        f = flag[t]
        vu = v if f & UP else -np.inf
        vl = v if f & LOW else np.inf
        if vu > m_val:
            m_val, i = vu, t
        if vl < big_m:
            big_m, j = vl, t
    return m_val, i, big_m, j


@numba.njit(cache=True)
def _shrink(V, T, ist, tol, kind, par, X, buf, slot_of, point_of, prev, nxt):
    """Move to the inactive tail the bound variables that cannot be in a violating pair;
    the first time the violation is below 10 tol, re-activate everything first."""
    m_val, _, big_m, _ = _extremes(V, T, ist[S_ACTIVE])
    if ist[S_UNSHRUNK] == 0 and m_val - big_m <= 10.0 * tol:
        ist[S_UNSHRUNK] = 1
        if not reconstruct_gradient(V, T, kind, par, X, buf, slot_of, point_of, prev, nxt,
                                    ist):
            return False
        m_val, _, big_m, _ = _extremes(V, T, ist[S_ACTIVE])
    z, G, flag = V[R_Z], V[R_G], T[I_FLAG]
    k = 0
    while k < ist[S_ACTIVE]:
        v = -z[k] * G[k]
        f = flag[k]
        if (f == LOW and v > m_val) or (f == UP and v < big_m):
            last = ist[S_ACTIVE] - 1
            _swap(V, T, k, last)
            ist[S_ACTIVE] = last
        else:
            k += 1
    return True


@numba.njit(cache=True)
def _update_g_bar(s, col, old, new, V, point):
    """Keep ``G_bar = sum_{t at its upper bound} u_t Q[:, t]`` when the variable at
    position ``s`` moves from ``old`` to ``new``."""
    z, upper, G_bar = V[R_Z], V[R_U], V[R_GBAR]
    at_upper_before = old >= upper[s]
    if at_upper_before == (new >= upper[s]):
        return
    c = z[s] * upper[s] if not at_upper_before else -z[s] * upper[s]
    for t in range(z.shape[0]):
        G_bar[t] += z[t] * c * col[point[t]]


@numba.njit(cache=True)
def run_smo(V, T, kind, par, X, buf, slot_of, point_of, prev, nxt, ist, fst, hist, tol,
            max_iter, second_order, shrinking, polish, max_polish_free):
    """Pair updates until convergence, ``max_iter`` updates in all, a full history buffer,
    a face-step request (``polish``) or an error; returns the reason (a code above).

    The variables live in *position space*: column ``t`` of the tables ``V`` (rows
    ``z, p, u, diag, beta, G, G_bar``) and ``T`` (rows ``point`` — the training point whose
    kernel column serves it —, ``order`` — its original index — and ``flag``); the active
    ones occupy positions ``0..active-1``, so every pass runs over a contiguous prefix.
    All state lives in these arrays, so a call resumes where the previous one returned.
    """
    z, upper, diag = V[R_Z], V[R_U], V[R_DIAG]
    beta, G = V[R_BETA], V[R_G]
    point, flag = T[I_POINT], T[I_FLAG]
    n = z.shape[0]
    fresh = False  # whether (m_val, i, big_m, j) hold the extremes of the active set
    m_val, i, big_m, j = -np.inf, -1, np.inf, -1
    while True:
        if ist[S_HIST] >= hist.shape[0]:
            return CHUNK_FULL
        if shrinking:
            ist[S_COUNTER] -= 1
            if ist[S_COUNTER] <= 0:
                ist[S_COUNTER] = min(n, SHRINK_EVERY)
                if not _shrink(V, T, ist, tol, kind, par, X, buf, slot_of, point_of, prev,
                               nxt):
                    return KERNEL_NONFINITE
                fresh = False
        active = ist[S_ACTIVE]
        if not fresh:
            m_val, i, big_m, j = _extremes(V, T, active)
        fresh = False
        violation = m_val - big_m if (i >= 0 and j >= 0) else 0.0
        if violation <= tol or ist[S_ITER] >= max_iter:
            if active < n:  # re-check on the whole problem
                if not reconstruct_gradient(V, T, kind, par, X, buf, slot_of, point_of, prev,
                                            nxt, ist):
                    return KERNEL_NONFINITE
                # re-select on all variables; shrink again only after one more update
                ist[S_COUNTER] = 2 if ist[S_ITER] < max_iter else n + SHRINK_EVERY + 2
                continue
            fst[F_VIOLATION] = violation
            return CONVERGED if violation <= tol else MAX_ITER
        si = get_column(point[i], kind, par, X, buf, slot_of, point_of, prev, nxt, ist)
        if si < 0:
            return KERNEL_NONFINITE
        Ki = buf[si]
        if second_order:
            best = np.inf
            j = -1
            di = diag[i]
            for t in range(active):
                if not flag[t] & LOW:
                    continue
                b = m_val + z[t] * G[t]
                if b > 0:
                    a = di + diag[t] - 2.0 * Ki[point[t]]
                    if not a > 0:
                        a = 1e-12
                    score = -(b * b) / a
                    if score < best:
                        best, j = score, t
        sj = get_column(point[j], kind, par, X, buf, slot_of, point_of, prev, nxt, ist)
        if sj < 0:
            return KERNEL_NONFINITE
        Ki = buf[si]  # the slot of i is the most recent but one: never evicted for j
        Kj = buf[sj]
        a = diag[i] + diag[j] - 2.0 * Ki[point[j]]
        b = m_val + z[j] * G[j]
        room_i = upper[i] - beta[i] if z[i] > 0 else beta[i]
        room_j = beta[j] if z[j] > 0 else upper[j] - beta[j]
        if a <= 1e-12 * max(1.0, abs(diag[i]) + abs(diag[j])) and not np.isfinite(
                min(room_i, room_j)):
            return UNBOUNDED
        bi_old, bj_old = beta[i], beta[j]
        t_step, bi, bj = pair_step_nb(bi_old, bj_old, z[i], z[j], b, a, upper[i], upper[j])
        if not np.isfinite(t_step):
            return DIVERGED
        beta[i], beta[j] = bi, bj
        flag[i] = flag_of(z[i], bi, upper[i])
        flag[j] = flag_of(z[j], bj, upper[j])
        ci, cj = z[i] * (bi - bi_old), z[j] * (bj - bj_old)
        # gradient update fused with the next selection's extremes
        m_val, i_next, big_m, j_next = -np.inf, -1, np.inf, -1
        for t in range(active):
            g = G[t] + z[t] * (ci * Ki[point[t]] + cj * Kj[point[t]])
            G[t] = g
            v = -z[t] * g
            f = flag[t]
            vu = v if f & UP else -np.inf
            vl = v if f & LOW else np.inf
            if vu > m_val:
                m_val, i_next = vu, t
            if vl < big_m:
                big_m, j_next = vl, t
        _update_g_bar(i, Ki, bi_old, bi, V, point)
        _update_g_bar(j, Kj, bj_old, bj, V, point)
        fst[F_OBJECTIVE] += -b * t_step + 0.5 * a * t_step * t_step
        hist[ist[S_HIST]] = fst[F_OBJECTIVE]
        ist[S_HIST] += 1
        ist[S_ITER] += 1
        free_changed = ((0 < bi_old < upper[i]) != (0 < bi < upper[i])) or (
            (0 < bj_old < upper[j]) != (0 < bj < upper[j]))
        i, j = i_next, j_next
        fresh = True
        if not polish:
            continue
        if free_changed:
            ist[S_STABLE] = 0
            ist[S_PATIENCE] = ist[S_FLOOR]
            continue
        ist[S_STABLE] += 1
        if ist[S_STABLE] < ist[S_PATIENCE]:
            continue
        n_free = 0
        for t in range(active):
            if 0 < beta[t] < upper[t]:
                n_free += 1
        # space face steps (O(m^3)) so that they cost no more than the updates between
        ist[S_FLOOR] = (max(10, (n_free * n_free * n_free) // n) if n_free < 2_000_000
                        else 1 << 62)  # (m^3 would overflow int64: never worth it)
        if ist[S_STABLE] < ist[S_FLOOR]:
            ist[S_PATIENCE] = ist[S_FLOOR]
            continue
        ist[S_STABLE] = 0
        ist[S_PATIENCE] = max(2 * ist[S_PATIENCE], ist[S_FLOOR])
        if 0 < n_free <= max_polish_free:
            return POLISH


def _kernel_kind(kernel, X: np.ndarray) -> tuple[int, np.ndarray]:
    """The compiled column routine's code for a named kernel (exact classes only: a
    subclass may redefine the function), or ``K_PRECOMPUTED``; and its ``par``: the two
    kernel parameters followed by the squared norms of the rows of ``X``."""
    t = type(kernel)
    kind, params = K_PRECOMPUTED, (0.0, 0.0)
    if t is LinearKernel:
        kind = K_LINEAR
    elif t is PolynomialKernel:
        kind, params = K_POLY, (kernel.degree, kernel.coef0)
    elif t is GaussianKernel:
        kind, params = K_RBF, (kernel.sigma, 0.0)
    elif t is LaplacianKernel:
        kind, params = K_LAPLACIAN, (kernel.sigma, 0.0)
    elif t is SigmoidKernel:
        kind, params = K_SIGMOID, (kernel.beta, kernel.theta)
    with np.errstate(over="ignore"):  # an overflowing norm only feeds the exact fallback
        sq = np.einsum("ij,ij->i", X, X)
    return kind, np.concatenate([np.asarray(params, dtype=np.float64), sq])


#: Further face Newton steps on the smaller face after a blocked one (see _face_step).
FACE_RETRIES = 3
#: As the Python solver's MAX_POLISH_FREE.
MAX_FACE_FREE = MAX_POLISH_FREE

#: Pair updates recorded per call of the compiled loop (the history comes back in chunks).
HISTORY_CHUNK = 1 << 16


class CompiledSMO:
    """The state of one compiled SMO run over ``beta`` of length ``n = k m`` (``k`` copies
    of the ``m`` points: 1 for SVC, 2 for SVR), and the Python driver around
    :func:`run_smo` (face Newton steps, errors, the result)."""

    def __init__(self, kernel, X: np.ndarray, z: np.ndarray, p: np.ndarray,
                 upper: np.ndarray, cache_size_mb: float) -> None:
        m = X.shape[0]
        n = z.shape[0]
        self.kernel, self.X = kernel, np.ascontiguousarray(X, dtype=np.float64)
        self.kind, self.par = _kernel_kind(kernel, self.X)
        self.V = np.zeros((N_ROWS, n))
        self.T = np.zeros((N_IROWS, n), dtype=np.int64)
        self.T[I_POINT] = np.arange(n) % m
        self.T[I_ORDER] = np.arange(n)
        self.V[R_Z], self.V[R_P], self.V[R_U] = z, p, upper
        self.V[R_DIAG] = np.asarray(kernel.diag(self.X), dtype=np.float64)[self.T[I_POINT]]
        self.V[R_G] = p
        self.T[I_FLAG] = np.where(self.z > 0, UP, LOW)  # beta = 0 < upper
        budget = int(min(cache_size_mb * 1024 * 1024 / 8, float(m * m)))
        full = m * m <= budget
        self.slot_of = np.full(m, -1, dtype=np.int64)
        if self.kind == K_PRECOMPUTED:
            self.buf = np.ascontiguousarray(kernel(self.X)) if full else None
            self.slot_of[:] = np.arange(m)
        else:
            self.buf = np.empty((m if full else max(2, budget // m), m))
        slots = 0 if self.buf is None else self.buf.shape[0]
        self.point_of = np.full(slots, -1, dtype=np.int64)
        self.prev = np.full(slots, -1, dtype=np.int64)
        self.nxt = np.full(slots, -1, dtype=np.int64)
        self.ist = np.zeros(N_INT_STATE, dtype=np.int64)
        self.ist[[S_ACTIVE, S_COUNTER, S_PATIENCE, S_FLOOR]] = (n, min(n, SHRINK_EVERY) + 1,
                                                              10, 10)
        self.ist[[S_HEAD, S_TAIL, S_BAD]] = -1
        self.ist[S_FULL] = 1 if full else 0
        self.fst = np.zeros(N_FLOAT_STATE)

    # views of the position-space tables (the order changes as variables are shrunk)
    z = property(lambda self: self.V[R_Z])
    p = property(lambda self: self.V[R_P])
    upper = property(lambda self: self.V[R_U])
    beta = property(lambda self: self.V[R_BETA])
    G = property(lambda self: self.V[R_G])
    G_bar = property(lambda self: self.V[R_GBAR])
    point = property(lambda self: self.T[I_POINT])

    @property
    def available(self) -> bool:
        """False for a kernel the compiled code cannot evaluate whose Gram matrix does not
        fit the budget (then the Python solver runs)."""
        return self.buf is not None

    @property
    def cache_counts(self) -> tuple[int, int]:
        return int(self.ist[S_HITS]), int(self.ist[S_MISSES])

    def _column(self, pt: int) -> np.ndarray:
        slot = get_column(pt, self.kind, self.par, self.X, self.buf, self.slot_of,
                          self.point_of, self.prev, self.nxt, self.ist)
        if slot < 0:
            self._kernel_error()
        return self.buf[slot]

    def _kernel_error(self):
        bad = int(self.ist[S_BAD])
        self.kernel(self.X, self.X[[max(bad, 0)]])  # raises the kernel's own ValueError
        raise ValueError(f"the kernel values of X are not finite at this scale of X "
                         f"(column {bad}); rescale X")

    def _face_step(self, history: list, polish_steps: list, total: int) -> int:
        """Face Newton steps (see :func:`face_newton_step`) on the current free set; when
        one is blocked by a variable reaching its bound, again on the smaller face (at
        most :data:`FACE_RETRIES` more times), so that a variable that blocks every step
        does not leave the solver creeping between pair updates and clipped face steps.
        Each step is recorded like a pair update (one history entry)."""
        beta, z, p, upper = self.beta, self.z, self.p, self.upper
        for _ in range(1 + FACE_RETRIES):
            free = np.flatnonzero((beta > 0) & (beta < upper))
            if not 1 < free.shape[0] <= MAX_FACE_FREE:
                return total
            Kt_free = np.empty((z.shape[0], free.shape[0]))
            for k, s in enumerate(free):
                Kt_free[:, k] = self._column(int(self.point[s]))[self.point]
            new = face_newton_step(beta, z, p, upper, free, Kt_free)
            if new is None:
                return total
            zF = z[free]
            delta = new - beta[free]
            gF = zF * (Kt_free.T @ (z * beta)) + p[free]
            zd = zF * delta
            change = float(gF @ delta + 0.5 * zd @ (Kt_free[free] @ zd))
            beta[free] = new
            self.G[:] += z * (Kt_free @ zd)
            reached = new >= upper[free]
            if np.any(reached):
                self.G_bar[:] += z * (Kt_free[:, reached] @ (zF[reached]
                                                             * upper[free][reached]))
            self.T[I_FLAG, free] = [flag_of(zt, bt, ut)
                                    for zt, bt, ut in zip(zF, new, upper[free], strict=True)]
            self.fst[F_OBJECTIVE] += change
            history.append(np.array([self.fst[F_OBJECTIVE]]))
            polish_steps.append(total)
            total += 1
            if not np.any((new <= 0) | reached):  # unblocked: the face minimum
                return total
            self.ist[S_PATIENCE] = self.ist[S_FLOOR]  # a blocking variable left the face
        return total

    def run(self, *, tol: float, max_iter: int, working_set: str, polish: bool,
            max_polish_free: int, shrinking: bool = True):
        """Run to the end; returns ``(beta, G, n_iter, converged, violation, history,
        polish_steps)`` in the original order of the variables, ``G`` valid for all."""
        hist = np.empty(min(max_iter, HISTORY_CHUNK) + 1)
        history: list[np.ndarray] = []
        polish_steps: list[int] = []
        total = 0
        while True:
            code = run_smo(self.V, self.T, self.kind, self.par, self.X, self.buf,
                           self.slot_of, self.point_of, self.prev, self.nxt, self.ist,
                           self.fst, hist, float(tol), int(max_iter),
                           working_set == "second_order", bool(shrinking), bool(polish),
                           int(max_polish_free))
            k = int(self.ist[S_HIST])
            history.append(hist[:k].copy())
            total += k
            self.ist[S_HIST] = 0
            if code == CHUNK_FULL:
                continue
            if code == POLISH:
                total = self._face_step(history, polish_steps, total)
                continue
            break
        if code == UNBOUNDED:
            raise ValueError(
                "the dual is unbounded along a pair with zero curvature: with C=inf "
                "(hard margin) the data are not separable in the kernel's feature space; "
                "use a finite C")
        if code == DIVERGED:
            raise ValueError("SMO step diverged: the dual is unbounded (use a finite C)")
        if code == KERNEL_NONFINITE:
            self._kernel_error()
        beta, G = np.empty_like(self.beta), np.empty_like(self.G)
        beta[self.T[I_ORDER]], G[self.T[I_ORDER]] = self.beta, self.G  # original order
        return (beta, G, int(self.ist[S_ITER]), code == CONVERGED,
                float(self.fst[F_VIOLATION]), np.concatenate(history), polish_steps)
