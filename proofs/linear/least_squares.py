"""Symbolic checks of the least-squares derivations: 003 §1.2 (1.4)-(1.6), §1.3 (1.8)-(1.10),
004 §1.2, and the log-linear model 003 §1.4 (1.12)-(1.13).

Sums over samples are expanded for concrete sample counts m (symbols x_i, y_i, w, b
stay symbolic), so every step is an identity between polynomials/rational functions
that sympy decides exactly.
"""

from __future__ import annotations

import numpy as np
import sympy as sp

from algorithms.linear import LinearRegression, SimpleLinearRegression
from mltheory import ErratumKind, Expect, Method, claim, evidence
from mltheory.numeric import LINEAR_ALGEBRA, assert_close
from mltheory.symbolic import Derivation

#: Sample counts for which the sums are expanded (m = 1 is excluded from the closed form:
#: a single point does not determine a line).
SAMPLE_COUNTS = (1, 2, 3, 4)
CLOSED_FORM_COUNTS = (2, 3, 4)

w, b = sp.symbols("w b", real=True)


def _sample(m: int) -> tuple[list[sp.Symbol], list[sp.Symbol]]:
    xs = list(sp.symbols(f"x1:{m + 1}", real=True))
    ys = list(sp.symbols(f"y1:{m + 1}", real=True))
    return xs, ys


def squared_error(m: int):
    """E(w, b) = sum_i (y_i - w x_i - b)^2, 003 (1.4)."""
    xs, ys = _sample(m)
    return sum((yi - w * xi - b) ** 2 for xi, yi in zip(xs, ys, strict=True)), xs, ys


def note_partials(m: int, xs, ys, b_factor) -> tuple[sp.Expr, sp.Expr]:
    """The right-hand sides of (1.5); ``b_factor`` multiplies b in dE/db (the note writes w)."""
    dw = 2 * (w * sum(xi**2 for xi in xs) - sum((yi - b) * xi for xi, yi in zip(xs, ys,
                                                                                 strict=True)))
    db = 2 * (b_factor * b - sum(yi - w * xi for xi, yi in zip(xs, ys, strict=True)))
    return dw, db


def check_partials(b_factor_for_m) -> None:
    """dE/dw and dE/db of (1.4) against (1.5), for every m in SAMPLE_COUNTS."""
    for m in SAMPLE_COUNTS:
        E, xs, ys = squared_error(m)
        dw, db = note_partials(m, xs, ys, b_factor_for_m(m))
        derivation = Derivation(f"003 (1.5) with m = {m}").equal(
            "dE/dw = 2(w sum x_i^2 - sum (y_i - b) x_i)", sp.diff(E, w), dw
        ).equal("dE/db as written in (1.5)", sp.diff(E, b), db)
        try:
            derivation.verify()
        except AssertionError as exc:
            # a concrete instance: every data value 0, w = 0, b = 1
            point = {**{v: 0 for v in (*xs, *ys)}, w: 0, b: 1}
            raise AssertionError(
                f"{exc}; e.g. at x_i = y_i = 0, w = 0, b = 1: true dE/db = "
                f"{sp.diff(E, b).subs(point)}, formula gives {db.subs(point)}"
            ) from None
        evidence.add_examples(1)
    evidence.note(f"sums expanded for m in {SAMPLE_COUNTS}")


@claim(
    id="linear.ls1_partial_derivatives_1_5",
    source="003 §1.2 (1.5)",
    statement="For E(w,b) = sum_i (y_i - w x_i - b)^2: dE/dw = 2(w sum x_i^2 - sum (y_i - b) x_i) "
    "and dE/db = 2(w b - sum (y_i - w x_i)).",
    method=Method.SYMBOLIC,
    tags=("linear", "least_squares"),
    expect=Expect.REFUTED,
    kind=ErratumKind.SYMBOL,
    corrected_by="linear.ls1_partial_derivatives_corrected",
    explanation="The b-derivative has 'w b' where the sample count belongs: differentiating "
    "sum_i (y_i - w x_i - b)^2 in b gives 2(m b - sum (y_i - w x_i)). The two agree only when "
    "w = m or b = 0 (e.g. m = 1, w = 0, b = 1, x = y = 0: the note gives 0, the true slope is 2).",
)
def ls1_partial_derivatives_1_5() -> None:
    check_partials(lambda m: w)


