"""Symbolic derivation of error back-propagation, 003 §3.3 (3.3)-(3.13).

A 2-3-2 network is written in sympy with a generic activation ``f``; the derivative of
``f`` is replaced by ``f (1 - f)`` — the sigmoid's property (3.8), itself proved here —
so every step is an identity between polynomials in the unit outputs. Each derivation
is cross-checked numerically: the symbolic gradients, lambdified with the sigmoid, against
the library's :func:`algorithms.neural.bp_gradients` at random points.
"""

from __future__ import annotations

import numpy as np
import sympy as sp

from algorithms.neural import BPParams, bp_gradients, sigmoid, sigmoid_derivative
from mltheory import Method, claim, evidence
from mltheory.numeric import LINEAR_ALGEBRA, Tolerance, assert_close
from mltheory.symbolic import Derivation

__all__ = ["Net", "apply_sigmoid_lemma", "network"]

F = sp.Function("f")
Z = sp.Symbol("z", real=True)

#: Central differences with h = 1e-6 of a function bounded by 1: rounding ~eps/h = 2e-10,
#: truncation h^2 |f'''| / 6 <= 1e-13.
SIGMOID_DIFFERENCES = Tolerance(rtol=1e-6, atol=1e-9,
                                reason="central difference with h = 1e-6 on the sigmoid: "
                                "rounding ~2e-10, truncation ~1e-13")


def apply_sigmoid_lemma(expr: sp.Expr, derivative=lambda u: u * (1 - u)) -> sp.Expr:
    """Replace every f'(a) by ``derivative(f(a))`` ((3.8): f' = f (1 - f))."""
    def is_f_prime(e) -> bool:
        if isinstance(e, sp.Subs) and isinstance(e.expr, sp.Derivative):
            return e.expr.expr.func == F
        return isinstance(e, sp.Derivative) and e.expr.func == F

    def value(e):
        arg = e.point[0] if isinstance(e, sp.Subs) else e.expr.args[0]
        return derivative(F(arg))

    # replace works bottom-up: a Subs(f'(xi), xi, a) may come back as Subs(f(xi)(1 - f(xi)),
    # xi, a); doit() carries out the substitution
    return sp.sympify(expr).replace(is_f_prime, value).doit()


class Net:
    """The symbols of a d-q-l network and its forward quantities (3.3)-(3.4)."""

    def __init__(self, d: int = 2, q: int = 3, l: int = 2) -> None:  # noqa: E741
        self.d, self.q, self.l = d, q, l
        self.x = sp.symbols(f"x1:{d + 1}", real=True)
        self.y = sp.symbols(f"y1:{l + 1}", real=True)
        self.v = sp.Matrix(d, q, lambda i, h: sp.Symbol(f"v_{i + 1}{h + 1}", real=True))
        self.gamma = sp.symbols(f"gamma1:{q + 1}", real=True)
        self.w = sp.Matrix(q, l, lambda h, j: sp.Symbol(f"w_{h + 1}{j + 1}", real=True))
        self.theta = sp.symbols(f"theta1:{l + 1}", real=True)
        self.alpha = [sum(self.v[i, h] * self.x[i] for i in range(d)) for h in range(q)]
        self.b = [F(self.alpha[h] - self.gamma[h]) for h in range(q)]
        self.beta = [sum(self.w[h, j] * self.b[h] for h in range(q)) for j in range(l)]
        self.y_hat = [F(self.beta[j] - self.theta[j]) for j in range(l)]
        self.E = sp.Rational(1, 2) * sum((self.y_hat[j] - self.y[j]) ** 2 for j in range(l))
        # the unit outputs as plain symbols: after (3.8) every identity below is one
        # between polynomials in them (fast to expand, and a failing step is shown in the
        # notes' names b_h, y_hat_j)
        self._names = {**{self.b[h]: sp.Symbol(f"b_{h + 1}", real=True) for h in range(q)},
                       **{self.y_hat[j]: sp.Symbol(f"y_hat_{j + 1}", real=True)
                          for j in range(l)}}

    def poly(self, expr: sp.Expr) -> sp.Expr:
        """``expr`` with the unit outputs f(alpha_h - gamma_h), f(beta_j - theta_j) named."""
        return sp.sympify(expr).xreplace(self._names)

    def g(self, j: int) -> sp.Expr:
        """(3.9): g_j = y_hat_j (1 - y_hat_j)(y_j - y_hat_j)."""
        return self.y_hat[j] * (1 - self.y_hat[j]) * (self.y[j] - self.y_hat[j])

    def e(self, h: int) -> sp.Expr:
        """(3.11): e_h = b_h (1 - b_h) sum_j w_hj g_j."""
        return self.b[h] * (1 - self.b[h]) * sum(self.w[h, j] * self.g(j)
                                                 for j in range(self.l))

    def grad(self, symbol) -> sp.Expr:
        """dE_k/d(symbol) with (3.8) applied."""
        return apply_sigmoid_lemma(sp.diff(self.E, symbol))

    def parameters(self) -> list:
        return [*self.v, *self.gamma, *self.w, *self.theta]


