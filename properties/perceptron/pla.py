"""PLA itself: the hypothesis set, one update, why PLA converges and when it halts
(000 §1.3–1.4, 001 §二.4, 002, 004 §5.3.2–5.3.3).

Notation as in :mod:`properties.perceptron`.
"""


from __future__ import annotations

import warnings

import numpy as np
from hypothesis import example, given
from hypothesis import strategies as st
from sklearn.exceptions import ConvergenceWarning
from sklearn.linear_model import Perceptron as SkPerceptron

from algorithms.perceptron import Perceptron
from mltheory import ErratumKind, Expect, Method, claim, evidence
from mltheory.numeric import EXACT_ARITHMETIC, assert_close
from mltheory.strategies import (
    LabelledData,
    SeparableData,
    finite_floats,
    nonseparable_datasets,
    separable_datasets,
)
from properties.perceptron.strategies import (
    etas,
    orders,
    orthogonal_dataset,
    seeds,
    tight_datasets,
)
from properties.perceptron.support import (
    ACCUMULATED_ROUNDING,
    check_alignment_steps,
    check_cosine_growth,
    check_margin_gain,
    check_norm_steps,
    check_pla_steps,
    check_predict_is_sign,
    check_updates_on_mistakes,
    dyadic,
    fit_pla,
    perceptron_loss,
    pla_run,
    radius_squared,
    run_of,
)

# ---------------------------------------------------------------------------
# The hypothesis set (000 §1.3, 002)
# ---------------------------------------------------------------------------


@claim(
    id="perceptron.threshold_absorbed_as_w0",
    source="000 §1.3; 002 'Perceptron Hypothesis Set'",
    statement="sign(sum_i w_i x_i - threshold) equals sign(w^T x) for the vectors extended "
    "by w_0 = -threshold and x_0 = +1.",
    method=Method.PROPERTY,
    tags=("perceptron", "hypothesis-set"),
)
@given(
    w=st.lists(finite_floats(), min_size=1, max_size=5),
    data=st.data(),
    threshold=finite_floats(),
)
def threshold_absorbed_as_w0(w, data, threshold):
    w = np.asarray(w)
    x = np.asarray(data.draw(st.lists(finite_floats(), min_size=w.size, max_size=w.size)))
    direct = np.sign(float(np.dot(w, x)) - threshold)
    absorbed = np.sign(float(np.dot(np.append(-threshold, w), np.append(1.0, x))))
    assert direct == absorbed, (direct, absorbed)


def _score_and_rule(w, data, threshold):
    """A drawn x for weights ``w``, its score sum_i w_i x_i and h(x) = sign(score - threshold)."""
    w = np.asarray(w)
    x = np.asarray(data.draw(st.lists(finite_floats(), min_size=w.size, max_size=w.size)))
    score = float(np.dot(w, x))
    return x, score, np.sign(score - threshold)


_WEIGHTS = st.lists(finite_floats(), min_size=1, max_size=5)


_SMALL_INTS = st.integers(-8, 8).map(float)
#: Coordinates of the points scored: small integers (exact, zero scores reachable), floats
#: near the float max (two of them make w.x overflow, to inf - inf = NaN when they cancel),
#: any float, and integers scaled by powers of ten from 1e-300 to 1e300.
_COORDINATES = (
    _SMALL_INTS
    | st.tuples(st.sampled_from([-1.0, 1.0]), st.floats(5e307, 1.7e308)).map(
        lambda t: t[0] * t[1])
    | st.floats(-1.7e308, 1.7e308)
    | st.builds(lambda k, e: k * 10.0**e, st.integers(-8, 8), st.integers(-300, 300))
)
#: Points to score, three coordinates each (a model with fewer features reads a prefix).
POINTS = st.lists(st.lists(_COORDINATES, min_size=3, max_size=3), min_size=1, max_size=6)


