"""Symbolic derivations of 003 Chapter 6 (ensemble learning).

- AdaBoost (6.5)-(6.16): the pointwise exponential loss, its gradient (6.6) and
  minimiser (6.7); the alpha objective (6.9), its derivative (6.10, printed with a
  missing term) and minimiser (6.11); the exact equivalence of (6.12), (6.14) and (6.15)
  for {-1, +1}-valued learners and the distribution recursion (6.13)/(6.16), each step
  checked with sympy (the report names the first failing step) and cross-checked against
  :class:`algorithms.ensembles.AdaBoostClassifier`'s recorded history and scipy.
- The error-ambiguity decomposition (6.22)-(6.25) for any number of learners, with the
  exact residual when the weights do not sum to 1.
- |rho| <= |Q| for the pairwise measures (6.29)-(6.30).
- The Hoeffding exponent of (6.3) and the bootstrap limit 1 - (1 - 1/m)^m -> 1 - 1/e.
"""

from __future__ import annotations

import math
from fractions import Fraction
from itertools import product

import numpy as np
import sympy as sp
from scipy.optimize import minimize_scalar

from algorithms.ensembles import (
    IN_BAG_LIMIT,
    AdaBoostClassifier,
    error_ambiguity,
    expected_in_bag_fraction,
    majority_vote_hoeffding_bound,
)
from mltheory import ErratumKind, Expect, Method, claim, evidence
from mltheory.numeric import EXACT_ARITHMETIC, ITERATIVE_SOLVER, Tolerance, assert_close
from mltheory.symbolic import Derivation

H, alpha = sp.symbols("H alpha", real=True)
# p = P(f(x) = 1 | x) and q = P(f(x) = -1 | x) = 1 - p, both in (0, 1): positive symbols
# (sympy then knows 1 - p > 0); q is replaced by 1 - p where the statement needs it.
p, q, eps = sp.symbols("p q epsilon", positive=True)


def pointwise_exp_loss() -> sp.Expr:
    """E[e^{-f(x) H(x)} | x] = sum over f in {-1, +1} of P(f | x) e^{-f H}."""
    return sum(prob * sp.exp(-fv * H) for fv, prob in ((1, p), (-1, q)))


@claim(
    id="ada.exp_loss_gradient_6_6",
    source="003 §6.2 (6.5)-(6.6)",
    statement="Conditioning (6.5) on x, l_exp = E_x[e^{-H(x)} P(f(x)=1|x) + e^{H(x)} "
    "P(f(x)=-1|x)], whose derivative with respect to H(x) is -e^{-H(x)} P(f(x)=1|x) + "
    "e^{H(x)} P(f(x)=-1|x).",
    method=Method.SYMBOLIC,
    tags=("ensembles", "boosting", "symbolic"),
)
def exp_loss_gradient_6_6():
    loss = pointwise_exp_loss()
    deriv = Derivation("(6.5) -> (6.6)")
    deriv.equal("E[e^{-fH} | x] over f in {-1, +1}", loss.subs(q, 1 - p),
                sp.exp(-H) * p + sp.exp(H) * (1 - p))
    deriv.equal("d/dH (6.6)", sp.diff(loss, H).subs(q, 1 - p),
                -sp.exp(-H) * p + sp.exp(H) * (1 - p))
    deriv.verify()


@claim(
    id="ada.exp_loss_minimiser_6_7",
    source="003 §6.2 (6.7)",
    statement="Setting (6.6) to zero gives H(x) = 1/2 ln(P(f(x)=1|x)/P(f(x)=-1|x)), the "
    "unique minimiser of the conditional exponential loss (its second derivative is "
    "positive); scipy's minimize_scalar finds the same point.",
    method=Method.SYMBOLIC,
    tags=("ensembles", "boosting", "symbolic"),
)
def exp_loss_minimiser_6_7():
    loss = pointwise_exp_loss()
    grad = sp.diff(loss, H)
    H_star = sp.log(p / q) / 2
    roots = sp.solve(sp.Eq(grad, 0), H)
    assert len(roots) == 1, f"(6.6) = 0 has roots {roots}"
    deriv = Derivation("(6.6) = 0 -> (6.7)")
    deriv.equal("the root of (6.6) is (6.7)", sp.exp(2 * roots[0]), sp.exp(2 * H_star))
    deriv.equal("(6.6) vanishes at (6.7)", grad.subs(H, H_star), 0)
    deriv.equal("second derivative = the loss itself (> 0: strictly convex)",
                sp.diff(loss, H, 2), loss)
    deriv.verify()
    assert loss.is_positive, loss
    for pv in (0.01, 0.3, 0.5, 0.77, 0.999):
        at = {p: pv, q: 1 - pv}
        res = minimize_scalar(sp.lambdify(H, loss.subs(at)), bracket=(-1.0, 1.0), tol=1e-12)
        assert_close(res.x, float(H_star.subs(at)), ITERATIVE_SOLVER,
                     label="|scipy argmin - (6.7)|")


