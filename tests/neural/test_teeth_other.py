"""The checks of the other networks (003 §3.5.2-§3.5.6) have teeth: the check bodies the
claims use refute deliberately broken variants (a constant scaled, a sign flipped, a term
dropped, an update skipped, a misreported record)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import algorithms.neural._art as art_module
import algorithms.neural._cascade as cascade_module
from algorithms.neural import (
    ART,
    RBM,
    SOM,
    CascadeCorrelationRegressor,
    binary_states,
    boltzmann_log_probabilities,
    candidate_correlation_gradient,
)
from mltheory.stats import check_probability_at_least
from mltheory.testing import assert_holds, assert_refutes
from properties.neural.boltzmann import _cd_fit, _random_rbm
from properties.neural.cascade import fit_quietly
from properties.neural.som import trained_map
from properties.neural.strategies_other import (
    SEEDS,
    boltzmann_machines,
    elman_network,
    elman_problems,
    point_clouds,
    regression_sets,
)
from properties.neural.support_other import (
    cd_likelihood_runs,
    check_art_run,
    check_boltzmann_distribution,
    check_bptt_gradient,
    check_cascade_run,
    check_cd_expectation,
    check_cd_limit,
    check_correlation_gradient,
    check_neighbours_adjacent,
    check_one_active_unit,
    check_som_replay,
    check_state_dependence,
    check_topology_beats_random,
    exact_cd_update,
    own_energies,
)

# ---------------------------------------------------------------------------
# ART
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("factor", [0.9, 0.5, 2.0])
def test_art_replay_refutes_a_scaled_learning_rate(factor):
    @given(X=point_clouds(min_size=4), seed=SEEDS)
    def check(X, seed):
        est = ART(vigilance=0.2, learning_rate=0.4).fit(X)
        check_art_run(est, X, 0.2, min(1.0, 0.4 * factor))

    assert_refutes(check)


@pytest.mark.parametrize("shift", [-0.1, 0.1])
def test_art_replay_refutes_another_vigilance(shift):
    @given(X=point_clouds(min_size=4))
    def check(X):
        est = ART(vigilance=0.5, learning_rate=0.5).fit(X)
        check_art_run(est, X, 0.5 + shift, 0.5)

    assert_refutes(check)


def test_art_replay_refutes_a_halved_distance(monkeypatch):
    real = art_module._distances
    monkeypatch.setattr(art_module, "_distances", lambda X, P: 0.5 * real(X, P))

    @given(X=point_clouds(min_size=4))
    def check(X):
        est = ART(vigilance=0.3, learning_rate=0.5).fit(X)
        check_art_run(est, X, 0.3, 0.5)

    assert_refutes(check)


def test_art_replay_refutes_a_misreported_winner():
    @given(X=point_clouds(min_size=6))
    def check(X):
        est = ART(vigilance=0.3, learning_rate=0.5).fit(X)
        units_before = np.cumsum(est.created_) - est.created_
        # misreport another existing unit as the winner of each resonance
        for t in np.flatnonzero(~est.created_ & (units_before >= 2)):
            est.winners_[t] = (est.winners_[t] + 1) % units_before[t]
        check_art_run(est, X, 0.3, 0.5)

    assert_refutes(check)


def test_one_active_unit_refutes_two_winners_and_the_least_similar():
    class TwoActive(ART):
        def transform(self, X):
            out = super().transform(X)
            out[:, 0] = 1.0
            return out

    class LeastSimilar(ART):
        def transform(self, X):
            sims = self.similarity(X)
            out = np.zeros_like(sims)
            out[np.arange(sims.shape[0]), np.argmin(sims, axis=1)] = 1.0
            return out

    for cls in (TwoActive, LeastSimilar):
        assert_refutes(_one_active_check(cls))


def _one_active_check(cls):
    @given(X=point_clouds(min_size=6))
    def check(X):
        est = cls(vigilance=0.6).fit(X)
        check_one_active_unit(est, X)

    return check


# ---------------------------------------------------------------------------
# SOM
# ---------------------------------------------------------------------------


def test_topology_check_refutes_a_map_without_cooperation():
    # radius 0.05: neighbours get exp(-1/0.005) of the update, i.e. plain competitive
    # learning, whose lattice arrangement is as random as its initial samples
    def no_neighbourhood(X, seed):
        return SOM(n_rows=6, n_cols=6, n_epochs=10, radius=0.05, final_radius=0.05,
                   random_state=seed).fit(X)

    def check(rng):
        check_topology_beats_random(no_neighbourhood, rng)

    assert_refutes(check)


def test_topology_check_holds_for_the_trained_map():
    def check(rng):
        check_topology_beats_random(trained_map, rng)

    assert_holds(check)


def test_adjacency_check_can_hold_on_a_line():
    # the as-printed check is not vacuous: 1-d data on a 1 x 12 chain keeps every
    # nearest neighbour on the same or the next unit
    @given(seed=SEEDS)
    def check(seed):
        X = np.sort(np.random.default_rng(seed).uniform(size=(60, 1)), axis=0)
        som = SOM(n_rows=1, n_cols=12, n_epochs=20, random_state=seed).fit(X)
        check_neighbours_adjacent(som, X)

    assert_holds(check)


@pytest.mark.parametrize(("width", "rate"), [(1.0, 1.0), (4.0, 1.0), (2.0, 0.9)])
def test_som_replay_refutes_another_neighbourhood_or_rate(width, rate):
    @given(seed=SEEDS)
    def check(seed):
        X = np.random.default_rng(seed).normal(size=(20, 2))
        som = SOM(n_rows=3, n_cols=3, n_epochs=2, random_state=seed).fit(X)
        check_som_replay(som, X, width=width, rate=rate)

    assert_refutes(check)


# ---------------------------------------------------------------------------
# Cascade-correlation
# ---------------------------------------------------------------------------


def _cascade_check(tamper=lambda est: None):
    """The claim's check on a two-unit regressor, after ``tamper`` edits its records."""
    @given(data=regression_sets(), seed=SEEDS)
    def check(data, seed):
        X, y = data
        est = fit_quietly(CascadeCorrelationRegressor(
            max_hidden=2, candidate_max_iter=40, tol=0.0, target_error=0.0,
            record_history=True, random_state=seed), X, y)
        tamper(est)
        check_cascade_run(est, X, ((y - est.y_mean_) / est.y_scale_)[:, None])

    return check


