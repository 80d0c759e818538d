"""Variational inference and the EM view of it (003 §12.5.2 (12.20)-(12.23)).

- :func:`categorical_mixture_log_likelihood` is (12.21) for the plate model of
  (12.20): ``N`` i.i.d. observations ``x_i`` (``d`` categorical features), one hidden
  class ``z`` each, ``p(x_i, z | Theta) = w_z prod_j phi[z, j, x_ij]``; the inner sum
  over ``z`` is a log-sum-exp.
- :func:`categorical_mixture_em` runs EM (12.22) on that model with the generic driver
  :func:`algorithms.bayes.run_em`: the E-step is ``p(z | x, Theta^t)`` and the M-step
  the closed-form ``argmax_Theta sum_z p(z | x, Theta^t) ln p(x, z | Theta)`` (weighted
  frequencies).
- :func:`mean_field` is mean-field variational inference (12.23) on a positive discrete
  model ``p~(z) = p(x, z)`` (the evidence ``x`` already absorbed into the factors):
  coordinate ascent ``ln q_j(z_j) = E_{q_{-j}}[ln p(x, z)] + const`` over fully
  factorised ``q(z) = prod_j q_j(z_j)``, with the evidence lower bound
  ``ELBO(q) = E_q[ln p(x, z)] - E_q[ln q(z)]`` recorded after every sweep.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass, field

import numpy as np
from scipy.special import logsumexp
from sklearn.exceptions import ConvergenceWarning

from algorithms._validation import (
    check_array_argument,
    check_int,
    check_real,
    make_rng,
)
from algorithms.bayes import EMResult, check_em_settings, run_em
from algorithms.graphical._discrete import as_model

__all__ = [
    "CategoricalMixtureParams",
    "MeanFieldResult",
    "categorical_mixture_em",
    "categorical_mixture_log_likelihood",
    "mean_field",
]


# ---------------------------------------------------------------------------
# (12.20)-(12.22): a mixture of products of categoricals and its EM
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class CategoricalMixtureParams:
    """``Theta = (weights, probs)``: ``weights[z] = p(z)``, ``probs[z, j, c] = p(x_j = c | z)``."""

    weights: np.ndarray
    probs: np.ndarray


def _check_codes(X: object, n_categories: int | None) -> tuple[np.ndarray, int]:
    arr = check_array_argument(X, "X", ndim=2, real=True)
    if not np.all(arr == np.round(arr)) or np.any(arr < 0) or np.any(arr >= 10_000):
        raise ValueError("X must hold category codes: integers in [0, 10000).")
    codes = arr.astype(np.int64)
    m = int(codes.max()) + 1 if n_categories is None else check_int(
        n_categories, "n_categories", low=1, high=10_000)
    if codes.max() >= m:
        raise ValueError(f"X holds a code >= n_categories = {m}.")
    return codes, m


def _check_params(weights: object, probs: object, d: int, m: int) -> CategoricalMixtureParams:
    w = check_array_argument(weights, "weights", ndim=1, real=True)
    if np.any(w < 0) or not np.isclose(w.sum(), 1.0, rtol=0, atol=1e-9):
        raise ValueError("weights must be non-negative and sum to 1.")
    P = check_array_argument(probs, "probs", shape=(w.size, d, None), real=True)
    if P.shape[2] < m:
        raise ValueError(f"probs must have at least {m} categories (X's codes), got "
                         f"{P.shape[2]}.")
    if np.any(P < 0) or not np.allclose(P.sum(axis=2), 1.0, rtol=0, atol=1e-9):
        raise ValueError("probs must be non-negative with probs[z, j, :] summing to 1.")
    return CategoricalMixtureParams(w, P)


def _joint_log(codes: np.ndarray, params: CategoricalMixtureParams) -> np.ndarray:
    """``ln p(x_i, z | Theta)``, shape ``(N, K)``."""
    d = codes.shape[1]
    with np.errstate(divide="ignore"):
        logp = np.log(params.probs)  # (K, d, m)
        out = np.log(params.weights)[None, :].repeat(codes.shape[0], axis=0)
    for j in range(d):
        out = out + logp[:, j, codes[:, j]].T
    return out


def categorical_mixture_log_likelihood(
    X: object, weights: object, probs: object
) -> float:
    """(12.21): ``ln p(X | Theta) = sum_i ln sum_z p(x_i, z | Theta)``.

    Parameters
    ----------
    X : array of int, shape (N, d)
        Category codes.
    weights : array of shape (K,)
    probs : array of shape (K, d, m)
    """
    codes, m = _check_codes(X, None)
    params = _check_params(weights, probs, codes.shape[1], m)
    return float(logsumexp(_joint_log(codes, params), axis=1).sum())


@dataclass
class _CategoricalMixtureModel:
    n_components: int
    n_categories: int

    def initialise(self, X, rng):
        K, d, m = self.n_components, X.shape[1], self.n_categories
        return CategoricalMixtureParams(rng.dirichlet(np.ones(K)),
                                        rng.dirichlet(np.ones(m), size=(K, d)))

    def e_step(self, X, params):
        joint = _joint_log(X, params)
        norm = logsumexp(joint, axis=1, keepdims=True)
        with np.errstate(invalid="ignore"):
            resp = np.exp(joint - norm)
        return resp, float(norm.sum())

    def m_step(self, X, resp):
        K, m = self.n_components, self.n_categories
        Nk = resp.sum(axis=0)
        weights = Nk / Nk.sum()
        onehot = np.eye(m)[X]  # (N, d, m)
        counts = np.einsum("nk,ndc->kdc", resp, onehot)
        # a component with no responsibility contributes 0 to Q whatever its probs:
        # the uniform distribution is then as good an argmax as any
        totals = counts.sum(axis=2, keepdims=True)
        probs = np.where(totals > 0, counts / np.where(totals > 0, totals, 1.0), 1.0 / m)
        return CategoricalMixtureParams(weights, probs.reshape(K, X.shape[1], m))


def categorical_mixture_em(
    X: object,
    n_components: int = 2,
    *,
    n_categories: int | None = None,
    max_iter: int = 100,
    tol: float = 1e-8,
    n_init: int = 1,
    random_state: object = None,
) -> EMResult:
    """EM (12.22) for the categorical mixture of (12.20), on :func:`algorithms.bayes.run_em`.

    Returns the driver's :class:`~algorithms.bayes.EMResult`: ``params`` (a
    :class:`CategoricalMixtureParams`), ``log_likelihood_history`` (12.21) of every
    iterate and ``params_history`` (every ``Theta^t``), recorded inside the loop.
    """
    codes, m = _check_codes(X, n_categories)
    K = check_int(n_components, "n_components", low=1, high=codes.shape[0])
    max_iter, tol, n_init = check_em_settings(max_iter, tol, n_init)
    rng = make_rng(random_state)
    return run_em(_CategoricalMixtureModel(K, m), codes, max_iter=max_iter, tol=tol,
                  n_init=n_init, random_state=rng, keep_params=True,
                  name="categorical_mixture_em")


# ---------------------------------------------------------------------------
# (12.23): mean-field variational inference on a discrete model
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class MeanFieldResult:
    """What :func:`mean_field` produced.

    Attributes
    ----------
    q : list of ndarray
        ``q[j]`` the factor ``q_j(z_j)``, a probability vector.
    elbo_history : ndarray
        ``ELBO`` of the starting ``q`` and after every sweep (one entry more than sweeps).
    n_iter : int
        Sweeps made.
    converged : bool
    cardinalities : tuple of int
    q_history : list of list of ndarray
        The factors at the start and after every sweep (``q_history[t]`` has the ELBO
        ``elbo_history[t]``), recorded by the loop.
    """

    q: list[np.ndarray]
    elbo_history: np.ndarray
    n_iter: int
    converged: bool
    cardinalities: tuple[int, ...] = field(default=())
    q_history: list[list[np.ndarray]] = field(default_factory=list)

    @property
    def elbo(self) -> float:
        return float(self.elbo_history[-1])


def _expected_log_factor(log_table, scope, q, skip=None):
    """``E_{q}[ln phi]`` over the scope, leaving variable ``skip`` free (an axis)."""
    out = log_table
    # contract from the last axis so that earlier axis positions stay valid
    for axis in range(len(scope) - 1, -1, -1):
        v = scope[axis]
        if v == skip:
            continue
        out = np.tensordot(out, q[v], axes=([axis], [0]))
    return out


def elbo_of(model, q) -> float:
    energy = sum(float(_expected_log_factor(t, s, q)) for s, t in
                 zip(model.scopes, model.log_tables, strict=True))
    entropy = -sum(float(np.sum(qj * np.log(qj))) for qj in q)
    return energy + entropy


def mean_field(
    factors: object,
    *,
    max_iter: int = 200,
    tol: float = 1e-10,
    init: str = "random",
    random_state: object = None,
) -> MeanFieldResult:
    """Mean-field coordinate ascent (12.23) on a positive discrete model.

    Parameters
    ----------
    factors : array or list of (scope, table)
        ``p(x, z)`` as a function of the hidden ``z`` (evidence absorbed), unnormalised.
    max_iter : int, default=200
        Sweeps over ``j = 0 .. M-1``.
    tol : float, default=1e-10
        Stop when a sweep raises the ELBO by less than ``tol * (1 + |ELBO|)``.
    init : {"random", "uniform"}
        Starting factors: Dirichlet(1) draws, or uniform.
    random_state : None, int or Generator

    Returns
    -------
    MeanFieldResult
        Warns ``ConvergenceWarning`` when ``max_iter`` sweeps did not meet ``tol``.
    """
    model = as_model(factors)
    n_iter_max = check_int(max_iter, "max_iter", low=1, high=1_000_000)
    tol = check_real(tol, "tol", low=0.0)
    if init not in ("random", "uniform"):
        raise ValueError(f"init must be 'random' or 'uniform', got {init!r}.")
    rng = make_rng(random_state)
    if init == "uniform":
        q = [np.full(k, 1.0 / k) for k in model.cards]
    else:
        q = [np.clip(rng.dirichlet(np.ones(k)), 1e-12, None) for k in model.cards]
        q = [qj / qj.sum() for qj in q]
    history = [elbo_of(model, q)]
    q_history = [[qj.copy() for qj in q]]
    converged = False
    n_iter = 0
    for n_iter in range(1, n_iter_max + 1):  # noqa: B007 - n_iter is reported
        for j in range(model.n_variables):
            logits = np.zeros(model.cards[j])
            for f in model.factors_of(j):
                logits = logits + _expected_log_factor(model.log_tables[f], model.scopes[f],
                                                       q, skip=j)
            w = np.exp(logits - logits.max())
            q[j] = np.clip(w / w.sum(), 1e-300, None)
        history.append(elbo_of(model, q))
        q_history.append([qj.copy() for qj in q])
        if history[-1] - history[-2] < tol * (1.0 + abs(history[-1])):
            converged = True
            break
    if not converged:
        warnings.warn(f"mean_field did not converge in {n_iter_max} sweeps (ELBO still "
                      f"rising by {history[-1] - history[-2]:.3g}).", ConvergenceWarning,
                      stacklevel=2)
    return MeanFieldResult(q, np.asarray(history), n_iter, converged, model.cards, q_history)
