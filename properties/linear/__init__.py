"""Claims of the linear family."""
