"""Gaussian-mixture clustering of 003 §7.4.3 (7.17)-(7.27), Fig 9.6, run on the generic EM
driver of 003 §5.7.

References independent of :mod:`algorithms.clustering`: ``scipy.stats.multivariate_normal``
(densities, posteriors, the log-likelihood of every recorded iterate), quadrature for
normalisation, central finite differences of the scipy log-likelihood for the gradients
behind (7.22)-(7.26), and scikit-learn's ``GaussianMixture`` from the same initial
parameters. The EM claims read the trace the driver's loop recorded, from adversarial
starting points (collapsed components, tiny variances, duplicated samples, far-away
means).
"""

from __future__ import annotations

import math
import warnings

import numpy as np
from hypothesis import example, given
from hypothesis import strategies as st
from scipy import integrate, stats
from scipy.special import logsumexp
from sklearn import datasets
from sklearn import mixture as skm

from algorithms.clustering import (
    GaussianMixtureClustering,
    GaussianMixtureEM,
    MixtureParams,
    gaussian_log_density,
    sample_mixture,
)
from mltheory import ErratumKind, Expect, Method, claim, evidence
from mltheory.numeric import LINEAR_ALGEBRA, Tolerance, assert_close, assert_leq
from mltheory.stats import check_probability_at_least, check_probability_at_most
from properties.clustering.strategies import START_KINDS, GMMProblem, gmm_problems, mixtures
from properties.clustering.support import (
    EM_ROUNDING,
    check_em_trace,
    mixture_log_likelihood,
    silenced,
)

#: Central differences of the scipy log-likelihood with steps 1e-5 of the natural scale
#: (sqrt of the smallest eigenvalue for means, the eigenvalue itself for covariances).
FINITE_DIFFERENCE = Tolerance(
    rtol=1e-4, atol=1e-6,
    reason="central differences with relative step 1e-5: truncation ~1e-10 of the "
    "curvature scale, rounding ~1e-16 |LL| / 1e-5; both far below 1e-4 of the gradient")

#: Quadrature of a density over +-12 standard deviations (the tails beyond hold < 1e-30).
QUADRATURE = Tolerance(rtol=1e-7, atol=1e-7,
                       reason="Simpson's rule with 800 steps over +-12 sd (error ~1e-12) or "
                       "adaptive Gauss-Kronrod to 1e-12; tails beyond 12 sd hold < 1e-30")

#: Two implementations of the same EM iterations (scikit-learn adds 10 eps to N_i).
SAME_EM_RUN = Tolerance(
    rtol=1e-7, atol=1e-9,
    reason="the same E- and M-steps in another implementation; scikit-learn adds 1e-15 "
    "to N_i and uses precision Cholesky factors: differences grow to ~1e-10 over 20 steps")


#: At an EM fixed point (tol 1e-13 on the mean LL change) the gradient, measured in the
#: natural units (per sample, times sqrt(lambda_min) for means, lambda_min for
#: covariances), is ~sqrt(1e-13) ~ 3e-7 (LL is quadratic near a stationary point).
STATIONARY = 1e-5


def _ll(X: np.ndarray, params: MixtureParams) -> float:
    value = mixture_log_likelihood(X, params)
    assert value is not None, "scipy refuses a covariance of a well-conditioned case"
    return value


def fit_from(problem: GMMProblem, *, reg_covar: float, max_iter: int = 30
             ) -> GaussianMixtureClustering:
    """EM from the problem's starting point, every iterate kept, run to ``max_iter``."""
    s = problem.start
    est = GaussianMixtureClustering(
        s.n_components, reg_covar=reg_covar, tol=0.0, max_iter=max_iter,
        weights_init=s.weights, means_init=s.means, covariances_init=s.covariances,
        keep_history=True, random_state=0)
    return silenced(est.fit, problem.X)


def _data_from(mix: MixtureParams, m: int, seed: int) -> np.ndarray:
    return sample_mixture(mix, m, np.random.default_rng(seed))[0]


# ---------------------------------------------------------------------------
# (7.17)-(7.18): densities
# ---------------------------------------------------------------------------


@claim(
    id="gmm.gaussian_density_7_17",
    source="003 §7.4.3 (7.17)",
    statement="p(x | mu, Sigma) = (2 pi)^(-n/2) |Sigma|^(-1/2) exp(-(x - mu)^T Sigma^(-1) "
    "(x - mu) / 2), computed in log space through a Cholesky factor, equals "
    "scipy.stats.multivariate_normal's log-density for covariances with condition numbers "
    "up to 1e4 and points far in the tails, and integrates to 1 (n = 1, 2 by quadrature).",
    method=Method.REFERENCE,
    tags=("clustering", "gmm"),
)
@given(mix=mixtures(max_components=1), seed=st.integers(0, 2**32 - 1))
def gaussian_density_7_17(mix, seed):
    check_density(mix.means[0], mix.covariances[0], seed)


