"""Claims of temporal-difference learning (003 §14.4.2 (14.20)–(14.21), Algs. 10–11).

References (``td_support``) share no code with the learners: Q^π from one dense linear
solve over state-action pairs, Q* from a linear programme (HiGHS) certified by its Bellman
residual, Monte-Carlo rollouts, and the printed Alg.11 run literally.

Simulation rules. Control claims compare a learnt table with Q* in units of the value
scale ``max|R| / (1 − γ)``. Q-learning: within 0.05 on every entry (worst seen on 150
drawn MDPs about 0.011). The rule was revised once: with α = n^(-0.8) and 0.03, seed 8
drew a γ = 0 MDP with noisy rewards where the error reached 0.042 (a noisy average over
~10^4 visits); now α = n^(-0.9) and 0.05. Sarsa with decaying ε: within 0.05 on the
entries updated at least 2000 times, on the greedy values and on the greedy policy's
values (worst seen on 150 drawn MDPs about 0.024; over *all* entries it was 0.10: its
rarely tried actions are estimated from ~√n visits). The draws are seeded, so a verdict
is reproducible.

Reading of the notes. (14.21) writes the transition reward R^a_{x→x'} where the update
uses the observed reward r: in the notes' MDP the reward of a transition is R^a_{x→x'}
itself, so the two coincide (not an erratum). The notes' loops never reset; on episodic
tasks our learners restart from the start distribution at a terminal state (target r).
"""

from __future__ import annotations

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from algorithms.reinforcement import QLearning, Sarsa, TabularMDP, random_mdp
from mltheory import ErratumKind, Expect, Method, claim, evidence
from mltheory.numeric import EXACT_ARITHMETIC, assert_close
from mltheory.stats import hoeffding_interval
from properties.reinforcement import td_support as support
from properties.reinforcement.strategies import mdps, policies

#: Simulation rules (fractions of max|R|/(1−γ)), see the module docstring.
QLEARNING_TOLERANCE = 0.05
SARSA_TOLERANCE = 0.05
#: Sarsa's rarely tried actions are estimated from few visits; its rule counts the pairs
#: updated at least this often (the greedy ones always are).
SARSA_MIN_VISITS = 2000


def fit_qlearning(mdp, gamma, seed, n_steps=100_000, **kw):
    """Q-learning with uniform exploration (ε = 1: off-policy, every pair tried) and
    α = n(x, a)^(-0.9); episodes cut at 20 steps so that every start state recurs."""
    params = dict(gamma=gamma, alpha=1.0, alpha_power=0.9, epsilon=1.0, n_steps=n_steps,
                  max_episode_length=20, random_state=seed)
    params.update(kw)
    learner = QLearning(**params).fit(mdp)
    assert learner.converged_, "Q-learning did not finish"
    return learner


def fit_sarsa_glie(mdp, gamma, seed, n_steps=200_000, **kw):
    """Sarsa, greedy in the limit: ε(x) = n(x)^(-1/2), α = n(x, a)^(-0.8)."""
    params = dict(gamma=gamma, alpha=1.0, alpha_power=0.8, epsilon=1.0, epsilon_power=0.5,
                  n_steps=n_steps, max_episode_length=20, random_state=seed)
    params.update(kw)
    learner = Sarsa(**params).fit(mdp)
    assert learner.converged_, "Sarsa did not finish"
    return learner


def replay_updates(history, n_states, n_actions, gamma, target_kind):
    """Recompute, from the recorded steps, the table before each update and check the
    recorded target and new value against (14.21) (``"sarsa"``) or the max target
    (``"max"``). Returns the number of updates checked."""
    Q = np.zeros((n_states, n_actions))
    h = history
    n = h["state"].size
    targets, news, befores = np.zeros(n), np.zeros(n), np.zeros(n)
    for t in range(n):
        x, a, r, y = h["state"][t], h["action"][t], h["reward"][t], h["next_state"][t]
        if h["done"][t]:
            target = r
        elif target_kind == "sarsa":
            target = r + gamma * Q[y, h["next_action"][t]]
        else:
            target = r + gamma * Q[y].max()
        befores[t] = Q[x, a]
        targets[t] = target
        news[t] = Q[x, a] + h["step_size"][t] * (target - Q[x, a])
        Q[x, a] = h["q_after"][t]
    assert np.array_equal(h["q_before"], befores), "a recorded Q(x, a) is not the table's"
    assert_close(h["target"], targets, EXACT_ARITHMETIC, context="recorded targets: ")
    assert_close(h["q_after"], news, EXACT_ARITHMETIC, context="recorded updates: ")
    return n


