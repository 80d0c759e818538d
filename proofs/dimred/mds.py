"""Symbolic derivation of classical MDS's inner products, 003 §8.2 (8.1)-(8.3).

Four centred points in the plane with symbolic coordinates (the fourth is minus the sum of
the others, so sum_i z_i = 0): (8.1) for every pair, the vanishing row and column sums of
B that centring gives, the three means of (8.2) in terms of B, and (8.3). The result is
cross-checked numerically against :func:`algorithms.dimred.double_centering`.
"""

from __future__ import annotations

import numpy as np
import sympy as sp

from algorithms.dimred import double_centering
from mltheory import Method, claim
from mltheory.numeric import LINEAR_ALGEBRA, assert_close
from mltheory.symbolic import Derivation

M_POINTS = 4
_free = [sp.Matrix(sp.symbols(f"a{i} b{i}", real=True)) for i in range(M_POINTS - 1)]
Z = _free + [-sum(_free, sp.zeros(2, 1))]  # centred: z_4 = -(z_1 + z_2 + z_3)


def _b(i: int, j: int) -> sp.Expr:
    return (Z[i].T * Z[j])[0]


def _dist2(i: int, j: int) -> sp.Expr:
    diff = Z[i] - Z[j]
    return (diff.T * diff)[0]


@claim(
    id="mds.double_centering_derivation",
    source="003 §8.2 (8.1)-(8.3)",
    statement="For centred points (sum_i z_i = 0) with b_ij = z_i^T z_j: dist_ij^2 = b_ii + "
    "b_jj - 2 b_ij (8.1); sum_i b_ij = sum_j b_ij = 0; with the means of (8.2), dist_i.^2 = "
    "b_ii + tr(B)/m, dist_.j^2 = b_jj + tr(B)/m, dist_..^2 = 2 tr(B)/m; hence b_ij = "
    "-1/2 (dist_ij^2 - dist_i.^2 - dist_.j^2 + dist_..^2) (8.3).",
    method=Method.SYMBOLIC,
    tags=("dimred", "mds", "symbolic"),
)
def double_centering_derivation():
    m = M_POINTS
    idx = range(m)
    tr = sum(_b(i, i) for i in idx)
    d = Derivation("(8.1) -> (8.3) for 4 centred points in the plane")
    for i in idx:
        for j in idx:
            d.equal(f"(8.1) for (i, j) = ({i + 1}, {j + 1})", _dist2(i, j),
                    _b(i, i) + _b(j, j) - 2 * _b(i, j))
    for j in idx:
        d.equal(f"sum_i b_i{j + 1} = 0", sum(_b(i, j) for i in idx), 0,
                because="sum_i z_i = 0")
    row = [sum(_dist2(i, j) for j in idx) / m for i in idx]
    col = [sum(_dist2(i, j) for i in idx) / m for j in idx]
    grand = sum(_dist2(i, j) for i in idx for j in idx) / m**2
    for i in idx:
        d.equal(f"dist_{i + 1}.^2 = b_ii + tr(B)/m", row[i], _b(i, i) + tr / m)
        d.equal(f"dist_.{i + 1}^2 = b_jj + tr(B)/m", col[i], _b(i, i) + tr / m)
    d.equal("dist_..^2 = 2 tr(B)/m", grand, 2 * tr / m)
    for i in idx:
        for j in idx:
            d.equal(f"(8.3) for (i, j) = ({i + 1}, {j + 1})", _b(i, j),
                    -sp.Rational(1, 2) * (_dist2(i, j) - row[i] - col[j] + grand))
    d.verify()
    values = dict(zip([s for v in _free for s in v], [0.3, -1.2, 2.0, 0.7, -0.4, 1.1],
                      strict=True))
    pts = np.array([[float(c.subs(values)) for c in z] for z in Z])
    D = np.sqrt(((pts[:, None] - pts[None]) ** 2).sum(axis=-1))
    B = np.array([[float(_b(i, j).subs(values)) for j in idx] for i in idx])
    assert_close(double_centering(D), B, LINEAR_ALGEBRA, scale=float(np.max(np.abs(B))),
                 label="|double_centering(D) - symbolic B|")
