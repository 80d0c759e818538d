"""The EM algorithm (003 §5.7 (5.14)-(5.15)) on the library's generic driver.

The user-named claim: EM never lowers the observed-data log-likelihood. For each EM
model of the chapter - the mixture of categoricals (naive Bayes with a hidden class) and
a Bayesian network with missing data - on Hypothesis-generated data (duplicated rows,
rows with every entry missing) and adversarial starts (collapsed components, a dead
component, a component of weight 1e-300, near-deterministic tables, uniform tables),
the trace the EM loop recorded is read step by step and every entry is recomputed
independently from the recorded iterate. Q (5.14) is checked against its definition by
enumerating every hidden assignment, and the M-step (5.15) against random parameters.
The notes' first description of EM (plug in the most probable Z) is hard EM, which can
lower the likelihood.
"""

from __future__ import annotations

import itertools

import numpy as np
from hypothesis import example, given
from hypothesis import strategies as st
from scipy.special import logsumexp

from algorithms.bayes import (
    CategoricalMixtureModel,
    EncodedCategories,
    MissingData,
    MissingDataNetworkModel,
    MixtureParams,
    run_em,
)
from algorithms.bayes._base import encode_categories
from mltheory import ErratumKind, Expect, Method, claim, evidence
from mltheory.strategies import rngs
from properties.bayes.networks import sample_from_joint
from properties.bayes.strategies import (
    categorical_samples,
    mixture_starts,
    network_models,
    network_starts,
)
from properties.bayes.support import (
    EM_ROUNDING,
    assert_matches,
    assert_not_above,
    check_em_monotone,
    mixture_log_likelihood,
    network_observed_ll,
    tally,
)


@st.composite
def mixture_problems(draw, assignment: str = "soft"):
    """(model, data, start, codes) for the mixture of categoricals."""
    X = draw(categorical_samples())
    _, codes = encode_categories(X)
    n_values = [int(c.max()) + 1 for c in codes.T]
    K = draw(st.integers(1, 3))
    kind, weights, theta = draw(mixture_starts(K, n_values))
    alpha = draw(st.sampled_from([0.0, 0.0, 0.5])) if assignment == "soft" else 0.0
    model = CategoricalMixtureModel(K, n_values, alpha=alpha, assignment=assignment)
    data = EncodedCategories.from_codes(codes, n_values)
    return model, data, (kind, MixtureParams(weights, theta)), codes


def mixture_ll(codes, alpha: float = 0.0):
    """The objective EM increases: LL, plus alpha sum log theta for MAP-EM."""
    return lambda p: mixture_log_likelihood(codes, p.weights, p.theta, alpha)


def pinned_mixture_problem(codes: list[list[int]], weights: list[float],
                           theta: list[list[list[float]]], kind: str,
                           assignment: str = "soft"):
    """A fixed problem in the shape :func:`mixture_problems` draws."""
    arr = np.array(codes)
    n_values = [int(c.max()) + 1 for c in arr.T]
    model = CategoricalMixtureModel(len(weights), n_values, assignment=assignment)
    start = MixtureParams(np.array(weights), [np.array(t) for t in theta])
    return model, EncodedCategories.from_codes(arr, n_values), (kind, start), arr


#: The smallest counterexample to hard EM found by search: two points, two components.
HARD_EM_COUNTEREXAMPLE = dict(
    codes=[[0, 1], [1, 0]], weights=[0.9, 0.1],
    theta=[[[0.5, 0.5], [0.3, 0.7]], [[0.5, 0.5], [0.6, 0.4]]], kind="random")

