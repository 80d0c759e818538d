"""Symbolic checks for LDA: the Lagrangian derivation of the two-class direction
(004 §4.1.2 (3); 003 §1.6 (1.25)-(1.26)) and the scatter decomposition S_t = S_w + S_b
(003 §1.7 (1.27)).

The within-class scatter is written through its Cholesky factor, S_w = L L^T with
L = [[p, 0], [q, r]], p, r > 0: every positive definite 2 x 2 matrix has this form, and
the symbols' assumptions make det S_w = p^2 r^2 provably positive.
"""

from __future__ import annotations

import numpy as np
import sympy as sp

from algorithms.linear import LinearDiscriminantAnalysis, rayleigh_quotient, scatter_matrices
from mltheory import Method, claim, evidence
from mltheory.numeric import LINEAR_ALGEBRA, assert_close
from mltheory.symbolic import Derivation

p, r = sp.symbols("p r", positive=True)
q = sp.Symbol("q", real=True)
w1, w2, d1, d2, v1, v2, lam = sp.symbols("w1 w2 d1 d2 v1 v2 lambda", real=True)
c_scale = sp.Symbol("c", nonzero=True, real=True)

L_FACTOR = sp.Matrix([[p, 0], [q, r]])
S_W = L_FACTOR * L_FACTOR.T
DELTA = sp.Matrix([d1, d2])  # mu_0 - mu_1
S_B = DELTA * DELTA.T  # (1.24)


def _quad(x: sp.Matrix, A: sp.Matrix) -> sp.Expr:
    return sp.expand((x.T * A * x)[0, 0])


def lagrangian_derivation(w_star: sp.Matrix | None = None) -> Derivation:
    """The steps of 004 §4.1.2 (3), each checked by sympy.

    ``w_star`` defaults to the note's (1.26) ``S_w^-1 (mu_0 - mu_1)``; teeth tests pass
    a wrong direction.
    """
    w = sp.Matrix([w1, w2])
    lagrangian = -_quad(w, S_B) + lam * (_quad(w, S_W) - 1)
    grad = -2 * S_B * w + 2 * lam * S_W * w
    if w_star is None:
        w_star = S_W.inv() * DELTA  # (1.26), S_w^-1 via the adjugate
    lam_w = (DELTA.T * w_star)[0, 0]  # the note's lambda_w = (mu_0 - mu_1)^T w
    v = sp.Matrix([v1, v2])
    J = lambda x: _quad(x, S_B) / _quad(x, S_W)  # noqa: E731 - the note's J
    cs_slack = sp.factor(_quad(v, S_W) * lam_w - (DELTA.T * v)[0, 0] ** 2)

    d = Derivation("LDA two-class Lagrangian (004 §4.1.2 (3))")
    for k in range(2):
        d.equal(f"dL/dw_{k + 1} = (-2 S_b w + 2 lambda S_w w)_{k + 1}",
                sp.diff(lagrangian, [w1, w2][k]), grad[k])
    for k in range(2):
        d.equal(f"S_b w = ((mu_0 - mu_1)^T w) (mu_0 - mu_1), component {k + 1}",
                (S_B * w)[k], (DELTA.T * w)[0, 0] * DELTA[k])
    residual = S_B * w_star - lam_w * S_W * w_star
    for k in range(2):
        d.equal(f"w* = S_w^-1 (mu_0 - mu_1) solves S_b w = lambda_w S_w w, component {k + 1}",
                residual[k], 0)
    d.equal("J(w*) = lambda_w = (mu_0 - mu_1)^T S_w^-1 (mu_0 - mu_1)", J(w_star), lam_w)
    d.equal("J(c w) = J(w) for c != 0", J(c_scale * w), J(w))
    d.leq("J(v) <= J(w*) for every v != 0 (Cauchy-Schwarz in the S_w metric)",
          (DELTA.T * v)[0, 0] ** 2, _quad(v, S_W) * lam_w, slack=cs_slack,
          because="v^T S_w v * d^T S_w^-1 d - (d^T v)^2 is a square over det S_w = p^2 r^2 > 0")
    return d


