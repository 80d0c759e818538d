"""Behaviour and bad input of the exact part of 003 Chapter 12: HMMs (against hmmlearn
when it is installed), MRFs, the chain CRF, variable elimination and tree BP."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from algorithms.graphical import (
    Factor,
    belief_propagation,
    crf_features,
    crf_log_partition,
    crf_log_probability,
    energy_factor,
    hmm_forward,
    hmm_log_joint,
    hmm_log_likelihood,
    hmm_sample,
    hmm_viterbi,
    markov_blanket,
    maximal_cliques,
    min_degree_order,
    mrf_joint,
    mrf_log_partition,
    separates,
    variable_elimination,
)


@pytest.fixture
def hmm():
    rng = np.random.default_rng(3)
    return rng.dirichlet(np.ones(3), 3), rng.dirichlet(np.ones(4), 3), rng.dirichlet(np.ones(3))


# ---------------------------------------------------------------------------
# HMM
# ---------------------------------------------------------------------------


def test_forward_matches_hmmlearn_scoring_and_decoding(hmm):
    hmmlearn = pytest.importorskip("hmmlearn.hmm")
    A, B, pi = hmm
    ref = hmmlearn.CategoricalHMM(n_components=3)
    ref.startprob_, ref.transmat_, ref.emissionprob_, ref.n_features = pi, A, B, 4
    x = np.random.default_rng(0).integers(0, 4, 500)
    assert hmm_log_likelihood(A, B, pi, x) == pytest.approx(ref.score(x[:, None]), rel=1e-10)
    assert hmm_forward(A, B, pi, x)[1] == pytest.approx(ref.score(x[:, None]), rel=1e-10)
    logp, path = ref.decode(x[:, None], algorithm="viterbi")
    ours, best = hmm_viterbi(A, B, pi, x)
    assert best == pytest.approx(logp, rel=1e-10)
    assert hmm_log_joint(A, B, pi, x, ours) == pytest.approx(best, rel=1e-10)


def test_batch_forward_equals_one_sequence_at_a_time(hmm):
    A, B, pi = hmm
    X = np.random.default_rng(1).integers(0, 4, (7, 12))
    batch = hmm_log_likelihood(A, B, pi, X)
    assert batch.shape == (7,)
    np.testing.assert_allclose(batch, [hmm_log_likelihood(A, B, pi, x) for x in X], rtol=1e-12)
    log_alpha, ll = hmm_forward(A, B, pi, X)
    assert log_alpha.shape == (7, 12, 3)
    np.testing.assert_allclose(ll, batch, rtol=1e-12)


def test_forward_is_finite_for_a_very_long_sequence(hmm):
    A, B, pi = hmm
    x = np.random.default_rng(2).integers(0, 4, 5000)
    ll = hmm_log_likelihood(A, B, pi, x)
    assert np.isfinite(ll) and ll < -1000  # P(x) far below the smallest float64 (e^-745)


def test_impossible_sequence_has_log_likelihood_minus_infinity():
    A = np.eye(2)
    B = np.array([[1.0, 0.0], [0.0, 1.0]])
    pi = np.array([1.0, 0.0])
    assert hmm_log_likelihood(A, B, pi, [0, 1]) == -np.inf
    assert hmm_forward(A, B, pi, [0, 1])[1] == -np.inf
    assert hmm_viterbi(A, B, pi, [0, 1])[1] == -np.inf


def test_sampler_is_seeded_and_respects_zero_probabilities():
    A = np.array([[0.0, 1.0], [1.0, 0.0]])
    B = np.array([[1.0, 0.0, 0.0], [0.0, 0.5, 0.5]])
    pi = np.array([1.0, 0.0])
    X, Y = hmm_sample(A, B, pi, 6, n_sequences=50, random_state=4)
    assert np.array_equal(Y, np.tile([0, 1, 0, 1, 0, 1], (50, 1)))
    assert np.all(X[:, ::2] == 0) and np.all(X[:, 1::2] > 0)
    X2, Y2 = hmm_sample(A, B, pi, 6, n_sequences=50, random_state=4)
    assert np.array_equal(X, X2) and np.array_equal(Y, Y2)


@pytest.mark.parametrize(("arg", "value"), [
    ("transition", np.array([[0.5, 0.6], [0.5, 0.5]])),
    ("transition", np.array([[1.2, -0.2], [0.5, 0.5]])),
    ("emission", np.array([[0.5, 0.5], [0.5, 0.4]])),
    ("initial", np.array([0.3, 0.3])),
    ("x", np.array([0, 2])),
    ("x", np.array([0.5, 1.0])),
    ("x", np.array([[[0]]])),
])
def test_hmm_refuses_bad_parameters_naming_them(arg, value):
    kwargs = {"transition": np.full((2, 2), 0.5), "emission": np.full((2, 2), 0.5),
              "initial": np.array([0.5, 0.5]), "x": np.array([0, 1])}
    kwargs[arg] = value
    with pytest.raises(ValueError, match=arg):
        hmm_log_likelihood(**kwargs)


# ---------------------------------------------------------------------------
# MRF
# ---------------------------------------------------------------------------


def test_maximal_cliques_of_a_small_graph():
    adj = np.zeros((6, 6), dtype=bool)
    for i, j in [(0, 1), (0, 2), (1, 2), (2, 3), (3, 4)]:
        adj[i, j] = adj[j, i] = True
    assert maximal_cliques(adj) == [(0, 1, 2), (2, 3), (3, 4), (5,)]
    assert markov_blanket(adj, 2) == (0, 1, 3)


def test_separation_on_a_chain_and_its_refusals():
    adj = np.zeros((4, 4), dtype=bool)
    for i in range(3):
        adj[i, i + 1] = adj[i + 1, i] = True
    assert separates(adj, [0], [3], [1])
    assert separates(adj, [0], [3], [2])
    assert not separates(adj, [0], [3], [])
    with pytest.raises(ValueError, match="disjoint"):
        separates(adj, [0], [3], [0])
    with pytest.raises(ValueError, match="adjacency"):
        separates(np.triu(np.ones((3, 3)), 1), [0], [2], [1])


def test_energy_potential_of_an_ising_pair():
    f = energy_factor((0, 1), np.array([[0.0, 1.0], [1.0, 0.0]]), np.zeros(2),
                      np.array([-1.0, 1.0]))
    # H = 2 x_0 x_1 (both ordered pairs): aligned spins have energy 2, psi = e^-2
    np.testing.assert_allclose(f.values, np.exp([[-2.0, 2.0], [2.0, -2.0]]))


def test_partition_function_of_independent_variables():
    fs = [Factor((0,), [1.0, 3.0]), Factor((1,), [2.0, 2.0, 4.0])]
    assert mrf_log_partition(fs, [2, 3]) == pytest.approx(np.log(4.0 * 8.0))
    np.testing.assert_allclose(mrf_joint(fs, [2, 3]), np.outer([0.25, 0.75], [0.25, 0.25, 0.5]))


def test_factor_refuses_negative_values_and_repeated_variables():
    with pytest.raises(ValueError, match="values"):
        Factor((0, 1), -np.ones((2, 2)))
    with pytest.raises(ValueError, match="variables"):
        Factor((0, 0), np.ones((2, 2)))
    with pytest.raises(ValueError, match="values"):
        Factor((0, 1), np.ones(2))


# ---------------------------------------------------------------------------
# CRF
# ---------------------------------------------------------------------------


def test_crf_features_and_normalisation_on_a_named_example():
    x = np.array([0.5, -1.0, 2.0])
    T, S = crf_features(x, [lambda b, a, x, i: float(a == b)], [lambda a, x, i: a * x[i]], 2)
    assert T.shape == (1, 2, 2, 2) and S.shape == (1, 3, 2)
    lam, mu = np.array([0.7]), np.array([1.3])
    Y = np.array(list(itertools.product(range(2), repeat=3)))
    lp = crf_log_probability(Y, T, S, lam, mu)
    assert np.exp(lp).sum() == pytest.approx(1.0)
    # y = (1, 1, 1): two agreeing transitions and the state scores of every position
    score = 0.7 * 2 + 1.3 * x.sum()
    assert lp[-1] == pytest.approx(score - crf_log_partition(T, S, lam, mu))


def test_crf_refuses_mismatched_weights():
    rng = np.random.default_rng(0)
    T, S = rng.normal(size=(2, 3, 2, 2)), rng.normal(size=(1, 4, 2))
    with pytest.raises(ValueError, match="transition_weights"):
        crf_log_partition(T, S, np.ones(3), np.ones(1))
    with pytest.raises(ValueError, match="state_weights"):
        crf_log_partition(T, S, np.ones(2), np.ones(2))
    with pytest.raises(ValueError, match="transition_features"):
        crf_log_partition(T[:, :2], S, np.ones(2), np.ones(1))


# ---------------------------------------------------------------------------
# Variable elimination and belief propagation
# ---------------------------------------------------------------------------


def _chain_factors(rng, n=5, k=2):
    return [Factor((i, i + 1), rng.random((k, k)) + 0.1) for i in range(n - 1)]


def test_min_degree_eliminates_chain_ends_first():
    fs = _chain_factors(np.random.default_rng(0))
    assert min_degree_order(fs, [0, 1, 3, 4]) == (0, 1, 4, 3)


def test_variable_elimination_records_its_work():
    fs = _chain_factors(np.random.default_rng(1))
    res = variable_elimination(fs, [2], record=True)
    assert res.n_eliminations == 4 and len(res.intermediates) == 4
    assert res.n_operations > 0 and res.probabilities.shape == (2,)
    assert res.probabilities.sum() == pytest.approx(1.0)


def test_variable_elimination_refuses_bad_requests():
    fs = _chain_factors(np.random.default_rng(2))
    with pytest.raises(ValueError, match="order"):
        variable_elimination(fs, [2], order=[0, 1, 3])
    with pytest.raises(ValueError, match="overlap"):
        variable_elimination(fs, [2], evidence={2: 0})
    with pytest.raises(ValueError, match="evidence"):
        variable_elimination(fs, [2], evidence={0: 2})
    with pytest.raises(ValueError, match="evidence"):
        variable_elimination([Factor((0,), [1.0, 0.0])], [], evidence={0: 1})


def test_variable_elimination_handles_huge_and_tiny_potentials():
    fs = [Factor((0, 1), np.array([[1e300, 1e-300], [1.0, 1e300]])),
          Factor((1, 2), np.array([[1e-300, 1e300], [1e300, 1e300]]))]
    res = variable_elimination(fs, [0])
    assert np.all(np.isfinite(res.probabilities)) and np.isfinite(res.log_normalizer)


def test_belief_propagation_refuses_cycles_and_forests():
    psi = np.ones((3, 2, 2))
    with pytest.raises(ValueError, match="cycle"):
        belief_propagation(np.array([[0, 1], [1, 2], [2, 0]]), psi)
    with pytest.raises(ValueError, match="edges"):
        belief_propagation(np.array([[0, 1], [1, 0], [2, 3]]), psi)
    with pytest.raises(ValueError, match="edges"):
        belief_propagation(np.array([[0, 1], [1, 1], [2, 3]]), psi)


def test_belief_propagation_on_one_node_and_on_a_star():
    res = belief_propagation(np.zeros((0, 2), dtype=int), np.zeros((0, 3, 3)),
                             np.array([[1.0, 2.0, 1.0]]))
    np.testing.assert_allclose(res.marginals, [[0.25, 0.5, 0.25]])
    assert res.n_messages == 0
    edges = np.array([[0, i] for i in range(1, 6)])
    psi = np.tile(np.array([[2.0, 1.0], [1.0, 2.0]]), (5, 1, 1))
    res = belief_propagation(edges, psi, root=3)
    assert res.n_messages == 10
    # leaves first (towards the root 3 through the centre 0), then back out
    assert res.schedule[:5] == [(5, 0), (4, 0), (2, 0), (1, 0), (0, 3)]
    assert res.schedule[5:] == [(3, 0), (0, 1), (0, 2), (0, 4), (0, 5)]
    np.testing.assert_allclose(res.marginals, 0.5)


def test_variable_elimination_on_the_hmm_as_a_bayesian_network(hmm):
    """The HMM's conditional tables as factors (y_t = variable t, x_t = variable n + t):
    eliminating the states with x as evidence gives the forward algorithm's P(x), and the
    query y_t its posterior, which forward-backward by enumeration confirms."""
    A, B, pi = hmm
    n = 5
    x = np.random.default_rng(5).integers(0, 4, n)
    fs = [Factor((0,), pi)] + [Factor((t - 1, t), A) for t in range(1, n)]
    fs += [Factor((t, n + t), B) for t in range(n)]
    evidence = {n + t: int(x[t]) for t in range(n)}
    res = variable_elimination(fs, [], evidence)
    assert res.log_normalizer == pytest.approx(hmm_log_likelihood(A, B, pi, x), rel=1e-12)
    post = variable_elimination(fs, [2], evidence).probabilities
    paths = np.array(list(itertools.product(range(3), repeat=n)))
    joint = np.exp(hmm_log_joint(A, B, pi, np.tile(x, (len(paths), 1)), paths))
    ref = np.array([joint[paths[:, 2] == s].sum() for s in range(3)]) / joint.sum()
    np.testing.assert_allclose(post, ref, rtol=1e-12)


@pytest.mark.parametrize("tiny", [1e-3, 1e-100, 1e-250])
def test_chunked_single_sequence_forward_equals_the_step_by_step_recursion(tiny):
    """A single sequence runs the recursion in chunks, a batch step by step: the two agree
    on long sequences whose emissions differ by up to 1e-250 between the states (where
    a chunk's rows span hundreds of orders of magnitude) and with forbidden transitions."""
    A = np.array([[0.9, 0.1, 0.0], [0.0, 0.8, 0.2], [0.3, 0.0, 0.7]])
    B = np.array([[1.0 - tiny, tiny], [0.5, 0.5], [tiny, 1.0 - tiny]])
    pi = np.array([0.2, 0.3, 0.5])
    x = np.random.default_rng(6).integers(0, 2, 3001)
    single = hmm_log_likelihood(A, B, pi, x)
    batch = hmm_log_likelihood(A, B, pi, np.stack([x, x]))
    assert np.isfinite(single)
    np.testing.assert_allclose(batch, single, rtol=1e-10)