#: Adversarial starts pinned so every run sees them: duplicated rows with a dead
#: component, a component of weight 1e-300, near-deterministic tables, collapsed ones.
PINNED_STARTS = [
    dict(codes=[[0, 1]] * 5 + [[1, 0]] * 3, weights=[0.0, 1.0],
         theta=[[[0.5, 0.5], [0.2, 0.8]], [[0.5, 0.5], [0.9, 0.1]]], kind="dead"),
    dict(codes=[[0, 0], [1, 1], [1, 1], [0, 1]], weights=[1e-300, 1.0 - 1e-300],
         theta=[[[0.4, 0.6], [0.5, 0.5]], [[0.7, 0.3], [0.1, 0.9]]], kind="tiny-weight"),
    dict(codes=[[0, 0], [1, 1], [0, 1], [2, 1]], weights=[0.5, 0.5],
         theta=[[[1 - 2e-12, 1e-12, 1e-12], [1e-12, 1e-12, 1 - 2e-12]],
                [[1 - 1e-12, 1e-12], [1e-12, 1 - 1e-12]]], kind="peaked"),
    dict(codes=[[0, 1], [0, 1], [0, 1], [1, 0]], weights=[0.3, 0.7],
         theta=[[[0.6, 0.4], [0.6, 0.4]], [[0.2, 0.8], [0.2, 0.8]]], kind="collapsed"),
]


@claim(
    id="em.monotone_mixture",
    source="003 §5.7 (5.14)-(5.15)",
    statement="EM never lowers the observed-data log-likelihood: for a mixture of "
    "categoricals (naive Bayes with a hidden class), from any start, LL(Theta^{t+1} | X) >= "
    "LL(Theta^t | X) at every step of the recorded trace (with Dirichlet smoothing, the "
    "MAP objective LL + alpha sum log theta).",
    method=Method.PROPERTY,
    tags=("bayes", "em"),
)
@given(problem=mixture_problems())
@example(problem=pinned_mixture_problem(**PINNED_STARTS[0]))
@example(problem=pinned_mixture_problem(**PINNED_STARTS[1]))
@example(problem=pinned_mixture_problem(**PINNED_STARTS[2]))
@example(problem=pinned_mixture_problem(**PINNED_STARTS[3]))
@example(problem=pinned_mixture_problem(**HARD_EM_COUNTEREXAMPLE))
def monotone_mixture(problem):
    model, data, (kind, start), codes = problem
    check_em_monotone(model, data, start, mixture_ll(codes, model.alpha), label="mixture EM")
    tally(f"starts: {kind}" + (" (MAP, alpha > 0)" if model.alpha else ""))


@st.composite
def missing_data_problems(draw):
    """(model, data, start, X) for a network with missing entries: data drawn from a
    random network, entries hidden with a drawn rate, sometimes whole rows."""
    net = draw(network_models(max_variables=3, max_card=3))
    rng = draw(rngs())
    n = draw(st.integers(1, 40))
    X = sample_from_joint(net, n, rng).astype(float)
    rate = draw(st.sampled_from([0.0, 0.2, 0.5, 0.9]))
    X[rng.random(X.shape) < rate] = np.nan
    if draw(st.booleans()):
        X[0] = np.nan  # a row with nothing observed
    kind, start = draw(network_starts(net.parents, net.cards))
    model = MissingDataNetworkModel(net.parents, net.cards)
    return model, MissingData.from_array(X), (kind, start), X


@claim(
    id="em.monotone_network_missing",
    source="003 §5.7 (5.14)-(5.15); 003 §5.6 (5.9)",
    statement="EM never lowers the observed-data log-likelihood: for the CPTs of a "
    "Bayesian network with missing values (the hidden variables), from any start, "
    "LL(Theta^{t+1} | X_obs) >= LL(Theta^t | X_obs) at every step of the recorded trace.",
    method=Method.PROPERTY,
    tags=("bayes", "em"),
)
@given(problem=missing_data_problems())
def monotone_network_missing(problem):
    model, data, (kind, start), X = problem
    check_em_monotone(model, data, start,
                      lambda cpts: network_observed_ll(model.parents, model.cards, X, cpts),
                      label="network EM")
    tally(f"starts: {kind}")


