"""Reinforcement learning (003 Chapter 14).

The public names are those of each module's ``__all__``, listed there once.
"""

from algorithms.reinforcement import (
    _mdp,
)
from algorithms.reinforcement._mdp import *  # noqa: F403 (names in _mdp.__all__)

__all__ = sorted(
    [
        *_mdp.__all__,
    ]
)
