"""Bad-input cases of the perceptron family's public API (see ``tests/api_fuzz.py``)."""

from __future__ import annotations

import numpy as np

from tests.api_fuzz import Case

#: Sizes of the valid calls: small enough for a fast fuzz (a non-separable run does all
#: its passes), large enough for several updates.
N_SAMPLES, N_FEATURES = 30, 3

#: Few passes or iterations: bad variants of X (scaled by 1e-300, where only the bias
#: is seen and the data are not separable) run every one of them.
_RUN = {"max_iter": 50}


def _labelled(rng: np.random.Generator) -> tuple[tuple, dict]:
    """Separable data with labels 0/1 (the estimators map them to -1/+1)."""
    X = rng.normal(size=(N_SAMPLES, N_FEATURES))
    y = (X @ np.array([1.0, -0.5, 0.25]) > 0.1).astype(np.int64)
    return (X, y), {}


def _margins_call(rng: np.random.Generator) -> tuple[tuple, dict]:
    X = rng.normal(size=(N_SAMPLES, N_FEATURES))
    y = np.where(rng.random(N_SAMPLES) < 0.5, -1.0, 1.0)
    return (X, y, rng.normal(size=N_FEATURES), 0.5), {}


def _bad_kernel(A, B):
    return np.ones((A.shape[0], B.shape[0] + 1))


def _complex_kernel(A, B):
    return (A @ B.T) * (1 + 1j)


_HYPERPARAMETERS = {
    "eta": [0.0, -1.0],
    "max_iter": [0, 10**10],
    "random_state": [-1, "seed"],
}
_WITH_INIT = {
    **_HYPERPARAMETERS,
    "w_init": [np.zeros(N_FEATURES + 1), np.array([np.nan, 0.0, 0.0]),
               np.array([1j, 0.0, 0.0]), "abc"],
    "b_init": [np.nan, 1j],
}
#: Labels outside {-1, +1} and a label vector of the wrong length.
_FUNCTION_INVALID = {"y": [np.zeros(N_SAMPLES), np.full(N_SAMPLES, 2.0)],
                     "w": [np.zeros(N_FEATURES + 1)]}

CASES: dict[str, Case] = {
    "Perceptron": Case(
        call=_labelled, init=lambda: dict(_RUN),
        invalid={**_WITH_INIT, "order": ["bogus", 1], "fit_intercept": [1, "yes"]},
    ),
    "DualPerceptron": Case(
        call=_labelled, init=lambda: dict(_RUN),
        invalid={**_HYPERPARAMETERS, "order": ["bogus"],
                 "kernel": ["rbf", 3, _bad_kernel, _complex_kernel]},
    ),
    "PocketPerceptron": Case(call=_labelled, init=lambda: dict(_RUN), invalid=_WITH_INIT),
    "NotesPocket": Case(call=_labelled, init=lambda: dict(_RUN), invalid=_WITH_INIT),
    "functional_margins": Case(call=_margins_call, invalid=_FUNCTION_INVALID),
    "perceptron_loss": Case(call=_margins_call, invalid=_FUNCTION_INVALID),
}
