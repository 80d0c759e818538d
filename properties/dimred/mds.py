"""Classical MDS, 003 §8.2 (8.1)-(8.6) and Fig 10.3.

The inner-product identity (8.1), the double centring (8.2)-(8.3), exact recovery of a
Euclidean configuration up to a rigid motion (8.4)-(8.5) and Eckart-Young optimality of
the truncation (8.6), on Hypothesis configurations with rank deficiency, duplicates,
collinear points, offsets and scales 1e-3..1e3, and on non-Euclidean metrics (graph
shortest paths, the star K_{1,3}). Errata: (8.1) prints ||z_i^2|| for ||z_i||^2; (8.5)
needs a Euclidean D (Fig 10.3 accepts any distance matrix, and Isomap feeds it geodesics);
(8.6) does not make the *distances* as close as possible, only the inner products.
"""

from __future__ import annotations

import numpy as np
from hypothesis import example, given
from hypothesis import strategies as st
from scipy.linalg import orthogonal_procrustes
from sklearn.datasets import load_digits
from sklearn.manifold import ClassicalMDS as SkClassicalMDS
from sklearn.manifold import smacof

from algorithms.dimred import ClassicalMDS, classical_mds, double_centering
from mltheory import ErratumKind, Expect, Method, claim, evidence
from mltheory.numeric import assert_close, assert_leq
from properties.dimred.strategies_manifold import (
    SEEDS,
    configurations,
    distance_matrix,
    metric_spaces,
)
from properties.dimred.support_manifold import (
    COORDINATE_ROUNDING,
    EIGEN_ROUNDING,
    GRAM_ROUNDING,
    match_signs,
    quietly,
    single_threaded,
)

_K13 = np.array([[0.0, 1, 1, 1], [1, 0, 2, 2], [1, 2, 0, 2], [1, 2, 2, 0]])


# ---------------------------------------------------------------------------
# (8.1)
# ---------------------------------------------------------------------------


def check_inner_product_identity(Z: np.ndarray, square_norm=lambda z: z @ z) -> None:
    """(8.1) for the rows of Z: dist_ij^2 = sq(z_i) + sq(z_j) - 2 z_i^T z_j, and the same
    through B = Z Z^T: b_ii + b_jj - 2 b_ij; also for B from our double centring of D."""
    D2 = distance_matrix(Z) ** 2
    sq = np.array([square_norm(z) for z in Z])
    rhs = sq[:, None] + sq[None, :] - 2.0 * Z @ Z.T
    scale = max(float(np.max(np.sum(Z * Z, axis=1))), 1e-300)
    assert_close(rhs, D2, GRAM_ROUNDING, scale=scale, label="|(8.1) rhs - dist^2| / max||z||^2")
    B = Z @ Z.T
    via_b = np.diag(B)[:, None] + np.diag(B)[None, :] - 2.0 * B
    assert_close(via_b, D2, GRAM_ROUNDING, scale=scale, label="|b_ii + b_jj - 2b_ij - dist^2|")
    Bc = double_centering(distance_matrix(Z))
    via_bc = np.diag(Bc)[:, None] + np.diag(Bc)[None, :] - 2.0 * Bc
    assert_close(via_bc, D2, GRAM_ROUNDING, scale=max(float(D2.max()), 1e-300),
                 label="|(8.1) on double-centred B - dist^2| / max dist^2")
    evidence.add_examples()


@claim(
    id="mds.dist_inner_as_written",
    source="003 §8.2 (8.1)",
    statement="(As printed) dist_ij^2 = ||z_i^2|| + ||z_j^2|| - 2 z_i^T z_j, the norm of the "
    "(entrywise) square of each vector.",
    method=Method.PROPERTY,
    tags=("dimred", "mds", "erratum"),
    expect=Expect.REFUTED,
    kind=ErratumKind.SYMBOL,
    corrected_by="mds.dist_inner_8_1",
    explanation="The exponent is inside the norm: ||z_i^2|| (the norm of the entrywise "
    "square) differs from ||z_i||^2 as soon as z_i has two non-zero coordinates: z_i = "
    "(1, 1), z_j = 0 gives dist^2 = 2 but ||z_i^2|| = sqrt(2).",
)
@given(Z=configurations(max_m=5))
@example(Z=np.array([[1.0, 1.0], [0.0, 0.0]]))
def dist_inner_as_written(Z):
    check_inner_product_identity(Z, square_norm=lambda z: float(np.linalg.norm(z * z)))


