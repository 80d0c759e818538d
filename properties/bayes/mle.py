"""Maximum-likelihood estimation (003 §5.3 (5.4)-(5.5)).

(5.4) is checked against scipy.stats (Gaussian) and exact rational products
(categorical), including samples whose likelihood underflows float64; (5.5) against an
independent numerical maximiser (scipy.optimize on a Cholesky parametrisation) and
against perturbations near the optimum; the closed-form class-conditional classifier
against posteriors built from scipy.stats densities. The notes' remark that the ML
estimate can be taken as the true value is checked on the Gaussian variance, whose ML
estimate is biased (exact expectation by enumeration).
"""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import numpy as np
import scipy.optimize
from hypothesis import example, given
from hypothesis import strategies as st
from scipy import stats

from algorithms.bayes import (
    GaussianBayesClassifier,
    categorical_log_likelihood,
    categorical_mle,
    gaussian_log_likelihood,
    gaussian_mle,
    maximum_likelihood,
)
from mltheory import ErratumKind, Expect, Method, claim, evidence
from mltheory.numeric import Tolerance
from mltheory.strategies import rngs
from properties.bayes.strategies import rational_distributions
from properties.bayes.support import (
    POSTERIOR,
    assert_matches,
    assert_not_above,
    gaussian_ll_reference,
    log_fraction,
    tally,
)

#: Two float64 evaluations of the same Gaussian log-likelihood (Cholesky vs scipy's
#: eigendecomposition) on covariances with condition number <= 1e4.
DENSITY = Tolerance(rtol=1e-9, atol=1e-9,
                    reason="two factorisations of covariances with condition <= 1e4: "
                    "log-density errors ~ cond * 1e-16 per sample")


