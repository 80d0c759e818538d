"""Sampling-based approximate inference (003 §12.5.1): Monte-Carlo expectations
(12.14)-(12.18), the Metropolis-Hastings algorithm (Fig 14.9) and Gibbs sampling on
discrete joints.

- :func:`monte_carlo_expectation` averages ``f`` over i.i.d. draws (12.15) and reports
  the standard error ``s / sqrt(N)``; a region's probability (12.16) is the expectation
  of its indicator.
- :func:`metropolis_hastings` runs one or several chains in log space: a candidate
  ``x*`` drawn from ``Q(x* | x^{t-1})`` is accepted when ``u <= A`` with
  ``A = min(1, p(x*) Q(x^{t-1} | x*) / (p(x^{t-1}) Q(x* | x^{t-1})))`` and ``u`` uniform
  on (0, 1] (so a candidate of zero target density is never accepted); burn-in,
  thinning and the acceptance rate are recorded. A start of zero target density, or a
  proposal whose own density is zero at a point it drew, is refused.
- :func:`metropolis_hastings_kernel` is the exact transition matrix
  ``T(j | i) = Q(j | i) A(j | i)`` (rejections on the diagonal) on a finite space.
- :func:`gibbs_sample_discrete` samples a positive discrete joint given as a table or a
  factor list (systematic or random scan, evidence clamped, several chains at once);
  :func:`gibbs_kernel` is the exact single-site or whole-sweep transition matrix. (For
  Bayesian networks with CPTs, :func:`algorithms.bayes.gibbs_sampling` does the same on
  the network's Markov blankets.)
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Callable, Mapping
from dataclasses import dataclass

import numpy as np

from algorithms._validation import (
    InvalidArgumentError,
    check_array_argument,
    check_choice,
    check_int,
    make_rng,
)
from algorithms.graphical._discrete import (
    all_states,
    as_model,
    sample_categorical,
)

__all__ = [
    "DiscreteGibbsResult",
    "MetropolisHastingsResult",
    "MonteCarloEstimate",
    "gibbs_kernel",
    "gibbs_sample_discrete",
    "metropolis_hastings",
    "metropolis_hastings_kernel",
    "monte_carlo_expectation",
]

#: Largest number of Markov-chain steps one call may make (a guard against hanging).
MAX_STEPS = 10_000_000


def _check_callable(value: object, name: str) -> Callable:
    if not callable(value):
        raise InvalidArgumentError(f"{name} must be callable, got {value!r}.")
    return value


# ---------------------------------------------------------------------------
# Monte Carlo (12.14)-(12.18)
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class MonteCarloEstimate:
    """The Monte-Carlo average (12.15) of ``f`` over ``n_samples`` i.i.d. draws.

    Attributes
    ----------
    estimate : float
        ``(1/N) sum_i f(x_i)``.
    std_error : float
        ``s / sqrt(N)`` with ``s`` the sample standard deviation (``ddof=1``).
    n_samples : int
    values : ndarray of shape (N,)
        The ``f(x_i)``.
    """

    estimate: float
    std_error: float
    n_samples: int
    values: np.ndarray


def monte_carlo_expectation(
    f: Callable[[np.ndarray], np.ndarray],
    sampler: Callable[[np.random.Generator, int], np.ndarray],
    n_samples: int = 1000,
    *,
    random_state: object = None,
) -> MonteCarloEstimate:
    """Estimate ``E_p[f]`` (12.14) by the sample mean (12.15) of i.i.d. draws.

    Parameters
    ----------
    f : callable
        ``f(samples) -> (N,)`` real values, vectorised over the first axis.
    sampler : callable
        ``sampler(rng, N) -> samples`` with ``N`` draws from ``p`` along the first axis.
    n_samples : int, default=1000
        ``N >= 2`` (two draws at least, for the standard error).
    random_state : None, int or Generator

    Returns
    -------
    MonteCarloEstimate
        For a region ``A`` pass ``f = indicator of A``: the estimate is ``P(A)`` (12.16).
    """
    f = _check_callable(f, "f")
    sampler = _check_callable(sampler, "sampler")
    n = check_int(n_samples, "n_samples", low=2, high=MAX_STEPS)
    rng = make_rng(random_state)
    samples = np.asarray(sampler(rng, n))
    if samples.ndim == 0 or samples.shape[0] != n:
        raise ValueError(f"sampler must return {n} draws along the first axis, got shape "
                         f"{samples.shape}.")
    values = np.asarray(f(samples), dtype=np.float64)
    if values.shape != (n,):
        raise ValueError(f"f must return one value per draw, shape ({n},), got {values.shape}.")
    if not np.all(np.isfinite(values)):
        raise ValueError("f must return finite values (got NaN or infinity).")
    estimate = float(values.mean())
    std_error = float(values.std(ddof=1) / math.sqrt(n))
    return MonteCarloEstimate(estimate, std_error, n, values)


# ---------------------------------------------------------------------------
# Metropolis-Hastings (Fig 14.9)
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class MetropolisHastingsResult:
    """What :func:`metropolis_hastings` produced.

    Attributes
    ----------
    samples : ndarray of shape (n_samples, *x0.shape)
        The kept states ``x^t`` (after burn-in, every ``thin``-th).
    acceptance_rate : float
        Accepted candidates over proposed ones, all steps (burn-in included).
    n_accepted, n_proposed : int
        Counted over all chains and steps.
    acceptance_rate_per_chain : ndarray of shape (n_chains,)
    """

    samples: np.ndarray
    acceptance_rate: float
    n_accepted: int
    n_proposed: int
    acceptance_rate_per_chain: np.ndarray


def _log_values(fn: Callable, args: tuple, m: int, name: str) -> np.ndarray:
    out = np.asarray(fn(*args), dtype=np.float64)
    if out.shape != (m,):
        raise ValueError(f"{name} must return one value per row, shape ({m},), got {out.shape}.")
    if np.any(np.isnan(out)) or np.any(out == np.inf):
        raise ValueError(f"{name} returned NaN or +inf; log densities must be finite or -inf.")
    return out


def metropolis_hastings(
    log_target: Callable[[np.ndarray], np.ndarray],
    proposal: Callable[[np.random.Generator, np.ndarray], np.ndarray],
    x0: object,
    *,
    proposal_log_density: Callable[[np.ndarray, np.ndarray], np.ndarray] | None = None,
    n_samples: int = 1000,
    burn_in: int = 0,
    thin: int = 1,
    random_state: object = None,
) -> MetropolisHastingsResult:
    """The Metropolis-Hastings algorithm (003 §12.5.1, Fig 14.9) in log space.

    Parameters
    ----------
    log_target : callable
        ``log_target(x) -> (m,)``: ``ln p(x)`` up to a constant for each row of ``x``
        (shape ``(m, d)``); ``-inf`` marks zero density.
    proposal : callable
        ``proposal(rng, x) -> (m, d)``: one candidate ``x* ~ Q(. | x)`` per row.
    x0 : array of shape (d,) or (n_chains, d)
        The start of one chain, or one start per chain; each must have positive target
        density.
    proposal_log_density : callable, optional
        ``proposal_log_density(x_new, x_old) -> (m,)``: ``ln Q(x_new | x_old)``. Omit it for
        a symmetric proposal (the Metropolis case, where the ``Q`` ratio is 1).
    n_samples : int, default=1000
        States kept per chain.
    burn_in : int, default=0
        Steps discarded first.
    thin : int, default=1
        Keep every ``thin``-th state after burn-in.
    random_state : None, int or Generator

    Returns
    -------
    MetropolisHastingsResult
    """
    log_target = _check_callable(log_target, "log_target")
    proposal = _check_callable(proposal, "proposal")
    if proposal_log_density is not None:
        _check_callable(proposal_log_density, "proposal_log_density")
    n = check_int(n_samples, "n_samples", low=1)
    burn = check_int(burn_in, "burn_in", low=0)
    thin = check_int(thin, "thin", low=1)
    if burn + n * thin > MAX_STEPS:
        raise ValueError(f"n_samples * thin + burn_in must be at most {MAX_STEPS} steps.")
    start = check_array_argument(x0, "x0", real=True)
    if start.ndim not in (1, 2):
        raise ValueError(f"x0 must be a 1-d state or a 2-d array of chain starts, got shape "
                         f"{start.shape}.")
    x = np.atleast_2d(start).copy()
    m = x.shape[0]
    rng = make_rng(random_state)
    lp = _log_values(log_target, (x,), m, "log_target")
    if np.any(np.isneginf(lp)):
        raise ValueError("x0 has zero target density (log_target(x0) = -inf); start the "
                         "chain where p > 0.")
    kept = np.empty((n, m, x.shape[1]))
    accepted = np.zeros(m, dtype=np.int64)
    total = burn + n * thin
    for step in range(1, total + 1):
        cand = np.asarray(proposal(rng, x), dtype=np.float64)
        if cand.shape != x.shape:
            raise ValueError(f"proposal must return an array of shape {x.shape}, got "
                             f"{cand.shape}.")
        lp_cand = _log_values(log_target, (cand,), m, "log_target")
        log_ratio = lp_cand - lp
        if proposal_log_density is not None:
            forward = _log_values(proposal_log_density, (cand, x), m, "proposal_log_density")
            if np.any(np.isneginf(forward)):
                raise ValueError("proposal_log_density is zero (-inf) at a candidate that "
                                 "proposal drew: Q and its sampler disagree.")
            backward = _log_values(proposal_log_density, (x, cand), m, "proposal_log_density")
            log_ratio = log_ratio + backward - forward
        # u in (0, 1]: log u <= log A never accepts A = 0 (a zero-density candidate)
        u = 1.0 - rng.random(m)
        accept = np.log(u) <= np.minimum(0.0, log_ratio)
        x[accept] = cand[accept]
        lp = np.where(accept, lp_cand, lp)
        accepted += accept
        if step > burn and (step - burn) % thin == 0:
            kept[(step - burn) // thin - 1] = x
    samples = kept.reshape((n, *start.shape))
    n_prop = total * m
    return MetropolisHastingsResult(samples, float(accepted.sum() / n_prop),
                                    int(accepted.sum()), int(n_prop), accepted / total)


def metropolis_hastings_kernel(p: object, Q: object) -> np.ndarray:
    """The exact Metropolis-Hastings transition matrix on states ``0 .. n-1``.

    ``T[i, j] = Q[i, j] * min(1, p_j Q[j, i] / (p_i Q[i, j]))`` for ``j != i`` (the
    probability of moving from ``i`` to ``j``) and ``T[i, i]`` the rest of row ``i``
    (a proposed move to ``i`` itself plus every rejection).

    Parameters
    ----------
    p : array of shape (n,)
        The target, positive, up to normalisation.
    Q : array of shape (n, n)
        Row-stochastic proposal, ``Q[i, j] = Q(j | i)``.
    """
    p = check_array_argument(p, "p", ndim=1, real=True)
    if not np.all(p > 0):
        raise ValueError("p must be strictly positive (an unnormalised target on every state).")
    n = p.size
    Q = check_array_argument(Q, "Q", shape=(n, n), real=True)
    if np.any(Q < 0) or not np.allclose(Q.sum(axis=1), 1.0, rtol=0, atol=1e-9):
        raise ValueError("Q must be row-stochastic (non-negative rows summing to 1).")
    flow = p[:, None] * Q  # p_i Q(j | i)
    with np.errstate(divide="ignore", invalid="ignore"):
        A = np.where(flow > 0, np.minimum(1.0, flow.T / np.where(flow > 0, flow, 1.0)), 0.0)
    T = Q * A
    np.fill_diagonal(T, 0.0)
    T[np.diag_indices(n)] = 1.0 - T.sum(axis=1)
    return T


# ---------------------------------------------------------------------------
# Gibbs sampling on discrete joints
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class DiscreteGibbsResult:
    """What :func:`gibbs_sample_discrete` produced.

    Attributes
    ----------
    samples : ndarray of int, shape (n_samples, n_chains, M)
        The state after each kept sweep.
    cardinalities : tuple of int
    evidence : dict
    """

    samples: np.ndarray
    cardinalities: tuple[int, ...]
    evidence: dict

    def frequencies(self) -> np.ndarray:
        """Empirical joint frequencies over all kept states, shape ``cardinalities``."""
        flat = np.ravel_multi_index(self.samples.reshape(-1, len(self.cardinalities)).T,
                                    self.cardinalities)
        counts = np.bincount(flat, minlength=int(np.prod(self.cardinalities)))
        return (counts / counts.sum()).reshape(self.cardinalities)


def _check_evidence(evidence: object, cards: tuple[int, ...]) -> dict[int, int]:
    if evidence is None:
        return {}
    if not isinstance(evidence, Mapping):
        raise InvalidArgumentError(f"evidence must be a mapping {{variable: value}}, got "
                                   f"{evidence!r}.")
    out = {}
    for v, val in evidence.items():
        if (isinstance(v, bool) or not isinstance(v, numbers.Integral)
                or not 0 <= v < len(cards)):
            raise ValueError(f"evidence names unknown variable {v!r}.")
        if (isinstance(val, bool) or not isinstance(val, numbers.Integral)
                or not 0 <= val < cards[v]):
            raise ValueError(f"evidence value {val!r} of variable {v} is outside "
                             f"0..{cards[v] - 1}.")
        out[int(v)] = int(val)
    return out


def _site_update(model, states, i, rng):
    states[:, i] = sample_categorical(model.conditional_logits(states, i), rng)


def gibbs_sample_discrete(
    factors: object,
    *,
    n_samples: int = 1000,
    burn_in: int = 100,
    thin: int = 1,
    scan: str = "systematic",
    evidence: Mapping[int, int] | None = None,
    n_chains: int = 1,
    x0: object = None,
    random_state: object = None,
) -> DiscreteGibbsResult:
    """Gibbs sampling (003 §12.5.1) from a positive discrete joint.

    Each single-site update draws ``x_i`` exactly from ``p(x_i | x_{-i})``, computed from
    the factors that contain ``i``. A sweep is ``M'`` updates (``M'`` the free
    variables): in order ``0 .. M-1`` (``scan="systematic"``) or each at a uniformly
    random free variable chosen independently per chain (``scan="random"``).

    Parameters
    ----------
    factors : array or list of (scope, table)
        The unnormalised joint (see :mod:`algorithms.graphical._discrete`).
    n_samples : int, default=1000
        Sweeps kept per chain.
    burn_in : int, default=100
        Sweeps discarded first.
    thin : int, default=1
        Keep every ``thin``-th sweep.
    scan : {"systematic", "random"}
    evidence : mapping {variable: value}, optional
        Clamped variables (never updated).
    n_chains : int, default=1
        Independent chains run side by side.
    x0 : array of int, shape (M,) or (n_chains, M), optional
        Start states (default: uniformly random); evidence overrides them.
    random_state : None, int or Generator
    """
    model = as_model(factors)
    cards = model.cards
    M = len(cards)
    n = check_int(n_samples, "n_samples", low=1)
    burn = check_int(burn_in, "burn_in", low=0)
    thin = check_int(thin, "thin", low=1)
    scan = check_choice(scan, "scan", ("systematic", "random"))
    chains = check_int(n_chains, "n_chains", low=1, high=100_000)
    if (burn + n * thin) * chains * M > MAX_STEPS * 10:
        raise ValueError("n_samples * thin + burn_in is too many sweeps for this many chains.")
    ev = _check_evidence(evidence, cards)
    rng = make_rng(random_state)
    if x0 is None:
        states = np.stack([rng.integers(k, size=chains) for k in cards], axis=1)
    else:
        start = check_array_argument(x0, "x0", dtype=np.int64)
        if start.shape not in ((M,), (chains, M)):
            raise ValueError(f"x0 must have shape ({M},) or ({chains}, {M}), got {start.shape}.")
        if np.any(start < 0) or np.any(start >= np.asarray(cards)):
            raise ValueError("x0 holds a value outside its variable's range.")
        states = np.broadcast_to(start, (chains, M)).copy()
    for v, val in ev.items():
        states[:, v] = val
    free = [i for i in range(M) if i not in ev]
    kept = np.empty((n, chains, M), dtype=np.int64)
    total = burn + n * thin
    for sweep in range(1, total + 1):
        if free and scan == "systematic":
            for i in free:
                _site_update(model, states, i, rng)
        elif free:
            for _ in range(len(free)):
                picks = np.asarray(free)[rng.integers(len(free), size=chains)]
                for i in np.unique(picks):
                    rows = picks == i
                    sub = states[rows]
                    _site_update(model, sub, int(i), rng)
                    states[rows] = sub
        if sweep > burn and (sweep - burn) % thin == 0:
            kept[(sweep - burn) // thin - 1] = states
    return DiscreteGibbsResult(kept, cards, ev)


def gibbs_kernel(factors: object, variable: int | None = None, *,
                 scan: str = "systematic") -> np.ndarray:
    """The exact Gibbs transition matrix over all joint states (C order).

    With ``variable = i``: the single-site kernel ``K_i[x, y] = p(y_i | x_{-i})`` if ``y``
    differs from ``x`` at most in coordinate ``i``, else 0. With ``variable=None``: one
    sweep, ``K_0 K_1 ... K_{M-1}`` (``scan="systematic"``) or one random-site update
    ``(1/M) sum_i K_i`` (``scan="random"``).
    """
    model = as_model(factors)
    states = all_states(model.cards)
    M = len(model.cards)
    scan = check_choice(scan, "scan", ("systematic", "random"))
    if variable is not None:
        i = check_int(variable, "variable", low=0, high=M - 1)
        return _site_kernel(model, states, i)
    kernels = [_site_kernel(model, states, i) for i in range(M)]
    if scan == "random":
        return sum(kernels) / M
    out = kernels[0]
    for K in kernels[1:]:
        out = out @ K
    return out


def _site_kernel(model, states: np.ndarray, i: int) -> np.ndarray:
    S = states.shape[0]
    logits = model.conditional_logits(states, i)
    cond = np.exp(logits - logits.max(axis=1, keepdims=True))
    cond /= cond.sum(axis=1, keepdims=True)
    K = np.zeros((S, S))
    for v in range(model.cards[i]):
        target = states.copy()
        target[:, i] = v
        idx = np.ravel_multi_index(target.T, model.cards)
        K[np.arange(S), idx] += cond[:, v]
    return K
