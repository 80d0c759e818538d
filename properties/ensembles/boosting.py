"""AdaBoost (003 §6.2, Fig 8.3, (6.4)-(6.16)): the claims checked numerically on the
histories the estimator's loop recorded (``errors_``, ``alphas_``, ``normalisers_``,
``distributions_``, ``train_predictions_``) and against scikit-learn's
``AdaBoostClassifier`` (SAMME with two classes is the notes' algorithm: its estimator
weight ``ln((1 - eps)/eps) + ln(K - 1)`` is ``2 alpha_t`` for ``K = 2``).

The symbolic steps of the derivation are in :mod:`proofs.ensembles.derivations`.
"""

from __future__ import annotations

import math
import warnings

import numpy as np
from hypothesis import example, given
from hypothesis import strategies as st
from scipy.optimize import minimize_scalar
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.ensemble import AdaBoostClassifier as SkAdaBoost
from sklearn.tree import DecisionTreeClassifier as SkTree

from algorithms.ensembles import AdaBoostClassifier
from algorithms.perceptron import Perceptron
from mltheory import ErratumKind, Expect, Method, claim, evidence
from mltheory.numeric import EXACT_ARITHMETIC, ITERATIVE_SOLVER, assert_close, assert_leq
from mltheory.stats import check_probability_at_least, check_probability_at_most
from properties.ensembles.strategies import BinaryData, binary_datasets, simplex_vectors
from properties.ensembles.support import (
    BOOSTING_ROUNDING,
    check_distribution_recursion,
    check_literal_run,
    check_matches_literal,
    check_training_error_bound,
    check_weight_update,
    cumulative_margins,
    exp_loss,
    notes_adaboost,
    signed_labels,
)

#: Rounds per fit in the property claims: enough for the distributions to move far from
#: uniform (weights spanning orders of magnitude), cheap enough for 60 examples.
ROUNDS = 12


def fit_boost(data, **kwargs) -> AdaBoostClassifier:
    kwargs.setdefault("n_estimators", ROUNDS)
    kwargs.setdefault("random_state", 0)
    return AdaBoostClassifier(**kwargs).fit(data.X, data.y)


@claim(
    id="ada.additive_model_6_4_6_5",
    source="003 §6.2 (6.4)-(6.5)",
    statement="AdaBoost's output is the additive model H(x) = sum_t alpha_t h_t(x), "
    "classified by sign(H); the rounds decrease the exponential loss "
    "l_exp(H_t | D) = E_{x~D}[e^{-f(x) H_t(x)}], which equals prod_{s<=t} Z_s.",
    method=Method.PROPERTY,
    tags=("ensembles", "boosting"),
)
@given(data=binary_datasets())
def additive_model_6_4_6_5(data):
    est = fit_boost(data)
    probe = np.vstack([data.X, data.X + 0.01])
    stacked = np.vstack([h.predict(probe) for h in est.estimators_])
    H = est.alphas_ @ stacked
    assert_close(est.decision_function(probe), H, BOOSTING_ROUNDING,
                 label="|decision_function - sum alpha_t h_t|")
    assert np.array_equal(est.predict(probe), est.classes_[(H > 0).astype(int)])
    f, D1 = signed_labels(est, data.y), est.distributions_[0]
    losses = [exp_loss(D1, f, Ht) for Ht in cumulative_margins(est)]
    assert_close(losses[1:], np.cumprod(est.normalisers_), BOOSTING_ROUNDING,
                 label="|l_exp(H_t) - prod Z_s|")
    assert np.all(np.diff(losses) <= 1e-12), f"exponential loss increased: {losses}"
    evidence.worst("final l_exp / initial", losses[-1] / losses[0])


