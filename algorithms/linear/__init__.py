"""Linear models (003 Chapter 1; 004 §1–§4).

Regression, regularisation, generalised linear models, logistic/softmax regression,
linear discriminant analysis, multi-class strategies and class-imbalance tools.
"""

from algorithms.linear._imbalance import (
    ThresholdRescalingClassifier,
    random_oversample,
    random_undersample,
    rescale_probability,
    rescaled_decision,
)
from algorithms.linear._lda import (
    LinearDiscriminantAnalysis,
    ScatterMatrices,
    fisher_direction,
    rayleigh_quotient,
    scatter_matrices,
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

__all__ = [
    "ECOCClassifier",
    "LinearDiscriminantAnalysis",
    "OneVsOneClassifier",
    "OneVsRestClassifier",
    "ScatterMatrices",
    "ThresholdRescalingClassifier",
    "binary_confidence",
    "check_code_matrix",
    "decode",
    "exhaustive_code_matrix",
    "fisher_direction",
    "minimum_code_distance",
    "random_code_matrix",
    "random_oversample",
    "random_undersample",
    "rayleigh_quotient",
    "rescale_probability",
    "rescaled_decision",
    "scatter_matrices",
]
