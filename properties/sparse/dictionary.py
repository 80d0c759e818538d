"""Dictionary learning of 003 §10.5: the separation of (10.14) into per-sample LASSOs
(10.15), the Frobenius form (10.16), the K-SVD rewriting (10.17) and its rank-one update,
and the descent of the alternation, read from the run the estimator recorded.

Errata: the chain (10.17) writes ``min_B = min_{b_i}``, which holds only as ``<=``; and the
K-SVD step, presented as the dictionary step "with alpha fixed", rewrites the non-zero
entries of each alpha^i and can increase (10.14).
"""

from __future__ import annotations

import numpy as np
from hypothesis import example, given
from hypothesis import strategies as st

from mltheory import ErratumKind, Expect, Method, claim, evidence
from properties.sparse.strategies_dictionary import (
    LAMBDAS,
    SEEDS,
    Factorisation,
    coding_problems,
    factorisations,
    sparse_codes,
    unit_columns,
)
from properties.sparse.support_dictionary import (
    check_alternating_monotone,
    check_columnwise_min_equality,
    check_decomposition,
    check_frobenius,
    check_ksvd_alternation,
    check_ksvd_step_monotone,
    check_ksvd_update,
    check_rank_one,
    check_rescaling,
    check_separable_coding,
    lasso_coder,
)


@claim(
    id="dict.objective_10_14_10_15",
    source="003 §10.5 (10.14)-(10.15)",
    statement="With the dictionary B fixed, the objective (10.14) is the sum over samples of "
    "the per-sample objectives (10.15) for every code matrix A, so it separates into m "
    "independent LASSO problems: solving each (10.15) on its own reaches the minimum of the "
    "joint problem over the whole of A (cvxpy, one program).",
    method=Method.REFERENCE,
    tags=("sparse", "dictionary", "slow"),
)
@given(problem=coding_problems(), seed=SEEDS)
def objective_10_14_10_15(problem, seed):
    check_separable_coding(*problem, seed)
    evidence.note("per-sample LASSO: algorithms.linear.solve_l1_l2 at a 1e-11 duality gap; "
                  "reference: cvxpy/CLARABEL on min_A ||X - BA||_F^2 + lam ||A||_1 as one program")


@claim(
    id="dict.frobenius_10_16",
    source="003 §10.5 (10.16)",
    statement="With the samples as the columns of X (d x m) and the codes as the columns of "
    "A (k x m), sum_i ||x_i - B alpha_i||_2^2 = ||X - BA||_F^2.",
    method=Method.PROPERTY,
    tags=("sparse", "dictionary"),
)
@given(f=factorisations())
def frobenius_10_16(f):
    check_frobenius(f.X, f.B, f.A)


@claim(
    id="dict.frobenius_rows_as_written",
    source="003 §10.5 (10.16)",
    statement="(As printed) §10.5 takes the data set as a matrix with one sample per ROW; with "
    "that X (m x d) and B (d x k), A (k x m) as in (10.14), ||X - BA||_F^2 equals the sum of "
    "the per-sample errors sum_i ||x_i - B alpha_i||^2.",
    method=Method.PROPERTY,
    tags=("sparse", "dictionary", "erratum"),
    expect=Expect.REFUTED,
    kind=ErratumKind.SHORTHAND,
    corrected_by="dict.frobenius_10_16",
    explanation="The section opens with samples as the rows of the data matrix, but (10.16) "
    "needs them as the columns (X is d x m, X = BA with B d x k): with rows as samples X - "
    "BA is not even defined unless m = d, and then it is the wrong matrix.",
)
@given(f=factorisations(max_d=3, max_m=3))
def frobenius_rows_as_written(f):
    X_rows = f.X.T  # one sample per row, as the section introduces the data matrix
    assert X_rows.shape == (f.B @ f.A).shape, (
        f"X with samples as rows is {X_rows.shape}, BA is {(f.B @ f.A).shape}")
    check_frobenius(f.X, f.B, f.A, frobenius_sq=lambda _: float(
        np.linalg.norm(X_rows - f.B @ f.A, "fro") ** 2))


@claim(
    id="ksvd.decomposition_10_17",
    source="003 §10.5 (10.17)",
    statement="For every dictionary B, codes A and atom i, with alpha^i the i-th ROW of A and "
    "E_i = X - sum_{j != i} b_j alpha^j: ||X - BA||_F^2 = ||X - sum_j b_j alpha^j||_F^2 = "
    "||E_i - b_i alpha^i||_F^2; the minima then satisfy min_B ||X - BA||_F^2 <= "
    "min_{b_i} ||E_i - b_i alpha^i||_F^2 (the other atoms held).",
    method=Method.PROPERTY,
    tags=("sparse", "ksvd"),
)
@given(f=factorisations())
def decomposition_10_17(f):
    check_decomposition(f.X, f.B, f.A)


