"""Distances of 003 §7.3: the four axioms, Minkowski (7.11)-(7.13), VDM (7.14) and
MinkovDM (7.15).

The axioms are checked on Hypothesis triples that include collinear ones (where the
triangle inequality of a norm is an equality: the tightness figure reaches 1) and
'corner' paths along the axes (where Minkowski with p < 1 breaks it). References:
scipy.spatial.distance for the special cases, direct counting for VDM.
"""

from __future__ import annotations

import math

import numpy as np
from hypothesis import example, given
from hypothesis import strategies as st
from scipy.spatial import distance as spd

from algorithms.clustering import MixedDistance, minkowski_distance, value_profiles
from mltheory import ErratumKind, Expect, Method, claim, evidence
from mltheory.numeric import EXACT_ARITHMETIC, LINEAR_ALGEBRA, assert_close, assert_leq
from properties.clustering.strategies import Triple, categorical_samples, triples
from properties.clustering.support import check_metric_axioms

#: Exponents p >= 1 tried, from Manhattan to Chebyshev.
METRIC_EXPONENTS = st.sampled_from([1.0, 1.5, 2.0, 3.0, 7.0, math.inf])


def _equal(a, b) -> bool:
    return bool(np.array_equal(a, b))


def _check_minkowski(t: Triple, p: float, weights=None) -> None:
    check_metric_axioms(lambda a, b: minkowski_distance(a, b, p, weights=weights),
                        t.x, t.y, t.z, same=_equal, label=f"Minkowski p={p}",
                        identity=weights is None or bool(np.all(weights > 0)))


@claim(
    id="dist.minkowski_axioms_as_written",
    source="003 §7.3 (7.11)",
    statement="(As printed, no condition on p) the Minkowski distance (7.11) satisfies the "
    "four axioms of §7.3: non-negativity, identity, symmetry and the triangle inequality.",
    method=Method.PROPERTY,
    tags=("clustering", "distances", "erratum"),
    expect=Expect.REFUTED,
    kind=ErratumKind.MISSING_CONDITION,
    corrected_by="dist.minkowski_metric_7_11",
    explanation="Missing condition p >= 1: for 0 < p < 1 the triangle inequality fails, "
    "e.g. p = 1/2, x = (0, 0), y = (1, 0), z = (1, 1): dist(x, z) = 4 > dist(x, y) + "
    "dist(y, z) = 2.",
)
@given(t=triples(), p=st.sampled_from([0.25, 0.5, 0.9, 1.0, 2.0]))
@example(t=Triple(np.array([0.0, 0.0]), np.array([1.0, 0.0]), np.array([1.0, 1.0])), p=0.5)
def minkowski_axioms_as_written(t, p):
    _check_minkowski(t, p)


@claim(
    id="dist.minkowski_metric_7_11",
    source="003 §7.3 (7.11)",
    statement="For p >= 1 (including the Chebyshev limit p = inf) the Minkowski distance "
    "satisfies non-negativity, identity of indiscernibles, symmetry and the triangle "
    "inequality (equality for collinear points); so does the weighted form "
    "(sum_u w_u |x_u - z_u|^p)^(1/p) with weights w_u >= 0 summing to 1 (with a zero "
    "weight, a pseudo-metric: points differing only there are at distance 0).",
    method=Method.PROPERTY,
    tags=("clustering", "distances"),
)
@given(t=triples(), p=METRIC_EXPONENTS, weighted=st.sampled_from(["no", "positive", "zero"]),
       seed=st.integers(0, 2**32 - 1))
