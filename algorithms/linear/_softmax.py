"""Multinomial (softmax) logistic regression in two parametrisations.

References
----------
004 §3.3: with classes ``1..K`` and ``x`` augmented by a 1,
``p(y=k|x) = exp(w_k.x) / (1 + sum_{j<K} exp(w_j.x))`` for ``k < K`` and
``p(y=K|x) = 1 / (1 + sum_{j<K} exp(w_j.x))`` (the reference-class, K-1 vector form);
004 §2.3.3 derives it as the categorical GLM.
The symmetric form uses K vectors, ``p(y=k|x) = softmax(w_1.x, ..., w_K.x)_k``; it is
invariant to adding one vector to every ``w_k`` and reduces to the reference form by
subtracting ``w_K``.
"""

from __future__ import annotations

import numpy as np
import scipy.optimize
from scipy.special import logsumexp, softmax
from sklearn.base import BaseEstimator, ClassifierMixin

from algorithms._validation import (
    check_array_argument,
    check_choice,
    check_codes,
    validate_classification,
    validate_features,
)
from algorithms.linear._exponential_family import CategoricalFamily
from algorithms.linear._newton import (
    LikelihoodSettings,
    NewtonResult,
    all_strictly_separated,
    biased_design,
    fit_by_newton,
    glm_hessian,
    likelihood_settings,
    record_fit,
    split_coef,
    warn_fit_outcome,
)

__all__ = ["SoftmaxRegression", "softmax_nll"]


def softmax_nll(W: np.ndarray, Xh: np.ndarray, codes: np.ndarray) -> float:
    """``-sum_i ln softmax(Xh_i W)_{y_i}`` for K score columns ``W`` (p, K), via log-sum-exp.

    Parameters
    ----------
    W : array-like of shape (p, K)
    Xh : array-like of shape (N, p)
    codes : array-like of int, shape (N,)
        The class of each sample as a column index of ``W``, in ``0..K-1``.

    Returns
    -------
    float
    """
    W = check_array_argument(W, "W", ndim=2, real=True)
    Xh = check_array_argument(Xh, "Xh", shape=(None, W.shape[0]), real=True)
    codes = check_codes(codes, "codes", Xh.shape[0], W.shape[1])
    Z = Xh @ W
    return float(np.sum(logsumexp(Z, axis=1) - Z[np.arange(Z.shape[0]), codes]))


def _newton_polish(fun, theta: np.ndarray, Xh: np.ndarray, K: int, lam: float,
                   mask: np.ndarray, threshold: float, max_steps: int = 20
                   ) -> tuple[np.ndarray, bool]:
    """Certify (and if needed finish) a symmetric-softmax minimiser by Newton's decrement.

    L-BFGS tests the gradient but its line search works on objective values, so near
    the optimum it can stop (``ABNORMAL``) once no decrease is representable in float64,
    above its gradient tolerance. The Newton decrement ``g^T H^+ g`` of the symmetric
    likelihood (``H`` singular along the gauge ``w_k -> w_k + v``, hence the
    pseudo-inverse, i.e. the minimum-norm Newton step) is invariant under the change of
    parametrisation, so the test ``g^T H^+ g / 2 <= threshold`` is the reference
    parametrisation's Newton test. Steps are full Newton steps halved until the
    objective does not increase (a last full step follows a passed test, as in
    :func:`~algorithms.linear._newton.fit_glm_newton`); returns ``(theta, converged)``.
    """
    p = Xh.shape[1]
    penalty = lam * np.repeat(mask, K)
    value, grad = fun(theta)
    for _ in range(max_steps + 1):
        P = softmax(Xh @ theta.reshape(p, K), axis=1)
        V = P[:, :, None] * (np.eye(K)[None] - P[:, None, :])  # diag(p) - p p^T per sample
        H = glm_hessian(Xh, V)
        H[np.diag_indices_from(H)] += penalty
        evals, Q = np.linalg.eigh(H)
        keep = evals > H.shape[0] * np.finfo(float).eps * max(float(evals[-1]), 0.0)
        step = Q[:, keep] @ ((Q[:, keep].T @ grad) / evals[keep])
        decrement = float(grad @ step)
        if not np.isfinite(decrement):
            return theta, False
        if 0.5 * decrement <= threshold:
            # One last full step squares the error (as the reference Newton solver does);
            # kept only if the objective does not increase.
            new_value, _ = fun(theta - step)
            if np.isfinite(new_value) and new_value <= value:
                theta = theta - step
            return theta, True
        t = 1.0
        while t >= 1e-12:
            new_value, new_grad = fun(theta - t * step)
            if np.isfinite(new_value) and new_value <= value:
                break
            t *= 0.5
        if t < 1e-12:
            return theta, False
        theta, value, grad = theta - t * step, new_value, new_grad
    return theta, False


