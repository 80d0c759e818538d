"""Claims of 003 §4.6: the representer theorem (4.44)-(4.45) on kernel ridge regression and
kernelised LDA (4.46)-(4.53), against explicit finite feature maps."""

from __future__ import annotations

import numpy as np
import scipy.linalg
from hypothesis import assume, example, given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp
from sklearn.metrics.pairwise import rbf_kernel

from algorithms.kernels import GaussianKernel, KernelLDA, KernelRidge, klda_matrices
from mltheory import ErratumKind, Expect, Method, claim, evidence
from mltheory.numeric import LINEAR_ALGEBRA, Tolerance, assert_close, assert_leq

#: Solutions of linear systems with condition number up to 1e6 (filtered below).
CONDITIONED_SOLVE = Tolerance(rtol=1e-7, atol=1e-9,
                              reason="two different linear solves, each accurate to "
                              "cond * 1e-16 with cond <= 1e6 (filtered), plus the "
                              "feature-space round trip")


def quadratic_features(X: np.ndarray) -> np.ndarray:
    """phi with <phi(x), phi(z)> = (x.z)^2: the upper-triangular monomials, cross terms
    scaled by sqrt(2) (so no feature is duplicated and S_w can be non-singular)."""
    n, d = X.shape
    cols = []
    for i in range(d):
        for j in range(i, d):
            cols.append(X[:, i] * X[:, j] * (1.0 if i == j else np.sqrt(2.0)))
    return np.column_stack(cols)


POINTS = hnp.arrays(np.float64, st.tuples(st.integers(2, 12), st.integers(1, 3)),
                    elements=st.floats(-2, 2, width=64))


@claim(
    id="kernels.representer_4_44_4_45",
    source="003 §4.6 (4.44)-(4.45)",
    statement="For Omega increasing and a non-negative loss, a minimiser of Omega(||h||) + "
    "loss(h(x_1..x_m)) can be written h*(x) = sum_i alpha_i kappa(x, x_i): kernel ridge "
    "regression (Omega = lam t^2, squared loss) in the (x.z)^2 feature space equals the "
    "representer expansion, and adding any component orthogonal to span{phi(x_i)} "
    "increases the objective.",
    method=Method.PROPERTY,
    tags=("kernels", "representer"),
)
@given(X=POINTS, targets=hnp.arrays(np.float64, 12, elements=st.floats(-3, 3)),
       lam=st.sampled_from([1e-3, 0.1, 10.0]),
       direction=hnp.arrays(np.float64, 6, elements=st.floats(-1, 1)))
def representer_4_44_4_45(X, targets, lam, direction):
    check_representer(X, targets[: X.shape[0]], lam, direction)


def check_representer(X, y, lam, direction, increase: float = 1.0) -> None:
    """KRR vs feature-space ridge, and the objective rising by ``increase * lam ||u||^2``
    off the span (``increase = 1`` is the claim; another value is a constant scaled)."""
    F = quadratic_features(X)
    D = F.shape[1]
    # primal ridge in feature space: (F^T F + lam I) w = F^T y
    w = np.linalg.solve(F.T @ F + lam * np.eye(D), F.T @ y)
    model = KernelRidge(lam=lam, kernel="poly", kernel_params={"degree": 2}).fit(X, y)
    assert_close(model.predict(X), F @ w, CONDITIONED_SOLVE, label="KRR vs feature ridge")
    assert_close(model.dual_coef_ @ F, w, CONDITIONED_SOLVE, label="w = sum alpha_i phi(x_i)")

    def objective(v):
        return lam * v @ v + np.sum((F @ v - y) ** 2)

    # a direction orthogonal to the span of the phi(x_i) (if the span is not everything)
    u = direction[:D]
    U, sing, _ = np.linalg.svd(F.T, full_matrices=False)
    rank = int(np.sum(sing > 1e-10 * max(1.0, sing.max())))
    u = u - U[:, :rank] @ (U[:, :rank].T @ u)
    if np.linalg.norm(u) > 1e-6:
        assert_close(F @ u, np.zeros(len(y)), CONDITIONED_SOLVE, label="u leaves predictions")
        # predictions unchanged and w orthogonal to u: the objective grows by lam ||u||^2 > 0
        assert_leq(objective(w), objective(w + u), label="objective(h*) / objective(h* + u)")
        assert_close(objective(w + u) - objective(w), increase * lam * (u @ u),
                     CONDITIONED_SOLVE, label="increase vs lam ||u||^2")


