"""Textbook machine-learning algorithms, one family per sub-package."""