def check_density(mu, S, seed, logpdf=gaussian_log_density) -> None:
    """``logpdf`` equals scipy's log-density (also far in the tails) and integrates to 1."""
    rng = np.random.default_rng(seed)
    X = mu + rng.normal(scale=np.sqrt(np.max(np.diag(S))) * 30.0, size=(20, mu.shape[0]))
    ours = logpdf(X, mu, S)
    ref = stats.multivariate_normal(mu, S).logpdf(X).reshape(-1)
    assert_close(ours, ref, LINEAR_ALGEBRA, scale=float(np.max(np.abs(ref))),
                 label="|log p - scipy| / max|log p|")
    if mu.shape[0] <= 2:
        assert_close(_integral_rotated(mu, S, logpdf), 1.0, QUADRATURE,
                     label="|integral of p - 1|")


def _integral_rotated(mu: np.ndarray, S: np.ndarray, logpdf, points: int = 801) -> float:
    """Integral of the density over +-12 sd along the eigenvectors of Sigma (a rotation:
    Jacobian 1), by Simpson's rule on a grid that resolves even a thin ridge."""
    lam, Q = np.linalg.eigh(S)
    axes = [np.linspace(-12, 12, points) * np.sqrt(v) for v in lam]
    grid = np.stack(np.meshgrid(*axes, indexing="ij"), axis=-1).reshape(-1, len(lam))
    values = np.exp(logpdf(mu + grid @ Q.T, mu, S)).reshape([points] * len(lam))
    for ax in reversed(axes):
        values = integrate.simpson(values, x=ax, axis=-1)
    return float(values)


def _integral_1d(weights: np.ndarray, mix: MixtureParams) -> float:
    mu, var = mix.means[:, 0], mix.covariances[:, 0, 0]
    lo, hi = float(np.min(mu - 12 * np.sqrt(var))), float(np.max(mu + 12 * np.sqrt(var)))

    def density(x):
        return float(np.sum(weights * stats.norm.pdf(x, mu, np.sqrt(var))))
    return integrate.quad(density, lo, hi, points=list(mu), limit=200, epsabs=1e-12)[0]


@claim(
    id="gmm.mixture_as_written",
    source="003 §7.4.3 (7.18)",
    statement="(As printed: mixture coefficients alpha_i > 0, nothing more) p_M(x) = "
    "sum_i alpha_i p(x | mu_i, Sigma_i) is a probability density.",
    method=Method.PROPERTY,
    tags=("clustering", "gmm", "erratum"),
    expect=Expect.REFUTED,
    kind=ErratumKind.MISSING_CONDITION,
    corrected_by="gmm.mixture_7_18",
    explanation="Missing condition sum_i alpha_i = 1: p_M integrates to sum_i alpha_i, "
    "e.g. alpha = (1, 1) gives 2 (the constraint appears only later, in (7.25)).",
)
@given(mix=mixtures(max_dim=1), raw=st.lists(st.floats(0.05, 3.0), min_size=4, max_size=4))
def mixture_as_written(mix, raw):
    alpha = np.array(raw[:mix.n_components])
    assert_close(_integral_1d(alpha, mix), 1.0, QUADRATURE, label="|integral of p_M - 1|")


@claim(
    id="gmm.mixture_7_18",
    source="003 §7.4.3 (7.18)",
    statement="With alpha_i > 0 and sum_i alpha_i = 1, p_M integrates to 1, and the "
    "two-step generative process (pick component i with probability alpha_i, then draw "
    "from N(mu_i, Sigma_i)) has density p_M: the frequency of every drawn half-space "
    "{w^T x <= c} matches sum_i alpha_i Phi((c - w^T mu_i) / sqrt(w^T Sigma_i w)), decided "
    "by Clopper-Pearson at 1 - 1e-6 in both directions. The mixture clustering takes "
    "starting coefficients only with that condition (a sum off 1 by 1e-6 is refused, by "
    "rounding 1e-12 accepted).",
    method=Method.SIMULATION,
    tags=("clustering", "gmm", "simulation"),
)
def mixture_7_18(rng, scale):
    check_generative(rng, scale)
    check_coefficients_on_simplex(rng)


