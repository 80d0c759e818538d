"""The tabular Markov decision process ⟨X, A, P, R⟩ (003 §14.1) and its simulators.

Everything in the family works on one :class:`TabularMDP`: states ``0..S-1``, actions
``0..A-1``, transition probabilities ``P[a, x, x'] = P^a_{x→x'}`` and transition rewards
``R[a, x, x'] = R^a_{x→x'}`` as in 003 §14.3. Internally the transitions are one
stacked matrix of shape ``(A*S, S)`` (row ``a*S + x`` is the distribution of the next
state after action ``a`` in state ``x``), dense or ``scipy.sparse`` CSR, so that a Bellman
backup for every state and action is one matrix-vector product:

    Q(x, a) = w_r r(x, a) + w_v Σ_{x'} P^a_{x→x'} V(x'),   r(x, a) = Σ_{x'} P^a_{x→x'} R^a_{x→x'}

with ``(w_r, w_v) = (1, γ)`` for the discounted backups (14.6)/(14.13) and
``(1/t, (t-1)/t)`` for the T-step ones (14.5)/(14.10).

Terminal states are absorbing with zero reward (an episode ends there), so the value of
a terminal state is 0 under every criterion. A policy is an ``(S, A)`` matrix of action
probabilities ``π(x, a)`` whose rows sum to 1 (003 §14.1) or, for a deterministic
policy, an ``(S,)`` vector of actions.

Model-free methods (§14.4-§14.6) only *sample* from an environment: a
:class:`TabularMDP` (its own simulator, seeded) or a ``gymnasium`` environment with
discrete observation and action spaces. :func:`from_gymnasium` turns a toy-text
environment that exposes its transition table (``env.unwrapped.P``: FrozenLake,
CliffWalking, Taxi) into a :class:`TabularMDP`, so that the model-based and the model-free
methods can both run on it.
"""

from __future__ import annotations

import inspect
import numbers
from collections.abc import Sequence

import numpy as np
import scipy.sparse as sp

from algorithms._validation import (
    InvalidArgumentError,
    check_array_argument,
    check_index_array,
    check_int,
    check_real,
    check_stochastic,
    make_rng,
)

__all__ = [
    "TabularMDP",
    "as_policy_matrix",
    "epsilon_greedy_policy",
    "from_gymnasium",
    "greedy_policy",
    "make_simulator",
    "random_mdp",
]

#: Row sums of a transition matrix must be 1 within this absolute tolerance.
_STOCHASTIC_ATOL = 1e-8
#: Above this many dense entries (A*S*S) :func:`from_gymnasium` and :func:`random_mdp`
#: build a sparse transition matrix.
_DENSE_BUDGET = 4_000_000
#: Caps on the sizes a caller may request (a larger request is refused, not attempted).
MAX_STATES, MAX_ACTIONS = 10**7, 10**5


def _is_sparse_list(value: object) -> bool:
    return (isinstance(value, Sequence) and not isinstance(value, str) and len(value) > 0
            and all(sp.issparse(m) for m in value))


