"""The transductive SVM (TSVM), 003 §11.3 Fig. 13.4.

TSVM labels the unlabelled samples of a binary problem so that one maximum-margin
hyperplane separates labelled and unlabelled samples alike. Each SVM it solves is

    min  1/2 ||w||^2 + C_l sum_{i <= l} xi_i + C_u sum_{i > l} xi_i
    s.t. y_i (w^T phi(x_i) + b) >= 1 - xi_i,  xi_i >= 0,

with the current guesses ``y_hat`` as the unlabelled samples' labels (the book's (13.9),
which the notes cite without printing). Its dual is the SVC dual with per-sample boxes
``0 <= alpha_i <= C_i``, solved by the svm family's :func:`~algorithms.svm.solve_smo`.

The loop of Fig. 13.4: an SVM on the labelled samples labels the unlabelled ones; with
``C_u`` starting far below ``C_l``, solve, then, while two unlabelled samples with
opposite guesses both have positive slack summing to more than 2, swap their guesses
and solve again; double ``C_u`` (capped at ``C_l``) and repeat while ``C_u < C_l``.
Every swap lowers the objective (Joachims 1999, Theorem 2), so the inner loop ends.
Each solve is recorded (``solves_``) with its ``C_u``, labels, dual variables and
objective, so claims replay the run.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike
from scipy.spatial.distance import cdist
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.exceptions import ConvergenceWarning

from algorithms._validation import (
    UNLABELLED,
    check_choice,
    check_int,
    check_real,
    check_squares_representable,
    validate_features,
    validate_semi_supervised,
)
from algorithms.svm import solve_smo

__all__ = ["TSVM", "TSVMSolve"]

TSVM_KERNELS = ("linear", "rbf")


@dataclass
class TSVMSolve:
    """One SVM solved by the TSVM loop.

    Attributes
    ----------
    C_u : float
        The unlabelled cost of this solve (``0`` for the first, labelled-only SVM).
    labels : ndarray
        ``+-1`` labels of every training sample used (guesses on the unlabelled ones).
    alpha : ndarray
        The dual solution (zero on samples not in the solve).
    bias : float
    objective : float
        The primal objective ``1/2 ||w||^2 + sum_i C_i xi_i`` at the solution.
    swapped : tuple of int or None
        The pair whose guesses were swapped just before this solve.
    """

    C_u: float
    labels: np.ndarray
    alpha: np.ndarray
    bias: float
    objective: float
    swapped: tuple[int, int] | None


def _gram(A: np.ndarray, B: np.ndarray, kernel: str, gamma: float) -> np.ndarray:
    if kernel == "linear":
        return A @ B.T
    return np.exp(-gamma * cdist(A, B, "sqeuclidean"))


class TSVM(ClassifierMixin, BaseEstimator):
    """Transductive SVM of 003 §11.3 Fig. 13.4 (binary; ``y = -1`` marks unlabelled
    samples, so the two classes must be other numbers or strings).

    Parameters
    ----------
    C_l : float, default=1.0
        Cost of the labelled samples' slack.
    C_u_init : float, default=1e-3
        Starting cost of the unlabelled samples' slack (``C_u << C_l``), doubled each
        round up to ``C_l``.
    kernel : {"linear", "rbf"}, default="linear"
    gamma : float, default=1.0
        Width of the rbf kernel ``exp(-gamma ||x - z||^2)``.
    tol : float, default=1e-6
        Tolerance of each SMO solve (maximal KKT violation).
    max_iter : int, default=100_000
        SMO steps per solve.
    max_swaps : int, default=10_000
        Swaps allowed in all (a guard; the loop ends by itself in exact arithmetic).

    Attributes
    ----------
    classes_ : ndarray
        ``classes_[1]`` is the +1 side.
    transduction_ : ndarray
        The labels of every training sample (given or guessed).
    solves_ : list of TSVMSolve
        Every SVM solved, in order.
    alpha_, intercept_ : the last solve's dual variables and bias.
    n_swaps_ : int
    n_iter_ : int
        Number of SVMs solved (``len(solves_)``).
    """

    def __init__(self, *, C_l: float = 1.0, C_u_init: float = 1e-3, kernel: str = "linear",
                 gamma: float = 1.0, tol: float = 1e-6, max_iter: int = 100_000,
                 max_swaps: int = 10_000) -> None:
        self.C_l = C_l
        self.C_u_init = C_u_init
        self.kernel = kernel
        self.gamma = gamma
        self.tol = tol
        self.max_iter = max_iter
        self.max_swaps = max_swaps

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.classifier_tags.multi_class = False
        return tags

    def _solve(self, K: np.ndarray, labels: np.ndarray, costs: np.ndarray, active: np.ndarray,
               tol: float, max_iter: int) -> tuple[np.ndarray, float, float]:
        """The weighted SVM on the ``active`` samples: (alpha, bias, primal objective)."""
        idx = np.flatnonzero(active)
        Ka = K[np.ix_(idx, idx)]
        z = labels[idx]
        res = solve_smo(lambda i: Ka[:, i], np.diag(Ka).copy(), z, -np.ones(idx.size),
                        costs[idx], tol=tol, max_iter=max_iter, working_set="second_order",
                        polish=True)
        if not res.converged:
            warnings.warn(f"TSVM: an SMO solve stopped at max_iter={max_iter} with KKT "
                          f"violation {res.violation:.3g} > tol={tol}.", ConvergenceWarning,
                          stacklevel=3)
        alpha = np.zeros(labels.size)
        alpha[idx] = res.beta
        f = K[np.ix_(idx, idx)] @ (res.beta * z) + res.bias
        xi = np.maximum(0.0, 1.0 - z * f)
        ww = float((res.beta * z) @ Ka @ (res.beta * z))
        return alpha, res.bias, 0.5 * ww + float(costs[idx] @ xi)

    def fit(self, X: ArrayLike, y: ArrayLike) -> TSVM:
        """Label the unlabelled samples of ``(X, y)`` (``-1``) by Fig. 13.4."""
        X, codes = validate_semi_supervised(
            self, X, y, max_classes=2, what="TSVM separates two classes (003 §11.3)")
        check_squares_representable(X, "X")
        C_l = check_real(self.C_l, "C_l", low=0.0, low_open=True)
        C_u = check_real(self.C_u_init, "C_u_init", low=0.0, low_open=True)
        kernel = check_choice(self.kernel, "kernel", TSVM_KERNELS)
        gamma = check_real(self.gamma, "gamma", low=0.0, low_open=True)
        tol = check_real(self.tol, "tol", low=0.0, low_open=True)
        max_iter = check_int(self.max_iter, "max_iter", low=1)
        max_swaps = check_int(self.max_swaps, "max_swaps", low=0)
        K = _gram(X, X, kernel, gamma)
        lab = codes != UNLABELLED
        labels = np.where(codes == 1, 1.0, -1.0)
        costs = np.where(lab, C_l, 0.0)
        solves = []
        alpha, bias, obj = self._solve(K, labels, costs, lab, tol, max_iter)      # step 1
        solves.append(TSVMSolve(0.0, labels.copy(), alpha, bias, obj, None))
        f = K @ (alpha * labels) + bias
        labels[~lab] = np.where(f[~lab] > 0, 1.0, -1.0)                          # step 2
        unl = np.flatnonzero(~lab)
        swaps = 0
        exhausted = False
        while C_u < C_l and unl.size:                                             # step 4
            costs[~lab] = C_u
            alpha, bias, obj = self._solve(K, labels, costs, np.ones_like(lab), tol, max_iter)
            solves.append(TSVMSolve(C_u, labels.copy(), alpha, bias, obj, None))  # step 5
            while True:                                                           # step 6
                f = K @ (alpha * labels) + bias
                xi = np.maximum(0.0, 1.0 - labels * f)[unl]
                pos, neg = labels[unl] > 0, labels[unl] < 0
                if not (np.any(pos & (xi > 0)) and np.any(neg & (xi > 0))):
                    break
                i = unl[np.flatnonzero(pos)[np.argmax(xi[pos])]]
                j = unl[np.flatnonzero(neg)[np.argmax(xi[neg])]]
                xi_i, xi_j = xi[unl == i][0], xi[unl == j][0]
                if not (xi_i > 0 and xi_j > 0 and xi_i + xi_j > 2.0):
                    break
                if swaps >= max_swaps:
                    exhausted = True
                    break
                labels[i], labels[j] = -labels[i], -labels[j]                     # 7-8
                swaps += 1
                alpha, bias, obj = self._solve(K, labels, costs, np.ones_like(lab), tol,
                                               max_iter)                          # step 9
                solves.append(TSVMSolve(C_u, labels.copy(), alpha, bias, obj, (i, j)))
            if exhausted:
                warnings.warn(f"TSVM stopped after max_swaps={max_swaps} swaps.",
                              ConvergenceWarning, stacklevel=2)
                break
            C_u = min(2.0 * C_u, C_l)                                             # step 11
        self.X_fit_ = X
        self.solves_ = solves
        self.n_swaps_ = swaps
        self.n_iter_ = len(solves)
        last = solves[-1]
        self.alpha_, self.intercept_ = last.alpha, last.bias
        self._dual_labels = last.labels
        self.transduction_ = self.classes_[(labels > 0).astype(int)]
        return self

    def decision_function(self, X: ArrayLike) -> np.ndarray:
        """``f(x) = sum_i alpha_i y_i kappa(x_i, x) + b`` of the last SVM solved."""
        X = validate_features(self, X, reset=False)
        kernel = check_choice(self.kernel, "kernel", TSVM_KERNELS)
        K = _gram(X, self.X_fit_, kernel, float(self.gamma))
        return K @ (self.alpha_ * self._dual_labels) + self.intercept_

    def predict(self, X: ArrayLike) -> np.ndarray:
        """``classes_[1]`` where ``f(x) > 0``, else ``classes_[0]``."""
        f = self.decision_function(X)
        return self.classes_[(f > 0).astype(int)]
