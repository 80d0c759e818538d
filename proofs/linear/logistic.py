"""Symbolic checks for logistic regression: the sigmoid (003 (1.14), (3.8)), the log-odds
(1.16), the posterior forms (1.17), the log-likelihood rewrites of 004 §3.2 and the
derivatives of the negative log-likelihood (1.20)."""

from __future__ import annotations

import numpy as np
import sympy as sp
from scipy.special import expit

from algorithms.linear import logistic_nll, logistic_nll_gradient, logistic_nll_hessian
from mltheory import Method, claim, evidence
from mltheory.numeric import LINEAR_ALGEBRA, Tolerance, assert_close
from mltheory.symbolic import Derivation
from proofs.support import expand_logs

#: Central differences with step h: truncation error h^2 |f'''| / 6 <= 1e-13 for the
#: sigmoid, rounding error about eps / h = 2e-10 (f is bounded by 1).
FINITE_DIFFERENCE = Tolerance(
    rtol=1e-6, atol=1e-9,
    reason="central difference with h = 1e-6: truncation ~1e-13, rounding ~eps/h = 2e-10",
)

z = sp.Symbol("z", real=True)
SIGMOID = 1 / (1 + sp.exp(-z))


@claim(
    id="linear.sigmoid_derivative_3_8",
    source="003 §3.3 (3.8); 003 §1.5 (1.14)",
    statement="The sigmoid f(z) = 1/(1 + e^{-z}) satisfies f'(z) = f(z)(1 - f(z)).",
    method=Method.SYMBOLIC,
    tags=("linear", "logistic", "sigmoid"),
)
def sigmoid_derivative_3_8() -> None:
    check_sigmoid_derivative(lambda f: f * (1 - f))


def check_sigmoid_derivative(derivative) -> None:
    """f' = ``derivative(f)`` symbolically and against central differences (``derivative``
    must accept a sympy expression and a numpy array)."""
    Derivation("sigmoid derivative").equal("f' = f(1 - f)", sp.diff(SIGMOID, z),
                                           derivative(SIGMOID)).verify()
    grid = np.linspace(-30, 30, 61)
    h = 1e-6
    numeric = (expit(grid + h) - expit(grid - h)) / (2 * h)
    assert_close(numeric, derivative(expit(grid)), FINITE_DIFFERENCE,
                 label="central difference vs f(1-f)")
    evidence.add_examples(grid.size)


@claim(
    id="linear.sigmoid_shape_1_14",
    source="003 §1.5 (1.14)",
    statement="The sigmoid maps z to (0, 1), tends to 0 and 1 as z -> -inf, +inf, equals 1/2 at "
    "z = 0 and changes fastest there: f'(z) <= f'(0) = 1/4.",
    method=Method.SYMBOLIC,
    tags=("linear", "logistic", "sigmoid"),
)
def sigmoid_shape_1_14() -> None:
    f = SIGMOID
    fprime = sp.diff(f, z)
    Derivation("sigmoid shape").equal("f(0) = 1/2", f.subs(z, 0), sp.Rational(1, 2)).equal(
        "lim_{z -> -inf} f = 0", sp.limit(f, z, -sp.oo), 0).equal(
        "lim_{z -> +inf} f = 1", sp.limit(f, z, sp.oo), 1).equal(
        "f'(0) = 1/4", fprime.subs(z, 0), sp.Rational(1, 4)).leq(
        "f'(z) = f(1-f) <= 1/4", f * (1 - f), sp.Rational(1, 4), slack=(f - sp.Rational(1, 2)) ** 2,
        because="1/4 - f(1-f) = (f - 1/2)^2 >= 0").verify()
    grid = np.linspace(-40, 40, 801)
    values = expit(grid)
    if not (np.all(values >= 0) and np.all(values <= 1) and np.all(np.diff(values) >= 0)):
        raise AssertionError("the sigmoid left [0, 1] or decreased on the grid")
    evidence.add_examples(grid.size)


@claim(
    id="linear.logit_log_odds_1_16",
    source="003 §1.5 (1.15)-(1.16); 004 §3.1",
    statement="If y = 1/(1 + e^{-(w^T x + b)}) then ln(y / (1 - y)) = w^T x + b (the log odds).",
    method=Method.SYMBOLIC,
    tags=("linear", "logistic"),
)
def logit_log_odds_1_16() -> None:
    check_log_odds(lambda y: sp.log(y / (1 - y)))


def check_log_odds(log_odds) -> None:
    """``log_odds(y)`` at y = sigmoid(z) is z."""
    Derivation("log odds").equal("ln(y/(1-y)) = z", expand_logs(log_odds(SIGMOID)), z).verify()


@claim(
    id="linear.logit_posterior_1_17",
    source="003 §1.5 (1.17); 004 §3.2",
    statement="p(y=1|x) = e^z/(1 + e^z) equals 1/(1 + e^{-z}), p(y=0|x) = 1/(1 + e^z) equals "
    "1 - p(y=1|x), with z = w^T x + b.",
    method=Method.SYMBOLIC,
    tags=("linear", "logistic"),
)
def logit_posterior_1_17() -> None:
    p1 = sp.exp(z) / (1 + sp.exp(z))
    p0 = 1 / (1 + sp.exp(z))
    Derivation("posterior forms").equal("e^z/(1+e^z) = 1/(1+e^{-z})", p1, SIGMOID).equal(
        "1/(1+e^z) = 1 - p1", p0, 1 - p1).verify()


