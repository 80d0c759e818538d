"""Computational learning theory made executable (003 Chapter 9; 000 §1.2).

- bounds of Chapter 9 as validated plain functions (Hoeffding, McDiarmid,
  finite-class PAC, agnostic, Sauer, VC, Rademacher, stability);
- dichotomies, shattering, growth functions and VC dimensions by enumeration,
  with half-space separability decided exactly (linear programs propose
  certificates, checked in rational arithmetic; exact Radon partitions);
- empirical Rademacher complexity, exactly and by Monte Carlo;
- learning on a finite domain (exact errors, version spaces, ERM), vectorised
  over many simulated training sets;
- uniform stability of ridge regression, measured by refitting.
"""

from algorithms.learning_theory._bounds import (
    finite_class_deviation,
    growth_polynomial_bound,
    hoeffding_deviation,
    hoeffding_tail,
    massart_bound,
    mcdiarmid_tail,
    pac_error_bound,
    pac_sample_size,
    rademacher_bound_binary,
    rademacher_bound_real,
    rademacher_vc_bound,
    sauer_bound,
    stability_bound,
    vc_generalisation_bound,
    vc_tail_bound,
)
from algorithms.learning_theory._finite import (
    FiniteProblem,
    empirical_errors,
    erm,
    label_counts,
    version_space,
)
from algorithms.learning_theory._growth import (
    FiniteClass,
    HalfSpaces,
    Intervals,
    RadonPartition,
    Rectangles,
    Thresholds,
    all_labellings,
    dichotomies,
    distinct_line_points,
    exact_points,
    growth_function,
    is_shattered,
    radon_labelling,
    radon_partition,
    vc_dimension,
)
from algorithms.learning_theory._rademacher import (
    empirical_rademacher,
    empirical_rademacher_mc,
    threshold_rademacher,
)
from algorithms.learning_theory._stability import (
    RidgeStability,
    max_loss_difference,
    ridge_fit,
    ridge_losses,
    ridge_stability,
    ridge_stability_bounds,
)

__all__ = [
    "FiniteClass",
    "FiniteProblem",
    "HalfSpaces",
    "Intervals",
    "RadonPartition",
    "Rectangles",
    "RidgeStability",
    "Thresholds",
    "all_labellings",
    "dichotomies",
    "distinct_line_points",
    "empirical_errors",
    "empirical_rademacher",
    "empirical_rademacher_mc",
    "erm",
    "exact_points",
    "finite_class_deviation",
    "growth_function",
    "growth_polynomial_bound",
    "hoeffding_deviation",
    "hoeffding_tail",
    "is_shattered",
    "label_counts",
    "massart_bound",
    "max_loss_difference",
    "mcdiarmid_tail",
    "pac_error_bound",
    "pac_sample_size",
    "rademacher_bound_binary",
    "rademacher_bound_real",
    "rademacher_vc_bound",
    "radon_labelling",
    "radon_partition",
    "ridge_fit",
    "ridge_losses",
    "ridge_stability",
    "ridge_stability_bounds",
    "sauer_bound",
    "stability_bound",
    "threshold_rademacher",
    "vc_dimension",
    "vc_generalisation_bound",
    "vc_tail_bound",
    "version_space",
]
