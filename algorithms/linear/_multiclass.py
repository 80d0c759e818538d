"""Multi-class learning by splitting into binary problems (003 §1.8).

One-vs-one (OvO), one-vs-rest (OvR) and many-vs-many with error-correcting
output codes (ECOC), each wrapping any binary scikit-learn-style estimator.
Sub-problems are labelled ``1`` (positive) and ``0`` (negative); a fitted binary
estimator's *confidence* in the positive label is read from ``decision_function``
when it has one, else ``predict_proba(...)[:, positive] - 1/2``, else its
prediction mapped to ``+1/-1``.
"""

from __future__ import annotations

import itertools
import math

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin, clone
from sklearn.utils import Tags, get_tags

from algorithms._validation import (
    check_array_argument,
    check_bool,
    check_choice,
    check_int,
    make_rng,
    validate_classification,
    validate_features,
)

__all__ = [
    "DECODINGS",
    "ECOCClassifier",
    "OneVsOneClassifier",
    "OneVsRestClassifier",
    "binary_confidence",
    "check_code_matrix",
    "decode",
    "exhaustive_code_matrix",
    "minimum_code_distance",
    "random_code_matrix",
]

DECODINGS = ("hamming", "euclidean")
#: Most columns a random code may have: each column is one binary classifier to train,
#: and more than this many would take far longer than any use of the notes' ECOC needs.
MAX_COLUMNS = 10_000


def _check_estimator(estimator: object) -> None:
    if estimator is None or not (hasattr(estimator, "fit") and hasattr(estimator, "predict")):
        raise ValueError(
            f"estimator must be a binary classifier with fit and predict, got {estimator!r}."
        )


def delegate_tags(tags: Tags, estimator: object) -> Tags:
    """``tags`` of a wrapper, updated with what it inherits from its base ``estimator``.

    The wrapper hands ``X`` to the base unchanged, so it needs non-negative input when
    the base does, is as deterministic as the base and scores as (poorly) as the base.
    Input the wrapper itself refuses (sparse, NaN) is not delegated. A missing base, or
    one without scikit-learn tags, leaves ``tags`` as they are.
    """
    try:
        base = get_tags(estimator) if estimator is not None else None
    except (AttributeError, TypeError):
        base = None
    if base is None:
        return tags
    tags.input_tags.positive_only = base.input_tags.positive_only
    tags.non_deterministic = base.non_deterministic
    if base.classifier_tags is not None and tags.classifier_tags is not None:
        tags.classifier_tags.poor_score = base.classifier_tags.poor_score
    return tags


def _fit_binary(estimator: object, X: np.ndarray, positive: np.ndarray) -> object:
    """Clone ``estimator`` and fit it on labels ``1`` (positive) / ``0`` (negative)."""
    return clone(estimator).fit(X, positive.astype(np.int64))


def binary_confidence(fitted: object, X: np.ndarray) -> np.ndarray:
    """Confidence of a fitted binary estimator in label ``1``: > 0 means it predicts 1.

    ``decision_function`` (sign convention of scikit-learn: positive means
    ``classes_[1]``), else ``predict_proba[:, index of 1] - 1/2``, else the
    prediction mapped to ``+1/-1``.
    """
    classes = list(getattr(fitted, "classes_", [0, 1]))
    if hasattr(fitted, "decision_function"):
        s = np.asarray(fitted.decision_function(X), dtype=float).reshape(X.shape[0], -1)
        if s.shape[1] != 1:
            raise ValueError("estimator must be binary: decision_function gave several columns.")
        s = s[:, 0]
        return s if classes[-1] == 1 else -s
    if hasattr(fitted, "predict_proba"):
        P = np.asarray(fitted.predict_proba(X), dtype=float)
        return P[:, classes.index(1)] - 0.5
    return np.where(np.asarray(fitted.predict(X)) == 1, 1.0, -1.0)


# --------------------------------------------------------------------------- codes


