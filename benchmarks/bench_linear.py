"""Benchmark (not a test): fit time and solution of the linear models against scikit-learn.

Run:  python benchmarks/bench_linear.py [--quick] [--repeats 5] [--only Logistic]
      (or with every family: python -m benchmarks [--quick])

Cases (one BLAS thread on both sides, data built untimed, ours and scikit-learn
interleaved, medians of the repeats):

* closed form and coordinate descent (d = 50, n = 10^4, 10^5): OLS (lstsq, qr,
  cholesky), Ridge (lam = 10), LASSO (cd, fista) and two-class LDA against their
  scikit-learn counterparts with matching objective scaling; the gap column is the
  largest relative coefficient difference (LDA: 1 - |cos| of the discriminant directions);
* binary LogisticRegression (Newton, d = 20, n = 10^3, 10^4, 10^5) against
  ``sklearn.linear_model.LogisticRegression`` (lbfgs), and the symmetric
  SoftmaxRegression (Newton-CG) against multinomial lbfgs on standardised iris, wine and
  digits. Same problem on both sides: ``lam = 1/C = 1``, intercepts unpenalised. Matched
  tolerance ``TOL`` in scikit-learn's units: its lbfgs stops when the largest component
  of the gradient of the mean objective ``f = (sum_i loss_i + lam/2 ||W||^2) / N`` is at
  most ``tol``; ours stop when the same quantity is at most ``tol`` (softmax) and half
  the squared Newton decrement is at most ``tol N`` (both estimators; the binary Newton
  then takes one more full step). The gap column is the signed relative objective
  difference ``(F(ours) - F(sklearn)) / F(sklearn)`` (negative: ours is lower); the
  script also prints the gradient max-norm of ``f`` at both solutions.
"""

from __future__ import annotations

import argparse
import statistics
import time
import warnings

import numpy as np
import sklearn.discriminant_analysis as skda
import sklearn.linear_model as sklm
from scipy.special import logsumexp
from threadpoolctl import threadpool_limits

import algorithms.linear as ours

try:
    from benchmarks._harness import BenchCase
except ImportError:  # run as a script from the benchmarks directory
    from _harness import BenchCase  # type: ignore[no-redef]

#: scikit-learn's ``tol`` and ours, in the same units (see the module docstring)
TOL = 1e-8
LAM = 1.0  # = 1 / C
LOGISTIC_D = 20
LOGISTIC_SIZES = (1_000, 10_000, 100_000)
REGRESSION_D = 50
REGRESSION_SIZES = (10_000, 100_000)
LASSO_ALPHA = 0.05  # sklearn: 1/(2n)||.||^2 + alpha ||w||_1  <=>  ours: lam = 2 n alpha


# ------------------------------------------------------------------------------ data


def regression_data(n: int, d: int = REGRESSION_D, seed: int = 0):
    rng = np.random.default_rng(seed + n)
    X = rng.normal(size=(n, d)) * rng.uniform(0.5, 2.0, size=d) + rng.normal(size=d)
    w = rng.normal(size=d) * (rng.random(d) < 0.3)
    y = X @ w + 2.0 + rng.normal(size=n)
    return X, y


def classification_data(n: int, d: int = LOGISTIC_D, seed: int = 1):
    rng = np.random.default_rng(seed + n)
    X = rng.normal(size=(n, d))
    w = rng.normal(size=d) / np.sqrt(d)
    y = (rng.random(n) < 1.0 / (1.0 + np.exp(-(X @ w + 0.3)))).astype(int)
    return X, y


def lda_data(n: int, d: int = REGRESSION_D, seed: int = 2):
    rng = np.random.default_rng(seed + n)
    y = (rng.random(n) < 0.5).astype(int)
    A = rng.normal(size=(d, d)) / np.sqrt(d)
    X = rng.normal(size=(n, d)) @ A + y[:, None] * rng.normal(size=d) * 0.5
    return X, y


def standardised(name: str):
    from sklearn import datasets
    from sklearn.preprocessing import StandardScaler

    X, y = getattr(datasets, f"load_{name}")(return_X_y=True)
    return StandardScaler().fit_transform(X), y


# ------------------------------------------------------------------------ comparisons


def rel_diff(a, b) -> float:
    a, b = np.ravel(a), np.ravel(b)
    return float(np.max(np.abs(a - b)) / max(1.0, float(np.max(np.abs(b)))))


