"""Symbolic checks of the perceptron derivations (001 §二.3, 000 §1.4, 004 §5.3.2).

Vectors are written out in components (two features plus the bias coordinate),
so sympy checks the vector identities exactly. The side conditions of each step
become symbol assumptions by reparametrisation: the mistake condition
-y w_hat.x_hat = m with m >= 0, the margin condition y w_hat_opt.x_hat = gamma + delta
with delta >= 0, and R^2 = ||x_hat||^2 + rho with rho >= 0.
"""

from __future__ import annotations

import numpy as np
import sympy as sp

from algorithms.perceptron import Perceptron
from mltheory import ErratumKind, Expect, Method, claim, evidence
from mltheory.numeric import Tolerance, assert_close
from mltheory.symbolic import Derivation

eta, gamma, k = sp.symbols("eta gamma k", positive=True)
m, delta, rho, a, c, u = sp.symbols("m delta rho a c u", nonnegative=True)
x1, x2, w1, w2, o1, o2, y = sp.symbols("x1 x2 w1 w2 o1 o2 y", real=True)
LABEL = {y**2: 1}  # y in {-1, +1}

x_hat = sp.Matrix([x1, x2, 1])
# w_hat_{k-1} misclassifies (x_hat, y): -y w_hat.x_hat = m >= 0, solved for the bias.
w_prev = sp.Matrix([w1, w2, -m * y - w1 * x1 - w2 * x2])
# unit-norm w_hat_opt with y w_hat_opt.x_hat = gamma + delta (the norm enters only in the
# Cauchy-Schwarz step, which is checked for generic vectors).
w_opt = sp.Matrix([o1, o2, y * (gamma + delta) - o1 * x1 - o2 * x2])
R = sp.sqrt(x1**2 + x2**2 + 1 + rho)


def dot(p: sp.Matrix, q: sp.Matrix) -> sp.Expr:
    return (p.T * q)[0, 0]


def _novikoff(as_written: bool) -> Derivation:
    w_new = w_prev + eta * y * x_hat
    x_sq = x1**2 + x2**2 if as_written else dot(x_hat, x_hat)  # 001 writes ||x_i||^2
    p = sp.Matrix(sp.symbols("p1:4", real=True))
    q = sp.Matrix(sp.symbols("q1:4", real=True))
    lagrange = sum((p[i] * q[j] - p[j] * q[i]) ** 2 for i in range(3) for j in range(i + 1, 3))
    R_final = sp.sqrt(k * gamma**2 + u / (k * eta**2))  # k^2 eta^2 gamma^2 + u = k eta^2 R^2
    d = Derivation("Novikoff: k <= (R/gamma)^2", identities=LABEL)
    d.equal("alignment recursion", dot(w_new, w_opt),
            dot(w_prev, w_opt) + eta * y * dot(w_opt, x_hat))
    d.geq("margin step", dot(w_prev, w_opt) + eta * y * dot(w_opt, x_hat),
          dot(w_prev, w_opt) + eta * gamma, slack=eta * delta,
          because="y w_hat_opt.x_hat >= gamma")
    d.geq("telescoping the alignment", (k - 1) * eta * gamma + a + eta * gamma, k * eta * gamma,
          slack=a, because="induction hypothesis w_hat_{k-1}.w_hat_opt >= (k-1) eta gamma")
    d.equal("expanding the squared norm", dot(w_new, w_new),
            dot(w_prev, w_prev) + 2 * eta * y * dot(w_prev, x_hat) + eta**2 * x_sq)
    d.leq("dropping the cross term", dot(w_prev, w_prev) + 2 * eta * y * dot(w_prev, x_hat)
          + eta**2 * dot(x_hat, x_hat), dot(w_prev, w_prev) + eta**2 * dot(x_hat, x_hat),
          slack=2 * eta * m, because="y w_hat_{k-1}.x_hat <= 0 at a mistake")
    d.leq("bounding by R", dot(w_prev, w_prev) + eta**2 * dot(x_hat, x_hat),
          dot(w_prev, w_prev) + eta**2 * R**2, slack=eta**2 * rho, because="||x_hat|| <= R")
    d.leq("telescoping the norm", (k - 1) * eta**2 * R**2 - c + eta**2 * R**2,
          k * eta**2 * R**2, slack=c, because="induction hypothesis ||w_hat_{k-1}||^2 <= "
          "(k-1) eta^2 R^2")
    d.leq("Cauchy-Schwarz", dot(p, q) ** 2, dot(p, p) * dot(q, q), slack=lagrange,
          because="Lagrange's identity: a sum of squares")
    d.leq("conclusion", k, R_final**2 / gamma**2, slack=u / (k * eta**2 * gamma**2),
          because="k^2 eta^2 gamma^2 <= k eta^2 R^2 and k > 0")
    return d


