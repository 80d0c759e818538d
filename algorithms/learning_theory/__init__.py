"""Computational learning theory made executable (003 Chapter 9; 000 §1.2).

- bounds of Chapter 9 as validated plain functions (Hoeffding, McDiarmid,
  finite-class PAC, agnostic, Sauer, VC, Rademacher, stability);
- dichotomies, shattering, growth functions and VC dimensions by enumeration,
  with half-space separability decided exactly (linear programs propose
  certificates, checked in rational arithmetic; exact Radon partitions);
- empirical Rademacher complexity, exactly and by Monte Carlo;
- learning on a finite domain (exact errors, version spaces, ERM), vectorised
  over many simulated training sets;
- uniform stability of ridge regression, measured by refitting.

The public names are those of each module's ``__all__``, listed there once.
"""

from algorithms.learning_theory import _bounds, _finite, _growth, _rademacher, _stability
from algorithms.learning_theory._bounds import *  # noqa: F403 (names in _bounds.__all__)
from algorithms.learning_theory._finite import *  # noqa: F403 (names in _finite.__all__)
from algorithms.learning_theory._growth import *  # noqa: F403 (names in _growth.__all__)
from algorithms.learning_theory._rademacher import *  # noqa: F403 (in _rademacher.__all__)
from algorithms.learning_theory._stability import *  # noqa: F403 (in _stability.__all__)

__all__ = sorted(
    [
        *_bounds.__all__,
        *_finite.__all__,
        *_growth.__all__,
        *_rademacher.__all__,
        *_stability.__all__,
    ]
)
