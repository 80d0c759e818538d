"""Symbolic derivations of 003 Chapter 5 (Bayes classifiers, EM).

- 0/1 loss turns the conditional risk (5.2) into 1 - P(c | x) (so (5.3) is argmax
  posterior), for any number of classes up to 6;
- the stationarity equations of the Gaussian log-likelihood (5.4) giving the sample mean
  and the biased variance (5.5), with a negative-definite Hessian there, and the
  Lagrangian of the categorical log-likelihood giving the frequencies;
- Laplace smoothing normalises;
- EM (5.14)-(5.15): the decomposition LL(Theta) = Q(Theta | Theta^t) + H(Theta |
  Theta^t) and the Gibbs inequality H(Theta | Theta^t) >= H(Theta^t | Theta^t) that
  makes the likelihood gain at least the Q gain.

Each step is checked with sympy (the report names the first failing step) and
cross-checked numerically against :mod:`algorithms.bayes`.
"""

from __future__ import annotations

import numpy as np
import sympy as sp

from algorithms.bayes import categorical_mle, conditional_risk, gaussian_mle, zero_one_loss
from mltheory import Method, claim, evidence
from mltheory.numeric import EXACT_ARITHMETIC, assert_close
from mltheory.symbolic import Derivation


@claim(
    id="bayes.zero_one_loss_symbolic",
    source="003 §5.2 (5.2)-(5.3)",
    statement="With lambda_ij = 1 - delta_ij and posteriors summing to 1, (5.2) gives "
    "R(c_i | x) = 1 - P(c_i | x) for every class i and every number of classes N.",
    method=Method.SYMBOLIC,
    tags=("bayes", "decision", "symbolic"),
)
def zero_one_loss_symbolic():
    for N in range(2, 7):
        P = sp.symbols(f"P1:{N + 1}", nonnegative=True)
        last = 1 - sum(P[:-1])  # the posteriors sum to 1
        deriv = Derivation(f"(5.2) under 0/1 loss, N = {N}")
        for i in range(N):
            risk = sum((0 if j == i else 1) * P[j] for j in range(N))
            deriv.equal(f"R(c_{i + 1} | x)", risk.subs(P[-1], last),
                        (1 - P[i]).subs(P[-1], last))
        deriv.verify()
        post = np.random.default_rng(N).dirichlet(np.ones(N), size=4)
        assert_close(conditional_risk(post, zero_one_loss(N)), 1 - post, EXACT_ARITHMETIC,
                     label="|conditional_risk - (1 - P)|")


@claim(
    id="mle.gaussian_stationarity",
    source="003 §5.3 (5.4)-(5.5)",
    statement="The Gaussian log-likelihood sum_i log N(x_i | mu, v) is stationary exactly "
    "at mu = (1/m) sum x_i and v = (1/m) sum (x_i - mu)^2, where its Hessian is negative "
    "definite (a maximum).",
    method=Method.SYMBOLIC,
    tags=("bayes", "mle", "symbolic"),
)
def gaussian_stationarity():
    m = 4
    xs = sp.symbols(f"x1:{m + 1}", real=True)
    mu = sp.symbols("mu", real=True)
    v = sp.symbols("v", positive=True)
    ll = sum(-sp.log(2 * sp.pi * v) / 2 - (x - mu) ** 2 / (2 * v) for x in xs)
    mean = sum(xs) / m
    var = sum((x - mean) ** 2 for x in xs) / m
    deriv = Derivation("(5.4) -> (5.5), Gaussian")
    deriv.equal("d LL / d mu", sp.diff(ll, mu), sum(x - mu for x in xs) / v)
    assert sp.solve(sp.diff(ll, mu), mu) == [mean], "d/dmu = 0 has another root"
    deriv.equal("d LL / d v at mu = mean", sp.diff(ll, v).subs(mu, mean),
                (m * var - m * v) / (2 * v**2))
    roots = sp.solve(sp.diff(ll, v).subs(mu, mean), v)
    assert len(roots) == 1 and sp.simplify(roots[0] - var) == 0, roots
    H = sp.hessian(ll, (mu, v)).subs({mu: mean}).subs(v, var)
    deriv.equal("Hessian entry (mu, mu)", H[0, 0], -m / var)
    deriv.equal("Hessian entry (mu, v)", H[0, 1], 0)
    deriv.equal("Hessian entry (v, v)", H[1, 1], -m / (2 * var**2))
    deriv.verify()
    evidence.note("Hessian at the stationary point: diag(-m/v, -m/(2 v^2)), negative "
                  "definite for v > 0")
    X = np.random.default_rng(0).normal(size=(m, 1)) * 3 + 1
    numbers = dict(zip(xs, X[:, 0], strict=True))
    mean_hat, cov_hat = gaussian_mle(X)
    assert_close(mean_hat[0], float(mean.subs(numbers)), EXACT_ARITHMETIC, label="|mu - sympy|")
    assert_close(cov_hat[0, 0], float(var.subs(numbers)), EXACT_ARITHMETIC,
                 label="|v - sympy|")


