"""Ways out of local minima, 003 §3.4.

Gradient descent stops wherever the gradient vanishes, which need not be the global
minimum. The notes list four remedies, implemented here or in the BP estimators:

- several random initialisations, keeping the best trained network
  (:func:`fit_restarts`);
- simulated annealing: accept a worse solution with a probability that decreases over
  time (:func:`annealing_probability`; the BP estimators' ``anneal_temperature``);
- stochastic gradient descent: standard BP with the samples in a fresh random order
  each epoch (the BP estimators' ``algorithm="standard", shuffle=True``), whose
  per-sample gradients need not vanish where the accumulated one does;
- a genetic algorithm over the weights (the BP estimators' ``algorithm="genetic"``,
  generations built by ``_genetic.py``).
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike
from sklearn.base import clone
from sklearn.exceptions import ConvergenceWarning

from algorithms._validation import check_array_argument, check_bool, check_int, check_real, make_rng

__all__ = ["RestartResult", "annealing_probability", "fit_restarts"]

#: Largest number of restarts accepted (each is a full training run).
MAX_RESTARTS = 10**4


def annealing_probability(delta: ArrayLike, temperature: float) -> np.ndarray:
    """Probability of accepting a move that changes the objective by ``delta``.

    1 for ``delta <= 0`` (an improvement), ``exp(-delta / T)`` for a worse move: the
    Metropolis rule of simulated annealing (§3.4). Computed without overflow.

    Parameters
    ----------
    delta : array-like
        Objective after the move minus before.
    temperature : float
        ``T > 0``.
    """
    d = check_array_argument(delta, "delta", ndim=None, real=True, allow_empty=True)
    t = check_real(temperature, "temperature", low=0.0, low_open=True)
    return np.exp(-np.maximum(d, 0.0) / t)


def annealing_accept(delta: float, temperature: float, rng: np.random.Generator) -> bool:
    """One Metropolis decision (unvalidated loop helper of the BP estimators)."""
    if delta <= 0.0:
        return True
    return bool(rng.random() < np.exp(-delta / temperature))


@dataclass
class RestartResult:
    """What :func:`fit_restarts` found.

    Attributes
    ----------
    best : estimator
        The fitted network with the lowest final training objective.
    final_losses : ndarray of shape (n_restarts,)
        ``loss_curve_[-1]`` of every run, in the order they were made.
    estimators : list
        Every fitted run.
    """

    best: object
    final_losses: np.ndarray
    estimators: list


def fit_restarts(estimator: object, X: ArrayLike, y: ArrayLike, *, n_restarts: int = 5,
                 random_state: object = None, quiet: bool = True) -> RestartResult:
    """Train clones of a BP network from ``n_restarts`` random initialisations, keep the
    best (§3.4).

    Parameters
    ----------
    estimator : BPClassifier or BPRegressor
        Its hyperparameters are kept; ``random_state`` is replaced per run by a seed drawn
        from ``random_state`` here.
    X, y : training data, as for ``estimator.fit``.
    n_restarts : int, default=5
    random_state : None, int or Generator
    quiet : bool, default=True
        Silence the runs' ``ConvergenceWarning`` (each run still records ``converged_``).
    """
    if not (hasattr(estimator, "fit") and hasattr(estimator, "get_params")):
        raise ValueError(f"estimator must be a scikit-learn estimator, got {estimator!r}.")
    if "random_state" not in estimator.get_params():
        raise ValueError("estimator must have a random_state parameter.")
    n = check_int(n_restarts, "n_restarts", low=1, high=MAX_RESTARTS)
    quiet = check_bool(quiet, "quiet")
    rng = make_rng(random_state)
    fitted, losses = [], []
    for seed in rng.integers(0, 2**32 - 1, size=n):
        run = clone(estimator).set_params(random_state=int(seed))
        with warnings.catch_warnings():
            if quiet:
                warnings.simplefilter("ignore", ConvergenceWarning)
            run.fit(X, y)
        if not hasattr(run, "loss_curve_"):
            raise ValueError("estimator must record loss_curve_ (a BP network).")
        fitted.append(run)
        losses.append(float(run.loss_curve_[-1]) if run.loss_curve_.size else np.inf)
    losses_arr = np.array(losses)
    return RestartResult(fitted[int(np.argmin(losses_arr))], losses_arr, fitted)
