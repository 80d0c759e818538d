"""Claims of 003 §1.5 and 004 §3 (logistic and softmax regression): the sign of the
negative log-likelihood (1.20), its convexity (and the non-convex sigmoid), existence of
the optimum (1.21), monotone Newton/gradient iterations, the softmax parametrisations."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import scipy.linalg
import scipy.optimize
from hypothesis import example, given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp
from scipy.special import expit, softmax

from algorithms.linear import (
    CategoricalFamily,
    LogisticRegression,
    SoftmaxRegression,
    logistic_nll,
    logistic_nll_gradient,
    logistic_nll_hessian,
)
from mltheory import ErratumKind, Expect, Method, claim, evidence
from mltheory.numeric import EXACT_ARITHMETIC, LINEAR_ALGEBRA, Tolerance, assert_close, assert_leq
from mltheory.strategies import labelled_datasets, separable_datasets
from properties.linear.strategies import overlapping_classification_datasets
from properties.linear.support import (
    RECOMPUTED,
    VARIANCE_BOUND,
    WELL_DETERMINED,
    glm_log_likelihood,
    glm_score,
    newton_score_bound,
    quietly,
)

SMALL_INTS = st.integers(-3, 3).map(float)
#: Two fits of the same strictly convex problem, each stopped at a Newton decrement /
#: gradient tolerance of 1e-12 * N: coefficients agree to about sqrt(1e-12) relative to
#: the curvature; probabilities far better.
MLE_AGREEMENT = Tolerance(rtol=1e-4, atol=1e-5,
                          reason="two optimisers stopped at objective accuracy ~1e-12 N; "
                          "coefficient error ~ sqrt(tol / smallest Hessian eigenvalue)")


#: Gradient descent needs about cond(Hessian) * ln(1/tol) iterations: within this budget it
#: must converge whenever the Hessian at beta* has condition number <= GD_CONDITION.
GD_BUDGET = 20_000
GD_CONDITION = 200.0


@st.composite
def tiny_logistic_problems(draw):
    n = draw(st.integers(1, 4))
    d = draw(st.integers(1, 2))
    X = draw(hnp.arrays(np.float64, (n, d), elements=SMALL_INTS))
    y = draw(hnp.arrays(np.float64, n, elements=st.sampled_from([0.0, 1.0])))
    beta = draw(hnp.arrays(np.float64, d + 1, elements=SMALL_INTS))
    return np.hstack([X, np.ones((n, 1))]), y, beta


def log_likelihood_1_18(Xh: np.ndarray, y: np.ndarray, beta: np.ndarray) -> float:
    """(1.18) with (1.17) and (1.19): sum_i ln(y_i p_1 + (1 - y_i) p_0)."""
    z = Xh @ beta
    p1 = np.exp(z) / (1 + np.exp(z))
    p0 = 1 / (1 + np.exp(z))
    return float(np.sum(np.log(y * p1 + (1 - y) * p0)))


def nll_1_20(Xh: np.ndarray, y: np.ndarray, beta: np.ndarray) -> float:
    """(1.20) as printed: sum_i (-y_i beta^T x_i + ln(1 + e^{beta^T x_i}))."""
    z = Xh @ beta
    return float(np.sum(-y * z + np.log(1 + np.exp(z))))


@claim(
    id="linear.logit_nll_1_20_is_loglik",
    source="003 §1.5 (1.18)-(1.20)",
    statement="(1.20), l(beta) = sum_i (-y_i beta^T x_hat_i + ln(1 + e^{beta^T x_hat_i})), is "
    "the log-likelihood (1.18) sum_i ln p(y_i | x_i; w, b) rewritten.",
    method=Method.PROPERTY,
    tags=("linear", "logistic"),
    expect=Expect.REFUTED,
    kind=ErratumKind.SYMBOL,
    corrected_by="linear.logit_nll_1_20_negative_loglik",
    explanation="(1.20) is the negative of (1.18): every term ln(1 + e^z) - y z is >= 0 while "
    "the log-likelihood is <= 0. The note presents it as a rewrite of (1.18) under the same "
    "name l and then minimises it in (1.21); minimising is right only because of this "
    "unannounced sign flip.",
)
@given(problem=tiny_logistic_problems())
def logit_nll_1_20_is_loglik(problem):
    Xh, y, beta = problem
    assert_close(nll_1_20(Xh, y, beta), log_likelihood_1_18(Xh, y, beta), EXACT_ARITHMETIC,
                 label="(1.20) vs (1.18)")


@claim(
    id="linear.logit_nll_1_20_negative_loglik",
    source="003 §1.5 (1.18)-(1.21)",
    statement="(1.20) equals minus the log-likelihood (1.18), so beta* = argmin (1.20) is the "
    "maximum-likelihood estimate; the library's logistic_nll computes it stably.",
    method=Method.PROPERTY,
    tags=("linear", "logistic"),
)
@given(problem=tiny_logistic_problems())
def logit_nll_1_20_negative_loglik(problem):
    check_nll_is_negative_loglik(problem)


def check_nll_is_negative_loglik(problem, nll=logistic_nll) -> None:
    """(1.20) is -(1.18), and ``nll(beta, Xh, y)`` computes (1.20)."""
    Xh, y, beta = problem
    assert_close(nll_1_20(Xh, y, beta), -log_likelihood_1_18(Xh, y, beta), EXACT_ARITHMETIC,
                 label="(1.20) vs -(1.18)")
    assert_close(nll(beta, Xh, y), nll_1_20(Xh, y, beta), EXACT_ARITHMETIC,
                 label="logistic_nll vs (1.20)")


#: Scores of the stability claim: up to |z| = 1e3, where e^z overflows float64 (z > 709)
#: and ln(1 + e^z) computed naively loses every digit (z < -37) or becomes inf.
STABLE_SCORES = st.one_of(st.floats(-1e3, 1e3), st.sampled_from([-1e3, -745.0, -40.0, 36.0,
                                                                    710.0, 1e3]))
#: Terms of (1.20) are computed from a few correctly rounded library calls (logaddexp,
#: a product, a difference of non-negative parts that cannot cancel badly since
#: ln(1 + e^z) >= z): a few ulps each.
FEW_ULPS = Tolerance(rtol=8 * float(np.finfo(float).eps), atol=1e-300,
                     reason="a few correctly rounded operations per term, no cancellation")


#: Decimal digits of the reference: ln(1 + e^z) - z = ln(1 + e^-z) ~ e^-1000 ~ 1e-435 at
#: z = 1e3, so the literal difference needs about 435 + 17 digits to keep float64's.
EXACT_DIGITS = 500


def exact_term(z: float, y: float) -> float:
    """ln(1 + e^z) - y z, literally, in EXACT_DIGITS-digit arithmetic, rounded to float64."""
    import mpmath

    with mpmath.workdps(EXACT_DIGITS):
        zz = mpmath.mpf(z)
        return float(mpmath.log1p(mpmath.exp(zz)) - mpmath.mpf(y) * zz)


def exact_log_probabilities(z: float) -> list[float]:
    """[ln p(y=0|z), ln p(y=1|z)] = [-ln(1 + e^z), -ln(1 + e^-z)] in EXACT_DIGITS digits."""
    import mpmath

    with mpmath.workdps(EXACT_DIGITS):
        zz = mpmath.mpf(z)
        return [float(-mpmath.log1p(mpmath.exp(zz))), float(-mpmath.log1p(mpmath.exp(-zz)))]


def fixed_score_model(nll=logistic_nll):
    """A fitted LogisticRegression with w = 1, b = 0 on one feature: its decision score is
    the feature itself, so predict_log_proba is evaluated at exactly the drawn z."""
    model = LogisticRegression()
    model.coef_, model.intercept_ = np.array([1.0]), 0.0
    model.classes_, model.n_features_in_ = np.array([0, 1]), 1
    return model


def check_nll_stable(z: np.ndarray, y: np.ndarray, nll=logistic_nll,
                     model_factory=fixed_score_model) -> None:
    """Every term of ``nll`` (one sample at a time, score z) and the model's
    ``predict_log_proba`` at z match high-precision arithmetic to a few ulps."""
    for zi, yi in zip(z, y, strict=True):
        got = nll(np.array([1.0]), np.array([[zi]]), np.array([yi]))
        assert_close(got, exact_term(float(zi), float(yi)), FEW_ULPS,
                     label=f"(1.20) term at z = {zi!r}, y = {yi!r}")
    got = model_factory().predict_log_proba(z[:, None])
    exact = np.array([exact_log_probabilities(float(zi)) for zi in z])
    assert_close(got, exact, FEW_ULPS, label="predict_log_proba vs high-precision values")
    evidence.worst("largest |z|", float(np.max(np.abs(z))))


#: Strategies of the stability claim (shared with its teeth test).
STABLE_CASES = dict(z=hnp.arrays(np.float64, st.integers(1, 8), elements=STABLE_SCORES),
                    labels=st.lists(st.sampled_from([0.0, 1.0]), min_size=8, max_size=8))


@claim(
    id="linear.logistic_nll_stable_1_20",
    source="003 §1.5 (1.20); 004 §3.2",
    statement="The library evaluates (1.20) stably: each term ln(1 + e^z) - y z and the log "
    "class probabilities -ln(1 + e^{-+z}) agree with high-precision arithmetic to a few ulps for "
    "scores |z| up to 1e3, where e^z overflows and the literal formula returns inf or 0 "
    "(reference: the literal formula in 500-digit arithmetic).",
    method=Method.REFERENCE,
    tags=("linear", "logistic", "numerics"),
)
@given(**STABLE_CASES)
@example(z=np.array([-1e3, -40.0, 36.0, 710.0, 1e3]), labels=[0.0, 1.0, 0.0, 1.0, 0.0] + [0.0] * 3)
def logistic_nll_stable_1_20(z, labels):
    check_nll_stable(z, np.array(labels[: z.size]))


def check_jensen(f: Callable[[np.ndarray], float], a: np.ndarray, b: np.ndarray,
                 t: float) -> None:
    """f(t a + (1 - t) b) <= t f(a) + (1 - t) f(b)."""
    lhs = f(t * a + (1 - t) * b)
    rhs = t * f(a) + (1 - t) * f(b)
    assert_leq(lhs, rhs + 1e-12 * (abs(lhs) + abs(rhs)) + 1e-300,
               label="f(convex combination) / combination of f",
               context=f"a={np.asarray(a).tolist()}, b={np.asarray(b).tolist()}, t={t}: ")


@claim(
    id="linear.logistic_function_convex_3_1",
    source="004 §3.1 (3); 003 §1.10",
    statement="The logistic (log-odds) function f(z) = 1/(1 + e^{-z}) is a convex function, "
    "differentiable to any order.",
    method=Method.PROPERTY,
    tags=("linear", "logistic", "sigmoid"),
    expect=Expect.REFUTED,
    kind=ErratumKind.OVERCLAIM,
    corrected_by="linear.logit_nll_convex_1_20",
    explanation="The sigmoid is convex only on z <= 0 and concave on z >= 0 (f'' = f(1-f)(1-2f)); "
    "e.g. f(1) = 0.731 > (f(0) + f(2))/2 = 0.690. What is convex, and what makes gradient "
    "descent/Newton reliable, is the negative log-likelihood (1.20) as a function of beta.",
)
@given(a=st.floats(-10, 10), b=st.floats(-10, 10), t=st.floats(0, 1))
@example(a=0.0, b=2.0, t=0.5)
def logistic_function_convex_3_1(a, b, t):
    check_jensen(lambda v: float(expit(v)), np.float64(a), np.float64(b), t)


#: Strategies of the convexity claim (shared with its teeth test).
CONVEXITY_CASES = dict(data=labelled_datasets(max_samples=20),
                       betas=hnp.arrays(np.float64, (2, 5), elements=st.floats(-5, 5)),
                       t=st.floats(0, 1))


@claim(
    id="linear.logit_nll_convex_1_20",
    source="003 §1.5 (1.20)",
    statement="l(beta) of (1.20) is a continuous, infinitely differentiable convex function of "
    "beta: its Hessian sum_i x_hat_i x_hat_i^T p_1 (1 - p_1) is positive semi-definite and it "
    "lies below its chords.",
    method=Method.PROPERTY,
    tags=("linear", "logistic"),
)
@given(**CONVEXITY_CASES)
def logit_nll_convex_1_20(data, betas, t):
    check_nll_convex(data, betas, t)


def check_nll_convex(data, betas, t, hessian=logistic_nll_hessian) -> None:
    """``hessian(beta, Xh)`` (the Hessian of (1.20)) is PSD and (1.20) lies below its
    chords."""
    Xh = data.augmented()
    y = (data.y > 0).astype(float)
    p = Xh.shape[1]
    a, b = betas[0, :p], betas[1, :p]
    H = hessian(a, Xh)
    eig = np.linalg.eigvalsh(H)
    top = max(float(eig[-1]), 1e-300)
    assert_leq(-float(eig[0]) / top, 1e-12, label="-(smallest / largest Hessian eigenvalue)")
    check_jensen(lambda beta: logistic_nll(beta, Xh, y), a, b, t)


#: Strategies of the MLE claim (shared with its teeth test).
MLE_CASES = dict(data=overlapping_classification_datasets())


@claim(
    id="linear.logistic_mle_reached_1_21",
    source="003 §1.5 (1.20)-(1.21)",
    statement="When the optimum of the convex (1.20) exists (here: both classes overlap, so the "
    "data are not even weakly separable), gradient descent and Newton's method both reach "
    "beta* = argmin l(beta), the point where the gradient vanishes (compared with scipy BFGS; "
    "gradient descent within its budget when the Hessian is well conditioned, otherwise "
    "within the distance its gradient certifies).",
    method=Method.REFERENCE,
    tags=("linear", "logistic", "slow"),
)
@given(**MLE_CASES)
def logistic_mle_reached_1_21(data):
    check_mle_reached(data)


def library_newton(X, y) -> LogisticRegression:
    return quietly(LogisticRegression(solver="newton", tol=1e-14, max_iter=1000).fit, X, y)


def library_gd(X, y) -> LogisticRegression:
    return quietly(LogisticRegression(solver="gd", tol=1e-12, max_iter=GD_BUDGET).fit, X, y)


def check_mle_reached(data, newton_fit=library_newton, gd_fit=library_gd) -> None:
    """``newton_fit(X, y)`` reaches the MLE (vanishing gradient, BFGS's point and value) and
    ``gd_fit(X, y)`` is within the distance and excess objective its gradient certifies,
    converged within its budget when the Hessian is well conditioned."""
    Xh = data.augmented()
    y = data.y.astype(float)
    ref = scipy.optimize.minimize(logistic_nll, np.zeros(Xh.shape[1]), args=(Xh, y),
                                  jac=logistic_nll_gradient, method="BFGS",
                                  options={"gtol": 1e-10, "maxiter": 10_000})
    newton = newton_fit(data.X, data.y)
    n = Xh.shape[0]
    if not newton.converged_ or newton.separable_:
        raise AssertionError("Newton did not converge on data with a finite MLE")
    beta_newton = np.append(newton.coef_, newton.intercept_)
    # the gradient sum_i x_i (p_i - y_i) vanishes relative to the size of its terms
    term_size = np.abs(Xh).sum(axis=0)
    assert_leq(float(np.max(np.abs(logistic_nll_gradient(beta_newton, Xh, y)) / term_size)),
               1e-7, label="|gradient_j| / sum_i |x_ij| at Newton's beta")
    assert_close(beta_newton, ref.x, MLE_AGREEMENT, label="newton vs BFGS")
    assert_leq(logistic_nll(beta_newton, Xh, y), logistic_nll(ref.x, Xh, y) + 1e-9 * n,
               label="l(newton) / l(BFGS)")
    # gradient descent stops earlier along flat directions: near the optimum strong convexity
    # (modulus lambda_min of the Hessian at beta*) bounds its distance, ||beta - beta*|| <=
    # ||grad|| / lambda_min, and its excess objective, <= ||grad||^2 / (2 lambda_min);
    # a factor 2 absorbs the Hessian's variation over that small neighbourhood.
    gd = gd_fit(data.X, data.y)
    beta_gd = np.append(gd.coef_, gd.intercept_)
    lam_min = float(np.linalg.eigvalsh(logistic_nll_hessian(beta_newton, Xh))[0])
    g_norm = float(np.linalg.norm(logistic_nll_gradient(beta_gd, Xh, y)))
    assert_leq(logistic_nll(beta_gd, Xh, y), logistic_nll(ref.x, Xh, y) + g_norm**2 / lam_min
               + 1e-12 * n, label="l(gd) / (l(BFGS) + ||grad||^2 / lambda_min)")
    bound = 2 * g_norm / lam_min
    kappa = float(np.linalg.cond(logistic_nll_hessian(beta_newton, Xh)))
    evidence.worst("Hessian condition number at beta*", kappa)
    if kappa <= GD_CONDITION and not gd.converged_:
        raise AssertionError(f"gradient descent did not converge in {GD_BUDGET} iterations on a "
                             f"problem with Hessian condition number {kappa:.3g}")
    assert_leq(float(np.linalg.norm(beta_gd - beta_newton)), bound + 1e-9 * (
        1 + float(np.linalg.norm(beta_newton))), label="||beta_gd - beta*|| / (2 ||grad|| / "
               "lambda_min)")
    evidence.worst("max |beta*|", float(np.max(np.abs(ref.x))))


@claim(
    id="linear.logit_minimiser_exists_1_21",
    source="003 §1.5 (1.20)-(1.21)",
    statement="Because (1.20) is convex and smooth, beta* = argmin l(beta) exists and gradient "
    "descent or Newton's method finds it.",
    method=Method.PROPERTY,
    tags=("linear", "logistic"),
    expect=Expect.REFUTED,
    kind=ErratumKind.MISSING_CONDITION,
    corrected_by="linear.logistic_mle_reached_1_21",
    explanation="Convexity does not give existence: on linearly separable data l(beta) > 0 for "
    "every beta but l(t beta_sep) -> 0 as t -> infinity, so the infimum is not attained and "
    "no beta* exists (the iterates diverge). The optimum exists when the classes overlap; the "
    "library detects separation and warns (use an L2 penalty for a finite solution).",
)
@given(data=separable_datasets(max_samples=15))
def logit_minimiser_exists_1_21(data):
    Xh = data.augmented()
    y = (data.y > 0).astype(float)
    model = quietly(LogisticRegression().fit, data.X, y)
    candidate = np.append(model.coef_, model.intercept_)
    # any separating direction lowers every term of (1.20): a strictly better point
    probe = candidate + data.separator / data.margin
    assert_leq(logistic_nll(candidate, Xh, y), logistic_nll(probe, Xh, y),
               label="l(candidate minimiser) / l(candidate + separating direction)",
               context=f"separable data (margin {data.margin:.3g}): ")


def newton_fit(X, y, lam: float = 0.0) -> LogisticRegression:
    return quietly(LogisticRegression(solver="newton", lam=lam).fit, X, y)


def gd_fit(X, y, lam: float = 0.0) -> LogisticRegression:
    return quietly(LogisticRegression(solver="gd", lam=lam, max_iter=300).fit, X, y)


def check_monotone_likelihood(data, lam: float, fit: Callable) -> None:
    """``fit(X, y, lam)`` records iterates ``coef_history_`` whose log-likelihood and
    penalised objective, recomputed independently, equal the recorded
    ``log_likelihood_history_`` and ``objective_history_`` and never get worse."""
    y = (data.y > 0).astype(int)
    model = fit(data.X, y, lam)
    Xh = data.augmented()
    iterates = np.asarray(model.coef_history_)
    ll = np.array([glm_log_likelihood("bernoulli", Xh, B, y) for B in iterates])
    penalty = np.array([0.5 * lam * float(np.sum(B[:-1] ** 2)) if lam > 0 else 0.0
                        for B in iterates])
    assert_close(np.asarray(model.log_likelihood_history_), ll, RECOMPUTED,
                 label="recorded vs recomputed log-likelihoods")
    assert_close(np.asarray(model.objective_history_), penalty - ll, RECOMPUTED,
                 label="recorded vs recomputed penalised objective")
    objective = penalty - ll
    rise = float(np.max(np.diff(objective), initial=0.0))
    assert_leq(rise, 1e-12 * (abs(objective[0]) + 1.0),
               label="largest increase of the recomputed objective")


@claim(
    id="linear.logistic_iterations_monotone_1_21",
    source="003 §1.5 (1.21); 004 §3.2 (3)",
    statement="Gradient descent on (1.20) with step 1/L (L = s_max(X_hat)^2 / 4, the Lipschitz "
    "constant of the gradient; + lam with an L2 penalty) and Newton's method with backtracking "
    "never decrease the (penalised) log-likelihood, recomputed at the iterates the solvers "
    "record.",
    method=Method.PROPERTY,
    tags=("linear", "logistic"),
)
@given(data=st.one_of(labelled_datasets(max_samples=20), separable_datasets(max_samples=20)),
       lam=st.sampled_from([0.0, 0.5, 5.0]))
def logistic_iterations_monotone_1_21(data, lam):
    check_monotone_likelihood(data, lam, newton_fit)
    check_monotone_likelihood(data, lam, gd_fit)


# ------------------------------------------------------------------ overshooting Newton steps


def stable_nll(Xh: np.ndarray, y: np.ndarray, beta: np.ndarray) -> float:
    """(1.20) with ln(1 + e^z) evaluated as logaddexp(0, z) (no overflow far from 0)."""
    z = Xh @ beta
    return float(np.sum(np.logaddexp(0.0, z) - y * z))


def full_newton_rise(Xh: np.ndarray, y: np.ndarray, beta: np.ndarray
                     ) -> tuple[float, float] | None:
    """``(l(beta - H^-1 g) - l(beta), g^T H^-1 g)`` for (1.20) at ``beta``: the change of
    the objective over one full Newton step and the decrement, from the gradient
    X^T (p - y) and Hessian X^T diag(p (1 - p)) X computed here; None if H is not
    numerically positive definite."""
    p = expit(Xh @ beta)
    g = Xh.T @ (p - y)
    H = (Xh * (p * (1.0 - p))[:, None]).T @ Xh
    try:
        factor = scipy.linalg.cho_factor(H)
    except np.linalg.LinAlgError:
        return None
    step = scipy.linalg.cho_solve(factor, g)
    decrement = float(g @ step)
    if not (np.all(np.isfinite(step)) and decrement > 0):
        return None
    return stable_nll(Xh, y, beta - step) - stable_nll(Xh, y, beta), decrement


#: The window of the full step's relative rise sought: positive (a step the halving must
#: refuse) and far below any Armijo-type allowance (1e-4 of the decrement), yet far above
#: the rounding of the objective.
RISE_WINDOW = (1e-9, 1e-6)


def overshooting_start(Xh: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, float] | None:
    """A start ``s v`` (``v`` the ascent direction of (1.20) at 0, scaled to max |v_j| = 1)
    where the full Newton step raises the objective by a fraction of the decrement inside
    RISE_WINDOW: a bracket on ``s`` in [0, 2^10] between a start whose full step does not
    overshoot and one whose step overshoots by more, then bisection (the rise is continuous
    in ``s``). Returns the start and the relative rise, or None without such a bracket."""
    v = Xh.T @ (0.5 - y)
    if not np.any(v):
        return None
    v = v / np.max(np.abs(v))
    low, high = RISE_WINDOW

    def relative_rise(s: float) -> float | None:
        found = full_newton_rise(Xh, y, s * v)
        return None if found is None else found[0] / found[1]

    grid = [0.0] + [2.0**k for k in range(-4, 11)]
    for below, above in zip(grid, grid[1:], strict=False):
        r_below, r_above = relative_rise(below), relative_rise(above)
        if r_below is None or r_above is None or not (r_below < low and r_above > 0):
            continue
        a, b = below, above
        for _ in range(200):
            if r_above is not None and low <= r_above <= high:
                return b * v, r_above
            mid = 0.5 * (a + b)
            r_mid = relative_rise(mid)
            if r_mid is None:
                break
            if r_mid < low:
                a = mid
            else:
                b, r_above = mid, r_mid
    return None


def warm_newton_fits(X: np.ndarray, y: np.ndarray, start: np.ndarray):
    """Newton from ``start`` (bias last, the log-odds of class 1) by LogisticRegression and
    by the reference SoftmaxRegression (K = 2: the log-odds of class 0 against the
    reference class 1, i.e. ``-start``); each with the family and targets its recorded
    iterates are read with."""
    d = X.shape[1]
    logistic = quietly(LogisticRegression(solver="newton").fit, X, y,
                       coef_init=start[:d], intercept_init=start[d])
    softmax_fit = quietly(SoftmaxRegression(parametrisation="reference").fit, X, y,
                          coef_init=-start[None, :d], intercept_init=-start[d:])
    return [("LogisticRegression", logistic, "bernoulli", y.astype(float)),
            ("SoftmaxRegression(reference)", softmax_fit, "categorical", y.astype(int))]


def check_overshooting_start(data, fits: Callable = warm_newton_fits) -> None:
    """From a start where the full Newton step raises (1.20) slightly, the step-halving
    Newton fits record iterates, beginning at the start, whose recomputed objective never
    rises."""
    Xh = data.augmented()
    y = data.y.astype(float)
    found = overshooting_start(Xh, y)
    if found is None:
        start = Xh.T @ (0.5 - y)
        start = start / max(float(np.max(np.abs(start))), 1.0)
        evidence.record("starts", "no overshooting bracket: the ascent direction itself")
    else:
        start, rise = found
        evidence.worst("full step's rise / decrement at the start", rise)
    for name, model, family, target in fits(data.X, data.y, start):
        iterates = np.asarray(model.coef_history_)
        first = start[:, None] if family == "bernoulli" else -start[:, None]
        assert_close(iterates[0], first, EXACT_ARITHMETIC, label=f"{name}: first iterate")
        objective = -np.array([glm_log_likelihood(family, Xh, B, target) for B in iterates])
        assert_close(-np.asarray(model.log_likelihood_history_), objective, RECOMPUTED,
                     label=f"{name}: recorded vs recomputed objective")
        rise = float(np.max(np.diff(objective), initial=0.0))
        assert_leq(rise, 1e-12 * (abs(objective[0]) + 1.0),
                   label=f"{name}: largest increase of the recomputed objective")


@claim(
    id="linear.newton_overshooting_start_1_21",
    source="003 §1.5 (1.20)-(1.21); 004 §3.2 (3), §3.3",
    statement="Newton's method on the convex (1.20) with step halving never decreases the "
    "log-likelihood, also from a start where the full Newton step overshoots and raises "
    "(1.20) by a tiny fraction of the decrement: such a step is halved, not taken (binary "
    "logistic and the reference softmax with K = 2).",
    method=Method.PROPERTY,
    tags=("linear", "logistic"),
)
@given(data=overlapping_classification_datasets(max_free_samples=15, max_features=3))
def newton_overshooting_start_1_21(data):
    check_overshooting_start(data)


def check_step_limit(z: float, s: float, bound: Callable[[float], float]) -> None:
    step = 0.0 if z < 0 else (1.0 if z > 0 else 0.5)
    gap = abs(float(expit(s * z)) - step)
    assert_leq(gap, bound(s * abs(z)) + 1e-300, label="|f(s z) - step(z)| / bound")


@claim(
    id="linear.logit_step_function_limit_3_1",
    source="004 §3.1 (1)",
    statement="The logistic function replaces the unit step (0 for z < 0, 1/2 at 0, 1 for z > 0): "
    "f(s z) tends to the step as the slope s grows, with |f(s z) - step(z)| <= e^{-s |z|}.",
    method=Method.PROPERTY,
    tags=("linear", "logistic", "sigmoid", "bound"),
)
@given(z=st.floats(-20, 20), s=st.floats(0, 1e3))
@example(z=20.0, s=30.0)  # s |z| = 600: 1/(1 + e^600) = e^-600 (1 - e^-600), the bound attained
def logit_step_function_limit_3_1(z, s):
    check_step_limit(z, s, lambda a: float(np.exp(-a)))


# ------------------------------------------------------------------ softmax (004 §3.3)


#: Strategies of the reference-form softmax claim (shared with its teeth test).
REFERENCE_SCORES = dict(K=st.integers(2, 5),
                        scores=hnp.arrays(np.float64, (6, 4), elements=st.floats(-30, 30)))


@claim(
    id="linear.softmax_reference_probabilities_3_3",
    source="004 §3.3; 004 §2.3.3 (2)",
    statement="p(y=k|x) = exp(w_k.x)/(1 + sum_{j<K} exp(w_j.x)) for k < K and "
    "p(y=K|x) = 1/(1 + sum_{j<K} exp(w_j.x)) are positive, sum to one, have log-ratio "
    "ln(p_k / p_K) = w_k.x, and for K = 2 reduce to binary logistic regression.",
    method=Method.PROPERTY,
    tags=("linear", "softmax"),
)
@given(**REFERENCE_SCORES)
def softmax_reference_probabilities_3_3(K, scores):
    check_reference_probabilities(scores[:, : K - 1])


def note_reference_probabilities(eta: np.ndarray) -> np.ndarray:
    """004 §3.3's formulas, literally: e^{eta_k} / (1 + sum_j e^{eta_j}), 1 / (1 + ...)."""
    denom = 1 + np.exp(eta).sum(axis=1, keepdims=True)
    return np.hstack([np.exp(eta) / denom, 1 / denom])


def library_reference_probabilities(eta: np.ndarray) -> np.ndarray:
    return CategoricalFamily(eta.shape[1] + 1).probabilities(eta)


def check_reference_probabilities(eta: np.ndarray, formula=note_reference_probabilities,
                                  probabilities=library_reference_probabilities) -> None:
    """``probabilities(eta)`` (K-1 scores against reference class K) equals ``formula(eta)``,
    is positive, sums to one, has log-ratios eta and for K = 2 is the logistic function."""
    K = eta.shape[1] + 1
    note = formula(eta)
    ours = probabilities(eta)
    assert_close(ours, note, LINEAR_ALGEBRA, label="log-sum-exp implementation vs formulas")
    if np.any(ours <= 0):
        raise AssertionError("a class probability is not positive")
    assert_close(ours.sum(axis=1), np.ones(eta.shape[0]), EXACT_ARITHMETIC, label="sum to one")
    assert_close(np.log(ours[:, :-1]) - np.log(ours[:, -1:]), eta, LINEAR_ALGEBRA,
                 label="ln(p_k/p_K) vs w_k.x")
    if K == 2:
        assert_close(ours[:, 0], expit(eta[:, 0]), LINEAR_ALGEBRA, label="K = 2 vs logistic")


#: Strategies of the shift-invariance claim (shared with its teeth test).
SHIFT_CASES = dict(
    K=st.integers(2, 5),
    scores=hnp.arrays(np.float64, (5, 5), elements=st.floats(-30, 30)),
    shift=st.one_of(st.floats(-1e4, 1e4), st.sampled_from([800.0, -800.0, 1e4])),
)


@claim(
    id="linear.softmax_shift_invariance_3_3",
    source="004 §3.3; 004 §2.3.3",
    statement="Softmax probabilities are unchanged by adding the same score to every class, so "
    "the symmetric K-vector parametrisation maps to the reference one by subtracting w_K "
    "(and the log-sum-exp evaluation stays finite when e^score overflows).",
    method=Method.PROPERTY,
    tags=("linear", "softmax"),
)
@given(**SHIFT_CASES)
def softmax_shift_invariance_3_3(K, scores, shift):
    check_shift_invariance(scores[:, :K], shift)


def symmetric_model_probabilities(scores: np.ndarray) -> np.ndarray:
    """The estimator's own path (log-sum-exp): a symmetric SoftmaxRegression whose K
    intercepts are ``scores`` (one row), evaluated at x = 0."""
    K = scores.size
    model = SoftmaxRegression(parametrisation="symmetric")
    model.coef_ = np.zeros((K, 1))
    model.intercept_ = scores
    model.classes_, model.reference_class_, model.n_features_in_ = np.arange(K), None, 1
    return model.predict_proba(np.zeros((1, 1)))[0]


def check_shift_invariance(Z: np.ndarray, shift: float,
                           probabilities=lambda S: softmax(S, axis=1),
                           model_path=symmetric_model_probabilities) -> None:
    """``probabilities(Z + shift)`` and ``model_path((Z + shift)[0])`` equal the reference
    form with scores Z[:, :-1] - Z[:, -1:] (the symmetric parametrisation mapped by
    subtracting w_K)."""
    K = Z.shape[1]
    fam = CategoricalFamily(K)
    reference = fam.probabilities(Z[:, :-1] - Z[:, -1:])
    shifted = Z + shift  # |shift| <= 1e4 keeps the score differences to ~1e-12
    assert_close(probabilities(shifted), reference, LINEAR_ALGEBRA,
                 label="softmax(z + c) vs reference form")
    # the estimator's own path (log-sum-exp) on scores whose exponentials overflow
    probs = model_path(shifted[0])
    assert_close(probs, reference[0], LINEAR_ALGEBRA, label="fitted-model path vs reference")


#: Strategies of the fitted reference-model claim (shared with its teeth test).
REFERENCE_FIT_CASES = dict(data=overlapping_classification_datasets(min_classes=2, max_classes=4))


def library_reference_softmax_fit(X, y) -> SoftmaxRegression:
    return quietly(SoftmaxRegression(parametrisation="reference").fit, X, y)


def check_reference_fit(data, fit=library_reference_softmax_fit) -> None:
    """``fit(X, y)``, the maximum-likelihood softmax model in the reference
    parametrisation, holds K-1 weight vectors and intercepts (reference class
    ``classes_[-1]``, the last, scores 0), and its probabilities have the log-ratios
    ln(p_k / p_K) = w_k.x + b_k of 004 §3.3."""
    model = fit(data.X, data.y)
    K, d = model.classes_.size, data.X.shape[1]
    coef, intercept = np.atleast_2d(model.coef_), np.atleast_1d(model.intercept_)
    if coef.shape != (K - 1, d) or intercept.shape != (K - 1,):
        raise AssertionError(f"K = {K} classes, d = {d} features: reference parametrisation "
                             f"with coef_ {coef.shape} and intercept_ {intercept.shape}, "
                             f"expected ({K - 1}, {d}) and ({K - 1},)")
    if model.reference_class_ != model.classes_[-1]:
        raise AssertionError(f"reference class {model.reference_class_!r}, expected the last "
                             f"class {model.classes_[-1]!r}")
    P = model.predict_proba(data.X)
    assert_close(np.log(P[:, :-1]) - np.log(P[:, -1:]), data.X @ coef.T + intercept,
                 LINEAR_ALGEBRA, label="ln(p_k / p_K) vs w_k.x + b_k")


@claim(
    id="linear.softmax_reference_fit_3_3",
    source="004 §3.3",
    statement="The maximum-likelihood softmax model in the reference parametrisation has K-1 "
    "weight vectors w_k (with intercepts b_k), one per class k < K, and the fitted "
    "probabilities satisfy ln(p(y=k|x) / p(y=K|x)) = w_k.x + b_k against the last class K.",
    method=Method.PROPERTY,
    tags=("linear", "softmax"),
)
@given(**REFERENCE_FIT_CASES)
def softmax_reference_fit_3_3(data):
    check_reference_fit(data)


#: Strategies of the parametrisation claim (shared with its teeth test).
PARAMETRISATION_CASES = dict(data=overlapping_classification_datasets(
    min_classes=2, max_classes=4, max_free_samples=25, near_collinear=True))


@claim(
    id="linear.softmax_mle_parametrisations_agree_3_3",
    source="004 §3.3",
    statement="The maximum-likelihood softmax model is the same whether parametrised by K-1 "
    "vectors against reference class K (Newton) or by K symmetric vectors (L-BFGS): equal "
    "probabilities, also equal to scikit-learn's multinomial model; for K = 2 it is "
    "binary logistic regression.",
    method=Method.REFERENCE,
    tags=("linear", "softmax", "slow"),
)
@given(**PARAMETRISATION_CASES)
def softmax_mle_parametrisations_agree_3_3(data):
    check_parametrisations_agree(data)


def library_reference_softmax(X, y) -> SoftmaxRegression:
    return quietly(SoftmaxRegression(parametrisation="reference").fit, X, y)


def library_symmetric_softmax(X, y) -> SoftmaxRegression:
    return quietly(SoftmaxRegression(parametrisation="symmetric", max_iter=5000).fit, X, y)


def reference_coefficients(fit) -> np.ndarray:
    """``B`` (p, K-1) of a fitted softmax model in the parametrisation against the last
    class (bias row last): the K symmetric vectors minus the last; a binary one-score
    model (scikit-learn's log-odds of classes_[1]) negated."""
    W = np.vstack([np.atleast_2d(fit.coef_).T, np.atleast_1d(fit.intercept_)[None, :]])
    if getattr(fit, "reference_class_", None) is not None:
        return W
    if W.shape[1] == 1:
        return -W
    return W[:, :-1] - W[:, -1:]


def check_parametrisations_agree(data, reference_fit=library_reference_softmax,
                                 symmetric_fit=library_symmetric_softmax) -> None:
    """The fitted models ``reference_fit(X, y)`` and ``symmetric_fit(X, y)`` (each with
    ``converged_`` and ``predict_proba``) give the same probabilities, also equal to
    scikit-learn's multinomial MLE and, for K = 2, to binary logistic regression."""
    import sklearn.linear_model

    ref = reference_fit(data.X, data.y)
    sym = symmetric_fit(data.X, data.y)
    if not (ref.converged_ and sym.converged_):
        raise AssertionError("a parametrisation did not converge on data with a finite MLE")
    Xh = data.augmented()
    codes = np.searchsorted(ref.classes_, data.y)
    skl = quietly(sklearn.linear_model.LogisticRegression(C=np.inf, tol=1e-12,
                                                          max_iter=10_000).fit, data.X, data.y)
    fits = {"reference": ref, "symmetric": sym, "scikit-learn": skl}
    B = {name: reference_coefficients(fit) for name, fit in fits.items()}
    for name in ("reference", "symmetric"):  # optimality certificates, written independently
        score, size = glm_score("categorical", Xh, B[name], codes)
        allowed = newton_score_bound(Xh, VARIANCE_BOUND["categorical"]) + 1e-9 * size
        assert_leq(float(np.max(np.abs(score) / allowed)), 1.0,
                   label=f"|score| / what the decrement test allows, {name} fit")
    ll = {name: glm_log_likelihood("categorical", Xh, b, codes) for name, b in B.items()}
    for name in ("symmetric", "scikit-learn"):
        assert_leq(ll[name], ll["reference"] + 1e-9 * (abs(ll["reference"]) + Xh.shape[0]),
                   label=f"log-likelihood of the {name} fit / the reference fit's")
    condition = float(np.linalg.cond(Xh))
    evidence.worst("condition number of the design", condition)
    p_ref = ref.predict_proba(data.X)
    if condition <= WELL_DETERMINED:  # the maximiser's probabilities are well determined
        assert_close(sym.predict_proba(data.X), p_ref, MLE_AGREEMENT,
                     label="symmetric vs reference")
        assert_close(skl.predict_proba(data.X), p_ref, MLE_AGREEMENT,
                     label="sklearn vs reference")
    if data.n_classes == 2:
        lr = quietly(LogisticRegression().fit, data.X, data.y)
        assert_close(lr.predict_proba(data.X), p_ref, MLE_AGREEMENT, label="K = 2 vs logistic")