class TabularMDP:
    """A finite MDP ⟨X, A, P, R⟩ (003 §14.1), validated on construction.

    Parameters
    ----------
    P : array of shape (A, S, S), or a sequence of A scipy.sparse matrices of shape (S, S)
        ``P[a][x, x']`` is the probability of moving from ``x`` to ``x'`` under action
        ``a``; every row is a probability distribution.
    R : array of shape (A, S, S) or (A, S), or a sequence of A sparse (S, S) matrices
        Transition rewards ``R^a_{x→x'}``; an ``(A, S)`` array gives the reward of taking
        ``a`` in ``x`` whatever the next state. With sparse ``P``, a sparse ``R`` is read
        on ``P``'s non-zero pattern.
    terminal : array of S bools or of state indices, optional
        Terminal states: absorbing (``P[a, x, x] = 1``) with zero reward for every action.
    initial : int or array of shape (S,), optional
        The start state ``x_0`` or a start distribution. Default: uniform over the
        non-terminal states.

    Attributes
    ----------
    n_states, n_actions : int
    transitions : ndarray or csr_matrix of shape (A*S, S)
        The stacked transition matrix (row ``a*S + x``).
    expected_reward : ndarray of shape (S, A)
        ``r(x, a) = Σ_{x'} P^a_{x→x'} R^a_{x→x'}``.
    terminal : ndarray of S bools
    initial : ndarray of shape (S,)
    is_sparse : bool
    """

    def __init__(self, P, R, *, terminal=None, initial=None) -> None:
        if _is_sparse_list(P):
            mats = [sp.csr_matrix(m, dtype=np.float64) for m in P]
            n_actions, n_states = len(mats), mats[0].shape[0]
            for m in mats:
                if m.shape != (n_states, n_states):
                    raise ValueError(f"P must hold square (S, S) matrices of one size, got "
                                     f"shapes {[x.shape for x in mats]}.")
                if np.iscomplexobj(m.data) or not np.all(np.isfinite(m.data)):
                    raise ValueError("P must contain only finite real probabilities.")
            stacked = sp.vstack(mats, format="csr")
            stacked.sum_duplicates()
            if stacked.data.size and stacked.data.min() < 0:
                raise ValueError("P must have non-negative entries (probabilities).")
            sums = np.asarray(stacked.sum(axis=1)).ravel()
            if not np.allclose(sums, 1.0, rtol=0.0, atol=_STOCHASTIC_ATOL):
                raise ValueError(
                    "P must be row-stochastic for every action: each row P[a][x, :] sums "
                    f"to 1 (row sums range over [{sums.min():.6g}, {sums.max():.6g}]).")
            self.is_sparse = True
        else:
            arr = check_array_argument(P, "P", ndim=3, real=True)
            n_actions, n_states = arr.shape[0], arr.shape[1]
            if arr.shape[2] != n_states:
                raise ValueError(f"P must have shape (A, S, S), got {arr.shape}.")
            arr = check_stochastic(arr, "P", shape=arr.shape)
            stacked = arr.reshape(n_actions * n_states, n_states).copy()
            self.is_sparse = False
        self.n_states, self.n_actions = int(n_states), int(n_actions)
        self.transitions = stacked
        self.expected_reward, self._entry_reward = self._rewards(R)
        self.terminal = self._terminal(terminal)
        self.initial = self._initial(initial)
        self._sampler = None

    # -- construction helpers ---------------------------------------------------------
    def _rewards(self, R) -> tuple[np.ndarray, object]:
        S, A = self.n_states, self.n_actions
        if _is_sparse_list(R):
            if not self.is_sparse:
                raise ValueError("R may be a list of sparse matrices only when P is one.")
            if len(R) != A or any(m.shape != (S, S) for m in R):
                raise ValueError(f"R must hold {A} sparse matrices of shape ({S}, {S}).")
            rs = sp.vstack([sp.csr_matrix(m, dtype=np.float64) for m in R], format="csr")
            if np.iscomplexobj(rs.data) or not np.all(np.isfinite(rs.data)):
                raise ValueError("R must contain only finite real rewards.")
            # rewards read on P's pattern: R[a][x, x'] for every stored transition
            rows = np.repeat(np.arange(A * S), np.diff(self.transitions.indptr))
            entry = np.asarray(rs[rows, self.transitions.indices]).ravel()
            expected = self._row_sums(self.transitions.data * entry)
            return expected.reshape(A, S).T.copy(), entry
        arr = check_array_argument(R, "R", real=True)
        if arr.shape == (A, S):
            return arr.T.copy(), arr.reshape(A * S)  # one reward per (a, x) row
        if arr.shape != (A, S, S):
            raise ValueError(f"R must have shape ({A}, {S}, {S}) or ({A}, {S}), "
                             f"got {arr.shape}.")
        flat = arr.reshape(A * S, S)
        if self.is_sparse:
            rows = np.repeat(np.arange(A * S), np.diff(self.transitions.indptr))
            entry = flat[rows, self.transitions.indices]
            expected = self._row_sums(self.transitions.data * entry)
        else:
            entry = flat
            expected = np.einsum("ij,ij->i", self.transitions, flat)
        return expected.reshape(A, S).T.copy(), entry

    def _row_sums(self, values: np.ndarray) -> np.ndarray:
        counts = np.diff(self.transitions.indptr)
        rows = np.repeat(np.arange(counts.size), counts)
        return np.bincount(rows, weights=values, minlength=counts.size)

    def _terminal(self, terminal) -> np.ndarray:
        S, A = self.n_states, self.n_actions
        mask = np.zeros(S, dtype=bool)
        if terminal is not None:
            arr = np.asarray(terminal)
            if arr.dtype == bool:
                if arr.shape != (S,):
                    raise ValueError(f"terminal must be {S} booleans or state indices, "
                                     f"got shape {arr.shape}.")
                mask = arr.copy()
            elif arr.size:
                mask[check_index_array(arr, "terminal", S)] = True
        for x in np.flatnonzero(mask):
            for a in range(A):
                row = self._row(a * S + x)
                if abs(row[x] - 1.0) > _STOCHASTIC_ATOL:
                    raise ValueError(f"terminal state {x} must be absorbing: P[{a}][{x}, {x}] "
                                     f"= {row[x]:.6g}, not 1.")
                if self.expected_reward[x, a] != 0.0:
                    raise ValueError(f"terminal state {x} must have zero reward: r({x}, {a}) = "
                                     f"{self.expected_reward[x, a]:.6g}.")
        return mask

    def _initial(self, initial) -> np.ndarray:
        S = self.n_states
        if initial is None:
            live = ~self.terminal
            if not live.any():
                raise ValueError("terminal must leave at least one non-terminal state.")
            return live / live.sum()
        if isinstance(initial, numbers.Integral) and not isinstance(initial, bool | np.bool_):
            dist = np.zeros(S)
            dist[check_int(initial, "initial", low=0, high=S - 1)] = 1.0
            return dist
        return check_stochastic(initial, "initial", shape=(S,))

    def _row(self, i: int) -> np.ndarray:
        if self.is_sparse:
            return self.transitions.getrow(i).toarray().ravel()
        return self.transitions[i]

    def with_reward(self, R) -> TabularMDP:
        """The same transitions and terminal states with rewards ``R`` (any form the
        constructor accepts; an (A, S) array gives a reward per state and action, e.g.
        ``R(x) = wᵀφ(x)`` of 003 §14.6.2 broadcast over actions)."""
        new = object.__new__(TabularMDP)
        new.n_states, new.n_actions = self.n_states, self.n_actions
        new.transitions, new.is_sparse = self.transitions, self.is_sparse
        new.expected_reward, new._entry_reward = new._rewards(R)
        mask = self.terminal
        if np.any(new.expected_reward[mask] != 0.0):
            raise ValueError("R must be zero on the terminal states (absorbing, no reward).")
        new.terminal, new.initial, new._sampler = mask, self.initial, None
        return new

    # -- model ---------------------------------------------------------------------------
    @property
    def P(self) -> np.ndarray:  # noqa: N802 (the notes' symbol)
        """The dense transition array of shape (A, S, S) (small MDPs only)."""
        S, A = self.n_states, self.n_actions
        dense = self.transitions.toarray() if self.is_sparse else self.transitions
        return dense.reshape(A, S, S)

    def backup(self, V, reward_weight: float = 1.0, value_weight: float = 1.0) -> np.ndarray:
        """``Q(x, a) = w_r r(x, a) + w_v Σ_{x'} P^a_{x→x'} V(x')`` for every (x, a).

        ``V`` of shape (S,) gives Q of shape (S, A); ``V`` of shape (S, k) gives (S, A, k)
        (k value functions backed up at once). One (sparse) matrix product.
        """
        V = np.asarray(V, dtype=np.float64)
        PV = self.transitions @ V
        S, A = self.n_states, self.n_actions
        if V.ndim == 1:
            return reward_weight * self.expected_reward + value_weight * PV.reshape(A, S).T
        return (reward_weight * self.expected_reward[:, :, None]
                + value_weight * PV.reshape(A, S, -1).transpose(1, 0, 2))

    def policy_model(self, policy) -> tuple[np.ndarray | sp.csr_matrix, np.ndarray]:
        """``(P_π, r_π)``: the state chain and the expected one-step reward under ``policy``.

        ``P_π[x, x'] = Σ_a π(x, a) P^a_{x→x'}`` and ``r_π(x) = Σ_a π(x, a) r(x, a)``.
        """
        pi = as_policy_matrix(policy, self.n_states, self.n_actions)
        S, A = self.n_states, self.n_actions
        # weights pi[x, a] on the stacked rows a*S + x
        w = pi.T.reshape(A * S)
        if self.is_sparse:
            mix = sp.csr_matrix((w, (np.tile(np.arange(S), A), np.arange(A * S))),
                                shape=(S, A * S))
            P_pi = (mix @ self.transitions).tocsr()
        else:
            P_pi = np.einsum("as,asj->sj", pi.T, self.transitions.reshape(A, S, S))
        return P_pi, np.einsum("sa,sa->s", pi, self.expected_reward)

    # -- sampling ------------------------------------------------------------------------
    def _build_sampler(self):
        """CSR arrays of the transitions with per-row cumulative probabilities and the
        reward of every stored transition (built once per model)."""
        if self._sampler is None:
            if self.is_sparse:
                csr = self.transitions
                indptr, indices, probs = csr.indptr, csr.indices, csr.data
                rewards = np.asarray(self._entry_reward, dtype=np.float64)
            else:
                nz = self.transitions > 0
                counts = nz.sum(axis=1)
                indptr = np.concatenate([[0], np.cumsum(counts)])
                indices = np.nonzero(nz)[1]
                probs = self.transitions[nz]
                rewards = (np.repeat(self._entry_reward, counts)
                           if self._entry_reward.ndim == 1 else self._entry_reward[nz])
            if rewards.size != indices.size:  # one reward per (a, x) row
                rewards = np.repeat(rewards, np.diff(indptr))
            total = np.cumsum(probs)
            before = np.concatenate([[0.0], total])[indptr[:-1]]
            cum = total - np.repeat(before, np.diff(indptr))
            cum[indptr[1:] - 1] = np.inf  # guards against round-off in the last bucket
            self._sampler = (np.asarray(indptr), np.asarray(indices), cum,
                             np.asarray(rewards, dtype=np.float64))
        return self._sampler

    def sample_next(self, x: int, a: int, u: float) -> tuple[float, int]:
        """The reward and next state of action ``a`` in ``x`` for a uniform draw ``u``."""
        indptr, indices, cum, rewards = self._build_sampler()
        i = a * self.n_states + x
        lo, hi = indptr[i], indptr[i + 1]
        k = lo + int(np.searchsorted(cum[lo:hi], u, side="right"))
        return float(rewards[k]), int(indices[k])

    def __repr__(self) -> str:
        kind = "sparse" if self.is_sparse else "dense"
        return (f"TabularMDP(n_states={self.n_states}, n_actions={self.n_actions}, "
                f"{kind}, {int(self.terminal.sum())} terminal)")


