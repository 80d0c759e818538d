"""Symbolic derivations of 003 Chapter 7 (clustering): the stationarity equations of the
Gaussian-mixture log-likelihood (7.22)-(7.27) and the mean as the minimiser of (7.16).

The mixture derivation runs on a one-dimensional mixture of two components and three
symbolic samples (the same algebra holds per coordinate), plus the two-dimensional
gradient of the quadratic form with a symbolic covariance; each step is checked with
sympy and the closed forms are cross-checked numerically against
:class:`algorithms.clustering.GaussianMixtureEM`.
"""

from __future__ import annotations

import numpy as np
import sympy as sp

from algorithms.clustering import GaussianMixtureEM, MixtureParams
from mltheory import ErratumKind, Expect, Method, claim, evidence
from mltheory.numeric import LINEAR_ALGEBRA, assert_close
from mltheory.symbolic import Derivation

xs = sp.symbols("x1:4", real=True)
mu1, mu2 = sp.symbols("mu1 mu2", real=True)
s1, s2 = sp.symbols("s1 s2", positive=True)  # variances sigma_i^2
a1, a2 = sp.symbols("alpha1 alpha2", positive=True)
lam = sp.Symbol("lambda", real=True)
M = len(xs)


#: exp(-(x_j - mu_i)^2 / (2 sigma_i^2)) as positive symbols once derivatives are taken, so
#: sympy compares rational functions instead of simplifying exponentials.
EXPS = {(i, j): sp.Symbol(f"E{i}{j + 1}", positive=True) for i in (1, 2) for j in range(len(xs))}


def _density(x, mu, s):
    return sp.exp(-(x - mu) ** 2 / (2 * s)) / sp.sqrt(2 * sp.pi * s)


def rational(expr):
    """``expr`` with the Gaussian exponentials replaced by :data:`EXPS`, as one fraction."""
    subs = {sp.exp(-(x - mu) ** 2 / (2 * s)): EXPS[(i, j)]
            for i, mu, s in ((1, mu1, s1), (2, mu2, s2)) for j, x in enumerate(xs)}
    return sp.cancel(sp.together(sp.sympify(expr).subs(subs)))


def _mixture():
    """p_1(x_j), p_2(x_j), p_M(x_j), gamma_j1, gamma_j2 and LL (7.21) for the 3 samples."""
    p1 = [_density(x, mu1, s1) for x in xs]
    p2 = [_density(x, mu2, s2) for x in xs]
    pm = [a1 * u + a2 * v for u, v in zip(p1, p2, strict=True)]
    g1 = [a1 * u / w for u, w in zip(p1, pm, strict=True)]
    g2 = [a2 * v / w for v, w in zip(p2, pm, strict=True)]
    return p1, p2, pm, g1, g2, sum(sp.log(w) for w in pm)


def _dalpha(p_i, pm):
    """(7.26): the alpha_i-derivative of the Lagrangian (7.25)."""
    return sum(u / w for u, w in zip(p_i, pm, strict=True)) + lam


@claim(
    id="gmm.stationarity_derivation",
    source="003 §7.4.3 (7.22)-(7.27)",
    statement="For LL (7.21): dLL/dmu_i = sum_j gamma_ji Sigma_i^(-1) (x_j - mu_i), so "
    "dLL/dmu_i = 0 is (7.22) and gives (7.23); dLL/dSigma_i vanishes exactly at (7.24); "
    "the alpha_i-derivative of the Lagrangian (7.25) is (7.26); multiplying (7.26) by "
    "alpha_i and summing over the components gives m + lambda = 0, so lambda = -m and "
    "alpha_i = (1/m) sum_j gamma_ji (7.27).",
    method=Method.SYMBOLIC,
    tags=("clustering", "gmm", "symbolic"),
)
def stationarity_derivation():
    p1, p2, pm, g1, g2, LL = _mixture()
    n1 = sum(g1)
    scatter1 = sum(g * (x - mu1) ** 2 for g, x in zip(g1, xs, strict=True)) / n1
    d = Derivation("(7.21) -> (7.22)-(7.27)")
    d.equal("dLL/dmu_1 (7.22) times 1/sigma_1^2", rational(sp.diff(LL, mu1)),
            rational(sum(g * (x - mu1) for g, x in zip(g1, xs, strict=True)) / s1))
    d.equal("dLL/dsigma_1^2 = N_1 (S_1 - sigma_1^2) / (2 sigma_1^4)", rational(sp.diff(LL, s1)),
            rational(n1 * (scatter1 - s1) / (2 * s1**2)),
            because="zero exactly when sigma_1^2 = S_1, the weighted scatter (7.24)")
    L = LL + lam * (a1 + a2 - 1)
    d.equal("d(7.25)/dalpha_1 is (7.26)", rational(sp.diff(L, a1)), rational(_dalpha(p1, pm)))
    d.equal("sum over components of alpha_i (7.26)",
            rational(a1 * _dalpha(p1, pm) + a2 * _dalpha(p2, pm)), M + lam * (a1 + a2),
            because="sum_i gamma_ji = 1 for every sample j")
    d.equal("with sum alpha_i = 1: lambda", sp.solve(sp.Eq(M + lam, 0), lam)[0], -M)
    d.equal("alpha_1 (7.26) at lambda = -m is N_1 - m alpha_1",
            rational((a1 * _dalpha(p1, pm)).subs(lam, -M)), rational(n1 - M * a1),
            because="zero exactly at alpha_1 = N_1 / m = (1/m) sum_j gamma_j1 (7.27)")
    mu = sp.Matrix(sp.symbols("m_a m_b", real=True))
    x = sp.Matrix(sp.symbols("y_a y_b", real=True))
    sa, sb = sp.symbols("S_aa S_bb", positive=True)
    sab = sp.Symbol("S_ab", real=True)
    S = sp.Matrix([[sa, sab], [sab, sb]])
    quad = -((x - mu).T * S.inv() * (x - mu))[0] / 2
    d.equal("2-d: gradient of -(x-mu)^T Sigma^(-1) (x-mu)/2 in mu is Sigma^(-1)(x-mu)",
            sp.Matrix([sp.diff(quad, v) for v in mu]), S.inv() * (x - mu))
    d.verify()
    _cross_check(g1, n1)