@claim(
    id="linear.logit_loglik_rewrite_3_2",
    source="004 §3.2 (1)-(2)",
    statement="With pi = e^z/(1 + e^z), z = w.x: y log pi + (1-y) log(1-pi) = y log(pi/(1-pi)) "
    "+ log(1-pi) = y z - log(1 + e^z), so L(w) = sum_i [y_i (w.x_i) - log(1 + exp(w.x_i))].",
    method=Method.SYMBOLIC,
    tags=("linear", "logistic"),
)
def logit_loglik_rewrite_3_2() -> None:
    y = sp.Symbol("y", real=True)
    pi = sp.exp(z) / (1 + sp.exp(z))
    first = y * sp.log(pi) + (1 - y) * sp.log(1 - pi)
    second = y * sp.log(pi / (1 - pi)) + sp.log(1 - pi)
    third = y * z - sp.log(1 + sp.exp(z))
    Derivation("004 §3.2 log-likelihood").equal("first rewrite", expand_logs(first),
                                                expand_logs(second)).equal(
        "second rewrite", expand_logs(second), expand_logs(third)).verify()
    rng = np.random.default_rng(0)
    X = rng.normal(size=(9, 2))
    Xh = np.hstack([X, np.ones((9, 1))])
    labels = (rng.random(9) < 0.5).astype(float)
    beta = rng.normal(size=3)
    p = expit(Xh @ beta)
    direct = float(np.sum(labels * np.log(p) + (1 - labels) * np.log(1 - p)))
    assert_close(-logistic_nll(beta, Xh, labels), direct, LINEAR_ALGEBRA,
                 label="L(w) vs the implementation's -(1.20)")


@claim(
    id="linear.logit_nll_derivatives_1_20",
    source="003 §1.5 (1.20)-(1.21)",
    statement="The gradient of l(beta) = sum_i (-y_i beta^T x_i + ln(1 + e^{beta^T x_i})) is "
    "-sum_i x_i (y_i - p_1(x_i)) and its Hessian is sum_i x_i x_i^T p_1(x_i)(1 - p_1(x_i)), "
    "p_1 = 1/(1 + e^{-beta^T x}) (what gradient descent and Newton's method use).",
    method=Method.SYMBOLIC,
    tags=("linear", "logistic"),
)
def logit_nll_derivatives_1_20() -> None:
    check_nll_derivatives(lambda x, y, p1: -x * (y - p1),
                          lambda xj, xk, p1: xj * xk * p1 * (1 - p1))


def check_nll_derivatives(gradient_term, hessian_term) -> None:
    """The first and second partial derivatives of one term of (1.20) are
    ``gradient_term(x_j, y, p_1)`` and ``hessian_term(x_j, x_k, p_1)``; the implementation's
    gradient and Hessian match sympy's."""
    p = 3
    beta = sp.Matrix(p, 1, lambda j, _: sp.Symbol(f"beta{j + 1}", real=True))
    x = sp.Matrix(p, 1, lambda j, _: sp.Symbol(f"x{j + 1}", real=True))
    y = sp.Symbol("y", real=True)
    t = (beta.T * x)[0, 0]
    term = -y * t + sp.log(1 + sp.exp(t))
    p1 = 1 / (1 + sp.exp(-t))
    d = Derivation("one term of (1.20)")
    for j in range(p):
        d.equal(f"d/dbeta_{j + 1} = -x_{j + 1}(y - p_1)", sp.diff(term, beta[j]),
                gradient_term(x[j], y, p1))
        for k in range(j, p):
            d.equal(f"d2/dbeta_{j + 1}dbeta_{k + 1} = x_{j + 1} x_{k + 1} p_1 (1 - p_1)",
                    sp.diff(term, beta[j], beta[k]), hessian_term(x[j], x[k], p1))
    d.verify()
    # numeric: the implementation's gradient/Hessian against the lambdified formulas
    rng = np.random.default_rng(3)
    Xh = np.hstack([rng.normal(size=(7, 2)), np.ones((7, 1))])
    labels = (rng.random(7) < 0.5).astype(float)
    b_num = rng.normal(size=3)
    grad_f = sp.lambdify([*beta, *x, y], [sp.diff(term, bj) for bj in beta])
    hess_f = sp.lambdify([*beta, *x, y], sp.hessian(term, list(beta)))
    grad = sum(np.asarray(grad_f(*b_num, *xi, yi), dtype=float)
               for xi, yi in zip(Xh, labels, strict=True))
    hess = sum(np.asarray(hess_f(*b_num, *xi, yi), dtype=float)
               for xi, yi in zip(Xh, labels, strict=True))
    assert_close(logistic_nll_gradient(b_num, Xh, labels), grad, LINEAR_ALGEBRA,
                 label="gradient: implementation vs sympy")
    assert_close(logistic_nll_hessian(b_num, Xh), hess, LINEAR_ALGEBRA,
                 label="Hessian: implementation vs sympy")
