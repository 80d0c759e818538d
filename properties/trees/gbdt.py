"""Gradient boosting of decision trees, GBDT (003 §2.8).

The model after round m is recomputed here from the fitted trees' predictions:
``F_m = F_0 + nu sum_{j <= m} h_j``; residuals, leaf values and losses are recomputed
from it and compared with what the fitting loop recorded.
"""

from __future__ import annotations

import numpy as np
from hypothesis import example, given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp
from scipy.special import expit
from sklearn.tree import DecisionTreeRegressor as SkTreeRegressor

from algorithms.trees import (
    DecisionTreeRegressor,
    GradientBoostingClassifier,
    GradientBoostingRegressor,
)
from mltheory import ErratumKind, Expect, Method, claim, evidence
from mltheory.numeric import Tolerance, assert_close, assert_leq

#: Losses and leaf values are sums of at most a few hundred float64 terms of size <= 1e3.
BOOSTING_ROUNDING = Tolerance(
    rtol=1e-9, atol=1e-12,
    reason="recomputed sums of a few hundred float64 terms of moderate size",
)


@st.composite
def regression_problems(draw: st.DrawFn) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(X, y, w): a few attributes on a grid (ties), targets from a drawn mix of a step,
    a slope and noise, integer weights."""
    n = draw(st.integers(4, 40))
    d = draw(st.integers(1, 3))
    X = draw(hnp.arrays(np.int64, (n, d), elements=st.integers(0, 8))).astype(float)
    coef = draw(hnp.arrays(np.float64, 3, elements=st.floats(-5, 5)))
    noise = draw(hnp.arrays(np.float64, n, elements=st.floats(-1, 1)))
    y = coef[0] * (X[:, 0] > 4) + coef[1] * X[:, -1] + coef[2] * noise
    w = draw(hnp.arrays(np.int64, n, elements=st.integers(1, 3))).astype(float)
    return X, y, w


@st.composite
def binary_problems(draw: st.DrawFn) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    X, y, w = draw(regression_problems())
    labels = (y > np.median(y)).astype(int)
    labels[:2] = [0, 1]
    return X, labels, w


def staged_raw(model, X: np.ndarray) -> np.ndarray:
    """``F_0, F_1, ..., F_M`` on X, shape (M + 1, n, outputs), summed here from the trees."""
    F = np.tile(model.init_, (X.shape[0], 1))
    out = [F.copy()]
    for trees in model.estimators_:
        for k, tree in enumerate(trees):
            F[:, k] += model.learning_rate * tree.predict(X)
        out.append(F.copy())
    return np.asarray(out)


def leaf_means(tree, X: np.ndarray, target: np.ndarray, w: np.ndarray) -> np.ndarray:
    """Weighted mean of ``target`` over the training samples of each leaf, per sample."""
    leaves = tree.apply(X)
    num = np.bincount(leaves, weights=w * target, minlength=tree.tree_.node_count)
    den = np.bincount(leaves, weights=w, minlength=tree.tree_.node_count)
    return (num / np.where(den > 0, den, 1.0))[leaves]


def check_additive_square(model, X, y, w) -> None:
    """Each tree is the least-squares fit of the residual y - F_{m-1} (its leaf values are
    the weighted mean residuals), F_M is the sum, and the recorded losses are its losses."""
    F = staged_raw(model, X)[:, :, 0]
    for m, (trees,) in enumerate(zip(model.estimators_, strict=True)):
        residual = y - F[m]
        assert_close(trees[0].predict(X), leaf_means(trees[0], X, residual, w),
                     BOOSTING_ROUNDING, label="leaf value vs mean residual")
    assert_close(model.predict(X), F[-1], BOOSTING_ROUNDING, label="prediction vs F_M")
    losses = 0.5 * np.average((y - F) ** 2, weights=w, axis=1)
    assert_close(model.train_loss_, losses, BOOSTING_ROUNDING, label="recorded loss vs F_m")


@claim(
    id="tree.gbdt_additive",
    source="003 §2.8",
    statement="GBDT starts from a constant F_0 and in each of M rounds fits a regression tree "
    "h_m to the residuals (negative gradients) of the current model and adds it: "
    "F_m = F_{m-1} + nu h_m, so F_M = F_0 + nu sum_m h_m.",
    method=Method.PROPERTY,
    tags=("trees", "gbdt"),
)
@given(problem=regression_problems(), nu=st.floats(0.05, 1.0), rounds=st.integers(1, 8),
       depth=st.integers(1, 3))
def gbdt_additive(problem, nu, rounds, depth):
    X, y, w = problem
    model = GradientBoostingRegressor(n_estimators=rounds, learning_rate=nu,
                                      max_depth=depth).fit(X, y, sample_weight=w)
    check_additive_square(model, X, y, w)


def voting_losses(model, X, y, w) -> np.ndarray:
    """Training loss of the 'vote' of the first m trees (their average added to F_0,
    the regression analogue of a majority vote), m = 1..M."""
    H = np.array([trees[0].predict(X) for trees in model.estimators_])
    votes = model.init_[0] + np.cumsum(H, axis=0) / np.arange(1, H.shape[0] + 1)[:, None]
    return 0.5 * np.average((y - votes) ** 2, weights=w, axis=1)


@claim(
    id="tree.gbdt_voting_as_written",
    source="003 §2.8",
    statement="(As written, step 5) the current tree is combined with the previous ones by "
    "voting, as in a random forest, and each new model reduces the residual left by the "
    "previous ones: the training loss of the voted ensemble never increases with the "
    "rounds.",
    method=Method.PROPERTY,
    tags=("trees", "gbdt", "erratum"),
    expect=Expect.REFUTED,
    kind=ErratumKind.CODE,
    corrected_by="tree.gbdt_additive",
    explanation="Pseudo-code bug (combination rule): gradient boosting adds the trees, "
    "F_m = F_{m-1} + nu h_m. Each h_m fits only the residual left by the sum of its "
    "predecessors, so a vote (average) of the h_m shrinks every correction by the number of "
    "trees and the fit degrades as trees are added.",
)
@given(problem=regression_problems(), rounds=st.integers(2, 6))
def gbdt_voting_as_written(problem, rounds):
    X, y, w = problem
    model = GradientBoostingRegressor(n_estimators=rounds, learning_rate=1.0,
                                      max_depth=2).fit(X, y, sample_weight=w)
    losses = voting_losses(model, X, y, w)
    for m in range(1, losses.shape[0]):
        assert_leq(losses[m], losses[m - 1], label="vote loss_m / loss_{m-1}",
                   tol=BOOSTING_ROUNDING)


def check_monotone_losses(losses: np.ndarray) -> None:
    """The recorded training loss never increases from one round to the next."""
    for m in range(1, losses.shape[0]):
        assert_leq(losses[m], losses[m - 1], label="loss_m / loss_{m-1}", tol=BOOSTING_ROUNDING)


@claim(
    id="tree.gbdt_square_loss_monotone",
    source="003 §2.8",
    statement="Each round moves the model along the (negative) gradient and reduces the "
    "residual: with the square loss and least-squares trees, the training loss never "
    "increases for any shrinkage 0 < nu <= 2 (it is unchanged at nu = 2), because "
    "||r - nu h||^2 = ||r||^2 - nu (2 - nu) ||h||^2.",
    method=Method.PROPERTY,
    tags=("trees", "gbdt", "bound"),
)
@given(problem=regression_problems(), nu=st.floats(0.01, 2.0), rounds=st.integers(1, 6))
@example(problem=(np.arange(6.0)[:, None], np.array([0.0, 1, 0, 3, 2, 5]), np.ones(6)),
         nu=2.0, rounds=4)
def gbdt_square_loss_monotone(problem, nu, rounds):
    X, y, w = problem
    model = GradientBoostingRegressor(n_estimators=rounds, learning_rate=nu,
                                      max_depth=2).fit(X, y, sample_weight=w)
    check_monotone_losses(model.train_loss_)


#: The estimator's documented floor under which a leaf's curvature counts as zero.
NEWTON_CURVATURE_FLOOR = 1e-150

#: The binary deviance ln(1 + e^F) - y F has second derivative p (1 - p) <= 1/4, so a step
#: nu h along the projected negative gradient lowers it by at least nu (1 - nu/8) ||h||^2.
LOGISTIC_SAFE_STEP = 8.0


@claim(
    id="tree.gbdt_logistic_descent",
    source="003 §2.8",
    statement="With the logistic loss each tree fits the negative gradient y - sigma(F_{m-1}) "
    "(leaf values: mean gradient) and the training deviance never increases for shrinkage "
    "0 < nu <= 8 (the curvature p(1 - p) <= 1/4 bounds the second-order term); the fitted "
    "model classifies by sigma(F_M); with Newton leaves each leaf holds "
    "sum w (y - p) / sum w p (1 - p).",
    method=Method.PROPERTY,
    tags=("trees", "gbdt", "bound"),
)
@given(problem=binary_problems(), nu=st.floats(0.01, LOGISTIC_SAFE_STEP),
       rounds=st.integers(1, 6))
def gbdt_logistic_descent(problem, nu, rounds):
    X, y, w = problem
    model = GradientBoostingClassifier(n_estimators=rounds, learning_rate=nu, max_depth=2,
                                       leaf_update="gradient").fit(X, y, sample_weight=w)
    F = staged_raw(model, X)[:, :, 0]
    for m, trees in enumerate(model.estimators_):
        gradient = y - expit(F[m])
        assert_close(trees[0].predict(X), leaf_means(trees[0], X, gradient, w),
                     BOOSTING_ROUNDING, label="leaf value vs mean negative gradient")
    deviance = np.average(np.logaddexp(0.0, F) - y * F, weights=w, axis=1)
    assert_close(model.train_loss_, deviance, BOOSTING_ROUNDING, label="recorded deviance")
    evidence.record("rounds", rounds)
    check_monotone_losses(model.train_loss_)
    check_classifier_outputs(model, X, F)
    newton = GradientBoostingClassifier(n_estimators=rounds, learning_rate=nu, max_depth=2,
                                        leaf_update="newton").fit(X, y, sample_weight=w)
    check_newton_leaves(newton, X, y, w)


def check_newton_leaves(model, X: np.ndarray, y: np.ndarray, w: np.ndarray) -> None:
    """Newton leaf values (two classes): each reached leaf holds sum w (y - p) / sum w p (1 - p)
    over its training samples, p = sigma(F_{m-1}) rebuilt from the earlier trees (0 where
    the curvature vanishes); the recorded deviance is that of the rebuilt F."""
    F = staged_raw(model, X)[:, :, 0]
    for m, (tree,) in enumerate(model.estimators_):
        p = expit(F[m])
        leaves = tree.apply(X)
        num = np.bincount(leaves, weights=w * (y - p), minlength=tree.tree_.node_count)
        den = np.bincount(leaves, weights=w * p * (1.0 - p), minlength=tree.tree_.node_count)
        flat = den[leaves] <= NEWTON_CURVATURE_FLOOR
        step = np.where(flat, 0.0, num[leaves] / np.where(flat, 1.0, den[leaves]))
        assert_close(tree.predict(X), step, BOOSTING_ROUNDING,
                     label="|leaf value - Newton step sum w r / sum w p(1-p)|",
                     context=f"round {m + 1}: ")
    deviance = np.average(np.logaddexp(0.0, F) - y * F, weights=w, axis=1)
    assert_close(model.train_loss_, deviance, BOOSTING_ROUNDING, label="recorded deviance")


def check_classifier_outputs(model, X: np.ndarray, F: np.ndarray) -> None:
    """The fitted model's outputs are those of F_M = F[-1] (two classes): the decision
    function is F_M, the probabilities (1 - sigma(F_M), sigma(F_M)) (also after each round,
    from F_m), the prediction the more probable class."""
    assert_close(model.decision_function(X), F[-1], BOOSTING_ROUNDING, label="|F_M - recorded|")
    p = expit(F)
    proba = model.predict_proba(X)
    assert_close(proba, np.column_stack([1.0 - p[-1], p[-1]]), BOOSTING_ROUNDING,
                 label="|predict_proba - sigma(F_M)|")
    for m, staged in enumerate(model.staged_predict_proba(X)):
        assert_close(staged[:, 1], p[m + 1], BOOSTING_ROUNDING, label="|staged - sigma(F_m)|")
    expected = model.classes_[(p[-1] > 0.5).astype(int)]
    decided = np.abs(p[-1] - 0.5) > 1e-12  # ties go to the first class
    assert np.array_equal(model.predict(X)[decided], expected[decided]), "predict != argmax"


#: Predictions of two least-squares trees with the same splits: weighted leaf means
#: summed in different orders.
LEAF_MEANS = Tolerance(rtol=1e-9, atol=1e-12,
                       reason="weighted means of up to 80 targets summed in another order")


@claim(
    id="tree.regression_sklearn_reference",
    source="003 §2.8",
    statement="The least-squares regression tree (GBDT's base learner: splits maximise the "
    "decrease of the weighted squared error, leaves predict weighted means) equals "
    "scikit-learn's DecisionTreeRegressor on continuous data: the same partition of the "
    "training set (hence predictions) at depths 1-3 and, where both test the same "
    "attribute at the root, the same predictions on fresh points, "
    "also when grown by the general grower (missing-value mode, a two-valued attribute "
    "declared discrete), and at any scale of the targets (1e-4 to 1e4: scaling y scales "
    "every squared error alike, so it changes no split).",
    method=Method.REFERENCE,
    tags=("trees", "gbdt", "reference"),
)
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(10, 80), d=st.integers(1, 4),
       depth=st.integers(1, 3), exponent=st.integers(-4, 4))
def regression_sklearn_reference(seed, n, d, depth, exponent):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d))
    X[:, 0] = rng.integers(0, 2, size=n)  # a two-valued attribute: one binary test either way
    y = (X @ rng.normal(size=d) + rng.normal(size=n)) * 10.0**exponent
    w = rng.uniform(0.5, 2.0, size=n)
    Xt = rng.normal(size=(200, d))
    Xt[:, 0] = rng.integers(0, 2, size=200)
    ref = SkTreeRegressor(max_depth=depth, random_state=0).fit(X, y, sample_weight=w)
    for kwargs in ({}, {"missing": "weighted"}, {"categorical_features": [0]}):
        ours = DecisionTreeRegressor(max_depth=depth, **kwargs).fit(X, y, sample_weight=w)
        # the same partition of the training set at every depth (a node of a few samples
        # may be split equally well on several attributes: only the partition is unique)
        assert_close(ours.predict(X), ref.predict(X), LEAF_MEANS,
                     label="|training prediction - sklearn|", context=f"{kwargs}: ")
        if depth == 1 and ours.tree_.feature[0] == ref.tree_.feature[0]:
            # the same root test (not one of several attributes cutting the training set
            # alike): fresh points are routed alike
            assert_close(ours.predict(Xt), ref.predict(Xt), LEAF_MEANS,
                         label="|prediction - sklearn|", context=f"{kwargs}: ")