class _Learner:
    """Base of the family's learners that sample an environment (not scikit-learn
    estimators: they learn from an environment, not from a feature table).

    The hyperparameters are the keyword arguments of ``__init__``, stored unchanged;
    ``get_params``/``set_params``/``repr`` follow scikit-learn's conventions.
    """

    @classmethod
    def _param_names(cls) -> tuple[str, ...]:
        sig = inspect.signature(cls.__init__)
        return tuple(name for name, p in sig.parameters.items()
                     if name != "self" and p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD))

    def get_params(self, deep: bool = True) -> dict:
        return {name: getattr(self, name) for name in self._param_names()}

    def set_params(self, **params):
        names = self._param_names()
        for name, value in params.items():
            if name not in names:
                raise ValueError(f"{name} is not a parameter of {type(self).__name__}.")
            setattr(self, name, value)
        return self

    def __repr__(self) -> str:
        inner = ", ".join(f"{k}={v!r}" for k, v in self.get_params().items()
                          if not isinstance(v, np.ndarray))
        return f"{type(self).__name__}({inner})"


# ---------------------------------------------------------------------------------------
# Policies
# ---------------------------------------------------------------------------------------


def as_policy_matrix(policy, n_states: int, n_actions: int, name: str = "policy"
                     ) -> np.ndarray:
    """``policy`` as an (S, A) matrix of action probabilities.

    A 1-d array of S actions is a deterministic policy ``π(x)``; a 2-d array must have
    non-negative rows summing to 1 (003 §14.1: Σ_a π(x, a) = 1).
    """
    n_states = check_int(n_states, "n_states", low=1, high=MAX_STATES)
    n_actions = check_int(n_actions, "n_actions", low=1, high=MAX_ACTIONS)
    if np.ndim(policy) == 1:
        actions = check_index_array(policy, name, n_actions)
        if actions.shape != (n_states,):
            raise ValueError(f"{name} must hold one action per state ({n_states}), got "
                             f"{actions.shape[0]}.")
        pi = np.zeros((n_states, n_actions))
        pi[np.arange(n_states), actions] = 1.0
        return pi
    if np.ndim(policy) != 2:
        raise ValueError(f"{name} must be an (S, A) matrix of action probabilities or an "
                         f"(S,) vector of actions, got {np.ndim(policy)} dimensions.")
    return check_stochastic(policy, name, shape=(n_states, n_actions))


