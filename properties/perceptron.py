"""Claims of the perceptron material: notes 000 §1.3–1.5, 001 §一–三, 002, 004 §五.

Notation: x_hat = (x, 1) and w_hat = (w, b) absorb the bias (001 §二.2); a
"run" is primal PLA from w_hat_0 = 0 with learning rate eta, and its history
w_hat_0, ..., w_hat_k is read from the estimator's ``weight_history_``.
"""

from __future__ import annotations

import warnings

import numpy as np
from hypothesis import example, given
from hypothesis import strategies as st
from sklearn.exceptions import ConvergenceWarning

from algorithms.perceptron import DualPerceptron, NotesPocket, Perceptron, PocketPerceptron
from mltheory import Expect, Method, claim, evidence
from mltheory.numeric import EXACT_ARITHMETIC, Tolerance, assert_close, assert_leq
from mltheory.stats import check_probability_at_least
from mltheory.strategies import (
    LabelledData,
    SeparableData,
    finite_floats,
    nonseparable_datasets,
    separable_datasets,
)
from properties._perceptron_support import (
    ACCUMULATED_ROUNDING,
    best_margin,
    check_alignment_lemma,
    check_cosine_growth,
    check_norm_growth,
    check_norm_lemma,
    check_novikoff,
    check_updates_on_mistakes,
    fit_pla,
    perceptron_loss,
    radius_squared,
    run_of,
)

etas = st.floats(1e-3, 1.0)
#: Positive reals spread evenly over twelve orders of magnitude (10^-6 .. 10^6).
log_uniform = st.floats(-6, 6).map(lambda e: 10.0**e)
orders = st.sampled_from(["cyclic", "random"])
seeds = st.integers(0, 2**16)


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
@given(data=separable_datasets(), eta=etas, order=orders)
def update_increases_functional_margin(data, eta, order):
    run = run_of(fit_pla(data, eta=eta, order=order), data, eta)
    before, after, xs, ys = _updates(run)
    gain = ys * np.sum(after * xs, axis=1) - ys * np.sum(before * xs, axis=1)
    expected = eta * np.sum(xs**2, axis=1)  # ||x_hat||^2 = ||x||^2 + 1
    assert np.all(gain > 0), gain
    assert_close(gain, expected, ACCUMULATED_ROUNDING, label="margin gain error")


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
    "(w, b) and update count as cyclic PLA with eta = 1.",
    method=Method.REFERENCE,
    tags=("perceptron",),
)
@given(data=separable_datasets(min_margin=0.05))
def notes_pla_code_is_cyclic_pla(data):
    R2 = float(np.max(np.sum(data.augmented() ** 2, axis=1)))
    passes = int(R2 / data.margin**2) + 2  # Novikoff bounds the updates, hence the passes
    ours = Perceptron(order="cyclic", eta=1.0, max_iter=passes).fit(data.X, data.y)
    y = np.where(data.y == ours.classes_[1], 1, -1)
    w, b, num = _notes_pla_code(data.X, y, passes)
    assert num == ours.n_updates_, f"note's code made {num} updates, cyclic PLA {ours.n_updates_}"
    assert_close(np.append(w, b), ours.w_hat_, EXACT_ARITHMETIC, label="note code vs PLA")


# ---------------------------------------------------------------------------
# Why PLA converges (000 §1.4, 002 "Guarantee of PLA")
# ---------------------------------------------------------------------------


def _alignment_gains(data: SeparableData, eta: float, order: str):
    run = run_of(fit_pla(data, eta=eta, order=order), data, eta)
    w_f = data.separator
    before, after, _, _ = _updates(run)
    return run, before @ w_f, after @ w_f, float(np.min(run.y * (run.X_hat @ w_f)))


@claim(
    id="perceptron.alignment_with_wf_grows",
    source="000 §1.4; 002 'Guarantee of PLA'",
    statement="For a perfect separator w_f, every update satisfies w_f^T w_{t+1} >= "
    "w_f^T w_t + min_n y_n w_f^T x_n > w_f^T w_t.",
    method=Method.PROPERTY,
    tags=("perceptron", "convergence"),
)
@given(data=separable_datasets(), order=orders)
def alignment_with_wf_grows(data, order):
    run, a_before, a_after, min_margin = _alignment_gains(data, 1.0, order)
    assert min_margin > 0
    lhs, rhs = a_after, a_before + min_margin
    slack = ACCUMULATED_ROUNDING.bound(lhs, rhs)
    bad = np.flatnonzero(lhs < rhs - slack)
    assert bad.size == 0, (
        f"update {bad[0] + 1}: w_f.w_(t+1) = {lhs[bad[0]]!r} < w_f.w_t + min margin = "
        f"{rhs[bad[0]]!r}" if bad.size else ""
    )
    assert np.all(a_after > a_before), "w_f.w_t did not increase"