def alpha_objective() -> sp.Expr:
    """(6.9): e^{-alpha}(1 - eps) + e^{alpha} eps."""
    return sp.exp(-alpha) * (1 - eps) + sp.exp(alpha) * eps


def check_alpha_derivative(printed: sp.Expr) -> None:
    deriv = Derivation("(6.9) -> (6.10)")
    deriv.equal("d/dalpha of (6.9)", sp.diff(alpha_objective(), alpha), printed)
    deriv.verify()


@claim(
    id="ada.alpha_derivative_6_10",
    source="003 §6.2 (6.9)-(6.10)",
    statement="The derivative of (6.9) with respect to alpha_t is -e^{-alpha_t}(1 - eps_t) "
    "+ e^{alpha_t} eps_t.",
    method=Method.SYMBOLIC,
    tags=("ensembles", "boosting", "symbolic"),
)
def alpha_derivative_6_10():
    check_alpha_derivative(-sp.exp(-alpha) * (1 - eps) + sp.exp(alpha) * eps)


@claim(
    id="ada.alpha_derivative_6_10_as_written",
    source="003 §6.2 (6.10)",
    statement="(As printed) the derivative of (6.9) with respect to alpha_t is "
    "-e^{-alpha_t}(1 - eps_t).",
    method=Method.SYMBOLIC,
    tags=("ensembles", "boosting", "symbolic", "erratum"),
    expect=Expect.REFUTED,
    kind=ErratumKind.TERM,
    corrected_by="ada.alpha_derivative_6_10",
    explanation="Missing term: the derivative of e^{alpha} eps_t, + e^{alpha_t} eps_t, is "
    "dropped. The printed expression is negative for every alpha when eps_t < 1, so "
    "setting it to zero (as the next line does) has no solution and cannot give (6.11).",
)
def alpha_derivative_6_10_as_written():
    check_alpha_derivative(-sp.exp(-alpha) * (1 - eps))


@claim(
    id="ada.alpha_6_11",
    source="003 §6.2 (6.11); 003 §6.2 Fig 8.3 (lines 5-6)",
    statement="For 0 < eps_t < 1, alpha_t = 1/2 ln((1 - eps_t)/eps_t) is the unique "
    "minimiser of (6.9); alpha_t > 0 exactly when eps_t < 1/2 (hence the check eps_t > 0.5 "
    "of Fig 8.3). AdaBoost's recorded alpha_t are this formula at its recorded eps_t, and "
    "scipy's minimize_scalar of (6.9) agrees.",
    method=Method.SYMBOLIC,
    tags=("ensembles", "boosting", "symbolic"),
)
def alpha_6_11(rng):
    grad = sp.diff(alpha_objective(), alpha)
    a_star = sp.log((1 - eps) / eps) / 2
    deriv = Derivation("(6.10) = 0 -> (6.11)")
    deriv.equal("(6.10) vanishes at (6.11)", sp.simplify(grad.subs(alpha, a_star)), 0)
    deriv.equal("second derivative = (6.9) itself", sp.diff(alpha_objective(), alpha, 2),
                alpha_objective())
    deriv.verify()
    # (6.9) > 0 for 0 < eps < 1 (both terms positive): strictly convex, one minimiser
    positive = sp.solve_univariate_inequality(a_star > 0, eps, relational=False,
                                              domain=sp.Interval.open(0, 1))
    assert positive == sp.Interval.open(0, sp.Rational(1, 2)), positive
    evidence.record("{eps in (0,1): alpha > 0}", str(positive))
    formula = sp.lambdify(eps, a_star)
    X = rng.normal(size=(60, 3))
    y = np.where(X @ np.array([1.0, -1.0, 0.5]) + 0.5 * rng.normal(size=60) > 0, 1, -1)
    est = AdaBoostClassifier(n_estimators=15, random_state=0).fit(X, y)
    assert np.all(est.errors_ <= 0.5) and np.all(est.alphas_ >= 0)
    for e, a in zip(est.errors_, est.alphas_, strict=True):
        if e == 0.0:
            continue
        assert_close(a, formula(e), EXACT_ARITHMETIC, label="|recorded alpha_t - (6.11)|")
        res = minimize_scalar(sp.lambdify(alpha, alpha_objective().subs(eps, e)),
                              bracket=(-1.0, 1.0), tol=1e-12)
        assert_close(res.x, a, ITERATIVE_SOLVER, label="|scipy argmin of (6.9) - alpha_t|")


