"""Multivariate (oblique) decision trees (003 §2.6): every internal node is a linear
test ``sum_i w_i a_i <= t`` learned by a linear classifier."""

from __future__ import annotations

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from algorithms.trees import DecisionTreeClassifier, ObliqueDecisionTreeClassifier
from mltheory import Method, claim, evidence
from mltheory.stats import check_probability_at_least
from mltheory.strategies import labelled_datasets, separable_datasets
from properties.trees.generate import minimum_training_errors
from properties.trees.strategies import TreeData


def route_by_linear_tests(model: ObliqueDecisionTreeClassifier, x: np.ndarray) -> int:
    """Leaf of ``x``, following ``w^T x <= t`` from the root, one node at a time."""
    node = 0
    while model.children_[node, 0] >= 0:
        go_right = float(model.coef_[node] @ x) > model.threshold_[node]
        node = int(model.children_[node, int(go_right)])
    return node


def check_linear_tests(model, X: np.ndarray, y: np.ndarray, rng: np.random.Generator) -> None:
    """Internal nodes are linear tests (routing recomputed sample by sample equals the
    model's), leaves are convex (points between two training points of one leaf stay in
    it), and the grown tree makes only the training errors identical samples force."""
    leaves = model.apply(X)
    for x, leaf in zip(X, leaves, strict=True):
        assert route_by_linear_tests(model, x) == leaf, "routing is not by the linear tests"
    internal = np.flatnonzero(model.children_[:, 0] >= 0)
    assert np.all(np.isfinite(model.threshold_[internal]))
    assert np.all(np.any(model.coef_[internal] != 0, axis=1)), "a test with w = 0"
    pairs = 0
    for leaf in np.unique(leaves):
        members = X[leaves == leaf]
        if members.shape[0] < 2:
            continue
        a, b = members[rng.integers(0, members.shape[0], size=(2, 8))]
        lam = rng.random((8, 1))
        between = model.apply(lam * a + (1 - lam) * b)
        pairs += 8
        assert np.all(between == leaf), "a leaf region is not convex"
    evidence.worst("convex combinations checked", pairs)
    data = TreeData(X, y, np.zeros(X.shape[1], bool), np.ones(X.shape[0]))
    errors = float(np.sum(model.predict(X) != y))
    assert errors == minimum_training_errors(data), (errors, minimum_training_errors(data))


@claim(
    id="tree.multivariate_linear_tests",
    source="003 §2.6",
    statement="In a multivariate decision tree every internal node is a linear classifier "
    "sum_i w_i a_i <= t over several attributes: samples are routed by these tests, each "
    "leaf is a convex region (an intersection of half-spaces), and the tree still grows "
    "until only identical samples with different labels remain mixed (or, with a depth "
    "limit, is that tree cut at the limit).",
    method=Method.PROPERTY,
    tags=("trees", "multivariate"),
)
@given(data=labelled_datasets(max_samples=25) | separable_datasets(max_samples=25),
       node_model=st.sampled_from(["lda", "logistic"]), seed=st.integers(0, 2**16),
       depth=st.integers(1, 3))
def multivariate_linear_tests(data, node_model, seed, depth):
    model = ObliqueDecisionTreeClassifier(node_model=node_model).fit(data.X, data.y)
    check_linear_tests(model, data.X, data.y, np.random.default_rng(seed))
    limited = ObliqueDecisionTreeClassifier(node_model=node_model, max_depth=depth)
    check_depth_limit(model, limited.fit(data.X, data.y), depth)


def check_depth_structure(model) -> None:
    """The recorded depths: 0 at the root, a child one below its parent."""
    assert model.depth_[0] == 0, f"root recorded at depth {model.depth_[0]}"
    parents = np.flatnonzero(model.children_[:, 0] >= 0)
    for side in (0, 1):
        children = model.children_[parents, side]
        assert np.array_equal(model.depth_[children], model.depth_[parents] + 1), (
            "a child not one level below its parent")


def _internal_tests(model, below: float) -> list:
    nodes = np.flatnonzero((model.children_[:, 0] >= 0) & (model.depth_ < below))
    return sorted((int(model.depth_[n]), float(model.threshold_[n]),
                   tuple(model.coef_[n].tolist())) for n in nodes)


def check_depth_limit(full, limited, depth: int) -> None:
    """Growth is node by node, so ``max_depth=depth`` gives the unlimited tree cut at
    that depth: the same tests above it, the same number of nodes down to it."""
    check_depth_structure(full)
    check_depth_structure(limited)
    assert int(limited.depth_.max()) <= depth, "deeper than max_depth"
    assert _internal_tests(limited, np.inf) == _internal_tests(full, depth), (
        f"max_depth={depth} changed the tests above that depth")
    n_full = int(np.count_nonzero(full.depth_ <= depth))
    assert limited.depth_.size == n_full, (
        f"max_depth={depth}: {limited.depth_.size} nodes, the unlimited tree has {n_full} "
        "down to that depth")


#: Problems per run; samples per problem before the margin band is removed.
OBLIQUE_TRIALS, OBLIQUE_SAMPLES = 60, 100


@claim(
    id="tree.multivariate_smaller_trees",
    source="003 §2.6",
    statement="Using linear combinations of attributes at the nodes pays off on oblique "
    "class boundaries: on data separated by a random hyperplane (a band of width 0.2 "
    "around it removed), the multivariate tree usually has fewer internal nodes than the "
    "univariate tree grown on the same data.",
    method=Method.SIMULATION,
    tags=("trees", "multivariate"),
)
def multivariate_smaller_trees(rng, scale):
    sizes = oblique_and_axis_sizes(rng, OBLIQUE_TRIALS * scale)
    evidence.record("mean internal nodes: multivariate, univariate",
                    (float(sizes[:, 0].mean()), float(sizes[:, 1].mean())))
    check_probability_at_least(int(np.count_nonzero(sizes[:, 0] < sizes[:, 1])), sizes.shape[0],
                               0.5, label="P(multivariate tree has fewer internal nodes)")


def oblique_and_axis_sizes(rng: np.random.Generator, trials: int) -> np.ndarray:
    """(internal nodes of the multivariate tree, of the univariate tree) per problem."""
    sizes = []
    for _ in range(trials):
        d = int(rng.integers(2, 5))
        w = rng.normal(size=d)
        w /= np.linalg.norm(w)
        X = rng.uniform(-1, 1, size=(OBLIQUE_SAMPLES, d))
        X = X[np.abs(X @ w) > 0.1]
        y = (X @ w > 0).astype(int)
        if np.unique(y).size < 2:
            continue
        oblique = ObliqueDecisionTreeClassifier(node_model="logistic").fit(X, y)
        axis = DecisionTreeClassifier().fit(X, y)
        n_oblique = int(np.count_nonzero(oblique.children_[:, 0] >= 0))
        n_axis = int(np.count_nonzero(~axis.tree_.is_leaf))
        sizes.append((n_oblique, n_axis))
    return np.asarray(sizes)
