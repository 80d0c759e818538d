"""Claims on linear discriminant analysis: 003 §1.6–§1.7 (1.22)–(1.29), 004 §4.1–§4.2.

Each check body is a plain function parameterised by the piece a teeth test
breaks (the direction, the between-class scatter, the projection, the bound);
the registered claims call it with the note's (or the corrected) choice.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Callable

import numpy as np
import scipy.linalg
from hypothesis import example, given
from hypothesis import strategies as st
from scipy.stats import norm

from algorithms.linear import LinearDiscriminantAnalysis, rayleigh_quotient, scatter_matrices
from mltheory import ErratumKind, Expect, Method, claim, evidence
from mltheory.numeric import Tolerance, assert_close, assert_leq
from mltheory.stats import check_probability_at_least, check_probability_at_most
from mltheory.strategies import rngs
from properties.linear.strategies import ClassConditionalData, class_conditional_datasets

# ----------------------------------------------------------------------------- tolerances

#: Sums of at most ~130 outer products of vectors with entries up to ~1e2, compared
#: norm-wise: float64 rounding stays below 1e-12 of the matrices' norm.
SCATTER_SUMS = Tolerance(
    rtol=1e-10,
    atol=0.0,
    reason="scatter matrices are sums of at most ~130 outer products; rounding is about "
    "N * 1e-16 of their Frobenius norm, compared norm-wise",
)
#: Generalised symmetric eigenproblems solved through a Cholesky factor of S_w.
GENERALISED_EIGEN = Tolerance(
    rtol=1e-7,
    atol=0.0,
    reason="eigh(S_b, S_w) and the SVD solve lose about cond(S_w) * 1e-16 relative to the "
    "largest eigenvalue; drawn S_w have condition numbers up to about 1e8",
)
#: Relative residual above which two directions count as different (1 - |cos|):
#: solves with cond <= 1e8 perturb a direction's angle by ~1e-8, i.e. 1 - cos ~ 1e-16.
PARALLEL_SLACK = 1e-10
#: Excess risk allowed for the plug-in LDA rule fitted on 2000 * scale points per class
#: in d <= 4: its expected excess over the Bayes risk is O(d / n) ~ 2e-3 at most here.
PLUG_IN_EXCESS = 0.01

# ----------------------------------------------------------------------------- helpers


def _fit(data: ClassConditionalData, **kwargs) -> LinearDiscriminantAnalysis:
    """Fit the estimator; a ridge it adds on a near-singular S_w is reported in ``reg_``
    and every comparison below uses ``S_w + reg_ I``."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", scipy.linalg.LinAlgWarning)
        return LinearDiscriminantAnalysis(**kwargs).fit(data.X, data.y)


def _fit_ridged(data: ClassConditionalData) -> tuple[LinearDiscriminantAnalysis, np.ndarray]:
    """The fitted estimator and the within-class scatter it used, ``S_w + reg_ I``."""
    lda = _fit(data)
    return lda, lda.S_w_ + lda.reg_ * np.eye(data.n_features)


def _class_parts(data: ClassConditionalData) -> list[tuple[np.ndarray, np.ndarray, np.ndarray]]:
    """Per class: (samples, mean, scatter sum), computed directly from the definitions."""
    out = []
    for c in range(data.n_classes):
        Xc = data.X[data.y == c]
        mu = Xc.mean(axis=0)
        D = Xc - mu
        out.append((Xc, mu, D.T @ D))
    return out


def _matrix_close(actual: np.ndarray, expected: np.ndarray, tol: Tolerance, label: str) -> None:
    """Norm-wise comparison ``||A - B||_F <= rtol * max(||A||_F, ||B||_F)``."""
    scale = max(np.linalg.norm(actual), np.linalg.norm(expected), np.finfo(float).tiny)
    err = float(np.linalg.norm(actual - expected) / scale)
    evidence.worst(label, err)
    if err > tol.rtol:
        raise AssertionError(
            f"{label}: relative Frobenius difference {err:.3g} exceeds {tol.rtol:g} "
            f"({tol.reason})\nactual=\n{np.array2string(actual, precision=6)}\n"
            f"expected=\n{np.array2string(expected, precision=6)}"
        )


def _random_directions(rng, d: int, k: int) -> np.ndarray:
    V = rng.standard_normal((k, d))
    return V / np.linalg.norm(V, axis=1, keepdims=True)


def _parallel_defect(u: np.ndarray, v: np.ndarray) -> float:
    """1 - |cos(u, v)| (0 for parallel vectors)."""
    return float(1.0 - abs(u @ v) / (np.linalg.norm(u) * np.linalg.norm(v)))


#: The piece a teeth test swaps: the discriminant direction from the fitted estimator.
Direction = Callable[[LinearDiscriminantAnalysis, ClassConditionalData], np.ndarray]
#: The multi-class projection matrix from the fitted estimator (swapped likewise).
Projection = Callable[[LinearDiscriminantAnalysis], np.ndarray]

TWO_CLASS = class_conditional_datasets(min_classes=2, max_classes=2, max_features=4)
TWO_CLASS_2D = class_conditional_datasets(min_classes=2, max_classes=2, min_features=2,
                                          max_features=4)
MULTI_CLASS = class_conditional_datasets(min_classes=2, max_classes=5, max_features=5)
MANY_CLASSES = class_conditional_datasets(min_classes=3, max_classes=5, min_features=2,
                                          max_features=5, allow_duplicates=False)


def _pinned(X0: list, X1: list) -> ClassConditionalData:
    X = np.asarray(X0 + X1, dtype=float)
    y = np.repeat([0, 1], [len(X0), len(X1)])
    d = X.shape[1]
    means = np.stack([X[y == 0].mean(0), X[y == 1].mean(0)])
    return ClassConditionalData(X=X, y=y, means=means,
                                covariances=np.stack([np.eye(d), np.eye(d)]),
                                shared_covariance=True)


#: Three tight points against five spread ones: class sizes and covariances differ.
UNBALANCED_EXAMPLE = _pinned(
    [[0.0, 0.0], [1.0, 0.2], [0.0, 0.3]],
    [[4.0, 4.0], [4.0, 9.0], [9.0, 4.0], [5.0, 5.0], [6.0, 8.0]],
)

# ----------------------------------------------------------------------------- projection