def check_coefficients_on_simplex(rng) -> None:
    """``weights_init`` must sum to 1 (up to rounding): the condition (7.18) leaves out."""
    X = rng.normal(size=(20, 2))
    X[10:] += 4.0
    for off, accepted in ((1e-12, True), (1e-6, False), (1.0, False)):
        est = GaussianMixtureClustering(2, weights_init=[0.5, 0.5 + off], max_iter=2)
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                est.fit(X)
            refused = False
        except ValueError as exc:
            refused = "weights_init" in str(exc)
        assert refused != accepted, f"coefficients summing to 1 + {off:g}: refused={refused}"


def check_generative(rng, scale, sampler=sample_mixture) -> None:
    """Half-space frequencies of ``sampler``'s draws against the exact mixture CDF
    (Clopper-Pearson at 1 - 1e-6 both ways), and the 1-d integral of p_M."""
    trials = 20_000 * scale
    for case in range(6):
        k, n = int(rng.integers(1, 5)), int(rng.integers(1, 4))
        weights = rng.dirichlet(np.ones(k))
        means = rng.normal(scale=2.0, size=(k, n))
        covs = np.stack([A @ A.T + 0.1 * np.eye(n) for A in rng.normal(size=(k, n, n))])
        mix = MixtureParams(weights, means, covs)
        if n == 1:
            assert_close(_integral_1d(weights, mix), 1.0, QUADRATURE,
                         label="|integral of p_M - 1|")
        X, _ = sampler(mix, trials, rng)
        for _ in range(3):
            w = rng.normal(size=n)
            proj = means @ w
            sd = np.sqrt(np.einsum("a,iab,b->i", w, covs, w))
            c = float(rng.choice(proj) + rng.normal() * sd.mean())
            exact = float(np.sum(weights * stats.norm.cdf((c - proj) / sd)))
            hits = int(np.sum(X @ w <= c))
            label = f"case {case}: P(w.x <= c)"
            check_probability_at_most(hits, trials, exact, label=label)
            check_probability_at_least(hits, trials, exact, label=label)
    evidence.record("draws per case", trials)


# ---------------------------------------------------------------------------
# (7.19)-(7.20): posteriors and labels
# ---------------------------------------------------------------------------


def _scipy_joint(X: np.ndarray, mix: MixtureParams, cov_index=None) -> np.ndarray:
    """log alpha_l + log p(x | mu_l, Sigma_{cov_index(l)}) by scipy, (m, k)."""
    pick = cov_index or (lambda c: c)
    return np.column_stack([np.log(mix.weights[c]) + stats.multivariate_normal(
        mix.means[c], mix.covariances[pick(c)]).logpdf(X).reshape(-1)
        for c in range(mix.n_components)])


@claim(
    id="gmm.posterior_7_19_as_written",
    source="003 §7.4.3 (7.19)",
    statement="(As printed) gamma_ji = alpha_i p(x_j | mu_i, Sigma_i) / sum_l alpha_l "
    "p(x_j | mu_l, Sigma_i), the denominator's terms all using Sigma_i, is the posterior "
    "P(z_j = i | x_j): over i it sums to 1.",
    method=Method.PROPERTY,
    tags=("clustering", "gmm", "erratum"),
    expect=Expect.REFUTED,
    kind=ErratumKind.SYMBOL,
    corrected_by="gmm.posterior_7_19",
    explanation="Wrong index: the denominator must use Sigma_l (the l-th component's "
    "covariance); with Sigma_i each component is normalised by a different sum and the "
    "'posteriors' of a sample no longer sum to 1 once the covariances differ.",
)
@given(mix=mixtures(), seed=st.integers(0, 2**32 - 1))
def posterior_7_19_as_written(mix, seed):
    X = _data_from(mix, 10, seed)
    own = _scipy_joint(X, mix)
    total = np.zeros(X.shape[0])
    for i in range(mix.n_components):
        denom = logsumexp(_scipy_joint(X, mix, cov_index=lambda _l, i=i: i), axis=1)
        total += np.exp(own[:, i] - denom)
    assert_close(total, np.ones_like(total), LINEAR_ALGEBRA, label="|sum_i gamma_ji - 1|")


@claim(
    id="gmm.posterior_7_19",
    source="003 §7.4.3 (7.19)",
    statement="gamma_ji = alpha_i p(x_j | mu_i, Sigma_i) / sum_l alpha_l p(x_j | mu_l, "
    "Sigma_l) computed by log-sum-exp is >= 0, sums to 1 over i, equals Bayes' rule with "
    "scipy's densities, and stays finite for samples so far from every component that "
    "every density underflows to 0 (where the printed ratio is 0/0).",
    method=Method.PROPERTY,
    tags=("clustering", "gmm"),
)
@given(mix=mixtures(), seed=st.integers(0, 2**32 - 1), far=st.sampled_from([1.0, 1e2, 1e4]))
def posterior_7_19(mix, seed, far):
    check_posterior(mix, _data_from(mix, 10, seed) * far)


