"""Symbolic derivations of the bayes family, registered as claims."""
