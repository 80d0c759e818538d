"""Symbolic derivations of Probabilistic graphical models (003 Chapter 12)."""
