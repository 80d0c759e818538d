"""The protocol every ``benchmarks/bench_<family>.py`` follows for ``python -m benchmarks``.

A benchmark module exposes ``cases(quick: bool) -> list[BenchCase]``. The runner times
``ours`` and ``reference`` interleaved (ours, reference, ours, ...), with BLAS pinned to one
thread on both sides, repeats, reports medians, the ratio ours/reference and the objective
gap, and writes one JSON + Markdown table. ``setup`` runs once, untimed, before the timed
calls (data generation, warm-up such as a numba compilation); ``ours``/``reference`` take
its result.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

__all__ = ["BenchCase"]


@dataclass(frozen=True)
class BenchCase:
    """One timed comparison.

    Attributes
    ----------
    name : str
        What is measured, e.g. ``"SMOClassifier rbf vs SVC"``.
    n : int
        The problem size (samples, states, ...), shown in the table.
    ours, reference : callables taking the setup's result
        One timed call each; ``reference`` may be None (a lower bound or no reference:
        then ``reference_name`` says what the ratio is against, or only ours is timed).
    setup : callable returning the data, untimed
    objective_gap : callable(ours_result, reference_result) -> float, optional
        How far apart the two answers are (relative objective difference, max |Δ|, ...).
    repeats : int
        Timed repetitions of each side (median reported).
    params : dict
        Extra columns (d, kernel, |A|, density...).
    reference_name : str
        What the reference is (``"sklearn.svm.SVC"``, ``"one dense mat-vec"``).
    """

    name: str
    n: int
    ours: Callable[[Any], Any]
    reference: Callable[[Any], Any] | None
    setup: Callable[[], Any] = lambda: None
    objective_gap: Callable[[Any, Any], float] | None = None
    repeats: int = 3
    params: dict = field(default_factory=dict)
    reference_name: str = ""