def check_projected_stats(
    data: ClassConditionalData, rng, covariance_divisor: Callable[[int], float] = float
) -> None:
    """Mean and variance of the projections of each class vs w^T mu_c and w^T Sigma_c w,
    Sigma_c = S_wc / covariance_divisor(m_c)."""
    w = rng.standard_normal(data.n_features)
    for Xc, mu, S in _class_parts(data):
        z = Xc @ w
        cov = S / covariance_divisor(Xc.shape[0])
        assert_close(z.mean(), w @ mu, Tolerance(1e-10, 1e-12 * (1 + np.abs(z).max()),
                                                 "mean of <= 40 projections"),
                     label="projected mean error")
        assert_close(z.var(), w @ cov @ w, Tolerance(1e-8, 1e-13 * (1 + z @ z),
                                                     "variance by two float64 formulas"),
                     label="projected variance error")


@claim(
    id="lda.projected_centres_and_spread",
    source="004 §4.1.1 (2); 003 §1.6",
    statement="Projecting class c on a line y = w^T x, the projected class centre is w^T mu_c "
    "and the variance of the projected class-c points is w^T Sigma_c w, Sigma_c the class "
    "covariance matrix.",
    method=Method.PROPERTY,
    tags=("lda", "linear"),
)
@given(data=TWO_CLASS, rng=rngs())
def projected_centres_and_spread(data, rng):
    check_projected_stats(data, rng)


def check_offset(
    data: ClassConditionalData, rng, b: float,
    line: Callable[[np.ndarray, float], np.ndarray] = lambda z, b: z + b,
) -> None:
    """Pairwise differences of projections are the same for w^T x and ``line(w^T x, b)``."""
    w = rng.standard_normal(data.n_features)
    z = data.X @ w
    zb = line(z, b)
    diffs, diffs_b = z[:, None] - z[None, :], zb[:, None] - zb[None, :]
    tol = Tolerance(0.0, 4e-16 * (abs(b) + np.abs(z).max() + 1), "one rounding of z + b")
    assert_close(diffs_b, diffs, tol, label="pairwise difference change")


@claim(
    id="lda.offset_does_not_change_projections",
    source="004 §4.1.1 (2)",
    statement="The constant b of the line can be dropped: adding b to every projection w^T x "
    "leaves all differences between projected points unchanged.",
    method=Method.PROPERTY,
    tags=("lda", "linear"),
)
@given(data=TWO_CLASS, rng=rngs(), b=st.floats(-1e3, 1e3))
def offset_does_not_change_projections(data, rng, b):
    check_offset(data, rng, b)


# ----------------------------------------------------------------------------- scatter matrices


def check_class_scatter_vs_covariance(
    data: ClassConditionalData, factor: Callable[[int], float]
) -> None:
    """Compare each class scatter sum S_wi with ``factor(m_i)`` times the class covariance."""
    for Xc, _, S in _class_parts(data):
        cov = np.cov(Xc, rowvar=False, bias=True).reshape(S.shape)
        _matrix_close(S, factor(Xc.shape[0]) * cov, SCATTER_SUMS,
                      "relative difference S_wi vs factor * Sigma_i")


@claim(
    id="lda.class_scatter_equals_covariance",
    source="004 §4.2 (3); 003 §1.6 (1.23)",
    statement="The class scatter S_wi = sum over D_i of (x - mu_i)(x - mu_i)^T equals the "
    "covariance matrix Sigma_i of the class (so S_w = Sigma_0 + Sigma_1).",
    method=Method.PROPERTY,
    tags=("lda", "linear", "erratum"),
    expect=Expect.REFUTED,
    kind=ErratumKind.SHORTHAND,
    corrected_by="lda.class_scatter_is_count_times_covariance",
    explanation="S_wi is a sum, not an average: it equals m_i times the (maximum-likelihood) "
    "covariance of class i, and (m_i - 1) times the unbiased one. The notes use Sigma_i for "
    "the projected variance in (1.22) and for the scatter sum in (1.23). Shorthand: the "
    "scatter is an unnormalised covariance, and only the direction of w depends on it.",
)
@given(data=TWO_CLASS)
def class_scatter_equals_covariance(data):
    check_class_scatter_vs_covariance(data, lambda m: 1.0)


@claim(
    id="lda.class_scatter_is_count_times_covariance",
    source="004 §4.2 (3); 003 §1.6 (1.23)",
    statement="Corrected: the class scatter S_wi equals m_i times the maximum-likelihood "
    "covariance of class i (the 1/m_i-normalised one).",
    method=Method.PROPERTY,
    tags=("lda", "linear"),
)
@given(data=MULTI_CLASS)
def class_scatter_is_count_times_covariance(data):
    check_class_scatter_vs_covariance(data, float)


def check_objective_maximisers_agree(data: ClassConditionalData) -> None:
    """Maximiser of (1.22) with covariances vs of (1.25) with scatter sums: parallel?"""
    (X0, mu0, S0), (X1, mu1, S1) = _class_parts(data)[:2]
    delta = mu0 - mu1
    C0, C1 = S0 / X0.shape[0], S1 / X1.shape[0]
    w_cov = scipy.linalg.solve(C0 + C1, delta, assume_a="pos")
    w_scatter = scipy.linalg.solve(S0 + S1, delta, assume_a="pos")
    defect = evidence.worst("1 - |cos(w_covariance, w_scatter)|",
                            _parallel_defect(w_cov, w_scatter))
    if defect > PARALLEL_SLACK:
        J_cov = rayleigh_quotient(np.stack([w_cov, w_scatter]), np.outer(delta, delta), C0 + C1)
        raise AssertionError(
            f"maximisers differ (class sizes {X0.shape[0]}, {X1.shape[0]}): "
            f"1 - |cos| = {defect:.3g}; the covariance objective (1.22) is "
            f"{J_cov[0]:.6g} at its own maximiser but {J_cov[1]:.6g} at the scatter one"
        )


@claim(
    id="lda.covariance_and_scatter_objectives_agree",
    source="003 §1.6 (1.22), (1.25); 004 §4.1.1 (3)",
    statement="Rewriting (1.22), whose denominator holds the class covariances Sigma_0 + "
    "Sigma_1, as (1.25) with the scatter sum S_w does not change the problem: both have "
    "the same maximising direction.",
    method=Method.PROPERTY,
    tags=("lda", "linear", "erratum"),
    expect=Expect.REFUTED,
    kind=ErratumKind.SHORTHAND,
    corrected_by="lda.objectives_agree_for_equal_class_sizes",
    explanation="S_w = m_0 Sigma_0 + m_1 Sigma_1 weights each class covariance by its size, "
    "so when m_0 != m_1 and Sigma_0 != Sigma_1 the maximiser (m_0 Sigma_0 + m_1 Sigma_1)^-1 "
    "(mu_0 - mu_1) of (1.25) differs from (Sigma_0 + Sigma_1)^-1 (mu_0 - mu_1) of (1.22). "
    "Shorthand rather than an error: (1.23) itself writes Sigma_i for the scatter sum, and "
    "with that reading (1.22) and (1.25) are the same quotient.",
)
@given(data=TWO_CLASS_2D)
@example(data=UNBALANCED_EXAMPLE)
def covariance_and_scatter_objectives_agree(data):
    check_objective_maximisers_agree(data)


