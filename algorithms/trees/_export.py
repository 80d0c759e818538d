"""A text rendering of a fitted tree (one line per node, indented by depth)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from algorithms._validation import check_fitted, check_int

__all__ = ["export_text"]


#: 17 significant digits identify every float64; more only print noise.
MAX_DECIMALS = 17


def _names(given: Sequence[str] | None, n: int, prefix: str, what: str) -> list[str]:
    if given is None:
        return [f"{prefix}{i}" for i in range(n)]
    names = [str(v) for v in given]
    if len(names) != n:
        raise ValueError(f"{what} must have {n} entries, got {len(names)}.")
    return names


def export_text(
    estimator: object,
    *,
    feature_names: Sequence[str] | None = None,
    class_names: Sequence[str] | None = None,
    decimals: int = 3,
) -> str:
    """Render a fitted :class:`DecisionTreeClassifier` or :class:`DecisionTreeRegressor`.

    Each internal node prints its test (``x <= t`` / ``x > t`` for a continuous
    attribute, ``x == v`` for each value of a discrete one) and each leaf its prediction
    with the weighted number of training samples that reached it and the node impurity.

    Parameters
    ----------
    estimator : a fitted tree estimator of this family
    feature_names : sequence of str, optional (default ``x0, x1, ...``)
    class_names : sequence of str, optional (default ``str(classes_)``)
    decimals : int >= 0, default 3

    Returns
    -------
    str
    """
    check_fitted(estimator, "tree_")
    decimals = check_int(decimals, "decimals", low=0, high=MAX_DECIMALS)
    tree = estimator.tree_
    features = _names(feature_names, estimator.n_features_in_, "x", "feature_names")
    classes = getattr(estimator, "classes_", None)
    if classes is not None:
        classes = _names(class_names, classes.shape[0], "", "class_names") if class_names \
            else [str(c) for c in classes]

    def leaf(t: int) -> str:
        stats = (
            f"samples={tree.weighted_n_node_samples[t]:.{decimals}g}, "
            f"impurity={tree.impurity[t]:.{decimals}f}"
        )
        if classes is None:
            return f"value: {tree.value[t, 0]:.{decimals}f} ({stats})"
        return f"class: {classes[int(np.argmax(tree.value[t]))]} ({stats})"

    lines: list[str] = []

    def visit(t: int, depth: int) -> None:
        pad = "|   " * depth
        if tree.is_leaf[t]:
            lines.append(f"{pad}|--- {leaf(t)}")
            return
        name = features[tree.feature[t]]
        children = tree.children(t)
        subset = tree.subset(t)
        if subset is not None:
            shown = "{" + ", ".join(f"{v:.{decimals}g}" for v in subset) + "}"
            tests = [f"{name} in {shown}", f"{name} not in {shown}"]
        elif tree.categorical[t]:
            tests = [f"{name} == {v:.{decimals}g}" for v in tree.domains[tree.feature[t]]]
        else:
            thr = f"{tree.threshold[t]:.{decimals}f}"
            tests = [f"{name} <= {thr}", f"{name} >  {thr}"]
        for test, child in zip(tests, children, strict=True):
            lines.append(f"{pad}|--- {test}")
            visit(int(child), depth + 1)

    visit(0, 0)
    return "\n".join(lines) + "\n"
