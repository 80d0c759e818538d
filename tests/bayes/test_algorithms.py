"""Unit tests for algorithms.bayes: decisions, MLE, naive Bayes, ODE, networks, EM models."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from sklearn.exceptions import ConvergenceWarning
from sklearn.naive_bayes import CategoricalNB, GaussianNB

from algorithms.bayes import (
    AODEClassifier,
    BayesianNetwork,
    CategoricalMixture,
    GaussianBayesClassifier,
    NaiveBayesClassifier,
    SPODEClassifier,
    TANClassifier,
    bayes_decision,
    categorical_mle,
    conditional_risk,
    expected_risk,
    fit_cpts,
    fit_cpts_em,
    gaussian_log_likelihood,
    gaussian_mle,
    gibbs_query,
    gibbs_sampling,
    hill_climb,
    maximum_likelihood,
    mdl_weight,
    network_score,
    zero_one_loss,
)

# A sprinkler-like network: 0 -> 1, 0 -> 2, (1, 2) -> 3.
PARENTS = [(), (0,), (0,), (1, 2)]
CPTS = [
    np.array([0.5, 0.5]),
    np.array([[0.5, 0.5], [0.9, 0.1]]),
    np.array([[0.8, 0.2], [0.2, 0.8]]),
    np.array([[[1.0, 0.0], [0.1, 0.9]], [[0.1, 0.9], [0.01, 0.99]]]),
]


def sprinkler() -> BayesianNetwork:
    return BayesianNetwork(PARENTS, CPTS)


def categorical_data(seed=0, n=400, d=4, k=3):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    X = (rng.integers(0, k, (n, d)) + y[:, None] * (rng.random((n, d)) < 0.6)) % k
    return X.astype(float), y


# ---------------------------------------------------------------------------
# Decisions (5.2)-(5.3)
# ---------------------------------------------------------------------------


def test_conditional_risk_and_bayes_decision_with_an_asymmetric_loss():
    post = np.array([[0.7, 0.3], [0.2, 0.8]])
    loss = np.array([[0.0, 10.0], [1.0, 0.0]])  # calling a true c_2 "c_1" costs 10
    R = conditional_risk(post, loss)
    np.testing.assert_allclose(R, [[3.0, 0.7], [8.0, 0.2]])
    assert bayes_decision(post, loss).tolist() == [1, 1]
    assert bayes_decision(post).tolist() == [0, 1]
    assert expected_risk([0.5, 0.5], post, [1, 1], loss) == pytest.approx(0.45)


def test_zero_one_loss_ties_go_to_the_first_class():
    assert bayes_decision([0.5, 0.5]).tolist() == [0]
    np.testing.assert_array_equal(zero_one_loss(3), 1 - np.eye(3))


@pytest.mark.parametrize(
    ("post", "loss", "match"),
    [
        ([[0.5, 0.6]], None, "posterior"),
        ([[-0.1, 1.1]], None, "posterior"),
        ([[0.5, 0.5]], np.ones((3, 3)), "loss"),
        ([[0.5, 0.5]], [[0.0, np.nan], [1.0, 0.0]], "loss"),
    ],
)
def test_bad_decision_inputs(post, loss, match):
    with pytest.raises(ValueError, match=match):
        bayes_decision(post, loss if loss is not None else zero_one_loss(2))


def test_classifier_predict_uses_the_loss_matrix():
    X, y = categorical_data()
    plain = NaiveBayesClassifier(categorical_features="all").fit(X, y)
    costly = NaiveBayesClassifier(categorical_features="all",
                                  loss=[[0.0, 100.0], [1.0, 0.0]]).fit(X, y)
    assert np.mean(costly.predict(X) == 1) > np.mean(plain.predict(X) == 1)
    with pytest.raises(ValueError, match="loss"):
        NaiveBayesClassifier(loss=np.ones((3, 3))).fit(X, y)


# ---------------------------------------------------------------------------
# Maximum likelihood (5.4)-(5.5)
# ---------------------------------------------------------------------------


def test_gaussian_mle_is_mean_and_biased_covariance():
    rng = np.random.default_rng(1)
    X = rng.normal(size=(50, 3))
    mean, cov = gaussian_mle(X)
    np.testing.assert_allclose(mean, X.mean(axis=0))
    np.testing.assert_allclose(cov, np.cov(X.T, bias=True))
    assert gaussian_log_likelihood(X, mean, cov) > gaussian_log_likelihood(X, mean, np.cov(X.T))


def test_numerical_mle_matches_the_closed_form():
    rng = np.random.default_rng(2)
    x = rng.normal(3.0, 2.0, size=400)

    def log_pdf(data, t):
        return -0.5 * np.log(2 * np.pi) - t[1] - 0.5 * ((data - t[0]) / np.exp(t[1])) ** 2

    t = maximum_likelihood(log_pdf, x, [0.0, 0.0])
    assert t[0] == pytest.approx(x.mean(), abs=1e-5)
    assert np.exp(t[1]) == pytest.approx(x.std(), rel=1e-5)


def test_numerical_mle_scores_an_overflowing_point_as_1e300(monkeypatch):
    # the optimiser sees a point whose log-likelihood is not finite as the finite value
    # 1e300 (a step of the line search to a worse point), never as inf or NaN
    import scipy.optimize

    seen = []
    real = scipy.optimize.minimize

    def spy(fun, x0, **kwargs):
        seen.append(fun)
        return real(fun, x0, **kwargs)

    monkeypatch.setattr(scipy.optimize, "minimize", spy)
    x = np.random.default_rng(3).exponential(2.0, size=100)

    def log_pdf(data, t):  # exponential with rate exp(t): exp overflows for large t
        return t[0] - np.exp(t[0]) * data

    t = maximum_likelihood(log_pdf, x, [0.0])
    assert np.exp(t[0]) == pytest.approx(1.0 / x.mean(), rel=1e-5)
    assert seen and seen[0](np.array([1000.0])) == 1e300
    assert seen[0](np.array([0.0])) == pytest.approx(-np.sum(log_pdf(x, [0.0])))


def test_categorical_mle_is_the_frequencies():
    np.testing.assert_allclose(categorical_mle([0, 1, 1, 3], 4), [0.25, 0.5, 0.0, 0.25])
    with pytest.raises(ValueError, match="x"):
        categorical_mle([0, 5], 4)


def test_gaussian_bayes_classifier_refuses_a_singular_covariance_without_smoothing():
    X = np.array([[0.0, 0.0], [1.0, 1.0], [2.0, 2.0], [0.0, 1.0], [1.0, 2.0], [2.0, 3.5]])
    y = np.array([0, 0, 0, 1, 1, 1])  # class 0 lies on a line
    with pytest.raises(ValueError, match="var_smoothing"):
        GaussianBayesClassifier(var_smoothing=0.0).fit(X, y)
    assert GaussianBayesClassifier().fit(X, y).score(X, y) == 1.0
    with pytest.raises(ValueError, match="cov"):
        gaussian_log_likelihood(X, np.zeros(2), np.ones((2, 2)))


# ---------------------------------------------------------------------------
# Naive Bayes and ODE
# ---------------------------------------------------------------------------


def test_naive_bayes_matches_scikit_learn():
    rng = np.random.default_rng(3)
    X, y = rng.normal(size=(200, 3)), rng.integers(0, 3, 200)
    ours = NaiveBayesClassifier(alpha=0.0).fit(X, y)
    np.testing.assert_allclose(ours.predict_proba(X), GaussianNB().fit(X, y).predict_proba(X),
                               atol=1e-12)
    Xc, yc = categorical_data()
    ours = NaiveBayesClassifier(categorical_features="all").fit(Xc, yc)
    ref = CategoricalNB(alpha=1.0, class_prior=np.exp(ours.class_log_prior_)).fit(Xc, yc)
    np.testing.assert_allclose(ours.predict_proba(Xc), ref.predict_proba(Xc), atol=1e-12)


def test_mixed_attributes_add_gaussian_and_categorical_terms():
    Xc, y = categorical_data()
    rng = np.random.default_rng(4)
    Xg = rng.normal(size=(Xc.shape[0], 2)) + y[:, None]
    X = np.hstack([Xg, Xc])
    mixed = NaiveBayesClassifier(categorical_features=[2, 3, 4, 5]).fit(X, y)
    g = NaiveBayesClassifier().fit(Xg, y)
    c = NaiveBayesClassifier(categorical_features="all").fit(Xc, y)
    np.testing.assert_allclose(
        mixed.predict_joint_log_proba(X),
        g.predict_joint_log_proba(Xg) + c.predict_joint_log_proba(Xc) - mixed.class_log_prior_,
        rtol=1e-12)


def test_naive_bayes_log_space_survives_many_attributes():
    rng = np.random.default_rng(5)
    y = rng.integers(0, 2, 100)
    X = (rng.random((100, 3000)) < np.where(y[:, None] == 1, 0.6, 0.4)).astype(float)
    p = NaiveBayesClassifier(categorical_features="all").fit(X, y).predict_proba(X)
    assert np.all(np.isfinite(p)) and np.allclose(p.sum(axis=1), 1.0)


def test_unseen_category_with_and_without_smoothing():
    X, y = categorical_data()
    clf = NaiveBayesClassifier(categorical_features="all").fit(X, y)
    assert np.all(np.isfinite(clf.predict_proba(np.full((1, 4), 99.0))))
    dense = np.array([[0.0], [1.0], [0.0], [1.0]]), np.array([0, 0, 1, 1])
    exact = NaiveBayesClassifier(categorical_features="all", alpha=0.0).fit(*dense)
    with pytest.raises(ValueError, match="alpha"):
        exact.predict([[7.0]])
    with pytest.raises(ValueError, match="alpha"):  # a zero cell without smoothing
        NaiveBayesClassifier(categorical_features="all", alpha=0.0).fit(
            [[0.0], [0.0], [1.0], [1.0]], [0, 0, 1, 1])


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"alpha": -1.0}, "alpha"),
        ({"var_smoothing": -1.0}, "var_smoothing"),
        ({"categorical_features": [9]}, "categorical_features"),
        ({"categorical_features": "some"}, "categorical_features"),
        ({"priors": [0.5, 0.6]}, "priors"),
    ],
)
def test_naive_bayes_bad_hyperparameters(kwargs, match):
    X, y = categorical_data()
    with pytest.raises(ValueError, match=match):
        NaiveBayesClassifier(**kwargs).fit(X, y)


@pytest.mark.parametrize("Est", [NaiveBayesClassifier, SPODEClassifier, TANClassifier,
                                 AODEClassifier, GaussianBayesClassifier])
@pytest.mark.parametrize(
    ("X", "y", "match"),
    [
        ([[np.nan, 1.0], [1.0, 2.0]], [0, 1], "NaN"),
        ([[np.inf, 1.0], [1.0, 2.0]], [0, 1], "infinity"),
        ([[0.0, 1.0], [1.0, 2.0]], [0, 0], "class"),
        (np.zeros((0, 2)), [], "X"),
        ([[0.0, 1.0], [1.0, 2.0]], [0, 1, 1], "samples"),
    ],
)
def test_classifiers_refuse_bad_data(Est, X, y, match):
    with pytest.raises(ValueError, match=match):
        Est().fit(X, y)


def test_tan_parents_form_a_tree_on_the_strongest_dependencies():
    rng = np.random.default_rng(6)
    y = rng.integers(0, 2, 2000)
    a = rng.integers(0, 2, 2000)
    X = np.column_stack([a, a ^ (rng.random(2000) < 0.05), rng.integers(0, 2, 2000),
                         y ^ (rng.random(2000) < 0.3)]).astype(float)
    tan = TANClassifier().fit(X, y)
    assert tan.parents_[0] == -1 and tan.parents_[1] == 0
    assert len(tan.tree_edges_) == 3
    assert np.allclose(tan.conditional_mutual_information_,
                       tan.conditional_mutual_information_.T)


def test_spode_weights_equal_repetition_with_a_fixed_super_parent():
    X, y = categorical_data(n=60)
    w = np.arange(60) % 3
    a = SPODEClassifier(super_parent=1).fit(X, y, sample_weight=w)
    b = SPODEClassifier(super_parent=1).fit(np.repeat(X, w, axis=0), np.repeat(y, w))
    np.testing.assert_allclose(a.predict_proba(X), b.predict_proba(X), atol=1e-12)


def test_spode_chooses_the_super_parent_by_cross_validation():
    X, y = categorical_data()
    clf = SPODEClassifier(random_state=0).fit(X, y)
    assert clf.super_parent_ == int(np.argmax(clf.cv_scores_))
    with pytest.raises(ValueError, match="super_parent"):
        SPODEClassifier(super_parent=9).fit(X, y)
    with pytest.raises(ValueError, match="cv"):
        SPODEClassifier(cv=1).fit(X, y)


def test_spode_cv_scores_are_held_out_accuracies():
    # each candidate's score is its fraction of correctly predicted held-out samples:
    # in [0, 1], and with unit weights a whole number of samples out of n
    X, y = categorical_data()
    scores = SPODEClassifier(random_state=0).fit(X, y).cv_scores_
    assert np.all((scores >= 0.0) & (scores <= 1.0)) and np.any(scores > 0.5)
    hits = scores * len(y)
    np.testing.assert_allclose(hits, np.round(hits), atol=1e-9)


def test_aode_falls_back_to_naive_bayes_without_support():
    X, y = categorical_data(n=40)
    aode = AODEClassifier(min_support=10_000).fit(X, y)
    nb = NaiveBayesClassifier(categorical_features="all").fit(X, y)
    np.testing.assert_allclose(aode.predict_proba(X), nb.predict_proba(X), atol=1e-12)
    with pytest.raises(ValueError, match="min_support"):
        AODEClassifier(min_support=-1).fit(X, y)


# ---------------------------------------------------------------------------
# Bayesian networks
# ---------------------------------------------------------------------------


def test_network_joint_normalises_and_counts_parameters():
    net = sprinkler()
    assert net.joint_table().sum() == pytest.approx(1.0)
    assert net.n_parameters == 1 + 2 + 2 + 4
    assert net.markov_blanket(1) == {0, 2, 3}


@pytest.mark.parametrize(
    ("parents", "cpts", "match"),
    [
        ([(1,), (0,)], None, "acyclic"),
        ([(0,)], None, "self-loop"),
        ([(), (0, 0)], None, "twice"),
        ([(), (5,)], None, r"parents\[1\]"),
        ([()], [np.array([0.5, 0.6])], r"cpts\[0\]"),
        ([()], [np.array([1.5, -0.5])], r"cpts\[0\]"),
        ([(), (0,)], [np.array([0.5, 0.5]), np.array([0.5, 0.5])], r"cpts\[1\]"),
    ],
)
def test_network_refuses_bad_structures_and_tables(parents, cpts, match):
    with pytest.raises(ValueError, match=match):
        BayesianNetwork(parents, cpts, cards=None if cpts else [2] * len(parents))


@pytest.mark.parametrize(
    ("evidence", "match"),
    [({7: 0}, "evidence"), ({0: 5}, "evidence"), ({3: 1, 1: 0, 2: 0}, "probability 0")],
)
def test_inference_refuses_bad_evidence(evidence, match):
    with pytest.raises(ValueError, match=match):
        sprinkler().posterior([0], evidence)


def test_gibbs_estimate_is_close_to_the_exact_posterior():
    net = sprinkler()
    exact = net.posterior([0], {3: 1})[1]
    est = gibbs_query(net, {0: 1}, {3: 1}, n_samples=200, burn_in=50, n_chains=500,
                      random_state=0)
    assert abs(est - exact) < 0.02
    res = gibbs_sampling(net, {3: 1}, n_samples=5, n_chains=3, random_state=0)
    assert res.samples.shape == (3, 5, 4) and np.all(res.samples[:, :, 3] == 1)
    with pytest.raises(ValueError, match="evidence"):
        gibbs_query(net, {0: 1}, {9: 1})


def test_gibbs_defaults_are_one_chain_of_100_burn_in_and_1000_kept_sweeps():
    # the documented defaults (the notes fix no burn-in or sample count)
    net = sprinkler()
    res = gibbs_sampling(net, {3: 1}, random_state=0)
    assert res.burn_in == 100 and res.samples.shape == (1, 1000, 4)
    explicit = gibbs_sampling(net, {3: 1}, n_samples=1000, burn_in=100, n_chains=1,
                              random_state=0)
    assert np.array_equal(res.samples, explicit.samples)
    assert gibbs_query(net, {0: 1}, {3: 1}, random_state=0) == explicit.estimate({0: 1})


def test_table_cap_is_2_to_the_24_cells():
    # a memory guard: one variable of 2^24 values is accepted, one more value is refused,
    # and so is a family whose table would exceed 2^24 cells
    assert BayesianNetwork([()], cards=[2**24]).cards == (2**24,)
    with pytest.raises(ValueError, match="cards"):
        BayesianNetwork([()], cards=[2**24 + 1])
    with pytest.raises(ValueError, match="cells"):
        network_score([(), (0,)], np.zeros((3, 2)), [2**12, 2**12 + 1])


def test_fit_cpts_recovers_frequencies_and_network_score_matches():
    net = sprinkler()
    X = net.sample(5000, random_state=0)
    fitted = fit_cpts(PARENTS, X, [2, 2, 2, 2])
    assert np.abs(fitted.cpts[1] - CPTS[1]).max() < 0.05
    s = network_score(PARENTS, X, [2, 2, 2, 2], "bic")
    assert s == pytest.approx(fitted.score(X, "bic"))
    assert mdl_weight("aic", 10) == 1.0 and mdl_weight("ml", 10) == 0.0
    with pytest.raises(ValueError, match=r"\bf must"):
        mdl_weight("mdl", 10)
    with pytest.raises(ValueError, match="X"):
        fit_cpts(PARENTS, X + 5, [2, 2, 2, 2])


def test_hill_climb_lowers_the_score_and_stops_at_a_local_minimum():
    X = sprinkler().sample(3000, random_state=1)
    res = hill_climb(X, [2, 2, 2, 2])
    assert res.converged and np.all(np.diff(res.score_history) < 0)
    assert len(res.network.edges) >= 3
    with pytest.warns(ConvergenceWarning):
        hill_climb(X, [2, 2, 2, 2], max_iter=1)
    with pytest.raises(ValueError, match="max_parents"):
        hill_climb(X, [2, 2, 2, 2], max_parents=-1)


def test_missing_data_em_never_lowers_the_likelihood():
    X = sprinkler().sample(800, random_state=2).astype(float)
    X[np.random.default_rng(0).random(X.shape) < 0.3] = np.nan
    net, res = fit_cpts_em(PARENTS, X, [2, 2, 2, 2], random_state=0, tol=1e-10, max_iter=300)
    assert res.converged
    assert np.all(np.diff(res.log_likelihood_history) >= -1e-9)
    assert net.joint_table().sum() == pytest.approx(1.0)
    with pytest.raises(ValueError, match="X"):
        fit_cpts_em(PARENTS, X + 3, [2, 2, 2, 2])
    with pytest.raises(ValueError, match="cards"):
        fit_cpts_em(PARENTS, np.full((3, 4), np.nan))


# ---------------------------------------------------------------------------
# Mixture of categoricals
# ---------------------------------------------------------------------------


def test_categorical_mixture_recovers_two_clusters():
    rng = np.random.default_rng(7)
    z = rng.integers(0, 2, 600)
    X = np.where(z[:, None] == 0, rng.integers(0, 2, (600, 8)),
                 rng.integers(2, 4, (600, 8))).astype(float)
    m = CategoricalMixture(2, random_state=0, tol=1e-8).fit(X)
    agree = np.mean(m.labels_ == z)
    assert max(agree, 1 - agree) == 1.0
    assert np.all(np.diff(m.log_likelihood_history_) >= -1e-9)
    assert m.score(X) == pytest.approx(m.log_likelihood_ / 600)


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"n_components": 0}, "n_components"),
        ({"n_components": 1000}, "n_components"),
        ({"alpha": -1.0}, "alpha"),
        ({"assignment": "fuzzy"}, "assignment"),
        ({"max_iter": 0}, "max_iter"),
        ({"tol": -1.0}, "tol"),
        ({"n_init": 0}, "n_init"),
    ],
)
def test_categorical_mixture_bad_hyperparameters(kwargs, match):
    X, _ = categorical_data()
    with pytest.raises(ValueError, match=match):
        CategoricalMixture(**kwargs).fit(X)


def test_categorical_mixture_warns_when_not_converged():
    X, _ = categorical_data()
    with pytest.warns(ConvergenceWarning):
        m = CategoricalMixture(3, max_iter=1, tol=0.0, random_state=0).fit(X)
    assert not m.converged_
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        CategoricalMixture(2, random_state=0, max_iter=500).fit(X)


def test_categorical_mixture_default_max_iter_is_100():
    X, _ = categorical_data()
    with pytest.warns(ConvergenceWarning, match="max_iter=100"):
        m = CategoricalMixture(2, tol=0.0, random_state=0).fit(X)
    assert m.n_iter_ == 100 and m.log_likelihood_history_.shape == (101,)


def test_d_separation_on_the_sprinkler_network():
    net = sprinkler()
    assert net.d_separated([1], [2], [0])  # fork: independent given the common cause
    assert not net.d_separated([1], [2], [0, 3])  # conditioning on the collider connects
    assert not net.d_separated([0], [3])
    with pytest.raises(ValueError, match="disjoint"):
        net.d_separated([1], [1])
    with pytest.raises(ValueError, match="x"):
        net.d_separated([9], [1])


@pytest.mark.parametrize(
    ("call", "match"),
    [
        (lambda X: fit_cpts([(1,), (0,), (), ()], X, [2, 2, 2, 2]), "acyclic"),
        (lambda X: fit_cpts(PARENTS, X, [2, 2, 2, 0]), "cards"),
        (lambda X: fit_cpts(PARENTS, X, [2, 2, 2, 2], alpha=-1.0), "alpha"),
        (lambda X: fit_cpts(PARENTS, np.where(X == 1, np.nan, X), [2, 2, 2, 2]), "NaN"),
        (lambda X: network_score(PARENTS, X, [2, 2, 2, 2], f=-1.0), r"\bf must"),
        (lambda X: hill_climb(X, [2, 2, 2, 2], score="mdl"), "score"),
        (lambda X: hill_climb(X, [2, 2, 2, 2], start=[(1,), (0,), (), ()]), "acyclic"),
        (lambda X: gibbs_sampling(sprinkler(), {3: 1}, n_samples=0), "n_samples"),
        (lambda X: gibbs_sampling(sprinkler(), {3: 1}, burn_in=-1), "burn_in"),
        (lambda X: gibbs_sampling(sprinkler(), {3: 1}, random_state="x"), "random_state"),
        (lambda X: gibbs_query(sprinkler(), {}, {3: 1}), "query"),
        (lambda X: gibbs_query(sprinkler(), {3: 0}, {3: 1}), "query"),
        (lambda X: sprinkler().posterior([0, 0]), "query"),
        (lambda X: sprinkler().sample(-1), "n_samples"),
        (lambda X: BayesianNetwork(PARENTS).n_parameters, "cards"),
        (lambda X: BayesianNetwork(PARENTS, cards=[2, 2, 2, 2]).log_prob(X), "CPTs"),
        (lambda X: fit_cpts_em(PARENTS, X, [2, 2, 2, 2], max_iter=0), "max_iter"),
        (lambda X: fit_cpts_em(PARENTS, X, [2, 2, 2, 2],
                               initial_cpts=[[np.ones(2), *CPTS[1:]]]), r"cpts\[0\]"),
    ],
)
def test_network_functions_refuse_bad_input(call, match):
    X = sprinkler().sample(50, random_state=3)
    with pytest.raises(ValueError, match=match):
        call(X)


@pytest.mark.parametrize("bad", [np.nan, np.inf])
def test_categorical_mixture_refuses_non_finite_data(bad):
    X, _ = categorical_data()
    X[0, 0] = bad
    with pytest.raises(ValueError, match="NaN|infinity"):
        CategoricalMixture().fit(X)
