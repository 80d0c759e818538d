"""Reinforcement learning (003 Chapter 14).

The public names are those of each module's ``__all__``, listed there once.
"""

from algorithms.reinforcement import (
    _approximation,
    _bandits,
    _imitation,
    _mdp,
    _monte_carlo,
    _planning,
    _td,
)
from algorithms.reinforcement._approximation import *  # noqa: F403 (names in _approximation.__all__)
from algorithms.reinforcement._bandits import *  # noqa: F403 (names in _bandits.__all__)
from algorithms.reinforcement._imitation import *  # noqa: F403 (names in _imitation.__all__)
from algorithms.reinforcement._mdp import *  # noqa: F403 (names in _mdp.__all__)
from algorithms.reinforcement._monte_carlo import *  # noqa: F403 (names in _monte_carlo.__all__)
from algorithms.reinforcement._planning import *  # noqa: F403 (names in _planning.__all__)
from algorithms.reinforcement._td import *  # noqa: F403 (names in _td.__all__)

__all__ = sorted(
    [
        *_mdp.__all__,
        *_planning.__all__,
        *_bandits.__all__,
        *_monte_carlo.__all__,
        *_td.__all__,
        *_approximation.__all__,
        *_imitation.__all__,
    ]
)
