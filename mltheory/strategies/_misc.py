"""Small general-purpose strategies."""

from __future__ import annotations

import numpy as np
from hypothesis import strategies as st

__all__ = ["SeededGenerator", "rngs"]


class SeededGenerator:
    """A numpy Generator that remembers its seed, so a counterexample can name it."""

    def __init__(self, seed: int) -> None:
        self.seed = int(seed)
        self.generator = np.random.default_rng(self.seed)

    def __repr__(self) -> str:
        return f"SeededGenerator(seed={self.seed})"

    def __getattr__(self, name: str):  # delegate to the Generator
        return getattr(self.generator, name)


def rngs() -> st.SearchStrategy[SeededGenerator]:
    """Seeded numpy Generators for checks that need extra randomness inside an example.

    The seed is drawn by Hypothesis, so examples stay reproducible and shrinkable.
    """
    return st.integers(0, 2**32 - 1).map(SeededGenerator)
