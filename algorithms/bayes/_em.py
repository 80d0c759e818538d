"""The generic EM driver (003 §5.7 (5.14)-(5.15)).

A latent-variable model plugs into :func:`run_em` by implementing
:class:`LatentVariableModel`, three methods in the notes' notation:

- ``initialise(X, rng) -> params``: a starting point ``Theta^0``;
- ``e_step(X, params) -> (stats, log_likelihood)``: the posterior of the hidden
  variables ``P(Z | X, Theta^t)`` summarised as whatever the M-step needs
  (responsibilities, expected counts: the ingredients of ``Q(Theta | Theta^t)``,
  (5.14)), and the *observed-data* log-likelihood ``LL(Theta^t | X) = sum_i log
  P(x_i | Theta^t)`` of the parameters it was given, computed stably (log-sum-exp over
  the hidden values);
- ``m_step(X, stats) -> params``: ``Theta^{t+1} = argmax_Theta Q(Theta | Theta^t)``
  (5.15).

The driver alternates them and records, inside the loop, the observed log-likelihood
of every iterate: ``log_likelihood_history[t] = LL(Theta^t | X)`` for ``t = 0 ..
n_iter`` (one entry more than the number of M-steps), so claims read the trace that
the run produced. EM's monotonicity, ``LL(Theta^{t+1}) >= LL(Theta^t)``, is a
property of a correct M-step; the driver does not enforce it (it would hide a broken
model) but claims check it on that trace.

Parameters are any nesting of numpy arrays, numbers, mappings, sequences and
dataclasses. The driver refuses to return non-finite parameters: a non-finite
starting point raises ``ValueError``; an iteration that produces non-finite
parameters or a non-finite log-likelihood stops the run, keeps the last finite
iterate and warns (``ConvergenceWarning``, ``stop_reason = "non-finite"``).
"""

from __future__ import annotations

import dataclasses
import numbers
import warnings
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

import numpy as np
from sklearn.exceptions import ConvergenceWarning

from algorithms._validation import check_bool, check_int, check_real, make_rng

__all__ = [
    "EM_STOP_REASONS",
    "EMResult",
    "EMRun",
    "LatentVariableModel",
    "check_em_settings",
    "params_finite",
    "record_em_result",
    "run_em",
]

#: Why a run stopped: the change of the mean log-likelihood fell below ``tol``;
#: ``max_iter`` M-steps were made; an iterate was not finite (the last finite one is kept).
EM_STOP_REASONS = ("converged", "max_iter", "non-finite")


@runtime_checkable
class LatentVariableModel(Protocol):
    """What a latent-variable model provides to :func:`run_em`."""

    def initialise(self, X: Any, rng: np.random.Generator) -> Any:
        """A starting point ``Theta^0`` drawn with ``rng``."""

    def e_step(self, X: Any, params: Any) -> tuple[Any, float]:
        """``(stats, LL(params | X))``: expected statistics under ``P(Z | X, params)``
        and the observed-data log-likelihood of ``params``."""

    def m_step(self, X: Any, stats: Any) -> Any:
        """The parameters maximising ``Q`` built from ``stats``."""


@dataclass
class EMRun:
    """One run of EM from one starting point.

    Attributes
    ----------
    params : object
        The last finite iterate.
    log_likelihood_history : list of float
        ``LL(Theta^t | X)`` for ``t = 0 .. n_iter``, recorded by the loop.
    n_iter : int
        Number of M-steps whose result was kept.
    converged : bool
    stop_reason : str
        One of :data:`EM_STOP_REASONS`.
    initial_params : object
        ``Theta^0``.
    params_history : list or None
        ``[Theta^0, ..., Theta^{n_iter}]`` when the run was asked to keep them.
    """

    params: Any
    log_likelihood_history: list[float] = field(default_factory=list)
    n_iter: int = 0
    converged: bool = False
    stop_reason: str = "max_iter"
    initial_params: Any = None
    params_history: list[Any] | None = None

    @property
    def log_likelihood(self) -> float:
        """``LL`` of :attr:`params` (the last entry of the history)."""
        return self.log_likelihood_history[-1]


