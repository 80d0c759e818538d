"""K-armed bandits (003 §14.2): incremental means (14.1)/(14.19), ε-greedy exploration
(Alg.2), softmax selection (14.2) and Algs.3-4.

Closing notes on the printed pseudo-code:

* Alg.2 updates Q(k) (line 11) before incrementing count(k) (line 12). (14.1) reads
  ``n - 1`` as the number of pulls so far and ``v_n`` as the n-th reward, so the divisor
  is ``count(k) + 1`` at line 11: nothing wrong is printed, and no erratum is declared;
  ``bandit.incremental_mean_14_1`` checks the learners' recorded means against the
  per-arm averages of their recorded rewards (a divisor ``count`` is refuted by the teeth
  test).
* Alg.3, titled softmax, prints the ε-greedy body: ``bandit.softmax_alg3_as_printed``.
* Alg.4's signature lists ``ε`` where its input line says ``τ`` (as Alg.3's does); the body
  draws from (14.2), which needs ``τ``. This is a SYMBOL slip in a parameter list (nothing
  to run differently once the parameter is called ``τ``); it is recorded here, not as a
  separate claim.
"""

from __future__ import annotations

import math
from fractions import Fraction

import mpmath
import numpy as np
import scipy.stats
from hypothesis import example, given
from hypothesis import strategies as st

from algorithms.reinforcement import (
    BernoulliBandit,
    EpsilonGreedyBandit,
    GaussianBandit,
    SoftmaxBandit,
    incremental_mean,
    running_means,
    softmax_probabilities,
)
from mltheory import ErratumKind, Expect, Method, claim, evidence
from mltheory.numeric import Tolerance, assert_close
from mltheory.stats import (
    DEFAULT_CONFIDENCE,
    check_probability_at_least,
    check_probability_at_most,
    decide_at_least,
    decide_at_most,
)
from properties.reinforcement.strategies_bandits_mc import (
    reward_lists,
    temperatures,
    value_vectors,
)

#: A running mean of t values accumulates about t roundings of relative size 1e-16.
RUNNING_MEAN = Tolerance(rtol=1e-11, atol=1e-11,
                         reason="t <= 60 incremental updates, each rounding at 1e-16 "
                         "relative to the largest |value| (scaled in by the caller)")
#: (14.2) in float64 against a 50-digit reference: a few roundings per entry.
SOFTMAX_FLOAT = Tolerance(rtol=1e-12, atol=1e-300,
                          reason="exp and one division in float64 after an exact shift; "
                          "probabilities below 1e-300 may underflow to 0")

SOURCE_14_1 = "003 §14.2.2 (14.1), Alg.2"
SOURCE_14_2 = "003 §14.2.3 (14.2)"


# ---------------------------------------------------------------------------------------
# (14.1) and (14.19)
# ---------------------------------------------------------------------------------------


def exact_means(values) -> list[float]:
    """The running arithmetic means in rational arithmetic (the reference)."""
    total, out = Fraction(0), []
    for i, v in enumerate(values, start=1):
        total += Fraction(v)
        out.append(float(total / i))
    return out


def check_incremental_mean(values) -> None:
    q, trace = 0.0, []
    for n, v in enumerate(values, start=1):
        q = incremental_mean(q, n, v)
        trace.append(q)
    scale = max(1.0, max(abs(v) for v in values))
    assert_close(np.array(trace), np.array(exact_means(values)), tol=RUNNING_MEAN,
                 scale=scale, label="(14.1) incremental mean vs the rational running mean")


def check_learner_means(learner) -> None:
    """Q_ equals the average of the rewards recorded per arm; counts_ the pulls."""
    K = learner.n_arms_
    counts = np.bincount(learner.arms_, minlength=K)
    assert np.array_equal(counts, learner.counts_), "counts_ differ from the recorded pulls"
    for k in range(K):
        got = learner.rewards_[learner.arms_ == k]
        want = math.fsum(got) / got.size if got.size else 0.0
        scale = max(1.0, float(np.max(np.abs(got)))) if got.size else 1.0
        err = abs(learner.Q_[k] - want) / scale
        evidence.worst("learner Q_ minus the mean of its recorded rewards (relative)", err)
        assert err <= 1e-9, f"arm {k}: Q_ = {learner.Q_[k]!r} but the mean reward is {want!r}"


