"""Split selection: ID3 / C4.5 / CART choose the optimum (2.3), (2.4), (2.7); the n-1
midpoints of (2.8) suffice; information gain prefers many-valued attributes and the
gain ratio weakens that preference (003 §2.2–§2.3, §2.5.1).

References: brute force over every attribute and every candidate threshold with exact
Fraction counts (:mod:`properties.trees.support`), and scikit-learn's
``DecisionTreeClassifier`` on continuous data.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from hypothesis import example, given
from hypothesis import strategies as st
from sklearn.tree import DecisionTreeClassifier as SkTree

from mltheory import ErratumKind, Expect, Method, claim, evidence
from mltheory.numeric import EXACT_ARITHMETIC, assert_close
from mltheory.stats import check_probability_at_least
from properties.trees.strategies import TreeData, continuous_datasets, discrete_datasets
from properties.trees.support import (
    GAIN_AGREEMENT,
    check_root_choice,
    fit_tree,
    ref_decrease,
    ref_entropy,
    ref_gini,
    ref_partition_table,
)

# ---------------------------------------------------------------------------
# The choice of the splitting attribute
# ---------------------------------------------------------------------------

mixed_datasets = discrete_datasets() | continuous_datasets(weighted=True)


@claim(
    id="tree.id3_argmax",
    source="003 §2.2.1 (2.3)",
    statement="ID3 splits on a* = argmax_a Gain(D, a): at every node of the tree grown with "
    "information gain the chosen attribute attains the largest gain over the attributes "
    "still available (discrete ones split by value, continuous ones at their best midpoint).",
    method=Method.REFERENCE,
    tags=("trees", "split"),
)
@given(data=mixed_datasets)
def id3_argmax(data):
    check_root_choice(data, "entropy", every_node=True)


@claim(
    id="tree.cart_argmin",
    source="003 §2.3 (2.7)",
    statement="CART splits on a* = argmin_a Gini_index(D, a): at every node of the tree grown "
    "with the Gini criterion the chosen attribute attains the smallest Gini index.",
    method=Method.REFERENCE,
    tags=("trees", "split"),
)
@given(data=mixed_datasets)
def cart_argmin(data):
    check_root_choice(data, "gini", every_node=True)


@claim(
    id="tree.cart_binary_argmin",
    source="003 §2.3 (2.6); 003 §2.3 (2.7)",
    statement="CART proper grows a binary tree: every split has two branches, a discrete "
    "attribute being split into the bipartition {S, rest} of its values with the smallest "
    "Gini index (all bipartitions enumerated by brute force), at every node.",
    method=Method.REFERENCE,
    tags=("trees", "split"),
)
@given(data=discrete_datasets(max_values=5) | continuous_datasets())
def cart_binary_argmin(data):
    check_root_choice(data, "gini", every_node=True, binary=True)


@claim(
    id="tree.c45_gain_ratio_argmax",
    source="003 §2.2.2 (2.4)",
    statement="C4.5 splits on the attribute of largest gain ratio Gain/IV; with the "
    "heuristic, only among attributes whose gain is at least the average gain. Also when "
    "every split is binary: a discrete attribute is then cut into its bipartition of "
    "largest gain (as a continuous one at its threshold of largest gain, (2.8)), and IV is "
    "that of the two-way split.",
    method=Method.REFERENCE,
    tags=("trees", "split"),
)
@given(data=mixed_datasets, above=st.booleans(), binary=st.booleans())
def c45_gain_ratio_argmax(data, above, binary):
    check_root_choice(data, "gain_ratio", above_average_gain=above, every_node=True,
                      binary=binary)


# ---------------------------------------------------------------------------
# Continuous attributes: the bi-partition (2.8)
# ---------------------------------------------------------------------------


def partition(column: np.ndarray, t: float) -> tuple:
    """The partition {x <= t} / {x > t} as a pair of frozensets of row indices."""
    left = frozenset(np.flatnonzero(column <= t).tolist())
    return left, frozenset(range(column.shape[0])) - left


def interval_points(lo: float, hi: float, *, closed: bool) -> list[float]:
    """Thresholds inside the interval between consecutive distinct values: its ends
    (the right end only if ``closed``), the midpoint, and points just inside the ends."""
    points = [lo, lo / 2 + hi / 2, float(np.nextafter(lo, hi)), float(np.nextafter(hi, lo))]
    return points + [hi] if closed else points


def check_same_partition_on_interval(data: TreeData, *, closed: bool) -> None:
    """Every t in [a^i, a^{i+1}) (or the closed interval) gives the partition of the
    midpoint."""
    for a in range(data.X.shape[1]):
        col = data.X[:, a]
        values = np.unique(col)
        for lo, hi in zip(values[:-1], values[1:], strict=True):
            reference = partition(col, lo / 2 + hi / 2)
            for t in interval_points(float(lo), float(hi), closed=closed):
                assert partition(col, t) == reference, (
                    f"attribute {a}: t = {t!r} in [{lo!r}, {hi!r}] splits differently from the "
                    f"midpoint {lo / 2 + hi / 2!r}"
                )


@claim(
    id="tree.bipartition_interval_as_written",
    source="003 §2.5.1",
    statement="(As written) for neighbouring values a^i < a^{i+1} of a continuous attribute, "
    "every threshold t in the closed interval [a^i, a^{i+1}] splits D into the same "
    "D_t^- = {a <= t} and D_t^+ = {a > t}.",
    method=Method.PROPERTY,
    tags=("trees", "split", "erratum"),
    expect=Expect.REFUTED,
    kind=ErratumKind.SYMBOL,
    corrected_by="tree.bipartition_equivalence",
    explanation="Wrong interval: with the rule a <= t for D_t^-, the right end t = a^{i+1} "
    "moves the samples with value a^{i+1} into D_t^-, so only the half-open interval "
    "[a^i, a^{i+1}) gives one partition. (The passage also sorts the values 'from large "
    "to small' and then writes the interval from a_t up to a_{t+1}; the midpoint set is "
    "the same for either order.)",
)
@given(data=continuous_datasets())
@example(data=TreeData(np.array([[0.0], [1.0]]), np.array([0, 1]), np.zeros(1, bool),
                       np.ones(2)))
def bipartition_interval_as_written(data):
    check_same_partition_on_interval(data, closed=True)


def best_gain_over_reals(col: np.ndarray, y: np.ndarray, w: np.ndarray, K: int,
                         thresholds: list[float]) -> float:
    """max over the given thresholds of Gain(D, a, t) (reference counts)."""
    return max(ref_decrease(ref_partition_table(col, y, w, K, t)[0], "entropy")
               for t in thresholds)


@claim(
    id="tree.bipartition_equivalence",
    source="003 §2.5.1 (2.8)",
    statement="Every threshold t in the half-open [a^i, a^{i+1}) gives the same partition, "
    "so the n-1 midpoints T_a = {(a^i + a^{i+1})/2} suffice: the best Gain(D, a, t) over "
    "all real t equals the best over T_a, and the tree's threshold attains it.",
    method=Method.PROPERTY,
    tags=("trees", "split"),
)
@given(data=continuous_datasets(max_features=1), extra=st.lists(
    st.floats(-1e4, 1e4, allow_nan=False), max_size=8))
def bipartition_equivalence(data, extra):
    check_same_partition_on_interval(data, closed=False)
    col, K = data.X[:, 0], data.n_classes
    values = np.unique(col)
    if values.shape[0] < 2:
        return
    mids = [lo / 2 + hi / 2 for lo, hi in zip(values[:-1], values[1:], strict=True)]
    everywhere = [float(t) for lo, hi in zip(values[:-1], values[1:], strict=True)
                  for t in interval_points(lo, hi, closed=True)]
    everywhere += [float(values[0] - 1), float(values[-1] + 1), *extra]
    best_mid = best_gain_over_reals(col, data.y, data.w, K, mids)
    best_all = best_gain_over_reals(col, data.y, data.w, K, everywhere)
    evidence.worst("best over reals - best over midpoints", best_all - best_mid)
    assert_close(best_mid, best_all, GAIN_AGREEMENT, label="max over T_a vs max over reals")
    tree = fit_tree(data, criterion="entropy", max_depth=1).tree_
    if tree.node_count > 1:
        t = tree.threshold[0]
        assert any(lo < t < hi for lo, hi in zip(values[:-1], values[1:], strict=True)), t
        chosen = ref_decrease(ref_partition_table(col, data.y, data.w, K, t)[0], "entropy")
        assert_close(chosen, best_all, GAIN_AGREEMENT, label="tree threshold vs best")


# ---------------------------------------------------------------------------
# scikit-learn as an independent reference on continuous data
# ---------------------------------------------------------------------------


def _sklearn_decrease(sk, node: int) -> float:
    t = sk.tree_
    left, right = t.children_left[node], t.children_right[node]
    W = t.weighted_n_node_samples
    return t.impurity[node] - (W[left] * t.impurity[left] + W[right] * t.impurity[right]) / W[node]


def check_agrees_with_sklearn(
    data: TreeData, criterion: str, *, ours_model=None, X_test: np.ndarray | None = None,
    max_depth: int | None = None,
) -> float:
    """Ours and scikit-learn's trees coincide up to ties: starting at the roots, whenever
    both split a node's samples the same way the children are compared; where the
    partitions differ, the two splits must have equal criterion decrease (a tie broken
    differently). The root decrease agrees, fully grown trees agree on the training set,
    and fresh points that reach a leaf through matched nodes only get the same leaf
    and the same class probabilities. Returns the share of such fresh points."""
    ours = ours_model or fit_tree(data, criterion=criterion, max_depth=max_depth)
    sk = SkTree(criterion=criterion, max_depth=max_depth, random_state=0)
    sk.fit(data.X, data.y, sample_weight=data.w)
    K = data.n_classes
    tree = ours.tree_
    compared = ties = 0
    matched_leaf = {}
    # (our node, their node, training rows, whether every test on the path is the same
    # attribute: only then do fresh points follow the same path in both trees)
    stack = [(0, 0, np.arange(data.X.shape[0]), True)]
    while stack:
        a, b, rows, same_tests = stack.pop()
        compared += 1
        a_leaf, b_leaf = bool(tree.is_leaf[a]), sk.tree_.children_left[b] < 0
        assert a_leaf == b_leaf, f"node of {rows.size} samples: leaf in one tree only"
        if a_leaf:
            if same_tests:
                matched_leaf[a] = b
            continue
        fa, fb = int(tree.feature[a]), int(sk.tree_.feature[b])
        left_a = data.X[rows, fa] <= tree.threshold[a]
        left_b = data.X[rows, fb] <= sk.tree_.threshold[b]
        if np.array_equal(left_a, left_b):
            first = tree.children(a)
            same = same_tests and fa == fb
            stack.append((int(first[0]), int(sk.tree_.children_left[b]), rows[left_a], same))
            stack.append((int(first[1]), int(sk.tree_.children_right[b]), rows[~left_a], same))
            continue
        ties += 1
        dec_b = ref_decrease(ref_partition_table(data.X[rows, fb], data.y[rows], data.w[rows], K,
                                                 sk.tree_.threshold[b])[0], criterion)
        dec_a = ref_decrease(ref_partition_table(data.X[rows, fa], data.y[rows], data.w[rows], K,
                                                 tree.threshold[a])[0], criterion)
        assert_close(dec_a, dec_b, GAIN_AGREEMENT, label="decrease where the trees differ",
                     context=f"node of {rows.size} samples: splits differ and do not tie: ")
    evidence.worst("nodes compared", compared)
    evidence.worst("tie-broken divergences", ties)
    assert_close(tree.impurity_decrease[0] if tree.node_count > 1 else 0.0,
                 _sklearn_decrease(sk, 0) if sk.tree_.node_count > 1 else 0.0,
                 GAIN_AGREEMENT, label="root decrease vs scikit-learn")
    if max_depth is None:
        assert np.array_equal(ours.predict(data.X), sk.predict(data.X)), (
            "training predictions differ")
    if X_test is None:
        return 0.0
    ours_leaf, sk_leaf = ours.apply(X_test), sk.apply(X_test)
    comparable = np.array([leaf in matched_leaf for leaf in ours_leaf.tolist()])
    if not comparable.any():
        return 0.0
    for i in np.flatnonzero(comparable):
        assert matched_leaf[int(ours_leaf[i])] == sk_leaf[i], (
            "a fresh point reached another leaf")
    assert_close(ours.predict_proba(X_test[comparable]), sk.predict_proba(X_test[comparable]),
                 EXACT_ARITHMETIC, label="class probabilities at matched leaves")
    return float(comparable.mean())


def resolvable_by_sklearn(data: TreeData) -> bool:
    """scikit-learn's trees work on float32 copies of X and never split between values
    closer than 1e-7: compare only on data whose distinct values survive both."""
    for col in data.X.T:
        values = np.unique(col)
        cast = np.unique(col.astype(np.float32))
        if cast.size != values.size or (values.size > 1 and np.diff(cast).min() <= 1e-6):
            return False
    return True


@claim(
    id="tree.sklearn_reference",
    source="003 §2.2.1 (2.2); 003 §2.3 (2.6); 003 §2.5.1 (2.8)",
    statement="On continuous data our information-gain and Gini trees are scikit-learn's "
    "DecisionTreeClassifier up to ties: the same root impurity decrease, the same splits "
    "wherever the best split is unique, the same training predictions (on values that "
    "scikit-learn's float32 copy of X keeps apart).",
    method=Method.REFERENCE,
    tags=("trees", "split", "reference"),
)
@given(data=continuous_datasets(max_samples=40, weighted=True).filter(resolvable_by_sklearn),
       criterion=st.sampled_from(["entropy", "gini"]))
def sklearn_reference(data, criterion):
    # fresh points: each column rolled by a different offset (new combinations of values)
    fresh = np.column_stack([np.roll(data.X[:, j], j + 1) for j in range(data.X.shape[1])])
    check_agrees_with_sklearn(data, criterion, X_test=fresh)


#: Data sets per criterion in the larger comparison, and their size.
SKLEARN_PROBLEMS, SKLEARN_SHAPE = 3, (400, 6)
#: Depth of the second, depth-limited comparison.
SKLEARN_DEPTH = 5


@claim(
    id="tree.sklearn_reference_large",
    source="003 §2.2.1 (2.2); 003 §2.3 (2.6); 003 §2.5.1 (2.8)",
    statement="On larger continuous data (400 samples, 6 attributes, distinct values, label "
    "noise) the information-gain and Gini trees, fully grown and depth-5, coincide with "
    "scikit-learn's up to ties, and fresh points whose path meets no tie reach the same "
    "leaf with the same class probabilities.",
    method=Method.REFERENCE,
    tags=("trees", "split", "reference"),
)
def sklearn_reference_large(rng):
    n, d = SKLEARN_SHAPE
    shares = []
    for criterion in ("entropy", "gini"):
        for _ in range(SKLEARN_PROBLEMS):
            X = rng.normal(size=(n, d)) * rng.uniform(0.1, 10, size=d)
            y = (X[:, 0] * X[:, 1] + X[:, 2] > 0).astype(int) + (X[:, 3] > 1)
            y = np.where(rng.random(n) < 0.15, rng.integers(0, 3, size=n), y)
            data = TreeData(X, y, np.zeros(d, bool), np.ones(n))
            for depth in (None, SKLEARN_DEPTH):
                shares.append(check_agrees_with_sklearn(
                    data, criterion, max_depth=depth, X_test=rng.normal(size=(1000, d))))
    evidence.record("fresh points compared (share, mean over trees)", float(np.mean(shares)))
    assert min(shares) > 0, "some tree had no fresh point reaching a matched leaf"


#: 41 classes, 100,003 samples: the root's (rows x classes) statistics hold 4.1e6 numbers,
#: more than one block of the grower's vectorised split search (4e6), so the root is
#: searched an attribute per block, a path no smaller scenario reaches.
MANY_CLASSES, MANY_CLASS_SAMPLES, MANY_CLASS_ATTRIBUTES = 41, 100_003, 3


def many_class_data(rng: np.random.Generator) -> TreeData:
    """``MANY_CLASS_SAMPLES`` samples of ``MANY_CLASSES`` classes: distinct integer values
    per attribute (exact in scikit-learn's float32 too), the label a band of the first
    attribute with 30 % of the labels redrawn at random."""
    m, K, d = MANY_CLASS_SAMPLES, MANY_CLASSES, MANY_CLASS_ATTRIBUTES
    X = np.stack([rng.permutation(m) for _ in range(d)], axis=1).astype(float)
    y = (X[:, 0] * K // m).astype(np.int64)
    y = np.where(rng.random(m) < 0.3, rng.integers(0, K, size=m), y)
    return TreeData(X, y, np.zeros(d, bool), np.ones(m))


@claim(
    id="tree.root_split_many_classes",
    source="003 §2.2.1 (2.1)-(2.2); 003 §2.3 (2.5)-(2.6)",
    statement="Ent(D) and Gini(D) sum over all |Y| classes, however many: with |Y| = 41 "
    "classes and 100,003 samples the information-gain and Gini root splits coincide with "
    "scikit-learn's up to ties (same partition, or equal decrease).",
    method=Method.REFERENCE,
    tags=("trees", "split", "reference"),
)
def root_split_many_classes(rng):
    """A few seconds: two stumps on 100,003 samples of 41 classes, each against
    scikit-learn's (mutation: a block size of 0, which crashes only on nodes this large,
    survived every smaller scenario)."""
    data = many_class_data(rng)
    for criterion in ("entropy", "gini"):
        check_agrees_with_sklearn(data, criterion, max_depth=1)


# ---------------------------------------------------------------------------
# Information gain prefers many-valued attributes; the gain ratio less so (§2.2.2)
# ---------------------------------------------------------------------------


def refine(codes: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Split every value of an attribute into two at random (a refinement of it)."""
    return 2 * codes + rng.integers(0, 2, size=codes.shape[0])


