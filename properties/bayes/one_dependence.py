"""One-dependence estimators (003 §5.5 (5.8)): SPODE, TAN, AODE.

Models are drawn with a one-dependence structure (a super-parent, a tree, or none), their
joints enumerated in rationals, and the estimators fitted on the exactly weighted table:
the (5.8) factorisation is then exact. TAN's tree is compared with every spanning tree
(Prüfer enumeration) under independently computed conditional mutual information.
"""

from __future__ import annotations

import numpy as np
from hypothesis import example, given
from hypothesis import strategies as st

from algorithms.bayes import (
    AODEClassifier,
    SPODEClassifier,
    TANClassifier,
    conditional_mutual_information,
)
from mltheory import Method, claim, evidence
from mltheory.numeric import Tolerance
from mltheory.strategies import rngs
from properties.bayes.strategies import ode_models
from properties.bayes.support import assert_matches, exact_cmi, ode_fit_check, prufer_trees

#: Mutual informations: float sums of ~n terms n_ijc/n log(...), two summation orders.
CMI_ROUNDING = Tolerance(rtol=1e-9, atol=1e-12,
                         reason="two summation orders of at most a few hundred log terms")


def check_one_parent(parents: np.ndarray) -> None:
    """(5.8) structure: every attribute has at most one attribute parent and following
    parents never cycles."""
    d = len(parents)
    for i in range(d):
        seen, v = set(), i
        while v >= 0:
            assert v not in seen, f"parent pointers cycle through {v}: {parents.tolist()}"
            seen.add(v)
            v = int(parents[v])


def ode_factories(spec):
    """The estimators whose structure class contains the generating one."""
    super_parent = next((p for p in spec.parents if p >= 0), 0)
    out = []
    if all(p < 0 for p in spec.parents):
        out.append(("AODE", lambda: AODEClassifier(alpha=0.0, min_support=0)))
        out.append(("SPODE", lambda: SPODEClassifier(super_parent=0, alpha=0.0)))
    elif len({p for p in spec.parents if p >= 0}) == 1:
        out.append(("SPODE", lambda: SPODEClassifier(super_parent=super_parent, alpha=0.0)))
    out.append(("TAN", lambda: TANClassifier(alpha=0.0)))
    return out


@claim(
    id="ode.factorisation_5_8",
    source="003 §5.5 (5.8)",
    statement="If every attribute depends only on the class and at most one parent "
    "attribute, P(c | x) is proportional to P(c) prod_i P(x_i | c, pa_i): SPODE (data from "
    "a super-parent model), TAN (data from any tree model) and AODE (data from a naive "
    "model) fitted on such data have exactly the posteriors of the generating joint.",
    method=Method.ENUMERATION,
    tags=("bayes", "ode"),
)
@given(spec=st.sampled_from(["tree", "spode", "nb"]).flatmap(lambda k: ode_models(kind=k)))
def factorisation_5_8(spec):
    for name, factory in ode_factories(spec):
        fitted = ode_fit_check(spec, factory, f"{name} on a one-dependence table")
        if name != "AODE":  # AODE averages every super-parent: no single structure
            check_one_parent(fitted.parents_)


def spanning_tree_weight(edges, cmi: np.ndarray) -> float:
    return float(sum(cmi[u, v] for u, v in edges))


