"""Symbolic derivations of the SVM duals (003 §4.2 (4.7)-(4.9), §4.4 (4.29)-(4.31),
§4.5 (4.37)-(4.39)): substitute the stationarity conditions into the Lagrangian and
compare with the printed dual objective, step by step, on small symbolic instances
(3 samples in 2 dimensions, labels fixed; symbols for every coordinate and multiplier)."""

from __future__ import annotations

import numpy as np
import sympy as sp

from algorithms.svm import dual_objective, svr_dual_objective
from mltheory import ErratumKind, Expect, Method, claim, evidence
from mltheory.numeric import EXACT_ARITHMETIC, assert_close
from mltheory.symbolic import Derivation

M, D = 3, 2
X = sp.Matrix(M, D, lambda i, k: sp.Symbol(f"x{i}{k}", real=True))
Y = [1, -1, 1]  # labels of the hard/soft-margin instance
ALPHA = sp.symbols("a0:3", nonnegative=True)
BETA = sp.Symbol("b", real=True)
C = sp.Symbol("C", positive=True)


def _gram(i: int, j: int) -> sp.Expr:
    return sum(X[i, k] * X[j, k] for k in range(D))


def _numeric_check(expr, symbols, reference, rng) -> None:
    """Cross-check a derived expression against the implementation at a random point."""
    f = sp.lambdify(symbols, expr, "numpy")
    for _ in range(5):
        vals = rng.uniform(0.1, 2.0, len(symbols))
        assert_close(f(*vals), reference(dict(zip(symbols, vals, strict=True))),
                     EXACT_ARITHMETIC, label="symbolic vs implementation")
        evidence.add_examples(1)


def _svc_dual_derivation(soft: bool) -> tuple[Derivation, sp.Expr, tuple]:
    w = sp.Matrix([sp.Symbol(f"w{k}", real=True) for k in range(D)])
    xi = sp.symbols("xi0:3", nonnegative=True)
    L = (w.dot(w) / 2
         + sum(ALPHA[i] * (1 - Y[i] * ((w.T * X[i, :].T)[0] + BETA)) for i in range(M)))
    if soft:  # (4.29) with mu_i = C - alpha_i from (4.30)
        L += C * sum(xi) - sum(ALPHA[i] * xi[i] for i in range(M)) - sum(
            (C - ALPHA[i]) * xi[i] for i in range(M))
    w_star = sum((ALPHA[i] * Y[i] * X[i, :].T for i in range(M)), sp.zeros(D, 1))
    d = Derivation("SVC dual " + ("(4.29)-(4.31)" if soft else "(4.7)-(4.9)"))
    for k in range(D):
        d.equal(f"dL/dw{k} = 0 at w = sum a_i y_i x_i (4.8)",
                sp.diff(L, w[k]).subs(dict(zip(w, w_star, strict=True))), 0)
    # sum a_i y_i = 0 (4.8): eliminate a2 = a1 - a0 (labels +1, -1, +1)
    on_constraint = {ALPHA[2]: ALPHA[1] - ALPHA[0]}
    L_star = L.subs(dict(zip(w, w_star, strict=True))).subs(on_constraint)
    d.equal("dL/db vanishes on sum a_i y_i = 0", sp.diff(L, BETA).subs(on_constraint), 0)
    dual = (sum(ALPHA) - sum(ALPHA[i] * ALPHA[j] * Y[i] * Y[j] * _gram(i, j)
                             for i in range(M) for j in range(M)) / 2)
    d.equal("L at the stationary point = printed dual objective", L_star,
            dual.subs(on_constraint))
    return d, dual, tuple(ALPHA) + tuple(X)


@claim(
    id="svm.dual_derivation_4_9",
    source="003 §4.2 (4.7)-(4.9)",
    statement="Setting the derivatives of the Lagrangian (4.7) to zero gives (4.8), and "
    "substituting (4.8) back eliminates w and b and leaves the dual objective of (4.9).",
    method=Method.SYMBOLIC,
    tags=("svm", "symbolic"),
)
def dual_derivation_4_9(rng):
    d, dual, symbols = _svc_dual_derivation(soft=False)
    d.verify()
    y = np.array(Y, dtype=float)

    def reference(v):
        Xn = np.array([[v[X[i, k]] for k in range(D)] for i in range(M)])
        return dual_objective(np.array([v[a] for a in ALPHA]), y, Xn @ Xn.T)

    _numeric_check(dual, symbols, reference, rng)


