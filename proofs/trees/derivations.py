"""Symbolic checks of 003 Chapter 2: the Gini identity (2.5) and its range, the negative
gradients GBDT fits (§2.8) and the descent identities behind the monotone training loss.

Each derivation is a :class:`mltheory.symbolic.Derivation` (equalities simplified to
zero, inequalities with a non-negative slack) followed by a numeric cross-check against
:mod:`algorithms.trees`.
"""

from __future__ import annotations

import numpy as np
import sympy as sp

from algorithms.trees import GradientBoostingClassifier, GradientBoostingRegressor, gini
from mltheory import Method, claim, evidence
from mltheory.numeric import EXACT_ARITHMETIC, Tolerance, assert_close
from mltheory.symbolic import Derivation

#: Class counts K for which (2.5) is checked symbol by symbol (the double sum has K^2
#: rational terms; sympy's simplification time grows quickly beyond 6 classes).
GINI_CLASSES = range(2, 7)


def _gini_derivation(K: int) -> Derivation:
    u = sp.symbols(f"u1:{K + 1}", positive=True)
    q = [x / sum(u) for x in u]  # class proportions: non-negative, summing to one
    double_sum = sum(q[i] * q[j] for i in range(K) for j in range(K) if i != j)
    squares = sum(x**2 for x in q)
    d = Derivation(f"Gini identity (2.5), K = {K}")
    d.equal("square of the total", sum(q) ** 2, squares + double_sum,
            because="(sum_k p_k)^2 = sum_k p_k^2 + sum_k sum_{k' != k} p_k p_k'")
    d.equal("total is one", sum(q), 1, because="p_k = u_k / sum_j u_j")
    d.equal("(2.5)", double_sum, 1 - squares, because="the two lines above")
    spread = sum((x - sp.Rational(1, K)) ** 2 for x in q)
    d.leq("upper end of the range", 1 - squares, 1 - sp.Rational(1, K), slack=spread,
          because="sum_k p_k^2 - 1/K = sum_k (p_k - 1/K)^2 when sum_k p_k = 1")
    d.geq("lower end of the range", 1 - squares, 0,
          slack=sum(q[i] * q[j] for i in range(K) for j in range(K) if i != j),
          because="the double sum of products of non-negative proportions")
    return d


@claim(
    id="tree.gini_identity",
    source="003 §2.3 (2.5)",
    statement="sum_k sum_{k' != k} p_k p_k' = 1 - sum_k p_k^2 for proportions summing to one, "
    "and 0 <= Gini <= 1 - 1/|Y| (equality at the top exactly for p_k = 1/|Y|, the sum of "
    "squares (p_k - 1/|Y|)^2 being the gap), for |Y| = 2..6 symbolically.",
    method=Method.SYMBOLIC,
    tags=("trees", "impurity", "symbolic"),
)
def gini_identity(rng):
    for K in GINI_CLASSES:
        _gini_derivation(K).verify()
    for K in GINI_CLASSES:  # numeric cross-check of (2.5) against algorithms.trees.gini
        p = rng.dirichlet(np.ones(K))
        double_sum = float(np.sum(np.outer(p, p)) - np.sum(p**2))
        assert_close(gini(p), double_sum, EXACT_ARITHMETIC, label="gini vs double sum")


F, y, nu, rr, hh = sp.symbols("F y nu rr hh", real=True)
sigma = 1 / (1 + sp.exp(-F))


