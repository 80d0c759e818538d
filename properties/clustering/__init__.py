"""Claims of 003 Chapter 7 (clustering)."""
