"""Hypothesis strategies for the other networks of 003 §3.5.2-§3.5.6: point clouds for
ART, Boltzmann machines, Elman problems and cascade-correlation regression sets."""

from __future__ import annotations

import warnings
from dataclasses import dataclass

import numpy as np
from hypothesis import strategies as st
from sklearn.exceptions import ConvergenceWarning

from algorithms.neural import ElmanNetwork

SEEDS = st.integers(0, 2**32 - 1)


@st.composite
def point_clouds(draw, min_size: int = 2, max_size: int = 40) -> np.ndarray:
    """Points in 1..4 dimensions: a few blobs at a drawn scale, sometimes with repeats."""
    rng = np.random.default_rng(draw(SEEDS))
    n = draw(st.integers(min_size, max_size))
    d = draw(st.integers(1, 4))
    k = draw(st.integers(1, 4))
    spread = draw(st.sampled_from([0.05, 0.3, 1.0, 3.0]))
    centres = rng.normal(scale=3.0, size=(k, d))
    X = centres[rng.integers(k, size=n)] + spread * rng.normal(size=(n, d))
    if draw(st.booleans()):  # repeated samples: a resonance moves a prototype onto x
        X[n // 2:] = X[: n - n // 2]
    return X


@st.composite
def boltzmann_machines(draw) -> tuple[np.ndarray, np.ndarray]:
    """Symmetric zero-diagonal weights and thresholds on 1..10 units, at scales from
    nearly uniform distributions (0.05) to nearly deterministic ones (50)."""
    rng = np.random.default_rng(draw(SEEDS))
    n = draw(st.integers(1, 10))
    scale = draw(st.sampled_from([0.05, 1.0, 5.0, 50.0]))
    W = np.triu(rng.normal(scale=scale, size=(n, n)), 1)
    W = W + W.T
    if draw(st.booleans()):  # integer weights: many exactly tied energies
        W, theta = np.round(W), np.round(rng.normal(scale=scale, size=n))
    else:
        theta = rng.normal(scale=scale, size=n)
    return W, theta


@dataclass
class ElmanProblem:
    """A network with drawn parameters, sequences and targets in its output range."""

    net: ElmanNetwork
    X: np.ndarray
    Y: np.ndarray


def elman_network(params: dict, output: str, X: np.ndarray, Y: np.ndarray,
                  seed: int) -> ElmanNetwork:
    """An unstandardised ElmanNetwork fitted for one step, then given ``params``."""
    q = params["U"].shape[0]
    net = ElmanNetwork(n_hidden=q, max_iter=1, output_activation=output, standardize=False,
                       random_state=seed)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        net.fit(X, Y)
    for k, v in params.items():
        setattr(net, f"{k}_", np.array(v, dtype=float))
    return net


@st.composite
def elman_problems(draw, min_steps: int = 1, max_scale: float = 8.0) -> ElmanProblem:
    """Sizes n_sequences 1..4, T in min_steps..6, d 1..3, q 1..4, l 1..2; weights uniform
    at a drawn scale up to ``max_scale`` (saturated sigmoids at the top)."""
    rng = np.random.default_rng(draw(SEEDS))
    n = draw(st.integers(1, 4))
    T = draw(st.integers(min_steps, 6))
    d, q, n_out = draw(st.integers(1, 3)), draw(st.integers(1, 4)), draw(st.integers(1, 2))
    scale = draw(st.sampled_from([s for s in (0.1, 1.0, 3.0, 8.0) if s <= max_scale]))
    output = draw(st.sampled_from(["sigmoid", "identity"]))
    X = rng.normal(size=(n, T, d))
    Y = rng.random((n, T, n_out)) if output == "sigmoid" else rng.normal(size=(n, T, n_out))
    params = {"V": rng.uniform(-scale, scale, (d, q)), "U": rng.uniform(-scale, scale, (q, q)),
              "gamma": rng.uniform(-scale, scale, q), "W": rng.uniform(-scale, scale, (q, n_out)),
              "theta": rng.uniform(-scale, scale, n_out)}
    return ElmanProblem(elman_network(params, output, X, Y, 0), X, Y)


@st.composite
def regression_sets(draw) -> tuple[np.ndarray, np.ndarray]:
    """A smooth nonlinear target of 1..3 inputs with noise, 15..60 samples."""
    rng = np.random.default_rng(draw(SEEDS))
    m, d = draw(st.integers(15, 60)), draw(st.integers(1, 3))
    X = rng.uniform(-2.0, 2.0, size=(m, d)) * draw(st.sampled_from([1.0, 1e-3, 1e3]))
    u = X / np.max(np.abs(X))
    y = np.sin(3.0 * u[:, 0]) + u.sum(axis=1) ** 2 + 0.1 * rng.normal(size=m)
    return X, y
