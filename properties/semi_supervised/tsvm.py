"""The transductive SVM of 003 §11.3 Fig. 13.4, checked by replaying every SVM the loop
recorded with a kernel and objective written here, and against cvxpy's solution of the
weighted SVM."""

from __future__ import annotations

import cvxpy as cp
import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from algorithms.semi_supervised import TSVM
from mltheory import Method, claim, evidence
from mltheory.numeric import Tolerance, assert_close
from properties.semi_supervised.strategies import tsvm_problems


def own_kernel(A: np.ndarray, B: np.ndarray, kernel: str, gamma: float) -> np.ndarray:
    if kernel == "linear":
        return np.einsum("id,jd->ij", A, B)
    diff = A[:, None, :] - B[None, :, :]
    return np.exp(-gamma * np.sum(diff * diff, axis=2))


def primal(K: np.ndarray, labels: np.ndarray, alpha: np.ndarray, bias: float,
           costs: np.ndarray) -> tuple[float, np.ndarray]:
    """(objective, slacks) of the SVM with dual alpha: 1/2 ||w||^2 + sum C_i xi_i."""
    v = alpha * labels
    f = K @ v + bias
    xi = np.maximum(0.0, 1.0 - labels * f)
    return 0.5 * float(v @ K @ v) + float(costs @ xi), xi


def _slack(est: TSVM, n: int) -> float:
    """What an SMO stop at KKT violation ``tol`` can leave above the optimum: at most
    ``tol`` per unit of box, summed over the samples."""
    return 10.0 * n * est.C_l * est.tol + 1e-9


def check_tsvm_run(X: np.ndarray, y: np.ndarray, est: TSVM) -> int:
    """Replay Fig. 13.4 from the recorded solves; returns the number of swaps checked."""
    K = own_kernel(X, X, est.kernel, est.gamma)
    lab = y != -1
    unl = np.flatnonzero(~lab)
    solves = est.solves_
    first = solves[0]
    assert first.C_u == 0.0 and np.all(first.alpha[~lab] == 0.0), "step 1 used D_u"
    if unl.size == 0:
        return 0
    f0 = K @ (first.alpha * first.labels) + first.bias
    guesses = np.where(f0[unl] > 0, 1.0, -1.0)                                   # step 2
    assert np.array_equal(solves[1].labels[unl], guesses), "step 2: guesses != SVM_l's"
    stages = [s.C_u for s in solves[1:] if s.swapped is None]
    expected = []
    c = est.C_u_init
    while c < est.C_l:
        expected.append(c)
        c = min(2.0 * c, est.C_l)
    assert stages == expected, f"C_u schedule {stages} != {expected} (steps 3, 4, 11)"
    slack = _slack(est, len(X))
    swaps = 0
    for t in range(1, len(solves)):
        s = solves[t]
        costs = np.where(lab, est.C_l, s.C_u)
        J, xi = primal(K, s.labels, s.alpha, s.bias, costs)
        assert abs(J - s.objective) <= 1e-9 * max(1.0, abs(J)), "recorded objective"
        nxt = solves[t + 1] if t + 1 < len(solves) else None
        if nxt is not None and nxt.swapped is not None:                       # steps 6-9
            i, j = nxt.swapped
            assert s.labels[i] * s.labels[j] < 0 and xi[i] > 0 and xi[j] > 0 and \
                xi[i] + xi[j] > 2.0, f"swap of {i}, {j} without the condition of step 6"
            swapped = s.labels.copy()
            swapped[[i, j]] *= -1
            assert np.array_equal(swapped, nxt.labels), "the swap changed other labels"
            J_same, _ = primal(K, swapped, s.alpha * s.labels * swapped, s.bias, costs)
            assert J_same < J, "the swap at the same hyperplane did not lower the objective"
            J_next, _ = primal(K, nxt.labels, nxt.alpha, nxt.bias, costs)
            assert J_next <= J_same + slack, (
                f"re-solving after the swap rose above the swapped point: {J_next} > {J_same}")
            evidence.worst("objective after swap and re-solve / before", J_next / J)
            swaps += 1
        else:                                   # the stage ends: no swappable pair is left
            u_xi, u_lab = xi[unl], s.labels[unl]
            pos, neg = u_xi[(u_lab > 0) & (u_xi > 0)], u_xi[(u_lab < 0) & (u_xi > 0)]
            if pos.size and neg.size:
                assert pos.max() + neg.max() <= 2.0 + 1e-9, "a swappable pair was left"
    last = solves[-1]
    labels = last.labels
    assert np.array_equal(est.transduction_, est.classes_[(labels > 0).astype(int)])
    f_last = K @ (last.alpha * last.labels) + last.bias
    assert np.allclose(est.decision_function(X), f_last, rtol=1e-10, atol=1e-10), (
        "decision_function is not the last SVM's f")
    return swaps


