"""Shared check bodies of the ensemble claims (003 Chapter 6), reused by the teeth tests.

No claims are registered here. Every body takes the formula or bound it tests as a
parameter (defaulting to the correct one), so a teeth test runs the same body on a
broken variant: a dropped weight, a halved constant, a flipped inequality.

Exact references: contingency-table measures, the error-ambiguity terms and the
majority-vote error are recomputed in rational arithmetic (:mod:`fractions`) from their
definitions, independently of :mod:`algorithms.ensembles`.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from itertools import product

import mpmath
import numpy as np
from sklearn.base import clone

from algorithms.ensembles import (
    ContingencyTable,
    ErrorAmbiguity,
    IntegratedErrorAmbiguity,
    correlation,
    error_ambiguity,
    integrated_error_ambiguity,
    kappa,
    majority_vote_error,
    majority_vote_hoeffding_bound,
    q_statistic,
)
from mltheory import evidence
from mltheory.numeric import EXACT_ARITHMETIC, Tolerance, assert_close, assert_leq
from mltheory.stats import clopper_pearson, decide_at_most

__all__ = [
    "ExactMeasures",
    "LiteralAdaBoost",
    "check_literal_run",
    "check_matches_literal",
    "notes_adaboost",
    "stump_learner",
    "check_ambiguity_identity",
    "check_ensemble_error_at_most_mean",
    "check_integrated_identity",
    "check_bootstrap_members",
    "check_hoeffding_evaluation",
    "check_majority_error_reference",
    "check_majority_bound",
    "check_majority_vanishes",
    "check_q_versus_rho",
    "enumerated_majority_error",
    "exact_ambiguity_terms",
    "exact_measures",
    "kappa_checked",
    "magnitude",
]


def magnitude(*arrays: np.ndarray) -> float:
    """``max(1, max |entries|)^2``: the size of the squared errors formed from the arrays
    (the scale float64 rounding is relative to)."""
    largest = max(float(np.max(np.abs(a))) if np.size(a) else 0.0 for a in arrays)
    return max(1.0, largest) ** 2


# ---------------------------------------------------------------------------
# Error-ambiguity decomposition (6.22)-(6.27)
# ---------------------------------------------------------------------------


def exact_ambiguity_terms(h: Sequence[Fraction], f: Fraction, w: Sequence[Fraction]
                          ) -> tuple[Fraction, Fraction, Fraction]:
    """``(A_bar, E_bar, E)`` at one point from the definitions, in rationals."""
    H = sum((wi * hi for wi, hi in zip(w, h, strict=True)), Fraction(0))
    A_bar = sum((wi * (hi - H) ** 2 for wi, hi in zip(w, h, strict=True)), Fraction(0))
    E_bar = sum((wi * (f - hi) ** 2 for wi, hi in zip(w, h, strict=True)), Fraction(0))
    return A_bar, E_bar, (f - H) ** 2


def _mean_minus_ensemble(ea: ErrorAmbiguity) -> np.ndarray:
    return ea.mean_error - ea.ensemble_error


def check_ambiguity_identity(
    outputs: np.ndarray, target: np.ndarray, weights: np.ndarray, *,
    simplex: bool = True,
    rhs: Callable[[ErrorAmbiguity], np.ndarray] = _mean_minus_ensemble,
) -> None:
    """(6.25) at every point: ``A_bar(h|x) = E_bar(h|x) - E(H|x)`` (``rhs`` gives the
    right-hand side from the computed terms)."""
    ea = error_ambiguity(outputs, target, weights, simplex=simplex)
    assert_close(ea.ambiguity, rhs(ea), EXACT_ARITHMETIC, scale=magnitude(outputs, target),
                 label="|A_bar - (E_bar - E)| / max(1, |values|)^2",
                 context="error-ambiguity decomposition (6.25): ")


def check_ensemble_error_at_most_mean(ensemble_error: np.ndarray, mean_error: np.ndarray,
                                      *, scale: float, label: str) -> None:
    """``E <= E_bar`` elementwise; the tightness ``E / E_bar`` (1 when the members agree)
    is recorded and steers the search."""
    E, E_bar = np.atleast_1d(ensemble_error), np.atleast_1d(mean_error)
    positive = E_bar > 0
    if np.any(positive):
        evidence.worst(f"{label}: E / E_bar", float(np.max(E[positive] / E_bar[positive])))
    i = int(np.argmax(E - E_bar))
    tol = Tolerance(rtol=0.0, atol=1e-12 * scale,
                    reason="E and E_bar are short sums of squares of size <= scale; float64 "
                    "rounding stays below 1e-12 * scale")
    assert_leq(E[i], E_bar[i], label=f"{label}: E <= E_bar at the worst point", tol=tol,
               context="E <= E_bar: ")


def _weighted_ambiguity_rhs(terms: IntegratedErrorAmbiguity, weights: np.ndarray) -> float:
    return terms.mean_error - terms.ensemble_error


def check_integrated_identity(
    outputs: np.ndarray, target: np.ndarray, weights: np.ndarray, p: np.ndarray, *,
    rhs: Callable[[IntegratedErrorAmbiguity, np.ndarray], float] = _weighted_ambiguity_rhs,
) -> IntegratedErrorAmbiguity:
    """(6.26)-(6.27) on the distribution ``p`` over the points:
    ``sum_i w_i A_i = sum_i w_i E_i - E`` (``rhs`` gives the printed right-hand side)."""
    terms = integrated_error_ambiguity(outputs, target, weights, p)
    assert_close(terms.ambiguity, rhs(terms, weights), EXACT_ARITHMETIC,
                 scale=magnitude(outputs, target),
                 label="|A_bar - (E_bar - E)| / max(1, |values|)^2 (integrated)",
                 context="integrated decomposition (6.26)-(6.27): ")
    return terms


# ---------------------------------------------------------------------------
# Pairwise diversity measures (6.28)-(6.32)
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class ExactMeasures:
    """The measures of one table in rationals (``rho`` through its square and sign);
    ``None`` where a denominator vanishes."""

    dis: Fraction
    rho_squared: Fraction | None
    rho_sign: int
    q: Fraction | None
    p1: Fraction
    p2: Fraction
    kappa: Fraction | None


def exact_measures(t: ContingencyTable) -> ExactMeasures:
    a, b, c, d, m = t.a, t.b, t.c, t.d, t.m
    cov = a * d - b * c
    prod = (a + b) * (a + c) * (c + d) * (b + d)
    p1 = Fraction(a + d, m)
    p2 = Fraction((a + b) * (a + c) + (c + d) * (b + d), m * m)
    return ExactMeasures(
        dis=Fraction(b + c, m),
        rho_squared=Fraction(cov * cov, prod) if prod else None,
        rho_sign=(cov > 0) - (cov < 0),
        q=Fraction(cov, a * d + b * c) if a * d + b * c else None,
        p1=p1, p2=p2,
        kappa=(p1 - p2) / (1 - p2) if p2 != 1 else None,
    )


def _q_at_least_rho(q_squared: Fraction, rho_squared: Fraction) -> bool:
    return q_squared >= rho_squared


def check_q_versus_rho(
    t: ContingencyTable, *,
    relation: Callable[[Fraction, Fraction], bool] = _q_at_least_rho,
    name: str = "|Q| >= |rho|", same_sign: bool = True,
) -> None:
    """Where both are defined: ``sign(Q) = sign(rho)`` (if ``same_sign``) and
    ``relation(Q^2, rho^2)``, decided exactly in rationals."""
    ex = exact_measures(t)
    if ex.q is None or ex.rho_squared is None:
        return
    q_val, rho_val = q_statistic(t), correlation(t)
    if same_sign:
        assert np.sign(q_val) == np.sign(rho_val) == ex.rho_sign, (
            f"sign(Q) = {np.sign(q_val)} but sign(rho) = {np.sign(rho_val)} on {t}")
    if ex.q != 0:
        evidence.worst("|rho| / |Q| (1 = equal magnitudes)",
                       math.sqrt(ex.rho_squared / (ex.q * ex.q)))
    assert relation(ex.q * ex.q, ex.rho_squared), (
        f"{name} fails on {t}: Q = {ex.q} ({q_val:.6g}), rho = {rho_val:.6g}")


def kappa_checked(t: ContingencyTable) -> float | None:
    """kappa of the implementation, compared with the exact value (None if undefined)."""
    ex = exact_measures(t)
    if ex.kappa is None:
        return None
    value = kappa(t)
    assert_close(value, float(ex.kappa), EXACT_ARITHMETIC, label="|kappa - exact kappa|")
    return value


# ---------------------------------------------------------------------------
# Majority vote of independent classifiers (6.1)-(6.3)
# ---------------------------------------------------------------------------


def enumerated_majority_error(T: int, eps: Fraction) -> Fraction:
    """``P(H(x) != f(x))`` for ``H = sign(sum_i h_i)`` by enumerating all ``2^T`` patterns
    of independent mistakes (each with probability ``eps``); ``sign(0) = 0`` is wrong."""
    total = Fraction(0)
    for pattern in product((0, 1), repeat=T):  # 1 = h_i wrong
        wrong = sum(pattern)
        vote = (T - wrong) - wrong  # f(x) * sum_i h_i(x)
        if vote <= 0:
            total += eps**wrong * (1 - eps) ** (T - wrong)
    return total


def check_majority_bound(T: int, eps: float, *,
                         bound: Callable[[int, float], float] = majority_vote_hoeffding_bound
                         ) -> None:
    """(6.3): the exact majority-vote error is at most ``bound(T, eps)``."""
    exact = majority_vote_error(T, eps)
    rhs = bound(T, eps)
    tol = Tolerance(rtol=1e-10, atol=1e-300,
                    reason="scipy's binomial CDF (incomplete beta) is accurate to ~1e-14 "
                    "relative; the exponential to a few ulps")
    assert_leq(exact, rhs, label="majority error / Hoeffding bound", tol=tol,
               context=f"T={T}, eps={eps!r}: ")


#: scipy's binomial CDF (a regularised incomplete beta in float64) against 60 digits.
BINOMIAL_CDF = Tolerance(rtol=1e-10, atol=1e-300,
                         reason="scipy's binomial CDF (incomplete beta) is accurate to ~1e-14 "
                         "relative; kept at the tolerance of the bound's check")


def check_majority_error_reference(
    T: int, eps: Fraction, *,
    error: Callable[..., float | Fraction] = majority_vote_error,
) -> None:
    """(6.3) for large ``T``: ``error(T, eps, exact=True)`` is the binomial tail
    ``P(Bin(T, 1 - eps) <= floor(T/2)) = I_eps(T - floor(T/2), floor(T/2) + 1)`` (mpmath's
    regularised incomplete beta at 60 digits, no code shared) to 40 digits, and the float
    evaluation ``error(T, float(eps))`` agrees within :data:`BINOMIAL_CDF`."""
    K = T // 2
    with mpmath.workdps(60):
        x = mpmath.mpf(eps.numerator) / eps.denominator
        ref = mpmath.betainc(T - K, K + 1, 0, x, regularized=True)
        exact = error(T, eps, exact=True)
        value = mpmath.mpf(exact.numerator) / exact.denominator
        gap = abs(value - ref)
        assert gap <= mpmath.mpf(10) ** -40 * ref, (
            f"T={T}, eps={eps}: the exact sum {mpmath.nstr(value, 20)} differs from the "
            f"binomial tail {mpmath.nstr(ref, 20)}")
        evidence.worst("|exact sum - incomplete beta| / value",
                       float(gap / ref) if ref > 0 else float(gap))
    assert_close(error(T, float(eps)), float(ref), BINOMIAL_CDF,
                 label="|scipy binomial CDF - 60 digits|", context=f"T={T}, eps={eps}: ")


#: The float64 evaluation of exp(-T (1 - 2 eps)^2 / 2) against 50 digits: a few roundings
#: of an exponent of size up to ~745 (exp amplifies its absolute error ~1e-16 * 745).
HOEFFDING_EVALUATION = Tolerance(rtol=1e-12, atol=0.0,
                                 reason="exp of an exponent up to ~745 carries its rounding "
                                 "(~1e-16 relative) times 745 into the result")


def check_hoeffding_evaluation(T: int, eps: float, *,
                               bound: Callable[[int, float], float] = majority_vote_hoeffding_bound
                               ) -> None:
    """``bound(T, eps)`` is ``exp(-T (1 - 2 eps)^2 / 2)`` within :data:`HOEFFDING_EVALUATION`
    of a 50-digit value, exactly 0 below half the smallest subnormal, and within one
    subnormal step in the subnormal range."""
    value = bound(T, eps)
    with mpmath.workdps(50):
        exact = mpmath.exp(-mpmath.mpf(T) * (1 - 2 * mpmath.mpf(eps)) ** 2 / 2)
    if exact < mpmath.mpf(np.finfo(float).smallest_subnormal) / 2:
        assert value == 0.0, f"T={T}, eps={eps!r}: {value!r}, true value {exact}"
        return
    if exact < np.finfo(float).tiny:  # subnormal: absolute precision of one subnormal step
        assert abs(value - float(exact)) <= np.finfo(float).smallest_subnormal * 2
        return
    assert_close(value, float(exact), HOEFFDING_EVALUATION, label="|bound - 50 digits|",
                 context=f"T={T}, eps={eps!r}: ")


def check_majority_vanishes(eps: Fraction, delta: float, *, constant: float = 2.0) -> None:
    """The exact error falls strictly along odd T (up to 41) and is at most ``delta`` at the
    first odd ``T >= constant ln(1/delta) / (1 - 2 eps)^2`` (Hoeffding's ``constant`` is 2).

    The headroom is large by nature: Hoeffding's exponential misses the factor of order
    ``1 / (z sqrt(2 pi))``, ``z = sqrt(2 ln(1/delta))``, of the binomial tail (about 8 at
    ``delta = 1e-2``, 60 at ``1e-8``).
    """
    errors = [majority_vote_error(T, eps, exact=True) for T in range(1, 42, 2)]
    for T, (a, b) in zip(range(1, 42, 2), zip(errors, errors[1:], strict=False), strict=False):
        assert b < a, f"eps={eps}: error {a} at T={T} does not drop at T={T + 2} ({b})"
    T_star = math.ceil(constant * math.log(1 / delta) / (1 - 2 * float(eps)) ** 2)
    T_star += 1 - T_star % 2  # odd
    err = majority_vote_error(T_star, float(eps))
    evidence.worst("error at T* / delta", err / delta)
    evidence.note("headroom loose by nature: Hoeffding's exp(-T (1 - 2 eps)^2 / 2) lacks the "
                  "binomial tail's factor ~1/(z sqrt(2 pi)), z = sqrt(2 ln(1/delta))")
    assert_leq(err, delta, label="error at T* / delta", context=f"eps={eps}, T*={T_star}: ")


# ---------------------------------------------------------------------------
# AdaBoost (Fig 8.3, (6.9)-(6.16)): checks on the histories the loop recorded
# ---------------------------------------------------------------------------

#: Products and quotients of up to a few hundred exponentials and normalisations of
#: weights that may span ~1e-30..1: float64 rounding stays below 1e-10 relative.
BOOSTING_ROUNDING = Tolerance(rtol=1e-10, atol=1e-14,
                              reason="a few hundred float64 multiplications/normalisations "
                              "of exponentials; rounding below 1e-10 relative")


def signed_labels(est, y: np.ndarray) -> np.ndarray:
    """``f(x_i)`` in {-1, +1} as the fitted AdaBoost codes them (``classes_[1]`` is +1)."""
    return np.where(np.asarray(y) == est.classes_[1], 1, -1)


def _exp_update(D: np.ndarray, alpha: float, f: np.ndarray, h: np.ndarray, Z: float):
    return D * np.exp(-alpha * f * h) / Z


def check_weight_update(est, y: np.ndarray, *, update=_exp_update) -> None:
    """Fig 8.3 lines 4-7 on the recorded history: eps_t = D_t(mistakes), Z_t the sum of
    the unnormalised weights, D_{t+1} = D_t e^{-+alpha_t}/Z_t case by case (``update``
    computes the next distribution from ``(D_t, alpha_t, f, h_t, Z_t)``), D_{t+1} sums to 1
    and puts exactly 1/2 on h_t's mistakes."""
    f = signed_labels(est, y)
    D, H = est.distributions_, est.train_predictions_
    for t in range(est.alphas_.shape[0]):
        Dt, ht, alpha, Z = D[t], H[t], est.alphas_[t], est.normalisers_[t]
        wrong = ht != f
        assert_close(est.errors_[t], float(np.sum(Dt[wrong])), BOOSTING_ROUNDING,
                     label="|eps_t - D_t(h_t != f)|")
        assert_close(Z, float(np.sum(Dt * np.exp(-alpha * f * ht))), BOOSTING_ROUNDING,
                     label="|Z_t - sum D_t exp(-alpha f h)|")
        casewise = Dt / Z * np.where(wrong, np.exp(alpha), np.exp(-alpha))
        nxt = update(Dt, alpha, f, ht, Z)
        assert_close(nxt, casewise, BOOSTING_ROUNDING, label="|exp form - case form|")
        assert_close(D[t + 1], casewise, BOOSTING_ROUNDING, label="|recorded D_{t+1} - line 7|")
        assert_close(float(np.sum(D[t + 1])), 1.0, BOOSTING_ROUNDING, label="|sum D_{t+1} - 1|")
        if 0.0 < est.errors_[t] < 0.5:
            assert_close(float(np.sum(D[t + 1][wrong])), 0.5, BOOSTING_ROUNDING,
                         label="|D_{t+1}(h_t's mistakes) - 1/2|")


def cumulative_margins(est) -> np.ndarray:
    """``f(x_i) H_t(x_i)`` is built from these: row t holds ``H_t = sum_{s<=t} alpha_s h_s``
    on the training points (row 0: ``H_0 = 0``), shape (n_rounds + 1, m)."""
    steps = est.alphas_[:, None] * est.train_predictions_
    return np.vstack([np.zeros(steps.shape[1]), np.cumsum(steps, axis=0)])


def _alpha_of_round(est, t: int) -> float:
    return float(est.alphas_[t])


def check_distribution_recursion(est, y: np.ndarray, *, alpha=_alpha_of_round) -> None:
    """(6.13): D_t = D_1 e^{-f H_{t-1}} / E_{D_1}[e^{-f H_{t-1}}] equals the recorded D_t, and
    (6.16): D_{t+1} = D_t e^{-f alpha h_t} E[e^{-f H_{t-1}}] / E[e^{-f H_t}] (``alpha(est, t)``
    gives the weight used in the factor) equals the recorded D_{t+1}."""
    f = signed_labels(est, y)
    D1, H = est.distributions_[0], cumulative_margins(est)
    norm = [float(np.sum(D1 * np.exp(-f * Ht))) for Ht in H]  # E_D[e^{-f H_t}]
    for t in range(est.alphas_.shape[0]):
        via_6_13 = D1 * np.exp(-f * H[t]) / norm[t]
        assert_close(est.distributions_[t], via_6_13, BOOSTING_ROUNDING,
                     label="|D_t - (6.13)|", context=f"round {t + 1}: ")
        via_6_16 = (est.distributions_[t] * np.exp(-f * alpha(est, t) * est.train_predictions_[t])
                    * norm[t] / norm[t + 1])
        assert_close(est.distributions_[t + 1], via_6_16, BOOSTING_ROUNDING,
                     label="|D_{t+1} - (6.16)|", context=f"round {t + 1}: ")


def exp_loss(D: np.ndarray, f: np.ndarray, H: np.ndarray) -> float:
    """``l_exp(H | D) = E_{x ~ D}[e^{-f(x) H(x)}]`` (6.5) on a finite distribution."""
    return float(np.sum(D * np.exp(-f * H)))


def check_training_error_bound(est, y: np.ndarray, *, factor: float = 1.0,
                               scale: float = 1.0) -> None:
    """The training error of ``sign(H_T)`` under ``D_1`` is at most
    ``l_exp(H_T | D_1) = prod_t Z_t <= exp(-2 sum_t (1/2 - eps_t)^2)`` (``factor``
    scales the exponent of the last bound, ``scale`` the bound itself)."""
    f = signed_labels(est, y)
    D1 = est.distributions_[0]
    H_T = cumulative_margins(est)[-1]
    train_error = float(np.sum(D1[np.where(H_T > 0, 1, -1) != f]))
    loss = exp_loss(D1, f, H_T)
    assert_close(loss, float(np.prod(est.normalisers_)), BOOSTING_ROUNDING,
                 label="|l_exp(H_T) - prod Z_t|")
    gamma = 0.5 - est.errors_
    bound = scale * math.exp(-2.0 * factor * float(np.sum(gamma**2)))
    assert_leq(train_error, loss, label="training error / l_exp(H_T)", tol=BOOSTING_ROUNDING)
    assert_leq(loss, bound, label="prod Z_t / exp(-2 sum gamma_t^2)", tol=BOOSTING_ROUNDING)


@dataclass(frozen=True)
class LiteralAdaBoost:
    """What Fig 8.3 computes, line by line: ``eps_t``, ``alpha_t`` and ``D_1..D_{t+1}``."""

    errors: np.ndarray
    alphas: np.ndarray
    distributions: np.ndarray  # (rounds + 1, m)


def stump_learner(X: np.ndarray, f: np.ndarray, D: np.ndarray) -> np.ndarray:
    """Line 3's ``h_t = L(D, D_t)`` with L a CART stump fitted with sample weights ``D``;
    returns ``h_t(x_i)`` in {-1, +1}."""
    from algorithms.trees import DecisionTreeClassifier

    return DecisionTreeClassifier(criterion="gini", max_depth=1).fit(
        X, f, sample_weight=D).predict(X)


def notes_adaboost(X: np.ndarray, f: np.ndarray, T: int, *,
                   zero_error_alpha: Callable[[list], float] | None = None,
                   learner: Callable = stump_learner) -> LiteralAdaBoost:
    """Fig 8.3 (003 §6.2) run literally in float64.

    Line 1 ``D_1 = 1/m``; for t = 1..T: line 3 ``h_t = L(D, D_t)``; line 4 ``eps_t`` the
    D_t-weight of h_t's mistakes; line 5 break if ``eps_t > 0.5``; line 6 ``alpha_t =
    1/2 ln((1 - eps_t)/eps_t)``; line 7 ``D_{t+1} = D_t exp(-alpha_t f h_t) / Z_t``.
    As printed, line 6 at ``eps_t = 0`` gives ``alpha_t = +inf`` and line 7 ``0/0``.
    ``zero_error_alpha(previous alphas)``, when given, is the weight used instead at
    ``eps_t = 0``, after which the loop stops (the rule of :class:`AdaBoostClassifier`).
    """
    m = f.shape[0]
    D = np.full(m, 1.0 / m)
    errors, alphas, dists = [], [], [D]
    for _t in range(T):
        h = learner(X, f, D)
        eps = np.float64(np.sum(D[h != f]))
        if eps > 0.5:
            break
        stop = eps == 0.0 and zero_error_alpha is not None
        with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
            alpha = zero_error_alpha(alphas) if stop else 0.5 * np.log((1.0 - eps) / eps)
            unnormalised = D * np.exp(-alpha * f * h)
            D = unnormalised / np.sum(unnormalised)
        errors.append(float(eps))
        alphas.append(float(alpha))
        dists.append(D)
        if stop or not np.all(np.isfinite(D)):
            break  # no learner can be fitted on a NaN distribution (line 3)
    return LiteralAdaBoost(np.asarray(errors), np.asarray(alphas), np.vstack(dists))


def check_literal_run(run: LiteralAdaBoost) -> None:
    """Every alpha_t of the run is a finite number and every D_{t+1} a probability
    distribution (finite, non-negative, summing to 1)."""
    for t, alpha in enumerate(run.alphas):
        D = run.distributions[t + 1]
        assert math.isfinite(alpha), f"round {t + 1}: eps_t = {run.errors[t]!r} gives " \
            f"alpha_t = {alpha!r}"
        assert np.all(np.isfinite(D)) and np.all(D >= 0), \
            f"round {t + 1}: D_{t + 2} = {D[:4]!r}... is not a distribution"
        assert_close(float(D.sum()), 1.0, BOOSTING_ROUNDING, label="|sum D_{t+1} - 1|")


def check_matches_literal(est, run: LiteralAdaBoost) -> None:
    """The estimator's recorded eps_t, alpha_t and D_t equal the literal run's."""
    rounds = est.errors_.shape[0]
    assert run.errors.shape[0] == rounds, (
        f"the literal Fig 8.3 runs {run.errors.shape[0]} rounds, the estimator {rounds} "
        f"(stop reason {est.stop_reason_!r})")
    assert_close(est.errors_, run.errors, BOOSTING_ROUNDING, label="|eps_t - Fig 8.3 line 4|")
    assert_close(est.alphas_, run.alphas, BOOSTING_ROUNDING, label="|alpha_t - Fig 8.3 line 6|")
    assert_close(est.distributions_, run.distributions, BOOSTING_ROUNDING,
                 label="|D_t - Fig 8.3 line 7|")


# ---------------------------------------------------------------------------
# Bagging / random forests: out-of-bag estimate against a held-out error
# ---------------------------------------------------------------------------

#: Confidence of each Clopper-Pearson interval in the OOB decision rule.
OOB_CONFIDENCE = 1.0 - 1e-6


@dataclass(frozen=True)
class ErrorCounts:
    """Pooled over replications: errors of the estimate (OOB or another) on the points it
    covers, and errors of the fitted ensemble on a large fresh held-out sample."""

    estimate_errors: int
    estimate_n: int
    heldout_errors: int
    heldout_n: int


def check_bootstrap_members(bag, base, X: np.ndarray, y: np.ndarray, X_new: np.ndarray, *,
                            sample: Callable[[np.ndarray], np.ndarray] | None = None) -> None:
    """Fig 8.5 line 2, h_t = L(D, D_bs): every member predicts as a fresh copy of ``base``
    fitted on member t's bootstrap sample, the rows of D repeated by the recorded in-bag
    counts (``sample(counts)`` gives the row indices; default ``np.repeat``)."""
    m = X.shape[0]
    counts = np.asarray(bag.in_bag_counts_)
    assert counts.shape == (len(bag.estimators_), m), counts.shape
    assert np.all(counts.sum(axis=1) == m), "a bootstrap sample must hold m draws"
    rows_of = sample or (lambda c: np.repeat(np.arange(m), c))
    codes = np.searchsorted(bag.classes_, y)
    for t, h in enumerate(bag.estimators_):
        idx = rows_of(counts[t])
        if np.unique(codes[idx]).shape[0] == 1:  # a one-class sample: the constant learner
            expected = np.full(X_new.shape[0], codes[idx][0])
        else:
            expected = clone(base).fit(X[idx], codes[idx]).predict(X_new)
        got = np.asarray(h.predict(X_new))
        assert np.array_equal(got, expected), (
            f"member {t} differs from L on its bootstrap sample at "
            f"{int(np.count_nonzero(got != expected))} of {X_new.shape[0]} points")


def oob_counts(est, X: np.ndarray, y: np.ndarray) -> tuple[int, int]:
    """(errors, covered) of the ensemble's recorded out-of-bag prediction."""
    covered = est.oob_prediction_ >= 0
    wrong = est.classes_[est.oob_prediction_[covered]] != y[covered]
    return int(np.sum(wrong)), int(np.sum(covered))


def resubstitution_counts(est, X: np.ndarray, y: np.ndarray) -> tuple[int, int]:
    """(errors, n) of the ensemble on its own training points (a broken 'estimate')."""
    return int(np.sum(est.predict(X) != y)), int(y.shape[0])


def simulate_estimate(make, draw, rng: np.random.Generator, *, replications: int,
                      m: int, m_test: int, counts=oob_counts) -> ErrorCounts:
    """Fit ``make(rng)`` on ``replications`` fresh training sets of size ``m`` from
    ``draw(n, rng)``; pool ``counts`` (the estimate) and the held-out errors."""
    k = n = j = total = 0
    for _ in range(replications):
        X, y = draw(m, rng)
        Xt, yt = draw(m_test, rng)
        est = make(rng).fit(X, y)
        errors, covered = counts(est, X, y)
        k, n = k + errors, n + covered
        j, total = j + int(np.sum(est.predict(Xt) != yt)), total + m_test
    return ErrorCounts(k, n, j, total)


def check_estimate_agrees(c: ErrorCounts, tolerance: float, *, label: str) -> None:
    """Decision rule: the estimate and the held-out error *disagree by more than*
    ``tolerance`` iff their Clopper-Pearson intervals (each at 1 - 1e-6, the estimate's
    indicators treated as independent Bernoulli trials) are more than ``tolerance`` apart.
    """
    lo_e, hi_e = clopper_pearson(c.estimate_errors, c.estimate_n, OOB_CONFIDENCE)
    lo_h, hi_h = clopper_pearson(c.heldout_errors, c.heldout_n, OOB_CONFIDENCE)
    est_rate, held_rate = c.estimate_errors / c.estimate_n, c.heldout_errors / c.heldout_n
    separation = max(lo_e - hi_h, lo_h - hi_e)  # > 0: the intervals are disjoint
    evidence.worst(f"{label}: |estimate - held-out|", abs(est_rate - held_rate))
    evidence.worst(f"{label}: interval separation - tolerance", separation - tolerance)
    text = (f"{label}: estimate {c.estimate_errors}/{c.estimate_n} = {est_rate:.4f} "
            f"[{lo_e:.4f}, {hi_e:.4f}], held-out {c.heldout_errors}/{c.heldout_n} = "
            f"{held_rate:.4f} [{lo_h:.4f}, {hi_h:.4f}] (Clopper-Pearson at 1 - 1e-6 each), "
            f"tolerance {tolerance}")
    evidence.note(text)
    assert separation <= tolerance, "the estimate and the held-out error disagree: " + text


def check_tendency(successes: int, trials: int, *, label: str) -> None:
    """A tendency 'P(event) > 1/2' is established only if the one-sided Clopper-Pearson
    lower bound at 1 - 1e-6 exceeds 1/2 (no evidence is not evidence)."""
    decision = decide_at_most(successes, trials, 0.5)
    evidence.worst(f"{label}: CP lower bound", decision.lower, larger_is_worse=False)
    evidence.note(f"{label}: {successes}/{trials}; {decision.describe()}")
    assert decision.refuted, (f"{label}: the tendency is not established: {successes}/"
                              f"{trials}, lower bound {decision.lower:.4f} <= 1/2")


def tree_signature(est) -> tuple:
    """The fitted tree's structure (features, thresholds, children, leaf values)."""
    t = est.tree_
    thresholds = np.nan_to_num(t.threshold, nan=np.inf)  # leaves: no threshold
    return (tuple(t.feature.tolist()), tuple(thresholds.tolist()),
            tuple(t.first_child.tolist()), tuple(t.n_children.tolist()))
