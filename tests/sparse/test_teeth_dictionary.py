"""The dictionary-learning and matrix-completion checks have teeth: the check bodies the
claims of 003 §10.5-§10.6 use refute deliberately broken variants (the 1/2 of the
objective misplaced, codes of the wrong sample, a wrong index in E_i, the second singular
pair, sigma_1 scaled by 0.9, a dictionary step scaled by 1.1, a tampered record, the
bound cut to 0.9 rank, recovery from too few entries)."""

import types

import numpy as np
import pytest
import scipy.linalg
from hypothesis import example, given
from hypothesis import strategies as st

import algorithms.sparse._dictionary as dictionary_module
from algorithms.sparse import ksvd_update, nuclear_norm
from mltheory.testing import assert_holds, assert_refutes
from properties.sparse.completion import check_recovery
from properties.sparse.strategies_dictionary import (
    SEEDS,
    Factorisation,
    coding_problems,
    factorisations,
    frobenius_ball_matrices,
    spectral_ball_matrices,
)
from properties.sparse.support_dictionary import (
    check_alternating_monotone,
    check_decomposition,
    check_frobenius,
    check_frobenius_envelope,
    check_ksvd_alternation,
    check_ksvd_update,
    check_nuclear_norm,
    check_rank_bound,
    check_rank_one,
    check_rescaling,
    check_separable_coding,
    lasso_coder,
    residual_without,
)

# ---------------------------------------------------------------------------
# (10.14)-(10.15): separation into per-sample LASSOs
# ---------------------------------------------------------------------------


def _coding_check(coder):
    @given(problem=coding_problems(max_m=3), seed=SEEDS)
    def check(problem, seed):
        check_separable_coding(*problem, seed, coder=coder)
    return check


@pytest.mark.parametrize("broken", [
    lambda X, B, lam: lasso_coder(X, B, lam / 2),  # sklearn's 1/2 ||x - Ba||^2 scaling
    lambda X, B, lam: np.roll(lasso_coder(X, B, lam), 1, axis=1),  # codes of sample i-1
    lambda X, B, lam: -lasso_coder(X, B, lam),  # sign flipped
], ids=["lambda-halved", "wrong-sample", "sign-flipped"])
def test_separation_check_refutes_broken_coders(broken):
    assert_refutes(_coding_check(broken), slow=True)


# ---------------------------------------------------------------------------
# (10.16)-(10.17)
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("frobenius_sq", [
    lambda R: float(np.linalg.norm(R, 2) ** 2),  # spectral norm for Frobenius
    lambda R: 0.5 * float(np.linalg.norm(R, "fro") ** 2),  # a 1/2 in front
    lambda R: float(np.linalg.norm(R, "fro")),  # not squared
], ids=["spectral", "halved", "unsquared"])
def test_frobenius_check_refutes_wrong_norms(frobenius_sq):
    @given(f=factorisations())
    def check(f):
        check_frobenius(f.X, f.B, f.A, frobenius_sq=frobenius_sq)

    assert_refutes(check)


def _column_for_row(X, B, A, i):
    """E_i built with the column alpha_i in place of the row alpha^i (possible when A is
    square; otherwise the correct residual)."""
    if A.shape[0] != A.shape[1]:
        return residual_without(X, B, A, i)
    return X - B @ A + np.outer(B[:, i], A[:, i])


@pytest.mark.parametrize("residual", [
    lambda X, B, A, i: residual_without(X, B, A, (i + 1) % B.shape[1]),  # index off by one
    lambda X, B, A, i: X + (B @ A - np.outer(B[:, i], A[i])),  # sign flipped
    _column_for_row,  # alpha_i (a column of A) where alpha^i (a row) belongs
], ids=["off-by-one", "sign", "column-for-row"])
def test_decomposition_check_refutes_wrong_residuals(residual):
    @given(f=factorisations())
    def check(f):
        check_decomposition(f.X, f.B, f.A, residual=residual)

    assert_refutes(check)


def _second_pair(E):
    U, s, Vt = np.linalg.svd(E, full_matrices=True)
    if E.shape[0] < 2 or s.size < 2:
        return U[:, -1], 0.0 * Vt[0]
    return U[:, 1], s[1] * Vt[1]


def _scaled_pair(E):
    U, s, Vt = np.linalg.svd(E, full_matrices=False)
    return U[:, 0], 0.9 * s[0] * Vt[0]


def _unscaled_pair(E):
    U, _, Vt = np.linalg.svd(E, full_matrices=False)
    return U[:, 0], Vt[0]


@pytest.mark.parametrize("pair", [_second_pair, _scaled_pair, _unscaled_pair],
                         ids=["second-pair", "sigma-x0.9", "sigma-dropped"])
