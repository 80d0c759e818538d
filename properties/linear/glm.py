"""Claims of 004 §2 (generalised linear models): the Gaussian, Bernoulli and categorical GLMs
with canonical links are OLS, logistic and softmax regression, and Newton/IRLS never
decreases the likelihood and ends at the score equations."""

from __future__ import annotations

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from algorithms.linear import (
    GeneralizedLinearModel,
    LinearRegression,
    add_bias_column,
)
from mltheory import Method, claim, evidence
from mltheory.numeric import (
    EXACT_ARITHMETIC,
    LINEAR_ALGEBRA,
    Tolerance,
    assert_close,
    assert_leq,
)
from mltheory.strategies import labelled_datasets
from properties.linear.strategies import overlapping_classification_datasets, regression_datasets
from properties.linear.support import (
    RECOMPUTED,
    VARIANCE_BOUND,
    WELL_DETERMINED,
    glm_log_likelihood,
    glm_score,
    least_squares_tolerance,
    newton_score_bound,
    no_finite_mle,
    quietly,
)

#: Our Newton fit (decrement <= 1e-10 N, then one more full step) against scikit-learn's
#: L-BFGS stopped at gradient 1e-12: probabilities agree to about sqrt(tol / curvature).
REFERENCE_MLE = Tolerance(rtol=1e-4, atol=1e-5,
                          reason="Newton vs scikit-learn L-BFGS on the same likelihood, each "
                          "stopped near 1e-12 N in objective; error ~ sqrt(tol / curvature)")
#: Rounding of a score X_hat^T (T - mu) relative to the sum of its terms' magnitudes.
SCORE_ROUNDING = 1e-9


def library_glm(X, y, **params) -> GeneralizedLinearModel:
    """The library's GLM fitted with ``params`` (warnings silenced; checks read the flags)."""
    return quietly(GeneralizedLinearModel(**params).fit, X, y)


def check_gaussian_is_ols(data, sigma: float, fit_glm=library_glm) -> None:
    """``fit_glm(X, y, family="gaussian", sigma=sigma)`` predicts like OLS and its natural
    weights are the OLS weights divided by sigma^2."""
    glm = fit_glm(data.X, data.y, family="gaussian", sigma=sigma)
    ols = quietly(LinearRegression().fit, data.X, data.y)
    tol = least_squares_tolerance(data.condition)
    assert_close(glm.predict(data.X), ols.predict(data.X), tol, label="GLM vs OLS predictions")
    assert_close(glm.coef_[0] * sigma**2, ols.coef_, tol, label="sigma^2 * natural weights vs OLS")


def check_mle_certificate(family: str, Xh: np.ndarray, B: np.ndarray, target: np.ndarray,
                          label: str) -> None:
    """The score of the independently written log-likelihood vanishes at ``B`` relative to
    the size of its terms (an optimality certificate of the concave likelihood)."""
    score, size = glm_score(family, Xh, B, target)
    allowed = newton_score_bound(Xh, VARIANCE_BOUND[family]) + SCORE_ROUNDING * size
    assert_leq(float(np.max(np.abs(score) / allowed)), 1.0,
               label=f"|score| / what the decrement test allows, at {label}")


def glm_coefficients(glm) -> np.ndarray:
    """``B`` (p, q) of a fitted GLM: the weights, then the intercepts as the last row."""
    return np.vstack([glm.coef_.T, np.atleast_1d(glm.intercept_)[None, :]])


def check_against_sklearn(data, glm, family: str, target: np.ndarray) -> None:
    """A converged class-response GLM is the MLE: its independent score vanishes, no
    scikit-learn unpenalised fit reaches a higher likelihood, and on designs of moderate
    condition (where the maximiser is well determined) the probabilities agree."""
    import sklearn.linear_model

    Xh = data.augmented()
    B = glm_coefficients(glm)
    check_mle_certificate(family, Xh, B, target, f"the {family} GLM")
    skl = quietly(sklearn.linear_model.LogisticRegression(penalty=None, tol=1e-12,
                                                          max_iter=10_000).fit, data.X, data.y)
    if skl.coef_.shape[0] == 1:  # two classes: one score, log-odds of classes_[1]
        B_skl = np.append(skl.coef_[0], skl.intercept_[0])[:, None]
        B_skl = B_skl if family == "bernoulli" else -B_skl  # reference class is classes_[1]
    else:  # scikit-learn's K symmetric vectors, mapped to the reference class K
        W = np.vstack([skl.coef_.T, skl.intercept_[None, :]])
        B_skl = W[:, :-1] - W[:, -1:]
    ours = glm_log_likelihood(family, Xh, B, target)
    theirs = glm_log_likelihood(family, Xh, B_skl, target)
    assert_leq(theirs, ours + 1e-9 * (abs(ours) + Xh.shape[0]),
               label="scikit-learn's log-likelihood / the GLM's")
    condition = float(np.linalg.cond(Xh))
    evidence.worst("condition number of the design", condition)
    if condition <= WELL_DETERMINED:
        assert_close(glm.predict_proba(data.X), skl.predict_proba(data.X), REFERENCE_MLE,
                     label=f"GLM vs scikit-learn {family} probabilities")