def tables(codes: np.ndarray, y: np.ndarray, V: int, K: int) -> np.ndarray:
    """Contingency tables of a batch: codes, y of shape (trials, n) -> (trials, V, K)."""
    trials = codes.shape[0]
    flat = (np.arange(trials)[:, None] * V + codes) * K + y
    return np.bincount(flat.ravel(), minlength=trials * V * K).reshape(trials, V, K)


@claim(
    id="tree.gain_refinement_monotone",
    source="003 §2.2.2",
    statement="Information gain favours attributes with more values: refining an attribute "
    "(splitting any of its values into several) never lowers its gain.",
    method=Method.PROPERTY,
    tags=("trees", "split", "bias"),
)
@given(data=discrete_datasets(max_samples=30, max_values=4), seed=st.integers(0, 2**16))
def gain_refinement_monotone(data, seed):
    from algorithms.trees import gain

    rng = np.random.default_rng(seed)
    K = data.n_classes
    codes = data.X[:, 0].astype(int)
    fine = refine(codes, rng)
    coarse_gain = gain(tables(codes[None], data.y[None], int(codes.max()) + 1, K)[0])
    fine_gain = gain(tables(fine[None], data.y[None], int(fine.max()) + 1, K)[0])
    evidence.worst("Gain(coarse) - Gain(refined)", coarse_gain - fine_gain)
    assert fine_gain >= coarse_gain - GAIN_AGREEMENT.atol, (coarse_gain, fine_gain)


