"""The RBF network of 003 §3.5.1 (3.14): its output formula, least-squares weights with an
optimality certificate, and gradient descent on the widths and weights."""

from __future__ import annotations

import warnings

import numpy as np
from hypothesis import given
from hypothesis import strategies as st
from sklearn.exceptions import ConvergenceWarning

from algorithms.neural import RBFNetwork, rbf_design
from mltheory import Method, claim, evidence
from mltheory.numeric import EXACT_ARITHMETIC, LINEAR_ALGEBRA, assert_close


def independent_rbf_output(X, centres, betas, weights) -> np.ndarray:
    """sum_i w_i exp(-beta_i ||x - c_i||^2), one unit at a time."""
    out = np.zeros(X.shape[0])
    for c, b, w in zip(centres, betas, weights, strict=True):
        out += w * np.exp(-b * np.linalg.norm(X - c, axis=1) ** 2)
    return out


@claim(
    id="rbf.form",
    source="003 §3.5.1 (3.14)",
    statement="An RBF network outputs phi(x) = sum_i w_i rho(x, c_i) with rho(x, c_i) = "
    "exp(-beta_i ||x - c_i||^2); its centres are training inputs (random sampling) or "
    "cluster means (k-means); with fixed centres and widths the least-squares weights "
    "satisfy the normal equations.",
    method=Method.PROPERTY,
    tags=("neural", "rbf"),
)
@given(seed=st.integers(0, 2**32 - 1), q=st.integers(1, 8),
       centres=st.sampled_from(["random", "kmeans"]), d=st.integers(1, 3))
def form(seed, q, centres, d):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(20, d))
    y = np.sin(X.sum(axis=1)) + 0.1 * rng.normal(size=20)
    net = RBFNetwork(n_centres=q, centres=centres, random_state=seed).fit(X, y)
    check_rbf_fit(net, X, y, centres)


def check_rbf_fit(net, X, y, centres) -> None:
    G = np.random.default_rng(0).normal(size=(15, X.shape[1]))
    assert_close(net.predict(G), independent_rbf_output(G, net.centres_, net.betas_,
                                                        net.weights_),
                 LINEAR_ALGEBRA, label="|predict - sum_i w_i exp(-beta_i ||x - c_i||^2)|")
    Phi = rbf_design(X, net.centres_, net.betas_)
    if centres == "random":  # every centre is one of the training inputs
        gaps = np.min(np.abs(net.centres_[:, None, :] - X[None]).max(axis=2), axis=1)
        assert np.all(gaps == 0.0), "a random centre is not a training input"
    else:  # every k-means centre is the mean of the inputs nearest to it
        nearest = np.argmin(((X[:, None, :] - net.centres_[None]) ** 2).sum(-1), axis=1)
        for i in np.unique(nearest):
            assert_close(net.centres_[i], X[nearest == i].mean(axis=0), LINEAR_ALGEBRA,
                         label="|k-means centre - mean of its cluster|")
    residual = Phi @ net.weights_ - y
    certificate = Phi.T @ residual
    scale = max(1.0, float(np.linalg.norm(Phi, 2) * np.linalg.norm(y)))
    evidence.worst("||Phi^T (Phi w - y)|| / (||Phi|| ||y||)",
                   float(np.linalg.norm(certificate)) / scale)
    assert_close(certificate, np.zeros_like(certificate), LINEAR_ALGEBRA, scale=scale,
                 label="normal equations residual / scale")
    assert_close(net.loss_curve_[-1], 0.5 * float(np.mean(residual**2)), EXACT_ARITHMETIC,
                 label="|recorded E - E recomputed|")


@claim(
    id="rbf.gradient_descent",
    source="003 §3.5.1 (3.14)",
    statement="Gradient descent on E = 1/(2m) sum_k (phi(x_k) - y_k)^2 over the weights w_i "
    "(and the widths beta_i) lowers E at every iteration; in w alone any step below 2/q "
    "does (the curvature is at most q, as 0 < rho <= 1); the recorded final E is E at the "
    "fitted parameters, and a converged run ends at a stationary point (central "
    "differences of E in w and beta).",
    method=Method.PROPERTY,
    tags=("neural", "rbf", "descent", "slow"),
)
@given(seed=st.integers(0, 2**32 - 1), q=st.integers(1, 5))
def gradient_descent(seed, q):
    rng = np.random.default_rng(seed)
    X = rng.uniform(-2, 2, size=(25, 1))
    y = np.cos(2 * X[:, 0])
    for fit_widths in (False, True):
        net = RBFNetwork(n_centres=q, centres="random", solver="gd", learning_rate=1.0 / q,
                         fit_widths=fit_widths, max_iter=1000, tol=1e-12, random_state=seed)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ConvergenceWarning)
            net.fit(X, y)
        # in w alone the step 1/q is below 2 / (largest curvature): it never overshoots
        check_descent_run(net, X, y, overshoot_allowed=fit_widths)  # (= widths descended)


def check_descent_run(net, X, y, *, overshoot_allowed: bool) -> None:
    if not overshoot_allowed:
        assert net.stop_reason_ != "increase", "a step below 2/q in w raised E"
    curve = net.loss_curve_
    rise = float(np.max(np.diff(curve))) if curve.size > 1 else 0.0
    evidence.worst("largest rise of E between iterations", rise)
    assert rise <= 1e-15 * max(1.0, float(curve.max())), f"E rose by {rise:.3g}"
    recomputed = 0.5 * float(np.mean((independent_rbf_output(X, net.centres_, net.betas_,
                                                             net.weights_) - y) ** 2))
    assert_close(curve[-1], recomputed, LINEAR_ALGEBRA, label="|recorded E - E at the fit|")
    # a width pushed to its floor (beta -> 0: the unit is flat, rho ~ 1 on the data) is a
    # boundary point of beta > 0, where the gradient in beta need not vanish
    reach = float(np.max(((X[:, None, :] - net.centres_[None]) ** 2).sum(-1)))
    at_floor = overshoot_allowed and bool(np.any(net.betas_ * reach < 1e-6))
    if net.converged_ and not at_floor:
        def objective(theta):
            q = net.weights_.size
            return 0.5 * float(np.mean((independent_rbf_output(
                X, net.centres_, theta[q:], theta[:q]) - y) ** 2))
        theta = np.concatenate([net.weights_, net.betas_])
        h = 1e-6
        free = theta.size if overshoot_allowed else net.weights_.size  # w, or w and beta
        grad = np.array([(objective(theta + h * e) - objective(theta - h * e)) / (2 * h)
                         for e in np.eye(theta.size)[:free]])
        evidence.worst("||grad E|| at a converged fit", float(np.linalg.norm(grad)))
        assert np.linalg.norm(grad) < 1e-3, f"converged, yet ||grad E|| = {np.linalg.norm(grad)}"