@claim(
    id="tsvm.swap_lowers_objective",
    source="003 §11.3 Fig. 13.4; Joachims 1999, Theorem 2",
    statement="TSVM labels the unlabelled samples by the labelled-only SVM, then, for C_u "
    "doubling from far below C_l up to C_l, solves the SVM and swaps the guesses of two "
    "unlabelled samples with opposite guesses whose positive slacks sum to more than 2. "
    "Each such swap strictly lowers 1/2 ||w||^2 + C_l sum xi_l + C_u sum xi_u already at "
    "the same hyperplane, and re-solving lowers it further, so the swapping loop ends.",
    method=Method.PROPERTY,
    tags=("semi_supervised", "tsvm"),
)
@given(problem=tsvm_problems())
def swap_lowers_objective(problem):
    X, y, settings = problem
    est = TSVM(**settings).fit(X, y)
    evidence.worst("swaps in a run", check_tsvm_run(X, y, est))


def cvxpy_weighted_svm(X: np.ndarray, labels: np.ndarray, costs: np.ndarray) -> float:
    """The optimum of the linear weighted SVM primal, by cvxpy."""
    w, b = cp.Variable(X.shape[1]), cp.Variable()
    xi = cp.Variable(X.shape[0], nonneg=True)
    problem = cp.Problem(cp.Minimize(0.5 * cp.sum_squares(w) + costs @ xi),
                         [cp.multiply(labels, X @ w + b) >= 1 - xi])
    problem.solve(solver=cp.CLARABEL)
    return float(problem.value)


#: cvxpy's conic solver stops near a 1e-8 relative gap; SMO at KKT violation tol = 1e-6
#: per sample leaves at most n C tol above the optimum.
SVM_AGREEMENT = Tolerance(1e-5, 1e-5, "cvxpy stops at relative gaps near 1e-8; SMO at a "
                          "KKT violation of 1e-6 per sample")


def check_solves_are_svms(X: np.ndarray, y: np.ndarray, est: TSVM) -> None:
    """The last SVM of the run (or, with no unlabelled sample, the labelled-only one) is
    the optimal weighted SVM."""
    lab = y != -1
    for s, rows in ((est.solves_[-1], lab if len(est.solves_) == 1 else np.ones_like(lab)),):
        costs = np.where(lab, est.C_l, s.C_u)[rows]
        ref = cvxpy_weighted_svm(X[rows], s.labels[rows], costs)
        assert_close(s.objective, ref, SVM_AGREEMENT, scale=max(1.0, abs(ref)),
                     label="TSVM solve objective vs cvxpy", context="weighted SVM: ")


@claim(
    id="tsvm.solves_weighted_svm",
    source="003 §11.3 Fig. 13.4 (steps 1, 5, 9)",
    statement="Each SVM of the TSVM loop is the maximum-margin solution with per-sample "
    "costs: C_l on the labelled samples and the current C_u on the unlabelled ones with "
    "their guessed labels (and the labelled samples alone in step 1).",
    method=Method.REFERENCE,
    tags=("semi_supervised", "tsvm"),
)
@given(problem=tsvm_problems(kernels=st.just("linear")))
def solves_weighted_svm(problem):
    X, y, settings = problem
    est = TSVM(**settings).fit(X, y)
    check_solves_are_svms(X, y, est)
