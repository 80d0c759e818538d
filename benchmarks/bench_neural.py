"""Benchmark (not a test): one training epoch of the BP networks against scikit-learn.

Run:  python -m benchmarks --only neural [--quick]
      python benchmarks/bench_neural.py [--quick]

Same data (d = 64 standard-normal features, 10 classes), same architecture (one hidden
layer of 32 logistic units, 10 logistic outputs), one epoch each:

- accumulated BP (003 (3.12): one full-batch update per epoch) against
  ``MLPClassifier(solver="sgd", activation="logistic", batch_size=n, max_iter=1,
  momentum=0)``, which also makes one full-batch step; target of issue 14: ratio <= 2;
- mini-batch BP (32 per batch) against the same MLPClassifier with ``batch_size=32``;
- standard BP (per-sample updates (3.3)-(3.11)), the notes' sequential algorithm, against
  scikit-learn's ``batch_size=1`` (its smallest batch, through the same machinery).

Both fits include input validation and the initialisation. scikit-learn's output layer
for 10 classes is a softmax with cross-entropy, ours 10 sigmoids with squared error (the
notes' (3.3)-(3.4)): the arithmetic per sample is the same order. No gap is reported
(different losses).
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
from sklearn.neural_network import MLPClassifier

try:
    from benchmarks._harness import BenchCase
except ModuleNotFoundError:  # run as a script: python benchmarks/bench_neural.py
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from benchmarks._harness import BenchCase

from algorithms.neural import BPClassifier

D, CLASSES, HIDDEN = 64, 10, 32


def data(n: int) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(n)
    X = rng.normal(size=(n, D))
    y = np.argmax(X[:, :CLASSES] + 0.5 * rng.normal(size=(n, CLASSES)), axis=1)
    return X, y


def ours(algorithm: str, batch: int = 32) -> BPClassifier:
    return BPClassifier(hidden_units=HIDDEN, algorithm=algorithm, batch_size=batch,
                        max_iter=1, learning_rate=0.1, init_range=(-0.1, 0.1), random_state=0)


def theirs(batch: int) -> MLPClassifier:
    return MLPClassifier(hidden_layer_sizes=(HIDDEN,), activation="logistic", solver="sgd",
                         batch_size=batch, max_iter=1, momentum=0.0, learning_rate_init=0.1,
                         alpha=0.0, shuffle=True, random_state=0)


def cases(quick: bool) -> list[BenchCase]:
    sizes = [1000, 10_000] if quick else [1000, 10_000, 100_000]
    standard = [1000] if quick else [1000, 10_000]
    params = {"d": D, "hidden": HIDDEN, "classes": CLASSES, "epochs": 1}
    out = []
    for n in sizes:
        for name, algorithm, batch in (("accumulated BP (full batch)", "accumulated", n),
                                       ("mini-batch BP (32)", "minibatch", 32)):
            out.append(BenchCase(
                name, n, ours=lambda s, a=algorithm, b=batch: ours(a, b).fit(*s),
                reference=lambda s, b=batch: theirs(b).fit(*s), setup=lambda n=n: data(n),
                repeats=3, params=params,
                reference_name=f"sklearn MLPClassifier sgd batch_size={batch}"))
    for n in standard:
        out.append(BenchCase(
            "standard BP (per sample)", n, ours=lambda s: ours("standard").fit(*s),
            reference=lambda s: theirs(1).fit(*s), setup=lambda n=n: data(n), repeats=1,
            params=params, reference_name="sklearn MLPClassifier sgd batch_size=1"))
    return out


def main(argv: list[str] | None = None) -> int:
    from benchmarks._runner import run_standalone

    return run_standalone("neural", cases, argv, __doc__.splitlines()[0])


if __name__ == "__main__":
    sys.exit(main())