@claim(
    id="ada.bayes_consistency_6_8",
    source="003 §6.2 (6.7)-(6.8)",
    statement="At a point x with P(f(x) = 1 | x) = p != 1/2, the minimiser of the "
    "conditional exponential loss p e^{-H} + (1 - p) e^{H} is H* = 1/2 ln(p/(1 - p)) and "
    "sign(H*) = argmax_y P(f(x) = y | x): its 0/1 risk is the Bayes risk min(p, 1 - p).",
    method=Method.REFERENCE,
    tags=("ensembles", "boosting"),
)
@given(p=st.floats(1e-6, 1 - 1e-6).filter(lambda v: abs(v - 0.5) > 1e-9))
@example(p=0.5 + 1e-6)
def bayes_consistency_6_8(p):
    H_star = 0.5 * math.log(p / (1.0 - p))
    res = minimize_scalar(lambda H: p * math.exp(-H) + (1.0 - p) * math.exp(H),
                          bracket=(-1.0, 1.0), tol=1e-12)
    assert_close(res.x, H_star, ITERATIVE_SOLVER, label="|scipy argmin - (6.7)|")
    bayes = 1 if p > 0.5 else -1
    assert np.sign(H_star) == bayes
    risk = (1.0 - p) if H_star > 0 else p  # P(f != sign(H*))
    assert risk == min(p, 1.0 - p)


@claim(
    id="ada.alpha_objective_6_9",
    source="003 §6.2 (6.9)",
    statement="For any distribution D_t, labels f, h_t in {-1, +1} and real alpha: "
    "E_{x~D_t}[e^{-f(x) alpha h_t(x)}] = e^{-alpha}(1 - eps_t) + e^{alpha} eps_t with "
    "eps_t = D_t(h_t != f); at AdaBoost's alpha_t it equals the normaliser Z_t = "
    "2 sqrt(eps_t (1 - eps_t)).",
    method=Method.PROPERTY,
    tags=("ensembles", "boosting", "identity"),
)
@given(m=st.integers(1, 30).flatmap(
    lambda k: st.tuples(simplex_vectors(k), st.lists(st.sampled_from([-1, 1]), min_size=k,
                                                     max_size=k),
                        st.lists(st.sampled_from([-1, 1]), min_size=k, max_size=k))),
       alpha=st.floats(-20, 20), data=binary_datasets())
def alpha_objective_6_9(m, alpha, data):
    D, f, h = m[0], np.array(m[1]), np.array(m[2])
    eps = float(np.sum(D[h != f]))
    lhs = float(np.sum(D * np.exp(-f * alpha * h)))
    rhs = math.exp(-alpha) * (1.0 - eps) + math.exp(alpha) * eps
    # both sides are sums of terms of size <= e^{|alpha|}, and 1 - eps loses absolute
    # precision ~1e-16: the rounding is relative to e^{|alpha|}
    assert_close(lhs, rhs, EXACT_ARITHMETIC, scale=math.exp(abs(alpha)),
                 label="|E_D[e^{-f alpha h}] - (6.9)| / e^{|alpha|}")
    est = fit_boost(data)
    for eps_t, alpha_t, Z in zip(est.errors_, est.alphas_, est.normalisers_, strict=True):
        if eps_t == 0.0:
            continue  # alpha_t is then the recorded dominating weight, not (6.11)
        value = math.exp(-alpha_t) * (1 - eps_t) + math.exp(alpha_t) * eps_t
        assert_close(Z, value, BOOSTING_ROUNDING, label="|Z_t - (6.9) at alpha_t|")
        assert_close(Z, 2 * math.sqrt(eps_t * (1 - eps_t)), BOOSTING_ROUNDING,
                     label="|Z_t - 2 sqrt(eps(1 - eps))|")


@claim(
    id="ada.weight_update_fig",
    source="003 §6.2 Fig 8.3 (line 7)",
    statement="D_{t+1}(x) = D_t(x)/Z_t times e^{-alpha_t} if h_t(x) = f(x) and e^{alpha_t} "
    "otherwise, which equals D_t(x) exp(-alpha_t f(x) h_t(x))/Z_t; D_{t+1} sums to 1 (and "
    "puts weight exactly 1/2 on h_t's mistakes).",
    method=Method.PROPERTY,
    tags=("ensembles", "boosting"),
)
@given(data=binary_datasets(), mode=st.sampled_from(["reweight", "resample"]))
def weight_update_fig(data, mode):
    est = fit_boost(data, mode=mode)
    evidence.worst("max D_t / min D_t over the run",
                   float(np.max(est.distributions_) / np.min(est.distributions_)))
    check_weight_update(est, data.y)


