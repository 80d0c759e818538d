"""Dimensionality reduction and metric learning (003 Chapter 8).

The public names are those of each module's ``__all__``, listed there once.
"""

from algorithms.dimred import (
    _isomap,
    _knn,
    _kpca,
    _lle,
    _mds,
    _metric,
    _nca,
    _pca,
)
from algorithms.dimred._isomap import *  # noqa: F403 (names in _isomap.__all__)
from algorithms.dimred._knn import *  # noqa: F403 (names in _knn.__all__)
from algorithms.dimred._kpca import *  # noqa: F403 (names in _kpca.__all__)
from algorithms.dimred._lle import *  # noqa: F403 (names in _lle.__all__)
from algorithms.dimred._mds import *  # noqa: F403 (names in _mds.__all__)
from algorithms.dimred._metric import *  # noqa: F403 (names in _metric.__all__)
from algorithms.dimred._nca import *  # noqa: F403 (names in _nca.__all__)
from algorithms.dimred._pca import *  # noqa: F403 (names in _pca.__all__)

__all__ = sorted(
    [
        *_knn.__all__,
        *_pca.__all__,
        *_kpca.__all__,
        *_mds.__all__,
        *_isomap.__all__,
        *_lle.__all__,
        *_metric.__all__,
        *_nca.__all__,
    ]
)
