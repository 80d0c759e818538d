"""Symbolic derivations from the lecture notes, registered as claims."""
