"""Neighbourhood component analysis, 003 §8.6 (8.27)-(8.30).

The stochastic-neighbour probabilities against a 50-digit mpmath evaluation (far-apart
samples included), p_i as the leave-one-out probability (checked by deleting the sample,
and by simulating the stochastic classifier), the objective (8.30) through M = P P^T, the
analytic gradient against central finite differences, the optimiser's recorded history,
and scikit-learn's NeighborhoodComponentsAnalysis from the same start. Errata: (8.27)
keeps l = i in the normaliser (and j = i in Omega_i), so p_i is not a leave-one-out
probability; (8.29) calls sum_i p_i an accuracy, which is m times one.
"""

from __future__ import annotations

import warnings

import mpmath
import numpy as np
from hypothesis import example, given
from sklearn.datasets import load_iris, load_wine
from sklearn.decomposition import PCA
from sklearn.exceptions import ConvergenceWarning
from sklearn.neighbors import NeighborhoodComponentsAnalysis as SkNCA

from algorithms.dimred import (
    NeighbourhoodComponentsAnalysis,
    mahalanobis_distance,
    metric_from_projection,
    nca_gradient,
    nca_probabilities,
)
from mltheory import ErratumKind, Expect, Method, claim, evidence
from mltheory.numeric import EXACT_ARITHMETIC, ITERATIVE_SOLVER, Tolerance, assert_close, assert_leq
from mltheory.stats import check_probability_at_least, check_probability_at_most
from properties.dimred.strategies_manifold import LabelledProblem, labelled_problems
from properties.dimred.support_manifold import single_threaded


def probability_rounding(max_sq_distance: float) -> Tolerance:
    """Probabilities through log-sum-exp: log p_ij = logit - lse carries an absolute error
    of ~1e-16 times the logits' size (up to the largest squared projected distance), so
    p_ij (and sum_j p_ij) are exact up to ~1e-16 (1 + max D); 100x margin."""
    return Tolerance(rtol=0.0, atol=1e-14 * (1.0 + max_sq_distance),
                     reason="log-sum-exp: absolute error ~1e-16 x the largest logit in log "
                     "p, so in p; 100x margin")


#: Central differences with step h = 1e-6 * (1 + |P_ab|): truncation ~h^2 f''' and rounding
#: ~1e-16 m / h, both below 1e-6 of the gradient's scale (1 + max |grad|) on the drawn
#: problems (entries of X of size ~3, P up to ~3).
FINITE_DIFFERENCE = Tolerance(
    rtol=0.0, atol=1e-5,
    reason="central differences: truncation h^2 |f'''| with h = 1e-6 and rounding "
    "1e-16 * m / h ~ 1e-9; compared relative to 1 + max |gradient|")


def _sq_distances(X: np.ndarray, P: np.ndarray) -> np.ndarray:
    Z = X @ P
    diff = Z[:, None, :] - Z[None, :, :]
    return np.sum(diff * diff, axis=-1)


def literal_probabilities(X: np.ndarray, y: np.ndarray, P: np.ndarray
                          ) -> tuple[np.ndarray, np.ndarray]:
    """(8.27)-(8.28) as printed: the normaliser runs over every l (l = i included) and
    Omega_i is every sample of x_i's class (i included)."""
    logits = -_sq_distances(X, P)
    logits -= logits.max(axis=1, keepdims=True)
    p = np.exp(logits)
    p /= p.sum(axis=1, keepdims=True)
    return p, np.sum(p * (y[:, None] == y[None, :]), axis=1)


def deletion_loo(X: np.ndarray, y: np.ndarray, P: np.ndarray) -> np.ndarray:
    """The leave-one-out probability by its definition: delete x_i, let x_i pick a neighbour
    among the others with probability proportional to exp(-||P^T(x_i - x_j)||^2), score the
    pick's label; in 50-digit arithmetic."""
    m = X.shape[0]
    D = _sq_distances(X, P)
    out = np.zeros(m)
    with mpmath.workdps(50):
        for i in range(m):
            rest = [j for j in range(m) if j != i]
            weights = [mpmath.exp(-mpmath.mpf(float(D[i, j]))) for j in rest]
            total = mpmath.fsum(weights)
            out[i] = float(mpmath.fsum(w for w, j in zip(weights, rest, strict=True)
                                       if y[j] == y[i]) / total)
    return out


def check_loo(prob: LabelledProblem, probabilities=nca_probabilities) -> None:
    """p_i of (8.28) equals the leave-one-out probability (deletion, 50 digits)."""
    _, p_i = probabilities(prob.X, prob.y, prob.P)
    tol = probability_rounding(float(_sq_distances(prob.X, prob.P).max()))
    assert_close(p_i, deletion_loo(prob.X, prob.y, prob.P), tol,
                 label="|p_i - leave-one-out probability|")
    evidence.add_examples()