@claim(
    id="ada.derivation_6_12_6_16",
    source="003 §6.2 (6.12)-(6.16)",
    statement="For f, h in {-1, +1}: e^{-f h} = cosh 1 - f h sinh 1 (and the second-order "
    "expansion 1 - f h + f^2 h^2/2 = 3/2 - f h), so l_exp(H_{t-1} + h | D) = "
    "E_D[e^{-f H_{t-1}}] (cosh 1 - sinh 1 E_{D_t}[f h]) with D_t of (6.13): minimising it "
    "maximises E_{D_t}[f h] (6.14), i.e. minimises E_{D_t}[I(f != h)] as f h = "
    "1 - 2 I(f != h) (6.15); and D_{t+1} = D_t e^{-f alpha_t h_t} E_D[e^{-f H_{t-1}}]/"
    "E_D[e^{-f H_t}] (6.16), whose factor E_D[e^{-f H_t}]/E_D[e^{-f H_{t-1}}] is the "
    "normaliser Z_t of Fig 8.3 line 7.",
    method=Method.SYMBOLIC,
    tags=("ensembles", "boosting", "symbolic"),
)
def derivation_6_12_6_16():
    f, h = sp.symbols("f h", real=True)
    deriv = Derivation("(6.12)-(6.16)", identities={f**2: 1, h**2: 1})
    for fv, hv in product((-1, 1), repeat=2):
        deriv.equal(f"e^(-fh) = cosh 1 - fh sinh 1 at f={fv}, h={hv}",
                    sp.exp(-fv * hv), sp.cosh(1) - fv * hv * sp.sinh(1))
        deriv.equal(f"fh = 1 - 2 I(f != h) at f={fv}, h={hv} (6.15)",
                    fv * hv, 1 - 2 * int(fv != hv))
    u = sp.Symbol("u", real=True)
    taylor = sp.series(sp.exp(-u), u, 0, 3).removeO().subs(u, f * h)
    deriv.equal("second-order expansion of e^(-fh) (6.12)", taylor, sp.Rational(3, 2) - f * h)
    # A three-point distribution: D(x_i), the factors E_i = e^{-f_i H_{t-1}(x_i)} > 0 and
    # G_i = e^{-f_i alpha h_i(x_i)} > 0 as positive symbols (so every identity below is
    # rational), labels f_i and learner outputs h_i with f_i^2 = h_i^2 = 1.
    n = 3
    Dx = sp.symbols(f"D1:{n + 1}", positive=True)
    Ex = sp.symbols(f"E1:{n + 1}", positive=True)
    Gx = sp.symbols(f"G1:{n + 1}", positive=True)
    fs = sp.symbols(f"f1:{n + 1}", real=True)
    hs = sp.symbols(f"h1:{n + 1}", real=True)
    C, S = sp.symbols("cosh1 sinh1", positive=True)
    signs = {sym**2: 1 for sym in (*fs, *hs)}
    N1 = sum(Dx[i] * Ex[i] for i in range(n))  # E_D[e^{-f H_{t-1}}]
    Dt = [Dx[i] * Ex[i] / N1 for i in range(n)]  # (6.13)
    # l_exp(H_{t-1} + h) with e^{-f h} = cosh 1 - f h sinh 1 (exact by the first steps)
    loss = sum(Dx[i] * Ex[i] * (C - fs[i] * hs[i] * S) for i in range(n))
    corr = sum(Dt[i] * fs[i] * hs[i] for i in range(n))  # E_{D_t}[f h]
    algebra = Derivation("(6.12) -> (6.14)", identities=signs)
    algebra.equal("l_exp(H + h) = N (cosh 1 - sinh 1 E_{D_t}[f h])", loss, N1 * (C - S * corr))
    algebra.equal("D_t sums to 1 (6.13)", sum(Dt), 1)
    # (6.16) at one point: H_t = H_{t-1} + alpha_t h_t in the exponent of (6.13)
    D_, Hx, fx, hx = sp.symbols("D_x H_x f_x h_x", real=True)
    n1, n2 = sp.symbols("N_prev N_next", positive=True)
    step = Derivation("(6.13) -> (6.16)")
    D_t = D_ * sp.exp(-fx * Hx) / n1
    D_next = D_ * sp.exp(-fx * (Hx + alpha * hx)) / n2
    step.equal("D_{t+1} = D_t e^{-f alpha h} N_prev / N_next (6.16)",
               sp.powsimp(D_t * sp.exp(-fx * alpha * hx) * n1 / n2), sp.powsimp(D_next))
    N2 = sum(Dx[i] * Ex[i] * Gx[i] for i in range(n))  # E_D[e^{-f H_t}], e^{a+b} = e^a e^b
    Z = sum(Dt[i] * Gx[i] for i in range(n))  # Fig 8.3 line 7
    step.equal("Z_t = E_D[e^{-f H_t}] / E_D[e^{-f H_{t-1}}]", Z, N2 / N1)
    for d in (deriv, algebra, step):
        d.verify()