def minkowski_metric_7_11(t, p, weighted, seed):
    weights = None
    if weighted != "no":
        raw = np.random.default_rng(seed).uniform(0.05, 1.0, size=t.x.shape[0])
        if weighted == "zero" and raw.shape[0] > 1:
            raw[0] = 0.0  # an attribute of no importance
        weights = raw / raw.sum()
    _check_minkowski(t, p, weights)
    rows = minkowski_distance(np.stack([t.x, t.y]), np.stack([t.z, t.z]), p, weights=weights)
    assert np.shape(rows) == (2,), f"two stacked pairs gave {rows!r}, not two distances"
    assert_close(rows, [minkowski_distance(t.x, t.z, p, weights=weights),
                        minkowski_distance(t.y, t.z, p, weights=weights)], EXACT_ARITHMETIC,
                 label="|stacked rows - pair by pair|")
    if weights is not None and not math.isinf(p):
        direct = float(np.sum(weights * np.abs(t.x - t.z) ** p) ** (1.0 / p))
        assert_close(minkowski_distance(t.x, t.z, p, weights=weights), direct,
                     LINEAR_ALGEBRA, label="|weighted distance - (sum w |d|^p)^(1/p)|")


@claim(
    id="dist.special_cases_7_12_7_13",
    source="003 §7.3 (7.12)-(7.13)",
    statement="In every dimension n, p = 2 gives the Euclidean distance ||x - z||_2, p = 1 "
    "the Manhattan distance ||x - z||_1, and p -> inf the Chebyshev distance, as computed "
    "by scipy.spatial.distance (minkowski, euclidean, cityblock, chebyshev).",
    method=Method.REFERENCE,
    tags=("clustering", "distances"),
)
@given(t=triples(max_dim=8), p=st.sampled_from([1.0, 1.5, 2.0, 4.0]))
def special_cases_7_12_7_13(t, p):
    x, z = t.x, t.z
    scale = max(1.0, float(np.max(np.abs(t.x - t.z))))
    assert_close(minkowski_distance(x, z, 2), spd.euclidean(x, z), EXACT_ARITHMETIC,
                 scale=scale, label="|p=2 - euclidean|")
    assert_close(minkowski_distance(x, z, 1), spd.cityblock(x, z), EXACT_ARITHMETIC,
                 scale=scale, label="|p=1 - cityblock|")
    assert_close(minkowski_distance(x, z, math.inf), spd.chebyshev(x, z), EXACT_ARITHMETIC,
                 scale=scale, label="|p=inf - chebyshev|")
    assert_close(minkowski_distance(x, z, p), spd.minkowski(x, z, p), LINEAR_ALGEBRA,
                 scale=scale, label="|(7.11) - scipy minkowski|")
    if np.any(x != z):  # p -> inf: the p-norm decreases to the max norm
        big = minkowski_distance(x, z, 200.0)
        assert spd.chebyshev(x, z) <= big <= spd.chebyshev(x, z) * len(x) ** (1 / 200) * (1 + 1e-12)


@claim(
    id="dist.euclidean_dimension_as_written",
    source="003 §7.3 (7.12)",
    statement="(As printed: 'when p = 2, i.e. for two-dimensional vectors, the Minkowski "
    "distance is the Euclidean distance') for two-dimensional vectors the Minkowski "
    "distance (7.11) is the Euclidean distance.",
    method=Method.PROPERTY,
    tags=("clustering", "distances", "erratum"),
    expect=Expect.REFUTED,
    kind=ErratumKind.SYMBOL,
    corrected_by="dist.special_cases_7_12_7_13",
    explanation="Wrong statement: the exponent p is confused with the dimension n. p = 2 "
    "gives the Euclidean distance in every dimension, and for two-dimensional vectors "
    "another p gives another distance: x = (0, 0), z = (1, 1) has dist_1 = 2, "
    "dist_2 = sqrt(2).",
)
@given(t=triples(max_dim=2), p=st.sampled_from([1.0, 2.0, 3.0, math.inf]))
@example(t=Triple(np.zeros(2), np.zeros(2), np.ones(2)), p=1.0)
def euclidean_dimension_as_written(t, p):
    x, z = np.resize(t.x, 2), np.resize(t.z, 2)
    assert_close(minkowski_distance(x, z, p), spd.euclidean(x, z), EXACT_ARITHMETIC,
                 scale=max(1.0, float(np.max(np.abs(x - z)))), label="|dist_p - euclidean|")


# ---------------------------------------------------------------------------
# VDM (7.14) and MinkovDM (7.15)
# ---------------------------------------------------------------------------


