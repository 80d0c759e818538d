"""Claims on multi-class learning by binary splitting (003 §1.8: OvO, OvR, MvM/ECOC).

The note only names the three strategies and refers to Zhou's book (pp. 63-66) for
their details; the claims below are the properties those strategies are defined by:
how many binary problems each trains and on which samples, that decoding recovers
the class when the binary classifiers are right, and the error-correcting power of a
code with minimum Hamming distance d.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable

import numpy as np
from hypothesis import given
from hypothesis import strategies as st
from sklearn.base import BaseEstimator, ClassifierMixin

from algorithms.linear import (
    ECOCClassifier,
    OneVsOneClassifier,
    OneVsRestClassifier,
    decode,
    exhaustive_code_matrix,
    minimum_code_distance,
    random_code_matrix,
)
from mltheory import Method, claim, evidence


class RecordingClassifier(ClassifierMixin, BaseEstimator):
    """Binary base learner that only remembers what it was trained on."""

    def fit(self, X, y):
        self.X_, self.y_ = np.asarray(X), np.asarray(y)
        self.classes_ = np.unique(self.y_)
        return self

    def decision_function(self, X):
        return np.zeros(np.asarray(X).shape[0])

    def predict(self, X):
        return np.full(np.asarray(X).shape[0], self.classes_[0])


class Memoriser(ClassifierMixin, BaseEstimator):
    """Binary base learner that is right on every training point: 1-nearest neighbour,
    confidence +1 for label 1 and -1 for label 0 (vectorised, no tie-breaking issues
    on distinct points)."""

    def fit(self, X, y):
        self.X_, self.y_ = np.asarray(X, dtype=float), np.asarray(y)
        self.classes_ = np.unique(self.y_)
        return self

    def decision_function(self, X):
        X = np.asarray(X, dtype=float)
        sq = (X * X).sum(1)[:, None] - 2 * X @ self.X_.T + (self.X_ * self.X_).sum(1)[None, :]
        return np.where(self.y_[np.argmin(sq, axis=1)] == 1, 1.0, -1.0)

    def predict(self, X):
        return np.where(self.decision_function(X) > 0, 1, 0)


def _enumerated_samples(rng, M: int) -> tuple[np.ndarray, np.ndarray]:
    """Class sizes 1..6 drawn per class; feature 0 is the sample's id (to trace rows)."""
    counts = rng.integers(1, 7, size=M)
    y = rng.permutation(np.repeat(np.arange(M), counts))
    X = np.column_stack([np.arange(y.size), rng.standard_normal(y.size)])
    return X, y


def _recorded_fits(rng, scale: int, wrapper, name: str, expected: Callable[[int], int]):
    """For M = 2..8 classes, ``3 * scale`` samples each: fit ``wrapper`` around a
    :class:`RecordingClassifier`, check it trained ``expected(M)`` classifiers and yield
    ``(M, y, fitted wrapper)``."""
    for M in range(2, 9):
        for _ in range(3 * scale):
            X, y = _enumerated_samples(rng, M)
            fitted = wrapper(RecordingClassifier()).fit(X, y)
            if len(fitted.estimators_) != expected(M):
                raise AssertionError(f"M = {M}: {name} trained {len(fitted.estimators_)} "
                                     f"classifiers, claimed {expected(M)}")
            yield M, y, fitted


