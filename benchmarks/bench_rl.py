"""Benchmark (not a test): reinforcement-learning planning against its matrix-product floor.

Run:  python -m benchmarks --only 'rl/*'      or      python benchmarks/bench_rl.py [--quick]

Random MDPs from ``random_mdp`` (Dirichlet transition rows; sparse: 10 successors per
(x, a); dense: all S, only where A·S² <= 2·10⁸ entries), γ = 0.99.

- Value iteration: ``k`` synchronous sweeps (k = 300 up to 10³ states, 30 beyond; x3
  without ``--quick``) of (14.13) (θ tiny, so every sweep runs)
  against ``k`` products of the same stacked (A·S, S) transition matrix with a vector —
  the practical lower bound of a sweep. Ratio = time per sweep / time per product.
- Policy iteration (exact evaluation): the whole run against ``n_iter`` rounds of its
  floor — one linear solve of (I - γP_π)V = r_π (dense LU, or GMRES for sparse) and one
  stacked product per round, measured on the final policy's chain.
- Q-learning on FrozenLake 8x8 (slippery), when ``algorithms.reinforcement.QLearning``
  exists: 2·10⁵ steps of the compiled kernel on the gymnasium table (``from_gymnasium``)
  against the same learner driving the gymnasium environment itself (steps per second of
  both in the table's params).
"""

from __future__ import annotations

import sys
import time
import warnings
from pathlib import Path

import numpy as np
import scipy.linalg
import scipy.sparse as sp
import scipy.sparse.linalg

if __package__ in (None, ""):  # run as a script
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from sklearn.exceptions import ConvergenceWarning

from algorithms.reinforcement import policy_iteration, random_mdp, value_iteration
from benchmarks._harness import BenchCase

GAMMA = 0.99
BRANCHING = 10
DENSE_CAP = 2 * 10**8


def _mdp(S: int, A: int, sparse: bool):
    return lambda: random_mdp(S, A, branching=BRANCHING if sparse else None, sparse=sparse,
                              random_state=S + A)


def _vi_case(S: int, A: int, sparse: bool, sweeps: int) -> BenchCase:
    def setup():
        mdp = _mdp(S, A, sparse)()
        return mdp, np.random.default_rng(0).normal(size=S)

    def ours(data):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ConvergenceWarning)
            return value_iteration(data[0], gamma=GAMMA, theta=1e-300, max_iter=sweeps)

    def floor(data):
        P, v = data[0].transitions, data[1]
        for _ in range(sweeps):
            out = P @ v
        return out

    kind = "sparse" if sparse else "dense"
    return BenchCase(
        f"value iteration, {kind}, per sweep", S, ours=ours, reference=floor, setup=setup,
        repeats=3, params={"|A|": A, "storage": kind, "sweeps": sweeps,
                           "nnz": A * S * (BRANCHING if sparse else S)},
        reference_name=f"{sweeps} stacked {kind} mat-vecs (A*S x S)")


def _pi_case(S: int, A: int, sparse: bool) -> BenchCase:
    def setup():
        mdp = _mdp(S, A, sparse)()
        res = policy_iteration(mdp, gamma=GAMMA)
        P_pi, r_pi = mdp.policy_model(res.policy)
        return mdp, res.n_iter, P_pi, r_pi, res.V

    def ours(data):
        return policy_iteration(data[0], gamma=GAMMA).V

    def floor(data):
        mdp, rounds, P_pi, r_pi, _ = data
        S = r_pi.size
        for _ in range(rounds):
            if sp.issparse(P_pi) and S <= 500:  # what policy_evaluation does there
                system = (sp.identity(S, format="csc") - GAMMA * P_pi).tocsc()
                V = scipy.sparse.linalg.spsolve(system, r_pi)
            elif sp.issparse(P_pi):
                system = (sp.identity(S, format="csr") - GAMMA * P_pi).tocsr()
                V, _ = scipy.sparse.linalg.gmres(system, r_pi, rtol=1e-13, atol=0.0,
                                                 restart=60)
            else:
                V = scipy.linalg.solve(np.eye(S) - GAMMA * P_pi, r_pi)
            mdp.transitions @ V
        return V

    kind = "sparse" if sparse else "dense"
    return BenchCase(
        f"policy iteration (exact), {kind}", S, ours=ours, reference=floor, setup=setup,
        objective_gap=lambda a, b: float(np.max(np.abs(a - b))),
        repeats=3, params={"|A|": A, "storage": kind},
        reference_name="n_iter x (one solve of (I - gamma P_pi) V = r_pi + one stacked "
                       "mat-vec)")


def _qlearning_case(quick: bool) -> BenchCase | None:
    try:
        from algorithms.reinforcement import QLearning, from_gymnasium
    except ImportError:
        return None
    import gymnasium

    steps = 50_000 if quick else 200_000

    def setup():
        env = gymnasium.make("FrozenLake-v1", map_name="8x8", is_slippery=True)
        mdp = from_gymnasium(env)
        QLearning(n_steps=100, random_state=0).fit(mdp)  # numba warm-up
        return mdp, env

    def ours(data):
        return QLearning(gamma=0.99, alpha=0.1, epsilon=0.1, n_steps=steps,
                         random_state=0).fit(data[0])

    def gym_side(data):
        return QLearning(gamma=0.99, alpha=0.1, epsilon=0.1, n_steps=steps // 10,
                         random_state=0).fit(data[1])

    return BenchCase(
        "Q-learning on FrozenLake 8x8 (steps: ours 10x the reference's)", 64,
        ours=ours, reference=gym_side, setup=setup, repeats=3,
        params={"steps (ours)": steps, "steps (reference)": steps // 10},
        reference_name="QLearning stepping the gymnasium env (1/10 of the steps)")


def cases(quick: bool) -> list[BenchCase]:
    out = []
    sparse_sizes = [(100, 4), (1000, 4), (10_000, 4), (10_000, 10)]
    dense_sizes = [(100, 4), (1000, 4), (1000, 10)]
    if not quick:
        sparse_sizes += [(100, 10), (1000, 10)]
        dense_sizes += [(100, 10), (3000, 4)]
    def sweeps(S):  # enough sweeps that the fixed cost of a call does not dominate
        return (300 if S <= 1000 else 30) * (1 if quick else 3)

    for S, A in sparse_sizes:
        out.append(_vi_case(S, A, True, sweeps(S)))
        out.append(_pi_case(S, A, True))
    for S, A in dense_sizes:
        if A * S * S <= DENSE_CAP:
            out.append(_vi_case(S, A, False, sweeps(S)))
            out.append(_pi_case(S, A, False))
    q = _qlearning_case(quick)
    if q is not None:
        out.append(q)
    return out


def main(argv: list[str] | None = None) -> int:
    from benchmarks._runner import run_standalone

    if _qlearning_case(True) is None:
        print("Q-learning case skipped: algorithms.reinforcement.QLearning is not there yet.")
    return run_standalone("rl", cases, argv, __doc__.splitlines()[0])


if __name__ == "__main__":
    t0 = time.perf_counter()
    code = main()
    print(f"(total {time.perf_counter() - t0:.1f} s)")
    sys.exit(code)