@st.composite
def gaussian_samples(draw, max_dim: int = 3, max_rows: int = 40) -> np.ndarray:
    """m > d points from a Gaussian with a drawn mean, scale (1e-3..1e3) and correlation,
    sometimes with duplicated rows."""
    d = draw(st.integers(1, max_dim))
    m = draw(st.integers(d + 2, max_rows))
    rng = draw(rngs())
    A = rng.normal(size=(d, d)) + 2.0 * np.eye(d)
    scale = draw(st.sampled_from([1e-3, 1.0, 1e3]))
    X = (rng.normal(size=(m, d)) @ A.T + rng.normal(size=d) * 5) * scale
    if draw(st.booleans()):
        X[: m // 3] = X[0]  # duplicates (still m > d distinct enough for a density)
        X[0] += 1e-3 * scale
    if np.linalg.cond(np.cov(X.T, bias=True).reshape(d, d)) > 1e4:
        X = rng.normal(size=(m, d)) * scale  # keep the reference comparison well posed
    return X


@claim(
    id="mle.log_sum_5_4",
    source="003 §5.3 (5.4)",
    statement="LL(theta_c) = log P(D_c | theta_c) = sum_{x in D_c} log P(x | theta_c) for "
    "i.i.d. data; the sum of logs stays finite where the product of probabilities "
    "underflows (so it is the stable way to compute it).",
    method=Method.REFERENCE,
    tags=("bayes", "mle"),
)
@given(X=gaussian_samples(), counts=st.lists(st.integers(0, 400), min_size=2, max_size=4),
       p=st.data())
def log_sum_5_4(X, counts, p):
    mean, cov = gaussian_mle(X)
    assert_matches(gaussian_log_likelihood(X, mean, cov), gaussian_ll_reference(X, mean, cov),
                   DENSITY, label="|LL - scipy.stats sum of logpdf| (Gaussian)",
                   scale=float(X.shape[0]))
    probs = p.draw(rational_distributions(len(counts), positive=True))
    x = np.repeat(np.arange(len(counts)), counts)
    if x.size == 0:
        return
    exact = math.prod((probs[v] for v in x), start=Fraction(1))  # P(D | theta), exactly
    ours = categorical_log_likelihood(x, [float(q) for q in probs])
    assert_matches(ours, log_fraction(exact), DENSITY, label="|LL - log of exact product|",
                   scale=float(x.size))
    product = float(np.prod(np.array([float(probs[v]) for v in x])))
    if product == 0.0:
        evidence.note("the float64 product of probabilities underflowed to 0 while the sum "
                      "of logs matched the exact value")
        tally("examples where the product underflowed")


#: An optimiser's argmax against a closed form: L-BFGS-B stops at relative objective
#: and gradient changes of 1e-10, which leaves the argmax off by ~sqrt(1e-10) relatively.
OPTIMISER = Tolerance(rtol=1e-4, atol=1e-6,
                      reason="L-BFGS-B stopped at ftol = gtol = 1e-10: the argmax of a "
                      "smooth objective is then known to ~1e-5 relative")


def _exponential_log_pdf(data: np.ndarray, theta: np.ndarray) -> np.ndarray:
    return np.log(theta[0]) - theta[0] * data


def _gaussian_log_pdf(data: np.ndarray, theta: np.ndarray) -> np.ndarray:
    z = (data - theta[0]) * np.exp(-theta[1])
    return -0.5 * math.log(2 * math.pi) - theta[1] - 0.5 * z * z


@claim(
    id="mle.numerical_argmax_5_5",
    source="003 §5.3 (5.4)-(5.5)",
    statement="The estimate (5.5) found by maximising (5.4) numerically over theta "
    "(maximum_likelihood, any per-sample log-density) is the closed-form MLE where one is "
    "known: the rate 1 / mean of an exponential sample, and the sample mean and the "
    "biased standard deviation of a 1-d Gaussian sample (from starts on either side).",
    method=Method.REFERENCE,
    tags=("bayes", "mle"),
)
@given(rng=rngs(), m=st.integers(3, 200), scale=st.floats(0.05, 20.0),
       start=st.floats(0.1, 10.0))
def numerical_argmax(rng, m, scale, start):
    x = rng.exponential(scale=scale, size=m)
    rate = maximum_likelihood(_exponential_log_pdf, x, [start / scale],
                              bounds=[(1e-12, None)])
    assert_matches(rate, [1.0 / x.mean()], OPTIMISER, label="|rate - 1 / mean| / rate",
                   scale=1.0 / x.mean())
    g = rng.normal(loc=scale, scale=scale, size=m)
    theta = maximum_likelihood(_gaussian_log_pdf, g, [g.mean() + start * g.std(),
                                                     math.log(start * scale)])
    assert_matches(theta[0], g.mean(), OPTIMISER, label="|mu - sample mean| / sd",
                   scale=float(g.std()))
    assert_matches(math.exp(theta[1]), g.std(), OPTIMISER, label="|sd - biased sd| / sd",
                   scale=float(g.std()))


def _cholesky_params(mean: np.ndarray, cov: np.ndarray) -> np.ndarray:
    L = np.linalg.cholesky(cov)
    d = mean.shape[0]
    tri = L[np.tril_indices(d)].copy()
    diag = np.cumsum(np.arange(1, d + 1)) - 1  # positions of L_kk in row-major tril order
    tri[diag] = np.log(tri[diag])
    return np.concatenate([mean, tri])


def _unpack(t: np.ndarray, d: int) -> tuple[np.ndarray, np.ndarray]:
    mean = t[:d]
    L = np.zeros((d, d))
    L[np.tril_indices(d)] = t[d:]
    L[np.diag_indices(d)] = np.exp(np.diag(L))
    return mean, L @ L.T


def check_gaussian_mle(X: np.ndarray, estimate=gaussian_mle) -> None:
    """(5.5): no (mean, covariance) has a larger LL than ``estimate(X)``: an independent
    maximiser (BFGS on the Cholesky parametrisation, started from the estimate and from a
    standard point) and multiplicative/additive perturbations never beat it."""
    d = X.shape[1]
    mean, cov = estimate(X)
    best = gaussian_ll_reference(X, mean, cov)
    scale = abs(best)
    # work in standardised units so the optimiser's tolerance means the same everywhere
    mu0, sd = X.mean(axis=0), X.std(axis=0) + 1e-300
    Z = (X - mu0) / sd
    offset = -X.shape[0] * float(np.sum(np.log(sd)))  # LL(X) = LL(Z) + offset

    def neg_ll(t):
        m, c = _unpack(t, d)
        try:
            return -float(np.sum(stats.multivariate_normal(m, c).logpdf(Z)))
        except (np.linalg.LinAlgError, ValueError):
            return np.inf

    starts = [_cholesky_params((mean - mu0) / sd, cov / np.outer(sd, sd)),
              _cholesky_params(np.ones(d), np.eye(d))]
    for t0 in starts:
        res = scipy.optimize.minimize(neg_ll, t0, method="BFGS", options={"gtol": 1e-10})
        if np.isfinite(res.fun):
            assert_not_above(-res.fun + offset, best, label="LL(optimiser) - LL(closed form)",
                             scale=scale)
    for s in (0.99, 1.01):
        assert_not_above(gaussian_ll_reference(X, mean, cov * s), best, scale=scale,
                         label="LL(covariance x 0.99 or 1.01) - LL(closed form)")
    shift = 1e-3 * np.sqrt(np.diag(cov))
    assert_not_above(gaussian_ll_reference(X, mean + shift, cov), best, scale=scale,
                     label="LL(mean shifted 1e-3 sd) - LL(closed form)")


@claim(
    id="mle.gaussian_argmax_5_5",
    source="003 §5.3 (5.5)",
    statement="For a Gaussian class conditional, the ML estimate (5.5) is the sample mean "
    "and the biased sample covariance (1/m) sum (x - mu)(x - mu)^T: no other parameter "
    "has a larger log-likelihood (5.4).",
    method=Method.REFERENCE,
    tags=("bayes", "mle", "slow"),
)
@given(X=gaussian_samples(max_dim=2, max_rows=25))
def gaussian_argmax_5_5(X):
    check_gaussian_mle(X)


def check_categorical_mle(x: np.ndarray, k: int, rng, estimate=categorical_mle) -> None:
    """(5.5): the estimate's LL is not beaten by Dirichlet draws nor by small steps from
    the estimate towards independently counted frequencies or random simplex points."""
    p_hat = estimate(x, k)
    best = categorical_log_likelihood(x, p_hat)
    freq = np.bincount(x, minlength=k) / x.size
    candidates = list(rng.dirichlet(np.ones(k), size=20))
    for eps in (1e-2, 1e-4):
        candidates.append((1 - eps) * p_hat + eps * freq)
        candidates.extend((1 - eps) * p_hat + eps * q for q in rng.dirichlet(np.ones(k), 5))
    for q in candidates:
        assert_not_above(categorical_log_likelihood(x, q), best, scale=float(x.size),
                         label="LL(other p) - LL(frequencies)")


@claim(
    id="mle.categorical_argmax_5_5",
    source="003 §5.3 (5.5)",
    statement="For a categorical class conditional, the ML estimate (5.5) is the vector of "
    "relative frequencies: no other probability vector has a larger LL.",
    method=Method.PROPERTY,
    tags=("bayes", "mle"),
)
@given(counts=st.lists(st.integers(0, 30), min_size=2, max_size=5).filter(lambda c: sum(c) > 0),
       rng=rngs())
def categorical_argmax_5_5(counts, rng):
    x = np.repeat(np.arange(len(counts)), counts)
    check_categorical_mle(x, len(counts), rng)


@claim(
    id="mle.class_conditional_classifier",
    source="003 §5.3 (5.4)-(5.5); 003 §5.1 (5.1)",
    statement="The Bayes classifier with Gaussian class conditionals estimated by (5.5) "
    "(class frequencies, class means, biased class covariances) has posteriors P(c) "
    "N(x | mu_c, Sigma_c) / sum_c' P(c') N(x | mu_c', Sigma_c').",
    method=Method.REFERENCE,
    tags=("bayes", "mle"),
)
@given(rng=rngs(), K=st.integers(2, 3), d=st.integers(1, 3))
def class_conditional_classifier(rng, K, d):
    m = 4 * (d + 2)
    y = np.arange(K * m) % K
    X = rng.normal(size=(K * m, d)) * rng.uniform(0.5, 2.0, size=d) + y[:, None]
    clf = GaussianBayesClassifier(var_smoothing=0.0).fit(X, y)
    log_joint = np.column_stack([
        np.log(np.mean(y == c)) + stats.multivariate_normal(
            X[y == c].mean(axis=0), np.cov(X[y == c].T, bias=True).reshape(d, d)).logpdf(X)
        for c in range(K)])
    expected = np.exp(log_joint - log_joint.max(axis=1, keepdims=True))
    expected /= expected.sum(axis=1, keepdims=True)
    assert_matches(clf.predict_proba(X), expected, POSTERIOR,
                   label="|posterior - scipy.stats posterior|")


def expected_ml_variance(values: list[Fraction], probs: list[Fraction], m: int) -> Fraction:
    """``E[(1/m) sum (x_i - x_bar)^2]`` over all m-tuples of i.i.d. draws, exactly."""
    total = Fraction(0)
    for idx in itertools.product(range(len(values)), repeat=m):
        weight = math.prod((probs[i] for i in idx), start=Fraction(1))
        if weight == 0:
            continue
        xs = [values[i] for i in idx]
        mean = sum(xs) / m
        total += weight * sum((v - mean) ** 2 for v in xs) / m
    return total


@st.composite
def discrete_laws(draw):
    k = draw(st.integers(2, 3))
    values = [Fraction(v) for v in draw(st.lists(st.integers(-3, 3), min_size=k, max_size=k,
                                                  unique=True))]
    return values, draw(rational_distributions(k, positive=True)), draw(st.integers(2, 4))


def true_variance(values, probs) -> Fraction:
    mean = sum(p * v for p, v in zip(probs, values, strict=True))
    return sum(p * (v - mean) ** 2 for p, v in zip(probs, values, strict=True))


@claim(
    id="mle.variance_bias",
    source="003 §5.3 (5.5)",
    statement="The ML estimate is a function of the sample, not the true value: for the "
    "Gaussian-form variance estimate (1/m) sum (x_i - x_bar)^2, E = (m - 1)/m sigma^2 "
    "(biased, consistent as m grows).",
    method=Method.ENUMERATION,
    tags=("bayes", "mle"),
)
@given(law=discrete_laws())
def variance_bias(law):
    values, probs, m = law
    assert expected_ml_variance(values, probs, m) == Fraction(m - 1, m) * true_variance(
        values, probs)


@claim(
    id="mle.ml_is_true_value_as_written",
    source="003 §5.3",
    statement="(As written) the maximum-likelihood estimate can be taken as the true "
    "value of the parameter; in particular, on average over samples, the ML variance "
    "estimate equals the true variance.",
    method=Method.ENUMERATION,
    tags=("bayes", "mle", "erratum"),
    expect=Expect.REFUTED,
    kind=ErratumKind.SHORTHAND,
    corrected_by="mle.variance_bias",
    explanation="Shorthand: the note's summary of the idea of MLE says the maximising "
    "parameter is taken as the estimated true value; the intended meaning (use it as the "
    "estimate) is clear, but read literally (the estimate is the true value, so at least "
    "on average) it is false: the ML estimate is random, and for the variance biased: "
    "two fair "
    "draws from {0, 1} give E[(1/m) sum (x_i - x_bar)^2] = 1/8, but sigma^2 = 1/4.",
)
@given(law=discrete_laws())
@example(law=([Fraction(0), Fraction(1)], [Fraction(1, 2), Fraction(1, 2)], 2))
def ml_is_true_value_as_written(law):
    values, probs, m = law
    assert expected_ml_variance(values, probs, m) == true_variance(values, probs)
