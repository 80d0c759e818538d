"""Symbolic derivations of 003 §10.4 (10.9), (10.10) and (10.13).

(10.9): the quadratic model completes to a square around the gradient step, with the
constant f(x_k) - ||grad f(x_k)||^2 / (2L). (10.10): its unique minimiser is that step.
(10.13): soft-thresholding minimises (L/2)(x - z)^2 + lambda |x|, proved case by case:
in each of the three cases of (10.13) the objective minus its value at the claimed
minimiser is written as an explicit non-negative expression on each side of the kink.
Each derivation is cross-checked numerically against ``algorithms.sparse``.
"""

from __future__ import annotations

import warnings

import numpy as np
import sympy as sp
from sklearn.exceptions import ConvergenceWarning

from algorithms.linear import soft_threshold
from algorithms.sparse import proximal_gradient_lasso
from mltheory import Method, claim, evidence
from mltheory.numeric import EXACT_ARITHMETIC, assert_close
from mltheory.symbolic import Derivation

#: The dimension of the symbolic vectors: the identities are coordinatewise sums, so three
#: coordinates exercise every cross term.
DIM = 3

X = sp.Matrix(sp.symbols(f"x1:{DIM + 1}", real=True))
XK = sp.Matrix(sp.symbols(f"xk1:{DIM + 1}", real=True))
G = sp.Matrix(sp.symbols(f"g1:{DIM + 1}", real=True))  # grad f(x_k)
FK = sp.Symbol("f_k", real=True)  # f(x_k)
L = sp.Symbol("L", positive=True)


def model(x: sp.Matrix) -> sp.Expr:
    """f_hat(x) = f(x_k) + <grad f(x_k), x - x_k> + (L/2) ||x - x_k||^2 (10.9)."""
    d = x - XK
    return FK + (G.T * d)[0] + L / 2 * (d.T * d)[0]


def square(v: sp.Matrix) -> sp.Expr:
    return (v.T * v)[0]


@claim(
    id="pgd.quadratic_model_10_9",
    source="003 §10.4 (10.9)",
    statement="f(x_k) + <grad f(x_k), x - x_k> + (L/2) ||x - x_k||^2 = (L/2) ||x - (x_k - "
    "grad f(x_k)/L)||^2 + const, where const = f(x_k) - ||grad f(x_k)||^2 / (2L) does not "
    "depend on x.",
    method=Method.SYMBOLIC,
    tags=("sparse", "pgd"),
)
def quadratic_model_10_9() -> None:
    check_quadratic_model()


def check_quadratic_model(const_sign: int = -1, step_sign: int = -1) -> None:
    """(10.9) with const = f_k + const_sign ||g||^2 / (2L) around x_k + step_sign g / L
    (the notes: both signs -1)."""
    step = XK + step_sign * G / L
    const = FK + const_sign * square(G) / (2 * L)
    dv = Derivation("quadratic model (10.9)")
    dv.equal("complete the square", model(X), L / 2 * square(X - step) + const)
    dv.equal("const is free of x", sp.Matrix([sp.diff(const, xi) for xi in X]),
             sp.zeros(DIM, 1))
    dv.verify()
    # numeric: with f = ||y - A w||^2 the model at x_k's gradient step equals const
    rng = np.random.default_rng(3)
    A, y, x_k = rng.normal(size=(5, DIM)), rng.normal(size=5), rng.normal(size=DIM)
    Lv = 2.0 * float(np.linalg.eigvalsh(A.T @ A)[-1])
    g = 2 * A.T @ (A @ x_k - y)
    subs = {**dict(zip(XK, x_k, strict=True)), **dict(zip(G, g, strict=True)),
            FK: float((y - A @ x_k) @ (y - A @ x_k)), L: Lv}
    at_step = {**subs, **dict(zip(X, x_k - g / Lv, strict=True))}
    assert_close(float(model(X).subs(at_step)), float(const.subs(subs)), EXACT_ARITHMETIC,
                 label="f_hat(x_k - grad/L) vs const")
    evidence.add_examples(1)


@claim(
    id="pgd.gradient_step_10_10",
    source="003 §10.4 (10.10)",
    statement="The minimiser of the quadratic model (10.9) is x_{k+1} = x_k - grad f(x_k)/L "
    "(L > 0): so a gradient step of size 1/L minimises the model.",
    method=Method.SYMBOLIC,
    tags=("sparse", "pgd"),
)
def gradient_step_10_10() -> None:
    check_gradient_step()