@claim(
    id="nca.probabilities_as_written",
    source="003 §8.6 (8.27)-(8.28)",
    statement="(As printed: the normaliser of (8.27) runs over all l, and Omega_i is the set "
    "of samples of x_i's class) p_i = sum_{j in Omega_i} p_ij is x_i's leave-one-out "
    "probability of being classified correctly by the other samples.",
    method=Method.PROPERTY,
    tags=("dimred", "nca", "erratum"),
    expect=Expect.REFUTED,
    kind=ErratumKind.TERM,
    corrected_by="nca.probabilities_8_27",
    explanation="The self term exp(-||x_i - x_i||^2) = 1 stays in the normaliser and in "
    "Omega_i, so x_i votes for itself: two samples of different classes at distance 1 get "
    "p_1 = 1/(1 + e^-1) = 0.73, although the only other sample always gives the wrong "
    "label (leave-one-out probability 0). Needs l != i, p_ii = 0.",
)
@given(prob=labelled_problems(max_m=8))
@example(prob=LabelledProblem(np.array([[0.0], [1.0]]), np.array([0, 1]), np.eye(1)))
def probabilities_as_written(prob):
    check_loo(prob, probabilities=literal_probabilities)


def check_probabilities(prob: LabelledProblem, probabilities=nca_probabilities) -> None:
    """p_ij >= 0, p_ii = 0, rows sum to 1, each entry equal to 50-digit arithmetic; p_i is
    the leave-one-out probability."""
    p, p_i = probabilities(prob.X, prob.y, prob.P)
    assert np.all(p >= 0.0) and np.all(np.isfinite(p)), "p_ij not finite and >= 0"
    assert np.all(np.diag(p) == 0.0), "p_ii != 0"
    D = _sq_distances(prob.X, prob.P)
    tol = probability_rounding(float(D.max()))
    assert_close(p.sum(axis=1), np.ones(len(p)), tol, label="|sum_j p_ij - 1|")
    m = len(p)
    with mpmath.workdps(50):
        exact = np.zeros((m, m))
        for i in range(m):
            w = [mpmath.exp(-mpmath.mpf(float(D[i, j]))) if j != i else mpmath.mpf(0)
                 for j in range(m)]
            total = mpmath.fsum(w)
            exact[i] = [float(v / total) for v in w]
    assert_close(p, exact, tol, label="|p_ij - 50-digit p_ij|")
    evidence.worst("largest squared projected distance", float(D.max()))
    check_loo(prob, probabilities)


@claim(
    id="nca.probabilities_8_27",
    source="003 §8.6 (8.27)-(8.28)",
    statement="With l != i in the normaliser and p_ii = 0, p_ij = exp(-||x_i - x_j||_M^2) / "
    "sum_{l != i} exp(-||x_i - x_l||_M^2) >= 0 with sum_j p_ij = 1, computed stably (equal "
    "to 50-digit arithmetic even when every exp underflows), and p_i = sum_{j in Omega_i} "
    "p_ij is the leave-one-out probability of a correct label.",
    method=Method.PROPERTY,
    tags=("dimred", "nca"),
)
@given(prob=labelled_problems(max_m=8))
def probabilities_8_27(prob):
    check_probabilities(prob)


def check_loo_rate(prob: LabelledProblem, normalise: bool) -> None:
    """p_i in [0, 1], sum_i p_i in [0, m]; the rate (1/m) sum_i p_i (or, as printed,
    sum_i p_i itself) in [0, 1]."""
    _, p_i = nca_probabilities(prob.X, prob.y, prob.P)
    m = len(p_i)
    assert np.all((p_i >= 0) & (p_i <= 1 + 1e-12)), f"p_i outside [0, 1]: {p_i}"
    total = float(np.sum(p_i))
    assert -1e-12 <= total <= m + 1e-12
    rate = total / m if normalise else total
    assert_leq(rate, 1.0, tol=EXACT_ARITHMETIC, label="leave-one-out accuracy rate / 1")
    evidence.add_examples()


@claim(
    id="nca.loo_rate_as_written",
    source="003 §8.6 (8.29)",
    statement="(As printed) sum_i p_i is the leave-one-out accuracy rate of the whole "
    "sample, a number in [0, 1].",
    method=Method.PROPERTY,
    tags=("dimred", "nca", "erratum"),
    expect=Expect.REFUTED,
    kind=ErratumKind.CONSTANT,
    corrected_by="nca.loo_8_28_8_29",
    explanation="Missing factor 1/m: sum_i p_i is the expected number of samples classified "
    "correctly, in [0, m]; two samples of one class give sum_i p_i = 2. The rate is "
    "(1/m) sum_i p_i. (The objective (8.30), 1 - sum_i p_i, has the same minimisers either "
    "way, but is not an error rate.)",
)
@given(prob=labelled_problems(max_m=8))
@example(prob=LabelledProblem(np.array([[0.0], [1.0]]), np.array([0, 0]), np.eye(1)))
def loo_rate_as_written(prob):
    check_loo_rate(prob, normalise=False)


