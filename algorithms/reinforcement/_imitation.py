"""Imitation learning (003 §14.6): behaviour cloning and inverse reinforcement learning.

Direct imitation (003 §14.6.1) treats the expert's state–action pairs as supervised
data: a classifier from state features to the expert's action, whose class
probabilities over the states of an MDP give an initial policy for further RL
(:class:`BehaviourCloning`).

Inverse RL (003 §14.6.2) assumes the reward is linear in state features,
``R(x) = wᵀφ(x)`` (the notes print ``wᵀw`` where ``wᵀx`` is meant, x standing for the
state's feature vector), so that the discounted return of a policy is
``ρ^π = wᵀ x̄^π`` with the *feature expectations* ``x̄^π = E[Σ_t γ^t φ(x_t) | π]``
(14.27). Given the expert's ``x̄*`` (a Monte-Carlo average over demonstrations, Alg.13
line 2), the max-margin problem (14.29)

    max_{‖w‖ ≤ 1} min_i wᵀ(x̄* − x̄^{π_i})

over the policies found so far is a second-order cone program; Alg.13 alternates it with
solving the forward MDP for the reward ``wᵀφ`` (:class:`InverseRL`).

Conventions. States are ``0..S-1``; ``features`` is an ``(S, d)`` table whose row ``x``
is ``φ(x)``. Terminal states end an episode: no action is taken there, so their
features count for nothing (their rows are treated as zero, and the reward ``wᵀφ`` is
zero there, as a :class:`~algorithms.reinforcement.TabularMDP` requires). Time starts at
``t = 0`` with the start state, so ``x̄^π = Σ_t γ^t d_tᵀΦ`` where ``d_t`` is the state
distribution at step t, i.e. ``x̄^π = Φᵀ (I − γ P_πᵀ)⁻¹ d₀`` (one linear solve).

Alg.13 as implemented: line 6 is read as the min over the policies found so far
(``i = 1..t`` and ``x̄^{π_i}``; the notes print ``T`` and an unindexed ``x̄^π``), the loop
stops when the margin falls below ``tol`` (the notes run a fixed ``n`` rounds), and besides
the last policy the fit reports the mixture of the policies found whose feature
expectations are closest to ``x̄*`` (the last policy alone need not match the expert).
"""

from __future__ import annotations

import math
import numbers
import warnings
from collections.abc import Sequence

import cvxpy as cp
import numpy as np
import scipy.linalg as sla
import scipy.sparse as sp
import scipy.sparse.linalg as spla
from sklearn.base import BaseEstimator, ClassifierMixin, clone
from sklearn.exceptions import ConvergenceWarning, NotFittedError
from sklearn.utils import get_tags

from algorithms._validation import (
    InvalidArgumentError,
    check_array_argument,
    check_index_array,
    check_int,
    check_real,
    make_rng,
    validate_classification,
    validate_features,
)
from algorithms.reinforcement._mdp import TabularMDP, _Learner, as_policy_matrix
from algorithms.reinforcement._monte_carlo import Trajectory, sample_trajectory
from algorithms.reinforcement._planning import value_iteration

__all__ = [
    "BehaviourCloning",
    "InverseRL",
    "empirical_feature_expectations",
    "expert_trajectories",
    "feature_expectations",
    "max_margin_weights",
    "mixture_closest",
    "state_action_pairs",
]

#: Most environment steps one call may simulate (n_trajectories * horizon).
MAX_STEPS = 10**7
#: Most policies (columns of the max-margin problem) / Alg.13 rounds.
MAX_POLICIES = 10_000
#: Most features d.
MAX_FEATURES = 100_000
#: Stopping threshold and sweep cap of the forward value iteration (reward scaled to
#: largest magnitude 1): values within γθ/(1-γ) of V*, far below any gap between actions
#: that matters to the margins.
FORWARD_THETA, FORWARD_MAX_SWEEPS = 1e-11, 100_000


# ---------------------------------------------------------------------------------------
# Demonstrations
# ---------------------------------------------------------------------------------------


def _check_gamma(gamma: object) -> float:
    return check_real(gamma, "gamma", low=0.0, high=1.0, high_open=True)


