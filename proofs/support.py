"""Helpers shared by the symbolic derivations of every family (no claims here)."""

from __future__ import annotations

import sympy as sp

__all__ = ["expand_logs"]


def expand_logs(expr: sp.Expr) -> sp.Expr:
    """Expand logarithms of products and powers, then the sum (``force=True``: the
    derivations' symbols are positive, so ``ln(ab) = ln a + ln b`` holds)."""
    return sp.expand(sp.expand_log(sp.sympify(expr), force=True))
