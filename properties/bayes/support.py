"""Shared check bodies of the Bayes claims (003 Chapter 5), reused by the teeth tests.

No claims are registered here. Every body takes the part it tests (a decision rule, an
estimator factory, a posterior formula, an M-step) as a parameter defaulting to the
library's, so a teeth test runs the same body on a broken variant.

Exact references are written here independently of :mod:`algorithms.bayes`: joint
tables, posteriors, risks and conditional mutual information in rational arithmetic
(:mod:`fractions`), log-likelihoods of categorical models by direct loops, spanning
trees by Prüfer sequences, Gibbs kernels as explicit transition matrices.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Sequence
from fractions import Fraction

import numpy as np
from scipy import stats
from scipy.special import logsumexp

from algorithms.bayes import (
    BayesianNetwork,
    NaiveBayesClassifier,
    bayes_decision,
    conditional_risk,
    run_em,
)
from mltheory import evidence
from mltheory.numeric import (
    EXACT_ARITHMETIC,
    Tolerance,
    assert_close,
    relative_error,
)
from properties.bayes.strategies import NaiveBayesModel, NetworkModel, ODEModelSpec

__all__ = [
    "EM_ROUNDING",
    "all_dags",
    "assert_matches",
    "check_bayes_rule_optimal",
    "check_em_monotone",
    "check_exact_posterior",
    "check_zero_one_reduction",
    "exact_joint_nb",
    "exact_joint_ode",
    "exact_network_joint",
    "exact_posteriors",
    "fit_weighted",
    "log_fraction",
    "ode_fit_check",
    "prufer_trees",
    "record_max",
    "tally",
    "rules_risks",
]

#: Comparisons of log-likelihoods of EM iterates: a sum of n log-terms, each computed
#: with relative error ~1e-15 after log-sum-exp, so two evaluations of the same value
#: differ by far less than 1e-10 * max(1, |LL|).
EM_ROUNDING = Tolerance(rtol=1e-10, atol=1e-10,
                        reason="log-likelihoods are sums of n log-sum-exp terms; float64 "
                        "rounding stays below 1e-12 relative, far below 1e-10")

#: Posteriors compared after a fit on an exact weighted table: counts are float sums of
#: rationals, logs and log-sum-exp add a few ulps per attribute.
POSTERIOR = Tolerance(rtol=1e-9, atol=1e-12,
                      reason="posteriors from float sums of rational weights and a few "
                      "log/exp evaluations per attribute: errors of ~1e-14 relative")


def record_max(name: str, value: float) -> float:
    """Keep the largest value of a rounding-error figure as evidence *without* steering
    Hypothesis towards it (``evidence.worst`` would make the search optimise a float64
    rounding error, which costs thousands of examples and proves nothing)."""
    value = float(value)
    m = evidence.current().metrics.get(name)
    if m is None or not value <= m.value:
        evidence.record(name, value)
    return value


def tally(name: str, by: int = 1) -> None:
    """Count occurrences of a scenario across examples (e.g. "product underflowed")."""
    m = evidence.current().metrics.get(name)
    evidence.record(name, by if m is None else m.value + by)


def assert_matches(actual, expected, tol: Tolerance, *, label: str, context: str = "",
                   scale: float | None = None) -> float:
    """:func:`mltheory.numeric.assert_close` for comparisons whose only error is
    rounding: the same test and message, the error kept with :func:`record_max`."""
    a, b = np.asarray(actual, dtype=float), np.asarray(expected, dtype=float)
    if a.shape != b.shape:
        raise AssertionError(f"{context}shape mismatch: {a.shape} vs {b.shape}")
    if not (np.all(np.isfinite(a)) and np.all(np.isfinite(b))):
        raise AssertionError(f"{context}non-finite values: actual={a!r}, expected={b!r}")
    err = record_max(label, relative_error(a, b, scale))
    if np.any(np.abs(a - b) > tol.bound(a, b, scale)):
        assert_close(a, b, tol, label=label, context=context, scale=scale)  # raises
    return err


def log_fraction(q: Fraction) -> float:
    """``log q`` for a positive rational of any size (no float underflow)."""
    return math.log(q.numerator) - math.log(q.denominator)


# ---------------------------------------------------------------------------
# Decisions (5.1)-(5.3)
# ---------------------------------------------------------------------------


def exact_posteriors(joint: Sequence[Sequence[Fraction]]) -> list[list[Fraction]]:
    """``P(c | x) = P(x, c) / P(x)`` for every input with ``P(x) > 0``."""
    return [[v / sum(row) for v in row] for row in joint]


def rules_risks(joint, loss) -> list[tuple[tuple[int, ...], Fraction]]:
    """Every deterministic rule ``h`` (a class per input) with its exact overall risk
    ``sum_x P(x) sum_j lambda_{h(x) j} P(c_j | x) = sum_x sum_j lambda_{h(x) j} P(x, c_j)``."""
    n, K = len(joint), len(joint[0])
    cond = [[sum((loss[i][j] * joint[x][j] for j in range(K)), Fraction(0)) for i in range(K)]
            for x in range(n)]
    return [(h, sum((cond[x][h[x]] for x in range(n)), Fraction(0)))
            for h in itertools.product(range(K), repeat=n)]


def check_bayes_rule_optimal(problem, decide: Callable = bayes_decision) -> None:
    """(5.2)-(5.3): the rule deciding ``argmin_c R(c | x)`` at every ``x`` has the least
    overall risk among all ``K^n`` deterministic rules (exact enumeration)."""
    post = exact_posteriors(problem.joint)
    P = np.array([[float(v) for v in row] for row in post])
    L = np.array([[float(v) for v in row] for row in problem.loss])
    exact_R = [[float(sum((problem.loss[i][j] * row[j] for j in range(len(row))),
                          Fraction(0))) for i in range(len(row))] for row in post]
    assert_matches(conditional_risk(P, L), np.array(exact_R), EXACT_ARITHMETIC,
                 scale=float(np.max(np.abs(L))) + 1.0,
                 label="|R(c|x) - exact (5.2)| / max|loss|", context="(5.2): ")
    h = tuple(int(v) for v in decide(P, L))
    table = rules_risks(problem.joint, problem.loss)
    risks = dict(table)
    best = min(risks.values())
    others = [r for rule, r in table if r != best]
    if others:
        evidence.worst("smallest excess risk of a non-optimal rule", float(min(others) - best),
                       larger_is_worse=False)
    evidence.record("rules enumerated (last example)", len(table))
    assert risks[h] == best, (
        f"the rule {h} has overall risk {risks[h]}, but the best of the {len(table)} "
        f"deterministic rules has {best}")


def check_zero_one_reduction(P: np.ndarray, loss: np.ndarray | None = None) -> None:
    """Under 0/1 loss ``R(c | x) = 1 - P(c | x)`` and the Bayes rule is ``argmax_c P(c | x)``."""
    K = P.shape[1]
    L = 1.0 - np.eye(K) if loss is None else loss
    assert_matches(conditional_risk(P, L), 1.0 - P, EXACT_ARITHMETIC,
                 label="|R(c|x) - (1 - P(c|x))|", context="0/1 loss: ")
    decided = bayes_decision(P, L)
    top = P.max(axis=1)
    assert np.all(P[np.arange(P.shape[0]), decided] == top), (
        f"0/1-loss decision {decided.tolist()} is not a maximiser of the posterior {P.tolist()}")


# ---------------------------------------------------------------------------
# Exact joints of generative classifiers and fits on them
# ---------------------------------------------------------------------------


def exact_joint_nb(model: NaiveBayesModel) -> dict[tuple[int, ...], list[Fraction]]:
    """``x -> [P(c, x) for c]`` with ``P(c, x) = P(c) prod_i P(x_i | c)``."""
    K = len(model.prior)
    out = {}
    for x in itertools.product(*[range(r) for r in model.n_values]):
        out[x] = [model.prior[c] * math.prod((model.cond[i][c][v] for i, v in enumerate(x)),
                                             start=Fraction(1)) for c in range(K)]
    return out


def exact_joint_ode(spec: ODEModelSpec) -> dict[tuple[int, ...], list[Fraction]]:
    """``x -> [P(c, x) for c]`` with ``P(c, x) = P(c) prod_i P(x_i | c, x_{pa_i})`` (5.8)."""
    K = len(spec.prior)
    out = {}
    for x in itertools.product(*[range(r) for r in spec.n_values]):
        vals = []
        for c in range(K):
            p = spec.prior[c]
            for i, v in enumerate(x):
                u = 0 if spec.parents[i] < 0 else x[spec.parents[i]]
                p *= spec.cond[i][c][u][v]
            vals.append(p)
        out[x] = vals
    return out


def fit_weighted(estimator, joint: dict[tuple[int, ...], list[Fraction]]):
    """Fit ``estimator`` on every ``(x, c)`` with weight ``P(c, x)`` (cells of weight 0
    left out): its empirical distribution is then exactly the joint."""
    rows, labels, weights = [], [], []
    for x, vals in joint.items():
        for c, p in enumerate(vals):
            if p > 0:
                rows.append(x)
                labels.append(c)
                weights.append(float(p))
    return estimator.fit(np.array(rows, dtype=float), np.array(labels),
                         sample_weight=np.array(weights))


def check_exact_posterior(fitted, joint: dict[tuple[int, ...], list[Fraction]],
                          what: str) -> None:
    """``fitted.predict_proba(x)`` equals the exact ``P(c | x)`` of ``joint`` at every ``x``."""
    xs = [x for x, vals in joint.items() if sum(vals) > 0]
    exact = np.array([[float(v / sum(joint[x])) for v in joint[x]] for x in xs])
    got = fitted.predict_proba(np.array(xs, dtype=float))
    assert_matches(got, exact, POSTERIOR, label=f"|posterior - exact| ({what})",
                 context=f"{what}: ")


def ode_fit_check(spec: ODEModelSpec, factory: Callable[[], object], what: str) -> object:
    """Fit ``factory()`` on the exact joint of ``spec`` and compare posteriors."""
    joint = exact_joint_ode(spec)
    fitted = fit_weighted(factory(), joint)
    check_exact_posterior(fitted, joint, what)
    return fitted


def nb_factory() -> NaiveBayesClassifier:
    return NaiveBayesClassifier(categorical_features="all", alpha=0.0)


# ---------------------------------------------------------------------------
# Networks
# ---------------------------------------------------------------------------


def exact_network_joint(model: NetworkModel) -> dict[tuple[int, ...], Fraction]:
    """``x -> prod_i theta_{x_i | pi_i}`` over every joint state (5.9), in rationals."""
    out = {}
    for x in itertools.product(*[range(r) for r in model.cards]):
        p = Fraction(1)
        for i, pa in enumerate(model.parents):
            p *= model.cpts[i][tuple(x[q] for q in pa)][x[i]]
        out[x] = p
    return out


def all_dags(d: int) -> list[tuple[tuple[int, ...], ...]]:
    """Every DAG on ``d`` labelled nodes, as parent tuples (brute force over edge sets
    with a cycle test; 1, 3, 25, 543 DAGs for d = 1..4)."""
    pairs = [(u, v) for u in range(d) for v in range(d) if u != v]
    out = []
    for mask in range(1 << len(pairs)):
        parents = [[] for _ in range(d)]
        for k, (u, v) in enumerate(pairs):
            if mask >> k & 1:
                parents[v].append(u)
        if _is_acyclic(parents):
            out.append(tuple(tuple(p) for p in parents))
    return out


def _is_acyclic(parents: Sequence[Sequence[int]]) -> bool:
    """Depth-first search for a back edge (written here, not the library's graphlib)."""
    state = [0] * len(parents)  # 0 new, 1 on stack, 2 done

    def visit(v: int) -> bool:
        state[v] = 1
        for p in parents[v]:
            if state[p] == 1 or (state[p] == 0 and not visit(p)):
                return False
        state[v] = 2
        return True

    return all(state[v] == 2 or visit(v) for v in range(len(parents)))


def ml_log_likelihood(parents: Sequence[Sequence[int]], X: np.ndarray) -> float:
    """``max_Theta LL`` of a structure from counts, by a direct loop over families."""
    total = 0.0
    for i, pa in enumerate(parents):
        fam: dict[tuple, float] = {}
        par: dict[tuple, float] = {}
        for row in X:
            key = tuple(int(row[q]) for q in pa)
            fam[key + (int(row[i]),)] = fam.get(key + (int(row[i]),), 0.0) + 1.0
            par[key] = par.get(key, 0.0) + 1.0
        total += sum(n * math.log(n / par[k[:-1]]) for k, n in fam.items())
    return total


def free_parameters(parents: Sequence[Sequence[int]], cards: Sequence[int]) -> int:
    """CPT entries minus one normalisation constraint per CPT row."""
    entries = sum(math.prod(cards[p] for p in pa) * cards[i] for i, pa in enumerate(parents))
    rows = sum(math.prod(cards[p] for p in pa) for pa in parents)
    return entries - rows


def prufer_trees(d: int):
    """Every labelled spanning tree of the complete graph on ``d`` nodes (edge sets),
    decoded from the ``d^(d-2)`` Prüfer sequences."""
    if d == 1:
        yield []
        return
    if d == 2:
        yield [(0, 1)]
        return
    for seq in itertools.product(range(d), repeat=d - 2):
        degree = [1] * d
        for v in seq:
            degree[v] += 1
        edges = []
        for v in seq:
            leaf = min(u for u in range(d) if degree[u] == 1)
            edges.append((leaf, v))
            degree[leaf] -= 1
            degree[v] -= 1
        u, w = (k for k in range(d) if degree[k] == 1)
        edges.append((u, w))
        yield edges


def exact_cmi(codes: np.ndarray, y: np.ndarray, w: np.ndarray) -> np.ndarray:
    """``I(x_i; x_j | y)`` on the weighted empirical distribution, by dictionaries."""
    d = codes.shape[1]
    total = float(w.sum())
    out = np.zeros((d, d))
    for i in range(d):
        for j in range(i + 1, d):
            n_ijc, n_ic, n_jc, n_c = {}, {}, {}, {}
            for a, b, c, wt in zip(codes[:, i], codes[:, j], y, w, strict=True):
                n_ijc[a, b, c] = n_ijc.get((a, b, c), 0.0) + wt
                n_ic[a, c] = n_ic.get((a, c), 0.0) + wt
                n_jc[b, c] = n_jc.get((b, c), 0.0) + wt
                n_c[c] = n_c.get(c, 0.0) + wt
            out[i, j] = out[j, i] = sum(
                n / total * math.log(n * n_c[c] / (n_ic[a, c] * n_jc[b, c]))
                for (a, b, c), n in n_ijc.items() if n > 0)
    return out


def stochastic_power(K: np.ndarray, n: int) -> np.ndarray:
    """``K^n`` for a row-stochastic ``K`` by repeated squaring, renormalising the rows
    after every product (otherwise a 1e-16 row-sum error grows like (1 + 1e-16)^n)."""
    result, base = np.eye(K.shape[0]), K
    while n:
        if n & 1:
            result = result @ base
            result /= result.sum(axis=1, keepdims=True)
        base = base @ base
        base /= base.sum(axis=1, keepdims=True)
        n >>= 1
    return result


def gibbs_kernel_distance(net: BayesianNetwork, evidence_: dict[int, int],
                          sweeps: Sequence[int]) -> tuple[np.ndarray, list[int], list[float]]:
    """The exact law of a systematic-scan Gibbs chain (uniform start over the
    non-evidence variables, scan in ``net.order``) after each number of ``sweeps``, and
    its total variation distance to the exact posterior. Returns ``(posterior over
    states, free variables, TVs)``, states in ``itertools.product`` order of the free
    variables."""
    free = [i for i in range(net.n_variables) if i not in evidence_]
    states = list(itertools.product(*[range(net.cards[i]) for i in free]))
    index = {s: k for k, s in enumerate(states)}
    J = net.joint_table()

    def prob(s):
        full = [0] * net.n_variables
        for var, val in evidence_.items():
            full[var] = val
        for var, val in zip(free, s, strict=True):
            full[var] = val
        return J[tuple(full)]

    p = np.array([prob(s) for s in states])
    post = p / p.sum()
    sweep = np.eye(len(states))
    for var in [v for v in net.order if v in free]:
        pos = free.index(var)
        K = np.zeros((len(states), len(states)))
        for s in states:
            moves = [s[:pos] + (v,) + s[pos + 1:] for v in range(net.cards[var])]
            weights = np.array([prob(m) for m in moves])
            weights = (weights / weights.sum() if weights.sum() > 0
                       else np.full(len(moves), 1.0 / len(moves)))
            for m, wt in zip(moves, weights, strict=True):
                K[index[s], index[m]] += wt
        sweep = sweep @ K
    start = np.full(len(states), 1.0 / len(states))
    tvs = [0.5 * float(np.abs(start @ stochastic_power(sweep, B) - post).sum())
           for B in sweeps]
    return post, free, tvs


# ---------------------------------------------------------------------------
# EM
# ---------------------------------------------------------------------------


def check_em_monotone(model, data, start, independent_ll: Callable[[object], float], *,
                      max_iter: int = 25, label: str = "EM") -> list[float]:
    """Run EM from ``start`` through the generic driver and read the trace its loop
    recorded: every entry equals the log-likelihood of the recorded iterate (recomputed
    by ``independent_ll``), and no step lowers it (up to float rounding). Returns the
    per-step increases."""
    res = run_em(model, data, initial_params=[start], max_iter=max_iter, tol=0.0,
                 keep_params=True, warn=False)
    run = res.best_run
    trace = np.array(run.log_likelihood_history)
    assert len(trace) == len(run.params_history) == run.n_iter + 1
    recomputed = np.array([independent_ll(p) for p in run.params_history])
    assert_matches(trace, recomputed, EM_ROUNDING, label=f"{label}: |trace - recomputed LL|",
                 scale=max(1.0, float(np.max(np.abs(recomputed)))),
                 context=f"{label}: the recorded trace is not the LL of the iterates: ")
    steps = np.diff(trace)
    if steps.size:
        i = int(np.argmin(steps))
        evidence.worst(f"{label}: smallest LL increase per step", float(steps[i]),
                       larger_is_worse=False)
        slack = EM_ROUNDING.atol + EM_ROUNDING.rtol * max(1.0, abs(float(trace[i])))
        assert steps[i] >= -slack, (
            f"{label}: step {i} lowers the observed log-likelihood from {trace[i]!r} to "
            f"{trace[i + 1]!r} (by {-steps[i]:.3g})")
    assert run.stop_reason != "non-finite", f"{label}: an iterate was not finite"
    return steps.tolist()


def mixture_log_likelihood(codes: np.ndarray, weights: np.ndarray, theta: list[np.ndarray],
                           alpha: float = 0.0) -> float:
    """``sum_i log sum_k pi_k prod_j theta_{k j x_ij}`` by a direct per-sample loop."""
    total = 0.0
    with np.errstate(divide="ignore"):
        for row in codes:
            terms = np.log(weights).copy()
            for j, v in enumerate(row):
                terms += np.log(theta[j][:, v])
            total += float(logsumexp(terms))
        if alpha:
            total += alpha * sum(float(np.sum(np.log(t))) for t in theta)
    return total


def network_observed_ll(parents, cards, X: np.ndarray, cpts: list[np.ndarray]) -> float:
    """``sum_i log sum_{x_mis} prod_v theta`` by looping over completions of each row."""
    total = 0.0
    for row in X:
        miss = [k for k, v in enumerate(row) if np.isnan(v)]
        acc = []
        for fill in itertools.product(*[range(cards[k]) for k in miss]):
            x = [0 if np.isnan(v) else int(v) for v in row]
            for k, v in zip(miss, fill, strict=True):
                x[k] = v
            with np.errstate(divide="ignore"):
                acc.append(sum(float(np.log(cpts[i][tuple(x[p] for p in pa) + (x[i],)]))
                               for i, pa in enumerate(parents)))
        total += float(logsumexp(acc))
    return total


def gaussian_ll_reference(X: np.ndarray, mean: np.ndarray, cov: np.ndarray) -> float:
    """``sum log N`` by scipy.stats (the reference for (5.4))."""
    return float(np.sum(stats.multivariate_normal(mean, cov, allow_singular=False).logpdf(X)))


def assert_not_above(value: float, best: float, *, label: str, scale: float) -> None:
    """``value <= best`` up to rounding of log-likelihoods of size ``scale``; the excess
    ``value - best`` (negative when the claim holds with room) is the evidence, and the
    search is steered towards making it positive."""
    excess = evidence.worst(f"{label}: excess", float(value) - float(best))
    allowed = 1e-9 * max(1.0, scale)  # sums of <= scale-sized log terms round below this
    assert excess <= allowed, (
        f"{label}: {value!r} exceeds the claimed maximum {best!r} by {excess:.3g} "
        f"(allowed rounding {allowed:.3g})")