@claim(
    id="lda.objectives_agree_for_equal_class_sizes",
    source="003 §1.6 (1.22), (1.25); 004 §4.1.1 (3)",
    statement="Corrected: with equal class sizes m_0 = m_1, S_w = m (Sigma_0 + Sigma_1), so "
    "(1.22) with covariances and (1.25) with scatter sums have the same maximiser.",
    method=Method.PROPERTY,
    tags=("lda", "linear"),
)
@given(data=class_conditional_datasets(min_classes=2, max_classes=2, min_features=2,
                                       balanced=True))
def objectives_agree_for_equal_class_sizes(data):
    check_objective_maximisers_agree(data)


def check_within_scatter(
    data: ClassConditionalData,
    formula: Callable[[list, int], np.ndarray],
) -> None:
    """Compare ``formula(parts, i)`` for every class index i with the sum of class scatters."""
    parts = _class_parts(data)
    S_w = sum(S for _, _, S in parts)
    _matrix_close(scatter_matrices(data.X, data.y).S_w, S_w, SCATTER_SUMS,
                  "implementation vs definition")
    for i in range(len(parts)):
        _matrix_close(formula(parts, i), S_w, SCATTER_SUMS, "formula vs sum of class scatters")


@claim(
    id="lda.within_scatter_as_typed_in_004",
    source="004 §4.1.2 (1)",
    statement="S_w = Sigma_0 + Sigma_1 = sum over D_0 of (x - mu_0)(x - mu_0)^T + sum over "
    "D_0 of (x - mu_1)(x - mu_1)^T (both sums run over class 0, as printed).",
    method=Method.PROPERTY,
    tags=("lda", "linear", "erratum"),
    expect=Expect.REFUTED,
    kind=ErratumKind.SYMBOL,
    corrected_by="lda.within_scatter_is_sum_of_class_scatters",
    explanation="The second sum must run over D_1, the samples of class 1; over D_0 it "
    "measures class 0's spread around the other class's mean.",
)
@given(data=TWO_CLASS)
def within_scatter_as_typed_in_004(data):
    def as_typed(parts, i):
        (X0, mu0, _), (_, mu1, _) = parts
        return (X0 - mu0).T @ (X0 - mu0) + (X0 - mu1).T @ (X0 - mu1)

    check_within_scatter(data, as_typed)


@claim(
    id="lda.within_scatter_1_27_as_written",
    source="003 §1.7 (1.27)",
    statement="S_w = sum_i S_wi = sum over x in X_i of (x - mu_i)(x - mu_i)^T, the last "
    "expression as printed, for the class index i.",
    method=Method.PROPERTY,
    tags=("lda", "linear", "erratum"),
    expect=Expect.REFUTED,
    kind=ErratumKind.TERM,
    corrected_by="lda.within_scatter_is_sum_of_class_scatters",
    explanation="The outer sum over the classes is missing from the last expression of "
    "(1.27): as printed it is the scatter S_wi of one class only.",
)
@given(data=MULTI_CLASS)
def within_scatter_1_27_as_written(data):
    check_within_scatter(data, lambda parts, i: parts[i][2])


@claim(
    id="lda.within_scatter_is_sum_of_class_scatters",
    source="003 §1.6 (1.23); 003 §1.7 (1.27); 004 §4.2 (3)",
    statement="Corrected: S_w is the sum over the classes of the class scatters "
    "sum over x in X_i of (x - mu_i)(x - mu_i)^T; it is symmetric positive semidefinite.",
    method=Method.PROPERTY,
    tags=("lda", "linear"),
)
@given(data=MULTI_CLASS)
def within_scatter_is_sum_of_class_scatters(data):
    check_within_scatter(data, lambda parts, i: sum(S for _, _, S in parts))
    S_w = scatter_matrices(data.X, data.y).S_w
    _matrix_close(S_w, S_w.T, SCATTER_SUMS, "asymmetry of S_w")
    eig = np.linalg.eigvalsh(S_w)
    neg = evidence.worst("-lambda_min(S_w) / lambda_max(S_w)", -eig[0] / max(eig[-1], 1e-300))
    if neg > 1e-12:  # eigvalsh is backward stable: computed eigenvalues move by ~1e-16 ||S_w||
        raise AssertionError(f"S_w is not positive semidefinite: eigenvalues {eig}")


def weighted_between_scatter(parts: list, mu: np.ndarray) -> np.ndarray:
    """003 (1.27): sum_i m_i (mu_i - mu)(mu_i - mu)^T."""
    return sum(X.shape[0] * np.outer(m - mu, m - mu) for X, m, _ in parts)


def check_total_scatter(
    data: ClassConditionalData,
    between: Callable[[list, np.ndarray], np.ndarray] = weighted_between_scatter,
) -> None:
    """S_t = S_w + S_b with S_b from ``between``; also against the estimator's attributes."""
    parts = _class_parts(data)
    mu = data.X.mean(axis=0)
    S_t = (data.X - mu).T @ (data.X - mu)
    S_w = sum(S for _, _, S in parts)
    S_b = between(parts, mu)
    _matrix_close(S_w + S_b, S_t, SCATTER_SUMS, "relative difference S_w + S_b vs S_t")
    if data.n_classes >= 2:
        lda = _fit(data)
        _matrix_close(lda.S_b_, S_b, SCATTER_SUMS, "estimator S_b_ vs formula")
        _matrix_close(lda.S_t_, S_t, SCATTER_SUMS, "estimator S_t_ vs formula")


@claim(
    id="lda.total_scatter_decomposition",
    source="003 §1.7 (1.27); 004 §4.2 (3)",
    statement="With S_b = sum_i m_i (mu_i - mu)(mu_i - mu)^T (class sizes as weights), the "
    "total scatter S_t = sum over all x of (x - mu)(x - mu)^T equals S_w + S_b.",
    method=Method.PROPERTY,
    tags=("lda", "linear"),
)
@given(data=MULTI_CLASS)
def total_scatter_decomposition(data):
    check_total_scatter(data)


@claim(
    id="lda.two_class_between_scatter_consistent",
    source="003 §1.6 (1.24); 003 §1.7 (1.27)",
    statement="For two classes the weighted S_b of (1.27) is (m_0 m_1 / m) times the S_b = "
    "(mu_0 - mu_1)(mu_0 - mu_1)^T of (1.24): both give the same Rayleigh-quotient maximiser.",
    method=Method.PROPERTY,
    tags=("lda", "linear"),
)
@given(data=TWO_CLASS)
def two_class_between_scatter_consistent(data):
    check_two_class_between(data)