def test_rank_one_check_refutes_wrong_pairs(pair):
    @given(rows=st.integers(1, 3), cols=st.integers(1, 4), seed=SEEDS)
    def check(rows, cols, seed):
        E = np.random.default_rng(seed).normal(size=(rows, cols))
        check_rank_one(E, seed, pair=pair)

    assert_refutes(check)


def _fake_scipy(svd):
    """A stand-in for the module's ``scipy`` whose ``linalg.svd`` is ``svd``."""
    linalg = types.SimpleNamespace(svd=svd, lstsq=scipy.linalg.lstsq)
    return types.SimpleNamespace(linalg=linalg)


def _svd_sigma_scaled(E, **kwargs):
    U, s, Vt = scipy.linalg.svd(E, **kwargs)
    return U, 0.9 * s, Vt


def _svd_second_vector(E, **kwargs):
    U, s, Vt = scipy.linalg.svd(E, **kwargs)
    if U.shape[1] > 1:
        U, s, Vt = U[:, ::-1], s[::-1], Vt[::-1]
    return U, s, Vt


def _ksvd_unrestricted(X, B, A):
    """K-SVD on the whole of E_i (the notes' warning): dense alpha^i."""
    B, A = B.copy(), A.copy()
    for i in range(B.shape[1]):
        if not A[i].any():
            continue
        E = residual_without(X, B, A, i)
        U, s, Vt = np.linalg.svd(E, full_matrices=False)
        B[:, i], A[i] = U[:, 0], s[0] * Vt[0]
    return B, A, np.flatnonzero(~A.any(axis=1))


#: A dense 3 x 4 problem on two atoms: every atom used, E_i with three rows.
_DENSE = Factorisation(
    X=np.array([[1.0, 2.0, 0.0, -1.0], [0.5, -1.0, 1.0, 2.0], [0.0, 1.0, 3.0, 1.0]]),
    B=np.array([[1.0, 0.0], [0.0, 1.0], [0.0, 0.0]]),
    A=np.array([[1.0, 0.5, -1.0, 2.0], [0.3, 1.0, 1.0, -0.5]]))


def _ksvd_check(update=ksvd_update):
    @given(f=factorisations())
    @example(f=_DENSE)
    def check(f):
        check_ksvd_update(f.X, f.B, f.A, update=update)
    return check


@pytest.mark.parametrize("svd", [_svd_sigma_scaled, _svd_second_vector],
                         ids=["sigma-x0.9", "second-singular-vector"])
def test_ksvd_check_refutes_a_broken_svd_in_the_module(monkeypatch, svd):
    monkeypatch.setattr(dictionary_module, "scipy", _fake_scipy(svd))
    assert_refutes(_ksvd_check())


def test_ksvd_check_refutes_the_unrestricted_update():
    assert_refutes(_ksvd_check(_ksvd_unrestricted))


# ---------------------------------------------------------------------------
# Alternation
# ---------------------------------------------------------------------------


@st.composite
def _small_training_sets(draw):
    rng = np.random.default_rng(draw(SEEDS))
    X = rng.normal(size=(draw(st.integers(3, 5)), draw(st.integers(2, 3))))
    return X, draw(st.integers(1, 3)), draw(st.sampled_from([0.1, 1.0])), draw(SEEDS)


def _alternation_check():
    @given(data=_small_training_sets())
    def check(data):
        check_alternating_monotone(*data, update="mod", rounds=2)
    return check


def test_alternation_check_holds_on_the_real_update():
    assert_holds(_alternation_check(), slow=True)


def test_alternation_check_refutes_a_scaled_dictionary_step(monkeypatch):
    real = dictionary_module._mod
    monkeypatch.setattr(dictionary_module, "_mod", lambda X, A: 1.1 * real(X, A))
    assert_refutes(_alternation_check(), slow=True)


def test_alternation_check_refutes_a_tampered_record(monkeypatch):
    real = dictionary_module._objective
    monkeypatch.setattr(dictionary_module, "_objective",
                        lambda X, B, A, lam: 0.9 * real(X, B, A, lam))
    assert_refutes(_alternation_check(), slow=True)


def _ksvd_alternation_check():
    @given(data=_small_training_sets())
    def check(data):
        X, k, lam, seed = data
        check_ksvd_alternation(X, k + 2, 3.0 * lam, seed, rounds=2)
    return check


def test_ksvd_alternation_check_refutes_long_reinitialised_atoms(monkeypatch):
    real = dictionary_module._normalised
    monkeypatch.setattr(dictionary_module, "_normalised", lambda B, rng: 1.1 * real(B, rng))
    assert_refutes(_ksvd_alternation_check(), slow=True)


