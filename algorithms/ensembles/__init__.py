"""Ensemble learning (003 Chapter 6; random forests also 003 §2.7).

- boosting: :class:`AdaBoostClassifier` (Fig 8.3, by re-weighting or re-sampling);
- bagging: :class:`BaggingClassifier`, :class:`BaggingRegressor` (Fig 8.5, in-bag
  bookkeeping, out-of-bag estimate), :class:`RandomForestClassifier` (§6.3.2);
- combination: averaging and voting rules (6.17)-(6.21) as functions and as
  :class:`VotingClassifier` / :class:`AveragingRegressor`; :class:`StackingClassifier`
  (Fig 8.9, k-fold secondary training set);
- diversity: the error-ambiguity decomposition (6.22)-(6.27), the pairwise measures
  dis, rho, Q, kappa (6.28)-(6.32) with the kappa-error diagram, and the random subspace
  method (:class:`RandomSubspaceClassifier`, Fig 8.11);
- the majority-vote error of independent classifiers (6.3) and bootstrap sampling.
"""

from algorithms.ensembles._adaboost import STOP_REASONS, AdaBoostClassifier, EnsembleWarning
from algorithms.ensembles._bagging import BaggingClassifier, BaggingRegressor, OOBWarning
from algorithms.ensembles._bootstrap import (
    IN_BAG_LIMIT,
    bootstrap_indices,
    expected_in_bag_fraction,
    in_bag_counts,
)
from algorithms.ensembles._combination import (
    REJECT,
    TIE_BREAKS,
    class_vote_totals,
    majority_vote,
    one_hot_votes,
    plurality_vote,
    simple_average,
    simplex_weights,
    weighted_average,
    weighted_vote,
)
from algorithms.ensembles._diversity import (
    ContingencyTable,
    KappaErrorDiagram,
    contingency_table,
    correlation,
    disagreement,
    kappa,
    kappa_error_diagram,
    kappa_probabilities,
    pairwise_diversity,
    q_statistic,
)
from algorithms.ensembles._error_ambiguity import (
    ErrorAmbiguity,
    IntegratedErrorAmbiguity,
    error_ambiguity,
    integrated_error_ambiguity,
)
from algorithms.ensembles._majority_error import (
    majority_vote_error,
    majority_vote_hoeffding_bound,
)
from algorithms.ensembles._random_forest import RandomForestClassifier
from algorithms.ensembles._random_subspace import RandomSubspaceClassifier
from algorithms.ensembles._stacking import StackingClassifier
from algorithms.ensembles._voting import AveragingRegressor, VotingClassifier

__all__ = [
    "IN_BAG_LIMIT",
    "REJECT",
    "STOP_REASONS",
    "TIE_BREAKS",
    "AdaBoostClassifier",
    "AveragingRegressor",
    "BaggingClassifier",
    "BaggingRegressor",
    "ContingencyTable",
    "EnsembleWarning",
    "ErrorAmbiguity",
    "IntegratedErrorAmbiguity",
    "KappaErrorDiagram",
    "OOBWarning",
    "RandomForestClassifier",
    "RandomSubspaceClassifier",
    "StackingClassifier",
    "VotingClassifier",
    "bootstrap_indices",
    "class_vote_totals",
    "contingency_table",
    "correlation",
    "disagreement",
    "error_ambiguity",
    "expected_in_bag_fraction",
    "in_bag_counts",
    "integrated_error_ambiguity",
    "kappa",
    "kappa_error_diagram",
    "kappa_probabilities",
    "majority_vote",
    "majority_vote_error",
    "majority_vote_hoeffding_bound",
    "one_hot_votes",
    "pairwise_diversity",
    "plurality_vote",
    "q_statistic",
    "simple_average",
    "simplex_weights",
    "weighted_average",
    "weighted_vote",
]
