"""The generative semi-supervised method, 003 §11.2 (11.1)-(11.6).

Every iterate the EM loop recorded is checked against formulas written here from the
notes with Gaussian densities written here too (no library code): the log-likelihood (11.4), the
responsibilities (11.5) and the M-step (11.6). The claims use the notes' exact M-step
(``reg_covar = 0``), and ``ssl.generative_classify_11_2_11_3`` bounds how far the
default jitter moves a fit from it; each class has at least ``n + 2`` labelled samples in general
position, so every covariance stays positive definite.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from hypothesis import given
from scipy.special import logsumexp
from threadpoolctl import threadpool_limits

from algorithms.bayes import run_em
from algorithms.clustering import MixtureParams
from algorithms.semi_supervised import (
    SemiSupervisedData,
    SemiSupervisedGaussianEM,
    SemiSupervisedGaussianMixture,
)
from mltheory import Method, claim, evidence
from mltheory.numeric import LINEAR_ALGEBRA, Tolerance, assert_close
from properties.bayes.support import check_em_monotone
from properties.semi_supervised.strategies import gaussian_classes

#: Log-densities and sums of a few hundred terms: float64 rounding stays near 1e-13
#: relative; the two computations factor the covariance differently (LU vs Cholesky).
DENSITY_AGREEMENT = Tolerance(1e-9, 1e-9, "two computations of the same Gaussian "
                              "log-densities (LU solve vs Cholesky factor)")


#: What the default ``SemiSupervisedGaussianMixture()`` may add to each covariance
#: diagonal beyond the M-step (11.6): its documented ``reg_covar`` jitter of 1e-6, a
#: numerical safeguard the notes' M-step does not have (their value is 0).
DEFAULT_JITTER = 1e-6


def gaussian_logpdf(X: np.ndarray, mean: np.ndarray, cov: np.ndarray) -> np.ndarray:
    """ln N(x | mean, cov) for each row, by slogdet and a general solve (the library uses
    a Cholesky factor and triangular solves)."""
    sign, logdet = np.linalg.slogdet(cov)
    assert sign > 0, "a covariance is not positive definite"
    diff = X - mean
    quad = np.einsum("ij,ji->i", diff, np.linalg.solve(cov, diff.T))
    return -0.5 * (X.shape[1] * np.log(2.0 * np.pi) + logdet + quad)


def log_components(X: np.ndarray, params) -> np.ndarray:
    """``ln alpha_i + ln p(x_j | mu_i, Sigma_i)`` (m, N), densities written here."""
    return np.column_stack([
        np.log(params.weights[i]) + gaussian_logpdf(X, params.means[i], params.covariances[i])
        for i in range(params.weights.shape[0])])


def loglik_11_4(X: np.ndarray, codes: np.ndarray, params) -> float:
    """(11.4): the labelled samples through their own component (p(y_j | Theta = i, x_j)
    is 1 for i = y_j, else 0), the unlabelled ones through the mixture."""
    joint = log_components(X, params)
    lab = codes >= 0
    return float(np.sum(joint[np.flatnonzero(lab), codes[lab]])
                 + np.sum(logsumexp(joint[~lab], axis=1)))


def step_11_5_11_6(X: np.ndarray, codes: np.ndarray, params):
    """One EM iteration written from (11.5)-(11.6): gamma_ji for the unlabelled samples,
    then mu_i, Sigma_i (about the new mu_i) and alpha_i with l_i labelled samples."""
    joint = log_components(X, params)
    u = codes < 0
    gamma = np.exp(joint[u] - logsumexp(joint[u], axis=1, keepdims=True))      # (11.5)
    Xu = X[u]
    m, k = X.shape[0], params.weights.shape[0]
    weights, means, covs = np.empty(k), [], []
    for i in range(k):
        mine = X[codes == i]
        total = gamma[:, i].sum() + mine.shape[0]                               # + l_i
        mu = (gamma[:, i] @ Xu + mine.sum(axis=0)) / total
        du, dl = Xu - mu, mine - mu
        cov = ((gamma[:, i, None] * du).T @ du + dl.T @ dl) / total
        weights[i] = total / m
        means.append(mu)
        covs.append(cov)
    return weights, np.array(means), np.array(covs)


@threadpool_limits.wrap(limits=1, user_api="blas")   # thin products: threads only cost
def check_em_steps(X: np.ndarray, codes: np.ndarray, max_iter: int = 8) -> None:
    """Every recorded iterate: its LL is (11.4), and the next iterate is (11.5)-(11.6)
    applied to it."""
    k = int(codes.max()) + 1
    model = SemiSupervisedGaussianEM(k, reg_covar=0.0)
    run = run_em(model, SemiSupervisedData(X, codes), max_iter=max_iter, tol=0.0,
                 keep_params=True, warn=False).best_run
    assert run.stop_reason != "non-finite", "an iterate was not finite"
    history = run.params_history
    lls = np.array([loglik_11_4(X, codes, p) for p in history])
    assert_close(np.array(run.log_likelihood_history), lls, DENSITY_AGREEMENT,
                 scale=max(1.0, float(np.max(np.abs(lls)))),
                 context="recorded LL vs (11.4): ", label="recorded LL vs (11.4)")
    for t in range(len(history) - 1):
        weights, means, covs = step_11_5_11_6(X, codes, history[t])
        nxt = history[t + 1]
        for name, ours, theirs in (("alpha", nxt.weights, weights), ("mu", nxt.means, means),
                                   ("Sigma", nxt.covariances, covs)):
            assert_close(ours, theirs, LINEAR_ALGEBRA, scale=max(1.0, float(np.max(
                np.abs(theirs)))), context=f"iteration {t + 1}, {name} vs (11.6): ",
                label="M-step vs (11.5)-(11.6)")
    evidence.record("iterations checked", len(history) - 1)


@claim(
    id="ssl.generative_em_11_5_11_6",
    source="003 §11.2 (11.4)-(11.6)",
    statement="EM for the Gaussian mixture with one component per class: the E-step gives "
    "the unlabelled samples the responsibilities gamma_ji = alpha_i p(x_j | mu_i, Sigma_i) "
    "/ sum_l alpha_l p(x_j | mu_l, Sigma_l) (11.5); the M-step sets mu_i, Sigma_i and "
    "alpha_i = (sum_u gamma_ji + l_i) / m with the l_i labelled samples of class i counted "
    "in full (11.6); the likelihood maximised is (11.4).",
    method=Method.PROPERTY,
    tags=("semi_supervised", "generative", "em"),
)
@given(problem=gaussian_classes())
def generative_em_11_5_11_6(problem):
    X, codes, _ = problem
    check_em_steps(X, codes)


@threadpool_limits.wrap(limits=1, user_api="blas")
def check_monotone(X: np.ndarray, codes: np.ndarray) -> None:
    k = int(codes.max()) + 1
    model = SemiSupervisedGaussianEM(k, reg_covar=0.0)
    data = SemiSupervisedData(X, codes)
    start = model.initialise(data, np.random.default_rng(0))
    check_em_monotone(model, data, start, lambda p: loglik_11_4(X, codes, p), max_iter=12,
                      label="semi-supervised EM")


@claim(
    id="ssl.generative_em_monotone",
    source="003 §11.2 (11.4)-(11.6); 003 §5.7",
    statement="Iterating the E-step (11.5) and M-step (11.6) never lowers the "
    "log-likelihood (11.4) of the labelled and unlabelled samples.",
    method=Method.PROPERTY,
    tags=("semi_supervised", "generative", "em"),
)
@given(problem=gaussian_classes())
def generative_em_monotone(problem):
    X, codes, _ = problem
    check_monotone(X, codes)


@threadpool_limits.wrap(limits=1, user_api="blas")
def check_classification(X: np.ndarray, codes: np.ndarray) -> None:
    """predict is (11.2) with p(y = j | Theta = i, x) = [i = j]: the class of the largest
    posterior (11.3), computed here with scipy from the fitted parameters; with every
    sample labelled, one EM iteration reaches the class-wise maximum-likelihood estimate."""
    est = SemiSupervisedGaussianMixture(reg_covar=0.0).fit(X, codes)
    joint = log_components(X, MixtureParams(est.weights_, est.means_, est.covariances_))
    post = np.exp(joint - logsumexp(joint, axis=1, keepdims=True))              # (11.3)
    assert_close(est.predict_proba(X), post, DENSITY_AGREEMENT, scale=1.0,
                 context="posterior vs (11.3): ", label="predict_proba vs (11.3)")
    margin = np.sort(post, axis=1)
    clear = margin[:, -1] - margin[:, -2] > 1e-9       # ties: either class is (11.2)'s
    assert np.array_equal(est.predict(X)[clear], est.classes_[np.argmax(post, axis=1)][clear])
    lab = codes >= 0
    full = SemiSupervisedGaussianMixture(reg_covar=0.0).fit(X[lab], codes[lab])
    for i in range(full.classes_.shape[0]):
        mine = X[lab][codes[lab] == i]
        assert_close(full.means_[i], mine.mean(axis=0), LINEAR_ALGEBRA, scale=1.0,
                     context="all labelled, mean: ", label="all labelled: MLE")
        assert_close(full.covariances_[i], np.atleast_2d(np.cov(mine.T, bias=True)),
                     LINEAR_ALGEBRA, scale=1.0, context="all labelled, covariance: ",
                     label="all labelled: MLE")
        assert abs(full.weights_[i] - mine.shape[0] / lab.sum()) <= 1e-12
    check_default_jitter(X[lab], codes[lab])


def check_default_jitter(X: np.ndarray, codes: np.ndarray,
                         make: Callable[[], SemiSupervisedGaussianMixture]
                         = SemiSupervisedGaussianMixture) -> None:
    """All samples labelled, the estimator as ``make()`` builds it (by default with its
    default settings): its covariances are the class-wise maximum-likelihood ones, except
    that each diagonal entry may exceed them by at most :data:`DEFAULT_JITTER`."""
    est = make().fit(X, codes)
    for i in range(est.classes_.shape[0]):
        mine = X[codes == i]
        mle = np.atleast_2d(np.cov(mine.T, bias=True))
        ours = est.covariances_[i]
        scale = max(1.0, float(np.max(np.abs(mle))))
        off = ~np.eye(mle.shape[0], dtype=bool)
        assert_close(ours[off], mle[off], LINEAR_ALGEBRA, scale=scale,
                     context="default settings, off-diagonal covariance: ",
                     label="default settings: MLE")
        room = LINEAR_ALGEBRA.atol + LINEAR_ALGEBRA.rtol * scale
        extra = np.diag(ours) - np.diag(mle)
        evidence.worst("default jitter on a covariance diagonal", float(np.max(extra)))
        assert np.all(extra >= -room) and np.all(extra <= DEFAULT_JITTER + room), (
            f"default settings: covariance diagonal exceeds the (11.6) MLE by {extra}, "
            f"outside [0, {DEFAULT_JITTER}]")


@claim(
    id="ssl.generative_classify_11_2_11_3",
    source="003 §11.2 (11.2)-(11.3)",
    statement="A sample is classified by (11.2): with one mixture component per class the "
    "prediction is the class whose component has the largest posterior p(Theta = i | x) "
    "of (11.3); without unlabelled samples the fitted components are the class-wise "
    "maximum-likelihood Gaussians (with the estimator's default settings, up to a "
    "numerical jitter of at most 1e-6 on each covariance diagonal).",
    method=Method.PROPERTY,
    tags=("semi_supervised", "generative"),
)
@given(problem=gaussian_classes())
def generative_classify_11_2_11_3(problem):
    X, codes, _ = problem
    check_classification(X, codes)


def check_mixture_density(X: np.ndarray, codes: np.ndarray) -> None:
    """(11.1) with the fitted parameters integrates to 1: the library's score_samples on a
    1-d grid of 40001 points over +-40 sd of every component, by the trapezoid rule
    (spacing below 0.005 sd: its error is far below the 1e-6 allowed); and the weights
    lie on the simplex."""
    est = SemiSupervisedGaussianMixture().fit(X[:, :1], codes)
    assert np.all(est.weights_ >= 0) and abs(est.weights_.sum() - 1.0) <= 1e-12
    sd = float(np.sqrt(est.covariances_.min()))
    lo = float(np.min(est.means_ - 40 * np.sqrt(est.covariances_[:, 0, 0])[:, None]))
    hi = float(np.max(est.means_ + 40 * np.sqrt(est.covariances_[:, 0, 0])[:, None]))
    n = max(40001, int((hi - lo) / (0.005 * sd)) + 1)
    grid = np.linspace(lo, hi, min(n, 2_000_001))
    total = float(np.trapezoid(np.exp(est.score_samples(grid[:, None])), grid))
    evidence.worst("|integral of p(x) - 1|", abs(total - 1.0))
    assert abs(total - 1.0) <= 1e-6, f"the mixture integrates to {total}"


@claim(
    id="ssl.mixture_11_1",
    source="003 §11.2 (11.1)",
    statement="With mixing weights alpha_i >= 0 summing to 1, p(x) = sum_i alpha_i "
    "p(x | mu_i, Sigma_i) is a probability density; the fitted mixture's weights are on "
    "the simplex and its density integrates to 1.",
    method=Method.PROPERTY,
    tags=("semi_supervised", "generative", "slow"),
)
@given(problem=gaussian_classes())
def mixture_11_1(problem):
    X, codes, _ = problem
    check_mixture_density(X, codes)
