"""Bad-input cases of the bayes family's public API (see ``tests/api_fuzz.py``)."""

from __future__ import annotations

import numpy as np

from algorithms.bayes import (
    BayesianNetwork,
    CategoricalMixtureModel,
    EncodedCategories,
)
from tests.api_fuzz import Case

#: Sizes of the valid calls: a fast fuzz, still several values per class and cell.
N_SAMPLES, N_FEATURES = 40, 3

#: A sprinkler-like network, 0 -> 1, 0 -> 2, (1, 2) -> 3, with a zero cell.
PARENTS = [(), (0,), (0,), (1, 2)]
CARDS = [2, 2, 2, 2]


def _cpts() -> list[np.ndarray]:
    return [
        np.array([0.5, 0.5]),
        np.array([[0.5, 0.5], [0.9, 0.1]]),
        np.array([[0.8, 0.2], [0.2, 0.8]]),
        np.array([[[1.0, 0.0], [0.1, 0.9]], [[0.1, 0.9], [0.01, 0.99]]]),
    ]


def _network() -> BayesianNetwork:
    return BayesianNetwork(PARENTS, _cpts())


def _network_data(rng: np.random.Generator) -> np.ndarray:
    return _network().sample(N_SAMPLES, random_state=rng).astype(float)


def _continuous(rng: np.random.Generator) -> tuple[tuple, dict]:
    y = np.repeat([0, 1], N_SAMPLES // 2)
    X = rng.normal(size=(N_SAMPLES, N_FEATURES)) + 2.0 * y[:, None]
    return (X, y), {}


def _categorical(rng: np.random.Generator) -> tuple[tuple, dict]:
    y = np.repeat([0, 1], N_SAMPLES // 2)
    X = (rng.integers(0, 3, (N_SAMPLES, N_FEATURES)) + y[:, None]) % 3
    return (X.astype(float), y), {}


def _unlabelled_codes(rng: np.random.Generator) -> tuple[tuple, dict]:
    return (rng.integers(0, 3, (N_SAMPLES, N_FEATURES)).astype(float),), {}


def _posterior(rng: np.random.Generator) -> np.ndarray:
    P = rng.random((5, 3)) + 0.1
    return P / P.sum(axis=1, keepdims=True)


def _loss(rng: np.random.Generator) -> np.ndarray:
    return rng.random((3, 3)) * (1 - np.eye(3))


def _gaussian_call(rng: np.random.Generator) -> tuple[tuple, dict]:
    return (rng.normal(size=(N_SAMPLES, N_FEATURES)), np.zeros(N_FEATURES),
            np.eye(N_FEATURES) * 2.0), {}


def _quadratic_log_pdf(data: np.ndarray, theta: np.ndarray) -> np.ndarray:
    return -0.5 * (data - theta[0]) ** 2


def _cmi_call(rng: np.random.Generator) -> tuple[tuple, dict]:
    codes = rng.integers(0, 3, (N_SAMPLES, N_FEATURES))
    y = rng.integers(0, 2, N_SAMPLES)
    return (codes, y, rng.random(N_SAMPLES) + 0.5, 2, [3] * N_FEATURES), {}


def _run_em_call(rng: np.random.Generator) -> tuple[tuple, dict]:
    codes = rng.integers(0, 3, (N_SAMPLES, N_FEATURES))
    model = CategoricalMixtureModel(2, [3] * N_FEATURES)
    data = EncodedCategories.from_codes(codes, [3] * N_FEATURES)
    return (model, data), {"max_iter": 5, "random_state": 0}


#: Estimator hyperparameters out of range (each must be refused naming it).
_SMOOTHING = {"alpha": [-1.0], "loss": [np.ones((3, 3)), "bogus"]}

CASES: dict[str, Case] = {
    # constants, protocols and result containers
    "EM_STOP_REASONS": Case(skip="a tuple of strings"),
    "LatentVariableModel": Case(skip="a typing Protocol"),
    "EMResult": Case(skip="a result dataclass filled by run_em"),
    "EMRun": Case(skip="a result dataclass filled by run_em"),
    "EncodedCategories": Case(skip="a data container built by CategoricalMixtureModel"),
    "GibbsResult": Case(skip="a result dataclass filled by gibbs_sampling"),
    "MissingData": Case(skip="a data container built by fit_cpts_em"),
    "MixtureParams": Case(skip="a parameter dataclass of CategoricalMixtureModel"),
    "ODEModel": Case(skip="a fitted-table dataclass built by the ODE classifiers"),
    "StructureSearchResult": Case(skip="a result dataclass filled by hill_climb"),
    # estimators
    "GaussianBayesClassifier": Case(
        call=_continuous, invalid={"var_smoothing": [-1.0], "priors": [[0.5, 0.6], [1.0]],
                                   "loss": [np.ones((3, 3))]}),
    "NaiveBayesClassifier": Case(
        call=_continuous,
        invalid={**_SMOOTHING, "var_smoothing": [-1.0], "categorical_features": [[7], "x"]}),
    "SPODEClassifier": Case(call=_categorical, init=lambda: {"cv": 2},
                            invalid={**_SMOOTHING, "cv": [1], "super_parent": [7]}),
    "TANClassifier": Case(call=_categorical, invalid={**_SMOOTHING, "root": [7, -1]}),
    "AODEClassifier": Case(call=_categorical, init=lambda: {"min_support": 2},
                           invalid={**_SMOOTHING, "min_support": [-1]}),
    "CategoricalMixture": Case(
        call=_unlabelled_codes, init=lambda: {"max_iter": 10, "random_state": 0},
        invalid={"n_components": [0], "alpha": [-1.0], "assignment": ["bogus"],
                 "tol": [-1.0], "n_init": [0]}),
    # decisions
    "bayes_decision": Case(call=lambda rng: ((_posterior(rng), _loss(rng)), {}),
                           invalid={"posterior": [[[0.5, 0.6]], [[-0.5, 1.5]]]}),
    "conditional_risk": Case(call=lambda rng: ((_posterior(rng), _loss(rng)), {}),
                             invalid={"loss": [np.ones((2, 2))]}),
    "expected_risk": Case(
        call=lambda rng: ((np.full(5, 0.2), _posterior(rng), rng.integers(0, 3, 5),
                           _loss(rng)), {}),
        invalid={"p_x": [np.full(5, 0.5), np.array([1.2, -0.2, 0.0, 0.0, 0.0])],
                 "decisions": [np.full(5, 3), np.full(5, -1), np.full(5, 0.5)]}),
    "zero_one_loss": Case(call=lambda rng: ((3,), {}), invalid={"n_classes": [0]}),
    # maximum likelihood
    "categorical_log_likelihood": Case(
        call=lambda rng: ((rng.integers(0, 3, 20), np.array([0.2, 0.3, 0.5])), {}),
        invalid={"x": [np.array([0.5, 1.0]), np.array([3, 0])],
                 "p": [np.array([0.5, 0.6, -0.1]), np.array([0.2, 0.2, 0.2])]},
        scale_free=frozenset()),
    "categorical_mle": Case(
        call=lambda rng: ((rng.integers(0, 3, 20), 3), {"sample_weight": rng.random(20) + 0.1}),
        invalid={"x": [np.array([0.5, 1.0]), np.array([3, 0])],
                 "sample_weight": [-np.ones(20), np.zeros(20)]},
        scale_free=frozenset({"sample_weight"})),
    "gaussian_log_likelihood": Case(call=_gaussian_call,
                                    invalid={"cov": [np.zeros((3, 3)), -np.eye(3)]}),
    "gaussian_log_pdf": Case(call=_gaussian_call, invalid={"cov": [np.zeros((3, 3))]}),
    "gaussian_mle": Case(
        call=lambda rng: ((rng.normal(size=(N_SAMPLES, N_FEATURES)),),
                          {"sample_weight": rng.random(N_SAMPLES) + 0.1}),
        invalid={"sample_weight": [-np.ones(N_SAMPLES)]}),
    "maximum_likelihood": Case(
        call=lambda rng: ((_quadratic_log_pdf, rng.normal(size=30), np.array([0.5])), {}),
        invalid={"log_pdf": [None, 3.0], "tol": [-1.0, 0.0]},
        accept=frozenset({"data-extra-axis"}),  # data of any shape go to log_pdf as given
        scale_free=frozenset({"data"})),
    # networks
    "BayesianNetwork": Case(
        call=lambda rng: ((PARENTS, _cpts()), {}),
        invalid={"parents": [[(1,), (0,), (), ()], [(), (0,), (0,), (1, 7)]],
                 "cpts": [[np.array([0.5, 0.6])] * 4]},
        scale_free=frozenset()),
    "family_counts": Case(
        call=lambda rng: ((_network_data(rng), CARDS, 3, [1, 2]),
                          {"sample_weight": rng.random(N_SAMPLES)}),
        invalid={"child": [4], "parents": [[3], [1, 1], [5]], "cards": [[2, 2, 2, 0]],
                 "X": [np.full((3, 4), 0.5), np.full((3, 4), 2.0)]},
        scale_free=frozenset({"sample_weight"})),
    "fit_cpts": Case(
        call=lambda rng: ((PARENTS, _network_data(rng), CARDS), {"alpha": 1.0}),
        invalid={"alpha": [-1.0], "cards": [[2, 2, 2, 10**9]]},
        scale_free=frozenset()),
    "fit_cpts_em": Case(
        call=lambda rng: ((PARENTS, _with_missing(_network_data(rng), rng), CARDS),
                          {"alpha": 0.5, "max_iter": 5, "random_state": 0}),
        invalid={"alpha": [-1.0], "n_init": [0], "tol": [-1.0]},
        accept=frozenset({"X-nan"}),  # NaN marks a missing entry: what EM is for
        scale_free=frozenset()),
    "network_score": Case(
        call=lambda rng: ((PARENTS, _network_data(rng), CARDS), {"f": "bic"}),
        invalid={"f": [-1.0, "bogus"]},
        scale_free=frozenset()),
    "hill_climb": Case(
        call=lambda rng: ((_network_data(rng), CARDS), {"max_parents": 2, "max_iter": 20}),
        invalid={"score": ["bogus", -1.0], "max_parents": [-1],
                 "start": [[(1,), (0,), (), ()]]},
        scale_free=frozenset()),
    "mdl_weight": Case(call=lambda rng: (("bic", 100), {}),
                       invalid={"f": ["bogus", -1.0]}, accept=frozenset({"n_samples-float"})),
    "neighbours": Case(call=lambda rng: ((PARENTS,), {"max_parents": 2}),
                       invalid={"parents": [[(1,), (0,)]], "max_parents": [-1]}),
    "gibbs_sampling": Case(
        call=lambda rng: ((_network(), {3: 1}), {"n_samples": 50, "burn_in": 5,
                                                  "random_state": 0}),
        invalid={"evidence": [{7: 0}, {3: 2}], "network": [None]}),
    "gibbs_query": Case(
        call=lambda rng: ((_network(), {0: 1}, {3: 1}), {"n_samples": 50, "burn_in": 5,
                                                          "random_state": 0}),
        invalid={"query": [{}, {3: 1}, {0: 5}]}),
    # one-dependence helper
    "conditional_mutual_information": Case(
        call=_cmi_call,
        invalid={"codes": [np.full((N_SAMPLES, N_FEATURES), 3)], "y": [np.full(N_SAMPLES, 2)],
                 "w": [-np.ones(N_SAMPLES)], "n_values": [[3, 3]]}),
    # EM driver and its models
    "CategoricalMixtureModel": Case(
        call=lambda rng: ((2, [3, 3]), {}), invalid={"n_components": [0],
                                                    "n_values": [[0, 3]], "alpha": [-1.0],
                                                    "assignment": ["bogus"]}),
    "MissingDataNetworkModel": Case(
        call=lambda rng: ((PARENTS, CARDS), {}),
        invalid={"cards": [[2, 2, 2, 0]], "alpha": [-1.0]}),
    "check_em_settings": Case(call=lambda rng: ((10, 1e-3, 1), {})),
    "params_finite": Case(call=lambda rng: ((np.ones(3),), {}), scale_free=frozenset(),
                          accept=frozenset({"params-nan", "params-inf", "params-complex",
                                            "params-str", "params-empty",
                                            "params-extra-axis"})),
    "record_em_result": Case(skip="writes an EMResult into an estimator's fitted "
                                  "attributes; only run_em's own results reach it"),
    "run_em": Case(call=_run_em_call, invalid={"max_iter": [0], "tol": [-1.0]}),
}


def _with_missing(X: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """``X`` with about a tenth of its entries missing (NaN), none in column 0."""
    out = X.copy()
    hole = rng.random(out.shape) < 0.1
    hole[:, 0] = False
    out[hole] = np.nan
    return out
