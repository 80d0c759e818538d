"""Elastic net in the notes' (lambda, rho) parametrisation.

References
----------
004 §1.2 ("Elastic Net"):
``min ||y - X w_hat||^2 + lambda rho ||w_hat||_1 + lambda (1 - rho) / 2 ||w_hat||_2^2``.
"""

from __future__ import annotations

from algorithms._validation import check_real
from algorithms.linear._lasso import L1Regression

__all__ = ["ElasticNet", "elastic_net_penalties"]


def elastic_net_penalties(lam: float, rho: float) -> tuple[float, float]:
    """``(l1, l2)`` weights of ``l1 ||w||_1 + l2 ||w||^2`` for the notes' (lambda, rho).

    Parameters
    ----------
    lam : float
        lambda > 0.
    rho : float
        The L1 share, ``0 < rho <= 1``.

    Returns
    -------
    (float, float)
        ``(lam rho, lam (1 - rho) / 2)``.
    """
    lam = check_real(lam, "lam", low=0.0, low_open=True)
    rho = check_real(rho, "rho", low=0.0, high=1.0, low_open=True)
    return lam * rho, lam * (1.0 - rho) / 2.0


class ElasticNet(L1Regression):
    """Elastic net ``||y - Xw - b||^2 + lam rho ||w||_1 + lam (1 - rho)/2 ||w||^2``.

    Parameters
    ----------
    lam : float, default=1.0
        lambda > 0, the overall regularisation strength of 004 §1.2.
    rho : float, default=0.5
        The L1 share, ``0 < rho <= 1`` (the notes take ``0 < rho < 1``; ``rho = 1`` is
        the LASSO with the same lambda, and ``rho -> 0`` tends to ridge with
        ``lambda / 2``, which :class:`~algorithms.linear.Ridge` solves in closed form).
    fit_intercept, solver, max_iter, tol
        As for :class:`~algorithms.linear.Lasso` (the intercept is not penalised).

    Attributes
    ----------
    coef_, intercept_, objective_history_, duality_gap_history_, duality_gap_,
    n_iter_, converged_, lipschitz_, n_features_in_
        As for :class:`~algorithms.linear.Lasso`.

    Notes
    -----
    Coordinate update: ``w_j <- S_{lam rho / 2}(x_j^T r_{-j}) / (||x_j||^2 + lam (1-rho)/2)``.
    Proximal gradient: the ridge term joins the smooth part, ``L = 2 s_max^2 + lam (1-rho)``.
    """

    def __init__(self, *, lam: float = 1.0, rho: float = 0.5, fit_intercept: bool = True,
                 solver: str = "cd", max_iter: int = 10_000, tol: float = 1e-8) -> None:
        super().__init__(lam=lam, fit_intercept=fit_intercept, solver=solver,
                         max_iter=max_iter, tol=tol)
        self.rho = rho

    def _penalties(self) -> tuple[float, float]:
        return elastic_net_penalties(self.lam, self.rho)
