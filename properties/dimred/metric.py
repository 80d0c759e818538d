"""Weighted Euclidean and Mahalanobis distances, 003 §8.6 (8.25)-(8.26).

The weighted distance as a quadratic form with W = diag(w), the Mahalanobis distance as a
Euclidean distance after P^T (M = P P^T), its pseudo-metric axioms (collinear triples make
the triangle inequality tight; singular M gives distinct points at distance 0), the
factor P with orthogonal columns that the notes mention, and the refusal of a matrix that
is not PSD. Erratum: the first line of (8.25) equates the weighted distance with the plain
squared Euclidean distance.
"""

from __future__ import annotations

import numpy as np
from hypothesis import example, given
from hypothesis import strategies as st

from algorithms.dimred import (
    check_metric_matrix,
    mahalanobis_distance,
    metric_from_projection,
    weighted_euclidean_distance,
)
from mltheory import ErratumKind, Expect, Method, claim, evidence
from mltheory.numeric import EXACT_ARITHMETIC, LINEAR_ALGEBRA, assert_close, assert_leq
from properties.dimred.strategies_manifold import SEEDS, metric_matrices

_MAGNITUDES = st.sampled_from([1e-150, 1e-3, 1.0, 1e3, 1e150])


@st.composite
def _weighted_pairs(draw):
    """(x_i, x_j, w): a pair of points and non-negative weights (zeros included)."""
    d = draw(st.integers(1, 6))
    rng = np.random.default_rng(draw(SEEDS))
    s = draw(_MAGNITUDES)
    a, b = s * rng.standard_normal(d), s * rng.standard_normal(d)
    w = rng.uniform(0.0, 3.0, d) * (rng.random(d) < 0.8)
    if draw(st.booleans()):
        w = np.ones(d)
    return a, b, w


def check_weighted(a: np.ndarray, b: np.ndarray, w: np.ndarray, plain: bool = False,
                   dist=weighted_euclidean_distance) -> None:
    """sum_k w_k dist_ij,k^2 (a loop) = (a - b)^T diag(w) (a - b) = our distance^2, in units
    of max |a - b| (no overflow at 1e150, nor where a - b itself overflows); with
    ``plain``, also = ||a - b||^2 (the first line of (8.25))."""
    half = a / 2 - b / 2  # (a - b)/2 without overflow, even where a - b is beyond 1.8e308
    s = max(float(np.max(np.abs(half))), 1e-300)
    u = half / s
    loop = sum(w[k] * u[k] ** 2 for k in range(len(u)))
    form = float(u @ np.diag(w) @ u)
    assert_close(form, loop, EXACT_ARITHMETIC, label="|(a-b)^T W (a-b) - sum_k w_k d_k^2|")
    ours = dist(a, b, w) / 2 / s
    assert_close(ours**2, loop, EXACT_ARITHMETIC, scale=max(loop, 1e-300),
                 label="|our dist^2 - sum_k w_k d_k^2| (scaled)")
    assert_close(mahalanobis_distance(a, b, np.diag(w)) / 2 / s, ours, EXACT_ARITHMETIC,
                 label="|Mahalanobis with M = diag(w) - weighted|")
    if plain:
        assert_close(float(u @ u), loop, EXACT_ARITHMETIC, label="|  ||a-b||^2 - weighted |")
    evidence.add_examples()


@claim(
    id="metric.weighted_as_written",
    source="003 §8.6 (8.25)",
    statement="(As printed, first line of (8.25)) dist_wed^2(x_i, x_j) = ||x_i - x_j||_2^2 = "
    "sum_k w_k dist_ij,k^2.",
    method=Method.PROPERTY,
    tags=("dimred", "metric", "erratum"),
    expect=Expect.REFUTED,
    kind=ErratumKind.SYMBOL,
    corrected_by="metric.weighted_8_25",
    explanation="The middle expression lacks its weight: ||x_i - x_j||_2^2 is the unweighted "
    "distance, equal to sum_k w_k dist_ij,k^2 only when every w_k = 1 (on the coordinates "
    "where the points differ). x_i = 1, x_j = 0, w = 2: 1 != 2.",
)
@given(pair=_weighted_pairs())
@example(pair=(np.array([1.0]), np.array([0.0]), np.array([2.0])))
def weighted_as_written(pair):
    check_weighted(*pair, plain=True)


@claim(
    id="metric.weighted_8_25",
    source="003 §8.6 (8.25)",
    statement="sum_k w_k dist_ij,k^2 = (x_i - x_j)^T W (x_i - x_j) with W = diag(w), the "
    "Mahalanobis form with M = W; computed without overflow for coordinates up to 1e150 "
    "and wherever the distance itself is representable (a - b may overflow).",
    method=Method.PROPERTY,
    tags=("dimred", "metric"),
)
@given(pair=_weighted_pairs())
# a - b overflows in its first coordinate (2e308) while the distance, 1.118e308, does not
@example(pair=(np.array([1e308, 0.5e308]), np.array([-1e308, 0.0]), np.array([0.25, 1.0])))
def weighted_8_25(pair):
    check_weighted(*pair)


# ---------------------------------------------------------------------------
# (8.26)
# ---------------------------------------------------------------------------


