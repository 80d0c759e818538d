"""Boltzmann machines and RBMs of 003 §3.5.6: the Boltzmann distribution by exact
enumeration (most probable = minimum energy), the RBM's free energy and exact likelihood
against scikit-learn and brute force, and contrastive divergence raising the exact data
log-likelihood."""

from __future__ import annotations

import numpy as np
from hypothesis import given
from hypothesis import strategies as st
from sklearn.neural_network import BernoulliRBM

from algorithms.neural import RBM, boltzmann_log_probabilities
from mltheory import Method, claim, evidence
from mltheory.numeric import LINEAR_ALGEBRA, assert_close
from mltheory.stats import check_probability_at_least
from properties.neural.strategies_other import SEEDS, boltzmann_machines
from properties.neural.support_other import (
    cd_likelihood_runs,
    check_boltzmann_distribution,
    check_cd_expectation,
    check_cd_limit,
    own_rbm_log_likelihood,
)


@claim(
    id="boltzmann.energy",
    source="003 §3.5.6; Zhou 2016, Machine Learning, §5.5.6 (5.20)-(5.21)",
    statement="A Boltzmann machine reaches its ideal state when its energy "
    "E(s) = -sum_{i<j} w_ij s_i s_j - sum_i theta_i s_i is minimal: under the Boltzmann "
    "distribution P(s) = exp(-E(s)) / Z the most probable states are exactly the "
    "minimum-energy states, and P(s)/P(t) = exp(E(t) - E(s)).",
    method=Method.ENUMERATION,
    tags=("neural", "boltzmann"),
)
@given(machine=boltzmann_machines())
def energy(machine):
    W, theta = machine
    check_boltzmann_distribution(W, theta, boltzmann_log_probabilities)


def _random_rbm(seed: int, n_v: int, n_h: int, scale: float) -> RBM:
    rng = np.random.default_rng(seed)
    rbm = RBM(n_components=n_h, n_iter=1, random_state=seed).fit(
        rng.integers(0, 2, size=(4, n_v)).astype(float))
    rbm.components_ = rng.normal(scale=scale, size=(n_h, n_v))
    rbm.intercept_hidden_ = rng.normal(scale=scale, size=n_h)
    rbm.intercept_visible_ = rng.normal(scale=scale, size=n_v)
    return rbm


@claim(
    id="rbm.free_energy_reference",
    source="003 §3.5.6; Hinton 2002, §2",
    statement="For an RBM, summing the hidden layer out gives the free energy "
    "F(v) = -b^T v - sum_j log(1 + exp(c_j + v^T W_j)) with P(v) = exp(-F(v)) / Z, and "
    "P(h_j = 1 | v) = sigmoid(c_j + v^T W_j): our free energy and hidden probabilities "
    "agree with scikit-learn's BernoulliRBM on the same parameters, and our exact "
    "log-likelihood with a brute-force sum over every joint state (v, h).",
    method=Method.REFERENCE,
    tags=("neural", "boltzmann", "rbm"),
)
@given(seed=SEEDS, n_v=st.integers(1, 7), n_h=st.integers(1, 6),
       scale=st.sampled_from([0.01, 1.0, 5.0, 30.0]))
def free_energy_reference(seed, n_v, n_h, scale):
    rbm = _random_rbm(seed, n_v, n_h, scale)
    V = np.random.default_rng(seed + 1).integers(0, 2, size=(6, n_v)).astype(float)
    ref = BernoulliRBM(n_components=n_h)
    ref.components_ = rbm.components_
    ref.intercept_hidden_ = rbm.intercept_hidden_
    ref.intercept_visible_ = rbm.intercept_visible_
    F = rbm.free_energy(V)
    size = max(1.0, float(np.max(np.abs(F))))
    assert_close(F, ref._free_energy(V), LINEAR_ALGEBRA, scale=size,
                 label="|F - scikit-learn F| / max|F|")
    assert_close(rbm.transform(V), ref.transform(V), LINEAR_ALGEBRA,
                 label="|P(h|v) - scikit-learn|")
    own = own_rbm_log_likelihood(V, rbm.components_.T, rbm.intercept_visible_,
                                 rbm.intercept_hidden_)
    assert_close(rbm.log_likelihood(V), own, LINEAR_ALGEBRA, scale=max(1.0, abs(own)),
                 label="|exact log-likelihood - brute force| / max(1, |ll|)")