@claim(
    id="klda.scatter_identities_4_52",
    source="003 §4.6 (4.48)-(4.52)",
    statement="With w = sum_i alpha_i phi(x_i) (4.51), w^T S_b^phi w = alpha^T M alpha and "
    "w^T S_w^phi w = alpha^T N alpha for mu_hat_i = K l_i / m_i, M = (mu_hat_0 - "
    "mu_hat_1)(mu_hat_0 - mu_hat_1)^T and N = K K^T - sum_i m_i mu_hat_i mu_hat_i^T (4.52), "
    "so J(w) of (4.47) equals J(alpha) of (4.53).",
    method=Method.PROPERTY,
    tags=("kernels", "klda"),
)
@given(X=POINTS, labels=hnp.arrays(np.int64, 12, elements=st.integers(0, 1)),
       alpha=hnp.arrays(np.float64, 12, elements=st.floats(-2, 2)))
def scatter_identities_4_52(X, labels, alpha):
    check_scatter_identities(X, labels, alpha)


def check_scatter_identities(X, labels, alpha, matrices=klda_matrices) -> None:
    """alpha^T M alpha and alpha^T N alpha against w^T S_b w and w^T S_w w in an explicit
    feature space; ``matrices(K, labels) -> (mu_hat, M, N)`` is (4.52) (replaceable for
    teeth)."""
    m = X.shape[0]
    lab = labels[:m].copy()
    lab[0], lab[1] = 0, 1
    a = alpha[:m]
    F = quadratic_features(X)
    mus = [F[lab == c].mean(axis=0) for c in (0, 1)]
    Sb = np.outer(mus[1] - mus[0], mus[1] - mus[0])
    Sw = sum((F[lab == c] - mus[c]).T @ (F[lab == c] - mus[c]) for c in (0, 1))
    w = a @ F
    _, M, N = matrices(F @ F.T, lab)
    scale = max(1.0, np.abs(F).max()) ** 4 * max(1.0, np.abs(a).sum()) ** 2
    exact = Tolerance(rtol=1e-10, atol=1e-12 * scale,
                      reason="the same quadratic forms summed in two orders; rounding "
                      "relative to the size of the terms")
    assert_close(a @ M @ a, w @ Sb @ w, exact, label="between-class identity")
    assert_close(a @ N @ a, w @ Sw @ w, exact, label="within-class identity")


#: Eight points whose quadratic features give cond(S_w) = 4.5; scaled by 1e40 the kernel
#: values (x^T z)^2 reach 1e160 and N = K K^T would overflow unless K is rescaled (the
#: projection itself does not depend on the scale of X).
WELL_CONDITIONED = np.array([[1.22, 1.23], [0.06, -0.86], [-1.78, -0.47], [-0.37, -1.82],
                             [-1.8, 2.0], [0.61, -1.06], [-0.26, 1.9], [1.59, 1.38]])
WELL_CONDITIONED_LABELS = np.array([0, 0, 1, 1, 0, 1, 0, 1, 0, 0, 0, 0, 0, 0])


@claim(
    id="klda.kernel_trick_equals_explicit_lda",
    source="003 §4.6 (4.50)-(4.53)",
    statement="Kernel LDA through the kernel trick — alpha = N^+ (mu_hat_0 - mu_hat_1), "
    "h(x) = sum_i alpha_i kappa(x, x_i) — gives the same projection as LDA on the explicit "
    "features, w = (S_w^phi)^{-1}(mu_0^phi - mu_1^phi), h(x) = w^T phi(x), at any scale "
    "of X (kernel values up to 1e160 included).",
    method=Method.PROPERTY,
    tags=("kernels", "klda"),
)
@given(X=hnp.arrays(np.float64, st.tuples(st.integers(6, 14), st.just(2)),
                    elements=st.floats(-2, 2, width=64)),
       labels=hnp.arrays(np.int64, 14, elements=st.integers(0, 1)))
@example(X=1e40 * WELL_CONDITIONED, labels=WELL_CONDITIONED_LABELS)
def kernel_trick_equals_explicit_lda(X, labels):
    m = X.shape[0]
    lab = labels[:m].copy()
    lab[:2], lab[2:4] = 0, 1
    F = quadratic_features(X)
    mus = [F[lab == c].mean(axis=0) for c in (0, 1)]
    Sw = sum((F[lab == c] - mus[c]).T @ (F[lab == c] - mus[c]) for c in (0, 1))
    s = np.linalg.svd(F, compute_uv=False)
    # measure-zero degeneracies (points on a conic, repeated points) make S_w singular
    assume(np.linalg.cond(Sw) < 1e6 and s[-1] > 1e-3 * s[0])
    w = np.linalg.solve(Sw, mus[0] - mus[1])
    model = KernelLDA(reg=0.0, kernel="poly", kernel_params={"degree": 2}).fit(X, lab)
    h_kernel, h_lda = model.transform(X), F @ w
    evidence.worst("relative gap of projections",
                   float(np.max(np.abs(h_kernel - h_lda)) / max(1.0, np.abs(h_lda).max())))
    tol = Tolerance(rtol=1e-5, atol=1e-6 * max(1.0, np.abs(h_lda).max()),
                    reason="pseudo-inverse of the rank-deficient N (cond(S_w) <= 1e6, "
                    "cond(Phi)^2 <= 1e6): errors about cond(N_range) * 1e-16")
    assert_close(h_kernel, h_lda, tol, label="kernel-trick vs explicit projection")


