"""The generic EM driver: trace recording, restarts, convergence, non-finite refusal."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.special import logsumexp
from sklearn.exceptions import ConvergenceWarning

from algorithms.bayes import LatentVariableModel, params_finite, record_em_result, run_em


class TwoGaussians:
    """A 1-d mixture of two unit-variance Gaussians with unknown means and weight."""

    def initialise(self, X, rng):
        return {"w": 0.5, "mu": rng.choice(X, size=2, replace=False)}

    def e_step(self, X, params):
        w = np.array([params["w"], 1.0 - params["w"]])
        log_joint = np.log(w) - 0.5 * (X[:, None] - params["mu"]) ** 2 - 0.5 * np.log(2 * np.pi)
        log_px = logsumexp(log_joint, axis=1)
        return np.exp(log_joint - log_px[:, None]), float(log_px.sum())

    def m_step(self, X, resp):
        nk = resp.sum(axis=0)
        return {"w": nk[0] / nk.sum(), "mu": resp.T @ X / nk}


class BrokenMStep(TwoGaussians):
    """Its M-step returns NaN means after the first iteration."""

    def m_step(self, X, resp):
        return {"w": 0.5, "mu": np.array([np.nan, 0.0])}


def data(seed=0, n=200):
    rng = np.random.default_rng(seed)
    return np.concatenate([rng.normal(-2, 1, n // 2), rng.normal(3, 1, n - n // 2)])


def test_model_satisfies_the_protocol():
    assert isinstance(TwoGaussians(), LatentVariableModel)


def test_trace_has_one_entry_per_iterate_and_never_decreases():
    X = data()
    res = run_em(TwoGaussians(), X, random_state=0, keep_params=True, tol=1e-8, max_iter=500)
    run = res.best_run
    assert res.converged and run.stop_reason == "converged"
    assert len(run.log_likelihood_history) == run.n_iter + 1 == len(run.params_history)
    assert np.all(np.diff(run.log_likelihood_history) >= -1e-9)
    # the trace is the LL of the recorded iterates, recomputed independently
    for params, ll in zip(run.params_history, run.log_likelihood_history, strict=True):
        assert TwoGaussians().e_step(X, params)[1] == pytest.approx(ll, rel=1e-12)
    assert sorted(np.round(res.params["mu"], 0)) == [-2.0, 3.0]


def test_restarts_keep_the_best_final_log_likelihood():
    X = data()
    bad = {"w": 0.5, "mu": np.array([10.0, 10.0 + 1e-9])}
    res = run_em(TwoGaussians(), X, n_init=3, initial_params=[bad], random_state=1, max_iter=3,
                 warn=False)
    assert len(res.runs) == 3
    finals = [r.log_likelihood for r in res.runs]
    assert res.log_likelihood == max(finals) and res.best == int(np.argmax(finals))
    assert res.runs[0].initial_params is bad


def test_same_seed_same_result():
    X = data()
    a = run_em(TwoGaussians(), X, n_init=2, random_state=5)
    b = run_em(TwoGaussians(), X, n_init=2, random_state=5)
    assert a.log_likelihood_history == b.log_likelihood_history


def test_max_iter_warns_and_flags():
    with pytest.warns(ConvergenceWarning, match="max_iter=2"):
        res = run_em(TwoGaussians(), data(), max_iter=2, tol=0.0, random_state=0)
    assert not res.converged and res.stop_reason == "max_iter" and res.n_iter == 2


@pytest.mark.parametrize("n", [1, 200])
def test_tol_bounds_the_change_of_the_mean_log_likelihood_per_sample(n):
    # the stopping rule is |LL(t+1) - LL(t)| / n < tol, also for a single sample
    X = data()[:n]
    start = {"w": 0.3, "mu": np.array([-1.0, 2.0])}
    probe = run_em(TwoGaussians(), X, initial_params=[start], max_iter=1, tol=0.0, warn=False)
    change = abs(probe.log_likelihood_history[1] - probe.log_likelihood_history[0])
    assert change > 0.0
    above = run_em(TwoGaussians(), X, initial_params=[start], max_iter=1,
                   tol=0.99 * change / n, warn=False)
    below = run_em(TwoGaussians(), X, initial_params=[start], max_iter=1,
                   tol=1.01 * change / n, warn=False)
    assert not above.converged and below.converged


def test_non_finite_m_step_keeps_last_finite_iterate():
    with pytest.warns(ConvergenceWarning, match="non-finite"):
        res = run_em(BrokenMStep(), data(), random_state=0)
    assert res.stop_reason == "non-finite" and res.n_iter == 0
    assert params_finite(res.params)


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"max_iter": 0}, "max_iter"),
        ({"tol": -1.0}, "tol"),
        ({"tol": float("nan")}, "tol"),
        ({"n_init": 0}, "n_init"),
        ({"random_state": "x"}, "random_state"),
        ({"initial_params": [{"w": 0.5, "mu": np.array([np.nan, 1.0])}]}, r"initial_params\[0\]"),
    ],
)
def test_bad_settings_name_the_argument(kwargs, match):
    with pytest.raises(ValueError, match=match):
        run_em(TwoGaussians(), data(), **kwargs)


def test_minus_infinite_start_is_refused():
    class Zero(TwoGaussians):
        def e_step(self, X, params):
            return None, -np.inf

    with pytest.raises(ValueError, match="finite log-likelihood"):
        run_em(Zero(), data(), random_state=0)


def test_record_em_result_sets_estimator_attributes():
    class Holder:
        pass

    h = Holder()
    res = run_em(TwoGaussians(), data(), random_state=0)
    record_em_result(h, res)
    assert h.converged_ is res.converged and h.n_iter_ == res.n_iter
    assert h.log_likelihood_history_[-1] == h.log_likelihood_


def test_params_finite_walks_nested_containers():
    from dataclasses import dataclass

    @dataclass
    class P:
        a: np.ndarray
        b: list

    assert params_finite(P(np.ones(2), [1.0, {"c": 2}]))
    assert not params_finite(P(np.ones(2), [1.0, {"c": np.inf}]))
    assert params_finite(("label", None, 3))
