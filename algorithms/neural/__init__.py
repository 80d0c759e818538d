"""Neural networks (003 Chapter 3).

- activations and the M-P neuron (§3.1, (3.1)); the threshold-unit perceptron rule
  (§3.2, (3.2));
- multi-layer sigmoid networks trained by standard and accumulated back-propagation
  (§3.3, (3.3)-(3.13)), with early stopping and weight decay, and the local-minimum
  escapes of §3.4;
- the other networks of §3.5: RBF (3.14), ART, SOM, cascade-correlation, Elman, and
  Boltzmann machines / RBMs.

The public names are those of each module's ``__all__``, listed there once.
"""

from algorithms.neural import (
    _activations,
    _art,
    _boltzmann,
    _bp,
    _cascade,
    _elman,
    _escape,
    _neuron,
    _rbf,
    _som,
)
from algorithms.neural._activations import *  # noqa: F403 (names in _activations.__all__)
from algorithms.neural._art import *  # noqa: F403 (names in _art.__all__)
from algorithms.neural._boltzmann import *  # noqa: F403 (names in _boltzmann.__all__)
from algorithms.neural._bp import *  # noqa: F403 (names in _bp.__all__)
from algorithms.neural._cascade import *  # noqa: F403 (names in _cascade.__all__)
from algorithms.neural._elman import *  # noqa: F403 (names in _elman.__all__)
from algorithms.neural._escape import *  # noqa: F403 (names in _escape.__all__)
from algorithms.neural._neuron import *  # noqa: F403 (names in _neuron.__all__)
from algorithms.neural._rbf import *  # noqa: F403 (names in _rbf.__all__)
from algorithms.neural._som import *  # noqa: F403 (names in _som.__all__)

__all__ = sorted(
    [
        *_activations.__all__,
        *_neuron.__all__,
        *_bp.__all__,
        *_escape.__all__,
        *_rbf.__all__,
        *_art.__all__,
        *_som.__all__,
        *_cascade.__all__,
        *_elman.__all__,
        *_boltzmann.__all__,
    ]
)