def check_code_matrix(code: object, n_classes: int, *, name: str = "code") -> np.ndarray:
    """Validate an ECOC code matrix of shape (n_classes, L) with entries in {-1, 0, +1}.

    Every column must contain both a +1 and a -1 (each column is a binary problem
    with two non-empty sides); no two rows may be equal (the classes would be
    indistinguishable).
    """
    try:
        C = np.asarray(code, dtype=float)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"{name} must be a numeric array with entries in {{-1, 0, 1}}.") from exc
    if C.ndim != 2 or C.shape[0] != n_classes or C.shape[1] < 1:
        raise ValueError(
            f"{name} must have shape (n_classes={n_classes}, n_columns >= 1), got {C.shape}."
        )
    if not np.all(np.isin(C, (-1.0, 0.0, 1.0))):
        raise ValueError(f"{name} entries must be -1, 0 or +1.")
    bad = np.flatnonzero(~(np.any(C > 0, axis=0) & np.any(C < 0, axis=0)))
    if bad.size:
        raise ValueError(
            f"{name} column {int(bad[0])} does not contain both +1 and -1: "
            "every column must define a two-sided binary problem."
        )
    if np.unique(C, axis=0).shape[0] != n_classes:
        raise ValueError(f"{name} has two equal rows: those classes cannot be told apart.")
    return C.astype(np.int8)


def random_code_matrix(
    n_classes: int,
    n_columns: int,
    *,
    ternary: bool = False,
    random_state: object = None,
    max_tries: int = 1000,
) -> np.ndarray:
    """A random valid code matrix: entries uniform on {-1, +1} (or {-1, 0, +1}).

    Columns lacking a +1 or a -1 are redrawn; the whole matrix is redrawn while two
    rows coincide. Raises ValueError if no valid matrix is found in ``max_tries``.
    """
    M = check_int(n_classes, "n_classes", low=1)
    L = check_int(n_columns, "n_columns", low=1, high=MAX_COLUMNS)
    if M < 2:
        raise ValueError(f"n_classes must be at least 2, got {n_classes!r}.")
    if not ternary and 2**L < M:
        raise ValueError(
            f"n_columns={L} binary columns give at most {2**L} distinct rows, fewer than "
            f"n_classes={M}."
        )
    rng = make_rng(random_state)
    values = np.array([-1, 0, 1] if ternary else [-1, 1], dtype=np.int8)
    for _ in range(max_tries):
        C = rng.choice(values, size=(M, L))
        for _ in range(max_tries):
            bad = ~(np.any(C > 0, axis=0) & np.any(C < 0, axis=0))
            if not bad.any():
                break
            C[:, bad] = rng.choice(values, size=(M, int(bad.sum())))
        else:
            continue
        if np.unique(C, axis=0).shape[0] == M:
            return C
    raise ValueError(
        f"could not draw a valid {M} x {L} code matrix in {max_tries} tries; use more columns."
    )


def exhaustive_code_matrix(n_classes: int) -> np.ndarray:
    """The exhaustive binary code: all ``2^{M-1} - 1`` two-sided splits of M classes.

    Class 0 is +1 in every column; class ``k >= 1`` is +1 in column ``c`` iff bit
    ``k - 1`` of ``c`` is set, ``c = 0 .. 2^{M-1} - 2``. Any two rows differ in
    exactly ``2^{M-2}`` columns.
    """
    M = check_int(n_classes, "n_classes", low=1)
    if not 2 <= M <= 12:
        raise ValueError(f"n_classes must lie in [2, 12] for an exhaustive code, got {M}.")
    # Column c (0 <= c < 2^{M-1} - 1): class k >= 1 is +1 iff bit k-1 of c is set; class 0
    # is +1 throughout. c = 2^{M-1} - 1 (every class +1) is one-sided and left out.
    cols = np.arange(2 ** (M - 1) - 1)
    bits = (cols[None, :] >> np.arange(M - 1)[:, None]) & 1  # (M-1, L)
    C = np.vstack([np.ones((1, cols.size), dtype=np.int8), np.where(bits == 1, 1, -1)])
    return C.astype(np.int8)


def minimum_code_distance(code: object) -> float:
    """Smallest Hamming distance between two rows (0 vs +-1 counts 1/2, as in decoding)."""
    C = np.asarray(code, dtype=float)
    D = 0.5 * np.sum(np.abs(C[:, None, :] - C[None, :, :]), axis=2)  # |1-(-1)|/2 = 1, |0-1|/2
    iu = np.triu_indices(C.shape[0], 1)
    return float(D[iu].min())