def test_cascade_check_refutes_a_sign_flipped_candidate_gradient(monkeypatch):
    real = cascade_module._correlation_gradient

    def descent(Z, W, Ec):
        S, grad, V = real(Z, W, Ec)
        return S, -grad, V

    monkeypatch.setattr(cascade_module, "_correlation_gradient", descent)
    assert_refutes(_cascade_check())


def test_cascade_check_refutes_outputs_retrained_on_the_new_unit_only(monkeypatch):
    def narrow(Z, Y):  # the bias and the newest unit only: earlier features dropped
        bias = int(np.flatnonzero(np.all(Z == 1.0, axis=0))[0])
        cols = [bias, Z.shape[1] - 1] if Z.shape[1] - 1 > bias else list(range(Z.shape[1]))
        coef, *_ = np.linalg.lstsq(Z[:, cols], Y, rcond=None)
        W = np.zeros((Z.shape[1], Y.shape[1]))
        W[cols] = coef
        R = Z @ W - Y
        return W, float(0.5 * np.mean(np.sum(R**2, axis=1)))

    monkeypatch.setattr(cascade_module._CascadeCorrelation, "_fit_outputs",
                        staticmethod(narrow))
    assert_refutes(_cascade_check())


def test_cascade_check_refutes_a_tampered_training_error():
    def scaled(est):
        est.training_error_history_ = est.training_error_history_ * 0.9

    assert_refutes(_cascade_check(scaled))


def test_cascade_check_refutes_a_dropped_ascent_step_record():
    def dropped(est):
        est.candidate_correlation_history_[0] = est.candidate_correlation_history_[0][:-1]

    assert_refutes(_cascade_check(dropped))


def test_cascade_check_holds_on_the_regressor():
    assert_holds(_cascade_check())