def _direct_vdm(values, clusters, a, b, p) -> float:
    """(7.14) by counting m_{u,a}, m_{u,a,i} directly."""
    total = 0.0
    for i in np.unique(clusters):
        pa = np.sum((values == a) & (clusters == i)) / np.sum(values == a)
        pb = np.sum((values == b) & (clusters == i)) / np.sum(values == b)
        total += abs(pa - pb) ** p
    return total


#: Three picks among the values seen (taken modulo their number).
PICKS = st.tuples(st.integers(0, 9), st.integers(0, 9), st.integers(0, 9))


def _value_triples(values, picks):
    seen = np.unique(values).tolist()
    return [seen[i % len(seen)] for i in picks]


@claim(
    id="dist.vdm_metric_as_written",
    source="003 §7.3 (7.14)",
    statement="(As printed) VDM_p (7.14) is a distance in the sense of §7.3: it satisfies "
    "non-negativity, identity (zero only for equal values), symmetry and the triangle "
    "inequality.",
    method=Method.PROPERTY,
    tags=("clustering", "distances", "erratum"),
    expect=Expect.REFUTED,
    kind=ErratumKind.OVERCLAIM,
    corrected_by="dist.vdm_7_14",
    explanation="Overclaim: VDM_p = ||P_a - P_b||_p^p (P_a the cluster profile of value "
    "a) has no 1/p root, so for p > 1 the triangle inequality fails (p = 2, profiles "
    "(1,0), (1/2,1/2), (0,1): 2 > 1/2 + 1/2), and two distinct values with the same "
    "profile are at distance 0.",
)
@given(sample=categorical_samples(), p=st.sampled_from([1.0, 2.0, 3.0]), picks=PICKS)
@example(sample=(np.array([0, 1, 1, 2]), np.array([0, 0, 1, 1])), p=2.0, picks=(0, 1, 2))
def vdm_metric_as_written(sample, p, picks):
    values, clusters = sample
    prof = value_profiles(values, clusters)
    a, b, c = _value_triples(values, picks)
    check_metric_axioms(lambda u, v: prof.distance(u, v, p), a, b, c, same=lambda u, v: u == v,
                        label=f"VDM_{p}")


@claim(
    id="dist.vdm_7_14",
    source="003 §7.3 (7.14)",
    statement="VDM_p(a, b) = sum_i |m_{u,a,i}/m_{u,a} - m_{u,b,i}/m_{u,b}|^p agrees with "
    "direct counting; it is >= 0, symmetric, VDM_p(a, a) = 0, and 0 exactly when a and b "
    "have the same cluster profile; for p >= 1, VDM_p <= 2 (attained by values never "
    "sharing a cluster) and VDM_p^(1/p) satisfies the triangle inequality (a pseudo-metric "
    "on values). Arrays of values give the VDM value by value.",
    method=Method.PROPERTY,
    tags=("clustering", "distances"),
)
@given(sample=categorical_samples(), p=st.sampled_from([1.0, 2.0, 3.0]), picks=PICKS)
@example(sample=(np.array([0, 1, 1, 2]), np.array([0, 0, 1, 1])), p=2.0, picks=(0, 1, 2))
def vdm_7_14(sample, p, picks):
    values, clusters = sample
    prof = value_profiles(values, clusters)
    a, b, c = _value_triples(values, picks)
    vdm = prof.distance(a, b, p)
    assert_close(vdm, _direct_vdm(values, clusters, a, b, p), EXACT_ARITHMETIC,
                 label="|VDM - direct count|")
    same_profile = bool(np.array_equal(prof.profiles[prof.index(a)], prof.profiles[prof.index(b)]))
    assert (vdm == 0) == same_profile, (a, b, vdm)
    assert_leq(vdm, 2.0, label="VDM_p / 2")
    check_metric_axioms(lambda u, v: prof.distance(u, v, p) ** (1 / p), a, b, c,
                        same=lambda u, v: u == v, label=f"VDM_{p}^(1/p)", identity=False)
    assert prof.distance(a, a, p) == 0
    # value by value for arrays of values: the pairs (a, b), (b, c), (a, a)
    pairs = prof.distance(np.array([a, b, a]), np.array([b, c, a]), p)
    single = [prof.distance(u, v, p) for u, v in ((a, b), (b, c), (a, a))]
    assert isinstance(vdm, float) and np.shape(pairs) == (3,), (type(vdm), np.shape(pairs))
    assert_close(pairs, np.array(single), EXACT_ARITHMETIC, label="|VDM of arrays - pairwise|")


