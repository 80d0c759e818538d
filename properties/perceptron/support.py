"""Shared pieces of the perceptron claims: fitting helpers, the reference margin
solver, and the check bodies that teeth tests reuse on broken variants."""

from __future__ import annotations

import warnings
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction

import cvxpy as cp
import numpy as np
from sklearn.exceptions import ConvergenceWarning

from algorithms.perceptron import DualPerceptron, Perceptron, PocketPerceptron
from mltheory import evidence
from mltheory.numeric import EXACT_ARITHMETIC, Tolerance, assert_close, assert_leq
from mltheory.strategies import LabelledData

#: Passes over the data before a PLA run in a claim is cut off. Bounds checked on
#: every prefix of the run stay valid for a cut-off run, so the cap only limits cost.
PASS_CAP = 400

#: Float sums of up to ~1e4 updates of vectors with entries up to ~1e3: the
#: accumulated rounding is far below 1e-9 relative.
ACCUMULATED_ROUNDING = Tolerance(
    rtol=1e-9,
    atol=1e-9,
    reason="PLA weights are sums of up to 1e4 float64 updates; rounding accumulates "
    "to well below 1e-9 relative",
)


def reference_engine(estimator: type) -> type:
    """``estimator`` running its step-by-step Python reference loop (``_engine =
    "python"``) instead of the compiled kernel: the same algorithm written a second time,
    which claims run next to the compiled one."""
    return type(f"Python{estimator.__name__}", (estimator,), {"_engine": "python"})


#: The primal, dual and pocket perceptrons on their Python reference loops.
PythonPerceptron = reference_engine(Perceptron)
PythonDualPerceptron = reference_engine(DualPerceptron)
PythonPocketPerceptron = reference_engine(PocketPerceptron)


def dyadic(data: LabelledData) -> LabelledData:
    """``data`` with coordinates rounded to a 1/8 grid below 2^10: with dyadic steps every
    sum and product a PLA run forms is a multiple of 2^-12 far below 2^53, so float64
    computes it exactly, in any summation order (two codes then see the same mistakes,
    even at margins of exactly 0)."""
    return LabelledData(X=np.clip(np.round(data.X * 8) / 8, -1024, 1024), y=data.y)


def fit_pla(
    data: LabelledData, *, eta: float = 1.0, order: str = "cyclic", random_state: int = 0,
    max_iter: int = PASS_CAP, estimator: type[Perceptron] = Perceptron,
) -> Perceptron:
    """Primal PLA from zero, with the run's convergence warning silenced (a cut-off run
    is still a valid prefix for every bound checked). ``estimator`` is the class run
    (teeth tests pass deliberately broken subclasses)."""
    est = estimator(eta=eta, order=order, random_state=random_state, max_iter=max_iter)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        est.fit(data.X, data.y)
    return est


@dataclass(frozen=True)
class Run:
    """An augmented view of a fitted primal run: x_hat_i = (x_i, 1), w_hat_t = (w_t, b_t).

    ``W`` is the history the training loop recorded as it ran (``weight_history_``),
    never a reconstruction from the update indices.
    """

    X_hat: np.ndarray  # (N, d+1)
    y: np.ndarray  # (N,) in {-1, +1}
    W: np.ndarray  # (k+1, d+1): w_hat_0 .. w_hat_k
    idx: np.ndarray  # (k,): sample used by update t (from w_hat_{t-1} to w_hat_t)
    eta: float

    @property
    def k(self) -> int:
        return int(self.idx.shape[0])


def run_of(est: Perceptron, data: LabelledData, eta: float) -> Run:
    """The recorded run of a fitted primal perceptron, checked to be complete: one
    recorded iterate per update plus the start, the last one the final weights (the
    returned ``w_hat_`` of PLA, ``last_w_hat_`` of a pocket run, which returns the pocket)."""
    y = np.where(data.y == est.classes_[1], 1, -1)
    W = np.asarray(est.weight_history_, dtype=float)
    idx = np.asarray(est.update_indices_, dtype=int)
    assert W.shape == (idx.shape[0] + 1, data.n_features + 1), (
        f"recorded history of shape {W.shape} for {idx.shape[0]} updates"
    )
    final = getattr(est, "last_w_hat_", est.w_hat_)
    assert np.array_equal(W[-1], final), "the final weights are not the last recorded iterate"
    return Run(X_hat=data.augmented(), y=y, W=W, idx=idx, eta=float(eta))