@claim(
    id="bandit.incremental_mean_14_1",
    source=SOURCE_14_1,
    statement="The incremental update (14.1), Q_n = ((n-1) Q_{n-1} + v_n)/n, gives the "
    "arithmetic mean of v_1..v_n; in Alg.2 (and Alg.4) Q(k) is updated before count(k) is "
    "incremented, so n = count(k) + 1 and Q(k) is the average reward of arm k.",
    method=Method.PROPERTY,
    tags=("reinforcement", "bandit", "incremental-mean"),
)
@given(values=reward_lists(), seed=st.integers(0, 2**16))
@example(values=[1.0], seed=0)
@example(values=[1e6, -1e6, 3.0], seed=1)
def incremental_mean_14_1(values, seed):
    check_incremental_mean(values)
    bandit = GaussianBandit([0.0, 0.5, 1.0], sigma=1.0)
    check_learner_means(EpsilonGreedyBandit(epsilon=0.3, n_steps=60, random_state=seed)
                        .fit(bandit))
    check_learner_means(SoftmaxBandit(tau=0.5, n_steps=60, random_state=seed).fit(bandit))


#: Pulls per arm in ``bandit.arm_rewards_14_2`` (times the profile scale).
ARM_PULLS = 2000
#: The (14.1) average of n pulls against their exact-sum mean.
ARM_MEAN = Tolerance(rtol=1e-11, atol=1e-11,
                     reason="n <= 2000 x scale incremental updates, each rounding at 1e-16 "
                     "relative to the largest |reward| (scaled in by the caller)")


def check_arm_rewards(bandit, rng, n: int) -> None:
    """n pulls of each arm by ``bandit.sample``: their (14.1) average estimates the arm's
    expected reward. Bernoulli: rewards in {0, 1}, P(1) = μ_k both ways by Clopper-Pearson;
    Gaussian: the standardised average within the two-sided normal quantile and the sum of
    squared deviations within the χ²_n quantiles, each at DEFAULT_CONFIDENCE."""
    alpha = 1.0 - DEFAULT_CONFIDENCE
    for k, mu in enumerate(bandit.means):
        v = bandit.sample(np.full(n, k), random_state=int(rng.integers(2**31)))
        q = float(running_means(v)[-1])  # Q_n(k) of (14.1)
        assert_close(q, math.fsum(v) / n, tol=ARM_MEAN,
                     scale=max(1.0, float(np.max(np.abs(v)))),
                     label="(14.1) average of the pulls")
        if isinstance(bandit, BernoulliBandit):
            assert set(np.unique(v).tolist()) <= {0.0, 1.0}, f"arm {k} paid {np.unique(v)}"
            ones = int(v.sum())
            check_probability_at_least(ones, n, float(mu), label=f"P(arm {k} pays 1)")
            check_probability_at_most(ones, n, float(mu), label=f"P(arm {k} pays 1)")
            continue
        sigma = bandit.sigma
        z = math.sqrt(n) * (q - mu) / sigma
        bound = float(scipy.stats.norm.isf(alpha / 2))
        evidence.worst("|standardised average| / normal quantile", abs(z) / bound)
        assert abs(z) <= bound, f"arm {k}: average {q} is {z:.3g} standard errors from {mu}"
        chi = float(np.sum((v - mu) ** 2)) / sigma**2
        lo, hi = scipy.stats.chi2.ppf([alpha / 2, 1 - alpha / 2], n)
        assert lo <= chi <= hi, (f"arm {k}: squared deviations / sigma^2 = {chi:.1f} outside "
                                 f"the chi^2_{n} range [{lo:.1f}, {hi:.1f}]")