def check_two_class_between(
    data: ClassConditionalData,
    factor: Callable[[int, int], float] = lambda m0, m1: m0 * m1 / (m0 + m1),
) -> None:
    """S_b of (1.27) vs factor(m0, m1) * (mu_0 - mu_1)(mu_0 - mu_1)^T."""
    (X0, mu0, _), (X1, mu1, _) = _class_parts(data)
    sc = scatter_matrices(data.X, data.y)
    _matrix_close(sc.S_b, factor(X0.shape[0], X1.shape[0]) * np.outer(mu0 - mu1, mu0 - mu1),
                  SCATTER_SUMS, "relative difference S_b(1.27) vs (m0 m1/m) S_b(1.24)")


# ----------------------------------------------------------------------------- the quotient


@claim(
    id="lda.rayleigh_quotient_rewrite",
    source="003 §1.6 (1.22), (1.25); 004 §4.1.1 (3)",
    statement="||w^T mu_0 - w^T mu_1||^2 / (w^T Sigma_0 w + w^T Sigma_1 w) equals "
    "w^T (mu_0 - mu_1)(mu_0 - mu_1)^T w / w^T (Sigma_0 + Sigma_1) w, i.e. w^T S_b w / "
    "w^T S_w w, for every w (Sigma_c standing for the class scatter of (1.23)).",
    method=Method.PROPERTY,
    tags=("lda", "linear"),
)
@given(data=TWO_CLASS, rng=rngs())
def rayleigh_quotient_rewrite(data, rng):
    check_quotient_rewrite(data, rng)


def note_between_two_class(mu0: np.ndarray, mu1: np.ndarray) -> np.ndarray:
    """003 (1.24): S_b = (mu_0 - mu_1)(mu_0 - mu_1)^T."""
    return np.outer(mu0 - mu1, mu0 - mu1)


def check_quotient_rewrite(
    data: ClassConditionalData, rng,
    between: Callable[[np.ndarray, np.ndarray], np.ndarray] = note_between_two_class,
) -> None:
    """The three forms of J in (1.22) and (1.25) agree on random directions."""
    (_, mu0, S0), (_, mu1, S1) = _class_parts(data)
    sc = scatter_matrices(data.X, data.y)
    S_b = between(mu0, mu1)
    for w in _random_directions(rng, data.n_features, 8):
        first = (w @ mu0 - w @ mu1) ** 2 / (w @ S0 @ w + w @ S1 @ w)
        second = (w @ S_b @ w) / (w @ (S0 + S1) @ w)
        third = rayleigh_quotient(w, S_b, sc.S_w)
        # w^T mu_0 - w^T mu_1 cancels when the means nearly coincide: allow the
        # cancellation's rounding relative to (|w.mu_0| + |w.mu_1|)^2.
        scale = (abs(w @ mu0) + abs(w @ mu1)) ** 2 / (w @ sc.S_w @ w)
        tol = Tolerance(1e-9, 1e-14 * scale, "two float64 evaluations; subtraction of "
                        "nearly equal projected means")
        assert_close(first, second, tol, label="(1.22) first vs second form")
        assert_close(second, third, tol, label="(1.22) vs (1.25)")


@claim(
    id="lda.quotient_independent_of_length",
    source="003 §1.6; 004 §4.1.2 (3)",
    statement="J(w) = w^T S_b w / w^T S_w w depends only on the direction of w: J(c w) = J(w) "
    "for every c != 0.",
    method=Method.PROPERTY,
    tags=("lda", "linear"),
)
@given(
    data=MULTI_CLASS,
    rng=rngs(),
    c=st.floats(1e-3, 1e3) | st.floats(-1e3, -1e-3),
)
def quotient_independent_of_length(data, rng, c):
    check_length_independence(data, rng, c)


def check_length_independence(
    data: ClassConditionalData, rng, c: float,
    quotient: Callable[[np.ndarray, np.ndarray, np.ndarray], np.ndarray] = rayleigh_quotient,
) -> None:
    """quotient(c W) == quotient(W) for random unit directions W."""
    sc = scatter_matrices(data.X, data.y)
    W = _random_directions(rng, data.n_features, 8)
    J, Jc = quotient(W, sc.S_b, sc.S_w), quotient(c * W, sc.S_b, sc.S_w)
    bound = float(np.max(np.einsum("ki,ij,kj->k", np.abs(W), np.abs(sc.S_b), np.abs(W))
                         / np.einsum("ki,ij,kj->k", W, sc.S_w, W)))
    tol = Tolerance(1e-12, 1e-14 * bound, "c scales numerator and denominator "
                    "by c^2; rounding relative to the quadratic forms' absolute terms")
    assert_close(Jc, J, tol, label="|J(cw) - J(w)| relative")


def note_direction(lda: LinearDiscriminantAnalysis, data: ClassConditionalData) -> np.ndarray:
    """The note's w = S_w^-1 (mu_0 - mu_1) as the estimator computes it (SVD, 004 §4.1.2)."""
    return lda.w_


def check_direction_maximises_quotient(
    data: ClassConditionalData,
    rng,
    direction: Direction = note_direction,
) -> None:
    """J(direction) equals the largest generalised eigenvalue and beats every direction tried."""
    lda, S_w = _fit_ridged(data)
    delta = lda.means_[0] - lda.means_[1]
    S_b = np.outer(delta, delta)
    w = direction(lda, data)
    J_w = rayleigh_quotient(w, S_b, S_w)
    evals, evecs = scipy.linalg.eigh(S_b, S_w)
    lam_max = float(evals[-1])
    assert_close(J_w, lam_max, GENERALISED_EIGEN, label="|J(w) - lambda_max| / lambda_max")
    evidence.worst("1 - |cos(w, top generalised eigenvector)|",
                   _parallel_defect(w, evecs[:, -1]))
    # brute force: random directions, the axes, and small perturbations of w
    d = data.n_features
    V = np.vstack([
        _random_directions(rng, d, 512),
        np.eye(d),
        w + 1e-3 * np.linalg.norm(w) * _random_directions(rng, d, 64),
    ])
    best = float(np.max(rayleigh_quotient(V, S_b, S_w)))
    assert_leq(best, J_w, label="max J over tried directions / J(w)", tol=GENERALISED_EIGEN)


