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
- it copies with explicit loops, not slice assignments (``a[i, :] = v`` compiles about
  ten times slower, seconds per kernel on a fresh machine);
- random draws are made by the caller with the estimator's numpy Generator, in blocks
  (a permutation per pass, a block of uniforms), and passed in, so a seeded run is
  identical to the pure-Python reference loop that the family keeps next to it.
"""

from __future__ import annotations

import numba
import numpy as np

__all__ = ["grown", "grown_rows", "kernel", "row_dot"]


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
    for i in range(size):  # an explicit loop: a slice assignment compiles ~10x slower
        bigger[i] = buffer[i]
    return bigger


@kernel
def grown_rows(buffer: np.ndarray, needed: int) -> np.ndarray:
    """:func:`grown` for the rows of a 2-d ``buffer``."""
    size = buffer.shape[0]
    if needed <= size:
        return buffer
    bigger = np.empty((max(needed, 2 * size), buffer.shape[1]), dtype=buffer.dtype)
    for i in range(size):
        for j in range(buffer.shape[1]):
            bigger[i, j] = buffer[i, j]
    return bigger


@kernel
def row_dot(A: np.ndarray, i: int, v: np.ndarray) -> float:
    """``A[i] . v`` summed in four interleaved partial sums (entries ``j mod 4``), then
    ``(s0 + s1) + (s2 + s3)``: a fixed order (the result does not depend on the machine),
    and four independent dependency chains instead of one, which matters when a branch
    on the result follows (a mistake test)."""
    d = v.shape[0]
    s0 = s1 = s2 = s3 = 0.0
    j = 0
    while j + 4 <= d:
        s0 += A[i, j] * v[j]
        s1 += A[i, j + 1] * v[j + 1]
        s2 += A[i, j + 2] * v[j + 2]
        s3 += A[i, j + 3] * v[j + 3]
        j += 4
    if j < d:
        s0 += A[i, j] * v[j]
    if j + 1 < d:
        s1 += A[i, j + 1] * v[j + 1]
    if j + 2 < d:
        s2 += A[i, j + 2] * v[j + 2]
    return (s0 + s1) + (s2 + s3)