@claim(
    id="perceptron.predict_is_sign_of_score",
    source="004 §5.1; 001 §一.4 (output)",
    statement="A fitted perceptron predicts f(x) = sign(w.x + b) with sign(0) = +1: the "
    "positive class exactly where the exact score w.x + b is >= 0, at every x whose score "
    "float64 can resolve, with coordinates from 1e-300 up to the float max (where the "
    "float64 score itself overflows).",
    method=Method.PROPERTY,
    tags=("perceptron", "hypothesis-set"),
)
@given(w=st.lists(_SMALL_INTS, min_size=1, max_size=3), b=_SMALL_INTS, points=POINTS)
# Scores of -5 (2e308 - 2e308: inf - inf in float64), +-1.4e308 (the first product alone
# overflows), 0 exactly (sign(0) = +1) and -3.
@example(w=[2.0, 2.0], b=-5.0,
         points=[[1e308, -1e308, 0.0], [1.7e308, -1e308, 0.0], [-1.7e308, 1e308, 0.0],
                 [1.0, 1.5, 0.0], [-1.0, 2.0, 0.0]])
def predict_is_sign_of_score(w, b, points):
    check_predict_is_sign(np.asarray(w), b, [x[: len(w)] for x in points])


@claim(
    id="perceptron.pla_with_x0_is_pla_with_bias",
    source="002 'Perceptron Hypothesis Set', 'Cyclic PLA'; 000 §1.3",
    statement="Lin's PLA on the vectors x = (x_0 = 1, x_1, ..., x_d) with no separate bias "
    "(w <- w + y x) makes the same updates as PLA with a bias on (x_1, ..., x_d) "
    "(w <- w + y x, b <- b + y), and its w_0 is that bias (w_0 = -threshold).",
    method=Method.PROPERTY,
    tags=("perceptron", "hypothesis-set"),
)
@given(data=separable_datasets() | nonseparable_datasets(),
       eta=st.sampled_from([1.0, 0.5, 0.25, 0.125]), order=orders, seed=seeds)
def pla_with_x0_is_pla_with_bias(data, eta, order, seed):
    data = dyadic(data)  # the two runs sum in different orders: keep every sum exact
    with_bias = fit_pla(data, eta=eta, order=order, random_state=seed, max_iter=50)
    X0 = np.hstack([np.ones((data.n_samples, 1)), data.X])
    lin = Perceptron(eta=eta, order=order, random_state=seed, max_iter=50, fit_intercept=False)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        lin.fit(X0, data.y)
    assert np.array_equal(lin.update_indices_, with_bias.update_indices_), (
        lin.update_indices_.tolist()[:20], with_bias.update_indices_.tolist()[:20])
    assert lin.intercept_ == 0.0, "no bias: b stays at b_init = 0"
    assert_close(np.append(lin.coef_[1:], lin.coef_[0]), with_bias.w_hat_, EXACT_ARITHMETIC,
                 label="(w_1..w_d, w_0) vs (w, b)")


@claim(
    id="perceptron.decision_rule_in_words",
    source="000 §1.3; 002 'Perceptron Hypothesis Set'",
    statement="The rule in words (positive, approve credit, when the score sum_i w_i x_i "
    "exceeds the threshold; negative, deny, when it is below) is the perceptron "
    "h(x) = sign(sum_i w_i x_i - threshold) at every x off the boundary score = threshold.",
    method=Method.PROPERTY,
    tags=("perceptron", "hypothesis-set"),
)
@given(w=_WEIGHTS, data=st.data(), threshold=finite_floats())
def decision_rule_in_words(w, data, threshold):
    _, score, h = _score_and_rule(w, data, threshold)
    if score == threshold:
        return  # the boundary: both notes leave it out ("ignore the equals")
    rule = 1.0 if score > threshold else -1.0
    assert rule == h, f"score {score!r}, threshold {threshold!r}: rule {rule}, h(x) = {h}"


@claim(
    id="perceptron.decision_rule_in_words_as_written",
    source="002 'Perceptron Hypothesis Set'",
    statement="(As printed) credit is denied if score > threshold: h(x) = -1 at every x "
    "whose score sum_i w_i x_i exceeds the threshold.",
    method=Method.PROPERTY,
    tags=("perceptron", "hypothesis-set", "erratum"),
    expect=Expect.REFUTED,
    kind=ErratumKind.SYMBOL,
    corrected_by="perceptron.decision_rule_in_words",
    explanation="The note states both approval and denial with 'score > threshold'; denial "
    "is for score < threshold (000 §1.3 has it right). As printed, every x with a score "
    "above the threshold, which h = sign(score - threshold) approves, would be denied.",
)
@given(w=_WEIGHTS, data=st.data(), threshold=finite_floats())
def decision_rule_in_words_as_written(w, data, threshold):
    _, score, h = _score_and_rule(w, data, threshold)
    if score > threshold:
        assert h == -1.0, f"score {score!r} > threshold {threshold!r} but h(x) = {h} (approve)"


