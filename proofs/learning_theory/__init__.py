"""Symbolic derivations of the learning theory family, registered as claims."""