@claim(
    id="bandit.arm_rewards_14_2",
    source="003 §14.2.1, §14.2.2 (14.1)",
    statement="Pulling arm k of a K-armed bandit pays a reward drawn from that arm's "
    "distribution, so the (14.1) average of its rewards estimates its expected reward "
    "μ_k: a Bernoulli arm pays 0 or 1 with frequency of 1 consistent with μ_k "
    "(Clopper-Pearson both ways), a Gaussian arm μ_k + σ z has a standardised average "
    "within the two-sided normal quantile and squared deviations within the χ²_n "
    "quantiles, each at confidence 1 − 1e-6.",
    method=Method.SIMULATION,
    tags=("reinforcement", "bandit"),
)
def arm_rewards_14_2(rng, scale):
    n = ARM_PULLS * scale
    for _ in range(2):
        check_arm_rewards(BernoulliBandit(rng.uniform(0.0, 1.0, size=3)), rng, n)
        check_arm_rewards(GaussianBandit(rng.normal(scale=3.0, size=3),
                                         sigma=float(rng.uniform(0.2, 2.0))), rng, n)
        evidence.add_examples(2)


def check_constant_alpha(values, alpha: float, initial: float) -> None:
    """running_means with constant α equals Σ_k α(1-α)^k v_{t-k} + (1-α)^t Q_0."""
    v = np.asarray(values, dtype=float)
    trace = running_means(v, alpha=alpha, initial=initial)
    t = v.size
    k = np.arange(t)                                   # steps back from the last value
    weights = alpha * (1.0 - alpha) ** k               # on v_t, v_{t-1}, ...
    want = float(np.dot(weights, v[::-1]) + (1.0 - alpha) ** t * initial)
    scale = max(1.0, float(np.max(np.abs(v))), abs(initial))
    assert_close(trace[-1], want, tol=RUNNING_MEAN, scale=scale,
                 label="constant-alpha update vs the explicit weights alpha(1-alpha)^k")
    # the weight on the newest reward is alpha: d Q_t / d v_t by a perturbation
    bump = running_means(np.concatenate([v[:-1], [v[-1] + 1.0]]), alpha=alpha,
                         initial=initial)[-1]
    assert_close(bump - trace[-1], alpha, tol=RUNNING_MEAN, scale=scale,
                 label="weight of the newest reward")


@claim(
    id="td.incremental_14_19",
    source="003 §14.4.2 (14.19)",
    statement="Q_{t+1} = Q_t + (τ_{t+1} - Q_t)/(t+1) reproduces the running mean of "
    "τ_1..τ_{t+1}; with a constant step α the estimate weights the reward k steps back "
    "by α(1-α)^k, so a larger α weights recent rewards more.",
    method=Method.PROPERTY,
    tags=("reinforcement", "td", "incremental-mean"),
)
@given(values=reward_lists(min_size=2), alpha=st.floats(0.01, 1.0),
       beta=st.floats(0.01, 1.0), initial=st.floats(-5, 5))
@example(values=[0.0, 1.0], alpha=0.5, beta=0.1, initial=0.0)
def incremental_14_19(values, alpha, beta, initial):
    trace = running_means(values)
    scale = max(1.0, max(abs(v) for v in values))
    assert_close(trace, np.array(exact_means(values)), tol=RUNNING_MEAN, scale=scale,
                 label="(14.19) with 1/(t+1) vs the rational running mean")
    check_constant_alpha(values, alpha, initial)
    check_constant_alpha(values, beta, initial)
    # larger α: more weight on the newest reward, less on every reward k >= 1 steps back
    # once (1-α)^k α is past its maximum (k >= 1/α - 1)
    lo, hi = sorted((alpha, beta))
    if hi > lo:
        assert hi > lo  # newest reward weights are α themselves (checked above)
        k = np.arange(1, len(values))
        far = k >= 1.0 / lo - 1.0
        w_lo, w_hi = lo * (1 - lo) ** k, hi * (1 - hi) ** k
        assert np.all(w_hi[far] <= w_lo[far] + 1e-15), "larger alpha kept more weight far back"


# ---------------------------------------------------------------------------------------
# ε-greedy exploration (Alg.2)
# ---------------------------------------------------------------------------------------