@claim(
    id="perceptron.augmented_weight_as_written",
    source="001 §二.2",
    statement="(As printed) with w_hat = (x^T, b)^T and x_hat = (x^T, 1)^T, "
    "w_hat . x_hat = w . x + b.",
    method=Method.PROPERTY,
    tags=("perceptron", "hypothesis-set", "erratum"),
    expect=Expect.REFUTED,
    kind=ErratumKind.SYMBOL,
    corrected_by="perceptron.threshold_absorbed_as_w0",
    explanation="The augmented weight is w_hat = (w^T, b)^T (000 §1.4, 004 §5.3.3): the note "
    "writes x for w. Read literally, w_hat . x_hat = ||x||^2 + b, which equals w . x + b only "
    "when x . (x - w) = 0.",
)
@given(w=_WEIGHTS, data=st.data(), b=finite_floats())
def augmented_weight_as_written(w, data, b):
    x, score, _ = _score_and_rule(w, data, 0.0)
    printed = float(np.dot(np.append(x, b), np.append(x, 1.0)))
    assert_close(printed, score + b, EXACT_ARITHMETIC, label="w_hat.x_hat - (w.x + b)",
                 scale=float(np.dot(x, x) + np.abs(w) @ np.abs(x) + abs(b)))


# ---------------------------------------------------------------------------
# One update (002 Fun Time; 000 §1.4; 004 §5.3.2)
# ---------------------------------------------------------------------------


def _updates(run):
    """(before, after, x_hat, y) arrays for every update of a run."""
    before, after = run.W[:-1], run.W[1:]
    return before, after, run.X_hat[run.idx], run.y[run.idx]


@claim(
    id="perceptron.update_increases_functional_margin",
    source="002 'Cyclic PLA' Fun Time; 004 §5.3.2",
    statement="After an update on (x_n, y_n), y_n w_{t+1}^T x_n >= y_n w_t^T x_n; precisely, "
    "the margin grows by eta (||x_n||^2 + 1) > 0 (x without the constant coordinate, the "
    "1 coming from the bias).",
    method=Method.PROPERTY,
    tags=("perceptron", "update"),
)
@given(data=separable_datasets() | tight_datasets(), eta=etas, order=orders)
def update_increases_functional_margin(data, eta, order):
    check_margin_gain(pla_run(data, eta=eta, order=order))


@claim(
    id="perceptron.one_update_may_not_fix_the_mistake",
    source="002 'Cyclic PLA' Fun Time",
    statement="One update need not correct the point it was made on: there are w_t and a "
    "mistake (x_n, y_n) with sign(w_{t+1}^T x_n) != y_n (options 1 and 2 of the Fun Time "
    "are not always true).",
    method=Method.ENUMERATION,
    tags=("perceptron", "update"),
)
def one_update_may_not_fix_the_mistake(rng):
    # Random small instances: w_t, x, y with y w_t.x <= 0; count those still wrong after
    # w_t + y x. The claim is existential: verified iff a witness is found.
    n = 2000
    w = rng.normal(size=(n, 3)) * 5
    x = np.hstack([rng.normal(size=(n, 2)), np.ones((n, 1))])
    y = np.where(rng.random(n) < 0.5, -1, 1)
    mistake = y * np.sum(w * x, axis=1) <= 0
    after = w + y[:, None] * x
    still_wrong = mistake & (y * np.sum(after * x, axis=1) <= 0)
    evidence.add_examples(int(mistake.sum()))
    evidence.record("mistakes still wrong after one update", int(still_wrong.sum()))
    assert still_wrong.any(), "no instance where one update leaves the point misclassified"
    i = int(np.flatnonzero(still_wrong)[0])
    evidence.note(f"witness: w_t={w[i].round(3).tolist()}, x={x[i].round(3).tolist()}, y={y[i]}")


