"""BLAS threading shared by every family (no public names).

OpenBLAS's threads cost more than they save on thin products (k-means, small mixtures,
the EM loops of small problems), and far more on a loaded machine, so such loops run
BLAS on one thread. The
limit goes through one cached :class:`threadpoolctl.ThreadpoolController`: building a
controller scans the loaded libraries (~0.1-2 ms), limiting through it costs microseconds.
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
