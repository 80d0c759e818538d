"""Shared check bodies and independent references of the clustering claims (003 Ch. 7).

No claims are registered here. The references share no code with
:mod:`algorithms.clustering`: pair counts, cluster statistics and the notes' DBI/DI by
direct loops over pairs; Gaussian densities from ``scipy.stats``; the density relations
of DBSCAN from a brute-force distance matrix and graph closures; AGNES cluster distances
from their definitions; and the notes' pseudo-code (Algorithm 1, Fig 9.9, Fig 9.11) run
literally, line by line, to exhibit what it does as printed. Every check body takes the
thing it tests as an argument, so the teeth tests run the same body on broken variants.
"""

from __future__ import annotations

import itertools
import math
import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
from scipy import stats
from scipy.special import logsumexp
from sklearn.exceptions import ConvergenceWarning

from algorithms.bayes import EMRun
from algorithms.clustering import MixtureParams
from mltheory import evidence
from mltheory.numeric import EXACT_ARITHMETIC, Tolerance, assert_close, assert_leq

__all__ = [
    "EM_ROUNDING",
    "KMEANS_ROUNDING",
    "KMeansTrace",
    "brute_geometry",
    "brute_pair_counts",
    "check_em_trace",
    "check_kmeans_trace",
    "check_metric_axioms",
    "cluster_distance",
    "density_relations",
    "kmeans_trace",
    "mixture_log_likelihood",
    "notes_agnes_literal",
    "notes_dbi",
    "notes_dbscan_literal",
    "notes_di",
    "notes_kmeans_literal",
    "regularisation_deficit",
    "same_partition",
    "silenced",
]

#: Objectives E of k-means recomputed from the recorded iterates: sums of m squared
#: distances whose expanded form ||x||^2 - 2 x.mu + ||mu||^2 (the loop's) loses up to
#: ~1e-13 of sum_j ||x_j - mean||^2 (the data's total scatter) to cancellation.
KMEANS_ROUNDING = Tolerance(
    rtol=1e-9, atol=1e-12,
    reason="E is a sum of m squared distances computed in expanded form; the rounding "
    "is ~1e-13 of the total scatter of the data, kept far below 1e-9 of it")

#: Log-likelihoods of EM iterates: a sum of m log-sum-exp terms of log-densities that
#: themselves carry ~cond(Sigma) * 1e-16 relative error.
EM_ROUNDING = Tolerance(
    rtol=1e-9, atol=1e-9,
    reason="LL is a sum of m log-sum-exp terms of Cholesky-based log-densities; their "
    "rounding is ~1e-12 of sum_j |log p(x_j)|, far below 1e-9 of it")

#: Per sample and unit of conditioning: the rounding of one log-density computed through
#: a factorisation of Sigma (Cholesky here, eigh in scipy) is ~1e-16 times the conditioning
#: of its evaluation (see :func:`ll_rounding`); a factor 10 of room.
CONDITIONED_LOG_DENSITY = 1e-15


def ll_rounding(X: np.ndarray, params: MixtureParams, value: float) -> float:
    """How far two correct float64 evaluations of LL (7.21) at ``params`` may differ: the
    :data:`EM_ROUNDING` of a value of this size, plus per sample 1e-15 times the
    conditioning of its dominant component's log-density: cond(Sigma) (near-singular
    covariances) and (||x|| + ||mu||) ||x - mu|| / lambda_min(Sigma) (x - mu loses the
    digits x and mu share, which a tiny variance magnifies)."""
    lam = np.array([np.linalg.eigvalsh(S) for S in params.covariances])
    cond = lam.max(axis=1) / lam.min(axis=1)
    with np.errstate(divide="ignore"):
        joint = np.column_stack([
            np.log(w) - 0.5 * np.sum((X - mu) ** 2, axis=1) / lo
            for w, mu, lo in zip(params.weights, params.means, lam.min(axis=1), strict=True)])
    c = np.argmax(joint, axis=1)  # the component that dominates each sample's density
    gap = np.linalg.norm(X - params.means[c], axis=1)
    size = np.linalg.norm(X, axis=1) + np.linalg.norm(params.means[c], axis=1)
    per_sample = cond[c] + size * gap / lam.min(axis=1)[c]
    return (EM_ROUNDING.atol + EM_ROUNDING.rtol * abs(value)
            + CONDITIONED_LOG_DENSITY * float(np.sum(per_sample)))