@pytest.mark.parametrize("variant", ["sign", "no_derivative", "scaled", "uncentred"])
def test_correlation_gradient_check_refutes_broken_gradients(variant):
    def broken(Z, w, E):
        S, g = candidate_correlation_gradient(Z, w, E)
        V = 1.0 / (1.0 + np.exp(-(Z @ w)))
        Ec = E - E.mean(axis=0)
        sign = np.sign((V - V.mean()) @ Ec)
        if variant == "sign":
            return S, -g
        if variant == "no_derivative":  # f'(net) dropped
            return S, Z.T @ (Ec @ sign)
        if variant == "scaled":
            return S, 0.9 * g
        return S, Z.T @ ((V * (1 - V)) * (E @ sign))  # residuals not centred

    @given(seed=SEEDS, m=st.integers(3, 20), p=st.integers(1, 4))
    def check(seed, m, p):
        rng = np.random.default_rng(seed)
        Z, w = rng.normal(size=(m, p)), rng.normal(size=p)
        E = rng.normal(size=(m, 2)) + (3.0 if variant == "uncentred" else 0.0)
        check_correlation_gradient(Z, w, E, broken)

    assert_refutes(check)


# ---------------------------------------------------------------------------
# Elman
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("variant", ["truncated", "sign", "halved_W", "no_context_grad"])
def test_bptt_check_refutes_broken_gradients(variant):
    def broken(net, X, Y):
        g = net.loss_gradient(X, Y)
        if variant == "sign":
            g["gamma"] = -g["gamma"]
        elif variant == "halved_W":
            g["W"] = 0.5 * g["W"]
        elif variant == "no_context_grad":
            g["U"] = np.zeros_like(g["U"])
        else:  # one-step truncation: no error signal carried back through U
            p = net.params_
            Xs = X
            H = net.hidden_states(Xs)
            out = net.predict(Xs).reshape(*Xs.shape[:2], -1)
            dO = out - Y
            if net.output_activation == "sigmoid":
                dO = dO * out * (1 - out)
            dO = dO / Xs.shape[0]
            delta = H * (1 - H) * (dO @ p["W"].T)
            g["V"] = np.einsum("ntd,ntq->dq", Xs, delta)
        return g

    @given(problem=elman_problems(min_steps=3 if variant == "truncated" else 1,
                                  max_scale=3.0))
    def check(problem):
        check_bptt_gradient(problem.net, problem.X, problem.Y, gradient=broken)

    assert_refutes(check)


def test_state_dependence_check_refutes_a_network_without_context():
    @given(problem=elman_problems(min_steps=2, max_scale=1.0), seed=SEEDS)
    def check(problem, seed):
        params = problem.net.params_
        params["U"] = np.zeros_like(params["U"])  # feed-forward: no state fed back
        net = elman_network(params, problem.net.output_activation, problem.X, problem.Y, 0)
        check_state_dependence(net, problem.X, np.random.default_rng(seed))

    assert_refutes(check)


# ---------------------------------------------------------------------------
# Boltzmann machines and RBMs
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("variant", ["sign", "pairs_twice", "no_thresholds"])
def test_boltzmann_check_refutes_broken_distributions(variant):
    def broken(W, theta):
        S = binary_states(W.shape[0])
        if variant == "sign":  # P proportional to exp(+E)
            E = -own_energies(S, W, theta)
        elif variant == "pairs_twice":  # sum over i != j: every pair counted twice
            E = -np.einsum("ki,ij,kj->k", S, W, S) - S @ theta
        else:
            E = own_energies(S, W, np.zeros_like(theta))
        log_w = -E
        return S, log_w - np.logaddexp.reduce(log_w)

    @given(machine=boltzmann_machines())
    def check(machine):
        check_boltzmann_distribution(*machine, broken)

    assert_refutes(check)
    assert_holds(lambda: check_boltzmann_distribution(
        np.array([[0.0, 2.0], [2.0, 0.0]]), np.array([-1.0, -1.0]),
        boltzmann_log_probabilities))