@claim(
    id="svm.soft_dual_derivation_4_31",
    source="003 §4.4 (4.29)-(4.31)",
    statement="With C = alpha_i + mu_i (4.30) the slack terms of the Lagrangian (4.29) "
    "cancel and the soft-margin dual objective (4.31) equals the hard-margin one; "
    "mu_i >= 0 turns into alpha_i <= C.",
    method=Method.SYMBOLIC,
    tags=("svm", "symbolic"),
)
def soft_dual_derivation_4_31():
    d, _, _ = _svc_dual_derivation(soft=True)
    d.verify()


def _svr_symbols():
    """The SVR Lagrangian's symbols: w, the multipliers a and a_hat, the slacks xi and
    xi_hat, the targets y, epsilon, and the model f(i) = w^T x_i + b."""
    w = sp.Matrix([sp.Symbol(f"w{k}", real=True) for k in range(D)])
    a = sp.symbols("a0:3", nonnegative=True)
    ah = sp.symbols("ah0:3", nonnegative=True)
    xi = sp.symbols("xi0:3", nonnegative=True)
    xh = sp.symbols("xh0:3", nonnegative=True)
    y = sp.symbols("y0:3", real=True)
    eps = sp.Symbol("epsilon", nonnegative=True)

    def f(i):
        return (w.T * X[i, :].T)[0] + BETA

    return w, a, ah, xi, xh, y, eps, f


def _svr_derivation(printed: bool) -> Derivation:
    w, a, ah, xi, xh, y, eps, f = _svr_symbols()

    L = (w.dot(w) / 2 + C * sum(xi[i] + xh[i] for i in range(M))
         - sum((C - a[i]) * xi[i] for i in range(M)) - sum((C - ah[i]) * xh[i] for i in range(M))
         + sum(a[i] * (f(i) - y[i] - eps - xi[i]) for i in range(M))
         + sum(ah[i] * (y[i] - f(i) - eps - xh[i]) for i in range(M)))
    w_star = sum(((ah[i] - a[i]) * X[i, :].T for i in range(M)), sp.zeros(D, 1))
    d = Derivation("SVR dual (4.37)-(4.39)" + (" as printed" if printed else ""))
    for i in range(M):  # mu_i = C - a_i, mu_hat_i = C - ah_i substituted above
        d.equal(f"dL/dxi{i} = 0 and dL/dxh{i} = 0 with C = a_i + mu_i, C = ah_i + mu_hat_i "
                "(4.38)", sp.diff(L, xi[i]) ** 2 + sp.diff(L, xh[i]) ** 2, 0)
    for k in range(D):
        d.equal(f"dL/dw{k} = 0 at w = sum (ah_i - a_i) x_i (4.38)",
                sp.diff(L, w[k]).subs(dict(zip(w, w_star, strict=True))), 0)
    on_constraint = {ah[2]: a[0] + a[1] + a[2] - ah[0] - ah[1]}  # sum (ah_i - a_i) = 0
    d.equal("dL/db vanishes on sum (ah_i - a_i) = 0", sp.diff(L, BETA).subs(on_constraint), 0)
    L_star = sp.expand(L.subs(dict(zip(w, w_star, strict=True))).subs(on_constraint))
    first = [ah[i] for i in range(M)] if printed else [ah[i] - a[i] for i in range(M)]
    dual = (sum(y[i] * (ah[i] - a[i]) - eps * (ah[i] + a[i]) for i in range(M))
            - sum(first[i] * (ah[j] - a[j]) * _gram(i, j) for i in range(M) for j in range(M))
            / 2)
    d.equal("L at the stationary point = dual objective (4.39)", L_star,
            sp.expand(dual.subs(on_constraint)))
    return d


