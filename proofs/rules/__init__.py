"""Symbolic derivations of Rule learning (003 Chapter 13)."""