class _ReversedCD(RBM):
    """CD-k with the update's sign flipped (ascent on the contrastive divergence)."""

    @staticmethod
    def _cd_step(V0, W, b, c, eta, k, rng):
        W1, b1, c1 = RBM._cd_step(V0, W, b, c, eta, k, rng)
        return W - (W1 - W), b - (b1 - b), c - (c1 - c)


class _NoNegativePhase(RBM):
    """CD with the Gibbs chain skipped: the model term taken at the data (zero update)."""

    @staticmethod
    def _cd_step(V0, W, b, c, eta, k, rng):
        return RBM._cd_step(V0, W, b, c, 0.0, k, rng)


@pytest.mark.parametrize("cls", [_ReversedCD, _NoNegativePhase])
def test_cd_check_refutes_broken_updates(cls):
    def fit(X, k, seed):
        return cls(n_components=3, learning_rate=0.1, k=k, batch_size=6, n_iter=15,
                   record_history=True, random_state=seed).fit(X)

    def check(rng):
        wins, _, _ = cd_likelihood_runs(rng, 30, fit, 1)
        check_probability_at_least(wins, 30, 0.5, label="P(CD raises the likelihood)")

    assert_refutes(check)


def test_cd_check_holds_for_cd1():
    def check(rng):
        wins, _, _ = cd_likelihood_runs(rng, 30, _cd_fit, 1)
        check_probability_at_least(wins, 30, 0.5, label="P(CD raises the likelihood)")

    assert_holds(check)


class _HiddenBiasSum(RBM):
    """The hidden-bias update with ph0 + ph instead of ph0 - ph."""

    @staticmethod
    def _cd_step(V0, W, b, c, eta, k, rng):
        W1, b1, c1 = RBM._cd_step(V0, W, b, c, eta, k, rng)
        ph0 = 1.0 / (1.0 + np.exp(-(c + V0 @ W)))
        # c1 - c = eta (<ph0> - <ph>), so c + eta (<ph0> + <ph>) = c + 2 eta <ph0> - (c1 - c)
        return W1, b1, c + 2.0 * eta * ph0.mean(axis=0) - (c1 - c)


@pytest.mark.parametrize("cls", [_ReversedCD, _NoNegativePhase, _HiddenBiasSum])
def test_cd_expectation_check_refutes_broken_updates(cls):
    @given(seed=SEEDS, n_v=st.integers(1, 4), n_h=st.integers(1, 3))
    def check(seed, n_v, n_h):
        base = _random_rbm(seed, n_v, n_h, 1.0)
        rbm = cls(n_components=n_h, k=1, learning_rate=0.1)
        for attr in ("components_", "intercept_hidden_", "intercept_visible_",
                     "n_features_in_"):
            setattr(rbm, attr, getattr(base, attr))
        V0 = np.random.default_rng(seed + 2).integers(0, 2, size=(3, n_v)).astype(float)
        check_cd_expectation(rbm, V0, 1, copies=8_000, seed=seed)

    assert_refutes(check)


@pytest.mark.parametrize("variant", ["cd1", "visible_sign", "no_hidden_probability"])
def test_cd_limit_check_refutes_short_chains_and_broken_directions(variant):
    def direction(V0, W, b, c, k):
        dW, db, dc = exact_cd_update(V0, W, b, c, 1 if variant == "cd1" else k)
        if variant == "visible_sign":
            db = -db
        elif variant == "no_hidden_probability":  # positive phase without P(h | v)
            dW = dW - V0.T @ (1.0 / (1.0 + np.exp(-(c + V0 @ W)))) / V0.shape[0] + \
                V0.mean(axis=0)[:, None] * 0.5
        return dW, db, dc

    @given(seed=SEEDS, n_v=st.integers(1, 3), n_h=st.integers(1, 2))
    def check(seed, n_v, n_h):
        rng = np.random.default_rng(seed)
        W, b, c = rng.normal(size=(n_v, n_h)), rng.normal(size=n_v), rng.normal(size=n_h)
        V0 = rng.integers(0, 2, size=(4, n_v)).astype(float)
        check_cd_limit(V0, W, b, c, 2000, direction)

    assert_refutes(check)
