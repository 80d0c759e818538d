"""The ART network of 003 §3.5.2: winner-take-all competition and the vigilance rule
that creates recognition units online, checked by replaying the recorded presentations."""

from __future__ import annotations

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from algorithms.neural import ART
from mltheory import Method, claim, evidence
from mltheory.numeric import EXACT_ARITHMETIC, assert_close
from properties.neural.strategies_other import SEEDS, point_clouds
from properties.neural.support_other import check_art_run, check_one_active_unit

VIGILANCES = st.sampled_from([0.05, 0.2, 0.5, 0.8, 0.97])
RATES = st.sampled_from([0.01, 0.3, 0.5, 1.0])


@claim(
    id="art.winner_take_all",
    source="003 §3.5.2",
    statement="In the competitive (ART) network exactly one recognition unit wins and is "
    "active for every input, all others inhibited: the unit most similar to the input, "
    "during training (every recorded presentation) and when the trained network responds.",
    method=Method.PROPERTY,
    tags=("neural", "art"),
)
@given(X=point_clouds(), rho=VIGILANCES, eta=RATES, shuffle=st.booleans(), seed=SEEDS)
def winner_take_all(X, rho, eta, shuffle, seed):
    est = ART(vigilance=rho, learning_rate=eta, shuffle=shuffle, random_state=seed).fit(X)
    check_art_run(est, X, rho, eta)
    check_one_active_unit(est, X)
    evidence.worst("recognition units created", est.n_units_)


@claim(
    id="art.vigilance_new_unit",
    source="003 §3.5.2; Zhou 2016, Machine Learning, §5.5.2",
    statement="ART learns online by the vigilance rule: when the winner's similarity to "
    "the input exceeds the vigilance threshold the winner alone moves towards the input "
    "(c <- c + eta (x - c)); otherwise a new recognition unit is created with the input as "
    "its prototype, leaving every existing prototype unchanged. Presenting a stream in two "
    "parts (partial_fit) gives the same network as presenting it at once.",
    method=Method.PROPERTY,
    tags=("neural", "art"),
)
@given(X=point_clouds(min_size=3), rho=VIGILANCES, eta=RATES, cut=st.floats(0.1, 0.9))
def vigilance_new_unit(X, rho, eta, cut):
    est = ART(vigilance=rho, learning_rate=eta).fit(X)
    figures = check_art_run(est, X, rho, eta)
    evidence.worst("closest winner similarity to the vigilance", figures["margin"],
                   larger_is_worse=False)
    k = max(1, int(cut * X.shape[0]))
    online = ART(vigilance=rho, learning_rate=eta).fit(X[:k]).partial_fit(X[k:])
    assert online.n_units_ == est.n_units_, "a split stream grew a different network"
    assert_close(online.prototypes_, est.prototypes_, EXACT_ARITHMETIC,
                 scale=max(1.0, float(np.max(np.abs(X)))), label="|online - batch| / scale")
    assert np.array_equal(online.created_, est.created_)


@claim(
    id="art.stability_plasticity",
    source="003 §3.5.2",
    statement="ART eases the stability-plasticity dilemma: new inputs that no unit "
    "recognises (farther than the vigilance radius 1/rho - 1 from every prototype) are "
    "learnt by new units (plasticity) while every prototype learnt before stays exactly as "
    "it was (stability).",
    method=Method.PROPERTY,
    tags=("neural", "art"),
)
@given(X=point_clouds(min_size=2, max_size=25), rho=VIGILANCES, eta=RATES, seed=SEEDS)
def stability_plasticity(X, rho, eta, seed):
    est = ART(vigilance=rho, learning_rate=eta).fit(X)
    old = est.prototypes_.copy()
    radius = 1.0 / rho - 1.0
    rng = np.random.default_rng(seed)
    far = np.max(np.abs(X)) + 2.0 * radius + 1.0
    # a new group of inputs beyond the radius of every old prototype
    new = far + radius * 0.3 * rng.random((5, X.shape[1]))
    est.partial_fit(new)
    assert est.n_units_ > old.shape[0], "unfamiliar inputs created no unit"
    assert np.array_equal(est.prototypes_[: old.shape[0]], old), (
        "learning the unfamiliar inputs changed an old prototype")
    evidence.worst("units added for the new group", est.n_units_ - old.shape[0])