def _dominating_alpha(alphas: list) -> float:
    """The weight AdaBoostClassifier gives a perfect h_t: more than all earlier ones."""
    return 1.0 + float(np.sum(alphas))


#: A training set a single stump classifies perfectly: eps_1 = 0 in Fig 8.3.
STUMP_SEPARABLE = BinaryData(X=np.arange(8.0)[:, None], y=np.array([1, 1, 1, 1, -1, -1, -1, -1]))


@claim(
    id="ada.fig_8_3_literal",
    source="003 §6.2 Fig 8.3",
    statement="Fig 8.3 run line by line (D_1 = 1/m; h_t fitted on D_t; eps_t; break if "
    "eps_t > 1/2; alpha_t = 1/2 ln((1 - eps_t)/eps_t); D_{t+1} = D_t exp(-alpha_t f h_t)/Z_t), "
    "with the one repair that a perfect h_t (eps_t = 0) gets a finite weight larger than "
    "all earlier ones and ends the loop, gives finite alpha_t and probability distributions "
    "D_{t+1} on every training set, and AdaBoostClassifier records exactly these eps_t, "
    "alpha_t and D_t.",
    method=Method.PROPERTY,
    tags=("ensembles", "boosting"),
)
@given(data=binary_datasets())
@example(data=STUMP_SEPARABLE)
def fig_8_3_literal(data):
    est = fit_boost(data)
    f = signed_labels(est, data.y)
    run = notes_adaboost(data.X, f, ROUNDS, zero_error_alpha=_dominating_alpha)
    check_literal_run(run)
    check_matches_literal(est, run)


@claim(
    id="ada.fig_8_3_literal_as_written",
    source="003 §6.2 Fig 8.3 (lines 5-7)",
    statement="(As printed) Fig 8.3 run line by line gives a finite weight alpha_t and a "
    "probability distribution D_{t+1} in every round it does not break out of.",
    method=Method.PROPERTY,
    tags=("ensembles", "boosting", "erratum"),
    expect=Expect.REFUTED,
    kind=ErratumKind.CODE,
    corrected_by="ada.fig_8_3_literal",
    explanation="Pseudo-code bug: line 5 breaks only for eps_t > 0.5, so a base learner "
    "that is perfect on D_t (eps_t = 0, e.g. a stump on a threshold-separable set) reaches "
    "line 6 with alpha_t = 1/2 ln(1/0) = +inf, and line 7 then computes 0 * inf and 0/0: "
    "D_{t+1} is NaN. The loop needs a stop (or a finite dominating weight) at eps_t = 0.",
)
@given(data=binary_datasets(max_features=1))
@example(data=STUMP_SEPARABLE)
def fig_8_3_literal_as_written(data):
    check_literal_run(notes_adaboost(data.X, np.asarray(data.y), ROUNDS))


@claim(
    id="ada.distribution_recursion_6_16",
    source="003 §6.2 (6.13); 003 §6.2 (6.16)",
    statement="The distribution D_t(x) = D(x) e^{-f(x) H_{t-1}(x)}/E_D[e^{-f H_{t-1}}] of "
    "(6.13) is AdaBoost's D_t, and the recursion D_{t+1}(x) = D_t(x) e^{-f(x) alpha_t "
    "h_t(x)} E_D[e^{-f H_{t-1}}]/E_D[e^{-f H_t}] reproduces the normalised update of "
    "Fig 8.3 line 7.",
    method=Method.PROPERTY,
    tags=("ensembles", "boosting"),
)
@given(data=binary_datasets())
def distribution_recursion_6_16(data):
    check_distribution_recursion(fit_boost(data), data.y)


def _first_round_alpha(est, t: int) -> float:
    return float(est.alphas_[0])


