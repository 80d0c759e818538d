"""Symbolic derivations of the clustering family, registered as claims."""
