"""Variational-inference claims of 003 §12.5.2: the plate-model log-likelihood
(12.20)-(12.21), EM's Q-maximisation (12.22) and mean-field inference (12.23), all on
models small enough for exact enumeration."""

from __future__ import annotations

import itertools
import warnings

import numpy as np
from hypothesis import given
from hypothesis import strategies as st
from sklearn.exceptions import ConvergenceWarning

from algorithms.graphical import (
    categorical_mixture_em,
    categorical_mixture_log_likelihood,
    mean_field,
)
from mltheory import Method, claim, evidence
from properties.graphical.strategies_approx import SEEDS, categorical_data, factor_models
from properties.graphical.support_approx import (
    brute_force_log_likelihood,
    enumerate_joint,
    q_function,
    responsibilities,
)


@claim(
    id="vi.loglik_12_20_12_21",
    source="003 §12.5.2 (12.20)-(12.21)",
    statement="For N i.i.d. observations with one hidden variable each, "
    "p(x | Theta) = prod_i sum_z p(x_i, z | Theta) (12.20, reading the printed theta as "
    "Theta) and ln p(x | Theta) = sum_i ln sum_z p(x_i, z | Theta) (12.21): the sum over "
    "all K^N joint hidden configurations factorises per observation.",
    method=Method.ENUMERATION,
    tags=("graphical", "variational"),
)
@given(data=categorical_data())
def loglik(data):
    check_loglik(*data)


def check_loglik(X, weights, probs, loglik_fn=categorical_mixture_log_likelihood):
    ours = loglik_fn(X, weights, probs)
    ref = brute_force_log_likelihood(X, weights, probs)
    err = abs(ours - ref)
    evidence.worst("|(12.21) - ln sum over all z-vectors|", err)
    # rounding: K^N <= 800 terms of log-sum-exp, relative 1e-12 of the magnitude
    assert err <= 1e-12 * (1 + abs(ref)) * X.size, f"(12.21) = {ours}, brute force = {ref}"


def _loglik(X, prm):
    """(12.21) written out: sum_i ln sum_z w_z prod_j phi[z, j, x_ij] (plain products,
    no log-sum-exp: the probabilities here are far from underflow)."""
    d = X.shape[1]
    per_class = np.stack([prm.weights[k] * np.prod(prm.probs[k, np.arange(d), X], axis=1)
                          for k in range(len(prm.weights))], axis=1)
    return float(np.log(per_class.sum(axis=1)).sum())


def check_em_trace(X, result, n_random=3, seed=0):
    """LL never decreases, and each Theta^{t+1} maximises Q(.; Theta^t) against random
    and perturbed parameters."""
    history = np.asarray(result.log_likelihood_history)
    params = result.best_run.params_history
    # the recorded trace, recomputed from the recorded iterates (log-sum-exp per sample)
    recomputed = np.array([_loglik(X, prm) for prm in params])
    rec_err = float(np.abs(recomputed - history).max())
    evidence.worst("|recorded LL - LL of the recorded Theta|", rec_err)
    assert rec_err <= 1e-10 * (1 + np.abs(history).max()), (
        f"the recorded log-likelihood trace is off by {rec_err:.3g}")
    drops = np.diff(history)
    scale = 1e-10 * (1 + np.abs(history).max())  # rounding of a sum of N log-terms
    evidence.worst("largest LL decrease", float(-drops.min()) if drops.size else 0.0)
    assert np.all(drops >= -scale), f"log-likelihood decreased by {-drops.min():.3g}"
    rng = np.random.default_rng(seed)
    K, d, m = params[0].probs.shape
    for t in range(len(params) - 1):
        resp = responsibilities(X, params[t].weights, params[t].probs)
        best = q_function(X, resp, params[t + 1].weights, params[t + 1].probs)
        for _ in range(n_random):
            if rng.random() < 0.5:
                w, P = rng.dirichlet(np.ones(K)), rng.dirichlet(np.ones(m), size=(K, d))
            else:  # a small step away from the M-step's answer, staying on the simplex
                lam = rng.uniform(0.001, 0.1)
                w = (1 - lam) * params[t + 1].weights + lam * rng.dirichlet(np.ones(K))
                P = (1 - lam) * params[t + 1].probs + lam * rng.dirichlet(np.ones(m),
                                                                          size=(K, d))
            other = q_function(X, resp, w, P)
            evidence.worst("max Q(other) - Q(Theta^{t+1})", other - best)
            assert other <= best + 1e-10 * (1 + abs(best)), (
                f"step {t}: Q at another Theta {other} exceeds Q(Theta^(t+1)) {best}")