def scores(model, X) -> np.ndarray:
    """(N, K) class scores of a fitted model (binary: one column, the log-odds)."""
    return X @ np.atleast_2d(model.coef_).T + np.atleast_1d(model.intercept_)


def objective(model, X, y) -> float:
    """``F = sum_i loss_i + lam/2 ||W||^2`` (intercepts unpenalised), scikit-learn's
    objective times ``C N`` (binary: logistic loss; K classes: softmax cross-entropy)."""
    Z = scores(model, X)
    penalty = 0.5 * LAM * float(np.sum(np.asarray(model.coef_) ** 2))
    if Z.shape[1] == 1:
        z = Z[:, 0]
        return float(np.sum(np.logaddexp(0.0, np.where(y == 1, -z, z)))) + penalty
    return float(np.sum(logsumexp(Z, axis=1) - Z[np.arange(len(y)), y])) + penalty


def gradient_max_norm(model, X, y) -> float:
    """``max_j |grad f|_j`` of the mean objective ``f = F / N``: scikit-learn's ``tol``
    quantity (the intercepts included, unpenalised)."""
    Z = scores(model, X)
    if Z.shape[1] == 1:
        R = (1.0 / (1.0 + np.exp(-Z))) - (y == 1)[:, None]
    else:
        R = np.exp(Z - logsumexp(Z, axis=1, keepdims=True))
        R[np.arange(len(y)), y] -= 1.0
    G = np.vstack([X.T @ R + LAM * np.atleast_2d(model.coef_).T, R.sum(axis=0)])
    return float(np.max(np.abs(G))) / X.shape[0]


def objective_gap(data):
    X, y = data

    def gap(m, r) -> float:
        f_ref = objective(r, X, y)
        return (objective(m, X, y) - f_ref) / abs(f_ref)
    return gap


# ------------------------------------------------------------------------------ cases


def likelihood_cases(quick: bool) -> list[BenchCase]:
    cases = []
    for n in LOGISTIC_SIZES[:2] if quick else LOGISTIC_SIZES:
        data = classification_data(n)
        cases.append(BenchCase(
            name="LogisticRegression (newton) vs lbfgs", n=n,
            setup=lambda data=data: data,
            ours=lambda dat: ours.LogisticRegression(lam=LAM, tol=TOL).fit(*dat),
            reference=lambda dat: sklm.LogisticRegression(C=1.0 / LAM, tol=TOL,
                                                          max_iter=10_000).fit(*dat),
            objective_gap=objective_gap(data), repeats=5 if n >= 100_000 else 9,
            params={"d": LOGISTIC_D, "lam": LAM, "tol": TOL},
            reference_name="sklearn LogisticRegression(lbfgs)",
        ))
    for name in ("iris", "wine") if quick else ("iris", "wine", "digits"):
        data = standardised(name)
        cases.append(BenchCase(
            name=f"SoftmaxRegression symmetric ({name})", n=data[0].shape[0],
            setup=lambda data=data: data,
            ours=lambda dat: ours.SoftmaxRegression(parametrisation="symmetric", lam=LAM,
                                                    tol=TOL).fit(*dat),
            reference=lambda dat: sklm.LogisticRegression(C=1.0 / LAM, tol=TOL,
                                                          max_iter=10_000).fit(*dat),
            objective_gap=objective_gap(data), repeats=7,
            params={"d": data[0].shape[1], "K": int(data[1].max()) + 1, "lam": LAM,
                    "tol": TOL},
            reference_name="sklearn LogisticRegression(lbfgs, multinomial)",
        ))
    return cases