def _cd_fit(X, k, seed):
    return RBM(n_components=3, learning_rate=0.1, k=k, batch_size=6, n_iter=15,
               record_history=True, random_state=seed).fit(X)


@claim(
    id="rbm.cd_raises_likelihood",
    source="003 §3.5.6; Hinton 2002, §3",
    statement="Training a small RBM (6 visible, 3 hidden units) by contrastive divergence "
    "CD-k with block Gibbs sampling raises the exact data log-likelihood (partition "
    "function by enumeration) from its value at initialisation: in more than half of "
    "independent runs, k = 1 and k = 3 (Clopper-Pearson at 1 - 1e-6).",
    method=Method.SIMULATION,
    tags=("neural", "boltzmann", "rbm"),
)
def cd_raises_likelihood(rng, scale):
    runs = 30 * scale
    for k in (1, 3):
        wins, gains, per_epoch = cd_likelihood_runs(rng, runs, _cd_fit, k)
        evidence.worst(f"CD-{k}: smallest log-likelihood gain", float(gains.min()),
                       larger_is_worse=False)
        evidence.record(f"CD-{k}: mean log-likelihood gain", float(gains.mean()))
        evidence.record(f"CD-{k}: fraction of epochs raising the likelihood", per_epoch)
        check_probability_at_least(wins, runs, 0.5, label=f"P(CD-{k} raises the likelihood)")
    evidence.add_examples(2 * runs)


@claim(
    id="rbm.cd_update_expectation",
    source="003 §3.5.6; Hinton 2002, §3",
    statement="One CD-k step with block Gibbs sampling updates W by "
    "eta (<v^0 P(h|v^0)^T> - <v^k P(h|v^k)^T>), b by eta (<v^0> - <v^k>) and c by "
    "eta (<P(h|v^0)> - <P(h|v^k)>), v^k the visible state after k alternating layer "
    "samples: averaged over many chains the update matches its exact expectation, computed "
    "from the enumerated k-step transition matrix (Hoeffding radius at 1e-6).",
    method=Method.SIMULATION,
    tags=("neural", "boltzmann", "rbm"),
)
@given(seed=SEEDS, n_v=st.integers(1, 4), n_h=st.integers(1, 3), k=st.integers(1, 3),
       scale=st.sampled_from([0.3, 1.0, 3.0]))
def cd_update_expectation(seed, n_v, n_h, k, scale):
    rbm = _random_rbm(seed, n_v, n_h, scale)
    rbm.set_params(k=k, learning_rate=0.1)
    V0 = np.random.default_rng(seed + 2).integers(0, 2, size=(3, n_v)).astype(float)
    check_cd_expectation(rbm, V0, k, copies=8_000, seed=seed)


@claim(
    id="rbm.cd_limit_is_gradient",
    source="003 §3.5.6; Hinton 2002, §3",
    statement="The expected CD-k direction tends to the exact log-likelihood gradient as "
    "k grows: with the chain run to equilibrium (k = 2000 steps of the enumerated "
    "transition matrix) it equals the gradient of the mean exact log-likelihood of the "
    "batch with respect to W, b and c (central finite differences), while CD-1 generally "
    "differs from it.",
    method=Method.ENUMERATION,
    tags=("neural", "boltzmann", "rbm", "gradient"),
)
@given(seed=SEEDS, n_v=st.integers(1, 4), n_h=st.integers(1, 3),
       scale=st.sampled_from([0.1, 0.5, 1.0]))
def cd_limit_is_gradient(seed, n_v, n_h, scale):
    rng = np.random.default_rng(seed)
    W, b, c = (rng.normal(scale=scale, size=(n_v, n_h)), rng.normal(scale=scale, size=n_v),
               rng.normal(scale=scale, size=n_h))
    V0 = rng.integers(0, 2, size=(4, n_v)).astype(float)
    check_cd_limit(V0, W, b, c, 2000)
