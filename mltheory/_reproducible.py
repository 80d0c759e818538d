"""Keep Hypothesis' example generation a function of the seed alone.

Recent Hypothesis versions mix literal constants found in the source of *local*
modules (this project, the user's own code) into generated data, rescanning
whenever ``sys.modules`` grows, and cache the result. A claim's examples would then
depend on which project modules happen to be loaded when it runs: the order of
claims, pytest-xdist's scheduling, a module imported by an earlier check, or an
unrelated edit elsewhere in the tree. Same seed, same report requires otherwise, so
while a claim runs the local-constant pool is empty (Hypothesis' built-in constants,
such as 0, -1, inf and boundary values, stay in use).

This touches Hypothesis internals; if they move, the guard does nothing and
``tests/test_framework_runner.py`` reports the lost reproducibility.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

__all__ = ["seed_only_generation"]


@contextlib.contextmanager
def seed_only_generation() -> Iterator[None]:
    try:
        from hypothesis.internal.conjecture import providers

        original = providers._get_local_constants
        cache = providers.CONSTANTS_CACHE
        fresh_cache = type(cache)(cache.max_size)  # what the module caches per choice type
        empty = providers.Constants()
    except (ImportError, AttributeError, TypeError):  # pragma: no cover - a future Hypothesis
        yield
        return
    providers._get_local_constants = lambda: empty
    providers.CONSTANTS_CACHE = fresh_cache
    try:
        yield
    finally:
        providers._get_local_constants = original
        providers.CONSTANTS_CACHE = cache
