"""Behaviour of the family that the notes leave open: documented defaults, resource caps
and the candidates' step-size rule of cascade-correlation.

A claim states the notes, so these are tests (CONTRIBUTING.md, "Mutation testing": the
library-contract survivors of docs/mutation/neural.md, run 4).
"""

from __future__ import annotations

import inspect
import warnings

import numpy as np
import pytest
from scipy.special import expit
from sklearn.exceptions import ConvergenceWarning

import algorithms.neural as neural
from algorithms.neural import (
    RBM,
    CascadeCorrelationRegressor,
    ElmanNetwork,
    candidate_correlation_gradient,
)
from tests.api_fuzz import documented_defaults


def _public_callables():
    for name in neural.__all__:
        obj = getattr(neural, name)
        if inspect.isclass(obj) or inspect.isfunction(obj):
            yield name, obj


# Each documented default equal to the signature's: tests/test_public_api.py, every family.


def test_every_estimator_keyword_is_documented_with_its_default():
    # an estimator documents its constructor once; a sibling sharing it may refer to it
    documented: dict[object, dict[str, object]] = {}
    for _, cls in _public_callables():
        if inspect.isclass(cls) and hasattr(cls, "get_params"):
            documented.setdefault(cls.__init__, {}).update(documented_defaults(cls))
    assert len(documented) == 8  # ART, BP, cascade, Elman, RBF, RBM, SOM, perceptron
    for init, found in documented.items():
        keywords = [p for p, v in inspect.signature(init).parameters.items()
                    if v.default is not inspect.Parameter.empty]
        assert sorted(keywords) == sorted(found), init.__qualname__


def test_the_documented_defaults_are_found():
    # the parser above must not silently find nothing
    bp = documented_defaults(neural.BPClassifier)
    assert bp["init_range"] == (0.0, 1.0)
    assert bp["mutation_rate"] == 0.1 and bp["mutation_scale"] == 0.1
    assert len(bp) >= 20
    assert documented_defaults(neural.SOM)["n_cols"] == 5


def test_rbm_caps_a_fit_at_ten_million_cd_updates():
    X = np.zeros((4, 3))
    # n_batches * k = 4 * 5 updates per epoch: at most 10**7 // 20 epochs
    with pytest.raises(ValueError, match=r"n_iter must be an integer in \[1, 500000\]"):
        RBM(n_iter=10**12, k=5, batch_size=1).fit(X)
    with pytest.raises(ValueError, match=r"n_iter must be an integer in \[1, 10000000\]"):
        RBM(n_iter=10**12, k=1, batch_size=4).fit(X)


def test_elman_caps_a_fit_at_a_million_gradient_steps():
    X = np.zeros((2, 3, 1))
    with pytest.raises(ValueError, match=r"max_iter must be an integer in \[1, 1000000\]"):
        ElmanNetwork(max_iter=10**12).fit(X, np.zeros((2, 3)))


def test_cascade_candidate_steps_grow_by_1_2_after_a_rise_and_halve_after_a_fall():
    """Replay the installed candidates' recorded ascent: from eta / m, an accepted step is
    ``w + step dS/dw`` and multiplies the step by 1.2; a rejected one (S would not rise)
    leaves ``w`` and halves the step. A large initial rate forces early rejections."""
    rng = np.random.default_rng(4)
    X = rng.uniform(-2, 2, size=(40, 2))
    y = np.sin(2 * X[:, 0]) * X[:, 1]
    eta = 200.0
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        est = CascadeCorrelationRegressor(max_hidden=3, candidate_learning_rate=eta,
                                          candidate_max_iter=80, candidate_tol=0.0,
                                          target_error=0.0, tol=0.0, record_history=True,
                                          random_state=0).fit(X, y)
    assert est.n_hidden_ == 3
    Z = np.column_stack([(X - est.x_mean_) / est.x_scale_, np.ones(X.shape[0])])
    m = X.shape[0]
    counts = {"accepted": 0, "rejected": 0}
    for k in range(est.n_hidden_):
        E = est.residual_history_[k]
        path = est.candidate_weights_history_[k]
        step = eta / m
        for t in range(path.shape[0] - 1):
            w = path[t]
            S, grad = candidate_correlation_gradient(Z, w, E)
            trial = w + step * grad
            S_trial, _ = candidate_correlation_gradient(Z, trial, E)
            if np.array_equal(path[t + 1], w):
                assert S_trial <= S * (1 + 1e-12), (
                    f"unit {k}, step {t}: a step that raises S ({S!r} -> {S_trial!r}) "
                    f"was rejected")
                counts["rejected"] += 1
                step *= 0.5
                if step < 1e-12:  # the ascent stalled: nothing moves after this
                    assert np.all(path[t + 1:] == w)
                    break
            else:
                np.testing.assert_allclose(path[t + 1], trial, rtol=1e-10, atol=1e-12,
                                           err_msg=f"unit {k}, step {t}")
                assert S_trial > S
                counts["accepted"] += 1
                step *= 1.2
        Z = np.column_stack([Z, expit(Z @ est.hidden_weights_[k])])
    assert counts["accepted"] >= 5 and counts["rejected"] >= 5, counts
