"""What the SMO-based estimators share: solver-hyperparameter validation, the run of the
generic SMO solver with its fitted bookkeeping, the kernel expansion that predicts, the
linear-kernel weight vector and the non-convergence warning.

Two paths solve the same dual with the same pair updates: the compiled one
(:mod:`algorithms.svm._smo_kernels`, the default) and the pure-Python reference
:func:`algorithms.svm.solve_smo`, taken when the step-by-step history is asked
(``record_history``) or a subclass replaces the pair update ``_pair_step`` (claims and
teeth tests do both), and for a custom kernel whose Gram matrix exceeds ``cache_size``."""

from __future__ import annotations

import warnings

import numpy as np
from numpy.typing import ArrayLike
from sklearn.exceptions import ConvergenceWarning

from algorithms._validation import (
    check_bool,
    check_choice,
    check_fitted,
    check_int,
    check_real,
    validate_features,
)
from algorithms.kernels import Kernel, LinearKernel, make_kernel
from algorithms.svm._smo_kernels import CompiledSMO
from algorithms.svm._smo_solver import (
    MAX_POLISH_FREE,
    WORKING_SET_RULES,
    ColumnCache,
    SMOResult,
    _bias,
    _pair_step,
    solve_smo,
)

WORKING_SETS = WORKING_SET_RULES


