"""Diversity (003 §6.5): the error-ambiguity decomposition (6.22)-(6.27) and the pairwise
measures dis, rho, Q, kappa (6.28)-(6.32).

The decomposition is checked as an exact identity per point (in rationals, and in
floats on Hypothesis-generated ensembles with weights anywhere on the simplex, through
:func:`algorithms.ensembles.error_ambiguity`), integrated over empirical distributions
and over a continuous density (adaptive quadrature), with its consequence
``E <= E_bar``. The measures are compared with exact rational values and with
scikit-learn's ``matthews_corrcoef`` (= rho) and ``cohen_kappa_score`` (= kappa).
"""

from __future__ import annotations

from fractions import Fraction
from itertools import product

import numpy as np
from hypothesis import example, given
from hypothesis import strategies as st
from scipy import integrate, stats
from sklearn.base import clone
from sklearn.metrics import cohen_kappa_score, confusion_matrix, matthews_corrcoef
from sklearn.neighbors import KNeighborsClassifier

from algorithms.ensembles import (
    BaggingRegressor,
    ContingencyTable,
    RandomSubspaceClassifier,
    contingency_table,
    correlation,
    disagreement,
    error_ambiguity,
    kappa,
    kappa_error_diagram,
    kappa_probabilities,
    pairwise_diversity,
    q_statistic,
)
from algorithms.linear import LinearRegression
from mltheory import ErratumKind, Expect, Method, claim, evidence
from mltheory.numeric import EXACT_ARITHMETIC, Tolerance, assert_close
from mltheory.stats import check_probability_at_least, check_probability_at_most
from properties.ensembles.strategies import (
    RegressionEnsemble,
    contingency_tables,
    prediction_pairs,
    rational_ensembles,
    regression_ensembles,
)
from properties.ensembles.support import (
    check_ambiguity_identity,
    check_ensemble_error_at_most_mean,
    check_integrated_identity,
    check_q_versus_rho,
    exact_ambiguity_terms,
    exact_measures,
    kappa_checked,
    magnitude,
)

# ---------------------------------------------------------------------------
# Error-ambiguity decomposition (6.22)-(6.27)
# ---------------------------------------------------------------------------


@claim(
    id="ediv.ambiguity_6_22_6_25",
    source="003 §6.5.1 (6.22)-(6.25)",
    statement="For H(x) = sum_i w_i h_i(x) with weights on the simplex, the ensemble "
    "ambiguity A_bar(h|x) = sum_i w_i (h_i(x) - H(x))^2 equals E_bar(h|x) - E(H|x), where "
    "E_bar = sum_i w_i (f(x) - h_i(x))^2 and E(H|x) = (f(x) - H(x))^2; hence E(H|x) <= "
    "E_bar(h|x) at every point.",
    method=Method.PROPERTY,
    tags=("ensembles", "diversity", "identity"),
)
@given(ens=regression_ensembles(), exact=rational_ensembles())
@example(  # identical members: A_bar = 0 and E = E_bar (the consequence is tight)
    ens=RegressionEnsemble(outputs=np.array([[2.0], [2.0]]), target=np.array([-1.0]),
                           weights=np.array([0.5, 0.5]), p=np.array([1.0])),
    exact=([Fraction(1), Fraction(-3)], Fraction(1, 2), [Fraction(1, 4), Fraction(3, 4)]),
)
def ambiguity_6_22_6_25(ens, exact):
    h, f, w = exact
    A_bar, E_bar, E = exact_ambiguity_terms(h, f, w)
    assert A_bar == E_bar - E, f"exact identity fails: A_bar={A_bar}, E_bar - E={E_bar - E}"
    ea = error_ambiguity(np.array([[float(v)] for v in h]), np.array([float(f)]),
                         np.array([float(v) for v in w]))
    assert_close(ea.ambiguity[0], float(A_bar), EXACT_ARITHMETIC,
                 scale=magnitude(np.array([float(v) for v in h]), np.array([float(f)])),
                 label="|implementation - exact A_bar| / scale")
    check_ambiguity_identity(ens.outputs, ens.target, ens.weights)
    ea = error_ambiguity(ens.outputs, ens.target, ens.weights)
    check_ensemble_error_at_most_mean(ea.ensemble_error, ea.mean_error,
                                      scale=magnitude(ens.outputs, ens.target),
                                      label="pointwise")