def check_posterior(mix, X, e_step=None) -> None:
    """gamma and LL of ``e_step`` (default: the model's) against Bayes' rule with scipy."""
    e_step = e_step or GaussianMixtureEM(mix.n_components).e_step
    stats_, ll = e_step(X, mix)
    gamma = stats_.resp
    joint = _scipy_joint(X, mix)
    ref = np.exp(joint - logsumexp(joint, axis=1, keepdims=True))
    assert np.all(np.isfinite(gamma)) and np.all(gamma >= 0)
    assert_close(gamma.sum(axis=1), np.ones(X.shape[0]), EM_ROUNDING, label="|sum_i gamma - 1|")
    assert_close(gamma, ref, LINEAR_ALGEBRA, label="|gamma - Bayes rule (scipy)|")
    assert_close(ll, float(np.sum(logsumexp(joint, axis=1))), EM_ROUNDING,
                 scale=max(1.0, abs(ll)), label="|LL - scipy| / |LL|")
    with np.errstate(invalid="ignore"):
        naive = np.exp(joint) / np.exp(joint).sum(axis=1, keepdims=True)
    evidence.worst("samples where the plain ratio is 0/0", float(np.sum(np.isnan(naive).any(1))))


@claim(
    id="gmm.labels_7_20",
    source="003 §7.4.3 (7.20); 003 §7.4.3 Fig 9.6",
    statement="The cluster label lambda_j = argmax_i gamma_ji (Fig 9.6 lines 13-17): the "
    "fitted labels are the argmax of the posteriors at the final parameters, for new "
    "samples too; the posteriors are (7.19) at those parameters (scipy's densities).",
    method=Method.PROPERTY,
    tags=("clustering", "gmm"),
)
@given(problem=gmm_problems(kinds=("random", "far")))
def labels_7_20(problem):
    est = fit_from(problem, reg_covar=1e-6, max_iter=10)
    for Z in (problem.X, problem.X[::-1] + 0.5):
        gamma = est.predict_proba(Z)
        assert np.array_equal(est.predict(Z), np.argmax(gamma, axis=1))
        joint = np.column_stack([  # a component of weight 0 has posterior 0
            np.full(Z.shape[0], -np.inf) if w == 0 else
            math.log(w) + stats.multivariate_normal(mu, S).logpdf(Z).reshape(-1)
            for w, mu, S in zip(est.weights_, est.means_, est.covariances_, strict=True)])
        expected = np.exp(joint - logsumexp(joint, axis=1, keepdims=True))
        assert_close(gamma, expected, LINEAR_ALGEBRA,
                     label="|predict_proba - (7.19) from scipy's densities|")
    assert np.array_equal(est.labels_, est.predict(problem.X))


# ---------------------------------------------------------------------------
# (7.21): the likelihood, its supremum and EM's monotone ascent
# ---------------------------------------------------------------------------


@claim(
    id="gmm.mle_exists_as_written",
    source="003 §7.4.3 (7.21)",
    statement="(As printed: the parameters are estimated by maximising LL(D)) the "
    "log-likelihood (7.21) has a finite maximum: no parameters exceed a finite bound M.",
    method=Method.PROPERTY,
    tags=("clustering", "gmm", "erratum"),
    expect=Expect.REFUTED,
    kind=ErratumKind.MISSING_CONDITION,
    corrected_by="gmm.regularised_ll_bound",
    explanation="Missing condition: LL is unbounded above. A component centred on one "
    "sample with covariance s I contributes >= ln(alpha (2 pi s)^(-n/2)) -> inf as s -> 0 "
    "while the other components keep the rest finite, so every candidate bound M is "
    "exceeded (the degenerate solutions EM can run into); a covariance floor restores "
    "a maximum.",
)
@given(problem=gmm_problems(kinds=("random",)), bound=st.floats(-1e4, 1e4))
def mle_exists_as_written(problem, bound):
    X = problem.X
    n = X.shape[1]
    cov = np.atleast_2d(np.cov(X.T, bias=True)) + np.eye(n)
    for s in 10.0 ** -np.arange(1, 300, 3):
        degenerate = MixtureParams(np.array([0.5, 0.5]), np.stack([X[0], X.mean(axis=0)]),
                                   np.stack([s * np.eye(n), cov]))
        _, ll = GaussianMixtureEM(2).e_step(X, degenerate)
        if ll > bound:
            break
    evidence.worst("LL reached / candidate bound M (sign-aware)", ll - bound)
    assert ll <= bound, f"LL = {ll!r} > M = {bound!r} at covariance {s:g} I on sample 0"


