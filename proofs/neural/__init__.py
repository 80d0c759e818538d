"""Symbolic derivations of 003 Chapter 3 (neural networks)."""
