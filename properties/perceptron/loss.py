"""The perceptron loss and what one update does to it (004 §5.2–5.3.2, 001 §一).

Notation as in :mod:`properties.perceptron`.
"""


from __future__ import annotations

import numpy as np
from hypothesis import example, given
from hypothesis import strategies as st

from algorithms.perceptron import functional_margins
from algorithms.perceptron import perceptron_loss as library_loss
from mltheory import ErratumKind, Expect, Method, claim
from mltheory.numeric import Tolerance, assert_close, assert_leq
from mltheory.strategies import (
    LabelledData,
    finite_floats,
    nonseparable_datasets,
    separable_datasets,
)
from properties.perceptron.strategies import etas, orders
from properties.perceptron.support import (
    ACCUMULATED_ROUNDING,
    perceptron_loss,
    pla_run,
)

# ---------------------------------------------------------------------------
# The loss function (004 §5.2, 001 §一)
# ---------------------------------------------------------------------------


def _point_on_boundary(data: LabelledData, w: np.ndarray, i: int) -> np.ndarray:
    """w_hat = (w, b) with b chosen so that x_i lies exactly on the hyperplane."""
    return np.append(w, -float(data.X[i] @ w))


@claim(
    id="perceptron.misclassified_iff_negative_margin_as_written",
    source="004 §5.2 item 2; 004 §5.1",
    statement="(As printed) with f(x) = sign(w.x + b) and sign(0) = +1, a point is "
    "misclassified exactly when y (w.x + b) < 0.",
    method=Method.PROPERTY,
    tags=("perceptron", "loss", "erratum"),
    expect=Expect.REFUTED,
    kind=ErratumKind.MISSING_CONDITION,
    corrected_by="perceptron.misclassified_condition",
    explanation="Under the note's own convention sign(0) = +1, a negative point on the "
    "hyperplane is misclassified although y (w.x + b) = 0. The algorithm's test y (w.x+b) <= 0 "
    "covers it (and also flags positive points on the hyperplane, which f gets right).",
)
@given(data=separable_datasets(), w=st.lists(finite_floats(), min_size=4, max_size=4))
def misclassified_iff_negative_margin_as_written(data, w):
    w = np.resize(np.asarray(w), data.n_features)
    w_hat = np.append(w, 0.0)
    for i in range(data.n_samples):  # also exercise boundary points
        w_hat = _point_on_boundary(data, w, i) if data.y[i] < 0 else w_hat
    f = data.augmented() @ w_hat
    predicted = np.where(f >= 0, 1, -1)
    assert np.array_equal(predicted != data.y, data.y * f < 0)


@claim(
    id="perceptron.misclassified_condition",
    source="004 §5.2 item 2; 004 §5.1; 004 §5.3.1",
    statement="With sign(0) = +1, x is misclassified iff y (w.x + b) < 0 or (w.x + b = 0 and "
    "y = -1); every misclassified point satisfies the algorithm's test y (w.x + b) <= 0.",
    method=Method.PROPERTY,
    tags=("perceptron", "loss"),
)
@given(data=separable_datasets(), w=st.lists(finite_floats(), min_size=4, max_size=4),
       on_boundary=st.integers(0, 30))
def misclassified_condition(data, w, on_boundary):
    w = np.resize(np.asarray(w), data.n_features)
    w_hat = _point_on_boundary(data, w, on_boundary % data.n_samples)
    f = data.augmented() @ w_hat
    wrong = np.where(f >= 0, 1, -1) != data.y
    assert np.array_equal(wrong, (data.y * f < 0) | ((f == 0) & (data.y == -1)))
    assert np.all(data.y[wrong] * f[wrong] <= 0)


@claim(
    id="perceptron.loss_continuously_differentiable_as_written",
    source="004 §5.2 item 4",
    statement="(As printed) the loss L(w, b) = -sum over misclassified points of "
    "y_i (w.x_i + b) is a continuous and differentiable function of (w, b).",
    method=Method.PROPERTY,
    tags=("perceptron", "loss", "erratum"),
    expect=Expect.REFUTED,
    kind=ErratumKind.OVERCLAIM,
    corrected_by="perceptron.loss_properties",
    explanation="Each term is -min(0, y_i (w.x_i + b)), a hinge at zero margin: L is "
    "continuous and piecewise linear but has a kink wherever a point lies on the hyperplane "
    "(the one-sided directional derivatives differ there).",
)
@given(data=separable_datasets(), w=st.lists(finite_floats(), min_size=4, max_size=4),
       direction=st.lists(st.floats(-1, 1), min_size=5, max_size=5))
