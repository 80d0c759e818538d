"""Symbolic derivations of the perceptron family, registered as claims."""