@claim(
    id="ediv.ambiguity_unnormalised_weights_as_written",
    source="003 §6.4.1 (6.18); 003 §6.5.1 (6.25)",
    statement="(As printed) A_bar(h|x) = E_bar(h|x) - E(H|x) for the weighted average "
    "H = sum_i w_i h_i of (6.18), whose weights the notes leave unconstrained.",
    method=Method.PROPERTY,
    tags=("ensembles", "diversity", "identity", "erratum"),
    expect=Expect.REFUTED,
    kind=ErratumKind.MISSING_CONDITION,
    corrected_by="ediv.ambiguity_6_22_6_25",
    explanation="Missing condition: the decomposition needs sum_i w_i = 1 (the book's "
    "constraint w_i >= 0, sum w_i = 1, dropped in the notes' (6.18) and never stated in "
    "§6.5.1). In general E_bar - A_bar - E = (sum_i w_i - 1)(f^2 - H^2), e.g. one learner "
    "with w = 2, h = 1, f = 0: A_bar = 2, E_bar - E = 2 - 4 = -2.",
)
@given(ens=regression_ensembles(), factor=st.floats(0.25, 4.0))
@example(ens=RegressionEnsemble(outputs=np.array([[1.0]]), target=np.array([0.0]),
                                weights=np.array([1.0]), p=np.array([1.0])), factor=2.0)
def ambiguity_unnormalised_weights_as_written(ens, factor):
    check_ambiguity_identity(ens.outputs, ens.target, ens.weights * factor, simplex=False)


@claim(
    id="ediv.integrated_6_26_6_27",
    source="003 §6.5.1 (6.26)-(6.27)",
    statement="Integrating (6.25) over a distribution p of x: with E_i = int E(h_i|x) p, "
    "A_i = int A(h_i|x) p and E = int E(H|x) p, E = E_bar - A_bar where E_bar = sum_i w_i E_i "
    "and A_bar = sum_i w_i A_i; hence E <= E_bar (checked on finite distributions over "
    "Hypothesis-generated points, including the empirical one).",
    method=Method.PROPERTY,
    tags=("ensembles", "diversity", "identity"),
)
@given(ens=regression_ensembles(), empirical=st.booleans())
def integrated_6_26_6_27(ens, empirical):
    n = ens.target.shape[0]
    p = np.full(n, 1.0 / n) if empirical else ens.p
    terms = check_integrated_identity(ens.outputs, ens.target, ens.weights, p)
    check_ensemble_error_at_most_mean(terms.ensemble_error, terms.mean_error,
                                      scale=magnitude(ens.outputs, ens.target),
                                      label="integrated")


def _printed_6_26(terms, weights):
    """The right-hand side of (6.26) as printed: sum_i E_i - E (no weights w_i)."""
    return float(np.sum(terms.individual_errors)) - terms.ensemble_error


@claim(
    id="ediv.integrated_6_26_as_written",
    source="003 §6.5.1 (6.26)",
    statement="(As printed) sum_i w_i int A(h_i|x) p(x) dx = sum_i int E(h_i|x) p(x) dx - "
    "int E(H|x) p(x) dx.",
    method=Method.PROPERTY,
    tags=("ensembles", "diversity", "identity", "erratum"),
    expect=Expect.REFUTED,
    kind=ErratumKind.TERM,
    corrected_by="ediv.integrated_6_26_6_27",
    explanation="Missing factor: the first sum on the right must carry the weights, "
    "sum_i w_i int E(h_i|x) p(x) dx (= E_bar, as (6.27) then uses). Without them the right "
    "side is sum_i E_i - E, which differs from A_bar as soon as T >= 2 and the members err "
    "(e.g. two members with error 1 each, w = (1/2, 1/2): A_bar = 0 but 2 - 1 = 1).",
)
@given(ens=regression_ensembles())
@example(ens=RegressionEnsemble(outputs=np.array([[1.0], [1.0]]), target=np.array([0.0]),
                                weights=np.array([0.5, 0.5]), p=np.array([1.0])))
def integrated_6_26_as_written(ens):
    check_integrated_identity(ens.outputs, ens.target, ens.weights, ens.p, rhs=_printed_6_26)


