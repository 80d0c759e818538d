"""Bayes classifiers and the EM algorithm (003 Chapter 5).

- the generic EM driver (§5.7 (5.14)-(5.15)): :func:`run_em` runs any
  :class:`LatentVariableModel` with restarts, ``tol``, ``max_iter`` and the recorded
  observed log-likelihood trace.
"""

from algorithms.bayes._em import (
    EM_STOP_REASONS,
    EMResult,
    EMRun,
    LatentVariableModel,
    check_em_settings,
    params_finite,
    record_em_result,
    run_em,
)

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