@claim(
    id="lda.lagrangian_derivation",
    source="004 §4.1.2 (3); 003 §1.6 (1.25)-(1.26)",
    statement="Maximising w^T S_b w subject to w^T S_w w = 1 by a Lagrange multiplier gives "
    "S_b w = lambda S_w w; with S_b = (mu_0 - mu_1)(mu_0 - mu_1)^T, w = S_w^-1 (mu_0 - mu_1) "
    "solves it with lambda = lambda_w = (mu_0 - mu_1)^T w, and J(w) = lambda_w is the maximum "
    "of J, which depends only on the direction of w.",
    method=Method.SYMBOLIC,
    tags=("lda", "linear"),
)
def lagrangian_derivation_claim() -> None:
    lagrangian_derivation().verify()
    # numeric cross-check: lambda_w in closed form vs J at the estimator's direction
    lam_fn = sp.lambdify((p, q, r, d1, d2), (DELTA.T * S_W.inv() * DELTA)[0, 0], "numpy")
    rng = np.random.default_rng(20)
    X = np.vstack([rng.normal(0, 1, (30, 2)) @ [[1.0, 0.3], [0.0, 2.0]],
                   rng.normal(1, 1, (20, 2))])
    y = np.repeat([0, 1], [30, 20])
    lda = LinearDiscriminantAnalysis().fit(X, y)
    sc = scatter_matrices(X, y)
    Lnum = np.linalg.cholesky(sc.S_w)
    delta = sc.means[0] - sc.means[1]
    closed = lam_fn(Lnum[0, 0], Lnum[1, 0], Lnum[1, 1], delta[0], delta[1])
    assert_close(rayleigh_quotient(lda.w_, np.outer(delta, delta), sc.S_w), closed,
                 LINEAR_ALGEBRA, label="J(estimator w) vs symbolic lambda_w")
    evidence.add_examples(1)


def scatter_decomposition(
    n_per_class: tuple[int, ...] = (2, 3), *, class_weights: bool = True
) -> Derivation:
    """S_t = S_w + S_b for symbolic points in R^2 (class sizes ``n_per_class``).

    ``class_weights=False`` drops the m_i of S_b (a broken variant for teeth tests).
    """
    classes = []
    k = 0
    for m in n_per_class:
        pts = []
        for _ in range(m):
            pts.append(sp.Matrix(sp.symbols(f"x{k}_1 x{k}_2", real=True)))
            k += 1
        classes.append(pts)
    everyone = [x for pts in classes for x in pts]
    mu = sum(everyone, sp.zeros(2, 1)) / len(everyone)
    mus = [sum(pts, sp.zeros(2, 1)) / len(pts) for pts in classes]
    S_t = sum(((x - mu) * (x - mu).T for x in everyone), sp.zeros(2, 2))
    S_w = sum(((x - m) * (x - m).T for pts, m in zip(classes, mus, strict=True) for x in pts),
              sp.zeros(2, 2))
    S_b = sum(((len(pts) if class_weights else 1) * (m - mu) * (m - mu).T
               for pts, m in zip(classes, mus, strict=True)), sp.zeros(2, 2))
    cross = sum(((x - m) * (m - mu).T for pts, m in zip(classes, mus, strict=True)
                 for x in pts), sp.zeros(2, 2))
    d = Derivation("S_t = S_w + S_b (003 (1.27))")
    for i in range(2):
        for j in range(2):
            d.equal(f"cross terms vanish: sum_i sum_(x in X_i) (x - mu_i)(mu_i - mu)^T [{i},{j}]",
                    cross[i, j], 0)
    for i in range(2):
        for j in range(2):
            d.equal(f"S_t = S_w + S_b [{i},{j}]", S_t[i, j], S_w[i, j] + S_b[i, j])
    return d


@claim(
    id="lda.scatter_decomposition_derivation",
    source="003 §1.7 (1.27)",
    statement="Splitting x - mu = (x - mu_i) + (mu_i - mu) inside each class, the cross terms "
    "sum to zero and S_t = S_w + S_b with S_b = sum_i m_i (mu_i - mu)(mu_i - mu)^T.",
    method=Method.SYMBOLIC,
    tags=("lda", "linear"),
)
def scatter_decomposition_claim() -> None:
    scatter_decomposition().verify()
