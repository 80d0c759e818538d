"""Shared check bodies and simulations for the learning-theory claims (003 Chapter 9).

No claims are registered here. Every check body is a plain function
parameterised by the bound it tests, so a claim and its teeth test (the same
body run on a deliberately broken bound) share the code.

Decision rule for every simulated probability: the claim ``P(event) <= bound``
is refuted only when the one-sided Clopper-Pearson lower confidence bound on
the event's probability, at confidence 1 - 1e-6, exceeds the bound
(:func:`mltheory.stats.check_probability_at_most`). A true bound is therefore
refuted with probability at most 1e-6 per decision, and since all randomness is
seeded (the claim's ``rng`` or a Hypothesis-drawn seed), a verdict never flakes.

Events are counted with a margin of ``EVENT_MARGIN`` on the inside, so float
rounding can never inflate a count: a rounding error could only make a check
slightly weaker, never refute a true bound.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from hypothesis import example, given
from hypothesis.strategies import SearchStrategy
from scipy import stats

from algorithms.learning_theory import threshold_rademacher
from mltheory import evidence
from mltheory.stats import ProbabilityDecision, decide_at_most

__all__ = [
    "EVENT_MARGIN",
    "ScenarioDraw",
    "bound_check",
    "check_excess_bound",
    "check_sup_and_learner",
    "decide_at_most_recorded",
    "excess_headroom",
    "expected_abs_walk",
    "memoriser_scenario",
    "scaled_trials",
    "scenario_grid",
    "single_hypothesis_scenario",
    "threshold_scenario",
    "with_examples",
]

#: Deviations are compared as ``value > bound + EVENT_MARGIN``: values are sums of at
#: most ~1e4 terms of size <= 1, so float64 rounding stays far below 1e-9.
EVENT_MARGIN = 1e-9


@dataclass(frozen=True)
class ScenarioDraw:
    """Per-trial quantities of a simulated learning problem.

    ``gap_learner`` is ``E(h) - Ê(h)`` of the learner's output, ``gap_sup`` the
    supremum of ``E(h) - Ê(h)`` over the whole class and ``abs_sup`` the
    supremum of ``|E(h) - Ê(h)|``; ``rademacher_empirical`` is ``R̂_D(H)`` per
    trial, ``rademacher`` the expected ``R_m(H)``; ``growth`` maps a sample size
    to ``Pi_H``; ``vc`` is the VC dimension.
    """

    m: int
    gap_learner: np.ndarray
    gap_sup: np.ndarray
    abs_sup: np.ndarray
    rademacher_empirical: np.ndarray
    rademacher: float
    growth: Callable[[int], int]
    vc: int
    description: str
    tag: str


def threshold_scenario(m: int, t_star: float, noise: float, n_trials: int,
                       rng: np.random.Generator) -> ScenarioDraw:
    """Thresholds ``h_t(x) = +1 iff x >= t`` (VC 1), x ~ U[0, 1], noisy threshold target.

    The target labels x by ``t_star`` and flips each label with probability
    ``noise < 1/2``, so ``E(h_t) = noise + (1 - 2 noise) |t - t_star|`` exactly.
    Between consecutive sorted sample points the empirical error is constant and
    ``E`` is convex, so the suprema over the class are attained (as limits) at
    interval ends: computed exactly for every trial. The learner is ERM (lowest
    empirical error, first interval on ties, threshold at the interval midpoint).
    ``R̂_D(H)`` equals ``R_m(H)`` for every sample of distinct points.
    """
    x = np.sort(rng.random((n_trials, m)), axis=1)
    clean = np.where(x >= t_star, 1, -1)
    y = np.where(rng.random((n_trials, m)) < noise, -clean, clean)
    # errors_k for t in (x_(k), x_(k+1)]: the k lowest points are labelled -1.
    pos_below = np.concatenate([np.zeros((n_trials, 1)), np.cumsum(y == 1, axis=1)], axis=1)
    neg_above = np.concatenate([np.cumsum((y == -1)[:, ::-1], axis=1)[:, ::-1],
                                np.zeros((n_trials, 1))], axis=1)
    emp = (pos_below + neg_above) / m  # (n_trials, m + 1)
    lo = np.concatenate([np.zeros((n_trials, 1)), x], axis=1)
    hi = np.concatenate([x, np.ones((n_trials, 1))], axis=1)

    def true_error(t: np.ndarray) -> np.ndarray:
        return noise + (1.0 - 2.0 * noise) * np.abs(t - t_star)

    e_max = np.maximum(true_error(lo), true_error(hi))
    e_min = true_error(np.clip(t_star, lo, hi))
    gap_sup = np.max(e_max - emp, axis=1)
    abs_sup = np.maximum(gap_sup, np.max(emp - e_min, axis=1))
    k = np.argmin(emp, axis=1)
    rows = np.arange(n_trials)
    t_hat = (lo[rows, k] + hi[rows, k]) / 2.0
    gap_learner = true_error(t_hat) - emp[rows, k]
    rad = threshold_rademacher(m)
    return ScenarioDraw(
        m=m, gap_learner=gap_learner, gap_sup=gap_sup, abs_sup=abs_sup,
        rademacher_empirical=np.full(n_trials, rad), rademacher=rad,
        growth=lambda size: size + 1, vc=1,
        description=f"thresholds on U[0,1], target t*={t_star:.3g}, label noise {noise:.3g}, "
        f"ERM learner, m={m}, {n_trials} trials",
        tag=f"thresholds m={m} noise={noise:g}",
    )


def single_hypothesis_scenario(m: int, q: float, n_trials: int,
                               rng: np.random.Generator) -> ScenarioDraw:
    """A class of one hypothesis with true error ``q``: ``Ê ~ Binomial(m, q) / m``.

    Its Rademacher complexity is 0, so a Rademacher bound reduces to its confidence
    term, which Hoeffding's inequality makes nearly tight here: the scenario where the
    ``sqrt(ln(1/delta)/(2m))`` terms are exercised (the memoriser exercises the
    complexity terms).
    """
    emp = rng.binomial(m, q, size=n_trials) / m
    gap = q - emp
    return ScenarioDraw(
        m=m, gap_learner=gap, gap_sup=gap, abs_sup=np.abs(gap),
        rademacher_empirical=np.zeros(n_trials), rademacher=0.0,
        growth=lambda size: 1, vc=0,
        description=f"a single hypothesis with E(h)={q:g} (R = 0), m={m}, {n_trials} trials",
        tag=f"single h m={m} E={q:g}",
    )


def excess_headroom(gap: np.ndarray, excess: np.ndarray | float, delta: float) -> float:
    """The largest ``c`` for which ``P(gap > excess / c) <= delta`` is not refuted here.

    With ``r = gap / excess`` per trial, the bound divided by ``c`` is refuted by the
    Clopper-Pearson rule exactly when more than ``k*`` trials have ``r > 1/c``, ``k*``
    the largest event count the rule accepts at ``delta``; so ``c`` is ``1 / r`` at the
    ``(k* + 1)``-th largest ratio (``inf`` when that ratio is <= 0).
    """
    excess_arr = np.broadcast_to(np.asarray(excess, dtype=float), np.shape(gap))
    ratio = np.sort(np.asarray(gap, dtype=float) / np.maximum(excess_arr, 1e-300))[::-1]
    n = ratio.size
    lo, hi = 0, n  # decide_at_most(lo) is accepted; find the largest accepted count
    if not decide_at_most(n, n, min(1.0, delta)).refuted:
        return math.inf
    while hi - lo > 1:
        mid = (lo + hi) // 2
        lo, hi = (mid, hi) if not decide_at_most(mid, n, min(1.0, delta)).refuted else (lo, mid)
    worst = float(ratio[lo])
    return 1.0 / worst if worst > 0 else math.inf


def scenario_grid(thresholds: Sequence[tuple[int, float, float]],
                  memorisers: Sequence[tuple[int, int]], n_trials: int,
                  rng: np.random.Generator) -> list[ScenarioDraw]:
    """One draw per scenario of a grid, in this order: a :func:`threshold_scenario` per
    ``(m, t_star, noise)``, then a :func:`memoriser_scenario` per ``(n_points, m)``."""
    out = [threshold_scenario(m, t, noise, n_trials, rng) for m, t, noise in thresholds]
    out += [memoriser_scenario(n, m, n_trials, rng) for n, m in memorisers]
    return out


def expected_abs_walk(counts: np.ndarray) -> np.ndarray:
    """``E|sigma_1 + ... + sigma_c|`` for Rademacher signs, elementwise in the count c.

    ``sum = 2B - c`` with ``B ~ Binomial(c, 1/2)``; exact, via the pmf.
    """
    counts = np.asarray(counts, dtype=int)
    top = int(counts.max(initial=0))
    table = np.zeros(top + 1)
    for c in range(1, top + 1):
        b = np.arange(c + 1)
        table[c] = float(np.sum(stats.binom.pmf(b, c, 0.5) * np.abs(2 * b - c)))
    return table[counts]


def memoriser_scenario(n_points: int, m: int, n_trials: int, rng: np.random.Generator, *,
                       adversarial: bool = True) -> ScenarioDraw:
    """All functions on a uniform finite domain (VC = n_points), a memorising learner.

    The target is a fixed labelling ``c``; the learner returns the training
    labels on seen points (``Ê = 0``) and ``-c`` (``adversarial``) or ``+c``
    elsewhere, so ``E(h)`` is the mass of the unseen points (or 0). Every
    labelling is in the class, so the supremum of ``E - Ê`` is the unseen mass
    too, and ``|E - Ê|`` attains it. ``R̂_D(H) = (1/m) sum_x E|S_{c_x}|`` with
    ``c_x`` the number of copies of x in the sample (exact), and
    ``R_m(H) = (1/m) sum_x E_{c ~ Bin(m, 1/n)} E|S_c|`` (exact).
    """
    idx = rng.integers(0, n_points, size=(n_trials, m))
    bins = (idx + n_points * np.arange(n_trials)[:, None]).ravel()  # one per (trial, point)
    counts = np.bincount(bins, minlength=n_trials * n_points).reshape(n_trials, n_points)
    unseen = np.mean(counts == 0, axis=1)
    gap = unseen if adversarial else np.zeros(n_trials)
    rad_emp = expected_abs_walk(counts).sum(axis=1) / m
    c = np.arange(m + 1)
    rad = float(n_points * np.sum(stats.binom.pmf(c, m, 1.0 / n_points)
                                  * expected_abs_walk(c)) / m)
    return ScenarioDraw(
        m=m, gap_learner=gap, gap_sup=unseen, abs_sup=unseen,
        rademacher_empirical=rad_emp, rademacher=rad,
        growth=lambda size: 2 ** min(size, n_points), vc=n_points,
        description=f"all functions on {n_points} uniform points (VC {n_points}), "
        f"{'adversarial' if adversarial else 'benign'} memoriser, m={m}, {n_trials} trials",
        tag=f"memoriser n={n_points} m={m}",
    )


def scaled_trials(base: int, scale: int, max_factor: int) -> int:
    """Simulated trials per Hypothesis example: ``base * min(scale, max_factor)``.

    ``scale`` is the profile's (1 in ``quick``, which therefore keeps ``base``; 10 in
    ``thorough``). The thorough profile also runs ten times as many Hypothesis examples,
    so a claim's time grows like ``10 * factor``; ``max_factor`` caps the factor where
    ``scale`` itself would take a claim beyond about 60 s on two shared cores. The size
    used is written to the evidence notes.
    """
    factor = max(1, min(int(scale), int(max_factor)))
    trials = base * factor
    capped = f", factor capped at {max_factor} for run time" if scale > max_factor else ""
    evidence.note(f"simulation size: {base} x {factor} = {trials} trials per Hypothesis example "
                  f"(profile scale {scale}{capped})")
    return trials


def decide_at_most_recorded(events: int, trials: int, claimed: float, *, label: str,
                            tag: str) -> ProbabilityDecision:
    """The Clopper-Pearson decision of ``P <= claimed`` with per-scenario evidence.

    One metric per label (the worst observed/claimed ratio over scenarios) and one
    note per scenario with the counts and the confidence bound.
    """
    decision = decide_at_most(events, trials, min(1.0, claimed))
    ratio = decision.observed / decision.claimed if decision.claimed > 0 else math.inf
    evidence.worst(f"{label}: observed/claimed", ratio)
    evidence.note(f"{label} [{tag}]: {decision.describe()}")
    if decision.refuted:
        raise AssertionError(f"{label} [{tag}]: {decision.describe()}")
    return decision


def check_excess_bound(draw: ScenarioDraw, which: str, excess: np.ndarray | float, delta: float,
                       *, label: str) -> None:
    """Decide ``P(gap > excess) <= delta`` for the gap named ``which`` of a scenario.

    ``which`` is ``"learner"``, ``"sup"`` or ``"abs"``; ``excess`` is the bound's
    term beyond the empirical error (per trial or one number).
    """
    gap = {"learner": draw.gap_learner, "sup": draw.gap_sup, "abs": draw.abs_sup}[which]
    excess_arr = np.broadcast_to(np.asarray(excess, dtype=float), gap.shape)
    events = int(np.sum(gap > excess_arr + EVENT_MARGIN))
    evidence.worst(f"{label}: largest gap / excess term",
                   float(np.max(gap / np.maximum(excess_arr, 1e-300))))
    evidence.headroom(f"{label}: excess term", excess_headroom(gap, excess_arr, delta))
    evidence.add_examples(gap.size)
    decide_at_most_recorded(events, gap.size, delta, label=label,
                            tag=f"{draw.tag}, delta={delta:g}, excess "
                            f"{float(np.min(excess_arr)):.4g}, largest gap "
                            f"{float(np.max(gap)):.4g}")


def check_sup_and_learner(draw: ScenarioDraw, excess: np.ndarray | float, delta: float,
                          term: str) -> None:
    """Decide a uniform bound ``E(h) - Ê(h) <= Ê-free term`` both ways it is used: for the
    supremum over the class and for the learner's output (``term`` names the bound's
    term in the labels, e.g. ``"(9.23) term"``)."""
    check_excess_bound(draw, "sup", excess, delta, label=f"P(sup_h E-Ê > {term})")
    check_excess_bound(draw, "learner", excess, delta, label=f"P(E-Ê of learner > {term})")


def binomial_upper_tail(m: int, q: float, count: int) -> float:
    """``P(Binomial(m, q) >= count)``."""
    if count <= 0:
        return 1.0
    if count > m:
        return 0.0
    return float(stats.binom.sf(count - 1, m, q))


def fraction_ceil(value) -> int:
    """Exact ceiling of a :class:`fractions.Fraction`."""
    return -((-value.numerator) // value.denominator)


def log_ratio(a: float, b: float) -> float:
    """``ln(a / b)`` guarded for zeros (evidence only)."""
    return math.log(a / b) if a > 0 and b > 0 else float("-inf")


def with_examples(pinned: Sequence[dict[str, Any]]) -> Callable[[Callable], Callable]:
    """Apply ``@example`` for each pinned case (in the listed order)."""
    def decorate(func: Callable) -> Callable:
        for case in reversed(pinned):
            func = example(**case)(func)
        return func
    return decorate


def bound_check(body: Callable[..., None], strategies: dict[str, SearchStrategy],
                pinned: Sequence[dict[str, Any]] = (), *, trials: int | None = None,
                max_factor: int = 1, **fixed: Any) -> Callable[..., None]:
    """The Hypothesis check that runs ``body(**drawn, **fixed)`` on the cases drawn from
    ``strategies`` (keyword strategies, drawn in their order) and on the ``pinned`` cases.

    With ``trials``, the check takes the profile's ``scale`` and the body also gets
    ``trials=scaled_trials(trials, scale, max_factor)``. ``fixed`` holds the piece a
    claim and its teeth test choose differently (the bound, the rate, a constant). The
    check is reported under the module of ``body``, like a check written there.
    """
    if trials is None:
        def check(**drawn: Any) -> None:
            body(**drawn, **fixed)
    else:
        def check(scale: int, **drawn: Any) -> None:
            body(**drawn, **fixed, trials=scaled_trials(trials, scale, max_factor))
    check.__module__ = body.__module__
    check.__qualname__ = check.__name__ = f"{body.__name__}_check"
    return given(**strategies)(with_examples(pinned)(check))