@claim(
    id="lda.closed_form_maximises_quotient",
    source="003 §1.6 (1.25)-(1.26); 004 §4.1.2 (3)",
    statement="w = S_w^-1 (mu_0 - mu_1) maximises J = w^T S_b w / w^T S_w w with S_b = "
    "(mu_0 - mu_1)(mu_0 - mu_1)^T: J(w) equals the largest generalised eigenvalue of "
    "(S_b, S_w) (scipy.linalg.eigh) and no direction does better (brute-force search).",
    method=Method.REFERENCE,
    tags=("lda", "linear"),
)
@given(data=TWO_CLASS, rng=rngs())
def closed_form_maximises_quotient(data, rng):
    check_direction_maximises_quotient(data, rng)


@claim(
    id="lda.svd_inverse",
    source="004 §4.1.2 (3); 003 §1.6",
    statement="If S_w = U Sigma V^T is a singular value decomposition of the (invertible) "
    "within-class scatter, then S_w^-1 = V Sigma^-1 U^T.",
    method=Method.PROPERTY,
    tags=("lda", "linear"),
)
@given(data=TWO_CLASS)
def svd_inverse(data):
    check_svd_inverse(data)


def note_svd_inverse(U: np.ndarray, s: np.ndarray, Vt: np.ndarray) -> np.ndarray:
    """004 §4.1.2 (3): S_w^-1 = V Sigma^-1 U^T."""
    return (Vt.T / s) @ U.T


def check_svd_inverse(
    data: ClassConditionalData,
    inverse: Callable[[np.ndarray, np.ndarray, np.ndarray], np.ndarray] = note_svd_inverse,
) -> None:
    """||inverse(U, s, V^T) S_w - I|| within the backward-error bound of the SVD."""
    S_w = scatter_matrices(data.X, data.y).S_w
    U, s, Vt = np.linalg.svd(S_w)
    P = inverse(U, s, Vt)
    cond = s[0] / s[-1]
    evidence.worst("cond(S_w)", cond)
    err = float(np.linalg.norm(P @ S_w - np.eye(S_w.shape[0]), 2))
    # backward-stable SVD: ||P S_w - I|| <= p(d) * eps * cond(S_w) with a modest polynomial
    # p(d); allow p(d) = 100 d (the thorough profile observed at most 0.13 of this)
    allowed = 100 * S_w.shape[0] * np.finfo(float).eps * cond
    assert_leq(err, allowed, label="||V Sigma^-1 U^T S_w - I|| / (100 d eps cond(S_w))")


def check_class0_projects_above(
    data: ClassConditionalData,
    direction: Direction = note_direction,
) -> None:
    """w^T mu_0 - w^T mu_1 = (mu_0 - mu_1)^T S_w^-1 (mu_0 - mu_1) > 0 (when mu_0 != mu_1)."""
    lda, S_w = _fit_ridged(data)
    delta = lda.means_[0] - lda.means_[1]
    w = direction(lda, data)
    gap = float(w @ delta)
    expected = float(delta @ scipy.linalg.solve(S_w, delta, assume_a="pos"))
    assert_close(gap, expected, GENERALISED_EIGEN, label="w^T(mu0 - mu1) vs quadratic form")
    if not gap > 0:
        raise AssertionError(f"class 0 projects at or below class 1: w^T(mu0 - mu1) = {gap!r}")


@claim(
    id="lda.class_zero_projects_above_class_one",
    source="003 §1.6 (1.26); 004 §4.1.2 (3)",
    statement="With w = S_w^-1 (mu_0 - mu_1), the projected centre of class 0 lies above that "
    "of class 1: w^T mu_0 - w^T mu_1 = (mu_0 - mu_1)^T S_w^-1 (mu_0 - mu_1) > 0, so the "
    "decision rule must call high projections class 0.",
    method=Method.PROPERTY,
    tags=("lda", "linear"),
)
@given(data=TWO_CLASS)
def class_zero_projects_above_class_one(data):
    check_class0_projects_above(data)


# ----------------------------------------------------------------------------- Bayes optimality


def _random_spd(rng, d: int, log10_cond: float) -> np.ndarray:
    Q, _ = np.linalg.qr(rng.standard_normal((d, d)))
    return (Q * np.logspace(0, -log10_cond, d)) @ Q.T


def bayes_risk_shared_gaussian(delta_maha: float, prior0: float) -> float:
    """Bayes risk of two Gaussians with one covariance, Mahalanobis distance delta, priors.

    The log-likelihood ratio s = w^T x - w^T (mu_0 + mu_1)/2, w = Sigma^-1 (mu_0 - mu_1),
    is N(+delta^2/2, delta^2) under class 0 and N(-delta^2/2, delta^2) under class 1; the
    Bayes rule says class 0 iff s > t = log(pi_1 / pi_0).
    """
    p1 = 1.0 - prior0
    t = math.log(p1 / prior0)
    half = delta_maha**2 / 2
    return float(prior0 * norm.cdf((t - half) / delta_maha)
                 + p1 * norm.cdf((-t - half) / delta_maha))


def check_lda_bayes_optimal(rng, scale: int, *, prior0: float = 0.5, problems: int = 10) -> None:
    """Simulate Gaussian two-class problems with shared covariance and priors (prior0, 1-prior0).

    For each problem: the population LDA rule's test errors must be consistent with the
    closed-form Bayes risk (one-sided Clopper-Pearson both ways, confidence 1 - 1e-6), and
    the estimator fitted on 2000 * scale points per class must have error rate at most
    Bayes + PLUG_IN_EXCESS; its exact risk (closed form) is recorded.
    """
    n_train, n_test = 2000 * scale, 100_000 * scale
    evidence.note(f"{problems} problems, d in 1..4, cond(Sigma) <= 1e2, Mahalanobis distance "
                  f"in [0.5, 3]; {n_train} training points per class, {n_test} test points; "
                  f"prior of class 0 = {prior0}")
    for _ in range(problems):
        d = int(rng.integers(1, 5))
        Sigma = _random_spd(rng, d, rng.uniform(0, 2)) * rng.uniform(0.1, 10)
        L = np.linalg.cholesky(Sigma)
        direction = L @ _random_directions(rng, d, 1)[0]  # Mahalanobis length 1
        delta_maha = rng.uniform(0.5, 3.0)
        mu0 = rng.standard_normal(d)
        mu1 = mu0 - delta_maha * direction
        mus = np.stack([mu0, mu1])

        def sample(n, labels, _L=L, _mus=mus, _d=d):
            return _mus[labels] + rng.standard_normal((n, _d)) @ _L.T

        y_train = np.repeat([0, 1], n_train)
        lda = LinearDiscriminantAnalysis().fit(sample(y_train.size, y_train), y_train)
        y_test = (rng.random(n_test) >= prior0).astype(int)
        X_test = sample(n_test, y_test)
        bayes = bayes_risk_shared_gaussian(delta_maha, prior0)

        # population LDA: nearest projected centre along Sigma^-1 (mu_0 - mu_1)
        w = scipy.linalg.solve(Sigma, mu0 - mu1, assume_a="pos")
        pop_pred = np.where(X_test @ w > w @ (mu0 + mu1) / 2, 0, 1)
        pop_err = int(np.sum(pop_pred != y_test))
        check_probability_at_most(pop_err, n_test, bayes, label="population LDA error <= Bayes")
        check_probability_at_least(pop_err, n_test, bayes,
                                   label="population LDA error >= Bayes (closed form)")

        fit_err = int(np.sum(lda.predict(X_test) != y_test))
        check_probability_at_most(fit_err, n_test, min(1.0, bayes + PLUG_IN_EXCESS),
                                  label="fitted LDA error <= Bayes + 0.01")
        # exact risk of the fitted linear rule s(x) = a^T x + c (class 1 iff s > 0)
        c = float(lda.decision_function(np.zeros((1, d)))[0])
        a = lda.decision_function(np.eye(d)) - c
        sd = float(np.sqrt(a @ Sigma @ a))
        risk = prior0 * norm.cdf((a @ mu0 + c) / sd) + (1 - prior0) * norm.cdf(-(a @ mu1 + c) / sd)
        evidence.worst("fitted LDA exact excess risk", float(risk - bayes))
        assert_leq(bayes, float(risk) + 1e-12, label="Bayes risk / fitted rule's exact risk")
        evidence.add_examples(1)