def check_ovo_training(rng, scale: int, expected: Callable[[int], int] = lambda M: M * (M - 1) // 2
                       ) -> None:
    """OvO fits ``expected(M)`` classifiers, one per pair, each on exactly that pair's samples."""
    for M, y, ovo in _recorded_fits(rng, scale, OneVsOneClassifier, "OvO", expected):
        pairs = set()
        total = 0
        for (i, j), est in zip(ovo.pairs_, ovo.estimators_, strict=True):
            ids = est.X_[:, 0].astype(int)
            want = np.flatnonzero((y == i) | (y == j))
            if not np.array_equal(np.sort(ids), want):
                raise AssertionError(f"pair ({i}, {j}) trained on rows {ids}, not {want}")
            if not np.array_equal(est.y_ == 1, y[ids] == i):
                raise AssertionError(f"pair ({i}, {j}): positives are not class {i}")
            pairs.add((i, j))
            total += ids.size
        if pairs != set(itertools.combinations(range(M), 2)):
            raise AssertionError(f"M = {M}: pairs {sorted(pairs)} are not all class pairs")
        evidence.worst("OvO total training size / ((M-1) N)", total / ((M - 1) * y.size))
        evidence.add_examples(1)
    evidence.note("M = 2..8 classes, class sizes 1..6, "
                  f"{3 * scale} random samples per M; every pair checked")


@claim(
    id="multiclass.ovo_trains_pairwise_classifiers",
    source="003 §1.8",
    statement="One-vs-one trains N(N - 1)/2 binary classifiers for N classes, one for each "
    "pair of classes, each on the samples of its two classes only.",
    method=Method.ENUMERATION,
    tags=("multiclass", "linear"),
)
def ovo_trains_pairwise_classifiers(rng, scale):
    check_ovo_training(rng, scale)


def check_ovr_training(rng, scale: int, expected: Callable[[int], int] = lambda M: M) -> None:
    """OvR fits ``expected(M)`` classifiers; classifier i sees every sample, class i positive."""
    for _, y, ovr in _recorded_fits(rng, scale, OneVsRestClassifier, "OvR", expected):
        for i, est in enumerate(ovr.estimators_):
            ids = est.X_[:, 0].astype(int)
            if not np.array_equal(np.sort(ids), np.arange(y.size)):
                raise AssertionError(f"classifier {i} did not see every sample")
            if not np.array_equal(est.y_ == 1, y[ids] == i):
                raise AssertionError(f"classifier {i}: positives are not class {i}")
        evidence.add_examples(1)
    evidence.note(f"M = 2..8 classes, class sizes 1..6, {3 * scale} random samples per M")


@claim(
    id="multiclass.ovr_trains_one_classifier_per_class",
    source="003 §1.8",
    statement="One-vs-rest trains N binary classifiers for N classes, classifier i taking "
    "class i as positive and all other samples as negative.",
    method=Method.ENUMERATION,
    tags=("multiclass", "linear"),
)
def ovr_trains_one_classifier_per_class(rng, scale):
    check_ovr_training(rng, scale)


def default_wrappers(M: int, seed: int) -> dict[str, object]:
    nn = Memoriser()
    wrappers = {
        "OvR": OneVsRestClassifier(nn),
        "OvO": OneVsOneClassifier(nn),
        "ECOC random binary (Hamming)": ECOCClassifier(nn, random_state=seed),
        "ECOC random binary (Euclidean)": ECOCClassifier(nn, random_state=seed,
                                                         decoding="euclidean"),
    }
    if M >= 3:
        wrappers["ECOC exhaustive"] = ECOCClassifier(nn, code_matrix=exhaustive_code_matrix(M))
    return wrappers


def check_decoding_with_correct_base(
    M: int, n: int, d: int, seed: int,
    wrappers: Callable[[int, int], dict[str, object]] = default_wrappers,
) -> None:
    """With memorising base learners (correct on every training point of their sub-problem),
    each wrapper must return the true class of every training point."""
    rng = np.random.default_rng(seed)
    y = np.concatenate([np.arange(M), rng.integers(0, M, size=n)])
    X = rng.standard_normal((y.size, d))  # distinct rows with probability one
    for name, est in wrappers(M, seed).items():
        est.fit(X, y)
        pred = est.predict(X)
        wrong = np.flatnonzero(pred != y)
        evidence.worst(f"{name}: training errors", wrong.size)
        if wrong.size:
            i = int(wrong[0])
            raise AssertionError(f"{name} with M = {M}: sample {i} of class {y[i]} decoded as "
                                 f"{pred[i]} although every base classifier is correct on it")


