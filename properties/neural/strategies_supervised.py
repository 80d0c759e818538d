"""Hypothesis strategies of the supervised-network claims (003 §3.1-§3.5.1): small d-q-l
sigmoid networks with one training sample or a small sample, weights drawn at a drawn
scale so that some examples saturate their sigmoids."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from algorithms.neural import BPParams

__all__ = ["NetworkProblem", "WEIGHT_SCALES", "network_problems"]

#: Scales of the drawn weights: moderate, large (pre-activations of tens: sigmoids
#: saturated to within 1e-10 of 0 or 1) and small (nearly linear units).
WEIGHT_SCALES = (0.1, 1.0, 4.0, 25.0)


@dataclass
class NetworkProblem:
    """A network ``params`` and a sample ``X`` (m, d) with targets ``Y`` (m, l) in [0, 1]."""

    params: BPParams
    X: np.ndarray
    Y: np.ndarray

    @property
    def shape(self) -> tuple[int, int, int]:
        return self.params.v.shape[0], self.params.v.shape[1], self.params.w.shape[1]


def _unit_floats() -> st.SearchStrategy[float]:
    return st.floats(-1.0, 1.0, allow_nan=False, allow_infinity=False, width=64)


@st.composite
def network_problems(draw, *, max_d: int = 4, max_q: int = 5, max_l: int = 3,
                     max_m: int = 1) -> NetworkProblem:
    """A d-q-l network with weights ``scale * u``, ``u`` in [-1, 1], and ``m`` samples
    with inputs in [-3, 3] and targets in [0, 1]."""
    d = draw(st.integers(1, max_d))
    q = draw(st.integers(1, max_q))
    l = draw(st.integers(1, max_l))  # noqa: E741 (the notes' name)
    m = draw(st.integers(1, max_m))
    scale = draw(st.sampled_from(WEIGHT_SCALES))

    def arr(shape):
        return scale * draw(hnp.arrays(np.float64, shape, elements=_unit_floats()))

    params = BPParams(arr((d, q)), arr((q,)), arr((q, l)), arr((l,)))
    X = 3.0 * draw(hnp.arrays(np.float64, (m, d), elements=_unit_floats()))
    Y = draw(hnp.arrays(np.float64, (m, l), elements=st.floats(0.0, 1.0, width=64)))
    return NetworkProblem(params, X, Y)