def complete_log_likelihood(codes: np.ndarray, z: tuple[int, ...], p: MixtureParams) -> float:
    """``log P(X, Z | Theta)`` for one hidden assignment ``z``."""
    with np.errstate(divide="ignore"):
        return float(sum(np.log(p.weights[k]) + sum(np.log(p.theta[j][k, v])
                                                    for j, v in enumerate(row))
                         for row, k in zip(codes, z, strict=True)))


def q_by_enumeration(codes, current: MixtureParams, new: MixtureParams) -> float:
    """(5.14) ``Q(new | current) = E_{Z | X, current} log P(X, Z | new)``, every Z
    enumerated (K^n assignments), ``P(Z | X, current)`` from Bayes' formula."""
    K = current.weights.shape[0]
    zs = list(itertools.product(range(K), repeat=codes.shape[0]))
    log_joint = np.array([complete_log_likelihood(codes, z, current) for z in zs])
    post = np.exp(log_joint - logsumexp(log_joint))
    terms = np.array([complete_log_likelihood(codes, z, new) for z in zs])
    keep = post > 0
    return float(np.sum(post[keep] * terms[keep]))


def random_params(rng, K: int, n_values: list[int]) -> MixtureParams:
    return MixtureParams(rng.dirichlet(np.ones(K)),
                         [rng.dirichlet(np.ones(r), size=K) for r in n_values])


def check_q_function(codes, n_values, K, rng, m_step=None) -> None:
    """(5.14)-(5.15) by enumeration: Q from the responsibilities equals its definition;
    the M-step's output maximises Q over random parameters; and the bound behind EM's
    monotonicity, LL(Theta) - LL(Theta^t) >= Q(Theta | Theta^t) - Q(Theta^t | Theta^t)."""
    model = CategoricalMixtureModel(K, n_values)
    data = EncodedCategories.from_codes(codes, n_values)
    current = random_params(rng, K, n_values)
    resp, ll_t = model.e_step(data, current)
    new = (m_step or model.m_step)(data, resp)

    def q_resp(p):
        with np.errstate(divide="ignore"):
            jll = model.log_joint(data, p)
        return float(np.sum(np.where(resp > 0, resp * jll, 0.0)))

    q_new = q_by_enumeration(codes, current, new)
    assert_matches(q_resp(new), q_new, EM_ROUNDING, scale=abs(q_new),
                   label="|Q from responsibilities - Q by enumerating Z|")
    q_t = q_by_enumeration(codes, current, current)
    ll = mixture_ll(codes)
    for _ in range(8):
        other = random_params(rng, K, n_values)
        q_other = q_by_enumeration(codes, current, other)
        assert_not_above(q_other, q_new, label="Q(random Theta) - Q(M-step)", scale=abs(q_new))
        gain, q_gain = ll(other) - ll_t, q_other - q_t
        evidence.worst("(Q gain) - (LL gain) for random Theta (must be <= 0)", q_gain - gain)
        assert q_gain <= gain + 1e-9 * max(1.0, abs(ll_t)), (
            f"LL gain {gain} below the Q gain {q_gain}")


@claim(
    id="em.q_function_5_14_5_15",
    source="003 §5.7 (5.14); 003 §5.7 (5.15)",
    statement="E-step: Q(Theta | Theta^t) = E_{Z | X, Theta^t} LL(Theta | X, Z); M-step: "
    "Theta^{t+1} = argmax_Theta Q(Theta | Theta^t); and LL(Theta) - LL(Theta^t) >= "
    "Q(Theta | Theta^t) - Q(Theta^t | Theta^t), which makes each step non-decreasing.",
    method=Method.ENUMERATION,
    tags=("bayes", "em"),
)
@given(rng=rngs(), n=st.integers(1, 5), d=st.integers(1, 2), K=st.integers(1, 3),
       data=st.data())