@claim(
    id="mle.categorical_lagrange",
    source="003 §5.3 (5.5)",
    statement="Maximising sum_k n_k log theta_k subject to sum_k theta_k = 1 (a Lagrange "
    "multiplier) gives theta_k = n_k / sum_j n_j, the relative frequencies.",
    method=Method.SYMBOLIC,
    tags=("bayes", "mle", "symbolic"),
)
def categorical_lagrange():
    K = 3
    n = sp.symbols(f"n1:{K + 1}", positive=True)
    th = sp.symbols(f"theta1:{K + 1}", positive=True)
    lam = sp.symbols("lambda", real=True)
    lagrangian = sum(nk * sp.log(t) for nk, t in zip(n, th, strict=True)) + lam * (1 - sum(th))
    sol = sp.solve([sp.diff(lagrangian, t) for t in th] + [sp.diff(lagrangian, lam)],
                   [*th, lam], dict=True)
    assert len(sol) == 1, sol
    deriv = Derivation("Lagrangian of the categorical LL")
    for nk, t in zip(n, th, strict=True):
        deriv.equal(f"{t} at the stationary point", sol[0][t], nk / sum(n))
    deriv.equal("lambda = total count", sol[0][lam], sum(n))
    deriv.verify()
    counts = np.array([3, 0, 5])
    assert_close(categorical_mle(np.repeat(np.arange(K), counts), K), counts / counts.sum(),
                 EXACT_ARITHMETIC, label="|categorical_mle - n_k / n|")


@claim(
    id="nb.laplace_normalises_symbolic",
    source="003 §5.4 (5.7)",
    statement="(Book's correction) Laplace-smoothed estimates sum to 1: sum_v (N_v + "
    "alpha)/(N + alpha n) = 1 with N = sum_v N_v, for any alpha > 0.",
    method=Method.SYMBOLIC,
    tags=("bayes", "naive-bayes", "symbolic"),
)
def laplace_normalises_symbolic():
    alpha = sp.symbols("alpha", positive=True)
    deriv = Derivation("Laplace smoothing normalises")
    for r in range(2, 6):
        N = sp.symbols(f"N1:{r + 1}", nonnegative=True)
        deriv.equal(f"{r} values", sum((Nv + alpha) / (sum(N) + alpha * r) for Nv in N), 1)
    deriv.verify()


@claim(
    id="em.lower_bound_derivation",
    source="003 §5.7 (5.14)-(5.15)",
    statement="With q(z) = P(z | x, Theta^t): log P(x | Theta) = Q(Theta | Theta^t) + "
    "H(Theta | Theta^t), H = -sum_z q(z) log P(z | x, Theta), and H(Theta | Theta^t) >= "
    "H(Theta^t | Theta^t) (Gibbs' inequality via -log t >= 1 - t), so the M-step's gain in "
    "Q is a lower bound on the gain in log-likelihood.",
    method=Method.SYMBOLIC,
    tags=("bayes", "em", "symbolic"),
)
def lower_bound_derivation():
    t = sp.symbols("t", positive=True)
    assert sp.minimum(t - 1 - sp.log(t), t, sp.Interval.open(0, sp.oo)) == 0, (
        "-log t >= 1 - t fails on (0, oo)")
    evidence.note("-log t >= 1 - t: the minimum over t > 0 of t - 1 - log t is 0 (sympy)")
    K = 3
    a = sp.symbols(f"a1:{K + 1}", positive=True)  # a_z = P(x, z | Theta)
    q = sp.symbols(f"q1:{K + 1}", positive=True)  # posterior at Theta^t
    p = [az / sum(a) for az in a]  # P(z | x, Theta)
    Q = sum(qz * sp.log(az) for qz, az in zip(q, a, strict=True))
    H = -sum(qz * sp.log(pz) for qz, pz in zip(q, p, strict=True))
    qK = 1 - sum(q[:-1])
    deriv = Derivation("log P(x | Theta) = Q + H", identities={q[-1]: qK})
    deriv.equal("decomposition", sp.expand_log(Q + H, force=True).subs(q[-1], qK),
                sp.log(sum(a)))
    # H(Theta) - H(Theta^t) = sum_z q_z (-log(p_z / q_z)) >= sum_z q_z (1 - p_z / q_z)
    lower = sum(qz * (1 - pz / qz) for qz, pz in zip(q, p, strict=True))
    deriv.equal("sum_z q_z (1 - p_z / q_z) = 1 - sum_z p_z = 0", sp.simplify(lower.subs(
        q[-1], qK)), 1 - sp.simplify(sum(p)))
    deriv.equal("sum_z p_z = 1", sp.simplify(sum(p)), 1)
    deriv.verify()
    rng = np.random.default_rng(1)
    for _ in range(20):  # numeric cross-check of the decomposition and the inequality
        av, qv = rng.random(K) + 1e-3, rng.dirichlet(np.ones(K))
        pv = av / av.sum()
        assert abs(float(qv @ np.log(av)) - float(qv @ np.log(pv)) - np.log(av.sum())) < 1e-12
        assert float(qv @ np.log(qv / pv)) >= -1e-15
