"""Clustering (003 Chapter 7).

- validity indices (§7.2): the external indices JC, FMI, RI from the contingency table
  (7.1)-(7.4), the internal indices DBI and DI with avg/diam/d_min/d_cen (7.5)-(7.10);
- distances (§7.3): Minkowski (7.11)-(7.13, weighted), VDM (7.14), MinkovDM (7.15);
- prototype clustering (§7.4): :class:`KMeans` (Algorithm 1, (7.16)), :class:`LVQ`
  (Fig 9.4), :class:`GaussianMixtureClustering` (Fig 9.6, (7.17)-(7.27), on the generic EM
  driver of :mod:`algorithms.bayes`);
- density clustering (§7.5): :class:`DBSCAN` (Fig 9.9);
- hierarchical clustering (§7.6): :class:`AGNES` (Fig 9.11, single/complete/average
  linkage with Lance-Williams updates).

The public names are those of each module's ``__all__``, listed there once.
"""

from algorithms.clustering import _agnes, _dbscan, _distances, _gmm, _indices, _kmeans, _lvq
from algorithms.clustering._agnes import *  # noqa: F403 (names in _agnes.__all__)
from algorithms.clustering._dbscan import *  # noqa: F403 (names in _dbscan.__all__)
from algorithms.clustering._distances import *  # noqa: F403 (names in _distances.__all__)
from algorithms.clustering._gmm import *  # noqa: F403 (names in _gmm.__all__)
from algorithms.clustering._indices import *  # noqa: F403 (names in _indices.__all__)
from algorithms.clustering._kmeans import *  # noqa: F403 (names in _kmeans.__all__)
from algorithms.clustering._lvq import *  # noqa: F403 (names in _lvq.__all__)

__all__ = sorted(
    [
        *_indices.__all__,
        *_distances.__all__,
        *_kmeans.__all__,
        *_lvq.__all__,
        *_gmm.__all__,
        *_dbscan.__all__,
        *_agnes.__all__,
    ]
)