@claim(
    id="lda.bayes_optimal_equal_priors",
    source="003 §1.6 (last paragraph)",
    statement="For two Gaussian classes with equal priors and one shared covariance, LDA "
    "(project on Sigma^-1 (mu_0 - mu_1), nearest projected centre) is the Bayes-optimal "
    "classifier: its error equals the Bayes risk Phi(-delta/2), delta the Mahalanobis distance "
    "of the means; fitted on 2000 points per class it comes within 0.01 of it.",
    method=Method.SIMULATION,
    tags=("lda", "linear", "statistics"),
)
def bayes_optimal_equal_priors(rng, scale):
    check_lda_bayes_optimal(rng, scale)


# ----------------------------------------------------------------------------- multi-class


def check_between_rank(data: ClassConditionalData, bound: Callable[[int], int]) -> None:
    """rank S_b <= bound(M); so are the non-zero generalised eigenvalues and the projection."""
    sc = scatter_matrices(data.X, data.y)
    M = data.n_classes
    s = np.linalg.svd(sc.S_b, compute_uv=False)
    rank = int(np.sum(s > 1e-9 * s[0])) if s[0] > 0 else 0
    evidence.worst("rank(S_b) - (M - 1)", rank - (M - 1))
    if rank > bound(M):
        raise AssertionError(f"rank(S_b) = {rank} > {bound(M)} with M = {M} classes; "
                             f"singular values {s}")
    lda, S_w = _fit_ridged(data)
    if lda.n_components_ > bound(M):
        raise AssertionError(f"the projection has {lda.n_components_} > {bound(M)} columns")
    evals = scipy.linalg.eigh(sc.S_b, S_w, eigvals_only=True)
    nonzero = int(np.sum(evals > 1e-9 * max(evals[-1], 0.0))) if evals[-1] > 0 else 0
    if nonzero > bound(M):
        raise AssertionError(f"{nonzero} non-zero generalised eigenvalues > {bound(M)}")


@claim(
    id="lda.projection_rank_at_most_m_minus_1",
    source="003 §1.7 (1.29); 004 §4.2 (6)",
    statement="With M classes, S_b has rank at most M - 1, so at most M - 1 generalised "
    "eigenvalues of (S_b, S_w) are non-zero and LDA projects to at most M - 1 dimensions.",
    method=Method.PROPERTY,
    tags=("lda", "linear"),
)
@given(data=class_conditional_datasets(min_classes=2, max_classes=5, min_features=2,
                                       max_features=6))
def projection_rank_at_most_m_minus_1(data):
    check_between_rank(data, lambda M: M - 1)


def estimator_projection(lda: LinearDiscriminantAnalysis) -> np.ndarray:
    return lda.scalings_


def check_generalised_eigenvectors(
    data: ClassConditionalData,
    projection: Projection = estimator_projection,
) -> None:
    """Columns of W solve S_b w_j = lambda_j S_w w_j for the largest lambda_j, and are
    eigenvectors of S_w^-1 S_b (numpy's non-symmetric eig as reference)."""
    lda, S_w = _fit_ridged(data)
    S_b = lda.S_b_
    W, lam = projection(lda), lda.eigenvalues_
    scale = np.linalg.norm(S_b, 2) * np.linalg.norm(W, 2) + np.finfo(float).tiny
    res = np.linalg.norm(S_b @ W - S_w @ W * lam) / scale
    evidence.worst("||S_b W - S_w W Lambda|| / (||S_b|| ||W||)", res)
    if res > GENERALISED_EIGEN.rtol:
        raise AssertionError(f"S_b W != S_w W Lambda: relative residual {res:.3g}")
    A = np.linalg.solve(S_w, S_b)
    ref = np.sort(np.linalg.eigvals(A).real)[::-1][: lam.size]
    assert_close(lam, ref, Tolerance(GENERALISED_EIGEN.rtol, GENERALISED_EIGEN.rtol * ref[0],
                                     GENERALISED_EIGEN.reason),
                 label="eigenvalues vs eig(S_w^-1 S_b)")
    res_a = np.linalg.norm(A @ W - W * lam) / (np.linalg.norm(A, 2) * np.linalg.norm(W, 2)
                                                + np.finfo(float).tiny)
    evidence.worst("||S_w^-1 S_b W - W Lambda|| relative", res_a)
    if res_a > 1e-6:
        raise AssertionError(f"W is not made of eigenvectors of S_w^-1 S_b: residual {res_a:.3g}")


@claim(
    id="lda.multiclass_generalised_eigenvectors",
    source="003 §1.7 (1.29); 004 §4.2 (6)",
    statement="The multi-class projection W consists of the generalised eigenvectors of "
    "S_b w = lambda S_w w for the M - 1 largest eigenvalues, i.e. eigenvectors of S_w^-1 S_b: "
    "S_b W = S_w W Lambda with Lambda the diagonal of those eigenvalues.",
    method=Method.REFERENCE,
    tags=("lda", "linear"),
)
@given(data=MULTI_CLASS)
def multiclass_generalised_eigenvectors(data):
    check_generalised_eigenvectors(data)


