"""Approximation by one hidden layer, 003 §3.3 (after (3.12)) and §3.5.1: the error of the
best network found falls as hidden units are added, for sigmoid networks and RBF networks.

Simulation rule (both claims): the target t(x) = 1/2 + 0.35 sin(2 pi x) on [0, 1] (inside
the sigmoid's range), 40 equally spaced training inputs, the maximum error on 401 grid
points. For q = 1, 2, 4, 8 sigmoid units (the best of two L-BFGS fits of (3.12) from
random starts, at most 300 iterations) the error must fall at every doubling and end below
0.02 and below a tenth of the error at q = 1. For q = 2, 4, 8, 16 RBF units (k-means
centres, least-squares weights) the error must fall at every doubling and end below 1e-3.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from scipy.optimize import minimize

from algorithms.neural import BPParams, RBFNetwork, bp_forward
from mltheory import Method, claim, evidence
from properties.neural.support_supervised import independent_gradient, independent_objective

TRAIN = np.linspace(0.0, 1.0, 40)[:, None]
GRID = np.linspace(0.0, 1.0, 401)[:, None]


def target(x: np.ndarray) -> np.ndarray:
    return 0.5 + 0.35 * np.sin(2.0 * np.pi * x)


#: ``fit(X, Y, q, rng) -> predict`` (a function of an (n, 1) array giving (n, 1)).
Fitter = Callable[[np.ndarray, np.ndarray, int, np.random.Generator],
                  Callable[[np.ndarray], np.ndarray]]


def sigmoid_network_fit(X, Y, q, rng):
    """Best of two L-BFGS fits of a 1-q-1 sigmoid network (independent objective)."""
    best = None
    for _ in range(2):
        res = minimize(independent_objective, rng.uniform(-1.0, 1.0, 3 * q + 1),
                       args=(X, Y, (1, q, 1)), jac=independent_gradient, method="L-BFGS-B",
                       options={"maxiter": 300, "gtol": 1e-10})
        if best is None or res.fun < best.fun:
            best = res
    p = BPParams.from_flat(best.x, 1, q, 1)
    return lambda G: bp_forward(G, p.v, p.gamma, p.w, p.theta)[1]


def rbf_network_fit(X, Y, q, rng):
    net = RBFNetwork(n_centres=q, random_state=int(rng.integers(2**31))).fit(X, Y[:, 0])
    return lambda G: net.predict(G)[:, None]


def check_error_falls(fit: Fitter, sizes, rng, *, final_below: float, factor: float,
                      label: str) -> None:
    errors = []
    for q in sizes:
        predict = fit(TRAIN, target(TRAIN), q, rng)
        errors.append(float(np.max(np.abs(predict(GRID) - target(GRID)))))
    evidence.series(f"{label}: max error", list(sizes), errors, kind="line",
                    plot=f"{label}: max error on [0, 1] against hidden units", xlabel="q",
                    ylabel="max |network - target|", logx=True, logy=True)
    evidence.record(f"{label}: max error per q {list(sizes)}", [float(f"{e:.3g}") for e in errors])
    if not all(b < a for a, b in zip(errors, errors[1:], strict=False)):
        raise AssertionError(f"{label}: the error did not fall at every doubling: {errors}")
    if not (errors[-1] < final_below and errors[-1] < errors[0] / factor):
        raise AssertionError(f"{label}: error {errors[-1]:.3g} at q = {sizes[-1]} (needs < "
                             f"{final_below} and < error at q = {sizes[0]} / {factor})")


@claim(
    id="nn.universal_approx",
    source="003 §3.3 (after (3.12))",
    statement="A feed-forward network with one hidden layer of enough sigmoid units "
    "approximates a continuous function to any accuracy: on a fixed continuous target the "
    "error of the best network found falls as hidden units are added (simulation rule in "
    "the module docstring).",
    method=Method.SIMULATION,
    tags=("neural", "approximation", "slow"),
)
def universal_approx(rng, scale):
    check_error_falls(sigmoid_network_fit, (1, 2, 4, 8), rng, final_below=0.02, factor=10.0,
                      label="sigmoid network")


@claim(
    id="rbf.universal_approx",
    source="003 §3.5.1 (after (3.14))",
    statement="An RBF network with enough hidden units approximates a continuous function "
    "to any accuracy: the error of the least-squares RBF network on k-means centres falls "
    "as units are added (simulation rule in the module docstring).",
    method=Method.SIMULATION,
    tags=("neural", "rbf", "approximation"),
)
def rbf_universal_approx(rng, scale):
    check_error_falls(rbf_network_fit, (2, 4, 8, 16), rng, final_below=1e-3, factor=100.0,
                      label="RBF network")
