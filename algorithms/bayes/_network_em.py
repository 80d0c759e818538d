"""CPTs of a Bayesian network from data with missing values, by EM (003 §5.7) on the
generic driver.

The missing entries are the hidden variables ``Z``. For a fixed structure:

- E-step: for every sample, the posterior of its missing entries given its observed
  ones, ``P(x_mis | x_obs, Theta^t)``, by enumerating the joint (5.9); the expected
  counts of every joint state, ``C(x) = sum_i P(x | x_obs,i, Theta^t)``, give ``Q``
  (5.14); the observed-data log-likelihood is ``sum_i log sum_{x_mis} P(x_obs,i,
  x_mis)``;
- M-step (5.15): the (5.13) frequencies of the expected counts, ``theta_{x_i | pi_i}
  = C(x_i, pi_i) / C(pi_i)`` (plus ``alpha`` per cell; a parent value with no expected
  count gets the uniform row).

Samples are grouped by their pattern of observed values, so the E-step costs one slice
of the joint per distinct pattern. Exact enumeration limits the joint to
``MAX_JOINT_STATES`` states.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike
from scipy.special import logsumexp

from algorithms._validation import check_array_argument, check_real
from algorithms.bayes._em import EMResult, check_em_settings, run_em
from algorithms.bayes._network import (
    MAX_JOINT_STATES,
    BayesianNetwork,
    _normalise_rows,
    check_cards,
    check_codes,
    check_parents,
    check_weights,
    infer_cards,
)

__all__ = ["MissingData", "MissingDataNetworkModel", "fit_cpts_em"]


@dataclass
class MissingData:
    """Distinct rows (NaN = missing) and how many times (weight) each occurs."""

    rows: np.ndarray
    counts: np.ndarray

    @classmethod
    def from_array(cls, X: np.ndarray, sample_weight: np.ndarray | None = None) -> MissingData:
        key = np.where(np.isnan(X), -1, X).astype(np.int64)
        uniq, inverse = np.unique(key, axis=0, return_inverse=True)
        w = np.ones(X.shape[0]) if sample_weight is None else sample_weight
        counts = np.bincount(inverse.reshape(-1), weights=w, minlength=uniq.shape[0])
        rows = np.where(uniq < 0, np.nan, uniq.astype(float))
        keep = counts > 0
        return cls(rows[keep], counts[keep])

    def __len__(self) -> int:
        return max(int(round(float(self.counts.sum()))), 1)


class MissingDataNetworkModel:
    """The :class:`~algorithms.bayes.LatentVariableModel` of a network with missing data.

    Parameters are the list of CPTs (the shapes of :class:`BayesianNetwork`).
    """

    def __init__(self, parents: Sequence[Sequence[int]], cards: Sequence[int],
                 alpha: float = 0.0) -> None:
        self.parents = check_parents(parents)
        self.cards = check_cards(cards, len(self.parents))
        self.alpha = check_real(alpha, "alpha", low=0.0)
        if math.prod(self.cards) > MAX_JOINT_STATES:
            raise ValueError(f"cards = {list(self.cards)} give more than {MAX_JOINT_STATES} "
                             "joint states, too many for the exact E-step.")

    def network(self, cpts: list[np.ndarray]) -> BayesianNetwork:
        return BayesianNetwork(self.parents, cpts, cards=self.cards)

    def initialise(self, data: MissingData, rng: np.random.Generator) -> list[np.ndarray]:
        """Every CPT row drawn from the uniform Dirichlet."""
        return [rng.dirichlet(np.ones(self.cards[i]),
                              size=tuple(self.cards[p] for p in pa))
                for i, pa in enumerate(self.parents)]

    def log_prior(self, cpts: list[np.ndarray]) -> float:
        if self.alpha == 0.0:
            return 0.0
        return float(self.alpha * sum(np.sum(np.log(t)) for t in cpts))

    def e_step(self, data: MissingData, cpts: list[np.ndarray]) -> tuple[np.ndarray, float]:
        logJ = self.network(cpts).log_joint_table()
        expected = np.zeros(self.cards)
        ll = 0.0
        for row, count in zip(data.rows, data.counts, strict=True):
            idx = tuple(slice(None) if np.isnan(v) else int(v) for v in row)
            block = logJ[idx]
            log_px = logsumexp(block)
            ll += count * log_px
            if np.isfinite(log_px):
                post = np.exp(block - log_px)
                # renormalised: each row's completions carry exactly its count (the
                # log-sum-exp leaves the sum 1 only up to rounding), as in the GMM's E-step
                expected[idx] += count * (post / post.sum())
        return expected, float(ll) + self.log_prior(cpts)

    def m_step(self, data: MissingData, expected: np.ndarray) -> list[np.ndarray]:
        d = len(self.cards)
        cpts = []
        for i, pa in enumerate(self.parents):
            axes = [*pa, i]
            others = tuple(a for a in range(d) if a not in axes)
            family = expected.sum(axis=others) if others else expected
            # family's axes are the kept ones in increasing order; put them as (pa..., i)
            family = np.transpose(family, np.argsort(np.argsort(axes)))
            cpts.append(_normalise_rows(family, self.alpha))
        return cpts


def fit_cpts_em(
    parents: Sequence[Sequence[int]],
    X: ArrayLike,
    cards: Sequence[int] | None = None,
    *,
    alpha: float = 0.0,
    max_iter: int = 100,
    tol: float = 1e-6,
    n_init: int = 1,
    random_state: object = None,
    initial_cpts: Sequence[list[np.ndarray]] | None = None,
    sample_weight: ArrayLike | None = None,
    keep_params: bool = False,
) -> tuple[BayesianNetwork, EMResult]:
    """CPTs for a fixed structure from data with missing entries (NaN), by EM.

    Parameters
    ----------
    parents : parent lists (a DAG)
    X : array of shape (m, d)
        Codes ``0..cards[i] - 1``; NaN marks a missing entry.
    cards : sequence of int, optional
        Values per variable (default: observed ``max + 1`` per column).
    alpha : float, default=0.0
        Dirichlet smoothing (MAP-EM; the recorded objective adds ``alpha sum log theta``).
    max_iter, tol, n_init, random_state
        As in :func:`~algorithms.bayes.run_em` (``tol`` on the mean log-likelihood).
    initial_cpts : list of CPT lists, optional
        Starting points of the first restarts.
    sample_weight : array of shape (m,), optional
    keep_params : bool, default=False
        Record every iterate's CPTs.

    Returns
    -------
    network : BayesianNetwork
        With the CPTs of the best run.
    result : EMResult
    """
    pa = check_parents(parents)
    X_arr = check_array_argument(X, "X", shape=(None, len(pa)), finite=False, real=True)
    if cards is None:
        if np.all(np.isnan(X_arr), axis=0).any():
            raise ValueError("cards is required when a column of X is entirely missing.")
        cards = infer_cards(X_arr)
    else:
        cards = check_cards(cards, len(pa))
    x = check_codes(X_arr, cards, allow_missing=True)
    a = check_real(alpha, "alpha", low=0.0)
    check_em_settings(max_iter, tol, n_init)
    w = check_weights(sample_weight, x.shape[0])
    model = MissingDataNetworkModel(pa, cards, a)
    starts = None
    if initial_cpts is not None:
        starts = [model.network(list(c)).cpts for c in initial_cpts]  # validates the CPTs
    data = MissingData.from_array(x, w)
    result = run_em(model, data, max_iter=max_iter, tol=tol, n_init=n_init,
                    random_state=random_state, initial_params=starts,
                    keep_params=keep_params, name="fit_cpts_em")
    return model.network(result.params), result