def _svr_lagrangian_as_printed() -> Derivation:
    """(4.37) with its bracket as printed: 'C sum_i (xi_i + xh_i - sum mu xi - sum mu_hat xh'
    opens after C sum_i and is closed (at the latest) after the mu_hat sum, so the
    multiplier terms sit inside C sum_i; then the slack stationarity of (4.38) is checked."""
    w, a, ah, xi, xh, y, eps, f = _svr_symbols()
    mu = sp.symbols("mu0:3", nonnegative=True)
    muh = sp.symbols("muh0:3", nonnegative=True)

    inner = sum(mu[k] * xi[k] for k in range(M)) + sum(muh[k] * xh[k] for k in range(M))
    L = (w.dot(w) / 2 + C * sum(xi[i] + xh[i] - inner for i in range(M))
         + sum(a[i] * (f(i) - y[i] - eps - xi[i]) for i in range(M))
         + sum(ah[i] * (y[i] - f(i) - eps - xh[i]) for i in range(M)))
    d = Derivation("SVR Lagrangian (4.37) as printed")
    for i in range(M):
        stationary = {mu[i]: C - a[i], muh[i]: C - ah[i]}
        d.equal(f"dL/dxi{i} = 0 and dL/dxh{i} = 0 with C = a_i + mu_i, C = ah_i + mu_hat_i "
                "(4.38)", (sp.diff(L, xi[i]) ** 2 + sp.diff(L, xh[i]) ** 2).subs(stationary), 0)
    return d


@claim(
    id="svr.lagrangian_4_37_as_written",
    source="003 §4.5 (4.37)-(4.38)",
    statement="The SVR Lagrangian (4.37) as printed, with the bracket opened after "
    "C sum_i enclosing the multiplier sums -sum mu_i xi_i - sum mu_hat_i xi_hat_i, has the "
    "slack stationarity conditions C = alpha_i + mu_i and C = alpha_hat_i + mu_hat_i of "
    "(4.38).",
    method=Method.SYMBOLIC,
    tags=("svr", "symbolic", "erratum"),
    expect=Expect.REFUTED,
    kind=ErratumKind.SYMBOL,
    corrected_by="svr.dual_derivation_4_39",
    explanation="The printed bracket after C sum_i is never closed, which puts the "
    "multiplier terms inside the sum and under the factor C: dL/dxi_i = C (1 - m mu_i) - "
    "alpha_i, so (4.38)'s C = alpha_i + mu_i does not make it vanish. With the bracket closed "
    "after xi_i + xi_hat_i (the correct Lagrangian) every slack derivative vanishes.",
)
def lagrangian_4_37_as_written():
    _svr_lagrangian_as_printed().verify()


@claim(
    id="svr.dual_derivation_4_39_as_written",
    source="003 §4.5 (4.37)-(4.39)",
    statement="Substituting (4.38) into the SVR Lagrangian (4.37) gives the objective of "
    "(4.39) as printed, whose quadratic term is 1/2 sum_ij ah_i (ah_j - a_j) x_i^T x_j.",
    method=Method.SYMBOLIC,
    tags=("svr", "symbolic", "erratum"),
    expect=Expect.REFUTED,
    kind=ErratumKind.TERM,
    corrected_by="svr.dual_derivation_4_39",
    explanation="The substitution yields 1/2 sum_ij (ah_i - a_i)(ah_j - a_j) x_i^T x_j "
    "(= 1/2 ||w||^2); the printed factor ah_i drops '- a_i'. The failing step is the last "
    "one; the stationarity steps hold.",
)
def dual_derivation_4_39_as_written():
    _svr_derivation(printed=True).verify()


@claim(
    id="svr.dual_derivation_4_39",
    source="003 §4.5 (4.37)-(4.39)",
    statement="Substituting (4.38) into (4.37) gives sum_i y_i (ah_i - a_i) - eps (ah_i + "
    "a_i) - 1/2 sum_ij (ah_i - a_i)(ah_j - a_j) x_i^T x_j, under sum (ah_i - a_i) = 0.",
    method=Method.SYMBOLIC,
    tags=("svr", "symbolic"),
)
def dual_derivation_4_39(rng):
    _svr_derivation(printed=False).verify()
    # numeric cross-check of the implementation's objective against the Lagrangian value
    m = 4
    Xn = rng.normal(size=(m, 2))
    yv = rng.normal(size=m)
    a, ah = rng.uniform(0, 1, m), rng.uniform(0, 1, m)
    ah = ah - (ah.sum() - a.sum()) / m
    w = (ah - a) @ Xn
    lag = 0.5 * w @ w + yv @ (ah - a) - 0.3 * np.sum(ah + a) - w @ ((ah - a) @ Xn)
    assert_close(svr_dual_objective(a, ah, yv, Xn @ Xn.T, 0.3), lag, EXACT_ARITHMETIC,
                 label="svr_dual_objective vs Lagrangian")
    evidence.add_examples(1)
