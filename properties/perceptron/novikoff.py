"""Novikoff's theorem and its lemmas (001 §二.3, 000 §1.4, 004 §5.3.3) and Lin's
mistake bound (002).

Notation as in :mod:`properties.perceptron`.
"""


from __future__ import annotations

import numpy as np
from hypothesis import example, given
from hypothesis import strategies as st

from mltheory import ErratumKind, Expect, Method, claim, evidence
from mltheory.numeric import EXACT_ARITHMETIC, assert_leq
from mltheory.strategies import (
    SeparableData,
    nonseparable_datasets,
    separable_datasets,
)
from properties.perceptron.strategies import (
    etas,
    log_uniform,
    orders,
    orthogonal_dataset,
    seeds,
    tight_datasets,
)
from properties.perceptron.support import (
    best_margin,
    check_alignment_lemma,
    check_norm_lemma,
    check_novikoff,
    check_pla_steps,
    novikoff_check,
    pla_run,
    radius_squared,
)

# ---------------------------------------------------------------------------
# Novikoff's theorem (001 §二.3, 000 §1.4, 004 §5.3.3)
# ---------------------------------------------------------------------------


@claim(
    id="perceptron.novikoff_bound",
    source="001 §二.3; 000 §1.4; 004 §5.3.3",
    statement="On data separated with margin gamma by a unit-norm w_hat_opt = (w_opt, b_opt), "
    "primal PLA started from w_hat_0 = 0 with any eta in (0, 1] and any choice of "
    "misclassified points makes k <= (R/gamma)^2 updates, R = max_i ||(x_i, 1)||; read "
    "from the iterates the training loop recorded, every step is an update "
    "w_hat_t = w_hat_(t-1) + eta y_i x_hat_i on a mistake, raises w_hat . w_hat_opt by at "
    "least eta gamma and ||w_hat||^2 by at most eta^2 R^2.",
    method=Method.PROPERTY,
    tags=("perceptron", "convergence", "novikoff", "bound"),
)
@given(data=separable_datasets() | tight_datasets(), eta=etas, order=orders, seed=seeds)
@example(
    # Two points on a line, margin 0.1 around the threshold 0 (bias-free separator).
    data=SeparableData(X=np.array([[0.1], [-0.1]]), y=np.array([1, -1]),
                       separator=np.array([1.0, 0.0]), margin=0.1),
    eta=1.0, order="cyclic", seed=0,
)
# Twelve pairwise orthogonal augmented points: exactly k = (R/gamma)^2 = 12 updates.
@example(data=orthogonal_dataset(np.array([1, -1] * 6)), eta=1.0, order="random", seed=0)
def novikoff_bound(data, eta, order, seed):
    run = novikoff_check(data, eta, order, seed)
    _, gamma = best_margin(data, run.X_hat, run.y)
    evidence.worst("updates k", run.k)
    if gamma > 0:
        evidence.series("updates k", radius_squared(run) / gamma**2, run.k, kind="scatter",
                        plot="Novikoff: updates k against the bound (R/gamma)^2 per example",
                        xlabel="(R/gamma)^2", ylabel="updates k", logx=True, logy=True,
                        reference="y=x")


@claim(
    id="perceptron.novikoff_alignment_lemma",
    source="001 §二.3 (proof); 000 §1.4 (26)",
    statement="During primal PLA from zero, w_hat_k . w_hat_opt >= k eta gamma after every "
    "update k.",
    method=Method.PROPERTY,
    tags=("perceptron", "convergence", "novikoff", "bound"),
)
@given(data=separable_datasets() | tight_datasets(), eta=etas, order=orders)
@example(data=orthogonal_dataset(np.array([1, -1, -1, 1, 1])), eta=0.5, order="cyclic")
def novikoff_alignment_lemma(data, eta, order):
    run = pla_run(data, eta=eta, order=order)
    check_alignment_lemma(run, data.separator, data.margin)


@claim(
    id="perceptron.novikoff_norm_lemma",
    source="000 §1.4 (29); 001 §二.3 (proof, last chain)",
    statement="During primal PLA from zero, ||w_hat_k||^2 <= k eta^2 R^2 after every update k.",
    method=Method.PROPERTY,
    tags=("perceptron", "convergence", "novikoff", "bound"),
)
@given(data=separable_datasets() | nonseparable_datasets() | tight_datasets(), eta=etas,
       order=orders)
@example(data=orthogonal_dataset(np.array([1, -1, -1, 1, 1])), eta=0.5, order="cyclic")
def novikoff_norm_lemma(data, eta, order):
    run = pla_run(data, eta=eta, order=order, max_iter=50)
    check_norm_lemma(run, radius_squared)


@claim(
    id="perceptron.novikoff_norm_lemma_as_written",
    source="001 §二.3 (proof)",
    statement="(As announced in the proof) ||w_hat_k||^2 <= k eta^2 gamma^2 after every "
    "update k.",
    method=Method.PROPERTY,
    tags=("perceptron", "convergence", "novikoff", "erratum"),
    expect=Expect.REFUTED,
    kind=ErratumKind.SYMBOL,
    corrected_by="perceptron.novikoff_norm_lemma",
    explanation="The second inequality to prove should read k eta^2 R^2 (as the chain below it "
    "concludes). With gamma it is false as soon as k >= 1: Cauchy-Schwarz and the first "
    "lemma give ||w_hat_k||^2 >= (k eta gamma)^2 >= k eta^2 gamma^2, with equality only in "
    "degenerate cases.",
)
@given(data=separable_datasets(), eta=etas, order=orders)
def novikoff_norm_lemma_as_written(data, eta, order):
    run = pla_run(data, eta=eta, order=order)
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
    tags=("perceptron", "convergence", "bound"),
)
@given(data=separable_datasets() | tight_datasets(), order=orders)
@example(data=orthogonal_dataset(np.array([-1, 1, 1])), order="cyclic")
def lin_mistake_bound(data, order):
    run = pla_run(data, order=order)
    check_pla_steps(run)
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
    kind=ErratumKind.SYMBOL,
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
    tags=("perceptron", "convergence", "bound"),
)
@given(T=log_uniform, rho=st.floats(1e-3, 1e3), ratio=st.floats(1e-3, 1.0))
@example(T=4.0, rho=1.0, ratio=0.5)  # sqrt(T) rho / R = 1: the bound is attained
def lin_bound_inference(T, rho, ratio):
    R = rho / ratio
    if np.sqrt(T) * rho / R <= 1:
        assert_leq(T, R**2 / rho**2, label="T / (R/rho)^2", tol=EXACT_ARITHMETIC)