def check_gradient_step(step_size: sp.Expr = 1 / L) -> None:
    """(10.10) with the step x_k - step_size g (the notes: step_size = 1/L)."""
    step = XK - step_size * G
    dv = Derivation("gradient step (10.10)")
    gradient = sp.Matrix([sp.diff(model(X), xi) for xi in X])
    dv.equal("stationary at x_k - g/L", gradient.subs(dict(zip(X, step, strict=True))),
             sp.zeros(DIM, 1))
    dv.equal("Hessian is L I", sp.hessian(model(X), list(X)), L * sp.eye(DIM))
    dv.geq("global minimum (L > 0)", model(X), model(step),
           slack=L / 2 * square(X - step), because="L > 0 and a sum of real squares")
    dv.verify()
    # numeric: the library's proximal-gradient step with lambda = 0 is this step
    rng = np.random.default_rng(4)
    A, y = rng.normal(size=(6, DIM)), rng.normal(size=6)
    x0 = rng.normal(size=DIM)
    Lv = 2.0 * float(np.linalg.eigvalsh(A.T @ A)[-1])
    res = _one_step(A, y, x0)
    g = 2 * A.T @ (A @ x0 - y)
    assert_close(res, x0 - g / Lv, EXACT_ARITHMETIC, label="library step vs x_k - g/L")
    evidence.add_examples(1)


def _one_step(A: np.ndarray, y: np.ndarray, x0: np.ndarray) -> np.ndarray:
    """The library's first proximal-gradient iterate from x0 with lambda = 0."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        res = proximal_gradient_lasso(A, y, 0.0, max_iter=1, coef_init=x0,
                                      keep_iterates=True, tol=1e-300)
    return res.coef_history[1]


LAM = sp.Symbol("lambda", positive=True)
U = sp.Symbol("u", positive=True)  # |x| for a trial point off the kink
E = sp.Symbol("e", positive=True)  # how far z lies beyond the threshold
P = sp.Symbol("p", nonnegative=True)  # lambda - L z (or lambda + L z): slack of |z| <= lambda/L


def phi(x, z):
    """(L/2)(x - z)^2 + lambda |x| (the scalar problem of (10.12))."""
    return L / 2 * (x - z) ** 2 + LAM * sp.Abs(x)


@claim(
    id="pgd.soft_threshold_piecewise_10_13",
    source="003 §10.4 (10.12)-(10.13)",
    statement="Case by case, (10.13) minimises (L/2)(x - z)^2 + lambda |x|: for z > lambda/L "
    "the minimiser is z - lambda/L, for |z| <= lambda/L it is 0, for z < -lambda/L it is "
    "z + lambda/L.",
    method=Method.SYMBOLIC,
    tags=("sparse", "pgd"),
)
def soft_threshold_piecewise_10_13() -> None:
    check_soft_threshold_cases()


def check_soft_threshold_cases(shift: sp.Expr = LAM / L) -> None:
    """(10.13) with the minimiser z - shift for z > lambda/L and z + shift for
    z < -lambda/L (the notes: shift = lambda / L); the slacks are those of the notes'
    minimiser, so another shift fails a step."""
    dv = Derivation("soft thresholding (10.13)")
    # case z > lambda / L: z = lambda/L + e, minimiser e
    z = LAM / L + E
    x_star = z - shift
    dv.geq("z > lam/L, trial x = u > 0", phi(U, z), phi(x_star, z),
           slack=L / 2 * (U - E) ** 2, because="a real square times L > 0")
    dv.geq("z > lam/L, trial x = -u < 0", phi(-U, z), phi(x_star, z),
           slack=L / 2 * (U + E) ** 2 + 2 * LAM * U, because="squares and lam u > 0")
    dv.geq("z > lam/L, trial x = 0", phi(0, z), phi(x_star, z), slack=L / 2 * E**2,
           because="a real square times L > 0")
    # case z < -lambda / L: z = -lambda/L - e, minimiser -e
    z = -LAM / L - E
    x_star = z + shift
    dv.geq("z < -lam/L, trial x = -u < 0", phi(-U, z), phi(x_star, z),
           slack=L / 2 * (U - E) ** 2, because="a real square times L > 0")
    dv.geq("z < -lam/L, trial x = u > 0", phi(U, z), phi(x_star, z),
           slack=L / 2 * (U + E) ** 2 + 2 * LAM * U, because="squares and lam u > 0")
    # case |z| <= lambda / L, minimiser 0: each side of the kink needs one of the two bounds
    dv.geq("|z| <= lam/L, trial x = u > 0 (lam - L z = p >= 0)", phi(U, (LAM - P) / L),
           phi(0, (LAM - P) / L), slack=L / 2 * U**2 + P * U, because="p >= 0, u > 0")
    dv.geq("|z| <= lam/L, trial x = -u < 0 (lam + L z = p >= 0)", phi(-U, (P - LAM) / L),
           phi(0, (P - LAM) / L), slack=L / 2 * U**2 + P * U, because="p >= 0, u > 0")
    dv.verify()
    # numeric cross-check: the piecewise formula, lambdified, against the library
    zs, lam_v, L_v = np.linspace(-3, 3, 121), 1.3, 2.0
    piecewise = sp.Piecewise((sp.Symbol("z") - LAM / L, sp.Symbol("z") > LAM / L),
                             (sp.Symbol("z") + LAM / L, sp.Symbol("z") < -LAM / L), (0, True))
    f = sp.lambdify((sp.Symbol("z"), LAM, L), piecewise, "numpy")
    assert_close(soft_threshold(zs, lam_v / L_v), f(zs, lam_v, L_v), EXACT_ARITHMETIC,
                 label="soft_threshold vs lambdified (10.13)")
    evidence.add_examples(zs.size)