@claim(
    id="nca.loo_8_28_8_29",
    source="003 §8.6 (8.28)-(8.29)",
    statement="p_i in [0, 1]; sum_i p_i in [0, m] is the expected number of samples that the "
    "stochastic-neighbour rule classifies correctly when each is left out, so "
    "(1/m) sum_i p_i is its leave-one-out accuracy: a simulation of the rule (pick i "
    "uniformly, then a neighbour j != i with probability p_ij) succeeds at that rate "
    "(Clopper-Pearson, two-sided, confidence 1 - 1e-6 each side).",
    method=Method.SIMULATION,
    tags=("dimred", "nca"),
)
def loo_8_28_8_29(rng, scale):
    for _ in range(3):
        m, d = int(rng.integers(5, 40)), int(rng.integers(1, 4))
        X = rng.standard_normal((m, d))
        y = rng.integers(0, 3, m)
        P = rng.uniform(0.3, 2.0) * rng.standard_normal((d, d))
        check_loo_rate(LabelledProblem(X, y, P), normalise=True)
        _, p_i = nca_probabilities(X, y, P)
        rate = float(np.mean(p_i))
        trials = 20_000 * scale
        i = rng.integers(0, m, trials)
        logits = -_sq_distances(X, P)[i]
        logits[np.arange(trials), i] = -np.inf  # the left-out sample cannot be picked
        j = np.argmax(logits + rng.gumbel(size=logits.shape), axis=1)  # Gumbel-max draw
        hits = int(np.sum(y[j] == y[i]))
        check_probability_at_most(hits, trials, rate, label="simulated LOO accuracy <= rate")
        check_probability_at_least(hits, trials, rate, label="simulated LOO accuracy >= rate")


# ---------------------------------------------------------------------------
# (8.30)
# ---------------------------------------------------------------------------


def check_objective(prob: LabelledProblem, gradient=nca_gradient) -> None:
    """(8.30) written with ||P^T x_i - P^T x_j||^2 equals 1 - sum_i p_i with the
    Mahalanobis distances of M = P P^T; the analytic gradient of sum_i p_i equals central
    finite differences of an independent evaluation of it."""
    X, y, P = prob.X, prob.y, prob.P
    M = metric_from_projection(P)
    m = X.shape[0]
    D_M = np.array([[mahalanobis_distance(X[i], X[j], M, squared=True) for j in range(m)]
                    for i in range(m)])

    def total(Q):  # sum_i sum_{j in Omega_i} p_ij, from scratch (l != i)
        D = _sq_distances(X, Q)
        np.fill_diagonal(D, np.inf)
        logits = np.min(D, axis=1, keepdims=True) - D  # shifted: <= 0
        e = np.exp(logits)
        return float(np.sum(e * (y[:, None] == y[None, :])
                            / e.sum(axis=1, keepdims=True)))

    np.fill_diagonal(D_M, np.inf)
    e = np.exp(-(D_M - D_M.min(axis=1, keepdims=True)))
    via_m = 1.0 - float(np.sum(e * (y[:, None] == y[None, :]) / e.sum(axis=1, keepdims=True)))
    value, grad = gradient(X, y, P)
    assert_close(1.0 - value, via_m, Tolerance(rtol=1e-9, atol=1e-9, reason=(
        "the same probabilities through two evaluations of the squared distances, "
        "||P^T(x_i - x_j)||^2 vs (x_i - x_j)^T P P^T (x_i - x_j): rounding ~1e-16 of the "
        "distances, up to 1e3, in the exponent")), label="|(8.30) - (1 - sum p_i with M)|")
    fd = np.zeros_like(P)
    for a in range(P.shape[0]):
        for b in range(P.shape[1]):
            h = 1e-6 * (1.0 + abs(P[a, b]))
            E = np.zeros_like(P)
            E[a, b] = h
            fd[a, b] = (total(P + E) - total(P - E)) / (2 * h)
    assert_close(grad, fd, FINITE_DIFFERENCE, scale=1.0 + float(np.max(np.abs(fd))),
                 label="|analytic - finite-difference gradient| / (1 + max|grad|)")
    evidence.add_examples()