def check_tan_tree(codes: np.ndarray, y: np.ndarray, weights: np.ndarray | None = None,
                   tree_of=lambda clf: clf.tree_edges_) -> None:
    """TAN's edges form a spanning tree of maximum total ``I(x_i; x_j | y)`` (exhaustive
    over Prüfer sequences), with the mutual information recomputed independently (and
    :func:`conditional_mutual_information` agreeing with it, with unit and with unequal
    sample weights). With ``weights``, TAN is fitted to the weighted sample."""
    clf = TANClassifier().fit(codes.astype(float), y, sample_weight=weights)
    w = np.ones(len(y)) if weights is None else weights
    cmi = exact_cmi(codes, y, w)
    assert_matches(clf.conditional_mutual_information_, cmi, CMI_ROUNDING,
                   label="|CMI - dictionary count CMI|")
    # the public function computes the same weights, also from unequal sample weights
    n_classes, n_values = int(y.max()) + 1, [int(v) + 1 for v in codes.max(axis=0)]
    assert_matches(conditional_mutual_information(codes, y, w, n_classes, n_values), cmi,
                   CMI_ROUNDING, label="|CMI - dictionary count CMI|")
    uneven = np.random.default_rng(len(y)).uniform(0.1, 3.0, size=len(y))
    assert_matches(conditional_mutual_information(codes, y, uneven, n_classes, n_values),
                   exact_cmi(codes, y, uneven), CMI_ROUNDING,
                   label="|weighted CMI - dictionary count CMI|")
    d = codes.shape[1]
    edges = [tuple(e) for e in tree_of(clf)]
    assert len(edges) == d - 1, f"{len(edges)} edges for {d} attributes"
    best = max(spanning_tree_weight(t, cmi) for t in prufer_trees(d))
    got = spanning_tree_weight(edges, cmi)
    evidence.worst("max tree weight - TAN tree weight", best - got)
    assert got >= best - 1e-9 * max(1.0, best), (
        f"TAN's tree weighs {got}, a spanning tree weighs {best}")
    check_one_parent(clf.parents_)
    # connected: the parent pointers reach the root from every attribute
    roots = {i for i in range(d) if clf.parents_[i] < 0}
    assert roots == {clf.root if clf.root is not None else 0}, roots


@st.composite
def dependent_attributes(draw):
    """Categorical data where some attributes copy others with noise."""
    rng = draw(rngs())
    d = draw(st.integers(2, 5))
    n = draw(st.integers(10, 80))
    y = rng.integers(0, 2, size=n)
    y[:2] = [0, 1]
    codes = np.zeros((n, d), dtype=int)
    for j in range(d):
        r = draw(st.integers(2, 3))
        fresh = rng.integers(0, r, size=n)
        if j and draw(st.booleans()):
            src = codes[:, draw(st.integers(0, j - 1))]
            flip = rng.random(n) < draw(st.sampled_from([0.05, 0.3]))
            codes[:, j] = np.where(flip, fresh, src % r)
        else:
            codes[:, j] = (fresh + y * draw(st.integers(0, 1))) % r
    for j in range(d):  # compact codes (every value seen)
        codes[:, j] = np.unique(codes[:, j], return_inverse=True)[1].reshape(-1)
    weights = rng.uniform(0.1, 3.0, size=n) if draw(st.booleans()) else None
    return codes, y, weights


#: Two copies of one binary attribute, weights (1, a, 1, a) on the samples (0, 0 | y = 0),
#: (1, 1 | y = 0), (0, 0 | y = 1), (1, 1 | y = 1): I(x_0; x_1 | y) = H(x | y), and this a
#: (found by bisection) makes the computed value exactly 0.5 nats. The only spanning tree
#: is the one edge; a max-to-min reduction that weighs it 1 - 2 I = 0 drops it.
HALF_NAT_WEIGHT = 0.24954688704922667
HALF_NAT_CASE = (np.array([[0, 0], [1, 1], [0, 0], [1, 1]]), np.array([0, 0, 1, 1]),
                 np.array([1.0, HALF_NAT_WEIGHT, 1.0, HALF_NAT_WEIGHT]))


@claim(
    id="tan.max_spanning_tree",
    source="003 §5.5 (5.8)",
    statement="(Book's TAN, the tree member of the notes' ODE family) TAN's parent "
    "structure is a maximum-weight spanning tree of the complete graph weighted by the "
    "conditional mutual information I(x_i; x_j | y), directed from a root, for the "
    "empirical distribution of any positively weighted sample, whatever the values of "
    "the mutual information.",
    method=Method.ENUMERATION,
    tags=("bayes", "ode"),
)
@given(data=dependent_attributes())
@example(data=HALF_NAT_CASE)
def max_spanning_tree(data):
    codes, y, weights = data
    check_tan_tree(codes, y, weights)
