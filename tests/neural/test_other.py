"""The other networks of 003 §3.5.2-§3.5.6 (ART, SOM, cascade-correlation, Elman,
Boltzmann machines and RBMs): behaviour on small cases and bad input."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest
from sklearn.base import clone
from sklearn.datasets import load_iris
from sklearn.exceptions import ConvergenceWarning, NotFittedError

from algorithms.neural import (
    ART,
    RBM,
    SOM,
    CascadeCorrelationClassifier,
    CascadeCorrelationRegressor,
    ElmanNetwork,
    art_similarity,
    binary_states,
    boltzmann_energy,
    boltzmann_log_probabilities,
    candidate_correlation,
    candidate_correlation_gradient,
)

# ---------------------------------------------------------------------------
# ART
# ---------------------------------------------------------------------------


def test_art_creates_a_unit_per_far_group_and_learns_within_groups():
    X = np.array([[0.0, 0.0], [0.1, 0.0], [10.0, 10.0], [10.0, 10.2], [0.0, 0.1]])
    est = ART(vigilance=0.5, learning_rate=0.5).fit(X)  # resonance within distance 1
    assert est.n_units_ == 2
    assert est.created_.tolist() == [True, False, True, False, False]
    assert est.winners_.tolist() == [0, 0, 1, 1, 0]
    np.testing.assert_allclose(est.prototypes_[1], [10.0, 10.1])
    assert est.labels_.tolist() == [0, 0, 1, 1, 0]
    assert est.transform(X).sum(axis=1).tolist() == [1.0] * 5


def test_art_similarity_values_and_vigilance_boundary():
    assert art_similarity([[3.0, 4.0]], [[0.0, 0.0]])[0, 0] == pytest.approx(1 / 6)
    # similarity exactly at the vigilance is not enough: a new unit (reset)
    est = ART(vigilance=0.5, learning_rate=1.0).fit(np.array([[0.0], [1.0]]))
    assert est.created_.tolist() == [True, True]


def test_art_partial_fit_before_fit_starts_a_network_and_refuses_bad_input():
    est = ART().partial_fit(np.zeros((2, 3)))
    assert est.n_units_ == 1
    with pytest.raises(ValueError, match="vigilance"):
        ART(vigilance=1.0).fit(np.zeros((2, 2)))
    with pytest.raises(ValueError, match="learning_rate"):
        ART(learning_rate=0.0).fit(np.zeros((2, 2)))
    with pytest.raises(ValueError, match="X"):
        est.partial_fit(np.zeros((2, 4)))
    with pytest.raises(NotFittedError):
        ART().predict(np.zeros((1, 2)))


# ---------------------------------------------------------------------------
# SOM
# ---------------------------------------------------------------------------


def test_som_maps_to_lattice_coordinates_and_orders_a_line():
    X = np.linspace(0.0, 1.0, 50)[:, None]
    som = SOM(n_rows=1, n_cols=8, n_epochs=30, random_state=0).fit(X)
    coords = som.transform(X)
    assert coords.shape == (50, 2) and np.all(coords[:, 0] == 0)
    cols = coords[:, 1]
    assert np.all(np.diff(cols) >= 0) or np.all(np.diff(cols) <= 0)  # an ordered chain
    assert som.quantization_error(X) == pytest.approx(som.quantization_error_)
    assert som.weights_.shape == (8, 1) and som.lattice_.shape == (8, 2)


def test_som_scale_invariance_and_bad_input():
    X = np.random.default_rng(0).normal(size=(30, 3))
    a = SOM(n_rows=3, n_cols=3, n_epochs=2, random_state=1).fit(X)
    b = SOM(n_rows=3, n_cols=3, n_epochs=2, random_state=1).fit(X * 1e200)
    np.testing.assert_allclose(b.weights_ / 1e200, a.weights_, rtol=1e-12, atol=1e-15)
    assert np.array_equal(a.predict(X), b.predict(X * 1e200))
    for kw, name in [({"n_rows": 0}, "n_rows"), ({"learning_rate": 2.0}, "learning_rate"),
                     ({"final_radius": 10.0}, "final_radius"), ({"radius": -1.0}, "radius")]:
        with pytest.raises(ValueError, match=name):
            SOM(**kw).fit(X)


# ---------------------------------------------------------------------------
# Cascade-correlation
# ---------------------------------------------------------------------------


def test_cascade_starts_without_hidden_units_on_a_linear_target():
    X = np.random.default_rng(0).normal(size=(40, 3))
    y = X @ [1.0, -2.0, 0.5] + 3.0
    est = CascadeCorrelationRegressor(random_state=0).fit(X, y)
    assert est.n_hidden_ == 0 and est.converged_
    np.testing.assert_allclose(est.predict(X), y, atol=1e-9)


def test_cascade_grows_a_cascade_and_warns_at_the_budget():
    rng = np.random.default_rng(1)
    X = rng.uniform(-2, 2, size=(80, 2))
    y = np.sin(X[:, 0]) * np.cos(X[:, 1])
    with pytest.warns(ConvergenceWarning, match="max_hidden"):
        est = CascadeCorrelationRegressor(max_hidden=3, target_error=0.0, tol=0.0,
                                          random_state=0).fit(X, y)
    assert est.n_hidden_ == 3 and not est.converged_
    assert [w.shape[0] for w in est.hidden_weights_] == [3, 4, 5]  # inputs+bias+earlier
    assert np.all(np.diff(est.training_error_history_) <= 0)
    assert est.score(X, y) > 0.9


def test_cascade_classifier_on_iris():
    X, y = load_iris(return_X_y=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        est = CascadeCorrelationClassifier(max_hidden=4, random_state=0).fit(X, y)
    assert est.score(X, y) > 0.95
    assert est.decision_function(X).shape == (150, 3)


def test_candidate_correlation_matches_its_gradient_output_and_refuses_mismatch():
    rng = np.random.default_rng(2)
    Z, w, E = rng.normal(size=(10, 3)), rng.normal(size=3), rng.normal(size=(10, 2))
    S, _ = candidate_correlation_gradient(Z, w, E)
    V = 1.0 / (1.0 + np.exp(-(Z @ w)))
    assert S == pytest.approx(candidate_correlation(V[:, None], E)[0])
    with pytest.raises(ValueError, match="residuals"):
        candidate_correlation(V[:, None], E[:9])
    with pytest.raises(ValueError, match="candidate_learning_rate"):
        CascadeCorrelationRegressor(candidate_learning_rate=0.0).fit(Z, E[:, 0])


# ---------------------------------------------------------------------------
# Elman
# ---------------------------------------------------------------------------


def _sequences(seed=0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(5, 4, 2))
    return X, (X[:, :, 0] > 0).astype(float)


def test_elman_shapes_protocol_and_not_fitted():
    X, y = _sequences()
    net = ElmanNetwork(n_hidden=3, max_iter=5, random_state=0)
    with pytest.raises(NotFittedError):
        net.predict(X)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        net.fit(X, y)
    assert net.predict(X).shape == (5, 4)
    assert net.hidden_states(X).shape == (5, 4, 3)
    assert clone(net).get_params()["n_hidden"] == 3
    assert net.loss_history_.shape == (net.n_iter_ + 1,)


@pytest.mark.parametrize(("X", "y", "name"), [
    (np.zeros((5, 4)), np.zeros((5, 4)), "X"),
    (np.zeros((5, 4, 2, 1)), np.zeros((5, 4)), "X"),
    (np.zeros((5, 0, 2)), np.zeros((5, 0)), "X"),
    (np.zeros((5, 4, 2)), np.zeros((5, 3)), "y"),
    (np.zeros((5, 4, 2)), np.full((5, 4), 1.5), "y"),
    (np.full((5, 4, 2), np.nan), np.zeros((5, 4)), "X"),
])
def test_elman_refuses_bad_sequences(X, y, name):
    with pytest.raises(ValueError, match=rf"\b{name}\b"):
        ElmanNetwork().fit(X, y)


def test_elman_detects_divergence_and_keeps_finite_weights():
    X, y = _sequences()
    net = ElmanNetwork(n_hidden=3, learning_rate=1e300, max_iter=50,
                       output_activation="identity", random_state=0)
    with pytest.warns(ConvergenceWarning, match="diverged"):
        net.fit(X * 1e5, y * 1e5)
    assert net.diverged_
    assert all(np.all(np.isfinite(v)) for v in net.params_.values())
    assert np.all(np.isfinite(net.predict(X)))


def test_elman_refuses_a_wrong_feature_count_at_predict():
    X, y = _sequences()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        net = ElmanNetwork(n_hidden=2, max_iter=2).fit(X, y)
    with pytest.raises(ValueError, match="features"):
        net.predict(np.zeros((1, 4, 3)))


# ---------------------------------------------------------------------------
# Boltzmann machines and RBMs
# ---------------------------------------------------------------------------


def test_boltzmann_energy_by_hand():
    W = np.array([[0.0, 2.0, 0.0], [2.0, 0.0, -1.0], [0.0, -1.0, 0.0]])
    theta = np.array([0.5, 0.0, 1.0])
    assert boltzmann_energy([1, 1, 0], W, theta) == pytest.approx(-2.5)
    assert boltzmann_energy([1, 1, 1], W, theta) == pytest.approx(-2.0 + 1.0 - 1.5)
    states, log_p = boltzmann_log_probabilities(W, theta)
    assert states.shape == (8, 3) and math.isclose(np.exp(log_p).sum(), 1.0)
    assert states[np.argmax(log_p)].tolist() == [1.0, 1.0, 0.0]
    assert binary_states(0).shape == (1, 0)


def test_boltzmann_functions_refuse_bad_machines():
    with pytest.raises(ValueError, match="symmetric"):
        boltzmann_energy([0, 1], [[0.0, 1.0], [0.0, 0.0]], [0.0, 0.0])
    with pytest.raises(ValueError, match="diagonal"):
        boltzmann_energy([0, 1], np.eye(2), [0.0, 0.0])
    with pytest.raises(ValueError, match="binary"):
        boltzmann_energy([0, 0.5], np.zeros((2, 2)), [0.0, 0.0])
    with pytest.raises(ValueError, match="weights"):
        boltzmann_log_probabilities(np.zeros((17, 17)), np.zeros(17))


def test_rbm_learns_and_refuses_non_binary_data():
    rng = np.random.default_rng(0)
    X = np.repeat(np.array([[1, 1, 1, 0, 0, 0], [0, 0, 0, 1, 1, 1]], float), 20, axis=0)
    rbm = RBM(n_components=2, learning_rate=0.5, n_iter=100, record_history=True,
              random_state=0).fit(X)
    start = RBM(n_components=2).fit(X[:1])
    start.components_, start.intercept_hidden_, start.intercept_visible_ = rbm.history_[0]
    assert start.log_likelihood(X) < -4.0  # about 6 log 2: nearly uniform
    assert rbm.log_likelihood(X) > -1.0  # the best possible is log(1/2) = -0.69
    assert rbm.transform(X).shape == (40, 2)
    assert rbm.gibbs(X, random_state=1).shape == X.shape
    with pytest.raises(ValueError, match=r"\bX\b"):
        RBM().fit(rng.random((5, 3)))
    with pytest.raises(ValueError, match="enumeration"):
        big = RBM(n_components=25, n_iter=1).fit(np.zeros((2, 25)))
        big.log_partition()


def test_elman_warns_exactly_when_not_converged():
    X, y = _sequences()
    with pytest.warns(ConvergenceWarning, match="did not converge"):
        ElmanNetwork(n_hidden=2, max_iter=2, tol=0.0, random_state=0).fit(X, y)
    with warnings.catch_warnings():
        warnings.simplefilter("error", ConvergenceWarning)
        net = ElmanNetwork(n_hidden=2, max_iter=5000, tol=1e-3, random_state=0).fit(X, y)
    assert net.converged_ and not net.diverged_