#: Singular values of N below this fraction of the largest count as zero: N = K (I - P) K is
#: formed in floating point, so its exact null space shows up at about m eps cond(K) ||N||.
NULL_SINGULAR_VALUE = 1e-9


def check_lda_solution_as_printed(X: np.ndarray, labels: np.ndarray, ridge: float = 0.0
                                  ) -> None:
    """LDA's recipe (1.26) applied to (4.53): alpha = N^{-1}(mu_hat_0 - mu_hat_1) with
    N^{-1} = V Sigma^{-1} U^T from the SVD of N, which needs every singular value > 0.
    ``ridge`` > 0 checks N + ridge * (||N|| / m) I instead (the regularised recipe)."""
    K = GaussianKernel(sigma=1.0)(X)
    _, _, N = klda_matrices(K, labels)
    N = N + ridge * np.trace(N) / X.shape[0] * np.eye(X.shape[0])
    sing = np.linalg.svd(N, compute_uv=False)
    rank = int(np.sum(sing > NULL_SINGULAR_VALUE * sing[0]))
    evidence.worst("m - rank(N) (0 if N^{-1} exists)", X.shape[0] - rank)
    assert rank == X.shape[0], (
        f"N is singular: rank {rank} < m = {X.shape[0]} (singular values "
        f"{np.array2string(sing / sing[0], precision=2)} relative), so Sigma^{{-1}} and "
        "N^{-1}(mu_hat_0 - mu_hat_1) do not exist")


@claim(
    id="klda.lda_solution_4_53_as_written",
    source="003 §4.6 (4.53); 003 §1.6 (1.26)",
    statement="(4.53) is solved by the method of linear discriminant analysis: as in "
    "(1.26), alpha = N^{-1}(mu_hat_0 - mu_hat_1), with N^{-1} = V Sigma^{-1} U^T from the "
    "SVD of N (here for a Gaussian kernel on distinct points).",
    method=Method.PROPERTY,
    tags=("kernels", "klda", "erratum"),
    expect=Expect.REFUTED,
    kind=ErratumKind.MISSING_CONDITION,
    corrected_by="klda.kernel_trick_equals_explicit_lda",
    explanation="N = K K^T - sum_c m_c mu_hat_c mu_hat_c^T = K (I - P) K with P the "
    "projection onto the two class indicators, so rank N <= m - 2 for every sample: N is "
    "never invertible and Sigma^{-1} does not exist. The LDA recipe needs a pseudo-inverse "
    "or a ridge N + reg I, which the note does not mention.",
)
@given(X=POINTS, labels=hnp.arrays(np.int64, 12, elements=st.integers(0, 1)))
@example(X=np.array([[0.0], [1.0], [3.0]]), labels=np.array([0, 1, 1]))
def lda_solution_4_53_as_written(X, labels):
    m = X.shape[0]
    assume(m >= 3 and np.unique(X, axis=0).shape[0] == m)  # distinct points: K invertible
    lab = labels[:m].copy()
    lab[0], lab[1] = 0, 1
    check_lda_solution_as_printed(X, lab)


@claim(
    id="klda.classify_by_projection",
    source="003 §4.6 (4.50)-(4.53); 003 §1.6",
    statement="Kernel LDA classifies as LDA does after projecting: a point goes to the class "
    "whose projected training mean, the mean of h(x_i) = sum_j alpha_j kappa(x_i, x_j) over "
    "the class, is nearer to h(x) (the Gram matrices here from scikit-learn's rbf_kernel); "
    "the decision function is h(x) minus the midpoint of the two projected means, positive "
    "on class 1's side.",
    method=Method.PROPERTY,
    tags=("kernels", "klda"),
)
@given(X=hnp.arrays(np.float64, st.tuples(st.integers(4, 14), st.integers(1, 3)),
                    elements=st.floats(-2, 2, width=64)),
       labels=hnp.arrays(np.int64, 14, elements=st.integers(0, 1)),
       queries=hnp.arrays(np.float64, (6, 3), elements=st.floats(-3, 3, width=64)),
       reg=st.sampled_from([1e-6, 1e-2]))