#: exp() of more than this overflows float64: a headroom beyond e^700 is shown as e^700.
_LARGEST_EXPONENT = 700.0


@claim(
    id="gmm.regularised_ll_bound",
    source="003 §7.4.3 (7.21); 003 §7.4.3 Fig 9.6",
    statement="With the covariance floor Sigma_i = S_i + eps I of the M-step, every EM "
    "iterate has LL(D) <= -(m n / 2) ln(2 pi eps) (each density is at most "
    "(2 pi eps)^(-n/2)); the bound is attained when all samples coincide.",
    method=Method.PROPERTY,
    tags=("clustering", "gmm", "bound"),
)
@given(problem=gmm_problems(kinds=("duplicates", "tiny_variances", "collapsed")),
       eps=st.sampled_from([1e-6, 1e-3, 1e-1]))
@example(problem=GMMProblem(X=np.ones((6, 2)), start=MixtureParams(
    np.array([1.0]), np.array([[0.5, 0.5]]), np.eye(2)[None]), kind="all equal"), eps=1e-3)
def regularised_ll_bound(problem, eps):
    check_ll_ceiling(problem, eps)


def check_ll_ceiling(problem: GMMProblem, eps: float, factor: float = 0.5,
                     two_pi: float = 2 * math.pi) -> None:
    """Every iterate after the first M-step has LL <= -factor m n ln(two_pi eps).

    The headroom is that of the density ceiling behind the bound: by how much
    ``(2 pi eps)^(-n/2)`` could be divided and still bound the geometric mean density
    ``exp(LL / m)`` of every iterate, ``exp((ceiling - LL) / m)`` (1 when attained).
    """
    est = fit_from(problem, reg_covar=eps, max_iter=15)
    m, n = problem.X.shape
    ceiling = -factor * m * n * math.log(two_pi * eps)
    for ll in est.em_result_.best_run.log_likelihood_history[1:]:
        excess = ll - ceiling
        evidence.worst("LL - ceiling (0 when attained)", excess)
        evidence.headroom("per-sample density ceiling (2 pi eps)^(-n/2)",
                          math.exp(min(-excess / m, _LARGEST_EXPONENT)))
        assert excess <= EM_ROUNDING.atol + EM_ROUNDING.rtol * abs(ceiling), (ll, ceiling)


@claim(
    id="gmm.em_monotone",
    source="003 §7.4.3 Fig 9.6; 003 §5.7 (5.14)-(5.15)",
    statement="EM for the Gaussian mixture (the M-step (7.23), (7.24) with the new means, "
    "(7.27); no regularisation) never lowers the log-likelihood (7.21): step by step "
    "through the trace the EM driver's loop recorded, checked against scipy's densities, "
    "from collapsed components, variances of 1e-8..1e-14, duplicated samples, far-away "
    "means and random starts.",
    method=Method.PROPERTY,
    tags=("clustering", "gmm", "em", "monotone"),
)
@given(data=st.data())
def em_monotone(data):
    for kind in START_KINDS:  # every kind of start in every example
        problem = data.draw(gmm_problems(kinds=(kind,)), label=kind)
        est = fit_from(problem, reg_covar=0.0)
        run = est.em_result_.best_run
        steps = check_em_trace(problem.X, run, reg_covar=0.0, label=f"EM ({kind} start)")
        if steps.size:
            evidence.worst("smallest LL increase per step (all starts)", float(np.min(steps)),
                           larger_is_worse=False)
        evidence.worst("most steps in one run", float(steps.size))
        if run.stop_reason == "non-finite":
            evidence.note("runs from tiny variances or onto duplicated samples stop when a "
                          "covariance turns singular (no regularisation): the driver keeps "
                          "the last finite iterate")


@claim(
    id="gmm.em_regularised_deficit",
    source="003 §7.4.3 Fig 9.6; 003 §5.7 (5.14)-(5.15)",
    statement="With the covariance floor Sigma_i' = S_i + eps I (which keeps EM finite on "
    "duplicated samples) an EM step lowers LL by at most delta = sum_i N_i/2 sum_k "
    "[ln(1 + eps/l_ik) - eps/(l_ik + eps)] (l_ik the eigenvalues of S_i): the amount by "
    "which the floor lowers Q below its maximum. Checked step by step on the recorded "
    "trace from the adversarial starts.",
    method=Method.PROPERTY,
    tags=("clustering", "gmm", "em", "monotone"),
)
@given(data=st.data(), eps=st.sampled_from([1e-6, 1e-3, 1e-1]))
def em_regularised_deficit(data, eps):
    for kind in START_KINDS:
        problem = data.draw(gmm_problems(kinds=(kind,)), label=kind)
        est = fit_from(problem, reg_covar=eps)
        steps = check_em_trace(problem.X, est.em_result_.best_run, reg_covar=eps,
                               label=f"regularised EM ({kind} start)")
        if steps.size:
            evidence.worst("largest LL decrease seen (regularised)", float(-np.min(steps)))