@claim(
    id="ada.distribution_recursion_6_16_as_written",
    source="003 §6.2 (6.16)",
    statement="(As printed) D_{t+1}(x) = D_t(x) e^{-f(x) alpha_i h_t(x)} E_D[e^{-f H_{t-1}}]"
    "/E_D[e^{-f H_t}], reading the printed alpha_i as the weight of a fixed round i (the "
    "first).",
    method=Method.PROPERTY,
    tags=("ensembles", "boosting", "erratum"),
    expect=Expect.REFUTED,
    kind=ErratumKind.SYMBOL,
    corrected_by="ada.distribution_recursion_6_16",
    explanation="Wrong index: the exponent must use alpha_t, the weight of the learner h_t "
    "that H_t = H_{t-1} + alpha_t h_t adds; the printed alpha_i (i is not bound anywhere in "
    "(6.16)) gives a vector that is not D_{t+1} as soon as alpha_i != alpha_t.",
)
@given(data=binary_datasets())
def distribution_recursion_6_16_as_written(data):
    check_distribution_recursion(fit_boost(data), data.y, alpha=_first_round_alpha)


@claim(
    id="ada.ideal_ht_6_12_6_15",
    source="003 §6.2 (6.12)-(6.15)",
    statement="Over any finite set of classifiers h with values in {-1, +1}: argmin_h "
    "l_exp(H_{t-1} + h | D) = argmax_h E_{x~D_t}[f(x) h(x)] = argmin_h "
    "E_{x~D_t}[I(f(x) != h(x))] with D_t of (6.13); indeed f h = 1 - 2 I(f != h) and "
    "l_exp(H_{t-1} + h) = E_D[e^{-f H_{t-1}}] (cosh 1 - sinh 1 E_{D_t}[f h]) exactly.",
    method=Method.ENUMERATION,
    tags=("ensembles", "boosting"),
)
@given(m=st.integers(1, 7), data=st.data())
def ideal_ht_6_12_6_15(m, data):
    D = data.draw(simplex_vectors(m))
    f = np.array(data.draw(st.lists(st.sampled_from([-1, 1]), min_size=m, max_size=m)))
    H_prev = np.array(data.draw(st.lists(st.floats(-5, 5), min_size=m, max_size=m)))
    hyps = np.array([[1 if (k >> i) & 1 else -1 for i in range(m)] for k in range(2**m)])
    wrong = hyps != f
    assert np.array_equal(f * hyps, 1 - 2 * wrong.astype(int))  # (6.15)'s identity
    Z = exp_loss(D, f, H_prev)
    Dt = D * np.exp(-f * H_prev) / Z
    loss = np.array([exp_loss(D, f, H_prev + h) for h in hyps])
    corr = (hyps * f) @ Dt
    err = wrong.astype(float) @ Dt
    assert_close(loss, Z * (math.cosh(1.0) - math.sinh(1.0) * corr), EXACT_ARITHMETIC,
                 label="|l_exp(H + h) - Z (cosh 1 - sinh 1 E_Dt[f h])|")
    assert_close(corr, 1.0 - 2.0 * err, EXACT_ARITHMETIC, label="|E[f h] - (1 - 2 err)|")
    tol = 1e-12 * max(1.0, Z)
    best = np.flatnonzero(loss <= loss.min() + tol)
    assert np.all(corr[best] >= corr.max() - 1e-12)
    assert np.all(err[best] <= err.min() + 1e-12)
    evidence.add_examples(0)


def best_stump_error(X: np.ndarray, y: np.ndarray) -> float:
    """The smallest training error of any decision stump (feature, threshold, polarity),
    by brute force over all thresholds with cumulative counts (independent of the trees
    family)."""
    m = y.shape[0]
    best = min(np.mean(y == 1), np.mean(y == -1))  # constant predictions
    for j in range(X.shape[1]):
        order = np.argsort(X[:, j], kind="stable")
        xs, ys = X[order, j], y[order]
        # predict -1 left of the cut, +1 right: errors = positives left + negatives right
        pos_left = np.cumsum(ys == 1)[:-1]
        neg_right = np.sum(ys == -1) - np.cumsum(ys == -1)[:-1]
        valid = xs[1:] > xs[:-1]  # cuts between distinct values only
        if np.any(valid):
            errs = (pos_left + neg_right)[valid] / m
            best = min(best, float(errs.min()), float((1.0 - errs).min()))  # both polarities
    return float(best)


