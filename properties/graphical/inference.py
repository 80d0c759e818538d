"""Exact inference, 003 §12.4: conditionals (12.10)-(12.11), variable elimination exact
for every elimination order, the redundancy of repeated elimination that belief
propagation removes, and sum-product BP exact on trees (12.12)-(12.13) with 2(|V| - 1)
messages."""

from __future__ import annotations

import dataclasses
import itertools

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from algorithms.graphical import Factor, belief_propagation, variable_elimination
from mltheory import ErratumKind, Expect, Method, claim, evidence
from mltheory.numeric import assert_close
from properties.graphical.strategies_exact import SEEDS, MRFCase, TreeCase, mrfs, trees
from properties.graphical.support_exact import (
    ENUMERATED,
    LOG_ENUMERATED,
    brute_joint,
    check_tree_bp,
    tree_potentials,
)


def _factors(potentials) -> list[Factor]:
    return [Factor(q, t) for q, t in potentials]


def brute_conditional(P: np.ndarray, F: list[int], E: dict[int, int]) -> tuple[
        np.ndarray, float]:
    """(12.10)-(12.11) on the full joint table: P(x_F, x_E) with every other variable
    summed out, divided by P(x_E) = sum_{x_F} P(x_F, x_E); axes of the result in the
    order of F."""
    index = tuple(E.get(v, slice(None)) for v in range(P.ndim))
    free = [v for v in range(P.ndim) if v not in E]
    sub = P[index]  # axes: the free variables in increasing order
    joint_fe = sub.sum(axis=tuple(a for a, v in enumerate(free) if v not in F))
    kept = [v for v in free if v in F]
    joint_fe = np.transpose(joint_fe, [kept.index(v) for v in F]) if F else joint_fe
    p_e = float(joint_fe.sum())
    return joint_fe / p_e, p_e


@claim(
    id="infer.conditional_12_10_12_11",
    source="003 §12.4 (12.10)-(12.11)",
    statement="With the variables split into disjoint observed x_E and queried x_F, "
    "P(x_F | x_E) = P(x_F, x_E) / sum_{x_F} P(x_F, x_E) and P(x_E) = sum_{x_F} P(x_E, x_F): "
    "variable elimination's conditional equals this ratio taken on the enumerated joint "
    "of random MRFs, and its normaliser divided by Z equals P(x_E).",
    method=Method.ENUMERATION,
    tags=("graphical", "inference"),
)
@given(case=mrfs(max_nodes=6, max_states=3), seed=SEEDS)
def conditional_12_10_12_11(case: MRFCase, seed: int):
    rng = np.random.default_rng(seed)
    n = len(case.cardinalities)
    perm = rng.permutation(n)
    n_e = int(rng.integers(0, n))  # |E| < n: F non-empty, F and E cover every variable
    E = {int(v): int(rng.integers(case.cardinalities[v])) for v in perm[:n_e]}
    F = [int(v) for v in perm[n_e:]]
    P = brute_joint(case.potentials, case.cardinalities)
    ref, p_e = brute_conditional(P, F, E)
    fs = _factors(case.potentials)
    res = variable_elimination(fs, F, E)
    assert_close(res.probabilities, ref, ENUMERATED, scale=1.0,
                 label="|VE P(x_F | x_E) - (12.10) by enumeration|")
    log_z = variable_elimination(fs, []).log_normalizer
    assert_close(np.exp(res.log_normalizer - log_z), p_e, ENUMERATED,
                 label="|VE normaliser / Z - P(x_E) (12.11)|")


@claim(
    id="ve.exact",
    source="003 §12.4.1",
    statement="Variable elimination (products of the factors that mention a variable, "
    "then a sum over it, by the distributive law) returns exactly the brute-force "
    "marginal or conditional for every elimination order: on random MRFs all orders of "
    "the eliminated variables (up to 4! = 24) and the min-degree order agree with "
    "enumeration.",
    method=Method.ENUMERATION,
    tags=("graphical", "inference", "ve"),
)
@given(case=mrfs(max_nodes=5, max_states=3), seed=SEEDS)
def ve_exact(case: MRFCase, seed: int):
    check_ve_every_order(case, seed, variable_elimination)