def pla_run(data: LabelledData, *, eta: float = 1.0, order: str = "cyclic",
            max_iter: int = PASS_CAP, estimator: type[Perceptron] = Perceptron) -> Run:
    """The recorded run of primal PLA from zero (:func:`fit_pla`) on ``data``."""
    est = fit_pla(data, eta=eta, order=order, max_iter=max_iter, estimator=estimator)
    return run_of(est, data, eta)


def max_margin_separator(X_hat: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, float]:
    """The unit-norm w_hat maximising min_i y_i w_hat . x_hat_i (an SOCP, solved by cvxpy).

    The margin returned is recomputed from the normalised solution, so it is a
    *feasible* margin (never above the true optimum, whatever the solver's accuracy).
    """
    w = cp.Variable(X_hat.shape[1])
    t = cp.Variable()
    problem = cp.Problem(cp.Maximize(t), [cp.multiply(y, X_hat @ w) >= t, cp.norm(w, 2) <= 1])
    problem.solve()
    if w.value is None:
        raise RuntimeError(f"max-margin SOCP failed: status {problem.status}")
    w_hat = np.asarray(w.value, dtype=float)
    w_hat = w_hat / np.linalg.norm(w_hat)
    return w_hat, float(np.min(y * (X_hat @ w_hat)))


def best_margin(data, X_hat: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, float]:
    """The larger of the drawn separator's margin and the max-margin solution's."""
    w_ref, g_ref = data.separator, data.margin
    try:
        w_opt, g_opt = max_margin_separator(X_hat, y)
    except (RuntimeError, cp.error.SolverError):
        return w_ref, g_ref
    return (w_opt, g_opt) if g_opt > g_ref else (w_ref, g_ref)


def check_pla_steps(run: Run) -> None:
    """Every recorded step is a PLA update: w_hat_t - w_hat_{t-1} = eta y_i x_hat_i for the
    recorded sample i, which w_hat_{t-1} misclassifies (y_i w_hat_{t-1} . x_hat_i <= 0)."""
    if not run.k:
        return
    xs, ys = run.X_hat[run.idx], run.y[run.idx]
    expected = run.W[:-1] + run.eta * ys[:, None] * xs
    assert_close(run.W[1:], expected, ACCUMULATED_ROUNDING, label="recorded step - eta y x_hat")
    products = ys[:, None] * run.W[:-1] * xs
    margins = np.sum(products, axis=1)
    # The loop's mistake test summed the same products in another order (a matrix
    # product over a block of rows): a zero margin may come out here as +-eps * |terms|.
    rounding = EXACT_ARITHMETIC.rtol * np.sum(np.abs(products), axis=1)
    bad = np.flatnonzero(margins > rounding)
    assert bad.size == 0, (
        f"update {bad[0] + 1} was made on a correctly classified point (margin "
        f"{margins[bad[0]]!r})" if bad.size else ""
    )


def check_novikoff(run: Run, gamma: float, *, scale: float = 1.0, power: float = 2.0) -> None:
    """Mistakes k of a primal run from zero satisfy k <= scale (R/gamma)^power (the
    theorem: scale 1, power 2; teeth tests pass other constants)."""
    R = float(np.max(np.linalg.norm(run.X_hat, axis=1)))
    assert_leq(run.k, scale * (R / gamma) ** power, label="mistakes k / (R/gamma)^2",
               tol=EXACT_ARITHMETIC, context=f"R={R:.6g}, gamma={gamma:.6g}: ")


def _violations(lhs: np.ndarray, rhs: np.ndarray, *, lower: bool) -> np.ndarray:
    """Indices where ``lhs >= rhs`` (``lower``) or ``lhs <= rhs`` fails beyond rounding."""
    slack = ACCUMULATED_ROUNDING.bound(lhs, rhs)
    return np.flatnonzero(lhs < rhs - slack if lower else lhs > rhs + slack)


def _headroom(label: str, lhs: np.ndarray, rhs: np.ndarray, *, lower: bool) -> None:
    """Headroom of ``lhs >= rhs`` (min lhs/rhs) or ``lhs <= rhs`` (min rhs/lhs), over the
    entries with a positive denominator side (the others are not bound by a ratio)."""
    num, den = (lhs, rhs) if lower else (rhs, lhs)
    ok = den > 0
    if np.any(ok):
        evidence.headroom(label, float(np.min(num[ok] / den[ok])))


