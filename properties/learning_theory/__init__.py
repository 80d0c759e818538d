"""Claims of the learning theory family."""