def greedy_policy(Q, *, atol: float = 0.0, prefer=None) -> np.ndarray:
    """``π(x) = argmax_a Q(x, a)`` (003 §14.3.2 (14.12)) with deterministic tie-breaking.

    Among actions within ``atol`` of the maximum, ``prefer[x]`` (e.g. the current policy's
    action, which makes policy iteration terminate) wins if it is one of them; otherwise
    the lowest index.
    """
    Q = check_array_argument(Q, "Q", ndim=2, real=True)
    atol = check_real(atol, "atol", low=0.0)
    best = Q.max(axis=1, keepdims=True)
    tied = Q >= best - atol
    actions = np.argmax(tied, axis=1)
    if prefer is not None:
        prefer = check_index_array(prefer, "prefer", Q.shape[1])
        if prefer.shape != (Q.shape[0],):
            raise ValueError(f"prefer must hold one action per state ({Q.shape[0]}).")
        keep = tied[np.arange(Q.shape[0]), prefer]
        actions = np.where(keep, prefer, actions)
    return actions


def epsilon_greedy_policy(policy, epsilon: float, n_actions: int | None = None
                          ) -> np.ndarray:
    """The ε-greedy policy around a deterministic ``policy`` (003 §14.4.1, after (14.18)).

    Action ``π(x)`` gets ``1 - ε + ε/|A|``, every other action ``ε/|A|``. ``policy`` is an
    (S,) vector of actions (``n_actions`` required) or an (S, A) value table whose greedy
    actions (:func:`greedy_policy`) are used.
    """
    epsilon = check_real(epsilon, "epsilon", low=0.0, high=1.0)
    if np.ndim(policy) == 2:
        table = check_array_argument(policy, "policy", ndim=2, real=True)
        actions, n_actions = greedy_policy(table), table.shape[1]
    else:
        if n_actions is None:
            raise ValueError("n_actions is required with a vector of actions.")
        n_actions = check_int(n_actions, "n_actions", low=1, high=MAX_ACTIONS)
        actions = check_index_array(policy, "policy", n_actions)
    pi = np.full((actions.size, n_actions), epsilon / n_actions)
    pi[np.arange(actions.size), actions] += 1.0 - epsilon
    return pi


