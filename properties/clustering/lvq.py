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


def check_lvq_run(est: LVQ, X: np.ndarray, y: np.ndarray, eta: float) -> None:
    """Replay the recorded updates on the initial prototypes: each recorded winner is the
    nearest prototype (line 5), its recorded state before the update is the replayed one,
    the update moves it along x_j - p by +-eta (lines 7/9), so ||p' - x_j|| = (1 -+ eta)
    ||p - x_j||, and an attracting update keeps x_j nearest to p'."""
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


@claim(
    id="lvq.update_geometry",
    source="003 §7.4.2 Fig 9.4",
    statement="Each LVQ iteration moves only the prototype nearest to the drawn sample "
    "x_j: towards it when the labels agree, p' = p + eta (x_j - p), so ||p' - x_j|| = "
    "(1 - eta) ||p - x_j|| and x_j stays nearest to p'; away from it otherwise, "
    "p' = p - eta (x_j - p), so ||p' - x_j|| = (1 + eta) ||p - x_j||.",
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
    check_lvq_run(est, X, y, eta)
    evidence.worst("repelling updates (of 60)", float(np.sum(~est.agreements_)))
    assert np.array_equal(est.predict(X), est.prototype_labels_[est.labels_])
