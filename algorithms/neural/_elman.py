"""The Elman recurrent network (003 §3.5.5), trained by back-propagation through time.

A d-q-l network whose hidden layer also reads a layer of context units holding its own
output at the previous step, so the state at ``t`` depends on the input at ``t`` and on
the state at ``t - 1``::

    a_t    = x_t V + h_{t-1} U - gamma        h_t = f(a_t)          (h_0 = 0)
    o_t    = h_t W - theta                    yhat_t = g(o_t)

with ``f`` the sigmoid, ``g`` the sigmoid (as the BP network of 003 §3.3 (3.3)) or the
identity. The error of sequence ``k`` is ``E_k = (1/2) sum_t ||yhat_t - y_t||^2`` (the
(3.4) of every step) and training minimises ``E = (1/m) sum_k E_k`` (3.12) by full-batch
gradient descent, ``Delta p = -eta dE/dp``, with the exact gradient of back-propagation
through time: the error signal of the hidden layer at ``t`` collects the output error at
``t`` and the signal of ``t + 1`` passed back through ``U``,

    delta_t = f'(a_t) * ( (dE/do_t) W^T + delta_{t+1} U^T ).

The time loop is sequential by nature; each step is vectorised over the sequences.
Sequences come as arrays (n_sequences, T, d); targets (n_sequences, T, l) or
(n_sequences, T) for one output.
"""

from __future__ import annotations

import warnings

import numpy as np
from numpy.typing import ArrayLike
from sklearn.base import BaseEstimator
from sklearn.exceptions import ConvergenceWarning

from algorithms._validation import (
    check_array_argument,
    check_bool,
    check_choice,
    check_fitted,
    check_int,
    check_real,
    make_rng,
)
from algorithms.neural._activations import _sigmoid as sigmoid

__all__ = ["ELMAN_OUTPUTS", "ElmanNetwork"]

#: Output activations: the sigmoid of (3.3), or the identity for unbounded targets.
ELMAN_OUTPUTS = ("sigmoid", "identity")
#: Parameter names, as in the formulas above.
PARAMETERS = ("V", "U", "gamma", "W", "theta")
#: Largest number of gradient steps one fit may take (each is a pass through the data).
MAX_ITER = 10**6


def _sequences(X: object, name: str = "X") -> np.ndarray:
    """A finite real (n_sequences, T, d) array with at least one of each."""
    arr = check_array_argument(X, name, ndim=3, real=True)
    if 0 in arr.shape:
        raise ValueError(f"{name} must have shape (n_sequences, T, d) with no empty axis, "
                         f"got {arr.shape}.")
    return arr