# ---------------------------------------------------------------------------------------
# Random MDPs and gymnasium
# ---------------------------------------------------------------------------------------


def random_mdp(n_states: int, n_actions: int, *, branching: int | None = None,
               n_terminal: int = 0, reward_scale: float = 1.0, sparse: bool | None = None,
               random_state=None) -> TabularMDP:
    """A random MDP: each (x, a) moves to ``branching`` next states (all S by default) with
    Dirichlet(1) probabilities and rewards uniform on ``[-reward_scale, reward_scale]``.

    The last ``n_terminal`` states are terminal. ``sparse`` (default: when A*S*S exceeds
    4·10⁶ entries) builds a CSR transition matrix.
    """
    S = check_int(n_states, "n_states", low=1, high=MAX_STATES)
    A = check_int(n_actions, "n_actions", low=1, high=MAX_ACTIONS)
    k = S if branching is None else check_int(branching, "branching", low=1, high=S)
    n_terminal = check_int(n_terminal, "n_terminal", low=0, high=S - 1)
    scale = check_real(reward_scale, "reward_scale", low=0.0)
    rng = make_rng(random_state)
    sparse = (A * S * S > _DENSE_BUDGET) if sparse is None else bool(sparse)
    if A * S * k > 5 * 10**7:
        raise ValueError(f"random_mdp: {A}*{S}*{k} stored transitions is too many (cap 5e7).")
    rows = A * S
    if k == S:
        cols = np.tile(np.arange(S), (rows, 1))
    else:  # k distinct next states per row, without a Python loop over rows
        cols = np.argsort(rng.random((rows, S)), axis=1)[:, :k] if S <= 2000 else \
            np.sort(rng.integers(0, S, size=(rows, k)), axis=1)
    probs = rng.dirichlet(np.ones(k), size=rows) if k > 1 else np.ones((rows, 1))
    rewards = rng.uniform(-scale, scale, size=(rows, k))
    terminal = np.arange(S - n_terminal, S)
    # terminal rows: absorbing, zero reward
    term_rows = (np.arange(A)[:, None] * S + terminal[None, :]).ravel()
    cols = cols.copy()
    cols[term_rows] = terminal[np.tile(np.arange(n_terminal), A)][:, None] if n_terminal \
        else cols[term_rows]
    probs[term_rows] = 0.0
    probs[term_rows, 0] = 1.0
    rewards[term_rows] = 0.0
    flat_rows = np.repeat(np.arange(rows), k)
    Pm = sp.csr_matrix((probs.ravel(), (flat_rows, cols.ravel())), shape=(rows, S))
    Rm = sp.csr_matrix((rewards.ravel(), (flat_rows, cols.ravel())), shape=(rows, S))
    if sparse:
        P = [Pm[a * S:(a + 1) * S] for a in range(A)]
        R = [Rm[a * S:(a + 1) * S] for a in range(A)]
    else:
        P = Pm.toarray().reshape(A, S, S)
        R = Rm.toarray().reshape(A, S, S)
    return TabularMDP(P, R, terminal=terminal if n_terminal else None)


