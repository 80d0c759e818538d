"""Check bodies of the claims on the other networks of 003 §3.5.2-§3.5.6, shared by the
claims and by tests/neural/test_teeth_other.py (which runs them on broken variants).

Every check recomputes what it asserts with code of its own (distances, energies,
forward passes, correlations), from what the algorithms recorded.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable

import numpy as np
from scipy.special import expit, logsumexp
from sklearn.manifold import trustworthiness

from mltheory import evidence
from mltheory.numeric import EXACT_ARITHMETIC, LINEAR_ALGEBRA, Tolerance, assert_close

#: Replaying an online algorithm step by step: the same float operations in the same
#: order, up to the summation order inside a norm (a few ulps per step, over <= 40 steps).
REPLAY = Tolerance(rtol=1e-9, atol=1e-12, reason="the replay repeats the update formula; "
                   "norms and sums may round differently by a few ulps per step")
#: Central differences with h = 1e-6 on functions built from sigmoids of moderate inputs:
#: truncation O(h^2 |f'''|) ~ 1e-12 and rounding eps |f| / h ~ 1e-10 relative to the
#: function's scale; 100x margin.
FINITE_DIFFERENCES = Tolerance(rtol=1e-6, atol=1e-7, reason="central differences, h=1e-6: "
                               "truncation ~1e-12, rounding eps*|f|/h ~1e-10; 100x margin")
FD_STEP = 1e-6


# ---------------------------------------------------------------------------
# ART
# ---------------------------------------------------------------------------


def own_similarity(x: np.ndarray, P: np.ndarray) -> np.ndarray:
    """``1 / (1 + ||x - c||)`` for each row ``c`` of ``P``, by math.hypot (no squares)."""
    return np.array([1.0 / (1.0 + math.hypot(*(x - c))) for c in P])


def check_art_run(est, X: np.ndarray, rho: float, eta: float) -> dict:
    """Replay the recorded presentations of an ART fit: at every step the recorded winner
    is a most similar unit (winner-take-all), a new unit is created exactly when the layer
    is empty or the winner's similarity is at most ``rho`` (with prototype ``x``, no other
    prototype changed), and otherwise only the winner moves, to ``c + eta (x - c)``.
    Returns figures for the evidence."""
    P: list[np.ndarray] = []
    scale = max(1.0, float(np.max(np.abs(X))))
    margin = math.inf
    for t, (j, w, s, created) in enumerate(zip(est.order_, est.winners_,
                                               est.winner_similarity_, est.created_,
                                               strict=True)):
        x = X[j]
        if P:
            sims = own_similarity(x, np.array(P))
            top = float(sims.max())
            assert_close(s, top, REPLAY, label="|recorded - replayed winner similarity|",
                         context=f"presentation {t}: ")
            margin = min(margin, abs(top - rho))
            if abs(top - rho) < 1e-9:  # a tie with the vigilance: either decision rounds
                expect_new = bool(created)
            else:
                expect_new = top <= rho
        else:
            expect_new = True
        assert bool(created) == expect_new, (
            f"presentation {t}: created={bool(created)} but the winner's similarity is "
            f"{(top if P else 0.0)!r} against vigilance {rho!r}")
        if expect_new:
            assert w == len(P), f"presentation {t}: a new unit must take index {len(P)}"
            P.append(x.copy())
            continue
        assert sims[w] >= top - 1e-12, (
            f"presentation {t}: unit {w} (similarity {sims[w]!r}) won although unit "
            f"{int(np.argmax(sims))} is more similar ({top!r})")
        before = P[w]
        P[w] = before + eta * (x - before)
        assert_close(np.linalg.norm(x - P[w]), (1.0 - eta) * np.linalg.norm(x - before),
                     REPLAY, scale=scale, label="| ||x - c'|| - (1 - eta) ||x - c|| |",
                     context=f"presentation {t}: ")
    assert_close(np.array(P).reshape(est.prototypes_.shape), est.prototypes_, REPLAY,
                 scale=scale, label="|replayed - fitted prototypes| / scale")
    return {"units": len(P), "margin": margin}


def check_one_active_unit(est, X: np.ndarray) -> None:
    """The recognition layer's output has exactly one active unit per sample, a unit of
    largest similarity (by this module's own distances)."""
    out = est.transform(X)
    assert out.shape == (X.shape[0], est.n_units_)
    assert np.all((out == 0) | (out == 1)), "recognition outputs must be 0 or 1"
    active = out.sum(axis=1)
    assert np.all(active == 1), f"rows with {sorted(set(active.tolist()))} active units"
    for i, x in enumerate(X):
        sims = own_similarity(x, est.prototypes_)
        won = int(np.argmax(out[i]))
        assert sims[won] >= sims.max() - 1e-12, (
            f"sample {i}: unit {won} is active but unit {int(np.argmax(sims))} is more "
            "similar")


# ---------------------------------------------------------------------------
# SOM
# ---------------------------------------------------------------------------


def som_data(kind: str, rng: np.random.Generator, n: int) -> np.ndarray:
    """A curved 2-d sheet in R^5 (``"sheet"``) or the uniform 3-d cube (``"cube"``)."""
    if kind == "sheet":
        u = rng.uniform(size=(n, 2))
        lift = np.column_stack([u, np.sin(2.0 * u[:, 0]), np.cos(1.5 * u[:, 1])])
        return lift @ rng.normal(size=(4, 5))
    return rng.uniform(size=(n, 3))


def check_topology_beats_random(fit_map: Callable[[np.ndarray, int], object],
                                rng: np.random.Generator, *, n_maps: int = 4,
                                n_perm: int = 99, n_samples: int = 200) -> None:
    """Trustworthiness (scikit-learn, k = 4) of the lattice as an embedding of the
    prototypes, trained map against the same prototypes randomly permuted over the lattice.

    Decision rule: every one of ``n_maps`` independently trained maps beats all of its
    ``n_perm`` permutations. Under the null hypothesis that the trained arrangement is no
    better than a random one, each map does so with probability at most 1/(n_perm + 1),
    so all do with probability at most (1/(n_perm + 1))^n_maps = 1e-8 for 4 maps and 99
    permutations: below the suite's 1e-6.
    """
    assert (1.0 / (n_perm + 1)) ** n_maps <= 1e-6, "the decision rule is too weak"
    worst_gap = math.inf
    for i in range(n_maps):
        kind = ("sheet", "cube")[i % 2]
        X = som_data(kind, rng, n_samples)
        som = fit_map(X, int(rng.integers(2**32)))
        W, L = som.weights_, som.lattice_
        trained = trustworthiness(W, L, n_neighbors=4)
        randoms = np.array([trustworthiness(W[rng.permutation(W.shape[0])], L, n_neighbors=4)
                            for _ in range(n_perm)])
        beaten = int(np.sum(randoms >= trained))
        evidence.worst(f"{kind}: trustworthiness of the trained map", trained,
                       larger_is_worse=False)
        evidence.worst(f"{kind}: best of {n_perm} random arrangements", float(randoms.max()))
        worst_gap = min(worst_gap, trained - float(randoms.max()))
        evidence.series(f"{kind} maps", [float(randoms.max())], [trained], kind="scatter",
                        plot="SOM: trained trustworthiness against the best random map",
                        xlabel="best of 99 random arrangements", ylabel="trained map",
                        reference="y=x")
        assert beaten == 0, (
            f"map {i} ({kind} data): trustworthiness {trained:.4f} is matched or beaten by "
            f"{beaten} of {n_perm} random arrangements (best {randoms.max():.4f})")
    evidence.worst("smallest gap trained - best random", worst_gap, larger_is_worse=False)
    evidence.add_examples(n_maps)


def check_som_replay(som, X: np.ndarray, *, width: float = 2.0, rate: float = 1.0) -> None:
    """Replay a SOM fit from its initial weights and recorded presentation order: at every
    step the recorded unit is the best match of the replayed weights, and every unit ``u``
    moves by ``eta_t exp(-||r_u - r_b||^2 / (width sigma_t^2)) (x - w_u)`` (``width = 2``,
    ``rate = 1``: the Gaussian neighbourhood of the recorded schedules); the replay ends on
    the fitted weights. The broken variants of the teeth tests change ``width``/``rate``."""
    W = som.initial_weights_.copy()
    L = som.lattice_
    lattice_sq = ((L[:, None, :] - L[None, :, :]) ** 2).sum(axis=2)
    scale = max(1.0, float(np.max(np.abs(X))))
    worst_gap = math.inf
    for t, (j, b) in enumerate(zip(som.order_, som.bmus_, strict=True)):
        d = np.sqrt(((X[j] - W) ** 2).sum(axis=1))
        second = np.partition(d, 1)[1] if d.shape[0] > 1 else math.inf
        worst_gap = min(worst_gap, float(second - d.min()))
        assert d[b] <= d.min() + 1e-9 * scale, (
            f"step {t}: unit {b} recorded as best match, unit {int(np.argmin(d))} is nearer")
        h = np.exp(-lattice_sq[b] / (width * som.radius_history_[t] ** 2))
        W = W + (rate * som.learning_rate_history_[t] * h)[:, None] * (X[j] - W)
    evidence.worst("smallest gap between best and second-best unit", worst_gap,
                   larger_is_worse=False)
    assert_close(W, som.weights_, REPLAY, scale=scale,
                 label="|replayed - fitted weights| / scale")


def check_neighbours_adjacent(som, X: np.ndarray) -> None:
    """(As printed) topology preserved: every sample's nearest other sample has its
    best-matching unit on the same or a lattice-adjacent unit (Chebyshev distance <= 1)."""
    D = np.sqrt(((X[:, None] - X[None]) ** 2).sum(axis=2))
    np.fill_diagonal(D, np.inf)
    nn = np.argmin(D, axis=1)
    pos = som.transform(X)
    jump = np.max(np.abs(pos - pos[nn]), axis=1)
    worst = int(np.argmax(jump))
    evidence.worst("largest lattice jump between nearest inputs", float(jump[worst]))
    assert jump[worst] <= 1, (
        f"samples {worst} and {int(nn[worst])} are nearest neighbours (distance "
        f"{D[worst, nn[worst]]:.4g}) but sit on units {pos[worst].tolist()} and "
        f"{pos[nn[worst]].tolist()}, {int(jump[worst])} lattice steps apart")


# ---------------------------------------------------------------------------
# Cascade-correlation
# ---------------------------------------------------------------------------


def own_correlation(V: np.ndarray, E: np.ndarray) -> float:
    """Fahlman's S of one candidate output V (m,) against residuals E (m, l)."""
    Vc = V - V.mean()
    return float(sum(abs(float(np.dot(Vc, E[:, o] - E[:, o].mean())))
                     for o in range(E.shape[1])))


def check_cascade_run(est, X: np.ndarray, Y: np.ndarray) -> np.ndarray:
    """Replay a cascade-correlation fit (``record_history=True``) with an own forward pass:

    - structure: unit k reads the inputs, a bias and the k - 1 earlier units;
    - every candidate's recorded S trace is S of its recorded weight path, is
      non-decreasing, and ends strictly above where it started;
    - every output retraining is a least-squares optimum (normal equations) whose error is
      the recorded one, and the recorded errors never increase.

    ``Y`` (m, l) are the targets as the network sees them (standardised for regression).
    Returns the replayed features of the final network (inputs, bias, hidden units).
    """
    Z = np.column_stack([(X - est.x_mean_) / est.x_scale_, np.ones(X.shape[0])])
    errors = est.training_error_history_
    assert errors.shape == (est.n_hidden_ + 1,)
    for k in range(est.n_hidden_ + 1):
        Wk = est.output_weights_history_[k]
        R = Z @ Wk - Y
        E_k = 0.5 * float(np.mean(np.sum(R**2, axis=1)))
        assert_close(errors[k], E_k, LINEAR_ALGEBRA, scale=max(1.0, float(np.mean(Y**2))),
                     label="|recorded - recomputed training error|", context=f"stage {k}: ")
        normal = float(np.max(np.abs(Z.T @ R))) / (np.linalg.norm(Z) * max(np.linalg.norm(Y),
                                                                           1e-300))
        evidence.worst("normal-equation residual |Z^T R| / (|Z| |Y|)", normal)
        assert normal < 1e-8, f"stage {k}: the output weights are not a least-squares fit"
        if k > 0:
            evidence.worst("training error ratio E_k / E_{k-1}", errors[k] / errors[k - 1]
                           if errors[k - 1] > 0 else 0.0)
            assert errors[k] <= errors[k - 1] * (1 + 1e-12) + 1e-15, (
                f"stage {k}: retraining the outputs raised the training error from "
                f"{errors[k - 1]!r} to {errors[k]!r}")
        if k == est.n_hidden_:
            return Z
        assert_close(est.residual_history_[k], R, LINEAR_ALGEBRA, scale=1.0,
                     label="|recorded - recomputed residuals|", context=f"stage {k}: ")
        path = est.candidate_weights_history_[k]
        trace = est.candidate_correlation_history_[k]
        n_steps = int(est.candidate_n_iter_[k])
        assert path.shape[0] == trace.shape[0] == n_steps + 1, (
            f"unit {k}: {trace.shape[0]} recorded S values for {n_steps} ascent steps")
        assert 1 <= n_steps <= est.candidate_max_iter, f"unit {k}: {n_steps} steps"
        w = est.hidden_weights_[k]
        assert w.shape == (Z.shape[1],), (
            f"unit {k} must read {Z.shape[1]} values (inputs, bias, {k} earlier units)")
        assert_close(path[-1], w, EXACT_ARITHMETIC, label="|installed - last candidate|")
        S = np.array([own_correlation(expit(Z @ v), R) for v in path])
        assert_close(trace, S, LINEAR_ALGEBRA, scale=max(1.0, float(S.max())),
                     label="|recorded - recomputed S| / S")
        drops = np.diff(S)
        evidence.worst("largest decrease of S in a candidate trace / S",
                       float(max(0.0, -drops.min(initial=0.0)) / max(S.max(), 1e-300)))
        assert np.all(drops >= -1e-12 * max(S.max(), 1.0)), (
            f"unit {k}: S decreased during candidate training: {S.tolist()[:20]}")
        evidence.worst("candidate gain S_end / S_start", S[-1] / S[0] if S[0] > 0 else
                       math.inf, larger_is_worse=False)
        assert S[-1] > S[0], f"unit {k}: candidate training never raised S (S = {S[0]!r})"
        Z = np.column_stack([Z, expit(Z @ w)])
    raise AssertionError("unreachable: the loop returns at the last stage")


def check_correlation_gradient(Z: np.ndarray, w: np.ndarray, E: np.ndarray,
                               gradient: Callable) -> float:
    """``gradient(Z, w, E)`` returns (S, dS/dw); both against this module's S and its
    central differences. Returns the relative error."""
    S, g = gradient(Z, w, E)
    assert_close(S, own_correlation(expit(Z @ w), E), LINEAR_ALGEBRA, label="|S - own S|")
    fd = np.empty_like(w)
    for i in range(w.shape[0]):
        up, down = w.copy(), w.copy()
        up[i] += FD_STEP
        down[i] -= FD_STEP
        fd[i] = (own_correlation(expit(Z @ up), E) - own_correlation(expit(Z @ down), E)) / (
            2 * FD_STEP)
    scale = max(1.0, float(np.max(np.abs(fd))))
    return assert_close(g, fd, FINITE_DIFFERENCES, scale=scale,
                        label="|dS/dw - finite differences| / scale")


# ---------------------------------------------------------------------------
# Elman
# ---------------------------------------------------------------------------


def own_elman_forward(params: dict, X: np.ndarray, output: str
                      ) -> tuple[np.ndarray, np.ndarray]:
    """Hidden states and outputs, sequence by sequence and step by step."""
    n, T, _ = X.shape
    q = params["U"].shape[0]
    H = np.zeros((n, T, q))
    out = np.zeros((n, T, params["W"].shape[1]))
    for s in range(n):
        h = np.zeros(q)
        for t in range(T):
            h = expit(X[s, t] @ params["V"] + h @ params["U"] - params["gamma"])
            H[s, t] = h
            o = h @ params["W"] - params["theta"]
            out[s, t] = expit(o) if output == "sigmoid" else o
    return H, out


def own_elman_loss(params: dict, X: np.ndarray, Y: np.ndarray, output: str) -> float:
    """E = (1/m) sum_k (1/2) sum_t ||yhat_t - y_t||^2."""
    _, out = own_elman_forward(params, X, output)
    return float(0.5 * np.sum((out - Y) ** 2) / X.shape[0])


def check_bptt_gradient(net, X: np.ndarray, Y: np.ndarray,
                        gradient: Callable | None = None) -> float:
    """The BPTT gradient (``gradient(net, X, Y)``, default ``net.loss_gradient``) equals
    central differences of this module's own loss, parameter by parameter; the network's
    loss equals the own loss. Returns the relative error."""
    params = net.params_
    output = net.output_activation
    grad = (gradient or (lambda n, a, b: n.loss_gradient(a, b)))(net, X, Y)
    assert_close(net.loss(X, Y), own_elman_loss(params, X, Y, output), LINEAR_ALGEBRA,
                 label="|network loss - own loss|")
    err = 0.0
    for k, value in params.items():
        fd = np.empty_like(value)
        for idx in np.ndindex(value.shape):
            up = {kk: vv.copy() for kk, vv in params.items()}
            down = {kk: vv.copy() for kk, vv in params.items()}
            up[k][idx] += FD_STEP
            down[k][idx] -= FD_STEP
            fd[idx] = (own_elman_loss(up, X, Y, output) - own_elman_loss(down, X, Y, output)
                       ) / (2 * FD_STEP)
        scale = max(1.0, own_elman_loss(params, X, Y, output))
        err = max(err, assert_close(grad[k], fd, FINITE_DIFFERENCES, scale=scale,
                                    label="|BPTT - finite differences| / max(1, E)",
                                    context=f"dE/d{k}: "))
    return err


def check_state_dependence(net, X: np.ndarray, rng: np.random.Generator) -> None:
    """Output at ``t`` is ``g(f(x_t V + h_{t-1} U - gamma) W - theta)`` of the input at
    ``t`` and the recorded state at ``t - 1``; it changes when only ``x_t`` changes and
    when only an earlier input changes (through the state), and not when a later one does."""
    params, output = net.params_, net.output_activation
    H = net.hidden_states(X)
    out = net.predict(X).reshape(X.shape[0], X.shape[1], -1)
    n, T, _ = X.shape
    prev = np.concatenate([np.zeros_like(H[:, :1]), H[:, :-1]], axis=1)
    h = expit(X @ params["V"] + prev @ params["U"] - params["gamma"])
    o = h @ params["W"] - params["theta"]
    one_step = expit(o) if output == "sigmoid" else o
    assert_close(out, one_step, EXACT_ARITHMETIC, label="|yhat_t - g(f(x_t, h_{t-1}))|")
    t = int(rng.integers(1, T))
    shift = 3.0 * np.sign(rng.normal(size=X.shape[2])) + 0.5
    later = X.copy()
    later[:, t:] += shift
    before = net.predict(later).reshape(out.shape)
    assert np.array_equal(before[:, :t], out[:, :t]), "an output depends on a later input"
    now = X.copy()
    now[:, t] += shift
    d_input = np.max(np.abs(net.predict(now).reshape(out.shape)[:, t] - out[:, t]), axis=1)
    past = X.copy()
    past[:, t - 1] += shift
    d_state = np.max(np.abs(net.predict(past).reshape(out.shape)[:, t] - out[:, t]), axis=1)
    evidence.worst("smallest output change from x_t", float(d_input.min()),
                   larger_is_worse=False)
    evidence.worst("smallest output change from the state (x_{t-1} changed)",
                   float(d_state.min()), larger_is_worse=False)
    # "depends" means any change at all: without a context (U = 0) the change is exactly
    # 0.0, since h_{t-1} @ 0 contributes nothing, bit for bit
    assert np.all(d_input > 0), f"the output at t={t} ignores the input at t: {d_input}"
    assert np.all(d_state > 0), (
        f"the output at t={t} ignores the state at t-1 (an earlier input changed, the "
        f"output moved by {d_state.min():.3g})")


# ---------------------------------------------------------------------------
# Boltzmann machines and RBMs
# ---------------------------------------------------------------------------


def own_energies(S: np.ndarray, W: np.ndarray, theta: np.ndarray) -> np.ndarray:
    """-sum_{i<j} w_ij s_i s_j - sum_i theta_i s_i of every row of S, from the strict
    upper triangle of W (each pair once), term by term."""
    upper = np.triu(W, 1)
    return -np.einsum("ki,kj,ij->k", S, S, upper) - S @ theta


def check_boltzmann_distribution(W: np.ndarray, theta: np.ndarray,
                                 log_probabilities: Callable) -> None:
    """``log_probabilities(W, theta) -> (states, log_p)`` enumerates all 2^n states once,
    normalised, with log P(s) - log P(t) = E(t) - E(s) by the own energy; the most
    probable states are exactly the minimum-energy states."""
    n = W.shape[0]
    states, log_p = log_probabilities(W, theta)
    keys = {tuple(int(v) for v in s) for s in states}
    assert len(keys) == 2**n == states.shape[0], "not every state enumerated exactly once"
    E = own_energies(states, W, theta)
    scale = max(1.0, float(np.max(np.abs(E))))
    assert_close(logsumexp(log_p), 0.0, Tolerance(rtol=0, atol=1e-12 * scale, reason="a "
                 "log-sum-exp of 2^n terms of size |E|: rounding ~ eps |E|"),
                 label="|log sum P|")
    assert_close(log_p - log_p[0], -(E - E[0]), EXACT_ARITHMETIC, scale=scale,
                 label="|log P(s)/P(s0) - (E(s0) - E(s))| / max|E|")
    tie = 1e-12 * scale
    most_probable = set(np.flatnonzero(log_p >= log_p.max() - tie).tolist())
    lowest = set(np.flatnonzero(E <= E.min() + tie).tolist())
    evidence.worst("units", n)
    assert most_probable == lowest, (
        f"the most probable states {sorted(most_probable)} are not the minimum-energy "
        f"states {sorted(lowest)}")


def own_rbm_log_likelihood(V: np.ndarray, W: np.ndarray, b: np.ndarray, c: np.ndarray
                           ) -> float:
    """Mean log P(v) of the rows of V by enumerating every joint state (v, h)."""
    n_v, n_h = W.shape
    hs = np.array(list(itertools.product((0.0, 1.0), repeat=n_h))).reshape(-1, n_h)
    vs = np.array(list(itertools.product((0.0, 1.0), repeat=n_v))).reshape(-1, n_v)
    neg_e = (vs @ b)[:, None] + (hs @ c)[None, :] + vs @ W @ hs.T  # -E(v, h)
    log_z = logsumexp(neg_e)
    idx = (V @ (2 ** np.arange(n_v - 1, -1, -1))).astype(int)  # row of v in vs
    return float(np.mean(logsumexp(neg_e[idx], axis=1)) - log_z)


def cd_likelihood_runs(rng: np.random.Generator, runs: int, fit: Callable, k: int
                       ) -> tuple[int, np.ndarray, float]:
    """``runs`` independent CD-k trainings (``fit(X, k, seed) -> RBM`` with
    ``record_history=True``) on data from random binary prototypes with 10 % flips; the
    number of runs whose exact log-likelihood ended above its initial value, the gains,
    and the fraction of epochs that raised it."""
    wins, gains, epoch_up, epochs = 0, [], 0, 0
    for _ in range(runs):
        protos = rng.integers(0, 2, size=(3, 6))
        X = protos[rng.integers(3, size=24)].astype(float)
        X = np.abs(X - (rng.random(X.shape) < 0.1))
        rbm = fit(X, k, int(rng.integers(2**32)))
        lls = np.array([own_rbm_log_likelihood(X, Wt.T, b, c) for Wt, c, b in rbm.history_])
        gains.append(lls[-1] - lls[0])
        wins += int(lls[-1] > lls[0])
        epoch_up += int(np.sum(np.diff(lls) > 0))
        epochs += lls.shape[0] - 1
    return wins, np.array(gains), epoch_up / max(epochs, 1)


def exact_cd_update(V0: np.ndarray, W: np.ndarray, b: np.ndarray, c: np.ndarray, k: int
                    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The expected CD-k update direction (Delta W, Delta b, Delta c) / eta of the batch
    ``V0``, exactly: the k-step block-Gibbs chain on the visible states as a 2^n_v
    transition matrix T(v, v') = sum_h P(h | v) P(v' | h), enumerated."""
    n_v, n_h = W.shape
    vs = np.array(list(itertools.product((0.0, 1.0), repeat=n_v))).reshape(-1, n_v)
    hs = np.array(list(itertools.product((0.0, 1.0), repeat=n_h))).reshape(-1, n_h)

    def bernoulli(p, states):  # P(states | probabilities p), one row of p per condition
        return np.prod(np.where(states[None, :, :] == 1, p[:, None, :], 1 - p[:, None, :]),
                       axis=2)

    p_h = bernoulli(expit(c + vs @ W), hs)  # (2^n_v, 2^n_h): P(h | v)
    p_v = bernoulli(expit(b + hs @ W.T), vs)  # (2^n_h, 2^n_v): P(v' | h)
    T = p_h @ p_v
    idx = (V0 @ (2 ** np.arange(n_v - 1, -1, -1))).astype(int)
    P_k = np.linalg.matrix_power(T, k)[idx]  # (batch, 2^n_v): law of v^k
    ph_all = expit(c + vs @ W)  # P(h = 1 | v) of every v
    ph0 = expit(c + V0 @ W)
    neg_W = np.einsum("bs,si,sj->ij", P_k, vs, ph_all) / V0.shape[0]
    dW = V0.T @ ph0 / V0.shape[0] - neg_W
    db = V0.mean(axis=0) - (P_k @ vs).mean(axis=0)
    dc = ph0.mean(axis=0) - (P_k @ ph_all).mean(axis=0)
    return dW, db, dc


def check_cd_expectation(rbm, V0: np.ndarray, k: int, copies: int, seed: int) -> float:
    """One CD-k update (``rbm.cd_update``) on ``copies`` stacked copies of the batch
    ``V0`` averages that many independent chains; every entry of its direction
    (update / eta) must lie within the Hoeffding radius of the exact expectation.

    Each chain's contribution to an entry lies in [-1, 1], so the mean of M = copies *
    batch of them is off by t or more with probability at most 2 exp(-M t^2 / 2); t is
    chosen so that this, summed over all entries, is 1e-6. Returns max deviation / t."""
    W0, b0, c0 = rbm.components_.T.copy(), rbm.intercept_visible_.copy(), \
        rbm.intercept_hidden_.copy()
    eta = rbm.learning_rate
    rbm.cd_update(np.tile(V0, (copies, 1)), random_state=seed)
    got = ((rbm.components_.T - W0) / eta, (rbm.intercept_visible_ - b0) / eta,
           (rbm.intercept_hidden_ - c0) / eta)
    want = exact_cd_update(V0, W0, b0, c0, k)
    entries = sum(a.size for a in want)
    M = copies * V0.shape[0]
    t = math.sqrt(2.0 * math.log(2.0 * entries / 1e-6) / M)
    dev = max(float(np.max(np.abs(g - w))) for g, w in zip(got, want, strict=True))
    evidence.worst("max |CD-k direction - exact expectation| / Hoeffding radius", dev / t)
    assert dev <= t, (
        f"the CD-{k} update deviates from its exact expectation by {dev:.4g} > {t:.4g}, "
        "the Hoeffding radius at 1e-6")
    return dev / t


def check_cd_limit(V0: np.ndarray, W: np.ndarray, b: np.ndarray, c: np.ndarray, k: int,
                   direction: Callable = exact_cd_update) -> None:
    """``direction(V0, W, b, c, k)`` (the expected CD-k direction) equals central finite
    differences of the batch's mean exact log-likelihood in W, b and c."""
    params = [W.copy(), b.copy(), c.copy()]
    fd = []
    for p in params:
        g = np.empty_like(p)
        for idx in np.ndindex(p.shape):
            old = p[idx]
            p[idx] = old + FD_STEP
            up = own_rbm_log_likelihood(V0, *params)
            p[idx] = old - FD_STEP
            down = own_rbm_log_likelihood(V0, *params)
            p[idx] = old
            g[idx] = (up - down) / (2 * FD_STEP)
        fd.append(g)
    for name, got, want in zip(("W", "b", "c"), direction(V0, W, b, c, k), fd, strict=True):
        assert_close(got, want, FINITE_DIFFERENCES, scale=1.0,
                     label="|CD-k direction - d loglik / d theta|", context=f"{name}: ")
    one = exact_cd_update(V0, W, b, c, 1)
    evidence.worst("|CD-1 direction - gradient| (not a check)",
                   max(float(np.max(np.abs(a - g))) for a, g in zip(one, fd, strict=True)))