@claim(
    id="ksvd.columnwise_min_as_written",
    source="003 §10.5 (10.17)",
    statement="(As printed) the chain (10.17): min_B ||X - BA||_F^2 = min_{b_i} ||X - "
    "sum_j b_j alpha^j||_F^2 = min_{b_i} ||E_i - b_i alpha^i||_F^2, i.e. minimising over "
    "one column b_i (the others held) attains the minimum over the whole dictionary.",
    method=Method.PROPERTY,
    tags=("sparse", "ksvd", "erratum"),
    expect=Expect.REFUTED,
    kind=ErratumKind.OVERCLAIM,
    corrected_by="ksvd.decomposition_10_17",
    explanation="The first '=' of (10.17) replaces a minimum over all of B by a minimum over "
    "one column: the objectives are equal for each B, but the minima are only ordered, "
    "min_B <= min_{b_i}, strictly whenever the held atoms are not already optimal. K-SVD "
    "is a column-by-column descent, not a one-column solution of (10.16). Pinned: X = "
    "[[1, 0]], A = I (2 x 2), B = [[0, 0]]: min_B = 0 (B = [[1, 0]]) but for atom 2 "
    "min_{b_2} = 1 (alpha^2 = (0, 1) cannot fit x_1 = 1).",
)
@given(f=factorisations())
@example(f=Factorisation(X=np.array([[1.0, 0.0]]), B=np.array([[0.0, 0.0]]),
                         A=np.array([[1.0, 0.0], [0.0, 1.0]])))
def columnwise_min_as_written(f):
    check_columnwise_min_equality(f.X, f.B, f.A)


@claim(
    id="ksvd.rank_one_update",
    source="003 §10.5 (after 10.17)",
    statement="The top singular pair of E_i (b = u_1, alpha^i = sigma_1 v_1) minimises "
    "||E_i - b alpha^i||_F over rank-one terms (Eckart-Young value sum_{j>=2} sigma_j^2, "
    "brute force for E with two rows); and the K-SVD sweep that applies it to E_i "
    "restricted to the samples using atom i keeps A's sparsity pattern (supports only "
    "shrink, unused atoms untouched), gives unit atoms and does not increase ||X - BA||_F^2.",
    method=Method.PROPERTY,
    tags=("sparse", "ksvd"),
)
@given(f=factorisations(), rows=st.integers(1, 2), seed=SEEDS)
@example(f=None, rows=2, seed=0)
def rank_one_update(f, rows, seed):
    rng = np.random.default_rng(seed)
    if f is None:  # pinned: a 2 x 3 E with a repeated top singular value
        E = np.array([[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]])
        check_rank_one(E, seed)
        return
    check_rank_one(rng.normal(size=(rows, f.X.shape[1])), seed)
    check_rank_one(f.X, seed)
    check_ksvd_update(f.X, f.B, f.A)


@st.composite
def _training_sets(draw):
    """Samples as rows (estimator convention): sparse combinations of drawn atoms plus
    noise; the atom count and lambda drawn."""
    rng = np.random.default_rng(draw(SEEDS))
    d = draw(st.integers(2, 4))
    k = draw(st.integers(1, 4))
    m = draw(st.integers(3, 6))
    X = (unit_columns(rng, d, k) @ sparse_codes(rng, k, m, 0.5)).T
    X += draw(st.sampled_from([0.05, 0.5])) * rng.normal(size=X.shape)
    return X, k, draw(LAMBDAS), draw(SEEDS)


@claim(
    id="dict.alternating_monotone",
    source="003 §10.5 (10.14)-(10.16)",
    statement="(Implied) alternating the two steps with exact sub-problem solutions — the "
    "LASSO (10.15) for every sample, then (10.16) min_B ||X - BA||_F^2 with A fixed (least "
    "squares) — never increases (10.14): the objective history the estimator recorded "
    "equals (10.14) recomputed from its recorded iterates and is non-increasing.",
    method=Method.PROPERTY,
    tags=("sparse", "dictionary", "slow"),
)
@given(data=_training_sets())
def alternating_monotone(data):
    X, k, lam, seed = data
    check_alternating_monotone(X, k, lam, seed, update="mod")