def check_alignment_steps(run: Run, w_opt: np.ndarray, gamma: float, *,
                          scale: float = 1.0) -> None:
    """Every update raises the alignment by at least eta gamma: w_hat_t . w_hat_opt >=
    w_hat_{t-1} . w_hat_opt + scale eta gamma ||w_hat_opt|| (the proof's step: scale 1)."""
    if not run.k:
        return
    a = run.W @ w_opt
    lhs, rhs = a[1:], a[:-1] + scale * run.eta * gamma * float(np.linalg.norm(w_opt))
    _headroom("alignment gain / (eta gamma) per step", lhs - a[:-1], rhs - a[:-1], lower=True)
    bad = _violations(lhs, rhs, lower=True)
    assert bad.size == 0, (
        f"update {bad[0] + 1}: w_hat_t . w_opt = {lhs[bad[0]]!r} < w_hat_(t-1) . w_opt + "
        f"eta gamma = {rhs[bad[0]]!r}" if bad.size else ""
    )


def check_norm_steps(run: Run, *, scale: float = 1.0) -> None:
    """Every update grows the squared norm by at most eta^2 R^2: ||w_hat_t||^2 <=
    ||w_hat_{t-1}||^2 + scale eta^2 max_n ||x_hat_n||^2 (the proof's step: scale 1)."""
    if not run.k:
        return
    sq = np.sum(run.W**2, axis=1)
    lhs, rhs = sq[1:], sq[:-1] + scale * run.eta**2 * radius_squared(run)
    _headroom("eta^2 R^2 / norm growth per step", lhs - sq[:-1], rhs - sq[:-1], lower=False)
    bad = _violations(lhs, rhs, lower=False)
    assert bad.size == 0, (
        f"update {bad[0] + 1} grew ||w||^2 from {sq[bad[0]]!r} to {lhs[bad[0]]!r}, more than "
        f"eta^2 R^2" if bad.size else ""
    )


def check_alignment_lemma(run: Run, w_opt: np.ndarray, gamma: float, *,
                          scale: float = 1.0) -> None:
    """w_hat_k . w_hat_opt >= scale k eta gamma for every k (001 §二.3, first inequality)."""
    ks = np.arange(run.W.shape[0])
    lhs = run.W @ w_opt
    rhs = scale * ks * run.eta * gamma
    _headroom("(w_k . w_opt) / (k eta gamma)", lhs[1:], rhs[1:], lower=True)
    bad = _violations(lhs, rhs, lower=True)
    if bad.size:
        k = int(bad[0])
        raise AssertionError(f"w_hat_{k} . w_hat_opt = {lhs[k]!r} < k*eta*gamma = {rhs[k]!r}")


def check_norm_lemma(run: Run, squared_radius: Callable[[Run], float], *,
                     scale: float = 1.0) -> None:
    """||w_hat_k||^2 <= scale k eta^2 S for every k, with S = squared_radius(run)."""
    ks = np.arange(run.W.shape[0])
    lhs = np.sum(run.W**2, axis=1)
    rhs = scale * ks * run.eta**2 * squared_radius(run)
    _headroom("(k eta^2 R^2) / ||w_k||^2", lhs[1:], rhs[1:], lower=False)
    bad = _violations(lhs, rhs, lower=False)
    if bad.size:
        k = int(bad[0])
        raise AssertionError(f"||w_hat_{k}||^2 = {lhs[k]!r} > k*eta^2*bound = {rhs[k]!r}")


def novikoff_check(
    data, eta: float, order: str, seed: int, *, estimator: type[Perceptron] = Perceptron,
    scale: float = 1.0, power: float = 2.0,
) -> Run:
    """The body of ``perceptron.novikoff_bound``, read from the iterates the loop recorded:
    every step a PLA update on a mistake, each step's alignment gain >= eta gamma and
    norm growth <= eta^2 R^2, and k <= scale (R/gamma)^power (the theorem: 1 and 2)."""
    run = run_of(fit_pla(data, eta=eta, order=order, random_state=seed, estimator=estimator),
                 data, eta)
    w_opt, gamma = best_margin(data, run.X_hat, run.y)
    check_pla_steps(run)
    check_alignment_steps(run, w_opt, gamma)
    check_norm_steps(run)
    check_novikoff(run, gamma, scale=scale, power=power)
    return run


def radius_squared(run: Run) -> float:
    """R^2 = max_i ||x_hat_i||^2 (augmented inputs)."""
    return float(np.max(np.sum(run.X_hat**2, axis=1)))


