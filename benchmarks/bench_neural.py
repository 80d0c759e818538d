"""Benchmark (not a test): one training epoch of the BP networks against scikit-learn.

Run:  python benchmarks/bench_neural.py [--sizes 1000 10000 100000] [--hidden 32]
                                        [--standard-sizes 1000 10000] [--repeats 3]

Same data (d = 64 standard-normal features, 10 classes), same architecture (one hidden
layer of ``--hidden`` logistic units, 10 logistic outputs), one process, one epoch each:

- accumulated BP (003 (3.12): one full-batch update per epoch) against
  ``MLPClassifier(solver="sgd", activation="logistic", batch_size=n, max_iter=1,
  momentum=0)``, which also makes one full-batch step; target of issue 14: ratio <= 2;
- mini-batch BP (32 per batch) against the same MLPClassifier with ``batch_size=32``;
- standard BP (per-sample updates (3.3)-(3.11)), the notes' sequential algorithm: a Python
  loop over the samples, quoted in microseconds per sample (no counterpart in
  scikit-learn, whose smallest batch is one sample through the same machinery: its
  ``batch_size=1`` is timed for comparison).

Both fits include input validation and the initialisation. scikit-learn's output layer
for 10 classes is a softmax with cross-entropy, ours 10 sigmoids with squared error (the
notes' (3.3)-(3.4)): the arithmetic per sample is the same order. Each row is the best of
``--repeats`` fits, alternating the two libraries (the machine's other load makes single
timings noisy).
"""

from __future__ import annotations

import argparse
import time
import warnings
from collections.abc import Callable

import numpy as np
from sklearn.exceptions import ConvergenceWarning
from sklearn.neural_network import MLPClassifier

from algorithms.neural import BPClassifier

D, CLASSES = 64, 10
TARGET = 2.0


def best_times(fit_a: Callable[[], object], fit_b: Callable[[], object] | None,
               repeats: int) -> tuple[float, float]:
    best_a = best_b = np.inf
    for _ in range(repeats):
        start = time.perf_counter()
        fit_a()
        best_a = min(best_a, time.perf_counter() - start)
        if fit_b is not None:
            start = time.perf_counter()
            fit_b()
            best_b = min(best_b, time.perf_counter() - start)
    return best_a, best_b


def data(n: int, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    X = rng.normal(size=(n, D))
    y = np.argmax(X[:, :CLASSES] + 0.5 * rng.normal(size=(n, CLASSES)), axis=1)
    return X, y


def ours(algorithm: str, q: int, batch: int = 32) -> BPClassifier:
    return BPClassifier(hidden_units=q, algorithm=algorithm, batch_size=batch, max_iter=1,
                        learning_rate=0.1, init_range=(-0.1, 0.1), random_state=0)


def theirs(q: int, batch: int) -> MLPClassifier:
    return MLPClassifier(hidden_layer_sizes=(q,), activation="logistic", solver="sgd",
                         batch_size=batch, max_iter=1, momentum=0.0, learning_rate_init=0.1,
                         alpha=0.0, shuffle=True, random_state=0)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 10000, 100000])
    parser.add_argument("--standard-sizes", type=int, nargs="+", default=[1000, 10000])
    parser.add_argument("--hidden", type=int, default=32)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    rng = np.random.default_rng(0)
    q = args.hidden
    warnings.simplefilter("ignore", ConvergenceWarning)
    print(f"d = {D}, classes = {CLASSES}, q = {q}; best of {args.repeats}; one epoch\n")
    print(f"{'algorithm':<22}{'n':>8}{'ours (s)':>12}{'sklearn (s)':>13}{'ratio':>8}  target")
    for n in args.sizes:
        X, y = data(n, rng)
        for name, algorithm, batch in (("accumulated BP", "accumulated", n),
                                       ("mini-batch BP (32)", "minibatch", 32)):
            a, b = best_times(lambda: ours(algorithm, q, batch).fit(X, y),  # noqa: B023
                              lambda: theirs(q, batch).fit(X, y), args.repeats)  # noqa: B023
            mark = f"<= {TARGET}" if algorithm == "accumulated" else ""
            print(f"{name:<22}{n:>8}{a:>12.4f}{b:>13.4f}{a / b:>8.2f}  {mark}")
    for n in args.standard_sizes:
        X, y = data(n, rng)
        a, b = best_times(lambda: ours("standard", q).fit(X, y),  # noqa: B023
                          lambda: theirs(q, 1).fit(X, y), 1)  # noqa: B023
        print(f"{'standard BP (1)':<22}{n:>8}{a:>12.4f}{b:>13.4f}{a / b:>8.2f}  "
              f"(per sample: ours {1e6 * a / n:.1f} us, sklearn batch 1 {1e6 * b / n:.1f} us)")


if __name__ == "__main__":
    main()