@claim(
    id="linear.ls1_partial_derivatives_corrected",
    source="003 §1.2 (1.5)",
    statement="For E(w,b) = sum_{i=1}^m (y_i - w x_i - b)^2: dE/dw = 2(w sum x_i^2 - sum (y_i - b)"
    " x_i) and dE/db = 2(m b - sum (y_i - w x_i)).",
    method=Method.SYMBOLIC,
    tags=("linear", "least_squares"),
)
def ls1_partial_derivatives_corrected() -> None:
    check_partials(lambda m: m)


def _note_slope(xs, ys, m: int, denominator) -> sp.Expr:
    """(1.6)'s w = sum y_i (x_i - xbar) / ``denominator(xs, m)``."""
    xbar = sum(xs) / m
    return sum(yi * (xi - xbar) for xi, yi in zip(xs, ys, strict=True)) / denominator(xs, m)


def _symbolic_design(m: int, p: int) -> tuple[sp.Matrix, sp.Matrix]:
    """A symbolic m x p design matrix X (entries x{i}_{j}) and target column y (y{i})."""
    X = sp.Matrix(m, p, lambda i, j: sp.Symbol(f"x{i + 1}_{j + 1}", real=True))
    y = sp.Matrix(m, 1, lambda i, _: sp.Symbol(f"y{i + 1}", real=True))
    return X, y


def check_closed_form(denominator) -> None:
    """Solving dE/dw = dE/db = 0 gives (1.6); ``denominator(xs, m)`` is the slope's denominator."""
    for m in CLOSED_FORM_COUNTS:
        E, xs, ys = squared_error(m)
        sol = sp.solve([sp.diff(E, w), sp.diff(E, b)], [w, b], dict=True)
        if len(sol) != 1:
            raise AssertionError(f"m = {m}: the stationarity equations do not have one solution")
        w_note = _note_slope(xs, ys, m, denominator)
        b_note = sum(yi - w_note * xi for xi, yi in zip(xs, ys, strict=True)) / m
        Derivation(f"003 (1.6) with m = {m}").equal(
            "w from the normal equations = (1.6)", sol[0][w], w_note
        ).equal("b from the normal equations = (1.6)", sol[0][b], b_note).verify()
        evidence.add_examples(1)
    # numeric cross-check against the implementation (lambdify the formula)
    rng = np.random.default_rng(0)
    m = CLOSED_FORM_COUNTS[-1]
    xs, ys = _sample(m)
    f = sp.lambdify([*xs, *ys], _note_slope(xs, ys, m, denominator))
    x_num, y_num = rng.normal(size=m), rng.normal(size=m)
    model = SimpleLinearRegression().fit(x_num.reshape(-1, 1), y_num)
    assert_close(f(*x_num, *y_num), model.coef_, LINEAR_ALGEBRA,
                 label="(1.6) lambdified vs SimpleLinearRegression")


@claim(
    id="linear.ls1_closed_form_1_6",
    source="003 §1.2 (1.6)",
    statement="Setting both partial derivatives of (1.4) to zero gives w = sum y_i (x_i - xbar) / "
    "(sum x_i^2 - (sum x_i)^2 / m) and b = (1/m) sum (y_i - w x_i).",
    method=Method.SYMBOLIC,
    tags=("linear", "least_squares"),
)
def ls1_closed_form_1_6() -> None:
    check_closed_form(lambda xs, m: sum(xi**2 for xi in xs) - sum(xs) ** 2 / m)


