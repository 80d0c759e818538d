"""Bayes classifiers, Bayesian networks and the EM algorithm (003 Chapter 5).

- decisions: the conditional risk (5.2) and the minimum-risk rule (5.3) for any loss
  matrix (:func:`conditional_risk`, :func:`bayes_decision`, :func:`expected_risk`);
- maximum likelihood (5.4)-(5.5): closed forms (:func:`gaussian_mle`,
  :func:`categorical_mle`), a numerical optimiser (:func:`maximum_likelihood`), and
  :class:`GaussianBayesClassifier`;
- naive Bayes (5.6)-(5.7): :class:`NaiveBayesClassifier` (Gaussian, categorical and
  mixed attributes, Laplace smoothing, log space);
- one-dependence estimators (5.8): :class:`SPODEClassifier`, :class:`TANClassifier`,
  :class:`AODEClassifier`;
- Bayesian networks (5.9)-(5.13), §5.6.2: :class:`BayesianNetwork` (acyclicity and CPT
  checks, joint, free parameters, score, ancestral sampling, exact inference by
  enumeration), :func:`fit_cpts`, :func:`network_score`, :func:`hill_climb`,
  :func:`gibbs_sampling`;
- EM (5.14)-(5.15): the generic driver :func:`run_em` for any
  :class:`LatentVariableModel`, with :class:`CategoricalMixture` (naive Bayes with a
  hidden class) and :func:`fit_cpts_em` (a network with missing data) on it.
"""

from algorithms.bayes._decision import (
    bayes_decision,
    conditional_risk,
    expected_risk,
    zero_one_loss,
)
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
from algorithms.bayes._gibbs import GibbsResult, gibbs_query, gibbs_sampling
from algorithms.bayes._mixture import (
    CategoricalMixture,
    CategoricalMixtureModel,
    EncodedCategories,
    MixtureParams,
)
from algorithms.bayes._mle import (
    GaussianBayesClassifier,
    categorical_log_likelihood,
    categorical_mle,
    gaussian_log_likelihood,
    gaussian_log_pdf,
    gaussian_mle,
    maximum_likelihood,
)
from algorithms.bayes._naive_bayes import NaiveBayesClassifier
from algorithms.bayes._network import (
    BayesianNetwork,
    family_counts,
    fit_cpts,
    mdl_weight,
    network_score,
)
from algorithms.bayes._network_em import MissingData, MissingDataNetworkModel, fit_cpts_em
from algorithms.bayes._one_dependence import (
    AODEClassifier,
    ODEModel,
    SPODEClassifier,
    TANClassifier,
    conditional_mutual_information,
)
from algorithms.bayes._structure import StructureSearchResult, hill_climb, neighbours

__all__ = [
    "EM_STOP_REASONS",
    "AODEClassifier",
    "BayesianNetwork",
    "CategoricalMixture",
    "CategoricalMixtureModel",
    "EMResult",
    "EMRun",
    "EncodedCategories",
    "GaussianBayesClassifier",
    "GibbsResult",
    "LatentVariableModel",
    "MissingData",
    "MissingDataNetworkModel",
    "MixtureParams",
    "NaiveBayesClassifier",
    "ODEModel",
    "SPODEClassifier",
    "StructureSearchResult",
    "TANClassifier",
    "bayes_decision",
    "categorical_log_likelihood",
    "categorical_mle",
    "check_em_settings",
    "conditional_mutual_information",
    "conditional_risk",
    "expected_risk",
    "family_counts",
    "fit_cpts",
    "fit_cpts_em",
    "gaussian_log_likelihood",
    "gaussian_log_pdf",
    "gaussian_mle",
    "gibbs_query",
    "gibbs_sampling",
    "hill_climb",
    "maximum_likelihood",
    "mdl_weight",
    "neighbours",
    "network_score",
    "params_finite",
    "record_em_result",
    "run_em",
    "zero_one_loss",
]