@claim(
    id="perceptron.alignment_with_wt_as_written",
    source="000 §1.4",
    statement="(As printed) every update satisfies w_t^T w_{t+1} >= w_f^T w_t + "
    "min_n y_n w_f^T x_n > w_f^T w_t.",
    method=Method.PROPERTY,
    tags=("perceptron", "convergence", "erratum"),
    expect=Expect.REFUTED,
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
    corrected_by="perceptron.alignment_with_wf_grows",
    explanation="The premise should be about the perfect separator w_f (y_n w_f^T x_n >= "
    "min_n y_n w_f^T x_n > 0). Written with w_t it contradicts the very definition of the "
    "mistake being corrected, for which y w_t^T x <= 0.",
)
@given(data=separable_datasets(), order=orders)
def mistake_premise_as_written(data, order):
    run = run_of(fit_pla(data, order=order), data, 1.0)
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
    tags=("perceptron", "convergence"),
)
@given(data=separable_datasets() | nonseparable_datasets(), order=orders)
def norm_growth_bounded(data, order):
    check_norm_growth(run_of(fit_pla(data, order=order, max_iter=50), data, 1.0))


@claim(
    id="perceptron.cosine_grows_like_sqrt_t",
    source="002 'Guarantee of PLA'",
    statement="From w_0 = 0, after T updates cos(angle(w_f, w_T)) >= sqrt(T) rho / R, with "
    "R^2 = max_n ||x_n||^2 and rho = min_n y_n w_f^T x_n / ||w_f||.",
    method=Method.PROPERTY,
    tags=("perceptron", "convergence"),
)
@given(data=separable_datasets(), order=orders)
def cosine_grows_like_sqrt_t(data, order):
    check_cosine_growth(run_of(fit_pla(data, order=order), data, 1.0), data.separator)


# ---------------------------------------------------------------------------
# Novikoff's theorem (001 §二.3, 000 §1.4, 004 §5.3.3)
# ---------------------------------------------------------------------------


@claim(
    id="perceptron.novikoff_bound",
    source="001 §二.3; 000 §1.4; 004 §5.3.3",
    statement="On data separated with margin gamma by a unit-norm w_hat_opt = (w_opt, b_opt), "
    "primal PLA started from w_hat_0 = 0 with any eta in (0, 1] and any choice of "
    "misclassified points makes k <= (R/gamma)^2 updates, R = max_i ||(x_i, 1)||.",
    method=Method.PROPERTY,
    tags=("perceptron", "convergence", "novikoff"),
)
@given(data=separable_datasets(), eta=etas, order=orders, seed=seeds)
@example(
    # Two points on a line, margin 0.1 around the threshold 0 (bias-free separator).
    data=SeparableData(X=np.array([[0.1], [-0.1]]), y=np.array([1, -1]),
                       separator=np.array([1.0, 0.0]), margin=0.1),
    eta=1.0, order="cyclic", seed=0,
)
def novikoff_bound(data, eta, order, seed):
    est = fit_pla(data, eta=eta, order=order, random_state=seed)
    run = run_of(est, data, eta)
    _, gamma = best_margin(data, run.X_hat, run.y)
    evidence.worst("updates k", run.k)
    check_novikoff(run, gamma)


@claim(
    id="perceptron.novikoff_alignment_lemma",
    source="001 §二.3 (proof); 000 §1.4 (26)",
    statement="During primal PLA from zero, w_hat_k . w_hat_opt >= k eta gamma after every "
    "update k.",
    method=Method.PROPERTY,
    tags=("perceptron", "convergence", "novikoff"),
)
@given(data=separable_datasets(), eta=etas, order=orders)
def novikoff_alignment_lemma(data, eta, order):
    run = run_of(fit_pla(data, eta=eta, order=order), data, eta)
    check_alignment_lemma(run, data.separator, data.margin)


@claim(
    id="perceptron.novikoff_norm_lemma",
    source="000 §1.4 (29); 001 §二.3 (proof, last chain)",
    statement="During primal PLA from zero, ||w_hat_k||^2 <= k eta^2 R^2 after every update k.",
    method=Method.PROPERTY,
    tags=("perceptron", "convergence", "novikoff"),
)
@given(data=separable_datasets() | nonseparable_datasets(), eta=etas, order=orders)
def novikoff_norm_lemma(data, eta, order):
    run = run_of(fit_pla(data, eta=eta, order=order, max_iter=50), data, eta)
    check_norm_lemma(run, radius_squared)