# ---------------------------------------------------------------------------
# (7.22)-(7.27): stationarity
# ---------------------------------------------------------------------------


def analytic_gradients(X: np.ndarray, mix: MixtureParams):
    """dLL/dmu_i = Sigma_i^(-1) sum_j gamma_ji (x_j - mu_i) ((7.22) times Sigma_i^(-1)),
    dLL/dSigma_i = 1/2 sum_j gamma_ji (Sigma_i^(-1) d d^T Sigma_i^(-1) - Sigma_i^(-1)),
    dLL/dalpha_i = sum_j p(x_j | i) / p_M(x_j) = sum_j gamma_ji / alpha_i ((7.26))."""
    joint = _scipy_joint(X, mix)
    gamma = np.exp(joint - logsumexp(joint, axis=1, keepdims=True))
    g_mu, g_sigma = [], []
    for i in range(mix.n_components):
        d = X - mix.means[i]
        g_mu.append(np.linalg.solve(mix.covariances[i], gamma[:, i] @ d))
        A = np.linalg.solve(mix.covariances[i], d.T)  # Sigma^(-1) d_j as columns
        g_sigma.append(0.5 * ((gamma[:, i] * A) @ A.T - gamma[:, i].sum()
                              * np.linalg.inv(mix.covariances[i])))
    return gamma, np.array(g_mu), np.array(g_sigma), gamma.sum(axis=0) / mix.weights


def _perturbed(mix: MixtureParams, what: str, i: int, idx: tuple, h: float) -> MixtureParams:
    w, mu, S = mix.weights.copy(), mix.means.copy(), mix.covariances.copy()
    if what == "mu":
        mu[i][idx] += h
    elif what == "sigma":
        a, b = idx
        S[i, a, b] += h
        if a != b:
            S[i, b, a] += h
    else:
        w[i] += h
    return MixtureParams(w, mu, S)


def finite_difference(X, mix, what: str, i: int, idx: tuple, h: float) -> float:
    """Central difference of scipy's LL along one coordinate (a symmetric pair of
    covariance entries counts as one coordinate)."""
    up = _ll(X, _perturbed(mix, what, i, idx, h))
    down = _ll(X, _perturbed(mix, what, i, idx, -h))
    return (up - down) / (2 * h)


def _fixed_point(mix: MixtureParams, seed: int) -> tuple[np.ndarray, GaussianMixtureClustering]:
    """EM without regularisation run to a fixed point from the generating parameters,
    on 80 samples per component drawn from components 4 standard deviations apart
    (overlapping, yet EM converges in at most a few thousand iterations)."""
    sd = math.sqrt(max(float(np.max(np.linalg.eigvalsh(S))) for S in mix.covariances))
    k = mix.n_components
    spread = MixtureParams(np.full(k, 1.0 / k), np.zeros_like(mix.means)
                           + 4.0 * sd * np.arange(k)[:, None], mix.covariances)
    X = _data_from(spread, 80 * mix.n_components, seed)
    est = GaussianMixtureClustering(
        mix.n_components, reg_covar=0.0, tol=1e-13, max_iter=2000,
        weights_init=spread.weights, means_init=spread.means,
        covariances_init=spread.covariances, random_state=0)
    silenced(est.fit, X)
    assert est.converged_, "EM did not reach its fixed point within 2000 iterations"
    return X, est


