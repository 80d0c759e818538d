"""The Elman network of 003 §3.5.5: the output at t depends on the input at t and on the
state at t - 1 (and on nothing later); back-propagation through time is the exact
gradient; and a network trained by it solves a task no feed-forward net can (recall the
previous input)."""

from __future__ import annotations

import warnings

import numpy as np
from hypothesis import given
from sklearn.exceptions import ConvergenceWarning

from algorithms.neural import ElmanNetwork
from mltheory import Method, claim, evidence
from mltheory.numeric import LINEAR_ALGEBRA, assert_close
from properties.neural.strategies_other import SEEDS, elman_problems
from properties.neural.support_other import (
    check_bptt_gradient,
    check_state_dependence,
    own_elman_loss,
)


@claim(
    id="elman.state_dependence",
    source="003 §3.5.5",
    statement="In an Elman (recurrent) network the output at time t is a function of the "
    "input at t and of the network state at t - 1 fed back through the context units: it "
    "equals g(f(x_t V + h_{t-1} U - gamma) W - theta), changes when only x_t changes, "
    "changes when only an earlier input changes (through the state), and does not depend "
    "on later inputs.",
    method=Method.PROPERTY,
    tags=("neural", "elman"),
)
@given(problem=elman_problems(min_steps=2, max_scale=1.0), seed=SEEDS)
def state_dependence(problem, seed):
    # weights up to 1 keep every net input below ~20 in size, where float64 still tells
    # f(a) from 1 (f saturates to exactly 1.0 near a = 37); beyond, a change can vanish
    # in rounding although the function depends on it
    check_state_dependence(problem.net, problem.X, np.random.default_rng(seed))


@claim(
    id="elman.bptt_gradient",
    source="003 §3.5.5; 003 §3.3 (3.4)-(3.12)",
    statement="Back-propagation through time gives the exact gradient of the accumulated "
    "error E = (1/m) sum_k (1/2) sum_t ||yhat_t - y_t||^2 with respect to every weight "
    "and threshold of an Elman network (V, U, gamma, W, theta), sigmoid or linear outputs, "
    "saturated sigmoids included: it agrees with central finite differences.",
    method=Method.REFERENCE,
    tags=("neural", "elman", "gradient"),
)
@given(problem=elman_problems())
def bptt_gradient(problem):
    err = check_bptt_gradient(problem.net, problem.X, problem.Y)
    evidence.worst("largest relative gradient error", err)


@claim(
    id="elman.learns_previous_input",
    source="003 §3.5.5",
    statement="Because its state carries the past, an Elman network trained by BPTT learns "
    "to output the previous input of a random binary sequence (y_t = x_{t-1}), which no "
    "function of x_t alone can do better than chance: above 95 % of held-out steps right.",
    method=Method.SIMULATION,
    tags=("neural", "elman"),
)
def learns_previous_input(rng, scale):
    for _ in range(scale):
        X = rng.integers(0, 2, size=(50, 8, 1)).astype(float)
        y = np.zeros((50, 8))
        y[:, 1:] = X[:, :-1, 0]
        net = ElmanNetwork(n_hidden=6, learning_rate=2.0, max_iter=1500, tol=1e-9,
                           random_state=int(rng.integers(2**32)))
        with warnings.catch_warnings():  # judged by held-out accuracy, not by tol
            warnings.simplefilter("ignore", ConvergenceWarning)
            net.fit(X[:30], y[:30])
        assert not net.diverged_, "training diverged"
        loss = net.loss_history_
        # the last recorded E is the own loss of the fitted network on standardised inputs
        Xn = (X[:30] - net.x_mean_) / net.x_scale_
        assert_close(loss[-1], own_elman_loss(net.params_, Xn, y[:30, :, None], "sigmoid"),
                     LINEAR_ALGEBRA, label="|recorded final E - own E|")
        assert loss[-1] < loss[0], "training did not lower E"
        right = (net.predict(X[30:])[:, 1:] > 0.5) == (y[30:, 1:] > 0.5)
        acc = float(np.mean(right))
        evidence.worst("held-out accuracy of recalling x_{t-1}", acc, larger_is_worse=False)
        evidence.series("E per step", np.arange(loss.shape[0]), loss, plot="Elman: "
                        "training error E per gradient step", xlabel="step", ylabel="E",
                        logy=True)
        assert acc > 0.95, f"held-out accuracy {acc:.3f} <= 0.95"
    evidence.add_examples(scale)
