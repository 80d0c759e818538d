"""Behaviour and bad input of the supervised networks of 003 §3.1-§3.5.1."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from sklearn.exceptions import ConvergenceWarning

from algorithms.neural import (
    BPClassifier,
    BPParams,
    BPRegressor,
    RBFNetwork,
    ThresholdPerceptron,
    annealing_probability,
    bp_forward,
    bp_gradients,
    fit_restarts,
    mp_neuron,
    rbf_design,
    standard_bp_step,
)

XOR_X = np.array([[0.0, 0.0], [0.0, 1.0], [1.0, 0.0], [1.0, 1.0]])


def _blobs(seed=0, n=60):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 2))
    X[n // 2:] += 3.0
    return X, np.repeat([0, 1], n // 2)


# --- neuron and perceptron -------------------------------------------------------


def test_mp_neuron_fires_at_the_threshold():
    out = mp_neuron([[1.0, 1.0], [0.0, 0.0]], [0.5, 0.5], 1.0)
    assert out.tolist() == [1.0, 0.0]


def test_perceptron_learns_and_and_stops_without_errors():
    est = ThresholdPerceptron(learning_rate=0.5).fit(XOR_X, [0, 0, 0, 1])
    assert est.converged_ and est.errors_per_epoch_[-1] == 0
    assert est.predict(XOR_X).tolist() == [0, 0, 0, 1]
    assert est.weight_history_.shape == (est.n_updates_ + 1, 3)


def test_perceptron_warns_on_xor():
    with pytest.warns(ConvergenceWarning, match="linearly separable"):
        est = ThresholdPerceptron(max_iter=30).fit(XOR_X, [0, 1, 1, 0])
    assert not est.converged_ and est.n_iter_ == 30


@pytest.mark.parametrize("eta", [0.0, 1.0, -0.1, float("nan")])
def test_perceptron_refuses_learning_rates_outside_the_open_unit_interval(eta):
    with pytest.raises(ValueError, match="learning_rate"):
        ThresholdPerceptron(learning_rate=eta).fit(XOR_X, [0, 0, 0, 1])


def test_perceptron_refuses_three_classes():
    with pytest.raises(ValueError, match="binary"):
        ThresholdPerceptron().fit(np.arange(6.0)[:, None], [0, 1, 2, 0, 1, 2])


# --- BP ----------------------------------------------------------------------------


@pytest.mark.parametrize("algorithm", ["standard", "accumulated", "minibatch"])
def test_bp_classifier_separates_blobs(algorithm):
    X, y = _blobs()
    est = BPClassifier(hidden_units=4, algorithm=algorithm, learning_rate=1.0,
                       init_range=(-0.5, 0.5), max_iter=100, random_state=0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        est.fit(X, y)
    assert est.score(X, y) >= 0.95
    assert est.v_.shape == (2, 4) and est.gamma_.shape == (4,)
    assert est.w_.shape == (4, 1) and est.theta_.shape == (1,)
    assert est.loss_curve_.size == est.n_iter_ and np.all(np.isfinite(est.loss_curve_))
    proba = est.predict_proba(X)
    assert np.allclose(proba.sum(axis=1), 1.0) and np.all(proba >= 0)


def test_bp_classifier_one_hot_for_three_classes():
    rng = np.random.default_rng(0)
    X = np.vstack([rng.normal(size=(20, 2)) + c for c in ([0, 0], [4, 0], [0, 4])])
    y = np.repeat(["a", "b", "c"], 20)
    est = BPClassifier(hidden_units=5, algorithm="minibatch", learning_rate=1.0,
                       init_range=(-0.5, 0.5), max_iter=200, random_state=0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        est.fit(X, y)
    assert est.w_.shape == (5, 3) and est.score(X, y) > 0.9
    assert set(est.predict(X)) <= {"a", "b", "c"}


def test_bp_random_init_lies_in_the_unit_interval_by_default():
    X, y = _blobs()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        est = BPClassifier(hidden_units=3, max_iter=1, random_state=3).fit(X, y)
    flat = est.initial_params_.flat()
    assert np.all((flat >= 0) & (flat < 1))


def test_bp_error_goal_stops_and_reports_convergence():
    X, y = _blobs()
    est = BPClassifier(hidden_units=3, learning_rate=1.0, error_goal=0.05, max_iter=500,
                       init_range=(-0.5, 0.5), random_state=0).fit(X, y)
    assert est.converged_ and est.error_curve_[-1] <= 0.05 and est.n_iter_ < 500


def test_bp_converged_fit_does_not_warn():
    X, y = _blobs()
    with warnings.catch_warnings():
        warnings.simplefilter("error", ConvergenceWarning)
        est = BPClassifier(hidden_units=3, learning_rate=1.0, error_goal=0.05, max_iter=500,
                           init_range=(-0.5, 0.5), random_state=0).fit(X, y)
    assert est.converged_


def test_bp_warns_at_the_epoch_cap():
    X, y = _blobs()
    with pytest.warns(ConvergenceWarning, match="max_iter"):
        BPClassifier(max_iter=2, patience=100, random_state=0).fit(X, y)


def test_bp_divergence_is_reported_and_weights_stay_finite(monkeypatch):
    import algorithms.neural._bp as bp_module

    X, y = _blobs()
    original = bp_module._apply

    def exploding(p, d, eta, lam):
        q = original(p, d, eta, lam)
        q.w[0, 0] = np.inf
        return q

    monkeypatch.setattr(bp_module, "_apply", exploding)
    with pytest.warns(ConvergenceWarning, match="diverged"):
        est = BPClassifier(algorithm="accumulated", max_iter=5, random_state=0).fit(X, y)
    assert est.diverged_ and est.params_.all_finite()


def test_early_stopping_keeps_the_best_validation_weights():
    rng = np.random.default_rng(0)
    X = rng.uniform(-1, 1, size=(40, 1))
    y = np.sin(3 * X[:, 0]) + rng.normal(scale=0.3, size=40)
    est = BPRegressor(hidden_units=10, learning_rate=2.0, algorithm="accumulated",
                      early_stopping=True, patience=3, tol=0.0, max_iter=400,
                      init_range=(-1, 1), record_history=True, random_state=0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        est.fit(X, y)
    best = int(np.argmin(est.validation_curve_))
    assert est.best_epoch_ == best + 1
    assert np.array_equal(est.params_.flat(), est.param_history_[best + 1].flat())


def test_weight_decay_shrinks_the_weights():
    X, y = _blobs()
    kwargs = dict(hidden_units=4, algorithm="accumulated", learning_rate=1.0, max_iter=100,
                  patience=1000, init_range=(-0.5, 0.5), random_state=0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        plain = BPClassifier(**kwargs).fit(X, y)
        decayed = BPClassifier(weight_decay=0.9, **kwargs).fit(X, y)
    assert decayed.params_.squared_norm() < plain.params_.squared_norm()


@pytest.mark.parametrize("lam", [0.0, 1.0, -0.1, 2.0])
def test_bp_refuses_lambda_outside_the_open_unit_interval(lam):
    X, y = _blobs()
    with pytest.raises(ValueError, match="weight_decay"):
        BPClassifier(weight_decay=lam).fit(X, y)


@pytest.mark.parametrize(("param", "value"), [("learning_rate", 0.0), ("learning_rate", -1.0),
                                               ("hidden_units", 0), ("algorithm", "sgd"),
                                               ("init_range", (1.0, 0.0))])
def test_bp_refuses_bad_hyperparameters(param, value):
    X, y = _blobs()
    with pytest.raises(ValueError, match=param):
        BPClassifier(**{param: value}).fit(X, y)


def test_bp_regressor_maps_targets_and_back():
    X = np.linspace(-1, 1, 30)[:, None]
    y = 100.0 + 50.0 * X[:, 0] ** 2
    est = BPRegressor(hidden_units=6, algorithm="minibatch", batch_size=8, learning_rate=2.0,
                      max_iter=1000, patience=1000, init_range=(-1, 1), random_state=0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        est.fit(X, y)
    assert est.score(X, y) > 0.9
    assert est.y_min_[0] == y.min() and est.y_range_[0] == y.max() - y.min()


def test_functions_check_shapes():
    p = BPParams(np.ones((2, 3)), np.ones(3), np.ones((3, 1)), np.ones(1))
    with pytest.raises(ValueError, match="v"):
        bp_forward(np.ones((4, 5)), p.v, p.gamma, p.w, p.theta)
    with pytest.raises(ValueError, match="Y"):
        bp_gradients(np.ones((4, 2)), np.ones((4, 2)), p.v, p.gamma, p.w, p.theta)
    with pytest.raises(ValueError, match="learning_rate"):
        standard_bp_step(np.ones(2), np.ones(1), p.v, p.gamma, p.w, p.theta, 0.0)


def test_params_flatten_round_trip():
    rng = np.random.default_rng(0)
    p = BPParams(rng.normal(size=(2, 3)), rng.normal(size=3), rng.normal(size=(3, 4)),
                 rng.normal(size=4))
    q = BPParams.from_flat(p.flat(), 2, 3, 4)
    assert np.array_equal(p.flat(), q.flat())


# --- §3.4 --------------------------------------------------------------------------


def test_annealing_probability():
    p = annealing_probability([-1.0, 0.0, 1.0], 1.0)
    assert p.tolist() == [1.0, 1.0, pytest.approx(np.exp(-1.0))]
    with pytest.raises(ValueError, match="temperature"):
        annealing_probability([1.0], 0.0)


def test_restarts_keep_the_lowest_final_error():
    X, y = _blobs()
    found = fit_restarts(BPClassifier(hidden_units=2, max_iter=5, algorithm="accumulated"),
                         X, y, n_restarts=3, random_state=0)
    assert found.best is found.estimators[int(np.argmin(found.final_losses))]
    with pytest.raises(ValueError, match="n_restarts"):
        fit_restarts(BPClassifier(), X, y, n_restarts=0)


# --- RBF -----------------------------------------------------------------------------


def test_rbf_design_and_predict():
    X = np.array([[0.0], [1.0]])
    Phi = rbf_design(X, [[0.0]], [2.0])
    assert np.allclose(Phi[:, 0], [1.0, np.exp(-2.0)])
    with pytest.raises(ValueError, match="betas"):
        rbf_design(X, [[0.0]], [0.0])


@pytest.mark.parametrize("centres", ["kmeans", "random"])
def test_rbf_fits_a_smooth_function(centres):
    X = np.linspace(0, 1, 50)[:, None]
    y = np.sin(2 * np.pi * X[:, 0])
    net = RBFNetwork(n_centres=12, centres=centres, random_state=0).fit(X, y)
    assert net.score(X, y) > 0.99 and net.n_centres_ == 12


def test_rbf_cuts_the_centres_to_the_samples():
    net = RBFNetwork(n_centres=10, random_state=0).fit(np.arange(4.0)[:, None], np.arange(4.0))
    assert net.n_centres_ == 4


def test_rbf_gradient_descent_refuses_an_overshooting_step():
    X = np.linspace(0, 1, 20)[:, None]
    with pytest.warns(ConvergenceWarning, match="raised E"):
        net = RBFNetwork(n_centres=5, solver="gd", learning_rate=100.0, random_state=0).fit(
            X, np.sin(X[:, 0]))
    assert net.stop_reason_ == "increase" and np.all(np.isfinite(net.weights_))


# ---------------------------------------------------------------------------
# §3.4 genetic algorithm; (3.13)'s lambda chosen by cross-validation
# ---------------------------------------------------------------------------


def test_genetic_algorithm_solves_xor_without_a_gradient():
    X = np.array([[0, 0], [0, 1], [1, 0], [1, 1]], dtype=float)
    y = np.array([0, 1, 1, 0])
    est = BPClassifier(hidden_units=2, algorithm="genetic", population_size=40,
                       mutation_scale=0.5, max_iter=300, patience=10**6,
                       init_range=(-1.0, 1.0), random_state=1)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        est.fit(X, y)
    assert np.array_equal(est.predict(X), y)
    assert est.loss_curve_[-1] < 1e-3 < est.loss_curve_[0]
    assert est.generation_log_.shape == (est.n_iter_, 2)
    # learning_rate plays no part in the genetic search
    other = BPClassifier(**{**est.get_params(), "learning_rate": 0.9})
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        other.fit(X, y)
    assert np.array_equal(other.loss_curve_, est.loss_curve_)


def test_genetic_population_starts_from_the_bp_start():
    """Row 0 of the first population is the random start BP would use (same seed)."""
    rng = np.random.default_rng(0)
    X, y = rng.normal(size=(20, 2)), np.arange(20) % 2
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        ga = BPClassifier(algorithm="genetic", max_iter=2, random_state=5).fit(X, y)
        bp = BPClassifier(algorithm="accumulated", max_iter=2, random_state=5).fit(X, y)
    assert np.array_equal(ga.initial_params_.flat(), bp.initial_params_.flat())
    assert bp.generation_log_.shape == (0, 2)


def test_weight_decay_lambda_chosen_by_cross_validation():
    """(3.13): lambda is usually set by cross-validation; GridSearchCV does it."""
    from sklearn.model_selection import GridSearchCV

    rng = np.random.default_rng(0)
    X = rng.normal(size=(60, 2))
    y = (X[:, 0] + 0.3 * rng.normal(size=60) > 0).astype(int)
    search = GridSearchCV(
        BPClassifier(hidden_units=3, algorithm="accumulated", learning_rate=1.0,
                     max_iter=100, random_state=0),
        {"weight_decay": [0.5, 0.9, 0.999]}, cv=3)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        search.fit(X, y)
    assert search.best_params_["weight_decay"] in (0.5, 0.9, 0.999)
    scores = search.cv_results_["mean_test_score"]
    assert np.all(np.isfinite(scores)) and search.best_score_ == scores.max()
