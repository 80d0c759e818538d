"""Benchmark: our SMO (algorithms.svm.SMOClassifier, SVR) against scikit-learn's libsvm.

Both fit the same data (n = 1000, 2000, 5000; d = 20; linear and RBF kernels), with the
same C = 1, the same tolerance 1e-3 on the maximal KKT violation, the same kernel
parameters, one BLAS thread each, and libsvm's default cache of 200 MB against our
``cache_size = 200`` MiB. Fits are interleaved (ours, libsvm, ours, ...) and the medians of
the repeats reported. The objective gap is the signed relative difference of the two dual
objectives (ours - libsvm) / |libsvm|, both evaluated here from the returned multipliers
with one Gram matrix: both are feasible points of the same maximised dual, so a positive
gap means ours is at least that much closer to the optimum. ``pred diff`` is
the fraction of test points whose predicted label (SVC) differs, or the
largest prediction difference relative to the target spread (SVR).

Run: python benchmarks/bench_svm.py [--quick] [--repeats 3]   (or: python -m benchmarks)
"""

from __future__ import annotations

import argparse
import statistics
import time
import warnings

import numpy as np
from sklearn.svm import SVC
from sklearn.svm import SVR as SKLEARN_SVR
from threadpoolctl import threadpool_limits

from algorithms.svm import SVR, SMOClassifier

try:
    from benchmarks._harness import BenchCase
except ImportError:  # run as a script from the benchmarks directory
    from _harness import BenchCase  # type: ignore[no-redef]

D = 20
C = 1.0
TOL = 1e-3
EPSILON = 0.1
SIGMA = np.sqrt(D / 2)  # gamma = 1 / (2 sigma^2) = 1 / d
SIZES = (1000, 2000, 5000)
#: libsvm's max_iter defaults to no limit; ours to 100 000 updates: lifted for equal answers
NO_CAP = 10**9
QUICK_SIZES = (1000, 2000)


def make_classification(n: int, kernel: str, seed: int = 2024):
    """Gaussian features; a linear boundary (linear kernel) or a radial one (RBF), with
    label noise. ``n`` training points and as many test points."""
    rng = np.random.default_rng(seed + n)
    X = rng.normal(size=(2 * n, D))
    if kernel == "linear":
        score = X @ rng.normal(size=D) + 0.5 * rng.normal(size=2 * n)
    else:
        score = np.sum(X[:, :3] ** 2, axis=1) - 3.0 + 0.5 * rng.normal(size=2 * n)
    y = np.where(score > 0, 1, -1)
    return X[:n], y[:n], X[n:], y[n:]


def make_regression(n: int, kernel: str, seed: int = 7):
    """Gaussian features; a linear target (linear kernel) or a smooth non-linear one."""
    rng = np.random.default_rng(seed + n)
    X = rng.normal(size=(2 * n, D))
    if kernel == "linear":
        f = X @ rng.normal(size=D) / np.sqrt(D)
    else:
        f = np.sin(X[:, 0]) + 0.5 * X[:, 1] * X[:, 2]
    y = f + 0.3 * rng.normal(size=2 * n)
    return X[:n], y[:n], X[n:], y[n:]


def _ours_params(kernel: str) -> dict:
    return {"kernel": "rbf", "kernel_params": {"sigma": SIGMA}} if kernel == "rbf" else {
        "kernel": "linear"}


def _sk_params(kernel: str) -> dict:
    return {"kernel": "rbf", "gamma": 1 / (2 * SIGMA**2)} if kernel == "rbf" else {
        "kernel": "linear"}


def _gram(kernel: str, A: np.ndarray, B: np.ndarray) -> np.ndarray:
    if kernel == "linear":
        return A @ B.T
    sq = (A**2).sum(1)[:, None] + (B**2).sum(1)[None, :] - 2 * A @ B.T
    return np.exp(-np.maximum(sq, 0.0) / (2 * SIGMA**2))


def _coef_sv(model) -> tuple[np.ndarray, np.ndarray]:
    """(support indices, signed dual coefficients) of either implementation."""
    return np.asarray(model.support_), np.asarray(model.dual_coef_[0], dtype=float)


def svc_dual(kernel: str, X: np.ndarray, model) -> float:
    """sum alpha - 1/2 (alpha y)^T K (alpha y), from the support vectors."""
    sv, coef = _coef_sv(model)
    K = _gram(kernel, X[sv], X[sv])
    return float(np.abs(coef).sum() - 0.5 * coef @ K @ coef)


def svr_dual(kernel: str, X: np.ndarray, y: np.ndarray, model) -> float:
    """y^T d - eps |d|_1 - 1/2 d^T K d with d = ah - a (at an optimum a ah = 0)."""
    sv, coef = _coef_sv(model)
    K = _gram(kernel, X[sv], X[sv])
    return float(y[sv] @ coef - EPSILON * np.abs(coef).sum() - 0.5 * coef @ K @ coef)


def _fit(model, X, y):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return model.fit(X, y)