def decode(bits: object, code: object, *, decoding: str = "hamming") -> np.ndarray:
    """Index of the nearest codeword for each row of predicted bits.

    Parameters
    ----------
    bits : array (N, L) of +-1, the binary classifiers' predictions
    code : array (M, L) in {-1, 0, +1}
    decoding : {"hamming", "euclidean"}
        Hamming: ``sum_j (1 - b_j c_j) / 2`` (a 0 entry costs 1/2 whatever the bit);
        Euclidean: ``||b - c||_2``. Ties go to the lowest class index.
    """
    check_choice(decoding, "decoding", DECODINGS)
    C = check_array_argument(code, "code", ndim=2, real=True)
    B = check_array_argument(bits, "bits", shape=(None, C.shape[1]), real=True)
    if decoding == "hamming":
        dist = 0.5 * (C.shape[1] - B @ C.T)
    else:
        sq = (B * B).sum(1)[:, None] - 2.0 * B @ C.T + (C * C).sum(1)[None, :]
        dist = np.sqrt(np.maximum(sq, 0.0))
    return np.argmin(dist, axis=1)


# --------------------------------------------------------------------------- wrappers


class _MulticlassBase(ClassifierMixin, BaseEstimator):
    def __sklearn_tags__(self):
        return delegate_tags(super().__sklearn_tags__(), self.estimator)

    def _validate_fit(self, X: object, y: object) -> tuple[np.ndarray, np.ndarray]:
        _check_estimator(self.estimator)
        return validate_classification(self, X, y, min_classes=2)

    def _validate_predict(self, X: object) -> np.ndarray:
        return validate_features(self, X, reset=False)

    def predict(self, X: object) -> np.ndarray:
        """The predicted class of each sample."""
        index = self._predict_index(self._validate_predict(X))
        return self.classes_[index]

    def _binary_scores(self, scores: np.ndarray) -> np.ndarray:
        """Two classes: one column, positive for ``classes_[1]`` (scikit-learn's convention)."""
        return scores[:, 1] - scores[:, 0] if scores.shape[1] == 2 else scores


class OneVsRestClassifier(_MulticlassBase):
    """One-vs-rest: M binary problems "class i vs all others" (003 §1.8).

    Parameters
    ----------
    estimator : binary classifier (cloned for every sub-problem)

    Attributes
    ----------
    estimators_ : list of M fitted estimators (one per class, also when M = 2)
    classes_ : ndarray (M,)

    Notes
    -----
    Prediction: the class whose classifier is most confident in "positive"
    (when exactly one says positive, it is that one; when several do, the most
    confident wins; when none does, the least negative).
    """

    def __init__(self, estimator: object = None) -> None:
        self.estimator = estimator

    def fit(self, X: object, y: object) -> OneVsRestClassifier:
        X_arr, idx = self._validate_fit(X, y)
        self.estimators_ = [
            _fit_binary(self.estimator, X_arr, idx == i) for i in range(self.classes_.size)
        ]
        return self

    def decision_function(self, X: object) -> np.ndarray:
        """Per-class confidences, shape (N, M); with two classes (N,), confidence of
        ``classes_[1]`` minus that of ``classes_[0]``."""
        X_arr = self._validate_predict(X)
        scores = np.column_stack([binary_confidence(e, X_arr) for e in self.estimators_])
        return self._binary_scores(scores)

    def _predict_index(self, X_arr: np.ndarray) -> np.ndarray:
        scores = np.column_stack([binary_confidence(e, X_arr) for e in self.estimators_])
        return np.argmax(scores, axis=1)


