"""Markov random fields, 003 §12.2: the clique factorisation (12.5) normalised and
equivalent to one over maximal cliques, maximal cliques cover every node, the global,
local and pairwise Markov properties on random graphs with random positive potentials
(exact enumeration), and the exponential potentials (12.6)-(12.7)."""

from __future__ import annotations

import numpy as np
from hypothesis import given
from hypothesis import strategies as st
from scipy.special import logsumexp

from algorithms.graphical import (
    Factor,
    energy_factor,
    markov_blanket,
    maximal_cliques,
    mrf_joint,
    mrf_log_partition,
    separates,
)
from mltheory import Method, claim, evidence
from mltheory.numeric import assert_close
from properties.graphical.strategies_exact import SEEDS, MRFCase, mrfs, random_adjacency
from properties.graphical.support_exact import (
    ENUMERATED,
    LOG_ENUMERATED,
    brute_joint,
    brute_maximal_cliques,
    brute_separated,
    check_global_markov,
    check_local_pairwise,
)


def _factors(case: MRFCase) -> list[Factor]:
    return [Factor(q, t) for q, t in case.potentials]


@claim(
    id="mrf.joint_12_5",
    source="003 §12.2 (12.5)",
    statement="P(x) = (1/Z) prod_{Q in C} psi_Q(x_Q) with Z = sum_x prod_Q psi_Q(x_Q) (the "
    "normaliser the text misprints as X) is a distribution: it sums to 1 and equals the "
    "brute-force product over every joint state; multiplying each clique's potential "
    "into a maximal clique containing it gives the same P, so factorising over all "
    "cliques or over maximal cliques defines the same family.",
    method=Method.ENUMERATION,
    tags=("graphical", "mrf"),
)
@given(case=mrfs(on="some"))
def joint_12_5(case: MRFCase):
    cards = case.cardinalities
    P = mrf_joint(_factors(case), cards)
    ref = brute_joint(case.potentials, cards)
    assert_close(P, ref, ENUMERATED, scale=1.0, label="|P(x) - brute-force (12.5)|")
    assert_close(P.sum(), 1.0, ENUMERATED, label="|sum_x P(x) - 1|")
    log_z = logsumexp([sum(np.log(t[tuple(s[v] for v in q)]) for q, t in case.potentials)
                       for s in np.ndindex(*cards)])
    assert_close(mrf_log_partition(_factors(case), cards), log_z, LOG_ENUMERATED,
                 scale=max(1.0, abs(log_z)), label="|log Z - brute force|")
    # merge every potential into one maximal clique containing it
    maxi = maximal_cliques(case.adjacency)
    merged: dict[tuple[int, ...], Factor] = {}
    for f in _factors(case):
        home = next(m for m in maxi if set(f.variables) <= set(m))
        base = merged.get(home, Factor(home, np.ones([int(cards[v]) for v in home])))
        prod = base.product(f)
        merged[home] = Factor.from_log(home, prod.expand(home))
    assert all(len(set(m)) == len(m) for m in merged)
    P_max = mrf_joint(list(merged.values()), cards)
    assert_close(P_max, P, ENUMERATED, scale=1.0,
                 label="|P over maximal cliques - P over all cliques|")


@claim(
    id="mrf.maximal_cliques",
    source="003 §12.2",
    statement="Every node of an undirected graph lies in at least one maximal clique (a "
    "clique to which no further node can be added); our Bron-Kerbosch listing equals "
    "the brute-force list of maximal cliques (all subsets checked) on random graphs.",
    method=Method.PROPERTY,
    tags=("graphical", "mrf"),
)
@given(seed=SEEDS, n=st.integers(1, 9), p=st.sampled_from([0.0, 0.2, 0.5, 0.8, 1.0]))
def maximal_cliques_cover(seed, n, p):
    adj = random_adjacency(np.random.default_rng(seed), n, p)
    ours = maximal_cliques(adj)
    assert ours == brute_maximal_cliques(adj), f"{ours} != {brute_maximal_cliques(adj)}"
    covered = set().union(*map(set, ours))
    assert covered == set(range(n)), f"nodes {set(range(n)) - covered} in no maximal clique"
    evidence.worst("largest maximal clique (size)", float(max(map(len, ours))))


