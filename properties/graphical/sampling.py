"""Sampling claims of 003 §12.5.1: Monte-Carlo estimation (12.14)-(12.18), detailed
balance (12.19), Metropolis-Hastings (Fig 14.9) and Gibbs sampling.

Exact transition matrices on small state spaces come first; simulations use independent
chains whose endpoint law is computed exactly, so the decision rule (Clopper-Pearson per
state, Bonferroni, plus the computed total-variation slack) is valid without any
mixing-time assumption.
"""

from __future__ import annotations

import itertools

import numpy as np
from hypothesis import given
from hypothesis import strategies as st
from scipy import stats

from algorithms.graphical import (
    gibbs_kernel,
    gibbs_sample_discrete,
    metropolis_hastings,
    metropolis_hastings_kernel,
    monte_carlo_expectation,
)
from mltheory import ErratumKind, Expect, Method, claim, evidence
from mltheory.stats import clopper_pearson, hoeffding_interval
from properties.graphical.strategies_approx import SEEDS, factor_models, finite_targets
from properties.graphical.support_approx import (
    EXACT,
    check_detailed_balance,
    check_endpoint_frequencies,
    check_stationary,
    joint_vector,
    mcmc_average_mean,
    reference_gibbs_site_kernel,
    reference_mh_kernel,
    reversible_chain,
)

CONFIDENCE = 1 - 1e-6


# ---------------------------------------------------------------------------
# Monte Carlo (12.14)-(12.18)
# ---------------------------------------------------------------------------


def check_mc_unbiased_by_enumeration(values, probs, f, N, estimator=None):
    """``E[f_hat]`` over all ``N``-tuples of i.i.d. draws equals ``E_p[f]`` exactly."""
    estimator = estimator or (lambda tup: monte_carlo_expectation(
        f, lambda rng, n: np.asarray(tup), N).estimate)
    mean = 0.0
    for idx in itertools.product(range(len(values)), repeat=N):
        weight = float(np.prod(probs[list(idx)]))
        mean += weight * estimator(values[list(idx)])
    truth = float(probs @ f(values))
    err = abs(mean - truth)
    evidence.worst("|E[f_hat] - E_p[f]| (enumerated)", err)
    assert err <= EXACT * (1 + abs(truth)), f"E[f_hat] = {mean} but E_p[f] = {truth}"


@claim(
    id="montecarlo.estimator_12_14_12_18",
    source="003 §12.5.1 (12.14)-(12.18)",
    statement="The sample mean f_hat = (1/N) sum f(x_i) of i.i.d. draws x_i ~ p is unbiased "
    "for E_p[f] (12.14)-(12.15) and converges to it as N grows (law of large numbers); the "
    "probability of a region is the expectation of its indicator, P(A) = E_p[I_A] "
    "(12.16)-(12.18).",
    method=Method.SIMULATION,
    tags=("graphical", "sampling", "montecarlo"),
)
def mc_estimator(rng, scale):
    # unbiasedness, exactly: every N-tuple of a 4-point distribution weighted by its
    # probability
    for _ in range(3):
        values = rng.normal(size=4)
        probs = rng.dirichlet(np.ones(4))
        check_mc_unbiased_by_enumeration(values, probs, np.sin, N=3)
    # LLN with an explicit rule: f(x) = x^2 in [0, 1] under Beta(a, b); Hoeffding
    # interval at confidence 1 - 1e-6 around the estimate must contain E[x^2]
    for N in (100, 2000 * scale):
        a, b = rng.uniform(0.5, 4.0, size=2)
        dist = stats.beta(a, b)
        est = monte_carlo_expectation(lambda x: x**2, lambda r, n, d=dist: d.rvs(
            size=n, random_state=r), N, random_state=rng)
        truth = stats.beta(a, b).moment(2)
        lo, hi = hoeffding_interval(est.estimate, N, 0.0, 1.0, CONFIDENCE)
        evidence.worst(f"N={N}: |f_hat - E f| / Hoeffding half-width",
                       abs(est.estimate - truth) / ((hi - lo) / 2))
        assert lo <= truth <= hi, f"N={N}: E[x^2] = {truth} outside [{lo}, {hi}]"
        # the reported standard error is s / sqrt(N) of the values it averaged
        assert np.isclose(est.std_error, est.values.std(ddof=1) / np.sqrt(N), rtol=1e-12)
    # P(A) = E[I_A] for A = [l, u] under N(mu, s^2), Clopper-Pearson against the cdf
    mu, s = rng.normal(), rng.uniform(0.5, 2.0)
    lo_a, hi_a = np.sort(rng.normal(mu, s, size=2))
    N = 4000 * scale
    est = monte_carlo_expectation(lambda x: ((x >= lo_a) & (x <= hi_a)).astype(float),
                                  lambda r, n: r.normal(mu, s, size=n), N, random_state=rng)
    truth = stats.norm(mu, s).cdf(hi_a) - stats.norm(mu, s).cdf(lo_a)
    lo, hi = clopper_pearson(round(est.estimate * N), N, CONFIDENCE)
    evidence.record("P(A): estimate vs truth", (est.estimate, float(truth)))
    assert lo <= truth <= hi, f"P(A) = {truth} outside the CP interval [{lo}, {hi}]"