def silenced(func: Callable, *args, **kwargs):
    """``func(*args, **kwargs)`` with ConvergenceWarning silenced (a claim that inspects a
    recorded run states itself what convergence it needs)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        return func(*args, **kwargs)


def same_partition(a: np.ndarray, b: np.ndarray) -> bool:
    """Whether two labellings define the same partition (up to renaming)."""
    a, b = np.asarray(a), np.asarray(b)
    if a.shape != b.shape:
        return False
    pairs = {(x, y) for x, y in zip(a.tolist(), b.tolist(), strict=True)}
    return len(pairs) == len(set(a.tolist())) == len(set(b.tolist()))


# ---------------------------------------------------------------------------
# Indices (7.1)-(7.10): direct loops over pairs
# ---------------------------------------------------------------------------


def brute_pair_counts(lam: Sequence, ref: Sequence) -> tuple[int, int, int, int]:
    """``(a, b, c, d)`` of (7.1) by visiting every pair ``i < j``."""
    counts = [0, 0, 0, 0]
    for i, j in itertools.combinations(range(len(lam)), 2):
        same, same_ref = lam[i] == lam[j], ref[i] == ref[j]
        counts[(0 if same_ref else 1) if same else (2 if same_ref else 3)] += 1
    return tuple(counts)


def _dist(x: np.ndarray, z: np.ndarray, p: float = 2.0) -> float:
    """(7.11) with the differences divided by the largest first, so that no power
    underflows (two points 1e-300 apart are 1e-300 apart, not 0)."""
    d = np.abs(x - z)
    top = float(np.max(d, initial=0.0))
    if top == 0.0:
        return 0.0
    return top * float(np.sum((d / top) ** p) ** (1.0 / p))


@dataclass(frozen=True)
class BruteGeometry:
    """avg, diam (7.5)-(7.6), d_min (7.7), d_cen (7.8) by loops, clusters in sorted
    label order."""

    avg: np.ndarray
    diam: np.ndarray
    d_min: np.ndarray
    d_cen: np.ndarray
    centroid_scatter: np.ndarray


def brute_geometry(X: np.ndarray, labels: np.ndarray, p: float = 2.0) -> BruteGeometry:
    """The statistics of (7.5)-(7.8) from their definitions (one-point clusters: avg =
    diam = 0)."""
    groups = [X[labels == c] for c in np.unique(labels)]
    k = len(groups)
    avg, diam, scatter = np.zeros(k), np.zeros(k), np.zeros(k)
    for i, P in enumerate(groups):
        d = [_dist(P[a], P[b], p) for a, b in itertools.combinations(range(len(P)), 2)]
        if d:
            avg[i] = 2.0 * sum(d) / (len(P) * (len(P) - 1))
            diam[i] = max(d)
        mu = P.mean(axis=0)
        scatter[i] = float(np.mean([_dist(x, mu, p) for x in P]))
    d_min, d_cen = np.zeros((k, k)), np.zeros((k, k))
    for i, j in itertools.permutations(range(k), 2):
        d_min[i, j] = min(_dist(x, z, p) for x in groups[i] for z in groups[j])
        d_cen[i, j] = _dist(groups[i].mean(axis=0), groups[j].mean(axis=0), p)
    return BruteGeometry(avg, diam, d_min, d_cen, scatter)


def notes_dbi(geo: BruteGeometry, scatter: str = "pairwise") -> float:
    """(7.9) from the brute-force statistics."""
    s = geo.avg if scatter == "pairwise" else geo.centroid_scatter
    k = len(s)
    return sum(max((s[i] + s[j]) / geo.d_cen[i, j] for j in range(k) if j != i)
               for i in range(k)) / k


def notes_di(geo: BruteGeometry) -> float:
    """(7.10) from the brute-force statistics."""
    k = len(geo.diam)
    top = max(geo.diam)
    return min(min(geo.d_min[i, j] / top for j in range(k) if j != i) for i in range(k))


# ---------------------------------------------------------------------------
# Distance axioms (§7.3)
# ---------------------------------------------------------------------------


def check_metric_axioms(dist: Callable[[object, object], float], x, y, z, *,
                        same: Callable[[object, object], bool], label: str,
                        identity: bool = True) -> None:
    """Non-negativity, identity of indiscernibles (if ``identity``: ``dist = 0`` exactly
    when ``same``), symmetry and the triangle inequality on ``x, y, z``; the triangle's
    tightness ``dist(x, z) / (dist(x, y) + dist(y, z))`` is the evidence."""
    pts = (x, y, z)
    for a, b in itertools.product(pts, repeat=2):
        d = dist(a, b)
        assert d >= 0, f"{label}: negative distance {d!r}"
        assert_close(d, dist(b, a), EXACT_ARITHMETIC, label=f"{label}: |d(a,b) - d(b,a)|")
        if identity:
            assert (d == 0) == same(a, b), (
                f"{label}: dist = {d!r} for points that are "
                f"{'equal' if same(a, b) else 'different'}: {a!r}, {b!r}")
    lhs, rhs = dist(x, z), dist(x, y) + dist(y, z)
    assert_leq(lhs, rhs, label=f"{label}: triangle tightness d(x,z) / (d(x,y) + d(y,z))",
               context=f"{label}: x={x!r}, y={y!r}, z={z!r}: ")


# ---------------------------------------------------------------------------
# k-means (7.16), Algorithm 1
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class KMeansTrace:
    """A k-means run as its loop recorded it: the objective after every step (assignment
    and update alternating, assignment first), the partition and the means after each,
    whether it stopped by itself, and the final labels and means."""

    X: np.ndarray
    objective: np.ndarray
    labels: np.ndarray  # (steps, m)
    centres: np.ndarray  # (steps, k, n)
    converged: bool


def kmeans_trace(est, X: np.ndarray) -> KMeansTrace:
    """The trace of a ``KMeans(keep_history=True)`` fitted on ``X``."""
    return KMeansTrace(X=X, objective=est.objective_history_,
                       labels=est.labels_history_, centres=est.centers_history_,
                       converged=bool(est.converged_))


def kmeans_objective(X: np.ndarray, labels: np.ndarray, centres: np.ndarray) -> float:
    """(7.16) with given means: ``sum_j ||x_j - mu_{lambda_j}||^2``, directly."""
    diff = X - centres[labels]
    return float(np.einsum("ij,ij->", diff, diff))


def check_kmeans_trace(run: KMeansTrace, *, label: str = "k-means") -> None:
    """The recorded E equals (7.16) recomputed from the recorded iterates; no step raises
    it; no update step empties a cluster its assignment step filled; no partition repeats
    before the stop; the stop is a fixed point (labels are the nearest means, means the
    cluster means of non-empty clusters)."""
    X = run.X
    k = run.centres.shape[1]
    for t in range(0, run.labels.shape[0] - 1, 2):
        # line 11 takes the mean of every cluster lines 4-9 filled: a rule for empty
        # clusters may fill them, never empty another one (that only moves the 0/0)
        filled = np.bincount(run.labels[t], minlength=k) > 0
        kept = np.bincount(run.labels[t + 1], minlength=k) > 0
        assert np.all(kept[filled]), (
            f"{label}: the update step {t // 2 + 1} empties cluster(s) "
            f"{np.flatnonzero(filled & ~kept).tolist()} that its assignment step filled")
    scatter = float(np.sum((X - X.mean(axis=0)) ** 2))
    exact = np.array([kmeans_objective(X, lab, C) for lab, C in
                      zip(run.labels, run.centres, strict=True)])
    assert_close(run.objective, exact, KMEANS_ROUNDING, scale=max(scatter, 1e-300),
                 label=f"{label}: |recorded E - recomputed E| / scatter",
                 context=f"{label}: the recorded objective is not (7.16) of the iterates: ")
    slack = KMEANS_ROUNDING.atol + KMEANS_ROUNDING.rtol * scatter
    steps = np.diff(exact)
    if steps.size:
        i = int(np.argmax(steps))
        evidence.worst(f"{label}: largest step change of E / scatter",
                       float(steps[i]) / max(scatter, 1e-300))
        kind = "assignment" if i % 2 == 1 else "update"
        assert steps[i] <= slack, (
            f"{label}: the {kind} step {i + 1} raises E from {exact[i]!r} to "
            f"{exact[i + 1]!r}")
    assignments = run.labels[0::2]
    seen = {lab.tobytes() for lab in assignments[:-1]}
    assert len(seen) == len(assignments) - 1 or not run.converged, (
        f"{label}: a partition repeats before the loop stops")
    assert run.converged, f"{label}: the loop did not stop by itself"
    final_labels, final_centres = run.labels[-1], run.centres[-1]
    d2 = ((X[:, None, :] - final_centres[None]) ** 2).sum(-1)
    own = d2[np.arange(X.shape[0]), final_labels]
    assert np.all(own <= d2.min(axis=1) + slack), f"{label}: final labels are not nearest"
    for c in np.unique(final_labels):
        assert_close(final_centres[c], X[final_labels == c].mean(axis=0), EXACT_ARITHMETIC,
                     scale=math.sqrt(max(scatter, 1e-300)) + float(np.max(np.abs(X))),
                     label=f"{label}: |final mean - cluster mean|")


def notes_kmeans_literal(X: np.ndarray, centres: np.ndarray, *, max_rounds: int = 100
                         ) -> tuple[list[list[int]], np.ndarray]:
    """Algorithm 1 run line by line *as printed*: line 8 reads ``C_{lambda_j} =
    C_{lambda_j}``. Returns the clusters after lines 4-9 of the last round and the means
    after line 11 (0/0 gives NaN, as float arithmetic does)."""
    mu = centres.astype(float).copy()
    clusters: list[list[int]] = []
    for _ in range(max_rounds):
        clusters = [[] for _ in range(len(mu))]  # line 4
        for j in range(len(X)):  # lines 5-9
            lam = int(np.argmin(np.linalg.norm(X[j] - mu, axis=1)))
            clusters[lam] = clusters[lam]  # line 8 as printed: x_j is never added
        new = np.empty_like(mu)
        with np.errstate(invalid="ignore", divide="ignore"):
            for i, C in enumerate(clusters):  # line 11
                new[i] = np.sum(X[C], axis=0) / len(C) if C else np.zeros(X.shape[1]) / 0.0
        if np.array_equal(new, mu, equal_nan=True):
            break
        mu = new
    return clusters, mu


# ---------------------------------------------------------------------------
# Gaussian mixtures (7.17)-(7.27) and EM
# ---------------------------------------------------------------------------


def mixture_log_likelihood(X: np.ndarray, params: MixtureParams) -> float | None:
    """(7.21) with scipy.stats densities (log-sum-exp over components); None when scipy
    refuses a covariance as numerically singular."""
    try:
        with np.errstate(divide="ignore"):
            terms = np.column_stack([
                np.log(w) + stats.multivariate_normal(mu, S, allow_singular=False)
                .logpdf(X).reshape(-1) for w, mu, S in zip(params.weights, params.means,
                                                           params.covariances, strict=True)])
    except (np.linalg.LinAlgError, ValueError):
        return None
    return float(np.sum(logsumexp(terms, axis=1)))


def regularisation_deficit(new: MixtureParams, n_samples: int, reg_covar: float) -> float:
    """An upper bound on how much an M-step with ``Sigma' = S + reg I`` can lower LL.

    For the exact maximiser ``Sigma = S`` of ``Q`` the EM inequality gives ``LL' >= LL``;
    replacing it by ``S + eps I`` lowers ``Q`` by exactly ``sum_i N_i/2 sum_k
    [ln(1 + eps/l_ik) - eps/(l_ik + eps)]`` (``l_ik`` the eigenvalues of ``S_i``), so
    ``LL(theta') >= LL(theta) - delta``. ``delta = 0`` for ``eps = 0``; ``inf`` when some
    ``S_i`` is singular (the unregularised maximum is infinite)."""
    if reg_covar == 0:
        return 0.0
    total = 0.0
    for w, S in zip(new.weights, new.covariances, strict=True):
        N = w * n_samples
        if N == 0:
            continue
        lam = np.linalg.eigvalsh(S) - reg_covar
        if np.any(lam <= reg_covar * 1e-12):
            return math.inf
        total += 0.5 * N * float(np.sum(np.log1p(reg_covar / lam) - reg_covar / (lam + reg_covar)))
    return total


def check_em_trace(X: np.ndarray, run: EMRun, *, reg_covar: float, label: str = "GMM EM"
                   ) -> np.ndarray:
    """The trace recorded by the EM driver's loop equals (7.21) of the recorded iterates
    (scipy densities), and no recorded step lowers it by more than the regularisation
    deficit (0 for ``reg_covar = 0``: plain EM never lowers LL). Returns the checked
    per-step changes.

    Iterates whose covariances scipy refuses as singular (condition number above ~5e9,
    met when unregularised EM collapses a component onto a few samples) have no float64
    log-likelihood worth comparing: the steps into or out of them are counted, not
    checked."""
    params = run.params_history
    assert params is not None and len(params) == len(run.log_likelihood_history), (
        f"{label}: the run kept no iterates")
    trace = np.asarray(run.log_likelihood_history)
    exact = [mixture_log_likelihood(X, p) for p in params]
    known = np.array([v is not None for v in exact])
    if not np.all(known):
        evidence.worst(f"{label}: iterates scipy refuses as singular", float(np.sum(~known)))
    rounding = [ll_rounding(X, p, v) for p, v in zip(params, trace, strict=True)]
    for t, v in enumerate(exact):
        if v is None:
            continue
        evidence.worst(f"{label}: |recorded LL - scipy LL| / allowed rounding",
                       abs(trace[t] - v) / rounding[t])
        assert abs(trace[t] - v) <= rounding[t], (
            f"{label}: the recorded trace is not LL (7.21) of iterate {t}: {trace[t]!r} vs "
            f"scipy {v!r} (allowed rounding {rounding[t]:.3g})")
    steps = np.diff(trace)
    checkable = known[:-1] & known[1:]
    if not np.all(checkable):
        evidence.worst(f"{label}: steps at numerically singular covariances (not checked)",
                       float(np.sum(~checkable)))
    for t in np.flatnonzero(checkable):
        allowed = regularisation_deficit(params[t + 1], X.shape[0], reg_covar)
        slack = rounding[t] + rounding[t + 1]
        assert steps[t] >= -allowed - slack, (
            f"{label}: step {t + 1} lowers LL from {trace[t]!r} to {trace[t + 1]!r} (by "
            f"{-steps[t]:.6g}; regularisation allows {allowed:.3g}, rounding {slack:.3g})")
    checked = steps[checkable]
    if checked.size:
        evidence.worst(f"{label}: smallest LL increase per step", float(checked.min()),
                       larger_is_worse=False)
    return checked


# ---------------------------------------------------------------------------
# DBSCAN (§7.5): the relations by brute force, Fig 9.9 literally
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class DensityRelations:
    """Boolean matrices over the samples: ``direct[i, j]``: x_j directly density-reachable
    from x_i; ``reach[i, j]``: x_j density-reachable from x_i (paths of direct steps,
    length >= 0); ``connected[i, j]``: some x_k reaches both."""

    core: np.ndarray
    direct: np.ndarray
    reach: np.ndarray
    connected: np.ndarray


def density_relations(X: np.ndarray, eps: float, min_pts: int, p: float = 2.0
                      ) -> DensityRelations:
    """The relations of §7.5 from the full distance matrix and a transitive closure."""
    D = np.sum(np.abs(X[:, None, :] - X[None, :, :]) ** p, axis=-1) ** (1.0 / p)
    near = D <= eps
    core = near.sum(axis=1) >= min_pts
    direct = near & core[:, None]
    m = X.shape[0]
    reach = np.eye(m, dtype=bool) | direct
    while True:  # Boolean closure by squaring
        nxt = reach | ((reach.astype(np.int64) @ reach.astype(np.int64)) > 0)
        if np.array_equal(nxt, reach):
            break
        reach = nxt
    connected = (reach.T.astype(np.int64) @ reach.astype(np.int64)) > 0
    return DensityRelations(core=core, direct=direct, reach=reach, connected=connected)


def notes_dbscan_literal(X: np.ndarray, eps: float, min_pts: int, seeds: Sequence[int],
                         p: float = 2.0) -> np.ndarray:
    """Fig 9.9 line by line, with line 12 picking the given ``seeds`` in order (each must
    still be in Omega). Labels 0..k-1 in generation order, -1 for noise."""
    m = X.shape[0]
    D = np.sum(np.abs(X[:, None, :] - X[None, :, :]) ** p, axis=-1) ** (1.0 / p)
    N = [set(np.flatnonzero(D[j] <= eps).tolist()) for j in range(m)]  # line 3
    omega = {j for j in range(m) if len(N[j]) >= min_pts}  # lines 1-7
    gamma = set(range(m))  # line 9
    labels = np.full(m, -1)
    for k, o in enumerate(seeds):  # lines 10-24
        assert o in omega, f"seed {o} is not an unclustered core object"
        gamma_old = set(gamma)
        queue = [o]
        gamma.discard(o)
        while queue:
            q = queue.pop(0)
            if len(N[q]) >= min_pts:
                delta = N[q] & gamma
                queue.extend(sorted(delta))
                gamma -= delta
        cluster = gamma_old - gamma
        labels[sorted(cluster)] = k
        omega -= cluster
    assert not omega, "cores left unclustered after the given seeds"
    return labels


# ---------------------------------------------------------------------------
# AGNES (§7.6): cluster distances by definition, Fig 9.11 literally
# ---------------------------------------------------------------------------


def cluster_distance(X: np.ndarray, A: Sequence[int], B: Sequence[int], linkage: str,
                     p: float = 2.0) -> float:
    """d_min / d_max / d_avg of §7.6 over all pairs ``x in A, z in B``."""
    d = [_dist(X[a], X[b], p) for a in A for b in B]
    return {"single": min, "complete": max}.get(linkage, lambda v: sum(v) / len(v))(d)


def notes_agnes_literal(X: np.ndarray, k: int, linkage: str, *, larger_first: bool = False
                        ) -> list[list[int]]:
    """Fig 9.11 line by line. ``larger_first`` names the closest pair so that
    ``i* > j*`` (the notes do not fix the order); lines 13-21 then run as printed:
    merge into C_{i*}, renumber the clusters after j*, delete row/column j*, recompute
    row i* of M. Returns the k clusters (sample indices)."""
    C = [[j] for j in range(len(X))]  # lines 1-3
    M = np.array([[cluster_distance(X, a, b, linkage) for b in C] for a in C])  # 4-9
    q = len(C)  # line 10
    while q > k:  # line 11
        masked = M + np.diag(np.full(q, np.inf))
        r, s = np.unravel_index(np.argmin(masked), masked.shape)  # line 12
        i_star, j_star = (max(r, s), min(r, s)) if larger_first else (min(r, s), max(r, s))
        C[i_star] = C[i_star] + C[j_star]  # line 13
        del C[j_star]  # lines 14-16: C_j -> C_{j-1} for j > j*
        M = np.delete(np.delete(M, j_star, axis=0), j_star, axis=1)  # line 17
        if i_star < q - 1:  # lines 18-21 recompute row i* (index i* as printed)
            for j in range(q - 1):
                M[i_star, j] = M[j, i_star] = cluster_distance(X, C[i_star], C[j], linkage)
        q -= 1  # line 22
    return C