class SMOEstimatorMixin:
    """Mixed into SMOClassifier and SVR, which store the solver hyperparameters (``C``,
    ``kernel``, ``kernel_params``, ``tol``, ``max_iter``, ``working_set``, ``cache_size``,
    ``polish``, ``record_history``)."""

    #: The two-variable update (a subclass may swap it, e.g. for teeth tests); the
    #: solver's own unchecked one (its arguments come from the solver itself).
    _pair_step = staticmethod(_pair_step)

    def _check_solver_hyperparameters(self) -> tuple[float, Kernel]:
        """Validate what the SMO solver takes; returns ``(C, kernel)``.

        ``C = np.inf`` is allowed here (the hard margin of the classifier).
        """
        C = check_real(self.C, "C", low=0.0, low_open=True, allow_inf=True)
        check_real(self.tol, "tol", low=0.0, low_open=True)
        check_int(self.max_iter, "max_iter", low=1)
        check_real(self.cache_size, "cache_size", low=0.0, low_open=True)
        check_bool(self.polish, "polish")
        check_bool(self.record_history, "record_history")
        check_choice(self.working_set, "working_set", WORKING_SETS)
        return C, make_kernel(self.kernel, self.kernel_params)

    def _solve_dual(
        self, X: np.ndarray, kernel: Kernel, C: float, z: np.ndarray, p: np.ndarray
    ) -> SMOResult:
        """Minimise ``1/2 beta^T Q beta + p^T beta`` s.t. ``z^T beta = 0``, ``0 <= beta <= C``
        with ``Q_st = z_s z_t kappa(x_s, x_t)`` over ``len(z)`` variables: one per training
        point (SVC) or ``k`` stacked copies of them (SVR: ``k = 2``).

        Stores ``kernel_``, ``intercept_``, ``objective_history_`` (the maximised dual),
        ``polish_steps_``, ``n_iter_``, ``converged_``, ``kkt_violation_`` and
        ``cache_hits_``; with ``record_history`` also ``beta_history_`` (one row per entry
        of ``objective_history_``, the iterates the loop produced) and ``pairs_``.
        """
        upper = np.full(z.shape[0], C)
        res, counts = None, (0, 0)
        if not self.record_history and self._pair_step is _pair_step:
            res, counts = self._solve_compiled(X, kernel, z, p, upper)
        if res is None:
            res, counts = self._solve_python(X, kernel, z, p, upper)
        self.kernel_ = kernel
        self.intercept_ = np.array([res.bias])
        self.objective_history_ = -np.asarray(res.objective_history)
        self.polish_steps_ = np.asarray(res.polish_steps, dtype=int)
        self.n_iter_ = res.n_iter
        self.converged_ = res.converged
        self.kkt_violation_ = res.violation
        self.cache_hits_ = counts
        if self.record_history:
            self.beta_history_ = np.array(res.iterates).reshape(len(res.iterates), z.shape[0])
            self.pairs_ = np.array(res.pairs, dtype=int).reshape(len(res.pairs), 2)
        return res

    def _solve_python(self, X, kernel, z, p, upper) -> tuple[SMOResult, tuple[int, int]]:
        """The reference path: :func:`solve_smo` (pure Python, every step visible: the
        pair update ``self._pair_step`` is called on each step and ``record_history``
        keeps every iterate), columns from a :class:`ColumnCache`."""
        m = X.shape[0]
        copies = z.shape[0] // m
        cache = ColumnCache(lambda idx: kernel(X, X[idx]), m, float(self.cache_size))
        if copies == 1:
            column, diag = cache.column, kernel.diag(X)
        else:

            def column(t: int) -> np.ndarray:
                return np.tile(cache.column(t % m), copies)

            diag = np.tile(kernel.diag(X), copies)
        res = solve_smo(
            column,
            diag,
            z,
            p,
            upper,
            tol=float(self.tol),
            max_iter=int(self.max_iter),
            working_set=self.working_set,
            step=self._pair_step,
            polish=bool(self.polish),
            record_history=bool(self.record_history),
        )
        return res, (cache.hits, cache.misses)

    def _solve_compiled(self, X, kernel, z, p, upper
                        ) -> tuple[SMOResult | None, tuple[int, int]]:
        """The fast path (no history of iterates asked, the solver's own pair update): the
        same pair updates, working-set rule, face Newton steps and stopping test as
        :func:`solve_smo`, run by the compiled loop of :mod:`algorithms.svm._smo_kernels`
        with shrinking and gradient reconstruction. ``(None, ...)`` when it does not apply
        (a kernel it cannot evaluate whose Gram matrix exceeds ``cache_size``)."""
        solver = CompiledSMO(kernel, X, z, p, upper, float(self.cache_size))
        if not solver.available:
            return None, (0, 0)
        beta, G, n_iter, converged, violation, history, polish_steps = solver.run(
            tol=float(self.tol), max_iter=int(self.max_iter), working_set=self.working_set,
            polish=bool(self.polish), max_polish_free=MAX_POLISH_FREE)
        pos = z > 0
        up = (pos & (beta < upper)) | (~pos & (beta > 0))
        low = (pos & (beta > 0)) | (~pos & (beta < upper))
        res = SMOResult(beta=beta, grad=G, bias=_bias(beta, -z * G, upper, up, low),
                        n_iter=n_iter, converged=converged, violation=violation,
                        objective_history=history, polish_steps=polish_steps)
        return res, solver.cache_counts

    def _store_support(self, X: np.ndarray, coef: np.ndarray, support: np.ndarray) -> None:
        """``support_``, ``support_vectors_`` and ``dual_coef_ = coef[support_]`` (1, n_SV)."""
        self.support_ = support
        self.support_vectors_ = X[support]
        self.dual_coef_ = coef[support][None, :]

    def _kernel_expansion(self, X: ArrayLike) -> np.ndarray:
        """``sum_i dual_coef_i kappa(x, sv_i) + b`` for every row of ``X`` (checked:
        fitted, finite, as many features as in ``fit``)."""
        X = validate_features(self, X, reset=False)
        if self.support_.size == 0:
            return np.full(X.shape[0], self.intercept_[0])
        return self.kernel_(X, self.support_vectors_) @ self.dual_coef_[0] + self.intercept_[0]

    @property
    def coef_(self) -> np.ndarray:
        """``w = sum_i dual_coef_i x_i``; only for the linear kernel."""
        check_fitted(self, "alpha_")
        if not isinstance(self.kernel_, LinearKernel):
            raise AttributeError("coef_ is only available with the linear kernel")
        return self.dual_coef_ @ self.support_vectors_

    def _warn_if_not_converged(self, res: SMOResult, hint: str = "") -> None:
        if not res.converged:
            warnings.warn(
                f"SMO stopped after max_iter={self.max_iter} updates with KKT violation "
                f"{res.violation:.3g} > tol={self.tol}{hint}",
                ConvergenceWarning,
                stacklevel=3,
            )
