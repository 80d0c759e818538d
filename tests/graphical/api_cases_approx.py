"""Bad-input cases of part approx of the graphical family (merged in api_cases.py):
Monte Carlo, Metropolis-Hastings, Gibbs sampling, mean-field VI, EM and LDA topics."""

from __future__ import annotations

import numpy as np

from tests.api_fuzz import Case

_RESULT = "a result dataclass, returned by the samplers and fitters, never called with input"


def _table(rng):
    return rng.random((2, 3, 2)) + 0.1


def _factors(rng):
    return [((0, 1), rng.random((2, 3)) + 0.1), ((1, 2), rng.random((3, 2)) + 0.1)]


def _target(rng):
    p = rng.random(4) + 0.1
    Q = rng.random((4, 4)) + 0.05
    return p, Q / Q.sum(axis=1, keepdims=True)


def _mh_call(rng):
    return ((lambda x: -0.5 * np.sum(x**2, axis=1),
             lambda r, x: x + r.normal(size=x.shape), np.zeros(2)),
            {"n_samples": 20, "burn_in": 5, "random_state": 0})


def _codes(rng):
    return rng.integers(3, size=(12, 3)).astype(float)


def _corpus(rng):
    return rng.integers(0, 4, size=(10, 6)).astype(float)


_BAD_TABLE = [np.array([[0.0, 1.0], [1.0, 1.0]]), np.array([[-1.0, 1.0]]), "abc", []]

CASES: dict[str, Case] = {
    "DiscreteGibbsResult": Case(skip=_RESULT),
    "MetropolisHastingsResult": Case(skip=_RESULT),
    "MonteCarloEstimate": Case(skip=_RESULT),
    "CategoricalMixtureParams": Case(skip=_RESULT),
    "MeanFieldResult": Case(skip=_RESULT),
    "LDACorpus": Case(skip=_RESULT),
    "monte_carlo_expectation": Case(
        call=lambda rng: ((lambda x: x**2, lambda r, n: r.normal(size=n), 50),
                          {"random_state": 0}),
        invalid={"n_samples": [1, 0, -3, 2.5], "f": [3.0, None],
                 "sampler": ["normal", None]},
    ),
    "metropolis_hastings": Case(
        call=_mh_call,
        invalid={"n_samples": [0, -1], "burn_in": [-1], "thin": [0],
                 "log_target": [None, 1.0], "proposal": [None]},
        accept=frozenset({"x0-extra-axis"}),  # a 2-d x0 is one start per chain
    ),
    "metropolis_hastings_kernel": Case(
        call=lambda rng: (_target(rng), {}),
        invalid={"p": [np.array([1.0, 0.0, 1.0, 1.0]), np.array([1.0, -1.0, 1.0, 1.0])],
                 "Q": [np.eye(3), np.full((4, 4), 0.5), -np.eye(4)]},
    ),
    "gibbs_sample_discrete": Case(
        call=lambda rng: ((_factors(rng),), {"n_samples": 10, "burn_in": 2,
                                              "n_chains": 3, "random_state": 0}),
        invalid={"factors": _BAD_TABLE, "n_samples": [0], "scan": ["sideways"],
                 "n_chains": [0], "evidence": [{5: 0}, {0: 7}, [1, 2]], "thin": [0]},
    ),
    "gibbs_kernel": Case(
        call=lambda rng: ((_table(rng),), {}),
        invalid={"factors": _BAD_TABLE, "variable": [3, -1], "scan": ["both"]},
        # a table of any shape is a joint over that many variables
        accept=frozenset({"factors-extra-axis", "factors-ravel"}),
    ),
    "mean_field": Case(
        call=lambda rng: ((_factors(rng),), {"random_state": 0}),
        invalid={"factors": _BAD_TABLE, "max_iter": [0], "tol": [-1.0],
                 "init": ["zeros"]},
    ),
    "categorical_mixture_em": Case(
        call=lambda rng: ((_codes(rng), 2), {"max_iter": 5, "random_state": 0}),
        invalid={"X": [np.array([[0.5, 1.0]]), np.array([[-1.0, 0.0]])],
                 "n_components": [0, 100], "n_categories": [1]},
    ),
    "categorical_mixture_log_likelihood": Case(
        call=lambda rng: ((_codes(rng), np.array([0.4, 0.6]),
                           rng.dirichlet(np.ones(3), size=(2, 3))), {}),
        invalid={"weights": [np.array([0.5, 0.6]), np.array([-0.1, 1.1])],
                 "probs": [np.ones((2, 3, 3))]},
    ),
    "sample_lda_corpus": Case(
        call=lambda rng: ((4, 5, 2, 6), {"random_state": 0}),
        invalid={"n_documents": [0], "document_length": [0], "n_topics": [0],
                 "vocabulary_size": [0], "alpha": [0.0, -1.0], "eta": [0.0]},
    ),
    "lda_log_joint": Case(
        call=lambda rng: _lda_joint_call(),
        invalid={"alpha": [0.0], "eta": [-1.0], "words": [np.full((2, 3), 9)],
                 "topics": [np.full((2, 3), 5)], "beta": [np.full((2, 6), 0.5)]},
    ),
    "lda_collapsed_log_joint": Case(
        call=lambda rng: ((np.array([[0, 1, 2], [3, 3, 1]]), np.array([[0, 1, 1], [0, 0, 1]])),
                          {"n_topics": 2, "vocabulary_size": 6, "alpha": 0.5, "eta": 0.5}),
        invalid={"n_topics": [0], "alpha": [0.0], "words": [np.full((2, 3), 9)]},
    ),
    "lda_log_evidence": Case(
        call=lambda rng: ((np.array([[0, 1], [2, 2]]),),
                          {"n_topics": 2, "vocabulary_size": 3, "alpha": 0.5, "eta": 0.5}),
        invalid={"n_topics": [0], "eta": [0.0], "alpha": [-1.0],
                 "words": [np.full((2, 2), 7), np.zeros((5, 4))]},
    ),
    "LDATopicModel": Case(
        call=lambda rng: ((_corpus(rng),), {}),
        init=lambda: {"n_components": 2, "max_iter": 3, "random_state": 0},
        invalid={"X": [-np.ones((10, 6))], "n_components": [0], "alpha": [0.0, -1.0],
                 "eta": [0.0], "max_iter": [0]},
    ),
}


def _lda_joint_call():
    from algorithms.graphical import sample_lda_corpus

    c = sample_lda_corpus(2, 3, 2, 6, alpha=0.8, eta=0.8, random_state=1)
    return (c.words, c.topics, c.beta, c.theta), {"alpha": 0.8, "eta": 0.8}