def perceptron_loss(X_hat: np.ndarray, y: np.ndarray, w_hat: np.ndarray) -> float:
    """L(w, b) = -sum over M of y_i (w . x_i + b), M = {i : y_i (w . x_i + b) < 0} (004 §5.2)."""
    m = y * (X_hat @ w_hat)
    return float(-np.sum(m[m < 0]))


def check_cosine_growth(run: Run, w_f: np.ndarray, *, scale: float = 1.0) -> None:
    """cos(angle(w_f, w_T)) >= scale sqrt(T) rho / R after every update T (from w_0 = 0)."""
    if not run.k:
        return
    rho = float(np.min(run.y * (run.X_hat @ w_f)) / np.linalg.norm(w_f))
    R = float(np.sqrt(radius_squared(run)))
    W = run.W[1:]
    cos = (W @ w_f) / (np.linalg.norm(W, axis=1) * np.linalg.norm(w_f))
    lower = scale * np.sqrt(np.arange(1, run.k + 1)) * rho / R
    _headroom("cos / (sqrt(T) rho/R)", cos, lower, lower=True)
    bad = _violations(cos, lower, lower=True)
    assert bad.size == 0, (
        f"after update {bad[0] + 1}: cos = {cos[bad[0]]!r} < sqrt(T) rho/R = {lower[bad[0]]!r}"
        if bad.size else ""
    )


def check_margin_gain(run: Run, *, bias_term: float = 1.0) -> None:
    """Each recorded update raises the margin of its point by exactly
    eta (||x||^2 + bias_term) > 0 (the 1 of the bias coordinate: bias_term = 1)."""
    before, after = run.W[:-1], run.W[1:]
    xs, ys = run.X_hat[run.idx], run.y[run.idx]
    gain = ys * np.sum(after * xs, axis=1) - ys * np.sum(before * xs, axis=1)
    expected = run.eta * (np.sum(xs[:, :-1] ** 2, axis=1) + bias_term)
    assert np.all(gain > 0), gain
    assert_close(gain, expected, ACCUMULATED_ROUNDING, label="margin gain error")


def check_updates_on_mistakes(run: Run, margins: np.ndarray) -> None:
    """The reported margin sequence is y_n w_t . x_hat_n of each update, and never positive."""
    before, xs, ys = run.W[:-1], run.X_hat[run.idx], run.y[run.idx]
    products = ys[:, None] * before * xs
    recomputed = np.sum(products, axis=1)
    # The loop scored blocks of rows with a matrix product, this sums in another order:
    # both round at about eps times the sum of the products' magnitudes.
    scale = float(np.max(np.sum(np.abs(products), axis=1))) if run.k else 0.0
    assert_close(margins, recomputed, EXACT_ARITHMETIC, label="margin sequence", scale=scale)
    assert np.all(margins <= 0), f"update on a correctly classified point: margin {margins.max()!r}"


#: Relative rounding of a float64 dot product of d <= 3 terms plus b, with room to spare:
#: each product and sum rounds by at most 2^-53 of the running total of magnitudes.
SCORE_ROUNDING = Fraction(8, 2**53)


def check_predict_is_sign(w: np.ndarray, b: float, rows: list[list[float]], *,
                          estimator: type[Perceptron] = Perceptron) -> None:
    """A model holding exactly (w, b) predicts classes_[1] where the exact rational score
    w.x + b is >= 0 (sign(0) = +1), on every row whose score float64 can resolve: an exact
    zero from small-integer coordinates, or a score beyond the rounding of its terms."""
    if not np.any(w):
        return  # no hyperplane
    # Started at (w, b) on two points it separates, the model makes no update.
    shift = (abs(b) + 1.0) * w / float(w @ w)
    est = estimator(w_init=w, b_init=b).fit(np.vstack([shift, -shift]), [1, -1])
    assert est.n_updates_ == 0 and np.array_equal(est.coef_, w) and est.intercept_ == b
    predicted = est.predict(np.asarray(rows, dtype=float))
    for x, label in zip(rows, predicted, strict=True):
        terms = [Fraction(wi) * Fraction(xi) for wi, xi in zip(w, x, strict=True)]
        exact = sum(terms, Fraction(b))
        if exact == 0:  # float64 gets an exact 0 when every term is a small integer
            resolvable = all(float(xi).is_integer() and abs(xi) <= 8 for xi in x)
        else:
            resolvable = abs(exact) > SCORE_ROUNDING * sum(
                (abs(t) for t in terms), abs(Fraction(b)))
        if resolvable:
            assert label == (1 if exact >= 0 else -1), (
                f"x = {x}: exact score {float(exact)!r} but predicted {label}")