@claim(
    id="perceptron.novikoff_norm_lemma_as_written",
    source="001 §二.3 (proof)",
    statement="(As announced in the proof) ||w_hat_k||^2 <= k eta^2 gamma^2 after every "
    "update k.",
    method=Method.PROPERTY,
    tags=("perceptron", "convergence", "novikoff", "erratum"),
    expect=Expect.REFUTED,
    corrected_by="perceptron.novikoff_norm_lemma",
    explanation="The second inequality to prove should read k eta^2 R^2 (as the chain below it "
    "concludes). With gamma it is false as soon as k >= 1: Cauchy-Schwarz and the first "
    "lemma give ||w_hat_k||^2 >= (k eta gamma)^2 >= k eta^2 gamma^2, with equality only in "
    "degenerate cases.",
)
@given(data=separable_datasets(), eta=etas, order=orders)
def novikoff_norm_lemma_as_written(data, eta, order):
    run = run_of(fit_pla(data, eta=eta, order=order), data, eta)
    check_norm_lemma(run, lambda r: data.margin**2)


# ---------------------------------------------------------------------------
# Lin's Fun Time bound (002)
# ---------------------------------------------------------------------------


@claim(
    id="perceptron.lin_mistake_bound",
    source="002 'Guarantee of PLA' Fun Time",
    statement="PLA from w_0 = 0 (eta = 1) corrects T <= R^2 / rho^2 mistakes, with "
    "R^2 = max_n ||x_n||^2 and rho = min_n y_n w_f^T x_n / ||w_f|| for any perfect w_f.",
    method=Method.PROPERTY,
    tags=("perceptron", "convergence"),
)
@given(data=separable_datasets(), order=orders)
def lin_mistake_bound(data, order):
    run = run_of(fit_pla(data, order=order), data, 1.0)
    rho = float(np.min(run.y * (run.X_hat @ data.separator)))  # separator has unit norm
    check_novikoff(run, rho)


@claim(
    id="perceptron.lin_bound_inference_as_written",
    source="002 'Guarantee of PLA' Fun Time (explanation)",
    statement="(As printed) from sqrt(T) rho / R <= cos(theta) <= 1 it follows that "
    "T >= rho^2 / R^2.",
    method=Method.PROPERTY,
    tags=("perceptron", "convergence", "erratum"),
    expect=Expect.REFUTED,
    corrected_by="perceptron.lin_bound_inference",
    explanation="The inequality is turned the wrong way: sqrt(T) rho / R <= 1 gives the upper "
    "bound T <= R^2/rho^2 that the question asks for (and that the note ticks as the "
    "answer), not a lower bound. The premise allows any small T > 0.",
)
@given(T=log_uniform, rho=st.floats(1e-3, 1e3), ratio=st.floats(1e-3, 1.0))
# T = 1/4, rho = R = 1: the premise sqrt(T) rho / R = 1/2 <= 1 holds, the conclusion T >= 1
# does not.
@example(T=0.25, rho=1.0, ratio=1.0)
def lin_bound_inference_as_written(T, rho, ratio):
    R = rho / ratio  # any R >= rho
    if np.sqrt(T) * rho / R <= 1:  # the premise holds; the conclusion must follow
        assert T >= rho**2 / R**2, f"premise holds but T={T} < rho^2/R^2={rho**2 / R**2}"


@claim(
    id="perceptron.lin_bound_inference",
    source="002 'Guarantee of PLA' Fun Time (explanation)",
    statement="For T, rho, R > 0, sqrt(T) rho / R <= 1 implies T <= R^2 / rho^2.",
    method=Method.PROPERTY,
    tags=("perceptron", "convergence"),
)
@given(T=log_uniform, rho=st.floats(1e-3, 1e3), ratio=st.floats(1e-3, 1.0))
def lin_bound_inference(T, rho, ratio):
    R = rho / ratio
    if np.sqrt(T) * rho / R <= 1:
        assert_leq(T, R**2 / rho**2, label="T / (R/rho)^2", tol=EXACT_ARITHMETIC)


# ---------------------------------------------------------------------------
# Halting (000 §1.4, 001 §二.4, 004 §5.3.3)
# ---------------------------------------------------------------------------


@claim(
    id="perceptron.pla_halts_on_separable_data",
    source="001 §二.4; 000 §1.4; 004 §5.3.3",
    statement="On linearly separable data the primal algorithm halts after finitely many "
    "updates, and the last w (w_PLA) makes no mistake on the training set.",
    method=Method.PROPERTY,
    tags=("perceptron", "convergence"),
)
@given(data=separable_datasets(min_margin=0.05), eta=etas, order=orders)
def pla_halts_on_separable_data(data, eta, order):
    run = run_of(fit_pla(data, eta=eta, order=order), data, eta)
    R2 = radius_squared(run)
    # Novikoff with the drawn separator bounds the updates, hence the passes.
    bound = R2 / data.margin**2
    est = Perceptron(eta=eta, order=order, max_iter=int(bound) + 2).fit(data.X, data.y)
    assert est.converged_, f"not halted after {est.n_iter_} passes (bound {bound:.3g})"
    assert np.all(est.predict(data.X) == data.y)
    assert np.all(run.y * (data.augmented() @ est.w_hat_) > 0)


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