#: quad_vec runs adaptive Gauss-Kronrod to relative error 1e-11 on smooth integrands
#: (polynomials times a Gaussian); the six-sigma truncation of the real line loses below
#: 1e-9 of the mass times a polynomial of degree <= 8.
QUADRATURE = Tolerance(rtol=1e-7, atol=1e-9,
                       reason="adaptive quadrature to 1e-11 relative on [-8, 8]; the "
                       "Gaussian tail beyond 8 sigma holds < 1e-14 of the mass")


@claim(
    id="ediv.integrated_density_6_26_6_27",
    source="003 §6.5.1 (6.26)-(6.27)",
    statement="For a continuous density p(x) (standard normal) and an ensemble of bagged "
    "cubic regressors averaged with equal weights, the integrals E, E_i, A_i computed "
    "separately by quadrature satisfy E = E_bar - A_bar and E <= E_bar.",
    method=Method.REFERENCE,
    tags=("ensembles", "diversity", "identity"),
)
def integrated_density_6_26_6_27(rng):
    x = rng.normal(size=40)
    y = np.sin(2.0 * x) + 0.3 * rng.normal(size=x.shape[0])

    def features(t):
        t = np.atleast_1d(t)
        return np.column_stack([t, t**2, t**3])

    bag = BaggingRegressor(LinearRegression(), n_estimators=7, random_state=rng)
    bag.fit(features(x), y)
    T = len(bag.estimators_)

    def integrand(t):
        h = bag._member_predictions(features(t))[:, 0]
        H = float(np.mean(h))
        f = float(np.sin(2.0 * t))
        dens = float(stats.norm.pdf(t))
        return np.concatenate([(f - h) ** 2, (h - H) ** 2, [(f - H) ** 2]]) * dens

    values, _ = integrate.quad_vec(integrand, -8.0, 8.0, epsrel=1e-11, epsabs=1e-13)
    E_i, A_i, E = values[:T], values[T:2 * T], float(values[-1])
    E_bar, A_bar = float(np.mean(E_i)), float(np.mean(A_i))
    evidence.record("E, E_bar, A_bar", f"{E:.6g}, {E_bar:.6g}, {A_bar:.6g}")
    assert_close(A_bar, E_bar - E, QUADRATURE, label="|A_bar - (E_bar - E)| (quadrature)")
    check_ensemble_error_at_most_mean(np.array([E]), np.array([E_bar]), scale=1.0,
                                      label="density")
    # the ensemble output used in the integrand is the estimator's own prediction
    grid = np.linspace(-3, 3, 7)
    assert_close(bag.predict(features(grid)),
                 np.mean(bag._member_predictions(features(grid)), axis=0),
                 EXACT_ARITHMETIC, label="|BaggingRegressor.predict - simple average|")


# ---------------------------------------------------------------------------
# Pairwise measures (6.28)-(6.32)
# ---------------------------------------------------------------------------


@claim(
    id="div.contingency",
    source="003 §6.5.2 (table)",
    statement="For two classifiers' {-1,+1} predictions on m samples the table counts "
    "a (both +1), b (h_i = +1, h_j = -1), c (h_i = -1, h_j = +1), d (both -1) satisfy "
    "a + b + c + d = m (all prediction pairs with m <= 4, against scikit-learn's "
    "confusion_matrix).",
    method=Method.ENUMERATION,
    tags=("ensembles", "diversity"),
)
def contingency():
    cases = 0
    for m in range(1, 5):
        for hi in product((-1, 1), repeat=m):
            for hj in product((-1, 1), repeat=m):
                t = contingency_table(hi, hj)
                assert t.a + t.b + t.c + t.d == m
                # rows: h_j = +1, -1; columns: h_i = +1, -1 (the notes' layout)
                ref = confusion_matrix(hj, hi, labels=[1, -1])
                assert ref.tolist() == [[t.a, t.c], [t.b, t.d]], (hi, hj, t, ref)
                cases += 1
    evidence.add_examples(cases)


