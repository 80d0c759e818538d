"""TreeGenerate (003 §2.1): the one recursive tree grower behind every tree estimator.

The grower works node by node from an explicit stack. At a node holding the rows D
(with weights) and the attribute set A it

1. makes a leaf when D is pure (one class / one target value), when A is empty or no
   attribute of A takes two values on D (identical samples: a leaf labelled by the
   majority), when the depth or size limits say so, or when the best split's decrease
   is below ``min_impurity_decrease`` (pre-pruning by threshold);
2. otherwise evaluates every attribute of a candidate set (all of A, or a random subset
   of ``max_features`` attributes re-drawn at every node, as random forests need; when
   no drawn attribute can split, the others are tried):
   - a continuous attribute by the bi-partition of 003 §2.5.1 (2.8): rows sorted by the
     attribute, cumulative sufficient statistics give the impurity of every split
     between two consecutive distinct values at once, the threshold is the midpoint;
   - a discrete attribute by a multiway split into one branch per value;
   - with missing values (NaN) the criterion on the rows where the attribute is known,
     times ``rho`` = their share of the node's weight (003 §2.5.2 (2.9));
3. chooses the attribute maximising the decrease (ID3's gain (2.3), CART's
   ``Gini(D) - Gini_index`` i.e. the argmin of (2.7), the variance decrease), or, for
   C4.5, the gain ratio (2.4), optionally only among attributes whose gain is at least
   the average gain;
4. optionally (pre-pruning, 003 §2.4.1) keeps the split only if the validation
   accuracy of the node's validation rows with the children labelled by their
   majority is strictly higher than with the node as a leaf;
5. sends each row to its branch; a row whose value is missing goes to every branch v
   with its weight times ``r_v``, the branch's share of the known weight (2.10). A
   discrete attribute is removed from A below its split; a continuous one stays. A
   branch that receives no rows becomes a leaf with its parent's prediction.

Rows are kept, per continuous attribute, in sorted order from the root down: a split
partitions each sorted list stably (one boolean gather per level), so no node sorts.

Fully grown trees have about one node per training row, so the cost per node decides
the fit time. The common case (continuous attributes only, no missing-value mode, no
pre-pruning, positive weights: every CART, regression tree and random-forest tree) runs
a leaner loop, :meth:`_Grower._grow_plain`, that builds the very same tree: nodes are
tuples, sorted lists hold global row ids (no renumbering), the split search returns
arrays instead of per-attribute objects, single-row leaves get their statistics in one
batch at the end, and two-row nodes are split in plain floats. Every shortcut repeats
the general path's arithmetic operation for operation (same sums in the same order,
same random draws), so thresholds, scores, ties and node numbering agree to the bit.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from algorithms.trees._criteria import max_zero, xlogx
from algorithms.trees._impurity import _LN2, _weighted_entropy, entropy
from algorithms.trees._structure import LEAF, Tree, category_codes

__all__ = ["GrowSettings", "grow_tree"]

#: Upper bound on the elements of one (features, rows, statistics) block of the split
#: search; larger nodes evaluate their attributes in several blocks (about 32 MB each).
_BLOCK_ELEMENTS = 4_000_000
#: Split scores closer than this, relative to the node's weighted impurity, are ties:
#: the same exact score computed by sums in another order (weights vs repeated rows)
#: differs by ~1e-15 relative. Ties go to the first attribute and the lowest threshold,
#: so the chosen split depends on the exact criterion values only.
_TIE_RTOL = 1e-10
#: Binary splits of a discrete attribute enumerate 2^(V-1) - 1 bipartitions: up to 32767
#: candidates (V = 16) stay a small matrix product per node.
MAX_SUBSET_BITS = 15


@dataclass
class GrowSettings:
    """Validated hyperparameters of :func:`grow_tree`."""

    criterion: object
    gain_ratio: bool = False
    above_average_gain: bool = False
    max_depth: int | None = None
    min_samples_split: int = 2
    min_samples_leaf: int = 1
    min_impurity_decrease: float = 0.0
    max_features: int | None = None
    categorical: np.ndarray | None = None
    binary_discrete: bool = False
    missing: bool = False
    rng: np.random.Generator | None = None


@dataclass
class _Split:
    feature: int
    score: float  # what the choice maximised (gain ratio for C4.5, else the decrease)
    decrease: float  # rho * decrease of the criterion's impurity
    threshold: float = np.nan
    subset: np.ndarray | None = None  # binary discrete split: domain values sent left

    @property
    def multiway(self) -> bool:
        return np.isnan(self.threshold) and self.subset is None


@dataclass
class _Work:
    node: int
    rows: np.ndarray  # training rows at the node
    w: np.ndarray  # their weights (sample weight times routing fractions)
    order: np.ndarray  # (n_continuous, n): local positions sorted by each attribute
    available: tuple  # discrete attributes still in A
    depth: int
    vrows: np.ndarray | None = None  # validation rows (pre-pruning)
    vw: np.ndarray | None = None


class _Builder:
    """Growable node arrays (lists while growing, arrays at the end)."""

    FIELDS = (
        "feature", "threshold", "categorical", "first_child", "n_children", "parent",
        "depth", "value", "class_counts", "n_node_samples", "weighted_n_node_samples",
        "impurity", "split_score", "impurity_decrease", "missing_share", "subset",
    )

    def __init__(self) -> None:
        self.cols = {name: [] for name in self.FIELDS}

    def add(self, parent: int, depth: int, share: float) -> int:
        c = self.cols
        c["feature"].append(LEAF)
        c["threshold"].append(np.nan)
        c["categorical"].append(False)
        c["first_child"].append(LEAF)
        c["n_children"].append(0)
        c["parent"].append(parent)
        c["depth"].append(depth)
        for name in ("value", "class_counts"):
            c[name].append(None)
        c["n_node_samples"].append(0)
        c["weighted_n_node_samples"].append(0.0)
        c["impurity"].append(np.nan)
        c["split_score"].append(np.nan)
        c["impurity_decrease"].append(np.nan)
        c["missing_share"].append(share)
        c["subset"].append(None)
        return len(c["feature"]) - 1

    def set(self, node: int, **values) -> None:
        for name, value in values.items():
            self.cols[name][node] = value

    def finish(self, domains: list, classification: bool) -> Tree:
        c = self.cols
        arrays = {
            name: np.asarray(c[name])
            for name in self.FIELDS
            if name not in ("value", "class_counts", "subset")
        }
        subsets = c["subset"]
        sizes = np.array([0 if m is None else m.shape[0] for m in subsets])
        arrays["subset_offset"] = np.where(sizes > 0, np.cumsum(sizes) - sizes, LEAF)
        members = [m for m in subsets if m is not None]
        arrays["subset_members"] = np.concatenate(members) if members else np.zeros(0, bool)
        arrays["feature"] = arrays["feature"].astype(np.intp)
        arrays["first_child"] = arrays["first_child"].astype(np.intp)
        arrays["n_children"] = arrays["n_children"].astype(np.intp)
        arrays["parent"] = arrays["parent"].astype(np.intp)
        arrays["depth"] = arrays["depth"].astype(np.intp)
        arrays["n_node_samples"] = arrays["n_node_samples"].astype(np.intp)
        arrays["categorical"] = arrays["categorical"].astype(bool)
        value = np.vstack(c["value"])
        counts = np.vstack(c["class_counts"]) if classification else None
        return Tree(value=value, class_counts=counts, domains=domains, **arrays)


def grow_tree(
    X: np.ndarray,
    y: np.ndarray,
    sample_weight: np.ndarray,
    settings: GrowSettings,
    *,
    validation: tuple[np.ndarray, np.ndarray] | None = None,
) -> Tree:
    """Grow a tree on validated data.

    Parameters
    ----------
    X : ndarray (N, d), float; NaN only when ``settings.missing``
    y : ndarray (N,), class codes 0..K-1 (classification) or float targets
    sample_weight : ndarray (N,), positive
    settings : GrowSettings
    validation : (X_val, y_val codes) or None
        Enables pre-pruning (003 §2.4.1).
    """
    return _Grower(X, y, sample_weight, settings, validation).grow()


class _Grower:
    def __init__(self, X, y, w, settings: GrowSettings, validation) -> None:
        self.X = X
        self.XT = np.ascontiguousarray(X.T)
        self.y = y
        self.w = w
        self.s = settings
        self.crit = settings.criterion
        self.classification = hasattr(self.crit, "n_stats") and self.crit.kind != "squared_error"
        d = X.shape[1]
        cat = settings.categorical if settings.categorical is not None else np.zeros(d, bool)
        self.continuous = np.flatnonzero(~cat)
        self.discrete = tuple(int(f) for f in np.flatnonzero(cat))
        self.position = {int(f): i for i, f in enumerate(self.continuous)}
        #: row of each continuous attribute in the ``order`` arrays (-1: discrete)
        self.order_row = np.full(d, LEAF, dtype=np.intp)
        self.order_row[self.continuous] = np.arange(self.continuous.shape[0])
        self.domains = [
            np.unique(X[~np.isnan(X[:, f]), f]) if cat[f] else None for f in range(d)
        ]
        self.codes = category_codes(X, self.domains)
        self.validation = validation
        if validation is not None:
            self.vcodes = category_codes(validation[0], self.domains)
        self.max_depth = np.inf if settings.max_depth is None else settings.max_depth
        self.builder = _Builder()

    # ------------------------------------------------------------------ growth
    def grow(self) -> Tree:
        n = self.X.shape[0]
        order = np.argsort(self.XT[self.continuous], axis=1, kind="stable")
        root = self.builder.add(LEAF, 0, 1.0)
        if self._plain():
            return self._grow_plain(root, order)
        work = _Work(root, np.arange(n), self.w.copy(), order, self.discrete, 0)
        if self.validation is not None:
            work.vrows = np.arange(self.validation[0].shape[0])
            work.vw = np.ones(work.vrows.shape[0])
        stack = [work]
        while stack:
            stack.extend(reversed(self._process(stack.pop())))
        return self.builder.finish(self.domains, self.classification)

    # ------------------------------------------------------------------ plain growth
    def _plain(self) -> bool:
        """Whether the common case applies: continuous attributes only, no missing-value
        mode, no pre-pruning and positive weights (every row reaches exactly one child
        of a split, with its own weight)."""
        return (
            not self.discrete
            and not self.s.missing
            and self.validation is None
            and bool(np.all(self.w > 0))
        )

    def _grow_plain(self, root: int, order: np.ndarray) -> Tree:
        """TreeGenerate in the common case, without the general path's per-node objects.

        It makes the same tree as :meth:`_process` (same statistics computed by the same
        array operations, same random draws in the same order, same node numbering); it
        only skips what cannot happen here (missing values, discrete attributes,
        validation rows, empty branches) and keeps a node as a tuple
        ``(node, rows, w, order, depth, W)`` where ``order`` holds the node's global row
        ids sorted by each attribute (None for a node of one or two rows, which does not
        need it). A single-row node is always a leaf (pure): its statistics are computed
        for all such leaves at once at the end.
        """
        s, crit, b = self.s, self.crit, self.builder
        N = self.X.shape[0]
        self.stats_buffer = np.zeros((crit.n_stats, N))  # statistics by global row id
        side = np.zeros(N, dtype=bool)  # goes left? by global row id
        single_nodes, single_rows, single_w = [], [], []
        stack = [(root, np.arange(self.X.shape[0]), self.w.copy(), order, 0, float(self.w.sum()))]
        while stack:
            node, rows, w, order, depth, W = stack.pop()
            n = rows.shape[0]
            if n == 1:
                single_nodes.append(node)
                single_rows.append(rows[0])
                single_w.append(w[0])
                continue
            yloc = self.y[rows]
            totals, value, pure = crit.node(yloc, w)
            weighted = crit.weighted_node(totals)
            b.set(
                node,
                value=value,
                class_counts=totals if self.classification else None,
                n_node_samples=n,
                weighted_n_node_samples=W,
                impurity=weighted / W,
            )
            if pure or n < s.min_samples_split or depth >= self.max_depth:
                continue
            if n == 2:
                split = self._split_two(rows, w, yloc, W, weighted / W)
            else:
                split = self._plain_split(rows, w, order, yloc, W, weighted / W)
            if split is None:  # identical samples
                continue
            feature, score, decrease, threshold = split
            if s.min_impurity_decrease > 0 and decrease < s.min_impurity_decrease:
                continue
            first = len(b.cols["feature"])
            b.set(
                node, feature=feature, threshold=threshold, first_child=first, n_children=2,
                split_score=score, impurity_decrease=decrease,
            )
            if n == 2:  # two single-row children
                low = 0 if self.XT[feature, rows[0]] <= threshold else 1
                w_low, w_high = float(w[low]), float(w[1 - low])
                both = 0.0 + w_low + w_high  # numpy's sum of the two
                b.add(node, depth + 1, w_low / both)
                b.add(node, depth + 1, w_high / both)
                single_nodes += [first, first + 1]
                single_rows += [rows[low], rows[1 - low]]
                single_w += [w_low, w_high]
                continue
            left = self.XT[feature][rows] <= threshold
            right = ~left
            w_left, w_right = w[left], w[right]
            W_left, W_right = float(w_left.sum()), float(w_right.sum())
            both = W_left + W_right  # numpy's sum of the two
            b.add(node, depth + 1, W_left / both)
            b.add(node, depth + 1, W_right / both)
            # each sorted list split stably (row ids are global: no renumbering); nodes
            # of one or two rows do not use theirs
            n_left = w_left.shape[0]
            order_left = order_right = None
            if max(n_left, n - n_left) > 2:
                side[rows] = left
                goes_left = side[order]
                m = order.shape[0]
                if n_left > 2:
                    order_left = order[goes_left].reshape(m, n_left)
                if n - n_left > 2:
                    order_right = order[~goes_left].reshape(m, n - n_left)
            stack.append((first + 1, rows[right], w_right, order_right, depth + 1, W_right))
            stack.append((first, rows[left], w_left, order_left, depth + 1, W_left))
        if single_nodes:
            self._single_row_leaves(single_nodes, np.array(single_rows), np.array(single_w))
        return b.finish(self.domains, self.classification)

    def _single_row_leaves(self, nodes: list, rows: np.ndarray, w: np.ndarray) -> None:
        """Statistics of the single-row leaves, all at once, equal element by element to
        what :meth:`crit.node` gives for each alone: a sum or dot product of one term is
        ``0.0 + term`` (numpy's reductions start from +0.0, which turns -0.0 into 0.0)."""
        y = self.y[rows]
        if self.classification:
            totals = np.zeros((rows.shape[0], self.crit.n_stats))
            totals[np.arange(rows.shape[0]), y] = w
            values = totals / w[:, None]
        else:
            mean = (0.0 + w * y) / w
            wr = w * (y - mean)
            totals = np.column_stack([w, 0.0 + wr, 0.0 + wr * (y - mean)])
            values = mean[:, None]
        impurity = self.crit.weighted(np.ascontiguousarray(totals.T)) / w
        c = self.builder.cols
        for i, node in enumerate(nodes):
            c["value"][node] = values[i]
            c["class_counts"][node] = totals[i] if self.classification else None
            c["n_node_samples"][node] = 1
            c["weighted_n_node_samples"][node] = float(w[i])
            c["impurity"][node] = float(impurity[i])

    def _split_two(self, rows, w, yloc, W, impurity):
        """:meth:`_plain_split` for a node of two rows, in plain floats.

        Each attribute either ties the two rows (no split) or sorts them one way or the
        other, so every attribute's best split is one of two computations: row 0 on the
        left or row 1 on the left. They are done with the same operations, in the same
        order, as the vectorised search (cumulative sums of two terms, ``right = total -
        left``), so the choice, scores and thresholds are the same to the last bit.
        """
        s, crit = self.s, self.crit
        d = self.continuous.shape[0]
        k = s.max_features
        if k is not None and k < d:  # the same draw as the vectorised search
            perm = s.rng.permutation(d)
            chunks = [np.sort(perm[:k]).tolist(), np.sort(perm[k:]).tolist()]
        else:
            chunks = [range(d)]
        if s.min_samples_leaf > 1:  # a side would hold one row
            return None
        if self.classification:
            K = crit.n_stats
            stats = [[0.0] * K, [0.0] * K]
            stats[0][yloc[0]], stats[1][yloc[1]] = float(w[0]), float(w[1])
        else:
            stats = crit.row_stats(yloc, w).T.tolist()
        x = self.XT[:, rows].tolist()  # per attribute: [value of row 0, value of row 1]
        outcome = [None, None]  # (score, decrease) with row 0 / row 1 on the left
        for chunk in chunks:
            features, gains, scores, thresholds = [], [], [], []
            for f in chunk:
                lo, hi = x[f]
                if lo == hi:
                    continue
                first = 0 if lo < hi else 1
                if first:
                    lo, hi = hi, lo
                if outcome[first] is None:
                    outcome[first] = self._two_row_split(stats[first], stats[1 - first], W)
                threshold = lo / 2.0 + hi / 2.0
                if not lo <= threshold < hi:  # rounding at adjacent floats
                    threshold = lo
                features.append(f)
                scores.append(outcome[first][0])
                gains.append(outcome[first][1])
                thresholds.append(threshold)
            if features:
                i = self._choose_index(np.array(gains), np.array(scores), impurity)
                return features[i], scores[i], gains[i], thresholds[i]
        return None

    def _two_row_split(self, left: list, second: list, W: float) -> tuple[float, float]:
        """``(score, decrease)`` of splitting two rows with statistics ``left`` (the
        smaller value) and ``second``, as :meth:`_continuous_best` computes them."""
        crit = self.crit
        total = [a + b for a, b in zip(left, second, strict=True)]
        right = [t - a for t, a in zip(total, left, strict=True)]
        if self.classification:
            right = [max_zero(r) for r in right]
        child = crit.weighted_floats(left) + crit.weighted_floats(right)
        decrease = (crit.weighted_floats(total) - child) / W
        if not self.s.gain_ratio:
            return decrease, decrease
        w_left = crit.weight_floats(left)
        sides = (w_left, max_zero(crit.weight_floats(total) - w_left))
        both = 0.0 + sides[0] + sides[1]
        info = (xlogx(both) - (0.0 + xlogx(sides[0]) + xlogx(sides[1]))) / _LN2
        return float(np.divide(decrease, max_zero(info / both))), decrease

    def _plain_split(self, rows, w, order, yloc, W, impurity):
        """:meth:`_best_split` for continuous attributes only: ``(feature, score,
        decrease, threshold)`` of the chosen split, or None (identical samples).

        ``order`` holds the node's rows (global ids) sorted by each attribute; the
        statistics go to the node's columns of a buffer indexed by global row id.
        """
        features = self.continuous
        k = self.s.max_features
        if k is not None and k < features.shape[0]:
            perm = self.s.rng.permutation(features.shape[0])
            chunks = [np.sort(features[perm[:k]]), np.sort(features[perm[k:]])]
        else:
            chunks = [features]
        stats = self.stats_buffer
        stats[:, rows] = self.crit.row_stats(yloc, w)
        per_block = max(1, _BLOCK_ELEMENTS // max(1, rows.shape[0] * stats.shape[0]))
        for chunk in chunks:
            parts = []
            for start in range(0, chunk.shape[0], per_block):
                F = chunk[start : start + per_block]
                P = order[F]  # (attributes are the rows of ``order`` in the common case)
                parts.append(self._continuous_best(P, P, stats, F, W))
            if len(parts) > 1:
                parts = [tuple(np.concatenate(p) for p in zip(*parts, strict=True))]
            F, score, decrease, threshold = parts[0]
            if F.shape[0]:
                i = self._choose_index(decrease, score, impurity)
                return int(F[i]), float(score[i]), float(decrease[i]), float(threshold[i])
        return None

    def _process(self, work: _Work) -> list[_Work]:
        s, crit = self.s, self.crit
        yloc = self.y[work.rows]
        totals, value, pure = crit.node(yloc, work.w)
        W = float(work.w.sum())
        self.builder.set(
            work.node,
            value=value,
            class_counts=totals if self.classification else None,
            n_node_samples=work.rows.shape[0],
            weighted_n_node_samples=W,
            impurity=float(crit.weighted(totals)) / W,
        )
        n = work.rows.shape[0]
        if (
            pure
            or n < s.min_samples_split
            or work.depth >= self.max_depth
            or (self.continuous.size == 0 and not work.available)
        ):
            return []
        split = self._best_split(work, yloc, float(crit.weighted(totals)) / W)
        if split is None:  # identical samples on A
            return []
        if s.min_impurity_decrease > 0 and split.decrease < s.min_impurity_decrease:
            return []
        children = self._partition(work, split)
        if self.validation is not None and not self._improves_validation(
            work, value, children, split
        ):
            return []
        first = len(self.builder.cols["feature"])
        self.builder.set(
            work.node,
            feature=split.feature,
            threshold=split.threshold,
            categorical=bool(np.isnan(split.threshold)),
            subset=split.subset,
            first_child=first,
            n_children=len(children),
            split_score=split.score,
            impurity_decrease=split.decrease,
        )
        out = []
        for child in children:
            node = self.builder.add(work.node, work.depth + 1, child.share)
            if child.rows.shape[0] == 0:  # empty branch: leaf with the parent's prediction
                self.builder.set(
                    node,
                    value=value,
                    class_counts=np.zeros_like(totals) if self.classification else None,
                    impurity=0.0,
                )
                continue
            child.work.node = node
            out.append(child.work)
        return out

    # ------------------------------------------------------------------ split search
    def _best_split(self, work: _Work, yloc: np.ndarray, impurity: float) -> _Split | None:
        features = np.concatenate([self.continuous, np.asarray(work.available, dtype=np.intp)])
        k = self.s.max_features
        if k is not None and k < features.shape[0]:
            perm = self.s.rng.permutation(features.shape[0])
            chunks = [np.sort(features[perm[:k]]), np.sort(features[perm[k:]])]
        else:
            chunks = [np.sort(features)]
        stats = self.crit.row_stats(yloc, work.w)
        for chunk in chunks:
            candidates = self._evaluate(work, stats, chunk)
            if candidates:
                return self._choose(candidates, impurity)
        return None

    def _choose(self, candidates: list[_Split], impurity: float) -> _Split:
        """The best candidate; scores within ``_TIE_RTOL * impurity`` tie (first wins)."""
        gains = np.array([c.decrease for c in candidates])
        scores = np.array([c.score for c in candidates])
        return candidates[self._choose_index(gains, scores, impurity)]

    def _choose_index(self, gains: np.ndarray, scores: np.ndarray, impurity: float) -> int:
        """Position of the best of the candidates (in attribute order) with these gains
        and scores; scores within ``_TIE_RTOL * impurity`` tie (first wins)."""
        if not (self.s.gain_ratio and self.s.above_average_gain):
            listed = scores.tolist()
            if all(v == v for v in listed):  # no NaN: the same choice in plain floats
                bar = max(listed)
                bar -= _TIE_RTOL * max(impurity, abs(bar))
                return next(i for i, v in enumerate(listed) if v >= bar)
        candidates = np.arange(gains.shape[0])
        if self.s.gain_ratio and self.s.above_average_gain:
            # C4.5's heuristic: only attributes with at least the average gain compete;
            # gains within rounding of the mean count as reaching it (equal gains average
            # to a mean one ulp above some of them).
            keep = gains >= gains.mean() - _TIE_RTOL * max(impurity, abs(gains.mean()))
            candidates, scores = candidates[keep], scores[keep]
        slack = _TIE_RTOL * max(impurity, abs(scores.max()))
        return int(candidates[np.argmax(scores >= scores.max() - slack)])

    def _evaluate(self, work: _Work, stats: np.ndarray, features: np.ndarray) -> list[_Split]:
        W = float(work.w.sum())
        out = []
        cont = [f for f in features if int(f) in self.position]
        per_block = max(1, _BLOCK_ELEMENTS // max(1, work.rows.shape[0] * stats.shape[0]))
        for start in range(0, len(cont), per_block):
            out.extend(self._continuous(work, stats, np.array(cont[start : start + per_block]), W))
        for f in features:
            if int(f) not in self.position:
                split = self._discrete(work, stats, int(f), W)
                if split is not None:
                    out.append(split)
        out.sort(key=lambda c: c.feature)
        return out

    def _continuous(self, work, stats, F, W) -> list[_Split]:
        """Best bi-partition (2.8) of each continuous attribute in ``F``, vectorised."""
        P = work.order[self.order_row[F]]  # local positions sorted by each attribute
        best = self._continuous_best(work.rows[P], P, stats, F, W)
        return [
            _Split(int(f), float(score), float(decrease), float(threshold))
            for f, score, decrease, threshold in zip(*best, strict=True)
        ]

    def _continuous_best(self, sorted_rows, P, stats, F, W) -> tuple[np.ndarray, ...]:
        """Arrays ``(features, scores, decreases, thresholds)``: the best bi-partition
        (2.8) of each attribute of ``F`` that has one (attribute order kept).

        ``sorted_rows`` (m, n) are the node's training rows sorted by each attribute of
        ``F``, ``P`` (m, n) the same rows as columns of ``stats``, their criterion
        statistics; ``W`` is the node's weight. All attributes at once: one cumulative
        sum per statistic.
        """
        crit, L = self.crit, self.s.min_samples_leaf
        m, n = P.shape
        xs = self.XT[F[:, None], sorted_rows]  # sorted values, NaN last
        cum = np.take(stats, P, axis=1)  # (s, m, n)
        np.cumsum(cum, axis=2, out=cum)
        cols = np.arange(m)
        if self.s.missing:
            known = np.count_nonzero(~np.isnan(xs), axis=1)
            total = cum[:, cols, np.maximum(known - 1, 0)]  # statistics of the known rows
        else:
            known = None
            total = cum[:, :, -1]
        left = cum[:, :, :-1]
        right = total[:, :, None] - left
        if self.classification:
            np.maximum(right, 0.0, out=right)  # cumulative-sum rounding
        valid = xs[:, :-1] < xs[:, 1:]  # between two distinct values (NaN compares False)
        if L > 1 or self.s.missing:
            size = np.arange(1, n)
            known_rows = n if known is None else known[:, None]
            valid &= (size >= L) & ((known_rows - size) >= L)
        # W * impurity of every left side, every right side and the whole, in one pass
        # (element by element the same arithmetic as three separate calls)
        weighted = crit.weighted(np.concatenate([left, right, total[:, :, None]], axis=2))
        child = weighted[:, : n - 1]
        child += weighted[:, n - 1 : 2 * (n - 1)]
        np.copyto(child, np.inf, where=~valid)
        parent = weighted[:, -1]
        lowest = child.min(axis=1)
        best = np.argmax(child <= (lowest + _TIE_RTOL * parent)[:, None], axis=1)
        best_child = child[cols, best]
        j = np.flatnonzero(best_child < np.inf)  # the attributes that can split
        i = best[j]
        at = j * n + i  # flat position of the last row on the left side
        lo, hi = xs.ravel()[at], xs.ravel()[at + 1]
        threshold = lo / 2.0 + hi / 2.0
        threshold = np.where((lo <= threshold) & (threshold < hi), threshold, lo)  # adjacent floats
        # rho * (impurity(D~) - sum_v W_v / W~ impurity(D~_v)) = (parent - child) / W
        decrease = (parent[j] - best_child[j]) / W
        score = decrease
        if self.s.gain_ratio:  # divided by the split's intrinsic value (2.4) in bits
            w_left = crit.weight(left[:, j, i])
            sides = np.stack([w_left, np.maximum(crit.weight(total)[j] - w_left, 0.0)], axis=-1)
            score = decrease / np.maximum(_weighted_entropy(sides) / sides.sum(axis=-1), 0.0)
        return F[j], score, decrease, threshold

    def _discrete(self, work, stats, f, W) -> _Split | None:
        """The multiway split of discrete attribute ``f`` (one branch per value)."""
        crit = self.crit
        code = self.codes[work.rows, f]
        known = code >= 0
        V = self.domains[f].shape[0]
        counts = np.bincount(code[known], minlength=V)
        nonempty = counts > 0
        if np.count_nonzero(nonempty) < 2 or np.any(counts[nonempty] < self.s.min_samples_leaf):
            return None
        table = np.stack(
            [np.bincount(code[known], weights=row[known], minlength=V) for row in stats]
        )  # (s, V)
        if self.classification:
            np.maximum(table, 0.0, out=table)
        total = table.sum(axis=1)
        if self.s.binary_discrete:
            return self._discrete_binary(f, table, counts, total, W)
        decrease = (float(crit.weighted(total)) - float(crit.weighted(table).sum())) / W
        score = decrease
        if self.s.gain_ratio:
            score = decrease / entropy(crit.weight(table)[nonempty])
        return _Split(f, float(score), float(decrease))

    def _discrete_binary(self, f, table, counts, total, W) -> _Split | None:
        """CART's binary split of a discrete attribute: the best bipartition {S, rest} of
        its values at the node, all 2^(V-1) - 1 of them enumerated (vectorised)."""
        crit, L = self.crit, self.s.min_samples_leaf
        present = np.flatnonzero(counts > 0)
        if present.shape[0] - 1 > MAX_SUBSET_BITS:
            raise ValueError(
                f"discrete_split='binary' enumerates 2^(V-1) - 1 bipartitions of a discrete "
                f"attribute's values; attribute {f} takes {present.shape[0]} values at a node "
                f"(at most {MAX_SUBSET_BITS + 1} supported)."
            )
        bits = np.arange(1, 2 ** (present.shape[0] - 1))
        # the last present value always goes right: each bipartition appears once
        masks = ((bits[:, None] >> np.arange(present.shape[0] - 1)) & 1).astype(float)
        masks = np.column_stack([masks, np.zeros(bits.shape[0])])  # (M, V_present)
        left = table[:, present] @ masks.T  # (s, M)
        right = total[:, None] - left
        if self.classification:
            np.maximum(right, 0.0, out=right)
        n_left = masks @ counts[present]
        valid = (n_left >= L) & (counts.sum() - n_left >= L)
        if not np.any(valid):
            return None
        child = crit.weighted(left) + crit.weighted(right)
        np.copyto(child, np.inf, where=~valid)
        lowest = child.min()
        parent = float(crit.weighted(total))
        best = int(np.argmax(child <= lowest + _TIE_RTOL * parent))
        decrease = (parent - float(child[best])) / W
        score = decrease
        if self.s.gain_ratio:
            w_left = float(crit.weight(left[:, best]))
            score = decrease / entropy([w_left, max(float(crit.weight(total)) - w_left, 0.0)])
        subset = np.zeros(self.domains[f].shape[0], dtype=bool)
        subset[present[masks[best] > 0]] = True
        return _Split(f, float(score), float(decrease), subset=subset)

    # ------------------------------------------------------------------ partition
    def _partition(self, work: _Work, split: _Split) -> list[_Child]:
        f = split.feature
        missing = np.isnan(self.X[work.rows, f])
        branches = self._branches(self.X, self.codes, work.rows, split)
        known_w = np.array([work.w[b].sum() for b in branches])
        shares = known_w / known_w.sum()
        children = []
        for b, share in zip(branches, shares, strict=True):
            w_child = np.where(missing, work.w * share, work.w)
            children.append(_Child(share, self._restrict(work, b | missing, w_child, split)))
        if work.vrows is not None:
            vmissing = np.isnan(self.validation[0][work.vrows, f])
            vbranches = self._branches(self.validation[0], self.vcodes, work.vrows, split)
            for child, b in zip(children, vbranches, strict=True):
                vw = np.where(vmissing, work.vw * child.share, work.vw)
                member = (b | vmissing) & (vw > 0)
                child.work.vrows, child.work.vw = work.vrows[member], vw[member]
        return children

    def _branches(self, X, codes, rows, split: _Split) -> list[np.ndarray]:
        """Masks of the rows whose known value sends them to each branch (a discrete value
        unseen in training: no branch of a multiway split, the right one of a binary)."""
        f = split.feature
        if split.subset is not None:
            code = codes[rows, f]
            left = np.where(code >= 0, split.subset[np.maximum(code, 0)], False)
            return [left, ~left & ~np.isnan(X[rows, f])]
        if np.isnan(split.threshold):
            code = codes[rows, f]
            return [code == v for v in range(self.domains[f].shape[0])]
        x = X[rows, f]
        with np.errstate(invalid="ignore"):
            return [x <= split.threshold, x > split.threshold]

    def _restrict(self, work: _Work, member, w_child, split: _Split) -> _Work:
        member = member & (w_child > 0)
        count = int(np.count_nonzero(member))
        new_index = np.cumsum(member) - 1
        keep = member[work.order]
        order = new_index[work.order[keep]].reshape(work.order.shape[0], count)
        available = work.available
        if split.multiway:  # a discrete attribute leaves A below a multiway split only
            available = tuple(a for a in available if a != split.feature)
        return _Work(LEAF, work.rows[member], w_child[member], order, available, work.depth + 1)

    # ------------------------------------------------------------------ pre-pruning
    def _improves_validation(self, work: _Work, value: np.ndarray, children, split) -> bool:
        """003 §2.4.1: expand only if validation accuracy strictly increases.

        A validation sample whose discrete value was never seen in training stays at the
        node after the split (prediction stops there), so it counts with the node's label.
        """
        yv = self.validation[1]
        majority = int(np.argmax(value))
        hit = yv[work.vrows] == majority
        before = float(work.vw[hit].sum())
        known = ~np.isnan(self.validation[0][work.vrows, split.feature])
        routed = np.any(self._branches(self.validation[0], self.vcodes, work.vrows, split), axis=0)
        after = float(work.vw[hit & known & ~routed].sum())
        for child in children:
            label = majority
            if child.rows.shape[0]:
                counts = np.bincount(
                    self.y[child.rows], weights=child.work.w, minlength=value.shape[0]
                )
                label = int(np.argmax(counts))
            after += float(child.work.vw[yv[child.work.vrows] == label].sum())
        return after > before


@dataclass
class _Child:
    share: float
    work: _Work

    @property
    def rows(self) -> np.ndarray:
        return self.work.rows
