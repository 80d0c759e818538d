"""Linear models (003 Chapter 1; 004 §1–§4).

Regression, regularisation, generalised linear models, logistic/softmax regression,
linear discriminant analysis, multi-class strategies and class-imbalance tools.
"""

from algorithms.linear._elastic_net import ElasticNet, elastic_net_penalties
from algorithms.linear._exponential_family import (
    BernoulliFamily,
    CategoricalFamily,
    ExponentialFamily,
    GaussianFamily,
)
from algorithms.linear._glm import GeneralizedLinearModel, LogLinearRegression
from algorithms.linear._imbalance import (
    ThresholdRescalingClassifier,
    random_oversample,
    random_undersample,
    rescale_probability,
    rescaled_decision,
)
from algorithms.linear._lasso import Lasso, soft_threshold, solve_l1_l2
from algorithms.linear._lda import (
    LinearDiscriminantAnalysis,
    ScatterMatrices,
    fisher_direction,
    rayleigh_quotient,
    scatter_matrices,
)
from algorithms.linear._logistic import (
    LogisticRegression,
    logistic_nll,
    logistic_nll_gradient,
    logistic_nll_hessian,
)
from algorithms.linear._multiclass import (
    ECOCClassifier,
    OneVsOneClassifier,
    OneVsRestClassifier,
    binary_confidence,
    check_code_matrix,
    decode,
    exhaustive_code_matrix,
    minimum_code_distance,
    random_code_matrix,
)
from algorithms.linear._ols import (
    LinearRegression,
    RankDeficientWarning,
    SimpleLinearRegression,
    add_bias_column,
)
from algorithms.linear._paths import (
    RegularisationPath,
    elastic_net_path,
    lasso_path,
    ridge_path,
)
from algorithms.linear._ridge import Ridge, ridge_solve
from algorithms.linear._softmax import SoftmaxRegression, softmax_nll

__all__ = [
    "BernoulliFamily",
    "CategoricalFamily",
    "ECOCClassifier",
    "ElasticNet",
    "ExponentialFamily",
    "GaussianFamily",
    "GeneralizedLinearModel",
    "Lasso",
    "LinearDiscriminantAnalysis",
    "LinearRegression",
    "LogLinearRegression",
    "LogisticRegression",
    "OneVsOneClassifier",
    "OneVsRestClassifier",
    "RankDeficientWarning",
    "RegularisationPath",
    "Ridge",
    "ScatterMatrices",
    "SimpleLinearRegression",
    "SoftmaxRegression",
    "ThresholdRescalingClassifier",
    "add_bias_column",
    "binary_confidence",
    "check_code_matrix",
    "decode",
    "elastic_net_path",
    "elastic_net_penalties",
    "exhaustive_code_matrix",
    "fisher_direction",
    "lasso_path",
    "logistic_nll",
    "logistic_nll_gradient",
    "logistic_nll_hessian",
    "minimum_code_distance",
    "random_code_matrix",
    "random_oversample",
    "random_undersample",
    "rayleigh_quotient",
    "rescale_probability",
    "rescaled_decision",
    "ridge_path",
    "ridge_solve",
    "scatter_matrices",
    "soft_threshold",
    "softmax_nll",
    "solve_l1_l2",
]
