"""Missing values: the rho-weighted criterion (2.9) and fractional routing (2.10)
(003 §2.5.2).

Routing is re-done here by a plain recursive walk over the fitted node arrays (one
sample at a time), independent of the estimator's vectorised router.
"""

from __future__ import annotations

import math

import numpy as np
from hypothesis import example, given
from hypothesis import strategies as st

from mltheory import ErratumKind, Expect, Method, claim, evidence
from mltheory.numeric import EXACT_ARITHMETIC, assert_close
from properties.trees.strategies import TreeData, missing_datasets
from properties.trees.support import check_root_choice, fit_tree, node_members, walk


@claim(
    id="tree.missing_gain_rho",
    source="003 §2.5.2 (2.9)",
    statement="With missing values the gain of attribute a is Gain(D, a) = rho * Gain(D~, a), "
    "D~ the samples whose value of a is known and rho = |D~| / |D|; every node of the tree "
    "splits on the attribute (and threshold) maximising it, on the weighted samples that "
    "reach the node. An attribute whose value is missing in every sample (rho = 0) has gain "
    "0 and is never chosen; the others split as before.",
    method=Method.REFERENCE,
    tags=("trees", "missing"),
)
@given(data=missing_datasets(blank_column=True),
       criterion=st.sampled_from(["entropy", "gini", "gain_ratio"]))
def missing_gain_rho(data, criterion):
    check_root_choice(data, criterion, every_node=True)


def check_rho_by_counts(data: TreeData, model) -> None:
    """At every internal node, rho counted in samples (the note's |A| / (|A| + |A*|))
    equals the share of the node's weight whose tested value is known."""
    tree = model.tree_
    members = node_members(tree, data)
    worst = 0.0
    for t in np.flatnonzero(~tree.is_leaf):
        rows = members[int(t)]
        f = int(tree.feature[t])
        known = [(i, w) for i, w in rows if not math.isnan(data.X[i, f])]
        rho_counts = len(known) / len(rows)
        rho_weights = sum(w for _, w in known) / sum(w for _, w in rows)
        worst = max(worst, abs(rho_counts - rho_weights))
        evidence.worst("|rho by counts - rho by weights|", worst)
        assert_close(rho_counts, rho_weights, EXACT_ARITHMETIC, label="rho: counts vs weights",
                     context=f"node {t} ({len(rows)} samples): ")


@claim(
    id="tree.missing_rho_counts_as_written",
    source="003 §2.5.2 (2.9); 003 §2.5.2 (2.10)",
    statement="(As written) rho = |A| / (|A| + |A*|) counts the samples whose value of the "
    "attribute is known or missing; at every node this is the share of the node that the "
    "known values represent, so (2.9) needs no sample weights.",
    method=Method.PROPERTY,
    tags=("trees", "missing", "erratum"),
    expect=Expect.REFUTED,
    kind=ErratumKind.SYMBOL,
    corrected_by="tree.missing_child_weights",
    explanation="Counts where weights are needed (and 'number of attributes' where the "
    "number of samples with a known value is meant). After (2.10) a sample with a missing "
    "value sits in every child with a fractional weight; counting it as a whole sample in "
    "each child makes rho (and |D^v|/|D|) differ from the shares of weight below the first "
    "such split. C4.5 computes rho, p_k and r_v from sample weights.",
)
@given(data=missing_datasets())
@example(data=TreeData(
    np.array([[0.0, 0.0], [0.0, np.nan], [1.0, 1.0], [np.nan, 1.0], [1.0, 0.0]]),
    np.array([0, 0, 1, 1, 0]), np.ones(2, bool), np.ones(5)))
def missing_rho_counts_as_written(data):
    check_rho_by_counts(data, fit_tree(data, criterion="entropy"))


def check_child_weights(data: TreeData, model) -> None:
    """r_v = known weight in child v / known weight at the parent, sum_v r_v = 1, and the
    children's weights add up to the parent's (a missing-value sample keeps its weight);
    prediction routes the same way, so probabilities sum to one."""
    tree = model.tree_
    members = node_members(tree, data)
    for t in np.flatnonzero(~tree.is_leaf):
        f = int(tree.feature[t])
        children = [int(c) for c in tree.children(t)]
        shares = tree.missing_share[children]
        assert_close(shares.sum(), 1.0, EXACT_ARITHMETIC, label="sum_v r_v")
        known_parent = sum(w for i, w in members[int(t)] if not math.isnan(data.X[i, f]))
        for c in children:
            known_child = sum(w for i, w in members[c] if not math.isnan(data.X[i, f]))
            assert_close(tree.missing_share[c], known_child / known_parent, EXACT_ARITHMETIC,
                         label="r_v vs recount")
        parent_w = sum(w for _, w in members[int(t)])
        child_w = sum(w for c in children for _, w in members[c])
        assert_close(child_w, parent_w, EXACT_ARITHMETIC, label="children weight vs parent")
        assert_close(tree.weighted_n_node_samples[t], parent_w, EXACT_ARITHMETIC,
                     label="recorded node weight vs recount")
    proba = model.predict_proba(data.X)
    assert_close(proba.sum(axis=1), np.ones(data.X.shape[0]), EXACT_ARITHMETIC,
                 label="sum of fractional predictions")
    for i in range(data.X.shape[0]):
        ends = [(n, w) for n, w in walk(tree, data.X[i], 1.0) if tree.is_leaf[n]]
        expected = sum(w * tree.value[n] for n, w in ends)
        assert_close(proba[i], expected, EXACT_ARITHMETIC, label="prediction vs recursive walk")


@claim(
    id="tree.missing_child_weights",
    source="003 §2.5.2 (2.10)",
    statement="A sample whose tested value is missing enters every child v with its weight "
    "times r_v = (known weight in child v) / (known weight at the parent); sum_v r_v = 1, so "
    "the sample's total weight is preserved (in training and in prediction), and rho, p_k "
    "and r_v at deeper nodes are computed from these weights.",
    method=Method.PROPERTY,
    tags=("trees", "missing"),
)
@given(data=missing_datasets(), criterion=st.sampled_from(["entropy", "gini"]))
def missing_child_weights(data, criterion):
    check_child_weights(data, fit_tree(data, criterion=criterion))
