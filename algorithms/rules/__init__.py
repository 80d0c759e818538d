"""Rule learning (003 Chapter 13).

The public names are those of each module's ``__all__``, listed there once.
"""

from algorithms.rules import (
    _covering,
    _foil,
    _lgg,
)
from algorithms.rules._covering import *  # noqa: F403 (names in _covering.__all__)
from algorithms.rules._foil import *  # noqa: F403 (names in _foil.__all__)
from algorithms.rules._lgg import *  # noqa: F403 (names in _lgg.__all__)

__all__ = sorted(
    [
        *_covering.__all__,
        *_foil.__all__,
        *_lgg.__all__,
    ]
)
