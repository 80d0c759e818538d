"""The pocket algorithm (002 "Pocket PLA", 000 §1.5).

Notation as in :mod:`properties.perceptron`.
"""


from __future__ import annotations

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from algorithms.perceptron import NotesPocket, Perceptron, PocketPerceptron
from mltheory import ErratumKind, Expect, Method, claim, evidence
from mltheory.numeric import EXACT_ARITHMETIC, assert_close
from mltheory.stats import check_probability_at_least
from mltheory.strategies import (
    LabelledData,
    nonseparable_datasets,
    separable_datasets,
)
from properties.perceptron.strategies import seeds
from properties.perceptron.support import (
    PythonPocketPerceptron,
    check_pla_steps,
    dyadic,
    run_of,
)

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
    "the best of all iterates visited. Checked on the compiled loop and, on dyadic data "
    "(float64 exact), also on its step-by-step Python reference loop, which with the same "
    "seed must make the same run.",
    method=Method.PROPERTY,
    tags=("perceptron", "pocket"),
)
@given(data=nonseparable_datasets() | separable_datasets(), seed=seeds,
       iters=st.integers(1, 60))
def pocket_never_gets_worse(data, seed, iters):
    _check_pocket_run(PocketPerceptron, data, seed, iters)
    # Both loops on dyadic data (float64 exact there, so the two mistake tests, a BLAS
    # product each, cannot round a zero margin differently): the same run.
    data = dyadic(data)
    compiled = _check_pocket_run(PocketPerceptron, data, seed, iters)
    reference = _check_pocket_run(PythonPocketPerceptron, data, seed, iters)
    for name in ("update_indices_", "weight_history_", "pocket_iteration_", "converged_"):
        assert np.array_equal(getattr(reference, name), getattr(compiled, name)), (
            f"Python reference pocket loop: {name} differs from the compiled run")


def _check_pocket_run(estimator, data, seed, iters):
    """Fit ``estimator`` (a pocket PLA) and check the statement on its recorded run."""
    est = estimator(max_iter=iters, random_state=seed).fit(data.X, data.y)
    run = run_of(est, data, 1.0)
    check_pla_steps(run)  # the recorded iterates are PLA updates on mistakes
    pocket = np.asarray(est.pocket_errors_)
    current = np.asarray(est.current_errors_)
    # Mistake counts recomputed from the recorded iterates, and the pocket is one of them.
    assert np.array_equal(current, _errors(run.X_hat, run.y, run.W)), (
        current, _errors(run.X_hat, run.y, run.W))
    assert np.array_equal(run.W[est.pocket_iteration_], est.w_hat_), "pocket is no iterate"
    # Pocket stops early exactly when an iterate makes no mistake (converged_).
    assert est.converged_ == (current[-1] == 0), (est.converged_, current[-1])
    assert est.converged_ or run.k == iters, f"stopped after {run.k} of {iters} with mistakes"
    assert np.all(np.diff(pocket) <= 0), pocket
    assert np.array_equal(pocket, np.minimum.accumulate(current)), (pocket, current)
    y = np.where(data.y == est.classes_[1], 1, -1)
    returned = int(_errors(data.augmented(), y, np.append(est.coef_, est.intercept_)))
    assert returned == pocket[-1] == current.min()
    return est


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
    kind=ErratumKind.CODE,
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
    assert est.converged_, "a mistake-free w was found but converged_ is False"
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
    kind=ErratumKind.CODE,
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


def _first_choices(estimator: type, n_points: int, n_seeds: int) -> np.ndarray:
    """How often each sample is the first one corrected, over ``n_seeds`` seeded runs from
    w = 0 on ``n_points`` labelled points (every point is then a mistake: margin 0)."""
    X = np.arange(1.0, n_points + 1.0)[:, None]
    y = np.where(np.arange(n_points) % 2 == 0, 1, -1)
    first = [int(estimator(max_iter=1, random_state=seed).fit(X, y).update_indices_[0])
             for seed in range(n_seeds)]
    return np.bincount(first, minlength=n_points)


def check_every_mistake_chosen(estimator: type) -> None:
    """Every one of the current mistakes is sometimes the one corrected (2 to 6 mistakes)."""
    for n_points in range(2, 7):
        counts = _first_choices(estimator, n_points, _SEEDS_PER_POINT * n_points)
        evidence.add_examples(int(counts.sum()))
        never = np.flatnonzero(counts == 0)
        assert never.size == 0, (
            f"with {n_points} mistakes, mistake(s) {never.tolist()} never chosen in "
            f"{int(counts.sum())} seeded runs (choices per mistake: {counts.tolist()})"
        )


#: Seeded runs per candidate mistake: a uniform choice misses one of at most 6 candidates
#: in 40 * 6 runs with probability 6 (5/6)^240 < 1e-18.
_SEEDS_PER_POINT = 40