@claim(
    id="dict.ksvd_alternation",
    source="003 §10.5 (10.15)-(10.17)",
    statement="What the K-SVD alternation does guarantee, read from the recorded run: each "
    "dictionary step (K-SVD sweep, unused atoms re-initialised) keeps A's sparsity pattern, "
    "gives unit atoms and does not increase ||X - BA||_F^2; each coding step (10.15) does "
    "not increase (10.14); exactly the atoms with an all-zero code row are re-initialised.",
    method=Method.PROPERTY,
    tags=("sparse", "ksvd", "slow"),
)
@given(data=_training_sets())
def ksvd_alternation(data):
    X, k, lam, seed = data
    check_ksvd_alternation(X, k + 1, lam, seed)  # one atom more than the data use


@claim(
    id="dict.ksvd_step_monotone_as_written",
    source="003 §10.5 (10.16)-(10.17)",
    statement="(As printed) the second step of the alternation updates the dictionary with "
    "the codes fixed, by K-SVD (10.17); so after the coding step (10.15), the K-SVD step does "
    "not increase (10.14).",
    method=Method.PROPERTY,
    tags=("sparse", "ksvd", "erratum"),
    expect=Expect.REFUTED,
    kind=ErratumKind.CODE,
    corrected_by="dict.alternating_monotone",
    explanation="K-SVD as the notes describe it does not keep the codes fixed: it rewrites "
    "the non-zero entries of alpha^i with sigma_1 v_1, the least-squares fit, undoing the "
    "LASSO's shrinkage; ||X - BA||_F^2 falls but lambda ||A||_1 can rise by more. One "
    "sample x = (1, 1) on the atom b = (1, 0)... e.g. X = [[1, 1]], B = [[1]], lambda = 1: "
    "codes 1/2 each, (10.14) = 1.5; after K-SVD codes 1 each, (10.14) = 2.",
)
@given(problem=coding_problems(max_m=4))
@example(problem=(np.array([[1.0, 1.0]]), np.array([[1.0]]), 1.0))
def ksvd_step_monotone_as_written(problem):
    check_ksvd_step_monotone(*problem)


@claim(
    id="dict.well_posed_as_written",
    source="003 §10.5 (10.14)",
    statement="(As printed) (10.14) with B ranging over all of R^{d x k} is a well-posed "
    "problem whose L1 term controls the codes: at a solution of the alternation (LASSO codes "
    "of a unit-atom dictionary) no change of the atoms' lengths that keeps BA and the "
    "sparsity pattern lowers (10.14).",
    method=Method.PROPERTY,
    tags=("sparse", "dictionary", "erratum"),
    expect=Expect.REFUTED,
    kind=ErratumKind.MISSING_CONDITION,
    corrected_by="dict.unit_atoms",
    explanation="(10.14) puts no bound on the atoms: (cB, A/c) reconstructs exactly as (B, A) "
    "with the same zeros but penalty lambda ||A||_1 / c, so for c > 1 the objective falls and "
    "its infimum is approached only as B grows without bound and A shrinks to 0; the L1 term "
    "then says nothing about sparsity. K-SVD's unit atoms and scikit-learn's ||b_j|| <= 1 "
    "supply the missing constraint (exact least-squares dictionary steps, unconstrained, "
    "were measured letting an atom grow to norm 7.7 while (10.14) kept falling).",
)
@given(problem=coding_problems())
def well_posed_as_written(problem):
    X, B, lam = problem
    A = lasso_coder(X, B, lam)
    check_rescaling(X, B, A, lam, factors=[np.full(B.shape[1], 2.0)])


@claim(
    id="dict.unit_atoms",
    source="003 §10.5 (10.14)",
    statement="With the missing constraint ||b_j||_2 <= 1 (K-SVD keeps ||b_j|| = 1), the "
    "rescaling degeneracy is gone: at LASSO codes of a unit-atom dictionary, no feasible "
    "rescaling b_j -> c_j b_j (0 < c_j <= 1), alpha^j -> alpha^j / c_j lowers (10.14).",
    method=Method.PROPERTY,
    tags=("sparse", "dictionary"),
)
@given(problem=coding_problems(), seed=SEEDS)
def unit_atoms(problem, seed):
    X, B, lam = problem
    A = lasso_coder(X, B, lam)
    rng = np.random.default_rng(seed)
    factors = [np.ones(B.shape[1]), rng.uniform(0.5, 1.0, size=B.shape[1]),
               np.full(B.shape[1], 1.0 - 1e-9)]
    check_rescaling(X, B, A, lam, factors=factors)
