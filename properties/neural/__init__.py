"""Claims of 003 Chapter 3 (neural networks)."""