@claim(
    id="perceptron.pocket_corrects_any_mistake",
    source="002 'Pocket PLA'",
    statement="Pocket PLA corrects a random mistake of w_t: each current mistake can be the "
    "one corrected.",
    method=Method.ENUMERATION,
    tags=("perceptron", "pocket"),
)
def pocket_corrects_any_mistake():
    check_every_mistake_chosen(PocketPerceptron)


@claim(
    id="perceptron.pocket_code_corrects_any_mistake_as_written",
    source="000 §1.5 (code)",
    statement="(The note's Python code) pocket() corrects a random mistake: each current "
    "mistake can be the one chosen by mistakes[np.random.randint(0, len(mistakes) - 1)].",
    method=Method.ENUMERATION,
    tags=("perceptron", "pocket", "erratum"),
    expect=Expect.REFUTED,
    kind=ErratumKind.CODE,
    corrected_by="perceptron.pocket_corrects_any_mistake",
    explanation="numpy's randint excludes its upper bound, so randint(0, len(mistakes) - 1) "
    "never returns the last index: the last mistake in index order is never corrected (with "
    "two mistakes the first is always chosen). randint(0, len(mistakes)) was meant.",
)
def pocket_code_corrects_any_mistake_as_written():
    check_every_mistake_chosen(NotesPocket)


def _printed_pocket(X: np.ndarray, y: np.ndarray, max_iters: int, seed: int,
                    start: np.ndarray):
    """000 §1.5's update()/classify()/pocket() transcribed line by line, from the object's
    (w, b) = ``start`` (best_w starts there too),
    with ``np.random.default_rng(seed).integers`` for the legacy ``np.random.randint`` (same
    half-open range) and the note's sign (np.sign). Returns (best_w, best_b, chosen samples,
    the iterates (w, b) after each update, the iteration that set best_w (0: never))."""
    rng = np.random.default_rng(seed)
    w, b = start[:-1].copy(), float(start[-1])
    best_w, best_b, best_at = w.copy(), b, 0
    chosen, iterates = [], [np.append(w, b)]

    def classify(w, b):
        return [i for i in range(len(y)) if np.sign(X[i] @ w + b) * y[i] <= 0]

    iters = 0
    while True:
        iters += 1
        mistakes = classify(w, b)
        if len(mistakes) == 0:
            break
        elif len(mistakes) > 1:
            i = mistakes[rng.integers(0, len(mistakes) - 1)]
        else:
            i = 0
        tmp_w, tmp_b = y[i] * X[i] + w, b + y[i]
        if len(classify(tmp_w, tmp_b)) <= len(classify(w, b)):
            best_w, best_b, best_at = tmp_w, tmp_b, iters
        w, b = tmp_w, tmp_b
        chosen.append(i)
        iterates.append(np.append(w, b))
        if iters == max_iters:
            break
    return best_w, best_b, chosen, np.asarray(iterates), best_at


@claim(
    id="perceptron.notes_pocket_is_the_printed_code",
    source="000 §1.5 (code)",
    statement="NotesPocket, the exhibit of the note's pocket code, does what the printed "
    "update()/classify()/pocket() methods do run literally: the same samples corrected and "
    "the same (best_w, best_b) returned, for the same random draws (on dyadic data, where "
    "float64 is exact).",
    method=Method.REFERENCE,
    tags=("perceptron", "pocket"),
)
@given(data=nonseparable_datasets() | separable_datasets(), seed=seeds,
       iters=st.integers(1, 40), start=st.data())
def notes_pocket_is_the_printed_code(data, seed, iters, start):
    X = dyadic(data).X  # the two codes see the same mistakes, even at zero margins
    # The printed code starts from whatever (w, b) the object holds: zero or a drawn dyadic one.
    w0 = start.draw(st.sampled_from([0.0, 1.0])) * dyadic(LabelledData(
        X=np.asarray([start.draw(st.lists(st.floats(-4, 4), min_size=X.shape[1] + 1,
                                          max_size=X.shape[1] + 1))]), y=data.y[:1])).X[0]
    est = NotesPocket(max_iter=iters, random_state=seed, w_init=w0[:-1], b_init=w0[-1])
    est.fit(X, data.y)
    y = np.where(data.y == est.classes_[1], 1, -1)
    best_w, best_b, chosen, iterates, best_at = _printed_pocket(X, y, iters, seed, w0)
    assert est.update_indices_.tolist() == chosen, (est.update_indices_.tolist(), chosen)
    assert_close(np.append(best_w, best_b), est.w_hat_, EXACT_ARITHMETIC,
                 label="printed code vs NotesPocket")
    # The exhibit's records: its iterates, where the pocket came from, the mistake counts.
    assert_close(est.weight_history_, iterates, EXACT_ARITHMETIC, label="iterates")
    assert est.pocket_iteration_ == best_at, (est.pocket_iteration_, best_at)
    X_hat = np.hstack([X, np.ones((X.shape[0], 1))])
    assert np.array_equal(est.current_errors_, _errors(X_hat, y, iterates))
    assert est.pocket_errors_[-1] == _errors(X_hat, y, est.w_hat_)