def from_gymnasium(env) -> TabularMDP:
    """A :class:`TabularMDP` from a gymnasium toy-text environment's transition table.

    ``env.unwrapped.P[x][a]`` must list ``(probability, next state, reward, done)``
    (FrozenLake, CliffWalking, Taxi). States reached by a ``done`` transition are terminal:
    the episode ends there, so their rows become absorbing with zero reward. Repeated
    next states are merged (probabilities added, rewards probability-weighted).
    """
    table = getattr(getattr(env, "unwrapped", env), "P", None)
    if not isinstance(table, dict):
        raise ValueError("env must expose its transition model as env.unwrapped.P "
                         "(a gymnasium toy-text environment); this one has none.")
    S, A = _discrete_sizes(env)
    rows, cols, probs, rewards, done_states = [], [], [], [], set()
    for x in range(S):
        for a in range(A):
            try:
                outcomes = table[x][a]
            except (KeyError, IndexError, TypeError) as exc:
                raise ValueError(f"env: transition table has no entry for state {x}, "
                                 f"action {a}.") from exc
            for p, nxt, r, done in outcomes:
                rows.append(a * S + x)
                cols.append(int(nxt))
                probs.append(float(p))
                rewards.append(float(r))
                if done:
                    done_states.add(int(nxt))
    rows_a, cols_a = np.asarray(rows), np.asarray(cols)
    probs_a, rewards_a = np.asarray(probs), np.asarray(rewards)
    Pm = sp.csr_matrix((probs_a, (rows_a, cols_a)), shape=(A * S, S))  # sums duplicates
    PRm = sp.csr_matrix((probs_a * rewards_a, (rows_a, cols_a)), shape=(A * S, S))
    terminal = np.zeros(S, dtype=bool)
    terminal[list(done_states)] = True
    # absorbing, zero-reward terminal rows
    keep = sp.diags((~np.tile(terminal, A)).astype(float))
    stay = sp.csr_matrix((np.ones(int(terminal.sum()) * A),
                          (np.flatnonzero(np.tile(terminal, A)),
                           np.tile(np.flatnonzero(terminal), A))), shape=(A * S, S))
    Pm = (keep @ Pm + stay).tocsr()
    PRm = (keep @ PRm).tocsr()
    Pm.sum_duplicates()
    PRm.sum_duplicates()
    # merged rewards: probability-weighted on P's pattern
    Rm = PRm.multiply(Pm.power(-1)).tocsr() if Pm.nnz else PRm
    initial = getattr(getattr(env, "unwrapped", env), "initial_state_distrib", None)
    if initial is not None:
        initial = np.asarray(initial, dtype=np.float64)
        initial = initial / initial.sum()
    if A * S * S <= _DENSE_BUDGET:
        P = Pm.toarray().reshape(A, S, S)
        R = np.asarray(Rm.toarray()).reshape(A, S, S)
    else:
        P = [Pm[a * S:(a + 1) * S] for a in range(A)]
        R = [Rm[a * S:(a + 1) * S] for a in range(A)]
    return TabularMDP(P, R, terminal=terminal, initial=initial)