@claim(
    id="perceptron.solution_depends_on_order",
    source="001 §二.5; 004 §5.3.2",
    statement="PLA has many solutions: the separating hyperplane found depends on the order "
    "in which misclassified points are chosen (and on the initial value).",
    method=Method.ENUMERATION,
    tags=("perceptron",),
)
def solution_depends_on_order(rng):
    differing = 0
    for trial in range(50):
        X = rng.normal(size=(12, 2))
        w = rng.normal(size=2)
        y = np.where(X @ w + 0.3 >= 0, 1, -1)
        if len(set(y)) < 2:
            continue
        a = Perceptron(order="cyclic", max_iter=10_000).fit(X, y)
        b = Perceptron(order="cyclic", max_iter=10_000).fit(X[::-1], y[::-1])
        evidence.add_examples(1)
        if a.converged_ and b.converged_ and not np.allclose(a.w_hat_, b.w_hat_):
            differing += 1
            if differing == 1:
                evidence.note(f"first witness at trial {trial}: w_hat {a.w_hat_.round(3)} "
                              f"vs reversed order {b.w_hat_.round(3)}")
    evidence.record("datasets where the order changed the solution", differing)
    assert differing > 0, "visiting order never changed the solution"


# ---------------------------------------------------------------------------
# Dual form (001 §三, 004 §5.3.4)
# ---------------------------------------------------------------------------


#: Dyadic data: coordinates on a 1/8 grid below 2^10 and steps eta = 2^-j. Every sum and
#: product the two runs form is then a multiple of 2^-12 far below 2^53 in size, so
#: float64 computes them exactly and the runs can be compared update by update, even at
#: margins of exactly 0 where the two algorithms' different summation orders would
#: otherwise round differently.
dyadic_etas = st.sampled_from([1.0, 0.5, 0.25, 0.125])


def _dyadic(data: LabelledData) -> LabelledData:
    X = np.clip(np.round(data.X * 8) / 8, -1024, 1024)
    return LabelledData(X=X, y=data.y)


def _dual_vs_primal(data, eta, order, seed, kernel="linear", passes=50):
    p = fit_pla(data, eta=eta, order=order, random_state=seed, max_iter=passes)
    d = DualPerceptron(eta=eta, order=order, random_state=seed, max_iter=passes, kernel=kernel)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        d.fit(data.X, data.y)
    return p, d


@claim(
    id="perceptron.dual_run_equals_primal_run",
    source="001 §三.1–三.3; 004 §5.3.4",
    statement="Started from alpha = 0, b = 0 and visiting points in the same order, the dual "
    "algorithm with the Gram matrix G = [x_i . x_j] makes the same updates as the primal one "
    "from w = 0, b = 0; alpha_i = n_i eta and w = sum_i alpha_i y_i x_i, b = sum_i alpha_i y_i. "
    "(An identity in exact arithmetic: checked on dyadic data, where float64 is exact.)",
    method=Method.PROPERTY,
    tags=("perceptron", "dual"),
)
@given(data=separable_datasets() | nonseparable_datasets(), eta=dyadic_etas, order=orders,
       seed=seeds)
def dual_run_equals_primal_run(data, eta, order, seed):
    data = _dyadic(data)
    p, d = _dual_vs_primal(data, eta, order, seed)
    evidence.worst("updates compared", p.n_updates_)
    assert np.array_equal(p.update_indices_, d.update_indices_), (
        f"primal updates {p.update_indices_.tolist()[:20]} vs dual "
        f"{d.update_indices_.tolist()[:20]}"
    )
    assert_close(d.alpha_, eta * d.mistake_counts_, EXACT_ARITHMETIC, label="alpha - n eta")
    y = np.where(data.y == d.classes_[1], 1, -1)
    w = (d.alpha_ * y) @ data.X
    b = float(np.sum(d.alpha_ * y))
    assert_close(np.append(w, b), p.w_hat_, EXACT_ARITHMETIC, label="dual vs primal w_hat")
    assert_close(d.intercept_, b, EXACT_ARITHMETIC, label="dual b vs sum alpha y")


def _gram_as_written(A, B):
    """The note's G = [x_i . x_i]: entry (i, j) is x_i . x_i whatever j is."""
    return np.repeat(np.sum(A * A, axis=1)[:, None], B.shape[0], axis=1)