@claim(
    id="multiclass.decoding_recovers_class_from_correct_classifiers",
    source="003 §1.8",
    statement="When every binary classifier is right on a sample, OvR (the confident positive), "
    "OvO (majority vote) and ECOC with a binary code (nearest codeword, Hamming or Euclidean) "
    "all return the sample's class.",
    method=Method.PROPERTY,
    tags=("multiclass", "linear"),
)
@given(M=st.integers(2, 6), n=st.integers(0, 20), d=st.integers(1, 3),
       seed=st.integers(0, 2**32 - 1))
def decoding_recovers_class_from_correct_classifiers(M, n, d, seed):
    check_decoding_with_correct_base(M, n, d, seed)


class NearestMeanScorer(ClassifierMixin, BaseEstimator):
    """Binary base learner with real-valued confidences: ||x - m_0||^2 - ||x - m_1||^2
    (positive: nearer the mean of label 1), so ties between classes have probability 0."""

    def fit(self, X, y):
        X, y = np.asarray(X, dtype=float), np.asarray(y)
        self.classes_ = np.unique(y)
        self.means_ = np.stack([X[y == c].mean(axis=0) for c in self.classes_])
        return self

    def decision_function(self, X):
        X = np.asarray(X, dtype=float)
        sq = ((X[:, None, :] - self.means_[None, :, :]) ** 2).sum(-1)
        return sq[:, 0] - sq[:, -1]

    def predict(self, X):
        return self.classes_[(self.decision_function(X) > 0).astype(int)]


def check_decision_scores(M: int, n: int, d: int, seed: int, ovr=OneVsRestClassifier,
                          ovo=OneVsOneClassifier) -> None:
    """OvR's scores are its M classifiers' confidences and OvO's its vote counts (plus
    confidences squashed below one vote); both predict the class of the largest score.
    With M = 2 the score is one column, class 1's minus class 0's, positive exactly when
    class 1 is predicted (scikit-learn's convention)."""
    rng = np.random.default_rng(seed)
    y = np.concatenate([np.arange(M), rng.integers(0, M, size=n)])
    X = rng.standard_normal((y.size, d)) + y[:, None]
    test = rng.standard_normal((30, d)) * 2.0 + M / 2
    for name, est in (("OvR", ovr(NearestMeanScorer())), ("OvO", ovo(NearestMeanScorer()))):
        est.fit(X, y)
        D = np.asarray(est.decision_function(test), dtype=float)
        pred = est.predict(test)
        if M == 2:
            if D.shape != (test.shape[0],):
                raise AssertionError(f"{name}, two classes: scores of shape {D.shape}, "
                                     f"expected ({test.shape[0]},)")
            chosen = est.classes_[(D > 0).astype(int)]
        else:
            if D.shape != (test.shape[0], M):
                raise AssertionError(f"{name}, M = {M}: scores of shape {D.shape}, "
                                     f"expected ({test.shape[0]}, {M})")
            chosen = est.classes_[np.argmax(D, axis=1)]
            if name == "OvR":
                conf = np.column_stack([e.decision_function(test) for e in est.estimators_])
                if not np.array_equal(D, conf):
                    raise AssertionError("OvR scores are not its classifiers' confidences")
        wrong = np.flatnonzero(chosen != pred)
        if wrong.size:
            i = int(wrong[0])
            raise AssertionError(f"{name}, M = {M}: sample {i} predicted {pred[i]} but its "
                                 f"largest score is that of {chosen[i]} (scores {D[i]})")
        evidence.add_examples(1)


@claim(
    id="multiclass.decision_scores_pick_the_prediction",
    source="003 §1.8",
    statement="OvR predicts the class whose classifier is the most confident and OvO the "
    "class with the most pairwise votes: their per-class scores (OvR: the M confidences; "
    "OvO: votes, ties broken by confidence) have their maximum at the predicted class "
    "(for two classes, one score whose sign picks the class).",
    method=Method.PROPERTY,
    tags=("multiclass", "linear"),
)
@given(M=st.integers(2, 6), n=st.integers(0, 20), d=st.integers(1, 3),
       seed=st.integers(0, 2**32 - 1))
