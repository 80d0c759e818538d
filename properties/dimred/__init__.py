"""Claims of Dimensionality reduction and metric learning (003 Chapter 8)."""
