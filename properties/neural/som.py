"""The self-organising map of 003 §3.5.3: topology preservation, as printed (exact, an
overclaim) and as it holds (statistically: the trained lattice is far more trustworthy
than a random arrangement of the same prototypes)."""

from __future__ import annotations

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from algorithms.neural import SOM
from mltheory import ErratumKind, Expect, Method, claim, evidence
from properties.neural.strategies_other import SEEDS
from properties.neural.support_other import (
    check_neighbours_adjacent,
    check_som_replay,
    check_topology_beats_random,
    som_data,
)


def trained_map(X, seed):
    """The 6 x 6 map both claims train (10 epochs, default rate and radius schedule)."""
    return SOM(n_rows=6, n_cols=6, n_epochs=10, random_state=seed).fit(X)


@claim(
    id="som.topology_as_written",
    source="003 §3.5.3",
    statement="(As printed) a SOM maps high-dimensional data to a low-dimensional lattice "
    "preserving the data's topology: inputs that are nearest neighbours land on the same or "
    "adjacent lattice units.",
    method=Method.PROPERTY,
    tags=("neural", "som", "erratum"),
    expect=Expect.REFUTED,
    kind=ErratumKind.OVERCLAIM,
    corrected_by="som.topology",
    explanation="No continuous map from a 3-d region onto a plane keeps every "
    "neighbourhood (invariance of domain), so a 2-d lattice cannot preserve the topology of "
    "genuinely 3-d data: the map folds, and some nearest neighbours land several units "
    "apart. What holds is a statistical preservation, far better than chance.",
)
@given(seed=SEEDS, d=st.integers(3, 5))
def topology_as_written(seed, d):
    rng = np.random.default_rng(seed)
    X = rng.uniform(size=(150, d))
    check_neighbours_adjacent(trained_map(X, seed), X)


@claim(
    id="som.topology",
    source="003 §3.5.3",
    statement="A trained SOM preserves topology statistically: the trustworthiness of its "
    "lattice as an embedding of its prototypes beats every one of 99 random arrangements "
    "of the same prototypes, for each of four maps (a curved 2-d sheet in R^5 and the 3-d "
    "cube); a random map passes this with probability at most 1e-8.",
    method=Method.SIMULATION,
    tags=("neural", "som"),
)
def topology(rng, scale):
    check_topology_beats_random(trained_map, rng, n_maps=4 * scale)
    evidence.note("trustworthiness: scikit-learn's sklearn.manifold.trustworthiness, "
                  "k = 4 (the lattice neighbours of an interior unit)")


@claim(
    id="som.schedules",
    source="003 §3.5.3",
    statement="The SOM's learning rate and neighbourhood radius decay monotonically from "
    "their initial to their final values over training (as recorded per step), and the "
    "recorded quantisation error is the mean distance of the data to their best-matching "
    "units.",
    method=Method.PROPERTY,
    tags=("neural", "som"),
)
@given(seed=SEEDS, kind=st.sampled_from(["sheet", "cube"]), epochs=st.integers(2, 6))
def schedules(seed, kind, epochs):
    rng = np.random.default_rng(seed)
    X = som_data(kind, rng, 80)
    som = SOM(n_rows=4, n_cols=5, n_epochs=epochs, random_state=seed).fit(X)
    eta, sigma = som.learning_rate_history_, som.radius_history_
    assert eta.shape == sigma.shape == (epochs * 80,)
    assert np.all(np.diff(eta) <= 0) and np.all(np.diff(sigma) <= 0)
    assert np.isclose(eta[0], 0.5) and np.isclose(eta[-1], 0.01)
    assert np.isclose(sigma[0], 2.5) and np.isclose(sigma[-1], 0.5)
    qe = som.quantization_error_history_
    own = np.mean(np.min(np.linalg.norm(X[:, None] - som.weights_[None], axis=2), axis=1))
    assert np.isclose(qe[-1], own, rtol=1e-9), "recorded final quantisation error is wrong"
    assert som.quantization_error_ == qe[-1]
    assert np.isclose(som.quantization_error(X), own, rtol=1e-9)
    # not monotone: the initial map is made of samples (small error) and the wide early
    # neighbourhood first pulls all units together; recorded as a figure only
    evidence.worst("final / initial quantisation error", qe[-1] / qe[0])


@claim(
    id="som.update_rule",
    source="003 §3.5.3; Kohonen 1982",
    statement="Every SOM step moves the best-matching unit of the presented sample and its "
    "lattice neighbours towards the sample, unit u by eta_t exp(-||r_u - r_b||^2 / "
    "(2 sigma_t^2)) (x - w_u) with the recorded decaying rate and radius: replayed from the "
    "initial weights in the recorded order, the recorded best matches are nearest and the "
    "replay ends on the fitted map.",
    method=Method.PROPERTY,
    tags=("neural", "som"),
)
@given(seed=SEEDS, kind=st.sampled_from(["sheet", "cube"]), rows=st.integers(1, 4),
       cols=st.integers(2, 5), epochs=st.integers(1, 3),
       size=st.sampled_from([1e-3, 1.0, 1e3]))
def update_rule(seed, kind, rows, cols, epochs, size):
    X = som_data(kind, np.random.default_rng(seed), 30) * size
    som = SOM(n_rows=rows, n_cols=cols, n_epochs=epochs, random_state=seed).fit(X)
    check_som_replay(som, X)
