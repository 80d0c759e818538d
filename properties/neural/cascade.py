"""Cascade-correlation of 003 §3.5.4 (Fahlman & Lebiere 1990): the candidate correlation
S rises during candidate training, its gradient is exact, output retraining never raises
the training error, and the network grows its own hidden layers."""

from __future__ import annotations

import warnings

import numpy as np
from hypothesis import assume, given
from hypothesis import strategies as st
from sklearn.exceptions import ConvergenceWarning

from algorithms.neural import (
    CascadeCorrelationClassifier,
    CascadeCorrelationRegressor,
    candidate_correlation,
    candidate_correlation_gradient,
)
from mltheory import Method, claim, evidence
from mltheory.numeric import LINEAR_ALGEBRA, assert_close
from properties.neural.strategies_other import SEEDS, regression_sets
from properties.neural.support_other import (
    check_cascade_run,
    check_correlation_gradient,
    own_correlation,
)


def fit_quietly(est, X, y):
    """Fit; a budget of hidden units reached is not a failure of these claims."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        return est.fit(X, y)


@claim(
    id="cascade.correlation_and_retraining",
    source="003 §3.5.4; Fahlman & Lebiere 1990, §2",
    statement="Cascade-correlation starts without hidden units and adds one at a time, "
    "each reading the inputs and every earlier unit with frozen input weights; during "
    "candidate training the correlation magnitude S between the candidate's output and the "
    "residual error never decreases and ends above its start, and retraining the output "
    "weights (least squares) never increases the training error.",
    method=Method.PROPERTY,
    tags=("neural", "cascade"),
)
@given(data=regression_sets(), n_hidden=st.integers(1, 4), seed=SEEDS,
       classify=st.booleans())
def correlation_and_retraining(data, n_hidden, seed, classify):
    X, y = data
    if classify:
        levels = [0.5, 0.8] if seed % 2 else [0.5]  # three classes, or two (binary)
        y = np.searchsorted(np.quantile(y, levels), y, side="right")
        est = CascadeCorrelationClassifier(max_hidden=n_hidden, candidate_max_iter=60,
                                           tol=0.0, target_error=0.0, record_history=True,
                                           random_state=seed)
        fit_quietly(est, X, y)
        Y = np.zeros((X.shape[0], est.classes_.shape[0]))
        Y[np.arange(X.shape[0]), np.searchsorted(est.classes_, y)] = 1.0
    else:
        est = CascadeCorrelationRegressor(max_hidden=n_hidden, candidate_max_iter=60,
                                          tol=0.0, target_error=0.0, record_history=True,
                                          random_state=seed)
        fit_quietly(est, X, y)
        Y = ((y - est.y_mean_) / est.y_scale_)[:, None]
    assert est.n_hidden_ == n_hidden, "growth stopped before the budget with tol = 0"
    Z = check_cascade_run(est, X, Y)
    out = Z @ est.output_weights_
    if classify:
        got = est.decision_function(X)
        want = out[:, 1] - out[:, 0] if out.shape[1] == 2 else out
        top = np.max(out, axis=1, keepdims=True)
        clear = np.sum(out >= top - 1e-9, axis=1) == 1  # no near-tie between outputs
        assert np.array_equal(est.predict(X)[clear],
                              est.classes_[np.argmax(out, axis=1)][clear]), (
            "predict is not the class of the largest output")
    else:
        got, want = est.predict(X), out[:, 0] * est.y_scale_ + est.y_mean_
    assert_close(got, want, LINEAR_ALGEBRA, scale=max(1.0, float(np.max(np.abs(want)))),
                 label="|network output - replayed cascade| / scale")


@claim(
    id="cascade.correlation_gradient",
    source="003 §3.5.4; Fahlman & Lebiere 1990, §2 (dS/dw_i)",
    statement="The candidate-training gradient dS/dw_i = sum_{p,o} sigma_o (E_po - Ebar_o) "
    "f'_p I_ip, with sigma_o the sign of output o's covariance, equals the exact derivative "
    "of S = sum_o |sum_p (V_p - Vbar)(E_po - Ebar_o)| for a sigmoid candidate (the Vbar "
    "term drops out because centred residuals sum to zero).",
    method=Method.REFERENCE,
    tags=("neural", "cascade", "gradient"),
)
@given(seed=SEEDS, m=st.integers(3, 30), p=st.integers(1, 5), n_out=st.integers(1, 3),
       w_scale=st.sampled_from([0.1, 1.0, 4.0]))
def correlation_gradient(seed, m, p, n_out, w_scale):
    rng = np.random.default_rng(seed)
    Z = rng.normal(size=(m, p))
    w = rng.normal(scale=w_scale, size=p)
    E = rng.normal(size=(m, n_out))
    V = 1.0 / (1.0 + np.exp(-(Z @ w)))
    cov = (V - V.mean()) @ (E - E.mean(axis=0))
    # S is not differentiable where a covariance changes sign (measure zero)
    assume(np.all(np.abs(cov) > 1e-4 * np.sqrt(m)))
    check_correlation_gradient(Z, w, E, candidate_correlation_gradient)
    assert_close(candidate_correlation(np.column_stack([V, 1.0 - V]), E),
                 [own_correlation(V, E)] * 2, LINEAR_ALGEBRA, scale=max(1.0, float(m)),
                 label="|candidate_correlation - own S|")


@claim(
    id="cascade.grows_to_fit",
    source="003 §3.5.4",
    statement="Cascade-correlation sets its own topology: without a preset number of "
    "hidden units it keeps adding units exactly while each lowers the training error by at "
    "least the fraction tol (the recorded errors show where it stopped and why), and on a "
    "small training set it fits the samples far better than the held-out data (the "
    "overfitting the notes warn about): training error below held-out error in every run.",
    method=Method.SIMULATION,
    tags=("neural", "cascade"),
)
def grows_to_fit(rng, scale):
    ratios = []
    for _ in range(3 * scale):
        X = rng.uniform(-2, 2, size=(60, 2))
        y = np.sin(2 * X[:, 0]) * X[:, 1] + 0.3 * rng.normal(size=60)
        train, test = slice(0, 15), slice(15, 60)
        tol, budget, target = 1e-3, 12, 1e-4
        est = fit_quietly(CascadeCorrelationRegressor(max_hidden=budget, tol=tol,
                                                      target_error=target,
                                                      random_state=int(rng.integers(2**32))),
                          X[train], y[train])
        errs = est.training_error_history_
        gains = errs[:-1] - errs[1:]
        # every unit but the last improved by >= tol (else growth would have stopped)
        assert np.all(gains[:-1] >= tol * errs[:-2]) and np.all(errs[:-1] > target), (
            f"growth went on after a unit improved by less than tol: {errs.tolist()}")
        stopped = est.n_hidden_ == budget or errs[-1] <= target or gains[-1] < tol * errs[-2]
        assert stopped, f"growth stopped without reason: {errs.tolist()}"
        assert est.converged_ == (errs[-1] <= target or (est.n_hidden_ > 0 and
                                                          gains[-1] < tol * errs[-2]))
        e_train = float(np.mean((est.predict(X[train]) - y[train]) ** 2))
        e_test = float(np.mean((est.predict(X[test]) - y[test]) ** 2))
        ratios.append(e_train / e_test)
        evidence.worst("hidden units grown", est.n_hidden_)
        assert est.n_hidden_ >= 1, "no unit was grown on a nonlinear target"
        assert e_train < e_test, f"training error {e_train:.3g} >= held-out {e_test:.3g}"
    evidence.worst("training / held-out error", max(ratios))
    evidence.add_examples(len(ratios))