@claim(
    id="dist.minkovdm_7_15",
    source="003 §7.3 (7.11); 003 §7.3 (7.15)",
    statement="MinkovDM_p = (sum_{u <= n_c} |x_u - z_u|^p + sum_{u > n_c} VDM_p(x_u, "
    "z_u))^(1/p) equals the Minkowski distance when every attribute is ordered (n_c = n), "
    "equals the formula evaluated term by term, and for p >= 1 satisfies non-negativity, "
    "symmetry and the triangle inequality (a pseudo-metric: the Minkowski distance of the "
    "ordered part and the cluster profiles of the unordered values).",
    method=Method.PROPERTY,
    tags=("clustering", "distances"),
)
@given(sample=categorical_samples(max_size=25), p=st.sampled_from([1.0, 2.0, 3.0]),
       n_c=st.integers(0, 2), seed=st.integers(0, 2**32 - 1))
def minkovdm_7_15(sample, p, n_c, seed):
    values, clusters = sample
    rng = np.random.default_rng(seed)
    m = values.shape[0]
    ordered = rng.integers(-3, 4, size=(m, n_c)).astype(float)
    X = np.column_stack([ordered, values, values[::-1]]).astype(object)
    md = MixedDistance(n_c, p=p).fit(X, clusters)
    i, j, k = rng.integers(m, size=3)
    direct = sum(abs(float(X[i, u]) - float(X[j, u])) ** p for u in range(n_c))
    for col in (n_c, n_c + 1):
        direct += _direct_vdm(X[:, col].astype(int), clusters, int(X[i, col]), int(X[j, col]), p)
    assert_close(md.distance(X[i], X[j]), direct ** (1 / p), EXACT_ARITHMETIC,
                 label="|MinkovDM - term by term|")
    check_metric_axioms(lambda a, b: md.distance(a, b), X[i], X[j], X[k], same=_equal,
                        label=f"MinkovDM_{p}", identity=False)
    if n_c:
        only_ordered = MixedDistance(n_c, p=p).fit(ordered, clusters)
        assert_close(only_ordered.distance(ordered[i], ordered[j]),
                     minkowski_distance(ordered[i], ordered[j], p), EXACT_ARITHMETIC,
                     label="|MinkovDM(n_c = n) - Minkowski|")
    evidence.add_examples(0)


@claim(
    id="dist.minkovdm_identity_as_written",
    source="003 §7.3 (7.15)",
    statement="(As printed) MinkovDM (7.15) is a distance in the sense of §7.3; in "
    "particular it is zero only for identical samples.",
    method=Method.PROPERTY,
    tags=("clustering", "distances", "erratum"),
    expect=Expect.REFUTED,
    kind=ErratumKind.OVERCLAIM,
    corrected_by="dist.minkovdm_7_15",
    explanation="Overclaim: through VDM, two samples that differ only in unordered values "
    "with the same cluster profile are at MinkovDM 0 (identity of indiscernibles fails); "
    "MinkovDM is a pseudo-metric for p >= 1.",
)
@given(sample=categorical_samples(max_size=25), p=st.sampled_from([1.0, 2.0]),
       seed=st.integers(0, 2**32 - 1))
def minkovdm_identity_as_written(sample, p, seed):
    values, clusters = sample
    rng = np.random.default_rng(seed)
    X = np.column_stack([rng.integers(0, 2, size=values.shape[0]), values]).astype(object)
    md = MixedDistance(1, p=p).fit(X, clusters)
    D = md.pairwise(X)
    differ = ~np.all(X[:, None, :] == X[None, :, :], axis=-1)
    assert not np.any((D == 0) & differ), "distinct samples at MinkovDM 0"
