"""Cascade-correlation (003 §3.5.4; Fahlman & Lebiere 1990).

The network grows its own topology. It starts with no hidden unit: the linear output
units see the (standardised) inputs and a bias. Then, repeatedly:

1. the output weights are fitted to the training targets by least squares (the exact
   minimiser of the training error ``E = (1/m) sum_k (1/2) ||yhat_k - y_k||^2`` over the
   current features), and the residuals ``E_{p,o} = yhat_{p,o} - y_{p,o}`` recorded;
2. a pool of candidate units, each a sigmoid of a weighted sum of the inputs, every hidden
   unit so far and a bias, is trained to maximise the magnitude of the covariance of its
   output ``V_p`` with the residual of every output,

   ``S = sum_o | sum_p (V_p - Vbar) (E_{p,o} - Ebar_o) |``,

   by gradient ascent, ``dS/dw_i = sum_{p,o} sigma_o (E_{p,o} - Ebar_o) f'_p I_{i,p}``
   with ``sigma_o`` the sign of output ``o``'s covariance (the ``Vbar`` term drops out
   exactly, since the centred residuals sum to zero). Steps that would lower ``S`` are
   halved and retried, so every recorded ``S`` trace is non-decreasing;
3. the best candidate is installed as a new layer: its input weights are frozen for
   good, and its output feeds the outputs and every later unit.

Growth stops when the training error falls below ``target_error``, when a new unit
lowers it by less than a fraction ``tol``, or after ``max_hidden`` units. Since each
least-squares fit ranges over a superset of the previous features, retraining the outputs
never increases the training error. With few samples the network interpolates them as it
grows: the overfitting §3.5.4 warns about.
"""

from __future__ import annotations

import warnings

import numpy as np
import scipy.linalg
from numpy.typing import ArrayLike
from sklearn.base import BaseEstimator, ClassifierMixin, RegressorMixin
from sklearn.exceptions import ConvergenceWarning
from sklearn.metrics import r2_score

from algorithms._validation import (
    check_array_argument,
    check_bool,
    check_int,
    check_real,
    check_squares_representable,
    make_rng,
    validate_classification,
    validate_features,
    validate_regression,
)
from algorithms.neural._activations import _sigmoid as sigmoid
from algorithms.neural._elman import _moments

__all__ = [
    "CascadeCorrelationClassifier",
    "CascadeCorrelationRegressor",
    "candidate_correlation",
    "candidate_correlation_gradient",
]

#: Hard caps: every hidden unit adds a column the least-squares fit and every later
#: candidate read, and a candidate pool costs n_candidates * max_iter passes over the data.
MAX_HIDDEN = 200
MAX_CANDIDATE_WORK = 10**6
#: The smallest candidate step tried before the ascent is declared stalled.
_MIN_STEP = 1e-12


def candidate_correlation(V: ArrayLike, residuals: ArrayLike) -> np.ndarray:
    """Fahlman's ``S`` of candidate outputs ``V`` (m, C) against residuals (m, l): (C,).

    ``S_c = sum_o | sum_p (V_pc - Vbar_c)(E_po - Ebar_o) |``.
    """
    V = check_array_argument(V, "V", ndim=2, real=True)
    E = check_array_argument(residuals, "residuals", ndim=2, real=True)
    if E.shape[0] != V.shape[0]:
        raise ValueError(f"V and residuals must have as many rows (samples), got "
                         f"{V.shape[0]} and {E.shape[0]}.")
    # each factor divided by its largest magnitude: the products cannot overflow
    sv = float(np.max(np.abs(V))) or 1.0
    se = float(np.max(np.abs(E))) or 1.0
    Vs, Es = V / sv, E / se
    cov = (Vs - Vs.mean(axis=0)).T @ (Es - Es.mean(axis=0))  # (C, l)
    with np.errstate(over="ignore"):
        S = np.abs(cov).sum(axis=1) * sv * se
    if not np.all(np.isfinite(S)):
        raise ValueError("V and residuals are too large: S overflows float64; rescale them.")
    return S


