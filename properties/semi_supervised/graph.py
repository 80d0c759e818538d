"""Graph-based semi-supervised learning, 003 §11.4 (11.7)-(11.16).

Checked against references that share none of the library's code: the energy by its
defining double sum, (11.12) through ``P = D^{-1} W`` solved with numpy, (11.15) with an
affinity matrix built here by broadcasting, the minimiser of (11.16) by cvxpy, and
scikit-learn's ``LabelPropagation`` / ``LabelSpreading``.

Two statements of the section are misprinted and declared as printed:

- the middle line of (11.9) subtracts the block matrix ``D`` from itself where ``D - W``
  is meant (read literally the energy is identically 0), and its last line writes the
  labelled block ``D_ll - W_ll`` as ``D_u - W_u``;
- (11.16) sums the fitting term over the labelled samples only (``i = 1..l``); with that
  range its minimiser is not F* of (11.15) for ``mu = (1 - alpha) / alpha``. The sum must
  run over all ``l + u`` samples, with ``Y_i = 0`` for the unlabelled ones (the rows of
  Y in (11.13)), as in Zhou et al. 2004.
"""

from __future__ import annotations

import warnings

import cvxpy as cp
import numpy as np
from hypothesis import given
from hypothesis import strategies as st
from sklearn.exceptions import ConvergenceWarning
from sklearn.semi_supervised import LabelPropagation as SkLabelPropagation
from sklearn.semi_supervised import LabelSpreading as SkLabelSpreading

from algorithms.semi_supervised import (
    LabelPropagation,
    LabelSpreading,
    affinity_matrix,
    graph_energy,
    harmonic_function,
    propagation_matrix,
    spread_labels,
)
from mltheory import ErratumKind, Expect, Method, claim, evidence
from mltheory.numeric import (
    EXACT_ARITHMETIC,
    LINEAR_ALGEBRA,
    REFERENCE_SOLVER,
    Tolerance,
    assert_close,
    assert_leq,
)
from properties.semi_supervised.strategies import (
    partially_labelled,
    symmetric_weights,
)

# ---------------------------------------------------------------------------
# Independent references
# ---------------------------------------------------------------------------


def own_affinity(X: np.ndarray, sigma: float) -> np.ndarray:
    """(11.7) by broadcasting the differences (no library code)."""
    diff = X[:, None, :] - X[None, :, :]
    W = np.exp(-np.sum(diff * diff, axis=2) / (2.0 * sigma**2))
    W[np.arange(len(X)), np.arange(len(X))] = 0.0
    return W


def energy_by_double_sum(W: np.ndarray, f: np.ndarray) -> float:
    """The first line of (11.8): 1/2 sum_i sum_j W_ij (f_i - f_j)^2."""
    F = f.reshape(f.shape[0], -1)
    diff = F[:, None, :] - F[None, :, :]
    return 0.5 * float(np.sum(W[:, :, None] * diff * diff))


def blocks(M: np.ndarray, lab: np.ndarray) -> tuple:
    u = ~lab
    return M[np.ix_(lab, lab)], M[np.ix_(lab, u)], M[np.ix_(u, lab)], M[np.ix_(u, u)]


def one_hot(codes: np.ndarray, k: int) -> np.ndarray:
    Y = np.zeros((codes.size, k))
    Y[codes >= 0, codes[codes >= 0]] = 1.0
    return Y


def _scale(*arrays) -> float:
    return max(1.0, *(float(np.max(np.abs(a))) for a in arrays))


# ---------------------------------------------------------------------------
# (11.8)-(11.9): the energy
# ---------------------------------------------------------------------------


def check_energy_identities(W: np.ndarray, f: np.ndarray) -> None:
    """Each line of (11.8) equals the first: the expanded sums, sum d f^2 - sum W f f,
    f^T (D - W) f, and the library's graph_energy."""
    d = W.sum(axis=1)
    first = energy_by_double_sum(W, f)
    expanded = 0.5 * (np.sum(d * f * f) + np.sum(d * f * f) - 2.0 * f @ W @ f)
    third = float(np.sum(d * f * f) - f @ W @ f)
    quadratic = float(f @ (np.diag(d) - W) @ f)
    scale = _scale(first, np.sum(d * f * f))
    for label, value in (("second line", expanded), ("third line", third),
                         ("f^T (D - W) f", quadratic), ("graph_energy", graph_energy(W, f))):
        assert_close(value, first, EXACT_ARITHMETIC, scale=scale, context=f"(11.8) {label}: ",
                     label="(11.8) lines vs the double sum, relative to the largest term")


