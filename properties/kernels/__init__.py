"""Claims of the kernels family."""