# ---------------------------------------------------------------------------
# Detailed balance (12.19) and the MCMC average
# ---------------------------------------------------------------------------


@claim(
    id="mcmc.detailed_balance_12_19",
    source="003 §12.5.1 (12.19)",
    statement="If p(x) T(x'|x) = p(x') T(x|x') for every pair of states (detailed balance, "
    "(12.19), read with x^t for the printed x^T), then p is a stationary distribution of "
    "T: sum_x p(x) T(x'|x) = p(x').",
    method=Method.ENUMERATION,
    tags=("graphical", "sampling", "mcmc"),
)
@given(seed=SEEDS, n=st.integers(2, 8))
def detailed_balance(seed, n):
    pi, T = reversible_chain(np.random.default_rng(seed), n)
    assert np.all(T >= -EXACT) and np.allclose(T.sum(axis=1), 1.0)
    check_detailed_balance(pi, T, "reversible chain")
    check_stationary(pi, T, "reversible chain")


@claim(
    id="mcmc.detailed_balance_12_19_as_written",
    source="003 §12.5.1 (12.19)",
    statement="(As printed) p(x^t) T(x^{t-1} | x^t) = p(x^{t-1}) T(x^T | x^{t-1}), with x^T "
    "the state at the final time T, holds for a chain whose stationary distribution is p.",
    method=Method.ENUMERATION,
    tags=("graphical", "sampling", "mcmc", "erratum"),
    expect=Expect.REFUTED,
    kind=ErratumKind.SYMBOL,
    corrected_by="mcmc.detailed_balance_12_19",
    explanation="The right-hand side must be the reverse move T(x^t | x^{t-1}) (lower-case "
    "t): read literally with a third state x^T the equation fails even for reversible "
    "chains, since T(x^T | x^{t-1}) varies with x^T while the left side does not.",
)
@given(seed=SEEDS, n=st.integers(3, 6))
def detailed_balance_as_written(seed, n):
    pi, T = reversible_chain(np.random.default_rng(seed), n)
    worst = 0.0
    for a, b, c in itertools.product(range(n), repeat=3):  # x^{t-1}=a, x^t=b, x^T=c
        worst = max(worst, abs(pi[b] * T[b, a] - pi[a] * T[a, c]))
    evidence.worst("max |p(x^t)T(x^{t-1}|x^t) - p(x^{t-1})T(x^T|x^{t-1})|", worst)
    assert worst <= EXACT, f"the printed (12.19) fails by {worst:.3g} on a reversible chain"


@claim(
    id="mcmc.unbiased_12_18_as_written",
    source="003 §12.5.1 (12.18)",
    statement="(As printed) MCMC constructs i.i.d. samples from p, so the average (12.18) "
    "of a chain's states x^1..x^N is an unbiased estimate of E_p[f].",
    method=Method.ENUMERATION,
    tags=("graphical", "sampling", "mcmc", "erratum"),
    expect=Expect.REFUTED,
    kind=ErratumKind.OVERCLAIM,
    corrected_by="mcmc.ergodic_average_12_18",
    explanation="A Markov chain's states are neither independent nor (from a fixed start) "
    "distributed as p; the exact expectation of the N-step average from x^0 is "
    "(1/N) sum_t (delta_{x^0} T^t) f, which differs from E_p[f] for every finite N unless "
    "the chain starts in p. The average is unbiased from a stationary start, and from any "
    "start its bias is at most (max f - min f) (1/N) sum_t ||delta T^t - p||_TV -> 0.",
)
@given(target=finite_targets(max_states=4), start=st.integers(0, 3), N=st.integers(1, 50))
def mcmc_unbiased_as_written(target, start, N):
    p, Q = target
    pi = p / p.sum()
    T = metropolis_hastings_kernel(p, Q)
    f = np.arange(len(p), dtype=float)
    x0 = np.eye(len(p))[start % len(p)]
    bias = mcmc_average_mean(x0, T, f, N) - float(pi @ f)
    evidence.worst("|E[average] - E_p f|", abs(bias))
    assert abs(bias) <= 1e-9, f"E[(1/N) sum f(x^t)] - E_p[f] = {bias:.3g} (N = {N})"