@claim(
    id="td.bellman_q_14_20",
    source="003 §14.4.2 (14.20)",
    statement="For the γ-discounted reward, Q^π(x, a) equals the expected transition reward "
    "plus γ times the π-average of Q^π at the next state, Σ_x' P^a_{x→x'}(R^a_{x→x'} + "
    "γ Σ_a' π(x', a') Q^π(x', a')); its solution is the expected discounted return of "
    "taking a in x and following π afterwards.",
    method=Method.SIMULATION,
    tags=("reinforcement", "td", "bellman"),
)
def bellman_q_14_20(rng, scale):
    cases = [(2, 2, 0, 0.0), (3, 2, 0, 0.5), (4, 3, 1, 0.8), (3, 3, 0, 0.9)]
    for S, A, n_term, gamma in cases:
        mdp = random_mdp(S, A, n_terminal=n_term, random_state=int(rng.integers(2**31)))
        pi = rng.dirichlet(np.ones(A), size=S)
        support.check_bellman_q(mdp, pi, gamma, rng, scale)
        evidence.add_examples(1)


@claim(
    id="td.sarsa_14_21",
    source="003 §14.4.2 (14.21), Alg.10",
    statement="The Sarsa update Q(x, a) ← Q(x, a) + α(r + γ Q(x', a') − Q(x, a)), a' drawn "
    "from the policy at x', is an incremental estimate of (14.20): Q^π is its fixed point "
    "(the expected increment vanishes there and nowhere else), and each step of the "
    "algorithm applies exactly this update.",
    method=Method.PROPERTY,
    tags=("reinforcement", "td", "sarsa"),
)
@given(data=st.data(), gamma=st.sampled_from([0.0, 0.3, 0.7, 0.95]))
def sarsa_14_21(data, gamma):
    mdp = data.draw(mdps(max_states=4, max_actions=3, max_terminal=1))
    pi = data.draw(policies(mdp.n_states, mdp.n_actions))
    support.check_sarsa_fixed_point(mdp, pi, gamma)
    seed = data.draw(st.integers(0, 2**31 - 1))
    learner = Sarsa(gamma=gamma, alpha=0.3, epsilon=0.5, n_steps=100, max_episode_length=15,
                    random_state=seed, record_history=True).fit(mdp)
    n = replay_updates(learner.history_, mdp.n_states, mdp.n_actions, gamma, "sarsa")
    evidence.record("updates replayed per example", n)


@claim(
    id="td.sarsa_control",
    source="003 §14.4.2 Alg.10",
    statement="Sarsa with ε-greedy exploration decaying per state (ε = n(x)^(-1/2)) and "
    "step sizes α = n(x, a)^(-0.8) approaches Q* on small MDPs: after 2·10^5 steps every "
    "entry updated at least 2000 times, the greedy values max_a Q(x, a), and the values of "
    "the greedy policy are within 0.05·max|R|/(1−γ) of Q* and V* (from a linear programme).",
    method=Method.SIMULATION,
    tags=("reinforcement", "td", "sarsa", "slow"),
)
@given(mdp=mdps(max_states=4, max_actions=3, max_terminal=1),
       gamma=st.floats(0.0, 0.8), seed=st.integers(0, 2**31 - 1))
def sarsa_control(mdp, gamma, seed):
    support.check_control_reaches_q_star(mdp, gamma, fit_sarsa_glie, seed, SARSA_TOLERANCE,
                                         SARSA_MIN_VISITS)


@claim(
    id="td.qlearning",
    source="003 §14.4.2 Alg.11",
    statement="Q-learning — behaviour a = π^ε(x), target r + γ max_a' Q(x', a'), update of "
    "the executed pair (x, a) — reaches Q* on small MDPs under sufficient exploration: with "
    "ε = 1 and α = n(x, a)^(-0.9), after 10^5 steps every entry, the greedy values and the "
    "greedy policy's values are within 0.05·max|R|/(1−γ) of Q* and V* from a linear "
    "programme, and each recorded step applies exactly this update.",
    method=Method.REFERENCE,
    tags=("reinforcement", "td", "qlearning", "slow"),
)
@given(mdp=mdps(max_states=4, max_actions=3, max_terminal=1),
       gamma=st.floats(0.0, 0.8), seed=st.integers(0, 2**31 - 1))
