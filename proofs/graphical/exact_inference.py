"""Symbolic derivations of 003 §12.1 and §12.4: the forward recursion as the
distributive law applied to the sum of (12.1) over state paths, and variable
elimination / belief propagation on a chain as the same law applied to (12.5).

Each derivation runs on symbolic parameters of a small model (two states, three steps;
four binary variables) — polynomial identities that sympy checks exactly — and is
cross-checked numerically against ``algorithms.graphical``.
"""

from __future__ import annotations

import itertools

import numpy as np
import sympy as sp

from algorithms.graphical import Factor, belief_propagation, hmm_forward, variable_elimination
from mltheory import Method, claim, evidence
from mltheory.numeric import assert_close
from mltheory.symbolic import Derivation
from properties.graphical.support_exact import ENUMERATED, LOG_ENUMERATED

N_STATES, N_STEPS = 2, 3
a = sp.Matrix(N_STATES, N_STATES, lambda i, j: sp.Symbol(f"a{i + 1}{j + 1}", positive=True))
#: b_i(x_t): the emission probability of the observed symbol at step t from state i
b = sp.Matrix(N_STATES, N_STEPS, lambda i, t: sp.Symbol(f"b{i + 1}_{t + 1}", positive=True))
pi = sp.Matrix(1, N_STATES, lambda _, i: sp.Symbol(f"pi{i + 1}", positive=True))


def printed_joint(y) -> sp.Expr:
    """(12.1) for the state path y and the fixed observations."""
    out = pi[y[0]] * b[y[0], 0]
    for i in range(1, N_STEPS):
        out *= a[y[i - 1], y[i]] * b[y[i], i]
    return out


@claim(
    id="hmm.forward_symbolic",
    source="003 §12.1 (12.1)",
    statement="The forward recursion alpha_1(j) = pi_j b_j(x_1), alpha_t(j) = b_j(x_t) "
    "sum_i alpha_{t-1}(i) a_ij is the distributive law applied to sum over y of (12.1): "
    "for symbolic A, b and pi (2 states, 3 steps) sum_j alpha_3(j) equals the sum over "
    "all 8 state paths identically, and alpha_t(j) the sum over paths ending in j; "
    "numerically our forward pass agrees with the symbolic expression.",
    method=Method.SYMBOLIC,
    tags=("graphical", "hmm"),
)
def forward_symbolic():
    alpha = [pi[j] * b[j, 0] for j in range(N_STATES)]
    d = Derivation("sum over paths of (12.1) -> forward recursion")
    for t in range(1, N_STEPS):
        alpha = [b[j, t] * sum(alpha[i] * a[i, j] for i in range(N_STATES))
                 for j in range(N_STATES)]
        for j in range(N_STATES):
            paths = [(*y, j) for y in itertools.product(range(N_STATES), repeat=t)]
            d.equal(f"alpha_{t + 1}({j + 1}) = sum of (12.1) prefixes over paths ending in "
                    f"{j + 1}", sp.expand(alpha[j]),
                    sp.expand(sum(_prefix(y) for y in paths)))
    total = sum(printed_joint(y) for y in itertools.product(range(N_STATES), repeat=N_STEPS))
    d.equal("P(x) = sum_j alpha_n(j)", sp.expand(sum(alpha)), sp.expand(total))
    d.verify()
    # numeric cross-check: a random model and a sequence whose symbols define b
    rng = np.random.default_rng(0)
    A = rng.dirichlet(np.ones(N_STATES), N_STATES)
    B = rng.dirichlet(np.ones(3), N_STATES)
    p0 = rng.dirichlet(np.ones(N_STATES))
    x = rng.integers(0, 3, N_STEPS)
    subs = {a[i, j]: A[i, j] for i in range(N_STATES) for j in range(N_STATES)}
    subs.update({b[i, t]: B[i, x[t]] for i in range(N_STATES) for t in range(N_STEPS)})
    subs.update({pi[i]: p0[i] for i in range(N_STATES)})
    assert_close(hmm_forward(A, B, p0, x)[1], float(sp.log(total.subs(subs))), LOG_ENUMERATED,
                 label="|forward log P(x) - symbolic|")
    evidence.note("2 states, 3 steps: 8 paths, every alpha_t(j) checked")


def _prefix(y) -> sp.Expr:
    out = pi[y[0]] * b[y[0], 0]
    for i in range(1, len(y)):
        out *= a[y[i - 1], y[i]] * b[y[i], i]
    return out


#: psi_i(x_i, x_{i+1}) of the chain x_1 - x_2 - x_3 - x_4 (binary variables)
psi = [sp.Matrix(2, 2, lambda u, v, e=e: sp.Symbol(f"psi{e + 1}{e + 2}_{u}{v}", positive=True))
       for e in range(3)]


@claim(
    id="ve.distributive_symbolic",
    source="003 §12.4.1-§12.4.2 (12.12)-(12.13)",
    statement="On the chain x_1 - x_2 - x_3 - x_4 with symbolic positive pairwise "
    "potentials, summing x_1, x_4 and x_3 out one at a time (the distributive law) gives "
    "the unnormalised marginal of x_2 identically; the same expression is the product "
    "of the two messages m_12(x_2) m_32(x_2) of (12.12)-(12.13); and sum over x_2 is Z. "
    "Numerically our variable elimination and BP agree with it.",
    method=Method.SYMBOLIC,
    tags=("graphical", "inference", "ve"),
)
def distributive_symbolic():
    def joint(x):
        return psi[0][x[0], x[1]] * psi[1][x[1], x[2]] * psi[2][x[2], x[3]]

    d = Derivation("sum of (12.5) -> elimination / messages")
    m12 = [sum(psi[0][u, v] for u in range(2)) for v in range(2)]  # sum over x_1
    m43 = [sum(psi[2][w, z] for z in range(2)) for w in range(2)]  # sum over x_4
    m32 = [sum(psi[1][v, w] * m43[w] for w in range(2)) for v in range(2)]  # (12.12)
    for v in range(2):
        brute = sum(joint((u, v, w, z)) for u, w, z in itertools.product(range(2), repeat=3))
        d.equal(f"sum over x_1, x_3, x_4 at x_2 = {v} equals m_12 m_32 (12.13)",
                sp.expand(brute), sp.expand(m12[v] * m32[v]))
    Z = sum(joint(x) for x in itertools.product(range(2), repeat=4))
    d.equal("Z = sum over x_2 of the product of incoming messages",
            sp.expand(Z), sp.expand(sum(m12[v] * m32[v] for v in range(2))))
    d.verify()
    rng = np.random.default_rng(1)
    vals = [np.exp(rng.normal(size=(2, 2))) for _ in range(3)]
    subs = {psi[e][u, v]: vals[e][u, v] for e in range(3) for u in range(2) for v in range(2)}
    sym = np.array([float((m12[v] * m32[v]).subs(subs)) for v in range(2)])
    sym = sym / sym.sum()
    fs = [Factor((e, e + 1), vals[e]) for e in range(3)]
    assert_close(variable_elimination(fs, [1]).probabilities, sym, ENUMERATED,
                 label="|VE marginal of x_2 - symbolic|")
    bp = belief_propagation(np.array([[0, 1], [1, 2], [2, 3]]), np.stack(vals))
    assert_close(bp.marginals[1], sym, ENUMERATED, label="|BP marginal of x_2 - symbolic|")