@claim(
    id="mds.dist_inner_8_1",
    source="003 §8.2 (8.1)",
    statement="For points z_i with inner products b_ij = z_i^T z_j: dist_ij^2 = ||z_i||^2 + "
    "||z_j||^2 - 2 z_i^T z_j = b_ii + b_jj - 2 b_ij; the identity also holds for the B that "
    "double centring builds from the distances.",
    method=Method.PROPERTY,
    tags=("dimred", "mds"),
)
@given(Z=configurations())
def dist_inner_8_1(Z):
    check_inner_product_identity(Z)


# ---------------------------------------------------------------------------
# (8.2)-(8.3)
# ---------------------------------------------------------------------------


def _means_formula(D: np.ndarray) -> np.ndarray:
    """(8.3) entry by entry from the means (8.2), written out with sums."""
    m = D.shape[0]
    D2 = D * D
    row = [sum(D2[i, j] for j in range(m)) / m for i in range(m)]
    col = [sum(D2[i, j] for i in range(m)) / m for j in range(m)]
    grand = sum(D2[i, j] for i in range(m) for j in range(m)) / m**2
    return np.array([[-0.5 * (D2[i, j] - row[i] - col[j] + grand) for j in range(m)]
                     for i in range(m)])


def check_double_centering(Z: np.ndarray, centring=double_centering) -> None:
    """B from D equals Z_c Z_c^T (centred Z), (8.3) with the means (8.2), and
    -1/2 J D^(2) J with an explicit J."""
    Zc = Z - Z.mean(axis=0)
    D = distance_matrix(Z)
    B = centring(D)
    m = Z.shape[0]
    J = np.eye(m) - np.ones((m, m)) / m
    scale = max(float(np.max(D * D)), 1e-300)
    assert_close(B, Zc @ Zc.T, GRAM_ROUNDING, scale=scale, label="|B - Z_c Z_c^T| / max dist^2")
    assert_close(B, _means_formula(D), GRAM_ROUNDING, scale=scale,
                 label="|B - (8.3) with means (8.2)| / max dist^2")
    assert_close(B, -0.5 * J @ (D * D) @ J, GRAM_ROUNDING, scale=scale,
                 label="|B + 1/2 J D^2 J| / max dist^2")
    evidence.add_examples()


@claim(
    id="mds.double_centering_8_2_8_3",
    source="003 §8.2 (8.2)-(8.3)",
    statement="With the row, column and grand means of the squared distances (8.2), "
    "b_ij = -1/2 (dist_ij^2 - dist_i.^2 - dist_.j^2 + dist_..^2) (8.3) is the inner-product "
    "matrix of the centred points, i.e. B = -1/2 J D^(2) J with J = I - 11^T/m.",
    method=Method.PROPERTY,
    tags=("dimred", "mds"),
)
@given(Z=configurations())
def double_centering_8_2_8_3(Z):
    check_double_centering(Z)


# ---------------------------------------------------------------------------
# (8.4)-(8.5)
# ---------------------------------------------------------------------------


def check_exact_embedding(D: np.ndarray, n_components: int, mds=classical_mds,
                          Z: np.ndarray | None = None) -> None:
    """B is PSD, (8.4) sorts its eigenvalues, and the embedding of (8.5) with
    d' >= rank(B) reproduces every squared distance; if ``Z`` is given, the embedding is
    Z up to a rigid motion (orthogonal Procrustes after centring)."""
    B = double_centering(D)
    lam_all = np.linalg.eigvalsh(B)
    size = max(float(np.max(np.abs(lam_all))), 1e-300)
    assert_leq(-float(lam_all[0]), EIGEN_ROUNDING.rtol * size,
               label="-lambda_min(B) / (1e-9 max|lambda|)")
    r = quietly(mds, D, n_components)
    assert np.all(np.diff(r.eigenvalues) <= EIGEN_ROUNDING.rtol * size), (
        f"eigenvalues not in descending order (8.4): {r.eigenvalues}")
    E = r.embedding
    scale = max(float(np.max(D * D)), 1e-300)
    assert_close(distance_matrix(E) ** 2, D * D, EIGEN_ROUNDING, scale=scale,
                 label="|embedded dist^2 - dist^2| / max dist^2")
    if Z is not None:
        Zc = Z - Z.mean(axis=0)
        width = max(Zc.shape[1], E.shape[1])
        Zp = np.hstack([Zc, np.zeros((Zc.shape[0], width - Zc.shape[1]))])
        Ep = np.hstack([E, np.zeros((E.shape[0], width - E.shape[1]))])
        R, _ = orthogonal_procrustes(Ep, Zp)
        assert_close(Ep @ R, Zp, COORDINATE_ROUNDING, scale=np.sqrt(scale),
                     label="|embedding R - centred Z| / max dist (rigid motion)")
    evidence.add_examples()