def check_mahalanobis(M: np.ndarray, P: np.ndarray, seed: int, dist=mahalanobis_distance
                      ) -> None:
    """For M = P P^T: dist^2 = (a-b)^T M (a-b) = ||P^T (a-b)||^2 >= 0; d(a, a) = 0,
    symmetry and the triangle inequality (tight on collinear triples); a null direction of M
    gives distinct points at distance 0 (pseudo-metric), a definite M never does; and
    P = V Lambda^(1/2) from eigh has orthogonal columns with P P^T = M."""
    rng = np.random.default_rng(seed)
    d = M.shape[0]
    a, b = rng.standard_normal(d), rng.standard_normal(d)
    t = float(rng.uniform(0.0, 1.0))
    between = a + t * (b - a)  # collinear: the triangle inequality is an equality
    c = rng.standard_normal(d) if rng.random() < 0.5 else between
    diff = a - b
    size = max(float(np.max(np.abs(M))) * float(diff @ diff), 1e-300)
    sq = dist(a, b, M, squared=True)
    assert_close(sq, float(diff @ M @ diff), LINEAR_ALGEBRA, scale=size,
                 label="|dist^2 - (a-b)^T M (a-b)| / (||M|| ||a-b||^2)")
    assert_close(dist(a, b, P=P, squared=True), float(np.sum((P.T @ diff) ** 2)),
                 LINEAR_ALGEBRA, scale=size, label="|dist_P^2 - ||P^T (a-b)||^2|")
    assert sq >= 0.0, f"negative squared distance {sq}"
    assert dist(a, a, M) == 0.0, "d(a, a) != 0"
    assert_close(dist(a, b, M), dist(b, a, M), EXACT_ARITHMETIC, label="|d(a,b) - d(b,a)|")
    lhs = dist(a, c, M)
    rhs = dist(a, b, M) + dist(b, c, M) if c is not between else dist(a, b, M)
    if c is between:  # d(a, b) = d(a, between) + d(between, b)
        lhs, rhs = dist(a, between, M) + dist(between, b, M), dist(a, b, M)
        assert_close(lhs, rhs, LINEAR_ALGEBRA, scale=max(rhs, 1e-300),
                     label="|collinear: d(a,c) + d(c,b) - d(a,b)|")
        lhs, rhs = dist(a, b, M), dist(a, between, M) + dist(between, b, M)
    if rhs > 0:
        assert_leq(lhs, rhs, tol=LINEAR_ALGEBRA, label="d(a,c) / (d(a,b) + d(b,c))")
    rows = np.stack([a, b, c])  # stacked rows (n, d) against one point: row by row
    for form in ({"M": M}, {"P": P}):
        assert_close(dist(rows, b, **form), [dist(x, b, **form) for x in rows],
                     EXACT_ARITHMETIC, label="|stacked rows - pair by pair|")
    lam, V = np.linalg.eigh(M)
    top = max(float(lam[-1]), 1e-300)
    null = V[:, np.abs(lam) <= 1e-12 * top]
    if null.shape[1]:
        z = dist(a, a + null[:, 0] * (1.0 + float(np.abs(a).max())), M)
        assert z <= 1e-6 * np.sqrt(top) * (1.0 + float(np.abs(a).max())), (
            f"distinct points along a null direction of M at distance {z}")
    else:
        assert dist(a, b, M) > 0.0
    Pv = V * np.sqrt(np.clip(lam, 0.0, None))
    gram = Pv.T @ Pv
    assert_close(gram - np.diag(np.diag(gram)), np.zeros_like(gram), LINEAR_ALGEBRA,
                 scale=top, label="off-diagonal of P^T P (orthogonal columns)")
    assert_close(metric_from_projection(Pv), M, LINEAR_ALGEBRA, scale=top,
                 label="|V Lambda^(1/2) (V Lambda^(1/2))^T - M| / ||M||")
    evidence.add_examples()


@claim(
    id="metric.mahalanobis_8_26",
    source="003 §8.6 (8.26)",
    statement="For symmetric PSD M = P P^T (P can be taken with mutually orthogonal columns, "
    "V Lambda^(1/2)): ||x_i - x_j||_M^2 = (x_i - x_j)^T M (x_i - x_j) = ||P^T (x_i - x_j)||^2 "
    ">= 0, and ||.||_M is a pseudo-metric (zero on the diagonal, symmetric, triangle "
    "inequality; distinct points along a null direction of M are at distance 0), a metric "
    "when M is positive definite. A matrix that is not PSD is refused.",
    method=Method.PROPERTY,
    tags=("dimred", "metric"),
)
@given(MP=metric_matrices(), seed=SEEDS)
def mahalanobis_8_26(MP, seed):
    check_mahalanobis(*MP, seed)
    # an indefinite matrix: some pair has a negative "squared distance", so it is refused
    M = MP[0] - 2.0 * max(float(np.max(np.abs(MP[0]))), 1.0) * np.eye(MP[0].shape[0])
    try:
        check_metric_matrix(M)
    except ValueError as exc:
        assert "positive semi-definite" in str(exc)
    else:
        raise AssertionError("a negative definite M was accepted")
