"""Neighbourhood component analysis (003 §8.6 (8.27)-(8.30)).

With the projection ``P`` (d x d') and ``M = P P^T``, sample ``x_i`` picks another sample
``x_j`` as its neighbour with probability

    p_ij = exp(-||P^T x_i - P^T x_j||^2) / sum_{l != i} exp(-||P^T x_i - P^T x_l||^2),
    p_ii = 0,

(8.27) with the sample itself left out of the normaliser, which is what makes
``p_i = sum_{j in Omega_i} p_ij`` (8.28) its leave-one-out probability of being classified
correctly. NCA maximises ``sum_i p_i`` (8.29), i.e. minimises (8.30), over ``P`` by L-BFGS
(scipy.optimize) with the analytic gradient

    d/dP sum_i p_i = 2 X^T (diag(W 1 + W^T 1) - W - W^T) X P,
    W_ij = p_ij (p_i - [y_j = y_i])      (Goldberger et al. 2005, written in P).

The probabilities are computed in log space (log-sum-exp), so far-apart samples give
probabilities 0 or 1, never NaN.
"""

from __future__ import annotations

import warnings

import numpy as np
from scipy import optimize
from sklearn.base import BaseEstimator, TransformerMixin
from sklearn.exceptions import ConvergenceWarning

from algorithms._validation import (
    check_array_argument,
    check_int,
    check_real,
    check_squares_representable,
    make_rng,
    validate_classification,
    validate_features,
)

__all__ = ["NeighbourhoodComponentsAnalysis", "nca_gradient", "nca_probabilities"]

#: fit forms m x m matrices; beyond this many samples it refuses (memory ~ 8 m^2 bytes x 4).
_MAX_SAMPLES = 20_000
_INITS = ("pca", "identity", "random")


def _log_probabilities(Z: np.ndarray) -> np.ndarray:
    """log p_ij (m, m) of projected samples Z (m, d'), with p_ii = 0 (log = -inf)."""
    sq = np.sum(Z * Z, axis=1)
    D2 = np.maximum(sq[:, None] + sq[None, :] - 2.0 * Z @ Z.T, 0.0)
    np.fill_diagonal(D2, np.inf)
    # log-sum-exp by hand (every row has a finite entry: m >= 2): shift by the row maximum
    shifted = np.min(D2, axis=1, keepdims=True) - D2  # logits minus their maximum, <= 0
    return shifted - np.log(np.sum(np.exp(shifted), axis=1, keepdims=True))


def _check_projection(P: object, d: int) -> np.ndarray:
    P = check_array_argument(P, "P", ndim=2, real=True)
    if P.shape[0] != d:
        raise ValueError(f"P must have d = {d} rows (x -> P^T x), got shape {P.shape}.")
    return P


def _labelled(X: object, y: object) -> tuple[np.ndarray, np.ndarray]:
    est = NeighbourhoodComponentsAnalysis()
    X, codes = validate_classification(est, X, y, min_classes=1)
    if X.shape[0] < 2:
        raise ValueError(f"X must have at least 2 samples (p_ij needs j != i), got "
                         f"n_samples = {X.shape[0]}.")
    return X, codes


def nca_probabilities(X: object, y: object, P: object) -> tuple[np.ndarray, np.ndarray]:
    """Stochastic-neighbour probabilities of NCA (003 §8.6 (8.27)-(8.28)).

    Parameters
    ----------
    X : array-like (m, d)
    y : array-like (m,)
        Class labels (``Omega_i`` = the other samples of ``x_i``'s class).
    P : array-like (d, d')
        Projection, ``M = P P^T``.

    Returns
    -------
    p : ndarray (m, m)
        ``p_ij`` with ``p_ii = 0`` and rows summing to 1.
    p_i : ndarray (m,)
        ``sum_{j in Omega_i} p_ij``, the leave-one-out probability of a correct label.
    """
    X, codes = _labelled(X, y)
    P = _check_projection(P, X.shape[1])
    Z = X @ P
    if not np.all(np.isfinite(Z)):
        raise ValueError("X @ P overflows float64; rescale X or P.")
    check_squares_representable(Z, "X @ P")
    p = np.exp(_log_probabilities(Z))
    same = codes[:, None] == codes[None, :]
    return p, np.sum(p * same, axis=1)


def _objective_and_gradient(P: np.ndarray, X: np.ndarray, same: np.ndarray
                            ) -> tuple[float, np.ndarray]:
    """(sum_i p_i, its gradient in P)."""
    p = np.exp(_log_probabilities(X @ P))
    p_same = p * same
    p_i = p_same.sum(axis=1)
    W = p * p_i[:, None] - p_same
    S = W + W.T
    # sum_ij W_ij (x_i - x_j)(x_i - x_j)^T = X^T L X with L = diag(S 1) - S (a Laplacian)
    Z = X @ P
    grad = 2.0 * X.T @ (S.sum(axis=1)[:, None] * Z - S @ Z)
    return float(p_i.sum()), grad