def loss_continuously_differentiable_as_written(data, w, direction):
    w = np.resize(np.asarray(w), data.n_features)
    w_hat = _point_on_boundary(data, w, 0)
    d = np.resize(np.asarray(direction), data.n_features + 1)
    X_hat = data.augmented()
    # L is piecewise linear: its one-sided directional derivatives are exact sums.
    m = data.y * (X_hat @ w_hat)
    s = data.y * (X_hat @ d)
    right = -np.sum(np.where((m < 0) | ((m == 0) & (s < 0)), s, 0.0))
    left = -np.sum(np.where((m < 0) | ((m == 0) & (s > 0)), s, 0.0))
    assert np.isclose(left, right, rtol=1e-12, atol=1e-12), (
        f"one-sided derivatives differ: {left} (from the left) vs {right} (from the right)"
    )


@claim(
    id="perceptron.loss_properties",
    source="004 §5.2 items 3–4; 001 §一.1, §一.3",
    statement="L(w, b) = -sum_{M} y_i (w.x_i + b) is non-negative, zero iff no point has "
    "y_i (w.x_i + b) < 0, continuous, convex and piecewise linear; where no point lies on the "
    "hyperplane it is differentiable with gradient (-sum_M y_i x_i, -sum_M y_i).",
    method=Method.PROPERTY,
    tags=("perceptron", "loss"),
)
@given(data=separable_datasets() | nonseparable_datasets(),
       w1=st.lists(finite_floats(), min_size=5, max_size=5),
       w2=st.lists(finite_floats(), min_size=5, max_size=5), t=st.floats(0, 1))
def loss_properties(data, w1, w2, t):
    X_hat, y = data.augmented(), data.y
    a = np.resize(np.asarray(w1), X_hat.shape[1])
    b = np.resize(np.asarray(w2), X_hat.shape[1])
    La, Lb = perceptron_loss(X_hat, y, a), perceptron_loss(X_hat, y, b)
    # The library's margins and loss against the independent ones written here.
    assert_close(functional_margins(data.X, y, a[:-1], a[-1]), y * (X_hat @ a),
                 ACCUMULATED_ROUNDING, label="library margins error")
    assert_close(library_loss(data.X, y, a[:-1], a[-1]), La, ACCUMULATED_ROUNDING,
                 label="library loss error")
    assert La >= 0 and Lb >= 0
    assert (La == 0) == bool(np.all(y * (X_hat @ a) >= 0))
    # Convexity along the segment (implies continuity on it).
    Lt = perceptron_loss(X_hat, y, (1 - t) * a + t * b)
    assert_leq(Lt, (1 - t) * La + t * Lb, label="convexity ratio",
               tol=ACCUMULATED_ROUNDING)
    # Gradient where no margin is zero. On the cell where the set M is fixed, L is the
    # linear function v -> -sum_M y_i x_hat_i . v, so L(a) = grad . a exactly; a central
    # difference with a step that cannot cross a kink (each margin moves by at most
    # step * max ||x_hat_i||) must reproduce the same gradient.
    m = y * (X_hat @ a)
    if np.all(m != 0):
        grad = -(y[m < 0] @ X_hat[m < 0])
        assert_close(La, float(grad @ a), ACCUMULATED_ROUNDING, label="L(a) - grad.a")
        step = 0.5 * float(np.min(np.abs(m))) / float(np.max(np.linalg.norm(X_hat, axis=1)))
        if step > _MIN_FD_STEP:
            eye = np.eye(a.size) * step
            numeric = np.array([
                (perceptron_loss(X_hat, y, a + e) - perceptron_loss(X_hat, y, a - e)) / (2 * step)
                for e in eye
            ])
            assert_close(numeric, grad, _FD_TOL, label="gradient error")


