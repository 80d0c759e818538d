"""Symbolic derivations of Feature selection and sparse learning (003 Chapter 10)."""