def check_bernoulli_is_logistic(data, fit_glm=library_glm) -> None:
    """``fit_glm(X, y, family="bernoulli")`` has phi = sigmoid(eta), its weights meet the
    score equations of an independently written Bernoulli likelihood, and its
    probabilities are scikit-learn's unpenalised logistic regression's."""
    glm = fit_glm(data.X, data.y, family="bernoulli")
    eta = data.X @ glm.coef_[0] + glm.intercept_[0]
    assert_close(glm.predict_proba(data.X)[:, 1], 1 / (1 + np.exp(-eta)), LINEAR_ALGEBRA,
                 label="phi vs 1/(1 + exp(-w^T x))")
    if not glm.converged_:
        raise AssertionError("the Bernoulli GLM did not converge on data with a finite MLE")
    check_against_sklearn(data, glm, "bernoulli", (data.y == glm.classes_[1]).astype(float))


def check_categorical_is_softmax(data, fit_glm=library_glm) -> None:
    """``fit_glm(X, y, family="categorical")`` has eta_i = ln(phi_i / phi_K), meets the
    score equations of an independently written softmax likelihood, and has scikit-learn's
    multinomial MLE's probabilities."""
    glm = fit_glm(data.X, data.y, family="categorical")
    probs = glm.predict_proba(data.X)
    assert_close(np.log(probs[:, :-1]) - np.log(probs[:, -1:]), glm.natural_parameter(data.X),
                 LINEAR_ALGEBRA, label="ln(phi_i / phi_K) vs eta_i")
    if not glm.converged_:
        raise AssertionError("the categorical GLM did not converge on data with a finite MLE")
    check_against_sklearn(data, glm, "categorical", np.searchsorted(glm.classes_, data.y))


@claim(
    id="linear.glm_gaussian_is_ols_2_3_1",
    source="004 §2.3.1; 003 §1.4 (1.13)",
    statement="The Gaussian GLM (T(y) = y, eta = mu / sigma^2 = w^T x) is linear regression: its "
    "maximum-likelihood fit gives the least-squares predictions for every sigma, with natural "
    "weights equal to the OLS weights divided by sigma^2.",
    method=Method.REFERENCE,
    tags=("linear", "glm"),
)
@given(data=regression_datasets(), sigma=st.sampled_from([0.25, 1.0, 3.0]))
def glm_gaussian_is_ols_2_3_1(data, sigma):
    check_gaussian_is_ols(data, sigma)


@claim(
    id="linear.glm_bernoulli_is_logistic_2_3_2",
    source="004 §2.3.2 (2)",
    statement="The Bernoulli GLM with eta = w^T x has phi = 1/(1 + exp(-w^T x)): it is logistic "
    "regression (same maximum-likelihood weights and probabilities).",
    method=Method.REFERENCE,
    tags=("linear", "glm", "logistic"),
)
@given(data=overlapping_classification_datasets(near_collinear=True))
def glm_bernoulli_is_logistic_2_3_2(data):
    check_bernoulli_is_logistic(data)


@claim(
    id="linear.glm_categorical_is_softmax_2_3_3",
    source="004 §2.3.3; 004 §3.3",
    statement="The categorical GLM with eta_i = ln(phi_i / phi_K) = w_i^T x (i < K) is the "
    "softmax regression of 004 §3.3: the fitted natural parameters are the log-ratios of the "
    "predicted probabilities and the probabilities equal the softmax fit's.",
    method=Method.REFERENCE,
    tags=("linear", "glm", "softmax"),
)
@given(data=overlapping_classification_datasets(min_classes=2, max_classes=4,
                                                max_free_samples=20, near_collinear=True))
def glm_categorical_is_softmax_2_3_3(data):
    check_categorical_is_softmax(data)


#: Strategies of the Newton/IRLS claim (shared with its teeth test).
NEWTON_CASES = dict(
    data=labelled_datasets(max_samples=25),
    family=st.sampled_from(["gaussian", "bernoulli", "categorical"]),
    lam=st.sampled_from([0.0, 0.1, 10.0]),
    third=st.integers(0, 24),
)


def newton_problem(data, family: str, third: int) -> tuple[np.ndarray, np.ndarray]:
    """A response for ``family`` from a labelled data set: a real target (Gaussian), the 0/1
    labels (Bernoulli), or the labels with sample ``third`` moved to a third class."""
    y = (data.y > 0).astype(int)
    if family == "categorical":
        y = y.copy()
        y[third % y.size] = 2
        if np.unique(y).size < 2:
            y[(third + 1) % y.size] = 0
    elif family == "gaussian":
        y = data.X[:, 0] * 0.5 + y
    return data.X, y


def newton_target(glm, y, family: str) -> np.ndarray:
    """The response as the independent likelihood reads it: real y, 0/1 or class codes."""
    if family == "gaussian":
        return np.asarray(y, dtype=float)
    codes = np.searchsorted(glm.classes_, y)
    return codes.astype(float) if family == "bernoulli" else codes