@claim(
    id="div.disagreement_6_28",
    source="003 §6.5.2 (6.28)",
    statement="dis_ij = (b + c)/m is the fraction of samples on which h_i and h_j differ; "
    "it lies in [0, 1], is 0 exactly for identical and 1 exactly for opposite predictions.",
    method=Method.PROPERTY,
    tags=("ensembles", "diversity"),
)
@given(pair=prediction_pairs())
def disagreement_6_28(pair):
    hi, hj = pair
    t = contingency_table(hi, hj)
    dis = disagreement(t)
    assert dis == float(exact_measures(t).dis)
    assert dis == np.mean(hi != hj)
    assert 0.0 <= dis <= 1.0
    assert (dis == 0.0) == bool(np.all(hi == hj))
    assert (dis == 1.0) == bool(np.all(hi == -hj))
    matrix = pairwise_diversity(np.vstack([hi, hj]), "disagreement")
    assert matrix[0, 1] == matrix[1, 0] == dis and matrix[0, 0] == 0.0


@claim(
    id="div.correlation_6_29",
    source="003 §6.5.2 (6.29)",
    statement="rho_ij = (ad - bc)/sqrt((a+b)(a+c)(c+d)(b+d)) lies in [-1, 1], is the "
    "Pearson (phi) correlation of the two prediction vectors (scikit-learn's "
    "matthews_corrcoef), has the sign of ad - bc and is 0 exactly when ad = bc (the table "
    "factorises: the predictions are unrelated on the sample).",
    method=Method.REFERENCE,
    tags=("ensembles", "diversity"),
)
@given(pair=prediction_pairs())
def correlation_6_29(pair):
    hi, hj = pair
    t = contingency_table(hi, hj)
    ex = exact_measures(t)
    if ex.rho_squared is None:
        try:
            correlation(t)
        except ValueError:
            return  # a constant classifier: rho is undefined and says so
        raise AssertionError(f"rho on the degenerate table {t} did not raise")
    rho = correlation(t)
    assert -1.0 <= rho <= 1.0
    assert np.sign(rho) == ex.rho_sign
    assert (rho == 0.0) == (t.a * t.d == t.b * t.c)
    assert_close(rho * rho, float(ex.rho_squared), EXACT_ARITHMETIC, label="|rho^2 - exact|")
    assert_close(rho, matthews_corrcoef(hi, hj), EXACT_ARITHMETIC,
                 label="|rho - sklearn matthews_corrcoef|")


#: |rho| sqrt(m) beyond this (the normal 0.999 two-sided quantile) counts as "rho not 0".
RHO_Z = 3.29
#: Claimed bound on P(|rho| sqrt(m) > RHO_Z) for independent classifiers: the limit law
#: N(0, 1) gives 0.001; the discrete law at m >= 100 and marginals in [0.1, 0.9] stays
#: well below this allowance.
RHO_FALSE_ALARM = 0.01


@claim(
    id="div.correlation_independent_6_29",
    source="003 §6.5.2 (6.29)",
    statement="If h_i and h_j are unrelated (independent outputs) then rho_ij = 0: the "
    "sample rho is within 3.29/sqrt(m) of 0 except with probability <= 1%; if they are "
    "positively (negatively) related, rho_ij > 0 (< 0) with probability -> 1.",
    method=Method.SIMULATION,
    tags=("ensembles", "diversity", "statistical"),
)
@given(p_i=st.floats(0.1, 0.9), p_j=st.floats(0.1, 0.9), m=st.integers(100, 400),
       flip=st.floats(0.0, 0.3), rngseed=st.integers(0, 2**32 - 1))
