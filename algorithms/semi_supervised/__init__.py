"""Semi-supervised learning (003 Chapter 11).

Unlabelled training samples carry the label ``-1`` (``algorithms._validation.UNLABELLED``),
as in scikit-learn.

- pool-based active learning (§11.1);
- the generative method (§11.2): a Gaussian mixture fitted by EM to labelled and
  unlabelled samples, (11.1)-(11.6);
- the transductive SVM (§11.3, Fig. 13.4);
- graph-based learning (§11.4): the affinity graph (11.7), its energy (11.8)-(11.9), the
  harmonic solution (11.10)-(11.12) and iterative label spreading (11.13)-(11.16);
- co-training (§11.5, Fig. 13.6);
- semi-supervised clustering (§11.6): constrained k-means (Fig. 13.7) and constrained
  seed k-means (Fig. 13.9).

The public names are those of each module's ``__all__``, listed there once.
"""

from algorithms.semi_supervised import (
    _active,
    _constrained,
    _cotraining,
    _generative,
    _graph,
    _tsvm,
)
from algorithms.semi_supervised._active import *  # noqa: F403 (names in _active.__all__)
from algorithms.semi_supervised._constrained import *  # noqa: F403 (names in _constrained.__all__)
from algorithms.semi_supervised._cotraining import *  # noqa: F403 (names in _cotraining.__all__)
from algorithms.semi_supervised._generative import *  # noqa: F403 (names in _generative.__all__)
from algorithms.semi_supervised._graph import *  # noqa: F403 (names in _graph.__all__)
from algorithms.semi_supervised._tsvm import *  # noqa: F403 (names in _tsvm.__all__)

__all__ = sorted(
    [
        *_active.__all__,
        *_constrained.__all__,
        *_cotraining.__all__,
        *_generative.__all__,
        *_graph.__all__,
        *_tsvm.__all__,
    ]
)