def network() -> Net:
    return Net()


@claim(
    id="bp.sigmoid_derivative",
    source="003 §3.3 (3.8)",
    statement="The sigmoid f(z) = 1/(1 + e^{-z}) satisfies f'(z) = f(z)(1 - f(z)); the "
    "family's sigmoid_derivative gives it from the output f(z), also at saturation.",
    method=Method.SYMBOLIC,
    tags=("neural", "bp", "sigmoid"),
)
def sigmoid_derivative_3_8() -> None:
    check_sigmoid_derivative(lambda f: f * (1 - f), sigmoid_derivative)


def check_sigmoid_derivative(formula, derivative) -> None:
    """``formula(f)`` (sympy) is f' symbolically; the library's ``derivative(f)`` (numpy)
    matches central differences of the library sigmoid on [-40, 40] and at +-745."""
    s = 1 / (1 + sp.exp(-Z))
    Derivation("sigmoid derivative (3.8)").equal(
        "d/dz 1/(1 + e^-z) = f (1 - f)", sp.diff(s, Z), formula(s)).verify()
    grid = np.concatenate([np.linspace(-40, 40, 161), [-745.0, -700.0, 700.0, 745.0]])
    h = 1e-6
    numeric = (sigmoid(grid + h) - sigmoid(grid - h)) / (2 * h)
    assert_close(np.asarray(derivative(sigmoid(grid)), dtype=float), numeric,
                 SIGMOID_DIFFERENCES, label="|sigmoid_derivative(f) - central difference|")
    evidence.add_examples(grid.size)


@claim(
    id="bp.chain_rule",
    source="003 §3.3 (3.5)-(3.7)",
    statement="w_hj reaches E_k only through beta_j and then y_hat_j: dE_k/dw_hj = "
    "(dE_k/dy_hat_j)(dy_hat_j/dbeta_j)(dbeta_j/dw_hj), with dbeta_j/dw_hj = b_h.",
    method=Method.SYMBOLIC,
    tags=("neural", "bp", "gradient"),
)
def chain_rule() -> None:
    n = network()
    dv = Derivation("chain rule (3.6)-(3.7)")
    beta = sp.symbols("beta1:3", real=True)
    for h in range(n.q):
        for j in range(n.l):
            dv.equal(f"dbeta_{j + 1}/dw_{h + 1}{j + 1} = b_{h + 1}",
                     sp.diff(n.beta[j], n.w[h, j]), n.b[h])
            # the factors of (3.6), with y_hat_j = f(beta_j - theta_j) as a function of beta_j
            y_of_beta = F(beta[j] - n.theta[j])
            dE_dy = n.y_hat[j] - n.y[j]
            dy_dbeta = apply_sigmoid_lemma(sp.diff(y_of_beta, beta[j])).subs(beta[j], n.beta[j])
            dv.equal(f"dE/dw_{h + 1}{j + 1} = (dE/dy_hat)(dy_hat/dbeta)(dbeta/dw)",
                     n.grad(n.w[h, j]), dE_dy * dy_dbeta * sp.diff(n.beta[j], n.w[h, j]))
    dv.verify()


@claim(
    id="bp.g_j_symbolic",
    source="003 §3.3 (3.9)",
    statement="g_j = -(dE_k/dy_hat_j)(dy_hat_j/dbeta_j) = -(y_hat_j - y_j) f'(beta_j - theta_j) "
    "= y_hat_j (1 - y_hat_j)(y_j - y_hat_j).",
    method=Method.SYMBOLIC,
    tags=("neural", "bp", "gradient"),
)
def g_j_symbolic() -> None:
    check_g_j(lambda n, j: n.g(j))


def check_g_j(g, make=network) -> None:
    """The two equalities of (3.9) for every output unit; ``g(net, j)`` is the closed form
    under test, on the network ``make()``."""
    n = make()
    u, beta = sp.Symbol("u", real=True), sp.Symbol("beta", real=True)
    dv = Derivation("g_j (3.9)")
    for j in range(n.l):
        dE_dy = sp.diff(sp.Rational(1, 2) * (u - n.y[j]) ** 2, u).subs(u, n.y_hat[j])
        dy_dbeta = apply_sigmoid_lemma(sp.diff(F(beta - n.theta[j]), beta)).subs(beta, n.beta[j])
        dv.equal(f"-dE/dy_hat_{j + 1} = -(y_hat_{j + 1} - y_{j + 1})", n.poly(-dE_dy),
                 n.poly(-(n.y_hat[j] - n.y[j])))
        dv.equal(f"g_{j + 1} = -(y_hat - y) f'(beta - theta) = y_hat (1 - y_hat)(y - y_hat)",
                 n.poly(-dE_dy * dy_dbeta), n.poly(g(n, j)))
    dv.verify()