def qlearning(mdp, gamma, seed):
    support.check_control_reaches_q_star(mdp, gamma, fit_qlearning, seed, QLEARNING_TOLERANCE)
    learner = QLearning(gamma=gamma, alpha=0.5, epsilon=0.3, n_steps=100,
                        max_episode_length=15, random_state=seed,
                        record_history=True).fit(mdp)
    replay_updates(learner.history_, mdp.n_states, mdp.n_actions, gamma, "max")


#: Episodes per run of ``td.episode_returns_14_14`` (times the profile scale): the
#: Hoeffding half-width of the mean per-step return at confidence 1 − 1e-6 is then
#: 0.085 times the reward range.
RETURN_EPISODES = 1000


def t_step_values(mdp, pi, T):
    """V_T^π of (14.3) by the notes' recursion (14.5), V_0 = 0 and V_t(x) = Σ_a π(x, a)
    Σ_x' P^a_{x→x'} (R^a_{x→x'} / t + (t − 1)/t V_{t−1}(x')), on the dense model (numpy)."""
    P, r = support.dense_model(mdp)
    V = np.zeros(mdp.n_states)
    for t in range(1, T + 1):
        V = np.sum(pi * (r / t + (t - 1) / t * np.einsum("asj,j->sa", P, V)), axis=1)
    return V


def check_episode_returns(mdp, learner_cls, T, x0, seed, n_episodes, record=False):
    """Run ``learner_cls`` with ε = 1 (uniform behaviour) for ``n_episodes`` episodes of at
    most T steps from x0 and compare its recorded episode returns with T V_T^π(x0) of the
    uniform policy (Hoeffding at 1 − 1e-6). With ``record`` the run takes the pure-Python
    path, where each return must be the sum of the recorded rewards of its episode, and
    the compiled run on the same draws must record the very same returns."""
    params = dict(gamma=0.5, alpha=0.5, epsilon=1.0, n_episodes=n_episodes,
                  max_episode_length=T, start=x0, random_state=seed)
    learner = learner_cls(**params, record_history=record).fit(mdp)
    returns = learner.episode_returns_
    if record:
        compiled = learner_cls(**params).fit(mdp).episode_returns_
        assert np.array_equal(compiled, returns), (
            f"the compiled run records returns {compiled[:5]}..., the Python run on the "
            f"same draws {returns[:5]}...")
    assert learner.converged_ and learner.n_episodes_ == returns.size == n_episodes, (
        f"{learner.n_episodes_} episodes ({returns.size} returns) of {n_episodes} requested")
    if not mdp.terminal.any():  # every episode is cut at exactly T steps
        assert learner.n_steps_ == n_episodes * T, (
            f"{learner.n_steps_} steps for {n_episodes} episodes of {T} steps")
    if record:
        h = learner.history_
        ends = np.flatnonzero(h["done"] | (np.arange(h["done"].size) % T == T - 1))
        assert not mdp.terminal.any(), "the replay of episode ends assumes no terminal state"
        sums = np.add.reduceat(h["reward"], np.r_[0, ends[:-1] + 1])
        assert_close(returns, sums, EXACT_ARITHMETIC, context="episode returns: ")
    uniform = np.full((mdp.n_states, mdp.n_actions), 1.0 / mdp.n_actions)
    value = float(t_step_values(mdp, uniform, T)[x0])
    top = float(np.abs(support._transition_rewards(mdp)).max()) or 1.0
    mean = float(np.mean(returns)) / T
    lo, hi = hoeffding_interval(mean, n_episodes, -top, top, support.CONFIDENCE)
    evidence.worst("|mean return / T − V_T(x0)| / Hoeffding half-width",
                   abs(mean - value) / (0.5 * (hi - lo)))
    assert lo <= value <= hi, (
        f"mean episode return / T = {mean:.4g} (Hoeffding interval [{lo:.4g}, {hi:.4g}]) "
        f"but V_T(x0) = {value:.4g} for the uniform policy, T = {T}")