@claim(
    id="ssl.energy_11_8",
    source="003 §11.4 (11.8)",
    statement="The energy of f on the graph, E(f) = 1/2 sum_ij W_ij (f(x_i) - f(x_j))^2, "
    "equals sum_i d_i f(x_i)^2 - sum_ij W_ij f(x_i) f(x_j) = f^T (D - W) f with d_i the "
    "row sums of W.",
    method=Method.PROPERTY,
    tags=("semi_supervised", "graph"),
)
@given(Wf=symmetric_weights())
def energy_11_8(Wf):
    W, f, _ = Wf
    check_energy_identities(W, f)


def energy_as_printed(W: np.ndarray, f: np.ndarray, lab: np.ndarray) -> tuple[float, float]:
    """The middle line of (11.9) as printed, (f_l^T f_u^T)(D_blocks - D_blocks)(f_l; f_u)
    with the nodes ordered labelled first, and E(f) by its defining double sum."""
    order = np.r_[np.flatnonzero(lab), np.flatnonzero(~lab)]
    D = np.diag(W.sum(axis=1))[np.ix_(order, order)]
    g = f[order]
    return float(g @ (D - D) @ g), energy_by_double_sum(W, f)


def check_block_energy_as_printed(W, f, lab) -> None:
    middle, energy = energy_as_printed(W, f, lab)
    assert_close(middle, energy, EXACT_ARITHMETIC, scale=_scale(energy),
                 context="(11.9) middle line as printed: ",
                 label="(11.9) as printed vs E(f)")


@claim(
    id="ssl.energy_blocks_11_9_as_written",
    source="003 §11.4 (11.9)",
    statement="(As printed) In block form, E(f) = (f_l^T f_u^T) ([D_ll 0; 0 D_uu] - "
    "[D_ll 0; 0 D_uu]) (f_l; f_u) = f_l^T (D_u - W_u) f_l - 2 f_u^T W_ul f_l + "
    "f_u^T (D_uu - W_uu) f_u.",
    method=Method.PROPERTY,
    tags=("semi_supervised", "graph", "erratum"),
    expect=Expect.REFUTED,
    kind=ErratumKind.SYMBOL,
    corrected_by="ssl.energy_blocks_11_9",
    explanation="The middle line subtracts the block matrix D from itself, which is 0 for "
    "every f, where the Laplacian D - W (with W's four blocks) is meant; the last line's "
    "first term writes D_u - W_u for the labelled blocks D_ll - W_ll (it multiplies f_l on "
    "both sides).",
)
@given(Wf=symmetric_weights())
def energy_blocks_11_9_as_written(Wf):
    W, f, lab = Wf
    check_block_energy_as_printed(W, f, lab)


def check_block_energy(W, f, lab) -> None:
    d = W.sum(axis=1)
    D = np.diag(d)
    D_ll, _, _, D_uu = blocks(D, lab)
    W_ll, _, W_ul, W_uu = blocks(W, lab)
    fl, fu = f[lab], f[~lab]
    value = float(fl @ (D_ll - W_ll) @ fl - 2.0 * fu @ W_ul @ fl + fu @ (D_uu - W_uu) @ fu)
    energy = energy_by_double_sum(W, f)
    assert_close(value, energy, EXACT_ARITHMETIC, scale=_scale(energy, np.sum(d * f * f)),
                 context="(11.9) corrected: ", label="(11.9) blocks vs E(f)")


@claim(
    id="ssl.energy_blocks_11_9",
    source="003 §11.4 (11.9)",
    statement="With the nodes ordered labelled first, E(f) = (f_l^T f_u^T) (D - W) (f_l; "
    "f_u) = f_l^T (D_ll - W_ll) f_l - 2 f_u^T W_ul f_l + f_u^T (D_uu - W_uu) f_u.",
    method=Method.PROPERTY,
    tags=("semi_supervised", "graph"),
)
@given(Wf=symmetric_weights())
def energy_blocks_11_9(Wf):
    W, f, lab = Wf
    check_block_energy(W, f, lab)


# ---------------------------------------------------------------------------
# (11.10)-(11.12): the harmonic solution
# ---------------------------------------------------------------------------


#: The solves below run on graphs whose weights are >= e^-6 (points in [-1, 1]^d, d <= 3,
#: sigma >= 1), so D_uu - W_uu is diagonally dominant with condition number below ~1e4.
HARMONIC_TOL = LINEAR_ALGEBRA


