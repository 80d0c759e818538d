"""Symbolic check of the gradient of the value-approximation error (003 §14.5 (14.23)–(14.25)).

The expectation over x ~ π is a weighted sum over finitely many states with symbolic
probabilities p_i, features x_i ∈ R^k and values V_i (sizes n = 1..3 states, k = 1..3
features), so each step is a polynomial identity that sympy decides exactly. A numeric
cross-check compares the lambdified gradient with the step of the library's
LinearValueRegression from θ = 0 on a one-state sampling distribution, which is
α(V − θᵀx)x = (α/2)·(−∂E/∂θ) by (14.25).
"""

from __future__ import annotations

import numpy as np
import sympy as sp

from algorithms.reinforcement import LinearValueRegression
from mltheory import Method, claim, evidence
from mltheory.numeric import EXACT_ARITHMETIC, assert_close
from mltheory.symbolic import Derivation

SIZES = ((1, 1), (2, 2), (3, 2), (2, 3))


def error_and_symbols(n: int, k: int):
    """E_θ = Σ_i p_i (V_i − θᵀx_i)² (14.23) with its symbols."""
    theta = sp.Matrix(sp.symbols(f"theta1:{k + 1}", real=True))
    p = sp.symbols(f"p1:{n + 1}", positive=True)
    V = sp.symbols(f"V1:{n + 1}", real=True)
    X = [sp.Matrix(sp.symbols(f"x{i}_1:{k + 1}", real=True)) for i in range(1, n + 1)]
    E = sum(p[i] * (V[i] - (theta.T * X[i])[0]) ** 2 for i in range(n))
    return E, theta, p, V, X


def check_gradient(factor=2) -> None:
    """−∂E_θ/∂θ = E[factor (V − θᵀx) x] for every size in SIZES; ``factor = 2`` is (14.24)."""
    for n, k in SIZES:
        E, theta, p, V, X = error_and_symbols(n, k)
        claimed = sum((p[i] * factor * (V[i] - (theta.T * X[i])[0]) * X[i] for i in range(n)),
                      sp.zeros(k, 1))
        minus_grad = sp.Matrix([-sp.diff(E, t) for t in theta])
        der = Derivation(f"003 (14.24) with {n} states, {k} features")
        der.equal("−∂E_θ/∂θ = E[2(V^π(x) − θᵀx) x]", minus_grad, claimed)
        der.equal("(14.25): per-sample step (V − θᵀx)x = ½ of its negative gradient",
                  (V[0] - (theta.T * X[0])[0]) * X[0],
                  sp.Matrix([-sp.diff((V[0] - (theta.T * X[0])[0]) ** 2, t) / 2
                             for t in theta]))
        der.verify()
        evidence.add_examples(1)
    # numeric cross-check against the library's update (one deterministic step from 0)
    rng = np.random.default_rng(0)
    E, theta, p, V, X = error_and_symbols(1, 3)
    grad = sp.lambdify((*theta, *p, *V, *X[0]),
                       [factor * p[0] * (V[0] - (theta.T * X[0])[0]) * xi for xi in X[0]])
    x = rng.normal(size=3)
    v = float(rng.normal())
    alpha = 0.3
    model = LinearValueRegression(alpha=alpha, alpha_power=0.0, n_steps=1, random_state=0
                                  ).fit(x[None, :], np.array([v]))
    g = np.array(grad(0.0, 0.0, 0.0, 1.0, v, *x))
    assert_close(model.theta_, alpha / 2 * g, EXACT_ARITHMETIC,
                 context="library step against (α/2)(−∂E/∂θ): ")


@claim(
    id="vfa.gradient_14_23_14_24",
    source="003 §14.5 (14.23)–(14.24)",
    statement="For V_θ(x) = θᵀx and E_θ = E_{x∼π}[(V^π(x) − V_θ(x))²], the negative "
    "gradient is −∂E_θ/∂θ = E_{x∼π}[2(V^π(x) − V_θ(x))x].",
    method=Method.SYMBOLIC,
    tags=("reinforcement", "vfa"),
)
def gradient_14_23_14_24():
    check_gradient(2)
