"""Unit tests for algorithms.perceptron: primal, dual and pocket PLA, and the notes' pocket code."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from sklearn.base import clone
from sklearn.exceptions import ConvergenceWarning
from sklearn.linear_model import Perceptron as SkPerceptron

from algorithms.perceptron import (
    DualPerceptron,
    NotesPocket,
    Perceptron,
    PocketPerceptron,
    functional_margins,
    perceptron_loss,
)

# Li Hang's classic example (001 / "Statistical Learning Methods" ex. 2.1):
# x1 = (3, 3) +1, x2 = (4, 3) +1, x3 = (1, 1) -1.
LI_HANG_X = np.array([[3.0, 3.0], [4.0, 3.0], [1.0, 1.0]])
LI_HANG_Y = np.array([1, 1, -1])

# XOR: no line separates {(0,0),(1,1)} from {(0,1),(1,0)}.
XOR_X = np.array([[0.0, 0.0], [1.0, 1.0], [0.0, 1.0], [1.0, 0.0]])
XOR_Y = np.array([-1, -1, 1, 1])


def separable_data(seed: int, n: int = 60, d: int = 3, margin: float = 0.2):
    """Gaussian points labelled by a random hyperplane, points within ``margin`` removed."""
    rng = np.random.default_rng(seed)
    w = rng.normal(size=d)
    X = rng.normal(size=(4 * n, d)) + rng.normal(size=d)
    b = -np.quantile(X @ w, 0.4)  # both classes well represented
    score = (X @ w + b) / np.linalg.norm(w)
    keep = np.abs(score) > margin
    X, score = X[keep][:n], score[keep][:n]
    return X, np.where(score > 0, 1, -1)


def noisy_data(seed: int, n: int = 40, d: int = 2, flip: float = 0.15):
    """Separable data with a fraction of labels flipped (not linearly separable)."""
    X, y = separable_data(seed, n=n, d=d, margin=0.0)
    rng = np.random.default_rng(seed + 1000)
    flipped = rng.random(n) < flip
    flipped[0] = True
    return X, np.where(flipped, -y, y)


def fit_quietly(estimator, X, y):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        return estimator.fit(X, y)


# ---------------------------------------------------------------------------------------
# Primal perceptron
# ---------------------------------------------------------------------------------------


def test_cyclic_run_on_li_hang_example_matches_the_hand_derivation():
    # eta = 1, w_0 = (0, 0), b_0 = 0, cyclic order x1, x2, x3; mistake iff y (w.x + b) <= 0.
    # pass 1: x1: 1*(0) = 0 <= 0        -> w = (3, 3),  b = 1     [update 1, sample 0]
    #         x2: 1*(12 + 9 + 1) = 22 > 0
    #         x3: -1*(3 + 3 + 1) = -7   -> w = (2, 2),  b = 0     [update 2, sample 2]
    # pass 2: x1: 12 > 0; x2: 14 > 0
    #         x3: -1*(2 + 2 + 0) = -4   -> w = (1, 1),  b = -1    [update 3, sample 2]
    # pass 3: x1: 5 > 0; x2: 6 > 0
    #         x3: -1*(1 + 1 - 1) = -1   -> w = (0, 0),  b = -2    [update 4, sample 2]
    # pass 4: x1: 1*(0 - 2) = -2        -> w = (3, 3),  b = -1    [update 5, sample 0]
    #         x2: 12 + 9 - 1 = 20 > 0
    #         x3: -1*(3 + 3 - 1) = -5   -> w = (2, 2),  b = -2    [update 6, sample 2]
    # pass 5: x1: 10 > 0; x2: 12 > 0
    #         x3: -1*(2 + 2 - 2) = -2   -> w = (1, 1),  b = -3    [update 7, sample 2]
    # pass 6: x1: 3 > 0; x2: 4 > 0; x3: -1*(1 + 1 - 3) = 1 > 0  -> no mistake: stop.
    model = Perceptron().fit(LI_HANG_X, LI_HANG_Y)
    assert model.converged_
    assert model.n_updates_ == 7
    assert model.n_iter_ == 6
    np.testing.assert_array_equal(model.update_indices_, [0, 2, 2, 2, 0, 2, 2])
    np.testing.assert_array_equal(model.updates_per_pass_, [2, 1, 1, 2, 1, 0])
    np.testing.assert_array_equal(model.mistake_counts_, [2, 0, 5])
    np.testing.assert_array_equal(
        model.weight_history_,
        [[0, 0, 0], [3, 3, 1], [2, 2, 0], [1, 1, -1], [0, 0, -2], [3, 3, -1], [2, 2, -2],
         [1, 1, -3]],
    )
    np.testing.assert_array_equal(model.coef_, [1.0, 1.0])
    assert model.intercept_ == -3.0
    np.testing.assert_array_equal(model.w_hat_, [1.0, 1.0, -3.0])
    np.testing.assert_array_equal(model.predict(LI_HANG_X), LI_HANG_Y)


def test_dual_run_on_li_hang_example_gives_alpha_2_0_5():
    # Same visits as the primal run above: n = (2, 0, 5), so alpha = eta n = (2, 0, 5),
    # b = sum alpha_i y_i = 2 + 0 - 5 = -3, w = 2*(3,3) - 5*(1,1) = (1, 1).
    model = DualPerceptron().fit(LI_HANG_X, LI_HANG_Y)
    np.testing.assert_array_equal(model.alpha_, [2.0, 0.0, 5.0])
    assert model.intercept_ == -3.0
    np.testing.assert_array_equal(model.coef_, [1.0, 1.0])
    np.testing.assert_array_equal(model.update_indices_, [0, 2, 2, 2, 0, 2, 2])
    np.testing.assert_array_equal(model.gram_, LI_HANG_X @ LI_HANG_X.T)
    assert model.converged_ and model.n_iter_ == 6


@pytest.mark.parametrize("order", ["cyclic", "random"])
@pytest.mark.parametrize("seed", range(4))
def test_perceptron_reaches_zero_training_error_on_separable_data(order, seed):
    X, y = separable_data(seed)
    model = Perceptron(order=order, random_state=seed).fit(X, y)
    assert model.converged_
    assert model.score(X, y) == 1.0
    assert model.loss(X, y) == 0.0
    assert np.all(functional_margins(X, y, model.coef_, model.intercept_) > 0)
    # the run stops after the first pass without updates, and only then
    assert model.updates_per_pass_[-1] == 0
    assert np.all(model.updates_per_pass_[:-1] > 0)
    assert model.updates_per_pass_.sum() == model.n_updates_


@pytest.mark.parametrize("eta", [1.0, 0.25])
@pytest.mark.parametrize("seed", range(4))
def test_cyclic_run_from_zero_matches_scikit_learn_perceptron(eta, seed):
    # scikit-learn's Perceptron without shuffling, penalty or early stopping is the same
    # algorithm: cyclic visits, mistake iff y (w.x + b) <= 0, w += eta y x, b += eta y.
    # Once a pass is clean its weights stop changing, so extra passes do not matter.
    X, y = separable_data(seed + 40)
    reference = SkPerceptron(eta0=eta, shuffle=False, tol=None, max_iter=2000,
                             penalty=None).fit(X, y)
    model = Perceptron(eta=eta).fit(X, y)
    np.testing.assert_allclose(model.coef_, reference.coef_.ravel(), rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(model.intercept_, reference.intercept_[0], rtol=1e-12,
                               atol=1e-12)


def test_every_update_is_made_on_a_mistake_of_the_current_weights():
    X, y = separable_data(7)
    model = Perceptron(eta=0.3, w_init=[1.0, -2.0, 0.5], b_init=0.7, order="random",
                       random_state=3).fit(X, y)
    X_hat = np.hstack([X, np.ones((len(X), 1))])
    W = model.weight_history_
    i = model.update_indices_
    assert np.all(y[i] * np.einsum("kj,kj->k", W[:-1], X_hat[i]) <= 0)
    np.testing.assert_allclose(np.diff(W, axis=0), 0.3 * y[i, None] * X_hat[i], rtol=1e-12)
    np.testing.assert_array_equal(W[0], [1.0, -2.0, 0.5, 0.7])
    np.testing.assert_array_equal(W[-1], model.w_hat_)
    np.testing.assert_array_equal(np.bincount(i, minlength=len(X)), model.mistake_counts_)


def test_zero_score_counts_as_a_training_mistake():
    # From w = 0 every point has margin 0, so the first visited point is updated on.
    X = np.array([[1.0], [-1.0]])
    model = Perceptron().fit(X, [1, -1])
    assert model.update_indices_[0] == 0
    # starting on a perfect separator makes no update: one clean pass
    model = Perceptron(w_init=[1.0]).fit(X, [1, -1])
    assert model.n_updates_ == 0 and model.n_iter_ == 1 and model.converged_


def test_predict_uses_sign_zero_equals_plus_one():
    model = Perceptron().fit(LI_HANG_X, LI_HANG_Y)  # w = (1, 1), b = -3
    on_hyperplane = np.array([[1.0, 2.0], [3.0, 0.0]])
    np.testing.assert_array_equal(model.decision_function(on_hyperplane), [0.0, 0.0])
    np.testing.assert_array_equal(model.predict(on_hyperplane), [1, 1])


def test_without_intercept_the_bias_stays_at_b_init():
    X, y = separable_data(2)
    X = X - X.mean(axis=0)
    y = np.where(X @ np.array([1.0, -1.0, 0.5]) > 0, 1, -1)  # separable through the origin
    model = Perceptron(fit_intercept=False, b_init=0.0).fit(X, y)
    assert model.converged_ and model.intercept_ == 0.0
    assert np.all(model.weight_history_[:, -1] == 0.0)
    model = fit_quietly(Perceptron(fit_intercept=False, b_init=0.25, max_iter=5), X, y)
    assert model.intercept_ == 0.25


def test_xor_does_not_converge_and_warns_with_the_update_count():
    with pytest.warns(ConvergenceWarning, match=r"max_iter=20 .*\(\d+ updates"):
        model = Perceptron(max_iter=20).fit(XOR_X, XOR_Y)
    assert not model.converged_
    assert model.n_iter_ == 20
    assert np.all(model.updates_per_pass_ > 0)
    with pytest.warns(ConvergenceWarning, match="DualPerceptron did not converge"):
        dual = DualPerceptron(max_iter=20).fit(XOR_X, XOR_Y)
    assert not dual.converged_ and dual.n_iter_ == 20


def test_string_labels_round_trip_and_classes_one_is_positive():
    y = np.where(LI_HANG_Y > 0, "spam", "ham")
    model = Perceptron().fit(LI_HANG_X, y)
    np.testing.assert_array_equal(model.classes_, ["ham", "spam"])
    np.testing.assert_array_equal(model.predict(LI_HANG_X), y)
    np.testing.assert_array_equal(model.coef_, [1.0, 1.0])  # "spam" plays +1
    assert model.loss(LI_HANG_X, y) == 0.0
    for estimator in (DualPerceptron(), PocketPerceptron(random_state=0)):
        np.testing.assert_array_equal(estimator.fit(LI_HANG_X, y).predict(LI_HANG_X), y)
    np.testing.assert_array_equal(NotesPocket().fit(LI_HANG_X, y).classes_, ["ham", "spam"])


def test_loss_is_minus_the_sum_of_nonpositive_margins():
    X = np.array([[1.0], [-1.0], [2.0], [0.0]])
    y = np.array([1, 1, -1, 1])
    # w = 1, b = 0: margins 1, -1, -2, 0 -> M = {1, 2, 3}, L = -(-1 - 2 + 0) = 3
    np.testing.assert_array_equal(functional_margins(X, y, [1.0], 0.0), [1, -1, -2, 0])
    assert perceptron_loss(X, y, [1.0], 0.0) == 3.0
    labels = np.array(["a", "a", "b", "a"])  # classes_ = [a, b]: "b" is +1
    fitted = fit_quietly(Perceptron(max_iter=3), X, labels)
    expected = perceptron_loss(X, np.where(labels == "b", 1, -1), fitted.coef_,
                               fitted.intercept_)
    assert fitted.loss(X, labels) == expected


@pytest.mark.parametrize("seed", range(3))
def test_random_order_is_deterministic_given_random_state(seed):
    X, y = separable_data(seed + 10, n=80)
    a = Perceptron(order="random", random_state=seed).fit(X, y)
    b = Perceptron(order="random", random_state=seed).fit(X, y)
    np.testing.assert_array_equal(a.update_indices_, b.update_indices_)
    np.testing.assert_array_equal(a.w_hat_, b.w_hat_)
    # From zero the first visited point is a mistake: it is the first of the first
    # permutation drawn from default_rng(random_state).
    first_pass = np.random.default_rng(seed).permutation(len(X))
    assert a.update_indices_[0] == first_pass[0]


def test_different_seeds_give_different_visiting_orders():
    X, y = separable_data(11, n=80)
    runs = {tuple(Perceptron(order="random", random_state=s).fit(X, y).update_indices_)
            for s in range(5)}
    assert len(runs) > 1


def test_cyclic_order_ignores_random_state():
    X, y = separable_data(12)
    a = Perceptron(random_state=0).fit(X, y)
    b = Perceptron(random_state=99).fit(X, y)
    np.testing.assert_array_equal(a.update_indices_, b.update_indices_)


# ---------------------------------------------------------------------------------------
# Dual perceptron
# ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("order", ["cyclic", "random"])
@pytest.mark.parametrize("eta", [1.0, 0.5])
@pytest.mark.parametrize("seed", range(3))
def test_dual_equals_primal_from_zero_on_integer_data_exactly(order, eta, seed):
    # Small integers and dyadic eta: every sum is exact, so the runs agree bitwise.
    rng = np.random.default_rng(seed)
    X = rng.integers(-5, 6, size=(30, 3)).astype(float)
    y = np.where(X @ np.array([2.0, -1.0, 1.0]) + 0.5 > 0, 1, -1)
    primal = Perceptron(eta=eta, order=order, random_state=seed).fit(X, y)
    dual = DualPerceptron(eta=eta, order=order, random_state=seed).fit(X, y)
    np.testing.assert_array_equal(primal.update_indices_, dual.update_indices_)
    np.testing.assert_array_equal(primal.mistake_counts_, dual.mistake_counts_)
    np.testing.assert_array_equal(primal.coef_, dual.coef_)
    assert primal.intercept_ == dual.intercept_
    assert primal.n_iter_ == dual.n_iter_ and dual.converged_


@pytest.mark.parametrize("seed", range(3))
def test_dual_equals_primal_from_zero_on_float_data(seed):
    X, y = separable_data(seed + 20)
    primal = Perceptron(eta=0.1, order="random", random_state=seed).fit(X, y)
    dual = DualPerceptron(eta=0.1, order="random", random_state=seed).fit(X, y)
    np.testing.assert_array_equal(primal.update_indices_, dual.update_indices_)
    np.testing.assert_allclose(dual.coef_, primal.coef_, rtol=1e-10, atol=1e-12)
    assert dual.intercept_ == primal.intercept_  # both add eta*y_i in the same order
    np.testing.assert_array_equal(dual.alpha_, 0.1 * dual.mistake_counts_)
    np.testing.assert_allclose(np.sum(dual.alpha_ * dual.y_signed_), dual.intercept_,
                               atol=1e-12)
    np.testing.assert_allclose(dual.decision_function(X), primal.decision_function(X),
                               rtol=1e-9, atol=1e-9)


def test_dual_keeps_tiny_kernel_terms_when_b_returns_to_zero():
    # x = (1, -1, 1e-200), y = (+1, -1, +1), cyclic from zero:
    # update on x1 (margin 0): w = 1, b = 1; update on x2 (margin -1*(-1 + 1) = 0): w = 2,
    # b = 0; x3 then has margin 2e-200 > 0. A dual that folded b into its running scores
    # would compute (1e-200 + 1) + (1e-200 - 1) = 0 for x3 and wrongly update on it.
    X = np.array([[1.0], [-1.0], [1e-200]])
    y = np.array([1, -1, 1])
    primal = Perceptron().fit(X, y)
    dual = DualPerceptron().fit(X, y)
    np.testing.assert_array_equal(primal.update_indices_, [0, 1])
    np.testing.assert_array_equal(dual.update_indices_, [0, 1])
    assert dual.intercept_ == 0.0 and dual.converged_


def test_dual_with_a_polynomial_kernel_separates_xor():
    def quadratic(A, B):
        return (A @ B.T + 1.0) ** 2

    model = DualPerceptron(kernel=quadratic).fit(XOR_X, XOR_Y)
    assert model.converged_
    np.testing.assert_array_equal(model.predict(XOR_X), XOR_Y)
    np.testing.assert_array_equal(model.gram_, quadratic(XOR_X, XOR_X))
    assert not hasattr(model, "coef_")  # no explicit w in feature space


def test_dual_with_callable_linear_kernel_matches_builtin_linear():
    X, y = separable_data(5)
    builtin = DualPerceptron().fit(X, y)
    custom = DualPerceptron(kernel=lambda A, B: A @ B.T).fit(X, y)
    np.testing.assert_array_equal(builtin.update_indices_, custom.update_indices_)
    np.testing.assert_allclose(custom.decision_function(X), builtin.decision_function(X),
                               rtol=1e-12, atol=1e-12)


# ---------------------------------------------------------------------------------------
# Pocket PLA
# ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(4))
def test_pocket_errors_never_increase_and_track_the_best_iterate(seed):
    X, y = noisy_data(seed)
    model = PocketPerceptron(max_iter=300, random_state=seed).fit(X, y)
    assert np.all(np.diff(model.pocket_errors_) <= 0)
    np.testing.assert_array_equal(model.pocket_errors_,
                                  np.minimum.accumulate(model.current_errors_))
    assert model.pocket_errors_.shape == (model.n_updates_ + 1,)
    # the pocket's reported count is the count of the returned weights
    mistakes = np.sum(functional_margins(X, y, model.coef_, model.intercept_) <= 0)
    assert mistakes == model.pocket_errors_[-1]
    np.testing.assert_array_equal(model.weight_history_[model.pocket_iteration_], model.w_hat_)
    np.testing.assert_array_equal(model.weight_history_[-1], model.last_w_hat_)


@pytest.mark.parametrize("seed", range(3))
def test_pocket_updates_on_mistakes_and_stops_at_max_iter_without_warning(seed):
    X, y = noisy_data(seed + 5)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        model = PocketPerceptron(eta=0.5, max_iter=50, random_state=seed).fit(X, y)
    assert model.n_updates_ == 50 and not model.converged_
    X_hat = np.hstack([X, np.ones((len(X), 1))])
    W, i = model.weight_history_, model.update_indices_
    assert np.all(y[i] * np.einsum("kj,kj->k", W[:-1], X_hat[i]) <= 0)
    counts = (y[None, :] * (W @ X_hat.T) <= 0).sum(axis=1)
    np.testing.assert_array_equal(counts, model.current_errors_)


@pytest.mark.parametrize("seed", range(3))
def test_pocket_finds_a_zero_error_separator_on_separable_data(seed):
    X, y = separable_data(seed + 30, n=40)
    model = PocketPerceptron(max_iter=5000, random_state=seed).fit(X, y)
    assert model.converged_
    assert model.pocket_errors_[-1] == 0
    assert model.score(X, y) == 1.0
    np.testing.assert_array_equal(model.w_hat_, model.last_w_hat_)


def test_pocket_picks_mistakes_uniformly_including_the_last_one():
    # Two points, both mistakes of w = 0: over many seeds both get picked first.
    X = np.array([[1.0], [-1.0]])
    firsts = {int(PocketPerceptron(max_iter=1, random_state=s).fit(X, [1, -1])
                  .update_indices_[0]) for s in range(30)}
    assert firsts == {0, 1}


# ---------------------------------------------------------------------------------------
# NotesPocket: 000 §1.5's code, bugs included
# ---------------------------------------------------------------------------------------

# 1-D data x = (-1, -1, 0), y = (+1, -1, -1), start w = 2, b = -1 (eta = 1).
NOTES_X = np.array([[-1.0], [-1.0], [0.0]])
NOTES_Y = np.array([1, -1, -1])


def test_notes_pocket_bug_a_lets_the_pocket_get_worse():
    # w_0 = (2, -1): margins y(wx + b) = (-3, 3, 1)        -> mistakes {0}, pocket errors 1.
    # iter 1: one mistake -> the code uses i = 0 (here it is the mistake).
    #         w_1 = (2, -1) + (+1)(-1, 1) = (1, 0): margins (-1, 1, 0) -> 2 mistakes.
    #         2 <= 1 (current w_0's count)? no  -> pocket kept (1 error).
    # iter 2: mistakes {0, 2}: randint(0, 1) = 0 -> i = 0.
    #         w_2 = (1, 0) + (-1, 1) = (0, 1): margins (1, -1, -1) -> 2 mistakes.
    #         2 <= 2 (current w_1's count)? yes -> pocket := w_2 with 2 errors > 1.
    model = NotesPocket(max_iter=2, w_init=[2.0], b_init=-1.0, random_state=0)
    model.fit(NOTES_X, NOTES_Y)
    np.testing.assert_array_equal(model.update_indices_, [0, 0])
    np.testing.assert_array_equal(model.current_errors_, [1, 2, 2])
    np.testing.assert_array_equal(model.pocket_errors_, [1, 1, 2])
    np.testing.assert_array_equal(model.w_hat_, [0.0, 1.0])
    # the corrected pocket keeps the 1-error start on the same data
    fixed = PocketPerceptron(max_iter=2, w_init=[2.0], b_init=-1.0, random_state=0)
    fixed.fit(NOTES_X, NOTES_Y)
    np.testing.assert_array_equal(fixed.pocket_errors_, [1, 1, 1])
    np.testing.assert_array_equal(fixed.w_hat_, [2.0, -1.0])


def test_notes_pocket_bug_b_never_picks_the_last_mistake():
    # w = 0: both points are mistakes; randint(0, 2 - 1) is always 0.
    X = np.array([[1.0], [-1.0]])
    firsts = {int(NotesPocket(max_iter=1, random_state=s).fit(X, [1, -1]).update_indices_[0])
              for s in range(30)}
    assert firsts == {0}


def test_notes_pocket_bug_c_uses_sample_zero_for_a_single_mistake():
    # w = 1, b = -1.5 on x = (2, 1, -1), y = (+1, +1, -1): margins (0.5, -0.5, 2.5),
    # the only mistake is sample 1, but the note's code updates with sample 0.
    X = np.array([[2.0], [1.0], [-1.0]])
    y = np.array([1, 1, -1])
    notes = NotesPocket(max_iter=1, w_init=[1.0], b_init=-1.5).fit(X, y)
    fixed = PocketPerceptron(max_iter=1, w_init=[1.0], b_init=-1.5).fit(X, y)
    assert notes.update_indices_.tolist() == [0]
    assert fixed.update_indices_.tolist() == [1]


@pytest.mark.parametrize("seed", range(5))
def test_notes_pocket_never_separates_li_hang_example_because_of_bug_c(seed):
    # w_0 = 0: all three margins are 0, randint(0, 2) picks sample 0 or 1 (both +1), so
    # w_1 = (3, 3, 1) or (4, 3, 1). Now x1, x2 are correct and x3 = (1, 1), y = -1 has
    # margin -(w1 + w2 + b) < 0: it is the only mistake, so the code adds sample 0 again,
    # (3, 3, +1), which lowers x3's margin by 7. x3 stays the single mistake forever.
    model = NotesPocket(max_iter=200, random_state=seed).fit(LI_HANG_X, LI_HANG_Y)
    assert not model.converged_
    assert model.update_indices_[0] in (0, 1)
    assert np.all(model.update_indices_[1:] == 0)
    assert np.all(model.current_errors_[1:] == 1)
    assert model.pocket_errors_[-1] == 1
    # The corrected pocket and plain PLA separate the same data.
    assert PocketPerceptron(max_iter=200, random_state=seed).fit(
        LI_HANG_X, LI_HANG_Y).pocket_errors_[-1] == 0


# ---------------------------------------------------------------------------------------
# Input validation: every bad input is a ValueError naming the argument
# ---------------------------------------------------------------------------------------

GOOD_X, GOOD_Y = LI_HANG_X, LI_HANG_Y
ALL_ESTIMATORS = (Perceptron, DualPerceptron, PocketPerceptron, NotesPocket)


@pytest.mark.parametrize("estimator", ALL_ESTIMATORS)
@pytest.mark.parametrize(
    ("X", "y", "match"),
    [
        (np.array([[np.nan, 1.0], [1.0, 2.0], [3.0, 1.0]]), GOOD_Y, "X"),
        (np.array([[np.inf, 1.0], [1.0, 2.0], [3.0, 1.0]]), GOOD_Y, "X"),
        (np.array([1.0, 2.0, 3.0]), GOOD_Y, "X"),
        (np.empty((0, 2)), np.empty(0), "X"),
        (GOOD_X, np.array([1, -1]), "X and y must have as many samples"),
        (GOOD_X, np.array([1, 1, 1]), "y must contain at least 2 classes .*perceptron"),
        (GOOD_X, np.array([1.0, np.nan, -1.0]), "y contains NaN"),
        (GOOD_X, np.array([0, 1, 2]), "Only binary classification .*y must contain at most 2"),
        (GOOD_X, None, "target y is None"),
    ],
)
def test_bad_training_data_raises_value_error_naming_it(estimator, X, y, match):
    with pytest.raises(ValueError, match=match):
        estimator().fit(X, y)


@pytest.mark.parametrize("estimator", ALL_ESTIMATORS)
@pytest.mark.parametrize("eta", [0.0, -1.0, np.nan, np.inf, "fast", True])
def test_bad_eta_raises_value_error_naming_eta(estimator, eta):
    with pytest.raises(ValueError, match="eta"):
        estimator(eta=eta).fit(GOOD_X, GOOD_Y)


@pytest.mark.parametrize("estimator", ALL_ESTIMATORS)
@pytest.mark.parametrize("max_iter", [0, -3, 2.5, None])
def test_bad_max_iter_raises_value_error_naming_max_iter(estimator, max_iter):
    with pytest.raises(ValueError, match="max_iter"):
        estimator(max_iter=max_iter).fit(GOOD_X, GOOD_Y)


@pytest.mark.parametrize("estimator", [Perceptron, DualPerceptron])
@pytest.mark.parametrize("order", ["zigzag", None, "Cyclic"])
def test_bad_order_raises_value_error_naming_order(estimator, order):
    with pytest.raises(ValueError, match="order"):
        estimator(order=order).fit(GOOD_X, GOOD_Y)


@pytest.mark.parametrize("estimator", ALL_ESTIMATORS)
def test_bad_random_state_raises_value_error_naming_it(estimator):
    with pytest.raises(ValueError, match="random_state"):
        estimator(random_state="seed").fit(GOOD_X, GOOD_Y)


@pytest.mark.parametrize("estimator", [Perceptron, PocketPerceptron, NotesPocket])
@pytest.mark.parametrize(
    ("params", "match"),
    [
        ({"w_init": [1.0, 2.0, 3.0]}, "w_init"),
        ({"w_init": [[1.0, 2.0]]}, "w_init"),
        ({"w_init": [np.nan, 1.0]}, "w_init"),
        ({"w_init": ["a", "b"]}, "w_init"),
        ({"b_init": np.inf}, "b_init"),
        ({"b_init": "zero"}, "b_init"),
    ],
)
def test_bad_initial_weights_raise_value_error_naming_them(estimator, params, match):
    with pytest.raises(ValueError, match=match):
        estimator(**params).fit(GOOD_X, GOOD_Y)


def test_bad_fit_intercept_raises_value_error_naming_it():
    with pytest.raises(ValueError, match="fit_intercept"):
        Perceptron(fit_intercept="yes").fit(GOOD_X, GOOD_Y)


@pytest.mark.parametrize(
    ("kernel", "match"),
    [
        ("rbf", "kernel"),
        (lambda A, B: np.ones((2, 2)), "kernel must return a matrix of shape"),
        (lambda A, B: np.full((len(A), len(B)), np.nan), "kernel returned NaN"),
    ],
)
def test_bad_kernel_raises_value_error_naming_kernel(kernel, match):
    with pytest.raises(ValueError, match=match):
        DualPerceptron(kernel=kernel).fit(GOOD_X, GOOD_Y)


@pytest.mark.parametrize("estimator", ALL_ESTIMATORS)
def test_predict_rejects_wrong_feature_count_and_nan(estimator):
    model = estimator().fit(GOOD_X, GOOD_Y)
    with pytest.raises(ValueError, match="X has 3 features"):
        model.predict(np.ones((2, 3)))
    with pytest.raises(ValueError, match="X contains NaN"):
        model.predict(np.array([[np.nan, 1.0]]))


def test_loss_rejects_labels_outside_the_fitted_classes():
    model = Perceptron().fit(GOOD_X, GOOD_Y)
    with pytest.raises(ValueError, match="y contains labels outside"):
        model.loss(GOOD_X, [1, 2, -1])
    with pytest.raises(ValueError, match="y has 2 labels"):
        model.loss(GOOD_X, [1, -1])


@pytest.mark.parametrize(
    ("args", "match"),
    [
        ((np.ones(3), GOOD_Y, [1.0, 1.0], 0.0), "X"),
        ((GOOD_X, [1, 0, -1], [1.0, 1.0], 0.0), "y"),
        ((GOOD_X, GOOD_Y, [1.0], 0.0), "w"),
        ((GOOD_X, GOOD_Y, [1.0, np.nan], 0.0), "w"),
        ((GOOD_X, GOOD_Y, [1.0, 1.0], np.nan), "b"),
        ((np.array([[np.inf, 0.0]] * 3), GOOD_Y, [1.0, 1.0], 0.0), "X"),
    ],
)
def test_margin_functions_reject_bad_arguments(args, match):
    with pytest.raises(ValueError, match=match):
        functional_margins(*args)
    with pytest.raises(ValueError, match=match):
        perceptron_loss(*args)


def test_predict_signs_scores_that_overflow_and_decision_function_refuses_them():
    # w = (2, 2), b = -5 separates LI_HANG_X already: no update, the weights stay put.
    model = Perceptron(w_init=[2.0, 2.0], b_init=-5.0).fit(LI_HANG_X, LI_HANG_Y)
    assert model.n_updates_ == 0
    big = 1e308
    # true scores: -5 (2*big - 2*big: inf - inf = NaN in float64), +inf-ish, -inf-ish, and
    # 2*(big - 0.9 big) - 5 > 0 (2*big overflows alone)
    X = np.array([[big, -big], [big, big], [-big, -big], [big, -0.9 * big]])
    np.testing.assert_array_equal(model.predict(X), [-1, 1, -1, 1])
    with pytest.raises(ValueError, match="float64 range"):
        model.decision_function(X)


@pytest.mark.parametrize("estimator", [Perceptron, PocketPerceptron, NotesPocket])
def test_huge_x_eta_or_max_iter_refused_with_a_named_error(estimator):
    with pytest.raises(ValueError, match="X has entries"):
        estimator().fit(GOOD_X * 1e300, GOOD_Y)
    with pytest.raises(ValueError, match="overflowed"):
        # the first update on (3, 3, 1) adds 3e308 to -1e308
        estimator(eta=1e308, w_init=[-1e308, -1e308], max_iter=5).fit(GOOD_X, GOOD_Y)
    with pytest.raises(ValueError, match="max_iter"):
        estimator(max_iter=10**12).fit(GOOD_X, GOOD_Y)


# ---------------------------------------------------------------------------------------
# scikit-learn protocol
# ---------------------------------------------------------------------------------------
# (scikit-learn's own estimator checks run on every estimator in
# tests/test_estimator_checks.py.)


@pytest.mark.parametrize(
    ("estimator", "defaults"),
    [
        (Perceptron, {"eta": 1.0, "w_init": None, "b_init": 0.0, "fit_intercept": True,
                      "order": "cyclic", "max_iter": 1000, "random_state": None}),
        (DualPerceptron, {"eta": 1.0, "order": "cyclic", "max_iter": 1000,
                          "random_state": None, "kernel": "linear"}),
        (PocketPerceptron, {"eta": 1.0, "max_iter": 1000, "random_state": None,
                            "w_init": None, "b_init": 0.0}),
        (NotesPocket, {"eta": 1.0, "max_iter": 1000, "random_state": None, "w_init": None,
                       "b_init": 0.0}),
    ],
)
def test_documented_defaults(estimator, defaults):
    assert estimator().get_params() == defaults


@pytest.mark.parametrize("estimator", ALL_ESTIMATORS)
def test_clone_get_params_and_set_params_round_trip(estimator):
    model = estimator(eta=0.5, max_iter=7, random_state=3)
    copy = clone(model)
    assert copy.get_params() == model.get_params()
    assert copy.set_params(eta=0.25) is copy
    assert copy.get_params()["eta"] == 0.25 and model.eta == 0.5