@claim(
    id="perceptron.dual_gram_as_written",
    source="004 §5.3.4 item 3",
    statement="(As printed) the dual algorithm run with the Gram matrix G = [x_i . x_i]_{NxN} "
    "makes the same updates as the primal algorithm.",
    method=Method.PROPERTY,
    tags=("perceptron", "dual", "erratum"),
    expect=Expect.REFUTED,
    corrected_by="perceptron.dual_run_equals_primal_run",
    explanation="The Gram matrix is [x_i . x_j] (001 §三.3); the note repeats the index i, "
    "which makes every column the same vector of squared norms. The note's mistake test in "
    "the same section also writes x where x_i is meant.",
)
@given(data=separable_datasets(), eta=dyadic_etas, order=orders, seed=seeds)
def dual_gram_as_written(data, eta, order, seed):
    data = _dyadic(data)
    p, d = _dual_vs_primal(data, eta, order, seed, kernel=_gram_as_written)
    assert np.array_equal(p.update_indices_, d.update_indices_), (
        f"primal updates {p.update_indices_.tolist()} vs note's dual "
        f"{d.update_indices_.tolist()}"
    )


@claim(
    id="perceptron.update_counts_track_distance_as_written",
    source="001 §三.1",
    statement="(As printed) a point that was updated on more often is closer to the separating "
    "hyperplane: n_i > n_j implies dist(x_i, S) < dist(x_j, S) for the learned S.",
    method=Method.PROPERTY,
    tags=("perceptron", "dual", "erratum"),
    expect=Expect.REFUTED,
    corrected_by="perceptron.dual_run_equals_primal_run",
    explanation="Update counts are a heuristic indicator, not an order of distances: a point "
    "visited early can be updated on several times and still end far from the final "
    "hyperplane. What holds is that w is a combination of the updated points with weights "
    "alpha_i = n_i eta.",
)
@given(data=separable_datasets(min_samples=3), order=orders)
def update_counts_track_distance_as_written(data, order):
    est = fit_pla(data, order=order)
    dist = np.abs(est.decision_function(data.X)) / np.linalg.norm(est.coef_)
    n = est.mistake_counts_
    more = n[:, None] > n[None, :]
    closer = dist[:, None] < dist[None, :]
    bad = np.argwhere(more & ~closer)
    assert bad.size == 0, f"n_{bad[0][0]} > n_{bad[0][1]} but the first point is not closer"


# ---------------------------------------------------------------------------
# The loss function (004 §5.2, 001 §一)
# ---------------------------------------------------------------------------


def _point_on_boundary(data: LabelledData, w: np.ndarray, i: int) -> np.ndarray:
    """w_hat = (w, b) with b chosen so that x_i lies exactly on the hyperplane."""
    return np.append(w, -float(data.X[i] @ w))


@claim(
    id="perceptron.misclassified_iff_negative_margin_as_written",
    source="004 §5.2 item 2; 004 §5.1",
    statement="(As printed) with f(x) = sign(w.x + b) and sign(0) = +1, a point is "
    "misclassified exactly when y (w.x + b) < 0.",
    method=Method.PROPERTY,
    tags=("perceptron", "loss", "erratum"),
    expect=Expect.REFUTED,
    corrected_by="perceptron.misclassified_condition",
    explanation="Under the note's own convention sign(0) = +1, a negative point on the "
    "hyperplane is misclassified although y (w.x + b) = 0. The algorithm's test y (w.x+b) <= 0 "
    "covers it (and also flags positive points on the hyperplane, which f gets right).",
)
@given(data=separable_datasets(), w=st.lists(finite_floats(), min_size=4, max_size=4))
def misclassified_iff_negative_margin_as_written(data, w):
    w = np.resize(np.asarray(w), data.n_features)
    w_hat = np.append(w, 0.0)
    for i in range(data.n_samples):  # also exercise boundary points
        w_hat = _point_on_boundary(data, w, i) if data.y[i] < 0 else w_hat
    f = data.augmented() @ w_hat
    predicted = np.where(f >= 0, 1, -1)
    assert np.array_equal(predicted != data.y, data.y * f < 0)


@claim(
    id="perceptron.misclassified_condition",
    source="004 §5.2 item 2; 004 §5.1; 004 §5.3.1",
    statement="With sign(0) = +1, x is misclassified iff y (w.x + b) < 0 or (w.x + b = 0 and "
    "y = -1); every misclassified point satisfies the algorithm's test y (w.x + b) <= 0.",
    method=Method.PROPERTY,
    tags=("perceptron", "loss"),
)
@given(data=separable_datasets(), w=st.lists(finite_floats(), min_size=4, max_size=4),
       on_boundary=st.integers(0, 30))
def misclassified_condition(data, w, on_boundary):
    w = np.resize(np.asarray(w), data.n_features)
    w_hat = _point_on_boundary(data, w, on_boundary % data.n_samples)
    f = data.augmented() @ w_hat
    wrong = np.where(f >= 0, 1, -1) != data.y
    assert np.array_equal(wrong, (data.y * f < 0) | ((f == 0) & (data.y == -1)))
    assert np.all(data.y[wrong] * f[wrong] <= 0)