#: Below this step, float64 cancellation in (L(a+e) - L(a-e)) / 2e exceeds _FD_TOL for
#: losses up to ~1e3 (error about 1e-16 * 1e3 / step); such cells are covered by the exact
#: identity L(a) = grad . a instead.
_MIN_FD_STEP = 1e-8
_FD_TOL = Tolerance(
    rtol=1e-5, atol=1e-5,
    reason="central differences of an exactly linear piece lose about eps * |L| / step "
    "to cancellation, at most ~1e-5 for steps >= 1e-8 and |L| <= 1e3",
)


@claim(
    id="perceptron.loss_decreases_every_update_as_written",
    source="004 §5.3.1 item 2",
    statement="(As printed) each stochastic-gradient update on a misclassified point makes "
    "the loss L(w, b) decrease, until it reaches 0.",
    method=Method.PROPERTY,
    tags=("perceptron", "loss", "erratum"),
    expect=Expect.REFUTED,
    kind=ErratumKind.OVERCLAIM,
    corrected_by="perceptron.update_increases_functional_margin",
    explanation="An update fixes the loss term of the chosen point but moves the hyperplane "
    "for all points; others can become misclassified, so L can go up. What is monotone is the "
    "chosen point's margin (it grows by eta (||x||^2 + 1)), and on separable data L reaches "
    "0 after at most (R/gamma)^2 updates.",
)
@given(data=separable_datasets(), eta=etas, order=orders)
def loss_decreases_every_update_as_written(data, eta, order):
    run = pla_run(data, eta=eta, order=order)
    losses = np.array([perceptron_loss(run.X_hat, run.y, w) for w in run.W])
    increases = np.flatnonzero(np.diff(losses) > 0)
    assert increases.size == 0, (
        f"update {int(increases[0]) + 1} raised L from {losses[increases[0]]!r} to "
        f"{losses[increases[0] + 1]!r}"
    )


@claim(
    id="perceptron.distance_decreases_as_written",
    source="004 §5.3.2 item 1; 001 §一.4",
    statement="(As printed) when a misclassified point is used for an update, its distance "
    "to the hyperplane decreases, d' < d, the step eta being small (the note asks for "
    "w' ≃ w, hence a rather small eta; here eta in [1e-6, 1e-2]).",
    method=Method.PROPERTY,
    tags=("perceptron", "update", "erratum"),
    expect=Expect.REFUTED,
    kind=ErratumKind.OVERCLAIM,
    corrected_by="perceptron.update_increases_functional_margin",
    explanation="The derivation replaces ||w'|| by ||w|| (the '≃' step) and its last line "
    "drops the eta in front of the 1. Freezing ||w'|| is not even right to first order: "
    "d'(eta) - d = eta [-(||x||^2 + 1) + f(x) (w.x)/||w||^2] / ||w|| + O(eta^2), with "
    "f(x) = w.x + b, and the bracket is positive whenever f(x) w.x > ||x||^2 + 1 (e.g. "
    "w = 1, b = 5, x = 1, y = -1: d = 6 and d' = (6 - 2 eta)/(1 - eta) > 6 for every "
    "eta in (0, 1)). So the distance can grow however small the step; what always grows is "
    "the functional margin.",
)
@given(
    w=st.lists(finite_floats(), min_size=1, max_size=3), b=finite_floats(),
    x_seed=st.lists(finite_floats(), min_size=3, max_size=3),
    eta=st.floats(1e-6, 1e-2),
)
@example(w=[1.0], b=5.0, x_seed=[1.0, 0.0, 0.0], eta=1e-3)
def distance_decreases_as_written(w, b, x_seed, eta):
    w = np.asarray(w)
    x = np.asarray(x_seed[: w.size])
    if not np.any(w):  # no hyperplane
        return
    f = float(w @ x + b)
    y = 1.0 if f < 0 else -1.0  # label the point so that it is misclassified
    w2, b2 = w + eta * y * x, b + eta * y
    if not np.any(w2):
        return
    d = abs(f) / np.linalg.norm(w)
    d2 = abs(float(w2 @ x + b2)) / np.linalg.norm(w2)
    assert d2 < d, f"distance went from {d!r} to {d2!r}"