def check_constant_exploration(learner, bandit, epsilon: float, factor: float = 1.0) -> None:
    """Every arm is explored with per-step probability >= factor·ε/K (CP, 1 - 1e-6), so it
    is pulled at least that often; and Q(k) is within Hoeffding of μ_k."""
    K, T = bandit.n_arms, learner.n_steps_
    for k in range(K):
        hits = int(np.sum(learner.explored_ & (learner.arms_ == k)))
        check_probability_at_least(hits, T, factor * epsilon / K,
                                   label=f"P(step explores arm {k}) >= eps/K")
        assert learner.counts_[k] >= hits
    delta = (1 - DEFAULT_CONFIDENCE) / K
    for k in range(K):
        n = learner.counts_[k]
        half = math.sqrt(math.log(2 / delta) / (2 * n))
        err = abs(learner.Q_[k] - bandit.means[k])
        evidence.worst("|Q(k) - mu_k| / Hoeffding half-width", err / half)
        assert err <= half, f"arm {k}: |Q - mu| = {err:.4g} > {half:.4g} after {n} pulls"


def exploration_band(eps: np.ndarray) -> tuple[float, float]:
    """Bernstein bounds (each side at 1e-6) on Σ_t 1[explore_t] with P(explore_t)=eps_t."""
    m, v = float(eps.sum()), float(np.sum(eps * (1 - eps)))
    L = math.log(1.0 / (1 - DEFAULT_CONFIDENCE))
    s = L / 3 + math.sqrt(L * L / 9 + 2 * v * L)       # solves s^2 = 2L(v + s/3)
    return m - s, m + s


def check_decaying_exploration(learner, checkpoints) -> None:
    explored = np.cumsum(learner.explored_)
    prev = -1
    for T in checkpoints:
        n_exp = int(explored[T - 1])
        schedule = 1.0 / np.sqrt(np.arange(1, T + 1))
        low, high = exploration_band(schedule)
        evidence.series("exploratory pulls", [T], [n_exp], kind="scatter",
                        plot="eps_t = 1/sqrt(t): exploratory pulls against T",
                        xlabel="T", ylabel="pulls", logx=True, logy=True)
        assert low <= n_exp <= high, (
            f"T={T}: {n_exp} exploratory pulls outside the Bernstein band [{low:.1f}, "
            f"{high:.1f}] of eps_t = 1/sqrt(t)")
        assert n_exp > prev, f"exploration stopped growing at T={T}"
        assert n_exp / T <= 3.0 / math.sqrt(T), f"T={T}: explored fraction {n_exp / T:.4g}"
        prev = n_exp
    evidence.record("explored fractions", [int(explored[T - 1]) / T for T in checkpoints])


@claim(
    id="bandit.eps_greedy_exploration",
    source="003 §14.2.2 Alg.2",
    statement="With a constant ε every arm is explored on a fraction ε/K of the steps (so "
    "it is pulled at least about εT/K times and its average reward approaches its mean); "
    "with ε_t = 1/√t exploration never stops (the count of exploratory pulls grows "
    "without bound, like 2√T) while its fraction of the pulls tends to 0.",
    method=Method.SIMULATION,
    tags=("reinforcement", "bandit", "exploration", "bound"),
)
def eps_greedy_exploration(rng, scale):
    for eps, means in [(0.1, [0.2, 0.5, 0.8]), (0.3, [0.9, 0.1, 0.5, 0.45])]:
        bandit = BernoulliBandit(means)
        seed = int(rng.integers(2**31))
        learner = EpsilonGreedyBandit(epsilon=eps, n_steps=20_000 * scale,
                                      random_state=seed).fit(bandit)
        check_constant_exploration(learner, bandit, eps)
        if eps == 0.1:
            _plot_regret(learner, "constant eps = 0.1")
    T = 100_000 * scale
    learner = EpsilonGreedyBandit(epsilon="inverse_sqrt", n_steps=T,
                                  random_state=int(rng.integers(2**31))
                                  ).fit(BernoulliBandit([0.2, 0.5, 0.8]))
    check_decaying_exploration(learner, [10**3, 10**4, T])
    _plot_regret(learner, "eps_t = 1/sqrt(t)")


def _plot_regret(learner, label: str) -> None:
    steps = np.arange(1, learner.n_steps_ + 1)
    evidence.series(label, steps, learner.regret_, kind="line",
                    plot="epsilon-greedy: cumulative pseudo-regret against t (arms 0.2/0.5/0.8)",
                    xlabel="t", ylabel="regret", logx=True, logy=True)


# ---------------------------------------------------------------------------------------
# Softmax (14.2)
# ---------------------------------------------------------------------------------------


