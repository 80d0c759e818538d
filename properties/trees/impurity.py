"""Impurity measures and split criteria: 003 §2.2–§2.3, (2.1)–(2.7).

Every claim compares :mod:`algorithms.trees` with an independent reference
(exact Fractions, :func:`math.log2`, :func:`scipy.stats.entropy`) and checks the
range/ordering statements at their edges (pure, uniform, proportional, unique).
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
from hypothesis import example, given
from hypothesis import strategies as st
from scipy.stats import entropy as scipy_entropy

from algorithms.trees import entropy, gain, gain_ratio, gini, gini_index, intrinsic_value
from mltheory import Method, claim, evidence
from mltheory.numeric import EXACT_ARITHMETIC, assert_close, assert_leq
from properties.trees.strategies import class_counts, contingency_tables
from properties.trees.support import (
    GAIN_AGREEMENT,
    exact_proportions,
    ref_entropy,
    ref_gain,
    ref_gini,
    ref_gini_index,
    ref_intrinsic_value,
)

# ---------------------------------------------------------------------------
# Entropy (2.1)
# ---------------------------------------------------------------------------


def check_entropy_range(counts: np.ndarray, *, ent=entropy, ceiling=math.log2) -> None:
    """0 <= Ent <= log2 K; 0 iff pure; log2 K iff uniform; equal to two references.
    ``ceiling(K)`` is the upper bound checked (log2 K)."""
    K = counts.shape[0]
    value = ent(counts)
    assert_close(value, ref_entropy(counts), GAIN_AGREEMENT, label="vs Fraction+log2")
    assert_close(value, scipy_entropy(counts, base=2), GAIN_AGREEMENT, label="vs scipy")
    top = ceiling(K)
    assert value >= 0.0, f"Ent = {value} < 0"
    if K > 1:
        assert_leq(value, top, label="Ent / log2|Y|", tol=EXACT_ARITHMETIC)
    pure = np.count_nonzero(counts) == 1
    uniform = np.all(counts == counts[0])
    assert (abs(value) <= 1e-12) == pure, f"Ent = {value} but pure = {pure}"
    assert (abs(value - top) <= 1e-12) == uniform, (
        f"Ent = {value}, log2 K = {top}, uniform = {uniform}")


@claim(
    id="tree.ent_range",
    source="003 §2.2.1 (2.1)",
    statement="Ent(D) = -sum_k p_k log2 p_k lies in [0, log2|Y|]; it is 0 exactly when D is "
    "pure (one class) and log2|Y| exactly when the classes are equally frequent.",
    method=Method.PROPERTY,
    tags=("trees", "impurity", "bound"),
)
@given(counts=class_counts())
@example(counts=np.array([5, 5, 5]))
@example(counts=np.array([0, 7]))
def ent_range(counts):
    check_entropy_range(counts)


def check_entropy_purity_order(counts: np.ndarray, i: int, j: int, amount: float, *,
                               ent=entropy, label: str = "Ent") -> None:
    """Moving mass from a class j to a class i with p_i >= p_j (a purer D) cannot
    raise the impurity ``ent`` (entropy and Gini are Schur-concave)."""
    p = counts / counts.sum()
    if p[i] < p[j]:
        i, j = j, i
    moved = amount * p[j]
    q = p.copy()
    q[i] += moved
    q[j] -= moved
    before, after = ent(p), ent(q)
    evidence.worst(f"{label}(purer) - {label}(D)", after - before)
    assert_leq(after, before, label=f"{label}(purer) / {label}(D)", tol=EXACT_ARITHMETIC)


@claim(
    id="tree.ent_lower_means_purer",
    source="003 §2.2.1",
    statement="The larger Ent(D), the less pure D: making D purer (moving probability from "
    "a class to an at-least-as-frequent one) never increases Ent(D).",
    method=Method.PROPERTY,
    tags=("trees", "impurity"),
)
@given(counts=class_counts(), data=st.data(), amount=st.floats(0.0, 1.0))
def ent_lower_means_purer(counts, data, amount):
    K = counts.shape[0]
    i = data.draw(st.integers(0, K - 1))
    j = data.draw(st.integers(0, K - 1))
    check_entropy_purity_order(counts, i, j, amount)


# ---------------------------------------------------------------------------
# Information gain (2.2)
# ---------------------------------------------------------------------------


def check_gain_nonnegative(table: np.ndarray, *, gain_fn=gain) -> None:
    """Gain >= 0, equal to the reference; 0 when every D^v has D's class proportions."""
    value = gain_fn(table)
    assert_close(value, ref_gain(table), GAIN_AGREEMENT, label="vs Fraction+log2")
    evidence.worst("-Gain (must stay <= 0)", -value)
    assert value >= -GAIN_AGREEMENT.atol, f"Gain = {value} < 0"
    parent = exact_proportions(table.sum(axis=0))
    proportional = all(exact_proportions(row) == parent for row in table if row.sum() > 0)
    if proportional:
        assert abs(value) <= GAIN_AGREEMENT.atol, f"proportional rows but Gain = {value}"


