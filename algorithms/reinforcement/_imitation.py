"""Placeholder: filled in by its part of the reinforcement family."""

__all__: list[str] = []