def check_gradient(mix: MixtureParams, seed: int, what: str, gradients=analytic_gradients
                   ) -> None:
    """One coordinate of ``gradients`` against central differences of scipy's LL."""
    X = _data_from(mix, 25, seed)
    _, g_mu, g_sigma, g_alpha = gradients(X, mix)
    rng = np.random.default_rng(seed)
    i = int(rng.integers(mix.n_components))
    lam = float(np.min(np.linalg.eigvalsh(mix.covariances[i])))
    n = X.shape[1]
    if what == "mu":
        a = int(rng.integers(n))
        exact = g_mu[i][a]
        fd = finite_difference(X, mix, "mu", i, (a,), 1e-5 * math.sqrt(lam))
        size = float(np.max(np.abs(g_mu))) + 1.0 / math.sqrt(lam)
    elif what == "sigma":
        a, b = sorted(int(v) for v in rng.integers(n, size=2))
        exact = g_sigma[i][a, b] * (1 if a == b else 2)
        fd = finite_difference(X, mix, "sigma", i, (a, b), 1e-5 * lam)
        size = float(np.max(np.abs(g_sigma))) + 1.0 / lam
    else:
        exact = g_alpha[i]
        fd = finite_difference(X, mix, "alpha", i, (), 1e-5 * mix.weights[i])
        size = float(np.max(np.abs(g_alpha)))
    assert_close(fd, exact, FINITE_DIFFERENCE, scale=size,
                 label=f"|finite difference - analytic dLL/d{what}| / scale")


def _fixed_point_gradients(mix: MixtureParams, seed: int):
    """(m, lambda_min, dLL/dmu, dLL/dSigma, dLL/dalpha) at an EM fixed point."""
    Xf, est = _fixed_point(mix, seed)
    fitted = MixtureParams(est.weights_, est.means_, est.covariances_)
    _, g_mu, g_sigma, g_alpha = analytic_gradients(Xf, fitted)
    lam = float(min(np.min(np.linalg.eigvalsh(S)) for S in fitted.covariances))
    return Xf.shape[0], lam, g_mu, g_sigma, g_alpha


def _m_step_case(mix: MixtureParams, seed: int):
    X = _data_from(mix, 25, seed)
    model = GaussianMixtureEM(mix.n_components, reg_covar=0.0)
    stats_, _ = model.e_step(X, mix)
    return X, stats_.resp, model.m_step(X, stats_)


@claim(
    id="gmm.mu_7_22_7_23",
    source="003 §7.4.3 (7.22)-(7.23)",
    statement="dLL/dmu_i = Sigma_i^(-1) sum_j gamma_ji (x_j - mu_i), so dLL/dmu_i = 0 is "
    "(7.22) (Sigma_i^(-1) is invertible) and its solution for fixed gamma is (7.23), "
    "mu_i = sum_j gamma_ji x_j / sum_j gamma_ji: the analytic gradient equals central "
    "differences of scipy's LL, the M-step returns (7.23), and at an EM fixed point the "
    "gradient vanishes.",
    method=Method.PROPERTY,
    tags=("clustering", "gmm", "stationarity"),
)
@given(mix=mixtures(), seed=st.integers(0, 2**32 - 1))
def mu_7_22_7_23(mix, seed):
    check_gradient(mix, seed, "mu")
    X, gamma, new = _m_step_case(mix, seed)
    alive = gamma.sum(axis=0) > 0  # (7.23) is 0/0 where every gamma_ji underflows to 0
    assert_close(new.means[alive], (gamma.T @ X)[alive] / gamma.sum(axis=0)[alive, None],
                 LINEAR_ALGEBRA, scale=float(np.max(np.abs(X))), label="|M-step mu - (7.23)|")
    m, lam, g_mu, _, _ = _fixed_point_gradients(mix, seed)
    assert_leq(float(np.max(np.abs(g_mu))) * math.sqrt(lam) / m, STATIONARY,
               label="|dLL/dmu| sqrt(lambda_min) / m at the fixed point / 1e-5")


@claim(
    id="gmm.sigma_7_24",
    source="003 §7.4.3 (7.24)",
    statement="dLL/dSigma_i = 1/2 sum_j gamma_ji (Sigma_i^(-1)(x_j - mu_i)(x_j - mu_i)^T "
    "Sigma_i^(-1) - Sigma_i^(-1)), which vanishes exactly when Sigma_i = sum_j gamma_ji "
    "(x_j - mu_i)(x_j - mu_i)^T / sum_j gamma_ji (7.24): the analytic gradient equals "
    "central differences of scipy's LL, the M-step returns (7.24) with the new means, and "
    "at an EM fixed point the gradient vanishes.",
    method=Method.PROPERTY,
    tags=("clustering", "gmm", "stationarity"),
)
@given(mix=mixtures(), seed=st.integers(0, 2**32 - 1))
def sigma_7_24(mix, seed):
    check_gradient(mix, seed, "sigma")
    X, gamma, new = _m_step_case(mix, seed)
    for i in np.flatnonzero(gamma.sum(axis=0) > 0):  # (7.24) is 0/0 otherwise
        d = X - new.means[i]
        expect = (gamma[:, i] * d.T) @ d / gamma[:, i].sum()
        assert_close(new.covariances[i], expect, LINEAR_ALGEBRA,
                     scale=float(np.max(np.abs(expect))), label="|M-step Sigma - (7.24)|")
    m, lam, _, g_sigma, _ = _fixed_point_gradients(mix, seed)
    assert_leq(float(np.max(np.abs(g_sigma))) * lam / m, STATIONARY,
               label="|dLL/dSigma| lambda_min / m at the fixed point / 1e-5")