def correlation_independent_6_29(p_i, p_j, m, flip, rngseed, scale):
    rng = np.random.default_rng(rngseed)
    trials = 2000 * scale
    hi = np.where(rng.random((trials, m)) < p_i, 1, -1)
    hj = np.where(rng.random((trials, m)) < p_j, 1, -1)
    related = np.where(rng.random((trials, m)) < flip, -hi, hi)

    def rho_rows(u, v):  # vectorised (6.29) over trials, from the counts
        a = np.sum((u > 0) & (v > 0), 1)
        b = np.sum((u > 0) & (v < 0), 1)
        c = np.sum((u < 0) & (v > 0), 1)
        d = np.sum((u < 0) & (v < 0), 1)
        den = np.sqrt(((a + b) * (a + c) * (c + d) * (b + d)).astype(float))
        return np.where(den > 0, (a * d - b * c) / np.where(den > 0, den, 1.0), 0.0)

    spot = rng.integers(trials)
    assert_close(rho_rows(hi[spot:spot + 1], hj[spot:spot + 1])[0],
                 correlation(contingency_table(hi[spot], hj[spot]), undefined=0.0),
                 EXACT_ARITHMETIC, label="|vectorised rho - correlation()|")
    far = int(np.sum(np.abs(rho_rows(hi, hj)) * np.sqrt(m) > RHO_Z))
    check_probability_at_most(far, trials, RHO_FALSE_ALARM,
                              label="independent: P(|rho| sqrt(m) > 3.29)")
    if flip <= 0.25:  # population rho >= 0.5: the sign is right with overwhelming odds
        positive = int(np.sum(rho_rows(hi, related) > 0))
        negative = int(np.sum(rho_rows(hi, -related) < 0))
        check_probability_at_least(positive, trials, 0.99, label="related: P(rho > 0)")
        check_probability_at_least(negative, trials, 0.99, label="anti-related: P(rho < 0)")


@claim(
    id="div.correlation_independent_as_written",
    source="003 §6.5.2 (6.29)",
    statement="(As printed) if h_i and h_j are unrelated, the coefficient rho_ij of (6.29), "
    "computed from their contingency table on the data set, is 0.",
    method=Method.PROPERTY,
    tags=("ensembles", "diversity", "erratum"),
    expect=Expect.REFUTED,
    kind=ErratumKind.SHORTHAND,
    corrected_by="div.correlation_independent_6_29",
    explanation="Shorthand: rho_ij = 0 holds for the population correlation of independent "
    "classifiers; the (6.29) value on a finite sample D fluctuates around 0 (of order "
    "1/sqrt(m)) and is exactly 0 only when ad = bc. E.g. two independent fair coins on "
    "m = 100 points give a non-zero rho almost surely.",
)
@given(seed=st.integers(0, 2**32 - 1), m=st.integers(20, 200))
@example(seed=0, m=100)
def correlation_independent_as_written(seed, m):
    rng = np.random.default_rng(seed)
    h_i, h_j = (np.where(rng.random(m) < 0.5, -1, 1) for _ in range(2))  # independent
    t = contingency_table(h_i, h_j)
    ex = exact_measures(t)
    assert ex.rho_squared in (None, 0), f"independent h_i, h_j on m = {m}: {t}, " \
        f"rho^2 = {ex.rho_squared} (rho = {correlation(t, undefined=0.0):.3f})"


@claim(
    id="div.q_6_30",
    source="003 §6.5.2 (6.30)",
    statement="Where both are defined, Q_ij = (ad - bc)/(ad + bc) has the same sign as "
    "rho_ij and |Q_ij| >= |rho_ij|.",
    method=Method.PROPERTY,
    tags=("ensembles", "diversity"),
)
@given(t=contingency_tables())
@example(t=ContingencyTable(a=3, b=0, c=0, d=2))  # b = c = 0: Q = rho = 1 (tight)
def q_6_30(t):
    check_q_versus_rho(t)


@claim(
    id="div.q_at_most_rho_as_written",
    source="003 §6.5.2 (after (6.30))",
    statement="(As printed) |Q_ij| <= |rho_ij|.",
    method=Method.PROPERTY,
    tags=("ensembles", "diversity", "erratum"),
    expect=Expect.REFUTED,
    kind=ErratumKind.SYMBOL,
    corrected_by="div.q_6_30",
    explanation="Inequality turned the wrong way: (ad + bc)^2 <= (a+b)(a+c)(c+d)(b+d) for "
    "non-negative counts, so |Q| >= |rho| (equality only in corner cases such as b = c = 0). "
    "Counterexample a = 1, b = 1, c = 0, d = 1: Q = 1, rho = 1/2.",
)
@given(t=contingency_tables())
@example(t=ContingencyTable(a=1, b=1, c=0, d=1))
def q_at_most_rho_as_written(t):
    check_q_versus_rho(t, relation=lambda q2, r2: q2 <= r2, name="|Q| <= |rho|")