def check_ve_every_order(case: MRFCase, seed: int, eliminate) -> None:
    rng = np.random.default_rng(seed)
    n = len(case.cardinalities)
    perm = [int(v) for v in rng.permutation(n)]
    n_q = int(rng.integers(1, min(2, n) + 1))
    n_e = int(rng.integers(0, n - n_q + 1)) if n - n_q > 1 else 0
    n_e = min(n_e, max(0, n - n_q - 2))  # keep at least two variables to eliminate
    F, E = perm[:n_q], {v: int(rng.integers(case.cardinalities[v]))
                        for v in perm[n_q:n_q + n_e]}
    rest = sorted(perm[n_q + n_e:])
    ref, _ = brute_conditional(brute_joint(case.potentials, case.cardinalities), F, E)
    fs = _factors(case.potentials)
    orders = list(itertools.permutations(rest)) + ["min_degree"]
    for order in orders:
        res = eliminate(fs, F, E, order=order if isinstance(order, str) else list(order))
        assert_close(res.probabilities, ref, ENUMERATED, scale=1.0,
                     label="|VE result - brute force| over every elimination order")
    evidence.add_examples(len(orders))


def scalar_operations(factors: list[Factor], order: tuple[int, ...]) -> int:
    """Scalar multiplications and additions of sum-product elimination in ``order``,
    counted from the factors' scopes alone (no tables): eliminating v multiplies the
    k factors that mention it over the union of their scopes ((k - 1) products per entry)
    and sums v out (|union| - |union without v| additions); the factors left are
    multiplied at the end."""
    cards: dict[int, int] = {}
    for f in factors:
        cards.update(zip(f.variables, np.shape(f.log_values), strict=True))
    scopes = [frozenset(f.variables) for f in factors]

    def size(scope: frozenset) -> int:
        return int(np.prod([cards[u] for u in scope])) if scope else 1

    ops = 0
    for v in order:
        bucket = [sc for sc in scopes if v in sc]
        scopes = [sc for sc in scopes if v not in sc]
        union = frozenset().union(*bucket)
        ops += (len(bucket) - 1) * size(union) + size(union) - size(union - {v})
        scopes.append(union - {v})
    return ops + (len(scopes) - 1) * size(frozenset().union(*scopes))


@claim(
    id="ve.redundancy",
    source="003 §12.4.1-§12.4.2",
    statement="Computing every single-node marginal of a tree by repeated variable "
    "elimination (min-degree order, i.e. leaves first) performs n(n - 1) eliminations, "
    "and every intermediate factor it builds is one of the 2(n - 1) belief-propagation "
    "messages m_ij: the same messages are recomputed, on average n/2 times each, while "
    "BP computes each once (2(n - 1) messages) and returns the same marginals.",
    method=Method.PROPERTY,
    tags=("graphical", "inference", "ve"),
)
@given(case=trees(min_nodes=2, max_nodes=8))
def ve_redundancy(case: TreeCase):
    n = case.edges.shape[0] + 1
    bp = belief_propagation(case.edges, case.pairwise, case.unary)
    fs = _factors(tree_potentials(case))
    total, seen = 0, set()
    ve_ops = 0
    for v in range(n):
        res = variable_elimination(fs, [v], record=True)
        total += res.n_eliminations
        ve_ops += res.n_operations
        assert res.n_operations == scalar_operations(fs, res.order), (
            f"n_operations {res.n_operations}, counted from the scopes "
            f"{scalar_operations(fs, res.order)}")
        assert_close(res.probabilities, bp.marginals[v], ENUMERATED, scale=1.0,
                     label="|VE marginal - BP marginal|")
        for j, inter in zip(res.order, res.intermediates, strict=True):
            assert len(inter.variables) == 1, (
                f"eliminating {j} left a factor over {inter.variables}, not one neighbour")
            p = inter.variables[0]
            assert (j, p) in bp.log_messages, f"intermediate over {j}->{p} is not an edge"
            assert_close(inter.log_values, bp.log_messages[(j, p)], LOG_ENUMERATED,
                         scale=max(1.0, float(np.max(np.abs(bp.log_messages[(j, p)])))),
                         label="|log VE intermediate - log BP message|")
            seen.add((j, p))
    assert total == n * (n - 1), f"{total} eliminations for all marginals, not n(n-1)"
    assert bp.n_messages == 2 * (n - 1)
    assert len(seen) == bp.n_messages, "some BP message is computed by no elimination"
    evidence.worst("eliminations by repeated VE / BP messages", total / bp.n_messages)
    evidence.record("distinct intermediates / BP messages", len(seen) / bp.n_messages)
    evidence.record("scalar operations of repeated VE (all marginals)", ve_ops)


