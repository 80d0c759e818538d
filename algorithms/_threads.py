"""BLAS threading shared by every family (no public names).

OpenBLAS's threads cost more than they save on thin products (k-means, small mixtures,
the EM loops of small problems), and far more on a loaded machine, so such loops run
BLAS on one thread. The limit goes through one cached
:class:`threadpoolctl.ThreadpoolController`: building a controller scans the loaded
libraries (~0.1-2 ms), limiting through it costs microseconds.
"""

from __future__ import annotations

import contextlib
import functools
from contextlib import AbstractContextManager

import numpy as np
from threadpoolctl import ThreadpoolController

__all__: list[str] = []


@functools.cache
def _controller() -> ThreadpoolController:
    return ThreadpoolController()


def one_blas_thread() -> AbstractContextManager:
    """A context in which BLAS runs on one thread."""
    return _controller().limit(limits=1, user_api="blas")


#: Below this many multiply-adds per product (``m n^2`` for an (m, n) table) BLAS runs on
#: one thread: its threads cost more than they save on products this small (a 1797 x 64
#: mixture ran 15x slower with two threads on a loaded machine).
SINGLE_THREAD_WORK = 5e7


def blas_threads_for(X: np.ndarray) -> AbstractContextManager:
    """One BLAS thread for a table ``X`` too small to gain from more, else no limit."""
    if X.shape[0] * X.shape[1] ** 2 < SINGLE_THREAD_WORK:
        return one_blas_thread()
    return contextlib.nullcontext()