@claim(
    id="ada.bias_reduction",
    source="003 §6.2 (last paragraph)",
    statement="Boosting builds a strong ensemble from weak learners (it mainly reduces "
    "bias): the training error of sign(H_T) is at most prod_t Z_t <= exp(-2 sum_t "
    "(1/2 - eps_t)^2), and on data that stumps cannot fit (an oblique boundary) AdaBoost "
    "of 60 stumps reaches at most half the training error of the best single stump.",
    method=Method.SIMULATION,
    tags=("ensembles", "boosting", "bound", "slow"),
)
@given(seed=st.integers(0, 2**32 - 1), d=st.integers(2, 5), data=binary_datasets())
def bias_reduction(seed, d, data):
    check_training_error_bound(fit_boost(data, n_estimators=40), data.y)
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(150, d))
    w = rng.normal(size=d)
    w /= np.linalg.norm(w)
    w[np.argmax(np.abs(w))] *= 0.5  # no coordinate dominates: stumps stay weak
    y = np.where(X @ w > 0, 1, -1)
    est = AdaBoostClassifier(n_estimators=60, random_state=0).fit(X, y)
    check_training_error_bound(est, y)
    ensemble_error = float(np.mean(est.predict(X) != y))
    stump_error = best_stump_error(X, y)
    evidence.worst("best stump training error", stump_error, larger_is_worse=False)
    evidence.worst("ensemble / best stump training error", ensemble_error / stump_error)
    assert_leq(ensemble_error, 0.5 * stump_error,
               label="ensemble training error / (best stump error / 2)")


def weighted_gini_decrease(D: np.ndarray, y: np.ndarray, leaves: np.ndarray) -> float:
    """Gini(D) - sum_v D(leaf v) Gini(leaf v) of a partition, under the weights D (CART's
    criterion (2.5)-(2.7) with weights, computed here independently of either tree)."""
    def gini(mask):
        w = D[mask]
        total = w.sum()
        if total == 0:
            return 0.0
        p = w[y[mask] == 1].sum() / total
        return float(total * (1.0 - p**2 - (1.0 - p) ** 2))

    return gini(np.ones_like(y, dtype=bool)) - sum(gini(leaves == v) for v in np.unique(leaves))