@claim(
    id="bp.updates_symbolic",
    source="003 §3.3 (3.10)-(3.11)",
    statement="Derived from E_k (3.4): -dE_k/dw_hj = g_j b_h, -dE_k/dtheta_j = -g_j, "
    "-dE_k/dv_ih = e_h x_i, -dE_k/dgamma_h = -e_h with e_h = b_h (1 - b_h) sum_j w_hj g_j, "
    "so the BP updates are -eta times the gradient.",
    method=Method.SYMBOLIC,
    tags=("neural", "bp", "gradient"),
)
def updates_symbolic() -> None:
    check_updates(lambda n: n)


def check_updates(adjust, make=network) -> None:
    """The four update rules as identities on the network ``make()``; ``adjust(net)`` may
    swap in broken g or e."""
    n = adjust(make())
    dv = Derivation("BP updates (3.10)-(3.11)")
    for h in range(n.q):
        for j in range(n.l):
            dv.equal(f"-dE/dw_{h + 1}{j + 1} = g_{j + 1} b_{h + 1}", n.poly(-n.grad(n.w[h, j])),
                     n.poly(n.g(j) * n.b[h]))
    for j in range(n.l):
        dv.equal(f"-dE/dtheta_{j + 1} = -g_{j + 1}", n.poly(-n.grad(n.theta[j])),
                 n.poly(-n.g(j)))
    for h in range(n.q):
        for i in range(n.d):
            dv.equal(f"-dE/dv_{i + 1}{h + 1} = e_{h + 1} x_{i + 1}", n.poly(-n.grad(n.v[i, h])),
                     n.poly(n.e(h) * n.x[i]))
        dv.equal(f"-dE/dgamma_{h + 1} = -e_{h + 1}", n.poly(-n.grad(n.gamma[h])),
                 n.poly(-n.e(h)))
    dv.verify()
    numeric_cross_check(n)


def numeric_cross_check(n: Net, points: int = 5) -> None:
    """The symbolic gradient with f = sigmoid, lambdified, against bp_gradients."""
    params = n.parameters()
    grads = [n.grad(p) for p in params]
    fn = sp.lambdify([*n.x, *n.y, *params], grads,
                     modules=[{"f": lambda a: 1 / (1 + np.exp(-a))}, "numpy"])
    rng = np.random.default_rng(0)
    for _ in range(points):
        x, y = rng.uniform(-2, 2, n.d), rng.uniform(0, 1, n.l)
        flat = rng.uniform(-2, 2, len(params))
        p = BPParams.from_flat(flat, n.d, n.q, n.l)
        symbolic = np.array(fn(*x, *y, *flat), dtype=float)
        library = bp_gradients(x[None], y[None], p.v, p.gamma, p.w, p.theta).flat()
        assert_close(library, symbolic, LINEAR_ALGEBRA,
                     label="|bp_gradients - lambdified symbolic gradient|")
    evidence.add_examples(points)


@claim(
    id="bp.accumulated_regularised_symbolic",
    source="003 §3.3 (3.12)-(3.13)",
    statement="For E = (1/m) sum_k E_k the gradient is the mean of the per-sample gradients; "
    "for lambda E + (1 - lambda) sum_i w_i^2 it is lambda times that plus 2 (1 - lambda) w_i.",
    method=Method.SYMBOLIC,
    tags=("neural", "bp", "regularisation"),
)
def accumulated_regularised_symbolic() -> None:
    check_regularised(lambda lam, w: 2 * (1 - lam) * w)


def check_regularised(penalty_gradient) -> None:
    lam = sp.Symbol("lambda", positive=True)
    first, second = Net(2, 2, 1), Net(2, 2, 1)
    # the second sample: same parameters, its own input and target
    x2 = sp.symbols("xb1:3", real=True)
    y2 = sp.Symbol("yb1", real=True)
    E2 = second.E.subs(dict(zip(second.x, x2, strict=True))).subs(second.y[0], y2)
    E = (first.E + E2) / 2
    params = first.parameters()
    penalty = sum(p ** 2 for p in params)
    objective = lam * E + (1 - lam) * penalty
    dv = Derivation("accumulated and regularised gradients (3.12)-(3.13)")
    for p in params:
        per_sample = (apply_sigmoid_lemma(sp.diff(first.E, p))
                      + apply_sigmoid_lemma(sp.diff(E2, p))) / 2
        dv.equal(f"dE/d{p} = mean of dE_k/d{p}", apply_sigmoid_lemma(sp.diff(E, p)), per_sample)
        dv.equal(f"d(3.13)/d{p} = lambda dE/d{p} + 2(1 - lambda){p}",
                 apply_sigmoid_lemma(sp.diff(objective, p)),
                 lam * per_sample + penalty_gradient(lam, p))
    dv.verify()
