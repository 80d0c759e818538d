"""Symbolic derivations of semi-supervised learning (003 Chapter 11)."""