def expert_trajectories(env, policy, n_trajectories: int, horizon: int, random_state=None,
                        start: int | None = None) -> list[Trajectory]:
    """Sample ``n_trajectories`` demonstrations of ``policy`` in ``env`` (003 §14.6.2, the
    data set D = {τ_1, ..., τ_m} of Alg.13).

    Each is a :class:`~algorithms.reinforcement.Trajectory` of ``horizon`` steps from
    :func:`~algorithms.reinforcement.sample_trajectory` (simulated through
    :func:`~algorithms.reinforcement.make_simulator`); an episode that reaches a terminal
    state at step ``done_at`` is padded after it (:func:`state_action_pairs` drops the
    padding).

    Parameters
    ----------
    env : TabularMDP or gymnasium environment with discrete spaces
    policy : array of shape (S, A) or (S,)
        The expert: action probabilities per state, or one action per state.
    n_trajectories : int >= 1
    horizon : int >= 1
    random_state : None, int or Generator
        One generator for all the trajectories (environment and action draws).
    start : int, optional
        Fixed start state (default: the environment's start distribution).

    Returns
    -------
    list of Trajectory
    """
    n_trajectories = check_int(n_trajectories, "n_trajectories", low=1)
    horizon = check_int(horizon, "horizon", low=1)
    if n_trajectories * horizon > MAX_STEPS:
        raise ValueError(f"n_trajectories * horizon = {n_trajectories * horizon} steps exceeds "
                         f"the cap {MAX_STEPS}; ask for fewer trajectories or a shorter horizon.")
    rng = make_rng(random_state)
    return [sample_trajectory(env, policy, horizon, rng, start) for _ in range(n_trajectories)]


def _steps(tr: Trajectory) -> int:
    """The number of steps where an action was taken before the episode ended."""
    return int(tr.actions.size if tr.done_at is None else tr.done_at)


def state_action_pairs(trajectories) -> tuple[np.ndarray, np.ndarray]:
    """The expert's (state, action) pairs of a list of trajectories, the supervised data
    of direct imitation learning (003 §14.6.1); padding after a terminal state is dropped.

    Returns
    -------
    states, actions : int ndarrays of shape (N,)
    """
    if not (isinstance(trajectories, Sequence) and len(trajectories) > 0
            and all(isinstance(t, Trajectory) for t in trajectories)):
        raise InvalidArgumentError("trajectories must be a non-empty list of Trajectory "
                                   "objects (from expert_trajectories).")
    states = np.concatenate([t.states[:_steps(t)] for t in trajectories]).astype(np.intp)
    actions = np.concatenate([t.actions[:_steps(t)] for t in trajectories]).astype(np.intp)
    return states, actions


def _check_features(features: object, n_states: int | None = None) -> np.ndarray:
    Phi = check_array_argument(features, "features", ndim=2, real=True)
    if n_states is not None and Phi.shape[0] != n_states:
        raise ValueError(f"features must have one row per state ({n_states}), got "
                         f"{Phi.shape[0]} rows.")
    if Phi.shape[1] > MAX_FEATURES:
        raise ValueError(f"features: {Phi.shape[1]} columns exceeds the cap {MAX_FEATURES}.")
    return Phi


def _check_mdp(mdp: object) -> TabularMDP:
    if not isinstance(mdp, TabularMDP):
        raise InvalidArgumentError(f"mdp must be a TabularMDP (a transition model is "
                                   f"required), got {type(mdp).__name__}.")
    return mdp


def _live_features(mdp: TabularMDP, Phi: np.ndarray) -> np.ndarray:
    """Φ with the rows of terminal states zeroed (no step is taken there)."""
    if mdp.terminal.any():
        Phi = Phi.copy()
        Phi[mdp.terminal] = 0.0
    return Phi


def _occupancy(mdp: TabularMDP, pi: np.ndarray, gamma: float) -> np.ndarray:
    """Discounted state occupancy ``ρ = Σ_t γ^t d_t``: solves ``(I − γ P_πᵀ) ρ = d₀``."""
    P_pi, _ = mdp.policy_model(pi)
    S = mdp.n_states
    if sp.issparse(P_pi):
        M = (sp.identity(S, format="csc") - gamma * P_pi.T.tocsc()).tocsc()
        return np.asarray(spla.spsolve(M, mdp.initial), dtype=np.float64).ravel()
    return sla.solve(np.eye(S) - gamma * P_pi.T, mdp.initial)