@claim(
    id="perceptron.loss_continuously_differentiable_as_written",
    source="004 §5.2 item 4",
    statement="(As printed) the loss L(w, b) = -sum over misclassified points of "
    "y_i (w.x_i + b) is a continuous and differentiable function of (w, b).",
    method=Method.PROPERTY,
    tags=("perceptron", "loss", "erratum"),
    expect=Expect.REFUTED,
    corrected_by="perceptron.loss_properties",
    explanation="Each term is -min(0, y_i (w.x_i + b)), a hinge at zero margin: L is "
    "continuous and piecewise linear but has a kink wherever a point lies on the hyperplane "
    "(the one-sided directional derivatives differ there).",
)
@given(data=separable_datasets(), w=st.lists(finite_floats(), min_size=4, max_size=4),
       direction=st.lists(st.floats(-1, 1), min_size=5, max_size=5))
def loss_continuously_differentiable_as_written(data, w, direction):
    w = np.resize(np.asarray(w), data.n_features)
    w_hat = _point_on_boundary(data, w, 0)
    d = np.resize(np.asarray(direction), data.n_features + 1)
    X_hat = data.augmented()
    # L is piecewise linear: its one-sided directional derivatives are exact sums.
    m = data.y * (X_hat @ w_hat)
    s = data.y * (X_hat @ d)
    right = -np.sum(np.where((m < 0) | ((m == 0) & (s < 0)), s, 0.0))
    left = -np.sum(np.where((m < 0) | ((m == 0) & (s > 0)), s, 0.0))
    assert np.isclose(left, right, rtol=1e-12, atol=1e-12), (
        f"one-sided derivatives differ: {left} (from the left) vs {right} (from the right)"
    )


@claim(
    id="perceptron.loss_properties",
    source="004 §5.2 items 3–4; 001 §一.1, §一.3",
    statement="L(w, b) = -sum_{M} y_i (w.x_i + b) is non-negative, zero iff no point has "
    "y_i (w.x_i + b) < 0, continuous, convex and piecewise linear; where no point lies on the "
    "hyperplane it is differentiable with gradient (-sum_M y_i x_i, -sum_M y_i).",
    method=Method.PROPERTY,
    tags=("perceptron", "loss"),
)
@given(data=separable_datasets() | nonseparable_datasets(),
       w1=st.lists(finite_floats(), min_size=5, max_size=5),
       w2=st.lists(finite_floats(), min_size=5, max_size=5), t=st.floats(0, 1))
def loss_properties(data, w1, w2, t):
    X_hat, y = data.augmented(), data.y
    a = np.resize(np.asarray(w1), X_hat.shape[1])
    b = np.resize(np.asarray(w2), X_hat.shape[1])
    La, Lb = perceptron_loss(X_hat, y, a), perceptron_loss(X_hat, y, b)
    assert La >= 0 and Lb >= 0
    assert (La == 0) == bool(np.all(y * (X_hat @ a) >= 0))
    # Convexity along the segment (implies continuity on it).
    Lt = perceptron_loss(X_hat, y, (1 - t) * a + t * b)
    assert_leq(Lt, (1 - t) * La + t * Lb, label="convexity ratio",
               tol=ACCUMULATED_ROUNDING)
    # Gradient where no margin is zero. On the cell where the set M is fixed, L is the
    # linear function v -> -sum_M y_i x_hat_i . v, so L(a) = grad . a exactly; a central
    # difference with a step that cannot cross a kink (each margin moves by at most
    # step * max ||x_hat_i||) must reproduce the same gradient.
    m = y * (X_hat @ a)
    if np.all(m != 0):
        grad = -(y[m < 0] @ X_hat[m < 0])
        assert_close(La, float(grad @ a), ACCUMULATED_ROUNDING, label="L(a) - grad.a")
        step = 0.5 * float(np.min(np.abs(m))) / float(np.max(np.linalg.norm(X_hat, axis=1)))
        if step > _MIN_FD_STEP:
            eye = np.eye(a.size) * step
            numeric = np.array([
                (perceptron_loss(X_hat, y, a + e) - perceptron_loss(X_hat, y, a - e)) / (2 * step)
                for e in eye
            ])
            assert_close(numeric, grad, _FD_TOL, label="gradient error")


#: Below this step, float64 cancellation in (L(a+e) - L(a-e)) / 2e exceeds _FD_TOL for
#: losses up to ~1e3 (error about 1e-16 * 1e3 / step); such cells are covered by the exact
#: identity L(a) = grad . a instead.
_MIN_FD_STEP = 1e-8
_FD_TOL = Tolerance(
    rtol=1e-5, atol=1e-5,
    reason="central differences of an exactly linear piece lose about eps * |L| / step "
    "to cancellation, at most ~1e-5 for steps >= 1e-8 and |L| <= 1e3",
)