def decision_scores_pick_the_prediction(M, n, d, seed):
    check_decision_scores(M, n, d, seed)


def correctable_bits(d: float) -> int:
    """floor((d - 1) / 2): the number of bit errors minimum distance d corrects."""
    return int(np.floor((d - 1) / 2))


def _flip_patterns(L: int, t: int) -> np.ndarray:
    """All sign patterns (+-1 multipliers) of length L with at most t entries -1."""
    rows = [np.ones(L)]
    for k in range(1, t + 1):
        for idx in itertools.combinations(range(L), k):
            r = np.ones(L)
            r[list(idx)] = -1
            rows.append(r)
    return np.array(rows)


def check_ecoc_correction(
    rng, scale: int, correctable: Callable[[float], int] = correctable_bits
) -> None:
    """Every codeword with at most ``correctable(d)`` flipped bits decodes uniquely to itself."""
    codes = [exhaustive_code_matrix(M) for M in range(3, 6)]
    for _ in range(40 * scale):
        M, L = int(rng.integers(3, 9)), int(rng.integers(5, 17))
        codes.append(random_code_matrix(M, L, random_state=rng))
    tight, largest_t = 0, 0
    for C in codes:
        M, L = C.shape
        dmin = minimum_code_distance(C)
        t = correctable(dmin)
        largest_t = max(largest_t, t)
        flips = _flip_patterns(L, min(t, L))
        for k in range(M):
            bits = C[k][None, :] * flips
            dist = 0.5 * (L - bits @ C.T)
            others = np.delete(dist, k, axis=1).min(axis=1)
            bad = np.flatnonzero(~(dist[:, k] < others) | (decode(bits, C) != k))
            if bad.size:
                raise AssertionError(
                    f"code {M}x{L} with minimum distance {dmin:g}: class {k} with bits flipped "
                    f"at {np.flatnonzero(flips[bad[0]] < 0).tolist()} is not decoded uniquely "
                    f"(distances {dist[bad[0]].tolist()}), although {t} errors are claimed "
                    f"correctable"
                )
        # tightness: t + 1 flips towards a nearest other codeword break unique decoding
        D = 0.5 * np.abs(C[:, None, :] - C[None, :, :]).sum(-1) + np.diag(np.full(M, np.inf))
        a, b = np.unravel_index(np.argmin(D), D.shape)
        differ = np.flatnonzero(C[a] != C[b])[: t + 1]
        bits = C[a].astype(float)
        bits[differ] *= -1
        dist = 0.5 * (L - bits @ C.T)
        tight += int(dist[a] >= dist[b])
        evidence.add_examples(1)
    evidence.record("codes where t + 1 errors break decoding", f"{tight}/{len(codes)}")
    if tight:  # one more error than the radius breaks decoding: the radius is attained
        evidence.headroom("correctable errors floor((d - 1)/2)", 1.0,
                          description="t + 1 flips towards a nearest codeword tie or lose")
    evidence.record("largest t enumerated", largest_t)
    evidence.note("exhaustive codes M = 3..5 and random binary codes M = 3..8, L = 5..16; every "
                  "pattern of at most t = floor((d-1)/2) flips of every codeword enumerated")


@claim(
    id="multiclass.ecoc_corrects_up_to_half_the_code_distance",
    source="003 §1.8",
    statement="With a binary ECOC code whose codewords are pairwise at Hamming distance at least "
    "d, nearest-codeword decoding recovers the class whenever at most floor((d - 1)/2) binary "
    "classifiers err (larger code distance, more error correction).",
    method=Method.ENUMERATION,
    tags=("multiclass", "linear", "ecoc", "bound"),
)
def ecoc_corrects_up_to_half_the_code_distance(rng, scale):
    check_ecoc_correction(rng, scale)