def check_matrix_gradient(gradient_formula) -> None:
    """d/dw_hat of (y - X w_hat)^T (y - X w_hat) against ``gradient_formula(X, w_hat, y)``."""
    for m, p in ((3, 2), (4, 3)):
        X, y = _symbolic_design(m, p)
        wh = sp.Matrix(p, 1, lambda j, _: sp.Symbol(f"w{j + 1}", real=True))
        r = y - X * wh
        E = (r.T * r)[0, 0]
        grad = sp.Matrix([sp.diff(E, wj) for wj in wh])
        formula = gradient_formula(X, wh, y)
        d = Derivation(f"003 (1.8) with X of size {m}x{p}")
        for j in range(p):
            d.equal(f"component {j + 1} of dE/dw_hat = 2 X^T (X w_hat - y)", grad[j], formula[j])
        d.verify()
        evidence.add_examples(1)


@claim(
    id="linear.ols_gradient_1_8",
    source="003 §1.3 (1.8); 004 §1.2",
    statement="The gradient of E(w_hat) = (y - X w_hat)^T (y - X w_hat) is 2 X^T (X w_hat - y).",
    method=Method.SYMBOLIC,
    tags=("linear", "least_squares"),
)
def ols_gradient_1_8() -> None:
    check_matrix_gradient(lambda X, wh, y: 2 * X.T * (X * wh - y))


def check_normal_equation_solution(formula) -> None:
    """With X^T X invertible, the stationary point of (1.8) is ``formula(X, y)``."""
    m, p = 3, 2
    X, y = _symbolic_design(m, p)
    candidate = formula(X, y)
    stationarity = X.T * (X * candidate - y)
    d = Derivation("003 (1.9): the formula solves X^T X w = X^T y")
    for j in range(p):
        d.equal(f"component {j + 1} of X^T (X w* - y) = 0", stationarity[j], 0)
    d.verify()
    evidence.add_examples(1)
    # numeric cross-check: the lambdified formula and (1.10) against the implementation
    rng = np.random.default_rng(1)
    Xn, yn = rng.normal(size=(m, p)), rng.normal(size=m)
    symbols = list(X) + list(y)
    f = sp.lambdify(symbols, candidate)
    w_formula = np.asarray(f(*Xn.reshape(-1), *yn), dtype=float).reshape(-1)
    model = LinearRegression(fit_intercept=False).fit(Xn, yn)
    assert_close(w_formula, model.coef_, LINEAR_ALGEBRA, label="(1.9) lambdified vs fit")
    assert_close(Xn @ w_formula, model.predict(Xn), LINEAR_ALGEBRA,
                 label="(1.10) predictions vs LinearRegression")


@claim(
    id="linear.ols_closed_form_1_9_symbolic",
    source="003 §1.3 (1.9)-(1.10); 004 §1.2",
    statement="When X^T X is full rank, w_hat* = (X^T X)^{-1} X^T y makes the gradient (1.8) "
    "vanish, and the fitted model is f(x_hat) = x_hat^T (X^T X)^{-1} X^T y.",
    method=Method.SYMBOLIC,
    tags=("linear", "least_squares"),
)
def ols_closed_form_1_9_symbolic() -> None:
    check_normal_equation_solution(lambda X, y: (X.T * X).inv() * X.T * y)


@claim(
    id="linear.loglinear_link_1_12",
    source="003 §1.4 (1.12)-(1.13); 004 §2.1",
    statement="ln y = w^T x + b is the case g = ln of y = g^{-1}(w^T x + b): the model makes "
    "exp(w^T x + b) approximate y.",
    method=Method.SYMBOLIC,
    tags=("linear", "glm"),
)
def loglinear_link_1_12() -> None:
    check_log_link(sp.log)


def check_log_link(link) -> None:
    """Solving ``link(y) = z`` for y > 0 gives exp(z), and link(exp(z)) = z."""
    z = sp.Symbol("z", real=True)
    y = sp.Symbol("y", positive=True)
    g_inv = sp.solve(sp.Eq(link(y), z), y)
    if len(g_inv) != 1:
        raise AssertionError(f"ln y = z should have one positive solution, got {g_inv}")
    Derivation("003 (1.12)-(1.13)").equal("g^{-1}(z) for g = ln", g_inv[0], sp.exp(z)).equal(
        "g(g^{-1}(z)) = z", link(g_inv[0]), z).verify()