@claim(
    id="perceptron.loss_decreases_every_update_as_written",
    source="004 §5.3.1 item 2",
    statement="(As printed) each stochastic-gradient update on a misclassified point makes "
    "the loss L(w, b) decrease, until it reaches 0.",
    method=Method.PROPERTY,
    tags=("perceptron", "loss", "erratum"),
    expect=Expect.REFUTED,
    corrected_by="perceptron.update_increases_functional_margin",
    explanation="An update fixes the loss term of the chosen point but moves the hyperplane "
    "for all points; others can become misclassified, so L can go up. What is monotone is the "
    "chosen point's margin (it grows by eta (||x||^2 + 1)), and on separable data L reaches "
    "0 after at most (R/gamma)^2 updates.",
)
@given(data=separable_datasets(), eta=etas, order=orders)
def loss_decreases_every_update_as_written(data, eta, order):
    run = run_of(fit_pla(data, eta=eta, order=order), data, eta)
    losses = np.array([perceptron_loss(run.X_hat, run.y, w) for w in run.W])
    increases = np.flatnonzero(np.diff(losses) > 0)
    assert increases.size == 0, (
        f"update {int(increases[0]) + 1} raised L from {losses[increases[0]]!r} to "
        f"{losses[increases[0] + 1]!r}"
    )


@claim(
    id="perceptron.distance_decreases_as_written",
    source="004 §5.3.2 item 1; 001 §一.4",
    statement="(As printed) when a misclassified point is used for an update with eta in "
    "(0, 1], its distance to the hyperplane decreases: d' < d.",
    method=Method.PROPERTY,
    tags=("perceptron", "update", "erratum"),
    expect=Expect.REFUTED,
    corrected_by="perceptron.update_increases_functional_margin",
    explanation="The derivation replaces ||w'|| by ||w|| (the '≃' step) and its last line "
    "drops the eta in front of the 1: the first-order change is -eta (||x||^2 + 1)/||w||. For "
    "a finite step the geometric distance can grow: the point can be overshot (crossing to "
    "the other side far away) or ||w'|| can shrink a lot, even while the point stays "
    "misclassified. The exact, always-true statement is about the functional margin.",
)
@given(
    w=st.lists(finite_floats(), min_size=1, max_size=3), b=finite_floats(),
    x_seed=st.lists(finite_floats(), min_size=3, max_size=3), eta=etas,
)
@example(w=[1.0], b=-2.0, x_seed=[-0.9, 0.0, 0.0], eta=1.0)
def distance_decreases_as_written(w, b, x_seed, eta):
    w = np.asarray(w)
    x = np.asarray(x_seed[: w.size])
    if not np.any(w):  # no hyperplane
        return
    f = float(w @ x + b)
    y = 1.0 if f < 0 else -1.0  # label the point so that it is misclassified
    w2, b2 = w + eta * y * x, b + eta * y
    if not np.any(w2):
        return
    d = abs(f) / np.linalg.norm(w)
    d2 = abs(float(w2 @ x + b2)) / np.linalg.norm(w2)
    assert d2 < d, f"distance went from {d!r} to {d2!r}"


# ---------------------------------------------------------------------------
# Pocket (002 "Pocket PLA", 000 §1.5)
# ---------------------------------------------------------------------------


def _errors(X_hat, y, W):
    return np.sum((W @ X_hat.T) * y <= 0, axis=-1)


@claim(
    id="perceptron.pocket_never_gets_worse",
    source="002 'Pocket PLA'; 000 §1.5",
    statement="The pocket weights w_hat are replaced only by a w_{t+1} that makes fewer "
    "mistakes, so the pocket's training error never increases and the returned w_POCKET is "
    "the best of all iterates visited.",
    method=Method.PROPERTY,
    tags=("perceptron", "pocket"),
)
@given(data=nonseparable_datasets() | separable_datasets(), seed=seeds,
       iters=st.integers(1, 60))
def pocket_never_gets_worse(data, seed, iters):
    est = PocketPerceptron(max_iter=iters, random_state=seed).fit(data.X, data.y)
    pocket = np.asarray(est.pocket_errors_)
    current = np.asarray(est.current_errors_)
    assert np.all(np.diff(pocket) <= 0), pocket
    assert np.array_equal(pocket, np.minimum.accumulate(current)), (pocket, current)
    y = np.where(data.y == est.classes_[1], 1, -1)
    returned = int(_errors(data.augmented(), y, np.append(est.coef_, est.intercept_)))
    assert returned == pocket[-1] == current.min()


def _notes_pocket_errors(data, seed, iters):
    est = NotesPocket(max_iter=iters, random_state=seed).fit(data.X, data.y)
    return np.asarray(est.pocket_errors_)