def feature_expectations(mdp, policy, features, gamma: float) -> np.ndarray:
    """Exact discounted feature expectations ``x̄^π = E[Σ_t γ^t φ(x_t) | π]`` (003 §14.6.2,
    the vector of (14.27)).

    ``x̄^π = Φᵀ ρ`` with the discounted occupancy ``ρ`` solving ``(I − γ P_πᵀ) ρ = d₀``
    (``d₀ = mdp.initial``; a linear solve, never an inverse). Terminal states count zero.

    Parameters
    ----------
    mdp : TabularMDP (its rewards are not used)
    policy : array of shape (S, A) or (S,)
    features : array of shape (S, d)
    gamma : float in [0, 1)

    Returns
    -------
    ndarray of shape (d,)
    """
    mdp = _check_mdp(mdp)
    Phi = _check_features(features, mdp.n_states)
    gamma = _check_gamma(gamma)
    pi = as_policy_matrix(policy, mdp.n_states, mdp.n_actions)
    return _feature_expectations(mdp, pi, _live_features(mdp, Phi), gamma)


def _feature_expectations(mdp, pi, Phi_live, gamma) -> np.ndarray:
    return Phi_live.T @ _occupancy(mdp, pi, gamma)


def _state_sequences(trajectories: object, n_states: int, name: str = "trajectories"
                     ) -> list[np.ndarray]:
    if isinstance(trajectories, np.ndarray) or not isinstance(trajectories, Sequence) \
            or isinstance(trajectories, str):
        raise InvalidArgumentError(f"{name} must be a non-empty list of Trajectory "
                                   "objects or of 1-d arrays of states.")
    if len(trajectories) == 0:
        raise ValueError(f"{name} must not be empty.")
    out = []
    for tr in trajectories:
        states = tr.states[:_steps(tr)] if isinstance(tr, Trajectory) else tr
        if isinstance(states, str | bytes | numbers.Number) or np.ndim(states) != 1:
            raise ValueError(f"{name} must each be a Trajectory or a 1-d sequence of "
                             "state indices.")
        if np.size(states) == 0:
            out.append(np.zeros(0, dtype=np.intp))
            continue
        out.append(check_index_array(states, name, n_states))
    return out


def empirical_feature_expectations(trajectories, features, gamma: float) -> np.ndarray:
    """Monte-Carlo feature expectations: the average over trajectories of
    ``Σ_t γ^t φ(x_t)`` (003 §14.6.2, Alg.13 lines 2 and 5).

    Parameters
    ----------
    trajectories : list of Trajectory (the states before the episode ended count) or of
        1-d arrays of states ``x_0, x_1, ...`` (every state counts)
    features : array of shape (S, d)
    gamma : float in [0, 1)

    Returns
    -------
    ndarray of shape (d,)
    """
    Phi = _check_features(features)
    gamma = _check_gamma(gamma)
    return _empirical(_state_sequences(trajectories, Phi.shape[0]), Phi, gamma)


def _empirical(seqs: list[np.ndarray], Phi: np.ndarray, gamma: float) -> np.ndarray:
    total = np.zeros(Phi.shape[1])
    for states in seqs:
        total += (gamma ** np.arange(states.size)) @ Phi[states]
    return total / len(seqs)


# ---------------------------------------------------------------------------------------
# The max-margin problem (14.29) and the closest mixture
# ---------------------------------------------------------------------------------------


def _check_mus(expert_mu: object, policy_mus: object) -> tuple[np.ndarray, np.ndarray]:
    mu = check_array_argument(expert_mu, "expert_mu", ndim=1, real=True)
    mus = check_array_argument(policy_mus, "policy_mus", ndim=2, real=True)
    if mus.shape[1] != mu.shape[0]:
        raise ValueError(f"policy_mus must have shape (k, {mu.shape[0]}) (one row of "
                         f"feature expectations per policy), got {mus.shape}.")
    if mus.shape[0] > MAX_POLICIES:
        raise ValueError(f"policy_mus: {mus.shape[0]} policies exceeds the cap {MAX_POLICIES}.")
    return mu, mus


