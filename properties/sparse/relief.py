"""Relief (003 §10.2 (10.3)) and Relief-F ((10.4)): the relevance statistic against an
independent per-sample loop, its printed index slip, the ranking of informative over
noise attributes in simulation, and the class weighting p_l of (10.4)."""

from __future__ import annotations

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from algorithms.sparse import Relief, ReliefF, relief_scores, relieff_scores
from mltheory import ErratumKind, Expect, Method, claim, evidence
from mltheory.stats import check_probability_at_least
from properties.sparse.strategies_selection import relief_samples
from properties.sparse.support_selection import (
    RELIEF_ATOL,
    check_relief_statistic,
    naive_relief,
    printed_relief,
)


def relief_of(X, y, discrete):
    return relief_scores(X, y, discrete_features=discrete)


def relieff_proportion(X, y, discrete):
    return relieff_scores(X, y, discrete_features=discrete, miss_weighting="proportion")


def relieff_normalized(X, y, discrete):
    return relieff_scores(X, y, discrete_features=discrete, miss_weighting="normalized")


@claim(
    id="relief.statistic_10_3_as_printed",
    source="003 §10.2 (10.3)",
    statement="(As printed) sigma^j = sum_j [-diff(x_i^j, x_{i,nh}^j)^2 + "
    "diff(x_i^j, x_{i,nm}^j)^2] is the relevance of attribute j, i.e. the per-attribute "
    "statistic the text describes (summed over the samples).",
    method=Method.PROPERTY,
    tags=("sparse", "relief", "erratum"),
    expect=Expect.REFUTED,
    kind=ErratumKind.SYMBOL,
    corrected_by="relief.statistic_10_3",
    explanation="The printed sum runs over j, the attribute index of sigma^j itself, "
    "leaving the sample index i free: read literally every attribute gets the same number "
    "(one sample's hit/miss distance difference), which cannot rank attributes. The sum is "
    "over the samples i (as in (10.4)).",
)
@given(data=relief_samples())
def statistic_10_3_as_printed(data):
    X, y, discrete = data
    sigma = naive_relief(X, y, discrete, "unweighted")
    for i in range(X.shape[0]):  # no choice of the free i gives the statistic
        if np.allclose(printed_relief(X, y, discrete, i), sigma, atol=RELIEF_ATOL):
            return
    raise AssertionError(f"(10.3) as printed gives equal components, never sigma = {sigma}")


@claim(
    id="relief.statistic_10_3",
    source="003 §10.2 (10.3)",
    statement="Relief's statistic sigma^j = sum_i [-diff(x_i^j, x_{i,nh}^j)^2 + "
    "diff(x_i^j, x_{i,nm}^j)^2] (near-hit: nearest other sample of the class; near-miss: "
    "nearest sample of the other class; diff 0/1 on discrete attributes, |a - b| on "
    "[0, 1]-normalised continuous ones) equals an independent per-sample loop; each term "
    "lies in [-1, 1], so |sigma^j| <= m, with sigma^j = m attained by an attribute that "
    "copies the class (every near-hit agrees, every near-miss differs).",
    method=Method.PROPERTY,
    tags=("sparse", "relief"),
)
@given(data=relief_samples())
def statistic_10_3(data):
    X, y, discrete = data
    check_relief_statistic(X, y, discrete, relief_of, "unweighted")
    with_label = np.column_stack([X, y])
    sigma = relief_of(with_label, y, np.append(discrete, True))
    m = X.shape[0]
    assert sigma[-1] == m, f"a class-copy attribute scores {sigma[-1]}, not m = {m}"
    evidence.worst("class-copy sigma / m (1 = the bound attained)", sigma[-1] / m,
                   larger_is_worse=False)