def closed_form_cases(quick: bool) -> list[BenchCase]:
    cases = []
    for n in REGRESSION_SIZES[:1] if quick else REGRESSION_SIZES:
        reg = regression_data(n)
        lda = lda_data(n)

        def coef_gap(m, r) -> float:
            return rel_diff(np.append(m.coef_, m.intercept_), np.append(r.coef_, r.intercept_))

        for solver in ("lstsq", "qr", "cholesky"):
            cases.append(BenchCase(
                name=f"LinearRegression ({solver})", n=n, setup=lambda reg=reg: reg,
                ours=lambda dat, s=solver: ours.LinearRegression(solver=s).fit(*dat),
                reference=lambda dat: sklm.LinearRegression().fit(*dat),
                objective_gap=coef_gap, repeats=5, params={"d": REGRESSION_D},
                reference_name="sklearn LinearRegression"))
        cases.append(BenchCase(
            name="Ridge (lam = 10)", n=n, setup=lambda reg=reg: reg,
            ours=lambda dat: ours.Ridge(lam=10.0).fit(*dat),
            reference=lambda dat: sklm.Ridge(alpha=10.0).fit(*dat),
            objective_gap=lambda m, r: rel_diff(m.coef_, r.coef_), repeats=5,
            params={"d": REGRESSION_D}, reference_name="sklearn Ridge"))
        for solver in ("cd", "fista"):
            cases.append(BenchCase(
                name=f"Lasso ({solver})", n=n, setup=lambda reg=reg: reg,
                ours=lambda dat, s=solver, n=n: ours.Lasso(
                    lam=2 * n * LASSO_ALPHA, solver=s, tol=1e-10).fit(*dat),
                reference=lambda dat: sklm.Lasso(alpha=LASSO_ALPHA, tol=1e-8,
                                                 max_iter=100_000).fit(*dat),
                objective_gap=lambda m, r: rel_diff(m.coef_, r.coef_), repeats=5,
                params={"d": REGRESSION_D}, reference_name="sklearn Lasso"))

        def lda_gap(m, r) -> float:
            w_ours, w_sk = np.ravel(m.scalings_[:, 0]), np.ravel(r.coef_[0])
            return 1.0 - abs(w_ours @ w_sk) / (np.linalg.norm(w_ours) * np.linalg.norm(w_sk))

        cases.append(BenchCase(
            name="LDA (two-class)", n=n, setup=lambda lda=lda: lda,
            ours=lambda dat: ours.LinearDiscriminantAnalysis().fit(*dat),
            reference=lambda dat: skda.LinearDiscriminantAnalysis(solver="svd").fit(*dat),
            objective_gap=lda_gap, repeats=5, params={"d": REGRESSION_D},
            reference_name="sklearn LinearDiscriminantAnalysis(svd)"))
    return cases


def cases(quick: bool) -> list[BenchCase]:
    """The benchmark's cases (``python -m benchmarks`` protocol)."""
    return likelihood_cases(quick) + closed_form_cases(quick)


# -------------------------------------------------------------------- standalone table


def run_case(case: BenchCase, repeats: int | None = None) -> dict:
    """Interleaved medians (ours first on even rounds, scikit-learn first on odd)."""
    data = case.setup()
    times = {"ours": [], "reference": []}
    out = {}
    rounds = case.repeats if repeats is None else repeats
    with threadpool_limits(1), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for r in range(rounds):
            for side in (("ours", "reference") if r % 2 == 0 else ("reference", "ours")):
                call = case.ours if side == "ours" else case.reference
                start = time.perf_counter()
                out[side] = call(data)
                times[side].append(time.perf_counter() - start)
    t_ours, t_ref = statistics.median(times["ours"]), statistics.median(times["reference"])
    row = {"name": case.name, "n": case.n, "ours": t_ours, "reference": t_ref,
           "ratio": t_ours / t_ref, "gap": case.objective_gap(out["ours"], out["reference"]),
           "grad": ""}
    if "tol" in case.params:
        X, y = data
        row["grad"] = (f"{gradient_max_norm(out['ours'], X, y):.1e} / "
                       f"{gradient_max_norm(out['reference'], X, y):.1e}")
    return row


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--repeats", type=int, default=None)
    parser.add_argument("--only", default="", help="substring of the case names to run")
    args = parser.parse_args(argv)
    header = (f"{'case':40s} {'n':>7s} {'ours [s]':>9s} {'sklearn [s]':>11s} {'ratio':>6s} "
              f"{'gap':>9s}  |grad f|_max ours / sklearn")
    print(f"one BLAS thread each, interleaved, medians; tol = {TOL:g} (sklearn units)")
    print(header)
    print("-" * len(header))
    for case in cases(args.quick):
        if args.only not in case.name:
            continue
        r = run_case(case, args.repeats)
        print(f"{r['name']:40s} {r['n']:7d} {r['ours']:9.4f} {r['reference']:11.4f} "
              f"{r['ratio']:6.2f} {r['gap']:+9.1e}  {r['grad']}", flush=True)


if __name__ == "__main__":
    main()