def gaussian_mle(Xh: np.ndarray, target: np.ndarray) -> np.ndarray:
    """The least-squares weights of the Gaussian MLE (before dividing by sigma^2): the
    unique one when the design has full column rank, decided on the columns scaled to unit
    norm (a column of size 1e-38 is a direction, not rounding: seed 5 found one, whose
    unique MLE weight ~1e37 plain ``lstsq`` cut away as rank deficiency); otherwise the
    minimum-norm one."""
    norms = np.linalg.norm(Xh, axis=0)
    norms[norms == 0] = 1.0
    scaled, _, rank, _ = np.linalg.lstsq(Xh / norms, target, rcond=None)
    if rank == Xh.shape[1]:
        return scaled / norms.reshape((-1,) + (1,) * (np.ndim(scaled) - 1))
    return np.linalg.lstsq(Xh, target, rcond=None)[0]


def check_newton_monotone(X, y, family: str, lam: float, fit_glm=library_glm,
                          sigma: float = 1.0) -> None:
    """The iterates ``coef_history_`` recorded in the Newton loop of ``fit_glm(X, y,
    family=family, lam=lam)``: the penalised NLL recomputed at them independently never
    rises and equals the recorded history; the fit ends at its last iterate, converged,
    where the score equations hold (unless lam = 0 and the classes are (quasi-)separated,
    checked by an independent LP: then no maximiser exists)."""
    glm = fit_glm(X, y, family=family, lam=lam, sigma=sigma)
    Xh = add_bias_column(X)
    target = newton_target(glm, y, family)
    iterates = np.asarray(glm.coef_history_)
    recorded = np.asarray(glm.log_likelihood_history_)
    if iterates.shape[0] != recorded.shape[0] or iterates.shape[0] != glm.n_iter_ + 1:
        raise AssertionError(f"{iterates.shape[0]} recorded iterates for {recorded.shape[0]} "
                             f"log-likelihoods and n_iter_ = {glm.n_iter_}")
    ll = np.array([glm_log_likelihood(family, Xh, B, target, sigma) for B in iterates])
    assert_close(recorded, ll, RECOMPUTED, label="recorded vs recomputed log-likelihoods")
    penalty = [0.5 * lam * float(np.sum(B[:-1] ** 2)) if lam > 0 else 0.0 for B in iterates]
    objective = -ll + np.array(penalty)
    rise = float(np.max(np.diff(objective), initial=0.0))
    assert_leq(rise, 1e-10 * (np.max(np.abs(objective)) + 1.0),
               label="largest increase of the recomputed penalised NLL")
    assert_close(glm_coefficients(glm), iterates[-1], EXACT_ARITHMETIC,
                 label="fitted coefficients vs last recorded iterate")
    if not glm.converged_:
        codes = target.astype(int)
        K = 1 + int(codes.max(initial=0)) if family != "gaussian" else 0
        if lam == 0 and family != "gaussian" and no_finite_mle(Xh, codes, max(K, 2)):
            evidence.record("unconverged fits", "only on (quasi-)separated classes (no MLE)")
            return
        if lam == 0 and family == "gaussian" and glm.coef_cap <= float(np.max(np.abs(
                gaussian_mle(Xh, target)))) / sigma**2:
            # the (minimum-norm) MLE itself lies beyond the documented coef_cap
            evidence.record("capped fits", "only where the minimum-norm MLE exceeds coef_cap")
            return
        raise AssertionError(f"Newton/IRLS did not converge ({glm.n_iter_} iterations) on a "
                             "problem whose penalised likelihood has a maximiser")
    score, size = glm_score(family, Xh, iterates[-1], target, sigma)
    penalty = lam * np.vstack([iterates[-1][:-1], np.zeros((1, iterates.shape[2]))])
    variance = sigma**2 if family == "gaussian" else VARIANCE_BOUND[family]
    allowed = (newton_score_bound(Xh, variance, lam)
               + SCORE_ROUNDING * (size + np.abs(penalty)) + np.finfo(float).tiny)
    assert_leq(float(np.max(np.abs(score - penalty) / allowed)), 1.0,
               label="score-equation residual / what the decrement test allows")
    evidence.worst("Newton iterations to convergence", glm.n_iter_)
    evidence.record("families covered", "gaussian, bernoulli, categorical")


@claim(
    id="linear.glm_newton_increases_likelihood_2_2",
    source="004 §2.2; 003 §1.4 (1.13)",
    statement="Fitting a canonical-link GLM by Newton/IRLS (with step halving) never decreases "
    "the (penalised) log-likelihood, and at convergence the score equations "
    "X_hat^T (T(y) - a'(eta)) = 0 (plus the penalty's gradient) hold.",
    method=Method.PROPERTY,
    tags=("linear", "glm"),
)
@given(**NEWTON_CASES, sigma=st.sampled_from([0.5, 1.0, 3.0]))
def glm_newton_increases_likelihood_2_2(data, family, lam, third, sigma):
    check_newton_monotone(*newton_problem(data, family, third), family, lam, sigma=sigma)