def classify_by_projection(X, labels, queries, reg):
    m, d = X.shape
    lab = labels[:m].copy()
    lab[:2], lab[2:4] = 0, 1
    # points the kernel tells apart (x = 1e-300 and x = 0 are one point to it: N = 0):
    # the first coordinates are spread 0.3 apart, the drawn ones move them by < 0.1 each
    X = X.copy()
    X[:, 0] = 0.3 * np.arange(m) + 0.05 * np.tanh(X[:, 0])
    names = np.array(["no", "yes"])
    model = KernelLDA(reg=reg, kernel="rbf", kernel_params={"sigma": 1.0}).fit(X, names[lab])
    Q = np.vstack([X, queries[:, :d]])
    gamma = 0.5  # sigma = 1: exp(-||x - z||^2 / 2)
    h_train = rbf_kernel(X, X, gamma=gamma) @ model.dual_coef_
    h = rbf_kernel(Q, X, gamma=gamma) @ model.dual_coef_
    means = np.array([h_train[lab == c].mean() for c in (0, 1)])
    dist = np.abs(h[:, None] - means[None, :])
    decided = np.abs(dist[:, 0] - dist[:, 1]) > 1e-9 * max(1.0, np.abs(h).max())
    expected = names[np.argmin(dist, axis=1)]
    evidence.worst("points too close to the threshold to decide", int(np.sum(~decided)))
    predicted = model.predict(Q)
    assert np.all(predicted[decided] == expected[decided]), (
        f"predicted {predicted[decided]} but the nearer projected mean says "
        f"{expected[decided]}")
    check_klda_decision(model.decision_function(Q), h, means)


def check_klda_decision(decision: np.ndarray, h: np.ndarray, means: np.ndarray) -> None:
    """The decision function is h(x) minus the midpoint of the projected class means,
    signed so that class 1's side is positive: nearer to mean 1 <=> positive."""
    sign = 1.0 if means[1] >= means[0] else -1.0
    assert_close(decision, sign * (h - means.mean()), LINEAR_ALGEBRA,
                 scale=max(1.0, float(np.max(np.abs(h)))),
                 label="|decision - signed (h - midpoint of projected means)|")


@claim(
    id="klda.regularised_solution_maximises_quotient",
    source="003 §4.6 (4.52)-(4.53)",
    statement="With the ridge that N needs (KernelLDA's reg > 0: N + r I, r = reg trace(N) / "
    "m), the fitted alpha maximises the regularised quotient alpha^T M alpha / alpha^T "
    "(N + r I) alpha of (4.53): its value equals the largest generalized eigenvalue of "
    "(M, N + r I) (scipy.linalg.eigh).",
    method=Method.REFERENCE,
    tags=("kernels", "klda", "reference"),
)
@given(X=POINTS, labels=hnp.arrays(np.int64, 12, elements=st.integers(0, 1)),
       reg=st.sampled_from([1e-4, 1e-2, 1.0]))
def regularised_solution_maximises_quotient(X, labels, reg):
    m = X.shape[0]
    lab = labels[:m].copy()
    lab[0], lab[1] = 0, 1
    # N = K (I - P) K vanishes for m = 2 (and is ~0 for near-duplicates): no ridge scale
    assume(m >= 3 and np.unique(X, axis=0).shape[0] == m)
    K = rbf_kernel(X, X, gamma=0.5)
    _, M, N = klda_matrices(K, lab)
    assume(np.trace(N) > 1e-8 * float(np.abs(K).sum()))
    model = KernelLDA(reg=reg, kernel="rbf", kernel_params={"sigma": 1.0}).fit(X, lab)
    A = N + reg * np.trace(N) / m * np.eye(m)
    top = float(scipy.linalg.eigh(M, A, eigvals_only=True)[-1])
    a = model.dual_coef_
    value = float(a @ M @ a) / float(a @ A @ a)
    evidence.worst("1 - J(alpha) / lambda_max (relative)", 1.0 - value / top if top else 0.0)
    assert_close(value, top, Tolerance(rtol=1e-6, atol=1e-12 * max(1.0, top),
                                      reason="a symmetric solve and a generalized eigensolver "
                                      "on N + r I with cond <= 1 + ||N|| / r"),
                 label="J(alpha) vs largest generalized eigenvalue")
