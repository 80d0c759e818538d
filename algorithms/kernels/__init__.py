"""Kernel functions (003 §4.3, Table 6.1), closure rules (4.21)-(4.23) and kernel methods
(kernel ridge regression (4.44)-(4.45), kernel LDA (4.46)-(4.53)).

The public names are those of each module's ``__all__``, listed there once.
"""

from algorithms.kernels import _kernel_ridge, _kernels, _klda
from algorithms.kernels._kernel_ridge import *  # noqa: F403 (names in _kernel_ridge.__all__)
from algorithms.kernels._kernels import *  # noqa: F403 (names in _kernels.__all__)
from algorithms.kernels._klda import *  # noqa: F403 (names in _klda.__all__)

__all__ = sorted([*_kernels.__all__, *_kernel_ridge.__all__, *_klda.__all__])
