"""Approximate inference in Bayesian networks by Gibbs sampling (003 §5.6.2).

The evidence variables are clamped to their observed values; the others start from a
uniformly random state and are resampled one at a time, in a fixed (topological) order,
from their conditional given everything else, which depends only on the Markov blanket:
``P(x_i | rest) proportional to theta_{x_i | pi_i} prod_{c in children(i)}
theta_{x_c | pi_c}``. One sweep resamples every non-evidence variable once. After
``burn_in`` sweeps every sweep's state is a sample; the estimate of ``P(Q = q | E = e)``
is the fraction of samples with ``Q = q`` (the book's ``n_q / T``).

Independent chains run side by side (vectorised). For a network whose CPTs are all
positive the chain is irreducible and aperiodic on the states consistent with the
evidence, so the estimates converge to the exact posterior; with zero entries it can be
reducible and converge to the wrong answer (a conditional that is zero everywhere is
replaced by the uniform one, so the sampler never returns NaN).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np
from scipy.special import logsumexp

from algorithms._validation import InvalidArgumentError, check_int, make_rng
from algorithms.bayes._network import BayesianNetwork

__all__ = ["GibbsResult", "gibbs_query", "gibbs_sampling"]


@dataclass
class GibbsResult:
    """Samples of :func:`gibbs_sampling`.

    Attributes
    ----------
    samples : int ndarray of shape (n_chains, n_samples, d)
        The state after each kept sweep, per chain.
    evidence : dict
    burn_in : int
    """

    samples: np.ndarray
    evidence: dict[int, int]
    burn_in: int

    def estimate(self, query: Mapping[int, int]) -> float:
        """Fraction of all samples (all chains) with every ``query`` variable at its value."""
        hit = np.ones(self.samples.shape[:2], dtype=bool)
        for var, val in query.items():
            hit &= self.samples[:, :, var] == val
        return float(hit.mean())

    def marginal(self, variable: int, n_values: int) -> np.ndarray:
        """Estimated ``P(x_variable = v | e)`` for ``v = 0..n_values - 1``."""
        return np.bincount(self.samples[:, :, variable].ravel(),
                           minlength=n_values) / self.samples[:, :, 0].size


#: Largest number of single-variable draws of one call (chains x sweeps x variables):
#: about 20 s of sampling and 160 MiB of samples; a larger request is refused rather
#: than left to run.
MAX_GIBBS_DRAWS = 2 * 10**7


def _blanket_tables(net: BayesianNetwork, i: int) -> list[tuple[int, tuple[int, ...], np.ndarray]]:
    """For each child ``c`` of ``i``: ``(c, other parents of c, log CPT with axes (other
    parents..., x_i, x_c))``."""
    out = []
    with np.errstate(divide="ignore"):
        for c in net.children[i]:
            pa = net.parents[c]
            k = pa.index(i)
            table = np.moveaxis(np.log(net.cpts[c]), k, -2)
            out.append((c, tuple(p for p in pa if p != i), table))
    return out


def gibbs_sampling(
    network: BayesianNetwork,
    evidence: Mapping[int, int] | None = None,
    *,
    n_samples: int = 1000,
    burn_in: int = 100,
    n_chains: int = 1,
    random_state: object = None,
) -> GibbsResult:
    """Run ``n_chains`` Gibbs chains with the evidence clamped.

    Parameters
    ----------
    network : BayesianNetwork
        With CPTs.
    evidence : mapping {variable: value}, optional
    n_samples : int, default=1000
        Sweeps kept per chain (after burn-in).
    burn_in : int, default=100
        Sweeps discarded first.
    n_chains : int, default=1
        Independent chains, each from its own uniformly random start.
    random_state : None, int or Generator

    Returns
    -------
    GibbsResult
    """
    if not isinstance(network, BayesianNetwork):
        raise InvalidArgumentError(f"network must be a BayesianNetwork, got {network!r}.")
    cpts = network._require_cpts()
    ev = network._check_evidence(evidence)
    T = check_int(n_samples, "n_samples", low=1)
    B = check_int(burn_in, "burn_in", low=0)
    C = check_int(n_chains, "n_chains", low=1)
    rng = make_rng(random_state)
    d = network.n_variables
    if C * (B + T) * d > MAX_GIBBS_DRAWS:
        raise ValueError(f"n_chains * (burn_in + n_samples) * n_variables = {C * (B + T) * d} "
                         f"variable draws exceed the cap of {MAX_GIBBS_DRAWS}.")
    free = [i for i in network.order if i not in ev]
    state = np.zeros((C, d), dtype=np.int64)
    for i in range(d):
        state[:, i] = ev[i] if i in ev else rng.integers(network.cards[i], size=C)
    with np.errstate(divide="ignore"):
        own = {i: np.log(cpts[i]) for i in free}
    blankets = {i: _blanket_tables(network, i) for i in free}
    rows = np.arange(C)
    samples = np.empty((C, T, d), dtype=np.int64)
    for sweep in range(B + T):
        for i in free:
            logp = own[i][tuple(state[:, p] for p in network.parents[i])]
            logp = np.broadcast_to(logp, (C, network.cards[i])).copy()
            for c, others, table in blankets[i]:
                if others:
                    block = table[tuple(state[:, p] for p in others)]  # (C, r_i, r_c)
                    logp += block[rows, :, state[:, c]]
                else:
                    logp += table[:, state[:, c]].T
            norm = logsumexp(logp, axis=1, keepdims=True)
            dead = ~np.isfinite(norm[:, 0])
            probs = np.exp(logp - np.where(np.isfinite(norm), norm, 0.0))
            probs[dead] = 1.0 / network.cards[i]
            u = rng.random((C, 1))
            state[:, i] = np.minimum((np.cumsum(probs, axis=1) < u).sum(axis=1),
                                     network.cards[i] - 1)
        if sweep >= B:
            samples[:, sweep - B] = state
    return GibbsResult(samples=samples, evidence=ev, burn_in=B)


def gibbs_query(
    network: BayesianNetwork,
    query: Mapping[int, int],
    evidence: Mapping[int, int] | None = None,
    *,
    n_samples: int = 1000,
    burn_in: int = 100,
    n_chains: int = 1,
    random_state: object = None,
) -> float:
    """The Gibbs estimate ``n_q / T`` of ``P(query | evidence)`` (003 §5.6.2).

    ``query`` maps variables (not in the evidence) to values.
    """
    if not isinstance(query, Mapping) or not query:
        raise ValueError("query must be a non-empty mapping {variable: value}.")
    q = network._check_evidence(query, "query")  # same checks: known variables, values in range
    if evidence and set(q) & set(evidence):
        raise ValueError("query must not name an evidence variable.")
    result = gibbs_sampling(network, evidence, n_samples=n_samples, burn_in=burn_in,
                            n_chains=n_chains, random_state=random_state)
    return result.estimate(q)
