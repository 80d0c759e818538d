"""Symbolic derivations of the ensembles family, registered as claims."""