@claim(
    id="mcmc.ergodic_average_12_18",
    source="003 §12.5.1 (12.18)",
    statement="For a Metropolis-Hastings chain (exact kernel T) the N-step average of f is "
    "unbiased when x^0 ~ p, and from any start its bias is at most "
    "(max f - min f)(1/N) sum_{t=1}^N ||delta_{x^0} T^t - p||_TV, which tends to 0.",
    method=Method.ENUMERATION,
    tags=("graphical", "sampling", "mcmc", "bound"),
)
@given(target=finite_targets(max_states=5), start=st.integers(0, 4), N=st.integers(1, 60))
def mcmc_ergodic_average(target, start, N):
    p, Q = target
    f = np.random.default_rng(N).normal(size=len(p))
    check_ergodic_average(p, metropolis_hastings_kernel(p, Q), f, start % len(p), N)


def check_ergodic_average(p, T, f, start, N):
    """Unbiased from x^0 ~ p; bias from x^0 = start at most range(f) * mean TV."""
    pi = p / p.sum()
    truth = float(pi @ f)
    stationary = mcmc_average_mean(pi, T, f, N)
    evidence.worst("|E[average | x^0 ~ p] - E_p f|", abs(stationary - truth))
    assert abs(stationary - truth) <= 1e-12 * (1 + np.abs(f).max()) * N, (
        f"from a stationary start the average's mean is {stationary}, not {truth}")
    x0 = np.eye(len(p))[start]
    dist, tv_sum = x0.copy(), 0.0
    for _ in range(N):
        dist = dist @ T
        tv_sum += 0.5 * float(np.abs(dist - pi).sum())
    bound = (f.max() - f.min()) * tv_sum / N
    bias = abs(mcmc_average_mean(x0, T, f, N) - truth)
    evidence.headroom("bias <= range * mean TV", (bound + 1e-12) / max(bias, 1e-300))
    assert bias <= bound + 1e-12, f"bias {bias:.3g} above the bound {bound:.3g}"


# ---------------------------------------------------------------------------
# Metropolis-Hastings (Fig 14.9)
# ---------------------------------------------------------------------------


def check_mh_kernel(p, Q, kernel=metropolis_hastings_kernel):
    T = kernel(p, Q)
    ref = reference_mh_kernel(p, Q)
    err = float(np.abs(T - ref).max())
    evidence.worst("|T - T_reference|", err)
    assert err <= EXACT, f"kernel differs from its definition by {err:.3g}"
    pi = p / p.sum()
    check_detailed_balance(pi, T, "MH kernel")
    check_stationary(pi, T, "MH kernel")


@claim(
    id="mh.stationary",
    source="003 §12.5.1 Fig 14.9",
    statement="With transition Q(x*|x) A(x*|x), A = min(1, p(x*) Q(x|x*) / (p(x) Q(x*|x))), "
    "and rejections staying put, the Metropolis-Hastings chain satisfies detailed balance "
    "(12.19) with respect to p, so p is stationary; this holds for asymmetric proposals "
    "with zero entries.",
    method=Method.ENUMERATION,
    tags=("graphical", "sampling", "mh"),
)
@given(target=finite_targets())
def mh_stationary(target):
    check_mh_kernel(*target)


def run_mh_endpoints(p, Q, n_chains, steps, seed, sampler=metropolis_hastings):
    """Final states of independent MH chains on states 0..n-1, all started at 0."""
    n = len(p)
    logp, logQ = np.log(p), np.log(np.where(Q > 0, Q, 1.0)) + np.where(Q > 0, 0.0, -np.inf)
    cum = np.cumsum(Q, axis=1)

    def proposal(rng, x):
        rows = x[:, 0].astype(int)
        u = rng.random(len(rows))
        return np.minimum((cum[rows] <= u[:, None]).sum(axis=1), n - 1)[:, None].astype(float)

    def qlog(new, old):
        return logQ[old[:, 0].astype(int), new[:, 0].astype(int)]

    res = sampler(lambda x: logp[x[:, 0].astype(int)], proposal, np.zeros((n_chains, 1)),
                  proposal_log_density=qlog, n_samples=1, burn_in=steps - 1,
                  random_state=seed)
    return np.bincount(res.samples[0, :, 0].astype(int), minlength=n), res


