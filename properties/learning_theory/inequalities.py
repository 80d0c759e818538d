"""Claims of 003 §9.1: errors (9.1)-(9.3) and the inequalities (9.4)-(9.7).

Hoeffding (9.5) and McDiarmid (9.7) are checked by vectorised Monte Carlo over
bounded distributions that Hypothesis chooses (and steers, through
``hypothesis.target`` on the ratio observed/claimed, towards the tightest
cases); the decision rule is the Clopper-Pearson rule described in
:mod:`properties.learning_theory.support`. Each example simulates
``TRIALS`` independent samples in the ``quick`` profile; the ``thorough``
profile runs ten times as many examples (distributions) and multiplies the
samples per example by its scale, capped (``*_MAX_FACTOR``) to stay within
about a minute per claim.
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Callable

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from algorithms.learning_theory import FiniteProblem, hoeffding_tail, mcdiarmid_tail
from mltheory import Method, claim, evidence
from mltheory.numeric import EXACT_ARITHMETIC, Tolerance, assert_close, assert_leq
from mltheory.stats import check_probability_at_most
from mltheory.strategies import SeededGenerator, finite_floats, rngs
from properties.learning_theory.strategies import (
    BoundedDistribution,
    bounded_distributions,
    finite_learning_problems,
)
from properties.learning_theory.support import EVENT_MARGIN, bound_check

#: Simulated samples per Hypothesis example (a CP lower bound at 1 - 1e-6 is then
#: within about 0.02 of an observed frequency of 1/2).
TRIALS = 20_000
#: Largest trial multipliers (the profile's scale is used up to these). Measured under
#: ``thorough`` (scale 10, ten times the examples) on two shared cores: Hoeffding at the
#: full 10x (200 000 samples per example) takes ~32 s CPU, peak memory ~0.4 GB;
#: McDiarmid at 10x ~20 s. The caps only bind for a profile with a larger scale.
HOEFFDING_MAX_FACTOR = 10
MCDIARMID_MAX_FACTOR = 10

#: f(E x) and E f(x) are sums of at most 8 terms of size up to ~1e4 (exp(10)):
#: float64 rounding of such sums stays below 1e-11 relative.
JENSEN_ROUNDING = Tolerance(rtol=1e-10, atol=1e-12,
                            reason="two short weighted sums of values up to exp(10), float64")


# ---------------------------------------------------------------------------
# (9.1)-(9.3): generalisation error, empirical error, disagreement
# ---------------------------------------------------------------------------


def check_empirical_error_unbiased(problem, h, m: int, *,
                                   estimator: Callable[[np.ndarray, int], float] | None = None
                                   ) -> None:
    """E_D[Ê(h; D)] over all (x, y)^m sequences, enumerated exactly, equals E(h)."""
    fp = FiniteProblem(problem.p, problem.eta)
    n = fp.n_points
    # Joint law of one example: pairs (x, y) with y in {-1, +1}.
    pair_prob = np.concatenate([fp.p * (1.0 - fp.eta), fp.p * fp.eta])
    pair_wrong = np.concatenate([h == 1, h == -1]).astype(float)  # h(x) != y
    total_expectation = 0.0
    for seq in itertools.product(range(2 * n), repeat=m):
        seq = np.asarray(seq)
        mistakes = pair_wrong[seq]
        value = (estimator(mistakes, m) if estimator is not None
                 else float(np.sum(mistakes)) / m)
        total_expectation += float(np.prod(pair_prob[seq])) * value
    true_error = float(fp.true_errors(h[None, :])[0])
    evidence.add_examples(1)
    assert_close(total_expectation, true_error, EXACT_ARITHMETIC,
                 label="|E_D[Ê(h;D)] - E(h)|")


@claim(
    id="clt.empirical_error_unbiased",
    source="003 §9.1 (9.1); 003 §9.1 (9.2)",
    statement="For an i.i.d. sample D of size m, the expected empirical error E_D[Ê(h;D)] "
    "equals the generalisation error E(h) = P(h(x) != y).",
    method=Method.ENUMERATION,
    tags=("learning-theory", "pac"),
)
@given(problem=finite_learning_problems(max_points=3), data=st.data(),
       m=st.integers(1, 4))
def empirical_error_unbiased(problem, data, m):
    n = problem.p.size
    h = np.asarray(data.draw(st.lists(st.sampled_from([-1, 1]), min_size=n, max_size=n)))
    check_empirical_error_unbiased(problem, h, m)


def disagreement(p: np.ndarray, h1: np.ndarray, h2: np.ndarray) -> float:
    """d(h1, h2) = P_x(h1(x) != h2(x)) (9.3)."""
    return float(p @ (h1 != h2))


def check_disagreement_metric(p, H, *, distance=disagreement) -> None:
    h1, h2, h3 = H
    d12, d13, d23 = distance(p, h1, h2), distance(p, h1, h3), distance(p, h2, h3)
    assert 0.0 <= d12 <= 1.0 + 1e-12, d12
    assert distance(p, h1, h1) == 0.0
    assert_close(d12, distance(p, h2, h1), EXACT_ARITHMETIC, label="|d(h1,h2) - d(h2,h1)|")
    assert_leq(d13, d12 + d23, label="d(h1,h3) / (d(h1,h2) + d(h2,h3))",
               tol=EXACT_ARITHMETIC)


@claim(
    id="clt.disagreement_pseudometric",
    source="003 §9.1 (9.3)",
    statement="The disagreement d(h1,h2) = P_x(h1(x) != h2(x)) lies in [0,1], is symmetric, "
    "vanishes on the diagonal and satisfies the triangle inequality.",
    method=Method.PROPERTY,
    tags=("learning-theory",),
)
@given(problem=finite_learning_problems(max_points=10), data=st.data())
def disagreement_pseudometric(problem, data):
    n = problem.p.size
    H = [np.asarray(data.draw(st.lists(st.sampled_from([-1, 1]), min_size=n, max_size=n)))
         for _ in range(3)]
    check_disagreement_metric(problem.p, H)


# ---------------------------------------------------------------------------
# (9.4) Jensen
# ---------------------------------------------------------------------------


def convex_function(kind: str, params: list[float]) -> Callable[[np.ndarray], np.ndarray]:
    """A convex function of one variable from a small family (the kinks and curvatures vary)."""
    a, b, c = params
    if kind == "quadratic":
        return lambda x: abs(a) * x**2 + b * x + c
    if kind == "exponential":
        return lambda x: np.exp(np.clip(b, -1, 1) * x)
    if kind == "abs_power":
        power = 1.0 + abs(a) % 3.0
        return lambda x: np.abs(x - c) ** power
    if kind == "max_affine":
        return lambda x: np.maximum(np.maximum(a * x + b, -b * x + c), c * x - a)
    if kind == "softplus":
        return lambda x: np.logaddexp(0.0, b * x)
    raise ValueError(kind)


def check_jensen(atoms: np.ndarray, weights: np.ndarray, f) -> None:
    lhs = float(f(np.asarray(weights @ atoms)))
    rhs = float(weights @ f(atoms))
    evidence.worst("f(E x) - E f(x)", lhs - rhs)
    if lhs > rhs + float(JENSEN_ROUNDING.bound(np.asarray(lhs), np.asarray(rhs))):
        raise AssertionError(f"f(E x) = {lhs!r} exceeds E f(x) = {rhs!r}")


jensen_kinds = st.sampled_from(["quadratic", "exponential", "abs_power", "max_affine",
                                "softplus"])


@claim(
    id="clt.jensen",
    source="003 §9.1 (9.4)",
    statement="For every convex function f, f(E[x]) <= E[f(x)].",
    method=Method.PROPERTY,
    tags=("learning-theory", "inequality"),
)
@given(atoms=st.lists(finite_floats(10.0), min_size=1, max_size=8), data=st.data(),
       kind=jensen_kinds, params=st.lists(finite_floats(3.0), min_size=3, max_size=3))
def jensen(atoms, data, kind, params):
    atoms = np.asarray(atoms)
    raw = np.asarray(data.draw(st.lists(st.floats(1e-3, 1.0), min_size=atoms.size,
                                        max_size=atoms.size)))
    check_jensen(atoms, raw / raw.sum(), convex_function(kind, params))


# ---------------------------------------------------------------------------
# (9.5) Hoeffding
# ---------------------------------------------------------------------------


def check_both_tails(deviation: np.ndarray, epsilon: float, margin: float,
                     tail: Callable[..., float], *, statistic: str, bound: str,
                     context: str) -> None:
    """Decide both lines of a concentration inequality on simulated deviations:
    ``P(dev >= eps) <= tail()`` and ``P(|dev| >= eps) <= tail(two_sided=True)``, events
    counted with ``margin`` on the inside; ``statistic`` and ``bound`` name them in labels."""
    trials = deviation.size
    one = int(np.sum(deviation >= epsilon + margin))
    two = int(np.sum(np.abs(deviation) >= epsilon + margin))
    check_probability_at_most(one, trials, tail(),
                              label=f"P({statistic} - E {statistic} >= eps) vs {bound}",
                              context=context)
    check_probability_at_most(two, trials, tail(two_sided=True),
                              label=f"P(|{statistic} - E {statistic}| >= eps) vs 2 {bound}",
                              context=context)


def check_hoeffding(dists: list[BoundedDistribution], m: int, epsilon: float,
                    gen: SeededGenerator, *, tail: Callable[..., float] = hoeffding_tail,
                    trials: int = TRIALS) -> None:
    """Simulate m independent [0,1] variables (variable i from dists[i mod k]) and test
    both lines of (9.5) with the Clopper-Pearson rule."""
    means = np.array([d.mean for d in dists])
    x = np.empty((trials, m))
    for j, d in enumerate(dists):
        cols = [i for i in range(m) if i % len(dists) == j]
        if cols:
            x[:, cols] = d.sample(gen.generator, (trials, len(cols)))
    mu = float(np.mean([means[i % len(dists)] for i in range(m)]))
    evidence.note(f"Hoeffding: {trials} simulated samples per case; m, epsilon and the "
                  "[0,1] laws drawn by Hypothesis")
    plot = "Hoeffding (9.5): deviation frequency and bound against m, per example"
    observed = float(np.mean(np.abs(x.mean(axis=1) - mu) >= epsilon + EVENT_MARGIN))
    evidence.series("observed P(|mean - E mean| >= eps)", m, observed, kind="scatter",
                    plot=plot, xlabel="m", ylabel="probability")
    evidence.series("bound min(1, 2 exp(-2 m eps^2))", m,
                    min(1.0, tail(m, epsilon, two_sided=True)), kind="bound", plot=plot)
    evidence.series("observed P(|mean - E mean| >= eps)", tail(m, epsilon, two_sided=True),
                    observed, kind="scatter", xlabel="bound 2 exp(-2 m eps^2)",
                    ylabel="observed frequency", logx=True, reference="y=x",
                    plot="Hoeffding (9.5): deviation frequency against the bound, per example")
    check_both_tails(x.mean(axis=1) - mu, epsilon, EVENT_MARGIN,
                     functools.partial(tail, m, epsilon), statistic="mean",
                     bound="exp(-2 m eps^2)", context=f"m={m}, eps={epsilon!r}: ")


_BERNOULLI_HALF = BoundedDistribution(np.array([0.0, 1.0]), np.array([0.5, 0.5]))
hoeffding_cases = dict(
    dists=st.lists(bounded_distributions(), min_size=1, max_size=3),
    m=st.integers(1, 60),
    epsilon=st.floats(0.01, 0.99),
    gen=rngs(),
)
#: Bernoulli(1/2) cases where the tail is near Hoeffding's bound (the normal tail
#: beats exp(-4 m eps^2) once 2 eps sqrt(m) > 1.9): they pin the teeth.
HOEFFDING_PINNED = [
    dict(dists=[_BERNOULLI_HALF], m=1, epsilon=0.45, gen=SeededGenerator(1)),
    dict(dists=[_BERNOULLI_HALF], m=36, epsilon=0.2, gen=SeededGenerator(2)),
]


def hoeffding_check(tail: Callable[..., float]):
    """The Hypothesis check of (9.5) for a given tail function (the claim's or a broken one)."""
    return bound_check(check_hoeffding, hoeffding_cases, HOEFFDING_PINNED, trials=TRIALS,
                       max_factor=HOEFFDING_MAX_FACTOR, tail=tail)


hoeffding = claim(
    id="clt.hoeffding",
    source="003 §9.1 (9.5)",
    statement="For m independent variables in [0,1] and any eps > 0: "
    "P(mean - E mean >= eps) <= exp(-2 m eps^2) and "
    "P(|mean - E mean| >= eps) <= 2 exp(-2 m eps^2).",
    method=Method.SIMULATION,
    tags=("learning-theory", "inequality", "simulation", "bound"),
)(hoeffding_check(hoeffding_tail))


# ---------------------------------------------------------------------------
# (9.6)-(9.7) McDiarmid
# ---------------------------------------------------------------------------


def mcdiarmid_statistic(kind: str, dist: BoundedDistribution, m: int, weights: np.ndarray,
                        gen: SeededGenerator, trials: int):
    """Simulated values of f, its exact mean and its bounded differences c_i (9.6).

    - ``weighted_sum``: f = sum_i a_i x_i, c_i = a_i * (max atom - min atom);
    - ``maximum``: f = max_i x_i, c_i = max atom - min atom;
    - ``distinct``: f = number of distinct atoms among the m draws, c_i = 1.
    """
    cdf = np.cumsum(dist.weights)
    cdf[-1] = 1.0
    idx = np.minimum(np.searchsorted(cdf, gen.generator.random((trials, m)), side="right"),
                     dist.atoms.size - 1)
    x = dist.atoms[idx]
    spread = float(dist.atoms.max() - dist.atoms.min())
    if kind == "weighted_sum":
        return x @ weights, dist.mean * float(weights.sum()), weights * spread
    if kind == "maximum":
        values, cum = dist.cdf_at_atoms()
        prev = np.concatenate([[0.0], cum[:-1]])
        exact = float(np.sum(values * (cum**m - prev**m)))
        return x.max(axis=1), exact, np.full(m, spread)
    if kind == "distinct":
        seen = np.zeros((trials, dist.atoms.size), dtype=bool)
        seen[np.repeat(np.arange(trials), m), idx.ravel()] = True
        exact = float(np.sum(1.0 - (1.0 - dist.weights) ** m))
        return seen.sum(axis=1).astype(float), exact, np.ones(m)
    raise ValueError(kind)


def check_mcdiarmid(kind: str, dist: BoundedDistribution, m: int, weights: list[float],
                    t: float, gen: SeededGenerator, *, tail: Callable[..., float] = mcdiarmid_tail,
                    trials: int = TRIALS) -> None:
    """Test both lines of (9.7) at eps = t * sqrt(sum c_i^2)."""
    a = np.resize(np.asarray(weights, dtype=float), m)
    f, mean, c = mcdiarmid_statistic(kind, dist, m, a, gen, trials)
    norm = float(np.sqrt(np.sum(c**2)))
    if norm == 0.0:
        return  # a constant f: both probabilities are 0
    epsilon = t * norm
    margin = EVENT_MARGIN * max(1.0, float(np.sum(np.abs(a))), float(m))
    evidence.note(f"McDiarmid: {trials} simulated samples per case; f in "
                  "{weighted sum, maximum, number of distinct values}, law, m and eps drawn "
                  "by Hypothesis; E f computed exactly")
    check_both_tails(f - mean, epsilon, margin, functools.partial(tail, c, epsilon),
                     statistic="f", bound="exp(-2 eps^2 / sum c_i^2)",
                     context=f"{kind}, m={m}, eps={epsilon!r}: ")


mcdiarmid_cases = dict(
    kind=st.sampled_from(["weighted_sum", "maximum", "distinct"]),
    dist=bounded_distributions(),
    m=st.integers(1, 40),
    weights=st.lists(st.floats(0.0, 1.0), min_size=1, max_size=5),
    t=st.floats(0.01, 2.0),
    gen=rngs(),
)
MCDIARMID_PINNED = [
    dict(kind="weighted_sum", dist=_BERNOULLI_HALF, m=1, weights=[1.0], t=0.45,
         gen=SeededGenerator(3)),
    dict(kind="weighted_sum", dist=_BERNOULLI_HALF, m=36, weights=[1.0], t=1.2,
         gen=SeededGenerator(4)),
]


def mcdiarmid_check(tail: Callable[..., float]):
    """The Hypothesis check of (9.7) for a given tail function (the claim's or a broken one)."""
    return bound_check(check_mcdiarmid, mcdiarmid_cases, MCDIARMID_PINNED, trials=TRIALS,
                       max_factor=MCDIARMID_MAX_FACTOR, tail=tail)


mcdiarmid = claim(
    id="clt.mcdiarmid",
    source="003 §9.1 (9.6); 003 §9.1 (9.7)",
    statement="If changing the i-th of m independent arguments changes f by at most c_i, then "
    "P(f - E f >= eps) <= exp(-2 eps^2 / sum c_i^2) and "
    "P(|f - E f| >= eps) <= 2 exp(-2 eps^2 / sum c_i^2).",
    method=Method.SIMULATION,
    tags=("learning-theory", "inequality", "simulation", "bound"),
)(mcdiarmid_check(mcdiarmid_tail))