def check_harmonic(X: np.ndarray, codes: np.ndarray, sigma: float) -> None:
    """Two classes coded -1/+1 (the notes' f_l = y): f_u by (11.12) from P = D^-1 W
    (numpy, own graph) equals the estimator's F[:, +1] - F[:, -1] and harmonic_function's
    (11.10); f has zero energy gradient on the unlabelled nodes (each f_i is the
    W-weighted mean of the others), no perturbation of f_u lowers E, and f_u lies within
    [min f_l, max f_l] (maximum principle)."""
    lab = codes >= 0
    W = own_affinity(X, sigma)
    P = W / W.sum(axis=1, keepdims=True)                                  # (11.11)
    _, _, P_ul, P_uu = blocks(P, lab)
    f_l = np.where(codes[lab] == 1, 1.0, -1.0)
    f_u = np.linalg.solve(np.eye(P_uu.shape[0]) - P_uu, P_ul @ f_l)       # (11.12)
    est = LabelPropagation(sigma=sigma).fit(X, np.where(lab, codes, -1))
    F = est.label_distributions_
    assert_close((F[:, 1] - F[:, 0])[~lab], f_u, HARMONIC_TOL, scale=1.0,
                 context="estimator vs (11.12): ", label="LabelPropagation vs (11.12)")
    f = harmonic_function(W, lab, f_l)
    assert_close(f[~lab], f_u, HARMONIC_TOL, scale=1.0, context="(11.10) vs (11.12): ",
                 label="harmonic_function (11.10) vs (11.12)")
    gradient = (W.sum(axis=1) * f - W @ f)[~lab]             # 1/2 dE/df_u
    assert_close(gradient, np.zeros_like(gradient), HARMONIC_TOL, scale=1.0,
                 context="dE/df_u at the solution: ", label="|dE/df_u| at f_u")
    E = energy_by_double_sum(W, f)
    rng = np.random.default_rng(int(codes.size))
    for _ in range(5):
        g = f.copy()
        g[~lab] += rng.normal(scale=0.1, size=int((~lab).sum()))
        assert_leq(E, energy_by_double_sum(W, g), tol=HARMONIC_TOL,
                   label="E(f_u) / E(perturbed f_u)")
    spread = float(np.max(np.abs(f_u)))
    evidence.worst("max |f_u| (maximum principle: <= 1)", spread)
    assert spread <= 1.0 + 1e-12, f"f_u leaves [-1, 1]: max |f_u| = {spread}"


@claim(
    id="ssl.harmonic_11_10_11_12",
    source="003 §11.4 (11.10)-(11.12)",
    statement="The energy-minimising f with f_l = y clamped on the labelled samples has "
    "f_u = (D_uu - W_uu)^{-1} W_ul f_l (11.10) = (I - P_uu)^{-1} P_ul f_l with P = D^{-1} W "
    "(11.11)-(11.12); the gradient of E in f_u vanishes there (Delta f = 0 on the "
    "unlabelled samples) and it lies within the range of the labels.",
    method=Method.PROPERTY,
    tags=("semi_supervised", "graph"),
)
@given(data=partially_labelled(n_classes=2))
def harmonic_11_10_11_12(data):
    X, codes, sigma = data
    check_harmonic(X, codes, sigma)


# ---------------------------------------------------------------------------
# (11.13)-(11.15): iterative spreading
# ---------------------------------------------------------------------------


def check_spectrum(X: np.ndarray, sigma: float) -> None:
    S = propagation_matrix(own_affinity(X, sigma))
    eig = np.linalg.eigvalsh(0.5 * (S + S.T))
    evidence.worst("largest |eigenvalue of S|", float(np.max(np.abs(eig))))
    assert eig[0] >= -1.0 - 1e-12 and eig[-1] <= 1.0 + 1e-12, f"spectrum {eig[[0, -1]]}"
    assert abs(eig[-1] - 1.0) <= 1e-10, f"largest eigenvalue {eig[-1]} != 1 (connected)"


@claim(
    id="ssl.spreading_spectrum",
    source="003 §11.4 (11.14)-(11.15)",
    statement="S = D^{-1/2} W D^{-1/2} has its spectrum in [-1, 1], with 1 the largest "
    "eigenvalue on a connected graph, so I - alpha S is invertible for alpha in (0, 1) and "
    "the limit (11.15) exists.",
    method=Method.PROPERTY,
    tags=("semi_supervised", "graph"),
)
@given(data=partially_labelled())
def spreading_spectrum(data):
    X, _, sigma = data
    check_spectrum(X, sigma)