def _case(task: str, kernel: str, n: int, repeats: int) -> BenchCase:
    if task == "SVC":
        X, y, Xt, yt = make_classification(n, kernel)

        def ours(_):
            return _fit(SMOClassifier(C=C, tol=TOL, max_iter=NO_CAP, **_ours_params(kernel)),
                        X, y)

        def reference(_):
            return _fit(SVC(C=C, tol=TOL, **_sk_params(kernel)), X, y)

        def gap(a, b):
            wa, wb = svc_dual(kernel, X, a), svc_dual(kernel, X, b)
            return (wa - wb) / max(abs(wb), 1e-300)

        def pred(a, b):
            return float(np.mean(a.predict(Xt) != b.predict(Xt)))

        name, ref_name = f"SMOClassifier {kernel} vs SVC", "sklearn.svm.SVC"
    else:
        X, y, Xt, yt = make_regression(n, kernel)

        def ours(_):
            return _fit(SVR(C=C, epsilon=EPSILON, tol=TOL, max_iter=NO_CAP,
                            **_ours_params(kernel)), X, y)

        def reference(_):
            return _fit(SKLEARN_SVR(C=C, epsilon=EPSILON, tol=TOL, **_sk_params(kernel)), X, y)

        def gap(a, b):
            wa, wb = svr_dual(kernel, X, y, a), svr_dual(kernel, X, y, b)
            return (wa - wb) / max(abs(wb), 1e-300)

        def pred(a, b):
            return float(np.max(np.abs(a.predict(Xt) - b.predict(Xt))) / np.std(yt))

        name, ref_name = f"SVR {kernel} vs SVR", "sklearn.svm.SVR"

    def setup():
        # load the compiled solver (numba, cached on disk; compiled on a first run)
        small = SMOClassifier if task == "SVC" else SVR
        _fit(small(**_ours_params(kernel)), X[:50], y[:50])
        return None

    return BenchCase(name=name, n=n, ours=ours, reference=reference, setup=setup,
                     objective_gap=gap, repeats=repeats,
                     params={"d": D, "kernel": kernel, "C": C, "tol": TOL, "task": task,
                             "prediction_difference": pred},
                     reference_name=ref_name)


def cases(quick: bool) -> list[BenchCase]:
    """The runner's cases: SVC and SVR, linear and RBF, at n = 1000, 2000 (quick) and
    5000."""
    sizes = QUICK_SIZES if quick else SIZES
    return [_case(task, kernel, n, repeats=3)
            for task in ("SVC", "SVR") for kernel in ("linear", "rbf") for n in sizes]


def run_case(case: BenchCase) -> dict:
    """Time one case as the runner does: setup, then interleaved repeats, medians."""
    state = case.setup()
    t_ours, t_ref = [], []
    res_ours = res_ref = None
    with threadpool_limits(1):
        for _ in range(case.repeats):
            t0 = time.perf_counter()
            res_ours = case.ours(state)
            t1 = time.perf_counter()
            res_ref = case.reference(state)
            t2 = time.perf_counter()
            t_ours.append(t1 - t0)
            t_ref.append(t2 - t1)
    ours_s, ref_s = statistics.median(t_ours), statistics.median(t_ref)
    return {"name": case.name, "n": case.n, "ours": ours_s, "reference": ref_s,
            "ratio": ours_s / ref_s, "gap": case.objective_gap(res_ours, res_ref),
            "pred": case.params["prediction_difference"](res_ours, res_ref),
            "iter": res_ours.n_iter_, "ref_iter": int(np.sum(res_ref.n_iter_)),
            "sv": res_ours.support_.size, "ref_sv": res_ref.support_.size}


def growth_exponents(rows: list[dict]) -> dict:
    """Least-squares slope of log time against log n, per case name and side."""
    out = {}
    for name in dict.fromkeys(r["name"] for r in rows):
        sel = [r for r in rows if r["name"] == name]
        if len(sel) < 2:
            continue
        ln = np.log([r["n"] for r in sel])
        out[name] = tuple(float(np.polyfit(ln, np.log([r[side] for r in sel]), 1)[0])
                          for side in ("ours", "reference"))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="n = 1000, 2000 only")
    parser.add_argument("--repeats", type=int, default=None)
    parser.add_argument("--only", default="", help="substring of the case names to run")
    args = parser.parse_args()
    rows = []
    print(f"{'case':30} {'n':>5} {'ours s':>8} {'libsvm s':>8} {'ratio':>6} {'obj gap':>9} "
          f"{'pred diff':>9} {'iter':>7} {'libsvm it':>9} {'#SV':>5}/{'#SV':<5}", flush=True)
    for case in cases(args.quick):
        if args.only not in case.name:
            continue
        if args.repeats is not None:
            case = BenchCase(**{**case.__dict__, "repeats": args.repeats})
        r = run_case(case)
        rows.append(r)
        print(f"{r['name']:30} {r['n']:5d} {r['ours']:8.3f} {r['reference']:8.3f} "
              f"{r['ratio']:6.2f} {r['gap']:+9.1e} {r['pred']:9.1e} {r['iter']:7d} "
              f"{r['ref_iter']:9d} {r['sv']:5d}/{r['ref_sv']:<5d}", flush=True)
    for name, (ours, ref) in growth_exponents(rows).items():
        print(f"time growth n^p, {name:30}: ours p = {ours:.2f}, libsvm p = {ref:.2f}")


if __name__ == "__main__":
    main()