def _solve(problem: cp.Problem) -> None:
    try:
        problem.solve(solver=cp.CLARABEL)
    except cp.SolverError:
        problem.solve(solver=cp.SCS, eps=1e-9, max_iters=100_000)
    if problem.status not in (cp.OPTIMAL, cp.OPTIMAL_INACCURATE):
        raise ValueError(f"the convex solver failed: status {problem.status}.")


def max_margin_weights(expert_mu, policy_mus) -> tuple[np.ndarray, float]:
    """Solve (14.29) over a finite set of policies (003 §14.6.2, Alg.13 line 6):

        max_{w, t} t   s.t.  wᵀ(x̄* − x̄^{π_i}) ≥ t  (i = 1..k),   ‖w‖₂ ≤ 1,

    a second-order cone program (cvxpy). Inputs are rescaled by their largest entry
    before solving (the problem is positively homogeneous in the data).

    Parameters
    ----------
    expert_mu : array of shape (d,)
        ``x̄*``.
    policy_mus : array of shape (k, d)
        ``x̄^{π_i}``, one row per policy.

    Returns
    -------
    w : ndarray of shape (d,)
        A maximiser (``‖w‖ ≤ 1``; 0 when the optimal margin is 0).
    margin : float
        ``max_{‖w‖≤1} min_i wᵀ(x̄* − x̄^{π_i}) ≥ 0`` (w = 0 is feasible): the Euclidean
        distance from ``x̄*`` to the convex hull of the ``x̄^{π_i}``.
    """
    mu, mus = _check_mus(expert_mu, policy_mus)
    D = mu[None, :] - mus
    scale = float(np.max(np.abs(D)))
    d = mu.shape[0]
    if scale == 0.0:
        return np.zeros(d), 0.0
    Dn = D / scale
    w, t = cp.Variable(d), cp.Variable()
    problem = cp.Problem(cp.Maximize(t), [Dn @ w >= t, cp.norm(w, 2) <= 1])
    _solve(problem)
    w_val = np.asarray(w.value, dtype=np.float64)
    norm = float(np.linalg.norm(w_val))
    if norm > 1.0:
        w_val = w_val / norm
    margin = max(float(np.min(Dn @ w_val)), 0.0)
    if margin == 0.0:
        return np.zeros(d), 0.0
    return w_val, margin * scale


def mixture_closest(expert_mu, policy_mus) -> tuple[np.ndarray, np.ndarray]:
    """The mixture of the policies whose feature expectations are closest to ``x̄*``:

        λ = argmin_{λ ≥ 0, Σλ = 1} ‖x̄* − Σ_i λ_i x̄^{π_i}‖₂

    (a small QP, cvxpy). Running policy i with probability λ_i (drawn once per episode)
    has feature expectations ``Σ λ_i x̄^{π_i}`` (they are linear in the episode law).

    Returns
    -------
    weights : ndarray of shape (k,)
    mu : ndarray of shape (d,)
        ``Σ_i λ_i x̄^{π_i}``.
    """
    mu, mus = _check_mus(expert_mu, policy_mus)
    k = mus.shape[0]
    scale = float(max(np.max(np.abs(mus)), np.max(np.abs(mu))))
    if k == 1 or scale == 0.0:
        lam = np.zeros(k)
        lam[0] = 1.0
        return lam, mus[0].copy()
    lam = cp.Variable(k, nonneg=True)
    problem = cp.Problem(cp.Minimize(cp.norm((mus / scale).T @ lam - mu / scale, 2)),
                         [cp.sum(lam) == 1])
    _solve(problem)
    lam_val = np.clip(np.asarray(lam.value, dtype=np.float64), 0.0, None)
    lam_val /= lam_val.sum()
    return lam_val, lam_val @ mus


# ---------------------------------------------------------------------------------------
# Forward solve
# ---------------------------------------------------------------------------------------


def _forward_policy(mdp: TabularMDP, R_state: np.ndarray, gamma: float) -> np.ndarray:
    """An optimal deterministic policy for the state reward ``R_state`` (Alg.13 line 7),
    by the planning part's value iteration. The reward is scaled to largest magnitude 1
    first (the optimal policies do not change), so that ``theta`` is a relative accuracy."""
    S, A = mdp.n_states, mdp.n_actions
    top = float(np.max(np.abs(R_state)))
    R = R_state / top if top > 0 else R_state
    result = value_iteration(mdp.with_reward(np.broadcast_to(R, (A, S))), gamma=gamma,
                             theta=FORWARD_THETA, max_iter=FORWARD_MAX_SWEEPS)
    return np.asarray(result.policy, dtype=np.intp)