def _discrete_sizes(env) -> tuple[int, int]:
    try:
        S = int(env.observation_space.n)
        A = int(env.action_space.n)
    except AttributeError as exc:
        raise ValueError("env must have discrete observation and action spaces "
                         "(gymnasium.spaces.Discrete).") from exc
    if S < 1 or A < 1:
        raise ValueError(f"env must have at least one state and one action, got {S}, {A}.")
    return S, A


# ---------------------------------------------------------------------------------------
# Simulators for model-free methods
# ---------------------------------------------------------------------------------------


class _MDPSimulator:
    """Episodes of a :class:`TabularMDP`: ``reset() -> x``, ``step(a) -> (r, x', done)``."""

    def __init__(self, mdp: TabularMDP, rng: np.random.Generator, start: int | None) -> None:
        self.mdp, self.rng, self.start = mdp, rng, start
        self.n_states, self.n_actions = mdp.n_states, mdp.n_actions
        self.terminal = mdp.terminal
        self._cum_initial = np.cumsum(mdp.initial)
        self.state = None
        self.truncated = False  # a TabularMDP has no time limit

    def reset(self) -> int:
        if self.start is not None:
            self.state = self.start
        else:
            self.state = int(np.searchsorted(self._cum_initial, self.rng.random(),
                                             side="right"))
            self.state = min(self.state, self.n_states - 1)
        return self.state

    def step(self, a: int) -> tuple[float, int, bool]:
        r, nxt = self.mdp.sample_next(self.state, a, self.rng.random())
        self.state = nxt
        return r, nxt, bool(self.terminal[nxt])


class _GymSimulator:
    """Episodes of a gymnasium environment with discrete spaces (no model needed)."""

    def __init__(self, env, rng: np.random.Generator, start: int | None) -> None:
        if start is not None:
            raise ValueError("start: a gymnasium environment chooses its own start state.")
        self.env, self.rng = env, rng
        self.n_states, self.n_actions = _discrete_sizes(env)
        self.terminal = np.zeros(self.n_states, dtype=bool)  # learnt from `done`
        self.truncated = False
        self._seeded = False

    def reset(self) -> int:
        seed = None if self._seeded else int(self.rng.integers(2**31 - 1))
        self._seeded = True
        x, _ = self.env.reset(seed=seed)
        return int(x)

    def step(self, a: int) -> tuple[float, int, bool]:
        x, r, terminated, truncated, _ = self.env.step(int(a))
        if terminated:
            self.terminal[int(x)] = True
        # an episode cut by a time limit ends without reaching a terminal state: learners
        # that bootstrap read this flag and keep the next state's value in the target
        self.truncated = bool(truncated and not terminated)
        return float(r), int(x), bool(terminated or truncated)


def make_simulator(env, random_state=None, start: int | None = None):
    """A seeded episode simulator for ``env`` (a :class:`TabularMDP` or a gymnasium
    environment with discrete spaces): ``reset() -> x_0``, ``step(a) -> (r, x', done)``,
    ``n_states``, ``n_actions``. ``start`` fixes ``x_0`` (003 Algs. 8-12 take it as input).
    After a step with ``done``, ``truncated`` tells a time limit (gymnasium's truncation)
    from a terminal state.
    """
    rng = make_rng(random_state)
    if isinstance(env, TabularMDP):
        if start is not None:
            start = check_int(start, "start", low=0, high=env.n_states - 1)
        return _MDPSimulator(env, rng, start)
    if hasattr(env, "reset") and hasattr(env, "step") and hasattr(env, "action_space"):
        return _GymSimulator(env, rng, start)
    raise InvalidArgumentError(f"env must be a TabularMDP or a gymnasium environment, got "
                               f"{type(env).__name__}.")
