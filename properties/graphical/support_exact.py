"""Independent references and shared check bodies for the exact part of 003 Chapter 12.

The references here share no code with ``algorithms.graphical``: joints are built by
looping over every configuration and multiplying the printed factors, separation is a
depth-first search, cliques are found by checking every subset. The check bodies take
the function under test as an argument so that the teeth tests can hand them broken
variants.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence

import numpy as np

from mltheory import evidence
from mltheory.numeric import Tolerance, assert_close
from mltheory.stats import clopper_pearson

#: Probabilities compared here are ratios of sums of positive terms (no cancellation):
#: float64 rounding over at most a few thousand terms.
ENUMERATED = Tolerance(rtol=1e-9, atol=1e-12,
                       reason="sums and ratios of at most a few thousand positive float64 "
                       "terms, no cancellation: relative rounding below 1e-12")

#: Log-probabilities: an absolute error in the log is a relative error in the
#: probability; log-sum-exp of up to 4^4 terms loses a few ulps.
LOG_ENUMERATED = Tolerance(rtol=1e-9, atol=1e-9,
                           reason="log-sum-exp over at most a few hundred terms and scaled "
                           "recursions: absolute log error of a few 1e-15 per term")


# ---------------------------------------------------------------------------
# HMM references
# ---------------------------------------------------------------------------


def printed_joint_12_1(A, B, pi, x: Sequence[int], y: Sequence[int]) -> float:
    """P(x_1, y_1, ..., x_n, y_n) = P(y_1) P(x_1|y_1) prod_{i=2}^n P(y_i|y_{i-1})
    P(x_i|y_i), multiplied out factor by factor (1-based i of the notes)."""
    p = pi[y[0]] * B[y[0], x[0]]
    for i in range(2, len(x) + 1):
        p *= A[y[i - 2], y[i - 1]] * B[y[i - 1], x[i - 1]]
    return float(p)


def hmm_configurations(N: int, M: int, n: int) -> tuple[np.ndarray, np.ndarray]:
    """Every (x, y) pair of length n: arrays X, Y of shape (M^n N^n, n)."""
    xs = np.array(list(itertools.product(range(M), repeat=n)), dtype=np.intp)
    ys = np.array(list(itertools.product(range(N), repeat=n)), dtype=np.intp)
    X = np.repeat(xs, len(ys), axis=0)
    Y = np.tile(ys, (len(xs), 1))
    return X, Y


def hmm_joint_table(A, B, pi, n: int) -> np.ndarray:
    """The joint (12.1) as a table with axes (x_1..x_n, y_1..y_n), by the printed
    product for every configuration."""
    N, M = B.shape
    X, Y = hmm_configurations(N, M, n)
    vals = np.array([printed_joint_12_1(A, B, pi, x, y) for x, y in zip(X, Y, strict=True)])
    return vals.reshape((M,) * n + (N,) * n)


def check_hmm_joint(log_joint: Callable, A, B, pi, n: int) -> None:
    """log_joint (our (12.1)) agrees with the printed product on every configuration
    and the joint sums to 1 over all N^n M^n of them."""
    N, M = B.shape
    X, Y = hmm_configurations(N, M, n)
    ours = np.exp(log_joint(A, B, pi, X, Y))
    ref = np.array([printed_joint_12_1(A, B, pi, x, y) for x, y in zip(X, Y, strict=True)])
    assert_close(ours, ref, ENUMERATED, scale=1.0, label="|P(x, y) - printed (12.1)|")
    assert_close(ours.sum(), 1.0, ENUMERATED, label="|sum of (12.1) over all (x, y) - 1|")
    evidence.add_examples(len(X))


def check_forward(log_likelihood: Callable, A, B, pi, xs: np.ndarray) -> None:
    """log P(x | lambda) of the forward algorithm equals log of the sum of the printed
    joint (12.1) over all N^n state paths, for every sequence in xs."""
    N = A.shape[0]
    n = xs.shape[1]
    paths = list(itertools.product(range(N), repeat=n))
    ref = np.array([sum(printed_joint_12_1(A, B, pi, x, y) for y in paths) for x in xs])
    ours = np.asarray(log_likelihood(A, B, pi, xs), dtype=float)
    finite = ref > 0
    assert np.all(np.isneginf(ours[~finite])), "an impossible sequence got P(x) > 0"
    assert_close(ours[finite], np.log(ref[finite]), LOG_ENUMERATED,
                 label="|forward log P(x) - log brute force|")


def cell_frequency_check(counts: np.ndarray, probs: np.ndarray, *, label: str,
                         confidence: float = 1.0 - 1e-6) -> None:
    """Refute 'the cells have probabilities probs' when some cell's exact probability lies
    outside its two-sided Clopper-Pearson interval at a Bonferroni-corrected level: a
    true model is refuted with probability at most 1 - confidence (one-in-a-million)."""
    total = int(counts.sum())
    per_cell = 1.0 - (1.0 - confidence) / counts.size
    worst, where = 0.0, None
    for c, p in zip(counts.ravel(), probs.ravel(), strict=True):
        lo, hi = clopper_pearson(int(c), total, per_cell)
        miss = max(lo - p, p - hi, 0.0)
        dev = abs(c / total - p)
        if dev > worst:
            worst = dev
        if miss > 0 and where is None:
            where = (int(c), float(p), lo, hi)
    evidence.worst(f"{label}: max |frequency - probability|", worst)
    evidence.record(f"{label}: samples", total)
    if where is not None:
        c, p, lo, hi = where
        raise AssertionError(
            f"{label}: a configuration seen {c}/{total} times has probability {p:.6g}, "
            f"outside the Clopper-Pearson interval [{lo:.6g}, {hi:.6g}] at per-cell "
            f"confidence {per_cell:.10g} (family-wise 1 - 1e-6)")


def check_generation(sampler: Callable, A, B, pi, n: int, n_samples: int, seed: int) -> None:
    """Sequences from the four-step procedure have the frequencies of (12.1)."""
    N, M = B.shape
    X, Y = sampler(A, B, pi, n, n_samples, seed)
    codes = np.ravel_multi_index((*X.T, *Y.T), (M,) * n + (N,) * n)
    counts = np.bincount(codes, minlength=M**n * N**n)
    cell_frequency_check(counts, hmm_joint_table(A, B, pi, n).ravel(),
                         label="generated (x, y) against (12.1)")


# ---------------------------------------------------------------------------
# Tables, conditional independence
# ---------------------------------------------------------------------------


def brute_joint(potentials, cards: Sequence[int]) -> np.ndarray:
    """prod_Q psi_Q(x_Q) / Z for every joint state: each log table is laid out on the
    full state grid (its axes sorted into variable order, length-1 axes elsewhere) and
    the logs are summed, then normalised by the largest."""
    shape = tuple(int(k) for k in cards)
    logs = np.zeros(shape)
    for q, t in potentials:
        order = np.argsort(q)
        lt = np.transpose(np.log(np.asarray(t, dtype=float)), order)
        logs = logs + lt.reshape([shape[v] if v in q else 1 for v in range(len(shape))])
    w = np.exp(logs - logs.max())
    return w / w.sum()


def marginal(P: np.ndarray, keep: Sequence[int]) -> np.ndarray:
    """Sum P over every axis not in ``keep``; axes of the result in increasing order."""
    drop = tuple(a for a in range(P.ndim) if a not in set(keep))
    return P.sum(axis=drop, keepdims=True)


def independence_gap(P: np.ndarray, A: Sequence[int], B: Sequence[int],
                     C: Sequence[int]) -> float:
    """max over states with P(x_C) > 0 of |P(x_A, x_B | x_C) - P(x_A|x_C) P(x_B|x_C)|."""
    pabc = marginal(P, [*A, *B, *C])
    pac, pbc, pc = marginal(P, [*A, *C]), marginal(P, [*B, *C]), marginal(P, list(C))
    with np.errstate(divide="ignore", invalid="ignore"):
        gap = np.abs(pabc / pc - (pac / pc) * (pbc / pc))
    return float(np.max(np.where(pc > 0, gap, 0.0)))


def brute_separated(adj: np.ndarray, A, B, C) -> bool:
    """Depth-first search from A that never enters C: separated iff no node of B is
    reached."""
    blocked = set(C)
    seen, stack = set(A), list(A)
    while stack:
        u = stack.pop()
        for v in range(adj.shape[0]):
            if adj[u, v] and v not in blocked and v not in seen:
                seen.add(v)
                stack.append(v)
    return not (seen & set(B))


def brute_maximal_cliques(adj: np.ndarray) -> list[tuple[int, ...]]:
    """Cliques to which no further node can be added, found among all subsets."""
    n = adj.shape[0]
    cliques = []
    for mask in range(1, 2**n):
        nodes = [v for v in range(n) if mask >> v & 1]
        if all(adj[u, v] for i, u in enumerate(nodes) for v in nodes[i + 1:]):
            cliques.append(set(nodes))
    maximal = [c for c in cliques
               if not any(all(adj[w, v] for v in c) for w in range(n) if w not in c)]
    return sorted(tuple(sorted(c)) for c in maximal)


#: Conditional probabilities of an independence compared at this absolute size.
INDEPENDENCE = Tolerance(rtol=0.0, atol=1e-9,
                         reason="conditionals are ratios of sums of positive float64 terms "
                         "(relative rounding about 1e-14); dependence under random "
                         "potentials is of order 1e-3 and more")


def candidate_separators(adj: np.ndarray, a: int, b: int, rng: np.random.Generator
                         ) -> list[tuple[int, ...]]:
    """Sets C to test for a pair a, b: the neighbours of a (or of b) other than the pair,
    all other nodes, the empty set and one random subset of the others."""
    n = adj.shape[0]
    rest = [v for v in range(n) if v not in (a, b)]
    cands = {tuple(sorted(set(np.flatnonzero(adj[a])) - {b})),
             tuple(sorted(set(np.flatnonzero(adj[b])) - {a})), tuple(rest), ()}
    cands.add(tuple(v for v in rest if rng.random() < 0.5))
    return sorted(cands)


def check_global_markov(P: np.ndarray, adj: np.ndarray, separated: Callable,
                        seed: int = 0) -> None:
    """For every pair of nodes a, b and each candidate set C (see
    :func:`candidate_separators`) with ``separated(adj, [a], [b], C)``, x_a is
    independent of x_b given x_C under P; the share of non-separated triples found
    dependent is recorded."""
    n = adj.shape[0]
    rng = np.random.default_rng(seed)
    checked, worst, dependent, open_pairs = 0, 0.0, 0, 0
    for a, b in itertools.combinations(range(n), 2):
        for C in candidate_separators(adj, a, b, rng):
            gap = independence_gap(P, [a], [b], list(C))
            if separated(adj, [a], [b], list(C)):
                checked += 1
                worst = max(worst, gap)
                if gap > INDEPENDENCE.atol:
                    raise AssertionError(
                        f"C = {C} separates {a} and {b} but P(x_a, x_b | x_C) differs "
                        f"from P(x_a|x_C) P(x_b|x_C) by {gap:.3g}")
            else:
                open_pairs += 1
                dependent += gap > 1e-6
    evidence.worst("largest conditional-independence gap over separated triples", worst)
    evidence.record("separated triples checked", checked)
    if open_pairs:
        evidence.record("non-separated triples found dependent", dependent / open_pairs)
    evidence.add_examples(checked)


def check_local_pairwise(P: np.ndarray, adj: np.ndarray, blanket: Callable) -> None:
    """Local: x_v independent of the non-neighbours given ``blanket(adj, v)``; pairwise:
    non-adjacent u, v independent given all other variables."""
    n = adj.shape[0]
    worst = 0.0
    for v in range(n):
        nb = list(blanket(adj, v))
        rest = [u for u in range(n) if u != v and u not in nb]
        if rest:
            gap = independence_gap(P, [v], rest, nb)
            worst = max(worst, gap)
            assert gap <= INDEPENDENCE.atol, (
                f"local Markov: x_{v} depends on {rest} given its neighbours {nb} "
                f"(gap {gap:.3g})")
    for u, v in itertools.combinations(range(n), 2):
        if not adj[u, v]:
            others = [w for w in range(n) if w not in (u, v)]
            gap = independence_gap(P, [u], [v], others)
            worst = max(worst, gap)
            assert gap <= INDEPENDENCE.atol, (
                f"pairwise Markov: non-adjacent x_{u}, x_{v} dependent given the rest "
                f"(gap {gap:.3g})")
    evidence.worst("largest conditional-independence gap (local and pairwise)", worst)


# ---------------------------------------------------------------------------
# Trees and belief propagation
# ---------------------------------------------------------------------------


def tree_potentials(case) -> list[tuple[tuple[int, ...], np.ndarray]]:
    pots = [((int(i), int(j)), case.pairwise[e]) for e, (i, j) in enumerate(case.edges)]
    if case.unary is not None:
        pots += [((v,), case.unary[v]) for v in range(len(case.unary))]
    return pots


def check_tree_bp(result, case) -> None:
    """After the two-pass schedule: 2(|V| - 1) messages, each sent after its sender heard
    from all its other neighbours, each equal to (12.12) recomputed from the recorded
    incoming messages, and every marginal (12.13) equal to the brute-force marginal."""
    n = case.edges.shape[0] + 1
    k = case.k
    nbrs = {v: set() for v in range(n)}
    psi = {}
    for e, (i, j) in enumerate(case.edges.tolist()):
        nbrs[i].add(j)
        nbrs[j].add(i)
        psi[(i, j)], psi[(j, i)] = case.pairwise[e], case.pairwise[e].T
    phi = case.unary if case.unary is not None else np.ones((n, k))
    assert result.n_messages == len(result.schedule) == 2 * (n - 1), (
        f"{result.n_messages} messages on a tree of {n} nodes, not 2(|V|-1) = {2 * (n - 1)}")
    assert sorted(result.schedule) == sorted([(i, j) for i in nbrs for j in nbrs[i]]), (
        "the schedule does not send exactly one message along each direction of each edge")
    sent: set[tuple[int, int]] = set()
    for i, j in result.schedule:
        missing = [m for m in nbrs[i] - {j} if (m, i) not in sent]
        assert not missing, (f"message {i}->{j} sent before {i} heard from {missing}")
        sent.add((i, j))
    for (i, j), log_m in result.log_messages.items():
        incoming = np.prod([np.exp(result.log_messages[(m, i)]) for m in nbrs[i] - {j}]
                           or [np.ones(k)], axis=0)
        own = (psi[(i, j)] * (phi[i] * incoming)[:, None]).sum(axis=0)  # (12.12)
        assert_close(log_m, np.log(own), LOG_ENUMERATED,
                     label="|log m_ij - log (12.12) from the recorded incoming messages|")
    P = brute_joint(tree_potentials(case), [k] * n)
    for v in range(n):
        prod = phi[v] * np.prod([np.exp(result.log_messages[(m, v)]) for m in nbrs[v]]
                                or [np.ones(k)], axis=0)  # (12.13) times the unary term
        ref = P.sum(axis=tuple(a for a in range(n) if a != v))
        assert_close(prod / prod.sum(), ref, ENUMERATED, scale=1.0,
                     label="|(12.13) normalised - brute-force marginal|")
        assert_close(result.marginals[v], ref, ENUMERATED, scale=1.0,
                     label="|BP marginal - brute-force marginal|")
    evidence.add_examples(n)