# ---------------------------------------------------------------------------------------
# Inverse RL (Alg.13)
# ---------------------------------------------------------------------------------------


class InverseRL(_Learner):
    """Iterative inverse reinforcement learning by feature-expectation matching
    (003 §14.6.2 (14.27)–(14.29), Alg.13).

    Parameters
    ----------
    features : array of shape (S, d)
        ``φ(x)`` per state; the reward is ``R(x) = wᵀφ(x)``.
    gamma : float in [0, 1), default 0.9
    max_iter : int >= 1, default 50
        Rounds of Alg.13 (the notes' ``n``).
    tol : float >= 0, default 1e-6
        Stop when the margin of (14.29) falls below ``tol`` (the notes' loop has no
        stopping rule).
    n_rollouts : None or int >= 1, default None
        ``None``: exact feature expectations of each policy (linear solve);
        an int: the Monte-Carlo estimate from that many rollouts (Alg.13 line 5).
    horizon : int >= 1 or None, default None
        Rollout length with ``n_rollouts`` (default: the smallest T with
        ``γ^T ≤ 1e-6``, at most 10⁴).
    random_state : None, int or Generator
        The initial random policy and the rollouts.

    Attributes
    ----------
    expert_mu_ : ndarray (d,)
        ``x̄*``.
    mus_ : ndarray (k, d)
        ``x̄^{π_i}`` of every policy found (row i for ``policies_[i]``).
    policies_ : list of k ndarrays (S,)
        The deterministic policies: ``policies_[0]`` random, then one optimal policy per
        round for the reward of that round.
    weights_ : ndarray (k, d), margins_ : ndarray (k,)
        The solution of (14.29) over ``mus_[:i+1]`` at round i (recorded in the loop).
    reward_weights_ : ndarray (d,)
        The reward of the last forward solve (Alg.13 line 7), so that ``policy_`` is
        optimal for ``R(x) = reward_weights_ᵀφ(x)``. (At the final round the margin is
        below ``tol`` and the maximiser of (14.29) is nearly arbitrary, often 0; it stays
        in ``weights_[-1]``.) ``weights_[0]`` when the random policy already matched.
    policy_ : ndarray (S,)
        The last policy found.
    mixture_weights_ : ndarray (k,), mixture_mu_ : ndarray (d,)
        The mixture of the found policies closest to ``x̄*`` and its feature expectations.
    n_iter_ : int
    converged_ : bool
        The margin fell below ``tol``.
    stalled_ : bool
        The forward solve returned a policy already found (the margin cannot fall any
        further: ``x̄*`` is outside the feature expectations the MDP's policies reach, e.g.
        an estimate from few demonstrations); the loop stops with a ``ConvergenceWarning``.
    """

    def __init__(self, features, *, gamma: float = 0.9, max_iter: int = 50, tol: float = 1e-6,
                 n_rollouts: int | None = None, horizon: int | None = None,
                 random_state=None) -> None:
        self.features = features
        self.gamma = gamma
        self.max_iter = max_iter
        self.tol = tol
        self.n_rollouts = n_rollouts
        self.horizon = horizon
        self.random_state = random_state

    def _policy_mu(self, mdp, pi, Phi_live, rng) -> np.ndarray:
        if self._n_rollouts is None:
            return _feature_expectations(mdp, as_policy_matrix(pi, mdp.n_states,
                                                               mdp.n_actions),
                                         Phi_live, self._gamma)
        trajs = expert_trajectories(mdp, pi, self._n_rollouts, self._horizon, rng)
        return empirical_feature_expectations(trajs, Phi_live, self._gamma)

    def fit(self, mdp, expert) -> InverseRL:
        """Run Alg.13 on ``mdp`` (its rewards are ignored).

        Parameters
        ----------
        mdp : TabularMDP
        expert : list of :class:`Trajectory` (or of arrays of states), or array (d,)
            Demonstrations (``x̄*`` is their Monte-Carlo feature expectation, Alg.13
            line 2) or ``x̄*`` itself.
        """
        mdp = _check_mdp(mdp)
        Phi = _check_features(self.features, mdp.n_states)
        gamma = self._gamma = _check_gamma(self.gamma)
        max_iter = check_int(self.max_iter, "max_iter", low=1, high=MAX_POLICIES)
        tol = check_real(self.tol, "tol", low=0.0)
        self._n_rollouts = (None if self.n_rollouts is None
                            else check_int(self.n_rollouts, "n_rollouts", low=1))
        if self.horizon is None:
            self._horizon = 1 if gamma == 0.0 else int(min(10_000, max(
                1, math.ceil(math.log(1e-6) / math.log(gamma)))))
        else:
            self._horizon = check_int(self.horizon, "horizon", low=1)
        if self._n_rollouts is not None and self._n_rollouts * self._horizon > MAX_STEPS:
            raise ValueError(f"n_rollouts * horizon exceeds the cap {MAX_STEPS} steps.")
        rng = make_rng(self.random_state)
        Phi_live = _live_features(mdp, Phi)
        S, A = mdp.n_states, mdp.n_actions
        is_vector = isinstance(expert, Sequence) and len(expert) > 0 and all(
            isinstance(v, numbers.Real) for v in expert)
        if isinstance(expert, Sequence) and not isinstance(expert, str | np.ndarray) \
                and not is_vector:
            expert_mu = _empirical(_state_sequences(expert, S, "expert"), Phi_live, gamma)
        else:
            expert_mu = check_array_argument(expert, "expert", shape=(Phi.shape[1],),
                                             real=True)
        self.expert_mu_ = expert_mu
        pi = rng.integers(0, A, size=S).astype(np.intp)  # Alg.13 line 3: a random policy
        policies, mus, weights, margins = [], [], [], []
        self.converged_ = self.stalled_ = False
        solved_for = None
        for _ in range(max_iter):
            policies.append(pi)
            mus.append(self._policy_mu(mdp, pi, Phi_live, rng))
            w, margin = max_margin_weights(expert_mu, np.array(mus))
            weights.append(w)
            margins.append(margin)
            if margin < tol or margin <= 0.0:
                self.converged_ = True
                break
            pi = _forward_policy(mdp, Phi_live @ w, gamma)
            solved_for = w
            if any(np.array_equal(pi, p) for p in policies):
                # no new policy: the margin cannot fall any further (x̄* lies outside the
                # feature expectations reachable by the MDP's policies)
                self.stalled_ = True
                break
        self.policies_ = policies
        self.mus_ = np.array(mus)
        self.weights_ = np.array(weights)
        self.margins_ = np.array(margins)
        self.n_iter_ = len(policies)
        self.reward_weights_ = weights[-1] if solved_for is None else solved_for
        self.policy_ = policies[-1]
        self.mixture_weights_, self.mixture_mu_ = mixture_closest(expert_mu, self.mus_)
        if self.stalled_:
            warnings.warn(f"InverseRL stalled after {self.n_iter_} rounds: the forward solve "
                          f"returned a policy already found, with the margin "
                          f"{margins[-1]:.3g} above tol={tol:g} (x̄* is not reachable by "
                          f"any mixture of the MDP's policies).", ConvergenceWarning,
                          stacklevel=2)
        elif not self.converged_:
            warnings.warn(f"InverseRL did not reach a margin below tol={tol:g} in "
                          f"{max_iter} rounds (last margin {margins[-1]:.3g}).",
                          ConvergenceWarning, stacklevel=2)
        return self

    def reward(self) -> np.ndarray:
        """``R(x) = wᵀφ(x)`` per state for the learnt weights (0 on terminal states is
        applied when solving; here the plain product)."""
        if not hasattr(self, "reward_weights_"):
            raise NotFittedError("InverseRL is not fitted yet; call fit(mdp, expert).")
        return np.asarray(self.features, dtype=np.float64) @ self.reward_weights_


