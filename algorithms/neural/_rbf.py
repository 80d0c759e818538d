"""The radial-basis-function network of 003 §3.5.1 (3.14).

A single hidden layer of ``q`` Gaussian units and a linear output::

    phi(x) = sum_i w_i rho(x, c_i),      rho(x, c_i) = exp(-beta_i ||x - c_i||^2)

trained in two stages: the centres ``c_i`` by random sampling of the training inputs or
by k-means clustering, then the output weights ``w_i`` and widths ``beta_i`` by gradient
descent on ``E = 1/(2m) sum_k (phi(x_k) - y_k)^2``, or the weights alone by linear least
squares for fixed centres and widths.
"""

from __future__ import annotations

import warnings

import numpy as np
from numpy.typing import ArrayLike
from scipy.linalg import lstsq
from sklearn.base import BaseEstimator, RegressorMixin
from sklearn.exceptions import ConvergenceWarning

from algorithms._validation import (
    check_array_argument,
    check_bool,
    check_choice,
    check_int,
    check_real,
    check_squares_representable,
    make_rng,
    validate_features,
    validate_regression,
)
from algorithms.clustering import KMeans

__all__ = ["RBF_CENTRES", "RBF_SOLVERS", "RBFNetwork", "rbf_design"]

RBF_CENTRES = ("kmeans", "random")
RBF_SOLVERS = ("lstsq", "gd")

#: Largest number of centres accepted (the design matrix is m x q).
MAX_CENTRES = 10**6

#: Largest number of gradient-descent iterations accepted.
MAX_ITER = 10**7


def _squared_distances(X: np.ndarray, C: np.ndarray) -> np.ndarray:
    """||x - c||^2 for every pair, by differences (no cancellation for nearby points)."""
    diff = X[:, None, :] - C[None, :, :]
    return np.einsum("mqd,mqd->mq", diff, diff)


def rbf_design(X: ArrayLike, centres: ArrayLike, betas: ArrayLike) -> np.ndarray:
    """The hidden-layer outputs ``rho(x_k, c_i) = exp(-beta_i ||x_k - c_i||^2)`` (3.14).

    Parameters
    ----------
    X : array-like of shape (m, d)
    centres : array-like of shape (q, d)
    betas : array-like of shape (q,), positive

    Returns
    -------
    ndarray of shape (m, q)
    """
    X = check_array_argument(X, "X", ndim=2, real=True)
    check_squares_representable(X, "X")
    C = check_array_argument(centres, "centres", shape=(None, X.shape[1]), real=True)
    check_squares_representable(C, "centres")
    b = check_array_argument(betas, "betas", shape=(C.shape[0],), real=True)
    if np.any(b <= 0):
        raise ValueError("betas must be positive (the widths of the Gaussian units).")
    return np.exp(-_squared_distances(X, C) * b)


