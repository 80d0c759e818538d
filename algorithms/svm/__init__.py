"""Support vector machines (003 §4.1-§4.5): SMO classification (hard and soft margin,
any kernel) and epsilon-SVR, both solved by our own SMO."""

from algorithms.svm._smo import SMOClassifier, dual_objective
from algorithms.svm._smo_solver import ColumnCache, SMOResult, pair_step, solve_smo
from algorithms.svm._svr import SVR, svr_dual_objective

__all__ = [
    "SVR",
    "ColumnCache",
    "SMOClassifier",
    "SMOResult",
    "dual_objective",
    "pair_step",
    "solve_smo",
    "svr_dual_objective",
]
