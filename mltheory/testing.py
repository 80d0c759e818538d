"""Helpers for tests of checks: show that a check has teeth.

``assert_refutes(check)`` runs a check function (plain or ``@given``) through the
same runner and profile as a registered claim and asserts that it refutes;
``assert_holds(check)`` asserts the opposite. Teeth tests call the very check
body a claim uses, on a deliberately broken variant (a tightened bound, a
sign-flipped update).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from mltheory.claims import Claim, Method
from mltheory.results import Result, Verdict
from mltheory.rng import DEFAULT_SEED
from mltheory.runner import run_claim

__all__ = ["assert_holds", "assert_refutes", "run_check"]


def run_check(
    func: Callable[..., Any],
    *,
    profile: str = "quick",
    seed: int = DEFAULT_SEED,
    slow: bool = False,
    check_id: str = "teeth.check",
) -> Result:
    """Run an unregistered check function as if it were a claim expected to hold."""
    c = Claim(
        id=check_id,
        source="000 §0",
        statement="throw-away check used by a test",
        method=Method.PROPERTY,
        func=func,
        tags=("slow",) if slow else (),
    )
    return run_claim(c, profile=profile, seed=seed)


def assert_refutes(func: Callable[..., Any], **kwargs: Any) -> Result:
    """Assert the check refutes (raises AssertionError); returns the result with the
    counterexample."""
    r = run_check(func, **kwargs)
    if r.verdict is not Verdict.FAILED:
        raise AssertionError(
            f"expected the check to refute, got {r.verdict.value}: {r.reason}\n{r.error}"
        )
    return r


def assert_holds(func: Callable[..., Any], **kwargs: Any) -> Result:
    """Assert the check passes."""
    r = run_check(func, **kwargs)
    if r.verdict is not Verdict.VERIFIED:
        raise AssertionError(
            f"expected the check to hold, got {r.verdict.value}: {r.reason}\n"
            f"{r.counterexample}\n{r.error}"
        )
    return r