@claim(
    id="perceptron.pocket_code_never_gets_worse_as_written",
    source="000 §1.5 (code)",
    statement="(The note's Python code) the pocket kept by the printed pocket() / update() "
    "code never gets worse: its training error is non-increasing.",
    method=Method.PROPERTY,
    tags=("perceptron", "pocket", "erratum"),
    expect=Expect.REFUTED,
    corrected_by="perceptron.pocket_never_gets_worse",
    explanation="update() compares the candidate with the current w (len(classify(tmp_w)) <= "
    "len(classify(self.w))), not with the pocket, so a candidate worse than the pocket but "
    "no worse than w_t replaces it. The code also draws randint(0, len - 1), which never "
    "picks the last mistake, and uses sample 0 instead of the only mistake when one is left.",
)
@given(data=nonseparable_datasets(), seed=seeds, iters=st.integers(2, 60))
def pocket_code_never_gets_worse_as_written(data, seed, iters):
    errors = _notes_pocket_errors(data, seed, iters)
    assert np.all(np.diff(errors) <= 0), f"pocket error went up: {errors.tolist()}"


@claim(
    id="perceptron.pocket_reaches_zero_error_on_separable_data",
    source="002 'Pocket PLA' Fun Time; 000 §1.5",
    statement="On linearly separable data, pocket run for more than (R/gamma)^2 iterations "
    "returns a w with no training mistake, like PLA (it only costs more: every candidate is "
    "scored on the whole data set).",
    method=Method.PROPERTY,
    tags=("perceptron", "pocket"),
)
@given(data=separable_datasets(min_margin=0.05), seed=seeds)
def pocket_reaches_zero_error_on_separable_data(data, seed):
    R2 = float(np.max(np.sum(data.augmented() ** 2, axis=1)))
    iters = int(R2 / data.margin**2) + 1
    est = PocketPerceptron(max_iter=iters, random_state=seed).fit(data.X, data.y)
    # Novikoff bounds PLA's updates by the same number, hence its passes by one more.
    pla = Perceptron(max_iter=iters + 1).fit(data.X, data.y)
    assert est.pocket_errors_[-1] == 0, f"pocket still makes {est.pocket_errors_[-1]} mistakes"
    assert np.all(est.predict(data.X) == data.y), "pocket's prediction disagrees with y"
    assert np.all(pla.predict(data.X) == data.y), "PLA did not separate the data"


@claim(
    id="perceptron.pocket_code_reaches_zero_error_as_written",
    source="000 §1.5 (code)",
    statement="(The note's Python code) on linearly separable data, the printed pocket code "
    "run for more than (R/gamma)^2 iterations returns weights with no training mistake.",
    method=Method.PROPERTY,
    tags=("perceptron", "pocket", "erratum"),
    expect=Expect.REFUTED,
    corrected_by="perceptron.pocket_reaches_zero_error_on_separable_data",
    explanation="When exactly one mistake is left the code updates on sample 0 (i = 0) "
    "instead of on that mistake; sample 0 is correctly classified, so the update is not a "
    "PLA step and the last mistake may never be corrected.",
)
@given(data=separable_datasets(min_margin=0.05), seed=seeds)
def pocket_code_reaches_zero_error_as_written(data, seed):
    R2 = float(np.max(np.sum(data.augmented() ** 2, axis=1)))
    iters = int(R2 / data.margin**2) + 1
    errors = _notes_pocket_errors(data, seed, iters)
    assert errors[-1] == 0, f"still {errors[-1]} mistakes after {iters} iterations"


@claim(
    id="perceptron.pocket_slower_than_pla_on_separable_data",
    source="002 'Pocket PLA' Fun Time",
    statement="If D is linearly separable, pocket is slower than PLA: it needs more work "
    "(sample evaluations) to reach a mistake-free w.",
    method=Method.SIMULATION,
    tags=("perceptron", "pocket"),
)
def pocket_slower_than_pla_on_separable_data(rng, scale):
    n_sets = 100 * scale
    slower = used = 0
    for _ in range(n_sets):
        n, d = int(rng.integers(5, 30)), int(rng.integers(1, 5))
        X = rng.normal(size=(n, d))
        w = rng.normal(size=d)
        y = np.where(X @ w + rng.normal() * 0.5 >= 0, 1, -1)
        if len(set(y.tolist())) < 2:
            continue  # one class: not a classification problem
        used += 1
        pla = Perceptron(max_iter=100_000).fit(X, y)
        pocket = PocketPerceptron(max_iter=100_000, random_state=int(rng.integers(2**31)))
        pocket.fit(X, y)
        # PLA looks at one sample per visit; pocket scores the data set once per iteration
        # to find the mistakes and once more for the candidate.
        pla_work = n * pla.n_iter_
        pocket_work = n * (2 * pocket.n_updates_ + 1)
        slower += pocket_work > pla_work
    evidence.add_examples(used)
    check_probability_at_least(slower, used, 0.5, label="P(pocket needs more evaluations)")
