"""Symbolic derivations of the trees family, registered as claims."""