class RBFNetwork(RegressorMixin, BaseEstimator):
    """RBF network regressor, (3.14) of 003 §3.5.1.

    Parameters
    ----------
    n_centres : int, default=10
        ``q``; cut to the number of training samples ``m`` when larger (``n_centres_``
        is the number used).
    centres : {"kmeans", "random"}, default="kmeans"
        Centres from :class:`algorithms.clustering.KMeans` or a random sample of the
        training inputs without replacement.
    solver : {"lstsq", "gd"}, default="lstsq"
        ``"lstsq"``: widths fixed at ``beta``, weights by least squares
        (``scipy.linalg.lstsq``, minimum norm). ``"gd"``: weights (from zero) and, if
        ``fit_widths``, widths (from ``beta``) by gradient descent.
    beta : float or None, default=None
        Initial (or fixed) width of every unit; ``None`` takes 1 / the median squared
        distance between the training inputs and the centres (1 if that is 0).
    fit_widths : bool, default=True
        With ``solver="gd"``, also descend on the ``beta_i`` (kept >= 1e-12 beta).
    learning_rate : float, default=0.1
        Step of gradient descent on E (the curvature in w is at most q, so a step
        below 2 / q never overshoots in w alone).
    max_iter : int, default=2000
    tol : float, default=1e-9
        Gradient descent stops once an iteration lowers E by less than ``tol * E``.
    random_state : None, int or Generator, default=None

    Attributes
    ----------
    n_centres_ : int
    centres_ : ndarray of shape (q, d)
    betas_ : ndarray of shape (q,)
    weights_ : ndarray of shape (q,)
    loss_curve_ : ndarray
        E after each gradient-descent iteration (one entry, the least-squares E, for
        ``"lstsq"``).
    n_iter_ : int
    converged_ : bool
    stop_reason_ : str
        ``"lstsq"``, or for gradient descent ``"tol"`` (converged), ``"max_iter"`` or
        ``"increase"`` (a step would have raised E; it was refused).
    n_features_in_ : int

    References
    ----------
    003 §3.5.1 (3.14).
    """

    def __init__(self, *, n_centres: int = 10, centres: str = "kmeans", solver: str = "lstsq",
                 beta: float | None = None, fit_widths: bool = True,
                 learning_rate: float = 0.1, max_iter: int = 2000, tol: float = 1e-9,
                 random_state: object = None) -> None:
        self.n_centres = n_centres
        self.centres = centres
        self.solver = solver
        self.beta = beta
        self.fit_widths = fit_widths
        self.learning_rate = learning_rate
        self.max_iter = max_iter
        self.tol = tol
        self.random_state = random_state

    def fit(self, X: ArrayLike, y: ArrayLike) -> RBFNetwork:
        """Place the centres, then fit the widths and weights."""
        X, y = validate_regression(self, X, y)
        check_squares_representable(X, "X")
        check_squares_representable(y, "y")
        m = X.shape[0]
        # a centre is a training input (random) or a non-empty cluster (k-means): at most m
        q = min(check_int(self.n_centres, "n_centres", low=1, high=MAX_CENTRES), m)
        how = check_choice(self.centres, "centres", RBF_CENTRES)
        solver = check_choice(self.solver, "solver", RBF_SOLVERS)
        beta = None if self.beta is None else check_real(self.beta, "beta", low=0.0,
                                                         low_open=True)
        fit_widths = check_bool(self.fit_widths, "fit_widths")
        eta = check_real(self.learning_rate, "learning_rate", low=0.0, low_open=True)
        max_iter = check_int(self.max_iter, "max_iter", low=1, high=MAX_ITER)
        tol = check_real(self.tol, "tol", low=0.0)
        rng = make_rng(self.random_state)
        if how == "random":
            C = X[rng.choice(m, size=q, replace=False)].copy()
        else:
            seed = int(rng.integers(0, 2**32 - 1))
            C = KMeans(n_clusters=q, random_state=seed).fit(X).cluster_centers_.copy()
        D = _squared_distances(X, C)
        if beta is None:
            med = float(np.median(D))
            beta = 1.0 / med if med > 0 and np.isfinite(1.0 / med) else 1.0
        betas = np.full(q, beta)
        if solver == "lstsq":
            Phi = np.exp(-D * betas)
            w = lstsq(Phi, y)[0]
            losses = [0.5 * float(np.mean((Phi @ w - y) ** 2))]
            converged, reason = True, "lstsq"
        else:
            w, betas, losses, reason = _descend(D, y, betas, eta, max_iter, tol,
                                                fit_widths, beta)
            converged = reason == "tol"
        self.n_centres_ = q
        self.centres_, self.betas_, self.weights_ = C, betas, w
        self.loss_curve_ = np.array(losses)
        self.n_iter_ = len(losses)
        self.converged_ = converged
        self.stop_reason_ = reason
        if not converged:
            why = ("a step would have raised E (learning_rate too large)" if reason == "increase"
                   else f"E still fell by more than tol after max_iter={max_iter} iterations")
            warnings.warn(f"RBFNetwork: gradient descent stopped: {why}.",
                          ConvergenceWarning, stacklevel=2)
        return self

    def hidden_outputs(self, X: ArrayLike) -> np.ndarray:
        """The hidden-layer outputs ``rho(x, c_i)`` (n, q)."""
        X = validate_features(self, X, reset=False)
        check_squares_representable(X, "X")
        return np.exp(-_squared_distances(X, self.centres_) * self.betas_)

    def predict(self, X: ArrayLike) -> np.ndarray:
        """``phi(x) = sum_i w_i rho(x, c_i)``."""
        return self.hidden_outputs(X) @ self.weights_


def _descend(D: np.ndarray, y: np.ndarray, betas: np.ndarray, eta: float, max_iter: int,
             tol: float, fit_widths: bool, beta0: float):
    """Gradient descent on E = 1/(2m) sum (phi - y)^2 over w (and beta).

    Stops when an iteration lowers E by at most ``tol * E`` ("tol"), when a step would
    raise E or make it non-finite (the step is refused: "increase"), or at ``max_iter``.
    """
    m, q = D.shape
    w = np.zeros(q)
    floor = 1e-12 * beta0
    Phi = np.exp(-D * betas)
    r = Phi @ w - y
    E = 0.5 * float(np.mean(r * r))
    losses, reason = [], "max_iter"
    for _ in range(max_iter):
        grad_w = Phi.T @ r / m
        grad_b = -(w * np.mean(r[:, None] * Phi * D, axis=0)) if fit_widths else 0.0
        w_new = w - eta * grad_w
        b_new = np.maximum(betas - eta * grad_b, floor) if fit_widths else betas
        Phi_new = np.exp(-D * b_new)
        r_new = Phi_new @ w_new - y
        E_new = 0.5 * float(np.mean(r_new * r_new))
        if not (np.isfinite(E_new) and np.all(np.isfinite(w_new))) or E_new > E:
            reason = "increase"  # the step overshoots: keep the last iterate
            break
        w, betas, Phi, r = w_new, b_new, Phi_new, r_new
        losses.append(E_new)
        if E - E_new <= tol * E:
            reason = "tol"
            break
        E = E_new
    if not losses:
        losses.append(E)
    return w, betas, losses, reason