def _check_expansion_against_pla(rng) -> None:
    """Numeric cross-check: the expansion, lambdified, reproduces ||w_hat_k||^2 of real runs."""
    f = sp.lambdify((w1, w2, m, x1, x2, y, eta),
                    dot(w_prev, w_prev) + 2 * eta * y * dot(w_prev, x_hat)
                    + eta**2 * dot(x_hat, x_hat), "numpy")
    X = rng.normal(size=(20, 2)) * 3
    labels = np.where(X @ np.array([1.0, -2.0]) + 0.5 >= 0, 1, -1)
    step = float(rng.uniform(0.1, 1.0))
    est = Perceptron(eta=step, max_iter=1000).fit(X, labels)
    W = np.asarray(est.weight_history_)
    idx = np.asarray(est.update_indices_)
    y_s = np.where(labels == est.classes_[1], 1, -1)
    X_hat = np.hstack([X, np.ones((len(X), 1))])
    prev, xs, ys = W[:-1], X[idx], y_s[idx]
    margins = -ys * np.sum(prev * X_hat[idx], axis=1)
    predicted = f(prev[:, 0], prev[:, 1], margins, xs[:, 0], xs[:, 1], ys, step)
    assert_close(predicted, np.sum(W[1:] ** 2, axis=1), _CROSS_CHECK, label="lambdify vs PLA")
    evidence.record("updates cross-checked", len(idx))


_CROSS_CHECK = Tolerance(rtol=1e-10, atol=1e-10, reason="the same sums in a different order")


@claim(
    id="perceptron.novikoff_derivation",
    source="001 §二.3; 000 §1.4 (26), (29)",
    statement="The proof of Novikoff's bound: alignment recursion, margin step, telescoping, "
    "expansion ||w_hat + eta y x_hat||^2 = ||w_hat||^2 + 2 eta y w_hat.x_hat + eta^2 "
    "||x_hat||^2, dropping the cross term at a mistake, bounding by R, Cauchy-Schwarz, and "
    "k eta gamma <= sqrt(k) eta R => k <= (R/gamma)^2; every step holds.",
    method=Method.SYMBOLIC,
    tags=("perceptron", "novikoff", "proof"),
)
def novikoff_derivation(rng):
    _novikoff(as_written=False).verify()
    _check_expansion_against_pla(rng)


@claim(
    id="perceptron.novikoff_derivation_as_written",
    source="001 §二.3 (proof)",
    statement="(As printed in 001) the proof's expansion reads ||w_hat_k||^2 = "
    "||w_hat_{k-1}||^2 + 2 eta y_i w_hat_{k-1}.x_hat_i + eta^2 ||x_i||^2.",
    method=Method.SYMBOLIC,
    tags=("perceptron", "novikoff", "proof", "erratum"),
    expect=Expect.REFUTED,
    kind=ErratumKind.SYMBOL,
    corrected_by="perceptron.novikoff_derivation",
    explanation="The last term must use the augmented input: eta^2 ||x_hat_i||^2 = "
    "eta^2 (||x_i||^2 + 1). The next line of the note silently switches to ||x_hat_i||, and "
    "the lemma announced before the proof has gamma^2 where R^2 belongs.",
)
def novikoff_derivation_as_written():
    _novikoff(as_written=True).verify()


nw = sp.symbols("norm_w", positive=True)  # ||w||, held fixed by the note's approximation
v1, v2, b0 = sp.symbols("v1 v2 b0", real=True)