def q_function_5_14_5_15(rng, n, d, K, data):
    n_values = [data.draw(st.integers(2, 3)) for _ in range(d)]
    codes = np.column_stack([rng.integers(0, r, size=n) for r in n_values])
    check_q_function(codes, n_values, K, rng)


@claim(
    id="em.hard_assignment_as_written",
    source="003 §5.7",
    statement="(The first description of EM, read as the algorithm) EM alternates "
    "inferring the best (most probable) values of the hidden Z from Theta and "
    "maximum-likelihood estimation of Theta from Z; being EM, this never lowers the "
    "observed-data log-likelihood.",
    method=Method.PROPERTY,
    tags=("bayes", "em", "erratum"),
    expect=Expect.REFUTED,
    kind=ErratumKind.SHORTHAND,
    corrected_by="em.monotone_mixture",
    explanation="Shorthand: the note gives this as EM's basic idea and then defines the "
    "E-step properly with P(Z | X, Theta^t) ((5.14)-(5.15)); read literally as the "
    "algorithm it is not EM. Plugging in the most "
    "probable Z is hard (classification) EM, which increases the complete-data likelihood "
    "max_Z P(X, Z | Theta), not the observed LL = log sum_Z P(X, Z | Theta); the observed "
    "LL can drop. Two points (0, 1), (1, 0), weights (0.9, 0.1), P(x_1 | z) = (1/2, 1/2) / "
    "(0.3, 0.7), P(x_2 | z) = (1/2, 1/2) / (0.6, 0.4): both points go to component 1 and LL "
    "falls from log(0.237 * 0.267) to log(1/16), by 0.0124. EM proper (the notes' second "
    "version, (5.14)-(5.15)) uses the distribution P(Z | X, Theta^t).",
)
@given(problem=mixture_problems(assignment="hard"))
@example(problem=pinned_mixture_problem(**HARD_EM_COUNTEREXAMPLE, assignment="hard"))
def hard_assignment_as_written(problem):
    model, data, (_, start), codes = problem
    check_em_monotone(model, data, start, mixture_ll(codes), label="hard EM")


def classification_log_likelihood(codes, p: MixtureParams) -> float:
    """``max_Z log P(X, Z | Theta) = sum_i max_k log pi_k P(x_i | k)``."""
    with np.errstate(divide="ignore"):
        total = 0.0
        for row in codes:
            terms = np.log(p.weights).copy()
            for j, v in enumerate(row):
                terms += np.log(p.theta[j][:, v])
            total += float(np.max(terms))
    return total


@claim(
    id="em.hard_assignment_classification_likelihood",
    source="003 §5.7",
    statement="Hard EM (the most probable Z, then maximum likelihood given Z) never "
    "lowers the classification likelihood max_Z log P(X, Z | Theta).",
    method=Method.PROPERTY,
    tags=("bayes", "em"),
)
@given(problem=mixture_problems(assignment="hard"))
@example(problem=pinned_mixture_problem(**HARD_EM_COUNTEREXAMPLE, assignment="hard"))
def hard_assignment_classification_likelihood(problem):
    check_classification_monotone(*problem)


def check_classification_monotone(model, data, start, codes) -> None:
    """The classification likelihood of the recorded iterates never drops."""
    res = run_em(model, data, initial_params=[start[1]], max_iter=25, tol=0.0,
                 keep_params=True, warn=False)
    cl = np.array([classification_log_likelihood(codes, p) for p in res.best_run.params_history])
    assert np.all(np.isfinite(cl)), "a classification log-likelihood is not finite"
    steps = np.diff(cl)
    if steps.size:
        i = int(np.argmin(steps))
        evidence.worst("smallest classification-LL increase per step", float(steps[i]),
                       larger_is_worse=False)
        slack = EM_ROUNDING.atol + EM_ROUNDING.rtol * max(1.0, abs(float(cl[i])))
        assert steps[i] >= -slack, (
            f"hard EM step {i} lowers the classification LL from {cl[i]!r} to {cl[i + 1]!r}")