#: Samples per simulated data set and values of the coarse attribute: small enough that
#: chance associations between a label-independent attribute and the labels are large.
BIAS_SAMPLES, BIAS_VALUES = 30, 3
BIAS_TRIALS = 4000


def bias_trials(rng: np.random.Generator, trials: int):
    """Labels and two label-independent attributes with V and 2V values, per trial."""
    from algorithms.trees import gain, intrinsic_value

    y = rng.integers(0, 2, size=(trials, BIAS_SAMPLES))
    few = rng.integers(0, BIAS_VALUES, size=(trials, BIAS_SAMPLES))
    many = rng.integers(0, 2 * BIAS_VALUES, size=(trials, BIAS_SAMPLES))
    t_few = tables(few, y, BIAS_VALUES, 2)
    t_many = tables(many, y, 2 * BIAS_VALUES, 2)
    g_few, g_many = gain(t_few), gain(t_many)
    iv_few, iv_many = intrinsic_value(t_few), intrinsic_value(t_many)
    with np.errstate(divide="ignore", invalid="ignore"):
        r_few, r_many = g_few / iv_few, g_many / iv_many
    return g_few, g_many, r_few, r_many


@claim(
    id="tree.gain_bias_many_values",
    source="003 §2.2.2",
    statement="Information gain prefers attributes with many values: of two attributes "
    "independent of the labels, one with 2V values and one with V values, the one with "
    "more values has the larger gain more often than not.",
    method=Method.SIMULATION,
    tags=("trees", "split", "bias"),
)
def gain_bias_many_values(rng, scale):
    g_few, g_many, _, _ = bias_trials(rng, BIAS_TRIALS * scale)
    check_preference(g_many, g_few, label="P(Gain(2V values) > Gain(V values))")