# ---------------------------------------------------------------------------
# (6.22)-(6.25): error-ambiguity decomposition
# ---------------------------------------------------------------------------


@claim(
    id="ediv.ambiguity_derivation",
    source="003 §6.5.1 (6.22)-(6.25)",
    statement="For any T, with H = sum_i w_i h_i, s = sum_i w_i and q = sum_i w_i h_i^2: "
    "A_bar = q - 2H^2 + s H^2 and E_bar = s f^2 - 2 f H + q, so E_bar - A_bar - E(H|x) = "
    "(s - 1)(f^2 - H^2), which vanishes when the weights sum to 1 (checked for general "
    "moments and, term by term, for T = 4 with free symbols).",
    method=Method.SYMBOLIC,
    tags=("ensembles", "diversity", "symbolic", "identity"),
)
def ambiguity_derivation():
    f, Hs, s, q = sp.symbols("f H s q", real=True)
    T = 4
    w = sp.symbols(f"w1:{T + 1}", real=True)
    h = sp.symbols(f"h1:{T + 1}", real=True)
    H_def = sum(wi * hi for wi, hi in zip(w, h, strict=True))
    moments = {sum(w): s}
    A_bar = sum(wi * (hi - H_def) ** 2 for wi, hi in zip(w, h, strict=True))
    E_bar = sum(wi * (f - hi) ** 2 for wi, hi in zip(w, h, strict=True))
    E = (f - H_def) ** 2
    q_def = sum(wi * hi**2 for wi, hi in zip(w, h, strict=True))
    deriv = Derivation("(6.22)-(6.25)")
    deriv.equal("A_bar = q - 2H^2 + s H^2 (T = 4)", A_bar,
                (q_def - 2 * H_def**2 + sum(w) * H_def**2))
    deriv.equal("E_bar = s f^2 - 2 f H + q (T = 4)", E_bar,
                sum(w) * f**2 - 2 * f * H_def + q_def)
    deriv.equal("moments: E_bar - A_bar - E = (s - 1)(f^2 - H^2)",
                (s * f**2 - 2 * f * Hs + q) - (q - 2 * Hs**2 + s * Hs**2) - (f - Hs) ** 2,
                (s - 1) * (f**2 - Hs**2))
    deriv.equal("T = 4: E_bar - A_bar - E = (sum w - 1)(f^2 - H^2)", E_bar - A_bar - E,
                (sum(w) - 1) * (f**2 - H_def**2))
    simplex = {w[-1]: 1 - sum(w[:-1])}
    deriv.equal("(6.25) on sum w = 1", A_bar.subs(simplex), (E_bar - E).subs(simplex))
    deriv.verify()
    evidence.note(f"moment substitution used: {moments}")
    # numeric cross-check of the implementation at a rational point
    outs = np.array([[1.5], [-2.0], [0.25], [4.0]])
    ws = np.array([0.1, 0.2, 0.3, 0.4])
    ea = error_ambiguity(outs, np.array([0.5]), ws)
    val = {f: sp.Rational(1, 2), **{hi: sp.nsimplify(v) for hi, v in zip(h, outs[:, 0],
                                                                          strict=True)},
           **{wi: sp.nsimplify(v) for wi, v in zip(w, ws, strict=True)}}
    assert_close(ea.ambiguity[0], float(A_bar.subs(val)), EXACT_ARITHMETIC,
                 label="|error_ambiguity - sympy A_bar|")


# ---------------------------------------------------------------------------
# (6.29)-(6.30): |rho| <= |Q|
# ---------------------------------------------------------------------------


