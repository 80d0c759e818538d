"""Symbolic checks of the exponential-family forms behind the GLMs of 004 §2.2-§2.3:
p(y; eta) = b(y) exp(eta T(y) - a(eta)) for the Gaussian, Bernoulli and categorical
distributions, and the links they imply (identity, logistic, softmax).

Each derivation is cross-checked numerically against the family classes in
``algorithms.linear`` (lambdified log-partition and mean).
"""

from __future__ import annotations

import numpy as np
import sympy as sp

from algorithms.linear import BernoulliFamily, CategoricalFamily, GaussianFamily
from mltheory import Method, claim, evidence
from mltheory.numeric import EXACT_ARITHMETIC, LINEAR_ALGEBRA, assert_close
from mltheory.symbolic import Derivation
from proofs.support import expand_logs

#: Natural parameters for the numeric cross-checks (moderate, both signs).
ETA_GRID = np.linspace(-6.0, 6.0, 13)


@claim(
    id="linear.expfam_gaussian_2_3_1",
    source="004 §2.3.1",
    statement="N(y; mu, sigma^2) = b(y) exp(eta T(y) - a(eta)) with b(y) = exp(-y^2/(2 sigma^2)) / "
    "(sqrt(2 pi) sigma), T(y) = y, eta = mu / sigma^2 and a(eta) = mu^2 / (2 sigma^2).",
    method=Method.SYMBOLIC,
    tags=("linear", "glm", "exponential_family"),
)
def expfam_gaussian_2_3_1() -> None:
    check_gaussian(lambda mu, sigma: mu**2 / (2 * sigma**2))


def check_gaussian(a_of_mu) -> None:
    """The Gaussian factorisation with log-partition ``a_of_mu(mu, sigma)``."""
    y, mu = sp.symbols("y mu", real=True)
    sigma = sp.Symbol("sigma", positive=True)
    eta_s = sp.Symbol("eta", real=True)
    density = sp.exp(-((y - mu) ** 2) / (2 * sigma**2)) / (sp.sqrt(2 * sp.pi) * sigma)
    b_y = sp.exp(-(y**2) / (2 * sigma**2)) / (sp.sqrt(2 * sp.pi) * sigma)
    eta = mu / sigma**2
    a_mu = a_of_mu(mu, sigma)
    a_eta = sigma**2 * eta_s**2 / 2  # a as a function of eta
    Derivation("004 §2.3.1 Gaussian").equal(
        "expanding the square: density = b(y) exp(mu y / sigma^2 - mu^2 / (2 sigma^2))",
        expand_logs(sp.log(density)), expand_logs(sp.log(b_y) + mu * y / sigma**2 - a_mu),
    ).equal(
        "density = b(y) exp(eta T(y) - a) with eta = mu/sigma^2, a = mu^2/(2 sigma^2)",
        expand_logs(sp.log(density)), expand_logs(sp.log(b_y) + eta * y - a_mu),
    ).equal(
        "as a function of eta, a(eta) = sigma^2 eta^2 / 2 equals mu^2/(2 sigma^2)",
        a_eta.subs(eta_s, eta), a_mu,
    ).equal(
        "a'(eta) = E[T(y)] = mu (identity link up to the factor sigma^2)",
        sp.diff(a_eta, eta_s).subs(eta_s, eta), mu,
    ).verify()
    fam = GaussianFamily(1.7)
    a_num = sp.lambdify(eta_s, a_eta.subs(sigma, sp.Rational(17, 10)))
    eta_col = ETA_GRID[:, None]
    assert_close(fam.log_partition(eta_col), a_num(ETA_GRID), EXACT_ARITHMETIC,
                 label="a(eta) vs GaussianFamily.log_partition")
    evidence.add_examples(ETA_GRID.size)


@claim(
    id="linear.expfam_bernoulli_2_3_2",
    source="004 §2.3.2",
    statement="For y in {0, 1}: phi^y (1-phi)^(1-y) = exp(y ln(phi/(1-phi)) + ln(1-phi)), i.e. "
    "b(y) = 1, T(y) = y, eta = ln(phi/(1-phi)), a(eta) = -ln(1-phi); and eta = w^T x then gives "
    "phi = 1/(1 + exp(-w^T x)), so logistic regression is the Bernoulli GLM.",
    method=Method.SYMBOLIC,
    tags=("linear", "glm", "exponential_family", "logistic"),
)
def expfam_bernoulli_2_3_2() -> None:
    check_bernoulli(lambda phi: -sp.log(1 - phi))