def check_preference(preferred: np.ndarray, other: np.ndarray, *, label: str) -> None:
    """``P(preferred > other | they differ) >= 1/2``, decided by Clopper-Pearson."""
    decided = preferred != other
    check_probability_at_least(int(np.count_nonzero(preferred > other)),
                               int(np.count_nonzero(decided)), 0.5, label=label)


@claim(
    id="tree.gain_ratio_reduces_bias",
    source="003 §2.2.2 (2.4)",
    statement="The gain ratio reduces information gain's preference for many-valued "
    "attributes: on pairs of label-independent attributes (V vs 2V values) where gain and "
    "gain ratio disagree, the gain ratio is the one choosing the attribute with fewer values.",
    method=Method.SIMULATION,
    tags=("trees", "split", "bias"),
)
def gain_ratio_reduces_bias(rng, scale):
    g_few, g_many, r_few, r_many = bias_trials(rng, BIAS_TRIALS * scale)
    gain_many = g_many > g_few
    ratio_many = r_many > r_few
    disagree = gain_many != ratio_many
    check_probability_at_least(int(np.count_nonzero(disagree & ~ratio_many)),
                               int(np.count_nonzero(disagree)), 0.5,
                               label="P(gain ratio picks fewer values | disagreement)")
    evidence.record("share choosing 2V values: gain, gain ratio",
                    (float(gain_many.mean()), float(ratio_many.mean())))