@claim(
    id="vi.em_q_12_22",
    source="003 §12.5.2 (12.22)",
    statement="EM's M-step Theta^{t+1} = argmax_Theta sum_z p(z | x, Theta^t) ln p(x, z | "
    "Theta) (12.22) maximises Q (no random or nearby parameter beats it) and the "
    "log-likelihood (12.21) never decreases: ln p(x | Theta^{t+1}) >= ln p(x | Theta^t) "
    "(mixtures of categorical features).",
    method=Method.PROPERTY,
    tags=("graphical", "variational", "em"),
)
@given(seed=SEEDS, n=st.integers(5, 20), K=st.integers(1, 3), d=st.integers(1, 3))
def em_q(seed, n, K, d):
    rng = np.random.default_rng(seed)
    X = rng.integers(3, size=(n, d))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        result = categorical_mixture_em(X, K, n_categories=3, max_iter=6, random_state=seed)
    check_em_trace(X, result, seed=seed)


def check_mean_field(factors, cards, result):
    """ELBO <= ln p(x), ln p(x) - ELBO = KL(q || p(z | x)), a non-decreasing trace and,
    at convergence, every factor a fixed point of its update."""
    joint, total = enumerate_joint(factors, cards)
    log_evidence = float(np.log(total))
    q = result.q
    elbo = result.elbo
    kl = 0.0
    for x, post in joint.items():
        qx = float(np.prod([q[j][x[j]] for j in range(len(cards))]))
        kl += qx * (np.log(qx) - np.log(post))
    gap = log_evidence - elbo
    evidence.worst("|ln p(x) - ELBO - KL(q || p(z|x))|", abs(gap - kl))
    evidence.worst("ln p(x) - ELBO (smallest)", gap, larger_is_worse=False)
    tol = 1e-10 * (1 + abs(log_evidence))  # rounding of the enumerated sums
    assert elbo <= log_evidence + tol, f"ELBO {elbo} exceeds ln p(x) {log_evidence}"
    assert abs(gap - kl) <= tol, f"ln p(x) - ELBO = {gap} but KL = {kl}"
    # the recorded trace, recomputed by enumeration from the recorded factors
    states = list(itertools.product(*(range(k) for k in cards)))
    log_joint = np.array([np.log(joint[x] * total) for x in states])
    recomputed = []
    for qt in result.q_history:
        qx = np.array([np.prod([qt[j][x[j]] for j in range(len(cards))]) for x in states])
        recomputed.append(float(qx @ log_joint - np.sum(qx * np.log(qx))))
    rec_err = float(np.abs(np.asarray(recomputed) - result.elbo_history).max())
    evidence.worst("|recorded ELBO - enumerated ELBO of the recorded q|", rec_err)
    assert rec_err <= tol, f"the recorded ELBO trace is off by {rec_err:.3g}"
    drops = np.diff(recomputed)
    evidence.worst("largest ELBO decrease", float(-drops.min()) if drops.size else 0.0)
    assert np.all(drops >= -tol), f"ELBO decreased by {-drops.min():.3g}"
    if result.converged:  # fixed point: q_j ∝ exp E_{q_-j}[ln p(x, z)], by enumeration
        for j in range(len(cards)):
            logits = np.zeros(cards[j])
            for x in itertools.product(*(range(k) for k in cards)):
                w = float(np.prod([q[i][x[i]] for i in range(len(cards)) if i != j]))
                logits[x[j]] += w * np.log(joint[x] * total)
            target = np.exp(logits - logits.max())
            target /= target.sum()
            err = float(np.abs(target - q[j]).max())
            evidence.worst("|q_j - its mean-field update| at convergence", err)
            assert err <= 1e-4, f"q_{j} is not a fixed point (off by {err:.3g})"


@claim(
    id="vi.mean_field_12_23",
    source="003 §12.5.2 (12.23)",
    statement="For a fully factorised q(z) = prod_i q_i(z_i) (12.23), ELBO(q) <= ln p(x), "
    "with ln p(x) - ELBO(q) = KL(q || p(z | x)); mean-field coordinate updates "
    "ln q_j = E_{-j}[ln p(x, z)] + const never decrease the ELBO and stop at a fixed point "
    "(exact ln p(x) by enumeration, tables and factor lists).",
    method=Method.ENUMERATION,
    tags=("graphical", "variational"),
)
@given(model=factor_models(), seed=SEEDS)
def mean_field_claim(model, seed):
    factors, cards = model
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        result = mean_field(factors, max_iter=200, random_state=seed)
    check_mean_field(factors, cards, result)
