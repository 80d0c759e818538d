"""Approximation by one hidden layer, 003 §3.3 (after (3.12)) and §3.5.1: the error of the
best network found falls as hidden units are added, for sigmoid networks and RBF networks.

Simulation rule (both claims): the target t(x) = 1/2 + 0.35 sin(2 pi x) on [0, 1] (inside
the sigmoid's range), 40 equally spaced training inputs, the maximum error on 401 grid
points. For q = 1, 2, 4, 8 sigmoid units (the best of L-BFGS fits of (3.12), at most 300
iterations, from two random starts and from the best network of the previous q with its
new units given zero output weights — a larger network contains the smaller one, and
without that start a seed's random starts for q = 8 all ended in a worse minimum than
q = 4's) the error must fall at every doubling and end below 0.02 and below a tenth of the
error at q = 1. For q = 2, 4, 8, 16 RBF units (k-means
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


#: ``fit(X, Y, q, rng, previous) -> (predict, model)``: ``predict`` maps an (n, 1) array to
#: (n, 1); ``model`` is handed to the fit of the next size as ``previous``.
Fitter = Callable[..., tuple[Callable[[np.ndarray], np.ndarray], object]]


def _embed(previous: BPParams | None, q: int, rng) -> list[np.ndarray]:
    """The previous 1-q'-1 network padded to q units that do not reach the output."""
    if previous is None:
        return []
    extra = q - previous.gamma.size
    return [BPParams(np.hstack([previous.v, rng.uniform(-1, 1, (1, extra))]),
                     np.concatenate([previous.gamma, rng.uniform(-1, 1, extra)]),
                     np.vstack([previous.w, np.zeros((extra, 1))]), previous.theta).flat()]


def sigmoid_network_fit(X, Y, q, rng, previous: BPParams | None = None):
    """Best L-BFGS fit of a 1-q-1 sigmoid network (independent objective) from two random
    starts and the embedded ``previous`` network; returns (predict, parameters)."""
    best = None
    for start in [rng.uniform(-1.0, 1.0, 3 * q + 1) for _ in range(2)] + _embed(previous, q,
                                                                              rng):
        res = minimize(independent_objective, start, args=(X, Y, (1, q, 1)),
                       jac=independent_gradient, method="L-BFGS-B",
                       options={"maxiter": 300, "gtol": 1e-10})
        if best is None or res.fun < best.fun:
            best = res
    p = BPParams.from_flat(best.x, 1, q, 1)
    return (lambda G: bp_forward(G, p.v, p.gamma, p.w, p.theta)[1]), p


def rbf_network_fit(X, Y, q, rng, previous=None):
    net = RBFNetwork(n_centres=q, random_state=int(rng.integers(2**31))).fit(X, Y[:, 0])
    return (lambda G: net.predict(G)[:, None]), None


def check_error_falls(fit: Fitter, sizes, rng, *, final_below: float, factor: float,
                      label: str) -> None:
    errors, model = [], None
    for q in sizes:
        predict, model = fit(TRAIN, target(TRAIN), q, rng, model)
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