def check_node_statistics(model, criterion: str) -> None:
    """Every node's recorded impurity is the criterion of its recorded class counts
    (independent reference), and every internal node's recorded impurity decrease and
    split score equal its impurity minus the weighted impurities of its children
    (no missing values: rho = 1 and the children's weights add up to the node's)."""
    tree = model.tree_
    ref = ref_entropy if criterion == "entropy" else (lambda c: float(ref_gini(c)))
    for t in range(tree.node_count):
        counts = tree.class_counts[t]
        if counts.sum() > 0:
            assert_close(tree.impurity[t], ref(counts.tolist()), GAIN_AGREEMENT,
                         label="|impurity - criterion of the node's counts|",
                         context=f"node {t}: ")
        if tree.is_leaf[t]:
            continue
        kids = tree.children(t)
        W = tree.weighted_n_node_samples
        expected = tree.impurity[t] - float(np.sum(W[kids] * tree.impurity[kids])) / W[t]
        assert_close(tree.impurity_decrease[t], expected, GAIN_AGREEMENT,
                     label="|recorded decrease - parent minus weighted children|",
                     context=f"node {t} ({int(tree.n_node_samples[t])} samples): ")
        assert_close(tree.split_score[t], expected, GAIN_AGREEMENT,
                     label="|recorded split score - decrease|", context=f"node {t}: ")