class SoftmaxRegression(ClassifierMixin, BaseEstimator):
    """Multinomial logistic regression by maximum likelihood.

    Parameters
    ----------
    parametrisation : {"reference", "symmetric"}, default="reference"
        ``"reference"``: K-1 weight vectors, the last class ``classes_[-1]`` is the
        reference class K of 004 §3.3 (its score is 0); fitted by damped Newton (the
        categorical GLM of 004 §2.3.3). ``"symmetric"``: K weight vectors fitted by
        L-BFGS on the full softmax likelihood; the result is reported in the gauge
        ``sum_k w_k = 0`` (the likelihood cannot tell gauges apart).
    lam : float, default=0.0
        L2 penalty ``lam/2 ||W||_F^2`` on the weights (not the intercepts). The two
        parametrisations define different penalised problems when ``lam > 0``; with
        ``lam = 0`` both give the same probabilities (the MLE).
    fit_intercept : bool, default=True
    max_iter : int, default=200
    tol : float, default=1e-10
        Both: converged when half the squared Newton decrement is at most ``tol * N``
        (the decrement is the same in both parametrisations). L-BFGS stops on its own
        gradient test (largest component <= ``tol * N``); its result is then certified
        by the Newton decrement, with a few minimum-norm Newton steps if needed.
    coef_cap : float, default=1e8

    Attributes
    ----------
    classes_ : ndarray of shape (K,)
    coef_ : ndarray of shape (K-1, n_features) or (K, n_features)
    intercept_ : ndarray of shape (K-1,) or (K,)
    reference_class_ : the reference class (reference parametrisation) or None
    log_likelihood_history_ : ndarray
    coef_history_ : ndarray of shape (n_recorded, p, K-1) or (n_recorded, p, K)
        The iterates behind ``log_likelihood_history_`` (bias row last), recorded in the
        solver loop (symmetric: L-BFGS's iterates in their own gauge, then the polish).
    n_iter_, converged_, separable_

    Notes
    -----
    :meth:`class_scores` gives all K scores; :meth:`decision_function` gives them too,
    except with two classes, where it follows scikit-learn's convention and returns the
    log-odds of ``classes_[1]`` against ``classes_[0]`` (one column), as
    :class:`~algorithms.linear.LogisticRegression` does.
    """

    def __init__(self, *, parametrisation: str = "reference", lam: float = 0.0,
                 fit_intercept: bool = True, max_iter: int = 200, tol: float = 1e-10,
                 coef_cap: float = 1e8) -> None:
        self.parametrisation = parametrisation
        self.lam = lam
        self.fit_intercept = fit_intercept
        self.max_iter = max_iter
        self.tol = tol
        self.coef_cap = coef_cap

    def fit(self, X: object, y: object) -> SoftmaxRegression:
        """Maximise the (penalised) log-likelihood in the chosen parametrisation.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        y : array-like of shape (n_samples,), at least two classes

        Returns
        -------
        self
        """
        param = check_choice(self.parametrisation, "parametrisation", ("reference", "symmetric"))
        settings = likelihood_settings(self)
        X_arr, codes = validate_classification(self, X, y)
        K = self.classes_.size
        Xh, mask, scale = biased_design(X_arr, settings.fit_intercept, settings.lam)
        if param == "reference":
            res = fit_by_newton(type(self).__name__, Xh, codes, CategoricalFamily(K), settings,
                                mask, n_classes=K)
            self.reference_class_ = self.classes_[-1]
        else:
            res = self._fit_symmetric(Xh, codes, K, settings, mask)
            self.reference_class_ = None
        res.unscale(scale, X_arr.shape[1])
        B = res.coef  # (p, K-1) or (p, K)
        self.coef_, self.intercept_ = split_coef(B, X_arr.shape[1], settings.fit_intercept)
        record_fit(self, res)
        return self

    @staticmethod
    def _fit_symmetric(Xh: np.ndarray, codes: np.ndarray, K: int, settings: LikelihoodSettings,
                       mask: np.ndarray) -> NewtonResult:
        n, p = Xh.shape
        lam, tol = settings.lam, settings.tol
        Y = np.zeros((n, K))
        Y[np.arange(n), codes] = 1.0
        res = NewtonResult(coef=np.zeros((p, K)))

        def fun(theta: np.ndarray) -> tuple[float, np.ndarray]:
            W = theta.reshape(p, K)
            Z = Xh @ W
            lse = logsumexp(Z, axis=1)
            value = float(np.sum(lse) - np.sum(Z * Y)) + 0.5 * lam * float(
                np.sum((mask[:, None] * W) ** 2))
            grad = Xh.T @ (np.exp(Z - lse[:, None]) - Y) + lam * mask[:, None] * W
            return value, grad.reshape(-1)

        def callback(theta: np.ndarray) -> None:
            res.log_likelihood_history.append(-softmax_nll(theta.reshape(p, K), Xh, codes))
            res.coef_history.append(theta.reshape(p, K).copy())

        callback(np.zeros(p * K))
        opt = scipy.optimize.minimize(
            fun, np.zeros(p * K), jac=True, method="L-BFGS-B", callback=callback,
            options={"maxiter": settings.max_iter, "gtol": tol * n, "ftol": 1e-15, "maxcor": 20},
        )
        theta, converged = _newton_polish(fun, opt.x, Xh, K, lam, mask, tol * n)
        if not np.array_equal(theta, opt.x):
            callback(theta)
        W = theta.reshape(p, K)
        W = W - W.mean(axis=1, keepdims=True)  # gauge: sum_k w_k = 0 (probabilities unchanged)
        res.n_iter = int(opt.nit)
        res.converged = converged
        eta = Xh @ (W[:, :-1] - W[:, -1:])  # the reference parametrisation's scores
        T = CategoricalFamily(K).sufficient_statistic(codes)
        if lam == 0 and all_strictly_separated(eta, T):
            res.separated, res.converged = True, False
        warn_fit_outcome("SoftmaxRegression", res, f"L-BFGS did not converge: {opt.message}")
        res.coef = W
        return res

    def class_scores(self, X: object) -> np.ndarray:
        """All K class scores ``w_k^T x + b_k``, shape (N, K); the reference class scores 0."""
        scores = validate_features(self, X, reset=False) @ self.coef_.T + self.intercept_
        if self.reference_class_ is not None:
            scores = np.hstack([scores, np.zeros((scores.shape[0], 1))])
        return scores

    def decision_function(self, X: object) -> np.ndarray:
        """The class scores, shape (N, K); with two classes (scikit-learn's convention)
        the log-odds ``ln(p(classes_[1] | x) / p(classes_[0] | x))``, shape (N,)."""
        scores = self.class_scores(X)
        return scores[:, 1] - scores[:, 0] if scores.shape[1] == 2 else scores

    def predict_proba(self, X: object) -> np.ndarray:
        """``softmax`` of the class scores, shape (N, K)."""
        return softmax(self.class_scores(X), axis=1)

    def predict_log_proba(self, X: object) -> np.ndarray:
        """The log-probabilities by log-sum-exp, shape (N, K)."""
        Z = self.class_scores(X)
        return Z - logsumexp(Z, axis=1, keepdims=True)

    def predict(self, X: object) -> np.ndarray:
        """The class with the largest score (ties: the first in ``classes_``)."""
        scores = self.class_scores(X)
        return self.classes_[np.argmax(scores, axis=1)]