@claim(
    id="gmm.alpha_7_25_7_27",
    source="003 §7.4.3 (7.25)-(7.27)",
    statement="The derivative of the Lagrangian LL + lambda (sum_i alpha_i - 1) in alpha_i "
    "is sum_j p(x_j | mu_i, Sigma_i) / sum_l alpha_l p(x_j | mu_l, Sigma_l) + lambda "
    "(7.26) = sum_j gamma_ji / alpha_i + lambda; at a stationary point lambda = -m and "
    "alpha_i = (1/m) sum_j gamma_ji (7.27), which sums to 1: the analytic derivative "
    "equals central differences, the M-step returns (7.27), and at an EM fixed point "
    "dLL/dalpha_i = m for every i.",
    method=Method.PROPERTY,
    tags=("clustering", "gmm", "stationarity"),
)
@given(mix=mixtures(), seed=st.integers(0, 2**32 - 1))
def alpha_7_25_7_27(mix, seed):
    check_gradient(mix, seed, "alpha")
    X, gamma, new = _m_step_case(mix, seed)
    assert_close(new.weights, gamma.sum(axis=0) / X.shape[0], LINEAR_ALGEBRA,
                 label="|M-step alpha - (7.27)|")
    assert_close(new.weights.sum(), 1.0, LINEAR_ALGEBRA, label="|sum alpha - 1|")
    m, _, _, _, g_alpha = _fixed_point_gradients(mix, seed)
    assert_leq(float(np.max(np.abs(g_alpha - m))) / m, STATIONARY,
               label="|dLL/dalpha_i + lambda| / m at the fixed point (lambda = -m) / 1e-5")


# ---------------------------------------------------------------------------
# Reference: scikit-learn from the same initial parameters
# ---------------------------------------------------------------------------


@claim(
    id="gmm.reference",
    source="003 §7.4.3 Fig 9.6",
    statement="From the same initial weights, means and covariances, 20 EM iterations "
    "give the parameters of scikit-learn's GaussianMixture(covariance_type='full', "
    "reg_covar=1e-6, tol=0), on iris, wine and Gaussian blobs.",
    method=Method.REFERENCE,
    tags=("clustering", "gmm", "real-data"),
)
def reference(rng, scale):
    cases = [("iris", datasets.load_iris(return_X_y=True)[0], 3),
             ("wine", datasets.load_wine(return_X_y=True)[0][:, :6], 3)]
    C = rng.normal(scale=3.0, size=(4, 3))
    cases.append(("blobs", C[rng.integers(4, size=400)] + rng.normal(size=(400, 3)), 4))
    for name, X, k in cases:
        for _ in range(scale):
            n = X.shape[1]
            means = X[rng.choice(X.shape[0], size=k, replace=False)]
            covs = np.broadcast_to(np.cov(X.T) + 0.1 * np.eye(n), (k, n, n)).copy()
            weights = rng.dirichlet(np.ones(k) * 5)
            ours = silenced(GaussianMixtureClustering(
                k, reg_covar=1e-6, tol=0.0, max_iter=20, weights_init=weights,
                means_init=means, covariances_init=covs).fit, X)
            theirs = silenced(skm.GaussianMixture(
                k, covariance_type="full", reg_covar=1e-6, tol=0.0, max_iter=20,
                init_params="random_from_data", weights_init=weights, means_init=means,
                precisions_init=np.linalg.inv(covs), random_state=0).fit, X)
            size = float(np.max(np.abs(X)))
            evidence.note(f"{name}: k = {k}, {X.shape[0]} samples, 20 iterations")
            assert_close(ours.weights_, theirs.weights_, SAME_EM_RUN, label="|alpha - sklearn|")
            assert_close(ours.means_, theirs.means_, SAME_EM_RUN, scale=size,
                         label="|mu - sklearn| / max|x|")
            assert_close(ours.covariances_, theirs.covariances_, SAME_EM_RUN,
                         scale=float(np.max(np.abs(theirs.covariances_))),
                         label="|Sigma - sklearn| / max|Sigma|")
            assert_close(ours.score(X), theirs.score(X), SAME_EM_RUN,
                         label="|mean LL - sklearn|")
            evidence.add_examples()