def check_min_decrease_rule(data, criterion: str, min_decrease, *,
                            fit: Callable[..., object] = fit_tree) -> None:
    """The node statistics of a tree grown by ``fit`` with ``min_impurity_decrease``, and
    the rule itself: every split made reaches the minimum, and the root is split exactly
    when the unrestricted tree's root decrease reaches it. ``min_decrease="root"`` takes
    that root decrease itself, bit for bit, as the minimum (the tie)."""
    if min_decrease == "root":
        full = fit(data, criterion=criterion)
        root = full.tree_.impurity_decrease[0]
        min_decrease = float(root) if not full.tree_.is_leaf[0] and root > 0 else 0.05
    model = fit(data, criterion=criterion, min_impurity_decrease=min_decrease)
    check_node_statistics(model, criterion)
    tree = model.tree_
    internal = ~tree.is_leaf
    assert np.all(tree.impurity_decrease[internal] >= min_decrease), (
        f"a split with decrease {tree.impurity_decrease[internal].min()} < {min_decrease}")
    if min_decrease > 0:
        full = fit(data, criterion=criterion)
        root_clears = (not full.tree_.is_leaf[0]
                       and full.tree_.impurity_decrease[0] >= min_decrease)
        assert bool(internal[0]) == root_clears, (
            f"the root split is kept iff it clears the rule (minimum {min_decrease!r})")


@claim(
    id="tree.node_statistics",
    source="003 §2.2.1 (2.1)-(2.2); 003 §2.3 (2.5)-(2.6)",
    statement="At every node of a grown tree the recorded impurity is Ent(D) (2.1) or "
    "Gini(D) (2.5) of the node's class counts, and the recorded criterion of the chosen "
    "split is Gain(D, a) (2.2) or Gini(D) - Gini_index(D, a) (2.6): the node's impurity "
    "minus the size-weighted impurities of its children; with a minimum decrease every "
    "split made clears it (reaches it: a decrease equal to the minimum clears it), and the "
    "root is split exactly when its best split does.",
    method=Method.PROPERTY,
    tags=("trees", "split"),
)
@given(data=continuous_datasets(weighted=True), criterion=st.sampled_from(["entropy", "gini"]),
       min_decrease=st.sampled_from([0.0, 0.05, 0.2, "root"]))
def node_statistics(data, criterion, min_decrease):
    """``min_decrease="root"`` sets the minimum to the unrestricted tree's recorded root
    decrease itself, bit for bit: the tie, where "below the minimum" and "at most the
    minimum" part (a mutant stopping at ``<=`` survived the three fixed minima)."""
    check_min_decrease_rule(data, criterion, min_decrease)
