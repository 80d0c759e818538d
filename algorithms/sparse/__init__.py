"""Feature selection and sparse learning (003 Chapter 10).

The public names are those of each module's ``__all__``, listed there once.
"""

from algorithms.sparse import (
    _completion,
    _cs,
    _dictionary,
    _lvw,
    _pgd,
    _relief,
    _subset,
)
from algorithms.sparse._completion import *  # noqa: F403 (names in _completion.__all__)
from algorithms.sparse._cs import *  # noqa: F403 (names in _cs.__all__)
from algorithms.sparse._dictionary import *  # noqa: F403 (names in _dictionary.__all__)
from algorithms.sparse._lvw import *  # noqa: F403 (names in _lvw.__all__)
from algorithms.sparse._pgd import *  # noqa: F403 (names in _pgd.__all__)
from algorithms.sparse._relief import *  # noqa: F403 (names in _relief.__all__)
from algorithms.sparse._subset import *  # noqa: F403 (names in _subset.__all__)

__all__ = sorted(
    [
        *_subset.__all__,
        *_relief.__all__,
        *_lvw.__all__,
        *_pgd.__all__,
        *_cs.__all__,
        *_dictionary.__all__,
        *_completion.__all__,
    ]
)