@claim(
    id="tree.gain_nonneg",
    source="003 §2.2.1 (2.2)",
    statement="Gain(D, a) = Ent(D) - sum_v |D^v|/|D| Ent(D^v) >= 0 for every attribute "
    "(splitting cannot increase the weighted entropy), and Gain = 0 when every D^v has "
    "the class proportions of D.",
    method=Method.PROPERTY,
    tags=("trees", "impurity"),
)
@given(table=contingency_tables())
@example(table=np.array([[2, 4], [1, 2], [0, 0]]))
def gain_nonneg(table):
    check_gain_nonnegative(table)


@claim(
    id="tree.gain_unique_attribute_maximal",
    source="003 §2.2.2",
    statement="Information gain favours attributes with many values: an attribute taking a "
    "different value on every sample attains the largest possible gain, Gain = Ent(D), "
    "whatever the labels.",
    method=Method.PROPERTY,
    tags=("trees", "impurity", "bias"),
)
@given(table=contingency_tables(max_values=12))
def gain_unique_attribute_maximal(table):
    labels = np.repeat(np.arange(table.shape[1])[None, :].repeat(table.shape[0], 0).ravel(),
                       table.ravel())
    unique = np.eye(table.shape[1])[labels]  # one row (value) per sample
    top = ref_entropy(table.sum(axis=0))
    assert_close(gain(unique), top, GAIN_AGREEMENT, label="Gain(unique) vs Ent(D)")
    assert_leq(gain(table), top, label="Gain(a) / Ent(D)", tol=GAIN_AGREEMENT)


# ---------------------------------------------------------------------------
# Intrinsic value and gain ratio (2.4)
# ---------------------------------------------------------------------------


def check_iv_range(table: np.ndarray, *, iv=intrinsic_value, ceiling=math.log2) -> None:
    """0 <= IV <= log2 V (V = non-empty values), = log2 V iff balanced; reference agrees.
    ``ceiling(V)`` is the upper bound checked (log2 V)."""
    sizes = table.sum(axis=1)
    V = int(np.count_nonzero(sizes))
    value = iv(table)
    assert_close(value, ref_intrinsic_value(table), GAIN_AGREEMENT, label="vs Fraction+log2")
    assert value >= -GAIN_AGREEMENT.atol, f"IV = {value} < 0"
    top = ceiling(V)
    if V > 1:
        assert_leq(value, top, label="IV / log2 V", tol=GAIN_AGREEMENT)
    nonempty = sizes[sizes > 0]
    balanced = bool(np.all(nonempty == nonempty[0]))
    assert (abs(value - top) <= 1e-9) == balanced, (
        f"IV = {value}, log2 V = {top}, balanced = {balanced}")


@claim(
    id="tree.iv_range",
    source="003 §2.2.2 (2.4)",
    statement="(Implied) IV(a) = -sum_v |D^v|/|D| log2(|D^v|/|D|) lies in [0, log2 V], "
    "reaches log2 V exactly for equally sized values, and so grows with the number of "
    "(balanced) values.",
    method=Method.PROPERTY,
    tags=("trees", "impurity", "bound"),
)
@given(table=contingency_tables(max_values=10))
@example(table=np.array([[1, 1], [2, 0], [0, 2]]))
def iv_range(table):
    check_iv_range(table)
    V = table.shape[0]
    balanced = [math.log2(v) for v in range(1, V + 2)]  # IV of v equal-sized values
    assert all(a < b for a, b in zip(balanced[:-1], balanced[1:], strict=True))
    assert_close(intrinsic_value(np.ones((V + 1, 1))), balanced[-1], GAIN_AGREEMENT,
                 label="IV(balanced) vs log2 V")