def test_ksvd_alternation_check_refutes_a_misreported_reinitialisation(monkeypatch):
    real = dictionary_module.DictionaryLearning._reinitialise

    def shifted(self, X, B, A, unused):
        return real(self, X, B, A, [(i + 1) % B.shape[1] for i in unused])

    monkeypatch.setattr(dictionary_module.DictionaryLearning, "_reinitialise", shifted)
    assert_refutes(_ksvd_alternation_check(), slow=True)


def test_ksvd_alternation_check_refutes_sigma_scaled_by_1_1(monkeypatch):
    def svd(E, **kwargs):
        U, s, Vt = scipy.linalg.svd(E, **kwargs)
        return U, 1.1 * s, Vt

    monkeypatch.setattr(dictionary_module, "scipy", _fake_scipy(svd))
    assert_refutes(_ksvd_alternation_check(), slow=True)


def test_alternation_check_refutes_the_ksvd_step():
    """The corrected claim's check is what exposes the erratum: with K-SVD as the
    dictionary step (large lambda) the same check fails."""
    @given(data=_small_training_sets())
    def check(data):
        X, k, _, seed = data
        check_alternating_monotone(X, k, 3.0, seed, update="ksvd", rounds=2)

    assert_refutes(check, slow=True)


def test_rescaling_check_refutes_atoms_allowed_to_grow_by_1_1():
    """The corrected twin's check at its edge: rescalings up to c = 1.1 (atoms of norm 1.1,
    just outside the constraint) already lower (10.14)."""
    @given(problem=coding_problems())
    def check(problem):
        X, B, lam = problem
        check_rescaling(X, B, lasso_coder(X, B, lam), lam, factors=[np.full(B.shape[1], 1.1)])

    assert_refutes(check)


# ---------------------------------------------------------------------------
# Matrix completion
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("norm", [
    lambda X: float(np.linalg.norm(X, "fro")),
    lambda X: 0.9 * nuclear_norm(X),
    lambda X: float(np.linalg.norm(X, 2)),
], ids=["frobenius", "x0.9", "spectral"])
def test_nuclear_norm_check_refutes_other_norms(norm):
    @given(case=spectral_ball_matrices(), seed=SEEDS)
    def check(case, seed):
        check_nuclear_norm(case[0], seed, norm=norm)

    assert_refutes(check)


def test_rank_bound_check_refutes_a_bound_cut_to_0_9_rank():
    @given(case=spectral_ball_matrices())
    def check(case):
        check_rank_bound(*case, factor=0.9)

    assert_refutes(check)


def test_rank_bound_check_refutes_a_norm_doubled_below_one():
    @given(case=spectral_ball_matrices())
    def check(case):
        check_rank_bound(*case, norm=lambda X: 1.1 * nuclear_norm(X))

    assert_refutes(check)


def test_frobenius_envelope_check_holds_where_the_nuclear_norm_is_at_most_one():
    """The as-printed check is not a blanket refutation: on rank-one matrices of the
    Frobenius ball (||X||_* = ||X||_F <= 1) it passes."""
    @given(X=frobenius_ball_matrices())
    def check(X):
        U, s, Vt = np.linalg.svd(X, full_matrices=False)
        check_frobenius_envelope(s[0] * np.outer(U[:, 0], Vt[0]))

    assert_holds(check)


def test_recovery_check_refutes_too_few_entries():
    """One entry fewer than the r (2m - r) = 19 degrees of freedom of a 10 x 10 rank-1
    matrix cannot determine it."""
    def check(rng):
        # 0/8: upper bound 1 - 1e-6^(1/8) = 0.82 < 0.9
        check_recovery(rng, 8, 10, 1, count=lambda m, r: r * (2 * m - r) - 1)

    assert_refutes(check)


def test_recovery_check_refutes_a_solver_that_does_not_complete():
    def check(rng):
        check_recovery(rng, 8, 10, 1, solve=lambda A, mask: np.where(mask, A, 0.0))

    assert_refutes(check)


def test_recovery_check_holds_for_svt_and_refutes_it_with_a_tiny_threshold():
    from algorithms.sparse import svt_completion
    from properties.sparse.completion import svt_solve

    assert_holds(lambda rng: check_recovery(rng, 8, 10, 1, solve=svt_solve))

    def check(rng):  # threshold 1e-3: the limit is the least-norm fill, not (10.24)'s
        check_recovery(rng, 8, 10, 1,
                       solve=lambda A, mask: svt_completion(A, mask, tau=1e-3).X)

    assert_refutes(check)
