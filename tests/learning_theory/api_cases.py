"""Bad-input cases of the learning-theory family's public API (see ``tests/api_fuzz.py``)."""

from __future__ import annotations

import numpy as np

from algorithms.learning_theory import Intervals, Thresholds
from tests.api_fuzz import Case

#: Sizes of the valid calls: small, so that enumerations (2^m labellings) stay fast.
N_POINTS, M = 5, 6


def _scalars(**kwargs: object):
    """A valid call with fixed keyword arguments (the generator is not needed)."""
    return lambda rng: ((), dict(kwargs))


def _table(rng: np.random.Generator) -> np.ndarray:
    return np.where(rng.random((4, N_POINTS)) < 0.5, -1, 1)


def _samples(rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    return rng.integers(0, N_POINTS, size=(3, M)), np.where(rng.random((3, M)) < 0.5, -1, 1)


def _finite_call(rng: np.random.Generator) -> tuple[tuple, dict]:
    x_idx, y = _samples(rng)
    return (_table(rng), x_idx, y), {}


def _ridge(rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    X = rng.normal(size=(M, 3))
    X /= np.maximum(1.0, np.linalg.norm(X, axis=1, keepdims=True))
    return X, np.clip(X @ np.array([0.5, -0.3, 0.2]) + 0.1 * rng.normal(size=M), -1, 1)


def _ridge_stability(rng: np.random.Generator) -> tuple[tuple, dict]:
    X, y = _ridge(rng)
    return (X, y, 0.1, X[:2] * 0.5, -y[:2]), dict(radius=1.0, y_bound=1.0)


#: Every [0,1]-valued or sign matrix is a valid ``values`` argument of any shape (a 3-d
#: array is refused); a point set of any magnitude is valid for the exact geometric
#: routines (exact rationals), so their scaled variants must simply finish finite.
_LABELS = dict(H=[np.array([[1, 0, -1]]), np.array([[2, -1, 1]])],
               y=[np.zeros((3, M), dtype=int)])

#: A 1-d point array is documented as points on the line (one coordinate each), and a
#: 1-d ``values`` as the values of one function: ravelled input is valid there. An empty
#: point set is valid for the enumerations (one labelling, the empty one; it is shattered).
_LINE = frozenset({"X-ravel"})
_EMPTY = frozenset({"X-empty"})

CASES: dict[str, Case] = {
    # bounds
    "hoeffding_tail": Case(call=_scalars(m=10, epsilon=0.1), invalid={"epsilon": [0.0, -1.0],
                           "two_sided": ["yes", 1]}),
    "mcdiarmid_tail": Case(call=lambda rng: ((rng.random(5) + 0.1, 0.2), {}),
                           invalid={"c": [np.zeros(3), -np.ones(3)], "epsilon": [0.0]}),
    "pac_sample_size": Case(call=_scalars(n_hypotheses=10, epsilon=0.1, delta=0.05),
                            invalid={"epsilon": [0.0, 1.0], "delta": [0.0, 1.5]}),
    "pac_error_bound": Case(call=_scalars(n_hypotheses=10, m=50, delta=0.05),
                            invalid={"delta": [0.0, 1.0], "m": [0]}),
    "hoeffding_deviation": Case(call=_scalars(m=50, delta=0.05), invalid={"delta": [1.0]}),
    "finite_class_deviation": Case(call=_scalars(n_hypotheses=10, m=50, delta=0.05),
                                   invalid={"n_hypotheses": [0], "delta": [-0.1]}),
    "sauer_bound": Case(call=_scalars(m=20, d=3), invalid={"d": [-2]}),
    "growth_polynomial_bound": Case(call=_scalars(m=20, d=3), invalid={"m": [2], "d": [0]}),
    "vc_tail_bound": Case(call=_scalars(growth_2m=41, m=20, epsilon=0.3),
                          invalid={"growth_2m": [0], "epsilon": [0.0]}),
    "vc_generalisation_bound": Case(call=_scalars(m=50, d=3, delta=0.05),
                                    invalid={"m": [3], "delta": [1.0]}),
    "rademacher_bound_real": Case(call=_scalars(rademacher=0.2, m=50, delta=0.05),
                                  invalid={"rademacher": [1.5, -0.1], "empirical": ["yes"]}),
    "rademacher_bound_binary": Case(call=_scalars(rademacher=0.2, m=50, delta=0.05),
                                    invalid={"rademacher": [1.5], "empirical": [None]}),
    "massart_bound": Case(call=_scalars(n_behaviours=7, m=6), invalid={"n_behaviours": [0]}),
    "rademacher_vc_bound": Case(call=_scalars(m=50, d=3, delta=0.05),
                                invalid={"m": [2], "delta": [0.0]}),
    "stability_bound": Case(call=_scalars(beta=0.01, m=50, loss_bound=1.0, delta=0.05),
                            invalid={"beta": [-0.1], "loss_bound": [0.0],
                                     "leave_one_out": ["no"]}),
    # growth, shattering, VC dimension
    "all_labellings": Case(call=_scalars(m=4), invalid={"m": [17]}),
    "distinct_line_points": Case(call=_scalars(m=4), invalid={"m": [0]}),
    "exact_points": Case(call=lambda rng: ((rng.normal(size=(4, 2)),), {}),
                         accept=_LINE | _EMPTY),
    "radon_partition": Case(call=lambda rng: ((rng.normal(size=(4, 2)),), {}),
                            invalid={"X": [np.zeros((2, 2))]}, accept=_LINE),
    "radon_labelling": Case(call=lambda rng: ((rng.normal(size=(5, 3)),), {}), accept=_LINE),
    "dichotomies": Case(call=lambda rng: ((Intervals(), rng.normal(size=4)), {}),
                        invalid={"cls": [None, "thresholds"], "X": [np.zeros((17, 1))]},
                        accept=_EMPTY),
    "is_shattered": Case(call=lambda rng: ((Thresholds(), rng.normal(size=(2, 1))), {}),
                         invalid={"cls": [3]}, accept=_LINE | _EMPTY),
    "growth_function": Case(call=lambda rng: ((Intervals(), [rng.normal(size=3)
                                                             for _ in range(2)]), {}),
                            invalid={"point_sets": [None, [], [np.zeros(2), np.zeros(3)]],
                                     "cls": [object()]}),
    "vc_dimension": Case(call=lambda rng: ((Intervals(), {m: [rng.normal(size=m)]
                                                          for m in (1, 2, 3)}), {}),
                         invalid={"candidates": [None, {1: None}, {0: [np.zeros(1)]}],
                                  "max_m": [0, "2"]}),
    "Thresholds": Case(call=_scalars(), invalid={"dim": [2, "1"]}),
    "Intervals": Case(call=_scalars(), invalid={"dim": [0]}),
    "Rectangles": Case(call=_scalars(dim=2), invalid={"dim": [0, 2.5, "2", 10**6]}),
    "HalfSpaces": Case(call=_scalars(dim=2), invalid={"dim": [-1, None, 10**6]}),
    "FiniteClass": Case(call=lambda rng: ((_table(rng),), {}),
                        invalid={"table": [np.array([[1, 0]]), np.array([1, -1]),
                                           np.array([[True, False]])]}),
    "RadonPartition": Case(skip="a result dataclass returned by radon_partition"),
    # Rademacher complexity
    "empirical_rademacher": Case(call=lambda rng: ((rng.random((3, M)),), {}),
                                 invalid={"values": [np.zeros((2, 17))]},
                                 accept=frozenset({"values-ravel"})),
    "empirical_rademacher_mc": Case(
        call=lambda rng: ((rng.random((3, M)), 200, np.random.default_rng(1)), {}),
        invalid={"n_draws": [0, 10**15], "rng": [None, 3], "confidence": [0.0, 1.0]},
        accept=frozenset({"values-ravel"})),
    "threshold_rademacher": Case(call=_scalars(m=20), invalid={"m": [0, 10**7]}),
    # finite-domain learning
    "FiniteProblem": Case(call=lambda rng: ((np.full(N_POINTS, 1 / N_POINTS),
                                             rng.random(N_POINTS)), {}),
                          invalid={"p": [np.array([0.5, 0.6, -0.1, 0.0, 0.0])],
                                   "eta": [np.full(N_POINTS, 1.5)]},
                          scale_free=frozenset({"eta"}),
                          accept=frozenset({"eta-x1e300"})),
    "empirical_errors": Case(call=_finite_call, invalid=_LABELS),
    "version_space": Case(call=_finite_call, invalid=_LABELS),
    "erm": Case(call=_finite_call, invalid=_LABELS),
    "label_counts": Case(call=lambda rng: ((*_samples(rng), N_POINTS), {}),
                         invalid={"x_idx": [np.full((3, M), N_POINTS), np.full((3, M), 1.0)],
                                  "n_points": [0, None]}),
    # stability
    "ridge_fit": Case(call=lambda rng: ((*_ridge(rng), 0.1), {}),
                      invalid={"alpha": [0.0, -1.0]}),
    "ridge_losses": Case(call=lambda rng: ((*_ridge(rng), 0.1), {}),
                         invalid={"X": [np.zeros((1, 3))], "alpha": [0.0]}),
    "ridge_stability": Case(call=_ridge_stability,
                            invalid={"X_new": [np.full((2, 3), 5.0)], "radius": [0.0],
                                     "y_new": [np.array([3.0, 0.0])]}),
    "ridge_stability_bounds": Case(call=_scalars(m=50, alpha=0.1, radius=1.0, y_bound=1.0),
                                   invalid={"alpha": [0.0], "y_bound": [-1.0]}),
    "max_loss_difference": Case(call=lambda rng: ((rng.normal(size=(2, 3)),
                                                   rng.normal(size=(2, 3)), 1.0, 1.0), {}),
                                invalid={"W2": [np.zeros((3, 3))], "radius": [0.0]}),
    "RidgeStability": Case(call=lambda rng: ((0.1, 0.2, rng.random(4), rng.random(4)), {}),
                           invalid={"replace": [-1.0, None]}),
}
