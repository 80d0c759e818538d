"""Perceptron family (notes 000 §1.3-1.5, 001, 002, 004 §5).

- :class:`Perceptron`: primal PLA (Lin's cyclic PLA / Li Hang's SGD form).
- :class:`DualPerceptron`: dual form with a Gram matrix or a kernel.
- :class:`PocketPerceptron`: pocket PLA for non-separable data (002).
- :class:`NotesPocket`: the pocket code printed in 000 §1.5, bugs included (erratum exhibit).
- :func:`functional_margins`, :func:`perceptron_loss`.
"""

from ._dual import DualPerceptron
from ._functions import functional_margins, perceptron_loss
from ._notes_pocket import NotesPocket
from ._pocket import PocketPerceptron
from ._primal import Perceptron

__all__ = [
    "DualPerceptron",
    "NotesPocket",
    "Perceptron",
    "PocketPerceptron",
    "functional_margins",
    "perceptron_loss",
]