class OneVsOneClassifier(_MulticlassBase):
    """One-vs-one: one binary problem for each of the M(M-1)/2 class pairs (003 §1.8).

    Parameters
    ----------
    estimator : binary classifier (cloned for every pair)

    Attributes
    ----------
    estimators_ : list of M(M-1)/2 fitted estimators, in the order of ``pairs_``
    pairs_ : list of (i, j) with i < j; estimator k is trained on classes i
        (label 1) and j (label 0) only

    Notes
    -----
    Prediction by voting: each pair votes for one of its two classes; the class
    with most votes wins. Ties are broken by the summed confidences, squashed to
    ``c / (3 (|c| + 1))`` in (-1/3, 1/3) so they never overturn a vote difference,
    then by the lowest class index.
    """

    def __init__(self, estimator: object = None) -> None:
        self.estimator = estimator

    def fit(self, X: object, y: object) -> OneVsOneClassifier:
        X_arr, idx = self._validate_fit(X, y)
        self.pairs_ = list(itertools.combinations(range(self.classes_.size), 2))
        self.estimators_ = []
        for i, j in self.pairs_:
            mask = (idx == i) | (idx == j)
            self.estimators_.append(_fit_binary(self.estimator, X_arr[mask], idx[mask] == i))
        return self

    def votes(self, X: object) -> tuple[np.ndarray, np.ndarray]:
        """Vote counts (N, M) and summed confidences (N, M)."""
        return self._votes(self._validate_predict(X))

    def _votes(self, X_arr: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        M, N = self.classes_.size, X_arr.shape[0]
        votes = np.zeros((N, M))
        conf = np.zeros((N, M))
        for (i, j), est in zip(self.pairs_, self.estimators_, strict=True):
            s = binary_confidence(est, X_arr)
            votes[:, i] += s > 0
            votes[:, j] += s <= 0
            conf[:, i] += s
            conf[:, j] -= s
        return votes, conf

    def decision_function(self, X: object) -> np.ndarray:
        """Votes plus squashed confidences, shape (N, M) (argmax is the prediction); with
        two classes (N,), positive for ``classes_[1]``."""
        votes, conf = self._votes(self._validate_predict(X))
        return self._binary_scores(votes + conf / (3.0 * (np.abs(conf) + 1.0)))

    def _predict_index(self, X_arr: np.ndarray) -> np.ndarray:
        votes, conf = self._votes(X_arr)
        return np.argmax(votes + conf / (3.0 * (np.abs(conf) + 1.0)), axis=1)


class ECOCClassifier(_MulticlassBase):
    """Many-vs-many with an error-correcting output code (003 §1.8).

    Parameters
    ----------
    estimator : binary classifier (cloned for every column)
    code_matrix : array (M, L) in {-1, 0, +1} or None
        Row i is the codeword of the i-th class of ``classes_`` (sorted labels);
        column j defines binary problem j: classes with +1 are positive, -1
        negative, 0 unused. ``None`` draws a random matrix.
    n_columns : int or None
        Columns of the random matrix; ``None`` means ``ceil(10 log2 M)``.
    ternary : bool, default False
        Random matrix entries from {-1, 0, +1} instead of {-1, +1}.
    decoding : {"hamming", "euclidean"}
        Distance between the predicted bit vector and the codewords (see :func:`decode`).
    random_state : None, int or Generator
        Seed of the random code matrix.

    Attributes
    ----------
    code_matrix_ : ndarray (M, L) of int8
    estimators_ : list of L fitted estimators
    """

    def __init__(
        self,
        estimator: object = None,
        *,
        code_matrix: object = None,
        n_columns: int | None = None,
        ternary: bool = False,
        decoding: str = "hamming",
        random_state: object = None,
    ) -> None:
        self.estimator = estimator
        self.code_matrix = code_matrix
        self.n_columns = n_columns
        self.ternary = ternary
        self.decoding = decoding
        self.random_state = random_state

    def fit(self, X: object, y: object) -> ECOCClassifier:
        check_choice(self.decoding, "decoding", DECODINGS)
        ternary = check_bool(self.ternary, "ternary")
        X_arr, idx = self._validate_fit(X, y)
        M = self.classes_.size
        if self.code_matrix is not None:
            C = check_code_matrix(self.code_matrix, M, name="code_matrix")
        else:
            L = (
                max(math.ceil(10 * math.log2(M)), 1)
                if self.n_columns is None
                else check_int(self.n_columns, "n_columns", low=1)
            )
            C = random_code_matrix(M, L, ternary=ternary, random_state=self.random_state)
        self.code_matrix_ = C
        self.estimators_ = []
        for col in C.T:
            sign = col[idx]
            used = sign != 0
            self.estimators_.append(_fit_binary(self.estimator, X_arr[used], sign[used] > 0))
        return self

    def predicted_bits(self, X: object) -> np.ndarray:
        """The binary classifiers' predictions as a (N, L) array of +-1."""
        return self._bits(self._validate_predict(X))

    def _bits(self, X_arr: np.ndarray) -> np.ndarray:
        return np.column_stack(
            [np.where(binary_confidence(e, X_arr) > 0, 1.0, -1.0) for e in self.estimators_]
        )

    def _predict_index(self, X_arr: np.ndarray) -> np.ndarray:
        return decode(self._bits(X_arr), self.code_matrix_, decoding=self.decoding)