@claim(
    id="beliefprop.tree_exact_12_12_12_13",
    source="003 §12.4.2 (12.12)-(12.13)",
    statement="On a tree, after the two-pass schedule (leaves to root, then root to "
    "leaves) every node has sent one message to each neighbour, 2(|V| - 1) in all, each "
    "only after hearing from all its other neighbours; each message is m_ij(x_j) = "
    "sum_{x_i} psi(x_i, x_j) prod_{k in n(i) minus j} m_ki(x_i) (12.12) and P(x_i) is "
    "proportional to prod_{k in n(i)} m_ki(x_i) (12.13): equal to the brute-force "
    "marginal of every node (pairwise potentials as in the notes; node potentials, when "
    "present, folded into the sender's factor), for every choice of root.",
    method=Method.ENUMERATION,
    tags=("graphical", "inference", "bp"),
)
@given(case=trees(min_nodes=1, max_nodes=8), root_seed=st.integers(0, 2**31 - 1))
def tree_exact_12_12_12_13(case: TreeCase, root_seed: int):
    n = case.edges.shape[0] + 1
    if n == 1 and case.unary is None:  # one node: its marginal is its own potential
        case = dataclasses.replace(case, unary=np.array([[1.0] + [2.0] * (case.k - 1)]))
    root = int(np.random.default_rng(root_seed).integers(n))
    check_tree_bp(belief_propagation(case.edges, case.pairwise, case.unary, root=root), case)


def messages_sent_under(rule: str, edges: np.ndarray) -> int:
    """Run message passing on a tree until no message may be sent: an edge direction
    i -> j is sendable once i has received from every node the rule names — all other
    neighbours (``"neighbours"``) or, read literally, all other nodes (``"nodes"``).
    Returns the number of messages sent."""
    n = edges.shape[0] + 1
    nbrs = {v: set() for v in range(n)}
    for i, j in edges.tolist():
        nbrs[i].add(j)
        nbrs[j].add(i)
    sent: set[tuple[int, int]] = set()
    progress = True
    while progress:
        progress = False
        for i in range(n):
            for j in nbrs[i]:
                if (i, j) in sent:
                    continue
                needed = (nbrs[i] - {j}) if rule == "neighbours" else set(range(n)) - {i, j}
                if all((k, i) in sent for k in needed):
                    sent.add((i, j))
                    progress = True
    return len(sent)


@claim(
    id="beliefprop.send_rule_as_printed",
    source="003 §12.4.2",
    statement="(As printed) A node may send a message to another node only after it has "
    "received messages from all other nodes; under this rule message passing on a tree "
    "delivers all 2(|V| - 1) messages.",
    method=Method.ENUMERATION,
    tags=("graphical", "inference", "bp", "erratum"),
    expect=Expect.REFUTED,
    kind=ErratumKind.SHORTHAND,
    corrected_by="beliefprop.send_rule",
    explanation="Messages travel only along edges, so a node never hears from a node "
    "that is not its neighbour: read literally ('all other nodes'), the rule lets no "
    "message leave a tree with a node at distance 2 (any tree on 3 or more nodes) and "
    "passing deadlocks. The rule means all other neighbours, under which the two "
    "passes deliver every message.",
)
@given(case=trees(min_nodes=2, max_nodes=8))
def send_rule_as_printed(case: TreeCase):
    n = case.edges.shape[0] + 1
    sent = messages_sent_under("nodes", case.edges)
    evidence.record("messages sent under the literal rule", sent)
    assert sent == 2 * (n - 1), f"the literal rule sends {sent} of {2 * (n - 1)} messages"


@claim(
    id="beliefprop.send_rule",
    source="003 §12.4.2",
    statement="Under the rule 'send to j once every other neighbour has sent to you', "
    "message passing on any tree delivers exactly 2(|V| - 1) messages and never "
    "deadlocks (the leaves can always start).",
    method=Method.ENUMERATION,
    tags=("graphical", "inference", "bp"),
)
@given(case=trees(min_nodes=1, max_nodes=10))
def send_rule(case: TreeCase):
    n = case.edges.shape[0] + 1
    assert messages_sent_under("neighbours", case.edges) == 2 * (n - 1)