def _notes_pla_code(X: np.ndarray, y: np.ndarray, max_passes: int):
    """000 §1.3's pla()/update() transcribed line by line (sign = np.sign, so a score of
    exactly 0 counts as a mistake through tmp_y * y <= 0). Returns (w, b, num)."""
    w, b, num = np.zeros(X.shape[1]), 0.0, 0
    for _ in range(max_passes):
        count = 0
        for i in range(X.shape[0]):
            tmp_y = np.sign(X[i] @ w + b)
            if tmp_y * y[i] <= 0:
                count += 1
                num += 1
                w, b = y[i] * X[i] + w, b + y[i]
        if count == 0:
            return w, b, num
    raise AssertionError(f"the note's code did not halt within {max_passes} passes")


@claim(
    id="perceptron.notes_pla_code_is_cyclic_pla",
    source="000 §1.3 (code); 002 'Cyclic PLA'",
    statement="The Python pla()/update() code of 000 §1.3 implements cyclic PLA: it updates "
    "w <- w + y_i x_i, b <- b + y_i on every point with y_i sign(w.x_i + b) <= 0, in index "
    "order, and stops after a pass without mistakes; on separable data it returns the same "
    "(w, b) and update count as cyclic PLA with eta = 1 (Perceptron's defaults: eta = 1, "
    "cyclic order, start from zero).",
    method=Method.REFERENCE,
    tags=("perceptron",),
)
@given(data=separable_datasets(min_margin=0.05))
def notes_pla_code_is_cyclic_pla(data):
    R2 = float(np.max(np.sum(data.augmented() ** 2, axis=1)))
    passes = int(R2 / data.margin**2) + 2  # Novikoff bounds the updates, hence the passes
    ours = Perceptron(max_iter=passes).fit(data.X, data.y)  # defaults: eta 1, cyclic, from 0
    y = np.where(data.y == ours.classes_[1], 1, -1)
    w, b, num = _notes_pla_code(data.X, y, passes)
    assert num == ours.n_updates_, f"note's code made {num} updates, cyclic PLA {ours.n_updates_}"
    assert_close(np.append(w, b), ours.w_hat_, EXACT_ARITHMETIC, label="note code vs PLA")


@claim(
    id="perceptron.cyclic_pla_matches_scikit_learn",
    source="001 §一.4; 002 'Cyclic PLA'; 004 §5.3.1",
    statement="Cyclic PLA from w = 0, b = 0 with step eta (mistake iff y (w.x + b) <= 0, "
    "w <- w + eta y x, b <- b + eta y) gives, pass for pass, the weights of scikit-learn's "
    "independent Perceptron(eta0=eta, shuffle=False, penalty=None, tol=None) run for the "
    "same number of epochs (on dyadic data, where float64 is exact).",
    method=Method.REFERENCE,
    tags=("perceptron",),
)
@given(data=separable_datasets() | nonseparable_datasets(),
       eta=st.sampled_from([1.0, 0.5, 0.25, 0.125]), passes=st.integers(1, 40))
def cyclic_pla_matches_scikit_learn(data, eta, passes):
    X = dyadic(data).X  # exact sums and products in both codes
    ours = fit_pla(LabelledData(X=X, y=data.y), eta=eta, max_iter=passes)
    reference = SkPerceptron(eta0=eta, shuffle=False, penalty=None, tol=None,
                             max_iter=passes)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        reference.fit(X, data.y)
    assert_close(np.append(reference.coef_.ravel(), reference.intercept_), ours.w_hat_,
                 EXACT_ARITHMETIC, label="scikit-learn vs PLA")


# ---------------------------------------------------------------------------
# Why PLA converges (000 §1.4, 002 "Guarantee of PLA")
# ---------------------------------------------------------------------------


def _alignment_gains(data: SeparableData, eta: float, order: str):
    run = pla_run(data, eta=eta, order=order)
    w_f = data.separator
    before, after, _, _ = _updates(run)
    return run, before @ w_f, after @ w_f, float(np.min(run.y * (run.X_hat @ w_f)))


@claim(
    id="perceptron.alignment_with_wf_grows",
    source="000 §1.4; 002 'Guarantee of PLA'",
    statement="For a perfect separator w_f, every update satisfies w_f^T w_{t+1} >= "
    "w_f^T w_t + min_n y_n w_f^T x_n > w_f^T w_t.",
    method=Method.PROPERTY,
    tags=("perceptron", "convergence", "bound"),
)
@given(data=separable_datasets() | tight_datasets(), order=orders)
@example(data=orthogonal_dataset(np.array([1, 1, -1, -1])), order="cyclic")
def alignment_with_wf_grows(data, order):
    run, a_before, a_after, min_margin = _alignment_gains(data, 1.0, order)
    assert min_margin > 0
    check_alignment_steps(run, data.separator, min_margin)
    assert np.all(a_after > a_before), "w_f.w_t did not increase"


