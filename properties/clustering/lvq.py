"""Learning vector quantisation of 003 §7.4.2 (Fig 9.4), through the run its loop
recorded: the winner of every iteration, the prototype before and after its update."""

from __future__ import annotations

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from algorithms.clustering import LVQ
from mltheory import Method, claim, evidence
from mltheory.numeric import LINEAR_ALGEBRA, assert_close
from properties.clustering.strategies import point_sets
from properties.clustering.support import silenced


def check_lvq_run(est: LVQ, X: np.ndarray, y: np.ndarray, eta: float, *,
                  tol: float | None = None, max_iter: int | None = None) -> None:
    """Replay the recorded updates on the initial prototypes: each recorded winner is the
    nearest prototype (line 5), its recorded state before the update is the replayed one,
    the update moves it along x_j - p by +-eta (lines 7/9), so ||p' - x_j|| = (1 -+ eta)
    ||p - x_j||, and an attracting update keeps x_j nearest to p'. With ``max_iter``,
    also the stop condition (:func:`check_lvq_stop`)."""
    P = est.initial_prototypes_.copy()
    labels = est.prototype_labels_
    scale = max(1.0, float(np.max(np.abs(X))))
    for t, (j, i) in enumerate(zip(est.samples_, est.winners_, strict=True)):
        x = X[j]
        d = np.linalg.norm(P - x, axis=1)
        assert d[i] <= d.min() + 1e-12 * scale, f"iteration {t}: winner {i} is not nearest"
        assert_close(est.before_[t], P[i], LINEAR_ALGEBRA, scale=scale,
                     label="|recorded p_i* - replayed| / scale")
        agree = y[j] == labels[i]
        assert bool(est.agreements_[t]) == bool(agree)
        factor = 1.0 - eta if agree else 1.0 + eta
        after = est.after_[t]
        assert_close(np.linalg.norm(after - x), factor * d[i], LINEAR_ALGEBRA, scale=scale,
                     label="| ||p' - x|| - (1 -+ eta) ||p - x|| | / scale")
        assert_close(after - P[i], (eta if agree else -eta) * (x - P[i]), LINEAR_ALGEBRA,
                     scale=scale, label="|p' - p -+ eta (x - p)| / scale")
        P[i] = after
        if agree:  # (1 - eta) d_i <= d_i <= d_l: p' is (one of) the nearest to x_j
            gap = float(np.linalg.norm(after - x) - np.min(np.linalg.norm(P - x, axis=1)))
            assert gap <= 1e-12 * scale, (
                f"iteration {t}: x_j is no longer nearest to the attracted prototype")
    assert_close(P, est.prototypes_, LINEAR_ALGEBRA, scale=scale,
                 label="|replayed final prototypes - fitted| / scale")
    if max_iter is not None:
        check_lvq_stop(est, X.shape[0], tol, max_iter)


def check_lvq_stop(est: LVQ, m: int, tol: float | None, max_iter: int) -> None:
    """Line 12's stop condition, from the recorded moves ``||p' - p||``: without ``tol``
    the loop runs ``max_iter`` iterations; with it, it stops (``converged_``) at the first
    iteration ``t >= m`` whose last ``m`` moves sum below ``tol``, else after
    ``max_iter`` iterations, not converged."""
    n = est.n_iter_
    assert est.samples_.shape[0] == n, f"{est.samples_.shape[0]} recorded iterations, n_iter_ {n}"
    if tol is None:
        assert n == max_iter and not est.converged_, (
            f"no tol: {n} of max_iter={max_iter} iterations, converged_={est.converged_}")
        return
    moves = np.linalg.norm(est.after_ - est.before_, axis=1)
    # the recorded p' - p rounds at the size of p: allow that much per move
    size = float(np.max(np.abs(est.before_), initial=0.0) + np.max(np.abs(est.after_),
                                                                   initial=0.0))
    slack = 1e-12 * m * (size + float(np.max(moves, initial=0.0)))
    windows = np.convolve(moves, np.ones(m), "valid")  # windows[s]: iterations s+1..s+m
    below = np.flatnonzero(windows < tol + slack)
    surely = np.flatnonzero(windows < tol - slack)
    if n < max_iter or est.converged_:
        assert est.converged_, f"stopped after {n} of {max_iter} iterations, not converged"
        assert n >= m and windows[n - m] < tol + slack, (
            f"stopped after {n} iterations: the last {m} moves sum to {windows[n - m]!r} "
            f">= tol {tol!r}")
        assert surely.shape[0] == 0 or surely[0] >= n - m, (
            f"the moves of iterations {surely[0] + 1}..{surely[0] + m} sum below tol, yet "
            f"the loop ran until {n}")
    else:
        assert below.shape[0] == 0, (
            f"not converged after {n} iterations, but the moves of iterations "
            f"{below[0] + 1}..{below[0] + m} sum below tol {tol!r}")


@claim(
    id="lvq.update_geometry",
    source="003 §7.4.2 Fig 9.4",
    statement="Each LVQ iteration moves only the prototype nearest to the drawn sample "
    "x_j: towards it when the labels agree, p' = p + eta (x_j - p), so ||p' - x_j|| = "
    "(1 - eta) ||p - x_j|| and x_j stays nearest to p'; away from it otherwise, "
    "p' = p - eta (x_j - p), so ||p' - x_j|| = (1 + eta) ||p - x_j||. The loop ends by "
    "its stop condition (line 12): after max_iter iterations, or with tol at the first "
    "iteration whose last m moves ||p' - p|| sum below tol, reported as converged.",
    method=Method.PROPERTY,
    tags=("clustering", "lvq"),
)
@given(X=point_sets(min_size=4, max_size=25), eta=st.sampled_from([0.01, 0.1, 0.5, 0.99]),
       q_per_class=st.integers(1, 3), seed=st.integers(0, 2**32 - 1))
def update_geometry(X, eta, q_per_class, seed):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 3, size=X.shape[0])
    y[:2] = [0, 1]
    classes = np.unique(y)
    t = np.repeat(classes, q_per_class)
    est = LVQ(t, learning_rate=eta, max_iter=60, keep_history=True, random_state=seed).fit(X, y)
    check_lvq_run(est, X, y, eta, max_iter=60)
    # the same draws with a stop condition on the moves: tol between the smallest and the
    # largest sum of m consecutive moves of that run, so the loop stops early
    moves = np.linalg.norm(est.after_ - est.before_, axis=1)
    windows = np.convolve(moves, np.ones(X.shape[0]), "valid")
    tol = float(np.median(windows))
    if tol > 0:
        stopped = silenced(LVQ(t, learning_rate=eta, max_iter=60, tol=tol, keep_history=True,
                               random_state=seed).fit, X, y)
        check_lvq_run(stopped, X, y, eta, tol=tol, max_iter=60)
        evidence.worst("iterations to the tol stop (of 60)", stopped.n_iter_)
    evidence.worst("repelling updates (of 60)", float(np.sum(~est.agreements_)))
    assert np.array_equal(est.predict(X), est.prototype_labels_[est.labels_])
