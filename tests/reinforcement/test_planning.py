"""Behaviour of the planning part: evaluation, improvement, policy and value iteration,
the LP, on dense and sparse MDPs; caps, warnings and bad input."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.exceptions import ConvergenceWarning

from algorithms.reinforcement import (
    TabularMDP,
    optimal_values_lp,
    policy_evaluation,
    policy_improvement,
    policy_iteration,
    q_from_v,
    random_mdp,
    value_iteration,
)
from properties.reinforcement.planning_support import nonstationary_example


def _dense_and_sparse(S=30, A=3, seed=0):
    dense = random_mdp(S, A, branching=4, sparse=False, random_state=seed)
    sparse = random_mdp(S, A, branching=4, sparse=True, random_state=seed)
    return dense, sparse


def test_dense_and_sparse_agree():
    dense, sparse = _dense_and_sparse()
    assert sparse.is_sparse and not dense.is_sparse
    pi = np.random.default_rng(1).dirichlet(np.ones(3), size=30)
    for kw in ({"gamma": 0.9, "method": "exact"}, {"gamma": 0.9}, {"horizon": 5}):
        a, b = policy_evaluation(dense, pi, **kw), policy_evaluation(sparse, pi, **kw)
        np.testing.assert_allclose(a.V, b.V, atol=1e-9)
        np.testing.assert_allclose(a.Q, b.Q, atol=1e-9)
    for kw in ({"gamma": 0.95}, {"gamma": 0.95, "in_place": True}, {"horizon": 4}):
        np.testing.assert_allclose(value_iteration(dense, **kw).V,
                                   value_iteration(sparse, **kw).V, atol=1e-8)
    np.testing.assert_array_equal(policy_iteration(dense, gamma=0.95).policy,
                                  policy_iteration(sparse, gamma=0.95).policy)
    np.testing.assert_allclose(optimal_values_lp(dense, 0.95), optimal_values_lp(sparse, 0.95),
                               atol=1e-7)


def test_exact_and_iterative_evaluation_agree_within_the_theta_bound():
    mdp = random_mdp(20, 3, random_state=2)
    pi = np.zeros(20, dtype=int)
    exact = policy_evaluation(mdp, pi, gamma=0.9, method="exact")
    it = policy_evaluation(mdp, pi, gamma=0.9, theta=1e-6, record_history=True)
    assert exact.n_sweeps == 0 and it.converged and it.n_sweeps == len(it.residuals)
    assert len(it.history) == it.n_sweeps + 1 and not np.any(it.history[0])
    assert np.max(np.abs(it.V - exact.V)) <= 0.9 * 1e-6 / 0.1


def test_gamma_zero_gives_the_expected_reward():
    mdp = random_mdp(6, 2, random_state=3)
    pi = np.random.default_rng(0).dirichlet(np.ones(2), size=6)
    _, r_pi = mdp.policy_model(pi)
    np.testing.assert_allclose(policy_evaluation(mdp, pi, gamma=0.0).V, r_pi, atol=1e-15)
    np.testing.assert_allclose(policy_evaluation(mdp, pi, horizon=1).V, r_pi, atol=1e-15)


def test_t_step_evaluation_keeps_v_prev_and_runs_exactly_t_sweeps():
    mdp = random_mdp(5, 2, random_state=4)
    pi = np.ones(5, dtype=int)
    r = policy_evaluation(mdp, pi, horizon=6, record_history=True)
    assert r.n_sweeps == 6 and len(r.history) == 7 and r.converged
    np.testing.assert_array_equal(r.V_prev, r.history[-2])
    np.testing.assert_allclose(r.V_prev, policy_evaluation(mdp, pi, horizon=5).V)
    np.testing.assert_allclose(r.Q, q_from_v(mdp, r.V, horizon=6, V_prev=r.V_prev))


def test_terminal_states_have_value_zero():
    mdp = random_mdp(8, 2, n_terminal=2, random_state=5)
    for res in (value_iteration(mdp, gamma=0.9), value_iteration(mdp, horizon=3),
                policy_iteration(mdp, gamma=0.9)):
        assert np.all(res.V[mdp.terminal] == 0.0)


def test_value_iteration_caps_warn_and_stay_finite():
    mdp = random_mdp(10, 2, random_state=6)
    with pytest.warns(ConvergenceWarning):
        r = value_iteration(mdp, gamma=0.99, max_iter=3)
    assert not r.converged and r.n_sweeps == 3 and np.all(np.isfinite(r.V))
    with pytest.warns(ConvergenceWarning):
        e = policy_evaluation(mdp, np.zeros(10, dtype=int), gamma=0.99, max_iter=2)
    assert not e.converged and np.all(np.isfinite(e.V))
    with pytest.warns(ConvergenceWarning):
        p = policy_iteration(mdp, gamma=0.99, max_iter=1)
    assert not p.converged


def test_in_place_value_iteration_matches_and_needs_no_more_sweeps():
    mdp = random_mdp(50, 4, branching=5, random_state=7)
    sync = value_iteration(mdp, gamma=0.95, theta=1e-10)
    gs = value_iteration(mdp, gamma=0.95, theta=1e-10, in_place=True, record_history=True)
    assert gs.converged and gs.n_sweeps <= sync.n_sweeps
    assert len(gs.history) == gs.n_sweeps + 1
    np.testing.assert_allclose(gs.V, sync.V, atol=1e-8)
    np.testing.assert_array_equal(gs.policy, sync.policy)


def test_t_step_value_iteration_returns_a_plan_by_steps_to_go():
    ex = nonstationary_example().mdp
    r = value_iteration(ex, horizon=3)
    np.testing.assert_allclose(r.V, [4 / 3, 1.0, 0.0])
    assert r.nonstationary_policy.shape == (3, 3)
    assert r.policy[0] == 0 and r.nonstationary_policy[1, 0] == 1  # stay, then go
    with pytest.raises(ValueError, match="in_place"):
        value_iteration(ex, horizon=3, in_place=True)


def test_t_step_policy_iteration_stops_below_the_optimum_or_cycles():
    ex = nonstationary_example().mdp
    r = policy_iteration(ex, horizon=3)
    assert r.converged and r.V[0] == pytest.approx(1.0)  # < V_3*(s0) = 4/3
    P = np.array([[[0.0, 0.0, 1.0], [0.5, 0.5, 0.0], [0.0, 0.0, 1.0]],
                  [[0.0, 1.0, 0.0], [1.0, 0.0, 0.0], [0.0, 0.5, 0.5]]])
    R = np.array([[2.0, 1.0, 0.0], [0.0, 0.0, -2.0]])
    with pytest.warns(ConvergenceWarning, match="earlier policy"):
        c = policy_iteration(TabularMDP(P, R), horizon=3)
    assert c.cycled and not c.converged


def test_gamma_policy_iteration_matches_value_iteration_and_the_lp():
    mdp = random_mdp(40, 4, random_state=8)
    for evaluation in ("exact", "iterative"):
        pi = policy_iteration(mdp, gamma=0.9, evaluation=evaluation)
        assert pi.converged and len(pi.values) == pi.n_iter
        np.testing.assert_allclose(pi.V, optimal_values_lp(mdp, 0.9), atol=1e-7)
        np.testing.assert_array_equal(pi.policy, value_iteration(mdp, gamma=0.9).policy)


def test_policy_improvement_keeps_the_current_action_on_ties():
    mdp = random_mdp(3, 3, random_state=9)
    Q = np.array([[1.0, 1.0, 0.0], [0.0, 2.0, 2.0], [5.0, 1.0, 5.0]])
    np.testing.assert_array_equal(policy_improvement(mdp, Q), [0, 1, 0])
    np.testing.assert_array_equal(policy_improvement(mdp, Q, current=[1, 2, 2]), [1, 2, 2])
    V = np.zeros(3)
    np.testing.assert_array_equal(policy_improvement(mdp, V=V, gamma=0.5),
                                  mdp.expected_reward.argmax(axis=1))


def test_bad_arguments_name_themselves():
    mdp = random_mdp(4, 2, random_state=10)
    with pytest.raises(ValueError, match="gamma, horizon"):
        value_iteration(mdp)
    with pytest.raises(ValueError, match="gamma, horizon"):
        policy_evaluation(mdp, np.zeros(4, dtype=int), gamma=0.5, horizon=2)
    with pytest.raises(ValueError, match="horizon"):
        value_iteration(mdp, horizon=0)
    with pytest.raises(ValueError, match="gamma"):
        policy_iteration(mdp, gamma=1.0)
    with pytest.raises(ValueError, match="V_prev"):
        q_from_v(mdp, np.zeros(4), horizon=3)
    with pytest.raises(ValueError, match="method"):
        policy_evaluation(mdp, np.zeros(4, dtype=int), gamma=0.5, method="lu")
    with pytest.raises(ValueError, match="policy"):
        policy_evaluation(mdp, np.full((4, 2), 0.6), gamma=0.5)
    with pytest.raises(ValueError, match="Q, V"):
        policy_improvement(mdp)
    with pytest.raises(ValueError, match="current"):
        policy_improvement(mdp, np.zeros((4, 2)), current=np.full((4, 2), 0.5))
    with pytest.raises(ValueError, match="mdp"):
        value_iteration(np.zeros((2, 4, 4)), gamma=0.5)


def test_large_sparse_mdp_runs_quickly():
    mdp = random_mdp(5000, 4, branching=8, sparse=True, random_state=11)
    assert sp.issparse(mdp.transitions)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        vi = value_iteration(mdp, gamma=0.9, theta=1e-8)
        ev = policy_evaluation(mdp, vi.policy, gamma=0.9, method="exact")
    assert vi.converged
    assert np.max(np.abs(ev.V - vi.V)) < 1e-6


def test_t_step_improvement_can_lower_the_value():
    """Found by a random search (3000 small MDPs, T in 2..4: 99 lowered a state's V_T,
    42 made policy iteration cycle); the erratum mdp.policy_improvement_t_step_as_written."""
    P = np.array([[[1.0, 0.0], [1 / 3, 2 / 3]], [[0.5, 0.5], [0.5, 0.5]]])
    R = np.array([[[2.0, -2.0], [-2.0, 1.0]], [[-3.0, 2.0], [-2.0, 1.0]]])
    mdp = TabularMDP(P, R)
    pi = np.array([0, 0])
    before = policy_evaluation(mdp, pi, horizon=3)
    new = policy_improvement(mdp, before.Q, current=pi)
    after = policy_evaluation(mdp, new, horizon=3)
    np.testing.assert_array_equal(new, [0, 1])
    np.testing.assert_allclose(before.V, [2.0, 16 / 27])
    assert after.V[1] < before.V[1] - 0.05


def test_t_step_value_iteration_caps_its_plan_at_1e8_entries():
    # a resource cap of the library: a T x S plan of up to 1e8 actions is accepted ...
    mdp = random_mdp(10, 2, random_state=0)
    result = value_iteration(mdp, horizon=2000)
    assert result.nonstationary_policy.shape == (2000, 10) and result.n_sweeps == 2000
    # ... a larger one is refused before any sweep
    big = random_mdp(101, 2, branching=2, random_state=0)
    with pytest.raises(ValueError, match="horizon"):
        value_iteration(big, horizon=10**6)