@claim(
    id="mds.exact_embedding_8_4_8_5",
    source="003 §8.2 (8.4)-(8.5)",
    statement="For the distance matrix of points in R^d, B = V Lambda V^T has eigenvalues "
    "lambda_1 >= ... >= 0 (at most d non-zero), and Z = Lambda_*^(1/2) V_*^T reproduces "
    "every pairwise distance: it is the original configuration up to a rigid motion "
    "(rotation/reflection and translation).",
    method=Method.PROPERTY,
    tags=("dimred", "mds"),
)
@given(Z=configurations())
def exact_embedding_8_4_8_5(Z):
    check_exact_embedding(distance_matrix(Z), min(Z.shape), Z=Z)


@claim(
    id="mds.exact_embedding_as_written",
    source="003 §8.2 (8.4)-(8.5), Fig 10.3; 003 §8.5.1 Fig 10.8 line 6",
    statement="(As used: Fig 10.3 takes any distance matrix, and Isomap hands it shortest-"
    "path distances) for a distance matrix D, B has eigenvalues >= 0 and "
    "Z = Lambda_*^(1/2) V_*^T reproduces D.",
    method=Method.PROPERTY,
    tags=("dimred", "mds", "erratum"),
    expect=Expect.REFUTED,
    kind=ErratumKind.MISSING_CONDITION,
    corrected_by="mds.exact_embedding_8_4_8_5",
    explanation="(8.5) needs D to be Euclidean (the distances of some points): for the "
    "star K_{1,3} (centre at 1 from three leaves at mutual distance 2) B has the "
    "eigenvalue -1/2 and no real Z reproduces D; a metric is not enough.",
)
@given(D=metric_spaces())
@example(D=_K13)
def exact_embedding_as_written(D):
    check_exact_embedding(D, D.shape[0])


@claim(
    id="mds.reference",
    source="003 §8.2 Fig 10.3",
    statement="Fig 10.3's output V~ Lambda~^(1/2) equals scikit-learn's ClassicalMDS "
    "(metric='precomputed', and on the samples with metric='euclidean') up to the sign of "
    "each coordinate, on random configurations and "
    "on 300 digits (64 features) embedded in 2 and 5 dimensions.",
    method=Method.REFERENCE,
    tags=("dimred", "mds", "real-data"),
)
def reference(rng, scale):
    with single_threaded():
        _reference(rng, scale)


def _reference(rng, scale):
    digits = load_digits().data
    cases = [("digits", digits[rng.choice(len(digits), 300, replace=False)], (2, 5))]
    for _ in range(3 * scale):
        cases.append(("gaussian", rng.normal(size=(40, 6)) * rng.uniform(0.1, 10, 6), (1, 3)))
    for name, X, dims in cases:
        D = distance_matrix(X)
        for dp in dims:
            ours = classical_mds(D, dp).embedding
            theirs = SkClassicalMDS(dp, metric="precomputed").fit_transform(D)
            size = float(np.max(np.abs(theirs)))
            assert_close(match_signs(ours, theirs), theirs, EIGEN_ROUNDING, scale=size,
                         label="|MDS - sklearn ClassicalMDS| / max|z|", context=f"{name} d'={dp}: ")
            # the transformer on the samples themselves (Euclidean distances inside)
            est = ClassicalMDS(dp).fit_transform(X)
            sk = SkClassicalMDS(dp, metric="euclidean").fit_transform(X)
            assert_close(match_signs(est, sk), sk, EIGEN_ROUNDING, scale=size,
                         label="|ClassicalMDS(X) - sklearn ClassicalMDS(X)| / max|z|",
                         context=f"{name} d'={dp} samples: ")
            evidence.add_examples()


# ---------------------------------------------------------------------------
# (8.6)
# ---------------------------------------------------------------------------