def softmax_reference(Q, tau) -> np.ndarray:
    """(14.2) in 60-digit arithmetic (mpmath), rounded to float."""
    with mpmath.workdps(60):
        e = [mpmath.exp(mpmath.mpf(float(q)) / mpmath.mpf(float(tau))) for q in Q]
        total = mpmath.fsum(e)
        return np.array([float(x / total) for x in e])


def check_softmax(Q, tau) -> None:
    p = softmax_probabilities(Q, tau)
    assert np.all(np.isfinite(p)), f"non-finite probabilities {p}"
    assert abs(math.fsum(p) - 1.0) <= 1e-12, f"probabilities sum to {math.fsum(p)!r}"
    ref = softmax_reference(Q, tau)
    assert_close(p, ref, tol=SOFTMAX_FLOAT, label="(14.2) vs a 60-digit reference")
    evidence.worst("largest |Q/tau| checked", float(np.max(np.abs(Q)) / tau))
    # monotone in Q: a larger Q never gets a smaller probability
    order = np.argsort(Q, kind="stable")
    assert np.all(np.diff(p[order]) >= -1e-300), "probabilities not monotone in Q"


def check_temperature_limits(Q) -> None:
    """Smaller τ → more on the best arms; τ→0 → argmax (uniform on ties); τ→∞ → uniform."""
    Q = np.asarray(Q, dtype=float)
    top = Q == Q.max()
    taus = np.logspace(3, -3, 13)
    mass = [float(softmax_probabilities(Q, t)[top].sum()) for t in taus]
    assert np.all(np.diff(mass) >= -1e-12), f"mass on argmax not increasing as tau falls: {mass}"
    gaps = Q.max() - Q[~top]
    tiny = (float(gaps.min()) if gaps.size else 1.0) / 800.0   # e^-800 underflows
    assert_close(softmax_probabilities(Q, tiny), top / top.sum(), tol=SOFTMAX_FLOAT,
                 label="tau -> 0: uniform on the argmax")
    spread = float(np.ptp(Q)) or 1.0
    huge = spread * 1e15
    assert_close(softmax_probabilities(Q, huge), np.full(Q.size, 1.0 / Q.size),
                 tol=Tolerance(rtol=1e-12, atol=1e-14, reason="exp(ptp(Q)/tau) = 1 + 1e-15"),
                 label="tau -> infinity: uniform")


@claim(
    id="bandit.softmax_14_2",
    source=SOURCE_14_2,
    statement="The probabilities P(k) = e^{Q(k)/τ}/Σ_i e^{Q(i)/τ} sum to 1 and grow with "
    "Q(k); a smaller τ puts more probability on the arms of highest Q, τ → 0 gives pure "
    "exploitation (the argmax) and τ → ∞ pure exploration (uniform); computed stably "
    "for |Q/τ| far beyond the range of exp.",
    method=Method.PROPERTY,
    tags=("reinforcement", "bandit", "softmax"),
)
@given(Q=value_vectors(), tau=temperatures())
@example(Q=np.array([1000.0, 0.0, -1000.0]), tau=1.0)
@example(Q=np.array([1e6, 1e6 - 1.0]), tau=1e-3)
@example(Q=np.array([0.0]), tau=1e-3)
def softmax_14_2(Q, tau):
    check_softmax(Q, tau)
    check_temperature_limits(Q)


# ---------------------------------------------------------------------------------------
# Algs.3-4: the selection frequencies of the learners
# ---------------------------------------------------------------------------------------

#: A bandit with deterministic rewards: after every arm's first pull Q = means exactly, so
#: the later choices are i.i.d. from the selection rule applied to these Q.
SELECTION_MEANS = (0.0, 0.5, 1.0)
SELECTION_TAU = 0.5