def nca_gradient(X: object, y: object, P: object) -> tuple[float, np.ndarray]:
    """``sum_i p_i`` (8.29) and its analytic gradient with respect to ``P`` (d, d').

    The NCA objective (8.30) is ``1 - sum_i p_i``: its gradient is the negative of this one.
    """
    X, codes = _labelled(X, y)
    P = _check_projection(P, X.shape[1])
    check_squares_representable(X @ P, "X @ P")
    return _objective_and_gradient(P, X, codes[:, None] == codes[None, :])


class NeighbourhoodComponentsAnalysis(TransformerMixin, BaseEstimator):
    """Neighbourhood component analysis (003 §8.6 (8.27)-(8.30)).

    Parameters
    ----------
    n_components : int or None, default None
        ``d'``, the columns of ``P`` (``None``: ``d``); ``1 <= d' <= d``.
    init : {"pca", "identity", "random"} or array (d, d'), default "pca"
        Starting ``P``: the leading principal directions, the first ``d'`` columns of the
        identity, a standard-normal draw scaled by ``1/sqrt(d)``, or a given matrix.
    max_iter : int, default 100
        L-BFGS iterations.
    tol : float, default 1e-5
        L-BFGS stopping tolerance on the relative objective change and the projected
        gradient (scipy's ``ftol``/``gtol``).
    random_state : None, int or Generator
        For ``init="random"``.

    Attributes
    ----------
    projection_ : ndarray (d, d')
        ``P``; samples map to ``x P`` (rows), i.e. ``P^T x``.
    components_ : ndarray (d', d)
        ``P^T`` (scikit-learn's convention).
    metric_ : ndarray (d, d)
        ``M = P P^T``.
    objective_history_ : list of float
        ``1 - sum_i p_i`` (8.30) at the start and after every L-BFGS iteration, as
        evaluated by the optimiser.
    n_iter_ : int
    converged_ : bool
    classes_ : ndarray
    n_features_in_ : int
    """

    def __init__(self, n_components: int | None = None, *, init: object = "pca",
                 max_iter: int = 100, tol: float = 1e-5, random_state: object = None):
        self.n_components = n_components
        self.init = init
        self.max_iter = max_iter
        self.tol = tol
        self.random_state = random_state

    def _initial(self, X: np.ndarray, n_components: int) -> np.ndarray:
        d = X.shape[1]
        if isinstance(self.init, str):
            if self.init not in _INITS:
                raise ValueError(f"init must be one of {_INITS} or a (d, d') array, got "
                                 f"{self.init!r}.")
            if self.init == "identity":
                return np.eye(d)[:, :n_components]
            if self.init == "random":
                rng = make_rng(self.random_state)
                return rng.standard_normal((d, n_components)) / np.sqrt(d)
            Xc = X - X.mean(axis=0)
            _, _, Vt = np.linalg.svd(Xc, full_matrices=False)
            P = np.zeros((d, n_components))
            r = min(n_components, Vt.shape[0])
            P[:, :r] = Vt[:r].T
            return P
        P = check_array_argument(self.init, "init", shape=(d, n_components), real=True)
        return P.astype(np.float64, copy=True)

    def fit(self, X, y):
        """Maximise ``sum_i p_i`` over ``P`` from the chosen start."""
        X, codes = validate_classification(self, X, y, min_classes=1)
        m, d = X.shape
        if m < 2:
            raise ValueError(f"n_samples = {m}: NCA needs at least 2 samples (p_ij, j != i).")
        if m > _MAX_SAMPLES:
            raise ValueError(f"X has {m} samples; NCA forms m x m matrices and is capped at "
                             f"{_MAX_SAMPLES}.")
        check_squares_representable(X, "X")
        n_components = d if self.n_components is None else check_int(
            self.n_components, "n_components", low=1)
        if n_components > d:
            raise ValueError(f"n_components must be at most n_features = {d}; X has {d} "
                             f"feature(s), got {n_components}.")
        max_iter = check_int(self.max_iter, "max_iter", low=1)
        tol = check_real(self.tol, "tol", low=0.0)
        P0 = self._initial(X, n_components)
        same = codes[:, None] == codes[None, :]
        shape = P0.shape

        def fun(flat):
            value, grad = _objective_and_gradient(flat.reshape(shape), X, same)
            return -value, -grad.ravel()

        history = [1.0 - _objective_and_gradient(P0, X, same)[0]]

        def record(intermediate_result):
            history.append(1.0 + float(intermediate_result.fun))

        res = optimize.minimize(fun, P0.ravel(), jac=True, method="L-BFGS-B",
                                callback=record,
                                options={"maxiter": max_iter, "ftol": tol, "gtol": tol})
        self.n_iter_ = int(res.nit)
        self.converged_ = bool(res.success)
        if not self.converged_:
            warnings.warn(f"NCA's L-BFGS stopped after {self.n_iter_} iterations without "
                          f"converging ({res.message}); increase max_iter.",
                          ConvergenceWarning, stacklevel=2)
        P = res.x.reshape(shape)
        self.projection_ = P
        self.components_ = P.T.copy()
        self.metric_ = P @ P.T
        self.objective_history_ = history
        return self

    def transform(self, X):
        """``x -> P^T x`` for every row: ``X P`` (n, d')."""
        X = validate_features(self, X, reset=False)
        return X @ self.projection_
