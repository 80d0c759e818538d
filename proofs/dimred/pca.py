"""Symbolic derivation of PCA's reconstruction identity, 003 §8.3 (8.8)-(8.10).

Two symbolic samples in R^2 and a symbolic unit vector W = (c, s), with the constraint
c^2 + s^2 = 1 applied as the identities s^2 -> 1 - c^2, s^3 -> s (1 - c^2), s^4 ->
(1 - c^2)^2 after expansion (the expressions are polynomials of degree <= 4 in W). A
3 x 2 frame from the Cayley transform of a skew-symmetric matrix works too but took sympy
minutes; the algebra of (8.8) is the same in every dimension. Each
equality of (8.8) is checked with sympy, then the consequence used by (8.9)-(8.10): the
error plus the projected variance is the constant sum ||x_i||^2. The identity is
cross-checked numerically against :class:`algorithms.dimred.PCA`.
"""

from __future__ import annotations

import numpy as np
import sympy as sp

from algorithms.dimred import PCA
from mltheory import Method, claim
from mltheory.numeric import LINEAR_ALGEBRA, assert_close
from mltheory.symbolic import Derivation

D, D_PRIME = 2, 1
_c, _s = sp.symbols("c s", real=True)
W = sp.Matrix([_c, _s])  # a unit vector under UNIT
UNIT = {_s**4: (1 - _c**2) ** 2, _s**3: _s * (1 - _c**2), _s**2: 1 - _c**2}
XS = [sp.Matrix(sp.symbols(f"x{i}_1:{D + 1}", real=True)) for i in (1, 2)]


def _sq(v: sp.Matrix) -> sp.Expr:
    return (v.T * v)[0]


def reconstruction_steps(*, const_factor=1, trace_sign=-1) -> Derivation:
    """The steps of (8.8)-(8.10); the teeth tests scale the constant or flip the trace's
    sign (the notes: 1 and -1)."""
    Z = [W.T * x for x in XS]
    error = sum(_sq(W * z - x) for z, x in zip(Z, XS, strict=True))
    const = const_factor * sum(_sq(x) for x in XS)
    scatter = sum((x * x.T for x in XS), sp.zeros(D, D))
    trace = (W.T * scatter * W).trace()
    d = Derivation("(8.8)-(8.10) with W = (c, s), c^2 + s^2 = 1", identities=UNIT)
    d.equal("W^T W = I", W.T * W, sp.eye(D_PRIME), because="c^2 + s^2 = 1")
    d.equal("(8.8) expansion", error,
            sum(_sq(z) - 2 * (z.T * W.T * x)[0] for z, x in zip(Z, XS, strict=True)) + const,
            because="||W z||^2 = z^T W^T W z = z^T z")
    d.equal("(8.8) trace form", error, trace_sign * trace + const,
            because="W^T x_i = z_i, so the middle terms are -sum_i ||z_i||^2 = "
            "-tr(W^T (sum_i x_i x_i^T) W)")
    d.equal("(8.9) <-> (8.10): error + variance is constant", error + trace, const)
    return d


@claim(
    id="pca.reconstruction_derivation",
    source="003 §8.3 (8.8)-(8.10)",
    statement="For W with orthonormal columns and z_i = W^T x_i: sum_i ||sum_j z_ij w_j - "
    "x_i||^2 = sum_i z_i^T z_i - 2 sum_i z_i^T W^T x_i + sum_i ||x_i||^2 = "
    "-tr(W^T (sum_i x_i x_i^T) W) + sum_i ||x_i||^2, so minimising the error (8.9) and "
    "maximising tr(W^T X X^T W) (8.10) are the same problem.",
    method=Method.SYMBOLIC,
    tags=("dimred", "pca", "symbolic"),
)
def reconstruction_derivation():
    reconstruction_steps().verify()
    # numeric cross-check: the fitted PCA frame on data with an offset mean
    rng = np.random.default_rng(8)
    X = rng.normal(size=(12, 3)) * np.array([3.0, 1.0, 0.2]) + 5.0
    est = PCA(n_components=2).fit(X)
    Xc = X - est.mean_
    Wn = est.components_.T
    numeric_error = float(np.sum((Xc @ Wn @ Wn.T - Xc) ** 2))
    assert_close(numeric_error, -np.trace(Wn.T @ Xc.T @ Xc @ Wn) + np.sum(Xc**2),
                 LINEAR_ALGEBRA, label="numeric (8.8) on a fitted PCA")
    assert_close(est.reconstruction_error(X), numeric_error, LINEAR_ALGEBRA,
                 label="PCA.reconstruction_error vs (8.8)")