def check_spreading(X: np.ndarray, codes: np.ndarray, sigma: float, alpha: float,
                    F0_seed: int) -> None:
    """The estimator's iterate equals (11.15) computed here (for the drawn alpha and for
    the estimator's default, which must lie in (0, 1)); the recorded changes
    ||F(t+1) - F(t)||_F shrink by at most alpha per step (||S||_2 = 1); and the
    iteration from a random F(0) reaches the same limit."""
    k = int(codes.max()) + 1
    Y = one_hot(codes, k)
    W = own_affinity(X, sigma)
    d = W.sum(axis=1)
    S = W / np.sqrt(d)[:, None] / np.sqrt(d)[None, :]
    F_star = (1.0 - alpha) * np.linalg.solve(np.eye(len(X)) - alpha * S, Y)   # (11.15)
    tol = 1e-11
    est = LabelSpreading(alpha=alpha, sigma=sigma, tol=tol, max_iter=20_000).fit(X, codes)
    assert est.converged_, "LabelSpreading did not converge"
    # after the last step ||F(t) - F*|| <= alpha / (1 - alpha) ||F(t) - F(t-1)|| <= that * tol
    bound = alpha / (1.0 - alpha) * tol + 1e-12
    assert_close(est.F_, F_star, Tolerance(0.0, bound, "the stopping rule: the last change "
                 "was <= tol, and the error contracts by alpha per step"), scale=1.0,
                 context="iterate vs (11.15): ", label="|F(t) - F*| at the stop")
    # the estimator's default alpha is a value the notes allow, and its run reaches (11.15)
    default = LabelSpreading(sigma=sigma, tol=tol, max_iter=20_000).fit(X, codes)
    a = float(default.alpha)
    assert 0.0 < a < 1.0, f"the default alpha = {a} is outside (0, 1)"
    F_a = (1.0 - a) * np.linalg.solve(np.eye(len(X)) - a * S, Y)
    assert_close(default.F_, F_a, Tolerance(0.0, a / (1.0 - a) * tol + 1e-12, "as above"),
                 scale=1.0, context="default alpha, iterate vs (11.15): ",
                 label="|F(t) - F*| at the stop, default alpha")
    F0 = np.random.default_rng(F0_seed).uniform(-5, 5, size=Y.shape)
    with warnings.catch_warnings():
        warnings.simplefilter("error", ConvergenceWarning)
        other = spread_labels(S, Y, alpha, F0=F0, tol=tol, max_iter=20_000)
    assert_close(other.F, F_star, Tolerance(0.0, bound, "as above"), scale=1.0,
                 context="from a random F(0): ", label="|F(t) - F*| from a random start")
    # From F(0) = Y the first change has no component on S's top eigenvector, so the
    # rate there is alpha |lambda_2|; from a random start it is alpha itself (the bound
    # bites). Ratios of rounding-level changes mean nothing and are skipped.
    useful = other.deltas[:-1] > 1e-9
    if np.any(useful):
        ratios = other.deltas[1:][useful] / other.deltas[:-1][useful]
        assert_leq(float(np.max(ratios)), alpha, tol=Tolerance(
            1e-6, 0.0, "ratios of changes above 1e-9 carry relative rounding below 1e-6"),
            label="largest ||F(t+1)-F(t)|| / ||F(t)-F(t-1)|| vs alpha")


@claim(
    id="ssl.spreading_limit_11_15",
    source="003 §11.4 (11.13)-(11.15), Fig. 13.5",
    statement="The iteration F(t+1) = alpha S F(t) + (1 - alpha) Y from F(0) = Y "
    "converges to F* = (1 - alpha)(I - alpha S)^{-1} Y, from any start, the distance to "
    "the limit shrinking by at least the factor alpha per step (alpha in (0, 1), the "
    "estimator's default included).",
    method=Method.PROPERTY,
    tags=("semi_supervised", "graph"),
)
@given(data=partially_labelled(), alpha=st.sampled_from([0.05, 0.2, 0.5, 0.9, 0.99]),
       seed=st.integers(0, 2**16))
def spreading_limit_11_15(data, alpha, seed):
    X, codes, sigma = data
    check_spreading(X, codes, sigma, alpha, seed)


# ---------------------------------------------------------------------------
# (11.16): the regularisation framework
# ---------------------------------------------------------------------------


