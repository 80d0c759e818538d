"""The linear-chain conditional random field of 003 §12.3 (12.9): scores from transition
and state features, Z(x) by the forward recursion, log P(y | x).

Features are given evaluated on the observed sequence x, as tensors over label values:

* ``transition_features[j, i, a, b] = t_j(y_{i+1} = b, y_i = a, x, i)`` for the n - 1
  adjacent pairs i = 1..n-1 (0-based ``i`` = 0..n-2 here);
* ``state_features[k, i, a] = s_k(y_i = a, x, i)`` for the n positions.

:func:`crf_features` builds them from Python feature functions.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np
from scipy.special import logsumexp

from algorithms._validation import (
    InvalidArgumentError,
    check_array_argument,
    check_index_array,
    check_int,
)

__all__ = [
    "crf_features",
    "crf_log_partition",
    "crf_log_probability",
    "crf_scores",
]

#: The largest feature tensor :func:`crf_features` evaluates.
MAX_FEATURE_ENTRIES = 10**7


def crf_scores(transition_features: object, state_features: object,
               transition_weights: object, state_weights: object
               ) -> tuple[np.ndarray, np.ndarray]:
    """The log-potentials of the chain: edge scores sum_j lambda_j t_j and node scores
    sum_k mu_k s_k.

    Parameters
    ----------
    transition_features : array of shape (J, n - 1, L, L)
    state_features : array of shape (K, n, L)
    transition_weights : array of shape (J,)
        lambda_j, one weight per transition feature (shared by all positions).
    state_weights : array of shape (K,)
        mu_k, one weight per state feature.

    Returns
    -------
    edge : ndarray of shape (n - 1, L, L)
        ``edge[i, a, b] = sum_j lambda_j t_j(y_{i+1}=b, y_i=a, x, i)``.
    node : ndarray of shape (n, L)
        ``node[i, a] = sum_k mu_k s_k(y_i=a, x, i)``.
    """
    S = check_array_argument(state_features, "state_features", ndim=3, real=True)
    _, n, L = S.shape
    T = check_array_argument(transition_features, "transition_features",
                             shape=(None, n - 1, L, L), real=True, allow_empty=True)
    lam = check_array_argument(transition_weights, "transition_weights", ndim=1, real=True,
                               allow_empty=True)
    if lam.shape[0] != T.shape[0]:
        raise ValueError(f"transition_weights must hold one weight per transition feature: "
                         f"transition_features has {T.shape[0]}, got {lam.shape[0]} weights.")
    mu = check_array_argument(state_weights, "state_weights", shape=(S.shape[0],), real=True)
    with np.errstate(over="ignore", invalid="ignore"):
        edge = np.tensordot(lam, T, axes=1) if T.shape[0] else np.zeros((n - 1, L, L))
        node = np.tensordot(mu, S, axes=1)
    if not (np.all(np.isfinite(edge)) and np.all(np.isfinite(node))):
        raise ValueError("transition_weights/state_weights times the features overflow: "
                         "the scores are not finite.")
    return edge, node


def crf_log_partition(transition_features: object, state_features: object,
                      transition_weights: object, state_weights: object) -> float:
    """log Z(x) = log sum_y exp(score(y)) by the forward recursion over label positions.

    Notes
    -----
    log alpha_1(a) = node_1(a); log alpha_{i+1}(b) = node_{i+1}(b) + logsumexp_a
    (log alpha_i(a) + edge_i(a, b)); log Z(x) = logsumexp_a log alpha_n(a): L^2 (n - 1)
    work instead of the L^n terms of the sum in (12.9).
    """
    edge, node = crf_scores(transition_features, state_features, transition_weights,
                            state_weights)
    log_alpha = node[0]
    for i in range(edge.shape[0]):  # a log-sum-exp over the previous label, inlined
        s = log_alpha[:, None] + edge[i]
        top = s.max(axis=0)
        log_alpha = node[i + 1] + top + np.log(np.exp(s - top).sum(axis=0))
    return float(logsumexp(log_alpha))


def crf_log_probability(labels: object, transition_features: object, state_features: object,
                        transition_weights: object, state_weights: object
                        ) -> np.ndarray | float:
    """log P(y | x) of (12.9) with lambda_j per transition feature: score(y) - log Z(x).

    ``labels`` is one label sequence (n,) or a batch (m, n) of codes 0..L-1.
    """
    edge, node = crf_scores(transition_features, state_features, transition_weights,
                            state_weights)
    n, L = node.shape
    Y = check_index_array(labels, "labels", L, ndims=(1, 2))
    single = Y.ndim == 1
    Y = Y[None, :] if single else Y
    if Y.shape[1] != n:
        raise ValueError(f"labels must have length n = {n}, got {Y.shape[1]}.")
    pos = np.arange(n)
    score = node[pos, Y].sum(axis=1) + edge[pos[:-1], Y[:, :-1], Y[:, 1:]].sum(axis=1)
    log_z = crf_log_partition(transition_features, state_features, transition_weights,
                              state_weights)
    out = score - log_z
    return float(out[0]) if single else out


def crf_features(x: object, transition_functions: Sequence[Callable],
                 state_functions: Sequence[Callable], n_labels: int
                 ) -> tuple[np.ndarray, np.ndarray]:
    """Evaluate feature functions on an observed sequence into the tensors above.

    Parameters
    ----------
    x : array of shape (n,) or (n, d)
        The observation sequence.
    transition_functions : sequence of callables ``t(y_next, y, x, i) -> float``
    state_functions : sequence of callables ``s(y, x, i) -> float``
        (i is 0-based here.)
    n_labels : int
        L, labels coded 0..L-1.
    """
    X = check_array_argument(x, "x", real=True)
    if X.ndim not in (1, 2):
        raise ValueError(f"x must be a 1-d or 2-d array, got shape {X.shape}.")
    L = check_int(n_labels, "n_labels", low=1)
    for name, fs in (("transition_functions", transition_functions),
                     ("state_functions", state_functions)):
        if not isinstance(fs, Sequence) or not all(callable(f) for f in fs):
            raise InvalidArgumentError(f"{name} must be a sequence of callables.")
    n = X.shape[0]
    if (len(transition_functions) * (n - 1) * L * L + len(state_functions) * n * L
            > MAX_FEATURE_ENTRIES):
        raise ValueError(f"n_labels: the feature tensors would exceed "
                         f"{MAX_FEATURE_ENTRIES} entries.")
    T = np.array([[[[float(t(b, a, X, i)) for b in range(L)] for a in range(L)]
                   for i in range(n - 1)] for t in transition_functions]
                 ).reshape(len(transition_functions), n - 1, L, L)
    S = np.array([[[float(s(a, X, i)) for a in range(L)] for i in range(n)]
                  for s in state_functions]).reshape(len(state_functions), n, L)
    if not (np.all(np.isfinite(T)) and np.all(np.isfinite(S))):
        raise ValueError("transition_functions/state_functions returned non-finite values.")
    return T, S
