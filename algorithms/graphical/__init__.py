"""Probabilistic graphical models (003 Chapter 12).

The public names are those of each module's ``__all__``, listed there once.
"""

from algorithms.graphical import (
    _crf,
    _hmm,
    _inference,
    _mrf,
    _sampling,
    _topics,
    _variational,
)
from algorithms.graphical._crf import *  # noqa: F403 (names in _crf.__all__)
from algorithms.graphical._hmm import *  # noqa: F403 (names in _hmm.__all__)
from algorithms.graphical._inference import *  # noqa: F403 (names in _inference.__all__)
from algorithms.graphical._mrf import *  # noqa: F403 (names in _mrf.__all__)
from algorithms.graphical._sampling import *  # noqa: F403 (names in _sampling.__all__)
from algorithms.graphical._topics import *  # noqa: F403 (names in _topics.__all__)
from algorithms.graphical._variational import *  # noqa: F403 (names in _variational.__all__)

__all__ = sorted(
    [
        *_hmm.__all__,
        *_mrf.__all__,
        *_crf.__all__,
        *_inference.__all__,
        *_sampling.__all__,
        *_variational.__all__,
        *_topics.__all__,
    ]
)