def check_eckart_young(D: np.ndarray, n_components: int, seed: int, mds=classical_mds,
                       euclidean: bool = False) -> None:
    """The truncated embedding's Gram matrix E E^T is the best rank-d' PSD approximation of
    B in Frobenius norm: its error equals the optimum computed from the spectrum, and no
    other rank-d' PSD matrix tried (random, and perturbations of the optimum) is closer.
    For Euclidean D, truncated distances never exceed the original ones."""
    B = double_centering(D)
    lam = np.linalg.eigvalsh(B)[::-1]
    kept = np.clip(lam[:n_components], 0.0, None)
    optimum = np.sqrt(max(float(np.sum(lam**2) - np.sum(kept**2)), 0.0))
    result = quietly(mds, D, n_components)
    E = result.embedding
    # clipped (and warned about) exactly when a kept eigenvalue is negative beyond rounding
    significant = int(np.sum(lam[:n_components] < -1e-9 * max(float(lam[0]), 1e-300)))
    rounding = int(np.sum(np.abs(lam[:n_components]) <= 1e-9 * max(float(lam[0]), 1e-300)))
    assert significant <= result.n_clipped <= significant + rounding, (
        f"n_clipped = {result.n_clipped}, kept eigenvalues {lam[:n_components]}")
    err = float(np.linalg.norm(B - E @ E.T))
    size = max(float(np.linalg.norm(B)), 1e-300)
    assert_close(err, optimum, EIGEN_ROUNDING, scale=size,
                 label="|  ||B - ZZ^T||_F - Eckart-Young optimum | / ||B||_F")
    rng = np.random.default_rng(seed)
    m = D.shape[0]
    best_other = np.inf
    for step in (1e-1, 1e-3, None):
        Y = (rng.standard_normal((m, n_components)) * np.sqrt(size / m) if step is None
             else E + step * np.sqrt(size / m) * rng.standard_normal(E.shape))
        best_other = min(best_other, float(np.linalg.norm(B - Y @ Y.T)))
    assert_leq(err, best_other + EIGEN_ROUNDING.rtol * size,
               label="||B - ZZ^T|| / (best other rank-d' PSD error)")
    if euclidean:
        excess = distance_matrix(E) - D
        assert_leq(float(np.max(excess)), np.sqrt(EIGEN_ROUNDING.rtol) * float(np.max(D)),
                   label="max(truncated dist - dist) / (3e-5 max dist)")
    evidence.add_examples()


@claim(
    id="mds.truncated_8_6",
    source="003 §8.2 (8.6)",
    statement="With the d' largest eigenvalues (negative ones clipped to 0), Z = "
    "Lambda~^(1/2) V~^T gives Z^T Z, the best rank-d' positive semi-definite approximation "
    "of B in Frobenius norm (Eckart-Young): ||B - Z^T Z||_F^2 = sum of the squared "
    "eigenvalues left out (plus clipped ones, counted in n_clipped); for Euclidean D the "
    "truncated distances are never larger than the original ones.",
    method=Method.PROPERTY,
    tags=("dimred", "mds"),
)
@given(Z=configurations(min_m=3), D_other=st.none() | metric_spaces(), dp=st.integers(1, 9),
       seed=SEEDS)
def truncated_8_6(Z, D_other, dp, seed):
    D = distance_matrix(Z) if D_other is None else D_other
    check_eckart_young(D, min(dp, D.shape[0]), seed, euclidean=D_other is None)


def _raw_stress(E: np.ndarray, D: np.ndarray) -> float:
    return float(np.sum((distance_matrix(E) - D) ** 2)) / 2.0


def check_stress_optimal(Z: np.ndarray, n_components: int, mds=classical_mds) -> None:
    """No d'-dimensional configuration has lower raw stress sum_{i<j} (||z_i - z_j|| -
    dist_ij)^2 than the truncated MDS embedding: SMACOF (scikit-learn) started from it
    must not improve it by more than rounding."""
    D = distance_matrix(Z)
    E = mds(D, n_components).embedding
    ours = _raw_stress(E, D)
    improved = smacof(D, n_components=n_components, init=E, n_init=1, max_iter=300,
                      eps=1e-9, normalized_stress=False)[0]
    theirs = _raw_stress(improved, D)
    size = max(float(np.sum(D * D)), 1e-300)
    assert_leq(ours, theirs + 1e-9 * size, label="stress(MDS) / stress(SMACOF from MDS)")
    evidence.add_examples()


@claim(
    id="mds.truncated_stress_as_written",
    source="003 §8.2 (8.6)",
    statement="(As the text motivates (8.6)) keeping the d' largest eigenvalues makes the "
    "distances in R^d' as close as possible to the original ones: no d'-dimensional "
    "configuration has a smaller sum of squared distance errors (raw stress).",
    method=Method.PROPERTY,
    tags=("dimred", "mds", "erratum"),
    expect=Expect.REFUTED,
    kind=ErratumKind.OVERCLAIM,
    corrected_by="mds.truncated_8_6",
    explanation="(8.6) is optimal for the inner products (Eckart-Young on B, 'strain'), "
    "not for the distances: SMACOF started from the classical solution lowers the raw "
    "stress, e.g. for the three points (0,0), (1,0), (0,2) embedded on a line.",
)
@given(Z=configurations(min_m=3, max_m=8), dp=st.integers(1, 2))
@example(Z=np.array([[0.0, 0.0], [1.0, 0.0], [0.0, 2.0]]), dp=1)
def truncated_stress_as_written(Z, dp):
    check_stress_optimal(Z, dp)
