"""A genetic algorithm over network weights, the fourth escape of 003 §3.4.

Gradient search follows one path downhill; a genetic algorithm keeps a *population* of
weight vectors and breeds the better ones, so it is not tied to the basin of one start.
The generation used by the BP estimators' ``algorithm="genetic"``:

- fitness is the training objective ((3.12), or (3.13) with weight decay), lower better;
- the best ``n_elite`` individuals pass unchanged (elitism: the best objective of the
  population never rises from one generation to the next);
- every other child takes each gene from one of two parents, each parent the better of
  two individuals drawn at random (binary tournament), and each gene is then perturbed
  with probability ``mutation_rate`` by a normal step of sd ``mutation_scale``.

Both functions are unvalidated loop helpers (the estimators validate their settings) and
work on flat parameter vectors in :meth:`BPParams.flat` order, one row per individual.
"""

from __future__ import annotations

import numpy as np
from scipy.special import expit


def population_objectives(X: np.ndarray, Y: np.ndarray, population: np.ndarray,
                          dims: tuple[int, int, int], lam: float | None) -> np.ndarray:
    """The objective of every row of ``population`` (a (P, n_params) array), vectorised
    over individuals and samples."""
    d, q, l = dims  # noqa: E741
    P = population.shape[0]
    i = 0
    V = population[:, i:i + d * q].reshape(P, d, q)
    i += d * q
    gamma = population[:, i:i + q]
    i += q
    W = population[:, i:i + q * l].reshape(P, q, l)
    i += q * l
    theta = population[:, i:i + l]
    B = expit(np.einsum("md,pdq->pmq", X, V) - gamma[:, None, :])
    Y_hat = expit(np.einsum("pmq,pql->pml", B, W) - theta[:, None, :])
    E = 0.5 * np.mean(np.sum((Y_hat - Y[None]) ** 2, axis=2), axis=1)      # (3.4), (3.12)
    if lam is None:
        return E
    return lam * E + (1.0 - lam) * np.sum(population * population, axis=1)  # (3.13)


def next_generation(population: np.ndarray, fitness: np.ndarray, rng: np.random.Generator,
                    mutation_rate: float, mutation_scale: float, n_elite: int = 1
                    ) -> np.ndarray:
    """Elites, then children by binary tournament, uniform crossover and mutation."""
    P, n = population.shape
    n_child = P - n_elite
    elites = population[np.argsort(fitness, kind="stable")[:n_elite]]
    first, second = rng.integers(P, size=(2, 2, n_child))
    parents = np.where(fitness[first] <= fitness[second], first, second)   # (2, n_child)
    take_first = rng.random((n_child, n)) < 0.5
    children = np.where(take_first, population[parents[0]], population[parents[1]])
    mutate = rng.random((n_child, n)) < mutation_rate
    children = children + mutate * rng.normal(scale=mutation_scale, size=(n_child, n))
    return np.vstack([elites, children])
