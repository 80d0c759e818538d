"""The d-q-l sigmoid network of 003 §3.3 and its training by error back-propagation.

Notation of the notes (§3.3): ``v`` (d x q) input-to-hidden weights, ``gamma`` (q)
hidden thresholds, ``w`` (q x l) hidden-to-output weights, ``theta`` (l) output
thresholds. For an input ``x``::

    alpha_h = sum_i v_ih x_i,   b_h = f(alpha_h - gamma_h),
    beta_j  = sum_h w_hj b_h,   y_hat_j = f(beta_j - theta_j)              (3.3)
    E_k = 1/2 sum_j (y_hat_j - y_j)^2                                       (3.4)
    g_j = y_hat_j (1 - y_hat_j) (y_j - y_hat_j)                             (3.9)
    e_h = b_h (1 - b_h) sum_j w_hj g_j                                      (3.11)
    dw_hj = eta g_j b_h,  dtheta_j = -eta g_j,
    dv_ih = eta e_h x_i,  dgamma_h = -eta e_h                      (3.10)-(3.11)

with ``f`` the logistic sigmoid. *Standard BP* applies these updates sample by sample
(``e_h`` from the output weights *before* the update); *accumulated BP* minimises
``E = (1/m) sum_k E_k`` (3.12) with one update per epoch, the mean of the per-sample
updates (vectorised over the samples); the mini-batch option averages over batches.
Weight decay (3.13) minimises ``lambda E + (1 - lambda) sum_i w_i^2`` over every weight
and threshold, whose gradient adds ``2 (1 - lambda) w_i``.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike
from scipy.special import expit
from sklearn.base import BaseEstimator, ClassifierMixin, RegressorMixin
from sklearn.exceptions import ConvergenceWarning
from sklearn.utils.validation import check_is_fitted

from algorithms._validation import (
    check_array_argument,
    check_bool,
    check_choice,
    check_int,
    check_real,
    check_squares_representable,
    make_rng,
    validate_classification,
    validate_features,
    validate_regression,
)
from algorithms.neural._activations import _sigmoid as sigmoid
from algorithms.neural._escape import annealing_accept
from algorithms.neural._genetic import next_generation, population_objectives

__all__ = [
    "BP_ALGORITHMS",
    "BPClassifier",
    "BPParams",
    "BPRegressor",
    "bp_forward",
    "bp_gradients",
    "bp_sample_errors",
    "standard_bp_step",
]

#: Training schemes: per-sample (3.3)-(3.11), one update per epoch on (3.12), averages
#: over mini-batches, or (§3.4) a genetic algorithm over the weights, one generation per
#: epoch.
BP_ALGORITHMS = ("standard", "accumulated", "minibatch", "genetic")

#: Largest GA population accepted (each generation evaluates every individual).
MAX_POPULATION = 10**4

#: Largest number of epochs accepted; beyond it a fit would take hours.
MAX_EPOCHS = 10**6

#: Largest hidden layer accepted (a q x q Python object is never built; this only stops
#: a request for 10^12 units from allocating the weights).
MAX_HIDDEN_UNITS = 10**5


@dataclass
class BPParams:
    """The parameters of a d-q-l network in the notes' names (or their gradients).

    ``v`` (d, q), ``gamma`` (q,), ``w`` (q, l), ``theta`` (l,).
    """

    v: np.ndarray
    gamma: np.ndarray
    w: np.ndarray
    theta: np.ndarray

    def flat(self) -> np.ndarray:
        """All entries as one vector, in the order v, gamma, w, theta."""
        return np.concatenate([self.v.ravel(), self.gamma, self.w.ravel(), self.theta])

    @classmethod
    def from_flat(cls, vector: ArrayLike, d: int, q: int, l: int) -> BPParams:  # noqa: E741
        """The inverse of :meth:`flat` for a d-q-l network."""
        p = np.asarray(vector, dtype=float)
        i = 0
        v = p[i:i + d * q].reshape(d, q)
        i += d * q
        gamma = p[i:i + q]
        i += q
        w = p[i:i + q * l].reshape(q, l)
        i += q * l
        return cls(v.copy(), gamma.copy(), w.copy(), p[i:i + l].copy())

    def copy(self) -> BPParams:
        return BPParams(self.v.copy(), self.gamma.copy(), self.w.copy(), self.theta.copy())

    def all_finite(self) -> bool:
        return bool(all(np.all(np.isfinite(a)) for a in (self.v, self.gamma, self.w, self.theta)))

    def squared_norm(self) -> float:
        """sum of squares of every weight and threshold (the penalty of (3.13))."""
        return float(sum(np.sum(a * a) for a in (self.v, self.gamma, self.w, self.theta)))


# ---------------------------------------------------------------------------
# The formulas (unvalidated, vectorised over the rows of X)
# ---------------------------------------------------------------------------


def _forward(X: np.ndarray, p: BPParams) -> tuple[np.ndarray, np.ndarray]:
    b = sigmoid(X @ p.v - p.gamma)
    return b, sigmoid(b @ p.w - p.theta)


def _mean_deltas(X: np.ndarray, Y: np.ndarray, p: BPParams) -> BPParams:
    """Mean over the rows of the per-sample quantities of (3.10)-(3.11) *without* eta:
    ``g_j b_h``, ``-g_j``, ``e_h x_i``, ``-e_h``, i.e. minus the gradient of (3.12)."""
    b, y_hat = _forward(X, p)
    g = y_hat * (1.0 - y_hat) * (Y - y_hat)                   # (3.9)
    e = b * (1.0 - b) * (g @ p.w.T)                           # (3.11), pre-update w
    m = X.shape[0]
    return BPParams(X.T @ e / m, -e.mean(axis=0), b.T @ g / m, -g.mean(axis=0))


def _sample_errors(X: np.ndarray, Y: np.ndarray, p: BPParams) -> np.ndarray:
    _, y_hat = _forward(X, p)
    return 0.5 * np.sum((y_hat - Y) ** 2, axis=1)             # (3.4)


def _objective(X: np.ndarray, Y: np.ndarray, p: BPParams, lam: float | None) -> float:
    E = float(np.mean(_sample_errors(X, Y, p)))               # (3.12)
    return E if lam is None else lam * E + (1.0 - lam) * p.squared_norm()   # (3.13)


def _apply(p: BPParams, d: BPParams, eta: float, lam: float | None) -> BPParams:
    """``p + eta d`` with ``d`` minus the gradient of E; with weight decay, the step on
    (3.13): ``p + eta (lam d - 2 (1 - lam) p)``."""
    if lam is None:
        return BPParams(p.v + eta * d.v, p.gamma + eta * d.gamma, p.w + eta * d.w,
                        p.theta + eta * d.theta)
    c = 2.0 * (1.0 - lam)
    return BPParams(p.v + eta * (lam * d.v - c * p.v),
                    p.gamma + eta * (lam * d.gamma - c * p.gamma),
                    p.w + eta * (lam * d.w - c * p.w),
                    p.theta + eta * (lam * d.theta - c * p.theta))


def _standard_epoch(X: np.ndarray, Y: np.ndarray, p: BPParams, eta: float,
                    lam: float | None, order: np.ndarray) -> BPParams:
    """One pass of standard BP: (3.3)-(3.11) sample by sample, in ``order``.

    Sequential by nature (each sample sees the weights its predecessor left), so it is a
    Python loop; the hidden gradients ``e_h`` use ``w`` before this sample's update.
    """
    v, gamma, w, theta = p.v.copy(), p.gamma.copy(), p.w.copy(), p.theta.copy()
    c = 0.0 if lam is None else 2.0 * (1.0 - lam)
    s = 1.0 if lam is None else lam
    for k in order:
        x, y = X[k], Y[k]
        b = expit(x @ v - gamma)            # the overflow-safe sigmoid of _activations,
        y_hat = expit(b @ w - theta)        # without its conversion cost per sample
        g = y_hat * (1.0 - y_hat) * (y - y_hat)                # (3.9)
        e = b * (1.0 - b) * (w @ g)                            # (3.11) with the old w
        if c:
            v *= 1.0 - eta * c
            gamma *= 1.0 - eta * c
            w *= 1.0 - eta * c
            theta *= 1.0 - eta * c
        step_g, step_e = (eta * s) * g, (eta * s) * e
        w += b[:, None] * step_g                               # (3.10)
        theta -= step_g
        v += x[:, None] * step_e
        gamma -= step_e
    return BPParams(v, gamma, w, theta)


# ---------------------------------------------------------------------------
# Public, validated functions
# ---------------------------------------------------------------------------


def _check_params(v, gamma, w, theta, d: int | None = None) -> BPParams:
    v = check_array_argument(v, "v", ndim=2, real=True)
    if d is not None and v.shape[0] != d:
        raise ValueError(f"v must have shape (d, q) = ({d}, q), got shape {v.shape}.")
    q = v.shape[1]
    gamma = check_array_argument(gamma, "gamma", shape=(q,), real=True)
    w = check_array_argument(w, "w", shape=(q, None), real=True)
    theta = check_array_argument(theta, "theta", shape=(w.shape[1],), real=True)
    for name, arr in (("v", v), ("gamma", gamma), ("w", w), ("theta", theta)):
        check_squares_representable(arr, name)
    return BPParams(v, gamma, w, theta)


def _check_data(X, Y, l: int) -> tuple[np.ndarray, np.ndarray]:  # noqa: E741
    X = check_array_argument(X, "X", ndim=2, real=True)
    check_squares_representable(X, "X")
    Y = check_array_argument(Y, "Y", ndim=2, real=True)
    check_squares_representable(Y, "Y")
    if Y.shape != (X.shape[0], l):
        raise ValueError(f"Y must have shape (n_samples, l) = ({X.shape[0]}, {l}), "
                         f"got shape {Y.shape}.")
    return X, Y


def bp_forward(X: ArrayLike, v: ArrayLike, gamma: ArrayLike, w: ArrayLike,
               theta: ArrayLike) -> tuple[np.ndarray, np.ndarray]:
    """Hidden outputs ``b`` (n, q) and network outputs ``y_hat`` (n, l) of (3.3).

    ``X`` is (n, d); ``v, gamma, w, theta`` as in :class:`BPParams`.
    """
    X = check_array_argument(X, "X", ndim=2, real=True)
    check_squares_representable(X, "X")
    p = _check_params(v, gamma, w, theta, X.shape[1])
    return _forward(X, p)


def bp_sample_errors(X: ArrayLike, Y: ArrayLike, v: ArrayLike, gamma: ArrayLike,
                     w: ArrayLike, theta: ArrayLike) -> np.ndarray:
    """``E_k`` of (3.4) for every row: ``X`` (n, d), targets ``Y`` (n, l)."""
    X0 = check_array_argument(X, "X", ndim=2, real=True)
    p = _check_params(v, gamma, w, theta, X0.shape[1])
    X, Y = _check_data(X0, Y, p.w.shape[1])
    return _sample_errors(X, Y, p)


def bp_gradients(X: ArrayLike, Y: ArrayLike, v: ArrayLike, gamma: ArrayLike, w: ArrayLike,
                 theta: ArrayLike, *, weight_decay: float | None = None) -> BPParams:
    """The gradient of the accumulated error ``E = (1/m) sum_k E_k`` (3.12) by BP.

    For one row this is the gradient of ``E_k`` (3.4): ``-g_j b_h`` for ``w_hj``,
    ``g_j`` for ``theta_j``, ``-e_h x_i`` for ``v_ih``, ``e_h`` for ``gamma_h`` (minus the
    updates (3.10)-(3.11) divided by eta). With ``weight_decay = lambda`` in (0, 1), the
    gradient of (3.13): ``lambda grad E + 2 (1 - lambda) p``.
    """
    X0 = check_array_argument(X, "X", ndim=2, real=True)
    p = _check_params(v, gamma, w, theta, X0.shape[1])
    X, Y = _check_data(X0, Y, p.w.shape[1])
    lam = _check_lambda(weight_decay)
    d = _mean_deltas(X, Y, p)
    grad = BPParams(-d.v, -d.gamma, -d.w, -d.theta)
    if lam is None:
        return grad
    c = 2.0 * (1.0 - lam)
    return BPParams(lam * grad.v + c * p.v, lam * grad.gamma + c * p.gamma,
                    lam * grad.w + c * p.w, lam * grad.theta + c * p.theta)


def standard_bp_step(x: ArrayLike, y: ArrayLike, v: ArrayLike, gamma: ArrayLike,
                     w: ArrayLike, theta: ArrayLike, learning_rate: float) -> BPParams:
    """The updates ``(dv, dgamma, dw, dtheta)`` of (3.10)-(3.11) for one sample.

    ``x`` (d,), ``y`` (l,); ``e_h`` uses the output weights before the update. This is
    the loop body of standard BP (the estimator runs the same formulas).
    """
    x = check_array_argument(x, "x", ndim=1, real=True)
    check_squares_representable(x, "x")
    p = _check_params(v, gamma, w, theta, x.shape[0])
    y = check_array_argument(y, "y", shape=(p.w.shape[1],), real=True)
    eta = check_real(learning_rate, "learning_rate", low=0.0, low_open=True)
    new = _standard_epoch(x[None, :], y[None, :], p, eta, None, np.zeros(1, dtype=np.intp))
    return BPParams(new.v - p.v, new.gamma - p.gamma, new.w - p.w, new.theta - p.theta)


def _check_lambda(weight_decay: object) -> float | None:
    if weight_decay is None:
        return None
    return check_real(weight_decay, "weight_decay", low=0.0, high=1.0, low_open=True,
                      high_open=True)


# ---------------------------------------------------------------------------
# Estimators
# ---------------------------------------------------------------------------


class _BPNetwork(BaseEstimator):
    """Shared training loop of :class:`BPClassifier` and :class:`BPRegressor`."""

    def __init__(self, *, hidden_units: int = 10, learning_rate: float = 0.1,
                 algorithm: str = "standard", batch_size: int = 32, max_iter: int = 200,
                 tol: float = 1e-6, error_goal: float = 0.0, patience: int = 10,
                 early_stopping: bool = False, validation_fraction: float = 0.1,
                 weight_decay: float | None = None, shuffle: bool = True,
                 init_range: tuple[float, float] = (0.0, 1.0),
                 anneal_temperature: float | None = None, anneal_decay: float = 0.9,
                 anneal_scale: float = 0.1, population_size: int = 20,
                 mutation_rate: float = 0.1, mutation_scale: float = 0.1,
                 record_history: bool = False, random_state: object = None) -> None:
        self.hidden_units = hidden_units
        self.learning_rate = learning_rate
        self.algorithm = algorithm
        self.batch_size = batch_size
        self.max_iter = max_iter
        self.tol = tol
        self.error_goal = error_goal
        self.patience = patience
        self.early_stopping = early_stopping
        self.validation_fraction = validation_fraction
        self.weight_decay = weight_decay
        self.shuffle = shuffle
        self.init_range = init_range
        self.anneal_temperature = anneal_temperature
        self.anneal_decay = anneal_decay
        self.anneal_scale = anneal_scale
        self.population_size = population_size
        self.mutation_rate = mutation_rate
        self.mutation_scale = mutation_scale
        self.record_history = record_history
        self.random_state = random_state

    # -- hyperparameters --------------------------------------------------------
    def _settings(self) -> dict:
        low_high = self.init_range
        if not (isinstance(low_high, tuple | list) and len(low_high) == 2):
            raise ValueError(f"init_range must be a pair (low, high), got {low_high!r}.")
        low = check_real(low_high[0], "init_range")
        high = check_real(low_high[1], "init_range")
        if not low < high:
            raise ValueError(f"init_range must have low < high, got {low_high!r}.")
        temp = self.anneal_temperature
        return {
            "q": check_int(self.hidden_units, "hidden_units", low=1, high=MAX_HIDDEN_UNITS),
            "eta": check_real(self.learning_rate, "learning_rate", low=0.0, low_open=True),
            "algorithm": check_choice(self.algorithm, "algorithm", BP_ALGORITHMS),
            "batch_size": check_int(self.batch_size, "batch_size", low=1, high=2**40),
            "max_iter": check_int(self.max_iter, "max_iter", low=1, high=MAX_EPOCHS),
            "tol": check_real(self.tol, "tol", low=0.0),
            "error_goal": check_real(self.error_goal, "error_goal", low=0.0),
            "patience": check_int(self.patience, "patience", low=1, high=MAX_EPOCHS),
            "early_stopping": check_bool(self.early_stopping, "early_stopping"),
            "validation_fraction": check_real(self.validation_fraction, "validation_fraction",
                                              low=0.0, high=1.0, low_open=True,
                                              high_open=True),
            "lam": _check_lambda(self.weight_decay),
            "shuffle": check_bool(self.shuffle, "shuffle"),
            "init": (low, high),
            "temperature": None if temp is None else check_real(
                temp, "anneal_temperature", low=0.0, low_open=True),
            "decay": check_real(self.anneal_decay, "anneal_decay", low=0.0, high=1.0,
                                low_open=True),
            "anneal_scale": check_real(self.anneal_scale, "anneal_scale", low=0.0,
                                       low_open=True),
            "population": check_int(self.population_size, "population_size", low=2,
                                    high=MAX_POPULATION),
            "mutation_rate": check_real(self.mutation_rate, "mutation_rate", low=0.0,
                                        high=1.0),
            "mutation_scale": check_real(self.mutation_scale, "mutation_scale", low=0.0,
                                         low_open=True),
            "record": check_bool(self.record_history, "record_history"),
        }

    # -- training ---------------------------------------------------------------
    def _train(self, X: np.ndarray, Y: np.ndarray) -> None:
        s = self._settings()
        check_squares_representable(X, "X")
        rng = make_rng(self.random_state)
        m, d = X.shape
        l = Y.shape[1]  # noqa: E741
        q = s["q"]
        if s["early_stopping"]:
            n_val = int(np.ceil(s["validation_fraction"] * m))
            if n_val < 1 or m - n_val < 1:
                raise ValueError(f"early_stopping needs at least 2 samples, got {m}.")
            perm = rng.permutation(m)
            val, train = perm[:n_val], perm[n_val:]
            Xv, Yv, X, Y = X[val], Y[val], X[train], Y[train]
            m = X.shape[0]
        low, high = s["init"]
        p = BPParams(rng.uniform(low, high, (d, q)), rng.uniform(low, high, q),
                     rng.uniform(low, high, (q, l)), rng.uniform(low, high, l))
        self.initial_params_ = p.copy()
        eta, lam = s["eta"], s["lam"]
        temperature = s["temperature"]
        history = [p.copy()] if s["record"] else None
        loss, error, valid, anneal_log = [], [], [], []
        best_score, best_params, best_epoch, stale = np.inf, p.copy(), 0, 0
        converged = diverged = False
        order = np.arange(m)
        genetic = s["algorithm"] == "genetic"
        if genetic:  # §3.4: the random start and population_size - 1 more random networks
            dims = (d, q, l)
            population = np.vstack([p.flat()[None], rng.uniform(
                low, high, (s["population"] - 1, p.flat().size))])
            fitness = population_objectives(X, Y, population, dims, lam)
            fitness_log = []
        for epoch in range(s["max_iter"]):
            if s["shuffle"]:
                order = rng.permutation(m)
            previous = p
            if s["algorithm"] == "standard":
                p = _standard_epoch(X, Y, p, eta, lam, order)
            elif s["algorithm"] == "accumulated":
                p = _apply(p, _mean_deltas(X, Y, p), eta, lam)      # (3.12): one update
            elif genetic:     # one generation; its best individual is the network
                population = next_generation(population, fitness, rng, s["mutation_rate"],
                                             s["mutation_scale"])
                fitness = population_objectives(X, Y, population, dims, lam)
                best = int(np.argmin(fitness))
                fitness_log.append((float(fitness[best]), float(np.mean(fitness))))
                p = BPParams.from_flat(population[best], d, q, l)
            else:
                for start in range(0, m, s["batch_size"]):
                    rows = order[start:start + s["batch_size"]]
                    p = _apply(p, _mean_deltas(X[rows], Y[rows], p), eta, lam)
            if temperature is not None:  # §3.4: a random move, worse ones sometimes kept
                proposal = BPParams.from_flat(
                    p.flat() + rng.normal(scale=s["anneal_scale"], size=p.flat().size), d, q, l)
                delta = _objective(X, Y, proposal, lam) - _objective(X, Y, p, lam)
                accepted = annealing_accept(delta, temperature, rng)
                anneal_log.append((temperature, delta, float(accepted)))
                if accepted:
                    p = proposal
                    if genetic:  # the moved network replaces the best individual
                        population[best] = p.flat()
                        fitness[best] = _objective(X, Y, p, lam)
                temperature *= s["decay"]
            E = float(np.mean(_sample_errors(X, Y, p)))              # (3.12)
            objective = E if lam is None else lam * E + (1.0 - lam) * p.squared_norm()
            if not (p.all_finite() and np.isfinite(objective)):
                p, diverged = previous, True
                break
            loss.append(objective)
            error.append(E)
            if history is not None:
                history.append(p.copy())
            if s["early_stopping"]:
                score = float(np.mean(_sample_errors(Xv, Yv, p)))
                valid.append(score)
            else:
                score = objective
            if score < best_score - s["tol"]:
                best_score, best_params, best_epoch, stale = score, p.copy(), epoch + 1, 0
            else:
                stale += 1
            if error[-1] <= s["error_goal"] or stale >= s["patience"]:
                converged = True
                break
        if s["early_stopping"] and best_epoch > 0:
            p = best_params  # the weights of the lowest validation error
        self.v_, self.gamma_, self.w_, self.theta_ = p.v, p.gamma, p.w, p.theta
        self.loss_curve_ = np.array(loss)
        self.error_curve_ = np.array(error)
        self.validation_curve_ = np.array(valid)
        self.best_epoch_ = best_epoch
        self.anneal_log_ = np.array(anneal_log).reshape(-1, 3)
        self.generation_log_ = (np.array(fitness_log).reshape(-1, 2) if genetic
                                else np.empty((0, 2)))
        self.param_history_ = history
        self.n_iter_ = len(loss)
        self.converged_ = converged
        self.diverged_ = diverged
        if diverged:
            warnings.warn(
                f"{type(self).__name__} diverged in epoch {len(loss) + 1} (non-finite "
                f"weights or error with learning_rate={eta}); the weights of the last "
                f"finite epoch are kept.", ConvergenceWarning, stacklevel=3)
        elif not converged:
            warnings.warn(
                f"{type(self).__name__} reached max_iter={s['max_iter']} epochs before the "
                f"error goal or {s['patience']} epochs without improvement.",
                ConvergenceWarning, stacklevel=3)

    @property
    def params_(self) -> BPParams:
        """The fitted ``(v, gamma, w, theta)`` as a :class:`BPParams`."""
        check_is_fitted(self, "v_")
        return BPParams(self.v_, self.gamma_, self.w_, self.theta_)

    def _outputs(self, X: ArrayLike) -> np.ndarray:
        X = validate_features(self, X, reset=False)
        check_squares_representable(X, "X")
        return _forward(X, self.params_)[1]


class BPClassifier(ClassifierMixin, _BPNetwork):
    """A d-q-l sigmoid network trained by BP, as a classifier (003 §3.3).

    Two classes use one output unit (``l = 1``, target 1 for the second class of
    ``classes_``); K > 2 classes use K output units with one-hot targets. The predicted
    class is the output unit with the largest value (the single output above 1/2).

    Parameters
    ----------
    hidden_units : int, default=10
        ``q``.
    learning_rate : float, default=0.1
        ``eta`` > 0 (the notes take it in (0, 1)).
    algorithm : {"standard", "accumulated", "minibatch", "genetic"}, default="standard"
        Per-sample updates (3.3)-(3.11); one update per epoch on (3.12); one update per
        mini-batch of ``batch_size`` samples (the mean of their updates); or (§3.4) no
        gradient at all: each epoch is one generation of a genetic algorithm over the
        weights (elitist, binary tournament, uniform crossover, normal mutation; see
        ``algorithms/neural/_genetic.py``), the network being the generation's best.
        ``learning_rate`` is unused by ``"genetic"``.
    batch_size : int, default=32
    max_iter : int, default=200
        Epoch cap (``ConvergenceWarning`` when reached).
    tol : float, default=1e-6
        An epoch improves when the monitored error (training objective, or validation
        error with ``early_stopping``) falls by more than ``tol`` below the best so far.
    error_goal : float, default=0.0
        Stop once the training error E of (3.12) is at most this.
    patience : int, default=10
        Stop after this many epochs without improvement.
    early_stopping : bool, default=False
        Hold out ``validation_fraction`` of the samples, monitor their error each epoch
        and keep the weights of its minimum (§3.3, early stopping).
    validation_fraction : float, default=0.1
    weight_decay : float or None, default=None
        ``lambda`` in (0, 1) of (3.13); ``None`` minimises (3.12).
    shuffle : bool, default=True
        Visit the samples in a fresh random order each epoch (the stochastic gradient
        of §3.4 for standard BP).
    init_range : (float, float), default=(0.0, 1.0)
        Initial weights and thresholds uniform in this interval (the notes: (0, 1)).
    anneal_temperature : float or None, default=None
        §3.4 simulated annealing: after each epoch a random move of every parameter
        (normal, sd ``anneal_scale``) is accepted if it lowers the objective, and
        otherwise with probability ``exp(-increase / T)``; ``T`` starts here and is
        multiplied by ``anneal_decay`` each epoch.
    anneal_decay : float, default=0.9
    anneal_scale : float, default=0.1
    population_size : int, default=20
        With ``algorithm="genetic"`` (§3.4): networks per generation (at least 2); the
        first is the random start drawn as for BP, the rest are drawn the same way.
    mutation_rate : float, default=0.1
        With ``algorithm="genetic"``: probability in [0, 1] that a gene (one weight or
        threshold) of a child is perturbed.
    mutation_scale : float, default=0.1
        With ``algorithm="genetic"``: sd > 0 of that normal perturbation.
    record_history : bool, default=False
        Keep the parameters after every epoch in ``param_history_``.
    random_state : None, int or Generator, default=None

    Attributes
    ----------
    classes_ : ndarray
    v_ : ndarray of shape (d, q)
    gamma_ : ndarray of shape (q,)
    w_ : ndarray of shape (q, l)
    theta_ : ndarray of shape (l,)
    initial_params_ : BPParams
        The random start.
    loss_curve_ : ndarray of shape (n_iter_,)
        The training objective after each epoch: E of (3.12), or (3.13) with weight decay.
    error_curve_ : ndarray of shape (n_iter_,)
        E of (3.12) on the training samples after each epoch.
    validation_curve_ : ndarray
        With ``early_stopping``: E on the held-out samples after each epoch.
    best_epoch_ : int
        The epoch whose weights are kept with ``early_stopping`` (1-based).
    anneal_log_ : ndarray of shape (n_iter_, 3)
        With annealing: temperature, objective change of the move, accepted (1/0).
    generation_log_ : ndarray of shape (n_iter_, 2)
        With ``algorithm="genetic"``: the best and the mean objective of each generation,
        as the loop evaluated them (empty otherwise).
    param_history_ : list of BPParams or None
        With ``record_history``: the start and the parameters after each epoch.
    n_iter_ : int
    converged_, diverged_ : bool
    n_features_in_ : int

    References
    ----------
    003 §3.3 (3.3)-(3.13), §3.4.
    """

    def fit(self, X: ArrayLike, y: ArrayLike) -> BPClassifier:
        """Train on ``(X, y)``."""
        X, codes = validate_classification(self, X, y)
        k = self.classes_.shape[0]
        Y = codes[:, None].astype(float) if k == 2 else np.eye(k)[codes]
        self._train(X, Y)
        return self

    def predict_proba(self, X: ArrayLike) -> np.ndarray:
        """Class probabilities: ``(1 - y_hat, y_hat)`` for two classes; otherwise the
        output units normalised to sum 1 (the sigmoid outputs are not a distribution)."""
        out = self._outputs(X)
        if out.shape[1] == 1:
            return np.hstack([1.0 - out, out])
        total = out.sum(axis=1, keepdims=True)
        flat = total[:, 0] <= 0.0   # every output saturated at 0: no preference
        out[flat] = 1.0
        return out / np.where(flat[:, None], out.shape[1], total)

    def predict(self, X: ArrayLike) -> np.ndarray:
        """The class of the largest output (of the output above 1/2 for two classes)."""
        out = self._outputs(X)
        codes = (out[:, 0] > 0.5).astype(np.intp) if out.shape[1] == 1 else out.argmax(axis=1)
        return self.classes_[codes]


class BPRegressor(RegressorMixin, _BPNetwork):
    """A d-q-l sigmoid network trained by BP, as a regressor (003 §3.3).

    The outputs of (3.3) lie in (0, 1): each target column is mapped affinely onto
    [0.1, 0.9] (``y_scaled = 0.1 + 0.8 (y - min) / (max - min)`` over the training
    targets; a constant column maps to 0.1) and predictions are mapped back. ``y`` may
    be (n,) or (n, l). Parameters and attributes as :class:`BPClassifier`; in addition
    ``y_min_`` and ``y_range_`` (the map).

    References
    ----------
    003 §3.3 (3.3)-(3.13), §3.4.
    """

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.target_tags.multi_output = True
        return tags

    def fit(self, X: ArrayLike, y: ArrayLike) -> BPRegressor:
        """Train on ``(X, y)``."""
        X, y = validate_regression(self, X, y, multi_output=np.asarray(y).ndim == 2)
        check_squares_representable(y, "y")
        Y = y.reshape(X.shape[0], -1)
        self._y_1d = y.ndim == 1
        self.y_min_ = Y.min(axis=0)
        span = Y.max(axis=0) - self.y_min_
        self.y_range_ = np.where(span > 0, span, 1.0)
        Y = 0.1 + 0.8 * (Y - self.y_min_) / self.y_range_
        self._train(X, Y)
        return self

    def predict(self, X: ArrayLike) -> np.ndarray:
        """The network outputs mapped back to the scale of the targets."""
        out = self._outputs(X)
        pred = self.y_min_ + (out - 0.1) / 0.8 * self.y_range_
        return pred[:, 0] if self._y_1d else pred