def _ranking_scenario(rng, m: int, delta: float, n_informative: int = 2,
                      n_noise: int = 8):
    """Two balanced classes; n_informative attributes N(+-delta/2, 1) by class, n_noise
    attributes N(0, 1) independent of the class."""
    y = np.repeat([0, 1], m // 2)
    informative = (y[:, None] - 0.5) * delta + rng.normal(size=(m, n_informative))
    return np.hstack([informative, rng.normal(size=(m, n_noise))]), y


#: The claimed probabilities of the simulation (a stated operating point of the
#: scenario: class means 2 standard deviations apart, m = 100, 2 informative and 8 noise
#: attributes).
RANKING_PROBABILITY = 0.9
SUBSAMPLE_PROBABILITY = 0.9


def check_relevance_ranking(rng, scale, statistic=None):
    """Relief on the stated scenario: P(every informative attribute above every noise
    attribute) >= 0.9, and P(sigma from a random half of the samples has the same top-2
    attributes as from all) >= 0.9; decided by Clopper-Pearson at 1 - 1e-6."""
    statistic = statistic or (lambda X, y, n, seed: Relief(
        n_samples=n, random_state=seed).fit(X, y).scores_)
    reps = 40 * scale
    ranked = same_top = 0
    for r in range(reps):
        X, y = _ranking_scenario(rng, 100, 2.0)
        full = statistic(X, y, None, r)
        half = statistic(X, y, 50, r)
        ranked += bool(full[:2].min() > full[2:].max())
        same_top += set(np.argsort(-half)[:2]) == set(np.argsort(-full)[:2])
    check_probability_at_least(ranked, reps, RANKING_PROBABILITY,
                               label="informative attributes ranked above noise")
    check_probability_at_least(same_top, reps, SUBSAMPLE_PROBABILITY,
                               label="half-sample top-2 = full-sample top-2")


@claim(
    id="relief.relevance_ranking",
    source="003 §10.2",
    statement="A larger sigma^j means a more discriminative attribute, and sigma can be "
    "estimated on a sample of the data: on two balanced classes (m = 100) with 2 "
    "attributes whose class means are 2 standard deviations apart and 8 pure-noise "
    "attributes, every informative attribute scores above every noise attribute with "
    "probability >= 0.9, and sigma from a random half of the samples has the same top-2 "
    "attributes with probability >= 0.9 (each refuted only if a Clopper-Pearson upper "
    "bound at confidence 1 - 1e-6 is below 0.9). A tendency at a stated signal strength, "
    "not a theorem: with weaker signal the ranking fails more often (recorded).",
    method=Method.SIMULATION,
    tags=("sparse", "relief"),
)
def relevance_ranking(rng, scale):
    check_relevance_ranking(rng, scale)
    weak = 0
    for _ in range(20):
        X, y = _ranking_scenario(rng, 100, 1.0)
        sigma = Relief().fit(X, y).scores_
        weak += bool(sigma[:2].min() > sigma[2:].max())
    evidence.record("ranking success with means 1 sd apart (no claim)", f"{weak}/20")


@claim(
    id="relieff.statistic_10_4",
    source="003 §10.2 (10.4)",
    statement="Relief-F's statistic sigma^j = sum_i [-diff(x_i^j, x_{i,nh}^j)^2 + "
    "sum_{l != k} p_l diff(x_i^j, x_{i,l,nm}^j)^2], x_i of class k, x_{i,l,nm} its nearest "
    "sample of class l, p_l the proportion of class l in D, equals an independent "
    "per-sample loop (also with Kononenko's weights p_l / (1 - p_k)); |sigma^j| <= m. The "
    "estimator ReliefF at its defaults follows (10.4) over every sample with ONE nearest "
    "hit and ONE nearest miss per other class: its scores are the same loop's.",
    method=Method.PROPERTY,
    tags=("sparse", "relief"),
)
@given(data=relief_samples(max_classes=4), normalized=st.booleans())
def statistic_10_4(data, normalized):
    X, y, discrete = data
    if normalized:
        sigma = check_relief_statistic(X, y, discrete, relieff_normalized, "normalized")
    else:
        sigma = check_relief_statistic(X, y, discrete, relieff_proportion, "proportion")
    check_relieff_defaults(X, y, discrete, sigma, normalized)


def check_relieff_defaults(X, y, discrete, sigma, normalized, **overrides):
    """ReliefF with its defaults (Kononenko's weights; p_l as printed when not
    ``normalized``) sums over all m samples with a single near-hit and a single near-miss
    per other class, as (10.4): scores_ equal ``sigma`` (the per-sample loop's)."""
    params = {"discrete_features": discrete} | ({} if normalized else
                                                 {"miss_weighting": "proportion"})
    fitted = ReliefF(**(params | overrides)).fit(X, y)
    m, n_classes = X.shape[0], np.unique(y).shape[0]
    assert np.array_equal(fitted.sample_indices_, np.arange(m)), (
        f"ReliefF() sums over samples {fitted.sample_indices_}, not all {m}")
    assert fitted.near_hits_.shape == (m,) and fitted.near_misses_.shape == (m, n_classes), (
        f"ReliefF() keeps near-hits of shape {fitted.near_hits_.shape} and near-misses of "
        f"shape {fitted.near_misses_.shape}, not one of each per sample (and class)")
    err = float(np.max(np.abs(fitted.scores_ - sigma)))
    assert err <= RELIEF_ATOL, f"ReliefF().scores_ = {fitted.scores_}, (10.4) gives {sigma}"


@claim(
    id="relieff.reduces_to_relief_as_written",
    source="003 §10.2 (10.3)-(10.4)",
    statement="(As printed) Relief-F (10.4), with the near-miss of class l weighted by the "
    "class proportion p_l, is the extension of Relief (10.3) to many classes: with two "
    "classes it is Relief.",
    method=Method.PROPERTY,
    tags=("sparse", "relief", "erratum"),
    expect=Expect.REFUTED,
    kind=ErratumKind.TERM,
    corrected_by="relieff.reduces_to_relief",
    explanation="With two classes the only near-miss gets weight p_l = 1 - p_k < 1 instead "
    "of 1, so (10.4) shrinks the near-miss term against the near-hit term (every "
    "attribute's score is biased downwards, a pure-noise attribute's below 0). The "
    "weights need the factor 1/(1 - p_k) (Kononenko 1994): p_l/(1 - p_k), summing to 1 "
    "over l != k.",
)
@given(data=relief_samples())
def reduces_to_relief_as_written(data):
    X, y, discrete = data
    a, b = relieff_proportion(X, y, discrete), relief_of(X, y, discrete)
    assert np.allclose(a, b, atol=RELIEF_ATOL), f"(10.4) gives {a}, (10.3) gives {b}"


@claim(
    id="relieff.reduces_to_relief",
    source="003 §10.2 (10.3)-(10.4); Kononenko, ECML 1994",
    statement="With the near-miss weights p_l / (1 - p_k), which sum to 1 over l != k, "
    "Relief-F is Relief for two classes (same statistic to rounding).",
    method=Method.PROPERTY,
    tags=("sparse", "relief"),
)
@given(data=relief_samples())
def reduces_to_relief(data):
    X, y, discrete = data
    a, b = relieff_normalized(X, y, discrete), relief_of(X, y, discrete)
    err = float(np.max(np.abs(a - b)))
    assert err <= RELIEF_ATOL, f"normalised (10.4) gives {a}, (10.3) gives {b}"
    evidence.worst("|Relief-F - Relief|", err)
