"""The fitted structure of a decision tree and the routing of samples through it.

Nodes are numbered so that every child has a larger id than its parent (the root is
0) and the children of a node have consecutive ids ``first_child[t] + 0, 1, ...``.
A continuous test ``x_f <= threshold`` has two children (left: true, right: false);
a multiway categorical test on attribute ``f`` has one child per value of ``f`` seen in
the training set (``domains[f]``, sorted), empty branches included (003 §2.1: an empty
subset ``D_v`` becomes a leaf labelled like its parent); a binary categorical test
(CART) sends the values of a subset S of the domain to its first child, the others to
the second.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

__all__ = ["Tree", "category_codes"]

LEAF = -1


def category_codes(X: np.ndarray, domains: list) -> np.ndarray:
    """Position of each discrete value in its attribute's domain: -1 for NaN and for a
    value not in the domain (unseen in training); 0 in continuous columns (unused)."""
    out = np.zeros(X.shape, dtype=np.intp)
    for f, domain in enumerate(domains):
        if domain is None or domain.shape[0] == 0:
            continue
        pos = np.clip(np.searchsorted(domain, X[:, f]), 0, domain.shape[0] - 1)
        out[:, f] = np.where(domain[pos] == X[:, f], pos, -1)
    return out


@dataclass
class Tree:
    """Arrays describing a fitted tree, one entry per node.

    Attributes
    ----------
    feature : ndarray of int (n_nodes,)
        Attribute tested at the node; ``-1`` at a leaf.
    threshold : ndarray of float (n_nodes,)
        Threshold of a continuous test (``x <= threshold`` goes to the first child);
        NaN at leaves and categorical tests.
    categorical : ndarray of bool (n_nodes,)
        Whether the test is on a discrete attribute (multiway, or binary when
        ``subset_offset >= 0``).
    first_child, n_children : ndarray of int (n_nodes,)
        The children of node ``t`` are ``first_child[t] + arange(n_children[t])``.
    parent : ndarray of int (n_nodes,)
        ``-1`` at the root.
    depth : ndarray of int (n_nodes,)
    value : ndarray (n_nodes, n_outputs)
        What the node predicts: the class distribution (classification) or the mean
        target (regression). An empty branch carries its parent's value.
    class_counts : ndarray (n_nodes, K) or None
        Weighted class counts of the training samples at the node (classification).
    n_node_samples : ndarray of int (n_nodes,)
        Training rows reaching the node (a row with a missing tested value reaches
        every child, 003 §2.5.2).
    weighted_n_node_samples : ndarray of float (n_nodes,)
        Their total weight (sample weights times the fractions ``r_v``).
    impurity : ndarray of float (n_nodes,)
        The criterion's impurity of the node's samples (entropy in bits, Gini value,
        or variance).
    split_score : ndarray of float (n_nodes,)
        The criterion value of the chosen split (gain, gain ratio, Gini decrease
        ``Gini(D) - Gini_index(D, a)`` or variance decrease, times ``rho`` when the
        attribute has missing values); NaN at leaves.
    impurity_decrease : ndarray of float (n_nodes,)
        ``impurity - sum_v w_v / w * impurity_v`` times ``rho`` (NaN at leaves).
    missing_share : ndarray of float (n_nodes,)
        ``r_v``: the share of its parent's non-missing weight that went to this node,
        the fraction of a sample with a missing value routed here (003 (2.10)).
    subset_offset : ndarray of int (n_nodes,)
        For a binary discrete test: where its membership mask starts in
        ``subset_members`` (one bool per value of the attribute's domain, True = first
        child); -1 otherwise.
    subset_members : ndarray of bool
    domains : list of (ndarray or None)
        Sorted training values of each categorical attribute (None if continuous).
    """

    feature: np.ndarray
    threshold: np.ndarray
    categorical: np.ndarray
    first_child: np.ndarray
    n_children: np.ndarray
    parent: np.ndarray
    depth: np.ndarray
    value: np.ndarray
    class_counts: np.ndarray | None
    n_node_samples: np.ndarray
    weighted_n_node_samples: np.ndarray
    impurity: np.ndarray
    split_score: np.ndarray
    impurity_decrease: np.ndarray
    missing_share: np.ndarray
    subset_offset: np.ndarray
    subset_members: np.ndarray
    domains: list = field(default_factory=list)

    @property
    def node_count(self) -> int:
        """Number of nodes."""
        return int(self.feature.shape[0])

    @property
    def is_leaf(self) -> np.ndarray:
        """Boolean mask of the leaves."""
        return self.feature == LEAF

    @property
    def n_leaves(self) -> int:
        """Number of leaves."""
        return int(np.count_nonzero(self.is_leaf))

    @property
    def max_depth(self) -> int:
        """Depth of the deepest node (the root has depth 0)."""
        return int(self.depth.max())

    def subset(self, node: int) -> np.ndarray | None:
        """Domain values sent to the first child by a binary discrete test (else None)."""
        start = self.subset_offset[node]
        if start < 0:
            return None
        domain = self.domains[self.feature[node]]
        return domain[self.subset_members[start : start + domain.shape[0]]]

    def children(self, node: int) -> np.ndarray:
        """Ids of the children of ``node`` (empty at a leaf)."""
        return self.first_child[node] + np.arange(self.n_children[node])

    def subtree(self, node: int) -> np.ndarray:
        """Ids of ``node`` and all its descendants, sorted."""
        inside = np.zeros(self.node_count, dtype=bool)
        inside[node] = True
        for t in range(node + 1, self.node_count):
            inside[t] = inside[self.parent[t]]
        return np.flatnonzero(inside)

    def codes(self, X: np.ndarray) -> np.ndarray:
        """:func:`category_codes` of ``X`` in this tree's domains."""
        return category_codes(X, self.domains)

    def route(
        self, X: np.ndarray, *, visits: bool = False
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Where the rows of ``X`` end: triples ``(row, node, weight)``.

        With ``visits=True``, every node each row passes through (ends included).

        A row with a known value follows its branch. A row whose tested value is
        missing (NaN) continues into every child ``v`` with its weight times
        ``r_v`` (003 (2.10)); a categorical value unseen in training stops at the
        node (which predicts its own value). Without NaN every row ends in exactly
        one leaf with weight 1. One vectorised step per level of the tree.
        """
        codes = self.codes(X)
        rows = np.arange(X.shape[0])
        nodes = np.zeros(X.shape[0], dtype=np.intp)
        weights = np.ones(X.shape[0])
        done_rows, done_nodes, done_weights = [], [], []
        while rows.size:
            f = self.feature[nodes]
            internal = f != LEAF
            fi = np.where(internal, f, 0)
            x = X[rows, fi]
            code = codes[rows, fi]
            missing = internal & np.isnan(x)
            cat = self.categorical[nodes]
            offset = self.subset_offset[nodes]
            binary = cat & (offset >= 0)
            unseen = internal & cat & ~binary & ~missing & (code < 0)
            stop = ~internal | unseen
            record = slice(None) if visits else stop
            done_rows.append(rows[record])
            done_nodes.append(nodes[record])
            done_weights.append(weights[record])
            go = ~stop & ~missing
            with np.errstate(invalid="ignore"):
                branch = np.where(cat, code, (x > self.threshold[nodes]).astype(np.intp))
            if np.any(binary):  # the subset's values go left, every other value right
                position = np.clip(offset + code, 0, self.subset_members.shape[0] - 1)
                inside = self.subset_members[position] & (code >= 0)
                branch = np.where(binary, (~inside).astype(np.intp), branch)
            next_rows = [rows[go]]
            next_nodes = [self.first_child[nodes[go]] + branch[go]]
            next_weights = [weights[go]]
            if np.any(missing):
                m_rows, m_nodes, m_w = rows[missing], nodes[missing], weights[missing]
                fan = self.n_children[m_nodes]
                rep = np.repeat(np.arange(m_rows.size), fan)
                offsets = np.arange(rep.size) - np.repeat(np.cumsum(fan) - fan, fan)
                child = self.first_child[m_nodes][rep] + offsets
                share = m_w[rep] * self.missing_share[child]
                keep = share > 0
                next_rows.append(m_rows[rep][keep])
                next_nodes.append(child[keep])
                next_weights.append(share[keep])
            rows = np.concatenate(next_rows)
            nodes = np.concatenate(next_nodes)
            weights = np.concatenate(next_weights)
        return np.concatenate(done_rows), np.concatenate(done_nodes), np.concatenate(done_weights)

    def predict_value(self, X: np.ndarray) -> np.ndarray:
        """``sum over end nodes of weight * value``: shape (n_samples, n_outputs)."""
        rows, nodes, weights = self.route(X)
        out = np.zeros((X.shape[0], self.value.shape[1]))
        contribution = weights[:, None] * self.value[nodes]
        if rows.shape[0] == X.shape[0]:  # every row ended in one node (with weight 1)
            out[rows] = contribution
        else:
            np.add.at(out, rows, contribution)
        return out

    def without_subtrees(self, nodes: np.ndarray) -> Tree:
        """A copy in which each node of ``nodes`` becomes a leaf (descendants removed).

        Ids are renumbered in the same order, so children stay consecutive.
        """
        cut = np.zeros(self.node_count, dtype=bool)
        cut[np.asarray(nodes, dtype=np.intp)] = True
        removed = np.zeros(self.node_count, dtype=bool)
        for t in range(1, self.node_count):  # parents precede children
            p = self.parent[t]
            removed[t] = removed[p] or cut[p]
        keep = ~removed
        new_id = np.cumsum(keep) - 1
        become_leaf = cut[keep]

        def take(a):
            return None if a is None else a[keep].copy()

        feature = take(self.feature)
        feature[become_leaf] = LEAF
        first_child = np.where(feature == LEAF, LEAF, new_id[np.maximum(take(self.first_child), 0)])
        n_children = np.where(feature == LEAF, 0, take(self.n_children))
        parent = np.where(take(self.parent) >= 0, new_id[np.maximum(take(self.parent), 0)], LEAF)
        threshold = take(self.threshold)
        threshold[become_leaf] = np.nan
        categorical = take(self.categorical) & (feature != LEAF)
        split_score, impurity_decrease = take(self.split_score), take(self.impurity_decrease)
        split_score[become_leaf] = np.nan
        impurity_decrease[become_leaf] = np.nan
        subset_offset = take(self.subset_offset)
        subset_offset[become_leaf] = LEAF
        return Tree(
            feature=feature, threshold=threshold, categorical=categorical,
            first_child=first_child, n_children=n_children, parent=parent,
            depth=take(self.depth), value=take(self.value), class_counts=take(self.class_counts),
            n_node_samples=take(self.n_node_samples),
            weighted_n_node_samples=take(self.weighted_n_node_samples),
            impurity=take(self.impurity), split_score=split_score,
            impurity_decrease=impurity_decrease, missing_share=take(self.missing_share),
            subset_offset=subset_offset, subset_members=self.subset_members,
            domains=list(self.domains),
        )

    def apply(self, X: np.ndarray) -> np.ndarray:
        """The node where each row ends (rows with a missing tested value refused)."""
        rows, nodes, _ = self.route(X)
        if rows.shape[0] != X.shape[0]:
            raise ValueError(
                "apply is undefined for samples with a missing value at a tested attribute: "
                "they are routed fractionally into several leaves (use predict_proba)."
            )
        out = np.empty(X.shape[0], dtype=np.intp)
        out[rows] = nodes
        return out