@claim(
    id="nca.objective_8_30",
    source="003 §8.6 (8.30)",
    statement="With M = P P^T, (8.30) is 1 - sum_i sum_{j in Omega_i} p_ij with p_ij of "
    "(8.27) (l != i); the analytic gradient of the objective in P equals central finite "
    "differences, and NCA's optimiser, started from the identity, records a non-increasing "
    "objective history ending at the objective of the returned P, with a small gradient.",
    method=Method.PROPERTY,
    tags=("dimred", "nca", "slow"),  # an NCA fit and d x d' finite differences per example
)
@given(prob=labelled_problems(max_m=10, far=False))
def objective_8_30(prob):
    check_objective(prob)
    check_history(prob.X, prob.y)


def check_history(X: np.ndarray, y: np.ndarray, nca=NeighbourhoodComponentsAnalysis) -> None:
    """The recorded objective history never increases (L-BFGS's line search enforces
    sufficient decrease), its last value is the objective of projection_ (recomputed), and
    at convergence the gradient is small relative to the objective's scale."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        est = nca(n_components=X.shape[1], init="identity", max_iter=200, tol=1e-9).fit(X, y)
    hist = np.asarray(est.objective_history_)
    assert_leq(float(np.max(np.diff(hist), initial=0.0)), 1e-12 * X.shape[0],
               label="largest increase of the recorded objective")
    value, grad = nca_gradient(X, y, est.projection_)
    assert_close(hist[-1], 1.0 - value, EXACT_ARITHMETIC, scale=X.shape[0],
                 label="|last recorded objective - objective(P)| / m")
    if est.converged_:
        evidence.worst("max |gradient| at the returned P", float(np.max(np.abs(grad))))
        assert_leq(float(np.max(np.abs(grad))), 1e-3 * X.shape[0],
                   label="max|grad| / (1e-3 m) at convergence")


@claim(
    id="nca.reference",
    source="003 §8.6 (8.30)",
    statement="Started from the same P (identity, and the leading principal directions; "
    "also init='pca' on both sides, whose start is scikit-learn's PCA directions), NCA "
    "reaches at least the leave-one-out objective sum_i p_i that scikit-learn's "
    "NeighborhoodComponentsAnalysis reaches (within 1e-3 m; both are local optimisers of a "
    "non-convex objective, so the learned P may differ by an orthogonal transform or a "
    "different local optimum; the difference of M = P P^T is reported), on standardised "
    "iris and wine.",
    method=Method.REFERENCE,
    tags=("dimred", "nca", "real-data"),
)
def reference(rng, scale):
    with single_threaded():
        _reference(rng, scale)


def _reference(rng, scale):
    for _name, (X, y) in (("iris", load_iris(return_X_y=True)),
                         ("wine", load_wine(return_X_y=True))):
        X = (X - X.mean(axis=0)) / X.std(axis=0)
        keep = rng.choice(len(X), min(len(X), 100 * scale), replace=False)
        X, y = X[keep], y[keep]
        d = X.shape[1]
        dp = 2
        pca = np.linalg.svd(X - X.mean(axis=0), full_matrices=False)[2][:dp].T
        for start in (np.eye(d)[:, :dp], pca):
            ours = NeighbourhoodComponentsAnalysis(dp, init=start, max_iter=200,
                                                   tol=1e-9).fit(X, y)
            theirs = SkNCA(dp, init=start.T, max_iter=200, tol=1e-9).fit(X, y)
            ours_value = nca_gradient(X, y, ours.projection_)[0]
            their_value = nca_gradient(X, y, theirs.components_.T)[0]
            evidence.worst("sklearn sum p_i - ours", their_value - ours_value)
            assert_leq(their_value, ours_value + 1e-3 * len(X), tol=ITERATIVE_SOLVER,
                       label="sklearn objective / ours")
            Ms = theirs.components_.T @ theirs.components_
            evidence.worst("|M - M_sklearn| / |M_sklearn|",
                           float(np.linalg.norm(ours.metric_ - Ms) / np.linalg.norm(Ms)))
            evidence.add_examples()
        # init="pca": the recorded start is the objective at scikit-learn's PCA directions
        # (the sign of each direction does not change any distance)
        ours = NeighbourhoodComponentsAnalysis(dp, init="pca", max_iter=200, tol=1e-9).fit(X, y)
        directions = PCA(dp).fit(X).components_.T
        assert_close(ours.objective_history_[0], 1.0 - nca_gradient(X, y, directions)[0],
                     ITERATIVE_SOLVER, label="|objective at init='pca' - at sklearn PCA|")
        theirs = SkNCA(dp, init="pca", max_iter=200, tol=1e-9).fit(X, y)
        their_value = nca_gradient(X, y, theirs.components_.T)[0]
        assert_leq(their_value, 1.0 - ours.objective_history_[-1] + 1e-3 * len(X),
                   tol=ITERATIVE_SOLVER, label="sklearn objective / ours")
