"""Kernel functions (003 §4.3, Table 6.1), closure rules (4.21)-(4.23) and kernel methods
(kernel ridge regression (4.44)-(4.45), kernel LDA (4.46)-(4.53))."""

from algorithms.kernels._kernel_ridge import KernelRidge
from algorithms.kernels._kernels import (
    GaussianKernel,
    Kernel,
    LaplacianKernel,
    LinearKernel,
    PolynomialKernel,
    ProductKernel,
    ScaledByFunctionKernel,
    SigmoidKernel,
    SumKernel,
    gram_matrix,
    make_kernel,
    squared_distances,
)
from algorithms.kernels._klda import KernelLDA, klda_matrices

__all__ = [
    "GaussianKernel",
    "Kernel",
    "KernelLDA",
    "KernelRidge",
    "LaplacianKernel",
    "LinearKernel",
    "PolynomialKernel",
    "ProductKernel",
    "ScaledByFunctionKernel",
    "SigmoidKernel",
    "SumKernel",
    "gram_matrix",
    "klda_matrices",
    "make_kernel",
    "squared_distances",
]