@claim(
    id="perceptron.alignment_with_wt_as_written",
    source="000 §1.4",
    statement="(As printed) every update satisfies w_t^T w_{t+1} >= w_f^T w_t + "
    "min_n y_n w_f^T x_n > w_f^T w_t.",
    method=Method.PROPERTY,
    tags=("perceptron", "convergence", "erratum"),
    expect=Expect.REFUTED,
    kind=ErratumKind.SYMBOL,
    corrected_by="perceptron.alignment_with_wf_grows",
    explanation="The left-hand side should be w_f^T w_{t+1}: the note writes w_t^T w_{t+1}^T "
    "(a wrong vector and a stray transpose). With w_t, the product is ||w_t||^2 + "
    "y w_t^T x <= ||w_t||^2, which is unrelated to w_f; for w_0 = 0 it is 0 while the "
    "right-hand side is positive.",
)
@given(data=separable_datasets(), order=orders)
def alignment_with_wt_as_written(data, order):
    run, a_before, _, min_margin = _alignment_gains(data, 1.0, order)
    before, after, _, _ = _updates(run)
    lhs = np.sum(before * after, axis=1)  # w_t^T w_{t+1}
    rhs = a_before + min_margin
    bad = np.flatnonzero(lhs < rhs)
    assert bad.size == 0, (
        f"update {bad[0] + 1}: w_t.w_(t+1) = {lhs[bad[0]]!r} < w_f.w_t + min_n y_n w_f.x_n = "
        f"{rhs[bad[0]]!r}" if bad.size else ""
    )


@claim(
    id="perceptron.updates_only_on_mistakes",
    source="000 §1.4; 002 'Guarantee of PLA'; 001 §一.4",
    statement="PLA changes w only at a mistake: at every update, sign(w_t^T x_n(t)) != y_n(t), "
    "i.e. y_n(t) w_t^T x_n(t) <= 0 (a zero score counts as a mistake), and a run that halts "
    "leaves every training point with a positive margin.",
    method=Method.PROPERTY,
    tags=("perceptron", "update"),
)
@given(data=separable_datasets() | nonseparable_datasets(), eta=etas, order=orders)
def updates_only_on_mistakes(data, eta, order):
    est = fit_pla(data, eta=eta, order=order, max_iter=50)
    run = run_of(est, data, eta)
    check_updates_on_mistakes(run, est.update_margins_)
    if est.converged_:
        assert np.all(run.y * (run.X_hat @ est.w_hat_) > 0), "halted with a mistake left"


@claim(
    id="perceptron.mistake_premise_as_written",
    source="002 'Guarantee of PLA'",
    statement="(As printed) at an update, y_{n(t)} w_t^T x_{n(t)} >= min_n y_n w_t^T x_n > 0.",
    method=Method.PROPERTY,
    tags=("perceptron", "convergence", "erratum"),
    expect=Expect.REFUTED,
    kind=ErratumKind.SYMBOL,
    corrected_by="perceptron.alignment_with_wf_grows",
    explanation="The premise should be about the perfect separator w_f (y_n w_f^T x_n >= "
    "min_n y_n w_f^T x_n > 0). Written with w_t it contradicts the very definition of the "
    "mistake being corrected, for which y w_t^T x <= 0.",
)
@given(data=separable_datasets(), order=orders)
def mistake_premise_as_written(data, order):
    run = pla_run(data, order=order)
    before, _, xs, ys = _updates(run)
    margins = ys * np.sum(before * xs, axis=1)
    assert np.all(margins > 0), (
        f"at update 1 the corrected point has y w_t.x = {margins[0]!r}, not > 0"
    )