def minimise_11_16(S: np.ndarray, Y: np.ndarray, mu: float, fit_rows: np.ndarray) -> np.ndarray:
    """cvxpy's minimiser of 1/2 sum_ij W_ij ||F_i/sqrt(d_i) - F_j/sqrt(d_j)||^2 + mu
    sum_{i in fit_rows} ||F_i - Y_i||^2, the first term written as tr(F^T (I - S) F)
    (its expansion with S = D^-1/2 W D^-1/2) and given to cvxpy through a square root
    of the PSD matrix I - S."""
    n, k = Y.shape
    vals, vecs = np.linalg.eigh(np.eye(n) - 0.5 * (S + S.T))
    root = (vecs * np.sqrt(np.clip(vals, 0.0, None))).T           # root^T root = I - S
    F = cp.Variable((n, k))
    objective = cp.sum_squares(root @ F) + mu * cp.sum_squares(F[fit_rows] - Y[fit_rows])
    cp.Problem(cp.Minimize(objective)).solve(solver=cp.CLARABEL, tol_gap_abs=1e-12,
                                             tol_gap_rel=1e-12, tol_feas=1e-12)
    return np.asarray(F.value)


def check_regulariser(X, codes, sigma, alpha, over_all: bool) -> None:
    k = int(codes.max()) + 1
    Y = one_hot(codes, k)
    S = propagation_matrix(own_affinity(X, sigma))
    mu = (1.0 - alpha) / alpha
    rows = np.arange(len(X)) if over_all else np.flatnonzero(codes >= 0)
    F_opt = minimise_11_16(S, Y, mu, rows)
    F_star = LabelSpreading(alpha=alpha, sigma=sigma, method="closed_form").fit(X, codes).F_
    assert_close(F_opt, F_star, REFERENCE_SOLVER, scale=1.0,
                 context=f"(11.16) with the fit term over {'all' if over_all else 'labelled'} "
                 "samples, minimiser vs F*: ", label="cvxpy minimiser of (11.16) vs F*")


@claim(
    id="ssl.regulariser_11_16_as_written",
    source="003 §11.4 (11.16)",
    statement="(As printed) F* is the minimiser of 1/2 sum_{i,j=1}^{l+u} W_ij ||F_i / "
    "sqrt(d_i) - F_j / sqrt(d_j)||^2 + mu sum_{i=1}^{l} ||F_i - Y_i||^2 for mu = "
    "(1 - alpha) / alpha.",
    method=Method.REFERENCE,
    tags=("semi_supervised", "graph", "erratum"),
    expect=Expect.REFUTED,
    kind=ErratumKind.SYMBOL,
    corrected_by="ssl.regulariser_11_16",
    explanation="The fitting term must run over all l + u samples (the unlabelled rows of "
    "Y are 0, (11.13)): setting the gradient 2 (I - S) F + 2 mu (F - Y) to 0 gives "
    "F = alpha S F + (1 - alpha) Y, whose solution is F*. Summed over the labelled rows "
    "only, the unlabelled rows are pulled towards nothing but smoothness and the "
    "minimiser differs.",
)
@given(data=partially_labelled(), alpha=st.sampled_from([0.2, 0.5, 0.9]))
def regulariser_11_16_as_written(data, alpha):
    X, codes, sigma = data
    check_regulariser(X, codes, sigma, alpha, over_all=False)


@claim(
    id="ssl.regulariser_11_16",
    source="003 §11.4 (11.16)",
    statement="F* of (11.15) minimises 1/2 sum_ij W_ij ||F_i / sqrt(d_i) - F_j / "
    "sqrt(d_j)||^2 + mu sum_{i=1}^{l+u} ||F_i - Y_i||^2 with mu = (1 - alpha) / alpha "
    "(the unlabelled rows of Y being 0).",
    method=Method.REFERENCE,
    tags=("semi_supervised", "graph"),
)
@given(data=partially_labelled(), alpha=st.sampled_from([0.2, 0.5, 0.9]))
def regulariser_11_16(data, alpha):
    X, codes, sigma = data
    check_regulariser(X, codes, sigma, alpha, over_all=True)


# ---------------------------------------------------------------------------
# scikit-learn
# ---------------------------------------------------------------------------


#: Both sides iterate (scikit-learn's LabelPropagation to its own tol of 1e-12 in the
#: summed absolute change; ours solve exactly): agreement to 1e-7 is what the slowest
#: mixing graphs drawn here reach within 10^5 iterations.
SKLEARN_TOL = Tolerance(0.0, 1e-7, "scikit-learn iterates to a tolerance of 1e-12 on the "
                        "summed change; slow-mixing graphs leave up to ~1e-8 in each entry")