@claim(
    id="div.q_rho_derivation",
    source="003 §6.5.2 (6.29)-(6.30)",
    statement="For counts a, b, c, d >= 0: (ad + bc)^2 <= (a+b)(a+c)(c+d)(b+d), the gap "
    "being (ad + bc)(ab + ac + bd + cd) + (ac + bd)(ab + cd); rho and Q share the numerator "
    "ad - bc over positive denominators, so they have the same sign and |rho| <= |Q|.",
    method=Method.SYMBOLIC,
    tags=("ensembles", "diversity", "symbolic"),
)
def q_rho_derivation():
    a, b, c, d = sp.symbols("a b c d", nonnegative=True)
    prod = (a + b) * (a + c) * (c + d) * (b + d)
    deriv = Derivation("(6.29) vs (6.30)")
    deriv.leq("(ad + bc)^2 <= (a+b)(a+c)(c+d)(b+d)", (a * d + b * c) ** 2, prod,
              slack=(a * d + b * c) * (a * b + a * c + b * d + c * d)
              + (a * c + b * d) * (a * b + c * d),
              because="a sum of products of non-negative counts")
    deriv.verify()


# ---------------------------------------------------------------------------
# (6.3) and the bootstrap
# ---------------------------------------------------------------------------


@claim(
    id="ens.majority_hoeffding_derivation",
    source="003 §6.1 (6.3)",
    statement="With K ~ Bin(T, 1 - eps) correct votes, the error event K <= T/2 is "
    "K - E[K] <= -T(1/2 - eps); Hoeffding's bound exp(-2 t^2/T) at t = T(1/2 - eps) is "
    "exp(-T(1 - 2 eps)^2/2), which tends to 0 as T grows for eps != 1/2.",
    method=Method.SYMBOLIC,
    tags=("ensembles", "voting", "symbolic"),
)
def majority_hoeffding_derivation():
    T = sp.Symbol("T", positive=True)
    t = T * (sp.Rational(1, 2) - eps)
    deriv = Derivation("Hoeffding -> (6.3)")
    deriv.equal("T/2 - E[K] = -t", T / 2 - T * (1 - eps), -t)
    deriv.equal("2 t^2 / T = T (1 - 2 eps)^2 / 2", 2 * t**2 / T, T * (1 - 2 * eps) ** 2 / 2)
    deriv.verify()
    for e in (sp.Rational(1, 10), sp.Rational(49, 100)):
        lim = sp.limit(sp.exp(-T * (1 - 2 * e) ** 2 / 2), T, sp.oo)
        assert lim == 0, lim
    for T_val, e in ((7, 0.2), (1001, 0.45)):
        assert_close(majority_vote_hoeffding_bound(T_val, e),
                     math.exp(-T_val * (1 - 2 * e) ** 2 / 2), EXACT_ARITHMETIC,
                     label="|implementation - exp(-T(1-2eps)^2/2)|")


#: 1 - (1 - 1/m)^m - (1 - 1/e) ~ 1/(2 e m) ~ 9.2e-5 at m = 2000.
LIMIT_AT_2000 = Tolerance(rtol=0.0, atol=1e-4,
                          reason="the gap to the limit is about 1/(2em) = 9.2e-5 at m = 2000")


@claim(
    id="bag.bootstrap_632",
    source="003 §6.3.1 (refers to the book's §2.2.3)",
    statement="A bootstrap sample of size m contains on average a fraction "
    "1 - (1 - 1/m)^m of the distinct examples (exactly, by enumerating all m^m samples "
    "for m <= 6); this fraction decreases in m to 1 - 1/e ~ 63.2% (sympy limit; the "
    "library's IN_BAG_LIMIT is that value), so about 36.8% of the examples are out of bag.",
    method=Method.SYMBOLIC,
    tags=("ensembles", "bagging", "symbolic"),
)
def bootstrap_632():
    m = sp.Symbol("m", positive=True, integer=True)
    limit = sp.limit((1 - 1 / m) ** m, m, sp.oo)
    assert sp.simplify(limit - sp.exp(-1)) == 0, limit
    evidence.record("lim (1 - 1/m)^m", str(limit))
    assert_close(IN_BAG_LIMIT, float(1 - limit), EXACT_ARITHMETIC,
                 label="|IN_BAG_LIMIT - (1 - lim (1 - 1/m)^m)|")
    for size in range(1, 7):
        total = Fraction(0)
        for sample in product(range(size), repeat=size):
            total += Fraction(len(set(sample)), size)
        mean = total / size**size
        assert mean == expected_in_bag_fraction(size, exact=True), (size, mean)
        evidence.add_examples(1)
    values = [expected_in_bag_fraction(k) for k in range(1, 2001)]
    assert all(a > b for a, b in zip(values, values[1:], strict=False)), "not decreasing"
    assert values[-1] > 1 - math.exp(-1)
    assert_close(values[-1], 1 - math.exp(-1), LIMIT_AT_2000,
                 label="|in-bag fraction at m=2000 - (1 - 1/e)|")
