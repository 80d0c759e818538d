"""Shared Hypothesis strategies that *construct* valid inputs (see DESIGN.md).

Chapter-specific families live in private modules here and are re-exported.
"""

from mltheory.strategies._datasets import (
    LabelledData,
    SeparableData,
    finite_floats,
    labelled_datasets,
    nonseparable_datasets,
    separable_datasets,
)
from mltheory.strategies._lda import (
    ClassConditionalData,
    class_conditional_datasets,
    spd_matrices,
)
from mltheory.strategies._learning_theory import *  # noqa: F403 - learning-theory strategies
from mltheory.strategies._linear_models import (
    OverlappingClassData,
    RegressionData,
    overlapping_classification_datasets,
    regression_datasets,
)
from mltheory.strategies._misc import SeededGenerator, rngs
from mltheory.strategies._svm import *  # noqa: F403 - SVM strategies

__all__ = [
    "ClassConditionalData",
    "LabelledData",
    "OverlappingClassData",
    "RegressionData",
    "SeededGenerator",
    "SeparableData",
    "class_conditional_datasets",
    "finite_floats",
    "labelled_datasets",
    "nonseparable_datasets",
    "overlapping_classification_datasets",
    "regression_datasets",
    "rngs",
    "separable_datasets",
    "spd_matrices",
]
