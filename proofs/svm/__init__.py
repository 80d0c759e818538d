"""Symbolic derivations of the svm family, registered as claims."""
