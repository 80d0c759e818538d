"""BLAS threading for the linear dimred algorithms (no public names).

The factorisations here (an SVD of the data table, a symmetric eigensolver of the kernel
matrix, the products of a brute-force neighbour search) are a few milliseconds on one
thread; on a loaded two-core machine OpenBLAS's busy-waiting threads made the same SVD
up to forty times slower. They run BLAS on one thread, through one cached
:class:`threadpoolctl.ThreadpoolController` (building one scans the loaded libraries).
"""

from __future__ import annotations

import functools
from contextlib import AbstractContextManager

from threadpoolctl import ThreadpoolController

__all__: list[str] = []


@functools.cache
def _controller() -> ThreadpoolController:
    return ThreadpoolController()


def one_blas_thread() -> AbstractContextManager:
    """A context in which BLAS runs on one thread."""
    return _controller().limit(limits=1, user_api="blas")
