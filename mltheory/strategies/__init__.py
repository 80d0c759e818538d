"""Chapter-agnostic Hypothesis strategies that *construct* valid inputs (see DESIGN.md).

Labelled, separable and certified non-separable datasets; SPD matrices with a drawn
condition number; seeded generators. Strategies that belong to one chapter live
beside that chapter's claims (``properties/<family>/strategies.py``).
"""

from mltheory.strategies._datasets import (
    Design,
    LabelledData,
    SeparableData,
    finite_floats,
    labelled_datasets,
    nonseparable_datasets,
    separable_datasets,
)
from mltheory.strategies._matrices import spd_matrices, spd_with_condition
from mltheory.strategies._misc import SeededGenerator, rngs

__all__ = [
    "Design",
    "LabelledData",
    "SeededGenerator",
    "SeparableData",
    "finite_floats",
    "labelled_datasets",
    "nonseparable_datasets",
    "rngs",
    "separable_datasets",
    "spd_matrices",
    "spd_with_condition",
]
