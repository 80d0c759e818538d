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
    likelihood_settings,
    record_fit,
    split_coef,
    warn_fit_outcome,
)
from algorithms.linear._softmax_newton import (
    EXACT_CERTIFICATE_SIZE,
    fit_softmax_newton_cg,
    newton_polish,
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


def _warm_start(coef_init: object, intercept_init: object, d: int, q: int,
                fit_intercept: bool) -> np.ndarray | None:
    """The start ``B`` (p, q) (bias row last) from ``coef_``-shaped arrays, or None."""
    if coef_init is None and intercept_init is None:
        return None
    B = np.zeros((d + int(fit_intercept), q))
    if coef_init is not None:
        B[:d] = check_array_argument(coef_init, "coef_init", shape=(q, d), real=True).T
    if intercept_init is not None:
        if not fit_intercept:
            raise ValueError("intercept_init needs fit_intercept=True.")
        B[d] = check_array_argument(intercept_init, "intercept_init", shape=(q,), real=True)
    return B


class SoftmaxRegression(ClassifierMixin, BaseEstimator):
    """Multinomial logistic regression by maximum likelihood.

    Parameters
    ----------
    parametrisation : {"reference", "symmetric"}, default="reference"
        ``"reference"``: K-1 weight vectors, the last class ``classes_[-1]`` is the
        reference class K of 004 §3.3 (its score is 0); fitted by damped Newton (the
        categorical GLM of 004 §2.3.3). ``"symmetric"``: K weight vectors fitted by
        truncated Newton (Newton-CG with Hessian-vector products, never a per-sample
        K x K block) on the full softmax likelihood; the result is reported in the gauge
        ``sum_k w_k = 0`` (the likelihood cannot tell gauges apart). With ``lam = 1/C``
        the symmetric problem is scikit-learn's multinomial ``LogisticRegression``.
    lam : float, default=0.0
        L2 penalty ``lam/2 ||W||_F^2`` on the weights (not the intercepts). The two
        parametrisations define different penalised problems when ``lam > 0``; with
        ``lam = 0`` both give the same probabilities (the MLE).
    fit_intercept : bool, default=True
    max_iter : int, default=200
    tol : float, default=1e-10
        Both: converged when half the squared Newton decrement is at most ``tol * N``
        (the decrement is the same in both parametrisations). The symmetric solver also
        requires the largest component of the gradient of the mean objective
        ``F / N`` to be at most ``tol`` (scikit-learn's lbfgs ``tol``, in the same
        units); its decrement is estimated by conjugate gradients, and certified exactly
        (with a few minimum-norm Newton steps if needed) when ``p K <= 256``.
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
        solver loop (symmetric: Newton-CG's iterates in their own gauge, then the exact
        certificate's steps).
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

    def fit(self, X: object, y: object, *, coef_init: object = None,
            intercept_init: object = None) -> SoftmaxRegression:
        """Maximise the (penalised) log-likelihood in the chosen parametrisation.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        y : array-like of shape (n_samples,), at least two classes
        coef_init : array-like of shape (K-1, n_features) or (K, n_features), optional
            Warm start (the parametrisation's ``coef_`` shape, e.g. a previous fit's);
            the histories begin there.
        intercept_init : array-like of shape (K-1,) or (K,), optional
            Warm start of the intercepts (with ``fit_intercept``; default zeros).

        Returns
        -------
        self
        """
        param = check_choice(self.parametrisation, "parametrisation", ("reference", "symmetric"))
        settings = likelihood_settings(self)
        X_arr, codes = validate_classification(self, X, y)
        K = self.classes_.size
        Xh, mask, scale = biased_design(X_arr, settings.fit_intercept, settings.lam)
        q = K - 1 if param == "reference" else K
        start = _warm_start(coef_init, intercept_init, X_arr.shape[1], q,
                            settings.fit_intercept)
        if start is not None:
            start[:X_arr.shape[1]] *= scale
        if param == "reference":
            res = fit_by_newton(type(self).__name__, Xh, codes, CategoricalFamily(K), settings,
                                mask, n_classes=K, coef_init=start)
            self.reference_class_ = self.classes_[-1]
        else:
            res = self._fit_symmetric(Xh, codes, K, settings, mask, start)
            self.reference_class_ = None
        res.unscale(scale, X_arr.shape[1])
        B = res.coef  # (p, K-1) or (p, K)
        self.coef_, self.intercept_ = split_coef(B, X_arr.shape[1], settings.fit_intercept)
        record_fit(self, res)
        return self

    @staticmethod
    def _fit_symmetric(Xh: np.ndarray, codes: np.ndarray, K: int, settings: LikelihoodSettings,
                       mask: np.ndarray, start: np.ndarray | None = None) -> NewtonResult:
        n, p = Xh.shape
        lam, tol = settings.lam, settings.tol
        res = fit_softmax_newton_cg(Xh, codes, K, lam=lam, mask=mask,
                                    max_iter=settings.max_iter, tol=tol, coef_init=start)
        if p * K <= EXACT_CERTIFICATE_SIZE:
            # small enough to form the Hessian: certify by the exact Newton decrement
            Y = np.zeros((n, K))
            Y[np.arange(n), codes] = 1.0
            penalty = lam * np.repeat(mask[:, None], K, axis=1)

            def fun(theta: np.ndarray) -> tuple[float, np.ndarray]:
                W = theta.reshape(p, K)
                Z = Xh @ W
                lse = logsumexp(Z, axis=1)
                value = float(np.sum(lse) - np.sum(Z * Y)) + 0.5 * float(np.sum(penalty * W * W))
                grad = Xh.T @ (np.exp(Z - lse[:, None]) - Y) + penalty * W
                return value, grad.reshape(-1)

            theta, res.converged, accepted = newton_polish(
                fun, res.coef.reshape(-1), Xh, K, penalty, tol * n)
            for point in accepted:
                W = point.reshape(p, K)
                res.log_likelihood_history.append(-softmax_nll(W, Xh, codes))
                res.coef_history.append(W.copy())
            res.coef = theta.reshape(p, K)
        W = res.coef - res.coef.mean(axis=1, keepdims=True)  # gauge: sum_k w_k = 0
        eta = Xh @ (W[:, :-1] - W[:, -1:])  # the reference parametrisation's scores
        T = CategoricalFamily(K).sufficient_statistic(codes)
        if lam == 0 and all_strictly_separated(eta, T):
            res.separated, res.converged = True, False
        warn_fit_outcome("SoftmaxRegression", res,
                         f"Newton-CG did not converge in {settings.max_iter} iterations; "
                         "increase max_iter")
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
