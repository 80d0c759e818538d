"""Model-based planning: policy evaluation, improvement, policy and value iteration
(003 §14.3, (14.5)-(14.13), Algs. 5-7).

Every sweep is vectorised over all states and actions: a backup of every (x, a) is one
(sparse) matrix-vector product with the MDP's stacked transition matrix
(:meth:`TabularMDP.backup`), and a policy's chain ``(P_π, r_π)`` comes from
:meth:`TabularMDP.policy_model`. Two criteria, exactly one per call:

* the T-step average reward (``horizon=T``): sweep ``t`` uses the weights ``1/t`` on the
  reward and ``(t-1)/t`` on the previous iterate (003 §14.3.1 (14.5), Alg. 5), and exactly
  ``T`` sweeps from ``V = 0`` give ``V_T``;
* the γ-discounted return (``gamma=γ``, ``0 <= γ < 1``): weights ``(1, γ)``, sweeps until
  ``max_x |V(x) - V'(x)| < θ`` (the rule after 003 Alg. 5), or an exact linear solve.

The γ-form (14.6) and (14.7) are used as corrected: the notes print ``P`` where the reward
``R`` belongs in (14.6), and drop the reward and the brackets in the γ line of (14.7).

Policies are ``(S, A)`` matrices of action probabilities or ``(S,)`` vectors of actions
(:func:`as_policy_matrix`). Greedy improvement breaks ties towards the current action,
then the lowest index (:func:`greedy_policy`), so that policy iteration terminates.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass

import numba
import numpy as np
import scipy.linalg
import scipy.sparse as sp
import scipy.sparse.linalg
from scipy.optimize import linprog
from sklearn.exceptions import ConvergenceWarning

from algorithms._validation import (
    InvalidArgumentError,
    check_array_argument,
    check_bool,
    check_choice,
    check_int,
    check_real,
)
from algorithms.reinforcement._mdp import TabularMDP, as_policy_matrix, greedy_policy

__all__ = [
    "EvaluationResult",
    "PolicyIterationResult",
    "ValueIterationResult",
    "optimal_values_lp",
    "policy_evaluation",
    "policy_improvement",
    "policy_iteration",
    "q_from_v",
    "value_iteration",
]

#: Caps on requests that would take forever or exhaust memory (refused with a ValueError).
MAX_HORIZON = 10**6
MAX_ITER = 10**7
#: T*S entries of the non-stationary plan of T-step value iteration.
MAX_PLAN_ENTRIES = 10**8
#: Stored transitions the LP accepts.
MAX_LP_NONZEROS = 2 * 10**7
#: Sparse MDPs up to this many states are solved by sparse LU; larger ones by GMRES.
_SPLU_STATES = 500
#: Relative size of Q differences treated as ties by policy iteration (float rounding of an
#: exact evaluation is ~1e-15 relative; a tie broken by it could make the loop cycle).
_TIE_RTOL = 1e-11


@dataclass(frozen=True)
class EvaluationResult:
    """The value of one policy (003 §14.3.1).

    Attributes
    ----------
    V : ndarray (S,)
        ``V_T^π`` or ``V_γ^π``.
    Q : ndarray (S, A)
        ``Q^π`` from (14.7) (T-step: from ``V_{T-1}^π``).
    n_sweeps : int
        Sweeps run (0 for the exact linear solve).
    converged : bool
        The θ rule was met (always True for the T-step form and the exact solve).
    history : tuple of ndarray or None
        With ``record_history=True``: the iterates ``V_0 = 0, V_1, ..., V_n`` of the loop.
    residuals : ndarray
        ``max_x |V_t(x) - V_{t-1}(x)|`` of every sweep.
    V_prev : ndarray (S,) or None
        T-step form: ``V_{T-1}^π`` (needed by (14.7)).
    """

    V: np.ndarray
    Q: np.ndarray
    n_sweeps: int
    converged: bool
    history: tuple | None
    residuals: np.ndarray
    V_prev: np.ndarray | None = None


@dataclass(frozen=True)
class PolicyIterationResult:
    """Policy iteration (003 §14.3.3 Alg. 6 and the γ form after it).

    Attributes
    ----------
    policy : ndarray (S,) of int
        The last (deterministic) policy.
    V, Q : ndarrays (S,), (S, A)
        Its value and action values (T-step: ``V_T^π``, ``Q_T^π``).
    n_iter : int
        Evaluation/improvement rounds run.
    converged : bool
        The improvement left the policy unchanged (``π' = π``).
    policies : tuple of ndarray (S, A)
        ``π_0`` (the initial, by default uniform random, policy), ``π_1``, ... as
        action-probability matrices, one per round.
    values : tuple of ndarray (S,)
        ``V^{π_0}, V^{π_1}, ...`` as the loop evaluated them.
    cycled : bool
        The improvement returned to an earlier policy other than the current one (possible
        with the T-step criterion): the loop stops there, not converged.
    V_prev : ndarray (S,) or None
        T-step form: ``V_{T-1}`` of the last policy.
    """

    policy: np.ndarray
    V: np.ndarray
    Q: np.ndarray
    n_iter: int
    converged: bool
    policies: tuple
    values: tuple
    cycled: bool = False
    V_prev: np.ndarray | None = None


@dataclass(frozen=True)
class ValueIterationResult:
    """Value iteration (003 §14.3.3 Alg. 7, (14.13)).

    Attributes
    ----------
    V : ndarray (S,)
        ``V_T*`` (exactly T sweeps) or the last iterate of the γ form.
    Q : ndarray (S, A)
        ``Q*`` from (14.11) at ``V`` (T-step: from ``V_{T-1}*``).
    policy : ndarray (S,) of int
        Greedy in ``Q`` (T-step: the first action of the optimal T-step plan).
    n_sweeps : int
    converged : bool
        The θ rule was met (always True for the T-step form).
    residuals : ndarray
        ``max_x |V_t(x) - V_{t-1}(x)|`` of every sweep, as the loop computed it.
    history : tuple of ndarray or None
        With ``record_history=True``: the iterates ``V_0 = 0, V_1, ...``.
    nonstationary_policy : ndarray (T, S) of int or None
        T-step form: ``nonstationary_policy[k - 1, x]`` is an optimal action at ``x`` with
        ``k`` steps to go (greedy in ``Q_k*``); row ``T - 1`` is ``policy``. At time step
        ``i = 0, ..., T-1`` of an episode use row ``T - 1 - i``.
    V_prev : ndarray (S,) or None
        T-step form: ``V_{T-1}*``.
    """

    V: np.ndarray
    Q: np.ndarray
    policy: np.ndarray
    n_sweeps: int
    converged: bool
    residuals: np.ndarray
    history: tuple | None = None
    nonstationary_policy: np.ndarray | None = None
    V_prev: np.ndarray | None = None


# ---------------------------------------------------------------------------------------
# Validation helpers
# ---------------------------------------------------------------------------------------


def _check_mdp(mdp) -> TabularMDP:
    if not isinstance(mdp, TabularMDP):
        raise InvalidArgumentError(f"mdp must be a TabularMDP, got {type(mdp).__name__}.")
    return mdp


def _criterion(gamma, horizon) -> tuple[float | None, int | None]:
    """Exactly one of ``gamma`` (discounted, [0, 1)) and ``horizon`` (T-step, >= 1)."""
    if (gamma is None) == (horizon is None):
        raise ValueError("gamma, horizon: give exactly one of gamma (discounted criterion) "
                         "and horizon (T-step criterion).")
    if gamma is not None:
        return check_real(gamma, "gamma", low=0.0, high=1.0, high_open=True), None
    return None, check_int(horizon, "horizon", low=1, high=MAX_HORIZON)


def _check_vector(V, name: str, S: int) -> np.ndarray:
    arr = check_array_argument(V, name, ndim=1, real=True)
    if arr.shape != (S,):
        raise ValueError(f"{name} must have shape ({S},), got {arr.shape}.")
    return arr


def _finite(arr: np.ndarray, what: str) -> np.ndarray:
    if not np.all(np.isfinite(arr)):
        raise ValueError(f"mdp: {what} overflowed (rewards too large for float64); rescale "
                         "the rewards.")
    return arr


def _tie_atol(Q: np.ndarray, extra: float) -> float:
    return _TIE_RTOL * max(1.0, float(np.max(np.abs(Q)))) + extra


# ---------------------------------------------------------------------------------------
# Policy evaluation (14.5)-(14.7), Alg. 5
# ---------------------------------------------------------------------------------------


def _evaluate(mdp: TabularMDP, pi: np.ndarray, gamma, horizon, theta, max_iter, method,
              record, V0=None) -> EvaluationResult:
    P_pi, r_pi = mdp.policy_model(pi)
    S = mdp.n_states
    history = [] if record else None
    residuals = []
    if horizon is not None:  # Alg. 5: exactly T synchronous sweeps of (14.5)
        V = np.zeros(S) if V0 is None else V0.copy()
        V_prev = V
        for t in range(1, horizon + 1):
            if record:
                history.append(V)
            V_prev = V
            V = r_pi / t + ((t - 1) / t) * (P_pi @ V_prev)
            residuals.append(float(np.max(np.abs(V - V_prev))))
        if record:
            history.append(V)
        Q = mdp.backup(V_prev, 1.0 / horizon, (horizon - 1) / horizon)
        return EvaluationResult(V=_finite(V, "V"), Q=Q, n_sweeps=horizon, converged=True,
                                history=None if history is None else tuple(history),
                                residuals=np.asarray(residuals), V_prev=V_prev)
    if method == "exact":  # (I - γ P_π) V = r_π
        converged = True
        if mdp.is_sparse and S <= _SPLU_STATES:
            system = (sp.identity(S, format="csc") - gamma * P_pi).tocsc()
            V = np.asarray(scipy.sparse.linalg.spsolve(system, r_pi), dtype=np.float64)
        elif mdp.is_sparse:
            V, converged = _krylov_solve(P_pi, r_pi, gamma)
        else:
            V = scipy.linalg.solve(np.eye(S) - gamma * P_pi, r_pi)
        _finite(V, "V")
        return EvaluationResult(V=V, Q=mdp.backup(V, 1.0, gamma), n_sweeps=0,
                                converged=converged,
                                history=(V,) if record else None,
                                residuals=np.zeros(0))
    # γ sweeps of (14.6, with R) until max |V - V'| < θ
    V = np.zeros(S) if V0 is None else V0.copy()
    converged = False
    n = 0
    for _ in range(max_iter):
        n += 1
        if record:
            history.append(V)
        V_new = r_pi + gamma * (P_pi @ V)
        delta = float(np.max(np.abs(V_new - V)))
        residuals.append(delta)
        V = V_new
        if not np.isfinite(delta):
            _finite(V, "V")
        if delta < theta:
            converged = True
            break
    if record:
        history.append(V)
    if not converged:
        warnings.warn(f"policy_evaluation: max_iter={max_iter} sweeps without "
                      f"max|V - V'| < theta={theta:g} (last {residuals[-1]:.3g}).",
                      ConvergenceWarning, stacklevel=3)
    return EvaluationResult(V=V, Q=mdp.backup(V, 1.0, gamma), n_sweeps=n,
                            converged=converged,
                            history=None if history is None else tuple(history),
                            residuals=np.asarray(residuals))


def _krylov_solve(P_pi, r_pi, gamma) -> tuple[np.ndarray, bool]:
    """``(I - γ P_π) V = r_π`` by restarted GMRES (the spectrum lies in the disc of radius
    γ around 1, so it converges quickly); sparse LU fills in on random transition graphs
    (S = 5000, 8 successors: 50 s for ``spsolve`` against 0.1 s here)."""
    S = r_pi.size
    system = (sp.identity(S, format="csr") - gamma * P_pi).tocsr()
    V, info = scipy.sparse.linalg.gmres(system, r_pi, rtol=1e-13, atol=0.0, restart=60,
                                        maxiter=max(100, 10 * S))
    if info != 0:
        warnings.warn(f"policy_evaluation: GMRES did not reach its tolerance (info={info}).",
                      ConvergenceWarning, stacklevel=4)
    return np.asarray(V, dtype=np.float64), info == 0


def policy_evaluation(mdp, policy, *, gamma=None, horizon=None, theta: float = 1e-10,
                      max_iter: int = 10_000, method: str = "iterative",
                      record_history: bool = False) -> EvaluationResult:
    """The value ``V^π`` of a policy (003 §14.3.1 (14.5)-(14.7), Alg. 5).

    Parameters
    ----------
    mdp : TabularMDP
    policy : array (S, A) of action probabilities, or (S,) actions
    gamma : float in [0, 1), optional
        Discounted criterion: sweeps ``V'(x) = Σ_a π(x,a) Σ_{x'} P^a_{x→x'}
        (R^a_{x→x'} + γ V(x'))`` ((14.6) with R for the misprinted P) from ``V = 0`` until
        ``max_x |V(x) - V'(x)| < theta``; with ``method="exact"`` the solve
        ``(I - γ P_π) V = r_π`` (``scipy.linalg.solve`` for dense MDPs; for sparse ones
        ``scipy.sparse.linalg.spsolve`` up to 500 states, restarted GMRES to a relative
        residual of 1e-13 beyond, where sparse LU fills in).
    horizon : int >= 1, optional
        T-step criterion: exactly ``T`` synchronous sweeps of (14.5) from ``V = 0``,
        ``V_t = r_π / t + (t-1)/t P_π V_{t-1}`` (Alg. 5); exact by construction (``method``
        makes no difference).
    theta : float > 0
        Stopping threshold of the γ sweeps.
    max_iter : int >= 1
        Cap on the γ sweeps (``ConvergenceWarning`` when reached).
    method : {"iterative", "exact"}
    record_history : bool
        Keep the iterates ``V_0, V_1, ...`` in ``history``.

    Returns
    -------
    EvaluationResult
        ``V``, ``Q`` (from (14.7)), ``n_sweeps``, ``converged``, ``history``,
        ``residuals``, and ``V_prev = V_{T-1}`` for the T-step form.
    """
    mdp = _check_mdp(mdp)
    gamma, horizon = _criterion(gamma, horizon)
    pi = as_policy_matrix(policy, mdp.n_states, mdp.n_actions)
    theta = check_real(theta, "theta", low=0.0, low_open=True)
    max_iter = check_int(max_iter, "max_iter", low=1, high=MAX_ITER)
    method = check_choice(method, "method", ("iterative", "exact"))
    record = check_bool(record_history, "record_history")
    return _evaluate(mdp, pi, gamma, horizon, theta, max_iter, method, record)


def q_from_v(mdp, V, *, gamma=None, horizon=None, V_prev=None) -> np.ndarray:
    """Action values from state values (003 §14.3.1 (14.7), corrected γ line).

    γ form: ``Q(x, a) = Σ_{x'} P^a_{x→x'} (R^a_{x→x'} + γ V(x'))``.
    T-step form: ``Q_T(x, a) = Σ_{x'} P^a_{x→x'} (R^a_{x→x'} / T + (T-1)/T V_{T-1}(x'))``:
    it needs ``V_prev = V_{T-1}`` (``V = V_T`` is not used; ``V_prev`` may be omitted
    only for ``T = 1``, where its weight is 0).

    Returns
    -------
    ndarray (S, A)
    """
    mdp = _check_mdp(mdp)
    gamma, horizon = _criterion(gamma, horizon)
    V = _check_vector(V, "V", mdp.n_states)
    if gamma is not None:
        if V_prev is not None:
            raise ValueError("V_prev: only the T-step form (horizon) uses V_{T-1}.")
        return _finite(mdp.backup(V, 1.0, gamma), "Q")
    if V_prev is None:
        if horizon > 1:
            raise ValueError("V_prev: the T-step form of (14.7) needs V_{T-1} (V_prev) "
                             "when horizon > 1.")
        V_prev = np.zeros(mdp.n_states)
    V_prev = _check_vector(V_prev, "V_prev", mdp.n_states)
    return _finite(mdp.backup(V_prev, 1.0 / horizon, (horizon - 1) / horizon), "Q")


def policy_improvement(mdp, Q=None, *, V=None, gamma=None, horizon=None, V_prev=None,
                       current=None, atol: float = 0.0) -> np.ndarray:
    """The greedy policy ``π'(x) = argmax_a Q^π(x, a)`` (003 §14.3.2 (14.12)).

    Give ``Q`` (shape (S, A)), or ``V`` with ``gamma`` or ``horizon`` (and ``V_prev``)
    to form Q by (14.7). Ties (within ``atol``) keep ``current[x]`` (the current
    deterministic policy) when it is among them, then the lowest index.

    Returns
    -------
    ndarray (S,) of int
    """
    mdp = _check_mdp(mdp)
    atol = check_real(atol, "atol", low=0.0)
    if (Q is None) == (V is None):
        raise ValueError("Q, V: give exactly one of Q and V.")
    if Q is not None:
        if gamma is not None or horizon is not None or V_prev is not None:
            raise ValueError("gamma, horizon: not used with Q (they form Q from V).")
        Q = check_array_argument(Q, "Q", ndim=2, real=True)
        if Q.shape != (mdp.n_states, mdp.n_actions):
            raise ValueError(f"Q must have shape ({mdp.n_states}, {mdp.n_actions}), "
                             f"got {Q.shape}.")
    else:
        Q = q_from_v(mdp, V, gamma=gamma, horizon=horizon, V_prev=V_prev)
    if current is not None:
        current = as_policy_matrix(current, mdp.n_states, mdp.n_actions, "current")
        if not np.all(current.max(axis=1) == 1.0):
            raise ValueError("current must be a deterministic policy (one action per state).")
        current = current.argmax(axis=1)
    return greedy_policy(Q, atol=atol, prefer=current)


# ---------------------------------------------------------------------------------------
# Policy iteration (Alg. 6)
# ---------------------------------------------------------------------------------------


def policy_iteration(mdp, *, gamma=None, horizon=None, theta: float = 1e-10,
                     max_iter: int = 1_000, evaluation: str = "exact",
                     initial_policy=None) -> PolicyIterationResult:
    """Policy iteration (003 §14.3.3 Alg. 6 for T steps; the γ form after it).

    From ``initial_policy`` (default: the uniform random policy, as the notes suggest),
    alternate evaluation ((14.5)/(14.6) to ``theta``, or the exact solve) and greedy
    improvement (14.12) with ties kept at the current action, until ``π' = π``.

    With the γ criterion this terminates (at most ``|A|^|X|`` rounds) at an optimal
    policy. With the T-step criterion the notes' loop runs over *stationary* policies,
    which need not reach ``V_T*`` of (14.10) (an optimal T-step plan may have to depend
    on the steps left) and whose improvement may return to an earlier policy; a return
    to an earlier policy other than the current one stops the loop (``cycled``,
    not converged, ``ConvergenceWarning``). Use :func:`value_iteration` with
    ``horizon`` for the T-step optimum.

    Parameters
    ----------
    mdp : TabularMDP
    gamma : float in [0, 1), optional
    horizon : int >= 1, optional
        Exactly one of the two.
    theta : float > 0
        Threshold of the iterative γ evaluation.
    max_iter : int >= 1
        Cap on the rounds (``ConvergenceWarning`` when reached).
    evaluation : {"exact", "iterative"}
        γ form: linear solve or sweeps to ``theta`` (warm-started at the previous V).
    initial_policy : array (S, A) or (S,), optional

    Returns
    -------
    PolicyIterationResult
    """
    mdp = _check_mdp(mdp)
    gamma, horizon = _criterion(gamma, horizon)
    theta = check_real(theta, "theta", low=0.0, low_open=True)
    max_iter = check_int(max_iter, "max_iter", low=1, high=MAX_ITER)
    evaluation = check_choice(evaluation, "evaluation", ("exact", "iterative"))
    S, A = mdp.n_states, mdp.n_actions
    if initial_policy is None:
        pi = np.full((S, A), 1.0 / A)
    else:
        pi = as_policy_matrix(initial_policy, S, A, "initial_policy")
    current = pi.argmax(axis=1) if np.all(pi.max(axis=1) == 1.0) else None
    slack = 0.0
    if gamma is not None and evaluation == "iterative":  # the θ rule's error, twice
        slack = 2.0 * gamma * theta / (1.0 - gamma)
    policies, values, seen = [pi], [], []
    ev = None
    converged = cycled = False
    n = 0
    for _ in range(max_iter):
        n += 1
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ConvergenceWarning)
            ev = _evaluate(mdp, pi, gamma, horizon, theta, 10_000, evaluation, False,
                           V0=None if ev is None or gamma is None else ev.V)
        values.append(ev.V)
        new = greedy_policy(ev.Q, atol=_tie_atol(ev.Q, slack), prefer=current)
        if current is not None and np.array_equal(new, current):
            converged = True
            break
        if any(np.array_equal(new, old) for old in seen):
            cycled = True
            break
        if current is not None:
            seen.append(current)
        current = new
        pi = as_policy_matrix(new, S, A)
        policies.append(pi)
    if not converged:
        why = ("returned to an earlier policy (the T-step improvement over stationary "
               "policies can cycle)" if cycled else f"max_iter={max_iter} rounds")
        warnings.warn(f"policy_iteration stopped without pi' = pi: {why}.",
                      ConvergenceWarning, stacklevel=2)
    policy = current if current is not None else greedy_policy(ev.Q)
    return PolicyIterationResult(policy=policy, V=ev.V, Q=ev.Q, n_iter=n,
                                 converged=converged, policies=tuple(policies),
                                 values=tuple(values), cycled=cycled, V_prev=ev.V_prev)


# ---------------------------------------------------------------------------------------
# Value iteration (Alg. 7, (14.13))
# ---------------------------------------------------------------------------------------


@numba.njit(cache=True)
def _gauss_seidel_sweep(indptr, indices, data, reward, V, gamma):  # pragma: no cover
    """One in-place sweep of (14.13) over the states in order; returns max |ΔV|."""
    S, A = reward.shape
    delta = 0.0
    for x in range(S):
        best = -np.inf
        for a in range(A):
            row = a * S + x
            acc = 0.0
            for k in range(indptr[row], indptr[row + 1]):
                acc += data[k] * V[indices[k]]
            q = reward[x, a] + gamma * acc
            if q > best:
                best = q
        d = abs(best - V[x])
        if d > delta:
            delta = d
        V[x] = best
    return delta


def value_iteration(mdp, *, gamma=None, horizon=None, theta: float = 1e-10,
                    max_iter: int = 10_000, in_place: bool = False,
                    record_history: bool = False) -> ValueIterationResult:
    """Value iteration (003 §14.3.3 Alg. 7 and (14.13)).

    γ form: from ``V = 0`` sweep ``V'(x) = max_a Σ_{x'} P^a_{x→x'} (R^a_{x→x'} + γ V(x'))``
    until ``max_x |V(x) - V'(x)| < theta``; the returned ``V`` (the last ``V'``) is then
    within ``γ θ / (1 - γ)`` of ``V*`` in the sup norm. ``in_place=True`` updates the
    states one after the other with the newest values (Gauss-Seidel; same bound).

    T-step form (``horizon=T``): exactly ``T`` synchronous sweeps of
    ``V_t(x) = max_a Σ_{x'} P (R / t + (t-1)/t V_{t-1}(x'))`` give ``V_T*`` of (14.10) (the
    notes' Alg. 7 stops by θ alone and returns ``V_t*`` for whatever t that is). The optimal
    T-step behaviour is non-stationary: ``nonstationary_policy`` holds the greedy action
    for every number of steps to go; ``policy`` is its first step.

    Parameters
    ----------
    mdp : TabularMDP
    gamma : float in [0, 1), optional
    horizon : int >= 1, optional
        Exactly one of the two.
    theta : float > 0
    max_iter : int >= 1
        Cap on the γ sweeps (``ConvergenceWarning`` when reached).
    in_place : bool
        Gauss-Seidel sweeps (γ form only).
    record_history : bool
        Keep the iterates ``V_0 = 0, V_1, ...``.

    Returns
    -------
    ValueIterationResult
    """
    mdp = _check_mdp(mdp)
    gamma, horizon = _criterion(gamma, horizon)
    theta = check_real(theta, "theta", low=0.0, low_open=True)
    max_iter = check_int(max_iter, "max_iter", low=1, high=MAX_ITER)
    in_place = check_bool(in_place, "in_place")
    record = check_bool(record_history, "record_history")
    S = mdp.n_states
    history = [np.zeros(S)] if record else None
    residuals = []
    if horizon is not None:
        if in_place:
            raise ValueError("in_place: the T-step sweeps weight each sweep by its own t, "
                             "so only synchronous sweeps apply (in_place=False).")
        if horizon * S > MAX_PLAN_ENTRIES:
            raise ValueError(f"horizon: a plan of {horizon} x {S} actions exceeds the cap "
                             f"{MAX_PLAN_ENTRIES:.0e}.")
        plan = np.empty((horizon, S), dtype=np.intp)
        V = np.zeros(S)
        V_prev = V
        Q = None
        for t in range(1, horizon + 1):
            Q = mdp.backup(V, 1.0 / t, (t - 1) / t)
            plan[t - 1] = greedy_policy(Q)
            V_prev, V = V, Q.max(axis=1)
            residuals.append(float(np.max(np.abs(V - V_prev))))
            if record:
                history.append(V)
        _finite(V, "V")
        return ValueIterationResult(V=V, Q=Q, policy=plan[-1].copy(), n_sweeps=horizon,
                                    converged=True, residuals=np.asarray(residuals),
                                    history=None if history is None else tuple(history),
                                    nonstationary_policy=plan, V_prev=V_prev)
    V = np.zeros(S)
    converged = False
    n = 0
    A = mdp.n_actions
    r_stacked = np.ascontiguousarray(mdp.expected_reward.T).reshape(A * S)
    if in_place:
        csr = mdp.transitions if mdp.is_sparse else sp.csr_matrix(mdp.transitions)
        indptr = csr.indptr.astype(np.int64)
        indices = csr.indices.astype(np.int64)
        data = np.asarray(csr.data, dtype=np.float64)
        reward = np.ascontiguousarray(mdp.expected_reward)
    for _ in range(max_iter):
        n += 1
        if in_place:
            delta = float(_gauss_seidel_sweep(indptr, indices, data, reward, V, gamma))
        else:  # (14.13) in the stacked layout: row a*S + x, max over the A blocks
            q = mdp.transitions @ V
            q *= gamma
            q += r_stacked
            V_new = q.reshape(A, S).max(axis=0)
            delta = float(np.max(np.abs(V_new - V)))
            V = V_new
        residuals.append(delta)
        if record:
            history.append(V.copy())
        if not np.isfinite(delta):
            _finite(V, "V")
        if delta < theta:
            converged = True
            break
    if not converged:
        warnings.warn(f"value_iteration: max_iter={max_iter} sweeps without "
                      f"max|V - V'| < theta={theta:g} (last {residuals[-1]:.3g}).",
                      ConvergenceWarning, stacklevel=2)
    Q = mdp.backup(V, 1.0, gamma)
    return ValueIterationResult(V=V, Q=Q, policy=greedy_policy(Q), n_sweeps=n,
                                converged=converged, residuals=np.asarray(residuals),
                                history=None if history is None else tuple(history))


# ---------------------------------------------------------------------------------------
# Linear programme for V*
# ---------------------------------------------------------------------------------------


def optimal_values_lp(mdp, gamma) -> np.ndarray:
    """``V_γ*`` as the solution of the linear programme

        minimise Σ_x V(x)  subject to  V(x) >= r(x, a) + γ Σ_{x'} P^a_{x→x'} V(x')  ∀ (x, a)

    solved by HiGHS (``scipy.optimize.linprog``) with the sparse constraint matrix. The
    rewards are scaled to a maximum of 1 inside (and the answer scaled back). An
    independent route to the fixed point of (14.10)'s γ line: no backup is iterated.

    Returns
    -------
    ndarray (S,)
    """
    mdp = _check_mdp(mdp)
    gamma = check_real(gamma, "gamma", low=0.0, high=1.0, high_open=True)
    S, A = mdp.n_states, mdp.n_actions
    P = mdp.transitions if mdp.is_sparse else sp.csr_matrix(mdp.transitions)
    if P.nnz > MAX_LP_NONZEROS:
        raise ValueError(f"mdp: {P.nnz} stored transitions exceed the LP cap "
                         f"{MAX_LP_NONZEROS:.0e}.")
    r = mdp.expected_reward.T.reshape(A * S)  # row a*S + x
    scale = float(np.max(np.abs(r))) or 1.0
    stacked_identity = sp.vstack([sp.identity(S, format="csr")] * A, format="csr")
    A_ub = (gamma * P - stacked_identity).tocsr()
    res = linprog(np.ones(S), A_ub=A_ub, b_ub=-r / scale, bounds=(None, None),
                  method="highs")
    if res.status != 0 or res.x is None:
        raise ValueError(f"mdp: the linear programme for V* failed ({res.message}).")
    return np.asarray(res.x, dtype=np.float64) * scale