@dataclass
class EMResult:
    """All restarts of :func:`run_em`; attribute access goes to the best run.

    Attributes
    ----------
    runs : list of EMRun
        One per restart, in the order they were run.
    best : int
        Index of the run with the largest final log-likelihood (the first on ties).
    """

    runs: list[EMRun]
    best: int

    @property
    def best_run(self) -> EMRun:
        return self.runs[self.best]

    @property
    def params(self) -> Any:
        return self.best_run.params

    @property
    def log_likelihood(self) -> float:
        return self.best_run.log_likelihood

    @property
    def log_likelihood_history(self) -> list[float]:
        return self.best_run.log_likelihood_history

    @property
    def n_iter(self) -> int:
        return self.best_run.n_iter

    @property
    def converged(self) -> bool:
        return self.best_run.converged

    @property
    def stop_reason(self) -> str:
        return self.best_run.stop_reason


def params_finite(params: Any) -> bool:
    """True when every number in ``params`` (arrays, numbers, mappings, sequences,
    dataclasses, nested) is finite; other leaves (strings, None) are ignored."""
    if isinstance(params, np.ndarray):
        return params.dtype.kind not in "fc" or bool(np.all(np.isfinite(params)))
    if isinstance(params, numbers.Number):
        return bool(np.isfinite(params)) if not isinstance(params, bool) else True
    if isinstance(params, Mapping):
        return all(params_finite(v) for v in params.values())
    if dataclasses.is_dataclass(params) and not isinstance(params, type):
        return all(params_finite(getattr(params, f.name)) for f in dataclasses.fields(params))
    if isinstance(params, Sequence) and not isinstance(params, str | bytes):
        return all(params_finite(v) for v in params)
    return True


#: Hard caps on the EM settings: a request beyond them would run for hours (each
#: iteration is a pass over the data, each restart a whole run); it is refused instead.
MAX_EM_ITER = 10**6
MAX_EM_INIT = 10**3


def check_em_settings(max_iter: object, tol: object, n_init: object) -> tuple[int, float, int]:
    """Validated ``(1 <= max_iter <= MAX_EM_ITER, tol >= 0, 1 <= n_init <= MAX_EM_INIT)``
    (errors name the argument)."""
    return (
        check_int(max_iter, "max_iter", low=1, high=MAX_EM_ITER),
        check_real(tol, "tol", low=0.0),
        check_int(n_init, "n_init", low=1, high=MAX_EM_INIT),
    )


def _n_samples(X: Any) -> int:
    shape = getattr(X, "shape", None)
    n = shape[0] if shape else len(X)
    return max(int(n), 1)


def _one_run(
    model: LatentVariableModel,
    X: Any,
    params: Any,
    max_iter: int,
    tol: float,
    n: int,
    keep_params: bool,
    what: str,
) -> EMRun:
    if not params_finite(params):
        raise ValueError(f"{what} must be finite: the starting point of EM has NaN or inf.")
    stats, ll = model.e_step(X, params)
    if not np.isfinite(ll):
        raise ValueError(
            f"{what} must give a finite log-likelihood: the starting point of EM has "
            f"LL = {ll!r} (a zero-probability observation?)."
        )
    run = EMRun(params=params, log_likelihood_history=[float(ll)], initial_params=params,
                params_history=[params] if keep_params else None)
    for _ in range(max_iter):
        new_params = model.m_step(X, stats)
        if not params_finite(new_params):
            run.stop_reason = "non-finite"
            return run
        new_stats, new_ll = model.e_step(X, new_params)
        if not np.isfinite(new_ll):
            run.stop_reason = "non-finite"
            return run
        run.params, stats = new_params, new_stats
        run.log_likelihood_history.append(float(new_ll))
        run.n_iter += 1
        if keep_params:
            run.params_history.append(new_params)
        if abs(new_ll - ll) / n < tol:
            run.converged, run.stop_reason = True, "converged"
            return run
        ll = new_ll
    run.stop_reason = "max_iter"
    return run