def _distance_change(variant: str) -> Derivation:
    """variant: "linearisation" or "last line" (the note's steps), or "corrected"."""
    w = sp.Matrix([v1, v2])
    x = sp.Matrix([x1, x2])
    f = dot(w, x) + b0
    d = Derivation("004 §5.3.2: change of the distance of the updated point", identities=LABEL)
    if variant == "linearisation":
        # The '≃' step: the exact geometric change, to first order in eta, equals the note's
        # linearisation -(y/||w||) [(w'-w).x + (b'-b)].
        s = sp.symbols("s", positive=True)
        w_s = w + s * y * x
        exact = (-y * (dot(w_s, x) + b0 + s * y) / sp.sqrt(dot(w_s, w_s))
                 + y * f / sp.sqrt(dot(w, w)))
        linear = -(y / sp.sqrt(dot(w, w))) * (s * y * dot(x, x) + s * y)
        d.equal("first-order approximation (≃)", sp.diff(exact, s).subs(s, 0),
                sp.diff(linear, s).subs(s, 0))
    elif variant == "last line":
        d.equal("last line", -(y / nw) * (eta * y * dot(x, x) + eta * y),
                -(y**2 / nw) * (eta * dot(x, x) + 1))
    else:
        w_new, b_new = w + eta * y * x, b0 + eta * y
        d.equal("functional margin after the update", y * (dot(w_new, x) + b_new),
                y * f + eta * (dot(x, x) + 1))
        d.equal("linearised distance change, eta kept", -(y / nw) * (eta * y * dot(x, x) + eta * y),
                -eta * (dot(x, x) + 1) / nw)
        d.leq("sign", -eta * (dot(x, x) + 1) / nw, 0, slack=eta * (dot(x, x) + 1) / nw,
              because="eta > 0, ||w|| > 0")
    return d


@claim(
    id="perceptron.distance_derivation_as_written",
    source="004 §5.3.2 item 1",
    statement="(As printed) the last line of the distance-change derivation: "
    "-(y/||w||)(eta y x.x + eta y) = -(y^2/||w||)(eta x.x + 1).",
    method=Method.SYMBOLIC,
    tags=("perceptron", "update", "proof", "erratum"),
    expect=Expect.REFUTED,
    kind=ErratumKind.TERM,
    corrected_by="perceptron.margin_change_derivation",
    explanation="Factoring out y^2 loses the eta in front of the 1: the expression equals "
    "-eta (x.x + 1)/||w|| (y^2 = 1). The sign conclusion survives, the magnitude does not.",
)
def distance_derivation_as_written():
    _distance_change("last line").verify()


@claim(
    id="perceptron.distance_linearisation_as_written",
    source="004 §5.3.2 item 1",
    statement="(As printed) to first order in the step, the change of the point's distance is "
    "-(y/||w||)[(w'-w).x + (b'-b)], i.e. ||w'|| may be replaced by ||w|| (w' ≃ w for small "
    "eta).",
    method=Method.SYMBOLIC,
    tags=("perceptron", "update", "proof", "erratum"),
    expect=Expect.REFUTED,
    kind=ErratumKind.TERM,
    corrected_by="perceptron.margin_change_derivation",
    explanation="||w'|| changes at first order in eta as well, so freezing it is not a "
    "first-order approximation: the exact derivative at eta = 0 has the extra term "
    "f(x) (w.x)/||w||^3, which can dominate and make the distance grow (see "
    "perceptron.distance_decreases_as_written).",
)
def distance_linearisation_as_written():
    _distance_change("linearisation").verify()


@claim(
    id="perceptron.margin_change_derivation",
    source="004 §5.3.2 item 1; 002 'Cyclic PLA' Fun Time",
    statement="An update on a misclassified (x, y) raises its functional margin y (w.x + b) by "
    "exactly eta (x.x + 1); with ||w|| held fixed the distance changes by "
    "-eta (x.x + 1)/||w|| < 0.",
    method=Method.SYMBOLIC,
    tags=("perceptron", "update", "proof"),
)
def margin_change_derivation():
    _distance_change("corrected").verify()
