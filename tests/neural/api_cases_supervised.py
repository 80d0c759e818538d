"""Bad-input cases of the supervised networks of 003 §3.1-§3.5.1 (part of
tests/neural/api_cases.py), and of the shared activations."""

from __future__ import annotations

import numpy as np

from algorithms.neural import BPClassifier
from tests.api_fuzz import Case

#: Sizes of the valid calls: small enough for a few epochs of standard BP in the limit.
N_SAMPLES, N_FEATURES, N_HIDDEN, N_OUTPUTS = 24, 3, 4, 2


def _inputs(rng: np.random.Generator) -> np.ndarray:
    return rng.normal(size=(N_SAMPLES, N_FEATURES))


def _labels(rng: np.random.Generator) -> np.ndarray:
    return np.tile([0, 1, 2], N_SAMPLES // 3)


def _params(rng: np.random.Generator) -> dict:
    return {"v": rng.uniform(size=(N_FEATURES, N_HIDDEN)), "gamma": rng.uniform(size=N_HIDDEN),
            "w": rng.uniform(size=(N_HIDDEN, N_OUTPUTS)), "theta": rng.uniform(size=N_OUTPUTS)}


def _targets(rng: np.random.Generator) -> np.ndarray:
    return rng.uniform(size=(N_SAMPLES, N_OUTPUTS))


_BP_INIT = {"hidden_units": 3, "max_iter": 5, "random_state": 0}
_BP_INVALID = {
    "hidden_units": [0], "learning_rate": [0.0, -0.1], "algorithm": ["bogus"],
    "batch_size": [0], "max_iter": [0], "tol": [-1.0], "error_goal": [-1.0], "patience": [0],
    "validation_fraction": [0.0, 1.0], "weight_decay": [0.0, 1.0, -0.5, 1.5],
    "init_range": [(1.0, 0.0), (0.0,), "ab"], "anneal_temperature": [0.0, -1.0],
    "anneal_decay": [0.0, 1.5], "anneal_scale": [0.0], "population_size": [1],
    "mutation_rate": [-0.1, 1.5], "mutation_scale": [0.0, -1.0],
}

def _elementwise(arg: str) -> frozenset[str]:
    """The variants that are valid input of an elementwise function of ``arg``."""
    return frozenset({f"{arg}-extra-axis", f"{arg}-empty"})


CASES: dict[str, Case] = {
    # the shared activations (algorithms/neural/_activations.py)
    "ACTIVATIONS": Case(skip="a tuple of strings"),
    # (elementwise: any shape, empty included, is valid input)
    "step": Case(call=lambda rng: ((rng.normal(size=5),), {}), accept=_elementwise("x")),
    "sigmoid": Case(call=lambda rng: ((rng.normal(size=5),), {}), accept=_elementwise("x")),
    "sigmoid_derivative": Case(call=lambda rng: ((rng.uniform(size=5),), {}),
                               accept=_elementwise("value")),
    # neuron and perceptron rule (§3.1-§3.2)
    "augment_minus_one": Case(call=lambda rng: ((_inputs(rng),), {})),
    "mp_neuron": Case(call=lambda rng: ((_inputs(rng), rng.normal(size=N_FEATURES), 0.5),
                                        {"activation": "sigmoid"}),
                      invalid={"weights": [np.ones(N_FEATURES + 1)]}),
    "ThresholdPerceptron": Case(
        call=lambda rng: ((_inputs(rng), np.tile([0, 1], N_SAMPLES // 2)), {}),
        init=lambda: {"max_iter": 20, "random_state": 0},
        invalid={"learning_rate": [0.0, 1.0, -0.5], "y": [np.arange(N_SAMPLES) % 3]}),
    # BP (§3.3)
    "BP_ALGORITHMS": Case(skip="a tuple of strings"),
    "BPParams": Case(skip="a parameter dataclass (the functions taking v, gamma, w, "
                          "theta check them)"),
    "bp_forward": Case(call=lambda rng: ((_inputs(rng),), _params(rng)),
                       invalid={"v": [np.ones((N_FEATURES + 1, N_HIDDEN))],
                                "gamma": [np.ones(N_HIDDEN + 1)],
                                "theta": [np.ones(N_OUTPUTS + 1)]}),
    "bp_sample_errors": Case(call=lambda rng: ((_inputs(rng), _targets(rng)), _params(rng)),
                             invalid={"Y": [np.ones((N_SAMPLES, N_OUTPUTS + 1))]}),
    "bp_gradients": Case(call=lambda rng: ((_inputs(rng), _targets(rng)),
                                           {**_params(rng), "weight_decay": 0.5}),
                         invalid={"weight_decay": [0.0, 1.0],
                                  "Y": [np.ones((N_SAMPLES, N_OUTPUTS + 1))]}),
    "standard_bp_step": Case(
        call=lambda rng: ((rng.normal(size=N_FEATURES), rng.uniform(size=N_OUTPUTS)),
                          {**_params(rng), "learning_rate": 0.1}),
        invalid={"learning_rate": [0.0, -1.0], "y": [np.ones(N_OUTPUTS + 1)]}),
    "BPClassifier": Case(call=lambda rng: ((_inputs(rng), _labels(rng)), {}), init=lambda: _BP_INIT,
                         invalid={**_BP_INVALID, "y": [np.zeros(N_SAMPLES)]}),
    "BPRegressor": Case(call=lambda rng: ((_inputs(rng), rng.normal(size=N_SAMPLES)), {}),
                        init=lambda: {**_BP_INIT, "algorithm": "accumulated"},
                        invalid=_BP_INVALID,
                        accept=frozenset({"y-extra-axis"})),  # (n, l) targets: l outputs
    # §3.4
    "RestartResult": Case(skip="a result dataclass filled by fit_restarts"),
    "annealing_probability": Case(call=lambda rng: ((rng.normal(size=6), 0.5), {}),
                                  accept=_elementwise("delta"),
                                  invalid={"temperature": [0.0, -1.0]}),
    "fit_restarts": Case(
        call=lambda rng: ((BPClassifier(hidden_units=2, max_iter=3), _inputs(rng), _labels(rng)),
                          {"n_restarts": 2, "random_state": 0}),
        invalid={"n_restarts": [0], "estimator": ["bogus", object()]}),
    # RBF (§3.5.1)
    "RBF_CENTRES": Case(skip="a tuple of strings"),
    "RBF_SOLVERS": Case(skip="a tuple of strings"),
    "rbf_design": Case(call=lambda rng: ((_inputs(rng), rng.normal(size=(4, N_FEATURES)),
                                          rng.uniform(0.5, 1.0, size=4)), {}),
                       invalid={"betas": [np.zeros(4), -np.ones(4)],
                                "centres": [np.ones((4, N_FEATURES + 1))]}),
    "RBFNetwork": Case(call=lambda rng: ((_inputs(rng), rng.normal(size=N_SAMPLES)), {}),
                       init=lambda: {"n_centres": 4, "random_state": 0},
                       invalid={"n_centres": [0], "centres": ["bogus"],
                                "solver": ["bogus"], "beta": [0.0, -1.0],
                                "learning_rate": [0.0], "max_iter": [0], "tol": [-1.0]}),
}
