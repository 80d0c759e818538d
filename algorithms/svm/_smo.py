"""Support vector classification solved by our own SMO (003 §4.2-§4.4)."""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike
from sklearn.base import BaseEstimator, ClassifierMixin

from algorithms._validation import check_array_argument, validate_classification
from algorithms.svm._estimator_base import SMOEstimatorMixin

__all__ = ["SMOClassifier", "dual_objective"]

#: Why a third class is refused.
BINARY = (
    "the SVM of 003 §4 separates two classes; wrap it in "
    "algorithms.linear.OneVsRestClassifier for more"
)


def check_dual_arguments(vectors: dict[str, object], K: object) -> tuple[list[np.ndarray],
                                                                          np.ndarray]:
    """Finite real vectors of one length ``n`` and a finite real ``K`` of shape (n, n)."""
    arrays = [check_array_argument(v, name, ndim=1, real=True) for name, v in vectors.items()]
    n = arrays[0].shape[0]
    for name, arr in zip(vectors, arrays, strict=True):
        if arr.shape[0] != n:
            raise ValueError(f"{name} must have {n} entries like {next(iter(vectors))}, "
                             f"got {arr.shape[0]}.")
    return arrays, check_array_argument(K, "K", shape=(n, n), real=True)


def finite_objective(value: float, what: str, names: str = "alpha and K") -> float:
    """``value`` if finite; else a ValueError naming the arguments (multipliers or kernel
    values so large that the quadratic term overflows float64)."""
    if not np.isfinite(value):
        raise ValueError(f"the {what} overflows float64 at this scale of {names}; "
                         f"rescale {names}.")
    return float(value)


def dual_objective(alpha: np.ndarray, y: np.ndarray, K: np.ndarray) -> float:
    """The dual objective of (4.9)/(4.19)/(4.31):
    ``sum(alpha) - 1/2 sum_ij alpha_i alpha_j y_i y_j K_ij`` (to be maximised).

    ``alpha`` and labels ``y`` in {-1, +1} have ``n`` entries, ``K`` is (n, n); all finite
    and real (ValueError naming the argument otherwise, or when the value overflows).
    """
    (alpha, y), K = check_dual_arguments({"alpha": alpha, "y": y}, K)
    if not np.all(np.abs(y) == 1):
        raise ValueError("y must hold the labels -1 and +1 of (4.9).")
    ay = alpha * y
    with np.errstate(over="ignore", invalid="ignore"):
        return finite_objective(np.sum(alpha) - 0.5 * ay @ K @ ay, "dual objective (4.9)")


