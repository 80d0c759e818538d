"""Placeholder: filled in by issue 14 (003 Chapter 3)."""

__all__: list[str] = []