@claim(
    id="lda.multiclass_single_lambda_as_written",
    source="003 §1.7 (1.29); 004 §4.2 (6)",
    statement="The projection matrix W (M - 1 columns) solves S_b W = lambda S_w W for a "
    "single scalar lambda.",
    method=Method.PROPERTY,
    tags=("lda", "linear", "erratum"),
    expect=Expect.REFUTED,
    kind=ErratumKind.SHORTHAND,
    corrected_by="lda.multiclass_generalised_eigenvectors",
    explanation="Each column has its own eigenvalue: the equation is S_b W = S_w W Lambda "
    "with a diagonal Lambda. One scalar fits only when the M - 1 eigenvalues coincide. "
    "Shorthand: the next sentence (eigenvectors of the largest eigenvalues) shows that a "
    "column-wise lambda is meant.",
)
@given(data=MANY_CLASSES)
def multiclass_single_lambda_as_written(data):
    lda, S_w = _fit_ridged(data)
    B, A = lda.S_b_ @ lda.scalings_, S_w @ lda.scalings_
    lam = float(np.sum(A * B) / np.sum(A * A))  # least-squares scalar
    res = float(np.linalg.norm(B - lam * A) / (np.linalg.norm(B) + np.finfo(float).tiny))
    evidence.worst("min over lambda ||S_b W - lambda S_w W|| / ||S_b W||", res)
    if res > 1e-6:
        raise AssertionError(
            f"no scalar lambda fits: best lambda {lam:.6g} leaves relative residual {res:.3g}; "
            f"the column eigenvalues are {lda.eigenvalues_}"
        )


def _trace_ratio(W: np.ndarray, S_b: np.ndarray, S_w: np.ndarray) -> float:
    return float(np.trace(W.T @ S_b @ W) / np.trace(W.T @ S_w @ W))


def _invariant_ratios(Ws: list[np.ndarray], S_b: np.ndarray, S_w: np.ndarray) -> np.ndarray:
    """tr((W^T S_w W)^-1 W^T S_b W) for each W: the objective the eigenvectors maximise.

    Computed stably: with S_w = L L^T, B = L^-1 S_b L^-T and L^T W = Q R (QR, batched),
    it equals tr(Q^T B Q).
    """
    L = np.linalg.cholesky(S_w)
    Linv = scipy.linalg.solve_triangular(L, np.eye(L.shape[0]), lower=True)
    B = Linv @ S_b @ Linv.T
    Q, _ = np.linalg.qr(np.einsum("ji,njk->nik", L, np.stack(Ws)))
    return np.einsum("nik,ij,njk->n", Q, B, Q)


def _candidate_projections(rng, W_star: np.ndarray, n_random: int = 128) -> list[np.ndarray]:
    d, k = W_star.shape
    cands = [rng.standard_normal((d, k)) for _ in range(n_random)]
    cands += [W_star + 1e-2 * np.linalg.norm(W_star) * rng.standard_normal((d, k))
              for _ in range(32)]
    tilted = W_star.copy()
    tilted[:, 1:] *= 1e-3  # all the weight on the top eigenvector
    cands.append(tilted)
    return cands


@claim(
    id="lda.trace_ratio_maximised_by_eigenvectors_as_written",
    source="003 §1.7 (1.28)-(1.29); 004 §4.2 (4), (6)",
    statement="The matrix W of the M - 1 top generalised eigenvectors maximises "
    "tr(W^T S_b W) / tr(W^T S_w W) over W in R^{n x (M-1)}.",
    method=Method.PROPERTY,
    tags=("lda", "linear", "erratum"),
    expect=Expect.REFUTED,
    kind=ErratumKind.OVERCLAIM,
    corrected_by="lda.eigenvectors_maximise_constrained_trace",
    explanation="The ratio of traces is at most lambda_1 and approaches it when all columns "
    "point along the top eigenvector (e.g. W = [w_1, eps w_2, ...]); the eigenvector matrix "
    "only reaches the mean of the M - 1 largest eigenvalues. The eigenvectors maximise "
    "tr(W^T S_b W) subject to W^T S_w W = I, equivalently tr((W^T S_w W)^-1 W^T S_b W).",
)
@given(data=MANY_CLASSES, rng=rngs())
def trace_ratio_maximised_by_eigenvectors_as_written(data, rng):
    lda, S_w = _fit_ridged(data)
    W_star = lda.scalings_
    best = _trace_ratio(W_star, lda.S_b_, S_w)
    for W in _candidate_projections(rng, W_star):
        r = _trace_ratio(W, lda.S_b_, S_w)
        evidence.worst("max trace ratio of candidates / trace ratio of eigenvectors", r / best)
        if r > best * (1 + 1e-9):
            raise AssertionError(
                f"a W with trace ratio {r:.6g} beats the eigenvector matrix ({best:.6g}); "
                f"eigenvalues {lda.eigenvalues_}"
            )


def check_constrained_trace(
    data: ClassConditionalData,
    rng,
    projection: Projection = estimator_projection,
) -> None:
    """W* satisfies W*^T S_w W* = I, attains sum of the top eigenvalues, and no candidate
    W has a larger tr((W^T S_w W)^-1 W^T S_b W)."""
    lda, S_w = _fit_ridged(data)
    S_b = lda.S_b_
    k = lda.n_components_
    W_star = projection(lda)
    top = np.sort(scipy.linalg.eigh(S_b, S_w, eigvals_only=True))[::-1][:k].sum()
    _matrix_close(W_star.T @ S_w @ W_star, np.eye(k), GENERALISED_EIGEN,
                  "W*^T S_w W* vs I")
    attained = float(np.trace(W_star.T @ S_b @ W_star))
    assert_close(attained, top, GENERALISED_EIGEN, label="tr(W*^T S_b W*) vs top eigenvalue sum")
    best = float(np.max(_invariant_ratios(_candidate_projections(rng, W_star), S_b, S_w)))
    assert_leq(best, attained, label="max candidate invariant ratio / attained",
               tol=GENERALISED_EIGEN)


@claim(
    id="lda.eigenvectors_maximise_constrained_trace",
    source="003 §1.7 (1.28)-(1.29); 004 §4.2 (4), (6)",
    statement="Corrected: the top generalised eigenvectors W* (normalised W*^T S_w W* = I) "
    "maximise tr(W^T S_b W) subject to W^T S_w W = I, with maximum the sum of the top "
    "eigenvalues; equivalently they maximise tr((W^T S_w W)^-1 W^T S_b W) over full-rank W.",
    method=Method.PROPERTY,
    tags=("lda", "linear"),
)
@given(data=MANY_CLASSES, rng=rngs())
def eigenvectors_maximise_constrained_trace(data, rng):
    check_constrained_trace(data, rng)