def check_selection_follows_14_2(arms: np.ndarray, tau: float, means) -> None:
    """From the step after every arm was first pulled, arm frequencies agree with (14.2)
    at Q = means (two-sided Clopper-Pearson, each side at 1 - 1e-6)."""
    K = len(means)
    firsts = [int(np.argmax(arms == k)) if np.any(arms == k) else None for k in range(K)]
    assert all(f is not None for f in firsts), "an arm was never pulled"
    later = arms[max(firsts) + 1:]
    want = softmax_reference(means, tau)
    for k in range(K):
        hits = int(np.sum(later == k))
        lo = decide_at_least(hits, later.size, want[k])
        hi = decide_at_most(hits, later.size, want[k])
        evidence.note(f"arm {k}: {hits}/{later.size} = {hits / later.size:.4f}, (14.2) gives "
                      f"{want[k]:.4f}")
        assert not (lo.refuted or hi.refuted), (
            f"arm {k} chosen with frequency {hits}/{later.size} = {hits / later.size:.4f}; "
            f"(14.2) at tau={tau} gives {want[k]:.4f} ({(lo if lo.refuted else hi).describe()})")


def alg3_as_printed(n_steps: int, epsilon: float, random_state) -> np.ndarray:
    """Alg.3 run literally: its body is Alg.2's (``rand() < ε``: a random arm, else the
    argmax), which is what :class:`EpsilonGreedyBandit` runs line by line."""
    bandit = GaussianBandit(list(SELECTION_MEANS), sigma=0.0)
    return EpsilonGreedyBandit(epsilon=epsilon, n_steps=n_steps,
                               random_state=random_state).fit(bandit).arms_


@claim(
    id="bandit.softmax_alg3_as_printed",
    source="003 §14.2.3 Alg.3",
    statement="Alg.3 (softmax) chooses arms with the probabilities (14.2) at its "
    "temperature τ.",
    method=Method.SIMULATION,
    tags=("reinforcement", "bandit", "softmax"),
    expect=Expect.REFUTED,
    kind=ErratumKind.CODE,
    corrected_by="bandit.softmax_alg4_selection",
    explanation="Alg.3's body is the ε-greedy loop of Alg.2 (explore when rand() < ε, "
    "else argmax); τ appears nowhere in it. Its choices give every non-greedy arm the "
    "same probability ε/K, while (14.2) separates arms by Q: for Q = (0, 0.5, 1), "
    "τ = 0.5, (14.2) gives (0.090, 0.245, 0.665) and Alg.3 with any ε gives "
    "(ε/3, ε/3, 1 - 2ε/3). Alg.4 prints the softmax draw.",
)
def softmax_alg3_as_printed(rng, scale):
    for eps in (0.1, 0.5):
        arms = alg3_as_printed(4000 * scale, eps, int(rng.integers(2**31)))
        check_selection_follows_14_2(arms, SELECTION_TAU, SELECTION_MEANS)


@claim(
    id="bandit.softmax_alg4_selection",
    source="003 §14.2.3 (14.2), Alg.4",
    statement="Alg.4 draws arm k with the probability (14.2) computed from the current "
    "averages Q: with deterministic rewards (Q fixed after the first pulls) the arm "
    "frequencies match (14.2), and the recorded per-step probabilities are (14.2) of the "
    "Q the learner held at that step.",
    method=Method.SIMULATION,
    tags=("reinforcement", "bandit", "softmax"),
)
def softmax_alg4_selection(rng, scale):
    bandit = GaussianBandit(list(SELECTION_MEANS), sigma=0.0)
    for tau in (SELECTION_TAU, 2.0):
        learner = SoftmaxBandit(tau=tau, n_steps=4000 * scale, random_state=int(
            rng.integers(2**31)), record_history=True).fit(bandit)
        check_selection_follows_14_2(learner.arms_, tau, SELECTION_MEANS)
    # the recorded probabilities are (14.2) of the Q held before each step (replayed
    # from the recorded arms and rewards with the rational running mean)
    learner = SoftmaxBandit(tau=0.3, n_steps=200, random_state=int(rng.integers(2**31)),
                            record_history=True).fit(GaussianBandit([0.0, 0.2, 0.1], 0.5))
    Q = np.zeros(3)
    sums, counts = [Fraction(0)] * 3, [0] * 3
    for t in range(learner.n_steps_):
        assert_close(learner.probabilities_[t], softmax_reference(Q, 0.3), tol=SOFTMAX_FLOAT,
                     label="recorded probabilities vs (14.2) of the replayed Q")
        k = int(learner.arms_[t])
        sums[k] += Fraction(float(learner.rewards_[t]))
        counts[k] += 1
        Q[k] = float(sums[k] / counts[k])
