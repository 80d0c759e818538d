"""Compiled sequential loops shared by every family (no public names).

The notes' algorithms whose heart is a per-sample loop (the perceptron's updates, SMO's
pair steps, TD/Q-learning steps, samplers...) run in numba kernels declared with
:func:`kernel`: ``numba.njit(cache=True)``, so a kernel compiles once per machine and is
loaded from the on-disk cache afterwards. Conventions (CONTRIBUTING.md, "Compiled
kernels"):

- a kernel takes and returns only numbers and numpy arrays of fixed dtypes (float64,
  ``np.intp``, bool), C-contiguous, so that one compiled specialisation serves every call;
- it does no validation, raises nothing and allocates only through :func:`grown` /
  :func:`grown_rows` (buffers that double when full);
- random draws are made by the caller with the estimator's numpy Generator, in blocks
  (a permutation per pass, a block of uniforms), and passed in, so a seeded run is
  identical to the pure-Python reference loop that the family keeps next to it.
"""

from __future__ import annotations

import numba
import numpy as np

__all__ = ["grown", "grown_rows", "kernel"]


def kernel(function):
    """Compile ``function`` with ``numba.njit(cache=True)`` (compiled on first call, cached
    on disk next to the module's ``__pycache__``)."""
    return numba.njit(cache=True)(function)


@kernel
def grown(buffer: np.ndarray, needed: int) -> np.ndarray:
    """``buffer`` itself when it holds ``needed`` entries, else a copy at least twice as
    long (the first ``len(buffer)`` entries kept)."""
    size = buffer.shape[0]
    if needed <= size:
        return buffer
    bigger = np.empty(max(needed, 2 * size), dtype=buffer.dtype)
    bigger[:size] = buffer
    return bigger


@kernel
def grown_rows(buffer: np.ndarray, needed: int) -> np.ndarray:
    """:func:`grown` for the rows of a 2-d ``buffer``."""
    size = buffer.shape[0]
    if needed <= size:
        return buffer
    bigger = np.empty((max(needed, 2 * size), buffer.shape[1]), dtype=buffer.dtype)
    bigger[:size] = buffer
    return bigger