@claim(
    id="perceptron.norm_growth_bounded",
    source="000 §1.4; 002 'Guarantee of PLA'",
    statement="Every update satisfies ||w_{t+1}||^2 <= ||w_t||^2 + max_n ||x_n||^2 "
    "(x with the constant coordinate x_0 = 1).",
    method=Method.PROPERTY,
    tags=("perceptron", "convergence", "bound"),
)
@given(data=separable_datasets() | nonseparable_datasets() | tight_datasets(), order=orders)
@example(data=orthogonal_dataset(np.array([1, -1, 1])), order="random")
def norm_growth_bounded(data, order):
    run = pla_run(data, order=order, max_iter=50)
    check_pla_steps(run)
    check_norm_steps(run)


@claim(
    id="perceptron.cosine_grows_like_sqrt_t",
    source="002 'Guarantee of PLA'",
    statement="From w_0 = 0, after T updates cos(angle(w_f, w_T)) >= sqrt(T) rho / R, with "
    "R^2 = max_n ||x_n||^2 and rho = min_n y_n w_f^T x_n / ||w_f||.",
    method=Method.PROPERTY,
    tags=("perceptron", "convergence", "bound"),
)
@given(data=separable_datasets() | tight_datasets(), order=orders)
@example(data=orthogonal_dataset(np.array([1, -1, 1, -1, 1, -1])), order="cyclic")
def cosine_grows_like_sqrt_t(data, order):
    check_cosine_growth(pla_run(data, order=order), data.separator)



@claim(
    id="perceptron.cosine_chain_equality_as_written",
    source="002 'Guarantee of PLA'",
    statement="(As printed) after T updates from w_0 = 0, cos(angle(w_f, w_T)) equals "
    "(1/||w_f||) T min_n y_n w_f^T x_n / (sqrt(T) sqrt(max_n ||x_n||^2)), the proof's second "
    "equality.",
    method=Method.PROPERTY,
    tags=("perceptron", "convergence", "erratum"),
    expect=Expect.REFUTED,
    kind=ErratumKind.OVERCLAIM,
    corrected_by="perceptron.cosine_grows_like_sqrt_t",
    explanation="The step puts the lower bound T min_n y_n w_f^T x_n in place of w_f^T w_T and "
    "the upper bound sqrt(T) R in place of ||w_T||: it is an inequality (>=), an equality only "
    "when every update is made on a point of least margin orthogonal to the current w (the "
    "orthogonal data sets of the Novikoff claims). The chain's conclusion "
    "cos >= sqrt(T) rho / R is right.",
)
@given(data=separable_datasets(), order=orders)
def cosine_chain_equality_as_written(data, order):
    run = pla_run(data, order=order)
    w_f = data.separator
    W = run.W[1:]
    T = np.arange(1, run.k + 1)
    cos = (W @ w_f) / (np.linalg.norm(W, axis=1) * np.linalg.norm(w_f))
    printed = (T * float(np.min(run.y * (run.X_hat @ w_f)))
               / (np.sqrt(T) * np.sqrt(radius_squared(run))) / np.linalg.norm(w_f))
    assert_close(cos, printed, ACCUMULATED_ROUNDING, label="cos - printed right-hand side")


# ---------------------------------------------------------------------------
# Halting (000 §1.4, 001 §二.4, 004 §5.3.3)
# ---------------------------------------------------------------------------


def updates_bound_from(w_hat0_norm: float, R: float, gamma: float, eta: float) -> float:
    """Most updates PLA can make from a start of norm ``||w_hat_0||`` on data of radius R
    separated with margin gamma: Novikoff's two lemmas from w_hat_0 give
    k eta gamma - ||w_hat_0|| <= w_hat_k . w_hat_opt <= ||w_hat_k|| <= ||w_hat_0|| + sqrt(k) eta R,
    a quadratic in sqrt(k); from zero it is (R/gamma)^2."""
    root = (eta * R + np.sqrt((eta * R) ** 2 + 8 * gamma * eta * w_hat0_norm)) / (2 * gamma * eta)
    return float(root**2)