# ---------------------------------------------------------------------------------------
# Behaviour cloning (§14.6.1)
# ---------------------------------------------------------------------------------------


class BehaviourCloning(ClassifierMixin, BaseEstimator):
    """Direct imitation learning (003 §14.6.1): a classifier from state features to the
    expert's action, trained on the expert's state–action pairs.

    Parameters
    ----------
    estimator : classifier with ``fit``/``predict`` (and ideally ``predict_proba``), or
        None (default: :class:`algorithms.trees.DecisionTreeClassifier`, which reproduces
        a consistent expert's table exactly from one-hot state features). Cloned in fit.

    Attributes
    ----------
    estimator_ : the fitted base classifier (None when y has a single class)
    classes_ : ndarray (K,)
        The expert's actions seen.

    Notes
    -----
    :meth:`policy_matrix` turns the class probabilities over an MDP's states into an
    ``(S, A)`` policy, the initial policy of further RL.
    """

    def __init__(self, estimator: object = None) -> None:
        self.estimator = estimator

    def _base(self) -> object:
        if self.estimator is None:
            from algorithms.trees import DecisionTreeClassifier
            return DecisionTreeClassifier()
        if not (hasattr(self.estimator, "fit") and hasattr(self.estimator, "predict")):
            raise ValueError(f"estimator must be a classifier with fit and predict, got "
                             f"{self.estimator!r}.")
        return self.estimator

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        base = self.estimator
        if base is not None:
            try:
                bt = get_tags(base)
            except (AttributeError, TypeError):
                bt = None
            if bt is not None:
                tags.input_tags.positive_only = bt.input_tags.positive_only
                tags.non_deterministic = bt.non_deterministic
                if bt.classifier_tags is not None:
                    tags.classifier_tags.poor_score = bt.classifier_tags.poor_score
        return tags

    def fit(self, X, y) -> BehaviourCloning:
        """Fit the base classifier on states ``X`` (N, d) and expert actions ``y`` (N,)."""
        base = self._base()
        X_arr, codes = validate_classification(self, X, y, min_classes=1)
        if self.classes_.size == 1:
            self.estimator_ = None
        else:
            self.estimator_ = clone(base).fit(X_arr, codes)
        return self

    def predict_proba(self, X) -> np.ndarray:
        """Probabilities of the actions ``classes_``, shape (N, K)."""
        X_arr = validate_features(self, X, reset=False)
        K = self.classes_.size
        if self.estimator_ is None:
            return np.ones((X_arr.shape[0], 1))
        out = np.zeros((X_arr.shape[0], K))
        if hasattr(self.estimator_, "predict_proba"):
            P = np.asarray(self.estimator_.predict_proba(X_arr), dtype=np.float64)
            cols = np.asarray(self.estimator_.classes_, dtype=np.intp)
            out[:, cols] = P
        else:
            out[np.arange(X_arr.shape[0]),
                np.asarray(self.estimator_.predict(X_arr), dtype=np.intp)] = 1.0
        return out

    def predict(self, X) -> np.ndarray:
        """The cloned action of each state."""
        X_arr = validate_features(self, X, reset=False)
        if self.estimator_ is None:
            return np.repeat(self.classes_, X_arr.shape[0])
        codes = np.asarray(self.estimator_.predict(X_arr), dtype=np.intp)
        return self.classes_[codes]

    def policy_matrix(self, features, n_actions: int | None = None) -> np.ndarray:
        """The cloned policy over an MDP's states: ``π(x, a)`` = the probability of action
        ``a`` at the state with features ``features[x]``, shape (S, A).

        The actions ``classes_`` must be integers in ``[0, n_actions)`` (default
        ``n_actions = max(classes_) + 1``); actions never demonstrated get probability 0.
        """
        Pk = self.predict_proba(features)
        cls = self.classes_
        if cls.dtype.kind not in "iu" and not (
                cls.dtype.kind == "f" and np.all(cls == np.round(cls))):
            raise ValueError("policy_matrix needs integer actions (classes_) in [0, A).")
        cls = cls.astype(np.int64)
        if cls.min() < 0:
            raise ValueError("policy_matrix needs non-negative integer actions.")
        A = int(cls.max()) + 1 if n_actions is None else check_int(
            n_actions, "n_actions", low=int(cls.max()) + 1)
        pi = np.zeros((Pk.shape[0], A))
        pi[:, cls] = Pk
        return pi / pi.sum(axis=1, keepdims=True)