@claim(
    id="ada.sklearn_reference",
    source="003 §6.2 Fig 8.3",
    statement="AdaBoost with decision stumps matches scikit-learn's AdaBoostClassifier "
    "(SAMME, two classes) round by round: the same weighted errors eps_t and scikit-learn's "
    "estimator weights equal 2 alpha_t, up to the first round where the two stump learners "
    "pick different stumps of equal weighted Gini decrease (a tie the two break "
    "differently).",
    method=Method.REFERENCE,
    tags=("ensembles", "boosting", "reference"),
)
@given(data=binary_datasets(min_samples=20))
def sklearn_reference(data):
    ours = fit_boost(data)
    ref = SkAdaBoost(SkTree(max_depth=1), n_estimators=ROUNDS, random_state=0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # sklearn warns when it stops at a perfect stump
        ref.fit(data.X, data.y)
    n = min(len(ref.estimators_), ours.errors_.shape[0])
    if ours.stop_reason_ == "zero_error":
        n -= 1  # scikit-learn stops with weight 1 where the notes' alpha is infinite
    f = signed_labels(ours, data.y)
    for t in range(n):
        theirs = np.where(ref.estimators_[t].predict(data.X) == ours.classes_[1], 1, -1)
        if not np.array_equal(ours.train_predictions_[t], theirs):
            D = ours.distributions_[t]  # the common D_t: the histories agree so far
            assert_close(weighted_gini_decrease(D, f, ours.estimators_[t].apply(data.X)),
                         weighted_gini_decrease(D, f, ref.estimators_[t].apply(data.X)),
                         BOOSTING_ROUNDING, label="|Gini decrease of the two stumps| at a tie",
                         context=f"round {t + 1}, different stumps: ")
            evidence.note("the stumps first differ at a Gini tie; comparison stops there")
            break
        assert_close(ours.errors_[t], ref.estimator_errors_[t], BOOSTING_ROUNDING,
                     label="|eps_t - sklearn estimator_errors_|")
        assert_close(2 * ours.alphas_[t], ref.estimator_weights_[t], BOOSTING_ROUNDING,
                     label="|2 alpha_t - sklearn estimator_weights_|")


@claim(
    id="ada.resampling_restart",
    source="003 §6.2 (after (6.16))",
    statement="Boosting by re-sampling trains each h_t on m examples drawn from D_t (a "
    "learner that takes no weights, here the perceptron): the draws hit h_{t-1}'s "
    "mistakes, which carry D_t-mass 1/2, with frequency 1/2; a learner failing the check "
    "eps_t > 1/2 is discarded and retrained on a fresh draw (restart) instead of ending "
    "the loop; a learner that always fails ends it after exactly max_restarts restarts.",
    method=Method.SIMULATION,
    tags=("ensembles", "boosting", "statistical"),
)
def resampling_restart(rng, scale):
    m, rounds = 80, 30 * scale
    X = rng.normal(size=(m, 2))
    y = np.where(X[:, 0] * X[:, 1] > 0, 1, -1)  # XOR: linear learners are weak, often bad
    est = AdaBoostClassifier(Perceptron(max_iter=5), n_estimators=rounds, mode="resample",
                             max_restarts=50, random_state=rng)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the perceptron does not converge on XOR
        est.fit(X, y)
    f = signed_labels(est, y)
    check_weight_update(est, y)
    assert np.all(est.errors_ <= 0.5), est.errors_
    assert all(e > 0.5 for e in est.rejected_errors_)
    evidence.record("restarts", est.n_restarts_)
    assert est.n_restarts_ > 0, "no learner failed: the restart path was not exercised"
    assert est.stop_reason_ in ("n_estimators", "zero_error"), est.stop_reason_
    hits = draws = 0
    for t in range(1, est.alphas_.shape[0]):
        mistakes = np.flatnonzero(est.train_predictions_[t - 1] != f)
        if 0.0 < est.errors_[t - 1] < 0.5:
            hits += int(np.isin(est.sample_indices_[t], mistakes).sum())
            draws += m
    check_probability_at_most(hits, draws, 0.5, label="P(draw hits h_{t-1}'s mistakes)")
    check_probability_at_least(hits, draws, 0.5,
                               label="P(draw hits h_{t-1}'s mistakes) (lower)")
    for max_restarts in (0, 1, 3):  # a learner that always fails: exactly that many restarts
        failing = AdaBoostClassifier(_AntiNeighbour(), n_estimators=3, mode="resample",
                                     max_restarts=max_restarts, random_state=rng)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # the empty ensemble warns
            failing.fit(X, y)
        assert failing.stop_reason_ == "restarts_exhausted", failing.stop_reason_
        assert (failing.n_restarts_, len(failing.rejected_errors_)) == \
            (max_restarts, max_restarts + 1), (max_restarts, failing.n_restarts_,
                                               failing.rejected_errors_)


class _AntiNeighbour(ClassifierMixin, BaseEstimator):
    """Predicts the class its nearest training point does not have: on any draw from a
    two-class set its weighted error exceeds 1/2, so boosting must discard it."""

    def fit(self, X, y):
        self.X_, self.y_ = np.asarray(X, float), np.asarray(y)
        self.classes_ = np.unique(self.y_)
        return self

    def predict(self, X):
        d = ((np.asarray(X, float)[:, None, :] - self.X_[None]) ** 2).sum(axis=-1)
        nearest = self.y_[np.argmin(d, axis=1)]
        return np.where(nearest == self.classes_[0], self.classes_[-1], self.classes_[0])