def _correlation_gradient(Z: np.ndarray, W: np.ndarray, Ec: np.ndarray
                          ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``S`` (C,), ``dS/dW`` (p, C) and the outputs ``V`` (m, C) of candidates with input
    weights ``W`` (p, C) on inputs ``Z`` (m, p), against centred residuals ``Ec`` (m, l)."""
    V = sigmoid(Z @ W)
    cov = (V - V.mean(axis=0)).T @ Ec  # (C, l)
    grad = Z.T @ ((V * (1.0 - V)) * (Ec @ np.sign(cov).T))
    return np.abs(cov).sum(axis=1), grad, V


def candidate_correlation_gradient(inputs: ArrayLike, weights: ArrayLike,
                                   residuals: ArrayLike) -> tuple[float, np.ndarray]:
    """``S`` and ``dS/dw`` of one sigmoid candidate ``V_p = f(w . I_p)``.

    ``dS/dw_i = sum_{p,o} sigma_o (E_{p,o} - Ebar_o) f'(w . I_p) I_{i,p}``, ``sigma_o``
    the sign of output ``o``'s covariance (Fahlman & Lebiere 1990); exact wherever no
    covariance is zero.

    Parameters
    ----------
    inputs : array of shape (m, p)
        ``I_p``: the inputs, a bias column and the earlier hidden units of each sample.
    weights : array of shape (p,)
    residuals : array of shape (m, l)
    """
    Z = check_array_argument(inputs, "inputs", ndim=2, real=True)
    w = check_array_argument(weights, "weights", shape=(Z.shape[1],), real=True)
    E = check_array_argument(residuals, "residuals", ndim=2, real=True)
    if E.shape[0] != Z.shape[0]:
        raise ValueError(f"inputs and residuals must have as many rows (samples), got "
                         f"{Z.shape[0]} and {E.shape[0]}.")
    check_squares_representable(Z, "inputs")
    check_squares_representable(E, "residuals")
    check_squares_representable(w, "weights")
    S, grad, _ = _correlation_gradient(Z, w[:, None], E - E.mean(axis=0))
    return float(S[0]), grad[:, 0]


def _hidden_outputs(Z0: np.ndarray, hidden: list[np.ndarray]) -> np.ndarray:
    """Features [inputs, bias, h_1, ..., h_k] of the cascade, unit by unit."""
    Z = Z0
    for w in hidden:
        Z = np.column_stack([Z, sigmoid(Z @ w)])
    return Z


class _CascadeCorrelation(BaseEstimator):
    def __init__(self, *, max_hidden: int = 10, n_candidates: int = 8,
                 candidate_learning_rate: float = 1.0, candidate_max_iter: int = 200,
                 candidate_tol: float = 1e-6, target_error: float = 1e-4,
                 tol: float = 1e-3, record_history: bool = False,
                 random_state: object = None) -> None:
        self.max_hidden = max_hidden
        self.n_candidates = n_candidates
        self.candidate_learning_rate = candidate_learning_rate
        self.candidate_max_iter = candidate_max_iter
        self.candidate_tol = candidate_tol
        self.target_error = target_error
        self.tol = tol
        self.record_history = record_history
        self.random_state = random_state

    # -- the growth loop -------------------------------------------------------------
    def _grow(self, X: np.ndarray, Y: np.ndarray) -> None:
        max_hidden = check_int(self.max_hidden, "max_hidden", low=0, high=MAX_HIDDEN)
        n_cand = check_int(self.n_candidates, "n_candidates", low=1, high=1000)
        eta = check_real(self.candidate_learning_rate, "candidate_learning_rate", low=0.0,
                         low_open=True)
        cand_iter = check_int(self.candidate_max_iter, "candidate_max_iter", low=1,
                              high=MAX_CANDIDATE_WORK)
        if n_cand * cand_iter > MAX_CANDIDATE_WORK:
            raise ValueError(f"n_candidates * candidate_max_iter must be at most "
                             f"{MAX_CANDIDATE_WORK}, got {n_cand * cand_iter}.")
        cand_tol = check_real(self.candidate_tol, "candidate_tol", low=0.0)
        target = check_real(self.target_error, "target_error", low=0.0)
        tol = check_real(self.tol, "tol", low=0.0)
        record = check_bool(self.record_history, "record_history")
        rng = make_rng(self.random_state)

        self.x_mean_, self.x_scale_ = _moments(X)
        Z = np.column_stack([(X - self.x_mean_) / self.x_scale_, np.ones(X.shape[0])])
        hidden: list[np.ndarray] = []
        out_w, err = self._fit_outputs(Z, Y)
        errors = [err]
        s_traces: list[np.ndarray] = []
        cand_iters: list[int] = []
        out_hist = [out_w]
        resid_hist = []
        cand_paths: list[np.ndarray] = []
        converged = err <= target
        while not converged and len(hidden) < max_hidden:
            E = Z @ out_w - Y
            resid_hist.append(E)
            w, trace, path, n_it = self._train_candidates(Z, E, n_cand, eta, cand_iter,
                                                          cand_tol, rng)
            cand_paths.append(path)
            hidden.append(w)
            s_traces.append(trace)
            cand_iters.append(n_it)
            Z = np.column_stack([Z, sigmoid(Z @ w)])
            out_w, new_err = self._fit_outputs(Z, Y)
            out_hist.append(out_w)
            improvement = errors[-1] - new_err
            errors.append(new_err)
            converged = new_err <= target or improvement < tol * errors[-2]
        self.hidden_weights_ = hidden
        self.n_hidden_ = len(hidden)
        self.output_weights_ = out_w
        self.training_error_history_ = np.array(errors)
        self.candidate_correlation_history_ = s_traces
        self.candidate_n_iter_ = np.array(cand_iters, dtype=np.int64)
        self.converged_ = bool(converged)
        if record:
            self.output_weights_history_ = out_hist
            self.residual_history_ = resid_hist
            self.candidate_weights_history_ = cand_paths
        if not converged:
            warnings.warn(
                f"cascade-correlation stopped at max_hidden={max_hidden} hidden units with "
                f"training error {errors[-1]:.3g} > target_error={target} while the last "
                f"unit still improved it by more than tol={tol}.",
                ConvergenceWarning, stacklevel=3)

    @staticmethod
    def _fit_outputs(Z: np.ndarray, Y: np.ndarray) -> tuple[np.ndarray, float]:
        """Least-squares output weights over the features ``Z`` and the training error."""
        W, *_ = scipy.linalg.lstsq(Z, Y, lapack_driver="gelsd")
        R = Z @ W - Y
        return W, float(0.5 * np.mean(np.sum(R**2, axis=1)))

    def _train_candidates(self, Z, E, n_cand, eta, max_iter, cand_tol, rng):
        """Gradient ascent on ``S`` for a pool of candidates; the best one's weights, its
        ``S`` trace (one value per accepted or rejected step) and its iteration count."""
        p = Z.shape[1]
        W = rng.uniform(-1.0, 1.0, size=(p, n_cand))
        Ec = E - E.mean(axis=0)
        m = Z.shape[0]
        step = np.full(n_cand, eta / m)

        S, grad, _ = _correlation_gradient(Z, W, Ec)
        traces = [S.copy()]
        path = [W.copy()]
        n_it = 0
        active = np.ones(n_cand, dtype=bool)
        while n_it < max_iter:
            n_it += 1
            trial = W + step * grad
            S_new, grad_new, _ = _correlation_gradient(Z, trial, Ec)
            better = (S_new > S) & active
            W = np.where(better, trial, W)
            gain = np.where(better, S_new - S, 0.0)
            S = np.where(better, S_new, S)
            grad = np.where(better, grad_new, grad)
            step = np.where(better, step * 1.2, step * 0.5)
            traces.append(S.copy())
            path.append(W.copy())
            stalled = (~better & (step < _MIN_STEP)) | (better & (gain <= cand_tol * S))
            active &= ~stalled
            if not active.any():
                break
        best = int(np.argmax(S))
        return (W[:, best].copy(), np.array(traces)[:, best], np.array(path)[:, :, best],
                n_it)

    def _features(self, X: np.ndarray) -> np.ndarray:
        Z0 = np.column_stack([(X - self.x_mean_) / self.x_scale_, np.ones(X.shape[0])])
        return _hidden_outputs(Z0, self.hidden_weights_)


class CascadeCorrelationRegressor(RegressorMixin, _CascadeCorrelation):
    """Cascade-correlation network with linear outputs for regression (003 §3.5.4).

    Parameters
    ----------
    max_hidden : int, default=10
        Most hidden units installed.
    n_candidates : int, default=8
        Candidate pool size per new unit (random initial weights in (-1, 1)).
    candidate_learning_rate : float, default=1.0
        Initial ascent step, divided by the number of samples; grown by 1.2 after a
        step that raised ``S``, halved after one that did not (that step is undone).
    candidate_max_iter : int, default=200
    candidate_tol : float, default=1e-6
        A candidate stops once a step raises ``S`` by less than this fraction.
    target_error : float, default=1e-4
        Stop growing at this training error (in standardised target units).
    tol : float, default=1e-3
        Stop growing when a unit lowers the training error by less than this fraction.
    record_history : bool, default=False
        Keep the output weights after every retraining, the residuals every candidate
        pool was trained on and the installed candidates' weight paths.
    random_state : None, int or Generator, default=None

    Attributes
    ----------
    hidden_weights_ : list of ndarray
        Frozen input weights of unit ``k`` (length ``d + 1 + k``: inputs, bias, units
        ``1..k-1``), applied to standardised inputs.
    output_weights_ : ndarray of shape (d + 1 + n_hidden, 1)
    training_error_history_ : ndarray of shape (n_hidden + 1,)
        ``E = (1/m) sum_k (1/2) (yhat_k - y_k)^2`` on standardised targets after each
        output retraining, recorded by the growth loop.
    candidate_correlation_history_ : list of ndarray
        ``S`` of the installed candidate at every ascent step.
    candidate_n_iter_ : ndarray of int
    output_weights_history_, residual_history_ : list of ndarray
        Only with ``record_history``.
    candidate_weights_history_ : list of ndarray, only with ``record_history``
        The installed candidate's weights at every ascent step (n_steps + 1, p), the
        iterates behind ``candidate_correlation_history_``.
    x_mean_, x_scale_ : ndarray of shape (d,)
        Input standardisation.
    y_mean_, y_scale_ : float
        Target standardisation.
    n_hidden_ : int
    converged_ : bool
    n_features_in_ : int

    References
    ----------
    003 §3.5.4; Fahlman & Lebiere 1990, The Cascade-Correlation Learning Architecture.
    """

    def fit(self, X: ArrayLike, y: ArrayLike) -> CascadeCorrelationRegressor:
        X, y = validate_regression(self, X, y)
        mean, sd = _moments(y[:, None])
        self.y_mean_, self.y_scale_ = float(mean[0]), float(sd[0])
        self._grow(X, ((y - self.y_mean_) / self.y_scale_)[:, None])
        return self

    def predict(self, X: ArrayLike) -> np.ndarray:
        """The network's output for each row of ``X``."""
        X = validate_features(self, X, reset=False)
        out = (self._features(X) @ self.output_weights_)[:, 0]
        return out * self.y_scale_ + self.y_mean_

    def score(self, X: ArrayLike, y: ArrayLike, sample_weight: ArrayLike | None = None
              ) -> float:
        """R^2 of the predictions, computed on values divided by the largest ``|y|`` (so
        targets near the float64 limit do not overflow its sums of squares)."""
        pred = self.predict(X)
        y_arr = np.asarray(y, dtype=float)
        top = max(float(np.max(np.abs(y_arr))) if y_arr.size else 0.0, 1e-300)
        return float(r2_score(y_arr / top, pred / top, sample_weight=sample_weight))


class CascadeCorrelationClassifier(ClassifierMixin, _CascadeCorrelation):
    """Cascade-correlation network for classification (003 §3.5.4).

    One linear output per class fitted to the one-hot targets; the prediction is the
    class of the largest output. Parameters and attributes as
    :class:`CascadeCorrelationRegressor` (no target standardisation), plus ``classes_``.
    """

    def fit(self, X: ArrayLike, y: ArrayLike) -> CascadeCorrelationClassifier:
        X, codes = validate_classification(self, X, y)
        Y = np.zeros((X.shape[0], self.classes_.shape[0]))
        Y[np.arange(X.shape[0]), codes] = 1.0
        self._grow(X, Y)
        return self

    def decision_function(self, X: ArrayLike) -> np.ndarray:
        """The outputs (n, n_classes); for two classes, output 1 minus output 0 (n,)."""
        X = validate_features(self, X, reset=False)
        out = self._features(X) @ self.output_weights_
        return out[:, 1] - out[:, 0] if out.shape[1] == 2 else out

    def predict(self, X: ArrayLike) -> np.ndarray:
        """The class with the largest output."""
        scores = self.decision_function(X)
        if scores.ndim == 1:
            return self.classes_[(scores > 0).astype(np.intp)]
        return self.classes_[np.argmax(scores, axis=1)]