@claim(
    id="div.q_equals_rho_as_written",
    source="003 §6.5.2 (after (6.30))",
    statement="(As printed) Q_ij is the same as the correlation coefficient rho_ij.",
    method=Method.PROPERTY,
    tags=("ensembles", "diversity", "erratum"),
    expect=Expect.REFUTED,
    kind=ErratumKind.OVERCLAIM,
    corrected_by="div.q_6_30",
    explanation="Overclaim (a word is missing): Q and rho share their sign, not their "
    "value; |Q| >= |rho| with equality only in corner cases. a = 1, b = 1, c = 0, d = 1 "
    "gives Q = 1 and rho = 1/2.",
)
@given(t=contingency_tables())
@example(t=ContingencyTable(a=1, b=1, c=0, d=1))
def q_equals_rho_as_written(t):
    check_q_versus_rho(t, relation=lambda q2, r2: q2 == r2, name="Q = rho")


@claim(
    id="div.kappa_6_31_6_32",
    source="003 §6.5.2 (6.31)-(6.32)",
    statement="p1 = (a+d)/m and p2 = ((a+b)(a+c) + (c+d)(b+d))/m^2 lie in [0, 1]; "
    "kappa = (p1 - p2)/(1 - p2) (defined when p2 < 1) satisfies -1 <= kappa <= 1, equals 1 "
    "exactly when the classifiers agree on every sample, 0 exactly when the agreement equals "
    "chance (p1 = p2), can be negative, and equals scikit-learn's cohen_kappa_score.",
    method=Method.PROPERTY,
    tags=("ensembles", "diversity"),
)
@given(pair=prediction_pairs())
@example(pair=(np.array([1, -1]), np.array([-1, 1])))  # full disagreement: kappa = -1
def kappa_6_31_6_32(pair):
    hi, hj = pair
    t = contingency_table(hi, hj)
    ex = exact_measures(t)
    p1, p2 = kappa_probabilities(t)
    assert 0 <= ex.p1 <= 1 and 0 <= ex.p2 <= 1, (ex.p1, ex.p2)
    assert_close([p1, p2], [float(ex.p1), float(ex.p2)], EXACT_ARITHMETIC,
                 label="|(p1, p2) - exact|")
    value = kappa_checked(t)
    if value is None:
        assert t.b == t.c == 0 and (t.a == 0 or t.d == 0), t  # both constant and equal
        try:
            kappa(t)
        except ValueError:
            return
        raise AssertionError(f"kappa on {t} (p2 = 1) did not raise")
    evidence.worst("smallest kappa (negative: worse than chance)", value,
                   larger_is_worse=False)
    assert -1 <= ex.kappa <= 1, ex.kappa
    assert (ex.kappa == 1) == (t.b == t.c == 0)
    assert (ex.kappa == 0) == (ex.p1 == ex.p2)
    assert_close(value, cohen_kappa_score(hi, hj), EXACT_ARITHMETIC,
                 label="|kappa - sklearn cohen_kappa_score|")


@claim(
    id="div.pairwise_average",
    source="003 §6.5.2",
    statement="Pairwise measures of an ensemble are taken over all T(T-1)/2 pairs: the "
    "matrix of each measure is symmetric and its off-diagonal entries are the measures of "
    "the pairs' contingency tables.",
    method=Method.PROPERTY,
    tags=("ensembles", "diversity"),
)
@given(data=st.data(), T=st.integers(2, 5), m=st.integers(2, 20))
def pairwise_average(data, T, m):
    rows = data.draw(st.lists(st.lists(st.sampled_from([-1, 1]), min_size=m, max_size=m),
                              min_size=T, max_size=T))
    P = np.array(rows)
    for name, func in (("disagreement", disagreement), ("q_statistic", q_statistic),
                       ("correlation", correlation), ("kappa", kappa)):
        kwargs = {} if name == "disagreement" else {"undefined": 0.0}
        M = pairwise_diversity(P, name, **kwargs)
        assert np.array_equal(M, M.T)
        i, j = data.draw(st.sampled_from([(a, b) for a in range(T) for b in range(a + 1, T)]))
        assert M[i, j] == func(contingency_table(P[i], P[j]), **kwargs)