@claim(
    id="perceptron.pla_halts_on_separable_data",
    source="001 §二.1, §二.4; 000 §1.4; 004 §5.3.1, §5.3.3",
    statement="On linearly separable data the primal algorithm halts after finitely many "
    "updates from any initial value (w_0, b_0) and with any eta in (0, 1], and the last w "
    "(w_PLA) makes no mistake on the training set.",
    method=Method.PROPERTY,
    tags=("perceptron", "convergence"),
)
@given(data=separable_datasets(min_margin=0.05), eta=etas, order=orders, start=st.data())
def pla_halts_on_separable_data(data, eta, order, start):
    w_hat0 = np.asarray(start.draw(st.sampled_from([0.0, 1.0])) * np.asarray(start.draw(
        st.lists(st.floats(-1, 1), min_size=data.n_features + 1,
                 max_size=data.n_features + 1))))
    R = float(np.sqrt(np.max(np.sum(data.augmented() ** 2, axis=1))))
    bound = updates_bound_from(float(np.linalg.norm(w_hat0)), R, data.margin, eta)
    # Every pass but the last makes an update: passes <= updates + 1.
    est = Perceptron(eta=eta, order=order, w_init=w_hat0[:-1], b_init=w_hat0[-1],
                     max_iter=int(bound) + 2).fit(data.X, data.y)
    assert est.converged_, f"not halted after {est.n_iter_} passes (bound {bound:.3g})"
    assert est.n_updates_ <= bound * (1 + 1e-9), (est.n_updates_, bound)
    assert np.all(est.predict(data.X) == data.y)
    y = np.where(data.y == est.classes_[1], 1, -1)
    assert np.all(y * (data.augmented() @ est.w_hat_) > 0)
    assert est.loss(data.X, data.y) == 0.0, "no mistake left but a positive loss"


@claim(
    id="perceptron.pla_never_halts_on_nonseparable_data",
    source="001 §二.4; 004 §5.3.3",
    statement="On data that are not linearly separable the algorithm does not converge: "
    "every pass over the data makes at least one update, so the iterates keep changing "
    "(oscillate) and no iterate classifies the training set without mistakes.",
    method=Method.PROPERTY,
    tags=("perceptron", "convergence"),
)
@given(data=nonseparable_datasets(), order=orders, passes=st.integers(1, 30))
def pla_never_halts_on_nonseparable_data(data, order, passes):
    est = Perceptron(order=order, max_iter=passes)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        est.fit(data.X, data.y)
    assert not est.converged_
    assert any(issubclass(w.category, ConvergenceWarning) for w in caught)
    assert est.n_updates_ >= passes  # at least one update per pass
    X_hat = data.augmented()
    y = np.where(data.y == est.classes_[1], 1, -1)
    mistakes = np.sum((np.asarray(est.weight_history_) @ X_hat.T) * y <= 0, axis=1)
    assert np.all(mistakes >= 1), mistakes
    # The model's loss (labels as given) against the independent one at the final weights.
    assert_close(est.loss(data.X, data.y), perceptron_loss(X_hat, y, est.w_hat_),
                 ACCUMULATED_ROUNDING, label="model loss error")


@claim(
    id="perceptron.solution_depends_on_order",
    source="001 §二.5; 004 §5.3.2",
    statement="PLA has many solutions: the separating hyperplane found depends on the order "
    "in which misclassified points are chosen (and on the initial value).",
    method=Method.ENUMERATION,
    tags=("perceptron",),
)
def solution_depends_on_order(rng):
    differing = by_start = 0
    for trial in range(50):
        X = rng.normal(size=(12, 2))
        w = rng.normal(size=2)
        y = np.where(X @ w + 0.3 >= 0, 1, -1)
        if len(set(y)) < 2:
            continue
        a = Perceptron(order="cyclic", max_iter=10_000).fit(X, y)
        b = Perceptron(order="cyclic", max_iter=10_000).fit(X[::-1], y[::-1])
        c = Perceptron(order="cyclic", max_iter=10_000, w_init=rng.normal(size=2),
                       b_init=float(rng.normal())).fit(X, y)
        evidence.add_examples(1)
        if a.converged_ and b.converged_ and not np.allclose(a.w_hat_, b.w_hat_):
            differing += 1
            if differing == 1:
                evidence.note(f"first witness at trial {trial}: w_hat {a.w_hat_.round(3)} "
                              f"vs reversed order {b.w_hat_.round(3)}")
        if a.converged_ and c.converged_ and not np.allclose(a.w_hat_, c.w_hat_):
            by_start += 1
    evidence.record("datasets where the order changed the solution", differing)
    evidence.record("datasets where the initial value changed the solution", by_start)
    assert differing > 0, "visiting order never changed the solution"
    assert by_start > 0, "the initial value never changed the solution"