class SMOClassifier(SMOEstimatorMixin, ClassifierMixin, BaseEstimator):
    """Binary support vector classifier trained by sequential minimal optimisation.

    Solves the dual (003 §4.2 (4.9), kernelised (4.19), soft margin (4.31))

        max_alpha sum_i alpha_i - 1/2 sum_ij alpha_i alpha_j y_i y_j kappa(x_i, x_j)
        s.t. sum_i alpha_i y_i = 0,  0 <= alpha_i <= C,

    two multipliers at a time.

    Parameters
    ----------
    C : float, default=1.0
        Box bound of the soft-margin dual (4.31); ``np.inf`` gives the hard
        margin (4.6)/(4.9).
    kernel : str or Kernel, default="linear"
        ``"linear"``, ``"poly"``, ``"rbf"``/``"gaussian"``, ``"laplacian"``,
        ``"sigmoid"`` or an :class:`algorithms.kernels.Kernel`.
    kernel_params : dict, optional
        Parameters of a named kernel (``degree``, ``sigma``, ``beta``, ``theta``...).
    tol : float, default=1e-3
        Stop when the maximal KKT violation ``max_{I_up} -y_i G_i - min_{I_low} -y_j G_j``
        is at most ``tol`` (``G`` the gradient of the minimised negative dual).
    max_iter : int, default=100000
        Maximum number of pair updates; a :class:`ConvergenceWarning` is issued
        and ``converged_`` is False when reached.
    working_set : {"second_order", "max_violating"}, default="second_order"
        Pair selection: the maximal violating pair, or the first index of that
        pair with the second chosen to maximise the guaranteed decrease
        ``b^2 / (2a)``.
    cache_size : float, default=200.0
        Kernel cache in MiB: columns of the Gram matrix are computed when first needed
        and kept (the whole matrix if it fits, else the least recently used columns are
        evicted).
    polish : bool, default=True
        Interleave exact Newton steps on the face of free multipliers once the free
        set has settled (see :func:`algorithms.svm.solve_smo`). Pair updates alone
        converge linearly at a rate set by the conditioning of the dual restricted to
        the free multipliers, which can need millions of updates when free support
        vectors are nearly affinely dependent in feature space; ``False`` gives the
        plain SMO of the note (pair updates only).
    record_history : bool, default=False
        Keep a copy of every iterate and the pair chosen at each step
        (``beta_history_``, ``pairs_``), so that claims can recompute the objective from
        what the loop produced (costs n floats per step). This runs the pure-Python
        solver :func:`algorithms.svm.solve_smo`, as does a subclass that replaces the
        pair update ``_pair_step``; otherwise the same updates run compiled (see Notes).

    Attributes
    ----------
    classes_ : ndarray of shape (2,)
        ``classes_[0]`` is coded ``y = -1``, ``classes_[1]`` is ``y = +1``.
    alpha_ : ndarray of shape (n_samples,)
        The dual solution (all multipliers).
    support_ : ndarray of int
        Indices of the support vectors (``alpha_i > 0``).
    support_vectors_ : ndarray
    dual_coef_ : ndarray of shape (1, n_SV)
        ``alpha_i y_i`` of the support vectors (scikit-learn's layout).
    intercept_ : ndarray of shape (1,)
        The bias ``b``: the average of (4.14) over free support vectors
        ``0 < alpha_i < C`` (all of ``S`` in the hard-margin case).
    coef_ : ndarray of shape (1, n_features)
        ``w = sum_i alpha_i y_i x_i`` (4.8); linear kernel only.
    objective_history_ : ndarray
        The dual objective (4.9) after every pair update and every face Newton step
        (non-decreasing).
    polish_steps_ : ndarray of int
        Positions in ``objective_history_`` that record face Newton steps (empty
        with ``polish=False``).
    n_iter_ : int
        Number of pair updates.
    converged_ : bool
    kkt_violation_ : float
        The final maximal violation.
    cache_hits_ : tuple of int
        ``(hits, misses)`` of the kernel column cache.
    beta_history_ : ndarray of shape (len(objective_history_), n_samples)
        With ``record_history``: the multipliers after each entry of
        ``objective_history_``, as the solver's loop produced them.
    pairs_ : ndarray of int, shape (len(objective_history_), 2)
        With ``record_history``: the pair ``(i, j)`` updated at each entry
        (``(-1, -1)`` for a face Newton step).

    Notes
    -----
    A pair update moves ``alpha_i += y_i t``, ``alpha_j -= y_j t``, which keeps
    ``alpha_i y_i + alpha_j y_j`` constant (the constraint (4.12) is meant to say
    this), and clips ``t`` so that *both* multipliers stay in ``[0, C]``.

    Without ``record_history`` the fit runs the compiled solver of
    :mod:`algorithms.svm._smo_kernels`: the same pair update (the same Python function,
    compiled), pair choice, face steps and stopping test, plus shrinking of variables
    stuck at a bound (re-checked on all variables before stopping), gradient
    reconstruction and compiled kernel columns; one update costs O(active variables).
    ``objective_history_`` is then accumulated from each update's exact change
    ``b t - a t^2 / 2`` rather than recomputed from the multipliers.

    References
    ----------
    003 §4.1-§4.4, equations (4.6)-(4.14), (4.19)-(4.20), (4.28)-(4.32).
    """

    def __init__(
        self,
        *,
        C: float = 1.0,
        kernel="linear",
        kernel_params: dict | None = None,
        tol: float = 1e-3,
        max_iter: int = 100_000,
        working_set: str = "second_order",
        cache_size: float = 200.0,
        polish: bool = True,
        record_history: bool = False,
    ) -> None:
        self.C = C
        self.kernel = kernel
        self.kernel_params = kernel_params
        self.tol = tol
        self.max_iter = max_iter
        self.working_set = working_set
        self.cache_size = cache_size
        self.polish = polish
        self.record_history = record_history

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.classifier_tags.multi_class = False
        return tags

    def fit(self, X: ArrayLike, y: ArrayLike) -> SMOClassifier:
        """Fit on ``X`` (n, d) and labels ``y`` (n,) of two classes."""
        C, kern = self._check_solver_hyperparameters()
        X, codes = validate_classification(self, X, y, max_classes=2, what=BINARY)
        ys = np.where(codes == 1, 1.0, -1.0)
        res = self._solve_dual(X, kern, C, ys, -np.ones(X.shape[0]))
        self.alpha_ = res.beta
        self._store_support(X, res.beta * ys, np.flatnonzero(res.beta > 0))
        hint = " (with C=inf the data may not be separable)" if np.isinf(C) else ""
        self._warn_if_not_converged(res, hint)
        return self

    def decision_function(self, X: ArrayLike) -> np.ndarray:
        """``f(x) = sum_i alpha_i y_i kappa(x, x_i) + b`` (4.20), shape (n_samples,)."""
        return self._kernel_expansion(X)

    def predict(self, X: ArrayLike) -> np.ndarray:
        """``classes_[1]`` where ``f(x) > 0``, else ``classes_[0]``."""
        f = self.decision_function(X)
        return self.classes_[(f > 0).astype(int)]