def check_projection_dimension(
    data: ClassConditionalData, dimension: Callable[[int, int], int]
) -> None:
    """The projection W has ``dimension(M, d)`` S_w-orthonormal (hence independent) columns."""
    lda, S_w = _fit_ridged(data)
    M, d = data.n_classes, data.n_features
    want = dimension(M, d)
    available = d  # a d x d generalised eigenproblem has exactly d eigenvectors
    W = lda.scalings_
    if want > available:
        raise AssertionError(
            f"M = {M} classes in d = {d} dimensions: (S_b, S_w) has only {d} generalised "
            f"eigenvectors, so no projection onto {want} independent directions exists"
        )
    if W.shape[1] != want:
        raise AssertionError(f"the projection has {W.shape[1]} columns, expected {want}")
    _matrix_close(W.T @ S_w @ W, np.eye(want), GENERALISED_EIGEN, "W^T S_w W vs I")
    sc = scatter_matrices(data.X, data.y)
    s = np.linalg.svd(sc.S_b, compute_uv=False)
    evidence.record("last example: rank S_b, min(M-1, d)",
                    f"{int(np.sum(s > 1e-9 * s[0]))}, {min(M - 1, d)}")


@claim(
    id="lda.projects_to_m_minus_1_dimensions_as_written",
    source="004 §4.2 (4), (6); 003 §1.7",
    statement="Multi-class LDA projects the samples onto an (M - 1)-dimensional space: W in "
    "R^{n x (M-1)} made of M - 1 generalised eigenvectors.",
    method=Method.PROPERTY,
    tags=("lda", "linear", "erratum"),
    expect=Expect.REFUTED,
    kind=ErratumKind.MISSING_CONDITION,
    corrected_by="lda.projection_dimension_is_min_of_m_minus_1_and_n",
    explanation="With fewer features than M - 1 (n < M - 1) there are only n generalised "
    "eigenvectors: the projection has min(M - 1, n) dimensions (e.g. 3 classes on a line "
    "project to 1 dimension, not 2).",
)
@given(data=class_conditional_datasets(min_classes=2, max_classes=6, max_features=4))
def projects_to_m_minus_1_dimensions_as_written(data):
    check_projection_dimension(data, lambda M, d: M - 1)


@claim(
    id="lda.projection_dimension_is_min_of_m_minus_1_and_n",
    source="004 §4.2 (4), (6); 003 §1.7",
    statement="Corrected: multi-class LDA projects onto min(M - 1, n) dimensions, spanned by "
    "that many S_w-orthonormal generalised eigenvectors.",
    method=Method.PROPERTY,
    tags=("lda", "linear"),
)
@given(data=class_conditional_datasets(min_classes=2, max_classes=6, max_features=4))
def projection_dimension_is_min_of_m_minus_1_and_n(data):
    check_projection_dimension(data, lambda M, d: min(M - 1, d))


# ------------------------------------------------------------ Lagrangian step as printed


def check_lagrangian_step(data: ClassConditionalData, length: Callable[[float], float]) -> None:
    """004 §4.1.2 (3) fixes w^T S_w w = 1, then sets lambda_w = (mu_0 - mu_1)^T w equal to
    the multiplier lambda and concludes w = S_w^-1 (mu_0 - mu_1). Check that the vector
    ``length(q) * S_w^-1 (mu_0 - mu_1)`` (``q = delta^T S_w^-1 delta``) meets the constraint
    and the stationarity equation S_b w = lambda S_w w with lambda = w^T S_b w."""
    sc = scatter_matrices(data.X, data.y)
    S_w = sc.S_w + 1e-9 * np.trace(sc.S_w) * np.eye(sc.S_w.shape[0])  # keep it invertible
    delta = sc.means[0] - sc.means[1]
    direction = np.linalg.solve(S_w, delta)
    q = float(delta @ direction)
    w = length(q) * direction
    S_b = np.outer(delta, delta)
    lam = float(w @ S_b @ w)
    bound = 1e3 * float(np.linalg.cond(S_w)) * float(np.finfo(float).eps)
    solve = Tolerance(rtol=bound, atol=bound * (1.0 + abs(lam)) * float(np.abs(S_w @ w).max()),
                      reason="a linear solve in S_w: error ~ 1000 cond(S_w) eps")
    assert_close(float(w @ S_w @ w), 1.0, solve, label="w^T S_w w (the constraint)")
    assert_close(S_b @ w, lam * (S_w @ w), solve, label="S_b w vs lambda S_w w")
    evidence.worst("|delta^T S_w^-1 delta - 1|", abs(q - 1.0))


@claim(
    id="lda.lagrangian_step_as_written",
    source="004 §4.1.2 (3)",
    statement="In 004 §4.1.2 (3), under the constraint w^T S_w w = 1, setting lambda_w = "
    "(mu_0 - mu_1)^T w equal to the multiplier lambda turns S_b w = lambda S_w w into "
    "mu_0 - mu_1 = S_w w, so w = S_w^-1 (mu_0 - mu_1) solves the constrained problem as printed.",
    method=Method.PROPERTY,
    tags=("lda", "linear", "erratum"),
    expect=Expect.REFUTED,
    kind=ErratumKind.SHORTHAND,
    corrected_by="lda.lagrangian_step_rescaled",
    explanation="Under the constraint the multiplier is lambda = w^T S_b w = lambda_w^2, so "
    "lambda_w = lambda forces lambda_w = 1; w = S_w^-1 (mu_0 - mu_1) has lambda_w = "
    "delta^T S_w^-1 delta and meets w^T S_w w = 1 only when that number is 1. The step fixes "
    "the direction, not the length: the constrained solution is S_w^-1 delta / sqrt(delta^T "
    "S_w^-1 delta), as the note's remark that only the direction matters intends.",
)
@given(data=TWO_CLASS)
def lagrangian_step_as_written(data):
    check_lagrangian_step(data, lambda q: 1.0)


@claim(
    id="lda.lagrangian_step_rescaled",
    source="004 §4.1.2 (3); 003 §1.6 (1.26)",
    statement="Corrected: w = S_w^-1 (mu_0 - mu_1) / sqrt((mu_0 - mu_1)^T S_w^-1 (mu_0 - mu_1)) "
    "meets the constraint w^T S_w w = 1 and S_b w = lambda S_w w with lambda = w^T S_b w: the "
    "direction of 003 (1.26) at the length the constraint fixes.",
    method=Method.PROPERTY,
    tags=("lda", "linear"),
)
@given(data=TWO_CLASS)
def lagrangian_step_rescaled(data):
    check_lagrangian_step(data, lambda q: 1.0 / np.sqrt(q))
