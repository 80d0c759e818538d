"""Symbolic derivations of the linear family."""