def _gradient_derivation() -> Derivation:
    d = Derivation("GBDT negative gradients (003 §2.8)")
    d.equal("square loss", -sp.diff((y - F) ** 2 / 2, F), y - F,
            because="-d/dF (y - F)^2 / 2")
    d.equal("logistic loss", -sp.diff(sp.log(1 + sp.exp(F)) - y * F, F), y - sigma,
            because="-d/dF [ln(1 + e^F) - y F] = y - sigma(F)")
    Fs = sp.symbols("F1:4", real=True)
    ys = sp.symbols("y1:4", real=True)
    lse = sp.log(sum(sp.exp(f) for f in Fs))
    softmax_loss = lse - sum(a * b for a, b in zip(ys, Fs, strict=True))
    for k in range(3):
        p_k = sp.exp(Fs[k]) / sum(sp.exp(f) for f in Fs)
        d.equal(f"softmax loss, class {k + 1}", -sp.diff(softmax_loss, Fs[k]), ys[k] - p_k,
                because="-d/dF_k [logsumexp(F) - sum_j y_j F_j]")
    return d


#: A fully grown regression tree on distinct inputs interpolates its targets; the first
#: boosting tree therefore reproduces the negative gradient up to the float64 rounding
#: of a leaf mean of one value.
INTERPOLATION = Tolerance(rtol=1e-12, atol=1e-12, reason="a leaf holding a single value")


@claim(
    id="tree.gbdt_negative_gradients",
    source="003 §2.8",
    statement="Each GBDT round fits the negative gradient of the loss at the current model: "
    "y - F for the square loss (the residual), y - sigma(F) for the logistic loss, "
    "y_k - softmax(F)_k for the multi-class logistic loss.",
    method=Method.SYMBOLIC,
    tags=("trees", "gbdt", "symbolic"),
)
def gbdt_negative_gradients(rng):
    _gradient_derivation().verify()
    X = rng.permutation(30).astype(float)[:, None]  # distinct inputs: one sample per leaf
    target = rng.normal(size=30)
    labels = (target > 0).astype(int)
    square = GradientBoostingRegressor(n_estimators=1, max_depth=None).fit(X, target)
    assert_close(square.estimators_[0][0].predict(X), target - target.mean(), INTERPOLATION,
                 label="first tree vs y - F_0")
    logistic = GradientBoostingClassifier(n_estimators=1, max_depth=None,
                                          leaf_update="gradient").fit(X, labels)
    p0 = labels.mean()
    assert_close(logistic.estimators_[0][0].predict(X), labels - p0, INTERPOLATION,
                 label="first tree vs y - sigma(F_0)")
    evidence.note("sigma(F_0) is the class-1 prior: F_0 = ln(p / (1 - p))")


@claim(
    id="tree.gbdt_descent_identities",
    source="003 §2.8",
    statement="Fitting h to the negative gradient by least squares makes h an orthogonal "
    "projection (<r, h> = ||h||^2), so the square loss after the step is "
    "||r - nu h||^2 = ||r||^2 - nu (2 - nu) ||h||^2; for the logistic loss, whose curvature "
    "sigma(1 - sigma) is at most 1/4, the deviance drops by at least nu (1 - nu/8) ||h||^2.",
    method=Method.SYMBOLIC,
    tags=("trees", "gbdt", "symbolic"),
)
def gbdt_descent_identities():
    d = Derivation("GBDT descent", identities={})
    # <r, h> = ||h||^2 = hh for a least-squares fit on the leaves' partition.
    d.equal("square loss after the step", rr - 2 * nu * hh + nu**2 * hh,
            rr - nu * (2 - nu) * hh, because="expand ||r - nu h||^2 with <r, h> = ||h||^2")
    s = sp.symbols("s", real=True)
    d.leq("logistic curvature", s * (1 - s), sp.Rational(1, 4), slack=(s - sp.Rational(1, 2)) ** 2,
          because="1/4 - s(1 - s) = (s - 1/2)^2")
    g2, a = sp.symbols("g2 a", nonnegative=True)  # ||h||^2 and the curvature excess
    # second-order bound: L(F + nu h) <= L(F) - nu <g, h> + nu^2 / 8 ||h||^2, <g, h> = ||h||^2
    d.equal("logistic step bound", -nu * g2 + nu**2 * g2 / 8, -nu * (1 - nu / 8) * g2,
            because="<g, h> = ||h||^2 and curvature <= 1/4 (Taylor, Lagrange remainder)")
    d.verify()