@claim(
    id="td.episode_returns_14_14",
    source="003 §14.4.1 (14.14), §14.3.1 (14.3), (14.5), §14.2.2",
    statement="The episodes that Sarsa and Q-learning run are the T-step trajectories "
    "(14.14) of their behaviour policy from the start state x_0: with ε = 1 the ε-greedy "
    "behaviour is the uniform policy π whatever Q holds, so the recorded episode returns "
    "(sums of the rewards of an episode cut after T steps or ended at an absorbing zero-"
    "reward terminal state) are independent samples of T times the T-step cumulative "
    "reward, with mean T V_T^π(x_0) from the recursion (14.5) (decided by a Hoeffding "
    "interval at confidence 1 − 1e-6); every requested episode is recorded, and each "
    "return is the sum of its episode's recorded rewards.",
    method=Method.SIMULATION,
    tags=("reinforcement", "td"),
)
def episode_returns_14_14(rng, scale):
    cases = [(3, 2, 0, 1), (4, 3, 0, 3), (4, 2, 1, 5), (2, 3, 0, 8)]
    for S, A, n_term, T in cases:
        mdp = random_mdp(S, A, n_terminal=n_term, random_state=int(rng.integers(2**31)))
        x0 = int(rng.integers(S - n_term))
        for learner_cls in (Sarsa, QLearning):
            check_episode_returns(mdp, learner_cls, T, x0, int(rng.integers(2**31)),
                                  RETURN_EPISODES * scale)
            evidence.add_examples(1)
    mdp = random_mdp(3, 2, random_state=int(rng.integers(2**31)))
    for learner_cls in (Sarsa, QLearning):
        check_episode_returns(mdp, learner_cls, 4, 0, int(rng.integers(2**31)), 200,
                              record=True)


#: The smallest counterexample to the printed Alg.11: one state, two actions with rewards
#: 1 and 0, no discounting. Q* = (1, 0).
ONE_STATE_TWO_ARMS = TabularMDP(np.ones((2, 1, 1)), np.array([[1.0], [0.0]]))


def check_alg11_as_printed(mdp, gamma, seed, n_steps=5000):
    """003 Alg.11 run literally (ε = 1/2) should reach Q* within the Q-learning rule."""
    Qstar = support.q_star_lp(mdp, gamma)
    Q = support.alg11_as_printed(mdp, gamma, 0.5, n_steps, np.random.default_rng(seed))
    unit = max(float(np.abs(mdp.expected_reward).max()), 1e-12) / (1 - gamma)
    err = float(np.abs(Q - Qstar)[~mdp.terminal].max())
    evidence.worst("max |Q − Q*| / (max|R|/(1−γ))", err / unit)
    assert err <= QLEARNING_TOLERANCE * unit, (
        f"Alg.11 as printed ends at Q = {np.round(Q, 3).tolist()}, Q* = "
        f"{np.round(Qstar, 3).tolist()} (error {err:.3g})")


@claim(
    id="td.qlearning_alg11_as_printed",
    source="003 §14.4.2 Alg.11",
    statement="Alg.11 as printed (execute π^ε(x); draw a' = π^ε(x'); update Q(x, a) with "
    "r + γ Q(x', a'); then x, a = x', a') is Q-learning: with exploration it learns Q*.",
    method=Method.SIMULATION,
    tags=("reinforcement", "td", "qlearning"),
    expect=Expect.REFUTED,
    kind=ErratumKind.CODE,
    corrected_by="td.qlearning",
    explanation="Line 7 updates Q(x, a) for the a carried over from the previous iteration "
    "(line 9), not for the action executed at line 5, so the reward of one action is "
    "credited to another; and its target r + γ Q(x', a') with a' = π^ε(x') is Sarsa's, not "
    "max_a' Q(x', a'). (a is also never set before the loop.) One state, two actions with "
    "rewards 1 and 0, γ = 0, ε = 1/2: the printed loop ends near Q = (0.75, 0.75) — each "
    "entry the reward of the behaviour's action — while Q* = (1, 0).",
)
def qlearning_alg11_as_printed(rng):
    check_alg11_as_printed(ONE_STATE_TWO_ARMS, 0.0, int(rng.integers(2**31)))
    for S, A in ((2, 2), (3, 2)):
        mdp = random_mdp(S, A, random_state=int(rng.integers(2**31)))
        check_alg11_as_printed(mdp, 0.5, int(rng.integers(2**31)))