def check_bernoulli(a_of_phi) -> None:
    """The Bernoulli factorisation with log-partition ``a_of_phi(phi)``."""
    phi = sp.Symbol("phi", positive=True)
    eta = sp.Symbol("eta", real=True)
    d = Derivation("004 §2.3.2 Bernoulli")
    for y in (0, 1):
        d.equal(f"y = {y}: phi^y (1-phi)^(1-y) = exp(y ln(phi/(1-phi)) + ln(1-phi))",
                phi**y * (1 - phi) ** (1 - y),
                sp.exp(y * sp.log(phi / (1 - phi)) - a_of_phi(phi)))
    solved = sp.solve(sp.Eq(sp.log(phi / (1 - phi)), eta), phi)
    if len(solved) != 1:
        raise AssertionError(f"eta = ln(phi/(1-phi)) should have one solution, got {solved}")
    sigmoid = 1 / (1 + sp.exp(-eta))
    d.equal("inverting eta = ln(phi/(1-phi)) gives phi = 1/(1+e^{-eta})", solved[0], sigmoid)
    d.equal("a = -ln(1-phi) equals ln(1+e^eta) at phi = sigma(eta)",
            expand_logs(a_of_phi(sigmoid)), expand_logs(sp.log(1 + sp.exp(eta))))
    d.equal("a'(eta) = phi", sp.diff(sp.log(1 + sp.exp(eta)), eta), sigmoid)
    d.verify()
    fam = BernoulliFamily()
    eta_col = ETA_GRID[:, None]
    assert_close(fam.log_partition(eta_col), np.log1p(np.exp(ETA_GRID)), EXACT_ARITHMETIC,
                 label="a(eta) vs BernoulliFamily.log_partition")
    assert_close(fam.mean(eta_col)[:, 0], sp.lambdify(eta, sigmoid)(ETA_GRID), EXACT_ARITHMETIC,
                 label="phi(eta) vs BernoulliFamily.mean")
    evidence.add_examples(2 + ETA_GRID.size)


@claim(
    id="linear.expfam_categorical_2_3_3",
    source="004 §2.3.3",
    statement="With T(y)_i = I(y = i) for i < K (T(K) = 0) and eta_i = ln(phi_i / phi_K): "
    "prod_i phi_i^{I(y=i)} = exp(eta . T(y) + ln phi_K), so b(y) = 1 and a(eta) = -ln phi_K; "
    "inverting gives phi_i = e^{eta_i} / (1 + sum_{j<K} e^{eta_j}) for i < K and "
    "phi_K = 1 / (1 + sum_{j<K} e^{eta_j}).",
    method=Method.SYMBOLIC,
    tags=("linear", "glm", "exponential_family", "softmax"),
)
def expfam_categorical_2_3_3() -> None:
    for K in (2, 3, 4):
        check_categorical(K, lambda phis: -sp.log(phis[-1]),
                          lambda etas: 1 + sum(sp.exp(e) for e in etas))


def check_categorical(K: int, a_of_phi, denominator) -> None:
    """The categorical factorisation for ``K`` classes with log-partition
    ``a_of_phi(phis)`` and inverse link ``phi_i = e^{eta_i} / denominator(etas)``
    (``phi_K = 1 / denominator(etas)``)."""
    phis = list(sp.symbols(f"phi1:{K + 1}", positive=True))
    etas = list(sp.symbols(f"eta1:{K}", real=True))
    d = Derivation(f"004 §2.3.3 categorical, K = {K}")
    eta_of_phi = [sp.log(phis[i] / phis[-1]) for i in range(K - 1)]
    for y in range(1, K + 1):
        T = [1 if y == i + 1 else 0 for i in range(K - 1)]
        lhs = sp.Mul(*[phis[i] ** (1 if y == i + 1 else 0) for i in range(K)])
        rhs = sp.exp(sum(t * e for t, e in zip(T, eta_of_phi, strict=True))
                     - a_of_phi(phis))
        d.equal(f"y = {y}: prod phi_i^I(y=i) = exp(eta.T(y) + ln phi_K)", lhs, rhs)
    denom = denominator(etas)
    phi_of_eta = [sp.exp(e) / denom for e in etas] + [1 / denom]
    for i in range(K - 1):
        d.equal(f"eta_{i + 1} = ln(phi_{i + 1}/phi_K) holds for the inverse formula",
                expand_logs(sp.log(phi_of_eta[i] / phi_of_eta[-1])), etas[i])
    d.equal("the inverse probabilities sum to 1", sum(phi_of_eta), 1)
    d.equal("a(eta) = -ln phi_K = ln(1 + sum e^eta)", expand_logs(a_of_phi(phi_of_eta)),
            expand_logs(sp.log(denom)))
    for i in range(K - 1):
        d.equal(f"da/deta_{i + 1} = phi_{i + 1}", sp.diff(sp.log(denom), etas[i]),
                phi_of_eta[i])
    d.verify()
    evidence.add_examples(1)
    fam = CategoricalFamily(K)
    rng = np.random.default_rng(K)
    eta_num = rng.normal(scale=3.0, size=(8, K - 1))
    probs = sp.lambdify(etas, phi_of_eta)
    expected = np.column_stack([np.broadcast_to(np.asarray(v, dtype=float), (8,))
                                for v in probs(*eta_num.T)])
    assert_close(fam.probabilities(eta_num), expected, LINEAR_ALGEBRA,
                 label="phi(eta) vs CategoricalFamily.probabilities")