def check_against_sklearn(X, codes, sigma, alpha) -> None:
    gamma = 1.0 / (2.0 * sigma**2)
    ours = LabelSpreading(alpha=alpha, sigma=sigma, method="closed_form").fit(X, codes)
    ref = SkLabelSpreading(kernel="rbf", gamma=gamma, alpha=alpha, max_iter=100_000,
                           tol=1e-13).fit(X, codes)
    assert_close(ours.label_distributions_, ref.label_distributions_, SKLEARN_TOL, scale=1.0,
                 context="LabelSpreading vs scikit-learn: ", label="spreading vs scikit-learn")
    ours = LabelPropagation(sigma=sigma).fit(X, codes)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        ref = SkLabelPropagation(kernel="rbf", gamma=gamma, max_iter=100_000,
                                 tol=1e-12).fit(X, codes)
    assert_close(ours.label_distributions_, ref.label_distributions_, SKLEARN_TOL, scale=1.0,
                 context="LabelPropagation vs scikit-learn: ",
                 label="propagation vs scikit-learn")
    agree = float(np.mean(ours.transduction_ == ref.transduction_))
    evidence.worst("transduction agreement with scikit-learn", agree, larger_is_worse=False)


@claim(
    id="ssl.reference_sklearn",
    source="003 §11.4 (11.10)-(11.15)",
    statement="The harmonic propagation (11.10) and the spreading limit (11.15) agree with "
    "scikit-learn's LabelPropagation and LabelSpreading (Gaussian kernel gamma = "
    "1 / (2 sigma^2)) in every label distribution.",
    method=Method.REFERENCE,
    tags=("semi_supervised", "graph"),
)
@given(data=partially_labelled(), alpha=st.sampled_from([0.1, 0.5, 0.9]))
def reference_sklearn(data, alpha):
    X, codes, sigma = data
    check_against_sklearn(X, codes, sigma, alpha)


# ---------------------------------------------------------------------------
# (11.7): the graph itself
# ---------------------------------------------------------------------------


def check_affinity(X: np.ndarray, sigma: float, k: int | None) -> None:
    """W of (11.7) against its definition, symmetric with W_ii = 0 and weights in (0, 1];
    the Laplacian D - W is positive semi-definite with (D - W) 1 = 0."""
    W = affinity_matrix(X, sigma=sigma, n_neighbors=k)
    W = W.toarray() if hasattr(W, "toarray") else W
    full = own_affinity(X, sigma)
    kept = W > 0
    assert np.array_equal(W, W.T), "W is not symmetric"
    assert np.all(np.diag(W) == 0.0), "W_ii != 0"
    assert np.all(W <= 1.0) and np.all(W >= 0.0), "a weight outside [0, 1]"
    assert_close(W[kept], full[kept], EXACT_ARITHMETIC, scale=1.0,
                 context="(11.7): ", label="W vs exp(-||x_i - x_j||^2 / (2 sigma^2))")
    if k is None:
        assert np.all(kept[~np.eye(len(X), dtype=bool)]), "a dense graph lost an edge"
    L = np.diag(W.sum(axis=1)) - W
    assert_close(L @ np.ones(len(X)), np.zeros(len(X)), EXACT_ARITHMETIC, scale=1.0,
                 label="(D - W) 1")
    smallest = float(np.linalg.eigvalsh(L)[0])
    evidence.worst("smallest Laplacian eigenvalue", smallest, larger_is_worse=False)
    assert smallest >= -1e-12 * max(1.0, float(np.max(W.sum(axis=1)))), "D - W not PSD"


@claim(
    id="ssl.affinity_11_7",
    source="003 §11.4 (11.7)-(11.8)",
    statement="The Gaussian affinities W_ij = exp(-||x_i - x_j||^2 / (2 sigma^2)) (i != j), "
    "W_ii = 0 form a symmetric matrix with weights in (0, 1] (some set to 0 by a "
    "k-nearest-neighbour sparsification), and the Laplacian D - W is positive "
    "semi-definite with (D - W) 1 = 0, so the energy (11.8) is non-negative and vanishes "
    "on constant f.",
    method=Method.PROPERTY,
    tags=("semi_supervised", "graph"),
)
@given(data=partially_labelled(), k=st.sampled_from([None, 1, 3]))
def affinity_11_7(data, k):
    X, _, sigma = data
    check_affinity(X, sigma, None if k is None or k >= len(X) else k)