def run_em(
    model: LatentVariableModel,
    X: Any,
    *,
    max_iter: int = 100,
    tol: float = 1e-3,
    n_init: int = 1,
    random_state: Any = None,
    initial_params: Sequence[Any] | None = None,
    keep_params: bool = False,
    warn: bool = True,
    name: str = "EM",
) -> EMResult:
    """Run EM with restarts and keep the run with the largest final log-likelihood.

    Parameters
    ----------
    model : LatentVariableModel
        ``initialise``, ``e_step``, ``m_step`` (see the module docstring).
    X : array-like
        The observed data, passed unchanged to the model (validated by its caller).
    max_iter : int, default=100
        Maximum number of M-steps per run (>= 1).
    tol : float, default=1e-3
        A run has converged when one iteration changes the *mean* log-likelihood
        ``LL / N`` by less than ``tol`` (scikit-learn's ``GaussianMixture`` rule).
    n_init : int, default=1
        Number of restarts; each draws its start from ``model.initialise`` with the one
        generator made from ``random_state``, unless ``initial_params`` gives it.
    random_state : None, int or numpy Generator
    initial_params : sequence, optional
        Starting points for the first ``len(initial_params)`` restarts (adversarial or
        shared starts); ``n_init`` is raised to ``len(initial_params)`` if smaller.
    keep_params : bool, default=False
        Record every iterate in ``EMRun.params_history``.
    warn : bool, default=True
        Warn (``ConvergenceWarning``) when the best run did not converge.
    name : str
        The model's name in warnings.

    Returns
    -------
    EMResult
        Every run and the index of the best one.

    Raises
    ------
    ValueError
        Bad settings, or a starting point that is not finite or has log-likelihood
        ``-inf``.

    Notes
    -----
    003 §5.7: E-step ``Q(Theta | Theta^t) = E_{Z | X, Theta^t} LL(Theta | X, Z)``
    (5.14), M-step ``Theta^{t+1} = argmax_Theta Q(Theta | Theta^t)`` (5.15).
    """
    max_iter, tol, n_init = check_em_settings(max_iter, tol, n_init)
    keep_params = check_bool(keep_params, "keep_params")
    rng = make_rng(random_state)
    starts = list(initial_params) if initial_params is not None else []
    n_runs = max(n_init, len(starts))
    n = _n_samples(X)
    runs = []
    for r in range(n_runs):
        given = r < len(starts)
        start = starts[r] if given else model.initialise(X, rng)
        what = f"initial_params[{r}]" if given else "model.initialise(X, rng)"
        runs.append(_one_run(model, X, start, max_iter, tol, n, keep_params, what))
    finals = np.array([run.log_likelihood for run in runs])
    result = EMResult(runs=runs, best=int(np.argmax(finals)))
    if warn and not result.converged:
        why = (
            "an iteration produced non-finite parameters or log-likelihood; the last "
            "finite iterate is kept"
            if result.stop_reason == "non-finite"
            else f"the mean log-likelihood still changed by >= tol={tol} after "
            f"max_iter={max_iter} iterations"
        )
        warnings.warn(f"{name} did not converge: {why}.", ConvergenceWarning, stacklevel=2)
    return result


def record_em_result(estimator: Any, result: EMResult) -> None:
    """Set an estimator's EM attributes from ``result``: ``converged_``, ``n_iter_``,
    ``log_likelihood_`` (final, total), ``log_likelihood_history_`` (of the best run),
    ``em_result_`` (every run)."""
    estimator.converged_ = result.converged
    estimator.n_iter_ = result.n_iter
    estimator.log_likelihood_ = result.log_likelihood
    estimator.log_likelihood_history_ = np.asarray(result.log_likelihood_history)
    estimator.em_result_ = result