@claim(
    id="tree.gain_ratio_def",
    source="003 §2.2.2 (2.4)",
    statement="Gain_ratio(D, a) = Gain(D, a) / IV(a) is non-negative where defined; it is "
    "undefined (IV = 0) exactly when all samples share one value of a.",
    method=Method.PROPERTY,
    tags=("trees", "impurity"),
)
@given(table=contingency_tables())
def gain_ratio_def(table):
    V = int(np.count_nonzero(table.sum(axis=1)))
    if V == 1:
        try:
            gain_ratio(table)
        except ValueError:
            return
        raise AssertionError("gain_ratio returned a value although IV(a) = 0")
    value = gain_ratio(table)
    assert_close(value, ref_gain(table) / ref_intrinsic_value(table), GAIN_AGREEMENT,
                 label="vs reference Gain/IV")
    assert value >= -GAIN_AGREEMENT.atol, f"Gain_ratio = {value} < 0"


# ---------------------------------------------------------------------------
# Gini value and Gini index (2.5)–(2.7)
# ---------------------------------------------------------------------------


def _gini_ceiling(K: int) -> Fraction:
    return 1 - Fraction(1, K)


def check_gini_range(counts: np.ndarray, *, gini_fn=gini, ceiling=_gini_ceiling) -> None:
    """Gini equals the exact double sum of (2.5); 0 <= Gini <= 1 - 1/K; 0 iff pure;
    1 - 1/K iff uniform. ``ceiling(K)`` is the upper bound checked (exact 1 - 1/K)."""
    K = counts.shape[0]
    exact = ref_gini(counts)
    value = gini_fn(counts)
    assert_close(value, float(exact), EXACT_ARITHMETIC, label="vs exact double sum")
    bound = ceiling(K)
    top = np.float64(bound)
    assert value >= 0.0, f"Gini = {value} < 0"
    if K > 1:
        assert_leq(value, top, label="Gini / (1 - 1/K)", tol=EXACT_ARITHMETIC)
    assert (exact == 0) == (np.count_nonzero(counts) == 1), f"Gini = {exact}, counts {counts}"
    uniform = bool(np.all(counts == counts[0]))
    assert (exact == bound) == uniform, f"Gini = {exact}, uniform = {uniform}"


@claim(
    id="tree.gini_range",
    source="003 §2.3 (2.5)",
    statement="Gini(D) = sum_k sum_{k' != k} p_k p_k' = 1 - sum_k p_k^2 lies in "
    "[0, 1 - 1/|Y|], is 0 exactly for a pure D and 1 - 1/|Y| exactly for equal class "
    "frequencies; smaller Gini means a purer D.",
    method=Method.ENUMERATION,
    tags=("trees", "impurity", "bound"),
)
@given(counts=class_counts())
@example(counts=np.array([3, 3, 3, 3]))
def gini_range(counts):
    check_gini_range(counts)


def check_gini_index(table: np.ndarray, *, index_fn=gini_index) -> None:
    """Gini_index equals the exact weighted sum (2.6) and never exceeds Gini(D)."""
    exact = ref_gini_index(table)
    value = index_fn(table)
    assert_close(value, float(exact), EXACT_ARITHMETIC, label="vs exact (2.6)")
    parent = ref_gini(table.sum(axis=0))
    evidence.worst("Gini_index - Gini(D) (must stay <= 0)", float(exact - parent))
    assert_leq(value, float(parent), label="Gini_index / Gini(D)", tol=EXACT_ARITHMETIC)


@claim(
    id="tree.gini_index_def",
    source="003 §2.3 (2.6)",
    statement="Gini_index(D, a) = sum_v |D^v|/|D| Gini(D^v); (implied by concavity) it never "
    "exceeds Gini(D), with equality when every D^v has D's class proportions.",
    method=Method.ENUMERATION,
    tags=("trees", "impurity"),
)
@given(table=contingency_tables())
@example(table=np.array([[1, 2], [2, 4]]))
def gini_index_def(table):
    check_gini_index(table)


@claim(
    id="tree.gini_lower_means_purer",
    source="003 §2.3 (2.5)",
    statement="Like the entropy, the smaller Gini(D), the purer D: making D purer (moving "
    "probability from a class to an at-least-as-frequent one) never increases Gini(D).",
    method=Method.PROPERTY,
    tags=("trees", "impurity"),
)
@given(counts=class_counts(), data=st.data(), amount=st.floats(0.0, 1.0))
def gini_lower_means_purer(counts, data, amount):
    K = counts.shape[0]
    i = data.draw(st.integers(0, K - 1))
    j = data.draw(st.integers(0, K - 1))
    check_entropy_purity_order(counts, i, j, amount, ent=gini, label="Gini")
