"""Bad-input cases of part exact of the graphical family (merged in api_cases.py):
HMMs, MRFs, the linear-chain CRF, variable elimination and tree belief propagation."""

from __future__ import annotations

import numpy as np

from algorithms.graphical import Factor
from tests.api_fuzz import Case

#: Sizes of the valid calls, pairwise different so that no two array arguments share a
#: leading length by accident (the fuzzer's ``short`` variant pairs arrays by it).
N_STATES, N_SYMBOLS, N_STEPS = 3, 4, 6


def _hmm(rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    return (rng.dirichlet(np.ones(N_STATES), N_STATES),
            rng.dirichlet(np.ones(N_SYMBOLS), N_STATES), rng.dirichlet(np.ones(N_STATES)))


def _hmm_sequence(rng):
    return (*_hmm(rng), rng.integers(0, N_SYMBOLS, N_STEPS)), {}


def _hmm_joint(rng):
    return (*_hmm(rng), rng.integers(0, N_SYMBOLS, N_STEPS),
            rng.integers(0, N_STATES, N_STEPS)), {}


def _hmm_sample(rng):
    return (*_hmm(rng), N_STEPS), {"n_sequences": 5, "random_state": 0}


#: A transition matrix whose rows do not sum to one.
_NOT_STOCHASTIC = np.full((N_STATES, N_STATES), 0.5)


def _factors(rng) -> list[Factor]:
    return [Factor((0, 1), rng.random((2, 3)) + 0.1), Factor((1, 2), rng.random((3, 2)) + 0.1),
            Factor((2, 3), rng.random((2, 2)) + 0.1)]


def _adjacency(rng) -> np.ndarray:
    return np.array([[0, 1, 1, 0], [1, 0, 1, 0], [1, 1, 0, 1], [0, 0, 1, 0]], dtype=float)


_EDGES = np.array([[0, 1], [1, 2], [1, 3]])


def _bp(rng):
    return (_EDGES, rng.random((3, 2, 2)) + 0.1, rng.random((4, 2)) + 0.1), {}


def _crf_tensors(rng):
    J, K, n, L = 2, 3, 5, 4
    return (rng.normal(size=(J, n - 1, L, L)), rng.normal(size=(K, n, L)),
            rng.normal(size=J), rng.normal(size=K))


def _crf_transition(b, a, x, i):
    return float(a == b)


def _crf_state(a, x, i):
    return float(np.sum(x[i])) * a


CASES: dict[str, Case] = {
    "hmm_sample": Case(call=_hmm_sample,
                       invalid={"transition": [_NOT_STOCHASTIC], "n_steps": [0],
                                "n_sequences": [0]}),
    "hmm_log_joint": Case(call=_hmm_joint, invalid={"transition": [_NOT_STOCHASTIC],
                                                     "y": [np.full(N_STEPS, N_STATES)]},
                          finite_output=True),
    "hmm_forward": Case(call=_hmm_sequence,
                        invalid={"x": [np.full(N_STEPS, N_SYMBOLS), -np.ones(N_STEPS)],
                                 "initial": [np.array([0.5, 0.6, -0.1])]}),
    "hmm_log_likelihood": Case(call=_hmm_sequence,
                               invalid={"emission": [np.ones((N_STATES, N_SYMBOLS))]}),
    "hmm_viterbi": Case(call=_hmm_sequence, invalid={"x": [np.full(N_STEPS, 2.5)]}),
    "Factor": Case(call=lambda rng: (((0, 1), rng.random((2, 3)) + 0.1), {}),
                   invalid={"values": [-np.ones((2, 3))], "variables": [(0, 0), (0, -1)]}),
    "EliminationResult": Case(skip="a result dataclass"),
    "BeliefPropagationResult": Case(skip="a result dataclass"),
    "variable_elimination": Case(
        call=lambda rng: ((_factors(rng), [0]), {"evidence": {3: 1}}),
        invalid={"query": [[7]], "evidence": [{0: 0}, {3: 5}],
                 "order": ["max_degree", [1]]}),
    "min_degree_order": Case(call=lambda rng: ((_factors(rng), [1, 2]), {}),
                             invalid={"eliminate": [[9], [1, 1]]}),
    "belief_propagation": Case(
        call=_bp,
        invalid={"edges": [np.array([[0, 1], [1, 2], [2, 0]]),
                           np.array([[0, 1], [1, 0], [2, 3]])],
                 "root": [9], "pairwise": [-np.ones((3, 2, 2))]}),
    "maximal_cliques": Case(call=lambda rng: ((_adjacency(rng),), {}),
                            invalid={"adjacency": [np.triu(np.ones((3, 3)), 1),
                                                   np.eye(3)]}),
    "separates": Case(call=lambda rng: ((_adjacency(rng), [0], [3], [2]), {}),
                      invalid={"A": [[], [9]], "C": [[0]]}),
    "markov_blanket": Case(call=lambda rng: ((_adjacency(rng), 1), {}),
                           invalid={"node": [9]}),
    "energy_factor": Case(
        call=lambda rng: (((0, 1), rng.normal(size=(2, 2)), rng.normal(size=2),
                           np.array([-1.0, 1.0])), {}),
        invalid={"variables": [()]},
        accept=frozenset({"states-short"})),  # a variable with one state is degenerate, valid
    "mrf_joint": Case(call=lambda rng: ((_factors(rng), np.array([2, 3, 2, 2])), {}),
                      invalid={"cardinalities": [np.array([2, 2, 2, 2])]}),
    "mrf_log_partition": Case(call=lambda rng: ((_factors(rng), np.array([2, 3, 2, 2])), {}),
                              invalid={"cardinalities": [np.array([2, 3, 2, 0])]}),
    "crf_scores": Case(call=lambda rng: (_crf_tensors(rng), {})),
    "crf_log_partition": Case(call=lambda rng: (_crf_tensors(rng), {})),
    "crf_log_probability": Case(
        call=lambda rng: ((rng.integers(0, 4, 5), *_crf_tensors(rng)), {}),
        invalid={"labels": [np.full(5, 4), np.zeros(3, dtype=int)]}),
    "crf_features": Case(
        call=lambda rng: ((rng.normal(size=5), [_crf_transition], [_crf_state], 3), {}),
        invalid={"n_labels": [0], "transition_functions": [[1.0]]},
        accept=frozenset({"x-extra-axis"})),  # (n, d) observations are valid
}