@claim(
    id="div.kappa_error_diagram",
    source="003 §6.5.2 (6.31)-(6.32)",
    statement="The kappa-error diagram of an ensemble has one point per pair of classifiers "
    "(all T(T-1)/2 pairs, i < j): the pair's kappa (6.31) and the mean of the two "
    "classifiers' error rates on the labelled sample.",
    method=Method.PROPERTY,
    tags=("ensembles", "diversity"),
)
@given(data=st.data(), T=st.integers(2, 5), m=st.integers(2, 20))
def kappa_error_diagram_points(data, T, m):
    signs = st.lists(st.sampled_from([-1, 1]), min_size=m, max_size=m)
    P = np.array(data.draw(st.lists(signs, min_size=T, max_size=T)))
    y = np.array(data.draw(signs))
    diagram = kappa_error_diagram(P, y, undefined=0.0)
    pairs = [(i, j) for i in range(T) for j in range(i + 1, T)]
    assert diagram.pairs.tolist() == [list(p) for p in pairs], diagram.pairs
    for (i, j), k, e in zip(pairs, diagram.kappa, diagram.mean_error, strict=True):
        exact_error = Fraction(int(np.sum(P[i] != y)) + int(np.sum(P[j] != y)), 2 * m)
        assert_close(e, float(exact_error), EXACT_ARITHMETIC, label="|mean error - exact|")
        ex = exact_measures(contingency_table(P[i], P[j]))
        expected = 0.0 if ex.kappa is None else float(ex.kappa)
        assert_close(k, expected, EXACT_ARITHMETIC, label="|kappa - exact (6.31)|")


# ---------------------------------------------------------------------------
# Diversity enhancement: input-attribute perturbation (003 §6.5.3, Fig 8.11)
# ---------------------------------------------------------------------------


@claim(
    id="div.random_subspace_fig_8_11",
    source="003 §6.5.3 Fig 8.11",
    statement="The random subspace method: member t sees only F_t = RS(D, d'), a set of d' "
    "distinct attributes out of d (1 <= d' <= d: a subspace, also when d' is left to the "
    "library), is the base algorithm run on Map_{F_t}(D), and the ensemble outputs "
    "argmax_y sum_t I(h_t(Map_{F_t}(x)) = y).",
    method=Method.PROPERTY,
    tags=("ensembles", "diversity"),
)
@given(seed=st.integers(0, 2**32 - 1), d=st.integers(1, 5), K=st.integers(2, 4),
       T=st.integers(1, 6), data=st.data())
def random_subspace_fig_8_11(seed, d, K, T, data):
    """scikit-learn's 1-NN is the base algorithm (deterministic, independent of our code)."""
    rng = np.random.default_rng(seed)
    d_sub = data.draw(st.none() | st.integers(1, d), label="d'")
    X = rng.normal(size=(40, d))
    y = rng.integers(0, K, size=40)
    y[:K] = np.arange(K)
    X_new = rng.normal(size=(100, d))
    base = KNeighborsClassifier(n_neighbors=1)
    ens = RandomSubspaceClassifier(base, n_estimators=T, n_subspace_features=d_sub,
                                   random_state=seed).fit(X, y)
    F = np.asarray(ens.subspaces_)
    assert F.shape[0] == T == len(ens.estimators_), F.shape
    assert 1 <= F.shape[1] <= d, f"{F.shape[1]} attributes of d = {d}: not a subspace"
    if d_sub is not None:
        assert F.shape[1] == d_sub, (F.shape, d_sub)
    votes = np.zeros((X_new.shape[0], K), dtype=np.int64)
    for t, (h, f) in enumerate(zip(ens.estimators_, F, strict=True)):
        assert np.unique(f).shape[0] == f.shape[0] and f.min() >= 0 and f.max() < d, f
        expected = clone(base).fit(X[:, f], y).predict(X_new[:, f])  # h_t = L(Map_F(D))
        got = ens.classes_[np.asarray(h.predict(X_new[:, f]))]
        assert np.array_equal(got, expected), f"member {t} != L on Map_F_t(D)"
        votes[np.arange(X_new.shape[0]), np.searchsorted(ens.classes_, expected)] += 1
    assert np.array_equal(ens.vote_counts(X_new), votes), "vote totals"
    assert np.array_equal(ens.predict(X_new), ens.classes_[np.argmax(votes, axis=1)]), (
        "the output is not argmax_y sum_t I(h_t(Map_F_t(x)) = y)")