def _cross_check(g1, n1) -> None:
    """gamma_j1 and the M-step mean of the 1-d derivation against the implementation."""
    values = {xs[0]: -1.0, xs[1]: 0.5, xs[2]: 2.0, mu1: 0.0, mu2: 1.5, s1: 0.7, s2: 1.3,
              a1: 0.4, a2: 0.6}
    params = MixtureParams(np.array([0.4, 0.6]), np.array([[0.0], [1.5]]),
                           np.array([[[0.7]], [[1.3]]]))
    X = np.array([[-1.0], [0.5], [2.0]])
    model = GaussianMixtureEM(2, reg_covar=0.0)
    stats_, _ = model.e_step(X, params)
    assert_close(stats_.resp[:, 0], [float(g.subs(values)) for g in g1], LINEAR_ALGEBRA,
                 label="|gamma (implementation) - (7.19) (sympy)|")
    mean = float((sum(g * x for g, x in zip(g1, xs, strict=True)) / n1).subs(values))
    assert_close(model.m_step(X, stats_).means[0, 0], mean, LINEAR_ALGEBRA,
                 label="|M-step mu - (7.23) (sympy)|")


@claim(
    id="gmm.lambda_over_samples_as_written",
    source="003 §7.4.3 (7.26)-(7.27)",
    statement="(As printed) multiplying (7.26) by alpha_i and summing over all samples "
    "gives lambda = -m.",
    method=Method.SYMBOLIC,
    tags=("clustering", "gmm", "symbolic", "erratum"),
    expect=Expect.REFUTED,
    kind=ErratumKind.SYMBOL,
    corrected_by="gmm.stationarity_derivation",
    explanation="Wrong index: (7.26) already sums over the samples; multiplying by alpha_i "
    "and summing over the m samples only scales it by m and gives lambda = -(1/alpha_i) "
    "sum_j gamma_ji, which depends on i. The sum must run over the mixture components, "
    "where sum_i gamma_ji = 1 and sum_i alpha_i = 1 give m + lambda = 0.",
)
def lambda_over_samples_as_written():
    p1, _, pm, _, _, _ = _mixture()
    summed = rational(sum(a1 * _dalpha(p1, pm) for _ in xs))  # the term once per sample
    d = Derivation("(7.26) summed over samples")
    d.equal("lambda from sum_j alpha_1 (7.26) = 0",
            rational(sp.solve(sp.Eq(summed, 0), lam)[0]), -M)
    d.verify()


@claim(
    id="kmeans.mean_derivation",
    source="003 §7.4.1 (7.16)",
    statement="Within one cluster, d/dmu sum_{x in C} ||x - mu||^2 = -2 sum_{x in C} "
    "(x - mu) vanishes only at mu = (1/|C|) sum_{x in C} x, and the Hessian 2|C| I is "
    "positive definite: the mean minimises the cluster's term of (7.16).",
    method=Method.SYMBOLIC,
    tags=("clustering", "kmeans", "symbolic"),
)
def mean_derivation():
    ys = sp.symbols("z1:5", real=True)
    mu = sp.Symbol("mu", real=True)
    E = sum((y - mu) ** 2 for y in ys)
    d = Derivation("(7.16) per cluster and coordinate")
    d.equal("dE/dmu", sp.diff(E, mu), -2 * sum(y - mu for y in ys))
    d.equal("stationary point", sp.solve(sp.diff(E, mu), mu)[0], sum(ys) / len(ys))
    d.equal("second derivative", sp.diff(E, mu, 2), 2 * len(ys))
    d.verify()
    evidence.note("the coordinates of ||x - mu||^2 separate, so the scalar case suffices")