def _moments(flat: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Column means and standard deviations (1 where a column is constant), computed on
    the columns divided by the largest magnitude so that no sum overflows."""
    top = float(np.max(np.abs(flat))) or 1.0
    mean = (flat / top).mean(axis=0)
    sd = (flat / top).std(axis=0)
    return mean * top, np.where(sd > 0, sd * top, 1.0)


class ElmanNetwork(BaseEstimator):
    """Elman network (003 §3.5.5) trained by back-propagation through time.

    Parameters
    ----------
    n_hidden : int, default=8
        ``q``, hidden (and context) units.
    learning_rate : float, default=0.5
        ``eta > 0``.
    max_iter : int, default=500
        Gradient steps (epochs of full-batch descent).
    tol : float, default=1e-7
        Stop when a step lowers ``E`` by less than ``tol * max(1, E)``.
    output_activation : {"sigmoid", "identity"}, default="sigmoid"
        ``g``. With the sigmoid, targets must lie in [0, 1].
    standardize : bool, default=True
        Standardise each input feature over all sequences and steps first (and, with
        identity outputs, the targets); the parameters then act on standardised values.
    random_state : None, int or Generator, default=None
        Initial weights uniform in (-0.5, 0.5).

    Attributes
    ----------
    V_ : (d, q), U_ : (q, q), gamma_ : (q,), W_ : (q, l), theta_ : (l,)
    loss_history_ : ndarray
        ``E`` before every step and at the end, recorded by the training loop.
    n_iter_ : int
    converged_ : bool
    diverged_ : bool
        A step produced a non-finite value: training stopped at the last finite
        parameters (with a ``ConvergenceWarning``).
    n_features_in_, n_outputs_ : int

    References
    ----------
    003 §3.5.5, §3.3 (3.3)-(3.12); Elman 1990, Finding Structure in Time.
    """

    def __init__(self, *, n_hidden: int = 8, learning_rate: float = 0.5, max_iter: int = 500,
                 tol: float = 1e-7, output_activation: str = "sigmoid",
                 standardize: bool = True, random_state: object = None) -> None:
        self.n_hidden = n_hidden
        self.learning_rate = learning_rate
        self.max_iter = max_iter
        self.tol = tol
        self.output_activation = output_activation
        self.standardize = standardize
        self.random_state = random_state

    # -- data ------------------------------------------------------------------------
    def _targets(self, y: object, X: np.ndarray, sigmoid_out: bool) -> np.ndarray:
        if y is None:
            raise ValueError("ElmanNetwork requires y to be passed, but the target y is None.")
        Y = check_array_argument(y, "y", real=True)
        if Y.ndim == 2:
            Y = Y[:, :, None]
        if Y.ndim != 3 or Y.shape[:2] != X.shape[:2] or Y.shape[2] == 0:
            raise ValueError(f"X and y must have as many sequences and steps: y must have "
                             f"shape {X.shape[:2]} or {X.shape[:2]} + (l,), got {Y.shape} "
                             f"for X of shape {X.shape}.")
        if sigmoid_out and (Y.min() < 0.0 or Y.max() > 1.0):
            raise ValueError("y must lie in [0, 1] for sigmoid outputs (use "
                             "output_activation='identity' for other targets).")
        return Y

    def _inputs(self, X: object) -> np.ndarray:
        check_fitted(self, "V_")
        Xs = _sequences(X)
        if Xs.shape[2] != self.n_features_in_:
            raise ValueError(f"X has {Xs.shape[2]} features per step, but ElmanNetwork was "
                             f"fitted with {self.n_features_in_}.")
        return (Xs - self.x_mean_) / self.x_scale_

    # -- the network -----------------------------------------------------------------
    def _forward(self, params: dict, X: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Hidden states (n, T, q) and outputs (n, T, l) of standardised inputs."""
        n, T, _ = X.shape
        q = params["U"].shape[0]
        H = np.empty((n, T, q))
        h = np.zeros((n, q))
        for t in range(T):  # the recurrence: sequential in t, vectorised over sequences
            h = sigmoid(X[:, t] @ params["V"] + h @ params["U"] - params["gamma"])
            H[:, t] = h
        net = H @ params["W"] - params["theta"]  # o_t
        out = sigmoid(net) if self._sigmoid_out else net
        return H, out

    def _loss_and_grad(self, params: dict, X: np.ndarray, Y: np.ndarray,
                       grad: bool = True) -> tuple[float, dict | None]:
        H, out = self._forward(params, X)
        R = out - Y
        loss = float(0.5 * np.sum(R**2) / X.shape[0])
        if not grad:
            return loss, None
        n, T, _ = X.shape
        dO = R * (out * (1.0 - out)) / n if self._sigmoid_out else R / n  # dE/do_t
        g = {k: np.zeros_like(v) for k, v in params.items()}
        g["W"] = np.einsum("ntq,ntl->ql", H, dO)
        g["theta"] = -dO.sum(axis=(0, 1))
        delta_next = np.zeros((n, H.shape[2]))
        for t in range(T - 1, -1, -1):  # back-propagation through time
            back = dO[:, t] @ params["W"].T + delta_next @ params["U"].T
            delta = H[:, t] * (1.0 - H[:, t]) * back  # dE/da_t
            prev = H[:, t - 1] if t > 0 else np.zeros_like(H[:, 0])
            g["V"] += X[:, t].T @ delta
            g["U"] += prev.T @ delta
            g["gamma"] -= delta.sum(axis=0)
            delta_next = delta
        return loss, g

    # -- estimator -------------------------------------------------------------------
    def fit(self, X: ArrayLike, y: ArrayLike) -> ElmanNetwork:
        """Train on sequences ``X`` (n_sequences, T, d) with targets ``y``."""
        Xs = _sequences(X)
        q = check_int(self.n_hidden, "n_hidden", low=1, high=10_000)
        eta = check_real(self.learning_rate, "learning_rate", low=0.0, low_open=True)
        max_iter = check_int(self.max_iter, "max_iter", low=1, high=MAX_ITER)
        tol = check_real(self.tol, "tol", low=0.0)
        g_name = check_choice(self.output_activation, "output_activation", ELMAN_OUTPUTS)
        standardize = check_bool(self.standardize, "standardize")
        rng = make_rng(self.random_state)
        self._sigmoid_out = g_name == "sigmoid"
        Y = self._targets(y, Xs, self._sigmoid_out)
        self._y_was_2d = np.ndim(y) == 2
        d, n_out = Xs.shape[2], Y.shape[2]
        if standardize:
            self.x_mean_, self.x_scale_ = _moments(Xs.reshape(-1, d))
        else:
            self.x_mean_, self.x_scale_ = np.zeros(d), np.ones(d)
        if standardize and not self._sigmoid_out:
            self.y_mean_, self.y_scale_ = _moments(Y.reshape(-1, n_out))
        else:
            self.y_mean_, self.y_scale_ = np.zeros(n_out), np.ones(n_out)
        Xn = (Xs - self.x_mean_) / self.x_scale_
        Yn = (Y - self.y_mean_) / self.y_scale_

        params = {
            "V": rng.uniform(-0.5, 0.5, size=(d, q)),
            "U": rng.uniform(-0.5, 0.5, size=(q, q)),
            "gamma": rng.uniform(-0.5, 0.5, size=q),
            "W": rng.uniform(-0.5, 0.5, size=(q, n_out)),
            "theta": rng.uniform(-0.5, 0.5, size=n_out),
        }
        self.initial_params_ = {k: v.copy() for k, v in params.items()}
        loss, g = self._loss_and_grad(params, Xn, Yn)
        history = [loss]
        converged = diverged = False
        n_iter = 0
        for n_iter in range(1, max_iter + 1):
            trial = {k: params[k] - eta * g[k] for k in PARAMETERS}
            with np.errstate(over="ignore", invalid="ignore"):
                new_loss, new_g = self._loss_and_grad(trial, Xn, Yn)
            finite = np.isfinite(new_loss) and all(
                np.all(np.isfinite(v)) for v in (*trial.values(), *new_g.values()))
            if not finite:
                diverged = True
                n_iter -= 1
                break
            params, g = trial, new_g
            history.append(new_loss)
            if abs(loss - new_loss) < tol * max(1.0, loss):
                converged = True
                loss = new_loss
                break
            loss = new_loss
        for k in PARAMETERS:
            setattr(self, f"{k}_", params[k])
        self.loss_history_ = np.array(history)
        self.n_iter_ = n_iter
        self.converged_ = converged
        self.diverged_ = diverged
        self.n_features_in_ = d
        self.n_outputs_ = n_out
        if diverged:
            warnings.warn(f"ElmanNetwork diverged after {n_iter} steps (a non-finite value "
                          f"with learning_rate={eta}); the last finite parameters are kept.",
                          ConvergenceWarning, stacklevel=2)
        elif not converged:
            warnings.warn(f"ElmanNetwork did not converge in max_iter={max_iter} steps "
                          f"(last decrease of E above tol={tol}).",
                          ConvergenceWarning, stacklevel=2)
        return self

    @property
    def params_(self) -> dict:
        """The fitted parameters ``{"V", "U", "gamma", "W", "theta"}`` (copies)."""
        check_fitted(self, "V_")
        return {k: getattr(self, f"{k}_").copy() for k in PARAMETERS}

    def hidden_states(self, X: ArrayLike) -> np.ndarray:
        """The hidden state ``h_t`` (n_sequences, T, q) of every sequence and step."""
        Xn = self._inputs(X)
        return self._forward(self.params_, Xn)[0]

    def predict(self, X: ArrayLike) -> np.ndarray:
        """Outputs ``yhat_t`` (n_sequences, T, l), or (n_sequences, T) when fitted on a
        2-d target."""
        Xn = self._inputs(X)
        out = self._forward(self.params_, Xn)[1] * self.y_scale_ + self.y_mean_
        return out[:, :, 0] if self._y_was_2d else out

    def loss(self, X: ArrayLike, y: ArrayLike, params: dict | None = None) -> float:
        """``E = (1/m) sum_k (1/2) sum_t ||yhat_t - y_t||^2`` (on standardised values),
        at the fitted parameters or at ``params``."""
        Xn, Yn, p = self._problem(X, y, params)
        return self._loss_and_grad(p, Xn, Yn, grad=False)[0]

    def loss_gradient(self, X: ArrayLike, y: ArrayLike, params: dict | None = None) -> dict:
        """``dE/dp`` for every parameter, by back-propagation through time."""
        Xn, Yn, p = self._problem(X, y, params)
        return self._loss_and_grad(p, Xn, Yn)[1]

    def _problem(self, X, y, params):
        Xn = self._inputs(X)
        Y = self._targets(y, Xn, self._sigmoid_out)
        if params is not None and set(params) != set(PARAMETERS):
            raise ValueError(f"params must have exactly the keys {PARAMETERS}, got "
                             f"{sorted(params)}.")
        p = self.params_ if params is None else {
            k: check_array_argument(params[k], f"params[{k!r}]",
                                    shape=getattr(self, f"{k}_").shape, real=True)
            for k in PARAMETERS}
        return Xn, (Y - self.y_mean_) / self.y_scale_, p

    def __sklearn_is_fitted__(self) -> bool:
        return hasattr(self, "V_")