@claim(
    id="mh.simulation",
    source="003 §12.5.1 Fig 14.9",
    statement="Metropolis-Hastings as printed in Fig 14.9 (candidate from Q, u ~ U(0,1), "
    "accept when u <= A, else repeat the state) produces states whose distribution "
    "approaches p: the final states of independent chains match p within the exact "
    "total-variation distance of the n-step law (Clopper-Pearson per state, Bonferroni, "
    "confidence 1 - 1e-6).",
    method=Method.SIMULATION,
    tags=("graphical", "sampling", "mh"),
)
def mh_simulation(rng, scale):
    for case in range(2):
        n = 4 + case
        p = np.exp(1.5 * rng.normal(size=n))
        Q = rng.random((n, n)) + np.eye(n)[np.roll(np.arange(n), 1)]
        Q /= Q.sum(axis=1, keepdims=True)
        steps = 40
        counts, res = run_mh_endpoints(p, Q, 3000 * scale, steps, int(rng.integers(2**32)))
        T = reference_mh_kernel(p, Q)
        check_endpoint_frequencies(counts, np.eye(n)[0], T, steps, p / p.sum(),
                                   confidence=CONFIDENCE, label=f"MH, {n} states")
        evidence.record(f"MH, {n} states: acceptance rate", res.acceptance_rate)


# ---------------------------------------------------------------------------
# Gibbs sampling
# ---------------------------------------------------------------------------


def check_gibbs_kernels(factors, cards, kernel=gibbs_kernel):
    pvec, _ = joint_vector(factors, cards)
    for i in range(len(cards)):
        K = kernel(factors, i)
        ref = reference_gibbs_site_kernel(pvec, cards, i)
        err = float(np.abs(K - ref).max())
        evidence.worst("|K_i - K_i reference|", err)
        assert err <= 1e-10, f"site kernel {i} differs from p(x_i | x_-i) by {err:.3g}"
        check_detailed_balance(pvec, K, f"site {i}")
        check_stationary(pvec, K, f"site {i}")
    for scan in ("systematic", "random"):
        check_stationary(pvec, kernel(factors, scan=scan), f"{scan} sweep")


@claim(
    id="gibbs.stationary",
    source="003 §12.5.1",
    statement="Each Gibbs update (choose x_i, resample it from p(x_i | x_-i)) leaves p "
    "invariant (it is in detailed balance with p), and so do a systematic sweep and a "
    "random-scan step; checked on exact transition matrices of positive discrete joints "
    "given as tables or factor lists.",
    method=Method.ENUMERATION,
    tags=("graphical", "sampling", "gibbs"),
)
@given(model=factor_models(max_states=24))
def gibbs_stationary(model):
    check_gibbs_kernels(*model)


def gibbs_endpoint_counts(factors, cards, n_chains, sweeps, seed, scan="systematic",
                          sampler=gibbs_sample_discrete):
    res = sampler(factors, n_samples=1, burn_in=sweeps - 1, n_chains=n_chains, scan=scan,
                  x0=np.zeros(len(cards), dtype=int), random_state=seed)
    flat = np.ravel_multi_index(res.samples[0].T, cards)
    return np.bincount(flat, minlength=int(np.prod(cards)))


@claim(
    id="gibbs.simulation",
    source="003 §12.5.1",
    statement="Gibbs sampling's states converge in distribution to p: final states of "
    "independent chains (systematic and random scan) match p within the exact "
    "total-variation distance of their sweep law (Clopper-Pearson per state, Bonferroni, "
    "confidence 1 - 1e-6).",
    method=Method.SIMULATION,
    tags=("graphical", "sampling", "gibbs"),
)
def gibbs_simulation(rng, scale):
    cards = (2, 3, 2)
    factors = [((0, 1), np.exp(rng.normal(size=(2, 3)))),
               ((1, 2), np.exp(rng.normal(size=(3, 2)))), ((0,), np.exp(rng.normal(size=2)))]
    pvec, _ = joint_vector(factors, cards)
    sweeps = 15
    for scan in ("systematic", "random"):
        counts = gibbs_endpoint_counts(factors, cards, 4000 * scale, sweeps,
                                       int(rng.integers(2**32)), scan)
        # the exact law of the endpoints, from kernels built on the enumerated joint
        sites = [reference_gibbs_site_kernel(pvec, cards, i) for i in range(len(cards))]
        if scan == "systematic":
            K, steps = sites[0] @ sites[1] @ sites[2], sweeps
        else:  # a random-scan sweep is len(cards) steps of (1/M) sum_i K_i
            K, steps = sum(sites) / len(cards), sweeps * len(cards)
        check_endpoint_frequencies(counts, np.eye(len(pvec))[0], K, steps, pvec,
                                   confidence=CONFIDENCE, label=f"Gibbs, {scan} scan")