@claim(
    id="mrf.global_markov",
    source="003 §12.2",
    statement="If every path between node sets A and B passes through C, then x_A and x_B "
    "are independent given x_C under every distribution (12.5) with positive potentials: "
    "checked by enumeration on random graphs (2-6 nodes) with random positive "
    "potentials on every clique, for all pairs of nodes and the candidate sets C that "
    "separate them (the neighbours of either end, all other nodes, a random subset), our "
    "separation test agreeing with a depth-first search.",
    method=Method.ENUMERATION,
    tags=("graphical", "mrf"),
)
@given(case=mrfs())
def global_markov(case: MRFCase):
    P = mrf_joint(_factors(case), case.cardinalities)
    adj = case.adjacency

    def both(adj, A, B, C):
        ours = separates(adj, A, B, C)
        assert ours == brute_separated(adj, A, B, C), f"separates({A}, {B}, {C}) = {ours}"
        return ours

    check_global_markov(P, adj, both)


@claim(
    id="mrf.local_pairwise_markov",
    source="003 §12.2",
    statement="Local Markov property: given its neighbours, a variable is independent of "
    "all other variables; pairwise Markov property: two non-adjacent variables are "
    "independent given all others; by enumeration on random graphs with random "
    "positive potentials.",
    method=Method.ENUMERATION,
    tags=("graphical", "mrf"),
)
@given(case=mrfs(max_nodes=7))
def local_pairwise_markov(case: MRFCase):
    P = mrf_joint(_factors(case), case.cardinalities)
    check_local_pairwise(P, case.adjacency, markov_blanket)


def printed_energy(alpha, beta, x) -> float:
    """H_Q(x_Q) = sum over ordered pairs u != v of alpha_uv x_u x_v + sum_v beta_v x_v."""
    q = len(x)
    return (sum(alpha[u, v] * x[u] * x[v] for u in range(q) for v in range(q) if u != v)
            + sum(beta[v] * x[v] for v in range(q)))


@claim(
    id="mrf.exp_potential_12_6_12_7",
    source="003 §12.2 (12.6)-(12.7)",
    statement="psi_Q(x_Q) = exp(-H_Q(x_Q)) is positive for every real energy H_Q(x_Q) = "
    "sum_{u != v} alpha_uv x_u x_v + sum_v beta_v x_v, so (12.5) built from such "
    "potentials has Z > 0 and gives every state positive probability; our potential "
    "table equals the printed formula at every configuration.",
    method=Method.PROPERTY,
    tags=("graphical", "mrf"),
)
@given(seed=SEEDS, q=st.integers(1, 4), scale=st.sampled_from([0.01, 1.0, 10.0, 200.0]),
       states=st.sampled_from([(-1.0, 1.0), (0.0, 1.0), (0.0, 1.0, 2.0)]))
def exp_potential_12_6_12_7(seed, q, scale, states):
    rng = np.random.default_rng(seed)
    alpha, beta = scale * rng.normal(size=(q, q)), scale * rng.normal(size=q)
    s = np.array(states)
    f = energy_factor(tuple(range(q)), alpha, beta, s)
    worst = 0.0
    for idx in np.ndindex(*f.log_values.shape):
        H = printed_energy(alpha, beta, s[list(idx)])
        worst = max(worst, abs(f.log_values[idx] + H) / max(1.0, abs(H)))
    evidence.worst("|log psi + H| / max(1, |H|)", worst)
    assert worst <= LOG_ENUMERATED.rtol, f"log psi differs from -H by {worst:.3g} (relative)"
    assert np.all(np.isfinite(f.log_values)), "a potential is 0 or infinite in float64"
    log_z = mrf_log_partition([f], [len(states)] * q)
    assert np.isfinite(log_z), "Z is not a positive finite number"
    # log P(x) = -H(x) - log Z is finite for every state: positive probability (in
    # float64 exp(log P) may underflow when |H| > 700, hence the log-space check)
    assert np.all(np.isfinite(f.log_values - log_z)), "a state got probability zero"
